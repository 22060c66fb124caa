# SPDX-License-Identifier: GPL-2.0
"""Telling the host's load from the code's fault in a timing test.

Under TCG the guest's vCPUs are host threads: a host busy with other work
deschedules them for milliseconds, and the engine then sends late, falls
behind its schedule, or keeps fewer I/Os in flight than asked.  A timing
test keeps its assertions as strict as they are; when one fails, the
engine's own records decide:

- they prove the guest could not keep up (I/Os sent late or a schedule
  left behind, with a schedule that itself counted the right number of
  sends; or a depth kept in some intervals of the run and not in others):
  the test is skipped, and the reason gives the figures (what the guest
  reached against the target);
- they say the engine kept up (nothing late, nothing behind, or a depth
  missed evenly through the run): the failure stands, as a scheduler or
  accounting bug.

Use::

    with hostload.guard(lambda: hostload.rate_evidence(s, runtime_ms=2000)):
        assert ...
"""

import contextlib
import math

import pytest


@contextlib.contextmanager
def guard(evidence):
    """Run the checks in the block; if one fails, call @evidence(): a
    reason (str) proves the host's load and skips the test with it and
    the failed check; None lets the failure stand."""
    try:
        yield
    except AssertionError as e:
        why = evidence()
        if not why:
            raise
        msg = " ".join(str(e).split())[:300]
        pytest.skip("the guest could not keep up (host load, not the code): %s; "
                    "failed check: %s" % (why, msg or "assert"))


def _slack(n):
    """Counting slack of a schedule of @n sends: 1%, 4 standard deviations
    of a Poisson count and one send per worker at each end."""
    return 0.01 * n + 4 * math.sqrt(max(n, 0)) + 4


def rate_evidence(s, dirs=("read", "write", "trim"), runtime_ms=None):
    """Evidence from a debugfs summary @s (ssdload_env's dict) that the
    rate-controlled directions fell behind for the host's sake: the engine
    recorded, in one of them, I/Os sent more than late_threshold_ns late or
    a lag at the end over that threshold; and the schedule of every one of
    them is right: it sent no more than the cap allows over the time it
    ran, and what it sent plus what it left behind is the cap times the
    run's length (@runtime_ms, the configured length; else the measured
    runtime).  None otherwise."""
    thr = s.get("late_threshold_ns", 1000000)
    ran = s["runtime_ns"]
    window = runtime_ms * 1e6 if runtime_ms else ran
    why = []
    for d in dirs:
        iops, bps = s.get("%s_rate_iops" % d, 0), s.get("%s_rate_bps" % d, 0)
        if not (iops or bps) or not s.get("%s_ios" % d):
            continue
        late, lag = s.get("%s_late_ios" % d, 0), s.get("%s_behind_ns" % d, 0)
        if bps:
            unit, rate = "bytes", bps
            sent, behind = s["%s_bytes" % d], s.get("%s_behind_bytes" % d, 0)
            per = s["%s_bytes" % d] / s["%s_ios" % d]      # bytes per send
        else:
            unit, rate = "I/Os", iops
            sent, behind = s["%s_ios" % d], s.get("%s_behind_ios" % d, 0)
            per = 1
        due = rate * window / 1e9
        if sent > rate * max(ran, window) / 1e9 + _slack(due / per) * per:
            return None      # ahead of its schedule: no host makes that
        if sent + behind < due - _slack(due / per) * per:
            return None      # sent and owed fall short: the schedule is wrong
        if late == 0 and lag <= thr:
            continue         # this direction kept up
        why.append("%s: %.0f %s/s against a cap of %d (%d %s over %d ms), %d of %d sent "
                   "over %.1f ms late, %d %s (%.1f ms) behind at the end"
                   % (d, sent * 1e9 / ran if ran else 0, unit, rate, sent, unit, ran // 10**6,
                      late, s["%s_ios" % d], thr / 1e6, behind, unit, lag / 1e6))
    return "; ".join(why) or None


def cli_rate_summary(job, d="read"):
    """The rate figures of one direction of a `ssdload run` JSON job in
    the keys of a debugfs summary, for rate_evidence()."""
    x = job[d]
    r = x.get("rate") or {}
    s = {"runtime_ns": x["runtime"] * 10**6, "late_threshold_ns": 1000000}
    s.update({"%s_ios" % d: x["total_ios"], "%s_bytes" % d: x["io_bytes"],
              "%s_rate_iops" % d: r.get("iops_target", 0),
              "%s_rate_bps" % d: r.get("bps_target", 0),
              "%s_late_ios" % d: r.get("late_ios", 0),
              "%s_behind_ns" % d: r.get("behind_ns", 0),
              "%s_behind_ios" % d: r.get("behind_ios", 0),
              "%s_behind_bytes" % d: r.get("behind_bytes", 0)})
    return s


