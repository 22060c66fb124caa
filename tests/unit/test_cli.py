# SPDX-License-Identifier: GPL-2.0
"""The ssdload CLI without a kernel module.

Path roots are redirected with SSDLOAD_CONFIGFS / SSDLOAD_DEBUGFS /
SSDLOAD_CPU_ONLINE.  `ssdload show` reads a fake debugfs job (lib/debugfs.py)
written from a known random sample; every expected value is computed in Python
from that sample (the bucket maths is re-implemented from the constants
of uapi/ssdload.h), never copied from the program's output.
"""
import errno
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import threading
import time

import pytest

from cli import one_error_line, parse_only, run, show_json
from debugfs import (FIO_PERCENTILES, FakeJob, FakeRateJob, check_lat, exact_percentile,
                     lognormal)
from fakemodule import FAKE_ATTRS, report_count




# --------------------------------------------------------------------------
# command line

def test_help_and_version(cli):
    assert run(cli, "--help").returncode == 0
    for c in ("run", "list", "show", "stop", "start"):
        p = run(cli, "help", c)
        assert p.returncode == 0 and "usage: ssdload " + c in p.stdout, p.stdout
    p = run(cli, "--version")
    assert p.returncode == 0 and p.stdout.startswith("ssdload version ")
    one_error_line(run(cli, "frobnicate"), "frobnicate")
    assert run(cli).returncode != 0


def test_unknown_option(cli):
    one_error_line(run(cli, "run", "--filename=/dev/x", "--bogus-opt=3"), "--bogus-opt")
    one_error_line(run(cli, "run", "--filename=/dev/x", "--iodepht=3"), "--iodepht",
                   "did you mean", "--iodepth")


def test_noop_options_noted(cli):
    """fio's engine-side options are accepted, each with a note on stderr."""
    p = run(cli, "run", "--filename=/dev/unit-test", "--parse-only", "--ioengine", "libaio",
            "--thread", "--invalidate=1", "--fadvise_hint=0", "--clocksource=clock_gettime")
    assert p.returncode == 0, p.stderr
    notes = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(notes) == 5, notes
    assert all(l.startswith("ssdload: note: ") and "ignored" in l for l in notes), notes
    assert "--ioengine=libaio ignored" in notes[0] or any(
        "--ioengine=libaio ignored" in l for l in notes), notes
    assert any("--thread ignored" in l for l in notes), notes
    assert set(parse_only(cli, "--ioengine=sync")) == set(parse_only(cli))


@pytest.mark.parametrize("opt,val", [
    ("bs", "4q"), ("bs", "-4k"), ("bs", "k"), ("bs", "99999999999999999999"),
    ("size", "1z"), ("offset", "1.3k"), ("runtime", "soon"), ("runtime", "10x"),
    ("ramp_time", "-1"), ("iodepth", "many"), ("rwmixread", "101"),
    ("rw", "sideways"), ("output-format", "xml"), ("percentile_list", "50:abc"),
    ("percentile_list", "0"), ("allow_write", "maybe"), ("numjobs", "0"),
    ("randseed", "0xzz"), ("cpus_allowed", "a-b"),
    ("eta", "sometimes"), ("eta", "1"), ("status-interval", "soon"),
    ("status-interval", "0"), ("status-interval", "100ms"), ("status_interval", "-2"),
    ("io_timeout_ms", "5s"), ("io_timeout_ms", "-1"), ("io_timeout_ms", "1.5"),
    ("scramble_buffers", "maybe"), ("scramble_buffers", "2"),
])
def test_bad_values(cli, opt, val):
    one_error_line(run(cli, "run", "--filename=/dev/x", "--%s=%s" % (opt, val)), val)


def test_numjobs_with_cpus_allowed(cli):
    """fio allows both: numjobs workers, round-robin over the given CPUs."""
    a = parse_only(cli, "--numjobs=4", "--cpus_allowed=0-1")
    assert a["numjobs"] == "4" and a["cpus_allowed"] == "0-1"


def test_filename_required(cli):
    one_error_line(run(cli, "run", "--rw=read"), "filename")


@pytest.mark.parametrize("text,mult", [
    ("", 1), ("b", 1), ("k", 1 << 10), ("K", 1 << 10), ("kb", 1 << 10), ("KiB", 1000),
    ("m", 1 << 20), ("MiB", 10**6), ("g", 1 << 30), ("gib", 10**9), ("t", 1 << 40),
])
def test_sizes_base_1024(cli, text, mult):
    """fio's default kb_base=1024: k/kb are 1024, kib is 1000 (fio's compatibility mode)."""
    # values the module takes: offset and size in 512-byte multiples
    a = parse_only(cli, "--offset", "1536" + text, "--size=3584" + text)
    assert int(a["offset"]) == 1536 * mult
    assert int(a["size"]) == 3584 * mult
    if 4 * mult % 512 == 0 and 4 * mult <= 16 << 20:
        assert int(parse_only(cli, "--bs=4" + text)["bs"]) == 4 * mult


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


def test_io_timeout_and_scramble_buffers(cli):
    """Both map to their attributes, and are written only when given (older
    modules have neither attribute)."""
    a = parse_only(cli, "--io_timeout_ms=250", "--scramble_buffers=0")
    assert a["io_timeout_ms"] == "250" and a["scramble_buffers"] == "0"
    assert parse_only(cli, "--io_timeout_ms", "0")["io_timeout_ms"] == "0"
    assert parse_only(cli, "--scramble_buffers")["scramble_buffers"] == "1"
    assert parse_only(cli, "--scramble-buffers", "1")["scramble_buffers"] == "1"
    a = parse_only(cli)
    assert "io_timeout_ms" not in a and "scramble_buffers" not in a


@pytest.mark.parametrize("args", [
    ["--eta=always"], ["--eta", "never"], ["--eta=auto"], ["--status-interval=2"],
    ["--status_interval", "500ms"], ["--status-interval=1m", "--eta=never"],
    ["--status-interval=200ms"],
])
def test_eta_and_status_interval_accepted(cli, args):
    """--eta and --status-interval are the CLI's own: no attribute is written."""
    assert set(parse_only(cli, *args)) == set(parse_only(cli))


def test_status_interval_message(cli):
    line = one_error_line(run(cli, "run", "--filename=/dev/x", "--status-interval=150ms"),
                          "--status-interval=150ms")
    assert "200ms" in line
    one_error_line(run(cli, "run", "--filename=/dev/x", "--eta=sometimes"),
                   "always", "auto", "never")


