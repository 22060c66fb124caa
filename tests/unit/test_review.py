# SPDX-License-Identifier: GPL-2.0
"""ssdload review on the host: plan files, their refusals with FILE:LINE,
--set, --scale=quick, --dry-run and --list.

No device is probed here (the host has none to spare): --dry-run on a
device that does not exist still prints every step and its command line,
then exits 2 having written nothing.  A plan's run end to end is
tests/e2e/test_review.py's, on an emulated NVMe drive.
"""
import os
import re

import pytest

from cli import one_error_line, run

GOOD = """\
; a small plan
[plan]
name = unit
title = a unit plan
source = nowhere

[sweep:read]
rw = randread
qd-list = 1,2,4,8
runtime = 3m
chart = Figure 1

[curve]
curve = 10,50,100
chart = Figure 2

[run:fill]
rw = write
bs = 128k
chart = none

[compare]
runs = ${step.sweep:read} ${step.sweep:read}
"""

NODEV = "--filename=/nonexistent/ssdload-unit-dev"
SHIPPED = ("anandtech-p4510-sweep", "storagereview-p5316-vdbench", "tssdr-p3520-pts",
           "tssdr-s3700-qd1-latency")


def plan(tmp_path, text, name="p.ini"):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return str(f)


def dry(cli, tmp_path, path, *args):
    return run(cli, "review", path, NODEV, "--dry-run", *args, cwd=str(tmp_path))


def steps(out):
    """{section: command line} of --dry-run's output"""
    got, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^\s*\d+\. \[([^\]]+)\]", line)
        if m:
            cur = m.group(1)
        elif cur and line.strip().startswith("ssdload "):
            got[cur] = line.strip()
    return got


def test_dry_run_prints_each_step_and_writes_nothing(cli, tmp_path):
    p = dry(cli, tmp_path, plan(tmp_path, GOOD))
    assert p.returncode == 2, p.stderr      # the device cannot be probed
    s = steps(p.stdout)
    assert list(s) == ["sweep:read", "curve", "run:fill", "compare"], p.stdout
    assert "--qd-list=1,2,4,8" in s["sweep:read"] and "--runtime=3m" in s["sweep:read"]
    assert s["sweep:read"].startswith("ssdload sweep --filename=/nonexistent/")
    assert "--output-dir=review-DATE/01-sweep-read" in s["sweep:read"]
    assert "--output=review-DATE/03-run-fill/run.json" in s["run:fill"]
    assert s["compare"].endswith("review-DATE/01-sweep-read review-DATE/01-sweep-read")
    assert "chart: Figure 2" in p.stdout
    assert "destroys DEV's data in the span written" in p.stdout     # the write run
    assert "about 16m:00s" in p.stdout      # 4 points x (1m ramp + 3m)
    assert "nothing was written" in p.stdout
    assert sorted(os.listdir(tmp_path)) == ["p.ini"]


def test_set_overrides_a_key_and_quick_shrinks(cli, tmp_path):
    path = plan(tmp_path, GOOD)
    s = steps(dry(cli, tmp_path, path, "--set", "curve.curve=20,40", "--scale=quick").stdout)
    assert "--curve=20,40" in s["curve"]            # --set wins over quick
    assert "--runtime=1s" in s["curve"] and "--ramp_time=0" in s["curve"]
    assert "--qd-list=1,8" in s["sweep:read"]       # first and last
    assert "--runtime=1s" in s["sweep:read"] and "--runtime=3m" not in s["sweep:read"]
    s = steps(dry(cli, tmp_path, path, "--set=sweep:read.runtime=10s", "-o", "out").stdout)
    assert "--runtime=10s" in s["sweep:read"]
    assert "--output-dir=out/01-sweep-read" in s["sweep:read"]


