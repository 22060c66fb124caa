// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: steps, the phases of one run.
 *
 *   jobs/NAME/steps/N/	one step per directory, N = 1..SSDLOAD_MAX_STEPS,
 *			run in increasing N, the whole list `loops` times
 *
 * A step overrides some of the job's parameters for one phase of the
 * run: rw, rwmixread, bs, bssplit, iodepth, rate_iops, rate, runtime_ms,
 * ramp_ms, number_ios, numjobs, blockalign (its random offsets'
 * alignment: a multiple of the device's logical block, at most the
 * step's largest block, 0 = the step's smallest block); or it is idle_ms=N (no I/O for N ms).  A
 * step's numjobs=K lets workers 0..K-1 issue; the others sit the step out
 * (as an idle step, for its ramp and runtime, or at once when only
 * number_ios ends it: its I/Os and rates are shared by the K).  An
 * attribute that was never written (or was written an empty line)
 * inherits the job's value.  Like the job's own attributes (attr.c), every
 * store and mkdir of a step is refused with -EBUSY while the job is
 * armed, running or stopping.  rmdir cannot be refused, but the run works
 * on the copy it compiled at enable, so removing a step changes only the
 * next run.
 *
 * At enable plan.c compiles the steps (or, without steps, the job
 * itself) into phases (struct ssdload_phase), each checked as a job is.
 * A worker moves to the next phase when the current one ends (its
 * deadline or its share of number_ios), without draining: the I/Os still
 * in flight complete and count in the phase that issued them, and the
 * next phase submits at once as far as its iodepth allows.  So the only
 * pause is the drain of what the next phase cannot reuse (a lower
 * iodepth), measured per step as the gap.
 *
 * This file holds the configfs side of the steps and each worker's
 * per-step statistics; worker.c moves a worker between phases.
 */
#include <linux/kernel.h>
#include <linux/slab.h>

#include "attr.h"

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

/* The numeric overrides (attr.h): NAME, FIELD, MIN, MAX, ALIGN. */
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
SSDLOAD_STEP_NUM_ATTR(blockalign, SSDLOAD_STEP_BLOCKALIGN, 0, SSDLOAD_MAX_BS,
		      SSDLOAD_MIN_BS);

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
	static const struct ssdload_attr a = {
		.name = "rw", .field = SSDLOAD_STEP_RW,
		.size = sizeof_field(struct ssdload_step, v.rw),
		.parse = ssdload_attr_parse_enum, .names = ssdload_rw_names,
	};
	struct ssdload_step *st = to_step(item);

	return ssdload_store(st->job, st, &a, &st->v.rw, page, count);
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
	static const struct ssdload_attr a = {
		.name = "bssplit", .field = SSDLOAD_STEP_BSSPLIT,
		.owned = true, .size = sizeof(struct ssdload_bsspec),
		.parse = ssdload_attr_parse_bssplit,
	};
	struct ssdload_step *st = to_step(item);

	return ssdload_store(st->job, st, &a, &st->v.bssplit, page, count);
}
CONFIGFS_ATTR(ssdload_step_, bssplit);

/* rate_iops and rate (attr.h) */
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
	&ssdload_step_attr_blockalign,
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
