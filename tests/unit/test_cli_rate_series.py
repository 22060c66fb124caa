# SPDX-License-Identifier: GPL-2.0
"""Issue 8 without a kernel: rate control (rate_iops, rate, rate_process)
and time series (log_interval_ms, log_hist): the options, and the reports
of `ssdload show` from a fake rate-controlled job (lib/debugfs.py's
FakeRateJob).
"""
import json
import os
import re
import statistics

import pytest

from cli import one_error_line, parse_only, run, show_json
from debugfs import FakeRateJob, check_lat, exact_percentile


# --------------------------------------------------------------------------
# issue 8: rate control (rate_iops, rate, rate_process) and time series
# (log_interval_ms, log_hist): options, reports from a fake job

@pytest.mark.parametrize("args,want", [
    (["--rate_iops=2000"], {"rate_iops": "2000"}),
    (["--rate_iops=3000,1000"], {"rate_iops": "3000,1000,1000"}),
    (["--rate_iops=,500", "--rw=randrw"], {"rate_iops": ",500,500"}),
    (["--rate_iops=7,,9"], {"rate_iops": "7,,9"}),
    (["--rate_iops=5,5,5"], {"rate_iops": "5"}),
    (["--rate_iops=4294967296"], {"rate_iops": "4294967296"}),
    # fio's suffixes, base 1024 (kb_base's default), as --bs
    (["--rate=500k"], {"rate": "512000"}),
    (["--rate=1m,500k"], {"rate": "1048576,512000,512000"}),
    (["--rate=500k,"], {"rate": "512000,,"}),                 # fio: reads only
    (["--rate=,1MiB", "--rw=randrw"], {"rate": ",1000000,1000000"}),          # fio's kb_base=1024: MiB is 10^6
    (["--rate=1g"], {"rate": str(1 << 30)}),
    (["--rate=16t"], {"rate": str(16 << 40)}),
    (["--rate=4096"], {"rate": "4096"}),
    # one direction each: not a conflict
    (["--rate_iops=100,", "--rate=,1m"], {"rate_iops": "100,,", "rate": ",1048576,1048576"}),
    (["--rate_process=poisson"], {"rate_process": "poisson"}),
    (["--rate_process", "linear"], {"rate_process": "linear"}),
    (["--log_interval_ms=250", "--runtime=3"], {"log_interval_ms": "250"}),
    (["--log_interval_ms=2s", "--runtime=10"], {"log_interval_ms": "2000"}),
    (["--log_interval_ms=0"], {"log_interval_ms": "0"}),
    (["--log_interval_ms=100", "--runtime=1", "--log_hist"],
     {"log_interval_ms": "100", "log_hist": "1"}),
    (["--log_hist=0"], {"log_hist": "0"}),
])
def test_rate_series_options(cli, args, want):
    a = parse_only(cli, *args)
    for k, v in want.items():
        assert a[k] == v, (args, a)


def test_rate_series_options_written_only_when_given(cli):
    a = parse_only(cli, "--runtime=3")
    for attr in ("rate_iops", "rate", "rate_process", "log_interval_ms", "log_hist"):
        assert attr not in a, attr


