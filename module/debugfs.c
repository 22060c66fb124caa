// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: debugfs results, /sys/kernel/debug/ssdload/NAME/
 *
 *   summary	text, key=value per line (final and live results)
 *   progress	text, key=value per line, cheap to poll
 *   hist_read	binary: struct ssdload_hist_header + counts
 *   hist_write	binary, likewise (hist_trim for trims)
 *   hist_intended_*	binary, latency from the intended send time (rate)
 *   steps	binary, per step, streamed (a record or histogram per item)
 *   lease	held open by the CLI: closing the last one stops the run
 *   replay	write-only: a replay job's records (replay.c)
 *   replay_stats	text, a replay's fidelity; hist_replay its lateness
 *
 * The directory mirrors the configfs job name.  Files are root-only.
 * Readers take job->lock, which is never held while waiting for I/O, so
 * a stuck device never blocks them.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched/cputime.h>
#include <linux/seq_file.h>
#include <linux/vmalloc.h>

#include "ssdload.h"

static struct dentry *ssdload_debugfs_root;

/* Generate _open and _fops for a seq_file _show (nvmet style). */
#define SSDLOAD_DEBUGFS_ATTR(field)					\
static int field##_open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, field##_show, inode->i_private);	\
}									\
									\
static const struct file_operations field##_fops = {			\
	.owner		= THIS_MODULE,					\
	.open		= field##_open,					\
	.read		= seq_read,					\
	.llseek		= seq_lseek,					\
	.release	= single_release,				\
}

/*
 * CPU time of worker @w's thread: final once the run was torn down, else
 * live (as /proc/PID/stat would show it now).
 */
static void ssdload_worker_cpu(struct ssdload_job *job,
			       const struct ssdload_worker *w, u64 *cpu,
			       u64 *usr, u64 *ctx)
{
	u64 ut, st;

	if (job->end_ns || !w->compl.task) {
		*cpu = w->res.cpu_ns;
		*usr = w->res.usr_ns;
		*ctx = w->res.ctx;
		return;
	}
	task_cputime_adjusted(w->compl.task, &ut, &st);
	*cpu = ut + st;
	*usr = ut;
	*ctx = READ_ONCE(w->compl.task->nvcsw) +
	       READ_ONCE(w->compl.task->nivcsw);
}

/* The CPU time of all workers and their completions (ramp included). */
static void ssdload_job_cpu(struct ssdload_job *job, u64 *cpu, u64 *usr,
			    u64 *ctx, u64 *done)
{
	unsigned int i;
	int d;

	*cpu = 0;
	*usr = 0;
	*ctx = 0;
	*done = 0;
	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_worker *w = job->workers[i];
		u64 c, u, x;

		ssdload_worker_cpu(job, w, &c, &u, &x);
		*cpu += c;
		*usr += u;
		*ctx += x;
		for (d = 0; d < SSDLOAD_DIR_NR; d++)
			*done += READ_ONCE(w->res.st[d].done);
	}
}

/*
 * Add worker @w's counters of device @k, direction @d, to @t.  With one
 * device they are the worker's own (the I/O path keeps no copy).
 */
static void ssdload_devstat_add(struct ssdload_job *job,
				const struct ssdload_worker *w, unsigned int k,
				int d, struct ssdload_devstat *t)
{
	if (job->nr_devs == 1) {
		const struct ssdload_dstat *st = &w->res.st[d];

		t->done += READ_ONCE(st->done);
		t->ios += READ_ONCE(st->ios);
		t->bytes += READ_ONCE(st->bytes);
		t->errors += READ_ONCE(st->errors);
		t->lat_sum += READ_ONCE(st->lat_sum);
	} else {
		const struct ssdload_devstat *ds = &w->wd[k].st[d];

		t->done += READ_ONCE(ds->done);
		t->ios += READ_ONCE(ds->ios);
		t->bytes += READ_ONCE(ds->bytes);
		t->errors += READ_ONCE(ds->errors);
		t->lat_sum += READ_ONCE(ds->lat_sum);
	}
}

/* Per-device lines of the summary: the span and each direction's counts. */
static void ssdload_summary_devs(struct seq_file *m, struct ssdload_job *job)
{
	unsigned int i, k;
	int d;

	seq_printf(m, "devices=%u\n", job->workers ? job->nr_devs : 0);
	if (!job->workers)
		return;
	for (k = 0; k < job->nr_devs; k++) {
		const struct ssdload_dev *dev = &job->devs[k];

		seq_printf(m, "dev%u_name=%s\n", k, dev->path);
		seq_printf(m, "dev%u_span_start=%llu\n", k, dev->span_start);
		seq_printf(m, "dev%u_span_bytes=%llu\n", k, dev->span_bytes);
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			struct ssdload_devstat t = { };

			for (i = 0; i < job->nr_workers; i++)
				ssdload_devstat_add(job, job->workers[i], k, d,
						    &t);
			seq_printf(m, "dev%u_%s_done=%llu\n", k,
				   ssdload_dir_names[d], t.done);
			seq_printf(m, "dev%u_%s_ios=%llu\n", k,
				   ssdload_dir_names[d], t.ios);
			seq_printf(m, "dev%u_%s_bytes=%llu\n", k,
				   ssdload_dir_names[d], t.bytes);
			seq_printf(m, "dev%u_%s_errors=%llu\n", k,
				   ssdload_dir_names[d], t.errors);
			seq_printf(m, "dev%u_%s_lat_sum_ns=%llu\n", k,
				   ssdload_dir_names[d], t.lat_sum);
		}
	}
}

/* "@key=c0 c1 ... c6": a map of SSDLOAD_DEPTH_NR counts */
static void ssdload_seq_map(struct seq_file *m, const char *key, const u64 *map)
{
	unsigned int k;

	seq_printf(m, "%s=", key);
	for (k = 0; k < SSDLOAD_DEPTH_NR; k++)
		seq_printf(m, "%s%llu", k ? " " : "", READ_ONCE(map[k]));
	seq_putc(m, '\n');
}

