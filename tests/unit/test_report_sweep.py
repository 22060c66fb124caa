# SPDX-License-Identifier: GPL-2.0
"""userspace/ssdload-report.py: the report of an `ssdload sweep` run.

Synthetic sweep.json files (format "ssdload-sweep", format_version 1) are
rendered in temporary directories with no pts.json: the automatic worker
rule (QD 1..256, 64 per worker), an explicit workers_list of two counts, a
70/30 read/write sweep, a sweep whose points have no interval samples and
an interrupted one.  The tests check every plot (well-formed SVG with its
data drawn), report.html (it parses, refers only to files that exist, its
tables hold the JSON's values, the knee rows are marked), sweep.csv and
sweep-series.csv, the refusal of malformed documents (exit 2, one line
naming the bad key) and that two renderings are byte-identical.
"""
import copy
import json
import math
import os
import xml.etree.ElementTree as ET

import pytest

from report import SVG, Html, _set, data_paths, markers, read_csv, snapshot, without_matplotlib
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)
from sweep_docs import (DIR_KEYS, SWEEP_DOCS, SWEEP_PLOTS, auto_doc, interrupted_doc, mixed_doc,
                        no_series_doc, render_sweep, workers_doc)


# --------------------------------------------------------------------------
# helpers

def rendered(tmp_path, name, doc=None):
    d = tmp_path / name
    p = render_sweep(d, doc if doc is not None else SWEEP_DOCS[name]())
    assert p.returncode == 0, p.stderr
    assert p.stderr == "" and p.stdout == ""
    return d


def check_page(d, name):
    """Common checks: the page, its files, its plots; (text, parsed)."""
    with open(str(d / "report.html"), encoding="utf-8") as f:
        text = f.read()
    h = Html(text)
    assert h.scripts == 0
    assert "Queue-depth sweep" in text and "<title>Queue-depth sweep: " in text
    for src in h.imgs + h.links:
        assert not src.startswith("/") and ":" not in src, src
        assert os.path.isfile(os.path.join(str(d), src)), "report.html refers to missing " + src
    assert sorted(h.imgs) == sorted("plots/" + x for x in SWEEP_PLOTS[name])
    assert sorted(os.listdir(str(d / "plots"))) == sorted(SWEEP_PLOTS[name])
    for x in SWEEP_PLOTS[name]:
        assert ET.parse(str(d / "plots" / x)).getroot().tag == SVG + "svg", x
    assert not os.path.exists(d / "pts.json")
    return text, h


def rows_by_step(h):
    return {int(r[0]["text"].split()[0]): r for r in h.tables["points"][1:]}


def value(c):
    return None if c["value"] is None else float(c["value"])


def check_points_table(h, doc):
    t = h.tables["points"]
    hdr = [c["text"] for c in t[0]]
    assert hdr[:6] == ["step (\u25c0 knee)", "workers", "QD (total)", "QD/worker", "IOPS",
                       "MB/s"]
    rows = rows_by_step(h)
    assert sorted(rows) == [p["step"] for p in doc["points"]]
    col = {k: hdr.index(v) for k, v in (
        ("iops", "IOPS"), ("lat_mean_ns", "mean latency (\u00b5s)"),
        ("lat_p99_ns", "p99 (\u00b5s)"), ("little", "Little's ratio"),
        ("gap_max_ns", "gap before: max (\u00b5s)"), ("gap_mean_ns", "mean (\u00b5s)"),
        ("runtime_ns", "measured"), ("qd", "QD (total)"), ("workers", "workers"))}
    for p in doc["points"]:
        r = rows[p["step"]]
        for k, i in col.items():
            assert value(r[i]) == p.get(k), (p["step"], k)
            if p.get(k) is None:
                assert r[i]["text"] == "n/a"
        assert value(r[hdr.index("MB/s")]) == p["bw_bytes"]
        assert float(r[hdr.index("MB/s")]["text"].replace(",", "")) == \
            pytest.approx(p["bw_bytes"] / 1e6, rel=0.01)
        assert float(r[col["lat_mean_ns"]]["text"].replace(",", "")) == \
            pytest.approx(p["lat_mean_ns"] / 1e3, rel=0.01)
        if p.get("little") is not None:
            assert r[col["little"]]["text"] == "%.3f" % p["little"]
    return rows


def knee_steps(doc):
    out = set()
    for k in doc["knees"]:
        out |= {p["step"] for p in doc["points"] if p["qd"] == k["knee_qd"] and
                (k["workers"] is None or p["workers"] == k["workers"])}
    return out


