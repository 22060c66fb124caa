# SPDX-License-Identifier: GPL-2.0
"""latency-grid.json (`ssdload latency-grid`, the QD 1 latency grid of
TheSSDReview's S3700 and P3520 reviews): its checks, its cells
(LatencyGrid), its chart of average and maximum latency per cell, its CSV
table, its page.
"""
import os

from .common import (COMMAND_FIELDS, COMMAND_REQUIRED, COUNT, LAT, LOAD, N, NA, CommandReport,
                     CommandResult, Plotter, array, cell, data_table, esc, fmt_bs, fmt_g,
                     fmt_int, fmt_mix, fmt_ms, fmt_value, get, mpl_text, num, obj, percentiles,
                     plot_img, string, text, us, us_cell, write_csv)

GRID_FORMAT, GRID_FORMAT_VERSION = "ssdload-latency-grid", 1

MIX = num(null=False, minimum=0, maximum=100)
GRID_DIRECTION = obj({"ios": COUNT, "iops": N, "bw_bytes": N, "lat_mean_ns": LAT,
                      "lat_max_ns": LAT})
GRID_CELL = obj({
    "step": LOAD, "bs": num(null=False, minimum=1, integer=True), "mix": MIX, "rw": string(),
    "ios": COUNT, "read_pct": num(minimum=0, maximum=100), "iops": N, "bw_bytes": N,
    "lat_mean_ns": LAT, "lat_max_ns": LAT, "percentiles": percentiles,
    "read": GRID_DIRECTION, "write": GRID_DIRECTION,
}, required=("step", "bs", "mix"), null=False)
GRID_DOC = obj({
    **COMMAND_FIELDS,
    "settings": obj({
        "filename": string(), "bs_list": array(num(null=False, minimum=1, integer=True)),
        "mix_list": array(MIX),
        "percentiles": array(num(null=False, minimum=0, maximum=100)),
        "iodepth": LOAD, "numjobs": LOAD, "ramp_ms": num(minimum=0),
        "runtime_ms": num(minimum=0),
    }, null=False),
    "points": array(GRID_CELL, null=False),
    "run_json": string(),
}, required=COMMAND_REQUIRED, null=False)


def pct_key(p):
    """The key of percentile @p in a cell's "percentiles", as fio's: 99.900000."""
    return "%f" % p


class LatencyGrid(CommandResult):
    """The validated latency-grid.json: its cells, in the order run."""

    COMMAND = "ssdload latency-grid"

    def workload(self):
        s = self.settings
        return "QD 1 random, %s x R/W %s" % (
            ", ".join(fmt_bs(b) for b in s.get("bs_list") or []) or NA,
            ", ".join(fmt_mix(m) for m in s.get("mix_list") or []) or NA)

    def percentiles(self):
        """The percentiles asked for, in the order given."""
        return list(self.settings.get("percentiles") or [])

    @staticmethod
    def cell_label(p):
        return "%s %s" % (fmt_bs(p["bs"]), fmt_mix(p["mix"]))


class LatencyGridPlotter(Plotter):
    """The chart of a latency grid (run: a LatencyGrid)."""

    def cells(self):
        """Average and maximum completion latency per cell, side by side, a
        group of cells per block size, as the S3700 review's charts."""
        g = self.run
        pts = g.points
        fig, ax = self.figure("QD 1 Latency: average and maximum per cell", w=max(
            8.0, 0.7 * len(pts) + 2.0))
        xs = list(range(len(pts)))
        allv = []
        for off, key, color, what in ((-0.2, "lat_mean_ns", "#1f77b4", "average"),
                                      (0.2, "lat_max_ns", "#d62728", "maximum")):
            ys = [us(p.get(key)) for p in pts]
            allv += ys
            bars = ax.bar([x + off for x in xs], [0 if y is None else y for y in ys], 0.38,
                          color=color, label="%s latency" % what)
            self.label_bars(ax, bars, ys, fontsize=6)
        if self.logscale_ok(allv, ratio=20.0):
            self.log_y(ax)
        self.bar_axes(ax, [mpl_text(g.cell_label(p)) for p in pts], "block size, R/W mix",
                      "completion latency (\u00b5s)", rotation=30, ha="right", fontsize=7)
        self.legend(ax)
        self.save(fig, "latency_grid.svg")

    def all(self):
        if self.run.points:
            self.cells()


GRID_KEYS = ("step", "bs", "mix", "rw", "ios", "read_pct", "iops", "bw_bytes", "lat_mean_ns",
             "lat_max_ns")


def write_grid_csvs(g):
    """latency-grid.csv: a row per cell, its percentiles as columns."""
    pcts = g.percentiles()
    write_csv(os.path.join(g.dir, "latency-grid.csv"),
              list(GRID_KEYS) + ["lat_p%s_ns" % fmt_g(p) for p in pcts],
              [[p.get(k) for k in GRID_KEYS] + [get(p, "percentiles", pct_key(x))
                                                for x in pcts] for p in g.points])
    return ["latency-grid.csv"]


class LatencyGridReport(CommandReport):
    """report.html of a latency grid (run: a LatencyGrid)."""

    TITLE, KIND, NOUN = "QD 1 latency grid", "Latency grid", "the latency grid"

    def settings_rows(self):
        s = self.run.settings
        return [("Target", text(s.get("filename"))),
                ("Block sizes", ", ".join(fmt_bs(b) for b in s.get("bs_list") or []) or NA),
                ("R/W mixes", ", ".join(fmt_mix(m) for m in s.get("mix_list") or []) or NA),
                ("Queue depth", text(s.get("iodepth"))),
                ("Workers", text(s.get("numjobs"))),
                ("Percentiles", ", ".join("%g" % p for p in self.run.percentiles()) or NA),
                ("Ramp per cell", fmt_ms(s.get("ramp_ms"))),
                ("Time per cell", fmt_ms(s.get("runtime_ms")))]

    def cells_table(self):
        """A row per cell: its average, maximum and percentiles."""
        g, rows = self.run, []
        pcts = g.percentiles()
        for p in g.points:
            rp = p.get("read_pct")
            rows.append([str(p["step"]), fmt_bs(p["bs"]), fmt_mix(p["mix"]),
                         cell(rp, NA if rp is None else "%.1f" % rp),
                         cell(p.get("ios"), fmt_int(p.get("ios"))),
                         cell(p.get("iops"), fmt_value(p.get("iops"))),
                         us_cell(p.get("lat_mean_ns")), us_cell(p.get("lat_max_ns"))] +
                        [us_cell(get(p, "percentiles", pct_key(x))) for x in pcts])
        if not rows:
            return '<p class="note">No cell measured yet.</p>'
        return data_table(["step", "block size", "R/W mix", "reads (%)", "I/Os", "IOPS",
                           "average (\u00b5s)", "maximum (\u00b5s)"] +
                          ["p%g (\u00b5s)" % x for x in pcts], rows,
                          caption="Cells: completion latency of reads and writes together "
                          "(the percentiles of their merged histogram)", tid="cells")

    def build(self, csvs):
        g, doc = self.run, self.doc
        self.page("Summary", self.banners(),
                  plot_img(g, "latency_grid.svg", "average and maximum latency per cell"),
                  self.cells_table())
        self.run_page(doc.get("command"), ["latency-grid.json"] + csvs,
                      "Rendered by ssdload-report.py from latency-grid.json alone "
                      "(finished %s)." % text(doc.get("finished")),
                      '<p class="note">The run\'s own results: <code>%s</code></p>' %
                      esc(text(doc.get("run_json"))))
