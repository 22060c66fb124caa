# SPDX-License-Identifier: GPL-2.0
"""fio's sync options: fsync, fdatasync, end_fsync, sync, write_barrier.

Each maps to its configfs attribute (the --parse-only lines), from the
command line and from a job file; a value that cannot be honoured is
refused naming it.  The flushes the module reports (summary sync_*,
hist_sync) come out as fio's: the JSON's "sync" object with total_ios
and lat_ns (percentiles from the histogram), the normal output's
fsync/fdatasync/sync_file_range block and the fourth count of issued
rwts.  Expected values are computed here from the sample.
"""
import json
import os
import statistics

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, run
from debugfs import FakeJob, check_lat, lognormal

pytestmark = NEEDS_DEV


def parse_only(cli, *args):
    p = run(cli, "run", "--name=j", f"--filename={DEV}", "--parse-only", *args)
    return p, dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)


@pytest.mark.parametrize("opts,attrs", [
    (["--fsync=8"], {"fsync": "8"}),
    (["--fsync=1k"], {"fsync": "1024"}),
    (["--fdatasync=32"], {"fsync": "32"}),
    (["--fsync=4", "--fdatasync=4"], {"fsync": "4"}),
    (["--fsync=0"], {"fsync": "0"}),
    (["--end_fsync"], {"end_fsync": "1"}),
    (["--end_fsync=0"], {"end_fsync": "0"}),
    (["--sync=1"], {"sync": "1"}),
    (["--sync=sync"], {"sync": "1"}),
    (["--sync=dsync"], {"sync": "1"}),
    (["--sync=none"], {"sync": "0"}),
    (["--sync=0"], {"sync": "0"}),
    (["--write_barrier=16"], {"write_barrier": "16"}),
    (["--fsync=4294967295"], {"fsync": "4294967295"}),
])
def test_options_map_to_attributes(cli, tmp_path, opts, attrs):
    p, got = parse_only(cli, *opts)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    for k, v in attrs.items():
        assert got.get(k) == v, p.stdout
    f = tmp_path / "job.fio"
    f.write_text(f"[j]\nfilename={DEV}\n%s\n" % "\n".join(o[2:] for o in opts))
    p = run(cli, "run", "--parse-only", str(f))
    assert p.returncode == 0, p.stderr
    got = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
    for k, v in attrs.items():
        assert got.get(k) == v, p.stdout


@pytest.mark.parametrize("opts,end", [
    (["--fsync_on_close"], "1"),
    (["--fsync_on_close=1"], "1"),
    (["--fsync_on_close=1", "--end_fsync=0"], "1"),
    (["--fsync_on_close=1", "--end_fsync=1"], "1"),
    (["--fsync_on_close=0", "--end_fsync=1"], "1"),
    (["--fsync_on_close=0"], None),
])
def test_fsync_on_close_is_end_fsyncs_flush(cli, tmp_path, opts, end):
    """fio 3.33 flushes a writing job's files at the end of its I/O for
    end_fsync or fsync_on_close (do_io()): one end_fsync=1, noted, on the
    command line and in a job file."""
    on = any(o in ("--fsync_on_close", "--fsync_on_close=1") for o in opts)
    p, got = parse_only(cli, "--rw=write", *opts)
    assert p.returncode == 0, p.stderr
    assert got.get("end_fsync") == end, p.stdout
    notes = [l for l in p.stderr.splitlines() if l.strip()]
    if on:
        assert len(notes) == 1 and notes[0].startswith("ssdload: note: --fsync_on_close"), notes
        assert "end_fsync's" in notes[0] and "a flush per device" in notes[0], notes
    else:
        assert notes == [], notes
    f = tmp_path / "job.fio"
    f.write_text(f"[j]\nfilename={DEV}\nrw=write\n%s\n" % "\n".join(o[2:] for o in opts))
    p = run(cli, "run", "--parse-only", str(f))
    assert p.returncode == 0, p.stderr
    got = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
    assert got.get("end_fsync") == end, p.stdout
    assert on == ("job.fio:4: fsync_on_close" in p.stderr), p.stderr


