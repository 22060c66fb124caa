// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: workers.
 *
 * One kthread per CPU of cpus_allowed, bound to it.  A worker owns
 * iodepth preallocated I/Os (bio + inline bvec table + buffer) and keeps
 * them in flight.  bi_end_io only stamps the completion time and pushes
 * the I/O on the worker's lock-free list; the worker reaps the list,
 * records the results in its own statistics (single writer: no atomics,
 * no locks) and resubmits under a plug.  Nothing is allocated on the
 * I/O path.
 *
 * A worker calls nothing in job.c: it reports a failed I/O in its own
 * ioerr and job->failed, and the last one to finish queues job->end_work.
 * It asks plan.c for its shares, passes the gate of start GROUP
 * (gate.c), records through hist.c and series.c and has step.c allocate
 * its per-step statistics; none of them calls back into worker.c.
 */
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "ssdload.h"
#include "rng.h"

/* ---- PRNG: xoshiro256** seeded through splitmix64 (rng.h) ------------- */

VISIBLE_IF_KUNIT void ssdload_rng_seed(struct ssdload_worker *w, u64 seed)
{
	u64 x = seed ^ ((u64)w->idx * 0xd1342543de82ef95ULL);
	int i;

	for (i = 0; i < 4; i++)
		w->cursor.rng[i] = ssdload_splitmix64(&x);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_rng_seed);

VISIBLE_IF_KUNIT u64 ssdload_rng_next(struct ssdload_worker *w)
{
	return ssdload_xoshiro256ss(w->cursor.rng);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_rng_next);

/* Unbiased draw in [0, n), n > 0 (Lemire's multiply-shift + rejection). */
VISIBLE_IF_KUNIT u64 ssdload_rng_below(struct ssdload_worker *w, u64 n)
{
	u128 m = (u128)ssdload_rng_next(w) * n;
	u64 low = (u64)m;

	if (unlikely(low < n)) {
		u64 thresh = -n % n;

		while (low < thresh) {
			m = (u128)ssdload_rng_next(w) * n;
			low = (u64)m;
		}
	}
	return (u64)(m >> 64);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_rng_below);

/*
 * ---- random one pass: a permutation of the slice ---------------------------
 *
 * A one-pass random job with one block size (no number_ios, and no
 * runtime_ms or time_based=0) visits every block of each worker's slice
 * exactly once (per loop), in a seeded
 * random order, as fio's random map does: index i of the pass maps to
 * block P(i), P a seeded bijection of [0, slice_len) (ssdload_bij(), no
 * memory whatever the size of the span).  With norandommap it draws
 * with replacement instead (ssdload_pass_perm()).
 */
void ssdload_perm_init(struct ssdload_wdev *wd, unsigned int idx, u64 seed)
{
	wd->perm = true;
	wd->perm_next = 0;
	ssdload_bij_init(&wd->bij, wd->slice_len,
			 seed ^ 0x7065726d75746521ULL ^ ((u64)idx << 32));
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_perm_init);

/* Unit (relative to the slice) of the next I/O of the pass. */
static u64 ssdload_perm_next(struct ssdload_wdev *wd)
{
	u64 x = wd->perm_next;

	if (++wd->perm_next >= wd->slice_len)
		wd->perm_next = 0;
	return ssdload_bij(&wd->bij, x);
}

/* ---- setup / teardown --------------------------------------------------- */

/*
 * bi_end_io reads and writes the completion side from other CPUs: it has
 * a cache line of its own, away from what the worker writes per I/O
 * (issue 12 measured the false sharing with the PRNG state).
 */
static_assert(sizeof(struct ssdload_wcompl) <= SMP_CACHE_BYTES);
static_assert(!IS_ENABLED(CONFIG_SMP) ||
	      offsetof(struct ssdload_worker, compl) % SMP_CACHE_BYTES == 0);

/* bi_end_io of the cookie carrier: bio_poll() may end it, never used for I/O. */
static void ssdload_pbio_end_io(struct bio *bio)
{
}

static void ssdload_chunks_free(const struct bio_vec *v, unsigned int n)
{
	while (n--)
		__free_pages(v[n].bv_page, ssdload_chunk_order(v[n].bv_len));
}

static void ssdload_io_free(struct ssdload_io *io)
{
	bio_uninit(&io->bio);
	ssdload_chunks_free(io->wbuf, io->nr_wvecs);
	if (io->rbuf != io->wbuf)
		ssdload_chunks_free(io->rbuf, io->nr_rvecs);
	kfree(io);
}

/*
 * One buffer of bs bytes, from chunks of up to 1 MiB, described in @v.
 * Chunks are cut as ssdload_buf_cut() counts them; a large job that does
 * not fit fails with -ENOMEM rather than calling the OOM killer.  Returns
 * the number of chunks, or 0.
 */
static unsigned int ssdload_chunks_alloc(u32 bs, struct bio_vec *v, int node)
{
	u32 remaining = bs;
	unsigned int n = 0;

	while (remaining) {
		unsigned int order = ssdload_chunk_order(remaining);
		struct page *page;
		u32 len;

		page = alloc_pages_node(node, GFP_KERNEL | __GFP_RETRY_MAYFAIL |
					__GFP_NOWARN, order);
		if (!page) {
			ssdload_chunks_free(v, n);
			return 0;
		}
		len = min_t(u32, remaining, PAGE_SIZE << order);
		v[n].bv_page = page;
		v[n].bv_len = len;
		v[n].bv_offset = 0;
		n++;
		remaining -= len;
	}
	return n;
}

/*
 * Build one I/O: its write buffer (the only buffer unless the job is
 * mixed) is collected in @tmp, the read buffer of a mixed job in
 * @tmp + @maxvecs, then both are copied into the I/O.
 */
static struct ssdload_io *ssdload_io_alloc(struct ssdload_worker *w,
					   struct bio_vec *tmp,
					   unsigned int maxvecs, int node)
{
	u32 bs = w->job->bs_max;
	bool sep = ssdload_io_sep_table(w->job->mixed, w->job->fixed_len);
	unsigned int n, nr = 0, table;
	struct ssdload_io *io;

	n = ssdload_chunks_alloc(bs, tmp, node);
	if (!n)
		return NULL;
	if (w->job->mixed) {
		nr = ssdload_chunks_alloc(bs, tmp + maxvecs, node);
		if (!nr)
			goto out_free_wbuf;
	}

	table = max(n, nr);
	io = kzalloc_node(struct_size(io, bvec, sep ? table + n + nr : n),
			  GFP_KERNEL | __GFP_RETRY_MAYFAIL, node);
	if (!io)
		goto out_free_rbuf;
	io->nr_wvecs = n;
	if (sep) {
		memcpy(io->bvec + table, tmp, n * sizeof(*tmp));
		memcpy(io->bvec + table + n, tmp + maxvecs, nr * sizeof(*tmp));
		io->wbuf = io->bvec + table;
		io->rbuf = w->job->mixed ? io->bvec + table + n : io->wbuf;
		io->nr_rvecs = w->job->mixed ? nr : n;
	} else {
		memcpy(io->bvec, tmp, n * sizeof(*tmp));
		io->wbuf = io->bvec;
		io->rbuf = io->bvec;
		io->nr_rvecs = n;
	}
	io->w = w;
	bio_init(&io->bio, NULL, io->bvec, table, REQ_OP_READ);
	return io;

out_free_rbuf:
	ssdload_chunks_free(tmp + maxvecs, nr);
out_free_wbuf:
	ssdload_chunks_free(tmp, n);
	return NULL;
}

