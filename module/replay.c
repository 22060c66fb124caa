// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: replay of a recorded trace (Documentation/replay.rst).
 *
 * A job with replay=1 has one worker, which issues the records that the
 * CLI writes to the job's debugfs file replay (struct ssdload_replay_rec,
 * uapi) instead of planning its own I/Os.  The records go through a ring
 * of SSDLOAD_REPLAY_RING records, allocated at enable and counted against
 * max_job_mem_mb: a writer blocks (or gets EAGAIN) while it is full, so a
 * trace of any length streams through a bounded buffer.  The clock of the
 * replay starts when the ring first filled, or the stream ended before
 * that: the first records are then at hand when their time comes.
 *
 * Each record goes out at its time (t0 + its trace time scaled by
 * replay_time_scale), from the worker's hrtimer wait, with at most
 * iodepth I/Os in flight; a record that is due while iodepth I/Os are in
 * flight waits and counts as held back.  Its lateness, the issue time
 * minus the scheduled time, goes into a histogram of the latency
 * geometry (hist_replay).  replay_no_stall issues every record as soon
 * as an I/O is free, in order.
 *
 * Every record is checked as it is written: a bad one fails the write
 * with EINVAL and the job with an error naming the record, so nothing
 * after it is issued.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "ssdload.h"

/* Trace times beyond this are refused: scaled by 100, they fit a u64. */
#define SSDLOAD_REPLAY_MAX_TIME	BIT_ULL(56)
/* Records a write copies in at a time (bytes: one page). */
#define SSDLOAD_REPLAY_BOUNCE	(PAGE_SIZE / SSDLOAD_REPLAY_REC_SIZE)
/* The worker's "nothing to do until woken" wake time. */
#define SSDLOAD_REPLAY_NEVER	((u64)KTIME_MAX)

static_assert(!(SSDLOAD_REPLAY_RING & (SSDLOAD_REPLAY_RING - 1)));

/*
 * The ring's publication (a single producer, single consumer queue):
 * the writer stores the records, then tail, then eos, with release; it
 * sets t0_ns, then primed.  The worker stores head with release once it
 * is done with a record.
 */
static bool ssdload_rp_primed(struct ssdload_replay *rp)
{
	/* pairs with the release in ssdload_replay_prime(): t0_ns is set */
	return smp_load_acquire(&rp->primed);
}

static bool ssdload_rp_eos(struct ssdload_replay *rp)
{
	/* pairs with the release in ssdload_replay_queue(): tail is final */
	return smp_load_acquire(&rp->eos);
}

static u64 ssdload_rp_tail(struct ssdload_replay *rp)
{
	/* pairs with the release in ssdload_replay_queue(): records written */
	return smp_load_acquire(&rp->tail);
}

static u64 ssdload_rp_head(struct ssdload_replay *rp)
{
	/* pairs with the release in ssdload_replay_take(): records used */
	return smp_load_acquire(&rp->head);
}

void ssdload_replay_init(struct ssdload_job *job)
{
	mutex_init(&job->rp.wlock);
	init_waitqueue_head(&job->rp.wq);
	job->cfg.replay_time_scale = 100;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_replay_init);

void ssdload_replay_release(struct ssdload_job *job)
{
	kvfree(job->rp.ring);
	kvfree(job->rp.hist);
	mutex_destroy(&job->rp.wlock);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_replay_release);

/* What a replay run allocates on top of its worker, bytes. */
u64 ssdload_replay_mem(const struct ssdload_job *job)
{
	if (!job->cfg.replay)
		return 0;
	return ssdload_kv_bytes(SSDLOAD_REPLAY_RING *
				sizeof(struct ssdload_replay_rec)) +
	       ssdload_kv_bytes(SSDLOAD_HIST_BUCKETS * sizeof(u64));
}

/*
 * The scheduled time of a record of trace time @time_ns: t0 plus that
 * time at replay_time_scale percent of the trace's rate (fio: 200 is
 * twice as fast), saturated below KTIME_MAX; t0 itself with no_stall.
 */
