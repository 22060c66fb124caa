# SPDX-License-Identifier: GPL-2.0
"""The ssdload CLI without a kernel module: its command line, a missing
module or filesystem, and `ssdload show`.

Path roots are redirected with SSDLOAD_CONFIGFS / SSDLOAD_DEBUGFS /
SSDLOAD_CPU_ONLINE.  `ssdload show` reads a fake debugfs job
(lib/debugfs.py) written from a known random sample; every expected value
is computed in Python from that sample (the bucket maths is re-implemented
from the constants of uapi/ssdload.h), never copied from the program's
output.  The other test_cli_*.py files test the CLI's other commands and
options the same way.
"""
import json
import os
import re
import shutil
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, parse_only, run, show_json
from debugfs import FakeJob, check_lat, exact_percentile, lognormal

pytestmark = NEEDS_DEV


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
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--ioengine", "libaio",
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
    assert a["name"] == "unit" and a["filename"] == DEV
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


def test_show_older_summary(cli, fake, geo):
    """A module without the new keys: no notes, and only what it printed in JSON."""
    p = run(cli, "show", fake.name, env=fake.env)
    assert p.returncode == 0 and " note " not in p.stdout and "warning" not in p.stdout
    ext = show_json(cli, fake)["jobs"][0]["ssdload"]
    # the CLI's own: the histogram geometry (ssdload merge) and the host
    assert set(ext) - {"histogram", "hostname"} == {"state", "workers"}
    assert ext["histogram"] == {"version": geo.version, "sub_bits": geo.sub_bits,
                                "max_shift": geo.max_shift, "buckets": geo.buckets}
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
