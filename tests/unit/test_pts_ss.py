# SPDX-License-Identifier: GPL-2.0
"""`ssdload pts ss-check`: the steady-state rule of SNIA SSS PTS 2.0.2 (2.1.24).

Every verdict is checked against an independent implementation here, in
exact rational arithmetic (fractions.Fraction from the decimal text, the
textbook least-squares formula over the round numbers), so a series on a
20% / 10% boundary is exactly on it.  The program compares in floating
point with a tolerance of 1e-9 of the average (Documentation/pts.rst);
the "just past" series below are 1e-5 or more past, far outside it.
"""
import json
import os
import random
import re
import subprocess
from fractions import Fraction

import pytest

WINDOW, MAX_ROUNDS, RANGE_PCT, SLOPE_PCT = 5, 25, 20, 10


# --------------------------------------------------------------------------
# the rule, independently

def oracle_window(ys, first, range_pct=RANGE_PCT, slope_pct=SLOPE_PCT):
    """One measurement window: ys are Fractions of rounds first, first+1, ..."""
    n = len(ys)
    xs = list(range(first, first + n))
    sx, sy = sum(xs), sum(ys)
    sxy = sum(x * y for x, y in zip(xs, ys))
    sxx = sum(x * x for x in xs)
    slope = Fraction(n * sxy - sx * sy, n * sxx - sx * sx)
    intercept = (sy - slope * sx) / n
    avg = sy / n
    rng = max(ys) - min(ys)
    exc = abs(slope) * (n - 1)
    return {
        "first_round": first, "last_round": first + n - 1,
        "average": avg, "min": min(ys), "max": max(ys), "range": rng,
        "slope": slope, "intercept": intercept, "slope_excursion": exc,
        "range_pct": rng / avg * 100 if avg else None,
        "slope_excursion_pct": exc / avg * 100 if avg else None,
        "range_pass": avg > 0 and rng <= Fraction(range_pct) / 100 * avg,
        "slope_pass": avg > 0 and exc <= Fraction(slope_pct) / 100 * avg,
    }


def oracle(values, window=WINDOW, max_rounds=MAX_ROUNDS, range_pct=RANGE_PCT,
           slope_pct=SLOPE_PCT):
    """(steady round or None, decision window, rounds evaluated)."""
    ys = [Fraction(str(v)) for v in values]
    last = min(len(ys), max_rounds)
    w = None
    for r in range(window, last + 1):
        w = oracle_window(ys[r - window:r], r - window + 1, range_pct, slope_pct)
        if w["range_pass"] and w["slope_pass"]:
            return r, w, r
    return None, w, last


# --------------------------------------------------------------------------
# helpers

def run(cli, *args, stdin=None):
    return subprocess.run([cli, "pts", "ss-check"] + list(args), input=stdin,
                          capture_output=True, text=True, timeout=60)


def write(tmp_path, values, name="series.txt"):
    p = tmp_path / name
    p.write_text("".join("%s\n" % v for v in values))
    return str(p)


def verdict(p):
    return p.stdout.rstrip("\n").splitlines()[-1]


def expected_verdict(values, **kw):
    r, w, n = oracle(values, **kw)
    if r:
        return "steady state reached at round %d (window %d..%d)" % (
            r, w["first_round"], w["last_round"])
    return "steady state not achieved in %d rounds (limit %d)" % (
        n, kw.get("max_rounds", MAX_ROUNDS))


def check(cli, tmp_path, values, *args, **kw):
    """Run ss-check on @values; assert verdict and exit status match the oracle."""
    p = run(cli, *args, write(tmp_path, values))
    r, w, _ = oracle(values, **kw)
    assert p.returncode == (0 if r else 1), p.stdout + p.stderr
    assert p.stderr == ""
    assert verdict(p) == expected_verdict(values, **kw), p.stdout
    return p, r, w


