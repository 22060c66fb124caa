// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: job lifecycle.
 *
 *   idle --enable=1--> running --quota/runtime--> done
 *                              --I/O error-------> error
 *                              --enable=0, rmdir,
 *                                lease closed----> stopping --drained--> stopped
 *   idle --enable=1, group set--> armed --start GROUP--> running ...
 *                                       --enable=0, rmdir,
 *                                         lease closed--> stopped
 *
 * job->lock serialises start, stop, teardown and the debugfs readers, and
 * is never held while waiting for I/O.  A stop only asks the workers to
 * stop issuing and returns at once.  Every run ends the same way: the last
 * worker to drain queues end_work, which tears the run down (threads, I/Os,
 * device) and drops the run's references on the job and on the module.
 * So a device that stops completing I/O blocks nothing but its own run:
 * enable=0, rmdir, debugfs and the other jobs go on, and rmmod is refused
 * while the run holds the module.  The statistics of a run stay until the
 * next start or until the job is released.
 */
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched/cputime.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "ssdload.h"

/*
 * A job claims its devices with itself as the holder, so no one else may
 * use them, not even another job.  shared=1 jobs all claim with this one
 * holder instead: the block layer lets a holder claim a device it holds
 * again, so shared jobs may use a device together, while a device that
 * is mounted or claimed by anyone else (a job without shared included)
 * is -EBUSY.
 */
static int ssdload_shared_holder;

/* Record why the job failed; the first reason wins until the next start. */
static __printf(3, 4) void ssdload_job_set_error(struct ssdload_job *job,
						 int err, const char *fmt, ...)
{
	va_list args;

	spin_lock(&job->err_lock);
	if (!job->err) {
		job->err = err;
		va_start(args, fmt);
		vsnprintf(job->errmsg, sizeof(job->errmsg), fmt, args);
		va_end(args);
	}
	spin_unlock(&job->err_lock);
}

/* The first failed I/O of the workers, in worker order, as the job's error. */
static void ssdload_job_collect_errors(struct ssdload_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_ioerr *e = &job->workers[i]->res.ioerr;
		static const char * const dirs[SSDLOAD_DIR_NR] = {
			"read", "write", "trim"
		};
		const char *dir = dirs[e->dir];

		if (!e->err)
			continue;
		if (e->err == -EAGAIN)
			ssdload_job_set_error(job, e->err,
					      "polled %s at offset %llu refused (no tag) a million times in a row with nothing in flight",
					      dir, e->pos);
		else
			ssdload_job_set_error(job, e->err,
					      "I/O error on %s at offset %llu%s%s",
					      dir, e->pos,
					      job->nr_devs > 1 ? " of " : "",
					      job->nr_devs > 1 ?
					      job->devs[e->dev].path : "");
		return;
	}
}

/* Free the workers (results) of the last run. */
static void ssdload_job_free_run(struct ssdload_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++)
		ssdload_worker_free(job->workers[i]);
	kfree(job->workers);
	job->workers = NULL;
	job->nr_workers = 0;
	job->run_gen++;
}

static void ssdload_job_release(struct kref *ref)
{
	struct ssdload_job *job = container_of(ref, struct ssdload_job, ref);

	ssdload_job_free_run(job);
	ssdload_steps_release(job);
	kfree(job->devs);
	kfree(job->paths);
	kfree(job->cfg.bssplit);
	kfree(job->cfg.bsrange);
	kfree(job->cfg.dist);
	free_cpumask_var(job->cpus);
	mutex_destroy(&job->lock);
	kfree(job);
}

void ssdload_job_get(struct ssdload_job *job)
{
	kref_get(&job->ref);
}

void ssdload_job_put(struct ssdload_job *job)
{
	kref_put(&job->ref, ssdload_job_release);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_job_put);

/*
 * The CPU time of a worker's thread over its whole life, as the scheduler
 * accounted it (the figures /proc/PID/stat shows), once it has exited.
 */
static void ssdload_worker_account(struct ssdload_worker *w)
{
	u64 ut, st;

	task_cputime_adjusted(w->compl.task, &ut, &st);
	w->res.usr_ns = ut;
	w->res.cpu_ns = ut + st;
	w->res.ctx = w->compl.task->nvcsw + w->compl.task->nivcsw;
}

/* Release the devices of the run and their offset tables. */
static void ssdload_job_close_devs(struct ssdload_job *job)
{
	unsigned int i;
	int d;

	for (i = 0; i < job->nr_devs; i++) {
		struct ssdload_dev *dev = &job->devs[i];

		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			ssdload_dist_free(dev->dist[d]);
			dev->dist[d] = NULL;
		}
		if (dev->bdev.bdev)
			ssdload_bdev_close(&dev->bdev);
		dev->bdev.bdev = NULL;
	}
}