void ssdload_worker_free_ios(struct ssdload_worker *w)
{
	unsigned int i;

	if (!w->pool.ios) {
		kvfree(w->pool.free);
		w->pool.free = NULL;
		return;
	}
	if (w->polled)
		bio_uninit(&w->poll.pbio);
	for (i = 0; i < w->pool.nr_ios; i++)
		ssdload_io_free(w->pool.ios[i]);
	kvfree(w->pool.ios);
	kvfree(w->pool.free);
	w->pool.ios = NULL;
	w->pool.free = NULL;
	w->pool.nr_ios = 0;
	w->pool.nr_free = 0;
}

void ssdload_worker_free(struct ssdload_worker *w)
{
	int d;

	if (!w)
		return;
	if (w->compl.task)
		put_task_struct(w->compl.task);
	ssdload_worker_free_ios(w);
	ssdload_flush_free(w);
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		ssdload_dstat_free(&w->res.st[d]);
		ssdload_dstat_free(&w->res.ist[d]);
	}
	kfree(w->rate.sched);
	ssdload_series_free(w);
	ssdload_steps_free(w);
	free_cpumask_var(w->res.ran_on);
	kfree(w->wd);
	kfree(w);
}

/* The statistics of worker @w on @node: totals, schedules, series, steps. */
static int ssdload_worker_alloc_stats(struct ssdload_worker *w, int node)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL;
	const struct ssdload_job *job = w->job;
	int d, ret;

	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		ret = ssdload_dstat_init(&w->res.st[d], node);
		if (ret)
			return ret;
	}
	if (job->rated) {
		w->rate.sched = kcalloc_node(SSDLOAD_DIR_NR,
					     sizeof(*w->rate.sched), gfp, node);
		if (!w->rate.sched)
			return -ENOMEM;
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			if (!(job->rated_dirs & BIT(d)))
				continue;
			ret = ssdload_dstat_init(&w->res.ist[d], node);
			if (ret)
				return ret;
		}
	}
	ret = ssdload_series_alloc(w, node);
	if (ret)
		return ret;
	ret = ssdload_flush_alloc(w, node);
	if (ret)
		return ret;
	return ssdload_steps_alloc(w, node);
}

/*
 * The iodepth I/Os of worker @w on @node, with their buffers (the write
 * buffers filled).  On failure ssdload_worker_free() frees what was
 * allocated.
 */
static int ssdload_worker_alloc_ios(struct ssdload_worker *w, int node)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL;
	const struct ssdload_job *job = w->job;
	unsigned int depth = job->depth;
	unsigned int maxvecs = ssdload_buf_cut(job->bs_max, U64_MAX, NULL, NULL);
	struct bio_vec *tmp;
	unsigned int i;
	int ret = -ENOMEM;

	w->pool.ios = kvcalloc(depth, sizeof(*w->pool.ios), gfp);
	w->pool.free = kvcalloc(depth, sizeof(*w->pool.free), gfp);
	tmp = kvmalloc_array(job->mixed ? 2 * maxvecs : maxvecs, sizeof(*tmp),
			     gfp);
	if (!w->pool.ios || !w->pool.free || !tmp)
		goto out_free_tmp;
	for (i = 0; i < depth; i++) {
		struct ssdload_io *io = ssdload_io_alloc(w, tmp, maxvecs, node);

		if (!io)
			goto out_free_tmp;
		if (job->writes)
			ssdload_data_prefill(&w->cursor.dg, io->wbuf,
					     io->nr_wvecs, job->bs_max);
		w->pool.ios[i] = io;
		w->pool.free[i] = io;
		w->pool.nr_ios = i + 1;
		cond_resched();
	}
	w->pool.nr_free = depth;
	ret = 0;
out_free_tmp:
	kvfree(tmp);
	return ret;
}

/* Allocate a worker for @cpu on its node: stats, I/Os and buffers. */
struct ssdload_worker *ssdload_worker_alloc(struct ssdload_job *job,
					    unsigned int idx, unsigned int cpu)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL;
	const struct ssdload_phase *ph0 = &job->phases[0];
	int node = cpu_to_node(cpu);
	struct ssdload_worker *w;
	int ret = -ENOMEM;

	w = kzalloc_node(sizeof(*w), gfp, node);
	if (!w)
		return ERR_PTR(-ENOMEM);
	if (!zalloc_cpumask_var_node(&w->res.ran_on, gfp, node)) {
		kfree(w);
		return ERR_PTR(-ENOMEM);
	}
	w->wd = kcalloc_node(job->nr_devs, sizeof(*w->wd), gfp, node);
	if (!w->wd)
		goto out_free_worker;
	w->nr_devs = job->nr_devs;
	w->job = job;
	w->idx = idx;
	w->cpu = cpu;
	w->poll.last_cpu = cpu;
	cpumask_set_cpu(cpu, w->res.ran_on);
	w->compl.nolat = job->cfg.disable_lat;
	w->polled = job->polled;
	/* planning the slices needs the first phase's pattern (the rest: begin) */
	w->phase.random = ssdload_rw_is_random(ph0->rw);
	w->trimwrite = ssdload_rw_is_trimwrite(ph0->rw);
	ssdload_data_init(&w->cursor.dg, &job->dcfg, idx);
	w->pool.timeout_ns = job->cfg.io_timeout_ms * NSEC_PER_MSEC;
	w->poll.cookie = BLK_QC_T_NONE;
	seqcount_init(&w->res.seq);
	init_llist_head(&w->compl.done);
	ssdload_rng_seed(w, job->cfg.randseed);
	ret = ssdload_worker_alloc_stats(w, node);
	if (ret)
		goto out_free_worker;
	/*
	 * disable_lat reads the coarse clock; send times and interval
	 * boundaries are on the hrtimer's precise clock, which the coarse one
	 * lags by up to a tick: the worker would wake to find nothing due.
	 */
	w->coarse = w->compl.nolat && !w->rate.sched && !w->ser;
	ret = ssdload_worker_alloc_ios(w, node);
	if (ret)
		goto out_free_worker;
	if (w->polled) {
		bio_init(&w->poll.pbio, job->devs[0].bdev.bdev, NULL, 0,
			 REQ_OP_READ | REQ_POLLED);
		w->poll.pbio.bi_end_io = ssdload_pbio_end_io;
	}
	/* the offsets and the mix start from the seed, not the fill */
	ssdload_rng_seed(w, job->cfg.randseed);
	return w;

