# SPDX-License-Identifier: GPL-2.0
"""Fixtures of the host-side unit tests (no kernel, no VM).

The helpers the test modules share live in tests/unit/lib/, put on
sys.path here as tests/e2e/conftest.py does for tests/e2e/lib/: a test
module imports them from there, never from another test module.
"""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))

from blockdev import block_dev  # noqa: E402,F401 (a fixture)
from build import make_userspace  # noqa: E402
from debugfs import FakeJob, Geometry, lognormal  # noqa: E402
from fakemodule import FAKE_CONFIGFS_SHIM, FakeRun  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def cli(repo):
    """Path of a freshly built userspace/ssdload."""
    r = make_userspace(top=repo)
    assert r.returncode == 0, "building the CLI failed:\n" + r.stdout + r.stderr
    assert "warning" not in r.stderr, "the CLI build warns:\n" + r.stderr
    return os.path.join(repo, "userspace", "ssdload")


# --------------------------------------------------------------------------
# the CLI against fake trees: debugfs jobs (lib/debugfs.py) and a fake
# module behind an LD_PRELOAD configfs shim (lib/fakemodule.py)

@pytest.fixture(scope="module")
def geo(repo):
    """The histogram geometry of uapi/ssdload.h."""
    return Geometry(repo)


@pytest.fixture(scope="module")
def samples():
    """(reads, writes): 200,000 latencies around 180 us, 60,000 around 25 us."""
    return lognormal(1, 200_000, 180_000, 0.6), lognormal(2, 60_000, 25_000, 1.2)


@pytest.fixture
def fake(geo, samples, tmp_path):
    """A debugfs job of @samples; its .env points the CLI at it."""
    root = tmp_path / "debugfs"
    job = FakeJob(geo, str(root), "unitjob", *samples)
    job.env = {"SSDLOAD_DEBUGFS": str(root),
               "SSDLOAD_CONFIGFS": str(tmp_path / "no-configfs")}
    return job


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    """FAKE_CONFIGFS_SHIM compiled: the path of the LD_PRELOAD library."""
    d = tmp_path_factory.mktemp("shim")
    (d / "shim.c").write_text(FAKE_CONFIGFS_SHIM)
    so = str(d / "fakecfs.so")
    r = subprocess.run([os.environ.get("CC", "cc"), "-Wall", "-Wextra", "-Werror", "-O2",
                        "-shared", "-fPIC", "-o", so, str(d / "shim.c"), "-ldl"],
                       capture_output=True, text=True)
    assert r.returncode == 0, "compiling the configfs shim failed:\n" + r.stderr
    return so


@pytest.fixture
def fakerun(cli, shim, geo, tmp_path):
    """make(**kw): a FakeRun in tmp_path; its child and module end with the test."""
    runs = []

    def make(**kw):
        r = FakeRun(cli, shim, geo, tmp_path, **kw)
        runs.append(r)
        return r
    yield make
    for r in runs:
        r.module.quit.set()
        if r.proc and r.proc.poll() is None:
            r.proc.kill()
            r.proc.wait()
