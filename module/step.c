// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: steps, the phases of one run.
 *
 *   jobs/NAME/steps/N/	one step per directory, N = 1..SSDLOAD_MAX_STEPS,
 *			run in increasing N, the whole list `loops` times
 *
 * A step overrides some of the job's parameters for one phase of the
 * run: rw, rwmixread, bs, bssplit, iodepth, rate_iops, rate, runtime_ms,
 * ramp_ms, number_ios, numjobs; or it is idle_ms=N (no I/O for N ms).  A
 * step's numjobs=K lets workers 0..K-1 issue; the others sit the step out
 * (as an idle step, for its ramp and runtime, or at once when only
 * number_ios ends it: its I/Os and rates are shared by the K).  An
 * attribute that was never written (or was written an empty line)
 * inherits the job's value.  Like the job's own attributes, every store,
 * mkdir and rmdir... of a step is refused with -EBUSY while the job is
 * armed, running or stopping (rmdir cannot be refused: the run works on
 * the copy it compiled at enable, so removing a step changes only the
 * next run).
 *
 * At enable the steps (or, without steps, the job itself) are compiled
 * into phases (struct ssdload_phase), each checked as a job is.  A worker
 * moves to the next phase when the current one ends (its deadline or its
 * share of number_ios), without draining: the I/Os still in flight
 * complete and count in the phase that issued them, and the next phase
 * submits at once as far as its iodepth allows.  So the only pause is the
 * drain of what the next phase cannot reuse (a lower iodepth), measured
 * per step as the gap.
 */
#include <linux/kernel.h>
#include <linux/slab.h>

#include "ssdload.h"

/* Which overrides a step sets (struct ssdload_step.set). */
enum ssdload_step_field {
	SSDLOAD_STEP_RW = 0,
	SSDLOAD_STEP_RWMIXREAD,
	SSDLOAD_STEP_BS,
	SSDLOAD_STEP_BSSPLIT,
	SSDLOAD_STEP_IODEPTH,
	SSDLOAD_STEP_RATE_IOPS,
	SSDLOAD_STEP_RATE,
	SSDLOAD_STEP_RUNTIME_MS,
	SSDLOAD_STEP_RAMP_MS,
	SSDLOAD_STEP_NUMBER_IOS,
	SSDLOAD_STEP_IDLE_MS,
	SSDLOAD_STEP_NUMJOBS,
};

/* One steps/N directory. */
struct ssdload_step {
	struct config_item item;	/* steps/N */
	struct ssdload_job *job;	/* its job (the parent of steps/) */
	struct list_head node;		/* on job->steps, under job->lock */
	u32 nr;				/* N */
	u32 set;			/* BIT(enum ssdload_step_field) */
	struct {			/* the values set */
		u64 rw;
		u64 rwmixread;
		u64 bs;
		struct ssdload_bsspec *bssplit;
		u64 iodepth;
		u64 rate_iops[SSDLOAD_DIR_NR];
		u64 rate[SSDLOAD_DIR_NR];
		u64 runtime_ms;
		u64 ramp_ms;
		u64 number_ios;
		u64 idle_ms;
		u64 numjobs;
	} v;
};

static inline struct ssdload_step *to_step(struct config_item *item)
{
	return container_of(item, struct ssdload_step, item);
}

/* Step N's name: a decimal 1..SSDLOAD_MAX_STEPS without leading zeros. */
static int ssdload_step_parse_name(const char *name, u32 *nr)
{
	u64 v;

	if (name[0] < '1' || name[0] > '9' ||
	    strspn(name, "0123456789") != strlen(name))
		return -EINVAL;
	if (ssdload_parse_u64(name, 1, SSDLOAD_MAX_STEPS, 0, &v))
		return -EINVAL;
	*nr = v;
	return 0;
}

/*
 * Common store check of a step attribute, with the job's lock held: the
 * same -EBUSY rule as the job's attributes, then the parse error.
 */
