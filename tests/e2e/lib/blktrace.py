# SPDX-License-Identifier: GPL-2.0
"""Block-layer tracepoints read from tracefs: the offsets and sizes a device really saw.

    with BlockTrace(dev) as t:          # block:block_rq_issue, filtered on dev's dev_t
        job.run()
    evs = t.events                      # [Event(rwbs, sector, nr_sectors, bytes)]

``BlockTrace([dev_a, dev_b], clock="mono")`` records several devices (an
event's ``dev`` is its (major, minor)) and stamps events with another
trace clock (``ts``, seconds): "mono" is CLOCK_MONOTONIC, one clock for
every CPU, where the default "local" clock may drift between CPUs.

block_rq_issue fires once per request handed to the driver, so it needs a
blk-mq device (null_blk queue_mode=2; nomerges=2 makes every bio its own
request); a bio-based device such as brd only has block_bio_queue
(``BlockTrace(dev, "block_bio_queue")``).

Enabling or disabling a trace event patches kernel text (static keys and
static calls, text_poke_bp with int3), and under qemu TCG that races with
the other vCPU: seen as "Oops: int3" in ttwu_do_activate while
event_enable_write() unregistered block_rq_issue on 6.12, which killed the
guest and the whole e2e run.  So under TCG the events must already be
enabled at boot -- the guest's command line has
``trace_event=block:block_rq_issue,block:block_bio_queue`` (BOOT_EVENTS;
early boot patches text with one CPU up) -- and this helper only sets the
filter, the buffer size and tracing_on, none of which patches code.  A
kernel booted without it skips with that reason; under KVM (or with
SSDLOAD_TEST_RUNTIME_TRACE=1) the events are enabled at run time instead
and disabled again afterwards.

The per-CPU ring buffers are grown first (``buffer_size_kb``) and read once
after the run from ``trace``; an overrun or a dropped event in any per-CPU
``stats`` fails (the counts would be short), so callers can compare counts
exactly.  Everything touched (buffer size, event enables and filters,
tracing_on, a tracefs mount made here) is put back afterwards.
"""

import os
import re
import subprocess

TRACEFS_DIRS = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")
# what the guest's kernel command line enables (tests/qemu/guest.py)
BOOT_EVENTS = "trace_event=block:block_rq_issue,block:block_bio_queue"

# block_rq_issue: "MAJ,MIN RWBS BYTES (CMD) SECTOR + NR [COMM]" (6.1), 6.10+ add
# the ioprio "class,hint,level" after NR; block_bio_queue: "MAJ,MIN RWBS SECTOR + NR [COMM]".
# Each line starts with "COMM-PID [CPU] FLAGS SECONDS.MICROS: EVENT:".
_RQ_RE = re.compile(r" (\d+\.\d+): (block_rq_issue|block_rq_insert|block_rq_complete): "
                    r"(\d+),(\d+) (\S*) (\d+) \((.*?)\) (\d+) \+ (\d+)")
_BIO_RE = re.compile(r" (\d+\.\d+): (block_bio_queue|block_bio_complete|block_split): "
                     r"(\d+),(\d+) (\S*) (\d+) \+ (\d+)")


class Unavailable(Exception):
    """tracefs or the event is missing on this kernel: the caller skips with str(e)."""


class Event:
    __slots__ = ("rwbs", "sector", "nr_sectors", "bytes", "ts", "dev")

    def __init__(self, rwbs, sector, nr_sectors, nbytes, ts=0.0, dev=None):
        self.rwbs = rwbs
        self.sector = sector
        self.nr_sectors = nr_sectors
        self.bytes = nbytes
        self.ts = ts                    # seconds, of the trace clock
        self.dev = dev                  # (major, minor)

    @property
    def offset(self):
        return self.sector * 512

    @property
    def size(self):
        return self.nr_sectors * 512

    @property
    def dir(self):
        """'read', 'write', 'trim', 'flush' or 'other' from the rwbs string."""
        r = self.rwbs
        if "D" in r:
            return "trim"
        if "W" in r:
            return "write"
        if "R" in r:
            return "read"
        if "F" in r:
            return "flush"
        return "other"

    def __repr__(self):
        return "Event(%s %d + %d)" % (self.rwbs, self.sector, self.nr_sectors)


def _read(p):
    with open(p) as f:
        return f.read()


def _write(p, v):
    with open(p, "w") as f:
        f.write(str(v))


