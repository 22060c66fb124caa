# SPDX-License-Identifier: GPL-2.0
"""userspace/ssdload-report.py: the report of an `ssdload pts` run.

Synthetic pts.json files (format_version 1, Documentation/pts.rst) of the
iops (56 points x 6 rounds), throughput, latency, wsat, hir, xsr, ecw and
dirth (TC 2, 1 x QD 4, 1 x 5 rounds, three operating points) tests are
rendered in temporary directories; the tests check every plot (well-formed
SVG with its data drawn), report.html (it parses, refers only to files that
exist, has the banners, and its tables hold the JSON's values), the CSV
tables, the refusal of bad input (exit 2, one line, no traceback), partial
and null data ("n/a", nothing invented) and that two renderings are
byte-identical.

The renderer needs Debian's python3-matplotlib: it runs with
$SSDLOAD_PYTHON (default /usr/bin/python3), as `ssdload report` does.
"""
import copy
import csv
import functools
import json
import math
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(TOP, "userspace", "ssdload-report.py")
PYTHON = os.environ.get("SSDLOAD_PYTHON") or "/usr/bin/python3"
SVG = "{http://www.w3.org/2000/svg}"

IOPS_BS = [1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512]
MIXES = [100, 95, 65, 50, 35, 5, 0]
PCT_KEYS = ["50.000000", "90.000000", "99.000000", "99.900000", "99.990000", "99.999000"]


@functools.lru_cache(maxsize=None)
def have_matplotlib():
    try:
        r = subprocess.run([PYTHON, "-c", "import matplotlib, mpl_toolkits.mplot3d"],
                           capture_output=True, timeout=60)
    except OSError:
        return False
    return r.returncode == 0


def without_matplotlib(test):
    """Mark @test as one that runs without matplotlib (input checks)."""
    test.without_matplotlib = True
    return test


@pytest.fixture(autouse=True)
def matplotlib_present(request):
    if not getattr(request.function, "without_matplotlib", False) and not have_matplotlib():
        pytest.skip("%s has no matplotlib (apt install python3-matplotlib)" % PYTHON)


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
        doc["rounds"].append(rd)
    doc["steady_state"] = steady_state([r["tracking"] for r in doc["rounds"]], 1)
    doc["results"] = results(doc["rounds"], 1, 5)
    for pt, p0 in zip(doc["results"]["points"], doc["rounds"][0]["points"]):
        pt.update({k: p0[k] for k in ("tc", "qd", "toio", "bssplit") if k in p0})
    res = {(p["tc"], p["qd"]): p for p in doc["results"]["points"]}
    doc["operating_points"] = []
    for k, (label, t, q) in enumerate(DEMAND_OPS):
        m = demand_point(t, q, mix, DEMAND_IOPS[(t, q)] * 1.01, bssplit, runtime_ms=10000)
        m.update(rt_histogram=rt_histogram(k), run_file="rounds/op%d.json" % (k + 1))
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


# --------------------------------------------------------------------------
# helpers

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


def rendered(tmp_path, test, doc=None):
    """Render the synthetic @test (or @doc); assert success; the directory."""
    d = tmp_path / test
    p = render(d, doc if doc is not None else DOCS[test]())
    assert p.returncode == 0, p.stderr
    assert p.stderr == "" and p.stdout == ""
    return d


