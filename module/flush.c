// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: fio's sync options on a block device.
 *
 * fsync=N (fio's fdatasync=N means the same on a block device): once a
 * worker planned its Nth, 2Nth, ... write, it issues nothing new until
 * every I/O it has in flight completed, then sends one empty flush bio to
 * each device of the job, and issues again once they completed.  That is
 * the order of fio's sync engines and of libaio, which refuses the fsync
 * while I/Os are queued and then runs it synchronously: a flush covers
 * exactly the writes before it.  The flush is blkdev_issue_flush()'s bio,
 * REQ_OP_WRITE | REQ_PREFLUSH with no data (the block layer refuses a bio
 * of REQ_OP_FLUSH: that op exists only in the requests its flush state
 * machine makes).  It is sent even after the deadline, so that the writes
 * it follows are covered, but not after a stop or a failed I/O.
 *
 * end_fsync=1: one more flush once the worker's issuing ended, if the job
 * writes.
 *
 * sync=1: every write carries REQ_FUA (fio's O_SYNC with direct=1 on a
 * block device).  write_barrier=N: as fio's, a write is a barrier
 * (REQ_PREFLUSH | REQ_FUA) when the writes planned before it are a
 * non-zero multiple of N (the (N+1)th, (2N+1)th, ...).
 *
 * On a device without a volatile write cache the block layer strips
 * PREFLUSH and FUA and completes an empty flush at once: it is counted
 * here, but not in the device's statistics.
 */
#include <linux/kthread.h>
#include <linux/slab.h>

#include "ssdload.h"

/* Does @job flush (fsync, or end_fsync in a job that writes)? */
static bool ssdload_job_flushes(const struct ssdload_job *job)
{
	/* replay: a trace's flush records */
	return job->cfg.fsync || (job->cfg.end_fsync && job->writes) ||
	       job->cfg.replay;
}

/* What ssdload_flush_alloc() takes per worker of @job, bytes. */
u64 ssdload_flush_mem(const struct ssdload_job *job)
{
	if (!ssdload_job_flushes(job))
		return 0;
	return ssdload_kv_bytes(SSDLOAD_HIST_BUCKETS * sizeof(u64)) +
	       kmalloc_size_roundup(job->nr_devs * sizeof(struct ssdload_io *)) +
	       job->nr_devs * kmalloc_size_roundup(sizeof(struct ssdload_io));
}

/* The flush bios and the flush statistics of worker @w, if its job flushes. */
int ssdload_flush_alloc(struct ssdload_worker *w, int node)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL;
	const struct ssdload_job *job = w->job;
	unsigned int i;
	int ret;

	w->flush.every = job->cfg.fsync;
	w->flush.barrier = job->cfg.write_barrier;
	w->flush.fua = job->cfg.sync;
	w->flush.at_end = job->cfg.end_fsync && job->writes;
	w->flush.plan = w->flush.every || w->flush.barrier || w->flush.fua ||
			w->flush.at_end;
	if (!ssdload_job_flushes(job))
		return 0;
	ret = ssdload_dstat_init(&w->res.sync, node);
	if (ret)
		return ret;
	w->flush.ios = kcalloc_node(w->nr_devs, sizeof(*w->flush.ios), gfp,
				    node);
	if (!w->flush.ios)
		return -ENOMEM;
	for (i = 0; i < w->nr_devs; i++) {
		struct ssdload_io *io = kzalloc_node(sizeof(*io), gfp, node);

		if (!io)
			return -ENOMEM;
		io->w = w;
		io->flush = true;
		io->dev = i;
		io->dir = SSDLOAD_DIR_WRITE;
		bio_init(&io->bio, NULL, NULL, 0, REQ_OP_WRITE | REQ_PREFLUSH);
		w->flush.ios[i] = io;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_flush_alloc);

void ssdload_flush_free(struct ssdload_worker *w)
{
	unsigned int i;

	if (w->flush.ios) {
		for (i = 0; i < w->nr_devs; i++) {
			if (!w->flush.ios[i])
				continue;
			bio_uninit(&w->flush.ios[i]->bio);
			kfree(w->flush.ios[i]);
		}
		kfree(w->flush.ios);
		w->flush.ios = NULL;
	}
	ssdload_dstat_free(&w->res.sync);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_flush_free);

/*
 * A new write @io was planned: count it for fsync (a flush becomes due
 * after it), and mark it a barrier (write_barrier).
 */
void ssdload_flush_plan(struct ssdload_worker *w, struct ssdload_io *io)
{
	struct ssdload_wcount *c = &w->res.cnt;

	io->barrier = false;	/* a pool I/O may have been a barrier before */
	if (io->dir != SSDLOAD_DIR_WRITE)
		return;
	io->barrier = w->flush.barrier && w->flush.nth &&
		      !(w->flush.nth % w->flush.barrier);
	w->flush.nth++;
	if (io->barrier)
		WRITE_ONCE(c->barrier_writes, c->barrier_writes + 1);
	if (io->barrier || w->flush.fua)
		WRITE_ONCE(c->fua_writes, c->fua_writes + 1);
	if (w->flush.every && ++w->flush.writes >= w->flush.every) {
		w->flush.writes = 0;
		w->flush.due = true;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_flush_plan);

/* The flags a write adds to its op: FUA (sync), PREFLUSH | FUA (a barrier). */
blk_opf_t ssdload_flush_opf(const struct ssdload_worker *w,
			    const struct ssdload_io *io)
{
	if (io->barrier)
		return REQ_PREFLUSH | REQ_FUA;
	return w->flush.fua ? REQ_FUA : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_flush_opf);

/*
 * A flush is due (or end_fsync's, once @issuing ended): send it to every
 * device when nothing else of the worker is in flight.  The worker loop
 * calls this on each pass while one is due; a stop or a failed I/O
 * cancels it.
 */
void ssdload_flush_try(struct ssdload_worker *w, bool issuing, u64 now)
{
	struct ssdload_job *job = w->job;
	unsigned int i;

	if (!issuing && w->flush.at_end && !w->flush.due) {
		/* as fio's: only after writes (an idle worker has none) */
		w->flush.at_end = false;
		w->flush.due = w->flush.nth > 0;
	}
	if (!w->flush.due || w->flush.inflight || w->pool.inflight ||
	    w->pool.retry || w->pool.follow)
		return;
	if (READ_ONCE(job->stop) || READ_ONCE(job->failed) ||
	    kthread_should_stop()) {
		w->flush.due = false;
		w->flush.at_end = false;
		return;
	}
	if (!w->compl.nolat)
		now = ktime_get_ns();
	for (i = 0; i < w->nr_devs; i++) {
		struct ssdload_io *io = w->flush.ios[i];

		bio_reset(&io->bio, job->devs[i].bdev.bdev,
			  REQ_OP_WRITE | REQ_PREFLUSH);
		io->bio.bi_end_io = ssdload_end_io;
		io->bio.bi_private = io;
		io->status = BLK_STS_OK;
		io->late = false;
		io->split = false;
		io->measured = ssdload_measuring(w, now);
		io->phase = w->phase.idx;
		io->epoch = w->phase.epoch;
		io->inflight = true;
		io->submit_ns = now;
		w->pool.inflight++;
		w->flush.inflight++;
		submit_bio(&io->bio);
	}
}

/* A flush bio was reaped: its statistics; the last one lets I/O go on. */
void ssdload_flush_reaped(struct ssdload_worker *w, struct ssdload_io *io)
{
	ssdload_record_sync(w, io);
	if (!--w->flush.inflight)
		w->flush.due = false;
}
