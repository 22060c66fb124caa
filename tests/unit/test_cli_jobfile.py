# SPDX-License-Identifier: GPL-2.0
"""fio job files for `ssdload run JOBFILE` and `--profile=NAME`, without a kernel.

Every case writes its own job file and reads back the job ssdload would
create from `--parse-only` (the attributes it would write to configfs), or
the refusal: one error line naming FILE:LINE, and no job created.
"""
import os

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import jobfile, one_error_line, run

pytestmark = NEEDS_DEV


def parse(cli, *args, env=None):
    p = run(cli, "run", "--parse-only", *args, env=env)
    assert p.returncode == 0, p.stderr
    return dict(l.split("=", 1) for l in p.stdout.splitlines()), p.stderr


def test_global_then_section(cli, tmp_path):
    f = jobfile(tmp_path, "; a comment\n[global]\nbs=8k\n  iodepth=4\n"
                f"# another\n[db]\nrw=randrw\nrwmixread=70\nfilename={DEV}\n")
    a, _ = parse(cli, f)
    assert a["name"] == "db"
    assert a["bs"] == "8192" and a["iodepth"] == "4"
    assert a["rw"] == "randrw" and a["rwmixread"] == "70"
    assert a["filename"] == DEV


def test_command_line_overrides_file(cli, tmp_path):
    f = jobfile(tmp_path, f"[global]\nbs=8k\n[j]\niodepth=4\nfilename={DEV}\n")
    a, _ = parse(cli, "--bs=16k", f, "--name", "mine")
    assert a["bs"] == "16384" and a["iodepth"] == "4" and a["name"] == "mine"


def test_sections_and_later_globals(cli, tmp_path):
    """As fio: a [global] applies to the jobs after it, not to those before."""
    f = jobfile(tmp_path, f"[global]\nbs=8k\nfilename={DEV}\n[a]\nrw=read\n"
                "[global]\nbs=16k\n[b]\nrw=write\n")
    p = run(cli, "run", "--parse-only", f)
    assert p.returncode == 0, p.stderr
    both = p.stdout.split("\n\n")
    assert both[0].startswith("# [a]: set 1 of 1, groupid 0\n"), p.stdout
    assert "bs=8192" in both[0].splitlines() and "bs=16384" in both[1].splitlines()
    a, _ = parse(cli, f, "--section=a")
    assert a["name"] == "a" and a["bs"] == "8192" and a["rw"] == "read"
    b, _ = parse(cli, f, "--section", "b")
    assert b["name"] == "b" and b["bs"] == "16384" and b["rw"] == "write"
    one_error_line(run(cli, "run", "--parse-only", f, "--section=c"), "--section=c",
                   "no such job section")


def test_empty_section_is_a_job(cli, tmp_path):
    f = jobfile(tmp_path, f"[global]\nfilename={DEV}\nrw=randread\n[only]\n")
    a, _ = parse(cli, f)
    assert a["name"] == "only" and a["rw"] == "randread"


def test_bare_flag(cli, tmp_path):
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nscramble_buffers\n")
    assert parse(cli, f)[0]["scramble_buffers"] == "1"
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nscramble_buffers=0\n")
    assert parse(cli, f)[0]["scramble_buffers"] == "0"


def test_include_relative_to_the_file(cli, tmp_path):
    (tmp_path / "inc").mkdir()
    jobfile(tmp_path, "iodepth=12\ninclude more.fio\n", "inc/common.fio")
    jobfile(tmp_path, "bs=32k\n", "inc/more.fio")
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\ninclude inc/common.fio\nrw=write\n")
    a, _ = parse(cli, f)
    assert a["iodepth"] == "12" and a["bs"] == "32768" and a["rw"] == "write"


def test_include_loop_and_missing(cli, tmp_path):
    jobfile(tmp_path, "include b.fio\n", "a.fio")
    jobfile(tmp_path, "iodepth=2\ninclude a.fio\n", "b.fio")
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\ninclude a.fio\n")
    line = one_error_line(run(cli, "run", "--parse-only", f), "include loop")
    assert "b.fio:2:" in line, line
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\n\ninclude nowhere.fio\n")
    line = one_error_line(run(cli, "run", "--parse-only", f), "nowhere.fio")
    assert "job.fio:4:" in line, line


