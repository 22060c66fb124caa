# SPDX-License-Identifier: GPL-2.0
"""Synthetic curve.json documents (format "ssdload-curve", format_version 1):
a done 70/30 curve (the max point and six curve points, reads and writes,
with percentiles from submission and from the intended time), a curve
stopped at a latency bound (a point skipped), one run at a given max_iops
(no max point), one still running and one that failed; the plots each
report shows, and render_curve().
"""
from report import render_file

S = 1000000000
PCTS = [1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0]
FACTORS = [0.4, 0.6, 0.9, 1.6, 2.5, 4.0, 6.0, 9.0]
CURVE_PCT = [10, 50, 70, 80, 90, 100]
MAX_IOPS = 200000.0


# --------------------------------------------------------------------------
# synthetic curve.json documents

def pct_list(mean):
    """[[p, ns], ...] of a latency distribution around @mean (p 100: its max)."""
    return [[p, int(mean * f)] for p, f in zip(PCTS, FACTORS)]


def direction(iops, mean, intended_mean, runtime_s=10):
    x = {"ios": int(iops * runtime_s), "iops": iops, "bw_bytes": iops * 4096,
         "lat_mean_ns": mean, "lat_stddev_ns": mean / 3, "lat_max_ns": int(mean * 9),
         "percentiles": pct_list(mean)}
    if intended_mean is not None:
        x["intended_percentiles"] = pct_list(intended_mean)
    return x


def curve_point(pct, max_iops, mix=70, ratio=None, runtime_s=10):
    """The point at @pct % of @max_iops (pct None: the max point, closed
    loop); it keeps its rate up to 90%, a little less above."""
    target = None if pct is None else max_iops * pct / 100.0
    iops = max_iops if pct is None else round(target * (ratio or (1.0 if pct <= 90 else 0.97)),
                                              3)
    rho = min(iops / max_iops, 0.99)
    mean = 80000.0 / (1.0 - 0.8 * rho)		# queueing: latency grows with the load
    intended = None if pct is None else mean * (1.0 + (4.0 if pct > 90 else 0.1) * rho)
    p = {"label": "max" if pct is None else "%g%%" % pct, "pct": pct, "target_iops": target,
         "iops": iops, "ratio": None if pct is None else round(iops / target, 6),
         "bw_bytes": iops * 4096, "bytes_per_io": 4096, "ios": int(iops * runtime_s),
         "read_pct": float(mix), "lat_mean_ns": mean, "lat_stddev_ns": mean / 3,
         "lat_max_ns": int(mean * 9), "lat_p50_ns": int(mean * 0.9),
         "lat_p99_ns": int(mean * 2.5), "lat_p99_9_ns": int(mean * 4),
         "intended": None if pct is None else {
             "lat_mean_ns": int(intended), "lat_max_ns": int(intended * 9),
             "lat_p50_ns": int(intended * 0.9), "lat_p99_ns": int(intended * 2.5),
             "lat_p99_9_ns": int(intended * 4), "late_ios": int(iops * (pct / 100.0) ** 4)},
         "run_json": "run-max.json" if pct is None else "run-%g.json" % pct}
    if mix:
        p["read"] = direction(iops * mix / 100.0, mean * 0.8,
                              None if intended is None else intended * 0.8)
    if mix < 100:
        p["write"] = direction(iops * (100 - mix) / 100.0, mean * 1.5,
                               None if intended is None else intended * 1.5)
    return p


def base_curve(curve_pct=None, rw="randrw", mix=70):
    return {
        "format": "ssdload-curve", "format_version": 1, "ssdload_version": "0.9",
        "command": "ssdload curve --filename=/dev/nvme0n1 --rw=%s --bs=4k" % rw,
        "started": "2026-12-06T10:00:00Z", "finished": "2026-12-06T10:08:00Z",
        "state": "done",
        "device": {"path": "/dev/nvme0n1", "model": "QEMU NVMe Ctrl", "serial": "deadbeef",
                   "firmware": "8.0.0", "capacity_bytes": 268435456},
        "settings": {"filename": "/dev/nvme0n1", "curve_pct": curve_pct or CURVE_PCT,
                     "max_iops_given": None, "ramp_ms": 2000, "runtime_ms": 10000,
                     "rate_process": "linear", "stopcurve_ns": None,
                     "stopcurve_intended_ns": None, "rw": rw, "bs": 4096,
                     "rwmixread": mix, "iodepth": 32, "numjobs": 4},
        "max_iops": MAX_IOPS, "max": None, "points": [], "skipped_pct": [], "stop": None,
    }


def done_doc():
    """The max point, then 10..100%, reads and writes."""
    doc = base_curve()
    doc["max"] = curve_point(None, MAX_IOPS)
    doc["points"] = [curve_point(x, MAX_IOPS) for x in CURVE_PCT]
    return doc


def stopped_doc():
    """Stopped at 150% by its latency bound; 200% not run."""
    doc = base_curve([10, 50, 100, 150, 200], rw="randread", mix=100)
    doc["settings"].update(stopcurve_ns=2000000, rate_process="poisson")
    doc["max"] = curve_point(None, MAX_IOPS, mix=100)
    doc["points"] = [curve_point(x, MAX_IOPS, mix=100) for x in (10, 50, 100)]
    doc["points"].append(curve_point(150, MAX_IOPS, mix=100, ratio=0.68))
    doc["points"][-1]["lat_mean_ns"] = 2100000.0
    doc.update(state="stopped", stop={"pct": 150, "reason": "mean latency 2.1 ms is above "
                                      "the bound 2 ms"}, skipped_pct=[200])
    return doc


def given_doc():
    """max_iops given (no max point), writes only, an intended bound."""
    doc = base_curve(rw="randwrite", mix=0)
    doc["settings"].update(max_iops_given=100000, rwmixread=None,
                           stopcurve_intended_ns=5000000)
    doc["max_iops"] = 100000
    doc["points"] = [curve_point(x, 100000.0, mix=0) for x in CURVE_PCT]
    return doc


def running_doc():
    """Still running: the max point and two curve points; no rw, bs yet."""
    doc = done_doc()
    doc["points"] = doc["points"][:2]
    doc["settings"].update(rw=None, bs=None)
    doc.update(state="running", finished=None)
    return doc


def failed_doc():
    """Failed after three curve points; a null value or two."""
    doc = done_doc()
    doc["points"] = doc["points"][:3]
    doc["points"][1].update(lat_p99_ns=None, ratio=None)
    doc["device"].update(model=None)
    doc.update(state="failed")
    return doc


CURVE_DOCS = {"done": done_doc, "stopped": stopped_doc, "given": given_doc,
              "running": running_doc, "failed": failed_doc}
ALL_PLOTS = ["curve_response.svg", "curve_target.svg", "curve_exceedance.svg",
             "curve_histogram.svg"]
CURVE_PLOTS = {k: ALL_PLOTS for k in CURVE_DOCS}


def render_curve(d, doc=None, raw=None):
    """Write @doc (or @raw, text) to d/curve.json and run the renderer."""
    return render_file(d, "curve.json", doc, raw)
