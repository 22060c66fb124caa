# SPDX-License-Identifier: GPL-2.0
"""Job files of several job sections, in fio's order, without a kernel.

fio's stonewall (wait_for_previous) makes a job wait for every job before
it, new_group starts a reporting group, wait_for=NAME waits for one job.
ssdload runs the jobs between two stonewalls as one set, started together
in one group, and the next set once they have ended.  `--parse-only`
shows each job's place (its set and fio's groupid) before its attributes;
the refusals are one line naming FILE:LINE, before anything is created.
The runs themselves are played here by fake modules (lib/fakemodule.py's
FakeModule) on a fake configfs: the order of the sets, one document
(JSON entries in file order, fio's groupid and job_start; the text report
with one "Run status group" per group), the exit status and Ctrl-C.
"""
import json
import os
import re
import signal
import subprocess
import time

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import jobfile, one_error_line, run
from debugfs import FakeJob, lognormal
from fakemodule import FAKE_ATTRS, FIRST_VALUES, FakeModule

pytestmark = NEEDS_DEV

PLACE = re.compile(r"^# \[(?P<section>[^\]]+)\]: set (?P<set>\d+) of (?P<sets>\d+), "
                   r"groupid (?P<gid>\d+)$")


def plan(cli, *args, env=None):
    """--parse-only of a file of several jobs: [(section, set, groupid, attrs)]."""
    p = run(cli, "run", "--parse-only", *args, env=env)
    assert p.returncode == 0, p.stderr
    jobs = []
    for line in p.stdout.splitlines():
        m = PLACE.match(line)
        if m:
            jobs.append((m["section"], int(m["set"]), int(m["gid"]), {}))
        elif line:
            k, v = line.split("=", 1)
            jobs[-1][3][k] = v
    return jobs


def places(jobs):
    return [(s, st, g) for s, st, g, _ in jobs]


THREE = (f"[global]\nfilename={DEV}\nbs=4k\n"
         "[a]\nrw=randread\n[b]\nrw=read\niodepth=2\n[c]\nstonewall\nrw=randread\n")


def test_stonewall_splits_the_sets(cli, tmp_path):
    jobs = plan(cli, jobfile(tmp_path, THREE))
    assert places(jobs) == [("a", 1, 0), ("b", 1, 0), ("c", 2, 1)]
    assert [j[3]["name"] for j in jobs] == ["a", "b", "c"]
    assert jobs[1][3]["iodepth"] == "2" and jobs[2][3]["rw"] == "randread"


def test_command_line_overrides_every_section(cli, tmp_path):
    jobs = plan(cli, jobfile(tmp_path, THREE), "--bs=16k", "--runtime=2s")
    assert [j[3]["bs"] for j in jobs] == ["16384"] * 3
    assert [j[3]["runtime_ms"] for j in jobs] == ["2000"] * 3


@pytest.mark.parametrize("body,want", [
    # a stonewall on the first job waits for nothing, and opens no group
    ("[a]\nstonewall\n[b]\n[c]\n", [("a", 1, 0), ("b", 1, 0), ("c", 1, 0)]),
    # fio's alias, and a value
    ("[a]\n[b]\nwait_for_previous\n[c]\nstonewall=1\n",
     [("a", 1, 0), ("b", 2, 1), ("c", 3, 2)]),
    ("[a]\n[b]\nstonewall=0\n", [("a", 1, 0), ("b", 1, 0)]),
    # new_group: a reporting group of its own, started with the others
    ("[a]\n[b]\nnew_group\n[c]\n", [("a", 1, 0), ("b", 1, 1), ("c", 1, 1)]),
    ("[a]\n[b]\nnew_group\n[c]\nstonewall\n[d]\nnew_group\n",
     [("a", 1, 0), ("b", 1, 1), ("c", 2, 2), ("d", 2, 3)]),
    # in [global]: every job after it
    ("[global]\nstonewall\n[a]\n[b]\n[c]\n", [("a", 1, 0), ("b", 2, 1), ("c", 3, 2)]),
    ("[a]\n[b]\n[global]\nstonewall\n[c]\n[d]\n",
     [("a", 1, 0), ("b", 1, 0), ("c", 2, 1), ("d", 3, 2)]),
    # wait_for a job of an earlier set holds; the waiting job itself is skipped
    ("[a]\n[b]\nstonewall\n[c]\nwait_for=a\n", [("a", 1, 0), ("b", 2, 1), ("c", 2, 1)]),
    ("[global]\nwait_for=a\n[a]\n[b]\nstonewall\n", [("a", 1, 0), ("b", 2, 1)]),
    # name= is what wait_for names
    ("[x]\nname=first\n[y]\nstonewall\n[z]\nwait_for=first\n",
     [("x", 1, 0), ("y", 2, 1), ("z", 2, 1)]),
])
def test_sets_and_groups(cli, tmp_path, body, want):
    f = jobfile(tmp_path, f"[global]\nfilename={DEV}\n" + body)
    assert places(plan(cli, f)) == want


