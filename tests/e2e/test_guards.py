# SPDX-License-Identifier: GPL-2.0
"""guards: the destructive commands look at the device before they write.

`pts purge`, every `pts TEST` and `scale --raid` print the identity of
each device (path, model, serial, capacity, device number) and what
libblkid finds on it, and refuse a device that holds a signature unless
--force (Documentation/cli.rst, "Safety"):

- an ext4 filesystem (not mounted), a GPT partition table, an LVM
  physical volume and an md superblock are each refused with exit status
  2, on qemu's emulated NVMe and on brd, and the device is unchanged: the
  SHA-256 of its first and last MiB, read back with O_DIRECT, is the same;
- --force purges such a device (the signature is gone after);
- --dry-run prints the identity, the purge method and its scope and writes
  nothing: the device's write counts (/sys/block/DEV/stat) do not move;
- scale --raid over a drive with a filesystem builds no array
  (/proc/mdstat unchanged), and --dry-run lists the arrays it would build;
- pts --resume against another device is refused, naming both.

Every device is wiped after its test (wipefs -a, mdadm --zero-superblock,
pvremove), so that the other files find them blank.  CLI behaviour, the
same on every kernel: marked stock (one stock kernel, conftest.py).
"""

import hashlib
import json
import os
import re
import shutil

import pytest

import ssdload_env as env

pytestmark = pytest.mark.stock

MIB = 1 << 20
MD = "/dev/md120"
# brd's major is "ramdisk" in /proc/devices, which LVM does not accept by default
LVM_CONF = 'devices { types = [ "ramdisk", 16 ] }'
SCALE_VARS = ["SSDLOAD_NVME_SCALE%d" % i for i in range(2)]


def _tool(name):
    p = shutil.which(name)
    if not p:
        pytest.skip("%s is not installed" % name)
    return p


def _sums(dev):
    """SHA-256 of the first and the last MiB of DEV, read with O_DIRECT."""
    size = dev.size_bytes()
    return (hashlib.sha256(env.direct_read(dev.path, 0, MIB)).hexdigest(),
            hashlib.sha256(env.direct_read(dev.path, size - MIB, MIB)).hexdigest())


def _blank(dev):
    """No signature left on DEV, whatever a test put there."""
    if os.path.exists(MD):
        env.run(["mdadm", "--stop", MD], check=False)
    if shutil.which("mdadm"):
        env.run(["mdadm", "--zero-superblock", dev.path], check=False)
    if shutil.which("pvremove"):
        env.run(["pvremove", "-q", "-ff", "-y", "--config", LVM_CONF, dev.path],
                check=False)
    env.run(["wipefs", "-a", "-q", dev.path], check=False)


def _mk_ext4(dev):
    _tool("mkfs.ext4")
    env.run(["mkfs.ext4", "-q", "-F", "-L", "backup", dev.path])
    return r'an ext4 filesystem \(label "backup"\)'


def _mk_gpt(dev):
    sfdisk = _tool("sfdisk")
    # sfdisk may fail to have the kernel re-read a brd's table: the table is written
    p = env.run([sfdisk, "-q", "--no-reread", dev.path], input="label: gpt\n", check=False)
    assert p.returncode in (0, 1), p.stderr
    return "a gpt partition table"


def _mk_lvm(dev):
    _tool("pvcreate")
    p = env.run(["pvcreate", "-q", "-ff", "-y", "--config", LVM_CONF, dev.path], check=False)
    if p.returncode:
        pytest.skip("pvcreate failed in this guest: %s" % p.stderr.strip())
    return r"an LVM physical volume \(LVM2_member\)"


def _mk_md(dev):
    _tool("mdadm")
    r = env.run(["modprobe", "raid1"], check=False)
    if r.returncode:
        pytest.skip("modprobe raid1 failed: %s" % r.stderr.strip())
    p = env.run(["mdadm", "--create", MD, "--run", "--quiet", "--metadata=1.2",
                 "--level=1", "--raid-devices=2", dev.path, "missing"], check=False)
    assert p.returncode == 0, p.stderr
    env.run(["mdadm", "--stop", MD])
    return r"an md RAID superblock \(linux_raid_member\)"


MAKERS = {"ext4": _mk_ext4, "gpt": _mk_gpt, "lvm": _mk_lvm, "md": _mk_md}


@pytest.fixture(params=["nvme", "brd"])
def blank(request):
    """A blank device: the emulated PTS NVMe, or a 64 MiB brd; wiped after."""
    if request.param == "nvme":
        dev = request.getfixturevalue("pts_nvme")
    else:
        dev = request.getfixturevalue("brd")(64 * 1024)[0]
    _blank(dev)
    yield dev
    _blank(dev)


