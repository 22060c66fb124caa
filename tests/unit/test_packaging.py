# SPDX-License-Identifier: GPL-2.0
"""What a user of kernel-module tools expects around the CLI: a man page
built from the --help texts (so it cannot drift), bash completion driven
by them too, and `make install` of the CLI, its data and both, into a
prefix where the installed binary finds its profiles and report renderer.
"""
import os
import re
import shutil
import subprocess
import sys

import pytest

from build import make_userspace


def helps(cli):
    """Every command's help text, pts' sub-commands included."""
    top = subprocess.run([cli, "--help"], capture_output=True, text=True).stdout
    cmds = re.findall(r"(?m)^   ([a-z]+)\s", top)
    assert "run" in cmds and "profiles" in cmds, top
    out = {}
    for c in cmds:
        text = subprocess.run([cli, c, "--help"], capture_output=True, text=True).stdout
        out[c] = text
        for sub in re.findall(r"(?m)^   ([a-z][a-z-]*)\s{2,}\S", text):
            out[c + " " + sub] = subprocess.run([cli, c, sub, "--help"], capture_output=True,
                                                text=True).stdout
    return out


@pytest.fixture(scope="module")
def manpage(cli, repo):
    r = make_userspace("man", top=repo)
    assert r.returncode == 0, r.stdout + r.stderr
    return os.path.join(repo, "userspace", "ssdload.1")


def test_man_page_renders_cleanly(manpage):
    if not shutil.which("groff"):
        pytest.skip("groff (Debian's groff-base) is not installed")
    p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", manpage],
                       capture_output=True, text=True)
    assert p.returncode == 0 and p.stderr == "", p.stderr


def test_man_page_has_every_command_and_option(cli, manpage):
    if not shutil.which("groff"):
        pytest.skip("groff (Debian's groff-base) is not installed")
    p = subprocess.run(["groff", "-man", "-Tutf8", "-P", "-cbou", manpage],
                       capture_output=True, text=True)
    page = p.stdout.replace("\u2010", "-").replace("\u2011", "-")
    flat = " ".join(re.sub(r"-\n\s*", "-", page).split())    # hyphenated at a line end
    for cmd, text in helps(cli).items():
        if " " not in cmd:      # a sub-command's section is its distinct help's
            assert re.search(r"(?m)^   %s$" % re.escape(cmd), page), "no section for %r" % cmd
        for opt in set(re.findall(r"--[A-Za-z0-9][A-Za-z0-9_+-]*", text)):
            assert opt in flat, "%s: %s is not in the man page" % (cmd, opt)