out_free_worker:
	ssdload_worker_free(w);
	return ERR_PTR(ret);
}

/* ---- the I/O path --------------------------------------------------------- */

/*
 * Completion.  With latency recording this is the one clock read of the
 * I/O.  A completion that runs in the worker's own thread (null_blk
 * irqmode=0, polled completions from bio_poll(), a refused REQ_NOWAIT
 * submission) goes on a private list: no atomics, no wakeup.  Any other
 * context pushes on the lock-free list and wakes the worker.
 */
void ssdload_end_io(struct bio *bio)
{
	struct ssdload_io *io = container_of(bio, struct ssdload_io, bio);
	struct ssdload_worker *w = io->w;

	if (!w->compl.nolat)
		io->done_ns = ktime_get_ns();
	io->status = bio->bi_status;
	io->split = ssdload_bio_was_split(bio);
	if (in_task() && current == w->compl.task) {
		io->node.next = w->pool.local;
		w->pool.local = &io->node;
		return;
	}
	/* teardown does synchronize_rcu() before the task and I/O go away */
	rcu_read_lock();
	if (llist_add(&io->node, &w->compl.done))
		wake_up_process(w->compl.task);
	rcu_read_unlock();
}

/* The first failed I/O of the worker is the job's error; stop issuing. */
static void ssdload_io_failed(struct ssdload_worker *w, struct ssdload_io *io,
			      int err)
{
	if (!w->res.ioerr.err) {
		w->res.ioerr.err = err;
		w->res.ioerr.dir = io->dir;
		w->res.ioerr.dev = io->dev;
		w->res.ioerr.pos = io->pos;
	}
	if (!READ_ONCE(w->job->failed)) {
		struct ssdload_job *job = w->job;
		unsigned int i;

		WRITE_ONCE(job->failed, true);
		/* a worker asleep until its next send time stops now */
		for (i = 0; i < job->nr_workers; i++)
			if (job->workers[i] != w)
				wake_up_process(job->workers[i]->compl.task);
	}
}

/*
 * A polled submission found no free tag (REQ_NOWAIT): it never reached
 * the device.  It goes on the retry list, to go out again with the same
 * direction and offset once our own polling freed tags; it stays counted
 * in submitted, so the quota still ends the run exactly.  Far more
 * refusals in a row than any queue has tags, with nothing of ours in
 * flight, means the queue refuses for good: end the job.
 */
static void ssdload_requeue(struct ssdload_worker *w, struct ssdload_io *io)
{
	WRITE_ONCE(w->res.cnt.nowait_retries, w->res.cnt.nowait_retries + 1);
	if (++w->poll.again_streak > 1000000 && w->pool.inflight == 0)
		ssdload_io_failed(w, io, -EAGAIN);
	io->node.next = w->pool.retry;
	w->pool.retry = &io->node;
}

/*
 * Issuing ended early (stop, error, deadline): forget the refused I/Os
 * and the writes still due after their trims.
 */
static void ssdload_drop_retries(struct ssdload_worker *w)
{
	while (w->pool.follow) {
		struct ssdload_io *io = llist_entry(w->pool.follow,
						    struct ssdload_io, node);

		w->pool.follow = w->pool.follow->next;
		w->pool.free[w->pool.nr_free++] = io;
	}
	while (w->pool.retry) {
		struct ssdload_io *io = llist_entry(w->pool.retry,
						    struct ssdload_io, node);

		w->pool.retry = w->pool.retry->next;
		if (io->measured && !(w->trimwrite &&
				      io->dir == SSDLOAD_DIR_WRITE) &&
		    w->cursor.submitted)
			w->cursor.submitted--;
		w->pool.free[w->pool.nr_free++] = io;
	}
}

static void ssdload_reap_one(struct ssdload_worker *w, struct ssdload_io *io)
{
	if (unlikely(w->pst)) {
		/* steps: the drain of the previous phases, for the gap */
		if (io->epoch != w->phase.epoch) {
			if (w->gap.old_inflight)
				w->gap.old_inflight--;
			w->gap.old_last_ns = max(w->gap.old_last_ns,
						 io->done_ns);
		}
		w->gap.last_reap_ns = max(w->gap.last_reap_ns, io->done_ns);
	}
	w->pool.inflight--;
	io->inflight = false;
	if (unlikely(io->late))
		WRITE_ONCE(w->res.cnt.stuck, w->res.cnt.stuck - 1);
	if (unlikely(io->flush)) {
		if (io->status)
			ssdload_io_failed(w, io,
					  blk_status_to_errno(io->status));
		ssdload_flush_reaped(w, io);
		return;
	}
	if (unlikely(io->status == BLK_STS_AGAIN) && w->polled) {
		ssdload_requeue(w, io);
		return;
	}
	w->poll.again_streak = 0;
	if (unlikely(io->vgen)) {
		ssdload_verify_written(w, io);
		io->vgen = 0;
	}
	if (unlikely(io->split))
		WRITE_ONCE(w->res.cnt.split_ios, w->res.cnt.split_ios + 1);
	ssdload_record(w, io);
	if (unlikely(io->status)) {
		ssdload_io_failed(w, io, blk_status_to_errno(io->status));
	} else if (w->trimwrite && io->dir == SSDLOAD_DIR_TRIM) {
		/* the write of the same bytes goes once the trim completed */
		io->dir = SSDLOAD_DIR_WRITE;
		io->node.next = w->pool.follow;
		w->pool.follow = &io->node;
		return;
	}
	w->pool.free[w->pool.nr_free++] = io;
}

/* Reap @list; returns its I/Os, and sets *@measured if one was measured. */
static unsigned int ssdload_reap_list(struct ssdload_worker *w,
				      struct llist_node *list, bool *measured)
{
	struct ssdload_io *io, *next;
	unsigned int n = 0;

	llist_for_each_entry_safe(io, next, list, node) {
		*measured |= io->measured;
		ssdload_reap_one(w, io);
		n++;
	}
	return n;
}

/*
 * Reap completed I/Os (the statistics do not depend on the order), in one
 * seqcount section: live readers see each worker's figures as a set.
 */
