# SPDX-License-Identifier: GPL-2.0
"""workload features checked against the block layer and the device contents.

- trims (rw=trim/randtrim/trimwrite): /sys/block/X/stat discard fields equal
  trim_ios/trim_bytes exactly; a device without discard and a job without
  allow_write are refused;
- write data: buffer_compress_percentage compresses with zstd -1 like fio's
  data of the same setting on the same device; dedupe_percentage gives that
  share of duplicate 4 KiB blocks on the device;
- two devices in one job: each device's own counters equal its dev<i>_* keys;
- numjobs=8 on 2 CPUs: 8 kthreads, per-worker counts add up;
- cpu_ns_per_io agrees with the kthreads' /proc/<pid>/stat CPU time;
- malformed values of the new attributes are refused at the store.

Kernels: all three, except where a prerequisite is missing there (fio needs
SysV IPC, which the debug kernel does not have: the compression comparison
skips there with that reason).
"""

import collections
import errno
import hashlib
import os
import subprocess
import time

import pytest

import blktrace
import ssdload_env as env

KIB = 1024
MIB = 1024 * KIB
REFUSED = (errno.EINVAL, errno.ERANGE)

# /sys/block/X/stat fields 12-15 (1-based): discards completed, merged, sectors, ticks
DISCARD_FIELDS = ("discard_ios", "discard_merges", "discard_sectors", "discard_ticks")


def _need_attrs(job, *attrs):
    missing = [a for a in attrs if not os.path.exists(job.path(a))]
    assert not missing, "ssdload has no configfs attribute(s) %s (issue 7)" % missing


def _full_stat(dev):
    """All /sys/block/X/stat fields once settled (dev.stat() waits), with the
    discard fields named."""
    base = dev.stat()
    vals = [int(x) for x in env.read(dev.sys + "/stat").split()]
    if len(vals) < 15:
        pytest.skip("/sys/block/%s/stat has no discard fields (%d fields)" % (dev.name,
                                                                              len(vals)))
    base.update(dict(zip(DISCARD_FIELDS, vals[11:15])))
    return base


def _delta(before, after):
    d = env.stat_delta(before, after)
    for k in DISCARD_FIELDS:
        d[k] = after[k] - before[k]
    d["discard_bytes"] = d["discard_sectors"] * 512
    return d


# --------------------------------------------------------------------------
# trims

@pytest.fixture
def discard_nullb(nullb_cfg):
    """A 256 MiB memory-backed null_blk with discard=1 (null_blk ignores
    discard without memory backing)."""
    try:
        dev = nullb_cfg("e2etrim", size=256, memory_backed=1, discard=1)
    except OSError as e:
        pytest.skip("null_blk configfs has no discard on this kernel: %s" % e)
    mdb = int(env.read_attr(dev.sys + "/queue/discard_max_bytes"))
    if mdb == 0:
        pytest.skip("null_blk discard=1 memory_backed=1 gives discard_max_bytes=0")
    dev.discard_max = mdb
    return dev


@pytest.mark.quick
@pytest.mark.parametrize("rw,n", [("trim", 512), ("randtrim", 1500), ("trimwrite", 1000)])
def test_trim_counts_equal_block_stat(discard_nullb, jobs, rw, n):
    """Trims: the discard fields of /sys/block/X/stat equal trim_ios and
    trim_bytes exactly; writes (trimwrite) equal write_ios; no reads."""
    dev = discard_nullb
    bs = 64 * KIB
    assert bs <= dev.discard_max
    j = jobs("trim", filename=dev.path, allow_write=1, bs=bs, iodepth=8,
             offset=1 * MIB, size=32 * MIB, number_ios=n, randseed=2)
    j.write("rw", rw)
    before = _full_stat(dev)
    s = j.run(120)
    d = _delta(before, _full_stat(dev))
    assert s["trim_errors"] == 0 and s["write_errors"] == 0, s
    assert s["trim_ios"] > 0, s
    assert s["trim_ios"] == d["discard_ios"], \
        "trim_ios %d, block layer discards %d" % (s["trim_ios"], d["discard_ios"])
    assert s["trim_bytes"] == d["discard_bytes"] == s["trim_ios"] * bs, \
        (s["trim_bytes"], d["discard_bytes"])
    assert d["discard_merges"] == 0
    assert s["write_ios"] == d["write_ios"] and s["write_bytes"] == d["write_bytes"], (s, d)
    assert s["read_ios"] == 0 == d["read_ios"]
    if rw == "trimwrite":
        # a pair counts once against number_ios: each trim has its write
        assert s["trim_ios"] == s["write_ios"] == n, s
        assert s["trim_bytes"] == s["write_bytes"], s
    else:
        assert s["write_ios"] == 0 and s["trim_ios"] == n, s
    assert j.hist("trim").samples == s["trim_ios"]


