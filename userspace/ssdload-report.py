#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ssdload-report.py DIR: the report of an `ssdload pts TEST` run, of an
`ssdload sweep` (queue-depth sweep), of an `ssdload curve` (iorate curve),
of an `ssdload compare` (runs side by side), of an `ssdload scale` (drive
and RAID scaling) or of the latency study of a plain `ssdload run`.

Reads DIR/pts.json alone (format "ssdload-pts", format_version 1, see
Documentation/pts.rst), or when DIR has no pts.json, DIR/sweep.json alone
(format "ssdload-sweep", format_version 1: below), or when DIR has neither,
DIR/curve.json alone (format "ssdload-curve", format_version 1: below),
or when DIR has none of them, DIR/compare.json alone (format
"ssdload-compare", format_version 1: below), or DIR/scale.json alone
(format "ssdload-scale", format_version 1: below), or last DIR/run.json
alone (a plain run's JSON: below).
From pts.json it writes into DIR:

  report.html       self-contained page (inline CSS, no JavaScript) laid out
                    like the report pages of SNIA SSS PTS 2.0.2: every page
                    starts with the same header block (device, test,
                    settings, preconditioning)
  plots/*.svg       its plots (matplotlib, Agg backend), referenced by
                    relative path
  rounds.csv        round,tracking,duration_ms: one row per round (ecw,
                    dirth: and prewrite_iops)
  points.csv        round,bs,rwmixread,iops,bw_bytes,lat_mean_ns,lat_max_ns,
                    read_iops,write_iops: every point of every round (ecw,
                    dirth: and tc,qd,toio; ecw's bs is empty)
  measurement.csv   metric,rwmixread,<bs>,<bs>...: the measurement window's
                    table (iops, throughput, latency), one row per metric and
                    R/W mix, one column per block size (bytes, ascending);
                    metric: iops; bw_bytes; lat_mean_ns and lat_max_ns
  series.csv        t_ms,iops,bw_bytes,lat_mean_ns,lat_max_ns,written_bytes:
                    the samples of a wsat or xsr run (hir, ecw, dirth: of
                    its preconditioning); xsr adds a group column, ecw and
                    dirth a segment column
  wait_states.csv   state,wait_ms,iops,baseline_iops,vs_precondition: hir
  hir_samples.csv   state,part,t_ms,iops: hir's access and baseline samples
  demand.csv        tc,qd,toio,iops,read_iops,write_iops,bw_bytes,lat_mean_ns,
                    read_lat_mean_ns,write_lat_mean_ns,lat_max_ns: ecw, dirth:
                    the measurement window's TC x QD points, as run
  operating_points.csv  label,tc,qd,toio,window_iops,window_lat_mean_ns,
                    prewrite_iops,iops,read_iops,write_iops,lat_mean_ns,
                    lat_max_ns,read_p99_ns,read_p99.99_ns,write_p99_ns,
                    write_p99.99_ns,skipped: ecw, dirth: MaxIOPS, MidIOPS,
                    MinIOPS, the window's values then the measurement's
  rt_histogram.csv  label,unit,bucket,percent: ecw, dirth: the operating
                    points' response-time histograms (fio's latency_ns, _us,
                    _ms buckets; bucket "250" is up to 250 units)
  prewrites.csv     prewrite,tc,qd,t_ms,iops: ecw, dirth: the samples of the
                    pre-write before each round and each operating point

From sweep.json (one point per total queue depth QD of settings.qd_list,
for each worker count of settings.workers_list, or with workers =
ceil(QD / max_qd_per_worker) when it is null; knees: per worker count, the
smallest QD reaching knee_fraction of its most IOPS) it writes:

  report.html       the same layout: the header block (device, sweep,
                    settings, command), the knees, the points table (the
                    knee rows marked), per-direction latencies, the plots
  plots/sweep_iops.svg      IOPS against total QD (log2), a line per worker
                    count (one for the automatic rule), the knees circled
  plots/sweep_latency.svg   mean and p99 latency against total QD (log)
  plots/sweep_load.svg      mean latency against IOPS: the load curve
  plots/sweep_time.svg      every point's IOPS samples end to end (each
                    point over its ramp + runtime), their boundaries
                    marked (none when no point has samples: the page
                    says so)
  sweep.csv         step,workers,qd,qd_per_worker,runtime_ns,gap_max_ns,
                    gap_mean_ns,iops,bw_bytes,lat_mean_ns,lat_p99_ns,little,
                    then read_KEY and write_KEY for KEY in ios,iops,bw_bytes,
                    lat_mean_ns,lat_max_ns,lat_p50_ns,lat_p99_ns,lat_p99_9_ns:
                    one row per point, as run
  sweep-series.csv  point,t_ms,iops,lat_mean_ns: every point's interval
                    samples (point: its step), when any point has some

From curve.json (the workload at its maximum rate, the "max" point, then
open-loop at settings.curve_pct percent of max_iops, the 100% reference:
the max point's IOPS or max_iops_given; a curve may stop early at a
latency bound, its remaining points in skipped_pct) it writes:

  report.html       the same layout: the header block (device, curve,
                    settings, command), the stop line, the points table,
                    per-direction percentiles, the plots
  plots/curve_response.svg  mean latency (ms) against achieved IOPS: the
                    response-time curve, from submission to completion
                    and from each I/O's intended send time, the max point
                    marked apart, the stop bounds dashed
  plots/curve_target.svg    achieved against target IOPS, with the line
                    y = x (a point below it did not keep its rate)
  plots/curve_exceedance.svg  each point's latency percentiles on a
                    "nines" axis (y = -log10(1 - p/100)) against the
                    latency (log), a panel per direction; dashed: from
                    the intended time
  plots/curve_histogram.svg   each point's latency density per decade,
                    derived from its percentiles (the share of the I/Os
                    between two percentiles over the log-width of their
                    latencies), a panel per direction
  curve.csv         label,pct,target_iops,iops,ratio,bw_bytes,lat_mean_ns,
                    lat_p99_ns,lat_max_ns,intended_mean_ns,intended_p99_ns,
                    late_ios: one row per point, the max point first

From compare.json (kind: run, sweep, curve or pts, and for pts its test;
runs: each run's label, source and its document whole, validated as its
own file would be) it writes:

  report.html       the runs (device, workload, state, source), the
                    side-by-side table (a column per run), the plots
  plots/compare_response.svg    curves: every curve's mean latency against
                    IOPS, resp solid, intended dashed, the max point a star
  plots/compare_exceedance.svg  curves: each curve's max (else last) point's
                    percentiles on the nines axis; plain runs: each run's
                    completion latency percentiles
  plots/compare_iops.svg        sweeps: IOPS against QD, a line per run and
                    worker count; plain runs: IOPS bars per direction
  plots/compare_latency.svg     sweeps: p99 latency against QD; plain runs:
                    mean and percentile latency bars per direction
  plots/compare_pts.svg         pts iops, throughput, latency: the metric
                    by block size at the mixes 100/0, 65/35, 0/100; wsat:
                    IOPS by the bytes written (other tests: no plot)
  compare.csv       a row per run and point (Documentation/compare.rst)

From scale.json (targets: drives together, md arrays the run built, arrays
given; points: one per target and queue depth per drive, with its scaling
against the baseline target at the same depth; Documentation/scale.rst)
it writes:

  report.html       the header block (drives, targets, workload, depths),
                    the scaling table, the targets and drives, each
                    point's reads and writes
  plots/scale_iops.svg      IOPS per target, a bar per depth, the scaling
                    factor above each
  plots/scale_factor.svg    the scaling factor against the drive count, a
                    line per kind of target (drives together, each md
                    level, each array given) and depth; linear dotted
  plots/scale_latency.svg   mean and p99 latency per target and depth
  scale.csv         a row per point: target,kind,drives,qd_per_drive,...,
                    scaling,efficiency,md_*, then read_*/write_*/trim_*

From run.json (a plain run's JSON, fio's schema with no "format": `ssdload
run --output-format=json+ --latency-table ... --output=DIR/run.json`; its
job entries, json+'s clat_ns/lat_ns bins where present, the top-level
latency_study of --latency-table, --latency-below and --latency-check) it
writes (Documentation/latency.rst):

  report.html       the header block (run, job options, what the study
                    asked), the verdict of --latency-check, the results per
                    entry and direction, the percentile table with the I/Os
                    that back each row, the shares below, the conditions
  plots/run_exceedance.svg  a panel per direction: each entry's share of
                    the I/Os at or below each latency on the nines axis,
                    from the bins (the reported percentiles circled) or from
                    its percentiles; the --latency-check percentile
                    promises as crosses
  plots/run_histogram.svg   a panel per direction: each entry's % of the
                    I/Os in each 1/20 decade of latency (log x), counted
                    from the bins or derived from the percentiles
  run.csv           job,direction,ios,iops,bw_bytes,lat_mean_ns,lat_max_ns
  latency.csv       job,direction,latency,percentile,value_ns,lo_ns,hi_ns,
                    ios,ios_beyond,needs_ios,backed,source
  latency-below.csv direction,bound_ns,ios,ios_below,ios_in_bound_bucket,
                    percent,percent_max (with --latency-below)
  latency-check.csv condition,direction,bound_ns,value_ns,lo_ns,hi_ns,
                    at_resolution,result (with --latency-check)
  run-bins.csv      job,direction,latency,value_ns,ios: json+'s bins

The CSV values are the JSON's, in its units (bytes, ns, per second), and
an empty cell where the JSON has null.  The page shows them in MB/s
(10^6 bytes/s) and microseconds.

A running, interrupted or failed run renders what it has.  Unknown (null)
values print as "n/a"; nothing is invented.  The output depends on
pts.json (sweep.json, curve.json, compare.json, scale.json, run.json) alone: two
renderings of the same file are byte-identical.

Exit status: 0 rendered; 2 bad usage or a missing or invalid pts.json,
sweep.json, curve.json, compare.json, scale.json or run.json (one line on stderr,
naming the bad key); 3 the rendering failed (matplotlib missing, a write
error).  ssdload runs this script for `ssdload report DIR` and at the end
of `ssdload pts TEST` (userspace/pts/pts.c, pts_render_report()).
"""
import csv
import html
import json
import math
import os
import stat
import sys
import tempfile

PROG = "ssdload-report"
FORMAT, FORMAT_VERSION = "ssdload-pts", 1
SWEEP_FORMAT, SWEEP_FORMAT_VERSION = "ssdload-sweep", 1
CURVE_FORMAT, CURVE_FORMAT_VERSION = "ssdload-curve", 1
COMPARE_FORMAT, COMPARE_FORMAT_VERSION = "ssdload-compare", 1
EXIT_OK, EXIT_USAGE, EXIT_FAILED = 0, 2, 3
NA = "n/a"

# every file this script may write; stale ones are removed on each rendering
# so that DIR always holds exactly what report.html describes
PLOTS = ("ss_convergence.svg", "ss_window.svg", "iops_2d.svg", "iops_3d.svg",
         "throughput_bw.svg", "latency_avg.svg", "latency_max.svg",
         "latency_percentiles.svg", "wsat_time.svg", "wsat_tgbw.svg",
         "hir_precondition.svg", "hir_time.svg", "hir_wait.svg", "xsr_bw.svg",
         "xsr_lat.svg", "precondition.svg", "steady_state.svg", "prewrites.svg",
         "demand_variation.svg", "demand_intensity.svg", "toio.svg", "op_prewrites.svg",
         "rt_histogram.svg", "sweep_iops.svg", "sweep_latency.svg", "sweep_load.svg",
         "sweep_time.svg", "curve_response.svg", "curve_target.svg", "curve_exceedance.svg",
         "curve_histogram.svg", "compare_response.svg", "compare_exceedance.svg",
         "compare_iops.svg", "compare_latency.svg", "compare_pts.svg")
CSVS = ("rounds.csv", "points.csv", "measurement.csv", "series.csv", "wait_states.csv",
        "hir_samples.csv", "demand.csv", "operating_points.csv", "rt_histogram.csv",
        "prewrites.csv", "sweep.csv", "sweep-series.csv", "curve.csv", "compare.csv")

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


class BadInput(Exception):
    """pts.json (sweep.json) is missing or not a valid result file: exit 2."""


# --------------------------------------------------------------------------
# validation: every value the renderer reads is checked here, so that the
# rendering below never meets a wrong type (no traceback for bad input)

def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _fail(path, what):
    raise BadInput("%s: %s" % (path, what))


def num(null=True, minimum=None, maximum=None, integer=False):
    def check(v, path):
        if v is None:
            if not null:
                _fail(path, "is null (a number is needed)")
            return
        if not _is_num(v):
            _fail(path, "%s is not a number" % json.dumps(v)[:40])
        if integer and v != int(v):
            _fail(path, "%s is not an integer" % v)
        if minimum is not None and v < minimum:
            _fail(path, "%s is below %s" % (v, minimum))
        if maximum is not None and v > maximum:
            _fail(path, "%s is above %s" % (v, maximum))
    return check


def string(null=True):
    def check(v, path):
        if v is None and null:
            return
        if not isinstance(v, str):
            _fail(path, "%s is not a string" % json.dumps(v)[:40])
    return check


def boolean(v, path):
    if v is not None and not isinstance(v, bool):
        _fail(path, "%s is not true, false or null" % json.dumps(v)[:40])


def array(item, null=True, length=None):
    def check(v, path):
        if v is None and null:
            return
        if not isinstance(v, list):
            _fail(path, "is not an array")
        if length is not None and len(v) != length:
            _fail(path, "has %d entries, not %d" % (len(v), length))
        for i, x in enumerate(v):
            item(x, "%s[%d]" % (path, i))
    return check


def obj(fields, required=(), null=True):
    """An object: @fields maps key -> checker; unknown keys are allowed."""
    def check(v, path):
        if v is None and null:
            return
        if not isinstance(v, dict):
            _fail(path, "is not an object")
        for k in required:
            if k not in v:
                _fail(path, "no key \"%s\"" % k)
        for k, c in fields.items():
            if k in v:
                c(v[k], "%s.%s" % (path, k))
    return check


def anything(v, path):  # pylint: disable=unused-argument
    pass


def percentiles(v, path):
    if v is None:
        return
    if not isinstance(v, dict):
        _fail(path, "is not an object")
    for k, x in v.items():
        try:
            p = float(k)
        except ValueError:
            p = -1.0
        if not 0 <= p <= 100:
            _fail(path, "key \"%s\" is not a percentile" % k[:40])
        num()(x, "%s.\"%s\"" % (path, k))


MAX_WINDOW = 10000	# rounds in a window: more is not a pts run (and would not plot)


def window(v, path):
    array(num(null=False, minimum=1, integer=True), null=False, length=2)(v, path)
    if v[0] > v[1]:
        _fail(path, "first round %d after last round %d" % (v[0], v[1]))
    if v[1] - v[0] >= MAX_WINDOW:
        _fail(path, "a window of %d rounds (at most %d)" % (v[1] - v[0] + 1, MAX_WINDOW))


N = num()
HEALTH = obj({k: N for k in ("temperature_k", "data_units_written", "data_units_read",
                             "host_write_commands", "host_read_commands", "percentage_used",
                             "critical_warning", "media_errors", "power_on_hours",
                             "available_spare")})
DIRECTION_FIELDS = {"ios": N, "bytes": N, "iops": N, "bw_bytes": N, "lat_min_ns": N,
                    "lat_mean_ns": N, "lat_max_ns": N, "percentiles": percentiles}
DIRECTION = obj(DIRECTION_FIELDS)
POINT_FIELDS = {"bs": num(null=False, minimum=1, integer=True),
                "rwmixread": num(null=False, minimum=0, maximum=100),
                "pattern": string(), "runtime_ms": N, "iops": N, "bw_bytes": N,
                "lat_mean_ns": N, "lat_max_ns": N, "read": DIRECTION, "write": DIRECTION}
POINT = obj(POINT_FIELDS, required=("bs", "rwmixread"), null=False)
# a thread count or a queue depth: the renderer multiplies them (T x Q)
LOAD_MAX = 1 << 20
LOAD = num(null=False, minimum=1, maximum=LOAD_MAX, integer=True)
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
        _fail(path, "is not an object")
    for k, x in v.items():
        if bucket_key(k) is None:
            _fail(path, "key \"%s\" is not a latency bucket" % k[:40])
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
                      "conformant": boolean}),
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

# sweep.json: a point of the sweep, its knees
SWEEP_DIR_KEYS = ("ios", "iops", "bw_bytes", "lat_mean_ns", "lat_max_ns", "lat_p50_ns",
                  "lat_p99_ns", "lat_p99_9_ns")
SWEEP_DIRECTION = obj({**DIRECTION_FIELDS, **{k: num(minimum=0) for k in SWEEP_DIR_KEYS}})
SWEEP_SAMPLE = obj({"t_ms": num(null=False, minimum=0), "iops": N, "lat_mean_ns": N},
                   required=("t_ms",), null=False)
SWEEP_POINT = obj({
    "step": LOAD, "workers": LOAD, "qd": LOAD, "qd_per_worker": num(minimum=0),
    **{k: num(minimum=0) for k in ("runtime_ns", "gap_max_ns", "gap_mean_ns", "iops",
                                   "bw_bytes", "lat_mean_ns", "lat_p99_ns", "little")},
    "read": SWEEP_DIRECTION, "write": SWEEP_DIRECTION, "series": array(SWEEP_SAMPLE),
}, required=("step", "workers", "qd"), null=False)
KNEE = obj({"workers": num(minimum=1, integer=True), "max_iops": N,
            "max_qd": num(minimum=1, integer=True), "knee_qd": num(minimum=1, integer=True),
            "knee_iops": N}, required=("workers",), null=False)
# the keys that sweep.json and curve.json share: the run, the device, the
# settings of the workload
COMMAND_FIELDS = {
    "format": string(null=False), "format_version": anything, "ssdload_version": string(),
    "command": string(), "started": string(), "finished": string(),
    "state": string(null=False),
    "device": obj({"path": string(), "model": string(), "serial": string(),
                   "firmware": string(), "capacity_bytes": N}, null=False),
}
COMMAND_REQUIRED = ("format", "format_version", "state", "device", "settings", "points")
WORKLOAD_SETTINGS = {
    "filename": string(), "rw": string(), "bs": num(minimum=1, integer=True),
    "rwmixread": num(minimum=0, maximum=100), "numjobs": num(minimum=1, integer=True),
    **{k: num(minimum=0) for k in ("ramp_ms", "runtime_ms")},
}
SWEEP_DOC = obj({
    **COMMAND_FIELDS,
    "settings": obj({
        **WORKLOAD_SETTINGS, "qd_list": array(LOAD), "workers_list": array(LOAD),
        "max_qd_per_worker": num(minimum=1, integer=True),
        "knee_fraction": num(minimum=0, maximum=1), "log_interval_ms": num(minimum=0),
    }, null=False),
    "points": array(SWEEP_POINT, null=False),
    "knees": array(KNEE),
    "run_json": string(),
}, required=COMMAND_REQUIRED, null=False)


def percentile_list(v, path):
    """[[p, ns], ...]: p ascending in 0..100, ns a latency."""
    if v is None:
        return
    array(array(num(null=False, minimum=0), null=False, length=2))(v, path)
    for i, (p, _) in enumerate(v):
        if p > 100:
            _fail("%s[%d][0]" % (path, i), "%s is above 100" % p)
        if i and p <= v[i - 1][0]:
            _fail("%s[%d][0]" % (path, i), "%s is not above the percentile before it" % p)


# curve.json: a point of the curve (the max point and the curve points)
LAT = num(minimum=0)
COUNT = num(minimum=0, integer=True)
CURVE_DIRECTION = obj({
    "ios": COUNT, **{k: LAT for k in ("iops", "bw_bytes", "lat_mean_ns", "lat_stddev_ns",
                                      "lat_max_ns")},
    "percentiles": percentile_list, "intended_percentiles": percentile_list}, null=False)
CURVE_POINT_FIELDS = {
    "label": string(null=False), "pct": LAT, "target_iops": LAT,
    "iops": num(null=False, minimum=0), "ratio": LAT, "bw_bytes": LAT, "bytes_per_io": LAT,
    "ios": COUNT, "read_pct": num(minimum=0, maximum=100),
    **{k: LAT for k in ("lat_mean_ns", "lat_stddev_ns", "lat_max_ns", "lat_p50_ns",
                        "lat_p99_ns", "lat_p99_9_ns")},
    "intended": obj({**{k: LAT for k in ("lat_mean_ns", "lat_max_ns", "lat_p50_ns",
                                         "lat_p99_ns", "lat_p99_9_ns")},
                     "late_ios": COUNT}),
    "read": CURVE_DIRECTION, "write": CURVE_DIRECTION, "run_json": string(),
}
CURVE_POINT = obj(CURVE_POINT_FIELDS, required=("label", "iops"), null=False)
CURVE_DOC = obj({
    **COMMAND_FIELDS,
    "settings": obj({
        **WORKLOAD_SETTINGS, "curve_pct": array(num(null=False, minimum=0)),
        "max_iops_given": LAT, "rate_process": string(), "stopcurve_ns": LAT,
        "stopcurve_intended_ns": LAT, "iodepth": num(minimum=1, integer=True),
    }, null=False),
    "max_iops": LAT,
    "max": obj(CURVE_POINT_FIELDS, required=("label", "iops")),
    "points": array(CURVE_POINT, null=False),
    "skipped_pct": array(num(null=False, minimum=0)),
    "stop": obj({"pct": num(null=False, minimum=0), "reason": string(null=False)},
                required=("pct", "reason")),
}, required=COMMAND_REQUIRED, null=False)

# the result documents other than pts.json: format -> (version, checker)
COMMAND_FORMATS = {SWEEP_FORMAT: (SWEEP_FORMAT_VERSION, SWEEP_DOC),
                   CURVE_FORMAT: (CURVE_FORMAT_VERSION, CURVE_DOC)}


# a plain run's JSON (`ssdload run --output-format=json`, fio's schema): the
# keys that the comparison reads
FIO_LAT = obj({"min": LAT, "max": LAT, "mean": LAT, "stddev": LAT, "N": COUNT,
               "percentile": percentiles})
FIO_DIRECTION = obj({"io_bytes": LAT, "bw_bytes": LAT, "iops": LAT, "total_ios": COUNT,
                     "clat_ns": FIO_LAT})
FIO_JOB = obj({"jobname": string(), "job options": obj({}), "read": FIO_DIRECTION,
               "write": FIO_DIRECTION, "trim": FIO_DIRECTION}, null=False)
RUN_DOC = obj({"fio version": string(), "jobs": array(FIO_JOB, null=False)},
              required=("jobs",), null=False)

# compare.json: the kind of its runs, each run's document whole
COMPARE_KINDS = {"run": None, "sweep": (SWEEP_FORMAT, SWEEP_FORMAT_VERSION),
                 "curve": (CURVE_FORMAT, CURVE_FORMAT_VERSION),
                 "pts": (FORMAT, FORMAT_VERSION)}
COMPARE_MAX_RUNS = 16
COMPARE_FIELDS = obj({
    "format": string(null=False), "format_version": anything, "ssdload_version": string(),
    "command": string(), "created": string(), "kind": string(null=False), "test": string(),
    "runs": array(obj({"label": string(null=False), "source": string(),
                       "document": anything}, required=("label", "source", "document"),
                      null=False), null=False),
}, required=("format", "format_version", "kind", "runs"), null=False)


def compare_doc(v, path):
    """compare.json: its fields, then every run's document by its kind."""
    COMPARE_FIELDS(v, path)
    kind, runs = v["kind"], v["runs"]
    if kind not in COMPARE_KINDS:
        _fail(path + ".kind", "%s is not run, sweep, curve or pts" % json.dumps(kind)[:40])
    if kind == "pts" and not isinstance(v.get("test"), str):
        _fail(path + ".test", "%s is not a string (the pts test)" % json.dumps(v.get("test")))
    if not 2 <= len(runs) <= COMPARE_MAX_RUNS:
        _fail(path + ".runs", "has %d runs, not 2 to %d" % (len(runs), COMPARE_MAX_RUNS))
    for i, r in enumerate(runs):
        where = "%s.runs[%d]" % (path, i)
        if r["label"] in [x["label"] for x in runs[:i]]:
            _fail(where + ".label", "%s is the label of an earlier run" %
                  json.dumps(r["label"])[:40])
        where += ".document"
        if kind == "run":
            RUN_DOC(r["document"], where)
            continue
        checker_of(r["document"], where, *COMPARE_KINDS[kind])(r["document"], where)
        if kind == "pts" and r["document"]["test"] != v["test"]:
            _fail(where + ".test", "%s is not the comparison's test %s" % (
                json.dumps(r["document"]["test"])[:40], json.dumps(v["test"])[:40]))


COMMAND_FORMATS[COMPARE_FORMAT] = (COMPARE_FORMAT_VERSION, compare_doc)


def _no_constant(name):
    raise BadInput("%s is not valid JSON (a number must be finite)" % name)


def checker_of(doc, where, fmt, version):
    """The checker of @doc, a document of format @fmt and @version (@where:
    its place in the messages); raises BadInput if it is not one."""
    if not isinstance(doc, dict):
        raise BadInput("%s: not a JSON object" % where)
    if fmt == RUN_FORMAT:		# fio's schema: no "format"
        return run_doc
    if doc.get("format") != fmt:
        raise BadInput("%s: \"format\" is %s, not \"%s\" (not an ssdload %s result)" % (
            where, json.dumps(doc.get("format"))[:40], fmt, fmt[len("ssdload-"):]))
    if doc.get("format_version") != version or isinstance(doc["format_version"], bool):
        raise BadInput("%s: unknown format_version %s (this renderer reads %d)" % (
            where, json.dumps(doc.get("format_version"))[:40], version))
    if fmt in COMMAND_FORMATS:
        return COMMAND_FORMATS[fmt][1]
    if doc.get("test") != "wsat" and "rounds" not in doc:
        raise BadInput("%s: pts.json: no key \"rounds\"" % where)
    return DEMAND_DOC if doc.get("test") in DEMAND_TESTS else DOC


JSON_MAX_BYTES = 1 << 30	# as the CLI's SSL_JSON_MAX_BYTES


def read_regular(path, max_bytes):
    """The bytes of @path, a regular file of at most @max_bytes: a FIFO or a
    device is refused (opened without blocking, then checked), as is a
    larger file; OSError otherwise."""
    import errno		# pylint: disable=import-outside-toplevel
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = -1
            raw = f.read(max_bytes + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(raw) > max_bytes:
        raise OSError(errno.EFBIG, "larger than %d bytes" % max_bytes)
    return raw


def load(path, fmt=FORMAT, version=FORMAT_VERSION):
    """The validated document of @path, of format @fmt (pts.json; sweep.json
    with SWEEP_FORMAT, curve.json with CURVE_FORMAT); raises BadInput."""
    try:
        raw = read_regular(path, JSON_MAX_BYTES)
    except OSError as e:
        raise BadInput("%s: %s" % (path, e.strerror or e)) from None
    try:
        doc = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise BadInput("%s: not UTF-8 text" % path) from None
    except ValueError as e:		# json.JSONDecodeError is one
        raise BadInput("%s: not JSON: %s" % (path, e)) from None
    except RecursionError:
        raise BadInput("%s: nested too deeply" % path) from None
    checker = checker_of(doc, path, fmt, version)
    try:
        checker(doc, os.path.basename(path))
    except RecursionError:
        raise BadInput("%s: nested too deeply" % path) from None
    except BadInput as e:
        raise BadInput("%s: %s" % (path, e)) from None
    return doc


# --------------------------------------------------------------------------
# access and formatting

def get(d, *keys):
    """d[k1][k2]...; None where a level is missing or null."""
    for k in keys:
        if not isinstance(d, dict):
            return None
        d = d.get(k)
    return d


def esc(s):
    return html.escape(str(s), quote=True)


def fmt_int(v):
    return NA if v is None else "{:,}".format(int(v))


def fmt_g(v, digits=6):
    return NA if v is None else "%.*g" % (digits, v)


def fmt_value(x):
    """A display value (already in its unit): about 4 significant digits."""
    if x is None:
        return NA
    a = abs(x)
    if a >= 1000:
        return "{:,.0f}".format(x)
    if a >= 100:
        return "%.1f" % x
    if a >= 1 or a == 0:
        return "%.2f" % x
    return "%.3g" % x


def scale(metric, v):
    """@v of @metric (JSON unit) in its display unit, or None."""
    return None if v is None else v / METRICS.get(metric, (1.0,))[0]


def unit(metric):
    return METRICS.get(metric, (1.0, ""))[1]


def fmt_metric(metric, v):
    return NA if v is None else "%s %s" % (fmt_value(scale(metric, v)), unit(metric))


def fmt_bytes(v):
    """Bytes with their binary size: 268,435,456 bytes (256 MiB)."""
    if v is None:
        return NA
    v = int(v)
    for u, d in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if v >= d:
            return "{:,} bytes ({:.4g} {})".format(v, v / d, u)
    return "{:,} bytes".format(v)


def fmt_ms(ms):
    """A duration: 120 ms, 5.00 s, 5 min 36 s, 2 h 05 min 00 s."""
    if ms is None:
        return NA
    if ms < 1000:
        return "%g ms" % ms
    s = ms / 1000.0
    if s < 60:
        return "%.2f s" % s
    s = int(round(s))
    h, m = s // 3600, s // 60 % 60
    if h:
        return "%d h %02d min %02d s" % (h, m, s % 60)
    return "%d min %02d s" % (m, s % 60)


def fmt_bs(bs):
    """A block size the way the specification names it: 0.5 KiB, 4 KiB, 1024 KiB."""
    return "%g KiB" % (bs / 1024.0)


def fmt_mix(r):
    """R/W mix of @r % reads: 65/35."""
    return "%g/%g" % (r, 100 - r)


def fmt_pct(p):
    return NA if p is None else "%.4g%%" % p


def fmt_temp(k):
    return NA if k is None else "%d K (%.0f \u00b0C)" % (k, k - 273.15)


def text(v):
    return NA if v is None or v == "" else str(v)


def mpl_text(s):
    """@s shown literally by matplotlib (a "$" would start mathtext)."""
    return s.replace("$", "\\$")


def fmt_load(tc, qd):
    """A load the way the specification names it: T32Q32."""
    return NA if tc is None or qd is None else "T%dQ%d" % (tc, qd)


def ms(ns):
    """@ns in milliseconds, or None."""
    return None if ns is None else ns / 1e6


def fmt_ms_value(ns):
    """A response time in ns shown in ms: 1.20 ms."""
    return NA if ns is None else "%s ms" % fmt_value(ns / 1e6)


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


def csv_cell(v):
    """A JSON number exactly as read (shortest repr), a string as it is;
    null is an empty cell."""
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


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


class CommandResult:
    """The validated sweep.json or curve.json, as Run is pts.json: a
    workload's points, run by the ssdload command COMMAND."""

    COMMAND = "ssdload"
    QUIET_STATES = ("done",)		# the states that need no banner

    def __init__(self, doc, outdir):
        self.doc = doc
        self.dir = outdir
        self.settings = doc["settings"]
        self.points = doc["points"]
        self.plots = []		# plot files written, in order

    def all_points(self):
        """Every point measured, in the order of the tables."""
        return self.points

    def workload(self):
        """The workload in words: randread 4 KiB (R/W mix 70/30)."""
        s = self.settings
        mix = s.get("rwmixread")
        return "%s %s%s" % (text(s.get("rw")), NA if s.get("bs") is None else fmt_bs(s["bs"]),
                            "" if mix is None else " (R/W mix %s)" % fmt_mix(mix))

    @property
    def quiet(self):
        """Whether the run ended normally: no banner, no warning tag."""
        return self.doc["state"] in self.QUIET_STATES

    def footer(self):
        d = self.doc["device"]
        parts = [self.COMMAND, self.workload(),
                 "%s %s" % (text(d.get("model")), text(d.get("serial")))]
        if not self.quiet:
            parts.append(self.doc["state"].upper())
        return "  \u00b7  ".join(parts)


class Sweep(CommandResult):
    """The validated sweep.json: what the pages and the plots of a
    queue-depth sweep derive from it."""

    COMMAND = "ssdload sweep"

    def __init__(self, doc, outdir):
        super().__init__(doc, outdir)
        self.knees = doc.get("knees") or []
        self.auto = self.settings.get("workers_list") is None

    def lines(self):
        """[(workers, its points by QD)]: a line per worker count (that of
        workers_list first, in its order), or the one line (workers None)
        of all the points when the workers follow the automatic rule."""
        by_qd = sorted(self.points, key=lambda p: (p["qd"], p["step"]))
        if self.auto:
            return [(None, by_qd)] if by_qd else []
        counts = list(self.settings["workers_list"])
        counts += sorted({p["workers"] for p in by_qd} - set(counts))
        out = [(w, [p for p in by_qd if p["workers"] == w]) for w in counts]
        return [(w, pts) for w, pts in out if pts]

    def line_label(self, workers):
        if workers is None:
            return "workers: ceil(QD / %s)" % text(self.settings.get("max_qd_per_worker"))
        return "%d worker%s" % (workers, "" if workers == 1 else "s")

    def knee(self, workers):
        """The knee entry of the line of @workers, or None."""
        return next((k for k in self.knees if k["workers"] == workers), None)

    def knee_point(self, workers, pts):
        """The point of @pts (the line of @workers) at its knee, or None."""
        qd = get(self.knee(workers), "knee_qd")
        return next((p for p in pts if p["qd"] == qd), None)

    def knee_steps(self):
        """The steps of the knee points, to mark."""
        return {p["step"] for w, pts in self.lines() for p in [self.knee_point(w, pts)] if p}

    def point_label(self, p):
        """A point the way the plots name it: QD 32, or 2w QD 32."""
        return ("QD %d" if self.auto else "%dw QD %%d" % p["workers"]) % p["qd"]


DIRECTIONS = ("read", "write")


def fmt_pct_label(pct):
    """A curve point's percent as its label names it: 10%, 12.5%."""
    return "%g%%" % pct


class Curve(CommandResult):
    """The validated curve.json: what the pages and the plots of an iorate
    curve derive from it."""

    COMMAND = "ssdload curve"
    QUIET_STATES = ("done", "stopped")

    def __init__(self, doc, outdir):
        super().__init__(doc, outdir)
        self.max = doc.get("max")
        self.max_iops = doc.get("max_iops")
        self.stop = doc.get("stop")
        self.skipped = doc.get("skipped_pct") or []

    def all_points(self):
        """The max point (when measured), then the curve points, as run."""
        return ([self.max] if self.max else []) + self.points

    def directions(self):
        """The directions ("read", "write") of which a point has percentiles."""
        return [d for d in DIRECTIONS
                if any(get(p, d, "percentiles") for p in self.all_points())]

    def stop_line(self):
        """The early stop and the points not run, in words; "" if neither."""
        out = []
        if self.stop:
            out.append("stopped at %s: %s" % (fmt_pct_label(self.stop["pct"]),
                                              self.stop["reason"]))
        if self.skipped:
            out.append("not run: %s" % ", ".join(fmt_pct_label(x) for x in self.skipped))
        return "; ".join(out)


# --------------------------------------------------------------------------
# the plots

class Plotter:
    """matplotlib with deterministic SVG output."""

    def __init__(self, run):
        # pylint: disable=import-outside-toplevel
        import importlib
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib import ticker
        importlib.import_module("mpl_toolkits.mplot3d")	# the "3d" projection

        matplotlib.rcParams.update({
            "svg.hashsalt": "ssdload-report",	# fixed ids: reproducible SVG
            "svg.fonttype": "path",		# no fonts needed to view
            "font.size": 9,
            "axes.grid": True,
            "grid.alpha": 0.35,
            "axes.prop_cycle": matplotlib.cycler(color=[
                "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939"]),
        })
        self.plt, self.ticker = plt, ticker
        self.run = run
        self.dir = os.path.join(run.dir, "plots")
        os.makedirs(self.dir, exist_ok=True)
        check_outdir(self.dir)

    def figure(self, title, w=8.0, h=4.6, projection=None):
        fig = self.plt.figure(figsize=(w, h))
        ax = fig.add_subplot(1, 1, 1, projection=projection)
        fig.suptitle(title, fontsize=11, fontweight="bold")
        fig.text(0.01, 0.01, mpl_text(self.run.footer()), fontsize=7, color="#555555")
        return fig, ax

    def grid(self, title, nrows, ncols, w=8.0, h=4.6):
        """A figure of @nrows x @ncols axes (a list, row by row)."""
        fig = self.plt.figure(figsize=(w, h))
        axes = [fig.add_subplot(nrows, ncols, i + 1) for i in range(nrows * ncols)]
        fig.suptitle(title, fontsize=11, fontweight="bold")
        fig.text(0.01, 0.01, mpl_text(self.run.footer()), fontsize=7, color="#555555")
        return fig, axes

    def save(self, fig, name):
        path = os.path.join(self.dir, name)
        if any(getattr(ax, "name", "") == "3d" for ax in fig.axes):
            # tight layouts misjudge the 3D axes' labels: a fixed frame
            fig.subplots_adjust(left=0.0, right=0.94, bottom=0.05, top=0.95)
            kw = {}
        else:
            fig.tight_layout(rect=(0, 0.03, 1, 1))
            # bbox "tight": the legends beside the axes stay in the picture
            kw = {"bbox_inches": "tight", "pad_inches": 0.08}
        write_atomic(path, lambda f: fig.savefig(f, format="svg", metadata={"Date": None},
                                                 **kw), binary=True)
        self.plt.close(fig)
        self.run.plots.append(name)

    def colors(self):
        """The colours of the lines, in order."""
        return self.plt.rcParams["axes.prop_cycle"].by_key()["color"]

    @staticmethod
    def legend(ax):
        """The legend beside @ax, on its right."""
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))

    def load_axes(self, ax, values, xlabel, ylabel, zero=False):
        """The axes of a load curve, latency (@values) against IOPS: a log y
        axis when they spread (else from 0 if @zero), x from 0, the legend
        beside."""
        if self.logscale_ok(values):
            self.log_y(ax)
        elif zero:
            ax.set_ylim(bottom=0)
        ax.set_xlim(left=0)
        ax.margins(x=0.1)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        self.legend(ax)

    @staticmethod
    def label_points(ax, points, color):
        """Each point's name beside it: @points [(x, y, name)] (None: not shown)."""
        for x, y, name in points:
            if x is not None and y is not None:
                ax.annotate(name, (x, y), xytext=(4, 4), textcoords="offset points",
                            fontsize=6.5, color=color)

    @staticmethod
    def logscale_ok(values, ratio=50.0):
        v = [x for x in values if x is not None]
        return bool(v) and min(v) > 0 and max(v) / min(v) >= ratio

    def log_y(self, ax, axis="y"):
        """Log y (@axis) axis labelled 1, 2, 5 per decade in plain numbers."""
        getattr(ax, "set_%sscale" % axis)("log")
        a = getattr(ax, axis + "axis")
        a.set_major_locator(self.ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        a.set_major_formatter(self.ticker.FuncFormatter(
            lambda v, _: "{:,.0f}".format(v) if v >= 1 else "%g" % v))
        a.set_minor_formatter(self.ticker.NullFormatter())

    def log2_axis(self, ax, xs, labels, xlabel):
        """Log2 x axis with a tick at each of @xs, named by @labels."""
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(self.ticker.FixedLocator(xs))
        ax.xaxis.set_minor_locator(self.ticker.NullLocator())
        ax.set_xticklabels(labels)
        ax.set_xlabel(xlabel)

    def bs_axis(self, ax, bss):
        """Log2 x axis with a tick at each block size."""
        self.log2_axis(ax, bss, [fmt_bs(b) for b in bss], "block size")

    def direction_panels(self, title, name, dirs):
        """A figure of a panel per direction of @dirs, latency (log) on x:
        (fig, [(direction, axes)]), or None when there is none."""
        if not dirs:
            return None
        fig, axes = self.grid(title, 1, len(dirs), w=4.6 + 3.4 * len(dirs))
        for d, ax in zip(dirs, axes):
            ax.set_title("%ss (%s)" % (d, name), fontsize=9)
            self.log_y(ax, "x")
            ax.set_xlabel("latency (\u00b5s)")
        return fig, list(zip(dirs, axes))

    def nines_plot(self, made, lines, name):
        """Percentile lists on the nines axis against the latency, in the
        panels @made of direction_panels(): @lines [(direction, [[p, ns],
        ...], linestyle, colour, label)], drawn in order; a dashed line is
        from the intended time.  Saved as @name if any was drawn."""
        if not made:
            return
        fig, panels = made
        top, dashed, drawn = 1.0, False, False
        for d, ax in panels:
            for ld, pairs, style, c, label in lines:
                pts = latency_points(pairs) if ld == d else []
                if not pts:
                    continue
                ys = [nines(x) for x, _ in pts]
                top = max([top] + ys)
                ax.plot([us(ns) for _, ns in pts], ys, linestyle=style, marker=".",
                        markersize=3, linewidth=1, color=c, label=label)
                drawn, dashed = True, dashed or style == "--"
        if not drawn:
            self.plt.close(fig)
            return
        ticks = nines_ticks(top)
        for d, ax in panels:
            ax.set_yticks([y for y, _ in ticks])
            ax.set_yticklabels([t for _, t in ticks])
            ax.yaxis.set_minor_locator(self.ticker.NullLocator())
            ax.set_ylim(0, ticks[-1][0] + 0.15)
        panels[0][1].set_ylabel("percentile (%)")
        ax = panels[-1][1]
        if dashed:
            ax.plot([], [], color="#555555", linestyle="--",
                    label="dashed: from the intended time")
        self.legend(ax)
        self.save(fig, name)

    # ---- steady state

    def convergence_series(self):
        """[(label, [value per round])]: per round, the tracking mix's value of
        each block size (each mix when the test has one block size)."""
        run, metric = self.run, self.run.metric
        if run.demand:
            return self.demand_convergence_series()
        pts = {}
        for r in run.rounds:
            for p in r.get("points") or []:
                pts[(r["round"], p["rwmixread"], p["bs"])] = p.get(metric)
        keys = sorted({(m, b) for _, m, b in pts})
        bss = sorted({b for _, b in keys})
        if len(bss) > 1 and run.track_mix is not None:
            keys = [(m, b) for m, b in keys if m == run.track_mix]
            label = lambda m, b: fmt_bs(b)	# noqa: E731
        else:
            mixes, _ = run.axes(keys)
            keys = [(m, b) for m in mixes for b in bss]
            label = lambda m, b: "%s %s" % (fmt_bs(b), fmt_mix(m))  # noqa: E731
        out = []
        for m, b in keys:
            out.append((label(m, b), [scale(metric, pts.get((r["round"], m, b)))
                                      for r in run.rounds]))
        return out

    def demand_convergence_series(self):
        """ecw, dirth: per round, the IOPS of every QD at the tracking TC."""
        run, metric = self.run, self.run.metric
        tc = get(run.settings, "tracking", "tc")
        by = {}
        for r in run.rounds:
            for p in r.get("points") or []:
                if tc is None or p["tc"] == tc:
                    by.setdefault((p["tc"], p["qd"]), {})[r["round"]] = p.get(metric)
        return [(fmt_load(t, q), [scale(metric, v.get(r["round"])) for r in run.rounds])
                for (t, q), v in sorted(by.items(), key=lambda kv: (-kv[0][0], -kv[0][1]))]

    def ss_convergence(self):
        run = self.run
        xs = [r["round"] for r in run.rounds]
        track = [scale(run.metric, r.get("tracking")) for r in run.rounds]
        if not xs:
            return
        mix = "" if run.track_mix is None else ", R/W mix %s" % fmt_mix(run.track_mix)
        if run.demand:
            mix = ": TC %s, every QD%s" % (text(get(run.settings, "tracking", "tc")), mix)
        fig, ax = self.figure("Steady State Convergence Plot%s" % mix)
        series = self.convergence_series()
        allv = list(track)
        for label, ys in series:
            ax.plot(xs, [math.nan if y is None else y for y in ys], marker="o",
                    markersize=3.5, linewidth=1.2, label=label)
            allv += ys
        ax.plot(xs, [math.nan if y is None else y for y in track], color="black",
                linestyle="--", linewidth=1.6, marker="s", markersize=4, markerfacecolor="none",
                label="tracking: %s" % mpl_text(run.track_label))
        win = get(run.ss, "window")
        if win:
            ax.axvspan(win[0] - 0.4, win[1] + 0.4, color="#2ca02c", alpha=0.12,
                       label="measurement window %d\u2013%d" % tuple(win))
        if self.logscale_ok(allv):
            self.log_y(ax)
        ax.set_xlabel("round")
        ax.set_ylabel("%s (%s)" % (METRICS.get(run.metric, ("", "", run.metric))[2],
                                   unit(run.metric)))
        ax.xaxis.set_major_locator(self.ticker.MaxNLocator(integer=True))
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "ss_convergence.svg")

    def ss_window(self):
        run, ss = self.run, self.run.ss
        if not ss:
            return
        first, last = ss["window"]
        xs = list(range(first, last + 1))
        ys = ss.get("values")
        if ys is None or len(ys) != len(xs):
            by_round = {r["round"]: r.get("tracking") for r in run.rounds}
            ys = [by_round.get(x) for x in xs]
        ys = [scale(run.metric, y) for y in ys]
        avg = scale(run.metric, ss.get("average"))
        word = "segment" if run.test == "hir" else "round"
        fig, ax = self.figure("Steady State Measurement Window: %ss %d\u2013%d" % (
            word, first, last))
        ax.plot(xs, [math.nan if y is None else y for y in ys], marker="o", color="#1f77b4",
                linewidth=1.6, label=mpl_text(run.track_label))
        if avg is not None:
            ax.axhline(avg, color="black", linewidth=1.2,
                       label="average %s %s" % (fmt_value(avg), unit(run.metric)))
            ax.axhline(avg * 1.1, color="#d62728", linestyle="--", linewidth=1,
                       label="110% of average")
            ax.axhline(avg * 0.9, color="#d62728", linestyle=":", linewidth=1,
                       label="90% of average")
        slope, icpt = ss.get("slope"), ss.get("intercept")
        if slope is not None and icpt is not None:
            s, i = scale(run.metric, slope), scale(run.metric, icpt)
            ax.plot([first, last], [s * first + i, s * last + i], color="#ff7f0e",
                    linewidth=1.4, label="least-squares fit: y = %s \u00b7 %s + %s" % (
                        fmt_g(s, 5), word, fmt_g(i, 6)))
        ax.set_xlabel(word)
        ax.set_ylabel("%s (%s)" % (METRICS.get(run.metric, ("", "", run.metric))[2],
                                   unit(run.metric)))
        ax.xaxis.set_major_locator(self.ticker.FixedLocator(xs))
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "ss_window.svg")

    # ---- iops

    def iops_2d(self):
        pts = self.run.result_points()
        if not pts:
            return
        mixes, bss = self.run.axes(pts)
        fig, ax = self.figure("IOPS vs Block Size (measurement window)")
        allv = []
        for m in mixes:
            ys = [get(pts.get((m, b)), "iops") for b in bss]
            allv += ys
            ax.plot(bss, [math.nan if y is None else y for y in ys], marker="o", markersize=4,
                    label=fmt_mix(m))
        self.bs_axis(ax, bss)
        if self.logscale_ok(allv):
            self.log_y(ax)
        ax.set_ylabel("IOPS")
        ax.legend(title="R/W mix %", fontsize=7, title_fontsize=7,
                  loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "iops_2d.svg")

    def iops_3d(self):
        pts = self.run.result_points()
        if not pts:
            return
        mixes, bss = self.run.axes(pts)
        # the viewer looks from +x, -y: the large blocks (x) and the writes (y)
        # with the lowest IOPS stand in front, the tall bars behind them
        mixes = mixes[::-1]
        fig, ax = self.figure("IOPS: R/W mix \u00d7 block size (measurement window)",
                              w=8.0, h=5.6, projection="3d")
        colors = self.plt.rcParams["axes.prop_cycle"].by_key()["color"]
        xs, ys, zs, cs = [], [], [], []
        for j, m in enumerate(mixes):
            for i, b in enumerate(bss):
                v = get(pts.get((m, b)), "iops")
                if v is not None:
                    xs.append(i - 0.3)
                    ys.append(j - 0.3)
                    zs.append(v)
                    cs.append(colors[j % len(colors)])
        if xs:
            # one collection: its faces are sorted by depth together
            ax.bar3d(xs, ys, [0] * len(xs), 0.6, 0.6, zs, color=cs, shade=True,
                     edgecolor="#333333", linewidth=0.2)
        ax.set_xticks(range(len(bss)))
        ax.set_xticklabels([fmt_bs(b) for b in bss], fontsize=7)
        ax.set_yticks(range(len(mixes)))
        ax.set_yticklabels([fmt_mix(m) for m in mixes], fontsize=7)
        ax.set_xlabel("block size")
        ax.set_ylabel("R/W mix %")
        ax.set_zlabel("IOPS", labelpad=14)
        ax.zaxis.set_major_formatter(self.ticker.FuncFormatter(
            lambda v, _: "{:,.0f}".format(v)))
        ax.tick_params(axis="z", labelsize=7, pad=6)
        ax.set_box_aspect(None, zoom=0.92)
        ax.view_init(elev=25, azim=-60)
        self.save(fig, "iops_3d.svg")

    # ---- grouped bars (throughput, latency)

    def bars(self, name, title, metric, key, ylabel, dirs=None):
        """One group per block size, one bar per R/W mix, of point[@key]
        (or the direction's for mixes in @dirs: {mix: "read"|"write"})."""
        pts = self.run.result_points()
        if not pts:
            return
        mixes, bss = self.run.axes(pts)
        fig, ax = self.figure(title)
        width = min(0.8 / max(1, len(mixes)), 0.25)
        for j, m in enumerate(mixes):
            ys = []
            for b in bss:
                p = pts.get((m, b))
                d = (dirs or {}).get(m)
                ys.append(scale(metric, get(p, d, key) if d else get(p, key)))
            xs = [i + width * (j - (len(mixes) - 1) / 2.0) for i in range(len(bss))]
            label = fmt_mix(m)
            if dirs and m in dirs:
                label += " (%s)" % dirs[m]
            bar = ax.bar(xs, [0 if y is None else y for y in ys], width * 0.92, label=label)
            for rect, y in zip(bar, ys):
                ax.annotate(fmt_value(y), (rect.get_x() + rect.get_width() / 2,
                                           rect.get_height()),
                            ha="center", va="bottom", fontsize=6.5,
                            xytext=(0, 2), textcoords="offset points")
        ax.set_xticks(range(len(bss)))
        ax.set_xticklabels([fmt_bs(b) for b in bss])
        ax.set_xlim(-0.6, len(bss) - 0.4)
        ax.set_xlabel("block size")
        ax.set_ylabel(ylabel)
        ax.margins(y=0.12)
        ax.legend(title="R/W mix %", fontsize=7, title_fontsize=7,
                  loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, name)

    def throughput(self):
        self.bars("throughput_bw.svg", "Throughput (measurement window)", "bw_bytes",
                  "bw_bytes", "MB/s", dirs={100: "read", 0: "write"})

    def latency(self):
        self.bars("latency_avg.svg", "Average Latency (measurement window)", "lat_mean_ns",
                  "lat_mean_ns", "average latency (\u00b5s)")
        self.bars("latency_max.svg", "Maximum Latency (measurement window)", "lat_max_ns",
                  "lat_max_ns", "maximum latency (\u00b5s)")
        rows = percentile_rows(self.run)
        if not rows:
            return
        fig, ax = self.figure("Latency Percentiles (completion latency, measurement window)",
                              h=5.0)
        ticks = set()
        for label, pc in rows:
            ps = sorted((float(k), v) for k, v in pc.items() if v is not None and float(k) < 100)
            if not ps:
                continue
            xs = [-math.log10(1 - p / 100.0) for p, _ in ps]
            ticks.update(p for p, _ in ps)
            ax.plot(xs, [v / 1e3 for _, v in ps], marker="o", markersize=3, linewidth=1.1,
                    label=label)
        ticks = sorted(t for t in ticks if t in TABLE_PERCENTILES or t in (10.0, 95.0))
        ax.xaxis.set_major_locator(self.ticker.FixedLocator([-math.log10(1 - t / 100.0)
                                                      for t in ticks]))
        ax.xaxis.set_minor_locator(self.ticker.NullLocator())
        ax.set_xticklabels(["%g" % t for t in ticks])
        ax.set_xlabel("percentile")
        self.log_y(ax)
        ax.set_ylabel("completion latency (\u00b5s)")
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "latency_percentiles.svg")

    # ---- hir

    def precondition(self, name, title, ss, samples=False):
        """The preconditioning's segments (hir, ecw, dirth): IOPS per segment
        and the steady-state window @ss over them; with @samples, the
        series' samples of each segment too."""
        run = self.run
        segs = run.doc.get("segments") or []
        if not segs:
            return
        fig, ax = self.figure(title)
        if samples:
            # each segment's samples spread over its slot
            by = {}
            for x in run.doc.get("series") or []:
                by.setdefault(x.get("segment"), []).append(x.get("iops"))
            sx, sy = [], []
            for g in segs:
                ys = by.get(g["segment"]) or []
                for i, y in enumerate(ys):
                    sx.append(g["segment"] - 0.45 + 0.9 * (i + 0.5) / len(ys))
                    sy.append(math.nan if y is None else y)
            if sx:
                ax.plot(sx, sy, linestyle="none", marker=".", markersize=3, color="#7f7f7f",
                        label="samples (each %s)" % fmt_ms(run.settings.get("sample_ms")))
        xs = [g["segment"] for g in segs]
        ax.plot(xs, [math.nan if g.get("iops") is None else g["iops"] for g in segs],
                marker="o", color="#1f77b4", label="IOPS (segment mean)")
        if ss and ss.get("average") is not None:
            first, last = ss["window"]
            avg = ss["average"]
            ax.plot([first, last], [avg, avg], color="black", linewidth=1.2,
                    label="window average %s" % fmt_value(avg))
            for f, style in ((1.1, "--"), (0.9, ":")):
                ax.plot([first, last], [avg * f, avg * f], color="#d62728",
                        linestyle=style, linewidth=1)
        ax.set_xlabel("segment (%s samples)" % text(run.settings.get("segment_samples")))
        ax.set_ylabel("IOPS")
        ax.xaxis.set_major_locator(self.ticker.MaxNLocator(integer=True))
        ax.legend(fontsize=7)
        self.save(fig, name)

    def hir(self):
        run = self.run
        self.precondition("hir_precondition.svg",
                          "Preconditioning: RND 4KiB writes to steady state", run.ss)
        wss = run.doc.get("wait_states") or []
        if not wss:
            return
        fig, ax = self.figure("IOPS vs Time: wait states and returns to baseline")
        for w in wss:
            for part, color, label in (("access", None, "wait state %d (%s)" % (
                    w["state"], fmt_ms(w.get("wait_ms")))), ("baseline", "#7f7f7f", None)):
                smp = get(w, part, "samples") or []
                if not smp:
                    continue
                kw = {"color": color} if color else {}
                ax.plot([x["t_ms"] / 1000.0 for x in smp],
                        [math.nan if x.get("iops") is None else x["iops"] for x in smp],
                        marker="o" if part == "access" else None, markersize=2.5,
                        linewidth=0.6 if part == "access" else 1.0,
                        label=label if label else ("return to baseline" if w is wss[0]
                                                   else None), **kw)
        steady = get(run.results, "steady_iops")
        if steady is not None:
            ax.axhline(steady, color="black", linestyle="--", linewidth=1,
                       label="steady state %s" % fmt_value(steady))
        ax.set_xlabel("time from the first wait state (s)")
        ax.set_ylabel("IOPS")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "hir_time.svg")
        fig, ax = self.figure("IOPS vs Wait State")
        done = [w for w in wss if get(w, "access", "iops") is not None and
                w.get("wait_ms") is not None]
        xs = [w["wait_ms"] / 1000.0 for w in done]
        ax.plot(xs, [w["access"]["iops"] for w in done], marker="o", color="#1f77b4",
                label="access segments (mean)")
        ax.plot(xs, [math.nan if get(w, "baseline", "iops") is None else w["baseline"]["iops"]
                     for w in done], marker="s", color="#7f7f7f",
                label="return to baseline (mean)")
        if steady is not None:
            ax.axhline(steady, color="black", linestyle="--", linewidth=1,
                       label="steady state %s" % fmt_value(steady))
        ax.set_xlabel("wait state: idle time between access segments (s)")
        ax.set_ylabel("IOPS")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7)
        self.save(fig, "hir_wait.svg")

    # ---- ecw, dirth

    def demand(self):
        run = self.run
        self.precondition("precondition.svg", "Preconditioning: %s writes (0/100) at %s to "
                          "steady state" % (run.stimulus(), run.top_load()), run.pre_ss,
                          samples=True)
        self.steady_state()
        self.prewrites()
        pts = run.demand_points()
        if pts:
            self.demand_variation(pts)
            self.demand_intensity(pts)
            self.toio(pts)
        self.op_prewrites()
        self.rt_histogram()

    def ss_panel(self, ax, title, word, xs, ys, ss):
        """One steady-state check: @ys per @word (segment, round) with the
        window @ss: its average, 110% and 90% of it, the least-squares fit."""
        ax.set_title(title, fontsize=9)
        ax.plot(xs, [math.nan if y is None else y for y in ys], marker="o", color="#1f77b4",
                linewidth=1.4, label="IOPS")
        if ss:
            first, last = ss["window"]
            ax.axvspan(first - 0.4, last + 0.4, color="#2ca02c", alpha=0.12,
                       label="window %d\u2013%d" % (first, last))
            avg = ss.get("average")
            if avg is not None:
                ax.plot([first, last], [avg, avg], color="black", linewidth=1.2,
                        label="average %s" % fmt_value(avg))
                ax.plot([first, last], [avg * 1.1] * 2, color="#d62728", linestyle="--",
                        linewidth=1, label="110% of average")
                ax.plot([first, last], [avg * 0.9] * 2, color="#d62728", linestyle=":",
                        linewidth=1, label="90% of average")
            slope, icpt = ss.get("slope"), ss.get("intercept")
            if slope is not None and icpt is not None:
                ax.plot([first, last], [slope * first + icpt, slope * last + icpt],
                        color="#ff7f0e", linewidth=1.2, label="least-squares fit")
            verdict = {True: "steady", False: "not steady"}.get(ss.get("reached"), NA)
            ax.text(0.02, 0.04, verdict, transform=ax.transAxes, fontsize=8)
        else:
            ax.text(0.5, 0.5, "no window yet", transform=ax.transAxes, ha="center")
        ax.set_xlabel(word)
        ax.set_ylabel("IOPS")
        ax.xaxis.set_major_locator(self.ticker.MaxNLocator(integer=True))
        ax.legend(fontsize=6.5, loc="lower right")

    def steady_state(self):
        """The two steady-state checks of ecw and dirth side by side: the
        preconditioning's (segments) and the rounds' (the tracking load)."""
        run = self.run
        segs = run.doc.get("segments") or []
        if not segs and not run.rounds:
            return
        fig, (a1, a2) = self.grid("Steady State: preconditioning and demand variation at %s"
                                  % run.top_load(), 1, 2, w=10.0, h=4.4)
        self.ss_panel(a1, "Preconditioning (0/100 writes), segment means", "segment",
                      [g["segment"] for g in segs], [g.get("iops") for g in segs], run.pre_ss)
        self.ss_panel(a2, "Rounds: %s" % mpl_text(run.track_label), "round",
                      [r["round"] for r in run.rounds], [r.get("tracking") for r in run.rounds],
                      run.ss)
        self.save(fig, "steady_state.svg")

    def prewrites(self):
        """The between-round pre-writes: each round's mean IOPS, its samples
        spread over the round."""
        run = self.run
        rs = [r for r in run.rounds if r.get("prewrite")]
        if not rs:
            return
        fig, ax = self.figure("Between-Round Pre-Writes: %s, 0/100, at %s" % (
            run.stimulus(), run.top_load()))
        sx, sy = [], []
        for r in rs:
            pw = r["prewrite"]
            smp = pw.get("samples") or []
            span = pw.get("runtime_ms") or max([x["t_ms"] for x in smp] + [1])
            for x in smp:
                sx.append(r["round"] - 0.45 + 0.9 * min(1.0, max(0.0, x["t_ms"] / span)))
                sy.append(math.nan if x.get("iops") is None else x["iops"])
        if sx:
            ax.plot(sx, sy, linestyle="none", marker=".", markersize=4, color="#7f7f7f",
                    label="samples (each %s)" % fmt_ms(run.settings.get("sample_ms")))
        ax.plot([r["round"] for r in rs],
                [math.nan if get(r, "prewrite", "iops") is None else r["prewrite"]["iops"]
                 for r in rs], marker="o", color="#1f77b4", linewidth=1.4,
                label="pre-write IOPS (mean)")
        win = get(run.ss, "window")
        if win:
            ax.axvspan(win[0] - 0.5, win[1] + 0.5, color="#2ca02c", alpha=0.10,
                       label="measurement window %d\u2013%d" % tuple(win))
        ax.set_xlabel("round")
        ax.set_ylabel("IOPS")
        ax.set_ylim(bottom=0)
        ax.xaxis.set_major_locator(self.ticker.MaxNLocator(integer=True))
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "prewrites.svg")

    def demand_variation(self, pts):
        run = self.run
        tcs, qds = run.loads(pts)
        fig, ax = self.figure("Demand Variation: %s, R/W mix %s (measurement window)" % (
            run.stimulus(), NA if run.track_mix is None else fmt_mix(run.track_mix)))
        for t in tcs:
            ys = [get(pts.get((t, q)), "iops") for q in qds]
            ax.plot(qds, [math.nan if y is None else y for y in ys], marker="o",
                    markersize=4, label="TC %d" % t)
        self.log2_axis(ax, qds, [str(q) for q in qds], "QD (queue depth per thread)")
        ax.set_ylabel("IOPS")
        ax.set_ylim(bottom=0)
        ax.legend(title="thread count", fontsize=7, title_fontsize=7,
                  loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "demand_variation.svg")

    def demand_intensity(self, pts):
        """ART against IOPS, one line per TC (QD rising along it), the ART
        limit and the operating points."""
        run = self.run
        tcs, qds = run.loads(pts)
        fig, ax = self.figure("Demand Intensity: %s, R/W mix %s (measurement window)" % (
            run.stimulus(), NA if run.track_mix is None else fmt_mix(run.track_mix)))
        allv = []
        for t in tcs:
            ps = [pts[(t, q)] for q in qds if (t, q) in pts]
            xs = [math.nan if p.get("iops") is None else p["iops"] for p in ps]
            ys = [ms(p.get("lat_mean_ns")) for p in ps]
            allv += ys
            ax.plot(xs, [math.nan if y is None else y for y in ys], marker="o", markersize=4,
                    label="TC %d" % t)
        limit = run.settings.get("art_limit_ns")
        if limit is not None:
            ax.axhline(limit / 1e6, color="#d62728", linestyle="--", linewidth=1.2,
                       label="ART limit %s ms" % fmt_value(limit / 1e6))
            allv.append(limit / 1e6)
        for o in run.ops:
            x, y = o.get("window_iops"), ms(o.get("window_lat_mean_ns"))
            if o.get("tc") is None or x is None or y is None:
                continue
            ax.plot([x], [y], linestyle="none", marker="o", markersize=11,
                    markerfacecolor="none", markeredgecolor="black", markeredgewidth=1.4)
            ax.annotate("%s\n%s" % (mpl_text(text(o.get("label"))),
                                    fmt_load(o["tc"], o["qd"])),
                        (x, y), xytext=(8, 8), textcoords="offset points", fontsize=7,
                        fontweight="bold")
        pos = [v for v in allv if v is not None and v > 0]
        if pos:
            self.log_y(ax)
            ax.set_ylim(min(pos) / 1.6, max(pos) * 1.6)	# a 1, 2 or 5 tick either side
        ax.set_xlim(left=0)
        ax.margins(x=0.12)
        ax.set_xlabel("IOPS")
        ax.set_ylabel("average response time (ms)")
        ax.legend(title="thread count", fontsize=7, title_fontsize=7,
                  loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "demand_intensity.svg")

    def toio(self, pts):
        """IOPS (bars) and ART (line) of every point by its total outstanding IO."""
        order = sorted(pts.values(), key=lambda p: (p.get("toio") or p["tc"] * p["qd"],
                                                    -p["tc"]))
        xs = list(range(len(order)))
        fig, ax = self.figure("IOPS and Average Response Time vs Total Outstanding IO "
                              "(measurement window)")
        iops = [p.get("iops") or 0 for p in order]
        ax.bar(xs, iops, 0.7, color="#1f77b4", label="IOPS")
        ax.set_ylim(0, max(iops + [1]) * 1.3)
        ax.set_xticks(xs)
        ax.set_xticklabels(["%s\n%s" % (text(p.get("toio")), fmt_load(p["tc"], p["qd"]))
                            for p in order], fontsize=6.5,
                           rotation=90 if len(order) > 12 else 0)
        ax.set_xlabel("TOIO (TC \u00d7 QD)")
        ax.set_ylabel("IOPS")
        ax2 = ax.twinx()
        ax2.grid(False)
        ys = [ms(p.get("lat_mean_ns")) for p in order]
        ax2.plot(xs, [math.nan if y is None else y for y in ys], marker="o", markersize=4,
                 color="#d62728", label="ART (ms)")
        ax2.set_ylabel("average response time (ms)")
        ax2.set_ylim(0, max([y for y in ys if y is not None] + [1e-3]) * 1.3)
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="upper left")
        self.save(fig, "toio.svg")

    def op_prewrites(self):
        run = self.run
        ops = [o for o in run.ops if get(o, "prewrite", "samples")]
        if not ops:
            return
        fig, ax = self.figure("Operating Point Pre-Writes: %s, 0/100, at each point's load"
                              % run.stimulus())
        colors = {"MaxIOPS": "#1f77b4", "MidIOPS": "#2ca02c", "MinIOPS": "#d62728"}
        for o in ops:
            smp = o["prewrite"]["samples"]
            ax.plot([x["t_ms"] / 60000.0 for x in smp],
                    [math.nan if x.get("iops") is None else x["iops"] for x in smp],
                    marker="o", markersize=2.5, linewidth=1.0,
                    color=colors.get(o.get("label")),
                    label="%s %s (mean %s IOPS)" % (
                        mpl_text(text(o.get("label"))), fmt_load(o.get("tc"), o.get("qd")),
                        fmt_value(get(o, "prewrite", "iops"))))
        ax.set_xlabel("time (minutes)")
        ax.set_ylabel("IOPS")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "op_prewrites.svg")

    def rt_histogram(self):
        """One panel per operating point: the % of its I/Os in each of fio's
        latency buckets, over the buckets any of them reached."""
        run = self.run
        ops = run.ops
        hists = [get(o, "measure", "rt_histogram") for o in ops]
        if not any(hists):
            return
        keys = rt_buckets(hists)
        used = [i for i, (u, k) in enumerate(keys)
                if any((get(h, u, k) or 0) > 0 for h in hists)]
        lo, hi = (max(0, used[0] - 1), min(len(keys) - 1, used[-1] + 1)) if used else \
            (0, len(keys) - 1)
        keys = keys[lo:hi + 1]
        fig, axes = self.grid("Response Time Histograms of the operating points",
                              len(ops), 1, w=8.0, h=0.8 + 2.5 * len(ops))
        for ax, o, h in zip(axes, ops, hists):
            label = mpl_text(text(o.get("label")))
            if not h:
                ax.set_axis_off()
                ax.text(0.5, 0.5, "%s: %s" % (label, mpl_text(
                    o.get("skipped") or "not measured")), transform=ax.transAxes,
                    ha="center", va="center", fontsize=9)
                continue
            m = o["measure"]
            ys = [get(h, u, k) for u, k in keys]
            xs = list(range(len(keys)))
            bars = ax.bar(xs, [y or 0 for y in ys], 0.8, color="#1f77b4")
            for rect, y in zip(bars, ys):
                if y:
                    ax.annotate("%.3g%%" % y, (rect.get_x() + rect.get_width() / 2,
                                               rect.get_height()),
                                ha="center", va="bottom", fontsize=6,
                                xytext=(0, 1), textcoords="offset points")
            ax.set_title("%s %s: %s IOPS, ART %s, MRT %s" % (
                label, fmt_load(o.get("tc"), o.get("qd")), fmt_value(m.get("iops")),
                fmt_ms_value(m.get("lat_mean_ns")), fmt_ms_value(m.get("lat_max_ns"))),
                fontsize=9)
            ax.set_xticks(xs)
            ax.set_xticklabels([bucket_label(u, k) for u, k in keys], fontsize=6.5,
                               rotation=45, ha="right")
            ax.set_ylabel("% of I/Os")
            nz = [y for y in ys if y]
            if self.logscale_ok(nz):
                self.log_y(ax)
                ax.yaxis.set_major_locator(self.ticker.LogLocator(base=10, subs=(1.0,)))
                ax.set_ylim(min(nz) / 3, 300)
            else:
                ax.set_ylim(0, max(nz + [1]) * 1.18)
        axes[-1].set_xlabel("response time (fio's latency buckets, by upper bound)")
        self.save(fig, "rt_histogram.svg")

    # ---- xsr

    def xsr(self):
        series = self.run.doc.get("series") or []
        if not series:
            return
        groups = {g.get("group"): g for g in self.run.settings.get("groups") or []}
        colors = {1: "#1f77b4", 2: "#d62728", 3: "#2ca02c"}

        def by_group():
            out = {}
            for x in series:
                out.setdefault(x.get("group"), []).append(x)
            return sorted(out.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))

        fig, ax = self.figure("Throughput vs Time")
        for g, xs in by_group():
            label = "group %s: %s" % (g, text(get(groups.get(g), "label")))
            ax.plot([x["t_ms"] / 60000.0 for x in xs],
                    [math.nan if x.get("bw_bytes") is None else x["bw_bytes"] / 1e6
                     for x in xs], marker="o", markersize=2.5, linewidth=0.9,
                    color=colors.get(g), label=label)
        ref = get(self.run.results, "reference_bw_bytes")
        if ref is not None:
            ax.axhline(ref / 1e6, color="black", linestyle="--", linewidth=1,
                       label="group 1's last 30 samples %s MB/s" % fmt_value(ref / 1e6))
        ax.set_xlabel("time (minutes)")
        ax.set_ylabel("throughput (MB/s)")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "xsr_bw.svg")
        fig, ax = self.figure("Response Time vs Time")
        for g, xs in by_group():
            t = [x["t_ms"] / 60000.0 for x in xs]
            ax.plot(t, [math.nan if x.get("lat_mean_ns") is None else x["lat_mean_ns"] / 1e3
                        for x in xs], linewidth=1.0, color=colors.get(g),
                    label="group %s average" % g)
            ax.plot(t, [math.nan if x.get("lat_max_ns") is None else x["lat_max_ns"] / 1e3
                        for x in xs], linewidth=0.8, linestyle=":", color=colors.get(g),
                    label="group %s maximum" % g)
        ax.set_yscale("log")
        ax.set_xlabel("time (minutes)")
        ax.set_ylabel("response time (\u00b5s)")
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
        self.save(fig, "xsr_lat.svg")

    # ---- wsat

    def wsat(self):
        series = self.run.doc.get("series") or []
        if not series:
            return
        steady = get(self.run.results, "steady_iops")
        for name, title, xkey, div, xlabel in (
                ("wsat_time.svg", "IOPS vs Time", "t_ms", 60000.0,
                 "time (minutes)"),
                ("wsat_tgbw.svg", "IOPS vs Total GB Written", "written_bytes",
                 1e9, "total GB written (10\u2079 bytes)")):
            fig, ax = self.figure(title)
            xs = [math.nan if s.get(xkey) is None else s[xkey] / div for s in series]
            ys = [math.nan if s.get("iops") is None else s["iops"] for s in series]
            ax.plot(xs, ys, marker="o", markersize=2.5, linewidth=0.9, color="#1f77b4",
                    label="IOPS (RND 4KiB 0/100)")
            if steady is not None:
                ax.axhline(steady, color="#d62728", linestyle="--", linewidth=1,
                           label="steady IOPS %s" % fmt_value(steady))
            ax.set_xlabel(xlabel)
            ax.set_ylabel("IOPS")
            ax.legend(fontsize=7)
            self.save(fig, name)