class Html(HTMLParser):
    """report.html: its <img> sources, links, text and table cells."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.imgs, self.links, self.text, self.tables = [], [], [], {}
        self.scripts = 0
        self._table, self._row, self._cell = None, None, None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.imgs.append(a.get("src"))
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])
        elif tag == "script":
            self.scripts += 1
        elif tag == "table" and a.get("id"):
            self._table = self.tables.setdefault(a["id"], [])
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._table.append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = {"tag": tag, "value": a.get("data-value"), "text": ""}
            self._row.append(self._cell)

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = self._row = None
        elif tag in ("td", "th"):
            self._cell = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell["text"] += data


def page(d):
    with open(os.path.join(str(d), "report.html"), encoding="utf-8") as f:
        text = f.read()
    return text, Html(text)


def data_paths(svg_path, min_vertices):
    """Paths of plotted lines / bars (not glyphs, not ticks) with at least
    @min_vertices vertices, after checking that the file is an SVG."""
    root = ET.parse(str(svg_path)).getroot()
    assert root.tag == SVG + "svg", root.tag
    n = 0
    for g in root.iter(SVG + "g"):
        gid = g.get("id") or ""
        if not re.match(r"(line2d|patch|Poly3DCollection|PolyCollection|LineCollection)_",
                        gid):
            continue
        for p in g.iter(SVG + "path"):
            if len(re.findall(r"[MLC]", p.get("d") or "")) >= min_vertices:
                n += 1
    return n


def markers(svg_path):
    """The number of markers (<use> of a marker path) of each plotted line
    that has some, in drawing order."""
    root = ET.parse(str(svg_path)).getroot()
    out = []
    for ax in root.iter(SVG + "g"):
        if re.match(r"axes_", ax.get("id") or ""):
            # the axes' own lines: not its ticks' or legend's (deeper groups)
            out += [len(list(g.iter(SVG + "use"))) for g in ax.findall(SVG + "g")
                    if re.match(r"line2d_", g.get("id") or "")]
    return [n for n in out if n]


def most_markers(svg_path):
    return max(markers(svg_path) + [0])


def read_csv(path):
    with open(str(path), newline="") as f:
        return list(csv.reader(f))


def snapshot(d):
    """{relative path: bytes} of every file the renderer wrote in @d."""
    out = {}
    for root, _, files in os.walk(str(d)):
        for f in files:
            if f != "pts.json":
                p = os.path.join(root, f)
                with open(p, "rb") as fh:
                    out[os.path.relpath(p, str(d))] = fh.read()
    return out


def check_page(d, test):
    """Common checks of a rendered report; returns (text, parsed)."""
    text, h = page(d)
    assert h.scripts == 0, "the report must not need JavaScript"
    assert "SNIA SSS PTS 2.0.2" in text
    for src in h.imgs + h.links:
        assert not re.match(r"[a-z]+:", src) and not src.startswith("/"), \
            "not a relative reference: " + src
        assert os.path.isfile(os.path.join(str(d), src)), "report.html refers to missing " + src
    for name in PLOTS[test]:
        assert "plots/" + name in h.imgs, name + " is not shown"
    assert sorted(os.listdir(str(d / "plots"))) == sorted(s[len("plots/"):] for s in h.imgs), \
        "plots/ holds other files than the report shows"
    return text, h


def cell_num(c):
    return float(c["text"].split()[0].replace(",", ""))


# --------------------------------------------------------------------------
# the four tests

def test_iops(tmp_path):
    doc = iops_doc()
    d = rendered(tmp_path, "iops", doc)
    text, h = check_page(d, "iops")
    # plots: the convergence plot has 8 block sizes + tracking, 6 rounds each
    assert data_paths(d / "plots/ss_convergence.svg", 6) >= 9
    assert data_paths(d / "plots/ss_window.svg", 5) >= 1
    assert data_paths(d / "plots/iops_2d.svg", 8) >= 7	# one line per mix
    assert data_paths(d / "plots/iops_3d.svg", 4) >= 56 * 3	# visible bar faces
    # banners of a scaled run
    assert "NOT CONFORMANT" in text and "SCALED RUN" in text
    for dev in doc["deviations"]:
        assert dev in text
    assert "Steady state reached at round 6" in text
    # the 56-cell table, rows R/W mix, columns block size (ascending)
    t = h.tables["measurement"]
    assert [c["text"] for c in t[0][1:]] == ["0.5 KiB", "4 KiB", "8 KiB", "16 KiB", "32 KiB",
                                             "64 KiB", "128 KiB", "1024 KiB"]
    assert [r[0]["text"] for r in t[1:]] == ["%d/%d" % (m, 100 - m) for m in MIXES]
    cells = [c for r in t[1:] for c in r[1:]]
    assert len(cells) == 56 and all(c["value"] is not None for c in cells)
    res = {(p["rwmixread"], p["bs"]): p["iops"] for p in doc["results"]["points"]}
    bss = sorted(IOPS_BS)
    for i, m in enumerate(MIXES):
        for j, bs in enumerate(bss):
            c = t[1 + i][1 + j]
            assert float(c["value"]) == res[(m, bs)]
            assert cell_num(c) == pytest.approx(res[(m, bs)], abs=0.51)
    assert float(t[1 + MIXES.index(0)][1 + bss.index(4096)]["value"]) == \
        pytest.approx(doc["steady_state"]["average"])
    # health per round
    assert len(h.tables["health"]) == 1 + 6 + 1
    assert "311 K (38 \u00b0C)" in text
    # CSV
    rounds = read_csv(d / "rounds.csv")
    assert rounds[0] == ["round", "tracking", "duration_ms"]
    assert [(int(r[0]), float(r[1]), int(r[2])) for r in rounds[1:]] == \
        [(r["round"], r["tracking"], r["duration_ms"]) for r in doc["rounds"]]
    pts = read_csv(d / "points.csv")
    assert pts[0] == ["round", "bs", "rwmixread", "iops", "bw_bytes", "lat_mean_ns",
                      "lat_max_ns", "read_iops", "write_iops"]
    assert len(pts) == 1 + 6 * 56
    p = doc["rounds"][2]["points"][17]
    row = pts[1 + 2 * 56 + 17]
    assert [float(x) for x in row] == [3, p["bs"], p["rwmixread"], p["iops"], p["bw_bytes"],
                                       p["lat_mean_ns"], p["lat_max_ns"], p["read"]["iops"],
                                       p["write"]["iops"]]
    meas = read_csv(d / "measurement.csv")
    assert meas[0] == ["metric", "rwmixread"] + [str(b) for b in bss]
    assert len(meas) == 1 + 7
    for i, m in enumerate(MIXES):
        assert meas[1 + i][:2] == ["iops", str(m)]
        assert [float(x) for x in meas[1 + i][2:]] == [res[(m, b)] for b in bss]


def test_throughput(tmp_path):
    doc = throughput_doc()
    d = rendered(tmp_path, "throughput", doc)
    text, h = check_page(d, "throughput")
    assert data_paths(d / "plots/ss_convergence.svg", 6) >= 3
    assert data_paths(d / "plots/throughput_bw.svg", 4) >= 2
    t = h.tables["measurement"]
    assert [c["text"] for c in t[0][1:]] == ["1024 KiB"]
    assert [r[0]["text"] for r in t[1:]] == ["100/0 (read)", "0/100 (write)"]
    res = {p["rwmixread"]: p["bw_bytes"] for p in doc["results"]["points"]}
    assert cell_num(t[1][1]) == pytest.approx(res[100] / 1e6, abs=0.51)
    assert cell_num(t[2][1]) == pytest.approx(res[0] / 1e6, abs=0.51)
    assert "MB/s" in text
    meas = read_csv(d / "measurement.csv")
    assert meas == [["metric", "rwmixread", "1048576"], ["bw_bytes", "100", repr(res[100])],
                    ["bw_bytes", "0", repr(res[0])]]
    assert len(read_csv(d / "points.csv")) == 1 + 6 * 2


def test_latency(tmp_path):
    doc = latency_doc()
    d = rendered(tmp_path, "latency", doc)
    text, h = check_page(d, "latency")
    assert data_paths(d / "plots/latency_avg.svg", 4) >= 9
    assert data_paths(d / "plots/latency_max.svg", 4) >= 9
    # 3 mixes x 3 sizes, read and/or write: 4 read + ... = 12 curves of 6 percentiles
    assert data_paths(d / "plots/latency_percentiles.svg", 6) >= 12
    res = {(p["rwmixread"], p["bs"]): p for p in doc["results"]["points"]}
    for tid, key in (("measurement", "lat_mean_ns"), ("measurement-max", "lat_max_ns")):
        t = h.tables[tid]
        assert [c["text"] for c in t[0][1:]] == ["0.5 KiB", "4 KiB", "8 KiB"]
        cells = [c for r in t[1:] for c in r[1:]]
        assert len(cells) == 9
        for i, m in enumerate((100, 65, 0)):
            for j, bs in enumerate((512, 4096, 8192)):
                assert float(t[1 + i][1 + j]["value"]) == res[(m, bs)][key]
                assert cell_num(t[1 + i][1 + j]) == \
                    pytest.approx(res[(m, bs)][key] / 1e3, rel=1e-3)
    pt = h.tables["percentiles"]
    assert len(pt) == 1 + 12
    assert [c["text"] for c in pt[0][1:]] == ["p50", "p90", "p99", "p99.9", "p99.99",
                                              "p99.999"]
    assert pt[1][0]["text"] == "0.5 KiB 100/0 read"
    assert float(pt[1][-1]["value"]) == res[(100, 512)]["read"]["percentiles"]["99.999000"]
    assert "\u00b5s" in text
    meas = read_csv(d / "measurement.csv")
    assert [r[:2] for r in meas[1:]] == [["lat_mean_ns", "100"], ["lat_mean_ns", "65"],
                                         ["lat_mean_ns", "0"], ["lat_max_ns", "100"],
                                         ["lat_max_ns", "65"], ["lat_max_ns", "0"]]


def test_wsat(tmp_path):
    doc = wsat_doc()
    d = rendered(tmp_path, "wsat", doc)
    text, h = check_page(d, "wsat")
    assert data_paths(d / "plots/wsat_time.svg", 40) >= 1
    assert data_paths(d / "plots/wsat_tgbw.svg", 40) >= 1
    series = read_csv(d / "series.csv")
    assert series[0] == ["t_ms", "iops", "bw_bytes", "lat_mean_ns", "lat_max_ns",
                         "written_bytes"]
    assert len(series) == 41 and int(series[-1][-1]) == doc["series"][-1]["written_bytes"]
    assert not os.path.exists(d / "rounds.csv") and not os.path.exists(d / "measurement.csv")
    assert float(h.tables["wsat"][1][3]["value"]) == doc["results"]["steady_iops"]
    assert h.tables["wsat"][1][4]["text"] == "the time limit"
    seg = h.tables["wsat-segments"]
    assert len(seg) == 1 + 5
    assert [float(r[3]["value"]) for r in seg[1:]] == [g["iops"] for g in doc["segments"]]
    assert "Segments 1\u20135 (the last five): range 66.00%" in text and "not steady" in text
    assert "Steady state" not in text


def test_hir(tmp_path):
    doc = hir_doc()
    d = rendered(tmp_path, "hir", doc)
    text, h = check_page(d, "hir")
    assert data_paths(d / "plots/hir_wait.svg", 5) >= 2	# access and baseline lines
    assert data_paths(d / "plots/hir_time.svg", 4) >= 5	# one line per wait state
    hir = h.tables["hir"]
    assert [r[0]["text"] for r in hir[1:]] == ["1", "2", "3", "4", "5"]
    assert [float(r[3]["value"]) for r in hir[1:]] == [w["access"]["iops"]
                                                       for w in doc["wait_states"]]
    assert hir[1][5]["text"] == "110.0%" and hir[5][5]["text"] == "150.0%"
    assert "Steady state reached at segment 7 (measurement window: segments 3\u20137)" in text
    assert len(h.tables["wsat-segments"]) == 1 + 7
    ws = read_csv(d / "wait_states.csv")
    assert ws[0] == ["state", "wait_ms", "iops", "baseline_iops", "vs_precondition"]
    assert [int(r[1]) for r in ws[1:]] == [5000, 10000, 15000, 25000, 50000]
    smp = read_csv(d / "hir_samples.csv")
    assert len(smp) == 1 + 5 * 8 and smp[1][:2] == ["1", "access"]
    assert not os.path.exists(d / "rounds.csv") or read_csv(d / "rounds.csv") == [
        ["round", "tracking", "duration_ms"]]
    assert "Access segment" in text and "5.00 s, 4 cycles per wait state" in text


def test_xsr(tmp_path):
    doc = xsr_doc()
    d = rendered(tmp_path, "xsr", doc)
    text, h = check_page(d, "xsr")
    assert data_paths(d / "plots/xsr_bw.svg", 6) >= 3		# one line per group
    assert data_paths(d / "plots/xsr_lat.svg", 6) >= 6		# average and max per group
    t = h.tables["xsr"]
    assert [r[1]["text"] for r in t[1:]] == ["SEQ 1024KiB writes", "RND 8KiB writes",
                                              "SEQ 1024KiB writes"]
    assert float(t[2][3]["value"]) == 400e6
    assert "after 4 min 00 s" in text and "1,500 MB/s" in text
    ser = read_csv(d / "series.csv")
    assert ser[0][-1] == "group" and [r[-1] for r in ser[1:]].count("2") == 6
    doc["results"]["recovery_ms"] = None
    d = rendered(tmp_path / "never", "xsr", doc)
    assert "group 3 never reached" in page(d)[0]
    assert "Steady state" not in text


def check_demand(d, doc):
    """What the ecw and dirth reports share; (text, parsed, {setting: value})."""
    test = doc["test"]
    text, h = check_page(d, test)
    # every plot is a well-formed SVG with its data drawn: the markers of
    # each line (a point each), in drawing order
    assert markers(d / "plots/ss_convergence.svg") == [5, 5, 5]	# T2Q4, T2Q1, tracking
    assert data_paths(d / "plots/ss_convergence.svg", 5) >= 3
    assert markers(d / "plots/ss_window.svg") == [5]
    assert markers(d / "plots/precondition.svg") == [6 * 30, 6]	# samples, segment means
    assert data_paths(d / "plots/precondition.svg", 6) >= 1
    assert markers(d / "plots/steady_state.svg") == [6, 5]		# segments, rounds
    assert markers(d / "plots/prewrites.svg") == [5 * 5, 5]		# samples, round means
    assert markers(d / "plots/demand_variation.svg") == [2, 2]	# per TC, per QD
    assert markers(d / "plots/demand_intensity.svg") == [2, 2, 1, 1, 1]	# + the 3 points
    assert markers(d / "plots/toio.svg") == [4]			# ART; IOPS are bars
    assert data_paths(d / "plots/toio.svg", 4) >= 4
    assert markers(d / "plots/op_prewrites.svg") == [60, 60, 60]
    assert data_paths(d / "plots/rt_histogram.svg", 4) >= 3 * 7	# 6 bars + frame each
    assert "NOT CONFORMANT" in text and "SCALED RUN" in text
    assert "Steady state reached at round 5 (measurement window: rounds 1\u20135)" in text
    assert "Preconditioning: Steady state reached at segment 6 (measurement window: " \
        "segments 2\u20136)" in text
    # the TC x QD matrices: rows TC high to low, columns QD ascending
    res = {(p["tc"], p["qd"]): p for p in doc["results"]["points"]}
    for tid, key, div in (("demand-iops", "iops", 1), ("demand-art", "lat_mean_ns", 1e6),
                          ("demand-mrt", "lat_max_ns", 1e6)):
        t = h.tables[tid]
        assert [c["text"] for c in t[0]] == ["TC \\ QD", "QD 1", "QD 4"]
        assert [r[0]["text"] for r in t[1:]] == ["TC 2", "TC 1"]
        for i, tc in enumerate((2, 1)):
            for j, qd in enumerate((1, 4)):
                assert float(t[1 + i][1 + j]["value"]) == res[(tc, qd)][key]
                assert cell_num(t[1 + i][1 + j]) == pytest.approx(res[(tc, qd)][key] / div,
                                                                  rel=2e-3, abs=0.51)
    assert cell_num(h.tables["demand-iops"][1][2]) == pytest.approx(9000, rel=0.03)
    # demand.csv: one row per window point, as run
    dem = read_csv(d / "demand.csv")
    assert dem[0] == ["tc", "qd", "toio", "iops", "read_iops", "write_iops", "bw_bytes",
                      "lat_mean_ns", "read_lat_mean_ns", "write_lat_mean_ns", "lat_max_ns"]
    assert [(int(r[0]), int(r[1]), int(r[2])) for r in dem[1:]] == [(2, 4, 8), (2, 1, 2),
                                                                   (1, 4, 4), (1, 1, 1)]
    for row, p in zip(dem[1:], doc["results"]["points"]):
        assert [float(x) for x in row[3:]] == [
            p["iops"], p["read"]["iops"], p["write"]["iops"], p["bw_bytes"], p["lat_mean_ns"],
            p["read"]["lat_mean_ns"], p["write"]["lat_mean_ns"], p["lat_max_ns"]]
    # the operating points
    for tid in ("operating-points", "operating-points-summary"):
        ops = h.tables[tid]
        assert [r[0]["text"] for r in ops[1:]] == ["MaxIOPS", "MidIOPS", "MinIOPS"]
        assert [r[1]["text"] for r in ops[1:]] == ["T2Q4", "T1Q4", "T1Q1"]
    hdr = [c["text"] for c in ops[0]]
    for i, o in enumerate(doc["operating_points"]):
        row = ops[1 + i]
        m = o["measure"]
        assert float(row[hdr.index("window IOPS")]["value"]) == o["window_iops"]
        assert float(row[hdr.index("IOPS")]["value"]) == m["iops"]
        assert float(row[hdr.index("MRT (ms)")]["value"]) == m["lat_max_ns"]
        assert cell_num(row[hdr.index("MRT (ms)")]) == pytest.approx(m["lat_max_ns"] / 1e6,
                                                                     rel=2e-3)
        assert float(row[hdr.index("read p99.99 (ms)")]["value"]) == \
            m["read"]["percentiles"]["99.990000"]
        assert float(row[hdr.index("write p99 (ms)")]["value"]) == \
            m["write"]["percentiles"]["99.000000"]
        assert float(row[hdr.index("pre-write IOPS")]["value"]) == o["prewrite"]["iops"]
    opc = read_csv(d / "operating_points.csv")
    assert opc[0][:4] == ["label", "tc", "qd", "toio"] and opc[0][-1] == "skipped"
    assert [r[:3] for r in opc[1:]] == [["MaxIOPS", "2", "4"], ["MidIOPS", "1", "4"],
                                        ["MinIOPS", "1", "1"]]
    # the response-time histograms: every bucket, ~100% per point
    hist = read_csv(d / "rt_histogram.csv")
    assert hist[0] == ["label", "unit", "bucket", "percent"]
    assert len(hist) == 1 + 3 * 32
    for label, _, _ in DEMAND_OPS:
        rows = [r for r in hist[1:] if r[0] == label]
        assert [r[1] for r in rows] == ["ns"] * 10 + ["us"] * 10 + ["ms"] * 12
        assert rows[-1][2] == ">=2000"
        assert sum(float(r[3]) for r in rows) == pytest.approx(100, abs=0.01)
    # the rounds and their pre-writes
    rt = h.tables["rounds"]
    assert rt[0][-1]["text"] == "pre-write IOPS (T2Q4)"
    assert [float(r[-1]["value"]) for r in rt[1:]] == [r["prewrite"]["iops"]
                                                      for r in doc["rounds"]]
    assert [r[0]["text"] for r in h.tables["prewrites"][1:]] == \
        ["round %d" % r for r in range(1, 6)] + ["MaxIOPS", "MidIOPS", "MinIOPS"]
    rounds = read_csv(d / "rounds.csv")
    assert rounds[0] == ["round", "tracking", "duration_ms", "prewrite_iops"]
    assert [float(r[3]) for r in rounds[1:]] == [r["prewrite"]["iops"] for r in doc["rounds"]]
    pts = read_csv(d / "points.csv")
    assert pts[0][-3:] == ["tc", "qd", "toio"] and len(pts) == 1 + 5 * 4
    assert pts[2][-3:] == ["2", "1", "2"]
    pws = read_csv(d / "prewrites.csv")
    assert len(pws) == 1 + 5 * 5 + 3 * 60 and pws[1][:3] == ["round 1", "2", "4"]
    ser = read_csv(d / "series.csv")
    assert ser[0][-1] == "segment" and len(ser) == 1 + 6 * 30
    assert len(h.tables["wsat-segments"]) == 1 + 6
    st = {r[0]["text"]: r[1]["text"] for r in h.tables["demand-settings"][1:]}
    assert st["Thread counts (TC)"] == "2, 1" and st["Queue depths (QD)"] == "4, 1"
    assert st["ART limit"] == "5.00 ms"
    return text, h, st


def test_dirth(tmp_path):
    doc = dirth_doc()
    d = rendered(tmp_path, "dirth", doc)
    text, h, st = check_demand(d, doc)
    assert st["Stimulus"] == "RND 8 KiB" and st["R/W mix"] == "65/35"
    assert st["Access"] == "uniform random"
    assert "Demand Intensity / Response Time Histogram" in text
    assert read_csv(d / "points.csv")[1][1] == "8192"


def test_ecw(tmp_path):
    doc = ecw_doc()
    d = rendered(tmp_path, "ecw", doc)
    text, h, st = check_demand(d, doc)
    assert st["Stimulus"] == "ECW block sizes" and st["R/W mix"] == "40/60"
    assert st["Block sizes"].startswith("0.5 KiB 4%, 1 KiB 1%, 1.5 KiB 1%")
    assert "4 KiB 67%, 8 KiB 10%, 16 KiB 7%, 32 KiB 3%, 64 KiB 3%" in st["Block sizes"]
    assert st["Access"] == ("zoned: 50% of the accesses to the first 5%, 30% of the accesses "
                            "to the next 15%, 20% of the accesses to the next 80% of the "
                            "active range")
    assert "Enterprise Composite Workload" in text
    assert read_csv(d / "points.csv")[1][1] == ""		# no one block size


def test_demand_skipped_points_and_no_reads(tmp_path):
    """No point under 5 ms: MaxIOPS and MidIOPS skipped (tc, qd null, the
    reason); points without reads: n/a, empty cells, nothing invented."""
    doc = dirth_doc()
    reason = "no point had an average response time under 5 ms"
    for o in doc["operating_points"][:2]:
        for k in ("window_iops", "window_lat_mean_ns", "prewrite", "measure"):
            del o[k]
        o.update(tc=None, qd=None, skipped=reason)
    doc["operating_points"][2]["measure"]["read"] = None
    doc["results"]["points"][1]["read"] = None
    doc["results"]["points"][2]["lat_mean_ns"] = None
    d = rendered(tmp_path, "dirth", doc)
    text, h = check_page(d, "dirth")
    ops = h.tables["operating-points"]
    hdr = [c["text"] for c in ops[0]]
    for row in ops[1:3]:
        assert row[1]["text"] == "n/a"
        assert all(c["text"] == "n/a" and c["value"] is None for c in row[2:-1])
        assert row[-1]["text"] == "skipped: " + reason
    mn = ops[3]
    assert mn[0]["text"] == "MinIOPS" and mn[1]["text"] == "T1Q1"
    assert mn[hdr.index("read p99 (ms)")]["text"] == "n/a"
    assert mn[hdr.index("write p99 (ms)")]["value"] is not None
    art = h.tables["demand-art"]
    assert art[2][2]["text"] == "n/a"		# T1Q4
    opc = read_csv(d / "operating_points.csv")
    assert opc[1][:4] == ["MaxIOPS", "", "", ""] and opc[1][-1] == reason
    assert opc[3][opc[0].index("read_p99_ns")] == ""
    assert read_csv(d / "demand.csv")[2][4] == ""		# T2Q1 read_iops
    hist = read_csv(d / "rt_histogram.csv")
    assert {r[0] for r in hist[1:]} == {"MinIOPS"}
    assert markers(d / "plots/op_prewrites.svg") == [60]
    # TC 1 without T1Q4 (its ART unknown); only MinIOPS marked
    assert markers(d / "plots/demand_intensity.svg") == [2, 1, 1]
    assert data_paths(d / "plots/rt_histogram.svg", 4) >= 7
    assert reason in text


def test_demand_running(tmp_path):
    """A dirth run in its third round: the preconditioning and the rounds so
    far; no window, no matrix, no operating points yet."""
    doc = dirth_doc()
    doc["rounds"] = doc["rounds"][:3]
    doc.update(state="running", finished=None, steady_state=None, results=None,
               operating_points=None)
    d = rendered(tmp_path, "dirth", doc)
    text, h = check_page_loose(d)
    assert "RUNNING" in text and "No operating points yet" in text
    assert "Steady state: not evaluated yet (3 rounds; the window needs 5)" in text
    assert sorted(h.imgs) == ["plots/precondition.svg", "plots/prewrites.svg",
                              "plots/ss_convergence.svg", "plots/steady_state.svg"]
    assert sorted(os.listdir(d / "plots")) == sorted(i[len("plots/"):] for i in h.imgs)
    for name in ("demand.csv", "operating_points.csv", "rt_histogram.csv"):
        assert not os.path.exists(d / name)
    assert len(read_csv(d / "prewrites.csv")) == 1 + 3 * 5


def test_demand_preconditioning(tmp_path):
    """A dirth run still preconditioning: its segments' check is at the top
    level (precondition_steady_state) until the preconditioning ends; the
    rounds' steady_state is not confused with it."""
    doc = dirth_doc()
    pc_ss = doc["precondition"]["steady_state"]
    doc.update(state="running", finished=None, steady_state=None, results=None,
               operating_points=None, rounds=[], precondition=None,
               precondition_steady_state=pc_ss)
    d = rendered(tmp_path, "dirth", doc)
    text, h = check_page_loose(d)
    assert "RUNNING" in text
    assert "plots/precondition.svg" in h.imgs
    w = pc_ss["window"]
    assert ("Preconditioning: Steady state reached at segment %d (measurement window: "
            "segments %d\u2013%d)" % (w[1], w[0], w[1])) in text


