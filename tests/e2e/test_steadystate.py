# SPDX-License-Identifier: GPL-2.0
"""cli: fio's steady-state detection (steadystate, ss_dur, ss_ramp).

A null_blk held at a constant rate (--rate_iops=400) is steady by fio's
iops:20% rule as soon as its first window of 3 s is full: the run stops
there, long before its runtime of 60 s, the summary says when, and the
JSON has fio's "steadystate" object over the samples of the kernel's
time series.  A criterion no window can meet (a deviation under 0%)
lets the job run to its runtime, with attained 0.  So does the constant
run's own rule on a rate that trends: a null_blk that completes each
request after 100 ms, whose queue the test halves (nr_requests, 128 down
to 4) every 1.5 s while the job runs at iodepth 128 (steps, a rate
schedule of the job, cannot be combined with steadystate; the device's
queue can be changed under a running job, through sysfs).

Kernels: one stock kernel (marked stock): the CLI's sampling of the
series and its stop path, the same code on every kernel.
"""

import threading
import time

import pytest

import ssdload_env as env

pytestmark = pytest.mark.stock

RUNTIME_S = 60
DUR_S = 3


@pytest.mark.quick
def test_a_constant_rate_stops_at_steady_state(ssdload, nullb, cli):  # pylint: disable=unused-argument
    if "log_interval_ms" not in env.features() or "rate_iops" not in env.features():
        pytest.skip("this ssdload has no log_interval_ms/rate_iops attribute")
    out = env.cli_json("run", "--name=e2e-ss", "--filename=" + nullb.path,
                       "--rw=randread", "--bs=4k", "--iodepth=4", "--rate_iops=400",
                       "--runtime=%d" % RUNTIME_S, "--time_based", "--ss=iops:20%",
                       "--ss_dur=%ds" % DUR_S, "--ss_ramp=1", timeout=RUNTIME_S + 60)
    job = out["jobs"][0]
    ss = job["steadystate"]
    assert ss["ss"] == "iops:20.000000%" and ss["duration"] == DUR_S, ss
    assert ss["attained"] == 1, ss
    assert ss["slope"] == 0.0 and ss["criterion"].endswith("%"), ss
    assert float(ss["criterion"][:-1]) < 20.0, ss
    iops, bw = ss["data"]["iops"], ss["data"]["bw"]
    assert len(iops) == DUR_S and len(bw) == DUR_S, ss
    assert all(b == 4096 * i for i, b in zip(iops, bw)), ss
    mean = sum(iops) / DUR_S
    assert ss["max_deviation"] == pytest.approx(max(abs(i - mean) for i in iops)), ss
    assert ss["data"]["iops_mean"] == sum(iops) // DUR_S > 0, ss
    # it stopped at steady state, not at the runtime
    at = job["ssdload"]["steadystate_attained_s"]
    assert DUR_S + 1 <= at < RUNTIME_S, at
    assert job["job_runtime"] < (RUNTIME_S - 10) * 1000, job["job_runtime"]
    # the samples are the time series' seconds [at - dur, at), each the
    # intervals that start in it
    per_s = {}
    for iv in job["time_series"]["intervals"]:
        sec = int(iv["t_start_ms"] // 1000)
        per_s[sec] = per_s.get(sec, 0) + iv["read"]["ios"]
    assert [per_s.get(s, 0) for s in range(at - DUR_S, at)] == iops, (per_s, iops)


@pytest.mark.quick
def test_not_steady_runs_to_its_runtime(ssdload, nullb, cli):  # pylint: disable=unused-argument
    if "log_interval_ms" not in env.features():
        pytest.skip("this ssdload has no log_interval_ms attribute")
    out = env.cli_json("run", "--name=e2e-ss-no", "--filename=" + nullb.path,
                       "--rw=randread", "--bs=4k", "--iodepth=1", "--runtime=3",
                       "--time_based", "--steadystate=iops:0%",
                       "--steadystate_duration=2", timeout=90)
    job = out["jobs"][0]
    ss = job["steadystate"]
    assert ss["attained"] == 0 and ss["duration"] == 2, ss
    assert "steadystate_attained_s" not in job["ssdload"], job["ssdload"]
    assert job["job_runtime"] >= 3000, job["job_runtime"]
    assert len(ss["data"]["iops"]) == 2 and all(i > 0 for i in ss["data"]["iops"]), ss


TREND_S = 8
TREND_DUR_S = 3
TREND_STEP_S = 1.5
TREND_DEPTHS = (128, 64, 32, 16, 8, 4)	# 4: the block layer's least
TREND_COMPLETION_NS = 100 * 10**6	# well above an I/O's cost in a busy TCG guest


def test_a_trending_rate_runs_to_its_limit(ssdload, nullb_cfg, cli):  # pylint: disable=unused-argument
    """The constant run's rule (iops:20%, here over 3 s) on a rate that
    halves every 1.5 s: each request completes after 100 ms, and the queue
    lets 128, 64, 32 ... of them in flight (nr_requests, written while the
    job runs: 1280, 640, 320 ... IOPS), so every window of 3 s spans a
    halving and no window's samples lie within 20% of their mean.  The
    run lasts its runtime, attained 0, and its time series shows the
    trend."""
    if "log_interval_ms" not in env.features():
        pytest.skip("this ssdload has no log_interval_ms attribute")
    dev = nullb_cfg("sstrend", irqmode=2, completion_nsec=TREND_COMPLETION_NS,
                    hw_queue_depth=TREND_DEPTHS[0])
    nr = dev.sys + "/queue/nr_requests"
    if env.read_attr(nr) != str(TREND_DEPTHS[0]):
        pytest.skip("null_blk hw_queue_depth=%d gives nr_requests=%s"
                    % (TREND_DEPTHS[0], env.read_attr(nr)))
    stop, depths = threading.Event(), []

    def schedule():
        t0 = time.monotonic()
        level = 0
        while not stop.wait(0.1):
            k = min(int((time.monotonic() - t0) / TREND_STEP_S), len(TREND_DEPTHS) - 1)
            if k != level:
                level = k
                env.write_attr(nr, TREND_DEPTHS[k])
                depths.append((round(time.monotonic() - t0, 1), TREND_DEPTHS[k]))
    t = threading.Thread(target=schedule, daemon=True)
    t.start()
    try:
        out = env.cli_json("run", "--name=e2e-ss-trend", "--filename=" + dev.path,
                           "--rw=randread", "--bs=4k", "--iodepth=%d" % TREND_DEPTHS[0],
                           "--runtime=%d" % TREND_S, "--time_based", "--ss=iops:20%",
                           "--ss_dur=%d" % TREND_DUR_S, "--ss_ramp=1",
                           timeout=TREND_S + 90)
    finally:
        stop.set()
        t.join(30)
    job = out["jobs"][0]
    ss = job["steadystate"]
    per_s = {}
    for iv in job["time_series"]["intervals"]:
        sec = int(iv["t_start_ms"] // 1000)
        per_s[sec] = per_s.get(sec, 0) + iv["read"]["ios"]
    why = (ss, per_s, depths, job["job_runtime"], job["ssdload"].get("steadystate_attained_s"))
    assert ss["ss"] == "iops:20.000000%" and ss["duration"] == TREND_DUR_S, why
    assert ss["attained"] == 0, why
    assert "steadystate_attained_s" not in job["ssdload"], job["ssdload"]
    assert job["job_runtime"] >= TREND_S * 1000 - 100, why	# to its limit
    assert len(depths) >= 4, why	# the queue kept shrinking through the run
    iops = ss["data"]["iops"]
    # the last window spans a halving or more (its samples in fio's ring order)
    assert len(iops) == TREND_DUR_S and 2 * min(iops) <= max(iops) > 0, why
    # the trend, in the kernel's series: the last whole second a fraction
    # of the busiest
    secs = sorted(per_s)
    assert len(secs) >= TREND_S - 1, why
    assert per_s[secs[-2]] * 4 < max(per_s.values()), why
