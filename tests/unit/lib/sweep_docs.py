# SPDX-License-Identifier: GPL-2.0
"""Synthetic sweep.json documents (format "ssdload-sweep", format_version 1):
the automatic worker rule (QD 1..256, 64 per worker), an explicit
workers_list of two counts, a 70/30 read/write sweep, a sweep whose points
have no interval samples and an interrupted one; the plots each report
shows, and render_sweep().
"""
from report import render_file

MS, S = 1000000, 1000000000
AUTO_QDS = [1, 2, 4, 8, 16, 32, 64, 128, 256]
DIR_KEYS = ["ios", "iops", "bw_bytes", "lat_mean_ns", "lat_max_ns", "lat_p50_ns",
            "lat_p99_ns", "lat_p99_9_ns"]


# --------------------------------------------------------------------------
# synthetic sweep.json documents

def iops_at(qd, workers, peak=400000.0):
    """A device that saturates: IOPS = peak * qd / (qd + 12), a little
    less with one worker at a high depth."""
    return round(peak * qd / (qd + 12.0) * (0.9 if workers == 1 and qd > 32 else 1.0), 3)


def direction(iops, lat_ns, runtime_ns, bs=4096):
    ios = int(iops * runtime_ns / S)
    return {"ios": ios, "iops": iops, "bw_bytes": iops * bs, "lat_mean_ns": lat_ns,
            "lat_max_ns": int(lat_ns * 20), "lat_p50_ns": int(lat_ns * 0.9),
            "lat_p99_ns": int(lat_ns * 2.5), "lat_p99_9_ns": int(lat_ns * 4)}


def sweep_point(step, workers, qd, mix=100, samples=6, interval_ms=1000, ramp_ms=2000):
    runtime = samples * interval_ms * MS
    iops = iops_at(qd, workers)
    lat = qd / iops * 1e9 * 0.98		# Little: 98% of the depth in flight
    p = {"step": step, "workers": workers, "qd": qd, "qd_per_worker": -(-qd // workers),
         "runtime_ns": runtime, "gap_max_ns": 0 if step == 1 else 20000 + step,
         "gap_mean_ns": 0.0 if step == 1 else 15000.5 + step, "iops": iops,
         "bw_bytes": iops * 4096, "lat_mean_ns": lat, "lat_p99_ns": int(lat * 2.5),
         "little": round(iops * lat / 1e9 / qd, 6)}
    if mix:
        p["read"] = direction(iops * mix / 100.0, lat * 0.8, runtime)
    if mix < 100:
        p["write"] = direction(iops * (100 - mix) / 100.0, lat * 1.5, runtime)
    # the intervals after the ramp (t_ms: their end, from the point's start),
    # a drop to half in the middle of each point
    p["series"] = [{"t_ms": ramp_ms + interval_ms * (i + 1) - 0.5,
                    "iops": iops * (0.5 if i == samples // 2 else 1.0 + 0.01 * (i % 3)),
                    "lat_mean_ns": lat if i % 4 else None} for i in range(samples)]
    return p


def knees_of(points, workers_list, fraction=0.95):
    """The knees as `ssdload sweep` computes them."""
    out = []
    for w in workers_list or [None]:
        pts = [p for p in points if w is None or p["workers"] == w]
        top = max(pts, key=lambda p: p["iops"])
        knee = min((p for p in pts if p["iops"] >= fraction * top["iops"]),
                   key=lambda p: p["qd"])
        out.append({"workers": w, "max_iops": top["iops"], "max_qd": top["qd"],
                    "knee_qd": knee["qd"], "knee_iops": knee["iops"]})
    return out


def base_sweep(qds, workers_list=None, rw="randread", mix=None, max_qd=64):
    return {
        "format": "ssdload-sweep", "format_version": 1, "ssdload_version": "0.9",
        "command": "ssdload sweep --filename=/dev/nvme0n1 --rw=%s --bs=4k --qd=%s" % (
            rw, ",".join(str(q) for q in qds)),
        "started": "2026-12-05T09:30:00Z", "finished": "2026-12-05T09:40:00Z",
        "state": "done",
        "device": {"path": "/dev/nvme0n1", "model": "QEMU NVMe Ctrl", "serial": "deadbeef",
                   "firmware": "8.0.0", "capacity_bytes": 268435456},
        "settings": {"filename": "/dev/nvme0n1", "rw": rw, "bs": 4096, "rwmixread": mix,
                     "qd_list": qds, "workers_list": workers_list,
                     "max_qd_per_worker": max_qd, "ramp_ms": 2000, "runtime_ms": 6000,
                     "log_interval_ms": 1000, "knee_fraction": 0.95, "numjobs": 8},
        "points": [], "knees": [], "run_json": "run.json",
    }


def auto_doc():
    """The automatic rule: workers = ceil(QD / 64)."""
    doc = base_sweep(AUTO_QDS)
    doc["points"] = [sweep_point(i + 1, -(-q // 64), q) for i, q in enumerate(AUTO_QDS)]
    doc["knees"] = knees_of(doc["points"], None)
    return doc


def workers_doc():
    """Two worker counts, 1 and 4, over QD 4..64."""
    qds = [4, 8, 16, 32, 64]
    doc = base_sweep(qds, workers_list=[1, 4])
    doc["points"] = [sweep_point(i + 1, w, q)
                     for i, (w, q) in enumerate((w, q) for w in (1, 4) for q in qds)]
    doc["knees"] = knees_of(doc["points"], [1, 4])
    return doc


def mixed_doc():
    """70/30 reads and writes; the last point has no reads (a write-only
    point: its read key is absent)."""
    qds = [1, 4, 16, 64]
    doc = base_sweep(qds, rw="randrw", mix=70)
    doc["points"] = [sweep_point(i + 1, 1, q, mix=70) for i, q in enumerate(qds)]
    del doc["points"][-1]["read"]
    doc["knees"] = knees_of(doc["points"], None)
    return doc


def no_series_doc():
    """No interval samples in any point (and nulls where a value is unknown)."""
    doc = auto_doc()
    for p in doc["points"]:
        p["series"] = []
    doc["points"][2].update(lat_p99_ns=None, little=None)
    del doc["points"][3]["series"]
    doc["device"].update(model=None, firmware=None)
    return doc


def interrupted_doc():
    """Interrupted during QD 32: five points, the knees of those."""
    doc = auto_doc()
    doc["points"] = doc["points"][:5]
    doc["points"][-1]["series"] = []
    doc.update(state="interrupted", finished=None, knees=knees_of(doc["points"], None))
    return doc


SWEEP_DOCS = {"auto": auto_doc, "workers": workers_doc, "mixed": mixed_doc,
              "no-series": no_series_doc, "interrupted": interrupted_doc}
ALL_PLOTS = ["sweep_iops.svg", "sweep_latency.svg", "sweep_load.svg", "sweep_time.svg"]
SWEEP_PLOTS = {k: ALL_PLOTS for k in SWEEP_DOCS}
SWEEP_PLOTS["no-series"] = ALL_PLOTS[:3]


def render_sweep(d, doc=None, raw=None):
    """Write @doc (or @raw, text) to d/sweep.json and run the renderer."""
    return render_file(d, "sweep.json", doc, raw)
