// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: turning a job's configuration into the plan of a run.
 *
 * At enable, before the workers are allocated, job.c has the configuration
 * checked and planned here: the steps (or the job itself) compiled into
 * phases, the block sizes, the rates, the time series and the write data
 * of the run, and, once each device is open, its span.  A check that
 * fails refuses the start (ssdload_job_refuse()): the job's error file
 * names the attribute and the reason.  The helpers that say what a
 * configuration issues (its directions, which are rate controlled, its
 * block sizes, a worker's share) are the workers' too.
 *
 * Nothing here calls back into job.c or worker.c.
 */
#include <linux/gcd.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include "ssdload.h"

#define SSDLOAD_TRIMWRITE_PACE \
	" (its trims, the third value: each write follows its trim)"

/* Refuse a start: remember the reason and log it with the attribute. */
int ssdload_job_refuse(struct ssdload_job *job, int err, const char *attr,
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

/* ---- what a configuration issues ------------------------------------- */

/* Is random_distribution anything but uniform (which needs no table)? */
bool ssdload_cfg_skewed(const struct ssdload_cfg *cfg)
{
	return cfg->dist && cfg->dist->type != SSDLOAD_DIST_RANDOM;
}

/* Does the job issue I/O in direction @dir? */
bool ssdload_cfg_uses_dir(const struct ssdload_cfg *cfg, int dir)
{
	switch (dir) {
	case SSDLOAD_DIR_READ:
		if (ssdload_rw_is_mixed(cfg->rw))
			return cfg->rwmixread > 0;
		return ssdload_rw_dir(cfg->rw) == SSDLOAD_DIR_READ;
	case SSDLOAD_DIR_WRITE:
		return ssdload_rw_dir(cfg->rw) == SSDLOAD_DIR_WRITE ||
		       ssdload_rw_is_trimwrite(cfg->rw) ||
		       (ssdload_rw_is_mixed(cfg->rw) && cfg->rwmixread < 100);
	default:
		return ssdload_rw_dir(cfg->rw) == SSDLOAD_DIR_TRIM;
	}
}

/*
 * Is new I/O in direction @dir rate controlled?  trimwrite schedules its
 * trims; each write follows its trim.
 */
bool ssdload_dir_rated(const struct ssdload_cfg *cfg, int dir)
{
	if (!cfg->rate_iops[dir] && !cfg->rate[dir])
		return false;
	if (ssdload_rw_is_trimwrite(cfg->rw))
		return dir == SSDLOAD_DIR_TRIM;
	return ssdload_cfg_uses_dir(cfg, dir);
}

/*
 * The block sizes of each direction of @cfg (bssplit, else bsrange, else
 * bs, as fio ranks them) into @bsd, and the smallest and largest of the
 * directions it issues.  trimwrite writes what it trimmed: its writes
 * take the trim sizes.
 */
void ssdload_plan_bsd(const struct ssdload_cfg *cfg,
		      struct ssdload_bsdist *bsd, u32 *lo, u32 *hi)
{
	int d;

	*lo = U32_MAX;
	*hi = 0;
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		struct ssdload_bsdist *b = &bsd[d];

		if (cfg->bssplit) {
			*b = cfg->bssplit->d[d];
		} else if (cfg->bsrange) {
			*b = cfg->bsrange->d[d];
		} else {
			memset(b, 0, sizeof(*b));
			b->min = cfg->bs;
			b->max = cfg->bs;
		}
	}
	if (ssdload_rw_is_trimwrite(cfg->rw))
		bsd[SSDLOAD_DIR_WRITE] = bsd[SSDLOAD_DIR_TRIM];
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		if (!ssdload_cfg_uses_dir(cfg, d))
			continue;
		*lo = min(*lo, bsd[d].min);
		*hi = max(*hi, bsd[d].max);
	}
}

/* Split @total into @nr shares: the first total % nr get one more. */
u64 ssdload_share(u64 total, unsigned int nr, unsigned int i)
{
	u64 rem;
	u64 q = div64_u64_rem(total, nr, &rem);

	return q + (i < rem ? 1 : 0);
}

