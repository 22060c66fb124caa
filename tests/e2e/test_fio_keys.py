# SPDX-License-Identifier: GPL-2.0
"""One job file, run by fio (ioengine=io_uring) and by ssdload on one
null_blk: the two JSON reports have the same keys.

fio's tools read ssdload's JSON because its keys are fio's.  The reports of
the same job file (run by fio 3.33 from the Debian package, then by
`ssdload run FILE`) are flattened to their key paths (a percentile or
latency bin is one path) and compared both ways.  The keys fio has and
ssdload leaves out are exactly those it cannot measure, and the keys
ssdload adds are its own; both lists are below, and each of their keys is
named in Documentation/cli.rst, so a key that appears or disappears fails
here until the list and the documentation say so.

Kernel: 6.1 (SSDLOAD_FIO_KEYS_KERNELS): the report is the CLI's; one
kernel with io_uring is enough.
"""
import json
import os

import pytest

import ssdload_env as env

KERNELS = os.environ.get("SSDLOAD_FIO_KEYS_KERNELS", "6.1").split()
REPO = os.environ.get("SSDLOAD_REPO", os.path.join(os.path.dirname(__file__), "..", ".."))

JOB = """[global]
filename=${KEYS_DEV}
ioengine=io_uring
direct=1
rw=randrw
rwmixread=70
bs=4k
iodepth=8
runtime=2
time_based

[keys]
"""

# fio's keys that ssdload leaves out, with why (a figure it cannot measure
# is left out, not invented): none
OMITTED = {
}
# ssdload's keys that fio has not: its own object, and lat's percentiles
# (ssdload's lat is its clat, so it gives them as fio does with
# lat_percentiles=1)
EXTRA = {
    "jobs[].ssdload": "ssdload's own results (cli.rst, JSON output)",
    "jobs[].read.lat_ns.percentile.*": "lat = clat: its percentiles",
    "jobs[].read.lat_ns.bins.*": "json+: lat's bins",
    "jobs[].write.lat_ns.percentile.*": "lat = clat: its percentiles",
    "jobs[].write.lat_ns.bins.*": "json+: lat's bins",
}


@pytest.fixture(autouse=True)
def _kernel():
    if env.kernel_label() not in KERNELS:
        pytest.skip("runs on kernel %s only (SSDLOAD_FIO_KEYS_KERNELS)" % " ".join(KERNELS))


def paths(o, prefix=""):
    """The key paths of @o: "jobs[].read.clat_ns.percentile.*" ... (a
    percentile or a bin is "*"; an empty object or array is a leaf)."""
    out = set()
    if isinstance(o, dict):
        for k, v in o.items():
            p = prefix + ("*" if prefix.endswith(("percentile.", "bins.")) else k)
            if p == "jobs[].ssdload":		# ssdload's own object: one key
                out.add(p)
            elif isinstance(v, (dict, list)) and v:
                out |= paths(v, p + ".")
            else:
                out.add(p)
    elif isinstance(o, list):
        for v in o:
            out |= paths(v, prefix[:-1] + "[].")
    return out


def report(argv, out, dev):
    e = dict(os.environ, KEYS_DEV=dev)
    r = env.run([str(a) for a in argv], env=e, timeout=120, check=False)
    assert r.returncode == 0, (argv, r.stdout, r.stderr)
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def test_same_keys_as_fio(nullb, ssdload, cli, fio, tmp_path):
    dev = nullb
    job = tmp_path / "keys.fio"
    job.write_text(JOB)
    fio_doc = report([fio, str(job), "--output-format=json+",
                      "--output=%s" % (tmp_path / "fio.json")], tmp_path / "fio.json", dev.path)
    ours = report([cli, "run", str(job), "--allow_write", "--output-format=json+",
                   "--output=%s" % (tmp_path / "ssdload.json")], tmp_path / "ssdload.json",
                  dev.path)
    out = os.environ.get("SSDLOAD_OUT")
    if out:
        for name, d in (("fio-keys-fio.json", fio_doc), ("fio-keys-ssdload.json", ours)):
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                json.dump(d, f, indent=1)
    theirs, mine = paths(fio_doc), paths(ours)
    # both ran: the same job, with I/O in both directions
    assert [j["jobname"] for j in fio_doc["jobs"]] == [j["jobname"] for j in ours["jobs"]]
    for d in (fio_doc, ours):
        assert d["jobs"][0]["read"]["total_ios"] > 0 and d["jobs"][0]["write"]["total_ios"] > 0
    missing, extra = sorted(theirs - mine), sorted(mine - theirs)
    assert missing == sorted(OMITTED), "fio's keys ssdload lacks: %s" % missing
    assert extra == sorted(EXTRA), "ssdload's keys fio lacks: %s" % extra


def test_the_differences_are_documented():
    with open(os.path.join(REPO, "Documentation", "cli.rst"), encoding="utf-8") as f:
        doc = f.read()
    for key in list(OMITTED) + list(EXTRA):
        leaf = [k for k in key.replace("[]", "").split(".") if k != "*"][-1]
        assert "``%s``" % leaf in doc, "%s is not named in Documentation/cli.rst" % key
