# SPDX-License-Identifier: GPL-2.0
"""Steps in the ssdload CLI without a kernel module.

--step/--steps/--loops are checked through --parse-only (what would be
written under steps/N), and against the fake configfs of lib/fakemodule.py
(its LD_PRELOAD shim and FakeModule); the per-step report is checked with
`ssdload show` on a fake debugfs job whose binary `steps` file is built
here from known samples (layout from uapi/ssdload.h), every expected value
computed in Python from those samples.
"""
import json
import math
import os
import re
import signal
import statistics
import struct

import pytest

from blockdev import DEV, NEEDS_DEV
from cli import one_error_line, parse_only, run
from debugfs import FakeJob, check_lat, exact_percentile, lognormal
from fakemodule import FAKE_ATTRS

pytestmark = NEEDS_DEV

STEP_ATTRS = ("rw", "rwmixread", "bs", "bssplit", "iodepth", "rate_iops", "rate",
              "runtime_ms", "ramp_ms", "number_ios", "idle_ms", "numjobs", "blockalign")
RW = ["read", "write", "randread", "randwrite", "rw", "randrw", "trim", "randtrim",
      "trimwrite", "randtrimwrite"]


def po(cli, *args):
    """--parse-only: the job's attributes and each step's, {N: {attr: value}}."""
    kv = parse_only(cli, "--runtime=10", *args)
    steps = {}
    for k in list(kv):
        m = re.fullmatch(r"steps/(\d+)/(\w+)", k)
        if m:
            steps.setdefault(int(m.group(1)), {})[m.group(2)] = kv.pop(k)
    return kv, steps


# --------------------------------------------------------------------------
# --step, --steps, --loops

def test_step_conversions(cli):
    kv, steps = po(cli, "--step=rw=randread,bs=4k,iodepth=1,runtime=2s,ramp_time=500ms",
                   "--step", "rw=randrw rwmixwrite=30 bssplit=4k/50:64k/50 number_ios=1000",
                   "--step=idle=5s",
                   "--step=iodepth=8,rate_iops=100,,50,ramp-time=1",
                   "--step=rate=1m,2m,blocksize=8k",
                   "--loops=3")
    assert kv["loops"] == "3"
    assert steps == {
        1: {"rw": "randread", "bs": "4096", "iodepth": "1", "runtime_ms": "2000",
            "ramp_ms": "500"},
        2: {"rw": "randrw", "rwmixread": "70", "bssplit": "4096/50:65536/50",
            "number_ios": "1000"},
        3: {"idle_ms": "5000"},
        4: {"iodepth": "8", "rate_iops": "100,,50", "ramp_ms": "1000"},
        5: {"rate": "1048576,2097152,2097152", "bs": "8192"},
    }


def test_step_attributes_are_module_names(cli, repo):
    """Every attribute the CLI writes in a step is one uapi lists."""
    text = open(os.path.join(repo, "uapi", "ssdload.h")).read()
    m = re.search(r"#define\s+SSDLOAD_STEP_ATTRS\s+((?:.*\\\n)*.*)", text)
    uapi = set(re.findall(r'"(\w+)"', m.group(1)))
    assert uapi == set(STEP_ATTRS)
    _, steps = po(cli, "--numjobs=2", "--step=rw=randrw,rwmixread=10,bs=4k,iodepth=2,"
                  "rate_iops=5,runtime=1,ramp_time=1,number_ios=3,numjobs=2",
                  "--step=bssplit=4k/100,rate=1m,blockalign=512", "--step=idle=1")
    assert steps[1]["numjobs"] == "2" and "numjobs" not in steps[2]
    assert steps[2]["blockalign"] == "512" and "blockalign" not in steps[1]
    written = {a for s in steps.values() for a in s}
    assert written == uapi