def one_error(p, *needles):
    assert p.returncode == 2, "exit %d; stdout %r" % (p.returncode, p.stdout)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, "expected one error line, got %r" % p.stderr
    assert lines[0].startswith("ssdload: "), lines[0]
    for n in needles:
        assert n in lines[0], "%r does not mention %r" % (lines[0], n)
    assert p.stdout == ""
    return lines[0]


def text_fields(p):
    """The labelled lines of the text report."""
    out = {}
    for line in p.stdout.splitlines():
        m = re.match(r"  round (\d+)\s+(\S+)$", line)
        if m:
            out.setdefault("rounds", []).append(int(m.group(1)))
            out.setdefault("values", []).append(float(m.group(2)))
            continue
        m = re.match(r"(average|range|slope excursion)\s+(\S+)(?: = (\S+)% of the average"
                     r" \(limit (\S+)%\): (pass|fail))?", line)
        if m:
            out[m.group(1)] = float(m.group(2))
            if m.group(3):
                out[m.group(1) + " pct"] = float(m.group(3))
                out[m.group(1) + " limit"] = float(m.group(4))
                out[m.group(1) + " pass"] = m.group(5) == "pass"
        m = re.match(r"least squares\s+y = (\S+) \* round ([+-]) (\S+)$", line)
        if m:
            out["slope"] = float(m.group(1))
            out["intercept"] = float(m.group(3)) * (-1 if m.group(2) == "-" else 1)
        m = re.match(r"measurement window: rounds (\d+)\.\.(\d+)$", line)
        if m:
            out["window"] = (int(m.group(1)), int(m.group(2)))
    return out


def close(a, b, rel=1e-9):
    return abs(float(a) - float(b)) <= rel * max(1.0, abs(float(b)))


# --------------------------------------------------------------------------
# series

def test_flat_series_steady_at_first_possible_round(cli, tmp_path):
    p, r, w = check(cli, tmp_path, [50000] * 12)
    assert r == 5
    f = text_fields(p)
    assert f["window"] == (1, 5) and f["rounds"] == [1, 2, 3, 4, 5]
    assert f["average"] == 50000 and f["range"] == 0 and f["slope excursion"] == 0
    assert "note: 7 values after round 5 not used (the test stops at steady state)" \
        in p.stdout


def test_steady_at_round_5_exactly_five_values(cli, tmp_path):
    p, r, _ = check(cli, tmp_path, [1000, 1010, 990, 1005, 995])
    assert r == 5 and "note:" not in p.stdout


def test_trending_series_fails_slope(cli, tmp_path):
    """IOPS falling 3% a round (a write cliff): each window's range is
    about 11.5% (passes), its slope excursion about 12% (fails)."""
    values = [round(100000 * 0.97 ** k, 3) for k in range(25)]
    p, r, w = check(cli, tmp_path, values)
    assert r is None
    assert w["range_pass"] and not w["slope_pass"]
    f = text_fields(p)
    assert f["window"] == (21, 25)
    assert f["range pass"] and not f["slope excursion pass"]


def test_noisy_series_fails_range(cli, tmp_path):
    values = [70, 130] * 10
    p, r, w = check(cli, tmp_path, values)
    assert r is None and not w["range_pass"] and w["slope_pass"]
    assert verdict(p) == "steady state not achieved in 20 rounds (limit 25)"


def test_passes_range_fails_slope(cli, tmp_path):
    # avg 100, range 10 (10%), slope 3 a round: excursion 12 (12%)
    values = [95, 95, 100, 105, 105]
    p, r, w = check(cli, tmp_path, values)
    assert r is None and w["range_pass"] and not w["slope_pass"]
    assert w["slope"] == 3 and w["slope_excursion"] == 12
    f = text_fields(p)
    assert f["range pass"] and not f["slope excursion pass"]
    assert f["slope excursion pct"] == 12 and f["range pct"] == 10


def test_passes_slope_fails_range(cli, tmp_path):
    # avg 100, range 40 (40%), least-squares slope exactly 0
    values = [100, 80, 120, 120, 80]
    p, r, w = check(cli, tmp_path, values)
    assert r is None and not w["range_pass"] and w["slope_pass"]
    assert w["slope"] == 0
    f = text_fields(p)
    assert not f["range pass"] and f["slope excursion pass"]