u64 ssdload_replay_at(u64 t0, u64 time_ns, u64 scale, bool no_stall)
{
	u64 d;

	if (no_stall)
		return t0;
	time_ns = min(time_ns, SSDLOAD_REPLAY_MAX_TIME);
	d = scale == 100 ? time_ns :
	    mul_u64_u64_div_u64(time_ns, 100, max_t(u64, scale, 1));
	if (d >= SSDLOAD_REPLAY_NEVER - 1 - t0)
		return SSDLOAD_REPLAY_NEVER - 1;
	return t0 + d;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_replay_at);

/*
 * Is record @r acceptable after a record of time @prev_time?  0, or
 * -EINVAL with *@why saying what is wrong.
 */
int ssdload_replay_check(const struct ssdload_replay_rec *r, u64 prev_time,
			 const struct ssdload_replay_lim *lim, const char **why)
{
	u64 time = le64_to_cpu(r->time_ns), off = le64_to_cpu(r->offset);
	u32 len = le32_to_cpu(r->len);
	u16 op = le16_to_cpu(r->op), t = le16_to_cpu(r->target);

	*why = NULL;
	if (le32_to_cpu(r->magic) != SSDLOAD_REPLAY_REC_MAGIC)
		*why = "bad magic (not a replay record, or a misframed stream)";
	else if (r->reserved)
		*why = "reserved field not zero";
	else if (op >= SSDLOAD_REPLAY_OP_NR)
		*why = "unknown op";
	else if (op == SSDLOAD_REPLAY_OP_END)
		return 0;
	else if (time < prev_time)
		*why = "time before the previous record's (unsorted)";
	else if (time > SSDLOAD_REPLAY_MAX_TIME)
		*why = "time beyond 2^56 ns";
	else if (t >= lim->nr_devs)
		*why = "target beyond the devices of filename";
	else if (op == SSDLOAD_REPLAY_OP_FLUSH)
		*why = len || off ? "a flush with an offset or length" : NULL;
	else if (!len)
		*why = "zero length";
	else if (len > lim->bs_max)
		*why = "longer than bs";
	else if (len % lim->lbs[t] || off % lim->lbs[t])
		*why = "offset or length not a multiple of the logical block size";
	else if (off > lim->bytes[t] || len > lim->bytes[t] - off)
		*why = "beyond the end of the device";
	else if (op != SSDLOAD_REPLAY_OP_READ && !lim->allow_write)
		*why = op == SSDLOAD_REPLAY_OP_WRITE ?
		       "a write without allow_write" :
		       "a trim without allow_write";
	else if (op == SSDLOAD_REPLAY_OP_TRIM && !lim->discard[t])
		*why = "a trim on a device without discard";
	return *why ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_replay_check);

/*
 * Start step, before the devices are opened: what a replay job may not
 * have, and its one shape: any direction (writes and trims with
 * allow_write), two buffers of bs bytes per I/O, any length up to bs.
 */
int ssdload_replay_plan(struct ssdload_job *job)
{
	const struct ssdload_cfg *cfg = &job->cfg;
	static const struct {
		size_t off;
		const char *attr;
	} no[] = {
		{ offsetof(struct ssdload_cfg, ramp_ms), "ramp_ms" },
		{ offsetof(struct ssdload_cfg, number_ios), "number_ios" },
		{ offsetof(struct ssdload_cfg, hipri), "hipri" },
		{ offsetof(struct ssdload_cfg, disable_lat), "disable_lat" },
		{ offsetof(struct ssdload_cfg, log_interval_ms), "log_interval_ms" },
		{ offsetof(struct ssdload_cfg, thinktime_us), "thinktime_us" },
		{ offsetof(struct ssdload_cfg, startdelay_us), "startdelay_us" },
		{ offsetof(struct ssdload_cfg, fsync), "fsync" },
		{ offsetof(struct ssdload_cfg, end_fsync), "end_fsync" },
		{ offsetof(struct ssdload_cfg, sync), "sync" },
		{ offsetof(struct ssdload_cfg, write_barrier), "write_barrier" },
	};
	unsigned int i;

	if (!cfg->replay)
		return 0;
	for (i = 0; i < ARRAY_SIZE(no); i++)
		if (*(const u64 *)((const u8 *)cfg + no[i].off))
			return ssdload_job_refuse(job, -EINVAL, no[i].attr,
						  "%s is not for a replay job (replay=1)",
						  no[i].attr);
	if (job->nr_steps)
		return ssdload_job_refuse(job, -EINVAL, "replay",
					  "a replay job has no steps");
	if (job->rated)
		return ssdload_job_refuse(job, -EINVAL, "rate_iops",
					  "a replay job issues at the trace's times, not at a rate");
	if (cfg->verify)
		return ssdload_job_refuse(job, -EINVAL, "verify",
					  "a replay job does not verify");
	if (cfg->numjobs > 1)
		return ssdload_job_refuse(job, -EINVAL, "numjobs",
					  "a replay job has one worker (numjobs=%llu)",
					  cfg->numjobs);
	job->dirs = BIT(SSDLOAD_DIR_READ);
	if (cfg->allow_write)
		job->dirs |= BIT(SSDLOAD_DIR_WRITE) | BIT(SSDLOAD_DIR_TRIM);
	job->writes = cfg->allow_write;
	job->mixed = true;
	job->random = false;
	job->uniform_bs = false;
	job->fixed_len = false;
	if (!job->dcfg.write_bs_min)
		job->dcfg.write_bs_min = job->bs_min;
	return 0;
}