@pytest.mark.quick
@pytest.mark.parametrize("rw", ["trim", "randtrim", "trimwrite"])
def test_trim_without_discard_refused(nullb, jobs, kmsg, rw):
    """A device without discard: enable fails EOPNOTSUPP, the error names the
    device and discard, the pr_err names rw; nothing reaches the device."""
    if int(env.read_attr(nullb.sys + "/queue/discard_max_bytes")) != 0:
        pytest.skip("this null_blk supports discard")
    j = jobs("nodisc", filename=nullb.path, allow_write=1, bs=4096, number_ios=64)
    j.write("rw", rw)
    mark = kmsg.mark()
    before = nullb.stat()
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EOPNOTSUPP, ei.value
    assert j.state != "running"
    err = j.error
    assert err.startswith("-%d" % errno.EOPNOTSUPP), err
    assert "discard" in err and nullb.path in err, err
    lines = [l for l in kmsg.since(mark) if "ssdload" in l]
    assert any("rw" in l and "discard" in l for l in lines), lines
    d = env.stat_delta(before, nullb.stat())
    assert d["read_ios"] == d["write_ios"] == 0
    assert nullb.exclusive_open_works(), "a refused enable left the device claimed"


@pytest.mark.quick
@pytest.mark.parametrize("rw", ["trim", "randtrim", "trimwrite"])
def test_trim_needs_allow_write(discard_nullb, jobs, rw):
    """Trims destroy data: without allow_write=1 enable is EPERM, nothing trimmed."""
    dev = discard_nullb
    j = jobs("tperm", filename=dev.path, bs=64 * KIB, number_ios=32)
    j.write("rw", rw)
    before = _full_stat(dev)
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EPERM, ei.value
    assert j.state != "running"
    d = _delta(before, _full_stat(dev))
    assert d["discard_ios"] == d["write_ios"] == 0
    j.write("allow_write", 1)
    assert j.run(60)["trim_ios"] > 0


# --------------------------------------------------------------------------
# write data: compression and dedupe, measured on the device contents

DATA_DEV = 32 * MIB


def _read_dev(dev, size):
    env.flushbufs(dev.path)
    return env.direct_read(dev.path, 0, size)


