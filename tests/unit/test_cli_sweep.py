# SPDX-License-Identifier: GPL-2.0
"""ssdload sweep on the host: its options, its points and its refusals.

Everything here is refused before a job exists: a bad option, a depth
that the auto rule cannot split, no point at all, a write without
--allow_write, an option the run refuses (checked by the run's own
--parse-only) and a target that is not a block device.  Each refusal is
exit status 2 with one line naming the option, and leaves no output
directory behind.  The sweep itself runs in the guest
(tests/e2e/test_sweep.py).
"""

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run, usage_lists

pytestmark = NEEDS_DEV


def sweep(cli, tmp_path, *args):
    return run(cli, "sweep", "--output-dir=%s" % (tmp_path / "out"), *args)


@pytest.mark.parametrize("args,needles", [
    (["--qd-list=0"], ["--qd-list=0", "'0' is not an integer from 1 to 65536"]),
    (["--qd-list=1,2,2"], ["2 is given twice"]),
    (["--qd-list="], ["--qd-list="]),
    (["--qd-list=3,130"], ["QD 130", "3 workers", "at most 64"]),
    (["--qd-list=96", "--max-qd-per-worker=32"], []),   # 3 x 32: runs (below)
    (["--workers=0"], ["--workers=0"]),
    (["--workers=lots"], ["--workers=lots"]),
    (["--workers=4", "--qd-list=1,2,6"], ["no point", "splits evenly"]),
    (["--max-qd-per-worker=0"], ["--max-qd-per-worker=0", "from 1"]),
    (["--runtime=50ms"], ["--runtime=50ms", "from 100ms"]),
    (["--runtime=soon"], ["--runtime=soon"]),
    (["--ramp_time=-1"], ["--ramp_time=-1"]),
    (["--log_interval_ms=5"], ["--log_interval_ms=5", "at least 10"]),
    (["--knee=0"], ["--knee=0", "fraction"]),
    (["--knee=1.5"], ["--knee=1.5"]),
    (["--output-format=xml"], ["--output-format=xml"]),
    (["--eta=sometimes"], ["--eta=sometimes"]),
    (["--rw=randwrite"], ["--rw=randwrite", "--allow_write", "nothing ran"]),
    (["--rw=randrw", "--allow_write=0"], ["--allow_write"]),
    (["--bogus=1"], ["bogus"]),
])
def test_sweep_refusals(cli, tmp_path, args, needles):
    p = sweep(cli, tmp_path, f"--filename={DEV}", *args)
    assert p.returncode == 2, p.stderr
    if needles:
        one_error_line(p, *needles)
    assert not (tmp_path / "out").exists()


def test_sweep_needs_filename(cli, tmp_path):
    one_error_line(sweep(cli, tmp_path), "--filename=DEV is required")


def test_sweep_run_refusal_is_the_runs(cli, tmp_path):
    """An option the run refuses: the run's message, then the sweep's; no
    directory left."""
    p = sweep(cli, tmp_path, f"--filename={DEV}", "--bs=4q")
    assert p.returncode == 2
    lines = p.stderr.splitlines()
    assert "--bs=4q" in lines[0] and "nothing ran" in lines[-1], p.stderr
    assert not (tmp_path / "out").exists()


def test_sweep_not_a_block_device(cli, tmp_path):
    """The points plan and the run's options pass; the device does not."""
    p = sweep(cli, tmp_path, "--filename=/dev/null", "--qd-list=96",
              "--max-qd-per-worker=32")
    assert p.returncode == 2
    assert "/dev/null: not a block device" in p.stderr
    assert not (tmp_path / "out").exists()


def test_sweep_existing_sweep_refused(cli, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "sweep.json").write_text("{}")
    p = sweep(cli, tmp_path, "--filename=/dev/null")
    one_error_line(p, "already holds a sweep")
    assert sorted(x.name for x in out.iterdir()) == ["sweep.json"]


def test_sweep_usage(cli):
    usage_lists(cli, "sweep", (
        "--qd-list", "--workers", "--max-qd-per-worker", "--ramp_time", "--runtime",
        "--log_interval_ms", "--knee", "--output-dir", "--output-format", "--no-report",
        "--allow_write", "AnandTech"))
