# SPDX-License-Identifier: GPL-2.0
"""Trims, devices, workers (numjobs clones) and CPU in the reports of
`ssdload show`, from a fake debugfs job whose every per-worker and
per-device key is computed here from known samples.
"""
import json
import os
import re
import statistics

import pytest

from cli import one_error_line, run
from debugfs import FIO_PERCENTILES, FakeJob, check_lat, exact_percentile, lognormal


# --------------------------------------------------------------------------
# trims, devices, workers (numjobs clones) and CPU in the reports

TRIM_BS = 65536


class FakeMultiJob:
    """A numjobs=3 job on two devices with reads, writes and trims; every
    per-worker and per-device key computed here from the samples."""

    def __init__(self, geo, root, name="multi", numjobs=3):
        self.name, self.nw = name, numjobs
        self.samples = {"read": lognormal(11, 3000, 80_000, 0.4),
                        "write": lognormal(12, 1500, 30_000, 0.5),
                        "trim": lognormal(13, 900, 500_000, 0.3)}
        self.bs = {"read": 4096, "write": 4096, "trim": TRIM_BS}
        self.cpu_ns, self.usr_ns, self.ctx = 3_456_789_012, 456_789_012, 98_765
        cpus = tuple(i % 2 for i in range(numjobs))
        # worker i: the sorted sample's i::nw slice
        self.wsl = {d: [sorted(s)[i::numjobs] for i in range(numjobs)]
                    for d, s in self.samples.items()}
        extra = ["numjobs=%d" % numjobs, "cpu_ns=%d" % self.cpu_ns,
                 "usr_cpu_ns=%d" % self.usr_ns, "sys_cpu_ns=%d" % (self.cpu_ns - self.usr_ns),
                 "ctx=%d" % self.ctx, "cpu_ns_per_io=%d" % (self.cpu_ns // 5400),
                 "bs_min=4096", "bs_max=65536", "blockalign=4096"]
        t = self.samples["trim"]
        extra += ["trim_ios=%d" % len(t), "trim_bytes=%d" % (len(t) * TRIM_BS),
                  "trim_errors=0", "trim_lat_min_ns=%d" % min(t),
                  "trim_lat_mean_ns=%d" % round(statistics.fmean(t)),
                  "trim_lat_max_ns=%d" % max(t),
                  "trim_lat_stddev_ns=%d" % round(statistics.pstdev(t)),
                  "trim_lat_sum_ns=%d" % sum(t),
                  "trim_lat_sumsq_ns2=%d" % sum(v * v for v in t)]
        for i in range(numjobs):
            extra += ["worker%d_pid=%d" % (i, 4000 + i), "worker%d_cpu_ns=%d" % (i, 1000 + i),
                      "worker%d_ctx=%d" % (i, 10 + i), "worker%d_trim_ios=%d" %
                      (i, len(self.wsl["trim"][i])), "worker%d_trim_errors=0" % i]
            for d, sl in self.wsl.items():
                s = sl[i]
                extra += ["worker%d_%s_bytes=%d" % (i, d, len(s) * self.bs[d]),
                          "worker%d_%s_lat_min_ns=%d" % (i, d, min(s)),
                          "worker%d_%s_lat_max_ns=%d" % (i, d, max(s)),
                          "worker%d_%s_lat_sum_ns=%d" % (i, d, sum(s))]
        # two devices: device k gets the sorted samples' k::2 slice
        self.devs = ["/dev/nullb0", "/dev/nullb1"]
        self.dsl = {d: [sorted(s)[k::2] for k in range(2)] for d, s in self.samples.items()}
        extra.append("devices=2")
        for k, dev in enumerate(self.devs):
            extra += ["dev%d_name=%s" % (k, dev), "dev%d_span_start=%d" % (k, k << 20),
                      "dev%d_span_bytes=%d" % (k, (k + 1) << 30)]
            for d, sl in self.dsl.items():
                s = sl[k]
                extra += ["dev%d_%s_ios=%d" % (k, d, len(s)),
                          "dev%d_%s_bytes=%d" % (k, d, len(s) * self.bs[d]),
                          "dev%d_%s_errors=%d" % (k, d, k),
                          "dev%d_%s_done=%d" % (k, d, len(s) + 7),
                          "dev%d_%s_lat_sum_ns=%d" % (k, d, sum(s))]
        self.job = FakeJob(geo, root, name, self.samples["read"], self.samples["write"],
                           workers=cpus, extra=extra)
        # FakeJob's worker read/write ios are len(s[i::n]) of the unsorted
        # sample: the same lengths as the sorted slices
        with open(os.path.join(root, name, "hist_trim"), "wb") as f:
            f.write(geo.hist_file(t, 2, self.job.runtime_ns))
        self.env = {"SSDLOAD_DEBUGFS": root}

    def cpu_pct(self, ns):
        return ns * 100.0 / (self.nw * (self.job.runtime_ns + 500_000_000))


@pytest.fixture
def multi(geo, tmp_path):
    return FakeMultiJob(geo, str(tmp_path / "dbg"))


def multi_json(cli, m, *extra):
    p = run(cli, "show", m.name, "--output-format=json", *extra, env=m.env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_json_group_reporting_trim_cpu_devices(cli, multi):
    out = multi_json(cli, multi, "--group_reporting")
    assert len(out["jobs"]) == 1
    job = out["jobs"][0]
    secs = multi.job.runtime_ns / 1e9
    for d, s in multi.samples.items():
        r = job[d]
        assert r["total_ios"] == len(s) and r["io_bytes"] == len(s) * multi.bs[d]
        assert r["iops"] == pytest.approx(len(s) / secs, rel=1e-9)
        check_lat(r["clat_ns"], s, percentiles=False)
        # percentiles on the aggregate, trims too (small samples: a float
        # threshold may land one bucket up, so allow one bucket width)
        pct = r["clat_ns"]["percentile"]
        assert list(pct) == ["%f" % p for p in FIO_PERCENTILES]
        for p in FIO_PERCENTILES:
            exact = exact_percentile(sorted(s), p)
            assert abs(pct["%f" % p] - exact) <= exact / 128 + 1, (d, p)
    # fio: usr/sys percent of the summed run time of the threads
    assert job["usr_cpu"] == pytest.approx(multi.cpu_pct(multi.usr_ns), rel=1e-6)
    assert job["sys_cpu"] == pytest.approx(multi.cpu_pct(multi.cpu_ns - multi.usr_ns), rel=1e-6)
    assert isinstance(job["usr_cpu"], float) and job["ctx"] == multi.ctx
    assert job["job_runtime"] == round(3 * multi.job.runtime_ns / 1e6)
    ext = job["ssdload"]
    assert ext["numjobs"] == 3 and ext["cpu_ns"] == multi.cpu_ns
    assert ext["cpu_ns_per_io"] == multi.cpu_ns // 5400
    assert (ext["bs_min"], ext["bs_max"], ext["blockalign"]) == (4096, 65536, 4096)
    assert [w["trim_ios"] for w in ext["workers"]] == [len(x) for x in multi.wsl["trim"]]
    assert [w["pid"] for w in ext["workers"]] == [4000, 4001, 4002]
    devs = ext["devices"]
    assert [x["name"] for x in devs] == multi.devs
    assert [(x["span_start"], x["span_bytes"]) for x in devs] == [(0, 1 << 30),
                                                                  (1 << 20, 2 << 30)]
    for k, x in enumerate(devs):
        for d, sl in multi.dsl.items():
            s = sl[k]
            assert (x[d]["ios"], x[d]["bytes"], x[d]["errors"], x[d]["done"]) == \
                (len(s), len(s) * multi.bs[d], k, len(s) + 7)
            assert x[d]["lat_mean_ns"] == pytest.approx(statistics.fmean(s), rel=1e-9)
    # the per-device counts add up to the job's
    assert sum(x["trim"]["ios"] for x in devs) == job["trim"]["total_ios"]


def test_json_numjobs_clones(cli, multi):
    """Without --group_reporting: one entry per worker, as fio's clones; only
    what the module measures per worker."""
    out = multi_json(cli, multi)
    jobs = out["jobs"]
    assert len(jobs) == 3
    secs = multi.job.runtime_ns / 1e9
    for i, job in enumerate(jobs):
        assert job["jobname"] == multi.name and job["groupid"] == 0
        for d, sl in multi.wsl.items():
            s, r = sl[i], job[d]
            assert r["total_ios"] == len(s)
            assert r["io_bytes"] == len(s) * multi.bs[d]
            assert r["io_kbytes"] == len(s) * multi.bs[d] // 1024
            assert r["iops"] == pytest.approx(len(s) / secs, rel=1e-9)
            assert abs(r["bw_bytes"] - len(s) * multi.bs[d] / secs) <= 1
            assert r["runtime"] == round(multi.job.runtime_ns / 1e6)
            for k in ("clat_ns", "lat_ns"):
                lat = r[k]
                assert (lat["min"], lat["max"], lat["N"]) == (min(s), max(s), len(s))
                assert lat["mean"] == pytest.approx(statistics.fmean(s), rel=1e-9)
                # not measured per worker: left out, never invented
                assert "percentile" not in lat and "stddev" not in lat
        assert "usr_cpu" not in job and "sys_cpu" not in job
        assert "latency_us" not in job
        assert job["ctx"] == 10 + i and job["job_runtime"] == round(multi.job.runtime_ns / 1e6)
        ext = job["ssdload"]
        assert (ext["worker"], ext["cpu"], ext["pid"], ext["cpu_ns"]) == \
            (i, i % 2, 4000 + i, 1000 + i)
        assert ("devices" in ext) == (i == 0), "job-wide devices once, in the first entry"
    # the clones add up to the job
    for d, s in multi.samples.items():
        assert sum(j[d]["total_ios"] for j in jobs) == len(s)


def test_show_group_reporting_flag(cli, multi):
    """--group_reporting=0 is the default (clones), =1 and bare group them."""
    assert len(multi_json(cli, multi, "--group_reporting=0")["jobs"]) == 3
    assert len(multi_json(cli, multi, "--group_reporting", "1")["jobs"]) == 1
    one_error_line(run(cli, "show", multi.name, "--group_reporting=maybe", env=multi.env),
                   "group_reporting")


def test_json_single_worker_numjobs_is_one_entry(cli, geo, tmp_path):
    FakeJob(geo, str(tmp_path), "one", [1000, 2000], [], workers=(0,), extra=("numjobs=1",))
    p = run(cli, "show", "one", "--output-format=json", env={"SSDLOAD_DEBUGFS": str(tmp_path)})
    assert len(json.loads(p.stdout)["jobs"]) == 1


def test_normal_output_trim_devices_cpu(cli, multi):
    p = run(cli, "show", multi.name, env=multi.env)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert out.startswith(multi.name + ": (groupid=0, jobs=3): err= 0:")
    t = multi.samples["trim"]
    m = re.search(r"^  trim: IOPS=(\d+), BW=", out, re.M)
    assert m and int(m.group(1)) == round(len(t) / (multi.job.runtime_ns / 1e9)), out
    assert re.search(r"^   TRIM: bw=", out, re.M)
    assert "total I/Os: read=%d, write=%d, trim=%d" % (
        len(multi.samples["read"]), len(multi.samples["write"]), len(t)) in out
    assert "(read/write/trim I/Os)" in out
    m = re.search(r"^  cpu          : usr=([\d.]+)%, sys=([\d.]+)%, ctx=(\d+), "
                  r"majf=0, minf=0$", out, re.M)
    assert m, out
    assert float(m.group(1)) == pytest.approx(multi.cpu_pct(multi.usr_ns), abs=0.006)
    assert float(m.group(2)) == pytest.approx(multi.cpu_pct(multi.cpu_ns - multi.usr_ns),
                                              abs=0.006)
    assert int(m.group(3)) == multi.ctx
    m = re.search(r"^  cpu_ns/io    : (\d+)$", out, re.M)
    assert m and int(m.group(1)) == multi.cpu_ns // 5400, out
    assert "  devices      : 2\n" in out
    blk = out[out.index("  devices      : 2\n"):]
    assert "    /dev/nullb1: span=%d+%d (2048MiB)\n" % (1 << 20, 2 << 30) in blk
    s = multi.dsl["trim"][1]
    want = "      trim : ios=%d, io=%s, errors=1, lat avg=%.2fus" % (
        len(s), "%.1fMiB" % (len(s) * TRIM_BS / 2**20), statistics.fmean(s) / 1000)
    assert want in blk, blk


def test_normal_output_one_device_no_table(cli, fake):
    """No devices table for one device, no cpu line without the cpu keys."""
    out = run(cli, "show", fake.name, env=fake.env).stdout
    assert "devices" not in out and "  cpu " not in out and "trim" not in out.lower()
