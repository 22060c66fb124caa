# SPDX-License-Identifier: GPL-2.0
"""fio's verification triggers on `ssdload run` (Documentation/verify.rst,
"Power cuts"): --trigger-timeout and --trigger-file say when, --trigger-cmd
(fio's --trigger) what to run, once, with the I/O going on; against the
fake module of lib/fakemodule.py.
"""
import time

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run

pytestmark = NEEDS_DEV


def parse_only(cli, *args):
    return run(cli, "run", "--name=j", "--filename=" + DEV, "--parse-only", *args)


@pytest.mark.parametrize("args,opt,needle", [
    (["--trigger-cmd=true"], "--trigger-cmd", "--trigger-timeout or --trigger-file"),
    (["--trigger-timeout=5"], "--trigger-timeout", "needs --trigger-cmd"),
    (["--trigger-file=/tmp/x"], "--trigger-file", "needs --trigger-cmd"),
    (["--trigger-timeout=0", "--trigger-cmd=true"], "--trigger-timeout", "above 0"),
    (["--trigger-timeout=soon", "--trigger-cmd=true"], "--trigger-timeout", "not a time"),
    (["--trigger-timeout=1", "--trigger-cmd="], "--trigger-cmd", "needs a command"),
])
def test_trigger_refused(cli, args, opt, needle):
    """An incomplete or malformed trigger is refused, naming the option."""
    one_error_line(parse_only(cli, *args), opt, needle)


def test_trigger_fio_spelling_parses(cli):
    """fio's --trigger=CMD is --trigger-cmd; neither writes an attribute."""
    p = parse_only(cli, "--trigger-timeout=2s", "--trigger=echo x")
    assert p.returncode == 0, p.stderr
    assert "trigger" not in p.stdout, p.stdout


def test_trigger_not_in_job_file(cli, tmp_path):
    """The trigger options belong to the command line, as in fio."""
    jf = tmp_path / "j.fio"
    jf.write_text("[j]\nfilename=/dev/unit0\ntrigger-timeout=1\n")
    p = run(cli, "run", "--parse-only", str(jf))
    assert p.returncode != 0
    assert "trigger-timeout" in p.stderr, p.stderr


def test_trigger_timeout_fires_once(fakerun, tmp_path):
    """--trigger-timeout=200ms: the command runs once, with the job still
    running, its output on stderr (not in the report); the run then ends as
    usual and exits 0."""
    out_file = tmp_path / "fired"
    r = fakerun(runtime=1.0).start("--trigger-timeout=200ms",
                                   "--trigger-cmd=echo run >> %s; echo said" % out_file)
    t0 = time.monotonic()
    r.wait_running()
    deadline = t0 + 5
    while not out_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert out_file.exists(), "the trigger command did not run"
    assert r.proc.poll() is None, "the run must go on past the trigger"
    rc, out, err = r.finish()
    assert rc == 0, err
    assert out_file.read_text() == "run\n", "fired more than once"
    assert "said" in err and "said" not in out
    assert "trigger (--trigger-timeout=200ms)" in err, err


def test_trigger_file_fires(fakerun, tmp_path):
    """--trigger-file: nothing until the file appears, then the command."""
    flag, out_file = tmp_path / "flag", tmp_path / "fired"
    r = fakerun(runtime=1.5).start("--trigger-file=%s" % flag,
                                   "--trigger-cmd=touch %s" % out_file)
    r.wait_running()
    time.sleep(0.5)
    assert not out_file.exists(), "fired before the file appeared"
    flag.write_text("")
    deadline = time.monotonic() + 5
    while not out_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert out_file.exists(), "the trigger file did not fire the command"
    rc, _out, err = r.finish()
    assert rc == 0, err
    assert "appeared" in err, err


def test_trigger_failed_command_fails_the_run(fakerun):
    """A power cut that did not happen (the command failed) is an error."""
    r = fakerun(runtime=0.6).start("--trigger-timeout=100ms", "--trigger-cmd=exit 3")
    rc, _out, err = r.finish()
    assert rc == 1, err
    assert "exited with 3" in err, err


def test_trigger_that_never_fires_is_said(fakerun):
    """The run ended before the timeout: said, not a failure."""
    r = fakerun(runtime=0.3).start("--trigger-timeout=1h", "--trigger-cmd=true")
    rc, _out, err = r.finish()
    assert rc == 0, err
    assert "did not fire" in err, err
