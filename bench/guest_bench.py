#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Guest side of `make bench`: every measurement, in one guest.

Run by bench/bench.py inside a tests/qemu guest (the environment of
CONTRACT.md: SSDLOAD_KO, SSDLOAD_OUT, ...), plus BENCH_FLOOR_KO (the floor
module), BENCH_SECONDS (measured seconds per point, default 5), BENCH_ROUNDS
(default 3), BENCH_RAMP (seconds before the window opens, default 1) and
BENCH_PERF (1 = also record perf profiles of ssdload after the rounds) and
BENCH_ONLY (comma-separated parts of tool names: run only those rows).

Method (the same for every tool, so the rows compare):
  - the target is one null_blk: queue_mode=2 irqmode=0 hw_queue_depth=1024
    submit_queues=2 poll_queues=1;
  - each point is 4k random reads, one worker pinned to CPU 0, started for
    RAMP + SECONDS + 1 s; the window opens RAMP s after the start and lasts
    SECONDS s;
  - IOPS = completed reads in the window (/sys/block/nullb0/stat) / window;
  - CPU ns per I/O = (user+nice+system+irq+softirq of /proc/stat, all CPUs)
    over the window / completed reads;
  - each round runs every point once; odd rounds run them in reverse order;
    the value of a point is the median over the rounds.
