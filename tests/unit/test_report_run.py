# SPDX-License-Identifier: GPL-2.0
"""userspace/ssdload-report.py: the latency study of a plain `ssdload run`.

DIR/run.json is the JSON of `ssdload run --output-format=json+` (fio's
schema, no "format"), with the top-level latency_study of --latency-table,
--latency-below and --latency-check.  The documents (lib/run_docs.py) are
the real output of the CLI: `ssdload show` of fake debugfs jobs built from
known lognormal samples (lib/debugfs.py's FakeJob: 20,000 reads around
180 us, 6,000 writes around 25 us), with the job options `ssdload run`
writes for the options given; several entries come from numjobs=2 (fio's
clones) or from two jobs' entries in one document (as fio writes several
jobs).

Every expectation is computed here from the JSON, never read back from
the renderer: the histogram's steps are the bins counted into 1/20
decades (their total is the run's I/Os), the exceedance plot's points sit
on the nines axis (read from its ticks) at the bins' cumulative shares,
the circled percentiles on the bins' steps, the promises of
--latency-check at (bound, percentile); the tables and CSV files hold the
JSON's values and mark the percentiles the I/Os do not back.  Bad input is
refused with exit 2 and one line; the report loads in headless Chromium
with no error and every image shown.
"""
import copy
import json
import math
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

import devtools as tb
from report import (PYTHON, report_module, SVG, Html, _set, have_matplotlib, read_csv, snapshot,
                    without_matplotlib)
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)
from run_docs import (CLI, DOCS, PLOTS, bare, clones, intended, jsonplus, passing, plain,
                      render_run, show, two_jobs)


# --------------------------------------------------------------------------
# helpers

def rendered(tmp_path, name, doc=None):
    d = tmp_path / name
    p = render_run(d, doc if doc is not None else DOCS[name]())
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    return d


def check_page(d, csvs):
    """The page, its files and plots: (text, parsed)."""
    text = (d / "report.html").read_text(encoding="utf-8")
    h = Html(text)
    assert h.scripts == 0
    assert "<title>Latency study: randrw 4k QD 1 x 1, /dev/nvme0n1</title>" in text
    assert "ssdload run &middot; page 1 of 4" in text
    assert sorted(h.imgs) == sorted("plots/" + x for x in PLOTS)
    assert sorted(os.listdir(d / "plots")) == sorted(PLOTS)
    assert sorted(h.links) == sorted(["run.json"] + csvs)
    assert all((d / x).is_file() and not x.startswith("/") and ":" not in x
               for x in h.imgs + h.links)
    return text, h


def bins(lat):
    return sorted((int(k), n) for k, n in lat["bins"].items())


def nines(p):
    return -math.log10(1 - p / 100.0)


def need(p):
    return 1 if p >= 100 else math.ceil(100 / (100 - p) - 1e-6)


def value(c):
    return None if c["value"] is None else float(c["value"])


def fit(xs, ys):
    """(a, b, the largest residual) of the least-squares line y = a + b x."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    a = my - b * mx
    return a, b, max(abs(a + b * x - y) for x, y in zip(xs, ys))


def svg_panels(path):
    """Per axes (a panel per direction): {"yticks": [y of each y tick],
    "lines": [{"uses": [(x, y) of its markers], "path": [[(x, y), ...] per
    sub-path]}]}, the axes' own lines in drawing order."""
    root = ET.parse(str(path)).getroot()
    assert root.tag == SVG + "svg"
    out = []
    for ax in root.iter(SVG + "g"):
        if not re.match(r"axes_\d+$", ax.get("id") or ""):
            continue
        panel = {"yticks": [], "lines": []}
        for g in ax.iter(SVG + "g"):
            if re.match(r"ytick_\d+$", g.get("id") or ""):
                panel["yticks"] += [float(u.get("y")) for u in g.iter(SVG + "use")
                                    if u.get("y") is not None]	# not the label's glyphs
        for g in ax.findall(SVG + "g"):
            if not re.match(r"line2d_", g.get("id") or ""):
                continue
            uses = [(float(u.get("x")), float(u.get("y"))) for u in g.iter(SVG + "use")]
            subs = []
            for p in g.findall(SVG + "path"):		# not a marker's <defs>
                for cmd, x, y in re.findall(r"([ML])\s*(-?[\d.e+-]+)\s+(-?[\d.e+-]+)",
                                            p.get("d")):
                    if cmd == "M":
                        subs.append([])
                    subs[-1].append((float(x), float(y)))
            panel["lines"].append({"uses": uses, "path": subs})
        out.append(panel)
    return out


