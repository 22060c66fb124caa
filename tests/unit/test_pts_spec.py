# SPDX-License-Identifier: GPL-2.0
"""Values `ssdload pts` takes from SNIA SSS PTS 2.0.2, against the text.

test_pts_spec.c is compiled with -Wall -Wextra -Werror against
userspace/pts/spec.h, ss.h and ss.c; each check is one subcommand.  The
section each value is cited to is in Documentation/pts.rst.
"""
import os
import subprocess

import pytest


@pytest.fixture(scope="module")
def exe(repo, tmp_path_factory):
    out = str(tmp_path_factory.mktemp("pts_spec") / "test_pts_spec")
    cmd = [os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2",
           "-I" + os.path.join(repo, "userspace"),
           os.path.join(repo, "tests", "unit", "test_pts_spec.c"),
           os.path.join(repo, "userspace", "pts", "ss.c"),
           os.path.join(repo, "userspace", "core", "linfit.c"), "-lm", "-o", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, "compiling test_pts_spec.c failed:\n" + r.stderr
    return out


def check(exe, name):
    r = subprocess.run([exe, name], capture_output=True, text=True, timeout=60)
    assert "FAIL" not in r.stdout, r.stdout
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == "ok " + name, r.stdout


def test_steady_state_rule(exe):
    """Definition 2.1.24: a window of 5 rounds, 20% and 10%; 25 rounds at most."""
    check(exe, "rule")


def test_iops_matrix_and_load(exe):
    """IOPS steps 2.1.2-3.2.1.2: the mixes and block sizes in order, T4Q32, 1 minute."""
    check(exe, "iops")


def test_wipc(exe):
    """IOPS step 2.2: SEQ 128KiB writes, twice the user capacity."""
    check(exe, "wipc")


def test_iops_tracking_variables(exe):
    """IOPS step 3.2.1.2.2: RND 4KiB 0/100, 64KiB 65/35 and 1024KiB 100/0 IOPS."""
    check(exe, "iops_tracks")


def test_steady_when_every_variable_is(exe):
    """Several variables: the first window in which all of them pass."""
    check(exe, "scan_all")


def test_iops_test_uses_the_values(repo):
    """pts.c's IOPS test is the one given spec.h's values."""
    with open(os.path.join(repo, "userspace", "pts", "pts.c"), encoding="utf-8") as f:
        src = f.read()
    iops = src[src.index('.name = "iops"'):src.index('.name = "throughput"')]
    for use in (".tracks = pts_iops_tracks, .ntracks = PTS_IOPS_NTRACKS",
                ".threads = PTS_IOPS_TC, .iodepth = PTS_IOPS_QD", ".bs = PTS_IOPS_BSS",
                ".mix = PTS_IOPS_MIXES", ".wipc = 2"):
        assert use in iops, use


def test_report_shows_every_tracking_variable(tmp_path):
    """The report's verdict lists each IOPS tracking variable, and a run
    whose 0/100 4KiB window passes is not steady while 64KiB 65/35 fails."""
    from pts_docs import iops_doc
    from report import have_matplotlib, render_file
    if not have_matplotlib():
        pytest.skip("no matplotlib for the report (apt install python3-matplotlib)")
    doc = iops_doc()
    ss = doc["steady_state"]
    assert ss["range_pass"] and ss["slope_pass"]
    ok = {k: ss[k] for k in ("range_pct", "slope_excursion_pct", "range_pass",
                             "slope_pass")}
    bad = dict(ok, range_pct=35.0, range_pass=False)
    ss.update(reached=False, round=None, variables=[
        dict(ok, bs=4096, rwmixread=0), dict(bad, bs=65536, rwmixread=65),
        dict(ok, bs=1048576, rwmixread=100)])
    r = render_file(tmp_path / "iops", "pts.json", doc)
    assert r.returncode == 0, r.stderr
    html = (tmp_path / "iops" / "report.html").read_text(encoding="utf-8")
    assert "Steady state NOT achieved" in html
    for label in ("RND 4 KiB 0/100", "RND 64 KiB 65/35", "RND 1024 KiB 100/0"):
        assert "Tracking " + label in html, label
    row = html[html.index("Tracking RND 64 KiB 65/35"):]
    row = row[:row.index("</tr>")]
    assert "35%" in row and ">fail<" in row, row
