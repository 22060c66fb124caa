# SPDX-License-Identifier: GPL-2.0
"""`ssdload profile TRACE -o PROFILE`: a trace summarised into a profile.

Synthetic traces are drawn from a known workload (mix, bssplit per
direction, zoned hot bands, Poisson or bursty arrivals, a fixed response
time) and the profile must give it back within the stated tolerances:
rwmixread within 1 point, each bssplit share within 2 points, the zone
boundaries exactly and their access shares within 2 points, the mean
concurrency within 5%.  `ssdload run --parse-only` takes the output,
by --profile and as a job file.
"""
import os
import random
import re

import pytest

import tracefiles as T
from cli import run, parse_only

SPAN = 1 << 34


def pick(rng, table):
    x, acc = rng.random() * 100, 0
    for v, w in table:
        acc += w
        if x < acc:
            return v
    return table[-1][0]


def workload(n=40000, seed=5, rmix=70, rbs=((4096, 60), (8192, 30), (65536, 10)),
             wbs=((4096, 80), (16384, 20)), rzones=(((0, 10), 60), ((10, 30), 30),
                                                    ((30, 100), 10)),
             iops=10000, resp_ns=300000, bursty=False, seq=False):
    rng = random.Random(seed)
    ios, t, nxt = [], 0, 0
    for i in range(n):
        if bursty:      # 10 I/Os 1 us apart, then a long pause
            t += 1000 if i % 10 else int(rng.expovariate(1 / (10e9 / iops)))
        else:
            t += int(rng.expovariate(iops / 1e9))
        op = "read" if rng.random() * 100 < rmix else "write"
        ln = pick(rng, rbs if op == "read" else wbs)
        if seq:
            off, nxt = nxt, nxt + ln
        else:
            lo, hi = pick(rng, rzones) if op == "read" else (0, 100)
            off = rng.randrange(lo * SPAN // 100 // 4096, (hi * SPAN // 100 - ln) // 4096) * 4096
        ios.append((t, op, off, ln, resp_ns, ("hm", 0)))
    if not seq:         # the span's end, as a device's last block
        ios.append((t + 1, "write", SPAN - 4096, 4096, resp_ns, ("hm", 0)))
    return ios


def profile(cli, tmp_path, ios, *args, writer=T.write_msr, name="lab"):
    src = str(tmp_path / "trace.csv")
    writer(src, ios)
    out = tmp_path / (name + ".fio")
    p = run(cli, "profile", src, "-o", str(out), *args)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    keys = dict(l.split("=", 1) for l in text.splitlines() if "=" in l and l[0] != ";")
    return text, keys, str(out)


def split(bs):
    """"4k/60:8k/30" -> {4096: 60, 8192: 30}"""
    out = {}
    for e in bs.split(":"):
        s, p = e.split("/")
        out[int(s[:-1]) * 1024 if s.endswith("k") else int(s)] = int(p)
    return out


def comment(text, pattern):
    m = re.search(pattern, text)
    assert m, "no %r in the profile:\n%s" % (pattern, text)
    return m


def test_known_workload_comes_back(cli, tmp_path):
    text, k, _ = profile(cli, tmp_path, workload())
    assert text.startswith("; summary: profile of ")
    assert k["rw"] == "randrw"
    assert abs(int(k["rwmixread"]) - 70) <= 1
    r, w = k["bssplit"].split(",")
    for got, want in ((split(r), {4096: 60, 8192: 30, 65536: 10}),
                      (split(w), {4096: 80, 16384: 20})):
        assert set(got) == set(want), got
        for s in want:
            assert abs(got[s] - want[s]) <= 2, (s, got, want)
    zr, zw = k["random_distribution"].split(":", 1)[1].split(",")
    zones = [tuple(int(x) for x in z.split("/")) for z in zr.split(":")]
    assert [s for _a, s in zones] == [10, 20, 70], zones
    for (a, _s), want in zip(zones, (60, 30, 10)):
        assert abs(a - want) <= 2, zones
    assert zw == "100/100"
    err = float(comment(text, r"zones \(read\): 3 zones .* error ([\d.]+) points").group(1))
    assert err < 3
    # 10000 IOPS x 300 us = 3 in flight (Little); Poisson arrivals: CV 1
    assert k["iodepth"] == "3"
    mean = float(comment(text, r"concurrency: mean ([\d.]+) in flight").group(1))
    assert abs(mean - 3) < 0.15
    cv = float(comment(text, r"inter-arrival CV ([\d.]+)").group(1))
    assert 0.9 < cv < 1.1
    assert float(comment(text, r"sequential: ([\d.]+)%").group(1)) < 1
    assert len(re.findall(r"^;\s+[\d.]+\s+[\d.]+\s+[\d.]+$", text, re.M)) == 20
    assert "; source: " + str(tmp_path / "trace.csv") + " (msr trace, 40001 I/Os" in text


def test_run_takes_the_profile(cli, tmp_path):
    _text, k, out = profile(cli, tmp_path, workload(n=5000))
    by_name = parse_only(cli, "--profile=lab", env={"SSDLOAD_PROFILES": str(tmp_path)})
    as_file = parse_only(cli, out)
    for a in (by_name, as_file):
        assert a["rw"] == "randrw" and a["rwmixread"] == k["rwmixread"]
        assert a["iodepth"] == k["iodepth"]
        assert a["random_distribution"].startswith("zoned:")
        assert a["bssplit"].split(",")[0] == ":".join(
            "%d/%s" % (s, p) for s, p in split(k["bssplit"].split(",")[0]).items())


def test_sequential_and_bursty(cli, tmp_path):
    text, k, _ = profile(cli, tmp_path, workload(n=3000, rmix=100, seq=True, bursty=True))
    assert k["rw"] == "read"
    assert float(comment(text, r"sequential: ([\d.]+)%").group(1)) > 99
    assert float(comment(text, r"inter-arrival CV ([\d.]+)").group(1)) > 2


def test_no_response_times(cli, tmp_path):
    ios = [(t, op, off, ln, 0, 7) for t, op, off, ln, _r, _d in workload(n=2000)]
    text, k, _ = profile(cli, tmp_path, ios, writer=T.write_alibaba)
    assert k["iodepth"] == "1"
    assert "records no response times" in text
    assert "(alibaba trace" in text


def test_blktrace_trims_and_flushes(cli, tmp_path):
    ios, t = [], 0
    for i in range(400):
        t += 1000000
        op = ("read", "write", "trim", "flush")[i % 4]
        ios.append((t, op, (i * 7919 % 1000) * 65536, 0 if op == "flush" else 8192, 50000,
                    None))
    prefix = str(tmp_path / "sdb")
    T.write_blktrace(prefix, ios, cpus=2)
    out = tmp_path / "b.fio"
    p = run(cli, "profile", prefix, "--output=" + str(out))
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert "trims are left out of rw=" in text
    assert "flushes: one per 4.0 I/Os" in text
    assert "rwmixread=50\n" in text and "bssplit=8k/100,8k/100\n" in text


def test_zones_and_device_options(cli, tmp_path):
    ios = workload(n=4000)
    ios += [(t + 1, op, off, ln, r, ("other", 9)) for t, op, off, ln, r, _d in ios[:500]]
    ios.sort(key=lambda x: x[0])
    text, k, _ = profile(cli, tmp_path, ios, "--zones=2", "--device=hm_0")
    reads = k["random_distribution"].split(":", 1)[1].split(",")[0]
    assert len(reads.split(":")) == 2, reads
    assert "2 zones fitted" in text
    assert "4001 I/Os" in text and "one profiled" in text


def test_refusals_write_nothing(cli, tmp_path):
    src = str(tmp_path / "t.csv")
    T.write_msr(src, workload(n=50))
    out = tmp_path / "x.fio"
    out.write_text("keep")
    p = run(cli, "profile", src, "-o", str(out))
    assert p.returncode == 2 and "exists" in p.stderr and out.read_text() == "keep"
    p = run(cli, "profile", src)
    assert p.returncode == 2 and "-o PROFILE" in p.stderr
    for bad in ("--zones=0", "--zones=17", "--trace-format=csv"):
        p = run(cli, "profile", src, "-o", str(tmp_path / "y.fio"), bad)
        assert p.returncode == 2, bad
    with open(src, "a") as f:
        f.write("1,hm,0,Read,x,4096,1\n")
    p = run(cli, "profile", src, "-o", str(tmp_path / "z.fio"))
    # 50 I/Os and the span's last block, then the bad line
    assert p.returncode == 1 and "t.csv: line 52: Offset 'x'" in p.stderr
    p = run(cli, "profile", src, "-o", str(tmp_path / "bad name!.fio"))
    assert p.returncode == 2
    assert sorted(os.listdir(tmp_path)) == ["t.csv", "x.fio"]