def nines_axis(panel, top):
    """y pixel of a nines value: from the ticks 0, 50, 90, 99, ... up to
    @top, the highest point of every panel (the ticks themselves on one
    line)."""
    want = [0.0, math.log10(2)] + [float(k) for k in range(1, int(math.ceil(top)) + 1)]
    assert len(panel["yticks"]) == len(want), panel["yticks"]
    a, b, res = fit(want, panel["yticks"])
    assert res < 0.01 and b < 0
    return lambda v: a + b * v


def hist_steps(bn, total):
    """The 1/20-decade bins of the bins @bn: [(low, high, %)], counted here."""
    by = {}
    for ns, n in bn:
        k = math.floor(math.log10(ns) * 20)
        by[k] = by.get(k, 0) + n
    return [(10 ** (k / 20), 10 ** ((k + 1) / 20), 100.0 * by.get(k, 0) / total)
            for k in range(min(by), max(by) + 1)]


def check_histogram_line(line, steps):
    """The plotted step line of @steps: a horizontal step per bin with I/Os,
    a gap for each without, heights and edges on the axes' scales."""
    runs, cur = [], []
    for lo, hi, pct in steps:
        if pct:
            cur.append((lo, hi, pct))
        elif cur:
            runs.append(cur)
            cur = []
    runs.append(cur)
    assert [len(s) for s in line["path"]] == [2 * len(r) for r in runs]
    flat = [s for r in runs for s in r]
    verts = [v for s in line["path"] for v in s]
    xs = [math.log10(e / 1e3) for lo, hi, _ in flat for e in (lo, hi)]
    assert fit(xs, [x for x, _ in verts])[2] < 0.01
    pcts = [p for _, _, p in flat for _ in (0, 1)]
    log = max(pcts) / min(pcts) >= 50		# the renderer's rule for a log y axis
    a, b, res = fit([math.log10(p) if log else p for p in pcts], [y for _, y in verts])
    assert res < 0.01 and b < 0, res


# --------------------------------------------------------------------------
# json+ with the whole study

