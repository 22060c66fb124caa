# SPDX-License-Identifier: GPL-2.0
"""start_at: a job starts at an instant on CLOCK_REALTIME (issue 31).

- the workers begin no earlier than start_at: first_submit_real_ns and
  the start error (the last worker's lateness) are >= 0, the run's start
  on the wall clock (start_real_ns) is start_at, and nothing is issued
  before it (progress counts 0 I/Os and elapsed_ns 0 while waiting);
- a stop while waiting ends the job at once with no I/O;
- start_at in the past, with a group, or more than a day ahead is
  refused at enable, naming start_at.

No upper bound on the lateness is asserted: it is a measure of the host
(TCG here), given in the summary and the cluster report.  Kernels: the
waiting worker and a stop while it waits on all three; the refusals, the
same code everywhere, on one stock kernel.
"""
import errno
import os
import time

import pytest

import ssdload_env as env

AHEAD_NS = 1_500_000_000


def _need(job):
    if not os.path.exists(job.path("start_at")):
        pytest.skip("this ssdload has no start_at attribute")


def test_starts_at_the_instant(nullb, jobs):
    j = jobs("at", filename=nullb.path, rw="randread", bs=4096, iodepth=4,
             numjobs=2, runtime_ms=300, time_based=1)
    _need(j)
    at = time.time_ns() + AHEAD_NS
    j.set(start_at=at)
    j.enable()
    p = j.progress()
    if time.time_ns() < at - 100_000_000:
        assert p["read_ios"] == 0 and p["elapsed_ns"] == 0, p
    s = j.wait(30)
    assert j.state == "done", j.state
    s = j.summary()
    assert s["start_at"] == at, s
    assert s["first_submit_real_ns"] >= at, (s["first_submit_real_ns"], at)
    assert s["start_error_ns"] >= 0, s["start_error_ns"]
    assert s["first_submit_real_ns"] - at <= s["start_error_ns"], s
    # the run's clock starts at the instant (two clock reads apart)
    assert abs(s["start_real_ns"] - at) < 50_000_000, (s["start_real_ns"], at)
    assert s["read_ios"] > 0


def test_stop_while_waiting(nullb, jobs):
    j = jobs("atstop", filename=nullb.path, rw="randread", bs=4096, iodepth=4,
             runtime_ms=300, time_based=1)
    _need(j)
    j.set(start_at=time.time_ns() + 60 * 10**9)
    j.enable()
    assert j.state == "running"
    t0 = time.monotonic()
    j.stop(timeout=20)
    assert time.monotonic() - t0 < 20
    s = j.summary()
    assert s["read_ios"] == 0 and s["first_submit_real_ns"] >= 0, s
    assert j.state in ("stopped", "done"), j.state


@pytest.mark.stock
@pytest.mark.parametrize("case", ["past", "group", "far"])
def test_refused_at_enable(nullb, jobs, kmsg, case):
    j = jobs("atbad", filename=nullb.path, rw="randread", bs=4096, number_ios=16)
    _need(j)
    now = time.time_ns()
    at, err = {"past": (now - 10**9, errno.EINVAL), "group": (now + 10**10, errno.EINVAL),
               "far": (now + 2 * 86400 * 10**9, errno.ERANGE)}[case]
    if case == "group":
        j.set(group="g1")
    j.set(start_at=at)
    mark = kmsg.mark()
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == err, ei.value
    lines = [l for l in kmsg.since(mark) if "start_at" in l]
    assert lines, "no pr_err naming start_at"
    assert j.state == "idle"
    j.set(start_at=0, group="")
    s = j.run(60)
    assert s["read_ios"] == 16
