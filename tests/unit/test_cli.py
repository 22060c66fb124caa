# SPDX-License-Identifier: GPL-2.0
"""The ssdload CLI without a kernel module.

Path roots are redirected with SSDLOAD_CONFIGFS / SSDLOAD_DEBUGFS /
SSDLOAD_CPU_ONLINE.  `ssdload show` reads a fake debugfs job written here
from a known random sample; every expected value is computed in Python
from that sample (the bucket maths is re-implemented from the constants
of uapi/ssdload.h), never copied from the program's output.
"""
import json
import math
import os
import random
import re
import shutil
import statistics
import struct
import subprocess

import pytest

FIO_PERCENTILES = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
                   99.95, 99.99]


# --------------------------------------------------------------------------
# helpers

def run(cli, *args, env=None, **kw):
    e = dict(os.environ)
    e.setdefault("SSDLOAD_CONFIGFS", "/nonexistent/ssdload-unit/configfs")
    e.setdefault("SSDLOAD_DEBUGFS", "/nonexistent/ssdload-unit/debugfs")
    e.update(env or {})
    kw.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([cli] + list(args), stderr=subprocess.PIPE, text=True,
                          env=e, timeout=60, **kw)


def one_error_line(p, *needles):
    assert p.returncode != 0, "exit 0; stdout %r" % p.stdout
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, "expected one error line, got %r" % p.stderr
    assert lines[0].startswith("ssdload: "), lines[0]
    for n in needles:
        assert n.lower() in lines[0].lower(), "%r does not mention %r" % (lines[0], n)
    return lines[0]


def parse_only(cli, *args, env=None):
    p = run(cli, "run", "--filename=/dev/unit-test", "--parse-only", *args, env=env)
    assert p.returncode == 0, p.stderr
    return dict(l.split("=", 1) for l in p.stdout.splitlines())


class Geometry:
    """Histogram geometry from uapi/ssdload.h, maths re-implemented."""

    def __init__(self, repo):
        text = open(os.path.join(repo, "uapi", "ssdload.h")).read()

        def const(name):
            return int(re.search(r"#define\s+%s\s+(0x[0-9a-fA-F]+|\d+)" % name,
                                 text).group(1), 0)
        self.sub_bits = const("SSDLOAD_HIST_SUB_BITS")
        self.max_shift = const("SSDLOAD_HIST_MAX_SHIFT")
        self.magic = const("SSDLOAD_HIST_MAGIC")
        self.version = const("SSDLOAD_HIST_VERSION")
        self.sub = 1 << self.sub_bits
        self.buckets = (self.max_shift - self.sub_bits + 1) * self.sub

    def index(self, v):
        if v < self.sub:
            return v
        if v >= 1 << self.max_shift:
            return self.buckets - 1
        shift = v.bit_length() - 1 - self.sub_bits
        return (shift + 1) * self.sub + ((v >> shift) & (self.sub - 1))

    # header: magic u32, version u16, header_size u16, sub_bits, max_shift,
    # nr_buckets, dir (u32), then samples, overflow, min, max, sum,
    # sumsq_hi, sumsq_lo, runtime_ns (u64), native byte order
    HDR = "=IHHIIII8Q"

    def hist_file(self, sample, direction, runtime_ns, pad=0, magic=None,
                  sub_bits=None):
        counts = [0] * self.buckets
        for v in sample:
            counts[self.index(v)] += 1
        sumsq = sum(v * v for v in sample)
        hsize = struct.calcsize(self.HDR) + pad
        over = sum(1 for v in sample if v >= 1 << self.max_shift)
        hdr = struct.pack(self.HDR, self.magic if magic is None else magic,
                          self.version, hsize,
                          self.sub_bits if sub_bits is None else sub_bits,
                          self.max_shift, self.buckets, direction, len(sample), over,
                          min(sample) if sample else 0, max(sample) if sample else 0,
                          sum(sample), sumsq >> 64, sumsq & (2**64 - 1), runtime_ns)
        return hdr + b"\0" * pad + struct.pack("=%dQ" % self.buckets, *counts)


