# SPDX-License-Identifier: GPL-2.0
"""ssdload scale on the host: its options, its plan and its refusals.

Everything here is refused before a job or an array exists: a bad option,
a drive count beyond --devices, a RAID level scale does not build or one
no count fits, --raid without --allow_write, a target that is one of the
drives, a depth that does not split into workers of at most 64, an
option the runs refuse (their own --parse-only) and a drive that is not
a block device.  Each is exit status 2 with one line naming the problem,
and leaves no output directory behind.  The scale itself runs in the
guest (tests/e2e/test_scale.py).
"""

import os

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run, usage_lists

DEVS = "--devices=/dev/unit-a,/dev/unit-b"


def scale(cli, tmp_path, *args):
    return run(cli, "scale", "--output-dir=%s" % (tmp_path / "out"), *args)


@pytest.mark.parametrize("args,needles", [
    ([], ["--devices=DEV,DEV,... is required"]),
    (["--filename=/dev/unit-a"], ["--devices", "not --filename"]),
    (["--devices="], ["--devices=", "one device or more"]),
    (["--devices=unit-a"], ["'unit-a' is not an absolute device path"]),
    (["--devices=/dev/unit-a,/dev/unit-a"], ["/dev/unit-a is given twice"]),
    (["--devices=" + ",".join("/dev/u%d" % i for i in range(17))], ["at most 16"]),
    ([DEVS, "--counts=0"], ["--counts=0", "from 1 to 16"]),
    ([DEVS, "--counts=4"], ["4 drives", "--devices has 2"]),
    ([DEVS, "--counts=1,1"], ["1 is given twice"]),
    ([DEVS, "--raid=5"], ["--raid=5", "'5' is not a RAID level", "0 or 10"]),
    ([DEVS, "--raid=0,0"], ["each level once"]),
    ([DEVS, "--raid="], ["--raid="]),
    ([DEVS, "--raid=0"], ["--raid", "give --allow_write"]),
    ([DEVS, "--raid=10", "--allow_write"], ["--raid=10", "no drive count", "RAID-10"]),
    ([DEVS, "--raid-chunk=3k"], ["--raid-chunk=3k", "power of two"]),
    ([DEVS, "--raid-chunk=1g"], ["--raid-chunk=1g"]),
    ([DEVS, "--targets=/dev/unit-b"], ["--targets", "/dev/unit-b is one of --devices"]),
    ([DEVS, "--qd-list=130"], ["QD 130", "at most 64"]),
    ([DEVS, "--qd-list=0"], ["--qd-list=0"]),
    ([DEVS, "--runtime=50ms"], ["--runtime=50ms", "from 100ms"]),
    ([DEVS, "--rw=randwrite"], ["--rw=randwrite", "--allow_write", "nothing ran"]),
    ([DEVS, "--output-format=xml"], ["--output-format=xml"]),
    ([DEVS, "--bogus=1"], ["bogus"]),
])
def test_scale_refusals(cli, tmp_path, args, needles):
    p = scale(cli, tmp_path, *args)
    assert p.returncode == 2, p.stderr
    one_error_line(p, *needles)
    assert not (tmp_path / "out").exists()


def test_scale_run_refusal_is_the_runs(cli, tmp_path):
    """An option the runs refuse: the run's message, then scale's naming
    the device; no directory left."""
    p = scale(cli, tmp_path, DEVS, "--bs=4q")
    assert p.returncode == 2
    lines = p.stderr.splitlines()
    assert "--bs=4q" in lines[0], p.stderr
    assert "refused the job on /dev/unit-a" in lines[-1] and "nothing ran" in lines[-1]
    assert not (tmp_path / "out").exists()


def test_scale_not_a_block_device(cli, tmp_path):
    p = scale(cli, tmp_path, "--devices=/dev/null,/dev/zero", "--qd-list=96")
    assert p.returncode == 2
    assert "/dev/null: not a block device" in p.stderr
    assert not (tmp_path / "out").exists()


def test_scale_existing_result_refused(cli, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "scale.json").write_text("{}")
    p = scale(cli, tmp_path, DEVS)
    assert p.returncode == 2
    assert "scale.json" in p.stderr
    assert sorted(x.name for x in out.iterdir()) == ["scale.json"]


def test_scale_usage(cli):
    usage_lists(cli, "scale", (
        "--devices", "--counts", "--raid", "--raid-chunk", "--targets", "--qd-list",
        "--ramp_time", "--runtime", "--output-dir", "--output-format", "--no-report",
        "--allow_write", "--profile", "mdadm"))


@NEEDS_DEV
def test_scale_dry_run_refuses_what_the_runs_refuse(cli, tmp_path):
    """--dry-run checks the runs as the real scale does (their
    --parse-only): a dry run does not pass a job the runs refuse.  The
    devices are links to the host's block device, which --parse-only
    checks as a run would."""
    devs = []
    for n in ("unit-a", "unit-b"):
        os.symlink(DEV, str(tmp_path / n))
        devs.append(str(tmp_path / n))
    p = scale(cli, tmp_path, "--devices=" + ",".join(devs), "--dry-run", "--bs=511")
    assert p.returncode == 2, p.stderr
    lines = p.stderr.splitlines()
    assert "--bs=511" in lines[0], p.stderr
    assert "refused the job on %s" % devs[0] in lines[-1], p.stderr
    assert "nothing was run or written" not in p.stderr
    assert not (tmp_path / "out").exists()
