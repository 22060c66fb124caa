# SPDX-License-Identifier: GPL-2.0
"""userspace/ssdload-report.py: the report of an `ssdload latency-grid` run.

A synthetic latency-grid.json (format "ssdload-latency-grid",
format_version 1: the S3700 review's 3 x 3 cells, 512 B to 8 KiB at
100/0, 65/35 and 0/100) is rendered in a temporary directory next to a
run.json, which it wins over.  The tests check the chart (well-formed SVG,
an average and a maximum bar per cell), report.html (its cells table holds
the JSON's values), latency-grid.csv, the refusal of a malformed document
(exit 2, one line naming the bad key) and that two renderings are
byte-identical.
"""
import copy
import json
import xml.etree.ElementTree as ET

import pytest

from report import SVG, Html, _set, data_paths, read_csv, render_file, snapshot
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)

PCTS = [99, 99.9, 99.99]


def cell(step, bs, mix):
    """A cell: writes twice as slow as reads at 4 KiB, slower at larger blocks."""
    base = 20000 * (1 + bs / 8192.0)
    rd, wr = base, 2 * base
    share = mix / 100.0
    mean = share * rd + (1 - share) * wr
    ios = 10000
    o = {"step": step, "bs": bs, "mix": mix,
         "rw": "randread" if mix == 100 else "randwrite" if mix == 0 else "randrw",
         "ios": ios, "read_pct": 100.0 * share, "iops": 1e9 / mean, "bw_bytes": bs * 1e9 / mean,
         "lat_mean_ns": mean, "lat_max_ns": int(40 * mean),
         "percentiles": {"%f" % p: int(mean * (2 + i)) for i, p in enumerate(PCTS)},
         "read": None, "write": None}
    for d, lat, n in (("read", rd, ios * share), ("write", wr, ios * (1 - share))):
        if n:
            o[d] = {"ios": int(n), "iops": n / ios * o["iops"], "bw_bytes": 0,
                    "lat_mean_ns": lat, "lat_max_ns": int(40 * lat)}
    return o


def grid_doc():
    cells = [cell(k + 1, bs, mix) for k, (bs, mix) in
             enumerate((b, m) for b in (512, 4096, 8192) for m in (100, 65, 0))]
    return {"format": "ssdload-latency-grid", "format_version": 1, "ssdload_version": "0.9",
            "command": "ssdload latency-grid --filename=/dev/nvme0n1 --allow_write",
            "started": "2026-12-07T15:00:00+0000", "finished": "2026-12-07T15:10:00+0000",
            "state": "done",
            "device": {"path": "/dev/nvme0n1", "model": "INTEL SSDSC2BA800G3",
                       "serial": "S3700", "firmware": "5DV10250",
                       "capacity_bytes": 800166076416},
            "settings": {"filename": "/dev/nvme0n1", "bs_list": [512, 4096, 8192],
                         "mix_list": [100, 65, 0], "percentiles": PCTS, "iodepth": 1,
                         "numjobs": 1, "ramp_ms": 5000, "runtime_ms": 60000},
            "points": cells, "run_json": "run.json"}


def rendered(tmp_path, doc=None):
    d = tmp_path / "grid"
    d.mkdir(parents=True)
    (d / "run.json").write_text("{}")		# the grid's document wins over it
    p = render_file(d, "latency-grid.json", doc or grid_doc())
    assert p.returncode == 0, p.stderr
    assert p.stderr == "" and p.stdout == ""
    return d


def test_grid_report(tmp_path):
    doc = grid_doc()
    d = rendered(tmp_path, doc)
    text = (d / "report.html").read_text(encoding="utf-8")
    h = Html(text)
    assert "<title>QD 1 latency grid: " in text and h.scripts == 0
    assert h.imgs == ["plots/latency_grid.svg"]
    svg = d / "plots" / "latency_grid.svg"
    assert ET.parse(str(svg)).getroot().tag == SVG + "svg"
    assert data_paths(svg, 4) >= 2 * len(doc["points"])	# an average and a maximum bar
    rows = h.tables["cells"]
    assert [c["text"] for c in rows[0]][-3:] == ["p99 (\u00b5s)", "p99.9 (\u00b5s)",
                                                 "p99.99 (\u00b5s)"]
    assert len(rows) == 1 + 9
    for r, p in zip(rows[1:], doc["points"]):
        assert r[2]["text"] == "%g/%g" % (p["mix"], 100 - p["mix"])
        assert float(r[6]["value"]) == p["lat_mean_ns"]
        assert float(r[7]["value"]) == p["lat_max_ns"]
        assert [float(c["value"]) for c in r[8:]] == \
            [p["percentiles"]["%f" % x] for x in PCTS]
    csv = read_csv(d / "latency-grid.csv")
    assert csv[0][-3:] == ["lat_p99_ns", "lat_p99.9_ns", "lat_p99.99_ns"]
    assert [(int(r[1]), int(r[2])) for r in csv[1:]] == \
        [(p["bs"], p["mix"]) for p in doc["points"]]
    assert [float(r[9]) for r in csv[1:]] == [p["lat_max_ns"] for p in doc["points"]]


def test_grid_interrupted_and_empty(tmp_path):
    doc = grid_doc()
    doc["state"], doc["points"] = "interrupted", doc["points"][:4]
    d = rendered(tmp_path, doc)
    text = (d / "report.html").read_text(encoding="utf-8")
    assert "the latency grid was interrupted" in text
    assert len(Html(text).tables["cells"]) == 1 + 4
    doc["state"], doc["points"] = "running", []
    d = tmp_path / "empty"
    p = render_file(d, "latency-grid.json", doc)
    assert p.returncode == 0, p.stderr
    assert "No cell measured yet" in (d / "report.html").read_text(encoding="utf-8")
    assert not (d / "plots" / "latency_grid.svg").exists()


def test_grid_deterministic(tmp_path):
    a = snapshot(rendered(tmp_path / "a"))
    b = snapshot(rendered(tmp_path / "b"))
    assert a == b and "plots/latency_grid.svg" in a


@pytest.mark.parametrize("path,value,key", [
    (("points", 0, "mix"), 101, "points[0].mix"),
    (("points", 1, "bs"), Ellipsis, "points[1]"),
    (("points", 2, "percentiles", "99.000000"), "fast", "points[2].percentiles"),
    (("settings", "iodepth"), 0, "settings.iodepth"),
    (("points",), Ellipsis, "points"),
])
def test_malformed_grid_is_refused(tmp_path, path, value, key):
    doc = copy.deepcopy(grid_doc())
    _set(path, value)(doc)
    d = tmp_path / "bad"
    p = render_file(d, "latency-grid.json", doc)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and key in lines[0], p.stderr
    assert not (d / "report.html").exists()
    json.loads((d / "latency-grid.json").read_text())	# left as it was
