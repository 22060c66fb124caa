# SPDX-License-Identifier: GPL-2.0
"""Open-loop rate control: rate_iops/rate/rate_process, latency from the
intended send time, and how far behind a job fell.

- accuracy: on an irqmode=0 null_blk (which keeps up with any rate here),
  1k, 10k and 50k IOPS land within 1% of the target, linear and poisson;
  a bandwidth cap (rate) likewise;
- arrivals: poisson inter-arrival times read from block_rq_issue have a
  coefficient of variation within 10% of 1, linear ones far below;
- coordinated omission: a 1 ms timer null_blk at QD 1 asked for twice what
  it can do keeps its ~1 ms submit-to-completion latency, while the latency
  from the intended time grows through the run and the job reports how far
  behind it fell; at half of what it can do both latencies agree;
- bad values are refused at the store or at enable, naming the attribute.

Kernels: all three.  The rates are far below what ssdload reaches on
null_blk under TCG (hundreds of thousands of IOPS), so the device keeps up
and the only error left is the schedule's.
"""

import errno
import os
import statistics
import time

import pytest

import blktrace
import hostload
import ssdload_env as env

REFUSED = (errno.EINVAL, errno.ERANGE)


def _need_rate(job):
    if not os.path.exists(job.path("rate_iops")):
        pytest.skip("this ssdload has no rate_iops attribute")


def _iops(s, d="read"):
    return s["%s_ios" % d] * 1e9 / s["runtime_ns"]


def _brief(s, d="read"):
    """The figures of a rate run, for assertion messages."""
    keys = ("ios", "rate_iops", "rate_bps", "intended_ios", "lat_mean_ns",
            "intended_lat_mean_ns", "intended_lat_max_ns", "late_ios", "behind_ns",
            "behind_ios", "behind_bytes")
    out = {k: s.get("%s_%s" % (d, k)) for k in keys}
    out.update(runtime_ns=s["runtime_ns"], cpu_ns=s["cpu_ns"])
    return out


@pytest.mark.quick
@pytest.mark.parametrize("process", ["linear", "poisson"])
@pytest.mark.parametrize("rate", [1000, 10000, 50000])
@pytest.mark.timing
def test_rate_iops_within_1pct(null_blk, jobs, rate, process):
    """rate_iops=R: achieved IOPS within 1% of R, no lag at the end, every
    measured I/O has a latency from its intended time."""
    env.need_timing_kernel()
    dev = null_blk(irqmode=0, submit_queues=2)[0]
    ms = 3000 if rate == 1000 else 2000
    j = jobs("rate", filename=dev.path, rw="randread", bs=4096, iodepth=32,
             numjobs=2, runtime_ms=ms)
    _need_rate(j)
    j.set(rate_iops=rate, rate_process=process)
    s = j.run(60)
    got = _iops(s)
    assert s["read_intended_ios"] == s["read_ios"]
    assert s["read_rate_iops"] == rate and s["rate_process"] == process
    # a guest whose vCPU the host keeps from running cannot send on time:
    # the engine's late count and lag say so, and the test is skipped with
    # them; a guest that kept up must be on the rate
    with hostload.guard(lambda: hostload.rate_evidence(s, runtime_ms=ms)):
        assert abs(got - rate) <= 0.01 * rate, \
            "rate_iops=%d %s: %.1f IOPS: %s" % (rate, process, got, _brief(s))
        # the device kept up: the end of the run is on schedule, to within
        # the worker's wake-up latency before the deadline (under TCG: ms)
        assert s["read_behind_ios"] <= 0.002 * s["read_ios"] + 2, _brief(s)
    assert s["read_intended_lat_mean_ns"] >= s["read_lat_mean_ns"]
    h = j.hist("intended_read")
    assert h.samples == s["read_ios"]


