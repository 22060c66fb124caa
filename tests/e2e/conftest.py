# SPDX-License-Identifier: GPL-2.0
"""pytest fixtures for the ssdload e2e suite (runs inside the qemu guest as root).

blktests rules carried over:
  * a marker goes to /dev/kmsg before every test; an oops, warning, lockdep
    splat, hung task or kmemleak report after it fails that test;
  * every test leaves the machine as it found it (no jobs, no debugfs
    leftovers, no null_blk/brd, ssdload.ko loaded or not as at the start);
  * a missing prerequisite is a visible skip, never a pass.
"""

import os
import shutil
import sys
import time
import uuid

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))

import ssdload_env as env  # noqa: E402  pylint: disable=wrong-import-position
import blktrace  # noqa: E402  pylint: disable=wrong-import-position

_SESSION = {}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes more than ~5 s under TCG")
    config.addinivalue_line("markers", "quick: a few seconds at most")
    config.addinivalue_line(
        "markers", "timing: asserts wall-clock precision (send times, gaps, "
        "Little's law); run again once if it fails (pytest-rerunfailures)")
    config.addinivalue_line(
        "markers", "stock: checks the statistics of a workload, the CLI's output or "
        "its pre-flight, the same code on every kernel: runs on one stock kernel "
        "($SSDLOAD_STOCK_KERNELS, default 6.1)")
    _SESSION["xmlpath"] = config.getoption("xmlpath", None)


# A timing test measures the guest's clock against its schedule.  Under TCG a
# host that deschedules a vCPU for a few ms moves such a figure past its bound
# (CI lost two landings to single misses: a Poisson CV of 1.302 against 1.3, a
# gap of 2.03 ms against 2).  Such a test gets one more try; a real bug fails
# both.  Every rerun is listed in reruns.txt next to the junit file, and the
# host bridge shows that list as the skip e2e[LABEL]::reruns, so a test that
# only passes on its second try is never silent.
TIMING_RERUNS = 1


# A "stock" test checks the statistics of a workload (distributions, mixes,
# data compressibility, offsets' coverage), the CLI's output formats or its
# agreement with the module's rules: the same module and CLI code on every
# kernel.  The debug kernel's KASAN, lockdep and kmemleak add nothing to it
# (KUnit and the other files run the same code under them there), and a
# second stock kernel adds nothing either: the compat layer's differences
# are in opening, submitting and completing, which every other file runs on
# every kernel.  So it runs on one stock kernel, $SSDLOAD_STOCK_KERNELS
# (default 6.1), and is a skip that says so elsewhere.
STOCK_KERNELS = env.STOCK_KERNELS
STOCK_SKIP = ("statistics, CLI output and pre-flight are checked on kernel %s only "
              "(SSDLOAD_STOCK_KERNELS): the same code on every kernel; this is %s")


def pytest_collection_modifyitems(config, items):
    label = env.kernel_label()
    if label not in STOCK_KERNELS:
        why = STOCK_SKIP % (" ".join(STOCK_KERNELS), label)
        for item in items:
            if item.get_closest_marker("stock"):
                item.add_marker(pytest.mark.skip(reason=why))
    if not config.pluginmanager.hasplugin("rerunfailures"):
        if any(i.get_closest_marker("timing") for i in items):
            sys.stderr.write("e2e: pytest-rerunfailures is missing: timing "
                             "tests run once (scripts/deps.sh installs it)\n")
        return
    for item in items:
        if item.get_closest_marker("timing") and not item.get_closest_marker("flaky"):
            item.add_marker(pytest.mark.flaky(reruns=TIMING_RERUNS))


def pytest_runtest_logreport(report):
    if report.outcome != "rerun":
        return
    xml = _SESSION.get("xmlpath")
    if not xml:
        return
    msg = ""
    if report.longrepr is not None:
        crash = getattr(report.longrepr, "reprcrash", None)
        msg = crash.message if crash else str(report.longrepr).splitlines()[-1]
    with open(os.path.join(os.path.dirname(xml), "reruns.txt"), "a") as f:
        f.write("%s: %s\n" % (report.nodeid, " ".join(msg.split())[:300]))


def _require_root():
    if os.geteuid() != 0:
        pytest.skip("e2e tests run as root inside the guest (euid %d)" % os.geteuid())
    if not os.path.isdir("/sys/kernel/config"):
        pytest.skip("configfs is not mounted at /sys/kernel/config")


# --------------------------------------------------------------------------
# session: remember what was loaded, restore it at the end

@pytest.fixture(scope="session", autouse=True)
def _session_state():
    mods = env.proc_modules()
    _SESSION["ssdload"] = "ssdload" in mods
    _SESSION["preloaded"] = {m for m in ("null_blk", "brd") if m in mods}
    # block trace events are on from boot (blktrace.BOOT_EVENTS): record nothing
    # until a test asks for it
    trace = blktrace.session_quiesce() if os.geteuid() == 0 else None
    yield
    if os.geteuid() != 0:
        return
    blktrace.session_restore(trace)
    env.cleanup_jobs()
    if env.null_blk_pooled() and "null_blk" not in _SESSION["preloaded"]:
        env.null_blk_unload()
    loaded = env.ssdload_loaded()
    if loaded and not _SESSION["ssdload"]:
        env.rmmod("ssdload", check=False)
    elif not loaded and _SESSION["ssdload"] and env.ssdload_ko()[0]:
        env.insmod_ssdload()