/*
 * End the current run, whose workers all drained: stop the threads
 * (they wait for it), release the I/Os and the device.  Nothing here
 * waits for I/O.  Returns the run's final state.
 */
static enum ssdload_state ssdload_job_teardown(struct ssdload_job *job)
{
	unsigned int i;

	lockdep_assert_held(&job->lock);
	for (i = 0; i < job->nr_workers; i++) {
		kthread_stop(job->workers[i]->compl.task);
		ssdload_worker_account(job->workers[i]);
	}
	/* bi_end_io may still be inside its RCU section, using w->compl.task */
	synchronize_rcu();
	for (i = 0; i < job->nr_workers; i++)
		ssdload_worker_free_ios(job->workers[i]);

	job->end_ns = ktime_get_ns();
	ssdload_verify_release(job);
	ssdload_job_close_devs(job);
	ssdload_job_collect_errors(job);

	if (READ_ONCE(job->failed))
		return SSDLOAD_STATE_ERROR;
	if (READ_ONCE(job->stop))
		return SSDLOAD_STATE_STOPPED;
	return SSDLOAD_STATE_DONE;
}

/*
 * The run's last I/O was reaped.  Runs on ssdload_wq, which module exit
 * destroys, waiting for this function to return: so the module reference
 * can go before the final state is shown, and whoever sees the state
 * can unload the module at once.
 */
static void ssdload_job_end_work(struct work_struct *work)
{
	struct ssdload_job *job = container_of(work, struct ssdload_job,
					       end_work);
	enum ssdload_state state;
	int vret;

	vret = ssdload_verify_run(job);	/* reads: without job->lock */
	mutex_lock(&job->lock);
	state = ssdload_job_teardown(job);
	if (vret && vret != -EINTR) {
		const struct ssdload_vfail *f = &job->vfy.fail[0];

		if (vret == -EILSEQ)
			ssdload_job_set_error(job, vret,
					      "verify: a unit failed, the first %s at sector %llu (debugfs verify lists them)",
					      ssdload_vclass_names[f->cls],
					      f->lba);
		else
			ssdload_job_set_error(job, vret,
					      "verify: no memory for the read-back pass");
		state = SSDLOAD_STATE_ERROR;
	}
	module_put(THIS_MODULE);
	WRITE_ONCE(job->state, state);
	mutex_unlock(&job->lock);
	ssdload_job_put(job);		/* the run's reference */
}

static void ssdload_job_disarm(struct ssdload_job *job);

static void ssdload_job_request_stop(struct ssdload_job *job)
{
	unsigned int i;

	lockdep_assert_held(&job->lock);
	if (job->state == SSDLOAD_STATE_ARMED) {
		ssdload_job_disarm(job);
		return;
	}
	if (job->state != SSDLOAD_STATE_RUNNING)
		return;
	WRITE_ONCE(job->stop, true);
	WRITE_ONCE(job->state, SSDLOAD_STATE_STOPPING);
	for (i = 0; i < job->nr_workers; i++)
		wake_up_process(job->workers[i]->compl.task);
}

/*
 * enable=0, rmdir: stop issuing and return.  The job shows "stopping"
 * until its in-flight I/Os completed, then "stopped".  An armed job
 * never issued: it is torn down at once and shows "stopped".
 */
void ssdload_job_stop(struct ssdload_job *job)
{
	mutex_lock(&job->lock);
	ssdload_job_request_stop(job);
	mutex_unlock(&job->lock);
}

/*
 * A lease (debugfs) was opened (@take) or closed.  A run started (or
 * armed) while a lease was open stops when the last lease closes: the CLI
 * holds one, so even a killed CLI leaves no load behind.
 */
void ssdload_job_lease(struct ssdload_job *job, bool take)
{
	mutex_lock(&job->lock);
	if (take) {
		job->leases++;
	} else if (!--job->leases && job->leased &&
		   (job->state == SSDLOAD_STATE_RUNNING ||
		    job->state == SSDLOAD_STATE_ARMED)) {
		pr_info("job %s: its lease was closed: stopping\n",
			ssdload_job_name(job));
		ssdload_job_request_stop(job);
	}
	mutex_unlock(&job->lock);
}

static const char *ssdload_open_reason(int err)
{
	switch (err) {
	case -EBUSY:
		return "is busy (mounted or held by another user)";
	case -ENOENT:
		return "does not exist";
	case -ENOTBLK:
		return "is not a block device";
	case -ENXIO:
	case -ENODEV:
		return "has no device behind it";
	case -EACCES:
	case -EPERM:
		return "permission denied";
	case -EROFS:
		return "is read-only";
	case -ENOMEDIUM:
		return "has no medium";
	default:
		return "cannot be opened";
	}
}

