# SPDX-License-Identifier: GPL-2.0
"""verify_only with a saved state (Documentation/verify.rst, "The state
file"): damage made outside ssdload between a write run and a verify_only
run is reported block by block, with the right class and LBA, and nothing
else; and every bad state or verify_only job is refused at enable,
naming the attribute.

A write job writes every block of a small brd twice (loops=2: generation
2) and its state is saved from debugfs verify_state; the damage is done
with O_DIRECT reads and writes of the device (or blkdiscard); a new job
with verify_only=1, allow_write=0 loads the state through configfs
verify_state and checks every block the state says was written.

Kernels: 6.1 and debug (the state's load and save and the verify_only
path under KASAN, lockdep and kmemleak); 6.12 runs the same code as 6.1.
"""

import errno
import os
import shutil
import struct
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))

import ssdload_env as env  # noqa: E402  pylint: disable=wrong-import-position

KIB = 1024
MIB = 1024 * KIB
BS = 4096
SPAN = 2 * MIB
BLOCKS = SPAN // BS
SEED = 4242
KERNELS = ("6.1", "debug")
HDR = struct.Struct("<IHHHHBBHIIQQQQQ")         # struct ssdload_vstate_hdr, 64 B
DEV = struct.Struct("<QQQQ32s")                 # struct ssdload_vstate_dev, 64 B


@pytest.fixture(autouse=True)
def _kernels():
    if env.kernel_label() not in KERNELS:
        pytest.skip("the state file and verify_only run on kernels %s: the same "
                    "code as 6.1 elsewhere" % " ".join(KERNELS))


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


def reseal(state):
    """The state with its trailing crc32c recomputed (a consistent forgery)."""
    body = bytes(state[:-4])
    return body + struct.pack("<I", crc32c(body))


def _job_attrs(dev, **extra):
    a = dict(filename=dev.path, rw="write", bs=BS, iodepth=4, cpus_allowed="0",
             verify="crc32c", randseed=SEED, size=SPAN, time_based=0)
    a.update(extra)
    return a


def write_run(jobs, dev, tag="vw", loops=2, **extra):
    """Write every block @loops times, with verify; return the saved state."""
    j = jobs(tag, **_job_attrs(dev, allow_write=1, loops=loops, **extra))
    s = j.run(300)
    assert s["write_ios"] == loops * BLOCKS, s
    v = env.parse_kv(env.read(os.path.join(j.dbg, "verify")))
    assert v["verify_failed"] == 0 and v["verify_written"] == BLOCKS, v
    with open(os.path.join(j.dbg, "verify_state"), "rb") as f:
        return f.read()


def load_state(j, blob):
    """configfs verify_state: the bytes in one write(2), handed over at close."""
    fd = os.open(j.path("verify_state"), os.O_WRONLY)
    try:
        n = os.write(fd, blob)
    finally:
        os.close(fd)
    assert n == len(blob)


def verify_only(jobs, dev, state, tag="vo", expect="error", **extra):
    """A verify_only job over the same span: its verify results and failures.
    The device reads back unchanged after it (it writes nothing)."""
    j = jobs(tag, **_job_attrs(dev, verify_only=1, **extra))
    load_state(j, state)
    image = env.direct_read(dev.path, 0, SPAN)
    s = j.run(300, expect=expect)
    assert s["write_ios"] == 0, s
    assert env.direct_read(dev.path, 0, SPAN) == image, "verify_only changed the device"
    text = env.read(os.path.join(j.dbg, "verify"))
    v = env.parse_kv("\n".join(l for l in text.splitlines() if not l.startswith("fail=")))
    fails = {}
    for line in text.splitlines():
        if line.startswith("fail="):
            lba, cls = line[5:].split()[:2]
            fails[int(lba)] = cls
    assert v["verify_state"] == "done", v
    assert v["verify_checked"] == v["verify_written"] == BLOCKS, v
    assert v["verify_failed"] == len(fails), (v, fails)
    if expect == "error":
        first = min(fails)
        assert j.error.startswith("-84 ") and str(first) in j.error, j.error
    j.remove()
    return v, fails


def _block(dev, i):
    return env.direct_read(dev.path, i * BS, BS)


def _put(dev, i, data):
    env.direct_write(dev.path, i * BS, data)


