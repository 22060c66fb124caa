# SPDX-License-Identifier: GPL-2.0
"""debugfs: the result files exist per job, are root-only, and follow the contract."""

import os
import re
import stat
import time

import pytest

import ssdload_env as env

DIR_KEYS = ["ios", "bytes", "errors", "lat_min_ns", "lat_mean_ns", "lat_max_ns",
            "lat_stddev_ns", "lat_sum_ns", "lat_sumsq_ns2",
            "rate_iops", "rate_bps", "intended_ios", "intended_lat_min_ns",
            "intended_lat_mean_ns", "intended_lat_max_ns", "intended_lat_stddev_ns",
            "intended_lat_sum_ns", "intended_lat_sumsq_ns2", "late_ios", "behind_ns",
            "behind_ios", "behind_bytes"]
DIRS = ("read", "write", "trim")
SUMMARY_KEYS = (["version", "state", "error", "workers", "runtime_ns", "ramp_ns",
                 "start_real_ns", "start_at", "first_submit_real_ns", "start_error_ns",
                 "hipri", "polled", "disable_lat", "poll_fallback", "split_ios",
                 "nowait_retries", "io_timeout_ms", "timed_out_ios", "randseed",
                 "numjobs", "bs_min", "bs_max", "blockalign", "rate_process",
                 "late_threshold_ns", "log_interval_ms", "log_hist", "series_records",
                 "steps", "loops", "time_based", "think_ns", "think_pauses",
                 "cpu_ns", "usr_cpu_ns",
                 "sys_cpu_ns", "ctx", "cpu_ns_per_io",
                 "iodepth_level", "iodepth_submit", "iodepth_complete"] +
                [d + "_" + k for d in DIRS for k in DIR_KEYS] +
                ["fsync", "end_fsync", "sync", "write_barrier"] +
                ["sync_" + k for k in DIR_KEYS[:9]] +
                ["fua_writes", "barrier_writes", "devices"])
DEV_KEYS = (["name", "span_start", "span_bytes"] +
            [d + "_" + k for d in DIRS for k in ("done", "ios", "bytes", "errors", "lat_sum_ns")])
WORKER_KEYS = (["cpu", "ran_on", "pid", "cpu_ns", "ctx", "iodepth_level"] +
               [d + "_" + k for d in DIRS + ("sync",)
                for k in ("ios", "bytes", "errors", "lat_min_ns", "lat_max_ns", "lat_sum_ns")])
PROGRESS_KEYS = {"state", "elapsed_ns", "ramp_ns", "runtime_ns", "number_ios",
                 "read_ios", "write_ios", "trim_ios", "inflight", "timed_out_ios",
                 "stuck_ios", "cpu_ns", "step", "loop"}
FILES = {"summary", "progress", "hist_read", "hist_write", "hist_trim", "hist_sync",
         "hist_intended_read",
         "hist_intended_write", "hist_intended_trim", "series", "steps", "lease",
         "verify", "verify_state", "replay_stats", "hist_replay"}
# write-only: a replay job's record stream (Documentation/replay.rst)
WO_FILES = {"replay"}
POINTER = re.compile(r"(0x)?ffff[0-9a-f]{12}", re.I)


@pytest.mark.quick
def test_files_at_mkdir_root_only(ssdload, jobs):
    """mkdir creates debugfs NAME/ with its files, mode 0400, no pointers."""
    j = jobs("files")
    assert os.path.isdir(j.dbg), "no debugfs dir at mkdir"
    assert set(os.listdir(j.dbg)) == FILES | WO_FILES
    for f in FILES | WO_FILES:
        st = os.stat(os.path.join(j.dbg, f))
        mode = 0o200 if f in WO_FILES else 0o400
        assert stat.S_IMODE(st.st_mode) == mode, "%s mode %o" % (f, stat.S_IMODE(st.st_mode))
        assert st.st_uid == 0
    s = j.summary()
    assert s["state"] == "idle" and s["version"] == 1
    assert s["read_ios"] == 0 and s["write_ios"] == 0 and s["runtime_ns"] == 0
    h = j.hist("read")
    assert h.samples == 0 and h.total() == 0 and h.min_ns == 0


