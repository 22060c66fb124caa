# SPDX-License-Identifier: GPL-2.0
"""verify=md5, verify=sha1 (the kernel crypto API) and verify=pattern with
fio's verify_pattern syntax (Documentation/verify.rst): a write and its
read-back pass find no failure on a memory-backed device, and the blocks
on the device hold what the docs say (the digest computed here with
hashlib, the pattern with %o laid out as fio's lib/pattern.c does).

md5 and sha1 run on the stock kernel (the debug kernel is built without
the crypto API: they are refused there, which the refusal test checks);
the pattern runs on every kernel (its fill and check run under KASAN on
the debug kernel)."""

import hashlib
import os
import struct
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))

import ssdload_env as env  # noqa: E402  pylint: disable=wrong-import-position

KIB = 1024
MIB = 1024 * KIB
SPAN = 2 * MIB
BS = 4096
HDR = struct.Struct("<IHBBIIQ")         # magic .. lba, the first 24 bytes
CTYPE = {"md5": 5, "sha1": 6}           # enum ssdload_verify


def _verify(j):
    return env.parse_kv(env.read(os.path.join(j.dbg, "verify")))


def _one_pass(brd, jobs, name, **attrs):
    """A randwrite pass over SPAN, every block once, then the read-back."""
    dev = brd(SPAN // KIB)[0]
    base = dict(filename=dev.path, rw="randwrite", allow_write=1, bs=BS,
                iodepth=8, numjobs=2, time_based=0)
    base.update(attrs)
    j = jobs(name, **base)
    s = j.run(300)
    blocks = SPAN // BS
    assert s["write_ios"] == blocks, s
    v = _verify(j)
    assert v["verify_state"] == "done", v
    assert v["verify_written"] == blocks, v
    assert v["verify_checked"] == blocks, v
    assert v["verify_failed"] == 0, v
    # the checksum (or the pattern's fill) timed at the run's end
    assert v["verify_csum_bytes"] == 256 * KIB, v
    assert v["verify_csum_ns"] > 0, v
    return dev, j, v


@pytest.mark.stock
@pytest.mark.parametrize("algo", ["md5", "sha1"])
def test_verify_digest_write_and_check(brd, jobs, algo):
    """verify=md5/sha1 with 1 KiB units: no unit fails, every unit is
    checked, and each unit of a block on the device carries its LBA and
    the digest of its data as hashlib computes it."""
    dev, j, v = _one_pass(brd, jobs, "vs" + algo, verify=algo,
                          verify_interval=1024)
    assert v["verify"] == algo, v
    assert v["verify_units"] == 4 * v["verify_checked"], v
    off = SPAN - BS                         # the last block of the span
    blk = env.direct_read(dev.path, off, BS)
    for u in range(0, BS, 1024):
        unit = blk[u:u + 1024]
        magic, _ver, ctype, _flags, length, _worker, lba = HDR.unpack_from(unit)
        assert (magic, ctype, length, lba) == (0x56445353, CTYPE[algo], 1024,
                                               (off + u) // 512)
        want = hashlib.new(algo, unit[96:]).digest()
        assert unit[64:64 + len(want)] == want, (algo, u)
        assert unit[64 + len(want):96] == bytes(96 - 64 - len(want))


def _fio_pattern(block_off, length, pat, fmts):
    """fio's layout: the pattern with the block's offset (8 bytes LE) at
    each %o, repeated from the block's start."""
    p = bytearray(pat)
    for f in fmts:
        p[f:f + 8] = struct.pack("<Q", block_off)
    reps = -(-length // len(p))
    return bytes(p * reps)[:length]


def test_verify_pattern_write_and_check(brd, jobs):
    """verify=pattern, verify_pattern=0xaa%o"ssd" (12 bytes, not a divisor
    of the 512-byte units): no unit fails, and two blocks on the device are
    exactly fio's layout for their own offsets, with no header."""
    text = '0xaa%o"ssd"'
    dev, j, v = _one_pass(brd, jobs, "vspat", verify="pattern",
                          verify_pattern=text, verify_interval=512)
    assert j.get("verify_pattern") == text
    assert v["verify"] == "pattern", v
    assert v["verify_units"] == 8 * v["verify_checked"], v
    pat = b"\xaa" + bytes(8) + b"ssd"
    for off in (0, SPAN - BS):
        got = env.direct_read(dev.path, off, BS)
        assert got == _fio_pattern(off, BS, pat, [1]), off


def test_verify_pattern_under_crc32c(brd, jobs):
    """verify=crc32c with verify_pattern=%o: the header, then the block's
    offset repeated (in phase with the block's start) as the checked data;
    no failure."""
    dev, _j, _v = _one_pass(brd, jobs, "vspcrc", verify="crc32c",
                            verify_pattern="%o")
    off = BS * 7
    got = env.direct_read(dev.path, off, BS)
    assert got[:4] == b"SSDV"
    assert got[96:] == _fio_pattern(off, BS, bytes(8), [0])[96:]


@pytest.mark.quick
@pytest.mark.parametrize("attrs", [
    {"verify": "pattern"},
    {"verify_pattern": "0xff"},
    {"verify": "meta", "verify_pattern": "%o"},
])
def test_verify_pattern_refused_at_enable(brd, jobs, kmsg, attrs):
    """verify=pattern without a pattern, a pattern without verify, and a
    pattern with a type that checks no data are refused at enable
    (-EINVAL), naming verify_pattern."""
    dev = brd(MIB // KIB)[0]
    base = {"filename": dev.path, "rw": "randwrite", "allow_write": 1, "bs": BS,
            "cpus_allowed": "0"}
    base.update(attrs)
    j = jobs("vsr", **base)
    mark = kmsg.mark()
    with pytest.raises(OSError) as e:
        j.enable()
    assert e.value.errno == 22, j.error
    assert j.state == "error"
    assert j.error.startswith("-22 "), j.error
    assert any(j.name in l and "enable failed (verify_pattern)" in l
               for l in kmsg.since(mark)), kmsg.since(mark)


@pytest.mark.quick
def test_verify_digest_unwinds(brd, jobs, kmsg):
    """sha1 with a generation map above max_job_mem_mb=1: refused naming
    verify (-ENOMEM) after its transform was taken, which the unwind frees
    (kmemleak on the debug kernel); on a kernel without the crypto API
    (the debug kernel) refused for that instead (-EOPNOTSUPP)."""
    param = "/sys/module/ssdload/parameters/max_job_mem_mb"
    dev = brd(8 * MIB // KIB)[0]
    j = jobs("vsu", filename=dev.path, rw="randwrite", allow_write=1, bs=512,
             cpus_allowed="0", verify="sha1", verify_pattern="%o")
    old = env.read_attr(param)
    env.write_attr(param, 1)
    mark = kmsg.mark()
    try:
        with pytest.raises(OSError) as e:
            j.enable()
    finally:
        env.write_attr(param, old)
    assert e.value.errno in (12, 95), j.error
    if e.value.errno == 95:
        assert "crypto API" in j.error, j.error
    else:
        assert "max_job_mem_mb=1" in j.error, j.error
    assert j.state == "error"
    assert any(j.name in l and "enable failed (verify)" in l
               for l in kmsg.since(mark)), kmsg.since(mark)
    # the job runs once the cap allows it (on a kernel with sha1)
    if e.value.errno == 12:
        j.write("time_based", 0)
        j.write("size", 256 * KIB)
        s = j.run(300)
        assert s["write_ios"] == 256 * KIB // 512, s
        assert _verify(j)["verify_failed"] == 0


@pytest.mark.quick
@pytest.mark.parametrize("value", ["%x", '"abc', "'file'", "2147483648",
                                   "0x" + "ab" * 513],
                         ids=["fmt", "quote", "file", "int", "513bytes"])
def test_verify_pattern_refused_at_store(jobs, kmsg, value):
    """A malformed verify_pattern is refused when written (-EINVAL), naming
    the attribute, and the attribute keeps its value."""
    j = jobs("vsp")
    j.write("verify_pattern", "0x55")
    mark = kmsg.mark()
    with pytest.raises(OSError) as e:
        j.write("verify_pattern", value)
    assert e.value.errno == 22
    assert j.get("verify_pattern") == "0x55"
    assert any("verify_pattern" in l for l in kmsg.since(mark)), kmsg.since(mark)
