# SPDX-License-Identifier: GPL-2.0
"""userspace/ssdload-report.py: the report of an `ssdload pts` run.

Synthetic pts.json files (format_version 1, Documentation/pts.rst) of the
iops (56 points x 6 rounds), throughput, latency, wsat, hir, xsr, ecw and
dirth (TC 2, 1 x QD 4, 1 x 5 rounds, three operating points) tests are
rendered in temporary directories; the tests check every plot (well-formed
SVG with its data drawn), report.html (it parses, refers only to files that
exist, has the banners, and its tables hold the JSON's values), the CSV
tables, the refusal of bad input (exit 2, one line, no traceback), partial
and null data ("n/a", nothing invented) and that two renderings are
byte-identical.

The renderer needs Debian's python3-matplotlib: it runs with
$SSDLOAD_PYTHON (default /usr/bin/python3), as `ssdload report` does.
"""
import copy
import json
import math
import os
import re
import subprocess

import pytest

from pts_docs import (DEMAND_OPS, DOCS, IOPS_BS, MIXES, PLOTS, dirth_doc, ecw_doc, hir_doc,
                      iops_doc, latency_doc, render, throughput_doc, wsat_doc, xsr_doc)
from report import (PYTHON, SCRIPT, Html, data_paths, markers, read_csv, snapshot,
                    without_matplotlib)
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)


# --------------------------------------------------------------------------
# helpers

def rendered(tmp_path, test, doc=None):
    """Render the synthetic @test (or @doc); assert success; the directory."""
    d = tmp_path / test
    p = render(d, doc if doc is not None else DOCS[test]())
    assert p.returncode == 0, p.stderr
    assert p.stderr == "" and p.stdout == ""
    return d


def page(d):
    with open(os.path.join(str(d), "report.html"), encoding="utf-8") as f:
        text = f.read()
    return text, Html(text)


def most_markers(svg_path):
    return max(markers(svg_path) + [0])


def check_page(d, test):
    """Common checks of a rendered report; returns (text, parsed)."""
    text, h = page(d)
    assert h.scripts == 0, "the report must not need JavaScript"
    assert "SNIA SSS PTS 2.0.2" in text
    for src in h.imgs + h.links:
        assert not re.match(r"[a-z]+:", src) and not src.startswith("/"), \
            "not a relative reference: " + src
        assert os.path.isfile(os.path.join(str(d), src)), "report.html refers to missing " + src
    for name in PLOTS[test]:
        assert "plots/" + name in h.imgs, name + " is not shown"
    assert sorted(os.listdir(str(d / "plots"))) == sorted(s[len("plots/"):] for s in h.imgs), \
        "plots/ holds other files than the report shows"
    return text, h


def cell_num(c):
    return float(c["text"].split()[0].replace(",", ""))


# --------------------------------------------------------------------------
# the four tests

def test_iops(tmp_path):
    doc = iops_doc()
    d = rendered(tmp_path, "iops", doc)
    text, h = check_page(d, "iops")
    # plots: the convergence plot has 8 block sizes + tracking, 6 rounds each
    assert data_paths(d / "plots/ss_convergence.svg", 6) >= 9
    assert data_paths(d / "plots/ss_window.svg", 5) >= 1
    assert data_paths(d / "plots/iops_2d.svg", 8) >= 7	# one line per mix
    assert data_paths(d / "plots/iops_3d.svg", 4) >= 56 * 3	# visible bar faces
    # banners of a scaled run
    assert "NOT CONFORMANT" in text and "SCALED RUN" in text
    for dev in doc["deviations"]:
        assert dev in text
    assert "Steady state reached at round 6" in text
    # the 56-cell table, rows R/W mix, columns block size (ascending)
    t = h.tables["measurement"]
    assert [c["text"] for c in t[0][1:]] == ["0.5 KiB", "4 KiB", "8 KiB", "16 KiB", "32 KiB",
                                             "64 KiB", "128 KiB", "1024 KiB"]
    assert [r[0]["text"] for r in t[1:]] == ["%d/%d" % (m, 100 - m) for m in MIXES]
    cells = [c for r in t[1:] for c in r[1:]]
    assert len(cells) == 56 and all(c["value"] is not None for c in cells)
    res = {(p["rwmixread"], p["bs"]): p["iops"] for p in doc["results"]["points"]}
    bss = sorted(IOPS_BS)
    for i, m in enumerate(MIXES):
        for j, bs in enumerate(bss):
            c = t[1 + i][1 + j]
            assert float(c["value"]) == res[(m, bs)]
            assert cell_num(c) == pytest.approx(res[(m, bs)], abs=0.51)
    assert float(t[1 + MIXES.index(0)][1 + bss.index(4096)]["value"]) == \
        pytest.approx(doc["steady_state"]["average"])
    # health per round
    assert len(h.tables["health"]) == 1 + 6 + 1
    assert "311 K (38 \u00b0C)" in text
    # CSV
    rounds = read_csv(d / "rounds.csv")
    assert rounds[0] == ["round", "tracking", "duration_ms"]
    assert [(int(r[0]), float(r[1]), int(r[2])) for r in rounds[1:]] == \
        [(r["round"], r["tracking"], r["duration_ms"]) for r in doc["rounds"]]
    pts = read_csv(d / "points.csv")
    assert pts[0] == ["round", "bs", "rwmixread", "iops", "bw_bytes", "lat_mean_ns",
                      "lat_max_ns", "read_iops", "write_iops"]
    assert len(pts) == 1 + 6 * 56
    p = doc["rounds"][2]["points"][17]
    row = pts[1 + 2 * 56 + 17]
    assert [float(x) for x in row] == [3, p["bs"], p["rwmixread"], p["iops"], p["bw_bytes"],
                                       p["lat_mean_ns"], p["lat_max_ns"], p["read"]["iops"],
                                       p["write"]["iops"]]
    meas = read_csv(d / "measurement.csv")
    assert meas[0] == ["metric", "rwmixread"] + [str(b) for b in bss]
    assert len(meas) == 1 + 7
    for i, m in enumerate(MIXES):
        assert meas[1 + i][:2] == ["iops", str(m)]
        assert [float(x) for x in meas[1 + i][2:]] == [res[(m, b)] for b in bss]