/* Where share @i of ssdload_share() starts: the sum of the shares before. */
u64 ssdload_share_start(u64 total, unsigned int nr, unsigned int i)
{
	u64 rem;
	u64 q = div64_u64_rem(total, nr, &rem);

	return q * i + min_t(u64, i, rem);
}

/* ---- compiling the phases at enable ------------------------------------ */

/* @c is the job's configuration with the overrides of @st. */
static void ssdload_step_apply(const struct ssdload_step *st,
			       struct ssdload_cfg *c)
{
	if (st->set & BIT(SSDLOAD_STEP_RW))
		c->rw = st->v.rw;
	if (st->set & BIT(SSDLOAD_STEP_RWMIXREAD))
		c->rwmixread = st->v.rwmixread;
	if (st->set & BIT(SSDLOAD_STEP_BS)) {
		/* a step's bs is its size: the job's lists do not apply */
		c->bs = st->v.bs;
		c->bssplit = NULL;
		c->bsrange = NULL;
	}
	if (st->set & BIT(SSDLOAD_STEP_BSSPLIT))
		c->bssplit = st->v.bssplit;
	if (st->set & BIT(SSDLOAD_STEP_IODEPTH))
		c->iodepth = st->v.iodepth;
	if (st->set & BIT(SSDLOAD_STEP_RATE_IOPS)) {
		memcpy(c->rate_iops, st->v.rate_iops, sizeof(c->rate_iops));
		/* one cap per direction: the step's replaces the job's */
		if (!(st->set & BIT(SSDLOAD_STEP_RATE)))
			memset(c->rate, 0, sizeof(c->rate));
	}
	if (st->set & BIT(SSDLOAD_STEP_RATE)) {
		memcpy(c->rate, st->v.rate, sizeof(c->rate));
		if (!(st->set & BIT(SSDLOAD_STEP_RATE_IOPS)))
			memset(c->rate_iops, 0, sizeof(c->rate_iops));
	}
	if (st->set & BIT(SSDLOAD_STEP_RUNTIME_MS))
		c->runtime_ms = st->v.runtime_ms;
	if (st->set & BIT(SSDLOAD_STEP_RAMP_MS))
		c->ramp_ms = st->v.ramp_ms;
	if (st->set & BIT(SSDLOAD_STEP_NUMBER_IOS))
		c->number_ios = st->v.number_ios;
}

static bool ssdload_cfg_writes(const struct ssdload_cfg *c)
{
	return ssdload_cfg_uses_dir(c, SSDLOAD_DIR_WRITE) ||
	       ssdload_cfg_uses_dir(c, SSDLOAD_DIR_TRIM);
}

/* The phase @ph of @c (the job's or a step's configuration). */
static int ssdload_phase_compile(struct ssdload_job *job,
				 const struct ssdload_step *st,
				 const struct ssdload_cfg *c,
				 struct ssdload_phase *ph)
{
	char attr[40];
	int d;

