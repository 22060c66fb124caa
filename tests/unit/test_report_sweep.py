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
import subprocess
import xml.etree.ElementTree as ET

import pytest

from test_report import (PYTHON, SCRIPT, SVG, Html, data_paths, markers,
                         matplotlib_present,  # noqa: F401 (autouse: skips without matplotlib)
                         read_csv, snapshot, without_matplotlib)

MS, S = 1000000, 1000000000
AUTO_QDS = [1, 2, 4, 8, 16, 32, 64, 128, 256]
DIR_KEYS = ["ios", "iops", "bw_bytes", "lat_mean_ns", "lat_max_ns", "lat_p50_ns",
            "lat_p99_ns", "lat_p99_9_ns"]


# --------------------------------------------------------------------------
# synthetic sweep.json documents

def iops_at(qd, workers, peak=400000.0):
    """A device that saturates: IOPS = peak * qd / (qd + 12), a little
    less with one worker at a high depth."""
    return round(peak * qd / (qd + 12.0) * (0.9 if workers == 1 and qd > 32 else 1.0), 3)


def direction(iops, lat_ns, runtime_ns, bs=4096):
    ios = int(iops * runtime_ns / S)
    return {"ios": ios, "iops": iops, "bw_bytes": iops * bs, "lat_mean_ns": lat_ns,
            "lat_max_ns": int(lat_ns * 20), "lat_p50_ns": int(lat_ns * 0.9),
            "lat_p99_ns": int(lat_ns * 2.5), "lat_p99_9_ns": int(lat_ns * 4)}


