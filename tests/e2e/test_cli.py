# SPDX-License-Identifier: GPL-2.0
"""cli: `ssdload run` output is shaped like fio's, and its numbers are consistent.

The reference for the JSON schema is a real fio run on the same device in the
same guest: every key ssdload prints under the fio-named sections must exist
in fio's output with a compatible type.

The CLI must not leave load behind (issue 12, section 7): a signal stops the
job and the report is still printed; SIGKILL is covered by the job's lease.
"""

import os
import re
import signal
import subprocess
import time

import pytest

import ssdload_env as env

# the CLI's runs need ssdload.ko: load it here, not rely on an earlier file
pytestmark = pytest.mark.usefixtures("ssdload")

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
@pytest.mark.stock
def test_json_schema_matches_fio(nullb, cli, fio, _fio_cache):
    """Keys under jobs[0].read/write exist in fio's JSON with the same types."""
    ref = _fio_reference(fio, nullb, _fio_cache)
    out = env.cli_json("run", "--name=e2e-json", "--filename=" + nullb.path,
                       "--rw=randrw", "--bs=4k", "--iodepth=4", "--runtime=1s", "--time_based",
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
@pytest.mark.stock
def test_json_numbers_consistent(nullb, cli, rw):
    """iops*runtime/1000 = total_ios, bw_bytes*runtime/1000 = io_bytes, N = total_ios."""
    args = ["run", "--name=e2e-num", "--filename=" + nullb.path, "--rw=" + rw,
            "--bs=8k", "--iodepth=4", "--runtime=1500ms", "--time_based"]
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


# --------------------------------------------------------------------------
# the CLI must not leave load behind

# reset to their default action in the CLI's process: whatever the guest's
# init ignores, the CLI must see them as a user's shell gives them
_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM,
            signal.SIGPIPE, signal.SIGUSR1)
_BUSY = ("running", "stopping")


def _popen_run(cli, *args, **env_extra):
    def child():
        for s in _SIGNALS:
            signal.signal(s, signal.SIG_DFL)
    e = dict(os.environ)
    e.update(env_extra)
    return subprocess.Popen([cli, "run"] + [str(a) for a in args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, preexec_fn=child, env=e)


def _state(name):
    try:
        return env.read_attr(os.path.join(env.JOBS, name, "state"))
    except FileNotFoundError:
        return None


def _progress(name):
    return env.parse_kv(env.read(os.path.join(env.DEBUGFS, name, "progress")))


def _until(fn, timeout, what):
    """fn()'s first true value within @timeout seconds, else a Timeout."""
    deadline = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > deadline:
            raise env.Timeout("%s: not within %.0f s" % (what, timeout))
        time.sleep(0.02)


def _wait_started(proc, name, inflight=0, timeout=20):
    """The CLI's job runs and has I/O done (or @inflight I/Os in flight)."""
    def started():
        assert proc.poll() is None, "ssdload run exited early: %r" % (proc.communicate(),)
        if _state(name) != "running":
            return None
        p = _progress(name)
        if inflight:
            assert "inflight" in p, "progress has no inflight key: %s" % p
            return p if p["inflight"] >= inflight else None
        return p if p["read_ios"] + p["write_ios"] > 0 else None
    return _until(started, timeout, "job %s running with I/O" % name)


def _finish(proc, timeout=60):
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise env.Timeout("ssdload run still running %d s after the signal" % timeout)
    return proc.returncode, out, err


def _drop(proc, name):
    """Clean up after a test: the CLI gone, its job (if left) stopped and removed."""
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()
    d = os.path.join(env.JOBS, name)
    if os.path.isdir(d):
        if _state(name) in _BUSY:
            env.bounded(lambda: env.write_attr(d + "/enable", 0), 5, "enable=0 on " + name)
            _until(lambda: _state(name) not in _BUSY, 30, "job %s to drain" % name)
        env.bounded(lambda: os.rmdir(d), 5, "rmdir " + name)


def _slow_run(nullb_cfg, cli, tag):
    """ssdload run on a null_blk that completes each request 5 s after it was
    queued, so that a stop drains for seconds.  (dev, name, proc), once the
    job has its 4 I/Os in flight."""
    dev = nullb_cfg("e2eslow" + tag, irqmode=2, completion_nsec=5 * 10**9,
                    hw_queue_depth=64)
    name = "e2e-slow" + tag
    proc = _popen_run(cli, "--name=" + name, "--filename=" + dev.path, "--rw=randread",
                      "--bs=4k", "--iodepth=4", "--runtime=60s", "--time_based")
    try:
        _wait_started(proc, name, inflight=4)
    except BaseException:
        _drop(proc, name)
        raise
    return dev, name, proc


@pytest.mark.quick
def test_kill9_lease_stops_the_job(nullb, cli):
    """kill -9 of ssdload run: the lease closes, the job stops within 2 s and
    the device is released."""
    name = "e2e-kill9"
    proc = _popen_run(cli, "--name=" + name, "--filename=" + nullb.path, "--rw=randread",
                      "--bs=4k", "--iodepth=8", "--runtime=60s", "--time_based")
    try:
        _wait_started(proc, name)
        lease = env.parse_kv(env.read(os.path.join(env.DEBUGFS, name, "lease")))
        assert lease["leases"] >= 1, "ssdload run holds no lease: %s" % lease
        assert not nullb.exclusive_open_works(), "device not held while the job runs"
        t0 = time.monotonic()
        proc.kill()
        proc.wait(10)
        _until(lambda: _state(name) not in _BUSY and nullb.exclusive_open_works(), 10,
               "job stopped and device released after kill -9")
        took = time.monotonic() - t0
        assert took <= 2.0, "the job stopped %.1f s after kill -9 (limit 2 s)" % took
        assert _state(name) == "stopped"
        s = env.parse_kv(env.read(os.path.join(env.DEBUGFS, name, "summary")))
        assert s["state"] == "stopped" and s["read_ios"] > 0, s
        _until(lambda: not env.ssdload_kthreads(), 2, "workers to exit after the lease")
    finally:
        _drop(proc, name)
    assert name not in env.list_jobs()


@pytest.mark.quick
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143),
                                      (signal.SIGHUP, 129), (signal.SIGQUIT, 131)],
                         ids=["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"])
