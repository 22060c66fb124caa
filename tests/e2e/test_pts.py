# SPDX-License-Identifier: GPL-2.0
"""pts: `ssdload pts` (SNIA SSS PTS 2.0.2) end to end, scaled to minutes.

- safety: no --allow_write, a mounted device, a partition without
  --allow-partition and bad options are refused with exit 2, before any
  write (no output directory, no job, no write in the device's stat);
- purge: `pts purge --purge=format` on qemu's emulated NVMe (a 256 MiB
  namespace, $SSDLOAD_NVME_PTS) leaves every byte of the namespace zero;
- a scaled IOPS run on that NVMe: all 56 cells in every round, a verdict
  that `pts ss-check` confirms on each of the rounds' three tracking
  variables (steady at the first window all three pass), the window's
  table, the report with every plot; the last round's pts.json counts equal
  the kept job's debugfs steps file exactly;
- scaled throughput and latency runs complete with their plots;
- wsat stops at exactly its write limit on the NVMe (SMART agrees), or at
  its time limit on a null_blk, with samples contiguous across segments;
- hir on a fixed-latency null_blk: preconditioning to the steady-state
  rule, five wait states whose access IOPS match the baseline (the device
  has nothing to recover), idle steps that are idle, a continuous timeline;
- xsr on the NVMe: three groups with their own stimulus and time;
- resume: a latency run on a fixed-latency null_blk, interrupted (SIGINT)
  in its third round and resumed, keeps its finished rounds and ends with
  the round count of an uninterrupted run.

Reports: the scaled runs pass --no-report.  Under `make check` (the bridge
sets SSDLOAD_HOST_RENDER=1) the host renders each kept run directory
($SSDLOAD_OUT/pts/NAME) after the guest and checks the report there, as
the items e2e[LABEL]::host-render::test_pts.py::TEST (tests/e2e/lib/
pts_report.py): matplotlib under TCG took ~250 s of this guest.  Without
the bridge the tests render and check in place.

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

import pytest

import hostload
import pts_report
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


def _take_kept(test):
    """The jobs a --keep-last-job run of TEST left, removed."""
    kept = [j for j in env.list_jobs() if j.startswith("pts-%s-" % test)]
    for j in kept:
        env.Job.existing(j).remove()
    return kept


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

def _check_report(request, d, name, plots, expect=(), csv_lines=None):
    """The report of the run in D, which ran with --no-report and was kept as
    $SSDLOAD_OUT/pts/NAME (_save_artifacts): under the bridge the host
    renders and checks that copy (tests/e2e/lib/pts_report.py, item
    e2e[LABEL]::host-render::...), so the guest records the request; else
    it is rendered here and checked as the host would: PLOTS, the strings
    of EXPECT in report.html, CSV_LINES {file: lines}."""
    out = pts_report.host_renders()
    if out:
        saved = os.path.join(out, "pts", name)
        assert os.path.exists(os.path.join(saved, "pts.json")), "no pts.json in " + saved
        assert not os.path.exists(os.path.join(d, "report.html")), \
            "--no-report rendered report.html"
        pts_report.append_request(out, request.node.nodeid, saved, plots, expect, csv_lines)
        return
    p = env.cli("report", d, timeout=900)
    assert p.returncode == 0, (p.stdout, p.stderr)
    pts_report.check_report(d, plots, expect, csv_lines)
    _save_artifacts(d, name)		# with the report


def _window_steady(values, r, tmp_path):
    """`pts ss-check` on rounds @r-4..@r of @values: whether that window passes."""
    series = tmp_path / "window.txt"
    series.write_text("".join("%.17g\n" % v for v in values[r - 5:r]))
    p = _pts("ss-check", "--json", str(series))
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)["steady"]


def _check_verdict_all(doc, max_rounds, tmp_path):
    """iops: steady at the first round whose window passes `pts ss-check`
    for each of its tracking variables (PTS 2.0.2 step 3.2.1.2.2)."""
    rounds, ss = doc["rounds"], doc["steady_state"]
    series = []
    for v in ss["variables"]:
        series.append([next(x["iops"] for x in r["points"] if x["bs"] == v["bs"] and
                            x["rwmixread"] == v["rwmixread"]) for r in rounds])
    assert [(v["bs"], v["rwmixread"]) for v in ss["variables"]] == \
        [(4096, 0), (65536, 65), (1048576, 100)]
    assert series[0] == [r["tracking"] for r in rounds]
    last = min(len(rounds), max_rounds)
    steady = next((r for r in range(5, last + 1)
                   if all(_window_steady(y, r, tmp_path) for y in series)), None)
    assert ss["reached"] == (steady is not None), (ss, steady)
    end = steady or last
    assert ss["round"] == steady
    assert ss["window"] == [end - 4, end]
    for v in ss["variables"]:
        assert v["window"] == [end - 4, end], v
    if steady:
        assert len(rounds) == steady
    else:
        assert len(rounds) == max_rounds
    return ss


def _check_verdict(doc, max_rounds, tmp_path, exact=False):
    """The verdict agrees with `pts ss-check` on the rounds' tracking values
    (@exact: --rounds=@max_rounds ran them all, steady or not)."""
    rounds = doc["rounds"]
    ss = doc["steady_state"]
    if ss.get("variables"):
        return _check_verdict_all(doc, max_rounds, tmp_path)
    vals = [r["tracking"] for r in rounds]
    assert all(v is not None and v > 0 for v in vals), vals
    series = tmp_path / "tracking.txt"
    series.write_text("".join("%.17g\n" % v for v in vals))
    p = _pts("ss-check", "--max-rounds=%d" % max_rounds, "--json", str(series))
    chk = json.loads(p.stdout)
    assert p.returncode == (0 if ss["reached"] else 1), (p.returncode, ss)
    assert chk["steady"] == ss["reached"]
    if exact:
        assert len(rounds) == max_rounds
        assert ss["round"] == chk["steady_round"]
    elif ss["reached"]:
        assert ss["round"] == len(rounds) == chk["steady_round"]
    else:
        assert len(rounds) == max_rounds
    assert ss["window"] == [chk["window"]["first_round"], chk["window"]["last_round"]]
    assert ss["average"] == pytest.approx(chk["window"]["average"], rel=1e-9)
    return ss


def test_iops_scaled(ssdload, pts_nvme, cli, outdir, tmp_path, request):  # pylint: disable=unused-argument
    max_rounds = 7
    p = _pts("iops", "--filename=" + pts_nvme.path, "--allow_write", "--output-dir=" + outdir,
             "--point-time=200ms", "--wipc=1", "--max-rounds=%d" % max_rounds,
             "--threads=2", "--iodepth=4", "--keep-last-job", "--no-report", "--eta=never",
             timeout=900)
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
    # each direction is averaged over the window as the total is
    for x in res:
        assert x["read"]["iops"] + x["write"]["iops"] == pytest.approx(x["iops"], rel=1e-9), x
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
    _check_report(request, outdir, "iops", ["ss_convergence.svg", "ss_window.svg",
                                            "iops_2d.svg", "iops_3d.svg"],
                  csv_lines={"measurement.csv": 1 + 7})


def test_throughput_scaled(ssdload, pts_nvme, cli, outdir, tmp_path, request):  # pylint: disable=unused-argument
    p = _pts("throughput", "--filename=" + pts_nvme.path, "--allow_write",
             "--output-dir=" + outdir, "--point-time=500ms", "--wipc=1", "--max-rounds=8",
             "--no-report", "--eta=never", timeout=600)
    _save_artifacts(outdir, "throughput")
    assert p.returncode in (0, 1), p.stderr
    doc = _load(outdir)
    assert doc["state"] == "complete"
    for r in doc["rounds"]:
        assert [(x["rwmixread"], x["bs"]) for x in r["points"]] == [(100, 1048576),
                                                                     (0, 1048576)]
        assert r["points"][0]["read"]["bw_bytes"] > 0 and r["points"][1]["write"]["bw_bytes"] > 0
    _check_verdict(doc, 8, tmp_path)
    _check_report(request, outdir, "throughput", ["ss_convergence.svg", "ss_window.svg"])


def test_latency_scaled(ssdload, pts_nvme, cli, outdir, tmp_path, request):  # pylint: disable=unused-argument
    """--rounds=6 runs all six rounds, steady or not; --window=4 --window-at=last
    averages rounds 3..6, whose percentiles come from their merged bins."""
    p = _pts("latency", "--filename=" + pts_nvme.path, "--allow_write",
             "--output-dir=" + outdir, "--point-time=300ms", "--wipc=0.5", "--rounds=6",
             "--window=4", "--window-at=last", "--no-report", "--eta=never", timeout=600)
    _save_artifacts(outdir, "latency")
    assert p.returncode in (0, 1), p.stderr
    doc = _load(outdir)
    assert doc["state"] == "complete"
    assert doc["settings"]["threads"] == 1 and doc["settings"]["iodepth"] == 1
    assert doc["results"]["window"] == [3, 6]
    ch = doc["results"]["window_choice"]
    assert (ch["rounds"], ch["at"], ch["spec"], ch["percentiles"]) == \
        (4, "last", False, "merged histograms")
    assert any("measurement window of 4 rounds" in x for x in doc["deviations"])
    for r in doc["rounds"]:
        for x in r["points"]:
            for d in (x["read"], x["write"]):
                assert sum(d.get("bins", {}).values()) == d["ios"], (r["round"], x)
    for x in doc["results"]["points"]:
        d = x["read"] if x["rwmixread"] else x["write"]
        assert d["lat_mean_ns"] > 0 and d["lat_max_ns"] >= d["lat_mean_ns"]
        assert float(d["percentiles"]["99.990000"]) <= d["lat_max_ns"]
    # each block size's random offsets aligned to itself where the device allows
    s, lbs = doc["settings"], doc["settings"]["logical_block_size"]
    assert s["blockalign_by_bs"] == {str(b): b if b % lbs == 0 else lbs
                                     for b in s["block_sizes"]}, s
    _check_verdict(doc, 6, tmp_path, exact=True)
    _check_report(request, outdir, "latency", ["ss_convergence.svg", "ss_window.svg",
                                               "latency_avg.svg", "latency_max.svg"])


# --------------------------------------------------------------------------
# wsat

def _check_series(doc):
    """The samples: numbered in order, contiguous in stimulus time across the
    segments (each `ssdload run`), bytes written cumulative."""
    ser, segs = doc["series"], doc["segments"]
    assert [x["sample"] for x in ser] == list(range(1, len(ser) + 1))
    assert sum(g["samples"] for g in segs) == len(ser)
    t = w = t0 = 0
    seg = 1
    for x in ser:
        # a segment's first sample starts where the previous segment ended;
        # within a run the samples leave no gap (each merges the workers'
        # intervals, whose ends differ by up to a TCG wake-up, so they may
        # overlap by that)
        if x["segment"] != seg:
            assert x["segment"] == seg + 1 and x["t_start_ms"] == t, (x, t)
            seg += 1
        assert t0 <= x["t_start_ms"] <= t + 0.5, (x, t)
        assert x["t_ms"] > x["t_start_ms"]
        t0 = x["t_start_ms"]
        w += x["ios"] * 4096
        assert x["written_bytes"] == w, x
        t = x["t_ms"]
    for g in segs:
        assert g["written_end_bytes"] - g["written_start_bytes"] == g["ios"] * 4096
        assert g["health_before"] is not None or doc["device"]["kind"] != "nvme"
    assert segs[-1]["written_end_bytes"] == w == doc["results"]["written_bytes"]
    return ser


def test_wsat_to_the_write_limit(ssdload, pts_nvme, cli, outdir, request):  # pylint: disable=unused-argument
    """64 MiB active range, write limit 2x: the test stops at exactly
    128 MiB written (--number_ios of the last segment), in segments of 30
    samples of 100 ms; the drive's SMART host write commands grow by at
    least the I/Os."""
    size = 64 << 20
    p = _pts("wsat", "--filename=" + pts_nvme.path, "--allow_write", "--output-dir=" + outdir,
             "--size=64m", "--write-limit=2", "--point-time=100ms", "--duration=10m",
             "--threads=2", "--iodepth=8", "--no-report", "--eta=never", timeout=900)
    _save_artifacts(outdir, "wsat")
    assert p.returncode == 0, p.stderr
    doc = _load(outdir)
    assert doc["state"] == "complete" and doc["test"] == "wsat"
    assert doc["purge"]["method"] in ("format", "sanitize") and doc["wipc"] is None
    assert doc["scaled"] and not doc["conformant"]
    assert any("write limit 2 x" in x for x in doc["deviations"]), doc["deviations"]
    assert not any("WIPC" in x for x in doc["deviations"]), doc["deviations"]
    st = doc["settings"]
    assert st["max_written_bytes"] == 2 * size and st["sample_ms"] == 100
    res = doc["results"]
    assert res["stopped_by"] == "write_limit"
    assert res["written_bytes"] == 2 * size and res["written_factor"] == 2
    ser = _check_series(doc)
    segs = doc["segments"]
    assert all(g["samples"] == 30 for g in segs[:-1]), [g["samples"] for g in segs]
    assert all(x["iops"] > 0 for x in ser[:-1])
    # each full sample is about 100 ms of stimulus (the kernel's interval;
    # the workers' intervals end up to a TCG wake-up apart)
    for x in ser[:-1]:
        assert x["t_ms"] - x["t_start_ms"] == pytest.approx(100, rel=0.2), x
    h0, h1 = doc["health_before"], doc["health_after"]
    assert h1["host_write_commands"] - h0["host_write_commands"] >= 2 * size // 4096
    full = len(segs) - (segs[-1]["samples"] < 30)	# a cut last segment is left out
    if full >= 5:
        assert res["steady_state"]["window"] == [full - 4, full]
        assert (res["steady_iops"] is not None) == res["steady_state"]["reached"]
    else:
        assert res["steady_state"] is None
    _check_report(request, outdir, "wsat", ["wsat_time.svg", "wsat_tgbw.svg"],
                  expect=["Write saturation"], csv_lines={"series.csv": 1 + len(ser)})
    assert not _no_pts_jobs()


def test_wsat_to_the_time_limit(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    """A time limit of 4 s in 100 ms samples: a segment of 30 samples, then
    one of 10, contiguous; stopped by time with far less than the write
    limit written."""
    dev = null_blk(irqmode=0, gb=1)[0]
    d = str(tmp_path / "wsat")
    p = _pts("wsat", "--filename=" + dev.path, "--allow_write", "--output-dir=" + d,
             "--purge=none", "--duration=4s", "--write-limit=64", "--point-time=100ms",
             "--threads=1",
             "--iodepth=4", "--no-report", "--eta=never", timeout=300)
    assert p.returncode == 0, p.stderr
    # --no-report: no report is named, the data and how to render it are
    assert "report:" not in p.stdout and "ssdload report " + d in p.stdout, p.stdout
    doc = _load(d)
    assert doc["purge"]["method"] == "none" and not doc["conformant"]
    assert any("time limit 4000 ms" in x for x in doc["deviations"]), doc["deviations"]
    res = doc["results"]
    assert res["stopped_by"] == "time_limit"
    assert res["written_bytes"] < 64 << 30
    assert [g["samples"] for g in doc["segments"]] == [30, 10]
    ser = _check_series(doc)
    assert len(ser) == 40
    assert res["duration_ms"] == pytest.approx(4000, abs=40)
    assert "stopped by the time limit" in p.stdout


# --------------------------------------------------------------------------
# hir

def _part_rate(x):
    """IOPS of a hir part over its samples' own time."""
    ms = sum(s["t_ms"] - s["t_start_ms"] for s in x["samples"])
    return sum(s["ios"] for s in x["samples"]) * 1000 / ms if ms > 0 else 0