def check_knees(h, doc):
    rows = rows_by_step(h)
    marked = {s for s, r in rows.items() if r[0]["text"].endswith("\u25c0 knee")}
    assert marked == knee_steps(doc) and marked
    kt = h.tables["knees"]
    assert len(kt) == 1 + len(doc["knees"])
    for r, k in zip(kt[1:], doc["knees"]):
        assert [value(c) for c in r[1:5]] == [k["max_iops"], k["max_qd"], k["knee_qd"],
                                              k["knee_iops"]]


def check_csvs(d, doc):
    rows = read_csv(d / "sweep.csv")
    hdr = rows[0]
    assert hdr[:12] == ["step", "workers", "qd", "qd_per_worker", "runtime_ns", "gap_max_ns",
                        "gap_mean_ns", "iops", "bw_bytes", "lat_mean_ns", "lat_p99_ns",
                        "little"]
    assert hdr[12:] == ["%s_%s" % (d_, k) for d_ in ("read", "write") for k in DIR_KEYS]
    assert len(rows) == 1 + len(doc["points"])
    for r, p in zip(rows[1:], doc["points"]):
        for k, c in zip(hdr, r):
            d_, _, key = k.partition("_")
            v = p.get(d_, {}).get(key) if d_ in ("read", "write") else p.get(k)
            assert (None if c == "" else float(c)) == v, (p["step"], k)
    series = [(p["step"], x) for p in doc["points"] for x in p.get("series") or []]
    if not series:
        assert not os.path.exists(d / "sweep-series.csv")
        return
    ser = read_csv(d / "sweep-series.csv")
    assert ser[0] == ["point", "t_ms", "iops", "lat_mean_ns"]
    assert len(ser) == 1 + len(series)
    for r, (step, x) in zip(ser[1:], series):
        assert [None if c == "" else float(c) for c in r] == \
            [step, x["t_ms"], x["iops"], x["lat_mean_ns"]]


def check_plots(d, doc):
    lines = len(doc["settings"]["workers_list"] or [None])
    n = max(len([p for p in doc["points"] if w is None or p["workers"] == w])
            for w in doc["settings"]["workers_list"] or [None])
    # a line per worker count with a marker per QD, and the knees circled
    ms = markers(d / "plots/sweep_iops.svg")
    assert ms.count(1) >= lines and len([m for m in ms if m >= n]) >= lines, ms
    assert data_paths(d / "plots/sweep_iops.svg", n) >= lines
    assert data_paths(d / "plots/sweep_latency.svg", 2) >= 2 * lines	# mean, p99
    assert data_paths(d / "plots/sweep_load.svg", n) >= lines
    assert markers(d / "plots/sweep_load.svg").count(1) >= lines


# --------------------------------------------------------------------------
# the documents

def test_auto(tmp_path):
    doc = auto_doc()
    d = rendered(tmp_path, "auto", doc)
    text, h = check_page(d, "auto")
    check_points_table(h, doc)
    check_knees(h, doc)
    check_csvs(d, doc)
    check_plots(d, doc)
    kt = h.tables["knees"]
    assert kt[1][0]["text"] == "workers: ceil(QD / 64)"
    assert "automatic: ceil(QD / 64)" in text
    assert "1, 2, 4, 8, 16, 32, 64, 128, 256" in text
    assert "--qd=1,2,4,8,16,32,64,128,256" in text		# the command
    assert "INTERRUPTED" not in text and "banner" not in text.split("<body>")[1]
    # every point's samples end to end: 9 x 6, in one line per point
    assert sorted(markers(d / "plots/sweep_time.svg")) == [6] * 9
    assert "run.json" in text
    assert "directions" in h.tables and len(h.tables["directions"]) == 1 + 9


def test_workers_list(tmp_path):
    doc = workers_doc()
    d = rendered(tmp_path, "workers", doc)
    text, h = check_page(d, "workers")
    rows = check_points_table(h, doc)
    check_knees(h, doc)
    check_csvs(d, doc)
    check_plots(d, doc)
    assert [r[0]["text"] for r in h.tables["knees"][1:]] == ["1 worker", "4 workers"]
    assert len(knee_steps(doc)) == 2
    assert rows[8][3]["text"] == "4"		# 4 workers at QD 16: 4 per worker
    # a line per worker count in each plot: 5 QDs each
    assert [m for m in markers(d / "plots/sweep_iops.svg") if m > 1] == [5, 5]
    assert [m for m in markers(d / "plots/sweep_latency.svg") if m > 1] == [5, 5, 5, 5]


