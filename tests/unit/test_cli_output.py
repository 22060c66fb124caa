# SPDX-License-Identifier: GPL-2.0
"""fio's output options without a kernel: --output-format lists, json+ and
--output=FILE, on the fake debugfs job of lib/debugfs.py (a known random
sample) and the fake module of lib/fakemodule.py (FakeRun).

json+ is checked against fio's own consumer: fio_jsonplus_clat2csv (from
Debian's fio package) turns the bins into a CSV whose cumulative
percentiles must give ssdload's percentiles exactly (the bins are keyed by
the value ssdload reports for each bucket), and the bins must add up to
the I/O count.
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "e2e", "lib"))
import fiotools  # noqa: E402

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, parse_only, run
from fakemodule import logged_run, report_count

pytestmark = NEEDS_DEV


def show(cli, fake, fmt, *extra):
    p = run(cli, "show", fake.name, "--output-format=" + fmt, *extra, env=fake.env)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_json_plus_bins(cli, fake, geo):
    doc = json.loads(show(cli, fake, "json+"))
    job = doc["jobs"][0]
    for d, s in (("read", fake.reads), ("write", fake.writes)):
        for lat in ("clat_ns", "lat_ns"):
            bins = job[d][lat]["bins"]
            assert sum(bins.values()) == len(s) == job[d]["total_ios"]
            keys = sorted(int(k) for k in bins)
            assert keys[0] >= min(s) and keys[-1] <= max(s), (keys[0], keys[-1])
            # one key per non-empty bucket of the histogram
            buckets = {geo.index(v) for v in s}
            assert len(keys) == len(buckets)
    # plain json has no bins
    job = json.loads(show(cli, fake, "json"))["jobs"][0]
    assert "bins" not in job["read"]["clat_ns"]


def test_json_plus_through_fio_jsonplus_clat2csv(cli, fake, tmp_path):
    tool = shutil.which("fio_jsonplus_clat2csv")
    if not tool:
        pytest.skip("fio_jsonplus_clat2csv (Debian's fio package) is not installed")
    src = tmp_path / "plus.json"
    src.write_text(show(cli, fake, "json+", "--percentile_list=50:99:99.9"))
    doc = json.loads(src.read_text())
    head, rows = fiotools.clat2csv(tool, src, tmp_path / "out")
    assert len(rows) >= 100, "only %d rows" % len(rows)
    for d in ("read", "write"):
        ours = doc["jobs"][0][d]["clat_ns"]["percentile"]
        for pct in (50, 99, 99.9):
            theirs = fiotools.csv_percentile(head, rows, d, pct)
            assert theirs == ours["%f" % pct], (d, pct, theirs, ours["%f" % pct])


def test_several_formats_json_first(cli, fake):
    """fio's order: the JSON document, then the normal report."""
    out = show(cli, fake, "normal,json")
    doc, end = json.JSONDecoder().raw_decode(out)
    assert doc["jobs"][0]["jobname"] == fake.name
    rest = out[end:]
    assert report_count(rest, fake.name) == 1, rest
    assert "clat percentiles" in rest or "lat (" in rest
    both = show(cli, fake, "json+,normal")
    doc, end = json.JSONDecoder().raw_decode(both)
    assert "bins" in doc["jobs"][0]["read"]["clat_ns"]
    assert report_count(both[end:], fake.name) == 1
    # json and json+ together: one document, with bins
    doc = json.loads(show(cli, fake, "json,json+"))
    assert "bins" in doc["jobs"][0]["read"]["clat_ns"]


@pytest.mark.parametrize("fmt", ["terse", "json,", ",json", "", "normal;json", "JSON+x"])
def test_bad_output_format(cli, fake, fmt):
    one_error_line(run(cli, "run", "--filename=/dev/x", "--output-format=" + fmt),
                   "output-format")
    one_error_line(run(cli, "show", fake.name, "--output-format=" + fmt, env=fake.env),
                   "output-format")


def test_methods_take_one_format(cli):
    for fmt in ("json+", "normal,json"):
        one_error_line(run(cli, "sweep", "--filename=/dev/x", "--output-format=" + fmt),
                       "--output-format=" + fmt)


def test_output_file(fakerun, tmp_path):
    """--output=FILE: the report goes there, nothing to stdout; ETA stays on stderr."""
    dest = tmp_path / "report.json"
    r = fakerun(runtime=0.3).start("--output=" + str(dest), "--output-format=json+")
    rc, out, err = r.finish()
    assert rc == 0, err
    assert out == ""
    doc = json.loads(dest.read_text())
    assert doc["jobs"][0]["jobname"] == r.name
    assert "bins" in doc["jobs"][0]["read"]["clat_ns"]
    assert not r.job_exists()


def test_output_file_unwritable_creates_nothing(cli, tmp_path):
    jobs = tmp_path / "cfs" / "jobs"
    jobs.mkdir(parents=True)
    (tmp_path / "dbg").mkdir()
    p = run(cli, "run", "--filename=/dev/x", "--output=" + str(tmp_path / "no" / "dir" / "f"),
            env={"SSDLOAD_CONFIGFS": str(tmp_path / "cfs"),
                 "SSDLOAD_DEBUGFS": str(tmp_path / "dbg")})
    one_error_line(p, "--output=", "no such file")
    assert os.listdir(str(jobs)) == []


