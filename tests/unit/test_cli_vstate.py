# SPDX-License-Identifier: GPL-2.0
"""verify_only and fio's verify state options of ssdload run (verify.rst,
"verify_only and the state file"): the options' combinations, fio's file
name (local-<job>-0-verify.state beside --output), and a state file that is
truncated, corrupted or inconsistent is refused by the CLI before the
module sees it (nothing ran: no configfs job was made).

The state is built here from verify.rst's byte layout, independently of
the C code: header, device records, map, CRC-32C."""
import os
import struct

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run

pytestmark = NEEDS_DEV


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    return c ^ 0xFFFFFFFF


def state(blocks=64, bs=4096, devs=1, ctype=1, gens=2, blocks_field=None, magic=0x54535353,
          version=1):
    """A state file of @devs devices of @blocks blocks each, every block at
    generation @gens."""
    hdr = struct.pack("<IHHHHBBHIIQQQQQ", magic, version, 64, 64, devs, ctype, 8, 0, bs,
                      bs, 1234, blocks * devs, blocks * devs, 0, 0)
    recs = b"".join(struct.pack("<QQQQ32s", blocks * bs * 2, 0, blocks * bs,
                                blocks if blocks_field is None else blocks_field,
                                b"nullb%d" % i) for i in range(devs))
    body = hdr + recs + bytes([gens]) * (blocks * devs)
    return body + struct.pack("<I", crc32c(body))


def test_crc32c_check_value():
    """The CRC here is CRC-32C: its published check value."""
    assert crc32c(b"123456789") == 0xE3069283


def _run(cli, tmp_path, *args):
    cfs = tmp_path / "configfs"
    cfs.mkdir(exist_ok=True)
    p = run(cli, "run", "--name=vs", "--filename=" + DEV, "--rw=read", *args,
            env={"SSDLOAD_CONFIGFS": str(cfs)}, cwd=str(tmp_path))
    assert not list(cfs.iterdir()), "the CLI wrote to configfs: %s" % list(cfs.iterdir())
    return p


def _write(tmp_path, name, blob):
    p = tmp_path / name
    p.write_bytes(blob)
    return str(p)


GOOD = state()


@pytest.mark.parametrize("case,blob,words", [
    ("empty", b"", ["truncated: 0 bytes"]),
    ("header only", GOOD[:64], ["truncated", "64 bytes"]),
    ("one byte short", GOOD[:-1], ["truncated", "%d bytes" % (len(GOOD) - 1)]),
    ("one byte more", GOOD + b"\0", ["a wrong length"]),
    ("map byte flipped", GOOD[:150] + bytes([GOOD[150] ^ 1]) + GOOD[151:],
     ["corrupted: crc32c"]),
    ("crc flipped", GOOD[:-1] + bytes([GOOD[-1] ^ 0x80]), ["corrupted: crc32c"]),
    ("magic", state(magic=0x12345678), ["not a state file"]),
    ("version", state(version=2), ["version 2"]),
    ("blocks", state(blocks_field=63), ["inconsistent"]),
    ("checksum type", state(ctype=0), ["unknown checksum type 0"]),
    ("text", b"crc32c\n" * 20, ["not a state file"]),
])
def test_bad_state_refused_before_the_module(cli, tmp_path, case, blob, words):
    """Each bad file: one error naming the file and the reason, exit 1,
    nothing written to configfs."""
    path = _write(tmp_path, "s.state", blob)
    p = _run(cli, tmp_path, "--verify_only", "--verify_state=" + path)
    one_error_line(p, "verify_state_load: " + path, "nothing ran", *words)


def test_good_state_passes_the_check(cli, tmp_path):
    """A valid state passes the CLI's check: what stops the run is the
    missing module, not the state."""
    assert len(GOOD) == 64 + 64 + 64 + 4
    path = _write(tmp_path, "s.state", GOOD)
    p = _run(cli, tmp_path, "--verify_only", "--verify_state=" + path)
    assert p.returncode != 0
    assert "verify_state" not in p.stderr, p.stderr
    two = _write(tmp_path, "two.state", state(devs=2, blocks=8, bs=8192))
    p = _run(cli, tmp_path, "--verify_only=1", "--verify_state=" + two)
    assert "verify_state" not in p.stderr, p.stderr


def test_fio_file_name(cli, tmp_path):
    """--verify_state_load reads fio's local-<job>-0-verify.state from the
    directory of --output, else the current one."""
    p = _run(cli, tmp_path, "--verify_only", "--verify_state_load")
    one_error_line(p, "verify_state_load: local-vs-0-verify.state:", "No such file")
    out = tmp_path / "res"
    out.mkdir()
    p = _run(cli, tmp_path, "--verify_only", "--verify_state_load=1",
             "--output=%s/out.json" % out)
    one_error_line(p, "verify_state_load: %s/local-vs-0-verify.state:" % out)
    _write(out, "local-vs-0-verify.state", GOOD[:100])
    p = _run(cli, tmp_path, "--verify_only", "--verify_state_load",
             "--output=%s/out.json" % out)
    one_error_line(p, "%s/local-vs-0-verify.state: truncated" % out)


@pytest.mark.parametrize("args,words", [
    (["--verify_only"], ["--verify_only", "--verify_state_load"]),
    (["--verify_state_load"], ["--verify_state_load", "add --verify_only"]),
    (["--verify_only=2", "--verify_state_load"], ["--verify_only=2", "0 or 1"]),
    (["--verify_only", "--verify_state="], ["--verify_state=", "needs a file name"]),
])
def test_option_combinations_refused(cli, tmp_path, args, words):
    """verify_only needs a state to load, a load needs verify_only."""
    p = _run(cli, tmp_path, *args)
    one_error_line(p, *words)


def test_verify_only_zero_needs_nothing(cli, tmp_path):
    """--verify_only=0 and --verify_state_load=0 ask for nothing: the run
    goes on to the (missing) module."""
    p = _run(cli, tmp_path, "--verify_only=0", "--verify_state_load=0")
    assert "verify" not in p.stderr, p.stderr
    assert not os.path.exists(tmp_path / "local-vs-0-verify.state")


def test_preflight_takes_verify_only(cli, tmp_path):
    """--parse-only: a verify_only job may read (it issues nothing), and
    writes verify_only=1; without --verify it is refused as enable would."""
    path = _write(tmp_path, "s.state", GOOD)
    p = _run(cli, tmp_path, "--parse-only", "--verify=crc32c", "--verify_only",
             "--verify_state=" + path)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "verify_only=1" in lines and "verify=crc32c" in lines, lines
    p = _run(cli, tmp_path, "--parse-only", "--verify_only", "--verify_state=" + path)
    one_error_line(p, "verify_only", "needs verify=")
    p = _run(cli, tmp_path, "--parse-only", "--verify=crc32c")
    one_error_line(p, "does not write", "--verify_only")


def test_save_needs_a_verify_run(cli, tmp_path):
    """A state is saved from a write run with --verify: asking for it
    without --verify is refused."""
    p = _run(cli, tmp_path, "--rw=write", "--verify_state_save")
    one_error_line(p, "--verify_state_save", "with --verify")
    p = _run(cli, tmp_path, "--rw=write", "--verify_state=" + str(tmp_path / "x"))
    one_error_line(p, "--verify_state=", "with --verify")
