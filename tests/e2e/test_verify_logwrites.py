# SPDX-License-Identifier: GPL-2.0
"""A power cut emulated with dm-log-writes (Documentation/verify.rst, Power
cuts): a verify write job with flushes runs over a log-writes device, and
lib/log_replay.py replays the log onto a fresh device.

- the whole log rebuilds the written device byte for byte (the replay tool
  reads the documented format right);
- up to a flush, every block is either unwritten (zeros) or a complete
  block of this job for its own LBA with a valid checksum: what a drive
  with a volatile cache may hold after a cut, never a torn or misplaced
  block;
- without one write from before that flush, exactly that block differs.

The check against the module's acknowledged state (verify_only) is not
there yet; the blocks are checked here, in Python.  On the stock kernel:
the module paths are those of test_verify.py."""

import os
import struct
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))

import log_replay  # noqa: E402  pylint: disable=wrong-import-position
import ssdload_env as env  # noqa: E402  pylint: disable=wrong-import-position

KIB = 1024
MIB = 1024 * KIB
SPAN = MIB
BS = 4096


def _crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_T = _crc32c_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = _T[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def _block_ok(blk, off, seed):
    """A complete block of this job for byte offset @off (the header's
    magic, LBA, seed, both CRCs)."""
    magic, _ver, _ctype, _fl, length, _w, lba, bseed = struct.unpack_from("<IHBBIIQQ", blk)
    if magic != 0x56445353 or length != BS or lba != off // 512 or bseed != seed:
        return False
    hdr_csum, = struct.unpack_from("<I", blk, 52)
    if crc32c(blk[:52] + bytes(4) + blk[56:96]) != hdr_csum:
        return False
    return struct.unpack_from("<I", blk, 64)[0] == crc32c(blk[96:])


def _zero(path):
    env.direct_write(path, 0, bytes(SPAN))


@pytest.mark.stock
def test_power_cut_replayed_from_log_writes(brd, jobs):
    """Write with a flush every 8 writes over dm-log-writes, then replay the
    log: in full, up to the third flush, and without one write."""
    if not os.path.exists("/usr/sbin/dmsetup") and not os.path.exists("/sbin/dmsetup"):
        pytest.skip("dmsetup is not installed (Debian package dmsetup)")
    if not env.have_module("dm_log_writes"):
        pytest.skip("dm-log-writes is not available on kernel %s" % env.kernel_label())
    env.run(["modprobe", "dm_log_writes"])
    data, log, fresh = brd(4 * MIB // KIB, nr=3)
    sectors = data.size_bytes() // 512
    env.run(["dmsetup", "--noudevsync", "create", "ssdl-lw", "--table",
             "0 %d log-writes %s %s" % (sectors, data.path, log.path)])
    try:
        dm = [d for d in os.listdir("/sys/block") if d.startswith("dm-") and
              env.read_attr("/sys/block/%s/dm/name" % d) == "ssdl-lw"]
        assert dm, "no dm-N for ssdl-lw"
        dev = env.BlockDev(dm[0])
        dev.wait_for_node()
        j = jobs("vlw", filename=dev.path, rw="write", allow_write=1, bs=BS,
                 iodepth=4, cpus_allowed="0", size=SPAN, time_based=0,
                 verify="crc32c", fsync=8)
        s = j.run(300)
        assert s["write_ios"] == SPAN // BS, s
        seed = int(j.get("randseed"))
    finally:
        env.cleanup_jobs()
        env.run(["dmsetup", "--noudevsync", "remove", "ssdl-lw"])

    ents = log_replay.entries(log.path)
    writes = [e for e in ents if e.is_write()]
    flushes = [e for e in ents if e.flags & log_replay.FLUSH]
    assert len(writes) == SPAN // BS, [repr(e) for e in ents[:20]]
    assert len(flushes) >= SPAN // BS // 8, len(flushes)
    assert ents[-1].flags & log_replay.MARK and ents[-1].mark == "dm-log-writes-end"

    # the whole log rebuilds the device
    log_replay.replay(log.path, fresh.path)
    assert env.direct_read(fresh.path, 0, SPAN) == env.direct_read(data.path, 0, SPAN)

    # up to the third flush: complete blocks of this job, or zeros
    _zero(fresh.path)
    end = log_replay.end_index(ents, flushes=3)
    n = log_replay.replay(log.path, fresh.path, end)
    img = env.direct_read(fresh.path, 0, SPAN)
    ok = zero = 0
    for off in range(0, SPAN, BS):
        blk = img[off:off + BS]
        if blk == bytes(BS):
            zero += 1
        else:
            assert _block_ok(blk, off, seed), "block at %d is neither zeros nor whole" % off
            ok += 1
    assert ok == n and 0 < n < SPAN // BS and ok + zero == SPAN // BS, (ok, zero, n)

    # without the first write before that flush: exactly its block is lost
    first = [e for e in ents[:end + 1] if e.is_write()][0]
    _zero(fresh.path)
    log_replay.replay(log.path, fresh.path, end, skip={first.idx})
    img2 = env.direct_read(fresh.path, 0, SPAN)
    diff = [off for off in range(0, SPAN, BS) if img[off:off + BS] != img2[off:off + BS]]
    assert diff == [first.off], (diff, first)
    assert img2[first.off:first.off + BS] == bytes(BS)