def test_output_is_command_line_only(cli, tmp_path):
    f = tmp_path / "j.fio"
    f.write_text(f"[j]\nfilename={DEV}\noutput=/tmp/x\n")
    one_error_line(run(cli, "run", "--parse-only", str(f)), "j.fio:3:", "command line")


# --------------------------------------------------------------------------
# fio's value syntax: kb_base, hex, fractions (against fio 3.33 itself)

SIZES = ["4096", "4k", "4K", "4kb", "4KB", "4KiB", "4kib", "1m", "1mib", "1MiB", "2g",
         "0x1000", "0X2000", "3000", "512b", "1KiB"]


def fio_bytes(text, kb_base=None):
    """What fio 3.33 makes of @text as a size: one I/O of bs=size=@text."""
    args = ["fio", "--name=x", "--ioengine=null"]
    if kb_base:     # fio reads options in order: before the sizes
        args.append("--kb_base=%d" % kb_base)
    args += ["--bs=" + text, "--size=" + text, "--output-format=json"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout[p.stdout.index("{"):])
    return doc["jobs"][0]["read"]["io_bytes"]


@pytest.mark.parametrize("kb_base", [None, 1000])
def test_sizes_as_fio_reads_them(cli, kb_base):
    if not shutil.which("fio"):
        pytest.skip("fio is not installed")
    extra = ["--kb_base=%d" % kb_base] if kb_base else []
    for text in SIZES:
        # rate takes any number of bytes (size, 512-byte multiples only)
        a = parse_only(cli, "--rate=" + text, *extra)
        assert int(a["rate"]) == fio_bytes(text, kb_base), (text, kb_base, a["rate"])


@pytest.mark.parametrize("text,want", [
    ("1.5k", 1536), ("0.5k", 512), ("2.25m", 2359296), ("1.5KiB", 1500),
])
def test_size_fractions(cli, text, want):
    """A documented difference: fio truncates 1.5k to 1 byte; ssdload takes
    the fraction when it comes to whole bytes, and refuses it otherwise."""
    assert int(parse_only(cli, "--rate=" + text)["rate"]) == want


@pytest.mark.parametrize("text", ["1.3k", "4.k", ".5k", "0x10k", "0x", "4kk", "4kibb", "4 k",
                                  "1.0000000001k"])
def test_bad_sizes(cli, text):
    one_error_line(run(cli, "run", "--filename=/dev/x", "--size=" + text), text)


def test_kb_base_values(cli, tmp_path):
    a = parse_only(cli, "--kb_base=1000", "--bs=4KiB", "--rate=4k")
    assert a["bs"] == "4096" and a["rate"] == "4000"
    for bad in ("999", "1023", "k", "0x400", "10000000000"):
        one_error_line(run(cli, "run", "--filename=/dev/x", "--kb_base=" + bad), "kb_base")
    # in a job file, also for the sizes above it (fio: only those after it)
    f = tmp_path / "k.fio"
    f.write_text(f"[global]\nrate=4k\nkb_base=1000\n[j]\nfilename={DEV}\n")
    p = run(cli, "run", "--parse-only", str(f))
    assert p.returncode == 0, p.stderr
    assert "rate=4000" in p.stdout.splitlines()


# --------------------------------------------------------------------------
# fio's logs (write_*_log) from the time series, on the fake module

FIO_PLAT_BITS, FIO_PLAT_NR = 6, 29 * 64


def fio_plat_idx(ns):
    """fio's plat_val_to_idx() (stat.c), re-implemented."""
    msb = ns.bit_length() - 1 if ns else 0
    if msb <= FIO_PLAT_BITS:
        return ns
    err = msb - FIO_PLAT_BITS
    idx = ((err + 1) << FIO_PLAT_BITS) + ((ns >> err) & ((1 << FIO_PLAT_BITS) - 1))
    return min(idx, FIO_PLAT_NR - 1)


def bucket_value(geo, i):
    group, sub = divmod(i, geo.sub)
    lower = sub if group == 0 else (geo.sub + sub) << (group - 1)
    width = 1 if group == 0 else 1 << (group - 1)
    return lower + width // 2


def read_log(path):
    with open(path) as f:
        return [[int(x) for x in line.split(",")] for line in f if line.strip()]