def test_throughput(tmp_path):
    doc = throughput_doc()
    d = rendered(tmp_path, "throughput", doc)
    text, h = check_page(d, "throughput")
    assert data_paths(d / "plots/ss_convergence.svg", 6) >= 3
    assert data_paths(d / "plots/throughput_bw.svg", 4) >= 2
    t = h.tables["measurement"]
    assert [c["text"] for c in t[0][1:]] == ["1024 KiB"]
    assert [r[0]["text"] for r in t[1:]] == ["100/0 (read)", "0/100 (write)"]
    res = {p["rwmixread"]: p["bw_bytes"] for p in doc["results"]["points"]}
    assert cell_num(t[1][1]) == pytest.approx(res[100] / 1e6, abs=0.51)
    assert cell_num(t[2][1]) == pytest.approx(res[0] / 1e6, abs=0.51)
    assert "MB/s" in text
    meas = read_csv(d / "measurement.csv")
    assert meas == [["metric", "rwmixread", "1048576"], ["bw_bytes", "100", repr(res[100])],
                    ["bw_bytes", "0", repr(res[0])]]
    assert len(read_csv(d / "points.csv")) == 1 + 6 * 2


def test_latency(tmp_path):
    doc = latency_doc()
    d = rendered(tmp_path, "latency", doc)
    text, h = check_page(d, "latency")
    assert data_paths(d / "plots/latency_avg.svg", 4) >= 9
    assert data_paths(d / "plots/latency_max.svg", 4) >= 9
    # 3 mixes x 3 sizes, read and/or write: 4 read + ... = 12 curves of 6 percentiles
    assert data_paths(d / "plots/latency_percentiles.svg", 6) >= 12
    res = {(p["rwmixread"], p["bs"]): p for p in doc["results"]["points"]}
    for tid, key in (("measurement", "lat_mean_ns"), ("measurement-max", "lat_max_ns")):
        t = h.tables[tid]
        assert [c["text"] for c in t[0][1:]] == ["0.5 KiB", "4 KiB", "8 KiB"]
        cells = [c for r in t[1:] for c in r[1:]]
        assert len(cells) == 9
        for i, m in enumerate((100, 65, 0)):
            for j, bs in enumerate((512, 4096, 8192)):
                assert float(t[1 + i][1 + j]["value"]) == res[(m, bs)][key]
                assert cell_num(t[1 + i][1 + j]) == \
                    pytest.approx(res[(m, bs)][key] / 1e3, rel=1e-3)
    pt = h.tables["percentiles"]
    assert len(pt) == 1 + 12
    assert [c["text"] for c in pt[0][1:]] == ["p50", "p90", "p99", "p99.9", "p99.99",
                                              "p99.999"]
    assert pt[1][0]["text"] == "0.5 KiB 100/0 read"
    assert float(pt[1][-1]["value"]) == res[(100, 512)]["read"]["percentiles"]["99.999000"]
    assert "\u00b5s" in text
    meas = read_csv(d / "measurement.csv")
    assert [r[:2] for r in meas[1:]] == [["lat_mean_ns", "100"], ["lat_mean_ns", "65"],
                                         ["lat_mean_ns", "0"], ["lat_max_ns", "100"],
                                         ["lat_max_ns", "65"], ["lat_max_ns", "0"]]


def test_wsat(tmp_path):
    doc = wsat_doc()
    d = rendered(tmp_path, "wsat", doc)
    text, h = check_page(d, "wsat")
    assert data_paths(d / "plots/wsat_time.svg", 40) >= 1
    assert data_paths(d / "plots/wsat_tgbw.svg", 40) >= 1
    series = read_csv(d / "series.csv")
    assert series[0] == ["t_ms", "iops", "bw_bytes", "lat_mean_ns", "lat_max_ns",
                         "written_bytes"]
    assert len(series) == 41 and int(series[-1][-1]) == doc["series"][-1]["written_bytes"]
    assert not os.path.exists(d / "rounds.csv") and not os.path.exists(d / "measurement.csv")
    assert float(h.tables["wsat"][1][3]["value"]) == doc["results"]["steady_iops"]
    assert h.tables["wsat"][1][4]["text"] == "the time limit"
    seg = h.tables["wsat-segments"]
    assert len(seg) == 1 + 5
    assert [float(r[3]["value"]) for r in seg[1:]] == [g["iops"] for g in doc["segments"]]
    assert "Segments 1\u20135 (the last five): range 66.00%" in text and "not steady" in text
    assert "Steady state" not in text