def test_mixed(tmp_path):
    doc = mixed_doc()
    d = rendered(tmp_path, "mixed", doc)
    text, h = check_page(d, "mixed")
    check_points_table(h, doc)
    check_knees(h, doc)
    check_csvs(d, doc)
    check_plots(d, doc)
    assert "randrw 4 KiB (R/W mix 70/30)" in text
    dt = h.tables["directions"]
    assert [(r[0]["text"], r[2]["text"]) for r in dt[1:]] == [
        ("1", "read"), ("1", "write"), ("2", "read"), ("2", "write"), ("3", "read"),
        ("3", "write"), ("4", "write")]
    hdr = [c["text"] for c in dt[0]]
    for r in dt[1:]:
        x = doc["points"][int(r[0]["text"]) - 1][r[2]["text"]]
        for k, label in (("ios", "I/Os"), ("iops", "IOPS"), ("lat_p50_ns", "p50 (\u00b5s)"),
                         ("lat_p99_9_ns", "p99.9 (\u00b5s)"), ("lat_max_ns", "max (\u00b5s)")):
            assert value(r[hdr.index(label)]) == x[k]
    sw = read_csv(d / "sweep.csv")
    assert sw[4][sw[0].index("read_iops")] == "" and sw[4][sw[0].index("write_ios")] != ""


def test_no_series(tmp_path):
    doc = no_series_doc()
    d = rendered(tmp_path, "no-series", doc)
    text, h = check_page(d, "no-series")
    rows = check_points_table(h, doc)
    check_csvs(d, doc)
    check_plots(d, doc)
    assert "No point has interval samples: no time series." in text
    assert not os.path.exists(d / "sweep-series.csv")
    assert '<td class="k">Model</td><td>n/a</td>' in text
    assert rows[3][8]["text"] == "n/a"			# Little's ratio unknown
    assert "sweep-series.csv" not in h.links and "sweep.csv" in h.links


def test_interrupted(tmp_path):
    doc = interrupted_doc()
    d = rendered(tmp_path, "interrupted", doc)
    text, h = check_page(d, "interrupted")
    check_points_table(h, doc)
    check_knees(h, doc)
    check_csvs(d, doc)
    check_plots(d, doc)
    assert '<div class="banner warn"><h2>INTERRUPTED</h2>the sweep was interrupted' in text
    assert '<span class="tag warn">INTERRUPTED</span>' in text
    assert '<td class="k">Finished</td><td>n/a</td>' in text
    assert sorted(markers(d / "plots/sweep_time.svg")) == [6] * 4	# the last: none


def test_running(tmp_path):
    """A sweep still running (sweep.rst's fourth state) renders what it has."""
    doc = interrupted_doc()
    doc["state"] = "running"
    d = rendered(tmp_path, "interrupted", doc)
    text, _ = check_page(d, "interrupted")
    assert '<h2>RUNNING</h2>the sweep is still running' in text


def test_no_points_yet(tmp_path):
    """Interrupted before its first point: the page says so, no plots."""
    doc = interrupted_doc()
    doc.update(points=[], knees=[])
    d = tmp_path / "empty"
    p = render_sweep(d, doc)
    assert p.returncode == 0, p.stderr
    text = (d / "report.html").read_text()
    assert "No point measured yet." in text and "No point has interval samples" in text
    assert os.listdir(d / "plots") == []
    assert read_csv(d / "sweep.csv")[1:] == []


def test_pts_json_wins(tmp_path):
    """A directory with both: pts.json is rendered (the sweep is not)."""
    from pts_docs import iops_doc, render	# pylint: disable=import-outside-toplevel
    d = tmp_path / "both"
    render_sweep(d, auto_doc())
    p = render(d, iops_doc())
    assert p.returncode == 0, p.stderr
    assert "SNIA SSS PTS" in (d / "report.html").read_text()
    assert not os.path.exists(d / "sweep.csv")		# the sweep's files went stale
    assert not [x for x in os.listdir(d / "plots") if x.startswith("sweep_")]


@pytest.mark.parametrize("name", sorted(SWEEP_DOCS))
def test_deterministic(tmp_path, name):
    """Twice in one directory and once in another: the same bytes."""
    doc = SWEEP_DOCS[name]()
    d1 = rendered(tmp_path / "a", name, doc)
    first = snapshot(d1)
    rendered(tmp_path / "a", name, doc)
    assert snapshot(d1) == first
    assert snapshot(rendered(tmp_path / "b", name, copy.deepcopy(doc))) == first
    assert "report.html" in first and "sweep.csv" in first
    for k, v in first.items():
        assert not k.endswith(".svg") or b"<dc:date>" not in v, k