@pytest.mark.parametrize("values,range_ok,slope_ok", [
    # range exactly 20% of avg 100 (slope 1: excursion 4%)
    ([90, 110, 100, 100, 100], True, True),
    # range 20001 of avg 100000: 20.001%
    ([90000, 110001, 100000, 99999, 100000], False, True),
    # slope 2.5 a round: excursion exactly 10 = 10% of avg 100 (range 10%)
    ([95, 95, 105, 100, 105], True, True),
    # slope 2500.1 a round, avg 100000: excursion 10000.4 = 10.0004%
    ([95000, 94999, 105001, 100000, 105000], True, False),
    # decimals on the boundary that binary floating point cannot hold exactly:
    # range 0.2 = 20% of 1 (computes as 20.000000000000007%)
    (["0.9", "1.1", "1", "1", "1"], True, True),
    # excursion 0.1 = 10% of 1 (slope 0.025)
    (["0.95", "0.95", "1.05", "1", "1.05"], True, True),
    # ... and 1e-5 of the average past each
    (["0.89999", "1.1", "1.00001", "1", "1"], False, True),
    (["0.95", "0.95", "1.04999", "1", "1.05001"], True, False),
])
def test_boundaries(cli, tmp_path, values, range_ok, slope_ok):
    p, r, w = check(cli, tmp_path, values)
    assert (w["range_pass"], w["slope_pass"]) == (range_ok, slope_ok)
    assert (r == 5) == (range_ok and slope_ok)
    f = text_fields(p)
    assert (f["range pass"], f["slope excursion pass"]) == (range_ok, slope_ok)


def test_boundaries_are_exact(cli):
    """The boundary series above are exactly on (or past) their limits."""
    w = oracle_window([Fraction(v) for v in (90, 110, 100, 100, 100)], 1)
    assert w["range_pct"] == 20
    w = oracle_window([Fraction(v) for v in (95, 95, 105, 100, 105)], 1)
    assert w["slope_excursion_pct"] == 10
    w = oracle_window([Fraction(v) for v in ("0.9", "1.1", "1", "1", "1")], 1)
    assert w["range_pct"] == 20
    w = oracle_window([Fraction(v) for v in ("0.95", "0.95", "1.05", "1", "1.05")], 1)
    assert w["slope_excursion_pct"] == 10
    w = oracle_window([Fraction(v) for v in (95000, 94999, 105001, 100000, 105000)], 1)
    assert w["slope_excursion_pct"] == Fraction("10.0004")


def noisy_then_flat(flat_from, n):
    """Alternating 50/150 up to round flat_from - 1, then 100."""
    return [(50 if k % 2 else 150) if k < flat_from else 100 for k in range(1, n + 1)]


def test_round_limit_not_achieved(cli, tmp_path):
    values = noisy_then_flat(23, 30)
    assert oracle(values, max_rounds=100)[0] == 27
    p, r, w = check(cli, tmp_path, values)
    assert r is None
    assert verdict(p) == "steady state not achieved in 25 rounds (limit 25)"
    assert text_fields(p)["window"] == (21, 25)
    assert "note: 5 values after round 25 not used (the round limit)" in p.stdout
    # the same series with a higher limit reaches it at round 27
    p, r, _ = check(cli, tmp_path, values, "--max-rounds=30", max_rounds=30)
    assert r == 27 and verdict(p) == "steady state reached at round 27 (window 23..27)"


def test_round_limit_reached_at_25(cli, tmp_path):
    values = noisy_then_flat(21, 30)
    p, r, _ = check(cli, tmp_path, values)
    assert r == 25
    assert verdict(p) == "steady state reached at round 25 (window 21..25)"


def test_not_achieved_before_the_limit(cli, tmp_path):
    """Fewer rounds than the limit, none steady: exit 1, rounds as given."""
    p, r, _ = check(cli, tmp_path, noisy_then_flat(100, 9))
    assert verdict(p) == "steady state not achieved in 9 rounds (limit 25)"


