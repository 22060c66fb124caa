# SPDX-License-Identifier: GPL-2.0
"""hardening: nothing hangs, nothing lies (issue 12, sections 2 to 6).

* hipri polls only where bio_poll() reaches the request; a queue with fewer
  tags than iodepth does not hang; split bios are counted;
* a device that stops completing I/O blocks nothing but its own run:
  enable=0, rmdir, debugfs and other jobs return at once, rmmod is refused
  while I/O is in flight, io_timeout_ms flags the stuck I/Os;
* latency starts where the block layer starts timing the request;
* written data differs per write; default seeds differ per job name;
  rw=rw keeps one sequential stream per direction;
* a worker whose CPU goes offline finishes its run;
* the memory cap counts what is really allocated.
"""

import errno
import hashlib
import os
import subprocess
import time

import pytest

import ssdload_env as env

MIB = 1 << 20


# --------------------------------------------------------------------------
# helpers

def _have_dm(target):
    if not env.have_module("dm_mod") and not os.path.exists("/sys/module/dm_mod"):
        pytest.skip("device-mapper (dm_mod) is not available on kernel %s"
                    % env.kernel_label())
    if not os.path.exists("/usr/sbin/dmsetup") and not os.path.exists("/sbin/dmsetup"):
        pytest.skip("dmsetup is not installed (Debian package dmsetup)")
    env.run(["modprobe", "dm_mod"])
    if target != "linear":
        mod = "dm_" + target
        if not env.have_module(mod):
            pytest.skip("%s is not available on kernel %s" % (mod, env.kernel_label()))
        env.run(["modprobe", mod])


class DmDev(env.BlockDev):
    """A device-mapper device made with dmsetup (removed by remove()).

    The guest runs no udev: --noudevsync, and the dm-N node comes from
    devtmpfs."""

    def __init__(self, name, table):
        env.run(["dmsetup", "--noudevsync", "create", name, "--table", table])
        self.dmname = name
        dm = None
        for d in os.listdir("/sys/block"):
            if d.startswith("dm-") and env.read_attr("/sys/block/%s/dm/name" % d) == name:
                dm = d
        assert dm, "dmsetup created %s but no dm-N block device appeared" % name
        env.BlockDev.__init__(self, dm)
        self.wait_for_node()

    def dmsetup(self, *args):
        env.bounded(lambda: env.run(["dmsetup", "--noudevsync"] + list(args) +
                                    [self.dmname]), 30,
                    "dmsetup %s %s" % (" ".join(args), self.dmname))

    def remove(self):
        self.dmsetup("resume")
        self.dmsetup("remove")


@pytest.fixture
def dm():
    made = []

    def make(target, name, table):
        _have_dm(target)
        d = DmDev(name, table)
        made.append(d)
        return d
    yield make
    env.cleanup_jobs()
    for d in made:
        try:
            d.remove()
        except Exception:  # pylint: disable=broad-except
            pass


def _sectors(dev):
    return dev.size_bytes() // 512


# --------------------------------------------------------------------------
# 2. polled I/O never hangs

@pytest.mark.quick
def test_hipri_on_bio_based_dm_falls_back(poll_null_blk, dm, jobs):
    """dm over a polling null_blk: bio-based, so interrupt completions."""
    base = poll_null_blk()
    d = dm("linear", "ssdl-lin", "0 %d linear %s 0" % (_sectors(base), base.path))
    j = jobs("dmpoll", filename=d.path, rw="randread", bs=4096, iodepth=8,
             runtime_ms=500, hipri=1)
    s = env.bounded(lambda: j.run(30), 40, "a hipri job on dm")
    assert s["hipri"] == 1 and s["polled"] == 0, s
    assert s["poll_fallback"] == "bio_based", s
    assert s["read_ios"] > 0 and s["read_errors"] == 0