@pytest.mark.quick
@pytest.mark.parametrize("process", ["linear", "poisson"])
@pytest.mark.timing
def test_rate_bandwidth_within_1pct(null_blk, jobs, process):
    """rate=BW (bytes/s) with a block-size mix: bytes per second within 1%."""
    env.need_timing_kernel()
    dev = null_blk(irqmode=0)[0]
    bw = 40 * 1024 * 1024
    j = jobs("ratebw", filename=dev.path, rw="randread", bssplit="4k/50:16k/50",
             iodepth=16, numjobs=2, runtime_ms=2000)
    _need_rate(j)
    j.set(rate=bw, rate_process=process)
    s = j.run(60)
    got = s["read_bytes"] * 1e9 / s["runtime_ns"]
    # poisson weighs each gap by its own I/O's length: the mix adds a little
    tol = 0.01 if process == "linear" else 0.02
    with hostload.guard(lambda: hostload.rate_evidence(s, runtime_ms=2000)):
        assert abs(got - bw) <= tol * bw, "rate=%d %s: %.0f B/s: %s" % (bw, process, got,
                                                                       _brief(s))
    assert s["read_rate_bps"] == bw


def _gaps(events):
    ts = sorted(e.ts for e in events)
    return [b - a for a, b in zip(ts, ts[1:])]


@pytest.mark.quick
@pytest.mark.parametrize("process", ["poisson", "linear"])
@pytest.mark.timing
def test_interarrival_cv(null_blk, jobs, process):
    """block_rq_issue times: poisson gaps have an exponential's tail
    (e^-1 of them over the mean, e^-2 over twice it) and a CV near 1,
    linear ones are regular (CV far below)."""
    env.need_timing_kernel()
    dev = null_blk(irqmode=0)[0]
    try:
        t = blktrace.BlockTrace(dev, clock="mono")     # one clock for every CPU
    except blktrace.Unavailable as e:
        pytest.skip(str(e))
    j = jobs("cv", filename=dev.path, rw="randread", bs=4096, iodepth=32,
             numjobs=1, runtime_ms=3000)
    _need_rate(j)
    j.set(rate_iops=1000, rate_process=process)
    with t:
        s = j.run(60)
    gaps = _gaps(t.events)
    assert len(gaps) >= 0.98 * s["read_ios"] - 1
    assert all(e.ts is not None for e in t.events)
    # the schedule's rate: from the first issue to the last
    span = statistics.fmean(gaps)
    # a vCPU that qemu did not run for a while (TCG on a busy host) is no
    # inter-arrival time: for the shape, gaps are clipped at 10 mean gaps,
    # which changes an exponential's CV by under 0.1% (P(X > 10) = 4.5e-5)
    gaps = [min(g, 10e-3) for g in gaps]
    mean = statistics.fmean(gaps)
    cv = statistics.pstdev(gaps) / mean
    # an exponential puts e^-0.75 - e^-1.25 = 19% of its gaps within 25% of
    # the mean; a regular schedule nearly all, less the wake-up jitter
    near = sum(1 for g in gaps if abs(g - mean) <= 0.25 * mean) / len(gaps)
    # sends the engine itself records as late (a vCPU the host did not run)
    # bunch up after the stall: the shape is then the host's (a skip)
    with hostload.guard(lambda: hostload.rate_evidence(s, runtime_ms=3000)):
        _check_shape(process, span, gaps, mean, cv, near)


