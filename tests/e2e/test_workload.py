# SPDX-License-Identifier: GPL-2.0
"""workload shape: block sizes and offsets as the block layer saw them.

The ground truth is the block:block_rq_issue tracepoint (lib/blktrace.py),
filtered on the device's dev_t: one event per request handed to null_blk
(queue_mode=2, nomerges=2, so one request per bio), with its sector, length
and direction.  Nothing here is read back from ssdload's own accounting
except the totals the trace is checked against.

- the trace itself: a plain randread has exactly the module's read_ios
  events, each of bs bytes, bs-aligned, inside the span;
- bssplit: the size histogram of the trace within 1 point of the weights;
- zoned: the share of I/Os in each LBA range within 1 point of its access %;
- zipf: with random_scatter=0 the hottest 1% of units (units 0..K-1) get the
  share of the exact Zipf model within 2 points; with random_scatter=1 the
  hottest blocks are spread over the span, not packed at its start.

Kernels: every kernel that has tracefs and block tracepoints (6.1, 6.12 and
the debug kernel: it has CONFIG_TRACING from its debug options).  The
statistical runs take ~17 s on 6.1: they run everywhere, since the offsets
reach a different block layer on each kernel.
"""

import collections
import math
import os

import pytest

import blktrace
import ssdload_env as env

KIB = 1024
MIB = 1024 * KIB

# statistical runs: every kernel (see the module docstring)
STAT_KERNELS = ("6.1", "6.12", "debug")


def _stat_kernel():
    k = env.kernel_label()
    if k not in STAT_KERNELS:
        pytest.skip("statistical workload checks run on %s only (time budget); this is %s"
                    % ("/".join(STAT_KERNELS), k))


def _trace(dev, events="block_rq_issue", **kw):
    try:
        return blktrace.BlockTrace(dev, events, **kw)
    except blktrace.Unavailable as e:
        pytest.skip(str(e))


def _need_attrs(job, *attrs):
    """A new attribute missing from the job directory fails with its name."""
    missing = [a for a in attrs if not os.path.exists(job.path(a))]
    assert not missing, "ssdload has no configfs attribute(s) %s (issue 7)" % missing


def _run_traced(job, dev, timeout=300):
    """Run @job with the trace on; returns (summary, events, stat delta)."""
    t = _trace(dev)
    before = dev.stat()
    with t:
        s = job.run(timeout)
        after = dev.stat()      # settled: every request accounted
    return s, t.events, env.stat_delta(before, after)


@pytest.fixture
def nullb_1g(null_blk):
    """1 GiB memory-less null_blk, 512-byte sectors, merges off."""
    return null_blk(gb=1)[0]


# --------------------------------------------------------------------------
# the helper itself, on the plain workload every module version has

@pytest.mark.quick
@pytest.mark.parametrize("rw,bs,n", [("randread", 4096, 20000), ("read", 65536, 3000),
                                     ("randwrite", 8192, 5000)])