def test_all_zero_window_is_not_steady(cli, tmp_path):
    p, r, w = check(cli, tmp_path, [0] * 6)
    assert r is None
    assert "n/a, the average is 0" in p.stdout


def test_options(cli, tmp_path):
    values = [100, 104, 100, 104, 100, 104, 100, 104]
    # window 3: range 4 of avg ~101 passes, slope excursion small
    for args, kw in [(["--window=3"], {"window": 3}),
                     (["--range=3"], {"range_pct": 3}),
                     (["--slope", "0"], {"slope_pct": 0}),
                     (["--range=3.9", "--slope=0.5", "--window", "4"],
                      {"range_pct": Fraction("3.9"), "slope_pct": Fraction("0.5"),
                       "window": 4}),
                     (["--max-rounds=6"], {"max_rounds": 6})]:
        check(cli, tmp_path, values, *args, **kw)


def test_comments_blank_lines_and_spaces(cli, tmp_path):
    p = tmp_path / "c.txt"
    p.write_text("# IOPS per round\n\n  1000\r\n1001 # round 2\n\t1002\n#\n1003\n1004  \n")
    r = run(cli, str(p))
    assert r.returncode == 0, r.stderr
    assert text_fields(r)["values"] == [1000, 1001, 1002, 1003, 1004]


def test_stdin(cli, tmp_path):
    values = [1000, 1010, 990, 1005, 995, 1000]
    p = run(cli, "-", stdin="".join("%d\n" % v for v in values))
    f = run(cli, write(tmp_path, values))
    assert p.returncode == f.returncode == 0
    assert p.stdout.replace("<stdin>", "F") == f.stdout.replace(write(tmp_path, values), "F")
    assert "<stdin>" in p.stdout.splitlines()[0]


def test_random_series_agree_with_oracle(cli, tmp_path):
    rng = random.Random(20240509)
    for i in range(60):
        n = rng.randint(5, 30)
        base = rng.choice([1, 100, 25000, 1e6])
        spread = rng.choice([0.02, 0.08, 0.15, 0.3])
        trend = rng.choice([0, 0.005, 0.02, -0.03])
        values = ["%.3f" % max(0.0, base * (1 + trend * k + rng.uniform(-spread, spread) / 2))
                  for k in range(n)]
        p = run(cli, write(tmp_path, values, "r%d.txt" % i))
        r, _, _ = oracle(values)
        assert p.returncode == (0 if r else 1), (values, p.stdout, p.stderr)
        assert verdict(p) == expected_verdict(values), values


# --------------------------------------------------------------------------
# JSON

def test_json_agrees_with_text_and_oracle(cli, tmp_path):
    for values in ([1000, 1010, 990, 1005, 995, 1000],
                   noisy_then_flat(23, 30),
                   [95000, 94999, 105001, 100000, 105000],
                   [round(100000 * 0.97 ** k, 3) for k in range(25)]):
        path = write(tmp_path, values)
        t = run(cli, path)
        j = run(cli, "--json", path)
        assert j.returncode == t.returncode and j.stderr == ""
        o = json.loads(j.stdout)
        r, w, n = oracle(values)
        tf = text_fields(t)
        assert o["spec"] == "SNIA SSS PTS 2.0.2" and o["clause"] == "2.1.24"
        assert o["limits"] == {"window": 5, "max_rounds": 25, "range_pct": 20,
                               "slope_pct": 10, "epsilon": pytest.approx(1e-9)}
        assert o["file"] == path and o["values"] == len(values)
        assert o["steady"] == (r is not None) and o["steady_round"] == r
        assert o["rounds_evaluated"] == n and o["unused_values"] == len(values) - n
        assert o["verdict"] == verdict(t) == expected_verdict(values)
        ow = o["window"]
        assert (ow["first_round"], ow["last_round"]) == tf["window"]
        assert ow["rounds"] == tf["rounds"] == list(range(w["first_round"],
                                                          w["last_round"] + 1))
        assert ow["values"] == tf["values"]
        for k in ("average", "min", "max", "range", "slope", "intercept",
                  "slope_excursion", "range_pct", "slope_excursion_pct"):
            assert close(ow[k], w[k]), (k, ow[k], w[k])
        for k in ("range_pass", "slope_pass"):
            assert ow[k] == w[k]
        assert ow["range_pass"] == tf["range pass"]
        assert ow["slope_pass"] == tf["slope excursion pass"]
        for k, tk in (("average", "average"), ("range", "range"),
                      ("slope_excursion", "slope excursion"), ("slope", "slope"),
                      ("intercept", "intercept")):
            assert close(ow[k], tf[tk], 1e-8), (k, ow[k], tf[tk])
        assert close(ow["range_pct"], tf["range pct"], 1e-5)
        assert close(ow["slope_excursion_pct"], tf["slope excursion pct"], 1e-5)
        # one history entry for each window evaluated, the last is the decision
        assert [h["last_round"] for h in o["history"]] == list(range(5, n + 1))
        assert [h["steady"] for h in o["history"]] == [False] * (n - 5) + [r is not None]
        assert o["history"][-1]["average"] == ow["average"]


