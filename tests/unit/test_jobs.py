# SPDX-License-Identifier: GPL-2.0
"""tests/jobs/: realistic review workloads as fio job files.

Every job file there is read by fio 3.33 itself (`fio --showcmd`, which
parses the file and prints each job's options) and by `ssdload run FILE
--parse-only`.  Both must accept it, and ssdload must see what fio sees:
the same jobs in the same order, each with the same rw, block size,
depth, workers, mix, span, rate and times (from [global], from the
included common.fio and from the job's own section), and the same sets
(stonewall) and reporting groups (new_group).  ssdload's command line
overrides the file (fio's does not: `fio job.fio --runtime=1` runs the
file's runtime, a difference cli.rst lists).
"""
import glob
import os
import re
import shutil
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import run

pytestmark = NEEDS_DEV

JOBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "jobs")
FRAGMENTS = ("common.fio",)		# included by the others, not jobs of their own
FILES = sorted(os.path.basename(f) for f in glob.glob(os.path.join(JOBS, "*.fio"))
               if os.path.basename(f) not in FRAGMENTS)
ENV = {"SSDLOAD_JOB_DEV": DEV}
PLACE = re.compile(r"^# \[(?P<section>[^\]]+)\]: set (?P<set>\d+) of \d+, "
                   r"groupid (?P<gid>\d+)$")
UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def need_fio():
    if not shutil.which("fio"):
        pytest.skip("fio is not installed (Debian: fio): nothing to compare with")


def fio_jobs(name, *args):
    """fio --showcmd FILE: [(name, {option: value})], each job with the
    [global] options before its own, plus "_set" and "_group" as fio runs
    them (stonewall: a new set; new_group or stonewall: a new group)."""
    env = dict(os.environ, **ENV)
    p = subprocess.run(["fio", "--showcmd", name] + list(args), cwd=JOBS, env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "failed" not in p.stderr, p.stderr
    tokens = p.stdout.split()
    assert tokens[0] == "fio", p.stdout
    glob_opts, jobs = {}, []
    for t in tokens[1:]:
        assert t.startswith("--"), t
        k, _, v = t[2:].partition("=")
        if k == "name":
            jobs.append((v, dict(glob_opts)))
        elif jobs:
            jobs[-1][1][k] = v
        else:
            glob_opts[k] = v
    st, grp = 0, -1
    for i, (_, o) in enumerate(jobs):
        if i == 0 or "stonewall" in o or "wait_for_previous" in o:
            st += 1
        if i == 0 or "stonewall" in o or "new_group" in o:
            grp += 1
        o["_set"], o["_group"] = st, grp
    return jobs


def ssdload_jobs(cli, name, *args):
    """ssdload run FILE --parse-only: [(name, {attribute: value})]."""
    p = run(cli, "run", os.path.join(JOBS, name), "--parse-only", *args, env=ENV)
    assert p.returncode == 0, p.stderr
    jobs = []
    for line in p.stdout.splitlines():
        m = PLACE.match(line)
        if m:
            jobs.append([m["section"], {"_set": int(m["set"]), "_group": int(m["gid"])}])
        elif line:
            k, v = line.split("=", 1)
            if not jobs:		# one job: no place line
                jobs.append([None, {"_set": 1, "_group": 0}])
            jobs[-1][1][k] = v
    for j in jobs:
        j[0] = j[0] or j[1]["name"]
    return [tuple(j) for j in jobs], p.stderr


def size(v):
    m = re.fullmatch(r"(\d+)([kmg]?)i?b?", v.lower())
    assert m, v
    return int(m[1]) * UNITS[m[2]]


def secs_ms(v):
    m = re.fullmatch(r"(\d+)(ms|s|m)?", v)
    assert m, v
    return int(m[1]) * {None: 1000, "s": 1000, "ms": 1, "m": 60000}[m[2]]


def expected(fio):
    """What ssdload's attributes must say for fio's options of one job."""
    want = {"rw": fio.get("rw", "read"), "iodepth": fio.get("iodepth", "1"),
            "_set": fio["_set"], "_group": fio["_group"]}
    if "bs" in fio:
        want["bs"] = str(size(fio["bs"]))
    for k in ("rwmixread", "size", "offset", "rate_iops", "random_distribution"):
        if k in fio:
            want[k] = fio[k]
    if "bssplit" in fio:		# read,write (trim: the write's, as fio); sizes in bytes
        parts = fio["bssplit"].split(",")
        parts += parts[-1:] * (3 - len(parts))
        want["bssplit"] = ",".join(":".join("%d/%s" % (size(b), p) for b, p in
                                            (e.split("/") for e in part.split(":")))
                                   for part in parts)
    if int(fio.get("numjobs", "1")) > 1:
        want["numjobs"] = fio["numjobs"]
    if "runtime" in fio:
        want["runtime_ms"] = str(secs_ms(fio["runtime"]))
    if "ramp_time" in fio:
        want["ramp_ms"] = str(secs_ms(fio["ramp_time"]))
    return want


def compare(fio, ours):
    assert [n for n, _ in ours] == [n for n, _ in fio]
    for (name, f), (_, o) in zip(fio, ours):
        want = expected(f)
        got = {k: o.get(k) for k in want}
        got["_group"] = o["_group"]
        assert got == want, "job [%s]: fio %s, ssdload %s" % (name, f, o)
        assert o["filename"] == ENV["SSDLOAD_JOB_DEV"]


def test_the_files_are_there():
    assert len(FILES) >= 6, FILES


@pytest.mark.parametrize("name", FILES)
def test_fio_and_ssdload_read_the_same_jobs(cli, name):
    need_fio()
    fio = fio_jobs(name)
    ours, err = ssdload_jobs(cli, name)
    compare(fio, ours)
    # each file's engine options are noted, never silently dropped
    assert "ioengine=" in err and "ignored" in err


@pytest.mark.parametrize("name", ["qd-sweep.fio", "oltp-with-log.fio"])
def test_the_command_line_wins(cli, name):
    """ssdload's command line overrides every job of the file; the rest
    stays as fio reads the file."""
    need_fio()
    fio = fio_jobs(name)
    for _, o in fio:
        o.update(runtime="3", ramp_time="1")
    ours, _ = ssdload_jobs(cli, name, "--runtime=3", "--ramp_time=1")
    compare(fio, ours)
    assert {o["runtime_ms"] for _, o in ours} == {"3000"}


def test_a_missing_device_variable_is_refused(cli):
    """${SSDLOAD_JOB_DEV} unset: one line naming it and the file, as fio
    refuses the file."""
    env = {k: v for k, v in os.environ.items() if k != "SSDLOAD_JOB_DEV"}
    p = subprocess.run([cli, "run", os.path.join(JOBS, "four-corners.fio"), "--parse-only"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode != 0 and p.stdout == ""
    assert "SSDLOAD_JOB_DEV" in p.stderr and "common.fio:" in p.stderr, p.stderr