def test_jsonplus(tmp_path):
    doc = jsonplus()
    d = rendered(tmp_path, "jsonplus", doc)
    csvs = ["run.csv", "latency.csv", "latency-below.csv", "latency-check.csv",
            "run-bins.csv"]
    text, h = check_page(d, csvs)
    job, study = doc["jobs"][0], doc["latency_study"]
    # the headline: the JSON's figures
    rows = h.tables["headline"][1:]
    assert [(r[0]["text"], r[1]["text"]) for r in rows] == [("s3700", "read"),
                                                            ("s3700", "write")]
    for r, dr in zip(rows, ("read", "write")):
        x = job[dr]
        assert [value(c) for c in r[2:]] == [x["total_ios"], x["iops"], x["bw_bytes"],
                                             x["clat_ns"]["mean"], x["clat_ns"]["max"]]
    # the percentile table: the study's rows, the unbacked ones marked
    rows = h.tables["percentiles"][1:]
    want = [(dr, r) for dr in ("read", "write") for r in study[dr]["percentiles"]]
    assert len(rows) == len(want) == 18
    for row, (dr, r) in zip(rows, want):
        assert row[1]["text"] == dr and row[3]["text"] == "p%.10g" % r["percentile"]
        assert value(row[4]) == r["value_ns"] and value(row[5]) == r["lo_ns"]
        assert [value(c) for c in row[6:9]] == [study[dr]["ios"], r["ios_beyond"],
                                                r["needs_ios"]]
        assert row[9]["text"] == ("yes" if r["backed"] else
                                  "NO: needs {:,} I/Os".format(r["needs_ios"]))
    # 20,000 reads back p99.99, not p99.999; 6,000 writes p99.9, not p99.99
    assert [r[9]["text"] for r in rows].count("yes") == 7 + 6
    assert text.count('<td class="fail">NO: needs') == 5
    # the conditions, the verdict
    conds = study["check"]["conditions"]
    assert [r[5]["text"] for r in h.tables["check"][1:]] == [
        {"pass": "pass", "fail": "FAIL", "too_few_ios": "FAIL: too few I/Os"}[c["result"]]
        for c in conds]
    assert [c["result"] for c in conds] == ["fail", "fail", "pass", "pass", "pass",
                                            "too_few_ios", "too_few_ios"]
    assert '<div class="banner bad" id="verdict"><h2>latency-check: FAIL</h2>3 of 7' in text
    assert [value(r[1]) for r in h.tables["below"][1:]] == [100000, 1000000] * 2
    assert [value(r[2]) for r in h.tables["below"][1:]] == [
        b["percent"] for dr in ("read", "write") for b in study[dr]["below"]]
    # the CSV files
    lat = read_csv(d / "latency.csv")
    assert lat[0] == ["job", "direction", "latency", "percentile", "value_ns", "lo_ns", "hi_ns",
                      "ios", "ios_beyond", "needs_ios", "backed", "source"]
    assert [(r[1], float(r[3]), int(r[4]), r[10]) for r in lat[1:]] == [
        (dr, r["percentile"], r["value_ns"], json.dumps(r["backed"])) for dr, r in want]
    got = {}
    for r in read_csv(d / "run-bins.csv")[1:]:
        got.setdefault(r[1], []).append((int(r[3]), int(r[4])))
    for dr in ("read", "write"):
        assert got[dr] == bins(job[dr]["clat_ns"])
        assert sum(n for _, n in got[dr]) == job[dr]["total_ios"]
    assert [r[7] for r in read_csv(d / "latency-check.csv")[1:]] == [c["result"]
                                                                   for c in conds]
    assert read_csv(d / "run.csv")[1][:3] == ["s3700", "read", "20000"]
    # the plots
    check_exceedance_bins(d, doc)
    check_histogram(d, doc)


def check_exceedance_bins(d, doc):
    """Each panel: the reported percentiles circled, the promises in range,
    the bins' cumulative shares as a step on the nines axis."""
    job, conds = doc["jobs"][0], doc["latency_study"]["check"]["conditions"]
    panels = svg_panels(d / "plots/run_exceedance.svg")
    assert len(panels) == 2
    top = max(nines(100.0 - 100.0 * bins(job[dr]["clat_ns"])[-1][1] / job[dr]["total_ios"])
              for dr in ("read", "write"))
    for panel, dr in zip(panels, ("read", "write")):
        lat = job[dr]["clat_ns"]
        bn, n = bins(lat), lat["N"]
        pcs = sorted((float(k), v) for k, v in lat["percentile"].items() if n >= need(float(k)))
        promises = [c for c in conds if c["direction"] == dr and
                    re.match(r"(\w+:)?p[\d.]+<", c["condition"]) and
                    bn[0][0] <= c["bound_ns"] <= bn[-1][0]]
        assert [c["condition"] for c in promises] == ["p99.95<500us", "p50<400us"]
        circles, *crosses, line = panel["lines"]
        assert len(crosses) == len(promises)
        steps, cum = [], 0
        for ns, c in bn:
            steps += [(100.0 * cum / n, ns)]
            cum += c
            steps += [(100.0 * cum / n, ns)]
        steps.pop()				# p100 has no place on the nines axis
        y = nines_axis(panel, top)
        assert len(line["uses"]) == len(steps) == 2 * len(bn) - 1
        assert all(abs(u[1] - y(nines(p))) < 0.01 for u, (p, _) in zip(line["uses"], steps))
        a, b, res = fit([math.log10(ns) for _, ns in steps], [u[0] for u in line["uses"]])
        assert res < 0.01 and b > 0
        x = lambda ns: a + b * math.log10(ns)		# noqa: E731
        assert len(circles["uses"]) == len(pcs) and not circles["path"]
        for (cx, cy), (p, ns) in zip(circles["uses"], pcs):
            assert abs(cy - y(nines(p))) < 0.01 and abs(cx - x(ns)) < 0.01
            # on its bin's step: fio's rule, the first bin whose I/Os up to it
            # reach p% (at a bin's edge, long double rounding picks either)
            i = [v for v, _ in bn].index(ns)
            below = sum(c for _, c in bn[:i])
            assert below <= Fraction(p) * n / 100 <= below + bn[i][1]
        for cross, c in zip(crosses, promises):
            (cx, cy), = cross["uses"]
            assert abs(cx - x(c["bound_ns"])) < 0.01
            assert abs(cy - y(nines(float(re.search(r"p([\d.]+)<", c["condition"])[1])))) < 0.01


