# SPDX-License-Identifier: GPL-2.0
"""ssdload replay on the host: fio's iolog v2/v3 read back, the mapping of
offsets, and the refusals, through `ssdload replay --parse-only --dump`
(no module: the targets are regular files, which --parse-only accepts).

The iologs are fio's own: fio 3.33 writes version 3 with --write_iolog
(times in microseconds since its start); version 2 is the same entries
without the times (fio reads it but no longer writes it).  The expected
records come from the log's text, parsed here independently.
"""
import os
import shutil
import subprocess

import pytest

from cli import run

MiB = 1 << 20


def need_fio():
    if not shutil.which("fio"):
        pytest.skip("fio is not installed on the host")


def fio_iolog(path, *args):
    need_fio()
    p = subprocess.run(["fio", "--name=t", "--ioengine=null", "--write_iolog=" + str(path)] +
                       list(args), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return path


def entries(path):
    """The log's I/O entries: (usec or None, file, action, offset, length)."""
    out = []
    with open(path) as f:
        head = f.readline().strip()
        v3 = head == "fio version 3 iolog"
        for line in f:
            fld = line.split()
            if not v3:
                fld = [None] + fld
            if len(fld) == 5 and fld[2] != "wait":
                out.append((None if fld[0] is None else int(fld[0]), fld[1], fld[2],
                            int(fld[3]), int(fld[4])))
    return out


def dump(cli, trace, *args):
    p = run(cli, "replay", str(trace), "--parse-only", "--dump", *args)
    assert p.returncode == 0, p.stderr
    recs, kv = [], {}
    for line in p.stdout.splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            kv[k] = v
        else:
            t, op, tgt, off, ln = line.split()
            recs.append((int(t), op, int(tgt), int(off), int(ln)))
    return recs, kv


def target(tmp_path, name="tgt", size=64 * MiB):
    p = tmp_path / name
    with open(p, "wb") as f:
        f.truncate(size)
    return str(p)


OPS = {"read": "read", "write": "write", "trim": "trim", "sync": "flush", "datasync": "flush"}


def test_v3_from_fio_reads_back(cli, tmp_path):
    """fio's randrw log: every entry, in order, at its time from the first."""
    log = fio_iolog(tmp_path / "v3.log", "--rw=randrw", "--bs=4k", "--size=8m",
                    "--number_ios=300", "--filename=devA")
    want = entries(log)
    assert len(want) == 300
    recs, kv = dump(cli, log, "--filename=" + target(tmp_path), "--allow_write")
    assert kv["format"] == "iolog3" and int(kv["records"]) == 300
    t0 = want[0][0]
    assert [(r[0], r[1], r[3], r[4]) for r in recs] == \
        [((us - t0) * 1000, OPS[a], off, ln) for us, _, a, off, ln in want]
    assert int(kv["read_records"]) == sum(1 for w in want if w[2] == "read")
    assert int(kv["write_records"]) == sum(1 for w in want if w[2] == "write")
    assert int(kv["duration_ns"]) == (want[-1][0] - t0) * 1000
    assert kv["device0"].startswith("devA -> ")


def test_v2_reads_back_with_waits(cli, tmp_path):
    """Version 2 (fio's entries without times): all at 0, then a wait's time."""
    log = fio_iolog(tmp_path / "v3.log", "--rw=randread", "--bs=8k", "--size=8m",
                    "--number_ios=40", "--filename=devA")
    lines = open(log).read().splitlines()[1:]
    v2 = ["fio version 2 iolog"]
    for i, l in enumerate(lines):
        v2.append(l.split(None, 1)[1])
        if i == 20:
            v2.append("devA wait 250 0")
    (tmp_path / "v2.log").write_text("\n".join(v2) + "\n")
    want = entries(tmp_path / "v2.log")
    recs, kv = dump(cli, tmp_path / "v2.log", "--filename=" + target(tmp_path))
    assert kv["format"] == "iolog2" and len(recs) == len(want) == 40
    assert [(r[3], r[4]) for r in recs] == [(w[3], w[4]) for w in want]
    # the entries after the wait (the 19th I/O on: add and open came first)
    k = sum(1 for l in lines[:21] if len(l.split()) == 5)
    assert {r[0] for r in recs[:k]} == {0}
    assert {r[0] for r in recs[k:]} == {250 * 10 ** 6}


def test_trims_flushes_and_two_devices(cli, tmp_path):
    """fio's trims and fsync's syncs; two files to two targets, in the order
    the log names them, or by --map."""
    log = fio_iolog(tmp_path / "t.log", "--rw=randwrite", "--bs=4k", "--size=4m",
                    "--number_ios=40", "--fsync=5", "--filename=devA:devB")
    want = entries(log)
    a, b = target(tmp_path, "a"), target(tmp_path, "b")
    recs, kv = dump(cli, log, "--filename=%s:%s" % (a, b), "--allow_write")
    assert len(recs) == len(want)
    order = []
    for w in want:
        if w[1] not in order:
            order.append(w[1])
    assert [r[2] for r in recs] == [order.index(w[1]) for w in want]
    assert [r[1] for r in recs] == [OPS[w[2]] for w in want]
    assert int(kv["flush_records"]) == sum(1 for w in want if w[2] == "sync") > 0
    assert all(r[3] == r[4] == 0 for r in recs if r[1] == "flush")
    # --map by the trace's names, the other way round
    recs2, _ = dump(cli, log, "--map=devA:%s,devB:%s" % (b, a), "--allow_write")
    assert [r[2] for r in recs2] == [order.index(w[1]) for w in want]
    assert kv["device0"] == "%s -> %s" % (order[0], a)

    tlog = fio_iolog(tmp_path / "trim.log", "--rw=randtrim", "--bs=4k", "--size=4m",
                     "--number_ios=10", "--filename=devA")
    recs, kv = dump(cli, tlog, "--filename=" + a, "--allow_write")
    assert [r[1] for r in recs] == ["trim"] * 10 and int(kv["trim_records"]) == 10


def test_offset_maps_and_fio_scale_align(cli, tmp_path):
    """refuse, wrap, scale; fio's replay_scale divides, replay_align aligns down."""
    log = tmp_path / "big.log"
    log.write_text("fio version 3 iolog\n0 d add\n1 d read 0 4096\n"
                   "2 d read %d 4096\n3 d read %d 8192\n" % (3 * MiB, 7 * MiB + 4096))
    small = target(tmp_path, "small", 2 * MiB)
    p = run(cli, "replay", str(log), "--parse-only", "--filename=" + small)
    assert p.returncode != 0
    assert "record 2" in p.stderr and "beyond the end" in p.stderr, p.stderr
    recs, _ = dump(cli, log, "--filename=" + small, "--offset-map=wrap")
    assert [r[3] for r in recs] == [0, 1 * MiB, (7 * MiB + 4096) % (2 * MiB)]
    recs, _ = dump(cli, log, "--filename=" + small, "--offset-map=scale")
    end = 7 * MiB + 4096 + 8192
    # scaled, and a record that then crosses the end ends at the end
    assert [r[3] for r in recs] == [0, (3 * MiB * 2 * MiB // end) // 512 * 512,
                                    min((7 * MiB + 4096) * 2 * MiB // end,
                                        2 * MiB - 8192) // 512 * 512]
    assert all(r[3] + r[4] <= 2 * MiB for r in recs)
    recs, _ = dump(cli, log, "--filename=" + small, "--replay_scale=4", "--replay_align=64k")
    assert [r[3] for r in recs] == [0, 3 * MiB // 4 // 65536 * 65536,
                                    (7 * MiB + 4096) // 4 // 65536 * 65536]


@pytest.mark.parametrize("body,why", [
    ("1 d read -4096 4096\n", "negative offset"),
    ("1 d read 0 0\n", "zero-length"),
    ("1 d frobnicate 0 4096\n", "unknown action"),
    ("1 d read 0\n", "fields"),
    ("1 d read x 4096\n", "not a number"),
    ("5 d read 0 4096\n3 d read 4096 4096\n", "unsorted"),
    ("1 d read 100 4096\n", "logical block size"),
    ("1 d read 0 1000\n", "logical block size"),
])
def test_bad_lines_refused_with_line(cli, tmp_path, body, why):
    """Each bad entry is refused with the file, its place and the reason."""
    log = tmp_path / "bad.log"
    log.write_text("fio version 3 iolog\n0 d add\n" + body)
    p = run(cli, "replay", str(log), "--parse-only", "--filename=" + target(tmp_path))
    assert p.returncode != 0
    assert str(log) in p.stderr and why in p.stderr, p.stderr


def test_writes_need_allow_write_and_devices_need_targets(cli, tmp_path):
    log = fio_iolog(tmp_path / "w.log", "--rw=randrw", "--bs=4k", "--size=4m",
                    "--number_ios=20", "--filename=devA:devB")
    a = target(tmp_path, "a")
    p = run(cli, "replay", str(log), "--parse-only", "--filename=" + a, "--allow_write")
    assert p.returncode != 0 and "has no target" in p.stderr, p.stderr
    p = run(cli, "replay", str(log), "--parse-only", "--filename=%s:%s" % (a, target(tmp_path, "b")))
    assert p.returncode != 0
    assert "--allow_write" in p.stderr and "nothing was issued" in p.stderr, p.stderr


def test_detection_and_format_option(cli, tmp_path):
    log = tmp_path / "x.log"
    log.write_text("fio version 3 iolog\n0 d add\n7 d read 0 4096\n")
    tgt = target(tmp_path)
    _, kv = dump(cli, log, "--filename=" + tgt, "--trace-format=iolog3")
    assert kv["format"] == "iolog3"
    (tmp_path / "junk").write_text("hello\n")
    p = run(cli, "replay", str(tmp_path / "junk"), "--parse-only", "--filename=" + tgt)
    assert p.returncode != 0 and "--trace-format" in p.stderr
    (tmp_path / "v1").write_text("fio version 1 iolog\n")
    p = run(cli, "replay", str(tmp_path / "v1"), "--parse-only", "--filename=" + tgt,
            "--trace-format=iolog2")
    assert p.returncode != 0 and "version 1" in p.stderr, p.stderr


@pytest.mark.parametrize("opt", ["--speed=0", "--speed=-1", "--speed=abc", "--speed=20000",
                                 "--offset-map=fold", "--iodepth=0", "--iodepth=65537",
                                 "--replay_align=3000", "--trace-format=csv",
                                 "--map=nocolon", "--replay_time_scale=0",
                                 "--output-format=xml", "--no-such-option"])
def test_bad_options_refused(cli, tmp_path, opt):
    log = tmp_path / "x.log"
    log.write_text("fio version 3 iolog\n0 d add\n7 d read 0 4096\n")
    p = run(cli, "replay", str(log), "--parse-only", "--filename=" + target(tmp_path), opt)
    assert p.returncode != 0 and p.stderr.startswith("ssdload:"), (opt, p.stderr)


def test_speed_is_fio_time_scale(cli, tmp_path):
    log = tmp_path / "x.log"
    log.write_text("fio version 3 iolog\n0 d add\n7 d read 0 4096\n")
    for opt, pct in (("--speed=2", "200"), ("--speed=0.5", "50"),
                     ("--replay_time_scale=250", "250")):
        _, kv = dump(cli, log, "--filename=" + target(tmp_path), opt)
        assert kv["replay_time_scale"] == pct


def test_no_trace_or_target(cli, tmp_path):
    p = run(cli, "replay", "--filename=/dev/null")
    assert p.returncode != 0 and "usage" in p.stderr
    log = tmp_path / "x.log"
    log.write_text("fio version 3 iolog\n0 d add\n7 d read 0 4096\n")
    p = run(cli, "replay", str(log), "--parse-only")
    assert p.returncode != 0 and "no target" in p.stderr


def test_read_iolog_in_run_and_job_files(cli, tmp_path):
    """read_iolog= (fio's meaning) in a job file or on run's command line is
    the same replay, with the job's target and fio's replay_* options."""
    log = tmp_path / "x.log"
    log.write_text("fio version 3 iolog\n0 d add\n7 d read 0 4096\n9 d write 4096 4096\n")
    tgt = target(tmp_path)
    job = tmp_path / "j.fio"
    job.write_text("[j]\nread_iolog=%s\nfilename=%s\nallow_write=1\n"
                   "replay_time_scale=300\nreplay_scale=2\n" % (log, tgt))
    p = run(cli, "run", "--parse-only", str(job))
    assert p.returncode == 0, p.stderr
    assert "records=2\n" in p.stdout and "replay_time_scale=300\n" in p.stdout
    p = run(cli, "run", "--parse-only", "--read_iolog=" + str(log), "--filename=" + tgt)
    assert p.returncode != 0 and "--allow_write" in p.stderr, p.stderr
    p = run(cli, "run", "--parse-only", "--read_iolog=" + str(log), "--filename=" + tgt,
            "--allow_write", "--replay_no_stall")
    assert p.returncode == 0 and "records=2\n" in p.stdout, p.stderr
