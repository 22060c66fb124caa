# SPDX-License-Identifier: GPL-2.0
"""--start_at: the instant a run starts on CLOCK_REALTIME (issue 31).

ns since the epoch as given, or +TIME from now; anything else is refused
by value.  The summary's start_at, first_submit_real_ns and start_error_ns
reach the JSON and a start line of the text report, only when start_at
was set.
"""
import json
import time

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import parse_only, run
from debugfs import FakeJob

pytestmark = NEEDS_DEV


@pytest.mark.parametrize("val,lo,hi", [
    ("1796687349160045527", 1796687349160045527, 1796687349160045527),
    ("+2", 2 * 10**9, 2 * 10**9 + 5 * 10**8),
    ("+1500ms", 15 * 10**8, 15 * 10**8 + 5 * 10**8),
    ("+1m", 60 * 10**9, 60 * 10**9 + 5 * 10**8),
])
def test_start_at_values(cli, val, lo, hi):
    now = time.time_ns()
    got = int(parse_only(cli, "--rw=randread", "--start_at=" + val)["start_at"])
    if val.startswith("+"):
        got -= now
    assert lo <= got <= hi, (val, got)


@pytest.mark.parametrize("val", ["-5", "0", "+0", "+2d", "abc", "+", "1.5", "+-1"])
def test_start_at_refused(cli, val):
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--rw=randread",
            "--start_at=" + val)
    assert p.returncode == 1, (val, p.stdout)
    assert "--start_at=" + val in p.stderr, p.stderr


def test_start_in_the_report(cli, geo, tmp_path):
    at = 1_796_687_349_000_000_000
    FakeJob(geo, str(tmp_path), "at", [5000, 6000], [],
            extra=("start_real_ns=%d" % at, "start_at=%d" % at,
                   "first_submit_real_ns=%d" % (at + 1200), "start_error_ns=4500"))
    env = {"SSDLOAD_DEBUGFS": str(tmp_path)}
    p = run(cli, "show", "at", env=env)
    assert p.returncode == 0, p.stderr
    line = [l for l in p.stdout.splitlines() if l.strip().startswith("start ")]
    assert len(line) == 1 and "4.5 us" in line[0], p.stdout
    p = run(cli, "show", "at", "--output-format=json", env=env)
    ext = json.loads(p.stdout)["jobs"][0]["ssdload"]
    assert (ext["start_at"], ext["first_submit_real_ns"], ext["start_error_ns"]) == \
        (at, at + 1200, 4500)
    assert ext["start_real_ns"] == at
    # without start_at: no start line, no start keys
    FakeJob(geo, str(tmp_path), "now", [5000], [], extra=("start_at=0", "start_error_ns=0"))
    p = run(cli, "show", "now", env=env)
    assert not [l for l in p.stdout.splitlines() if l.strip().startswith("start ")]
    ext = json.loads(run(cli, "show", "now", "--output-format=json", env=env).stdout)
    assert "start_error_ns" not in ext["jobs"][0]["ssdload"]
