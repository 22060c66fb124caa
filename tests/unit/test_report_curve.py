# SPDX-License-Identifier: GPL-2.0
"""userspace/ssdload-report.py: the report of an `ssdload curve` run.

Synthetic curve.json files (format "ssdload-curve", format_version 1) are
rendered in temporary directories with no pts.json nor sweep.json: a done
70/30 curve (the max point and six curve points, reads and writes, with
percentiles from submission and from the intended time), a curve stopped
at a latency bound (a point skipped), one run at a given max_iops (no max
point), one still running and one that failed.  The tests check every plot
(well-formed SVG with its lines and markers drawn), report.html (it parses,
refers only to files that exist, its tables hold the JSON's values, the
stop line, the banners), curve.csv, the nines axis and the histogram's
density, the refusal of malformed documents (exit 2, one line naming the
bad key), the order of precedence pts.json > sweep.json > curve.json, and
that two renderings are byte-identical.
"""
import copy
import json
import math
import os
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

from curve_docs import (CURVE_DOCS, CURVE_PLOTS, PCTS, done_doc, pct_list, render_curve,
                        running_doc)
from report import (PYTHON, SCRIPT, report_module, SVG, Html, _set, data_paths, markers, read_csv, snapshot,
                    without_matplotlib)
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)

CSV_HEADER = ["label", "pct", "target_iops", "iops", "ratio", "bw_bytes", "lat_mean_ns",
              "lat_p99_ns", "lat_max_ns", "intended_mean_ns", "intended_p99_ns", "late_ios"]


# --------------------------------------------------------------------------
# helpers

def rendered(tmp_path, name, doc=None):
    """@doc (the synthetic @name's by default) rendered in tmp_path/@name,
    silently: its directory."""
    d = tmp_path / name
    p = render_curve(d, doc or CURVE_DOCS[name]())
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    return d


def check_page(d, name):
    """Common checks: the page, its files, its plots; (text, parsed)."""
    text = (d / "report.html").read_text(encoding="utf-8")
    h = Html(text)
    assert h.scripts == 0
    assert "<title>Iorate curve: " in text and "ssdload curve &middot; page 1 of" in text
    assert sorted(h.links) == ["curve.csv", "curve.json"]
    assert sorted(h.imgs) == sorted("plots/" + x for x in CURVE_PLOTS[name])
    assert all((d / src).is_file() and not src.startswith("/") and ":" not in src
               for src in h.imgs + h.links), h.imgs
    plots = sorted(os.listdir(str(d / "plots")))
    assert plots == sorted(CURVE_PLOTS[name])
    assert [ET.parse(str(d / "plots" / x)).getroot().tag for x in plots] == \
        [SVG + "svg"] * len(plots)
    assert not os.path.exists(d / "pts.json") and not os.path.exists(d / "sweep.csv")
    return text, h


def all_points(doc):
    return ([doc["max"]] if doc["max"] else []) + doc["points"]


def value(c):
    return None if c["value"] is None else float(c["value"])


def check_points_table(h, doc):
    t = h.tables["curve"]
    hdr = [c["text"] for c in t[0]]
    assert hdr == ["point", "target IOPS", "IOPS", "% of target", "MB/s",
                   "resp mean (\u00b5s)", "resp p99 (\u00b5s)", "resp max (\u00b5s)",
                   "intended mean (\u00b5s)", "intended p99 (\u00b5s)", "late I/Os"]
    pts = all_points(doc)
    assert [r[0]["text"] for r in t[1:]] == [p["label"] for p in pts]
    for r, p in zip(t[1:], pts):
        intended = p["intended"] or {}
        assert [value(c) for c in r[1:]] == [
            p["target_iops"], p["iops"], p["ratio"], p["bw_bytes"], p["lat_mean_ns"],
            p["lat_p99_ns"], p["lat_max_ns"], intended.get("lat_mean_ns"),
            intended.get("lat_p99_ns"), intended.get("late_ios")], p["label"]
        for c in r[1:]:
            assert (c["value"] is None) == (c["text"] == "n/a")
        if p["ratio"] is not None:
            assert r[3]["text"] == "%.4g%%" % (100 * p["ratio"])
        assert float(r[5]["text"].replace(",", "")) == \
            pytest.approx(p["lat_mean_ns"] / 1e3, rel=0.01)