# --------------------------------------------------------------------------
# bad input

BAD = [
    ("format", _set(["format"], "ssdload-pts"), "\"format\" is \"ssdload-pts\", not "
     "\"ssdload-sweep\" (not an ssdload sweep result)"),
    ("version", _set(["format_version"], 2), "unknown format_version 2"),
    ("no-points", _set(["points"], ...), "sweep.json: no key \"points\""),
    ("null-points", _set(["points"], None), "sweep.json.points: is not an array"),
    ("no-settings", _set(["settings"], ...), "sweep.json: no key \"settings\""),
    ("no-device", _set(["device"], ...), "sweep.json: no key \"device\""),
    ("point-no-qd", _set(["points", 3, "qd"], ...), "sweep.json.points[3]: no key \"qd\""),
    ("point-qd-zero", _set(["points", 2, "qd"], 0), "sweep.json.points[2].qd: 0 is below 1"),
    ("point-iops-str", _set(["points", 1, "iops"], "12k"),
     "sweep.json.points[1].iops: \"12k\" is not a number"),
    ("point-workers-float", _set(["points", 0, "workers"], 1.5),
     "sweep.json.points[0].workers: 1.5 is not an integer"),
    ("read-p99", _set(["points", 4, "read", "lat_p99_ns"], "fast"),
     "sweep.json.points[4].read.lat_p99_ns: \"fast\" is not a number"),
    ("series-no-t", _set(["points", 5, "series", 2, "t_ms"], ...),
     "sweep.json.points[5].series[2]: no key \"t_ms\""),
    ("series-not-array", _set(["points", 0, "series"], {"t_ms": 1}),
     "sweep.json.points[0].series: is not an array"),
    ("knee-qd", _set(["knees", 0, "knee_qd"], "8"),
     "sweep.json.knees[0].knee_qd: \"8\" is not a number"),
    ("knee-no-workers", _set(["knees", 0, "workers"], ...),
     "sweep.json.knees[0]: no key \"workers\""),
    ("qd-list", _set(["settings", "qd_list"], [1, "2"]),
     "sweep.json.settings.qd_list[1]: \"2\" is not a number"),
    ("workers-list", _set(["settings", "workers_list"], 4),
     "sweep.json.settings.workers_list: is not an array"),
    ("knee-fraction", _set(["settings", "knee_fraction"], 95),
     "sweep.json.settings.knee_fraction: 95 is above 1"),
    ("bool-bs", _set(["settings", "bs"], True), "sweep.json.settings.bs: true is not a number"),
    ("state-null", _set(["state"], None), "sweep.json.state: null is not a string"),
    ("command-array", _set(["command"], ["ssdload", "sweep"]),
     "sweep.json.command: [\"ssdload\", \"sweep\"] is not a string"),
    ("not-json", "{\"format\": \"ssdload-sweep\",", "sweep.json: not JSON"),
    ("nan", "NaN", "a number must be finite"),
]


def sweep_json(fault):
    """The text of auto_doc() with @fault: a function changing the
    document, or the text itself ("NaN": a NaN in a point's little)."""
    if not callable(fault):
        return fault
    doc = auto_doc()
    fault(doc)
    return json.dumps(doc)


@without_matplotlib
@pytest.mark.parametrize("case", BAD, ids=[b[0] for b in BAD])
def test_malformed_sweep_is_refused(tmp_path, case):
    """Exit 2, one line on stderr naming the bad key, nothing rendered."""
    name, fault, needle = case
    raw = sweep_json(fault)
    if raw == "NaN":
        raw = json.dumps(auto_doc()).replace('"little": ', '"little": NaN, "x": ', 1)
    d = tmp_path / name
    p = render_sweep(d, raw=raw)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr.startswith("ssdload-report: ") and p.stderr.count("\n") == 1, p.stderr
    assert needle in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert not (d / "report.html").exists() and not (d / "plots").exists()


@without_matplotlib
def test_fixtures_hold_their_rule():
    """The synthetic knees are the smallest QD at 95% of the most IOPS, and
    Little's ratio is IOPS x mean latency / QD (guards the fixtures)."""
    for make in SWEEP_DOCS.values():
        doc = make()
        for k in doc["knees"]:
            assert k["knee_iops"] >= 0.95 * k["max_iops"]
        for p in doc["points"]:
            if p.get("little") is not None:
                assert math.isclose(p["little"], p["iops"] * p["lat_mean_ns"] / 1e9 / p["qd"],
                                    rel_tol=1e-5)
