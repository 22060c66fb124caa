# SPDX-License-Identifier: GPL-2.0
"""What fio's job files ask and ssdload cannot give is refused with its reason.

fio 3.33 is the reference: its parse.c (strip_blank_end()) ends a line at
the first ';' or '#', it refuses bs=0, and of its engines only those doing
block I/O on the target have ssdload.ko's meaning.
"""
import os
import re

import pytest

from blockdev import DEV, MISSING, NEEDS_DEV
from cli import fio_aliases, jobfile, one_error_line, run

pytestmark = NEEDS_DEV


def parse(cli, *args):
    p = run(cli, "run", "--parse-only", *args)
    assert p.returncode == 0, p.stderr
    return dict(l.split("=", 1) for l in p.stdout.splitlines()), p.stderr


def test_inline_comments_end_the_line(cli, tmp_path):
    f = jobfile(tmp_path, "[global]\nruntime=3600  # max\nbs=8k;the size\n"
                f"[j] # a job\nfilename={DEV} # the drive\niodepth=4#\n")
    a, _ = parse(cli, f)
    assert a["filename"] == DEV
    assert a["runtime_ms"] == "3600000"
    assert a["bs"] == "8192" and a["iodepth"] == "4" and a["name"] == "j"


@pytest.mark.parametrize("engine", ["sync", "psync", "vsync", "pvsync", "pvsync2",
                                    "libaio", "io_uring", "posixaio", "mmap"])
def test_block_engines_become_ssdload(cli, engine):
    _, err = parse(cli, f"--filename={DEV}", "--ioengine=" + engine)
    assert "--ioengine=%s ignored: ssdload.ko is the engine" % engine in err


@pytest.mark.parametrize("engine,why", [
    ("null", "does no device I/O"), ("cpuio", "does no device I/O"),
    ("net", "network"), ("http", "network"), ("libiscsi", "network"),
    ("libhdfs", "network"), ("dfs", "network"), ("exec", "runs a program"),
    ("sg", "passthrough"), ("falloc", "file system"), ("dev-dax", "not block devices"),
    ("external:/x.so", "external engine"), ("nosuch", "not a block device engine"),
])
def test_other_engines_are_refused(cli, tmp_path, engine, why):
    one_error_line(run(cli, "run", "--parse-only", f"--filename={DEV}",
                       "--ioengine=" + engine), "--ioengine=" + engine, why)
    f = jobfile(tmp_path, f"[j]\nfilename={DEV}\nioengine=%s\n" % engine)
    one_error_line(run(cli, "run", "--parse-only", f), "job.fio:3: ioengine=" + engine,
                   why)


def test_bs_zero_is_refused(cli):
    one_error_line(run(cli, "run", "--parse-only", f"--filename={DEV}",
                       "--bs=0"), "--bs=0", "above 0")


def _doc_unsupported(repo):
    """{option: reason} of cli.rst's list of fio options ssdload lacks."""
    text = open(os.path.join(repo, "Documentation", "cli.rst")).read()
    start = text.index("fio's options that ssdload does not support are refused")
    rows = {}
    for line in text[start:].splitlines()[1:]:
        m = re.match(r"- ``([\w-]+)``: (.*)\.$", line)
        if m:
            rows[m.group(1)] = m.group(2)
        elif rows and not line.strip():
            break
    return rows


def _c_unsupported(repo):
    src = open(os.path.join(repo, "userspace", "core", "options.c")).read()
    body = src[src.index("} fio_unsupported[] = {"):]
    return re.findall(r'\{ "([\w-]+)", WHY_\w+ \}', body[:body.index("};")])


def test_every_unsupported_option_has_its_documented_reason(cli, repo, tmp_path):
    """The doc's line is the error's reason, for every name of the C table."""
    doc, names = _doc_unsupported(repo), _c_unsupported(repo)
    assert len(names) > 100 and sorted(doc) == sorted(names)
    run_opts = open(os.path.join(repo, "userspace", "cmd", "run-options.c")).read()
    other = {a: b for pair in fio_aliases(repo) for a, b in (pair, pair[::-1])}
    for name in names:
        why = "a fio option that ssdload does not support: %s (Documentation/cli.rst, " \
              "Differences from fio)" % doc[name]
        # a job option of run (by either of fio's names): refused elsewhere
        if any('{ "%s",' % n in run_opts for n in (name, other.get(name))):
            one_error_line(run(cli, "compare", "--%s=1" % name), "--%s: %s" % (name, why))
            continue
        f = jobfile(tmp_path, f"[j]\nfilename={DEV}\n%s=1\n" % name)
        one_error_line(run(cli, "run", "--parse-only", f), "job.fio:3: %s: %s" % (name, why))


