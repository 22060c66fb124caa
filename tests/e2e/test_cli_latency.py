# SPDX-License-Identifier: GPL-2.0
"""cli latency studies on a device of known latency: a 1 ms timer null_blk.

No I/O of an hrtimer device completes before its completion_nsec, so a
bound just below 1 ms fails every percentile for certain (the exact
minimum clips the bucket), while p50 passes a bound just above the
device's latency (TCG's timer slop: env.p50_slop()).  The share below
999 us is 0 for certain, below a minute all of it; the table's rows are
backed exactly when the run has 100 / (100 - N) I/Os.

Kernels: one stock kernel (marked stock, conftest.py): the CLI's view of
results whose module paths test_steps.py, test_rate.py and test_latency.py
run on every kernel.
"""

import json

import pytest

import ssdload_env as env

pytestmark = pytest.mark.stock

MS = 10**6


@pytest.fixture
def ms_dev(ssdload, null_blk):
    return null_blk(irqmode=2, completion_nsec=MS, hw_queue_depth=64)[0]


def _run(dev, *extra):
    return env.cli("run", "--name=e2e-lat", "--filename=" + dev.path, "--rw=randread",
                   "--bs=4k", "--iodepth=4", "--runtime=2s", "--time_based", *extra)


@pytest.mark.quick
@pytest.mark.timing
def test_latency_check_passes_above_the_device_latency(ms_dev, cli):
    above = int(env.p50_slop() * 1000)
    p = _run(ms_dev, "--output-format=json", "--latency-table",
             "--latency-below=999us,60s",
             "--latency-check=read:p50<%dus,read:max<10s,mean<=%dus" % (above, 10 * above))
    assert p.returncode == 0, p.stderr
    assert p.stderr.rstrip().endswith("latency-check: PASS"), p.stderr
    doc = json.loads(p.stdout)
    rd = doc["jobs"][0]["read"]
    n = rd["total_ios"]
    study = doc["latency_study"]
    assert study["read"]["ios"] == n > 0
    assert rd["clat_ns"]["min"] >= MS
    # nothing below 999 us for certain, all of it below a minute
    b999, b60 = study["read"]["below"]
    assert b999["ios_below"] == 0 and b999["percent"] == 0
    assert b60["ios_below"] == n and b60["ios_in_bound_bucket"] == 0
    rows = {r["percentile"]: r for r in study["read"]["percentiles"]}
    for pct, r in rows.items():
        assert r["backed"] == (n >= r["needs_ios"]), r
        assert MS <= r["lo_ns"] <= r["value_ns"] <= r["hi_ns"] <= rd["clat_ns"]["max"]
    # the table's p50 is the report's
    assert rows[50]["value_ns"] == rd["clat_ns"]["percentile"]["50.000000"]
    # a 2 s run at QD 4 on 1 ms has some 8,000 I/Os: p99.9 backed, p99.9999 not
    assert rows[99.9]["backed"] and not rows[99.9999]["backed"]
    check = study["check"]
    assert check["verdict"] == "pass"
    assert [c["result"] for c in check["conditions"]] == ["pass"] * 3


@pytest.mark.quick
def test_latency_check_fails_below_the_device_latency(ms_dev, cli):
    p = _run(ms_dev, "--latency-check=p1<999us")
    assert p.returncode == 1, p.stdout[-1500:] + p.stderr
    lines = p.stdout.rstrip().splitlines()
    assert lines[-1] == "latency-check: FAIL"
    assert lines[-2].startswith("  latency-check FAIL read p1 = ") and \
        "is not < 999us" in lines[-2], lines[-2]
    # the job ran and was removed as any run's
    assert "read: IOPS=" in p.stdout
    assert "e2e-lat" not in env.cli("list").stdout


def test_latency_check_malformed_creates_nothing(ms_dev, cli):
    p = _run(ms_dev, "--latency-check=p99.9<fast")
    assert p.returncode == 1
    assert "--latency-check" in p.stderr and "with a unit" in p.stderr
    assert "e2e-lat" not in env.cli("list").stdout
