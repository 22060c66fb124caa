# SPDX-License-Identifier: GPL-2.0
"""offsets: writes land in [offset, offset+size) and nowhere else.

brd keeps every byte, so the device is filled with a known per-sector
pattern from Python, ssdload writes over a span, and the whole device is read
back with O_DIRECT: inside the span every sector must differ from the
pattern (random, incompressible data), outside it every byte is unchanged.
"""

import errno
import struct
import zlib

import pytest

import ssdload_env as env

KIB = 1024
MIB = 1024 * KIB
DEV_SIZE = 16 * MIB
SECTOR = 512


def _pattern(size):
    """Each sector: its own number, then a fixed fill (cannot look random)."""
    fill = bytes([0xA5, 0x5A, 0xC3, 0x3C]) * ((SECTOR - 8) // 4)
    return b"".join(struct.pack("<Q", i) + fill for i in range(size // SECTOR))


@pytest.fixture
def ram(brd):
    d = brd(DEV_SIZE // KIB)[0]
    assert d.size_bytes() == DEV_SIZE
    pat = _pattern(DEV_SIZE)
    env.direct_write(d.path, 0, pat)
    env.flushbufs(d.path)
    assert env.direct_read(d.path, 0, DEV_SIZE) == pat
    d.pattern = pat
    return d


def _refill(d):
    env.direct_write(d.path, 0, d.pattern)
    env.flushbufs(d.path)


def _changed_sectors(d):
    env.flushbufs(d.path)
    now = env.direct_read(d.path, 0, DEV_SIZE)
    a, b = memoryview(now), memoryview(d.pattern)
    changed = [i for i in range(DEV_SIZE // SECTOR)
               if a[i * SECTOR:(i + 1) * SECTOR] != b[i * SECTOR:(i + 1) * SECTOR]]
    return now, changed


def _assert_span(d, offset, size, bs):
    now, changed = _changed_sectors(d)
    first, last = offset // SECTOR, (offset + size) // SECTOR
    outside = [s for s in changed if s < first or s >= last]
    assert not outside, "sectors outside [%d, %d) changed: %s" % (
        offset, offset + size, outside[:10])
    missing = sorted(set(range(first, last)) - set(changed))
    assert not missing, "%d sectors inside the span kept the pattern, e.g. %s" % (
        len(missing), missing[:10])
    # the written data is random, not a fill: every bs block is incompressible
    for off in range(offset, offset + size, bs):
        blk = now[off:off + bs]
        assert len(zlib.compress(blk)) >= 0.95 * len(blk), \
            "data written at %d compresses: not random" % off


@pytest.mark.quick
@pytest.mark.parametrize("offset,size,bs,cpus", [
    (1 * MIB, 2 * MIB, 4096, ""),
    (1 * MIB + 512, 64 * KIB, 4096, ""),        # offset not a multiple of bs
    (5 * MIB, 3 * MIB, 64 * KIB, "0-1"),       # two workers, one slice each
    (12 * MIB, 0, 8192, ""),                   # size 0 = to the end
], ids=["aligned", "offset512", "2workers", "to-end"])
def test_seq_write_stays_in_span(ram, jobs, offset, size, bs, cpus):
    """One sequential pass writes exactly [offset, offset+size)."""
    if cpus and len(env.online_cpus()) < 2:
        pytest.skip("needs 2 online CPUs")
    span = size or DEV_SIZE - offset
    j = jobs("span", filename=ram.path, rw="write", allow_write=1, bs=bs, iodepth=4,
             offset=offset, size=size, cpus_allowed=cpus)
    s = j.run(timeout=120)
    assert s["write_ios"] == span // bs, s
    assert s["write_bytes"] == span
    assert s["read_ios"] == 0
    _assert_span(ram, offset, span, bs)


@pytest.mark.quick
@pytest.mark.parametrize("rw,bs,size,passes", [
    ("randrw", 4096, 256 * KIB, 40),
    ("randrw", 64 * KIB, 2 * MIB, 30),
    ("rw", 4096, 256 * KIB, 30),
], ids=["randrw-4k", "randrw-64k", "rw-4k"])
@pytest.mark.stock
def test_mixed_writes_stay_random(ram, jobs, rw, bs, size, passes):
    """Mixed jobs: reads never leak into the write data.

    Every read brings the device's pattern into memory; if reads shared the
    write buffers, later writes would put the pattern (or other read-back
    data) back on the device.  With rwmixread=50 and `passes` I/Os per block
    every block of the span is written many times: each must end up random.
    """
    offset = 4 * MIB
    n = passes * size // bs
    j = jobs("mix", filename=ram.path, rw=rw, rwmixread=50, allow_write=1, bs=bs,
             iodepth=8, offset=offset, size=size, number_ios=n, randseed=7)
    s = j.run(timeout=120)
    assert s["read_ios"] + s["write_ios"] == n, s
    assert s["read_ios"] > n // 4 and s["write_ios"] > n // 4, s
    _assert_span(ram, offset, size, bs)


@pytest.mark.quick
@pytest.mark.parametrize("rw,bs,cpus", [
    ("randwrite", 4096, ""),
    ("randwrite", 8192, "0-1"),
    ("randrw", 4096, ""),
], ids=["randwrite", "randwrite-2workers", "randrw"])
@pytest.mark.stock
def test_random_one_pass_covers_span(ram, jobs, rw, bs, cpus):
    """Random with no runtime and no number_ios: one pass, every block once.

    As fio's random map: size/bs I/Os hit size/bs distinct blocks, so a
    one-pass randwrite rewrites the whole span (draws with replacement would
    leave ~37% of it untouched).  randrw writes about half the blocks and
    reads the rest, still each block once.
    """
    if cpus and len(env.online_cpus()) < 2:
        pytest.skip("needs 2 online CPUs")
    offset, size = 1 * MIB, 1 * MIB
    j = jobs("pass", filename=ram.path, rw=rw, allow_write=1, bs=bs, iodepth=8,
             offset=offset, size=size, cpus_allowed=cpus, rwmixread=50)
    s = j.run(timeout=120)
    assert s["read_ios"] + s["write_ios"] == size // bs, s
    if rw == "randwrite":
        _assert_span(ram, offset, size, bs)
        return
    _, changed = _changed_sectors(ram)
    first, last = offset // SECTOR, (offset + size) // SECTOR
    assert all(first <= c < last for c in changed), "writes outside the span"
    # each written block is a distinct block: exactly write_ios of them changed
    written = {c * SECTOR // bs for c in changed}
    assert len(written) == s["write_ios"], (len(written), s["write_ios"])
    assert len(changed) == s["write_ios"] * bs // SECTOR


@pytest.mark.quick
@pytest.mark.stock
@pytest.mark.parametrize("nrm", [0, 1], ids=["norandommap=0", "norandommap=1"])
def test_random_one_pass_norandommap(ram, jobs, nrm):
    """norandommap=1: a one-pass randwrite still issues size/bs writes, but
    draws them with replacement, as fio's norandommap: some blocks are
    written twice, so fewer distinct blocks change than were written (256
    draws over 256 blocks hit ~162 distinct ones, sd ~5; all distinct has
    probability 256!/256^256, ~1e-110, and the seed is the job name's).
    norandommap=0 is fio's random map: every block once."""
    offset, size, bs = 1 * MIB, 1 * MIB, 4096
    n = size // bs
    j = jobs("nrm", filename=ram.path, rw="randwrite", allow_write=1, bs=bs, iodepth=8,
             offset=offset, size=size, norandommap=nrm)
    s = j.run(timeout=120)
    assert s["write_ios"] == n and s["write_bytes"] == size, s
    _, changed = _changed_sectors(ram)
    first, last = offset // SECTOR, (offset + size) // SECTOR
    assert all(first <= c < last for c in changed), "writes outside the span"
    written = {c * SECTOR // bs for c in changed}
    assert len(changed) == len(written) * bs // SECTOR, "blocks partly written"
    if nrm:
        assert 0.4 * n < len(written) < 0.8 * n, (len(written), n)
    else:
        assert len(written) == n, (len(written), n)


@pytest.mark.quick
@pytest.mark.parametrize("loops", [1, 2])
def test_seq_pass_of_short_slices(ram, jobs, loops):
    """A one-pass sequential write whose four slices (32 KiB each) are
    shorter than its largest block (bsrange up to 64 KiB) still covers the
    span: each worker writes its own slice, its I/Os cut to fit, and each
    loop starts again at the slice's start."""
    offset, size = 1 * MIB, 128 * KIB
    j = jobs("short", filename=ram.path, rw="write", allow_write=1, bsrange="4k-64k",
             iodepth=2, offset=offset, size=size, numjobs=4, loops=loops)
    s = j.run(timeout=120)
    assert s["write_bytes"] == loops * size, s
    for w in range(4):
        assert s["worker%d_write_bytes" % w] == loops * size // 4, s
    _assert_span(ram, offset, size, 4096)


@pytest.mark.quick
def test_seq_write_wraps_inside_span(ram, jobs):
    """number_ios beyond one pass wraps to the span start, never past its end."""
    offset, size, bs = 3 * MIB, 256 * KIB, 4096
    j = jobs("wrap", filename=ram.path, rw="write", allow_write=1, bs=bs, iodepth=2,
             offset=offset, size=size, number_ios=3 * size // bs + 5)
    s = j.run(timeout=120)
    assert s["write_ios"] == 3 * size // bs + 5
    _assert_span(ram, offset, size, bs)


@pytest.mark.quick
@pytest.mark.stock
def test_randwrite_aligned_and_reproducible(ram, jobs):
    """randwrite: bs-aligned offsets inside the span; the same seed hits the same blocks."""
    offset, size, bs, n = 2 * MIB, 4 * MIB, 4096, 200
    blocks = size // bs

    def touched(seed):
        _refill(ram)
        j = jobs("rnd", filename=ram.path, rw="randwrite", allow_write=1, bs=bs,
                 iodepth=4, offset=offset, size=size, number_ios=n, randseed=seed)
        s = j.run(timeout=120)
        assert s["write_ios"] == n
        j.remove()
        _, changed = _changed_sectors(ram)
        per = bs // SECTOR
        blk = {}
        for sec in changed:
            assert offset // SECTOR <= sec < (offset + size) // SECTOR, \
                "sector %d outside the span" % sec
            blk.setdefault((sec * SECTOR - offset) // bs, []).append(sec)
        for b, secs in blk.items():
            assert len(secs) == per, "block %d only partly written: not bs-aligned" % b
        return set(blk)

    a = touched(1234)
    # 200 uniform draws over 1024 blocks hit ~182 distinct blocks
    assert 150 <= len(a) <= n, len(a)
    assert touched(1234) == a, "same randseed, different offsets"
    c = touched(98765)
    assert c != a, "different randseed, same offsets"
    assert len(a & c) < 0.5 * len(a), "two seeds share %d of %d blocks" % (len(a & c), len(a))
    assert all(0 <= b < blocks for b in a | c)


@pytest.mark.quick
@pytest.mark.parametrize("offset,size,bs", [
    (DEV_SIZE - 4096, 8192, 4096),              # runs past the end
    (DEV_SIZE, 0, 4096),                        # starts at the end
    (DEV_SIZE + 1 * MIB, 4096, 4096),           # starts beyond the end
    (0, DEV_SIZE + 512, 4096),                  # size larger than the device
    (1 * MIB, 2048, 4096),                      # span smaller than bs
], ids=["past-end", "at-end", "beyond", "too-big", "span<bs"])
def test_span_outside_device_refused(ram, jobs, offset, size, bs):
    """offset+size beyond the device (or a span < bs) fails enable; nothing is written."""
    j = jobs("bad", filename=ram.path, rw="write", allow_write=1, bs=bs, iodepth=1)
    try:
        j.set(offset=offset, size=size)
    except OSError as e:
        # refusing at store time is fine too
        assert e.errno in (errno.EINVAL, errno.ERANGE), e
    else:
        with pytest.raises(OSError) as ei:
            j.enable()
        assert ei.value.errno in (errno.EINVAL, errno.ERANGE, errno.ENOSPC), ei.value
        assert j.state != "running"
        err = j.error
        assert err != "0" and err.startswith("-"), "error attribute %r" % err
    _, changed = _changed_sectors(ram)
    assert not changed, "a refused job wrote %d sectors" % len(changed)
    # the job stays usable
    j.set(offset=1 * MIB, size=64 * KIB)
    s = j.run(timeout=60)
    assert s["write_ios"] == 16
    _assert_span(ram, 1 * MIB, 64 * KIB, 4096)