def test_signal_stops_run(nullb, cli, sig, code):
    """One signal: the job is stopped, the results are printed, the job is
    removed, the device released, and the exit status is 128 + signo."""
    name = "e2e-sig%d" % sig
    proc = _popen_run(cli, "--name=" + name, "--filename=" + nullb.path, "--rw=randread",
                      "--bs=4k", "--iodepth=4", "--runtime=60s", "--time_based")
    try:
        _wait_started(proc, name)
        proc.send_signal(sig)
        rc, out, err = _finish(proc)
    finally:
        _drop(proc, name)
    assert rc == code, "exit %d, expected %d; stderr %r" % (rc, code, err)
    assert out.startswith(name + ": (groupid=0"), out
    m = re.search(r"total I/Os: read=(\d+), write=0", out)
    assert m and int(m.group(1)) > 0, out
    assert "ssdload:" not in err, err
    assert name not in env.list_jobs(), "the job was left behind"
    assert nullb.exclusive_open_works(), "device still held after the run"


@pytest.mark.slow
def test_second_sigint_says_what_it_waits_for(nullb_cfg, cli):
    """Ctrl-C twice while the stop drains: one line with the I/Os in flight,
    and the run still ends with the results."""
    dev, name, proc = _slow_run(nullb_cfg, cli, "2")
    try:
        proc.send_signal(signal.SIGINT)
        _until(lambda: _state(name) == "stopping", 3, "state stopping after SIGINT")
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        time.sleep(0.5)
        assert proc.poll() is None, "a second Ctrl-C must not end the wait"
        rc, out, err = _finish(proc, 30)
    finally:
        _drop(proc, name)
    assert rc == 130, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    m = re.match(r"^ssdload: stop requested; waiting for (\d+) in-flight I/O to complete "
                 r"\(Ctrl-C again to leave it to the kernel\)$", lines[0])
    assert m and 1 <= int(m.group(1)) <= 4, lines[0]
    assert out.startswith(name + ": (groupid=0"), out
    assert name not in env.list_jobs()
    assert dev.exclusive_open_works()


@pytest.mark.slow
def test_third_sigint_leaves_the_drain_to_the_kernel(nullb_cfg, cli):
    """Ctrl-C three times: exit 130 at once; the stopping job stays, says
    where to look, and ends by itself."""
    dev, name, proc = _slow_run(nullb_cfg, cli, "3")
    try:
        for _ in range(2):
            proc.send_signal(signal.SIGINT)
            time.sleep(0.3)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        rc, out, err = _finish(proc, 10)
        assert time.monotonic() - t0 < 2.0, "the third Ctrl-C did not exit at once"
        assert rc == 130, err
        assert "leaving job '%s' to the kernel" % name in err, err
        assert "ssdload show %s" % name in err and "ssdload stop %s" % name in err, err
        assert out == ""
        assert _state(name) == "stopping", "the job should still be draining"
        assert not dev.exclusive_open_works(), "device released with I/O in flight"
        _until(lambda: _state(name) == "stopped", 15, "the left job to end")
        _until(dev.exclusive_open_works, 5, "device released after the drain")
        show = env.cli("show", name, check=True)
        assert show.stdout.startswith(name + ": (groupid=0"), show.stdout
    finally:
        _drop(proc, name)