def test_json_zero_average_percentages_are_null(cli, tmp_path):
    p = run(cli, "--json", write(tmp_path, [0] * 5))
    o = json.loads(p.stdout)
    assert p.returncode == 1
    assert o["window"]["range_pct"] is None and o["window"]["slope_excursion_pct"] is None


# --------------------------------------------------------------------------
# bad input and usage

@pytest.mark.parametrize("text,line,needle", [
    ("1\n2\n3\n4\n", 4, "after 4 values"),
    ("", 1, "after 0 values"),
    ("# only a comment\n\n", 2, "after 0 values"),
    ("100\nabc\n100\n100\n100\n", 2, "'abc' is not a number"),
    ("100\n100\n-1\n100\n100\n", 3, "'-1' is negative"),
    ("nan\n100\n100\n100\n100\n", 1, "'nan' is not a finite number"),
    ("100\nNaN\n100\n100\n100\n", 2, "'NaN' is not a finite number"),
    ("100\n100\n100\ninf\n100\n", 4, "'inf' is not a finite number"),
    ("100\n100\n100\n100\n1e999\n", 5, "'1e999' is out of range"),
    ("100\n0x64\n100\n100\n100\n", 2, "'0x64' is not a number"),
    ("100\n100 101\n100\n100\n100\n", 2, "one value per line"),
    ("100\n1,000\n100\n100\n100\n", 2, "'1,000' is not a number"),
    # every line is checked, also after the round limit
    ("100\n" * 30 + "x\n", 31, "'x' is not a number"),
])
def test_bad_input(cli, tmp_path, text, line, needle):
    p = tmp_path / "bad.txt"
    p.write_text(text)
    err = one_error(run(cli, str(p)), "%s:%d: " % (p, line), needle)
    if "after" in needle:
        assert "the measurement window needs 5" in err
    # the same from stdin names <stdin>
    one_error(run(cli, "-", stdin=text), "<stdin>:%d: " % line, needle)


def test_missing_file(cli, tmp_path):
    p = str(tmp_path / "nope.txt")
    one_error(run(cli, p), p + ": ", "No such file")


def test_too_few_for_a_larger_window(cli, tmp_path):
    one_error(run(cli, "--window=8", write(tmp_path, [1] * 7)),
              "after 7 values", "needs 8")


@pytest.mark.parametrize("args,needle", [
    (["--window=1"], "--window=1"),
    (["--window=x"], "--window=x"),
    (["--max-rounds=0"], "--max-rounds=0"),
    (["--window=6", "--max-rounds=5"], "--max-rounds=5"),
    (["--range=-1"], "--range=-1"),
    (["--range=101"], "--range=101"),
    (["--slope=nan"], "--slope=nan"),
    (["--slope"], "--slope"),
    (["--bogus"], "--bogus"),
    (["a.txt", "b.txt"], "one file only"),
])
def test_bad_usage(cli, args, needle):
    one_error(run(cli, *args, "a.txt" if "a.txt" not in args else "--json"), needle)