def test_steps_file(cli, tmp_path):
    f = tmp_path / "plan.txt"
    f.write_text("# a QD sweep\n"
                 "\n"
                 "rw=randread bs=4k iodepth=1   # comment\n"
                 "  iodepth=4,runtime=3s\r\n"
                 "   # only a comment\n"
                 "idle=250ms\n"
                 "iodepth=16 rate_iops=1000,500")
    _, steps = po(cli, "--step=iodepth=2", "--steps=%s" % f, "--step=iodepth=32")
    assert steps == {1: {"iodepth": "2"},
                     2: {"rw": "randread", "bs": "4096", "iodepth": "1"},
                     3: {"iodepth": "4", "runtime_ms": "3000"},
                     4: {"idle_ms": "250"},
                     5: {"iodepth": "16", "rate_iops": "1000,500,500"},
                     6: {"iodepth": "32"}}


def test_no_steps_writes_nothing(cli):
    kv, steps = po(cli)
    assert not steps and "loops" not in kv


def test_step_uncaps_rate(cli):
    """0 uncaps a step of a capped job (the module's meaning in a step)."""
    _, steps = po(cli, "--rate_iops=500", "--step=rate_iops=0", "--step=rate=0,iodepth=2",
                  "--step=iodepth=1", "--disable_lat=0")
    assert steps[1] == {"rate_iops": "0"} and steps[2] == {"rate": "0", "iodepth": "2"}


def test_loops_without_steps(cli):
    """A job without steps repeats itself: its pass over the span (as fio's
    loops), its runtime or its count."""
    assert po(cli, "--loops=3")[0]["loops"] == "3"
    kv = po(cli, "--loops=2")[0]			# po() gives a runtime
    assert kv["loops"] == "2" and kv["time_based"] == "0", kv
    kv = po(cli, "--loops=2", "--time_based")[0]
    assert kv["loops"] == "2" and "time_based" not in kv, kv
    for n in ("1", "2"):
        p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--loops=" + n)
        assert p.returncode == 0 and "loops=%s\n" % n in p.stdout, p.stderr
        assert "time_based" not in p.stdout


@pytest.mark.parametrize("args,needles", [
    (["--step=bogus=1"], ["--step=bogus=1", "unknown key 'bogus'"]),
    (["--step=rw=randread,filename=/dev/x"], ["unknown key 'filename'"]),
    (["--step=bs=4q"], ["--step=bs=4q: bs=4q", "not a size"]),
    (["--step=iodepth=many"], ["iodepth=many"]),
    (["--step=rw=sideways"], ["rw=sideways"]),
    (["--step=runtime=soon"], ["runtime=soon", "not a time"]),
    (["--step=rwmixread=101"], ["rwmixread=101", "percentage"]),
    (["--step=rate_iops=0,5"], ["rate_iops=0,5"]),
    (["--step=rw=trimwrite"], ["rw=trimwrite", "not in a step"]),
    (["--step=idle=1", "--step=idle=2"], ["only idle steps"]),
    (["--step=iodepth=1", "--disable_lat"], ["--disable_lat", "not with steps"]),
    (["--step=bssplit=4k/70:8k/70"], ["bssplit=4k/70:8k/70"]),
    (["--step=idle=0"], ["idle=0"]),
    (["--step=idle=soon"], ["idle=soon"]),
    (["--step=idle=1s,iodepth=2"], ["idle takes no other key"]),
    (["--step=randread"], ["'randread' is not key=value"]),
    (["--step=rw=read,=4"], ["is not key=value"]),
    (["--step="], ["empty step"]),
    (["--step=bs="], ["bs=: empty value"]),
    (["--step=bs=4k,bs=8k"], ["bs given twice"]),
    (["--step=bs=4k,8k"], ["bs=4k,8k", "one block size"]),
    (["--step=rate=1m,rate_iops=5"], ["both cap"]),
    (["--loops=0", "--step=iodepth=1"], ["--loops=0"]),
    (["--loops=x", "--step=iodepth=1"], ["--loops=x"]),
    (["--numjobs=4", "--step=numjobs=0"], ["numjobs=0", "1 to 1024"]),
    (["--numjobs=4", "--step=numjobs=1025"], ["numjobs=1025", "1 to 1024"]),
    (["--numjobs=4", "--step=numjobs=lots"], ["numjobs=lots"]),
    (["--numjobs=2", "--step=numjobs=3"], ["--step=numjobs=3", "the job has 2 workers",
                                           "--numjobs=3 or more"]),
    (["--step=numjobs=2"], ["the job has 1 worker:", "--numjobs=2"]),
    (["--numjobs=2", "--step=idle=1,numjobs=1"], ["idle takes no other key"]),
])
def test_step_errors(cli, args, needles):
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--runtime=1", *args)
    one_error_line(p, *needles)
    assert p.stdout == ""