def check_histogram(d, doc):
    panels = svg_panels(d / "plots/run_histogram.svg")
    assert len(panels) == 2
    m = report_module()
    for panel, dr in zip(panels, ("read", "write")):
        x = doc["jobs"][0][dr]
        bn = bins(x["clat_ns"])
        steps = hist_steps(bn, x["total_ios"])
        # the plotted shares add up to the run's I/Os, counted bin by bin here
        assert sum(p for _, _, p in steps) == pytest.approx(100.0)
        assert m.bins_histogram(bn) == [pytest.approx(s) for s in steps]
        line, = panel["lines"]
        check_histogram_line(line, steps)


# --------------------------------------------------------------------------
# the other documents

def test_plain_json_without_bins(tmp_path):
    """json: the percentiles the I/Os back on the nines axis, the histogram
    derived from them (log_density), no run-bins.csv."""
    doc = plain()
    assert "bins" not in doc["jobs"][0]["read"]["clat_ns"]
    d = rendered(tmp_path, "plain", doc)
    check_page(d, ["run.csv", "latency.csv", "latency-below.csv", "latency-check.csv"])
    m = report_module()
    ex, hi = svg_panels(d / "plots/run_exceedance.svg"), \
        svg_panels(d / "plots/run_histogram.svg")
    backed = {}
    for dr in ("read", "write"):
        lat = doc["jobs"][0][dr]["clat_ns"]
        backed[dr] = sorted((float(k), v) for k, v in lat["percentile"].items()
                            if lat["N"] >= need(float(k)))
    top = max(nines(pcs[-1][0]) for pcs in backed.values())
    for pe, ph, dr in zip(ex, hi, ("read", "write")):
        pcs = backed[dr]
        *_, line = pe["lines"]
        y = nines_axis(pe, top)
        assert len(line["uses"]) == len(pcs)
        assert all(abs(u[1] - y(nines(p))) < 0.01 for u, (p, _) in zip(line["uses"], pcs))
        assert fit([math.log10(ns) for _, ns in pcs], [u[0] for u in line["uses"]])[2] < 0.01
        # % per 1/20 decade: the density per decade of the percentiles / 20
        steps = [(lo, hi, y / 20) for lo, hi, y in m.log_density([list(p) for p in pcs])]
        assert sum(p * 20 * math.log10(b / a) for a, b, p in steps) == \
            pytest.approx(pcs[-1][0] - pcs[0][0])
        line, = ph["lines"]
        check_histogram_line(line, steps)