def _hir_host_load(x, y, qd=4):
    """Evidence from the engine's records that the IOPS of hir parts @x
    and @y ({iops, lat_mean_ns, samples}) differ by the host's load, not
    the code's, else None.  Either way each part's IOPS must be its
    samples' (an accounting error is never the host's):
    - normalised by what the device delivered in each part (at most @qd /
      mean latency: the 1 ms timer fires later on a loaded host), the
      rates agree within the test's 20%;
    - or the slower part reached the faster one's rate (within 20%) in one
      of its samples and fell short in another: the code kept its depth
      while its vCPU ran."""
    for p in (x, y):
        if p["samples"] and abs(_part_rate(p) - p["iops"]) > 0.05 * p["iops"]:
            return None
    if not (x["lat_mean_ns"] and y["lat_mean_ns"]):
        return None
    fill = [p["iops"] * p["lat_mean_ns"] / 1e9 / qd for p in (x, y)]
    if max(fill) <= 1.02 and fill[0] == pytest.approx(fill[1], rel=0.2):
        return ("IOPS %.0f and %.0f at mean latencies %.2f and %.2f ms of a 1 ms device: "
                "%.2f and %.2f of %d I/Os in flight, the same rate per I/O in flight"
                % (x["iops"], y["iops"], x["lat_mean_ns"] / 1e6, y["lat_mean_ns"] / 1e6,
                   fill[0] * qd, fill[1] * qd, qd))
    slow, fast = sorted((x, y), key=lambda p: p["iops"])
    rates = [s["iops"] for s in slow["samples"]]
    if rates and max(rates) >= 0.8 * fast["iops"] > min(rates):
        return ("a part at %.0f IOPS against %.0f: its samples %s reach the other's rate "
                "in some and not in others" % (slow["iops"], fast["iops"],
                                               " ".join("%.0f" % r for r in rates)))
    return None


