# SPDX-License-Identifier: GPL-2.0
"""A real block device of the host, for `ssdload run --parse-only`.

--parse-only checks its target as a real run would: a path that does not
exist, a regular file or a URL is refused.  So the unit tests parse their
jobs for a block device this host has, found once when the tests are
collected: the largest readable entry of /sys/block (vda, nvme0n1, a bound
loop ...) with a block node under /dev.  --parse-only stat()s it and reads
its size through a read-only open; it never writes to it.

DEV is that device's path, or MISSING when the host has none; a test
module that parses for DEV marks itself with NEEDS_DEV, so that on such a
host its tests are skipped with the reason, never run against MISSING.
"""
import os
import stat

import pytest

MISSING = "/dev/ssdload-unit-no-such-device"	# a path no host has
SYS_BLOCK = "/sys/block"


def host_block_device():
    """The largest /sys/block device with a /dev block node (the first by
    name of equal ones), or None: --parse-only checks each job's span
    against the device's size, so an empty one (an unbound loop) will not do,
    and the largest fits the most spans."""
    try:
        names = sorted(os.listdir(SYS_BLOCK))
    except OSError:
        return None
    best, most = None, 0
    for n in names:
        path = "/dev/" + n
        try:
            st = os.stat(path)
            with open(os.path.join(SYS_BLOCK, n, "size")) as f:
                sectors = int(f.read())
        except (OSError, ValueError):
            continue
        if stat.S_ISBLK(st.st_mode) and os.access(path, os.R_OK) and sectors > most:
            best, most = path, sectors
    return best


HOST_DEV = host_block_device()
DEV = HOST_DEV or MISSING
NO_DEV = ("this host has no block device (no readable %s entry of a non-zero "
          "size with a /dev node): --parse-only refuses a path that is not one"
          % SYS_BLOCK)


@pytest.fixture
def block_dev():
    """The host's block device; the test is skipped (NO_DEV) without one."""
    if not HOST_DEV:
        pytest.skip(NO_DEV)
    return HOST_DEV


# `pytestmark = NEEDS_DEV` in a module that parses jobs for DEV
NEEDS_DEV = pytest.mark.usefixtures("block_dev")
