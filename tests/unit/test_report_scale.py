# SPDX-License-Identifier: GPL-2.0
"""userspace/ssdload-report.py: the report of an `ssdload scale` run.

Synthetic scale.json files (format "ssdload-scale", format_version 1) are
rendered in temporary directories: four drives with RAID-0 and RAID-10 at
two depths, two drives and a given array, and an interrupted run.  The
tests check every plot (well-formed SVG, the scaling plot's points are
the JSON's scaling factors), report.html (it parses, refers only to
files that exist, its table holds the points' values), scale.csv (one row
per point, the JSON's values) and the refusal of malformed documents
(exit 2, one line naming the bad key).
"""
import copy
import json
import subprocess
import xml.etree.ElementTree as ET

import pytest

from report import PYTHON, SCRIPT, Html, read_csv
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)
from scale_docs import SCALE_DOCS, SCALE_PLOTS, raid_doc, render_scale


def rendered(tmp_path, name):
    d = tmp_path / name
    p = render_scale(d, SCALE_DOCS[name]())
    assert p.returncode == 0, p.stderr
    assert p.stderr == "" and p.stdout == ""
    return d


# --------------------------------------------------------------------------
# the tests

@pytest.mark.parametrize("name", sorted(SCALE_DOCS))
def test_scale_report(tmp_path, name):
    d = rendered(tmp_path, name)
    doc = SCALE_DOCS[name]()
    text = (d / "report.html").read_text(encoding="utf-8")
    h = Html(text)
    assert h.scripts == 0
    assert "<title>Drive and RAID scaling: " in text
    for src in h.imgs:
        assert (d / src).exists(), src
    assert sorted(h.imgs) == sorted("plots/" + p for p in SCALE_PLOTS[name])
    for p in SCALE_PLOTS[name]:
        ET.parse(str(d / "plots" / p))		# well-formed SVG
    for p in doc["points"]:
        assert p["target"] in text
        assert "%.2f\u00d7" % p["scaling"] in text
    if name == "interrupted":
        assert "was interrupted" in text
    else:
        assert "was interrupted" not in text
    if name == "raid":
        assert "raid10 of 4 (/dev/md127)" in text


def test_scale_csv(tmp_path):
    d = rendered(tmp_path, "raid")
    doc = raid_doc()
    raw = read_csv(d / "scale.csv")
    rows = [dict(zip(raw[0], r)) for r in raw[1:]]
    assert len(rows) == len(doc["points"])
    for r, p in zip(rows, doc["points"]):
        assert r["target"] == p["target"] and int(r["drives"]) == p["drives"]
        assert float(r["iops"]) == pytest.approx(p["iops"])
        assert float(r["scaling"]) == pytest.approx(p["scaling"])
        assert r["md_level"] == (p.get("md_level") or "")


def test_scaling_plot_draws_the_factors(tmp_path):
    """Each line of scale_factor.svg has the points' scaling factors: the
    plot's y data (matplotlib's SVG keeps no data, so the renderer is asked
    through its module) equal the JSON's."""
    d = rendered(tmp_path, "raid")
    svg = (d / "plots" / "scale_factor.svg").read_text(encoding="utf-8")
    for lab in ("drives together, QD 4/drive", "RAID-0, QD 32/drive", "RAID-10, QD 4/drive",
                "linear"):
        assert lab in svg, lab
    code = ("import importlib.util,json,sys\n"
            "s=importlib.util.spec_from_file_location('r',%r);m=importlib.util.module_from_spec(s)\n"
            "s.loader.exec_module(m)\n"
            "sc=m.Scale(json.load(open(%r)),%r)\n"
            "print(json.dumps([[lab,[[p['drives'],p['scaling']] for p in pts]] "
            "for _,lab,pts in sc.lines()]))\n" % (SCRIPT, str(d / "scale.json"), str(d)))
    p = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    lines = dict((lab, pts) for lab, pts in json.loads(p.stdout))
    doc = raid_doc()
    for lab, pts in lines.items():
        qd = int(lab.split("QD ")[1].split("/")[0])
        for drives, f in pts:
            src = [x for x in doc["points"] if x["qd_per_drive"] == qd and
                   x["drives"] == drives and (x["kind"] == "drives") ==
                   lab.startswith("drives")]
            assert any(abs(x["scaling"] - f) < 1e-9 for x in src), (lab, drives, f)
    assert len(lines) == 6		# drives, RAID-0, RAID-10 at QD 4 and 32


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d.pop("targets"), "targets"),
    (lambda d: d["points"][0].pop("drives"), "drives"),
    (lambda d: d["points"][0].__setitem__("iops", -1), "iops"),
    (lambda d: d["points"][1].__setitem__("kind", 3), "kind"),
    (lambda d: d.__setitem__("format_version", 9), "version"),
])
def test_scale_bad_documents(tmp_path, mutate, needle):
    doc = copy.deepcopy(raid_doc())
    mutate(doc)
    p = render_scale(tmp_path / "bad", doc)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert not (tmp_path / "bad" / "report.html").exists()
