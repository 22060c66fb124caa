# SPDX-License-Identifier: GPL-2.0
"""ssdload curve: the max run, the open-loop points, both latencies, the
early stop and vdbench's flatfile.

- accuracy, on an irqmode=0 null_blk (it completes every I/O inline, so it
  keeps up with any rate the worker can send): every point's achieved
  IOPS within 2% of its target.  The max is measured first at QD 1, and
  the points are fractions of it that the rate control under TCG can time
  (test_rate.py checks 1k-50k IOPS to 1%);
- a 1 ms timer null_blk at QD 4 driven past what it can do (150% of its
  measured max): submit-to-completion latency stays at the device's,
  while the latency from the intended send time grows far beyond it; at
  10% the two agree; the table shows both, and --stopcurve-intended stops
  the curve there, the points after it not run;
- the flatfile: vdbench's column names, a row per point, its numbers the
  ones of curve.json.

Kernel: 6.1 (SSDLOAD_CURVE_KERNELS).  The curve is the CLI's method over
the module's rate control, and the rates are timed on the stock kernels
(ssdload_env.need_timing_kernel); the rate control itself is tested on
every kernel by test_rate.py, so one stock kernel is enough here (the
time budget: 48 s a kernel).
"""

import csv
import json
import os

import pytest

import hostload
import ssdload_env as env

MS = 10**6
CURVE_KERNELS = os.environ.get("SSDLOAD_CURVE_KERNELS", "6.1").split()


@pytest.fixture(autouse=True)
def _timing_kernel():
    env.need_timing_kernel()
    if env.kernel_label() not in CURVE_KERNELS:
        pytest.skip("curve runs on kernel %s only (SSDLOAD_CURVE_KERNELS): the method is "
                    "the CLI's, the rate control is test_rate.py's on every kernel"
                    % " ".join(CURVE_KERNELS))


def _curve(dev, out, *extra, report=False):
    # rendering the report under TCG on a busy host took over 300 s
    return env.cli("curve", "--filename=" + dev.path, "--output-dir=%s" % out,
                   "--ramp_time=200ms", "--runtime=1s", "--eta=never",
                   *(extra if report else extra + ("--no-report",)),
                   timeout=900 if report else 300)


def _doc(out):
    return json.loads((out / "curve.json").read_text())