static void ssdload_reap(struct ssdload_worker *w)
{
	struct llist_node *list = w->pool.local;
	bool measured = false;
	unsigned int n = 0;

	if (!list && llist_empty(&w->compl.done))
		return;
	preempt_disable();
	write_seqcount_begin(&w->res.seq);
	if (list) {
		w->pool.local = NULL;
		n += ssdload_reap_list(w, list, &measured);
	}
	if (!llist_empty(&w->compl.done))
		n += ssdload_reap_list(w, llist_del_all(&w->compl.done),
				       &measured);
	/* one completion batch, as fio's iodepth_complete counts a getevents */
	if (measured)
		ssdload_count(&w->res.reaps[ssdload_batch_bucket(n)]);
	write_seqcount_end(&w->res.seq);
	preempt_enable();
}

/*
 * The pass clock: one read per pass of the worker loop, the ramp/deadline
 * clock and, with disable_lat, the completion time of what the pass just
 * reaped.  With disable_lat nothing needs ns precision: the coarse (tick)
 * clock reads no hardware, and the worker reads the precise clock once at
 * its end.
 */
static u64 ssdload_now(struct ssdload_worker *w)
{
	return w->coarse ? ktime_get_coarse_ns() : ktime_get_ns();
}

/* May anything go out at @now (a retry included)? */
static bool ssdload_may_issue(struct ssdload_worker *w, u64 now)
{
	if (ssdload_worker_stopped(w))
		return false;
	return !w->phase.deadline_ns || now < w->phase.deadline_ns;
}

/* May a new I/O go out at @now? */
static bool ssdload_may_submit(struct ssdload_worker *w, u64 now)
{
	if (!ssdload_may_issue(w, now))
		return false;
	if (!ssdload_measuring(w, now))
		return true;
	if (w->phase.has_quota && w->cursor.submitted >= w->phase.quota)
		return false;
	return !(w->cursor.one_pass && !w->cursor.devs_left);
}

/* Direction of the next I/O: fixed, or drawn per I/O from rwmixread. */
VISIBLE_IF_KUNIT u8 ssdload_next_dir(struct ssdload_worker *w)
{
	if (!w->phase.mixed)
		return w->phase.fixed_dir;
	return ssdload_rng_below(w, 100) < w->phase.rwmixread ?
	       SSDLOAD_DIR_READ : SSDLOAD_DIR_WRITE;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_next_dir);

/*
 * Device of the next I/O (file_service_type): the worker moves on after
 * fst_n I/Os (1 by default), in order (roundrobin), to a random device
 * (random), or, for sequential without :N, once its slice is covered (a
 * one pass) or once it issued a slice's worth of bytes there (runs limited
 * by time or count).  A device whose one-pass slice is covered is skipped.
 */
static unsigned int ssdload_next_dev(struct ssdload_worker *w)
{
	const struct ssdload_cfg *cfg = &w->job->cfg;
	unsigned int n = w->nr_devs, cur = w->cursor.dev, i;
	bool done;

	if (n == 1)
		return 0;
	if (w->cursor.one_pass)
		done = !w->wd[cur].left;
	else if (cfg->fst == SSDLOAD_FST_SEQUENTIAL && !cfg->fst_n)
		/* time or count limited: a slice's worth, then the next */
		done = w->cursor.dev_bytes >= w->wd[cur].slice_len * w->job->ba;
	else
		done = false;
	if (!done && (w->cursor.dev_ios < max(cfg->fst_n, 1U) ||
		      (cfg->fst == SSDLOAD_FST_SEQUENTIAL && !cfg->fst_n)))
		goto out;
	w->cursor.dev_ios = 0;
	w->cursor.dev_bytes = 0;
	if (cfg->fst == SSDLOAD_FST_RANDOM) {
		for (i = 0; i < 64; i++) {
			cur = ssdload_rng_below(w, n);
			if (!w->cursor.one_pass || w->wd[cur].left)
				goto found;
		}
	}
	/* roundrobin, sequential, or random after many covered picks */
	for (i = 1; i <= n; i++) {
		cur = (w->cursor.dev + i) % n;
		if (!w->cursor.one_pass || w->wd[cur].left)
			break;
	}
found:
	w->cursor.dev = cur;
out:
	w->cursor.dev_ios++;
	return cur;
}

/* Length of the next I/O in @dir: bs, or drawn from bssplit/bsrange. */
static u32 ssdload_next_len(struct ssdload_worker *w, u8 dir)
{
	if (w->phase.uniform_bs)
		return w->phase.bs;
	return ssdload_bs_draw(&w->phase.ph->bsd[dir], ssdload_rng_next(w));
}

/*
 * Byte offset of the next I/O in direction @dir on device @dev, whose
 * length *@len the pass may shorten: the next unit of the worker's
 * permutation of its slice (random one pass with one block size), a
 * unit drawn from random_distribution or a uniform unit of the span
 * (random), or the next bytes of the worker's sequential slice, wrapping
 * at its end.  Units are blockalign bytes; random units are those where
 * the largest block fits, rounded down to the phase's own alignment
 * when a step has one.  Sequential reads and writes of rw=rw keep a
 * position each, as fio does, so that both streams are sequential.  In a
 * one-pass run an I/O never goes past what is left of the slice.
 */
VISIBLE_IF_KUNIT u64 ssdload_target(struct ssdload_worker *w, u8 dir,
				    unsigned int dev, u32 *len)
{
	struct ssdload_job *job = w->job;
	const struct ssdload_dev *d = &job->devs[dev];
	struct ssdload_wdev *wd = &w->wd[dev];
	u64 unit, off, slice;

	if (w->cursor.one_pass && wd->left && *len > wd->left)
		*len = wd->left;
	if (wd->perm) {
		unit = wd->slice_start + ssdload_perm_next(wd);
	} else if (w->phase.random) {
		if (d->dist[dir])
			unit = ssdload_dist_draw(d->dist[dir],
						 ssdload_rng_next(w),
						 ssdload_rng_next(w));
		else
			unit = ssdload_rng_below(w, d->nr_units);
	} else {
		slice = wd->slice_len * job->ba;
		off = wd->next[dir];
		if (off + *len > slice) {
			if (w->cursor.one_pass && off < slice)
				*len = slice - off;
			else
				off = 0;
		}
		wd->next[dir] = off + *len >= slice ? 0 : off + *len;
		return d->span_start + wd->slice_start * job->ba + off;
	}
	off = unit * job->ba;
	/* the phase's alignment, a multiple of the unit: round down */
	if (w->phase.ba > job->ba)
		off -= off % w->phase.ba;
	return d->span_start + off;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_target);

#if IS_ENABLED(CONFIG_KUNIT)
/* The offset of the next I/O in @dir on the first device. */
u64 ssdload_next_pos(struct ssdload_worker *w, u8 dir)
{
	u32 len = ssdload_next_len(w, dir);

	return ssdload_target(w, dir, 0, &len);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_next_pos);
#endif