@pytest.mark.quick
def test_hipri_iodepth_above_tag_depth(poll_null_blk, jobs):
    """iodepth 128 on a poll queue of 64 tags: no sleep for a tag, no timeout."""
    dev = poll_null_blk(poll_queues=1, submit_queues=1, hw_queue_depth=64)
    j = jobs("tags", filename=dev.path, rw="randread", bs=4096, iodepth=128,
             number_ios=50000, hipri=1)
    before = dev.stat()
    t0 = time.monotonic()
    s = env.bounded(lambda: j.run(25), 30, "hipri iodepth 128 on 64 tags")
    took = time.monotonic() - t0
    d = env.stat_delta(before, dev.stat())
    assert s["polled"] == 1, s
    assert s["error"] == 0 and s["read_errors"] == 0, s
    assert s["read_ios"] == 50000 == d["read_ios"], (s["read_ios"], d["read_ios"])
    assert s["nowait_retries"] > 0, "iodepth above the tags but no refused submission"
    # a request timeout (30 s) would show up here
    assert s["read_lat_max_ns"] < 10 * 10**9, s["read_lat_max_ns"]
    assert took < 25


@pytest.mark.quick
@pytest.mark.parametrize("hipri", [0, 1])
def test_split_bios_counted(null_blk, jobs, hipri):
    """bs above max_sectors: every I/O is split; split_ios says so, and
    hipri falls back (a split loses REQ_POLLED)."""
    try:
        dev = null_blk(max_sectors=128, poll_queues=1, submit_queues=2)[0]
    except (AssertionError, OSError) as e:
        pytest.skip("null_blk has no max_sectors/poll_queues here: %s" % e)
    assert int(env.read_attr(dev.sys + "/queue/max_sectors_kb")) == 64
    j = jobs("split", filename=dev.path, rw="randread", bs=256 * 1024, iodepth=4,
             number_ios=400, hipri=hipri)
    before = dev.stat()
    s = j.run(60)
    d = env.stat_delta(before, dev.stat())
    assert s["read_ios"] == 400 and s["split_ios"] == 400, s
    assert d["read_ios"] == 4 * 400, "block layer requests %d" % d["read_ios"]
    assert d["read_bytes"] == s["read_bytes"]
    if hipri:
        assert s["polled"] == 0 and s["poll_fallback"] == "split", s
    # and an unsplit job counts none
    j2 = jobs("nosplit", filename=dev.path, rw="randread", bs=64 * 1024, iodepth=4,
              number_ios=200)
    s2 = j2.run(60)
    assert s2["split_ios"] == 0, s2


# --------------------------------------------------------------------------
# 3. a stuck device freezes nothing else

def _stuck_device(kind, null_blk, nullb_cfg, dm):
    """(device, release): a device whose I/Os do not complete until release()."""
    if kind == "dm-delay":
        base = null_blk()[0]
        d = dm("delay", "ssdl-stuck",
               "0 %d delay %s 0 120000" % (_sectors(base), base.path))

        def release():
            d.dmsetup("suspend")	# dm-delay flushes its delayed bios
            d.dmsetup("resume")
        return d, release
    # a null_blk whose timer completes each request after 6 s: stuck for
    # the test's checks, then it completes by itself
    dev = nullb_cfg("stuck", irqmode=2, completion_nsec=6 * 10**9, hw_queue_depth=64)
    return dev, lambda: None