/*
 * Start step, the devices open: the ring, the lateness histogram (the
 * last run's goes) and the limits of the records.
 */
int ssdload_replay_prepare(struct ssdload_job *job)
{
	struct ssdload_replay *rp = &job->rp;
	struct ssdload_replay_rec *ring;
	u64 *hist;
	unsigned int i;

	if (!job->cfg.replay)
		return 0;
	ring = kvcalloc(SSDLOAD_REPLAY_RING, sizeof(*ring), GFP_KERNEL);
	hist = kvcalloc(SSDLOAD_HIST_BUCKETS, sizeof(*hist), GFP_KERNEL);
	if (!ring || !hist) {
		kvfree(ring);
		kvfree(hist);
		return ssdload_job_refuse(job, -ENOMEM, "replay",
					  "no memory for the replay buffer");
	}
	mutex_lock(&rp->wlock);
	kvfree(rp->hist);
	rp->hist = hist;
	rp->ring = ring;
	rp->head = 0;
	rp->tail = 0;
	rp->primed = false;
	rp->eos = false;
	rp->eos_by_close = false;
	rp->closed = false;
	rp->t0_ns = 0;
	rp->last_time = 0;
	rp->accepted = 0;
	rp->pending = 0;
	rp->held_upto = 0;
	rp->issued = 0;
	rp->flushes = 0;
	memset(rp->late, 0, sizeof(rp->late));
	rp->late_min = U64_MAX;
	rp->late_max = 0;
	rp->late_sum = 0;
	rp->held = 0;
	rp->refused = 0;
	memset(&rp->lim, 0, sizeof(rp->lim));
	rp->lim.nr_devs = job->nr_devs;
	rp->lim.bs_max = job->bs_max;
	rp->lim.allow_write = job->cfg.allow_write;
	for (i = 0; i < job->nr_devs; i++) {
		struct block_device *bdev = job->devs[i].bdev.bdev;

		rp->lim.bytes[i] = bdev_nr_bytes(bdev);
		rp->lim.lbs[i] = bdev_logical_block_size(bdev);
		rp->lim.discard[i] = bdev_max_discard_sectors(bdev) > 0;
	}
	mutex_unlock(&rp->wlock);
	return 0;
}

/*
 * The run ended (or never started): no more records.  A writer waiting
 * for room wakes to EPIPE; the ring goes (a writer holds wlock while it
 * copies into it).  The figures stay.
 */
void ssdload_replay_close(struct ssdload_job *job)
{
	struct ssdload_replay *rp = &job->rp;

	if (!job->cfg.replay && !rp->ring)
		return;
	mutex_lock(&rp->wlock);
	rp->closed = true;
	kvfree(rp->ring);
	rp->ring = NULL;
	mutex_unlock(&rp->wlock);
	wake_up_all(&rp->wq);
}

/* A stop was requested: a writer waiting for room returns. */
void ssdload_replay_wake(struct ssdload_job *job)
{
	wake_up_all(&job->rp.wq);
}

/* ---- the worker's side --------------------------------------------------- */

/* Are there records to look at (for the worker's sleep)? */
bool ssdload_replay_avail(struct ssdload_worker *w)
{
	struct ssdload_replay *rp = w->rp;

	if (!ssdload_rp_primed(rp))
		return false;
	return ssdload_rp_eos(rp) ||
	       ssdload_rp_tail(rp) != rp->head;
}

