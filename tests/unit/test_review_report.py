# SPDX-License-Identifier: GPL-2.0
"""The report of an `ssdload review` (DIR/plan.json): the cover page with
the article, the device and the provenance, the steps' table, and each
step's own report embedded in the plan's order, rendered by the review
renderer when the step's command did not (here: none did).
"""
import json

from report import Html, render_file
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)
from sweep_docs import auto_doc


def review_doc():
    step = {"kind": "sweep", "command": "sweep", "argv": "ssdload sweep --filename=/dev/x",
            "estimate_s": 10, "destroys": "", "status": 0,
            "started": "2026-12-07T10:00:00", "finished": "2026-12-07T10:01:00"}
    return {
        "format": "ssdload-review", "format_version": 1, "ssdload_version": "0.0-test",
        "command": "ssdload review unit --filename=/dev/x", "started": "2026-12-07T10:00:00",
        "finished": "2026-12-07T10:02:00", "state": "done",
        "device": {"path": "/dev/x", "model": "Unit Drive", "serial": "U1",
                   "capacity_bytes": 1 << 30},
        "plan": {"path": "unit.ini", "scale": "quick", "overrides": ["sweep.runtime=1s"],
                 "text": "[plan]\nname=unit\n[sweep]\nrw=randread\n",
                 "meta": {"name": "unit", "title": "A <unit> review", "source": "Article X",
                          "measured": "random reads", "ours": "everything else"}},
        "steps": [dict(step, section="sweep", dir="01-sweep", chart="Figure 1", state="done"),
                  dict(step, section="curve", dir="02-curve", chart="Figure 2",
                       state="pending", status=None)],
        "resumed": [],
    }


def test_review_report_has_cover_and_each_step(tmp_path):
    d = tmp_path / "review"
    (d / "01-sweep").mkdir(parents=True)
    (d / "01-sweep" / "sweep.json").write_text(json.dumps(auto_doc()), encoding="utf-8")
    p = render_file(d, "plan.json", review_doc())
    assert p.returncode == 0, p.stderr
    assert (d / "01-sweep" / "report.html").exists()    # the step's own, rendered
    page = (d / "report.html").read_text(encoding="utf-8")
    h = Html(page)
    text = " ".join(h.text)
    for want in ("A <unit> review", "Article X", "random reads", "everything else",
                 "Unit Drive", "sweep.runtime=1s", "Figure 1", "Figure 2", "QUICK"):
        assert want in text, want
    assert "01-sweep/report.html" in h.links
    assert page.count("<iframe") == 1
    assert "not run (pending)" in text
    assert text.index("Figure 1") < text.index("Figure 2")


def test_review_report_refuses_a_step_dir_outside(tmp_path):
    doc = review_doc()
    doc["steps"][0]["dir"] = "../elsewhere"
    p = render_file(tmp_path / "review", "plan.json", doc)
    assert p.returncode == 2
    assert "not a plain name" in p.stderr
    assert not (tmp_path / "review" / "report.html").exists()


def test_review_report_says_why_a_step_was_skipped(tmp_path):
    doc = review_doc()
    doc["steps"][1].update(state="skipped", skip_reason="needs 2 drives (needs-devices=2), "
                           "given 1: give them with --set scale.devices=DEV,DEV,...")
    p = render_file(tmp_path / "review", "plan.json", doc)
    assert p.returncode == 0, p.stderr
    text = " ".join(Html((tmp_path / "review" / "report.html").read_text(
        encoding="utf-8")).text)
    assert "skipped: needs 2 drives (needs-devices=2), given 1" in text