	ph->step = st ? st->nr : 0;
	if (st && (st->set & BIT(SSDLOAD_STEP_IDLE_MS))) {
		snprintf(attr, sizeof(attr), "steps/%u/idle_ms", st->nr);
		if (st->set & ~BIT(SSDLOAD_STEP_IDLE_MS))
			return ssdload_job_refuse(job, -EINVAL, attr,
						  "an idle step sets nothing but idle_ms");
		ph->idle = true;
		ph->idle_ms = st->v.idle_ms;
		return 0;
	}
	if (st && ssdload_rw_is_trimwrite(c->rw)) {
		snprintf(attr, sizeof(attr), "steps/%u/rw", st->nr);
		return ssdload_job_refuse(job, -EINVAL, attr,
					  "rw=%s cannot run in steps",
					  ssdload_enum_name(ssdload_rw_names,
							    c->rw));
	}
	if (st && !c->runtime_ms && !c->number_ios) {
		snprintf(attr, sizeof(attr), "steps/%u/runtime_ms", st->nr);
		return ssdload_job_refuse(job, -EINVAL, attr,
					  "step %u has no end: set its (or the job's) runtime_ms or number_ios",
					  st->nr);
	}
	/* verify_only issues nothing: it reads back a saved state */
	if (ssdload_cfg_writes(c) && !c->allow_write && !c->verify_only) {
		if (st)
			snprintf(attr, sizeof(attr), "steps/%u/rw", st->nr);
		return ssdload_job_refuse(job, -EPERM, "allow_write",
					  "%s%s writes: writes need allow_write=1",
					  st ? attr : "rw=",
					  st ? "" : ssdload_enum_name(ssdload_rw_names, c->rw));
	}
	ph->rw = c->rw;
	ph->rwmixread = c->rwmixread;
	ph->iodepth = c->iodepth;
	/* the job's numjobs is its workers; a step's, those of them issuing */
	if (st && (st->set & BIT(SSDLOAD_STEP_NUMJOBS)))
		ph->numjobs = st->v.numjobs;
	ph->runtime_ms = c->runtime_ms;
	ph->ramp_ms = c->ramp_ms;
	ph->number_ios = c->number_ios;
	memcpy(ph->rate_iops, c->rate_iops, sizeof(ph->rate_iops));
	memcpy(ph->rate, c->rate, sizeof(ph->rate));
	ssdload_plan_bsd(c, ph->bsd, &ph->bs_min, &ph->bs_max);
	ph->uniform_bs = ph->bs_min == ph->bs_max;
	/* the step's own alignment (0: its smallest block); else the job's */
	if (st && (st->set & BIT(SSDLOAD_STEP_BLOCKALIGN))) {
		ph->own_ba = true;
		ph->ba = st->v.blockalign ? st->v.blockalign : ph->bs_min;
	}
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		if (ssdload_cfg_uses_dir(c, d))
			ph->dirs |= BIT(d);
		if (ssdload_dir_rated(c, d))
			ph->rated_dirs |= BIT(d);
	}
	ph->rated = ph->rated_dirs;
	return 0;
}

/* How long @ph runs at most, in ms; 0 if only number_ios ends it. */
static u64 ssdload_phase_ms(const struct ssdload_phase *ph)
{
	if (ph->idle)
		return ph->idle_ms;
	return ph->runtime_ms ? ph->ramp_ms + ph->runtime_ms : 0;
}

/*
 * Start step: the phases of the run (its steps, or the job itself) and
 * what the run needs over all of them: the directions, the largest
 * iodepth, mixed buffers, writes, and its length (run_ms, 0 if some
 * phase is ended by a count).
 */