@pytest.mark.stock
def test_trace_matches_module_counts(nullb_1g, jobs, rw, bs, n):
    """Every traced request has bs bytes, is bs-aligned inside the span, and the
    number of events equals the module's count and /sys/block/X/stat."""
    dev = nullb_1g
    offset, size = 64 * MIB, 256 * MIB
    j = jobs("tr", filename=dev.path, rw=rw, bs=bs, iodepth=8, number_ios=n,
             offset=offset, size=size, randseed=11,
             allow_write=1 if "write" in rw else "")
    s, evs, d = _run_traced(j, dev)
    direction = "write" if "write" in rw else "read"
    assert s["%s_ios" % direction] == n, s
    mine = [e for e in evs if e.dir == direction]
    others = [e for e in evs if e.dir != direction]
    assert not others, "unexpected requests: %s" % others[:5]
    assert len(mine) == n == d["%s_ios" % direction], \
        "trace has %d %s requests, module %d, stat %d" % (
            len(mine), direction, n, d["%s_ios" % direction])
    bad_size = [e for e in mine if e.size != bs or e.bytes != bs]
    assert not bad_size, "requests not of %d bytes: %s" % (bs, bad_size[:5])
    bad_off = [e for e in mine if not offset <= e.offset < offset + size
               or (e.offset - offset) % bs]
    assert not bad_off, "requests outside the span or unaligned: %s" % bad_off[:5]
    if rw == "read":
        # one sequential pass from the span start: offsets in order, no gaps
        offs = sorted(e.offset for e in mine)
        assert offs == list(range(offset, offset + n * bs, bs))
    else:
        # random: spread over the span (not all in one place)
        q = collections.Counter((e.offset - offset) * 4 // size for e in mine)
        assert all(q[i] > n // 8 for i in range(4)), q


# --------------------------------------------------------------------------
# bssplit

@pytest.mark.parametrize("spec,weights", [
    ("4k/10:64k/50:32k/40", {4096: 10, 65536: 50, 32768: 40}),
    ("512/25:4096/25:8k/50", {512: 25, 4096: 25, 8192: 50}),
], ids=["4k-64k-32k", "512-4k-8k"])
@pytest.mark.stock
def test_bssplit_histogram(nullb_1g, jobs, spec, weights):
    """The trace's size histogram is within 1 point of the bssplit weights;
    every size is one of the listed ones, aligned to the smallest."""
    _stat_kernel()
    dev = nullb_1g
    n = 40000
    j = jobs("bss", filename=dev.path, rw="randread", iodepth=16, number_ios=n,
             randseed=3)
    _need_attrs(j, "bssplit")
    j.write("bssplit", spec)
    s, evs, d = _run_traced(j, dev)
    assert s["read_ios"] == n == len(evs) == d["read_ios"], (s["read_ios"], len(evs), d)
    assert s["read_bytes"] == sum(e.bytes for e in evs) == d["read_bytes"]
    hist = collections.Counter(e.size for e in evs)
    assert set(hist) <= set(weights), "sizes not in the bssplit: %s" % (
        sorted(set(hist) - set(weights)))
    for size, w in weights.items():
        got = 100.0 * hist[size] / n
        assert abs(got - w) <= 1.0, "size %d: %.2f%% of I/Os, weight %d%% (histogram %s)" % (
            size, got, w, dict(hist))
    align = min(weights)
    assert all(e.offset % align == 0 for e in evs), "offsets not %d-aligned" % align
    assert s["bs_min"] == min(weights) and s["bs_max"] == max(weights), \
        (s.get("bs_min"), s.get("bs_max"))


@pytest.mark.stock
def test_bssplit_per_direction(nullb_1g, jobs):
    """bssplit=4k/50:8k/50,64k/100 with randrw: reads are 4k/8k half and half
    (within 1 point), every write is 64k."""
    _stat_kernel()
    dev = nullb_1g
    n = 40000
    j = jobs("bssd", filename=dev.path, rw="randrw", rwmixread=50, allow_write=1,
             iodepth=16, number_ios=n, randseed=8)
    _need_attrs(j, "bssplit")
    j.write("bssplit", "4k/50:8k/50,64k/100")
    s, evs, d = _run_traced(j, dev)
    reads = [e for e in evs if e.dir == "read"]
    writes = [e for e in evs if e.dir == "write"]
    assert len(reads) == s["read_ios"] == d["read_ios"] > 0
    assert len(writes) == s["write_ios"] == d["write_ios"] > 0
    assert len(reads) + len(writes) == n
    rh = collections.Counter(e.size for e in reads)
    assert set(rh) == {4096, 8192}, rh
    got = 100.0 * rh[4096] / len(reads)
    assert abs(got - 50) <= 1.0, "reads: %.2f%% of 4k, want 50%%" % got
    assert {e.size for e in writes} == {65536}, collections.Counter(e.size for e in writes)
    assert s["bs_min"] == 4096 and s["bs_max"] == 65536, (s["bs_min"], s["bs_max"])


@pytest.mark.stock
def test_bsrange_sizes(nullb_1g, jobs):
    """bsrange=4k-16k: every request between 4k and 16k, a multiple of 512,
    several sizes, mean (min+max)/2 within 3% (uniform over the steps)."""
    _stat_kernel()
    dev = nullb_1g
    n = 20000
    j = jobs("bsr", filename=dev.path, rw="randread", iodepth=16, number_ios=n, randseed=6)
    _need_attrs(j, "bsrange")
    j.write("bsrange", "4k-16k")
    s, evs, d = _run_traced(j, dev)
    assert len(evs) == s["read_ios"] == d["read_ios"] == n
    sizes = collections.Counter(e.size for e in evs)
    bad = [z for z in sizes if not 4096 <= z <= 16384 or z % 512]
    assert not bad, "sizes outside 4k-16k or unaligned: %s" % bad
    assert len(sizes) >= 4, sizes
    mean = sum(e.size for e in evs) / n
    assert abs(mean - 10240) <= 0.03 * 10240, "mean size %.0f, want 10240" % mean
    assert s["read_bytes"] == d["read_bytes"] == sum(e.bytes for e in evs)


# --------------------------------------------------------------------------
# zoned

@pytest.mark.stock
def test_zoned_distribution(nullb_1g, jobs):
    """zoned:50/5:30/15:20/80: 50/30/20% of the I/Os in the first 5%, the next
    15% and the last 80% of the span, each within 1 point."""
    _stat_kernel()
    dev = nullb_1g
    n, bs = 40000, 4096
    offset, size = 16 * MIB, 512 * MIB
    j = jobs("zon", filename=dev.path, rw="randread", bs=bs, iodepth=16, number_ios=n,
             offset=offset, size=size, randseed=5)
    _need_attrs(j, "random_distribution")
    j.write("random_distribution", "zoned:50/5:30/15:20/80")
    s, evs, d = _run_traced(j, dev)
    assert s["read_ios"] == n == len(evs) == d["read_ios"]
    bounds = [(0, 5, 50), (5, 20, 30), (20, 100, 20)]
    outside = [e for e in evs if not offset <= e.offset < offset + size]
    assert not outside, "I/Os outside the span: %s" % outside[:5]
    shares = []
    for lo, hi, want in bounds:
        a, b = offset + size * lo // 100, offset + size * hi // 100
        c = sum(1 for e in evs if a <= e.offset < b)
        shares.append(100.0 * c / n)
        assert abs(shares[-1] - want) <= 1.0, \
            "zone %d-%d%%: %.2f%% of I/Os, want %d%% (all: %s)" % (lo, hi, shares[-1], want,
                                                                    shares)
    # inside a zone the draws are uniform: the two halves of the 80% zone
    # (10% each of I/Os expected) differ by far less than the zone weights
    a, m, b = offset + size * 20 // 100, offset + size * 60 // 100, offset + size
    h1 = sum(1 for e in evs if a <= e.offset < m)
    h2 = sum(1 for e in evs if m <= e.offset < b)
    assert abs(h1 - h2) <= 0.1 * (h1 + h2), (h1, h2)


# --------------------------------------------------------------------------
# zipf

def zipf_top_share(theta, n_units, k_units):
    """Exact share of ranks 1..K under p(k) ~ k^-theta over N units."""
    head = math.fsum(k ** -theta for k in range(1, k_units + 1))
    tail = math.fsum(k ** -theta for k in range(k_units + 1, n_units + 1))
    return head / (head + tail)


ZIPF_BS = 4096
ZIPF_SPAN = 64 * MIB            # 16384 units, hot 1% = 163 units
ZIPF_N = 40000


def _zipf_run(dev, jobs, scatter):
    j = jobs("zipf%d" % scatter, filename=dev.path, rw="randread", bs=ZIPF_BS, iodepth=16,
             number_ios=ZIPF_N, offset=0, size=ZIPF_SPAN, randseed=9)
    _need_attrs(j, "random_distribution", "random_scatter")
    j.write("random_distribution", "zipf:1.2")
    j.write("random_scatter", scatter)
    s, evs, d = _run_traced(j, dev)
    assert s["read_ios"] == ZIPF_N == len(evs) == d["read_ios"]
    bad = [e for e in evs if e.offset >= ZIPF_SPAN or e.offset % ZIPF_BS]
    assert not bad, bad[:5]
    return collections.Counter(e.offset // ZIPF_BS for e in evs)


@pytest.mark.stock
def test_zipf_hot_share_unscattered(nullb_1g, jobs):
    """zipf:1.2, random_scatter=0: units 0..K-1 (K = 1% of the units) get the
    exact model's share of the I/Os within 2 points, and unit 0 is the hottest."""
    _stat_kernel()
    units = ZIPF_SPAN // ZIPF_BS
    k = units // 100
    want = 100.0 * zipf_top_share(1.2, units, k)
    cnt = _zipf_run(nullb_1g, jobs, 0)
    got = 100.0 * sum(cnt[u] for u in range(k)) / ZIPF_N
    assert abs(got - want) <= 2.0, \
        "units 0..%d got %.2f%% of the I/Os, zipf:1.2 model %.2f%%" % (k - 1, got, want)
    # the next 1% of the units (ranks K+1..2K) too: the shape, not only the head
    want2 = 100.0 * (zipf_top_share(1.2, units, 2 * k) - zipf_top_share(1.2, units, k))
    got2 = 100.0 * sum(cnt[u] for u in range(k, 2 * k)) / ZIPF_N
    assert abs(got2 - want2) <= 2.0, \
        "units %d..%d got %.2f%%, model %.2f%%" % (k, 2 * k - 1, got2, want2)


@pytest.mark.stock
def test_zipf_scatter_spreads_hot_blocks(nullb_1g, jobs):
    """zipf:1.2, random_scatter=1: the hottest 1% of blocks by count are spread
    over the span (fewer than 20% of them in its first 1%), yet as hot as the model."""
    _stat_kernel()
    units = ZIPF_SPAN // ZIPF_BS
    k = units // 100
    cnt = _zipf_run(nullb_1g, jobs, 1)
    hot = [u for u, _ in cnt.most_common(k)]
    first = sum(1 for u in hot if u < k)
    assert first < 0.2 * k, "%d of the %d hottest blocks in the first 1%% of the span" % (
        first, k)
    # still zipf: the empirical top 1% carries at least the model's share (the
    # empirical top-K is biased upwards, never down by more than the noise)
    want = 100.0 * zipf_top_share(1.2, units, k)
    got = 100.0 * sum(c for _, c in cnt.most_common(k)) / ZIPF_N
    assert got >= want - 2.0, "top 1%% of blocks: %.2f%%, model %.2f%%" % (got, want)
    # and the hottest blocks are spread across the whole span (all 4 quarters)
    quarters = collections.Counter(u * 4 // units for u in hot)
    assert len(quarters) == 4, quarters
