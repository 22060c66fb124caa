# SPDX-License-Identifier: GPL-2.0
"""userspace/ssdload-report.py: the report of an `ssdload compare`.

compare.json (format "ssdload-compare", format_version 1) embeds each
compared run's document whole.  The documents (lib/compare_docs.py) are
those of the other report tests (curve.json of lib/curve_docs.py,
sweep.json of lib/sweep_docs.py, pts.json of lib/pts_docs.py), made to
differ (a second drive with its own model, slower), and plain runs' JSON
written by `ssdload show --output-format=json` from the fake debugfs jobs
of lib/debugfs.py (the real output, two latency distributions).  The tests
check every kind's plots (the runs overlaid: a line, a bar or a percentile
curve per run), report.html (it parses, refers only to files that exist,
the runs table, the side-by-side table holds the documents' values),
compare.csv (a row per run and point), the refusal of malformed documents
(exit 2, one line naming the bad key) and that two renderings are
byte-identical.
"""
import copy
import json
import os

import pytest

from compare_docs import (COMPARE_DOCS, COMPARE_PLOTS, curves, pts_hir, pts_iops, pts_wsat,
                          render_compare, runs, sweeps)
from curve_docs import done_doc
from report import Html, _set, data_paths, markers, read_csv, snapshot, without_matplotlib
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)


# --------------------------------------------------------------------------
# helpers

def rendered(tmp_path, name, doc=None):
    d = tmp_path / name
    p = render_compare(d, doc or COMPARE_DOCS[name]())
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    return d


def check_page(d, name, doc):
    """The page, its files, its plots, the runs table: (text, parsed)."""
    text = (d / "report.html").read_text(encoding="utf-8")
    h = Html(text)
    assert h.scripts == 0
    assert "<title>Comparison of " in text and "ssdload compare &middot; page 1 of" in text
    assert sorted(h.links) == ["compare.csv", "compare.json"]
    assert sorted(h.imgs) == sorted("plots/" + x for x in COMPARE_PLOTS[name])
    assert all((d / src).is_file() for src in h.imgs + h.links)
    assert sorted(os.listdir(d / "plots")) == sorted(COMPARE_PLOTS[name])
    labels = [r["label"] for r in doc["runs"]]
    assert [r[0]["text"] for r in h.tables["runs"][1:]] == labels
    assert [r[7]["text"] for r in h.tables["runs"][1:]] == [r["source"] for r in doc["runs"]]
    assert [c["text"] for c in h.tables["compare"][0]] == [""] + labels
    return text, h


def table_rows(h):
    """{row name: [cell per run]} of the side-by-side table."""
    return {r[0]["text"]: r[1:] for r in h.tables["compare"][1:]}


def value(c):
    return None if c["value"] is None else float(c["value"])


# --------------------------------------------------------------------------
# the kinds

def test_curves(tmp_path):
    doc = curves()
    d = rendered(tmp_path, "curve", doc)
    _, h = check_page(d, "curve", doc)
    rows = table_rows(h)
    a, b = (r["document"] for r in doc["runs"])
    assert [value(c) for c in rows["100% (max_iops)"]] == [a["max_iops"], b["max_iops"]]
    assert [value(c) for c in rows["50% resp mean (\u00b5s)"]] == \
        [a["points"][1]["lat_mean_ns"], b["points"][1]["lat_mean_ns"]]
    # 150%: only the second curve has it
    assert [c["text"] for c in rows["150% IOPS"]][0] == "n/a"
    assert value(rows["150% IOPS"][1]) == b["points"][-1]["iops"]
    # a line per curve (resp) and per curve with intended latencies, a star each
    assert markers(d / "plots/compare_response.svg") == [6, 6, 1, 4, 4, 1]
    # the exceedance: each curve's max point, the reads of both, the writes of the 70/30 one
    assert markers(d / "plots/compare_exceedance.svg") == [7, 7, 7]
    rows = read_csv(d / "compare.csv")
    assert rows[0][:5] == ["run", "point", "pct", "target_iops", "iops"]
    assert [r[:2] for r in rows[1:]] == \
        [["Drive A", p["label"]] for p in [a["max"]] + a["points"]] + \
        [["Drive B", p["label"]] for p in [b["max"]] + b["points"]]