/* The job's iodepth_level, iodepth_submit, iodepth_complete: its workers' sums. */
static void ssdload_summary_depths(struct seq_file *m, struct ssdload_job *job)
{
	u64 map[3][SSDLOAD_DEPTH_NR] = { };
	unsigned int i, k;

	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_worker *w = job->workers[i];

		for (k = 0; k < SSDLOAD_DEPTH_NR; k++) {
			map[0][k] += READ_ONCE(w->res.depth[k]);
			map[1][k] += READ_ONCE(w->res.submits[k]);
			map[2][k] += READ_ONCE(w->res.reaps[k]);
		}
	}
	ssdload_seq_map(m, "iodepth_level", map[0]);
	ssdload_seq_map(m, "iodepth_submit", map[1]);
	ssdload_seq_map(m, "iodepth_complete", map[2]);
}

/*
 * Worker @i's figures of @st under @n (a direction, or "sync": its
 * flushes, flush.c, which fio's clones count each for themselves).
 */
static void ssdload_summary_worker_dstat(struct seq_file *m, unsigned int i,
					 const char *n,
					 const struct ssdload_dstat *st)
{
	u64 ios = READ_ONCE(st->ios);

	seq_printf(m, "worker%u_%s_ios=%llu\n", i, n, ios);
	seq_printf(m, "worker%u_%s_bytes=%llu\n", i, n, READ_ONCE(st->bytes));
	seq_printf(m, "worker%u_%s_errors=%llu\n", i, n, READ_ONCE(st->errors));
	seq_printf(m, "worker%u_%s_lat_min_ns=%llu\n", i, n,
		   ios ? READ_ONCE(st->lat_min) : 0);
	seq_printf(m, "worker%u_%s_lat_max_ns=%llu\n", i, n,
		   READ_ONCE(st->lat_max));
	seq_printf(m, "worker%u_%s_lat_sum_ns=%llu\n", i, n,
		   READ_ONCE(st->lat_sum));
}

/* Per-worker lines of the summary. */
static void ssdload_summary_workers(struct seq_file *m,
				    struct ssdload_job *job)
{
	unsigned int i;
	int d;

	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_worker *w = job->workers[i];
		u64 cpu, usr, ctx;

		ssdload_worker_cpu(job, w, &cpu, &usr, &ctx);
		seq_printf(m, "worker%u_cpu=%u\n", i, w->cpu);
		seq_printf(m, "worker%u_ran_on=%*pbl\n", i,
			   cpumask_pr_args(w->res.ran_on));
		seq_printf(m, "worker%u_pid=%d\n", i, w->pid);
		seq_printf(m, "worker%u_cpu_ns=%llu\n", i, cpu);
		seq_printf(m, "worker%u_ctx=%llu\n", i, ctx);
		seq_printf(m, "worker%u_", i);
		ssdload_seq_map(m, "iodepth_level", w->res.depth);
		for (d = 0; d < SSDLOAD_DIR_NR; d++)
			ssdload_summary_worker_dstat(m, i, ssdload_dir_names[d],
						     &w->res.st[d]);
		ssdload_summary_worker_dstat(m, i, "sync", &w->res.sync);
	}
}

/*
 * The sends @lag ns stand for at @rate per second shared by @mul / 1e9
 * workers: lag * rate / mul without overflow (whole seconds, then the
 * rest, whose quotient is below the rate), saturated.
 */
static u64 ssdload_lag_work(u64 lag, u64 rate, u64 mul)
{
	u64 workers = div64_u64(mul, NSEC_PER_SEC);
	u32 rem;
	u64 sec = div_u64_rem(lag, NSEC_PER_SEC, &rem), whole;

	if (check_mul_overflow(sec, rate, &whole))
		return U64_MAX;
	return size_add(div64_u64(whole, workers),
			mul_u64_u64_div_u64(rem, rate, mul));
}

/*
 * How far behind its schedule direction @d fell: the largest lag of a
 * worker (from the intended time of its next unsent I/O to the end of
 * issuing, or now), and the sends that lag stands for at the worker's
 * share of the rate, in I/Os (rate_iops) or bytes (rate).
 */
static void ssdload_rate_behind(struct ssdload_job *job, int d, u64 *ns,
				u64 *ios, u64 *bytes)
{
	u64 now = job->end_ns ? job->end_ns : ktime_get_ns();
	unsigned int i;

	*ns = 0;
	*ios = 0;
	*bytes = 0;
	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_worker *w = job->workers[i];
		u64 end, next, lag, per;

		if (!w->rate.sched || !w->rate.sched[d].on)
			continue;
		end = READ_ONCE(w->rate.issue_end_ns) ?: now;
		/* nothing intended after the deadline was due */
		if (job->deadline_ns)
			end = min(end, job->deadline_ns);
		next = READ_ONCE(w->rate.sched[d].next_ns);
		if (end <= next)
			continue;
		lag = end - next;
		*ns = max(*ns, lag);
		per = ssdload_lag_work(lag, w->rate.sched[d].div >> 16,
				       w->rate.sched[d].mul);
		if (w->rate.sched[d].bw)
			*bytes = size_add(*bytes, per);
		else
			*ios = size_add(*ios, per);
	}
}

/* Rate control lines of direction @d (zeros when it is not capped). */
static void ssdload_summary_rate(struct seq_file *m, struct ssdload_job *job,
				 int d)
{
	const char *n = ssdload_dir_names[d];
	u64 ns, ios, bytes;
	struct ssdload_sum s;
	char sumsq[48];

	ssdload_sum_intended(job, d, &s, NULL);
	ssdload_u128_to_str(s.lat_sumsq, sumsq, sizeof(sumsq));
	ssdload_rate_behind(job, d, &ns, &ios, &bytes);
	seq_printf(m, "%s_rate_iops=%llu\n", n, job->cfg.rate_iops[d]);
	seq_printf(m, "%s_rate_bps=%llu\n", n, job->cfg.rate[d]);
	seq_printf(m, "%s_intended_ios=%llu\n", n, s.ios);
	seq_printf(m, "%s_intended_lat_min_ns=%llu\n", n, s.lat_min);
	seq_printf(m, "%s_intended_lat_mean_ns=%llu\n", n,
		   ssdload_sum_mean(&s));
	seq_printf(m, "%s_intended_lat_max_ns=%llu\n", n, s.lat_max);
	seq_printf(m, "%s_intended_lat_stddev_ns=%llu\n", n,
		   ssdload_sum_stddev(&s));
	seq_printf(m, "%s_intended_lat_sum_ns=%llu\n", n, s.lat_sum);
	seq_printf(m, "%s_intended_lat_sumsq_ns2=%s\n", n, sumsq);
	seq_printf(m, "%s_late_ios=%llu\n", n, s.late);
	seq_printf(m, "%s_behind_ns=%llu\n", n, ns);
	seq_printf(m, "%s_behind_ios=%llu\n", n, ios);
	seq_printf(m, "%s_behind_bytes=%llu\n", n, bytes);
}