/* One record taken: a writer waiting for room wakes at half the ring. */
static void ssdload_replay_take(struct ssdload_replay *rp, u64 head, u64 tail)
{
	/* the record is copied out: its slot may take a new one */
	smp_store_release(&rp->head, head + 1);
	if (tail - head - 1 == SSDLOAD_REPLAY_RING / 2 && wq_has_sleeper(&rp->wq))
		wake_up(&rp->wq);
}

/* Lateness of an issue at @stamp of a record scheduled at @at. */
static void ssdload_replay_late(struct ssdload_replay *rp, u64 stamp, u64 at)
{
	u64 late = stamp > at ? stamp - at : 0;

	WRITE_ONCE(rp->issued, rp->issued + 1);
	if (!rp->hist)
		return;
	if (late > SSDLOAD_REPLAY_LATE_1)
		WRITE_ONCE(rp->late[0], rp->late[0] + 1);
	if (late > SSDLOAD_REPLAY_LATE_2)
		WRITE_ONCE(rp->late[1], rp->late[1] + 1);
	if (late > SSDLOAD_REPLAY_LATE_3)
		WRITE_ONCE(rp->late[2], rp->late[2] + 1);
	if (late > rp->late_max)
		WRITE_ONCE(rp->late_max, late);
	if (late < rp->late_min)
		WRITE_ONCE(rp->late_min, late);
	WRITE_ONCE(rp->late_sum, rp->late_sum + late);
	rp->hist[ssdload_hist_index(late)]++;
}

/* A flush record: the device's empty PREFLUSH write, now. */
static void ssdload_replay_flush(struct ssdload_worker *w,
				 struct ssdload_io *io, u64 at)
{
	struct ssdload_job *job = w->job;
	u64 now = ktime_get_ns();

	bio_reset(&io->bio, job->devs[io->dev].bdev.bdev,
		  REQ_OP_WRITE | REQ_PREFLUSH);
	io->bio.bi_end_io = ssdload_end_io;
	io->bio.bi_private = io;
	io->status = BLK_STS_OK;
	io->late = false;
	io->split = false;
	io->measured = true;
	io->phase = w->phase.idx;
	io->epoch = w->phase.epoch;
	io->inflight = true;
	io->submit_ns = now;
	w->pool.inflight++;
	w->flush.inflight++;
	WRITE_ONCE(w->rp->flushes, w->rp->flushes + 1);
	if (!job->cfg.replay_no_stall)
		ssdload_replay_late(w->rp, now, at);
	else
		WRITE_ONCE(w->rp->issued, w->rp->issued + 1);
	submit_bio(&io->bio);
}

/*
 * The next record as an I/O, if one is due at @now and an I/O is free
 * (the caller checked); else NULL, with rate.wake_ns the time of the
 * next record, or SSDLOAD_REPLAY_NEVER to sleep until a writer or a
 * completion wakes the worker.  *@issuing ends with the stream.
 */
struct ssdload_io *ssdload_replay_next(struct ssdload_worker *w, u64 now,
				       bool *issuing)
{
	struct ssdload_replay *rp = w->rp;
	const struct ssdload_replay_rec *r;
	u64 head = rp->head, tail, at;
	struct ssdload_io *io;
	bool eos;
	u16 op;

	if (!ssdload_rp_primed(rp)) {
		w->rate.wake_ns = SSDLOAD_REPLAY_NEVER;
		return NULL;
	}
	eos = ssdload_rp_eos(rp);
	tail = ssdload_rp_tail(rp);
	if (head == tail) {
		if (eos)
			*issuing = false;
		else
			w->rate.wake_ns = SSDLOAD_REPLAY_NEVER;
		return NULL;
	}
	r = &rp->ring[head % SSDLOAD_REPLAY_RING];
	at = ssdload_replay_at(rp->t0_ns, le64_to_cpu(r->time_ns),
			       w->job->cfg.replay_time_scale,
			       w->job->cfg.replay_no_stall);
	if (at > now) {
		w->rate.wake_ns = at;
		return NULL;
	}
	op = le16_to_cpu(r->op);
	if (op == SSDLOAD_REPLAY_OP_FLUSH) {
		io = w->flush.ios[le16_to_cpu(r->target)];
		/* in order: after the I/Os before it went out */
		if (rp->pending)
			return NULL;
		if (io->inflight) {
			w->rate.wake_ns = SSDLOAD_REPLAY_NEVER;
			return NULL;
		}
		ssdload_replay_take(rp, head, tail);
		ssdload_replay_flush(w, io, at);
		return NULL;
	}
	io = w->pool.free[--w->pool.nr_free];
	io->measured = true;
	io->phase = w->phase.idx;
	io->epoch = w->phase.epoch;
	io->dir = op;		/* read, write, trim: as enum ssdload_dir */
	io->dev = le16_to_cpu(r->target);
	io->pos = le64_to_cpu(r->offset);
	io->len = le32_to_cpu(r->len);
	io->barrier = false;
	io->intended_ns = 0;
	io->sched_ns = at;
	rp->pending++;
	w->cursor.submitted++;
	ssdload_replay_take(rp, head, tail);
	return io;
}