def test_step_unbounded(cli):
    """Without the job's --runtime or --number_ios a step needs its own."""
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--step=runtime=1",
            "--step=iodepth=4")
    one_error_line(p, "--step=iodepth=4", "step 2 never ends")
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--runtime=1",
            "--step=runtime=0")
    one_error_line(p, "step 1 never ends")
    for ok in (["--number_ios=10", "--step=iodepth=4"], ["--step=number_ios=5"],
               ["--step=idle=1", "--step=runtime=1"]):
        p = run(cli, "run", f"--filename={DEV}", "--parse-only", *ok)
        assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("text,line,needles", [
    ("iodepth=1\n\nbs=12z\n", 3, ["bs=12z", "not a size"]),
    ("# x\nfrob=1\n", 2, ["unknown key 'frob'"]),
    ("iodepth=1\nrandread\n", 2, ["'randread' is not key=value"]),
])
def test_steps_file_errors(cli, tmp_path, text, line, needles):
    f = tmp_path / "steps.txt"
    f.write_text(text)
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--runtime=1", "--steps=%s" % f)
    one_error_line(p, "%s:%d: " % (f, line), *needles)


def test_steps_file_missing_or_empty(cli, tmp_path):
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--runtime=1",
            "--steps=%s" % (tmp_path / "none"))
    one_error_line(p, "--steps=%s" % (tmp_path / "none"), os.strerror(2))
    f = tmp_path / "empty"
    f.write_text("# nothing\n\n")
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--runtime=1", "--steps=%s" % f)
    one_error_line(p, "no steps")


def test_too_many_steps(cli, tmp_path):
    f = tmp_path / "many"
    f.write_text("iodepth=1\n" * 4096)
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--runtime=1", "--steps=%s" % f)
    assert p.returncode == 0 and "steps/4096/iodepth=1" in p.stdout
    p = run(cli, "run", f"--filename={DEV}", "--parse-only", "--runtime=1", "--steps=%s" % f,
            "--step=iodepth=2")
    one_error_line(p, "too many steps", "4096")


def test_run_usage_lists_step_options(cli):
    out = run(cli, "help", "run").stdout
    for o in ("--step=SPEC", "--steps=FILE", "--loops=N"):
        assert o in out, o


# --------------------------------------------------------------------------
# run against the fake module: steps/N created before enable, removed first

FEATURES = "\n".join(FAKE_ATTRS + ("loops",)) + "\n"


@pytest.fixture
def steprun(fakerun, tmp_path):  # noqa: F811
    """fakerun of a module with steps: features, the loops attribute, steps/."""
    def make(features=FEATURES, step_attrs=STEP_ATTRS, **kw):
        r = fakerun(attrs=FAKE_ATTRS + ("loops",), step_attrs=step_attrs, **kw)
        if features is not None:
            (tmp_path / "cfs" / "features").write_text(features)
        return r
    return make


def step_files(r):
    d = r.root / "cfs" / "jobs" / r.name / "steps"
    return {int(n): {a: (d / n / a).read_text() for a in os.listdir(d / n)
                     if (d / n / a).read_text()}
            for n in os.listdir(d)}


