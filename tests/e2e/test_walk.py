# SPDX-License-Identifier: GPL-2.0
"""fio's rw suffixes and numjobs clones, as the block layer sees them.

- rw=read:8k and rw=read:-8k (the module's rw_gap): the offsets of a
  one-pass run in block_rq_issue are exactly those fio 3.33 writes to its
  --write_iolog for the same job on the same device;
- rw=randread:4 (rw_seq_nr): each random offset is followed by 3 I/Os,
  each where the one before ended;
- offset_increment with size_increment and per_clone: the workers' I/Os
  are fio's clones' (as a multiset: the workers interleave), and
  per_clone gives each worker number_ios;
- the refusals at enable of the new paths, each naming its attribute.

Kernels: the offset comparisons are `stock` (the same module code on
every kernel); the region and refusal tests also run on the debug kernel
(new module paths under KASAN), not on a second stock kernel.
"""
import errno
import os
import subprocess

import pytest

import blktrace
import ssdload_env as env

K = 1024
NOT_612 = pytest.mark.skipif(
    not env.stock_kernel() and not env.debug_kernel(),
    reason="new module paths: run on the stock kernel (%s) and under KASAN on the "
    "debug kernel; this is %s" % (" ".join(env.STOCK_KERNELS), env.kernel_label()))


def trace(dev):
    try:
        return blktrace.BlockTrace(dev, "block_rq_issue")
    except blktrace.Unavailable as e:
        pytest.skip(str(e))