def test_ordering_keys_are_job_options(cli, tmp_path):
    """The runs of the sections take them (their place is the parent's);
    --section runs one job whatever they say."""
    f = jobfile(tmp_path, f"[global]\nfilename={DEV}\n[a]\n[b]\nstonewall\n"
                "new_group\nwait_for=a\n")
    p = run(cli, "run", "--parse-only", f, "--section=b")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "name=b" in p.stdout.splitlines()


@pytest.mark.parametrize("body,needles", [
    ("[a]\n[b]\nwait_for=a\n", ["job.fio:5:", "wait_for=a", "starts together",
                                "stonewall"]),
    ("[a]\nwait_for=b\n[b]\n", ["job.fio:4:", "wait_for=b", "comes after"]),
    ("[a]\n[b]\n\nwait_for=nobody\n", ["job.fio:6:", "wait_for=nobody", "no job"]),
    ("[a]\n[b]\nstonewall=perhaps\n", ["job.fio:5:", "stonewall=perhaps", "0 or 1"]),
    ("[a]\n[b]\nnew_group=2\n", ["job.fio:5:", "new_group=2"]),
    ("[a]\n[b]\niodepht=4\n", ["job.fio:5:", "iodepht", "did you mean"]),
    ("[a]\n[b]\nbs=4q\n", ["job.fio:5:", "bs=4q"]),
    ("[a]\nfilename=\n[b]\n", ["job.fio:3:", "[a]", "filename"]),
    ("[a]\n[b]\nname=a\n", ["job.fio:4:", "[b]", "'a'", "name="]),
    ("[a]\n[b]\ngroup=mix\n", ["job.fio:5:", "group=mix"]),
    ("[a]\nname=x\n[a]\nname=y\n", ["job.fio:5:", "[a] again", "job.fio:3"]),
    ("[a]\n[b]\noutput-format=json\n", ["job.fio:5:", "command line"]),
])
def test_refused_before_anything_runs(cli, tmp_path, body, needles):
    """One line naming FILE:LINE; no job is created, for any section."""
    jobs = tmp_path / "cfs" / "jobs"
    jobs.mkdir(parents=True)
    f = jobfile(tmp_path, f"[global]\nfilename={DEV}\n" + body)
    p = run(cli, "run", f, env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    one_error_line(p, *needles)
    assert os.listdir(str(jobs)) == []


def test_missing_filename_names_the_section(cli, tmp_path):
    f = jobfile(tmp_path, f"[a]\nfilename={DEV}\n\n[b]\nrw=read\n")
    one_error_line(run(cli, "run", f), "job.fio:4:", "[b]", "filename")


@pytest.mark.parametrize("opt", ["--name=x", "--group=g", "--status-interval=1",
                                 "--latency-check=p99<1ms", "--latency-table"])
def test_one_job_options_refused(cli, tmp_path, opt):
    f = jobfile(tmp_path, THREE)
    one_error_line(run(cli, "run", f, opt), opt.split("=")[0], "3 job sections",
                   "--section")


@pytest.mark.parametrize("opt", ["--stonewall", "--new_group", "--wait_for=a",
                                 "--wait_for_previous"])
def test_ordering_options_not_on_the_command_line(cli, opt):
    one_error_line(run(cli, "run", "--filename=/dev/x", opt), opt.split("=")[0],
                   "job file")


def test_notes_once_per_line_with_parse_only(cli, tmp_path):
    """A [global]'s engine option is noted once for all its jobs; a job's
    own, once more with its own line."""
    f = jobfile(tmp_path, f"[global]\nfilename={DEV}\nioengine=libaio\n[a]\n[b]\n"
                "[c]\nioengine=sync\n")
    p = run(cli, "run", "--parse-only", f)
    assert p.returncode == 0, p.stderr
    notes = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(notes) == 2, notes
    assert "job.fio:3: ioengine=libaio ignored" in notes[0], notes
    assert "job.fio:7: ioengine=sync ignored" in notes[1], notes


def test_too_many_jobs_at_once(cli, tmp_path):
    body = f"[global]\nfilename={DEV}\n" + "".join("[j%d]\n" % i for i in range(65))
    one_error_line(run(cli, "run", "--parse-only", jobfile(tmp_path, body)),
                   "more than 64", "stonewall")


# --------------------------------------------------------------------------
# the runs, on fake modules

class SetModule(FakeModule):
    """A job of a set: its group is the one its run wrote; state changes are
    timed (CLOCK_MONOTONIC)."""

    def __init__(self, root, name, **kw):
        self.times = {}
        super().__init__(root, name, **kw)
        self.scratch = root / ("scratch-" + name)    # its own: jobs run at once
        self.scratch.mkdir(exist_ok=True)

    @property
    def group(self):
        try:
            return (self.job / "group").read_text().strip() or None
        except FileNotFoundError:
            return None

    @group.setter
    def group(self, _):
        pass

    def _lease_open(self):
        return True

    def _put(self, path, text):
        if path.name == "state":
            self.times.setdefault(text.strip(), time.monotonic())
        super()._put(path, text)


@pytest.fixture
def fakeset(cli, shim, geo, tmp_path):  # noqa: F811
    """fakeset({name: nreads}, runtime) -> (env, modules): a fake module and a
    debugfs job (nreads read latencies) for each job name."""
    made = []

    def make(jobs, **kw):
        (tmp_path / "cfs" / "jobs").mkdir(parents=True)
        (tmp_path / "cfs" / "start").write_text("")
        mods = {}
        for i, (name, n) in enumerate(jobs.items()):
            FakeJob(geo, str(tmp_path / "dbg"), name, lognormal(10 + i, n, 20_000, 0.4), [],
                    workers=(0,), state="running")
            (tmp_path / "dbg" / name / "lease").write_text("leases=0\n")
            mods[name] = SetModule(tmp_path, name, **kw)
            mods[name].start()
            made.append(mods[name])
        env = dict(os.environ, SSDLOAD_CONFIGFS=str(tmp_path / "cfs"),
                   SSDLOAD_DEBUGFS=str(tmp_path / "dbg"), LD_PRELOAD=shim,
                   FAKE_JOB_ATTRS=";".join("%s=%s" % (a, FIRST_VALUES.get(a, ""))
                                           for a in FAKE_ATTRS + ("group",)))
        return env, mods
    yield make
    for m in made:
        m.quit.set()


class Run:
    """`ssdload run ARGS` in a session of its own: whatever happens, it and
    the runs it started are gone at the end."""

    def __init__(self, cli, env, *args):
        self.p = subprocess.Popen([cli, "run"] + list(args), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=env, start_new_session=True)

    def finish(self, timeout=30):
        try:
            out, err = self.p.communicate(timeout=timeout)
        finally:
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            if self.p.poll() is None:
                self.p.wait()
        return self.p.returncode, out, err


def test_fake_three_jobs_two_sets(cli, fakeset, tmp_path):
    """[a] and [b] start at one instant, [c] once both have ended; one JSON
    document with the three entries in file order, fio's groupid and
    job_start, then the text with a block per job and a run status per
    group; the jobs are gone."""
    env, mods = fakeset({"a": 100, "b": 200, "c": 300}, runtime=0.4)
    f = jobfile(tmp_path, f"[global]\nfilename={DEV}\nruntime=60\n"
                "[a]\nrw=randread\n[b]\nrw=randread\n[c]\nstonewall\nrw=randread\n")
    rc, out, err = Run(cli, env, f, "--output-format=json,normal").finish()
    assert rc == 0, err
    assert err == "", err
    a, b, c = (mods[n].times for n in "abc")
    assert abs(a["running"] - b["running"]) < 0.1, (a, b)
    assert c["armed"] >= max(a["done"], b["done"]), "[c] was armed before [a] and [b] ended"
    assert c["running"] >= max(a["done"], b["done"])
    end = out.index("\n}\n") + 3
    doc = json.loads(out[:end])
    jobs = doc["jobs"]
    assert [j["jobname"] for j in jobs] == ["a", "b", "c"]
    assert [j["groupid"] for j in jobs] == [0, 0, 1]
    assert [j["read"]["total_ios"] for j in jobs] == [100, 200, 300]
    assert list(jobs[0])[:3] == ["jobname", "groupid", "job_start"]
    assert jobs[0]["job_start"] == jobs[1]["job_start"] > 0
    assert jobs[2]["job_start"] >= jobs[0]["job_start"] + 400
    assert doc["global options"] == {"filename": DEV, "runtime": "60"}
    text = out[end:]
    heads = re.findall(r"^(\w+): \(groupid=(\d+), jobs=1\)", text, re.M)
    assert heads == [("a", "0"), ("b", "0"), ("c", "1")], text
    assert re.findall(r"^Run status group (\d+) \(all jobs\):$", text, re.M) == ["0", "1"]
    status = re.findall(r"^   READ: bw=.*, io=(\S+) .*run=(\d+)-(\d+)msec$", text, re.M)
    assert len(status) == 2, text
    assert status[0][0] == "1200KiB" and status[1][0] == "1200KiB", status  # 300 4 KiB reads
    assert text.count("Run status group") == 2
    assert not os.listdir(str(tmp_path / "cfs" / "jobs"))


def test_fake_a_job_that_cannot_start_stops_the_file(cli, fakeset, tmp_path):
    """[c]'s job name is taken: its set never starts ([d], armed with it, is
    torn down), no later set starts, the exit status is 1, and the report
    has the jobs that ran."""
    env, mods = fakeset({"a": 100, "b": 200, "d": 50, "e": 60}, runtime=0.2)
    (tmp_path / "cfs" / "jobs" / "c").mkdir()
    f = jobfile(tmp_path, f"[global]\nfilename={DEV}\nruntime=60\n"
                "[a]\n[b]\nstonewall\n[c]\nstonewall\n[d]\n[e]\nstonewall\n")
    rc, out, err = Run(cli, env, f, "--output-format=json").finish()
    assert rc == 1, err
    assert "job 'c' already exists" in err, err
    assert [j["jobname"] for j in json.loads(out)["jobs"]] == ["a", "b"]
    assert [j["groupid"] for j in json.loads(out)["jobs"]] == [0, 1]
    assert "running" not in mods["d"].times and not mods["e"].times
    assert os.listdir(str(tmp_path / "cfs" / "jobs")) == ["c"]


def test_fake_ctrl_c_stops_the_set_and_starts_nothing(cli, fakeset, tmp_path):
    env, mods = fakeset({"a": 100, "b": 200, "c": 300})
    f = jobfile(tmp_path, f"[global]\nfilename={DEV}\nruntime=60\n"
                "[a]\n[b]\n[c]\nstonewall\n")
    r = Run(cli, env, f, "--output-format=json")
    deadline = time.monotonic() + 10
    while not ("running" in mods["a"].times and "running" in mods["b"].times):
        if time.monotonic() > deadline or r.p.poll() is not None:
            r.finish(0.1)
            pytest.fail("the first set never ran")
        time.sleep(0.02)
    r.p.send_signal(signal.SIGINT)      # to ssdload alone: it stops its runs
    rc, out, err = r.finish()
    assert rc == 130, err
    assert [j["jobname"] for j in json.loads(out)["jobs"]] == ["a", "b"]
    assert "armed" not in mods["c"].times and "running" not in mods["c"].times
    assert not os.listdir(str(tmp_path / "cfs" / "jobs"))
