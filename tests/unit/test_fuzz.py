# SPDX-License-Identifier: GPL-2.0
"""No input crashes or hangs the CLI: a seeded fuzz test (issue 25).

An ASan+UBSan copy of the CLI (`make -C userspace san`, userspace/san/)
is driven with random and mutated inputs, parser by parser: argv (run
--parse-only), job files, `pts ss-check` series, the debugfs text files
(summary, progress) and binary files (histograms, time series) read by
`ssdload show` through $SSDLOAD_DEBUGFS, the run JSON of `ssdload compare`,
and the result documents of the report renderer (in this process, with
a timer).  A case fails when it dies by a signal, when a sanitizer
reports, when the renderer ends in an internal error (an exception other
than its BadInput/OSError/RuntimeError), or when it hangs: runs for over
5 s of CPU time (RLIMIT_CPU; the renderer: ITIMER_PROF), or waits for
over 60 s.  CPU time, not the wall clock: on a busy machine a case may
take seconds to be scheduled, which is the load's, not the parser's.

The inputs are mutations of valid seeds: tests/jobs/*.fio,
userspace/profiles/*.fio and the documents the other unit tests build
(the fake debugfs jobs of lib/debugfs.py, the pts.json documents of
lib/pts_docs.py).

SSDLOAD_FUZZ_SECONDS (default 70) is the time budget of all the parsers
together, split evenly; SSDLOAD_FUZZ_SEED (default 25) seeds every
parser's generator, so that a run is reproducible (the number of cases
depends on the machine's speed; case N of a seed is always the same
input).  SSDLOAD_FUZZ_CASES=N runs N cases of each parser instead, to
compare two builds on the same inputs.  Each parser prints its counts:
cases, crashes, hangs.
"""
import glob
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time

import pytest

import debugfs
import pts_docs
from build import make_userspace

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAN = os.path.join(TOP, "userspace", "san", "ssdload")
SCRIPT = os.path.join(TOP, "userspace", "ssdload-report.py")
BUDGET = float(os.environ.get("SSDLOAD_FUZZ_SECONDS", "70"))
MIN_CASES = 10
SEED = int(os.environ.get("SSDLOAD_FUZZ_SEED", "25"))
CASES = int(os.environ.get("SSDLOAD_FUZZ_CASES", "0"))
TIMEOUT = 5		# CPU seconds of one case
WAIT = 60		# wall seconds of one case (one blocked in a read)
PARSERS = ("argv", "jobfile", "ss_check", "debugfs_text", "debugfs_binary", "compare",
           "report")
SAN_MARKS = ("AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:",
             "LeakSanitizer")
SAN_ENV = {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:exitcode=86",
           "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1:exitcode=87"}

# values that parsers get wrong: limits, signs, units, expansion, markers
TOKENS = [b"", b"0", b"-1", b"1", b"511", b"4g", b"1-0", b"0-", b"-", b"18446744073709551615",
          b"18446744073709551616", b"99999999999999999999999", b"1e308", b"-1e308", b"nan",
          b"inf", b"0x", b"0xffffffffffffffff", b"4k-", b"k", b"%", b"100%", b":", b",", b"/",
          b"1:1:1", b"4k/50:8k/", b"${HOME}", b"${", b"$ncpus", b"$mb_memory", b"\x01",
          b"\x015", b"\x0199999", b"\x00", b"\x7f", b"\xff", b"[", b"]", b"=", b"==", b";",
          b"include ", b"A" * 300, b"9" * 64, b"-0", b"+5", b" ", b"\t", b"\r", b"\n",
          b"2147483648", b"4294967296", b"4294967295", b"65537", b"1024", b"20000000"]
INTS = [0, 1, 2, 7, 8, 255, 256, 4096, 65535, 65536, 0x7fffffff, 0x80000000, 0xffffffff,
        0xfffffffe, 20000000, 2 ** 63, 2 ** 64 - 1]


