# SPDX-License-Identifier: GPL-2.0
"""ssdload sweep on a device of known latency and depth.

A timer null_blk completes every I/O after completion_nsec (1 ms) and
holds at most hw_queue_depth (8) of them.  Each point below that depth
must see the device's latency (TCG's timers add some slop to the 1 ms:
env.p50_slop()) and keep its whole depth in flight (Little's law), so
that its IOPS are QD / latency; past it the IOPS cannot grow, the I/Os
beyond wait for a tag, and no point below QD 8 can be the knee (the
knee itself is QD 8 on a quiet host; a loaded one delays the 1 ms timers
of 8 I/Os more than those of 4, and CI measured QD 8 at 0.89 of the
highest and the knee at 16).  The points run
as steps of one job, numjobs workers at QD/numjobs each; workers beyond
a step's numjobs issue nothing in it (the per-worker series show it).

Kernels: 6.12 (the CLI's arithmetic is the same on every kernel; the
steps' numjobs, in the module, is tested on every kernel by
test_steps.py and KUnit).
"""

import json
import os

import pytest

import hostload
import ssdload_env as env

MS = 10**6
DEPTH = 8
SWEEP_KERNELS = os.environ.get("SSDLOAD_SWEEP_KERNELS", "6.12").split()


@pytest.fixture(autouse=True)
def _sweep_kernel():
    if env.kernel_label() not in SWEEP_KERNELS:
        pytest.skip("sweep runs on kernel %s only (SSDLOAD_SWEEP_KERNELS): the step "
                    "numjobs it uses is tested on every kernel by test_steps.py"
                    % " ".join(SWEEP_KERNELS))


@pytest.fixture
def ms_dev(ssdload, null_blk):
    return null_blk(irqmode=2, completion_nsec=MS, hw_queue_depth=DEPTH)[0]


def _sweep(dev, out, *extra):
    return env.cli("sweep", "--filename=" + dev.path, "--output-dir=%s" % out,
                   "--ramp_time=200ms", "--runtime=1s", "--log_interval_ms=200",
                   "--eta=never", *extra, timeout=300)


