# SPDX-License-Identifier: GPL-2.0
"""lifecycle: jobs start, stop, restart, disappear and lose their device cleanly.

Every wait is bounded: a job that does not reach its state in time, or an
enable=0 / rmdir / rmmod / power=0 that blocks, fails the test as a hang.
"""

import errno
import os
import subprocess
import time

import pytest

import ssdload_env as env

LONG_MS = 60000


def _wait_running_io(j, n=100, timeout=10):
    """Wait until the job has completed at least n I/Os."""
    deadline = time.monotonic() + timeout
    while True:
        p = j.progress()
        if p["read_ios"] + p["write_ios"] >= n:
            return p
        assert j.state == "running", "job ended early: %s %s" % (j.state, j.error)
        if time.monotonic() > deadline:
            raise env.Timeout("job %s did only %s I/Os in %d s" % (j.name, p, timeout))
        time.sleep(0.05)


@pytest.mark.quick
def test_stop_mid_run(nullb, jobs):
    """enable=0: state stopped, results readable and exact, device released."""
    j = jobs("stop", filename=nullb.path, rw="randread", bs=4096, iodepth=8,
             runtime_ms=LONG_MS)
    before = nullb.stat()
    j.enable()
    assert j.get("enable") == "1"
    assert j.state == "running"
    assert not nullb.exclusive_open_works(), "device not held while the job runs"
    p1 = _wait_running_io(j)
    time.sleep(0.3)
    assert j.progress()["read_ios"] > p1["read_ios"], "no progress while running"
    t = time.monotonic()
    j.stop(timeout=15)
    assert time.monotonic() - t < 15
    assert j.state == "stopped"
    assert j.get("enable") == "0"
    s = j.summary()
    d = env.stat_delta(before, nullb.stat())
    assert s["state"] == "stopped"
    assert s["read_ios"] == d["read_ios"] > 0, (s["read_ios"], d)
    assert s["read_bytes"] == d["read_bytes"]
    assert j.hist("read").samples == s["read_ios"]
    assert s["runtime_ns"] < LONG_MS * 10**6
    assert not env.ssdload_kthreads(), "workers survive enable=0"
    # released: an exclusive open works, and so does another job
    assert nullb.exclusive_open_works(), "device still claimed after stop"
    j2 = jobs("after", filename=nullb.path, rw="read", bs=4096, number_ios=500)
    assert j2.run(60)["read_ios"] == 500


@pytest.mark.quick
def test_stop_idle_and_done_is_harmless(nullb, jobs):
    """enable=0 on an idle or finished job changes nothing."""
    j = jobs("idle", filename=nullb.path, rw="read", bs=4096, number_ios=100)
    j.stop()
    assert j.state == "idle"
    s = j.run(60)
    j.stop()
    assert j.state == "done"
    assert j.summary()["read_ios"] == s["read_ios"] == 100


@pytest.mark.quick
def test_rmdir_running_job(nullb, jobs):
    """rmdir of a running job stops it and removes its debugfs at once; the
    draining run then frees its workers and the device by itself.

    rmdir does not wait for the drain (a stuck device must not hang it), so
    the release is awaited, bounded: the teardown runs on the module's
    workqueue after rmdir returned (kthread_stop, an RCU grace period, then
    the device), and under TCG that can take a moment."""
    j = jobs("rmdir", filename=nullb.path, rw="randwrite", allow_write=1, bs=4096,
             iodepth=8, runtime_ms=LONG_MS)
    j.enable()
    _wait_running_io(j)
    j.remove(timeout=15)
    assert not j.exists()
    assert not os.path.exists(j.dbg), "debugfs dir survives rmdir"
    deadline = time.monotonic() + 10
    while env.ssdload_kthreads() or not nullb.exclusive_open_works():
        assert time.monotonic() < deadline, \
            "10 s after rmdir: workers %s, device claimed: %s" % (
                env.ssdload_kthreads(), not nullb.exclusive_open_works())
        time.sleep(0.05)
    assert nullb.stat()["in_flight"] == 0


