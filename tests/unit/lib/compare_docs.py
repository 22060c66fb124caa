# SPDX-License-Identifier: GPL-2.0
"""compare.json documents (format "ssdload-compare", format_version 1) of
every kind, and render_compare().

Each embeds the compared runs' documents whole: those of the other report
kinds (lib/curve_docs.py, lib/sweep_docs.py, lib/pts_docs.py), made to
differ (a second drive with its own model, slower), and plain runs' JSON
written by `ssdload show --output-format=json` from fake debugfs jobs
(lib/debugfs.py: the real output, two latency distributions).
"""
import copy
import functools
import json
import os
import subprocess
import tempfile

from build import make_userspace
from curve_docs import done_doc, stopped_doc
from debugfs import FakeJob, Geometry, lognormal
from pts_docs import hir_doc, iops_doc, latency_doc, wsat_doc
from report import TOP, render_file
from sweep_docs import auto_doc, interrupted_doc, workers_doc

CLI = os.path.join(TOP, "userspace", "ssdload")


# --------------------------------------------------------------------------
# the compared documents

def other_drive(doc, model="Other SSD 2TB", slower=1.5):
    """@doc as a second drive measured it: another model and serial, its
    IOPS / @slower and its latencies x @slower, everywhere in the document."""
    def walk(x, key=""):
        if key in ("percentiles", "intended_percentiles") and x:
            return {k: None if v is None else v * slower for k, v in x.items()} \
                if isinstance(x, dict) else [[p, ns * slower] for p, ns in x]
        if isinstance(x, dict):
            return {k: walk(v, k) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v, key) for v in x]
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return x
        if "iops" in key or key in ("bw_bytes", "max_iops"):
            return x / slower
        if key.endswith("_ns") and key != "runtime_ns":
            return x * slower
        return x
    out = walk(copy.deepcopy(doc))
    if isinstance(out.get("device"), dict):
        out["device"].update(model=model, serial="0ther")
    return out


@functools.lru_cache(maxsize=None)
def _plain_run(seed, median_ns):
    """The JSON of `ssdload show` of a fake job: reads around @median_ns,
    writes 6 times faster (the real output of the CLI)."""
    r = make_userspace(top=TOP)
    assert r.returncode == 0, r.stderr
    root = tempfile.mkdtemp(prefix="ssdload-compare-")
    FakeJob(Geometry(TOP), root, "job%d" % seed, lognormal(seed, 20000, median_ns, 0.6),
            lognormal(seed + 1, 6000, median_ns / 6, 1.1))
    p = subprocess.run([CLI, "show", "job%d" % seed, "--output-format=json"],
                       capture_output=True, text=True, check=False,
                       env=dict(os.environ, SSDLOAD_DEBUGFS=root,
                                SSDLOAD_CONFIGFS="/nonexistent/ssdload-unit"))
    assert p.returncode == 0, p.stderr
    return p.stdout


def plain_run(seed=1, median_ns=180000):
    return json.loads(_plain_run(seed, median_ns))


def compare(kind, docs, labels=None, test=None):
    """compare.json of @docs, as `ssdload compare` writes it."""
    labels = labels or ["Drive %c" % (ord("A") + i) for i in range(len(docs))]
    return {"format": "ssdload-compare", "format_version": 1, "ssdload_version": "0.9",
            "command": "ssdload compare " + " ".join("run%d" % i for i in range(len(docs))),
            "created": "2026-12-07T08:00:00Z", "kind": kind, "test": test,
            "runs": [{"label": label, "source": "/data/run%d/%s.json" % (i, kind),
                      "document": d} for i, (label, d) in enumerate(zip(labels, docs))]}


def curves():
    return compare("curve", [done_doc(), other_drive(stopped_doc())])


def sweeps():
    """The automatic rule against two worker lines, and an interrupted sweep."""
    return compare("sweep", [auto_doc(), other_drive(workers_doc()),
                             other_drive(interrupted_doc(), model="Third")])


def runs():
    return compare("run", [plain_run(1, 180000), plain_run(3, 90000)], ["gen4", "gen5"])


def pts_iops():
    return compare("pts", [iops_doc(), other_drive(iops_doc())], test="iops")


def pts_latency():
    return compare("pts", [latency_doc(), other_drive(latency_doc())], test="latency")


def pts_wsat():
    return compare("pts", [wsat_doc(), other_drive(wsat_doc())], test="wsat")


def pts_hir():
    return compare("pts", [hir_doc(), other_drive(hir_doc())], test="hir")


COMPARE_DOCS = {"curve": curves, "sweep": sweeps, "run": runs, "pts-iops": pts_iops,
                "pts-latency": pts_latency, "pts-wsat": pts_wsat, "pts-hir": pts_hir}
COMPARE_PLOTS = {"curve": ["compare_response.svg", "compare_exceedance.svg"],
                 "sweep": ["compare_iops.svg", "compare_latency.svg"],
                 "run": ["compare_iops.svg", "compare_latency.svg", "compare_exceedance.svg"],
                 "pts-iops": ["compare_pts.svg"], "pts-latency": ["compare_pts.svg"],
                 "pts-wsat": ["compare_pts.svg"], "pts-hir": []}
# the comparisons with a run that did not end normally (the orange banner)
COMPARE_BANNERS = ("sweep",)


def render_compare(d, doc=None, raw=None):
    """Write @doc (or @raw, text) to d/compare.json and run the renderer."""
    return render_file(d, "compare.json", doc, raw)
