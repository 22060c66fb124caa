# SPDX-License-Identifier: GPL-2.0
"""scale.json (`ssdload scale`, drive and RAID scaling): its checks, its
targets and points (Scale), its plots, its CSV table, its page.
"""
import os

from .common import (COMMAND_FIELDS, COMMAND_REQUIRED, COUNT, CommandReport, CommandResult, LAT,
                     LINE_STYLES, LOAD, N, NA, Plotter, array, boolean, cell, data_table, esc,
                     fmt_bs, fmt_bytes, fmt_int, fmt_ms, fmt_value, get, mpl_text, nan, num, obj,
                     one_of, plot_img, string, text, us, us_cell, write_csv)

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