int ssdload_steps_compile(struct ssdload_job *job)
{
	const struct ssdload_step *st;
	struct ssdload_cfg *c;
	unsigned int n = max(job->nr_steps, 1U), p = 0;
	bool timed = true;
	u64 ms = 0;
	int ret;

	lockdep_assert_held(&job->lock);
	kvfree(job->phases);
	job->nr_phases = 0;
	job->phases = kvcalloc(n, sizeof(*job->phases), GFP_KERNEL);
	c = kmalloc(sizeof(*c), GFP_KERNEL);
	if (!job->phases || !c) {
		kfree(c);
		return ssdload_job_refuse(job, -ENOMEM, "steps",
					  "out of memory");
	}
	if (job->nr_steps && job->cfg.disable_lat) {
		ret = ssdload_job_refuse(job, -EINVAL, "disable_lat",
					 "steps need the completion times that disable_lat turns off");
		goto out_free;
	}
	if (!job->nr_steps) {
		ret = ssdload_phase_compile(job, NULL, &job->cfg,
					    &job->phases[0]);
		if (ret)
			goto out_free;
		p = 1;
	}
	list_for_each_entry(st, &job->steps, node) {
		*c = job->cfg;
		ssdload_step_apply(st, c);
		ret = ssdload_phase_compile(job, st, c, &job->phases[p]);
		if (ret)
			goto out_free;
		p++;
	}
	job->nr_phases = p;
	job->dirs = 0;
	job->rated_dirs = 0;
	job->depth = 1;
	job->mixed = false;
	job->random = false;
	for (p = 0; p < job->nr_phases; p++) {
		const struct ssdload_phase *ph = &job->phases[p];
		u64 t = ssdload_phase_ms(ph);

		if (!t || check_add_overflow(ms, t, &ms))
			timed = false;
		job->dirs |= ph->dirs;
		job->rated_dirs |= ph->rated_dirs;
		if (ph->idle)
			continue;
		job->depth = max(job->depth, ph->iodepth);
		job->mixed |= ssdload_rw_is_mixed(ph->rw);
		job->random |= ssdload_rw_is_random(ph->rw);
	}
	job->writes = job->dirs & (BIT(SSDLOAD_DIR_WRITE) |
				   BIT(SSDLOAD_DIR_TRIM));
	if (job->cfg.verify_only)
		job->writes = false;	/* the devices open read-only */
	/*
	 * Reads and writes in different steps need two buffers too: a read
	 * step must not overwrite the data (pattern, zeros, compressibility)
	 * that the write steps send.
	 */
	if ((job->dirs & BIT(SSDLOAD_DIR_READ)) &&
	    (job->dirs & BIT(SSDLOAD_DIR_WRITE)))
		job->mixed = true;
	if (!job->dirs) {
		ret = ssdload_job_refuse(job, -EINVAL, "steps",
					 "every step is idle: the run would issue no I/O");
		goto out_free;
	}
	if (!timed || check_mul_overflow(ms, job->cfg.loops, &ms) ||
	    ms > SSDLOAD_MAX_MS)
		ms = 0;
	job->run_ms = ms;
	job->run_loops = job->cfg.loops;
	if (!job->cfg.time_based && job->nr_steps) {
		ret = ssdload_job_refuse(job, -EINVAL, "time_based",
					 "time_based=0 ends a timed run after one pass: not with steps");
		goto out_free;
	}
	kfree(c);
	return 0;

out_free:
	kfree(c);
	kvfree(job->phases);
	job->phases = NULL;
	job->nr_phases = 0;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_steps_compile);

/*
 * Start step: numjobs, rate_iops and rate of each phase.  A step's
 * numjobs is at most the run's @nr workers.  One rate per direction; at
 * least one direction the phase issues must be capped (a cap on a
 * direction it never issues would do nothing, silently); every schedule
 * must be computable for the phase's workers.
 */
int ssdload_steps_plan_rate(struct ssdload_job *job, unsigned int nr)
{
	char attr[24], name[40];
	unsigned int p, active;
	int d;

	job->rated = false;
	for (p = 0; p < job->nr_phases; p++) {
		const struct ssdload_phase *ph = &job->phases[p];
		const char *pfx = "";
		bool any = false;

		if (ph->step) {
			snprintf(attr, sizeof(attr), "steps/%u/", ph->step);
			pfx = attr;
		}
		if (ph->numjobs > nr) {
			snprintf(name, sizeof(name), "%snumjobs", pfx);
			return ssdload_job_refuse(job, -EINVAL, name,
						  "%snumjobs=%u is more than the job's %u workers (set the job's numjobs to the most a step uses)",
						  pfx, ph->numjobs, nr);
		}
		active = ssdload_phase_workers(ph, nr);
		/* per_clone: every worker has the whole rate */
		if (job->cfg.per_clone)
			active = 1;
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			bool bw = !ph->rate_iops[d];
			u64 r = bw ? ph->rate[d] : ph->rate_iops[d];

			any |= ph->rate_iops[d] || ph->rate[d];
			if (!(ph->rated_dirs & BIT(d)))
				continue;
			if (ph->rate_iops[d] && ph->rate[d]) {
				snprintf(name, sizeof(name), "%srate_iops", pfx);
				return ssdload_job_refuse(job, -EINVAL, name,
							  "%srate_iops and rate both cap %s: set one of them",
							  pfx, ssdload_dir_names[d]);
			}
			if (!ssdload_sched_fits(r, bw, active, ph->bs_max)) {
				snprintf(name, sizeof(name), "%s%s", pfx,
					 bw ? "rate" : "rate_iops");
				return ssdload_job_refuse(job, -ERANGE, name,
							  "%s%llu %s per second shared by %u workers is too slow to schedule",
							  pfx, r, bw ? "bytes" : "I/Os",
							  active);
			}
			job->rated = true;
		}
		snprintf(name, sizeof(name), "%s%s", pfx,
			 ph->rate_iops[0] || ph->rate_iops[1] ||
			 ph->rate_iops[2] ? "rate_iops" : "rate");
		if (any && !ph->rated && !ph->idle)
			return ssdload_job_refuse(job, -EINVAL, name,
						  "%sthe rate caps no direction that rw=%s paces%s",
						  pfx,
						  ssdload_enum_name(ssdload_rw_names,
								    ph->rw),
						  ssdload_rw_is_trimwrite(ph->rw) ?
						  SSDLOAD_TRIMWRITE_PACE : "");
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_steps_plan_rate);

