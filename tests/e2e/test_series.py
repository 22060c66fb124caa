# SPDX-License-Identifier: GPL-2.0
"""Time series (log_interval_ms, log_hist): intervals closed by each worker
in the kernel, read from debugfs series (uapi/ssdload.h's format).

- a 5 s run at 100 ms has 50 +- 1 records per worker, contiguous in time,
  whose I/Os, bytes and latency sums equal the job's totals exactly, whose
  extremes give the job's, and whose histogram deltas add up to the final
  histogram bucket by bucket;
- the series is readable while the job runs, and grows;
- a series without runtime_ms, or one larger than max_job_mem_mb, is
  refused at enable naming log_interval_ms; log_hist without a series too.

Kernels: all three.
"""

import errno
import os
import time

import pytest

import ssdload_env as env


def _need_series(job):
    if not os.path.exists(job.path("log_interval_ms")):
        pytest.skip("this ssdload has no log_interval_ms attribute")


@pytest.mark.quick
@pytest.mark.parametrize("rw", ["randread", "randrw"])
def test_intervals_add_up(null_blk, jobs, rw):
    dev = null_blk(irqmode=0)[0]
    j = jobs("ser", filename=dev.path, rw=rw, bs=4096, iodepth=8, numjobs=2,
             runtime_ms=5000, allow_write=1)
    _need_series(j)
    j.set(log_interval_ms=100, log_hist=1)
    s = j.run(60)
    ser = j.series()
    assert ser.hdr["interval_ns"] == 100 * 10**6 and ser.hdr["nr_workers"] == 2
    assert s["series_records"] == len(ser.records)
    dirs = ["read"] + (["write"] if rw == "randrw" else [])
    for w in range(2):
        recs = ser.of_worker(w)
        # on the debug kernel a busy pass may close several intervals as one
        lo = 25 if env.debug_kernel() else 49
        assert lo <= len(recs) <= 51, "worker %d: %d records" % (w, len(recs))
        assert [r["index"] for r in recs] == list(range(len(recs)))
        assert recs[0]["start_ns"] == 0
        for a, b in zip(recs, recs[1:]):
            assert b["start_ns"] == a["end_ns"], (a, b)
        # the boundaries are every 100 ms, each record closes at or just after its own
        # every record but the last closes at or after the first boundary
        # (a multiple of 100 ms from the start) after its own start
        for r in recs[:-1]:
            assert r["end_ns"] >= (r["start_ns"] // 10**8 + 1) * 10**8, r
        assert all(r["flags"] == 0 for r in recs), "a delta was carried"
    for d in dirs:
        recs = ser.records
        assert sum(r[d]["ios"] for r in recs) == s["%s_ios" % d]
        assert sum(r[d]["bytes"] for r in recs) == s["%s_bytes" % d]
        assert sum(r[d]["lat_sum_ns"] for r in recs) == s["%s_lat_sum_ns" % d]
        assert min(r[d]["lat_min_ns"] for r in recs if r[d]["ios"]) == s["%s_lat_min_ns" % d]
        assert max(r[d]["lat_max_ns"] for r in recs) == s["%s_lat_max_ns" % d]
        # histogram deltas, bucket by bucket, equal the final histogram
        h = j.hist(d)
        summed = [0] * len(h.counts)
        for r in recs:
            for b, c in r[d]["hist"].items():
                summed[b] += c
            assert sum(r[d]["hist"].values()) == r[d]["ios"]
        assert summed == h.counts
    assert sum(r["trim"]["ios"] for r in ser.records) == 0


@pytest.mark.quick
def test_series_live(null_blk, jobs):
    """Readable while running: a snapshot of the closed records, growing."""
    dev = null_blk(irqmode=0)[0]
    j = jobs("live", filename=dev.path, rw="randread", bs=4096, iodepth=4,
             numjobs=1, runtime_ms=3000)
    _need_series(j)
    j.set(log_interval_ms=200)
    j.enable()
    time.sleep(1.1)
    a = j.series()
    time.sleep(0.8)
    b = j.series()
    assert j.state == "running"
    assert 3 <= len(a.records) < len(b.records), (len(a.records), len(b.records))
    assert b.records[:len(a.records)] == a.records
    assert j.wait(30) == "done"
    c = j.series()
    assert sum(r["read"]["ios"] for r in c.records) == j.summary()["read_ios"]


@pytest.mark.quick
def test_series_without_hist(null_blk, jobs):
    """log_hist=0: records without deltas, the header says so."""
    dev = null_blk(irqmode=0)[0]
    j = jobs("nohist", filename=dev.path, rw="randread", bs=4096, iodepth=4,
             numjobs=1, runtime_ms=1000)
    _need_series(j)
    j.set(log_interval_ms=100)
    s = j.run(30)
    ser = j.series()
    assert ser.hdr["log_hist"] == 0 and ser.hdr["hist_bytes"] == 0
    assert sum(r["read"]["ios"] for r in ser.records) == s["read_ios"]


@pytest.mark.quick
@pytest.mark.parametrize("attrs,attr,err", [
    ({"log_interval_ms": 100, "number_ios": 1000}, "log_interval_ms", errno.EINVAL),
    ({"log_hist": 1, "runtime_ms": 1000}, "log_hist", errno.EINVAL),
    # ten days at 1 ms with histograms: far beyond max_job_mem_mb
    ({"log_interval_ms": 1, "log_hist": 1, "runtime_ms": 864000000},
     "log_interval_ms", errno.ENOMEM),
], ids=["no-runtime", "hist-without-series", "too-big"])
def test_series_refused(nullb, jobs, kmsg, attrs, attr, err):
    j = jobs("badser", filename=nullb.path, rw="randread", bs=4096)
    _need_series(j)
    j.set(**attrs)
    mark = kmsg.mark()
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == err
    assert any(attr in l for l in kmsg.since(mark) if "ssdload" in l)
    assert not env.ssdload_kthreads()
    assert nullb.exclusive_open_works()
