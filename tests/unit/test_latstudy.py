# SPDX-License-Identifier: GPL-2.0
"""Latency studies: --latency-table, --latency-below and --latency-check.

`ssdload show` reads a fake debugfs job built from a known lognormal
sample (lib/debugfs.py's FakeJob); every expectation is computed here from the
sample itself and the bucket geometry of uapi/ssdload.h, never copied
from the program: the exact sample percentile must lie in the bucket the
table names, the I/Os beyond it and below a bound are counted in the
sample, and a check is judged against the exact value one bucket's
width (0.39%) away from the bound on either side.
"""
import json
import math
from fractions import Fraction

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run
from debugfs import FakeJob, lognormal

pytestmark = NEEDS_DEV


@pytest.fixture(scope="module")
def sample():
    # reads: 200,000 I/Os around 180 us; writes: 60,000 around 25 us
    return lognormal(11, 200_000, 180_000, 0.6), lognormal(12, 60_000, 25_000, 1.2)


@pytest.fixture
def job(geo, sample, tmp_path):
    root = tmp_path / "debugfs"
    j = FakeJob(geo, str(root), "latjob", *sample)
    j.env = {"SSDLOAD_DEBUGFS": str(root), "SSDLOAD_CONFIGFS": str(tmp_path / "none")}
    return j


def exact_pct(s, p):
    """The sample percentile by fio's rule: the ceil(p% * n)-th smallest.

    fio (and ssdload) compute p / 100 * n in long double from the double
    nearest to p: 99.995 is 99.99500000000000455 there, and 0.99995 x
    200,000 is just over 199,990.  Exact rationals of that double agree
    with long double where plain doubles round it back to 199,990.
    """
    rank = math.ceil(Fraction(p) * len(s) / 100)
    return s[max(1, rank) - 1]


def bucket(geo, v):
    """[lower, upper] of the bucket holding v."""
    i = geo.index(v)
    if i < geo.sub:
        return i, i
    g = i // geo.sub
    sub = i % geo.sub
    lo = (geo.sub + sub) << (g - 1)
    return lo, lo + (1 << (g - 1)) - 1


def show(cli, job, *args):
    return run(cli, "show", job.name, *args, env=job.env)


def show_json(cli, job, *args):
    p = show(cli, job, "--output-format=json", *args)
    return p, json.loads(p.stdout)


@pytest.mark.parametrize("pcts", [None, "25:75:99.5:99.995"])
def test_table_rows_hold_the_exact_percentile(cli, geo, job, pcts):
    opt = "--latency-table" + ("=" + pcts if pcts else "")
    p, doc = show_json(cli, job, opt)
    assert p.returncode == 0, p.stderr
    want = [float(x) for x in pcts.split(":")] if pcts else \
        [1, 10, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999]
    for d, s in (("read", job.reads), ("write", job.writes)):
        study = doc["latency_study"][d]
        assert study["ios"] == len(s)
        rows = study["percentiles"]
        assert [r["percentile"] for r in rows] == pytest.approx(want)
        for r in rows:
            x = exact_pct(s, r["percentile"])
            lo, hi = bucket(geo, x)
            assert r["lo_ns"] == max(lo, s[0]) and r["hi_ns"] == min(hi, s[-1]), (d, r, x)
            assert r["lo_ns"] <= x <= r["hi_ns"] and r["lo_ns"] <= r["value_ns"] <= r["hi_ns"]
            assert r["ios_beyond"] == sum(1 for v in s if v > hi), (d, r)
            need = math.ceil(100 / (100 - r["percentile"]) - 1e-6)
            assert r["needs_ios"] == need and r["backed"] == (len(s) >= need), r
    # 200,000 reads back p99.999 (needs 100,000) but not p99.9999
    if not pcts:
        rows = {r["percentile"]: r for r in doc["latency_study"]["read"]["percentiles"]}
        assert rows[99.999]["backed"] and not rows[99.9999]["backed"]
        assert rows[99.9999]["needs_ios"] == 1_000_000


def test_table_normal_output_says_which_rows_are_short(cli, job):
    p = show(cli, job, "--latency-table=50:99.99:99.999")
    assert p.returncode == 0, p.stderr
    text = p.stdout
    assert "read latency percentiles (clat, 200,000 I/Os)" in text
    assert "write latency percentiles (clat, 60,000 I/Os)" in text
    short = [l for l in text.splitlines() if "too few I/Os" in l]
    # only the writes' p99.999 (60,000 < 100,000)
    assert len(short) == 1 and "needs 100,000" in short[0] and "99.9990" in short[0], short


@pytest.mark.parametrize("bound", ["40us", "180us", "1ms", "1ns", "10s"])
def test_below_brackets_the_exact_share(cli, geo, job, bound):
    p, doc = show_json(cli, job, "--latency-below=" + bound)
    assert p.returncode == 0, p.stderr
    ns = {"ns": 1, "us": 1000, "ms": 10**6, "s": 10**9}
    num = int("".join(c for c in bound if c.isdigit()))
    b = num * ns[bound[len(str(num)):]]
    for d, s in (("read", job.reads), ("write", job.writes)):
        (row,) = doc["latency_study"][d]["below"]
        exact = sum(1 for v in s if v < b)
        sure, maybe = row["ios_below"], row["ios_in_bound_bucket"]
        assert row["bound_ns"] == b
        assert sure <= exact <= sure + maybe, (d, row, exact)
        if b <= s[0]:
            assert sure == maybe == 0
        elif b > s[-1]:
            assert sure == len(s) and maybe == 0
        else:
            lo, _ = bucket(geo, b)
            assert sure == sum(1 for v in s if v < lo)
            assert maybe == sum(1 for v in s if lo <= v and geo.index(v) == geo.index(b))
        assert row["percent"] == pytest.approx(100 * sure / len(s), abs=1e-6)
        assert row["percent_max"] == pytest.approx(100 * (sure + maybe) / len(s), abs=1e-6)