/*
 * Would the block layer split an I/O of @bs bytes on @dev?  Our buffers
 * are cut into naturally aligned runs of pages (ssdload_buf_cut()), so
 * only the queue's size and segment limits and its chunk boundaries can
 * split.
 */
static bool ssdload_dev_may_split(struct ssdload_job *job,
				  struct ssdload_dev *dev, u64 bs)
{
	struct request_queue *q = bdev_get_queue(dev->bdev.bdev);
	u64 seg = min_t(u64, queue_max_segment_size(q),
			(u64)queue_segment_boundary(q) + 1);
	unsigned int chunk = q->limits.chunk_sectors;
	u64 segs = 0;

	if (bs > (u64)queue_max_sectors(q) << SECTOR_SHIFT)
		return true;
	ssdload_buf_cut(bs, seg, NULL, &segs);
	if (segs > queue_max_segments(q))
		return true;
	if (chunk) {
		u64 bsec = bs >> SECTOR_SHIFT;

		if (bsec > chunk || chunk % bsec || !job->uniform_bs ||
		    job->ba != bs || (dev->span_start >> SECTOR_SHIFT) % bsec)
			return true;
	}
	return false;
}

/* Could any I/O of the job be split on @dev? */
static bool ssdload_job_may_split(struct ssdload_job *job,
				  struct ssdload_dev *dev)
{
	unsigned int p;
	int d;
	u32 i;

	for (p = 0; p < job->nr_phases; p++) {
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			const struct ssdload_bsdist *b = &job->phases[p].bsd[d];

			if (!(job->phases[p].dirs & BIT(d)))
				continue;
			if (ssdload_dev_may_split(job, dev, b->max) ||
			    ssdload_dev_may_split(job, dev, b->min))
				return true;
			for (i = 0; i < b->nr; i++)
				if (ssdload_dev_may_split(job, dev, b->bs[i]))
					return true;
		}
	}
	return false;
}

/*
 * hipri: poll only where bio_poll() reaches the request, a blk-mq queue
 * with poll queues, that can fail a submission fast (REQ_NOWAIT: a polled
 * worker must never sleep for a tag that only its own polling frees), and
 * whose I/Os are not split (a split loses REQ_POLLED); one device, no
 * discards.  Anywhere else the run uses interrupt completions: summary
 * polled=0 and poll_fallback says why.
 */
static void ssdload_job_plan_poll(struct ssdload_job *job)
{
	struct ssdload_dev *dev = &job->devs[0];
	struct block_device *bdev = dev->bdev.bdev;
	struct request_queue *q = bdev_get_queue(bdev);

	job->polled = false;
	job->poll_fallback = SSDLOAD_POLL_OK;
	if (!job->cfg.hipri)
		return;
	if (job->nr_devs > 1)
		job->poll_fallback = SSDLOAD_POLL_MULTI_DEV;
	else if (job->dirs & BIT(SSDLOAD_DIR_TRIM))
		job->poll_fallback = SSDLOAD_POLL_DISCARD;
	else if (!queue_is_mq(q))
		job->poll_fallback = SSDLOAD_POLL_BIO_BASED;
	else if (!ssdload_mq_has_poll_queues(q))
		job->poll_fallback = SSDLOAD_POLL_NO_QUEUES;
	else if (!bdev_nowait(bdev))
		job->poll_fallback = SSDLOAD_POLL_NO_NOWAIT;
	else if (ssdload_job_may_split(job, dev))
		job->poll_fallback = SSDLOAD_POLL_SPLIT;
	else
		job->polled = true;
	if (!job->polled)
		pr_info("job %s: hipri=1 on %s: interrupt completions (poll_fallback=%s)\n",
			ssdload_job_name(job), job->filename,
			ssdload_enum_name(ssdload_poll_fallback_names,
					  job->poll_fallback));
}

/*
 * Is the random pass of @w a permutation of each slice (fio's random
 * map)?  Only for one block size aligned to itself, uniform, and not
 * norandommap: then the pass draws with replacement over the span, the
 * same number of bytes (some blocks twice, some never, as fio).
 */
VISIBLE_IF_KUNIT bool ssdload_pass_perm(const struct ssdload_job *job,
					const struct ssdload_worker *w)
{
	const struct ssdload_cfg *cfg = &job->cfg;

	return w->phase.random && w->cursor.one_pass && job->uniform_bs &&
	       job->ba == job->bs_max && !ssdload_cfg_skewed(cfg) &&
	       !cfg->norandommap;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_pass_perm);

/*
 * The slices of worker @w: the workers split each device's span into
 * consecutive slices of blockalign units (sequential and one-pass runs
 * cover their own slice; random runs draw over the whole span).
 */
static void ssdload_job_plan_worker(struct ssdload_job *job,
				    struct ssdload_worker *w)
{
	struct ssdload_cfg *cfg = &job->cfg;
	unsigned int nr = job->nr_workers, i;
	bool perm;