# --------------------------------------------------------------------------
# per test: dmesg marker and clean-state checks

@pytest.fixture(autouse=True)
def kmsg(request):
    """The /dev/kmsg reader for this test; fails the test on a kernel splat."""
    if os.geteuid() != 0 or not os.path.exists("/dev/kmsg"):
        yield None
        return
    k = env.Kmsg("test %s %s" % (request.node.nodeid, uuid.uuid4().hex[:8]))
    env.LEAKED_JOBS.clear()
    yield k
    problems = []
    # anything the test's own fixtures did not clean up is a leak
    leaked = env.cleanup_jobs()
    if leaked or env.LEAKED_JOBS:
        problems.append("jobs left behind: %s" % sorted(set(leaked) | set(env.LEAKED_JOBS)))
    if env.ssdload_loaded():
        left = env.list_debugfs_jobs()
        if left:
            problems.append("debugfs entries left after every job was removed: %s" % left)
    for mod in ("null_blk", "brd"):
        if mod == "null_blk" and env.null_blk_pooled():
            continue    # kept for the next test (env.null_blk_release)
        if mod in env.proc_modules() and mod not in _SESSION["preloaded"]:
            problems.append("%s left loaded" % mod)
            try:
                if mod == "null_blk":
                    env.null_blk_unload()
                else:
                    env.rmmod(mod)
            except Exception as e:  # pylint: disable=broad-except
                problems.append("cannot unload %s: %s" % (mod, e))
    bad = k.bad_lines()
    k.close()
    if bad:
        problems.append("kernel log after the marker has:\n  " + "\n  ".join(bad[:40]))
    if problems:
        pytest.fail("; ".join(problems), pytrace=False)


# --------------------------------------------------------------------------
# the module under test

class Ssdload:
    """Handle on ssdload.ko: load/unload, and the configfs root."""

    ko = None

    def loaded(self):
        return env.ssdload_loaded()

    def insmod(self, *params):
        env.insmod_ssdload(*params)

    def rmmod(self, check=True):
        return env.rmmod("ssdload", check=check)

    def reload(self, *params):
        env.cleanup_jobs()
        if self.loaded():
            self.rmmod()
        self.insmod(*params)


@pytest.fixture
def ssdload():
    """ssdload.ko loaded (insmod $SSDLOAD_KO if needed); loaded again afterwards
    if the test unloaded it, so every test finds the same state."""
    _require_root()
    ko, why = env.ssdload_ko()
    if not env.ssdload_loaded():
        if ko is None:
            pytest.skip(why)
        env.insmod_ssdload()
    m = Ssdload()
    m.ko = ko
    yield m
    env.cleanup_jobs()
    if not env.ssdload_loaded() and ko:
        env.insmod_ssdload()


class JobFactory:
    def __init__(self, request):
        self.n = 0
        self.prefix = "e2e%d" % (abs(hash(request.node.nodeid)) % 10000)
        self.made = []

    def name(self, tag=""):
        self.n += 1
        return "%s-%d%s" % (self.prefix, self.n, ("-" + tag) if tag else "")

    def __call__(self, tag="", **attrs):
        name = self.name(tag)
        env.KNOWN_JOBS.add(name)
        j = env.Job(name, **attrs)
        self.made.append(j)
        return j

    def cleanup(self):
        for j in self.made:
            if j.exists():
                try:
                    if j.get("enable") == "1" or j.state == "running":
                        j.stop()
                except OSError:
                    pass
                j.remove()


@pytest.fixture
def jobs(ssdload, request):  # pylint: disable=redefined-outer-name,unused-argument
    """Factory: jobs(tag, **attrs) -> env.Job; every job is stopped and removed after."""
    f = JobFactory(request)
    yield f
    f.cleanup()


# --------------------------------------------------------------------------
# devices (blktests-style _configure_null_blk / brd helpers)

def _need_module(name):
    _require_root()
    if not env.have_module(name):
        pytest.skip("%s module not available for kernel %s" % (name, env.kernel_label()))


@pytest.fixture
def null_blk():
    """Factory: null_blk(**module_params) -> [BlockDev]; null_blk is unloaded
    after, or kept for the next test if it is clean (env.null_blk_release).

    Defaults: nr_devices=1 queue_mode=2 irqmode=0 gb=1 memory_backed=0 bs=512,
    and nomerges=2 on every device so block-layer ios are exact."""
    _need_module("null_blk")
    used = []

    def make(**params):
        used.append(True)
        return env.null_blk_load(**params)
    yield make
    env.cleanup_jobs()
    env.null_blk_release()


