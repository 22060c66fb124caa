# SPDX-License-Identifier: GPL-2.0
"""The report of a method run with --precondition and --section, and the
MB/s response curve of a curve at a block size of 64 KiB or more.

The synthetic documents of curve_docs.py and sweep_docs.py get the
record `ssdload sweep/curve/scale --precondition` writes ("precondition":
mode, bytes promised and written, time, each device's passes and WDPC)
and "section"; report.html must show them in its header, and refuse a
malformed record.  A curve of 64 KiB reads plots MB/s against latency
(its x axis and its points are the points' bw_bytes), while its table
keeps both IOPS and MB/s; at 4 KiB it plots IOPS.
"""
import re

import pytest

from curve_docs import done_doc, render_curve
from report import Html
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)
from sweep_docs import auto_doc, render_sweep

MIB = 1 << 20


def precondition(mode="random:2", wdpc=None, complete=True):
    dev = {"path": "/dev/nvme0n1", "span_bytes": 256 * MIB, "bytes_promised": 512 * MIB,
           "bytes_written": 512 * MIB, "duration_ms": 65000, "complete": complete,
           "passes": [{"what": "random", "bytes": 512 * MIB, "rw": "randwrite",
                       "bs": 4096, "iodepth": 32, "loops": 2, "duration_ms": 65000}]}
    if wdpc:
        dev["wdpc"] = wdpc
    return {"mode": mode, "bytes_promised": 512 * MIB, "bytes_written": 512 * MIB,
            "duration_ms": 65000, "complete": complete, "devices": [dev]}


def header(d):
    text = (d / "report.html").read_text(encoding="utf-8")
    return text, re.sub(r"<[^>]+>", " ", text)


@pytest.mark.parametrize("kind", ["sweep", "curve"])
def test_record_is_shown(tmp_path, kind):
    doc = auto_doc() if kind == "sweep" else done_doc()
    doc["precondition"] = precondition()
    doc["section"] = "25%"
    d = tmp_path / kind
    p = (render_sweep if kind == "sweep" else render_curve)(d, doc)
    assert (p.returncode, p.stderr) == (0, ""), p.stderr
    _, words = header(d)
    assert "Preconditioning" in words
    assert "random:2: 536,870,912 bytes (512 MiB) written in 1 min 05 s" in words
    assert "first 25% of the device" in words


def test_pts_mode_and_incomplete(tmp_path):
    doc = done_doc()
    doc["precondition"] = precondition("pts", {"rounds": 7, "steady": True}, complete=False)
    doc["section"] = None
    p = render_curve(tmp_path / "c", doc)
    assert p.returncode == 0, p.stderr
    _, words = header(tmp_path / "c")
    assert "WDPC 7 rounds, steady (not complete)" in words
    assert "whole span" in words


def test_span_limited(tmp_path):
    """A --precondition-span that left part of the drive unwritten is said."""
    doc = auto_doc()
    doc["precondition"] = precondition()
    doc["precondition"]["span"] = "64m"
    doc["precondition"]["devices"][0].update(span_bytes=64 * MIB, whole_device=False,
                                             capacity_bytes=1 << 40)
    p = render_sweep(tmp_path / "s", doc)
    assert p.returncode == 0, p.stderr
    _, words = header(tmp_path / "s")
    assert "over the first 67,108,864 bytes (64 MiB) of /dev/nvme0n1 " \
        "(--precondition-span=64m), not the whole device" in words
def test_no_preconditioning(tmp_path):
    doc = done_doc()
    doc["precondition"] = None
    p = render_curve(tmp_path / "c", doc)
    assert p.returncode == 0, p.stderr
    _, words = header(tmp_path / "c")
    assert re.search(r"Preconditioning\s+none", words)
    # an older document, without the keys: no rows
    p = render_curve(tmp_path / "old", done_doc())
    assert "Preconditioning" not in header(tmp_path / "old")[1]


@pytest.mark.parametrize("fault,needle", [
    ({"mode": None}, "precondition.mode"),
    ({"bytes_written": "lots"}, "precondition.bytes_written"),
    ({"devices": [None]}, "precondition.devices[0]"),
])
def test_malformed_record_is_refused(tmp_path, fault, needle):
    doc = done_doc()
    doc["precondition"] = dict(precondition(), **fault)
    p = render_curve(tmp_path / "c", doc)
    assert p.returncode == 2 and needle in p.stderr, p.stderr


def svg_texts(path):
    return re.findall(r"<!-- (.*?) -->", path.read_text(encoding="utf-8"))


def test_64k_curve_plots_mbps(tmp_path):
    doc = done_doc()
    doc["settings"]["bs"] = 65536
    for p in [doc["max"]] + doc["points"]:
        p["bw_bytes"] = p["iops"] * 65536
    p = render_curve(tmp_path / "c", doc)
    assert p.returncode == 0, p.stderr
    texts = svg_texts(tmp_path / "c" / "plots" / "curve_response.svg")
    assert "achieved MB/s" in texts and "achieved IOPS" not in texts
    assert any("Response Time Curve (MB/s)" in t for t in texts)
    # the table keeps both
    h = Html((tmp_path / "c" / "report.html").read_text(encoding="utf-8"))
    hdr = [c["text"] for c in h.tables["curve"][0]]
    assert "IOPS" in hdr and "MB/s" in hdr
    bws = [float(r[4]["value"]) for r in h.tables["curve"][1:]]
    assert bws[0] == pytest.approx(doc["max"]["iops"] * 65536)
    assert [float(r[2]["value"]) for r in h.tables["curve"][1:]][0] == \
        pytest.approx(doc["max"]["iops"])


def test_4k_curve_plots_iops(tmp_path):
    p = render_curve(tmp_path / "c", done_doc())
    assert p.returncode == 0, p.stderr
    texts = svg_texts(tmp_path / "c" / "plots" / "curve_response.svg")
    assert "achieved IOPS" in texts and "achieved MB/s" not in texts
