# SPDX-License-Identifier: GPL-2.0
"""fio options of issue 7 without a kernel: their conversions to the
module's attribute formats (`run --parse-only`) and their refusals.
"""

import os

import pytest

from blockdev import DEV, NEEDS_DEV

from cli import one_error_line, parse_only, run


# --------------------------------------------------------------------------
# fio options of issue 7: conversions to the module's attribute formats

@pytest.mark.parametrize("args,attr,want", [
    # bssplit: sizes to bytes, percentages kept, blank = a share of the rest
    (["--bssplit=4k/10:64k/50:32k/40"], "bssplit", "4096/10:65536/50:32768/40"),
    (["--bssplit=4k/50:1k/:32k/"], "bssplit", "4096/50:1024/:32768/"),
    (["--bssplit=4k/50:8k"], "bssplit", "4096/50:8192/"),
    (["--bssplit=4k/0:8k/100"], "bssplit", "4096/:8192/100"),      # fio: 0 = blank
    (["--bssplit", "2k/50:4k/50,4k/90:8k/10"], "bssplit",
     "2048/50:4096/50,4096/90:8192/10,4096/90:8192/10"),          # trim = write
    # bsrange: always three directions, "-" or ":" as fio
    (["--bsrange=1k-4k"], "bsrange", "1024-4096,1024-4096,1024-4096"),
    (["--bsrange=1k:4k,2k-8k"], "bsrange", "1024-4096,2048-8192,2048-8192"),
    (["--blocksize_range=4k-4k,8k-64k,"], "bsrange", "4096-4096,8192-65536,4096-4096"),
    (["--bs=16k", "--bsrange=,4k-8k"], "bsrange", "16384-16384,4096-8192,4096-8192"),
    # bs per direction: min = max
    (["--bs=8k,32k"], "bsrange", "8192-8192,32768-32768,32768-32768"),
    (["--bs=8k,32k,"], "bsrange", "8192-8192,32768-32768,4096-4096"),
    (["--bs=,8k"], "bsrange", "4096-4096,8192-8192,8192-8192"),
    (["--bs=4k,64k,1m"], "bsrange", "4096-4096,65536-65536,1048576-1048576"),
    (["--blockalign=8k", "--bs=8k"], "blockalign", "8192"),
    (["--ba=4k,4k"], "blockalign", "4096"),
    (["--ba", "0"], "blockalign", "0"),
    # random_distribution: validated, normalised, fio's defaults filled in
    (["--random_distribution=random"], "random_distribution", "random"),
    (["--random_distribution=zipf"], "random_distribution", "zipf:1.1"),
    (["--random_distribution=zipf:1.20"], "random_distribution", "zipf:1.2"),
    (["--random_distribution=pareto"], "random_distribution", "pareto:0.2"),
    (["--random_distribution=pareto:0.125"], "random_distribution", "pareto:0.125"),
    (["--random_distribution=normal:12.5"], "random_distribution", "normal:12.5"),
    (["--random_distribution=zoned:60/10:30/20:8/30:2/40"], "random_distribution",
     "zoned:60/10:30/20:8/30:2/40"),
    (["--random_distribution=zoned:50/50:50/50,100/100,"], "random_distribution",
     None),   # empty trim list: rejected below
    (["--random_distribution=zoned:33.333333/50:66.666667/50"], "random_distribution",
     "zoned:33.333333/50:66.666667/50"),
    (["--random_distribution=zoned_abs:60/20g:30/100g:10/500g"], "random_distribution",
     "zoned_abs:60/%d:30/%d:10/%d" % (20 << 30, 100 << 30, 500 << 30)),
    (["--random_distribution=zoned:90/10:10/90,100/100"], "random_distribution",
     "zoned:90/10:10/90,100/100,100/100"),
    # fio: a zone without a size, or with 0, shares the rest equally
    (["--random_distribution=zoned:50/5:30/15:20/"], "random_distribution",
     "zoned:50/5:30/15:20/80"),
    (["--random_distribution=zoned:50/5:30/15:20"], "random_distribution",
     "zoned:50/5:30/15:20/80"),
    (["--random_distribution=zoned:40/:30/0:30/40"], "random_distribution",
     "zoned:40/30:30/30:30/40"),
    (["--random_distribution=zoned:100"], "random_distribution", "zoned:100/100"),
    (["--random_distribution=zoned:50/10:25/:25/"], "random_distribution",
     "zoned:50/10:25/45:25/45"),
    (["--random_scatter=0"], "random_scatter", "0"),
    (["--random_scatter"], "random_scatter", "1"),
    # offset/size: bytes or a percentage of each device
    (["--offset=25%"], "offset", "25%"),
    (["--offset=12.50%"], "offset", "12.5%"),
    (["--size=100%"], "size", "100%"),
    (["--size=0.0001%"], "size", "0.0001%"),
    (["--size=2g"], "size", str(2 << 30)),
    # data options
    (["--buffer_compress_percentage=70"], "buffer_compress_percentage", "70"),
    (["--buffer_compress_chunk=4k"], "buffer_compress_chunk", "4096"),
    (["--dedupe_percentage", "0"], "dedupe_percentage", "0"),
    (["--zero_buffers"], "zero_buffers", "1"),
    (["--refill_buffers=0"], "refill_buffers", "0"),
    (["--file_service_type=roundrobin"], "file_service_type", "roundrobin"),
    (["--file_service_type=random:4"], "file_service_type", "random:4"),
    (["--file_service_type=sequential:1000"], "file_service_type", "sequential:1000"),
    (["--rw=trim"], "rw", "trim"),
    (["--rw=randtrim"], "rw", "randtrim"),
    (["--rw=trimwrite"], "rw", "trimwrite"),
    (["--rw=randtrimwrite"], "rw", "randtrimwrite"),
])
def test_new_option_conversions(cli, args, attr, want):
    if want is None:
        one_error_line(run(cli, "run", "--filename=/dev/x", *args), args[0].split("=")[0])
        return
    a = parse_only(cli, *args)
    assert a[attr] == want, (args, a)


