# SPDX-License-Identifier: GPL-2.0
"""badinput: every attribute refuses malformed and out-of-range values.

A refused store returns EINVAL or ERANGE, leaves the old value in place,
logs a pr_err naming the attribute and the value, and the job stays usable.
Safety checks (allow_write, mounted/missing devices, busy jobs) and the CLI's
one-line error messages live here too.
"""

import errno
import os
import shutil
import stat
import tempfile

import pytest

import ssdload_env as env

U64_OVER = str(1 << 64)                   # 2^64
U64_MAX = str((1 << 64) - 1)              # 2^64-1
NUM_BAD = ["abc", "-1", "-4096", U64_OVER, "99999999999999999999999", "\n", " ", "  \n",
           "12abc", "1 2", "1.5", "0x"]
REFUSED = (errno.EINVAL, errno.ERANGE)

# store-time refusals per writable attribute
BAD = {
    "filename": ["relative/dev", "dev/nullb0", "\n", " "],
    "rw": ["foo", "READ", "read,write", "randread2", "\n", " ", "-1", "rand read"],
    "rwmixread": NUM_BAD + ["101", "1000", U64_MAX],
    "bs": NUM_BAD + ["0", "1", "511", "513", "1000", "4097", str((16 << 20) + 512),
                     str(32 << 20), U64_MAX, "4k"],
    "iodepth": NUM_BAD + ["0", "65537", U64_MAX],
    "cpus_allowed": ["abc", "-1", "0-", "1-0", "4096", U64_OVER, "0-4096", "x-1"],
    "offset": NUM_BAD + ["1", "513", "4095", U64_MAX],
    "size": NUM_BAD + ["1", "513", "4095", U64_MAX],
    "runtime_ms": NUM_BAD,
    "ramp_ms": NUM_BAD,
    "number_ios": NUM_BAD,
    "randseed": NUM_BAD,
    "allow_write": NUM_BAD + ["2", "-0", "1x"],
    "hipri": NUM_BAD + ["2", "-0", "1x"],
    "disable_lat": NUM_BAD + ["2", "-0", "1x"],
    "io_timeout_ms": NUM_BAD + [str(1 << 62)],
    "scramble_buffers": NUM_BAD + ["2", "-0", "1x"],
    "bssplit": ["4k/0:8k/100", "0/50:4k/50", "4k/60:8k/60", "4x/100", "4k/100:", "513/100",
                "32m/100", "4k/50,8k/50,4k/50,4k/50", " "],
    "bsrange": ["4k", "4k-", "-4k", "4k-64k-1m", "1000-4k", "0-4k", "4k-32m", " "],
    "blockalign": NUM_BAD + ["1", "513", str(32 << 20), U64_MAX],
    "random_distribution": ["foo:1", "zipf:0", "zipf:-1", "pareto:1", "pareto:0",
                            "normal:0", "normal", "zoned:50/60:50/60", "zoned:50/5:30/15",
                            "zoned:", "zipf:1.2:0.5", " "],
    "random_scatter": NUM_BAD + ["2", "-0", "1x"],
    "buffer_compress_percentage": NUM_BAD + ["101", U64_MAX],
    "buffer_compress_chunk": NUM_BAD + ["0", str(32 << 20)],
    "dedupe_percentage": NUM_BAD + ["101", U64_MAX],
    "buffer_pattern": ["0xabc", "zz", "0x", "deadbeef", "0x" + "ab" * 513, " "],
    "zero_buffers": NUM_BAD + ["2", "-0", "1x"],
    "refill_buffers": NUM_BAD + ["2", "-0", "1x"],
    "file_service_type": ["zipf", "roundrobin:0", "roundrobin:", "random:x", "RANDOM",
                          "\n", " "],
    "numjobs": NUM_BAD + ["1025", U64_MAX],
    "rate_iops": ["abc", "-1", "0", "1,0", ",", ",,", "1,2,3,4", "4294967297", "1k", " ",
                  "1.5", U64_OVER],
    "rate": ["abc", "-1", "0", "0,5", ",", "1,2,3,4", str((1 << 44) + 1), "1m", " "],
    "rate_process": ["bursty", "LINEAR", "poisson,linear", "\n", " "],
    "log_interval_ms": NUM_BAD,
    "log_hist": NUM_BAD + ["2", "-0", "1x"],
    "shared": NUM_BAD + ["2", "-0", "1x"],
    "group": ["a b", "a/b", "a:b", "x" * 64, "a\n\n", " ", "-1 2", "*", "a,b"],
    "loops": NUM_BAD + ["0", "4294967296"],
    "time_based": NUM_BAD + ["2", "-0", "1x"],
    "norandommap": NUM_BAD + ["2", "-0", "1x"],
    "verify": ["crc7", "CRC32C", "crc32c,md5", "\n", " ", "-1", "1"],
    "verify_interval": NUM_BAD + ["1", "511", "513", str(32 << 20)],
    "do_verify": NUM_BAD + ["2", "-0", "1x"],
    "verify_fatal": NUM_BAD + ["2", "-0", "1x"],
    "fsync": NUM_BAD + ["4294967296", U64_MAX],
    "end_fsync": NUM_BAD + ["2", "-0", "1x"],
    "sync": NUM_BAD + ["2", "dsync", "sync"],
    "write_barrier": NUM_BAD + ["4294967296"],
    "thinktime_us": NUM_BAD + ["4611686018427388", "1ms"],
    "thinktime_spin_us": NUM_BAD + ["4611686018427388"],
    "thinktime_blocks": NUM_BAD,
    "thinktime_blocks_type": ["completed", "ISSUE", "issue,complete", "\n", " "],
    "thinktime_iotime_us": NUM_BAD + ["4611686018427388"],
    "startdelay_us": ["abc", "-1", "5-2", "1-4611686018427388", "2s", "1-", "-5", "\n",
                      " "],
    "start_at": NUM_BAD,
    "enable": NUM_BAD + ["2"],
}
# in-range edge values that must be accepted and read back
GOOD = {
    "rw": [(x, x) for x in env.RW_NAMES + env.TRIM_RW] + [("randrw\n", "randrw")],
    "rwmixread": [("0", "0"), ("100", "100"), ("30\n", "30")],
    "bs": [("512", "512"), (str(16 << 20), str(16 << 20)), ("8192\n", "8192")],
    "iodepth": [("1", "1"), ("65536", "65536")],
    "cpus_allowed": [("0", "0")],
    "offset": [("0", "0"), ("512", "512")],
    "size": [("0", "0"), ("1048576", "1048576")],
    "runtime_ms": [("0", "0"), ("1500", "1500")],
    "ramp_ms": [("0", "0"), ("250", "250")],
    "number_ios": [("0", "0"), ("123", "123")],
    "randseed": [("0", "0"), (U64_MAX, U64_MAX), ("42\n", "42")],
    "allow_write": [("1", "1"), ("0", "0")],
    "hipri": [("1", "1"), ("0", "0")],
    "io_timeout_ms": [("0", "0"), ("30000\n", "30000")],
    "scramble_buffers": [("0", "0"), ("1", "1")],
    "disable_lat": [("1", "1"), ("0", "0")],
    "bssplit": [("4k/10:64k/50:32k/40", "4096/10:65536/50:32768/40"), ("\n", "")],
    "bsrange": [("4k-64k", "4096-65536"), ("\n", "")],
    "blockalign": [("65536", "65536"), ("0", "0")],
    "random_distribution": [("zipf:1.2", "zipf:1.2"),
                            ("zoned:50/5:30/15:20/80", "zoned:50/5:30/15:20/80"),
                            ("random", "random")],
    "random_scatter": [("0", "0"), ("1", "1")],
    "buffer_compress_percentage": [("0", "0"), ("100", "100")],
    "buffer_compress_chunk": [("1", "1"), ("4096", "4096")],
    "dedupe_percentage": [("0", "0"), ("30\n", "30")],
    "buffer_pattern": [("0xDEADbeef", "0xdeadbeef"), ("\n", "")],
    "zero_buffers": [("1", "1"), ("0", "0")],
    "refill_buffers": [("1", "1"), ("0", "0")],
    "file_service_type": [("random:4", "random:4"), ("sequential", "sequential"),
                          ("roundrobin", "roundrobin")],
    "numjobs": [("1024", "1024"), ("0", "0")],
    "rate_iops": [("1000", "1000,1000,1000"), ("5,,7", "5,,7"), ("\n", "")],
    "rate": [("1048576,", "1048576,,"), (str(1 << 44), ",".join([str(1 << 44)] * 3)),
             ("\n", "")],
    "rate_process": [("poisson", "poisson"), ("linear\n", "linear")],
    "log_interval_ms": [("100", "100"), ("0", "0")],
    "log_hist": [("1", "1"), ("0", "0")],
    "shared": [("1", "1"), ("0", "0")],
    # the last one clears it: a job with a group would only be armed by enable
    "group": [("oltp", "oltp"), ("x" * 63, "x" * 63), ("A-z_0.9\n", "A-z_0.9"), ("\n", "")],
    "loops": [("1", "1"), ("4294967295", "4294967295"), ("360\n", "360"), ("1", "1")],
    "time_based": [("0", "0"), ("1\n", "1")],
    "norandommap": [("1", "1"), ("0\n", "0")],
    "verify": [("crc32c", "crc32c"), ("xxhash\n", "xxhash"), ("0", "0")],
    "verify_interval": [("512", "512"), ("0", "0")],
    "do_verify": [("0", "0"), ("1", "1")],
    "verify_fatal": [("1", "1"), ("0", "0")],
    "fsync": [("4294967295", "4294967295"), ("8\n", "8"), ("0", "0")],
    "end_fsync": [("1", "1"), ("0", "0")],
    "sync": [("1", "1"), ("0", "0")],
    "write_barrier": [("16", "16"), ("0", "0")],
    "thinktime_us": [("250000\n", "250000"), ("0", "0")],
    "thinktime_spin_us": [("50", "50"), ("0", "0")],
    "thinktime_blocks": [(U64_MAX, U64_MAX), ("16", "16"), ("1", "1")],
    "thinktime_blocks_type": [("issue", "issue"), ("complete\n", "complete")],
    "thinktime_iotime_us": [("9000000", "9000000"), ("0", "0")],
    "startdelay_us": [("2000000-5000000\n", "2000000-5000000"), ("7-7", "7"), ("0", "0")],
    "start_at": [(U64_MAX, U64_MAX), ("0", "0")],
    "offset": [("0", "0"), ("512", "512"), ("25%", "25.0000%")],
}