/* Build the bio of @io for its direction and offset (not yet submitted). */
static void ssdload_prep(struct ssdload_worker *w, struct ssdload_io *io)
{
	struct block_device *bdev = w->job->devs[io->dev].bdev.bdev;
	const struct bio_vec *buf;
	unsigned int i, nr;
	blk_opf_t opf;
	u32 left;

	io->status = BLK_STS_OK;
	io->late = false;
	io->split = false;
	if (io->dir == SSDLOAD_DIR_TRIM) {
		bio_reset(&io->bio, bdev, REQ_OP_DISCARD | REQ_NOMERGE);
		io->bio.bi_iter.bi_size = io->len;
		goto out;
	}
	/* one ssdload I/O = one request: no merging of sequential bios */
	opf = (io->dir == SSDLOAD_DIR_WRITE ? REQ_OP_WRITE : REQ_OP_READ) |
	      REQ_NOMERGE;
	/* polled: fail fast instead of sleeping for a tag only we can free */
	if (w->polled)
		opf |= REQ_POLLED | REQ_NOWAIT;
	if (io->dir == SSDLOAD_DIR_WRITE &&
	    unlikely(w->flush.fua || io->barrier))
		opf |= ssdload_flush_opf(w, io);
	bio_reset(&io->bio, bdev, opf);
	if (io->dir == SSDLOAD_DIR_WRITE) {
		buf = io->wbuf;
		nr = io->nr_wvecs;
		ssdload_data_write(&w->cursor.dg, buf, nr, io->len, io->pos);
		if (unlikely(w->job->vfy.map))
			ssdload_verify_write(w, io, buf, nr);
	} else {
		buf = io->rbuf;
		nr = io->nr_rvecs;
	}
	left = io->len;
	for (i = 0; i < nr && left; i++) {
		u32 l = min(left, buf[i].bv_len);

		__bio_add_page(&io->bio, buf[i].bv_page, l, 0);
		left -= l;
	}
out:
	io->bio.bi_iter.bi_sector = io->pos >> SECTOR_SHIFT;
	/* bio_reset() zeroes it; blk-mq sets the real one at dispatch */
	io->bio.bi_cookie = BLK_QC_T_NONE;
	io->bio.bi_end_io = ssdload_end_io;
	io->bio.bi_private = io;
}

/*
 * Direction, device, length and offset of a new I/O.  In a one-pass run
 * the measured bytes count against the slice of the device.  (trimwrite:
 * the write of each trim is not planned here; the trim's own I/O goes out
 * again as that write once the trim completed.)
 */
static void ssdload_plan_io(struct ssdload_worker *w, struct ssdload_io *io,
			    u8 dir, bool measured)
{
	struct ssdload_wdev *wd;

	io->dir = dir;
	io->dev = ssdload_next_dev(w);
	io->len = ssdload_next_len(w, io->dir);
	io->pos = ssdload_target(w, io->dir, io->dev, &io->len);
	if (unlikely(w->nr_devs > 1))
		w->cursor.dev_bytes += io->len;
	if (w->cursor.one_pass && measured) {
		wd = &w->wd[io->dev];
		wd->left -= io->len;
		if (!wd->left)
			w->cursor.devs_left--;
	}
}

/* Submit a prepared I/O; @stamp is its submit time. */
static void ssdload_submit(struct ssdload_worker *w, struct ssdload_io *io,
			   u64 stamp)
{
	unsigned int inflight;

	if (unlikely(w->gap.open) && io->epoch == w->phase.epoch)
		ssdload_step_gap(w, stamp);
	inflight = ++w->pool.inflight;
	if (io->measured)
		ssdload_count(&w->res.depth[ssdload_depth_bucket(inflight)]);
	io->inflight = true;
	io->submit_ns = stamp;
	w->poll.last_io = io;
	submit_bio(&io->bio);
}

/*
 * Rate control: the direction of the next new I/O, if one is due at @now.
 * As fio's rate_ddir(): the direction rwmixread draws if it is due or
 * uncapped, else the other direction of a mixed job if that one is; if
 * neither, the worker may sleep until the earlier of their times.
 */
static bool ssdload_rate_pick(struct ssdload_worker *w, u64 now, u8 *dir)
{
	const struct ssdload_sched *s = w->rate.sched;
	u8 d, o;

	/*
	 * One draw per I/O, however many passes it waits: the offsets,
	 * sizes and mix come from one PRNG, and must not depend on timing.
	 */
	if (!w->rate.drawn) {
		w->rate.dir = ssdload_next_dir(w);
		w->rate.drawn = true;
	}
	d = w->rate.dir;
	o = d ^ 1;
	if (!s[d].on || s[d].next_ns <= now) {
		w->rate.drawn = false;
		goto out;
	}
	if (!w->phase.rate_mix) {
		w->rate.wake_ns = s[d].next_ns;
		return false;
	}
	if (s[o].on && s[o].next_ns > now) {
		w->rate.wake_ns = min(s[d].next_ns, s[o].next_ns);
		return false;
	}
	/* the other direction is due: it goes, the drawn one waits */
	d = o;
out:
	*dir = d;
	return true;
}

/* The planned @io takes its direction's next intended time, if any. */
static void ssdload_rate_stamp(struct ssdload_worker *w, struct ssdload_io *io)
{
	struct ssdload_sched *s = &w->rate.sched[io->dir];

	if (!s->on) {
		io->intended_ns = 0;
		return;
	}
	io->intended_ns = s->next_ns;
	ssdload_sched_advance(s, io->len);
}

/*
 * Enter phase @idx of the run at @t0: its direction, mix and sizes, its
 * iodepth (the I/Os beyond it stay free), its ramp and end, its share of
 * number_ios and its rate schedules.  The I/Os of the phase before that
 * are still in flight complete in it; the first submission of this one
 * closes the gap (steps).
 */
