# SPDX-License-Identifier: GPL-2.0
"""The report of a result directory: which result file it holds, the
plots, the CSV tables and report.html of its kind.
"""
import json
import os
import sys

from .common import CSVS, PLOTS, BadInput, check_outdir, write_atomic
from .pts import Run, write_csvs
from .pts_plots import PtsPlotter
from .pts_report import PtsReport
from .sweep import SWEEP_FORMAT, Sweep, SweepPlotter, SweepReport, write_sweep_csvs
from .curve import CURVE_FORMAT, Curve, CurvePlotter, CurveReport, write_curve_csvs
from .run import RUN_FORMAT, RunPlotter, RunStudy, RunStudyReport, write_run_csvs
from .scale import SCALE_FORMAT, Scale, ScalePlotter, ScaleReport, write_scale_csvs
from .latgrid import (GRID_FORMAT, LatencyGrid, LatencyGridPlotter, LatencyGridReport,
                      write_grid_csvs)
from .documents import COMMAND_FORMATS, COMPARE_FORMAT, JSON_MAX_BYTES, load, read_regular
from .compare import Compare, ComparePlotter, CompareReport, write_compare_csvs
from .review import REVIEW_FORMAT, render_review


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
    ("latency-grid.json", GRID_FORMAT, LatencyGrid, LatencyGridPlotter, LatencyGridReport,
     write_grid_csvs),
    ("run.json", RUN_FORMAT, RunStudy, RunPlotter, RunStudyReport, write_run_csvs),
)


def render_command(outdir, entry):
    """Render the result file of @entry (one of COMMAND_RESULTS) in @outdir."""
    name, fmt, result, plotter, report, write = entry
    run = result(load(os.path.join(outdir, name), fmt, COMMAND_FORMATS[fmt][0]), outdir)
    new_plotter(plotter, run).all()
    return write_report(run, report(run), write(run))


def load_review(path):
    """DIR/plan.json of an ssdload review, parsed; raises BadInput."""
    try:
        doc = json.loads(read_regular(path, JSON_MAX_BYTES).decode("utf-8"))
    except OSError as e:
        raise BadInput("%s: %s" % (path, e.strerror or e)) from None
    except ValueError as e:
        raise BadInput("%s: not JSON: %s" % (path, e)) from None
    if not isinstance(doc, dict) or doc.get("format") != REVIEW_FORMAT:
        raise BadInput("%s: not the plan.json of an ssdload review" % path)
    if doc.get("format_version") != 1:
        raise BadInput("%s: unknown format_version %s (this renderer reads 1)" % (
            path, json.dumps(doc.get("format_version"))[:40]))
    return doc


def render(outdir):
    """Render DIR/pts.json, or when there is none DIR/sweep.json, or
    DIR/curve.json, or DIR/compare.json, or DIR/scale.json, or
    DIR/latency-grid.json, or DIR/run.json."""
    check_outdir(outdir)
    review = os.path.join(outdir, "plan.json")
    if os.path.exists(review):
        return render_review(outdir, load_review(review), render)
    pts = os.path.join(outdir, "pts.json")
    if not os.path.exists(pts):
        for entry in COMMAND_RESULTS:
            if os.path.exists(os.path.join(outdir, entry[0])):
                return render_command(outdir, entry)
        raise BadInput("%s: No such file or directory (nor %s: no result to render)" % (
            pts, " nor ".join(e[0] for e in COMMAND_RESULTS)))
    doc = load(pts)
    run = Run(doc, outdir)
    plotter = new_plotter(PtsPlotter, run)
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
    return write_report(run, PtsReport(run), write_csvs(run))
