# SPDX-License-Identifier: GPL-2.0
"""fio options taken for the values that mean what ssdload does.

buffered=0, continue_on_error=none, randrepeat=1 are fio's
defaults or ssdload's behaviour: accepted (on the
command line and in job files, with a note where useful); any other value
is refused naming the value, the reason and what ssdload takes.  The
options that tune a userspace engine's submission are accepted with a
note; gtod_reduce=1 becomes disable_lat; randrepeat=0 draws a seed per
run and prints it; norandommap sets the module's norandommap, so that a
one-pass random run draws with replacement as fio's.
fio 3.33 itself checks that each value is one fio takes, and what its
defaults are.
"""
import json
import re
import shutil
import subprocess

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import fio_takes, one_error_line, run

pytestmark = NEEDS_DEV


def parse_only(cli, *args):
    p = run(cli, "run", "--name=j", f"--filename={DEV}", "--parse-only", *args)
    return p, dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)


def notes(p):
    return [l for l in p.stderr.splitlines() if l.startswith("ssdload: note: ")]


# (option=value, a needle of its note or None for silence); startdelay and
# the thinktime family are implemented (test_cli_think.py): their defaults
# stay accepted here
ACCEPTED = [
    ("buffered=0", None),
    ("direct=1", None),
    ("verify=0", None),
    ("startdelay=0", None),
    ("startdelay=0s", None),
    ("continue_on_error=none", None),
    ("continue_on_error=0", None),
    ("thinktime=0", None),
    ("randrepeat=1", None),
    ("description=a job of mine", None),
    ("random_generator=tausworthe", "generator is used"),
    ("random_generator=lfsr", "generator is used"),
    ("random_generator=tausworthe64", "generator is used"),
    ("io_submit_mode=inline", "submit"),
    ("io_submit_mode=offload", "submit"),
    ("iodepth_batch=8", "submit"),
    ("iodepth_batch_submit=8", "submit"),
    ("iodepth_batch_complete_min=4", "submit"),
    ("iodepth_batch_complete=4", "submit"),
    ("iodepth_batch_complete_max=16", "submit"),
    ("iodepth_low=2", "submit"),
    ("gtod_reduce=0", None),
    ("lat_percentiles=1", "lat equals clat"),
    ("clat_percentiles=1", "lat equals clat"),
    ("clat_percentiles=0", "lat equals clat"),
    # fio's defaults of options ssdload lacks, and what it does anyway
    ("fsync=0", None), ("fdatasync=0", None), ("sync=none", None), ("sync=0", None),
    ("end_fsync=0", None), ("fsync_on_close=0", None), ("write_barrier=0", None),
    ("thinktime_spin=0", None), ("thinktime_blocks=1", None), ("rate_min=0", None),
    ("rate_iops_min=0", None), ("max_latency=0", None), ("latency_target=0", None),
    ("disable_clat=0", None), ("disable_slat=0", None), ("disable_slat=1", None),
    ("disable_bw_measurement=0", None), ("disable_bw=0", None), ("do_verify=0", None),
    ("do_verify=1", None), ("experimental_verify=0", None), ("allrandrepeat=0", None),
    ("allrandrepeat=1", None), ("softrandommap=0", None), ("serialize_overlap=0", None),
    ("fill_device=0", None), ("fill_fs=0", None), ("create_only=0", None),
    ("file_append=0", None), ("pre_read=0", None), ("per_job_logs=1", None),
    ("nrfiles=1", None), ("nr_files=1", None),
    ("zonemode=none", None), ("allow_file_create=0", None),
    ("log_prio=0", None), ("dedupe_mode=repeat", None), ("dedupe_global=0", None),
    ("dedupe_working_set_percentage=50", "dedupe_mode=working_set only"),
    ("threads=1", "tiobench profile"),
]


