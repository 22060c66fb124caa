# SPDX-License-Identifier: GPL-2.0
"""verify (Documentation/verify.rst): the blocks a job writes carry the
documented header and checksum, the read-back pass checks every block
written and finds no failure on a memory-backed device, and what verify
cannot do is refused at enable, naming the attribute.

On every kernel: the checksums come from a different library per kernel
(module/compat: crc32c)."""

import os
import struct
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))

import ssdload_env as env  # noqa: E402  pylint: disable=wrong-import-position

KIB = 1024
MIB = 1024 * KIB
SPAN = 8 * MIB
HDR = struct.Struct("<IHBBIIQQQQII")    # the first 56 bytes of the header


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


def _verify(j):
    return env.parse_kv(env.read(os.path.join(j.dbg, "verify")))


def test_verify_one_pass_checks_every_block(brd, jobs):
    """randwrite with verify=crc32c, one pass over 8 MiB: every block is
    written once and read back, none fails; a block on the device holds the
    documented header (layout, LBA, seed, both CRCs computed here)."""
    dev = brd(SPAN // KIB)[0]
    j = jobs("vfy", filename=dev.path, rw="randwrite", allow_write=1, bs=4096,
             iodepth=8, cpus_allowed="0", verify="crc32c", time_based=0)
    s = j.run(300)
    blocks = SPAN // 4096
    assert s["write_ios"] == blocks, s
    v = _verify(j)
    assert v["verify"] == "crc32c" and v["verify_state"] == "done", v
    assert v["verify_written"] == blocks, v
    assert v["verify_checked"] == v["verify_written"], v
    assert v["verify_units"] == blocks, v
    assert v["verify_failed"] == 0, v
    assert v["verify_map_bytes"] == blocks, v

    off = 4096 * (blocks - 1)               # the last block of the span
    blk = env.direct_read(dev.path, off, 4096)
    (magic, version, ctype, flags, length, _worker, lba, seed, _seq, _t,
     gen, hdr_csum) = HDR.unpack_from(blk)
    assert (magic, version, ctype, flags, length) == (0x56445353, 1, 1, 0, 4096)
    assert blk[:4] == b"SSDV"
    assert lba == off // 512
    assert seed == int(j.get("randseed"))
    assert gen == 1
    assert blk[56:64] == bytes(8)
    assert crc32c(blk[:52] + bytes(4) + blk[56:96]) == hdr_csum
    assert struct.unpack_from("<I", blk, 64)[0] == crc32c(blk[96:])


def test_verify_overlapping_writes_pass(brd, jobs):
    """Two workers at iodepth 16 rewrite a 1 MiB span for 300 ms with
    xxhash and 512-byte units: writes of one block overlap (the ambiguous
    mark), and still no unit fails; every written block is checked."""
    dev = brd(MIB // KIB)[0]
    j = jobs("vfyo", filename=dev.path, rw="randwrite", allow_write=1, bs=4096,
             iodepth=16, numjobs=2, runtime_ms=300, verify="xxhash",
             verify_interval=512)
    s = j.run(300)
    v = _verify(j)
    assert v["verify_state"] == "done", v
    # random offsets: a block may be missed, none written is not counted
    assert 0 < v["verify_written"] <= min(MIB // 4096, s["write_ios"]), (v, s)
    assert v["verify_checked"] == v["verify_written"], v
    assert v["verify_units"] == 8 * v["verify_checked"], v
    assert v["verify_failed"] == 0, v


@pytest.mark.quick
@pytest.mark.parametrize("attrs,attr,errno", [
    ({"verify": "crc32c", "verify_interval": 1536}, "verify_interval", 22),
    ({"verify": "crc32c", "verify_interval": 8192}, "verify_interval", 22),
    ({"verify": "crc32c", "bssplit": "4k/50:8k/50"}, "verify", 22),
    ({"verify": "crc32c", "rw": "randread"}, "verify", 22),
])
def test_verify_refused_at_enable(brd, jobs, kmsg, attrs, attr, errno):
    """What verify cannot do is refused at enable with the errno, naming
    the attribute in the log."""
    dev = brd(MIB // KIB)[0]
    base = {"filename": dev.path, "rw": "randwrite", "allow_write": 1, "bs": 4096,
            "cpus_allowed": "0"}
    base.update(attrs)
    j = jobs("vfyr", **base)
    mark = kmsg.mark()
    with pytest.raises(OSError) as e:
        j.enable()
    assert e.value.errno == errno, j.error
    assert j.state == "error"
    assert j.error.startswith("-%d " % errno), j.error
    assert any(j.name in l and "enable failed (%s)" % attr in l
               for l in kmsg.since(mark)), kmsg.since(mark)
