# SPDX-License-Identifier: GPL-2.0
"""--time_based (fio's time_based): what ends a timed run, as fio 3.33.

Without time_based fio ends a job at its runtime or once it moved `size`
bytes, whichever comes first; with it the job runs its whole runtime.
fio itself shows both here (the null engine over a 64 KiB span).  ssdload
writes the module's time_based=0 for a timed run without the flag (the
workers stop after one pass over the span); with --time_based, a count
(number_ios, io_size) or steps the module's default (time based) stays
and nothing is written.
"""
import json
import shutil
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run

pytestmark = NEEDS_DEV

SPAN_IOS = 16			# 64 KiB in 4 KiB blocks


def parse_only(cli, *args):
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", *args)
    assert p.returncode == 0, p.stderr
    return dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)


def fio_total_ios(*args):
    if not shutil.which("fio"):
        pytest.skip("fio is not installed (Debian: fio): nothing to compare with")
    p = subprocess.run(["fio", "--name=x", "--ioengine=null", "--size=64k", "--bs=4k",
                        "--rw=randread", "--group_reporting", "--output-format=json"] +
                       list(args), capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    job = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]
    return job["read"]["total_ios"], job["read"]["runtime"]


def test_fio_ends_a_timed_run_after_one_pass():
    ios, runtime_ms = fio_total_ios("--runtime=30s")
    assert ios == SPAN_IOS and runtime_ms < 30000, (ios, runtime_ms)
    ios, _ = fio_total_ios("--runtime=300ms", "--time_based")
    assert ios > SPAN_IOS


@pytest.mark.parametrize("args,want", [
    (["--runtime=30s"], "0"),
    (["--runtime=30s", "--time_based=0"], "0"),
    (["--runtime=30s", "--ramp_time=1s"], "0"),
    (["--runtime=30s", "--time_based"], None),
    (["--runtime=30s", "--time_based=1"], None),
    ([], None),				# no runtime: one pass is the module's default
    (["--runtime=0"], "0"),		# no limit at all: one pass either way
    (["--runtime=30s", "--number_ios=100"], None),
    (["--runtime=30s", "--number_ios=0"], "0"),	# 0 is no count, as in fio
    (["--runtime=30s", "--io_size=1m"], None),
    (["--runtime=30s", "--step=iodepth=2"], None),
    (["--runtime=30s", "--loops=2"], "0"),	# each loop a pass or a runtime
], ids=lambda v: v if isinstance(v, str) or v is None else " ".join(v) or "bare")
def test_time_based_attribute(cli, args, want):
    attrs = parse_only(cli, *args)
    assert attrs.get("time_based") == want, (args, attrs)


def test_job_file_flag(cli, tmp_path):
    for body, want in (("runtime=30\n", "0"), ("runtime=30\ntime_based\n", None),
                       ("runtime=30\ntime_based=0\n", "0")):
        f = tmp_path / "t.fio"
        f.write_text(f"[global]\nfilename={DEV}\n" + body + "[t]\nrw=randread\n")
        p = run(cli, "run", str(f), "--parse-only")
        assert p.returncode == 0, p.stderr
        attrs = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
        assert attrs.get("time_based") == want, (body, p.stdout)


def test_time_based_refusal(cli):
    line = one_error_line(run(cli, "run", f"--filename={DEV}", "--parse-only",
                              "--runtime=1", "--time_based=2"), "must be 0 or 1")
    assert "--time_based=2" in line, line



@pytest.mark.parametrize("flag", ["--time_based=0", "--time_based=false", "--time_based=off"])
def test_io_size_without_time_based(cli, flag):
    """time_based false in any of its spellings: io_size ends the run."""
    attrs = parse_only(cli, "--runtime=30s", "--io_size=1m", flag)
    assert attrs["number_ios"] == "256" and "time_based" not in attrs, attrs
