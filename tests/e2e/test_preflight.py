# SPDX-License-Identifier: GPL-2.0
"""preflight: `ssdload run --parse-only` refuses a job iff the module does.

--parse-only is the pre-flight of scale (before mdadm builds an array),
sweep, curve and job files.  For each job below, --parse-only and the real
run (which writes the job to configfs and enables it) must agree: both
refuse it, or both take it.  The jobs are values the module refuses at
its stores or at enable, by the options alone on a 512-byte null_blk, and
by the logical block size and capacity on a 4 KiB null_blk, next to
values it takes.  tests/unit/test_cli_preflight.py checks the messages.

`ssdload scale --raid` with such a job is refused before mdadm builds an
array (on qemu's four scale NVMe drives, as tests/e2e/test_scale.py).

Marked stock (one stock kernel, conftest.py): the module's refusals at its
stores and at enable run under KASAN and lockdep in test_badinput.py,
test_offsets.py and test_workload_io.py; what this file adds is the CLI's
agreement with them, the same code on every kernel.
"""
import os
import re
import shutil
import subprocess

import pytest

import ssdload_env as env

pytestmark = pytest.mark.stock

# the module's SSDLOAD_MAX_MS + 1: runtime and ramp_time beyond its limit
OVER_MS = "%dms" % (env.uapi_define("SSDLOAD_MAX_MS") + 1)


def _offline_cpu():
    return max(env.online_cpus()) + 1


# (args, refused): on a 512-byte null_blk of 1 GiB
OPTION_JOBS = [
    (["--bs=511"], True),
    (["--bs=4g"], True),
    (["--offset=1"], True),
    (["--cpus_allowed=1-0"], True),
    (["--bs=1000"], True),
    (["--size=1000"], True),
    (["--bs=4k", "--blockalign=8k"], True),
    (["--rate_iops=,100"], True),
    (["--bssplit=1m/100,,512/100"], True),
    (["--ramp_time=" + OVER_MS], True),
    (["--step=bs=511", "--step=bs=4k"], True),
    (["--step=bs=4k", "--step=rate_iops=,5"], True),
    (["--bs=512"], False),
    (["--bs=16m", "--size=64m"], False),
    (["--offset=512", "--size=1m"], False),
    (["--bs=8k", "--blockalign=4k"], False),
    (["--cpus_allowed=0"], False),
    (["--rw=randrw", "--allow_write", "--rate_iops=,1000"], False),
    (["--bssplit=4k/50:8k/50"], False),
    (["--step=bs=8k", "--step=rate_iops=0"], False),
]

# (args, refused): on a 4 KiB null_blk of 64 MiB
DEVICE_JOBS = [
    (["--bs=512"], True),
    (["--bs=4k", "--offset=512"], True),
    (["--bs=4k", "--size=1m", "--offset=4k", "--blockalign=512"], True),
    (["--bsrange=512-8k"], True),
    (["--bs=4k", "--offset=64m"], True),
    (["--bs=4k", "--offset=60m", "--size=8m"], True),
    (["--bs=8k", "--size=4k"], True),
    (["--bs=4k", "--size=1025536"], True),
    (["--step=bs=4k", "--step=bs=512"], True),
    (["--bs=4k"], False),
    (["--bs=4k", "--offset=4k", "--size=1m"], False),
    (["--bs=4k", "--offset=50%", "--size=25%"], False),
    (["--bsrange=4k-16k"], False),
]


def _agree(dev, args, refused, tag):
    base = ["run", "--filename=" + dev.path, "--eta=never", "--runtime=100ms",
            "--time_based"]
    if not any(a.startswith("--rw=") for a in args):
        base.append("--rw=randread")
    po = env.cli(*(base + args + ["--parse-only"]))
    real = env.cli(*(base + args + ["--name=e2e-preflight-" + tag]))
    assert (po.returncode != 0) == refused, (args, po.stderr)
    assert (real.returncode != 0) == refused, (args, real.stderr)
    if refused:
        assert po.stderr.startswith("ssdload: "), po.stderr
        assert po.stdout == "", po.stdout


@pytest.mark.parametrize("args,refused", OPTION_JOBS,
                         ids=[" ".join(a) for a, _ in OPTION_JOBS])
def test_parse_only_agrees_with_the_module(ssdload, nullb, args, refused):
    _agree(nullb, args, refused, "opt")


def test_offline_cpu(ssdload, nullb):
    _agree(nullb, ["--cpus_allowed=0-%d" % _offline_cpu()], True, "cpu")


@pytest.mark.parametrize("args,refused", DEVICE_JOBS,
                         ids=[" ".join(a) for a, _ in DEVICE_JOBS])
def test_parse_only_reads_the_device(ssdload, nullb_cfg, args, refused):
    """The logical block size and the capacity of the device, as enable
    checks them, when --filename is a block device the CLI can open."""
    dev = nullb_cfg("e2epf4k", size=64, blocksize=4096)
    assert dev.logical_block_size() == 4096
    _agree(dev, args, refused, "dev")


@pytest.mark.parametrize("bad", [["--bs=511"], ["--offset=1"], ["--cpus_allowed=1-0"],
                                 ["--bs=4g"]], ids=lambda a: " ".join(a))
def test_scale_raid_builds_no_array_for_a_refused_job(ssdload, cli, tmp_path, kmsg, bad):
    """Every run of scale is pre-flighted with --parse-only before any array
    is built: a job the module would refuse leaves /proc/mdstat as it was."""
    devs = [os.environ.get("SSDLOAD_NVME_SCALE%d" % i) for i in range(4)]
    if not all(devs):
        pytest.skip("SSDLOAD_NVME_SCALE0..3 are not all set (the scale NVMe drives "
                    "are not attached)")
    if not shutil.which("mdadm"):
        pytest.skip("mdadm is not installed (Debian: mdadm)")
    r = subprocess.run(["modprobe", "raid0"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode:
        pytest.skip("modprobe raid0 failed: %s" % r.stdout.strip())
    before = env.read("/proc/mdstat")
    mark = kmsg.mark()
    p = env.cli("scale", "--output-dir=%s" % (tmp_path / "sc"), "--eta=never",
                "--no-report", "--devices=" + ",".join(devs[:2]), "--raid=0",
                "--allow_write", "--rw=randread", "--qd-list=1", "--ramp_time=0",
                "--runtime=200ms", *bad, timeout=300)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "refused the job" in p.stderr, p.stderr
    assert env.read("/proc/mdstat") == before
    assert not [b for b in os.listdir("/sys/block") if b.startswith("md")]
    # md logs every array it assembles (md/raid0:mdN, mdN: detected capacity)
    made = [l for l in kmsg.since(mark) if re.search(r"\bmd\d+\b|md/raid", l)]
    assert not made, made