def test_include_where_fio_takes_it(cli, tmp_path):
    """As fio: an include before any section, and a section in an included
    file, are refused (fio: "option <include ...> outside of [] job
    section", "No new sections in included files")."""
    jobfile(tmp_path, "iodepth=2\n", "opts.fio")
    f = jobfile(tmp_path, f"include opts.fio\n[j]\nfilename={DEV}\n")
    line = one_error_line(run(cli, "run", "--parse-only", f), "outside of a [] section")
    assert "job.fio:1:" in line, line
    jobfile(tmp_path, "iodepth=2\n[other]\nbs=8k\n", "sect.fio")
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\ninclude sect.fio\n")
    line = one_error_line(run(cli, "run", "--parse-only", f), "no new sections")
    assert "sect.fio:2:" in line, line


def test_include_depth(cli, tmp_path):
    for i in range(20):
        jobfile(tmp_path, "include d%d.fio\n" % (i + 1), "d%d.fio" % i)
    jobfile(tmp_path, "iodepth=3\n", "d20.fio")
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\ninclude d0.fio\n")
    one_error_line(run(cli, "run", "--parse-only", f), "nested includes")


def test_environment_and_keywords(cli, tmp_path):
    f = jobfile(tmp_path, "[j]\nfilename=${DEV}\niodepth=${QD}\nbs=$pagesize\n")
    a, _ = parse(cli, f, env={"DEV": DEV, "QD": "7"})
    assert a["filename"] == DEV and a["iodepth"] == "7"
    assert a["bs"] == str(os.sysconf("SC_PAGESIZE"))
    env = dict(os.environ)
    env.pop("SSL_UNSET_VAR", None)
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\n\niodepth=${{SSL_UNSET_VAR}}\n")
    line = one_error_line(run(cli, "run", "--parse-only", f), "SSL_UNSET_VAR", "not set")
    assert "job.fio:4:" in line, line


def test_long_line(cli, tmp_path):
    """Longer than inih's 200-byte line: kept whole."""
    sizes = [4096 * (k + 1) for k in range(25)]
    one = ":".join("%d/4" % s for s in sizes)
    val = ",".join([one, "4096/100"])
    assert len("bssplit=" + val) > 200
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nrw=randrw\nbssplit=%s\niodepth=3\n" % val)
    a, _ = parse(cli, f)
    assert a["bssplit"].split(",")[:2] == [one, "4096/100"]
    assert a["iodepth"] == "3"


def test_unknown_option_did_you_mean(cli, tmp_path):
    f = jobfile(tmp_path, f"[global]\nfilename={DEV}\n[j]\nrw=read\niodepht=4\n")
    line = one_error_line(run(cli, "run", "--parse-only", f), "job.fio:5:", "iodepht",
                          "did you mean", "iodepth")
    assert "--" not in line.split("mean", 1)[1], line
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nfrobnicate=1\n")
    line = one_error_line(run(cli, "run", "--parse-only", f), "job.fio:3:", "frobnicate")
    assert "did you mean" not in line, line