	/*
	 * number_ios and runtime_ms are the phases' (ssdload_phase_enter);
	 * time_based=0 bounds a timed pass by runtime_ms (fio's default)
	 */
	w->cursor.one_pass = !job->nr_steps && !cfg->number_ios &&
		      (!cfg->runtime_ms || !cfg->time_based);
	perm = ssdload_pass_perm(job, w);
	w->cursor.devs_left = 0;
	for (i = 0; i < job->nr_devs; i++) {
		struct ssdload_dev *dev = &job->devs[i];
		struct ssdload_wdev *wd = &w->wd[i];

		wd->slice_start = ssdload_share_start(dev->nr_aligned, nr,
						      w->idx);
		wd->slice_len = ssdload_share(dev->nr_aligned, nr, w->idx);
		if (w->cursor.one_pass)
			wd->pass_len = wd->slice_len * job->ba;
		if (!wd->slice_len ||
		    (!w->cursor.one_pass &&
		     wd->slice_len * job->ba < job->bs_max)) {
			/*
			 * more workers than blocks: walk the whole span (a
			 * pass keeps a slice shorter than a block: its I/Os
			 * are cut to fit; only its ramp may go anywhere)
			 */
			wd->slice_start = 0;
			wd->slice_len = dev->nr_aligned;
		}
		if (perm)
			ssdload_perm_init(wd, w->idx, cfg->randseed ^ i);
	}
	/* a one-pass worker without a slice has nothing to do */
	if (w->cursor.one_pass && !ssdload_pass_arm(w)) {
		w->phase.has_quota = true;
		w->phase.quota = 0;
	}
}

/* Start step: forget the last run and its error. */
static void ssdload_job_reset(struct ssdload_job *job)
{
	ssdload_job_free_run(job);
	spin_lock(&job->err_lock);
	job->err = 0;
	job->errmsg[0] = '\0';
	spin_unlock(&job->err_lock);
	job->stop = false;
	job->failed = false;
	job->polled = false;
	job->poll_fallback = SSDLOAD_POLL_OK;
	job->end_ns = 0;
	job->start_ns = 0;
	job->start_real_ns = 0;
}

/* Start step: the CPUs of the workers, into @mask; their number or -errno. */
static int ssdload_job_pick_cpus(struct ssdload_job *job, struct cpumask *mask)
{
	if (cpumask_empty(job->cpus))
		cpumask_set_cpu(cpumask_first(cpu_online_mask), mask);
	else
		cpumask_copy(mask, job->cpus);
	if (!cpumask_subset(mask, cpu_online_mask))
		return ssdload_job_refuse(job, -EINVAL, "cpus_allowed",
					  "cpus_allowed %*pbl has offline CPUs",
					  cpumask_pr_args(mask));
	if (job->cfg.numjobs)
		return job->cfg.numjobs;
	if (cpumask_weight(mask) > SSDLOAD_MAX_WORKERS)
		return ssdload_job_refuse(job, -EINVAL, "cpus_allowed",
					  "%u CPUs, one worker each: more than %u workers",
					  cpumask_weight(mask), SSDLOAD_MAX_WORKERS);
	return cpumask_weight(mask);
}

/* Start step: what @nr workers would allocate, against max_job_mem_mb. */
static int ssdload_job_check_mem(struct ssdload_job *job, unsigned int nr)
{
	u64 cap = (u64)READ_ONCE(ssdload_max_job_mem_mb) << 20;

	job->mem = nr * ssdload_worker_mem_of(job->depth, job->mixed,
					      hweight8(job->rated_dirs),
					      job->bs_max, job->fixed_len,
					      job->nr_devs);
	if (job->mem > cap)
		return ssdload_job_refuse(job, -ENOMEM, "iodepth",
					  "%u workers at iodepth %u, bs %u%s need %llu MiB, more than max_job_mem_mb=%llu",
					  nr, job->depth, job->bs_max,
					  job->mixed ?
					  " (read and write buffers)" : "",
					  DIV_ROUND_UP_ULL(job->mem, SZ_1M),
					  cap >> 20);
	job->mem += nr * ssdload_steps_mem(job);
	if (job->mem > cap)
		return ssdload_job_refuse(job, -ENOMEM, "steps",
					  "%u workers with the histograms of %u steps need %llu MiB, more than max_job_mem_mb=%llu",
					  nr, job->nr_phases,
					  DIV_ROUND_UP_ULL(job->mem, SZ_1M),
					  cap >> 20);
	job->mem += nr * ssdload_series_mem(job);
	if (job->mem > cap)
		return ssdload_job_refuse(job, -ENOMEM, "log_interval_ms",
					  "%u workers with %llu records of %llu ms%s need %llu MiB, more than max_job_mem_mb=%llu",
					  nr, job->ser_max, job->cfg.log_interval_ms,
					  job->cfg.log_hist ?
					  " and histogram deltas" : "",
					  DIV_ROUND_UP_ULL(job->mem, SZ_1M),
					  cap >> 20);
	job->mem += nr * ssdload_flush_mem(job);
	if (job->mem > cap)
		return ssdload_job_refuse(job, -ENOMEM, "fsync",
					  "%u workers with their flush histograms need %llu MiB, more than max_job_mem_mb=%llu",
					  nr, DIV_ROUND_UP_ULL(job->mem, SZ_1M),
					  cap >> 20);
	return 0;
}

