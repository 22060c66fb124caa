# SPDX-License-Identifier: GPL-2.0
"""Hostile input to the CLI (issue 25): each case is refused with a message,
never a crash or a hang.

- A job file line with a control character (0x01 was the marker of a
  long value, and `bs=\\x015` crashed the parser) is refused at FILE:LINE;
  long values still reach the option parser whole.
- Every file the CLI reads must be a regular file: a FIFO (which blocked
  the open) and a device (/dev/zero grew until out of memory) are refused,
  as job files, includes, buffer_pattern files, --steps files, ss-check
  series and compare inputs.
- A debugfs summary, series or steps file that counts more workers or
  devices than the module allows is refused (workers=20000000 ran for a
  minute and took 4 GB).

Each command runs with a timeout; one that blocks fails the test.
"""
import os
import struct
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line
from debugfs import FakeJob, FakeRateJob, Geometry, lognormal

pytestmark = NEEDS_DEV

TIMEOUT = 20


def run_t(cli, *args, env=None):
    """run() with a timeout that fails the test rather than hang it."""
    e = dict(os.environ)
    e.setdefault("SSDLOAD_CONFIGFS", "/nonexistent/ssdload-unit/configfs")
    e.setdefault("SSDLOAD_DEBUGFS", "/nonexistent/ssdload-unit/debugfs")
    e.update(env or {})
    try:
        p = subprocess.run([cli] + list(args), stdin=subprocess.DEVNULL,
                           capture_output=True, env=e, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail("ssdload %s: still running after %d s" % (" ".join(args), TIMEOUT))
    assert p.returncode >= 0, "killed by signal %d: %r" % (-p.returncode, p.stderr)
    p.stdout = p.stdout.decode("utf-8", "replace")
    p.stderr = p.stderr.decode("utf-8", "replace")
    return p


def write(path, data):
    with open(str(path), "wb") as f:
        f.write(data)
    return str(path)


@pytest.fixture
def fifo(tmp_path):
    path = str(tmp_path / "fifo")
    os.mkfifo(path)
    return path


# --------------------------------------------------------------------------
# job files: control characters, long values

@pytest.mark.parametrize("line", [b"bs=\x015", b"bs=\x01999999", b"bs=\x01-1", b"bs=4\x01k",
                                  b"b\x01s=4k", b"bs=4k\x7f", b"bs=4k\x1b[0m",
                                  b"bs=\x01" + b"5" * 300])
def test_control_character_refused(cli, tmp_path, line):
    f = write(tmp_path / "j.fio", b"[job]\nrw=read\n" + line + b"\n")
    p = run_t(cli, "run", "--parse-only", f"--filename={DEV}", f)
    one_error_line(p, f + ":3:", "control character")


def test_nul_byte_refused(cli, tmp_path):
    f = write(tmp_path / "j.fio", b"[job]\nbs=4k\0junk\n")
    one_error_line(run_t(cli, "run", "--parse-only", f"--filename={DEV}", f),
                   f + ":2:", "0x00")


def test_control_character_from_environment_refused(cli, tmp_path):
    f = write(tmp_path / "j.fio", b"[job]\nbs=${SSL_FUZZ_BS}\n")
    p = run_t(cli, "run", "--parse-only", f"--filename={DEV}", f,
              env={"SSL_FUZZ_BS": "\x015"})
    one_error_line(p, f + ":2:", "control character")


def test_long_values_reach_the_options(cli, tmp_path):
    """Two values longer than inih's line, each where it belongs."""
    dev = os.path.dirname(DEV) + "/." * 150 + "/" + os.path.basename(DEV)	# DEV itself
    name = "n" * 250
    f = write(tmp_path / "j.fio", ("[job]\nfilename=%s\nbs=8k\nname=%s\niodepth=3\n" %
                                   (dev, name)).encode())
    p = run_t(cli, "run", "--parse-only", f)
    assert p.returncode == 0, p.stderr
    a = dict(l.split("=", 1) for l in p.stdout.splitlines())
    assert a["filename"] == dev and a["name"] == name
    assert a["bs"] == "8192" and a["iodepth"] == "3"


# --------------------------------------------------------------------------
# regular files only

def test_jobfile_fifo_refused(cli, fifo):
    one_error_line(run_t(cli, "run", "--parse-only", f"--filename={DEV}", fifo),
                   fifo, "not a regular file")


def test_include_fifo_refused(cli, tmp_path, fifo):
    f = write(tmp_path / "j.fio", b"[job]\ninclude fifo\n")
    one_error_line(run_t(cli, "run", "--parse-only", f"--filename={DEV}", f),
                   f + ":2:", "include", "fifo: not a regular file")


def test_include_device_refused(cli, tmp_path):
    f = write(tmp_path / "j.fio", b"[job]\ninclude /dev/zero\n")
    one_error_line(run_t(cli, "run", "--parse-only", f"--filename={DEV}", f),
                   f + ":2:", "/dev/zero", "not a regular file")


def test_include_directory_refused(cli, tmp_path):
    (tmp_path / "d").mkdir()
    f = write(tmp_path / "j.fio", b"[job]\ninclude d\n")
    one_error_line(run_t(cli, "run", "--parse-only", f"--filename={DEV}", f),
                   f + ":2:", "not a regular file")


def test_jobfile_too_large_refused(cli, tmp_path):
    f = write(tmp_path / "j.fio", b"[job]\n" + b"; padding\n" * 110000)
    one_error_line(run_t(cli, "run", "--parse-only", f"--filename={DEV}", f),
                   f, "too large")


def test_jobfile_long_line_refused(cli, tmp_path):
    f = write(tmp_path / "j.fio", b"[job]\n;" + b"x" * 5000 + b"\n")
    one_error_line(run_t(cli, "run", "--parse-only", f"--filename={DEV}", f),
                   f + ":2:", "4096 bytes")


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_buffer_pattern_special_file_refused(cli, fifo, special):
    path = fifo if special == "fifo" else special
    one_error_line(run_t(cli, "run", "--parse-only", f"--filename={DEV}",
                         "--buffer_pattern='%s'" % path), path, "not a regular file")


def test_buffer_pattern_regular_file_read(cli, tmp_path):
    f = write(tmp_path / "pat", b"\xde\xad")
    p = run_t(cli, "run", "--parse-only", f"--filename={DEV}",
              "--buffer_pattern='%s'" % f)
    assert p.returncode == 0, p.stderr
    assert "buffer_pattern=0xdead" in p.stdout.lower()


def test_steps_fifo_refused(cli, fifo):
    one_error_line(run_t(cli, "run", "--parse-only", f"--filename={DEV}",
                         "--steps=" + fifo), fifo, "not a regular file")


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_ss_check_special_file_refused(cli, fifo, special):
    path = fifo if special == "fifo" else special
    one_error_line(run_t(cli, "pts", "ss-check", path), path, "not a regular file")


def test_ss_check_long_line_refused(cli, tmp_path):
    f = write(tmp_path / "s.txt", b"1\n2\n" + b" " * 5000 + b"3\n")
    one_error_line(run_t(cli, "pts", "ss-check", f), f + ":3:", "4096 bytes")


def test_compare_fifo_refused(cli, tmp_path, fifo):
    other = write(tmp_path / "run.json", b'{"jobs": []}')
    p = run_t(cli, "compare", "--no-report", "--output-dir=" + str(tmp_path / "out"),
              fifo, other)
    assert p.returncode == 2, p.stderr
    assert "not a regular file" in p.stderr and fifo in p.stderr, p.stderr


# --------------------------------------------------------------------------
# debugfs: counts above the module's limits

@pytest.fixture
def job(repo, tmp_path):
    def make(extra=(), workers=(0, 3)):
        geo = Geometry(repo)
        root = str(tmp_path / "debugfs")
        j = FakeJob(geo, root, "unitjob", lognormal(1, 500, 180000, 0.6),
                    lognormal(2, 100, 25000, 1.2), workers=workers, extra=extra)
        j.env = {"SSDLOAD_DEBUGFS": root, "SSDLOAD_CONFIGFS": str(tmp_path / "none")}
        return j
    return make


def summary_with(j, key, value):
    path = os.path.join(j.dir, "summary")
    lines = [l for l in open(path).read().splitlines() if not l.startswith(key + "=")]
    with open(path, "w") as f:
        f.write("\n".join(lines + ["%s=%s" % (key, value)]) + "\n")


def uapi_const(repo, name):
    text = open(os.path.join(repo, "uapi", "ssdload.h")).read()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "#define" and parts[1] == name:
            return int(parts[2].rstrip("U"), 0)
    pytest.fail("uapi/ssdload.h has no %s" % name)


def test_summary_workers_above_the_module_limit(cli, job):
    j = job()
    summary_with(j, "workers", 20000000)
    one_error_line(run_t(cli, "show", "unitjob", env=j.env), "summary", "workers=20000000")


def test_summary_workers_at_the_module_limit(cli, repo, job):
    """The limit itself is a summary (its workers have no keys: zeros)."""
    j = job()
    summary_with(j, "workers", uapi_const(repo, "SSDLOAD_MAX_WORKERS"))
    p = run_t(cli, "show", "unitjob", "--output-format=json", env=j.env)
    assert p.returncode == 0, p.stderr


def test_summary_devices_above_the_module_limit(cli, repo, job):
    j = job()
    n = uapi_const(repo, "SSDLOAD_MAX_DEVS") + 1
    summary_with(j, "devices", n)
    one_error_line(run_t(cli, "show", "unitjob", env=j.env), "summary", "devices=%d" % n)


def test_series_workers_above_the_module_limit(cli, repo, tmp_path):
    rj = FakeRateJob(Geometry(repo), str(tmp_path / "debugfs"))
    path = os.path.join(rj.dir, "series")
    data = bytearray(open(path, "rb").read())
    # the header: magic u32, version u16, header_size u16, record_size u32,
    # nr_workers u32 (SERIES_HDR of lib/debugfs.py)
    struct.pack_into("=I", data, 12, 20000000)
    write(path, bytes(data))
    p = run_t(cli, "show", rj.name, env=rj.env)
    assert p.returncode != 0
    assert "20000000 workers" in p.stderr, p.stderr


def test_module_limits_in_uapi(repo):
    """The module takes its limits from uapi/ssdload.h, where the CLI reads them."""
    priv = open(os.path.join(repo, "module", "ssdload.h")).read()
    for name in ("SSDLOAD_MAX_DEVS", "SSDLOAD_MAX_NUMJOBS", "SSDLOAD_MAX_WORKERS"):
        assert uapi_const(repo, name) > 0
        assert "#define " + name not in priv, name
