# SPDX-License-Identifier: GPL-2.0
"""ssdload latency-grid on the host: its options and its refusals.

Everything here is refused before a job exists: a bad list, an option the
grid sets itself, a write without --allow_write, an option the run
refuses (checked by the run's own --parse-only, with the grid's steps
file) and a target that is not a block device.  Each refusal is exit
status 2 with one line naming the option, and leaves no output directory
behind.  The grid itself, its table and its cells run in the guest
(tests/e2e/test_latency_grid.py); its report is rendered here from a
results file (test_report_latgrid.py).
"""

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, refused_leaving_nothing, run, usage_lists

pytestmark = NEEDS_DEV


def grid(cli, tmp_path, *args):
    return run(cli, "latency-grid", "--output-dir=%s" % (tmp_path / "out"), *args)


@pytest.mark.parametrize("args,needles", [
    ([], ["a mix below 100 writes", "--allow_write", "nothing ran"]),
    (["--mix=100,65", "--allow_write=0"], ["--allow_write"]),
    (["--mix=100,101"], ["--mix=100,101", "'101' is not an integer from 0 to 100"]),
    (["--mix=100,100"], ["100 is given twice"]),
    (["--mix="], ["--mix="]),
    (["--mix=1,2,3,4,5,6,7,8,9", "--allow_write"], ["at most 8 values"]),
    (["--mix=100", "--bs=4k,1000"], ["'1000' is not a size", "steps of 512"]),
    (["--mix=100", "--bs=0"], ["'0' is not a size"]),
    (["--mix=100", "--bs=128m"], ["'128m'", "64 MiB"]),
    (["--mix=100", "--bs=4k,4096"], ["4096 is given twice"]),
    (["--mix=100", "--bs="], ["--bs=", "give one size or more"]),
    (["--mix=100", "--percentiles=99:101"], ["--percentiles=99:101", "percentile_list"]),
    (["--mix=100", "--percentiles=0"], ["--percentiles=0"]),
    (["--mix=100", "--rw=randwrite"], ["--rw", "sets it for each cell"]),
    (["--mix=100", "--rwmixread=70"], ["--rwmixread", "sets it for each cell"]),
    (["--mix=100", "--bssplit=4k/100"], ["--bssplit"]),
    (["--mix=100", "--profile=sql"], ["--profile"]),
    (["--mix=100", "--iodepth=4"], ["iodepth"]),
    (["--mix=100", "--numjobs=2"], ["numjobs"]),
    (["--mix=100", "--runtime=50ms"], ["--runtime=50ms", "from 100ms"]),
    (["--mix=100", "--output-format=xml"], ["--output-format=xml"]),
])
def test_grid_refusals(cli, tmp_path, args, needles):
    refused_leaving_nothing(grid(cli, tmp_path, f"--filename={DEV}", *args),
                            tmp_path / "out", *needles)


def test_grid_needs_filename(cli, tmp_path):
    one_error_line(grid(cli, tmp_path, "--mix=100"), "--filename=DEV is required")


def test_grid_run_refusal_is_the_runs(cli, tmp_path):
    """An option the run refuses: the run's message, then the grid's; no
    directory left."""
    p = grid(cli, tmp_path, f"--filename={DEV}", "--mix=100", "--size=4q")
    assert p.returncode == 2
    lines = p.stderr.splitlines()
    assert "--size=4q" in lines[0] and "nothing ran" in lines[-1], p.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args", [
    ["--mix=100"],
    # the S3700 grid: its steps (512 B to 8 KiB, reads, 65/35, writes) pass
    # the run's checks, then the device does not
    ["--allow_write"],
    ["--allow_write", "--bs=512,4k,8k,64k", "--mix=100,70,65,50,0",
     "--percentiles=50:99:99.9:99.95:99.99", "--runtime=1s", "--ramp_time=0"],
])
def test_grid_not_a_block_device(cli, tmp_path, args):
    """The grid's steps and the run's options pass; the device does not."""
    p = grid(cli, tmp_path, "--filename=/dev/null", *args)
    assert p.returncode == 2
    assert "/dev/null: not a block device" in p.stderr, p.stderr
    assert not (tmp_path / "out").exists()


def test_grid_existing_grid_refused(cli, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "latency-grid.json").write_text("{}")
    p = grid(cli, tmp_path, "--filename=/dev/null", "--mix=100")
    one_error_line(p, "already holds")
    assert sorted(x.name for x in out.iterdir()) == ["latency-grid.json"]


def test_grid_usage(cli):
    p = usage_lists(cli, "latency-grid", (
        "--filename", "--bs", "--mix", "--percentiles", "--ramp_time", "--runtime",
        "--allow_write", "--force", "--output-dir", "--output-format", "--no-report",
        "512,4k,8k", "100,65,0", "S3700"))
    assert run(cli, "help", "latency-grid").stdout == p.stdout
