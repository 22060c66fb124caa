# SPDX-License-Identifier: GPL-2.0
"""cli: rate control and time series through `ssdload run` (issue 8).

- over capacity: a 1 ms timer null_blk at QD 1 (about 1000 IOPS) asked for
  --rate_iops=2000: the JSON's lat_from_intended_ns is far above clat_ns,
  rate.fell_behind is true, and time_series.intervals (--log_interval_ms)
  add up to total_ios, worker by worker too; the text report says how far
  behind the job fell;
- under capacity (--rate_iops=500 at QD 4): fell_behind is false, the job runs
  at the rate, and intervals where the I/Os left on time show the two
  latencies close.

Kernels: one stock kernel (marked stock, conftest.py): the CLI's view of
results whose module paths test_steps.py, test_rate.py and test_latency.py
run on every kernel.  The device is the one of test_rate.py's coordinated
omission tests.
"""

import re

import pytest

import hostload
import ssdload_env as env

pytestmark = pytest.mark.stock


def _need_rate():
    if "rate_iops" not in env.features() or "log_interval_ms" not in env.features():
        pytest.skip("this ssdload has no rate_iops/log_interval_ms attribute")


def _slow_dev(null_blk):
    """A 1 ms timer null_blk: at QD 1 it completes about 1000 I/Os per second."""
    return null_blk(irqmode=2, completion_nsec=1000000)[0]


def _args(dev, name, iops, runtime, iodepth=1):
    return ["run", "--name=" + name, "--filename=" + dev.path, "--rw=randread", "--bs=4k",
            "--rate_iops=%d" % iops, "--iodepth=%d" % iodepth, "--numjobs=1",
            "--runtime=%s" % runtime, "--time_based", "--log_interval_ms=250"]


@pytest.mark.quick
@pytest.mark.timing
def test_rate_over_capacity_json(ssdload, null_blk, cli):  # pylint: disable=unused-argument
    _need_rate()
    dev = _slow_dev(null_blk)
    out = env.cli_json(*_args(dev, "e2e-rate-over", 2000, 3))
    assert len(out["jobs"]) == 1
    job = out["jobs"][0]
    rd = job["read"]
    n = rd["total_ios"]
    assert 1500 <= n <= 3300, n          # about what the device can do
    cl, il = rd["clat_ns"], rd["lat_from_intended_ns"]
    assert il["N"] == n and set(il["percentile"]) == set(cl["percentile"])
    # submit-to-completion stays near 1 ms; from the intended time it ramps
    # up through the run (a mean of about a quarter of the run)
    assert 0.9e6 <= cl["mean"] <= 2e6, cl["mean"]
    assert il["mean"] > 100 * cl["mean"], (il["mean"], cl["mean"])
    assert il["max"] > il["mean"] and il["min"] <= il["max"]
    rate = rd["rate"]
    assert rate["iops_target"] == 2000 and rate["bps_target"] == 0
    assert rate["process"] == "linear"
    assert rate["fell_behind"] is True and rate["behind_ios"] > 500, rate
    assert rate["behind_ns"] > 0.5e9 and rate["late_ios"] >= 0.9 * n, rate
    assert job["job options"]["rate_iops"] == "2000"
    # the time series adds up to the totals, merged and per worker
    ts = job["time_series"]
    assert ts["interval_ms"] == 250 and ts["workers"] == 1
    iv = ts["intervals"]
    assert 11 <= len(iv) <= 14, len(iv)
    assert sum(x["read"]["ios"] for x in iv) == n
    assert sum(x["read"]["bytes"] for x in iv) == rd["io_bytes"]
    assert sum(x["read"]["late_ios"] for x in iv) == rate["late_ios"]
    assert sum(x["read"]["ios"] for x in ts["per_worker"][0]["intervals"]) == n
    assert all(b["t_start_ms"] == pytest.approx(a["t_end_ms"]) for a, b in zip(iv, iv[1:]))
    # interval by interval: the latency from the intended time grows
    im = [x["read"]["lat_from_intended_mean_ns"] for x in iv if x["read"]["ios"] >= 50]
    assert len(im) >= 8 and im[-1] > 5 * im[0], im


@pytest.mark.quick
def test_rate_over_capacity_text(ssdload, null_blk, cli):  # pylint: disable=unused-argument
    _need_rate()
    dev = _slow_dev(null_blk)
    p = env.cli(*(_args(dev, "e2e-rate-text", 2000, 2) + ["--eta=never"]), check=True)
    m = re.search(r"^    rate: target 2000 IOPS \(linear\), fell behind by (\d+) I/Os "
                  r"\(([\d.]+)(s|ms)\); (\d+) I/Os sent over 1\.00ms late$", p.stdout, re.M)
    assert m, p.stdout
    assert int(m.group(1)) > 300
    assert re.search(r"^    lat from intended send \((usec|msec)\): min=", p.stdout, re.M)
    assert "    lat from intended send percentiles (" in p.stdout
    assert re.search(r"^  time series  : \d+ intervals of 250ms, 1 worker, ", p.stdout, re.M)
    assert env.list_jobs() == []


@pytest.mark.quick
@pytest.mark.timing
def test_rate_under_capacity_json(ssdload, null_blk, cli):  # pylint: disable=unused-argument
    _need_rate()
    dev = _slow_dev(null_blk)
    # QD 4: room to catch up after a stall of the guest (the debug kernel
    # under TCG turns a QD 1 I/O around in about 2 ms)
    job = env.cli_json(*_args(dev, "e2e-rate-under", 500, 2, iodepth=4))["jobs"][0]
    rd = job["read"]
    rate = rd["rate"]
    evidence = lambda: hostload.rate_evidence(hostload.cli_rate_summary(job), ("read",),
                                              runtime_ms=2000)
    with hostload.guard(evidence):
        if env.kernel_label() == "debug" and rate["fell_behind"]:
            # the module measures the lag up to when the worker saw the end
            # of the run: on the debug kernel under TCG its timer may wake it
            # a few ms late, a gap or two
            assert rate["behind_ns"] < 20e6 and rate["behind_ios"] <= 4, rate
        else:
            assert rate["fell_behind"] is False and rate["behind_ios"] == 0, rate
        assert abs(rd["iops"] - 500) <= 10, (rd["iops"], rate)
    cl, il = rd["clat_ns"]["mean"], rd["lat_from_intended_ns"]["mean"]
    assert il >= cl, (cl, il)
    # the I/Os go out on time, the two latencies apart by the wake-up of
    # the worker's timer; a stall of the guest (the debug kernel under TCG)
    # may put the job behind for a while, which it makes up at the
    # device's 1000 IOPS: some intervals agree, and none falls behind for good
    iv = [x["read"] for x in job["time_series"]["intervals"] if x["read"]["ios"] >= 50]
    ratio = [x["lat_from_intended_mean_ns"] / x["lat_mean_ns"] for x in iv]
    with hostload.guard(evidence):
        assert min(ratio) <= 2, ratio
    assert sum(x["read"]["ios"] for x in job["time_series"]["intervals"]) == rd["total_ios"]
