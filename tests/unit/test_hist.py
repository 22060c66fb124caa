# SPDX-License-Identifier: GPL-2.0
"""Histogram maths (uapi/ssdload.h + userspace/core/hist.c), one test per property.

test_hist.c is compiled with -Wall -Wextra -Werror against the uapi header
and the CLI's hist.c; each property is one subcommand of the binary.
"""
import os
import subprocess

import pytest


@pytest.fixture(scope="module")
def test_hist(repo, tmp_path_factory):
    exe = str(tmp_path_factory.mktemp("hist") / "test_hist")
    cmd = [os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2",
           "-I" + repo, "-I" + os.path.join(repo, "userspace"),
           os.path.join(repo, "tests", "unit", "test_hist.c"),
           os.path.join(repo, "userspace", "core", "hist.c"), "-lm", "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, "compiling test_hist.c failed:\n" + r.stderr
    return exe


def run(exe, prop):
    r = subprocess.run([exe, prop], capture_output=True, text=True, timeout=300)
    assert "FAIL" not in r.stdout, r.stdout
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok " + prop), r.stdout
    return r.stdout


def test_bucket_bounds_round_trip(test_hist):
    """index(lower(i)) == index(upper(i)) == i; buckets are contiguous."""
    run(test_hist, "roundtrip")


def test_relative_error_bound(test_hist):
    """|value(index(v)) - v| / v <= 1/256 for all v < 2^20 and dense samples to 2^40."""
    out = run(test_hist, "relerr")
    worst = float(out.split("worst ")[1].split()[0])
    assert worst <= 1 / 256 + 1e-12


def test_values_beyond_range_clamp(test_hist):
    """Values >= 2^40 ns land in the last bucket."""
    run(test_hist, "clamp")


def test_percentiles_match_exact_sample(test_hist):
    """Percentiles from counts are within the bucket error of exact sample percentiles."""
    out = run(test_hist, "percentiles")
    assert out.count("ok percentiles") == 3


def test_mean_stddev_from_exact_sums(test_hist):
    run(test_hist, "stats")


def test_fio_latency_distribution(test_hist):
    run(test_hist, "latdist")
