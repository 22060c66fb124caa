# SPDX-License-Identifier: GPL-2.0
"""fio's bw/iops sample statistics and the lines after cpu (issue 11),
without a kernel: `ssdload show` on a fake debugfs job with a known time
series (SSDLOAD_DEBUGFS).

Every expected figure is computed here from the series written here, with
fio 3.33's own formulas re-implemented (stat.c: __add_samples(),
add_stat_sample(), calc_lat(), convert_agg_kbytes_percent()), so the
JSON's floats must be the same doubles.  The line shapes are taken from
the output of fio 3.33 itself (a null-engine run on the host).
"""
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess

import pytest

from cli import run
from debugfs import SERIES_HDR, SERIES_REC, FakeJob

INTERVAL_NS = 500_000_000          # fio's default bw_avg_time/iops_avg_time
RAMP_NS = 600_000_000              # interval 0 in the ramp, interval 1 across its end
NINT = 9
DIRS = ("read", "write")


# --------------------------------------------------------------------------
# fio's statistics, re-implemented (stat.c, fio 3.33)

class IoStat:
    """struct io_stat and add_stat_sample(): Welford, fio's operation order."""

    def __init__(self):
        self.samples, self.min, self.max, self.mean, self.S = 0, None, 0, 0.0, 0.0

    def add(self, data):
        val = float(data)
        if data > self.max:
            self.max = data
        if self.min is None or data < self.min:
            self.min = data
        delta = val - self.mean
        if delta:
            self.mean += delta / (self.samples + 1.0)
            self.S += delta * (val - self.mean)
        self.samples += 1

    def calc(self):
        """calc_lat(): (min, max, mean, dev), or None without samples."""
        if not self.samples:
            return None
        n = float(self.samples)
        return self.min, self.max, self.mean, math.sqrt(self.S / (n - 1.0)) if n > 1 else 0.0


def agg_percent(agg_bytes, mean):
    """convert_agg_kbytes_percent(): the mean goes in as an int."""
    if agg_bytes <= 1024:
        return 100.0
    return min(100.0, float(int(mean)) * 100.0 / (agg_bytes / 1024.0))


def json_float(x):
    """What json-c's "%.6f" gives back to a reader."""
    return float("%.6f" % x)


# --------------------------------------------------------------------------
# a fake job with a series