def _quick(fn, what, limit=2.0):
    t0 = time.monotonic()
    ret = env.bounded(fn, 10, what)
    took = time.monotonic() - t0
    assert took < limit, "%s took %.1f s" % (what, took)
    return ret


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["dm-delay", "nullb-timer"])
def test_stuck_device_blocks_nothing(kind, null_blk, nullb_cfg, dm, jobs, ssdload):
    dev, release = _stuck_device(kind, null_blk, nullb_cfg, dm)
    j = jobs("stuck", filename=dev.path, rw="randread", bs=4096, iodepth=4,
             runtime_ms=60000, io_timeout_ms=300)
    try:
        j.enable()
        deadline = time.monotonic() + 10
        while j.progress()["inflight"] < 4:
            assert time.monotonic() < deadline, "no I/O in flight: %s" % j.progress()
            time.sleep(0.05)
        time.sleep(1.0)		# > io_timeout_ms: the worker flags them
        p = _quick(j.progress, "progress of a stuck job")
        assert p["stuck_ios"] == 4 and p["timed_out_ios"] >= 4, p

        _quick(lambda: j.stop(wait=False), "enable=0 on a stuck job")
        assert j.state == "stopping"
        # a stopping job takes no new parameters and no new start
        for attr, v in (("iodepth", 2), ("enable", 1)):
            with pytest.raises(OSError) as e:
                j.write(attr, v)
            assert e.value.errno == errno.EBUSY, "%s=%s while stopping" % (attr, v)
        s = _quick(j.summary, "summary of a stopping job")
        assert s["state"] == "stopping" and s["timed_out_ios"] >= 4, s
        _quick(lambda: j.hist("read"), "hist_read of a stopping job")

        # other jobs, and the jobs directory, are not held up
        other = jobs("other", filename=dev.path, rw="read", number_ios=1)
        _quick(lambda: os.listdir(env.JOBS), "ls jobs/")
        _quick(lambda: other.remove(), "rmdir of another job")

        # the stuck run survives its rmdir, and holds the module
        _quick(lambda: j.remove(), "rmdir of a stopping job")
        assert not j.exists()
        assert not dev.exclusive_open_works(), "device released while I/O is in flight"
        p = _quick(lambda: subprocess.run(["rmmod", "ssdload"], stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, universal_newlines=True),
                   "rmmod with I/O in flight")
        assert p.returncode != 0, "rmmod succeeded with I/O in flight"
        assert env.ssdload_loaded()
    finally:
        if j.exists():
            j.stop(wait=False)
        release()
    deadline = time.monotonic() + 30
    while not dev.exclusive_open_works():
        assert time.monotonic() < deadline, "device still held 30 s after release"
        time.sleep(0.1)
    # the run is gone: now rmmod works (the fixture loads the module again)
    deadline = time.monotonic() + 10
    while (env.rmmod("ssdload", check=False) or subprocess.CompletedProcess([], 0)) \
            .returncode != 0:
        assert time.monotonic() < deadline, "rmmod refused after the run ended"
        time.sleep(0.1)


# --------------------------------------------------------------------------
# 4. latency is what the docs say

def _kernel_version():
    rel = os.uname().release.split("-")[0].split(".")
    return int(rel[0]), int(rel[1])


def _mean_vs_block_layer(null_blk, jobs, iodepth, irqmode):
    extra = {"completion_nsec": 20000} if irqmode == 2 else {}
    dev = null_blk(hw_queue_depth=256, irqmode=irqmode, submit_queues=1, **extra)[0]
    j = jobs("qd%d" % iodepth, filename=dev.path, rw="randread", bs=4096,
             iodepth=iodepth, runtime_ms=1500)
    before = dev.stat()
    s = j.run(60)
    d = env.stat_delta(before, dev.stat())
    assert s["read_ios"] == d["read_ios"], (s["read_ios"], d["read_ios"])
    # read_ticks is in ms: enough I/Os make its truncation negligible
    if d["read_ticks"] < 200:
        return s["read_lat_mean_ns"], None
    return s["read_lat_mean_ns"], d["read_ticks"] * 1e6 / d["read_ios"]


def _plug_spread():
    """ssdload's excess over the block layer's mean at depth, beyond the QD 1
    path, as a share of the block layer's mean (see the test's docstring)."""
    return 0.25 if _kernel_version() >= (6, 9) else 0.35