def find_tracefs():
    """(path, mounted_here): a tracefs with an events/ directory, mounting it if needed."""
    for d in TRACEFS_DIRS:
        if os.path.isdir(os.path.join(d, "events")):
            return d, False
    d = TRACEFS_DIRS[0]
    if os.path.isdir(d):
        p = subprocess.run(["mount", "-t", "tracefs", "nodev", d], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        if p.returncode == 0 and os.path.isdir(os.path.join(d, "events")):
            return d, True
        if p.returncode == 0:
            subprocess.run(["umount", d], check=False)
    # debugfs automounts tracefs at tracing/ on first access
    d = TRACEFS_DIRS[1]
    try:
        os.listdir(d)
    except OSError:
        pass
    if os.path.isdir(os.path.join(d, "events")):
        return d, False
    raise Unavailable("no tracefs on kernel %s (mount -t tracefs failed, no %s/events): "
                      "CONFIG_FTRACE/CONFIG_EVENT_TRACING off?"
                      % (os.uname().release, TRACEFS_DIRS[1]))


def dev_t(dev):
    """Kernel-internal dev_t of a BlockDev ((major << 20) | minor), as trace filters want."""
    ma, mi = (int(x) for x in _read(dev.sys + "/dev").strip().split(":"))
    return (ma << 20) | mi, ma, mi


def under_tcg():
    """True when the guest CPU is qemu's TCG (model name 'QEMU TCG CPU ...')."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return "TCG" in line
    except OSError:
        pass
    return False


def runtime_enable_ok():
    if os.environ.get("SSDLOAD_TEST_RUNTIME_TRACE") == "1":
        return True
    return not under_tcg()


def _buffer_kb(text):
    m = re.search(r"expanded:\s*(\d+)", text)
    return int(m.group(1)) if m else int(text.split()[0])


class BlockTrace:
    """Record block tracepoints of one device; see the module docstring."""

    def __init__(self, dev, events=("block_rq_issue",), buffer_kb=16384, clock=None):
        if isinstance(events, str):
            events = (events,)
        devs = list(dev) if isinstance(dev, (list, tuple)) else [dev]
        self.dev = devs[0]
        self.names = tuple(events)
        self.buffer_kb = buffer_kb
        self.clock = clock
        self.events = None
        self.raw_lines = 0
        self._saved = None
        self._root, self._mounted = find_tracefs()
        self._devt, self.major, self.minor = dev_t(devs[0])
        self._devts = {}                # (major, minor) -> dev_t
        for d in devs:
            t, ma, mi = dev_t(d)
            self._devts[(ma, mi)] = t
        if clock and clock not in _read(self._p("trace_clock")).replace("[", " ") \
                .replace("]", " ").split():
            raise Unavailable("trace clock %r is not available on kernel %s"
                              % (clock, os.uname().release))
        for e in self.names:
            if not os.path.isdir(self._ev(e)):
                raise Unavailable("tracefs has no block:%s event on kernel %s"
                                  % (e, os.uname().release))
            en = _read(os.path.join(self._ev(e), "enable")).strip()
            if en != "1" and not runtime_enable_ok():
                raise Unavailable(
                    "block:%s is not enabled (enable=%s) and enabling it at run time "
                    "patches kernel text, which crashes qemu TCG guests: boot with %s"
                    % (e, en, BOOT_EVENTS))

    def _ev(self, name):
        return os.path.join(self._root, "events", "block", name)

    def _p(self, *parts):
        return os.path.join(self._root, *parts)

    # ------------------------------------------------------------------
    def start(self):
        saved = {"tracing_on": _read(self._p("tracing_on")).strip(),
                 "buffer_size_kb": _buffer_kb(_read(self._p("buffer_size_kb"))),
                 "trace_clock": re.search(r"\[(\S+)\]",
                                          _read(self._p("trace_clock"))).group(1),
                 "events": {}}
        self._saved = saved
        _write(self._p("tracing_on"), 0)
        if self.clock:
            _write(self._p("trace_clock"), self.clock)
        # all other events off is not ours to change; only ours are enabled
        for e in self.names:
            saved["events"][e] = (_read(os.path.join(self._ev(e), "enable")).strip(),
                                  _read(os.path.join(self._ev(e), "filter")).strip())
        _write(self._p("buffer_size_kb"), self.buffer_kb)
        flt = " || ".join("dev == %d" % t for t in sorted(self._devts.values()))
        for e in self.names:
            _write(os.path.join(self._ev(e), "filter"), flt)
            if saved["events"][e][0] != "1":
                _write(os.path.join(self._ev(e), "enable"), 1)
        _write(self._p("trace"), "")          # clear every per-CPU buffer (and stats)
        _write(self._p("tracing_on"), 1)
        return self

    def stop(self):
        """Stop recording, parse the buffer into self.events, restore tracefs."""
        try:
            _write(self._p("tracing_on"), 0)
            lost = self._lost()
            self.events = self._parse(_read(self._p("trace")))
            if lost:
                raise AssertionError(
                    "trace buffer lost events (%s) with buffer_size_kb=%d per CPU: "
                    "counts from the trace would be short" % (lost, self.buffer_kb))
        finally:
            self._restore()
        return self.events

    def _lost(self):
        bad = []
        pc = self._p("per_cpu")
        for cpu in sorted(os.listdir(pc)):
            try:
                st = _read(os.path.join(pc, cpu, "stats"))
            except OSError:
                continue
            for key in ("overrun", "dropped events"):
                m = re.search(r"^%s:\s*(\d+)" % key, st, re.M)
                if m and int(m.group(1)):
                    bad.append("%s %s=%s" % (cpu, key, m.group(1)))
        return ", ".join(bad)

    def _restore(self):
        s = self._saved
        if s is None:
            return
        self._saved = None
        for e, (en, flt) in s["events"].items():
            if en != "1":
                _write(os.path.join(self._ev(e), "enable"), en)
            # the filter file shows "none" when there is none; "0" clears it
            _write(os.path.join(self._ev(e), "filter"), "0" if flt in ("none", "") else flt)
        _write(self._p("trace"), "")
        if self.clock:
            _write(self._p("trace_clock"), s["trace_clock"])
        _write(self._p("buffer_size_kb"), s["buffer_size_kb"])
        _write(self._p("tracing_on"), s["tracing_on"])
        if self._mounted:
            subprocess.run(["umount", self._root], check=False)
            self._mounted = False

    def _parse(self, text):
        out = []
        n = 0
        for line in text.splitlines():
            if not line or line[0] == "#":
                continue
            n += 1
            m = _RQ_RE.search(line)
            if m:
                if m.group(2) not in self.names:
                    continue
                ma, mi = int(m.group(3)), int(m.group(4))
                if (ma, mi) not in self._devts:
                    raise AssertionError("filtered trace has an event of %d,%d: %r"
                                         % (ma, mi, line))
                out.append(Event(m.group(5), int(m.group(8)), int(m.group(9)),
                                 int(m.group(6)), float(m.group(1)), (ma, mi)))
                continue
            m = _BIO_RE.search(line)
            if m:
                if m.group(2) not in self.names:
                    continue
                ma, mi = int(m.group(3)), int(m.group(4))
                if (ma, mi) not in self._devts:
                    raise AssertionError("filtered trace has an event of %d,%d: %r"
                                         % (ma, mi, line))
                out.append(Event(m.group(5), int(m.group(6)), int(m.group(7)),
                                 int(m.group(7)) * 512, float(m.group(1)), (ma, mi)))
                continue
            if any(" %s: " % e in line for e in self.names):
                raise AssertionError("cannot parse trace line %r" % line)
        self.raw_lines = n
        return out

    def __enter__(self):
        return self.start()

    def __exit__(self, et, ev, tb):
        if et is not None:
            self._restore()
            return False
        self.stop()
        return False


def by_dir(events):
    d = {}
    for e in events:
        d.setdefault(e.dir, []).append(e)
    return d


def session_quiesce():
    """Called once at the start of the e2e session: with block events enabled
    from boot (BOOT_EVENTS), stop the ring buffer (tracing_on=0, no code is
    patched) so the other tests do not pay for recording every request.
    Returns what session_restore() needs."""
    try:
        root, mounted = find_tracefs()
    except Unavailable:
        return None
    try:
        on = _read(os.path.join(root, "tracing_on")).strip()
        _write(os.path.join(root, "tracing_on"), 0)
    except OSError:
        on = None
    return (root, mounted, on)


def session_restore(state):
    if not state:
        return
    root, mounted, on = state
    try:
        if on is not None:
            _write(os.path.join(root, "tracing_on"), on)
    finally:
        if mounted:
            subprocess.run(["umount", root], check=False)