def test_hir_scaled(ssdload, null_blk, cli, tmp_path, request):  # pylint: disable=unused-argument
    """HIR on a 1 ms timer null_blk, T1Q4, scaled: 100 ms samples and access
    segments, 4 cycles per wait state.  The device has no garbage collection,
    so idling cannot change its rate: every wait state's access IOPS equals
    its baseline's and the preconditioning's (within 20%; under TCG the
    1 ms timer fires late, so that is below QD / 1 ms).  The
    idle steps are idle (the series between access segments is empty), and
    the timeline runs on without a gap from one part to the next."""
    dev = null_blk(irqmode=2, completion_nsec=1000000, gb=1)[0]
    d = str(tmp_path / "hir")
    p = _pts("hir", "--filename=" + dev.path, "--allow_write", "--output-dir=" + d,
             "--purge=none", "--point-time=100ms", "--max-rounds=8", "--access-time=100ms",
             "--cycles=4", "--threads=1", "--iodepth=4", "--no-report", "--eta=never",
             "--keep-last-job", timeout=600)
    _save_artifacts(d, "hir")
    # the last run's job is kept: the fifth return to baseline
    kept = _take_kept("hir")
    assert len(kept) == 1 and kept[0].endswith("-b5"), kept
    assert p.returncode in (0, 1), p.stderr
    doc = _load(d)
    assert doc["state"] == "complete" and doc["test"] == "hir" and doc["wipc"] is None
    assert any("access time 100 ms" in x for x in doc["deviations"])
    assert any("4 cycles per wait state" in x for x in doc["deviations"])
    segs = doc["segments"]
    ss = doc["steady_state"]
    assert 5 <= len(segs) <= 8 and ss["window"][1] == len(segs)
    assert (p.returncode == 0) == ss["reached"]
    assert ss["values"] == [g["iops"] for g in segs[-5:]]
    pre = doc["results"]["precondition_average_iops"]
    assert pre == pytest.approx(ss["average"])
    # the preconditioning's window as a part: its samples' mean latency
    win = {g["segment"] for g in segs[-5:]}
    smp = [x for x in doc["series"] if x["segment"] in win and x["ios"]]
    pre_part = {"iops": pre, "samples": [], "lat_mean_ns": sum(
        x["ios"] * x["lat_mean_ns"] for x in smp) / max(1, sum(x["ios"] for x in smp))}
    wss = doc["wait_states"]
    assert [w["wait_ms"] for w in wss] == [100, 200, 300, 500, 1000]
    assert doc["settings"]["wait_ms"] == [100, 200, 300, 500, 1000]
    t = segs and 0
    for w in wss:
        a, b = w["access"], w["baseline"]
        # 4 access segments of 100 ms, then 400 ms of writes
        assert len(a["samples"]) == 4 and len(b["samples"]) == 4, w
        assert a["t_start_ms"] == t and b["t_start_ms"] == a["t_end_ms"]
        cycle = 100 + w["wait_ms"]
        assert a["t_end_ms"] - a["t_start_ms"] == pytest.approx(4 * cycle, rel=0.1)
        # the run ends at its last completion: a 1 ms timer the host fires
        # tens of ms late (the part's own latency maximum) ends it that late
        over = b["t_end_ms"] - b["t_start_ms"] - 400
        with hostload.guard(lambda: b["lat_max_ns"] >= 10e6 and
                            over <= b["lat_max_ns"] / 1e6 + 40 and
                            "the baseline ran %.0f ms over its 400, its slowest I/O on a 1 ms "
                            "device took %.0f ms" % (over, b["lat_max_ns"] / 1e6)):
            assert b["t_end_ms"] - b["t_start_ms"] == pytest.approx(400, rel=0.1)
        t = b["t_end_ms"]
        # every sample did I/O, and none beat the device (4 in flight, 1 ms
        # each); a single 100 ms sample is no measure of the rate: a host
        # stall under TCG took one to 0.57 of the rest (CI), so the rate is
        # compared over the wait state's samples together, below
        for x in a["samples"] + b["samples"]:
            assert 0 < x["ios"] and x["iops"] <= 1.02 * 4 / 1e-3, (w["state"], x)
        # a busy host slows one part and not the other: the engine's
        # latencies and samples tell (a skip with them)
        with hostload.guard(lambda: _hir_host_load(a, b)):
            assert a["iops"] == pytest.approx(b["iops"], rel=0.2), w
        with hostload.guard(lambda: _hir_host_load(a, pre_part)):
            assert a["iops"] == pytest.approx(pre, rel=0.2), w
        # one step per access segment and per wait: the samples are the access
        # steps, every I/O is in one, and the waits are idle
        assert sum(x["ios"] for x in a["samples"]) == a["ios"]
        with open(os.path.join(d, a["run_file"])) as f:
            steps = json.load(f)["jobs"][0]["steps"]
        assert [x["idle_ms"] for x in steps] == [0, w["wait_ms"]] * 4
        assert [x["write"]["total_ios"] for x in steps[::2]] == [x["ios"] for x in a["samples"]]
        assert all(x["write"]["total_ios"] == 0 for x in steps[1::2])
        for x in steps[1::2]:
            assert x["runtime_ns"] >= w["wait_ms"] * 1e6
    res = doc["results"]["wait_states"]
    assert [r["state"] for r in res] == [1, 2, 3, 4, 5]
    assert [r["vs_precondition"] for r in res] == \
        pytest.approx([w["access"]["iops"] / pre for w in wss]), res
    _check_report(request, d, "hir", ["hir_precondition.svg", "hir_time.svg", "hir_wait.svg",
                                      "ss_window.svg"], csv_lines={"wait_states.csv": 6})
    assert "access IOPS" in p.stdout


