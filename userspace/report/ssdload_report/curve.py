# SPDX-License-Identifier: GPL-2.0
"""curve.json (`ssdload curve`, an iorate curve): its checks, its points
(Curve), its plots, its CSV table, its page.
"""
import os

from .common import (COMMAND_FIELDS, COMMAND_REQUIRED, COUNT, CommandReport, CommandResult, LAT,
                     NA, Plotter, WORKLOAD_SETTINGS, array, cell, data_table, esc, fail, fmt_int,
                     fmt_ms, fmt_ms_value, fmt_pct, fmt_value, get, log_density, mpl_text, ms, nan,
                     num, obj, plot_img, string, text, us, us_cell, write_csv)

CURVE_FORMAT, CURVE_FORMAT_VERSION = "ssdload-curve", 1


def percentile_list(v, path):
    """[[p, ns], ...]: p ascending in 0..100, ns a latency."""
    if v is None:
        return
    array(array(num(null=False, minimum=0), null=False, length=2))(v, path)
    for i, (p, _) in enumerate(v):
        if p > 100:
            fail("%s[%d][0]" % (path, i), "%s is above 100" % p)
        if i and p <= v[i - 1][0]:
            fail("%s[%d][0]" % (path, i), "%s is not above the percentile before it" % p)


# curve.json: a point of the curve (the max point and the curve points)
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


DIRECTIONS = ("read", "write")
MBPS_CHART_BS = 65536	# from this block size on, the response curve plots MB/s


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

    def mbps_chart(self):
        """True when the response curve plots MB/s (a block size of 64 KiB
        or more, as StorageReview's charts of its 64K workloads)."""
        return (self.settings.get("bs") or 0) >= MBPS_CHART_BS

    def chart_x(self, p):
        """A point's x on the response curve: its IOPS, or its MB/s."""
        if not self.mbps_chart():
            return p["iops"]
        return None if p.get("bw_bytes") is None else p["bw_bytes"] / 1e6

    def stop_line(self):
        """The early stop and the points not run, in words; "" if neither."""
        out = []
        if self.stop:
            out.append("stopped at %s: %s" % (fmt_pct_label(self.stop["pct"]),
                                              self.stop["reason"]))
        if self.skipped:
            out.append("not run: %s" % ", ".join(fmt_pct_label(x) for x in self.skipped))
        return "; ".join(out)


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
        """Mean latency (ms) against achieved IOPS (MB/s for a block size of
        64 KiB or more, as StorageReview plots them): submission to
        completion and from the intended time, the max point apart, the
        stop bounds."""
        cv, s = self.run, self.run.settings
        colors = self.colors()
        mbps = cv.mbps_chart()
        fig, ax = self.figure("Response Time Curve%s: %s" % (" (MB/s)" if mbps else "",
                                                              mpl_text(cv.workload())))
        xs = [cv.chart_x(p) for p in cv.points]
        resp = [ms(p.get("lat_mean_ns")) for p in cv.points]
        intended = [ms(get(p, "intended", "lat_mean_ns")) for p in cv.points]
        # the intended points named only where apart from resp's
        apart = [y if r is None or y is None or y > 1.25 * r else None
                 for r, y in zip(resp, intended)]
        for ys, names, marker, c, what in (
                (resp, resp, "o", colors[0], "resp: submission to completion"),
                (intended, apart, "s", colors[1], "intended: from the intended send time")):
            if any(y is not None for y in ys):
                ax.plot([nan(x) for x in xs], [nan(y) for y in ys], marker=marker, markersize=4, color=c,
                        label=what)
                self.label_points(ax, [(x, y, p["label"]) for x, y, p in
                                       zip(xs, names, cv.points)], c)
        allv = resp + intended
        if cv.max:
            y = ms(cv.max.get("lat_mean_ns"))
            allv.append(y)
            ax.plot([nan(cv.chart_x(cv.max))], [nan(y)], linestyle="none", marker="*",
                    markersize=13, color=self.MAX_COLOR,
                    label="max: the workload at its maximum")
            self.label_points(ax, [(cv.chart_x(cv.max), y, cv.max["label"])], self.MAX_COLOR)
        for key, c, what in (("stopcurve_ns", colors[0], "resp"),
                             ("stopcurve_intended_ns", colors[1], "intended")):
            if s.get(key) is not None:
                allv.append(ms(s[key]))
                ax.axhline(ms(s[key]), color=c, linestyle="--", linewidth=1,
                           label="stop bound, %s: %s" % (what, fmt_ms_value(s[key])))
        self.load_axes(ax, allv, "achieved MB/s" if mbps else "achieved IOPS",
                       "mean latency (ms)", zero=True)
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