def test_run_usage_documents_signals(cli):
    p = run(cli, "run", "--help")
    assert p.returncode == 0
    for needle in ("--eta=WHEN", "--status-interval=TIME", "--io_timeout_ms=N",
                   "--scramble_buffers", "128+N", "130 SIGINT", "143 SIGTERM", "lease"):
        assert needle in p.stdout, needle


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
        assert a["numjobs"] == str(n)
    # more workers than CPUs: several per CPU, over all of them
    a = parse_only(cli, "--numjobs=9", env=env)
    assert a["numjobs"] == "9" and a["cpus_allowed"] == "0-3,8-9"
    one_error_line(run(cli, "run", "--filename=/dev/x", "--numjobs=1025", env=env),
                   "--numjobs=1025", "1024")


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


def test_show_json_has_fio_keys_and_types(cli, geo, samples, tmp_path):
    """Every key of fio's job entry, with its JSON type, for a job whose
    module gave all it measures (the depth distributions included)."""
    ref = fio_reference(tmp_path)
    root = tmp_path / "debugfs"
    fake = FakeJob(geo, str(root), "unitjob", *samples,
                   extra=("iodepth_level=0 0 0 10 90 0 0", "iodepth_submit=0 50 50 0 0 0 0",
                          "iodepth_complete=0 100 0 0 0 0 0"))
    fake.env = {"SSDLOAD_DEBUGFS": str(root), "SSDLOAD_CONFIGFS": str(tmp_path / "no-cfs")}
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


NEW_KEYS = ("hipri=1", "polled=0", "poll_fallback=no_poll_queues", "split_ios=12",
            "nowait_retries=7", "io_timeout_ms=1500", "timed_out_ios=3",
            "randseed=18446744073709551615", "worker0_ran_on=0", "worker1_ran_on=3-4")


def test_show_new_summary_keys(cli, geo, tmp_path):
    """poll_fallback, split_ios, nowait_retries, timed_out_ios and workerN_ran_on
    become notes in the text report and keys of jobs[0].ssdload in the JSON."""
    FakeJob(geo, str(tmp_path), "newkeys", lognormal(4, 500, 40_000, 0.3), [],
            extra=NEW_KEYS)
    env = {"SSDLOAD_DEBUGFS": str(tmp_path)}
    p = run(cli, "show", "newkeys", env=env)
    assert p.returncode == 0, p.stderr
    notes = [l for l in p.stdout.splitlines() if l.startswith(("  note ", "  warning "))]
    assert notes == [
        "  note         : hipri=1 ran with interrupt completions: the device has no "
        "poll queues (poll_fallback=no_poll_queues)",
        "  note         : 12 I/Os were split by the block layer into more than one request",
        "  note         : 7 polled submissions found no free tag and were retried",
        "  warning      : 3 I/Os were in flight longer than io_timeout_ms=1500",
        "  note         : worker 1, bound to cpu3, ran on CPUs 3-4",
    ], p.stdout
    # notes come before the group summary, like fio's per-job lines
    assert p.stdout.index("  warning") < p.stdout.index("Run status group")

    job = show_json(cli, type("E", (), {"name": "newkeys", "env": env})())["jobs"][0]
    ext = job["ssdload"]
    assert ext["state"] == "done" and ext["hipri"] == 1 and ext["polled"] == 0
    assert ext["poll_fallback"] == "no_poll_queues"
    assert (ext["split_ios"], ext["nowait_retries"]) == (12, 7)
    assert (ext["io_timeout_ms"], ext["timed_out_ios"]) == (1500, 3)
    assert ext["randseed"] == 2**64 - 1, "u64 seeds must not wrap"
    assert [(w["cpu"], w["ran_on"]) for w in ext["workers"]] == [(0, "0"), (3, "3-4")]
    assert sum(w["read_ios"] for w in ext["workers"]) == job["read"]["total_ios"]
    # fio's own keys keep their meaning
    assert "ssdload" not in job["job options"] and job["error"] == 0


@pytest.mark.parametrize("fallback,why", [
    ("bio_based", "bio-based"), ("split", "split"), ("something_new", "kernel log"),
])
def test_show_poll_fallback_reasons(cli, geo, tmp_path, fallback, why):
    FakeJob(geo, str(tmp_path), "pf", [5000, 6000], [], extra=("poll_fallback=" + fallback,))
    p = run(cli, "show", "pf", env={"SSDLOAD_DEBUGFS": str(tmp_path)})
    line = [l for l in p.stdout.splitlines() if "interrupt completions" in l]
    assert len(line) == 1 and why in line[0] and fallback in line[0], p.stdout


def test_show_older_summary(cli, fake):
    """A module without the new keys: no notes, and only what it printed in JSON."""
    p = run(cli, "show", fake.name, env=fake.env)
    assert p.returncode == 0 and " note " not in p.stdout and "warning" not in p.stdout
    ext = show_json(cli, fake)["jobs"][0]["ssdload"]
    assert set(ext) == {"state", "workers"}
    assert [set(w) for w in ext["workers"]] == \
        [{"cpu", "read_ios", "write_ios", "read_errors", "write_errors"}] * 2


def test_show_quiet_when_nothing_happened(cli, geo, tmp_path):
    """Zero counts, poll_fallback=none and ran_on = the bound CPU print no note."""
    FakeJob(geo, str(tmp_path), "calm", [5000, 6000], [], extra=(
        "poll_fallback=none", "split_ios=0", "nowait_retries=0", "io_timeout_ms=0",
        "timed_out_ios=0", "worker0_ran_on=0", "worker1_ran_on=3"))
    p = run(cli, "show", "calm", env={"SSDLOAD_DEBUGFS": str(tmp_path)})
    assert p.returncode == 0 and " note " not in p.stdout and "warning" not in p.stdout


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


# --------------------------------------------------------------------------
# run: signals, lease, kept jobs, progress; against a fake module
# (lib/fakemodule.py)

def test_fake_run_plain(fakerun):
    """The baseline: lease held from before enable, report printed, job removed."""
    r = fakerun(runtime=0.3).start()
    rc, out, err = r.finish()
    assert rc == 0, err
    assert r.module.lease_held is True, "the lease was not open when enable=1 was written"
    assert report_count(out, r.name) == 1 and err == ""
    assert not r.job_exists()