# --------------------------------------------------------------------------
# states, nulls, conformance

def test_conformant_run_has_no_red_banner(tmp_path):
    d = rendered(tmp_path, "iops", iops_doc(scaled=False))
    text, _ = page(d)
    assert "NOT CONFORMANT" not in text and "SCALED RUN" not in text
    assert "conformant" in text


def test_running_partial_report(tmp_path):
    doc = iops_doc(nrounds=3)
    d = rendered(tmp_path, "iops", doc)
    text, h = page(d)
    assert "RUNNING" in text and "partial report" in text
    assert "Steady state: not evaluated yet (3 rounds; the window needs 5)" in text
    assert h.imgs == ["plots/ss_convergence.svg"]
    assert "No measurement window yet" in text
    assert not os.path.exists(d / "measurement.csv")
    assert len(read_csv(d / "rounds.csv")) == 4
    assert len(h.tables["rounds"]) == 4


def test_interrupted_then_complete_drops_stale_files(tmp_path):
    """A complete rendering, then an interrupted state of 4 rounds in the same
    directory: the plots and tables of the window go; nothing refers to them."""
    d = rendered(tmp_path, "iops")
    assert os.path.exists(d / "plots/iops_3d.svg")
    doc = iops_doc(nrounds=4)
    doc["state"] = "interrupted"
    rendered(tmp_path, "iops", doc)
    text, h = check_page_loose(d)
    assert "INTERRUPTED" in text and "--resume" in text
    assert sorted(os.listdir(d / "plots")) == ["ss_convergence.svg"]
    assert not os.path.exists(d / "measurement.csv")


