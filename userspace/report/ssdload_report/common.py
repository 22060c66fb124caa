# SPDX-License-Identifier: GPL-2.0
"""What every report kind shares: the checks of the JSON values, the
formatting of values, the result of an ssdload command (CommandResult), the
plots' figures and their deterministic SVG (Plotter), the CSV tables, the
atomic writes of every file (write_atomic) and the HTML page (Report,
CommandReport).
"""
import csv
import html
import json
import math
import os
import stat
import tempfile

PROG = "ssdload-report"
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
         "compare_iops.svg", "compare_latency.svg", "compare_pts.svg",
         "run_exceedance.svg", "run_histogram.svg", "scale_iops.svg", "scale_factor.svg",
         "scale_latency.svg", "latency_grid.svg")
CSVS = ("rounds.csv", "points.csv", "measurement.csv", "series.csv", "wait_states.csv",
        "hir_samples.csv", "demand.csv", "operating_points.csv", "rt_histogram.csv",
        "prewrites.csv", "sweep.csv", "sweep-series.csv", "curve.csv", "compare.csv",
        "run.csv", "latency.csv", "latency-below.csv", "latency-check.csv", "run-bins.csv",
        "scale.csv", "latency-grid.csv")


class BadInput(Exception):
    """The result file (pts.json, sweep.json...) is missing or not valid: exit 2."""


# --------------------------------------------------------------------------
# validation: every value the renderer reads is checked when its document
# is loaded (documents.py), by checkers built of these, so that the
# rendering never meets a wrong type (no traceback for bad input)

def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def fail(path, what):
    raise BadInput("%s: %s" % (path, what))


def num(null=True, minimum=None, maximum=None, integer=False):
    def check(v, path):
        if v is None:
            if not null:
                fail(path, "is null (a number is needed)")
            return
        if not _is_num(v):
            fail(path, "%s is not a number" % json.dumps(v)[:40])
        if integer and v != int(v):
            fail(path, "%s is not an integer" % v)
        if minimum is not None and v < minimum:
            fail(path, "%s is below %s" % (v, minimum))
        if maximum is not None and v > maximum:
            fail(path, "%s is above %s" % (v, maximum))
    return check


def string(null=True):
    def check(v, path):
        if v is None and null:
            return
        if not isinstance(v, str):
            fail(path, "%s is not a string" % json.dumps(v)[:40])
    return check


def boolean(v, path):
    if v is not None and not isinstance(v, bool):
        fail(path, "%s is not true, false or null" % json.dumps(v)[:40])


def array(item, null=True, length=None):
    def check(v, path):
        if v is None and null:
            return
        if not isinstance(v, list):
            fail(path, "is not an array")
        if length is not None and len(v) != length:
            fail(path, "has %d entries, not %d" % (len(v), length))
        for i, x in enumerate(v):
            item(x, "%s[%d]" % (path, i))
    return check


def obj(fields, required=(), null=True):
    """An object: @fields maps key -> checker; unknown keys are allowed."""
    def check(v, path):
        if v is None and null:
            return
        if not isinstance(v, dict):
            fail(path, "is not an object")
        for k in required:
            if k not in v:
                fail(path, "no key \"%s\"" % k)
        for k, c in fields.items():
            if k in v:
                c(v[k], "%s.%s" % (path, k))
    return check


def anything(v, path):  # pylint: disable=unused-argument
    pass


def one_of(values, null=True):
    def check(v, path):
        if v is None and null:
            return
        if v not in values:
            fail(path, "%s is not one of %s" % (json.dumps(v)[:40], ", ".join(values)))
    return check


def percentiles(v, path):
    if v is None:
        return
    if not isinstance(v, dict):
        fail(path, "is not an object")
    for k, x in v.items():
        try:
            p = float(k)
        except ValueError:
            p = -1.0
        if not 0 <= p <= 100:
            fail(path, "key \"%s\" is not a percentile" % k[:40])
        num()(x, "%s.\"%s\"" % (path, k))


N = num()
DIRECTION_FIELDS = {"ios": N, "bytes": N, "iops": N, "bw_bytes": N, "lat_min_ns": N,
                    "lat_mean_ns": N, "lat_max_ns": N, "percentiles": percentiles}
# a thread count or a queue depth: the renderer multiplies them (T x Q)
LOAD_MAX = 1 << 20
LOAD = num(null=False, minimum=1, maximum=LOAD_MAX, integer=True)
# the keys that sweep.json, curve.json and scale.json share: the run, the
# device; sweep.json and curve.json: the settings of the workload
COMMAND_FIELDS = {
    "format": string(null=False), "format_version": anything, "ssdload_version": string(),
    "command": string(), "started": string(), "finished": string(),
    "state": string(null=False),
    "device": obj({"path": string(), "model": string(), "serial": string(),
                   "firmware": string(), "capacity_bytes": N}, null=False),
}
# --precondition's record (sweep, curve, scale): the mode, what it wrote
# (the promise, the bytes the runs wrote), its time, each device's passes
PRECONDITION = obj({
    "mode": string(null=False), "span": string(), "bytes_promised": N, "bytes_written": N,
    "duration_ms": N, "complete": boolean,
    "devices": array(obj({"path": string(), "span_bytes": N, "capacity_bytes": N,
                          "whole_device": boolean, "bytes_promised": N,
                          "bytes_written": N, "duration_ms": N, "complete": boolean,
                          "passes": array(obj({"what": string(), "bytes": N})),
                          "wdpc": obj({"rounds": N, "steady": boolean})}, null=False)),
}, required=("mode",))
COMMAND_FIELDS["precondition"] = PRECONDITION
COMMAND_FIELDS["section"] = string()
COMMAND_REQUIRED = ("format", "format_version", "state", "device", "settings", "points")
WORKLOAD_SETTINGS = {
    "filename": string(), "rw": string(), "bs": num(minimum=1, integer=True),
    "rwmixread": num(minimum=0, maximum=100), "numjobs": num(minimum=1, integer=True),
    **{k: num(minimum=0) for k in ("ramp_ms", "runtime_ms")},
}