/* ---- the run's block sizes, series and write data ----------------------- */

/*
 * Start step: each phase's offset alignment, its step's blockalign or
 * else the job's @jba, and the job's unit, which divides them all.
 */
static int ssdload_plan_ba(struct ssdload_job *job, u32 jba)
{
	unsigned long ba = 0;
	unsigned int p;
	char attr[40];

	for (p = 0; p < job->nr_phases; p++) {
		struct ssdload_phase *ph = &job->phases[p];

		if (ph->idle)
			continue;
		if (!ph->own_ba)
			ph->ba = jba;
		if (ph->own_ba && ph->ba > ph->bs_max) {
			snprintf(attr, sizeof(attr), "steps/%u/blockalign",
				 ph->step);
			return ssdload_job_refuse(job, -EINVAL, attr,
						  "blockalign %u is larger than the step's largest block %u",
						  ph->ba, ph->bs_max);
		}
		ba = ba ? gcd(ba, ph->ba) : ph->ba;
	}
	job->ba = ba ? ba : jba;
	return 0;
}

/*
 * Start step: the smallest and largest block of the run (over its
 * phases), and the offset alignment (blockalign, by default the smallest
 * block; a step may have its own, see ssdload_plan_ba()).
 */
static int ssdload_plan_bs(struct ssdload_job *job)
{
	u32 lo = U32_MAX, hi = 0, jba;
	bool uniform = true;
	unsigned int p;
	int ret;

	for (p = 0; p < job->nr_phases; p++) {
		const struct ssdload_phase *ph = &job->phases[p];

		if (ph->idle)
			continue;
		if (!ph->uniform_bs || (hi && ph->bs_max != hi))
			uniform = false;
		lo = min(lo, ph->bs_min);
		hi = max(hi, ph->bs_max);
	}
	job->bs_min = lo;
	job->bs_max = hi;
	job->uniform_bs = uniform && lo == hi;
	jba = job->cfg.blockalign ? job->cfg.blockalign : lo;
	if (jba > hi)
		return ssdload_job_refuse(job, -EINVAL, "blockalign",
					  "blockalign %u is larger than the largest block %u",
					  jba, hi);
	ret = ssdload_plan_ba(job, jba);
	if (ret)
		return ret;
	job->fixed_len = job->uniform_bs && job->ba == hi;
	return 0;
}

/*
 * Start step: the time series.  Its records are preallocated for the
 * run's length, so it needs one (runtime_ms).
 */
static int ssdload_plan_series(struct ssdload_job *job)
{
	const struct ssdload_cfg *cfg = &job->cfg;

	if (cfg->log_interval_ms && !job->run_ms)
		return ssdload_job_refuse(job, -EINVAL, "log_interval_ms",
					  "a time series needs runtime_ms%s (its records are allocated for the run's length)",
					  job->nr_steps ?
					  " (or idle_ms) in every step" : "");
	if (cfg->log_hist && !cfg->log_interval_ms)
		return ssdload_job_refuse(job, -EINVAL, "log_hist",
					  "log_hist needs log_interval_ms");
	if (cfg->log_hist && cfg->disable_lat)
		return ssdload_job_refuse(job, -EINVAL, "log_hist",
					  "disable_lat keeps no histograms");
	ssdload_series_plan(job, job->dirs);
	if (job->ser_max > U32_MAX)
		return ssdload_job_refuse(job, -ENOMEM, "log_interval_ms",
					  "%llu records per worker: more than %u",
					  job->ser_max, U32_MAX);
	return 0;
}

