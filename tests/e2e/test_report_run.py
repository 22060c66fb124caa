# SPDX-License-Identifier: GPL-2.0
"""The latency study of a plain run, for `ssdload report DIR` (issue:
reviews in one command): the JSON that `ssdload run --output-format=json+
--latency-table --latency-below --latency-check --output=DIR/run.json`
writes on a real device is what the renderer reads.

One 3 s run of the S3700 review's mixed row (QD 1, 4 KiB random, 70/30) on
a 100 us timer null_blk: no I/O completes before 100 us, so p1<99us fails
for certain and the run exits 1; p50 passes a bound 50 times the device's
latency (whatever TCG's timers add).  The bins hold every I/O, the
study's rows and verdicts are consistent with them, and the renderer's own
loader (ssdload-report.py without matplotlib: rendering under TCG takes
long, the host's unit tests render, tests/unit/test_report_run.py) accepts
the document and finds the same rows.  The document is kept as
$SSDLOAD_OUT/latency-study/run.json, for `ssdload report` on the host.

6.1 only (the JSON is built by the CLI, not by the kernel).
"""
import importlib.util
import json
import os
import shutil

import pytest

import ssdload_env as env

KERNELS = ("6.1",)
US = 1000


def report_module():
    repo = os.environ.get("SSDLOAD_REPO") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    spec = importlib.util.spec_from_file_location(
        "ssdload_report", os.path.join(repo, "userspace", "ssdload-report.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_latency_study_json_for_the_report(ssdload, null_blk, cli, tmp_path):
    if env.kernel_label() not in KERNELS:
        pytest.skip("the report's run.json is checked on %s only (time budget); this is %s"
                    % ("/".join(KERNELS), env.kernel_label()))
    dev = null_blk(irqmode=2, completion_nsec=100 * US, hw_queue_depth=64)[0]
    out = tmp_path / "study"
    out.mkdir()
    p = env.cli("run", "--name=e2e-study", "--filename=" + dev.path, "--rw=randrw",
                "--rwmixread=70", "--bs=4k", "--iodepth=1", "--runtime=3s", "--time_based",
                "--allow_write",
                "--output-format=json+", "--output=" + str(out / "run.json"),
                "--latency-table", "--latency-below=150us,1ms",
                "--latency-check=p50<5ms,p1<99us,read:max<10s", timeout=120)
    assert p.returncode == 1, p.stderr		# p1<99us fails: the check's exit status
    assert p.stderr.rstrip().endswith("latency-check: FAIL"), p.stderr
    doc = json.loads((out / "run.json").read_text())
    job, study = doc["jobs"][0], doc["latency_study"]
    for d in ("read", "write"):
        lat, n = job[d]["clat_ns"], job[d]["total_ios"]
        assert n > 100 and sum(lat["bins"].values()) == lat["N"] == n
        # a bin is keyed by its bucket's midpoint, clipped to the exact extremes
        keys = sorted(int(k) for k in lat["bins"])
        assert 100 * US <= lat["min"] <= keys[0] and keys[-1] <= lat["max"]
        assert study[d]["ios"] == n
        for r in study[d]["percentiles"]:
            assert r["backed"] == (n >= r["needs_ios"]), r
            beyond = sum(c for k, c in lat["bins"].items() if int(k) > r["value_ns"])
            assert r["ios_beyond"] == beyond, r
        assert [b["bound_ns"] for b in study[d]["below"]] == [150 * US, 1000 * US]
    res = {(c["condition"], c["direction"]): c["result"] for c in study["check"]["conditions"]}
    assert res == {("p50<5ms", "read"): "pass", ("p50<5ms", "write"): "pass",
                   ("p1<99us", "read"): "fail", ("p1<99us", "write"): "fail",
                   ("read:max<10s", "read"): "pass"}
    assert study["check"]["verdict"] == "fail"

    # the renderer's loader and rows (no matplotlib needed for these)
    m = report_module()
    rs = m.RunStudy(m.load(str(out / "run.json"), m.RUN_FORMAT, m.RUN_FORMAT_VERSION), str(out))
    rows = rs.percentile_rows()
    assert [(r["direction"], r["percentile"], r["value_ns"], r["backed"]) for r in rows] == [
        (d, r["percentile"], r["value_ns"], r["backed"]) for d in ("read", "write")
        for r in study[d]["percentiles"]]
    for d in ("read", "write"):
        steps = m.bins_histogram(m.lat_bins(job[d]["clat_ns"]))
        assert sum(x for _, _, x in steps) == pytest.approx(100.0)
        assert steps[0][0] <= job[d]["clat_ns"]["min"] < steps[0][1]
    assert [r[:3] for r in rs.headline_rows()] == [
        ["e2e-study", "read", job["read"]["total_ios"]],
        ["e2e-study", "write", job["write"]["total_ios"]]]
    keep = os.environ.get("SSDLOAD_OUT")
    if keep and os.path.isdir(keep):
        os.makedirs(os.path.join(keep, "latency-study"), exist_ok=True)
        shutil.copy(str(out / "run.json"), os.path.join(keep, "latency-study", "run.json"))