def check_csv(d, doc):
    rows = read_csv(d / "curve.csv")
    assert rows[0] == CSV_HEADER
    pts = all_points(doc)
    assert [r[0] for r in rows[1:]] == [p["label"] for p in pts]
    for r, p in zip(rows[1:], pts):
        intended = p["intended"] or {}
        want = [p["pct"], p["target_iops"], p["iops"], p["ratio"], p["bw_bytes"],
                p["lat_mean_ns"], p["lat_p99_ns"], p["lat_max_ns"], intended.get("lat_mean_ns"),
                intended.get("lat_p99_ns"), intended.get("late_ios")]
        assert [None if c == "" else float(c) for c in r[1:]] == want, p["label"]


def dirs_of(doc):
    return [x for x in ("read", "write") if any(x in p for p in all_points(doc))]


def svg_texts(path):
    """The texts of an SVG of matplotlib (each drawn as paths, after a
    comment that holds it)."""
    return re.findall(r"<!-- (.*?) -->", path.read_text(encoding="utf-8"))


def check_plots(d, doc):
    """Lines and markers: response (resp, intended, the max point), target,
    exceedance (a panel per direction: a line per point, and one per point
    with a rate from the intended time), histogram (a step line per point
    and direction); the points named."""
    n = len(doc["points"])
    resp = [n, n] + ([1] if doc["max"] else [])
    assert markers(d / "plots/curve_response.svg") == resp
    assert markers(d / "plots/curve_target.svg") == [n]
    labels = [p["label"] for p in all_points(doc)]
    assert set(labels) <= set(svg_texts(d / "plots/curve_response.svg"))
    assert set(labels[-n:]) <= set(svg_texts(d / "plots/curve_target.svg"))
    texts = svg_texts(d / "plots/curve_exceedance.svg")
    assert set(labels) <= set(texts)
    assert texts[texts.index("0"):][:6] == ["0", "50", "90", "99", "99.9", "99.99"]
    assert set(labels) <= set(svg_texts(d / "plots/curve_histogram.svg"))
    usable = len([p for p in PCTS if p < 100])
    per_panel = [usable] * ((1 if doc["max"] else 0) + 2 * n)
    assert markers(d / "plots/curve_exceedance.svg") == per_panel * len(dirs_of(doc))
    assert data_paths(d / "plots/curve_histogram.svg", 10) == \
        len(all_points(doc)) * len(dirs_of(doc))


def checked(tmp_path, name):
    """The synthetic @name rendered, its page, table, CSV and plots checked:
    (doc, directory, report.html, parsed)."""
    doc = CURVE_DOCS[name]()
    d = rendered(tmp_path, name, doc)
    text, h = check_page(d, name)
    check_points_table(h, doc)
    check_csv(d, doc)
    check_plots(d, doc)
    return doc, d, text, h


# --------------------------------------------------------------------------
# the documents

