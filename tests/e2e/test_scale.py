# SPDX-License-Identifier: GPL-2.0
"""ssdload scale: a workload on 1, 2 and 4 drives at once and on md arrays.

On four timer null_blks (every I/O takes 2 ms, whatever the load) the
drives are independent, so the IOPS of N drives at the same depth must be
N times one drive's: that checks the synchronized start of one job per
drive and the sums.  On qemu's four emulated NVMe drives, scale builds
md RAID-0 (2 and 4 drives) and RAID-10 (4 drives) with Debian's mdadm,
runs on each, and takes each down again: md must report the level and
members asked for, and no md device nor superblock may be left behind.

Kernels: 6.1 (scale is userspace over `ssdload run --group`, whose
synchronized start is tested on every kernel by test_group.py).
"""

import json
import os
import shutil
import subprocess

import pytest

import hostload
import ssdload_env as env

MS = 10**6
SCALE_KERNELS = os.environ.get("SSDLOAD_SCALE_KERNELS", "6.1").split()
NVME_VARS = ["SSDLOAD_NVME_SCALE%d" % i for i in range(4)]


@pytest.fixture(autouse=True)
def _scale_kernel():
    if env.kernel_label() not in SCALE_KERNELS:
        pytest.skip("scale runs on kernel %s only (SSDLOAD_SCALE_KERNELS): the group "
                    "start it relies on is tested on every kernel by test_group.py"
                    % " ".join(SCALE_KERNELS))


def _scale(out, *args, timeout=300):
    return env.cli("scale", "--output-dir=%s" % out, "--eta=never", "--no-report",
                   *args, timeout=timeout)


def _scaling_host_load(base, q):
    """Evidence that point @q scales short of linear against @base for
    the host's load: both keep their depth alike (I/Os in flight = IOPS x
    mean latency, per I/O of depth, within 15% of each other and at most
    the depth), so the shortfall is the devices' latency.  None otherwise."""
    fill = [p["iops"] * p["read"]["lat_mean_ns"] / 1e9 / p["qd_total"] for p in (base, q)]
    if max(fill) > 1.02 or abs(fill[1] - fill[0]) > 0.15 * fill[0]:
        return None
    return ("%s scale %.2f: mean latency %.2f ms against %.2f ms for 1 drive, with %.2f "
            "and %.2f of each I/O of depth in flight" % (
                q["target"], q["scaling"], q["read"]["lat_mean_ns"] / 1e6,
                base["read"]["lat_mean_ns"] / 1e6, fill[1], fill[0]))


@pytest.mark.timing
def test_independent_drives_scale_linearly(ssdload, null_blk, cli, tmp_path):
    devs = null_blk(nr_devices=4, irqmode=2, completion_nsec=2 * MS, hw_queue_depth=64)
    assert len(devs) == 4
    out = tmp_path / "sc"
    p = _scale(out, "--devices=" + ",".join(d.path for d in devs), "--qd-list=4",
               "--ramp_time=200ms", "--runtime=1500ms")
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads((out / "scale.json").read_text())
    assert doc["format"] == "ssdload-scale" and doc["state"] == "done"
    assert doc["command"].startswith("ssdload scale --output-dir="), doc["command"]
    assert [t["label"] for t in doc["targets"]] == ["1 drive", "2 drives", "4 drives"]
    assert [d["path"] for d in doc["devices"]] == [d.path for d in devs]
    pts = doc["points"]
    assert [(q["target"], q["drives"], q["qd_per_drive"], q["qd_total"]) for q in pts] == \
        [("1 drive", 1, 4, 4), ("2 drives", 2, 4, 8), ("4 drives", 4, 4, 16)]
    base = pts[0]["iops"]
    # QD 4 at 2 ms: 2000 IOPS per drive, less TCG's timer slop
    assert 2000 / env.p50_slop() <= base <= 2000 * 1.02, base
    for q in pts:
        assert q["complete"] and len(q["runs"]) == q["drives"], q
        assert all(r["exit_status"] == 0 for r in q["runs"]), q["runs"]
        per = q["read"]["iops_per_run"]
        assert len(per) == q["drives"]
        assert abs(sum(per) - q["iops"]) < 1e-6 * q["iops"] + 1
        # each drive did its share: no run started late or ran alone
        assert min(per) > 0.85 * max(per), per
        assert q["scaling"] == pytest.approx(q["iops"] / base)
        # a host that fires the drives' 2 ms timers late slows every I/O:
        # the same I/Os in flight then give fewer IOPS (a skip, with the
        # latencies); a depth not kept is no excuse
        with hostload.guard(lambda: _scaling_host_load(pts[0], q)):
            assert 0.85 * q["drives"] <= q["scaling"] <= 1.1 * q["drives"], q
        # the merged histogram: no I/O beat the device's 2 ms, and the
        # median took it (TCG's timers add slop: env.p50_slop())
        assert 2 * MS <= q["read"]["lat_p50_ns"] <= 2 * env.p50_slop() * MS, q
        assert q["read"]["lat_p50_ns"] <= q["lat_p99_ns"] <= q["lat_max_ns"], q
        assert q["efficiency"] == pytest.approx(q["scaling"] / q["drives"])
        # each run's JSON is kept and names its own drive
        files = [out / r["file"] for r in q["runs"]]
        names = {json.loads(f.read_text())["jobs"][0]["job options"]["filename"]
                 for f in files}
        assert len(names) == q["drives"]
    assert "4 drives" in p.stdout and "scaling" in p.stdout