def check_page_loose(d):
    text, h = page(d)
    for src in h.imgs + h.links:
        assert os.path.isfile(os.path.join(str(d), src)), src
    return text, h


def test_nulls_print_na(tmp_path):
    """Unknown values are "n/a" in the page and empty in the CSV: none invented."""
    doc = iops_doc()
    doc["device"].update(model=None, firmware=None, lba_format=None)
    doc["device"]["write_cache"]["before"] = "unknown"
    doc["purge"] = None
    doc["wipc"] = None
    doc["rounds"][0]["tracking"] = None
    doc["rounds"][0]["health_before"] = doc["rounds"][0]["health_after"] = None
    p = doc["results"]["points"][MIXES.index(50) * 8 + IOPS_BS.index(65536)]
    p["iops"] = None
    doc["steady_state"]["slope"] = None
    doc["steady_state"]["range_pass"] = None
    d = rendered(tmp_path, "iops", doc)
    text, h = page(d)
    hdr = re.search(r'<div class="hdr">.*?</div></div>', text, re.S).group(0)
    assert '<td class="k">Model</td><td>n/a</td>' in hdr
    assert '<td class="k">LBA format</td><td>n/a</td>' in hdr
    assert '<td class="k">Purge</td><td>n/a</td>' in hdr
    t = h.tables["measurement"]
    c = t[1 + MIXES.index(50)][1 + sorted(IOPS_BS).index(65536)]
    assert c["text"] == "n/a" and c["value"] is None
    assert sum(1 for r in t[1:] for c in r[1:] if c["value"] is not None) == 55
    assert h.tables["rounds"][1][3]["text"] == "n/a"
    assert "least-squares" not in open(d / "plots/ss_window.svg").read()
    meas = read_csv(d / "measurement.csv")
    assert meas[1 + MIXES.index(50)][2 + sorted(IOPS_BS).index(65536)] == ""
    assert read_csv(d / "rounds.csv")[1][1] == ""


