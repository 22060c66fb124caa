# SPDX-License-Identifier: GPL-2.0
"""pts.json (`ssdload pts TEST`): its checks, the run as the renderer sees
it (Run), the formatting its plots and its page share, and its CSV
tables.  Its plots are in pts_plots.py, its page in pts_report.py.
"""
import math
import os

from .common import (DIRECTION_FIELDS, LOAD, LOAD_MAX, N, NA, anything, array, boolean, fail,
                     fmt_bs, fmt_mix, fmt_value, get, num, obj, string, text, write_csv)

FORMAT, FORMAT_VERSION = "ssdload-pts", 1

# the tests with a rows = R/W mix, columns = block size results table
MATRIX_TESTS = ("iops", "throughput", "latency")

# the tests of rounds of a TC x QD matrix, with operating points
DEMAND_TESTS = ("ecw", "dirth")
OP_LABELS = ("MaxIOPS", "MidIOPS", "MinIOPS")

# default tracking metric of each test, when settings.tracking lacks one
TEST_METRIC = {"iops": "iops", "throughput": "bw_bytes", "latency": "lat_mean_ns"}

# how a metric is shown: (divisor from the JSON unit, display unit, name)
METRICS = {
    "iops": (1.0, "IOPS", "IOPS"),
    "bw_bytes": (1e6, "MB/s", "bandwidth"),
    "lat_mean_ns": (1e3, "\u00b5s", "average latency"),
    "lat_max_ns": (1e3, "\u00b5s", "maximum latency"),
}

# percentiles shown in the latency table (all of them are plotted)
TABLE_PERCENTILES = (50.0, 90.0, 99.0, 99.9, 99.99, 99.999, 99.9999)

# --------------------------------------------------------------------------
# validation of pts.json (the shared checks: common.py)

MAX_WINDOW = 10000	# rounds in a window: more is not a pts run (and would not plot)


def window(v, path):
    array(num(null=False, minimum=1, integer=True), null=False, length=2)(v, path)
    if v[0] > v[1]:
        fail(path, "first round %d after last round %d" % (v[0], v[1]))
    if v[1] - v[0] >= MAX_WINDOW:
        fail(path, "a window of %d rounds (at most %d)" % (v[1] - v[0] + 1, MAX_WINDOW))


HEALTH = obj({k: N for k in ("temperature_k", "data_units_written", "data_units_read",
                             "host_write_commands", "host_read_commands", "percentage_used",
                             "critical_warning", "media_errors", "power_on_hours",
                             "available_spare")})
DIRECTION = obj(DIRECTION_FIELDS)
POINT_FIELDS = {"bs": num(null=False, minimum=1, integer=True),
                "rwmixread": num(null=False, minimum=0, maximum=100),
                "pattern": string(), "runtime_ms": N, "iops": N, "bw_bytes": N,
                "lat_mean_ns": N, "lat_max_ns": N, "read": DIRECTION, "write": DIRECTION}
POINT = obj(POINT_FIELDS, required=("bs", "rwmixread"), null=False)
# ecw, dirth: a point of the TC x QD matrix; ecw's has no one block size
# (bs null) but its bssplit
DEMAND_POINT = obj({**POINT_FIELDS, "bs": num(minimum=1, integer=True), "bssplit": string(),
                    "tc": LOAD, "qd": LOAD, "toio": N},
                   required=("bs", "rwmixread", "tc", "qd"), null=False)
SAMPLE = obj({"t_ms": num(null=False), "iops": N, "bw_bytes": N, "lat_mean_ns": N,
              "lat_max_ns": N, "written_bytes": N, "segment": N}, required=("t_ms",),
             null=False)
# ecw, dirth: writes at one load before each round and each operating point
PREWRITE = obj({"tc": N, "qd": N, "runtime_ms": N, "ios": N, "iops": N, "bw_bytes": N,
                "samples": array(obj({"t_ms": num(null=False), "iops": N},
                                     required=("t_ms",), null=False)),
                "run_file": string()})


