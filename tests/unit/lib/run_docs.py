# SPDX-License-Identifier: GPL-2.0
"""run.json documents: the JSON of `ssdload run --output-format=json+`
(fio's schema, no "format") with the top-level latency_study of
--latency-table, --latency-below and --latency-check, and render_run().

They are the real output of the CLI: `ssdload show` of fake debugfs jobs
built from known lognormal samples (lib/debugfs.py's FakeJob: 20,000 reads
around 180 us, 6,000 writes around 25 us), with the job options `ssdload
run` writes for the options given; several entries come from numjobs=2
(fio's clones) or from two jobs' entries in one document.
"""
import copy
import functools
import json
import os
import subprocess
import tempfile

from build import make_userspace
from debugfs import FakeJob, Geometry, lognormal
from report import TOP, render_file

CLI = os.path.join(TOP, "userspace", "ssdload")
PLOTS = ["run_exceedance.svg", "run_histogram.svg"]
OPTIONS = {"filename": "/dev/nvme0n1", "rw": "randrw", "rwmixread": "70", "bs": "4k",
           "iodepth": "1", "runtime": "60s"}
TABLE = ["--latency-table", "--latency-below=100us,1ms",
         "--latency-check=p99.95<500us,read:mean<1ms,p50<400us,p99.9999<1s"]
PASSING = ["--latency-table=50:99:99.9", "--latency-check=p99<2ms,read:mean<1ms"]


# --------------------------------------------------------------------------
# the documents: the CLI's own output

@functools.lru_cache(maxsize=None)
def _show(fmt, args, extra=(), seed=11, name="s3700"):
    r = make_userspace(top=TOP)
    assert r.returncode == 0, r.stderr
    root = tempfile.mkdtemp(prefix="ssdload-run-report-")
    FakeJob(Geometry(TOP), root, name, lognormal(seed, 20000, 180000, 0.6),
            lognormal(seed + 1, 6000, 25000, 1.2), extra=extra)
    p = subprocess.run([CLI, "show", name, "--output-format=" + fmt] + list(args),
                       capture_output=True, text=True, check=False,
                       env=dict(os.environ, SSDLOAD_DEBUGFS=root,
                                SSDLOAD_CONFIGFS="/nonexistent/ssdload-unit"))
    assert p.returncode in (0, 1), p.stderr		# 1: a latency check failed
    return p.stdout


def show(fmt="json+", args=(), **kw):
    """The JSON document of `ssdload show`, with run's job options."""
    doc = json.loads(_show(fmt, tuple(args), **kw))
    for j in doc["jobs"]:
        j["job options"].update(OPTIONS)
    return doc


def jsonplus():
    """json+ and the whole study: the check fails (p99.95 and p99.9999)."""
    return show("json+", TABLE)


def passing():
    return show("json+", PASSING)


def plain():
    """json without bins, with the study."""
    return show("json", TABLE)


def bare():
    """json+ and no latency option: no latency_study."""
    return show("json+")


def clones():
    """numjobs=2 without group_reporting: two entries without percentiles
    nor bins; the study is the whole run's."""
    return show("json+", TABLE, extra=("numjobs=2",))


def two_jobs():
    """Two jobs' entries in one document, each with its own bins."""
    a, b = show("json+"), show("json+", seed=21, name="other")
    a["jobs"] += b["jobs"]
    return a


def intended():
    """A rate-controlled run: its latency from the intended time too (the
    clat bins at 1.5 times the latency)."""
    doc = bare()
    for d in ("read", "write"):
        x = doc["jobs"][0][d]
        lat = copy.deepcopy(x["clat_ns"])
        lat["bins"] = {str(int(k) * 3 // 2): n for k, n in lat["bins"].items()}
        lat["percentile"] = {k: v * 3 // 2 for k, v in lat["percentile"].items()}
        x["lat_from_intended_ns"] = lat
    return doc


DOCS = {"jsonplus": jsonplus, "passing": passing, "plain": plain, "bare": bare,
        "clones": clones, "two-jobs": two_jobs, "intended": intended}


def render_run(d, doc=None, raw=None):
    return render_file(d, "run.json", doc, raw)