def test_fake_run_steps_written_and_removed(steprun):
    r = steprun(drain=0.1).start("--step=iodepth=1,bs=8k", "--step=idle=2s",
                                 "--step=iodepth=4", "--loops=2").wait_running()
    assert step_files(r) == {1: {"iodepth": "1", "bs": "8192"}, 2: {"idle_ms": "2000"},
                             3: {"iodepth": "4"}}
    assert (r.root / "cfs" / "jobs" / r.name / "loops").read_text() == "2"
    r.kill(signal.SIGINT)
    rc, out, err = r.finish()
    assert rc == 130, err
    assert not r.job_exists(), "the job (or a step) was left behind"


def test_fake_run_steps_normal_end(steprun):
    r = steprun(runtime=0.3).start("--step=iodepth=2", "--step=iodepth=4")
    rc, out, err = r.finish()
    assert rc == 0 and err == "", err
    assert not r.job_exists()


def test_fake_run_step_attribute_failure_removes_all(steprun):
    """A step attribute the module lacks: named with its steps/N path, and
    the steps and the job are removed."""
    r = steprun(step_attrs=tuple(a for a in STEP_ATTRS if a != "rate_iops"))
    r.start("--step=iodepth=2", "--step=rate_iops=100")
    rc, out, err = r.finish()
    assert rc == 1
    assert err.startswith("ssdload: steps/2/rate_iops=100: " + os.strerror(2)), err
    assert not r.job_exists(), "the job (or a step) was left behind"


@pytest.mark.parametrize("features,needle", [
    ("\n".join(FAKE_ATTRS) + "\n", "has no steps"),
    (None, "cannot tell"),
])
def test_fake_run_module_without_steps(steprun, features, needle):
    r = steprun(features=features).start("--step=iodepth=2")
    rc, out, err = r.finish()
    assert rc == 1 and needle in err, err
    assert len(err.splitlines()) == 1, err
    assert not r.job_exists() and not r.module.running.is_set()


def test_fake_run_steps_kept_job_says_how_to_remove(steprun):
    """Results that cannot be printed keep the job: the rmdir hint takes the
    steps first."""
    with open("/dev/full", "w") as full:
        r = steprun(runtime=0.2).start("--step=iodepth=2", stdout=full)
        rc, _, err = r.finish()
    assert rc == 1
    assert r.job_exists()
    jobs = r.root / "cfs" / "jobs"
    assert "then rmdir %s/%s/steps/* %s/%s" % (jobs, r.name, jobs, r.name) in err, err


# --------------------------------------------------------------------------
# the debugfs steps file, in the reports

def uapi_const(repo, name):
    text = open(os.path.join(repo, "uapi", "ssdload.h")).read()
    return int(re.search(r"#define\s+%s\s+(0x[0-9a-fA-F]+|\d+)" % name, text).group(1), 0)


STEPS_HDR = "=IHHIIIIIIIIQ"                 # struct ssdload_steps_header
STEPS_REC = "=8I4Q3Q3Q4Q"                   # struct ssdload_steps_rec up to dir[]
STEPS_DIR = "=15Q2I"                        # struct ssdload_steps_dir
STEPS_TAIL = "=2I"                          # numjobs, blockalign: after dir[]


class Step:
    """One step: its parameters and per-direction latency samples (ns)."""

    def __init__(self, nr, rw="randread", iodepth=1, bs=4096, runtime_ns=1_000_000_000,
                 reads=(), writes=(), rate_iops=(0, 0, 0), rate=(0, 0, 0), idle_ms=0,
                 gaps=(), intended=None, loops_done=1, hist=True, rwmixread=50, numjobs=0,
                 blockalign=0):
        self.__dict__.update(locals())
        del self.__dict__["self"]
        self.samples = [sorted(reads), sorted(writes), []]