@pytest.mark.parametrize("sig,code", [
    (signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129),
    (signal.SIGQUIT, 131), (signal.SIGUSR1, 128 + signal.SIGUSR1),
])
def test_fake_run_signal_stops_job(fakerun, sig, code):
    """First signal: enable=0, wait out stopping, print the results, rmdir,
    exit 128+signo, nothing on stderr."""
    r = fakerun(drain=1.0).start().wait_running()
    r.kill(sig)
    assert r.module.stop_seen.wait(5), "enable=0 was not written"
    time.sleep(0.2)
    assert r.proc.poll() is None, "exited while the job was still stopping"
    rc, out, err = r.finish()
    assert rc == code, err
    assert report_count(out, r.name) == 1, out
    assert not r.job_exists(), "the job was left behind"
    assert "ssdload:" not in err, err


def test_fake_run_second_and_third_signal(fakerun):
    """Second Ctrl-C: one line saying what the stop waits for.  Third: exit
    at once, the draining job left to the kernel, and where to look."""
    r = fakerun(drain=None, inflight=3).start().wait_running()
    r.kill(signal.SIGINT)
    assert r.module.stop_seen.wait(5)
    r.kill(signal.SIGINT, settle=0.4)
    assert r.proc.poll() is None, "the second signal must not end the wait"
    t = time.monotonic()
    r.kill(signal.SIGINT, settle=0)
    rc, out, err = r.finish(timeout=5)
    assert time.monotonic() - t < 2, "the third signal did not exit at once"
    assert rc == 130
    lines = err.splitlines()
    assert lines[0] == ("ssdload: stop requested; waiting for 3 in-flight I/O to "
                        "complete (Ctrl-C again to leave it to the kernel)"), err
    assert len(lines) == 2 and lines[1].startswith("ssdload: leaving job 'fakerun'"), err
    assert "ssdload show fakerun" in lines[1] and "ssdload stop fakerun" in lines[1]
    assert r.job_exists(), "the job must stay for ssdload show"
    assert report_count(out, r.name) == 0


def test_fake_run_second_signal_then_drained(fakerun):
    """An older module's progress has no inflight, /dev/unit0 no sysfs count."""
    r = fakerun(drain=None).start().wait_running()
    r.kill(signal.SIGTERM)
    assert r.module.stop_seen.wait(5)
    r.kill(signal.SIGTERM, settle=0.3)
    r.module.release.set()
    rc, out, err = r.finish()
    assert rc == 143 and report_count(out, r.name) == 1 and not r.job_exists()
    assert err.count("waiting for the in-flight I/O") == 1 and "signal again" in err


def test_fake_run_ignored_signal_stays_ignored(fakerun):
    """nohup: a SIGHUP ignored at start is not caught, the run goes on."""
    r = fakerun(runtime=1.0).start(ignore=(signal.SIGHUP,)).wait_running()
    r.kill(signal.SIGHUP)
    rc, out, err = r.finish()
    assert rc == 0, err
    assert not r.module.stop_seen.is_set()
    assert report_count(out, r.name) == 1


def test_fake_run_sighup_with_dead_stdout(fakerun, tmp_path):
    """After a hangup the report cannot be written: the stopped job stays
    with its results, and the exit status is still the signal's."""
    with open("/dev/full", "w") as full:
        r = fakerun(drain=0.1).start(stdout=full).wait_running()
        r.kill(signal.SIGHUP)
        rc, _, err = r.finish()
    assert rc == 129, err
    assert r.module.stop_seen.is_set()
    assert r.job_exists(), "unprinted results must not be removed"
    assert "ssdload show fakerun" in err and "standard output" in err


@pytest.mark.parametrize("ignored", [False, True])
def test_fake_run_reader_closed_pipe(fakerun, ignored):
    """`ssdload run | head`: a reader that closed its pipe had what it wanted:
    the job is removed; SIGPIPE gives 141 as if it had killed us, an ignored
    SIGPIPE the usual write error."""
    rd, wr = os.pipe()
    os.close(rd)
    try:
        r = fakerun(runtime=0.3).start(stdout=wr,
                                       ignore=(signal.SIGPIPE,) if ignored else ())
    finally:
        os.close(wr)
    rc, _, err = r.finish()
    assert not r.job_exists(), err
    assert "kept" not in err
    if ignored:
        assert rc == 1 and "standard output: " + os.strerror(errno.EPIPE) in err, err
    else:
        assert rc == 128 + signal.SIGPIPE, err


def test_fake_run_unreadable_results_keep_job(fakerun):
    r = fakerun(runtime=0.3, summary=False).start()
    rc, out, err = r.finish()
    assert rc == 1 and out == ""
    assert r.job_exists(), "the job was removed although its results were not read"
    assert "no results for job 'fakerun'" in err and "ssdload show fakerun" in err


def test_fake_run_module_without_lease(fakerun):
    """An older module has no lease file: the run works as before."""
    r = fakerun(runtime=0.3, lease=False).start()
    rc, out, err = r.finish()
    assert rc == 0 and err == "" and report_count(out, r.name) == 1


def test_fake_run_older_module_attribute(fakerun):
    """A new option on a module without its attribute: one clear line, no job."""
    attrs = tuple(a for a in FAKE_ATTRS if a != "io_timeout_ms")
    r = fakerun(runtime=0.3, attrs=attrs).start("--io_timeout_ms=100")
    rc, out, err = r.finish()
    one_error_line(subprocess.CompletedProcess([], rc, out, err),
                   "io_timeout_ms=100", os.strerror(2), "older")
    assert not r.job_exists()


def test_fake_run_older_module_without_option(fakerun):
    attrs = tuple(a for a in FAKE_ATTRS if a not in ("io_timeout_ms", "scramble_buffers"))
    r = fakerun(runtime=0.3, attrs=attrs).start()
    rc, out, err = r.finish()
    assert rc == 0 and err == "", err


def test_fake_run_older_module_without_time_based(fakerun):
    """A timed run without --time_based on a module that predates the
    time_based attribute: it runs (time based, as that module always is),
    with a note saying so."""
    attrs = tuple(a for a in FAKE_ATTRS if a != "time_based")
    r = fakerun(runtime=0.3, attrs=attrs).start()
    rc, out, err = r.finish()
    assert rc == 0, err
    assert err.count("\n") == 1 and "has no 'time_based'" in err and "whole runtime" in err, err
    assert "read:" in out, out


def test_fake_run_status_interval(fakerun):
    """--status-interval: the full report so far every interval, then the final one."""
    r = fakerun(runtime=1.3).start("--status-interval=400ms")
    rc, out, err = r.finish()
    assert rc == 0, err
    assert 3 <= report_count(out, r.name) <= 5, out


