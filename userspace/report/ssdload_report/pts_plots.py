# SPDX-License-Identifier: GPL-2.0
"""The plots of a pts run (pts.json)."""
import math

from .common import (NA, Plotter, fmt_bs, fmt_g, fmt_mix, fmt_ms, fmt_ms_value, fmt_value, get,
                     mpl_text, ms, text)
from .pts import (METRICS, TABLE_PERCENTILES, bucket_label, fmt_load, percentile_rows, rt_buckets,
                  scale, unit)


class PtsPlotter(Plotter):
    """The plots of a pts run (run: a Run)."""

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
        self.legend(ax)
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
        self.legend(ax)
        self.save(fig, "ss_window.svg")

    # ---- iops

    def matrix_figure(self, title, **kw):
        """The result points of a matrix test, their mixes and block sizes and
        a figure titled @title; None without points."""
        pts = self.run.result_points()
        if not pts:
            return None
        mixes, bss = self.run.axes(pts)
        return (pts, mixes, bss) + self.figure(title, **kw)

    def iops_2d(self):
        fig = self.matrix_figure("IOPS vs Block Size (measurement window)")
        if not fig:
            return
        pts, mixes, bss, fig, ax = fig
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
        self.legend(ax, "R/W mix %")
        self.save(fig, "iops_2d.svg")

    def iops_3d(self):
        fig = self.matrix_figure("IOPS: R/W mix \u00d7 block size (measurement window)",
                                 w=8.0, h=5.6, projection="3d")
        if not fig:
            return
        pts, mixes, bss, fig, ax = fig
        # the viewer looks from +x, -y: the large blocks (x) and the writes (y)
        # with the lowest IOPS stand in front, the tall bars behind them
        mixes = mixes[::-1]
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
        fig = self.matrix_figure(title)
        if not fig:
            return
        pts, mixes, bss, fig, ax = fig
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
            self.label_bars(ax, bar, ys)
        self.bar_axes(ax, [fmt_bs(b) for b in bss], "block size", ylabel)
        self.legend(ax, "R/W mix %")
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
        self.legend(ax)
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

    @staticmethod
    def steady_axes(ax, steady, xlabel, word="steady state", color="black", zero=True):
        """The steady state's IOPS as a line labelled @word (if known) and the
        IOPS axes, from 0 if @zero."""
        if steady is not None:
            ax.axhline(steady, color=color, linestyle="--", linewidth=1,
                       label="%s %s" % (word, fmt_value(steady)))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("IOPS")
        if zero:
            ax.set_ylim(bottom=0)

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
        self.steady_axes(ax, steady, "time from the first wait state (s)")
        self.legend(ax)
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
        self.steady_axes(ax, steady, "wait state: idle time between access segments (s)")
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
        self.legend(ax)
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
        self.legend(ax, "thread count")
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
        self.legend(ax, "thread count")
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
        self.legend(ax)
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
        self.legend(ax)
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
        self.legend(ax)
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
            self.steady_axes(ax, steady, xlabel, "steady IOPS", "#d62728", zero=False)
            ax.legend(fontsize=7)
            self.save(fig, name)
