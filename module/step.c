// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: steps (issue 8, part 3) -- WORK IN PROGRESS, not built yet.
 *
 *   jobs/NAME/steps/N/	one step per directory, N = 1..SSDLOAD_MAX_STEPS,
 *			run in increasing N, the whole list `loops` times
 *
 * A step overrides some of the job's parameters for one phase of the run:
 * rw, rwmixread, bs, bssplit, iodepth, rate_iops, rate, runtime_ms,
 * ramp_ms, number_ios; or it is idle_ms=N (no I/O for N ms).  An
 * attribute that was never written (or was written an empty line)
 * inherits the job's value.  Like the job's own attributes, every store
 * is refused with -EBUSY while the job is armed, running or stopping, and
 * the run holds a configfs dependency on each step (no rmdir meanwhile).
 *
 * Plan (see the closing note of stop 15):
 *   - configfs.c: the job becomes a config_group with a default group
 *     "steps" (ssdload_steps_type below);
 *   - job.c: at enable, ssdload_steps_compile() turns the list into
 *     phases (struct ssdload_phase), each checked as a job is;
 *   - worker.c: the hot path reads the current phase (w->ph) instead of
 *     the job for bsd/uniform_bs/bs_max/rwmixread/ramp/deadline/quota/
 *     schedules; iodepth of a phase caps the outstanding I/Os;
 *   - hist.c: per-step statistics recorded by io->phase.
 */
#include <linux/kernel.h>
#include <linux/slab.h>

#include "ssdload.h"

#define SSDLOAD_MAX_STEPS	4096U

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
};

/* One steps/N directory. */
struct ssdload_step {
	struct config_item item;	/* steps/N */
	struct ssdload_job *job;	/* its job (the parent of steps/) */
	struct list_head node;		/* on job->steps, under job->lock */
	u32 nr;				/* N */
	u32 set;			/* BIT(enum ssdload_step_field) */
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
};

static inline struct ssdload_step *to_step(struct config_item *item)
{
	return container_of(item, struct ssdload_step, item);
}

/* Step N's name: a decimal 1..SSDLOAD_MAX_STEPS without leading zeros. */
static int ssdload_step_parse_name(const char *name, u32 *nr)
{
	u64 v;

	if (name[0] < '1' || name[0] > '9')
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
	if (ssdload_job_busy(job)) {
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

/* Is @page an empty line (the attribute goes back to inheriting)? */
static bool ssdload_step_blank(const char *page)
{
	return !page[0] || (page[0] == '\n' && !page[1]);
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
	return sysfs_emit(page, "%llu\n", st->NAME);			\
}									\
									\
static ssize_t ssdload_step_##NAME##_store(struct config_item *item,	\
					   const char *page, size_t count) \
{									\
	struct ssdload_step *st = to_step(item);			\
	bool blank = ssdload_step_blank(page);				\
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
		st->NAME = val;						\
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
SSDLOAD_STEP_NUM_ATTR(runtime_ms, SSDLOAD_STEP_RUNTIME_MS, 1,
		      U64_MAX / NSEC_PER_MSEC / 4, 0);
SSDLOAD_STEP_NUM_ATTR(ramp_ms, SSDLOAD_STEP_RAMP_MS, 0,
		      U64_MAX / NSEC_PER_MSEC / 4, 0);
SSDLOAD_STEP_NUM_ATTR(number_ios, SSDLOAD_STEP_NUMBER_IOS, 1, U64_MAX, 0);
SSDLOAD_STEP_NUM_ATTR(idle_ms, SSDLOAD_STEP_IDLE_MS, 1,
		      U64_MAX / NSEC_PER_MSEC / 4, 0);

/*
 * TODO (next session): rw (enum), bssplit (spec, as the job's
 * SSDLOAD_SPEC_ATTR), rate_iops and rate (lists, as SSDLOAD_RATE_ATTR);
 * the attribute table; steps/ group ops (make_item parses N, refuses
 * while busy; drop_item unlinks); release; ssdload_steps_compile().
 */