@pytest.mark.parametrize("text,line,needles", [
    (GOOD.replace("runtime = 3m", "bogus = 3"), 10, ("[sweep:read] bogus=", "not an option of sweep")),
    (GOOD.replace("[curve]", "[frobnicate]"), 13, ("[frobnicate]", "not a step kind")),
    (GOOD.replace("runtime = 3m", "runtime = soon"), 10, ("runtime=soon", "not a valid value")),
    (GOOD.replace("[run:fill]", "[sweep:read]"), 17, ("[sweep:read] again", "line 7")),
    (GOOD + "[compare:x]\n", 24, ("[compare:x] needs runs=",)),
    (GOOD.replace("[plan]", "[planx]"), 2, ("[planx]", "not a step kind")),
    ("[sweep]\nrw=read\n", 1, ("no [plan] section",)),
    ("[plan]\nname=x\n", 2, ("no step",)),
])
def test_bad_plans_are_refused_with_file_and_line(cli, tmp_path, text, line, needles):
    path = plan(tmp_path, text)
    p = dry(cli, tmp_path, path)
    assert p.returncode == 2
    err = one_error_line(p, *needles)
    assert "%s:%d: " % (path, line) in err, err
    assert p.stdout == ""
    assert sorted(os.listdir(tmp_path)) == ["p.ini"]


@pytest.mark.parametrize("spec,needles", [
    ("curve.bogus=10,20", ("--set curve.bogus=10,20: [curve] (", "p.ini:13) has no bogus=",
                           "ssdload curve takes no --bogus")),
    ("sweep:read.chartx=1", ("[sweep:read] (", "p.ini:7)", "takes no --chartx")),
    ("scale.runtime=1s", ("scale.runtime=1s", "no such step")),
    ("curve", ("not STEP.KEY=VALUE",)),
    ("sweep:read.runtime=never", ("--set sweep:read.runtime", "not a valid value")),
])
def test_bad_overrides_are_refused(cli, tmp_path, spec, needles):
    p = dry(cli, tmp_path, plan(tmp_path, GOOD), "--set", spec)
    assert p.returncode == 2
    one_error_line(p, *needles)
    assert p.stdout == ""


def test_set_adds_a_key_the_command_takes(cli, tmp_path):
    """--set adds a key the plan does not set when the step's command takes
    it; the override is still checked as the plan's own keys are."""
    path = plan(tmp_path, GOOD)
    p = dry(cli, tmp_path, path, "--set", "curve.max-iops=5000", "--set",
            "sweep:read.ramp_time=5s")
    s = steps(p.stdout)
    assert "--max-iops=5000" in s["curve"], p.stdout
    assert "--ramp_time=5s" in s["sweep:read"] and "--runtime=3m" in s["sweep:read"]
    p = dry(cli, tmp_path, path, "--set", "sweep:read.ramp_time=later")
    assert p.returncode == 2
    one_error_line(p, "--set sweep:read.ramp_time", "not a valid value")


SCALE = GOOD + """
[scale:raid]
devices = ${filename}
raid = 0
needs-devices = 2
chart = Figure 3
"""


def test_a_step_needing_drives_is_skipped_with_the_reason(cli, tmp_path):
    path = plan(tmp_path, SCALE)
    p = dry(cli, tmp_path, path)
    assert "scale:raid" not in steps(p.stdout), p.stdout
    assert re.search(r"\[scale:raid\] chart: Figure 3\n    skipped: needs 2 drives "
                     r"\(needs-devices=2\), given 1: give them with --set "
                     r"scale:raid\.devices=DEV,DEV", p.stdout), p.stdout
    p = dry(cli, tmp_path, path, "--set", "scale:raid.devices=/dev/a,/dev/b")
    s = steps(p.stdout)
    assert "--devices=/dev/a,/dev/b" in s["scale:raid"] and "--raid=0" in s["scale:raid"]
    assert "needs-devices" not in s["scale:raid"]
    p = dry(cli, tmp_path, plan(tmp_path, SCALE.replace("devices = 2", "devices = 1")))
    assert p.returncode == 2
    one_error_line(p, "needs-devices=1", "from 2 to 16")
    p = dry(cli, tmp_path, plan(tmp_path, GOOD.replace("qd-list = 1,2,4,8",
                                                       "needs-devices = 2")))
    one_error_line(p, "p.ini:9: [sweep:read] needs-devices=", "takes --devices")