def test_hir(tmp_path):
    doc = hir_doc()
    d = rendered(tmp_path, "hir", doc)
    text, h = check_page(d, "hir")
    assert data_paths(d / "plots/hir_wait.svg", 5) >= 2	# access and baseline lines
    assert data_paths(d / "plots/hir_time.svg", 4) >= 5	# one line per wait state
    hir = h.tables["hir"]
    assert [r[0]["text"] for r in hir[1:]] == ["1", "2", "3", "4", "5"]
    assert [float(r[3]["value"]) for r in hir[1:]] == [w["access"]["iops"]
                                                       for w in doc["wait_states"]]
    assert hir[1][5]["text"] == "110.0%" and hir[5][5]["text"] == "150.0%"
    assert "Steady state reached at segment 7 (measurement window: segments 3\u20137)" in text
    assert len(h.tables["wsat-segments"]) == 1 + 7
    ws = read_csv(d / "wait_states.csv")
    assert ws[0] == ["state", "wait_ms", "iops", "baseline_iops", "vs_precondition"]
    assert [int(r[1]) for r in ws[1:]] == [5000, 10000, 15000, 25000, 50000]
    smp = read_csv(d / "hir_samples.csv")
    assert len(smp) == 1 + 5 * 8 and smp[1][:2] == ["1", "access"]
    assert not os.path.exists(d / "rounds.csv") or read_csv(d / "rounds.csv") == [
        ["round", "tracking", "duration_ms"]]
    assert "Access segment" in text and "5.00 s, 4 cycles per wait state" in text


def test_xsr(tmp_path):
    doc = xsr_doc()
    d = rendered(tmp_path, "xsr", doc)
    text, h = check_page(d, "xsr")
    assert data_paths(d / "plots/xsr_bw.svg", 6) >= 3		# one line per group
    assert data_paths(d / "plots/xsr_lat.svg", 6) >= 6		# average and max per group
    t = h.tables["xsr"]
    assert [r[1]["text"] for r in t[1:]] == ["SEQ 1024KiB writes", "RND 8KiB writes",
                                              "SEQ 1024KiB writes"]
    assert float(t[2][3]["value"]) == 400e6
    assert "after 4 min 00 s" in text and "1,500 MB/s" in text
    ser = read_csv(d / "series.csv")
    assert ser[0][-1] == "group" and [r[-1] for r in ser[1:]].count("2") == 6
    doc["results"]["recovery_ms"] = None
    d = rendered(tmp_path / "never", "xsr", doc)
    assert "group 3 never reached" in page(d)[0]
    assert "Steady state" not in text