def mutate(rng, data, splice=()):
    """@data (bytes) with one to four random edits."""
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        pos = rng.randint(0, len(b))
        if op == 0 and b:			# flip a bit
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        elif op == 1 and b:			# a random byte
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif op == 2:				# insert a token
            b[pos:pos] = rng.choice(TOKENS)
        elif op == 3 and b:			# delete a range
            b[pos:pos + rng.randint(1, 16)] = b""
        elif op == 4 and b:			# repeat a range
            end = min(len(b), pos + rng.randint(1, 64))
            b[pos:pos] = b[pos:end] * rng.randint(1, 8)
        elif op == 5:				# truncate
            del b[pos:]
        elif op == 6 and len(b) >= 8:		# an integer at an aligned offset
            w = rng.choice((4, 8))
            i = rng.randrange(0, len(b) - w + 1, w) if len(b) >= w else 0
            v = rng.choice(INTS) & ((1 << (8 * w)) - 1)
            b[i:i + w] = v.to_bytes(w, sys.byteorder)
        elif op == 7 and splice:		# splice from another seed
            o = rng.choice(splice)
            s = rng.randint(0, len(o))
            b[pos:] = o[s:s + rng.randint(0, 256)]
        else:					# a value replaced by a token
            eq = b.find(b"=", pos)
            if eq >= 0:
                nl = b.find(b"\n", eq)
                b[eq + 1:nl if nl >= 0 else len(b)] = rng.choice(TOKENS)
    return bytes(b)


class Stats:
    def __init__(self, name, deadline):
        self.name, self.cases, self.crashes, self.hangs, self.examples = name, 0, 0, 0, []
        self.deadline = deadline

    def more(self):
        """Another case: within the time budget, or below SSDLOAD_FUZZ_CASES.
        A budget spent before MIN_CASES cases (a busy host: the renderer's
        start alone can take seconds) still runs that many."""
        if CASES:
            return self.cases < CASES
        return self.cases < MIN_CASES or time.monotonic() < self.deadline

    def bad(self, kind, what):
        if kind == "hang":
            self.hangs += 1
        else:
            self.crashes += 1
        if len(self.examples) < 5:
            self.examples.append("case %d: %s: %s" % (self.cases, kind, what))

    def line(self):
        return "fuzz %-15s seed %d: %d cases, %d crashes, %d hangs" % (
            self.name, SEED, self.cases, self.crashes, self.hangs)


def cpu_limit():
    resource.setrlimit(resource.RLIMIT_CPU, (TIMEOUT, TIMEOUT + 1))


def run_cli(st, args, cwd, env=None, save=None):
    """Run the sanitized CLI once and classify the outcome in @st."""
    e = dict(os.environ)
    e.update(SAN_ENV)
    e.setdefault("SSDLOAD_CONFIGFS", "/nonexistent/ssdload-fuzz/configfs")
    e.setdefault("SSDLOAD_DEBUGFS", "/nonexistent/ssdload-fuzz/debugfs")
    e["SSDLOAD_REPORT"] = SCRIPT
    e["SSDLOAD_PROFILES"] = os.path.join(TOP, "userspace", "profiles")
    e.update(env or {})
    st.cases += 1
    try:
        p = subprocess.run([SAN] + args, cwd=cwd, env=e, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=WAIT, preexec_fn=cpu_limit)
    except subprocess.TimeoutExpired:
        st.bad("hang", "%r waited over %d s%s" % (args, WAIT, save or ""))
        return
    if p.returncode == -signal.SIGXCPU:
        st.bad("hang", "%r ran over %d s of CPU%s" % (args, TIMEOUT, save or ""))
        return
    err = p.stderr.decode("utf-8", "replace")
    mark = [m for m in SAN_MARKS if m in err]
    if p.returncode < 0 or mark:
        first = next((l for l in err.splitlines() if any(m in l for m in SAN_MARKS)),
                     "signal %d" % -p.returncode)
        st.bad("crash", "%r: %s%s" % (args, first.strip()[:200], save or ""))


def corpus_jobs():
    files = sorted(glob.glob(os.path.join(TOP, "tests", "jobs", "*.fio")) +
                   glob.glob(os.path.join(TOP, "userspace", "profiles", "*.fio")))
    return [open(f, "rb").read() for f in files]


def job_options(jobs):
    """--key=value options from the key=value lines of the job files."""
    opts = set()
    for j in jobs:
        for line in j.splitlines():
            line = line.strip()
            if line and line[:1] not in b";#[" and not line.startswith(b"include"):
                opts.add(b"--" + line)
    return sorted(opts)


def fuzz_argv(rng, st, tmp):
    opts = job_options(corpus_jobs()) + [b"--bs=4k", b"--rw=randrw", b"--numjobs=2",
                                         b"--cpus_allowed=0-1", b"--offset=1m",
                                         b"--bssplit=4k/50:64k/50", b"--steps=2"]
    while st.more():
        args = [b"run", b"--parse-only", b"--filename=/dev/fuzz"]
        for _ in range(rng.randint(1, 8)):
            o = rng.choice(opts)
            args.append(mutate(rng, o) if rng.random() < 0.6 else o)
        args = [a.replace(b"\0", b"") for a in args]
        run_cli(st, [os.fsdecode(a) for a in args], tmp)