def test_features_lists_contract_attributes(ssdload):
    """features lists exactly the job attributes of the contract, one per line."""
    f = env.features()
    assert len(f) == len(set(f)), "duplicates in features: %s" % f
    assert set(f) == set(env.CONTRACT_ATTRS), \
        "features %s differ from the contract: missing %s, extra %s" % (
            f, sorted(set(env.CONTRACT_ATTRS) - set(f)), sorted(set(f) - set(env.CONTRACT_ATTRS)))
    # every feature is a file in a new job, and every file is a feature
    j = env.Job("e2e-features")
    env.KNOWN_JOBS.add(j.name)
    try:
        # and the steps/ group (configfs.rst, Steps)
        assert set(os.listdir(j.dir)) == set(f) | {"steps"}
        assert os.path.isdir(os.path.join(j.dir, "steps"))
        assert j.state == "idle" and j.error == "0"
        assert j.get("rw") == "read" and j.get("rwmixread") == "50"
        assert j.get("size") == "0" and j.get("allow_write") == "0"
        assert j.get("enable") == "0"
        assert j.get("bs") == "4096" and j.get("iodepth") == "1"
    finally:
        j.remove()


@pytest.mark.quick
def test_refusals_are_rate_limited(nullb, jobs, kmsg):
    """A loop of bad writes to one job logs its first refusals, then is
    rate-limited; another job still gets its own first message."""
    j = jobs("flood", filename=nullb.path)
    mark = kmsg.mark()
    for _ in range(60):
        with pytest.raises(OSError):
            j.write("bs", "abc")
    lines = [l for l in kmsg.since(mark) if "invalid bs" in l]
    assert env.PR_ERR_BURST <= len(lines) < 60, "%d lines for 60 refusals" % len(lines)
    other = jobs("other", filename=nullb.path)
    mark = kmsg.mark()
    with pytest.raises(OSError):
        other.write("iodepth", "0")
    assert any("invalid iodepth" in l and other.name in l for l in kmsg.since(mark))


