# SPDX-License-Identifier: GPL-2.0
"""`ssdload run` and `ssdload stop` against a fake module: signals, lease,
kept jobs, progress (lib/fakemodule.py: an LD_PRELOAD configfs shim and
a thread that plays ssdload.ko, on a fake debugfs job of lib/debugfs.py).
"""
import errno
import json
import os
import re
import signal
import subprocess
import time

import pytest

from cli import one_error_line, stop_leaving
from fakemodule import FAKE_ATTRS, report_count


def test_fake_run_plain(fakerun):
    """The baseline: lease held from before enable, report printed, job removed."""
    r = fakerun(runtime=0.3).start()
    rc, out, err = r.finish()
    assert rc == 0, err
    assert r.module.lease_held is True, "the lease was not open when enable=1 was written"
    assert report_count(out, r.name) == 1 and err == ""
    assert not r.job_exists()


@pytest.mark.parametrize("sig,code", [
    (signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129),
    (signal.SIGQUIT, 131), (signal.SIGUSR1, 128 + signal.SIGUSR1),
])
def test_fake_run_signal_stops_job(fakerun, sig, code):
    """First signal: enable=0, wait out stopping, print the results, rmdir,
    exit 128+signo, nothing on stderr."""
    r = fakerun(drain=1.0).start().wait_running()
    r.kill(sig)
    assert r.module.stop_seen.wait(5), "enable=0 was not written"
    time.sleep(0.2)
    assert r.proc.poll() is None, "exited while the job was still stopping"
    rc, out, err = r.finish()
    assert rc == code, err
    assert report_count(out, r.name) == 1, out
    assert not r.job_exists(), "the job was left behind"
    assert "ssdload:" not in err, err


def test_fake_run_second_and_third_signal(fakerun):
    """Second Ctrl-C: one line saying what the stop waits for.  Third: exit
    at once, the draining job left to the kernel, and where to look."""
    r = fakerun(drain=None, inflight=3).start().wait_running()
    r.kill(signal.SIGINT)
    assert r.module.stop_seen.wait(5)
    r.kill(signal.SIGINT, settle=0.4)
    assert r.proc.poll() is None, "the second signal must not end the wait"
    t = time.monotonic()
    r.kill(signal.SIGINT, settle=0)
    rc, out, err = r.finish(timeout=5)
    assert time.monotonic() - t < 2, "the third signal did not exit at once"
    assert rc == 130
    lines = err.splitlines()
    assert lines[0] == ("ssdload: stop requested; waiting for 3 in-flight I/O to "
                        "complete (Ctrl-C again to leave it to the kernel)"), err
    assert len(lines) == 2 and lines[1].startswith("ssdload: leaving job 'fakerun'"), err
    assert "ssdload show fakerun" in lines[1] and "ssdload stop fakerun" in lines[1]
    assert r.job_exists(), "the job must stay for ssdload show"
    assert report_count(out, r.name) == 0


def test_fake_run_second_signal_then_drained(fakerun):
    """An older module's progress has no inflight, /dev/unit0 no sysfs count."""
    r = fakerun(drain=None).start().wait_running()
    r.kill(signal.SIGTERM)
    assert r.module.stop_seen.wait(5)
    r.kill(signal.SIGTERM, settle=0.3)
    r.module.release.set()
    rc, out, err = r.finish()
    assert rc == 143 and report_count(out, r.name) == 1 and not r.job_exists()
    assert err.count("waiting for the in-flight I/O") == 1 and "signal again" in err


def test_fake_run_ignored_signal_stays_ignored(fakerun):
    """nohup: a SIGHUP ignored at start is not caught, the run goes on."""
    r = fakerun(runtime=1.0).start(ignore=(signal.SIGHUP,)).wait_running()
    r.kill(signal.SIGHUP)
    rc, out, err = r.finish()
    assert rc == 0, err
    assert not r.module.stop_seen.is_set()
    assert report_count(out, r.name) == 1


def test_fake_run_sighup_with_dead_stdout(fakerun, tmp_path):
    """After a hangup the report cannot be written: the stopped job stays
    with its results, and the exit status is still the signal's."""
    with open("/dev/full", "w") as full:
        r = fakerun(drain=0.1).start(stdout=full).wait_running()
        r.kill(signal.SIGHUP)
        rc, _, err = r.finish()
    assert rc == 129, err
    assert r.module.stop_seen.is_set()
    assert r.job_exists(), "unprinted results must not be removed"
    assert "ssdload show fakerun" in err and "standard output" in err


@pytest.mark.parametrize("ignored", [False, True])
def test_fake_run_reader_closed_pipe(fakerun, ignored):
    """`ssdload run | head`: a reader that closed its pipe had what it wanted:
    the job is removed; SIGPIPE gives 141 as if it had killed us, an ignored
    SIGPIPE the usual write error."""
    rd, wr = os.pipe()
    os.close(rd)
    try:
        r = fakerun(runtime=0.3).start(stdout=wr,
                                       ignore=(signal.SIGPIPE,) if ignored else ())
    finally:
        os.close(wr)
    rc, _, err = r.finish()
    assert not r.job_exists(), err
    assert "kept" not in err
    if ignored:
        assert rc == 1 and "standard output: " + os.strerror(errno.EPIPE) in err, err
    else:
        assert rc == 128 + signal.SIGPIPE, err