# a latency, a rate, a size; a count of I/Os
LAT = num(minimum=0)
COUNT = num(minimum=0, integer=True)


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


def text(v):
    return NA if v is None or v == "" else str(v)


def mpl_text(s):
    """@s shown literally by matplotlib (a "$" would start mathtext)."""
    return s.replace("$", "\\$")


def ms(ns):
    """@ns in milliseconds, or None."""
    return None if ns is None else ns / 1e6


def fmt_ms_value(ns):
    """A response time in ns shown in ms: 1.20 ms."""
    return NA if ns is None else "%s ms" % fmt_value(ns / 1e6)


def csv_cell(v):
    """A JSON number exactly as read (shortest repr), a string as it is;
    null is an empty cell."""
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


# --------------------------------------------------------------------------
# the result of an ssdload command (sweep, curve, compare, scale)

class CommandResult:
    """The validated sweep.json, curve.json, compare.json or scale.json, as
    Run is pts.json: a workload's points, run by the ssdload command COMMAND."""

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


# --------------------------------------------------------------------------
# the plots

# the line styles of the runs (compare) or the depths (scale), in order
LINE_STYLES = ("-", "--", ":", "-.")


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
    def legend(ax, title=None):
        """The legend beside @ax, on its right (under @title if given)."""
        kw = {"title": title, "title_fontsize": 7} if title else {}
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), **kw)

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
    def label_bars(ax, bars, values, fontsize=6.5):
        """Each bar of @bars labelled above with its value of @values."""
        for rect, y in zip(bars, values):
            ax.annotate(fmt_value(y), (rect.get_x() + rect.get_width() / 2, rect.get_height()),
                        ha="center", va="bottom", fontsize=fontsize, xytext=(0, 2),
                        textcoords="offset points")

    @staticmethod
    def bar_axes(ax, labels, xlabel, ylabel, **tick_kw):
        """The axes of bars in groups: a group per label of @labels (its
        ticks drawn with @tick_kw), y with room for the bars' labels."""
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, **tick_kw)
        ax.set_xlim(-0.6, len(labels) - 0.4)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.margins(y=0.12)

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


def nan(v):
    """@v to plot: None (unknown) is a gap in the line."""
    return math.nan if v is None else v


def us(ns):
    """@ns in microseconds, or None."""
    return None if ns is None else ns / 1e3


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


# --------------------------------------------------------------------------
# the files: the output directory's owner, atomic writes, the CSV tables

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


def us_cell(ns):
    """A table cell of the latency @ns in microseconds."""
    return cell(ns, fmt_value(us(ns)))


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
    """report.html: a list of pages, each with the header block (a report
    kind's titles() and header_block())."""

    def __init__(self, run):
        self.run = run
        self.doc = run.doc
        self.pages = []

    def page(self, title, *parts):
        p = Page(title)
        p.add(*parts)
        self.pages.append(p)
        return p

    def run_page(self, command, files, note, *parts):
        """The last page: the command, the data files (links), @note, @parts."""
        self.page("Run", command_html(command),
                  "<h2>Data</h2><ul>%s</ul>" % "".join(
                      '<li><a href="%s">%s</a></li>' % (esc(f), esc(f)) for f in files),
                  *parts, '<p class="note">%s</p>' % esc(note))

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
    """report.html of an ssdload command's result (run: a CommandResult, or a
    RunStudy): the header block, the banner of a run not done."""

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

    def precondition_rows(self):
        """[(key, value)] of --precondition and --section, where the command
        took them (none: "none")."""
        doc, rows = self.doc, []
        if "precondition" in doc:
            pc = doc["precondition"]
            if pc is None:
                rows.append(("Preconditioning", "none"))
            else:
                wdpc = [x["wdpc"] for x in pc.get("devices") or [] if x.get("wdpc")]
                part = [x for x in pc.get("devices") or [] if x.get("whole_device") is False]
                rows.append(("Preconditioning", "%s: %s written in %s%s%s%s" % (
                    pc["mode"], fmt_bytes(pc.get("bytes_written")), fmt_ms(pc.get("duration_ms")),
                    "".join(", over the first %s of %s (--precondition-span=%s), not the "
                            "whole device" % (fmt_bytes(x.get("span_bytes")),
                                              text(x.get("path")), text(pc.get("span")))
                            for x in part),
                    "".join(", WDPC %s rounds, %s" % (text(w.get("rounds")),
                                                       "steady" if w.get("steady") else
                                                       "not steady") for w in wdpc),
                    "" if pc.get("complete", True) else " (not complete)")))
        if "section" in doc:
            rows.append(("Section measured", "first %s of the device" % doc["section"]
                         if doc["section"] else "whole span"))
        return rows

    def header_block(self):
        doc, d = self.doc, self.doc["device"]
        dev = [("Model", text(d.get("model"))), ("Serial", text(d.get("serial"))),
               ("Firmware", text(d.get("firmware"))),
               ("Capacity", fmt_bytes(d.get("capacity_bytes"))), ("Device", text(d.get("path")))]
        run = [("State", doc["state"]), ("Started", text(doc.get("started"))),
               ("Finished", text(doc.get("finished"))),
               ("Points", str(len(self.run.all_points()))),
               ("ssdload", text(doc.get("ssdload_version")))]
        dev += self.precondition_rows()
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