def round_checker(point):
    return obj({"round": num(null=False, minimum=1, integer=True), "started": string(),
                "duration_ms": N, "tracking": N, "health_before": HEALTH,
                "health_after": HEALTH, "run_file": string(), "points": array(point),
                "prewrite": PREWRITE, "run_files": array(string(null=False))},
               required=("round",), null=False)


def buckets(v, path):
    """fio's latency buckets: {"2": %, ..., ">=2000": %}."""
    if v is None:
        return
    if not isinstance(v, dict):
        fail(path, "is not an object")
    for k, x in v.items():
        if bucket_key(k) is None:
            fail(path, "key \"%s\" is not a latency bucket" % k[:40])
        num(minimum=0)(x, "%s.\"%s\"" % (path, k))


def bucket_key(k):
    """The upper bound of fio's bucket @k ("250", ">=2000": its lower bound),
    a sort key; None if @k is none."""
    ge = k.startswith(">=")
    try:
        v = float(k[2:] if ge else k)
    except ValueError:
        return None
    if not math.isfinite(v) or v < 0:
        return None
    return (v, ge)


RT_HISTOGRAM = obj({"ns": buckets, "us": buckets, "ms": buckets})
OPERATING_POINT = obj({
    "label": string(), "tc": num(minimum=1, integer=True), "qd": num(minimum=1, integer=True),
    "window_iops": N, "window_lat_mean_ns": N, "skipped": string(), "prewrite": PREWRITE,
    "measure": obj({**POINT_FIELDS, "bs": num(minimum=1, integer=True), "bssplit": string(),
                    "tc": N, "qd": N, "toio": N, "rt_histogram": RT_HISTOGRAM,
                    "run_file": string()})}, null=False)
SEGMENT = obj({"segment": num(null=False, minimum=1, integer=True), "t_end_ms": N, "iops": N,
               "written_end_bytes": N, "samples": N}, required=("segment",), null=False)
HIR_PART = obj({"t_start_ms": N, "t_end_ms": N, "iops": N, "ios": N, "lat_mean_ns": N,
                "lat_max_ns": N, "samples": array(SAMPLE)})
WAIT_STATE = obj({"state": num(null=False, minimum=1, integer=True), "wait_ms": N,
                  "access_ms": N, "cycles": N, "access": HIR_PART, "baseline": HIR_PART},
                 required=("state",), null=False)
STEADY_STATE = obj({
    "reached": boolean, "round": N, "window": window, "values": array(N),
    **{k: N for k in ("average", "min", "max", "range", "range_pct", "slope",
                      "intercept", "slope_excursion", "slope_excursion_pct",
                      "range_limit_pct", "slope_limit_pct", "rounds_run",
                      "max_rounds")},
    "range_pass": boolean, "slope_pass": boolean,
}, required=("window",))


