# SPDX-License-Identifier: GPL-2.0
"""Fake debugfs jobs of ssdload.ko, built from known random samples.

`ssdload show` reads them through $SSDLOAD_DEBUGFS.  The histogram
geometry is read from the constants of uapi/ssdload.h and its bucket maths
re-implemented here, so that every expected value is computed in Python
from the sample, never copied from the program's output.
"""
import math
import os
import random
import re
import statistics
import struct

import pytest

FIO_PERCENTILES = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
                   99.95, 99.99]


class Geometry:
    """Histogram geometry from uapi/ssdload.h, maths re-implemented."""

    def __init__(self, repo):
        text = open(os.path.join(repo, "uapi", "ssdload.h")).read()

        def const(name):
            return int(re.search(r"#define\s+%s\s+(0x[0-9a-fA-F]+|\d+)" % name,
                                 text).group(1), 0)
        self.sub_bits = const("SSDLOAD_HIST_SUB_BITS")
        self.max_shift = const("SSDLOAD_HIST_MAX_SHIFT")
        self.magic = const("SSDLOAD_HIST_MAGIC")
        self.version = const("SSDLOAD_HIST_VERSION")
        self.sub = 1 << self.sub_bits
        self.buckets = (self.max_shift - self.sub_bits + 1) * self.sub

    def index(self, v):
        if v < self.sub:
            return v
        if v >= 1 << self.max_shift:
            return self.buckets - 1
        shift = v.bit_length() - 1 - self.sub_bits
        return (shift + 1) * self.sub + ((v >> shift) & (self.sub - 1))

    # header: magic u32, version u16, header_size u16, sub_bits, max_shift,
    # nr_buckets, dir (u32), then samples, overflow, min, max, sum,
    # sumsq_hi, sumsq_lo, runtime_ns (u64), native byte order
    HDR = "=IHHIIII8Q"

    def hist_file(self, sample, direction, runtime_ns, pad=0, magic=None,
                  sub_bits=None):
        counts = [0] * self.buckets
        for v in sample:
            counts[self.index(v)] += 1
        sumsq = sum(v * v for v in sample)
        hsize = struct.calcsize(self.HDR) + pad
        over = sum(1 for v in sample if v >= 1 << self.max_shift)
        hdr = struct.pack(self.HDR, self.magic if magic is None else magic,
                          self.version, hsize,
                          self.sub_bits if sub_bits is None else sub_bits,
                          self.max_shift, self.buckets, direction, len(sample), over,
                          min(sample) if sample else 0, max(sample) if sample else 0,
                          sum(sample), sumsq >> 64, sumsq & (2**64 - 1), runtime_ns)
        return hdr + b"\0" * pad + struct.pack("=%dQ" % self.buckets, *counts)


def exact_percentile(sorted_sample, p):
    rank = max(1, math.ceil(p / 100.0 * len(sorted_sample)))
    return sorted_sample[min(rank, len(sorted_sample)) - 1]


