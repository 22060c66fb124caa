# SPDX-License-Identifier: GPL-2.0
"""nvme_subsys: the scope of NVMe Sanitize on a subsystem of two controllers.

NVMe Sanitize erases the whole NVM subsystem, with the namespaces of the
other controllers.  On the stock kernel the guest has one emulated NVM
subsystem (tests/qemu/guest.py, nvme_subsys) of two controllers: namespace
1, shared by both ($SSDLOAD_NVME_SUBSYS, 16 MiB), and namespace 2,
attached to the second controller only (8 MiB), so that the first
controller sees fewer namespaces than the subsystem holds.  qemu (7.2)
implements no Sanitize (SANICAP 0) and formats a namespace by writing
zeroes over it.  Documentation/cli.rst, "Safety":

- sysfs shows the subsystem with two controllers and both namespaces
  (else: skipped, naming what it shows);
- pts purge --dry-run names the subsystem, its two controllers and both
  namespaces, says that the Format it would use erases namespace 1 only,
  and writes nothing: the write counts of every namespace and path
  (/sys/block/*/stat) do not move;
- --purge=sanitize without --force is refused with exit status 2, naming
  the subsystem, its controllers and namespaces, and nothing is written;
- --purge=sanitize --force passes the scope check and, qemu having no
  Sanitize, is refused for that (SANICAP), writing nothing; where the
  controller has a Sanitize action, it erases both namespaces;
- pts purge (auto) formats namespace 1 with user data erase, says so,
  and only it: its first and last MiB read as zeroes after, those of
  namespace 2 are unchanged.

The code under test reads Identify Controller and sysfs: the same on
every kernel, marked stock (one stock kernel, where the harness attaches
the subsystem).  Guest time: a few seconds.
"""

import ctypes
import fcntl
import hashlib
import os
import re
import struct

import pytest

import ssdload_env as env

pytestmark = pytest.mark.stock

MIB = 1 << 20
ROOT = "/sys/class/nvme-subsystem"
NVME_IOCTL_ADMIN_CMD = 0xC0484E41	# _IOWR('N', 0x41, struct nvme_admin_cmd)


def _id_ctrl(path):
    """Identify Controller (4096 bytes) of the controller behind @path."""
    buf = ctypes.create_string_buffer(4096)
    # struct nvme_admin_cmd: opcode 06h, CNS 01h in cdw10
    cmd = bytearray(struct.pack("=BBHIIIQQIIIIIIIIII", 0x06, 0, 0, 0, 0, 0, 0,
                                ctypes.addressof(buf), 0, 4096, 1, 0, 0, 0, 0, 0, 0, 0))
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd)
    finally:
        os.close(fd)
    return buf.raw


class Subsys:
    """The subsystem of namespace @dev as sysfs shows it."""

    def __init__(self, dev):
        self.name = None
        for s in sorted(os.listdir(ROOT)) if os.path.isdir(ROOT) else []:
            if os.path.exists(os.path.join(ROOT, s, dev.name)):
                self.name = s
        if self.name is None:
            pytest.skip("%s is in no subsystem of %s (no native NVMe multipath in this "
                        "kernel?)" % (dev.name, ROOT))
        d = os.path.join(ROOT, self.name)
        self.ctrls = sorted(c for c in os.listdir(d) if re.fullmatch(r"nvme\d+", c))
        self.ns = sorted(n for n in os.listdir(d) if re.fullmatch(r"nvme\d+n\d+", n))
        inst = self.name[len("nvme-subsys"):]
        # the namespaces and the (hidden) paths of each through a controller
        self.disks = sorted(b for b in os.listdir("/sys/block")
                            if re.fullmatch(r"nvme%s(c\d+)?n\d+" % inst, b))
        self.paths = {c: sorted(p for p in os.listdir(os.path.join(d, c))
                                if re.fullmatch(r"nvme%sc\d+n\d+" % inst, p))
                      for c in self.ctrls}

    def writes(self):
        """Write requests and sectors over every namespace and path."""
        ios = sectors = 0
        for b in self.disks:
            s = env.BlockDev(b).stat()
            ios += s["write_ios"]
            sectors += s["write_sectors"]
        return ios, sectors


@pytest.fixture
def subsys(ssdload, cli, nvme_subsys):  # pylint: disable=unused-argument
    """(namespace 1, namespace 2, Subsys), both namespaces filled with random
    data in their first and last MiB."""
    s = Subsys(nvme_subsys)
    if len(s.ctrls) != 2 or len(s.ns) != 2:
        pytest.skip("%s: %s shows controllers %s and namespaces %s, not the 2 and 2 "
                    "qemu was given" % (nvme_subsys.path, s.name, s.ctrls, s.ns))
    other = env.BlockDev([n for n in s.ns if n != nvme_subsys.name][0])
    for d in (nvme_subsys, other):
        d.wait_for_node()
        for off in (0, d.size_bytes() - MIB):
            env.direct_write(d.path, off, os.urandom(MIB))
    return nvme_subsys, other, s