def test_every_feature_has_bad_values():
    """A new attribute without bad-input cases fails here."""
    writable = set(env.CONTRACT_ATTRS) - set(env.RO_ATTRS)
    assert set(BAD) == writable


def _expect_refused(kmsg, job, attr, value, logged=True):
    before = job.get(attr)
    mark = kmsg.mark()
    with pytest.raises(OSError) as ei:
        job.write(attr, value)
    assert ei.value.errno in REFUSED, "%s=%r: errno %s, expected EINVAL/ERANGE" % (
        attr, value, errno.errorcode.get(ei.value.errno))
    assert job.get(attr) == before, "%s changed to %r by a refused store of %r" % (
        attr, job.get(attr), value)
    lines = [l for l in kmsg.since(mark) if "ssdload" in l]
    if not logged:		# past the job's rate-limit burst
        return
    assert any(attr in l for l in lines), \
        "no pr_err naming %s after refusing %r: %s" % (attr, value, lines)
    shown = value.strip()[:32]	# the log shows a truncated value
    if shown and shown.isprintable():
        assert any(shown in l for l in lines), \
            "pr_err does not show the value %r: %s" % (shown, lines)


@pytest.mark.quick
@pytest.mark.parametrize("attr", sorted(BAD))
def test_attribute_refuses_bad_values(nullb, jobs, kmsg, attr):
    """Each bad value: EINVAL/ERANGE, value unchanged, pr_err names it; then a valid run."""
    j = jobs("bad", filename=nullb.path, rw="randread", bs=4096, iodepth=2, number_ios=64)
    for i, v in enumerate(BAD[attr]):
        _expect_refused(kmsg, j, attr, v, logged=i < env.PR_ERR_BURST)
    # a zero-length write (configfs itself answers EFAULT) changes nothing
    before = j.get(attr)
    try:
        j.write(attr, b"")
    except OSError:
        pass
    assert j.get(attr) == before
    for v, back in GOOD.get(attr, []):
        j.write(attr, v)
        assert j.get(attr) == back, "%s=%r reads back %r" % (attr, v, j.get(attr))
    # the job is still usable
    j.set(filename=nullb.path, rw="randread", rwmixread=50, bs=4096, iodepth=2,
          cpus_allowed="0", offset=0, size=0, runtime_ms=0, ramp_ms=0, number_ios=64,
          randseed=7, allow_write=0)
    before = nullb.stat()
    s = j.run(60)
    assert s["read_ios"] == 64 == env.stat_delta(before, nullb.stat())["read_ios"]