/* Start step: what the write buffers hold (data.c). */
static void ssdload_plan_data(struct ssdload_job *job)
{
	struct ssdload_cfg *cfg = &job->cfg;
	struct ssdload_datacfg *dc = &job->dcfg;
	unsigned int p;

	memset(dc, 0, sizeof(*dc));
	dc->compress_pct = cfg->buffer_compress_percentage;
	dc->compress_chunk = cfg->buffer_compress_chunk;
	dc->dedupe_pct = cfg->dedupe_percentage;
	dc->refill = cfg->refill_buffers;
	dc->zero = cfg->zero_buffers;
	dc->scramble = cfg->scramble_buffers;
	dc->pattern_len = cfg->pattern_len;
	memcpy(dc->pattern, cfg->pattern, cfg->pattern_len);
	dc->seed = cfg->randseed;
	for (p = 0; p < job->nr_phases; p++) {
		const struct ssdload_phase *ph = &job->phases[p];
		u32 min = ph->bsd[SSDLOAD_DIR_WRITE].min;

		if (!(ph->dirs & BIT(SSDLOAD_DIR_WRITE)))
			continue;
		if (!dc->write_bs_min || min < dc->write_bs_min)
			dc->write_bs_min = min;
	}
}

/*
 * Start step, before any device is opened: the block sizes of the run,
 * the rates of its @nr workers, its time series and its write data.
 */
int ssdload_plan_run(struct ssdload_job *job, unsigned int nr)
{
	int ret;

	/* fio: thinktime_blocks unset counts only thinktime_iotime */
	if (job->cfg.thinktime_us && !job->cfg.thinktime_blocks &&
	    !job->cfg.thinktime_iotime_us)
		return ssdload_job_refuse(job, -EINVAL, "thinktime_blocks",
					  "thinktime_blocks=0 pauses by time only: set thinktime_iotime_us");
	ret = ssdload_plan_bs(job);
	if (ret)
		return ret;
	job->plan_nr = nr;
	ret = ssdload_plan_walk(job);
	if (ret)
		return ret;
	ret = ssdload_steps_plan_rate(job, nr);
	if (ret)
		return ret;
	ret = ssdload_plan_series(job);
	if (ret)
		return ret;
	ssdload_plan_data(job);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_plan_run);

/* ---- the span of each device --------------------------------------------- */

/* @ppm of @bytes, rounded down to a multiple of @align. */
static u64 ssdload_ppm_of(u64 bytes, u64 ppm, u32 align)
{
	u64 v = mul_u64_u64_div_u64(bytes, ppm, SSDLOAD_PPM);

	return v - v % align;
}

/*
 * The offset alignment of every phase is a multiple of @dev's @lbs (so
 * is the job's unit, their greatest common divisor).
 */
static int ssdload_plan_lbs_ba(struct ssdload_job *job,
			       struct ssdload_dev *dev, u32 lbs)
{
	unsigned int p;
	char attr[40];

	for (p = 0; p < job->nr_phases; p++) {
		const struct ssdload_phase *ph = &job->phases[p];

		if (ph->idle || !(ph->ba % lbs))
			continue;
		/* the step's own attribute, else the job's */
		if (ph->own_ba)
			snprintf(attr, sizeof(attr), "steps/%u/blockalign",
				 ph->step);
		else
			strscpy(attr, "blockalign", sizeof(attr));
		return ssdload_job_refuse(job, -EINVAL, attr,
					  "blockalign %u is not a multiple of the logical block size %u of %s",
					  ph->ba, lbs, dev->path);
	}
	return 0;
}

