# SPDX-License-Identifier: GPL-2.0
"""fio's own tools on ssdload's output (issue 11): what a fio user feeds
ssdload's results to must work.

- fio_jsonplus_clat2csv (Debian's fio package) turns `--output-format=json+`
  into a CSV of at least 100 latency rows whose cumulative percentiles give
  ssdload's p50 and p99 (exactly: the bins are keyed by the values the
  percentiles report), and passes its own --validate.
- fio2gnuplot takes the bw and iops logs (--write_bw_log, --write_iops_log,
  --log_avg_msec) of the same run and writes its plot data, one point per
  log line.
- disk_util (fio's, from /sys/block/<dev>/stat over the run): the idle
  null_blk's read and write ios are exactly the job's, util in (0, 100].

One 2 s run on a memory-less null_blk; 6.1 only (the shortest phase of
make check: the JSON is built by the CLI, not by the kernel).
"""
import json
import os
import shutil
import subprocess

import pytest

import fiotools
import ssdload_env as env

KERNELS = ("6.1",)


def test_jsonplus_and_logs(ssdload, nullb, cli, tmp_path):
    if env.kernel_label() not in KERNELS:
        pytest.skip("fio's tools run on %s only (time budget); this is %s"
                    % ("/".join(KERNELS), env.kernel_label()))
    tool = shutil.which("fio_jsonplus_clat2csv")
    if not tool:
        pytest.skip("fio_jsonplus_clat2csv (Debian's fio package) is not in the guest")
    src = tmp_path / "plus.json"
    p = env.cli("run", "--name=e2e-jsonplus", "--filename=" + nullb.path, "--rw=randrw",
                "--bs=4k", "--iodepth=8", "--runtime=2s", "--time_based",
                "--allow_write", "--output-format=json+",
                "--output=" + str(src), "--write_bw_log=" + str(tmp_path / "r"),
                "--write_iops_log=" + str(tmp_path / "r"), "--log_avg_msec=500", timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "", "--output left the report on stdout"
    doc = json.loads(src.read_text())
    head, rows = fiotools.clat2csv(tool, src, tmp_path / "lat")
    assert len(rows) >= 100, "fio_jsonplus_clat2csv wrote %d rows" % len(rows)
    for d in ("read", "write"):
        lat = doc["jobs"][0][d]["clat_ns"]
        assert sum(lat["bins"].values()) == lat["N"] == doc["jobs"][0][d]["total_ios"] > 0
        for pct in (50, 99):
            theirs = fiotools.csv_percentile(head, rows, d, pct)
            ours = lat["percentile"]["%f" % pct]
            assert theirs == ours, "%s p%d: fio_jsonplus_clat2csv %d ns, ssdload %d ns" % (
                d, pct, theirs, ours)
    assert not os.path.exists("/sys/kernel/config/ssdload/jobs/e2e-jsonplus")
    du = doc["disk_util"]
    assert [u["name"] for u in du] == [os.path.basename(nullb.path)], du
    job = doc["jobs"][0]
    assert du[0]["read_ios"] == job["read"]["total_ios"], (du, job["read"]["total_ios"])
    assert du[0]["write_ios"] == job["write"]["total_ios"], du
    assert 0 < du[0]["util"] <= 100.0 and du[0]["read_merges"] == 0, du

    # the logs: 500 ms lines of one worker, read and write
    with open(str(tmp_path / "r_iops.1.log")) as f:
        iops = [[int(x) for x in l.split(",")] for l in f if l.strip()]
    assert {r[2] for r in iops} == {0, 1}, iops
    assert all(r[3:] == [0, 0] for r in iops)
    assert 3 <= len(iops) <= 2 * 6, iops       # 2 s in 500 ms windows, two directions
    tool = shutil.which("fio2gnuplot")
    if not tool:
        pytest.skip("fio2gnuplot (Debian's fio package) is not in the guest")
    for kind, flag in (("bw", "-b"), ("iops", "-i")):
        d = tmp_path / ("plot-" + kind)
        t = subprocess.run([tool, flag, "-d", str(d)], cwd=str(tmp_path),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=300)
        assert t.returncode == 0 and "r_%s.1.log" % kind in t.stdout, t.stdout
        with open(str(d / "gnuplot_temp_file.0")) as f:
            pts = [l for l in f if l.strip() and not l.startswith("#")]
        with open(str(tmp_path / ("r_%s.1.log" % kind))) as f:
            assert len(pts) == sum(1 for l in f if l.strip())
        assert (d / "result.average").exists()
