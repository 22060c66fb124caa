# SPDX-License-Identifier: GPL-2.0
"""fio's offset options: rw's suffix and rw_sequencer.

rw=read:8k adds a gap after each sequential I/O (negative: backwards),
rw=randread:8 issues 8 I/Os per random offset (rw_sequencer).  ssdload's
sequential I/Os are contiguous and each random I/O draws a new offset, so
only :0 and :1 are taken; any other suffix is refused naming the value.
fio 3.33 (null engine) is the reference for what each value means.
"""
import re
import shutil
import subprocess

import pytest

from cli import jobfile, one_error_line, parse_only, run


def attrs(cli, *args):
    return parse_only(cli, "--name=j", *args)


def refused(cli, *args):
    return run(cli, "run", "--name=j", "--filename=/dev/unit-test", "--parse-only", *args)


def fio(*args):
    """fio 3.33 on the null engine: the completed process (skip without fio)."""
    if not shutil.which("fio"):
        pytest.skip("fio is not installed (Debian: fio)")
    return subprocess.run(["fio", "--name=x", "--ioengine=null", "--thread"] + list(args),
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("rw,attr", [
    ("read:0", "read"), ("write:0k", "write"), ("rw:0", "rw"), ("readwrite:0", "rw"),
    ("randread:1", "randread"), ("randrw:1", "randrw"), ("randwrite: 1", "randwrite"),
])
def test_rw_suffix_meaning_ssdloads_offsets(cli, rw, attr):
    """A gap of 0, one I/O per random offset: fio's default, taken."""
    assert attrs(cli, "--rw=" + rw)["rw"] == attr


@pytest.mark.parametrize("rw,why", [
    ("read:8k", "a gap after each sequential I/O is not supported"),
    ("write:4096", "contiguous"),
    ("read:-8k", "backward sequential I/O"),
    ("randread:8", "several I/Os per random offset"),
    ("randrw:2", "rw_sequencer"),
    ("randread:0", "a count above 0"),
    ("randread:x", "a count above 0"),
    ("read:x", "the suffix of a sequential rw is a gap"),
])
def test_rw_suffix_refused_by_value(cli, tmp_path, rw, why):
    one_error_line(refused(cli, "--rw=" + rw), "--rw=%s: " % rw, why)
    f = jobfile(tmp_path, "[j]\nfilename=/dev/unit-test\nrw=%s\n" % rw)
    one_error_line(run(cli, "run", "--parse-only", f), "job.fio:3: rw=%s: " % rw, why)


@pytest.mark.parametrize("rw", ["read:8k", "read:-8k", "randread:8", "randrw:2"])
def test_fio_takes_the_refused_suffixes(rw):
    """Each refused suffix is one fio runs: refused for its meaning, not as a typo."""
    p = fio("--rw=" + rw, "--size=1m", "--parse-only")
    assert p.returncode == 0, p.stderr


def fio_offsets(*args):
    """The offsets fio 3.33 issues, per clone (thread id), in order."""
    p = fio("--debug=io", "--bs=4k", *args)
    assert p.returncode == 0, p.stderr
    per = {}
    for m in re.finditer(r"^io\s+(\d+)\s+queue: io_u \S+: off=0x([0-9a-f]+)", p.stdout, re.M):
        per.setdefault(m.group(1), []).append(int(m.group(2), 16))
    assert per, p.stdout[:2000]
    return [per[k] for k in sorted(per, key=lambda k: min(per[k]))]


def test_fio_sequential_gap_meaning():
    """fio: read:0 is contiguous, read:4k skips 4k after each I/O."""
    assert fio_offsets("--rw=read:0", "--size=64k") == [list(range(0, 64 << 10, 4096))]
    gap = fio_offsets("--rw=read:4k", "--size=64k")[0]
    assert gap[:3] == [0, 8192, 16384], gap
