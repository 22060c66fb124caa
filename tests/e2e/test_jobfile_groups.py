# SPDX-License-Identifier: GPL-2.0
"""A job file of several job sections, run by `ssdload run FILE` as fio would.

Three sections on three timer null_blk devices (1 ms per I/O, so the
trace stays small): [a] and [b] start together, [c] has `stonewall` and
starts once both have ended.  One run prints one document: three JSON
entries in file order with fio's groupid (0, 0, 1) and job_start, then
the text report with a block per job and a "Run status group" per group.
The block trace (one CLOCK_MONOTONIC for every CPU) shows the order: the
first requests of [a] and [b] close together and their I/O overlapping,
the first request of [c] after the last one of both.

Kernels: 6.1 (SSDLOAD_JOBFILE_KERNELS); the kernel side, a group's start,
is tested on every kernel by test_group.py.
"""

import json
import os
import re

import pytest

import blktrace
import ssdload_env as env

JOBFILE_KERNELS = os.environ.get("SSDLOAD_JOBFILE_KERNELS", "6.1").split()
RUNTIME_S = 1


@pytest.fixture(autouse=True)
def _jobfile_kernel():
    if env.kernel_label() not in JOBFILE_KERNELS:
        pytest.skip("job files of several jobs run on kernel %s only "
                    "(SSDLOAD_JOBFILE_KERNELS): the group start they use is tested on "
                    "every kernel by test_group.py" % " ".join(JOBFILE_KERNELS))


def _first_last(events, dev):
    _, ma, mi = blktrace.dev_t(dev)
    ts = [e.ts for e in events if e.dev == (ma, mi)]
    assert ts, "no request traced on %s" % dev.name
    return min(ts), max(ts)


def test_stonewall_runs_the_sets_in_order(ssdload, null_blk, jobs, cli, tmp_path):
    devs = null_blk(nr_devices=3, irqmode=2, completion_nsec=1000000)
    names = [jobs.name(t) for t in "abc"]
    f = tmp_path / "three.fio"
    f.write_text("[global]\nrw=randread\nbs=4k\niodepth=2\nruntime=%d\n"
                 "[%s]\nfilename=%s\n[%s]\nfilename=%s\n[%s]\nstonewall\nfilename=%s\n"
                 % (RUNTIME_S, names[0], devs[0].path, names[1], devs[1].path, names[2],
                    devs[2].path))
    try:
        trace = blktrace.BlockTrace(devs, clock="mono")
    except blktrace.Unavailable as e:
        trace = None
        why = str(e)
    before = {d.name: d.stat() for d in devs}
    if trace:
        with trace:
            p = env.cli("run", str(f), "--output-format=json,normal", "--eta=never",
                        timeout=120)
            for d in devs:
                d.stat()        # settled: every request issued and traced
    else:
        p = env.cli("run", str(f), "--output-format=json,normal", "--eta=never", timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stderr == "", p.stderr
    doc, end = json.JSONDecoder().raw_decode(p.stdout)
    text = p.stdout[end:]

    # one document: three entries in file order, fio's groupid and job_start
    entries = doc["jobs"]
    assert [e["jobname"] for e in entries] == names
    assert [e["groupid"] for e in entries] == [0, 0, 1]
    for e, d in zip(entries, devs):
        n = e["read"]["total_ios"]
        assert n > 0, e["read"]
        assert n == env.stat_delta(before[d.name], d.stat())["read_ios"], (d.name, n)
        assert RUNTIME_S * 900 <= e["read"]["runtime"] <= RUNTIME_S * 1300, e["read"]
    assert entries[0]["job_start"] == entries[1]["job_start"] > 0
    assert entries[2]["job_start"] >= entries[0]["job_start"] + RUNTIME_S * 1000
    assert sorted(u["name"] for u in doc["disk_util"]) == sorted(d.name for d in devs)
    assert all(u["read_ios"] > 0 for u in doc["disk_util"]), doc["disk_util"]

    heads = re.findall(r"^(\S+): \(groupid=(\d+), jobs=1\)", text, re.M)
    assert heads == [(names[0], "0"), (names[1], "0"), (names[2], "1")], text
    assert re.findall(r"^Run status group (\d+) \(all jobs\):$", text, re.M) == ["0", "1"]
    assert len(re.findall(r"^   READ: bw=", text, re.M)) == 2, text
    assert text.count("Disk stats (read/write):") == 1, text
    assert not [n for n in names if os.path.isdir(os.path.join(env.JOBS, n))]

    if not trace:
        pytest.skip("the run's order is checked from job_start only: " + why)
    (fa, la), (fb, lb), (fc, lc) = (_first_last(trace.events, d) for d in devs)
    # started together (one group start; TCG may deschedule a vCPU for a while)
    assert abs(fa - fb) < 0.1, "first requests of [a] and [b] %.3f s apart" % abs(fa - fb)
    assert min(la, lb) - max(fa, fb) > 0.5 * RUNTIME_S, \
        "[a] and [b] overlapped %.3f s" % (min(la, lb) - max(fa, fb))
    assert fc > max(la, lb), "[c] issued %.3f s before [a] and [b] ended" % (max(la, lb) - fc)
    assert lc - fc > 0.5 * RUNTIME_S