def _zstd_ratio(data):
    p = subprocess.run(["zstd", "-1", "-c", "-q"], input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    assert p.returncode == 0, p.stderr
    return len(data) / len(p.stdout)


@pytest.fixture
def zstd():
    import shutil
    p = shutil.which("zstd")
    if not p:
        pytest.skip("zstd is not installed in the guest (scripts/deps.sh installs it)")
    return p


@pytest.mark.parametrize("pct,floor", [(50, 1.5), (80, 3.0)])
@pytest.mark.stock
def test_compress_percentage_like_fio(brd, jobs, fio, zstd, pct, floor):
    """One sequential pass with buffer_compress_percentage=P over a brd: zstd -1
    of the device gives the same ratio (within 10%) as fio's data with the same
    option (fio: P != 100 implies refill_buffers), and it really compresses."""
    dev = brd(DATA_DEV // KIB)[0]
    bs = 128 * KIB
    j = jobs("cmp", filename=dev.path, rw="write", allow_write=1, bs=bs, iodepth=4,
             cpus_allowed="0")
    _need_attrs(j, "buffer_compress_percentage")
    j.write("buffer_compress_percentage", pct)
    s = j.run(180)
    assert s["write_bytes"] == DATA_DEV, s
    mine = _zstd_ratio(_read_dev(dev, DATA_DEV))
    # fio over the same device, same options: it rewrites every byte in one pass too
    env.run(["fio", "--name=cmp", "--filename=" + dev.path, "--rw=write",
             "--bs=%d" % bs, "--direct=1", "--ioengine=psync", "--size=%d" % DATA_DEV,
             "--buffer_compress_percentage=%d" % pct, "--randrepeat=0"], timeout=300)
    ref = _zstd_ratio(_read_dev(dev, DATA_DEV))
    assert abs(mine / ref - 1) <= 0.10, \
        "zstd -1 ratio %.3f with ssdload, %.3f with fio (buffer_compress_percentage=%d)" % (
            mine, ref, pct)
    assert mine > floor, "zstd -1 ratio %.3f at %d%%" % (mine, pct)


def _dup_share(data, bs=4096):
    n = len(data) // bs
    mv = memoryview(data)
    distinct = {hashlib.blake2b(mv[i * bs:(i + 1) * bs], digest_size=16).digest()
                for i in range(n)}
    return 100.0 * (n - len(distinct)) / n


@pytest.mark.parametrize("pct,extra", [(30, {}), (0, {"refill_buffers": 1})],
                         ids=["dedupe30", "refill-unique"])
@pytest.mark.stock
def test_dedupe_percentage_on_device(brd, jobs, pct, extra):
    """A one-pass bs=4k write with dedupe_percentage=30: 30% +- 2 of the
    device's 4 KiB blocks duplicate another; with refill_buffers=1 and no
    dedupe every block is unique."""
    dev = brd(DATA_DEV // KIB)[0]
    j = jobs("dd", filename=dev.path, rw="write", allow_write=1, bs=4096, iodepth=4,
             cpus_allowed="0")
    _need_attrs(j, "dedupe_percentage", "refill_buffers")
    j.write("dedupe_percentage", pct)
    j.set(**extra)
    s = j.run(180)
    assert s["write_bytes"] == DATA_DEV, s
    share = _dup_share(_read_dev(dev, DATA_DEV))
    if pct:
        assert abs(share - pct) <= 2.0, \
            "%.2f%% duplicate 4 KiB blocks, dedupe_percentage=%d" % (share, pct)
    else:
        assert share == 0.0, "%.3f%% duplicate blocks with refill_buffers=1" % share


# --------------------------------------------------------------------------
# two devices in one job

def test_two_devices_counts_per_device(null_blk, brd, jobs):
    """filename=/dev/nullb0:/dev/ram0: null_blk's /sys/block stat equals the
    dev0_* counts, brd's bios (block:block_bio_queue: brd keeps no I/O stats)
    equal the dev1_* counts, per direction, and the two add up to the totals."""
    nb = null_blk()[0]
    ram = brd(64 * KIB)[0]
    n, bs = 6000, 4096
    j = jobs("two", filename="%s:%s" % (nb.path, ram.path), rw="randrw", rwmixread=50,
             allow_write=1, bs=bs, iodepth=8, number_ios=n, size=32 * MIB, randseed=4)
    try:
        t = blktrace.BlockTrace(ram, "block_bio_queue")
    except blktrace.Unavailable as e:
        pytest.skip("brd has no I/O stats and %s" % e)
    before = nb.stat()
    with t:
        s = j.run(180)
    d = env.stat_delta(before, nb.stat())
    assert s["devices"] == 2, s
    assert s["dev0_name"] == nb.path and s["dev1_name"] == ram.path, s
    for k in ("read", "write"):
        assert s["dev0_%s_ios" % k] == d["%s_ios" % k], \
            "%s: dev0 %d, null_blk stat %d" % (k, s["dev0_%s_ios" % k], d["%s_ios" % k])
        assert s["dev0_%s_bytes" % k] == d["%s_bytes" % k]
        evs = [e for e in t.events if e.dir == k]
        assert s["dev1_%s_ios" % k] == len(evs), \
            "%s: dev1 %d, brd bios %d" % (k, s["dev1_%s_ios" % k], len(evs))
        assert s["dev1_%s_bytes" % k] == sum(e.size for e in evs)
        assert s["dev0_%s_ios" % k] + s["dev1_%s_ios" % k] == s["%s_ios" % k], s
        assert s["dev0_%s_ios" % k] > 0 and s["dev1_%s_ios" % k] > 0, s
    assert s["read_ios"] + s["write_ios"] == n
    # each device's span: size=32 MiB absolute is split evenly (fio): 16 MiB each
    for i, dev in enumerate((nb, ram)):
        assert s["dev%d_span_bytes" % i] == 16 * MIB, s
    assert all(e.offset + e.size <= s["dev1_span_start"] + 16 * MIB for e in t.events)


# --------------------------------------------------------------------------
# numjobs

def _pids():
    return {int(p) for p in os.listdir("/proc") if p.isdigit()}


def _sample_kthreads(base, running, interval=0.05, timeout=30):
    """Sample the ssdload kthreads born after @base (the pids before enable)
    while running(); {pid: (comm, cpus_allowed_list, utime+stime ticks)}.

    Cheap on purpose (a full /proc scan per sample took longer than a 2 s run
    on the debug kernel with 8 busy workers): only new pids are looked at,
    and once known only their stat is read.  The ticks are those of the last
    sample (the kthreads exit at teardown)."""
    seen, other = {}, set(base)
    deadline = time.monotonic() + timeout
    while running() and time.monotonic() < deadline:
        for pid in _pids() - other:
            try:
                comm = env.read("/proc/%d/comm" % pid).strip()
                st = env.read("/proc/%d/stat" % pid)
                status = env.parse_status(env.read("/proc/%d/status" % pid))
            except OSError:
                continue
            f = st[st.rindex(")") + 2:].split()
            if comm == "kthreadd" and int(f[6]) & 0x00200000:
                continue    # forked by kthreadd, not yet named: look again
            if not comm.startswith("ssdload") or not int(f[6]) & 0x00200000:  # PF_KTHREAD
                other.add(pid)
                continue
            seen[pid] = (comm, status.get("Cpus_allowed_list", ""), None)
            other.add(pid)
        for pid, (comm, cpus, _) in list(seen.items()):
            try:
                st = env.read("/proc/%d/stat" % pid)
            except OSError:
                continue        # exited: keep the last sample
            f = st[st.rindex(")") + 2:].split()
            seen[pid] = (comm, cpus, int(f[11]) + int(f[12]))   # fields 14, 15
        time.sleep(interval)
    return seen


@pytest.mark.quick
def test_numjobs_8_on_2_cpus(null_blk, jobs):
    """numjobs=8 with cpus_allowed=0-1: 8 kthreads (4 per CPU, round-robin),
    8 distinct pids in the summary, per-worker counts add up to the totals."""
    cpus = env.online_cpus()
    if len(cpus) < 2:
        pytest.skip("needs 2 online CPUs, guest has %s" % cpus)
    nb = null_blk()[0]
    j = jobs("nj", filename=nb.path, rw="randrw", rwmixread=70, allow_write=1, bs=4096,
             iodepth=4, runtime_ms=2000, cpus_allowed="0-1")
    _need_attrs(j, "numjobs")
    j.write("numjobs", 8)
    assert j.get("numjobs") == "8"
    before = nb.stat()
    base = _pids()
    j.enable()
    seen = _sample_kthreads(base, lambda: j.state == "running")
    j.wait(60)
    d = env.stat_delta(before, nb.stat())
    s = j.summary()
    assert s["numjobs"] == 8 and s["workers"] == 8, s
    pids = [s["worker%d_pid" % i] for i in range(8)]
    assert len(set(pids)) == 8, pids
    assert set(seen) == set(pids), "kthreads seen %s, summary pids %s" % (seen, pids)
    assert all(c.startswith("ssdload/") for c, _, _ in seen.values()), seen
    per_cpu = collections.Counter(cp for _, cp, _ in seen.values())
    assert per_cpu == {"0": 4, "1": 4}, "kthread affinity %s" % per_cpu
    assert sorted(s["worker%d_cpu" % i] for i in range(8)) == [0] * 4 + [1] * 4
    assert "worker8_cpu" not in s
    for k in ("read", "write"):
        w = [s["worker%d_%s_ios" % (i, k)] for i in range(8)]
        assert all(x > 0 for x in w), (k, w)
        assert sum(w) == s["%s_ios" % k] == d["%s_ios" % k], (k, w, s["%s_ios" % k], d)
        wb = [s["worker%d_%s_bytes" % (i, k)] for i in range(8)]
        assert sum(wb) == s["%s_bytes" % k] == d["%s_bytes" % k]
    assert not env.ssdload_kthreads(), "kthreads survive the finished job"


# --------------------------------------------------------------------------
# CPU time

@pytest.mark.quick
def test_cpu_ns_per_io_matches_proc(null_blk, jobs):
    """cpu_ns_per_io (and cpu_ns) agree within 20% with the worker kthread's
    utime+stime from /proc/<pid>/stat over the same ~3 s run."""
    nb = null_blk()[0]
    j = jobs("cpu", filename=nb.path, rw="randread", bs=4096, iodepth=8,
             runtime_ms=3000, cpus_allowed="0")
    base = _pids()
    j.enable()
    seen = _sample_kthreads(base, lambda: j.state == "running")
    j.wait(60)
    s = j.summary()
    assert "cpu_ns_per_io" in s and "cpu_ns" in s, "summary has no cpu_ns keys (issue 7)"
    assert len(seen) == 1, seen
    (pid, (_, _, ticks)), = seen.items()
    assert s["worker0_pid"] == pid, (s["worker0_pid"], pid)
    hz = os.sysconf("SC_CLK_TCK")
    proc_ns = ticks * 1e9 / hz
    assert ticks >= 0.5 * hz, "the worker used only %d ticks in a 3 s run" % ticks
    done = s["read_ios"]
    assert done > 0
    want = proc_ns / done
    got = s["cpu_ns_per_io"]
    assert abs(got - want) <= 0.2 * want, \
        "cpu_ns_per_io %d, /proc/%d/stat says %.0f ns per I/O (%d ticks, %d I/Os)" % (
            got, pid, want, ticks, done)
    assert abs(s["cpu_ns"] - proc_ns) <= 0.2 * proc_ns, (s["cpu_ns"], proc_ns)
    assert s["worker0_cpu_ns"] == s["cpu_ns"], s
    assert s["cpu_ns_per_io"] == s["cpu_ns"] // done


# --------------------------------------------------------------------------
# bad input of the new attributes

BAD_NEW = [
    ("bssplit", "4k/0:8k/100"),          # zero weight
    ("bssplit", "0/50:4k/50"),           # 0-byte block
    ("random_distribution", "zoned:50/60:50/60"),   # zones over 100%
    ("random_distribution", "zipf:0"),
    ("random_distribution", "zipf:-1"),
    ("random_distribution", "foo:1"),
    ("size", "101%"),
    ("buffer_compress_percentage", "101"),
    ("dedupe_percentage", "101"),
    ("buffer_pattern", "0xabc"),          # odd number of hex digits
    ("buffer_pattern", "zz"),
]


@pytest.mark.quick
@pytest.mark.parametrize("attr,value", BAD_NEW,
                         ids=["%s=%s" % av for av in BAD_NEW])
def test_new_attribute_refuses(nullb, jobs, kmsg, attr, value):
    """Refused at the configfs write with EINVAL/ERANGE, a pr_err naming the
    attribute and the value, the attribute unchanged, nothing started; the
    job still runs afterwards."""
    j = jobs("bad", filename=nullb.path, rw="randread", bs=4096, iodepth=2, number_ios=16)
    _need_attrs(j, attr)
    before_val = j.get(attr)
    before = nullb.stat()
    mark = kmsg.mark()
    with pytest.raises(OSError) as ei:
        j.write(attr, value)
    assert ei.value.errno in REFUSED, "%s=%r: errno %s, expected EINVAL/ERANGE" % (
        attr, value, errno.errorcode.get(ei.value.errno))
    assert j.get(attr) == before_val, "%s changed to %r" % (attr, j.get(attr))
    lines = [l for l in kmsg.since(mark) if "ssdload" in l]
    assert any(attr in l and value in l for l in lines), \
        "no pr_err naming %s and %r: %s" % (attr, value, lines)
    assert j.state == "idle" and j.get("enable") == "0"
    assert not env.ssdload_kthreads()
    d = env.stat_delta(before, nullb.stat())
    assert d["read_ios"] == d["write_ios"] == 0
    s = j.run(60)
    assert s["read_ios"] == 16


# --------------------------------------------------------------------------
# spans that end inside a block

def test_trimwrite_writes_after_its_trim(discard_nullb, jobs):
    """trimwrite: each write is issued only after the trim of the same bytes
    (block_rq_issue order), whatever the depth; every trim has its write."""
    dev = discard_nullb
    bs = 64 * KIB
    j = jobs("tw", filename=dev.path, rw="trimwrite", allow_write=1, bs=bs, iodepth=16,
             size=8 * MIB, randseed=5)
    try:
        t = blktrace.BlockTrace(dev, "block_rq_issue")
    except blktrace.Unavailable as e:
        pytest.skip(str(e))
    with t:
        s = j.run(120)
    n = 8 * MIB // bs
    assert s["trim_ios"] == s["write_ios"] == n, s
    first_trim, first_write = {}, {}
    for i, e in enumerate(t.events):
        if e.dir == "trim":
            first_trim.setdefault(e.offset, i)
        elif e.dir == "write":
            first_write.setdefault(e.offset, i)
    assert len(first_trim) == len(first_write) == n, (len(first_trim), len(first_write))
    late = [o for o in first_write if first_trim.get(o, len(t.events)) > first_write[o]]
    assert not late, "writes issued before their trim at offsets %s" % late[:8]


@pytest.mark.quick
def test_one_pass_ends_inside_a_block(null_blk, jobs):
    """bs=8k, blockalign=4k, 12k per device: each device's one pass reads 8k
    then the last 4k (the I/O is shortened to the span).  With
    file_service_type=sequential and one I/O slot, the second device's
    first I/O reuses the slot just shortened: it must be a full 8k again."""
    a, b = null_blk(nr_devices=2)[:2]
    j = jobs("cut", filename="%s:%s" % (a.path, b.path), rw="read", bs=8192,
             blockalign=4096, size=24576, iodepth=1, file_service_type="sequential")
    before = [a.stat(), b.stat()]
    s = j.run(60)
    for i, dev in enumerate((a, b)):
        d = env.stat_delta(before[i], dev.stat())
        assert s["dev%d_read_bytes" % i] == 12288 == d["read_bytes"], (i, s, d)
        assert s["dev%d_read_ios" % i] == 2 == d["read_ios"], (i, s, d)
    assert s["read_bytes"] == 24576 and s["read_ios"] == 4, s


@pytest.mark.quick
@pytest.mark.parametrize("attrs,why", [
    ({"bssplit": "8k/50:12k/50", "size": 12288}, "blockalign"),
    ({"bsrange": "1536-4096", "size": 4096}, "blockalign"),
    ({"size": "0.0001%"}, "rounds down to 0"),
], ids=["bssplit-8k-12k", "bsrange-1536", "size-pct-0"])
def test_span_rounding_refused(nullb, jobs, attrs, why):
    """A span that rounds (to blockalign, or a tiny percentage) below the
    largest block or to 0 bytes is refused at enable, naming size."""
    j = jobs("round", filename=nullb.path, rw="randread", runtime_ms=500, **attrs)
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EINVAL, ei.value
    assert why in j.error and j.state == "error", j.error


def test_size_share_rounding_to_zero_refused(nullb_cfg, jobs):
    """filename=a:b with size=4096 on 4k-sector devices: each share is 2048
    bytes, 0 once aligned: refused, not "the whole device"."""
    a = nullb_cfg("sha", blocksize=4096, size=64)
    b = nullb_cfg("shb", blocksize=4096, size=64)
    j = jobs("share", filename="%s:%s" % (a.path, b.path), rw="read", size=4096)
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EINVAL, ei.value
    assert "rounds down to 0" in j.error, j.error