def _purge(dev, *args):
    return env.cli("pts", "purge", "--filename=" + dev.path, "--allow_write", *args,
                   timeout=600)


@pytest.mark.parametrize("sig", sorted(MAKERS))
def test_signature_refused_device_unchanged(ssdload, cli, blank, sig):  # pylint: disable=unused-argument
    what = MAKERS[sig](blank)
    sums = _sums(blank)
    before = blank.stat()
    p = _purge(blank)
    assert p.returncode == 2, (p.stdout, p.stderr)
    # the identity line first, then the refusal naming device and signature
    assert re.search(r"ssdload: refusing to destroy %s: .*serial .*\(%d bytes\).*holds: .*%s"
                     % (re.escape(blank.path), blank.size_bytes(), what), p.stderr), p.stderr
    assert re.search(r"ssdload: %s: holds .*%s.*; --force to destroy it"
                     % (re.escape(blank.path), what), p.stderr), p.stderr
    d = env.stat_delta(before, blank.stat())
    assert d["write_ios"] == 0 and d["write_sectors"] == 0, d
    assert _sums(blank) == sums


def test_force_purges(ssdload, cli, blank):  # pylint: disable=unused-argument
    _mk_ext4(blank)
    sums = _sums(blank)
    p = _purge(blank, "--force")
    assert p.returncode == 0, (p.stdout, p.stderr)
    assert re.search(r"will destroy %s: .*holds: an ext4 filesystem" % re.escape(blank.path),
                     p.stderr), p.stderr
    assert "method:" in p.stdout
    assert _sums(blank)[0] != sums[0]
    blkid = env.run(["wipefs", "--no-act", blank.path], check=False)
    assert "ext4" not in blkid.stdout, blkid.stdout


@pytest.mark.parametrize("test", ["purge", "iops"])
def test_dry_run_writes_nothing(ssdload, cli, blank, tmp_path, test):  # pylint: disable=unused-argument
    out = tmp_path / "pts"
    before = blank.stat()
    args = ["--filename=" + blank.path, "--allow_write", "--dry-run"]
    if test != "purge":
        args.append("--output-dir=%s" % out)
    p = env.cli("pts", test, *args, timeout=120)
    assert p.returncode == 0, (p.stdout, p.stderr)
    assert re.search(r"would destroy %s: .*\(%d bytes\), dev \d+:\d+, holds: no signature"
                     % (re.escape(blank.path), blank.size_bytes()), p.stderr), p.stderr
    plan = re.search(r"dry run: %s: purge \(auto\): (.*)" % re.escape(blank.path), p.stderr)
    assert plan, p.stderr
    if blank.name.startswith("nvme"):
        assert re.search(r"Format NVM.*scope: namespace \d+ \(%s\) only" % blank.name,
                         plan.group(1)) or "Sanitize" in plan.group(1), plan.group(1)
    else:
        assert "scope: the whole device " + blank.path in plan.group(1), plan.group(1)
    assert "nothing was written" in p.stderr
    d = env.stat_delta(before, blank.stat())
    assert d["write_ios"] == 0 and d["write_sectors"] == 0, d
    assert not out.exists()


def test_dry_run_refuses_a_signature(ssdload, cli, blank):  # pylint: disable=unused-argument
    _mk_ext4(blank)
    before = blank.stat()
    p = _purge(blank, "--dry-run")
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "--force to destroy it" in p.stderr
    d = env.stat_delta(before, blank.stat())
    assert d["write_ios"] == 0 and d["write_sectors"] == 0, d


# --------------------------------------------------------------------------
# scale --raid

def _mdstat():
    try:
        with open("/proc/mdstat") as f:
            return f.read()
    except FileNotFoundError:
        return ""


@pytest.fixture
def scale_pair():
    paths = [os.environ.get(v) for v in SCALE_VARS]
    if not all(paths):
        pytest.skip("%s are not set (the scale NVMe drives are not attached)"
                    % " ".join(SCALE_VARS))
    _tool("mdadm")
    devs = [env.BlockDev(os.path.basename(p)) for p in paths]
    for d in devs:
        d.wait_for_node()
        _blank(d)
    yield devs
    for d in devs:
        _blank(d)


def _scale(out, devs, *args):
    return env.cli("scale", "--output-dir=%s" % out, "--eta=never", "--no-report",
                   "--devices=" + ",".join(d.path for d in devs), "--raid=0",
                   "--counts=1,2", "--allow_write", "--ramp_time=0", "--runtime=1",
                   *args, timeout=300)