def test_done(tmp_path):
    """A done 70/30 curve: the settings, the runs, every point's reads and
    writes, no stop."""
    doc, _, text, h = checked(tmp_path, "done")
    assert "randrw 4 KiB (R/W mix 70/30)" in text
    assert "10%, 50%, 70%, 80%, 90%, 100%" in text
    assert "200,000 (measured: the max point)" in text
    assert 'id="stop"' not in text and "not run" not in text
    assert "banner" not in text.split("<body>")[1] and "tag warn" not in text
    assert "run-max.json, run-10.json, run-50.json" in text
    assert "Derived from each point's percentile list" in text
    # reads and writes of every point: the percentiles of the list
    dt = h.tables["directions"]
    hdr = [c["text"] for c in dt[0]]
    assert [(r[0]["text"], r[1]["text"]) for r in dt[1:]] == [
        (p["label"], x) for p in all_points(doc) for x in ("read", "write")]
    for r in dt[1:]:
        p = next(p for p in all_points(doc) if p["label"] == r[0]["text"])
        x = p[r[1]["text"]]
        pc = dict((k, v) for k, v in x["percentiles"])
        assert value(r[hdr.index("p99.9 (\u00b5s)")]) == pc[99.9]
        assert value(r[hdr.index("p50 (\u00b5s)")]) == pc[50.0]
        assert value(r[hdr.index("max (\u00b5s)")]) == x["lat_max_ns"]
        ipc = dict((k, v) for k, v in x.get("intended_percentiles") or [])
        assert value(r[hdr.index("intended p99 (\u00b5s)")]) == ipc.get(99.0)
    assert "Stop the curve at</td><td>no bound" in text


def test_stopped(tmp_path):
    """Stopped at its bound: the stop line, no banner (a normal end)."""
    _, d, text, h = checked(tmp_path, "stopped")
    assert '<p class="note" id="stop">The curve stopped at 150%: mean latency 2.1 ms is ' \
        'above the bound 2 ms; not run: 200%.</p>' in text
    # a normal end: no banner, no warning tag
    assert "banner" not in text.split("<body>")[1] and "tag warn" not in text
    assert '<td class="k">State</td><td>stopped</td>' in text
    assert "mean latency over 2.00 ms" in text and "poisson" in text
    assert [r[0]["text"] for r in h.tables["curve"][1:]] == \
        ["max", "10%", "50%", "100%", "150%"]
    assert [c["text"] for c in h.tables["directions"][0]][1] == "direction"
    assert {r[1]["text"] for r in h.tables["directions"][1:]} == {"read"}
    assert "stop bound, resp: 2.00 ms" in svg_texts(d / "plots/curve_response.svg")


def test_given(tmp_path):
    """max_iops given: no max point, no max row."""
    _, d, text, _ = checked(tmp_path, "given")
    assert "100,000 (given)" in text
    assert "mean intended latency over 5.00 ms" in text
    assert "randwrite 4 KiB" in text and "R/W mix" not in text
    assert read_csv(d / "curve.csv")[1][0] == "10%"		# no max row
    assert "run-max.json" not in text
    texts = svg_texts(d / "plots/curve_response.svg")
    assert "stop bound, intended: 5.00 ms" in texts and "max" not in texts
    assert "max_iops (100%): 100,000" in svg_texts(d / "plots/curve_target.svg")


def test_running(tmp_path):
    """Still running: the orange banner, n/a for the workload not known yet."""
    _, _, text, _ = checked(tmp_path, "running")
    assert '<div class="banner warn"><h2>RUNNING</h2>the curve is still running' in text
    assert '<span class="tag warn">RUNNING</span>' in text
    assert "n/a n/a" in text			# the workload: no rw, no bs yet


def test_failed(tmp_path):
    """Failed: the orange banner; nulls print as n/a."""
    _, _, text, h = checked(tmp_path, "failed")
    assert '<div class="banner warn"><h2>FAILED</h2>the curve failed' in text
    assert '<td class="k">Model</td><td>n/a</td>' in text
    assert h.tables["curve"][3][6]["text"] == "n/a"		# 50%: no p99


def test_no_points_yet(tmp_path):
    """Running before the max point: the page says so, no plots."""
    doc = running_doc()
    doc.update(max=None, points=[], max_iops=None)
    d = tmp_path / "empty"
    p = render_curve(d, doc)
    assert p.returncode == 0, p.stderr
    text = (d / "report.html").read_text()
    assert "No point measured yet." in text
    assert "No point has latency percentiles" in text
    assert os.listdir(d / "plots") == []
    assert read_csv(d / "curve.csv") == [CSV_HEADER]


