# SPDX-License-Identifier: GPL-2.0
"""Running the ssdload CLI without a kernel module, and the files it reads.

run() points $SSDLOAD_CONFIGFS and $SSDLOAD_DEBUGFS at paths that do not
exist, unless the test passes its own fake trees (lib/debugfs.py,
lib/fakemodule.py) in @env.
"""
import json
import os
import re
import shutil
import subprocess
import threading
import time
from blockdev import DEV


def fio_takes(*args):
    """fio --parse-only of a null job with @args: None when fio is missing."""
    if not shutil.which("fio"):
        return None
    p = subprocess.run(["fio", "--parse-only", "--name=x", "--ioengine=null", "--size=1m"] +
                       list(args), capture_output=True, text=True, timeout=30)
    return p.returncode == 0 and "error" not in p.stderr.lower()


def run(cli, *args, env=None, **kw):
    e = dict(os.environ)
    e.setdefault("SSDLOAD_CONFIGFS", "/nonexistent/ssdload-unit/configfs")
    e.setdefault("SSDLOAD_DEBUGFS", "/nonexistent/ssdload-unit/debugfs")
    e.update(env or {})
    kw.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([cli] + list(args), stderr=subprocess.PIPE, text=True,
                          env=e, timeout=60, **kw)


def one_error_line(p, *needles):
    assert p.returncode != 0, "exit 0; stdout %r" % p.stdout
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, "expected one error line, got %r" % p.stderr
    assert lines[0].startswith("ssdload: "), lines[0]
    for n in needles:
        assert n.lower() in lines[0].lower(), "%r does not mention %r" % (lines[0], n)
    return lines[0]


def stop_leaving(cli, tmp_path, name, state, delay):
    """ssdload stop on the enabled job @name of a fake configfs, in @state
    until it turns "stopped" after @delay seconds; the process, the seconds
    stop took and the job's directory."""
    job = tmp_path / "cfs" / "jobs" / name
    job.mkdir(parents=True)
    (job / "enable").write_text("1\n")
    (job / "state").write_text(state + "\n")

    def later():
        time.sleep(delay)
        (tmp_path / "state").write_text("stopped\n")
        os.replace(tmp_path / "state", job / "state")
    t = threading.Thread(target=later)
    start = time.monotonic()
    t.start()
    p = run(cli, "stop", name, env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs")})
    t.join()
    return p, time.monotonic() - start, job


def usage_lists(cli, cmd, options):
    """`ssdload @cmd --help` exits 0 and names each of @options; `ssdload
    --help` names @cmd."""
    p = run(cli, cmd, "--help")
    assert p.returncode == 0
    for o in options:
        assert o in p.stdout, o
    assert cmd in run(cli, "--help").stdout
    return p


def refused_leaving_nothing(p, out, *needles):
    """@p refused (exit 2) in one line naming @needles, no @out left."""
    assert p.returncode == 2, p.stderr
    one_error_line(p, *needles)
    assert not out.exists()


def parse_only(cli, *args, env=None):
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", *args, env=env)
    assert p.returncode == 0, p.stderr
    return dict(l.split("=", 1) for l in p.stdout.splitlines())


def show_json(cli, fake, *extra):
    p = run(cli, "show", fake.name, "--output-format=json", *extra, env=fake.env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def jobfile(tmp_path, text, name="job.fio"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


FILES = {"ssdload-curve": "curve.json", "ssdload-sweep": "sweep.json",
         "ssdload-pts": "pts.json"}


def put(tmp_path, name, doc, raw=None):
    """A run directory @name holding @doc (or @raw text) under its file name."""
    d = tmp_path / name
    d.mkdir(parents=True, exist_ok=True)
    f = d / FILES.get(doc.get("format") if doc else None, "curve.json")
    f.write_text(raw if raw is not None else json.dumps(doc), encoding="utf-8")
    return str(d)


def fio_aliases(repo):
    """The (name, alias) pairs of fio_aliases[] in userspace/core/options.c:
    fio's two names of one option, which ssdload takes alike."""
    src = open(os.path.join(repo, "userspace", "core", "options.c")).read()
    body = src[src.index("} fio_aliases[] = {"):]
    body = body[:body.index("};")]
    return re.findall(r'\{ "([^"]+)", "([^"]+)" \}', body)