class FakeJob:
    """A debugfs job directory like the module's, built from known samples."""

    def __init__(self, geo, root, name, reads, writes, bs=4096, runtime_ns=2_345_678_901,
                 ramp_ns=500_000_000, state="done", error=0, workers=(0, 3), extra=(),
                 **hist_kw):
        self.name, self.bs, self.runtime_ns = name, bs, runtime_ns
        self.reads, self.writes = sorted(reads), sorted(writes)
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir, exist_ok=True)
        lines = ["version=1", "state=" + state, "error=%d" % error,
                 "workers=%d" % len(workers), "runtime_ns=%d" % runtime_ns,
                 "ramp_ns=%d" % ramp_ns]
        for d, s in (("read", reads), ("write", writes)):
            n = len(s)
            mean = sum(s) / n if n else 0
            lines += ["%s_ios=%d" % (d, n), "%s_bytes=%d" % (d, n * bs),
                      "%s_errors=0" % d,
                      "%s_lat_min_ns=%d" % (d, min(s) if n else 0),
                      "%s_lat_mean_ns=%d" % (d, round(mean)),
                      "%s_lat_max_ns=%d" % (d, max(s) if n else 0),
                      "%s_lat_stddev_ns=%d" % (d, round(statistics.pstdev(s)) if n else 0),
                      "%s_lat_sum_ns=%d" % (d, sum(s)),
                      "%s_lat_sumsq_ns2=%d" % (d, sum(v * v for v in s))]
        for i, cpu in enumerate(workers):
            share = lambda s: len(s[i::len(workers)])
            lines += ["worker%d_cpu=%d" % (i, cpu),
                      "worker%d_read_ios=%d" % (i, share(reads)),
                      "worker%d_write_ios=%d" % (i, share(writes)),
                      "worker%d_read_errors=0" % i, "worker%d_write_errors=0" % i]
        lines += list(extra)
        with open(os.path.join(self.dir, "summary"), "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(os.path.join(self.dir, "progress"), "w") as f:
            f.write("state=%s\nelapsed_ns=%d\n" % (state, ramp_ns + runtime_ns))
        for d, s, fn in ((0, reads, "hist_read"), (1, writes, "hist_write")):
            with open(os.path.join(self.dir, fn), "wb") as f:
                f.write(geo.hist_file(s, d, runtime_ns, **hist_kw))


def lognormal(seed, n, median_ns, sigma):
    r = random.Random(seed)
    return [max(1, int(r.lognormvariate(math.log(median_ns), sigma))) for _ in range(n)]


def check_lat(lat, sample, percentiles=True):
    """A latency object of the JSON report (clat_ns, lat_ns, ...) against
    @sample: count, min, max, mean and stddev, and fio's default percentiles
    within a bucket's width of the exact ones."""
    s = sorted(sample)
    assert lat["N"] == len(s)
    assert lat["min"] == s[0] and lat["max"] == s[-1]
    assert isinstance(lat["min"], int) and isinstance(lat["mean"], float)
    assert lat["mean"] == pytest.approx(statistics.fmean(s), rel=1e-9)
    assert lat["stddev"] == pytest.approx(statistics.pstdev(s), rel=1e-6)
    if not percentiles:
        return
    keys = ["%f" % p for p in FIO_PERCENTILES]
    assert list(lat["percentile"]) == keys
    for p, k in zip(FIO_PERCENTILES, keys):
        exact = exact_percentile(s, p)
        got = lat["percentile"][k]
        assert isinstance(got, int)
        assert abs(got - exact) <= exact / 256 + 0.5, \
            "p%s: %d vs exact %d (%.3f%%)" % (p, got, exact, 100 * (got - exact) / exact)


# time series (log_interval_ms, log_hist) of a rate-controlled job

def leb128(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def delta_bytes(geo, sample):
    """A histogram delta of the series format: (gap, count) varint pairs."""
    counts = {}
    for v in sample:
        i = geo.index(v)
        counts[i] = counts.get(i, 0) + 1
    out, prev = bytearray(), -1
    for i in sorted(counts):
        out += leb128(i if prev < 0 else i - prev - 1) + leb128(counts[i])
        prev = i
    return bytes(out)


SERIES_HDR = struct.Struct("=IHHIIQQQIIII")
SERIES_REC = struct.Struct("=IIQQII" + "QQQQQQQQII" * 3)


class FakeRateJob:
    """A rate-controlled randread job with a time series: two workers at
    rate_iops=2000 on a device that falls behind; `clat` are the
    submit-to-completion latencies, `ilat` those from the intended send
    time (every I/O's is larger).  Worker w's I/Os of interval k are
    clat[k][w] (and ilat[k][w]); each record's fields are computed here."""

    def __init__(self, geo, root, name="ratejob", nint=8, log_hist=1, behind=(3000, 0),
                 numjobs=2, rate=("read_rate_iops=2000", "read_rate_bps=0"),
                 series_magic=None, truncate_delta=False):
        self.name, self.nint, self.nw = name, nint, 2
        r = random.Random(8)
        self.clat = [[[max(1, int(r.lognormvariate(math.log(1e6), 0.1)))
                       for _ in range(300 + 10 * k + 7 * w)] for w in range(2)]
                     for k in range(nint)]
        # the lag grows through the run: interval k adds about k * 125 ms
        self.ilat = [[[c + int(k * 125e6 + r.uniform(0, 125e6)) for c in self.clat[k][w]]
                      for w in range(2)] for k in range(nint)]
        flat = lambda x: [v for k in x for w in k for v in w]
        reads, ireads = flat(self.clat), flat(self.ilat)
        self.reads, self.ireads = sorted(reads), sorted(ireads)
        self.late = sum(1 for k in range(nint) for w in range(2)
                        for c, i in zip(self.clat[k][w], self.ilat[k][w]) if i - c > 1e6)
        self.behind = behind
        isq = sum(v * v for v in ireads)
        extra = ["numjobs=%d" % numjobs, "rate_process=linear", "late_threshold_ns=1000000",
                 "log_interval_ms=250", "log_hist=%d" % log_hist,
                 "series_records=%d" % (2 * nint)] + list(rate) + [
            "read_intended_ios=%d" % len(ireads),
            "read_intended_lat_min_ns=%d" % min(ireads),
            "read_intended_lat_mean_ns=%d" % round(statistics.fmean(ireads)),
            "read_intended_lat_max_ns=%d" % max(ireads),
            "read_intended_lat_stddev_ns=%d" % round(statistics.pstdev(ireads)),
            "read_intended_lat_sum_ns=%d" % sum(ireads),
            "read_intended_lat_sumsq_ns2=%d" % isq,
            "read_late_ios=%d" % self.late,
            "read_behind_ns=1234567890",
            "read_behind_ios=%d" % behind[0], "read_behind_bytes=%d" % behind[1]]
        for d in ("write", "trim"):
            extra += ["%s_%s=0" % (d, k) for k in (
                "rate_iops", "rate_bps", "intended_ios", "intended_lat_min_ns",
                "intended_lat_mean_ns", "intended_lat_max_ns", "intended_lat_stddev_ns",
                "intended_lat_sum_ns", "intended_lat_sumsq_ns2", "late_ios", "behind_ns",
                "behind_ios", "behind_bytes")]
        self.job = FakeJob(geo, root, name, reads, [], workers=(0, 1), extra=extra)
        self.dir = self.job.dir
        with open(os.path.join(self.dir, "hist_intended_read"), "wb") as f:
            f.write(geo.hist_file(ireads, 0, self.job.runtime_ns))
        self.write_series(geo, log_hist, series_magic, truncate_delta)
        self.env = {"SSDLOAD_DEBUGFS": root}

    def record(self, w, k):
        """Worker w's record k: (start, end) and the read fields."""
        c, i = self.clat[k][w], self.ilat[k][w]
        start = k * 250_000_000 + (w * 1000 if k else 0)
        end = (k + 1) * 250_000_000 + 1000 * (w + 1) + (k % 3) * 777
        late = sum(1 for a, b in zip(c, i) if b - a > 1e6)
        return start, end, c, i, late

    def write_series(self, geo, log_hist, magic, truncate):
        recs, hist = b"", b""
        for w in range(2):
            prev_end = 0
            for k in range(self.nint):
                start, end, c, i, late = self.record(w, k)
                start = prev_end
                prev_end = end
                delta = delta_bytes(geo, c) if log_hist else b""
                if truncate and w == 1 and k == 3:
                    delta = delta[:-1] + b"\x80"
                rd = [len(c), len(c) * 4096, 0, min(c), max(c), sum(c), sum(i), late,
                      len(delta), 0]
                zero = [0] * 10
                recs += SERIES_REC.pack(w, k, start, end, 0, 0, *rd, *zero, *zero)
                hist += delta
        hdr = SERIES_HDR.pack(0x53445353 if magic is None else magic, 1, SERIES_HDR.size,
                              SERIES_REC.size, 2, 2 * self.nint, len(hist), 250_000_000,
                              log_hist, geo.sub_bits, geo.max_shift, geo.buckets)
        with open(os.path.join(self.dir, "series"), "wb") as f:
            f.write(hdr + recs + hist)

    def starts_ends(self, k):
        """The merged interval k: the earliest start, the latest end."""
        se = []
        for w in range(2):
            prev = 0 if k == 0 else self.record(w, k - 1)[1]
            se.append((prev, self.record(w, k)[1]))
        return min(s for s, _ in se), max(e for _, e in se)