def test_strings_are_shown_literally(tmp_path):
    """Text from the JSON is escaped in HTML and not mathtext in the plots."""
    doc = iops_doc()
    doc["device"]["model"] = "$\\nosuchmacro$ <script>alert(1)</script> & \"co\""
    doc["settings"]["tracking"]["label"] = "IOPS $_{4k}$ <b>"
    doc["deviations"].append("<img src=x>")
    d = rendered(tmp_path, "iops", doc)
    text, h = page(d)
    assert h.scripts == 0 and "<img src=x>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;" in text
    assert "&lt;img src=x&gt;" in text
    assert h.imgs == ["plots/" + p for p in PLOTS["iops"]]


def test_unknown_test_renders_generic_parts(tmp_path):
    doc = iops_doc()
    doc["test"], doc["title"] = "cbw", "Composite Block Size Workload"
    d = rendered(tmp_path, "cbw", doc)
    text, h = page(d)
    assert "no tables for the cbw test" in text
    assert sorted(h.imgs) == ["plots/ss_convergence.svg", "plots/ss_window.svg"]


# --------------------------------------------------------------------------
# bad input

def _no_device(doc):
    del doc["device"]


def _bad_bs(doc):
    doc["rounds"][1]["points"][3]["bs"] = "4k"


def _bad_window(doc):
    doc["steady_state"]["window"] = [6, 2]