def check_demand(d, doc):
    """What the ecw and dirth reports share; (text, parsed, {setting: value})."""
    test = doc["test"]
    text, h = check_page(d, test)
    # every plot is a well-formed SVG with its data drawn: the markers of
    # each line (a point each), in drawing order
    assert markers(d / "plots/ss_convergence.svg") == [5, 5, 5]	# T2Q4, T2Q1, tracking
    assert data_paths(d / "plots/ss_convergence.svg", 5) >= 3
    assert markers(d / "plots/ss_window.svg") == [5]
    assert markers(d / "plots/precondition.svg") == [6 * 30, 6]	# samples, segment means
    assert data_paths(d / "plots/precondition.svg", 6) >= 1
    assert markers(d / "plots/steady_state.svg") == [6, 5]		# segments, rounds
    assert markers(d / "plots/prewrites.svg") == [5 * 5, 5]		# samples, round means
    assert markers(d / "plots/demand_variation.svg") == [2, 2]	# per TC, per QD
    assert markers(d / "plots/demand_intensity.svg") == [2, 2, 1, 1, 1]	# + the 3 points
    assert markers(d / "plots/toio.svg") == [4]			# ART; IOPS are bars
    assert data_paths(d / "plots/toio.svg", 4) >= 4
    assert markers(d / "plots/op_prewrites.svg") == [60, 60, 60]
    assert data_paths(d / "plots/rt_histogram.svg", 4) >= 3 * 7	# 6 bars + frame each
    assert "NOT CONFORMANT" in text and "SCALED RUN" in text
    assert "Steady state reached at round 5 (measurement window: rounds 1\u20135)" in text
    assert "Preconditioning: Steady state reached at segment 6 (measurement window: " \
        "segments 2\u20136)" in text
    # the TC x QD matrices: rows TC high to low, columns QD ascending
    res = {(p["tc"], p["qd"]): p for p in doc["results"]["points"]}
    for tid, key, div in (("demand-iops", "iops", 1), ("demand-art", "lat_mean_ns", 1e6),
                          ("demand-mrt", "lat_max_ns", 1e6)):
        t = h.tables[tid]
        assert [c["text"] for c in t[0]] == ["TC \\ QD", "QD 1", "QD 4"]
        assert [r[0]["text"] for r in t[1:]] == ["TC 2", "TC 1"]
        for i, tc in enumerate((2, 1)):
            for j, qd in enumerate((1, 4)):
                assert float(t[1 + i][1 + j]["value"]) == res[(tc, qd)][key]
                assert cell_num(t[1 + i][1 + j]) == pytest.approx(res[(tc, qd)][key] / div,
                                                                  rel=2e-3, abs=0.51)
    assert cell_num(h.tables["demand-iops"][1][2]) == pytest.approx(9000, rel=0.03)
    # demand.csv: one row per window point, as run
    dem = read_csv(d / "demand.csv")
    assert dem[0] == ["tc", "qd", "toio", "iops", "read_iops", "write_iops", "bw_bytes",
                      "lat_mean_ns", "read_lat_mean_ns", "write_lat_mean_ns", "lat_max_ns"]
    assert [(int(r[0]), int(r[1]), int(r[2])) for r in dem[1:]] == [(2, 4, 8), (2, 1, 2),
                                                                   (1, 4, 4), (1, 1, 1)]
    for row, p in zip(dem[1:], doc["results"]["points"]):
        assert [float(x) for x in row[3:]] == [
            p["iops"], p["read"]["iops"], p["write"]["iops"], p["bw_bytes"], p["lat_mean_ns"],
            p["read"]["lat_mean_ns"], p["write"]["lat_mean_ns"], p["lat_max_ns"]]
    # the operating points
    for tid in ("operating-points", "operating-points-summary"):
        ops = h.tables[tid]
        assert [r[0]["text"] for r in ops[1:]] == ["MaxIOPS", "MidIOPS", "MinIOPS"]
        assert [r[1]["text"] for r in ops[1:]] == ["T2Q4", "T1Q4", "T1Q1"]
    hdr = [c["text"] for c in ops[0]]
    for i, o in enumerate(doc["operating_points"]):
        row = ops[1 + i]
        m = o["measure"]
        assert float(row[hdr.index("window IOPS")]["value"]) == o["window_iops"]
        assert float(row[hdr.index("IOPS")]["value"]) == m["iops"]
        assert float(row[hdr.index("MRT (ms)")]["value"]) == m["lat_max_ns"]
        assert cell_num(row[hdr.index("MRT (ms)")]) == pytest.approx(m["lat_max_ns"] / 1e6,
                                                                     rel=2e-3)
        assert float(row[hdr.index("read p99.99 (ms)")]["value"]) == \
            m["read"]["percentiles"]["99.990000"]
        assert float(row[hdr.index("write p99 (ms)")]["value"]) == \
            m["write"]["percentiles"]["99.000000"]
        assert float(row[hdr.index("pre-write IOPS")]["value"]) == o["prewrite"]["iops"]
    opc = read_csv(d / "operating_points.csv")
    assert opc[0][:4] == ["label", "tc", "qd", "toio"] and opc[0][-1] == "skipped"
    assert [r[:3] for r in opc[1:]] == [["MaxIOPS", "2", "4"], ["MidIOPS", "1", "4"],
                                        ["MinIOPS", "1", "1"]]
    # the response-time histograms: every bucket, ~100% per point
    hist = read_csv(d / "rt_histogram.csv")
    assert hist[0] == ["label", "unit", "bucket", "percent"]
    assert len(hist) == 1 + 3 * 32
    for label, _, _ in DEMAND_OPS:
        rows = [r for r in hist[1:] if r[0] == label]
        assert [r[1] for r in rows] == ["ns"] * 10 + ["us"] * 10 + ["ms"] * 12
        assert rows[-1][2] == ">=2000"
        assert sum(float(r[3]) for r in rows) == pytest.approx(100, abs=0.01)
    # the rounds and their pre-writes
    rt = h.tables["rounds"]
    assert rt[0][-1]["text"] == "pre-write IOPS (T2Q4)"
    assert [float(r[-1]["value"]) for r in rt[1:]] == [r["prewrite"]["iops"]
                                                      for r in doc["rounds"]]
    assert [r[0]["text"] for r in h.tables["prewrites"][1:]] == \
        ["round %d" % r for r in range(1, 6)] + ["MaxIOPS", "MidIOPS", "MinIOPS"]
    rounds = read_csv(d / "rounds.csv")
    assert rounds[0] == ["round", "tracking", "duration_ms", "prewrite_iops"]
    assert [float(r[3]) for r in rounds[1:]] == [r["prewrite"]["iops"] for r in doc["rounds"]]
    pts = read_csv(d / "points.csv")
    assert pts[0][-3:] == ["tc", "qd", "toio"] and len(pts) == 1 + 5 * 4
    assert pts[2][-3:] == ["2", "1", "2"]
    pws = read_csv(d / "prewrites.csv")
    assert len(pws) == 1 + 5 * 5 + 3 * 60 and pws[1][:3] == ["round 1", "2", "4"]
    ser = read_csv(d / "series.csv")
    assert ser[0][-1] == "segment" and len(ser) == 1 + 6 * 30
    assert len(h.tables["wsat-segments"]) == 1 + 6
    st = {r[0]["text"]: r[1]["text"] for r in h.tables["demand-settings"][1:]}
    assert st["Thread counts (TC)"] == "2, 1" and st["Queue depths (QD)"] == "4, 1"
    assert st["ART limit"] == "5.00 ms"
    return text, h, st


