# SPDX-License-Identifier: GPL-2.0
"""make in userspace/, one at a time across the processes of a test run.

`make check` runs tests/unit on two pytest-xdist workers: two makes in the
same tree at once could both rebuild an object and link a torn binary.
Every test that builds the CLI (or its san/man targets) goes through
make_userspace(), which holds an exclusive flock on userspace/Makefile
while make runs; the Makefile itself is only read, so no lock file is left
in the tree.
"""
import fcntl
import os
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
USERSPACE = os.path.join(TOP, "userspace")


def make_userspace(*targets, top=TOP):
    """`make -s -C TOP/userspace TARGETS...` under the lock; the
    CompletedProcess (text, stdout and stderr captured)."""
    with open(os.path.join(top, "userspace", "Makefile"), "rb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return subprocess.run(["make", "-s", "-C", os.path.join(top, "userspace")] +
                                  list(targets), capture_output=True, text=True,
                                  check=False)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
