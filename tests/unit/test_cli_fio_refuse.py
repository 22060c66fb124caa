# SPDX-License-Identifier: GPL-2.0
"""What fio's job files ask and ssdload cannot give is refused with its reason.

fio 3.33 is the reference: its parse.c (strip_blank_end()) ends a line at
the first ';' or '#', it refuses bs=0, and of its engines only those doing
block I/O on the target have ssdload.ko's meaning.
"""
import pytest

from cli import jobfile, one_error_line, run


def parse(cli, *args):
    p = run(cli, "run", "--parse-only", *args)
    assert p.returncode == 0, p.stderr
    return dict(l.split("=", 1) for l in p.stdout.splitlines()), p.stderr


def test_inline_comments_end_the_line(cli, tmp_path):
    f = jobfile(tmp_path, "[global]\nruntime=3600  # max\nbs=8k;the size\n"
                "[j] # a job\nfilename=/dev/unit-test # the drive\niodepth=4#\n")
    a, _ = parse(cli, f)
    assert a["filename"] == "/dev/unit-test"
    assert a["runtime_ms"] == "3600000"
    assert a["bs"] == "8192" and a["iodepth"] == "4" and a["name"] == "j"


@pytest.mark.parametrize("engine", ["sync", "psync", "vsync", "pvsync", "pvsync2",
                                    "libaio", "io_uring", "posixaio", "mmap"])
def test_block_engines_become_ssdload(cli, engine):
    _, err = parse(cli, "--filename=/dev/unit-test", "--ioengine=" + engine)
    assert "--ioengine=%s ignored: ssdload.ko is the engine" % engine in err


@pytest.mark.parametrize("engine,why", [
    ("null", "does no device I/O"), ("cpuio", "does no device I/O"),
    ("net", "network"), ("http", "network"), ("libiscsi", "network"),
    ("libhdfs", "network"), ("dfs", "network"), ("exec", "runs a program"),
    ("sg", "passthrough"), ("falloc", "file system"), ("dev-dax", "not block devices"),
    ("external:/x.so", "external engine"), ("nosuch", "not a block device engine"),
])
def test_other_engines_are_refused(cli, tmp_path, engine, why):
    one_error_line(run(cli, "run", "--parse-only", "--filename=/dev/unit-test",
                       "--ioengine=" + engine), "--ioengine=" + engine, why)
    f = jobfile(tmp_path, "[j]\nfilename=/dev/unit-test\nioengine=%s\n" % engine)
    one_error_line(run(cli, "run", "--parse-only", f), "job.fio:3: ioengine=" + engine,
                   why)


def test_bs_zero_is_refused(cli):
    one_error_line(run(cli, "run", "--parse-only", "--filename=/dev/unit-test",
                       "--bs=0"), "--bs=0", "above 0")