def test_fake_run_unreadable_results_keep_job(fakerun):
    r = fakerun(runtime=0.3, summary=False).start()
    rc, out, err = r.finish()
    assert rc == 1 and out == ""
    assert r.job_exists(), "the job was removed although its results were not read"
    assert "no results for job 'fakerun'" in err and "ssdload show fakerun" in err


def test_fake_run_module_without_lease(fakerun):
    """An older module has no lease file: the run works as before."""
    r = fakerun(runtime=0.3, lease=False).start()
    rc, out, err = r.finish()
    assert rc == 0 and err == "" and report_count(out, r.name) == 1


def test_fake_run_older_module_attribute(fakerun):
    """A new option on a module without its attribute: one clear line, no job."""
    attrs = tuple(a for a in FAKE_ATTRS if a != "io_timeout_ms")
    r = fakerun(runtime=0.3, attrs=attrs).start("--io_timeout_ms=100")
    rc, out, err = r.finish()
    one_error_line(subprocess.CompletedProcess([], rc, out, err),
                   "io_timeout_ms=100", os.strerror(2), "older")
    assert not r.job_exists()


def test_fake_run_older_module_without_option(fakerun):
    attrs = tuple(a for a in FAKE_ATTRS if a not in ("io_timeout_ms", "scramble_buffers"))
    r = fakerun(runtime=0.3, attrs=attrs).start()
    rc, out, err = r.finish()
    assert rc == 0 and err == "", err


def test_fake_run_older_module_without_time_based(fakerun):
    """A timed run without --time_based on a module that predates the
    time_based attribute: it runs (time based, as that module always is),
    with a note saying so."""
    attrs = tuple(a for a in FAKE_ATTRS if a != "time_based")
    r = fakerun(runtime=0.3, attrs=attrs).start()
    rc, out, err = r.finish()
    assert rc == 0, err
    assert err.count("\n") == 1 and "has no 'time_based'" in err and "whole runtime" in err, err
    assert "read:" in out, out


def test_fake_run_status_interval(fakerun):
    """--status-interval: the full report so far every interval, then the final one."""
    r = fakerun(runtime=1.3).start("--status-interval=400ms")
    rc, out, err = r.finish()
    assert rc == 0, err
    assert 3 <= report_count(out, r.name) <= 5, out


def test_fake_run_status_interval_json(fakerun):
    """With JSON, one document per report, as fio."""
    r = fakerun(runtime=1.0).start("--status-interval=300ms", "--output-format=json")
    rc, out, err = r.finish()
    assert rc == 0, err
    dec, docs, pos = json.JSONDecoder(), [], 0
    while out[pos:].strip():
        while out[pos].isspace():
            pos += 1
        doc, pos = dec.raw_decode(out, pos)
        docs.append(doc)
    assert len(docs) >= 3 and all(d["jobs"][0]["jobname"] == r.name for d in docs)


PROGRESS_LINE = re.compile(r"^fakerun: \[\d+\.\ds/60\.0s\]\[eta \d\dm:\d\ds\] read \d+ IOPS, "
                           r"write \d+ IOPS$")


def test_fake_run_eta_always(fakerun):
    """--eta=always: a progress line a second on stderr although it is not a tty."""
    r = fakerun(drain=0.05).start("--eta=always").wait_running()
    time.sleep(3.2)
    r.kill(signal.SIGINT)
    rc, out, err = r.finish()
    assert rc == 130
    lines = err.splitlines()
    assert 2 <= len(lines) <= 5, err
    assert all(PROGRESS_LINE.match(l) for l in lines), err
    assert "\r" not in err and "\033" not in err


def test_fake_run_eta_shows_timed_out_ios(fakerun):
    r = fakerun(runtime=1.5, extra="timed_out_ios=2\nstuck_ios=2\n").start("--eta=always")
    rc, out, err = r.finish()
    assert rc == 0 and err.splitlines(), err
    assert all(l.endswith(" write 0 IOPS, 2 I/Os over io_timeout_ms")
               for l in err.splitlines()), err


@pytest.mark.parametrize("eta", [[], ["--eta=auto"], ["--eta=never"]])
def test_fake_run_no_eta_without_tty(fakerun, eta):
    r = fakerun(runtime=1.5).start(*eta)
    rc, out, err = r.finish()
    assert rc == 0 and err == "", err


def test_stop_waits_while_stopping(cli, tmp_path):
    """ssdload stop returns only once the job is neither running nor stopping."""
    p, took, job = stop_leaving(cli, tmp_path, "draining", "stopping", 0.6)
    assert p.returncode == 0, p.stderr
    assert took >= 0.6
    assert (job / "enable").read_text().startswith("0")
