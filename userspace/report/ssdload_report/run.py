# SPDX-License-Identifier: GPL-2.0
"""run.json (a plain `ssdload run`'s JSON, fio's schema): a run as the
comparison reads it (FioRun), its latency study (RunStudy), its plots,
its CSV tables, its page.
"""
import json
import math
import os

from .common import (COUNT, Cell, CommandReport, LAT, NA, Plotter, array, boolean, cell,
                     data_table, esc, fail, fmt_int, fmt_pct, fmt_value, get, header_html,
                     latency_points, log_density, mpl_text, nines, num, obj, one_of, percentiles,
                     plot_img, state_banner, string, text, us, us_cell, write_csv)

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

    def verify(self):
        """The job's verify pass (ssdload.verify of the first entry with
        one: the job-wide object), or None without verify."""
        for j in self.jobs:
            v = get(j, "ssdload", "verify")
            if isinstance(v, dict):
                return v
        return None

    @property
    def quiet(self):
        return self.state == "done"


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


def latency_bins(v, path):
    """json+'s bins: {"latency in ns": I/Os, ...}."""
    obj({})(v, path)
    for k, x in (v or {}).items():
        if not (k.isascii() and k.isdigit() and len(k) <= 20):
            fail(path, "key \"%s\" is not a latency in ns" % k[:40])
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
        fail(path, "has a \"format\" (%s): not the JSON of ssdload run, whose schema "
              "(fio's) has none" % json.dumps(v["format"])[:40])
    RUN_DOC(v, path)
    if not v["jobs"]:
        fail(path + ".jobs", "is empty (no job entry)")
    for i, j in enumerate(v["jobs"]):
        where = "%s.jobs[%d]" % (path, i)
        if not any(isinstance(j.get(d), dict) for d in FioRun.DIRS):
            fail(where, "has no \"read\", \"write\" nor \"trim\" object")
        RUN_JOB(j, where)
    RUN_STUDY(v, path)


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

    VERIFY_CLASSES = ("corrupt", "misplaced", "stale", "foreign", "read_error")
    VERIFY_ROWS = (("type", "checksum"), ("state", "pass"), ("interval", "unit (bytes)"),
                   ("written", "blocks written"), ("checked", "blocks checked"),
                   ("units", "units checked"), ("ambiguous", "ambiguous blocks"),
                   ("failed", "failed units"))

    def verify_tables(self):
        """The verify pass (Documentation/verify.rst): its counts, failures
        per class, then the first failures; nothing without verify."""
        v = self.run.verify()
        if v is None:
            return ""
        rows = [[name, text(v.get(k))] for k, name in self.VERIFY_ROWS]
        rows += [["failed units: " + c.replace("_", " "),
                  Cell('<td class="%s">%s</td>' % ("fail" if v.get(c) else "pass",
                                                   esc(text(v.get(c)))))]
                 for c in self.VERIFY_CLASSES]
        rows.append(["generation map (bytes)", text(v.get("map_bytes"))])
        out = data_table(["verify", "value"], rows, caption="Verify: the blocks read back "
                         "after the writes", tid="verify")
        fails = [f for f in v.get("failures") or [] if isinstance(f, dict)]
        if fails:
            out += data_table(["sector", "class", "detail"],
                              [[text(f.get("lba")), text(f.get("class")),
                                " ".join("%s=%s" % (k, x) for k, x in f.items()
                                         if k not in ("lba", "class"))] for f in fails],
                              caption="The first %d failures" % len(fails),
                              tid="verify-failures")
        return out

    def verify_banner(self):
        v = self.run.verify()
        failed = v.get("failed") if v else None
        if not failed:
            return ""
        return ('<div class="banner bad" id="verify-failed"><h2>verify: %s units failed'
                "</h2>%s</div>" % (esc(text(failed)), esc(", ".join(
                    "%s %s" % (text(v.get(c)), c.replace("_", " "))
                    for c in self.VERIFY_CLASSES if v.get(c)))))

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
        self.page("Summary", self.banners(), self.verify_banner(), self.headline_table(),
                  self.check_table(), self.verify_tables())
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