@pytest.mark.parametrize("args,needles", [
    (["--rate_iops=0"], ["--rate_iops=0", "rate of 0", "empty"]),
    (["--rate_iops=5,0"], ["--rate_iops=5,0", "write rate of 0"]),
    (["--rate=0"], ["--rate=0", "rate of 0"]),
    (["--rate_iops=,"], ["--rate_iops=,", "no rate"]),
    (["--rate=,,"], ["--rate=,,", "no rate"]),
    (["--rate_iops="], ["--rate_iops=", "empty"]),
    (["--rate_iops=1,2,3,4"], ["--rate_iops=1,2,3,4", "three"]),
    (["--rate_iops=1k"], ["--rate_iops=1k", "whole number"]),
    (["--rate_iops=-5"], ["--rate_iops=-5", "'-5'"]),
    (["--rate_iops=1.5"], ["--rate_iops=1.5", "whole number"]),
    (["--rate_iops=4294967297"], ["--rate_iops=4294967297", "largest", "4294967296"]),
    (["--rate=1z"], ["--rate=1z", "bandwidth"]),
    (["--rate=1.3k"], ["--rate=1.3k", "bandwidth"]),           # not whole bytes
    (["--rate=17t"], ["--rate=17t", "largest", str(1 << 44)]),
    (["--rate_iops=100", "--rate=1m"], ["--rate_iops=100", "--rate=1m", "both cap reads"]),
    (["--rate_iops=,100", "--rate=,,1m"], ["both cap trims"]),
    (["--rate_process=bursty"], ["--rate_process=bursty", "linear or poisson"]),
    (["--log_interval_ms=250"], ["--log_interval_ms=250", "--runtime"]),
    (["--log_interval_ms=250", "--runtime=0"], ["--log_interval_ms=250", "--runtime"]),
    (["--log_interval_ms=soon", "--runtime=1"], ["--log_interval_ms=soon", "not a time"]),
    (["--log_hist", "--runtime=1"], ["--log_hist", "--log_interval_ms"]),
    (["--log_hist", "--runtime=1", "--log_interval_ms=100", "--disable_lat"],
     ["--log_hist", "--disable_lat"]),
    (["--log_hist=2"], ["--log_hist=2", "0 or 1"]),
])
def test_rate_series_options_rejected(cli, tmp_path, args, needles):
    """One line naming the option, saying why; nothing created in configfs."""
    cfs = tmp_path / "cfs"
    (cfs / "jobs").mkdir(parents=True)
    p = run(cli, "run", "--filename=/dev/x", *args, env={"SSDLOAD_CONFIGFS": str(cfs)})
    one_error_line(p, *needles)
    assert list((cfs / "jobs").iterdir()) == []


def test_run_usage_lists_rate_series_options(cli):
    out = run(cli, "run", "--help").stdout
    for needle in ("--rate_iops=R[,W[,T]]", "--rate=BW", "--rate_process", "poisson",
                   "--log_interval_ms", "--log_hist"):
        assert needle in out, needle