def fuzz_jobfile(rng, st, tmp):
    jobs = corpus_jobs()
    shutil.copy(os.path.join(TOP, "tests", "jobs", "common.fio"), tmp)
    path = os.path.join(tmp, "fuzz.fio")
    while st.more():
        data = mutate(rng, rng.choice(jobs), jobs)
        with open(path, "wb") as f:
            f.write(data)
        run_cli(st, ["run", "--parse-only", "--filename=/dev/fuzz", path], tmp,
                save=" input %r" % data[:120])


def fuzz_ss_check(rng, st, tmp):
    path = os.path.join(tmp, "series.txt")
    while st.more():
        n = rng.randint(0, 40)
        base = rng.uniform(0, 1e6)
        vals = "".join("%r\n" % (base * rng.uniform(0.9, 1.1)) for _ in range(n))
        data = mutate(rng, vals.encode()) if rng.random() < 0.8 else vals.encode()
        with open(path, "wb") as f:
            f.write(data)
        extra = rng.sample(["--window=5", "--max-rounds=25", "--range=20", "--window=1",
                            "--max-rounds=1", "--range=0", "--output-format=json",
                            "--window=99999999999"], rng.randint(0, 2))
        run_cli(st, ["pts", "ss-check"] + extra + [path], tmp, save=" input %r" % data[:120])


def debugfs_seeds(tmp):
    """Fake debugfs jobs of lib/debugfs.py (a plain one, a rated one with a series)."""
    geo = debugfs.Geometry(TOP)
    root = os.path.join(tmp, "seeds")
    debugfs.FakeJob(geo, root, "plain", *((debugfs.lognormal(1, 2000, 180000, 0.6),
                                           debugfs.lognormal(2, 600, 25000, 1.2))))
    debugfs.FakeRateJob(geo, root, "rated", nint=4)
    seeds = {}
    for job in ("plain", "rated"):
        d = os.path.join(root, job)
        seeds[job] = {f: open(os.path.join(d, f), "rb").read() for f in os.listdir(d)}
    return root, seeds


def fuzz_debugfs(rng, st, tmp, binary):
    root, seeds = debugfs_seeds(tmp)
    while st.more():
        job = rng.choice(sorted(seeds))
        files = seeds[job]
        names = sorted(f for f in files if (f in ("summary", "progress")) != binary)
        name = rng.choice(names)
        data = mutate(rng, files[name], list(files.values()))
        path = os.path.join(root, job, name)
        with open(path, "wb") as f:
            f.write(data)
        args = ["show", job] + rng.sample(["--output-format=json", "--group_reporting",
                                           "--latency-table", "--output-format=json+"],
                                          rng.randint(0, 2))
        run_cli(st, args, tmp, env={"SSDLOAD_DEBUGFS": root},
                save=" (%s/%s %d bytes)" % (job, name, len(data)))
        with open(path, "wb") as f:
            f.write(files[name])


def run_json_seeds(tmp):
    root, _ = debugfs_seeds(tmp)
    out = []
    for job in ("plain", "rated"):
        e = dict(os.environ, SSDLOAD_DEBUGFS=root,
                 SSDLOAD_CONFIGFS="/nonexistent/ssdload-fuzz/configfs")
        p = subprocess.run([SAN, "show", job, "--output-format=json"], env=e,
                           capture_output=True, timeout=60)
        assert p.returncode == 0, p.stderr
        out.append(p.stdout)
    return out


def fuzz_compare(rng, st, tmp):
    seeds = run_json_seeds(tmp)
    a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    k = 0
    while st.more():
        docs = [rng.choice(seeds), rng.choice(seeds)]
        i = rng.randrange(2)
        docs[i] = mutate(rng, docs[i], seeds)
        for path, d in zip((a, b), docs):
            with open(path, "wb") as f:
                f.write(d)
        out = os.path.join(tmp, "out%d" % k)
        k += 1
        run_cli(st, ["compare", "--no-report", "--output-dir=" + out, a, b], tmp)
        shutil.rmtree(out, ignore_errors=True)


JSON_VALUES = [None, [None], [], {}, "", "x", -1, 0, 1, 0.5, -1e308, 1e308, True, [0, 0],
               [[None]], {"a": None}, "wsat", "nan", 2 ** 70]