def _check_shape(process, span, gaps, mean, cv, near):
    assert abs(span - 1e-3) < 0.02e-3, "mean gap %.6f s at 1000 IOPS" % span
    if process == "poisson":
        # The shape of an exponential by its tail: P(X > mean) = e^-1 =
        # 0.368 and P(X > 2 mean) = e^-2 = 0.135 (+-0.05 and +-0.035 are
        # about 6 standard errors at 3000 gaps).  Unlike the CV, these
        # barely move when TCG delays an issue by a fraction of a gap: two
        # clean runs on an idle 2-core host measured CV 1.12 and 1.23, as
        # such jitter adds its variance twice to every gap's; on 6.1 make
        # check measured 1.302, 1.309 and 1.311 (twice in one run, so a
        # bias, not chance).  The CV still has to be an exponential's: a
        # regular schedule's is near 0.1, and sends going out in pairs
        # (half the gaps 0) would give 1.73.
        over1 = sum(1 for g in gaps if g > mean) / len(gaps)
        over2 = sum(1 for g in gaps if g > 2 * mean) / len(gaps)
        assert abs(over1 - 0.368) <= 0.05, "poisson: %.3f of gaps over the mean" % over1
        assert abs(over2 - 0.135) <= 0.035, "poisson: %.3f of gaps over 2x the mean" % over2
        assert 0.9 <= cv <= 1.5, "poisson CV %.3f over %d gaps" % (cv, len(gaps))
        assert near < 0.3, "poisson: %.2f of gaps near the mean" % near
    else:
        assert near > 0.6, "linear: %.2f of gaps near the mean (CV %.3f)" % (near, cv)


def _slow_dev(null_blk):
    """A 1 ms timer null_blk: at QD 1 it completes about 1000 I/Os per second."""
    return null_blk(irqmode=2, completion_nsec=1000000)[0]


@pytest.mark.quick
def test_coordinated_omission_shown(null_blk, jobs):
    """QD 1 at rate_iops=2000 on a ~1000 IOPS device: submit-to-completion
    stays near 1 ms, the latency from the intended time grows through the
    run (max about twice the mean: a linear ramp), and the job reports the
    lag: about half the run, about 2000 I/Os per second of run."""
    dev = _slow_dev(null_blk)
    ms = 3000
    j = jobs("co", filename=dev.path, rw="randread", bs=4096, iodepth=1,
             numjobs=1, runtime_ms=ms)
    _need_rate(j)
    j.set(rate_iops=2000)
    if os.path.exists(j.path("log_interval_ms")):
        j.set(log_interval_ms=250)
    s = j.run(60)
    lat = s["read_lat_mean_ns"]
    ilat = s["read_intended_lat_mean_ns"]
    imax = s["read_intended_lat_max_ns"]
    if os.path.exists(j.path("log_interval_ms")) and not env.debug_kernel():
        # interval by interval: the latency from the intended time grows
        # steadily while the submit-to-completion latency stays flat
        recs = [r["read"] for r in j.series().records if r["read"]["ios"] >= 50]
        assert len(recs) >= 8, len(recs)
        im = [r["intended_lat_sum_ns"] / r["ios"] for r in recs]
        sm = [r["lat_sum_ns"] / r["ios"] for r in recs]
        assert all(b > a for a, b in zip(im, im[1:])), im
        assert im[-1] > 5 * im[0], im
        assert max(sm) < 1.5 * min(sm), sm
    assert 0.9e6 <= lat <= (3e6 if env.debug_kernel() else 1.6e6), _brief(s)
    assert ilat > 100 * lat, (lat, ilat)
    assert 1.6 <= imax / ilat <= 2.4, "intended max %d vs mean %d" % (imax, ilat)
    served = s["read_ios"] * 1e9 / s["runtime_ns"]
    # lag at the end = run * (1 - served / 2000)
    want = ms * 1e6 * (1 - served / 2000)
    assert abs(s["read_behind_ns"] - want) <= 0.1 * want, (s["read_behind_ns"], want)
    assert abs(s["read_behind_ios"] - want * 2000 / 1e9) <= 0.1 * want * 2000 / 1e9
    assert s["read_late_ios"] >= 0.9 * s["read_ios"]