/* Every block size of every phase is a multiple of @dev's @lbs. */
static int ssdload_plan_lbs(struct ssdload_job *job, struct ssdload_dev *dev,
			    u32 lbs)
{
	unsigned int p;
	char attr[40];
	u32 i;
	int d;

	for (p = 0; p < job->nr_phases; p++) {
		const struct ssdload_phase *ph = &job->phases[p];
		const char *pfx = ph->step ? "steps/" : "";

		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			const struct ssdload_bsdist *b = &ph->bsd[d];

			if (!(ph->dirs & BIT(d)))
				continue;
			/* the step's own attribute, else the job's */
			if (ph->step)
				snprintf(attr, sizeof(attr), "%s%u/%s", pfx,
					 ph->step, b->nr ? "bssplit" : "bs");
			else
				snprintf(attr, sizeof(attr), "%s", b->nr ?
					 "bssplit" : job->cfg.bsrange ?
					 "bsrange" : "bs");
			for (i = 0; i < b->nr; i++)
				if (b->bs[i] % lbs)
					return ssdload_job_refuse(job, -EINVAL, attr,
								  "block size %u is not a multiple of the logical block size %u of %s",
								  b->bs[i], lbs, dev->path);
			if (b->min % lbs || b->max % lbs ||
			    (b->range && b->step % lbs))
				return ssdload_job_refuse(job, -EINVAL, attr,
							  "bs %u is not a multiple of the logical block size %u of %s",
							  b->min % lbs ? b->min : b->max,
							  lbs, dev->path);
		}
	}
	return 0;
}

/*
 * Start step: the span of device @dev, just opened: offset and size in bytes or as a
 * percentage of the device (fio: an absolute size is split evenly among
 * the devices; a percentage applies to each, clamped to its end).
 */
int ssdload_plan_span(struct ssdload_job *job, struct ssdload_dev *dev)
{
	struct block_device *bdev = dev->bdev.bdev;
	struct ssdload_cfg *cfg = &job->cfg;
	u32 lbs = bdev_logical_block_size(bdev);
	u64 devsize = bdev_nr_bytes(bdev);
	u64 offset = cfg->offset, size = cfg->size;
	bool to_end = !cfg->size_pct && !cfg->size;
	int ret;

	ret = ssdload_plan_lbs(job, dev, lbs);
	if (ret)
		return ret;
	ret = ssdload_plan_lbs_ba(job, dev, lbs);
	if (ret)
		return ret;
	if (cfg->offset_pct)
		offset = ssdload_ppm_of(devsize, cfg->offset_ppm, job->ba);
	if (cfg->size_pct)
		size = ssdload_ppm_of(devsize, cfg->size_ppm, job->ba);
	else if (size && job->nr_devs > 1)
		size = div_u64(size, job->nr_devs) / lbs * lbs;
	if (offset % lbs)
		return ssdload_job_refuse(job, -EINVAL, "offset",
					  "offset %llu is not a multiple of the logical block size %u of %s",
					  offset, lbs, dev->path);
	if (size % lbs)
		return ssdload_job_refuse(job, -EINVAL, "size",
					  "size %llu is not a multiple of the logical block size %u of %s",
					  size, lbs, dev->path);
	if (offset >= devsize)
		return ssdload_job_refuse(job, -EINVAL, "offset",
					  "offset %llu is beyond the end of %s (%llu bytes)",
					  offset, dev->path, devsize);
	if (!to_end && !size)
		return ssdload_job_refuse(job, -EINVAL, "size",
					  "size %s of %s rounds down to 0 bytes",
					  cfg->size_pct ? "percentage" : "share",
					  dev->path);
	if (to_end || (cfg->size_pct && size > devsize - offset))
		size = devsize - offset;
	if (size > devsize - offset)
		return ssdload_job_refuse(job, -EINVAL, "size",
					  "offset+size %llu+%llu is beyond the end of %s (%llu bytes)",
					  offset, size, dev->path, devsize);
	if (size < job->bs_max)
		return ssdload_job_refuse(job, -EINVAL, "size",
					  "span of %llu bytes of %s is smaller than bs %u",
					  size, dev->path, job->bs_max);
	if (cfg->rw_gap % lbs)
		return ssdload_job_refuse(job, -EINVAL, "rw_gap",
					  "rw_gap %lld is not a multiple of the logical block size %u of %s",
					  cfg->rw_gap, lbs, dev->path);
	ret = ssdload_plan_clones(job, dev, offset, &size, to_end, devsize);
	if (ret)
		return ret;
	dev->span_start = offset;
	dev->nr_aligned = div_u64(size, job->ba);
	dev->span_bytes = dev->nr_aligned * job->ba;
	if (dev->span_bytes < job->bs_max)
		return ssdload_job_refuse(job, -EINVAL, "size",
					  "span of %llu bytes of %s, in blockalign %u units, is smaller than bs %u",
					  dev->span_bytes, dev->path, job->ba,
					  job->bs_max);
	dev->nr_units = div_u64(dev->span_bytes - job->bs_max, job->ba) + 1;
	return 0;
}