@pytest.mark.parametrize("target,why", [
    ("REG", "not a block device (a regular file"),
    ("DIR", "not a block device (a directory"),
    ("/dev/null", "not a block device (a character device"),
    ("http://host/obj", "a URL, not a block device"),
    (MISSING, "not a block device (No such file or directory"),
])
def test_parse_only_checks_the_target(cli, tmp_path, target, why):
    """As a real run: what is not a block device, or does not exist, is
    refused at parse time, on the command line and in a job file (also one
    of several jobs)."""
    if target == "REG":
        target = str(tmp_path / "data.img")
        open(target, "w").close()
    elif target == "DIR":
        target = str(tmp_path)
    one_error_line(run(cli, "run", "--parse-only", "--name=j", "--filename=" + target),
                   target + ": " + why)
    f = jobfile(tmp_path, f"[a]\nfilename={DEV}\n[b]\nfilename=%s\n" % target)
    one_error_line(run(cli, "run", "--parse-only", f), target + ": " + why)


@pytest.mark.parametrize("args,notes", [
    (["--numjobs=4", "--rw=randread", "--rate_iops=100"],
     ["--numjobs=4 with rate_iops=100: the cap is the job's, shared by its 4 workers; "
      "fio's is each clone's (4 times as much; --per_clone=1 gives fio's)"]),
    (["--numjobs=2", "--rw=randwrite", "--number_ios=1000"],
     ["--numjobs=2 with number_ios=1000: the count is the job's"]),
    (["--numjobs=3", "--rw=write"],
     ["--numjobs=3 with rw=write: the 3 workers split the span into slices; fio's "
      "clones each cover the whole span"]),
    (["--numjobs=3"], ["--numjobs=3 with rw=read: the 3 workers split"]),
    (["--numjobs=2", "--rw=read", "--io_size=1m"], []),
    (["--numjobs=1", "--rw=read", "--rate=1m"], []),
    (["--numjobs=8", "--rw=randrw"], []),
])
def test_numjobs_differences_are_noted(cli, args, notes):
    """fio's rate_iops and number_ios are per clone and its sequential
    clones each cover the span; ssdload's are the job's: a note each."""
    _, err = parse(cli, f"--filename={DEV}", *args)
    got = [l for l in err.splitlines() if "numjobs" in l]
    assert len(got) == len(notes), err
    for line, want in zip(got, notes):
        assert line.startswith("ssdload: note: ") and want in line, err


def test_numjobs_note_names_the_job_file_line(cli, tmp_path):
    """A job file's numjobs are fio's clones (per_clone): no note; with
    --per_clone=0 ssdload's meaning, noted at the file's line."""
    f = jobfile(tmp_path, f"[global]\nnumjobs=2\n[j]\nfilename={DEV}\n"
                "rw=randread\nrate_iops=50\n")
    out, err = parse(cli, f)
    assert out.get("per_clone") == "1" and "numjobs" not in err, (out, err)
    _, err = parse(cli, "--per_clone=0", f)
    assert "job.fio:2: numjobs=2 with rate_iops=50: the cap" in err, err


def test_engine_is_refused_before_its_own_options(cli, tmp_path):
    """A network job's host= and port= are the engine's: the engine is the
    reason given, unless the command line names a block engine instead."""
    f = jobfile(tmp_path, "[global]\nhostname=h\nport=8888\n[j]\nioengine=net\n"
                f"filename={DEV}\n")
    one_error_line(run(cli, "run", "--parse-only", f), "job.fio:5: ioengine=net: a network")
    one_error_line(run(cli, "run", "--parse-only", "--ioengine=libaio", f),
                   "job.fio:2: unknown option 'hostname'")
