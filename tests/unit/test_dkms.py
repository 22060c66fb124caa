# SPDX-License-Identifier: GPL-2.0
"""The DKMS package: dkms.conf, `make install-dkms` (the module's sources in
/usr/src/ssdload-VERSION) and a real `dkms add` + `dkms build` (Debian's
dkms) of what it installs, against the cached Debian 6.1 kernel headers.

Nothing of the system is touched: the sources are staged with DESTDIR and
dkms gets private trees (--sourcetree, --dkmstree, --installtree) in
tmp_path and --kernelsourcedir for the headers, which need not be in
/lib/modules.  sign_file points nowhere, so dkms neither signs the module
nor makes a MOK key in /var/lib/dkms.  One build (~30 s on 2 cores) serves
every test here.
"""
import glob
import os
import re
import shutil
import subprocess

import pytest

KERNEL = "6.1"


def read(repo, path):
    with open(os.path.join(repo, path)) as f:
        return f.read()


def header_version(repo):
    m = re.search(r'(?m)^#define SSDLOAD_VERSION\s+"([^"]+)"', read(repo, "uapi/ssdload.h"))
    assert m, "no SSDLOAD_VERSION in uapi/ssdload.h"
    return m.group(1)


def dkms_conf(repo, kdir="/KDIR", names=()):
    """dkms.conf's variables as dkms sees them: the file sourced by bash,
    with dkms' kernel_source_dir set."""
    names = ("PACKAGE_NAME", "PACKAGE_VERSION", "MAKE[0]", "CLEAN", "BUILT_MODULE_NAME[0]",
             "BUILT_MODULE_LOCATION[0]", "DEST_MODULE_LOCATION[0]", "AUTOINSTALL",
             "BUILD_EXCLUSIVE_KERNEL") + tuple(names)
    script = 'kernel_source_dir="$1"; . ./dkms.conf; shift; for v; do printf "%s\\n" "${!v}"; done'
    p = subprocess.run(["bash", "-c", script, "bash", kdir] + list(names), cwd=repo,
                       capture_output=True, text=True)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    return dict(zip(names, p.stdout.split("\n")))


def make(repo, *args, cwd=None):
    return subprocess.run(["make", "-s", "-C", cwd or repo] + list(args),
                          capture_output=True, text=True, timeout=300)