def test_no_study(tmp_path):
    """No latency option: the entry's own percentile list, each row backed
    by the rule of --latency-table and its I/Os beyond counted from the
    bins, as the CLI's own study counts them; no check, no below."""
    doc = bare()
    assert "latency_study" not in doc
    d = rendered(tmp_path, "bare", doc)
    text, h = check_page(d, ["run.csv", "latency.csv", "run-bins.csv"])
    assert "id=\"verdict\"" not in text and "id=\"check\"" not in text
    keys = sorted(float(k) for k in doc["jobs"][0]["read"]["clat_ns"]["percentile"])
    cli = show("json+", ["--latency-table=" + ":".join("%g" % k for k in keys)])
    rows = h.tables["percentiles"][1:]
    assert len(rows) == 2 * len(keys)
    for dr in ("read", "write"):
        mine = [r for r in rows if r[1]["text"] == dr]
        for row, r in zip(mine, cli["latency_study"][dr]["percentiles"]):
            assert float(row[3]["text"][1:]) == r["percentile"]
            assert value(row[4]) == r["value_ns"]
            assert value(row[7]) == r["ios_beyond"] and value(row[8]) == r["needs_ios"]
            assert (row[9]["text"] == "yes") == r["backed"]
    assert "NO: needs 10,000 I/Os" in text		# the writes' p99.99


def test_clones_use_the_study(tmp_path):
    """numjobs=2: two entries without percentiles; the plots are the
    study's (the whole run), the headline sums the entries."""
    doc = clones()
    assert len(doc["jobs"]) == 2 and "percentile" not in doc["jobs"][0]["read"]["clat_ns"]
    d = rendered(tmp_path, "clones", doc)
    _, h = check_page(d, ["run.csv", "latency.csv", "latency-below.csv",
                          "latency-check.csv"])
    rows = h.tables["headline"][1:]
    assert [(r[0]["text"], r[1]["text"]) for r in rows] == [
        ("s3700 #1", "read"), ("s3700 #2", "read"), ("s3700 #1", "write"),
        ("s3700 #2", "write"), ("all", "read"), ("all", "write")]
    assert value(rows[4][2]) == 20000 and value(rows[5][2]) == 6000
    assert value(rows[4][3]) == pytest.approx(sum(j["read"]["iops"] for j in doc["jobs"]))
    # the entries have no bytes: no sum is invented
    assert rows[4][4]["text"] == "n/a"
    assert {r[0]["text"] for r in h.tables["percentiles"][1:]} == {"all 2 entries"}
    rows = {dr: [r for r in doc["latency_study"][dr]["percentiles"] if r["backed"]]
            for dr in ("read", "write")}
    top = max(nines(r[-1]["percentile"]) for r in rows.values())
    for panel, dr in zip(svg_panels(d / "plots/run_exceedance.svg"), ("read", "write")):
        backed = rows[dr]
        line = panel["lines"][-1]
        assert len(line["uses"]) == len(backed) and line["path"]
        y = nines_axis(panel, top)
        assert all(abs(u[1] - y(nines(r["percentile"]))) < 0.01
                   for u, r in zip(line["uses"], backed))


def test_two_jobs(tmp_path):
    """Two entries with bins: a line each in every panel, the sums."""
    doc = two_jobs()
    d = rendered(tmp_path, "two-jobs", doc)
    _, h = check_page(d, ["run.csv", "latency.csv", "run-bins.csv"])
    assert [r[0]["text"] for r in h.tables["headline"][1:]] == [
        "s3700", "other", "s3700", "other", "all", "all"]
    a, b = (j["read"] for j in doc["jobs"])
    allr = h.tables["headline"][1:][4]
    assert value(allr[5]) == pytest.approx(
        (a["clat_ns"]["mean"] * a["total_ios"] + b["clat_ns"]["mean"] * b["total_ios"]) /
        (a["total_ios"] + b["total_ios"]))
    assert value(allr[6]) == max(a["clat_ns"]["max"], b["clat_ns"]["max"])
    for panel, dr in zip(svg_panels(d / "plots/run_histogram.svg"), ("read", "write")):
        assert len(panel["lines"]) == 2
        for line, j in zip(panel["lines"], doc["jobs"]):
            check_histogram_line(line, hist_steps(bins(j[dr]["clat_ns"]), j[dr]["total_ios"]))
    for panel, dr in zip(svg_panels(d / "plots/run_exceedance.svg"), ("read", "write")):
        lines = [x for x in panel["lines"] if x["path"]]
        assert [len(x["uses"]) for x in lines] == [2 * len(bins(j[dr]["clat_ns"])) - 1
                                                   for j in doc["jobs"]]
    rows = read_csv(d / "run-bins.csv")[1:]
    assert sorted({(r[0], r[1]) for r in rows}) == [
        ("other", "read"), ("other", "write"), ("s3700", "read"), ("s3700", "write")]


