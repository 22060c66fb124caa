# SPDX-License-Identifier: GPL-2.0
"""flush: fio's sync options reach the device as flushes and FUA writes.

A configfs null_blk with memory_backed=1 and a cache_size has a volatile
write cache, so the block layer sends it every flush and counts each in
/sys/block/DEV/stat (fields 16-17: flush I/Os and ms), the ground truth
here.  A write with REQ_PREFLUSH costs one flush request before it; a
REQ_FUA write on a device without FUA one flush after it (the block
layer's emulation), none with FUA.  null_blk grew a "fua" attribute
(6.9): where it has one the device is made without FUA, so that each FUA
write shows as a flush.  iodepth 1 keeps the block layer from merging the
flushes of writes in flight together.

The flush path differs between kernels (blk-flush was reworked in 6.6 and
later), hence every kernel, not `stock`.
"""
import os

import pytest

import ssdload_env as env

W = 97          # writes per run: not a multiple of the intervals below


def _flushes(dev):
    """Field 16 of /sys/block/DEV/stat (flush I/Os), once nothing is in flight."""
    dev.stat()
    f = env.read(dev.sys + "/stat").split()
    if len(f) < 17:
        pytest.skip("/sys/block/%s/stat has no flush fields" % dev.name)
    return int(f[15])


def _cache_dev(nullb_cfg, name, fua):
    env.null_blk_ensure_configfs()
    attrs = dict(size=64, memory_backed=1, cache_size=16)
    path = os.path.join(env.NULLB_CONFIGFS, "features")
    feats = env.read(path) if os.path.exists(path) else ""
    if not fua and "fua" in feats.replace(",", " ").split():
        attrs["fua"] = 0
    dev = nullb_cfg(name, **attrs)
    cache = env.read_attr(dev.sys + "/queue/write_cache")
    if cache != "write back":
        pytest.skip("null_blk with cache_size reports write_cache=%r" % cache)
    return dev


def _job(jobs, dev, tag, **kw):
    a = dict(filename=dev.path, rw="randwrite", bs=4096, iodepth=1, numjobs=1,
             number_ios=W, allow_write=1, size=8 << 20)
    a.update(kw)
    return jobs(tag, **a)


@pytest.mark.quick
def test_fsync_and_end_fsync_are_the_device_flushes(nullb_cfg, jobs):
    """fsync=8, end_fsync=1 at iodepth 8: W/8 + 1 flushes, each counted once
    by the block layer and by the module, with its own histogram."""
    dev = _cache_dev(nullb_cfg, "flush0", fua=True)
    j = _job(jobs, dev, "fsync", iodepth=8, fsync=8, end_fsync=1)
    before = _flushes(dev)
    s = j.run(120)
    flushes = _flushes(dev) - before
    assert s["error"] == 0 and s["write_ios"] == W, s
    assert s["sync_ios"] == W // 8 + 1, s
    assert flushes == s["sync_ios"], "block layer %d flushes, ssdload %d" % (
        flushes, s["sync_ios"])
    assert s["sync_errors"] == 0 and s["fua_writes"] == 0
    h = j.hist("sync")
    assert h.dir == env.uapi_define("SSDLOAD_HIST_DIR_SYNC")
    assert h.samples == s["sync_ios"] and h.min_ns == s["sync_lat_min_ns"] > 0
    assert j.hist("write").samples == W


@pytest.mark.stock
def test_each_worker_counts_its_flushes(nullb_cfg, jobs):
    """numjobs=2, fsync=8, end_fsync=1: each worker flushes after its own
    8th, 16th ... write and once at its end, and counts its own flushes
    (worker<i>_sync_*, fio's per-clone sync); they add up to sync_ios and
    to the block layer's count."""
    dev = _cache_dev(nullb_cfg, "flush2", fua=True)
    j = _job(jobs, dev, "perworker", numjobs=2, fsync=8, end_fsync=1)
    before = _flushes(dev)
    s = j.run(120)
    flushes = _flushes(dev) - before
    assert s["error"] == 0 and s["write_ios"] == W and s["workers"] == 2, s
    per = [s["worker%d_sync_ios" % i] for i in range(2)]
    writes = [s["worker%d_write_ios" % i] for i in range(2)]
    assert per == [w // 8 + (1 if w else 0) for w in writes], (per, writes)
    assert sum(per) == s["sync_ios"] == flushes, (per, s["sync_ios"], flushes)
    for i in range(2):
        assert s["worker%d_sync_bytes" % i] == 0 and s["worker%d_sync_errors" % i] == 0
        if per[i]:
            assert 0 < s["worker%d_sync_lat_min_ns" % i] <= s["worker%d_sync_lat_max_ns" % i]
            assert s["worker%d_sync_lat_sum_ns" % i] >= per[i] * s["worker%d_sync_lat_min_ns" % i]


@pytest.mark.quick
def test_barriers_and_fua_writes(nullb_cfg, jobs):
    """write_barrier=8: (W-1)/8 PREFLUSH writes, a flush each (and one
    after each where the device has no FUA); sync=1: every write FUA,
    a flush each where the device has no FUA, none where it has."""
    dev = _cache_dev(nullb_cfg, "flush1", fua=False)
    fua = env.read_attr(dev.sys + "/queue/fua") == "1"
    per_fua = 0 if fua else 1

    j = _job(jobs, dev, "barrier", write_barrier=8)
    before = _flushes(dev)
    s = j.run(120)
    flushes = _flushes(dev) - before
    barriers = (W - 1) // 8
    assert s["error"] == 0 and s["write_ios"] == W, s
    assert s["barrier_writes"] == barriers and s["fua_writes"] == barriers, s
    assert s["sync_ios"] == 0, s
    assert flushes == barriers * (1 + per_fua), \
        "%d barriers (fua=%d): block layer %d flushes" % (barriers, fua, flushes)

    j = _job(jobs, dev, "fua", sync=1)
    before = _flushes(dev)
    s = j.run(120)
    flushes = _flushes(dev) - before
    assert s["error"] == 0 and s["write_ios"] == W, s
    assert s["fua_writes"] == W and s["barrier_writes"] == 0, s
    assert flushes == W * per_fua, "%d FUA writes (fua=%d): block layer %d flushes" % (
        W, fua, flushes)
