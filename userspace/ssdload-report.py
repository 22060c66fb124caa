#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ssdload-report.py DIR: the report of an `ssdload review` (DIR/plan.json:
a cover page, then each step's own report), of an `ssdload pts TEST` run, of an
`ssdload sweep` (queue-depth sweep), of an `ssdload curve` (iorate curve),
of an `ssdload compare` (runs side by side), of an `ssdload scale` (drive
and RAID scaling), of an `ssdload latency-grid` (QD 1 latency grid) or of
the latency study of a plain `ssdload run`.

Reads DIR/pts.json alone (format "ssdload-pts", format_version 1, see
Documentation/pts.rst), or when DIR has no pts.json, DIR/sweep.json alone
(format "ssdload-sweep", format_version 1: below), or when DIR has neither,
DIR/curve.json alone (format "ssdload-curve", format_version 1: below),
or when DIR has none of them, DIR/compare.json alone (format
"ssdload-compare", format_version 1: below), or DIR/scale.json alone
(format "ssdload-scale", format_version 1: below), or
DIR/latency-grid.json alone (format "ssdload-latency-grid",
format_version 1: below), or last DIR/run.json alone (a plain run's
JSON: below).
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

From latency-grid.json (cells: one per block size and R/W mix, each a
step of one run at QD 1; Documentation/latency.rst) it writes:

  report.html       the header block (block sizes, mixes, percentiles),
                    the chart, the cells' average, maximum and percentiles
  plots/latency_grid.svg    average and maximum completion latency per
                    cell, side by side
  latency-grid.csv  a row per cell: step,bs,mix,rw,ios,read_pct,iops,
                    bw_bytes,lat_mean_ns,lat_max_ns, then lat_pN_ns

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
pts.json (sweep.json, curve.json, compare.json, scale.json,
latency-grid.json, run.json) alone: two
renderings of the same file are byte-identical.

Exit status: 0 rendered; 2 bad usage or a missing or invalid pts.json,
sweep.json, curve.json, compare.json, scale.json, latency-grid.json or
run.json (one line on stderr,
naming the bad key); 3 the rendering failed (matplotlib missing, a write
error).  ssdload runs this script for `ssdload report DIR` and at the end
of `ssdload pts TEST` (userspace/pts/pts.c, pts_render_report()).
"""
import os
import sys

# the renderer is the package ssdload_report in report/ beside this script,
# in the source tree as where make install puts it: nothing to install
PACKAGE_DIR = os.path.join(os.path.dirname(os.path.realpath(__file__)), "report")
if PACKAGE_DIR not in sys.path:
    sys.path.insert(0, PACKAGE_DIR)

# pylint: disable=wrong-import-position
from ssdload_report.common import (EXIT_FAILED, EXIT_OK, EXIT_USAGE,  # noqa: E402
                                   PROG, BadInput, log_density, nines, nines_ticks)
from ssdload_report.documents import load  # noqa: E402
from ssdload_report.render import render  # noqa: E402
from ssdload_report.run import (RUN_FORMAT, RUN_FORMAT_VERSION, RunStudy,  # noqa: E402
                                bins_exceedance, bins_histogram, condition_pct, lat_bins,
                                pct_need)
from ssdload_report.scale import Scale  # noqa: E402

# what the tests use of this script, loaded as a module
__all__ = ["BadInput", "RUN_FORMAT", "RUN_FORMAT_VERSION", "RunStudy", "Scale",
           "bins_exceedance", "bins_histogram", "condition_pct", "lat_bins", "load",
           "log_density", "main", "nines", "nines_ticks", "pct_need", "render"]


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
