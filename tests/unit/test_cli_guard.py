# SPDX-License-Identifier: GPL-2.0
"""The guard of the destructive commands, on the host (Documentation/cli.rst,
"Safety").

The options (--force, --dry-run) in every destructive command's help, and,
on loop devices over files in tmp_path, the messages: the identity line,
the refusal of a device holding an ext4 filesystem, a GPT partition table
or swap (exit status 2, the image unchanged), a dry run that writes
nothing, scale --raid refused before mdadm, and pts --resume against
another device.  The refusals all come before the module is needed, so
none is loaded here.  Without root or loop devices these are skips that
say so; the guest runs the same checks on NVMe and brd, with LVM and md
(tests/e2e/test_guards.py).
"""

import hashlib
import json
import os
import re
import shutil
import subprocess

import pytest

from cli import run

SIZE = 64 << 20


@pytest.mark.parametrize("cmd", [["pts", "purge"], ["pts", "iops"], ["scale"]])
def test_help_lists_force_and_dry_run(cli, cmd):
    p = run(cli, *cmd, "--help")
    assert p.returncode == 0, p.stderr
    assert "--force" in p.stdout and "--dry-run" in p.stdout, p.stdout


@pytest.fixture
def loops(tmp_path):
    """make(n) -> n loop devices over sparse 64 MiB files; detached after."""
    if os.geteuid() != 0:
        pytest.skip("loop devices need root")
    if not shutil.which("losetup"):
        pytest.skip("losetup (util-linux) is not installed")
    made = []

    def make(n=1):
        for i in range(n):
            img = tmp_path / ("disk%d.img" % len(made))
            with open(img, "wb") as f:
                f.truncate(SIZE)
            p = subprocess.run(["losetup", "-f", "--show", str(img)], capture_output=True,
                               text=True)
            if p.returncode:
                pytest.skip("no loop device: %s" % p.stderr.strip())
            made.append((p.stdout.strip(), img))
        return [m[0] for m in made[-n:]]
    yield make
    for dev, _ in made:
        subprocess.run(["losetup", "-d", dev], capture_output=True)


def _img(loopdev):
    with open("/sys/block/%s/loop/backing_file" % os.path.basename(loopdev)) as f:
        return f.read().strip()


def _sum(loopdev):
    with open(_img(loopdev), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _need(tool):
    if not shutil.which(tool):
        pytest.skip("%s is not installed" % tool)


def _ext4(dev):
    _need("mkfs.ext4")
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "backup", dev], check=True)
    return r'an ext4 filesystem \(label "backup"\)'


def _gpt(dev):
    _need("sfdisk")
    subprocess.run(["sfdisk", "-q", "--no-reread", dev], input="label: gpt\n", text=True,
                   capture_output=True)
    return "a gpt partition table"


def _swap(dev):
    _need("mkswap")
    subprocess.run(["mkswap", "-q", dev], check=True)
    return "a swap area"


@pytest.mark.parametrize("make", [_ext4, _gpt, _swap], ids=["ext4", "gpt", "swap"])
def test_signature_refused(cli, loops, make):
    dev = loops(1)[0]
    what = make(dev)
    before = _sum(dev)
    p = run(cli, "pts", "purge", "--filename=" + dev, "--allow_write")
    assert p.returncode == 2, p.stderr
    lines = p.stderr.splitlines()
    assert re.match(r"ssdload: refusing to destroy %s: model unknown, serial unknown, "
                    r"64 MiB \(%d bytes\), dev \d+:\d+, holds: %s$"
                    % (re.escape(dev), SIZE, what), lines[0]), lines
    assert re.match(r"ssdload: %s: holds %s; --force to destroy it$" % (re.escape(dev), what),
                    lines[1]), lines
    assert len(lines) == 2, lines
    assert _sum(dev) == before


