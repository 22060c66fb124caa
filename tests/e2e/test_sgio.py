# SPDX-License-Identifier: GPL-2.0
"""SATA and SAS drives: write cache and purge through SG_IO.

qemu's ide-hd on AHCI (libata: ATA commands through ATA PASS-THROUGH(16))
and scsi-hd on virtio-scsi (SCSI commands), 16 MiB each, attached by
tests/qemu/guest.py on its SG_KERNELS only ($SSDLOAD_SG_SERIALS names
them by serial).

- write cache: a pts run with --write-cache=off switches it off with ATA
  SET FEATURES 82h (ide-hd) or MODE SELECT of the caching page (scsi-hd);
  the kernel, made to read the device again, agrees (libata re-reads
  IDENTIFY word 85; sd reads the caching page with MODE SENSE);
- purge: qemu implements neither ATA Sanitize nor the Security feature
  set nor SCSI SANITIZE.  An explicit --purge=sanitize or security-erase
  is refused with the reason (the IDENTIFY word, or the device's sense
  data).  --purge=auto on the ide-hd falls back to a discard, which the
  output marks as not conformant; on the scsi-hd it takes FORMAT UNIT
  (accepted by qemu, which erases nothing: the path is tested, not the
  erasure), conformant.

The code under test is the CLI's (the drivers are stock): one kernel.
"""

import glob
import json
import os
import re
import subprocess
import time

import pytest

import ssdload_env as env

MODULES = ("ahci", "virtio_scsi", "sd_mod")