def test_dirth(tmp_path):
    doc = dirth_doc()
    d = rendered(tmp_path, "dirth", doc)
    text, h, st = check_demand(d, doc)
    assert st["Stimulus"] == "RND 8 KiB" and st["R/W mix"] == "65/35"
    assert st["Access"] == "uniform random"
    assert "Demand Intensity / Response Time Histogram" in text
    assert read_csv(d / "points.csv")[1][1] == "8192"


def test_ecw(tmp_path):
    doc = ecw_doc()
    d = rendered(tmp_path, "ecw", doc)
    text, h, st = check_demand(d, doc)
    assert st["Stimulus"] == "ECW block sizes" and st["R/W mix"] == "40/60"
    assert st["Block sizes"].startswith("0.5 KiB 4%, 1 KiB 1%, 1.5 KiB 1%")
    assert "4 KiB 67%, 8 KiB 10%, 16 KiB 7%, 32 KiB 3%, 64 KiB 3%" in st["Block sizes"]
    assert st["Access"] == ("zoned: 50% of the accesses to the first 5%, 30% of the accesses "
                            "to the next 15%, 20% of the accesses to the next 80% of the "
                            "active range")
    assert "Enterprise Composite Workload" in text
    assert read_csv(d / "points.csv")[1][1] == ""		# no one block size


def test_demand_cpu_page(tmp_path):
    """The CPU utilisation page: each TC's CPU averaged over the window's
    rounds only (round 1 is left out of it here), then each operating point."""
    doc = dirth_doc()
    doc["results"]["window"] = [2, 5]
    doc["rounds"][0]["cpu"] = [dict(c, usr_pct=90.0, sys_pct=90.0, host_pct=90.0)
                               for c in doc["rounds"][0]["cpu"]]
    d = rendered(tmp_path, "dirth", doc)
    text, h = page(d)
    assert "CPU Utilisation" in text
    t = h.tables["cpu-utilisation"]
    hdr = [c["text"] for c in t[0]]
    assert hdr == ["load", "measured", "user (%)", "system (%)", "total (%)",
                   "of the host's CPUs (%)"]
    assert [r[0]["text"] for r in t[1:]] == ["TC 2, QD 4, 1", "TC 1, QD 4, 1", "T2Q4",
                                              "T1Q4", "T1Q1"]
    for row, tc in zip(t[1:3], (2, 1)):
        cs = [c for r in doc["rounds"][1:] for c in r["cpu"] if c["tc"] == tc]
        assert row[1]["text"] == "window (4 rounds)"
        for col, key in ((2, "usr_pct"), (3, "sys_pct"), (5, "host_pct")):
            assert float(row[col]["value"]) == pytest.approx(
                sum(c[key] for c in cs) / len(cs), rel=1e-12)
        assert float(row[4]["value"]) == pytest.approx(
            sum(c["usr_pct"] + c["sys_pct"] for c in cs) / len(cs), rel=1e-12)
    for row, op in zip(t[3:], doc["operating_points"]):
        c = op["measure"]["cpu"]
        assert row[1]["text"] == op["label"]
        assert float(row[3]["value"]) == c["sys_pct"]
        assert float(row[5]["value"]) == pytest.approx(c["host_pct"], rel=1e-12)


def test_demand_cpu_page_without_figures(tmp_path):
    """A pts.json from before the CPU figures says so rather than inventing them."""
    doc = dirth_doc()
    for r in doc["rounds"]:
        del r["cpu"]
    for o in doc["operating_points"]:
        del o["measure"]["cpu"]
    d = rendered(tmp_path, "dirth", doc)
    text, h = page(d)
    assert "cpu-utilisation" not in h.tables
    assert "No CPU figures: the rounds were recorded without them." in text


def test_demand_skipped_points_and_no_reads(tmp_path):
    """No point under 5 ms: MaxIOPS and MidIOPS skipped (tc, qd null, the
    reason); points without reads: n/a, empty cells, nothing invented."""
    doc = dirth_doc()
    reason = "no point had an average response time under 5 ms"
    for o in doc["operating_points"][:2]:
        for k in ("window_iops", "window_lat_mean_ns", "prewrite", "measure"):
            del o[k]
        o.update(tc=None, qd=None, skipped=reason)
    doc["operating_points"][2]["measure"]["read"] = None
    doc["results"]["points"][1]["read"] = None
    doc["results"]["points"][2]["lat_mean_ns"] = None
    d = rendered(tmp_path, "dirth", doc)
    text, h = check_page(d, "dirth")
    ops = h.tables["operating-points"]
    hdr = [c["text"] for c in ops[0]]
    for row in ops[1:3]:
        assert row[1]["text"] == "n/a"
        assert all(c["text"] == "n/a" and c["value"] is None for c in row[2:-1])
        assert row[-1]["text"] == "skipped: " + reason
    mn = ops[3]
    assert mn[0]["text"] == "MinIOPS" and mn[1]["text"] == "T1Q1"
    assert mn[hdr.index("read p99 (ms)")]["text"] == "n/a"
    assert mn[hdr.index("write p99 (ms)")]["value"] is not None
    art = h.tables["demand-art"]
    assert art[2][2]["text"] == "n/a"		# T1Q4
    opc = read_csv(d / "operating_points.csv")
    assert opc[1][:4] == ["MaxIOPS", "", "", ""] and opc[1][-1] == reason
    assert opc[3][opc[0].index("read_p99_ns")] == ""
    assert read_csv(d / "demand.csv")[2][4] == ""		# T2Q1 read_iops
    hist = read_csv(d / "rt_histogram.csv")
    assert {r[0] for r in hist[1:]} == {"MinIOPS"}
    assert markers(d / "plots/op_prewrites.svg") == [60]
    # TC 1 without T1Q4 (its ART unknown); only MinIOPS marked
    assert markers(d / "plots/demand_intensity.svg") == [2, 1, 1]
    assert data_paths(d / "plots/rt_histogram.svg", 4) >= 7
    assert reason in text


