# SPDX-License-Identifier: GPL-2.0
"""cli: `ssdload run` output is shaped like fio's, and its numbers are consistent.

The reference for the JSON schema is a real fio run on the same device in the
same guest: every key ssdload prints under the fio-named sections must exist
in fio's output with a compatible type.
"""

import re

import pytest

import ssdload_env as env

REQUIRED_DIR_KEYS = ("io_bytes", "bw_bytes", "iops", "runtime", "total_ios", "short_ios",
                     "drop_ios", "clat_ns", "lat_ns")
REQUIRED_LAT_KEYS = ("min", "max", "mean", "stddev", "N", "percentile")
FIO_DEFAULT_PCT = ["1.000000", "5.000000", "10.000000", "20.000000", "30.000000",
                   "40.000000", "50.000000", "60.000000", "70.000000", "80.000000",
                   "90.000000", "95.000000", "99.000000", "99.500000", "99.900000",
                   "99.950000", "99.990000"]


@pytest.fixture(scope="module")
def _fio_cache():
    return {}


def _fio_reference(fio, dev, cache):
    if "ref" not in cache:
        cache["ref"] = env.fio_json(
            "--name=ref", "--filename=" + dev.path, "--rw=randrw", "--bs=4k",
            "--iodepth=4", "--ioengine=libaio", "--direct=1", "--runtime=1",
            "--time_based",
            "--clat_percentiles=1", "--lat_percentiles=1")
    return cache["ref"]


def _kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, dict):
        return "dict"
    if isinstance(v, list):
        return "list"
    return type(v).__name__


def _compatible(ours, theirs):
    a, b = _kind(ours), _kind(theirs)
    # fio prints some doubles that happen to be integral without a fraction
    return a == b or (a, b) in (("int", "float"), ("float", "int"))


def _compare(ours, fio, path, problems, strict_int=True):
    for k, v in ours.items():
        p = "%s.%s" % (path, k)
        if k not in fio:
            problems.append("%s: not in fio's output" % p)
            continue
        if not _compatible(v, fio[k]):
            problems.append("%s: %s here, %s in fio" % (p, _kind(v), _kind(fio[k])))
        elif strict_int and _kind(fio[k]) == "int" and _kind(v) == "float":
            problems.append("%s: float here, int in fio" % p)
        elif isinstance(v, dict) and k != "percentile":
            _compare(v, fio[k], p, problems)


@pytest.mark.quick
def test_json_schema_matches_fio(nullb, cli, fio, _fio_cache):
    """Keys under jobs[0].read/write exist in fio's JSON with the same types."""
    ref = _fio_reference(fio, nullb, _fio_cache)
    out = env.cli_json("run", "--name=e2e-json", "--filename=" + nullb.path,
                       "--rw=randrw", "--bs=4k", "--iodepth=4", "--runtime=1s",
                       "--allow_write=1")
    assert isinstance(out.get("jobs"), list) and len(out["jobs"]) == 1, out.keys()
    ours, theirs = out["jobs"][0], ref["jobs"][0]
    problems = []
    for direction in ("read", "write"):
        for k in REQUIRED_DIR_KEYS:
            if k not in ours[direction]:
                problems.append("jobs[0].%s.%s missing" % (direction, k))
        for lat in ("clat_ns", "lat_ns"):
            for k in REQUIRED_LAT_KEYS:
                if k not in ours[direction].get(lat, {}):
                    problems.append("jobs[0].%s.%s.%s missing" % (direction, lat, k))
        _compare(ours[direction], theirs[direction], "jobs[0]." + direction, problems)
    assert "jobname" in ours and ours["jobname"] == "e2e-json"
    # scalar job-level keys fio tooling reads
    for k in ("jobname", "groupid", "error", "elapsed"):
        if k in ours and k in theirs and not _compatible(ours[k], theirs[k]):
            problems.append("jobs[0].%s type" % k)
    for k in set(out) & set(ref):
        if not _compatible(out[k], ref[k]):
            problems.append("top-level %s: %s here, %s in fio" % (k, _kind(out[k]),
                                                                   _kind(ref[k])))
    assert not problems, "\n".join(problems)

    # percentile keys: fio's default list in fio's key format
    for direction in ("read", "write"):
        pct = ours[direction]["clat_ns"]["percentile"]
        assert sorted(pct, key=float) == FIO_DEFAULT_PCT, sorted(pct, key=float)
        assert set(pct) == set(theirs[direction]["clat_ns"]["percentile"])
        vals = [pct[k] for k in FIO_DEFAULT_PCT]
        assert vals == sorted(vals), "percentiles not monotonic: %s" % vals
        cl = ours[direction]["clat_ns"]
        assert cl["min"] <= vals[0] * 1.004 + 1 and vals[-1] <= cl["max"] * 1.004 + 1


@pytest.mark.quick
@pytest.mark.parametrize("rw", ["randread", "write", "randrw"])
def test_json_numbers_consistent(nullb, cli, rw):
    """iops*runtime/1000 = total_ios, bw_bytes*runtime/1000 = io_bytes, N = total_ios."""
    args = ["run", "--name=e2e-num", "--filename=" + nullb.path, "--rw=" + rw,
            "--bs=8k", "--iodepth=4", "--runtime=1500ms"]
    if rw != "randread":
        args.append("--allow_write")
    before = nullb.stat()
    out = env.cli_json(*args)
    d = env.stat_delta(before, nullb.stat())
    for direction in ("read", "write"):
        r = out["jobs"][0][direction]
        n = r["total_ios"]
        assert n == d[direction + "_ios"]
        assert r["io_bytes"] == n * 8192 == d[direction + "_bytes"]
        assert r["short_ios"] == 0 and r["drop_ios"] == 0
        if n == 0:
            continue
        assert 1400 <= r["runtime"] <= 1800, r["runtime"]
        assert abs(r["iops"] * r["runtime"] / 1000.0 - n) <= 0.01 * n + 2, (r["iops"], n)
        assert abs(r["bw_bytes"] * r["runtime"] / 1000.0 - r["io_bytes"]) <= \
            0.01 * r["io_bytes"] + 8192, (r["bw_bytes"], r["io_bytes"])
        for lat in ("clat_ns", "lat_ns"):
            cl = r[lat]
            assert cl["N"] == n
            assert 0 < cl["min"] <= cl["mean"] <= cl["max"]
            assert cl["stddev"] >= 0
        if "io_kbytes" in r:
            assert r["io_kbytes"] == r["io_bytes"] // 1024


@pytest.mark.quick
def test_normal_output(nullb, cli):
    """Normal output reads like fio: IOPS=, BW=, lat line and the clat percentile list."""
    p = env.cli("run", "--name=e2e-normal", "--filename=" + nullb.path, "--rw=randrw",
                "--bs=4k", "--iodepth=2", "--number_ios=4000", "--allow_write=1",
                check=True)
    out = p.stdout
    assert "e2e-normal" in out
    for direction in ("read", "write"):
        m = re.search(r"%s: IOPS=([0-9.]+[kM]?), BW=" % direction, out)
        assert m, "no '%s: IOPS=..., BW=' line in:\n%s" % (direction, out)
    assert re.search(r"clat percentiles \((nsec|usec|msec)\):", out), out
    for key in ("1.00th=[", "50.00th=[", "99.00th=[", "99.90th=[", "99.99th=["):
        assert key in out, "%s missing from the percentile list:\n%s" % (key, out)
    assert re.search(r"lat \((nsec|usec|msec)\): min=", out), out
    assert re.search(r"stdev=", out)
    assert env.list_jobs() == []
    assert "\r" not in p.stderr, "progress line printed although stderr is not a tty"
