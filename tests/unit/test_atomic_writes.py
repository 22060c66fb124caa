# SPDX-License-Identifier: GPL-2.0
"""The files the CLI and the renderer write: never through a link, and
never in a directory another user could tamper with (Documentation/cli.rst,
"Result files").

A symlink to a victim file is planted where the results were written
before: at PATH.tmp (the old temporary name of report.html, the CSV
tables and the SVG plots) and at the fio logs' own names.  The victim must
stay unchanged and the results must still be written, as regular files,
whole and with the mode the umask gives.  A result directory that other
users may write without the sticky bit, or that another user owns, is
refused with the reason and nothing is written in it; a sticky
world-writable one such as /tmp itself is accepted.
"""
import csv
import json
import os
import stat
import subprocess
import xml.etree.ElementTree as ET

import pytest

from cli import one_error_line, put, run
from compare_docs import other_drive
from curve_docs import done_doc, stopped_doc
from fakemodule import logged_run
from report import PYTHON, SCRIPT, have_matplotlib
from run_docs import jsonplus
from sweep_docs import auto_doc

VICTIM = "precious: not a report\n"
needs_matplotlib = pytest.mark.skipif(not have_matplotlib(),
                                      reason="%s has no matplotlib" % PYTHON)


def victim(tmp_path):
    v = tmp_path / "victim"
    v.write_text(VICTIM)
    return v


def plant(d, names, target):
    """A symlink to @target at each of @names in @d."""
    for n in names:
        os.makedirs(os.path.dirname(str(d / n)), exist_ok=True)
        os.symlink(str(target), str(d / n))


def with_umask(mask):
    return lambda: os.umask(mask)


def check_written(d, names, mask):
    """Each of @names in @d is a regular file (no link), mode 0666 & ~@mask,
    and nothing else but the planted links is left beside it."""
    for n in names:
        st = os.lstat(str(d / n))
        assert stat.S_ISREG(st.st_mode), "%s is not a regular file" % n
        assert stat.S_IMODE(st.st_mode) == 0o666 & ~mask, "%s: mode %o" % (n, st.st_mode)
    for sub in (d, d / "plots"):
        if sub.is_dir():
            left = [x for x in os.listdir(str(sub)) if x.endswith(".tmp") and
                    not os.path.islink(str(sub / x))]
            assert left == [], "temporary files left: %r" % left


def check_svg(path):
    assert ET.parse(str(path)).getroot().tag.endswith("svg")