def test_demand_running(tmp_path):
    """A dirth run in its third round: the preconditioning and the rounds so
    far; no window, no matrix, no operating points yet."""
    doc = dirth_doc()
    doc["rounds"] = doc["rounds"][:3]
    doc.update(state="running", finished=None, steady_state=None, results=None,
               operating_points=None)
    d = rendered(tmp_path, "dirth", doc)
    text, h = check_page_loose(d)
    assert "RUNNING" in text and "No operating points yet" in text
    assert "Steady state: not evaluated yet (3 rounds; the window needs 5)" in text
    assert sorted(h.imgs) == ["plots/precondition.svg", "plots/prewrites.svg",
                              "plots/ss_convergence.svg", "plots/steady_state.svg"]
    assert sorted(os.listdir(d / "plots")) == sorted(i[len("plots/"):] for i in h.imgs)
    for name in ("demand.csv", "operating_points.csv", "rt_histogram.csv"):
        assert not os.path.exists(d / name)
    assert len(read_csv(d / "prewrites.csv")) == 1 + 3 * 5


def test_demand_preconditioning(tmp_path):
    """A dirth run still preconditioning: its segments' check is at the top
    level (precondition_steady_state) until the preconditioning ends; the
    rounds' steady_state is not confused with it."""
    doc = dirth_doc()
    pc_ss = doc["precondition"]["steady_state"]
    doc.update(state="running", finished=None, steady_state=None, results=None,
               operating_points=None, rounds=[], precondition=None,
               precondition_steady_state=pc_ss)
    d = rendered(tmp_path, "dirth", doc)
    text, h = check_page_loose(d)
    assert "RUNNING" in text
    assert "plots/precondition.svg" in h.imgs
    w = pc_ss["window"]
    assert ("Preconditioning: Steady state reached at segment %d (measurement window: "
            "segments %d\u2013%d)" % (w[1], w[0], w[1])) in text


# --------------------------------------------------------------------------
# states, nulls, conformance

def test_conformant_run_has_no_red_banner(tmp_path):
    d = rendered(tmp_path, "iops", iops_doc(scaled=False))
    text, _ = page(d)
    assert "NOT CONFORMANT" not in text and "SCALED RUN" not in text
    assert "conformant" in text


def test_running_partial_report(tmp_path):
    doc = iops_doc(nrounds=3)
    d = rendered(tmp_path, "iops", doc)
    text, h = page(d)
    assert "RUNNING" in text and "partial report" in text
    assert "Steady state: not evaluated yet (3 rounds; the window needs 5)" in text
    assert h.imgs == ["plots/ss_convergence.svg"]
    assert "No measurement window yet" in text
    assert not os.path.exists(d / "measurement.csv")
    assert len(read_csv(d / "rounds.csv")) == 4
    assert len(h.tables["rounds"]) == 4


def test_interrupted_then_complete_drops_stale_files(tmp_path):
    """A complete rendering, then an interrupted state of 4 rounds in the same
    directory: the plots and tables of the window go; nothing refers to them."""
    d = rendered(tmp_path, "iops")
    assert os.path.exists(d / "plots/iops_3d.svg")
    doc = iops_doc(nrounds=4)
    doc["state"] = "interrupted"
    rendered(tmp_path, "iops", doc)
    text, h = check_page_loose(d)
    assert "INTERRUPTED" in text and "--resume" in text
    assert sorted(os.listdir(d / "plots")) == ["ss_convergence.svg"]
    assert not os.path.exists(d / "measurement.csv")


def check_page_loose(d):
    text, h = page(d)
    for src in h.imgs + h.links:
        assert os.path.isfile(os.path.join(str(d), src)), src
    return text, h