@pytest.mark.quick
def test_unreadable_results_keep_the_job(nullb, cli, tmp_path):
    """Results that cannot be read are not thrown away: the job stays for
    ssdload show.  SSDLOAD_DEBUGFS points at a tree that has the job's lease
    (a link to the real one) and no summary."""
    name = "e2e-keep"
    dbg = tmp_path / "dbg" / name
    dbg.mkdir(parents=True)
    os.symlink(os.path.join(env.DEBUGFS, name, "lease"), str(dbg / "lease"))
    proc = None
    try:
        proc = _popen_run(cli, "--name=" + name, "--filename=" + nullb.path,
                          "--number_ios=1000", SSDLOAD_DEBUGFS=str(tmp_path / "dbg"))
        rc, out, err = _finish(proc, 60)
        assert rc == 1 and out == "", (rc, out, err)
        assert "no results for job '%s'" % name in err, err
        assert "ssdload show %s" % name in err, err
        assert _state(name) == "done", "the job was not kept"
        show = env.cli("show", name, check=True)
        assert "total I/Os: read=1000, write=0" in show.stdout, show.stdout
    finally:
        _drop(proc, name)


@pytest.mark.quick
@pytest.mark.stock
def test_status_interval_without_tty(nullb, cli):
    """--status-interval=1: the full report so far every second on stdout (a
    pipe here), then the final one; the counts only grow."""
    name = "e2e-status"
    p = env.cli("run", "--name=" + name, "--filename=" + nullb.path, "--rw=randread",
                "--bs=4k", "--iodepth=2", "--runtime=3s", "--time_based",
                "--status-interval=1", check=True)
    n = p.stdout.count(name + ": (groupid=0")
    assert 3 <= n <= 5, p.stdout
    totals = [int(x) for x in re.findall(r"total I/Os: read=(\d+)", p.stdout)]
    assert len(totals) == n and totals == sorted(totals) and totals[0] < totals[-1], totals
    assert env.list_jobs() == []


@pytest.mark.quick
@pytest.mark.stock
def test_eta_always_without_tty(nullb, cli):
    """--eta=always: one progress line a second on stderr, even to a pipe."""
    name = "e2e-eta"
    args = ["run", "--name=" + name, "--filename=" + nullb.path, "--rw=randread", "--bs=4k",
            "--runtime=3s", "--time_based"]
    p = env.cli(*(args + ["--eta=always"]), check=True)
    line = re.compile(r"^%s: \[\d+\.\ds/3\.0s\]\[eta \d\dm:\d\ds\] read \d+ IOPS, "
                      r"write 0 IOPS$" % name)
    lines = p.stderr.splitlines()
    assert len(lines) >= 2 and all(line.match(l) for l in lines), p.stderr
    assert "\r" not in p.stderr and "\033" not in p.stderr
    assert p.stdout.startswith(name + ": (groupid=0")
    assert env.cli(*(args + ["--eta=never"]), check=True).stderr == ""


@pytest.mark.quick
def test_new_options_reach_the_results(nullb, cli):
    """--io_timeout_ms and --scramble_buffers set their attributes; the new
    summary keys land in jobs[0].ssdload, fio's keys untouched."""
    out = env.cli_json("run", "--name=e2e-newopts", "--filename=" + nullb.path,
                       "--rw=randwrite", "--allow_write", "--bs=4k", "--number_ios=2000",
                       "--io_timeout_ms=5000", "--scramble_buffers=0", "--randseed=1234")
    job = out["jobs"][0]
    assert job["job options"]["io_timeout_ms"] == "5000"
    assert job["job options"]["scramble_buffers"] == "0"
    ext = job["ssdload"]
    assert ext["state"] == "done"
    assert ext["io_timeout_ms"] == 5000 and ext["timed_out_ios"] == 0, ext
    assert ext["randseed"] == 1234 and ext["poll_fallback"] == "none", ext
    assert ext["split_ios"] == 0 and ext["nowait_retries"] == 0, ext
    assert sum(w["write_ios"] for w in ext["workers"]) == job["write"]["total_ios"] == 2000
    for w in ext["workers"]:
        assert w["ran_on"] == str(w["cpu"]), w


@pytest.mark.quick
def test_hipri_fallback_is_noted(null_blk, cli):
    """hipri=1 on a null_blk without poll queues: a note says why it ran on
    interrupts, and the JSON says poll_fallback=no_poll_queues."""
    nullb = null_blk(poll_queues=0)[0]
    if env.read_attr(nullb.sys + "/queue/io_poll") == "1":
        pytest.skip("null_blk poll_queues=0 still polls")
    args = ["run", "--filename=" + nullb.path, "--rw=randread", "--bs=4k",
            "--number_ios=2000", "--hipri"]
    p = env.cli(*(args + ["--name=e2e-hipri"]), check=True)
    assert ("  note         : hipri=1 ran with interrupt completions: the device has no "
            "poll queues (poll_fallback=no_poll_queues)") in p.stdout.splitlines(), p.stdout
    ext = env.cli_json(*(args + ["--name=e2e-hipri-json"]))["jobs"][0]["ssdload"]
    assert ext["hipri"] == 1 and ext["polled"] == 0
    assert ext["poll_fallback"] == "no_poll_queues"
