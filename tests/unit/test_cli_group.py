# SPDX-License-Identifier: GPL-2.0
"""Groups and shared devices without a kernel: run --group/--shared,
ssdload start GROUP, armed jobs in list and stop, and a grouped run on
the fake module (lib/fakemodule.py).
"""
import signal
import time

import pytest

from cli import one_error_line, parse_only, run, stop_leaving
from fakemodule import FAKE_ATTRS, report_count


# --------------------------------------------------------------------------
# groups and shared devices: run --group/--shared, ssdload start GROUP

def test_group_and_shared_options(cli):
    a = parse_only(cli)
    assert "group" not in a and "shared" not in a, a
    a = parse_only(cli, "--group=oltp.mix-1_A", "--shared")
    assert a["group"] == "oltp.mix-1_A" and a["shared"] == "1", a
    assert parse_only(cli, "--shared=0")["shared"] == "0"
    assert parse_only(cli, "--group", "g" * 63)["group"] == "g" * 63
    out = run(cli, "run", "--help").stdout
    for needle in ("--group=NAME", "--shared", "ssdload start NAME", "overlap"):
        assert needle in out, needle


@pytest.mark.parametrize("opt,val,needle", [
    ("group", "a b", "group name"),
    ("group", "a/b", "group name"),
    ("group", "", "group name"),
    ("group", "g" * 64, "group name"),
    ("group", "caf\u00e9", "group name"),
    ("shared", "2", "0 or 1"),
])
def test_group_and_shared_rejected(cli, opt, val, needle):
    line = one_error_line(run(cli, "run", "--filename=/dev/x", "--%s=%s" % (opt, val)),
                          "--%s=" % opt, needle)
    assert val[:40] in line


def test_start_command(cli, tmp_path):
    """start GROUP writes GROUP to the root's start attribute, once."""
    cfs = tmp_path / "cfs"
    (cfs / "jobs").mkdir(parents=True)
    env = {"SSDLOAD_CONFIGFS": str(cfs)}
    (cfs / "start").write_text("")
    p = run(cli, "start", "mix.1", env=env)
    assert p.returncode == 0 and p.stderr == "" and p.stdout == "", p
    assert (cfs / "start").read_text() == "mix.1"
    # a module without the attribute
    (cfs / "start").unlink()
    one_error_line(run(cli, "start", "mix", env=env), "start", "older")
    # bad names and usage: nothing written, one line (or the usage)
    for bad in ("a b", "g" * 64, "x/y"):
        one_error_line(run(cli, "start", bad, env=env), "not a group name")
    assert not (cfs / "start").exists()
    p = run(cli, "start", env=env)
    assert p.returncode != 0 and "usage: ssdload start GROUP" in p.stderr
    p = run(cli, "start", "a", "b", env=env)
    assert p.returncode != 0 and "usage: ssdload start GROUP" in p.stderr
    one_error_line(run(cli, "start", "mix", env={"SSDLOAD_CONFIGFS": str(tmp_path / "no")}),
                   "ssdload.ko is not loaded")


def test_list_shows_armed(cli, tmp_path):
    job = tmp_path / "cfs" / "jobs" / "armed-job"
    job.mkdir(parents=True)
    for k, v in {"state": "armed", "filename": "/dev/nullb0", "rw": "randread",
                 "bs": "4096", "iodepth": "1", "cpus_allowed": ""}.items():
        (job / k).write_text(v + "\n")
    p = run(cli, "list", env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[1].split()[:2] == ["armed-job", "armed"], p.stdout


def test_stop_armed_job_waits(cli, tmp_path):
    """ssdload stop on an armed job waits until it left armed."""
    p, took, _ = stop_leaving(cli, tmp_path, "armedstop", "armed", 0.4)
    assert p.returncode == 0, p.stderr
    assert took >= 0.4


def test_fake_run_group_waits_for_start(fakerun, cli, tmp_path):
    """run --group: the job is armed (said once on stderr), runs on start, reports."""
    (tmp_path / "cfs").mkdir()
    (tmp_path / "cfs" / "start").write_text("")
    r = fakerun(runtime=0.3, group="mix", attrs=FAKE_ATTRS + ("group",)).start("--group=mix")
    assert r.module.armed.wait(10), "the job was never armed"
    assert r.module.lease_held is True, "the lease was not open when the job was armed"
    time.sleep(0.6)
    assert r.proc.poll() is None, "run returned while the job was armed"
    p = run(cli, "start", "mix", env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    assert p.returncode == 0, p.stderr
    rc, out, err = r.finish()
    assert rc == 0, err
    lines = [l for l in err.splitlines() if l.strip()]
    assert lines == ["ssdload: job '%s' is armed: it starts with ssdload start mix" % r.name], err
    assert report_count(out, r.name) == 1
    assert not r.job_exists()


def test_fake_run_group_signal_while_armed(fakerun, tmp_path):
    """A signal while armed: enable=0 (the module tears the job down), job removed, 130."""
    (tmp_path / "cfs").mkdir()
    (tmp_path / "cfs" / "start").write_text("")
    r = fakerun(group="mix", attrs=FAKE_ATTRS + ("group",)).start("--group=mix")
    assert r.module.armed.wait(10), "the job was never armed"
    r.kill(signal.SIGINT)
    rc, _, err = r.finish()
    assert rc == 130, err
    assert not r.job_exists()
