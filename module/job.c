// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: job lifecycle.
 *
 *   idle --enable=1--> running --quota/runtime--> done
 *                              --I/O error-------> error
 *                              --enable=0, rmdir,
 *                                lease closed----> stopping --drained--> stopped
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
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "ssdload.h"

/*
 * All jobs claim their devices with one holder: ssdload jobs may share a
 * device, while a device mounted or claimed by anyone else is -EBUSY.
 */
static int ssdload_bdev_holder;

static const char *ssdload_job_name(struct ssdload_job *job)
{
	return config_item_name(&job->item);
}

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
		const struct ssdload_ioerr *e = &job->workers[i]->ioerr;
		const char *dir = e->dir == SSDLOAD_DIR_WRITE ? "write" : "read";

		if (!e->err)
			continue;
		if (e->err == -EAGAIN)
			ssdload_job_set_error(job, e->err,
					      "polled %s at offset %llu refused (no tag) a million times in a row with nothing in flight",
					      dir, e->pos);
		else
			ssdload_job_set_error(job, e->err,
					      "I/O error on %s at offset %llu",
					      dir, e->pos);
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
}

static void ssdload_job_release(struct kref *ref)
{
	struct ssdload_job *job = container_of(ref, struct ssdload_job, ref);

	ssdload_job_free_run(job);
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
 * End the current run, whose workers all drained: stop the threads
 * (they wait for it), release the I/Os and the device.  Nothing here
 * waits for I/O.  Returns the run's final state.
 */
static enum ssdload_state ssdload_job_teardown(struct ssdload_job *job)
{
	unsigned int i;

	lockdep_assert_held(&job->lock);
	for (i = 0; i < job->nr_workers; i++)
		kthread_stop(job->workers[i]->task);
	/* bi_end_io may still be inside its RCU section, using w->task */
	synchronize_rcu();
	for (i = 0; i < job->nr_workers; i++)
		ssdload_worker_free_ios(job->workers[i]);

	job->end_ns = ktime_get_ns();
	ssdload_bdev_close(&job->bdev);
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

	mutex_lock(&job->lock);
	state = ssdload_job_teardown(job);
	module_put(THIS_MODULE);
	WRITE_ONCE(job->state, state);
	mutex_unlock(&job->lock);
	ssdload_job_put(job);		/* the run's reference */
}

static void ssdload_job_request_stop(struct ssdload_job *job)
{
	unsigned int i;

	lockdep_assert_held(&job->lock);
	if (job->state != SSDLOAD_STATE_RUNNING)
		return;
	WRITE_ONCE(job->stop, true);
	WRITE_ONCE(job->state, SSDLOAD_STATE_STOPPING);
	for (i = 0; i < job->nr_workers; i++)
		wake_up_process(job->workers[i]->task);
}

/*
 * enable=0, rmdir: stop issuing and return.  The job shows "stopping"
 * until its in-flight I/Os completed, then "stopped".
 */
void ssdload_job_stop(struct ssdload_job *job)
{
	mutex_lock(&job->lock);
	ssdload_job_request_stop(job);
	mutex_unlock(&job->lock);
}

/*
 * A lease (debugfs) was opened (@take) or closed.  A run started while a
 * lease was open stops when the last lease closes: the CLI holds one, so
 * even a killed CLI leaves no load behind.
 */
void ssdload_job_lease(struct ssdload_job *job, bool take)
{
	mutex_lock(&job->lock);
	if (take) {
		job->leases++;
	} else if (!--job->leases && job->leased &&
		   job->state == SSDLOAD_STATE_RUNNING) {
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

/* Refuse a start: remember the reason and log it with the attribute. */
static __printf(4, 5) int ssdload_job_refuse(struct ssdload_job *job, int err,
					     const char *attr,
					     const char *fmt, ...)
{
	va_list args;

	spin_lock(&job->err_lock);
	job->err = err;
	va_start(args, fmt);
	vsnprintf(job->errmsg, sizeof(job->errmsg), fmt, args);
	va_end(args);
	spin_unlock(&job->err_lock);

	ssdload_job_pr_err(job, "job %s: enable failed (%s): %d %s\n",
			   ssdload_job_name(job), attr, err, job->errmsg);
	WRITE_ONCE(job->state, SSDLOAD_STATE_ERROR);
	return err;
}

static bool ssdload_job_writes(const struct ssdload_cfg *cfg)
{
	switch (cfg->rw) {
	case SSDLOAD_RW_WRITE:
	case SSDLOAD_RW_RANDWRITE:
		return true;
	case SSDLOAD_RW_RW:
	case SSDLOAD_RW_RANDRW:
		return cfg->rwmixread < 100;
	default:
		return false;
	}
}

/* Check the span against the opened device; set span_start/nr_blocks. */
static int ssdload_job_check_span(struct ssdload_job *job)
{
	struct block_device *bdev = job->bdev.bdev;
	struct ssdload_cfg *cfg = &job->cfg;
	u32 lbs = bdev_logical_block_size(bdev);
	u64 devsize = bdev_nr_bytes(bdev);
	u64 size = cfg->size;

	if (cfg->bs % lbs)
		return ssdload_job_refuse(job, -EINVAL, "bs",
					  "bs %llu is not a multiple of the logical block size %u of %s",
					  cfg->bs, lbs, job->filename);
	if (cfg->offset % lbs)
		return ssdload_job_refuse(job, -EINVAL, "offset",
					  "offset %llu is not a multiple of the logical block size %u of %s",
					  cfg->offset, lbs, job->filename);
	if (size % lbs)
		return ssdload_job_refuse(job, -EINVAL, "size",
					  "size %llu is not a multiple of the logical block size %u of %s",
					  size, lbs, job->filename);
	if (cfg->offset >= devsize)
		return ssdload_job_refuse(job, -EINVAL, "offset",
					  "offset %llu is beyond the end of %s (%llu bytes)",
					  cfg->offset, job->filename, devsize);
	if (!size)
		size = devsize - cfg->offset;
	if (size > devsize - cfg->offset)
		return ssdload_job_refuse(job, -EINVAL, "size",
					  "offset+size %llu+%llu is beyond the end of %s (%llu bytes)",
					  cfg->offset, size, job->filename, devsize);
	if (size < cfg->bs)
		return ssdload_job_refuse(job, -EINVAL, "size",
					  "span of %llu bytes is smaller than bs %llu",
					  size, cfg->bs);
	job->span_start = cfg->offset;
	job->nr_blocks = div64_u64(size, cfg->bs);
	return 0;
}

/*
 * Would the block layer split an I/O of this job?  Our buffers are cut
 * into naturally aligned runs of pages (ssdload_buf_cut()), so only the
 * queue's size and segment limits and its chunk boundaries can split.
 */
static bool ssdload_job_may_split(struct ssdload_job *job)
{
	struct request_queue *q = bdev_get_queue(job->bdev.bdev);
	u64 seg = min_t(u64, queue_max_segment_size(q),
			(u64)queue_segment_boundary(q) + 1);
	unsigned int chunk = q->limits.chunk_sectors;
	u64 bs = job->cfg.bs, segs = 0;

	if (bs > (u64)queue_max_sectors(q) << SECTOR_SHIFT)
		return true;
	ssdload_buf_cut(bs, seg, NULL, &segs);
	if (segs > queue_max_segments(q))
		return true;
	if (chunk) {
		u64 bsec = bs >> SECTOR_SHIFT;

		if (bsec > chunk || chunk % bsec ||
		    (job->span_start >> SECTOR_SHIFT) % bsec)
			return true;
	}
	return false;
}

/*
 * hipri: poll only where bio_poll() reaches the request, a blk-mq queue
 * with poll queues, that can fail a submission fast (REQ_NOWAIT: a polled
 * worker must never sleep for a tag that only its own polling frees), and
 * whose I/Os are not split (a split loses REQ_POLLED).  Anywhere else the
 * run uses interrupt completions: summary polled=0 and poll_fallback says
 * why.
 */
static void ssdload_job_plan_poll(struct ssdload_job *job)
{
	struct block_device *bdev = job->bdev.bdev;
	struct request_queue *q = bdev_get_queue(bdev);

	job->polled = false;
	job->poll_fallback = SSDLOAD_POLL_OK;
	if (!job->cfg.hipri)
		return;
	if (!queue_is_mq(q))
		job->poll_fallback = SSDLOAD_POLL_BIO_BASED;
	else if (!ssdload_mq_has_poll_queues(q))
		job->poll_fallback = SSDLOAD_POLL_NO_QUEUES;
	else if (!bdev_nowait(bdev))
		job->poll_fallback = SSDLOAD_POLL_NO_NOWAIT;
	else if (ssdload_job_may_split(job))
		job->poll_fallback = SSDLOAD_POLL_SPLIT;
	else
		job->polled = true;
	if (!job->polled)
		pr_info("job %s: hipri=1 on %s: interrupt completions (poll_fallback=%s)\n",
			ssdload_job_name(job), job->filename,
			ssdload_enum_name(ssdload_poll_fallback_names,
					  job->poll_fallback));
}

/* Split @total into @nr shares: the first total % nr get one more. */
static u64 ssdload_share(u64 total, unsigned int nr, unsigned int i)
{
	u64 rem;
	u64 q = div64_u64_rem(total, nr, &rem);

	return q + (i < rem ? 1 : 0);
}

static void ssdload_job_plan_worker(struct ssdload_job *job,
				    struct ssdload_worker *w, u64 first)
{
	struct ssdload_cfg *cfg = &job->cfg;
	unsigned int nr = job->nr_workers;

	w->slice_start = first;
	w->slice_len = ssdload_share(job->nr_blocks, nr, w->idx);
	if (cfg->number_ios) {
		w->has_quota = true;
		w->quota = ssdload_share(cfg->number_ios, nr, w->idx);
	} else if (!cfg->runtime_ms) {
		w->has_quota = true;
		w->quota = w->slice_len;
	}
	if (!w->slice_len) {
		/* more workers than blocks: walk the whole span */
		w->slice_start = 0;
		w->slice_len = job->nr_blocks;
	}
	/* random one pass: each block of the slice once (fio's random map) */
	if (w->random && !cfg->number_ios && !cfg->runtime_ms)
		ssdload_perm_init(w, cfg->randseed);
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
	job->writes = ssdload_job_writes(&job->cfg);
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
	return cpumask_weight(mask);
}

/* Start step: what @nr workers would allocate, against max_job_mem_mb. */
static int ssdload_job_check_mem(struct ssdload_job *job, unsigned int nr)
{
	u64 cap = (u64)READ_ONCE(ssdload_max_job_mem_mb) << 20;

	job->mem = nr * ssdload_worker_mem(&job->cfg);
	if (job->mem > cap)
		return ssdload_job_refuse(job, -ENOMEM, "iodepth",
					  "%u workers at iodepth %llu, bs %llu%s need %llu MiB, more than max_job_mem_mb=%llu",
					  nr, job->cfg.iodepth, job->cfg.bs,
					  ssdload_rw_is_mixed(job->cfg.rw) ?
					  " (read and write buffers)" : "",
					  DIV_ROUND_UP_ULL(job->mem, SZ_1M),
					  cap >> 20);
	return 0;
}

/* Start step: open the device exclusively, check the span, plan polling. */
static int ssdload_job_open(struct ssdload_job *job)
{
	int ret;

	ret = ssdload_bdev_open(&job->bdev, job->filename, job->writes,
				&ssdload_bdev_holder);
	if (ret) {
		job->bdev.bdev = NULL;
		return ssdload_job_refuse(job, ret, "filename", "%s %s",
					  job->filename,
					  ssdload_open_reason(ret));
	}
	ret = ssdload_job_check_span(job);
	if (ret) {
		ssdload_bdev_close(&job->bdev);
		return ret;
	}
	ssdload_job_plan_poll(job);
	return 0;
}

/* Start step: one worker per CPU of @mask, with its slice of the span. */
static int ssdload_job_alloc_workers(struct ssdload_job *job,
				     const struct cpumask *mask,
				     unsigned int nr)
{
	unsigned int i = 0, cpu;
	u64 first = 0;

	job->workers = kcalloc(nr, sizeof(*job->workers), GFP_KERNEL);
	if (!job->workers)
		return ssdload_job_refuse(job, -ENOMEM, "iodepth",
					  "out of memory");
	for_each_cpu(cpu, mask) {
		struct ssdload_worker *w = ssdload_worker_alloc(job, i, cpu);

		if (IS_ERR(w))
			return ssdload_job_refuse(job, PTR_ERR(w), "iodepth",
						  "cannot allocate worker %u on CPU %u",
						  i, cpu);
		job->workers[i] = w;
		job->nr_workers = ++i;
	}
	for (i = 0; i < nr; i++) {
		ssdload_job_plan_worker(job, job->workers[i], first);
		first += ssdload_share(job->nr_blocks, nr, i);
	}
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
		w->task = t;
	}
	return 0;
}

/* Undo ssdload_job_create_threads(): the threads never ran. */
static void ssdload_job_destroy_threads(struct ssdload_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++) {
		struct ssdload_worker *w = job->workers[i];

		if (!w->task)
			continue;
		kthread_stop(w->task);	/* never woken: the thread fn does not run */
		put_task_struct(w->task);
		w->task = NULL;
	}
}

/*
 * Start step: the run takes a reference on the job and on the module
 * (dropped by end_work), and the workers go.
 */
static void ssdload_job_launch(struct ssdload_job *job)
{
	struct ssdload_cfg *cfg = &job->cfg;
	unsigned int i;

	ssdload_job_get(job);
	__module_get(THIS_MODULE);
	job->leased = job->leases > 0;
	job->start_ns = ktime_get_ns();
	job->ramp_end_ns = job->start_ns + cfg->ramp_ms * NSEC_PER_MSEC;
	job->deadline_ns = cfg->runtime_ms ?
		job->ramp_end_ns + cfg->runtime_ms * NSEC_PER_MSEC : 0;
	atomic_set(&job->nr_active, job->nr_workers);
	WRITE_ONCE(job->state, SSDLOAD_STATE_RUNNING);
	for (i = 0; i < job->nr_workers; i++)
		wake_up_process(job->workers[i]->task);
}

/* enable=1.  Called with job->lock held. */
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
	if (job->writes && !job->cfg.allow_write)
		return ssdload_job_refuse(job, -EPERM, "allow_write",
					  "writes need allow_write=1");
	if (!job->filename[0])
		return ssdload_job_refuse(job, -EINVAL, "filename",
					  "filename is not set");

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return ssdload_job_refuse(job, -ENOMEM, "cpus_allowed",
					  "out of memory");
	nr = ssdload_job_pick_cpus(job, mask);
	if (nr < 0) {
		ret = nr;
		goto out_free_mask;
	}
	ret = ssdload_job_check_mem(job, nr);
	if (ret)
		goto out_free_mask;
	ret = ssdload_job_open(job);
	if (ret)
		goto out_free_mask;
	ret = ssdload_job_alloc_workers(job, mask, nr);
	if (ret)
		goto out_free_workers;
	ret = ssdload_job_create_threads(job);
	if (ret)
		goto out_destroy_threads;

	ssdload_job_launch(job);
	free_cpumask_var(mask);
	return 0;

out_destroy_threads:
	ssdload_job_destroy_threads(job);
out_free_workers:
	ssdload_job_free_run(job);
	ssdload_bdev_close(&job->bdev);
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
			last = max(last, READ_ONCE(job->workers[i]->last_done_ns));
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
	job->state = SSDLOAD_STATE_IDLE;
	job->cfg.rw = SSDLOAD_RW_READ;
	job->cfg.rwmixread = 50;
	job->cfg.bs = ssdload_default_bs;
	job->cfg.iodepth = ssdload_default_iodepth;
	job->cfg.randseed = ssdload_seed_from_name(name);
	job->cfg.scramble_buffers = 1;
	return job;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_job_alloc);