def _serial_of(block):
    """The serial of /sys/block/BLOCK: VPD page 80h (libata emulates it)."""
    try:
        with open("/sys/block/%s/device/vpd_pg80" % block, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data[4:].decode("ascii", "replace").strip(" \0")


@pytest.fixture(scope="module")
def sg_disks():
    """{"SSDLOAD_SATA": "/dev/sdX", "SSDLOAD_SAS": "/dev/sdY"}."""
    pairs = os.environ.get("SSDLOAD_SG_SERIALS", "")
    if not pairs:
        pytest.skip("no SATA/SAS disks in this guest: tests/qemu/guest.py attaches them "
                    "on its SG_KERNELS only")
    for m in MODULES:
        subprocess.run(["modprobe", m], check=True, timeout=60)
    want = dict(p.split("=", 1) for p in pairs.split())
    found = {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(found) < len(want):
        for b in glob.glob("/sys/block/sd*"):
            s = _serial_of(os.path.basename(b))
            if s in want and os.path.exists("/dev/" + os.path.basename(b)):
                found[want[s]] = "/dev/" + os.path.basename(b)
        time.sleep(0.2)
    missing = sorted(set(want.values()) - set(found))
    assert not missing, "no disk with the serial of %s in /sys/block (%s)" % (
        missing, os.listdir("/sys/block"))
    return found


def _kernel_cache_type(dev):
    """The write cache as the kernel reads it from the device now."""
    blk = os.path.basename(dev)
    with open("/sys/block/%s/device/rescan" % blk, "w") as f:
        f.write("1")
    (sd,) = glob.glob("/sys/block/%s/device/scsi_disk/*/cache_type" % blk)
    with open(sd) as f:
        return f.read().strip()


def _wsat(dev, d, wc):
    """A pts wsat of 1 s without purge: only for its write cache phase."""
    p = env.cli("pts", "wsat", "--filename=" + dev, "--allow_write", "--output-dir=" + d,
                "--purge=none", "--write-cache=" + wc, "--duration=1s", "--write-limit=1",
                "--point-time=100ms", "--threads=1", "--iodepth=1", "--no-report",
                "--eta=never", timeout=300)
    assert p.returncode == 0, p.stderr
    with open(os.path.join(d, "pts.json")) as f:
        return json.load(f)


@pytest.mark.parametrize("disk", ["SSDLOAD_SATA", "SSDLOAD_SAS"])
def test_write_cache_off(sg_disks, ssdload, cli, tmp_path, disk):  # pylint: disable=unused-argument
    """qemu starts both disks with the write cache on: --write-cache=off
    turns it off, as the device reads it back and the kernel sees it."""
    dev = sg_disks[disk]
    assert _kernel_cache_type(dev).startswith("write back")
    doc = _wsat(dev, str(tmp_path / "wsat"), "off")
    wc = doc["device"]["write_cache"]
    assert wc["present"] is True, wc
    assert wc["before"] == "enabled" and wc["during"] == "disabled", wc
    assert not any("write cache" in x for x in doc["deviations"]), doc["deviations"]
    assert _kernel_cache_type(dev) == "write through"


def _purge(dev, *args):
    return env.cli("pts", "purge", "--filename=" + dev, "--allow_write", *args, timeout=300)


def test_sata_purge_commands_refused(sg_disks, ssdload, cli):  # pylint: disable=unused-argument
    """qemu's IDE has neither the Sanitize nor the Security feature set:
    each explicit method is refused, naming the IDENTIFY word; format is
    no ATA command."""
    dev = sg_disks["SSDLOAD_SATA"]
    for method, why in (("sanitize", r".*neither BLOCK ERASE nor CRYPTO SCRAMBLE.*word 59"),
                        ("security-erase", r".*no Security feature set \(IDENTIFY word 82"),
                        ("format", r"ATA has no format command")):
        p = _purge(dev, "--purge=" + method)
        assert p.returncode != 0, (method, p.stdout)
        assert re.search(r"cannot %s: %s" % (method, why), p.stderr), (method, p.stderr)
        assert "method:" not in p.stdout


def test_sas_sanitize_refused_by_the_device(sg_disks, ssdload, cli):  # pylint: disable=unused-argument
    """qemu's scsi-hd answers SANITIZE with ILLEGAL REQUEST, invalid
    operation code: refused with the decoded sense data; security-erase is
    refused as ATA only."""
    dev = sg_disks["SSDLOAD_SAS"]
    p = _purge(dev, "--purge=sanitize")
    assert p.returncode != 0, p.stdout
    assert re.search(r"SCSI SANITIZE \(block erase\): Illegal Request.*asc 0x20", p.stderr), \
        p.stderr
    p = _purge(dev, "--purge=security-erase")
    assert p.returncode != 0 and "not an ATA drive" in p.stderr, p.stderr


@pytest.mark.parametrize("disk", ["SSDLOAD_SATA", "SSDLOAD_SAS"])
def test_auto_purge_conformance(sg_disks, ssdload, cli, disk):  # pylint: disable=unused-argument
    """--purge=auto.  ide-hd: no Sanitize, no Security Erase, so a discard,
    said on stderr and marked not conformant.  scsi-hd: SANITIZE refused
    (invalid opcode), then FORMAT UNIT, which qemu accepts (it erases
    nothing there: the test checks the path, not the erasure): conformant."""
    sata = disk == "SSDLOAD_SATA"
    dev = sg_disks[disk]
    p = _purge(dev, "--dry-run")
    assert p.returncode == 0, p.stderr
    assert ("BLKDISCARD" if sata else "SCSI SANITIZE (block erase, else cryptographic erase), "
            "else SCSI FORMAT UNIT; scope: the whole disk") in p.stderr, p.stderr
    p = _purge(dev)
    assert p.returncode == 0, p.stderr
    m = re.search(r"^method: (\S+)$", p.stdout, re.M)
    assert m, p.stdout
    if sata:
        assert m.group(1) in ("secdiscard", "discard", "overwrite"), p.stdout
        assert re.search(r"^conformant: no \(an? (discard|overwrite) is not a purge",
                         p.stdout, re.M), p.stdout
        assert "no sanitize: " in p.stderr and "no security-erase: " in p.stderr, p.stderr
        assert "not conformant" in p.stderr, p.stderr
    else:
        assert m.group(1) == "format" and "SCSI FORMAT UNIT" in p.stdout, p.stdout
        assert "conformant: yes" in p.stdout, p.stdout
        assert "SCSI SANITIZE (block erase): Illegal Request" in p.stderr, p.stderr
