# SPDX-License-Identifier: GPL-2.0
"""compare.json (`ssdload compare`): runs of one kind side by side
(Compare), their plots, their CSV table, their page.
"""
import os

from .common import (CommandReport, CommandResult, LINE_STYLES, Plotter, cell, data_table, esc,
                     fmt_bs, fmt_mix, fmt_value, get, header_html, ms, nan, plot_img, state_banner,
                     text, us, us_cell, write_csv)
from .pts import MATRIX_TESTS, Run, TEST_METRIC
from .sweep import Sweep
from .curve import Curve, DIRECTIONS, pair_percentile
from .run import FioRun

RUN_PERCENTILES = (50.0, 99.0, 99.9, 99.99)
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

    def run_percentiles(self):
        """The percentiles of plain runs shown: compare --percentiles, else
        RUN_PERCENTILES."""
        return self.doc.get("percentiles") or RUN_PERCENTILES

    def headline_run(self, res, put):
        for o in FioRun.OPTIONS:
            if res.opts.get(o) is not None:
                put(o, "text", res.opts[o])
        for d, x in res.directions():
            put("%s IOPS" % d, "num", x["iops"])
            put("%s MB/s" % d, "mb", x["bw_bytes"])
            put("%s clat mean (\u00b5s)" % d, "us", x["lat_mean_ns"])
            put("%s clat max (\u00b5s)" % d, "us", x["lat_max_ns"])
            for p in self.run_percentiles():
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
            for p in self.run.run_percentiles()]
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
