# SPDX-License-Identifier: GPL-2.0
"""Synthetic pts.json documents (format_version 1, Documentation/pts.rst)
of the iops (56 points x 6 rounds), throughput, latency, wsat, hir, xsr,
ecw and dirth (TC 2, 1 x QD 4, 1 x 5 rounds, three operating points)
tests, the plots each report shows, and render(), which runs the renderer
on one.
"""
import json
import os
import subprocess

from report import PYTHON, SCRIPT

IOPS_BS = [1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512]
MIXES = [100, 95, 65, 50, 35, 5, 0]
PCT_KEYS = ["50.000000", "90.000000", "99.000000", "99.900000", "99.990000", "99.999000"]


# --------------------------------------------------------------------------
# synthetic pts.json documents

def direction(ios_per_s, bs, lat_ns, runtime_ms):
    """DIR of a point: @ios_per_s I/Os per second, or none."""
    ios = int(round(ios_per_s * runtime_ms / 1000.0))
    if not ios:
        return {"ios": 0, "bytes": 0, "iops": 0.0, "bw_bytes": 0.0, "lat_min_ns": None,
                "lat_mean_ns": None, "lat_max_ns": None, "percentiles": None}
    pct = {k: int(lat_ns * (1 + i * 0.75)) for i, k in enumerate(PCT_KEYS)}
    return {"ios": ios, "bytes": ios * bs, "iops": float(ios_per_s),
            "bw_bytes": float(ios_per_s * bs), "lat_min_ns": int(lat_ns / 3),
            "lat_mean_ns": float(lat_ns), "lat_max_ns": int(lat_ns * 9), "percentiles": pct}


def point(bs, mix, iops, lat_ns, pattern="random", runtime_ms=1000):
    rd, wr = iops * mix / 100.0, iops * (100 - mix) / 100.0
    r = direction(rd, bs, lat_ns * 0.8, runtime_ms)
    w = direction(wr, bs, lat_ns * 1.2, runtime_ms)
    n = r["ios"] + w["ios"]
    mean = (r["ios"] * (r["lat_mean_ns"] or 0) + w["ios"] * (w["lat_mean_ns"] or 0)) / n
    return {"bs": bs, "rwmixread": mix, "pattern": pattern, "runtime_ms": runtime_ms,
            "iops": r["iops"] + w["iops"], "bw_bytes": r["bw_bytes"] + w["bw_bytes"],
            "lat_mean_ns": mean, "lat_max_ns": max(x["lat_max_ns"] or 0 for x in (r, w)),
            "read": r, "write": w}


def health(rnd):
    return {"temperature_k": 310 + rnd, "data_units_written": 1000 * rnd,
            "data_units_read": 500 * rnd, "host_write_commands": 10000 * rnd,
            "host_read_commands": 5000 * rnd, "percentage_used": 0, "critical_warning": 0,
            "media_errors": 0, "power_on_hours": 1, "available_spare": 100}


def steady_state(values, first, max_rounds=25, reached=True):
    """steady_state of the window @values starting at round @first."""
    n = len(values)
    xs = list(range(first, first + n))
    xm, ym = sum(xs) / n, sum(values) / n
    slope = sum((x - xm) * (y - ym) for x, y in zip(xs, values)) / \
        sum((x - xm) ** 2 for x in xs)
    rng = max(values) - min(values)
    exc = abs(slope) * (n - 1)
    return {"reached": reached, "round": first + n - 1 if reached else None,
            "window": [first, first + n - 1], "values": values, "average": ym,
            "min": min(values), "max": max(values), "range": rng,
            "range_pct": rng / ym * 100, "range_pass": rng <= 0.2 * ym,
            "slope": slope, "intercept": ym - slope * xm, "slope_excursion": exc,
            "slope_excursion_pct": exc / ym * 100, "slope_pass": exc <= 0.1 * ym,
            "range_limit_pct": 20.0, "slope_limit_pct": 10.0,
            "rounds_run": first + n - 1, "max_rounds": max_rounds}