/*
 * Start step: split filename into its devices ("a:b", fio's list; "\:"
 * is a colon inside a name).  A device listed twice is refused.
 */
static int ssdload_job_split_paths(struct ssdload_job *job)
{
	unsigned int n = 1, i, j;
	char *p, *q, *start;

	kfree(job->paths);
	kfree(job->devs);
	job->devs = NULL;
	job->nr_devs = 0;
	job->paths = kstrdup(job->filename, GFP_KERNEL);
	if (!job->paths)
		return ssdload_job_refuse(job, -ENOMEM, "filename",
					  "out of memory");
	for (p = job->paths; *p; p++) {
		if (*p == '\\' && p[1] == ':')
			p++;
		else if (*p == ':')
			n++;
	}
	if (n > SSDLOAD_MAX_DEVS)
		return ssdload_job_refuse(job, -EINVAL, "filename",
					  "%u devices, at most %u", n,
					  SSDLOAD_MAX_DEVS);
	job->devs = kcalloc(n, sizeof(*job->devs), GFP_KERNEL);
	if (!job->devs)
		return ssdload_job_refuse(job, -ENOMEM, "filename",
					  "out of memory");
	/* unescape in place, cutting at each unescaped colon */
	start = job->paths;
	for (p = q = job->paths;; p++) {
		char c = *p;

		if (c == '\\' && p[1] == ':') {
			*q++ = ':';
			p++;
			continue;
		}
		if (c && c != ':') {
			*q++ = c;
			continue;
		}
		*q++ = '\0';	/* may overwrite *p: c keeps it */
		job->devs[job->nr_devs++].path = start;
		if (!c)
			break;
		start = q;
	}
	for (i = 0; i < job->nr_devs; i++) {
		if (job->devs[i].path[0] != '/')
			return ssdload_job_refuse(job, -EINVAL, "filename",
						  "'%s' is not an absolute path",
						  job->devs[i].path);
		for (j = 0; j < i; j++)
			if (!strcmp(job->devs[i].path, job->devs[j].path))
				return ssdload_job_refuse(job, -EINVAL,
							  "filename",
							  "%s is listed twice",
							  job->devs[i].path);
	}
	return 0;
}

/* Start step: the offset tables of @dev (random_distribution). */
static int ssdload_job_build_dists(struct ssdload_job *job,
				   struct ssdload_dev *dev, unsigned int i)
{
	struct ssdload_cfg *cfg = &job->cfg;
	int d;

	if (!ssdload_cfg_skewed(cfg) || !job->random)
		return 0;
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		struct ssdload_dist *t;

		if (!(job->dirs & BIT(d)))
			continue;
		t = ssdload_dist_build(cfg->dist, d, dev->nr_units, job->ba,
				       cfg->random_scatter, cfg->randseed ^ i,
				       NUMA_NO_NODE);
		if (IS_ERR(t))
			return ssdload_job_refuse(job, PTR_ERR(t),
						  "random_distribution",
						  "cannot map the distribution on the %llu bytes of the span of %s",
						  dev->span_bytes, dev->path);
		dev->dist[d] = t;
	}
	return 0;
}

/*
 * Start step: is device @i, just opened, one already opened under another
 * name (a symlink such as /dev/disk/by-id/..., or a node of the same
 * number)?  The holder is the same, so the second open succeeds; the
 * names differ, so ssdload_job_split_paths() cannot tell.  The device
 * number can.
 */
static int ssdload_job_check_alias(struct ssdload_job *job, unsigned int i)
{
	dev_t devt = job->devs[i].bdev.bdev->bd_dev;
	unsigned int j;

	for (j = 0; j < i; j++)
		if (job->devs[j].bdev.bdev->bd_dev == devt)
			return ssdload_job_refuse(job, -EINVAL, "filename",
						  "%s and %s are the same device (%u:%u)",
						  job->devs[j].path,
						  job->devs[i].path,
						  MAJOR(devt), MINOR(devt));
	return 0;
}

/*
 * Start step: open every device exclusively, check its span, build its
 * offset tables, plan polling.  On failure everything opened is closed.
 */