def sweep_point(step, workers, qd, mix=100, samples=6, interval_ms=1000, ramp_ms=2000):
    runtime = samples * interval_ms * MS
    iops = iops_at(qd, workers)
    lat = qd / iops * 1e9 * 0.98		# Little: 98% of the depth in flight
    p = {"step": step, "workers": workers, "qd": qd, "qd_per_worker": -(-qd // workers),
         "runtime_ns": runtime, "gap_max_ns": 0 if step == 1 else 20000 + step,
         "gap_mean_ns": 0.0 if step == 1 else 15000.5 + step, "iops": iops,
         "bw_bytes": iops * 4096, "lat_mean_ns": lat, "lat_p99_ns": int(lat * 2.5),
         "little": round(iops * lat / 1e9 / qd, 6)}
    if mix:
        p["read"] = direction(iops * mix / 100.0, lat * 0.8, runtime)
    if mix < 100:
        p["write"] = direction(iops * (100 - mix) / 100.0, lat * 1.5, runtime)
    # the intervals after the ramp (t_ms: their end, from the point's start),
    # a drop to half in the middle of each point
    p["series"] = [{"t_ms": ramp_ms + interval_ms * (i + 1) - 0.5,
                    "iops": iops * (0.5 if i == samples // 2 else 1.0 + 0.01 * (i % 3)),
                    "lat_mean_ns": lat if i % 4 else None} for i in range(samples)]
    return p


def knees_of(points, workers_list, fraction=0.95):
    """The knees as `ssdload sweep` computes them."""
    out = []
    for w in workers_list or [None]:
        pts = [p for p in points if w is None or p["workers"] == w]
        top = max(pts, key=lambda p: p["iops"])
        knee = min((p for p in pts if p["iops"] >= fraction * top["iops"]),
                   key=lambda p: p["qd"])
        out.append({"workers": w, "max_iops": top["iops"], "max_qd": top["qd"],
                    "knee_qd": knee["qd"], "knee_iops": knee["iops"]})
    return out


def base_sweep(qds, workers_list=None, rw="randread", mix=None, max_qd=64):
    return {
        "format": "ssdload-sweep", "format_version": 1, "ssdload_version": "0.9",
        "command": "ssdload sweep --filename=/dev/nvme0n1 --rw=%s --bs=4k --qd=%s" % (
            rw, ",".join(str(q) for q in qds)),
        "started": "2026-12-05T09:30:00Z", "finished": "2026-12-05T09:40:00Z",
        "state": "done",
        "device": {"path": "/dev/nvme0n1", "model": "QEMU NVMe Ctrl", "serial": "deadbeef",
                   "firmware": "8.0.0", "capacity_bytes": 268435456},
        "settings": {"filename": "/dev/nvme0n1", "rw": rw, "bs": 4096, "rwmixread": mix,
                     "qd_list": qds, "workers_list": workers_list,
                     "max_qd_per_worker": max_qd, "ramp_ms": 2000, "runtime_ms": 6000,
                     "log_interval_ms": 1000, "knee_fraction": 0.95, "numjobs": 8},
        "points": [], "knees": [], "run_json": "run.json",
    }


def auto_doc():
    """The automatic rule: workers = ceil(QD / 64)."""
    doc = base_sweep(AUTO_QDS)
    doc["points"] = [sweep_point(i + 1, -(-q // 64), q) for i, q in enumerate(AUTO_QDS)]
    doc["knees"] = knees_of(doc["points"], None)
    return doc


def workers_doc():
    """Two worker counts, 1 and 4, over QD 4..64."""
    qds = [4, 8, 16, 32, 64]
    doc = base_sweep(qds, workers_list=[1, 4])
    doc["points"] = [sweep_point(i + 1, w, q)
                     for i, (w, q) in enumerate((w, q) for w in (1, 4) for q in qds)]
    doc["knees"] = knees_of(doc["points"], [1, 4])
    return doc


def mixed_doc():
    """70/30 reads and writes; the last point has no reads (a write-only
    point: its read key is absent)."""
    qds = [1, 4, 16, 64]
    doc = base_sweep(qds, rw="randrw", mix=70)
    doc["points"] = [sweep_point(i + 1, 1, q, mix=70) for i, q in enumerate(qds)]
    del doc["points"][-1]["read"]
    doc["knees"] = knees_of(doc["points"], None)
    return doc


def no_series_doc():
    """No interval samples in any point (and nulls where a value is unknown)."""
    doc = auto_doc()
    for p in doc["points"]:
        p["series"] = []
    doc["points"][2].update(lat_p99_ns=None, little=None)
    del doc["points"][3]["series"]
    doc["device"].update(model=None, firmware=None)
    return doc


def interrupted_doc():
    """Interrupted during QD 32: five points, the knees of those."""
    doc = auto_doc()
    doc["points"] = doc["points"][:5]
    doc["points"][-1]["series"] = []
    doc.update(state="interrupted", finished=None, knees=knees_of(doc["points"], None))
    return doc


SWEEP_DOCS = {"auto": auto_doc, "workers": workers_doc, "mixed": mixed_doc,
              "no-series": no_series_doc, "interrupted": interrupted_doc}
ALL_PLOTS = ["sweep_iops.svg", "sweep_latency.svg", "sweep_load.svg", "sweep_time.svg"]
SWEEP_PLOTS = {k: ALL_PLOTS for k in SWEEP_DOCS}
SWEEP_PLOTS["no-series"] = ALL_PLOTS[:3]


# --------------------------------------------------------------------------
# helpers

def render_sweep(d, doc=None, raw=None):
    """Write @doc (or @raw, text) to d/sweep.json and run the renderer."""
    os.makedirs(str(d), exist_ok=True)
    if raw is None:
        raw = json.dumps(doc, indent=1)
    with open(os.path.join(str(d), "sweep.json"), "w", encoding="utf-8") as f:
        f.write(raw)
    return subprocess.run([PYTHON, SCRIPT, str(d)], capture_output=True, text=True,
                          timeout=120)


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
    from test_report import iops_doc, render	# pylint: disable=import-outside-toplevel
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

def _set(path, v):
    """A fault: the key at @path (keys and indices) set to @v, or removed
    when @v is the class Ellipsis."""
    def fault(doc):
        x = doc
        for k in path[:-1]:
            x = x[k]
        if v is Ellipsis:
            del x[path[-1]]
        else:
            x[path[-1]] = v
    return fault


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