def test_intended_latency(tmp_path):
    """A rate-controlled run's latency from the intended time: a second
    (dashed) line per panel, its rows in the table."""
    doc = intended()
    d = rendered(tmp_path, "intended", doc)
    _, h = check_page(d, ["run.csv", "latency.csv", "run-bins.csv"])
    kinds = [r[2]["text"] for r in h.tables["percentiles"][1:]]
    assert kinds.count("intended") == kinds.count("clat") == 34
    for panel, dr in zip(svg_panels(d / "plots/run_histogram.svg"), ("read", "write")):
        x = doc["jobs"][0][dr]
        clat, late = panel["lines"]
        check_histogram_line(clat, hist_steps(bins(x["clat_ns"]), x["total_ios"]))
        check_histogram_line(late, hist_steps(bins(x["lat_from_intended_ns"]), x["total_ios"]))
    assert {r[2] for r in read_csv(d / "run-bins.csv")[1:]} == {"clat", "intended"}


def test_passing_check(tmp_path):
    doc = passing()
    assert doc["latency_study"]["check"]["verdict"] == "pass"
    d = rendered(tmp_path, "passing", doc)
    text, _ = check_page(d, ["run.csv", "latency.csv", "latency-check.csv", "run-bins.csv"])
    assert '<div class="banner ok" id="verdict"><h2>latency-check: PASS</h2>3 of 3' in text
    assert 'class="banner bad"' not in text and '<td class="fail">' not in text


def test_state_not_done(tmp_path):
    doc = jsonplus()
    doc["jobs"][0]["ssdload"]["state"] = "stopped"
    d = rendered(tmp_path, "stopped", doc)
    text = (d / "report.html").read_text()
    assert '<div class="banner warn"><h2>STOPPED</h2>The run ended stopped' in text


def test_precedence(tmp_path):
    """run.json is the last: a directory with compare.json is the
    comparison's, and rendering it drops the run's files."""
    from compare_docs import render_compare, runs	# pylint: disable=C0415
    d = rendered(tmp_path, "both", jsonplus())
    assert (d / "latency.csv").exists()
    p = render_compare(d, runs())
    assert p.returncode == 0, p.stderr
    assert "<title>Comparison of" in (d / "report.html").read_text()
    assert not [x for x in os.listdir(d) if x in ("run.csv", "latency.csv", "run-bins.csv")]
    assert not [x for x in os.listdir(d / "plots") if x.startswith("run_")]


@pytest.mark.parametrize("name", ["jsonplus", "plain"])
def test_deterministic(tmp_path, name):
    doc = DOCS[name]()
    snaps = [snapshot(rendered(tmp_path / x, name, copy.deepcopy(doc))) for x in "aab"]
    assert snaps[0] == snaps[1] == snaps[2]
    assert {"report.html", "latency.csv", "plots/run_exceedance.svg"} <= set(snaps[0])


def test_cli_report(tmp_path):
    """`ssdload report DIR` renders run.json; its help names it."""
    d = tmp_path / "cli"
    d.mkdir()
    (d / "run.json").write_text(json.dumps(jsonplus()))
    p = subprocess.run([CLI, "report", str(d)], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, SSDLOAD_PYTHON=PYTHON), check=False)
    assert (p.returncode, p.stdout, p.stderr) == (0, "%s/report.html\n" % d, "")
    (d / "run.json").write_text("{\"jobs\": []}")
    p = subprocess.run([CLI, "report", str(d)], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, SSDLOAD_PYTHON=PYTHON), check=False)
    assert p.returncode == 2 and "run.json.jobs: is empty" in p.stderr, p.stderr
    help_text = subprocess.run([CLI, "report", "--help"], capture_output=True, text=True,
                               check=False).stdout
    assert "run.json" in help_text and "latency.csv" in help_text


