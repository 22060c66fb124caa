# SPDX-License-Identifier: GPL-2.0
"""Fixtures of the host-side unit tests (no kernel, no VM)."""
import os
import subprocess

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def cli(repo):
    """Path of a freshly built userspace/ssdload."""
    r = subprocess.run(["make", "-s", "-C", os.path.join(repo, "userspace")],
                       capture_output=True, text=True)
    assert r.returncode == 0, "building the CLI failed:\n" + r.stdout + r.stderr
    assert "warning" not in r.stderr, "the CLI build warns:\n" + r.stderr
    return os.path.join(repo, "userspace", "ssdload")