def depth_evidence(intervals, iodepth, tol):
    """Evidence from a run's time series that a depth shortfall (Little's
    law: I/Os in flight = IOPS x mean latency under @iodepth by more than
    @tol) was the host's: intervals given as (ios, latency sum ns,
    length ns), at least one kept the depth within @tol (the code keeps
    it when its vCPU runs) and another did not.  A depth the code misses
    is missed in every interval.  None otherwise."""
    fill = [lat / t / iodepth for n, lat, t in intervals if n and t > 0]
    if len(fill) < 2 or max(fill) < 1 - tol or min(fill) >= 1 - tol:
        return None
    return ("I/Os in flight per interval (of %d): %s; the depth is kept in some of them "
            "and not in others" % (iodepth, " ".join("%.2f" % (f * iodepth) for f in fill)))


def overrun_evidence(what, over_ns, lat_max_ns, device_ns):
    """Evidence that a run (or step) that ended @over_ns after its length
    did so for the host's load: it ends at its last completion, and its
    slowest I/O (@lat_max_ns) on a fixed-latency device of @device_ns took
    at least 10 times that (the host fired the device's timer late) and
    as long as the overrun.  None otherwise."""
    if lat_max_ns < 10 * device_ns or over_ns > lat_max_ns + 0.01 * abs(over_ns):
        return None
    return "%s ran %.0f ms over its length; its slowest I/O on a %.1f ms device took %.0f ms" \
        % (what, over_ns / 1e6, device_ns / 1e6, lat_max_ns / 1e6)


def tail_evidence(what, mean_ns, p_ns, lat_max_ns, device_ns):
    """Evidence that a mean (@mean_ns) above a high percentile (@p_ns, p99)
    on a fixed-latency device of @device_ns is the host's doing: the I/Os
    beyond the percentile pull the mean up only when they are far slower
    than the device, so the slowest (@lat_max_ns) must have taken at least
    10 times the device's latency (the host fired its timer late).  None
    otherwise."""
    if mean_ns <= p_ns or lat_max_ns < 10 * device_ns:
        return None
    return "%s: mean %.0f us above p99 %.0f us; its slowest I/O on a %.0f us device took " \
        "%.1f ms" % (what, mean_ns / 1e3, p_ns / 1e3, device_ns / 1e3, lat_max_ns / 1e6)


def series_intervals(series, d="read", step=None):
    """(ios, latency sum ns, length ns) per interval of a debugfs series
    (ssdload_env.Series), the workers' records of one index summed; with
    @step, of the records the workers closed in that step."""
    by = {}
    for r in series.records:
        if step is not None and r["step"] != step:
            continue
        n, lat, t = by.get(r["index"], (0, 0, 0))
        by[r["index"]] = (n + r[d]["ios"], lat + r[d]["lat_sum_ns"],
                          max(t, r["end_ns"] - r["start_ns"]))
    return [by[k] for k in sorted(by)]


def cli_intervals(job, d="read"):
    """(ios, latency sum ns, length ns) per interval of a `ssdload run`
    JSON job's time_series."""
    out = []
    for iv in (job.get("time_series") or {}).get("intervals", []):
        x = iv[d]
        n = x.get("ios", 0)
        out.append((n, n * (x.get("lat_mean_ns") or 0),
                    (iv["t_end_ms"] - iv["t_start_ms"]) * 1e6))
    return out


def series_stall_evidence(series, ios, tol=0.25):
    """Evidence from a sweep point's time series (dicts of iops,
    lat_mean_ns and t_ms, the end of each interval in ms from the start
    of the measurement) that intervals of unequal IOPS were the host's:
    the intervals' I/Os add up to the point's @ios within 2% (the series
    counts right), and the I/Os in flight (IOPS x mean latency) of one
    interval are under 1 - @tol of another's (a vCPU descheduled for part
    of an interval submits nothing in it, at the device's latency).  None
    otherwise."""
    prev, n, fill = 0.0, 0.0, []
    for iv in series:
        n += iv.get("iops", 0) * (iv.get("t_ms", prev) - prev) / 1000.0
        prev = iv.get("t_ms", prev)
        fill.append(iv.get("iops", 0) * (iv.get("lat_mean_ns") or 0) / 1e9)
    if not ios or abs(n / ios - 1) > 0.02 or not fill or max(fill) <= 0:
        return None
    if min(fill) >= (1 - tol) * max(fill):
        return None
    return ("I/Os in flight per interval: %s; the intervals add up to %.0f of the point's "
            "%d I/Os" % (" ".join("%.2f" % f for f in fill), n, ios))