static int ssdload_job_open(struct ssdload_job *job)
{
	unsigned int i;
	int ret;

	for (i = 0; i < job->nr_devs; i++) {
		struct ssdload_dev *dev = &job->devs[i];

		ret = ssdload_bdev_open(&dev->bdev, dev->path, job->writes,
					job->cfg.shared ?
					(void *)&ssdload_shared_holder : job);
		if (ret) {
			dev->bdev.bdev = NULL;
			ret = ssdload_job_refuse(job, ret, "filename", "%s %s",
						 dev->path,
						 ssdload_open_reason(ret));
			goto out_close;
		}
		ret = ssdload_job_check_alias(job, i);
		if (ret)
			goto out_close;
		if ((job->dirs & BIT(SSDLOAD_DIR_TRIM)) &&
		    !bdev_max_discard_sectors(dev->bdev.bdev)) {
			ret = ssdload_job_refuse(job, -EOPNOTSUPP, "rw",
						 "%s does not support discard (rw=%s%s)",
						 dev->path,
						 ssdload_enum_name(ssdload_rw_names,
								   job->cfg.rw),
						 job->nr_steps ? " or a step's" : "");
			goto out_close;
		}
		ret = ssdload_plan_span(job, dev);
		if (ret)
			goto out_close;
		ret = ssdload_job_build_dists(job, dev, i);
		if (ret)
			goto out_close;
	}
	ssdload_job_plan_poll(job);
	return 0;

out_close:
	ssdload_job_close_devs(job);
	return ret;
}

/*
 * Start step: @nr workers, spread round-robin over the CPUs of @mask
 * (several per CPU with numjobs), each with its slices.
 */
static int ssdload_job_alloc_workers(struct ssdload_job *job,
				     const struct cpumask *mask,
				     unsigned int nr)
{
	unsigned int i;
	int cpu = -1;

	job->workers = kcalloc(nr, sizeof(*job->workers), GFP_KERNEL);
	if (!job->workers)
		return ssdload_job_refuse(job, -ENOMEM, "iodepth",
					  "out of memory");
	for (i = 0; i < nr; i++) {
		struct ssdload_worker *w;

		cpu = cpumask_next(cpu, mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(mask);
		w = ssdload_worker_alloc(job, i, cpu);
		if (IS_ERR(w))
			return ssdload_job_refuse(job, PTR_ERR(w), "iodepth",
						  "cannot allocate worker %u on CPU %u",
						  i, cpu);
		job->workers[i] = w;
		job->nr_workers = i + 1;
	}
	for (i = 0; i < nr; i++)
		ssdload_job_plan_worker(job, job->workers[i]);
	return 0;
}

/* Start step: a bound kthread per worker, not yet woken. */
static int ssdload_job_create_threads(struct ssdload_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++) {
		struct ssdload_worker *w = job->workers[i];
		struct task_struct *t;

		t = kthread_create_on_node(ssdload_worker_fn, w,
					   cpu_to_node(w->cpu), "ssdload/%s/%u",
					   ssdload_job_name(job), w->cpu);
		if (IS_ERR(t))
			return ssdload_job_refuse(job, PTR_ERR(t), "cpus_allowed",
						  "cannot create a thread on CPU %u",
						  w->cpu);
		kthread_bind(t, w->cpu);
		get_task_struct(t);
		w->compl.task = t;
		w->pid = task_pid_nr(t);
	}
	return 0;
}

/* Undo ssdload_job_create_threads(): the threads never ran. */
static void ssdload_job_destroy_threads(struct ssdload_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++) {
		struct ssdload_worker *w = job->workers[i];

		if (!w->compl.task)
			continue;
		/* never woken: the thread fn does not run */
		kthread_stop(w->compl.task);
		put_task_struct(w->compl.task);
		w->compl.task = NULL;
	}
}

/* Tear an armed job down: its threads never ran, nothing was issued. */
static void ssdload_job_disarm(struct ssdload_job *job)
{
	lockdep_assert_held(&job->lock);
	ssdload_job_destroy_threads(job);
	ssdload_job_free_run(job);
	ssdload_verify_release(job);
	ssdload_job_close_devs(job);
	WRITE_ONCE(job->state, SSDLOAD_STATE_STOPPED);
}

/*
 * Start step: the run takes a reference on the job and on the module
 * (dropped by end_work), its clock starts at @start_ns, and the workers
 * go.  With @gate (start GROUP), the threads are stored in @tasks
 * instead, with a reference each, for the caller to wake together with
 * other jobs', and each worker passes @gate before its first I/O.
 */
static void ssdload_job_launch(struct ssdload_job *job, u64 start_ns,
			       struct ssdload_gate *gate,
			       struct task_struct **tasks)
{
	u64 lo = 0, hi = 0;
	unsigned int i;