def doc_checker(point):
    """pts.json, its rounds' and results' points checked by @point."""
    return obj({
        "format": string(null=False), "format_version": anything,
        "spec": string(null=False), "ssdload_version": string(), "test": string(null=False),
        "title": string(), "clause": string(), "variant": string(),
        "command": array(string(null=False)), "state": string(null=False),
        "started": string(), "updated": string(), "finished": string(),
        "conformant": boolean, "deviations": array(string(null=False)), "scaled": boolean,
        "device": obj({
            "path": string(), "kind": string(), "model": string(), "serial": string(),
            "firmware": string(), "capacity_bytes": N, "logical_block_size": N,
            "physical_block_size": N,
            "lba_format": obj({"index": N, "data_bytes": N, "metadata_bytes": N}),
            "write_cache": obj({"present": boolean, "requested": string(), "before": string(),
                                "during": string()}),
        }, null=False),
        "settings": obj({
            "threads": num(minimum=1, maximum=LOAD_MAX, integer=True),
            "iodepth": num(minimum=1, maximum=LOAD_MAX, integer=True),
            **{k: N for k in ("offset_bytes", "active_range_bytes",
                              "active_range_pct", "point_ms", "spec_point_ms", "max_rounds",
                              "window", "range_limit_pct", "slope_limit_pct", "blockalign",
                              "sample_ms", "duration_ms", "max_written_bytes", "access_ms",
                              "cycles", "baseline_ms", "segment_samples", "prewrite_points",
                              "op_prewrite_points", "op_measure_points", "art_limit_ns")},
            "pattern": string(), "bssplit": string(), "random_distribution": string(),
            "tc_list": array(LOAD), "qd_list": array(LOAD),
            "wait_ms": array(num(null=False)),
            "groups": array(obj({"group": N, "label": string(), "duration_ms": N}, null=False)),
            "block_sizes": array(num(null=False, minimum=1, integer=True)),
            "rwmixread": array(num(null=False, minimum=0, maximum=100)),
            "tracking": obj({"label": string(), "bs": N, "rwmixread": N, "metric": string(),
                             "unit": string(), "tc": N, "qd": N}),
        }, null=False),
        "purge": obj({"method": string(), "detail": string(), "duration_ms": N,
                      "conformant": boolean, "not_conformant_why": string()}),
        "wipc": obj({"bytes": N, "bs": N, "duration_ms": N}),
        "wdpc": obj({"rounds": N, "duration_ms": N}),
        "health_before": HEALTH, "health_after": HEALTH,
        "rounds": array(round_checker(point)),
        "steady_state": STEADY_STATE,
        "results": obj({"window": lambda v, p: v is None or window(v, p),
                        "points": array(point), "steady_iops": N,
                        "groups": array(obj({k: N for k in (
                            "group", "duration_ms", "bw_bytes", "iops", "lat_mean_ns",
                            "lat_max_ns")}, null=False)),
                        "wait_states": array(obj({k: N for k in (
                            "state", "wait_ms", "iops", "baseline_iops", "vs_precondition")},
                            null=False)),
                        "reference_bw_bytes": N, "recovery_ms": N,
                        # wsat: a word, shown as text; its segments' check
                        "stopped_by": string(), "steady_state": STEADY_STATE}),
        "series": array(SAMPLE),
        "segments": array(SEGMENT),
        "wait_states": array(WAIT_STATE),
        "precondition": obj({"segments": N, "duration_ms": N, "written_bytes": N,
                             "steady_state": STEADY_STATE}),
        "precondition_steady_state": STEADY_STATE,
        "operating_points": array(OPERATING_POINT),
    }, required=("format", "format_version", "spec", "test", "state", "device", "settings"),
        null=False)


DOC = doc_checker(POINT)
DEMAND_DOC = doc_checker(DEMAND_POINT)


# --------------------------------------------------------------------------
# formatting

def scale(metric, v):
    """@v of @metric (JSON unit) in its display unit, or None."""
    return None if v is None else v / METRICS.get(metric, (1.0,))[0]


def unit(metric):
    return METRICS.get(metric, (1.0, ""))[1]


def fmt_metric(metric, v):
    return NA if v is None else "%s %s" % (fmt_value(scale(metric, v)), unit(metric))


def fmt_temp(k):
    return NA if k is None else "%d K (%.0f \u00b0C)" % (k, k - 273.15)


def fmt_load(tc, qd):
    """A load the way the specification names it: T32Q32."""
    return NA if tc is None or qd is None else "T%dQ%d" % (tc, qd)


def percentile(direction, p):
    """The @p percentile (ns) of @direction (a point's read or write), or None."""
    for k, v in (get(direction, "percentiles") or {}).items():
        if float(k) == p:
            return v
    return None


def fmt_bssplit(s):
    """fio's bssplit (512/4:4096/67) as 0.5 KiB 4%, 4 KiB 67%; as it is if
    it is not one."""
    out = []
    for part in s.split(":"):
        bs, _, share = part.partition("/")
        try:
            out.append("%s %g%%" % (fmt_bs(int(bs)), float(share)))
        except ValueError:
            return s
    return ", ".join(out)