def test_dry_run(cli, loops):
    dev = loops(1)[0]
    before = _sum(dev)
    p = run(cli, "pts", "purge", "--filename=" + dev, "--allow_write", "--dry-run")
    assert p.returncode == 0, p.stderr
    assert re.search(r"^ssdload: would destroy %s: .*holds: no signature$" % re.escape(dev),
                     p.stderr, re.M), p.stderr
    assert re.search(r"dry run: %s: purge \(auto\): .*scope: the whole device %s"
                     % (re.escape(dev), re.escape(dev)), p.stderr), p.stderr
    assert "nothing was written" in p.stderr
    # --force shows what it would destroy, and still writes nothing
    what = _ext4(dev)
    before = _sum(dev)
    p = run(cli, "pts", "purge", "--filename=" + dev, "--allow_write", "--purge=overwrite",
            "--dry-run", "--force")
    assert p.returncode == 0, p.stderr
    assert re.search(r"would destroy .*holds: %s" % what, p.stderr), p.stderr
    assert "one sequential write pass over %d bytes" % SIZE in p.stderr
    assert _sum(dev) == before


def test_pts_test_dry_run(cli, loops, tmp_path):
    dev = loops(1)[0]
    out = tmp_path / "out"
    p = run(cli, "pts", "latency", "--filename=" + dev, "--allow_write", "--dry-run",
            "--output-dir=%s" % out)
    assert p.returncode == 0, p.stderr
    assert "purge (auto)" in p.stderr and "nothing was written" in p.stderr
    assert not out.exists()


def test_scale_raid_refused_before_mdadm(cli, loops, tmp_path):
    devs = loops(2)
    what = _ext4(devs[1])
    out = tmp_path / "sc"
    p = run(cli, "scale", "--devices=" + ",".join(devs), "--raid=0", "--counts=1,2",
            "--allow_write", "--output-dir=%s" % out, "--dry-run")
    assert p.returncode == 2, p.stderr
    assert re.search(r"%s: holds %s; --force to destroy it" % (re.escape(devs[1]), what),
                     p.stderr), p.stderr
    assert re.search(r"would destroy %s: .*holds: no signature"
                     % re.escape(devs[0]), p.stderr), p.stderr
    assert "refused before mdadm ran" in p.stderr
    assert "would build" not in p.stderr
    assert not out.exists()
    p = run(cli, "scale", "--devices=" + ",".join(devs), "--raid=0", "--counts=1,2",
            "--allow_write", "--output-dir=%s" % out, "--dry-run", "--force")
    assert p.returncode == 0, p.stderr
    assert "would build RAID-0 of 2 drives (%s, %s), chunk 512 KiB" % tuple(devs) in p.stderr
    assert not out.exists()


def test_resume_other_device(cli, loops, tmp_path):
    a, b = loops(2)
    num = lambda d: open("/sys/block/%s/dev" % os.path.basename(d)).read().strip()  # noqa: E731
    d = tmp_path / "run"
    d.mkdir()
    doc = {"format": "ssdload-pts", "format_version": 1, "test": "latency",
           "state": "interrupted",
           "device": {"path": a, "serial": None, "model": None, "dev": num(a),
                      "capacity_bytes": SIZE},
           "command": ["ssdload", "pts", "latency", "--filename=" + b, "--allow_write"]}
    (d / "pts.json").write_text(json.dumps(doc))
    before = _sum(b)
    p = run(cli, "pts", "--resume=%s" % d)
    assert p.returncode == 2, p.stderr
    assert "%s is not the device the test started on (device number and capacity)" % b \
        in p.stderr, p.stderr
    assert re.search(r"started on: .*dev %s" % num(a), p.stderr), p.stderr
    assert re.search(r"now: +.*dev %s" % num(b), p.stderr), p.stderr
    assert _sum(b) == before
    # the same device number and capacity: not refused for its identity
    doc["device"]["dev"] = num(b)
    (d / "pts.json").write_text(json.dumps(doc))
    p = run(cli, "pts", "--resume=%s" % d, "--dry-run")
    assert "is not the device" not in p.stderr, p.stderr
    assert p.returncode == 0, p.stderr