/* A record's I/O went out at @stamp: its lateness. */
void ssdload_replay_issued(struct ssdload_worker *w, struct ssdload_io *io,
			   u64 stamp)
{
	struct ssdload_replay *rp = w->rp;

	rp->pending--;
	if (w->job->cfg.replay_no_stall)
		WRITE_ONCE(rp->issued, rp->issued + 1);
	else
		ssdload_replay_late(rp, stamp, io->sched_ns);
}

/*
 * Before a reap, with iodepth I/Os in flight: the records already due
 * wait for a completion.  Each counts once as held back.
 */
void ssdload_replay_held(struct ssdload_worker *w)
{
	struct ssdload_replay *rp = w->rp;
	const struct ssdload_cfg *cfg = &w->job->cfg;
	u64 i, tail, now;

	if (w->pool.nr_free > w->phase.spare ||
	    !ssdload_rp_primed(rp))
		return;
	tail = ssdload_rp_tail(rp);
	i = max(rp->head, rp->held_upto);
	if (i >= tail)
		return;
	now = ktime_get_ns();
	for (; i < tail; i++) {
		const struct ssdload_replay_rec *r =
			&rp->ring[i % SSDLOAD_REPLAY_RING];

		if (ssdload_replay_at(rp->t0_ns, le64_to_cpu(r->time_ns),
				      cfg->replay_time_scale,
				      cfg->replay_no_stall) > now)
			break;
		if (le16_to_cpu(r->op) != SSDLOAD_REPLAY_OP_FLUSH)
			WRITE_ONCE(rp->held, rp->held + 1);
	}
	rp->held_upto = i;
}

/* ---- the writer's side: debugfs replay ------------------------------------ */

static int ssdload_replay_open(struct inode *inode, struct file *file)
{
	struct ssdload_job *job = inode->i_private;
	struct ssdload_replay *rp = &job->rp;
	int ret = 0;

	mutex_lock(&rp->wlock);
	if (rp->open)
		ret = -EBUSY;
	else
		rp->open = true;
	mutex_unlock(&rp->wlock);
	if (ret) {
		pr_err("job %s: replay: the stream has a writer already\n",
		       ssdload_job_name(job));
		return ret;
	}
	ssdload_job_get(job);
	file->private_data = job;
	return nonseekable_open(inode, file);
}

/*
 * Wake the worker (under wlock, with the ring: the run is set up), once
 * it was launched: an armed job's thread must not run before its start.
 */
static void ssdload_replay_kick(struct ssdload_job *job)
{
	if (job->nr_workers &&
	    READ_ONCE(job->state) == SSDLOAD_STATE_RUNNING)
		wake_up_process(job->workers[0]->compl.task);
}

/* The clock starts once the ring is full or the stream ended. */
static void ssdload_replay_prime(struct ssdload_replay *rp, u64 tail)
{
	if (rp->primed)
		return;
	if (tail - READ_ONCE(rp->head) < SSDLOAD_REPLAY_RING && !rp->eos)
		return;
	rp->t0_ns = ktime_get_ns();
	/* t0_ns before primed */
	smp_store_release(&rp->primed, true);
}