/* Did the last run have steps (their results are in the steps file)? */
static bool ssdload_steps_ran(const struct ssdload_job *job)
{
	return job->nr_workers && job->phases && job->phases[0].step;
}

/* Records closed so far, over the workers. */
static u64 ssdload_series_count(struct ssdload_job *job)
{
	u64 n = 0;
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++)
		if (job->workers[i]->ser)	/* pairs with series_close */
			n += smp_load_acquire(&job->workers[i]->ser->nr);
	return n;
}

static int ssdload_job_errno(struct ssdload_job *job)
{
	int err;

	spin_lock(&job->err_lock);
	err = job->err;
	spin_unlock(&job->err_lock);
	return err;
}

/*
 * What the run will do: its ramp and measured time (ramp_ns + runtime_ns
 * is its length: with steps or loops, of all of them, 0 when a count
 * ends some step), its number_ios (0 with steps), and where it is: the
 * step of the first worker and its loop (0 without steps).
 */
static void ssdload_progress_plan(struct seq_file *m, struct ssdload_job *job)
{
	u64 ramp = job->cfg.ramp_ms * NSEC_PER_MSEC;
	u64 runtime = job->cfg.runtime_ms * NSEC_PER_MSEC;
	u64 nios = job->cfg.number_ios;
	u32 step = 0, loop = 0;

	if (job->nr_workers && job->phases) {
		const struct ssdload_worker *w = job->workers[0];

		ramp = job->phases[0].ramp_ms * NSEC_PER_MSEC;
		runtime = job->run_ms ? job->run_ms * NSEC_PER_MSEC - ramp : 0;
		if (ssdload_steps_ran(job)) {
			nios = 0;
			step = job->phases[READ_ONCE(w->phase.idx)].step;
			loop = READ_ONCE(w->phase.loop);
		} else if (check_mul_overflow(nios, (u64)job->run_loops,
					      &nios) ||
			   (job->cfg.per_clone &&
			    check_mul_overflow(nios, (u64)job->nr_workers,
					       &nios))) {
			/* per_clone: every worker issues number_ios */
			nios = U64_MAX;
		}
	}
	seq_printf(m, "ramp_ns=%llu\n", ramp);
	seq_printf(m, "runtime_ns=%llu\n", runtime);
	seq_printf(m, "number_ios=%llu\n", nios);
	seq_printf(m, "step=%u\n", step);
	seq_printf(m, "loop=%u\n", loop);
}

/* The workers' counters, summed. */
static void ssdload_job_counts(struct ssdload_job *job, struct ssdload_wcount *t)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_wcount *c = &job->workers[i]->res.cnt;

		t->split_ios += READ_ONCE(c->split_ios);
		t->nowait_retries += READ_ONCE(c->nowait_retries);
		t->timed_out += READ_ONCE(c->timed_out);
		t->stuck += READ_ONCE(c->stuck);
		t->fua_writes += READ_ONCE(c->fua_writes);
		t->barrier_writes += READ_ONCE(c->barrier_writes);
	}
}

/*
 * thinktime: the time the workers paused, summed over them, and their
 * pauses (both 0 without thinktime_us).
 */
static void ssdload_summary_think(struct seq_file *m, struct ssdload_job *job)
{
	u64 ns = 0, pauses = 0;
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++) {
		ns += READ_ONCE(job->workers[i]->think.total_ns);
		pauses += READ_ONCE(job->workers[i]->think.pauses);
	}
	seq_printf(m, "think_ns=%llu\n", ns);
	seq_printf(m, "think_pauses=%llu\n", pauses);
}

/* The figures of direction (or sync) @n: <n>_ios= ... <n>_lat_sumsq_ns2= */
static void ssdload_summary_lat(struct seq_file *m, const char *n,
				const struct ssdload_sum *s)
{
	char sumsq[48];

	ssdload_u128_to_str(s->lat_sumsq, sumsq, sizeof(sumsq));
	seq_printf(m, "%s_ios=%llu\n", n, s->ios);
	seq_printf(m, "%s_bytes=%llu\n", n, s->bytes);
	seq_printf(m, "%s_errors=%llu\n", n, s->errors);
	seq_printf(m, "%s_lat_min_ns=%llu\n", n, s->lat_min);
	seq_printf(m, "%s_lat_mean_ns=%llu\n", n, ssdload_sum_mean(s));
	seq_printf(m, "%s_lat_max_ns=%llu\n", n, s->lat_max);
	seq_printf(m, "%s_lat_stddev_ns=%llu\n", n, ssdload_sum_stddev(s));
	seq_printf(m, "%s_lat_sum_ns=%llu\n", n, s->lat_sum);
	seq_printf(m, "%s_lat_sumsq_ns2=%s\n", n, sumsq);
}

/*
 * fio's sync options (flush.c): the settings, the flushes as sync_*
 * (sync_ios counts the measured flush bios, one per device each time),
 * and the FUA writes.
 */
static void ssdload_summary_sync(struct seq_file *m, struct ssdload_job *job,
				 const struct ssdload_wcount *cnt)
{
	struct ssdload_sum s;

	seq_printf(m, "fsync=%llu\n", job->cfg.fsync);
	seq_printf(m, "end_fsync=%llu\n", job->cfg.end_fsync);
	seq_printf(m, "sync=%llu\n", job->cfg.sync);
	seq_printf(m, "write_barrier=%llu\n", job->cfg.write_barrier);
	ssdload_sum_dir(job, SSDLOAD_HIST_DIR_SYNC, &s, NULL);
	ssdload_summary_lat(m, "sync", &s);
	seq_printf(m, "fua_writes=%llu\n", cnt->fua_writes);
	seq_printf(m, "barrier_writes=%llu\n", cnt->barrier_writes);
}

/*
 * start_at, and when the workers began to submit on the wall clock: the
 * first one, and the start error, the last one's lateness after start_at
 * (0 without start_at or before a run).
 */