def _md_devices():
    return sorted(b for b in os.listdir("/sys/block") if b.startswith("md"))


@pytest.fixture
def scale_nvme():
    devs = [os.environ.get(v) for v in NVME_VARS]
    if not all(devs):
        pytest.skip("%s are not all set (the four scale NVMe drives are not attached)"
                    % " ".join(NVME_VARS))
    if not shutil.which("mdadm"):
        pytest.skip("mdadm is not installed (Debian: mdadm)")
    for mod in ("raid0", "raid10"):
        r = subprocess.run(["modprobe", mod], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode:
            pytest.skip("modprobe %s failed: %s" % (mod, r.stdout.strip()))
    return devs


def test_raid_arrays_on_nvme(ssdload, scale_nvme, cli, tmp_path):
    devs = scale_nvme
    assert not _md_devices()
    out = tmp_path / "sc"
    p = _scale(out, "--devices=" + ",".join(devs), "--raid=0,10", "--allow_write",
               "--rw=randread", "--bs=4k", "--qd-list=4", "--ramp_time=100ms",
               "--runtime=700ms", timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads((out / "scale.json").read_text())
    assert doc["state"] == "done"
    labels = ["1 drive", "2 drives", "4 drives", "RAID-0 x2", "RAID-0 x4", "RAID-10 x4"]
    assert [t["label"] for t in doc["targets"]] == labels
    assert [t["level"] for t in doc["targets"]] == ["drives"] * 3 + ["raid0"] * 2 + ["raid10"]
    pts = doc["points"]
    assert [q["target"] for q in pts] == labels
    for q in pts:
        assert q["complete"] and q["iops"] > 0 and q["scaling"] > 0, q
        run = json.loads((out / q["runs"][0]["file"]).read_text())["jobs"][0]
        fname = run["job options"]["filename"]
        if q["kind"] == "raid":
            # one job on the array, with the drives' depth times its members
            assert len(q["runs"]) == 1 and fname.startswith("/dev/md"), fname
            assert q["qd_total"] == 4 * q["drives"]
            assert int(run["job options"]["numjobs"]) == q["drives"]
            # what the kernel built: md's own level and member count
            assert q["md_level"] == doc["targets"][pts.index(q)]["level"], q
            assert q["md_members"] == q["drives"], q
        else:
            assert len(q["runs"]) == q["drives"]
    # the arrays are gone, and so are their superblocks
    assert not _md_devices()
    for d in devs:
        r = subprocess.run(["mdadm", "--examine", d], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        assert r.returncode != 0, r.stdout
    for lab in labels:
        assert lab in p.stdout
