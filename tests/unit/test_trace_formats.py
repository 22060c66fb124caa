# SPDX-License-Identifier: GPL-2.0
"""The block trace readers (userspace/trace/), through `ssdload trace-info`.

Each format is written by the test (lib/tracefiles.py) from a list of
known I/Os, read back with `trace-info --records`, and compared record by
record: times, operations, offsets, lengths, response times, devices.
Malformed input (truncated or foreign blktrace records, bad CSV fields)
is refused in one line naming the file, the line or record number and
the reason; the ASan+UBSan build (make -C userspace san) reads and profiles mutated
traces without a crash or a sanitizer report.
"""
import os
import random
import struct
import subprocess

import pytest

import tracefiles as T
from build import make_userspace
from cli import run

OPS = ("read", "write", "trim", "flush")


def ios_of(n, ops=("read", "write"), seed=1, dev=None, resp=True):
    rng = random.Random(seed)
    out, t = [], 0
    for i in range(n):
        t += rng.randrange(1, 5000) * 1000          # whole microseconds
        op = ops[i % len(ops)]
        ln = 0 if op == "flush" else rng.choice((4096, 8192, 65536))
        off = 0 if op == "flush" else rng.randrange(0, 1 << 20) * 4096
        out.append((t, op, off, ln, rng.randrange(1, 900) * 100 if resp else 0, dev))
    t0 = out[0][0]
    return [(t - t0, op, off, ln, r, d) for t, op, off, ln, r, d in out]


def records(cli, path, *args):
    p = run(cli, "trace-info", "--records", *args, path)
    assert p.returncode == 0, p.stderr
    recs = []
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 6 and f[0].isdigit():
            recs.append((int(f[0]), f[1], int(f[2]), int(f[3]), int(f[4]), f[5]))
    return recs, T.parse_info(p.stdout)


def refused(cli, path, *needles, fmt=None):
    args = ["trace-info"] + (["--trace-format=" + fmt] if fmt else []) + [path]
    p = run(cli, *args)
    assert p.returncode == 1, (p.returncode, p.stdout, p.stderr)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("ssdload: "), p.stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


# ---- MSR Cambridge ------------------------------------------------------

@pytest.mark.parametrize("header", [False, True])
def test_msr_records(cli, tmp_path, header):
    ios = ios_of(300, dev=("hm", 1))
    ios[7] = ios[7][:5] + (("src1", 0),)
    path = str(tmp_path / "hm_1.csv")
    T.write_msr(path, ios, header=header)
    recs, info = records(cli, path)
    assert info["format"] == "msr"
    assert len(recs) == len(ios)
    for (t, op, off, ln, resp, dev), r in zip(ios, recs):
        # filetime ticks are 100 ns: the writer truncated to them
        assert r == (t // 100 * 100 - ios[0][0] // 100 * 100, op, off, ln, resp,
                     "%s_%d" % dev), r
    assert info["devices"].startswith("2 (hm_1 299, src1_0 1)")


def test_msr_detected_and_named(cli, tmp_path):
    path = str(tmp_path / "t.csv")
    T.write_msr(path, ios_of(5, dev=("web", 3)))
    assert records(cli, path)[1]["format"] == "msr"
    assert records(cli, path, "--trace-format=msr")[1]["records"] == "5"


@pytest.mark.parametrize("line,why", [
    ("128166372003061629,hm,1,Read,4096,4096", "6 fields, want 7"),
    ("128166372003061629,hm,1,Read,4096,4k,100", "Size '4k' is not a decimal number"),
    ("128166372003061629,hm,x,Read,4096,4096,100", "DiskNumber 'x' is not a decimal"),
    ("128166372003061629,hm,1,Peek,4096,4096,100", "Type 'Peek' is neither Read nor Write"),
    ("128166372003061629,hm,1,Read,4096,0,100", "Size 0: a zero-length I/O"),
    ("128166372003061629,hm,1,Read,-4096,4096,100", "Offset -4096 is negative"),
    ("128166372003061628,hm,1,Read,4096,4096,100", "before the first record"),
    ("1281663720030616290000,hm,1,Read,4096,4096,100", "not a decimal number"),
    ("12816637200306162,hm,1,Read,4096,4096," + "9" * 20, "ResponseTime"),
])
def test_msr_malformed(cli, tmp_path, line, why):
    path = str(tmp_path / "bad.csv")
    good = "128166372003061629,hm,1,Write,0,512,100\n"
    with open(path, "w") as f:
        f.write(good + good + line + "\n" + good)
    refused(cli, path, "bad.csv: line 3: ", why, fmt="msr")


