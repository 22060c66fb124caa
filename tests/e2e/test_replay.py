# SPDX-License-Identifier: GPL-2.0
"""replay: a recorded trace issued by the module (Documentation/replay.rst).

The module's side is driven here without the CLI: the tests pack
struct ssdload_replay_rec records (uapi/ssdload.h) and write them to the
job's debugfs file replay, as the CLI does.  They check what the device
saw (block_rq_issue: the records' offsets, lengths and directions in their
order), the counts per operation, the lateness figures in count terms (no
timing assertion: TCG's timers make any bound a guess), the refusals (a
write record without allow_write, a garbage record, a short write), the
back-pressure of the bounded buffer (a stream larger than it replays
fully), and the removal of a job while its writer is blocked (no hang, no
leak: the harness checks kmemleak and lockdep on the debug kernel).

Module paths (the stream, the hrtimer wait, teardown with a writer):
6.1 and the debug kernel (KASAN, lockdep, kmemleak).  The CLI's side
(`ssdload replay`) is checked on the stock kernel (stock).
"""
import errno
import os
import struct
import threading
import time

import pytest

import blktrace
import ssdload_env as env

KERNELS = ("6.1", "debug")
REC = struct.Struct("<QQIHHII")
MAGIC = env.uapi_define("SSDLOAD_REPLAY_REC_MAGIC")
RING = env.uapi_define("SSDLOAD_REPLAY_RING")
READ, WRITE, TRIM, FLUSH, END = range(5)


@pytest.fixture(autouse=True)
def _kernels(request):
    if request.node.get_closest_marker("stock"):
        return
    if env.kernel_label() not in KERNELS:
        pytest.skip("replay's module paths run on %s only (time budget); this is %s"
                    % ("/".join(KERNELS), env.kernel_label()))


def rec(t_ns, off, length, op=READ, target=0, magic=None):
    return REC.pack(t_ns, off, length, op, target, MAGIC if magic is None else magic, 0)


def end():
    return rec(0, 0, 0, END)


def stats(j):
    return env.parse_kv(env.read(os.path.join(j.dbg, "replay_stats")))


def write_all(fd, data):
    """Write @data whole, as the CLI does: a short write goes on."""
    while data:
        n = os.write(fd, data)
        assert n > 0 and n % REC.size == 0, n
        data = data[n:]


def stream(j, records, close=True):
    fd = os.open(os.path.join(j.dbg, "replay"), os.O_WRONLY)
    try:
        write_all(fd, b"".join(records))
    finally:
        if close:
            os.close(fd)
    return None if close else fd


def replay_job(jobs, tag, dev, **kw):
    a = dict(filename=dev.path, replay=1, bs=65536, iodepth=8)
    a.update(kw)
    return jobs(tag, **a)


def trace_of(devs):
    try:
        return blktrace.BlockTrace(devs)
    except blktrace.Unavailable as e:
        pytest.skip(str(e))


@pytest.mark.quick
def test_replay_in_order_counts_and_lateness(nullb_cfg, jobs):
    """200 records (reads, writes, trims; lengths 4k..64k) 200 us apart on a
    memory-backed null_blk: the device sees them in order, the counts per
    op are the trace's, and every record has a lateness."""
    dev = nullb_cfg("rp0", size=64, memory_backed=1, discard=1)
    ops = [READ, WRITE, READ, TRIM, READ]
    recs, want = [], []
    for i in range(200):
        op = ops[i % len(ops)]
        length = 4096 << (i % 5)
        off = ((i * 7919) % 900) * 65536
        recs.append(rec(i * 200000, off, length, op))
        want.append(("RWD"[op], off, length))
    # no I/O scheduler: the requests reach the device in submission order
    try:
        dev.set_queue("scheduler", "none")
    except OSError:
        pass
    j = replay_job(jobs, "order", dev, allow_write=1)
    t = trace_of([dev])
    with t:
        j.enable()
        stream(j, recs + [end()])
        assert j.wait(60) == "done", j.error
        dev.stat()
    letter = {"read": "R", "write": "W", "trim": "D"}
    got = [(letter[e.dir], e.offset, e.size) for e in t.events if e.dir in letter]
    assert sorted(got) == sorted(want), "%d traced, %d records: %s" % (
        len(got), len(want), sorted(set(got) ^ set(want))[:5])
    assert got == want, "first difference at %d: %s" % next(
        ((i, (a, b)) for i, (a, b) in enumerate(zip(got, want)) if a != b), (-1, None))
    s = j.summary()
    assert (s["read_ios"], s["write_ios"], s["trim_ios"]) == (
        sum(1 for w in want if w[0] == "R"), sum(1 for w in want if w[0] == "W"),
        sum(1 for w in want if w[0] == "D"))
    st = stats(j)
    assert st["issued"] == 200 and st["accepted"] == 201 and st["eos"] == "end"
    assert st["refused"] == 0 and st["queued"] == 0
    assert st["late_1ms"] <= st["late_100us"] <= st["late_10us"] <= 200
    assert st["late_max_ns"] * 200 >= st["late_sum_ns"]
    with open(os.path.join(j.dbg, "hist_replay"), "rb") as f:
        h = env.Hist(f.read())
    assert h.dir == env.uapi_define("SSDLOAD_HIST_DIR_REPLAY")
    assert h.samples == 200 and h.max_ns == st["late_max_ns"]
    assert h.sum_ns == st["late_sum_ns"]