def check_csv(path):
    with open(str(path), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert len(rows) >= 2, rows


def check_html(path):
    assert path.read_text(encoding="utf-8").rstrip().endswith("</html>")


def render(d, mask=0o022):
    return subprocess.run([PYTHON, SCRIPT, str(d)], capture_output=True, text=True,
                          timeout=300, preexec_fn=with_umask(mask))


def cli_report(cli, d, mask=0o022):
    return subprocess.run([cli, "report", str(d)], capture_output=True, text=True,
                          timeout=300, preexec_fn=with_umask(mask),
                          env=dict(os.environ, SSDLOAD_PYTHON=PYTHON))


# --------------------------------------------------------------------------
# planted links

@needs_matplotlib
def test_renderer_never_writes_through_links(tmp_path):
    """The renderer's SVG, CSV and HTML (a sweep): links at their old
    temporary names are left alone, the results are new regular files."""
    d = tmp_path / "sweep"
    d.mkdir()
    (d / "sweep.json").write_text(json.dumps(auto_doc()), encoding="utf-8")
    v = victim(tmp_path)
    out = ["report.html", "sweep.csv", "sweep-series.csv", "plots/sweep_iops.svg",
           "plots/sweep_latency.svg"]
    plant(d, [n + ".tmp" for n in out], v)
    p = render(d, mask=0o027)
    assert p.returncode == 0, p.stderr
    assert v.read_text() == VICTIM
    check_written(d, out, 0o027)
    check_html(d / "report.html")
    check_csv(d / "sweep.csv")
    check_svg(d / "plots" / "sweep_iops.svg")


@needs_matplotlib
def test_cli_report_never_writes_through_links(cli, tmp_path):
    """`ssdload report DIR` (a plain run's run.json): a report.html.tmp link
    to a victim made it write the HTML into the victim.  A link at
    report.html itself is replaced by the report, not followed."""
    d = tmp_path / "run"
    d.mkdir()
    (d / "run.json").write_text(json.dumps(jsonplus()), encoding="utf-8")
    v = victim(tmp_path)
    out = ["report.html", "latency.csv", "plots/run_exceedance.svg"]
    plant(d, [n + ".tmp" for n in out], v)
    v2 = tmp_path / "victim2"
    v2.write_text(VICTIM)
    plant(d, ["report.html"], v2)
    p = cli_report(cli, d)
    assert (p.returncode, p.stderr) == (0, ""), p.stderr
    assert v.read_text() == v2.read_text() == VICTIM
    check_written(d, out, 0o022)
    check_html(d / "report.html")
    check_csv(d / "latency.csv")
    check_svg(d / "plots" / "run_exceedance.svg")


def test_fio_logs_never_written_through_links(fakerun, geo, tmp_path):
    """The CLI's fio logs (write_bw_log, write_hist_log): a link at a log's
    name is replaced by the log, the victim is not written."""
    v = victim(tmp_path)
    names = ["t_bw.1.log", "t_bw.2.log", "h_clat_hist.1.log"]
    plant(tmp_path, names, v)
    rj, rc, out, err = logged_run(fakerun, geo, tmp_path, "--write_bw_log=t",
                                  "--write_hist_log=h", "--log_avg_msec=250",
                                  "--log_hist_msec=250", "--runtime=2")
    assert rc == 0, err
    assert v.read_text() == VICTIM
    for n in names:
        assert not os.path.islink(str(tmp_path / n)), n
        lines = (tmp_path / n).read_text().splitlines()
        assert len(lines) >= 1 and lines[0].count(",") >= 3, (n, lines[:1])
    mask = os.umask(0)
    os.umask(mask)
    check_written(tmp_path, names, mask)


# --------------------------------------------------------------------------
# the result directory

def unsafe_dir(tmp_path, mode=0o777):
    d = tmp_path / "shared"
    d.mkdir()
    os.chmod(str(d), mode)
    return d


@needs_matplotlib
def test_report_refuses_a_world_writable_dir(cli, tmp_path):
    """Refused while the directory is world-writable; accepted once it has
    the sticky bit (as /tmp has)."""
    d = unsafe_dir(tmp_path)
    (d / "run.json").write_text(json.dumps(jsonplus()), encoding="utf-8")
    p = cli_report(cli, d)
    assert p.returncode == 2
    one_error_line(p, str(d), "writable by other users (mode 0777) without the sticky bit",
                   "refusing to write results there")
    assert sorted(os.listdir(str(d))) == ["run.json"]
    os.chmod(str(d), 0o1777)
    p = cli_report(cli, d)
    assert (p.returncode, p.stderr) == (0, ""), p.stderr
    check_html(d / "report.html")


def test_renderer_refuses_a_world_writable_dir(tmp_path):
    d = unsafe_dir(tmp_path, 0o757)
    (d / "run.json").write_text(json.dumps(jsonplus()), encoding="utf-8")
    p = render(d)
    assert p.returncode == 2, p.stderr
    assert "writable by other users (mode 0757) without the sticky bit" in p.stderr
    assert "Traceback" not in p.stderr
    assert sorted(os.listdir(str(d))) == ["run.json"]


def test_compare_refuses_a_world_writable_output_dir(cli, tmp_path):
    d = unsafe_dir(tmp_path)
    p = run(cli, "compare", "--output-dir=%s" % d, "--no-report",
            put(tmp_path, "gen4", done_doc()), put(tmp_path, "gen5", other_drive(stopped_doc())))
    assert p.returncode == 2
    one_error_line(p, "compare", str(d), "writable by other users (mode 0777)")
    assert os.listdir(str(d)) == []


def test_run_output_refuses_a_world_writable_dir(fakerun, tmp_path):
    """--output=FILE: its directory is checked before any job exists."""
    d = unsafe_dir(tmp_path)
    r = fakerun(runtime=0.3)
    r.start("--output=%s" % (d / "out.json"))
    rc, out, err = r.finish()
    assert rc != 0 and out == "", err
    lines = err.splitlines()
    assert len(lines) == 1 and "--output=" in lines[0] and \
        "writable by other users (mode 0777) without the sticky bit" in lines[0], err
    assert os.listdir(str(d)) == [] and not r.job_exists()


def test_run_logs_refuse_a_world_writable_dir_before_the_run(fakerun, tmp_path):
    """--write_bw_log=DIR/PREFIX: DIR is checked before any job exists, not
    after the run."""
    d = unsafe_dir(tmp_path)
    r = fakerun(runtime=0.3)
    r.start("--write_bw_log=%s" % (d / "t"), "--log_avg_msec=250", "--runtime=1")
    rc, out, err = r.finish()
    assert rc != 0 and out == "", err
    lines = err.splitlines()
    assert len(lines) == 1 and "fio log" in lines[0] and \
        "writable by other users (mode 0777) without the sticky bit" in lines[0], err
    assert os.listdir(str(d)) == [] and not r.job_exists()


def test_report_refuses_a_dir_another_user_owns(cli, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root can make a directory another user owns")
    d = tmp_path / "theirs"
    d.mkdir()
    (d / "run.json").write_text(json.dumps(jsonplus()), encoding="utf-8")
    os.chown(str(d), 65534, 65534)
    p = cli_report(cli, d)
    assert p.returncode == 2
    one_error_line(p, str(d), "owned by another user (uid 65534", "refusing to write")
    p = render(d)
    assert p.returncode == 2 and "owned by another user (uid 65534" in p.stderr, p.stderr
    assert sorted(os.listdir(str(d))) == ["run.json"]


def test_report_accepts_the_dir_of_the_sudo_user(cli, tmp_path):
    """Under sudo, results go in the directories of the user who ran it
    (their home, the current directory): not "another user"'s."""
    if os.geteuid() != 0:
        pytest.skip("only root can make a directory another user owns")
    d = tmp_path / "mine"
    d.mkdir()
    (d / "run.json").write_text(json.dumps(jsonplus()), encoding="utf-8")
    os.chown(str(d), 65534, 65534)
    env = dict(os.environ, SSDLOAD_PYTHON=PYTHON, SUDO_UID="65534")
    p = subprocess.run([cli, "report", str(d)], capture_output=True, text=True,
                       timeout=300, env=env)
    assert "owned by another user" not in p.stderr, p.stderr
    p = subprocess.run([PYTHON, SCRIPT, str(d)], capture_output=True, text=True,
                       timeout=300, env=env)
    assert "owned by another user" not in p.stderr, p.stderr
    env["SUDO_UID"] = "65533"
    p = subprocess.run([cli, "report", str(d)], capture_output=True, text=True,
                       timeout=300, env=env)
    assert p.returncode == 2 and "owned by another user (uid 65534" in p.stderr


def test_tmp_itself_is_accepted(fakerun, tmp_path):
    """--output=/tmp/FILE: /tmp is world-writable with the sticky bit (a
    guard against refusing too much: this passes without the checks)."""
    st = os.stat("/tmp")
    if not (st.st_mode & stat.S_ISVTX and st.st_mode & stat.S_IWOTH) or st.st_uid != 0:
        pytest.skip("/tmp is not a sticky world-writable directory of root's here")
    dest = "/tmp/ssdload-unit-%d-%s.json" % (os.getpid(), tmp_path.name)
    try:
        r = fakerun(runtime=0.3).start("--output=" + dest, "--output-format=json")
        rc, out, err = r.finish()
        assert rc == 0, err
        assert json.load(open(dest))["jobs"][0]["jobname"] == r.name
    finally:
        if os.path.exists(dest):
            os.unlink(dest)