@pytest.mark.quick
@pytest.mark.parametrize("attr", env.RO_ATTRS)
def test_readonly_attributes(nullb, jobs, attr):
    j = jobs("ro", filename=nullb.path)
    before = j.get(attr)
    with pytest.raises(OSError):
        j.write(attr, "done" if attr == "state" else "0")
    assert j.get(attr) == before


@pytest.mark.quick
def test_store_while_running_busy(nullb, jobs):
    """Every parameter store on a running job is -EBUSY and changes nothing."""
    j = jobs("busy", filename=nullb.path, rw="randread", bs=4096, iodepth=4,
             runtime_ms=60000)
    valid = {"filename": nullb.path, "rw": "read", "rwmixread": "10", "bs": "8192",
             "iodepth": "2", "cpus_allowed": "0", "offset": "4096", "size": "1048576",
             "runtime_ms": "100", "ramp_ms": "10", "number_ios": "5", "randseed": "9",
             "allow_write": "1", "hipri": "1", "disable_lat": "1",
             "io_timeout_ms": "1000", "scramble_buffers": "0", "bssplit": "4k/50:8k/50",
             "bsrange": "4k-8k", "blockalign": "8192", "random_distribution": "zipf:1.1",
             "random_scatter": "0", "buffer_compress_percentage": "50",
             "buffer_compress_chunk": "4096", "dedupe_percentage": "10",
             "buffer_pattern": "0xab", "zero_buffers": "1", "refill_buffers": "1",
             "file_service_type": "random", "numjobs": "2", "rate_iops": "1000",
             "rate": "1000000", "rate_process": "poisson", "log_interval_ms": "100",
             "log_hist": "1", "shared": "1", "group": "g", "loops": "2",
             "time_based": "0", "fsync": "4", "end_fsync": "1", "sync": "1",
             "write_barrier": "8", "norandommap": "1", "verify": "crc32c",
             "verify_interval": "512", "do_verify": "0", "verify_fatal": "1",
             "thinktime_us": "100", "thinktime_spin_us": "10", "thinktime_blocks": "4",
             "thinktime_blocks_type": "issue", "thinktime_iotime_us": "1000",
             "startdelay_us": "5-9", "start_at": "1"}
    assert set(valid) | {"enable"} == set(BAD)
    j.enable()
    for attr, v in valid.items():
        before = j.get(attr)
        with pytest.raises(OSError) as ei:
            j.write(attr, v)
        assert ei.value.errno == errno.EBUSY, "%s while running: %s" % (attr, ei.value)
        assert j.get(attr) == before
    assert j.state == "running"
    j.stop()
    j.write("runtime_ms", 100)      # fine again once stopped