def steps_file(geo, repo, steps, loops=1, workers=2, magic=None, version=None,
               record_pad=0, truncate=0, old=False):
    """The debugfs steps file of @steps; @old: records without numjobs (a
    module before step numjobs)."""
    tail = b"" if old else struct.pack(STEPS_TAIL, 0, 0)
    recs, hists = b"", b""
    for s in steps:
        dirs, dhist = b"", b""
        for d in range(3):
            sample = s.samples[d]
            n = len(sample)
            sumsq = sum(v * v for v in sample)
            inten = s.intended if (s.intended and d == 0) else []
            flags = (1 if n and s.hist else 0) | (2 if inten and s.hist else 0)
            dirs += struct.pack(STEPS_DIR, n, n * s.bs, 0, n,
                                min(sample) if n else 0, max(sample) if n else 0,
                                sum(sample), sumsq >> 64, sumsq & (2**64 - 1), 0,
                                len(inten), min(inten) if inten else 0,
                                max(inten) if inten else 0, sum(inten),
                                sum(1 for v in inten if v > 1_000_000), flags, 0)
            for sm, bit in ((sample, 1), (inten, 2)):
                if flags & bit:
                    counts = [0] * geo.buckets
                    for v in sm:
                        counts[geo.index(v)] += 1
                    dhist += struct.pack("=%dQ" % geo.buckets, *counts)
        rec = struct.pack(STEPS_REC, s.nr, 1 if s.idle_ms else 0, RW.index(s.rw),
                          s.rwmixread, s.iodepth, s.bs, s.bs, s.loops_done,
                          0 if s.idle_ms else 1000, 0, 0, s.idle_ms, *s.rate_iops,
                          *s.rate, 0 if s.idle_ms else s.runtime_ns,
                          max(s.gaps) if s.gaps else 0, sum(s.gaps), len(s.gaps))
        if not old:
            # the module writes the workers that issued: the step's numjobs,
            # else all of the job's; 0 for an idle step
            tail = struct.pack(STEPS_TAIL, 0 if s.idle_ms else s.numjobs or workers,
                               s.blockalign)
        recs += rec + dirs + tail + b"\0" * record_pad
        hists += dhist
    rsize = struct.calcsize(STEPS_REC) + 3 * struct.calcsize(STEPS_DIR) + len(tail) + record_pad
    hdr = struct.pack(STEPS_HDR,
                      uapi_const(repo, "SSDLOAD_STEPS_MAGIC") if magic is None else magic,
                      uapi_const(repo, "SSDLOAD_STEPS_VERSION") if version is None else version,
                      struct.calcsize(STEPS_HDR), rsize, len(steps), loops, workers,
                      geo.sub_bits, geo.max_shift, geo.buckets, 0, len(hists))
    data = hdr + recs + hists
    return data[:len(data) - truncate] if truncate else data


def sweep(geo):
    """Three I/O steps and an idle one, the third rate controlled and mixed."""
    return [
        Step(1, iodepth=1, reads=lognormal(11, 3000, 80_000, 0.3), runtime_ns=2_000_000_000),
        Step(2, iodepth=8, reads=lognormal(12, 9000, 300_000, 0.5),
             runtime_ns=1_500_000_000, gaps=(1_500, 2_500, 4_000)),
        Step(3, idle_ms=5000),
        Step(4, rw="randrw", rwmixread=70, iodepth=4, bs=8192,
             reads=lognormal(13, 30000, 120_000, 0.4), writes=lognormal(14, 10000, 40_000, 0.6),
             rate_iops=(700, 300, 0), intended=lognormal(15, 30000, 150_000, 0.5),
             runtime_ns=1_000_000_000),
    ]


@pytest.fixture
def stepjob(geo, repo, tmp_path):
    root = tmp_path / "debugfs"
    job = FakeJob(geo, str(root), "stepjob", lognormal(1, 2000, 100_000, 0.5),
                  lognormal(2, 500, 30_000, 0.5))
    job.env = {"SSDLOAD_DEBUGFS": str(root),
               "SSDLOAD_CONFIGFS": str(tmp_path / "no-configfs")}
    job.steps = sweep(geo)
    job.write_steps = lambda data: open(os.path.join(job.dir, "steps"), "wb").write(data)
    job.write_steps(steps_file(geo, repo, job.steps, loops=2))
    return job