def test_csv_long_line_and_nul(cli, tmp_path):
    path = str(tmp_path / "long.csv")
    with open(path, "w") as f:
        f.write("128166372003061629,hm,1,Write,0,512,100\n" + "1" * 5000 + "\n")
    refused(cli, path, "line 2: longer than 1024 bytes", fmt="msr")
    with open(path, "wb") as f:
        f.write(b"128166372003061629,hm,1,Write,0,512,100\n12816637\0,hm\n")
    refused(cli, path, "line 2: a NUL byte", fmt="msr")


# ---- Alibaba ------------------------------------------------------------

@pytest.mark.parametrize("header", [False, True])
def test_alibaba_records(cli, tmp_path, header):
    ios = [(t, op, off, ln, 0, i % 3 * 100) for i, (t, op, off, ln, _r, _d) in
           enumerate(ios_of(200, seed=2))]
    path = str(tmp_path / "io_traces.csv")
    T.write_alibaba(path, ios, header=header)
    recs, info = records(cli, path)
    assert info["format"] == "alibaba"
    assert info["response"] == "none recorded"
    assert recs == [(t, op, off, ln, 0, str(d)) for t, op, off, ln, _r, d in ios]
    assert info["devices"].startswith("3 (0 67, 100 67, 200 66)")


@pytest.mark.parametrize("line,why", [
    ("0,R,4096,4096", "4 fields, want 5"),
    ("0,X,4096,4096,1577808000000700", "opcode 'X' is neither R nor W"),
    ("0,R,4096,abc,1577808000000700", "length 'abc' is not a decimal number"),
    ("0,R,4096,0,1577808000000700", "length 0: a zero-length I/O"),
    ("0,W,-512,4096,1577808000000700", "offset -512 is negative"),
    ("0,R,4096,4096,1577808000000000", "before the first record"),
    ("4294967296,R,4096,4096,1577808000000700", "device_id 4294967296 is above"),
])
def test_alibaba_malformed(cli, tmp_path, line, why):
    path = str(tmp_path / "ali.csv")
    with open(path, "w") as f:
        f.write("device_id,opcode,offset,length,timestamp\n0,W,0,512,1577808000000626\n" +
                line + "\n")
    refused(cli, path, "ali.csv: line 3: ", why, fmt="alibaba")


# ---- blktrace -----------------------------------------------------------

def expect_blk(ios, dev="259,0"):
    return [(t, op, 0 if op == "flush" and False else off, 0 if op == "flush" else ln, resp,
             dev) for t, op, off, ln, resp, _d in ios]


@pytest.mark.parametrize("name", ["prefix", "cpu0", "cpu1"])
def test_blktrace_records(cli, tmp_path, name):
    ios = ios_of(400, ops=OPS, seed=3)
    prefix = str(tmp_path / "nvme0n1")
    T.write_blktrace(prefix, ios, cpus=3)
    path = {"prefix": prefix, "cpu0": prefix + ".blktrace.0",
            "cpu1": prefix + ".blktrace.1"}[name]
    recs, info = records(cli, path)
    assert info["format"] == "blktrace"
    # D events are the issue, D->C the response time, merged over 3 CPUs
    assert recs == expect_blk(ios)
    assert info["flushes"].startswith("100 ")
    assert info["trims"].startswith("100 ")


