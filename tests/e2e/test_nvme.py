# SPDX-License-Identifier: GPL-2.0
"""nvme: counts on qemu's emulated NVMe equal its block-layer counters."""

import pytest

import ssdload_env as env


@pytest.mark.quick
@pytest.mark.parametrize("rw", ["randread", "randwrite"])
def test_nvme_counts(nvme, jobs, rw):
    """A short random run on $SSDLOAD_NVME: ios and bytes equal the stat deltas."""
    n = 2000
    j = jobs("nvme", filename=nvme.path, rw=rw, bs=4096, iodepth=8, number_ios=n,
             allow_write=1 if rw == "randwrite" else 0, cpus_allowed="0-1"
             if len(env.online_cpus()) >= 2 else "")
    before = nvme.stat()
    s = j.run(timeout=120)
    d = env.stat_delta(before, nvme.stat())
    direction = "read" if rw == "randread" else "write"
    other = "write" if direction == "read" else "read"
    assert s[direction + "_ios"] == n == d[direction + "_ios"], (s, d)
    assert s[direction + "_bytes"] == n * 4096 == d[direction + "_bytes"]
    assert s[other + "_ios"] == 0 == d[other + "_ios"]
    assert s["read_errors"] == 0 and s["write_errors"] == 0
    h = j.hist(direction)
    assert h.samples == n and h.min_ns > 0


@pytest.mark.quick
def test_nvme_cli_json(nvme, cli):
    """The CLI on the emulated NVMe: JSON total_ios equals the stat delta."""
    before = nvme.stat()
    out = env.cli_json("run", "--name=e2e-nvme", "--filename=" + nvme.path, "--rw=randrw",
                       "--bs=4k", "--iodepth=4", "--number_ios=1000", "--allow_write=1")
    d = env.stat_delta(before, nvme.stat())
    job = out["jobs"][0]
    assert job["read"]["total_ios"] == d["read_ios"]
    assert job["write"]["total_ios"] == d["write_ios"]
    assert job["read"]["total_ios"] + job["write"]["total_ios"] == 1000
    assert job["read"]["io_bytes"] == d["read_bytes"]
    assert job["write"]["io_bytes"] == d["write_bytes"]