void ssdload_phase_enter(struct ssdload_worker *w, unsigned int idx, u64 t0)
{
	struct ssdload_job *job = w->job;
	const struct ssdload_phase *ph = &job->phases[idx];
	unsigned int active = ssdload_phase_workers(ph, job->nr_workers);
	/* a worker beyond the step's numjobs sits it out, as an idle step */
	bool idle = ph->idle || w->idx >= active;
	int d;

	if (w->phase.ph) {
		w->phase.epoch++;
		/*
		 * The gap runs from the drain of the previous phase's I/O: a
		 * phase in which this worker issued some (not idle, not a
		 * share of number_ios of 0) to one that issues.
		 */
		w->gap.open = w->gap.issued && !idle;
		w->gap.old_inflight = w->pool.inflight;
		w->gap.old_last_ns = w->gap.last_reap_ns;
		/* the idle phase ends here */
		if (w->pst && w->phase.ph->idle)
			ssdload_pstat_update(w, w->phase.idx, t0);
	}
	w->gap.issued = false;
	w->phase.idle = idle;
	w->phase.ph = ph;
	w->phase.idx = idx;
	w->phase.random = ssdload_rw_is_random(ph->rw);
	w->phase.mixed = ssdload_rw_is_mixed(ph->rw);
	w->phase.fixed_dir = ssdload_rw_dir(ph->rw);
	w->phase.rwmixread = ph->rwmixread;
	w->phase.uniform_bs = ph->uniform_bs;
	w->phase.bs = ph->bs_max;
	w->phase.ba = ph->ba;
	w->phase.spare = ssdload_phase_spare(w, ph, idle);
	w->phase.ramp_end_ns = t0 + ph->ramp_ms * NSEC_PER_MSEC;
	if (ph->idle)
		w->phase.deadline_ns = t0 + ph->idle_ms * NSEC_PER_MSEC;
	else if (ph->runtime_ms)
		w->phase.deadline_ns = w->phase.ramp_end_ns +
				       ph->runtime_ms * NSEC_PER_MSEC;
	else
		w->phase.deadline_ns = 0;
	if (!w->cursor.one_pass) {
		w->phase.has_quota = ph->number_ios;
		w->phase.quota = w->idx < active ?
			   ssdload_share(ph->number_ios, active, w->idx) : 0;
	}
	w->cursor.submitted = 0;
	w->rate.drawn = false;
	w->phase.paced = w->rate.sched && ph->rated && !idle;
	w->phase.rate_mix = w->phase.mixed && ph->rwmixread > 0 &&
			    ph->rwmixread < 100;
	for (d = 0; w->rate.sched && d < SSDLOAD_DIR_NR; d++) {
		bool bw = !ph->rate_iops[d];

		/* a phase without a rate in @d: its schedule is off */
		if (!w->phase.paced || !(ph->rated_dirs & BIT(d))) {
			w->rate.sched[d].on = false;
			continue;
		}
		/* each phase and loop its own arrivals */
		ssdload_sched_init(&w->rate.sched[d],
				   bw ? ph->rate[d] : ph->rate_iops[d], bw,
				   job->cfg.rate_process == SSDLOAD_RATE_POISSON,
				   active, w->idx, ph->bs_max, t0,
				   job->cfg.randseed + d +
				   ((u64)w->phase.loop * job->nr_phases + idx) *
				   SSDLOAD_DIR_NR);
	}
	if (w->pst) {
		struct ssdload_pstat *ps = &w->pst[idx];

		/* the loops of a step add up */
		preempt_disable();
		write_seqcount_begin(&w->res.seq);
		if (ps->last_ns > ps->start_ns)
			ps->ns += ps->last_ns - ps->start_ns;
		/* an idle step counts its time; a worker sitting out, none */
		ps->start_ns = ph->idle ? t0 : idle ? 0 : w->phase.ramp_end_ns;
		ps->last_ns = 0;
		ps->entries++;
		write_seqcount_end(&w->res.seq);
		preempt_enable();
	}
}

/*
 * The measured end of the current loop of phase @idx: @end (an idle
 * phase's end; an I/O phase's is its last measured completion, kept by
 * ssdload_record_step()).
 */
void ssdload_pstat_update(struct ssdload_worker *w, unsigned int idx, u64 end)
{
	WRITE_ONCE(w->pst[idx].last_ns, end);
}

/*
 * Arm a one-pass worker's pass, at the start and at each loop: every slice
 * to be covered, from its start and the first device with one (fio resets
 * its files at each loop).  False when the worker has no slice (more
 * workers than blocks): nothing to do.
 */
bool ssdload_pass_arm(struct ssdload_worker *w)
{
	unsigned int i, d;

	w->cursor.devs_left = 0;
	for (i = 0; i < w->nr_devs; i++) {
		struct ssdload_wdev *wd = &w->wd[i];

		wd->left = wd->pass_len;
		wd->perm_next = 0;
		for (d = 0; d < SSDLOAD_DIR_NR; d++)
			wd->next[d] = 0;
		if (wd->left)
			w->cursor.devs_left++;
	}
	w->cursor.dev = 0;
	while (w->cursor.devs_left && !w->wd[w->cursor.dev].left)
		w->cursor.dev++;
	w->cursor.dev_ios = 0;
	w->cursor.dev_bytes = 0;
	return w->cursor.devs_left;
}

/*
 * The current phase ended at @now (its deadline, its share of number_ios
 * or its pass): enter the next one, back to back, if there is one (the
 * list runs `loops` times) and the run was not stopped.  A phase that
 * ran to its deadline hands that instant to the next, so that the
 * workers stay in step however late each noticed it.
 */
bool ssdload_phase_next(struct ssdload_worker *w, u64 now)
{
	struct ssdload_job *job = w->job;
	unsigned int next = w->phase.idx + 1;
	u64 t0 = now;

	if (READ_ONCE(job->stop) || READ_ONCE(job->failed) ||
	    kthread_should_stop())
		return false;
	/* phases without a share of number_ios may follow by the thousand */
	cond_resched();
	if (next == job->nr_phases) {
		if (++w->phase.loop >= job->run_loops)
			return false;
		next = 0;
		if (w->cursor.one_pass && !ssdload_pass_arm(w))
			return false;
	}
	if (w->phase.deadline_ns && w->phase.deadline_ns < now)
		t0 = w->phase.deadline_ns;
	ssdload_phase_enter(w, next, t0);
	return true;
}

/* The first submission of a phase, at @now: the gap since the last one. */
void ssdload_step_gap(struct ssdload_worker *w, u64 now)
{
	struct ssdload_pstat *ps;
	u64 gap = 0;

	w->gap.open = false;
	if (!w->pst)
		return;
	ps = &w->pst[w->phase.idx];
	if (!w->gap.old_inflight && now > w->gap.old_last_ns)
		gap = now - w->gap.old_last_ns;
	WRITE_ONCE(ps->gap_max_ns, max(ps->gap_max_ns, gap));
	WRITE_ONCE(ps->gap_sum_ns, ps->gap_sum_ns + gap);
	WRITE_ONCE(ps->gaps, ps->gaps + 1);
}

/*
 * The run starts at @t0: the first interval of the series and the first
 * phase.
 */
void ssdload_worker_begin(struct ssdload_worker *w, u64 t0)
{
	const struct ssdload_cfg *cfg = &w->job->cfg;

	if (w->ser)
		ssdload_series_begin(w->ser, t0,
				     cfg->log_interval_ms * NSEC_PER_MSEC);
	w->phase.ph = NULL;
	w->phase.loop = 0;
	w->phase.epoch = 0;
	w->begin_ns = t0;
	ssdload_think_begin(w, t0);
	ssdload_phase_enter(w, 0, t0);
}