def show(cli, job, *extra):
    return run(cli, "show", job.name, *extra, env=job.env)


def show_json(cli, job, *extra):
    p = show(cli, job, "--output-format=json", *extra)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


FIO_PERCENTILES = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
                   99.95, 99.99]


def check_step_lat(geo, lat, sample):
    """check_lat() for a step's smaller samples: each percentile in the
    bucket of the sample of its rank, or of a neighbour (a sparse tail)."""
    s = sorted(sample)
    check_lat(lat, s, percentiles=False)
    keys = ["%f" % p for p in FIO_PERCENTILES]
    assert list(lat["percentile"]) == keys
    for p, k in zip(FIO_PERCENTILES, keys):
        got = lat["percentile"][k]
        rank = max(1, math.ceil(p / 100.0 * len(s)))
        near = [geo.index(v) for v in s[max(0, rank - 2):rank + 1]]
        assert isinstance(got, int) and s[0] <= got <= s[-1]
        assert min(near) - 1 <= geo.index(got) <= max(near) + 1, (p, got, near)


def test_json_steps(cli, stepjob, geo):
    out = show_json(cli, stepjob)
    job = out["jobs"][0]
    st = job["steps"]
    assert [s["step"] for s in st] == [1, 2, 3, 4]
    # the totals stay where they were
    assert job["read"]["total_ios"] == 2000 and job["write"]["total_ios"] == 500
    for s, want in zip(st, stepjob.steps):
        assert s["idle_ms"] == want.idle_ms
        assert s["loops_done"] == 1
        p = s["params"]
        assert p["rw"] == want.rw and p["iodepth"] == want.iodepth
        assert p["bs_min"] == p["bs_max"] == want.bs
        assert p["rate_iops"] == list(want.rate_iops) and p["rate"] == [0, 0, 0]
        assert s["runtime_ns"] == (0 if want.idle_ms else want.runtime_ns)
        g = want.gaps
        assert s["gap_ns"] == {"max": max(g) if g else 0,
                               "mean": pytest.approx(sum(g) / len(g) if g else 0.0),
                               "count": len(g)}
        secs = want.runtime_ns / 1e9
        for d, name in enumerate(("read", "write", "trim")):
            x, sample = s[name], want.samples[d]
            n = len(sample)
            assert x["total_ios"] == n
            assert x["io_bytes"] == n * want.bs and x["io_kbytes"] == n * want.bs // 1024
            if want.idle_ms or not n:
                assert x["iops"] == 0 and x["bw_bytes"] == 0
                continue
            assert x["iops"] == pytest.approx(n / secs, rel=1e-6)
            assert x["bw_bytes"] == int(n * want.bs / secs)
            assert x["bw"] == x["bw_bytes"] // 1024
            assert x["runtime"] == round(want.runtime_ns / 1e6)
            check_step_lat(geo, x["clat_ns"], sample)
    # rate control: the intended latency of the rated direction only
    rd, wr = st[3]["read"], st[3]["write"]
    lat = rd["lat_from_intended_ns"]
    inten = sorted(stepjob.steps[3].intended)
    assert lat["N"] == len(inten) and lat["min"] == inten[0] and lat["max"] == inten[-1]
    assert lat["mean"] == pytest.approx(statistics.fmean(inten), rel=1e-9)
    assert "stddev" not in lat      # a step keeps no sum of squares of it
    p99 = lat["percentile"]["99.000000"]
    assert abs(p99 - exact_percentile(inten, 99)) <= exact_percentile(inten, 99) / 256 + 1
    assert rd["rate"]["iops_target"] == 700
    assert rd["rate"]["late_ios"] == sum(1 for v in inten if v > 1_000_000)
    assert "behind_ns" not in rd["rate"] and "fell_behind" not in rd["rate"]
    # writes are capped but carry no intended time (as trimwrite's): not rated
    assert "lat_from_intended_ns" not in wr and "rate" not in wr
    assert "lat_from_intended_ns" not in st[0]["read"]