static int ssdload_step_store_check(struct ssdload_step *st, const char *attr,
				    const char *page, int parse_ret)
{
	struct ssdload_job *job = st->job;
	char val[40];

	lockdep_assert_held(&job->lock);
	if (ssdload_state_busy(job->state)) {
		ssdload_job_pr_err(job, "job %s: step %u: cannot set %s while the job is %s\n",
				   ssdload_job_name(job), st->nr, attr,
				   ssdload_enum_name(ssdload_state_names,
						     job->state));
		return -EBUSY;
	}
	if (!parse_ret)
		return 0;
	ssdload_safe_value(page, val, sizeof(val));
	ssdload_job_pr_err(job, "job %s: step %u: invalid %s '%s': %d\n",
			   ssdload_job_name(job), st->nr, attr, val, parse_ret);
	return parse_ret;
}

/*
 * A numeric override: empty = inherit, else MIN..MAX as the job's
 * attribute of the same name.
 */
#define SSDLOAD_STEP_NUM_ATTR(NAME, FIELD, MIN, MAX, ALIGN)		\
static ssize_t ssdload_step_##NAME##_show(struct config_item *item,	\
					  char *page)			\
{									\
	struct ssdload_step *st = to_step(item);			\
									\
	if (!(st->set & BIT(FIELD)))					\
		return sysfs_emit(page, "\n");				\
	return sysfs_emit(page, "%llu\n", st->v.NAME);			\
}									\
									\
