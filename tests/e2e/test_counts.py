# SPDX-License-Identifier: GPL-2.0
"""counts: ssdload's I/O counts equal the block layer's.

On null_blk (queue_mode=2, irqmode=0, nomerges=2) every bio is one request,
so /sys/block/DEV/stat ios and sectors deltas are the ground truth for the
number of I/Os and bytes per direction.
"""

import pytest

import ssdload_env as env

BS = 4096
N = 8000            # per run; ~0.1-0.3 s of null_blk under TCG


def _attrs(dev, rw, **kw):
    a = dict(filename=dev.path, rw=rw, bs=BS, iodepth=8)
    if rw in env.WRITING_RW:
        a["allow_write"] = 1
    a.update(kw)
    return a


def _run(job, dev, timeout=120):
    before = dev.stat()
    s = job.run(timeout)
    d = env.stat_delta(before, dev.stat())
    return s, d


def _check_exact(s, d, rw, total, bs=BS):
    """Summary counts == block-layer deltas, per direction."""
    assert s["state"] == "done" and s["error"] == 0, s
    assert s["read_errors"] == 0 and s["write_errors"] == 0, s
    assert s["read_ios"] + s["write_ios"] == total, \
        "ran %d I/Os, configured %d" % (s["read_ios"] + s["write_ios"], total)
    assert s["read_ios"] == d["read_ios"], "read ios: ssdload %d, block layer %d" % (
        s["read_ios"], d["read_ios"])
    assert s["write_ios"] == d["write_ios"], "write ios: ssdload %d, block layer %d" % (
        s["write_ios"], d["write_ios"])
    assert s["read_bytes"] == d["read_bytes"], (s["read_bytes"], d["read_bytes"])
    assert s["write_bytes"] == d["write_bytes"], (s["write_bytes"], d["write_bytes"])
    assert d["read_bytes"] == d["read_ios"] * bs
    assert d["write_bytes"] == d["write_ios"] * bs
    if rw in ("read", "randread"):
        assert d["write_ios"] == 0
    elif rw in ("write", "randwrite"):
        assert d["read_ios"] == 0
    else:
        assert d["read_ios"] > 0 and d["write_ios"] > 0, d


@pytest.mark.quick
@pytest.mark.parametrize("rw", env.RW_NAMES)
def test_number_ios_equal_block_stat(nullb, jobs, rw):
    """number_ios=N: total_ios and io_bytes per direction equal the stat deltas."""
    j = jobs(rw, **_attrs(nullb, rw, number_ios=N))
    s, d = _run(j, nullb)
    _check_exact(s, d, rw, N)
    assert j.error == "0"
    # the histograms count the same I/Os
    assert j.hist("read").samples == s["read_ios"]
    assert j.hist("write").samples == s["write_ios"]


