# SPDX-License-Identifier: GPL-2.0
"""ssdload review: a small plan end to end on null_blk, --dry-run, --resume.

The plan fills the device (the [precondition] step: `ssdload
precondition --precondition=fill`, one sequential pass), sweeps two
depths and runs a QD1 read, at --scale=quick (the sweep cut to its first
and last depth of 1 s each).  The results directory must hold each
step's results and plan.json recording them done with their command
lines; the fill must have written the whole device once (diskstats).
The review runs with --no-report: under TCG the renderer takes minutes
(matplotlib), and the report of a review directory is tested on the host
(tests/unit/test_review_report.py).  A --dry-run of the same plan writes
nothing (diskstats) and creates no directory; --resume of the finished
review on another device is refused, and on the same one runs nothing.

Kernels: 6.12 (the review is CLI code over commands tested on every
kernel).
"""

import json
import os

import pytest

import ssdload_env as env

REVIEW_KERNELS = os.environ.get("SSDLOAD_REVIEW_KERNELS", "6.12").split()

PLAN = """\
[plan]
name = e2e
title = the e2e review
source = tests/e2e/test_review.py
measured = a fill, two depths, a QD1 read

[precondition]
precondition = fill
chart = none

[sweep]
rw = randread
qd-list = 1,2,4
chart = Figure 1

[run:qd1]
rw = randread
iodepth = 1
runtime = 1m
time_based = 1
chart = Figure 2
"""


@pytest.fixture(autouse=True)
def _review_kernel():
    if env.kernel_label() not in REVIEW_KERNELS:
        pytest.skip("review runs on kernel %s only (SSDLOAD_REVIEW_KERNELS): its steps "
                    "are tested on every kernel by their own tests" % " ".join(REVIEW_KERNELS))


@pytest.fixture
def plan(tmp_path):
    f = tmp_path / "e2e.ini"
    f.write_text(PLAN, encoding="utf-8")
    return str(f)


def test_review_runs_a_plan_end_to_end(ssdload, cli, null_blk, plan, tmp_path):  # pylint: disable=unused-argument
    dev, other = null_blk(nr_devices=2)
    out = tmp_path / "rv"
    before = dev.stat()
    p = env.cli("review", plan, "--filename=" + dev.path, "--allow_write", "--scale=quick",
                "--no-report", "-o", str(out), timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "step 1/3 [precondition]" in p.stderr and "plan ETA" in p.stderr, p.stderr
    d = env.stat_delta(before, dev.stat())
    assert d["write_bytes"] == dev.size_bytes(), d  # the fill: one pass
    assert (out / "01-precondition" / "precondition.json").is_file()
    doc = json.loads((out / "plan.json").read_text())
    assert doc["format"] == "ssdload-review" and doc["state"] == "done"
    assert doc["plan"]["scale"] == "quick" and doc["plan"]["text"] == PLAN
    assert doc["device"]["path"] == dev.path
    assert doc["device"]["capacity_bytes"] == dev.size_bytes()
    steps = doc["steps"]
    assert [s["dir"] for s in steps] == ["01-precondition", "02-sweep", "03-run-qd1"]
    assert all(s["state"] == "done" and s["status"] == 0 for s in steps), steps
    assert "--qd-list=1,4" in steps[1]["argv"] and "--runtime=1s" in steps[1]["argv"]
    sweep = json.loads((out / "02-sweep" / "sweep.json").read_text())
    assert [q["qd"] for q in sweep["points"]] == [1, 4]
    run = json.loads((out / "03-run-qd1" / "run.json").read_text())
    assert run["jobs"][0]["read"]["total_ios"] > 0
    assert "--no-report" in steps[1]["argv"]        # the review renders them all
    assert not (out / "report.html").exists() and not (out / "02-sweep" / "report.html").exists()

    # --resume: refused on another device; on this one nothing is left to run
    p = env.cli("review", "--resume=%s" % out, "--filename=" + other.path, "--allow_write",
                "--no-report")
    assert p.returncode == 2, p.stdout + p.stderr
    assert "is not the device the test started on" in p.stderr, p.stderr
    before = dev.stat()
    p = env.cli("review", "--resume=%s" % out, "--allow_write", "--no-report")
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stderr.count("is done already") == 3, p.stderr
    assert env.stat_delta(before, dev.stat())["write_ios"] == 0
    assert len(json.loads((out / "plan.json").read_text())["resumed"]) == 1


def test_review_dry_run_writes_nothing(ssdload, cli, nullb, plan, tmp_path):  # pylint: disable=unused-argument
    out = tmp_path / "rv"
    before = nullb.stat()
    p = env.cli("review", plan, "--filename=" + nullb.path, "--allow_write", "--dry-run",
                "-o", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "would destroy %s" % nullb.path in p.stderr, p.stderr
    assert "[precondition] chart: none" in p.stdout and "destroys all of DEV's data" in p.stdout
    assert "ssdload sweep --filename=%s --rw=randread --qd-list=1,2,4" % nullb.path in p.stdout
    assert "nothing was written" in p.stdout
    d = env.stat_delta(before, nullb.stat())
    assert d["write_ios"] == 0 and d["write_sectors"] == 0, d
    assert not out.exists()