def check_layout(st, dev):
    """The saved state is the documented layout: header, one device
    record, a map of generation 2 for every block, and its crc32c."""
    assert len(st) == 64 + 64 + BLOCKS + 4
    (magic, ver, hsize, dsize, ndev, ctype, gbits, flags, bs, interval, seed,
     map_bytes, written, _t, _r) = HDR.unpack_from(st)
    assert st[:4] == b"SSST" and magic == 0x54535353
    assert (ver, hsize, dsize, ndev, ctype, gbits, flags) == (1, 64, 64, 1, 1, 8, 0)
    assert (bs, interval, seed, map_bytes, written) == (BS, BS, SEED, BLOCKS, BLOCKS)
    dev_bytes, start, span, blocks, name = DEV.unpack_from(st, 64)
    assert (dev_bytes, start, span, blocks) == (dev.size_bytes(), 0, SPAN, BLOCKS)
    assert name.rstrip(b"\0").decode() == dev.name
    assert st[128:128 + BLOCKS] == bytes([2]) * BLOCKS
    assert struct.unpack_from("<I", st, len(st) - 4)[0] == crc32c(st[:-4])


def test_damage_is_classified(brd, jobs):
    """A first run writes every block once (generation 1) and the device is
    copied; a second writes each block twice (generation 2) and saves the
    state.  From that image, each damage in turn, then verify_only:
      nothing changed:               passes, every block checked;
      one byte flipped in K blocks:  exactly K corrupt;
      block 10 copied over 200:      1 misplaced, at 200;
      K blocks restored from the
      copy of the first run:         exactly K stale."""
    dev = brd(SPAN // KIB)[0]
    write_run(jobs, dev, tag="v1", loops=1)
    old = env.direct_read(dev.path, 0, SPAN)
    st = write_run(jobs, dev, tag="v2", loops=2)
    check_layout(st, dev)
    image = env.direct_read(dev.path, 0, SPAN)
    assert image != old

    v, fails = verify_only(jobs, dev, st, expect="done")
    assert not fails and v["verify_failed"] == 0, v

    picks = {3: 20, 100: 96, 257: 2000, BLOCKS - 1: BS - 1}    # block: byte
    for i, off in picks.items():
        b = bytearray(_block(dev, i))
        b[off] ^= 0x01
        _put(dev, i, bytes(b))
    v, fails = verify_only(jobs, dev, st)
    assert fails == {i * BS // 512: "corrupt" for i in picks}, fails
    assert v["verify_corrupt"] == len(picks), v

    env.direct_write(dev.path, 0, image)
    _put(dev, 200, _block(dev, 10))
    v, fails = verify_only(jobs, dev, st)
    assert fails == {200 * BS // 512: "misplaced"}, fails
    assert v["verify_misplaced"] == 1, v

    env.direct_write(dev.path, 0, image)
    picks = (0, 77, 300, BLOCKS - 2)
    for i in picks:
        _put(dev, i, old[i * BS:(i + 1) * BS])
    v, fails = verify_only(jobs, dev, st)
    assert fails == {i * BS // 512: "stale" for i in picks}, fails
    assert v["verify_stale"] == len(picks), v


def test_discarded_range_is_foreign(nullb_cfg, jobs):
    """A range trimmed with blkdiscard on a memory-backed null_blk that
    returns zeros after a discard: exactly those blocks are foreign."""
    if not shutil.which("blkdiscard"):
        pytest.skip("blkdiscard is not installed in the guest")
    try:
        dev = nullb_cfg("vfd", size=SPAN // MIB, memory_backed=1, discard=1,
                        blocksize=4096)
    except OSError as e:
        pytest.skip("null_blk has no memory-backed discard here: %s" % e)
    st = write_run(jobs, dev)
    first, n = 64, 16
    env.run(["blkdiscard", "-o", str(first * BS), "-l", str(n * BS), dev.path])
    if any(_block(dev, first)):
        pytest.skip("this null_blk does not read zeros after a discard")
    v, fails = verify_only(jobs, dev, st)
    assert fails == {i * BS // 512: "foreign" for i in range(first, first + n)}, fails
    assert v["verify_foreign"] == n, v


# ---- refusals at enable ------------------------------------------------------

def _refused(j, kmsg, attr, err):
    mark = kmsg.mark()
    with pytest.raises(OSError) as e:
        j.enable()
    assert e.value.errno == err, (j.name, errno.errorcode.get(e.value.errno), j.error)
    assert j.state == "error" and j.error.startswith("-%d " % err), j.error
    assert any(j.name in l and "enable failed (%s)" % attr in l
               for l in kmsg.since(mark)), kmsg.since(mark)
    return j.error


def _forge_dev_bytes(st):
    b = bytearray(st)
    struct.pack_into("<Q", b, 64, struct.unpack_from("<Q", b, 64)[0] + MIB)
    return reseal(b)


BAD = [
    # case, job attributes, state, attribute named, errno, word of the error
    ("nostate", {}, None, "verify_only", errno.ENODATA, "needs a state"),
    ("noverify", {"verify": "0"}, "ok", "verify_only", errno.EINVAL, "verify="),
    ("span", {"size": SPAN // 2}, "ok", "verify_state", errno.EINVAL, "span"),
    ("offset", {"offset": BS, "size": SPAN - BS}, "ok", "verify_state",
     errno.EINVAL, "span"),
    ("devsize", {}, "devsize", "verify_state", errno.EINVAL, "bytes"),
    ("bs", {"bs": 2 * BS}, "ok", "verify_state", errno.EINVAL, "bs="),
    ("csum", {"verify": "xxhash"}, "ok", "verify_state", errno.EINVAL, "verify=crc32c"),
    ("interval", {"verify_interval": 1024}, "ok", "verify_state", errno.EINVAL,
     "verify_interval"),
    ("truncated", {}, "truncated", "verify_state", errno.EBADMSG, "truncated"),
    ("corrupted", {}, "corrupted", "verify_state", errno.EBADMSG, "crc32c"),
    ("notastate", {}, "text", "verify_state", errno.EBADMSG, "magic"),
    ("notonly", {"verify_only": 0, "allow_write": 1}, "ok", "verify_state",
     errno.EINVAL, "verify_only=0"),
]


def test_bad_state_refused_at_enable(brd, jobs, kmsg):
    """Each bad verify_only job or state: enable fails with the errno, the
    error names the problem and the log the attribute.  Writing "0"
    drops a loaded state; a state written while the job runs is not
    taken (logged); features lists both attributes."""
    assert {"verify_only", "verify_state"} <= set(env.features())
    dev = brd(SPAN // KIB)[0]
    st = write_run(jobs, dev, loops=1)
    blobs = {"ok": st, "devsize": _forge_dev_bytes(st), "truncated": st[:-1],
             "corrupted": st[:130] + bytes([st[130] ^ 4]) + st[131:],
             "text": b"crc32c\n" * 40, None: None}
    for case, attrs, blob, attr, err, word in BAD:
        a = _job_attrs(dev, verify_only=1)
        a.update(attrs)
        j = jobs("vb" + case, **a)
        if blobs[blob] is not None:
            load_state(j, blobs[blob])
        msg = _refused(j, kmsg, attr, err)
        assert word in msg, (case, msg)
        j.remove()

    j = jobs("vd", **_job_attrs(dev, verify_only=1))
    load_state(j, st)
    load_state(j, b"0\n")        # echo 0 > verify_state
    _refused(j, kmsg, "verify_only", errno.ENODATA)

    w = jobs("vbusy", **_job_attrs(dev, allow_write=1, time_based=1,
                                   runtime_ms=60000))
    w.enable()
    mark = kmsg.mark()
    load_state(w, st)
    assert any("verify_state" in l and w.name in l for l in kmsg.since(mark)), \
        kmsg.since(mark)
    w.stop()
    w.set(verify="0", runtime_ms=100)
    w.run(60)       # no state was kept: a plain write run is not refused
    # the debugfs state of a job whose last run had no verify
    with pytest.raises(OSError) as e:
        env.read(os.path.join(w.dbg, "verify_state"))
    assert e.value.errno == errno.ENODATA


# ---- the CLI: --verify_state_save, --verify_only with --verify_state ------------

@pytest.mark.stock
def test_cli_save_then_verify_only(brd, cli, tmp_path):  # pylint: disable=unused-argument
    """ssdload run --verify saves the state atomically where --verify_state
    says; a --verify_only run loads it and passes; after one block is
    restored from an older copy, the same run fails with it as stale."""
    dev = brd(SPAN // KIB)[0]
    path = str(tmp_path / "st")
    base = ["run", "--filename=" + dev.path, "--bs=%d" % BS, "--size=%d" % SPAN,
            "--randseed=%d" % SEED, "--verify=crc32c", "--rw=write", "--iodepth=4",
            "--cpus_allowed=0", "--eta=never"]
    p = env.cli(*(base + ["--name=vcli1", "--allow_write=1", "--verify_state=" + path]))
    if p.returncode and "does not support" in p.stderr:
        pytest.skip("this CLI does not take --verify yet: %s" % p.stderr.strip())
    assert p.returncode == 0, p.stderr
    old = env.direct_read(dev.path, 0, SPAN)
    p = env.cli(*(base + ["--name=vcli2", "--allow_write=1", "--loops=2",
                          "--verify_state=" + path]), check=True)
    st = open(path, "rb").read()
    assert st[:4] == b"SSST" and st[128:128 + BLOCKS] == bytes([2]) * BLOCKS
    assert [f for f in os.listdir(tmp_path) if f != "st"] == [], "a temporary file is left"
    p = env.cli(*(base + ["--name=vcli3", "--verify_only", "--verify_state=" + path]))
    assert p.returncode == 0, p.stderr
    env.direct_write(dev.path, 5 * BS, old[5 * BS:6 * BS])
    p = env.cli(*(base + ["--name=vcli4", "--verify_only", "--verify_state=" + path]))
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert "stale" in p.stdout + p.stderr