static void ssdload_summary_start(struct seq_file *m, struct ssdload_job *job)
{
	u64 first = 0, last = 0, t;
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++) {
		t = READ_ONCE(job->workers[i]->first_real_ns);
		if (!t)
			continue;
		first = first ? min(first, t) : t;
		last = max(last, t);
	}
	seq_printf(m, "start_at=%llu\n", job->cfg.start_at);
	seq_printf(m, "first_submit_real_ns=%llu\n", first);
	seq_printf(m, "start_error_ns=%lld\n", job->cfg.start_at && last ?
		   (s64)(last - job->cfg.start_at) : 0LL);
}

static int ssdload_summary_show(struct seq_file *m, void *unused)
{
	struct ssdload_job *job = m->private;
	u64 cpu, usr, ctx, done;
	struct ssdload_wcount cnt;
	struct ssdload_sum s;
	int d;

	mutex_lock(&job->lock);
	ssdload_job_counts(job, &cnt);
	seq_puts(m, "version=1\n");
	seq_printf(m, "state=%s\n",
		   ssdload_enum_name(ssdload_state_names,
				     READ_ONCE(job->state)));
	seq_printf(m, "error=%d\n", ssdload_job_errno(job));
	seq_printf(m, "workers=%u\n", job->nr_workers);
	seq_printf(m, "runtime_ns=%llu\n", ssdload_job_runtime_ns(job));
	seq_printf(m, "ramp_ns=%llu\n", job->cfg.ramp_ms * NSEC_PER_MSEC);
	seq_printf(m, "start_real_ns=%llu\n", job->start_real_ns);
	ssdload_summary_start(m, job);
	seq_printf(m, "hipri=%llu\n", job->cfg.hipri);
	seq_printf(m, "polled=%d\n", job->polled);
	seq_printf(m, "disable_lat=%llu\n", job->cfg.disable_lat);
	seq_printf(m, "poll_fallback=%s\n",
		   ssdload_enum_name(ssdload_poll_fallback_names,
				     job->poll_fallback));
	seq_printf(m, "split_ios=%llu\n", cnt.split_ios);
	seq_printf(m, "nowait_retries=%llu\n", cnt.nowait_retries);
	seq_printf(m, "io_timeout_ms=%llu\n", job->cfg.io_timeout_ms);
	seq_printf(m, "timed_out_ios=%llu\n", cnt.timed_out);
	seq_printf(m, "randseed=%llu\n", job->cfg.randseed);
	seq_printf(m, "numjobs=%llu\n", job->cfg.numjobs);
	seq_printf(m, "bs_min=%u\n", job->bs_min);
	seq_printf(m, "bs_max=%u\n", job->bs_max);
	seq_printf(m, "blockalign=%u\n", job->ba);
	seq_printf(m, "rate_process=%s\n",
		   ssdload_enum_name(ssdload_rate_process_names,
				     job->cfg.rate_process));
	seq_printf(m, "late_threshold_ns=%llu\n", (u64)SSDLOAD_LATE_NS);
	seq_printf(m, "log_interval_ms=%llu\n", job->cfg.log_interval_ms);
	seq_printf(m, "log_hist=%llu\n", job->cfg.log_hist);
	seq_printf(m, "series_records=%llu\n", ssdload_series_count(job));
	seq_printf(m, "steps=%u\n", ssdload_steps_ran(job) ? job->nr_phases : 0);
	seq_printf(m, "loops=%u\n", job->run_loops);
	seq_printf(m, "time_based=%llu\n", job->cfg.time_based);
	ssdload_summary_think(m, job);
	ssdload_job_cpu(job, &cpu, &usr, &ctx, &done);
	seq_printf(m, "cpu_ns=%llu\n", cpu);
	seq_printf(m, "usr_cpu_ns=%llu\n", usr);
	seq_printf(m, "sys_cpu_ns=%llu\n", cpu - usr);
	seq_printf(m, "ctx=%llu\n", ctx);
	seq_printf(m, "cpu_ns_per_io=%llu\n", done ? div64_u64(cpu, done) : 0);
	ssdload_summary_depths(m, job);
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		ssdload_sum_dir(job, d, &s, NULL);
		ssdload_summary_lat(m, ssdload_dir_names[d], &s);
		ssdload_summary_rate(m, job, d);
	}
	ssdload_summary_sync(m, job, &cnt);
	ssdload_summary_devs(m, job);
	ssdload_summary_workers(m, job);
	mutex_unlock(&job->lock);
	return 0;
}
SSDLOAD_DEBUGFS_ATTR(ssdload_summary);

static int ssdload_progress_show(struct seq_file *m, void *unused)
{
	struct ssdload_job *job = m->private;
	u64 done[SSDLOAD_DIR_NR] = { };
	u64 cpu, usr, ctx, all;
	u64 elapsed = 0, inflight = 0;
	struct ssdload_wcount cnt;
	unsigned int i;
	int d;

	mutex_lock(&job->lock);
	ssdload_job_counts(job, &cnt);
	if (job->start_ns) {
		u64 end = job->end_ns ? job->end_ns : ktime_get_ns();

		/* 0 until a start_at instant */
		elapsed = end > job->start_ns ? end - job->start_ns : 0;
	}
	for (i = 0; i < job->nr_workers; i++) {
		for (d = 0; d < SSDLOAD_DIR_NR; d++)
			done[d] += READ_ONCE(job->workers[i]->res.st[d].done);
		if (!job->end_ns)
			inflight += READ_ONCE(job->workers[i]->pool.inflight);
	}
	seq_printf(m, "state=%s\n",
		   ssdload_enum_name(ssdload_state_names,
				     READ_ONCE(job->state)));
	seq_printf(m, "elapsed_ns=%llu\n", elapsed);
	ssdload_progress_plan(m, job);
	seq_printf(m, "read_ios=%llu\n", done[SSDLOAD_DIR_READ]);
	seq_printf(m, "write_ios=%llu\n", done[SSDLOAD_DIR_WRITE]);
	seq_printf(m, "trim_ios=%llu\n", done[SSDLOAD_DIR_TRIM]);
	ssdload_job_cpu(job, &cpu, &usr, &ctx, &all);
	seq_printf(m, "cpu_ns=%llu\n", cpu);
	seq_printf(m, "inflight=%llu\n", inflight);
	seq_printf(m, "timed_out_ios=%llu\n", cnt.timed_out);
	seq_printf(m, "stuck_ios=%llu\n", cnt.stuck);
	mutex_unlock(&job->lock);
	return 0;
}
SSDLOAD_DEBUGFS_ATTR(ssdload_progress);