def nan(v):
    """@v to plot: None (unknown) is a gap in the line."""
    return math.nan if v is None else v


def us(ns):
    """@ns in microseconds, or None."""
    return None if ns is None else ns / 1e3


class SweepPlotter(Plotter):
    """The plots of a queue-depth sweep (run: a Sweep)."""

    def line_colors(self):
        colors = self.colors()
        return [(w, pts, colors[i % len(colors)]) for i, (w, pts) in
                enumerate(self.run.lines())]

    def qd_axis(self, ax):
        qds = sorted({p["qd"] for p in self.run.points})
        self.log2_axis(ax, qds, [str(q) for q in qds], "QD (total outstanding I/Os)")

    @staticmethod
    def mark_knee(ax, x, y, color, first):
        """A circle around the knee at (@x, @y); the legend's entry @first."""
        if x is None or y is None:
            return
        ax.plot([x], [y], linestyle="none", marker="o", markersize=12, markerfacecolor="none",
                markeredgecolor=color, markeredgewidth=1.6,
                label="knee" if first else None)

    def iops(self):
        """IOPS by total QD, a line per worker count, its knee circled and
        the knee fraction of its most IOPS dotted."""
        sw = self.run
        frac = sw.settings.get("knee_fraction")
        fig, ax = self.figure("IOPS vs Queue Depth: %s" % mpl_text(sw.workload()))
        for i, (w, pts, c) in enumerate(self.line_colors()):
            ax.plot([p["qd"] for p in pts], [nan(p.get("iops")) for p in pts], marker="o",
                    markersize=4, color=c, label=sw.line_label(w))
            k = sw.knee(w) or {}
            self.mark_knee(ax, k.get("knee_qd"), k.get("knee_iops"), c, i == 0)
            if frac is not None and k.get("max_iops") is not None:
                ax.axhline(frac * k["max_iops"], color=c, linestyle=":", linewidth=1,
                           label="%g%% of the line's most IOPS" % (100 * frac) if i == 0
                           else None)
        self.qd_axis(ax)
        ax.set_ylabel("IOPS")
        ax.set_ylim(bottom=0)
        self.legend(ax)
        self.save(fig, "sweep_iops.svg")

    def latency(self):
        """Mean (solid) and p99 (dashed) latency by total QD."""
        sw = self.run
        fig, ax = self.figure("Latency vs Queue Depth: %s" % mpl_text(sw.workload()))
        allv = []
        for w, pts, c in self.line_colors():
            xs = [p["qd"] for p in pts]
            for key, style, marker, what in (("lat_mean_ns", "-", "o", "mean"),
                                              ("lat_p99_ns", "--", "^", "p99")):
                ys = [us(p.get(key)) for p in pts]
                allv += ys
                ax.plot(xs, [nan(y) for y in ys], linestyle=style, marker=marker,
                        markersize=4, color=c, label="%s, %s" % (sw.line_label(w), what))
        if self.logscale_ok(allv, ratio=1.0):
            self.log_y(ax)
        self.qd_axis(ax)
        ax.set_ylabel("completion latency (\u00b5s)")
        self.legend(ax)
        self.save(fig, "sweep_latency.svg")

    def load_curve(self):
        """Mean latency against IOPS, QD rising along each line."""
        sw = self.run
        fig, ax = self.figure("Load Curve: mean latency vs IOPS, %s" % mpl_text(sw.workload()))
        allv = []
        for i, (w, pts, c) in enumerate(self.line_colors()):
            ys = [us(p.get("lat_mean_ns")) for p in pts]
            allv += ys
            ax.plot([nan(p.get("iops")) for p in pts], [nan(y) for y in ys], marker="o",
                    markersize=4, color=c, label=sw.line_label(w))
            self.label_points(ax, [(p.get("iops"), y, "QD %d" % p["qd"])
                                   for p, y in zip(pts, ys)], c)
            kp = sw.knee_point(w, pts) or {}
            self.mark_knee(ax, kp.get("iops"), us(kp.get("lat_mean_ns")), c, i == 0)
        self.load_axes(ax, allv, "IOPS", "mean completion latency (\u00b5s)")
        self.save(fig, "sweep_load.svg")

    def time_series(self):
        """Every point's IOPS samples, the points end to end in the order
        run, each over its slot (ramp + runtime: its samples' t_ms count
        from its start, the ramp included), or to its last sample if later;
        a point's IOPS dashed, the boundaries marked and named."""
        sw = self.run
        if not any(p.get("series") for p in sw.points):
            return
        ramp, runtime = sw.settings.get("ramp_ms"), sw.settings.get("runtime_ms")
        spans, t0 = [], 0.0
        for p in sw.points:
            smp = p.get("series") or []
            slot = ramp + runtime if ramp is not None and runtime is not None else \
                ms(p.get("runtime_ns"))
            span = max([x["t_ms"] for x in smp] + [slot or 0.0])
            spans.append((p, smp, t0, span))
            t0 += span
        div, word = (1000.0, "s") if t0 <= 600000 else (60000.0, "min")
        fig, ax = self.figure("IOPS over Time: every point end to end, %s" % mpl_text(
            sw.workload()), w=10.0)
        trans = ax.get_xaxis_transform()	# x: data, y: axes
        small = len(spans) > 12
        labels = ["IOPS per interval (%s)" % fmt_ms(sw.settings.get("log_interval_ms")),
                  "the point's IOPS"]
        for i, (p, smp, start, span) in enumerate(spans):
            if i % 2:
                ax.axvspan(start / div, (start + span) / div, color="#000000", alpha=0.04,
                           linewidth=0)
            ax.axvline(start / div, color="#7f7f7f", linewidth=0.8)
            ax.text((start + span / 2) / div, 0.99, sw.point_label(p), transform=trans,
                    ha="center", va="top", fontsize=5.5 if small else 7,
                    rotation=90 if small else 0)
            if smp:
                ax.plot([(start + x["t_ms"]) / div for x in smp],
                        [nan(x.get("iops")) for x in smp], marker=".", markersize=2.5,
                        linewidth=0.8, color="#1f77b4", label=labels[0])
                labels[0] = None
            if p.get("iops") is not None:
                ax.plot([start / div, (start + span) / div], [p["iops"]] * 2, color="black",
                        linestyle="--", linewidth=0.9, label=labels[1])
                labels[1] = None
        top = max([x.get("iops") or 0 for _, smp, _, _ in spans for x in smp] +
                  [p.get("iops") or 0 for p in sw.points] + [1])
        ax.set_xlim(0, t0 / div or 1)
        ax.set_ylim(0, top * (1.4 if small else 1.2))	# room for the points' names
        ax.set_xlabel("time, the points end to end (%s)" % word)
        ax.set_ylabel("IOPS")
        ax.legend(fontsize=7, loc="lower right")
        self.save(fig, "sweep_time.svg")

    def all(self):
        if self.run.lines():
            self.iops()
            self.latency()
            self.load_curve()
        self.time_series()


