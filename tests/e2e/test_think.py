# SPDX-License-Identifier: GPL-2.0
"""fio's thinktime family and startdelay in the engine.

- bursts: with thinktime T after every B I/Os at iodepth 1, a run of R
  does at most (R / T + 1) x B I/Os: each pause lasts at least T, so no
  more than R / T + 1 bursts begin.  That bound holds however slow the
  host is (a slow host only does fewer); the summary's think_ns covers
  every pause but the last (cut by the deadline) at T each;
- thinktime_blocks_type=issue at iodepth 8 with B = 3: no worker ever has
  more than 3 I/Os in flight (iodepth_level has nothing from 4 up), where
  the same job without thinktime fills its depth;
- thinktime_iotime alone (thinktime_blocks=0) pauses by time;
- startdelay: a range is stored and shown as written, and a run lasts at
  least the smallest delay plus its runtime;
- bad values are refused at the store or at enable, naming the attribute.

Kernels: the burst bound on all three (the pause's sleep and spin run
under the debug kernel's checks); the rest is the same code on every
kernel (stock).  Guest time under TCG: 13 s on 6.1 (all), 9 s on 6.12.
"""

import errno
import os

import pytest

import ssdload_env as env

T_US = 20000		# thinktime, us
B = 4			# thinktime_blocks
RUN_MS = 1000


def _need_think(job):
    if not os.path.exists(job.path("thinktime_us")):
        pytest.skip("this ssdload has no thinktime_us attribute")


def _levels(s):
    return [int(x) for x in str(s["iodepth_level"]).split()]


def test_bursts_bounded_by_thinktime(nullb, jobs):
    """At most (runtime / T + 1) x B I/Os; the pauses are counted and each
    but the last lasted T at least."""
    j = jobs("think", filename=nullb.path, rw="randread", bs=4096, iodepth=1,
             numjobs=1, runtime_ms=RUN_MS)
    _need_think(j)
    j.set(thinktime_us=T_US, thinktime_blocks=B, thinktime_spin_us=2000)
    s = j.run(60)
    ios = s["read_ios"]
    bound = (RUN_MS * 1000 // T_US + 1) * B
    assert B <= ios <= bound, (ios, bound, s["think_pauses"], s["think_ns"])
    pauses = s["think_pauses"]
    # a pause after every B completions (ramp and measured alike)
    assert 1 <= pauses <= ios // B + 1, (pauses, ios)
    assert s["think_ns"] >= (pauses - 1) * T_US * 1000, (s["think_ns"], pauses)


@pytest.mark.stock
def test_issue_type_caps_the_depth(nullb, jobs):
    """thinktime_blocks_type=issue, B = 3 at iodepth 8: nothing is ever
    sent with more than 3 in flight; without thinktime the depth fills."""
    attrs = dict(filename=nullb.path, rw="randread", bs=4096, iodepth=8, numjobs=1,
                 runtime_ms=300)
    j = jobs("thinkiss", **attrs)
    _need_think(j)
    j.set(thinktime_us=1000, thinktime_blocks=3, thinktime_blocks_type="issue")
    assert j.get("thinktime_blocks_type") == "issue"
    s = j.run(60)
    lvl = _levels(s)
    assert sum(lvl) == s["read_ios"] > 0, lvl
    assert sum(lvl[2:]) == 0, lvl
    assert s["think_pauses"] >= 1
    s = jobs("thinkoff", **attrs).run(60)
    assert sum(_levels(s)[2:]) > 0, _levels(s)
    assert s["think_pauses"] == 0 and s["think_ns"] == 0


@pytest.mark.stock
def test_iotime_and_startdelay(nullb, jobs):
    """thinktime_iotime alone: a pause at most every iotime (pauses at most
    runtime / (iotime + T) + 1); startdelay 200-400 ms: stored as written,
    and the run lasts at least 200 ms more than its runtime."""
    j = jobs("thinkio", filename=nullb.path, rw="randread", bs=4096, iodepth=4,
             numjobs=2, runtime_ms=500)
    _need_think(j)
    j.set(thinktime_us=50000, thinktime_iotime_us=100000, thinktime_blocks=0,
          startdelay_us="200000-400000")
    assert j.get("startdelay_us") == "200000-400000"
    s = j.run(60)
    assert s["read_ios"] > 0
    # per worker: 500 ms / (100 + 50 ms) + 1 pauses at most
    assert 2 <= s["think_pauses"] <= 2 * (500 // 150 + 1), s["think_pauses"]
    assert j.progress()["elapsed_ns"] >= (200 + 500) * 1000000


@pytest.mark.stock
@pytest.mark.parametrize("attr,value", [
    ("thinktime_blocks_type", "sometimes"),
    ("startdelay_us", "5-2"),
    ("startdelay_us", "2-"),
    ("thinktime_us", "1s"),
    ("thinktime_us", str(2 ** 64)),
])
def test_bad_values_refused(nullb, jobs, kmsg, attr, value):
    """Refused at the store, with a pr_err naming the attribute; unchanged."""
    j = jobs("thinkbad", filename=nullb.path)
    _need_think(j)
    before = j.get(attr)
    mark = kmsg.mark()
    with pytest.raises(OSError) as ei:
        j.write(attr, value)
    assert ei.value.errno in (errno.EINVAL, errno.ERANGE)
    assert j.get(attr) == before
    assert any(attr in l for l in kmsg.since(mark) if "ssdload" in l)


@pytest.mark.stock
def test_blocks_zero_needs_iotime(nullb, jobs):
    """thinktime_blocks=0 pauses by time only: without thinktime_iotime_us
    enable is refused, naming thinktime_blocks."""
    j = jobs("thinkzero", filename=nullb.path, rw="randread", number_ios=8)
    _need_think(j)
    j.set(thinktime_us=100, thinktime_blocks=0)
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EINVAL
    assert "thinktime_blocks" in j.error
    assert not env.ssdload_kthreads()