@pytest.mark.quick
@pytest.mark.parametrize("rw", env.RW_NAMES)
def test_one_pass_default(nullb, jobs, rw):
    """runtime_ms=0, number_ios=0: exactly size/bs I/Os (one pass, like fio)."""
    size = 32 << 20
    j = jobs(rw, **_attrs(nullb, rw, size=size, runtime_ms=0, number_ios=0))
    s, d = _run(j, nullb)
    _check_exact(s, d, rw, size // BS)
    if rw in ("read", "write"):
        # sequential single pass covers the span exactly once
        assert d["read_bytes"] + d["write_bytes"] == size


@pytest.mark.quick
@pytest.mark.parametrize("rw", env.RW_NAMES)
def test_cli_json_counts_equal_block_stat(nullb, cli, rw):
    """CLI JSON jobs[0].read/write total_ios and io_bytes equal the stat deltas."""
    args = ["run", "--name=e2e-cli-counts", "--filename=" + nullb.path, "--rw=" + rw,
            "--bs=4k", "--iodepth=8", "--number_ios=%d" % N]
    if rw in env.WRITING_RW:
        args.append("--allow_write=1")
    before = nullb.stat()
    out = env.cli_json(*args)
    d = env.stat_delta(before, nullb.stat())
    job = out["jobs"][0]
    for direction in ("read", "write"):
        assert job[direction]["total_ios"] == d[direction + "_ios"], \
            "%s total_ios %d, block layer %d" % (direction, job[direction]["total_ios"],
                                                d[direction + "_ios"])
        assert job[direction]["io_bytes"] == d[direction + "_bytes"], direction
    assert job["read"]["total_ios"] + job["write"]["total_ios"] == N
    assert env.list_jobs() == [], "the CLI left its job behind"


@pytest.mark.slow
def test_randrw_mix_100k(nullb, jobs):
    """randrw rwmixread=30 over 100k I/Os: read share 30 +- 2 points, counts exact."""
    n = 100000
    j = jobs("mix", **_attrs(nullb, "randrw", rwmixread=30, number_ios=n, iodepth=16))
    s, d = _run(j, nullb, timeout=300)
    _check_exact(s, d, "randrw", n)
    share = 100.0 * d["read_ios"] / n
    assert 28.0 <= share <= 32.0, "read share %.2f%% for rwmixread=30" % share


@pytest.mark.quick
@pytest.mark.parametrize("mix,rw", [(0, "randrw"), (100, "randrw"), (0, "rw"), (100, "rw")])
def test_rwmixread_extremes(nullb, jobs, mix, rw):
    """rwmixread=0 writes only, rwmixread=100 reads only."""
    j = jobs("x", **_attrs(nullb, rw, rwmixread=mix, number_ios=2000))
    s, d = _run(j, nullb)
    if mix == 0:
        assert d["read_ios"] == 0 and d["write_ios"] == 2000, d
    else:
        assert d["write_ios"] == 0 and d["read_ios"] == 2000, d
    assert s["read_ios"] == d["read_ios"] and s["write_ios"] == d["write_ios"]


@pytest.mark.quick
def test_bs_larger_than_max_sectors_is_split(null_blk, jobs):
    """bs above max_sectors: ssdload counts bs-sized I/Os, the block layer splits."""
    dev = null_blk(max_sectors=8)[0]            # 4 KiB per request
    assert int(env.read_attr(dev.sys + "/queue/max_sectors_kb")) == 4
    bs, n = 64 << 10, 500
    j = jobs("split", filename=dev.path, rw="randread", bs=bs, iodepth=4, number_ios=n)
    s, d = _run(j, dev)
    assert s["read_ios"] == n
    assert s["read_bytes"] == n * bs == d["read_bytes"]
    assert d["read_ios"] == n * (bs // 4096), d


@pytest.mark.quick
def test_ramp_excluded(nullb, jobs):
    """I/O done in the ramp reaches the device but not the results."""
    j = jobs("ramp", **_attrs(nullb, "randread", ramp_ms=500, runtime_ms=1000, iodepth=4))
    before = nullb.stat()
    s = j.run(60)
    d = env.stat_delta(before, nullb.stat())
    p = j.progress()
    assert s["ramp_ns"] == 500 * 10**6
    assert s["read_ios"] > 0
    # everything completed reached the device; progress counts ramp included
    assert p["read_ios"] == d["read_ios"], (p, d)
    assert s["read_ios"] < d["read_ios"], "ramp I/Os were counted in the results"
    assert j.hist("read").samples == s["read_ios"]
    # measured phase lasts runtime_ms (the last I/O completes slightly later)
    assert 0.95e9 <= s["runtime_ns"] <= 1.25e9, s["runtime_ns"]


@pytest.mark.quick
def test_runtime_limit(nullb, jobs):
    """runtime_ms=1000 without number_ios: runs about 1 s, counts exact."""
    j = jobs("rt", **_attrs(nullb, "randwrite", runtime_ms=1000, iodepth=4))
    s, d = _run(j, nullb)
    assert s["write_ios"] == d["write_ios"] > 0
    assert s["write_bytes"] == d["write_bytes"]
    assert 0.95e9 <= s["runtime_ns"] <= 1.25e9, s["runtime_ns"]



@pytest.mark.quick
@pytest.mark.parametrize("rw", ["randread", "read"])
def test_one_timed_pass(nullb, jobs, rw):
    """time_based=0 (fio's default): a timed run also ends after one pass
    over the span.  4 MiB in 4 KiB reads by 2 workers is 1024 measured
    I/Os (512 each), far before the 60 s runtime; the 300 ms ramp's I/Os
    come on top."""
    j = jobs("pass" + rw, **_attrs(nullb, rw, size=4 << 20, runtime_ms=60000, ramp_ms=300,
                                   numjobs=2, iodepth=4, time_based=0))
    s, d = _run(j, nullb)
    assert s["time_based"] == 0, s
    assert s["read_ios"] == 1024 == j.hist("read").samples, s
    assert s["worker0_read_ios"] == s["worker1_read_ios"] == 512, s
    assert d["read_ios"] > 1024, "no I/O during the 300 ms ramp? %s" % d
    assert s["runtime_ns"] < 30e9, "ran to runtime_ms, not to the end of the pass"


@pytest.mark.quick
def test_one_timed_pass_ends_at_runtime(nullb_cfg, jobs):
    """time_based=0 with a runtime shorter than the pass: the runtime ends
    it (a 1 ms device at QD 2 does some 1000 of the pass's 262144 reads in
    500 ms); time_based=1 (the default) loops over a small span instead."""
    dev = nullb_cfg("tbslow", irqmode=2, completion_nsec=1000000)
    j = jobs("tbrt", **_attrs(dev, "randread", runtime_ms=500, iodepth=2, time_based=0))
    s, d = _run(j, dev)
    assert 0 < s["read_ios"] == d["read_ios"] < 262144 // 10, s
    assert 0.45e9 <= s["runtime_ns"] <= 0.8e9, s["runtime_ns"]
    j = jobs("tbloop", **_attrs(dev, "randread", size=64 << 10, runtime_ms=500, iodepth=2))
    s, d = _run(j, dev)
    assert s["time_based"] == 1 and s["read_ios"] > 16, s
    assert 0.45e9 <= s["runtime_ns"] <= 0.8e9, s["runtime_ns"]


@pytest.mark.quick
def test_ramp_with_number_ios(nullb, jobs):
    """number_ios counts measured I/Os only: ramp I/Os come on top of N."""
    n = 2000
    j = jobs("rampn", **_attrs(nullb, "randread", ramp_ms=300, number_ios=n, iodepth=4))
    s, d = _run(j, nullb)
    assert s["read_ios"] == n == j.hist("read").samples
    assert j.progress()["read_ios"] == d["read_ios"]
    assert d["read_ios"] > n, "no I/O during the 300 ms ramp? %s" % d


def _depth_map(s, key):
    counts = [int(x) for x in str(s[key]).split()]
    assert len(counts) == 7, (key, s[key])
    return counts


def _bucket(depth):
    """fio's iodepth_level bucket of @depth: 1, 2-3, 4-7, ..., 64+."""
    return min(depth.bit_length() - 1, 6)


@pytest.mark.parametrize("depth", [1, 8])
def test_iodepth_level_counts_every_submission(nullb, jobs, depth):
    """iodepth_level counts each measured submission once, in the bucket
    of the I/Os then in flight.  irqmode=0 completes each plug's I/Os as it
    is flushed, so a worker sends QD I/Os, reaps them all, and sends QD
    again: at QD 8 every batch is 1..8 in flight (buckets 1, 2-3, 4-7, 8:
    1, 2, 4 and 1 of each 8), one submission batch of 8 and one completion
    batch of 8; at QD 1 all at 1, batches of 1."""
    j = jobs("depth%d" % depth, **_attrs(nullb, "randread", iodepth=depth, number_ios=N))
    s, _ = _run(j, nullb)
    assert s["read_ios"] == N
    lvl, sub, comp = (_depth_map(s, k) for k in ("iodepth_level", "iodepth_submit",
                                                "iodepth_complete"))
    assert sum(lvl) == N, lvl
    assert sum(lvl[_bucket(depth) + 1:]) == 0, lvl
    assert _depth_map(s, "worker0_iodepth_level") == lvl
    if depth == 1:
        assert lvl == [N, 0, 0, 0, 0, 0, 0]
        assert sub == [0, N, 0, 0, 0, 0, 0] and comp == [0, N, 0, 0, 0, 0, 0], (sub, comp)
    else:
        n = N // depth
        assert lvl == [n, 2 * n, 4 * n, n, 0, 0, 0], lvl
        assert sub == [0, 0, n, 0, 0, 0, 0] and comp == [0, 0, n, 0, 0, 0, 0], (sub, comp)


@pytest.mark.stock
def test_iodepth_level_on_a_slow_device(null_blk, cli):
    """A timer null_blk (200 us) at QD 32 through the CLI: the JSON's
    iodepth_level is in percent and sums to 100, nothing above the 32-63
    bucket, and it is what the batches say: the 32 I/Os sent together
    complete together, so the worker reaps and refills them in one batch
    (depths 1 to 32: about 3, 6, 12.5, 25, 50 and 3%); the normal output
    has fio's IO depths line."""
    dev = null_blk(irqmode=2, completion_nsec=200_000, hw_queue_depth=64)[0]
    doc = env.cli_json("run", "--name=e2e-depth", "--filename=" + dev.path, "--rw=randread",
                       "--bs=4k", "--iodepth=32", "--number_ios=20000")
    lvl = doc["jobs"][0]["iodepth_level"]
    assert list(lvl) == ["1", "2", "4", "8", "16", "32", ">=64"]
    assert sum(lvl.values()) == pytest.approx(100.0, abs=0.01)
    assert lvl[">=64"] == 0 and lvl["32"] > 0, lvl
    sub = doc["jobs"][0]["iodepth_submit"]
    assert sum(sub.values()) == pytest.approx(100.0, abs=0.01)
    # a batch of b I/Os puts 1 in bucket 1, 2 in 2-3 ... : the depths follow the
    # batch sizes; with most batches full (17-32), 16-31 holds the most depths
    if sub["32"] > 90:
        assert lvl["16"] == max(lvl.values()), (lvl, sub)
    p = env.cli("run", "--name=e2e-depth2", "--filename=" + dev.path, "--rw=randread",
                "--bs=4k", "--iodepth=4", "--number_ios=2000", check=True)
    assert any(l.startswith("  IO depths    : 1=") for l in p.stdout.splitlines()), p.stdout


@pytest.mark.stock
def test_io_size_loops_over_a_small_span(nullb, cli):
    """--io_size as fio's: each of 2 workers moves 4 MiB over a 1 MiB span
    (looping), so 2 x 1024 reads of 4 KiB reach the device, and the run
    ends then, long before its runtime."""
    before = nullb.stat()
    out = env.cli_json("run", "--name=e2e-io-size", "--filename=" + nullb.path,
                       "--rw=randread", "--bs=4k", "--iodepth=4", "--numjobs=2",
                       "--group_reporting", "--size=1m", "--io_size=4m", "--runtime=60s")
    d = env.stat_delta(before, nullb.stat())
    job = out["jobs"][0]
    assert job["read"]["total_ios"] == d["read_ios"] == 2 * 1024
    assert job["job options"]["io_size"] == "4m"
    assert job["read"]["runtime"] < 30000, "ran to the runtime, not to io_size"


@pytest.mark.stock
def test_cli_timed_run_without_time_based(nullb, cli):
    """fio's default through the CLI: --size=4m --runtime=60s ends after one
    pass over the 4 MiB (1024 reads of 4 KiB), long before the runtime;
    with --time_based the same span is read for the whole runtime."""
    before = nullb.stat()
    out = env.cli_json("run", "--name=e2e-pass", "--filename=" + nullb.path,
                       "--rw=randread", "--bs=4k", "--iodepth=4", "--size=4m",
                       "--runtime=60s")
    d = env.stat_delta(before, nullb.stat())
    job = out["jobs"][0]
    assert job["read"]["total_ios"] == d["read_ios"] == 1024
    assert job["read"]["runtime"] < 30000, "ran to the runtime, not one pass"
    out = env.cli_json("run", "--name=e2e-timed", "--filename=" + nullb.path,
                       "--rw=randread", "--bs=4k", "--iodepth=4", "--size=4m",
                       "--runtime=1s", "--time_based")
    job = out["jobs"][0]
    assert job["read"]["total_ios"] > 1024
    assert 950 <= job["read"]["runtime"] <= 1300, job["read"]["runtime"]


@pytest.mark.quick
def test_loops_of_one_pass(nullb, jobs):
    """loops=3 without runtime_ms or number_ios: three passes over the
    4 MiB span (fio's loops), so 3 x 1024 reads: each block three times,
    once per loop."""
    j = jobs("loops", **_attrs(nullb, "randread", size=4 << 20, loops=3, numjobs=2))
    s, d = _run(j, nullb)
    assert s["loops"] == 3, s
    assert s["read_ios"] == d["read_ios"] == 3 * 1024 == j.hist("read").samples, s
    assert s["worker0_read_ios"] == s["worker1_read_ios"] == 3 * 512, s


@pytest.mark.quick
def test_loops_of_one_pass_more_workers_than_blocks(nullb, jobs):
    """8 workers over 4 blocks: the first 4 have a block each, the others
    none and stop at once; 1000 loops are 4000 reads."""
    j = jobs("loops8", **_attrs(nullb, "randread", size=16 << 10, loops=1000, numjobs=8))
    s, d = _run(j, nullb)
    assert s["read_ios"] == d["read_ios"] == 4000, s
    assert [s["worker%d_read_ios" % w] for w in range(8)] == [1000] * 4 + [0] * 4, s