def test_new_options_written_only_when_given(cli):
    a = parse_only(cli)
    for attr in ("bssplit", "bsrange", "blockalign", "random_distribution", "random_scatter",
                 "buffer_compress_percentage", "buffer_compress_chunk", "dedupe_percentage",
                 "buffer_pattern", "zero_buffers", "refill_buffers", "file_service_type",
                 "numjobs"):
        assert attr not in a, attr
    # a single --bs stays the bs attribute (no bsrange)
    a = parse_only(cli, "--bs=64k")
    assert a["bs"] == "65536" and "bsrange" not in a


@pytest.mark.parametrize("opt,val,needle", [
    ("bssplit", "4k/60:8k/60", "more than 100"),
    ("bssplit", "4k/50:8k/40", "not 100"),
    ("bssplit", "4k/101", "0..100"),
    ("bssplit", "4k/x", "percentage"),
    ("bssplit", "4q/100", "4q/100"),
    ("bssplit", "1000/100", "512"),
    ("bssplit", "4k/50::8k/50", "empty"),
    ("bssplit", "4k/100,4k/100,4k/100,4k/100", "three"),
    ("bssplit", ":".join("%dk/1" % (i + 1) for i in range(65)), "64"),
    ("bssplit", "32m/100", "16MiB"),
    ("bsrange", "8k-4k", "min is above max"),
    ("bsrange", "4k-", "range"),
    ("bsrange", "1k-3000", "512"),
    ("bs", "4k,zz", "zz"),
    ("ba", "4k,8k", "one alignment"),
    ("blockalign", "1000", "512"),
    ("random_distribution", "zipf:1.2:0.25", "center"),
    ("random_distribution", "zipf:1", "theta"),
    ("random_distribution", "zipf:-1", "decimal"),
    ("random_distribution", "zipf:1.0000001", "6 decimals"),
    ("random_distribution", "pareto:1", "(0, 1)"),
    ("random_distribution", "normal", "deviation"),
    ("random_distribution", "normal:100", "(0, 100)"),
    ("random_distribution", "zoned:60/10:30/20", "90, not 100"),
    ("random_distribution", "zoned:50/60:50/60", "sizes add up"),
    ("random_distribution", "zoned:x/100", "access%/size%"),
    ("random_distribution", "zoned:50/60:50/40:0/", "leaves nothing"),
    ("random_distribution", "zoned_abs:50/1g:50/", "not a size"),
    ("random_distribution", "zoned_abs:100/zz", "size"),
    ("random_distribution", "sequence:1,2,3", "not supported"),
    ("random_distribution", "gamma:2", "unknown distribution"),
    ("random_scatter", "2", "0 or 1"),
    ("offset", "0%", "above 0"),
    ("offset", "101%", "at most 100"),
    ("size", "1.23456%", "4 decimals"),
    ("size", "x%", "percentage"),
    ("buffer_compress_percentage", "101", "0 to 100"),
    ("dedupe_percentage", "-5", "0 to 100"),
    ("buffer_compress_chunk", "0", "1 byte"),
    ("buffer_compress_chunk", "32m", "16MiB"),
    ("zero_buffers", "maybe", "0 or 1"),
    ("refill_buffers", "3", "0 or 1"),
    ("file_service_type", "zipf:1.2", "not supported"),
    ("file_service_type", "lottery", "roundrobin"),
    ("file_service_type", "random:0", "1.."),
    ("rw", "trimread", "randtrimwrite"),
    ("numjobs", "2000", "1 to 1024"),
    ("filename", "/dev/a::/dev/b", "empty"),
    ("filename", "/dev/a:/dev/a", "twice"),
    ("filename", ":".join("/dev/d%d" % i for i in range(17)), "16"),
    ("buffer_pattern", "%o", "not supported"),
    ("buffer_pattern", '"ab', "unterminated"),
    ("buffer_pattern", '""', "empty"),
    ("buffer_pattern", "0x" + "ab" * 513, "512"),
    ("buffer_pattern", "2147483648", "decimal int"),
    ("buffer_pattern", "0xab||0xcd", "'|'"),
    ("buffer_pattern", "'/nonexistent/pattern-file'", "No such file"),
])
def test_new_option_rejected(cli, opt, val, needle):
    """One line naming the option and its value, saying why; nothing created."""
    args = ["run", "--filename=/dev/x", "--%s=%s" % (opt, val)]
    if opt == "filename":
        args = ["run", "--filename=" + val]
    line = one_error_line(run(cli, *args), "--%s=" % opt, needle)
    assert val[:40] in line