def test_scale_raid_refuses_a_filesystem(ssdload, cli, scale_pair, tmp_path):  # pylint: disable=unused-argument
    _mk_ext4(scale_pair[1])
    sums = _sums(scale_pair[1])
    mdstat = _mdstat()
    p = _scale(tmp_path / "sc", scale_pair)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert re.search(r"ssdload: %s: holds an ext4 filesystem \(label \"backup\"\); "
                     r"--force to destroy it" % re.escape(scale_pair[1].path), p.stderr), p.stderr
    assert "refused before mdadm ran" in p.stderr
    assert _mdstat() == mdstat
    assert _sums(scale_pair[1]) == sums
    assert not (tmp_path / "sc").exists()


def test_scale_raid_force_builds_over_a_filesystem(ssdload, cli, scale_pair, tmp_path):  # pylint: disable=unused-argument
    """--force is the yes to what the guard named: mdadm gets --run, and
    does not stop at the filesystem it finds (it would, asking on
    /dev/null)."""
    r = env.run(["modprobe", "raid0"], check=False)
    if r.returncode:
        pytest.skip("modprobe raid0 failed: %s" % r.stderr.strip())
    _mk_ext4(scale_pair[1])
    mdstat = _mdstat()
    p = _scale(tmp_path / "sc", scale_pair, "--force")
    assert p.returncode == 0, (p.stdout, p.stderr)
    assert re.search(r"will destroy %s: .*holds: an ext4 filesystem" %
                     re.escape(scale_pair[1].path), p.stderr), p.stderr
    assert "create aborted" not in p.stderr
    doc = json.loads((tmp_path / "sc" / "scale.json").read_text())
    assert "raid0" in [t["level"] for t in doc["targets"]], doc["targets"]
    assert _mdstat() == mdstat


def test_scale_raid_dry_run(ssdload, cli, scale_pair, tmp_path):  # pylint: disable=unused-argument
    mdstat = _mdstat()
    before = [d.stat() for d in scale_pair]
    p = _scale(tmp_path / "sc", scale_pair, "--dry-run")
    assert p.returncode == 0, (p.stdout, p.stderr)
    for d in scale_pair:
        assert re.search(r"would destroy %s: .*holds: no signature" % re.escape(d.path),
                         p.stderr), p.stderr
    assert "would build RAID-0 of 2 drives (%s, %s)" % (scale_pair[0].path,
                                                        scale_pair[1].path) in p.stderr
    assert _mdstat() == mdstat
    for b, d in zip(before, scale_pair):
        delta = env.stat_delta(b, d.stat())
        assert delta["write_ios"] == 0, delta
    assert not (tmp_path / "sc").exists()


# --------------------------------------------------------------------------
# --resume

def _state(tmp_path, filename, device):
    """An interrupted latency run's pts.json that started on DEVICE."""
    d = tmp_path / "run"
    d.mkdir()
    doc = {"format": "ssdload-pts", "format_version": 1, "test": "latency",
           "state": "interrupted", "device": device,
           "command": ["ssdload", "pts", "latency", "--filename=" + filename,
                       "--allow_write", "--point-time=1", "--max-rounds=5"],
           "rounds": [], "deviations": [], "resumed": []}
    (d / "pts.json").write_text(json.dumps(doc))
    return d


def _resume_refused(d, dev, needles):
    before = dev.stat()
    p = env.cli("pts", "--resume=%s" % d, timeout=120)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "is not the device the test started on" in p.stderr, p.stderr
    for n in needles:
        assert re.search(n, p.stderr), (n, p.stderr)
    delta = env.stat_delta(before, dev.stat())
    assert delta["write_ios"] == 0, delta


def test_resume_other_nvme_refused(ssdload, cli, nvme, pts_nvme, tmp_path):  # pylint: disable=unused-argument
    model = env.read("/sys/block/%s/device/model" % pts_nvme.name).strip()
    d = _state(tmp_path, nvme.path, {"path": pts_nvme.path, "serial": "ssdload-pts",
                                     "model": model,
                                     "capacity_bytes": pts_nvme.size_bytes()})
    _resume_refused(d, nvme, [r"started on: .*serial ssdload-pts",
                              r"now: +.*serial ssdload0"])


def test_resume_other_brd_refused(ssdload, cli, brd, tmp_path):  # pylint: disable=unused-argument
    """Without a serial, the device number tells two devices of one size apart."""
    ram0, ram1 = brd(64 * 1024, nr=2)
    num0 = env.read("/sys/block/%s/dev" % ram0.name).strip()
    num1 = env.read("/sys/block/%s/dev" % ram1.name).strip()
    d = _state(tmp_path, ram1.path, {"path": ram0.path, "serial": None, "model": None,
                                     "dev": num0, "capacity_bytes": ram0.size_bytes()})
    _resume_refused(d, ram1, ["device number and capacity",
                              r"started on: .*dev %s" % num0, r"now: +.*dev %s" % num1])