def test_fsync_on_close_is_refused_as_end_fsync_is(cli):
    one_error_line(parse_only(cli, "--fsync_on_close=2")[0], "--fsync_on_close=2", "0 or 1")


def test_not_given_not_written(cli):
    """Older modules lack the attributes: nothing is written unless given."""
    p, got = parse_only(cli, "--rw=write")
    assert p.returncode == 0, p.stderr
    assert not {"fsync", "end_fsync", "sync", "write_barrier"} & set(got), p.stdout


@pytest.mark.parametrize("opt,needle", [
    ("--sync=maybe", "none, 0, sync, 1 or dsync"),
    ("--fsync=-1", "non-negative integer"),
    ("--fsync=x", "non-negative integer"),
    ("--fsync=4294967296", "out of range"),
    ("--write_barrier=8g", "out of range"),
    ("--end_fsync=2", "0 or 1"),
])
def test_bad_values_refused_naming_them(cli, opt, needle):
    one_error_line(parse_only(cli, opt)[0], opt, needle)


def test_fsync_and_fdatasync_must_agree(cli, tmp_path):
    one_error_line(parse_only(cli, "--fsync=4", "--fdatasync=8")[0], "--fdatasync=8",
                   "differs from fsync")
    f = tmp_path / "job.fio"
    f.write_text(f"[j]\nfilename={DEV}\nfsync=4\nfdatasync=8\n")
    one_error_line(run(cli, "run", "--parse-only", str(f)), "job.fio:4: fdatasync=8")


def _sync_keys(sample, errors=0):
    n = len(sample)
    return ("fsync=8", "end_fsync=1", "sync=0", "write_barrier=0",
            "sync_ios=%d" % n, "sync_bytes=0", "sync_errors=%d" % errors,
            "sync_lat_min_ns=%d" % min(sample), "sync_lat_mean_ns=%d" % round(sum(sample) / n),
            "sync_lat_max_ns=%d" % max(sample),
            "sync_lat_stddev_ns=%d" % round(statistics.pstdev(sample)),
            "sync_lat_sum_ns=%d" % sum(sample),
            "sync_lat_sumsq_ns2=%d" % sum(v * v for v in sample),
            "fua_writes=5", "barrier_writes=2")


@pytest.fixture
def flushed(geo, tmp_path):
    """A job of 4000 writes and 501 flushes, with its hist_sync."""
    flushes = lognormal(7, 501, 900_000, 0.5)
    job = FakeJob(geo, str(tmp_path), "flushed", [], lognormal(8, 4000, 30_000, 0.4),
                  extra=_sync_keys(flushes))
    with open(os.path.join(job.dir, "hist_sync"), "wb") as f:
        f.write(geo.hist_file(flushes, 3, job.runtime_ns))
    job.flushes = flushes
    job.env = {"SSDLOAD_DEBUGFS": str(tmp_path),
               "SSDLOAD_CONFIGFS": str(tmp_path / "no-configfs")}
    return job


def test_json_sync_object(cli, flushed):
    p = run(cli, "show", "flushed", "--output-format=json", env=flushed.env)
    assert p.returncode == 0, p.stderr
    job = json.loads(p.stdout)["jobs"][0]
    assert job["sync"]["total_ios"] == len(flushed.flushes)
    check_lat(job["sync"]["lat_ns"], flushed.flushes)
    assert job["ssdload"]["fua_writes"] == 5 and job["ssdload"]["barrier_writes"] == 2
    # the writes keep their own latencies
    check_lat(job["write"]["clat_ns"], flushed.writes, percentiles=False)


def test_normal_output_sync_block(cli, flushed):
    p = run(cli, "show", "flushed", env=flushed.env)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    i = lines.index("  fsync/fdatasync/sync_file_range:")
    s = sorted(flushed.flushes)
    assert lines[i + 1].startswith("    sync (usec): min=%d, max=%d, avg=%.2f"
                                   % (s[0] // 1000, s[-1] // 1000,
                                      statistics.fmean(s) / 1000)), lines[i + 1]
    assert lines[i + 2].startswith("    sync percentiles ("), lines[i + 2]
    assert any(l.startswith("     issued rwts: total=0,4000,0,501 ") for l in lines), \
        p.stdout
    assert "  fua writes   : 5 (of them 2 barriers: PREFLUSH+FUA)" in lines