def nines(p):
    """The percentile @p (below 100) on the "nines" axis: -log10(1 - p/100),
    so that 90 is 1, 99 is 2, 99.9 is 3..."""
    return -math.log10(1.0 - p / 100.0)


def nines_ticks(top):
    """[(y, label)] of the nines axis up to @top (its highest y): 0 and 50,
    then 90, 99, 99.9... to the first at or above @top."""
    out = [(0.0, "0"), (nines(50.0), "50")]
    for k in range(1, max(1, int(math.ceil(top))) + 1):
        out.append((float(k), "90" if k == 1 else "99" + ("." + "9" * (k - 2) if k > 2 else "")))
    return out


def latency_points(pairs):
    """(p, ns) of the percentile list @pairs that a log latency axis can
    show: below 100 (infinite nines), a latency above 0."""
    return [(p, ns) for p, ns in pairs or [] if p < 100 and ns > 0]


def log_density(pairs):
    """The latency distribution that the percentile list @pairs implies:
    [(low ns, high ns, % of the I/Os per decade)] for each interval between
    consecutive percentiles (the share between them over the log10 width of
    their latencies).  Percentiles at the same latency are one (the highest:
    the share up to it); [] when fewer than 3 percentiles are usable."""
    pts = latency_points(pairs)
    if len(pts) < 3:
        return []
    steps = []
    for p, ns in pts:
        if steps and ns <= steps[-1][1]:
            steps[-1] = (p, steps[-1][1])
        else:
            steps.append((p, ns))
    return [(lo, hi, (q - p) / math.log10(hi / lo))
            for (p, lo), (q, hi) in zip(steps, steps[1:])]