/*
 * Cut one buffer of @bs bytes as ssdload_chunks_alloc() does.  Returns the
 * number of chunks; adds the bytes of their pages to *@mem and, for a
 * queue whose segments hold at most @seg bytes, the segments they make to
 * *@segs (each chunk is physically contiguous and naturally aligned).
 * @mem and @segs may be NULL.
 */
unsigned int ssdload_buf_cut(u32 bs, u64 seg, u64 *mem, u64 *segs)
{
	unsigned int n = 0;

	while (bs) {
		unsigned int order = ssdload_chunk_order(bs);
		u32 len = min_t(u32, bs, PAGE_SIZE << order);

		if (mem)
			*mem += PAGE_SIZE << order;
		if (segs)
			*segs += DIV_ROUND_UP_ULL(len, seg);
		bs -= len;
		n++;
	}
	return n;
}

/*
 * What one worker of a job with @cfg allocates, in bytes: the worker, its
 * histograms, the I/O arrays, and per I/O its struct (bio and bvec table,
 * as kmalloc rounds it) and its buffers in whole pages.  The memory cap
 * (max_job_mem_mb) is checked against this before anything is allocated.
 */
u64 ssdload_worker_mem_of(unsigned int depth, bool mixed, unsigned int rated,
			  u32 bs_max, bool fixed_len, unsigned int nr_devs)
{
	bool sep = ssdload_io_sep_table(mixed, fixed_len);
	u64 buf = 0, io, mem;
	unsigned int n = ssdload_buf_cut(bs_max, U64_MAX, &buf, NULL);

	io = kmalloc_size_roundup(sizeof(struct ssdload_io) +
				  (mixed ? 3 : sep ? 2 : 1) * n *
				  sizeof(struct bio_vec));
	io += buf * (mixed ? 2 : 1);
	mem = kmalloc_size_roundup(sizeof(struct ssdload_worker));
	mem += kmalloc_size_roundup(nr_devs * sizeof(struct ssdload_wdev));
	mem += SSDLOAD_DIR_NR * SSDLOAD_HIST_BUCKETS * sizeof(u64);
	if (rated)	/* the schedules, the histograms from intended times */
		mem += kmalloc_size_roundup(SSDLOAD_DIR_NR *
					    sizeof(struct ssdload_sched)) +
		       rated * ssdload_kv_bytes(SSDLOAD_HIST_BUCKETS *
						sizeof(u64));
	mem += 2 * (u64)depth * sizeof(void *);
	return mem + depth * io;
}

/* What one worker of a job with @cfg and no steps allocates. */
u64 ssdload_worker_mem(const struct ssdload_cfg *cfg, u32 bs_max,
		       bool fixed_len, unsigned int nr_devs)
{
	unsigned int rated = 0;
	int d;

	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		rated += ssdload_dir_rated(cfg, d);
	return ssdload_worker_mem_of(cfg->iodepth,
				     ssdload_rw_is_mixed(cfg->rw), rated,
				     bs_max, fixed_len, nr_devs);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_worker_mem);
