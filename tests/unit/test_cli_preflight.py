# SPDX-License-Identifier: GPL-2.0
"""`ssdload run --parse-only` applies the module's rules (userspace/core/preflight.c).

A value the module's configfs store or its enable refuses is refused by
--parse-only, with one error line naming the option as given, so that
scale, sweep, curve and job files fail before anything runs.  The limits
are read from uapi/ssdload.h, the module's own, never copied here.  The
guest test tests/e2e/test_preflight.py checks that the module agrees.
"""
import os
import re

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run

pytestmark = NEEDS_DEV

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def uapi(name):
    """The value of a #define of uapi/ssdload.h, evaluated."""
    with open(os.path.join(REPO, "uapi", "ssdload.h")) as f:
        text = f.read()
    m = re.search(r"^#define\s+%s\s+(.+?)\s*(/\*.*)?$" % name, text, re.M)
    assert m, name
    expr = re.sub(r"(0x[0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", m.group(1))
    return int(eval(expr.replace("/", "//"), {"__builtins__": {}}))  # pylint: disable=eval-used


@pytest.fixture
def online(tmp_path):
    """A fake online CPU list of 4 CPUs (SSDLOAD_CPU_ONLINE)."""
    p = tmp_path / "online"
    p.write_text("0-3\n")
    return {"SSDLOAD_CPU_ONLINE": str(p)}


def parse(cli, env, *args):
    return run(cli, "run", f"--filename={DEV}", "--parse-only", *args, env=env)


@pytest.mark.parametrize("args,needles", [
    # the four
    (["--bs=511"], ["--bs=511", "512"]),
    (["--bs=4g"], ["--bs=4g", "4294967296"]),
    (["--offset=1"], ["--offset=1", "512"]),
    (["--cpus_allowed=1-0"], ["--cpus_allowed=1-0", "1-0"]),
    # block sizes: a multiple of 512, 512 to 16 MiB, per step too
    (["--bs=1000"], ["--bs=1000", "multiple"]),
    (["--blocksize=0"], ["--blocksize=0"]),
    (["--step=bs=511", "--runtime=1"], ["--step=bs=511", "bs=511"]),
    (["--bssplit=1m/100,,512/100"], ["--bssplit", "block size"]),
    # offset and size in bytes: multiples of 512
    (["--size=1000"], ["--size=1000", "512"]),
    (["--offset=4097"], ["--offset=4097"]),
    # cpus_allowed: ordered ranges of online CPUs
    (["--cpus_allowed=3-1,0"], ["--cpus_allowed=3-1,0", "3-1"]),
    (["--cpus_allowed=0-4"], ["--cpus_allowed=0-4", "CPU 4", "online"]),
    (["--cpus_allowed=0,9"], ["--cpus_allowed=0,9", "CPU 9"]),
    # enable's checks of the options alone
    (["--bs=4k", "--blockalign=8k"], ["--blockalign=8k", "larger than the largest block"]),
    (["--rw=randread", "--rate_iops=,100"], ["--rate_iops=,100", "caps no direction"]),
    (["--rw=randwrite", "--rate=100m,"], ["--rate=100m,", "caps no direction"]),
    (["--rw=randread", "--runtime=2", "--step=rw=read", "--step=rate_iops=,5"],
     ["--step=rate_iops=,5", "steps/2/rate_iops", "caps no direction"]),
    # a step's own blockalign: at most the step's largest block
    (["--bs=4k", "--runtime=1", "--step=bs=8k", "--step=bs=512,blockalign=4k"],
     ["steps/2/blockalign", "larger than the step's largest block 512"]),
    (["--runtime=1", "--step=blockalign=1000"], ["blockalign=1000", "512"]),
])
def test_refused(cli, online, args, needles):
    """Each of these is refused by the module; --parse-only refuses it too,
    naming the option and the value."""
    one_error_line(parse(cli, online, *args), *needles)


def test_time_limits_from_uapi(cli, online):
    """runtime, ramp_time, io_timeout_ms, log_interval_ms: the module's
    SSDLOAD_MAX_MS is taken, one more ms is refused."""
    top = uapi("SSDLOAD_MAX_MS")
    for opt, extra in (("runtime", []), ("ramp_time", ["--runtime=1"]),
                       ("io_timeout_ms", []), ("log_interval_ms", ["--runtime=1"])):
        unit = "" if opt.endswith("_ms") else "ms"
        ok = parse(cli, online, "--%s=%d%s" % (opt, top, unit), *extra)
        assert ok.returncode == 0, (opt, ok.stderr)
        bad = "--%s=%d%s" % (opt, top + 1, unit)
        one_error_line(parse(cli, online, bad, *extra), bad, str(top))


def test_bs_limits_from_uapi(cli, online):
    lo, hi = uapi("SSDLOAD_MIN_BS"), uapi("SSDLOAD_MAX_BS")
    for v in (lo, hi, 2 * lo):
        p = parse(cli, online, "--bs=%d" % v)
        assert p.returncode == 0, (v, p.stderr)
    for v in (lo - 1, hi + lo, lo + lo // 2):
        one_error_line(parse(cli, online, "--bs=%d" % v), "--bs=%d" % v)
    align = uapi("SSDLOAD_SPAN_ALIGN")
    for opt in ("offset", "size"):
        assert parse(cli, online, "--%s=%d" % (opt, 3 * align)).returncode == 0
        one_error_line(parse(cli, online, "--%s=%d" % (opt, 3 * align + 1)), "--" + opt)


@pytest.mark.parametrize("args", [
    ["--bs=512"], ["--bs=16m"], ["--bs=4k", "--blockalign=4k"],
    ["--bs=8k", "--blockalign=4k"], ["--offset=512", "--size=1g"],
    ["--offset=50%", "--size=12.5%"], ["--cpus_allowed=0-3"], ["--cpus_allowed=2,0"],
    ["--cpus_allowed=1-1,3"], ["--rw=randrw", "--rate_iops=,100"],
    ["--rw=trimwrite", "--allow_write", "--rate_iops=,,100"],
    ["--rate_iops=100", "--runtime=2", "--step=rate_iops=0", "--step=iodepth=2"],
    ["--bsrange=512-16m"], ["--bssplit=4k/50:64k/50,16k"],
    ["--runtime=1", "--step=bs=8k", "--step=idle=1s"],
    # the job's 4k does not bind a step of 512 with its own (pts's rounds)
    ["--bs=4k", "--blockalign=4k", "--runtime=1", "--step=bs=512,blockalign=512",
     "--step=bs=1m,blockalign=0"],
])
def test_valid_values_pass(cli, online, args):
    p = parse(cli, online, *args)
    assert p.returncode == 0, (args, p.stderr)
    assert p.stderr == "", p.stderr


def test_job_file_names_its_line(cli, online, tmp_path):
    """A job file's value is refused naming file:line and the key."""
    f = tmp_path / "j.fio"
    f.write_text("[job]\nrw=randread\nbs=511\n")
    line = one_error_line(parse(cli, online, str(f)), "bs=511")
    assert "%s:3" % f in line, line


def test_job_file_of_several_jobs(cli, online, tmp_path):
    """A bad job among several is refused before any of them runs."""
    f = tmp_path / "j.fio"
    f.write_text("[a]\nrw=randread\n[b]\nrw=randread\noffset=1\n")
    p = parse(cli, online, str(f))
    assert p.returncode != 0 and "offset=1" in p.stderr, p.stderr
