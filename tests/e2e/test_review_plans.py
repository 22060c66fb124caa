# SPDX-License-Identifier: GPL-2.0
"""ssdload review: each shipped plan end to end at --scale=quick.

The four plans of userspace/plans/ (`ssdload review --list`, one per seed
review) run by name, as a user runs them, on qemu's emulated NVMe of the
PTS tests ($SSDLOAD_NVME_PTS: 256 MiB, serial ssdload-pts, which a plan
may purge, fill and write), at --scale=quick: each step shrunk to seconds
(Documentation/review.rst).  Each must end with exit 0, its results
directory and its plan.json: the plan's steps, every one done, in the
plan's order (each started after the previous one finished), each with
its own results in its NN-STEP directory (the command's JSON document).

The review runs with --no-report: under TCG the renderer took ~2 min per
step.  The report of a review directory, with each step's own report, is
rendered and loaded in headless Chromium on the host
(tests/unit/test_report_browser.py::test_review_report_loads_cleanly).
--dry-run, --resume of a finished review and --resume after a kill are
tested on null_blk in test_review.py; --list and every plan's --dry-run on
the host (tests/unit/test_review.py).

Kernels: 6.12 ($SSDLOAD_REVIEW_KERNELS), as test_review.py: the review is
CLI code over commands that their own tests run on every kernel.
"""

import configparser
import json
import os
import re

import pytest

import ssdload_env as env

REVIEW_KERNELS = os.environ.get("SSDLOAD_REVIEW_KERNELS", "6.12").split()
PLAN_DIR = os.path.join(env.REPO, "userspace", "plans")
PLANS = sorted(f[:-4] for f in os.listdir(PLAN_DIR) if f.endswith(".ini"))

# the document each step kind leaves in its directory (None: purge, which
# prints what it did and keeps no file)
RESULT = {"purge": None, "precondition": "precondition.json", "sweep": "sweep.json",
          "curve": "curve.json", "scale": "scale.json", "run": "run.json",
          "latency-grid": "latency-grid.json", "pts": "pts.json", "compare": "compare.json"}


@pytest.fixture(autouse=True)
def _review_kernel():
    if env.kernel_label() not in REVIEW_KERNELS:
        pytest.skip("review runs on kernel %s only (SSDLOAD_REVIEW_KERNELS): its steps "
                    "are tested on every kernel by their own tests" % " ".join(REVIEW_KERNELS))


@pytest.fixture(autouse=True)
def _shipped_plans(monkeypatch):
    """The CLI finds the shipped plans by name in the tree ($SSDLOAD_PLANS)."""
    monkeypatch.setenv("SSDLOAD_PLANS", PLAN_DIR)


def _sections(name):
    """The plan's step sections, in the file's order."""
    cp = configparser.ConfigParser(interpolation=None, comment_prefixes=(";", "#"))
    cp.read(os.path.join(PLAN_DIR, name + ".ini"), encoding="utf-8")
    return [s for s in cp.sections() if s != "plan"]


def _needs_devices(name):
    """The sections of plan @name that need more than one device."""
    cp = configparser.ConfigParser(interpolation=None, comment_prefixes=(";", "#"))
    cp.read(os.path.join(PLAN_DIR, name + ".ini"), encoding="utf-8")
    return {s for s in cp.sections() if int(cp[s].get("needs-devices", "1")) > 1}


@pytest.mark.parametrize("name", PLANS)
def test_shipped_plan_at_quick_scale(ssdload, pts_nvme, cli, tmp_path, name):  # pylint: disable=unused-argument
    out = tmp_path / "rv"
    sections = _sections(name)
    assert len(PLANS) == 4 and sections, (PLANS, sections)
    p = env.cli("review", name, "--filename=" + pts_nvme.path, "--allow_write",
                "--scale=quick", "--no-report", "-o", str(out), timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads((out / "plan.json").read_text())
    assert doc["format"] == "ssdload-review" and doc["state"] == "done", doc["state"]
    assert doc["plan"]["scale"] == "quick" and doc["plan"]["meta"]["name"] == name
    assert doc["device"]["path"] == pts_nvme.path
    assert doc["device"]["capacity_bytes"] == pts_nvme.size_bytes()
    steps = doc["steps"]
    assert [s["section"] for s in steps] == sections
    n = len(steps)
    multi = _needs_devices(name)
    ran = [s for s in steps if s["section"] not in multi]
    for i, s in enumerate(steps):
        if s["section"] in multi:
            # one drive given: a RAID step says why it is skipped, and runs nothing
            assert "step %d/%d [%s] skipped" % (i + 1, n, s["section"]) in p.stderr, p.stderr
            assert s["state"] == "skipped" and "devices" in s["skip_reason"], s
            assert s["started"] is None and not (out / s["dir"]).exists(), s
            continue
        assert "step %d/%d [%s]" % (i + 1, n, s["section"]) in p.stderr, p.stderr
        assert s["state"] == "done", s
        assert s["dir"].startswith("%02d-" % (i + 1)), s["dir"]
        assert (out / s["dir"]).is_dir(), s["dir"]
        k = ran.index(s)
        if k:
            assert ran[k - 1]["finished"] <= s["started"], (ran[k - 1], s)
        want = RESULT[s["kind"]]
        if want is None:
            continue
        res = json.loads((out / s["dir"] / want).read_text())
        assert res, (s["dir"], want)
        if s["kind"] == "pts":
            assert res["state"] == "complete" and res["test"] in s["argv"], res["state"]
        elif s["kind"] == "sweep":
            # --scale=quick: the plan's depths cut to the first and the last
            assert len(res["points"]) == 2, res["points"]
    if any(s["kind"] == "purge" for s in steps):
        assert re.search(r"method: (format|sanitize)", p.stdout), p.stdout
    assert not (out / "report.html").exists()
    assert not [j for j in env.list_jobs()], env.list_jobs()