# --------------------------------------------------------------------------
# xsr

def test_xsr_scaled(ssdload, pts_nvme, cli, outdir, request):  # pylint: disable=unused-argument
    """XSR on the NVMe, scaled to SEQ segments of 2 s and an RND one of 1.5 s
    in 200 ms samples: each group runs its own stimulus (the run files'
    bytes per I/O are 1 MiB, 8 KiB, 1 MiB), for its planned stimulus time,
    and the samples are gap-free across all of them."""
    p = _pts("xsr", "--filename=" + pts_nvme.path, "--allow_write", "--output-dir=" + outdir,
             "--size=64m", "--duration=2s", "--point-time=200ms", "--no-report", "--eta=never",
             timeout=600)
    _save_artifacts(outdir, "xsr")
    assert p.returncode == 0, p.stderr
    doc = _load(outdir)
    assert doc["state"] == "complete" and doc["test"] == "xsr" and doc["wipc"] is None
    assert doc["settings"]["threads"] == 1 and doc["settings"]["iodepth"] == 32
    assert [g["duration_ms"] for g in doc["settings"]["groups"]] == [2000, 1500, 2000]
    assert any("SEQ segments of 2000 ms" in x for x in doc["deviations"])
    segs = doc["segments"]
    assert [g["group"] for g in segs] == sorted(g["group"] for g in segs)
    assert {g["group"] for g in segs} == {1, 2, 3}
    for g in segs:
        want = 8192 if g["group"] == 2 else 1048576
        assert g["bs"] == want and g["rw"] == ("randwrite" if g["group"] == 2 else "write")
        with open(os.path.join(outdir, g["run_file"])) as f:
            w = json.load(f)["jobs"][0]["write"]
        assert w["total_ios"] == g["ios"] > 0 and w["io_bytes"] == g["ios"] * want
    ser = doc["series"]
    t = 0
    for x in ser:
        assert x["t_start_ms"] <= t + 0.5 and x["t_ms"] > x["t_start_ms"], (x, t)
        t = x["t_ms"]
    res = {g["group"]: g for g in doc["results"]["groups"]}
    for k, ms in ((1, 2000), (2, 1500), (3, 2000)):
        assert res[k]["duration_ms"] == pytest.approx(ms, rel=0.05), res[k]
        assert res[k]["samples"] == len([x for x in ser if x["group"] == k])
        assert res[k]["lat_mean_ns"] > 0 and res[k]["lat_max_ns"] >= res[k]["lat_mean_ns"]
    # 8 KiB writes make many more I/Os than 1 MiB ones, far fewer bytes
    assert res[2]["iops"] > 2 * res[1]["iops"] and res[2]["bw_bytes"] < res[1]["bw_bytes"]
    rec = doc["results"]["recovery_ms"]
    assert rec is None or 0 < rec <= res[3]["duration_ms"] + 50
    _check_report(request, outdir, "xsr", ["xsr_bw.svg", "xsr_lat.svg"])
    assert "group 3" in p.stdout