static int ssdload_replay_release_file(struct inode *inode, struct file *file)
{
	struct ssdload_job *job = file->private_data;
	struct ssdload_replay *rp = &job->rp;

	mutex_lock(&rp->wlock);
	rp->open = false;
	if (rp->ring && !rp->closed && !rp->eos) {
		/* the stream ends with its writer */
		rp->eos_by_close = true;
		/* after the last tail (stored under wlock, as here) */
		smp_store_release(&rp->eos, true);
		ssdload_replay_prime(rp, rp->tail);
		ssdload_replay_kick(job);
	}
	mutex_unlock(&rp->wlock);
	ssdload_job_put(job);
	return 0;
}

/* May a write go on (room), or must it end (the run is over)? */
static bool ssdload_replay_writable(struct ssdload_job *job)
{
	struct ssdload_replay *rp = &job->rp;

	return READ_ONCE(rp->closed) || READ_ONCE(job->stop) ||
	       READ_ONCE(job->failed) ||
	       READ_ONCE(rp->tail) - ssdload_rp_head(rp) <
	       SSDLOAD_REPLAY_RING;
}

/*
 * Wait, wlock held, for room in the ring; returns the room, or -errno
 * with wlock released.
 */
static long ssdload_replay_room(struct ssdload_job *job, bool nonblock)
{
	struct ssdload_replay *rp = &job->rp;
	u64 used;

	for (;;) {
		if (!rp->ring || rp->closed || rp->eos ||
		    READ_ONCE(job->stop) || READ_ONCE(job->failed)) {
			mutex_unlock(&rp->wlock);
			return -EPIPE;
		}
		used = rp->tail - ssdload_rp_head(rp);
		if (used < SSDLOAD_REPLAY_RING)
			return SSDLOAD_REPLAY_RING - used;
		mutex_unlock(&rp->wlock);
		if (nonblock)
			return -EAGAIN;
		if (wait_event_interruptible(rp->wq,
					     ssdload_replay_writable(job)))
			return -ERESTARTSYS;
		mutex_lock(&rp->wlock);
	}
}

/*
 * Check and queue @n records of @buf (wlock held, room for them); returns
 * those taken, or -EINVAL for a bad one (the job fails).
 */
VISIBLE_IF_KUNIT long ssdload_replay_queue(struct ssdload_job *job,
					   const struct ssdload_replay_rec *buf,
					   long n)
{
	struct ssdload_replay *rp = &job->rp;
	u64 tail = rp->tail;
	const char *why;
	long i;

	for (i = 0; i < n; i++) {
		const struct ssdload_replay_rec *r = &buf[i];

		if (ssdload_replay_check(r, rp->last_time, &rp->lim, &why)) {
			WRITE_ONCE(rp->refused, rp->refused + 1);
			ssdload_job_fail(job, -EINVAL,
					 "replay: record %llu: %s",
					 rp->accepted + i, why);
			pr_err("job %s: replay: record %llu refused: %s\n",
			       ssdload_job_name(job), rp->accepted + i, why);
			/* the records before it go: they were good */
			n = -EINVAL;
			break;
		}
		if (le16_to_cpu(r->op) == SSDLOAD_REPLAY_OP_END) {
			i++;
			break;
		}
		rp->last_time = le64_to_cpu(r->time_ns);
		rp->ring[tail++ % SSDLOAD_REPLAY_RING] = *r;
	}
	rp->accepted += i;
	/* the records before tail are written */
	smp_store_release(&rp->tail, tail);
	if (i && n > 0 &&
	    le16_to_cpu(buf[i - 1].op) == SSDLOAD_REPLAY_OP_END) {
		/* the end after the last tail */
		smp_store_release(&rp->eos, true);
	}
	ssdload_replay_prime(rp, tail);
	if (rp->primed)
		ssdload_replay_kick(job);
	return n < 0 ? n : i;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_replay_queue);

static ssize_t ssdload_replay_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct ssdload_job *job = file->private_data;
	struct ssdload_replay *rp = &job->rp;
	struct ssdload_replay_rec *buf;
	long n, room, done;

	if (!count)
		return 0;
	if (count % SSDLOAD_REPLAY_REC_SIZE) {
		pr_err("job %s: replay: a write of %zu bytes is not whole %u-byte records\n",
		       ssdload_job_name(job), count, SSDLOAD_REPLAY_REC_SIZE);
		return -EINVAL;
	}
	n = min_t(size_t, count / SSDLOAD_REPLAY_REC_SIZE,
		  SSDLOAD_REPLAY_BOUNCE);
	buf = kmalloc_array(n, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* copied outside wlock: a fault never holds up teardown */
	if (copy_from_user(buf, ubuf, n * sizeof(*buf))) {
		done = -EFAULT;
		goto out_free;
	}
	mutex_lock(&rp->wlock);
	room = ssdload_replay_room(job, file->f_flags & O_NONBLOCK);
	if (room < 0) {
		done = room;
		goto out_free;
	}
	done = ssdload_replay_queue(job, buf, min(n, room));
	mutex_unlock(&rp->wlock);
	if (done > 0)
		done *= SSDLOAD_REPLAY_REC_SIZE;
out_free:
	kfree(buf);
	return done;
}

