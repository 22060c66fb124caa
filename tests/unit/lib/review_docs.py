# SPDX-License-Identifier: GPL-2.0
"""Review directories (DIR/plan.json and its steps' NN-STEP/ results) for
the report tests: test_review_report.py and test_report_browser.py.

The steps' documents are the lib's own (sweep_docs, curve_docs): the
shapes the commands write, checked against the CLI by their own tests.
"""
import json

from curve_docs import done_doc
from report import render_file
from sweep_docs import auto_doc


def review_doc(steps=None):
    """plan.json of a review of a sweep (done) and a curve (pending), or of
    @steps [(section, kind, chart, state)]."""
    if steps is None:
        steps = [("sweep", "sweep", "Figure 1", "done"), ("curve", "curve", "Figure 2", "pending")]
    out = []
    for i, (section, kind, chart, state) in enumerate(steps):
        out.append({"section": section, "kind": kind, "command": kind,
                    "argv": "ssdload %s --filename=/dev/x" % kind,
                    "dir": "%02d-%s" % (i + 1, section.replace(":", "-")), "chart": chart,
                    "estimate_s": 10, "destroys": "", "state": state,
                    "status": 0 if state == "done" else None,
                    "started": "2026-12-07T10:0%d:00" % i if state == "done" else None,
                    "finished": "2026-12-07T10:0%d:30" % i if state == "done" else None})
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
        "steps": out,
        "resumed": [],
    }


# the result document of a done step of each kind these directories hold
STEP_DOCS = {"sweep": ("sweep.json", auto_doc), "curve": ("curve.json", done_doc)}


def render_review(d, doc):
    """Write each done step's result and @doc to review directory @d, and
    run the renderer on it (it renders the steps' own reports too)."""
    for s in doc["steps"]:
        if s["state"] != "done":
            continue
        name, make = STEP_DOCS[s["kind"]]
        (d / s["dir"]).mkdir(parents=True, exist_ok=True)
        (d / s["dir"] / name).write_text(json.dumps(make()), encoding="utf-8")
    return render_file(d, "plan.json", doc)