# --------------------------------------------------------------------------
# the helpers on their own

@without_matplotlib
def test_bins_helpers():
    m = report_module()
    bn = [(100, 1), (110, 3), (1000, 4), (5000, 2)]
    assert m.bins_exceedance(bn) == [[0.0, 100], [10.0, 100], [10.0, 110], [40.0, 110],
                                     [40.0, 1000], [80.0, 1000], [80.0, 5000], [100.0, 5000]]
    steps = m.bins_histogram(bn)
    # 100 and 110 share [100, 112.2); 1000 opens the 60th twentieth; 5000 the 73rd
    assert len(steps) == 74 - 40 and steps[0][:2] == (100.0, pytest.approx(10 ** 2.05))
    assert [(i, p) for i, (_, _, p) in enumerate(steps) if p] == [(0, 40.0), (20, 40.0),
                                                                 (33, 20.0)]
    assert m.bins_histogram([]) == []
    assert [m.pct_need(p) for p in (1, 50, 90, 99.9, 99.99, 99.9999, 100)] == \
        [2, 2, 10, 1000, 10000, 1000000, 1]
    assert [m.condition_pct(c) for c in ("p99.95<500us", "read:p50<=1ms", "mean<1ms",
                                         "write:max<2ms", "pX<1ms")] == [99.95, 50.0, None,
                                                                          None, None]


@without_matplotlib
def test_need_is_the_clis():
    """pct_need() is the rule --latency-table applies (needs_ios)."""
    m = report_module()
    doc = jsonplus()
    for dr in ("read", "write"):
        for r in doc["latency_study"][dr]["percentiles"]:
            assert m.pct_need(r["percentile"]) == r["needs_ios"]


# --------------------------------------------------------------------------
# bad input

BAD = [
    ("format", _set(["format"], "ssdload-sweep"),
     "run.json: has a \"format\" (\"ssdload-sweep\"): not the JSON of ssdload run"),
    ("no-jobs", _set(["jobs"], ...), "run.json: no key \"jobs\""),
    ("jobs-object", _set(["jobs"], {}), "run.json.jobs: is not an array"),
    ("jobs-empty", _set(["jobs"], []), "run.json.jobs: is empty (no job entry)"),
    ("job-no-direction", lambda doc: [doc["jobs"][0].pop(k) for k in ("read", "write", "trim")],
     "run.json.jobs[0]: has no \"read\", \"write\" nor \"trim\" object"),
    ("ios", _set(["jobs", 0, "read", "total_ios"], "many"),
     "run.json.jobs[0].read.total_ios: \"many\" is not a number"),
    ("percentile", _set(["jobs", 0, "write", "clat_ns", "percentile", "99.000000"], "1ms"),
     "run.json.jobs[0].write.clat_ns.percentile.\"99.000000\": \"1ms\" is not a number"),
    ("bins-key", _set(["jobs", 0, "read", "clat_ns", "bins", "1.5e3"], 1),
     "run.json.jobs[0].read.clat_ns.bins: key \"1.5e3\" is not a latency in ns"),
    ("bins-count", _set(["jobs", 0, "read", "lat_ns", "bins", "180000"], -2),
     "run.json.jobs[0].read.lat_ns.bins.\"180000\": -2 is below 0"),
    ("bins-object", _set(["jobs", 0, "read", "clat_ns", "bins"], [1, 2]),
     "run.json.jobs[0].read.clat_ns.bins: is not an object"),
    ("intended", _set(["jobs", 0, "read", "lat_from_intended_ns"], 3),
     "run.json.jobs[0].read.lat_from_intended_ns: is not an object"),
    ("study", _set(["latency_study"], []), "run.json.latency_study: is not an object"),
    ("study-row", _set(["latency_study", "read", "percentiles", 2, "percentile"], ...),
     "run.json.latency_study.read.percentiles[2]: no key \"percentile\""),
    ("study-pct", _set(["latency_study", "read", "percentiles", 0, "percentile"], 101),
     "run.json.latency_study.read.percentiles[0].percentile: 101 is above 100"),
    ("study-backed", _set(["latency_study", "write", "percentiles", 0, "backed"], "yes"),
     "run.json.latency_study.write.percentiles[0].backed: \"yes\" is not true, false or null"),
    ("below", _set(["latency_study", "read", "below", 1, "percent"], 120),
     "run.json.latency_study.read.below[1].percent: 120 is above 100"),
    ("result", _set(["latency_study", "check", "conditions", 0, "result"], "meh"),
     "run.json.latency_study.check.conditions[0].result: \"meh\" is not one of pass, fail, "
     "too_few_ios, no_io, no_latencies"),
    ("verdict", _set(["latency_study", "check", "verdict"], None),
     "run.json.latency_study.check.verdict: null is not one of pass, fail"),
    ("direction", _set(["latency_study", "check", "conditions", 1, "direction"], "sideways"),
     "run.json.latency_study.check.conditions[1].direction: \"sideways\" is not one of read"),
    ("not-json", "{\"jobs\": [", "run.json: not JSON"),
    ("array", "[]", "run.json: not a JSON object"),
    ("nan", "NaN", "a number must be finite"),
]