def test_sweeps(tmp_path):
    doc = sweeps()
    d = rendered(tmp_path, "sweep", doc)
    text, h = check_page(d, "sweep", doc)
    rows = table_rows(h)
    a, b, c = (r["document"] for r in doc["runs"])
    assert value(rows["knee QD"][0]) == a["knees"][0]["knee_qd"]
    assert value(rows["4w knee QD"][1]) == b["knees"][1]["knee_qd"]
    assert value(rows["QD 16 IOPS"][0]) == [p for p in a["points"] if p["qd"] == 16][0]["iops"]
    assert value(rows["1w QD 8 p99 (\u00b5s)"][1]) == \
        [p for p in b["points"] if p["qd"] == 8 and p["workers"] == 1][0]["lat_p99_ns"]
    # the interrupted sweep: the banner names it
    assert '<div class="banner warn"><h2>PARTIAL RUNS</h2>' in text
    assert "Drive C (interrupted)" in text
    # lines: the auto rule's, the two worker counts', the interrupted one's
    n = [len(a["points"]), 5, 5, len(c["points"])]
    assert markers(d / "plots/compare_iops.svg") == n
    assert markers(d / "plots/compare_latency.svg") == n
    assert len(read_csv(d / "compare.csv")) == 1 + sum(n)


def test_runs(tmp_path):
    """Plain runs (the CLI's real JSON): the directions summed, percentiles
    from clat_ns."""
    doc = runs()
    d = rendered(tmp_path, "run", doc)
    _, h = check_page(d, "run", doc)
    rows = table_rows(h)
    jobs = [r["document"]["jobs"][0] for r in doc["runs"]]
    assert [value(c) for c in rows["read IOPS"]] == [j["read"]["iops"] for j in jobs]
    assert [value(c) for c in rows["write clat p99 (\u00b5s)"]] == \
        [j["write"]["clat_ns"]["percentile"]["99.000000"] for j in jobs]
    assert [value(c) for c in rows["read clat mean (\u00b5s)"]] == \
        [pytest.approx(j["read"]["clat_ns"]["mean"]) for j in jobs]
    # bars: 2 directions x 2 runs, 2 x 5 statistics x 2 runs
    assert data_paths(d / "plots/compare_iops.svg", 4) >= 4
    assert data_paths(d / "plots/compare_latency.svg", 4) >= 20
    # the exceedance: a line per run and direction, a marker per percentile below 100
    pcs = len([k for k in jobs[0]["read"]["clat_ns"]["percentile"] if float(k) < 100])
    assert markers(d / "plots/compare_exceedance.svg") == [pcs] * 4
    csv = read_csv(d / "compare.csv")
    assert [r[:2] for r in csv[1:]] == [["gen4", "read"], ["gen4", "write"],
                                        ["gen5", "read"], ["gen5", "write"]]
    assert float(csv[1][3]) == jobs[0]["read"]["iops"]


@pytest.mark.parametrize("name,test,what", [("pts-iops", "iops", "IOPS"),
                                            ("pts-latency", "latency", "mean (\u00b5s)")])
def test_pts_matrix(tmp_path, name, test, what):
    doc = COMPARE_DOCS[name]()
    d = rendered(tmp_path, name, doc)
    text, h = check_page(d, name, doc)
    rows = table_rows(h)
    a, b = (r["document"] for r in doc["runs"])
    key = {"iops": "iops", "latency": "lat_mean_ns"}[test]
    for p, q in zip(a["results"]["points"], b["results"]["points"]):
        name_ = "%g KiB %g/%g %s" % (p["bs"] / 1024.0, p["rwmixread"], 100 - p["rwmixread"],
                                      what)
        assert [value(c) for c in rows[name_]] == [p[key], q[key]]
    # the mixes 100/0, 65/35 and 0/100 of each run, a marker per block size
    nbs = len(a["settings"]["block_sizes"])
    assert markers(d / "plots/compare_pts.svg") == [nbs] * 6
    assert "The R/W mixes 100/0, 65/35, 0/100" in text
    assert len(read_csv(d / "compare.csv")) == 1 + 2 * len(a["results"]["points"])


def test_pts_wsat_and_hir(tmp_path):
    doc = pts_wsat()
    d = rendered(tmp_path, "pts-wsat", doc)
    _, h = check_page(d, "pts-wsat", doc)
    a, b = (r["document"] for r in doc["runs"])
    assert [value(c) for c in table_rows(h)["steady IOPS"]] == \
        [a["results"]["steady_iops"], b["results"]["steady_iops"]]
    assert markers(d / "plots/compare_pts.svg") == [len(a["series"])] * 2
    assert read_csv(d / "compare.csv")[0] == ["run", "t_ms", "iops", "bw_bytes",
                                               "lat_mean_ns", "written_bytes"]
    doc = pts_hir()
    d = rendered(tmp_path, "pts-hir", doc)
    text, _ = check_page(d, "pts-hir", doc)
    assert "The hir test has no overlaid plot here: the comparison is the table." in text