class SeriesJob:
    """Two workers, reads and writes of bs bytes, NINT intervals of 500 ms
    from the job's start; the ramp ends in interval 1.  counts[k][w][d] are
    the I/Os of worker w in interval k; the writes stop in interval 4, and
    only worker 1 writes in interval 6, so the directions have different
    sample counts.  The last records are shorter (the run ends)."""

    def __init__(self, geo, root, name="samples", bs=4096, scale=1, seed=11, extra=()):
        r = random.Random(seed)
        self.name, self.bs, self.nw = name, bs, 2
        self.bounds = {}
        for w in range(2):
            prev = 0
            for k in range(NINT):
                end = (k + 1) * INTERVAL_NS + 1000 * (w + 1) + (k % 3) * 777_777
                if k == NINT - 1:
                    end = k * INTERVAL_NS + 123_456_789 + w * 5_000_000
                self.bounds[w, k] = (prev, end)
                prev = end
        self.counts = []
        for k in range(NINT):
            row = []
            for w in range(2):
                # as the module: only measured I/Os, none in the ramp
                start, end = self.bounds[w, k]
                frac = max(0, end - max(start, RAMP_NS)) / INTERVAL_NS
                rd = int(frac * scale * r.randint(200, 900))
                wr = int(frac * scale * r.randint(50, 400))
                if k == 4 or (k == 6 and w == 0):
                    wr = 0
                row.append((rd, wr))
            self.counts.append(row)
        self.end_ns = max(e for _, e in self.bounds.values())
        self.runtime_ns = self.end_ns - RAMP_NS
        lat = {d: [] for d in DIRS}
        for k in range(NINT):
            for w in range(2):
                for i, d in enumerate(DIRS):
                    lat[d] += [r.randint(20_000, 400_000) for _ in range(self.counts[k][w][i])]
        self.total = {d: len(lat[d]) for d in DIRS}
        lines = ["log_interval_ms=%d" % (INTERVAL_NS // 10**6), "log_hist=0",
                 "series_records=%d" % (2 * NINT)] + list(extra)
        self.job = FakeJob(geo, root, name, lat["read"], lat["write"], bs=bs,
                           runtime_ns=self.runtime_ns, ramp_ns=RAMP_NS, extra=lines)
        recs = b""
        for w in range(2):
            for k in range(NINT):
                start, end = self.bounds[w, k]
                dirs = []
                for i in range(3):
                    n = self.counts[k][w][i] if i < 2 else 0
                    dirs += [n, n * bs, 0, 20_000 if n else 0, 400_000 if n else 0,
                             300_000 * n, 0, 0, 0, 0]
                recs += SERIES_REC.pack(w, k, start, end, 0, 0, *dirs)
        hdr = SERIES_HDR.pack(0x53445353, 1, SERIES_HDR.size, SERIES_REC.size, 2, 2 * NINT,
                              0, INTERVAL_NS, 0, geo.sub_bits, geo.max_shift, geo.buckets)
        with open(os.path.join(self.job.dir, "series"), "wb") as f:
            f.write(hdr + recs)
        self.env = {"SSDLOAD_DEBUGFS": root}

    @staticmethod
    def _sample(stats, start, end, ios):
        """__add_samples() over [start, end): KiB/s and IOPS, truncated,
        one per direction with I/O, from the end of the ramp."""
        start = max(start, RAMP_NS)
        if end <= start:
            return
        span = end - start
        for i, d in enumerate(DIRS):
            if ios[i]:
                stats[d]["bw"].add(ios[i] * stats["bs"] * 10**9 // (span * 1024))
                stats[d]["iops"].add(ios[i] * 10**9 // span)

    def _stats(self):
        return {"bs": self.bs, **{d: {"bw": IoStat(), "iops": IoStat()} for d in DIRS}}

    def job_stats(self):
        """The job's: the workers' records of one index merged."""
        st = self._stats()
        for k in range(NINT):
            start = min(self.bounds[w, k][0] for w in range(2))
            end = max(self.bounds[w, k][1] for w in range(2))
            ios = [sum(self.counts[k][w][i] for w in range(2)) for i in range(2)]
            self._sample(st, start, end, ios)
        return st

    def worker_stats(self, w):
        st = self._stats()
        for k in range(NINT):
            self._sample(st, *self.bounds[w, k], self.counts[k][w])
        return st

    def agg_bytes(self, d):
        """The job's bw_bytes (the group's aggregate bandwidth)."""
        return self.total[d] * self.bs * 10**9 // self.runtime_ns


def show(cli, job, *extra):
    p = run(cli, "show", job.name, *extra, env=job.env)
    assert p.returncode == 0, p.stderr
    return p.stdout


def show_json(cli, job, *extra):
    return json.loads(show(cli, job, "--output-format=json", *extra))


def expected_json(st, agg):
    """fio's show_ddir_status_json() keys of one direction."""
    bw, iops = st["bw"].calc(), st["iops"].calc()
    out = {}
    if bw:
        out.update(bw_min=bw[0], bw_max=bw[1], bw_agg=json_float(agg_percent(agg, bw[2])),
                   bw_mean=json_float(bw[2]), bw_dev=json_float(bw[3]))
    else:
        out.update(bw_min=0, bw_max=0, bw_agg=0.0, bw_mean=0.0, bw_dev=0.0)
    out["bw_samples"] = st["bw"].samples
    if iops:
        out.update(iops_min=iops[0], iops_max=iops[1], iops_mean=json_float(iops[2]),
                   iops_stddev=json_float(iops[3]))
    else:
        out.update(iops_min=0, iops_max=0, iops_mean=0.0, iops_stddev=0.0)
    out["iops_samples"] = st["iops"].samples
    return out


SAMPLE_KEYS = ("bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev", "bw_samples",
               "iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples")


@pytest.fixture
def sj(geo, tmp_path):
    return SeriesJob(geo, str(tmp_path / "dbg"))


# --------------------------------------------------------------------------
# JSON

def _values(sj, d, kind):
    """The job's samples of direction d, as a list (for statistics)."""
    i = DIRS.index(d)
    out = []
    for k in range(NINT):
        start = max(min(sj.bounds[w, k][0] for w in range(2)), RAMP_NS)
        end = max(sj.bounds[w, k][1] for w in range(2))
        n = sum(sj.counts[k][w][i] for w in range(2))
        if end > start and n:
            span = end - start
            out.append(n * sj.bs * 10**9 // (span * 1024) if kind == "bw" else
                       n * 10**9 // span)
    return out


def test_json_samples_of_the_job(cli, sj):
    job = show_json(cli, sj)["jobs"][0]
    st = sj.job_stats()
    # interval 0 is in the ramp; the writes skip interval 4
    assert st["read"]["bw"].samples == NINT - 1
    assert st["write"]["bw"].samples == NINT - 2
    for d in DIRS:
        got = {k: job[d][k] for k in SAMPLE_KEYS}
        assert got == expected_json(st[d], sj.agg_bytes(d)), d
        for k in ("bw_min", "bw_max", "bw_samples", "iops_min", "iops_max", "iops_samples"):
            assert isinstance(job[d][k], int), k
        # fio's stddev is the sample one (n - 1)
        vals = _values(sj, d, "iops")
        assert job[d]["iops_stddev"] == pytest.approx(statistics.stdev(vals), rel=1e-9)
        assert job[d]["iops_mean"] == pytest.approx(statistics.fmean(vals), rel=1e-9)
    # no I/O: fio's form without samples
    assert {k: job["trim"][k] for k in SAMPLE_KEYS} == expected_json(
        {"bw": IoStat(), "iops": IoStat()}, 0)


def test_json_samples_match_the_time_series(cli, sj):
    """The samples are the time_series intervals' own rates (their span cut
    at the end of the ramp), so a reader can recompute them."""
    job = show_json(cli, sj)["jobs"][0]
    iv = job["time_series"]["intervals"]
    for d in DIRS:
        rates = []
        for x in iv:
            if d not in x or not x[d]["ios"]:
                continue
            start = max(x["t_start_ms"] * 1e6, RAMP_NS)
            end = x["t_end_ms"] * 1e6
            if end > start:
                rates.append(x[d]["ios"] * 1e9 / (end - start))
        assert len(rates) == job[d]["iops_samples"]
        assert job[d]["iops_min"] == int(min(rates))
        assert job[d]["iops_max"] == int(max(rates))


def test_json_samples_of_clones(cli, geo, tmp_path):
    """numjobs=2 without group_reporting: each clone's own records, per=
    against the group's (both clones') bandwidth, as fio's."""
    sj = SeriesJob(geo, str(tmp_path / "dbg"), extra=("numjobs=2",))
    jobs = show_json(cli, sj)["jobs"]
    assert len(jobs) == 2
    for w, job in enumerate(jobs):
        st = sj.worker_stats(w)
        for d in DIRS:
            got = {k: job[d][k] for k in SAMPLE_KEYS}
            assert got == expected_json(st[d], sj.agg_bytes(d)), (w, d)
            assert job[d]["bw_agg"] < 100.0
    # the samples of the clones are every record with I/O
    assert jobs[0]["write"]["iops_samples"] == NINT - 3       # no writes in 0, 4, 6
    assert jobs[1]["write"]["iops_samples"] == NINT - 2
    # --group_reporting: the one entry with the job's samples
    job = show_json(cli, sj, "--group_reporting")["jobs"][0]
    st = sj.job_stats()
    assert {k: job["read"][k] for k in SAMPLE_KEYS} == \
        expected_json(st["read"], sj.agg_bytes("read"))


def fio_json_no_samples():
    """fio 3.33's direction keys for a job that took no bw/iops sample."""
    p = subprocess.run(["fio", "--name=x", "--ioengine=null", "--size=4m", "--bs=4k",
                        "--rw=randread", "--output-format=json"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    rd = json.loads(p.stdout[p.stdout.index("{"):])["jobs"][0]["read"]
    assert rd["total_ios"] == 1024 and rd["bw_samples"] == 0
    return {k: rd[k] for k in SAMPLE_KEYS}


def test_json_without_series_is_fio_without_samples(cli, geo, tmp_path):
    """No time series, no samples: fio's own keys and values for that case
    (zeros, 0 samples), never the overall figures dressed up as samples."""
    if not shutil.which("fio"):
        pytest.skip("fio is not installed")
    FakeJob(geo, str(tmp_path), "plain", [30_000] * 500, [40_000] * 100)
    p = run(cli, "show", "plain", "--output-format=json", env={"SSDLOAD_DEBUGFS": str(tmp_path)})
    assert p.returncode == 0, p.stderr
    job = json.loads(p.stdout)["jobs"][0]
    want = fio_json_no_samples()
    for d in ("read", "write", "trim"):
        got = {k: job[d][k] for k in SAMPLE_KEYS}
        assert got == want, d
        assert [type(v) for v in got.values()] == [type(v) for v in want.values()]
    assert job["read"]["bw"] > 0          # the overall figures stay where they were


# --------------------------------------------------------------------------
# normal output, against fio 3.33's own lines

def fio_lines(*args):
    """The per-job lines of a fio 3.33 null-engine run."""
    if not shutil.which("fio"):
        pytest.skip("fio is not installed")
    p = subprocess.run(["fio", "--name=x", "--ioengine=null", "--size=64g", "--bs=4k",
                        "--rw=randrw", "--iodepth=4", "--time_based", "--runtime=1200ms",
                        "--output-format=normal"] + list(args),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout.splitlines()


def shape(line):
    """A regex of @line: its words literal, each number any number of the
    same kind (integer, or with as many decimals), fio's padding free."""
    out, pos = "^", 0
    for m in re.finditer(r" *\d+(?:\.(\d+))?", line):
        out += re.escape(line[pos:m.start()])
        out += r" *\d+" + (r"\.\d{%d}" % len(m.group(1)) if m.group(1) else "")
        pos = m.end()
    return re.compile(out + re.escape(line[pos:]) + "$")


def fio_line(lines, prefix):
    got = [l for l in lines if l.startswith(prefix)]
    assert got, "fio printed no %r line" % prefix
    return got[0]


@pytest.fixture(scope="module")
def fio_mib():
    return fio_lines()


@pytest.fixture(scope="module")
def fio_kib():
    return fio_lines("--rate=2m")


def normal(cli, job):
    return show(cli, job).splitlines()


def test_normal_bw_iops_lines(cli, sj, fio_kib):
    out = normal(cli, sj)
    st = sj.job_stats()
    for d in DIRS:
        blk = out[out.index([l for l in out if l.startswith("  %s: IOPS=" % d)][0]):]
        bw = [l for l in blk if l.startswith("   bw (")][0]
        iops = [l for l in blk if l.startswith("   iops        :")][0]
        assert shape(fio_line(fio_kib, "   bw (")).match(bw), (bw, fio_line(fio_kib, "   bw ("))
        assert shape(fio_line(fio_kib, "   iops ")).match(iops), iops
        mn, mx, mean, dev = st[d]["bw"].calc()
        assert mean <= 1024 * 1024
        assert bw == ("   bw (  KiB/s): min=%5d, max=%5d, per=%3.2f%%, avg=%5.02f, "
                      "stdev=%5.02f, samples=%d" % (mn, mx, agg_percent(sj.agg_bytes(d), mean),
                                                    mean, dev, st[d]["bw"].samples))
        mn, mx, mean, dev = st[d]["iops"].calc()
        assert iops == "   iops        : min=%5d, max=%5d, avg=%5.02f, stdev=%5.02f, " \
            "samples=%d" % (mn, mx, mean, dev, st[d]["iops"].samples)
        # fio's place: right after the clat percentiles, bw then iops
        i = blk.index(bw)
        assert blk[i - 1].startswith("     | ") and blk[i + 1] == iops


def test_normal_bw_line_in_mib(cli, geo, tmp_path, fio_mib):
    """Above 1 GiB/s fio shows MiB/s, min and max truncated."""
    sj = SeriesJob(geo, str(tmp_path / "dbg"), bs=1 << 20, scale=8)
    out = normal(cli, sj)
    bw = [l for l in out if l.startswith("   bw (")]
    ref = fio_line(fio_mib, "   bw (")
    assert "MiB/s" in ref
    st = sj.job_stats()
    for d, line in zip(DIRS, bw):
        assert shape(ref).match(line), (line, ref)
        mn, mx, mean, dev = st[d]["bw"].calc()
        assert mean > 1024 * 1024
        assert line == ("   bw (  MiB/s): min=%5d, max=%5d, per=%3.2f%%, avg=%5.02f, "
                        "stdev=%5.02f, samples=%d" % (
                            int(mn / 1024.0), int(mx / 1024.0),
                            agg_percent(sj.agg_bytes(d), mean), mean / 1024.0,
                            dev / 1024.0, st[d]["bw"].samples))


CPU_KEYS = ("cpu_ns=4000000000", "usr_cpu_ns=1000000000", "sys_cpu_ns=3000000000",
            "ctx=4321", "cpu_ns_per_io=812")


def test_normal_cpu_issued_latency_lines(cli, geo, tmp_path, fio_kib):
    sj = SeriesJob(geo, str(tmp_path / "dbg"), extra=CPU_KEYS)
    cfs = tmp_path / "cfs" / "jobs" / sj.name
    cfs.mkdir(parents=True)
    (cfs / "iodepth").write_text("16\n")
    p = run(cli, "show", sj.name, env=dict(sj.env, SSDLOAD_CONFIGFS=str(tmp_path / "cfs")))
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    cpu = fio_line(out, "  cpu          :")
    issued = fio_line(out, "     issued rwts:")
    lat = fio_line(out, "     latency   :")
    for ours, prefix in ((cpu, "  cpu          :"), (issued, "     issued rwts:"),
                         (lat, "     latency   :")):
        ref = fio_line(fio_kib, prefix)
        assert shape(ref).match(ours), (ours, ref)
    secs = RAMP_NS + sj.runtime_ns
    assert cpu == "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=4321, majf=0, minf=0" % (
        1e9 * 100 / (2 * secs), 3e9 * 100 / (2 * secs))
    assert issued == "     issued rwts: total=%d,%d,0,0 short=0,0,0,0 dropped=0,0,0,0" % (
        sj.total["read"], sj.total["write"])
    assert lat == "     latency   : target=0, window=0, percentile=100.00%, depth=16"
    # fio's order; IO depths, submit and complete: not in this summary, left out
    assert out.index(cpu) + 1 == out.index(issued) and out.index(issued) + 1 == out.index(lat)
    assert not any(l.startswith(("  IO depths", "     submit", "     complete")) for l in out)
    assert "  cpu_ns/io    : 812" in out


DEPTH_KEYS = ("iodepth_level=3 5 12 980 0 0 0", "iodepth_submit=0 700 200 100 0 0 0",
              "iodepth_complete=0 1000 0 0 0 0 0", "worker0_iodepth_level=3 5 12 480 0 0 0",
              "worker1_iodepth_level=0 0 0 500 0 0 0")


def pcts(counts):
    return [100.0 * c / sum(counts) for c in counts]


def test_measured_iodepth_lines_and_json(cli, geo, tmp_path, fio_kib):
    """The module's iodepth_level/submit/complete: fio's three lines
    between cpu and issued rwts, in fio's shape, and the JSON's
    distributions (the job's; each clone's iodepth_level its worker's)."""
    sj = SeriesJob(geo, str(tmp_path / "dbg"), extra=CPU_KEYS + DEPTH_KEYS)
    out = normal(cli, sj)
    rows = [fio_line(out, p) for p in ("  cpu          :", "  IO depths    :",
                                       "     submit    :", "     complete  :",
                                       "     issued rwts:")]
    assert [out.index(r) for r in rows] == list(range(out.index(rows[0]),
                                                      out.index(rows[0]) + 5))
    for ours, prefix in zip(rows[1:4], ("  IO depths    :", "     submit    :",
                                        "     complete  :")):
        assert shape(fio_line(fio_kib, prefix)).match(ours), (ours, fio_line(fio_kib, prefix))
    d = pcts([3, 5, 12, 980, 0, 0, 0])
    assert rows[1] == ("  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, "
                       "16=%3.1f%%, 32=%3.1f%%, >=64=%3.1f%%" % tuple(d))
    assert rows[2] == ("     submit    : 0=0.0%, 4=70.0%, 8=20.0%, 16=10.0%, 32=0.0%, "
                       "64=0.0%, >=64=0.0%")
    job = show_json(cli, sj)["jobs"][0]
    assert list(job["iodepth_level"]) == ["1", "2", "4", "8", "16", "32", ">=64"]
    assert list(job["iodepth_level"].values()) == pytest.approx(d)
    assert list(job["iodepth_submit"]) == ["0", "4", "8", "16", "32", "64", ">=64"]
    assert list(job["iodepth_submit"].values()) == pytest.approx([0, 70, 20, 10, 0, 0, 0])
    assert list(job["iodepth_complete"].values()) == pytest.approx([0, 100, 0, 0, 0, 0, 0])
    clones = show_json(cli, SeriesJob(geo, str(tmp_path / "dbg2"),
                                      extra=DEPTH_KEYS + ("numjobs=2",)))["jobs"]
    assert list(clones[0]["iodepth_level"].values()) == \
        pytest.approx(pcts([3, 5, 12, 480, 0, 0, 0]))
    assert list(clones[1]["iodepth_level"].values()) == pytest.approx(pcts([0, 0, 0, 500, 0, 0, 0]))
    assert "iodepth_submit" not in clones[0]		# batches: the job's only


def test_iodepth_not_given_is_left_out(cli, geo, tmp_path):
    """A summary without the maps (an older module) or with a malformed
    one: no IO depths lines, no iodepth_* keys, nothing assumed."""
    for extra in ((), ("iodepth_level=1 2 x 4 5 6 7", "iodepth_submit=1 2 3")):
        sj = SeriesJob(geo, str(tmp_path / ("d%d" % len(extra))), extra=extra)
        out = normal(cli, sj)
        assert not any(l.startswith(("  IO depths", "     submit", "     complete"))
                       for l in out), out
        job = show_json(cli, sj)["jobs"][0]
        assert not {"iodepth_level", "iodepth_submit", "iodepth_complete"} & set(job)


def test_normal_without_series_or_iodepth(cli, geo, tmp_path):
    """No series: no bw/iops lines (fio prints none without samples); no
    iodepth known (show without configfs): no latency line; no cpu keys:
    no cpu line.  issued rwts stays: it is counted."""
    FakeJob(geo, str(tmp_path), "plain", [30_000] * 500, [40_000] * 100)
    out = run(cli, "show", "plain", env={"SSDLOAD_DEBUGFS": str(tmp_path)}).stdout
    lines = out.splitlines()
    assert not any(l.startswith(("   bw (", "   iops ", "     latency", "  cpu",
                                 "  IO depths")) for l in lines), out
    assert "     issued rwts: total=500,100,0,0 short=0,0,0,0 dropped=0,0,0,0" in lines
