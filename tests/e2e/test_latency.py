# SPDX-License-Identifier: GPL-2.0
"""latency: ssdload's latencies match a device whose latency we set.

A configfs null_blk with irqmode=2 (hrtimer) completes every request
completion_nsec after it was queued, so no I/O can be faster than that; TCG
timers are coarse (fio sees p50 ~1.25-1.35 ms on a 1 ms device), hence the
[c, 1.5c] window for p50 (2c on the debug kernel, see env.p50_slop()).  The
block layer's own accounting (read_ticks in /sys/block/X/stat, summed in ns)
is an independent clock on the same I/Os: ssdload's mean must agree with it.
Percentiles, mean and stddev are recomputed here from the raw histogram with
the bucket maths of uapi/ssdload.h.
"""

import math
import os

import pytest

import hostload
import ssdload_env as env

MS = 10**6


def _latency_job(nullb_cfg, jobs, c, iodepth, runtime_ms=2000, interval_ms=0):
    dev = nullb_cfg("lat%d" % (c // MS), irqmode=2, completion_nsec=c,
                    hw_queue_depth=max(64, iodepth))
    j = jobs("lat", filename=dev.path, rw="randread", bs=4096, iodepth=iodepth,
             runtime_ms=runtime_ms)
    if interval_ms and os.path.exists(j.path("log_interval_ms")):
        j.set(log_interval_ms=interval_ms)
    before = dev.stat()
    s = j.run(timeout=60)
    d = env.stat_delta(before, dev.stat())
    return dev, j, s, d


@pytest.mark.parametrize("iodepth", [4, 16])
@pytest.mark.parametrize("c", [1 * MS, 5 * MS], ids=["1ms", "5ms"])
@pytest.mark.timing
def test_latency_truth(nullb_cfg, jobs, c, iodepth):
    """min >= completion_nsec, p50 in [c, 1.5c], mean agrees with the block
    layer's, IOPS = iodepth / mean (Little)."""
    _, j, s, d = _latency_job(nullb_cfg, jobs, c, iodepth, interval_ms=250)
    h = j.hist("read")
    n = s["read_ios"]
    assert n > 0 and s["write_ios"] == 0
    assert n == d["read_ios"], "read_ios %d, block layer %d" % (n, d["read_ios"])

    # nothing completes before the timer fires
    assert s["read_lat_min_ns"] >= c, "min %d ns < completion_nsec %d" % (
        s["read_lat_min_ns"], c)
    assert h.min_ns >= c

    p50 = h.percentile(50)
    hi = env.p50_slop() * c
    blk_mean = d["read_ticks"] * 1e6 / d["read_ios"]

    def late_timer():
        # The block layer times each request from allocation to completion,
        # without ssdload's submit and reap: when its own mean is past the
        # bound too, the device's hrtimer fired late (a guest whose vCPU
        # the host did not run), not ssdload's clock.
        if blk_mean > hi:
            return ("the block layer's own mean is %d ns, past %d ns: the timer "
                    "device completed late" % (blk_mean, hi))
        return None
    with hostload.guard(late_timer):
        assert p50 <= hi, "p50 %d ns outside [%d, %d]" % (p50, c, hi)
    assert c <= p50, "p50 %d ns outside [%d, %d]" % (p50, c, hi)

    # The block layer times each request from allocation to completion, inside
    # ssdload's submit_bio .. bi_end_io window: ssdload's mean may exceed it by
    # the submit and completion path only (a few us; the plug-cached clock of
    # 6.8+ can put the block layer's start slightly earlier, hence 2%).
    # On the debug kernel KASAN + lockdep lengthen that path: one CI run
    # measured 107 us over the block layer's mean at QD 16 on a 1 ms device.
    mean = s["read_lat_mean_ns"]
    slack = (0.2 if env.debug_kernel() else 0.1) * c
    assert 0.98 * blk_mean <= mean <= blk_mean + slack, \
        "mean %d ns, block layer's mean %d ns (read_ticks %d ms / %d)" % (
            mean, blk_mean, d["read_ticks"], d["read_ios"])

    # Little's law: in-flight = throughput * latency.  A worker whose vCPU
    # the host does not run reaps and resubmits late: the time series shows
    # the depth kept in some intervals and not in others (a skip, with them)
    iops = n / (s["runtime_ns"] / 1e9)
    little = iodepth / (s["read_lat_mean_ns"] / 1e9)
    tol = env.little_tolerance()
    evidence = lambda: s["series_records"] and hostload.depth_evidence(
        hostload.series_intervals(j.series()), iodepth, tol)
    with hostload.guard(evidence):
        assert abs(iops - little) <= tol * little, \
            "IOPS %.0f but iodepth/mean latency = %.0f (mean %d ns): on average %.2f " \
            "of %d I/Os in flight" % (iops, little, s["read_lat_mean_ns"],
                                      iops * s["read_lat_mean_ns"] / 1e9, iodepth)


@pytest.mark.parametrize("c", [1 * MS], ids=["1ms"])
def test_histogram_matches_summary(nullb_cfg, jobs, c):
    """The histogram and the summary describe the same samples."""
    _, j, s, _ = _latency_job(nullb_cfg, jobs, c, iodepth=8, runtime_ms=1500)
    h = j.hist("read")
    n = s["read_ios"]
    assert h.dir == 0
    assert h.samples == n == h.total(), (h.samples, n, h.total())
    assert h.overflow == 0
    # exact moments agree
    assert h.min_ns == s["read_lat_min_ns"]
    assert h.max_ns == s["read_lat_max_ns"]
    assert h.sum_ns == s["read_lat_sum_ns"]
    assert h.sumsq == s["read_lat_sumsq_ns2"]
    # mean/stddev in the summary are the rounded exact values
    mean = h.sum_ns / n
    var = h.sumsq / n - mean * mean
    assert abs(s["read_lat_mean_ns"] - mean) <= 1, (s["read_lat_mean_ns"], mean)
    assert abs(s["read_lat_stddev_ns"] - math.sqrt(max(var, 0))) <= 1.5, \
        (s["read_lat_stddev_ns"], math.sqrt(max(var, 0)))
    # min and max sit in the first and last non-empty buckets
    nz = h.nonzero()
    assert h.bucket_of(h.min_ns) == nz[0]
    assert h.bucket_of(h.max_ns) == nz[-1]
    # bucket midpoints are within width/2 <= value/256 of each sample
    hmean, hsd = h.mean_stddev()
    assert abs(hmean - mean) <= mean / 256 + 1, (hmean, mean)
    rms = math.sqrt(h.sumsq / n)
    assert abs(hsd - math.sqrt(max(var, 0))) <= rms / 256 + 1, (hsd, math.sqrt(var))
    # no I/O in the other direction
    w = j.hist("write")
    assert w.samples == 0 and w.total() == 0 and w.dir == 1


@pytest.mark.parametrize("c", [1 * MS, 5 * MS], ids=["1ms", "5ms"])
@pytest.mark.timing
def test_cli_percentiles(nullb_cfg, cli, c):
    """The CLI's clat_ns percentiles agree with the device and its own histogram."""
    dev = nullb_cfg("clat%d" % (c // MS), irqmode=2, completion_nsec=c)
    before = dev.stat()
    out = env.cli_json("run", "--name=e2e-lat", "--filename=" + dev.path,
                       "--rw=randread", "--bs=4k", "--iodepth=4", "--runtime=2s", "--time_based",
                       "--log_interval_ms=250")
    d = env.stat_delta(before, dev.stat())
    r = out["jobs"][0]["read"]
    assert r["total_ios"] == d["read_ios"]
    cl = r["clat_ns"]
    assert cl["min"] >= c, cl["min"]
    assert cl["N"] == r["total_ios"]
    p50 = cl["percentile"]["50.000000"]
    hi = env.p50_slop() * c
    assert c <= p50 <= hi, "CLI p50 %d outside [%d, %d]" % (p50, c, hi)
    assert cl["min"] <= cl["mean"] <= cl["max"]
    iops = r["total_ios"] / (r["runtime"] / 1000.0)
    tol = env.little_tolerance()
    job = out["jobs"][0]
    with hostload.guard(lambda: hostload.depth_evidence(hostload.cli_intervals(job), 4, tol)):
        assert abs(iops - 4 / (cl["mean"] / 1e9)) <= tol * iops, \
            "IOPS %.0f, mean %d ns: %.2f of 4 I/Os in flight" % (
                iops, cl["mean"], iops * cl["mean"] / 1e9)


def test_cli_show_p50_equals_histogram(nullb_cfg, jobs, cli):
    """`ssdload show` of a hand-made job reports the p50 of the raw histogram."""
    c = 1 * MS
    _, j, s, _ = _latency_job(nullb_cfg, jobs, c, iodepth=4, runtime_ms=1000)
    h = j.hist("read")
    p = env.cli("show", j.name, "--output-format=json")
    if p.returncode != 0:
        # show's options are not in the contract; the normal output must still work
        p = env.cli("show", j.name, check=True)
        assert "IOPS=" in p.stdout and "50.00th=[" in p.stdout, p.stdout
        pytest.skip("ssdload show has no --output-format=json: %s" % p.stderr.strip())
    import json
    r = json.loads(p.stdout)["jobs"][0]["read"]
    assert r["total_ios"] == s["read_ios"]
    p50 = r["clat_ns"]["percentile"]["50.000000"]
    mine = h.percentile(50)
    # the same bucket, allowing for a representative other than the midpoint
    assert h.bucket_of(p50) == h.bucket_of(mine) or \
        abs(h.bucket_of(p50) - h.bucket_of(mine)) <= 1, (p50, mine)