def fmt_zones(s):
    """fio's random_distribution: zoned:50/5:30/15:20/80 in words."""
    if s in (None, "", "random"):
        return "uniform random" if s else NA
    kind, _, rest = s.partition(":")
    if kind != "zoned" or not rest:
        return s
    out = []
    for i, part in enumerate(rest.split(":")):
        acc, _, size = part.partition("/")
        try:
            out.append("%g%% of the accesses to the %s %g%%" % (
                float(acc), "first" if i == 0 else "next", float(size)))
        except ValueError:
            return s
    return "zoned: " + ", ".join(out) + " of the active range"


# --------------------------------------------------------------------------
# the run, as the renderer sees it

class Run:
    """The validated document and what the pages and plots derive from it."""

    def __init__(self, doc, outdir):
        self.doc = doc
        self.dir = outdir
        self.test = doc["test"]
        self.settings = doc["settings"]
        self.rounds = doc.get("rounds") or []
        self.ss = doc.get("steady_state")
        self.results = doc.get("results")
        tr = get(self.settings, "tracking") or {}
        self.metric = tr.get("metric") or TEST_METRIC.get(self.test, "iops")
        self.track_mix = tr.get("rwmixread")
        self.track_label = tr.get("label") or "tracking variable"
        self.plots = []		# plot files written, in order
        # ecw, dirth
        self.demand = self.test in DEMAND_TESTS
        # (a run still preconditioning keeps its check at the top level)
        self.pre_ss = get(doc, "precondition", "steady_state") or \
            doc.get("precondition_steady_state")
        self.ops = doc.get("operating_points") or []

    # the measurement window's points by (rwmixread, bs)
    def result_points(self):
        return {(p["rwmixread"], p["bs"]): p for p in get(self.results, "points") or []}

    def axes(self, points):
        """(mixes, block sizes) of @points: mixes in the settings' order,
        block sizes ascending (the specification's tables)."""
        mixes = list(self.settings.get("rwmixread") or [])
        seen_m = {m for m, _ in points}
        mixes = [m for m in mixes if m in seen_m] + sorted(seen_m - set(mixes), reverse=True)
        bss = sorted({b for _, b in points})
        return mixes, bss

    # ecw, dirth: the measurement window's points by (tc, qd)
    def demand_points(self):
        return {(p["tc"], p["qd"]): p for p in get(self.results, "points") or []}

    def window_cpu(self):
        """ecw, dirth: {tc: {key: mean}} of the CPU of each TC's run over the
        measurement window's rounds (usr_pct, sys_pct, host_pct; None where a
        round has none)."""
        win = get(self.results, "window") or []
        if len(win) != 2:
            return {}
        acc = {}
        for r in self.rounds:
            if not win[0] <= r.get("round", 0) <= win[1]:
                continue
            for c in r.get("cpu") or []:
                acc.setdefault(c.get("tc"), []).append(c)
        out = {}
        for tc, cs in acc.items():
            out[tc] = {}
            for key in ("usr_pct", "sys_pct", "host_pct"):
                vals = [c.get(key) for c in cs]
                out[tc][key] = (None if not vals or None in vals
                                else sum(vals) / len(vals))
            out[tc]["rounds"] = len(cs)
        return out

    @staticmethod
    def loads(points):
        """(TCs high to low, QDs ascending) of @points {(tc, qd): point}."""
        return (sorted({t for t, _ in points}, reverse=True),
                sorted({q for _, q in points}))

    def stimulus(self):
        """ecw, dirth: the test's stimulus in words."""
        s = self.settings
        if s.get("bssplit"):
            return "ECW block sizes"
        bss = s.get("block_sizes") or []
        return "RND %s" % (fmt_bs(bss[0]) if bss else NA)

    def top_load(self):
        """ecw, dirth: the tracking (highest) load, T32Q32."""
        tr = get(self.settings, "tracking") or {}
        return fmt_load(tr.get("tc"), tr.get("qd"))

    @property
    def not_conformant(self):
        return self.doc.get("conformant") is False

    def footer(self):
        """The line under every plot: what device and spec it is, and caveats."""
        d = self.doc["device"]
        parts = [self.doc["spec"], "%s test" % (self.doc.get("title") or self.test),
                 "%s %s" % (text(d.get("model")), text(d.get("serial")))]
        if self.not_conformant:
            parts.append("NOT CONFORMANT")
        if self.doc.get("scaled"):
            parts.append("SCALED RUN")
        if self.doc["state"] != "complete":
            parts.append(self.doc["state"].upper())
        return "  \u00b7  ".join(parts)