/* verify (uapi): the read-back pass, live while it runs. */
static int ssdload_verify_file_show(struct seq_file *m, void *unused)
{
	struct ssdload_job *job = m->private;
	int ret;

	mutex_lock(&job->lock);
	ret = ssdload_verify_show(job, m);
	mutex_unlock(&job->lock);
	return ret;
}
SSDLOAD_DEBUGFS_ATTR(ssdload_verify_file);

/*
 * verify_state (uapi): the last run's span and generation map, encoded
 * at open into a snapshot freed at release.  -EBUSY while the job runs,
 * -ENODATA if its last run had no verify.
 */
struct ssdload_vstate_snap {
	size_t len;
	u8 data[];
};

static int ssdload_vstate_open(struct inode *inode, struct file *file)
{
	struct ssdload_job *job = inode->i_private;
	const struct ssdload_vrun *v = &job->vfy;
	struct ssdload_vstate_snap *snap;
	int ret = 0;
	u64 len;

	mutex_lock(&job->lock);
	if (ssdload_state_busy(job->state)) {
		ret = -EBUSY;
		goto out_unlock;
	}
	if (!v->map) {
		ret = -ENODATA;
		goto out_unlock;
	}
	len = ssdload_vstate_len(&v->span, v->map_bytes);
	snap = kvmalloc(sizeof(*snap) + len, GFP_KERNEL);
	if (!snap) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	snap->len = len;
	ssdload_vstate_encode(&v->span, v->map, v->map_bytes,
			      ktime_get_real_ns(), snap->data);
	file->private_data = snap;
out_unlock:
	mutex_unlock(&job->lock);
	return ret ? ret : nonseekable_open(inode, file);
}

static ssize_t ssdload_vstate_read(struct file *file, char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct ssdload_vstate_snap *snap = file->private_data;

	return simple_read_from_buffer(buf, count, ppos, snap->data,
				       snap->len);
}

static int ssdload_vstate_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static const struct file_operations ssdload_vstate_fops = {
	.owner		= THIS_MODULE,
	.open		= ssdload_vstate_open,
	.read		= ssdload_vstate_read,
	.release	= ssdload_vstate_release,
};

/* Binary histograms: a snapshot built at open, freed at release. */
struct ssdload_hist_snap {
	size_t len;				/* bytes in data */
	struct ssdload_hist_header hdr;		/* then the counts */
	u64 counts[SSDLOAD_HIST_BUCKETS];	/* summed over workers */
};

static int ssdload_hist_open(struct inode *inode, struct file *file, int dir,
			     bool intended)
{
	struct ssdload_job *job = inode->i_private;
	struct ssdload_hist_snap *snap;
	struct ssdload_sum s;
	u64 samples = 0;
	unsigned int b;

	BUILD_BUG_ON(offsetof(struct ssdload_hist_snap, counts) !=
		     offsetof(struct ssdload_hist_snap, hdr) + sizeof(snap->hdr));
	snap = vzalloc(sizeof(*snap));
	if (!snap)
		return -ENOMEM;

	mutex_lock(&job->lock);
	if (dir == SSDLOAD_HIST_DIR_REPLAY) {
		memset(&s, 0, sizeof(s));
		ssdload_replay_hist(job, snap->counts, &samples, &s.lat_min,
				    &s.lat_max, &s.lat_sum);
		samples = 0;
	} else if (intended) {
		ssdload_sum_intended(job, dir, &s, snap->counts);
	} else {
		ssdload_sum_dir(job, dir, &s, snap->counts);
	}
	snap->hdr.runtime_ns = ssdload_job_runtime_ns(job);
	mutex_unlock(&job->lock);

	for (b = 0; b < SSDLOAD_HIST_BUCKETS; b++)
		samples += snap->counts[b];
	snap->hdr.magic = SSDLOAD_HIST_MAGIC;
	snap->hdr.version = SSDLOAD_HIST_VERSION;
	snap->hdr.header_size = sizeof(snap->hdr);
	snap->hdr.sub_bits = SSDLOAD_HIST_SUB_BITS;
	snap->hdr.max_shift = SSDLOAD_HIST_MAX_SHIFT;
	snap->hdr.nr_buckets = SSDLOAD_HIST_BUCKETS;
	snap->hdr.dir = dir;
	snap->hdr.samples = samples;
	snap->hdr.overflow = s.overflow;
	snap->hdr.min_ns = s.lat_min;
	snap->hdr.max_ns = s.lat_max;
	snap->hdr.sum_ns = s.lat_sum;
	snap->hdr.sumsq_hi = (u64)(s.lat_sumsq >> 64);
	snap->hdr.sumsq_lo = (u64)s.lat_sumsq;
	snap->len = sizeof(snap->hdr) + sizeof(snap->counts);

	file->private_data = snap;
	return nonseekable_open(inode, file);
}

static ssize_t ssdload_hist_read(struct file *file, char __user *buf,
				 size_t count, loff_t *ppos)
{
	struct ssdload_hist_snap *snap = file->private_data;

	return simple_read_from_buffer(buf, count, ppos, &snap->hdr,
				       snap->len);
}

static int ssdload_hist_release(struct inode *inode, struct file *file)
{
	vfree(file->private_data);
	return 0;
}

/* hist_<dir> and hist_intended_<dir>: an open function and fops each. */
#define SSDLOAD_HIST_FILE(NAME, DIR, INTENDED)				\
static int ssdload_##NAME##_open(struct inode *inode, struct file *file) \
{									\
	return ssdload_hist_open(inode, file, DIR, INTENDED);		\
}									\
									\
static const struct file_operations ssdload_##NAME##_fops = {		\
	.owner		= THIS_MODULE,					\
	.open		= ssdload_##NAME##_open,			\
	.read		= ssdload_hist_read,				\
	.release	= ssdload_hist_release,				\
}

SSDLOAD_HIST_FILE(hist_read, SSDLOAD_DIR_READ, false);
SSDLOAD_HIST_FILE(hist_write, SSDLOAD_DIR_WRITE, false);
SSDLOAD_HIST_FILE(hist_trim, SSDLOAD_DIR_TRIM, false);
SSDLOAD_HIST_FILE(hist_sync, SSDLOAD_HIST_DIR_SYNC, false);
SSDLOAD_HIST_FILE(hist_intended_read, SSDLOAD_DIR_READ, true);
SSDLOAD_HIST_FILE(hist_intended_write, SSDLOAD_DIR_WRITE, true);
SSDLOAD_HIST_FILE(hist_intended_trim, SSDLOAD_DIR_TRIM, true);
SSDLOAD_HIST_FILE(hist_replay, SSDLOAD_HIST_DIR_REPLAY, false);

