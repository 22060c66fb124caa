# SPDX-License-Identifier: GPL-2.0
"""pts: `ssdload pts` (SNIA SSS PTS 2.0.2) end to end, scaled to minutes.

- safety: no --allow_write, a mounted device, a partition without
  --allow-partition and bad options are refused with exit 2, before any
  write (no output directory, no job, no write in the device's stat);
- purge: `pts purge --purge=format` on qemu's emulated NVMe (a 256 MiB
  namespace, $SSDLOAD_NVME_PTS) leaves every byte of the namespace zero;
- a scaled IOPS run on that NVMe: all 56 cells in every round, a verdict
  that `pts ss-check` confirms on the rounds' tracking values, the window's
  table, the report with every plot; the last round's pts.json counts equal
  the kept job's debugfs steps file exactly;
- scaled throughput and latency runs complete with their plots;
- resume: a latency run on a fixed-latency null_blk, interrupted (SIGINT)
  in its third round and resumed, keeps its finished rounds and ends with
  the round count of an uninterrupted run.

Kernels: the orchestration is userspace over the engine that every other
file tests on every kernel; these run on $SSDLOAD_PTS_KERNELS (default
6.12) and skip elsewhere, to keep `make check` in its time budget.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import time
import xml.etree.ElementTree as ET

import pytest

import ssdload_env as env

PTS_KERNELS = os.environ.get("SSDLOAD_PTS_KERNELS", "6.12").split()
MIXES = [100, 95, 65, 50, 35, 5, 0]
IOPS_BS = [1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512]


@pytest.fixture(autouse=True)
def _pts_kernel():
    if env.kernel_label() not in PTS_KERNELS:
        pytest.skip("pts runs on kernel %s only (SSDLOAD_PTS_KERNELS): its engine is "
                    "tested on every kernel by the other files" % " ".join(PTS_KERNELS))


@pytest.fixture
def outdir(tmp_path):
    return str(tmp_path / "pts")


def _pts(*args, timeout=600):
    return env.cli("pts", *args, timeout=timeout)


def _load(d):
    with open(os.path.join(d, "pts.json")) as f:
        return json.load(f)


def _save_artifacts(d, name):
    """Keep a run's directory with the guest's output, for the reader."""
    out = os.environ.get("SSDLOAD_OUT")
    if out and os.path.isdir(d):
        dst = os.path.join(out, "pts", name)
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(d, dst)


def _no_pts_jobs():
    return [j for j in env.list_jobs() if j.startswith("pts-")]


# --------------------------------------------------------------------------
# safety

@pytest.mark.quick
def test_refuses_without_allow_write(ssdload, pts_nvme, cli, outdir):  # pylint: disable=unused-argument
    before = pts_nvme.stat()
    p = _pts("iops", "--filename=" + pts_nvme.path, "--output-dir=" + outdir)
    assert p.returncode == 2, p.stderr
    assert "--allow_write" in p.stderr and "destroying its data" in p.stderr
    d = env.stat_delta(before, pts_nvme.stat())
    assert d["write_ios"] == 0 and d["write_sectors"] == 0
    assert not os.path.exists(outdir) and not _no_pts_jobs()


@pytest.mark.quick
def test_refuses_mounted(ssdload, mounted_brd, cli, outdir):  # pylint: disable=unused-argument
    p = _pts("latency", "--filename=" + mounted_brd.path, "--allow_write",
             "--output-dir=" + outdir)
    assert p.returncode == 2, p.stderr
    assert re.search(r"mounted|in use|busy", p.stderr), p.stderr
    assert not os.path.exists(outdir) and not _no_pts_jobs()


@pytest.mark.quick
def test_refuses_partition(ssdload, brd, cli, outdir):  # pylint: disable=unused-argument
    sfdisk = shutil.which("sfdisk")
    if not sfdisk:
        pytest.skip("sfdisk (util-linux) is not installed")
    env.rmmod("brd")
    env.modprobe("brd", rd_nr=1, rd_size=64 * 1024, max_part=4)
    disk = env.BlockDev("ram0")
    disk.wait_for_node()
    env.run([sfdisk, "-q", disk.path], input="start=2048, size=65536\n")
    part = env.BlockDev("ram0p1")
    deadline = time.monotonic() + 10
    while not os.path.exists(part.path):
        assert time.monotonic() < deadline, "no /dev/ram0p1 after sfdisk"
        time.sleep(0.1)
    before = disk.stat()
    p = _pts("latency", "--filename=" + part.path, "--allow_write", "--output-dir=" + outdir)
    assert p.returncode == 2, p.stderr
    assert "partition" in p.stderr and "--allow-partition" in p.stderr, p.stderr
    d = env.stat_delta(before, disk.stat())
    assert d["write_ios"] == 0 and d["write_sectors"] == 0
    assert not os.path.exists(outdir) and not _no_pts_jobs()


@pytest.mark.quick
@pytest.mark.parametrize("bad,msg", [
    ("--purge=bogus", "--purge=bogus"),
    ("--write-cache=maybe", "--write-cache=maybe"),
    ("--point-time=10ms", "--point-time"),
    ("--max-rounds=3", "--max-rounds"),
    ("--size=0", "--size"),
    ("--wipc=-1", "--wipc"),
    ("--bs=64k", "--bs"),
    ("--threads=0", "--threads"),
])
def test_refuses_bad_options(ssdload, pts_nvme, cli, outdir, bad, msg):  # pylint: disable=unused-argument
    before = pts_nvme.stat()
    test = "throughput" if bad.startswith("--bs") else "iops"
    p = _pts(test, "--filename=" + pts_nvme.path, "--allow_write", "--output-dir=" + outdir,
             bad)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert msg in p.stderr, p.stderr
    d = env.stat_delta(before, pts_nvme.stat())
    assert d["write_ios"] == 0 and d["write_sectors"] == 0
    assert not os.path.exists(os.path.join(outdir, "pts.json"))


# --------------------------------------------------------------------------
# purge

def _read_all_zero(path, size, chunk=4 << 20):
    """O_DIRECT read of the whole device: the offset of the first non-zero
    byte, or None."""
    import mmap
    buf = mmap.mmap(-1, chunk)
    zero = bytes(chunk)
    fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
    try:
        off = 0
        while off < size:
            n = os.preadv(fd, [buf], off)
            assert n == min(chunk, size - off), "short read at %d" % off
            if buf[:n] != zero[:n]:
                data = buf[:n]
                return off + next(i for i in range(n) if data[i])
            off += n
    finally:
        os.close(fd)
        buf.close()
    return None


def test_purge_format_zeroes_namespace(ssdload, pts_nvme, cli):  # pylint: disable=unused-argument
    size = pts_nvme.size_bytes()
    # non-zero data over the whole namespace first
    env.cli("run", "--name=e2e-pts-fill", "--filename=" + pts_nvme.path, "--rw=write",
            "--bs=1m", "--iodepth=8", "--allow_write=1", "--buffer_pattern=0xa5",
            "--zero_buffers=0", timeout=300, check=True)
    assert env.direct_read(pts_nvme.path, size - 4096, 4096) == b"\xa5" * 4096
    p = _pts("purge", "--filename=" + pts_nvme.path, "--allow_write", "--purge=format")
    assert p.returncode == 0, p.stderr
    assert re.search(r"method: format", p.stdout), p.stdout
    assert "user data erase" in p.stdout, p.stdout
    assert _read_all_zero(pts_nvme.path, size) is None
    assert not _no_pts_jobs()


@pytest.mark.quick
def test_purge_auto_on_nvme(ssdload, pts_nvme, cli):  # pylint: disable=unused-argument
    """auto picks an NVMe command (qemu: format, or sanitize where emulated)."""
    p = _pts("purge", "--filename=" + pts_nvme.path, "--allow_write")
    assert p.returncode == 0, p.stderr
    assert re.search(r"method: (format|sanitize)", p.stdout), p.stdout


# --------------------------------------------------------------------------
# the tests, scaled

def _check_report(d, plots):
    html = os.path.join(d, "report.html")
    assert os.path.getsize(html) > 1000
    with open(html) as f:
        text = f.read()
    for src in re.findall(r'<img[^>]+src="([^"]+)"', text):
        assert os.path.exists(os.path.join(d, src)), "report.html refers to missing " + src
    for p in plots:
        path = os.path.join(d, "plots", p)
        assert os.path.exists(path), "no plot " + p
        ET.parse(path)		# well-formed SVG
        assert 'plots/%s' % p in text, p + " is not in report.html"
    assert "SNIA SSS PTS 2.0.2" in text
    assert "NOT CONFORMANT" in text		# every scaled run is
    return text


def _check_verdict(doc, max_rounds, tmp_path):
    """The verdict agrees with `pts ss-check` on the rounds' tracking values."""
    rounds = doc["rounds"]
    ss = doc["steady_state"]
    vals = [r["tracking"] for r in rounds]
    assert all(v is not None and v > 0 for v in vals), vals
    series = tmp_path / "tracking.txt"
    series.write_text("".join("%.17g\n" % v for v in vals))
    p = _pts("ss-check", "--max-rounds=%d" % max_rounds, "--json", str(series))
    chk = json.loads(p.stdout)
    assert p.returncode == (0 if ss["reached"] else 1), (p.returncode, ss)
    assert chk["steady"] == ss["reached"]
    if ss["reached"]:
        assert ss["round"] == len(rounds) == chk["steady_round"]
    else:
        assert len(rounds) == max_rounds
    assert ss["window"] == [chk["window"]["first_round"], chk["window"]["last_round"]]
    assert ss["average"] == pytest.approx(chk["window"]["average"], rel=1e-9)
    return ss