def test_pts_usage(cli):
    p = subprocess.run([cli, "pts"], capture_output=True, text=True)
    assert p.returncode == 2 and "usage: ssdload pts" in p.stderr
    p = subprocess.run([cli, "pts", "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and "ss-check" in p.stdout
    assert "Not implemented yet" not in p.stdout and "iops" in p.stdout
    assert "ecw" in p.stdout and "dirth" in p.stdout
    assert "2.0.2" in p.stdout
    p = subprocess.run([cli, "help", "pts"], capture_output=True, text=True)
    assert p.returncode == 0 and "usage: ssdload pts" in p.stdout
    p = subprocess.run([cli, "pts", "ss-check", "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and "usage: ssdload pts ss-check" in p.stdout
    assert "Exit status: 0 steady state reached, 1 not reached, 2 bad" in p.stdout
    p = subprocess.run([cli, "pts", "ss-check"], capture_output=True, text=True)
    assert p.returncode == 2 and "usage: ssdload pts ss-check" in p.stderr
    for t in ("iops", "throughput", "latency", "wsat", "hir", "xsr", "ecw", "dirth"):
        p = subprocess.run([cli, "pts", t], capture_output=True, text=True)
        one_error(p, "pts %s: --filename=DEV is required" % t)
        p = subprocess.run([cli, "pts", t, "--help"], capture_output=True, text=True)
        assert p.returncode == 0 and "--resume=DIR" in p.stdout and "--point-time" in p.stdout
    one_error(subprocess.run([cli, "pts", "frob"], capture_output=True, text=True),
              "'frob' is not a test")
    p = subprocess.run([cli, "--help"], capture_output=True, text=True)
    assert re.search(r"^\s+pts\s", p.stdout, re.M), p.stdout


# ---------------------------------------------------------------------------
# the tests' refusals that need no device (the rest: tests/e2e/test_pts.py)

@pytest.mark.parametrize("args,needle", [
    (["--filename=/dev/nonexistent-ssdload"], "--allow_write"),
    (["--filename=/dev/null", "--allow_write"], "not a block device"),
    (["--filename=/dev/null", "--allow_write", "--purge=shred"], "--purge=shred"),
    (["--filename=/dev/null", "--allow_write", "--write-cache=2"], "--write-cache=2"),
    (["--filename=/dev/null", "--allow_write", "--point-time=50ms"], "--point-time"),
    (["--filename=/dev/null", "--allow_write", "--max-rounds=4"], "--max-rounds"),
    (["--filename=/dev/null", "--allow_write", "--wipc=x"], "--wipc"),
    (["--filename=/dev/null", "--allow_write", "--iodepth=0"], "--iodepth"),
    (["--filename=/dev/null", "--allow_write", "--bs=1m"], "--bs is an option of the throughput and dirth"),
    (["--filename=/dev/null", "--allow_write", "extra"], "unexpected argument"),
])
def test_pts_refusals(cli, tmp_path, args, needle):
    out = tmp_path / "out"
    p = subprocess.run([cli, "pts", "iops", "--output-dir=%s" % out] + args,
                       capture_output=True, text=True)
    one_error(p, needle)
    assert not out.exists()


@pytest.mark.parametrize("test,args,needle", [
    ("iops", ["--duration=1h"], "--duration (wsat, xsr) and --write-limit (wsat) are not"),
    ("latency", ["--write-limit=2"], "--write-limit (wsat) are not options of this test"),
    ("xsr", ["--write-limit=2"], "--write-limit (wsat) are not options of this test"),
    ("wsat", ["--max-rounds=30"], "--max-rounds does not apply"),
    ("xsr", ["--max-rounds=30"], "--max-rounds does not apply"),
    ("wsat", ["--duration=50ms"], "--duration=50ms: must be 100ms to 7 days"),
    ("wsat", ["--duration=8d"], "--duration=8d"),
    ("wsat", ["--write-limit=0"], "--write-limit=0: must be a factor above 0"),
    ("wsat", ["--write-limit=65"], "--write-limit=65"),
    ("wsat", ["--write-limit=nan"], "--write-limit=nan"),
    ("wsat", ["--bs=1m"], "--bs is an option of the throughput"),
    ("hir", ["--duration=1h"], "--duration (wsat, xsr) and --write-limit (wsat) are not"),
    ("wsat", ["--cycles=10"], "--access-time and --cycles are options of the hir test"),
    ("iops", ["--access-time=1s"], "--access-time and --cycles are options of the hir"),
    ("hir", ["--access-time=10ms"], "--access-time=10ms: must be 50ms to 10m"),
    ("hir", ["--cycles=0"], "--cycles=0: must be an integer from 1"),
    ("hir", ["--cycles=2049"], "--cycles=2049: must be an integer from 1 to 2048"),
    ("wsat", ["--duration=30s"], "is shorter than one sample (--point-time 60000ms)"),
    ("xsr", ["--duration=1s", "--point-time=800ms"], "leaves the RND segment (3/4 of it)"),
    ("hir", ["--threads=64"], "64 threads x 360 cycles keep about 1440 MiB"),
    ("ecw", ["--threads=4"], "--threads and --iodepth do not apply"),
    ("dirth", ["--iodepth=4"], "--threads and --iodepth do not apply"),
    ("iops", ["--tc-list=4,2"], "--tc-list and --qd-list are options of the ecw and dirth"),
    ("wsat", ["--qd-list=4"], "--tc-list and --qd-list are options of the ecw and dirth"),
    ("ecw", ["--tc-list=4,0"], "--tc-list=4,0: '0' is not an integer from 1 to 256"),
    ("dirth", ["--qd-list=4,x"], "--qd-list=4,x: 'x' is not an integer from 1 to 1024"),
    ("dirth", ["--qd-list=1025"], "'1025' is not an integer from 1 to 1024"),
    ("dirth", ["--tc-list=4,2,4"], "--tc-list=4,2,4: 4 is given twice"),
    ("dirth", ["--tc-list=1,2,3,4,5,6,7,8,9"], "at most 8 values"),
    ("dirth", ["--tc-list=,"], "give one value or more"),
    ("ecw", ["--rwmixread=50"], "--rwmixread is an option of the dirth test only"),
    ("iops", ["--rwmixread=50"], "--rwmixread is an option of the dirth test only"),
    ("dirth", ["--rwmixread=101"], "--rwmixread=101: must be an integer from 0 to 100"),
    ("ecw", ["--bs=4k"], "--bs is an option of the throughput and dirth tests only"),
    ("dirth", ["--bs=1000"], "--bs=1000: must be a multiple of 512 from 512 to 1m"),
    ("dirth", ["--bs=2m"], "--bs=2m: must be a multiple of 512"),
    ("throughput", ["--bs=64k"], "the throughput test runs 128k or 1m"),
    ("dirth", ["--bs=1m"], "T32Q32 of 1048576-byte blocks keeps about 2062 MiB"),
    ("dirth", ["--bs=256k", "--qd-list=64,1"], "T32Q64 of 262144-byte blocks keeps about"),
])
def test_pts_wsat_refusals(cli, tmp_path, test, args, needle):
    out = tmp_path / "out"
    p = subprocess.run([cli, "pts", test, "--output-dir=%s" % out, "--filename=/dev/null",
                        "--allow_write"] + args, capture_output=True, text=True)
    one_error(p, needle)
    assert not out.exists()


def test_pts_resume_refusals(cli, tmp_path):
    p = subprocess.run([cli, "pts", "--resume=%s" % tmp_path], capture_output=True, text=True)
    one_error(p, "is not the state of a pts run")
    p = subprocess.run([cli, "pts", "iops", "--resume=%s" % tmp_path, "--threads=2"],
                       capture_output=True, text=True)
    one_error(p, "--resume continues with the options")