def json_slots(node, out):
    """Every (container, key) of @node, depth first."""
    keys = (list(node) if isinstance(node, dict) else
            range(len(node)) if isinstance(node, list) else ())
    for k in keys:
        out.append((node, k))
        json_slots(node[k], out)
    return out


def json_mutate(rng, doc):
    """@doc with a value somewhere in it replaced, removed or repeated."""
    doc = json.loads(json.dumps(doc))
    slots = json_slots(doc, [])
    if not slots:
        return doc
    node, k = rng.choice(slots)
    op = rng.randrange(5)
    if op == 0 and isinstance(node, dict):
        del node[k]
    elif op == 1 and isinstance(node, list):
        node.append(node[k])
    elif op == 2 and isinstance(node[k], list):
        node[k] = [rng.choice(JSON_VALUES)] + node[k]
    else:
        node[k] = rng.choice(JSON_VALUES)
    return doc


def alarm(signum, frame):			# pylint: disable=unused-argument
    raise TimeoutError("over %d s of CPU or %d s" % (TIMEOUT, WAIT))


def fuzz_report(rng, st, tmp):
    try:
        import matplotlib			# pylint: disable=import-outside-toplevel,unused-import
    except ImportError:
        pytest.skip("no matplotlib for the renderer (apt install python3-matplotlib)")
    from report import report_module	# pylint: disable=import-outside-toplevel
    mod = report_module()
    docs = [(n, f()) for n, f in sorted(pts_docs.DOCS.items())]
    old = signal.signal(signal.SIGALRM, alarm)
    old_prof = signal.signal(signal.SIGPROF, alarm)
    try:
        while st.more():
            name, doc = rng.choice(docs)
            for _ in range(rng.randint(1, 3)):
                doc = json_mutate(rng, doc)
            raw = json.dumps(doc).encode()
            if rng.random() < 0.1:
                raw = mutate(rng, raw)
            d = os.path.join(tmp, "r%d" % st.cases)
            os.makedirs(d)
            with open(os.path.join(d, "pts.json"), "wb") as f:
                f.write(raw)
            st.cases += 1
            signal.alarm(WAIT)
            signal.setitimer(signal.ITIMER_PROF, TIMEOUT)
            try:
                mod.render(d)
            except (mod.BadInput, OSError, RuntimeError):
                pass
            except TimeoutError:
                st.bad("hang", "%s over %d s of CPU or %d s" % (name, TIMEOUT, WAIT))
            except Exception as e:		# pylint: disable=broad-except
                st.bad("crash", "%s: internal error %s: %s" % (name, type(e).__name__,
                                                                str(e)[:100]))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                signal.alarm(0)
            shutil.rmtree(d, ignore_errors=True)
    finally:
        signal.signal(signal.SIGALRM, old)
        signal.signal(signal.SIGPROF, old_prof)


@pytest.fixture(scope="module")
def san(repo):
    """userspace/san/ssdload, the ASan+UBSan copy of the CLI."""
    r = make_userspace("san", top=repo)
    if r.returncode:
        pytest.skip("no ASan+UBSan build of the CLI (make -C userspace san: %s)" %
                    (r.stderr.strip().splitlines() or ["failed"])[-1])
    p = subprocess.run([SAN, "--version"], capture_output=True, text=True, timeout=60)
    if p.returncode:
        pytest.skip("the ASan+UBSan build does not run here: %s" % p.stderr.strip()[:200])
    return SAN


@pytest.mark.parametrize("parser", PARSERS)
def test_fuzz(san, parser, tmp_path, capsys):  # pylint: disable=unused-argument
    rng = random.Random("%d-%s" % (SEED, parser))
    deadline = time.monotonic() + BUDGET / len(PARSERS)
    st = Stats(parser, deadline)
    tmp = str(tmp_path)
    if parser == "argv":
        fuzz_argv(rng, st, tmp)
    elif parser == "jobfile":
        fuzz_jobfile(rng, st, tmp)
    elif parser == "ss_check":
        fuzz_ss_check(rng, st, tmp)
    elif parser.startswith("debugfs"):
        fuzz_debugfs(rng, st, tmp, parser == "debugfs_binary")
    elif parser == "compare":
        fuzz_compare(rng, st, tmp)
    else:
        fuzz_report(rng, st, tmp)
    with capsys.disabled():
        print("\n" + st.line())
    assert st.cases > 0
    assert not st.crashes and not st.hangs, "\n".join([st.line()] + st.examples)