@pytest.mark.quick
@pytest.mark.parametrize("bs", [512, 2048, 6144])
def test_bs_not_multiple_of_logical_block(nullb_cfg, jobs, bs):
    """bs not a multiple of the device's 4096-byte logical block: enable -EINVAL."""
    dev = nullb_cfg("lbs4k", blocksize=4096, size=256)
    assert dev.logical_block_size() == 4096
    j = jobs("lbs", filename=dev.path, rw="randread", bs=bs, number_ios=16)
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EINVAL, ei.value
    assert j.state != "running"
    assert j.error.startswith("-%d" % errno.EINVAL), j.error
    assert dev.exclusive_open_works(), "a refused enable left the device claimed"
    j.write("bs", 8192)
    before = dev.stat()
    assert j.run(60)["read_ios"] == 16 == env.stat_delta(before, dev.stat())["read_ios"]


@pytest.mark.quick
@pytest.mark.parametrize("rw", env.WRITING_RW)
def test_write_needs_allow_write(nullb, jobs, rw):
    """A writing rw without allow_write=1: enable -EPERM, nothing reaches the device."""
    j = jobs("perm", filename=nullb.path, rw=rw, bs=4096, number_ios=100)
    before = nullb.stat()
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EPERM, ei.value
    assert j.state != "running"
    assert j.error.startswith("-%d" % errno.EPERM), j.error
    d = env.stat_delta(before, nullb.stat())
    assert d["write_ios"] == 0 and d["read_ios"] == 0
    j.write("allow_write", 1)
    assert j.run(60)["write_ios"] > 0


@pytest.mark.quick
@pytest.mark.parametrize("path", ["/dev/e2e-nonexistent", "/dev/null", "/etc/hostname",
                                  "/dev"])
def test_missing_or_not_block_device(ssdload, jobs, path):
    """A missing device or a non-block file is refused (at store or at enable)."""
    j = jobs("nodev")
    try:
        j.write("filename", path)
    except OSError as e:
        assert e.errno in (errno.EINVAL, errno.ENOENT, errno.ENOTBLK, errno.ENODEV,
                           errno.ENXIO), e
        return
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno in (errno.ENOENT, errno.ENOTBLK, errno.ENODEV, errno.ENXIO,
                              errno.EINVAL), ei.value
    assert j.state != "running"
    assert j.error.startswith("-") and path in j.error, j.error


@pytest.mark.quick
def test_enable_without_filename(ssdload, jobs):
    j = jobs("nofile")
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno in (errno.EINVAL, errno.ENOENT, errno.ENODEV), ei.value
    assert j.state != "running"


@pytest.mark.quick
def test_job_memory_cap(nullb, jobs):
    """iodepth*bs*workers above max_job_mem_mb: enable -ENOMEM with a clear error."""
    cap = int(env.read_attr("/sys/module/ssdload/parameters/max_job_mem_mb"))
    bs = 16 << 20
    depth = (cap << 20) // bs + 1
    j = jobs("mem", filename=nullb.path, rw="randread", bs=bs, iodepth=depth,
             number_ios=4)
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.ENOMEM, ei.value
    assert j.state != "running"
    assert j.error.startswith("-%d " % errno.ENOMEM) and len(j.error) > 8, j.error
    j.write("iodepth", 1)
    assert j.run(60)["read_ios"] == 4


@pytest.mark.quick
def test_mounted_device_refused(mounted_brd, jobs):
    """A mounted device: enable -EBUSY naming the device; after umount it works."""
    d = mounted_brd
    j = jobs("mnt", filename=d.path, rw="randread", bs=4096, number_ios=64)
    with pytest.raises(OSError) as ei:
        j.enable()
    assert ei.value.errno == errno.EBUSY, ei.value
    assert j.state != "running"
    assert j.error.startswith("-%d " % errno.EBUSY), j.error
    assert d.path in j.error, j.error
    assert os.path.ismount(d.mnt), "the filesystem went away"
    env.run(["umount", d.mnt])
    assert j.run(60)["read_ios"] == 64


def _alias(dev, kind, where):
    """A second name of @dev in @where: a relative symlink (as udev's
    /dev/disk/by-id/ links are) or a device node of the same number."""
    path = os.path.join(where, "alias-" + kind)
    if kind == "mknod":
        try:
            os.mknod(path, stat.S_IFBLK | 0o600, os.stat(dev.path).st_rdev)
        except OSError as e:
            pytest.skip("cannot make a device node in %s: %s" % (where, e))
    else:
        os.symlink(os.path.relpath(dev.path, where), path)
    assert os.stat(path).st_rdev == os.stat(dev.path).st_rdev
    return path