def rate_json(cli, rj, *extra):
    p = run(cli, "show", rj.name, "--output-format=json", *extra, env=rj.env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_json_lat_from_intended_and_rate(cli, geo, tmp_path):
    rj = FakeRateJob(geo, str(tmp_path))
    job = rate_json(cli, rj, "--group_reporting")["jobs"][0]
    rd = job["read"]
    check_lat(rd["clat_ns"], rj.reads)
    check_lat(rd["lat_from_intended_ns"], rj.ireads)
    assert list(rd)[list(rd).index("lat_ns") + 1] == "lat_from_intended_ns"
    assert rd["rate"] == {"iops_target": 2000, "bps_target": 0, "process": "linear",
                          "late_ios": rj.late, "late_threshold_ns": 1000000,
                          "behind_ns": 1234567890, "behind_ios": 3000, "behind_bytes": 0,
                          "fell_behind": True}
    # an uncapped direction has neither
    assert "rate" not in job["write"] and "lat_from_intended_ns" not in job["write"]


@pytest.mark.parametrize("behind,fell", [((0, 0), False), ((0, 4096), True), ((1, 0), True)])
def test_json_fell_behind(cli, geo, tmp_path, behind, fell):
    rj = FakeRateJob(geo, str(tmp_path), behind=behind)
    rate = rate_json(cli, rj, "--group_reporting")["jobs"][0]["read"]["rate"]
    assert rate["fell_behind"] is fell


def test_json_time_series_merged(cli, geo, tmp_path):
    """intervals: the workers' records of one index merged; per_worker: each
    worker's own; the counts add up to the job's totals."""
    rj = FakeRateJob(geo, str(tmp_path))
    job = rate_json(cli, rj, "--group_reporting")["jobs"][0]
    ts = job["time_series"]
    assert (ts["interval_ms"], ts["workers"], ts["log_hist"]) == (250, 2, 1)
    iv = ts["intervals"]
    assert len(iv) == rj.nint
    assert sum(x["read"]["ios"] for x in iv) == job["read"]["total_ios"] == len(rj.reads)
    assert all(set(x) == {"t_start_ms", "t_end_ms", "read"} for x in iv), iv[0]
    for k, x in enumerate(iv):
        c = rj.clat[k][0] + rj.clat[k][1]
        i = rj.ilat[k][0] + rj.ilat[k][1]
        s, e = rj.starts_ends(k)
        assert x["t_start_ms"] == pytest.approx(s / 1e6, abs=1e-6)
        assert x["t_end_ms"] == pytest.approx(e / 1e6, abs=1e-6)
        r = x["read"]
        assert (r["ios"], r["bytes"]) == (len(c), 4096 * len(c))
        assert (r["lat_min_ns"], r["lat_max_ns"]) == (min(c), max(c))
        assert r["lat_mean_ns"] == pytest.approx(statistics.fmean(c), rel=1e-9)
        assert r["lat_from_intended_mean_ns"] == pytest.approx(statistics.fmean(i), rel=1e-9)
        assert r["late_ios"] == sum(1 for a, b in zip(c, i) if b - a > 1e6)
        assert r["iops"] == pytest.approx(len(c) / ((e - s) / 1e9), rel=1e-9)
        assert abs(r["bw_bytes"] - 4096 * len(c) / ((e - s) / 1e9)) <= 1
        assert "errors" not in r
        # percentiles of the summed deltas of both workers
        pct = r["clat_percentiles"]
        assert list(pct) == ["p50", "p90", "p99", "p99.9"]
        for key, p in zip(pct, (50, 90, 99, 99.9)):
            exact = exact_percentile(sorted(c), p)
            assert abs(pct[key] - exact) <= exact / 128 + 1, (k, key, pct[key], exact)
    # the latency from the intended time grows, the service time does not
    im = [x["read"]["lat_from_intended_mean_ns"] for x in iv]
    assert im == sorted(im)
    pw = ts["per_worker"]
    assert [w["worker"] for w in pw] == [0, 1]
    for w in range(2):
        recs = pw[w]["intervals"]
        assert len(recs) == rj.nint
        for k, x in enumerate(recs):
            c = rj.clat[k][w]
            assert x["read"]["ios"] == len(c)
            assert (x["read"]["lat_min_ns"], x["read"]["lat_max_ns"]) == (min(c), max(c))
            assert x["t_end_ms"] == pytest.approx(rj.record(w, k)[1] / 1e6, abs=1e-6)
            p50 = exact_percentile(sorted(c), 50)
            assert abs(x["read"]["clat_percentiles"]["p50"] - p50) <= p50 / 128 + 1
    assert sum(x["read"]["ios"] for w in pw for x in w["intervals"]) == len(rj.reads)


def test_json_time_series_without_hist(cli, geo, tmp_path):
    rj = FakeRateJob(geo, str(tmp_path), log_hist=0)
    ts = rate_json(cli, rj, "--group_reporting")["jobs"][0]["time_series"]
    assert ts["log_hist"] == 0
    assert all("clat_percentiles" not in x["read"] for x in ts["intervals"])
    assert sum(x["read"]["ios"] for x in ts["intervals"]) == len(rj.reads)


def test_json_clones_rate_and_series(cli, geo, tmp_path):
    """numjobs=2 clones: each entry has its worker's own series; the job-wide
    rate figures are once, in the first entry's ssdload object."""
    rj = FakeRateJob(geo, str(tmp_path))
    jobs = rate_json(cli, rj)["jobs"]
    assert len(jobs) == 2
    for w, job in enumerate(jobs):
        ts = job["time_series"]
        assert ts["worker"] == w and "per_worker" not in ts
        assert [x["read"]["ios"] for x in ts["intervals"]] == \
            [len(rj.clat[k][w]) for k in range(rj.nint)]
        assert "lat_from_intended_ns" not in job["read"]
        assert ("rate" in job["ssdload"]) == (w == 0)
    rate = jobs[0]["ssdload"]["rate"]
    assert list(rate) == ["read"] and rate["read"]["fell_behind"] is True
    check_lat(rate["read"]["lat_from_intended_ns"], rj.ireads)


def test_normal_output_rate(cli, geo, tmp_path):
    rj = FakeRateJob(geo, str(tmp_path))
    p = run(cli, "show", rj.name, env=rj.env)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert ("    rate: target 2000 IOPS (linear), fell behind by 3000 I/Os (1.23s); "
            "%d I/Os sent over 1.00ms late\n" % rj.late) in out, out
    m = re.search(r"^    lat from intended send \(msec\): min=(\d+), max=(\d+), "
                  r"avg=([\d.]+), stdev=[\d.]+$", out, re.M)
    assert m, out
    assert int(m.group(2)) == max(rj.ireads) // 1000000
    assert float(m.group(3)) == pytest.approx(statistics.fmean(rj.ireads) / 1e6, abs=0.01)
    m = re.search(r"    lat from intended send percentiles \(msec\):\n((?:     \|.*\n)+)", out)
    assert m, out
    p50 = int(re.search(r"50\.00th=\[\s*(\d+)\]", m.group(1)).group(1))
    exact = exact_percentile(rj.ireads, 50) / 1e6
    assert abs(p50 - exact) <= exact / 256 + 1
    # the order: clat first, then the rate and its own latency
    assert out.index("clat percentiles") < out.index("    rate:") < \
        out.index("lat from intended send (")
    assert "  time series  : 8 intervals of 250ms, 2 workers, 16 records, with " \
        "percentiles (in the JSON output)\n" in out, out


def test_normal_output_rate_kept_up_and_bandwidth(cli, geo, tmp_path):
    rj = FakeRateJob(geo, str(tmp_path), behind=(0, 0),
                     rate=("read_rate_iops=0", "read_rate_bps=41943040"))
    out = run(cli, "show", rj.name, env=rj.env).stdout
    assert "    rate: target 40.0MiB/s (linear), kept up; " in out, out


def test_rate_keys_without_a_cap(cli, geo, tmp_path):
    """A module with rate control, a job without it: nothing shown."""
    rj = FakeRateJob(geo, str(tmp_path), rate=("read_rate_iops=0", "read_rate_bps=0"))
    os.unlink(os.path.join(rj.dir, "hist_intended_read"))
    out = run(cli, "show", rj.name, env=rj.env).stdout
    assert "rate:" not in out and "intended" not in out
    job = rate_json(cli, rj, "--group_reporting")["jobs"][0]
    assert "rate" not in job["read"] and "lat_from_intended_ns" not in job["read"]
    assert all("late_ios" not in x["read"] for x in job["time_series"]["intervals"])


def test_older_module_no_rate_no_series(cli, fake):
    job = show_json(cli, fake)["jobs"][0]
    assert "time_series" not in job
    for d in ("read", "write", "trim"):
        assert "rate" not in job[d] and "lat_from_intended_ns" not in job[d]


@pytest.mark.parametrize("kw,needle", [
    ({"series_magic": 0x12345678}, "magic"),
    ({"truncate_delta": True}, "malformed"),
])
def test_bad_series_refused(cli, geo, tmp_path, kw, needle):
    rj = FakeRateJob(geo, str(tmp_path), **kw)
    one_error_line(run(cli, "show", rj.name, env=rj.env), "series", needle)


def test_truncated_series_refused(cli, geo, tmp_path):
    rj = FakeRateJob(geo, str(tmp_path))
    path = os.path.join(rj.dir, "series")
    with open(path, "rb") as f:
        blob = f.read()
    with open(path, "wb") as f:
        f.write(blob[:-3])
    one_error_line(run(cli, "show", rj.name, env=rj.env), "series", "size")


def test_missing_intended_hist_refused(cli, geo, tmp_path):
    rj = FakeRateJob(geo, str(tmp_path))
    os.unlink(os.path.join(rj.dir, "hist_intended_read"))
    one_error_line(run(cli, "show", rj.name, env=rj.env), "hist_intended_read")
