# SPDX-License-Identifier: GPL-2.0
"""ssdload review: a small plan end to end on null_blk, --dry-run, --resume.

The plan fills the device (the [precondition] step: `ssdload
precondition --precondition=fill`, one sequential pass), sweeps two
depths and runs a QD1 read, at --scale=quick (the fill cut to the first
64 MiB, the sweep to its first and last depth of 1 s each).  The results
directory must hold each step's results and plan.json recording them
done with their command lines; the fill must have written its 64 MiB
span once (diskstats), as its record says.
The review runs with --no-report: under TCG the renderer takes minutes
(matplotlib), and the report of a review directory is tested on the host
(tests/unit/test_review_report.py).  A --dry-run of the same plan writes
nothing (diskstats) and creates no directory; --resume of the finished
review on another device is refused, and on the same one runs nothing.
A review killed (SIGKILL, as a crash) in its sweep and resumed ends with
the steps of the uninterrupted run: the same sections, directories,
command lines and results, the killed step's partial results set aside,
and the fill not run again (no write).

Kernels: 6.12 (the review is CLI code over commands tested on every
kernel).
"""

import json
import os
import signal
import subprocess
import time

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
    assert dev.size_bytes() > 64 << 20, dev.size_bytes()
    assert d["write_bytes"] == 64 << 20, d  # the fill at quick: one pass of its span
    pc = json.loads((out / "01-precondition" / "precondition.json").read_text())["precondition"]
    assert pc["mode"] == "fill" and pc["bytes_written"] == 64 << 20, pc
    assert (pc["devices"][0]["span_bytes"], pc["devices"][0]["whole_device"]) == \
        (64 << 20, False), pc["devices"]
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

    _killed_and_resumed(cli, plan, dev, out, tmp_path / "rv-killed")


def _steps(out):
    """A review's steps as a run that ended makes them: section, directory,
    state, exit status and the command line (its output directory as OUT)."""
    doc = json.loads((out / "plan.json").read_text())
    return [(s["section"], s["dir"], s["state"], s["status"],
             s["argv"].replace(str(out), "OUT")) for s in doc["steps"]]


def _stop_left_jobs():
    """The jobs a killed CLI left: stopped by the kernel once its lease
    closed (test_cli.py::test_kill9_lease_stops_the_job); removed here.
    Their names."""
    left = env.list_jobs()
    for name in left:
        job = env.Job.existing(name)
        job.wait(30, states=("idle", "done", "stopped", "error"))
        job.remove()
    return left


def _killed_and_resumed(cli, plan, dev, ref, out):
    """The review of @plan on @dev, SIGKILLed in its sweep (step 2) and
    resumed, against @ref: the same plan run uninterrupted."""
    proc = subprocess.Popen([cli, "review", plan, "--filename=" + dev.path, "--allow_write",
                             "--scale=quick", "--no-report", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, proc.communicate()
            try:
                sweep = json.loads((out / "plan.json").read_text())["steps"][1]
                if sweep["state"] == "running" and (out / sweep["dir"]).is_dir():
                    break
            except (OSError, ValueError, KeyError, IndexError):
                pass
            assert time.monotonic() < deadline, "the sweep did not start in 120 s"
            time.sleep(0.05)
        time.sleep(0.5)     # into the sweep's first depth
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    _stop_left_jobs()
    cut = json.loads((out / "plan.json").read_text())
    assert [s["state"] for s in cut["steps"]] == ["done", "running", "pending"], cut["steps"]

    before = dev.stat()
    p = env.cli("review", "--resume=%s" % out, "--allow_write", "--no-report", timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "step 1/3 [precondition] is done already" in p.stderr, p.stderr
    assert "sweep was interrupted" in p.stderr, p.stderr
    assert (out / "02-sweep.partial").is_dir()
    assert env.stat_delta(before, dev.stat())["write_ios"] == 0     # no second fill
    doc = json.loads((out / "plan.json").read_text())
    assert doc["state"] == "done" and len(doc["resumed"]) == 1
    assert _steps(out) == _steps(ref)
    for rel in ("01-precondition/precondition.json", "02-sweep/sweep.json",
                "03-run-qd1/run.json"):
        assert (out / rel).is_file(), rel
    sweep = json.loads((out / "02-sweep" / "sweep.json").read_text())
    assert [q["qd"] for q in sweep["points"]] == [1, 4]


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