def test_nulls_print_na(tmp_path):
    """Unknown values are "n/a" in the page and empty in the CSV: none invented."""
    doc = iops_doc()
    doc["device"].update(model=None, firmware=None, lba_format=None)
    doc["device"]["write_cache"]["before"] = "unknown"
    doc["purge"] = None
    doc["wipc"] = None
    doc["rounds"][0]["tracking"] = None
    doc["rounds"][0]["health_before"] = doc["rounds"][0]["health_after"] = None
    p = doc["results"]["points"][MIXES.index(50) * 8 + IOPS_BS.index(65536)]
    p["iops"] = None
    doc["steady_state"]["slope"] = None
    doc["steady_state"]["range_pass"] = None
    d = rendered(tmp_path, "iops", doc)
    text, h = page(d)
    hdr = re.search(r'<div class="hdr">.*?</div></div>', text, re.S).group(0)
    assert '<td class="k">Model</td><td>n/a</td>' in hdr
    assert '<td class="k">LBA format</td><td>n/a</td>' in hdr
    assert '<td class="k">Purge</td><td>n/a</td>' in hdr
    t = h.tables["measurement"]
    c = t[1 + MIXES.index(50)][1 + sorted(IOPS_BS).index(65536)]
    assert c["text"] == "n/a" and c["value"] is None
    assert sum(1 for r in t[1:] for c in r[1:] if c["value"] is not None) == 55
    assert h.tables["rounds"][1][3]["text"] == "n/a"
    assert "least-squares" not in open(d / "plots/ss_window.svg").read()
    meas = read_csv(d / "measurement.csv")
    assert meas[1 + MIXES.index(50)][2 + sorted(IOPS_BS).index(65536)] == ""
    assert read_csv(d / "rounds.csv")[1][1] == ""


def test_strings_are_shown_literally(tmp_path):
    """Text from the JSON is escaped in HTML and not mathtext in the plots."""
    doc = iops_doc()
    doc["device"]["model"] = "$\\nosuchmacro$ <script>alert(1)</script> & \"co\""
    doc["settings"]["tracking"]["label"] = "IOPS $_{4k}$ <b>"
    doc["deviations"].append("<img src=x>")
    d = rendered(tmp_path, "iops", doc)
    text, h = page(d)
    assert h.scripts == 0 and "<img src=x>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;" in text
    assert "&lt;img src=x&gt;" in text
    assert h.imgs == ["plots/" + p for p in PLOTS["iops"]]


def test_unknown_test_renders_generic_parts(tmp_path):
    doc = iops_doc()
    doc["test"], doc["title"] = "cbw", "Composite Block Size Workload"
    d = rendered(tmp_path, "cbw", doc)
    text, h = page(d)
    assert "no tables for the cbw test" in text
    assert sorted(h.imgs) == ["plots/ss_convergence.svg", "plots/ss_window.svg"]


# --------------------------------------------------------------------------
# bad input

def _no_device(doc):
    del doc["device"]


def _bad_bs(doc):
    doc["rounds"][1]["points"][3]["bs"] = "4k"


def _bad_window(doc):
    doc["steady_state"]["window"] = [6, 2]


def _bad_pct(doc):
    doc["rounds"][0]["points"][0]["read"]["percentiles"] = {"p99": 1}


def _demand(fault, make=dirth_doc):
    """A dirth (@make) doc in place of the iops doc, with @fault."""
    def bad(doc):
        doc.clear()
        doc.update(make())
        fault(doc)
    return bad


def _no_tc(doc):
    del doc["rounds"][1]["points"][2]["tc"]


def _bad_bucket(doc):
    doc["operating_points"][1]["measure"]["rt_histogram"]["ms"]["2ms"] = 1.0


def _bad_op_load(doc):
    doc["operating_points"][0]["qd"] = "32"


BAD = [
    ("missing", None, "pts.json: No such file or directory"),
    ("empty", "", "not JSON"),
    ("not-json", "{\"format\": ", "not JSON"),
    ("array", "[1, 2]", "not a JSON object"),
    ("binary", b"\xff\xfe{}", "not UTF-8"),
    ("format", lambda d: d.update(format="fio"), "\"format\" is \"fio\""),
    ("no-format", lambda d: d.pop("format"), "\"format\" is null"),
    ("version", lambda d: d.update(format_version=2), "unknown format_version 2"),
    ("version-str", lambda d: d.update(format_version="1"), "unknown format_version \"1\""),
    ("no-device", _no_device, "no key \"device\""),
    ("no-rounds", lambda d: d.pop("rounds"), "no key \"rounds\""),
    ("bad-bs", _bad_bs, "pts.json.rounds[1].points[3].bs: \"4k\" is not a number"),
    ("bad-window", _bad_window, "first round 6 after last round 2"),
    ("huge-window", lambda d: d["steady_state"].update(window=[1, 10 ** 9]),
     "a window of 1000000000 rounds"),
    ("bad-percentile", _bad_pct, "key \"p99\" is not a percentile"),
    ("bool-number", lambda d: d["settings"].update(threads=True), "settings.threads"),
    ("nan", "NaN", "a number must be finite"),
    ("demand-no-tc", _demand(_no_tc), "pts.json.rounds[1].points[2]: no key \"tc\""),
    ("ecw-as-iops", _demand(lambda d: d.update(test="iops"), ecw_doc),
     "pts.json.rounds[0].points[0].bs: is null (a number is needed)"),
    ("demand-bucket", _demand(_bad_bucket), "key \"2ms\" is not a latency bucket"),
    ("demand-op-load", _demand(_bad_op_load),
     "pts.json.operating_points[0].qd: \"32\" is not a number"),
]