/* The series file: a snapshot built at open, freed at release. */
struct ssdload_snap {
	size_t len;			/* bytes in buf */
	u8 buf[];			/* header, records, deltas */
};

/* Bytes of the histogram deltas of @nr records. */
static u64 ssdload_series_hist_bytes(const struct ssdload_series_rec *r,
				     u32 nr)
{
	u64 bytes = 0;
	u32 i;
	int d;

	for (i = 0; i < nr; i++)
		for (d = 0; d < SSDLOAD_DIR_NR; d++)
			bytes += r[i].dir[d].hist_len;
	return bytes;
}

static int ssdload_series_open(struct inode *inode, struct file *file)
{
	struct ssdload_job *job = inode->i_private;
	struct ssdload_series_header *hdr;
	struct ssdload_snap *snap;
	u64 nrec = 0, hbytes = 0, size;
	u32 *nr = NULL;
	unsigned int i;
	u8 *rp, *hp;
	int ret = 0;

	BUILD_BUG_ON(ARRAY_SIZE(((struct ssdload_series_rec *)0)->dir) !=
		     SSDLOAD_DIR_NR);
	mutex_lock(&job->lock);
	if (job->nr_workers) {
		nr = kcalloc(job->nr_workers, sizeof(*nr), GFP_KERNEL);
		if (!nr) {
			ret = -ENOMEM;
			goto out_unlock;
		}
	}
	/* the counts first: what a worker closes after this is left out */
	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_series *ser = job->workers[i]->ser;

		if (!ser)
			continue;
		/* pairs with the release in ssdload_series_close() */
		nr[i] = smp_load_acquire(&ser->nr);
		nrec += nr[i];
		hbytes += ssdload_series_hist_bytes(ser->recs, nr[i]);
	}
	size = sizeof(*hdr) + nrec * sizeof(struct ssdload_series_rec) + hbytes;
	snap = kvzalloc(sizeof(*snap) + size, GFP_KERNEL | __GFP_NOWARN);
	if (!snap) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	snap->len = size;
	hdr = (struct ssdload_series_header *)snap->buf;
	hdr->magic = SSDLOAD_SERIES_MAGIC;
	hdr->version = SSDLOAD_SERIES_VERSION;
	hdr->header_size = sizeof(*hdr);
	hdr->record_size = sizeof(struct ssdload_series_rec);
	hdr->nr_workers = job->nr_workers;
	hdr->nr_records = nrec;
	hdr->hist_bytes = hbytes;
	/* the run's, not the configuration's (which may have changed since) */
	hdr->interval_ns = job->nr_workers && job->workers[0]->ser ?
			   job->workers[0]->ser->interval_ns : 0;
	hdr->log_hist = job->ser_pool != 0;
	hdr->hist_sub_bits = SSDLOAD_HIST_SUB_BITS;
	hdr->hist_max_shift = SSDLOAD_HIST_MAX_SHIFT;
	hdr->hist_buckets = SSDLOAD_HIST_BUCKETS;
	rp = snap->buf + sizeof(*hdr);
	hp = rp + nrec * sizeof(struct ssdload_series_rec);
	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_series *ser = job->workers[i]->ser;
		u64 len;

		if (!ser || !nr[i])
			continue;
		memcpy(rp, ser->recs, nr[i] * sizeof(*ser->recs));
		rp += nr[i] * sizeof(*ser->recs);
		len = ssdload_series_hist_bytes(ser->recs, nr[i]);
		if (len)
			memcpy(hp, ser->pool, len);
		hp += len;
	}
	file->private_data = snap;
out_unlock:
	mutex_unlock(&job->lock);
	kfree(nr);
	return ret ? ret : nonseekable_open(inode, file);
}

static ssize_t ssdload_snap_read(struct file *file, char __user *buf,
				 size_t count, loff_t *ppos)
{
	struct ssdload_snap *snap = file->private_data;

	return simple_read_from_buffer(buf, count, ppos, snap->buf, snap->len);
}

static int ssdload_snap_release(struct inode *inode, struct file *file)
{
	kvfree(file->private_data);
	return 0;
}

static const struct file_operations ssdload_series_fops = {
	.owner		= THIS_MODULE,
	.open		= ssdload_series_open,
	.read		= ssdload_snap_read,
	.release	= ssdload_snap_release,
};

/*
 * The steps file, streamed: the header is built at open, each record and
 * each histogram when it is read (a seq_file item each), so that an open
 * file holds one histogram and a page or so of records, however many
 * steps the run had.  Items: 0 the header, 1 .. nr the records, then
 * the histograms in the order of the format (uapi/ssdload.h).  A read
 * after the job's run changed (enabled again, torn down) fails with
 * -ESTALE: the header no longer describes it.
 */
struct ssdload_steps_iter {
	struct ssdload_job *job;
	u32 gen;			/* job->run_gen at open */
	unsigned int nr;		/* records */
	loff_t pos;			/* the item start() or next() gave */
	struct ssdload_steps_header hdr;
	struct ssdload_steps_rec rec;	/* the record being shown */
	u64 hist[SSDLOAD_HIST_BUCKETS];	/* the histogram being shown */
	u32 first[];			/* nr + 1: index of the first
					 * histogram of each record, then
					 * their number
					 */
};

/* Fill @r with phase @p of the run: its parameters and its results. */
static void ssdload_steps_fill(struct ssdload_job *job, unsigned int p,
			       struct ssdload_steps_rec *r)
{
	const struct ssdload_phase *ph = &job->phases[p];
	struct ssdload_sum sum;
	unsigned int i;
	int d;