def test_json_step_dirs_shaped_as_the_jobs(cli, stepjob):
    """Each step's read/write/trim has the keys and types of the job's own
    (the job's has no rate control here; a step adds errors)."""
    job = show_json(cli, stepjob)["jobs"][0]
    for s in job["steps"]:
        for name in ("read", "write", "trim"):
            ours = {k: type(v) for k, v in s[name].items()
                    if k not in ("errors", "lat_from_intended_ns", "rate")}
            theirs = {k: type(v) for k, v in job[name].items()}
            assert set(ours) - {"clat_ns", "lat_ns"} == set(theirs) - {"clat_ns", "lat_ns"}
            assert ours == {k: theirs[k] for k in ours}


def lat_text(ns):
    if ns >= 1e6:
        return "%.2fms" % (ns / 1e6)
    if ns >= 1e3:
        return "%.2fus" % (ns / 1e3)
    return "%.0fns" % ns


def parse_lat(text):
    for suffix, mult in (("ms", 1e6), ("us", 1e3), ("ns", 1)):
        if text.endswith(suffix):
            return float(text[:-len(suffix)]) * mult
    raise AssertionError(text)


def test_normal_steps_table(cli, stepjob):
    p = show(cli, stepjob)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    i = lines.index("Steps: 4, loops=2, workers=2")
    head = lines[i + 1].split()
    assert head == ["step", "what", "IOPS", "MiB/s", "lat", "mean", "lat", "p99",
                    "gap", "max", "gap", "mean"]
    rows = lines[i + 2:i + 6]
    assert "randread bs=4k iodepth=1 " in rows[0]
    assert "randread bs=4k iodepth=8 " in rows[1]
    assert "idle 5s " in rows[2]
    assert "randrw rwmixread=70 bs=8k iodepth=4 rate_iops=700,300, " in rows[3], rows[3]
    for row, want in zip(rows, stepjob.steps):
        cols = row.split()
        assert cols[0] == str(want.nr)
        if want.idle_ms:
            assert cols[-6:] == ["-"] * 6, row
            continue
        iops, mibs, mean, p99, gmax, gmean = cols[-6:]
        allv = want.samples[0] + want.samples[1]
        secs = want.runtime_ns / 1e9
        n = len(allv)
        assert float(mibs) == pytest.approx(n * want.bs / 1048576 / secs, abs=0.051)
        want_iops = n / secs
        if iops.endswith("k"):
            assert float(iops[:-1]) * 1000 == pytest.approx(want_iops, rel=0.01)
        else:
            assert int(iops) == round(want_iops)
        assert mean == lat_text(sum(allv) / n)
        exact = exact_percentile(sorted(allv), 99)
        assert abs(parse_lat(p99) - exact) <= exact / 256 + exact / 1000, (p99, exact)
        if want.gaps:
            assert parse_lat(gmax) == pytest.approx(max(want.gaps), rel=0.01)
            assert parse_lat(gmean) == pytest.approx(sum(want.gaps) / len(want.gaps),
                                                     rel=0.01)
        else:
            assert gmax == gmean == "-"


def test_no_steps_no_table(cli, stepjob, geo, repo):
    stepjob.write_steps(steps_file(geo, repo, []))
    p = show(cli, stepjob)
    assert p.returncode == 0 and "Steps:" not in p.stdout
    assert "steps" not in show_json(cli, stepjob)["jobs"][0]
    os.unlink(os.path.join(stepjob.dir, "steps"))
    assert show(cli, stepjob).returncode == 0
    assert "steps" not in show_json(cli, stepjob)["jobs"][0]