def results(rounds, first, last):
    """The measurement window as pts.c computes it: means, max of maxima."""
    win = [r for r in rounds if first <= r["round"] <= last]
    out = []
    for k, p0 in enumerate(win[0]["points"]):
        ps = [r["points"][k] for r in win]
        pt = {"bs": p0["bs"], "rwmixread": p0["rwmixread"], "pattern": p0["pattern"]}
        for key in ("iops", "bw_bytes", "lat_mean_ns"):
            pt[key] = sum(p[key] for p in ps) / len(ps)
        pt["lat_max_ns"] = max(p["lat_max_ns"] for p in ps)
        for d in ("read", "write"):
            x = {key: sum(p[d][key] for p in ps) / len(ps) for key in ("iops", "bw_bytes")}
            lat = [p[d]["lat_mean_ns"] for p in ps if p[d]["lat_mean_ns"] is not None]
            x["lat_mean_ns"] = sum(lat) / len(lat) if lat else None
            x["lat_max_ns"] = max(p[d]["lat_max_ns"] for p in ps) if lat else None
            x["percentiles"] = ({key: max(p[d]["percentiles"][key] for p in ps)
                                 for key in PCT_KEYS} if lat else None)
            pt[d] = x
        out.append(pt)
    return {"window": [first, last], "points": out}


def base_doc(test, title, scaled=True):
    devs = ["point time 1000 ms (spec: 60000 ms)", "purge: none"] if scaled else []
    return {
        "format": "ssdload-pts", "format_version": 1, "spec": "SNIA SSS PTS 2.0.2",
        "ssdload_version": "0.9", "test": test, "title": title, "variant": "Enterprise",
        "command": ["ssdload", "pts", test, "--filename=/dev/nvme0n1", "--allow_write"],
        "state": "complete", "started": "2026-12-04T12:00:00Z",
        "updated": "2026-12-04T12:30:00Z", "finished": "2026-12-04T12:30:00Z",
        "conformant": not scaled, "deviations": devs, "scaled": scaled,
        "device": {
            "path": "/dev/nvme0n1", "kind": "nvme", "model": "QEMU NVMe Ctrl",
            "serial": "deadbeef", "firmware": "8.0.0", "capacity_bytes": 268435456,
            "logical_block_size": 512, "physical_block_size": 512,
            "lba_format": {"index": 0, "data_bytes": 512, "metadata_bytes": 0},
            "write_cache": {"present": True, "requested": "off", "before": "enabled",
                            "during": "disabled"}},
        "settings": {
            "threads": 4, "iodepth": 32, "offset_bytes": 0,
            "active_range_bytes": 268435456, "active_range_pct": 100.0,
            "point_ms": 1000, "spec_point_ms": 60000, "max_rounds": 25, "window": 5,
            "range_limit_pct": 20, "slope_limit_pct": 10, "blockalign": 4096,
            "pattern": "random"},
        "purge": {"method": "format", "detail": "Format NVM, SES=1 (user data erase), LBAF 0",
                  "duration_ms": 120, "conformant": True},
        "wipc": {"bytes": 536870912, "bs": 131072, "duration_ms": 5000},
        "wdpc": {"rounds": 6, "duration_ms": 336000},
        "health_before": health(0), "health_after": health(7),
        "rounds": [], "steady_state": None, "results": None,
    }


def round_doc(r, points, tracking):
    return {"round": r, "started": "2026-12-04T12:%02d:00Z" % r, "duration_ms": 56000 + r,
            "tracking": tracking, "health_before": health(r - 1), "health_after": health(r),
            "run_file": "rounds/round-%03d.json" % r, "points": points}