def test_no_flushes_no_sync_block(cli, fake):
    """A summary without sync_* keys (an older module): zeros, as before."""
    p = run(cli, "show", fake.name, env=fake.env)
    assert p.returncode == 0, p.stderr
    assert "fsync/fdatasync" not in p.stdout
    assert any(l.startswith("     issued rwts: total=%d,%d,0,0 " % (
        len(fake.reads), len(fake.writes))) for l in p.stdout.splitlines()), p.stdout
    p = run(cli, "show", fake.name, "--output-format=json", env=fake.env)
    job = json.loads(p.stdout)["jobs"][0]
    assert job["sync"] == {"total_ios": 0, "lat_ns": {"min": 0, "max": 0, "mean": 0.0,
                                                      "stddev": 0.0, "N": 0}}


def _worker_sync_keys(i, sample):
    n = len(sample)
    return ("worker%d_sync_ios=%d" % (i, n), "worker%d_sync_bytes=0" % i,
            "worker%d_sync_errors=0" % i,
            "worker%d_sync_lat_min_ns=%d" % (i, min(sample) if n else 0),
            "worker%d_sync_lat_max_ns=%d" % (i, max(sample) if n else 0),
            "worker%d_sync_lat_sum_ns=%d" % (i, sum(sample)))


@pytest.mark.parametrize("per_worker", [True, False])
def test_clones_count_their_own_flushes(cli, geo, tmp_path, per_worker):
    """fio 3.33 (psync, numjobs=2, fsync=4, 64 writes each): each clone's
    sync object counts its own fsyncs (15 and 15), group_reporting their
    sum.  ssdload's clones take their worker's workerN_sync_* (a module
    that keeps flushes per job only: zeros); --group_reporting the job's."""
    flushes = lognormal(21, 300, 700_000, 0.5)
    shares = [flushes[:180], flushes[180:]]		# worker 0 flushed more
    extra = ["numjobs=2"] + list(_sync_keys(flushes))
    if per_worker:
        for i, s in enumerate(shares):
            extra += _worker_sync_keys(i, s)
    job = FakeJob(geo, str(tmp_path), "clones", [], lognormal(22, 2000, 30_000, 0.4),
                  workers=(0, 1), extra=extra)
    with open(os.path.join(job.dir, "hist_sync"), "wb") as f:
        f.write(geo.hist_file(flushes, 3, job.runtime_ns))
    env = {"SSDLOAD_DEBUGFS": str(tmp_path), "SSDLOAD_CONFIGFS": str(tmp_path / "none")}
    p = run(cli, "show", "clones", "--output-format=json", env=env)
    assert p.returncode == 0, p.stderr
    jobs = json.loads(p.stdout)["jobs"]
    assert len(jobs) == 2
    for s, j in zip(shares, jobs):
        got = j["sync"]
        if not per_worker:
            assert got["total_ios"] == 0 and got["lat_ns"]["N"] == 0, got
            continue
        assert got["total_ios"] == len(s), got
        lat = got["lat_ns"]
        assert (lat["min"], lat["max"], lat["N"]) == (min(s), max(s), len(s))
        assert lat["mean"] == pytest.approx(statistics.fmean(s), rel=1e-9)
        assert "percentile" not in lat and "stddev" not in lat	# not kept per worker
    if per_worker:
        assert sum(j["sync"]["total_ios"] for j in jobs) == len(flushes)
    p = run(cli, "show", "clones", "--output-format=json", "--group_reporting", env=env)
    assert p.returncode == 0, p.stderr
    (j,) = json.loads(p.stdout)["jobs"]
    assert j["sync"]["total_ios"] == len(flushes)
    check_lat(j["sync"]["lat_ns"], flushes)