def test_no_percentiles(tmp_path):
    """Points without percentiles: no exceedance nor histogram plot; with
    fewer than 3 usable ones, no histogram."""
    doc = done_doc()
    for p in all_points(doc):
        for x in ("read", "write"):
            p[x]["percentiles"] = p[x]["percentiles"][-3:]		# 99.9, 99.99, 100
            p[x].pop("intended_percentiles", None)
    d = tmp_path / "few"
    assert render_curve(d, doc).returncode == 0
    assert sorted(os.listdir(d / "plots")) == ["curve_exceedance.svg", "curve_response.svg",
                                               "curve_target.svg"]
    assert markers(d / "plots/curve_exceedance.svg") == [2] * 14
    for p in all_points(doc):
        for x in ("read", "write"):
            del p[x]["percentiles"]
    assert render_curve(d, doc).returncode == 0
    assert sorted(os.listdir(d / "plots")) == ["curve_response.svg", "curve_target.svg"]
    assert "No point has latency percentiles" in (d / "report.html").read_text()


def test_precedence(tmp_path):
    """pts.json, else sweep.json, else curve.json; the others' files go."""
    from pts_docs import iops_doc, render		# pylint: disable=import-outside-toplevel
    from sweep_docs import auto_doc, render_sweep		# pylint: disable=C0415
    d = tmp_path / "all"
    rendered(tmp_path, "all", done_doc())
    assert render_sweep(d, auto_doc()).returncode == 0
    assert "Queue-depth sweep" in (d / "report.html").read_text()
    assert not os.path.exists(d / "curve.csv")
    assert not [x for x in os.listdir(d / "plots") if x.startswith("curve_")]
    p = render(d, iops_doc())
    assert p.returncode == 0, p.stderr
    assert "SNIA SSS PTS" in (d / "report.html").read_text()
    assert not os.path.exists(d / "sweep.csv")


@without_matplotlib
def test_none_is_missing(tmp_path):
    """No pts.json, sweep.json nor curve.json: exit 2, the files named."""
    p = subprocess.run([PYTHON, SCRIPT, str(tmp_path)], capture_output=True, text=True,
                       timeout=60, check=False)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert "pts.json: No such file or directory (nor sweep.json nor curve.json" in p.stderr


@pytest.mark.parametrize("name", sorted(CURVE_DOCS))
def test_deterministic(tmp_path, name):
    """Twice in one directory and once in another: the same bytes."""
    doc = CURVE_DOCS[name]()
    snaps = [snapshot(rendered(tmp_path / x, name, copy.deepcopy(doc))) for x in "aab"]
    assert snaps[0] == snaps[1] == snaps[2]
    assert {"report.html", "curve.csv", "plots/curve_response.svg"} <= set(snaps[0])
    assert not [k for k, v in snaps[0].items() if k.endswith(".svg") and b"<dc:date>" in v]


# --------------------------------------------------------------------------
# the nines axis and the histogram's density

@without_matplotlib
@pytest.mark.parametrize("p,y", [(0.0, 0.0), (50.0, math.log10(2)), (90.0, 1.0), (99.0, 2.0),
                                 (99.9, 3.0), (99.99, 4.0), (99.9999, 6.0)])
def test_nines(p, y):
    assert report_module().nines(p) == pytest.approx(y, abs=1e-9)


@without_matplotlib
def test_nines_ticks():
    m = report_module()
    ticks = m.nines_ticks(3.2)
    assert [t for _, t in ticks] == ["0", "50", "90", "99", "99.9", "99.99"]
    assert [y for y, _ in ticks][2:] == [1.0, 2.0, 3.0, 4.0]
    assert [t for _, t in m.nines_ticks(6.0)][-1] == "99.9999"
    assert [t for _, t in m.nines_ticks(0.5)] == ["0", "50", "90"]