def test_versions_agree(repo):
    """uapi/ssdload.h's SSDLOAD_VERSION is the release: the module's
    MODULE_VERSION, dkms.conf's PACKAGE_VERSION, the Makefile's VERSION (the
    /usr/src directory) and the CLI's --version all say it."""
    ver = header_version(repo)
    assert re.search(r"(?m)^MODULE_VERSION\(SSDLOAD_VERSION\);", read(repo, "module/main.c"))
    assert dkms_conf(repo)["PACKAGE_VERSION"] == ver
    m = re.search(r'(?m)^#define SSDLOAD_CLI_VERSION\s+"([^"]+)"', read(repo, "userspace/core/util.h"))
    assert m and m.group(1) == ver, "userspace/core/util.h's SSDLOAD_CLI_VERSION is not %s" % ver
    p = subprocess.run(["make", "-s", "-C", repo, "--eval", "print-version: ; @echo $(VERSION)",
                        "print-version"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.strip() == ver, p.stdout + p.stderr


def test_dkms_conf(repo):
    c = dkms_conf(repo, kdir="/usr/src/linux-headers-x")
    assert c["PACKAGE_NAME"] == "ssdload"
    assert c["BUILT_MODULE_NAME[0]"] == "ssdload"
    assert c["BUILT_MODULE_LOCATION[0]"] == "module/"
    assert c["DEST_MODULE_LOCATION[0]"] == "/updates/dkms"
    assert c["AUTOINSTALL"] == "yes"
    # the top-level Makefile's targets, with its KDIR variable
    assert c["MAKE[0]"].split() == ["make", "module", "KDIR=/usr/src/linux-headers-x"]
    assert c["CLEAN"].split() == ["make", "clean-module", "KDIR=/usr/src/linux-headers-x"]
    # compat.h's range, 6.1 to 7.x, matched as dkms does (bash's =~)
    for kver, ok in (("6.1.0-50-amd64", True), ("6.12.95+deb12-amd64", True),
                     ("6.9.1", True), ("7.2.13", True), ("6.0.12-amd64", False),
                     ("5.10.0-30-amd64", False), ("8.0.1", False), ("16.1.0", False)):
        p = subprocess.run(["bash", "-c", '[[ $1 =~ $2 ]]', "bash", kver,
                            c["BUILD_EXCLUSIVE_KERNEL"]])
        assert (p.returncode == 0) == ok, kver


def test_install_dkms_copies_the_module_sources_only(repo, tmp_path):
    """make install-dkms DESTDIR=...: what `make module` needs, no tests,
    no userspace; make uninstall-dkms DESTDIR=... removes it again."""
    ver = header_version(repo)
    stage = tmp_path / "stage"
    r = make(repo, "install-dkms", "DESTDIR=" + str(stage))
    assert r.returncode == 0, r.stdout + r.stderr
    src = stage / "usr" / "src" / ("ssdload-" + ver)
    got = sorted(os.path.relpath(os.path.join(d, f), str(src))
                 for d, _, fs in os.walk(str(src)) for f in fs)
    want = ["Kbuild", "Makefile", "dkms.conf", "module/Kbuild", "uapi/ssdload.h"]
    want += [os.path.relpath(f, repo) for pat in ("module/*.c", "module/*.h", "module/compat/*.h")
             for f in glob.glob(os.path.join(repo, pat)) if not f.endswith(".mod.c")]
    assert got == sorted(want)
    for f in got:
        assert read(str(src), f) == read(repo, f), f
    r = make(repo, "uninstall-dkms", "DESTDIR=" + str(stage))
    assert r.returncode == 0, r.stdout + r.stderr
    assert not src.exists()


def test_install_dkms_refuses_a_version_mismatch(repo, tmp_path):
    src = tmp_path / "src"
    for f in ("Makefile", "dkms.conf", "uapi/ssdload.h"):
        os.makedirs(str((src / f).parent), exist_ok=True)
        shutil.copy(os.path.join(repo, f), str(src / f))
    conf = read(str(src), "dkms.conf")
    (src / "dkms.conf").write_text(re.sub(r'(?m)^PACKAGE_VERSION=.*$', 'PACKAGE_VERSION="9.9.9"',
                                          conf))
    r = make(repo, "install-dkms", "DESTDIR=" + str(tmp_path / "stage"), cwd=str(src))
    assert r.returncode != 0 and "PACKAGE_VERSION (9.9.9)" in r.stderr, r.stdout + r.stderr
    assert not (tmp_path / "stage").exists()


def system_ssdload_entries(kver):
    """ssdload's entries in the system's DKMS places, to show the tests
    leave them as they were."""
    out = set()
    for pat in ("/var/lib/dkms/ssdload*", "/usr/src/ssdload*", "/lib/modules/%s/*/*/ssdload*" % kver,
                "/lib/modules/%s/*/ssdload*" % kver):
        out.update(glob.glob(pat))
    return out


class Dkms:
    """dkms with private trees under one directory."""

    def __init__(self, exe, base, srctree, kinfo):
        self.exe, self.base, self.kinfo = exe, base, kinfo
        self.dkmstree = os.path.join(base, "dkms")
        self.installtree = os.path.join(base, "modules")
        self.srctree = srctree
        os.makedirs(self.dkmstree)
        os.makedirs(os.path.join(base, "tmp"))
        # sign_file: dkms takes it from the environment unless framework.conf
        # sets it; missing, dkms does not sign (nor make /var/lib/dkms/mok.key)
        self.env = dict(os.environ, TMPDIR=os.path.join(base, "tmp"),
                        sign_file=os.path.join(base, "no-sign-file"),
                        mok_signing_key=os.path.join(base, "mok.key"),
                        mok_certificate=os.path.join(base, "mok.pub"))

    def args(self, action, *more):
        # --verbose: dkms runs each step in the foreground; otherwise a
        # progress loop's `sleep 3` holds our pipe open after every step
        return [self.exe, action, "-m", "ssdload", "-v", self.version] + list(more) + [
            "--dkmstree", self.dkmstree, "--sourcetree", self.srctree,
            "--installtree", self.installtree, "--verbose"]

    def run(self, action, *more, timeout=120):
        return subprocess.run(self.args(action, *more), cwd=self.base, capture_output=True,
                              text=True, env=self.env, timeout=timeout)


@pytest.fixture(scope="module")
def dkms(repo, tmp_path_factory):
    """make install-dkms into a stage, then dkms add + dkms build for the
    6.1 headers; the Dkms with the command line of the build."""
    exe = shutil.which("dkms", path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
    if not exe:
        pytest.skip("dkms is not installed (Debian's dkms package; scripts/deps.sh installs it)")
    p = subprocess.run([os.path.join(repo, "scripts", "fetch-kernel.sh"), KERNEL], cwd=repo,
                       capture_output=True, text=True, timeout=900)
    if p.returncode:
        pytest.skip("the %s kernel headers are not available: %s" % (KERNEL, p.stderr[-300:]))
    kinfo = dict(l.split("=", 1) for l in p.stdout.split() if "=" in l)
    base = str(tmp_path_factory.mktemp("dkms"))
    stage = os.path.join(base, "stage")
    r = make(repo, "install-dkms", "DESTDIR=" + stage)
    assert r.returncode == 0, r.stdout + r.stderr
    before = system_ssdload_entries(kinfo["KVER"])
    d = Dkms(exe, base, os.path.join(stage, "usr", "src"), kinfo)
    d.version = header_version(repo)
    r = d.run("add")
    assert r.returncode == 0, r.stdout + r.stderr
    d.build_cmd = d.args("build", "-k", kinfo["KVER"], "--kernelsourcedir", kinfo["KDIR"])
    r = subprocess.run(d.build_cmd, cwd=base, capture_output=True, text=True, env=d.env,
                       timeout=1200)
    if r.returncode:
        log = glob.glob(os.path.join(d.dkmstree, "ssdload", d.version, "build", "make.log"))
        tail = open(log[0]).read()[-3000:] if log else "(no make.log)"
        pytest.fail("%s\n%s%s\nmake.log:\n%s" % (" ".join(d.build_cmd), r.stdout, r.stderr, tail))
    yield d
    assert system_ssdload_entries(kinfo["KVER"]) == before, "dkms touched the system's trees"


def test_dkms_build(dkms):
    """The module dkms built: in its tree, for the 6.1 kernel release."""
    kver = dkms.kinfo["KVER"]
    kos = glob.glob(os.path.join(dkms.dkmstree, "ssdload", dkms.version, kver, "*", "module",
                                 "ssdload.ko*"))
    assert len(kos) == 1, sorted(glob.glob(os.path.join(dkms.dkmstree, "**"), recursive=True))
    for field, want in (("vermagic", kver), ("version", dkms.version), ("name", "ssdload")):
        m = subprocess.run(["modinfo", "-F", field, kos[0]], capture_output=True, text=True)
        assert m.returncode == 0 and m.stdout.split()[0] == want, (field, m.stdout + m.stderr)
    r = dkms.run("status")
    assert r.returncode == 0 and "ssdload/%s, %s" % (dkms.version, kver) in r.stdout and \
        "built" in r.stdout, r.stdout + r.stderr


def test_dkms_install_and_uninstall(dkms):
    """dkms install into the private install tree (where Debian's dkms puts
    modules: updates/dkms), then dkms uninstall.  depmod is left out: it
    would work on the system's /lib/modules."""
    if os.geteuid() != 0:
        pytest.skip("dkms install needs root (it refuses otherwise, even for a private tree)")
    kver = dkms.kinfo["KVER"]
    os.makedirs(os.path.join(dkms.installtree, kver), exist_ok=True)  # dkms wants the kernel
    r = dkms.run("install", "-k", kver, "--kernelsourcedir", dkms.kinfo["KDIR"], "--no-depmod")
    assert r.returncode == 0, r.stdout + r.stderr
    ko = glob.glob(os.path.join(dkms.installtree, kver, "updates", "dkms", "ssdload.ko*"))
    assert len(ko) == 1, sorted(glob.glob(os.path.join(dkms.installtree, "**"), recursive=True))
    m = subprocess.run(["modinfo", "-F", "vermagic", ko[0]], capture_output=True, text=True)
    assert m.stdout.split()[:1] == [kver], m.stdout + m.stderr
    assert "installed" in dkms.run("status").stdout
    r = dkms.run("uninstall", "-k", kver, "--no-depmod")
    assert r.returncode == 0, r.stdout + r.stderr
    assert not os.path.exists(ko[0])
    assert "built" in dkms.run("status").stdout