@pytest.mark.quick
def test_rmmod_with_jobs(ssdload, nullb, jobs):
    """rmmod is refused while a job exists; the running job is unaffected."""
    j = jobs("rmmod", filename=nullb.path, rw="randread", bs=4096, iodepth=4,
             runtime_ms=2500)
    before = nullb.stat()
    j.enable()
    _wait_running_io(j)
    p = ssdload.rmmod(check=False)
    assert p.returncode != 0, "rmmod succeeded with a running job"
    assert ssdload.loaded()
    assert j.state == "running", "rmmod attempt disturbed the job: %s" % j.state
    assert j.wait(60) == "done"
    s = j.summary()
    d = env.stat_delta(before, nullb.stat())
    assert s["read_ios"] == d["read_ios"] > 0
    # an idle (finished) job still pins the module
    p = ssdload.rmmod(check=False)
    assert p.returncode != 0, "rmmod succeeded while a job directory exists"
    j.remove()
    ssdload.rmmod()
    assert not ssdload.loaded()
    assert not os.path.exists(env.CONFIGFS)
    assert not os.path.exists(env.DEBUGFS), "debugfs root survives rmmod"
    assert nullb.exclusive_open_works()
    # the ssdload fixture loads it again for the next test


@pytest.mark.quick
@pytest.mark.parametrize("irqmode", [0, 2])
def test_device_removed_mid_run(nullb_cfg, jobs, irqmode):
    """null_blk powered off under a running job: state error, no hang, no leak."""
    dev = nullb_cfg("gone%d" % irqmode, irqmode=irqmode, completion_nsec=200000)
    j = jobs("gone", filename=dev.path, rw="randrw", allow_write=1, bs=4096,
             iodepth=16, runtime_ms=LONG_MS, cpus_allowed="0-1"
             if len(env.online_cpus()) >= 2 else "")
    j.enable()
    _wait_running_io(j)
    dev.power_off()
    assert j.wait(20) == "error"
    err = j.error
    assert err != "0" and err.startswith("-"), "error attribute %r" % err
    no = int(err.split()[0])
    assert no < 0 and len(err.split(None, 1)) == 2 and err.split(None, 1)[1].strip(), err
    s = j.summary()
    assert s["state"] == "error" and s["error"] == no, s
    assert s["read_errors"] + s["write_errors"] >= 1, "failed I/Os not counted: %s" % s
    assert not env.ssdload_kthreads()
    dev.remove()          # the disk is gone and nothing holds it any more
    # the job is still usable: point it at a new device and run it again
    dev2 = nullb_cfg("back%d" % irqmode)
    j.set(filename=dev2.path, number_ios=500, runtime_ms=0)
    before = dev2.stat()
    s = j.run(60)
    assert j.error == "0" and s["error"] == 0, j.error
    assert s["read_errors"] == 0 and s["write_errors"] == 0
    d = env.stat_delta(before, dev2.stat())
    assert s["read_ios"] + s["write_ios"] == 500 == d["read_ios"] + d["write_ios"]


@pytest.mark.slow
def test_five_jobs_two_devices(null_blk, jobs):
    """Five jobs at once on two devices (shared=1: jobs share a device only
    when all of them say so); per-device stat deltas add up exactly."""
    a, b = null_blk(nr_devices=2)
    spec = [(a, "randread", 6000), (a, "write", 4000), (a, "randrw", 5000),
            (b, "read", 7000), (b, "randwrite", 3000)]
    js = []
    for i, (dev, rw, n) in enumerate(spec):
        js.append(jobs("five%d" % i, filename=dev.path, rw=rw, bs=4096, iodepth=4,
                       number_ios=n, allow_write=1, randseed=i + 1, shared=1,
                       offset=i * (64 << 20), size=64 << 20))
    before = {d.name: d.stat() for d in (a, b)}
    for j in js:
        j.enable()
    for j in js:
        assert j.wait(120) == "done", (j.name, j.state, j.error)
    delta = {d.name: env.stat_delta(before[d.name], d.stat()) for d in (a, b)}
    exp = {d.name: {"read_ios": 0, "write_ios": 0, "read_bytes": 0, "write_bytes": 0}
           for d in (a, b)}
    for j, (dev, rw, n) in zip(js, spec):
        s = j.summary()
        assert s["read_ios"] + s["write_ios"] == n, (j.name, s)
        for k in ("read_ios", "write_ios", "read_bytes", "write_bytes"):
            exp[dev.name][k] += s[k]
    for name in exp:
        for k in exp[name]:
            assert exp[name][k] == delta[name][k], (name, k, exp[name][k], delta[name][k])