def complete(cli, repo, *words):
    script = os.path.join(repo, "userspace", "ssdload.bash")
    cmd = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); '
           '_ssdload; printf "%s\\n" "${COMPREPLY[@]}"')
    env = dict(os.environ, PATH=os.path.dirname(cli) + ":" + os.environ["PATH"])
    p = subprocess.run(["bash", "-c", cmd, "bash", script] + list(words), capture_output=True,
                       text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    return [w for w in p.stdout.split("\n") if w]


def test_bash_completion(cli, repo):
    if not shutil.which("bash"):
        pytest.skip("bash is not installed")
    assert complete(cli, repo, "ssdload", "r") == ["run", "replay", "review", "report"]
    # fio's iodepth_batch and iodepth_low are taken (as notes) too
    assert complete(cli, repo, "ssdload", "run", "--iod") == \
        ["--iodepth=", "--iodepth_batch", "--iodepth_low"]
    assert "--stopcurve-intended=" in complete(cli, repo, "ssdload", "curve", "--stop")
    profs = sorted(f[:-4] for f in os.listdir(os.path.join(repo, "userspace", "profiles")))
    assert complete(cli, repo, "ssdload", "run", "--profile", "=", "") == profs
    assert complete(cli, repo, "ssdload", "run", "--profile", "=", "sql-") == \
        [p for p in profs if p.startswith("sql-")]
    assert complete(cli, repo, "ssdload", "run", "--output-format", "=", "json") == \
        ["json", "json+"]
    # every option of run's --help completes
    opts = complete(cli, repo, "ssdload", "run", "--")
    for opt in ("--filename=", "--write_hist_log=", "--kb_base=", "--output=", "--section="):
        assert opt in opts, opt


def test_make_install_into_a_prefix(repo, tmp_path):
    """A copy of the sources installed with PREFIX: the binary finds its
    profiles and report renderer there, not next to itself."""
    src = tmp_path / "src"
    for d in ("userspace", "uapi", "scripts"):
        shutil.copytree(os.path.join(repo, d), str(src / d),
                        ignore=shutil.ignore_patterns("*.o", "ssdload", "ssdload.1", ".datadir"))
    shutil.copytree(os.path.join(repo, "contrib"), str(src / "contrib"))
    prefix = tmp_path / "prefix"
    r = subprocess.run(["make", "-s", "-C", str(src / "userspace"), "install",
                        "PREFIX=" + str(prefix)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    for f in ("bin/ssdload", "share/man/man1/ssdload.1",
              "share/bash-completion/completions/ssdload",
              "share/ssdload/ssdload-report.py", "share/ssdload/profiles/sql.fio",
              "share/ssdload/plans/tssdr-p3520-pts.ini",
              "share/ssdload/ansible/ssdload/playbooks/run.yml",
              "share/ssdload/report/ssdload_report/__init__.py",
              "share/ssdload/report/ssdload_report/render.py"):
        assert (prefix / f).is_file(), f
    assert os.access(str(prefix / "bin" / "ssdload"), os.X_OK)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SSDLOAD_")}
    p = subprocess.run([str(prefix / "bin" / "ssdload"), "profiles", "--names"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert "oracle-90-10" in p.stdout.split()
    p = subprocess.run([str(prefix / "bin" / "ssdload"), "review", "--list"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0 and "anandtech-p4510-sweep " in p.stdout, p.stdout + p.stderr
    p = subprocess.run([str(prefix / "bin" / "ssdload"), "report", "--help"],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0
    # the installed renderer finds its package beside it (no result here: 2)
    p = subprocess.run([sys.executable, str(prefix / "share" / "ssdload" / "ssdload-report.py"),
                        str(tmp_path)], capture_output=True, text=True, env=env)
    assert p.returncode == 2 and "no result to render" in p.stderr, p.stderr
    # DESTDIR: staged, then removed again by uninstall
    stage = tmp_path / "stage"
    for target in ("install", "uninstall"):
        r = subprocess.run(["make", "-s", "-C", str(src / "userspace"), target,
                            "DESTDIR=" + str(stage), "PREFIX=/usr"],
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
    left = [os.path.join(d, f) for d, _, fs in os.walk(str(stage)) for f in fs]
    assert left == [], left


def test_make_install_module(repo, tmp_path):
    """make install-module DESTDIR=...: ssdload.ko for KDIR's kernel in
    lib/modules/KVER/extra, as users of out-of-tree modules expect.  It uses
    the 6.1 headers and the build the e2e[6.1] items made (in the cache), so
    nothing is compiled again here; without them it skips."""
    env = dict(os.environ)
    p = subprocess.run([os.path.join(repo, "scripts", "fetch-kernel.sh"), "6.1"], cwd=repo,
                       capture_output=True, text=True, env=env, timeout=900)
    if p.returncode:
        pytest.skip("the 6.1 kernel headers are not available: %s" % p.stderr[-300:])
    info = dict(l.split("=", 1) for l in p.stdout.split() if "=" in l)
    cache = os.path.realpath(os.environ.get("SSDLOAD_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ssdload"))
    bdir = os.path.join(cache, "build", info["KVER"])
    if not os.path.exists(os.path.join(bdir, "module", "ssdload.ko")):
        pytest.skip("ssdload.ko is not built for %s in %s (the e2e[6.1] build item makes it)"
                    % (info["KVER"], bdir))
    stage = tmp_path / "stage"
    r = subprocess.run(["make", "-s", "-C", bdir, "-f", os.path.join(repo, "Makefile"),
                        "install-module", "KDIR=" + info["KDIR"], "DESTDIR=" + str(stage)],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    ko = stage / "lib" / "modules" / info["KVER"] / "extra" / "ssdload.ko"
    assert ko.is_file(), sorted(str(x) for x in stage.rglob("*"))
    m = subprocess.run(["modinfo", "-F", "vermagic", str(ko)], capture_output=True, text=True)
    assert m.returncode == 0 and m.stdout.split()[0] == info["KVER"], m.stdout + m.stderr