	ssdload_job_get(job);
	__module_get(THIS_MODULE);
	job->start_ns = start_ns;
	/* the same instant on the wall clock, to line hosts' results up */
	job->start_real_ns = ktime_get_real_ns() + start_ns - ktime_get_ns();
	/* startdelay: each worker's run starts after its own delay */
	for (i = 0; i < job->nr_workers; i++) {
		u64 delay = ssdload_startdelay_ns(&job->cfg, i);

		lo = i ? min(lo, delay) : delay;
		hi = max(hi, delay);
		ssdload_worker_begin(job->workers[i], start_ns + delay);
	}
	/* the measured time runs from the first worker's ramp end */
	job->ramp_end_ns = job->start_ns + lo +
			   job->phases[0].ramp_ms * NSEC_PER_MSEC;
	job->deadline_ns = job->run_ms ?
		job->start_ns + hi + job->run_ms * NSEC_PER_MSEC : 0;
	atomic_set(&job->nr_active, job->nr_workers);
	WRITE_ONCE(job->state, SSDLOAD_STATE_RUNNING);
	for (i = 0; i < job->nr_workers; i++) {
		struct ssdload_worker *w = job->workers[i];

		if (!gate) {
			wake_up_process(w->compl.task);
			continue;
		}
		refcount_inc(&gate->ref);
		atomic_inc(&gate->left);
		atomic_inc(&gate->cpu_left[w->cpu]);
		w->gate = gate;
		tasks[i] = get_task_struct(w->compl.task);
	}
}

/* The workers of @job if it is armed in @group, else 0. */
unsigned int ssdload_job_armed_workers(struct ssdload_job *job,
				       const char *group)
{
	unsigned int nr = 0;

	mutex_lock(&job->lock);
	if (job->state == SSDLOAD_STATE_ARMED && !strcmp(job->group, group))
		nr = job->nr_workers;
	mutex_unlock(&job->lock);
	return nr;
}

/*
 * start GROUP: launch @job if it is armed in @group and its threads fit
 * in the @room entries of @tasks, with the group's start time and @gate.
 * The threads are stored in @tasks, not woken.  Returns how many were
 * stored.
 */
unsigned int ssdload_job_launch_armed(struct ssdload_job *job,
				      const char *group,
				      struct ssdload_gate *gate,
				      struct task_struct **tasks,
				      unsigned int room)
{
	unsigned int nr = 0;

	mutex_lock(&job->lock);
	if (job->state == SSDLOAD_STATE_ARMED && !strcmp(job->group, group) &&
	    job->nr_workers <= room) {
		ssdload_job_launch(job, gate->start_ns, gate, tasks);
		nr = job->nr_workers;
	}
	mutex_unlock(&job->lock);
	return nr;
}

/*
 * Wake the @nr threads of launched jobs in one go, then drop the
 * references ssdload_job_launch() took.  Preemption is off while waking,
 * so a thread bound to this CPU cannot run before the last one was woken.
 * A job stopped since its launch is fine: its threads ran already (a stop
 * wakes them), and waking a thread that exited does nothing.
 */
void ssdload_wake_tasks(struct task_struct **tasks, unsigned int nr)
{
	unsigned int i;

	preempt_disable();
	for (i = 0; i < nr; i++)
		wake_up_process(tasks[i]);
	preempt_enable();
	for (i = 0; i < nr; i++)
		put_task_struct(tasks[i]);
}

/*
 * start_at: an instant on CLOCK_REALTIME, for hosts that start together.
 * Refused with a group (start GROUP starts those), in the past, or more
 * than SSDLOAD_MAX_START_AHEAD_NS ahead.
 */
static int ssdload_job_check_start_at(struct ssdload_job *job)
{
	u64 at = job->cfg.start_at, now;

	if (!at)
		return 0;
	if (job->group[0])
		return ssdload_job_refuse(job, -EINVAL, "start_at",
					  "start_at and group %s: start GROUP starts a group; set one of them",
					  job->group);
	now = ktime_get_real_ns();
	if (at <= now)
		return ssdload_job_refuse(job, -EINVAL, "start_at",
					  "start_at %llu is %llu ms in the past",
					  at, div_u64(now - at, NSEC_PER_MSEC));
	if (at - now > SSDLOAD_MAX_START_AHEAD_NS)
		return ssdload_job_refuse(job, -ERANGE, "start_at",
					  "start_at %llu is more than %llu s ahead",
					  at, SSDLOAD_MAX_START_AHEAD_NS / NSEC_PER_SEC);
	return 0;
}

/*
 * The monotonic start of a run: now, or start_at on the monotonic clock
 * (now, if setting the job up took us past it: the start error says so).
 */
static u64 ssdload_job_start_ns(struct ssdload_job *job)
{
	u64 now = ktime_get_ns(), real = ktime_get_real_ns();

	if (job->cfg.start_at > real)
		return now + (job->cfg.start_at - real);
	return now;
}