@pytest.mark.quick
def test_flush_records_and_targets(nullb_cfg, jobs):
    """Flushes go out as the device's flushes (hist_sync); records name
    their device by index in filename."""
    a = nullb_cfg("rpa", size=16, memory_backed=1)
    b = nullb_cfg("rpb", size=16, memory_backed=1)
    recs = []
    for i in range(40):
        recs.append(rec(i * 100000, i * 4096, 4096, READ, target=i % 2))
    recs.append(rec(40 * 100000, 0, 0, FLUSH, target=1))
    j = jobs("targets", filename=a.path + ":" + b.path, replay=1, bs=4096, iodepth=4)
    before = {d.name: d.stat() for d in (a, b)}
    j.enable()
    stream(j, recs + [end()])
    assert j.wait(60) == "done", j.error
    for d in (a, b):
        assert env.stat_delta(before[d.name], d.stat())["read_ios"] == 20, d.name
    s = j.summary()
    assert s["read_ios"] == 40 and s["sync_ios"] == 1
    assert stats(j)["flushes"] == 1


@pytest.mark.quick
def test_write_records_refused_without_allow_write(nullb, jobs):
    """A write record in a job without allow_write fails the write (EINVAL)
    and the job, with the record's number; nothing after it is issued."""
    j = replay_job(jobs, "ro", nullb)
    j.enable()
    fd = os.open(os.path.join(j.dbg, "replay"), os.O_WRONLY)
    try:
        with pytest.raises(OSError) as ei:
            os.write(fd, rec(0, 0, 4096) + rec(1000, 4096, 4096, WRITE) + rec(2000, 0, 4096))
        assert ei.value.errno == errno.EINVAL
        assert j.wait(30) == "error"
        assert "record 1" in j.error and "allow_write" in j.error, j.error
        with pytest.raises(OSError) as ei:
            os.write(fd, rec(3000, 0, 4096))
        assert ei.value.errno == errno.EPIPE
    finally:
        os.close(fd)
    s = j.summary()
    assert s["write_ios"] == 0 and s["read_ios"] <= 1
    assert stats(j)["refused"] == 1


@pytest.mark.quick
@pytest.mark.parametrize("bad,why", [
    (rec(0, 0, 4096, magic=0x12345678), "magic"),
    (rec(0, 0, 4096, op=9), "op"),
    (rec(0, 0, 0), "zero length"),
    (rec(0, 0, 4096 + 512 * 200), "longer than bs"),
    (rec(0, 1 << 62, 4096), "beyond the end"),
    (rec(0, 0, 4096, target=3), "target"),
])
def test_bad_records_fail_the_job(nullb, jobs, bad, why):
    """Each bad record: EINVAL, the job fails naming it, nothing issued."""
    j = replay_job(jobs, "bad", nullb, bs=4096)
    j.enable()
    fd = os.open(os.path.join(j.dbg, "replay"), os.O_WRONLY)
    try:
        with pytest.raises(OSError) as ei:
            os.write(fd, bad)
        assert ei.value.errno == errno.EINVAL
    finally:
        os.close(fd)
    assert j.wait(30) == "error"
    assert "record 0" in j.error and why in j.error, j.error
    assert j.summary()["read_ios"] == 0


