# SPDX-License-Identifier: GPL-2.0
"""--io_size (fio's io_size, io_limit): the I/Os a job does, as fio 3.33.

fio's io_size is the bytes each clone moves (looping over the span), after
which it stops; ssdload writes it as the job's number_ios, ceil(io_size /
bs) for each of the numjobs workers.  The counts are compared with what
fio itself does with the null engine over a span smaller than io_size
(so that it loops), and with time_based fio runs its runtime and ignores
io_size: so does ssdload, with a note.  The refusals name the option.
"""
import json
import shutil
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run

pytestmark = NEEDS_DEV


def parse_only(cli, *args):
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", *args)
    assert p.returncode == 0, p.stderr
    return dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l), p.stderr


def fio_total_ios(*args):
    if not shutil.which("fio"):
        pytest.skip("fio is not installed (Debian: fio): nothing to compare with")
    p = subprocess.run(["fio", "--name=x", "--ioengine=null", "--size=64k", "--rw=randread",
                        "--group_reporting", "--output-format=json"] + list(args),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    job = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]
    return job["read"]["total_ios"]


@pytest.mark.parametrize("args", [
    ["--io_size=1m", "--bs=4k"],
    ["--io_size=1m", "--bs=4k", "--numjobs=4"],
    ["--io_size=1000k", "--bs=8k"],
    ["--io_size=1001k", "--bs=8k"],		# not a whole number of blocks: rounded up
    ["--io_limit=3m", "--bs=64k", "--numjobs=2"],
    ["--io_size=0x100000", "--bs=512"],
])
def test_io_size_counts_as_fio(cli, args):
    want = fio_total_ios(*args)
    attrs, err = parse_only(cli, *args)
    assert int(attrs["number_ios"]) == want, (args, attrs, err)
    assert err == ""


def test_time_based_ignores_io_size_as_fio(cli):
    # fio: a time_based job runs its runtime (far more than io_size's 256 I/Os)
    assert fio_total_ios("--io_size=1m", "--bs=4k", "--runtime=300ms", "--time_based") > 256
    attrs, err = parse_only(cli, "--io_size=1m", "--runtime=300ms", "--time_based")
    assert "number_ios" not in attrs and attrs["runtime_ms"] == "300"
    assert "io_size=1m ignored: time_based runs for the runtime" in err


def test_io_size_with_runtime_ends_at_either(cli):
    attrs, _ = parse_only(cli, "--io_size=1m", "--runtime=10s")
    assert attrs["number_ios"] == "256" and attrs["runtime_ms"] == "10000"


@pytest.mark.parametrize("args,needle", [
    (["--io_size=1m", "--number_ios=5"], "not both"),
    (["--io_size=50%"], "percentage"),
    (["--io_size=1m", "--bssplit=4k/50:8k/50"], "one block size"),
    (["--io_size=1m", "--bs=4k,8k"], "one block size"),
    (["--io_size=0"], "above 0"),
    (["--io_size=lots"], "not a size"),
    (["--io_size=1m", "--step=iodepth=2"], "steps"),
])
def test_io_size_refusals(cli, args, needle):
    line = one_error_line(run(cli, "run", f"--filename={DEV}", "--parse-only", *args),
                          needle)
    assert "--io_size=" in line or "--io_limit=" in line, line
