# SPDX-License-Identifier: GPL-2.0
"""The report of an `ssdload review` (DIR/plan.json, format "ssdload-review",
format_version 1): a cover page (the article, the device, the provenance,
the plan and its steps), then each step's own report in the article's
order, embedded from DIR/NN-STEP/report.html (rendered here when a step's
command did not render it: a plain run's run.json).
"""
import html
import os

from .common import (CSS, BadInput, array, data_table, esc, fmt_bytes, header_html,
                     obj, string, text, write_atomic, anything)

REVIEW_FORMAT, REVIEW_FORMAT_VERSION = "ssdload-review", 1

STEP = obj({"section": string(null=False), "kind": string(null=False),
            "command": string(null=False), "chart": string(), "dir": string(null=False),
            "argv": string(), "estimate_s": anything, "destroys": string(),
            "state": string(null=False), "status": anything, "started": string(),
            "finished": string(), "skip_reason": string()},
           required=("section", "dir", "state"), null=False)
REVIEW_DOC = obj({
    "format": string(null=False), "format_version": anything, "ssdload_version": string(),
    "command": string(), "started": string(), "finished": string(),
    "state": string(null=False), "device": obj({}, null=False),
    "plan": obj({"path": string(), "meta": obj({}), "scale": string(), "overrides": array(string()),
                 "text": string()}, null=False),
    "steps": array(STEP, null=False), "resumed": array(anything),
}, required=("format", "format_version", "state", "device", "plan", "steps"), null=False)


def safe_dir(d):
    """A step's directory: a plain name inside the review's directory."""
    if not d or "/" in d or d in (".", "..") or d.startswith("."):
        raise BadInput("plan.json: a step's dir %r is not a plain name" % d[:40])
    return d


def render_steps(outdir, doc, render_dir):
    """Each done step's own report.html, rendered when missing; {dir: note}"""
    notes = {}
    for s in doc["steps"]:
        d = os.path.join(outdir, safe_dir(s["dir"]))
        if s["state"] == "skipped":
            notes[s["dir"]] = "skipped: %s" % text(s.get("skip_reason"))
            continue
        if s["state"] != "done" or not os.path.isdir(d):
            notes[s["dir"]] = "not run (%s)" % s["state"]
            continue
        if os.path.exists(os.path.join(d, "report.html")):
            continue
        try:
            render_dir(d)
        except (BadInput, OSError, RuntimeError) as e:
            notes[s["dir"]] = "no report of its own: %s" % e
    return notes


def cover(doc):
    meta, d, plan = doc["plan"].get("meta") or {}, doc["device"], doc["plan"]
    dev = [("Model", text(d.get("model"))), ("Serial", text(d.get("serial"))),
           ("Firmware", text(d.get("firmware"))),
           ("Capacity", fmt_bytes(d.get("capacity_bytes"))), ("Device", text(d.get("path")))]
    run = [("State", doc["state"]), ("Started", text(doc.get("started"))),
           ("Finished", text(doc.get("finished"))), ("Scale", text(plan.get("scale"))),
           ("ssdload", text(doc.get("ssdload_version")))]
    art = [("Plan", text(meta.get("name"))), ("Date", text(meta.get("date"))),
           ("File", text(plan.get("path")))]
    ov = plan.get("overrides") or []
    prov = [("Overrides", ", ".join(str(o) for o in ov) or "none"),
            ("Resumed", str(len(doc.get("resumed") or [])))]
    tags = []
    if plan.get("scale") == "quick":
        tags.append('<span class="tag warn">QUICK: A CHECK OF THE PLAN, NOT A RESULT</span>')
    if doc["state"] != "done":
        tags.append('<span class="tag bad">%s</span>' % esc(doc["state"].upper()))
    out = [header_html((("Device under test", dev), ("Review", run), ("Article", art),
                        ("Provenance", prov)), tags,
                       wide="command: <code>%s</code>" % esc(text(doc.get("command"))))]
    for key, title in (("source", "Source"), ("measured", "What the article measured"),
                       ("ours", "Ours where the article is silent")):
        if meta.get(key):
            out.append("<h2>%s</h2><p>%s</p>" % (title, esc(meta[key])))
    return "".join(out)


def steps_table(doc, notes):
    rows = []
    for i, s in enumerate(doc["steps"]):
        rows.append([str(i + 1), s["section"], text(s.get("chart")), s["state"],
                     text(s.get("status")), notes.get(s["dir"], "")])
    return data_table(["#", "Step", "Chart of the article", "State", "Exit", "Note"], rows,
                      caption="The steps, in the plan's order")


def step_sections(outdir, doc, notes):
    out = []
    for i, s in enumerate(doc["steps"]):
        d = safe_dir(s["dir"])
        out.append('<div class="page"><div class="title"><h1>%d. [%s]</h1>'
                   '<span class="pageno">%s</span></div>' % (
                       i + 1, esc(s["section"]), esc(text(s.get("chart")))))
        out.append("<p><code>%s</code></p>" % esc(text(s.get("argv"))))
        if os.path.exists(os.path.join(outdir, d, "report.html")):
            src = html.escape("%s/report.html" % d, quote=True)
            out.append('<p><a href="%s">%s/report.html</a></p>'
                       '<iframe src="%s" title="%s" style="width:100%%;height:900px;'
                       'border:1px solid #999"></iframe>' % (src, esc(d), src,
                                                             esc(s["section"])))
        else:
            out.append('<p class="note">%s</p>' % esc(notes.get(s["dir"]) or
                                                     "this step has no report"))
        out.append("</div>")
    return "".join(out)


def render_review(outdir, doc, render_dir):
    """DIR/report.html of the review @doc; its path."""
    REVIEW_DOC(doc, "plan.json")
    notes = render_steps(outdir, doc, render_dir)
    meta = doc["plan"].get("meta") or {}
    title = text(meta.get("title") or meta.get("name") or "ssdload review")
    page = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s</title>'
            '<style>%s</style></head><body>' % (esc(title), CSS),
            '<div class="page"><div class="title"><h1>%s</h1><span class="pageno">'
            'ssdload review</span></div>' % esc(title), cover(doc), steps_table(doc, notes),
            "<h2>The plan</h2><pre>%s</pre></div>" % esc(text(doc["plan"].get("text"))),
            step_sections(outdir, doc, notes), "</body></html>\n"]
    path = os.path.join(outdir, "report.html")
    write_atomic(path, lambda f: f.write("".join(page)))
    return path