def _bad_pct(doc):
    doc["rounds"][0]["points"][0]["read"]["percentiles"] = {"p99": 1}


def _demand(fault, make=dirth_doc):
    """A dirth (@make) doc in place of the iops doc, with @fault."""
    def bad(doc):
        doc.clear()
        doc.update(make())
        fault(doc)
    return bad


def _no_tc(doc):
    del doc["rounds"][1]["points"][2]["tc"]


def _bad_bucket(doc):
    doc["operating_points"][1]["measure"]["rt_histogram"]["ms"]["2ms"] = 1.0


def _bad_op_load(doc):
    doc["operating_points"][0]["qd"] = "32"


BAD = [
    ("missing", None, "pts.json: No such file or directory"),
    ("empty", "", "not JSON"),
    ("not-json", "{\"format\": ", "not JSON"),
    ("array", "[1, 2]", "not a JSON object"),
    ("binary", b"\xff\xfe{}", "not UTF-8"),
    ("format", lambda d: d.update(format="fio"), "\"format\" is \"fio\""),
    ("no-format", lambda d: d.pop("format"), "\"format\" is null"),
    ("version", lambda d: d.update(format_version=2), "unknown format_version 2"),
    ("version-str", lambda d: d.update(format_version="1"), "unknown format_version \"1\""),
    ("no-device", _no_device, "no key \"device\""),
    ("no-rounds", lambda d: d.pop("rounds"), "no key \"rounds\""),
    ("bad-bs", _bad_bs, "pts.json.rounds[1].points[3].bs: \"4k\" is not a number"),
    ("bad-window", _bad_window, "first round 6 after last round 2"),
    ("huge-window", lambda d: d["steady_state"].update(window=[1, 10 ** 9]),
     "a window of 1000000000 rounds"),
    ("bad-percentile", _bad_pct, "key \"p99\" is not a percentile"),
    ("bool-number", lambda d: d["settings"].update(threads=True), "settings.threads"),
    ("nan", "NaN", "a number must be finite"),
    ("demand-no-tc", _demand(_no_tc), "pts.json.rounds[1].points[2]: no key \"tc\""),
    ("ecw-as-iops", _demand(lambda d: d.update(test="iops"), ecw_doc),
     "pts.json.rounds[0].points[0].bs: is null (a number is needed)"),
    ("demand-bucket", _demand(_bad_bucket), "key \"2ms\" is not a latency bucket"),
    ("demand-op-load", _demand(_bad_op_load),
     "pts.json.operating_points[0].qd: \"32\" is not a number"),
]