def test_iops_scaled(ssdload, pts_nvme, cli, outdir, tmp_path):  # pylint: disable=unused-argument
    max_rounds = 7
    p = _pts("iops", "--filename=" + pts_nvme.path, "--allow_write", "--output-dir=" + outdir,
             "--point-time=200ms", "--wipc=1", "--max-rounds=%d" % max_rounds,
             "--threads=2", "--iodepth=4", "--keep-last-job", "--eta=never", timeout=900)
    _save_artifacts(outdir, "iops")
    assert p.returncode in (0, 1), p.stderr
    doc = _load(outdir)
    assert doc["state"] == "complete" and doc["spec"] == "SNIA SSS PTS 2.0.2"
    assert doc["scaled"] and not doc["conformant"]
    assert any("point time 200 ms" in x for x in doc["deviations"])
    assert doc["purge"]["method"] in ("format", "sanitize") and doc["purge"]["conformant"]
    assert doc["wipc"]["bytes"] == pts_nvme.size_bytes()
    dev = doc["device"]
    assert dev["kind"] == "nvme" and dev["serial"] == "ssdload-pts"
    assert dev["capacity_bytes"] == pts_nvme.size_bytes()
    assert dev["lba_format"]["data_bytes"] in (512, 4096)
    assert dev["model"] and dev["firmware"]
    for r in doc["rounds"]:
        pts = r["points"]
        assert [(x["rwmixread"], x["bs"]) for x in pts] == \
            [(m, b) for m in MIXES for b in IOPS_BS]
        for x in pts:
            assert x["iops"] > 0, x
            assert (x["read"]["ios"] > 0) == (x["rwmixread"] > 0), x
            assert (x["write"]["ios"] > 0) == (x["rwmixread"] < 100), x
        assert r["health_before"] and r["health_after"]
        assert r["health_after"]["host_write_commands"] > r["health_before"]["host_write_commands"]
    _check_verdict(doc, max_rounds, tmp_path)
    res = doc["results"]["points"]
    assert len(res) == 56 and all(x["iops"] > 0 for x in res)
    # the last round's JSON counts are the kernel's: the kept job's steps file
    last = doc["rounds"][-1]
    kept = [j for j in env.list_jobs() if j.startswith("pts-iops-")
            and j.endswith("-r%d" % last["round"])]
    assert len(kept) == 1, env.list_jobs()
    job = env.Job.existing(kept[0])
    try:
        steps = job.steps().steps
        assert len(steps) == 56
        for st, x in zip(steps, last["points"]):
            assert st["rwmixread"] == x["rwmixread"] and st["bs_min"] == x["bs"]
            for d in ("read", "write"):
                assert st[d]["ios"] == x[d]["ios"], (st["step"], d)
                assert st[d]["bytes"] == x[d]["ios"] * x["bs"]
    finally:
        job.remove()
    assert [j for j in env.list_jobs() if j.startswith("pts-")] == []
    _check_report(outdir, ["ss_convergence.svg", "ss_window.svg", "iops_2d.svg",
                           "iops_3d.svg"])
    with open(os.path.join(outdir, "measurement.csv")) as f:
        assert len(f.read().strip().splitlines()) == 1 + 7