@pytest.mark.quick
def test_restart_finished_job(nullb, jobs):
    """enable=1 on a finished job runs it again with fresh results."""
    j = jobs("again", filename=nullb.path, rw="randread", bs=4096, number_ios=3000)
    s1 = j.run(60)
    assert s1["read_ios"] == 3000
    j.write("number_ios", 1200)
    j.write("bs", 8192)
    before = nullb.stat()
    s2 = j.run(60)
    d = env.stat_delta(before, nullb.stat())
    assert s2["read_ios"] == 1200 == d["read_ios"], "results not fresh: %s" % s2["read_ios"]
    assert s2["read_bytes"] == 1200 * 8192 == d["read_bytes"]
    assert j.hist("read").samples == 1200


@pytest.mark.quick
def test_enable_while_running_busy(nullb, jobs):
    """enable=1 on a running job is -EBUSY."""
    j = jobs("busy", filename=nullb.path, rw="randread", bs=4096, runtime_ms=LONG_MS)
    j.enable()
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EBUSY
    assert j.state == "running"
    j.stop()


@pytest.mark.quick
def test_cli_list_show_stop(nullb, jobs, cli):
    """`ssdload list/show/stop` on a job made by hand with mkdir/echo."""
    j = jobs("cli", filename=nullb.path, rw="randread", bs=4096, iodepth=4,
             runtime_ms=LONG_MS)
    other = jobs("idle", filename=nullb.path)
    j.enable()
    _wait_running_io(j)
    p = env.cli("list", check=True)
    assert j.name in p.stdout and other.name in p.stdout, p.stdout
    p = env.cli("stop", j.name, check=True, timeout=30)
    assert j.state == "stopped" if j.exists() else True
    if j.exists():
        s = j.summary()
        p = env.cli("show", j.name, check=True)
        assert j.name in p.stdout, p.stdout
        assert "IOPS=" in p.stdout and "BW=" in p.stdout, p.stdout
        assert str(s["read_ios"]) in p.stdout.replace(",", ""), \
            "show does not report the %d I/Os: %s" % (s["read_ios"], p.stdout)
    p = env.cli("stop", "e2e-no-such-job")
    assert p.returncode != 0 and p.stderr.strip(), "stop of a missing job succeeded"
    p = env.cli("show", "e2e-no-such-job")
    assert p.returncode != 0 and p.stderr.strip(), "show of a missing job succeeded"


@pytest.mark.quick
def test_cli_sigint_cleans_up(nullb, cli):
    """SIGINT to `ssdload run` stops and removes the job, prints results, exits 130."""
    import signal
    p = subprocess.Popen([cli, "run", "--name=e2e-sigint", "--filename=" + nullb.path,
                          "--rw=randread", "--bs=4k", "--runtime=60s", "--time_based",
                          "--output-format=json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    try:
        deadline = time.monotonic() + 15
        while "e2e-sigint" not in env.list_jobs() or \
                env.read_attr(env.JOBS + "/e2e-sigint/state") != "running":
            assert p.poll() is None, p.communicate()
            assert time.monotonic() < deadline, "CLI job never started"
            time.sleep(0.05)
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130, (p.returncode, err)
    assert env.list_jobs() == [], "job left after SIGINT"
    import json
    r = json.loads(out)["jobs"][0]["read"]
    assert r["total_ios"] > 0
    assert nullb.exclusive_open_works()


@pytest.mark.quick
@pytest.mark.parametrize("rw", ["read", "write"])
def test_failed_io_ends_job(nullb_cfg, jobs, rw):
    """An I/O error (null_blk badblocks) ends the job in state error, counted, with offset."""
    bad_sector = 1024                               # 512 KiB: the 129th 4 KiB block
    dev = nullb_cfg("bb" + rw, size=64)
    try:
        env.write_attr(dev.cfg + "/badblocks", "+%d-%d" % (bad_sector, bad_sector + 7))
    except OSError as e:
        pytest.skip("null_blk badblocks not settable on this kernel: %s" % e)
    j = jobs("bb", filename=dev.path, rw=rw, bs=4096, iodepth=1, size=1 << 20,
             allow_write=1)
    before = dev.stat()
    j.enable()
    assert j.wait(30) == "error", j.state
    d = env.stat_delta(before, dev.stat())
    s = j.summary()
    good = bad_sector * 512 // 4096                 # blocks before the bad one
    assert s[rw + "_ios"] == good, s
    assert s[rw + "_errors"] == 1, s
    assert s[rw + "_bytes"] == good * 4096
    # the block layer saw every request, failed ones included
    assert d[rw + "_ios"] == good + 1, d
    err = j.error
    assert err.startswith("-%d" % errno.EIO), err
    assert str(bad_sector * 512) in err, "error does not give the offset: %r" % err
    assert s["error"] == -errno.EIO
    assert j.hist(rw).samples == good
