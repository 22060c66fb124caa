# SPDX-License-Identifier: GPL-2.0
"""hipri (polled completions) and disable_lat (no latency recording).

hipri=1 submits with REQ_POLLED and reaps with bio_poll() from the worker;
on a device without poll queues it falls back to interrupt completions and
says so (summary polled=0, a pr_info).  disable_lat=1 takes no timestamps and
records no histogram, but the counts stay exact.
"""


import pytest

import ssdload_env as env

LAT_KEYS = ("lat_min_ns", "lat_mean_ns", "lat_max_ns", "lat_stddev_ns", "lat_sum_ns",
            "lat_sumsq_ns2")


@pytest.mark.quick
@pytest.mark.parametrize("rw,cpus,qd", [("randread", "0", 1), ("randread", "0", 32),
                                        ("randrw", "0-1", 8)])
def test_hipri_polled_counts_exact(poll_null_blk, jobs, rw, cpus, qd):
    """On a null_blk with a poll queue: polled=1, counts exact vs /sys/block stat."""
    dev = poll_null_blk()
    if cpus == "0-1" and len(env.online_cpus()) < 2:
        cpus = "0"
    j = jobs("hipri", filename=dev.path, rw=rw, allow_write=1, bs=4096, iodepth=qd,
             number_ios=20000, cpus_allowed=cpus, hipri=1)
    before = dev.stat()
    s = j.run(120)
    d = env.stat_delta(before, dev.stat())
    assert s["hipri"] == 1 and s["polled"] == 1, s
    assert s["read_ios"] + s["write_ios"] == 20000
    assert s["read_ios"] == d["read_ios"] and s["write_ios"] == d["write_ios"], (s, d)
    assert s["read_bytes"] == d["read_bytes"] and s["write_bytes"] == d["write_bytes"]
    assert s["read_errors"] == 0 and s["write_errors"] == 0
    # latency is still recorded
    assert 0 < s["read_lat_min_ns"] <= s["read_lat_mean_ns"] <= s["read_lat_max_ns"]
    assert j.hist("read").samples == s["read_ios"]


@pytest.mark.quick
def test_hipri_time_based_and_stop(poll_null_blk, jobs):
    """A polled job ends by runtime, and by enable=0 mid-run, with nothing left in flight."""
    dev = poll_null_blk()
    j = jobs("hipri-t", filename=dev.path, rw="randread", bs=4096, iodepth=16,
             runtime_ms=800, hipri=1)
    before = dev.stat()
    s = j.run(60)
    d = env.stat_delta(before, dev.stat())
    assert s["polled"] == 1 and s["read_ios"] > 0 and s["read_ios"] == d["read_ios"]
    j.set(runtime_ms=0, number_ios=0, size=0)
    j.enable()
    j.stop()
    assert j.state == "stopped"
    assert dev.stat()["in_flight"] == 0


@pytest.mark.quick
def test_hipri_fallback_without_poll_queues(null_blk, jobs, kmsg):
    """No poll queues: the job runs on interrupts, summary polled=0, dmesg says so."""
    nullb = null_blk(poll_queues=0)[0]
    if env.read_attr(nullb.sys + "/queue/io_poll") == "1":
        pytest.skip("null_blk poll_queues=0 still polls")
    j = jobs("hipri-fb", filename=nullb.path, rw="randread", bs=4096, iodepth=8,
             number_ios=5000, hipri=1)
    mark = kmsg.mark()
    before = nullb.stat()
    s = j.run(60)
    d = env.stat_delta(before, nullb.stat())
    assert s["hipri"] == 1 and s["polled"] == 0, s
    assert s["poll_fallback"] == "no_poll_queues", s
    assert j.error == "0"
    assert s["read_ios"] == 5000 == d["read_ios"]
    lines = [l for l in kmsg.since(mark) if "ssdload" in l]
    assert any("hipri=1" in l and "poll_fallback=no_poll_queues" in l and "hipri-fb" in l
               for l in lines), lines


@pytest.mark.quick
@pytest.mark.parametrize("rw,ramp", [("randread", 0), ("randrw", 200), ("read", 0)])
def test_disable_lat_counts_exact_no_latency(nullb, jobs, rw, ramp):
    """disable_lat=1: exact counts, every latency key 0, histograms empty."""
    cpus = "0-1" if len(env.online_cpus()) >= 2 else "0"
    j = jobs("nolat", filename=nullb.path, rw=rw, allow_write=1, bs=4096, iodepth=16,
             number_ios=30000, ramp_ms=ramp, cpus_allowed=cpus, disable_lat=1)
    before = nullb.stat()
    s = j.run(120)
    d = env.stat_delta(before, nullb.stat())
    assert s["disable_lat"] == 1
    assert s["read_ios"] + s["write_ios"] == 30000
    if not ramp:
        assert s["read_ios"] == d["read_ios"] and s["write_ios"] == d["write_ios"], (s, d)
    else:
        assert s["read_ios"] <= d["read_ios"] and s["write_ios"] <= d["write_ios"]
    assert s["runtime_ns"] > 0
    for direction in ("read", "write"):
        for k in LAT_KEYS:
            assert s["%s_%s" % (direction, k)] == 0, (direction, k, s)
        h = j.hist(direction)
        assert h.samples == 0 and h.total() == 0 and h.min_ns == 0 and h.max_ns == 0


@pytest.mark.quick
def test_disable_lat_time_based(nullb, jobs):
    """disable_lat with a runtime: the job still ends on time and reports its runtime."""
    j = jobs("nolat-t", filename=nullb.path, rw="randread", bs=4096, iodepth=4,
             runtime_ms=700, disable_lat=1)
    before = nullb.stat()
    s = j.run(60)
    d = env.stat_delta(before, nullb.stat())
    assert s["read_ios"] == d["read_ios"] > 0
    assert 0.6e9 < s["runtime_ns"] < 1.5e9, s["runtime_ns"]
    assert s["read_lat_mean_ns"] == 0