/*
 * The next I/O of a group, or NULL once issuing ended: a refused one
 * first (same direction and offset, already counted), then the write due
 * after a completed trim (trimwrite: the pair counts once, at its trim),
 * else a new one while @issuing and the quota allows.
 */
static struct ssdload_io *ssdload_next_io(struct ssdload_worker *w, u64 now,
					  bool *issuing)
{
	struct ssdload_io *io;
	u8 dir;

	if (w->pool.retry) {
		if (!ssdload_may_issue(w, now))
			return NULL;
		io = llist_entry(w->pool.retry, struct ssdload_io, node);
		w->pool.retry = w->pool.retry->next;
		return io;
	}
	if (w->pool.follow) {
		/* trimwrite: same device, offset and length as its trim */
		if (!ssdload_may_issue(w, now))
			return NULL;
		io = llist_entry(w->pool.follow, struct ssdload_io, node);
		w->pool.follow = w->pool.follow->next;
		io->measured = ssdload_measuring(w, now);
		io->intended_ns = 0;	/* its trim was the scheduled send */
		ssdload_flush_plan(w, io);
		return io;
	}
	/* a flush waits for the writes before it: nothing new meanwhile */
	if (!*issuing || w->pool.nr_free <= w->phase.spare ||
	    unlikely(w->flush.due))
		return NULL;
	if (!ssdload_may_submit(w, now))
		/*
		 * The phase ended: the worker loop enters the next one, if
		 * any, on its next pass, once this batch was submitted (its
		 * I/Os are then the previous phase's in flight).
		 */
		return NULL;
	if (unlikely(w->phase.idle)) {
		/* an idle step, or one this worker sits out: sleep until its end */
		w->rate.wake_ns = w->phase.deadline_ns;
		return NULL;
	}
	if (!w->phase.paced)
		dir = ssdload_next_dir(w);
	else if (!ssdload_rate_pick(w, now, &dir))
		return NULL;
	io = w->pool.free[--w->pool.nr_free];
	io->measured = ssdload_measuring(w, now);
	io->phase = w->phase.idx;
	io->epoch = w->phase.epoch;
	w->gap.issued = true;
	ssdload_plan_io(w, io, dir, io->measured);
	if (unlikely(w->flush.plan))
		ssdload_flush_plan(w, io);
	if (w->phase.paced)
		ssdload_rate_stamp(w, io);
	else
		io->intended_ns = 0;
	if (io->measured)
		w->cursor.submitted++;
	return io;
}

/*
 * Submit every free I/O (and every refused one), in plugs of up to 32
 * sized to what they carry: blk-mq then allocates each plug's requests in
 * one batch (it batches at most 32) and dispatches them together.  A
 * single I/O goes without a plug.  The bios of a group are built first;
 * then the clock is read once and the group is submitted back to back
 * under its plug.  That reading is the submit time of the group's I/Os:
 * the block layer starts timing them at the same point, when it
 * allocates the plug's requests (or, from 6.9, from the clock it caches
 * per plug).  Returns whether new I/Os may still be issued.
 */
static bool ssdload_submit_batch(struct ssdload_worker *w, u64 now,
				 bool issuing)
{
	struct ssdload_io *group[SSDLOAD_PLUG_MAX_IOS];
	struct blk_plug plug;
	unsigned int i, n;
	bool first = true;

	/* iodepth 1: one I/O, no group, no plug, stamped by the pass clock */
	if (w->pool.nr_free - w->phase.spare == 1 && !w->pool.retry &&
	    !w->pool.follow) {
		struct ssdload_io *io = ssdload_next_io(w, now, &issuing);
		u64 *batches = w->res.submits;

		if (io) {
			ssdload_prep(w, io);
			if (io->measured)
				ssdload_count(&batches[ssdload_batch_bucket(1)]);
			ssdload_submit(w, io, now);
		}
		return issuing;
	}

	for (;;) {
		n = 0;
		while (n < SSDLOAD_PLUG_MAX_IOS) {
			struct ssdload_io *io = ssdload_next_io(w, now, &issuing);

			if (!io)
				break;
			ssdload_prep(w, io);
			group[n++] = io;
		}
		if (!n)
			return issuing;
		/* a lone I/O right after the pass clock keeps that reading */
		if (!first || n > 1)
			now = ssdload_now(w);
		first = false;
		if (n > 1)
			ssdload_start_plug(&plug, n);
		/* one submission batch (fio's iodepth_submit), if measured */
		if (group[n - 1]->measured)
			ssdload_count(&w->res.submits[ssdload_batch_bucket(n)]);
		for (i = 0; i < n; i++)
			ssdload_submit(w, group[i], now);
		if (n > 1)
			blk_finish_plug(&plug);
		if (n < SSDLOAD_PLUG_MAX_IOS)
			return issuing;
	}
}

static void ssdload_poll_cookie(struct ssdload_worker *w, blk_qc_t cookie)
{
	DEFINE_IO_COMP_BATCH(iob);

	w->poll.pbio.bi_cookie = cookie;
	bio_poll(&w->poll.pbio, &iob, 0);
	if (iob.complete)
		iob.complete(&iob);
}

/*
 * Polled completions: bio_poll() on a private bio carrying the cookie
 * (the hardware queue) of our latest dispatched I/O.  All I/Os of a worker
 * map to the poll queue of its CPU, so one cookie reaps them all, batched
 * through the io_comp_batch where the driver supports it.  The carrier is
 * never an I/O of ours: even if bio_poll() ends it (a dying queue), no
 * in-flight or reaped I/O is touched.  A worker that was moved off its CPU
 * (hotplug) has I/Os left on the old CPU's queue: it also polls every
 * other queue that one of its in-flight I/Os was dispatched to.
 */
static void ssdload_poll(struct ssdload_worker *w)
{
	blk_qc_t cookie = READ_ONCE(w->poll.last_io->bio.bi_cookie);
	unsigned int i;

	if (cookie != BLK_QC_T_NONE) {
		w->poll.cookie = cookie;
	} else if (w->poll.cookie == BLK_QC_T_NONE) {
		/*
		 * The latest submission was refused (no tag) before any
		 * cookie was seen: take one from an I/O in flight.
		 */
		for (i = 0; i < w->pool.nr_ios &&
		     w->poll.cookie == BLK_QC_T_NONE; i++) {
			struct ssdload_io *io = w->pool.ios[i];

			if (io->inflight)
				w->poll.cookie = READ_ONCE(io->bio.bi_cookie);
		}
	}
	if (unlikely(w->poll.migrated)) {
		for (i = 0; i < w->pool.nr_ios; i++) {
			struct ssdload_io *io = w->pool.ios[i];

			cookie = READ_ONCE(io->bio.bi_cookie);
			if (io->inflight && cookie != BLK_QC_T_NONE &&
			    cookie != w->poll.cookie)
				ssdload_poll_cookie(w, cookie);
		}
	}
	if (w->poll.cookie == BLK_QC_T_NONE) {
		/* not dispatched yet (requeue or kblockd): try again */
		cpu_relax();
		return;
	}
	ssdload_poll_cookie(w, w->poll.cookie);
}