# --------------------------------------------------------------------------
# resume

def _latency_args(dev, d):
    # a fixed 10 ms device: the tracking variable is steady from round 1
    # (TCG's wake-up jitter of 0.1-0.3 ms is a small part of it; on a 200 us
    # device it once took the reference run a sixth round, and on a 2 ms
    # one a busy host's timer delays of a ms or more kept it from steady
    # state for 8 rounds)
    return ["pts", "latency", "--filename=" + dev.path, "--allow_write", "--output-dir=" + d,
            "--purge=none", "--wipc=0", "--point-time=250ms", "--max-rounds=8",
            "--no-report", "--eta=never"]


def _pts_job_wrote(min_ms):
    """A pts job is running, has written and run for @min_ms (progress)."""
    for name in _no_pts_jobs():
        try:
            p = env.Job.existing(name).progress()
        except (OSError, ValueError):
            continue
        if p.get("state") == "running" and int(p.get("write_ios", 0)) > 0 and \
                int(p.get("elapsed_ns", 0)) >= min_ms * 1e6:
            return True
    return False


def _interrupt(cli, args, d, key, n, delay, ready=None):
    """Run `ssdload ARGS`, SIGINT it @delay s after DIR's pts.json has @n
    entries in @key (and then once @ready() is true: on a busy host the
    next run may not have started), and check that it stopped with 130;
    its stderr."""
    proc = subprocess.Popen([cli] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, proc.communicate()
            try:
                if len(_load(d)[key]) >= n:
                    break
            except (OSError, ValueError, KeyError):
                pass
            assert time.monotonic() < deadline, "no %s %d in 120 s" % (key, n)
            time.sleep(0.1)
        time.sleep(delay)
        while ready and not ready():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "not ready to interrupt in 120 s"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (out, err)
    return err


def _window_excess(vals, last):
    """The spec's steady-state tests (range 20%, slope excursion 10% of
    the average) on the 5 rounds ending at round @last of @vals: a text
    naming what failed, or None when the window is steady."""
    y = vals[last - 5:last]
    if len(y) < 5:
        return None
    avg = sum(y) / 5
    slope = sum((i - 2) * (v - avg) for i, v in enumerate(y)) / 10
    rng, exc = (max(y) - min(y)) / avg, abs(slope) * 4 / avg
    if rng <= 0.2 and exc <= 0.1:
        return None
    return "rounds %d-%d: range %.0f%%, slope excursion %.0f%% of the average" % (
        last - 4, last, 100 * rng, 100 * exc)


def _ss_host_noise(doc):
    """Evidence that a latency run's rounds missed steady state, or
    reached it late, for the host's load: every window the CLI passed over
    really fails the spec's tests on the rounds' own tracking values,
    which a fixed-latency device leaves to the host's timer delays.  None
    when one of those windows was steady (the CLI should have stopped
    there) or the values are below the device's latency."""
    vals = [r["tracking"] for r in doc["rounds"]]
    if not vals or min(vals) < 10e6:
        return None
    ends = range(5, len(vals) + (0 if doc["steady_state"]["reached"] else 1))
    why = [_window_excess(vals, k) for k in ends]
    if not why or not all(why):
        return None
    return "tracking values %s ms: %s" % (
        " ".join("%.2f" % (v / 1e6) for v in vals), "; ".join(why))


def test_resume_after_sigint(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    dev = null_blk(irqmode=2, completion_nsec=10000000, gb=1)[0]
    ref = str(tmp_path / "ref")
    p = env.cli(*_latency_args(dev, ref), timeout=300)
    with hostload.guard(lambda: _ss_host_noise(_load(ref))):
        assert p.returncode == 0, p.stderr
    n_ref = len(_load(ref)["rounds"])

    d = str(tmp_path / "cut")
    err = _interrupt(cli, _latency_args(dev, d), d, "rounds", 2, 0.5)	# in round 3
    cut = _load(d)
    assert cut["state"] == "interrupted" and len(cut["rounds"]) >= 2
    assert "--resume=" + d in err
    assert not _no_pts_jobs()
    done_before = [r["started"] for r in cut["rounds"]]

    p = env.cli("pts", "--resume=" + d, timeout=300)
    doc = _load(d)
    assert doc["state"] == "complete"
    assert [r["started"] for r in doc["rounds"][:len(done_before)]] == done_before
    assert doc["resumed"] and doc["resumed"][0]["after_round"] == len(done_before)
    assert [r["round"] for r in doc["rounds"]] == list(range(1, len(doc["rounds"]) + 1))
    # the resumed run ends at the reference's round, unless its own rounds
    # prove that the host's load kept it from steady state until later
    longer = p.returncode or len(doc["rounds"]) > n_ref
    with hostload.guard(lambda: _ss_host_noise(doc if longer else _load(ref))):
        assert p.returncode == 0, p.stderr
        assert len(doc["rounds"]) == n_ref
    # a finished test cannot be resumed again
    p = env.cli("pts", "--resume=" + d)
    assert p.returncode == 2 and "complete" in p.stderr


def test_wsat_resume_after_sigint(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    """wsat interrupted in its second segment and resumed: the finished
    segment stays, the interrupted one keeps what it wrote (a short segment
    marked interrupted), the rest runs from where it ended, and the test
    ends at its time limit with a gap-free series and a deviation for the
    idle interruption."""
    dev = null_blk(irqmode=0, gb=1)[0]
    d = str(tmp_path / "wsat")
    args = ["pts", "wsat", "--filename=" + dev.path, "--allow_write", "--output-dir=" + d,
            "--purge=none", "--duration=6s", "--write-limit=64", "--point-time=100ms",
            "--threads=1",
            "--iodepth=4", "--no-report", "--eta=never"]
    # in segment 2, once it wrote for 3 samples
    _interrupt(cli, args, d, "segments", 1, 1.0, lambda: _pts_job_wrote(300))
    cut = _load(d)
    assert cut["state"] == "interrupted" and len(cut["segments"]) == 2
    first, part = cut["segments"]
    assert part["interrupted"] and 0 < part["samples"] < 30 and part["ios"] > 0
    assert not first.get("interrupted")
    p = env.cli("pts", "--resume=" + d, timeout=300)
    assert p.returncode == 0, p.stderr
    doc = _load(d)
    assert doc["state"] == "complete" and doc["resumed"][0]["after_segment"] == 2
    assert any("resumed after an interruption" in x for x in doc["deviations"])
    assert doc["segments"][:2] == [first, part]
    assert len(doc["segments"]) == 3
    assert doc["segments"][2]["t_start_ms"] == part["t_end_ms"]
    assert doc["results"]["stopped_by"] == "time_limit"
    assert doc["results"]["duration_ms"] == pytest.approx(6000, abs=60)
    _check_series(doc)
    assert not _no_pts_jobs()



# --------------------------------------------------------------------------
# ecw, dirth: demand intensity

def _check_demand(doc, d, tcs, qds, max_rounds, tmp_path):
    """What ECW and DIRTH share: the preconditioning's segments, rounds of
    TC x QD points high to low with a pre-write each, the rounds' verdict,
    and the three operating points with their pre-writes and measurements."""
    assert doc["state"] == "complete"
    pc = doc["precondition"]
    assert 5 <= pc["segments"] <= max_rounds == doc["settings"]["max_rounds"]
    assert pc["steady_state"]["window"][1] == pc["segments"] == len(doc["segments"])
    assert doc["settings"]["tc_list"] == tcs and doc["settings"]["qd_list"] == qds
    assert any("TC %s x QD %s" % (",".join(map(str, tcs)), ",".join(map(str, qds))) in x
               for x in doc["deviations"])
    rounds = doc["rounds"]
    ss = _check_verdict(doc, max_rounds, tmp_path)
    for r in rounds:
        loads = [(p["tc"], p["qd"]) for p in r["points"]]
        assert loads == [(t, q) for t in tcs for q in qds], loads
        assert r["tracking"] == r["points"][0]["iops"]
        # the pre-write: 5 points of writes at the highest load
        pw = r["prewrite"]
        assert (pw["tc"], pw["qd"]) == (tcs[0], qds[0]) and pw["ios"] > 0
        assert 4 <= len(pw["samples"]) <= 5, pw["samples"]
        for p in r["points"]:
            assert p["toio"] == p["tc"] * p["qd"]
            assert p["read"]["ios"] > 0 and p["write"]["ios"] > 0, p
            assert p["runtime_ms"] == pytest.approx(100, rel=0.2), p
        assert len(r["run_files"]) == len(tcs)
        for rel in r["run_files"]:
            with open(os.path.join(d, rel)) as f:
                steps = json.load(f)["jobs"][0]["steps"]
            assert [s["params"]["iodepth"] for s in steps] == qds
    # the window's averages are the points of the results
    res = doc["results"]["points"]
    first, last = ss["window"]
    for k, p in enumerate(res):
        vals = [r["points"][k]["iops"] for r in rounds[first - 1:last]]
        assert p["iops"] == pytest.approx(sum(vals) / len(vals), rel=1e-9)
        assert p["read"]["iops"] + p["write"]["iops"] == pytest.approx(p["iops"], rel=1e-9)
        assert (p["tc"], p["qd"]) == (tcs[k // len(qds)], qds[k % len(qds)])
    ops = doc["operating_points"]
    assert [o["label"] for o in ops] == ["MaxIOPS", "MidIOPS", "MinIOPS"]
    under = [p for p in res if p["lat_mean_ns"] < 5e6]
    best = max(under, key=lambda p: p["iops"])
    assert (ops[0]["tc"], ops[0]["qd"]) == (best["tc"], best["qd"])
    assert (ops[2]["tc"], ops[2]["qd"]) == (tcs[-1], qds[-1])
    mid = (best["iops"] + min(p["iops"] for p in under)) / 2
    near = min(abs(p["iops"] - mid) for p in under)
    assert abs(ops[1]["window_iops"] - mid) == pytest.approx(near)
    for o in ops:
        pw, m = o["prewrite"], o["measure"]
        assert (pw["tc"], pw["qd"]) == (o["tc"], o["qd"]) == (m["tc"], m["qd"])
        assert 55 <= len(pw["samples"]) <= 60, len(pw["samples"])
        assert pw["runtime_ms"] == pytest.approx(6000, rel=0.1)
        assert m["runtime_ms"] == pytest.approx(1000, rel=0.1)
        h = m["rt_histogram"]
        total = sum(sum(h[u].values()) for u in ("ns", "us", "ms"))
        assert total == pytest.approx(100, abs=1), h
        assert m["lat_max_ns"] >= m["lat_mean_ns"] > 0
    return res, ops


def test_dirth_scaled(ssdload, null_blk, cli, tmp_path, request):  # pylint: disable=unused-argument
    """DIRTH on a 1 ms timer null_blk, scaled: TC 2,1 x QD 4,1, 100 ms
    points.  Such a device answers every I/O in 1 ms whatever the load, so
    each point's IOPS is TOIO / 1 ms (Little's law, within the guest's timer
    slack) at an ART of about 1 ms; MaxIOPS is T2Q4, MinIOPS T1Q1 and MidIOPS
    T1Q4 (4 of 8 x 1000 IOPS is the nearest to the middle of 1000 and 8000)."""
    dev = null_blk(irqmode=2, completion_nsec=1000000, gb=1)[0]
    d = str(tmp_path / "dirth")
    p = _pts("dirth", "--filename=" + dev.path, "--allow_write", "--output-dir=" + d,
             "--purge=none", "--wipc=0", "--point-time=100ms", "--max-rounds=6",
             "--tc-list=1,2", "--qd-list=4,1", "--no-report", "--eta=never",
             "--keep-last-job", timeout=900)
    _save_artifacts(d, "dirth")
    kept = _take_kept("dirth")
    assert len(kept) == 1 and kept[0].endswith("-op3"), kept
    assert p.returncode in (0, 1), p.stderr
    doc = _load(d)
    assert doc["test"] == "dirth" and doc["wipc"] is None
    assert doc["settings"]["rwmixread"] == [65] and doc["settings"]["bssplit"] is None
    # RND 8 KiB: aligned to 8 KiB (the null_blk's logical block is 512 B)
    assert doc["settings"]["blockalign"] == 8192
    assert doc["settings"]["blockalign_rule"] == "the block size"
    # the CPU utilisation page's figures: one per TC's run, and per operating
    # point (a 1-worker run of 100 ms points may be charged no tick: >= 0)
    cpus = [c for r in doc["rounds"] for c in r["cpu"]]
    cpus += [o["measure"]["cpu"] for o in doc["operating_points"]]
    assert [c["tc"] for c in doc["rounds"][0]["cpu"]] == [2, 1]
    for c in cpus:
        assert c["cpu_ns"] >= 0 and c["usr_pct"] is not None and c["host_pct"] >= 0, c
        assert c["cpu_ns"] == c["usr_cpu_ns"] + c["sys_cpu_ns"], c
    assert sum(c["cpu_ns"] for c in cpus) > 0
    assert doc["results"]["window_choice"]["percentiles"] == "merged histograms"
    res, ops = _check_demand(doc, d, [2, 1], [4, 1], 6, tmp_path)
    for pt in res:
        assert 0.8e6 <= pt["lat_mean_ns"] <= 2e6, pt
        assert pt["iops"] == pytest.approx(pt["toio"] * 1000 / (pt["lat_mean_ns"] / 1e6),
                                           rel=0.15), pt
        share = pt["read"]["iops"] / pt["iops"]
        assert 0.55 <= share <= 0.75, pt
    assert [(o["tc"], o["qd"]) for o in ops] == [(2, 4), (1, 4), (1, 1)]
    # the 1 ms device: nearly every response in fio's 1-2 ms bucket ("2")
    for o in ops:
        assert o["measure"]["rt_histogram"]["ms"]["2"] >= 80, o["measure"]["rt_histogram"]
    _check_report(request, d, "dirth", ["demand_variation.svg", "demand_intensity.svg",
                                        "rt_histogram.svg", "steady_state.svg"],
                  expect=["MaxIOPS", "T2Q4"])
    assert p.stdout.count("MaxIOPS") == 1 and "T1Q4" in p.stdout


def test_ecw_scaled(ssdload, null_blk, cli, tmp_path, request):  # pylint: disable=unused-argument
    """ECW on a null_blk without delay, scaled: TC 2,1 x QD 2,1.  The points
    run ECW's 40/60 mix of its 12 block sizes: the mean write size is the
    table's (7818 bytes) within the sampling error of a few thousand I/Os."""
    dev = null_blk(irqmode=0, gb=1)[0]
    d = str(tmp_path / "ecw")
    p = _pts("ecw", "--filename=" + dev.path, "--allow_write", "--output-dir=" + d,
             "--purge=none", "--wipc=0", "--point-time=100ms", "--max-rounds=5",
             "--tc-list=2,1", "--qd-list=2,1", "--no-report", "--eta=never", timeout=900)
    _save_artifacts(d, "ecw")
    assert p.returncode in (0, 1), p.stderr
    assert not _no_pts_jobs()
    doc = _load(d)
    assert doc["test"] == "ecw" and doc["settings"]["rwmixread"] == [40]
    assert doc["settings"]["random_distribution"] == "zoned:50/5:30/15:20/80"
    res, _ = _check_demand(doc, d, [2, 1], [2, 1], 5, tmp_path)
    mean_bs = (0.04 * 512 + 0.01 * (1024 + 1536 + 2048 + 2560 + 3072 + 3584) +
               0.67 * 4096 + 0.10 * 8192 + 0.07 * 16384 + 0.03 * 32768 + 0.03 * 65536)
    ios = sum(r["points"][k]["write"]["ios"] for r in doc["rounds"] for k in range(4))
    nbytes = sum(r["points"][k]["write"]["bytes"] for r in doc["rounds"] for k in range(4))
    assert nbytes / ios == pytest.approx(mean_bs, rel=0.15), (nbytes, ios)
    for pt in res:
        assert pt["bs"] is None and pt["bssplit"].startswith("512/4:")
        share = pt["read"]["iops"] / pt["iops"]
        assert 0.3 <= share <= 0.5, pt
    _check_report(request, d, "ecw", ["demand_variation.svg", "demand_intensity.svg",
                                      "rt_histogram.svg", "op_prewrites.svg",
                                      "precondition.svg"],
                  expect=["50% of the accesses to the first 5%"])