@pytest.mark.parametrize("body,needles", [
    (f"[j]\nfilename={DEV}\niodepth=0\n", ["job.fio:3:", "iodepth=0", "range"]),
    (f"[j]\nfilename={DEV}\nnumjobs=0\n", ["job.fio:3:", "numjobs=0"]),
    (f"[j]\nfilename={DEV}\n\nbs=4q\n", ["job.fio:4:", "bs=4q"]),
    (f"[j]\nfilename={DEV}\nrwmixread=101\n", ["job.fio:3:", "rwmixread=101"]),
    ("iodepth=4\n[j]\n", ["job.fio:1:", "before any [section]"]),
    (f"[j\nfilename={DEV}\n", ["job.fio:1:", "section"]),
    ("[j]\n=4\n", ["job.fio:2:"]),
    (f"[j]\nfilename={DEV}\noutput-format=json\n", ["job.fio:3:", "command line"]),
    ("[global]\nbs=4k\n", ["no job section"]),
])
def test_bad_job_file_creates_no_job(cli, tmp_path, body, needles):
    """Refused with FILE:LINE before anything reaches configfs."""
    jobs = tmp_path / "cfs" / "jobs"
    jobs.mkdir(parents=True)
    f = jobfile(tmp_path, body)
    p = run(cli, "run", f, env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    one_error_line(p, *needles)
    assert os.listdir(str(jobs)) == []


def test_missing_filename(cli, tmp_path):
    f = jobfile(tmp_path, "[j]\nrw=read\n")
    one_error_line(run(cli, "run", "--parse-only", f), "filename")


def test_noop_option_notes_its_line(cli, tmp_path):
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nioengine=libaio\ndirect=1\nthread\n")
    a, err = parse(cli, f)
    notes = [l for l in err.splitlines() if l.strip()]
    assert any(l.startswith("ssdload: note: ") and "job.fio:3: ioengine=libaio ignored" in l
               for l in notes), notes
    assert any("job.fio:5: thread ignored" in l for l in notes), notes
    assert a["name"] == "j"


def test_arguments_conflicts(cli, tmp_path):
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\n")
    g = jobfile(tmp_path, f"[k]\nfilename={DEV}\n", "other.fio")
    one_error_line(run(cli, "run", "--parse-only", f, g), "one job file")
    one_error_line(run(cli, "run", "--parse-only", f, "--profile=4k-randread"),
                   "--profile", "not both")
    one_error_line(run(cli, "run", "--parse-only", "--filename=/dev/x", "--section=j"),
                   "--section=j", "no job file")
    one_error_line(run(cli, "run", "--parse-only", "--filename=/dev/x",
                       "--profile=no-such-profile"), "no such profile")
    one_error_line(run(cli, "run", "--parse-only", str(tmp_path / "absent.fio")),
                   "absent.fio")


def test_profile_resolution(cli, repo, tmp_path):
    """--profile reads $SSDLOAD_PROFILES first, then profiles/ beside the binary."""
    a, _ = parse(cli, "--profile=4k-randread", f"--filename={DEV}")
    assert a["name"] == "4k-randread" and a["rw"] == "randread" and a["bs"] == "4096"
    (tmp_path / "p").mkdir()
    jobfile(tmp_path, "; summary: mine\n[mine]\nrw=write\nbs=128k\n", "p/mine.fio")
    env = {"SSDLOAD_PROFILES": str(tmp_path / "p")}
    a, _ = parse(cli, "--profile=mine", f"--filename={DEV}", "--iodepth=2", env=env)
    assert a["rw"] == "write" and a["bs"] == "131072" and a["iodepth"] == "2"
    one_error_line(run(cli, "run", "--parse-only", "--profile=../p/mine",
                       "--filename=/dev/x", env=env), "no such profile")


def test_profiles_command(cli, repo, tmp_path):
    p = run(cli, "profiles")
    assert p.returncode == 0, p.stderr
    shipped = sorted(f[:-4] for f in os.listdir(os.path.join(repo, "userspace", "profiles"))
                     if f.endswith(".fio"))
    rows = [l.split()[0] for l in p.stdout.splitlines()[1:]
            if l and not l.startswith(" ") and l.split()[0] in shipped]
    assert rows == shipped
    assert "four corners: 4 KiB random read" in p.stdout
    assert "128 (4x32)" in p.stdout
    (tmp_path / "p").mkdir()
    jobfile(tmp_path, "; summary: a mix\n[global]\nnumjobs=2\n[m]\nrw=randrw\nrwmixread=60\n"
            "iodepth=8\nbssplit=4k/50:64k/50\n", "p/m.fio")
    p = run(cli, "profiles", env={"SSDLOAD_PROFILES": str(tmp_path / "p")})
    assert p.returncode == 0, p.stderr
    row = p.stdout.splitlines()[1].split()
    assert row == ["m", "randrw", "60/40", "16", "(2x8)", "4k/50:64k/50"], row
    assert "    a mix" in p.stdout
    p = run(cli, "profiles", env={"SSDLOAD_PROFILES": str(tmp_path / "none")})
    assert p.returncode == 1


@pytest.mark.parametrize("opt", ["exitall", "ioscheduler", "rate_cycle", "verify_dump"])
def test_fio_option_not_supported_is_named(cli, tmp_path, opt):
    """A real fio option ssdload lacks is not called a typo."""
    line = one_error_line(run(cli, "run", "--filename=/dev/x", "--%s=1" % opt),
                          "--" + opt, "fio option", "not support")
    assert "unknown" not in line and "did you mean" not in line, line
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\n%s\n" % opt)
    one_error_line(run(cli, "run", "--parse-only", f), "job.fio:3:", opt, "not support")


def test_curve_and_sweep_take_a_profile(cli, tmp_path):
    """The methods read the profile's workload: writes need --allow_write,
    --section needs --profile, an unknown profile is named."""
    one_error_line(run(cli, "curve", "--profile=oracle", "--filename=/dev/x"),
                   "rw=randrw", "--allow_write")
    one_error_line(run(cli, "sweep", "--profile=64k-seqwrite", "--filename=/dev/x"),
                   "--allow_write")
    one_error_line(run(cli, "curve", "--profile=nope", "--filename=/dev/x"),
                   "--profile=nope", "no such profile")
    one_error_line(run(cli, "sweep", "--section=x", "--filename=/dev/x"),
                   "--section=x", "no --profile")
