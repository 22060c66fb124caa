# SPDX-License-Identifier: GPL-2.0
"""fio's offset options: rw's suffix, rw_sequencer and offset_increment.

rw=read:8k adds a gap after each sequential I/O (negative: backwards),
rw=randread:8 issues 8 I/Os per random offset (rw_sequencer).  ssdload's
sequential I/Os are contiguous and each random I/O draws a new offset, so
only :0 and :1 are taken; any other suffix is refused naming the value.
offset_increment places fio's numjobs clones at offset + k * increment;
ssdload's workers take the span's consecutive slices: the same regions
when the increment equals size.  fio 3.33 (null engine) is the reference
for what each value means.
"""
import re
import shutil
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import jobfile, one_error_line, parse_only, run

pytestmark = NEEDS_DEV

MIB = 1 << 20


def attrs(cli, *args):
    return parse_only(cli, "--name=j", *args)


def refused(cli, *args):
    return run(cli, "run", "--name=j", f"--filename={DEV}", "--parse-only", *args)


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
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nrw=%s\n" % rw)
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


@pytest.mark.parametrize("rw", ["read", "randread"])
def test_offset_increment_equal_to_size(cli, rw):
    """numjobs=4 clones of size 1m spaced 1m from 2m: a span of 4m from 2m,
    worker k's slice clone k's region (as fio's, checked below)."""
    a = attrs(cli, "--rw=" + rw, "--numjobs=4", "--offset=2m", "--size=1m",
              "--offset_increment=1m")
    assert (a["offset"], a["size"], a["numjobs"]) == (str(2 * MIB), str(4 * MIB), "4")
    p = refused(cli, "--rw=" + rw, "--numjobs=4", "--size=1m", "--offset_increment=1m")
    assert p.returncode == 0, p.stderr
    # sequential: fio's clones cover these slices too, no "split" note
    assert "slices; fio's clones each cover" not in p.stderr
    assert ("each worker's slice is its clone's region" in p.stderr) == (rw == "randread")


def test_offset_increment_percent(cli):
    a = attrs(cli, "--numjobs=4", "--size=25%", "--offset_increment=25%")
    assert a["size"] == "100%", a
    a = attrs(cli, "--numjobs=3", "--size=12.5%", "--offset_increment=12.5%")
    assert a["size"] == "37.5%", a


@pytest.mark.parametrize("args", [
    ["--numjobs=1", "--size=1m", "--offset_increment=3m"],
    ["--size=1m", "--offset_increment=3m"],
    ["--numjobs=4", "--size=1m", "--offset_increment=0"],
], ids=["numjobs=1", "no-numjobs", "increment-0"])
def test_offset_increment_that_changes_nothing(cli, args):
    """One clone (or an increment of 0): every clone starts at offset."""
    assert attrs(cli, *args)["size"] == str(MIB)


@pytest.mark.parametrize("args,opt,why", [
    (["--numjobs=2", "--size=1m", "--offset_increment=2m"], "offset_increment=2m",
     "must equal size"),
    (["--numjobs=2", "--size=2m", "--offset_increment=1m"], "offset_increment=1m",
     "must equal size"),
    (["--numjobs=2", "--offset_increment=1m"], "offset_increment=1m", "without size"),
    (["--numjobs=3", "--size=50%", "--offset_increment=50%"], "offset_increment=50%",
     "more than the device"),
    (["--numjobs=2", "--size=1m", "--offset_increment=1m", "--step=runtime=1"],
     "offset_increment=1m", "not with steps"),
    (["--numjobs=2", "--size=1m", "--offset_increment=x"], "offset_increment=x",
     "not a size"),
])
def test_offset_increment_refused(cli, args, opt, why):
    one_error_line(refused(cli, *args), "--" + opt + ": ", why)


def test_fio_offset_increment_places_the_clones():
    """fio 3.33: clone k of numjobs covers offset + k * offset_increment,
    size bytes: with the increment equal to size, consecutive slices."""
    clones = fio_offsets("--rw=read", "--numjobs=2", "--offset=64k", "--size=32k",
                         "--offset_increment=32k")
    assert clones == [list(range(64 << 10, 96 << 10, 4096)),
                      list(range(96 << 10, 128 << 10, 4096))], clones