@without_matplotlib
def test_log_density():
    m = report_module()
    # 40% of the I/Os over one decade, 9% over the next; p 100 is left out
    assert m.log_density([[50.0, 100], [90.0, 1000], [99.0, 10000], [100.0, 99999]]) == [
        (100, 1000, pytest.approx(40.0)), (1000, 10000, pytest.approx(9.0))]
    # the same latency at two percentiles: one step, with the share up to it
    assert m.log_density([[10.0, 10], [50.0, 100], [90.0, 100], [99.0, 1000]]) == [
        (10, 100, pytest.approx(80.0)), (100, 1000, pytest.approx(9.0))]
    assert m.log_density([[50.0, 100], [99.0, 1000]]) == []		# fewer than 3
    assert m.log_density([[50.0, 100], [99.0, 1000], [100.0, 2000]]) == []
    assert m.log_density(None) == []
    # the densities integrate back to the shares
    pc = pct_list(100000.0)
    steps = m.log_density(pc)
    total = sum(y * math.log10(hi / lo) for lo, hi, y in steps)
    assert total == pytest.approx(PCTS[-2] - PCTS[0])


# --------------------------------------------------------------------------
# bad input

BAD = [
    ("format", _set(["format"], "ssdload-sweep"), "\"format\" is \"ssdload-sweep\", not "
     "\"ssdload-curve\" (not an ssdload curve result)"),
    ("version", _set(["format_version"], 2), "unknown format_version 2 (this renderer "
     "reads 1)"),
    ("version-str", _set(["format_version"], "1"), "unknown format_version \"1\""),
    ("no-points", _set(["points"], ...), "curve.json: no key \"points\""),
    ("null-points", _set(["points"], None), "curve.json.points: is not an array"),
    ("no-settings", _set(["settings"], ...), "curve.json: no key \"settings\""),
    ("no-device", _set(["device"], ...), "curve.json: no key \"device\""),
    ("no-state", _set(["state"], ...), "curve.json: no key \"state\""),
    ("point-no-label", _set(["points", 2, "label"], ...),
     "curve.json.points[2]: no key \"label\""),
    ("point-no-iops", _set(["points", 1, "iops"], ...), "curve.json.points[1]: no key \"iops\""),
    ("point-iops-str", _set(["points", 1, "iops"], "12k"),
     "curve.json.points[1].iops: \"12k\" is not a number"),
    ("point-label-num", _set(["points", 0, "label"], 10),
     "curve.json.points[0].label: 10 is not a string"),
    ("point-ratio", _set(["points", 3, "ratio"], [1]),
     "curve.json.points[3].ratio: [1] is not a number"),
    ("point-read-pct", _set(["points", 3, "read_pct"], 170),
     "curve.json.points[3].read_pct: 170 is above 100"),
    ("point-late", _set(["points", 4, "intended", "late_ios"], 1.5),
     "curve.json.points[4].intended.late_ios: 1.5 is not an integer"),
    ("point-intended", _set(["points", 4, "intended"], 7),
     "curve.json.points[4].intended: is not an object"),
    ("max-label", _set(["max", "label"], None), "curve.json.max.label: null is not a string"),
    ("max-not-object", _set(["max"], "max"), "curve.json.max: is not an object"),
    ("max-iops", _set(["max_iops"], "lots"), "curve.json.max_iops: \"lots\" is not a number"),
    ("read-not-object", _set(["points", 0, "read"], None),
     "curve.json.points[0].read: is not an object"),
    ("read-pcts", _set(["points", 0, "read", "percentiles"], {"50": 1}),
     "curve.json.points[0].read.percentiles: is not an array"),
    ("read-pct-pair", _set(["points", 0, "read", "percentiles", 2], [50.0]),
     "curve.json.points[0].read.percentiles[2]: has 1 entries, not 2"),
    ("read-pct-ns", _set(["points", 0, "read", "percentiles", 2, 1], "1ms"),
     "curve.json.points[0].read.percentiles[2][1]: \"1ms\" is not a number"),
    ("read-pct-order", _set(["points", 0, "read", "percentiles", 3, 0], 5.0),
     "curve.json.points[0].read.percentiles[3][0]: 5.0 is not above the percentile before it"),
    ("read-pct-over", _set(["points", 0, "read", "percentiles", 7, 0], 101.0),
     "curve.json.points[0].read.percentiles[7][0]: 101.0 is above 100"),
    ("write-intended", _set(["points", 5, "write", "intended_percentiles"], [[1, -5]]),
     "curve.json.points[5].write.intended_percentiles[0][1]: -5 is below 0"),
    ("curve-pct", _set(["settings", "curve_pct"], [10, "50"]),
     "curve.json.settings.curve_pct[1]: \"50\" is not a number"),
    ("max-given", _set(["settings", "max_iops_given"], True),
     "curve.json.settings.max_iops_given: true is not a number"),
    ("stopcurve", _set(["settings", "stopcurve_ns"], "2ms"),
     "curve.json.settings.stopcurve_ns: \"2ms\" is not a number"),
    ("rate-process", _set(["settings", "rate_process"], 1),
     "curve.json.settings.rate_process: 1 is not a string"),
    ("iodepth", _set(["settings", "iodepth"], 0), "curve.json.settings.iodepth: 0 is below 1"),
    ("skipped", _set(["skipped_pct"], [200, None]),
     "curve.json.skipped_pct[1]: is null (a number is needed)"),
    ("stop-reason", _set(["stop"], {"pct": 150}), "curve.json.stop: no key \"reason\""),
    ("stop-pct", _set(["stop"], {"pct": "150%", "reason": "x"}),
     "curve.json.stop.pct: \"150%\" is not a number"),
    ("state-null", _set(["state"], None), "curve.json.state: null is not a string"),
    ("device-model", _set(["device", "model"], 3), "curve.json.device.model: 3 is not a string"),
    ("not-json", "{\"format\": \"ssdload-curve\",", "curve.json: not JSON"),
    ("nan", "NaN", "a number must be finite"),
]


