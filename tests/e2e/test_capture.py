# SPDX-License-Identifier: GPL-2.0
"""capture: `ssdload capture DEV --duration=T -o TRACE` records known I/O
with blktrace, and the trace reader (userspace/trace/blktrace.c) gives
those I/Os back.

- dd writes 16 x 64 KiB and reads 32 x 4 KiB at known offsets of a
  null_blk (nomerges=2: one request per I/O), captured with blktrace and
  with the tracefs method: `ssdload trace-info
  --records` must list exactly those I/Os in that range, and its records
  must be blkparse's D events of the same files, one for one.
- a known fio job (randrw 70/30, bssplit 4k/50:16k/50, zoned 80/20:20/80)
  is captured and profiled: the profile gives back its mix and bssplit
  within 1 point (or 4 standard errors of the sample), and its hot band
  (the first 20% of the span) within 2 points (or 4 standard errors).

blktrace adds probes to the block tracepoints, which patches kernel text;
under qemu TCG that races with the other vCPU (tests/e2e/lib/blktrace.py),
so under TCG the other CPUs are taken offline for the capture and put
back after.  Statistics and the CLI only: one stock kernel (stock).
"""
import contextlib
import glob
import math
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

import blktrace

pytestmark = [pytest.mark.stock]


def _need_tools(*tools):
    for t in tools:
        if not shutil.which(t):
            pytest.skip("%s is not installed (Debian package blktrace; scripts/deps.sh)" % t)


@contextlib.contextmanager
def one_cpu():
    """Under TCG, every CPU but 0 offline (see the module docstring)."""
    if not blktrace.under_tcg():
        yield
        return
    off = []
    try:
        for p in sorted(glob.glob("/sys/devices/system/cpu/cpu[1-9]*/online")):
            with open(p) as f:
                if f.read().strip() != "1":
                    continue
            try:
                with open(p, "w") as f:
                    f.write("0")
            except OSError as e:
                pytest.skip("cannot take %s offline (%s): blktrace under TCG needs one CPU"
                            % (p, e))
            off.append(p)
        yield
    finally:
        for p in off:
            with open(p, "w") as f:
                f.write("1")


def capture(cli, dev, out, work, method="blktrace"):
    """Run `ssdload capture` while @work() runs, once the capture has had
    a second and a half to set up, and end it with SIGINT (Ctrl-C) half a
    second after; its CompletedProcess."""
    p = subprocess.Popen([cli, "capture", dev.path, "--duration=600", "-o", out,
                          "--method=" + method], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.5)
        assert p.poll() is None, p.communicate()
        work()
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        out_, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 0, err
    assert re.search(r"captured \S+ for [\d.]+ s into", out_), out_
    assert re.search(r"overhead: (blktrace|ssdload) used [\d.]+ s of CPU", out_), out_
    m = re.search(r"(?:blktrace|tracefs): (\d+) events, (\d+) dropped", out_)
    assert m and int(m.group(1)) > 0 and m.group(2) == "0", out_
    return p


