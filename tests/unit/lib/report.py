# SPDX-License-Identifier: GPL-2.0
"""Running userspace/ssdload-report.py on a document, and reading what it wrote.

The renderer needs Debian's python3-matplotlib: it runs with
$SSDLOAD_PYTHON (default /usr/bin/python3), as `ssdload report` does.  A
test module that imports the autouse fixture matplotlib_present is
skipped without it, but for its tests marked @without_matplotlib.
"""
import csv
import functools
import importlib.util
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
SCRIPT = os.path.join(TOP, "userspace", "ssdload-report.py")
PYTHON = os.environ.get("SSDLOAD_PYTHON") or "/usr/bin/python3"
SVG = "{http://www.w3.org/2000/svg}"


@functools.lru_cache(maxsize=None)
def report_module():
    """ssdload-report.py loaded as a module (its top level imports no
    matplotlib), for the tests that call its functions directly."""
    spec = importlib.util.spec_from_file_location("ssdload_report", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def have_matplotlib():
    try:
        r = subprocess.run([PYTHON, "-c", "import matplotlib, mpl_toolkits.mplot3d"],
                           capture_output=True, timeout=60)
    except OSError:
        return False
    return r.returncode == 0


def without_matplotlib(test):
    """Mark @test as one that runs without matplotlib (input checks)."""
    test.without_matplotlib = True
    return test


@pytest.fixture(autouse=True)
def matplotlib_present(request):
    if not getattr(request.function, "without_matplotlib", False) and not have_matplotlib():
        pytest.skip("%s has no matplotlib (apt install python3-matplotlib)" % PYTHON)


def render_file(d, name, doc=None, raw=None):
    """Write @doc (or @raw, text) to d/@name and run the renderer."""
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_text(json.dumps(doc, indent=1) if raw is None else raw,
                          encoding="utf-8")
    return subprocess.run([PYTHON, SCRIPT, str(d)], capture_output=True, text=True,
                          timeout=120, check=False)


class Html(HTMLParser):
    """report.html: its <img> sources, links, text and table cells."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.imgs, self.links, self.text, self.tables = [], [], [], {}
        self.scripts = 0
        self._table, self._row, self._cell = None, None, None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.imgs.append(a.get("src"))
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])
        elif tag == "script":
            self.scripts += 1
        elif tag == "table" and a.get("id"):
            self._table = self.tables.setdefault(a["id"], [])
        elif tag == "tr" and self._table is not None:
            self._row = []
            self._table.append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = {"tag": tag, "value": a.get("data-value"), "text": ""}
            self._row.append(self._cell)

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = self._row = None
        elif tag in ("td", "th"):
            self._cell = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell["text"] += data


def data_paths(svg_path, min_vertices):
    """Paths of plotted lines / bars (not glyphs, not ticks) with at least
    @min_vertices vertices, after checking that the file is an SVG."""
    root = ET.parse(str(svg_path)).getroot()
    assert root.tag == SVG + "svg", root.tag
    n = 0
    for g in root.iter(SVG + "g"):
        gid = g.get("id") or ""
        if not re.match(r"(line2d|patch|Poly3DCollection|PolyCollection|LineCollection)_",
                        gid):
            continue
        for p in g.iter(SVG + "path"):
            if len(re.findall(r"[MLC]", p.get("d") or "")) >= min_vertices:
                n += 1
    return n


def markers(svg_path):
    """The number of markers (<use> of a marker path) of each plotted line
    that has some, in drawing order."""
    root = ET.parse(str(svg_path)).getroot()
    out = []
    for ax in root.iter(SVG + "g"):
        if re.match(r"axes_", ax.get("id") or ""):
            # the axes' own lines: not its ticks' or legend's (deeper groups)
            out += [len(list(g.iter(SVG + "use"))) for g in ax.findall(SVG + "g")
                    if re.match(r"line2d_", g.get("id") or "")]
    return [n for n in out if n]


def read_csv(path):
    with open(str(path), newline="") as f:
        return list(csv.reader(f))


def snapshot(d):
    """{relative path: bytes} of every file the renderer wrote in @d."""
    out = {}
    for root, _, files in os.walk(str(d)):
        for f in files:
            if f != "pts.json":
                p = os.path.join(root, f)
                with open(p, "rb") as fh:
                    out[os.path.relpath(p, str(d))] = fh.read()
    return out


def _set(path, v):
    """A fault: the key at @path (keys and indices) set to @v, or removed
    when @v is the class Ellipsis."""
    def fault(doc):
        x = doc
        for k in path[:-1]:
            x = x[k]
        if v is Ellipsis:
            del x[path[-1]]
        else:
            x[path[-1]] = v
    return fault