@pytest.mark.quick
@pytest.mark.timing
def test_latencies_agree_below_capacity(null_blk, jobs):
    """QD 1 at rate_iops=500 on the same device: every I/O goes out on time,
    so the two latencies agree within 10% and nothing is behind.

    "On time" is when the worker's hrtimer wakes it: natively a few us
    late, under TCG 0.1-0.3 ms, the same lateness with which null_blk's
    own 1 ms completion timer fires (its overshoot over 1 ms).  That
    platform latency, measured here by the device's overshoot, is allowed
    on top of the 10%.

    The medians are compared, not the means: a CI host that deschedules
    the TCG vCPU for a few ms now and then moves the mean lateness by a
    whole ms (one run: means 1.36 against 2.39 ms, with nothing behind)
    while the median I/O still went out on time.  The means keep their
    order."""
    env.need_timing_kernel()
    dev = _slow_dev(null_blk)
    j = jobs("under", filename=dev.path, rw="randread", bs=4096, iodepth=1,
             numjobs=1, runtime_ms=2000)
    _need_rate(j)
    j.set(rate_iops=500)
    s = j.run(60)
    assert s["read_lat_mean_ns"] <= s["read_intended_lat_mean_ns"], _brief(s)
    lat = j.hist("read").percentile(50)
    ilat = j.hist("intended_read").percentile(50)
    timer = max(0, lat - 1000000)
    with hostload.guard(lambda: hostload.rate_evidence(s, runtime_ms=2000)):
        assert lat <= ilat <= 1.1 * lat + 2 * timer, (lat, ilat, _brief(s))
        # behind: the schedule's lag when the run ends; a vCPU stall of a few
        # ms just before the end leaves a few sends due (3 seen on a loaded CI
        # host), a pacing that under-delivers leaves tens
        assert s["read_behind_ios"] <= 0.01 * s["read_ios"], _brief(s)
        assert abs(_iops(s) - 500) <= 5, _brief(s)


@pytest.mark.quick
@pytest.mark.timing
def test_mixed_rates_per_direction(null_blk, jobs):
    """rate_iops=R,W on randrw: each direction at its own rate (as fio)."""
    env.need_timing_kernel()
    dev = null_blk(irqmode=0)[0]
    j = jobs("mix", filename=dev.path, rw="randrw", rwmixread=70, bs=4096,
             iodepth=16, numjobs=2, runtime_ms=2000, allow_write=1)
    _need_rate(j)
    j.set(rate_iops="3000,1000")
    s = j.run(60)
    with hostload.guard(lambda: hostload.rate_evidence(s, runtime_ms=2000)):
        assert abs(_iops(s, "read") - 3000) <= 30, _brief(s)
        assert abs(_iops(s, "write") - 1000) <= 10, _brief(s, "write")


@pytest.mark.quick
def test_rate_stop_is_prompt(null_blk, jobs):
    """A slow schedule (2 I/Os per second) sleeps on a timer; enable=0 ends
    it at once, and the run is no longer than its deadline."""
    dev = null_blk(irqmode=0)[0]
    j = jobs("slow", filename=dev.path, rw="randread", bs=4096, iodepth=4,
             numjobs=1, runtime_ms=60000)
    _need_rate(j)
    j.set(rate_iops=2)
    j.enable()
    time.sleep(1.2)
    t0 = time.monotonic()
    j.stop(timeout=5)
    assert time.monotonic() - t0 < 2
    s = j.summary()
    assert 2 <= s["read_ios"] <= 4, s["read_ios"]
    # the worker slept: far less CPU than the second it waited
    assert s["cpu_ns"] < 0.2e9, s["cpu_ns"]


BAD_RATE = [
    ("rate_iops", "0"),
    ("rate_iops", "abc"),
    ("rate_iops", "1,2,3,4"),
    ("rate_iops", ","),
    ("rate_iops", "-5"),
    ("rate", "0"),
    ("rate", "1k"),
    ("rate_process", "bursty"),
]


@pytest.mark.quick
@pytest.mark.parametrize("attr,value", BAD_RATE, ids=["%s=%s" % av for av in BAD_RATE])
def test_bad_rate_refused(nullb, jobs, kmsg, attr, value):
    """Refused at the store, with a pr_err naming the attribute; unchanged."""
    j = jobs("badrate", filename=nullb.path, rw="randread", bs=4096, number_ios=8)
    _need_rate(j)
    before = j.get(attr)
    mark = kmsg.mark()
    with pytest.raises(OSError) as ei:
        j.write(attr, value)
    assert ei.value.errno in REFUSED
    assert j.get(attr) == before
    assert any(attr in l for l in kmsg.since(mark) if "ssdload" in l)