def test_quick_limits_a_steps_preconditioning(cli, tmp_path):
    """--scale=quick preconditions 64 MiB, not the whole drive: a step's
    --precondition gets --precondition-span=64m, unless --set says."""
    text = GOOD.replace("qd-list = 1,2,4,8", "qd-list = 1,2,4,8\nprecondition = random:2")
    text = text.replace("[curve]", "[precondition]\nprecondition = fill\n\n[curve]")
    path = plan(tmp_path, text)
    s = steps(dry(cli, tmp_path, path, "--scale=quick").stdout)
    assert "--precondition=random:2" in s["sweep:read"]
    assert "--precondition-span=64m" in s["sweep:read"]
    assert "--precondition-span" not in s["curve"]
    pre = s["precondition"]
    assert "--precondition-span=64m" in pre or "--size=64m" in pre, pre
    s = steps(dry(cli, tmp_path, path, "--scale=quick", "--set",
                  "sweep:read.precondition-span=1g").stdout)
    assert "--precondition-span=1g" in s["sweep:read"]
    assert steps(dry(cli, tmp_path, path).stdout)["sweep:read"].count("precondition-span") == 0


def test_a_continued_value_and_a_flag(cli, tmp_path):
    text = GOOD.replace("chart = Figure 2", "chart = Figure 2,\n    continued")
    text = text.replace("bs = 128k", "bs = 128k\ntime_based =")
    p = dry(cli, tmp_path, plan(tmp_path, text))
    assert "chart: Figure 2, continued" in p.stdout, p.stdout
    assert "--time_based " in steps(p.stdout)["run:fill"] + " "


def test_precondition_runs_as_a_run_while_there_is_no_command(cli, tmp_path):
    text = GOOD.replace("[curve]", "[precondition]\nprecondition = random:2\n\n[curve]")
    s = steps(dry(cli, tmp_path, plan(tmp_path, text)).stdout)
    pre = s["precondition"]
    assert pre.startswith("ssdload run ") or pre.startswith("ssdload precondition ")
    if pre.startswith("ssdload run "):
        assert "--rw=randwrite" in pre and "--loops=2" in pre
    bad = text.replace("random:2", "random:lots")
    p = dry(cli, tmp_path, plan(tmp_path, bad))
    if pre.startswith("ssdload run "):
        one_error_line(p, "precondition=random:lots", "not a valid value")


def test_resume_needs_a_review_directory(cli, tmp_path):
    p = run(cli, "review", "--resume=%s" % tmp_path, NODEV)
    assert p.returncode == 2
    one_error_line(p, "--resume=", "not the plan.json of a review")


def test_list_shows_the_shipped_plans_with_both_lengths(cli):
    p = run(cli, "review", "--list")
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    for name in SHIPPED:
        line = [l for l in p.stdout.splitlines() if l.startswith(name + " ")]
        assert line, "%s is not listed:\n%s" % (name, p.stdout)
        assert re.search(r"full \S+ +quick \S+", line[0]), line[0]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_plans_say_their_article_and_charts(cli, repo, tmp_path, name):
    text = open(os.path.join(repo, "userspace", "plans", name + ".ini"), encoding="utf-8").read()
    for key in ("name", "title", "source", "date", "measured", "ours"):
        assert re.search(r"(?m)^%s\s*=" % key, text), "%s: no %s=" % (name, key)
    p = dry(cli, tmp_path, name, "--scale=quick", "--allow_write")
    s = steps(p.stdout)
    assert s, p.stdout + p.stderr
    n = len(re.findall(r"(?m)^\s*\d+\. \[", p.stdout))
    assert len(re.findall(r"(?m)^\s*\d+\. \[[^\]]+\] chart: ", p.stdout)) == n, p.stdout
    assert n == len(re.findall(r"(?m)^\[(?!plan\])", text))


def test_quick_pts_points_are_short(cli, tmp_path):
    """At quick a pts step's points take 200 ms (the rounds the plan sets
    cut to 5): the P3520 plan's IOPS test, 56 points a round, ends in about
    a minute on the emulated NVMe of tests/e2e/test_review_plans.py."""
    s = steps(dry(cli, tmp_path, "tssdr-p3520-pts", "--scale=quick", "--allow_write").stdout)
    for section in ("pts:iops", "pts:latency"):
        assert "--point-time=200ms" in s[section], s[section]
    assert "--rounds=5" in s["pts:iops"] and "--rounds=" not in s["pts:latency"]
    s = steps(dry(cli, tmp_path, "tssdr-p3520-pts", "--allow_write").stdout)
    assert "--point-time" not in s["pts:iops"] and "--rounds=25" in s["pts:iops"]