def curve_json(fault):
    """The text of done_doc() with @fault: a function changing the
    document, "NaN" (a NaN in a point's ratio) or the text itself."""
    doc = done_doc()
    if callable(fault):
        fault(doc)
    elif fault != "NaN":
        return fault
    return json.dumps(doc).replace('"ratio": ', '"ratio": NaN, "x": ', 1) \
        if fault == "NaN" else json.dumps(doc)


@without_matplotlib
@pytest.mark.parametrize("name,fault,needle", BAD, ids=[b[0] for b in BAD])
def test_malformed_curve_is_refused(tmp_path, name, fault, needle):
    """Exit 2, one line on stderr naming the bad key, nothing rendered."""
    d = tmp_path / name
    p = render_curve(d, raw=curve_json(fault))
    err = p.stderr
    assert (p.returncode, p.stdout, err.count("\n")) == (2, "", 1), err
    assert err.startswith("ssdload-report: ") and needle in err and "Traceback" not in err, err
    assert not (d / "report.html").exists() and not (d / "plots").exists()


@without_matplotlib
def test_fixtures_hold_their_rule():
    """The synthetic points: ratio = iops / target, the labels and run files
    of their percent, the max point first with no rate (guards the
    fixtures)."""
    for make in CURVE_DOCS.values():
        doc = make()
        for p in doc["points"]:
            assert p["label"] == "%g%%" % p["pct"] and p["run_json"] == "run-%g.json" % p["pct"]
            if p["ratio"] is not None:
                assert p["ratio"] == pytest.approx(p["iops"] / p["target_iops"], rel=1e-5)
            assert p["target_iops"] == pytest.approx(doc["max_iops"] * p["pct"] / 100)
        assert [p["pct"] for p in doc["points"]] == sorted(p["pct"] for p in doc["points"])
        if doc["max"]:
            assert doc["max"]["intended"] is None and doc["max"]["pct"] is None
            assert doc["max"]["iops"] == doc["max_iops"]