@pytest.mark.quick
def test_short_write_and_second_writer(nullb, jobs):
    """A write that is not whole records is EINVAL and takes nothing (the job
    goes on); a second writer is EBUSY; closing without the end record ends
    the stream (eos=close)."""
    j = replay_job(jobs, "short", nullb, bs=4096)
    j.enable()
    fd = os.open(os.path.join(j.dbg, "replay"), os.O_WRONLY)
    try:
        with pytest.raises(OSError) as ei:
            os.write(fd, rec(0, 0, 4096)[:31])
        assert ei.value.errno == errno.EINVAL
        with pytest.raises(OSError) as ei:
            os.open(os.path.join(j.dbg, "replay"), os.O_WRONLY)
        assert ei.value.errno == errno.EBUSY
        write_all(fd, rec(0, 0, 4096) + rec(1000, 4096, 4096))
        assert j.state == "running"
    finally:
        os.close(fd)
    assert j.wait(30) == "done", j.error
    st = stats(j)
    assert st["eos"] == "close" and st["issued"] == 2
    assert j.summary()["read_ios"] == 2


@pytest.mark.quick
def test_stream_larger_than_buffer(nullb, jobs):
    """RING + 3000 records through a buffer of RING: the writer is held back
    (a non-blocking write gets EAGAIN once the buffer is full) and every
    record is issued."""
    n = RING + 3000
    # the first RING records at t=0 fill the buffer, which starts the clock;
    # the rest 1 s later, so that the buffer stays full for a while
    recs = [rec(0 if i < RING else 10 ** 9, (i % 4096) * 4096, 4096) for i in range(n)]
    j = replay_job(jobs, "big", nullb, bs=4096, iodepth=16)
    j.enable()
    fd = os.open(os.path.join(j.dbg, "replay"), os.O_WRONLY | os.O_NONBLOCK)
    data = b"".join(recs)
    eagain = 0
    try:
        while data:
            try:
                k = os.write(fd, data)
            except BlockingIOError:
                eagain += 1
                time.sleep(0.01)
                continue
            data = data[k:]
        os.write(fd, end())
    finally:
        os.close(fd)
    assert j.wait(120) == "done", j.error
    assert eagain > 0, "the buffer of %d records never filled" % RING
    st = stats(j)
    assert st["issued"] == n and st["accepted"] == n + 1
    assert j.summary()["read_ios"] == n
    assert st["buffer_records"] == RING


@pytest.mark.quick
def test_remove_while_writer_blocks(nullb, jobs):
    """A writer blocked on a full buffer (records an hour out) while the job
    is removed: the write returns (EPIPE), rmdir does not hang."""
    j = replay_job(jobs, "rm", nullb, bs=4096)
    j.enable()
    recs = b"".join(rec(3600 * 10 ** 9, 0, 4096) for _ in range(RING + 100))
    res = {}

    def writer():
        fd = os.open(os.path.join(j.dbg, "replay"), os.O_WRONLY)
        try:
            write_all(fd, recs)
            res["ok"] = True
        except OSError as e:
            res["err"] = e.errno
        finally:
            os.close(fd)

    th = threading.Thread(target=writer, daemon=True)
    th.start()
    deadline = time.monotonic() + 30
    while stats(j)["queued"] < RING:
        assert time.monotonic() < deadline, stats(j)
        time.sleep(0.05)
    time.sleep(0.2)
    assert th.is_alive(), res
    j.remove(timeout=30)
    th.join(30)
    assert not th.is_alive(), "the writer still blocks after rmdir"
    assert res.get("err") == errno.EPIPE, res


# ---- the CLI: ssdload replay, run --read_iolog (stock kernel) ----------------

def iolog(path, n, writes=False, gap_us=300, dev="d"):
    """A version 3 fio iolog of @n 4k I/Os @gap_us apart (every 4th a write)."""
    lines = ["fio version 3 iolog", "0 %s add" % dev, "1 %s open" % dev]
    want = []
    for i in range(n):
        op = "write" if writes and i % 4 == 3 else "read"
        off = (i * 37 % 1000) * 4096
        lines.append("%d %s %s %d 4096" % (10 + i * gap_us, dev, op, off))
        want.append((op, off))
    lines.append("%d %s close" % (20 + n * gap_us, dev))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return want


