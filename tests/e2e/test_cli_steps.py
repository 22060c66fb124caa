# SPDX-License-Identifier: GPL-2.0
"""cli: steps through `ssdload run` (--step, --steps, --loops).

- a queue-depth sweep (1, 4, 16) by --step on null_blk: the JSON's steps
  array has one entry per step, each with its iodepth in params and I/O of
  its own, and the steps add up to the job's totals;
- the same plan from a --steps FILE (comments, blank lines, an idle step);
- --loops=2 doubles each count-limited step's I/Os;
- the text report ends with the per-step table;
- every run leaves no job (and no steps/N) behind.

Kernels: one stock kernel (marked stock, conftest.py): the CLI's view of
results whose module paths test_steps.py, test_rate.py and test_latency.py
run on every kernel.
"""

import re

import pytest

import ssdload_env as env

pytestmark = pytest.mark.stock


def _need_steps():
    if "loops" not in env.features():
        pytest.skip("this ssdload has no steps")


def _args(dev, name, *more):
    return ["run", "--name=" + name, "--filename=" + dev.path, "--rw=randread", "--bs=4k",
            "--numjobs=1"] + list(more)


def _check_sum(job, steps):
    """The steps add up to the job's totals."""
    for d in ("read", "write", "trim"):
        assert sum(s[d]["total_ios"] for s in steps) == job[d]["total_ios"], d
        assert sum(s[d]["io_bytes"] for s in steps) == job[d]["io_bytes"], d


@pytest.mark.quick
@pytest.mark.timing
def test_cli_qd_sweep_json(ssdload, null_blk, cli):  # pylint: disable=unused-argument
    _need_steps()
    dev = null_blk()[0]
    out = env.cli_json(*_args(dev, "e2e-steps-sweep", "--step=iodepth=1,runtime=1",
                              "--step=iodepth=4,runtime=1", "--step=iodepth=16,runtime=1"))
    job = out["jobs"][0]
    st = job["steps"]
    assert [s["step"] for s in st] == [1, 2, 3]
    assert [s["params"]["iodepth"] for s in st] == [1, 4, 16]
    for s in st:
        assert s["params"]["rw"] == "randread" and s["params"]["bs_min"] == 4096
        assert s["params"]["runtime_ms"] == 1000 and s["idle_ms"] == 0
        rd = s["read"]
        assert rd["total_ios"] > 0 and rd["io_bytes"] == 4096 * rd["total_ios"]
        assert rd["clat_ns"]["N"] == rd["total_ios"] and "percentile" in rd["clat_ns"]
        assert 0.5e9 <= s["runtime_ns"] <= 2e9, s["runtime_ns"]
        assert s["write"]["total_ios"] == 0
    assert st[0]["gap_ns"]["count"] == 0
    _check_sum(job, st)
    assert env.list_jobs() == []


@pytest.mark.quick
def test_cli_steps_file_and_text(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    _need_steps()
    dev = null_blk()[0]
    plan = tmp_path / "plan.txt"
    plan.write_text("# a small plan\n"
                    "iodepth=1 number_ios=2000\n"
                    "\n"
                    "idle=200ms   # nothing\n"
                    "iodepth=8, bs=8k, number_ios=3000\n")
    p = env.cli(*_args(dev, "e2e-steps-file", "--steps=%s" % plan, "--eta=never"), check=True)
    m = re.search(r"^Steps: 3, loops=1, workers=1$", p.stdout, re.M)
    assert m, p.stdout
    rows = p.stdout[m.end():].strip().splitlines()[1:]
    assert re.match(r"^\s+1  randread bs=4k iodepth=1\s", rows[0]), rows
    assert re.match(r"^\s+2  idle 200ms\s", rows[1]), rows
    assert re.match(r"^\s+3  randread bs=8k iodepth=8\s", rows[2]), rows
    assert env.list_jobs() == []
    st = env.cli_json(*_args(dev, "e2e-steps-file-json", "--steps=%s" % plan))["jobs"][0]["steps"]
    assert [s["read"]["total_ios"] for s in st] == [2000, 0, 3000]
    assert st[1]["idle_ms"] == 200 and st[1]["read"]["io_bytes"] == 0
    assert st[2]["read"]["io_bytes"] == 3000 * 8192
    assert env.list_jobs() == []


@pytest.mark.quick
def test_cli_loops_double(ssdload, null_blk, cli):  # pylint: disable=unused-argument
    _need_steps()
    dev = null_blk()[0]
    steps = ["--step=iodepth=2,number_ios=1500", "--step=iodepth=4,number_ios=2500"]
    one = env.cli_json(*_args(dev, "e2e-steps-loop1", *steps))["jobs"][0]
    two = env.cli_json(*_args(dev, "e2e-steps-loop2", "--loops=2", *steps))["jobs"][0]
    assert [s["read"]["total_ios"] for s in one["steps"]] == [1500, 2500]
    assert [s["read"]["total_ios"] for s in two["steps"]] == [3000, 5000]
    assert [s["loops_done"] for s in two["steps"]] == [2, 2]
    _check_sum(two, two["steps"])
    # the second loop's first step follows the first loop's last: a gap
    assert two["steps"][0]["gap_ns"]["count"] >= 1
    assert env.list_jobs() == []


def test_cli_steps_refused_leaves_nothing(ssdload, null_blk, cli):  # pylint: disable=unused-argument
    """A step the module refuses (iodepth 0) at write time: the message
    names steps/N, and neither the steps nor the job stay."""
    _need_steps()
    dev = null_blk()[0]
    p = env.cli(*_args(dev, "e2e-steps-bad", "--runtime=1", "--step=iodepth=2",
                       "--step=iodepth=0"))
    assert p.returncode == 1, p.stdout
    assert "steps/2/iodepth=0" in p.stderr or "step" in p.stderr, p.stderr
    assert env.list_jobs() == []
