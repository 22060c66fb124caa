# SPDX-License-Identifier: GPL-2.0
"""`ssdload pts`: the options and arithmetic of the rounds and the window.

Host only: the options are parsed and refused before any device is
touched, and `ssdload pts window DIR` recomputes a finished run's
measurement window from its pts.json alone.
"""
import subprocess

import pytest

TESTS = ("iops", "throughput", "latency", "wsat", "hir", "xsr", "ecw", "dirth")


def run(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, text=True, timeout=60)


def test_help_lists_all_eight_tests(cli):
    """`ssdload --help` names every PTS test, not the first four."""
    r = run(cli, "--help")
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if ln.split()[:1] == ["pts"])
    for t in TESTS:
        assert t in line, (t, line)
