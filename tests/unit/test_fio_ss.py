# SPDX-License-Identifier: GPL-2.0
"""fio's steady-state rule (userspace/fio/steadystate.c) and its options.

test_fio_ss.c feeds series to the detector; each verdict is checked
against fio 3.33's formula computed here in exact rational arithmetic, as
fio's steadystate.c writes it: x = 0..dur-1, slope = (sum_xy - sum_x
sum_y / n) / (sum_x2 - sum_x^2 / n), in % of the integer mean sum_y / dur
(fio divides integers there); deviation = max |y - sum_y / dur|, in % of
that exact mean; steady once |criterion| < limit, strictly.  Then
`ssdload run --parse-only` with the options, both names of each.
"""
import os
import random
import subprocess
from fractions import Fraction

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run

pytestmark = NEEDS_DEV


@pytest.fixture(scope="module")
def ss(repo, tmp_path_factory):
    exe = str(tmp_path_factory.mktemp("fio_ss") / "test_fio_ss")
    u = os.path.join(repo, "userspace")
    cmd = [os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2",
           "-D_DEFAULT_SOURCE", "-I" + repo, "-I" + u,
           os.path.join(repo, "tests", "unit", "test_fio_ss.c"),
           os.path.join(u, "fio", "steadystate.c"), os.path.join(u, "core", "linfit.c"),
           os.path.join(u, "core", "options.c"), "-lm", "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, "compiling test_fio_ss.c failed:\n" + r.stderr
    return exe


def detect(exe, spec, dur, samples):
    """The program's lines for (ios, bytes) @samples: per sample dicts, and
    the closing lines by their first word."""
    stdin = "".join("%d %d\n" % s for s in samples)
    r = subprocess.run([exe, "run", spec, str(dur)], input=stdin, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    per, end = [], {}
    for line in r.stdout.splitlines():
        head, _, rest = line.partition(" ")
        if head == "sample":
            kv = dict(f.split("=") for f in rest.split()[1:])
            per.append({k: float(v) for k, v in kv.items()})
        else:
            end[head] = rest
    return per, end


# --------------------------------------------------------------------------
# fio's formula, independently

def fio_window(ys, slope_rule, pct):
    """(criterion, slope, deviation) of the full window @ys (oldest first),
    or criterion None where fio's division has no finite result."""
    n = len(ys)
    sum_y = sum(ys)
    if slope_rule:
        sum_x = n * (n - 1) // 2
        sum_x_sq = (n - 1) * n * (2 * n - 1) // 6
        sum_xy = sum(i * y for i, y in enumerate(ys))
        den = Fraction(sum_x_sq) - Fraction(sum_x * sum_x, n)
        if den == 0:
            return None, 0, 0
        slope = (Fraction(sum_xy) - Fraction(sum_x * sum_y, n)) / den
        if pct:
            if sum_y // n == 0:
                return None, slope, 0
            return 100 * slope / (sum_y // n), slope, 0
        return slope, slope, 0
    mean = Fraction(sum_y, n)
    dev = max(abs(y - mean) for y in ys)
    if pct:
        return (100 * dev / mean if mean else None), 0, dev
    return dev, 0, dev


def fio_run(values, dur, slope_rule, pct, limit):
    """Per sample: (attained, criterion, slope, deviation) while judging;
    stops judging at the first steady window, as fio stops the job."""
    out, limit = [], Fraction(limit)
    for k in range(1, len(values) + 1):
        if k < dur:
            out.append(None)
            continue
        crit, slope, dev = fio_window(values[k - dur:k], slope_rule, pct)
        steady = crit is not None and abs(crit) < limit
        out.append((steady, crit, slope, dev))
        if steady:
            break
    return out


def close(a, b):
    return abs(a - float(b)) <= 1e-9 * max(1.0, abs(float(b)))


def check_against_fio(exe, metric, limit, dur, values):
    """Every verdict and figure of the detector is fio's; the sample it
    became steady at (0: never), or None for a series that comes within
    1e-6 of the limit, where floating point and exact arithmetic may part."""
    slope_rule, pct = metric.endswith("_slope"), limit.endswith("%")
    lim = Fraction(limit.rstrip("%"))
    bw = metric.startswith("bw")
    samples = [(0, v) if bw else (v, 0) for v in values]
    per, end = detect(exe, "%s:%s" % (metric, limit), dur, samples)
    want = fio_run(values, dur, slope_rule, pct, lim)
    if any(w and w[1] is not None and abs(abs(w[1]) - lim) <= Fraction(1, 10**6) * max(1, lim)
           for w in want):
        return None
    steady_at = 0
    for k, (got, exp) in enumerate(zip(per, want), 1):
        if exp is None:
            assert got["attained"] == 0, (k, got)
            continue
        steady, crit, slope, dev = exp
        assert close(got["slope"], slope) and close(got["deviation"], dev), (k, got, exp)
        if crit is not None:
            assert close(got["criterion"], crit), (k, got, float(crit))
        assert got["attained"] == int(steady), (k, got, exp)
        if steady:
            steady_at = k
            break
    # once steady, the job stops: later samples change nothing
    assert all(p["attained"] == 1 for p in per[steady_at:]) if steady_at else True
    assert int(end["attained_s"]) == steady_at, end
    return steady_at


# --------------------------------------------------------------------------
# the detector

@pytest.mark.parametrize("spec,want", [
    ("iops:10%", "ok bw=0 by_slope=0 pct=1 limit=10"),
    ("iops_slope:0.1%", "ok bw=0 by_slope=1 pct=1 limit=0.10000000000000001"),
    ("bw:10m", "ok bw=1 by_slope=0 pct=0 limit=10485760"),
    ("bw_slope:1 %", "ok bw=1 by_slope=1 pct=1 limit=1"),
    ("iops:500", "ok bw=0 by_slope=0 pct=0 limit=500"),
])
def test_parse(ss, spec, want):
    r = subprocess.run([ss, "parse", spec], capture_output=True, text=True, timeout=30)
    assert r.stdout.strip() == want


@pytest.mark.parametrize("spec,why", [
    ("iops", "a limit must follow the metric"),
    ("iops:", "a limit must follow the metric"),
    ("lat:10%", "the metric must be iops, iops_slope, bw or bw_slope"),
    ("iops:x%", "not a percentage"),
    ("iops:-1%", "not a percentage"),
    ("iops:10%x", "not a percentage"),
    ("iops:ten", "not a number of IOPS"),
    ("bw:fast", "not a bandwidth"),
])
def test_parse_refuses(ss, spec, why):
    r = subprocess.run([ss, "parse", spec], capture_output=True, text=True, timeout=30)
    assert r.stdout.startswith("error ") and why in r.stdout, r.stdout


def test_constant_rate_is_steady_once_the_window_is_full(ss):
    """A constant series meets every criterion at sample dur, not before."""
    for metric in ("iops", "iops_slope", "bw", "bw_slope"):
        for limit in ("1%", "1"):
            assert check_against_fio(ss, metric, limit, 5, [4000] * 12) == 5, metric


def test_a_trend_is_never_steady_and_its_slope_is_fios(ss):
    """y = 1000 + 50 k: slope 50 per second, in % of the integer mean."""
    values = [1000 + 50 * k for k in range(30)]
    assert check_against_fio(ss, "iops_slope", "1%", 10, values) == 0
    per, _ = detect(ss, "iops_slope:1%", 10, [(v, 0) for v in values])
    assert all(p["slope"] == 50 for p in per[9:])
    assert check_against_fio(ss, "bw_slope", "49", 4, values) == 0
    assert check_against_fio(ss, "bw_slope", "51", 4, values) == 4


def test_a_settling_series_becomes_steady_where_fio_says(ss):
    """A decay to a plateau: steady at the first window fio's rule passes."""
    values = [int(20000 * 0.7 ** k) + 5000 for k in range(40)]
    for metric, limit, dur in (("iops", "5%", 5), ("iops", "20", 8),
                               ("iops_slope", "0.5%", 6), ("bw_slope", "2%", 10)):
        k = check_against_fio(ss, metric, limit, dur, values)
        assert dur < k < len(values), (metric, limit, k)


def test_random_series_match_fio(ss):
    rng = random.Random(28)
    judged = 0
    for _ in range(60):
        dur = rng.randint(2, 12)
        base = rng.randint(1, 10**6)
        values = [max(0, int(base * (1 + rng.uniform(-0.1, 0.1)))) for _ in range(40)]
        metric = rng.choice(["iops", "iops_slope", "bw", "bw_slope"])
        limit = rng.choice(["%d%%" % rng.randint(1, 20), "%d.%02d%%" % (rng.randint(0, 3),
                                                                      rng.randint(1, 99)),
                            str(rng.randint(1, base // 5 + 1))])
        judged += check_against_fio(ss, metric, limit, dur, values) is not None
    assert judged >= 50, judged


def test_slope_percent_uses_fios_integer_mean(ss):
    """[0, 3]: slope 3, sum 3; fio's mean is 3 // 2 = 1, so 300% (not 200%)."""
    per, _ = detect(ss, "iops_slope:250%", 2, [(0, 0), (3, 0)])
    assert per[1]["slope"] == 3 and per[1]["criterion"] == 300 and not per[1]["attained"]
    per, _ = detect(ss, "iops_slope:301%", 2, [(0, 0), (3, 0)])
    assert per[1]["attained"] == 1


def test_a_zero_mean_never_meets_a_percentage(ss):
    per, _ = detect(ss, "iops:10%", 3, [(0, 0)] * 6)
    assert not any(p["attained"] for p in per)
    per, _ = detect(ss, "iops:1", 3, [(0, 0)] * 6)
    assert per[2]["attained"] == 1


def test_window_and_means_as_fios_json(ss):
    """data.iops/bw: the last dur samples oldest first, zeros after them
    while fewer were taken; the means are sum // dur."""
    _, end = detect(ss, "iops:0%", 4, [(10, 100), (11, 110)])
    assert end["window"] == "10 11 0 0 / 100 110 0 0" and end["mean"] == "5 52"
    values = [(k, 10 * k) for k in range(1, 8)]
    _, end = detect(ss, "iops:0%", 4, values)
    assert end["window"] == "4 5 6 7 / 40 50 60 70" and end["mean"] == "5 55"
    assert end["attained_s"] == "0"
    assert end["spec"] == "iops:0.000000%"
    _, end = detect(ss, "bw_slope:1.5%", 4, values)
    assert end["spec"] == "bw_slope:1.500000%"


# --------------------------------------------------------------------------
# the options of ssdload run

def parse_only(cli, *opts):
    return run(cli, "run", "--name=j", f"--filename={DEV}", "--parse-only",
               "--rw=randread", *opts)


def test_options_make_a_one_second_series(cli):
    p = parse_only(cli, "--runtime=60", "--ss=iops:10%", "--ss_dur=30s", "--ss_ramp=10")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "log_interval_ms=1000" in lines
    assert "steadystate=iops:10.000000%" in lines
    assert "steadystate_duration_s=30" in lines and "steadystate_ramp_ms=10000" in lines


def test_default_criterion_and_the_job_ramp(cli):
    """fio's default is iops_slope:0.01%; no sample falls in ramp_time."""
    p = parse_only(cli, "--runtime=60", "--ramp_time=15", "--steadystate_duration=20",
                   "--steadystate_ramp_time=5")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "steadystate=iops_slope:0.010000%" in lines
    assert "steadystate_ramp_ms=15000" in lines


def test_a_given_series_interval_must_divide_a_second(cli):
    p = parse_only(cli, "--runtime=60", "--ss_dur=10", "--log_interval_ms=250")
    assert p.returncode == 0, p.stderr
    assert "log_interval_ms=250" in p.stdout.splitlines()
    one_error_line(parse_only(cli, "--runtime=60", "--ss_dur=10", "--log_interval_ms=300"),
                   "log_interval_ms=300", "divisor of 1000 ms")


@pytest.mark.parametrize("opts,needles", [
    (("--ss_dur=10",), ("--ss_dur=10", "needs a timed run", "runtime")),
    (("--runtime=60", "--ss_dur=1500ms"), ("ss_dur=1500ms", "whole seconds")),
    (("--runtime=60", "--ss_dur=10", "--ss=iops"), ("--ss=iops", "limit must follow")),
    (("--runtime=60", "--ss_dur=10", "--steadystate=lat:1%"),
     ("--steadystate=lat:1%", "iops, iops_slope, bw or bw_slope")),
    (("--runtime=60", "--ss_dur=10", "--step=runtime=5"), ("ss_dur", "not with steps")),
])
def test_refusals(cli, opts, needles):
    one_error_line(parse_only(cli, *opts), *needles)


def test_no_duration_no_detection(cli):
    """fio: steadystate without a duration detects nothing; said, not hidden."""
    p = parse_only(cli, "--runtime=60", "--ss=bw:1%")
    assert p.returncode == 0, p.stderr
    assert "steadystate" not in p.stdout and "log_interval_ms" not in p.stdout
    assert "no steady-state detection without steadystate_duration" in p.stderr


@pytest.mark.parametrize("opts", [
    ("--ss=bw_slope:2%", "--ss_dur=10", "--ss_ramp=3"),
    ("--steadystate=bw_slope:2%", "--steadystate_duration=10",
     "--steadystate_ramp_time=3"),
])
def test_both_names_in_a_job_file(cli, tmp_path, opts):
    """As fio's examples/steadystate.fio writes them, and by their names."""
    f = tmp_path / "ss.fio"
    f.write_text(f"[j]\nfilename={DEV}\nrw=read\nruntime=60\n" +
                 "".join(o[2:] + "\n" for o in opts))
    p = run(cli, "run", "--parse-only", str(f))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "steadystate=bw_slope:2.000000%" in lines and "steadystate_duration_s=10" in lines
    assert "steadystate_ramp_ms=3000" in lines and "log_interval_ms=1000" in lines