@without_matplotlib
@pytest.mark.parametrize("name,fault,needle", BAD, ids=[b[0] for b in BAD])
def test_malformed_run_is_refused(tmp_path, name, fault, needle):
    """Exit 2, one line on stderr naming the bad key, nothing rendered."""
    if callable(fault):
        doc = jsonplus()
        fault(doc)
        raw = json.dumps(doc)
    elif fault == "NaN":
        raw = json.dumps(jsonplus()).replace('"iops": ', '"iops": NaN, "x": ', 1)
    else:
        raw = fault
    d = tmp_path / name
    p = render_run(d, raw=raw)
    err = p.stderr
    assert (p.returncode, p.stdout, err.count("\n")) == (2, "", 1), err
    assert err.startswith("ssdload-report: ") and needle in err and "Traceback" not in err, err
    assert not (d / "report.html").exists() and not (d / "plots").exists()


# --------------------------------------------------------------------------
# in a real browser (headless Chromium, lib/devtools.py)

@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    if not os.access(tb.CHROMIUM, os.X_OK):
        pytest.skip("no chromium (%s): apt install chromium" % tb.CHROMIUM)
    if not have_matplotlib():
        pytest.skip("the renderer's python has no matplotlib")
    b = tb.Browser(str(tmp_path_factory.mktemp("chromium-home")))
    try:
        b.call("Browser.getVersion")
    except (EOFError, TimeoutError) as e:
        b.close()
        pytest.skip("chromium does not start headless here: %s" % e)
    yield b, tb
    b.close()


GREEN = (0xe7, 0xf5, 0xe7)		# .banner.ok's background


@pytest.mark.parametrize("name", ["jsonplus", "passing", "plain", "clones"])
def test_report_loads_cleanly(chromium, tmp_path, name):
    b, tb = chromium
    d = rendered(tmp_path, name)
    page = b.load(d / "report.html")
    assert page["problems"] == []
    assert sorted(i["src"] for i in page["images"]) == sorted("plots/" + x for x in PLOTS)
    for i in page["images"]:
        assert i["width"] > 300 and i["height"] > 200, i
    assert not tb.blank(page["png"])
    pink = tb.shot_stats(page["png"])[2]
    green = tb.shot_stats(page["png"], GREEN)[2]
    # (a few pixels of a colour anywhere: anti-aliasing; a banner is thousands)
    if name == "passing":
        assert green > 500 and pink < 50, (green, pink)
    else:
        assert pink > 500 and green < 50, (green, pink)