def _sums(dev):
    """SHA-256 of the first and the last MiB of DEV, read with O_DIRECT."""
    return tuple(hashlib.sha256(env.direct_read(dev.path, off, MIB)).hexdigest()
                 for off in (0, dev.size_bytes() - MIB))


def _purge(dev, *args):
    return env.cli("pts", "purge", "--filename=" + dev.path, "--allow_write", *args,
                   timeout=300)


def _scope_re(s):
    """The subsystem, its 2 controllers and its namespaces (group 'ns'), as the
    CLI names them."""
    return r"subsystem %s:? \(?2 controllers, namespaces (?P<ns>nvme\d+n\d+(, nvme\d+n\d+)*)" \
        % s.name


def _names_all(m, s):
    """The namespaces named by the match @m of _scope_re are those of @s."""
    assert sorted(m.group("ns").split(", ")) == s.ns, (m.group(0), s.ns)


def test_subsystem_of_two_controllers(subsys):
    ns1, ns2, s = subsys
    # namespace 1 through both controllers, namespace 2 through one
    assert sorted(len(p) for p in s.paths.values()) == [1, 2], s.paths
    idc = _id_ctrl(ns1.path)
    assert idc[76] & 0x2, "CMIC: not a multi-controller subsystem"
    assert env.read_attr("%s/%s/serial" % (ROOT, s.name)).strip() == "ssdload-subsys"
    # the writes of the fixture are counted: the "nothing written" checks can fail
    before = s.writes()
    env.direct_write(ns2.path, 0, os.urandom(MIB))
    assert s.writes()[1] - before[1] >= MIB // 512, (before, s.writes())


def test_dry_run_names_the_subsystem(subsys):
    ns1, ns2, s = subsys
    sums = _sums(ns1), _sums(ns2)
    before = s.writes()
    p = _purge(ns1, "--dry-run")
    assert p.returncode == 0, (p.stdout, p.stderr)
    plan = re.search(r"dry run: %s: purge \(auto\): (.*)" % re.escape(ns1.path), p.stderr)
    assert plan, p.stderr
    # qemu has no Sanitize: Format, of namespace 1 only, and what it leaves
    m = re.search(r"^Format NVM with user data erase .*; scope: namespace 1 \(%s\) only, "
                  r"not the rest of %s\)$" % (ns1.name, _scope_re(s)), plan.group(1))
    assert m, plan.group(1)
    _names_all(m, s)
    assert "nothing was written" in p.stderr
    assert s.writes() == before
    assert (_sums(ns1), _sums(ns2)) == sums


def test_sanitize_refused_without_force(subsys):
    ns1, ns2, s = subsys
    sums = _sums(ns1), _sums(ns2)
    before = s.writes()
    for dry in ([], ["--dry-run"]):
        p = _purge(ns1, "--purge=sanitize", *dry)
        assert p.returncode == 2, (dry, p.stdout, p.stderr)
        m = re.search(r"ssdload: %s: cannot sanitize: Sanitize erases the whole %s, "
                      r"--force to erase them all" % (re.escape(ns1.path), _scope_re(s)),
                      p.stderr)
        assert m, p.stderr
        _names_all(m, s)
        assert "method:" not in p.stdout
    assert s.writes() == before
    assert (_sums(ns1), _sums(ns2)) == sums


def test_sanitize_forced(subsys):
    ns1, ns2, s = subsys
    sums = _sums(ns1), _sums(ns2)
    before = s.writes()
    sanicap = struct.unpack_from("<I", _id_ctrl(ns1.path), 328)[0]
    p = _purge(ns1, "--purge=sanitize", "--force")
    # --force lets the scope through: no refusal naming the subsystem
    assert "--force to erase them all" not in p.stderr, p.stderr
    if not sanicap & 0x7:
        # qemu: no sanitize action; refused for that, nothing written
        assert p.returncode == 2, (p.stdout, p.stderr)
        assert re.search(r"ssdload: %s: cannot sanitize: the controller supports no "
                         r"sanitize action \(SANICAP\)" % re.escape(ns1.path),
                         p.stderr), p.stderr
        assert s.writes() == before
        assert (_sums(ns1), _sums(ns2)) == sums
        return
    # a Sanitize erases the whole subsystem: both namespaces
    assert p.returncode == 0, (p.stdout, p.stderr)
    assert "method: sanitize" in p.stdout, p.stdout
    after = _sums(ns1), _sums(ns2)
    assert after[0][0] != sums[0][0] and after[1][0] != sums[1][0], (sums, after)


def test_auto_formats_the_namespace_only(subsys):
    ns1, ns2, s = subsys  # pylint: disable=unused-variable
    other = _sums(ns2)
    p = _purge(ns1)
    assert p.returncode == 0, (p.stdout, p.stderr)
    assert "method: format" in p.stdout, p.stdout
    assert re.search(r"detail: Format NVM, SES=1 \(user data erase\), LBAF \d+, nsid 1",
                     p.stdout), p.stdout
    # qemu's Format writes zeroes over the namespace; the other one is kept
    for off in (0, ns1.size_bytes() - MIB):
        assert env.direct_read(ns1.path, off, MIB) == bytes(MIB), off
    assert _sums(ns2) == other