@pytest.mark.parametrize("name", sorted(COMPARE_DOCS))
def test_deterministic(tmp_path, name):
    """Twice in one directory and once in another: the same bytes."""
    doc = COMPARE_DOCS[name]()
    snaps = [snapshot(rendered(tmp_path / x, name, copy.deepcopy(doc))) for x in "aab"]
    assert snaps[0] == snaps[1] == snaps[2]
    assert {"report.html", "compare.csv", "compare.json"} <= set(snaps[0])


def test_other_results_win(tmp_path):
    """A directory with a curve.json is the curve's: compare.json is the
    last in the order of precedence."""
    from curve_docs import render_curve		# pylint: disable=import-outside-toplevel
    d = rendered(tmp_path, "both", curves())
    assert render_curve(d, done_doc()).returncode == 0
    assert "Iorate curve" in (d / "report.html").read_text()
    assert not (d / "compare.csv").exists()
    assert not [x for x in os.listdir(d / "plots") if x.startswith("compare_")]


# --------------------------------------------------------------------------
# bad input

BAD = [
    ("format", _set(["format"], "ssdload-curve"),
     "\"format\" is \"ssdload-curve\", not \"ssdload-compare\""),
    ("version", _set(["format_version"], 2), "unknown format_version 2"),
    ("no-runs", _set(["runs"], ...), "compare.json: no key \"runs\""),
    ("kind", _set(["kind"], "fio"), "compare.json.kind: \"fio\" is not run, sweep, curve or pts"),
    ("one-run", lambda doc: doc["runs"].pop(), "compare.json.runs: has 1 runs, not 2 to 16"),
    ("label", _set(["runs", 1, "label"], "Drive A"),
     "compare.json.runs[1].label: \"Drive A\" is the label of an earlier run"),
    ("no-label", _set(["runs", 0, "label"], ...), "compare.json.runs[0]: no key \"label\""),
    ("no-document", _set(["runs", 1, "document"], ...),
     "compare.json.runs[1]: no key \"document\""),
    ("doc-format", _set(["runs", 1, "document", "format"], "ssdload-sweep"),
     "compare.json.runs[1].document: \"format\" is \"ssdload-sweep\", not \"ssdload-curve\""),
    ("doc-version", _set(["runs", 0, "document", "format_version"], 3),
     "compare.json.runs[0].document: unknown format_version 3"),
    ("doc-point", _set(["runs", 1, "document", "points", 2, "iops"], "fast"),
     "compare.json.runs[1].document.points[2].iops: \"fast\" is not a number"),
    ("doc-array", _set(["runs", 0, "document"], []),
     "compare.json.runs[0].document: not a JSON object"),
    ("not-json", "{\"format\": ", "compare.json: not JSON"),
]


@without_matplotlib
@pytest.mark.parametrize("name,fault,needle", BAD, ids=[b[0] for b in BAD])
def test_malformed_compare_is_refused(tmp_path, name, fault, needle):
    """Exit 2, one line on stderr naming the bad key, nothing rendered."""
    if callable(fault):
        doc = curves()
        fault(doc)
        raw = json.dumps(doc)
    else:
        raw = fault
    d = tmp_path / name
    p = render_compare(d, raw=raw)
    err = p.stderr
    assert (p.returncode, p.stdout, err.count("\n")) == (2, "", 1), err
    assert err.startswith("ssdload-report: ") and needle in err and "Traceback" not in err, err
    assert not (d / "report.html").exists() and not (d / "plots").exists()


@without_matplotlib
@pytest.mark.parametrize("make,fault,needle", [
    (pts_iops, _set(["runs", 1, "document", "test"], "latency"),
     "compare.json.runs[1].document.test: \"latency\" is not the comparison's test \"iops\""),
    (pts_iops, _set(["test"], None), "compare.json.test: null is not a string"),
    (runs, _set(["runs", 0, "document", "jobs"], {}), "compare.json.runs[0].document.jobs: "
     "is not an array"),
    (runs, _set(["runs", 1, "document", "jobs", 0, "read", "clat_ns", "percentile",
                 "99.000000"], "1ms"),
     "compare.json.runs[1].document.jobs[0].read.clat_ns.percentile.\"99.000000\": \"1ms\" "
     "is not a number"),
    (sweeps, _set(["runs", 2, "document", "knees", 0, "knee_qd"], 0),
     "compare.json.runs[2].document.knees[0].knee_qd: 0 is below 1"),
], ids=["pts-test", "pts-no-test", "run-jobs", "run-percentile", "sweep-knee"])
def test_malformed_runs_are_refused(tmp_path, make, fault, needle):
    doc = make()
    fault(doc)
    p = render_compare(tmp_path / "bad", doc)
    assert (p.returncode, p.stderr.count("\n")) == (2, 1), p.stderr
    assert needle in p.stderr, p.stderr