@pytest.mark.quick
@pytest.mark.parametrize("iodepth", [64, 128])
@pytest.mark.parametrize("irqmode", [0, 2])
@pytest.mark.timing
def test_mean_matches_block_layer_at_depth(null_blk, jobs, iodepth, irqmode):
    """null_blk at QD 64/128: ssdload's mean agrees with the block layer's.

    irqmode=0 completes each request inside submit_bio(), so the latency is
    all host path; irqmode=2 completes it from a 20 us timer, outside any
    plug (irqmode=1 may complete inline on the submitting CPU).

    ssdload's interval encloses the block layer's: its clock is read before
    the plug of up to 32 prepared bios and in bi_end_io, the block layer's
    inside.  The fixed part of that path is measured at QD 1 (under TCG a
    few us, natively a few hundred ns).  At depth, part of the plug's
    submission falls inside ssdload's interval only.  From 6.9 the block
    layer starts all of a plug's requests at one cached clock reading, as
    ssdload does: measured under TCG, within 12% beyond the QD 1 path.
    Before 6.9 it stamps them as it allocates them, in batches of the
    tags it finds free together; out-of-order completions leave the tags
    fragmented, the batches partial, and its stamps later than the plug's
    start for part of them: measured x1.06-x1.15 on 6.1 on a quiet host,
    x1.23 once on a loaded CI host.  A submit stamp taken before bios built
    later (the old per-pass clock) grew with the depth: x1.8 at QD 64 and
    x3.3 at QD 128 on 6.1.  The bounds (25% from 6.9, 35% before, beyond
    the QD 1 path) sit between the two: TCG's timing noise is no failure,
    the per-pass clock still is."""
    if irqmode == 0 and _kernel_version() >= (6, 9):
        pytest.skip("from 6.9 the block layer reads its clock once per plug: a "
                    "request completed inside the plug (irqmode=0) gets the same "
                    "time at both ends, so its mean is no reference")
    m1, b1 = _mean_vs_block_layer(null_blk, jobs, 1, irqmode)
    # at QD 1 some kernels account ~0 ms for these reads: no path then
    path = max(0.0, m1 - b1) if b1 else 0.0
    mean, blk_mean = _mean_vs_block_layer(null_blk, jobs, iodepth, irqmode)
    if blk_mean is None:
        pytest.skip("the block layer accounted under 200 ms for %d-deep reads "
                    "(irqmode=%d, kernel %s): its clock is no reference here"
                    % (iodepth, irqmode, os.uname().release))
    assert 0.98 * blk_mean <= mean <= blk_mean + path + _plug_spread() * blk_mean, \
        "QD %d: mean %d ns, block layer %d ns (x%.2f); at QD 1 %d vs %d ns" % (
            iodepth, mean, blk_mean, mean / blk_mean, m1, b1)


# --------------------------------------------------------------------------
# 5. data and streams

@pytest.mark.quick
def test_writes_carry_fresh_data(brd, jobs):
    """A one-pass randwrite over 64 MiB leaves (nearly) all 4 KiB blocks distinct."""
    dev = brd(64 * 1024)[0]
    j = jobs("fresh", filename=dev.path, rw="randwrite", bs=4096, iodepth=16,
             allow_write=1)
    s = j.run(120)
    assert s["write_ios"] == 16384
    env.flushbufs(dev.path)
    data = env.direct_read(dev.path, 0, 64 * MIB)
    blocks = {hashlib.blake2b(data[i:i + 4096], digest_size=16).digest()
              for i in range(0, len(data), 4096)}
    assert len(blocks) >= 0.99 * 16384, "%d distinct blocks of 16384" % len(blocks)
    # and each sector starts with its own offset (the scramble header)
    off = 4096 * 1234 + 512 * 3
    assert int.from_bytes(data[off:off + 8], "little") == off


@pytest.mark.quick
def test_scramble_off_repeats_buffers(brd, jobs):
    """scramble_buffers=0: each I/O slot rewrites its own buffer (fio's
    scramble_buffers=0 with refill off): few distinct blocks."""
    dev = brd(16 * 1024)[0]
    j = jobs("stale", filename=dev.path, rw="randwrite", bs=4096, iodepth=4,
             allow_write=1, scramble_buffers=0)
    j.run(120)
    env.flushbufs(dev.path)
    data = env.direct_read(dev.path, 0, 16 * MIB)
    blocks = {data[i:i + 4096] for i in range(0, len(data), 4096)}
    assert len(blocks) <= 4, len(blocks)


