# SPDX-License-Identifier: GPL-2.0
"""ssdload merge: json+ results of many hosts as one, exactly.

The check of exactness is a pooled run: hosts A, B and C are fake debugfs
jobs of known samples (lib/debugfs.py), and a fourth job holds all their
samples together.  The merge of A, B and C must give the pooled job's
counts, extremes, bins and every percentile exactly, and its mean and
deviation to rounding.  Then the refusals (plain json, fio's own JSON,
another geometry or version), the time series on wall-clock boundaries,
and 1,000 synthetic hosts (totals and percentiles exact, memory that does
not grow with an input's size per host).
"""
import json
import os
import random
import shutil
import subprocess
import time

import pytest

from cli import run
from debugfs import FakeJob, lognormal


def show(cli, job, fmt="json+"):
    p = run(cli, "show", job.name, "--output-format=" + fmt, env=job.env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def fake_job(geo, tmp_path, name, reads, writes, runtime_ns=2_000_000_000):
    root = tmp_path / ("debugfs-" + name)
    job = FakeJob(geo, str(root), "job1", reads, writes, runtime_ns=runtime_ns)
    job.env = {"SSDLOAD_DEBUGFS": str(root),
               "SSDLOAD_CONFIGFS": str(tmp_path / "no-configfs")}
    return job


@pytest.fixture(scope="module")
def hosts():
    """Three hosts' samples of different shapes, reads and writes."""
    return {
        "hostA": (lognormal(11, 30_000, 90_000, 0.5), lognormal(12, 9_000, 20_000, 1.0)),
        "hostB": (lognormal(13, 50_000, 250_000, 0.9), lognormal(14, 4_000, 40_000, 0.7)),
        "hostC": (lognormal(15, 7_000, 1_500_000, 0.3), []),
    }


@pytest.fixture
def results(cli, geo, tmp_path, hosts):
    """DIR/HOST/result.json of each host, and the pooled job's document."""
    top = tmp_path / "cluster"
    for h, (r, w) in hosts.items():
        (top / h).mkdir(parents=True)
        doc = show(cli, fake_job(geo, tmp_path, h, r, w))
        (top / h / "result.json").write_text(json.dumps(doc))
    reads = [v for r, _ in hosts.values() for v in r]
    writes = [v for _, w in hosts.values() for v in w]
    pooled = show(cli, fake_job(geo, tmp_path, "pooled", reads, writes))
    return top, pooled


def merge(cli, *args):
    return run(cli, "merge", *[str(a) for a in args])


def test_merge_equals_pooled_run(cli, tmp_path, results, hosts):
    top, pooled = results
    out = tmp_path / "merged.json"
    p = merge(cli, top, "-o", out)
    assert p.returncode == 0, p.stderr
    assert "merged 3 results" in p.stdout
    doc = json.loads(out.read_text())
    job, want = doc["jobs"][0], pooled["jobs"][0]
    assert job["ssdload"]["hosts"] == 3
    assert [h["host"] for h in doc["hosts"]] == sorted(hosts)
    for d in ("read", "write"):
        got, exp = job[d], want[d]
        for k in ("total_ios", "io_bytes", "io_kbytes", "short_ios", "drop_ios"):
            assert got[k] == exp[k], (d, k)
        assert got["total_ios"] == sum(len(hosts[h][d == "write"]) for h in hosts)
        for lat in ("clat_ns", "lat_ns"):
            g, e = got[lat], exp[lat]
            assert (g["N"], g["min"], g["max"]) == (e["N"], e["min"], e["max"])
            assert g["bins"] == e["bins"], (d, lat)
            assert g["percentile"] == e["percentile"], (d, lat)
            assert g["mean"] == pytest.approx(e["mean"], rel=1e-6)
            # the pooled deviation from each host's rounded mean and deviation
            assert g["stddev"] == pytest.approx(e["stddev"], rel=1e-3)
    for k in ("latency_ns", "latency_us", "latency_ms"):
        for b, v in want[k].items():
            assert job[k][b] == pytest.approx(v, abs=1e-6), (k, b)
    # each host keeps its own figures, and they are not the merged ones
    for h in doc["hosts"]:
        mine = json.loads((top / h["host"] / "result.json").read_text())["jobs"][0]
        hj = h["jobs"][0]
        assert hj["read"]["total_ios"] == mine["read"]["total_ios"]
        assert hj["read"]["clat_ns"]["percentile"] == mine["read"]["clat_ns"]["percentile"]
        assert "bins" not in hj["read"]["clat_ns"]


def test_merge_of_one_is_the_result(cli, tmp_path, results):
    top, _ = results
    one = json.loads((top / "hostB" / "result.json").read_text())
    p = merge(cli, top / "hostB" / "result.json", "--output-format=json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    for d in ("read", "write"):
        g, e = doc["jobs"][0][d], one["jobs"][0][d]
        assert g["clat_ns"]["bins"] == e["clat_ns"]["bins"]
        assert g["clat_ns"]["percentile"] == e["clat_ns"]["percentile"]
        assert g["total_ios"] == e["total_ios"]
    assert doc["hosts"][0]["host"] == "result"


def refused(cli, tmp_path, needle, *inputs):
    out = tmp_path / "never.json"
    p = merge(cli, *inputs, "-o", out)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert needle in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert not out.exists()
    assert not [f for f in os.listdir(tmp_path) if f.startswith("never")]


def test_refuses_plain_json(cli, geo, tmp_path, results, hosts):
    top, _ = results
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(show(cli, fake_job(geo, tmp_path, "p", *hosts["hostA"]),
                                     "json")))
    refused(cli, tmp_path, "json+", top, plain)


def test_refuses_another_geometry_or_version(cli, tmp_path, results):
    top, _ = results
    doc = json.loads((top / "hostA" / "result.json").read_text())
    doc["jobs"][0]["ssdload"]["histogram"]["sub_bits"] += 1
    other = tmp_path / "geo.json"
    other.write_text(json.dumps(doc))
    refused(cli, tmp_path, "geometry", top, other)
    doc = json.loads((top / "hostA" / "result.json").read_text())
    doc["fio version"] = "ssdload-0.0.1"
    other.write_text(json.dumps(doc))
    refused(cli, tmp_path, "one version", top, other)
    del doc["jobs"][0]["ssdload"]["histogram"]
    doc["fio version"] = json.loads((top / "hostA" / "result.json").read_text())["fio version"]
    other.write_text(json.dumps(doc))
    refused(cli, tmp_path, "histogram", other)


def test_refuses_bins_that_do_not_add_up(cli, tmp_path, results):
    top, _ = results
    doc = json.loads((top / "hostA" / "result.json").read_text())
    bins = doc["jobs"][0]["read"]["clat_ns"]["bins"]
    k = next(iter(bins))
    bins[k] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    refused(cli, tmp_path, "its N", bad)
    bins[k] = "x"
    bad.write_text(json.dumps(doc))
    refused(cli, tmp_path, "not a latency", bad)


def test_refuses_fio_results(cli, tmp_path):
    fio = shutil.which("fio")
    if not fio:
        pytest.skip("fio is not installed")
    out = tmp_path / "fio.json"
    r = subprocess.run([fio, "--name=j", "--ioengine=null", "--size=4m", "--rw=randread",
                        "--output-format=json+", "--output=" + str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    refused(cli, tmp_path, "not by ssdload", out)


def test_refuses_missing_and_empty(cli, tmp_path):
    refused(cli, tmp_path, "No such file", tmp_path / "nothing.json")
    (tmp_path / "empty").mkdir()
    refused(cli, tmp_path, "no results", tmp_path / "empty")
    (tmp_path / "junk.json").write_text("{")
    refused(cli, tmp_path, "not JSON", tmp_path / "junk.json")


def series(start_ms, counts):
    """A time_series of 1 s intervals with @counts reads each."""
    return {"interval_ms": 1000, "intervals": [
        {"t_start_ms": start_ms + 1000 * i, "t_end_ms": start_ms + 1000 * (i + 1),
         "read": {"ios": n, "bytes": 4096 * n, "lat_mean_ns": 1000.0 * (i + 1),
                  "lat_min_ns": 500, "lat_max_ns": 2000 + i}}
        for i, n in enumerate(counts)]}


def test_time_series_on_wall_clock(cli, tmp_path, results):
    top, _ = results
    base = 1_700_000_000_000_000_000
    # A starts at a second boundary; B 1.5 s later: B's interval k starts
    # in A's interval k+1 (1.5 s) and is merged there
    for h, start, counts in (("hostA", base, [10, 20, 30, 40]),
                             ("hostB", base + 1_500_000_000, [1, 2, 3])):
        f = top / h / "result.json"
        doc = json.loads(f.read_text())
        doc["jobs"][0]["ssdload"]["start_real_ns"] = start
        doc["jobs"][0]["time_series"] = series(0, counts)
        f.write_text(json.dumps(doc))
    shutil.rmtree(top / "hostC")
    p = merge(cli, top, "--output-format=json")
    assert p.returncode == 0, p.stderr
    ts = json.loads(p.stdout)["jobs"][0]["time_series"]
    assert ts["aligned"] == "wall clock"
    got = [(iv["t_start_ms"], iv["hosts"], iv["read"]["ios"]) for iv in ts["intervals"]]
    assert got == [(0, 1, 10), (1000, 2, 21), (2000, 2, 32), (3000, 2, 43)]
    iv = ts["intervals"][1]["read"]
    assert iv["lat_mean_ns"] == pytest.approx((20 * 2000 + 1 * 1000) / 21)
    assert iv["iops"] == pytest.approx(21.0)
    assert iv["lat_max_ns"] == 2001
    # without the start time of every host: aligned on each job's start
    f = top / "hostB" / "result.json"
    doc = json.loads(f.read_text())
    del doc["jobs"][0]["ssdload"]["start_real_ns"]
    f.write_text(json.dumps(doc))
    p = merge(cli, top, "--output-format=json")
    ts = json.loads(p.stdout)["jobs"][0]["time_series"]
    assert ts["aligned"] == "job start"
    assert [iv["read"]["ios"] for iv in ts["intervals"]] == [11, 22, 33, 40]


def synthetic(template, geo, rng, nbuckets=1500):
    """@template with random read bins (valid bucket values), N and totals."""
    doc = json.loads(json.dumps(template))
    job = doc["jobs"][0]
    lat = job["read"]["clat_ns"]
    idx = sorted(rng.sample(range(300, 3300), nbuckets))
    counts = {i: rng.randint(1, 5000) for i in idx}
    n = sum(counts.values())

    def value(i):
        group, sub = divmod(i, geo.sub)
        if group == 0:
            return i
        width = 1 << (group - 1)
        return ((geo.sub + sub) << (group - 1)) + width // 2

    bins = {str(value(i)): c for i, c in counts.items()}
    lat.update(N=n, min=min(value(i) for i in idx), max=max(value(i) for i in idx),
               bins=bins, mean=1000.0, stddev=10.0)
    job["read"]["lat_ns"] = json.loads(json.dumps(lat))
    job["read"]["total_ios"] = n
    job["read"]["io_bytes"] = 4096 * n
    for d in ("write", "trim"):
        job[d]["total_ios"] = job[d]["io_bytes"] = 0
        job[d]["clat_ns"] = job[d]["lat_ns"] = {"min": 0, "max": 0, "mean": 0.0,
                                                "stddev": 0.0, "N": 0}
    job.pop("time_series", None)
    return doc, counts


def fio_rule(counts, geo, pct, lo, hi):
    """core/hist.c's percentile: first bucket reaching pct% of the total."""
    total = sum(counts.values())
    need = pct / 100.0 * total
    cum = 0
    for i in sorted(counts):
        cum += counts[i]
        if cum >= need:
            group, sub = divmod(i, geo.sub)
            v = i if group == 0 else ((geo.sub + sub) << (group - 1)) + (1 << (group - 1)) // 2
            return min(max(v, lo), hi)
    return hi


RSS_PROBE = ("import resource, subprocess, sys\n"
             "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
             "sys.stderr.write(r.stderr)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
             "sys.exit(r.returncode)\n")


def maxrss_kib(cli, *args):
    """The largest resident size of `ssdload merge ARGS`, in KiB."""
    r = subprocess.run(["/usr/bin/python3", "-c", RSS_PROBE, cli, "merge",
                        *[str(a) for a in args]], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return int(r.stdout.strip())


def test_thousand_hosts(cli, geo, tmp_path, results, capsys):
    top, _ = results
    template = json.loads((top / "hostA" / "result.json").read_text())
    rng = random.Random(31)
    big = tmp_path / "thousand"
    total, pooled = 0, {}
    for i in range(1000):
        doc, counts = synthetic(template, geo, rng)
        (big / ("h%04d" % i)).mkdir(parents=True)
        (big / ("h%04d" % i) / "r.json").write_text(json.dumps(doc))
        total += sum(counts.values())
        for k, c in counts.items():
            pooled[k] = pooled.get(k, 0) + c
        if i == 99:
            shutil.copytree(big, tmp_path / "hundred")
    t0 = time.monotonic()
    p = merge(cli, big, "-o", tmp_path / "m.json")
    secs = time.monotonic() - t0
    assert p.returncode == 0, p.stderr
    doc = json.loads((tmp_path / "m.json").read_text())
    lat = doc["jobs"][0]["read"]["clat_ns"]
    assert doc["jobs"][0]["read"]["total_ios"] == lat["N"] == total
    assert sum(lat["bins"].values()) == total
    for k, v in lat["percentile"].items():
        assert v == fio_rule(pooled, geo, float(k), lat["min"], lat["max"]), k
    assert len(doc["hosts"]) == 1000
    # memory: what a host adds is its headline figures, not its input
    m100 = maxrss_kib(cli, tmp_path / "hundred", "-o", tmp_path / "m100.json")
    m1000 = maxrss_kib(cli, big, "-o", tmp_path / "m1000.json")
    size = os.path.getsize(big / "h0000" / "r.json") // 1024
    per_host = (m1000 - m100) / 900.0
    with capsys.disabled():
        print("\nmerge of 1000 hosts: %.2f s; max RSS %d KiB (100 hosts: %d KiB), "
              "%.1f KiB per host, an input is %d KiB" % (secs, m1000, m100, per_host, size))
    assert per_host < size / 2, (m100, m1000, size)
