# SPDX-License-Identifier: GPL-2.0
"""ssdload curve on the host: its options and its refusals.

Everything here is refused before a job exists: a bad option, a curve
that does not increase, a workload whose rate a curve cannot split, a
write without --allow_write, an option the run refuses (checked by the
run's own --parse-only, at the curve's highest rate) and a target that is
not a block device.  Each refusal is exit status 2 with one line naming
the option, and leaves no output directory behind.  The curve itself runs
in the guest (tests/e2e/test_curve.py).
"""

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, refused_leaving_nothing, run, usage_lists

pytestmark = NEEDS_DEV


def curve(cli, tmp_path, *args):
    return run(cli, "curve", "--output-dir=%s" % (tmp_path / "out"), *args)


@pytest.mark.parametrize("args,needles", [
    (["--curve=0"], ["--curve=0", "above 0"]),
    (["--curve=10,5"], ["must increase", "5 after 10"]),
    (["--curve=10,10"], ["must increase"]),
    (["--curve=10,"], ["--curve=10,"]),
    (["--curve="], ["--curve="]),
    (["--curve=1001"], ["at most 1000"]),
    (["--curve=ten"], ["--curve=ten"]),
    (["--curve=" + ",".join(str(i) for i in range(1, 66))], ["more than 64"]),
    (["--max-iops=0"], ["--max-iops=0", "from 1"]),
    (["--max-iops=fast"], ["--max-iops=fast"]),
    (["--stopcurve=0"], ["--stopcurve=0", "above 0"]),
    (["--stopcurve=soon"], ["--stopcurve=soon"]),
    (["--stopcurve-intended=-1ms"], ["--stopcurve-intended=-1ms"]),
    (["--iodepth=0"], ["--iodepth=0"]),
    (["--numjobs=0"], ["--numjobs=0"]),
    (["--rate_process=uniform"], ["--rate_process=uniform", "poisson or linear"]),
    (["--runtime=50ms"], ["--runtime=50ms", "from 100ms"]),
    (["--ramp_time=later"], ["--ramp_time=later"]),
    (["--output-format=xml"], ["--output-format=xml"]),
    (["--eta=sometimes"], ["--eta=sometimes"]),
    (["--rw=randwrite"], ["--rw=randwrite", "--allow_write", "nothing ran"]),
    (["--rw=randrw", "--allow_write=0"], ["--allow_write"]),
    (["--rw=trimwrite", "--allow_write"], ["--rw=trimwrite", "read/write mix"]),
    (["--rw=randrw", "--rwmixread=101", "--allow_write"], ["--rwmixread=101"]),
    (["--rate_iops=100"], ["rate_iops"]),
    (["--bogus=1"], ["bogus"]),
])
def test_curve_refusals(cli, tmp_path, args, needles):
    refused_leaving_nothing(curve(cli, tmp_path, f"--filename={DEV}", *args),
                            tmp_path / "out", *needles)


def test_curve_needs_filename(cli, tmp_path):
    one_error_line(curve(cli, tmp_path), "--filename=DEV is required")


def test_curve_run_refusal_is_the_runs(cli, tmp_path):
    """An option the run refuses: the run's message, then the curve's; no
    directory left."""
    p = curve(cli, tmp_path, f"--filename={DEV}", "--bs=4q")
    assert p.returncode == 2
    lines = p.stderr.splitlines()
    assert "--bs=4q" in lines[0] and "nothing ran" in lines[-1], p.stderr
    assert not (tmp_path / "out").exists()


def test_curve_not_a_block_device(cli, tmp_path):
    """The options and the run's own checks pass; the device does not."""
    p = curve(cli, tmp_path, "--filename=/dev/null", "--curve=10,120,500",
              "--max-iops=1e6", "--stopcurve=2.5", "--rw=randrw", "--rwmixwrite=30",
              "--allow_write")
    assert p.returncode == 2
    assert "/dev/null: not a block device" in p.stderr
    assert not (tmp_path / "out").exists()


def test_curve_existing_curve_refused(cli, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "curve.json").write_text("{}")
    p = curve(cli, tmp_path, "--filename=/dev/null")
    one_error_line(p, "already holds a curve")


def test_curve_usage(cli):
    usage_lists(cli, "curve", (
        "--curve", "--max-iops", "--stopcurve", "--stopcurve-intended", "--iodepth",
        "--numjobs", "--rate_process", "--ramp_time", "--runtime", "--output-dir",
        "--output-format", "--no-report", "--allow_write", "vdbench", "10,50,70,80,90,100",
        "flatfile"))
