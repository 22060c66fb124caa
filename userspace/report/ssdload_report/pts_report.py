# SPDX-License-Identifier: GPL-2.0
"""report.html of a pts run (pts.json), laid out like the report pages of
SNIA SSS PTS 2.0.2.
"""
from .common import (NA, Report, cell, data_table, esc, fmt_bs, fmt_bytes, fmt_g, fmt_int, fmt_mix,
                     fmt_ms, fmt_ms_value, fmt_pct, fmt_value, get, header_html, ms, plot_img,
                     state_banner, text)
from .pts import (MATRIX_TESTS, TABLE_PERCENTILES, fmt_bssplit, fmt_load, fmt_metric, fmt_temp,
                  fmt_zones, percentile, percentile_rows, scale, unit)


def offset_alignment(s):
    """The settings' offset alignment: one value and its rule, or, when the
    block sizes were aligned differently, each block size's and why."""
    by = s.get("blockalign_by_bs") or {}
    why = s.get("blockalign_why_by_bs") or {}
    if len(set(by.values())) <= 1:
        return "%s B%s" % (fmt_int(s["blockalign"]), " (%s)" % s["blockalign_rule"]
                           if s.get("blockalign_rule") else "")
    lbs = s.get("logical_block_size")
    parts = ["%s: %s B%s" % (fmt_bs(int(bs)), fmt_int(ba),
                             " (%s)" % why[bs] if why.get(bs) else "")
             for bs, ba in sorted(by.items(), key=lambda kv: int(kv[0]))]
    return "; ".join(parts) + ("" if lbs is None else
                               " (device logical block: %s B)" % fmt_int(lbs))