def test_throughput_scaled(ssdload, pts_nvme, cli, outdir, tmp_path):  # pylint: disable=unused-argument
    p = _pts("throughput", "--filename=" + pts_nvme.path, "--allow_write",
             "--output-dir=" + outdir, "--point-time=500ms", "--wipc=1", "--max-rounds=8",
             "--eta=never", timeout=600)
    _save_artifacts(outdir, "throughput")
    assert p.returncode in (0, 1), p.stderr
    doc = _load(outdir)
    assert doc["state"] == "complete"
    for r in doc["rounds"]:
        assert [(x["rwmixread"], x["bs"]) for x in r["points"]] == [(100, 1048576),
                                                                     (0, 1048576)]
        assert r["points"][0]["read"]["bw_bytes"] > 0 and r["points"][1]["write"]["bw_bytes"] > 0
    _check_verdict(doc, 8, tmp_path)
    _check_report(outdir, ["ss_convergence.svg", "ss_window.svg"])


def test_latency_scaled(ssdload, pts_nvme, cli, outdir, tmp_path):  # pylint: disable=unused-argument
    p = _pts("latency", "--filename=" + pts_nvme.path, "--allow_write",
             "--output-dir=" + outdir, "--point-time=300ms", "--wipc=0.5", "--max-rounds=8",
             "--eta=never", timeout=600)
    _save_artifacts(outdir, "latency")
    assert p.returncode in (0, 1), p.stderr
    doc = _load(outdir)
    assert doc["state"] == "complete"
    assert doc["settings"]["threads"] == 1 and doc["settings"]["iodepth"] == 1
    for x in doc["results"]["points"]:
        d = x["read"] if x["rwmixread"] else x["write"]
        assert d["lat_mean_ns"] > 0 and d["lat_max_ns"] >= d["lat_mean_ns"]
        assert float(d["percentiles"]["99.990000"]) <= d["lat_max_ns"]
    _check_verdict(doc, 8, tmp_path)
    _check_report(outdir, ["ss_convergence.svg", "ss_window.svg", "latency_avg.svg",
                           "latency_max.svg"])


