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
import os
import subprocess
import xml.etree.ElementTree as ET

import pytest

from test_report import (PYTHON, SCRIPT, Html,
                         matplotlib_present,  # noqa: F401 (autouse: skips without matplotlib)
                         read_csv)

ALL_PLOTS = ["scale_iops.svg", "scale_factor.svg", "scale_latency.svg"]


# --------------------------------------------------------------------------
# synthetic scale.json documents

def point(label, kind, drives, qd, iops, level=None, base=None):
    lat = qd * drives / iops * 1e9
    p = {"target": label, "kind": kind, "drives": drives, "qd_per_drive": qd,
         "qd_total": qd * drives, "workers_per_drive": 1, "iodepth": qd, "complete": True,
         "iops": iops, "bw_bytes": iops * 4096, "lat_mean_ns": lat,
         "lat_max_ns": int(lat * 9), "lat_p99_ns": int(lat * 2.5),
         "lat_p99_9_ns": int(lat * 4),
         "read": {"ios": int(iops * 3), "iops": iops, "bw_bytes": iops * 4096,
                  "lat_mean_ns": lat, "lat_max_ns": int(lat * 9),
                  "lat_p50_ns": int(lat * 0.9), "lat_p99_ns": int(lat * 2.5),
                  "lat_p99_9_ns": int(lat * 4),
                  "iops_per_run": [iops / (drives if kind == "drives" else 1)] *
                  (drives if kind == "drives" else 1)},
         "runs": [{"file": "runs/p00-d%d.json" % i, "exit_status": 0}
                  for i in range(drives if kind == "drives" else 1)],
         "scaling": None if base is None else iops / base,
         "efficiency": None if base is None else iops / base / drives}
    if kind == "raid":
        p.update(md_device="/dev/md127", md_level=level, md_members=drives)
    return p


def doc_of(targets, points, state="done", qds=(4,)):
    return {"format": "ssdload-scale", "format_version": 1, "ssdload_version": "0.1.0",
            "command": "ssdload scale --devices=...", "started": "2026-12-06T07:00:00Z",
            "finished": "2026-12-06T07:05:00Z", "state": state,
            "device": {"path": "/dev/nvme0n1", "model": "QEMU NVMe Ctrl", "serial": "s0",
                       "firmware": "8.0.0", "capacity_bytes": 64 << 20},
            "devices": [{"path": "/dev/nvme%dn1" % i, "model": "QEMU NVMe Ctrl",
                         "serial": "s%d" % i, "firmware": "8.0.0",
                         "capacity_bytes": 64 << 20} for i in range(4)],
            "settings": {"qd_list": list(qds), "ramp_ms": 1000, "runtime_ms": 3000,
                         "raid_chunk_bytes": 512 << 10, "baseline": "1 drive",
                         "rw": "randread", "bs": 4096, "rwmixread": None},
            "targets": targets, "points": points}


def target(label, kind, drives, level):
    return {"label": label, "kind": kind, "drives": drives, "level": level, "path": None}


RAID_TARGETS = [target("1 drive", "drives", 1, "drives"),
                target("2 drives", "drives", 2, "drives"),
                target("4 drives", "drives", 4, "drives"),
                target("RAID-0 x2", "raid", 2, "raid0"),
                target("RAID-0 x4", "raid", 4, "raid0"),
                target("RAID-10 x4", "raid", 4, "raid10")]
IOPS = {"1 drive": 10000.0, "2 drives": 19500.0, "4 drives": 36000.0, "RAID-0 x2": 18000.0,
        "RAID-0 x4": 30000.0, "RAID-10 x4": 28000.0}


def raid_doc():
    pts = []
    for qd in (4, 32):
        for t in RAID_TARGETS:
            f = 1.0 if qd == 4 else 3.1
            pts.append(point(t["label"], t["kind"], t["drives"], qd, IOPS[t["label"]] * f,
                             level=t["level"], base=IOPS["1 drive"] * f))
    return doc_of(RAID_TARGETS, pts, qds=(4, 32))


def given_doc():
    tg = RAID_TARGETS[:2] + [{"label": "/dev/md0", "kind": "target", "drives": 2,
                             "level": "raid1", "path": "/dev/md0"}]
    pts = [point("1 drive", "drives", 1, 8, 5000.0, base=5000.0),
           point("2 drives", "drives", 2, 8, 9900.0, base=5000.0),
           point("/dev/md0", "target", 2, 8, 7000.0, base=5000.0)]
    return doc_of(tg, pts, qds=(8,))


def interrupted_doc():
    d = raid_doc()
    d["points"] = d["points"][:4]
    d["state"] = "interrupted"
    return d


SCALE_DOCS = {"raid": raid_doc, "given": given_doc, "interrupted": interrupted_doc}
SCALE_PLOTS = {k: ALL_PLOTS for k in SCALE_DOCS}


def render_scale(d, doc=None, raw=None):
    """Write @doc (or @raw, text) to d/scale.json and run the renderer."""
    os.makedirs(str(d), exist_ok=True)
    if raw is None:
        raw = json.dumps(doc, indent=1)
    with open(os.path.join(str(d), "scale.json"), "w", encoding="utf-8") as f:
        f.write(raw)
    return subprocess.run([PYTHON, SCRIPT, str(d)], capture_output=True, text=True,
                          timeout=120)


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