def test_fake_run_status_interval_json(fakerun):
    """With JSON, one document per report, as fio."""
    r = fakerun(runtime=1.0).start("--status-interval=300ms", "--output-format=json")
    rc, out, err = r.finish()
    assert rc == 0, err
    dec, docs, pos = json.JSONDecoder(), [], 0
    while out[pos:].strip():
        while out[pos].isspace():
            pos += 1
        doc, pos = dec.raw_decode(out, pos)
        docs.append(doc)
    assert len(docs) >= 3 and all(d["jobs"][0]["jobname"] == r.name for d in docs)


PROGRESS_LINE = re.compile(r"^fakerun: \[\d+\.\ds/60\.0s\]\[eta \d\dm:\d\ds\] read \d+ IOPS, "
                           r"write \d+ IOPS$")


def test_fake_run_eta_always(fakerun):
    """--eta=always: a progress line a second on stderr although it is not a tty."""
    r = fakerun(drain=0.05).start("--eta=always").wait_running()
    time.sleep(3.2)
    r.kill(signal.SIGINT)
    rc, out, err = r.finish()
    assert rc == 130
    lines = err.splitlines()
    assert 2 <= len(lines) <= 5, err
    assert all(PROGRESS_LINE.match(l) for l in lines), err
    assert "\r" not in err and "\033" not in err


def test_fake_run_eta_shows_timed_out_ios(fakerun):
    r = fakerun(runtime=1.5, extra="timed_out_ios=2\nstuck_ios=2\n").start("--eta=always")
    rc, out, err = r.finish()
    assert rc == 0 and err.splitlines(), err
    assert all(l.endswith(" write 0 IOPS, 2 I/Os over io_timeout_ms")
               for l in err.splitlines()), err


@pytest.mark.parametrize("eta", [[], ["--eta=auto"], ["--eta=never"]])
def test_fake_run_no_eta_without_tty(fakerun, eta):
    r = fakerun(runtime=1.5).start(*eta)
    rc, out, err = r.finish()
    assert rc == 0 and err == "", err


