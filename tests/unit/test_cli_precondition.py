# SPDX-License-Identifier: GPL-2.0
"""--precondition and --section of sweep, curve and scale, and `ssdload
precondition`, on the host: their parsing and their refusals.

Every refusal is exit status 2 with one line naming the option, before
anything is written and with no output directory left behind: a mode
that is not one (or out of range), preconditioning without --allow_write,
--section with --size or --offset, a percentage out of range.  The guard
comes before the output directory: a target that is not a block device
is refused there, also with --dry-run.  The passes themselves, their
bytes and the section's offsets are checked in the guest
(tests/e2e/test_precondition.py).
"""

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run

pytestmark = NEEDS_DEV

DEV_ARG = f"--filename={DEV}"
METHODS = {
    "sweep": [DEV_ARG],
    "curve": [DEV_ARG],
    "scale": [f"--devices={DEV}"],
}


def method(cli, tmp_path, cmd, *args):
    return run(cli, cmd, "--output-dir=%s" % (tmp_path / "out"), *METHODS[cmd], *args)


BAD_MODES = [
    ("--precondition=random", ["random:2", "give the passes"]),
    ("--precondition=random:0", ["from 1 to 16"]),
    ("--precondition=seq128k:17", ["from 1 to 16"]),
    ("--precondition=seq128k:x", ["from 1 to 16"]),
    ("--precondition=fill:2", ["--precondition=fill:2", "must be none, fill"]),
    ("--precondition=erase", ["--precondition=erase", "must be none, fill"]),
    ("--precondition=pts:50ms", ["from 100ms"]),
    ("--precondition=pts:1s:4", ["from 5 to 25"]),
    ("--precondition=pts:1s:26", ["from 5 to 25"]),
]


@pytest.mark.parametrize("cmd", sorted(METHODS))
@pytest.mark.parametrize("arg,needles", BAD_MODES)
def test_bad_mode_refused(cli, tmp_path, cmd, arg, needles):
    p = method(cli, tmp_path, cmd, "--allow_write", arg)
    assert p.returncode == 2, p.stderr
    one_error_line(p, *needles)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("cmd", sorted(METHODS))
@pytest.mark.parametrize("mode", ["fill", "random:2", "seq128k:3", "pts", "pts:2s:10"])
def test_precondition_needs_allow_write(cli, tmp_path, cmd, mode):
    p = method(cli, tmp_path, cmd, "--precondition=" + mode)
    assert p.returncode == 2
    one_error_line(p, "--precondition writes to the whole of", "--allow_write",
                   "nothing ran")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("cmd", sorted(METHODS))
@pytest.mark.parametrize("args,needles", [
    (["--section=25%", "--size=1g"], ["--section=25%", "neither --size nor --offset"]),
    (["--offset=1m", "--section=4g"], ["--section=4294967296", "neither --size"]),
    (["--section=0%"], ["--section=0%", "above 0 and at most 100"]),
    (["--section=150%"], ["--section=150%", "above 0 and at most 100"]),
    (["--section=half%"], ["--section=half%", "not a percentage"]),
    (["--section=oracle"], ["--section=oracle", "there is no --profile"]),
])
def test_section_refusals(cli, tmp_path, cmd, args, needles):
    p = method(cli, tmp_path, cmd, *args)
    assert p.returncode == 2
    one_error_line(p, *needles)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("cmd", ["sweep", "curve"])
@pytest.mark.parametrize("extra", [[], ["--dry-run"], ["--force"], ["--dry-run=1"]])
def test_guard_before_the_directory(cli, tmp_path, cmd, extra):
    """--precondition: the guard probes the device first; /dev/null is not
    one, and nothing is made."""
    p = run(cli, cmd, "--output-dir=%s" % (tmp_path / "out"), "--filename=/dev/null",
            "--allow_write", "--precondition=fill", "--section=25%", *extra)
    assert p.returncode == 2
    assert p.stderr.splitlines() == ["ssdload: /dev/null: not a block device",
                                     "ssdload: %s: --precondition: refused; nothing was "
                                     "written" % cmd]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("cmd", ["sweep", "curve"])
def test_dry_run_without_precondition(cli, tmp_path, cmd):
    p = run(cli, cmd, "--output-dir=%s" % (tmp_path / "out"), "--filename=/dev/null",
            "--dry-run")
    assert (p.returncode, p.stdout) == (0, "")
    assert p.stderr == ("ssdload: %s: --dry-run: no --precondition: nothing would be "
                        "written before the measurement\n" % cmd)
    assert not (tmp_path / "out").exists()


def test_curve_points_is_curve(cli, tmp_path):
    """--points is --curve's other name, above 100% included (vdbench's
    curve=(10,...,120)); the list must increase."""
    p = method(cli, tmp_path, "curve", "--points=120,10")
    one_error_line(p, "--points=120,10", "must increase (10 after 120)")
    p = method(cli, tmp_path, "curve", "--points=10,50,100,110,1001")
    one_error_line(p, "--points=10,50,100,110,1001", "at most 1000")
    # accepted: refused later by the device only
    p = run(cli, "curve", "--output-dir=%s" % (tmp_path / "out"), "--filename=/dev/null",
            "--points=10,20,30,40,50,60,70,80,90,100,110,120")
    assert p.returncode == 2 and "--points" not in p.stderr
    assert "/dev/null: not a block device" in p.stderr


def pc(cli, tmp_path, *args):
    return run(cli, "precondition", "--output-dir=%s" % (tmp_path / "out"), *args)


@pytest.mark.parametrize("args,needles", [
    ([DEV_ARG, "--allow_write"], ["give --precondition=MODE"]),
    ([DEV_ARG, "--allow_write", "--precondition=none"], ["give --precondition=MODE"]),
    ([DEV_ARG, "--precondition=fill"], ["--allow_write", "nothing ran"]),
    (["--precondition=fill", "--allow_write"], ["--filename=DEV is required"]),
    ([DEV_ARG, "--allow_write", "--precondition=random:99"], ["from 1 to 16"]),
    ([DEV_ARG, "--allow_write", "--precondition=fill", "--rw=write"], ["--rw"]),
    ([DEV_ARG, "--allow_write", "--precondition=fill", "--dry-run=maybe"],
     ["--dry-run=maybe", "must be 0 or 1"]),
])
def test_precondition_command_refusals(cli, tmp_path, args, needles):
    p = pc(cli, tmp_path, *args)
    assert p.returncode == 2, p.stderr
    one_error_line(p, *needles)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("extra", [[], ["--dry-run"]])
def test_precondition_command_not_a_block_device(cli, tmp_path, extra):
    p = pc(cli, tmp_path, "--filename=/dev/null", "--allow_write", "--precondition=fill",
           *extra)
    assert p.returncode == 2
    assert p.stderr.splitlines() == ["ssdload: /dev/null: not a block device",
                                     "ssdload: precondition: --precondition: refused; "
                                     "nothing was written"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("cmd", ["sweep", "curve", "scale", "precondition"])
def test_usage(cli, cmd):
    p = run(cli, cmd, "--help")
    assert p.returncode == 0
    for o in ("--precondition", "random:N", "seq128k:N", "pts", "--dry-run", "--force"):
        assert o in p.stdout, (cmd, o)
    if cmd != "precondition":
        assert "--section=P%|SIZE" in p.stdout
    assert "precondition" in run(cli, "--help").stdout