Results: $SSDLOAD_OUT/results.json (bench/bench.py prints the table).
"""

import json
import os
import statistics
import subprocess
import sys
import time

CONFIGFS_JOBS = "/sys/kernel/config/ssdload/jobs"
FEATURES = "/sys/kernel/config/ssdload/features"
DEBUGFS = "/sys/kernel/debug/ssdload"
DEV = "/dev/nullb0"
NULLB_PARAMS = ["queue_mode=2", "irqmode=0", "hw_queue_depth=1024",
                "submit_queues=2", "poll_queues=1", "nr_devices=1"]

SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
RAMP = float(os.environ.get("BENCH_RAMP", "1"))
TAIL = 1.0
OUT = os.environ.get("SSDLOAD_OUT", "/tmp")
USER_HZ = os.sysconf("SC_CLK_TCK")


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


def sh(*cmd, check=True):
    return subprocess.run(cmd, check=check, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True).stdout


def read(path):
    with open(path) as f:
        return f.read()


def write(path, val):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, str(val).encode())
    finally:
        os.close(fd)


def cpu_busy_ns():
    """user+nice+system+irq+softirq of all CPUs, in ns."""
    f = read("/proc/stat").splitlines()[0].split()
    assert f[0] == "cpu"
    user, nice, system, _idle, _iowait, irq, softirq = map(int, f[1:8])
    return (user + nice + system + irq + softirq) * 1000000000 // USER_HZ


def dev_reads():
    """Completed reads and writes of the target (fields 1 and 5)."""
    f = read("/sys/block/nullb0/stat").split()
    return int(f[0]) + int(f[4])


def window():
    """Sleep RAMP, then measure SECONDS; (ios, wall_ns, cpu_ns)."""
    time.sleep(RAMP)
    r0, c0, t0 = dev_reads(), cpu_busy_ns(), time.monotonic_ns()
    time.sleep(SECONDS)
    r1, c1, t1 = dev_reads(), cpu_busy_ns(), time.monotonic_ns()
    return r1 - r0, t1 - t0, c1 - c0


# ---- tools ------------------------------------------------------------------

def features():
    try:
        return set(read(FEATURES).split())
    except OSError:
        return set()


def ssdload_point(qd, cpus="0", hipri=0, disable_lat=0, rw="randread", more=(), steps=0,
                  bs=4096):
    """One ssdload run; with @steps, the same time split into that many
    steps (jobs/NAME/steps/N) that inherit everything."""
    name = "bench"
    jd = os.path.join(CONFIGFS_JOBS, name)
    os.mkdir(jd)
    made = []
    try:
        total_ms = int((RAMP + SECONDS + TAIL) * 1000)
        attrs = [("filename", DEV), ("rw", rw), ("bs", bs),
                 ("iodepth", qd), ("cpus_allowed", cpus),
                 ("runtime_ms", total_ms // steps if steps else total_ms)]
        for n in range(1, steps + 1):
            made.append(os.path.join(jd, "steps", str(n)))
            os.mkdir(made[-1])
        if "write" in rw:
            attrs.append(("allow_write", 1))
        attrs.extend(more)
        if hipri:
            attrs.append(("hipri", 1))
        if disable_lat:
            attrs.append(("disable_lat", 1))
        for k, v in attrs:
            write(os.path.join(jd, k), v)
        before = dev_reads()
        write(os.path.join(jd, "enable"), 1)
        ios, wall, cpu = window()
        deadline = time.monotonic() + 60
        while read(os.path.join(jd, "state")).strip() == "running":
            if time.monotonic() > deadline:
                write(os.path.join(jd, "enable"), 0)
                raise RuntimeError("ssdload job did not end")
            time.sleep(0.1)
        state = read(os.path.join(jd, "state")).strip()
        # key=value, one per line (a value may hold spaces: the iodepth maps)
        summ = dict(l.split("=", 1) for l in
                    read(os.path.join(DEBUGFS, name, "summary")).splitlines() if l)
        total = dev_reads() - before
        d = "write" if "write" in rw else "read"
        extra = {"state": state, "summary_ios": int(summ[d + "_ios"]),
                 "dev_ios": total,
                 "summary_lat_mean_ns": int(summ[d + "_lat_mean_ns"])}
        if "cpu_ns_per_io" in summ:
            extra["summary_cpu_ns_per_io"] = int(summ["cpu_ns_per_io"])
        for k in ("hipri", "polled"):
            if k in summ:
                extra["summary_" + k] = summ[k]
        if state != "done":
            extra["error"] = read(os.path.join(jd, "error")).strip()
        if dict(more).get("verify"):
            vfy = dict(l.split("=", 1) for l in
                       read(os.path.join(DEBUGFS, name, "verify")).splitlines()
                       if l and not l.startswith("fail="))
            for k in ("verify_csum_ns", "verify_csum_bytes"):
                if k in vfy:
                    extra[k] = int(vfy[k])
        return ios, wall, cpu, extra
    finally:
        for d in reversed(made):
            os.rmdir(d)
        os.rmdir(jd)


def fio_point(qd, engine, opts=()):
    cmd = ["fio", "--name=bench", "--filename=" + DEV, "--rw=randread",
           "--bs=4k", "--direct=1", "--ioengine=" + engine,
           "--iodepth=%d" % qd, "--cpus_allowed=0", "--time_based",
           "--runtime=%g" % (RAMP + SECONDS + TAIL), "--size=1g",
           "--randrepeat=0", "--norandommap", "--output-format=json"] + list(opts)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # fio needs a moment to set up: open the window once I/O flows
    t0 = time.monotonic()
    r0 = dev_reads()
    while dev_reads() == r0 and p.poll() is None and time.monotonic() - t0 < 10:
        time.sleep(0.05)
    ios, wall, cpu = window()
    out, err = p.communicate(timeout=120)
    extra = {"cmd": " ".join(cmd[1:])}
    if p.returncode:
        raise RuntimeError("fio failed (%d): %s" % (p.returncode, err.strip()[-300:]))
    try:
        j = json.loads(out[out.index("{"):])
        extra["fio_iops"] = j["jobs"][0]["read"]["iops"]
    except (ValueError, KeyError, IndexError):
        pass
    return ios, wall, cpu, extra


def floor_point(nr_cpus=1):
    ko = os.environ.get("BENCH_FLOOR_KO")
    if not ko or not os.path.exists(ko):
        raise RuntimeError("no floor module (BENCH_FLOOR_KO)")
    p = subprocess.Popen(["insmod", ko, "path=" + DEV, "cpu=0", "nr_cpus=%d" % nr_cpus,
                          "seconds=%d" % int(RAMP + SECONDS + TAIL + 0.999)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ios, wall, cpu = window()
    out, _ = p.communicate(timeout=120)
    if p.returncode:
        raise RuntimeError("insmod floor failed: " + out.strip())
    par = "/sys/module/ssdload_floor/parameters/"
    extra = {"floor_ios": int(read(par + "ios")),
             "floor_elapsed_ns": int(read(par + "elapsed_ns")),
             "floor_result": int(read(par + "result"))}
    sh("rmmod", "ssdload_floor")
    return ios, wall, cpu, extra


URING_OPT = ["--fixedbufs=1", "--registerfiles=1", "--hipri=1"]
# SNIA PTS-E enterprise composite workload block sizes (weights in percent)
ECW_BSSPLIT = ("512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:"
               "16k/7:32k/3:64k/3")

# verify rows: no read-back (null_blk keeps no data), a 1 GiB span
VERIFY = [("do_verify", 0), ("size", 1 << 30)]

# the latest IOPS of each point ("name|qd"), for rows set relative to another
LAST = {}


def half_rate(key="ssdload|32"):
    """rate_iops at half of the unlimited row's latest IOPS (same guest, same
    round or the one before)."""
    if not LAST.get(key):
        raise RuntimeError("the rate row needs the %s row first" % key)
    return int(LAST[key] / 2)


# (row name, qd list, function(qd), required ssdload feature or None)
ROWS = [
    ("floor", [1], lambda qd: floor_point(), None),
    ("ssdload", [1, 32, 128], lambda qd: ssdload_point(qd), None),
    ("ssdload hipri", [1, 32, 128], lambda qd: ssdload_point(qd, hipri=1), "hipri"),
    ("fio io_uring", [1, 32, 128], lambda qd: fio_point(qd, "io_uring"), None),
    ("fio io_uring fixedbufs+regfiles+hipri", [1, 32, 128],
     lambda qd: fio_point(qd, "io_uring", URING_OPT), None),
    ("fio libaio", [1, 32, 128], lambda qd: fio_point(qd, "libaio"), None),
    ("fio pvsync2", [1], lambda qd: fio_point(qd, "pvsync2", ["--hipri=0"]), None),
    ("fio pvsync2 hipri", [1], lambda qd: fio_point(qd, "pvsync2", ["--hipri=1"]), None),
    ("ssdload disable_lat", [32], lambda qd: ssdload_point(qd, disable_lat=1),
     "disable_lat"),
    ("ssdload 2 workers", [32], lambda qd: ssdload_point(qd, cpus="0-1"), None),
    # workload primitives, against the plain rows at the same QD.  The
    # bssplit sizes are all 4k, so that the device does the same work and
    # the ratio is the cost of the two draws (size and zipf offset).
    ("ssdload bssplit+zipf", [32],
     lambda qd: ssdload_point(qd, more=[("bssplit", "4k/30:4k/30:4k/40"),
                                        ("random_distribution", "zipf:1.2")]),
     "bssplit"),
    ("ssdload bssplit ECW+zoned", [32],
     lambda qd: ssdload_point(qd, more=[("bssplit", ECW_BSSPLIT),
                                        ("random_distribution", "zoned:50/5:30/15:20/80")]),
     "bssplit"),
    ("ssdload randwrite", [32], lambda qd: ssdload_point(qd, rw="randwrite"), None),
    ("ssdload randwrite refill_buffers", [32],
     lambda qd: ssdload_point(qd, rw="randwrite", more=[("refill_buffers", 1)]),
     "refill_buffers"),
    # time: open-loop rate control at half the unlimited IOPS (so the
    # worker sleeps on its timer between sends), and a time series at
    # 100 ms with histogram deltas; CPU per I/O against the plain row
    ("ssdload rate 50%", [32],
     lambda qd: ssdload_point(qd, more=[("rate_iops", half_rate())]), "rate_iops"),
    ("ssdload log 100ms", [32],
     lambda qd: ssdload_point(qd, more=[("log_interval_ms", 100), ("log_hist", 1)]),
     "log_interval_ms"),
    # steps: the same run as 4 back-to-back steps (per-step histograms and
    # three hand-overs), CPU per I/O against the plain row
    ("ssdload 4 steps", [32], lambda qd: ssdload_point(qd, steps=4), "loops"),
    # verify (Documentation/verify.rst): the stamping of every written
    # block, CPU per I/O against the plain randwrite row.  null_blk keeps
    # no data, so no read-back (do_verify=0); the span is 1 GiB, for a
    # small generation map.  The debugfs verify file adds the checksum's
    # own speed, timed in the module at the job's end.
    ("ssdload randwrite verify=crc32c", [32],
     lambda qd: ssdload_point(qd, rw="randwrite", more=VERIFY + [("verify", "crc32c")]),
     "verify"),
    ("ssdload randwrite verify=xxhash", [32],
     lambda qd: ssdload_point(qd, rw="randwrite", more=VERIFY + [("verify", "xxhash")]),
     "verify"),
    ("ssdload 128k write", [32],
     lambda qd: ssdload_point(qd, rw="write", bs=128 << 10, more=[("size", 1 << 30)]),
     None),
    ("ssdload 128k write verify=crc32c", [32],
     lambda qd: ssdload_point(qd, rw="write", bs=128 << 10,
                              more=VERIFY + [("verify", "crc32c")]),
     "verify"),
    # the platform's own scaling: two floor loops, one per CPU, at once
    ("floor 2 CPUs", [1], lambda qd: floor_point(nr_cpus=2), None),
    ("ssdload 2 workers", [1], lambda qd: ssdload_point(qd, cpus="0-1"), None),
]

# The order the points run in within a round (odd rounds run it reversed).
# Each pair the targets compare runs back to back, so that a ratio is taken
# between two measurements a few seconds apart: under TCG the speed of the
# whole guest drifts by 10-30% over minutes (host scheduling, qemu's
# softmmu TLB and translation cache), far more than the effects measured.
RUN_ORDER = [
    ("floor", 1), ("ssdload", 1), ("fio pvsync2", 1), ("fio pvsync2 hipri", 1),
    ("ssdload hipri", 1), ("floor 2 CPUs", 1), ("ssdload 2 workers", 1),
    ("ssdload disable_lat", 32), ("ssdload log 100ms", 32), ("ssdload", 32),
    ("ssdload rate 50%", 32), ("ssdload 4 steps", 32), ("ssdload bssplit+zipf", 32),
    ("ssdload bssplit ECW+zoned", 32), ("ssdload randwrite refill_buffers", 32),
    ("ssdload randwrite", 32), ("ssdload randwrite verify=crc32c", 32),
    ("ssdload randwrite verify=xxhash", 32),
    ("ssdload 128k write", 32), ("ssdload 128k write verify=crc32c", 32),
    ("ssdload 2 workers", 32),
    ("ssdload hipri", 32), ("fio io_uring fixedbufs+regfiles+hipri", 32),
    ("fio io_uring", 32), ("fio libaio", 32),
    ("ssdload", 128), ("ssdload hipri", 128), ("fio io_uring fixedbufs+regfiles+hipri", 128),
    ("fio io_uring", 128), ("fio libaio", 128),
    ("fio io_uring", 1), ("fio io_uring fixedbufs+regfiles+hipri", 1), ("fio libaio", 1),
]

# BENCH_ONLY="floor,ssdload 2": only the rows whose tool name contains one
# of the comma-separated strings (for quick looks; `make bench` runs all).
ONLY = [x.strip() for x in os.environ.get("BENCH_ONLY", "").split(",") if x.strip()]


def perf_profiles(results):
    """perf record -a of ssdload at QD1 and QD32 (after the rounds)."""
    if not subprocess.run(["sh", "-c", "command -v perf"], stdout=subprocess.DEVNULL).returncode == 0:
        results["perf"] = "perf not found"
        return
    results["perf"] = {}
    for qd, kw in ((1, {}), (32, {}), (32, {"hipri": 1})):
        tag = "qd%d%s" % (qd, "-hipri" if kw else "")
        data = os.path.join(os.environ.get("TMPDIR", "/tmp"), "perf-%s.data" % tag)
        rep = os.path.join(OUT, "perf-%s.txt" % tag)
        p = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-a", "-g", "-o", data,
                              "--", "sleep", str(int(RAMP + SECONDS))],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            ssdload_point(qd, **kw)
        finally:
            _, err = p.communicate(timeout=120)
        r = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children",
                            "--sort", "sym", "-g", "none", "--percent-limit", "0.5"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        with open(rep, "w") as f:
            f.write(r.stdout)
        results["perf"][tag] = rep if p.returncode == 0 else "perf record failed: " + err[-300:]
        log("perf profile %s -> %s" % (tag, rep))


def setup():
    ko = os.environ["SSDLOAD_KO"]
    if not os.path.isdir("/sys/module/ssdload"):
        sh("insmod", ko)
    if os.path.isdir("/sys/module/null_blk"):
        sh("rmmod", "null_blk")
    sh("modprobe", "null_blk", *NULLB_PARAMS)
    for _ in range(50):
        if os.path.exists(DEV):
            break
        time.sleep(0.1)
    info = {
        "kernel": os.uname().release,
        "ncpus": os.cpu_count(),
        "clocksource": read("/sys/devices/system/clocksource/clocksource0/"
                            "current_clocksource").strip(),
        "io_poll": read("/sys/block/nullb0/queue/io_poll").strip(),
        "null_blk": NULLB_PARAMS,
        "fio": sh("fio", "--version").strip(),
        "seconds": SECONDS, "rounds": ROUNDS, "ramp": RAMP,
        "features": sorted(features()),
    }
    try:
        info["cpu_model"] = [l.split(":", 1)[1].strip() for l in read("/proc/cpuinfo").splitlines()
                             if l.startswith("model name")][0]
    except IndexError:
        pass
    return info


def main():
    info = setup()
    log("guest %s, %d CPUs, clocksource %s, io_poll=%s" % (
        info["kernel"], info["ncpus"], info["clocksource"], info["io_poll"]))
    feats = set(info["features"])
    points = []
    for name, qds, fn, need in ROWS:
        if ONLY and not any(o in name for o in ONLY):
            continue
        for qd in qds:
            if need and need not in feats:
                log("skip %s QD%d: ssdload has no %s attribute" % (name, qd, need))
                continue
            points.append((name, qd, fn))
    table_points = list(points)    # results.json lists rows in ROWS order
    rank = {p: i for i, p in enumerate(RUN_ORDER)}
    points.sort(key=lambda p: rank.get((p[0], p[1]), len(rank)))
    samples = {}
    errors = {}
    for rnd in range(ROUNDS):
        order = points if rnd % 2 == 0 else list(reversed(points))
        for name, qd, fn in order:
            key = "%s|%d" % (name, qd)
            try:
                ios, wall, cpu, extra = fn(qd)
            except Exception as e:	# one broken tool must not sink the run
                errors.setdefault(key, []).append(str(e))
                log("round %d %s QD%d: FAILED %s" % (rnd, name, qd, e))
                continue
            s = {"round": rnd, "ios": ios, "wall_ns": wall, "cpu_ns": cpu,
                 "iops": ios * 1e9 / wall if wall else 0.0,
                 "cpu_ns_per_io": cpu / ios if ios else None}
            s.update(extra)
            samples.setdefault(key, []).append(s)
            LAST[key] = s["iops"]
            log("round %d %-40s QD%-3d %10.0f IOPS %8s ns/IO" % (
                rnd, name, qd, s["iops"],
                "%.0f" % s["cpu_ns_per_io"] if s["cpu_ns_per_io"] else "-"))
    rows = []
    for name, qd, _ in table_points:
        key = "%s|%d" % (name, qd)
        ss = samples.get(key, [])
        row = {"tool": name, "qd": qd, "samples": ss, "errors": errors.get(key, [])}
        if ss:
            row["iops"] = statistics.median(s["iops"] for s in ss)
            cpus = [s["cpu_ns_per_io"] for s in ss if s["cpu_ns_per_io"]]
            row["cpu_ns_per_io"] = statistics.median(cpus) if cpus else None
        rows.append(row)
    results = {"info": info, "rows": rows}
    if os.environ.get("BENCH_PERF") == "1":
        try:
            perf_profiles(results)
        except Exception as e:
            results["perf"] = "failed: %s" % e
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    log("results in %s" % os.path.join(OUT, "results.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