def run_cli(cli, *args, timeout=120):
    import subprocess
    return subprocess.run([cli] + list(args), capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.mark.stock
@pytest.mark.quick
def test_cli_replay_json(cli, nullb_cfg, tmp_path):
    """ssdload replay of an iolog: the counts per op are the trace's, the
    fidelity figures are in fio's JSON under jobs[0].ssdload.replay, and
    no job is left behind."""
    import json
    dev = nullb_cfg("rpc", size=64, memory_backed=1)
    log = str(tmp_path / "t.log")
    want = iolog(log, 300, writes=True)
    before = dev.stat()
    p = run_cli(cli, "replay", log, "--filename=" + dev.path, "--allow_write",
                "--iodepth=8", "--output-format=json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    job = doc["jobs"][0]
    nw = sum(1 for w in want if w[0] == "write")
    assert job["read"]["total_ios"] == len(want) - nw
    assert job["write"]["total_ios"] == nw
    rp = job["ssdload"]["replay"]
    assert rp["records"] == rp["issued"] == rp["records_sent"] == len(want)
    assert rp["trace_ops"]["write"] == nw
    assert rp["late_1ms"] <= rp["late_100us"] <= rp["late_10us"] <= len(want)
    assert rp["late_max_ns"] >= rp["late_percentiles_ns"]["99.000000"]
    delta = env.stat_delta(before, dev.stat())
    assert delta["read_ios"] == len(want) - nw and delta["write_ios"] == nw
    assert env.list_jobs() == []


@pytest.mark.stock
@pytest.mark.quick
def test_cli_replay_refuses_writes_and_run_read_iolog(cli, nullb, tmp_path):
    """A trace with writes, no --allow_write: refused with the record's
    number, nothing issued; run --read_iolog replays a read trace."""
    log = str(tmp_path / "w.log")
    iolog(log, 20, writes=True)
    before = nullb.stat()
    p = run_cli(cli, "replay", log, "--filename=" + nullb.path)
    assert p.returncode != 0
    assert "record 4" in p.stderr and "--allow_write" in p.stderr, p.stderr
    assert env.stat_delta(before, nullb.stat())["read_ios"] == 0
    assert env.list_jobs() == []
    rlog = str(tmp_path / "r.log")
    want = iolog(rlog, 50)
    p = run_cli(cli, "run", "--read_iolog=" + rlog, "--filename=" + nullb.path,
                "--replay_time_scale=200")
    assert p.returncode == 0, p.stderr
    assert "replay: %s, %d records, speed 200%%" % (rlog, len(want)) in p.stdout, p.stdout
    assert "fidelity: issued=%d" % len(want) in p.stdout


@pytest.mark.stock
@pytest.mark.quick
def test_cli_job_removed_while_streaming(cli, nullb, tmp_path):
    """The job removed while the CLI's writes are held back by a full
    buffer: the CLI ends (no hang), reports it, and leaves nothing."""
    import subprocess
    log = str(tmp_path / "long.log")
    # RING + 2000 records, the second half an hour out: the buffer fills
    n = RING + 2000
    with open(log, "w") as f:
        f.write("fio version 3 iolog\n0 d add\n")
        for i in range(n):
            f.write("%d d read %d 4096\n" % (10 if i < 1000 else 3600 * 10 ** 6, (i % 1000) * 4096))
    p = subprocess.Popen([cli, "replay", log, "--filename=" + nullb.path, "--name=rmme"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert p.poll() is None, p.communicate()
            # the first 1000 issued, the buffer refills once half empty
            try:
                st = env.parse_kv(env.read(os.path.join(env.DEBUGFS, "rmme",
                                                        "replay_stats")))
                if st["issued"] >= 1000 and st["queued"] >= RING // 2:
                    break
            except (OSError, KeyError):
                pass
            assert time.monotonic() < deadline, "the buffer never filled"
            time.sleep(0.1)
        time.sleep(0.3)
        assert p.poll() is None, "the CLI ended with its records an hour out"
        env.Job.existing("rmme").remove(timeout=30)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode != 0, out
    assert env.list_jobs() == []