def test_steps_longer_records_accepted(cli, stepjob, geo, repo):
    """A newer module's longer records: record_size finds the next one."""
    stepjob.write_steps(steps_file(geo, repo, stepjob.steps, record_pad=16))
    st = show_json(cli, stepjob)["jobs"][0]["steps"]
    assert [s["read"]["total_ios"] for s in st] == [3000, 9000, 0, 30000]


def test_steps_numjobs(cli, stepjob, geo, repo):
    """A step's numjobs is in params and in the table (when not the job's);
    a module's records without it read as the job's workers."""
    stepjob.steps[0].numjobs = 1
    stepjob.steps[1].numjobs = 2
    stepjob.write_steps(steps_file(geo, repo, stepjob.steps, workers=2))
    st = show_json(cli, stepjob)["jobs"][0]["steps"]
    assert [s["params"]["numjobs"] for s in st] == [1, 2, 0, 2]
    out = show(cli, stepjob).stdout
    rows = [ln for ln in out.splitlines() if re.match(r"\s+\d+\s+\w", ln)]
    assert "numjobs=1" in rows[0] and "numjobs" not in rows[1], out
    stepjob.write_steps(steps_file(geo, repo, stepjob.steps, workers=2, old=True))
    st = show_json(cli, stepjob)["jobs"][0]["steps"]
    assert [s["params"]["numjobs"] for s in st] == [2, 2, 0, 2]


def test_steps_blockalign(cli, stepjob, geo, repo):
    """Each step's offset alignment is in params; a module that writes 0
    there (idle, or before it recorded one) gives none."""
    stepjob.steps[0].blockalign = 512
    stepjob.steps[1].blockalign = 4096
    stepjob.write_steps(steps_file(geo, repo, stepjob.steps))
    st = show_json(cli, stepjob)["jobs"][0]["steps"]
    assert [s["params"].get("blockalign") for s in st] == [512, 4096, None, None]


def test_steps_without_histograms(cli, stepjob, geo, repo):
    """disable_lat: no histograms, the summary figures and no percentiles."""
    for s in stepjob.steps:
        s.hist = False
    stepjob.write_steps(steps_file(geo, repo, stepjob.steps))
    st = show_json(cli, stepjob)["jobs"][0]["steps"]
    check_lat(st[0]["read"]["clat_ns"], stepjob.steps[0].samples[0], percentiles=False)
    assert "percentile" not in st[0]["read"]["clat_ns"]
    out = show(cli, stepjob).stdout
    row = [l for l in out.splitlines() if "iodepth=8" in l][0]
    assert row.split()[-3] == "-"       # no p99 without a histogram


@pytest.mark.parametrize("kw,needle", [
    ({"magic": 0x12345678}, "bad magic"),
    ({"version": 99}, "unsupported version"),
    ({"truncate": 8}, "does not match"),
])
def test_bad_steps_file_refused(cli, stepjob, geo, repo, kw, needle):
    stepjob.write_steps(steps_file(geo, repo, stepjob.steps, **kw))
    p = show(cli, stepjob)
    one_error_line(p, "/stepjob/steps: ", needle)


def test_steps_in_first_clone_only(cli, geo, repo, tmp_path):
    """numjobs > 1 without group_reporting: the steps are job-wide, in the
    first entry only (as the devices)."""
    root = tmp_path / "debugfs"
    job = FakeJob(geo, str(root), "clones", lognormal(3, 100, 50_000, 0.3), [],
                  workers=(0, 1), extra=("numjobs=2",))
    with open(os.path.join(job.dir, "steps"), "wb") as f:
        f.write(steps_file(geo, repo, sweep(geo)[:2]))
    env = {"SSDLOAD_DEBUGFS": str(root), "SSDLOAD_CONFIGFS": str(tmp_path / "x")}
    p = run(cli, "show", "clones", "--output-format=json", env=env)
    assert p.returncode == 0, p.stderr
    jobs = json.loads(p.stdout)["jobs"]
    assert len(jobs) == 2
    assert [s["step"] for s in jobs[0]["steps"]] == [1, 2] and "steps" not in jobs[1]