class CurvePlotter(Plotter):
    """The plots of an iorate curve (run: a Curve)."""

    MAX_COLOR = "#000000"

    def point_colors(self):
        """[(point, its colour)]: the max point black, the curve points in
        the colour cycle."""
        colors, cv = self.colors(), self.run
        return ([(cv.max, self.MAX_COLOR)] if cv.max else []) + \
            [(p, colors[i % len(colors)]) for i, p in enumerate(cv.points)]

    def response(self):
        """Mean latency (ms) against achieved IOPS: submission to completion
        and from the intended time, the max point apart, the stop bounds."""
        cv, s = self.run, self.run.settings
        colors = self.colors()
        fig, ax = self.figure("Response Time Curve: %s" % mpl_text(cv.workload()))
        xs = [p["iops"] for p in cv.points]
        resp = [ms(p.get("lat_mean_ns")) for p in cv.points]
        intended = [ms(get(p, "intended", "lat_mean_ns")) for p in cv.points]
        # the intended points named only where apart from resp's
        apart = [y if r is None or y is None or y > 1.25 * r else None
                 for r, y in zip(resp, intended)]
        for ys, names, marker, c, what in (
                (resp, resp, "o", colors[0], "resp: submission to completion"),
                (intended, apart, "s", colors[1], "intended: from the intended send time")):
            if any(y is not None for y in ys):
                ax.plot(xs, [nan(y) for y in ys], marker=marker, markersize=4, color=c,
                        label=what)
                self.label_points(ax, [(x, y, p["label"]) for x, y, p in
                                       zip(xs, names, cv.points)], c)
        allv = resp + intended
        if cv.max:
            y = ms(cv.max.get("lat_mean_ns"))
            allv.append(y)
            ax.plot([cv.max["iops"]], [nan(y)], linestyle="none", marker="*", markersize=13,
                    color=self.MAX_COLOR, label="max: the workload at its maximum")
            self.label_points(ax, [(cv.max["iops"], y, cv.max["label"])], self.MAX_COLOR)
        for key, c, what in (("stopcurve_ns", colors[0], "resp"),
                             ("stopcurve_intended_ns", colors[1], "intended")):
            if s.get(key) is not None:
                allv.append(ms(s[key]))
                ax.axhline(ms(s[key]), color=c, linestyle="--", linewidth=1,
                           label="stop bound, %s: %s" % (what, fmt_ms_value(s[key])))
        self.load_axes(ax, allv, "achieved IOPS", "mean latency (ms)", zero=True)
        self.save(fig, "curve_response.svg")

    def target(self):
        """Achieved against target IOPS, the line y = x and max_iops."""
        cv = self.run
        pts = [p for p in cv.points if p.get("target_iops") is not None]
        if not pts:
            return
        c = self.colors()[0]
        fig, ax = self.figure("Achieved vs Target IOPS: %s" % mpl_text(cv.workload()))
        top = max([p["target_iops"] for p in pts] + [p["iops"] for p in pts] +
                  [cv.max_iops or 0]) * 1.08
        ax.plot([0, top], [0, top], color="#7f7f7f", linestyle=":", linewidth=1,
                label="achieved = target")
        ax.plot([p["target_iops"] for p in pts], [p["iops"] for p in pts], marker="o",
                markersize=4, color=c, label="achieved IOPS")
        self.label_points(ax, [(p["target_iops"], p["iops"], p["label"]) for p in pts], c)
        if cv.max_iops is not None:
            ax.axhline(cv.max_iops, color=self.MAX_COLOR, linestyle="--", linewidth=0.8,
                       label="max_iops (100%%): %s" % fmt_value(cv.max_iops))
        ax.set_xlim(0, top)
        ax.set_ylim(0, top)
        ax.set_xlabel("target IOPS")
        ax.set_ylabel("achieved IOPS")
        self.legend(ax)
        self.save(fig, "curve_target.svg")

    def panels(self, title, name):
        """A figure of a panel per direction with percentiles: (fig,
        [(direction, axes)]), or None when there is none."""
        return self.direction_panels("%s: %s" % (title, mpl_text(self.run.workload())), name,
                                     self.run.directions())

    def exceedance(self):
        """Each point's percentiles on the nines axis against the latency:
        solid from submission, dashed from the intended time."""
        self.nines_plot(self.panels("Latency Percentiles", "y: percentile, nines scale"),
                        [(d, get(p, d, key), style, c, label)
                         for d in self.run.directions() for p, c in self.point_colors()
                         for key, style, label in (("percentiles", "-", p["label"]),
                                                   ("intended_percentiles", "--", None))],
                        "curve_exceedance.svg")

    def histogram(self):
        """Each point's latency density per decade, from its percentiles."""
        made = self.panels("Latency Histogram", "from the percentiles")
        if not made:
            return
        fig, panels = made
        drawn = False
        for d, ax in panels:
            allv = []
            for p, c in self.point_colors():
                steps = log_density(get(p, d, "percentiles"))
                if not steps:
                    continue
                ys = [y for _, _, y in steps]
                allv += ys
                ax.plot([us(lo) for lo, _, _ in steps] + [us(steps[-1][1])], ys + ys[-1:],
                        drawstyle="steps-post", linewidth=1.1, color=c, label=p["label"])
                drawn = True
            if self.logscale_ok(allv):
                self.log_y(ax)
        if not drawn:
            self.plt.close(fig)
            return
        panels[0][1].set_ylabel("% of the I/Os per decade of latency")
        self.legend(panels[-1][1])
        self.save(fig, "curve_histogram.svg")

    def all(self):
        if self.run.all_points():
            self.response()
            self.target()
            self.exceedance()
            self.histogram()


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

def sudo_user(uid):
    """True when @uid ran us through sudo (SUDO_UID, we are root): root's
    results then go in that user's directories, as in the CLI."""
    s = os.environ.get("SUDO_UID", "")
    return os.geteuid() == 0 and s.isdigit() and int(s) == uid


def check_outdir(d):
    """Refuse to write in @d when another user could swap what is in it for a
    link: writable by other users without the sticky bit, or owned by a user
    other than root, us and the user of sudo (the CLI's ssl_dir_check())."""
    try:
        st = os.stat(d)
    except FileNotFoundError:
        return		# nothing to write there: render() says what is missing
    if st.st_mode & stat.S_IWOTH and not st.st_mode & stat.S_ISVTX:
        raise BadInput("%s: writable by other users (mode %04o) without the sticky bit; "
                       "refusing to write results there" % (d, stat.S_IMODE(st.st_mode)))
    if st.st_uid not in (0, os.geteuid()) and not sudo_user(st.st_uid):
        raise BadInput("%s: owned by another user (uid %d, not yours: %d); refusing to "
                       "write results there" % (d, st.st_uid, os.geteuid()))


