# SPDX-License-Identifier: GPL-2.0
"""fio's offset options: rw's suffix, rw_sequencer, offset_increment,
size_increment and per_clone.

rw=read:8k adds a gap after each sequential I/O (negative: backwards): the
module's rw_gap; rw=randread:8 issues 8 I/Os per random offset
(rw_sequencer=sequential, the next blocks): the module's rw_seq_nr.
offset_increment places fio's numjobs clones at offset + k * increment:
the module's offset_increment (size_increment grows them, an ssdload
extension).  per_clone gives each worker fio's clone's rate, count and
span; a job file's numjobs has it by default.  fio 3.33 (null engine) is
the reference for what each value means; the module's offsets are
compared with fio's in KUnit (ssdload_walk) and in the guest
(tests/e2e/test_walk.py).
"""
import re
import shutil
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import jobfile, one_error_line, parse_only, run

pytestmark = NEEDS_DEV

MIB = 1 << 20
K = 1024


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
    """A gap of 0, one I/O per random offset: fio's default, nothing added."""
    a = attrs(cli, "--rw=" + rw)
    assert a["rw"] == attr
    assert "rw_gap" not in a and "rw_seq_nr" not in a


@pytest.mark.parametrize("rw,attr,key,val", [
    ("read:8k", "read", "rw_gap", "8192"),
    ("write:4096", "write", "rw_gap", "4096"),
    ("read:-8k", "read", "rw_gap", "-8192"),
    ("rw:1m", "rw", "rw_gap", str(MIB)),
    ("randread:8", "randread", "rw_seq_nr", "8"),
    ("randrw:2", "randrw", "rw_seq_nr", "2"),
])
def test_rw_suffix_sets_the_walk(cli, tmp_path, rw, attr, key, val):
    a = attrs(cli, "--rw=" + rw)
    assert (a["rw"], a[key]) == (attr, val), a
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nrw=%s\n" % rw)
    p = run(cli, "run", "--parse-only", f)
    assert p.returncode == 0, p.stderr
    assert "%s=%s" % (key, val) in p.stdout.splitlines(), p.stdout


@pytest.mark.parametrize("args,opt,why", [
    (["--rw=randread:0"], "rw=randread:0", "a count from 1"),
    (["--rw=randread:x"], "rw=randread:x", "a count from 1"),
    (["--rw=randread:4294967296"], "rw=randread:4294967296", "a count from 1"),
    (["--rw=read:x"], "rw=read:x", "the suffix of a sequential rw is a gap"),
    (["--rw=read:100"], "rw=read:100", "multiple of 512"),
    (["--rw=read:-2t"], "rw=read:-2t", "at most 1t"),
    (["--rw=read:8k", "--bssplit=4k/50:8k/50"], "rw=read:8k", "one block size"),
    (["--rw=randread:4", "--bs=4k,8k"], "rw=randread:4", "one block size"),
    (["--rw=randread:4", "--rw_sequencer=identical"], "rw_sequencer=identical",
     "the same block"),
])
def test_rw_suffix_refused_by_value(cli, args, opt, why):
    one_error_line(refused(cli, *args), "--%s: " % opt, why)


def test_rw_sequencer_sequential_is_the_walk(cli):
    a = attrs(cli, "--rw=randread:4", "--rw_sequencer=sequential")
    assert a["rw_seq_nr"] == "4"


@pytest.mark.parametrize("rw", ["read:8k", "read:-8k", "randread:8", "randrw:2"])
def test_fio_takes_the_suffixes(rw):
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
    """fio: read:0 is contiguous, read:4k skips 4k after each I/O and a
    one-pass run ends before the walk would wrap (module/walk.c)."""
    assert fio_offsets("--rw=read:0", "--size=64k") == [list(range(0, 64 * K, 4096))]
    assert fio_offsets("--rw=read:8k", "--size=64k") == [[x * K for x in
                                                         (0, 12, 24, 36, 48, 60)]]


def test_fio_backward_meaning():
    """fio: read:-8k at offset 128k starts at size + gap, steps one block
    back, wraps there again and ends after size bytes (KUnit's table)."""
    want = [128 * K + x * K for x in range(56, -1, -4)] + [184 * K]
    assert fio_offsets("--rw=read:-8k", "--size=64k", "--offset=128k") == [want]


def test_fio_rw_seq_nr_meaning():
    """fio: randread:4 draws the first of every 4 I/Os, the others follow."""
    offs = fio_offsets("--rw=randread:4", "--size=1m", "--norandommap", "--number_ios=64")
    offs = offs[0]
    for i, o in enumerate(offs):
        if i % 4:
            assert o == offs[i - 1] + 4096 or o == 0, (i, offs)