def test_blktrace_big_endian_and_cgroup(cli, tmp_path):
    ios = ios_of(50, seed=4)
    prefix = str(tmp_path / "sda")
    per = T.blk_events(ios, cpus=1, cgroup=True)[0]
    with open(prefix + ".blktrace.0", "wb") as f:
        for _t, rec in per:
            # re-pack each record big-endian, payload kept
            fields = struct.unpack("<IIQQIIIIIHH", rec[:48])
            f.write(struct.pack(">IIQQIIIIIHH", *fields) + rec[48:])
    recs, _ = records(cli, prefix)
    assert recs == expect_blk(ios)


def test_blktrace_queue_only(cli, tmp_path):
    """A bio-based device reports Q and C, no D: Q is the issue."""
    ios = ios_of(30, seed=5)
    prefix = str(tmp_path / "dm-0")
    per = T.blk_events(ios, cpus=1, with_q=True)[0]
    with open(prefix + ".blktrace.0", "wb") as f:
        for _t, rec in per:
            act = struct.unpack("<I", rec[28:32])[0]
            if act & 0xff == T.TA_ISSUE:
                continue
            f.write(rec)
    recs, _ = records(cli, prefix)
    # Q is 1 ns before D in the writer: the times shift, Q->C is 1 ns longer
    assert [(r[1], r[2], r[3]) for r in recs] == [(op, off, ln) for _t, op, off, ln, _r, _d in ios]
    assert [r[4] for r in recs] == [resp + 1 for *_x, resp, _d in ios]


def test_blktrace_requeue_and_lost_completion(cli, tmp_path):
    ios = ios_of(3, seed=6)
    dev = (259 << 20) | 0
    cat = T.TC_READ << 16
    recs = [T.blk_record(1000, 8, 4096, cat | (T.TC_ISSUE << 16) | T.TA_ISSUE, dev),
            T.blk_record(1500, 8, 4096, cat | (1 << 5 << 16) | T.TA_REQUEUE, dev),
            T.blk_record(2000, 8, 4096, cat | (T.TC_ISSUE << 16) | T.TA_ISSUE, dev),
            T.blk_record(2500, 16, 4096, cat | (T.TC_ISSUE << 16) | T.TA_ISSUE, dev),
            T.blk_record(9000, 8, 4096, cat | (T.TC_COMPLETE << 16) | T.TA_COMPLETE, dev)]
    path = str(tmp_path / "x.blktrace.0")
    with open(path, "wb") as f:
        f.write(b"".join(recs))
    got, _ = records(cli, path)
    assert ios
    # the requeued D is not a record; its second D is, at 1000 ns after the
    # first; sector 16 never completes: no response time
    assert got == [(1000, "read", 4096, 4096, 7000, "259,0"), (1500, "read", 8192, 4096, 0,
                                                                "259,0")]


def test_blktrace_malformed(cli, tmp_path):
    prefix = str(tmp_path / "vda")
    names = T.write_blktrace(prefix, ios_of(20, seed=7), cpus=2)
    data = open(names[1], "rb").read()
    with open(names[1], "wb") as f:
        f.write(data[:-20])
    refused(cli, prefix, "vda.blktrace.1: record", "truncated: 28 of 48 bytes")
    # a payload cut short
    with open(names[1], "wb") as f:
        f.write(T.blk_record(5, 0, 0, T.TC_NOTIFY << 16, 0, pdu=b"abcdefgh")[:52])
    refused(cli, prefix, "vda.blktrace.1: record 1 (byte 0)", "truncated payload: 4 of 8")
    with open(names[1], "wb") as f:
        # the note of 52 bytes (48 + "fio\0"), an event, then the third
        f.write(data[:100] + b"\xde\xad\xbe\xef" + data[104:])
    refused(cli, prefix, "vda.blktrace.1: record 3 (byte 100)", "bad magic 0xefbeadde")
    with open(names[1], "wb") as f:
        f.write(struct.pack("<I", T.BLK_MAGIC | 6) + data[4:])
    refused(cli, prefix, "vda.blktrace.1: record 1", "version 6")
    os.unlink(names[0])
    os.unlink(names[1])
    refused(cli, prefix, "vda: No such file")
    refused(cli, prefix, "no ", ".blktrace.N files", fmt="blktrace")


