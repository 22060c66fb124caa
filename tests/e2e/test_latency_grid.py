# SPDX-License-Identifier: GPL-2.0
"""ssdload latency-grid: the S3700 review's QD 1 grid on a null_blk.

The default grid (512 B, 4 KiB and 8 KiB, each at 100/0, 65/35 and 0/100)
runs as the nine steps of one job, 1 s each with no ramp, on a timer
null_blk that completes every I/O after 200 us.  Each cell must have
done its mix (the 65/35 cells' read share within 4 binomial standard
deviations and a point of 65: TCG may leave a cell a few hundred I/Os), and
its figures must be ordered as a latency distribution's: maximum >= p99
>= mean (the percentiles come from the merged histogram of its reads
and writes, the maximum from the exact figures).  On a fixed-latency
device the mean can pass p99 only when the host delays the slowest I/Os
by far more than the device's latency (TCG: a descheduled vCPU); the
cell's maximum shows it (hostload.tail_evidence) and the test is then
skipped with the figures.  The writes pass the guard of every
destructive command, which names the device.  About 15 s of guest time.

Kernels: 6.12 (the grid is the CLI's arithmetic over steps; the steps'
rw, bs and rwmixread are tested on every kernel by test_steps.py).
"""

import json
import math
import os

import pytest

import hostload
import ssdload_env as env

GRID_KERNELS = os.environ.get("SSDLOAD_GRID_KERNELS", "6.12").split()
DEVICE_NS = 200000
CELLS = [(bs, mix) for bs in (512, 4096, 8192) for mix in (100, 65, 0)]


@pytest.fixture(autouse=True)
def _grid_kernel():
    if env.kernel_label() not in GRID_KERNELS:
        pytest.skip("latency-grid runs on kernel %s only (SSDLOAD_GRID_KERNELS): the "
                    "steps it uses are tested on every kernel by test_steps.py"
                    % " ".join(GRID_KERNELS))


def test_grid_cells(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    dev = null_blk(irqmode=2, completion_nsec=DEVICE_NS)[0]
    out = tmp_path / "grid"
    p = env.cli("latency-grid", "--filename=" + dev.path, "--output-dir=%s" % out,
                "--ramp_time=0", "--runtime=1s", "--percentiles=50:99:99.9",
                "--allow_write", "--eta=never", "--no-report", timeout=240)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "will destroy %s" % dev.path in p.stderr, p.stderr
    doc = json.loads((out / "latency-grid.json").read_text())
    assert doc["format"] == "ssdload-latency-grid" and doc["state"] == "done"
    cells = doc["points"]
    assert [(c["bs"], c["mix"]) for c in cells] == CELLS
    for c in cells:
        assert c["ios"] > 0, c
        if c["mix"] == 100:
            assert c["read_pct"] == 100 and c["write"] is None, c
        elif c["mix"] == 0:
            assert c["read_pct"] == 0 and c["read"] is None, c
        else:
            # the read share of n I/Os: binomial, 4 standard deviations and 1 point
            sd = 100 * math.sqrt(c["mix"] * (100 - c["mix"]) / 1e4 / c["ios"])
            assert abs(c["read_pct"] - c["mix"]) <= 1 + 4 * sd, c
            assert c["read"]["ios"] > 0 and c["write"]["ios"] > 0, c
        p99 = c["percentiles"]["99.000000"]
        assert c["lat_max_ns"] >= p99 >= DEVICE_NS, c
        with hostload.guard(lambda c=c, p99=p99: hostload.tail_evidence(
                "cell %d" % c["step"], c["lat_mean_ns"], p99, c["lat_max_ns"], DEVICE_NS)):
            assert p99 >= c["lat_mean_ns"] >= DEVICE_NS, c
        assert c["percentiles"]["99.900000"] >= p99 >= c["percentiles"]["50.000000"], c
    run = json.loads((out / "run.json").read_text())
    steps = run["jobs"][0]["steps"]
    assert [(s["params"]["bs_max"], s["params"]["rw"]) for s in steps] == \
        [(bs, {100: "randread", 0: "randwrite"}.get(mix, "randrw")) for bs, mix in CELLS]
    assert all(s["params"]["iodepth"] == 1 for s in steps)
    # the table: a row per cell, its mix and its maximum as the JSON's
    lines = p.stdout.splitlines()
    head = next(i for i, l in enumerate(lines) if "lat max" in l)
    rows = [l.split() for l in lines[head + 1:head + 1 + len(CELLS)]]
    assert [(int(r[0]), r[1]) for r in rows] == \
        [(bs, "%d/%d" % (mix, 100 - mix)) for bs, mix in CELLS], p.stdout
    assert all(len(r) == 9 for r in rows), p.stdout		# 6 columns + 3 percentiles