def test_stop_waits_while_stopping(cli, tmp_path):
    """ssdload stop returns only once the job is neither running nor stopping."""
    job = tmp_path / "cfs" / "jobs" / "draining"
    job.mkdir(parents=True)
    (job / "enable").write_text("1\n")
    (job / "state").write_text("stopping\n")

    def later():
        time.sleep(0.6)
        (tmp_path / "state").write_text("stopped\n")
        os.replace(tmp_path / "state", job / "state")
    t = threading.Thread(target=later)
    start = time.monotonic()
    t.start()
    p = run(cli, "stop", "draining", env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    t.join()
    assert p.returncode == 0, p.stderr
    assert time.monotonic() - start >= 0.6
    assert (job / "enable").read_text().startswith("0")


# --------------------------------------------------------------------------
# fio options of issue 7: conversions to the module's attribute formats

@pytest.mark.parametrize("args,attr,want", [
    # bssplit: sizes to bytes, percentages kept, blank = a share of the rest
    (["--bssplit=4k/10:64k/50:32k/40"], "bssplit", "4096/10:65536/50:32768/40"),
    (["--bssplit=4k/50:1k/:32k/"], "bssplit", "4096/50:1024/:32768/"),
    (["--bssplit=4k/50:8k"], "bssplit", "4096/50:8192/"),
    (["--bssplit=4k/0:8k/100"], "bssplit", "4096/:8192/100"),      # fio: 0 = blank
    (["--bssplit", "2k/50:4k/50,4k/90:8k/10"], "bssplit",
     "2048/50:4096/50,4096/90:8192/10,4096/90:8192/10"),          # trim = write
    # bsrange: always three directions, "-" or ":" as fio
    (["--bsrange=1k-4k"], "bsrange", "1024-4096,1024-4096,1024-4096"),
    (["--bsrange=1k:4k,2k-8k"], "bsrange", "1024-4096,2048-8192,2048-8192"),
    (["--blocksize_range=4k-4k,8k-64k,"], "bsrange", "4096-4096,8192-65536,4096-4096"),
    (["--bs=16k", "--bsrange=,4k-8k"], "bsrange", "16384-16384,4096-8192,4096-8192"),
    # bs per direction: min = max
    (["--bs=8k,32k"], "bsrange", "8192-8192,32768-32768,32768-32768"),
    (["--bs=8k,32k,"], "bsrange", "8192-8192,32768-32768,4096-4096"),
    (["--bs=,8k"], "bsrange", "4096-4096,8192-8192,8192-8192"),
    (["--bs=4k,64k,1m"], "bsrange", "4096-4096,65536-65536,1048576-1048576"),
    (["--blockalign=8k", "--bs=8k"], "blockalign", "8192"),
    (["--ba=4k,4k"], "blockalign", "4096"),
    (["--ba", "0"], "blockalign", "0"),
    # random_distribution: validated, normalised, fio's defaults filled in
    (["--random_distribution=random"], "random_distribution", "random"),
    (["--random_distribution=zipf"], "random_distribution", "zipf:1.1"),
    (["--random_distribution=zipf:1.20"], "random_distribution", "zipf:1.2"),
    (["--random_distribution=pareto"], "random_distribution", "pareto:0.2"),
    (["--random_distribution=pareto:0.125"], "random_distribution", "pareto:0.125"),
    (["--random_distribution=normal:12.5"], "random_distribution", "normal:12.5"),
    (["--random_distribution=zoned:60/10:30/20:8/30:2/40"], "random_distribution",
     "zoned:60/10:30/20:8/30:2/40"),
    (["--random_distribution=zoned:50/50:50/50,100/100,"], "random_distribution",
     None),   # empty trim list: rejected below
    (["--random_distribution=zoned:33.333333/50:66.666667/50"], "random_distribution",
     "zoned:33.333333/50:66.666667/50"),
    (["--random_distribution=zoned_abs:60/20g:30/100g:10/500g"], "random_distribution",
     "zoned_abs:60/%d:30/%d:10/%d" % (20 << 30, 100 << 30, 500 << 30)),
    (["--random_distribution=zoned:90/10:10/90,100/100"], "random_distribution",
     "zoned:90/10:10/90,100/100,100/100"),
    (["--random_scatter=0"], "random_scatter", "0"),
    (["--random_scatter"], "random_scatter", "1"),
    # offset/size: bytes or a percentage of each device
    (["--offset=25%"], "offset", "25%"),
    (["--offset=12.50%"], "offset", "12.5%"),
    (["--size=100%"], "size", "100%"),
    (["--size=0.0001%"], "size", "0.0001%"),
    (["--size=2g"], "size", str(2 << 30)),
    # data options
    (["--buffer_compress_percentage=70"], "buffer_compress_percentage", "70"),
    (["--buffer_compress_chunk=4k"], "buffer_compress_chunk", "4096"),
    (["--dedupe_percentage", "0"], "dedupe_percentage", "0"),
    (["--zero_buffers"], "zero_buffers", "1"),
    (["--refill_buffers=0"], "refill_buffers", "0"),
    (["--file_service_type=roundrobin"], "file_service_type", "roundrobin"),
    (["--file_service_type=random:4"], "file_service_type", "random:4"),
    (["--file_service_type=sequential:1000"], "file_service_type", "sequential:1000"),
    (["--rw=trim"], "rw", "trim"),
    (["--rw=randtrim"], "rw", "randtrim"),
    (["--rw=trimwrite"], "rw", "trimwrite"),
    (["--rw=randtrimwrite"], "rw", "randtrimwrite"),
])
def test_new_option_conversions(cli, args, attr, want):
    if want is None:
        one_error_line(run(cli, "run", "--filename=/dev/x", *args), args[0].split("=")[0])
        return
    a = parse_only(cli, *args)
    assert a[attr] == want, (args, a)


def test_new_options_written_only_when_given(cli):
    a = parse_only(cli)
    for attr in ("bssplit", "bsrange", "blockalign", "random_distribution", "random_scatter",
                 "buffer_compress_percentage", "buffer_compress_chunk", "dedupe_percentage",
                 "buffer_pattern", "zero_buffers", "refill_buffers", "file_service_type",
                 "numjobs"):
        assert attr not in a, attr
    # a single --bs stays the bs attribute (no bsrange)
    a = parse_only(cli, "--bs=64k")
    assert a["bs"] == "65536" and "bsrange" not in a


@pytest.mark.parametrize("opt,val,needle", [
    ("bssplit", "4k/60:8k/60", "more than 100"),
    ("bssplit", "4k/50:8k/40", "not 100"),
    ("bssplit", "4k/101", "0..100"),
    ("bssplit", "4k/x", "percentage"),
    ("bssplit", "4q/100", "4q/100"),
    ("bssplit", "1000/100", "512"),
    ("bssplit", "4k/50::8k/50", "empty"),
    ("bssplit", "4k/100,4k/100,4k/100,4k/100", "three"),
    ("bssplit", ":".join("%dk/1" % (i + 1) for i in range(65)), "64"),
    ("bssplit", "32m/100", "16MiB"),
    ("bsrange", "8k-4k", "min is above max"),
    ("bsrange", "4k-", "range"),
    ("bsrange", "1k-3000", "512"),
    ("bs", "4k,zz", "zz"),
    ("ba", "4k,8k", "one alignment"),
    ("blockalign", "1000", "512"),
    ("random_distribution", "zipf:1.2:0.25", "center"),
    ("random_distribution", "zipf:1", "theta"),
    ("random_distribution", "zipf:-1", "decimal"),
    ("random_distribution", "zipf:1.0000001", "6 decimals"),
    ("random_distribution", "pareto:1", "(0, 1)"),
    ("random_distribution", "normal", "deviation"),
    ("random_distribution", "normal:100", "(0, 100)"),
    ("random_distribution", "zoned:60/10:30/20", "90, not 100"),
    ("random_distribution", "zoned:50/60:50/60", "sizes add up"),
    ("random_distribution", "zoned:100", "access%/size%"),
    ("random_distribution", "zoned_abs:100/zz", "size"),
    ("random_distribution", "sequence:1,2,3", "not supported"),
    ("random_distribution", "gamma:2", "unknown distribution"),
    ("random_scatter", "2", "0 or 1"),
    ("offset", "0%", "above 0"),
    ("offset", "101%", "at most 100"),
    ("size", "1.23456%", "4 decimals"),
    ("size", "x%", "percentage"),
    ("buffer_compress_percentage", "101", "0 to 100"),
    ("dedupe_percentage", "-5", "0 to 100"),
    ("buffer_compress_chunk", "0", "1 byte"),
    ("buffer_compress_chunk", "32m", "16MiB"),
    ("zero_buffers", "maybe", "0 or 1"),
    ("refill_buffers", "3", "0 or 1"),
    ("file_service_type", "zipf:1.2", "not supported"),
    ("file_service_type", "lottery", "roundrobin"),
    ("file_service_type", "random:0", "1.."),
    ("rw", "trimread", "randtrimwrite"),
    ("numjobs", "2000", "1 to 1024"),
    ("filename", "/dev/a::/dev/b", "empty"),
    ("filename", "/dev/a:/dev/a", "twice"),
    ("filename", ":".join("/dev/d%d" % i for i in range(17)), "16"),
    ("buffer_pattern", "%o", "not supported"),
    ("buffer_pattern", '"ab', "unterminated"),
    ("buffer_pattern", '""', "empty"),
    ("buffer_pattern", "0x" + "ab" * 513, "512"),
    ("buffer_pattern", "2147483648", "decimal int"),
    ("buffer_pattern", "0xab||0xcd", "'|'"),
    ("buffer_pattern", "'/nonexistent/pattern-file'", "No such file"),
])
def test_new_option_rejected(cli, opt, val, needle):
    """One line naming the option and its value, saying why; nothing created."""
    args = ["run", "--filename=/dev/x", "--%s=%s" % (opt, val)]
    if opt == "filename":
        args = ["run", "--filename=" + val]
    line = one_error_line(run(cli, *args), "--%s=" % opt, needle)
    assert val[:40] in line


# fio's lib/pattern.c examples (#1..#7, #10) and the HOWTO's forms
@pytest.mark.parametrize("pattern,hexbytes", [
    ('"abcd"', "61626364"),
    ("-1024", "00fcffff"),
    ("66", "42"),
    ("0xFF0X1", "ff01"),
    ('"123"0xFFeeCC', "313233ffeecc"),
    ('-100xab"1"', "f6ffffffab31"),
    ("0x" + "fe" * 21, "fe" * 21),
    ("0xdeadbeef", "deadbeef"),
    ("0xdeadface", "deadface"),
    ("-12", "f4ffffff"),
    ("0", "00"),
    ("256", "0001"),
    ("0x1ff", "01ff"),
    ("0xff0x14", "ff14"),
    ('0xdeadface"abcd"-12', "deadface61626364f4ffffff"),
    # '|' between elements (an ssdload extension: fio concatenates)
    ('0xdeadbeef|"ab"|7', "deadbeef616207"),
    ("0x" + "ab" * 512, "ab" * 512),
])
def test_buffer_pattern_conversions(cli, pattern, hexbytes):
    assert parse_only(cli, "--buffer_pattern=" + pattern)["buffer_pattern"] == "0x" + hexbytes


def test_buffer_pattern_from_file(cli, tmp_path):
    """fio's 'file' element: the file's bytes, truncated to 512."""
    f = tmp_path / "pat.bin"
    f.write_bytes(bytes(range(256)) * 3)
    a = parse_only(cli, "--buffer_pattern=0x01'%s'" % f)
    assert a["buffer_pattern"] == "0x01" + (bytes(range(256)) * 2)[:511].hex()


def test_filename_list(cli):
    """fio's colon list, written as given; '\\:' escapes a colon in a name."""
    a = parse_only(cli, "--filename=/dev/a:/dev/b")
    assert a["filename"] == "/dev/a:/dev/b"
    p = run(cli, "run", "--filename=/dev/a\\:1:/dev/a", "--parse-only")
    assert p.returncode == 0 and "filename=/dev/a\\:1:/dev/a\n" in p.stdout, p.stderr
    # "\:" makes /dev/a:1 a name of its own: not the same device as /dev/a
    one_error_line(run(cli, "run", "--filename=/dev/a\\:1:/dev/a\\:1"), "twice", "/dev/a:1")


def test_run_usage_lists_new_options(cli):
    out = run(cli, "run", "--help").stdout
    for needle in ("--bssplit", "--bsrange", "--blockalign", "--ba", "--random_distribution",
                   "--random_scatter", "--buffer_compress_percentage",
                   "--buffer_compress_chunk", "--dedupe_percentage", "--buffer_pattern",
                   "--zero_buffers", "--refill_buffers", "--file_service_type", "trim",
                   "randtrimwrite", "--group_reporting", "P%"):
        assert needle in out, needle


# --------------------------------------------------------------------------
# trims, devices, workers (numjobs clones) and CPU in the reports

TRIM_BS = 65536


class FakeMultiJob:
    """A numjobs=3 job on two devices with reads, writes and trims; every
    per-worker and per-device key computed here from the samples."""

    def __init__(self, geo, root, name="multi", numjobs=3):
        self.name, self.nw = name, numjobs
        self.samples = {"read": lognormal(11, 3000, 80_000, 0.4),
                        "write": lognormal(12, 1500, 30_000, 0.5),
                        "trim": lognormal(13, 900, 500_000, 0.3)}
        self.bs = {"read": 4096, "write": 4096, "trim": TRIM_BS}
        self.cpu_ns, self.usr_ns, self.ctx = 3_456_789_012, 456_789_012, 98_765
        cpus = tuple(i % 2 for i in range(numjobs))
        # worker i: the sorted sample's i::nw slice
        self.wsl = {d: [sorted(s)[i::numjobs] for i in range(numjobs)]
                    for d, s in self.samples.items()}
        extra = ["numjobs=%d" % numjobs, "cpu_ns=%d" % self.cpu_ns,
                 "usr_cpu_ns=%d" % self.usr_ns, "sys_cpu_ns=%d" % (self.cpu_ns - self.usr_ns),
                 "ctx=%d" % self.ctx, "cpu_ns_per_io=%d" % (self.cpu_ns // 5400),
                 "bs_min=4096", "bs_max=65536", "blockalign=4096"]
        t = self.samples["trim"]
        extra += ["trim_ios=%d" % len(t), "trim_bytes=%d" % (len(t) * TRIM_BS),
                  "trim_errors=0", "trim_lat_min_ns=%d" % min(t),
                  "trim_lat_mean_ns=%d" % round(statistics.fmean(t)),
                  "trim_lat_max_ns=%d" % max(t),
                  "trim_lat_stddev_ns=%d" % round(statistics.pstdev(t)),
                  "trim_lat_sum_ns=%d" % sum(t),
                  "trim_lat_sumsq_ns2=%d" % sum(v * v for v in t)]
        for i in range(numjobs):
            extra += ["worker%d_pid=%d" % (i, 4000 + i), "worker%d_cpu_ns=%d" % (i, 1000 + i),
                      "worker%d_ctx=%d" % (i, 10 + i), "worker%d_trim_ios=%d" %
                      (i, len(self.wsl["trim"][i])), "worker%d_trim_errors=0" % i]
            for d, sl in self.wsl.items():
                s = sl[i]
                extra += ["worker%d_%s_bytes=%d" % (i, d, len(s) * self.bs[d]),
                          "worker%d_%s_lat_min_ns=%d" % (i, d, min(s)),
                          "worker%d_%s_lat_max_ns=%d" % (i, d, max(s)),
                          "worker%d_%s_lat_sum_ns=%d" % (i, d, sum(s))]
        # two devices: device k gets the sorted samples' k::2 slice
        self.devs = ["/dev/nullb0", "/dev/nullb1"]
        self.dsl = {d: [sorted(s)[k::2] for k in range(2)] for d, s in self.samples.items()}
        extra.append("devices=2")
        for k, dev in enumerate(self.devs):
            extra += ["dev%d_name=%s" % (k, dev), "dev%d_span_start=%d" % (k, k << 20),
                      "dev%d_span_bytes=%d" % (k, (k + 1) << 30)]
            for d, sl in self.dsl.items():
                s = sl[k]
                extra += ["dev%d_%s_ios=%d" % (k, d, len(s)),
                          "dev%d_%s_bytes=%d" % (k, d, len(s) * self.bs[d]),
                          "dev%d_%s_errors=%d" % (k, d, k),
                          "dev%d_%s_done=%d" % (k, d, len(s) + 7),
                          "dev%d_%s_lat_sum_ns=%d" % (k, d, sum(s))]
        self.job = FakeJob(geo, root, name, self.samples["read"], self.samples["write"],
                           workers=cpus, extra=extra)
        # FakeJob's worker read/write ios are len(s[i::n]) of the unsorted
        # sample: the same lengths as the sorted slices
        with open(os.path.join(root, name, "hist_trim"), "wb") as f:
            f.write(geo.hist_file(t, 2, self.job.runtime_ns))
        self.env = {"SSDLOAD_DEBUGFS": root}

    def cpu_pct(self, ns):
        return ns * 100.0 / (self.nw * (self.job.runtime_ns + 500_000_000))


@pytest.fixture
def multi(geo, tmp_path):
    return FakeMultiJob(geo, str(tmp_path / "dbg"))


def multi_json(cli, m, *extra):
    p = run(cli, "show", m.name, "--output-format=json", *extra, env=m.env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_json_group_reporting_trim_cpu_devices(cli, multi):
    out = multi_json(cli, multi, "--group_reporting")
    assert len(out["jobs"]) == 1
    job = out["jobs"][0]
    secs = multi.job.runtime_ns / 1e9
    for d, s in multi.samples.items():
        r = job[d]
        assert r["total_ios"] == len(s) and r["io_bytes"] == len(s) * multi.bs[d]
        assert r["iops"] == pytest.approx(len(s) / secs, rel=1e-9)
        check_lat(r["clat_ns"], s, percentiles=False)
        # percentiles on the aggregate, trims too (small samples: a float
        # threshold may land one bucket up, so allow one bucket width)
        pct = r["clat_ns"]["percentile"]
        assert list(pct) == ["%f" % p for p in FIO_PERCENTILES]
        for p in FIO_PERCENTILES:
            exact = exact_percentile(sorted(s), p)
            assert abs(pct["%f" % p] - exact) <= exact / 128 + 1, (d, p)
    # fio: usr/sys percent of the summed run time of the threads
    assert job["usr_cpu"] == pytest.approx(multi.cpu_pct(multi.usr_ns), rel=1e-6)
    assert job["sys_cpu"] == pytest.approx(multi.cpu_pct(multi.cpu_ns - multi.usr_ns), rel=1e-6)
    assert isinstance(job["usr_cpu"], float) and job["ctx"] == multi.ctx
    assert job["job_runtime"] == round(3 * multi.job.runtime_ns / 1e6)
    ext = job["ssdload"]
    assert ext["numjobs"] == 3 and ext["cpu_ns"] == multi.cpu_ns
    assert ext["cpu_ns_per_io"] == multi.cpu_ns // 5400
    assert (ext["bs_min"], ext["bs_max"], ext["blockalign"]) == (4096, 65536, 4096)
    assert [w["trim_ios"] for w in ext["workers"]] == [len(x) for x in multi.wsl["trim"]]
    assert [w["pid"] for w in ext["workers"]] == [4000, 4001, 4002]
    devs = ext["devices"]
    assert [x["name"] for x in devs] == multi.devs
    assert [(x["span_start"], x["span_bytes"]) for x in devs] == [(0, 1 << 30),
                                                                  (1 << 20, 2 << 30)]
    for k, x in enumerate(devs):
        for d, sl in multi.dsl.items():
            s = sl[k]
            assert (x[d]["ios"], x[d]["bytes"], x[d]["errors"], x[d]["done"]) == \
                (len(s), len(s) * multi.bs[d], k, len(s) + 7)
            assert x[d]["lat_mean_ns"] == pytest.approx(statistics.fmean(s), rel=1e-9)
    # the per-device counts add up to the job's
    assert sum(x["trim"]["ios"] for x in devs) == job["trim"]["total_ios"]


def test_json_numjobs_clones(cli, multi):
    """Without --group_reporting: one entry per worker, as fio's clones; only
    what the module measures per worker."""
    out = multi_json(cli, multi)
    jobs = out["jobs"]
    assert len(jobs) == 3
    secs = multi.job.runtime_ns / 1e9
    for i, job in enumerate(jobs):
        assert job["jobname"] == multi.name and job["groupid"] == 0
        for d, sl in multi.wsl.items():
            s, r = sl[i], job[d]
            assert r["total_ios"] == len(s)
            assert r["io_bytes"] == len(s) * multi.bs[d]
            assert r["io_kbytes"] == len(s) * multi.bs[d] // 1024
            assert r["iops"] == pytest.approx(len(s) / secs, rel=1e-9)
            assert abs(r["bw_bytes"] - len(s) * multi.bs[d] / secs) <= 1
            assert r["runtime"] == round(multi.job.runtime_ns / 1e6)
            for k in ("clat_ns", "lat_ns"):
                lat = r[k]
                assert (lat["min"], lat["max"], lat["N"]) == (min(s), max(s), len(s))
                assert lat["mean"] == pytest.approx(statistics.fmean(s), rel=1e-9)
                # not measured per worker: left out, never invented
                assert "percentile" not in lat and "stddev" not in lat
        assert "usr_cpu" not in job and "sys_cpu" not in job
        assert "latency_us" not in job
        assert job["ctx"] == 10 + i and job["job_runtime"] == round(multi.job.runtime_ns / 1e6)
        ext = job["ssdload"]
        assert (ext["worker"], ext["cpu"], ext["pid"], ext["cpu_ns"]) == \
            (i, i % 2, 4000 + i, 1000 + i)
        assert ("devices" in ext) == (i == 0), "job-wide devices once, in the first entry"
    # the clones add up to the job
    for d, s in multi.samples.items():
        assert sum(j[d]["total_ios"] for j in jobs) == len(s)


def test_show_group_reporting_flag(cli, multi):
    """--group_reporting=0 is the default (clones), =1 and bare group them."""
    assert len(multi_json(cli, multi, "--group_reporting=0")["jobs"]) == 3
    assert len(multi_json(cli, multi, "--group_reporting", "1")["jobs"]) == 1
    one_error_line(run(cli, "show", multi.name, "--group_reporting=maybe", env=multi.env),
                   "group_reporting")


def test_json_single_worker_numjobs_is_one_entry(cli, geo, tmp_path):
    FakeJob(geo, str(tmp_path), "one", [1000, 2000], [], workers=(0,), extra=("numjobs=1",))
    p = run(cli, "show", "one", "--output-format=json", env={"SSDLOAD_DEBUGFS": str(tmp_path)})
    assert len(json.loads(p.stdout)["jobs"]) == 1


def test_normal_output_trim_devices_cpu(cli, multi):
    p = run(cli, "show", multi.name, env=multi.env)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert out.startswith(multi.name + ": (groupid=0, jobs=3): err= 0:")
    t = multi.samples["trim"]
    m = re.search(r"^  trim: IOPS=(\d+), BW=", out, re.M)
    assert m and int(m.group(1)) == round(len(t) / (multi.job.runtime_ns / 1e9)), out
    assert re.search(r"^   TRIM: bw=", out, re.M)
    assert "total I/Os: read=%d, write=%d, trim=%d" % (
        len(multi.samples["read"]), len(multi.samples["write"]), len(t)) in out
    assert "(read/write/trim I/Os)" in out
    m = re.search(r"^  cpu          : usr=([\d.]+)%, sys=([\d.]+)%, ctx=(\d+), "
                  r"majf=0, minf=0$", out, re.M)
    assert m, out
    assert float(m.group(1)) == pytest.approx(multi.cpu_pct(multi.usr_ns), abs=0.006)
    assert float(m.group(2)) == pytest.approx(multi.cpu_pct(multi.cpu_ns - multi.usr_ns),
                                              abs=0.006)
    assert int(m.group(3)) == multi.ctx
    m = re.search(r"^  cpu_ns/io    : (\d+)$", out, re.M)
    assert m and int(m.group(1)) == multi.cpu_ns // 5400, out
    assert "  devices      : 2\n" in out
    blk = out[out.index("  devices      : 2\n"):]
    assert "    /dev/nullb1: span=%d+%d (2048MiB)\n" % (1 << 20, 2 << 30) in blk
    s = multi.dsl["trim"][1]
    want = "      trim : ios=%d, io=%s, errors=1, lat avg=%.2fus" % (
        len(s), "%.1fMiB" % (len(s) * TRIM_BS / 2**20), statistics.fmean(s) / 1000)
    assert want in blk, blk


def test_normal_output_one_device_no_table(cli, fake):
    """No devices table for one device, no cpu line without the cpu keys."""
    out = run(cli, "show", fake.name, env=fake.env).stdout
    assert "devices" not in out and "  cpu " not in out and "trim" not in out.lower()


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
# groups and shared devices: run --group/--shared, ssdload start GROUP

def test_group_and_shared_options(cli):
    a = parse_only(cli)
    assert "group" not in a and "shared" not in a, a
    a = parse_only(cli, "--group=oltp.mix-1_A", "--shared")
    assert a["group"] == "oltp.mix-1_A" and a["shared"] == "1", a
    assert parse_only(cli, "--shared=0")["shared"] == "0"
    assert parse_only(cli, "--group", "g" * 63)["group"] == "g" * 63
    out = run(cli, "run", "--help").stdout
    for needle in ("--group=NAME", "--shared", "ssdload start NAME", "overlap"):
        assert needle in out, needle


@pytest.mark.parametrize("opt,val,needle", [
    ("group", "a b", "group name"),
    ("group", "a/b", "group name"),
    ("group", "", "group name"),
    ("group", "g" * 64, "group name"),
    ("group", "caf\u00e9", "group name"),
    ("shared", "2", "0 or 1"),
])
def test_group_and_shared_rejected(cli, opt, val, needle):
    line = one_error_line(run(cli, "run", "--filename=/dev/x", "--%s=%s" % (opt, val)),
                          "--%s=" % opt, needle)
    assert val[:40] in line


def test_start_command(cli, tmp_path):
    """start GROUP writes GROUP to the root's start attribute, once."""
    cfs = tmp_path / "cfs"
    (cfs / "jobs").mkdir(parents=True)
    env = {"SSDLOAD_CONFIGFS": str(cfs)}
    (cfs / "start").write_text("")
    p = run(cli, "start", "mix.1", env=env)
    assert p.returncode == 0 and p.stderr == "" and p.stdout == "", p
    assert (cfs / "start").read_text() == "mix.1"
    # a module without the attribute
    (cfs / "start").unlink()
    one_error_line(run(cli, "start", "mix", env=env), "start", "older")
    # bad names and usage: nothing written, one line (or the usage)
    for bad in ("a b", "g" * 64, "x/y"):
        one_error_line(run(cli, "start", bad, env=env), "not a group name")
    assert not (cfs / "start").exists()
    p = run(cli, "start", env=env)
    assert p.returncode != 0 and "usage: ssdload start GROUP" in p.stderr
    p = run(cli, "start", "a", "b", env=env)
    assert p.returncode != 0 and "usage: ssdload start GROUP" in p.stderr
    one_error_line(run(cli, "start", "mix", env={"SSDLOAD_CONFIGFS": str(tmp_path / "no")}),
                   "ssdload.ko is not loaded")


def test_list_shows_armed(cli, tmp_path):
    job = tmp_path / "cfs" / "jobs" / "armed-job"
    job.mkdir(parents=True)
    for k, v in {"state": "armed", "filename": "/dev/nullb0", "rw": "randread",
                 "bs": "4096", "iodepth": "1", "cpus_allowed": ""}.items():
        (job / k).write_text(v + "\n")
    p = run(cli, "list", env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[1].split()[:2] == ["armed-job", "armed"], p.stdout


def test_stop_armed_job_waits(cli, tmp_path):
    """ssdload stop on an armed job waits until it left armed."""
    job = tmp_path / "cfs" / "jobs" / "armedstop"
    job.mkdir(parents=True)
    (job / "enable").write_text("1\n")
    (job / "state").write_text("armed\n")

    def later():
        time.sleep(0.4)
        (tmp_path / "state").write_text("stopped\n")
        os.replace(tmp_path / "state", job / "state")
    t = threading.Thread(target=later)
    start = time.monotonic()
    t.start()
    p = run(cli, "stop", "armedstop", env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    t.join()
    assert p.returncode == 0, p.stderr
    assert time.monotonic() - start >= 0.4


def test_fake_run_group_waits_for_start(fakerun, cli, tmp_path):
    """run --group: the job is armed (said once on stderr), runs on start, reports."""
    (tmp_path / "cfs").mkdir()
    (tmp_path / "cfs" / "start").write_text("")
    r = fakerun(runtime=0.3, group="mix", attrs=FAKE_ATTRS + ("group",)).start("--group=mix")
    assert r.module.armed.wait(10), "the job was never armed"
    assert r.module.lease_held is True, "the lease was not open when the job was armed"
    time.sleep(0.6)
    assert r.proc.poll() is None, "run returned while the job was armed"
    p = run(cli, "start", "mix", env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    assert p.returncode == 0, p.stderr
    rc, out, err = r.finish()
    assert rc == 0, err
    lines = [l for l in err.splitlines() if l.strip()]
    assert lines == ["ssdload: job '%s' is armed: it starts with ssdload start mix" % r.name], err
    assert report_count(out, r.name) == 1
    assert not r.job_exists()


def test_fake_run_group_signal_while_armed(fakerun, tmp_path):
    """A signal while armed: enable=0 (the module tears the job down), job removed, 130."""
    (tmp_path / "cfs").mkdir()
    (tmp_path / "cfs" / "start").write_text("")
    r = fakerun(group="mix", attrs=FAKE_ATTRS + ("group",)).start("--group=mix")
    assert r.module.armed.wait(10), "the job was never armed"
    r.kill(signal.SIGINT)
    rc, _, err = r.finish()
    assert rc == 130, err
    assert not r.job_exists()