# --------------------------------------------------------------------------
# resume

def _latency_args(dev, d):
    # a fixed 2 ms device: the tracking variable is steady from round 1
    # (TCG's wake-up jitter of 0.1-0.3 ms is a small part of it; on a 200 us
    # device it once took the reference run a sixth round)
    return ["pts", "latency", "--filename=" + dev.path, "--allow_write", "--output-dir=" + d,
            "--purge=none", "--wipc=0", "--point-time=250ms", "--max-rounds=8",
            "--no-report", "--eta=never"]


def test_resume_after_sigint(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    dev = null_blk(irqmode=2, completion_nsec=2000000, gb=1)[0]
    ref = str(tmp_path / "ref")
    p = env.cli(*_latency_args(dev, ref), timeout=300)
    assert p.returncode == 0, p.stderr
    n_ref = len(_load(ref)["rounds"])

    d = str(tmp_path / "cut")
    proc = subprocess.Popen([cli] + _latency_args(dev, d), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, universal_newlines=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, proc.communicate()
            try:
                if len(_load(d)["rounds"]) >= 2:
                    break
            except (OSError, ValueError):
                pass
            assert time.monotonic() < deadline, "no second round in 120 s"
            time.sleep(0.1)
        time.sleep(0.5)			# into round 3
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (out, err)
    cut = _load(d)
    assert cut["state"] == "interrupted" and len(cut["rounds"]) >= 2
    assert "--resume=" + d in err
    assert not _no_pts_jobs()
    done_before = [r["started"] for r in cut["rounds"]]

    p = env.cli("pts", "--resume=" + d, timeout=300)
    assert p.returncode == 0, p.stderr
    doc = _load(d)
    assert doc["state"] == "complete"
    assert [r["started"] for r in doc["rounds"][:len(done_before)]] == done_before
    assert len(doc["rounds"]) == n_ref
    assert doc["resumed"] and doc["resumed"][0]["after_round"] == len(done_before)
    assert [r["round"] for r in doc["rounds"]] == list(range(1, n_ref + 1))
    # a finished test cannot be resumed again
    p = env.cli("pts", "--resume=" + d)
    assert p.returncode == 2 and "complete" in p.stderr