@pytest.mark.timing
def test_sweep_follows_the_device(ms_dev, cli, tmp_path):
    out = tmp_path / "sw"
    p = _sweep(ms_dev, out, "--qd-list=1,2,4,8,16,32", "--max-qd-per-worker=4",
               "--knee=0.9", "--no-report")
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads((out / "sweep.json").read_text())
    assert doc["format"] == "ssdload-sweep" and doc["state"] == "done"
    assert doc["command"].startswith("ssdload sweep "), doc["command"]
    pts = doc["points"]
    # the auto rule with at most 4 each: QD 8 = 2 x 4, 16 = 4 x 4, 32 = 8 x 4
    assert [(q["qd"], q["workers"], q["qd_per_worker"]) for q in pts] == \
        [(1, 1, 1), (2, 1, 2), (4, 1, 4), (8, 2, 4), (16, 4, 4), (32, 8, 4)]
    # below the device's depth every I/O takes the device's latency
    for q in pts:
        if q["qd"] <= DEPTH:
            assert MS <= q["lat_mean_ns"] <= env.p50_slop() * MS, q
    lat1 = min(q["lat_mean_ns"] for q in pts)
    cap = DEPTH / (lat1 / 1e9)
    for q in pts:
        assert q["read"]["ios"] > 0 and "write" not in q
        # the time series of the point: its measured 1 s in 200 ms intervals
        # (fewer, longer ones when the host stalls the guest)
        assert 2 <= len(q["series"]) <= 7, q["series"]
        assert all(0 < iv["t_ms"] <= 1300 for iv in q["series"]), q["series"]
        mean = sum(iv["iops"] for iv in q["series"]) / len(q["series"])
        with hostload.guard(lambda q=q: hostload.series_stall_evidence(q["series"],
                                                                       q["read"]["ios"])):
            assert abs(mean / q["iops"] - 1) < 0.25, (q["qd"], q["series"])
        if q["qd"] > DEPTH:
            # beyond the device's depth: no more than it can do, and the
            # I/Os beyond it wait for a tag (the worker sleeps in
            # submit_bio, as fio's io_submit does; under TCG the wake-up
            # after a tag frees costs up to half of the throughput)
            assert q["iops"] <= 1.10 * cap, (q["qd"], q["iops"], cap)
            assert q["lat_mean_ns"] > 1.5 * lat1, q
            continue
        # QD / latency: Little's law, the sweep kept the point's whole
        # depth in flight (the latency is the device's, above)
        assert 1 - env.little_tolerance() <= q["little"] <= 1.02, q
        assert q["iops"] <= 1.02 * q["qd"] / (MS / 1e9), q
    # points back to back: the first has no gap, the others no drain
    assert pts[0]["gap_max_ns"] == 0
    assert all(q["gap_max_ns"] < 4 * MS for q in pts), [q["gap_max_ns"] for q in pts]
    knees = doc["knees"]
    assert len(knees) == 1 and knees[0]["workers"] is None
    k = knees[0]
    top = max(pts, key=lambda q: q["iops"])
    assert (k["max_qd"], k["max_iops"]) == (top["qd"], top["iops"]), (knees, top)
    # the knee is the first point at 0.9 of the highest, and that is not
    # below the device's depth: QD 4 does at most half of what 8 tags do
    first = next(q for q in pts if q["iops"] >= 0.9 * top["iops"])
    assert (k["knee_qd"], k["knee_iops"]) == (first["qd"], first["iops"]), (knees, pts)
    assert DEPTH <= k["knee_qd"] <= 2 * DEPTH, knees
    # the run: one job of 8 workers, a step per point with its numjobs
    run = json.loads((out / "run.json").read_text())
    job = run["jobs"][0]
    assert [s["params"]["numjobs"] for s in job["steps"]] == [1, 1, 1, 2, 4, 8]
    assert [s["params"]["iodepth"] for s in job["steps"]] == [1, 2, 4, 4, 4, 4]
    # workers beyond a step's numjobs issue nothing in it
    per = job["time_series"]["per_worker"]
    assert len(per) == 8
    for w in per:
        for iv in w["intervals"]:
            step = iv.get("step")
            active = job["steps"][step - 1]["params"]["numjobs"] if step else 8
            ios = sum(iv.get(d, {}).get("ios", 0) for d in ("read", "write"))
            if w["worker"] >= active:
                assert ios == 0, (w["worker"], iv)
    # the table
    assert "<- knee" in p.stdout and "knee: QD %d, " % k["knee_qd"] in p.stdout, p.stdout


def test_sweep_worker_lines_and_report(ms_dev, cli, tmp_path):
    """--workers=1,2: each QD on each worker count that divides it, one knee
    per line; the report renders from sweep.json."""
    out = tmp_path / "sw"
    p = _sweep(ms_dev, out, "--qd-list=1,2,4", "--workers=1,2", "--output-format=json")
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads(p.stdout)
    assert doc == json.loads((out / "sweep.json").read_text())
    assert [(q["workers"], q["qd"]) for q in doc["points"]] == \
        [(1, 1), (1, 2), (1, 4), (2, 2), (2, 4)]
    assert [k["workers"] for k in doc["knees"]] == [1, 2]
    for k in doc["knees"]:
        line = [q for q in doc["points"] if q["workers"] == k["workers"]]
        assert k["max_iops"] == max(q["iops"] for q in line)
        assert k["knee_qd"] == min(q["qd"] for q in line
                                   if q["iops"] >= 0.95 * k["max_iops"])
    assert doc["settings"]["rw"] == "randread" and doc["settings"]["bs"] == 4096
    html = out / "report.html"
    assert html.exists(), os.listdir(out)
    text = html.read_text()
    for q in doc["points"]:
        assert "<td>%d</td>" % q["qd"] in text


def test_sweep_refusal_leaves_nothing(ms_dev, cli, tmp_path):
    out = tmp_path / "sw"
    p = _sweep(ms_dev, out, "--rw=randwrite")
    assert p.returncode == 2
    assert "--allow_write" in p.stderr and "nothing ran" in p.stderr, p.stderr
    assert not out.exists()
    assert "sweep-" not in env.cli("list").stdout