def exact_percentile(sorted_sample, p):
    rank = max(1, math.ceil(p / 100.0 * len(sorted_sample)))
    return sorted_sample[min(rank, len(sorted_sample)) - 1]


class FakeJob:
    """A debugfs job directory like the module's, built from known samples."""

    def __init__(self, geo, root, name, reads, writes, bs=4096, runtime_ns=2_345_678_901,
                 ramp_ns=500_000_000, state="done", error=0, workers=(0, 3), **hist_kw):
        self.name, self.bs, self.runtime_ns = name, bs, runtime_ns
        self.reads, self.writes = sorted(reads), sorted(writes)
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir, exist_ok=True)
        lines = ["version=1", "state=" + state, "error=%d" % error,
                 "workers=%d" % len(workers), "runtime_ns=%d" % runtime_ns,
                 "ramp_ns=%d" % ramp_ns]
        for d, s in (("read", reads), ("write", writes)):
            n = len(s)
            mean = sum(s) / n if n else 0
            lines += ["%s_ios=%d" % (d, n), "%s_bytes=%d" % (d, n * bs),
                      "%s_errors=0" % d,
                      "%s_lat_min_ns=%d" % (d, min(s) if n else 0),
                      "%s_lat_mean_ns=%d" % (d, round(mean)),
                      "%s_lat_max_ns=%d" % (d, max(s) if n else 0),
                      "%s_lat_stddev_ns=%d" % (d, round(statistics.pstdev(s)) if n else 0),
                      "%s_lat_sum_ns=%d" % (d, sum(s)),
                      "%s_lat_sumsq_ns2=%d" % (d, sum(v * v for v in s))]
        for i, cpu in enumerate(workers):
            share = lambda s: len(s[i::len(workers)])
            lines += ["worker%d_cpu=%d" % (i, cpu),
                      "worker%d_read_ios=%d" % (i, share(reads)),
                      "worker%d_write_ios=%d" % (i, share(writes)),
                      "worker%d_read_errors=0" % i, "worker%d_write_errors=0" % i]
        with open(os.path.join(self.dir, "summary"), "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(os.path.join(self.dir, "progress"), "w") as f:
            f.write("state=%s\nelapsed_ns=%d\n" % (state, ramp_ns + runtime_ns))
        for d, s, fn in ((0, reads, "hist_read"), (1, writes, "hist_write")):
            with open(os.path.join(self.dir, fn), "wb") as f:
                f.write(geo.hist_file(s, d, runtime_ns, **hist_kw))


def lognormal(seed, n, median_ns, sigma):
    r = random.Random(seed)
    return [max(1, int(r.lognormvariate(math.log(median_ns), sigma))) for _ in range(n)]


@pytest.fixture(scope="module")
def geo(repo):
    return Geometry(repo)


@pytest.fixture(scope="module")
def samples():
    return lognormal(1, 200_000, 180_000, 0.6), lognormal(2, 60_000, 25_000, 1.2)


@pytest.fixture
def fake(geo, samples, tmp_path):
    root = tmp_path / "debugfs"
    job = FakeJob(geo, str(root), "unitjob", *samples)
    job.env = {"SSDLOAD_DEBUGFS": str(root),
               "SSDLOAD_CONFIGFS": str(tmp_path / "no-configfs")}
    return job


# --------------------------------------------------------------------------
# command line

def test_help_and_version(cli):
    assert run(cli, "--help").returncode == 0
    for c in ("run", "list", "show", "stop"):
        p = run(cli, "help", c)
        assert p.returncode == 0 and "usage: ssdload " + c in p.stdout, p.stdout
    p = run(cli, "--version")
    assert p.returncode == 0 and p.stdout.startswith("ssdload version ")
    one_error_line(run(cli, "frobnicate"), "frobnicate")
    assert run(cli).returncode != 0


def test_unknown_option(cli):
    one_error_line(run(cli, "run", "--filename=/dev/x", "--bogus-opt=3"), "--bogus-opt")
    one_error_line(run(cli, "run", "--filename=/dev/x", "--ioengine", "libaio"), "ioengine")


@pytest.mark.parametrize("opt,val", [
    ("bs", "4q"), ("bs", "-4k"), ("bs", "k"), ("bs", "99999999999999999999"),
    ("size", "1z"), ("offset", "1.5m"), ("runtime", "soon"), ("runtime", "10x"),
    ("ramp_time", "-1"), ("iodepth", "many"), ("rwmixread", "101"),
    ("rw", "sideways"), ("output-format", "xml"), ("percentile_list", "50:abc"),
    ("percentile_list", "0"), ("allow_write", "maybe"), ("numjobs", "0"),
    ("randseed", "0xzz"), ("cpus_allowed", "a-b"),
])
def test_bad_values(cli, opt, val):
    one_error_line(run(cli, "run", "--filename=/dev/x", "--%s=%s" % (opt, val)), val)


def test_numjobs_conflicts_with_cpus_allowed(cli):
    one_error_line(run(cli, "run", "--filename=/dev/x", "--numjobs=2", "--cpus_allowed=0-1"),
                   "numjobs", "cpus_allowed")


def test_filename_required(cli):
    one_error_line(run(cli, "run", "--rw=read"), "filename")


@pytest.mark.parametrize("text,mult", [
    ("", 1), ("b", 1), ("k", 1 << 10), ("K", 1 << 10), ("kb", 1 << 10), ("KiB", 1 << 10),
    ("m", 1 << 20), ("MiB", 1 << 20), ("g", 1 << 30), ("gib", 1 << 30), ("t", 1 << 40),
])
def test_sizes_base_1024(cli, text, mult):
    a = parse_only(cli, "--bs=4" + text, "--offset", "3" + text, "--size=7" + text)
    assert int(a["bs"]) == 4 * mult
    assert int(a["offset"]) == 3 * mult
    assert int(a["size"]) == 7 * mult


@pytest.mark.parametrize("text,ms", [
    ("10", 10_000), ("0", 0), ("250ms", 250), ("3s", 3000), ("2m", 120_000),
    ("1h", 3_600_000), ("5000us", 5),
])
def test_times(cli, text, ms):
    a = parse_only(cli, "--runtime=" + text, "--ramp_time", text)
    assert int(a["runtime_ms"]) == ms and int(a["ramp_ms"]) == ms


def test_attribute_mapping(cli):
    a = parse_only(cli, "--name=unit", "--rw", "randrw", "--rwmixwrite=30", "--iodepth=32",
                   "--number_ios=1000", "--randseed=0x10", "--allow_write", "--time_based")
    assert a["name"] == "unit" and a["filename"] == "/dev/unit-test"
    assert a["rw"] == "randrw" and int(a["rwmixread"]) == 70
    assert int(a["iodepth"]) == 32 and int(a["number_ios"]) == 1000
    assert int(a["randseed"]) == 16 and a["allow_write"] == "1"
    assert "runtime_ms" not in a and "bs" not in a, "unset options must keep module defaults"
    assert parse_only(cli, "--allow_write=0")["allow_write"] == "0"
    assert parse_only(cli, "--allow_write", "1")["allow_write"] == "1"
    assert parse_only(cli)["name"].startswith("ssdload-")


def test_numjobs_first_online_cpus(cli, tmp_path):
    online = tmp_path / "online"
    online.write_text("0-3,8-9\n")
    env = {"SSDLOAD_CPU_ONLINE": str(online)}
    cpus = [0, 1, 2, 3, 8, 9]
    for n in range(1, 7):
        a = parse_only(cli, "--numjobs=%d" % n, env=env)
        got = []
        for part in a["cpus_allowed"].split(","):
            lo, _, hi = part.partition("-")
            got += range(int(lo), int(hi or lo) + 1)
        assert got == cpus[:n], (n, a["cpus_allowed"])
    one_error_line(run(cli, "run", "--filename=/dev/x", "--numjobs=7", env=env), "7")


# --------------------------------------------------------------------------
# module / filesystems missing

def test_missing_module(cli, tmp_path):
    env = {"SSDLOAD_CONFIGFS": str(tmp_path / "nothing")}
    for args in (["run", "--filename=/dev/x", "--rw=read"], ["list"], ["stop", "j"]):
        one_error_line(run(cli, *args, env=env), "ssdload.ko is not loaded", "insmod")
    assert not (tmp_path / "nothing").exists(), "the CLI created the configfs root"


def test_show_without_debugfs_job(cli, tmp_path):
    one_error_line(run(cli, "show", "nojob", env={"SSDLOAD_DEBUGFS": str(tmp_path / "x")}),
                   str(tmp_path / "x"))
    (tmp_path / "dbg").mkdir()
    one_error_line(run(cli, "show", "nojob", env={"SSDLOAD_DEBUGFS": str(tmp_path / "dbg")}),
                   "nojob")


def test_stop_unknown_job(cli, tmp_path):
    (tmp_path / "cfs" / "jobs").mkdir(parents=True)
    one_error_line(run(cli, "stop", "ghost", env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")}),
                   "ghost")


def test_list_fake_configfs(cli, tmp_path):
    jobs = tmp_path / "cfs" / "jobs"
    for name, attrs in (("b-job", {"state": "running", "filename": "/dev/nullb0",
                                   "rw": "randread", "bs": "4096", "iodepth": "8",
                                   "cpus_allowed": "0-1"}),
                        ("a-job", {"state": "idle", "filename": "", "rw": "read",
                                   "bs": "65536", "iodepth": "1", "cpus_allowed": ""})):
        (jobs / name).mkdir(parents=True)
        for k, v in attrs.items():
            (jobs / name / k).write_text(v + "\n")
    p = run(cli, "list", env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    assert p.returncode == 0, p.stderr
    rows = [l.split() for l in p.stdout.splitlines()]
    assert rows[0][:2] == ["NAME", "STATE"]
    assert rows[1][:2] == ["a-job", "idle"] and "65536" in rows[1]
    assert rows[2] == ["b-job", "running", "/dev/nullb0", "randread", "4096", "8", "0-1"]


# --------------------------------------------------------------------------
# show: results from a fake debugfs job

def check_lat(lat, sample, percentiles=True):
    s = sorted(sample)
    assert lat["N"] == len(s)
    assert lat["min"] == s[0] and lat["max"] == s[-1]
    assert isinstance(lat["min"], int) and isinstance(lat["mean"], float)
    assert lat["mean"] == pytest.approx(statistics.fmean(s), rel=1e-9)
    assert lat["stddev"] == pytest.approx(statistics.pstdev(s), rel=1e-6)
    if not percentiles:
        return
    keys = ["%f" % p for p in FIO_PERCENTILES]
    assert list(lat["percentile"]) == keys
    for p, k in zip(FIO_PERCENTILES, keys):
        exact = exact_percentile(s, p)
        got = lat["percentile"][k]
        assert isinstance(got, int)
        assert abs(got - exact) <= exact / 256 + 0.5, \
            "p%s: %d vs exact %d (%.3f%%)" % (p, got, exact, 100 * (got - exact) / exact)


def show_json(cli, fake, *extra):
    p = run(cli, "show", fake.name, "--output-format=json", *extra, env=fake.env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_show_json_counts_and_rates(cli, fake):
    out = show_json(cli, fake)
    job = out["jobs"][0]
    assert job["jobname"] == fake.name and job["error"] == 0
    assert job["job options"]["name"] == fake.name
    secs = fake.runtime_ns / 1e9
    for d, s in (("read", fake.reads), ("write", fake.writes)):
        r = job[d]
        assert r["total_ios"] == len(s)
        assert r["io_bytes"] == len(s) * fake.bs
        assert r["io_kbytes"] == len(s) * fake.bs // 1024
        assert r["iops"] == pytest.approx(len(s) / secs, rel=1e-9)
        assert abs(r["bw_bytes"] - len(s) * fake.bs / secs) <= 1
        assert abs(r["bw"] - len(s) * fake.bs / secs / 1024) <= 1
        assert r["runtime"] == round(fake.runtime_ns / 1e6)
        assert r["short_ios"] == 0 and r["drop_ios"] == 0
    assert job["trim"]["total_ios"] == 0 and job["trim"]["iops"] == 0.0
    assert job["job_runtime"] == round(fake.runtime_ns / 1e6)


def test_show_json_latency_and_percentiles(cli, fake):
    job = show_json(cli, fake)["jobs"][0]
    for d, s in (("read", fake.reads), ("write", fake.writes)):
        check_lat(job[d]["clat_ns"], s)
        check_lat(job[d]["lat_ns"], s)
        assert job[d]["slat_ns"]["N"] == 0


def test_show_json_percentile_list(cli, fake):
    job = show_json(cli, fake, "--percentile_list=25:50:99.999")["jobs"][0]
    pct = job["read"]["clat_ns"]["percentile"]
    assert list(pct) == ["25.000000", "50.000000", "99.999000"]
    for p in (25, 50, 99.999):
        exact = exact_percentile(fake.reads, p)
        assert abs(pct["%f" % p] - exact) <= exact / 256 + 0.5


def test_show_json_latency_distribution(cli, fake):
    job = show_json(cli, fake)["jobs"][0]
    allv = fake.reads + fake.writes
    total = sum(job["latency_ns"].values()) + sum(job["latency_us"].values()) + \
        sum(job["latency_ms"].values())
    assert total == pytest.approx(100.0, abs=1e-3)
    assert list(job["latency_ms"])[-1] == ">=2000"
    # [100, 250) us: placed by bucket midpoints, so allow the bucket error at the edges
    share = 100.0 * sum(1 for v in allv if 100_000 <= v < 250_000) / len(allv)
    assert job["latency_us"]["250"] == pytest.approx(share, abs=0.5)


def fio_reference(tmp_path):
    if not shutil.which("fio"):
        pytest.skip("fio is not installed")
    f = tmp_path / "fio.dat"
    p = subprocess.run(["fio", "--name=ref", "--filename=" + str(f), "--size=1m",
                        "--rw=randrw", "--ioengine=psync", "--output-format=json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout[p.stdout.index("{"):])


def same_shape(ours, ref, path):
    """Every key fio has is present with the same JSON type (recursively)."""
    for k, v in ref.items():
        if path.endswith("percentile") or path.endswith("job options"):
            break
        assert k in ours, "%s: missing fio key %r" % (path, k)
        o = ours[k]
        if isinstance(v, bool) or isinstance(o, bool):
            assert type(o) is type(v), (path, k)
        elif isinstance(v, float):
            assert isinstance(o, float), "%s.%s: fio has a float, we %r" % (path, k, o)
        elif isinstance(v, int):
            assert isinstance(o, int), "%s.%s: fio has an int, we %r" % (path, k, o)
        else:
            assert type(o) is type(v), "%s.%s: %s vs %s" % (path, k, type(o), type(v))
        if isinstance(v, dict):
            same_shape(o, v, path + "." + k)


def test_show_json_has_fio_keys_and_types(cli, fake, tmp_path):
    ref = fio_reference(tmp_path)
    out = show_json(cli, fake)
    ref_top = {k: v for k, v in ref.items() if k not in ("disk_util", "jobs")}
    same_shape(out, ref_top, "")
    assert isinstance(out["disk_util"], list)
    same_shape(out["jobs"][0], ref["jobs"][0], "jobs[0]")
    # the percentile object uses fio's key format
    assert set(out["jobs"][0]["read"]["clat_ns"]["percentile"]) == \
        set(ref["jobs"][0]["read"]["clat_ns"]["percentile"])


def test_show_normal_output(cli, fake):
    p = run(cli, "show", fake.name, env=fake.env)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert out.startswith(fake.name + ": (groupid=0, jobs=2): err= 0:")
    iops = len(fake.reads) / (fake.runtime_ns / 1e9)
    m = re.search(r"^  read: IOPS=([\d.]+)k, BW=", out, re.M)
    assert m and float(m.group(1)) == pytest.approx(iops / 1000, abs=0.051), out
    assert re.search(r"^  write: IOPS=", out, re.M)
    assert "total I/Os: read=%d, write=%d" % (len(fake.reads), len(fake.writes)) in out
    # read p50 of ~180 us: usec block, value rounded up like fio
    m = re.search(r"clat percentiles \(usec\):\n((?:     \|.*\n)+)", out)
    assert m, out
    p50 = int(re.search(r"50\.00th=\[\s*(\d+)\]", m.group(1)).group(1))
    exact = exact_percentile(fake.reads, 50) / 1000.0
    assert abs(p50 - exact) <= exact / 256 + 1
    assert re.search(r"^    clat \(usec\): min=\d+, max=\d+, avg=[\d.]+, stdev=[\d.]+$",
                     out, re.M)


def test_show_accepts_longer_header(cli, geo, samples, tmp_path):
    """Readers must honour header_size (newer versions may append fields)."""
    job = FakeJob(geo, str(tmp_path), "padded", *samples, pad=16)
    out = show_json(cli, type("E", (), {"name": "padded", "env": {
        "SSDLOAD_DEBUGFS": str(tmp_path)}})())
    check_lat(out["jobs"][0]["read"]["clat_ns"], job.reads)


@pytest.mark.parametrize("kw,needle", [
    ({"magic": 0x12345678}, "magic"),
    ({"sub_bits": 6}, "geometry"),
])
def test_show_rejects_bad_hist(cli, geo, tmp_path, kw, needle):
    FakeJob(geo, str(tmp_path), "bad", [1000, 2000], [3000], **kw)
    one_error_line(run(cli, "show", "bad", env={"SSDLOAD_DEBUGFS": str(tmp_path)}),
                   "hist_read", needle)


def test_show_truncated_hist(cli, geo, tmp_path):
    FakeJob(geo, str(tmp_path), "short", [1000, 2000], [3000])
    path = tmp_path / "short" / "hist_write"
    path.write_bytes(path.read_bytes()[:-8])
    one_error_line(run(cli, "show", "short", env={"SSDLOAD_DEBUGFS": str(tmp_path)}),
                   "hist_write")


def test_show_read_only_job(cli, geo, tmp_path):
    """A direction without I/O is reported with zeros and no percentiles."""
    FakeJob(geo, str(tmp_path), "ro", lognormal(3, 1000, 50_000, 0.3), [])
    os.unlink(tmp_path / "ro" / "hist_write")
    p = run(cli, "show", "ro", "--output-format", "json",
            env={"SSDLOAD_DEBUGFS": str(tmp_path)})
    assert p.returncode == 0, p.stderr
    w = json.loads(p.stdout)["jobs"][0]["write"]
    assert w["total_ios"] == 0 and w["iops"] == 0.0 and w["clat_ns"]["N"] == 0
    assert "percentile" not in w["clat_ns"]
    p = run(cli, "show", "ro", env={"SSDLOAD_DEBUGFS": str(tmp_path)})
    assert "  read: IOPS=" in p.stdout and "  write:" not in p.stdout


def test_stdout_write_error_fails(cli, fake):
    with open("/dev/full", "w") as full:
        p = run(cli, "show", fake.name, env=fake.env, stdout=full)
    assert p.returncode != 0 and "standard output" in p.stderr


def test_run_attribute_failure_removes_job(cli, tmp_path):
    """A refused attribute write names attribute=value and errno, and rmdirs the job."""
    jobs = tmp_path / "cfs" / "jobs"
    jobs.mkdir(parents=True)
    dbg = tmp_path / "dbg"
    dbg.mkdir()
    # a plain directory: mkdir works, but the job has no attribute files
    p = run(cli, "run", "--name=unitrun", "--filename=/dev/unit0", "--bs=8k",
            env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs"), "SSDLOAD_DEBUGFS": str(dbg)})
    one_error_line(p, "filename=/dev/unit0", os.strerror(2))
    assert list(jobs.iterdir()) == [], "the job directory was left behind"


def test_run_existing_job_name(cli, tmp_path):
    jobs = tmp_path / "cfs" / "jobs"
    (jobs / "taken").mkdir(parents=True)
    (tmp_path / "dbg").mkdir()
    p = run(cli, "run", "--name=taken", "--filename=/dev/unit0",
            env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs"),
                 "SSDLOAD_DEBUGFS": str(tmp_path / "dbg")})
    one_error_line(p, "taken", "exists")
    assert (jobs / "taken").is_dir(), "another user's job was removed"