def test_fio_logs_from_the_series(fakerun, geo, tmp_path):
    rj, rc, out, err = logged_run(fakerun, geo, tmp_path, "--write_bw_log=t",
                                  "--write_iops_log=t", "--write_lat_log", "--log_avg_msec=250",
                                  "--runtime=2")
    assert rc == 0, err
    assert "note:" not in err, err
    for w in range(2):
        bw = read_log(tmp_path / ("t_bw.%d.log" % (w + 1)))
        iops = read_log(tmp_path / ("t_iops.%d.log" % (w + 1)))
        lat = read_log(tmp_path / ("fakerun_lat.%d.log" % (w + 1)))
        clat = read_log(tmp_path / ("fakerun_clat.%d.log" % (w + 1)))
        assert len(bw) == len(iops) == len(lat) == rj.nint
        prev = 0
        for k in range(rj.nint):
            _, end, c, _, _ = rj.record(w, k)
            span = end - prev
            prev = end
            ms = end // 10**6
            assert bw[k] == [ms, int(len(c) * 4096 * 10**9 / span / 1024), 0, 0, 0], (w, k)
            assert iops[k] == [ms, int(len(c) * 10**9 / span), 0, 0, 0], (w, k)
            assert lat[k] == clat[k] == [ms, sum(c) // len(c), 0, 0, 0], (w, k)
    assert not os.path.exists(str(tmp_path / "t_bw.3.log"))


def test_fio_hist_log(fakerun, geo, tmp_path):
    """Every 500 ms (two series intervals), fio's 1856 bins of the I/Os."""
    rj, rc, out, err = logged_run(fakerun, geo, tmp_path, "--write_hist_log=h",
                                  "--log_hist_msec=500", "--log_avg_msec=250", "--runtime=2",
                                  "--bs=4k")
    assert rc == 0, err
    for w in range(2):
        rows = read_log(tmp_path / ("h_clat_hist.%d.log" % (w + 1)))
        assert len(rows) == rj.nint // 2
        for j, row in enumerate(rows):
            ks = (2 * j, 2 * j + 1)
            assert row[:3] == [rj.record(w, ks[1])[1] // 10**6, 0, 4096]
            bins = row[3:]
            assert len(bins) == FIO_PLAT_NR
            want = [0] * FIO_PLAT_NR
            for k in ks:
                for v in rj.clat[k][w]:
                    want[fio_plat_idx(bucket_value(geo, geo.index(v)))] += 1
            assert bins == want, (w, j)


def test_fio_logs_default_interval_note(fakerun, geo, tmp_path):
    rj, rc, out, err = logged_run(fakerun, geo, tmp_path, "--write_iops_log", "--runtime=2")
    assert rc == 0, err
    assert "note: fio logs each I/O without log_avg_msec" in err and "500 ms" in err
    assert os.path.exists(str(tmp_path / "fakerun_iops.1.log"))


@pytest.mark.parametrize("args,needles", [
    (["--write_bw_log", "--log_avg_msec=soon", "--runtime=2"], ["log_avg_msec=soon"]),
    (["--write_hist_log", "--log_avg_msec=200", "--log_hist_msec=300", "--runtime=2"],
     ["log_hist_msec=300", "multiple"]),
    (["--write_bw_log", "--log_avg_msec=200", "--log_interval_ms=100", "--runtime=2"],
     ["log_avg_msec=200"]),
    (["--write_bw_log"], ["runtime"]),
])
def test_fio_log_options_refused(cli, args, needles):
    one_error_line(run(cli, "run", "--filename=/dev/x", *args), *needles)


def test_fio_log_options_parse(cli):
    a = parse_only(cli, "--write_lat_log=p", "--log_avg_msec=1s", "--runtime=3")
    assert a["log_interval_ms"] == "1000"
    assert "log_hist" not in a
    a = parse_only(cli, "--write_hist_log", "--log_hist_msec=2000", "--runtime=3")
    assert a["log_interval_ms"] == "2000" and a["log_hist"] == "1"
    a = parse_only(cli, "--write_bw_log=0", "--runtime=3")
    assert "log_interval_ms" not in a


def test_fio2gnuplot_reads_the_logs(fakerun, geo, tmp_path):
    """fio's fio2gnuplot (Debian's fio package) takes ssdload's bw and iops logs."""
    tool = shutil.which("fio2gnuplot")
    if not tool:
        pytest.skip("fio2gnuplot (Debian's fio package) is not installed")
    rj, rc, out, err = logged_run(fakerun, geo, tmp_path, "--write_bw_log=g",
                                  "--write_iops_log=g", "--log_avg_msec=250", "--runtime=2")
    assert rc == 0, err
    for kind, flag in (("bw", "-b"), ("iops", "-i")):
        d = tmp_path / ("plot-" + kind)
        p = subprocess.run([tool, flag, "-d", str(d)], cwd=str(tmp_path),
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "g_%s.1.log" % kind in p.stdout and "g_%s.2.log" % kind in p.stdout, p.stdout
        ours = {w: read_log(tmp_path / ("g_%s.%d.log" % (kind, w + 1))) for w in range(2)}
        for w in range(2):
            with open(str(d / ("gnuplot_temp_file.%d" % w))) as f:
                pts = [l.split() for l in f if l.strip() and not l.startswith("#")]
            got = [(float(t), int(v)) for _, t, v in pts]
            # the file order is fio2gnuplot's (a sorted glob): match by content
            assert got in ([(row[0] / 1000.0, row[1]) for row in ours[x]] for x in range(2)), \
                (kind, w, got[:3])
        assert (d / "result.average").exists()