@pytest.mark.quick
@pytest.mark.parametrize("kind,shared", [("symlink", 0), ("mknod", 0), ("symlink", 1)])
def test_same_device_twice_refused(nullb, jobs, kmsg, kind, shared):
    """One device under two names (a by-id style link, or a second node of
    its major:minor) passes a comparison of the names: enable compares the
    device numbers and refuses with both names, leaving nothing open."""
    where = tempfile.mkdtemp(prefix="e2e-alias-", dir="/dev")
    try:
        alias = _alias(nullb, kind, where)
        j = jobs("alias", filename="%s:%s" % (nullb.path, alias), rw="randread",
                 bs=4096, number_ios=16, shared=shared)
        mark = kmsg.mark()
        with pytest.raises(OSError) as ei:
            j.enable()
        assert ei.value.errno == errno.EINVAL, ei.value
        assert j.state != "running"
        assert j.error.startswith("-%d " % errno.EINVAL), j.error
        assert nullb.path in j.error and alias in j.error, j.error
        logged = [l for l in kmsg.since(mark) if "filename" in l]
        assert any(nullb.path in l and alias in l for l in logged), kmsg.since(mark)
        # both opens were released: another holder can claim the device
        assert nullb.exclusive_open_works()
        # each name alone is fine
        j.write("filename", alias)
        assert j.run(60)["read_ios"] == 16
    finally:
        shutil.rmtree(where)


# --------------------------------------------------------------------------
# the CLI: non-zero exit and one clear line on stderr
#
# The refusals of the CLI's own checks (its option parser and range checks,
# an unknown command, no configfs directory of the module) are `stock`:
# userspace code, the same on every kernel, that never reaches the module.
# A missing device, a write without --allow_write and a mounted device are
# refused by the module (its filename= or enable), and the CLI then removes
# its job: those run on every kernel.

def _one_line_error(p, *needles):
    assert p.returncode != 0, "exit 0; stdout %r" % p.stdout
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(lines) == 1, "expected one error line, got %r" % p.stderr
    low = lines[0].lower()
    for n in needles:
        assert n.lower() in low, "%r does not mention %r" % (lines[0], n)
    assert env.list_jobs() == [], "the CLI left a job behind"
    return lines[0]


@pytest.mark.quick
def test_cli_missing_device(ssdload, cli):
    p = env.cli("run", "--filename=/dev/e2e-nonexistent", "--rw=read", "--number_ios=10")
    _one_line_error(p, "/dev/e2e-nonexistent")


@pytest.mark.quick
def test_cli_mounted_device(mounted_brd, cli):
    p = env.cli("run", "--filename=" + mounted_brd.path, "--rw=read", "--number_ios=10")
    _one_line_error(p, mounted_brd.path, "busy")


@pytest.mark.quick
def test_cli_write_without_allow_write(nullb, cli):
    before = nullb.stat()
    p = env.cli("run", "--filename=" + nullb.path, "--rw=randwrite", "--number_ios=10")
    _one_line_error(p, nullb.path, "allow_write")
    assert env.stat_delta(before, nullb.stat())["write_ios"] == 0


@pytest.mark.quick
@pytest.mark.stock
def test_cli_module_not_loaded(ssdload, nullb, cli):
    ssdload.rmmod()
    p = env.cli("run", "--filename=" + nullb.path, "--rw=read", "--number_ios=10")
    _one_line_error(p, "ssdload.ko is not loaded", "insmod")
    p = env.cli("list")
    _one_line_error(p, "not loaded")


@pytest.mark.quick
@pytest.mark.stock
@pytest.mark.parametrize("args,needle", [
    (["--bogus-option=1"], "bogus-option"),
    (["--rw=sideways"], "sideways"),
    (["--bs=12q"], "12q"),
    (["--iodepth=0"], "iodepth"),
    (["--rwmixread=101"], "rwmixread"),
    (["--output-format=xml"], "xml"),
    (["--runtime=soon"], "soon"),
], ids=["unknown", "rw", "bs", "iodepth", "rwmixread", "format", "runtime"])
def test_cli_bad_option(nullb, cli, args, needle):
    p = env.cli("run", "--filename=" + nullb.path, "--number_ios=10", *args)
    _one_line_error(p, needle)


@pytest.mark.stock
def test_cli_unknown_command(cli):
    p = env.cli("frobnicate")
    assert p.returncode != 0 and "frobnicate" in p.stderr, p.stderr
