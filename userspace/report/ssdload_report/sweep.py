# SPDX-License-Identifier: GPL-2.0
"""sweep.json (`ssdload sweep`, a queue-depth sweep): its checks, its
points and knees (Sweep), its plots, its CSV tables, its page.
"""
import os

from .common import (COMMAND_FIELDS, COMMAND_REQUIRED, CommandReport, CommandResult,
                     DIRECTION_FIELDS, LOAD, N, NA, Plotter, WORKLOAD_SETTINGS, array, cell,
                     data_table, esc, fmt_g, fmt_int, fmt_ms, fmt_value, get, mpl_text, ms, nan,
                     num, obj, plot_img, string, text, us, us_cell, write_csv)

SWEEP_FORMAT, SWEEP_FORMAT_VERSION = "ssdload-sweep", 1

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
