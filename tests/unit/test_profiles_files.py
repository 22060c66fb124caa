# SPDX-License-Identifier: GPL-2.0
"""The shipped workload library, userspace/profiles/NAME.fio (host only).

Every file: line 1 is '; summary: ...', at least one '; source:' line, at
most one [global] and exactly one job section named as the file, only the
keys a profile may set, and those keys, turned into --key=value options,
pass `ssdload run --parse-only` (which needs no module: the filename is
not opened).  Documentation/profiles.rst lists every profile.
"""
import configparser
import glob
import os
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from build import make_userspace

pytestmark = NEEDS_DEV

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROFILES = os.path.join(TOP, "userspace", "profiles")
FILES = sorted(glob.glob(os.path.join(PROFILES, "*.fio")))
NAMES = [os.path.basename(p)[:-len(".fio")] for p in FILES]

ALLOWED = {"rw", "rwmixread", "bs", "bssplit", "blockalign", "random_distribution",
           "iodepth", "numjobs", "percentile_list"}
EXPECTED = {
    "4k-randread", "4k-randwrite", "64k-seqread", "64k-seqwrite", "64k-random",
    "sql", "sql-90-10", "sql-80-20", "oracle", "oracle-90-10", "oracle-80-20",
    "vdi-fc-boot", "vdi-fc-initial-login", "vdi-fc-monday-login",
    "vdi-lc-boot", "vdi-lc-initial-login", "vdi-lc-monday-login",
}


def parse(path):
    """(sections in order, {section: {key: value}}) as inih reads it."""
    cp = configparser.ConfigParser(comment_prefixes=(";", "#"), inline_comment_prefixes=None,
                                   delimiters=("=",), strict=True, interpolation=None,
                                   default_section="\0none")
    cp.optionxform = str
    with open(path, encoding="utf-8") as f:
        cp.read_file(f)
    return cp.sections(), {s: dict(cp[s]) for s in cp.sections()}


@pytest.fixture(scope="module")
def ssdload_bin():
    """userspace/ssdload, freshly built; skip (with make's words) when the
    host cannot build it, as --parse-only needs nothing else."""
    r = make_userspace(top=TOP)
    path = os.path.join(TOP, "userspace", "ssdload")
    if r.returncode != 0 or not os.access(path, os.X_OK):
        pytest.skip("cannot build userspace/ssdload for --parse-only: " +
                    (r.stderr.strip() or r.stdout.strip() or "no binary"))
    return path


def test_the_library_is_complete():
    assert set(NAMES) == EXPECTED


@pytest.mark.parametrize("path", FILES, ids=NAMES)
def test_header(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("; summary: ") and len(lines[0]) > len("; summary: ") + 10, lines[0]
    assert any(l.startswith("; source: ") for l in lines), "no '; source:' line"


@pytest.mark.parametrize("path", FILES, ids=NAMES)
def test_sections_and_keys(path):
    name = os.path.basename(path)[:-len(".fio")]
    sections, body = parse(path)
    jobs = [s for s in sections if s != "global"]
    assert jobs == [name], "want one job section [%s], got %r" % (name, sections)
    assert sections.count("global") <= 1
    for sec, kv in body.items():
        bad = set(kv) - ALLOWED
        assert not bad, "[%s] sets keys a profile may not: %s" % (sec, sorted(bad))
    merged = dict(body.get("global", {}))
    merged.update(body[name])
    assert "rw" in merged
    if merged["rw"] in ("rw", "randrw"):
        assert "rwmixread" in merged, "a mix must say its read share"
    assert "bs" in merged or "bssplit" in merged, "the sizes must be explicit"
    assert "iodepth" in merged and "numjobs" in merged, "the threads must be explicit"
    assert 1 <= int(merged["numjobs"]) <= 4


@pytest.mark.parametrize("path", FILES, ids=NAMES)
def test_parse_only_accepts(path, ssdload_bin):
    name = os.path.basename(path)[:-len(".fio")]
    _, body = parse(path)
    merged = dict(body.get("global", {}))
    merged.update(body[name])
    args = ["--%s=%s" % kv for kv in merged.items()]
    env = dict(os.environ)
    env.setdefault("SSDLOAD_CONFIGFS", "/nonexistent/ssdload-unit/configfs")
    env.setdefault("SSDLOAD_DEBUGFS", "/nonexistent/ssdload-unit/debugfs")
    p = subprocess.run([ssdload_bin, "run", "--parse-only", f"--filename={DEV}",
                        "--allow_write=1", "--name=" + name] + args,
                       capture_output=True, text=True, env=env, timeout=60)
    if p.returncode != 0 and "parse-only" in p.stderr and "unknown" in p.stderr:
        pytest.skip("this ssdload has no --parse-only: " + p.stderr.strip())
    assert p.returncode == 0, "--parse-only refused %s:\n%s" % (" ".join(args), p.stderr)
    attrs = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
    assert attrs.get("name") == name
    assert attrs.get("rw") == merged["rw"]
    for key in ("rwmixread", "iodepth", "numjobs"):
        if key in merged:
            assert attrs.get(key) == merged[key], key


def test_documented():
    with open(os.path.join(TOP, "Documentation", "profiles.rst"), encoding="utf-8") as f:
        doc = f.read()
    missing = [n for n in NAMES if "``%s``" % n not in doc]
    assert not missing, "Documentation/profiles.rst does not list %s" % missing