@without_matplotlib
@pytest.mark.parametrize("name,bad,needle", BAD, ids=[b[0] for b in BAD])
def test_bad_input(tmp_path, name, bad, needle):
    d = tmp_path / name
    if bad is None:
        d.mkdir()
        p = render(d)
    elif callable(bad):
        doc = iops_doc()
        bad(doc)
        p = render(d, doc)
    elif name == "nan":
        doc = iops_doc()
        raw = json.dumps(doc).replace('"tracking": %s' % json.dumps(doc["rounds"][0]["tracking"]),
                                      '"tracking": NaN', 1)
        assert "NaN" in raw
        p = render(d, raw=raw)
    else:
        p = render(d, raw=bad)
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("ssdload-report: "), lines[0]
    assert needle in lines[0], lines[0]
    assert "Traceback" not in p.stderr and p.stdout == ""
    assert not os.path.exists(d / "report.html")


@without_matplotlib
@pytest.mark.parametrize("args", [[], ["a", "b"], ["--bogus"]], ids=["none", "two", "option"])
def test_usage(args):
    p = subprocess.run([PYTHON, SCRIPT] + args, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.startswith("usage: ssdload-report.py DIR")


@without_matplotlib
def test_script_is_executable_with_header():
    assert os.access(SCRIPT, os.X_OK)
    with open(SCRIPT) as f:
        head = f.read(200).splitlines()
    assert head[0] == "#!/usr/bin/python3"
    assert head[1] == "# SPDX-License-Identifier: GPL-2.0"


# --------------------------------------------------------------------------
# determinism

@pytest.mark.parametrize("test", sorted(DOCS))
def test_deterministic(tmp_path, test):
    """Twice in one directory and once in another: the same bytes."""
    doc = DOCS[test]()
    d1 = rendered(tmp_path / "a", test, doc)
    first = snapshot(d1)
    assert rendered(tmp_path / "a", test, doc) == d1
    assert snapshot(d1) == first
    d2 = rendered(tmp_path / "b", test, copy.deepcopy(doc))
    assert snapshot(d2) == first
    assert "report.html" in first and any(k.endswith(".svg") for k in first)
    for k, v in first.items():
        if k.endswith(".svg"):
            assert b"<dc:date>" not in v, k + " has a date"
    assert not [k for k in first if k.endswith(".tmp")]


@without_matplotlib
def test_math_helpers_match_steady_state():
    """The synthetic windows obey the rule they claim (guards the fixtures)."""
    ss = iops_doc()["steady_state"]
    assert ss["range_pass"] and ss["slope_pass"]
    assert math.isclose(ss["intercept"] + ss["slope"] * 4, sum(ss["values"]) / 5)


def test_shared_output_dir_unaffected_by_other_files(tmp_path):
    """Files that are not the renderer's stay (only its own names are pruned)."""
    d = tmp_path / "iops"
    (d / "plots").mkdir(parents=True)
    (d / "plots" / "mine.svg").write_text("<svg/>")
    (d / "rounds").mkdir()
    (d / "notes.txt").write_text("x")
    rendered(tmp_path, "iops")
    assert (d / "plots" / "mine.svg").exists() and (d / "notes.txt").exists()


def test_window_choice_marked(tmp_path):
    """A window other than the spec's is marked in the header's Rounds row;
    the spec's is not."""
    doc = iops_doc(nrounds=8)
    doc["settings"].update(window=5, window_at="steady", spec_window=5, max_rounds=8,
                           min_rounds=8)
    doc["results"]["window_choice"] = {"rounds": 5, "at": "steady", "spec": True,
                                       "percentiles": "merged histograms"}
    text, _ = page(rendered(tmp_path / "spec", "iops", doc))
    assert "8 run, limit 8, at least 8, window 5 where steady state was reached " \
        "(rounds 4..8)" in text
    assert "NOT the spec&#x27;s window" not in text and "NOT the spec's window" not in text
    doc["settings"].update(window=4, window_at="last")
    doc["results"]["window"] = [5, 8]
    doc["results"]["window_choice"].update(rounds=4, at="last", spec=False,
                                           percentiles="highest of the rounds")
    text, _ = page(rendered(tmp_path / "last", "iops", doc))
    assert "window 4 at the last rounds run (rounds 5..8): NOT the spec" in text
    assert "percentiles: the highest of the rounds" in text


def test_offset_alignment_in_header(tmp_path):
    """The header says how random offsets were aligned, and why."""
    doc = dirth_doc()
    doc["settings"].update(blockalign=8192, blockalign_by_bs={"8192": 8192},
                           blockalign_rule="the block size")
    text, _ = page(rendered(tmp_path, "dirth", doc))
    assert "Offset alignment" in text and "8,192 B (the block size)" in text


def test_offset_alignment_per_block_size(tmp_path):
    """Block sizes aligned differently are each named, with why."""
    doc = iops_doc()
    doc["settings"].update(
        blockalign=512, logical_block_size=512,
        blockalign_by_bs={"512": 512, "4096": 4096},
        blockalign_why_by_bs={"512": "the block size", "4096": "the block size"},
        blockalign_rule="the block size")
    text, _ = page(rendered(tmp_path, "iops", doc))
    assert "0.5 KiB: 512 B (the block size); 4 KiB: 4,096 B (the block size) " \
        "(device logical block: 512 B)" in text