/* How often io_timeout_ms looks at the I/Os in flight: 4 times a period. */
static u64 ssdload_scan_period(const struct ssdload_worker *w)
{
	return max_t(u64, w->pool.timeout_ns / 4, NSEC_PER_MSEC);
}

/*
 * io_timeout_ms: count the in-flight I/Os that just became older than the
 * timeout (each once: timed_out), and how many of them are still in
 * flight (stuck), so that a device that stopped completing shows up in
 * progress and summary.  Runs at most four times per timeout period.
 */
static void ssdload_scan_timeouts(struct ssdload_worker *w, u64 now)
{
	unsigned int i;

	w->pool.next_scan_ns = now + ssdload_scan_period(w);
	for (i = 0; i < w->pool.nr_ios; i++) {
		struct ssdload_io *io = w->pool.ios[i];

		if (io->inflight && !io->late && now > io->submit_ns &&
		    now - io->submit_ns >= w->pool.timeout_ns) {
			io->late = true;
			WRITE_ONCE(w->res.cnt.timed_out,
				   w->res.cnt.timed_out + 1);
			WRITE_ONCE(w->res.cnt.stuck, w->res.cnt.stuck + 1);
		}
	}
}

/* Note the CPU of this pass: hotplug may have moved the thread. */
static void ssdload_track_cpu(struct ssdload_worker *w)
{
	unsigned int cpu = raw_smp_processor_id();

	if (unlikely(cpu != w->poll.last_cpu)) {
		w->poll.last_cpu = cpu;
		w->poll.migrated = true;
		cpumask_set_cpu(cpu, w->res.ran_on);
	}
}

/*
 * Rate control with nothing due, or a time series: sleep on an hrtimer
 * until the next intended send time (not past the deadline), the next
 * interval boundary or the next timeout scan, whichever comes first, or
 * a completion or a stop.  The timer has no slack: the send times are
 * the point of the run.
 */
static void ssdload_wait_until(struct ssdload_worker *w, bool issuing)
{
	u64 until = U64_MAX;
	ktime_t t;

	if (issuing && w->rate.wake_ns) {
		until = w->rate.wake_ns;
		if (w->phase.deadline_ns)
			until = min(until, w->phase.deadline_ns);
	}
	if (w->ser)
		until = min(until, w->ser->next_ns);
	if (w->pool.timeout_ns)
		until = min(until, w->pool.next_scan_ns);
	t = ns_to_ktime(until);
	schedule_hrtimeout_range(&t, 0, HRTIMER_MODE_ABS);
}

/*
 * Sleep until a completion, a stop, the next timeout scan or, with rate
 * control, the next intended send time, or with a time series the next
 * interval boundary.
 */
static void ssdload_wait(struct ssdload_worker *w, bool issuing)
{
	set_current_state(TASK_INTERRUPTIBLE);
	if (llist_empty(&w->compl.done) && !w->pool.local &&
	    !(issuing && (READ_ONCE(w->job->stop) || kthread_should_stop()))) {
		long scan;

		if ((issuing && w->rate.wake_ns) || w->ser) {
			ssdload_wait_until(w, issuing);
		} else if (!w->pool.timeout_ns) {
			io_schedule();
		} else {
			scan = nsecs_to_jiffies(ssdload_scan_period(w));
			io_schedule_timeout(max_t(long, 1, scan));
		}
	}
	__set_current_state(TASK_RUNNING);
}

int ssdload_worker_fn(void *data)
{
	struct ssdload_worker *w = data;
	struct ssdload_job *job = w->job;
	bool issuing = true;
	u64 now;

	if (w->gate)
		ssdload_gate_pass(w);
	if (unlikely(w->begin_ns > ktime_get_ns()))
		ssdload_start_wait(w);
	w->first_real_ns = ktime_get_real_ns();
	for (;;) {
		cond_resched();
		ssdload_track_cpu(w);
		ssdload_reap(w);
		now = ssdload_now(w);
		if (w->res.reaped_measured) {	/* disable_lat only */
			w->res.reaped_measured = false;
			w->res.last_done_ns = now;
		}
		if (unlikely(w->pool.timeout_ns) && now >= w->pool.next_scan_ns)
			ssdload_scan_timeouts(w, now);
		if (unlikely(w->ser) && now >= w->ser->next_ns)
			ssdload_series_close(w, now, false);
		while (issuing && !ssdload_may_submit(w, now))
			issuing = ssdload_phase_next(w, now);
		if (!issuing && !w->rate.issue_end_ns)
			WRITE_ONCE(w->rate.issue_end_ns, now);
		if (unlikely(w->pool.retry || w->pool.follow) &&
		    !ssdload_may_issue(w, now))
			ssdload_drop_retries(w);
		if (unlikely(w->flush.due || (w->flush.at_end && !issuing)))
			ssdload_flush_try(w, issuing, now);
		if (!issuing && !w->pool.inflight && !w->pool.retry &&
		    !w->pool.follow)
			break;

		w->rate.wake_ns = 0;
		/* thinktime: one predictable branch when it is off */
		if (unlikely(w->think.ns) && issuing && ssdload_think(w, now))
			continue;
		if ((issuing && w->pool.nr_free > w->phase.spare &&
		     !w->flush.due) || w->pool.retry || w->pool.follow) {
			issuing = ssdload_submit_batch(w, now, issuing);
			/*
			 * interrupt mode: inline completions wait on
			 * w->pool.local; with rate control, nothing due: sleep
			 */
			if (!w->polled && !w->rate.wake_ns)
				continue;
		}

		if (w->polled && (w->pool.inflight || !w->rate.wake_ns)) {
			/* poll right after submitting: no extra pass, no clock */
			if (w->pool.inflight)
				ssdload_poll(w);
			continue;
		}
		ssdload_wait(w, issuing);
	}
	/* with disable_lat, the precise end of the measured phase */
	if (w->compl.nolat && w->res.last_done_ns)
		w->res.last_done_ns = ktime_get_ns();
	/* a run that ended (or was stopped) in an idle step */
	if (w->pst && w->phase.ph->idle)
		ssdload_pstat_update(w, w->phase.idx,
				     min(ktime_get_ns(), w->phase.deadline_ns));
	/* the last record, after the last completion: the sums are exact */
	if (w->ser)
		ssdload_series_close(w, ktime_get_ns(), true);

	/* the last worker out has the run torn down (job.c) */
	if (atomic_dec_and_test(&job->nr_active))
		queue_work(ssdload_wq, &job->end_work);

	/* stay until the teardown kthread_stop()s us */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}