def _written_blocks(dev, size):
    env.flushbufs(dev.path)
    data = env.direct_read(dev.path, 0, size)
    zero = bytes(4096)
    return {i // 4096 for i in range(0, size, 4096) if data[i:i + 4096] != zero}


@pytest.mark.quick
@pytest.mark.stock
def test_default_seed_differs_per_job_name(brd, jobs):
    """Two jobs on one device do not walk the same offsets in lockstep;
    the same name (or an explicit randseed) repeats them."""
    size = 16 * MIB
    sets = {}
    for tag, extra in (("a", {}), ("b", {}), ("a2", {}), ("s1", {"randseed": 7}),
                       ("s2", {"randseed": 7})):
        dev = brd(size // 1024)[0]
        name = {"a2": "a"}.get(tag, tag)
        j = env.Job("seed-" + name, filename=dev.path, rw="randwrite", bs=4096,
                    number_ios=64, allow_write=1, **extra)
        env.KNOWN_JOBS.add(j.name)
        try:
            if tag in ("a", "b", "a2"):
                assert int(j.get("randseed")) != 0
            j.run(60)
            sets[tag] = _written_blocks(dev, size)
        finally:
            j.remove()
            env.rmmod("brd")
    assert sets["a"] == sets["a2"], "the same job name gave other offsets"
    assert sets["s1"] == sets["s2"], "the same explicit randseed gave other offsets"
    assert len(sets["a"] & sets["b"]) < 16, \
        "jobs a and b share %d of 64 blocks" % len(sets["a"] & sets["b"])


@pytest.mark.quick
def test_rw_keeps_a_stream_per_direction(brd, jobs):
    """rw=rw: the writes form one sequential run from the span start."""
    dev = brd(16 * 1024)[0]
    j = jobs("rwseq", filename=dev.path, rw="rw", rwmixread=50, bs=4096,
             number_ios=1000, allow_write=1)
    s = j.run(60)
    w = s["write_ios"]
    assert 300 < w < 700, s
    assert _written_blocks(dev, 16 * MIB) == set(range(w)), \
        "the writes are not one sequential stream"


# --------------------------------------------------------------------------
# 6. CPU hotplug, memory cap

def _cpu_online(cpu, on):
    path = "/sys/devices/system/cpu/cpu%d/online" % cpu
    env.bounded(lambda: env.write_attr(path, 1 if on else 0), 60,
                "cpu%d online=%d" % (cpu, on))


@pytest.mark.slow
@pytest.mark.parametrize("hipri", [0, 1])
def test_worker_cpu_goes_offline(null_blk, poll_null_blk, jobs, hipri):
    if len(env.online_cpus()) < 2 or not os.path.exists(
            "/sys/devices/system/cpu/cpu1/online"):
        pytest.skip("needs a second CPU that can go offline")
    if hipri:
        dev = poll_null_blk(poll_queues=2, submit_queues=2)
    else:
        dev = null_blk(submit_queues=2, irqmode=1)[0]
    j = jobs("hotplug", filename=dev.path, rw="randread", bs=4096, iodepth=16,
             runtime_ms=3000, cpus_allowed="1", hipri=hipri)
    before = dev.stat()
    j.enable()
    time.sleep(0.7)
    try:
        _cpu_online(1, False)
        time.sleep(0.5)
    finally:
        _cpu_online(1, True)
    assert j.wait(60) == "done", j.error
    s = j.summary()
    d = env.stat_delta(before, dev.stat())
    assert s["worker0_cpu"] == 1
    ran = env.parse_cpulist(str(s["worker0_ran_on"]))
    assert 1 in ran and len(ran) >= 2, "worker ran on %s" % s["worker0_ran_on"]
    assert s["read_ios"] == d["read_ios"] and s["read_errors"] == 0, (s, d)
    if hipri:
        assert s["polled"] == 1


@pytest.mark.quick
def test_memory_cap_counts_pages(nullb, jobs):
    """bs=512 buffers take a page each: 4096 of them need 16 MiB, not 2."""
    old = env.read_attr("/sys/module/ssdload/parameters/max_job_mem_mb")
    env.write_attr("/sys/module/ssdload/parameters/max_job_mem_mb", 8)
    try:
        j = jobs("cap", filename=nullb.path, rw="randread", bs=512, iodepth=4096,
                 number_ios=10)
        with pytest.raises(OSError) as e:
            j.enable()
        assert e.value.errno == 12   # ENOMEM
        assert "more than max_job_mem_mb=8" in j.error, j.error
        env.write_attr("/sys/module/ssdload/parameters/max_job_mem_mb", 64)
        assert j.run(60)["read_ios"] == 10
    finally:
        env.write_attr("/sys/module/ssdload/parameters/max_job_mem_mb", old)