def iops_value(bs, mix, r):
    """A plausible IOPS: falls with the block size and with writes, round 1 FOB."""
    base = 400000.0 * 4096 / max(bs, 4096) * (0.35 + 0.65 * mix / 100.0)
    return round(base * (1.6 if r == 1 else 1.0 + 0.01 * ((r * 7 + bs // 512 + mix) % 5)), 3)


def iops_doc(nrounds=6, scaled=True):
    doc = base_doc("iops", "IOPS", scaled)
    s = doc["settings"]
    s.update(block_sizes=IOPS_BS, rwmixread=MIXES,
             tracking={"label": "RND 4KiB 0/100 IOPS", "bs": 4096, "rwmixread": 0,
                       "metric": "iops", "unit": "IOPS"})
    for r in range(1, nrounds + 1):
        pts = [point(bs, m, iops_value(bs, m, r), 50000.0 + bs / 10.0)
               for m in MIXES for bs in IOPS_BS]
        tr = [p["iops"] for p in pts if p["bs"] == 4096 and p["rwmixread"] == 0][0]
        doc["rounds"].append(round_doc(r, pts, tr))
    if nrounds >= 5:
        first = nrounds - 4
        doc["steady_state"] = steady_state([r["tracking"] for r in doc["rounds"][first - 1:]],
                                           first)
        doc["results"] = results(doc["rounds"], first, nrounds)
    else:
        doc["state"] = "running"
        doc["finished"] = None
    return doc


def throughput_doc(bs=1048576):
    doc = base_doc("throughput", "Throughput")
    s = doc["settings"]
    s.update(threads=1, pattern="sequential", blockalign=None, block_sizes=[bs],
             rwmixread=[100, 0],
             tracking={"label": "SEQ 1024KiB 0/100 bandwidth", "bs": bs, "rwmixread": 0,
                       "metric": "bw_bytes", "unit": "B/s"})
    for r in range(1, 7):
        pts = [point(bs, 100, 2900.0 + r, 300000.0, "sequential"),
               point(bs, 0, 1500.0 - (r % 2) * 10, 600000.0, "sequential")]
        doc["rounds"].append(round_doc(r, pts, pts[1]["bw_bytes"]))
    doc["steady_state"] = steady_state([r["tracking"] for r in doc["rounds"][1:]], 2)
    doc["results"] = results(doc["rounds"], 2, 6)
    return doc


def latency_doc():
    doc = base_doc("latency", "Latency")
    s = doc["settings"]
    s.update(threads=1, iodepth=1, block_sizes=[8192, 4096, 512], rwmixread=[100, 65, 0],
             tracking={"label": "RND 4KiB 0/100 average latency", "bs": 4096, "rwmixread": 0,
                       "metric": "lat_mean_ns", "unit": "ns"})
    for r in range(1, 8):
        pts = [point(bs, m, 20000.0 - bs, 40000.0 + bs + (100 - m) * 100 + r % 3 * 50)
               for m in (100, 65, 0) for bs in (8192, 4096, 512)]
        tr = [p["lat_mean_ns"] for p in pts if p["bs"] == 4096 and p["rwmixread"] == 0][0]
        doc["rounds"].append(round_doc(r, pts, tr))
    doc["steady_state"] = steady_state([r["tracking"] for r in doc["rounds"][2:]], 3)
    doc["results"] = results(doc["rounds"], 3, 7)
    return doc


def wsat_doc():
    doc = base_doc("wsat", "Write Saturation")
    s = doc["settings"]
    s.update(block_sizes=[4096], rwmixread=[0], sample_ms=60000, duration_ms=21600000,
             max_written_bytes=4 * 268435456,
             tracking={"label": "RND 4KiB 0/100 IOPS", "bs": 4096, "rwmixread": 0,
                       "metric": "iops", "unit": "IOPS"})
    del doc["rounds"], doc["steady_state"], doc["wdpc"]
    series, written = [], 0
    for i in range(1, 41):
        iops = 90000.0 if i < 10 else 30000.0 + (i % 4) * 250
        written += int(iops * 60 * 4096)
        series.append({"t_ms": 60000 * i, "iops": iops, "bw_bytes": iops * 4096,
                       "lat_mean_ns": 1e9 * 128 / iops, "lat_max_ns": 5000000,
                       "written_bytes": written})
    doc["series"] = series
    # segments of 8 samples, the last five steady
    doc["segments"] = [{"segment": k + 1, "t_end_ms": 60000 * 8 * (k + 1),
                        "written_end_bytes": series[8 * k + 7]["written_bytes"],
                        "iops": sum(x["iops"] for x in series[8 * k:8 * k + 8]) / 8}
                       for k in range(5)]
    doc["results"] = {"steady_iops": sum(x["iops"] for x in series[-5:]) / 5,
                      "stopped_by": "time_limit",
                      "steady_state": {"window": [1, 5], "reached": False, "range_pct": 66.0,
                                       "slope_excursion_pct": 40.0}}
    return doc


def hir_doc():
    """Preconditioning of 7 segments (steady over 3..7), then 5 wait states
    whose access IOPS grow with the wait (the drive recovers when idle)."""
    doc = base_doc("hir", "Host Idle Recovery")
    s = doc["settings"]
    s.update(block_sizes=[4096], rwmixread=[0], sample_ms=60000, segment_samples=30,
             access_ms=5000, cycles=4, wait_ms=[5000, 10000, 15000, 25000, 50000],
             baseline_ms=20000,
             tracking={"label": "RND 4KiB 0/100 IOPS", "bs": 4096, "rwmixread": 0,
                       "metric": "iops", "unit": "IOPS"})
    del doc["wdpc"]
    doc["rounds"] = []
    seg_iops = [90000.0, 45000.0, 30500.0, 30100.0, 29900.0, 30200.0, 30000.0]
    doc["segments"] = [{"segment": k + 1, "t_end_ms": 1800000.0 * (k + 1), "iops": v,
                        "samples": 30, "written_end_bytes": int(v * 1800 * 4096 * (k + 1))}
                       for k, v in enumerate(seg_iops)]
    doc["series"] = [{"t_ms": 60000.0 * (i + 1), "iops": seg_iops[i // 30]}
                     for i in range(30 * len(seg_iops))]
    doc["steady_state"] = steady_state(seg_iops[2:], 3)
    steady = doc["steady_state"]["average"]
    wss, t = [], 0.0
    for k, wait in enumerate(s["wait_ms"]):
        gain = 1 + 0.1 * (k + 1)
        a_smp = [{"t_ms": t + (c + 1) * (5000 + wait) - wait, "iops": steady * gain, "ios": 1}
                 for c in range(4)]
        a_end = t + 4 * (5000 + wait)
        b_smp = [{"t_ms": a_end + 5000 * (c + 1), "iops": steady, "ios": 1} for c in range(4)]
        wss.append({"state": k + 1, "wait_ms": wait, "access_ms": 5000, "cycles": 4,
                    "access": {"t_start_ms": t, "t_end_ms": a_end, "iops": steady * gain,
                               "ios": 4, "samples": a_smp},
                    "baseline": {"t_start_ms": a_end, "t_end_ms": a_end + 20000,
                                 "iops": steady, "ios": 4, "samples": b_smp}})
        t = a_end + 20000
    doc["wait_states"] = wss
    doc["results"] = {"steady_iops": steady, "precondition_average_iops": steady,
                      "wait_states": [{"state": w["state"], "wait_ms": w["wait_ms"],
                                       "iops": w["access"]["iops"],
                                       "baseline_iops": w["baseline"]["iops"],
                                       "vs_precondition": w["access"]["iops"] / steady}
                                      for w in wss]}
    return doc


def xsr_doc():
    """Groups of 8, 6 and 8 one-minute samples: SEQ at 2000 MB/s falling to
    1500, RND 8KiB at 400 MB/s, SEQ recovering from 800 to 1500 by its
    fourth sample."""
    doc = base_doc("xsr", "Cross Stimulus Recovery")
    s = doc["settings"]
    s.update(block_sizes=[1048576], rwmixread=[0], sample_ms=60000, segment_samples=30,
             groups=[{"group": 1, "label": "SEQ 1024KiB writes", "duration_ms": 480000},
                     {"group": 2, "label": "RND 8KiB writes", "duration_ms": 360000},
                     {"group": 3, "label": "SEQ 1024KiB writes", "duration_ms": 480000}],
             tracking={"label": "write bandwidth", "bs": 1048576, "rwmixread": 0,
                       "metric": "bw_bytes", "unit": "B/s"})
    del doc["wdpc"], doc["steady_state"]
    doc["rounds"] = []
    bws = ([2000e6, 1900e6, 1700e6] + [1500e6] * 5 + [400e6] * 6 +
           [800e6, 1100e6, 1400e6, 1500e6, 1500e6, 1500e6, 1500e6, 1500e6])
    groups = [1] * 8 + [2] * 6 + [3] * 8
    doc["series"] = [{"t_start_ms": 60000.0 * i, "t_ms": 60000.0 * (i + 1), "group": g,
                      "bw_bytes": bw, "iops": bw / (8192 if g == 2 else 1048576),
                      "lat_mean_ns": 500000.0, "lat_max_ns": 9000000}
                     for i, (g, bw) in enumerate(zip(groups, bws))]
    doc["segments"] = [{"segment": k + 1, "group": k + 1, "t_end_ms": t, "iops": 0.0}
                       for k, t in enumerate((480000.0, 840000.0, 1320000.0))]
    doc["results"] = {
        "groups": [{"group": g, "label": s["groups"][g - 1]["label"],
                    "duration_ms": s["groups"][g - 1]["duration_ms"],
                    "bw_bytes": sum(b for b, x in zip(bws, groups) if x == g) /
                    groups.count(g), "iops": 1.0, "lat_mean_ns": 500000.0,
                    "lat_max_ns": 9000000, "samples": groups.count(g)} for g in (1, 2, 3)],
        "reference_bw_bytes": 1500e6, "recovery_ms": 240000.0}
    return doc


# ecw, dirth: TC 2, 1 x QD 4, 1 (run high to low); the window's IOPS of each
# load (ART = TOIO / IOPS, all under 5 ms): MaxIOPS T2Q4, MinIOPS T1Q1 and
# MidIOPS T1Q4 (5000 is the nearest to the middle of 9000 and 1500)
DEMAND_TC, DEMAND_QD = [2, 1], [4, 1]
DEMAND_IOPS = {(2, 4): 9000.0, (2, 1): 3000.0, (1, 4): 5000.0, (1, 1): 1500.0}
DEMAND_OPS = [("MaxIOPS", 2, 4), ("MidIOPS", 1, 4), ("MinIOPS", 1, 1)]
ECW_BSSPLIT = ("512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4096/67:8192/10:16384/7:"
               "32768/3:65536/3")
RT_KEYS = {"ns": ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"],
           "us": ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"],
           "ms": ["2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000",
                  ">=2000"]}


def demand_point(tc, qd, mix, iops, bssplit=None, runtime_ms=1000):
    """A point of the TC x QD matrix; ART by Little's law, TOIO / IOPS."""
    p = point(8192, mix, iops, tc * qd / iops * 1e9, runtime_ms=runtime_ms)
    if bssplit:
        p.update(bs=None, bssplit=bssplit)
    p.update(tc=tc, qd=qd, toio=tc * qd)
    return p


def prewrite(tc, qd, n, iops, run_file, sample_ms=1000):
    return {"tc": tc, "qd": qd, "runtime_ms": float(n * sample_ms),
            "ios": int(iops * n * sample_ms / 1000), "iops": iops, "bw_bytes": iops * 8192,
            "samples": [{"t_ms": sample_ms * (i + 1.0), "iops": iops * (1 + 0.02 * (i % 3 - 1))}
                        for i in range(n)],
            "run_file": run_file}


def rt_histogram(k):
    """Operating point @k's response-time histogram in % (sums to 100)."""
    h = {u: {b: 0.0 for b in keys} for u, keys in RT_KEYS.items()}
    h["us"].update({"500": 10.0 + k, "750": 40.0, "1000": 45.0 - k})
    h["ms"].update({"2": 4.9, "4": 0.09, "10": 0.01})
    return h


def cpu(tc, qd, usr, sys_, runtime_ms=4000.0, ncpu=2):
    """A run's CPU record (demand.c's run_cpu())."""
    ns = int((usr + sys_) / 100 * runtime_ms * 1e6 * tc)
    return {"tc": tc, "qd": qd, "usr_pct": usr, "sys_pct": sys_, "cpu_ns": ns,
            "usr_cpu_ns": int(usr / 100 * runtime_ms * 1e6 * tc),
            "sys_cpu_ns": int(sys_ / 100 * runtime_ms * 1e6 * tc), "runtime_ms": runtime_ms,
            "online_cpus": ncpu, "host_pct": ns / (runtime_ms * 1e6 * ncpu) * 100}


def demand_doc(test):
    """ecw or dirth: 6 preconditioning segments (steady over 2..6), 5 rounds
    of TC 2, 1 x QD 4, 1 (steady over 1..5), the three operating points."""
    ecw = test == "ecw"
    doc = base_doc(test, "Enterprise Composite Workload" if ecw else
                   "Demand Intensity / Response Time Histogram")
    mix = 40 if ecw else 65
    bssplit = ECW_BSSPLIT if ecw else None
    s = doc["settings"]
    s.update(threads=2, iodepth=4, block_sizes=[4096 if ecw else 8192], rwmixread=[mix],
             sample_ms=1000, segment_samples=30, tc_list=DEMAND_TC, qd_list=DEMAND_QD,
             bssplit=bssplit,
             random_distribution="zoned:50/5:30/15:20/80" if ecw else "random",
             prewrite_points=5, op_prewrite_points=60, op_measure_points=10,
             art_limit_ns=5000000,
             tracking={"label": "%s %d/%d IOPS at T2Q4" % ("ECW" if ecw else "RND 8K", mix,
                                                           100 - mix),
                       "bs": 4096 if ecw else 8192, "rwmixread": mix, "metric": "iops",
                       "unit": "IOPS", "tc": 2, "qd": 4})
    del doc["wdpc"]
    seg_iops = [14000.0, 9100.0, 9000.0, 8900.0, 9050.0, 8950.0]
    doc["segments"] = [{"segment": k + 1, "t_end_ms": 30000.0 * (k + 1), "iops": v,
                        "samples": 30, "written_end_bytes": int(v * 30 * 8192 * (k + 1)),
                        "run_file": "rounds/precondition-%03d.json" % (k + 1)}
                       for k, v in enumerate(seg_iops)]
    doc["series"] = [{"sample": i + 1, "segment": i // 30 + 1, "t_ms": 1000.0 * (i + 1),
                      "iops": seg_iops[i // 30] * (1 + 0.01 * (i % 5 - 2)),
                      "bw_bytes": seg_iops[i // 30] * 8192, "lat_mean_ns": 900000.0,
                      "lat_max_ns": 4000000, "written_bytes": 8192 * 1000 * (i + 1)}
                     for i in range(30 * len(seg_iops))]
    doc["precondition"] = {"segments": len(seg_iops), "duration_ms": 180000.0,
                           "written_bytes": doc["segments"][-1]["written_end_bytes"],
                           "steady_state": steady_state(seg_iops[1:], 2)}
    for r in range(1, 6):
        pts = [demand_point(t, q, mix, round(DEMAND_IOPS[(t, q)] *
                                             (1 + 0.01 * ((r * 3 + t + q) % 5 - 2)), 3),
                            bssplit)
               for t in DEMAND_TC for q in DEMAND_QD]
        rd = round_doc(r, pts, pts[0]["iops"])
        del rd["run_file"]
        rd["prewrite"] = prewrite(2, 4, 5, 8800.0 + 40 * r, "rounds/round-%03d-prewrite.json" % r)
        rd["run_files"] = ["rounds/round-%03d-tc%d.json" % (r, t) for t in DEMAND_TC]
        rd["cpu"] = [cpu(t, None, 0.5 * t + 0.1 * r, 20.0 * t + r) for t in DEMAND_TC]
        doc["rounds"].append(rd)
    doc["steady_state"] = steady_state([r["tracking"] for r in doc["rounds"]], 1)
    doc["results"] = results(doc["rounds"], 1, 5)
    for pt, p0 in zip(doc["results"]["points"], doc["rounds"][0]["points"]):
        pt.update({k: p0[k] for k in ("tc", "qd", "toio", "bssplit") if k in p0})
    res = {(p["tc"], p["qd"]): p for p in doc["results"]["points"]}
    doc["operating_points"] = []
    for k, (label, t, q) in enumerate(DEMAND_OPS):
        m = demand_point(t, q, mix, DEMAND_IOPS[(t, q)] * 1.01, bssplit, runtime_ms=10000)
        m.update(rt_histogram=rt_histogram(k), run_file="rounds/op%d.json" % (k + 1),
                 cpu=cpu(t, q, 0.25 * (k + 1), 10.0 * (k + 1)))
        doc["operating_points"].append({
            "label": label, "tc": t, "qd": q, "window_iops": res[(t, q)]["iops"],
            "window_lat_mean_ns": res[(t, q)]["lat_mean_ns"],
            "prewrite": prewrite(t, q, 60, DEMAND_IOPS[(t, q)] * 0.98,
                                 "rounds/op%d-prewrite.json" % (k + 1)),
            "measure": m})
    return doc


def ecw_doc():
    return demand_doc("ecw")


def dirth_doc():
    return demand_doc("dirth")


DOCS = {"iops": iops_doc, "throughput": throughput_doc, "latency": latency_doc,
        "wsat": wsat_doc, "hir": hir_doc, "xsr": xsr_doc, "ecw": ecw_doc,
        "dirth": dirth_doc}

PLOTS = {
    "iops": ["ss_convergence.svg", "ss_window.svg", "iops_2d.svg", "iops_3d.svg"],
    "throughput": ["ss_convergence.svg", "ss_window.svg", "throughput_bw.svg"],
    "latency": ["ss_convergence.svg", "ss_window.svg", "latency_avg.svg", "latency_max.svg",
                "latency_percentiles.svg"],
    "wsat": ["wsat_time.svg", "wsat_tgbw.svg"],
    "hir": ["ss_window.svg", "hir_precondition.svg", "hir_time.svg", "hir_wait.svg"],
    "xsr": ["xsr_bw.svg", "xsr_lat.svg"],
}
PLOTS["ecw"] = PLOTS["dirth"] = [
    "ss_convergence.svg", "ss_window.svg", "precondition.svg", "steady_state.svg",
    "prewrites.svg", "demand_variation.svg", "demand_intensity.svg", "toio.svg",
    "op_prewrites.svg", "rt_histogram.svg"]


def render(d, doc=None, raw=None):
    """Write @doc (or @raw, text or bytes) to d/pts.json and run the renderer."""
    os.makedirs(str(d), exist_ok=True)
    if raw is None and doc is not None:
        raw = json.dumps(doc, indent=1)
    if raw is not None:
        with open(os.path.join(str(d), "pts.json"), "wb") as f:
            f.write(raw.encode() if isinstance(raw, str) else raw)
    return subprocess.run([PYTHON, SCRIPT, str(d)], capture_output=True, text=True,
                          timeout=120)
