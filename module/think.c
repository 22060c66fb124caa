// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: fio's thinktime family and startdelay in the worker.
 *
 * thinktime: once thinktime_blocks I/Os were counted since the last pause
 * (completed ones, or issued ones with thinktime_blocks_type=issue), or
 * thinktime_iotime passed since its end, the worker issues nothing new,
 * waits until its I/Os in flight completed (fio's io_u_quiesce()), then
 * spins for thinktime_spin and sleeps on an hrtimer for the rest of
 * thinktime, never past the end of the phase.  As in fio, the count
 * taken when the pause became due is where the next burst starts: with
 * "complete", the I/Os that drained during it count for the next one.
 *
 * startdelay: each worker draws its delay in the range (a fixed one if
 * the range is a value) and sleeps it before its first I/O; its phases,
 * ramp and runtime start after it, as a fio job's do.
 */
#include <linux/hrtimer.h>
#include <linux/math64.h>
#include <linux/sched.h>

#include "ssdload.h"
#include "rng.h"

/*
 * The start delay of worker @idx, ns: startdelay_us, or a draw in
 * [startdelay_us, startdelay_hi_us] from the job's seed and @idx (the
 * same for a job of the same seed, different per worker).
 */
u64 ssdload_startdelay_ns(const struct ssdload_cfg *cfg, unsigned int idx)
{
	u64 span = cfg->startdelay_hi_us - cfg->startdelay_us;
	u64 x = cfg->randseed ^ ((u64)idx * SSDLOAD_RNG_GOLDEN);
	u64 us = cfg->startdelay_us;

	if (span)
		us += mul_u64_u64_shr(ssdload_splitmix64(&x), span + 1, 64);
	return us * NSEC_PER_USEC;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_startdelay_ns);

/* The I/Os thinktime_blocks counts so far: completed, or issued. */
static u64 ssdload_think_count(const struct ssdload_worker *w)
{
	u64 n = 0;
	int d;

	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		n += w->res.st[d].done;
	return w->think.by_issue ? n + w->pool.inflight : n;
}

/* Worker setup at the start of its run at @t0 (fio's init_thinktime()). */
void ssdload_think_begin(struct ssdload_worker *w, u64 t0)
{
	const struct ssdload_cfg *cfg = &w->job->cfg;
	struct ssdload_wthink *t = &w->think;

	memset(t, 0, sizeof(*t));
	t->ns = cfg->thinktime_us * NSEC_PER_USEC;
	t->spin_ns = cfg->thinktime_spin_us * NSEC_PER_USEC;
	t->iotime_ns = cfg->thinktime_iotime_us * NSEC_PER_USEC;
	t->blocks = cfg->thinktime_blocks;
	t->by_issue = cfg->thinktime_blocks_type == SSDLOAD_THINK_ISSUE;
	t->last_ns = t0;
}

/*
 * Is a pause due with @n I/Os counted at @now: thinktime_iotime passed
 * since the last one ended, or thinktime_blocks I/Os were counted since
 * it (thinktime_blocks 0: by time only)?
 */
VISIBLE_IF_KUNIT bool ssdload_think_due(const struct ssdload_wthink *t, u64 n,
					u64 now)
{
	if (t->iotime_ns && now >= t->last_ns &&
	    now - t->last_ns >= t->iotime_ns)
		return true;
	return t->blocks && n - t->last >= t->blocks;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_think_due);

/* I/Os still to count before the next pause (U64_MAX: by time only). */
VISIBLE_IF_KUNIT u64 ssdload_think_left(const struct ssdload_wthink *t, u64 n)
{
	if (!t->blocks)
		return U64_MAX;
	return n - t->last >= t->blocks ? 0 : t->last + t->blocks - n;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_think_left);

/*
 * Sleep until @until, or a stop, a completion or a wake-up.  The timer has
 * no slack: the pause is the load's shape.
 */
static void ssdload_think_sleep(struct ssdload_worker *w, u64 until)
{
	ktime_t t = ns_to_ktime(until);

	set_current_state(TASK_INTERRUPTIBLE);
	if (!ssdload_worker_stopped(w))
		schedule_hrtimeout_range(&t, 0, HRTIMER_MODE_ABS);
	__set_current_state(TASK_RUNNING);
}

/*
 * The pause itself, once nothing is in flight: spin for thinktime_spin,
 * then sleep until thinktime ended (fio: the rest of thinktime after the
 * spin, none if the spin was longer), neither past the phase's end.  A
 * time series boundary wakes the worker to close its interval: it then
 * comes back for the rest.  Returns whether the pause ended.
 */
static bool ssdload_think_pause(struct ssdload_worker *w)
{
	struct ssdload_wthink *t = &w->think;
	u64 now = ktime_get_ns();
	u64 until;

	if (!t->start_ns) {
		u64 spin_end = now + t->spin_ns;

		t->start_ns = now;
		t->end_ns = now + max(t->ns, t->spin_ns);
		if (w->phase.deadline_ns) {
			t->end_ns = min(t->end_ns, w->phase.deadline_ns);
			spin_end = min(spin_end, w->phase.deadline_ns);
		}
		while (now < spin_end && !ssdload_worker_stopped(w)) {
			cpu_relax();
			cond_resched();
			now = ktime_get_ns();
		}
	}
	until = t->end_ns;
	if (w->ser)
		until = min(until, w->ser->next_ns);
	if (now < until)
		ssdload_think_sleep(w, until);
	now = ktime_get_ns();
	if (now < t->end_ns && !ssdload_worker_stopped(w))
		return false;
	WRITE_ONCE(t->total_ns, t->total_ns + now - t->start_ns);
	WRITE_ONCE(t->pauses, t->pauses + 1);
	t->start_ns = 0;
	t->last_ns = now;
	return true;
}

/*
 * The worker loop's thinktime step at @now, before it submits: sets how
 * many new I/Os may go (w->phase.spare).  Returns true after a pause (or
 * a part of it), for the loop to start a fresh pass.
 */
bool ssdload_think(struct ssdload_worker *w, u64 now)
{
	struct ssdload_wthink *t = &w->think;
	unsigned int room;
	u64 n, left;

	if (w->phase.idle)
		return false;
	w->phase.spare = ssdload_phase_spare(w, w->phase.ph, false);
	if (!t->due) {
		n = ssdload_think_count(w);
		if (!ssdload_think_due(t, n, now)) {
			/* issue: no more than the pause allows */
			room = w->pool.nr_free - min(w->phase.spare,
						     w->pool.nr_free);
			left = t->by_issue ? ssdload_think_left(t, n) : U64_MAX;
			if (left < room)
				w->phase.spare = w->pool.nr_free - left;
			return false;
		}
		t->due = true;
		t->due_cnt = n;
	}
	/* nothing new; the loop waits for the I/Os in flight */
	w->phase.spare = w->pool.nr_free;
	if (w->pool.inflight || w->pool.retry || w->pool.follow)
		return false;
	if (!ssdload_think_pause(w))
		return true;
	t->due = false;
	t->last = t->due_cnt;
	return true;
}

/* startdelay: sleep until the worker's first I/O is due (or a stop). */
void ssdload_start_wait(struct ssdload_worker *w)
{
	while (ktime_get_ns() < w->begin_ns && !ssdload_worker_stopped(w))
		ssdload_think_sleep(w, w->begin_ns);
}
