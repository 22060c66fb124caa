// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: job lifecycle.
 *
 *   idle --enable=1--> running --quota/runtime--> done
 *                              --enable=0/rmdir--> stopped
 *                              --I/O error-------> error
 *
 * job->lock serialises start, stop, teardown and the debugfs readers.
 * A run ends either from the controller (stop) or by itself: the last
 * worker to finish queues end_work, which tears the run down.  Teardown
 * is idempotent.  The statistics of a run stay until the next start or
 * until the job is released.
 */
#include <linux/kthread.h>
#include <linux/ktime.h>
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

/* Called by a worker when it reaps a failed I/O. */
void ssdload_job_io_error(struct ssdload_job *job, struct ssdload_io *io)
{
	ssdload_job_set_error(job, blk_status_to_errno(io->status),
			      "I/O error on %s at offset %llu",
			      io->dir == SSDLOAD_DIR_WRITE ? "write" : "read",
			      io->pos);
	WRITE_ONCE(job->failed, true);
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

/*
 * End the current run: stop the threads (they drain their in-flight
 * I/O first), release the I/Os and the device, set the final state.
 */
static void ssdload_job_teardown(struct ssdload_job *job)
{
	enum ssdload_state state;
	unsigned int i;

	lockdep_assert_held(&job->lock);
	if (job->state != SSDLOAD_STATE_RUNNING)
		return;

	for (i = 0; i < job->nr_workers; i++)
		kthread_stop(job->workers[i]->task);
	/* bi_end_io may still be inside its RCU section, using w->task */
	synchronize_rcu();
	for (i = 0; i < job->nr_workers; i++)
		ssdload_worker_free_ios(job->workers[i]);

	job->end_ns = ktime_get_ns();
	ssdload_bdev_close(&job->bdev);

	if (READ_ONCE(job->failed))
		state = SSDLOAD_STATE_ERROR;
	else if (READ_ONCE(job->stop))
		state = SSDLOAD_STATE_STOPPED;
	else
		state = SSDLOAD_STATE_DONE;
	WRITE_ONCE(job->state, state);
}

static void ssdload_job_end_work(struct work_struct *work)
{
	struct ssdload_job *job = container_of(work, struct ssdload_job,
					       end_work);

	mutex_lock(&job->lock);
	if (!atomic_read(&job->nr_active))
		ssdload_job_teardown(job);
	mutex_unlock(&job->lock);
}

/* Called by each worker once it stopped issuing and drained. */
void ssdload_job_worker_done(struct ssdload_job *job)
{
	if (atomic_dec_and_test(&job->nr_active))
		schedule_work(&job->end_work);
}

/* enable=0, rmdir: stop issuing, drain, tear down.  Waits. */
void ssdload_job_stop(struct ssdload_job *job)
{
	mutex_lock(&job->lock);
	if (job->state == SSDLOAD_STATE_RUNNING) {
		WRITE_ONCE(job->stop, true);
		ssdload_job_teardown(job);
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

	pr_err("job %s: enable failed (%s): %d %s\n", ssdload_job_name(job),
	       attr, err, job->errmsg);
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

/* enable=1.  Called with job->lock held. */
int ssdload_job_start(struct ssdload_job *job)
{
	struct ssdload_cfg *cfg = &job->cfg;
	unsigned int nr, i, cpu, bufs;
	cpumask_var_t mask;
	u64 mem, cap, first;
	int ret;

	lockdep_assert_held(&job->lock);
	if (job->state == SSDLOAD_STATE_RUNNING) {
		pr_err("%s: job %s is already running\n", __func__,
		       ssdload_job_name(job));
		return -EBUSY;
	}

	ssdload_job_free_run(job);
	spin_lock(&job->err_lock);
	job->err = 0;
	job->errmsg[0] = '\0';
	spin_unlock(&job->err_lock);
	job->stop = false;
	job->failed = false;
	job->polled = false;
	job->end_ns = 0;
	job->start_ns = 0;

	job->writes = ssdload_job_writes(cfg);
	if (job->writes && !cfg->allow_write)
		return ssdload_job_refuse(job, -EPERM, "allow_write",
					  "writes need allow_write=1");
	if (!job->filename[0])
		return ssdload_job_refuse(job, -EINVAL, "filename",
					  "filename is not set");

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return ssdload_job_refuse(job, -ENOMEM, "cpus_allowed",
					  "out of memory");
	if (cpumask_empty(job->cpus))
		cpumask_set_cpu(cpumask_first(cpu_online_mask), mask);
	else
		cpumask_copy(mask, job->cpus);
	if (!cpumask_subset(mask, cpu_online_mask)) {
		ret = ssdload_job_refuse(job, -EINVAL, "cpus_allowed",
					 "cpus_allowed %*pbl has offline CPUs",
					 cpumask_pr_args(mask));
		goto out_free_mask;
	}
	nr = cpumask_weight(mask);

	/* rw and randrw keep a read buffer next to each write buffer */
	bufs = ssdload_rw_is_mixed(cfg->rw) ? 2 : 1;
	mem = (u64)nr * cfg->iodepth * cfg->bs * bufs;
	cap = (u64)READ_ONCE(ssdload_max_job_mem_mb) << 20;
	if (mem > cap) {
		ret = ssdload_job_refuse(job, -ENOMEM, "iodepth",
					 "iodepth*bs*workers%s = %llu MiB exceeds max_job_mem_mb=%llu",
					 bufs > 1 ? "*2 (read and write buffers)" : "",
					 DIV_ROUND_UP_ULL(mem, 1 << 20), cap >> 20);
		goto out_free_mask;
	}

	ret = ssdload_bdev_open(&job->bdev, job->filename, job->writes,
				&ssdload_bdev_holder);
	if (ret) {
		job->bdev.bdev = NULL;
		ret = ssdload_job_refuse(job, ret, "filename", "%s %s",
					 job->filename,
					 ssdload_open_reason(ret));
		goto out_free_mask;
	}
	ret = ssdload_job_check_span(job);
	if (ret)
		goto out_close;
	if (cfg->hipri) {
		job->polled = ssdload_bdev_can_poll(job->bdev.bdev);
		if (!job->polled)
			pr_info("job %s: %s has no poll queues: hipri falls back to interrupt completions (summary polled=0)\n",
				ssdload_job_name(job), job->filename);
	}

	job->workers = kcalloc(nr, sizeof(*job->workers), GFP_KERNEL);
	if (!job->workers) {
		ret = ssdload_job_refuse(job, -ENOMEM, "iodepth",
					 "out of memory");
		goto out_close;
	}
	i = 0;
	first = 0;
	for_each_cpu(cpu, mask) {
		struct ssdload_worker *w;

		w = ssdload_worker_alloc(job, i, cpu);
		if (IS_ERR(w)) {
			ret = ssdload_job_refuse(job, PTR_ERR(w), "iodepth",
						 "cannot allocate worker %u on CPU %u",
						 i, cpu);
			goto out_free_workers;
		}
		job->workers[i] = w;
		job->nr_workers = ++i;
	}
	for (i = 0; i < nr; i++) {
		ssdload_job_plan_worker(job, job->workers[i], first);
		first += ssdload_share(job->nr_blocks, nr, i);
	}

	for (i = 0; i < nr; i++) {
		struct ssdload_worker *w = job->workers[i];
		struct task_struct *t;

		t = kthread_create_on_node(ssdload_worker_fn, w,
					   cpu_to_node(w->cpu), "ssdload/%s/%u",
					   ssdload_job_name(job), w->cpu);
		if (IS_ERR(t)) {
			ret = ssdload_job_refuse(job, PTR_ERR(t), "cpus_allowed",
						 "cannot create a thread on CPU %u",
						 w->cpu);
			goto out_stop_threads;
		}
		kthread_bind(t, w->cpu);
		get_task_struct(t);
		w->task = t;
	}

	job->start_ns = ktime_get_ns();
	job->ramp_end_ns = job->start_ns + cfg->ramp_ms * NSEC_PER_MSEC;
	job->deadline_ns = cfg->runtime_ms ?
		job->ramp_end_ns + cfg->runtime_ms * NSEC_PER_MSEC : 0;
	atomic_set(&job->nr_active, nr);
	WRITE_ONCE(job->state, SSDLOAD_STATE_RUNNING);
	for (i = 0; i < nr; i++)
		wake_up_process(job->workers[i]->task);
	free_cpumask_var(mask);
	return 0;

out_stop_threads:
	for (i = 0; i < nr; i++) {
		struct ssdload_worker *w = job->workers[i];

		if (!w->task)
			continue;
		kthread_stop(w->task);	/* never woken: the thread fn does not run */
		put_task_struct(w->task);
		w->task = NULL;
	}
out_free_workers:
	ssdload_job_free_run(job);
out_close:
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
	if (READ_ONCE(job->state) == SSDLOAD_STATE_RUNNING) {
		last = ktime_get_ns();
	} else {
		for (i = 0; i < job->nr_workers; i++)
			last = max(last, READ_ONCE(job->workers[i]->last_done_ns));
	}
	return last > job->ramp_end_ns ? last - job->ramp_end_ns : 0;
}

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
	mutex_init(&job->lock);
	spin_lock_init(&job->err_lock);
	INIT_WORK(&job->end_work, ssdload_job_end_work);
	job->state = SSDLOAD_STATE_IDLE;
	job->cfg.rw = SSDLOAD_RW_READ;
	job->cfg.rwmixread = 50;
	job->cfg.bs = ssdload_default_bs;
	job->cfg.iodepth = ssdload_default_iodepth;
	job->cfg.randseed = 0x5d5d;
	return job;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_job_alloc);

/* config_item release: the job is stopped and unreachable. */
void ssdload_job_free(struct ssdload_job *job)
{
	ssdload_job_stop(job);
	cancel_work_sync(&job->end_work);
	ssdload_job_free_run(job);
	free_cpumask_var(job->cpus);
	mutex_destroy(&job->lock);
	kfree(job);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_job_free);
