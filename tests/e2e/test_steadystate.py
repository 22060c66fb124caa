# SPDX-License-Identifier: GPL-2.0
"""cli: fio's steady-state detection (steadystate, ss_dur, ss_ramp).

A null_blk held at a constant rate (--rate_iops=400) is steady by fio's
iops:20% rule as soon as its first window of 3 s is full: the run stops
there, long before its runtime of 60 s, the summary says when, and the
JSON has fio's "steadystate" object over the samples of the kernel's
time series.  A criterion no window can meet (a deviation under 0%)
lets the job run to its runtime, with attained 0.

Kernels: one stock kernel (marked stock): the CLI's sampling of the
series and its stop path, the same code on every kernel.
"""

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