@pytest.mark.parametrize("opt,note", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_accepted_as_fio_takes_it(cli, tmp_path, opt, note):
    if fio_takes("--" + opt) is False:
        pytest.fail("fio 3.33 refuses --%s: not a value to accept" % opt)
    p, _ = parse_only(cli, "--" + opt)
    assert p.returncode == 0, p.stderr
    got = notes(p)
    if note:
        assert len(got) == 1 and note in got[0] and "--" + opt in got[0], got
    else:
        assert p.stderr == "", p.stderr
    f = tmp_path / "job.fio"
    f.write_text(f"[j]\nfilename={DEV}\n%s\n" % opt)
    p = run(cli, "run", "--parse-only", str(f))
    assert p.returncode == 0, p.stderr
    if note:
        assert any("job.fio:3: " + opt in l for l in notes(p)), p.stderr


# (option=value fio takes, the value ssdload takes instead)
REFUSED = [
    ("buffered=1", "buffered=0"),
    ("continue_on_error=all", "continue_on_error=none"),
    ("continue_on_error=read", "continue_on_error=none"),
    ("rate_min=1m", "rate_min=0"),
    ("ratemin=1m", "ratemin=0"),
    ("latency_target=10ms", "latency_target=0"),
    ("disable_clat=1", "disable_clat=0"),
    ("fill_device=1", "fill_device=0"),
    ("per_job_logs=0", "per_job_logs=1"),
    ("nrfiles=4", "nrfiles=1"),
    ("zonemode=zbd", "zonemode=none"),
    ("allow_file_create=1", "allow_file_create=0"),
    ("log_prio=1", "log_prio=0"),
    ("dedupe_mode=working_set", "dedupe_mode=repeat"),
    ("dedupe_global=1", "dedupe_global=0"),
]


@pytest.mark.parametrize("opt,instead", REFUSED, ids=[a[0] for a in REFUSED])
def test_other_values_refused_naming_the_value(cli, tmp_path, opt, instead):
    if fio_takes("--" + opt) is False:
        pytest.fail("fio 3.33 refuses --%s: the refusal would be fio's" % opt)
    line = one_error_line(parse_only(cli, "--" + opt)[0], "--" + opt, "not support",
                          instead)
    assert "unknown" not in line, line
    f = tmp_path / "job.fio"
    f.write_text(f"[j]\nfilename={DEV}\n\n%s\n" % opt)
    one_error_line(run(cli, "run", "--parse-only", str(f)), "job.fio:4: " + opt, instead)


@pytest.mark.parametrize("opt", ["random_generator=mt", "io_submit_mode=async",
                                 "iodepth_batch=x", "gtod_reduce=2", "buffered=yes please"])
def test_what_fio_refuses_is_refused(cli, opt):
    if fio_takes("--" + opt) is True:
        pytest.fail("fio 3.33 takes --%s" % opt)
    one_error_line(parse_only(cli, "--" + opt)[0], "--" + opt)


@pytest.mark.parametrize("name,default", [
    ("verify", "0"), ("startdelay", "0"), ("continue_on_error", "none"),
    ("thinktime", "0"), ("randrepeat", "1"), ("gtod_reduce", "0"),
    ("random_generator", "tausworthe"), ("io_submit_mode", "inline"),
    ("fsync", "0"), ("end_fsync", "0"), ("sync", "none"), ("write_barrier", "0"),
    ("thinktime_blocks", "1"), ("thinktime_spin", "0"), ("disable_clat", "0"),
    ("fill_device", "0"), ("per_job_logs", "1"), ("nrfiles", "1"), ("zonemode", "none"),
    ("pre_read", "0"), ("serialize_overlap", "0"), ("log_prio", "0"),
    ("dedupe_mode", "repeat"), ("dedupe_global", "0"),
])
def test_the_defaults_are_fios(cli, name, default):
    """What cli.rst calls fio's default is: and ssdload takes it."""
    if not shutil.which("fio"):
        pytest.skip("fio is not installed (Debian: fio): no defaults to compare with")
    p = subprocess.run(["fio", "--cmdhelp=" + name], capture_output=True, text=True,
                       timeout=30)
    assert re.search(r"^\s*default: %s$" % re.escape(default), p.stdout, re.M), p.stdout
    assert parse_only(cli, "--%s=%s" % (name, default))[0].returncode == 0


def test_gtod_reduce_is_disable_lat(cli, tmp_path):
    p, attrs = parse_only(cli, "--gtod_reduce=1")
    assert p.returncode == 0, p.stderr
    assert attrs.get("disable_lat") == "1", p.stdout
    assert len(notes(p)) == 1 and "disable_lat" in notes(p)[0], p.stderr
    p, attrs = parse_only(cli, "--gtod_reduce=0")
    assert "disable_lat" not in attrs, p.stdout
    p, attrs = parse_only(cli, "--gtod_reduce", "--disable_lat=0")
    assert attrs.get("disable_lat") == "0", p.stdout   # given: it decides
    f = tmp_path / "job.fio"
    f.write_text(f"[j]\nfilename={DEV}\ngtod_reduce=1\n")
    p = run(cli, "run", "--parse-only", str(f))
    assert "disable_lat=1" in p.stdout.splitlines(), p.stdout


def seed_of(p):
    got = [l for l in notes(p) if "randseed=" in l]
    assert len(got) == 1, p.stderr
    return re.search(r"randseed=(\d+) ", got[0]).group(1)


def test_randrepeat_0_draws_a_printed_seed(cli):
    p1, a1 = parse_only(cli, "--randrepeat=0", "--rw=randread")
    p2, a2 = parse_only(cli, "--randrepeat=0", "--rw=randread")
    assert p1.returncode == 0 and p2.returncode == 0, p1.stderr + p2.stderr
    s1, s2 = seed_of(p1), seed_of(p2)
    assert a1["randseed"] == s1 and a2["randseed"] == s2, (p1.stdout, p2.stdout)
    assert s1 != s2, "two runs drew the same seed"
    assert "this parse only" in p1.stderr, p1.stderr


def test_randrepeat_keeps_a_given_seed(cli):
    """As fio: a randseed given wins over randrepeat=0; randrepeat=1 (fio's
    default) keeps ssdload's repeatable seed, written by no attribute."""
    p, attrs = parse_only(cli, "--randrepeat=0", "--randseed=42")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert attrs["randseed"] == "42"
    p, attrs = parse_only(cli, "--randrepeat=1")
    assert "randseed" not in attrs and p.stderr == ""


def test_randrepeat_seed_in_the_json(fakerun):
    r = fakerun(runtime=0.3).start("--randrepeat=0", "--output-format=json")
    rc, out, err = r.finish()
    assert rc == 0, err
    seed = re.search(r"randseed=(\d+) ", err).group(1)
    assert "give --randseed=%s to repeat this run" % seed in err, err
    opts = json.loads(out)["jobs"][0]["job options"]
    assert opts.get("randseed") == seed and opts.get("randrepeat") == "0", opts


@pytest.mark.parametrize("args", [
    ["--rw=randread", "--runtime=10", "--time_based"],
    ["--rw=randwrite", "--number_ios=1000"],
    ["--rw=randread", "--io_size=1m"],
    ["--rw=randread", "--random_distribution=zipf:1.2"],
    ["--rw=randread", "--step=runtime=1"],
    ["--rw=read"],
    ["--rw=randread", "--bssplit=4k/50:64k/50"],	# several sizes: drawn
    ["--rw=randread", "--bs=64k", "--blockalign=4k"],	# unaligned to the block
    # one-pass permutations without it: the module draws with replacement
    ["--rw=randread"],
    ["--rw=randwrite", "--runtime=30"],
    ["--rw=randrw", "--number_ios=0"],
    ["--rw=randread", "--bsrange=4k-4k"],
], ids=lambda a: " ".join(a))
@pytest.mark.parametrize("flag", ["--norandommap", "--norandommap=1"])
def test_norandommap_sets_the_attribute(cli, args, flag):
    """Accepted everywhere, silently; the module's norandommap=1 makes a
    one-pass random run draw with replacement (configfs.rst), and means
    nothing where the run draws so anyway."""
    p, attrs = parse_only(cli, *(args + [flag]))
    assert p.returncode == 0, p.stderr
    assert p.stderr == "", p.stderr
    assert attrs.get("norandommap") == "1", p.stdout


def test_norandommap_0_is_the_default(cli, tmp_path):
    p, attrs = parse_only(cli, "--rw=randread", "--norandommap=0")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "norandommap" not in attrs
    one_error_line(parse_only(cli, "--rw=randread", "--norandommap=2")[0],
                   "--norandommap=2:", "0 or 1")
    f = tmp_path / "job.fio"
    f.write_text(f"[j]\nfilename={DEV}\nrw=randread\nnorandommap\n")
    p = run(cli, "run", "--parse-only", str(f))
    assert p.returncode == 0, p.stderr
    assert "norandommap=1" in p.stdout.splitlines(), p.stdout


def test_fio_takes_norandommap_bare():
    if fio_takes("--norandommap", "--rw=randread") is None:
        pytest.skip("fio is not installed (Debian: fio)")
    assert fio_takes("--norandommap", "--rw=randread")


# fio 3.33's examples/jesd219.fio (GPL-2.0, github.com/axboe/fio), the
# JEDEC endurance workload: refused by name before (norandommap, randrepeat)
JESD219 = """# Sample implementation of the JESD219 workload for SSD endurance
[JESD219]
ioengine=libaio
direct=1
rw=randrw
norandommap
randrepeat=0
rwmixread=40
rwmixwrite=60
iodepth=256
numjobs=4
bssplit=512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3
blockalign=4k
random_distribution=zoned:50/5:30/15:20/80
filename=/dev/nvme0n1
group_reporting
"""


def test_jesd219_parses(cli, tmp_path):
    f = tmp_path / "jesd219.fio"
    f.write_text(JESD219)
    p = run(cli, "run", "--parse-only", str(f), f"--filename={DEV}")
    assert p.returncode == 0, p.stderr
    attrs = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
    assert attrs["random_distribution"] == "zoned:50/5:30/15:20/80", p.stdout
    assert attrs["randseed"] == seed_of(p)


@pytest.mark.parametrize("args,size", [
    (["--filesize=1g"], str(1 << 30)),
    (["--filesize=64m", "--size=64m"], str(64 << 20)),
    (["--size=2m"], str(2 << 20)),
])
def test_filesize_is_the_one_devices_size(cli, args, size):
    """fio's filesize is each file's region: of one device, its size."""
    p, attrs = parse_only(cli, *args)
    assert p.returncode == 0, p.stderr
    assert attrs.get("size") == size, p.stdout


@pytest.mark.parametrize("args,needle", [
    (["--filesize=1g-2g"], "a range draws a size per file"),
    (["--filesize=1g:2g"], "a range draws a size per file"),
    (["--filesize=0"], "not a size above 0"),
    (["--filesize=10%"], "not a size above 0"),
    (["--filesize=1g", "--size=2g"], "differs from size"),
])
def test_filesize_refused(cli, args, needle):
    one_error_line(parse_only(cli, *args)[0], "--filesize", needle)