	memset(r, 0, sizeof(*r));
	r->step = ph->step;
	r->flags = ph->idle ? SSDLOAD_STEPS_IDLE : 0;
	r->rw = ph->rw;
	r->rwmixread = ph->rwmixread;
	r->iodepth = ph->iodepth;
	r->numjobs = ph->idle ? 0 : ssdload_phase_workers(ph, job->nr_workers);
	r->bs_min = ph->bs_min;
	r->bs_max = ph->bs_max;
	r->blockalign = ph->idle ? 0 : ph->ba;
	r->runtime_ms = ph->runtime_ms;
	r->ramp_ms = ph->ramp_ms;
	r->number_ios = ph->number_ios;
	r->idle_ms = ph->idle_ms;
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		r->rate_iops[d] = ph->rate_iops[d];
		r->rate[d] = ph->rate[d];
	}
	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_worker *w = job->workers[i];
		const struct ssdload_pstat *ps = &w->pst[p];
		enum ssdload_state state = READ_ONCE(job->state);
		u64 start, last, ns;
		unsigned int seq;
		u32 entries;

		/* the loop fold of ssdload_phase_enter() is one write section */
		do {
			seq = read_seqcount_begin(&w->res.seq);
			start = ps->start_ns;
			last = ps->last_ns;
			ns = ps->ns;
			entries = ps->entries;
		} while (read_seqcount_retry(&w->res.seq, seq));
		/* the step in progress (a live run, not one still armed): up to now */
		if (!last && start && READ_ONCE(w->phase.idx) == p &&
		    (state == SSDLOAD_STATE_RUNNING ||
		     state == SSDLOAD_STATE_STOPPING))
			last = ktime_get_ns();
		if (last > start)
			ns += last - start;
		r->runtime_ns = max(r->runtime_ns, ns);
		r->gap_max_ns = max(r->gap_max_ns, READ_ONCE(ps->gap_max_ns));
		r->gap_sum_ns += READ_ONCE(ps->gap_sum_ns);
		r->gaps += READ_ONCE(ps->gaps);
		r->loops_done = max(r->loops_done, entries);
	}
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		struct ssdload_steps_dir *rd = &r->dir[d];

		if (!(ph->dirs & BIT(d)))
			continue;
		ssdload_sum_step(job, p, d, false, &sum, NULL);
		rd->flags |= SSDLOAD_STEPS_HIST;
		rd->ios = sum.ios;
		rd->bytes = sum.bytes;
		rd->errors = sum.errors;
		rd->done = sum.done;
		rd->lat_min_ns = sum.lat_min;
		rd->lat_max_ns = sum.lat_max;
		rd->lat_sum_ns = sum.lat_sum;
		rd->lat_sumsq_hi = (u64)(sum.lat_sumsq >> 64);
		rd->lat_sumsq_lo = (u64)sum.lat_sumsq;
		rd->overflow = sum.overflow;
		if (!(ph->rated_dirs & BIT(d)))
			continue;
		ssdload_sum_step(job, p, d, true, &sum, NULL);
		rd->flags |= SSDLOAD_STEPS_INTENDED_HIST;
		rd->intended_ios = sum.ios;
		rd->intended_lat_min_ns = sum.lat_min;
		rd->intended_lat_max_ns = sum.lat_max;
		rd->intended_lat_sum_ns = sum.lat_sum;
		rd->late_ios = sum.late;
	}
}

/* Fill it->hist with histogram @h of the file (0: the first). */
static void ssdload_steps_fill_hist(struct ssdload_steps_iter *it, u32 h)
{
	unsigned int lo = 0, hi = it->nr - 1, p;
	struct ssdload_sum sum;
	bool intended;
	int d;

	/* the last record whose first histogram is at or before @h */
	while (lo < hi) {
		p = lo + (hi - lo + 1) / 2;
		if (it->first[p] <= h)
			lo = p;
		else
			hi = p - 1;
	}
	d = ssdload_phase_hist_at(&it->job->phases[lo], h - it->first[lo],
				  &intended);
	if (WARN_ON_ONCE(d < 0))
		memset(it->hist, 0, sizeof(it->hist));
	else
		ssdload_sum_step(it->job, lo, d, intended, &sum, it->hist);
}

static void *ssdload_steps_start(struct seq_file *m, loff_t *pos)
{
	struct ssdload_steps_iter *it = m->private;

	mutex_lock(&it->job->lock);
	if (*pos >= 1 + it->nr + it->first[it->nr])
		return NULL;
	/* the header is the open's; the rest is read from the run */
	if (*pos && it->gen != it->job->run_gen)
		return ERR_PTR(-ESTALE);
	it->pos = *pos;
	return it;
}

static void *ssdload_steps_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct ssdload_steps_iter *it = m->private;

	++*pos;
	if (*pos >= 1 + it->nr + it->first[it->nr])
		return NULL;
	it->pos = *pos;
	return it;
}

static void ssdload_steps_stop(struct seq_file *m, void *v)
{
	struct ssdload_steps_iter *it = m->private;

	mutex_unlock(&it->job->lock);
}

static int ssdload_steps_show(struct seq_file *m, void *v)
{
	struct ssdload_steps_iter *it = v;

	if (!it->pos) {
		seq_write(m, &it->hdr, sizeof(it->hdr));
	} else if (it->pos <= it->nr) {
		ssdload_steps_fill(it->job, it->pos - 1, &it->rec);
		seq_write(m, &it->rec, sizeof(it->rec));
	} else {
		ssdload_steps_fill_hist(it, it->pos - 1 - it->nr);
		seq_write(m, it->hist, sizeof(it->hist));
	}
	cond_resched();
	return 0;
}

static const struct seq_operations ssdload_steps_seq_ops = {
	.start	= ssdload_steps_start,
	.next	= ssdload_steps_next,
	.stop	= ssdload_steps_stop,
	.show	= ssdload_steps_show,
};