@pytest.mark.quick
def test_summary_layout(nullb, jobs):
    """summary: the contract's keys, in its order, all integers, then per-worker keys."""
    cpus = "0-1" if len(env.online_cpus()) >= 2 else "0"
    nw = len(env.parse_cpulist(cpus))
    j = jobs("layout", filename=nullb.path, rw="randrw", allow_write=1, bs=4096,
             iodepth=4, number_ios=3000, ramp_ms=100, cpus_allowed=cpus)
    before = time.time_ns()
    j.run(60)
    after = time.time_ns()
    text = j.summary_text()
    for pat in (POINTER,):
        assert not pat.search(text), "kernel pointer in summary: %s" % text
    keys = [l.split("=", 1)[0] for l in text.splitlines() if l.strip()]
    expect = (SUMMARY_KEYS + ["dev0_" + k for k in DEV_KEYS] +
              ["worker%d_%s" % (i, k) for i in range(nw) for k in WORKER_KEYS])
    assert keys == expect, "summary keys:\n%s\nexpected:\n%s" % (keys, expect)
    s = env.parse_kv(text)
    depth = [k for k in s if "iodepth_" in k]
    assert all(isinstance(v, int) for k, v in s.items()
               if k not in ("state", "poll_fallback", "dev0_name", "rate_process")
               and not k.endswith("_ran_on") and k not in depth), s
    # the depth maps: 7 counts each; every measured submission once, at depth <= 4
    for k in depth:
        counts = [int(x) for x in str(s[k]).split()]
        assert len(counts) == 7 and counts[3:] == [0, 0, 0, 0], (k, s[k])
    assert sum(int(x) for x in s["iodepth_level"].split()) == 3000, s["iodepth_level"]
    assert sum(sum(int(x) for x in str(s["worker%d_iodepth_level" % i]).split())
               for i in range(nw)) == 3000
    assert s["devices"] == 1 and s["dev0_name"] == nullb.path, s
    assert s["bs_min"] == s["bs_max"] == s["blockalign"] == 4096, s
    assert s["cpu_ns"] == s["usr_cpu_ns"] + s["sys_cpu_ns"] > 0, s
    assert s["cpu_ns_per_io"] > 0 and s["trim_ios"] == 0, s
    assert s["poll_fallback"] == "none" and s["split_ios"] == 0, s
    for i, cpu in enumerate(env.parse_cpulist(cpus)):
        assert s["worker%d_cpu" % i] == cpu and str(s["worker%d_ran_on" % i]) == str(cpu)
    assert s["workers"] == nw and s["ramp_ns"] == 100 * 10**6
    # the start on the wall clock: between enable and the end of the run
    assert before - 10**9 <= s["start_real_ns"] <= after, (before, s["start_real_ns"], after)
    assert s["read_ios"] + s["write_ios"] == 3000
    for d in ("read", "write"):
        assert s[d + "_bytes"] == s[d + "_ios"] * 4096
        assert s["dev0_%s_ios" % d] == s[d + "_ios"], s
        assert sum(s["worker%d_%s_bytes" % (i, d)] for i in range(nw)) == s[d + "_bytes"]
        assert s[d + "_lat_min_ns"] <= s[d + "_lat_mean_ns"] <= s[d + "_lat_max_ns"]
    for f in ("hist_read", "hist_write"):
        blob = open(os.path.join(j.dbg, f), "rb").read()
        h = env.Hist(blob)
        assert h.samples == s[("read" if f == "hist_read" else "write") + "_ios"]
        assert h.runtime_ns == s["runtime_ns"], (h.runtime_ns, s["runtime_ns"])


@pytest.mark.quick
def test_progress_while_running(nullb, jobs):
    """progress: running state, elapsed grows, configured limits echoed, counts grow."""
    j = jobs("prog", filename=nullb.path, rw="randread", bs=4096, iodepth=2,
             runtime_ms=2000, ramp_ms=200, number_ios=0)
    j.enable()
    p1 = j.progress()
    time.sleep(0.5)
    p2 = j.progress()
    assert set(p1) == PROGRESS_KEYS, sorted(p1)
    assert p1["state"] == p2["state"] == "running"
    assert p2["elapsed_ns"] > p1["elapsed_ns"] and p2["read_ios"] > p1["read_ios"]
    assert p2["runtime_ns"] == 2000 * 10**6 and p2["ramp_ns"] == 200 * 10**6
    assert p2["number_ios"] == 0 and p2["write_ios"] == 0 and p2["trim_ios"] == 0
    assert p2["cpu_ns"] > 0
    assert 0.4e9 <= p2["elapsed_ns"] <= 10e9
    # the summary is readable, and consistent, while the job runs
    s = j.summary()
    assert s["state"] == "running"
    j.wait(60)
    p3 = j.progress()
    assert p3["state"] == "done" and p3["read_ios"] >= p2["read_ios"]


@pytest.mark.quick
def test_module_param_defaults(ssdload, nullb, jobs):
    """bs and iodepth module params are the defaults a new job copies."""
    ssdload.reload("bs=8192", "iodepth=3")
    try:
        j = jobs("defaults", filename=nullb.path, number_ios=300)
        assert j.get("bs") == "8192" and j.get("iodepth") == "3"
        before = nullb.stat()
        s = j.run(60)
        d = env.stat_delta(before, nullb.stat())
        assert s["read_bytes"] == 300 * 8192 == d["read_bytes"]
        j.remove()
    finally:
        ssdload.reload()
    j = jobs("plain")
    assert j.get("bs") == "4096" and j.get("iodepth") == "1"