# --------------------------------------------------------------------------
# what the plots and the page both show

RT_UNITS = (("ns", "ns"), ("us", "\u00b5s"), ("ms", "ms"))


def rt_buckets(hists):
    """[(unit, bucket)] of the response-time histograms @hists, ascending."""
    out = []
    for u, _ in RT_UNITS:
        ks = {k for h in hists for k in (get(h, u) or {})}
        out += [(u, k) for k in sorted(ks, key=bucket_key)]
    return out


def bucket_label(u, k):
    name = dict(RT_UNITS)[u]
    return "\u2265%s %s" % (k[2:], name) if k.startswith(">=") else "%s %s" % (k, name)


def percentile_rows(run):
    """[(label, percentiles)] of the measurement window: each point's read and
    write completion latency percentiles, where the point has them."""
    pts = run.result_points()
    mixes, bss = run.axes(pts)
    rows = []
    for b in bss:
        for m in mixes:
            for d in ("read", "write"):
                pc = get(pts.get((m, b)), d, "percentiles")
                if pc and any(v is not None for v in pc.values()):
                    rows.append(("%s %s %s" % (fmt_bs(b), fmt_mix(m), d), pc))
    return rows


# --------------------------------------------------------------------------
# the CSV tables

def write_csvs(run):
    """The CSV files written, in order."""
    out = []
    d = run.dir
    if run.test != "wsat" or run.rounds:
        # ecw, dirth: each round's pre-write; each point's load
        extra = ["prewrite_iops"] if run.demand else []
        write_csv(os.path.join(d, "rounds.csv"), ["round", "tracking", "duration_ms"] + extra,
                  [[r["round"], r.get("tracking"), r.get("duration_ms")] +
                   ([get(r, "prewrite", "iops")] if extra else []) for r in run.rounds])
        extra = ["tc", "qd", "toio"] if run.demand else []
        write_csv(os.path.join(d, "points.csv"),
                  ["round", "bs", "rwmixread", "iops", "bw_bytes", "lat_mean_ns", "lat_max_ns",
                   "read_iops", "write_iops"] + extra,
                  [[r["round"], p["bs"], p["rwmixread"], p.get("iops"), p.get("bw_bytes"),
                    p.get("lat_mean_ns"), p.get("lat_max_ns"), get(p, "read", "iops"),
                    get(p, "write", "iops")] + [p.get(k) for k in extra]
                   for r in run.rounds for p in r.get("points") or []])
        out += ["rounds.csv", "points.csv"]
    pts = run.result_points()
    if run.test in MATRIX_TESTS and pts:
        mixes, bss = run.axes(pts)
        metrics = {"iops": ["iops"], "throughput": ["bw_bytes"],
                   "latency": ["lat_mean_ns", "lat_max_ns"]}[run.test]
        write_csv(os.path.join(d, "measurement.csv"), ["metric", "rwmixread"] + bss,
                  [[k, m] + [get(pts.get((m, b)), k) for b in bss]
                   for k in metrics for m in mixes])
        out.append("measurement.csv")
    if run.doc.get("series"):
        keys = ["t_ms", "iops", "bw_bytes", "lat_mean_ns", "lat_max_ns", "written_bytes"]
        if run.test == "xsr":
            keys.append("group")
        elif run.demand:
            keys.append("segment")
        write_csv(os.path.join(d, "series.csv"), keys,
                  [[s.get(k) for k in keys] for s in run.doc["series"]])
        out.append("series.csv")
    wss = run.doc.get("wait_states") or []
    if run.test == "hir" and wss:
        rs = {w.get("state"): w for w in get(run.results, "wait_states") or []}
        write_csv(os.path.join(d, "wait_states.csv"),
                  ["state", "wait_ms", "iops", "baseline_iops", "vs_precondition"],
                  [[w["state"], w.get("wait_ms"), get(w, "access", "iops"),
                    get(w, "baseline", "iops"), get(rs.get(w["state"]), "vs_precondition")]
                   for w in wss])
        write_csv(os.path.join(d, "hir_samples.csv"), ["state", "part", "t_ms", "iops"],
                  [[w["state"], part, x["t_ms"], x.get("iops")] for w in wss
                   for part in ("access", "baseline") for x in get(w, part, "samples") or []])
        out += ["wait_states.csv", "hir_samples.csv"]
    if run.demand:
        out += write_demand_csvs(run)
    return out


