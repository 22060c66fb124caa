# SPDX-License-Identifier: GPL-2.0
"""SATA/SAS command bytes (userspace/device/sgcmd.c), one test per property.

test_sgcmd.c is compiled with -Wall -Wextra -Werror against sgcmd.c and
sgutils2 (libsgutils2-dev, scripts/deps.sh); each property is one
subcommand of the binary, which prints "ok NAME" or "FAIL" lines.
"""
import os
import subprocess

import pytest


@pytest.fixture(scope="module")
def test_sgcmd(repo, tmp_path_factory):
    if not os.path.exists("/usr/include/scsi/sg_lib.h"):
        pytest.skip("libsgutils2-dev is not installed (scripts/deps.sh)")
    exe = str(tmp_path_factory.mktemp("sgcmd") / "test_sgcmd")
    cmd = [os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2",
           "-I" + repo, "-I" + os.path.join(repo, "userspace"),
           os.path.join(repo, "tests", "unit", "test_sgcmd.c"),
           os.path.join(repo, "userspace", "device", "sgcmd.c"), "-lsgutils2", "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, "compiling test_sgcmd.c failed:\n" + r.stderr
    return exe


def run(exe, prop):
    r = subprocess.run([exe, prop], capture_output=True, text=True, timeout=60)
    assert "FAIL" not in r.stdout, r.stdout
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.rstrip().endswith("ok " + prop), r.stdout
    return r.stdout


def test_ata_pass_through_and_sanitize_cdbs(test_sgcmd):
    """IDENTIFY (PIO in), SET FEATURES 82h, SANITIZE BLOCK ERASE EXT with its
    key, SECURITY SET PASSWORD (PIO out), the 48-bit register split of
    ATA PASS-THROUGH(16), and SCSI SANITIZE(10) block erase with IMMED+AUSE."""
    run(test_sgcmd, "cdb")


def test_identify_words(test_sgcmd):
    """Write cache (82/85), Sanitize (59), Security (82, 128) and the erase
    time (89, both formats); words 82-87 ignored unless word 83 says valid."""
    run(test_sgcmd, "identify")


def test_ata_return_registers(test_sgcmd):
    """The registers after a CK_COND command from descriptor and fixed sense."""
    run(test_sgcmd, "return")


def test_caching_mode_page(test_sgcmd):
    """The caching page found after block descriptors and another page; WCE
    read; MODE SELECT data made with the header length and PS cleared;
    truncated data refused."""
    run(test_sgcmd, "caching")


def test_sense_decoding(test_sgcmd):
    """Fixed and descriptor sense decode to key, ASC/ASCQ and one line."""
    out = run(test_sgcmd, "sense")
    assert "Invalid command operation code" in out