@pytest.fixture
def poll_null_blk(null_blk):  # pylint: disable=redefined-outer-name
    """Factory: poll_null_blk(**module_params) -> a null_blk with poll queues
    (io_poll=1), skipped where null_blk has none.  Defaults poll_queues=1
    submit_queues=2 hw_queue_depth=256."""
    def make(**params):
        p = dict(poll_queues=1, submit_queues=2, hw_queue_depth=256)
        p.update(params)
        try:
            dev = null_blk(**p)[0]
        except (AssertionError, OSError) as e:
            pytest.skip("null_blk has no poll_queues on this kernel: %s" % e)
        io_poll = env.read_attr(dev.sys + "/queue/io_poll")
        if io_poll != "1":
            pytest.skip("null_blk poll_queues=%s gives io_poll=%s"
                        % (p["poll_queues"], io_poll))
        return dev
    return make


@pytest.fixture
def nullb(null_blk):  # pylint: disable=redefined-outer-name
    """One 1 GiB null_blk (irqmode=0, no memory) with merges off."""
    return null_blk()[0]


@pytest.fixture
def nullb_cfg():
    """Factory: nullb_cfg(name, size=MiB, blocksize=, irqmode=, completion_nsec=, ...)
    -> env.NullbCfg created through null_blk's configfs (can be powered off)."""
    _need_module("null_blk")
    made = []

    def make(name, **attrs):
        env.null_blk_ensure_configfs()
        a = dict(size=1024, blocksize=512, irqmode=0, memory_backed=0)
        a.update(attrs)
        d = env.NullbCfg(name, **a)
        made.append(d)
        return d
    yield make
    env.cleanup_jobs()
    for d in made:
        d.remove()
    env.null_blk_unload()


@pytest.fixture
def brd():
    """Factory: brd(size_kib, nr=1) -> [BlockDev]; brd is unloaded after."""
    _need_module("brd")

    def make(size_kib, nr=1):
        return env.brd_load(size_kib, nr)
    yield make
    env.cleanup_jobs()
    env.rmmod("brd")


@pytest.fixture
def mounted_brd(brd):  # pylint: disable=redefined-outer-name
    """A 64 MiB brd with ext4 mounted on it (.mnt); unmounted after."""
    if not shutil.which("mkfs.ext4"):
        pytest.skip("mkfs.ext4 is not installed in the guest")
    loaded_ext4 = False
    if "ext4" not in env.read("/proc/filesystems"):
        if not env.have_module("ext4"):
            pytest.skip("ext4 is not available for kernel %s" % env.kernel_label())
        env.modprobe("ext4")
        loaded_ext4 = True
    d = brd(64 * 1024)[0]
    env.run(["mkfs.ext4", "-q", "-F", d.path])
    mnt = os.path.join(os.environ.get("TMPDIR", "/mnt"), "e2e-mnt")
    os.makedirs(mnt, exist_ok=True)
    p = env.run(["mount", "-t", "ext4", d.path, mnt], check=False)
    if p.returncode != 0:
        pytest.skip("cannot mount ext4 in this guest: %s" % p.stderr.strip())
    d.mnt = mnt
    try:
        yield d
    finally:
        env.run(["umount", mnt], check=False)
        os.rmdir(mnt)
        if loaded_ext4:
            env.run(["modprobe", "-r", "ext4"], check=False)


@pytest.fixture
def cli():
    """The ssdload CLI ($SSDLOAD_CLI)."""
    p, why = env.cli_path()
    if p is None:
        pytest.skip(why)
    return p


@pytest.fixture
def fio():
    p = shutil.which("fio")
    if not p:
        pytest.skip("fio is not installed in the guest")
    if not os.path.exists("/proc/sysvipc"):
        # fio keeps its job state in a SysV shm segment (shmget)
        pytest.skip("fio needs SysV IPC: this kernel has no CONFIG_SYSVIPC")
    return p


def _nvme_dev(var):
    dev = os.environ.get(var)
    if not dev:
        pytest.skip("%s is not set (no emulated NVMe attached)" % var)
    name = os.path.basename(dev)
    d = env.BlockDev(name)
    deadline = time.monotonic() + 10
    while not d.exists():
        if time.monotonic() > deadline:
            pytest.fail("%s=%s but /sys/block/%s does not exist" % (var, dev, name))
        time.sleep(0.1)
    d.wait_for_node()
    d.no_merges()
    return d


@pytest.fixture
def nvme():
    """qemu's emulated NVMe (1 GiB, serial ssdload0): $SSDLOAD_NVME."""
    return _nvme_dev("SSDLOAD_NVME")


@pytest.fixture
def pts_nvme():
    """The second emulated NVMe (256 MiB, serial ssdload-pts) for the PTS
    tests, which purge and fill it: $SSDLOAD_NVME_PTS."""
    return _nvme_dev("SSDLOAD_NVME_PTS")


@pytest.fixture
def nvme_subsys():
    """Namespace 1 of the emulated two-controller NVM subsystem (16 MiB,
    serial ssdload-subsys; stock kernels only): $SSDLOAD_NVME_SUBSYS."""
    return _nvme_dev("SSDLOAD_NVME_SUBSYS")