def write_atomic(path, fill, binary=False):
    """Write @path whole or not at all: @fill(f) writes a new temporary file
    beside it (O_CREAT|O_EXCL|O_NOFOLLOW under a random name: never through a
    link planted there), which then replaces @path (a link there included)."""
    kw = {} if binary else {"encoding": "utf-8", "newline": ""}
    f = tempfile.NamedTemporaryFile("wb" if binary else "w", dir=os.path.dirname(path) or ".",
                                    prefix=os.path.basename(path) + ".", suffix=".tmp",
                                    delete=False, **kw)
    try:
        with f:
            mask = os.umask(0)
            os.umask(mask)
            os.fchmod(f.fileno(), 0o666 & ~mask)	# as open() made it, not 0600
            fill(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(f.name, path)
    except BaseException:
        try:
            os.unlink(f.name)
        except OSError:
            pass
        raise


def write_csv(path, header, rows):
    def fill(f):
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for r in rows:
            w.writerow([csv_cell(v) for v in r])
    write_atomic(path, fill)


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


SWEEP_KEYS = ("step", "workers", "qd", "qd_per_worker", "runtime_ns", "gap_max_ns",
              "gap_mean_ns", "iops", "bw_bytes", "lat_mean_ns", "lat_p99_ns", "little")


def write_sweep_csvs(sw):
    """sweep.csv, and sweep-series.csv when a point has samples: the CSV
    files written, in order."""
    dirs = [(d, k) for d in ("read", "write") for k in SWEEP_DIR_KEYS]
    write_csv(os.path.join(sw.dir, "sweep.csv"),
              list(SWEEP_KEYS) + ["%s_%s" % dk for dk in dirs],
              [[p.get(k) for k in SWEEP_KEYS] + [get(p, d, k) for d, k in dirs]
               for p in sw.points])
    out = ["sweep.csv"]
    if any(p.get("series") for p in sw.points):
        write_csv(os.path.join(sw.dir, "sweep-series.csv"),
                  ["point", "t_ms", "iops", "lat_mean_ns"],
                  [[p["step"], x["t_ms"], x.get("iops"), x.get("lat_mean_ns")]
                   for p in sw.points for x in p.get("series") or []])
        out.append("sweep-series.csv")
    return out


CURVE_KEYS = (("label",), ("pct",), ("target_iops",), ("iops",), ("ratio",), ("bw_bytes",),
              ("lat_mean_ns",), ("lat_p99_ns",), ("lat_max_ns",), ("intended", "lat_mean_ns"),
              ("intended", "lat_p99_ns"), ("intended", "late_ios"))
CURVE_HEADER = [k[-1] for k in CURVE_KEYS[:9]] + [
    "intended_mean_ns", "intended_p99_ns", "late_ios"]


def write_curve_csvs(cv):
    """curve.csv: the CSV files written."""
    write_csv(os.path.join(cv.dir, "curve.csv"), CURVE_HEADER,
              [[get(p, *k) for k in CURVE_KEYS] for p in cv.all_points()])
    return ["curve.csv"]


# --------------------------------------------------------------------------
# the HTML page

CSS = """
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; font-size: 13px;
       color: #111; background: #e8e8e8; margin: 0; padding: 16px; }
.page { background: #fff; max-width: 1180px; margin: 0 auto 20px auto; padding: 14px 18px;
        border: 1px solid #999; page-break-after: always; }
.title { display: flex; justify-content: space-between; align-items: baseline;
         border-bottom: 3px solid #1f3c73; margin-bottom: 6px; }
.title h1 { font-size: 18px; margin: 2px 0; color: #1f3c73; }
.title .pageno { font-size: 12px; color: #444; }
.hdr { display: grid; grid-template-columns: repeat(4, 1fr); gap: 0 10px;
       border: 1px solid #1f3c73; background: #f2f5fb; padding: 4px 6px; font-size: 11px; }
.hdr h3 { margin: 2px 0; font-size: 11px; color: #1f3c73; text-transform: uppercase; }
.hdr table { border-collapse: collapse; width: 100%; }
.hdr td { padding: 0 4px 0 0; vertical-align: top; }
.hdr td.k { color: #444; white-space: nowrap; width: 1%; }
.hdr .wide { grid-column: 1 / -1; border-top: 1px solid #c4cde0; padding-top: 2px; }
.tag { display: inline-block; margin: 6px 6px 0 0; padding: 2px 8px; font-weight: bold;
       color: #fff; border-radius: 3px; font-size: 12px; }
.tag.bad { background: #c00; } .tag.warn { background: #c77800; } .tag.ok { background: #2a7d2a; }
.banner { margin: 10px 0; padding: 8px 12px; border: 2px solid; font-size: 14px; }
.banner h2 { margin: 0 0 4px 0; font-size: 18px; }
.banner.bad { border-color: #c00; background: #fde8e8; color: #900; }
.banner.warn { border-color: #c77800; background: #fff3dd; color: #7a4a00; }
.banner.ok { border-color: #2a7d2a; background: #e7f5e7; color: #1d5a1d; }
.banner ul { margin: 2px 0 0 0; }
h2 { font-size: 16px; color: #1f3c73; margin: 12px 0 6px 0; }
table.data { border-collapse: collapse; margin: 6px 0 10px 0; font-size: 12px; }
table.data th, table.data td { border: 1px solid #888; padding: 2px 8px; }
table.data th { background: #dde4f2; }
table.data td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.data td.na { text-align: center; color: #888; }
table.data caption { text-align: left; font-weight: bold; padding: 2px 0; }
.pass { color: #1d5a1d; font-weight: bold; } .fail { color: #c00; font-weight: bold; }
.plot { text-align: center; margin: 8px 0; }
.plot img { max-width: 100%; height: auto; border: 1px solid #ccc; }
.note { color: #444; font-size: 12px; }
code { font-size: 12px; word-break: break-all; }
@media print { body { background: #fff; padding: 0; } .page { border: none; } }
"""


class Page:
    def __init__(self, title):
        self.title = title
        self.body = []

    def add(self, *parts):
        self.body.extend(parts)


def kv_table(rows):
    return "<table>%s</table>" % "".join(
        '<tr><td class="k">%s</td><td>%s</td></tr>' % (esc(k), esc(v)) for k, v in rows)


class Cell(str):
    """A table cell already rendered as HTML (other cells are escaped text)."""


def cell(v, shown=None):
    """A numeric table cell: the raw JSON value in data-value, the shown text."""
    if v is None:
        return Cell('<td class="na">%s</td>' % NA)
    return Cell('<td class="num" data-value="%s">%s</td>' % (esc(repr(v)), esc(shown)))


def data_table(header, rows, caption=None, cls="data", tid=None):
    """@rows: lists of Cell (HTML) or plain values (escaped here)."""
    out = ['<table class="%s"%s>' % (cls, ' id="%s"' % tid if tid else "")]
    if caption:
        out.append("<caption>%s</caption>" % esc(caption))
    out.append("<thead><tr>%s</tr></thead><tbody>" % "".join(
        "<th>%s</th>" % esc(h) for h in header))
    for r in rows:
        out.append("<tr>%s</tr>" % "".join(
            c if isinstance(c, Cell) else "<td>%s</td>" % esc(c)
            for c in r))
    out.append("</tbody></table>")
    return "".join(out)


def plot_img(run, name, alt):
    if name not in run.plots:
        return ""
    return '<div class="plot"><img src="plots/%s" alt="%s"></div>' % (esc(name), esc(alt))


def header_html(columns, tags, wide=""):
    """The header block of every page: @columns [(heading, [(key, value)])]
    side by side, @wide (HTML) across them, then the @tags (HTML)."""
    cols = "".join("<div><h3>%s</h3>%s</div>" % (esc(h), kv_table(rows)) for h, rows in columns)
    if wide:
        cols += '<div class="wide">%s</div>' % wide
    return '<div class="hdr">%s</div><div>%s</div>' % (cols, "".join(tags))


def state_banner(state, what):
    """The banner of a run not done (complete): its @state, @what it means."""
    return '<div class="banner warn"><h2>%s</h2>%s.</div>' % (esc(state.upper()), esc(what))


def command_html(command):
    return "<h2>Command</h2><p><code>%s</code></p>" % esc(command or NA)


class Report:
    """report.html: a list of pages, each with the header block."""

    def __init__(self, run):
        self.run = run
        self.doc = run.doc
        self.pages = []

    # ---- the header block of every page

    def header_block(self):
        doc, s, d = self.doc, self.run.settings, self.doc["device"]
        lbaf = d.get("lba_format")
        wc = d.get("write_cache") or {}
        purge, wipc, wdpc = doc.get("purge"), doc.get("wipc"), doc.get("wdpc")
        threads, qd = s.get("threads"), s.get("iodepth")
        dev = [("Model", text(d.get("model"))), ("Serial", text(d.get("serial"))),
               ("Firmware", text(d.get("firmware"))),
               ("Capacity", fmt_bytes(d.get("capacity_bytes"))),
               ("LBA format", NA if not lbaf else "#%s: %s data + %s metadata bytes" % (
                   text(lbaf.get("index")), text(lbaf.get("data_bytes")),
                   text(lbaf.get("metadata_bytes")))),
               ("Write cache", "before: %s, during: %s (requested: %s)" % (
                   text(wc.get("before")), text(wc.get("during")), text(wc.get("requested")))),
               ("Device", "%s (%s)" % (text(d.get("path")), text(d.get("kind"))))]
        test = [("Test", "%s (%s)" % (text(doc.get("title") or self.run.test),
                                      text(doc.get("variant")))),
                ("Specification", doc["spec"] + (", clause %s" % doc["clause"]
                                                 if doc.get("clause") else "")),
                ("State", doc["state"]), ("Started", text(doc.get("started"))),
                ("Finished", text(doc.get("finished"))),
                ("ssdload", text(doc.get("ssdload_version")))]
        rng = s.get("active_range_bytes")
        sett = [("Pattern", text(s.get("pattern"))),
                ("TC (threads)", text(threads)),
                ("QD (per thread)", "%s (outstanding: %s)" % (
                    text(qd), NA if threads is None or qd is None else int(threads * qd))),
                ("Active range", "%s, %s of the capacity, offset %s" % (
                    fmt_bytes(rng), fmt_pct(s.get("active_range_pct")),
                    fmt_int(s.get("offset_bytes"))))]
        if self.run.test == "wsat":
            sett += [("Sample time", fmt_ms(s.get("sample_ms"))),
                     ("Duration limit", fmt_ms(s.get("duration_ms"))),
                     ("Write limit", fmt_bytes(s.get("max_written_bytes")))]
        elif self.run.test == "xsr":
            sett += [("Sample time", fmt_ms(s.get("sample_ms"))),
                     ("Groups", "; ".join("%s %s" % (text(get(g, "label")),
                                                     fmt_ms(get(g, "duration_ms")))
                                          for g in s.get("groups") or []))]
        elif self.run.demand:
            sett[1:3] = [("TC \u00d7 QD", "TC %s \u00d7 QD %s, high to low TOIO" % (
                ", ".join(str(x) for x in s.get("tc_list") or []) or NA,
                ", ".join(str(x) for x in s.get("qd_list") or []) or NA))]
            sett[2:2] = [("R/W mix", ", ".join(fmt_mix(m) for m in s.get("rwmixread") or [])
                          or NA),
                         ("Block size", fmt_bssplit(s["bssplit"]) if s.get("bssplit") else
                          ", ".join(fmt_bs(b) for b in s.get("block_sizes") or []) or NA),
                         ("Access", fmt_zones(s.get("random_distribution")))]
            sett += [("Point duration", "%s (spec: %s)" % (fmt_ms(s.get("point_ms")),
                                                           fmt_ms(s.get("spec_point_ms")))),
                     ("Rounds", "%d run, limit %s, window %s" % (
                         len(self.run.rounds), text(s.get("max_rounds")),
                         text(s.get("window")))),
                     ("Tracking", self.run.track_label),
                     ("ART limit", fmt_ms_value(s.get("art_limit_ns")))]
        elif self.run.test == "hir":
            sett += [("Sample time", fmt_ms(s.get("sample_ms"))),
                     ("Access segment", "%s, %s cycles per wait state" % (
                         fmt_ms(s.get("access_ms")), text(s.get("cycles")))),
                     ("Wait states", ", ".join(fmt_ms(x) for x in s.get("wait_ms") or [])),
                     ("Tracking", self.run.track_label)]
        else:
            sett += [("Point duration", "%s (spec: %s)" % (fmt_ms(s.get("point_ms")),
                                                           fmt_ms(s.get("spec_point_ms")))),
                     ("Rounds", "%d run, limit %s, window %s" % (
                         len(self.run.rounds), text(s.get("max_rounds")),
                         text(s.get("window")))),
                     ("Tracking", self.run.track_label)]
        if self.run.demand:
            pc = doc.get("precondition") or {}
            wdpc_text = "%s segments of %s samples at %s, %s written (%s)" % (
                text(pc.get("segments")), text(s.get("segment_samples")),
                self.run.top_load(), fmt_bytes(pc.get("written_bytes")),
                fmt_ms(pc.get("duration_ms"))) if pc else NA
        elif wdpc is None and self.run.rounds:
            # the tests whose rounds are their workload-dependent preconditioning
            durs = [r.get("duration_ms") for r in self.run.rounds]
            wdpc_text = "%d rounds, %s (the test's rounds)" % (
                len(durs), NA if None in durs else fmt_ms(sum(durs)))
        elif wdpc is None:
            wdpc_text = NA
        else:
            wdpc_text = "%s rounds, %s" % (text(wdpc.get("rounds")),
                                           fmt_ms(wdpc.get("duration_ms")))
        pre = [("Purge", NA if not purge else "%s%s" % (
                   text(purge.get("method")),
                   " (not conformant)" if purge.get("conformant") is False else "")),
               ("Purge detail", text(get(purge, "detail"))),
               ("Purge duration", fmt_ms(get(purge, "duration_ms"))),
               ("WIPC", "not run" if wipc is None and "wipc" in doc and doc["state"] == "complete"
                else NA if not wipc else "%s in %s SEQ writes" % (
                    fmt_bytes(wipc.get("bytes")),
                    NA if wipc.get("bs") is None else fmt_bs(wipc["bs"]))),
               ("WIPC duration", fmt_ms(get(wipc, "duration_ms"))),
               ("WDPC", wdpc_text)]
        tags = []
        if self.run.not_conformant:
            tags.append('<span class="tag bad">NOT CONFORMANT</span>')
        elif doc.get("conformant") is True:
            tags.append('<span class="tag ok">conformant</span>')
        if doc.get("scaled"):
            tags.append('<span class="tag bad">SCALED RUN</span>')
        if doc["state"] != "complete":
            tags.append('<span class="tag warn">%s</span>' % esc(doc["state"].upper()))
        return header_html((("Device under test", dev), ("Test", test), ("Settings", sett),
                            ("Preconditioning", pre)), tags)

    # ---- banners and verdict

    def banners(self):
        doc, out = self.doc, []
        state = doc["state"]
        if state != "complete":
            what = {
                "running": "the test is still running: this is a partial report",
                "interrupted": "the test was interrupted: this is a partial report "
                               "(continue it with ssdload pts --resume=DIR)",
                "failed": "the test failed: this is a partial report",
            }.get(state, "the test is not complete: this is a partial report")
            out.append(state_banner(state, "%s (pts.json updated %s)" % (
                what, text(doc.get("updated")))))
        if self.run.not_conformant:
            devs = doc.get("deviations") or []
            out.append('<div class="banner bad"><h2>NOT CONFORMANT</h2>'
                       "This run deviates from %s; its results must not be reported as "
                       "PTS results.%s</div>" % (
                           esc(doc["spec"]),
                           "<ul>%s</ul>" % "".join("<li>%s</li>" % esc(x) for x in devs)
                           if devs else " (no deviations listed)"))
        elif doc.get("conformant") is None:
            out.append('<div class="banner warn"><h2>Conformance: n/a</h2>'
                       "pts.json does not say whether the run conforms.</div>")
        if doc.get("scaled"):
            out.append('<div class="banner bad"><h2>SCALED RUN</h2>'
                       "The test's durations or sizes were scaled down for a short run: its "
                       "numbers are not comparable with a full run's.</div>")
        return "".join(out)

    def xsr_table(self):
        res = self.run.results or {}
        rows = []
        for g in res.get("groups") or []:
            bw, lm, lx = g.get("bw_bytes"), g.get("lat_mean_ns"), g.get("lat_max_ns")
            rows.append([text(g.get("group")), text(g.get("label")), fmt_ms(g.get("duration_ms")),
                         cell(bw, fmt_value(None if bw is None else bw / 1e6)),
                         cell(g.get("iops"), fmt_value(g.get("iops"))),
                         cell(lm, fmt_value(None if lm is None else lm / 1e3)),
                         cell(lx, fmt_value(None if lx is None else lx / 1e3))])
        out = [data_table(["group", "stimulus", "time", "throughput (MB/s)", "IOPS",
                           "average response time (\u00b5s)", "maximum (\u00b5s)"], rows,
                          caption="Cross stimulus recovery", tid="xsr")]
        ref, rec = res.get("reference_bw_bytes"), res.get("recovery_ms")
        if ref is not None:
            out.append('<p class="note">Recovery: %s.</p>' % esc(
                "group 3 reached the throughput of group 1's last 30 samples (%s MB/s) after %s"
                % (fmt_value(ref / 1e6), fmt_ms(rec)) if rec is not None else
                "group 3 never reached the throughput of group 1's last 30 samples (%s MB/s)"
                % fmt_value(ref / 1e6)))
        return "".join(out)

    def hir_table(self):
        wss = self.doc.get("wait_states") or []
        rs = {w.get("state"): w for w in get(self.run.results, "wait_states") or []}
        rows = []
        for w in wss:
            a, b = get(w, "access", "iops"), get(w, "baseline", "iops")
            v = get(rs.get(w["state"]), "vs_precondition")
            rows.append([str(w["state"]), fmt_ms(w.get("wait_ms")),
                         text(w.get("cycles")), cell(a, fmt_value(a)), cell(b, fmt_value(b)),
                         cell(v, NA if v is None else "%.1f%%" % (100 * v))])
        return data_table(["wait state", "wait", "cycles", "access IOPS (mean)",
                           "baseline IOPS (mean)", "access vs steady state"], rows,
                          caption="Host idle recovery", tid="hir")

    # ---- ecw, dirth

    def demand_matrix(self, key, caption, tid, div=1.0):
        """Rows TC (high to low), columns QD: point[@key] / @div."""
        pts = self.run.demand_points()
        if not pts:
            return '<p class="note">No measurement window yet: no results.</p>'
        tcs, qds = self.run.loads(pts)
        rows = []
        for t in tcs:
            row = ["TC %d" % t]
            for q in qds:
                v = get(pts.get((t, q)), key)
                row.append(cell(v, fmt_value(None if v is None else v / div)))
            rows.append(row)
        return data_table(["TC \\ QD"] + ["QD %d" % q for q in qds], rows, caption=caption,
                          tid=tid)

    def ops_table(self, tid="operating-points"):
        ops = self.run.ops
        if not ops:
            return ('<p class="note">No operating points yet: they are chosen from the '
                    "measurement window once the rounds are done.</p>")
        rows = []

        def ms_cell(ns):
            return cell(ns, fmt_value(ms(ns)))
        for o in ops:
            m = o.get("measure")
            pw = get(o, "prewrite", "iops")
            if o.get("skipped"):
                note = "skipped: %s" % o["skipped"]
            elif m is None:
                note = "not measured yet"
            else:
                note = "measured %s (%s)" % (fmt_ms(m.get("runtime_ms")),
                                             text(m.get("run_file")))
            rows.append([text(o.get("label")), fmt_load(o.get("tc"), o.get("qd")),
                         cell(get(m, "toio"), text(get(m, "toio"))),
                         cell(o.get("window_iops"), fmt_value(o.get("window_iops"))),
                         ms_cell(o.get("window_lat_mean_ns")),
                         cell(pw, fmt_value(pw)),
                         cell(get(m, "iops"), fmt_value(get(m, "iops"))),
                         ms_cell(get(m, "lat_mean_ns"))] +
                        [ms_cell(percentile(get(m, d), q)) for d in ("read", "write")
                         for q in (99.0, 99.99)] +
                        [ms_cell(get(m, "lat_max_ns")), note])
        return data_table(["operating point", "load", "TOIO", "window IOPS",
                           "window ART (ms)", "pre-write IOPS", "IOPS", "ART (ms)",
                           "read p99 (ms)", "read p99.99 (ms)", "write p99 (ms)",
                           "write p99.99 (ms)", "MRT (ms)", "note"], rows,
                          caption="Operating points (MaxIOPS: the most IOPS with an ART under "
                          "%s; MidIOPS: under it, the nearest to the middle of their IOPS; "
                          "MinIOPS: the lowest load)" % fmt_ms_value(
                              self.run.settings.get("art_limit_ns")),
                          tid=tid)

    def demand_settings(self):
        s, run = self.run.settings, self.run
        pc = self.doc.get("precondition") or {}
        rows = [
            ("Stimulus", run.stimulus()),
            ("Block sizes", fmt_bssplit(s["bssplit"]) if s.get("bssplit") else
             ", ".join(fmt_bs(b) for b in s.get("block_sizes") or []) or NA),
            ("Access", fmt_zones(s.get("random_distribution"))),
            ("R/W mix", ", ".join(fmt_mix(m) for m in s.get("rwmixread") or []) or NA),
            ("Thread counts (TC)", ", ".join(str(x) for x in s.get("tc_list") or []) or NA),
            ("Queue depths (QD)", ", ".join(str(x) for x in s.get("qd_list") or []) or NA),
            ("Point duration", fmt_ms(s.get("point_ms"))),
            ("Preconditioning", "0/100 writes at %s in segments of %s samples of %s: %s "
             "segments" % (run.top_load(), text(s.get("segment_samples")),
                           fmt_ms(s.get("sample_ms")), text(pc.get("segments")))),
            ("Between-round pre-write", "%s points of 0/100 writes at %s" % (
                text(s.get("prewrite_points")), run.top_load())),
            ("Operating point pre-write", "%s points of 0/100 writes at its load" %
             text(s.get("op_prewrite_points"))),
            ("Operating point measurement", "%s points" % text(s.get("op_measure_points"))),
            ("ART limit", fmt_ms_value(s.get("art_limit_ns"))),
        ]
        return data_table(["setting", "value"], [list(r) for r in rows],
                          caption="Test settings", tid="demand-settings")

    def prewrites_table(self):
        rows = []
        pws = [("round %d" % r["round"], r["prewrite"]) for r in self.run.rounds
               if r.get("prewrite")]
        pws += [(text(o.get("label")), o["prewrite"]) for o in self.run.ops
                if o.get("prewrite")]
        for name, pw in pws:
            bw = pw.get("bw_bytes")
            rows.append([name, fmt_load(pw.get("tc"), pw.get("qd")),
                         fmt_ms(pw.get("runtime_ms")), str(len(pw.get("samples") or [])),
                         cell(pw.get("ios"), fmt_int(pw.get("ios"))),
                         cell(pw.get("iops"), fmt_value(pw.get("iops"))),
                         cell(bw, fmt_value(None if bw is None else bw / 1e6))])
        if not rows:
            return ""
        return data_table(["before", "load", "time", "samples", "I/Os", "IOPS",
                           "throughput (MB/s)"], rows, caption="Pre-writes (0/100)",
                          tid="prewrites")

    def precondition_verdict(self):
        ss, n = self.run.pre_ss, len(self.doc.get("segments") or [])
        line = self.verdict_rounds(ss, n).replace("rounds", "segments").replace(
            "round", "segment")
        return self.verdict_block(ss, "Preconditioning: " + line, "segment",
                                  "%s 0/100 write IOPS at %s (segment means)" % (
                                      self.run.stimulus(), self.run.top_load()))

    def demand_pages(self):
        """ecw, dirth: the pages before the generic rounds' ones."""
        run, doc = self.run, self.doc
        if doc.get("segments"):
            self.page("Preconditioning", self.precondition_verdict(),
                      plot_img(run, "precondition.svg", "preconditioning IOPS"),
                      self.wsat_segments(doc["segments"]))
        if "steady_state.svg" in run.plots:
            self.page("Steady State", plot_img(run, "steady_state.svg",
                                               "steady state of the preconditioning and the "
                                               "rounds"),
                      '<p class="note">Left: the preconditioning\'s segments (0/100 writes at '
                      "%s); right: the tracking variable of the rounds. The window is "
                      "steady when its range is within %s and its least-squares slope "
                      "within %s of its average.</p>" % (
                          esc(run.top_load()), esc(fmt_pct(run.settings.get("range_limit_pct"))),
                          esc(fmt_pct(run.settings.get("slope_limit_pct")))))
        if "prewrites.svg" in run.plots:
            self.page("Between-Round Pre-Writes",
                      plot_img(run, "prewrites.svg", "between-round pre-writes"),
                      self.prewrites_table())

    def demand_results_pages(self):
        """ecw, dirth: the pages of the measurement window and the operating points."""
        run = self.run
        if run.results:
            self.page("Demand Variation",
                      plot_img(run, "demand_variation.svg", "IOPS vs QD, one line per TC"),
                      self.demand_matrix("iops", "IOPS, measurement window", "demand-iops"))
            self.page("Demand Intensity",
                      plot_img(run, "demand_intensity.svg", "average response time vs IOPS"),
                      self.demand_matrix("lat_mean_ns", "Average response time (ms), "
                                         "measurement window", "demand-art", 1e6),
                      self.demand_matrix("lat_max_ns", "Maximum response time (ms), "
                                         "measurement window", "demand-mrt", 1e6))
            self.page("IOPS and ART vs Total OIO",
                      plot_img(run, "toio.svg", "IOPS and ART vs TOIO"))
        if run.ops:
            self.page("Operating Point Pre-Writes",
                      plot_img(run, "op_prewrites.svg", "operating point pre-writes"))
            self.page("Response Time Histograms",
                      plot_img(run, "rt_histogram.svg", "response time histograms"),
                      self.ops_table())

    def wsat_segments(self, segs):
        """One row per segment (an `ssdload run` of up to 30 samples), and the
        spec's steady-state rule over the last five: informative, WSAT runs
        to its limits."""
        rows = [[text(g.get("segment")), fmt_ms(g.get("t_end_ms")),
                 fmt_bytes(g.get("written_end_bytes")),
                 cell(g.get("iops"), fmt_value(g.get("iops")))] for g in segs]
        out = [data_table(["segment", "end", "written", "IOPS (mean)"], rows,
                          caption="Segments", tid="wsat-segments")]
        ss = get(self.run.results, "steady_state")
        if ss:
            out.append('<p class="note">Segments %d\u2013%d (the last five): range %s%%, '
                       "slope excursion %s%% of their average: %s.</p>" % (
                           ss["window"][0], ss["window"][1], fmt_value(ss.get("range_pct")),
                           fmt_value(ss.get("slope_excursion_pct")),
                           "steady" if ss.get("reached") else "not steady"))
        return "".join(out)

    def verdict_line(self):
        run, ss = self.run, self.run.ss
        n = len(run.rounds)
        if run.test in ("wsat", "xsr"):
            return None
        if run.test == "hir":
            n = len(self.doc.get("segments") or [])
            line = self.verdict_rounds(ss, n)
            return line.replace("rounds", "segments").replace("round", "segment")
        return self.verdict_rounds(ss, n)

    def verdict_rounds(self, ss, n):
        run = self.run
        if not ss:
            return "Steady state: not evaluated yet (%d round%s; the window needs %s)" % (
                n, "" if n == 1 else "s", text(run.settings.get("window")))
        first, last = ss["window"]
        if ss.get("reached"):
            return "Steady state reached at round %s (measurement window: rounds %d\u2013%d)" % (
                text(ss.get("round") or last), first, last)
        if self.doc["state"] == "complete":
            return ("Steady state NOT achieved in %s rounds (limit %s); measurement window: "
                    "rounds %d\u2013%d" % (text(ss.get("rounds_run") or n),
                                          text(ss.get("max_rounds")), first, last))
        if ss.get("reached") is None:
            return "Steady state: n/a (last window: rounds %d\u2013%d)" % (first, last)
        return "Steady state not reached yet after %d rounds (last window: rounds %d\u2013%d)" % (
            n, first, last)

    def verdict_block(self, ss=None, line=None, word="round", label=None):
        """The verdict of @ss (the run's steady state, its verdict line by
        default) over the values of @label by @word, with the rule's numbers."""
        run = self.run
        if line is None:
            ss, line = run.ss, self.verdict_line()
        if line is None:
            return ""
        cls = "ok" if ss and ss.get("reached") else "warn"
        out = ['<div class="banner %s"><h2>%s</h2>' % (cls, esc(line))]
        if ss:
            m = run.metric

            def pf(flag):
                if flag is None:
                    return NA
                return '<span class="%s">%s</span>' % (("pass", "pass") if flag else
                                                       ("fail", "fail"))
            rows = [
                ("Tracking variable", esc(label or run.track_label)),
                ("Average", esc(fmt_metric(m, ss.get("average")))),
                ("Range (max \u2212 min)", "%s = %s of the average (limit %s): %s" % (
                    esc(fmt_metric(m, ss.get("range"))), esc(fmt_pct(ss.get("range_pct"))),
                    esc(fmt_pct(ss.get("range_limit_pct"))), pf(ss.get("range_pass")))),
                ("Least-squares fit", "y = %s \u00b7 %s + %s (%s)" % (
                    esc(fmt_g(scale(m, ss.get("slope")), 6)), esc(word),
                    esc(fmt_g(scale(m, ss.get("intercept")), 8)), esc(unit(m)))),
                ("Slope excursion", "%s = %s of the average (limit %s): %s" % (
                    esc(fmt_metric(m, ss.get("slope_excursion"))),
                    esc(fmt_pct(ss.get("slope_excursion_pct"))),
                    esc(fmt_pct(ss.get("slope_limit_pct"))), pf(ss.get("slope_pass")))),
            ]
            out.append("<table>%s</table>" % "".join(
                '<tr><td class="k"><b>%s</b></td><td>%s</td></tr>' % (esc(k), v)
                for k, v in rows))
        out.append("</div>")
        return "".join(out)

    # ---- tables

    def matrix_table(self, metric, key, caption, tid, dirs=None):
        """Rows R/W mix, columns block size, of point[@key] in @metric's unit."""
        pts = self.run.result_points()
        if not pts:
            return '<p class="note">No measurement window yet: no results.</p>'
        mixes, bss = self.run.axes(pts)
        rows = []
        for m in mixes:
            row = [fmt_mix(m) + (" (%s)" % dirs[m] if dirs and m in dirs else "")]
            for b in bss:
                v = get(pts.get((m, b)), key)
                row.append(cell(v, fmt_value(scale(metric, v))))
            rows.append(row)
        return data_table(["R/W mix % \\ block size"] + [fmt_bs(b) for b in bss], rows,
                          caption="%s (%s)" % (caption, unit(metric)), tid=tid)

    def rounds_table(self):
        run = self.run
        win = get(run.ss, "window") or [0, -1]
        rows = []
        for r in run.rounds:
            inw = win[0] <= r["round"] <= win[1]
            rows.append([str(r["round"]) + (" \u25c0" if inw else ""), text(r.get("started")),
                         fmt_ms(r.get("duration_ms")),
                         cell(r.get("tracking"), fmt_metric(run.metric, r.get("tracking")))])
            if run.demand:
                pw = get(r, "prewrite", "iops")
                rows[-1].append(cell(pw, fmt_value(pw)))
        return data_table(["round (\u25c0 window)", "started", "duration",
                           run.track_label] + (["pre-write IOPS (%s)" % run.top_load()]
                                               if run.demand else []),
                          rows, caption="Rounds", tid="rounds")

    def window_table(self):
        run, ss = self.run, self.run.ss
        first, last = ss["window"]
        vals = ss.get("values") or []
        rows = []
        for i, x in enumerate(range(first, last + 1)):
            v = vals[i] if i < len(vals) else None
            rows.append([str(x), cell(v, fmt_metric(run.metric, v))])
        return data_table(["segment" if run.test == "hir" else "round", run.track_label], rows,
                          caption="Measurement window values", tid="window")

    def health_table(self):
        """Per-round SMART / health, where the device has it."""
        rounds = [r for r in self.run.rounds
                  if r.get("health_before") or r.get("health_after")]
        rows = []

        def row(label, hb, ha):
            w0, w1 = get(hb, "data_units_written"), get(ha, "data_units_written")
            dw = None if w0 is None or w1 is None else w1 - w0
            return [label, fmt_temp(get(hb, "temperature_k")), fmt_temp(get(ha, "temperature_k")),
                    cell(w0, fmt_int(w0)), cell(w1, fmt_int(w1)),
                    cell(dw, NA if dw is None else "%s (%.4g GB)" % (fmt_int(dw), dw * 512e-6)),
                    text(get(ha, "percentage_used")), text(get(ha, "available_spare")),
                    text(get(ha, "media_errors")), text(get(ha, "critical_warning"))]
        for r in rounds:
            rows.append(row("round %d" % r["round"], r.get("health_before"),
                            r.get("health_after")))
        hb, ha = self.doc.get("health_before"), self.doc.get("health_after")
        if hb or ha:
            rows.append(row("whole run", hb, ha))
        if not rows:
            return ""
        return data_table(["", "temperature before", "temperature after",
                           "data units written before", "after", "written (\u0394)",
                           "% used", "spare %", "media errors", "critical warning"],
                          rows, caption="Device health (NVMe SMART; a data unit is 1000 "
                          "\u00d7 512 bytes)", tid="health")

    def percentile_table(self):
        rows = percentile_rows(self.run)
        if not rows:
            return ""
        keys = sorted({float(k) for _, pc in rows for k in pc})
        cols = [k for k in keys if k in TABLE_PERCENTILES] or keys
        body = []
        for label, pc in rows:
            by = {float(k): v for k, v in pc.items()}
            body.append([label] + [cell(by.get(k), fmt_value(scale("lat_mean_ns", by.get(k))))
                                   for k in cols])
        return data_table(["point"] + ["p%g" % k for k in cols], body,
                          caption="Completion latency percentiles (\u00b5s; the highest of "
                          "the window's rounds)", tid="percentiles")

    # ---- pages

    def page(self, title, *parts):
        p = Page(title)
        p.add(*parts)
        self.pages.append(p)
        return p

    def build(self, csvs):
        run, doc = self.run, self.doc
        # summary
        summary = [self.banners(), self.verdict_block()]
        if run.test == "iops":
            summary.append(self.matrix_table("iops", "iops", "IOPS, measurement window",
                                             "measurement"))
        elif run.test == "throughput":
            summary.append(self.matrix_table("bw_bytes", "bw_bytes",
                                             "Throughput, measurement window", "measurement",
                                             dirs={100: "read", 0: "write"}))
        elif run.test == "latency":
            summary.append(self.matrix_table("lat_mean_ns", "lat_mean_ns",
                                             "Average latency, measurement window",
                                             "measurement"))
            summary.append(self.matrix_table("lat_max_ns", "lat_max_ns",
                                             "Maximum latency, measurement window",
                                             "measurement-max"))
        elif run.test == "wsat":
            series = doc.get("series") or []
            last = series[-1] if series else {}
            stop = get(run.results, "stopped_by")
            summary.append(data_table(
                ["samples", "time", "written", "steady IOPS", "stopped by"], [[
                    str(len(series)), fmt_ms(last.get("t_ms")),
                    fmt_bytes(last.get("written_bytes")),
                    cell(get(run.results, "steady_iops"),
                         fmt_value(get(run.results, "steady_iops"))),
                    {"write_limit": "the write limit", "time_limit": "the time limit"}.get(
                        stop, text(stop))]],
                caption="Write saturation", tid="wsat"))
            segs = doc.get("segments") or []
            if segs:
                summary.append(self.wsat_segments(segs))
        elif run.test == "hir":
            summary.append(self.hir_table())
        elif run.test == "xsr":
            summary.append(self.xsr_table())
        elif run.demand:
            summary.append(self.ops_table("operating-points-summary"))
            summary.append(self.demand_settings())
        elif run.test not in MATRIX_TESTS:
            summary.append('<p class="note">This renderer has no tables for the %s test; '
                           "the rounds and the steady state are shown.</p>" % esc(run.test))
        self.page("Summary", *summary)
        if run.demand:
            self.demand_pages()

        if run.rounds:
            self.page("Steady State Convergence",
                      plot_img(run, "ss_convergence.svg", "steady state convergence plot"),
                      '<p class="note">Per round: the IOPS of every QD at TC %s (the '
                      "tracking TC), and the tracking variable (dashed).</p>" % esc(text(
                          get(run.settings, "tracking", "tc"))) if run.demand else
                      '<p class="note">Per round: the value of each block size at the '
                      "tracking R/W mix (each mix when the test has one block size), and the "
                      "tracking variable (dashed).</p>", self.rounds_table())
        if run.ss:
            self.page("Steady State Measurement Window", self.verdict_block(),
                      plot_img(run, "ss_window.svg", "steady state measurement window"),
                      self.window_table())
        if run.demand:
            self.demand_results_pages()
        if run.test == "iops" and run.results:
            self.page("Measurement Window Tabular Data",
                      self.matrix_table("iops", "iops", "IOPS, measurement window",
                                        "measurement-iops"))
            self.page("2D Plot", plot_img(run, "iops_2d.svg", "IOPS vs block size"))
            self.page("3D Plot", plot_img(run, "iops_3d.svg",
                                                "IOPS by R/W mix and block size"))
        if run.test == "throughput" and run.results:
            self.page("Measurement Window",
                      self.matrix_table("bw_bytes", "bw_bytes", "Throughput",
                                        "measurement-bw", dirs={100: "read", 0: "write"}),
                      plot_img(run, "throughput_bw.svg", "throughput per block size"))
        if run.test == "latency" and run.results:
            self.page("Average Latency",
                      self.matrix_table("lat_mean_ns", "lat_mean_ns", "Average latency",
                                        "measurement-avg"),
                      plot_img(run, "latency_avg.svg", "average latency"))
            self.page("Maximum Latency",
                      self.matrix_table("lat_max_ns", "lat_max_ns", "Maximum latency",
                                        "measurement-max2"),
                      plot_img(run, "latency_max.svg", "maximum latency"))
            pt = self.percentile_table()
            if pt:
                self.page("Percentiles", pt,
                          plot_img(run, "latency_percentiles.svg", "latency percentiles"))
        if run.test == "hir" and doc.get("segments"):
            self.page("Preconditioning",
                      plot_img(run, "hir_precondition.svg", "preconditioning IOPS"),
                      self.wsat_segments(doc["segments"]))
        if run.test == "hir" and doc.get("wait_states"):
            self.page("IOPS vs Time", plot_img(run, "hir_time.svg", "IOPS vs time"))
            self.page("IOPS vs Wait State", plot_img(run, "hir_wait.svg", "IOPS vs wait state"))
        if run.test == "xsr" and doc.get("series"):
            self.page("Throughput vs Time", plot_img(run, "xsr_bw.svg", "throughput vs time"))
            self.page("Response Time vs Time",
                      plot_img(run, "xsr_lat.svg", "response time vs time"))
        if run.test == "wsat" and doc.get("series"):
            self.page("IOPS vs Time",
                      plot_img(run, "wsat_time.svg", "IOPS vs time"))
            self.page("IOPS vs Total GB Written",
                      plot_img(run, "wsat_tgbw.svg", "IOPS vs total GB written"))
        ht = self.health_table()
        if ht:
            self.page("Device Health", ht)
        self.run_page(" ".join(doc.get("command") or []), ["pts.json"] + csvs,
                      "Rendered by ssdload-report.py from pts.json alone (updated %s)." %
                      text(doc.get("updated")))

    def run_page(self, command, files, note, *parts):
        """The last page: the command, the data files (links), @note, @parts."""
        self.page("Run", command_html(command),
                  "<h2>Data</h2><ul>%s</ul>" % "".join(
                      '<li><a href="%s">%s</a></li>' % (esc(f), esc(f)) for f in files),
                  *parts, '<p class="note">%s</p>' % esc(note))

    def titles(self):
        """(the document's title, every page's heading, the name beside the
        page numbers)."""
        doc = self.doc
        name = doc.get("title") or self.run.test
        return ("%s: %s test, %s %s" % (doc["spec"], name, text(get(doc, "device", "model")),
                                        text(get(doc, "device", "serial"))),
                name, doc["spec"])

    def html(self):
        title, heading, source = self.titles()
        hdr = self.header_block()
        out = ['<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
               "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n" % (esc(title), CSS)]
        n = len(self.pages)
        for i, p in enumerate(self.pages, 1):
            out.append('<section class="page">\n<div class="title"><h1>%s: %s</h1>'
                       '<span class="pageno">%s &middot; page %d of %d</span></div>\n%s\n' % (
                           esc(heading), esc(p.title), esc(source), i, n, hdr))
            out.extend(x + "\n" for x in p.body if x)
            out.append("</section>\n")
        out.append("</body>\n</html>\n")
        return "".join(out)


class CommandReport(Report):
    """report.html of a sweep or a curve (run: a CommandResult): the header
    block, the banner of a run not done."""

    TITLE, KIND, NOUN = "Queue-depth sweep", "Sweep", "the sweep"
    SPLIT = 6		# the settings rows in the third column; the rest: the fourth
    STATES = {"running": "%s is still running: this report shows the points it measured "
                         "so far",
              "interrupted": "%s was interrupted: this report shows the points it measured",
              "failed": "%s failed: this report shows the points it measured"}

    def titles(self):
        d = self.doc["device"]
        return ("%s: %s, %s %s" % (self.TITLE, self.run.workload(), text(d.get("model")),
                                   text(d.get("serial"))),
                self.TITLE, self.run.COMMAND)

    def settings_rows(self):
        """[(key, value)] of the settings: the third column of the header
        block, then from SPLIT on, the fourth."""
        return []

    def header_block(self):
        doc, d = self.doc, self.doc["device"]
        dev = [("Model", text(d.get("model"))), ("Serial", text(d.get("serial"))),
               ("Firmware", text(d.get("firmware"))),
               ("Capacity", fmt_bytes(d.get("capacity_bytes"))), ("Device", text(d.get("path")))]
        run = [("State", doc["state"]), ("Started", text(doc.get("started"))),
               ("Finished", text(doc.get("finished"))),
               ("Points", str(len(self.run.all_points()))),
               ("ssdload", text(doc.get("ssdload_version")))]
        sett = self.settings_rows()
        tags = [] if self.run.quiet else \
            ['<span class="tag warn">%s</span>' % esc(doc["state"].upper())]
        return header_html((("Device under test", dev), (self.KIND, run),
                            ("Settings", sett[:self.SPLIT]), ("Each point", sett[self.SPLIT:])),
                           tags, wide="command: <code>%s</code>" % esc(text(doc.get("command"))))

    def banners(self):
        state = self.doc["state"]
        if self.run.quiet:
            return ""
        return state_banner(state, self.STATES.get(
            state, "%s is not done: this report shows the points it measured") % self.NOUN)


class SweepReport(CommandReport):
    """report.html of a queue-depth sweep (run: a Sweep)."""

    def settings_rows(self):
        s = self.run.settings
        wl = s.get("workers_list")
        return [("Target", text(s.get("filename"))), ("Workload", self.run.workload()),
                ("Queue depths (total)", ", ".join(str(q) for q in s.get("qd_list") or [])
                 or NA),
                ("Workers", "automatic: ceil(QD / %s)" % text(s.get("max_qd_per_worker"))
                 if wl is None else ", ".join(str(w) for w in wl)),
                ("Most QD per worker", text(s.get("max_qd_per_worker"))),
                ("Job's workers (numjobs)", text(s.get("numjobs"))),
                ("Ramp per point", fmt_ms(s.get("ramp_ms"))),
                ("Time per point", fmt_ms(s.get("runtime_ms"))),
                ("Log interval", fmt_ms(s.get("log_interval_ms"))),
                ("Knee", NA if s.get("knee_fraction") is None else
                 "the smallest QD reaching %g%% of the line's most IOPS" %
                 (100 * s["knee_fraction"]))]

    def knees_table(self):
        sw, rows = self.run, []
        for w, pts in sw.lines():
            k = sw.knee(w) or {}
            kp = sw.knee_point(w, pts)
            rows.append([sw.line_label(w), cell(k.get("max_iops"), fmt_value(k.get("max_iops"))),
                         cell(k.get("max_qd"), text(k.get("max_qd"))),
                         cell(k.get("knee_qd"), text(k.get("knee_qd"))),
                         cell(k.get("knee_iops"), fmt_value(k.get("knee_iops"))),
                         us_cell(get(kp, "lat_mean_ns")), us_cell(get(kp, "lat_p99_ns"))])
        if not rows:
            return '<p class="note">No point measured yet.</p>'
        return data_table(["workers", "most IOPS", "at QD", "knee QD", "knee IOPS",
                           "mean latency at the knee (\u00b5s)", "p99 at the knee (\u00b5s)"],
                          rows, caption="Knees (%s)" % self.settings_rows()[-1][1], tid="knees")

    def points_table(self):
        """A row per point, as run; the knees marked."""
        sw, rows = self.run, []
        knees = sw.knee_steps()
        for p in sw.points:
            bw, lit = p.get("bw_bytes"), p.get("little")
            rows.append([str(p["step"]) + (" \u25c0 knee" if p["step"] in knees else ""),
                         cell(p["workers"], str(p["workers"])), cell(p["qd"], str(p["qd"])),
                         cell(p.get("qd_per_worker"), fmt_g(p.get("qd_per_worker"))),
                         cell(p.get("iops"), fmt_value(p.get("iops"))),
                         cell(bw, fmt_value(None if bw is None else bw / 1e6)),
                         us_cell(p.get("lat_mean_ns")), us_cell(p.get("lat_p99_ns")),
                         cell(lit, NA if lit is None else "%.3f" % lit),
                         cell(p.get("runtime_ns"), fmt_ms(ms(p.get("runtime_ns")))),
                         us_cell(p.get("gap_max_ns")), us_cell(p.get("gap_mean_ns"))])
        return data_table(["step (\u25c0 knee)", "workers", "QD (total)", "QD/worker", "IOPS",
                           "MB/s", "mean latency (\u00b5s)", "p99 (\u00b5s)", "Little's ratio",
                           "measured", "gap before: max (\u00b5s)", "mean (\u00b5s)"], rows,
                          caption="Points, as run (Little's ratio: IOPS \u00d7 mean latency / "
                          "QD, the share of the depth kept in flight; the gap: from the "
                          "previous point's last completion to this point's first "
                          "submission)", tid="points")

    def directions_table(self):
        """Each point's reads and writes, where it has them."""
        rows = []
        for p in self.run.points:
            for d in ("read", "write"):
                x = p.get(d)
                if x is None:
                    continue
                bw = x.get("bw_bytes")
                rows.append([str(p["step"]), str(p["qd"]), d,
                             cell(x.get("ios"), fmt_int(x.get("ios"))),
                             cell(x.get("iops"), fmt_value(x.get("iops"))),
                             cell(bw, fmt_value(None if bw is None else bw / 1e6))] +
                            [us_cell(x.get(k)) for k in ("lat_mean_ns", "lat_p50_ns",
                                                         "lat_p99_ns", "lat_p99_9_ns",
                                                         "lat_max_ns")])
        if not rows:
            return ""
        return data_table(["step", "QD", "direction", "I/Os", "IOPS", "MB/s", "mean (\u00b5s)",
                           "p50 (\u00b5s)", "p99 (\u00b5s)", "p99.9 (\u00b5s)", "max (\u00b5s)"],
                          rows, caption="Reads and writes: completion latency", tid="directions")

    def build(self, csvs):
        sw, doc = self.run, self.doc
        self.page("Summary", self.banners(), self.knees_table(),
                  plot_img(sw, "sweep_iops.svg", "IOPS vs queue depth"))
        self.page("Points", self.points_table(), self.directions_table())
        if sw.lines():
            self.page("Latency vs Queue Depth",
                      plot_img(sw, "sweep_latency.svg", "latency vs queue depth"),
                      '<p class="note">Solid: mean; dashed: p99 (of each point, all its '
                      "I/Os).</p>")
            self.page("Load Curve", plot_img(sw, "sweep_load.svg", "mean latency vs IOPS"))
        self.page("IOPS over Time", plot_img(sw, "sweep_time.svg", "IOPS over time") or
                  '<p class="note">No point has interval samples: no time series.</p>',
                  '<p class="note">The points end to end in the order run, each over its '
                  "ramp and its runtime; the dashed line is the point's IOPS.</p>"
                  if "sweep_time.svg" in sw.plots else "")
        self.run_page(doc.get("command"), ["sweep.json"] + csvs,
                      "Rendered by ssdload-report.py from sweep.json alone (finished %s)." %
                      text(doc.get("finished")),
                      '<p class="note">The runs\' own results: <code>%s</code></p>' %
                      esc(text(doc.get("run_json"))))


def pair_percentile(pairs, p):
    """The latency (ns) at the percentile @p of the list [[p, ns], ...]."""
    return next((ns for q, ns in pairs or [] if q == p), None)


class CurveReport(CommandReport):
    """report.html of an iorate curve (run: a Curve)."""

    TITLE, KIND, NOUN = "Iorate curve", "Curve", "the curve"
    DIR_PERCENTILES = (50.0, 99.0, 99.9, 99.99)

    def settings_rows(self):
        cv, s = self.run, self.run.settings
        given = s.get("max_iops_given")
        bounds = ["mean %s over %s" % (what, fmt_ms_value(s[k])) for k, what in (
            ("stopcurve_ns", "latency"), ("stopcurve_intended_ns", "intended latency"))
                  if s.get(k) is not None]
        return [("Target", text(s.get("filename"))), ("Workload", cv.workload()),
                ("Curve points", ", ".join(fmt_pct_label(x) for x in s.get("curve_pct") or [])
                 or NA),
                ("Max IOPS (100%)", "%s (given)" % fmt_value(given) if given is not None else
                 "%s (measured: the max point)" % fmt_value(cv.max_iops)),
                ("Rate process", text(s.get("rate_process"))),
                ("Stop the curve at", "; ".join(bounds) or "no bound"),
                ("Ramp per point", fmt_ms(s.get("ramp_ms"))),
                ("Time per point", fmt_ms(s.get("runtime_ms"))),
                ("QD per worker (iodepth)", text(s.get("iodepth"))),
                ("Workers (numjobs)", text(s.get("numjobs")))]

    def stop_note(self):
        """The line of an early stop and of the points not run, or ""."""
        line = self.run.stop_line()
        return '<p class="note" id="stop">The curve %s.</p>' % esc(line) if line else ""

    def points_table(self):
        """A row per point, the max point first."""
        rows = []
        for p in self.run.all_points():
            bw, ratio = p.get("bw_bytes"), p.get("ratio")
            rows.append([p["label"], cell(p.get("target_iops"), fmt_value(p.get("target_iops"))),
                         cell(p["iops"], fmt_value(p["iops"])),
                         cell(ratio, fmt_pct(None if ratio is None else 100 * ratio)),
                         cell(bw, fmt_value(None if bw is None else bw / 1e6))] +
                        [us_cell(get(p, *k)) for k in (
                            ("lat_mean_ns",), ("lat_p99_ns",), ("lat_max_ns",),
                            ("intended", "lat_mean_ns"), ("intended", "lat_p99_ns"))] +
                        [cell(get(p, "intended", "late_ios"),
                              fmt_int(get(p, "intended", "late_ios")))])
        if not rows:
            return '<p class="note">No point measured yet.</p>'
        return data_table(["point", "target IOPS", "IOPS", "% of target", "MB/s",
                           "resp mean (\u00b5s)", "resp p99 (\u00b5s)", "resp max (\u00b5s)",
                           "intended mean (\u00b5s)", "intended p99 (\u00b5s)", "late I/Os"],
                          rows, caption="Points, as run (resp: from submission to completion; "
                          "intended: from each I/O's intended send time, at the point's rate)",
                          tid="curve")

    def directions_table(self):
        """Each point's reads and writes, where it has them."""
        rows, pcs = [], self.DIR_PERCENTILES
        for p in self.run.all_points():
            for d in DIRECTIONS:
                x = p.get(d)
                if x is None:
                    continue
                bw = x.get("bw_bytes")
                rows.append([p["label"], d, cell(x.get("ios"), fmt_int(x.get("ios"))),
                             cell(x.get("iops"), fmt_value(x.get("iops"))),
                             cell(bw, fmt_value(None if bw is None else bw / 1e6)),
                             us_cell(x.get("lat_mean_ns"))] +
                            [us_cell(pair_percentile(x.get("percentiles"), q)) for q in pcs] +
                            [us_cell(x.get("lat_max_ns"))] +
                            [us_cell(pair_percentile(x.get("intended_percentiles"), q))
                             for q in pcs[1::2]])
        if not rows:
            return ""
        return data_table(["point", "direction", "I/Os", "IOPS", "MB/s", "mean (\u00b5s)"] +
                          ["p%g (\u00b5s)" % q for q in pcs] + ["max (\u00b5s)"] +
                          ["intended p%g (\u00b5s)" % q for q in pcs[1::2]], rows,
                          caption="Reads and writes: latency from submission to completion, "
                          "and from the intended time", tid="directions")

    def build(self, csvs):
        cv, doc = self.run, self.doc
        self.page("Summary", self.banners(), self.stop_note(), self.points_table(),
                  plot_img(cv, "curve_response.svg", "response time curve"),
                  '<p class="note">Solid: from submission to completion; the max point '
                  "(\u2605) ran the workload at its maximum, the curve points open-loop at "
                  "their share of max_iops.</p>" if "curve_response.svg" in cv.plots else "")
        if "curve_target.svg" in cv.plots:
            self.page("Achieved vs Target",
                      plot_img(cv, "curve_target.svg", "achieved vs target IOPS"),
                      '<p class="note">A point below the dotted line did not keep its '
                      "target rate.</p>")
        self.page("Latency Percentiles",
                  plot_img(cv, "curve_exceedance.svg", "latency percentiles") or
                  '<p class="note">No point has latency percentiles: no percentile plot.</p>',
                  self.directions_table())
        if "curve_histogram.svg" in cv.plots:
            self.page("Latency Histogram",
                      plot_img(cv, "curve_histogram.svg", "latency histogram"),
                      '<p class="note">Derived from each point\'s percentile list (not a '
                      "measured histogram): between two consecutive percentiles, their share "
                      "of the I/Os over the log10 width of their latencies; from submission "
                      "to completion.</p>")
        runs = [p["run_json"] for p in cv.all_points() if p.get("run_json")]
        self.run_page(doc.get("command"), ["curve.json"] + csvs,
                      "Rendered by ssdload-report.py from curve.json alone (finished %s)." %
                      text(doc.get("finished")),
                      '<p class="note">The runs\' own results: <code>%s</code></p>' %
                      esc(", ".join(runs) or NA))


def us_cell(ns):
    """A table cell of the latency @ns in microseconds."""
    return cell(ns, fmt_value(us(ns)))


# --------------------------------------------------------------------------
# compare.json: runs of one kind side by side

class FioRun:
    """A plain run's JSON (fio's schema), each direction summed over its job
    entries (numjobs without group_reporting has one per worker)."""

    DIRS = ("read", "write", "trim")
    OPTIONS = ("filename", "rw", "bs", "iodepth", "numjobs")

    def __init__(self, doc):
        self.doc = doc
        self.jobs = doc["jobs"]
        self.opts = self.jobs[0].get("job options") or {} if self.jobs else {}

    def direction(self, d):
        """{ios, iops, bw_bytes, lat_mean_ns, lat_max_ns, percentiles [[p,
        ns], ...]} of direction @d (completion latency: the mean weighted by
        the I/Os, a percentile the highest of the entries that have it), or
        None without I/O."""
        xs = [j[d] for j in self.jobs if isinstance(j.get(d), dict)]
        ios = sum(x.get("total_ios") or 0 for x in xs)
        if not ios:
            return None
        lat = [(x.get("total_ios") or 0, get(x, "clat_ns")) for x in xs]
        means = [(n, get(c, "mean")) for n, c in lat if get(c, "mean") is not None]
        pcs = {}
        for _, c in lat:
            for k, v in (get(c, "percentile") or {}).items():
                if v is not None:
                    pcs[float(k)] = max(pcs.get(float(k), 0), v)
        maxes = [get(c, "max") for _, c in lat if get(c, "max") is not None]
        n = sum(m for m, _ in means)
        return {"ios": ios, "iops": sum(x.get("iops") or 0 for x in xs),
                "bw_bytes": sum(x.get("bw_bytes") or 0 for x in xs),
                "lat_mean_ns": sum(m * v for m, v in means) / n if n else None,
                "lat_max_ns": max(maxes) if maxes else None,
                "percentiles": [[p, pcs[p]] for p in sorted(pcs)]}

    def directions(self):
        """[(direction, its sums)] of the directions with I/O."""
        return [(d, x) for d in self.DIRS for x in [self.direction(d)] if x]

    def workload(self):
        o = self.opts
        return "%s %s QD %s x %s" % (text(o.get("rw")), text(o.get("bs")),
                                     text(o.get("iodepth")), text(o.get("numjobs") or 1))

    @property
    def state(self):
        return get(self.jobs[0] if self.jobs else None, "ssdload", "state") or "done"

    @property
    def quiet(self):
        return self.state == "done"


RUN_PERCENTILES = (50.0, 99.0, 99.9, 99.99)
LINE_STYLES = ("-", "--", ":", "-.")
PTS_PLOT_MIXES = (100, 65, 0)	# the R/W mixes of the pts plots, where the test has them


def kind_noun(kind, test, n=2):
    """curves, sweeps, plain runs, pts iops tests (@n == 1: singular)."""
    s = "" if n == 1 else "s"
    return {"run": "plain run" + s, "sweep": "sweep" + s, "curve": "curve" + s}.get(
        kind, "pts %s test%s" % (test, s))


class Compare(CommandResult):
    """The validated compare.json: its runs, each as the renderer sees its
    kind (Sweep, Curve, Run of pts.json, FioRun)."""

    COMMAND = "ssdload compare"

    def __init__(self, doc, outdir):	# pylint: disable=super-init-not-called
        self.doc, self.dir = doc, outdir
        self.kind, self.test = doc["kind"], doc.get("test")
        self.settings, self.points, self.plots = {}, [], []
        make = {"sweep": lambda d: Sweep(d, outdir), "curve": lambda d: Curve(d, outdir),
                "pts": lambda d: Run(d, outdir), "run": FioRun}[self.kind]
        self.runs = [(r["label"], make(r["document"])) for r in doc["runs"]]
        self.sources = [r.get("source") for r in doc["runs"]]

    def labels(self):
        return [label for label, _ in self.runs]

    def noun(self):
        return kind_noun(self.kind, self.test, len(self.runs))

    def workload(self):
        return "%d %s" % (len(self.runs), self.noun())

    @property
    def quiet(self):
        return True

    def footer(self):
        return "  \u00b7  ".join([self.COMMAND, self.workload(), ", ".join(self.labels())])

    def run_state(self, res):
        """(state, whether it ended normally) of a run."""
        if self.kind == "pts":
            return res.doc["state"], res.doc["state"] == "complete"
        return (res.state, res.quiet) if self.kind == "run" else (res.doc["state"], res.quiet)

    def curve_point(self, cv):
        """The point of a curve that the exceedance plot shows: the max
        point, else the last."""
        return cv.max or (cv.points[-1] if cv.points else None)

    def headline(self):
        """[(row, kind, [value per run])]: each run's headline figures, a
        column per run; kind: num, us (ns shown in microseconds), mb (bytes
        per second shown in MB/s) or text."""
        rows = {}

        def put(name, kind, k, v):
            rows.setdefault(name, (kind, [None] * len(self.runs)))[1][k] = v

        for k, (_, res) in enumerate(self.runs):
            getattr(self, "headline_" + self.kind)(res, lambda *a, k=k: put(a[0], a[1], k,
                                                                              a[2]))
        return [(name, kind, vals) for name, (kind, vals) in rows.items()]

    @staticmethod
    def headline_run(res, put):
        for o in FioRun.OPTIONS:
            if res.opts.get(o) is not None:
                put(o, "text", res.opts[o])
        for d, x in res.directions():
            put("%s IOPS" % d, "num", x["iops"])
            put("%s MB/s" % d, "mb", x["bw_bytes"])
            put("%s clat mean (\u00b5s)" % d, "us", x["lat_mean_ns"])
            for p in RUN_PERCENTILES:
                put("%s clat p%g (\u00b5s)" % (d, p), "us", pair_percentile(x["percentiles"], p))

    @staticmethod
    def headline_curve(cv, put):
        put("state", "text", cv.doc["state"])
        put("100% (max_iops)", "num", cv.max_iops)
        for p in cv.all_points():
            put("%s IOPS" % p["label"], "num", p["iops"])
            put("%s resp mean (\u00b5s)" % p["label"], "us", p.get("lat_mean_ns"))
            if p.get("intended"):
                put("%s intended mean (\u00b5s)" % p["label"], "us",
                    get(p, "intended", "lat_mean_ns"))

    @staticmethod
    def headline_sweep(sw, put):
        put("state", "text", sw.doc["state"])
        for kn in sw.knees:
            w = "" if kn.get("workers") is None else "%dw " % kn["workers"]
            put(w + "max IOPS", "num", kn.get("max_iops"))
            put(w + "knee QD", "num", kn.get("knee_qd"))
        for p in sw.points:
            name = "QD %d" % p["qd"] if sw.auto else "%dw QD %d" % (p["workers"], p["qd"])
            put(name + " IOPS", "num", p.get("iops"))
            put(name + " mean (\u00b5s)", "us", p.get("lat_mean_ns"))
            put(name + " p99 (\u00b5s)", "us", p.get("lat_p99_ns"))

    @staticmethod
    def headline_pts(run, put):
        doc = run.doc
        ss = run.ss or get(run.results, "steady_state")
        put("state", "text", doc["state"])
        put("conformant", "text", "yes" if doc.get("conformant") else "no")
        put("steady state", "text", None if not ss else
            "reached" if ss.get("reached") else "not reached")
        if run.test == "wsat":
            put("steady IOPS", "num", get(run.results, "steady_iops"))
        elif run.ss and run.ss.get("average") is not None and run.test not in MATRIX_TESTS:
            put("steady state average (%s)" % run.track_label, "num", run.ss["average"])
        for o in run.ops:
            put("%s IOPS" % o.get("label"), "num", get(o, "measure", "iops"))
            put("%s mean (\u00b5s)" % o.get("label"), "us", get(o, "measure", "lat_mean_ns"))
        if run.test in MATRIX_TESTS:
            metric, kind, what = {"iops": ("iops", "num", "IOPS"),
                                  "throughput": ("bw_bytes", "mb", "MB/s"),
                                  "latency": ("lat_mean_ns", "us", "mean (\u00b5s)")}[run.test]
            pts = run.result_points()
            mixes, bss = run.axes(pts)
            for m in mixes:
                for b in bss:
                    if (m, b) in pts:
                        put("%s %s %s" % (fmt_bs(b), fmt_mix(m), what), kind,
                            pts[(m, b)].get(metric))


class ComparePlotter(Plotter):
    """The plots of a comparison (run: a Compare): the runs overlaid, a
    colour each."""

    def run_colors(self):
        colors = self.colors()
        return [(label, res, colors[i % len(colors)])
                for i, (label, res) in enumerate(self.run.runs)]

    def curve_response(self):
        """Every curve's mean latency against its achieved IOPS: from
        submission solid, from the intended time dashed, the max point a star."""
        cmp = self.run
        if not any(cv.all_points() for _, cv in cmp.runs):
            return
        fig, ax = self.figure("Response Time Curves: mean latency vs IOPS")
        allv, dashed, star = [], False, False
        for label, cv, c in self.run_colors():
            xs = [p["iops"] for p in cv.points]
            resp = [ms(p.get("lat_mean_ns")) for p in cv.points]
            intended = [ms(get(p, "intended", "lat_mean_ns")) for p in cv.points]
            ax.plot(xs, [nan(y) for y in resp], marker="o", markersize=4, color=c, label=label)
            if any(y is not None for y in intended):
                ax.plot(xs, [nan(y) for y in intended], linestyle="--", marker="s",
                        markersize=3.5, color=c)
                dashed = True
            allv += resp + intended
            if cv.max:
                y = ms(cv.max.get("lat_mean_ns"))
                allv.append(y)
                ax.plot([cv.max["iops"]], [nan(y)], linestyle="none", marker="*",
                        markersize=12, color=c)
                star = True
        if dashed:
            ax.plot([], [], color="#555555", linestyle="--",
                    label="dashed: from the intended time")
        if star:
            ax.plot([], [], color="#555555", linestyle="none", marker="*", markersize=9,
                    label="the max point")
        self.load_axes(ax, allv, "achieved IOPS", "mean latency (ms)", zero=True)
        self.save(fig, "compare_response.svg")

    def nines_runs(self, title, name, series):
        """The exceedance plot of the runs: @series [(label, colour,
        {direction: (percentiles, intended percentiles)})]."""
        dirs = [d for d in DIRECTIONS + ("trim",) if any(get(x, d) for _, _, x in series)]
        self.nines_plot(self.direction_panels(title, name, dirs),
                        [(d, pairs, style, c, label if style == "-" else None)
                         for d in dirs for label, c, x in series
                         for pairs, style in zip(get(x, d) or (None, None), ("-", "--"))],
                        "compare_exceedance.svg")

    def curve_exceedance(self):
        series = []
        for label, cv, c in self.run_colors():
            p = self.run.curve_point(cv)
            if p:
                series.append(("%s (%s)" % (label, p["label"]), c, {
                    d: (get(p, d, "percentiles"), get(p, d, "intended_percentiles"))
                    for d in DIRECTIONS if p.get(d)}))
        self.nines_runs("Latency Percentiles: each curve's max point (else its last)",
                        "y: percentile, nines scale", series)

    def sweep_lines(self):
        """[(label, colour, linestyle, points)]: a line per run and worker count."""
        out = []
        for label, sw, c in self.run_colors():
            lines = sw.lines()
            for j, (w, pts) in enumerate(lines):
                out.append((label if len(lines) == 1 else "%s, %s" % (label, sw.line_label(w)),
                            c, LINE_STYLES[j % len(LINE_STYLES)], pts))
        return out

    def sweep_qd(self, key, title, ylabel, name, div=1.0):
        """@key of every sweep line against its total QD."""
        lines = self.sweep_lines()
        if not lines:
            return
        fig, ax = self.figure(title)
        allv = []
        for label, c, style, pts in lines:
            ys = [None if p.get(key) is None else p[key] / div for p in pts]
            allv += ys
            ax.plot([p["qd"] for p in pts], [nan(y) for y in ys], linestyle=style, marker="o",
                    markersize=4, color=c, label=label)
        qds = sorted({p["qd"] for _, _, _, pts in lines for p in pts})
        self.log2_axis(ax, qds, [str(q) for q in qds], "QD (total outstanding I/Os)")
        self.finish(fig, ax, allv if div != 1.0 else None, ylabel, name)

    def finish(self, fig, ax, logv, ylabel, name):
        """y from 0, or log when @logv (the values, None: linear) spread;
        the label, the legend; saved as @name."""
        if logv is not None and self.logscale_ok(logv, ratio=1.0):
            self.log_y(ax)
        else:
            ax.set_ylim(bottom=0)
        ax.set_ylabel(ylabel)
        self.legend(ax)
        self.save(fig, name)

    def grouped_bars(self, title, groups, values, ylabel, name, log=False):
        """A bar per run in each of @groups: @values[run][group] (None: no bar)."""
        n = len(self.run.runs)
        width = 0.8 / n
        fig, ax = self.figure(title)
        allv = []
        for k, (label, _, c) in enumerate(self.run_colors()):
            allv += values[k]
            ax.bar([g + (k - (n - 1) / 2.0) * width for g in range(len(groups))],
                   [nan(v) for v in values[k]], width=width * 0.92, color=c, label=label)
        ax.set_xticks(list(range(len(groups))))
        ax.set_xticklabels(groups, fontsize=7.5)
        ax.grid(axis="x", visible=False)
        self.finish(fig, ax, allv if log else None, ylabel, name)

    def run_plots(self):
        """Plain runs: IOPS and latency bars per direction, the exceedance."""
        sums = [dict(res.directions()) for _, res in self.run.runs]
        dirs = [d for d in FioRun.DIRS if any(d in s for s in sums)]
        if not dirs:
            return
        self.grouped_bars("IOPS per direction", dirs,
                          [[get(s, d, "iops") for d in dirs] for s in sums], "IOPS",
                          "compare_iops.svg")
        stats = [("mean", lambda x: x["lat_mean_ns"])] + [
            ("p%g" % p, lambda x, p=p: pair_percentile(x["percentiles"], p))
            for p in RUN_PERCENTILES]
        groups = [(d, what, f) for d in dirs for what, f in stats
                  if any(s.get(d) and f(s[d]) is not None for s in sums)]
        if groups:
            self.grouped_bars("Completion latency: mean and percentiles",
                              ["%s\n%s" % (d, what) for d, what, _ in groups],
                              [[us(f(s[d])) if s.get(d) else None for d, _, f in groups]
                               for s in sums], "completion latency (\u00b5s)",
                              "compare_latency.svg", log=True)
        self.nines_runs("Latency Percentiles (completion)", "y: percentile, nines scale",
                        [(label, c, {d: (x["percentiles"], None) for d, x in s.items()})
                         for (label, _, c), s in zip(self.run_colors(), sums)])

    def pts_plot(self):
        """pts: the test's main plot overlaid (iops, throughput, latency:
        the metric by block size at the mixes of PTS_PLOT_MIXES; wsat: IOPS
        by the bytes written); none for the other tests."""
        cmp = self.run
        if cmp.test == "wsat":
            runs = [(label, run.doc.get("series") or [], c) for label, run, c in self.run_colors()]
            if not any(x for _, x, _ in runs):
                return
            fig, ax = self.figure("IOPS vs Total GB Written")
            for label, series, c in runs:
                ax.plot([nan(None if x.get("written_bytes") is None else x["written_bytes"] / 1e9)
                         for x in series], [nan(x.get("iops")) for x in series], marker=".",
                        markersize=3, linewidth=1, color=c, label=label)
            ax.set_xlabel("total GB written (10^9 bytes)")
            ax.set_ylabel("IOPS")
            ax.set_ylim(bottom=0)
            self.legend(ax)
            self.save(fig, "compare_pts.svg")
            return
        if cmp.test not in MATRIX_TESTS:
            return
        metric = TEST_METRIC[cmp.test]
        div, ylabel = {"iops": (1.0, "IOPS"), "bw_bytes": (1e6, "MB/s"),
                       "lat_mean_ns": (1e3, "mean latency (\u00b5s)")}[metric]
        lines, bss = [], set()
        for label, run, c in self.run_colors():
            pts = run.result_points()
            mixes, sizes = run.axes(pts)
            bss.update(sizes)
            shown = [m for m in mixes if m in PTS_PLOT_MIXES] or mixes[:len(PTS_PLOT_MIXES)]
            for j, m in enumerate(shown):
                xs = [b for b in sizes if (m, b) in pts]
                lines.append(("%s, %s" % (label, fmt_mix(m)), c, LINE_STYLES[j % 4], xs,
                              [get(pts[(m, b)], metric) for b in xs]))
        if not lines:
            return
        fig, ax = self.figure("%s by block size" % ylabel)
        for label, c, style, xs, ys in lines:
            ax.plot(xs, [nan(None if y is None else y / div) for y in ys], linestyle=style,
                    marker="o", markersize=4, color=c, label=label)
        self.bs_axis(ax, sorted(bss))
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
        self.legend(ax)
        self.save(fig, "compare_pts.svg")

    def all(self):
        kind = self.run.kind
        if kind == "curve":
            self.curve_response()
            self.curve_exceedance()
        elif kind == "sweep":
            self.sweep_qd("iops", "IOPS vs Queue Depth", "IOPS", "compare_iops.svg")
            self.sweep_qd("lat_p99_ns", "p99 Latency vs Queue Depth",
                          "p99 completion latency (\u00b5s)", "compare_latency.svg", div=1e3)
        elif kind == "run":
            self.run_plots()
        else:
            self.pts_plot()


COMPARE_CSV = {
    "curve": ["run", "point", "pct", "target_iops", "iops", "bw_bytes", "lat_mean_ns",
              "lat_p99_ns", "lat_p99_9_ns", "lat_max_ns", "intended_mean_ns",
              "intended_p99_ns"],
    "sweep": ["run", "step", "workers", "qd", "iops", "bw_bytes", "lat_mean_ns", "lat_p99_ns",
              "little"],
    "run": ["run", "direction", "ios", "iops", "bw_bytes", "lat_mean_ns", "lat_max_ns"] +
           ["lat_p%s_ns" % ("%g" % p).replace(".", "_") for p in RUN_PERCENTILES],
    "pts": ["run", "rwmixread", "bs", "tc", "qd", "iops", "bw_bytes", "lat_mean_ns",
            "lat_max_ns"],
    "wsat": ["run", "t_ms", "iops", "bw_bytes", "lat_mean_ns", "written_bytes"],
}


def compare_rows(cmp):
    """(header, rows) of compare.csv: a row per run and point (plain runs:
    per direction; pts: per point of the measurement window, wsat: per
    sample)."""
    rows = []
    kind = "wsat" if cmp.test == "wsat" else cmp.kind
    header = COMPARE_CSV[kind]
    for label, res in cmp.runs:
        if kind == "curve":
            rows += [[label, p["label"]] + [get(p, k) for k in header[2:-2]] +
                     [get(p, "intended", "lat_mean_ns"), get(p, "intended", "lat_p99_ns")]
                     for p in res.all_points()]
        elif kind == "run":
            rows += [[label, d, x["ios"], x["iops"], x["bw_bytes"], x["lat_mean_ns"],
                      x["lat_max_ns"]] + [pair_percentile(x["percentiles"], p)
                                          for p in RUN_PERCENTILES]
                     for d, x in res.directions()]
        elif kind == "wsat":
            rows += [[label] + [x.get(k) for k in header[1:]] for x in res.doc.get("series") or []]
        else:
            pts = res.points if kind == "sweep" else get(res.results, "points") or []
            rows += [[label] + [p.get(k) for k in header[1:]] for p in pts]
    return header, rows


def write_compare_csvs(cmp):
    """compare.csv: the CSV files written."""
    write_csv(os.path.join(cmp.dir, "compare.csv"), *compare_rows(cmp))
    return ["compare.csv"]


class CompareReport(CommandReport):
    """report.html of a comparison (run: a Compare)."""

    TITLE, KIND, NOUN = "Comparison", "Comparison", "the comparison"

    def titles(self):
        cmp = self.run
        return ("%s of %s: %s" % (self.TITLE, cmp.workload(), " vs ".join(cmp.labels())),
                self.TITLE, cmp.COMMAND)

    def header_block(self):
        cmp, doc = self.run, self.doc
        head = [("Kind", cmp.noun()), ("Runs", str(len(cmp.runs))),
                ("Created", text(doc.get("created"))),
                ("ssdload", text(doc.get("ssdload_version")))]
        runs = [(label, self.device(res)) for label, res in cmp.runs]
        half = (len(runs) + 1) // 2 if len(runs) > 8 else len(runs)
        cols = [(self.KIND, head), ("Runs", runs[:half])]
        if runs[half:]:
            cols.append(("Runs (continued)", runs[half:]))
        return header_html(cols, [], wide="command: <code>%s</code>" % esc(text(
            doc.get("command"))))

    def device(self, res):
        """A run's device in words: model serial, or a plain run's filename."""
        if self.run.kind == "run":
            return text(res.opts.get("filename"))
        d = res.doc["device"]
        return "%s %s" % (text(d.get("model")), text(d.get("serial")))

    def banners(self):
        cmp = self.run
        odd = ["%s (%s)" % (label, cmp.run_state(res)[0]) for label, res in cmp.runs
               if not cmp.run_state(res)[1]]
        if not odd:
            return ""
        return state_banner("partial runs", "Not every run ended normally: %s; their "
                            "figures are what they measured" % ", ".join(odd))

    def runs_table(self):
        cmp, rows = self.run, []
        for (label, res), src in zip(cmp.runs, cmp.sources):
            if cmp.kind == "run":
                dev, started = {}, res.doc.get("time")
                workload = res.workload()
            else:
                dev, started = res.doc["device"], res.doc.get("started")
                workload = res.stimulus() if cmp.kind == "pts" and res.demand else \
                    ("%s test" % res.test if cmp.kind == "pts" else res.workload())
            rows.append([label, text(dev.get("model")), text(dev.get("serial")),
                         text(dev.get("firmware")), workload, cmp.run_state(res)[0],
                         text(started), text(src)])
        return data_table(["run", "model", "serial", "firmware", "workload", "state",
                           "started", "source"], rows, caption="Runs", tid="runs")

    def headline_table(self):
        shown = {"num": lambda v: cell(v, fmt_value(v)), "us": us_cell,
                 "mb": lambda v: cell(v, fmt_value(None if v is None else v / 1e6)),
                 "text": lambda v: text(v)}
        rows = [[name] + [shown[kind](v) for v in vals]
                for name, kind, vals in self.run.headline()]
        if not rows:
            return '<p class="note">No run has measured anything yet.</p>'
        return data_table([""] + self.run.labels(), rows, caption="Side by side (a column "
                          "per run; n/a: the run has no such figure)", tid="compare")

    def build(self, csvs):
        cmp, doc = self.run, self.doc
        main = {"curve": ("compare_response.svg", "response time curves",
                          "Solid: mean latency from submission to completion; dashed: from "
                          "the intended send time; a star: the max point of the curve."),
                "sweep": ("compare_iops.svg", "IOPS vs queue depth",
                          "A line per run and worker count (one line: the automatic rule)."),
                "run": ("compare_iops.svg", "IOPS per direction", ""),
                "pts": ("compare_pts.svg", "the test's results overlaid",
                        "" if cmp.test == "wsat" else
                        "The R/W mixes %s, where the test has them (the table lists every "
                        "point)." % ", ".join(fmt_mix(m) for m in PTS_PLOT_MIXES))}[cmp.kind]
        img = plot_img(cmp, main[0], main[1])
        if img:
            note = '<p class="note">%s</p>' % esc(main[2]) if main[2] else ""
        elif cmp.kind == "pts" and cmp.test not in MATRIX_TESTS + ("wsat",):
            note = ('<p class="note">The %s test has no overlaid plot here: the comparison '
                    "is the table.</p>" % esc(cmp.test))
        else:
            note = '<p class="note">No run has points to plot.</p>'
        self.page("Summary", self.banners(), self.runs_table(), img, note)
        self.page("Side by Side", self.headline_table())
        if "compare_latency.svg" in cmp.plots:
            self.page("Latency", plot_img(cmp, "compare_latency.svg", "latency"),
                      '<p class="note">%s</p>' % (
                          "The p99 completion latency of every point, a line per run and "
                          "worker count." if cmp.kind == "sweep" else
                          "Completion latency of the reads and writes (the highest of the "
                          "job entries for a percentile)."))
        if "compare_exceedance.svg" in cmp.plots:
            self.page("Latency Percentiles",
                      plot_img(cmp, "compare_exceedance.svg", "latency percentiles"),
                      '<p class="note">%s</p>' % (
                          "Each curve's max point, or its last point without one: solid "
                          "from submission, dashed from the intended time." if
                          cmp.kind == "curve" else "Each run's completion latency "
                          "percentiles on a nines scale."))
        self.run_page(doc.get("command"), ["compare.json"] + csvs,
                      "Rendered by ssdload-report.py from compare.json alone (created %s)." %
                      text(doc.get("created")))


# --------------------------------------------------------------------------
# run.json: a plain run's latency study (`ssdload run --output-format=json+
# --latency-table --latency-below=T --latency-check=C --output=DIR/run.json`,
# fio's schema: no "format" key)

RUN_FORMAT, RUN_FORMAT_VERSION = "fio", None
# the latencies of a direction: (key, name, line style); lat_ns is left out
# where it is clat_ns's (ssdload: no submission latency)
RUN_LATENCIES = (("clat_ns", "clat", "-"), ("lat_ns", "lat", "-."),
                 ("lat_from_intended_ns", "intended", "--"))
RUN_RESULTS = ("pass", "fail", "too_few_ios", "no_io", "no_latencies")
HIST_PER_DECADE = 20		# the histogram's bins: [10^(k/20), 10^((k+1)/20)) ns
PLOTS += ("run_exceedance.svg", "run_histogram.svg")
CSVS += ("run.csv", "latency.csv", "latency-below.csv", "latency-check.csv", "run-bins.csv")


def one_of(values, null=True):
    def check(v, path):
        if v is None and null:
            return
        if v not in values:
            _fail(path, "%s is not one of %s" % (json.dumps(v)[:40], ", ".join(values)))
    return check


def latency_bins(v, path):
    """json+'s bins: {"latency in ns": I/Os, ...}."""
    obj({})(v, path)
    for k, x in (v or {}).items():
        if not (k.isascii() and k.isdigit() and len(k) <= 20):
            _fail(path, "key \"%s\" is not a latency in ns" % k[:40])
        COUNT(x, "%s.\"%s\"" % (path, k))


RUN_LAT_BINS = obj({"bins": latency_bins})


def run_lat(v, path):
    """A latency of fio's schema, with json+'s bins."""
    FIO_LAT(v, path)
    RUN_LAT_BINS(v, path)


RUN_JOB = obj({d: obj({k: run_lat for k, _, _ in RUN_LATENCIES}) for d in FioRun.DIRS})
RUN_STUDY_ROW = obj({"percentile": num(null=False, minimum=0, maximum=100),
                     **{k: LAT for k in ("value_ns", "lo_ns", "hi_ns")},
                     "ios_beyond": COUNT, "needs_ios": COUNT, "backed": boolean},
                    required=("percentile",), null=False)
RUN_BELOW = obj({"bound_ns": num(null=False, minimum=0), "ios_below": COUNT,
                 "ios_in_bound_bucket": COUNT,
                 **{k: num(minimum=0, maximum=100) for k in ("percent", "percent_max")}},
                required=("bound_ns",), null=False)
RUN_CHECK = obj({"condition": string(null=False), "direction": one_of(FioRun.DIRS),
                 **{k: LAT for k in ("bound_ns", "value_ns", "lo_ns", "hi_ns")},
                 "at_resolution": boolean, "result": one_of(RUN_RESULTS, null=False),
                 "text": string()}, required=("condition", "result"), null=False)
LATENCY_STUDY = obj({
    **{d: obj({"ios": COUNT, "percentiles": array(RUN_STUDY_ROW), "below": array(RUN_BELOW)})
       for d in FioRun.DIRS},
    "check": obj({"conditions": array(RUN_CHECK, null=False),
                  "verdict": one_of(("pass", "fail"), null=False)},
                 required=("conditions", "verdict")),
})
RUN_STUDY = obj({"latency_study": LATENCY_STUDY})


def run_doc(v, path):
    """run.json: a plain run's JSON as compare.json's runs (RUN_DOC), at
    least one job entry, each with a direction; json+'s bins; the latency
    study."""
    if "format" in v:
        _fail(path, "has a \"format\" (%s): not the JSON of ssdload run, whose schema "
              "(fio's) has none" % json.dumps(v["format"])[:40])
    RUN_DOC(v, path)
    if not v["jobs"]:
        _fail(path + ".jobs", "is empty (no job entry)")
    for i, j in enumerate(v["jobs"]):
        where = "%s.jobs[%d]" % (path, i)
        if not any(isinstance(j.get(d), dict) for d in FioRun.DIRS):
            _fail(where, "has no \"read\", \"write\" nor \"trim\" object")
        RUN_JOB(j, where)
    RUN_STUDY(v, path)


COMMAND_FORMATS[RUN_FORMAT] = (RUN_FORMAT_VERSION, run_doc)


def pct_need(p):
    """The I/Os a run needs for one to lie beyond the percentile @p (the
    rule of --latency-table: 100 / (100 - p), p100 needs one)."""
    return 1 if p >= 100 else int(math.ceil(100.0 / (100.0 - p) - 1e-6))


def lat_percentiles(lat):
    """[[p, ns], ...] of fio's latency object @lat, p ascending."""
    return sorted([float(k), v] for k, v in (get(lat, "percentile") or {}).items()
                  if v is not None)


def lat_bins(lat):
    """[(ns, I/Os)] of json+'s bins of @lat, ns ascending; [] without."""
    return sorted((int(k), n) for k, n in (get(lat, "bins") or {}).items() if n)


def bins_exceedance(bins):
    """[[p, ns], ...] of @bins: the share of the I/Os at or below each
    latency (%), a step: at each bin's latency the share below it, then
    the share up to it (the percentiles in between are that latency)."""
    total, cum, out = sum(n for _, n in bins), 0, []
    for ns, n in bins:
        out.append([100.0 * cum / total, ns])
        cum += n
        out.append([100.0 * cum / total, ns])
    return out


def bins_histogram(bins):
    """[(low ns, high ns, % of the I/Os)] of @bins, in bins of
    1/HIST_PER_DECADE of a decade, [10^(k/20), 10^((k+1)/20)) ns: every
    one from the first that has I/Os to the last (0: none)."""
    total, by = sum(n for _, n in bins), {}
    for ns, n in bins:
        if ns > 0:
            k = math.floor(math.log10(ns) * HIST_PER_DECADE)
            by[k] = by.get(k, 0) + n
    if not by:
        return []
    return [(10 ** (k / HIST_PER_DECADE), 10 ** ((k + 1) / HIST_PER_DECADE),
             100.0 * by.get(k, 0) / total) for k in range(min(by), max(by) + 1)]


def condition_pct(cond):
    """The percentile of a --latency-check condition ("read:p99.95<500us":
    99.95), or None (mean, max)."""
    stat = cond.split(":")[-1].split("<")[0]
    try:
        return float(stat[1:]) if stat[:1] in ("p", "P") else None
    except ValueError:
        return None


class RunStudy(FioRun):
    """The validated run.json: its job entries (numjobs without
    group_reporting has one per worker), each direction's latencies from
    json+'s bins or else from its percentiles, the latency study (of the
    whole run)."""

    COMMAND = "ssdload run"

    def __init__(self, doc, outdir):
        super().__init__(doc)
        self.dir, self.plots = outdir, []
        self.study = doc.get("latency_study") or {}
        names = [j.get("jobname") for j in self.jobs]
        self.labels = []
        for i, n in enumerate(names):
            label = n or "job %d" % (i + 1)
            if n and names.count(n) > 1:
                label += " #%d" % (names[:i].count(n) + 1)
            self.labels.append(label)
        self.study_label = self.labels[0] if len(self.jobs) == 1 else "all %d entries" % len(
            self.jobs)

    def dirs(self):
        """The directions with I/O."""
        return [d for d, _ in self.directions()]

    def entries(self, d):
        """[(index, label, direction object)] of the job entries with I/O in @d."""
        return [(i, label, j[d]) for i, (label, j) in enumerate(zip(self.labels, self.jobs))
                if isinstance(j.get(d), dict) and j[d].get("total_ios")]

    @staticmethod
    def latencies(x):
        """[(name, line style, latency object)] of the direction object @x."""
        return [(kind, style, x[key]) for key, kind, style in RUN_LATENCIES
                if isinstance(x.get(key), dict) and not (kind == "lat" and
                                                         x[key] == x.get("clat_ns"))]

    def series(self, d):
        """[(colour index, label, line style, bins, percentiles)] to plot
        for direction @d: each entry's latencies with bins or percentiles
        (those the I/Os back); without any clat, the latency study's backed
        rows."""
        out = []
        for i, label, x in self.entries(d):
            for kind, style, lat in self.latencies(x):
                n = lat.get("N")
                pairs = [[p, ns] for p, ns in lat_percentiles(lat)
                         if n is None or n >= pct_need(p)]
                if lat_bins(lat) or pairs:
                    out.append((i, label if kind == "clat" else "%s, %s" % (label, kind), style,
                                lat_bins(lat), pairs))
        if not any(style == "-" for _, _, style, _, _ in out):
            rows = [[r["percentile"], r["value_ns"]] for r in
                    get(self.study, d, "percentiles") or []
                    if r.get("backed") and r.get("value_ns") is not None]
            if rows:
                out.append((0, "%s (latency study)" % self.study_label, "-", [], rows))
        return out

    def footer(self):
        parts = [self.COMMAND, self.workload(), text(self.opts.get("filename"))]
        if not self.quiet:
            parts.append(self.state.upper())
        return "  \u00b7  ".join(parts)

    # ---- the rows of the tables and of the CSV files

    def headline_rows(self):
        """[job, direction, ios, iops, bw_bytes, lat_mean_ns, lat_max_ns]
        (completion latency): each entry's directions with I/O, then with
        several entries their sums ("all")."""
        rows = [[label, d, x["total_ios"], x.get("iops"), x.get("bw_bytes"),
                 get(x, "clat_ns", "mean"), get(x, "clat_ns", "max")]
                for d in self.DIRS for _, label, x in self.entries(d)]
        if len(self.jobs) > 1:
            for d in self.DIRS:
                xs = [r for r in rows if r[1] == d]
                if not xs:
                    continue
                col = [[r[k] for r in xs] for k in range(7)]
                whole = [None not in c for c in col]
                rows.append(["all", d, sum(col[2]), sum(col[3]) if whole[3] else None,
                             sum(col[4]) if whole[4] else None,
                             sum(n * m for n, m in zip(col[2], col[5])) / sum(col[2])
                             if whole[5] else None, max(col[6]) if whole[6] else None])
        return rows

    def percentile_rows(self):
        """Per direction: the latency study's table (the whole run's clat),
        else each entry's percentile list, whether the I/Os back each row
        by the same rule; each entry's other latencies' lists."""
        out = []
        for d in self.DIRS:
            study = get(self.study, d)
            if get(study, "percentiles"):
                out += [dict(r, job=self.study_label, direction=d, latency="clat",
                             ios=study.get("ios"), source="latency_study")
                        for r in study["percentiles"]]
            for _, label, x in self.entries(d):
                for kind, _, lat in self.latencies(x):
                    if kind == "clat" and get(study, "percentiles"):
                        continue
                    n, bins = lat.get("N"), lat_bins(lat)
                    out += [{"job": label, "direction": d, "latency": kind, "percentile": p,
                             "value_ns": ns, "lo_ns": None, "hi_ns": None, "ios": n,
                             "ios_beyond": sum(c for v, c in bins if v > ns) if bins else None,
                             "needs_ios": pct_need(p),
                             "backed": None if n is None else n >= pct_need(p),
                             "source": "percentile_list"} for p, ns in lat_percentiles(lat)]
        return out

    def below_rows(self):
        return [dict(b, direction=d, ios=get(self.study, d, "ios")) for d in self.DIRS
                for b in get(self.study, d, "below") or []]

    def check_rows(self):
        return get(self.study, "check", "conditions") or []

    @property
    def verdict(self):
        return get(self.study, "check", "verdict")


class RunPlotter(Plotter):
    """The plots of a latency study (run: a RunStudy): a panel per direction,
    a line per job entry and latency."""

    def __init__(self, run):
        super().__init__(run)
        self.plt.rcParams["path.simplify"] = False	# every bin as computed

    def panels(self, title, name):
        made = self.direction_panels("%s: %s" % (title, mpl_text(self.run.workload())), name,
                                     self.run.dirs())
        for _, ax in made[1] if made else []:
            ax.tick_params(axis="x", labelsize=7.5)	# 1,000 and 2,000 apart
        return made

    def color(self, i):
        colors = self.colors()
        return colors[i % len(colors)]

    def promises(self, d, ax, lats):
        """The percentile conditions of --latency-check on direction @d: a
        cross at (bound, percentile), green if met, red if not; those with
        a bound in the range of the latencies @lats (ns) plotted."""
        for c in self.run.check_rows():
            p, b = condition_pct(c["condition"]), c.get("bound_ns")
            if c.get("direction") != d or p is None or p >= 100 or b is None or \
                    not lats or not min(lats) <= b <= max(lats):
                continue
            ok = c["result"] == "pass"
            ax.plot([us(b)], [nines(p)], linestyle="none", marker="x", markersize=8,
                    markeredgewidth=2, color="#2a7d2a" if ok else "#c00000",
                    label="%s: %s" % (mpl_text(c["condition"]), "met" if ok else "NOT met"))

    def exceedance(self):
        """Each entry's share of the I/Os at or below each latency on the
        nines axis: from the bins (the reported percentiles circled), or
        its percentiles."""
        made = self.panels("Latency Percentiles", "y: percentile, nines scale")
        if not made:
            return
        lines = []
        for d, ax in made[1]:
            lats = []
            for i, label, style, bins, pairs in self.run.series(d):
                lats += [ns for ns, _ in bins] + [ns for _, ns in latency_points(pairs)]
                c = self.color(i)
                if not bins:
                    lines.append((d, pairs, style, c, mpl_text(label)))
                    continue
                lines.append((d, bins_exceedance(bins), style, c, mpl_text(label) + " (bins)"))
                pts = latency_points(pairs)
                if pts:
                    ax.plot([us(ns) for _, ns in pts], [nines(p) for p, _ in pts],
                            linestyle="none", marker="o", markersize=5, markerfacecolor="none",
                            markeredgecolor=c, label=mpl_text(label) + ": its percentiles")
            self.promises(d, ax, [ns for ns in lats if ns > 0])
        self.nines_plot(made, lines, "run_exceedance.svg")

    def histogram_panel(self, d, ax):
        """Direction @d's entries on @ax: a horizontal step per 1/20 decade
        (a gap where no I/O is), from the bins, else derived from the
        percentiles (log_density); whether any was drawn."""
        allv = []
        for i, label, style, bins, pairs in self.run.series(d):
            steps = bins_histogram(bins) if bins else \
                [(lo, hi, y / HIST_PER_DECADE) for lo, hi, y in log_density(pairs)]
            xs, ys = [], []
            for lo, hi, y in steps:
                xs += [us(lo), us(hi)]
                ys += [y or math.nan] * 2
            if steps:
                ax.plot(xs, ys, linestyle=style, linewidth=1.1, color=self.color(i),
                        label=mpl_text(label) + (" (bins)" if bins else
                                                 " (from its percentiles)"))
            allv += [y for _, _, y in steps if y > 0]
        if self.logscale_ok(allv):
            self.log_y(ax)
        return bool(allv)

    def histogram(self):
        """Each entry's share of the I/Os per 1/20 decade of latency."""
        made = self.panels("Latency Histogram", "log latency, %d bins per decade" %
                           HIST_PER_DECADE)
        if made:
            fig, panels = made
            if not [d for d, ax in panels if self.histogram_panel(d, ax)]:
                self.plt.close(fig)
                return
            panels[0][1].set_ylabel("%% of the I/Os per 1/%d decade" % HIST_PER_DECADE)
            self.legend(panels[-1][1])
            self.save(fig, "run_histogram.svg")

    def all(self):
        self.exceedance()
        self.histogram()


RUN_CSV = {
    "run.csv": ["job", "direction", "ios", "iops", "bw_bytes", "lat_mean_ns", "lat_max_ns"],
    "latency.csv": ["job", "direction", "latency", "percentile", "value_ns", "lo_ns", "hi_ns",
                    "ios", "ios_beyond", "needs_ios", "backed", "source"],
    "latency-below.csv": ["direction", "bound_ns", "ios", "ios_below", "ios_in_bound_bucket",
                          "percent", "percent_max"],
    "latency-check.csv": ["condition", "direction", "bound_ns", "value_ns", "lo_ns", "hi_ns",
                          "at_resolution", "result"],
    "run-bins.csv": ["job", "direction", "latency", "value_ns", "ios"],
}


def csv_row(r, keys):
    """The values of @keys in @r, true and false as in the JSON."""
    return [json.dumps(r[k]) if isinstance(r.get(k), bool) else r.get(k) for k in keys]


def write_run_csvs(rs):
    """run.csv, and latency.csv, latency-below.csv, latency-check.csv and
    run-bins.csv where there are rows: the CSV files written."""
    rows = {"run.csv": rs.headline_rows(),
            **{name: [csv_row(r, RUN_CSV[name]) for r in make()] for name, make in (
                ("latency.csv", rs.percentile_rows), ("latency-below.csv", rs.below_rows),
                ("latency-check.csv", rs.check_rows))},
            "run-bins.csv": [[label, d, kind, ns, n] for d in rs.DIRS
                             for _, label, x in rs.entries(d)
                             for kind, _, lat in rs.latencies(x) for ns, n in lat_bins(lat)]}
    out = []
    for name, header in RUN_CSV.items():
        if rows[name] or name == "run.csv":
            write_csv(os.path.join(rs.dir, name), header, rows[name])
            out.append(name)
    return out


def fmt_us_bound(ns):
    """A bound in ns as the page shows it: 500 \u00b5s."""
    return NA if ns is None else "%s \u00b5s" % fmt_value(us(ns))


def span_cell(lo, hi):
    """A cell of the bucket [lo, hi] (ns) in microseconds."""
    if lo is None or hi is None:
        return cell(None)
    if lo == hi:
        return cell(lo, "exact")
    return cell(lo, "%s \u2013 %s" % (fmt_value(us(lo)), fmt_value(us(hi))))


RESULT_SHOWN = {"pass": ("pass", "pass"), "fail": ("FAIL", "fail"),
                "too_few_ios": ("FAIL: too few I/Os", "fail"),
                "no_io": ("FAIL: no I/O", "fail"), "no_latencies": ("FAIL: no latencies", "fail")}


class RunStudyReport(CommandReport):
    """report.html of a plain run's latency study (run: a RunStudy)."""

    TITLE, KIND, NOUN = "Latency study", "Run", "the run"

    def titles(self):
        return ("%s: %s, %s" % (self.TITLE, self.run.workload(),
                                text(self.run.opts.get("filename"))),
                self.TITLE, self.run.COMMAND)

    def header_block(self):
        run, doc = self.run, self.doc
        head = [("Tool", text(doc.get("fio version"))), ("Time", text(doc.get("time"))),
                ("State", run.state), ("Job entries", str(len(run.jobs)))]
        keys = ("filename", "rw", "rwmixread", "bs", "iodepth", "numjobs", "runtime",
                "ramp_time")
        work = [(k, text(run.opts[k])) for k in keys if k in run.opts] or \
            [("options", "none recorded")]
        pcs = sorted({r["percentile"] for d in run.DIRS
                      for r in get(run.study, d, "percentiles") or []})
        bounds = sorted({b["bound_ns"] for b in run.below_rows()})
        conds = list(dict.fromkeys(c["condition"] for c in run.check_rows()))
        study = [("Percentile table", ", ".join("p%.10g" % p for p in pcs) or "not asked"),
                 ("Shares below", ", ".join(fmt_us_bound(b) for b in bounds) or "not asked"),
                 ("Check", ", ".join(conds) or "not asked"),
                 ("Verdict", text(run.verdict).upper() if run.verdict else NA)]
        tags = [] if run.quiet else ['<span class="tag warn">%s</span>' % esc(run.state.upper())]
        if run.verdict:
            tags.append('<span class="tag %s">latency-check: %s</span>' % (
                "ok" if run.verdict == "pass" else "bad", esc(run.verdict.upper())))
        return header_html((("Run", head), ("Workload (job options)", work),
                            ("Latency study", study)), tags)

    def banners(self):
        run, out = self.run, []
        if not run.quiet:
            out.append(state_banner(run.state, "The run ended %s: its figures are what it "
                                    "measured until then" % run.state))
        if run.verdict:
            rows = run.check_rows()
            met = sum(1 for c in rows if c["result"] == "pass")
            out.append('<div class="banner %s" id="verdict"><h2>latency-check: %s</h2>%d of '
                       "%d conditions met.</div>" % ("ok" if run.verdict == "pass" else "bad",
                                                     esc(run.verdict.upper()), met, len(rows)))
        return "".join(out)

    def headline_table(self):
        rows = [[job, d, cell(ios, fmt_int(ios)), cell(iops, fmt_value(iops)),
                 cell(bw, fmt_value(None if bw is None else bw / 1e6)), us_cell(mean),
                 us_cell(mx)] for job, d, ios, iops, bw, mean, mx in self.run.headline_rows()]
        if not rows:
            return '<p class="note">The run did no I/O.</p>'
        return data_table(["job", "direction", "I/Os", "IOPS", "MB/s", "mean (\u00b5s)",
                           "max (\u00b5s)"], rows, caption="Results: completion latency "
                          "(from submission)", tid="headline")

    def percentile_table(self):
        rows = []
        for r in self.run.percentile_rows():
            backed, need = r.get("backed"), r.get("needs_ios")
            rows.append([r["job"], r["direction"], r["latency"], "p%.10g" % r["percentile"],
                         us_cell(r.get("value_ns")), span_cell(r.get("lo_ns"), r.get("hi_ns")),
                         cell(r.get("ios"), fmt_int(r.get("ios"))),
                         cell(r.get("ios_beyond"), fmt_int(r.get("ios_beyond"))),
                         cell(need, fmt_int(need)),
                         Cell('<td class="na">%s</td>' % NA) if backed is None else
                         Cell('<td class="pass">yes</td>') if backed else
                         Cell('<td class="fail">NO: needs %s I/Os</td>' % fmt_int(need))])
        if not rows:
            return '<p class="note">No direction has latency percentiles.</p>'
        return data_table(["job", "direction", "latency", "percentile", "latency (\u00b5s)",
                           "lies in (\u00b5s)", "I/Os", "I/Os beyond", "needs I/Os",
                           "backed"], rows, caption="Latency percentiles (backed: the run "
                          "has the 100 / (100 \u2212 N) I/Os that put one beyond pN)",
                          tid="percentiles")

    def below_table(self):
        rows = [[r["direction"], cell(r["bound_ns"], fmt_us_bound(r["bound_ns"])),
                 cell(r.get("percent"), fmt_pct(r.get("percent"))),
                 cell(r.get("ios_below"), fmt_int(r.get("ios_below"))),
                 cell(r.get("percent_max"), fmt_pct(r.get("percent_max"))),
                 cell(r.get("ios_in_bound_bucket"), fmt_int(r.get("ios_in_bound_bucket"))),
                 cell(r.get("ios"), fmt_int(r.get("ios")))] for r in self.run.below_rows()]
        if not rows:
            return ""
        return data_table(["direction", "below", "% of the I/Os", "I/Os",
                           "at most (the bound's bucket)", "I/Os in the bound's bucket",
                           "of I/Os"], rows, caption="Shares below a latency "
                          "(--latency-below)", tid="below")

    def check_table(self):
        rows = []
        for c in self.run.check_rows():
            shown, cls = RESULT_SHOWN[c["result"]]
            rows.append([c["condition"], text(c.get("direction")), us_cell(c.get("value_ns")),
                         span_cell(c.get("lo_ns"), c.get("hi_ns")),
                         cell(c.get("bound_ns"), fmt_us_bound(c.get("bound_ns"))),
                         Cell('<td class="%s">%s</td>' % (cls, esc(shown))), text(c.get("text"))])
        if not rows:
            return ""
        return data_table(["condition", "direction", "value (\u00b5s)", "lies in (\u00b5s)",
                           "bound", "result", "as ssdload said it"], rows,
                          caption="Latency promises (--latency-check): %s" %
                          text(self.run.verdict).upper(), tid="check")

    def build(self, csvs):
        run = self.run
        self.page("Summary", self.banners(), self.headline_table(), self.check_table())
        self.page("Latency Percentiles",
                  plot_img(run, "run_exceedance.svg", "latency percentiles") or
                  '<p class="note">No direction has latency percentiles: no plot.</p>',
                  '<p class="note">Each line: the share of the I/Os (y, on a scale of nines: '
                  "90, 99, 99.9 ...) completed within the latency (x, log). From json+'s bins, "
                  "every bin (circled: the reported percentiles), else the percentiles the I/Os "
                  "back; crosses: the percentile promises of --latency-check with a bound in "
                  "the plotted range, green met, red not met.</p>"
                  if "run_exceedance.svg" in run.plots else "",
                  self.percentile_table())
        self.page("Latency Histogram",
                  plot_img(run, "run_histogram.svg", "latency histogram") or
                  '<p class="note">No direction has latency bins or enough percentiles: no '
                  "histogram.</p>",
                  '<p class="note">The share of the I/Os (%%) in each 1/%d of a decade of '
                  "latency (log x): counted from json+'s bins, or, without bins, derived from "
                  "the percentiles (between two of them, their share spread evenly over the "
                  "log of their latencies). A gap: no I/O in that bin.</p>" % HIST_PER_DECADE
                  if "run_histogram.svg" in run.plots else "", self.below_table())
        opts = sorted(run.opts.items())
        self.page("Run", data_table(["option", "value"],
                                    [[k, "(a flag)" if v == "" else text(v)] for k, v in opts],
                                    caption="Job options (of the first entry)", tid="options")
                  if opts else "",
                  "<h2>Data</h2><ul>%s</ul>" % "".join(
                      '<li><a href="%s">%s</a></li>' % (esc(f), esc(f))
                      for f in ["run.json"] + csvs),
                  '<p class="note">Rendered by ssdload-report.py from run.json alone (run '
                  "%s).</p>" % esc(text(self.doc.get("time"))))


# --------------------------------------------------------------------------

# --------------------------------------------------------------------------
# scale.json: the same workload on 1, 2, 4... drives and on arrays of them

SCALE_FORMAT, SCALE_FORMAT_VERSION = "ssdload-scale", 1
SCALE_KINDS = ("drives", "raid", "target")
SCALE_DIR_KEYS = ("ios", "iops", "bw_bytes", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns",
                  "lat_p99_9_ns", "lat_max_ns")
SCALE_DIRECTION = obj({**{k: LAT for k in SCALE_DIR_KEYS}, "ios": COUNT,
                       "iops_per_run": array(LAT)})
SCALE_DEVICE = obj({"path": string(), "model": string(), "serial": string(),
                    "firmware": string(), "capacity_bytes": N}, null=False)
SCALE_TARGET = obj({"label": string(null=False), "kind": one_of(SCALE_KINDS, null=False),
                    "drives": num(null=False, minimum=1, integer=True), "level": string(),
                    "path": string()}, required=("label", "kind", "drives"), null=False)
SCALE_POINT = obj({
    "target": string(null=False), "kind": one_of(SCALE_KINDS, null=False),
    "drives": num(null=False, minimum=1, integer=True), "qd_per_drive": LOAD,
    "qd_total": num(minimum=1, integer=True),
    **{k: num(minimum=1, integer=True) for k in ("workers_per_drive", "iodepth",
                                                 "md_members")},
    "complete": boolean,
    **{k: LAT for k in ("iops", "bw_bytes", "lat_mean_ns", "lat_max_ns", "lat_p99_ns",
                        "lat_p99_9_ns", "scaling", "efficiency")},
    **{d: SCALE_DIRECTION for d in ("read", "write", "trim")},
    "runs": array(obj({"file": string(), "exit_status": num(integer=True)}, null=False)),
    "md_device": string(), "md_level": string(),
}, required=("target", "kind", "drives", "qd_per_drive"), null=False)
SCALE_DOC = obj({
    **COMMAND_FIELDS,
    "devices": array(SCALE_DEVICE, null=False),
    "settings": obj({
        "qd_list": array(LOAD), "raid_chunk_bytes": num(minimum=1, integer=True),
        "baseline": string(), "rw": string(), "bs": num(minimum=1, integer=True),
        "rwmixread": num(minimum=0, maximum=100),
        **{k: num(minimum=0) for k in ("ramp_ms", "runtime_ms")},
    }, null=False),
    "targets": array(SCALE_TARGET, null=False),
    "points": array(SCALE_POINT, null=False),
}, required=COMMAND_REQUIRED + ("devices", "targets"), null=False)
COMMAND_FORMATS[SCALE_FORMAT] = (SCALE_FORMAT_VERSION, SCALE_DOC)
PLOTS += ("scale_iops.svg", "scale_factor.svg", "scale_latency.svg")
CSVS += ("scale.csv",)


def raid_name(level):
    """md's level as reviews write it: raid10 -> RAID-10."""
    if level and level.startswith("raid") and level[4:].isdigit():
        return "RAID-" + level[4:]
    return text(level)


def fmt_factor(f):
    return NA if f is None else "%.2f\u00d7" % f


class Scale(CommandResult):
    """The validated scale.json: the targets (drives together, md arrays
    built by the run, arrays given) and their points, one per target and
    queue depth per drive."""

    COMMAND = "ssdload scale"

    def __init__(self, doc, outdir):
        super().__init__(doc, outdir)
        self.targets = doc["targets"]
        self.devices = doc["devices"]

    def qds(self):
        """The queue depths per drive: the settings' order, then any other."""
        out = list(self.settings.get("qd_list") or [])
        return out + sorted({p["qd_per_drive"] for p in self.points} - set(out))

    @staticmethod
    def group(p):
        """The line a point belongs to: drives together, md arrays of one
        level, or one given target."""
        if p["kind"] == "drives":
            return ("drives", None)
        if p["kind"] == "raid":
            return ("raid", p.get("md_level") or p["target"])
        return ("target", p["target"])

    def group_label(self, g):
        kind, name = g
        if kind == "drives":
            return "drives together"
        if kind == "raid":
            return raid_name(name)
        t = next((t for t in self.targets if t["label"] == name), {})
        return "%s (%s)" % (name, text(t.get("level")))

    def groups(self):
        """The lines' groups, in the order of the targets."""
        out = []
        for t in self.targets:
            for p in self.points:
                if p["target"] == t["label"] and self.group(p) not in out:
                    out.append(self.group(p))
        for p in self.points:
            if self.group(p) not in out:
                out.append(self.group(p))
        return out

    def lines(self):
        """[(group, label, points by drive count)]: a line per group and
        queue depth per drive, the depths in their order."""
        out = []
        for qd in self.qds():
            for g in self.groups():
                pts = sorted((p for p in self.points
                              if p["qd_per_drive"] == qd and self.group(p) == g),
                             key=lambda p: p["drives"])
                if pts:
                    out.append((g, "%s, QD %d/drive" % (self.group_label(g), qd), pts))
        return out

    def target_order(self):
        """The targets' labels as the tables show them: the doc's order."""
        out = [t["label"] for t in self.targets]
        return out + [p["target"] for p in self.points if p["target"] not in out]

    def point(self, label, qd):
        return next((p for p in self.points if p["target"] == label and
                     p["qd_per_drive"] == qd), None)

    def array_text(self, p):
        """An md array as built: raid10 of 4 (/dev/md127)."""
        if p.get("md_level") is None:
            return ""
        return "%s of %s (%s)" % (p["md_level"], text(p.get("md_members")),
                                  text(p.get("md_device")))


class ScalePlotter(Plotter):
    """The plots of a scaling run (run: a Scale)."""

    def group_colors(self):
        colors = self.colors()
        return {g: colors[i % len(colors)] for i, g in enumerate(self.run.groups())}

    def qd_styles(self):
        return {qd: LINE_STYLES[i % len(LINE_STYLES)] for i, qd in enumerate(self.run.qds())}

    def bars(self, ax, key, div, fmt_top):
        """A bar per target and depth (@key of each point over @div), the
        depths side by side; @fmt_top(point) written above each bar."""
        sc = self.run
        labels, qds = sc.target_order(), sc.qds()
        width = 0.8 / max(len(qds), 1)
        colors = self.colors()
        top = 0.0
        for j, qd in enumerate(qds):
            xs, ys, notes = [], [], []
            for i, lab in enumerate(labels):
                p = sc.point(lab, qd)
                v = get(p, key)
                if v is None:
                    continue
                xs.append(i - 0.4 + width * (j + 0.5))
                ys.append(v / div)
                notes.append(fmt_top(p))
            top = max([top] + ys)
            ax.bar(xs, ys, width=width * 0.92, color=colors[j % len(colors)],
                   label="QD %d/drive" % qd)
            for x, y, t in zip(xs, ys, notes):
                if t:
                    ax.annotate(t, (x, y), xytext=(0, 2), textcoords="offset points",
                                ha="center", va="bottom", fontsize=6)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels([mpl_text(lab) for lab in labels], rotation=20 if len(labels) > 5
                           else 0, ha="right" if len(labels) > 5 else "center")
        ax.set_ylim(0, (top or 1) * 1.15)
        self.legend(ax)

    def iops(self):
        """IOPS per target, a bar per depth, its scaling factor above."""
        sc = self.run
        fig, ax = self.figure("IOPS per Target: %s" % mpl_text(sc.workload()), w=9.0)
        self.bars(ax, "iops", 1.0, lambda p: fmt_factor(p.get("scaling"))
                  if p.get("scaling") is not None else "")
        ax.set_ylabel("IOPS (all drives of the target)")
        self.save(fig, "scale_iops.svg")

    def factor(self):
        """The scaling factor against the drive count, a line per group and
        depth, the linear ideal dotted."""
        sc = self.run
        colors, styles = self.group_colors(), self.qd_styles()
        fig, ax = self.figure("Scaling against %s: %s" % (
            mpl_text(text(sc.settings.get("baseline"))), mpl_text(sc.workload())))
        drives = sorted({p["drives"] for p in sc.points} | {1})
        ax.plot(drives, drives, color="#7f7f7f", linestyle=":", linewidth=1.2, label="linear")
        top = max(drives)
        for g, lab, pts in sc.lines():
            ys = [p.get("scaling") for p in pts]
            top = max([top] + [y for y in ys if y is not None])
            ax.plot([p["drives"] for p in pts], [nan(y) for y in ys],
                    marker="o", markersize=5, color=colors[g],
                    linestyle=styles[pts[0]["qd_per_drive"]], label=mpl_text(lab))
        self.log2_axis(ax, drives, [str(d) for d in drives], "drives")
        ax.set_ylim(0, top * 1.1)
        ax.set_ylabel("IOPS / IOPS of %s" % mpl_text(text(sc.settings.get("baseline"))))
        self.legend(ax)
        self.save(fig, "scale_factor.svg")

    def latency(self):
        """Mean (circle) and p99 (triangle) latency per target and depth."""
        sc = self.run
        labels, qds, colors = sc.target_order(), sc.qds(), self.colors()
        fig, ax = self.figure("Latency per Target: %s" % mpl_text(sc.workload()), w=9.0)
        width = 0.8 / max(len(qds), 1)
        allv = []
        for j, qd in enumerate(qds):
            c = colors[j % len(colors)]
            xs, mean, p99 = [], [], []
            for i, lab in enumerate(labels):
                p = sc.point(lab, qd)
                if p is None:
                    continue
                xs.append(i - 0.4 + width * (j + 0.5))
                mean.append(us(p.get("lat_mean_ns")))
                p99.append(us(p.get("lat_p99_ns")))
            allv += mean + p99
            for x, lo, hi in zip(xs, mean, p99):
                if lo is not None and hi is not None:
                    ax.plot([x, x], [lo, hi], color=c, linewidth=1)
            ax.plot(xs, [nan(v) for v in mean], linestyle="none", marker="o", markersize=5,
                    color=c, label="QD %d/drive, mean" % qd)
            ax.plot(xs, [nan(v) for v in p99], linestyle="none", marker="^", markersize=5,
                    color=c, label="QD %d/drive, p99" % qd)
        if self.logscale_ok(allv, ratio=20.0):
            self.log_y(ax)
        else:
            ax.set_ylim(bottom=0)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels([mpl_text(lab) for lab in labels], rotation=20 if len(labels) > 5
                           else 0, ha="right" if len(labels) > 5 else "center")
        ax.set_xlim(-0.6, len(labels) - 0.4)
        ax.set_ylabel("completion latency (\u00b5s)")
        self.legend(ax)
        self.save(fig, "scale_latency.svg")

    def all(self):
        if self.run.points:
            self.iops()
            self.factor()
            self.latency()


SCALE_KEYS = ("target", "kind", "drives", "qd_per_drive", "qd_total", "workers_per_drive",
              "iodepth", "complete", "iops", "bw_bytes", "lat_mean_ns", "lat_p99_ns",
              "lat_p99_9_ns", "lat_max_ns", "scaling", "efficiency", "md_device", "md_level",
              "md_members")


def write_scale_csvs(sc):
    """scale.csv: a row per point, its reads and writes beside it."""
    dirs = [(d, k) for d in ("read", "write", "trim") for k in SCALE_DIR_KEYS]
    write_csv(os.path.join(sc.dir, "scale.csv"),
              list(SCALE_KEYS) + ["%s_%s" % dk for dk in dirs],
              [[p.get(k) for k in SCALE_KEYS] + [get(p, d, k) for d, k in dirs]
               for p in sc.points])
    return ["scale.csv"]


class ScaleReport(CommandReport):
    """report.html of a scaling run (run: a Scale)."""

    TITLE, KIND, NOUN = "Drive and RAID scaling", "Scale", "the scaling run"
    SPLIT = 5

    def settings_rows(self):
        sc, s = self.run, self.run.settings
        chunk = s.get("raid_chunk_bytes")
        return [("Drives", "%d: %s" % (len(sc.devices), ", ".join(
                    text(d.get("path")) for d in sc.devices))),
                ("Targets", ", ".join(t["label"] for t in sc.targets) or NA),
                ("Workload", sc.workload()),
                ("QD per drive", ", ".join(str(q) for q in s.get("qd_list") or []) or NA),
                ("Baseline", text(s.get("baseline"))),
                ("Ramp per point", fmt_ms(s.get("ramp_ms"))),
                ("Time per point", fmt_ms(s.get("runtime_ms"))),
                ("md chunk", NA if chunk is None else fmt_bs(chunk))]

    def scaling_table(self):
        sc, rows = self.run, []
        for qd in sc.qds():
            for lab in sc.target_order():
                p = sc.point(lab, qd)
                if p is None:
                    continue
                eff = p.get("efficiency")
                rows.append([lab, cell(qd, str(qd)), cell(p["drives"], str(p["drives"])),
                             cell(p.get("qd_total"), text(p.get("qd_total"))),
                             cell(p.get("iops"), fmt_value(p.get("iops"))),
                             cell(p.get("bw_bytes"), fmt_value(
                                 None if p.get("bw_bytes") is None else p["bw_bytes"] / 1e6)),
                             cell(p.get("scaling"), fmt_factor(p.get("scaling"))),
                             cell(eff, NA if eff is None else "%.0f%%" % (100 * eff)),
                             us_cell(p.get("lat_mean_ns")), us_cell(p.get("lat_p99_ns")),
                             us_cell(p.get("lat_p99_9_ns")),
                             "yes" if p.get("complete") else "NO"])
        if not rows:
            return '<p class="note">No point measured yet.</p>'
        return data_table(["target", "QD/drive", "drives", "QD (total)", "IOPS", "MB/s",
                           "scaling", "efficiency", "mean latency (\u00b5s)", "p99 (\u00b5s)",
                           "p99.9 (\u00b5s)", "complete"], rows,
                          caption="Scaling against %s at the same QD per drive (efficiency: "
                          "the scaling over the drive count)" %
                          text(self.run.settings.get("baseline")), tid="scaling")

    def targets_table(self):
        sc, rows = self.run, []
        for t in sc.targets:
            p = next((p for p in sc.points if p["target"] == t["label"]), {})
            how = {"drives": "each drive its own job, started together",
                   "raid": "md array built by the run",
                   "target": "array given (--targets)"}[t["kind"]]
            rows.append([t["label"], how, cell(t["drives"], str(t["drives"])),
                         text(t.get("level")),
                         sc.array_text(p) or text(t.get("path")) if t["kind"] != "drives"
                         else NA,
                         cell(get(p, "workers_per_drive"), text(get(p, "workers_per_drive"))),
                         cell(get(p, "iodepth"), text(get(p, "iodepth")))])
        devs = [[text(d.get("path")), text(d.get("model")), text(d.get("serial")),
                 text(d.get("firmware")), fmt_bytes(d.get("capacity_bytes"))]
                for d in sc.devices]
        return data_table(["target", "how", "drives", "level", "array", "workers per drive",
                           "iodepth per worker"], rows, caption="Targets", tid="targets") + \
            data_table(["device", "model", "serial", "firmware", "capacity"], devs,
                       caption="Drives", tid="drives")

    def directions_table(self):
        rows = []
        for p in self.run.points:
            for d in ("read", "write", "trim"):
                x = p.get(d)
                if x is None:
                    continue
                per = x.get("iops_per_run") or []
                rows.append([p["target"], str(p["qd_per_drive"]), d,
                             cell(x.get("ios"), fmt_int(x.get("ios"))),
                             cell(x.get("iops"), fmt_value(x.get("iops"))),
                             " / ".join(fmt_value(v) for v in per) if len(per) > 1 else ""] +
                            [us_cell(x.get(k)) for k in ("lat_mean_ns", "lat_p50_ns",
                                                         "lat_p99_ns", "lat_p99_9_ns",
                                                         "lat_max_ns")])
        if not rows:
            return ""
        return data_table(["target", "QD/drive", "direction", "I/Os", "IOPS",
                           "IOPS of each drive", "mean (\u00b5s)", "p50 (\u00b5s)",
                           "p99 (\u00b5s)", "p99.9 (\u00b5s)", "max (\u00b5s)"], rows,
                          caption="Reads and writes: completion latency, the drives' I/Os "
                          "merged", tid="directions")

    def build(self, csvs):
        sc, doc = self.run, self.doc
        runs = sorted({r["file"] for p in sc.points for r in p.get("runs") or []
                       if r.get("file")})
        self.page("Summary", self.banners(), self.scaling_table(),
                  plot_img(sc, "scale_iops.svg", "IOPS per target"))
        self.page("Scaling", plot_img(sc, "scale_factor.svg", "scaling against drives"),
                  '<p class="note">A point\'s scaling is its IOPS over the IOPS of %s at '
                  "the same queue depth per drive; the dotted line is linear scaling.</p>" %
                  esc(text(sc.settings.get("baseline"))))
        self.page("Latency", plot_img(sc, "scale_latency.svg", "latency per target"),
                  '<p class="note">Circles: mean; triangles: p99 (of each point, the I/Os '
                  "of all its drives).</p>", self.directions_table())
        self.page("Targets", self.targets_table())
        self.run_page(doc.get("command"), ["scale.json"] + csvs + runs,
                      "Rendered by ssdload-report.py from scale.json alone (finished %s)." %
                      text(doc.get("finished")))


def remove_stale(outdir, keep_plots, keep_csvs):
    for name in PLOTS:
        path = os.path.join(outdir, "plots", name)
        if name not in keep_plots and os.path.exists(path):
            os.unlink(path)
    for name in CSVS:
        path = os.path.join(outdir, name)
        if name not in keep_csvs and os.path.exists(path):
            os.unlink(path)


def new_plotter(cls, run):
    try:
        return cls(run)
    except ImportError as e:
        raise RuntimeError("matplotlib is not available to %s (%s): install "
                           "python3-matplotlib" % (sys.executable, e)) from None


def write_report(run, rep, csvs):
    """Drop what @run did not write, then report.html of @rep."""
    remove_stale(run.dir, run.plots, csvs)
    rep.build(csvs)
    path = os.path.join(run.dir, "report.html")
    page = rep.html()
    write_atomic(path, lambda f: f.write(page))
    return path


# the result files other than pts.json, in order of precedence: (file,
# format, the result's class, its plotter, its report, its CSV writer)
COMMAND_RESULTS = (
    ("sweep.json", SWEEP_FORMAT, Sweep, SweepPlotter, SweepReport, write_sweep_csvs),
    ("curve.json", CURVE_FORMAT, Curve, CurvePlotter, CurveReport, write_curve_csvs),
    ("compare.json", COMPARE_FORMAT, Compare, ComparePlotter, CompareReport,
     write_compare_csvs),
    ("scale.json", SCALE_FORMAT, Scale, ScalePlotter, ScaleReport, write_scale_csvs),
    ("run.json", RUN_FORMAT, RunStudy, RunPlotter, RunStudyReport, write_run_csvs),
)


def render_command(outdir, entry):
    """Render the result file of @entry (one of COMMAND_RESULTS) in @outdir."""
    name, fmt, result, plotter, report, write = entry
    run = result(load(os.path.join(outdir, name), fmt, COMMAND_FORMATS[fmt][0]), outdir)
    new_plotter(plotter, run).all()
    return write_report(run, report(run), write(run))


def render(outdir):
    """Render DIR/pts.json, or when there is none DIR/sweep.json, or
    DIR/curve.json, or DIR/compare.json, or DIR/scale.json, or DIR/run.json."""
    check_outdir(outdir)
    pts = os.path.join(outdir, "pts.json")
    if not os.path.exists(pts):
        for entry in COMMAND_RESULTS:
            if os.path.exists(os.path.join(outdir, entry[0])):
                return render_command(outdir, entry)
        raise BadInput("%s: No such file or directory (nor %s: no result to render)" % (
            pts, " nor ".join(e[0] for e in COMMAND_RESULTS)))
    doc = load(pts)
    run = Run(doc, outdir)
    plotter = new_plotter(Plotter, run)
    if run.rounds:
        plotter.ss_convergence()
    plotter.ss_window()
    if run.test == "iops":
        plotter.iops_2d()
        plotter.iops_3d()
    elif run.test == "throughput":
        plotter.throughput()
    elif run.test == "latency":
        plotter.latency()
    elif run.test == "wsat":
        plotter.wsat()
    elif run.test == "hir":
        plotter.hir()
    elif run.test == "xsr":
        plotter.xsr()
    elif run.demand:
        plotter.demand()
    return write_report(run, Report(run), write_csvs(run))


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return EXIT_OK
    if len(argv) != 2 or argv[1].startswith("-"):
        print("usage: ssdload-report.py DIR  (renders DIR/pts.json, DIR/sweep.json, "
              "DIR/curve.json, DIR/compare.json, DIR/scale.json or DIR/run.json)", file=sys.stderr)
        return EXIT_USAGE
    try:
        render(argv[1])
    except BadInput as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:
        print("%s: %s: %s" % (PROG, e.filename or argv[1], e.strerror or e), file=sys.stderr)
        return EXIT_FAILED
    except RuntimeError as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return EXIT_FAILED
    except Exception as e:		# pylint: disable=broad-except
        # a bug here, not bad input (that is BadInput): one line, unless asked
        if os.environ.get("SSDLOAD_REPORT_DEBUG"):
            raise
        print("%s: internal error rendering %s: %s: %s (SSDLOAD_REPORT_DEBUG=1 shows "
              "the traceback)" % (PROG, argv[1], type(e).__name__, e), file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv))
