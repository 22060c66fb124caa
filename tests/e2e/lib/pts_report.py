# SPDX-License-Identifier: GPL-2.0
"""The report checks of the scaled pts runs (tests/e2e/test_pts.py), for the
guest and the host bridge (tests/qemu/bridge.py) alike.

The report renderer (userspace/ssdload-report.py) is pure python and does
not depend on the kernel; under TCG it takes ~250 s of the 6.12 guest to
draw what the host draws in ~15 s.  So under `make check` the guest runs
`ssdload pts ... --no-report`, keeps a copy of the output directory in its
output share ($SSDLOAD_OUT/pts/NAME, the same path on the host) and appends
one request per test to $SSDLOAD_OUT/host-render.jsonl:

    {"test": "tests/e2e/test_pts.py::test_iops_scaled",
     "dir": "/root/.cache/ssdload/out/check-6.12-.../pts/iops",
     "plots": ["ss_convergence.svg", ...], "expect": ["MaxIOPS", ...],
     "csv_lines": {"measurement.csv": 8}}

After the guest, the bridge renders each DIR on the host (`ssdload report
DIR`) and runs check_report() there, as the item
e2e[LABEL]::host-render::test_pts.py::test_iops_scaled.  The bridge asks
for this with SSDLOAD_HOST_RENDER=1 in the guest's environment; without it
(or without SSDLOAD_OUT) the test renders and checks in place.
"""

import json
import os
import re
import xml.etree.ElementTree as ET

REQUESTS = "host-render.jsonl"
SPEC = "SNIA SSS PTS 2.0.2"
# the keys of a request and their types; all of them are required
KEYS = {"test": str, "dir": str, "plots": list, "expect": list, "csv_lines": dict}


def host_renders():
    """The output share the requests go to, when the host renders the
    reports (the bridge set SSDLOAD_HOST_RENDER=1); else None."""
    out = os.environ.get("SSDLOAD_OUT")
    if out and os.environ.get("SSDLOAD_HOST_RENDER") == "1":
        return out
    return None


def request_line(test, d, plots, expect=(), csv_lines=None):
    """One line of host-render.jsonl (with its newline)."""
    req = {"test": test, "dir": d, "plots": list(plots),
           "expect": list(expect), "csv_lines": dict(csv_lines or {})}
    err = validate(req)
    if err:
        raise ValueError(err)
    return json.dumps(req, sort_keys=True) + "\n"


def append_request(out, test, d, plots, expect=(), csv_lines=None):
    """Append a request to OUT/host-render.jsonl in one write."""
    line = request_line(test, d, plots, expect, csv_lines)
    with open(os.path.join(out, REQUESTS), "a") as f:
        f.write(line)


def validate(req):
    """None if REQ is a well-formed request, else what is wrong with it."""
    if not isinstance(req, dict):
        return "not a JSON object"
    missing = sorted(set(KEYS) - set(req))
    extra = sorted(set(req) - set(KEYS))
    if missing or extra:
        return "keys: missing %s, unknown %s" % (missing, extra)
    for k, t in KEYS.items():
        if not isinstance(req[k], t):
            return "%s is a %s, not a %s" % (k, type(req[k]).__name__, t.__name__)
    if not req["test"] or not os.path.isabs(req["dir"]):
        return "test is empty or dir is not an absolute path"
    for p in req["plots"]:
        if not isinstance(p, str) or not p or "/" in p or p.startswith("."):
            return "bad plot name %r" % (p,)
    if not all(isinstance(s, str) and s for s in req["expect"]):
        return "expect holds a non-string or an empty string"
    for name, n in req["csv_lines"].items():
        if "/" in name or name.startswith(".") or not name.endswith(".csv"):
            return "bad CSV name %r" % (name,)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            return "CSV %s: bad line count %r" % (name, n)
    return None


def item_name(test):
    """'tests/e2e/test_pts.py::test_x[a/b]' -> 'test_pts.py::test_x[a/b]',
    as the bridge names the replayed guest test cases."""
    path, sep, rest = test.partition("::")
    return os.path.basename(path) + sep + rest


def parse_requests(text):
    """[(name, request or None, error or None)] from the text of a
    host-render.jsonl, in the order of the tests.  A test that appears more
    than once (a rerun) keeps its last request; a line that is not a valid
    request is an error named 'line N'; blank lines are ignored."""
    out = {}
    for no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            out["line %d" % no] = (None, "line %d is not JSON (%s): %r" % (no, e, line[:200]))
            continue
        err = validate(req)
        if err:
            out["line %d" % no] = (None, "line %d is not a valid request: %s: %r"
                                   % (no, err, line[:500]))
            continue
        name = item_name(req["test"])
        out.pop(name, None)		# a rerun's request goes last
        out[name] = (req, None)
    return [(name, req, err) for name, (req, err) in out.items()]


def rendered_files(d, csv_names=()):
    """What `ssdload report D` writes that the checks look at: removed
    before a render, so that the checks see that render's output."""
    return [os.path.join(d, "report.html"), os.path.join(d, "plots")] + \
        [os.path.join(d, c) for c in csv_names]


def check_report(d, plots, expect=(), csv_lines=None):
    """Assert what a rendered scaled pts report must hold; its html text.

    report.html of more than 1000 bytes whose every <img src> exists; each
    of PLOTS in D/plots, well-formed SVG and referenced by report.html; the
    spec's name and NOT CONFORMANT (every scaled run is); every string of
    EXPECT in the html; each CSV of CSV_LINES with that many lines."""
    html = os.path.join(d, "report.html")
    assert os.path.exists(html), "no report.html in " + d
    size = os.path.getsize(html)
    assert size > 1000, "report.html has %d bytes only" % size
    with open(html, encoding="utf-8") as f:
        text = f.read()
    for src in re.findall(r'<img[^>]+src="([^"]+)"', text):
        assert os.path.exists(os.path.join(d, src)), "report.html refers to missing " + src
    for p in plots:
        path = os.path.join(d, "plots", p)
        assert os.path.exists(path), "no plot " + p
        try:
            ET.parse(path)
        except ET.ParseError as e:
            raise AssertionError("plots/%s is not well-formed SVG: %s" % (p, e))
        assert "plots/%s" % p in text, p + " is not in report.html"
    assert SPEC in text, "report.html does not name " + SPEC
    assert "NOT CONFORMANT" in text, "report.html does not say NOT CONFORMANT"
    for s in expect:
        assert s in text, "report.html lacks %r" % s
    for name, n in sorted((csv_lines or {}).items()):
        path = os.path.join(d, name)
        assert os.path.exists(path), "no " + name
        with open(path, encoding="utf-8") as f:
            lines = f.read().strip().splitlines()
        assert len(lines) == n, "%s has %d lines, not %d" % (name, len(lines), n)
    return text