def test_unknown_format_and_usage(cli, tmp_path):
    path = str(tmp_path / "junk")
    with open(path, "wb") as f:
        f.write(os.urandom(200))
    refused(cli, path, "not a trace format")
    p = run(cli, "trace-info", "--trace-format=nope", path)
    assert p.returncode == 2 and "not a format" in p.stderr
    p = run(cli, "trace-info")
    assert p.returncode == 2
    p = run(cli, "trace-info", "--help")
    assert p.returncode == 0 and "--trace-format" in p.stdout


# ---- no input crashes the readers (ASan + UBSan) ------------------------

# 40 cases of each format, each read as named and detected, and profiled:
# about 25 s on a quiet 2-core host
FUZZ_CASES = int(os.environ.get("SSDLOAD_TRACE_FUZZ_CASES", "40"))
SAN_ENV = {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:exitcode=86",
           "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1:exitcode=87"}


@pytest.fixture(scope="module")
def san(repo):
    r = make_userspace("san", top=repo)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "warning" not in r.stderr, r.stderr
    return os.path.join(repo, "userspace", "san", "ssdload")


def mutate(rng, b):
    b = bytearray(b)
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(5)
        pos = rng.randrange(len(b) + 1)
        if k == 0 and b:
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        elif k == 1:
            del b[pos:pos + rng.randint(1, 60)]
        elif k == 2:
            b[pos:pos] = rng.choice([b",", b"\n", b"\0", b"-1", b"99999999999999999999999",
                                     b"\xff" * 8, b"Read", b"R"])
        elif k == 3:
            del b[pos:]
        elif k == 4 and len(b) >= 8:
            i = rng.randrange(0, len(b) - 3)
            b[i:i + 4] = struct.pack("<I", rng.choice([0, 0xffffffff, 0xffff, 48, 65535]))
    return bytes(b)


@pytest.mark.parametrize("fmt", ["msr", "alibaba", "blktrace"])
def test_fuzz_readers(san, tmp_path, fmt):
    rng = random.Random(30)
    src = str(tmp_path / "seed")
    ios = ios_of(40, ops=OPS if fmt == "blktrace" else ("read", "write"), seed=8,
                 dev=("hm", 0) if fmt == "msr" else None)
    if fmt == "msr":
        T.write_msr(src, ios)
        seeds = [open(src, "rb").read()]
    elif fmt == "alibaba":
        T.write_alibaba(src, ios, header=True)
        seeds = [open(src, "rb").read()]
    else:
        seeds = [open(n, "rb").read() for n in T.write_blktrace(src, ios, cpus=2,
                                                                 cgroup=True)]
    env = dict(os.environ, **SAN_ENV)
    crashes = []
    for case in range(FUZZ_CASES):
        path = str(tmp_path / ("case.blktrace.0" if fmt == "blktrace" else "case.csv"))
        data = mutate(rng, rng.choice(seeds))
        with open(path, "wb") as f:
            f.write(data)
        for auto in (0, 1):
            args = [san, "trace-info", "--records", path] + \
                ([] if auto else ["--trace-format=" + fmt])
            p = subprocess.run(args, capture_output=True, env=env, timeout=60)
            if p.returncode not in (0, 1) or b"Sanitizer" in p.stderr or \
                    b"runtime error" in p.stderr:
                crashes.append((case, p.returncode, p.stderr[-400:]))
            elif p.returncode == 1:
                assert p.stderr.count(b"\n") == 1, p.stderr
        prof = str(tmp_path / "p.fio")
        if os.path.exists(prof):
            os.unlink(prof)
        p = subprocess.run([san, "profile", "--trace-format=" + fmt, path, "-o", prof],
                           capture_output=True, env=env, timeout=60)
        if p.returncode not in (0, 1) or b"Sanitizer" in p.stderr or \
                b"runtime error" in p.stderr:
            crashes.append((case, "profile", p.returncode, p.stderr[-400:]))
    assert not crashes, crashes[:3]