@pytest.mark.quick
@pytest.mark.parametrize("attrs,attr", [
    ({"rate_iops": "100", "rate": "1000000"}, "rate_iops"),   # both cap reads
    ({"rate_iops": ",500"}, "rate_iops"),                     # caps writes of a read job
])
def test_rate_conflicts_refused_at_enable(nullb, jobs, kmsg, attrs, attr):
    j = jobs("conf", filename=nullb.path, rw="randread", bs=4096, number_ios=8)
    _need_rate(j)
    j.set(**attrs)
    mark = kmsg.mark()
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EINVAL
    assert attr in j.error or any(attr in l for l in kmsg.since(mark))
    assert not env.ssdload_kthreads()
    assert nullb.exclusive_open_works()


@pytest.mark.quick
def test_rate_show_round_trips(nullb, jobs):
    j = jobs("show", filename=nullb.path)
    _need_rate(j)
    for v, shown in (("1000", "1000,1000,1000"), ("3000,1000", "3000,1000,1000"),
                     (",500", ",500,500"), ("7,,9", "7,,9")):
        j.write("rate_iops", v)
        assert j.get("rate_iops") == shown
        j.write("rate_iops", shown)
        assert j.get("rate_iops") == shown
    j.write("rate_iops", "\n")
    assert j.get("rate_iops") == ""


@pytest.mark.quick
def test_failure_wakes_paced_workers(nullb_cfg, jobs):
    """A failed I/O ends the job at once, even while another worker sleeps
    until a send time far away (rate_iops=1 shared by 2 workers: worker 1's
    first send is 1 s after worker 0's, and then every 2 s)."""
    dev = nullb_cfg("bbrate", size=64)
    try:
        env.write_attr(dev.cfg + "/badblocks", "+0-7")
    except OSError as e:
        pytest.skip("null_blk badblocks not settable on this kernel: %s" % e)
    j = jobs("bbrate", filename=dev.path, rw="read", bs=4096, iodepth=1, numjobs=2,
             runtime_ms=600000)
    _need_rate(j)
    j.set(rate_iops=1)
    t0 = time.monotonic()
    j.enable()
    assert j.wait(30) == "error", j.state
    assert time.monotonic() - t0 < 0.9, "the job waited for a sleeping worker"
    assert j.summary()["read_errors"] == 1


@pytest.mark.quick
@pytest.mark.timing
def test_disable_lat_paced_does_not_spin(null_blk, jobs):
    """disable_lat reads a coarse clock; paced sends still sleep on the
    precise one: the rate holds and the worker is mostly idle."""
    env.need_timing_kernel()
    dev = null_blk(irqmode=0)[0]
    j = jobs("nolat", filename=dev.path, rw="randread", bs=4096, iodepth=4, numjobs=1,
             runtime_ms=2000, disable_lat=1)
    _need_rate(j)
    j.set(rate_iops=1000, log_interval_ms=100)
    s = j.run(60)
    with hostload.guard(lambda: hostload.rate_evidence(s, runtime_ms=2000)):
        assert abs(s["read_ios"] - 2000) <= 20, _brief(s)
    # under TCG a vCPU the host does not run charges that time to the task
    # it stopped: the worker's CPU time then grows though it slept between
    # its sends (one context switch or more per send; a spinning worker
    # has few) and the engine recorded sends late
    slept = s["ctx"] >= 0.5 * s["read_ios"]
    with hostload.guard(lambda: slept and hostload.rate_evidence(s, runtime_ms=2000) and
                        "%s; %d context switches for %d sends" % (
                            hostload.rate_evidence(s, runtime_ms=2000), s["ctx"],
                            s["read_ios"])):
        assert s["cpu_ns"] < 0.5e9, "paced worker used %d ns of CPU in 2 s" % s["cpu_ns"]