def write_demand_csvs(run):
    """ecw, dirth: the window's TC x QD points, the operating points, their
    response-time histograms and every pre-write's samples."""
    out, d = [], run.dir
    pts = get(run.results, "points") or []
    if pts:
        write_csv(os.path.join(d, "demand.csv"),
                  ["tc", "qd", "toio", "iops", "read_iops", "write_iops", "bw_bytes",
                   "lat_mean_ns", "read_lat_mean_ns", "write_lat_mean_ns", "lat_max_ns"],
                  [[p["tc"], p["qd"], p.get("toio"), p.get("iops"), get(p, "read", "iops"),
                    get(p, "write", "iops"), p.get("bw_bytes"), p.get("lat_mean_ns"),
                    get(p, "read", "lat_mean_ns"), get(p, "write", "lat_mean_ns"),
                    p.get("lat_max_ns")] for p in pts])
        out.append("demand.csv")
    if run.ops:
        rows = []
        for o in run.ops:
            m = o.get("measure")
            rows.append([o.get("label"), o.get("tc"), o.get("qd"), get(m, "toio"),
                         o.get("window_iops"), o.get("window_lat_mean_ns"),
                         get(o, "prewrite", "iops"), get(m, "iops"), get(m, "read", "iops"),
                         get(m, "write", "iops"), get(m, "lat_mean_ns"), get(m, "lat_max_ns")] +
                        [percentile(get(m, x), q) for x in ("read", "write")
                         for q in (99.0, 99.99)] + [o.get("skipped")])
        write_csv(os.path.join(d, "operating_points.csv"),
                  ["label", "tc", "qd", "toio", "window_iops", "window_lat_mean_ns",
                   "prewrite_iops", "iops", "read_iops", "write_iops", "lat_mean_ns",
                   "lat_max_ns", "read_p99_ns", "read_p99.99_ns", "write_p99_ns",
                   "write_p99.99_ns", "skipped"], rows)
        out.append("operating_points.csv")
    hists = [(o.get("label"), get(o, "measure", "rt_histogram")) for o in run.ops]
    if any(h for _, h in hists):
        write_csv(os.path.join(d, "rt_histogram.csv"), ["label", "unit", "bucket", "percent"],
                  [[label, u, k, get(h, u, k)] for label, h in hists if h
                   for u, k in rt_buckets([h])])
        out.append("rt_histogram.csv")
    pws = [("round %d" % r["round"], r["prewrite"]) for r in run.rounds if r.get("prewrite")]
    pws += [(o.get("label"), o["prewrite"]) for o in run.ops if o.get("prewrite")]
    if pws:
        write_csv(os.path.join(d, "prewrites.csv"), ["prewrite", "tc", "qd", "t_ms", "iops"],
                  [[name, pw.get("tc"), pw.get("qd"), x["t_ms"], x.get("iops")]
                   for name, pw in pws for x in pw.get("samples") or []])
        out.append("prewrites.csv")
    return out