def _fmt_ns(v):
    return "%dns" % v


@pytest.mark.parametrize("pct", [50, 99, 99.9, 99.95])
def test_check_percentiles_either_side_of_the_bound(cli, job, pct):
    x = exact_pct(job.reads, pct)
    above, below = int(x * 1.01), int(x * 0.99)
    cond = "read:p%s<%s" % (pct, _fmt_ns(above))
    p = show(cli, job, "--latency-check=" + cond)
    assert p.returncode == 0, p.stdout[-600:]
    assert p.stdout.rstrip().endswith("latency-check: PASS")
    cond = "read:p%s<%s" % (pct, _fmt_ns(below))
    p = show(cli, job, "--latency-check=" + cond)
    assert p.returncode == 1
    lines = p.stdout.rstrip().splitlines()
    assert lines[-1] == "latency-check: FAIL"
    assert "latency-check FAIL read p%g = " % pct in lines[-2] and "is not <" in lines[-2]


def test_check_mean_and_max_are_exact(cli, job):
    s = job.writes
    mx, total = s[-1], sum(s)
    ok = ["write:max<=%dns" % mx, "write:max<%dns" % (mx + 1),
          # the exact mean, not the module's rounded one
          "write:mean<=%dns" % math.ceil(total / len(s))]
    bad = ["write:max<%dns" % mx, "write:mean<%dns" % math.floor(total / len(s))]
    p, doc = show_json(cli, job, "--latency-check=" + ",".join(ok))
    assert p.returncode == 0 and doc["latency_study"]["check"]["verdict"] == "pass", p.stderr
    assert p.stderr.rstrip().endswith("latency-check: PASS")
    for c in bad:
        p, doc = show_json(cli, job, "--latency-check=" + c)
        assert p.returncode == 1, c
        (r,) = doc["latency_study"]["check"]["conditions"]
        assert r["result"] == "fail" and r["condition"] == c


def test_check_every_direction_with_io_unless_named(cli, job):
    # p50 of the writes is ~25 us, of the reads ~180 us: 100us passes one
    p, doc = show_json(cli, job, "--latency-check=p50<100us")
    conds = doc["latency_study"]["check"]["conditions"]
    assert [(c["direction"], c["result"]) for c in conds] == [("read", "fail"),
                                                               ("write", "pass")]
    assert p.returncode == 1
    p, doc = show_json(cli, job, "--latency-check=write:p50<100us")
    assert p.returncode == 0 and len(doc["latency_study"]["check"]["conditions"]) == 1


def test_check_refuses_what_the_run_cannot_back(cli, job):
    # 200,000 reads cannot show a p99.9999; a trim direction without I/O
    for cond, result, words in (("read:p99.9999<1s", "too_few_ios", "needs at least 1,000,000"),
                                ("trim:p50<1s", "no_io", "no trim I/O")):
        p, doc = show_json(cli, job, "--latency-check=" + cond)
        assert p.returncode == 1
        (r,) = doc["latency_study"]["check"]["conditions"]
        assert r["result"] == result and words in r["text"], r
        assert words in p.stderr


@pytest.mark.parametrize("expr,words", [
    ("", "no condition"),
    ("p99", "no '<'"),
    ("p99>1ms", "no '<'"),
    ("p101<1ms", "(0, 100]"),
    ("p0<1ms", "(0, 100]"),
    ("p<1ms", "not a statistic"),
    ("pabc<1ms", "(0, 100]"),
    ("median<1ms", "not a statistic"),
    ("readd:p99<1ms", "not a statistic"),
    ("p99<5", "with a unit"),
    ("p99<5xs", "with a unit"),
    ("p99<-1ms", "with a unit"),
    ("p99<1.5ns", "with a unit"),
    ("p99<1ms,", "empty condition"),
    ("p99<1ms,,p50<1ms", "empty condition"),
])
def test_check_malformed_is_refused(cli, job, expr, words):
    line = one_error_line(show(cli, job, "--latency-check=" + expr), "--latency-check")
    assert words in line, line
    # run refuses it before creating anything (no configfs here at all)
    line = one_error_line(run(cli, "run", "--filename=/dev/x", "--latency-check=" + expr),
                          "--latency-check")
    assert words in line, line


@pytest.mark.parametrize("opt", ["--latency-below=", "--latency-below=40",
                                 "--latency-below=0us", "--latency-below=1ms,x",
                                 "--latency-table=0", "--latency-table=50:abc",
                                 "--latency-table=101"])
def test_other_options_malformed(cli, job, opt):
    name = opt.split("=")[0]
    one_error_line(show(cli, job, opt), name)
    one_error_line(run(cli, "run", "--filename=/dev/x", opt), name)


def test_run_takes_them_as_command_line_options(cli):
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--latency-table",
            "--latency-below=40us", "--latency_check=p99.95<500us")
    assert p.returncode == 0, p.stderr
    assert "latency" not in p.stdout      # nothing for the module
    assert "--latency-check" in run(cli, "run", "--help").stdout