def records(cli, trace):
    p = subprocess.run([cli, "trace-info", "--records", trace], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = []
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 6 and f[0].isdigit():
            out.append((int(f[0]), f[1], int(f[2]), int(f[3]), int(f[4]), f[5]))
    return out


def blkparse_d(trace):
    """blkparse's D events of @trace: [(kind, offset, length)] in time order."""
    d, name = os.path.split(trace)
    p = subprocess.run(["blkparse", "-q", "-i", name, "-f", "%a %d %S %n %T.%9t\\n"],
                       cwd=d, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = []
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) != 5 or f[0] != "D":
            continue
        rwbs, sec, n = f[1], int(f[2]), int(f[3])
        kind = "trim" if "D" in rwbs else "write" if "W" in rwbs else \
            "flush" if "F" in rwbs and not n else "read"
        if not n and kind != "flush":
            continue
        out.append((float(f[4]), kind, sec * 512, n * 512))
    out.sort(key=lambda e: e[0])
    return [e[1:] for e in out]


@pytest.mark.parametrize("method", ["blktrace", "tracefs"])
def test_capture_dd(cli, nullb, tmp_path, method):
    _need_tools("blkparse", *(("blktrace",) if method == "blktrace" else ()))
    base_w, base_r = 64 << 20, 256 << 20
    trace = str(tmp_path / "cap")

    def work():
        subprocess.run(["dd", "if=/dev/zero", "of=" + nullb.path, "bs=64k", "count=16",
                        "seek=%d" % (base_w // 65536), "oflag=direct"], check=True,
                       capture_output=True)
        subprocess.run(["dd", "if=" + nullb.path, "of=/dev/null", "bs=4k", "count=32",
                        "skip=%d" % (base_r // 4096), "iflag=direct"], check=True,
                       capture_output=True)
    with one_cpu():
        capture(cli, nullb, trace, work, method)
    assert glob.glob(trace + ".blktrace.*")
    recs = records(cli, trace)
    mine = [(op, off, ln) for _t, op, off, ln, _r, _d in recs
            if base_w <= off < base_w + (1 << 20) or base_r <= off < base_r + (128 << 10)]
    assert mine == [("write", base_w + i * 65536, 65536) for i in range(16)] + \
        [("read", base_r + i * 4096, 4096) for i in range(32)], mine
    # every D of ours has its C (tracefs' times are in microseconds: a
    # completion within the microsecond of its issue shows as none)
    if method == "blktrace":
        assert all(r[4] > 0 for r in recs if (r[1], r[2], r[3]) in set(mine))
    # the reader and blkparse agree on every issue, in time order
    assert [(op, off, ln) for _t, op, off, ln, _r, _d in recs] == blkparse_d(trace)
    # a DEV.blktrace.0 path reads the same as the prefix
    assert records(cli, trace + ".blktrace.0") == recs


def _tol(share, n, points):
    return max(points, 4 * 100 * math.sqrt(share * (1 - share) / max(n, 1)))


def test_capture_fio_profile(cli, nullb, tmp_path):
    _need_tools("blktrace", "fio")
    trace = str(tmp_path / "fio")
    nios = 12000

    def work():
        subprocess.run(["fio", "--name=known", "--filename=" + nullb.path, "--direct=1",
                        "--ioengine=psync", "--rw=randrw", "--rwmixread=70",
                        "--bssplit=4k/50:16k/50", "--random_distribution=zoned:80/20:20/80",
                        "--number_ios=%d" % nios, "--size=256m", "--randseed=30",
                        "--norandommap", "--output=/dev/null"],
                       check=True, capture_output=True, timeout=300)
    with one_cpu():
        capture(cli, nullb, trace, work)
    recs = [r for r in records(cli, trace) if r[2] < (256 << 20) and r[1] in ("read", "write")]
    assert len(recs) >= nios
    out = tmp_path / "known.fio"
    p = subprocess.run([cli, "profile", trace, "-o", str(out)], capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    keys = dict(l.split("=", 1) for l in out.read_text().splitlines()
                if "=" in l and not l.startswith(";"))
    n = len(recs)
    assert abs(int(keys["rwmixread"]) - 70) <= _tol(0.7, n, 1), keys
    for lst, nd in zip(keys["bssplit"].split(","), (0.7 * n, 0.3 * n)):
        shares = dict(e.split("/") for e in lst.split(":"))
        assert set(shares) == {"4k", "16k"}, lst
        assert abs(int(shares["4k"]) - 50) <= _tol(0.5, nd, 1), lst
    # the hot band: the fio span is 256 MiB of the trace's span, the
    # profile's zones are shares of the highest offset seen: count directly
    span = max(off + ln for _t, _o, off, ln, _r, _d in recs)
    hot = sum(1 for r in recs if r[2] < 0.2 * span) / n
    assert abs(100 * hot - 80) <= _tol(0.8, n, 2), hot
    zr = keys["random_distribution"].split(":", 1)[1].split(",")[0]
    first = [tuple(map(int, z.split("/"))) for z in zr.split(":")]
    acc, size = 0, 0
    for a, s in first:
        if size >= 20:
            break
        acc, size = acc + a, size + s
    assert size == 20 and abs(acc - 80) <= _tol(0.8, 0.7 * n, 2), first