def fio_offsets(fio, tmp_path, dev, *args):
    """The offsets fio 3.33 issues on @dev (its --write_iolog), in order."""
    log = tmp_path / "fio.iolog"
    p = subprocess.run([fio, "--name=walk", "--filename=" + dev.path, "--ioengine=psync",
                        "--direct=1", "--bs=4k", "--write_iolog=" + str(log),
                        "--output=/dev/null"] + list(args),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    offs = []
    with open(log) as f:
        for line in f:
            w = line.split()
            # v3: "TIME FILE ACTION OFFSET LENGTH"
            if len(w) == 5 and w[2] in ("read", "write"):
                offs.append(int(w[3]))
    assert offs, log.read_text()[:2000]
    return offs


@pytest.mark.stock
@pytest.mark.parametrize("gap,offset", [(8 * K, 128 * K), (-8 * K, 128 * K), (-8 * K, 0)],
                         ids=["read:8k", "read:-8k@128k", "read:-8k@0"])
def test_gap_offsets_are_fios(nullb, jobs, fio, tmp_path, gap, offset):
    """bs=4k size=64k, one pass: ssdload's offsets are fio's, one by one."""
    j = jobs("gap", filename=nullb.path, rw="read", rw_gap=gap, bs=4096, iodepth=1,
             offset=offset, size=64 * K)
    t = trace(nullb)
    with t:
        s = j.run(60)
    got = [e.offset for e in t.events if e.dir == "read"]
    want = fio_offsets(fio, tmp_path, nullb, "--rw=read:%dk" % (gap // K),
                       "--offset=%d" % offset, "--size=64k")
    assert got == want, (got, want)
    assert s["read_ios"] == len(want), s


@pytest.mark.stock
def test_randread_4_per_offset(nullb, jobs):
    """rw_seq_nr=4: of every 4 I/Os the first is drawn, the next 3 follow it
    (or start at the span's start when the span ends); a random draw lands
    anywhere (not always after the one before)."""
    j = jobs("rseq", filename=nullb.path, rw="randread", rw_seq_nr=4, bs=4096,
             iodepth=1, offset=1 << 20, size=256 * K, number_ios=400, randseed=3)
    t = trace(nullb)
    with t:
        s = j.run(60)
    offs = [e.offset - (1 << 20) for e in t.events if e.dir == "read"]
    assert len(offs) == s["read_ios"] == 400, s
    bad = [i for i in range(len(offs)) if i % 4 and offs[i] != offs[i - 1] + 4096 and
           not (offs[i] == 0 and offs[i - 1] == 252 * K)]
    assert not bad, [(i, offs[i - 1], offs[i]) for i in bad[:8]]
    assert all(0 <= o <= 252 * K for o in offs), offs
    jumps = sum(1 for i in range(4, len(offs), 4) if offs[i] != offs[i - 1] + 4096)
    assert jumps > 80, jumps


@pytest.mark.stock
def test_clone_regions_are_fios(nullb, jobs, fio, tmp_path):
    """numjobs=3 offset_increment=128k size=16k: worker k reads clone k's
    region (128k * k, 16k), as fio's clones; fio's iolog has them all."""
    j = jobs("clones", filename=nullb.path, rw="read", bs=4096, iodepth=1, numjobs=3,
             offset_increment=128 * K, size=16 * K, per_clone=1)
    t = trace(nullb)
    with t:
        s = j.run(60)
    got = sorted(e.offset for e in t.events if e.dir == "read")
    want = sorted(fio_offsets(fio, tmp_path, nullb, "--rw=read", "--size=16k",
                              "--offset_increment=128k", "--numjobs=3"))
    assert got == want, (got, want)
    assert s["read_ios"] == 12, s


@NOT_612
@pytest.mark.quick
def test_size_increment_at_the_last_worker(nullb, jobs):
    """offset=64k offset_increment=1m size=64k size_increment=32k, 3
    workers, one pass: worker k covers 64k + 1m * k for 64k + 32k * k."""
    j = jobs("sizeinc", filename=nullb.path, rw="read", bs=4096, iodepth=2, numjobs=3,
             offset=64 * K, offset_increment=1 << 20, size=64 * K, size_increment=32 * K)
    t = trace(nullb)
    with t:
        s = j.run(60)
    got = sorted(e.offset for e in t.events if e.dir == "read")
    want = sorted(64 * K + (k << 20) + x for k in range(3)
                  for x in range(0, (64 + 32 * k) * K, 4096))
    assert got == want
    assert s["read_bytes"] == (64 + 96 + 128) * K, s


@NOT_612
@pytest.mark.quick
def test_per_clone_counts_per_worker(nullb, jobs):
    """per_clone=1: each of 3 workers issues number_ios; without it they
    share it (block layer counts)."""
    for per_clone, n in ((1, 30), (0, 10)):
        before = nullb.stat()
        j = jobs("pc%d" % per_clone, filename=nullb.path, rw="randread", bs=4096,
                 numjobs=3, number_ios=10, per_clone=per_clone, size=1 << 20)
        s = j.run(60)
        d = env.stat_delta(before, nullb.stat())
        assert s["read_ios"] == d["read_ios"] == n, (per_clone, s, d)


@NOT_612
@pytest.mark.quick
@pytest.mark.parametrize("attrs,attr", [
    ({"rw_gap": 8192, "bssplit": "4k/50:8k/50"}, "rw_gap"),
    ({"rw": "randread", "rw_seq_nr": 4, "bsrange": "4096-8192"}, "rw_seq_nr"),
    ({"numjobs": 4, "offset_increment": 1 << 29, "size": 1 << 20}, "offset_increment"),
    ({"numjobs": 2, "size_increment": 4096}, "size_increment"),
    ({"numjobs": 2, "offset_increment": 6144, "bs": 4096}, "offset_increment"),
    ({"numjobs": 2, "offset_increment": 4096, "random_distribution": "zipf:1.2",
      "rw": "randread"}, "random_distribution"),
], ids=["gap-bssplit", "seq-bsrange", "beyond-device", "size-inc-no-size",
        "inc-not-aligned", "inc-zipf"])
def test_walk_refusals(null_blk, jobs, attrs, attr):
    """Each refused at enable with -EINVAL, the error naming the attribute."""
    dev = null_blk(gb=1)[0]
    a = dict(rw="read", bs=4096, number_ios=8)
    a.update(attrs)
    if "bssplit" in a or "bsrange" in a:
        a.pop("bs")
    j = jobs("walkno", filename=dev.path, **a)
    if attr == "offset_increment" and a.get("size") == 1 << 20:
        j.set(offset=(1 << 30) - (1 << 21))
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EINVAL, ei.value
    assert attr in j.error, j.error


@NOT_612
@pytest.mark.quick
def test_gap_not_a_multiple_of_the_logical_block(nullb_cfg, jobs):
    dev = nullb_cfg("gap4k", blocksize=4096, size=64)
    j = jobs("gaplbs", filename=dev.path, rw="read", bs=4096, rw_gap=-512, number_ios=8)
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EINVAL
    assert "rw_gap" in j.error and "logical block size 4096" in j.error, j.error
    assert os.path.exists(dev.path)