/*
 * enable=1: check, open, allocate and create the threads, then launch;
 * a job with a group is armed instead, for start GROUP to launch.
 * Called with job->lock held.
 */
int ssdload_job_start(struct ssdload_job *job)
{
	cpumask_var_t mask;
	int nr, ret;

	lockdep_assert_held(&job->lock);
	if (ssdload_state_busy(job->state)) {
		ssdload_job_pr_err(job, "job %s: enable: the job is still %s\n",
				   ssdload_job_name(job),
				   ssdload_enum_name(ssdload_state_names,
						     job->state));
		return -EBUSY;
	}

	ssdload_job_reset(job);
	ret = ssdload_steps_compile(job);
	if (ret)
		return ret;
	if (!job->filename[0])
		return ssdload_job_refuse(job, -EINVAL, "filename",
					  "filename is not set");
	ret = ssdload_job_check_start_at(job);
	if (ret)
		return ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return ssdload_job_refuse(job, -ENOMEM, "cpus_allowed",
					  "out of memory");
	nr = ssdload_job_pick_cpus(job, mask);
	if (nr < 0) {
		ret = nr;
		goto out_free_mask;
	}
	ret = ssdload_plan_run(job, nr);
	if (ret)
		goto out_free_mask;
	ret = ssdload_job_split_paths(job);
	if (ret)
		goto out_free_mask;
	ret = ssdload_job_check_mem(job, nr);
	if (ret)
		goto out_free_mask;
	ret = ssdload_job_open(job);
	if (ret)
		goto out_free_mask;
	ret = ssdload_verify_prepare(job);
	if (ret)
		goto out_close_devs;
	ret = ssdload_job_alloc_workers(job, mask, nr);
	if (ret)
		goto out_free_workers;
	ret = ssdload_job_create_threads(job);
	if (ret)
		goto out_destroy_threads;

	job->leased = job->leases > 0;
	if (job->group[0])
		WRITE_ONCE(job->state, SSDLOAD_STATE_ARMED);
	else
		ssdload_job_launch(job, ssdload_job_start_ns(job), NULL, NULL);
	free_cpumask_var(mask);
	return 0;

out_destroy_threads:
	ssdload_job_destroy_threads(job);
out_free_workers:
	ssdload_job_free_run(job);
out_close_devs:
	ssdload_verify_release(job);
	ssdload_job_close_devs(job);
out_free_mask:
	free_cpumask_var(mask);
	return ret;
}

/* Measured wall time: ramp end to the last measured completion (or now). */
u64 ssdload_job_runtime_ns(struct ssdload_job *job)
{
	u64 last = 0;
	unsigned int i;

	if (!job->nr_workers || !job->start_ns)
		return 0;
	if (ssdload_state_busy(READ_ONCE(job->state))) {
		last = ktime_get_ns();
	} else {
		for (i = 0; i < job->nr_workers; i++)
			last = max(last,
				   READ_ONCE(job->workers[i]->res.last_done_ns));
	}
	return last > job->ramp_end_ns ? last - job->ramp_end_ns : 0;
}

/*
 * The default randseed of a job: FNV-1a of its name.  Two jobs on one
 * device then issue different offsets, and a job of the same name issues
 * the same ones again, on any kernel.
 */
u64 ssdload_seed_from_name(const char *name)
{
	u64 h = 0xcbf29ce484222325ULL;

	while (*name) {
		h ^= (u8)*name++;
		h *= 0x100000001b3ULL;
	}
	return h;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_seed_from_name);

/* A new job, with one reference (configfs'; dropped at release). */
struct ssdload_job *ssdload_job_alloc(const char *name)
{
	struct ssdload_job *job;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return NULL;
	if (!zalloc_cpumask_var(&job->cpus, GFP_KERNEL)) {
		kfree(job);
		return NULL;
	}
	kref_init(&job->ref);
	mutex_init(&job->lock);
	ratelimit_state_init(&job->rs, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);
	spin_lock_init(&job->err_lock);
	INIT_WORK(&job->end_work, ssdload_job_end_work);
	INIT_LIST_HEAD(&job->steps);
	job->state = SSDLOAD_STATE_IDLE;
	job->cfg.rw = SSDLOAD_RW_READ;
	job->cfg.rwmixread = 50;
	job->cfg.loops = 1;
	job->cfg.time_based = 1;
	job->cfg.bs = ssdload_default_bs;
	job->cfg.iodepth = ssdload_default_iodepth;
	job->cfg.randseed = ssdload_seed_from_name(name);
	job->cfg.scramble_buffers = 1;
	job->cfg.random_scatter = 1;
	job->cfg.buffer_compress_chunk = 512;
	job->cfg.do_verify = 1;
	job->cfg.thinktime_blocks = 1;
	return job;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_job_alloc);