@without_matplotlib
@pytest.mark.parametrize("name,bad,needle", BAD, ids=[b[0] for b in BAD])
def test_bad_input(tmp_path, name, bad, needle):
    d = tmp_path / name
    if bad is None:
        d.mkdir()
        p = render(d)
    elif callable(bad):
        doc = iops_doc()
        bad(doc)
        p = render(d, doc)
    elif name == "nan":
        doc = iops_doc()
        raw = json.dumps(doc).replace('"tracking": %s' % json.dumps(doc["rounds"][0]["tracking"]),
                                      '"tracking": NaN', 1)
        assert "NaN" in raw
        p = render(d, raw=raw)
    else:
        p = render(d, raw=bad)
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("ssdload-report: "), lines[0]
    assert needle in lines[0], lines[0]
    assert "Traceback" not in p.stderr and p.stdout == ""
    assert not os.path.exists(d / "report.html")


@without_matplotlib
@pytest.mark.parametrize("args", [[], ["a", "b"], ["--bogus"]], ids=["none", "two", "option"])
def test_usage(args):
    p = subprocess.run([PYTHON, SCRIPT] + args, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.startswith("usage: ssdload-report.py DIR")


@without_matplotlib
def test_script_is_executable_with_header():
    assert os.access(SCRIPT, os.X_OK)
    with open(SCRIPT) as f:
        head = f.read(200).splitlines()
    assert head[0] == "#!/usr/bin/python3"
    assert head[1] == "# SPDX-License-Identifier: GPL-2.0"


# --------------------------------------------------------------------------
# determinism

@pytest.mark.parametrize("test", sorted(DOCS))
def test_deterministic(tmp_path, test):
    """Twice in one directory and once in another: the same bytes."""
    doc = DOCS[test]()
    d1 = rendered(tmp_path / "a", test, doc)
    first = snapshot(d1)
    assert rendered(tmp_path / "a", test, doc) == d1
    assert snapshot(d1) == first
    d2 = rendered(tmp_path / "b", test, copy.deepcopy(doc))
    assert snapshot(d2) == first
    assert "report.html" in first and any(k.endswith(".svg") for k in first)
    for k, v in first.items():
        if k.endswith(".svg"):
            assert b"<dc:date>" not in v, k + " has a date"
    assert not [k for k in first if k.endswith(".tmp")]


@without_matplotlib
def test_math_helpers_match_steady_state():
    """The synthetic windows obey the rule they claim (guards the fixtures)."""
    ss = iops_doc()["steady_state"]
    assert ss["range_pass"] and ss["slope_pass"]
    assert math.isclose(ss["intercept"] + ss["slope"] * 4, sum(ss["values"]) / 5)


def test_shared_output_dir_unaffected_by_other_files(tmp_path):
    """Files that are not the renderer's stay (only its own names are pruned)."""
    d = tmp_path / "iops"
    (d / "plots").mkdir(parents=True)
    (d / "plots" / "mine.svg").write_text("<svg/>")
    (d / "rounds").mkdir()
    (d / "notes.txt").write_text("x")
    rendered(tmp_path, "iops")
    assert (d / "plots" / "mine.svg").exists() and (d / "notes.txt").exists()