static int ssdload_steps_open(struct inode *inode, struct file *file)
{
	struct ssdload_job *job = inode->i_private;
	struct ssdload_steps_header *hdr;
	struct ssdload_steps_iter *it;
	unsigned int p, nr = 0;
	u32 nhist = 0;
	int ret;

	BUILD_BUG_ON(ARRAY_SIZE(((struct ssdload_steps_rec *)0)->dir) !=
		     SSDLOAD_DIR_NR);
	mutex_lock(&job->lock);
	if (ssdload_steps_ran(job))
		nr = job->nr_phases;
	it = kvzalloc(struct_size(it, first, nr + 1), GFP_KERNEL);
	if (!it) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	it->job = job;
	it->gen = job->run_gen;
	it->nr = nr;
	for (p = 0; p < nr; p++) {
		it->first[p] = nhist;
		nhist += ssdload_phase_nr_hists(&job->phases[p]);
	}
	it->first[nr] = nhist;
	hdr = &it->hdr;
	hdr->magic = SSDLOAD_STEPS_MAGIC;
	hdr->version = SSDLOAD_STEPS_VERSION;
	hdr->header_size = sizeof(*hdr);
	hdr->record_size = sizeof(it->rec);
	hdr->nr_steps = nr;
	hdr->loops = nr ? job->run_loops : 0;
	hdr->nr_workers = nr ? job->nr_workers : 0;
	hdr->hist_sub_bits = SSDLOAD_HIST_SUB_BITS;
	hdr->hist_max_shift = SSDLOAD_HIST_MAX_SHIFT;
	hdr->hist_buckets = SSDLOAD_HIST_BUCKETS;
	hdr->hist_bytes = (u64)nhist * sizeof(it->hist);
	ret = seq_open(file, &ssdload_steps_seq_ops);
	if (ret)
		goto out_free_it;
	((struct seq_file *)file->private_data)->private = it;
	mutex_unlock(&job->lock);
	return nonseekable_open(inode, file);

out_free_it:
	kvfree(it);
out_unlock:
	mutex_unlock(&job->lock);
	return ret;
}

/* Called after the debugfs entry may be gone: the job is not touched. */
static int ssdload_steps_file_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kvfree(m->private);
	return seq_release(inode, file);
}

static const struct file_operations ssdload_steps_fops = {
	.owner		= THIS_MODULE,
	.open		= ssdload_steps_open,
	.read		= seq_read,
	.release	= ssdload_steps_file_release,
};

/*
 * The lease: each open file holds a reference on the job (the file may
 * outlive the debugfs entry, and ->i_private with it).  A run started
 * while a lease was open stops when the last one closes.
 */
static int ssdload_lease_open(struct inode *inode, struct file *file)
{
	struct ssdload_job *job = inode->i_private;

	ssdload_job_get(job);
	ssdload_job_lease(job, true);
	file->private_data = job;
	return nonseekable_open(inode, file);
}

static ssize_t ssdload_lease_read(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	struct ssdload_job *job = file->private_data;
	char tmp[32];
	int len;

	len = scnprintf(tmp, sizeof(tmp), "leases=%u\n",
			READ_ONCE(job->leases));
	return simple_read_from_buffer(buf, count, ppos, tmp, len);
}

static int ssdload_lease_release(struct inode *inode, struct file *file)
{
	struct ssdload_job *job = file->private_data;

	ssdload_job_lease(job, false);
	ssdload_job_put(job);
	return 0;
}

static const struct file_operations ssdload_lease_fops = {
	.owner		= THIS_MODULE,
	.open		= ssdload_lease_open,
	.read		= ssdload_lease_read,
	.release	= ssdload_lease_release,
};

void ssdload_debugfs_job_add(struct ssdload_job *job)
{
	struct dentry *dir;

	if (IS_ERR_OR_NULL(ssdload_debugfs_root))
		return;
	dir = debugfs_create_dir(ssdload_job_name(job),
				 ssdload_debugfs_root);
	if (IS_ERR(dir)) {
		pr_warn("job %s: no debugfs directory: %ld\n",
			ssdload_job_name(job), PTR_ERR(dir));
		return;
	}
	job->dbg = dir;
	debugfs_create_file(SSDLOAD_DBG_SUMMARY, 0400, dir, job,
			    &ssdload_summary_fops);
	debugfs_create_file(SSDLOAD_DBG_PROGRESS, 0400, dir, job,
			    &ssdload_progress_fops);
	debugfs_create_file(SSDLOAD_DBG_HIST_READ, 0400, dir, job,
			    &ssdload_hist_read_fops);
	debugfs_create_file(SSDLOAD_DBG_HIST_WRITE, 0400, dir, job,
			    &ssdload_hist_write_fops);
	debugfs_create_file(SSDLOAD_DBG_HIST_TRIM, 0400, dir, job,
			    &ssdload_hist_trim_fops);
	debugfs_create_file(SSDLOAD_DBG_HIST_SYNC, 0400, dir, job,
			    &ssdload_hist_sync_fops);
	debugfs_create_file(SSDLOAD_DBG_HIST_INTENDED_READ, 0400, dir, job,
			    &ssdload_hist_intended_read_fops);
	debugfs_create_file(SSDLOAD_DBG_HIST_INTENDED_WRITE, 0400, dir, job,
			    &ssdload_hist_intended_write_fops);
	debugfs_create_file(SSDLOAD_DBG_HIST_INTENDED_TRIM, 0400, dir, job,
			    &ssdload_hist_intended_trim_fops);
	debugfs_create_file(SSDLOAD_DBG_SERIES, 0400, dir, job,
			    &ssdload_series_fops);
	debugfs_create_file(SSDLOAD_DBG_STEPS, 0400, dir, job,
			    &ssdload_steps_fops);
	debugfs_create_file(SSDLOAD_DBG_LEASE, 0400, dir, job,
			    &ssdload_lease_fops);
	debugfs_create_file(SSDLOAD_DBG_REPLAY, 0200, dir, job,
			    &ssdload_replay_fops);
	debugfs_create_file(SSDLOAD_DBG_REPLAY_STATS, 0400, dir, job,
			    &ssdload_replay_stats_fops);
	debugfs_create_file(SSDLOAD_DBG_HIST_REPLAY, 0400, dir, job,
			    &ssdload_hist_replay_fops);
	debugfs_create_file(SSDLOAD_DBG_VERIFY, 0400, dir, job,
			    &ssdload_verify_file_fops);
	debugfs_create_file(SSDLOAD_DBG_VERIFY_STATE, 0400, dir, job,
			    &ssdload_vstate_fops);
}

void ssdload_debugfs_job_del(struct ssdload_job *job)
{
	debugfs_remove(job->dbg);
	job->dbg = NULL;
}

int ssdload_debugfs_init(void)
{
	ssdload_debugfs_root = debugfs_create_dir("ssdload", NULL);
	if (IS_ERR(ssdload_debugfs_root))
		pr_warn("debugfs unavailable, no results files: %ld\n",
			PTR_ERR(ssdload_debugfs_root));
	return 0;
}

void ssdload_debugfs_exit(void)
{
	debugfs_remove(ssdload_debugfs_root);
	ssdload_debugfs_root = NULL;
}