static ssize_t ssdload_step_##NAME##_store(struct config_item *item,	\
					   const char *page, size_t count) \
{									\
	struct ssdload_step *st = to_step(item);			\
	bool blank = ssdload_blank(page);				\
	u64 val = 0;							\
	int ret = 0;							\
									\
	if (!blank)							\
		ret = ssdload_parse_u64(page, MIN, MAX, ALIGN, &val);	\
	mutex_lock(&st->job->lock);					\
	ret = ssdload_step_store_check(st, #NAME, page, ret);		\
	if (!ret && blank) {						\
		st->set &= ~BIT(FIELD);					\
	} else if (!ret) {						\
		st->v.NAME = val;						\
		st->set |= BIT(FIELD);					\
	}								\
	mutex_unlock(&st->job->lock);					\
	return ret ? ret : count;					\
}									\
CONFIGFS_ATTR(ssdload_step_, NAME)

SSDLOAD_STEP_NUM_ATTR(rwmixread, SSDLOAD_STEP_RWMIXREAD, 0, 100, 0);
SSDLOAD_STEP_NUM_ATTR(bs, SSDLOAD_STEP_BS, SSDLOAD_MIN_BS, SSDLOAD_MAX_BS,
		      SSDLOAD_MIN_BS);
SSDLOAD_STEP_NUM_ATTR(iodepth, SSDLOAD_STEP_IODEPTH, 1, SSDLOAD_MAX_IODEPTH, 0);
SSDLOAD_STEP_NUM_ATTR(runtime_ms, SSDLOAD_STEP_RUNTIME_MS, 0,
		      SSDLOAD_MAX_MS, 0);
SSDLOAD_STEP_NUM_ATTR(ramp_ms, SSDLOAD_STEP_RAMP_MS, 0,
		      SSDLOAD_MAX_MS, 0);
SSDLOAD_STEP_NUM_ATTR(number_ios, SSDLOAD_STEP_NUMBER_IOS, 0, U64_MAX, 0);
SSDLOAD_STEP_NUM_ATTR(idle_ms, SSDLOAD_STEP_IDLE_MS, 1,
		      SSDLOAD_MAX_MS, 0);
SSDLOAD_STEP_NUM_ATTR(numjobs, SSDLOAD_STEP_NUMJOBS, 1, SSDLOAD_MAX_NUMJOBS, 0);

/* rw: an enum, as the job's. */
static ssize_t ssdload_step_rw_show(struct config_item *item, char *page)
{
	struct ssdload_step *st = to_step(item);

	if (!(st->set & BIT(SSDLOAD_STEP_RW)))
		return sysfs_emit(page, "\n");
	return sysfs_emit(page, "%s\n",
			  ssdload_enum_name(ssdload_rw_names, st->v.rw));
}

static ssize_t ssdload_step_rw_store(struct config_item *item,
				     const char *page, size_t count)
{
	struct ssdload_step *st = to_step(item);
	bool blank = ssdload_blank(page);
	u32 val = 0;
	int ret = 0;

	if (!blank)
		ret = ssdload_parse_enum(page, ssdload_rw_names, &val);
	mutex_lock(&st->job->lock);
	ret = ssdload_step_store_check(st, "rw", page, ret);
	if (!ret && blank) {
		st->set &= ~BIT(SSDLOAD_STEP_RW);
	} else if (!ret) {
		st->v.rw = val;
		st->set |= BIT(SSDLOAD_STEP_RW);
	}
	mutex_unlock(&st->job->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR(ssdload_step_, rw);

/* bssplit: fio's syntax, as the job's. */
static ssize_t ssdload_step_bssplit_show(struct config_item *item,
					 char *page)
{
	struct ssdload_step *st = to_step(item);
	ssize_t len;

	mutex_lock(&st->job->lock);
	if (!(st->set & BIT(SSDLOAD_STEP_BSSPLIT)))
		len = sysfs_emit(page, "\n");
	else
		len = ssdload_bsspec_show(st->v.bssplit, false, page);
	mutex_unlock(&st->job->lock);
	return len;
}

static ssize_t ssdload_step_bssplit_store(struct config_item *item,
					  const char *page, size_t count)
{
	struct ssdload_step *st = to_step(item);
	bool blank = ssdload_blank(page);
	struct ssdload_bsspec *spec = NULL;
	int ret = 0;

	if (!blank) {
		spec = kzalloc(sizeof(*spec), GFP_KERNEL);
		if (!spec)
			return -ENOMEM;
		ret = ssdload_parse_bssplit(page, spec);
	}
	mutex_lock(&st->job->lock);
	ret = ssdload_step_store_check(st, "bssplit", page, ret);
	if (!ret) {
		swap(st->v.bssplit, spec);
		if (blank)
			st->set &= ~BIT(SSDLOAD_STEP_BSSPLIT);
		else
			st->set |= BIT(SSDLOAD_STEP_BSSPLIT);
	}
	mutex_unlock(&st->job->lock);
	kfree(spec);
	return ret ? ret : count;
}
CONFIGFS_ATTR(ssdload_step_, bssplit);

/*
 * rate_iops and rate: fio's per-direction lists, as the job's; "0" makes
 * the step uncapped where the job is capped.
 */
#define SSDLOAD_STEP_RATE_ATTR(NAME, FIELD, MAX)			\
static ssize_t ssdload_step_##NAME##_show(struct config_item *item,	\
					  char *page)			\
{									\
	struct ssdload_step *st = to_step(item);			\
									\
	if (!(st->set & BIT(FIELD)))					\
		return sysfs_emit(page, "\n");				\
	if (!memchr_inv(st->v.NAME, 0, sizeof(st->v.NAME)))		\
		return sysfs_emit(page, "0\n");	/* uncapped */	\
	return ssdload_rate_show(st->v.NAME, page);			\
}									\
									\
static ssize_t ssdload_step_##NAME##_store(struct config_item *item,	\
					   const char *page, size_t count) \
{									\
	struct ssdload_step *st = to_step(item);			\
	bool blank = ssdload_blank(page);				\
	u64 v[SSDLOAD_DIR_NR] = {};					\
	int ret = 0;							\
									\
	if (!blank && !sysfs_streq(page, "0"))				\
		ret = ssdload_parse_rate(page, MAX, v);			\
	mutex_lock(&st->job->lock);					\
	ret = ssdload_step_store_check(st, #NAME, page, ret);		\
	if (!ret && blank) {						\
		st->set &= ~BIT(FIELD);					\
	} else if (!ret) {						\
		memcpy(st->v.NAME, v, sizeof(v));				\
		st->set |= BIT(FIELD);					\
	}								\
	mutex_unlock(&st->job->lock);					\
	return ret ? ret : count;					\
}									\
CONFIGFS_ATTR(ssdload_step_, NAME)

SSDLOAD_STEP_RATE_ATTR(rate_iops, SSDLOAD_STEP_RATE_IOPS,
		       SSDLOAD_MAX_RATE_IOPS);
SSDLOAD_STEP_RATE_ATTR(rate, SSDLOAD_STEP_RATE, SSDLOAD_MAX_RATE_BPS);

static struct configfs_attribute *ssdload_step_attrs[] = {
	&ssdload_step_attr_rw,
	&ssdload_step_attr_rwmixread,
	&ssdload_step_attr_bs,
	&ssdload_step_attr_bssplit,
	&ssdload_step_attr_iodepth,
	&ssdload_step_attr_rate_iops,
	&ssdload_step_attr_rate,
	&ssdload_step_attr_runtime_ms,
	&ssdload_step_attr_ramp_ms,
	&ssdload_step_attr_number_ios,
	&ssdload_step_attr_idle_ms,
	&ssdload_step_attr_numjobs,
	NULL,
};

static void ssdload_step_release(struct config_item *item)
{
	struct ssdload_step *st = to_step(item);

	kfree(st->v.bssplit);
	kfree(st);
}

static struct configfs_item_operations ssdload_step_item_ops = {
	.release	= ssdload_step_release,
};

static const struct config_item_type ssdload_step_type = {
	.ct_item_ops	= &ssdload_step_item_ops,
	.ct_attrs	= ssdload_step_attrs,
	.ct_owner	= THIS_MODULE,
};

static inline struct ssdload_job *steps_to_job(struct config_group *group)
{
	return container_of(group, struct ssdload_job, steps_group);
}

/* steps/: mkdir N adds step N (not while a run is set up). */
static struct config_item *ssdload_steps_make_item(struct config_group *group,
						   const char *name)
{
	struct ssdload_job *job = steps_to_job(group);
	struct ssdload_step *st, *pos;
	u32 nr;

	if (ssdload_step_parse_name(name, &nr)) {
		ssdload_job_pr_err(job, "job %s: steps/%s: a step is named 1 to %u\n",
				   ssdload_job_name(job), name,
				   SSDLOAD_MAX_STEPS);
		return ERR_PTR(-EINVAL);
	}
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return ERR_PTR(-ENOMEM);
	st->job = job;
	st->nr = nr;
	mutex_lock(&job->lock);
	if (ssdload_state_busy(job->state)) {
		mutex_unlock(&job->lock);
		kfree(st);
		ssdload_job_pr_err(job, "job %s: cannot add steps/%s while the job is %s\n",
				   ssdload_job_name(job), name,
				   ssdload_enum_name(ssdload_state_names,
						     job->state));
		return ERR_PTR(-EBUSY);
	}
	/* in increasing N (configfs refuses a name that exists) */
	list_for_each_entry(pos, &job->steps, node)
		if (pos->nr > nr)
			break;
	list_add_tail(&st->node, &pos->node);
	job->nr_steps++;
	mutex_unlock(&job->lock);
	config_item_init_type_name(&st->item, name, &ssdload_step_type);
	return &st->item;
}

static void ssdload_steps_drop_item(struct config_group *group,
				    struct config_item *item)
{
	struct ssdload_step *st = to_step(item);
	struct ssdload_job *job = st->job;

	mutex_lock(&job->lock);
	list_del(&st->node);
	job->nr_steps--;
	mutex_unlock(&job->lock);
	config_item_put(item);
}

static struct configfs_group_operations ssdload_steps_group_ops = {
	.make_item	= ssdload_steps_make_item,
	.drop_item	= ssdload_steps_drop_item,
};

const struct config_item_type ssdload_steps_type = {
	.ct_group_ops	= &ssdload_steps_group_ops,
	.ct_owner	= THIS_MODULE,
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_steps_type);

/* ---- compiling the phases at enable ------------------------------------ */

#define SSDLOAD_TRIMWRITE_PACE \
	" (its trims, the third value: each write follows its trim)"

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
	if (ssdload_cfg_writes(c) && !c->allow_write) {
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

/* ---- per-step statistics of a worker ------------------------------------ */

/* What the per-step statistics of one worker take. */
u64 ssdload_steps_mem(const struct ssdload_job *job)
{
	u64 hist = ssdload_kv_bytes(SSDLOAD_HIST_BUCKETS * sizeof(u64));
	u64 mem;
	unsigned int p;

	if (!job->nr_steps)
		return 0;
	mem = ssdload_kv_bytes(job->nr_phases * sizeof(struct ssdload_pstat));
	for (p = 0; p < job->nr_phases; p++)
		mem += hist * (hweight8(job->phases[p].dirs) +
			       hweight8(job->phases[p].rated_dirs));
	return mem;
}

int ssdload_steps_alloc(struct ssdload_worker *w, int node)
{
	const struct ssdload_job *job = w->job;
	unsigned int p;
	int d, ret;

	if (!job->nr_steps)
		return 0;
	w->pst = kvzalloc_node(array_size(job->nr_phases, sizeof(*w->pst)),
			       GFP_KERNEL | __GFP_RETRY_MAYFAIL, node);
	if (!w->pst)
		return -ENOMEM;
	for (p = 0; p < job->nr_phases; p++) {
		const struct ssdload_phase *ph = &job->phases[p];
		struct ssdload_pstat *ps = &w->pst[p];

		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			ps->st[d].lat_min = U64_MAX;
			ps->ist[d].lat_min = U64_MAX;
			if (ph->dirs & BIT(d)) {
				ret = ssdload_dstat_init(&ps->st[d], node);
				if (ret)
					return ret;
			}
			if (ph->rated_dirs & BIT(d)) {
				ret = ssdload_dstat_init(&ps->ist[d], node);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

void ssdload_steps_free(struct ssdload_worker *w)
{
	unsigned int p;
	int d;

	if (!w->pst)
		return;
	for (p = 0; p < w->job->nr_phases; p++) {
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			ssdload_dstat_free(&w->pst[p].st[d]);
			ssdload_dstat_free(&w->pst[p].ist[d]);
		}
	}
	kvfree(w->pst);
	w->pst = NULL;
}

/*
 * The histograms of phase @ph in the steps file (debugfs.c): one per
 * direction it issues, then one from the intended time per rated one.
 */
u32 ssdload_phase_nr_hists(const struct ssdload_phase *ph)
{
	return hweight8(ph->dirs) + hweight8(ph->rated_dirs);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_phase_nr_hists);

/*
 * Histogram @k (from 0) of phase @ph in the steps file: its direction, and
 * in @intended whether it is from the intended time.  The order is read,
 * write, trim, each rated direction's intended histogram right after its
 * own.  -ERANGE past the phase's last.
 */
int ssdload_phase_hist_at(const struct ssdload_phase *ph, u32 k,
			  bool *intended)
{
	int d;

	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		if (!(ph->dirs & BIT(d)))
			continue;
		*intended = false;
		if (!k--)
			return d;
		if (!(ph->rated_dirs & BIT(d)))
			continue;
		*intended = true;
		if (!k--)
			return d;
	}
	return -ERANGE;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_phase_hist_at);

/* Free the steps of a job being released (configfs drops them first). */
void ssdload_steps_release(struct ssdload_job *job)
{
	kvfree(job->phases);
	job->phases = NULL;
	job->nr_phases = 0;
}