def test_offset_increment_sets_the_regions(cli):
    """numjobs=4 clones of size 1m spaced 2m from 2m: the module's
    offset_increment gives worker k fio's clone k's region."""
    a = attrs(cli, "--rw=read", "--numjobs=4", "--offset=2m", "--size=1m",
              "--offset_increment=2m", "--size_increment=64k")
    assert (a["offset"], a["size"], a["offset_increment"], a["size_increment"],
            a["numjobs"]) == (str(2 * MIB), str(MIB), str(2 * MIB), str(64 * K), "4")


@pytest.mark.parametrize("args", [
    ["--numjobs=2", "--offset_increment=1m"],
    ["--numjobs=2", "--size=1m", "--offset_increment=1m", "--step=runtime=1"],
    ["--numjobs=2", "--size=2m", "--offset_increment=1m"],
], ids=["to-the-end", "steps", "overlapping"])
def test_offset_increment_taken(cli, args):
    assert attrs(cli, *args)["offset_increment"] == str(MIB)


def test_offset_increment_percent(cli):
    """A percentage equal to size: numjobs consecutive slices, as before."""
    a = attrs(cli, "--numjobs=4", "--size=25%", "--offset_increment=25%")
    assert a["size"] == "100%" and "offset_increment" not in a, a
    a = attrs(cli, "--numjobs=3", "--size=12.5%", "--offset_increment=12.5%")
    assert a["size"] == "37.5%", a


@pytest.mark.parametrize("args", [
    ["--numjobs=1", "--size=1m", "--offset_increment=3m", "--size_increment=1m"],
    ["--size=1m", "--offset_increment=3m"],
    ["--numjobs=4", "--size=1m", "--offset_increment=0"],
], ids=["numjobs=1", "no-numjobs", "increment-0"])
def test_offset_increment_that_changes_nothing(cli, args):
    """One clone (or an increment of 0): every clone starts at offset."""
    a = attrs(cli, *args)
    assert a["size"] == str(MIB) and "offset_increment" not in a
    assert "size_increment" not in a


@pytest.mark.parametrize("args,opt,why", [
    (["--numjobs=3", "--size=50%", "--offset_increment=50%"], "offset_increment=50%",
     "more than the device"),
    (["--numjobs=3", "--size=10%", "--offset_increment=20%"], "offset_increment=20%",
     "equal to size"),
    (["--numjobs=2", "--size=25%", "--offset_increment=25%", "--step=runtime=1"],
     "offset_increment=25%", "steps"),
    (["--numjobs=2", "--size=1m", "--offset_increment=x"], "offset_increment=x",
     "not a size"),
    (["--numjobs=2", "--size=1m", "--offset_increment=1000"], "offset_increment=1000",
     "multiple of 512"),
    (["--numjobs=2", "--size_increment=1m"], "size_increment=1m", "needs size"),
    (["--numjobs=2", "--size=1m", "--size_increment=-1m"], "size_increment=-1m",
     "not a size"),
])
def test_offset_increment_refused(cli, args, opt, why):
    one_error_line(refused(cli, *args), "--" + opt + ": ", why)


def test_fio_offset_increment_places_the_clones():
    """fio 3.33: clone k of numjobs covers offset + k * offset_increment,
    size bytes."""
    clones = fio_offsets("--rw=read", "--numjobs=2", "--offset=64k", "--size=32k",
                         "--offset_increment=48k")
    assert clones == [list(range(64 * K, 96 * K, 4096)),
                      list(range(112 * K, 144 * K, 4096))], clones


def test_per_clone_default_of_a_job_file(cli, tmp_path):
    """numjobs of a job file: fio's clones (per_clone=1), no notes; the
    command line's --numjobs keeps ssdload's meaning, with the notes."""
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nnumjobs=4\nrate_iops=100\n"
                "io_size=1m\n")
    p = run(cli, "run", "--parse-only", f)
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    # io_size: each clone's, and the module counts number_ios per worker
    assert "per_clone=1" in out and "number_ios=256" in out, p.stdout
    assert "note" not in p.stderr, p.stderr
    p = run(cli, "run", "--parse-only", "--per_clone=0", f)
    assert p.returncode == 0, p.stderr
    assert "per_clone=1" not in p.stdout and "number_ios=1024" in p.stdout
    assert "--per_clone=1 gives fio's" in p.stderr, p.stderr
    a = attrs(cli, "--numjobs=4", "--rate_iops=100")
    assert "per_clone" not in a
    a = attrs(cli, "--numjobs=4", "--rate_iops=100", "--per_clone")
    assert a["per_clone"] == "1"
    # one worker: nothing to clone
    assert "per_clone" not in attrs(cli, "--per_clone=1")
    one_error_line(refused(cli, "--numjobs=2", "--per_clone=2"), "--per_clone=2: ",
                   "0 or 1")
