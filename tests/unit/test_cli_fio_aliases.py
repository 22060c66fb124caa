# SPDX-License-Identifier: GPL-2.0
"""fio's option aliases: both names of one option behave the same.

ssdload keeps fio 3.33's alias table (the .alias fields of fio's
options.c) in userspace/core/options.c.  The table is checked here
against the installed fio's own (`fio --cmdhelp=NAME` prints "alias:"),
and each pair against ssdload: on the command line, in a job file and as
a step key, the alias gives what its name gives, whatever that is (an
attribute, a refusal, "not supported").
"""
import os
import re
import shutil
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import fio_aliases, run

pytestmark = NEEDS_DEV

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


ALIASES = fio_aliases(REPO)


def fio_alias(name):
    p = subprocess.run(["fio", "--cmdhelp=" + name], capture_output=True, text=True,
                       timeout=30)
    head = re.match(r"\s*(\S+):", p.stdout)
    alias = re.search(r"^\s*alias: (\S+)", p.stdout, re.M)
    return (head.group(1), alias.group(1)) if head and alias else None


def test_the_table_is_fios():
    if not shutil.which("fio"):
        pytest.skip("fio is not installed (Debian: fio): no alias table to compare with")
    p = subprocess.run(["fio", "--cmdhelp=all"], capture_output=True, text=True,
                       timeout=30)
    assert p.returncode == 0, p.stderr
    names = {l.split(":")[0].strip() for l in p.stdout.splitlines() if ":" in l}
    assert {"runtime", "rw", "bs", "steadystate"} <= names, sorted(names)
    # --cmdhelp=all leaves some options out (iomem_align): ask for ours too
    names |= {n for pair in ALIASES for n in pair}
    fio = {fio_alias(n) for n in sorted(names)} - {None}
    assert set(ALIASES) == fio, ("only ssdload's", set(ALIASES) - fio,
                                 "only fio's", fio - set(ALIASES))


def placeholder1(text, name):
    """@text with the option name @name as written in messages and
    attributes replaced by OPT."""
    return re.sub(r"(--|: |=|'|takes )%s(?=[=:']|$)" % re.escape(name), r"\1OPT", text,
                  flags=re.M)


def outcome(cli, tmp_path, name, value, names):
    """What ssdload makes of @name=@value: on the command line, in a job
    file, as a step key (stdout and stderr, both @names replaced: an
    attribute may have the option's name)."""
    def placeholder(text, _):
        for n in names:
            text = placeholder1(text, n)
        return text
    got = []
    p = run(cli, "run", "--name=j", f"--filename={DEV}", "--parse-only",
            "--%s=%s" % (name, value))
    got.append((p.returncode, placeholder(p.stdout, name), placeholder(p.stderr, name)))
    f = tmp_path / "job.fio"
    f.write_text(f"[j]\nfilename={DEV}\n%s=%s\n" % (name, value))
    p = run(cli, "run", "--parse-only", str(f))
    got.append((p.returncode, placeholder(p.stdout, name), placeholder(p.stderr, name)))
    p = run(cli, "run", "--name=j", f"--filename={DEV}", "--parse-only",
            "--step=%s=%s" % (name, value))
    got.append((p.returncode, placeholder(p.stdout, name), placeholder(p.stderr, name)))
    return got


@pytest.mark.parametrize("name,alias", ALIASES, ids=["%s/%s" % a for a in ALIASES])
@pytest.mark.parametrize("value", ["1", "8k", "0"])
def test_both_names_behave_the_same(cli, tmp_path, name, alias, value):
    assert outcome(cli, tmp_path, name, value, (name, alias)) == \
        outcome(cli, tmp_path, alias, value, (name, alias))


@pytest.mark.parametrize("name,alias,attr", [
    ("runtime", "timeout", "runtime_ms=5000"),
    ("offset", "fileoffset", "offset=4096"),
    ("io_size", "io_limit", "number_ios=1"),
    ("rw", "readwrite", "rw=write"),
])
def test_an_alias_is_taken(cli, tmp_path, name, alias, attr):
    """Not only the same: accepted, with its name's attribute."""
    value = {"runtime": "5", "offset": "4k", "io_size": "4k", "rw": "write"}[name]
    p = run(cli, "run", f"--filename={DEV}", "--parse-only",
            "--%s=%s" % (alias, value))
    assert p.returncode == 0, p.stderr
    assert attr in p.stdout.splitlines(), p.stdout


@pytest.mark.parametrize("name,alias", [("rate_min", "ratemin"), ("nrfiles", "nr_files")])
def test_an_unsupported_alias_is_named(cli, name, alias):
    """An alias of a fio option ssdload lacks is refused as its name is,
    not called unknown."""
    for n in (name, alias):
        p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--%s=2" % n)
        assert p.returncode == 1
        assert "a fio option that ssdload does not support" in p.stderr, p.stderr
        assert "unknown" not in p.stderr, p.stderr
