# SPDX-License-Identifier: GPL-2.0
"""The report of an `ssdload review` (DIR/plan.json): the cover page with
the article, the device and the provenance, the steps' table, and each
step's own report embedded in the plan's order, rendered by the review
renderer when the step's command did not (here: none did).
"""
from report import Html, render_file
from report import matplotlib_present  # noqa: F401 (autouse: skips without matplotlib)
from review_docs import render_review, review_doc


def test_review_report_has_cover_and_each_step(tmp_path):
    d = tmp_path / "review"
    p = render_review(d, review_doc())
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