# fio's lib/pattern.c examples (#1..#7, #10) and the HOWTO's forms
@pytest.mark.parametrize("pattern,hexbytes", [
    ('"abcd"', "61626364"),
    ("-1024", "00fcffff"),
    ("66", "42"),
    ("0xFF0X1", "ff01"),
    ('"123"0xFFeeCC', "313233ffeecc"),
    ('-100xab"1"', "f6ffffffab31"),
    ("0x" + "fe" * 21, "fe" * 21),
    ("0xdeadbeef", "deadbeef"),
    ("0xdeadface", "deadface"),
    ("-12", "f4ffffff"),
    ("0", "00"),
    ("256", "0001"),
    ("0x1ff", "01ff"),
    ("0xff0x14", "ff14"),
    ('0xdeadface"abcd"-12', "deadface61626364f4ffffff"),
    # '|' between elements (an ssdload extension: fio concatenates)
    ('0xdeadbeef|"ab"|7', "deadbeef616207"),
    ("0x" + "ab" * 512, "ab" * 512),
])
def test_buffer_pattern_conversions(cli, pattern, hexbytes):
    assert parse_only(cli, "--buffer_pattern=" + pattern)["buffer_pattern"] == "0x" + hexbytes


def test_buffer_pattern_from_file(cli, tmp_path):
    """fio's 'file' element: the file's bytes, truncated to 512."""
    f = tmp_path / "pat.bin"
    f.write_bytes(bytes(range(256)) * 3)
    a = parse_only(cli, "--buffer_pattern=0x01'%s'" % f)
    assert a["buffer_pattern"] == "0x01" + (bytes(range(256)) * 2)[:511].hex()


@NEEDS_DEV
def test_filename_list(cli, tmp_path):
    """fio's colon list, written as given; '\\:' escapes a colon in a name.
    The names are links to the host's block device: --parse-only checks
    each target as a run would."""
    for n in ("a", "b", "a:1"):
        os.symlink(DEV, str(tmp_path / n))
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    got = parse_only(cli, "--filename=%s:%s" % (a, b))
    assert got["filename"] == "%s:%s" % (a, b)
    p = run(cli, "run", "--filename=%s\\:1:%s" % (a, a), "--parse-only")
    assert p.returncode == 0 and "filename=%s\\:1:%s\n" % (a, a) in p.stdout, p.stderr
    # "\:" makes /dev/a:1 a name of its own: not the same device as /dev/a
    one_error_line(run(cli, "run", "--filename=/dev/a\\:1:/dev/a\\:1"), "twice", "/dev/a:1")


def test_run_usage_lists_new_options(cli):
    out = run(cli, "run", "--help").stdout
    for needle in ("--bssplit", "--bsrange", "--blockalign", "--ba", "--random_distribution",
                   "--random_scatter", "--buffer_compress_percentage",
                   "--buffer_compress_chunk", "--dedupe_percentage", "--buffer_pattern",
                   "--zero_buffers", "--refill_buffers", "--file_service_type", "trim",
                   "randtrimwrite", "--group_reporting", "P%"):
        assert needle in out, needle