static __poll_t ssdload_replay_poll(struct file *file, poll_table *wait)
{
	struct ssdload_job *job = file->private_data;

	poll_wait(file, &job->rp.wq, wait);
	return ssdload_replay_writable(job) ? EPOLLOUT | EPOLLWRNORM : 0;
}

const struct file_operations ssdload_replay_fops = {
	.owner		= THIS_MODULE,
	.open		= ssdload_replay_open,
	.write		= ssdload_replay_write,
	.poll		= ssdload_replay_poll,
	.release	= ssdload_replay_release_file,
};

/* ---- the figures: replay_stats, hist_replay ------------------------------ */

/* hist_replay: the lateness counts, their number, extremes and sum. */
void ssdload_replay_hist(struct ssdload_job *job, u64 *counts, u64 *samples,
			 u64 *min_ns, u64 *max_ns, u64 *sum_ns)
{
	struct ssdload_replay *rp = &job->rp;
	unsigned int b;

	*samples = 0;
	*min_ns = 0;
	*max_ns = READ_ONCE(rp->late_max);
	*sum_ns = READ_ONCE(rp->late_sum);
	if (!rp->hist)
		return;
	for (b = 0; b < SSDLOAD_HIST_BUCKETS; b++) {
		counts[b] = READ_ONCE(rp->hist[b]);
		*samples += counts[b];
	}
	if (*samples)
		*min_ns = READ_ONCE(rp->late_min);
}

static int ssdload_replay_stats_show(struct seq_file *m, void *unused)
{
	struct ssdload_job *job = m->private;
	struct ssdload_replay *rp = &job->rp;

	mutex_lock(&job->lock);
	seq_printf(m, "replay=%llu\n", job->cfg.replay);
	seq_printf(m, "replay_time_scale=%llu\n", job->cfg.replay_time_scale);
	seq_printf(m, "replay_no_stall=%llu\n", job->cfg.replay_no_stall);
	seq_printf(m, "buffer_records=%u\n", SSDLOAD_REPLAY_RING);
	seq_printf(m, "buffer_bytes=%zu\n",
		   SSDLOAD_REPLAY_RING * sizeof(struct ssdload_replay_rec));
	seq_printf(m, "accepted=%llu\n", READ_ONCE(rp->accepted));
	seq_printf(m, "refused=%llu\n", READ_ONCE(rp->refused));
	seq_printf(m, "queued=%llu\n",
		   READ_ONCE(rp->tail) - READ_ONCE(rp->head));
	seq_printf(m, "eos=%s\n", !READ_ONCE(rp->eos) ? "no" :
		   READ_ONCE(rp->eos_by_close) ? "close" : "end");
	seq_printf(m, "issued=%llu\n", READ_ONCE(rp->issued));
	seq_printf(m, "flushes=%llu\n", READ_ONCE(rp->flushes));
	seq_printf(m, "held=%llu\n", READ_ONCE(rp->held));
	seq_printf(m, "late_10us=%llu\n", READ_ONCE(rp->late[0]));
	seq_printf(m, "late_100us=%llu\n", READ_ONCE(rp->late[1]));
	seq_printf(m, "late_1ms=%llu\n", READ_ONCE(rp->late[2]));
	seq_printf(m, "late_max_ns=%llu\n", READ_ONCE(rp->late_max));
	seq_printf(m, "late_sum_ns=%llu\n", READ_ONCE(rp->late_sum));
	mutex_unlock(&job->lock);
	return 0;
}

static int ssdload_replay_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, ssdload_replay_stats_show, inode->i_private);
}

const struct file_operations ssdload_replay_stats_fops = {
	.owner		= THIS_MODULE,
	.open		= ssdload_replay_stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};