@pytest.mark.timing
def test_curve_points_on_target(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    dev = null_blk(irqmode=0)[0]
    out = tmp_path / "cv"
    # the max at QD 1 is some 10^5 IOPS under TCG; 2-20% of it is 2k-40k
    p = _curve(dev, out, "--iodepth=1", "--curve=2,5,10,20")
    assert p.returncode == 0, p.stdout + p.stderr
    doc = _doc(out)
    assert doc["format"] == "ssdload-curve" and doc["state"] == "done", doc["state"]
    assert doc["command"].startswith("ssdload curve "), doc["command"]
    mx = doc["max"]
    assert mx["label"] == "max" and mx["target_iops"] is None and mx["intended"] is None
    assert doc["max_iops"] == mx["iops"] > 10000, mx
    assert [q["pct"] for q in doc["points"]] == [2, 5, 10, 20]
    for q in doc["points"]:
        assert q["target_iops"] == pytest.approx(q["pct"] / 100 * mx["iops"], abs=1)
        job = json.loads((out / q["run_json"]).read_text())["jobs"][0]
        with hostload.guard(lambda: hostload.rate_evidence(hostload.cli_rate_summary(job),
                                                           ("read",))):
            assert abs(q["ratio"] - 1) <= 0.02, (q["label"], q["iops"], q["target_iops"])
        assert q["iops"] == pytest.approx(q["ratio"] * q["target_iops"])
        # every measured I/O had an intended time; none left late on this device
        assert q["intended"] is not None and q["read"]["ios"] == q["ios"] > 0
        assert q["intended"]["lat_mean_ns"] >= q["lat_mean_ns"] * 0.999, q
        assert q["read_pct"] == 100 and "write" not in q
        ps = [x[0] for x in q["read"]["percentiles"]]
        assert ps == sorted(ps) and 99.9999 in ps and 50.0 in ps
        assert len(q["read"]["intended_percentiles"]) == len(ps)
        run = json.loads((out / q["run_json"]).read_text())
        rate = run["jobs"][0]["read"]["rate"]
        assert rate["iops_target"] == round(q["target_iops"]), rate
        assert rate["process"] == "poisson"
    # the run files and the flatfile
    assert (out / "run-max.json").exists() and (out / "run-20.json").exists()
    rows = list(csv.DictReader((out / "flatfile.csv").open()))
    assert [r["Run"] for r in rows] == ["max", "2%", "5%", "10%", "20%"]
    for r, q in zip(rows, [mx] + doc["points"]):
        assert r["Interval"] == "avg" and r["threads"] == "1" and r["rdpct"] == "100"
        assert float(r["rate"]) == pytest.approx(q["iops"], abs=0.01)
        assert float(r["reqrate"]) == pytest.approx(q["target_iops"] or 0, abs=0.05)
        assert float(r["resp"]) == pytest.approx(q["lat_mean_ns"] / 1e6, abs=0.0005)
        assert float(r["MB/sec"]) == pytest.approx(q["bw_bytes"] / 2**20, abs=0.005)
        assert float(r["bytes/io"]) == 4096 and float(r["read%"]) == 100
        assert float(r["xfersize"]) == 4096
    # the table: a row per point, both latencies
    assert "resp mean" in p.stdout and "int. mean" in p.stdout, p.stdout
    for lab in ("max", "2%", "5%", "10%", "20%"):
        assert any(line.split()[:1] == [lab] for line in p.stdout.splitlines()), lab


@pytest.mark.timing
def test_curve_past_capacity_and_stop(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    """A 1 ms timer device at QD 4 can do at most 4000 IOPS.  At 150% of its
    measured max the schedule runs ahead of it: each I/O still takes ~1 ms
    from submit, but leaves later and later after its intended time, so the
    latency from the intended time passes the 5 ms bound and the curve
    stops; 200% is not run."""
    dev = null_blk(irqmode=2, completion_nsec=MS)[0]
    out = tmp_path / "cv"
    p = _curve(dev, out, "--iodepth=4", "--curve=10,150,200", "--stopcurve-intended=5ms",
               "--stopcurve=1s")
    assert p.returncode == 0, p.stdout + p.stderr
    doc = _doc(out)
    assert doc["state"] == "stopped", doc["state"]
    mx = doc["max"]
    assert 0.5 * 4000 <= mx["iops"] <= 1.02 * 4000, mx
    assert len(doc["points"]) == 2, p.stdout
    low, high = doc["points"]
    assert (low["pct"], high["pct"]) == (10, 150)
    assert doc["skipped_pct"] == [200]
    assert doc["stop"]["pct"] == 150 and "--stopcurve-intended=5" in doc["stop"]["reason"]
    # at 10% the device keeps up: both latencies are the device's
    assert MS <= low["lat_mean_ns"] <= env.p50_slop() * MS, low
    # (medians, as test_rate.py: the worker wakes for a send as late as the
    # device's timer fires, and a CI host's stalls move the means by ms)
    lat, ilat = low["lat_p50_ns"], low["intended"]["lat_p50_ns"]
    timer = max(0, lat - MS)
    assert lat <= ilat <= 1.1 * lat + 2 * timer, low
    assert abs(low["ratio"] - 1) <= 0.05, low
    # past it: the rate is not met, submit-to-completion stays bounded by the
    # depth, the intended-time latency is far beyond
    assert high["iops"] <= 1.02 * 4000 and high["ratio"] < 0.9, high
    assert high["lat_mean_ns"] < 5 * MS, high
    assert high["intended"]["lat_mean_ns"] > 5 * MS, high
    assert high["intended"]["lat_mean_ns"] > 3 * high["lat_mean_ns"], high
    assert high["intended"]["late_ios"] > 0, high
    assert "stopped at 150%" in p.stdout and "not run: 200%" in p.stdout, p.stdout
    assert not (out / "run-200.json").exists()


@pytest.mark.timing
def test_curve_max_given_and_mix(ssdload, null_blk, cli, tmp_path):  # pylint: disable=unused-argument
    """--max-iops skips the max run; a 70/30 mix splits each point's rate
    into 70% reads and 30% writes; the report renders from curve.json."""
    dev = null_blk(irqmode=0)[0]
    out = tmp_path / "cv"
    p = _curve(dev, out, "--max-iops=20000", "--curve=10,50", "--rw=randrw",
               "--rwmixread=70", "--allow_write", "--output-format=json", report=True)
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads(p.stdout)
    assert doc == _doc(out)
    assert doc["max"] is None and doc["max_iops"] == 20000
    assert doc["settings"]["max_iops_given"] == 20000 and doc["settings"]["rwmixread"] == 70
    assert not (out / "run-max.json").exists()
    for q, tgt in zip(doc["points"], (2000, 10000)):
        run = json.loads((out / q["run_json"]).read_text())["jobs"][0]
        assert run["read"]["rate"]["iops_target"] == round(0.7 * tgt)
        assert run["write"]["rate"]["iops_target"] == round(0.3 * tgt)
        assert q["target_iops"] == tgt
        evidence = lambda: hostload.rate_evidence(  # noqa: E731
            {**hostload.cli_rate_summary(run), **hostload.cli_rate_summary(run, "write")})
        with hostload.guard(evidence):
            assert abs(q["ratio"] - 1) <= 0.02, q
        assert q["read_pct"] == pytest.approx(70, abs=2)
        assert q["read"]["ios"] + q["write"]["ios"] == q["ios"]
    # the report: every plot the page names exists
    html = (out / "report.html").read_text()
    for svg in ("curve_response.svg", "curve_target.svg", "curve_exceedance.svg"):
        assert (out / "plots" / svg).stat().st_size > 0 and svg in html, svg
    assert (out / "curve.csv").read_text().count("\n") == 3
