# SPDX-License-Identifier: GPL-2.0
"""cli: verify through `ssdload run` (Documentation/verify.rst, cli.rst).

A sequential write of an 8 MiB brd with --verify=crc32c: the JSON's
ssdload.verify says every block written was read back and checked, none
failed, fio's total_err and first_error are 0 and the run exits 0; the
text report has its verify block.  Without --allow_write the job is
refused.  (Failures need blocks changed between a write run and a check
of them, verify_only: not there yet.)

Kernels: one stock kernel (marked stock, conftest.py): the CLI's view of
the pass whose module path test_verify.py runs on every kernel.
"""

import pytest

import ssdload_env as env

pytestmark = pytest.mark.stock

KIB = 1024
SPAN = 8 * KIB * KIB
BLOCKS = SPAN // 4096


def _need_verify():
    if "verify" not in env.features():
        pytest.skip("this ssdload has no verify attribute")


def _args(dev, name, *more):
    return ["run", "--name=" + name, "--filename=" + dev.path, "--rw=write", "--bs=4k",
            "--iodepth=8", "--verify=crc32c", "--cpus_allowed=0"] + list(more)


def test_write_verify_json(ssdload, brd, cli):  # pylint: disable=unused-argument
    _need_verify()
    dev = brd(SPAN // KIB)[0]
    out = env.cli_json(*_args(dev, "e2e-cli-vfy", "--allow_write"))
    job = out["jobs"][0]
    assert job["write"]["total_ios"] == BLOCKS, job["write"]
    v = job["ssdload"]["verify"]
    assert v["type"] == "crc32c" and v["state"] == "done", v
    assert v["written"] == v["checked"] == v["units"] == BLOCKS, v
    assert v["failed"] == 0 and v["failures"] == [], v
    for c in ("corrupt", "misplaced", "stale", "foreign", "read_error"):
        assert v[c] == 0, (c, v)
    assert v["map_bytes"] == BLOCKS, v
    assert job["error"] == 0 and job["total_err"] == 0 and job["first_error"] == 0
    assert job["job options"]["verify"] == "crc32c"


def test_write_verify_text_and_allow_write(ssdload, brd, cli):  # pylint: disable=unused-argument
    _need_verify()
    dev = brd(SPAN // KIB)[0]
    p = env.cli(*_args(dev, "e2e-cli-vfyt", "--allow_write", "--verify_interval=1k"))
    assert p.returncode == 0, p.stderr
    assert ("  verify       : crc32c, 1024-byte units, done: %d blocks written, %d "
            "checked (%d units)" % (BLOCKS, BLOCKS, 4 * BLOCKS)) in p.stdout, p.stdout
    assert "    failures   : 0 units (corrupt=0, " in p.stdout, p.stdout
    p = env.cli(*_args(dev, "e2e-cli-vfyw"))
    assert p.returncode != 0 and "--allow_write" in p.stderr, p.stderr