class PtsReport(Report):
    """report.html of a pts run (run: a Run)."""

    # ---- the header block of every page

    def header_block(self):
        doc, s, d = self.doc, self.run.settings, self.doc["device"]
        lbaf = d.get("lba_format")
        wc = d.get("write_cache") or {}
        purge, wipc, wdpc = doc.get("purge"), doc.get("wipc"), doc.get("wdpc")
        threads, qd = s.get("threads"), s.get("iodepth")
        dev = [("Model", text(d.get("model"))), ("Serial", text(d.get("serial"))),
               ("Firmware", text(d.get("firmware"))),
               ("Capacity", fmt_bytes(d.get("capacity_bytes"))),
               ("LBA format", NA if not lbaf else "#%s: %s data + %s metadata bytes" % (
                   text(lbaf.get("index")), text(lbaf.get("data_bytes")),
                   text(lbaf.get("metadata_bytes")))),
               ("Write cache", "before: %s, during: %s (requested: %s)" % (
                   text(wc.get("before")), text(wc.get("during")), text(wc.get("requested")))),
               ("Device", "%s (%s)" % (text(d.get("path")), text(d.get("kind"))))]
        test = [("Test", "%s (%s)" % (text(doc.get("title") or self.run.test),
                                      text(doc.get("variant")))),
                ("Specification", doc["spec"] + (", clause %s" % doc["clause"]
                                                 if doc.get("clause") else "")),
                ("State", doc["state"]), ("Started", text(doc.get("started"))),
                ("Finished", text(doc.get("finished"))),
                ("ssdload", text(doc.get("ssdload_version")))]
        rng = s.get("active_range_bytes")
        sett = [("Pattern", text(s.get("pattern"))),
                ("TC (threads)", text(threads)),
                ("QD (per thread)", "%s (outstanding: %s)" % (
                    text(qd), NA if threads is None or qd is None else int(threads * qd))),
                ("Active range", "%s, %s of the capacity, offset %s" % (
                    fmt_bytes(rng), fmt_pct(s.get("active_range_pct")),
                    fmt_int(s.get("offset_bytes"))))]
        if s.get("blockalign") is not None:
            sett.append(("Offset alignment", offset_alignment(s)))
        if self.run.test == "wsat":
            sett += [("Sample time", fmt_ms(s.get("sample_ms"))),
                     ("Duration limit", fmt_ms(s.get("duration_ms"))),
                     ("Write limit", fmt_bytes(s.get("max_written_bytes")))]
        elif self.run.test == "xsr":
            sett += [("Sample time", fmt_ms(s.get("sample_ms"))),
                     ("Groups", "; ".join("%s %s" % (text(get(g, "label")),
                                                     fmt_ms(get(g, "duration_ms")))
                                          for g in s.get("groups") or []))]
        elif self.run.demand:
            sett[1:3] = [("TC \u00d7 QD", "TC %s \u00d7 QD %s, high to low TOIO" % (
                ", ".join(str(x) for x in s.get("tc_list") or []) or NA,
                ", ".join(str(x) for x in s.get("qd_list") or []) or NA))]
            sett[2:2] = [("R/W mix", ", ".join(fmt_mix(m) for m in s.get("rwmixread") or [])
                          or NA),
                         ("Block size", fmt_bssplit(s["bssplit"]) if s.get("bssplit") else
                          ", ".join(fmt_bs(b) for b in s.get("block_sizes") or []) or NA),
                         ("Access", fmt_zones(s.get("random_distribution")))]
            sett += [("Point duration", "%s (spec: %s)" % (fmt_ms(s.get("point_ms")),
                                                           fmt_ms(s.get("spec_point_ms")))),
                     ("Rounds", self.rounds_text()),
                     ("Tracking", self.run.track_label),
                     ("ART limit", fmt_ms_value(s.get("art_limit_ns")))]
        elif self.run.test == "hir":
            sett += [("Sample time", fmt_ms(s.get("sample_ms"))),
                     ("Access segment", "%s, %s cycles per wait state" % (
                         fmt_ms(s.get("access_ms")), text(s.get("cycles")))),
                     ("Wait states", ", ".join(fmt_ms(x) for x in s.get("wait_ms") or [])),
                     ("Tracking", self.run.track_label)]
        else:
            sett += [("Point duration", "%s (spec: %s)" % (fmt_ms(s.get("point_ms")),
                                                           fmt_ms(s.get("spec_point_ms")))),
                     ("Rounds", self.rounds_text()),
                     ("Tracking", self.run.track_label)]
        if self.run.demand:
            pc = doc.get("precondition") or {}
            wdpc_text = "%s segments of %s samples at %s, %s written (%s)" % (
                text(pc.get("segments")), text(s.get("segment_samples")),
                self.run.top_load(), fmt_bytes(pc.get("written_bytes")),
                fmt_ms(pc.get("duration_ms"))) if pc else NA
        elif wdpc is None and self.run.rounds:
            # the tests whose rounds are their workload-dependent preconditioning
            durs = [r.get("duration_ms") for r in self.run.rounds]
            wdpc_text = "%d rounds, %s (the test's rounds)" % (
                len(durs), NA if None in durs else fmt_ms(sum(durs)))
        elif wdpc is None:
            wdpc_text = NA
        else:
            wdpc_text = "%s rounds, %s" % (text(wdpc.get("rounds")),
                                           fmt_ms(wdpc.get("duration_ms")))
        pre = [("Purge", NA if not purge else "%s%s" % (
                   text(purge.get("method")),
                   "" if purge.get("conformant") is not False else
                   " (not conformant: %s)" % text(purge.get("not_conformant_why"))
                   if purge.get("not_conformant_why") else " (not conformant)")),
               ("Purge detail", text(get(purge, "detail"))),
               ("Purge duration", fmt_ms(get(purge, "duration_ms"))),
               ("WIPC", "not run" if wipc is None and "wipc" in doc and doc["state"] == "complete"
                else NA if not wipc else "%s in %s SEQ writes" % (
                    fmt_bytes(wipc.get("bytes")),
                    NA if wipc.get("bs") is None else fmt_bs(wipc["bs"]))),
               ("WIPC duration", fmt_ms(get(wipc, "duration_ms"))),
               ("WDPC", wdpc_text)]
        tags = []
        if self.run.not_conformant:
            tags.append('<span class="tag bad">NOT CONFORMANT</span>')
        elif doc.get("conformant") is True:
            tags.append('<span class="tag ok">conformant</span>')
        if doc.get("scaled"):
            tags.append('<span class="tag bad">SCALED RUN</span>')
        if doc["state"] != "complete":
            tags.append('<span class="tag warn">%s</span>' % esc(doc["state"].upper()))
        return header_html((("Device under test", dev), ("Test", test), ("Settings", sett),
                            ("Preconditioning", pre)), tags)

    def rounds_text(self):
        """The Rounds row: run, limits and which rounds the window averages,
        marked when not the spec's (5 rounds where steady state is reached)."""
        s = self.run.settings
        ch = get(self.run.results, "window_choice") or {}
        k = ch.get("rounds", s.get("window"))
        at = ch.get("at", s.get("window_at", "steady"))
        out = "%d run, limit %s" % (len(self.run.rounds), text(s.get("max_rounds")))
        if s.get("min_rounds"):
            out += ", at least %s" % text(s["min_rounds"])
        out += ", window %s %s" % (text(k), "where steady state was reached"
                                   if at == "steady" else "at the last rounds run")
        win = get(self.run.results, "window")
        if win:
            out += " (rounds %s..%s)" % (text(win[0]), text(win[1]))
        if k != s.get("spec_window", 5) or at != "steady":
            out += ": NOT the spec's window (%s rounds where steady state was reached)" % \
                text(s.get("spec_window", 5))
        if ch.get("percentiles") == "highest of the rounds":
            out += "; percentiles: the highest of the rounds' (no histograms recorded)"
        return out

    # ---- banners and verdict

    def banners(self):
        doc, out = self.doc, []
        state = doc["state"]
        if state != "complete":
            what = {
                "running": "the test is still running: this is a partial report",
                "interrupted": "the test was interrupted: this is a partial report "
                               "(continue it with ssdload pts --resume=DIR)",
                "failed": "the test failed: this is a partial report",
            }.get(state, "the test is not complete: this is a partial report")
            out.append(state_banner(state, "%s (pts.json updated %s)" % (
                what, text(doc.get("updated")))))
        if self.run.not_conformant:
            devs = doc.get("deviations") or []
            out.append('<div class="banner bad"><h2>NOT CONFORMANT</h2>'
                       "This run deviates from %s; its results must not be reported as "
                       "PTS results.%s</div>" % (
                           esc(doc["spec"]),
                           "<ul>%s</ul>" % "".join("<li>%s</li>" % esc(x) for x in devs)
                           if devs else " (no deviations listed)"))
        elif doc.get("conformant") is None:
            out.append('<div class="banner warn"><h2>Conformance: n/a</h2>'
                       "pts.json does not say whether the run conforms.</div>")
        if doc.get("scaled"):
            out.append('<div class="banner bad"><h2>SCALED RUN</h2>'
                       "The test's durations or sizes were scaled down for a short run: its "
                       "numbers are not comparable with a full run's.</div>")
        return "".join(out)

    def xsr_table(self):
        res = self.run.results or {}
        rows = []
        for g in res.get("groups") or []:
            bw, lm, lx = g.get("bw_bytes"), g.get("lat_mean_ns"), g.get("lat_max_ns")
            rows.append([text(g.get("group")), text(g.get("label")), fmt_ms(g.get("duration_ms")),
                         cell(bw, fmt_value(None if bw is None else bw / 1e6)),
                         cell(g.get("iops"), fmt_value(g.get("iops"))),
                         cell(lm, fmt_value(None if lm is None else lm / 1e3)),
                         cell(lx, fmt_value(None if lx is None else lx / 1e3))])
        out = [data_table(["group", "stimulus", "time", "throughput (MB/s)", "IOPS",
                           "average response time (\u00b5s)", "maximum (\u00b5s)"], rows,
                          caption="Cross stimulus recovery", tid="xsr")]
        ref, rec = res.get("reference_bw_bytes"), res.get("recovery_ms")
        if ref is not None:
            out.append('<p class="note">Recovery: %s.</p>' % esc(
                "group 3 reached the throughput of group 1's last 30 samples (%s MB/s) after %s"
                % (fmt_value(ref / 1e6), fmt_ms(rec)) if rec is not None else
                "group 3 never reached the throughput of group 1's last 30 samples (%s MB/s)"
                % fmt_value(ref / 1e6)))
        return "".join(out)

    def hir_table(self):
        wss = self.doc.get("wait_states") or []
        rs = {w.get("state"): w for w in get(self.run.results, "wait_states") or []}
        rows = []
        for w in wss:
            a, b = get(w, "access", "iops"), get(w, "baseline", "iops")
            v = get(rs.get(w["state"]), "vs_precondition")
            rows.append([str(w["state"]), fmt_ms(w.get("wait_ms")),
                         text(w.get("cycles")), cell(a, fmt_value(a)), cell(b, fmt_value(b)),
                         cell(v, NA if v is None else "%.1f%%" % (100 * v))])
        return data_table(["wait state", "wait", "cycles", "access IOPS (mean)",
                           "baseline IOPS (mean)", "access vs steady state"], rows,
                          caption="Host idle recovery", tid="hir")

    # ---- ecw, dirth

    def demand_matrix(self, key, caption, tid, div=1.0):
        """Rows TC (high to low), columns QD: point[@key] / @div."""
        pts = self.run.demand_points()
        if not pts:
            return '<p class="note">No measurement window yet: no results.</p>'
        tcs, qds = self.run.loads(pts)
        rows = []
        for t in tcs:
            row = ["TC %d" % t]
            for q in qds:
                v = get(pts.get((t, q)), key)
                row.append(cell(v, fmt_value(None if v is None else v / div)))
            rows.append(row)
        return data_table(["TC \\ QD"] + ["QD %d" % q for q in qds], rows, caption=caption,
                          tid=tid)

    def ops_table(self, tid="operating-points"):
        ops = self.run.ops
        if not ops:
            return ('<p class="note">No operating points yet: they are chosen from the '
                    "measurement window once the rounds are done.</p>")
        rows = []

        def ms_cell(ns):
            return cell(ns, fmt_value(ms(ns)))
        for o in ops:
            m = o.get("measure")
            pw = get(o, "prewrite", "iops")
            if o.get("skipped"):
                note = "skipped: %s" % o["skipped"]
            elif m is None:
                note = "not measured yet"
            else:
                note = "measured %s (%s)" % (fmt_ms(m.get("runtime_ms")),
                                             text(m.get("run_file")))
            rows.append([text(o.get("label")), fmt_load(o.get("tc"), o.get("qd")),
                         cell(get(m, "toio"), text(get(m, "toio"))),
                         cell(o.get("window_iops"), fmt_value(o.get("window_iops"))),
                         ms_cell(o.get("window_lat_mean_ns")),
                         cell(pw, fmt_value(pw)),
                         cell(get(m, "iops"), fmt_value(get(m, "iops"))),
                         ms_cell(get(m, "lat_mean_ns"))] +
                        [ms_cell(percentile(get(m, d), q)) for d in ("read", "write")
                         for q in (99.0, 99.99)] +
                        [ms_cell(get(m, "lat_max_ns")), note])
        return data_table(["operating point", "load", "TOIO", "window IOPS",
                           "window ART (ms)", "pre-write IOPS", "IOPS", "ART (ms)",
                           "read p99 (ms)", "read p99.99 (ms)", "write p99 (ms)",
                           "write p99.99 (ms)", "MRT (ms)", "note"], rows,
                          caption="Operating points (MaxIOPS: the most IOPS with an ART under "
                          "%s; MidIOPS: under it, the nearest to the middle of their IOPS; "
                          "MinIOPS: the lowest load)" % fmt_ms_value(
                              self.run.settings.get("art_limit_ns")),
                          tid=tid)

    def cpu_table(self, tid="cpu-utilisation"):
        """ecw, dirth: the CPU utilisation of each TC (window) and operating point."""
        rows = []

        def pct(v):
            return cell(v, fmt_value(v))
        cpu = self.run.window_cpu()
        for tc in sorted(cpu, reverse=True):
            c = cpu[tc]
            rows.append(["TC %s, QD %s" % (text(tc), ", ".join(
                str(q) for q in self.run.settings.get("qd_list") or []) or NA),
                "window (%d rounds)" % c["rounds"], pct(c["usr_pct"]), pct(c["sys_pct"]),
                pct(None if c["usr_pct"] is None else c["usr_pct"] + c["sys_pct"]),
                pct(c["host_pct"])])
        for o in self.run.ops:
            c = get(o, "measure", "cpu")
            if not c:
                continue
            usr, sys_ = c.get("usr_pct"), c.get("sys_pct")
            rows.append([fmt_load(c.get("tc"), c.get("qd")), text(o.get("label")),
                         pct(usr), pct(sys_), pct(None if usr is None or sys_ is None
                                                   else usr + sys_),
                         pct(c.get("host_pct"))])
        if not rows:
            return ('<p class="note">No CPU figures: the rounds were recorded without '
                    "them.</p>")
        return data_table(["load", "measured", "user (%)", "system (%)", "total (%)",
                           "of the host's CPUs (%)"], rows,
                          caption="CPU utilisation of the workers (ssdload's kernel threads: "
                          "their own CPU time, user and system, as % of their run time; "
                          "the last column as % of all the host's online CPUs)", tid=tid)

    def demand_settings(self):
        s, run = self.run.settings, self.run
        pc = self.doc.get("precondition") or {}
        rows = [
            ("Stimulus", run.stimulus()),
            ("Block sizes", fmt_bssplit(s["bssplit"]) if s.get("bssplit") else
             ", ".join(fmt_bs(b) for b in s.get("block_sizes") or []) or NA),
            ("Access", fmt_zones(s.get("random_distribution"))),
            ("R/W mix", ", ".join(fmt_mix(m) for m in s.get("rwmixread") or []) or NA),
            ("Thread counts (TC)", ", ".join(str(x) for x in s.get("tc_list") or []) or NA),
            ("Queue depths (QD)", ", ".join(str(x) for x in s.get("qd_list") or []) or NA),
            ("Point duration", fmt_ms(s.get("point_ms"))),
            ("Preconditioning", "0/100 writes at %s in segments of %s samples of %s: %s "
             "segments" % (run.top_load(), text(s.get("segment_samples")),
                           fmt_ms(s.get("sample_ms")), text(pc.get("segments")))),
            ("Between-round pre-write", "%s points of 0/100 writes at %s" % (
                text(s.get("prewrite_points")), run.top_load())),
            ("Operating point pre-write", "%s points of 0/100 writes at its load" %
             text(s.get("op_prewrite_points"))),
            ("Operating point measurement", "%s points" % text(s.get("op_measure_points"))),
            ("ART limit", fmt_ms_value(s.get("art_limit_ns"))),
        ]
        return data_table(["setting", "value"], [list(r) for r in rows],
                          caption="Test settings", tid="demand-settings")

    def prewrites_table(self):
        rows = []
        pws = [("round %d" % r["round"], r["prewrite"]) for r in self.run.rounds
               if r.get("prewrite")]
        pws += [(text(o.get("label")), o["prewrite"]) for o in self.run.ops
                if o.get("prewrite")]
        for name, pw in pws:
            bw = pw.get("bw_bytes")
            rows.append([name, fmt_load(pw.get("tc"), pw.get("qd")),
                         fmt_ms(pw.get("runtime_ms")), str(len(pw.get("samples") or [])),
                         cell(pw.get("ios"), fmt_int(pw.get("ios"))),
                         cell(pw.get("iops"), fmt_value(pw.get("iops"))),
                         cell(bw, fmt_value(None if bw is None else bw / 1e6))])
        if not rows:
            return ""
        return data_table(["before", "load", "time", "samples", "I/Os", "IOPS",
                           "throughput (MB/s)"], rows, caption="Pre-writes (0/100)",
                          tid="prewrites")

    def precondition_verdict(self):
        ss, n = self.run.pre_ss, len(self.doc.get("segments") or [])
        line = self.verdict_rounds(ss, n).replace("rounds", "segments").replace(
            "round", "segment")
        return self.verdict_block(ss, "Preconditioning: " + line, "segment",
                                  "%s 0/100 write IOPS at %s (segment means)" % (
                                      self.run.stimulus(), self.run.top_load()))

    def demand_pages(self):
        """ecw, dirth: the pages before the generic rounds' ones."""
        run, doc = self.run, self.doc
        if doc.get("segments"):
            self.page("Preconditioning", self.precondition_verdict(),
                      plot_img(run, "precondition.svg", "preconditioning IOPS"),
                      self.wsat_segments(doc["segments"]))
        if "steady_state.svg" in run.plots:
            self.page("Steady State", plot_img(run, "steady_state.svg",
                                               "steady state of the preconditioning and the "
                                               "rounds"),
                      '<p class="note">Left: the preconditioning\'s segments (0/100 writes at '
                      "%s); right: the tracking variable of the rounds. The window is "
                      "steady when its range is within %s and its least-squares slope "
                      "within %s of its average.</p>" % (
                          esc(run.top_load()), esc(fmt_pct(run.settings.get("range_limit_pct"))),
                          esc(fmt_pct(run.settings.get("slope_limit_pct")))))
        if "prewrites.svg" in run.plots:
            self.page("Between-Round Pre-Writes",
                      plot_img(run, "prewrites.svg", "between-round pre-writes"),
                      self.prewrites_table())

    def demand_results_pages(self):
        """ecw, dirth: the pages of the measurement window and the operating points."""
        run = self.run
        if run.results:
            self.page("Demand Variation",
                      plot_img(run, "demand_variation.svg", "IOPS vs QD, one line per TC"),
                      self.demand_matrix("iops", "IOPS, measurement window", "demand-iops"))
            self.page("Demand Intensity",
                      plot_img(run, "demand_intensity.svg", "average response time vs IOPS"),
                      self.demand_matrix("lat_mean_ns", "Average response time (ms), "
                                         "measurement window", "demand-art", 1e6),
                      self.demand_matrix("lat_max_ns", "Maximum response time (ms), "
                                         "measurement window", "demand-mrt", 1e6))
            self.page("IOPS and ART vs Total OIO",
                      plot_img(run, "toio.svg", "IOPS and ART vs TOIO"))
            self.page("CPU Utilisation", self.cpu_table())
        if run.ops:
            self.page("Operating Point Pre-Writes",
                      plot_img(run, "op_prewrites.svg", "operating point pre-writes"))
            self.page("Response Time Histograms",
                      plot_img(run, "rt_histogram.svg", "response time histograms"),
                      self.ops_table())

    def wsat_segments(self, segs):
        """One row per segment (an `ssdload run` of up to 30 samples), and the
        spec's steady-state rule over the last five: informative, WSAT runs
        to its limits."""
        rows = [[text(g.get("segment")), fmt_ms(g.get("t_end_ms")),
                 fmt_bytes(g.get("written_end_bytes")),
                 cell(g.get("iops"), fmt_value(g.get("iops")))] for g in segs]
        out = [data_table(["segment", "end", "written", "IOPS (mean)"], rows,
                          caption="Segments", tid="wsat-segments")]
        ss = get(self.run.results, "steady_state")
        if ss:
            out.append('<p class="note">Segments %d\u2013%d (the last five): range %s%%, '
                       "slope excursion %s%% of their average: %s.</p>" % (
                           ss["window"][0], ss["window"][1], fmt_value(ss.get("range_pct")),
                           fmt_value(ss.get("slope_excursion_pct")),
                           "steady" if ss.get("reached") else "not steady"))
        return "".join(out)

    def verdict_line(self):
        run, ss = self.run, self.run.ss
        n = len(run.rounds)
        if run.test in ("wsat", "xsr"):
            return None
        if run.test == "hir":
            n = len(self.doc.get("segments") or [])
            line = self.verdict_rounds(ss, n)
            return line.replace("rounds", "segments").replace("round", "segment")
        return self.verdict_rounds(ss, n)

    def verdict_rounds(self, ss, n):
        run = self.run
        if not ss:
            return "Steady state: not evaluated yet (%d round%s; the window needs %s)" % (
                n, "" if n == 1 else "s", text(run.settings.get("window")))
        first, last = ss["window"]
        if ss.get("reached"):
            return "Steady state reached at round %s (measurement window: rounds %d\u2013%d)" % (
                text(ss.get("round") or last), first, last)
        if self.doc["state"] == "complete":
            return ("Steady state NOT achieved in %s rounds (limit %s); measurement window: "
                    "rounds %d\u2013%d" % (text(ss.get("rounds_run") or n),
                                          text(ss.get("max_rounds")), first, last))
        if ss.get("reached") is None:
            return "Steady state: n/a (last window: rounds %d\u2013%d)" % (first, last)
        return "Steady state not reached yet after %d rounds (last window: rounds %d\u2013%d)" % (
            n, first, last)

    def verdict_block(self, ss=None, line=None, word="round", label=None):
        """The verdict of @ss (the run's steady state, its verdict line by
        default) over the values of @label by @word, with the rule's numbers."""
        run = self.run
        if line is None:
            ss, line = run.ss, self.verdict_line()
        if line is None:
            return ""
        cls = "ok" if ss and ss.get("reached") else "warn"
        out = ['<div class="banner %s"><h2>%s</h2>' % (cls, esc(line))]
        if ss:
            m = run.metric

            def pf(flag):
                if flag is None:
                    return NA
                return '<span class="%s">%s</span>' % (("pass", "pass") if flag else
                                                       ("fail", "fail"))
            rows = [
                ("Tracking variable", esc(label or run.track_label)),
                ("Average", esc(fmt_metric(m, ss.get("average")))),
                ("Range (max \u2212 min)", "%s = %s of the average (limit %s): %s" % (
                    esc(fmt_metric(m, ss.get("range"))), esc(fmt_pct(ss.get("range_pct"))),
                    esc(fmt_pct(ss.get("range_limit_pct"))), pf(ss.get("range_pass")))),
                ("Least-squares fit", "y = %s \u00b7 %s + %s (%s)" % (
                    esc(fmt_g(scale(m, ss.get("slope")), 6)), esc(word),
                    esc(fmt_g(scale(m, ss.get("intercept")), 8)), esc(unit(m)))),
                ("Slope excursion", "%s = %s of the average (limit %s): %s" % (
                    esc(fmt_metric(m, ss.get("slope_excursion"))),
                    esc(fmt_pct(ss.get("slope_excursion_pct"))),
                    esc(fmt_pct(ss.get("slope_limit_pct"))), pf(ss.get("slope_pass")))),
            ]
            # iops: every tracking variable, steady only if all of them are
            for v in ss.get("variables") or []:
                rows.append(("Tracking RND %s %s" % (fmt_bs(v.get("bs") or 0),
                                                     fmt_mix(v.get("rwmixread") or 0)),
                             "range %s, slope excursion %s of the average: %s" % (
                                 esc(fmt_pct(v.get("range_pct"))),
                                 esc(fmt_pct(v.get("slope_excursion_pct"))),
                                 pf(bool(v.get("range_pass") and v.get("slope_pass"))))))
            out.append("<table>%s</table>" % "".join(
                '<tr><td class="k"><b>%s</b></td><td>%s</td></tr>' % (esc(k), v)
                for k, v in rows))
        out.append("</div>")
        return "".join(out)

    # ---- tables

    def matrix_table(self, metric, key, caption, tid, dirs=None):
        """Rows R/W mix, columns block size, of point[@key] in @metric's unit."""
        pts = self.run.result_points()
        if not pts:
            return '<p class="note">No measurement window yet: no results.</p>'
        mixes, bss = self.run.axes(pts)
        rows = []
        for m in mixes:
            row = [fmt_mix(m) + (" (%s)" % dirs[m] if dirs and m in dirs else "")]
            for b in bss:
                v = get(pts.get((m, b)), key)
                row.append(cell(v, fmt_value(scale(metric, v))))
            rows.append(row)
        return data_table(["R/W mix % \\ block size"] + [fmt_bs(b) for b in bss], rows,
                          caption="%s (%s)" % (caption, unit(metric)), tid=tid)

    def rounds_table(self):
        run = self.run
        win = get(run.ss, "window") or [0, -1]
        rows = []
        for r in run.rounds:
            inw = win[0] <= r["round"] <= win[1]
            rows.append([str(r["round"]) + (" \u25c0" if inw else ""), text(r.get("started")),
                         fmt_ms(r.get("duration_ms")),
                         cell(r.get("tracking"), fmt_metric(run.metric, r.get("tracking")))])
            if run.demand:
                pw = get(r, "prewrite", "iops")
                rows[-1].append(cell(pw, fmt_value(pw)))
        return data_table(["round (\u25c0 window)", "started", "duration",
                           run.track_label] + (["pre-write IOPS (%s)" % run.top_load()]
                                               if run.demand else []),
                          rows, caption="Rounds", tid="rounds")

    def window_table(self):
        run, ss = self.run, self.run.ss
        first, last = ss["window"]
        vals = ss.get("values") or []
        rows = []
        for i, x in enumerate(range(first, last + 1)):
            v = vals[i] if i < len(vals) else None
            rows.append([str(x), cell(v, fmt_metric(run.metric, v))])
        return data_table(["segment" if run.test == "hir" else "round", run.track_label], rows,
                          caption="Measurement window values", tid="window")

    def health_table(self):
        """Per-round SMART / health, where the device has it."""
        rounds = [r for r in self.run.rounds
                  if r.get("health_before") or r.get("health_after")]
        rows = []

        def row(label, hb, ha):
            w0, w1 = get(hb, "data_units_written"), get(ha, "data_units_written")
            dw = None if w0 is None or w1 is None else w1 - w0
            return [label, fmt_temp(get(hb, "temperature_k")), fmt_temp(get(ha, "temperature_k")),
                    cell(w0, fmt_int(w0)), cell(w1, fmt_int(w1)),
                    cell(dw, NA if dw is None else "%s (%.4g GB)" % (fmt_int(dw), dw * 512e-6)),
                    text(get(ha, "percentage_used")), text(get(ha, "available_spare")),
                    text(get(ha, "media_errors")), text(get(ha, "critical_warning"))]
        for r in rounds:
            rows.append(row("round %d" % r["round"], r.get("health_before"),
                            r.get("health_after")))
        hb, ha = self.doc.get("health_before"), self.doc.get("health_after")
        if hb or ha:
            rows.append(row("whole run", hb, ha))
        if not rows:
            return ""
        return data_table(["", "temperature before", "temperature after",
                           "data units written before", "after", "written (\u0394)",
                           "% used", "spare %", "media errors", "critical warning"],
                          rows, caption="Device health (NVMe SMART; a data unit is 1000 "
                          "\u00d7 512 bytes)", tid="health")

    def percentile_table(self):
        rows = percentile_rows(self.run)
        if not rows:
            return ""
        keys = sorted({float(k) for _, pc in rows for k in pc})
        cols = [k for k in keys if k in TABLE_PERCENTILES] or keys
        body = []
        for label, pc in rows:
            by = {float(k): v for k, v in pc.items()}
            body.append([label] + [cell(by.get(k), fmt_value(scale("lat_mean_ns", by.get(k))))
                                   for k in cols])
        return data_table(["point"] + ["p%g" % k for k in cols], body,
                          caption="Completion latency percentiles (\u00b5s; the highest of "
                          "the window's rounds)", tid="percentiles")

    # ---- pages

    def build(self, csvs):
        run, doc = self.run, self.doc
        # summary
        summary = [self.banners(), self.verdict_block()]
        if run.test == "iops":
            summary.append(self.matrix_table("iops", "iops", "IOPS, measurement window",
                                             "measurement"))
        elif run.test == "throughput":
            summary.append(self.matrix_table("bw_bytes", "bw_bytes",
                                             "Throughput, measurement window", "measurement",
                                             dirs={100: "read", 0: "write"}))
        elif run.test == "latency":
            summary.append(self.matrix_table("lat_mean_ns", "lat_mean_ns",
                                             "Average latency, measurement window",
                                             "measurement"))
            summary.append(self.matrix_table("lat_max_ns", "lat_max_ns",
                                             "Maximum latency, measurement window",
                                             "measurement-max"))
        elif run.test == "wsat":
            series = doc.get("series") or []
            last = series[-1] if series else {}
            stop = get(run.results, "stopped_by")
            summary.append(data_table(
                ["samples", "time", "written", "steady IOPS", "stopped by"], [[
                    str(len(series)), fmt_ms(last.get("t_ms")),
                    fmt_bytes(last.get("written_bytes")),
                    cell(get(run.results, "steady_iops"),
                         fmt_value(get(run.results, "steady_iops"))),
                    {"write_limit": "the write limit", "time_limit": "the time limit"}.get(
                        stop, text(stop))]],
                caption="Write saturation", tid="wsat"))
            segs = doc.get("segments") or []
            if segs:
                summary.append(self.wsat_segments(segs))
        elif run.test == "hir":
            summary.append(self.hir_table())
        elif run.test == "xsr":
            summary.append(self.xsr_table())
        elif run.demand:
            summary.append(self.ops_table("operating-points-summary"))
            summary.append(self.demand_settings())
        elif run.test not in MATRIX_TESTS:
            summary.append('<p class="note">This renderer has no tables for the %s test; '
                           "the rounds and the steady state are shown.</p>" % esc(run.test))
        self.page("Summary", *summary)
        if run.demand:
            self.demand_pages()

        if run.rounds:
            self.page("Steady State Convergence",
                      plot_img(run, "ss_convergence.svg", "steady state convergence plot"),
                      '<p class="note">Per round: the IOPS of every QD at TC %s (the '
                      "tracking TC), and the tracking variable (dashed).</p>" % esc(text(
                          get(run.settings, "tracking", "tc"))) if run.demand else
                      '<p class="note">Per round: the value of each block size at the '
                      "tracking R/W mix (each mix when the test has one block size), and the "
                      "tracking variable (dashed).</p>", self.rounds_table())
        if run.ss:
            self.page("Steady State Measurement Window", self.verdict_block(),
                      plot_img(run, "ss_window.svg", "steady state measurement window"),
                      self.window_table())
        if run.demand:
            self.demand_results_pages()
        if run.test == "iops" and run.results:
            self.page("Measurement Window Tabular Data",
                      self.matrix_table("iops", "iops", "IOPS, measurement window",
                                        "measurement-iops"))
            self.page("2D Plot", plot_img(run, "iops_2d.svg", "IOPS vs block size"))
            self.page("3D Plot", plot_img(run, "iops_3d.svg",
                                                "IOPS by R/W mix and block size"))
        if run.test == "throughput" and run.results:
            self.page("Measurement Window",
                      self.matrix_table("bw_bytes", "bw_bytes", "Throughput",
                                        "measurement-bw", dirs={100: "read", 0: "write"}),
                      plot_img(run, "throughput_bw.svg", "throughput per block size"))
        if run.test == "latency" and run.results:
            self.page("Average Latency",
                      self.matrix_table("lat_mean_ns", "lat_mean_ns", "Average latency",
                                        "measurement-avg"),
                      plot_img(run, "latency_avg.svg", "average latency"))
            self.page("Maximum Latency",
                      self.matrix_table("lat_max_ns", "lat_max_ns", "Maximum latency",
                                        "measurement-max2"),
                      plot_img(run, "latency_max.svg", "maximum latency"))
            pt = self.percentile_table()
            if pt:
                self.page("Percentiles", pt,
                          plot_img(run, "latency_percentiles.svg", "latency percentiles"))
        if run.test == "hir" and doc.get("segments"):
            self.page("Preconditioning",
                      plot_img(run, "hir_precondition.svg", "preconditioning IOPS"),
                      self.wsat_segments(doc["segments"]))
        if run.test == "hir" and doc.get("wait_states"):
            self.page("IOPS vs Time", plot_img(run, "hir_time.svg", "IOPS vs time"))
            self.page("IOPS vs Wait State", plot_img(run, "hir_wait.svg", "IOPS vs wait state"))
        if run.test == "xsr" and doc.get("series"):
            self.page("Throughput vs Time", plot_img(run, "xsr_bw.svg", "throughput vs time"))
            self.page("Response Time vs Time",
                      plot_img(run, "xsr_lat.svg", "response time vs time"))
        if run.test == "wsat" and doc.get("series"):
            self.page("IOPS vs Time",
                      plot_img(run, "wsat_time.svg", "IOPS vs time"))
            self.page("IOPS vs Total GB Written",
                      plot_img(run, "wsat_tgbw.svg", "IOPS vs total GB written"))
        ht = self.health_table()
        if ht:
            self.page("Device Health", ht)
        self.run_page(" ".join(doc.get("command") or []), ["pts.json"] + csvs,
                      "Rendered by ssdload-report.py from pts.json alone (updated %s)." %
                      text(doc.get("updated")))

    def titles(self):
        """(the document's title, every page's heading, the name beside the
        page numbers)."""
        doc = self.doc
        name = doc.get("title") or self.run.test
        return ("%s: %s test, %s %s" % (doc["spec"], name, text(get(doc, "device", "model")),
                                        text(get(doc, "device", "serial"))),
                name, doc["spec"])
