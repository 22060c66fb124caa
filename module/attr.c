// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: the store of configfs attributes (attr.h), for the job's
 * attributes and the steps'.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "attr.h"

/*
 * Log a refused value of attribute @attr of @job (of its step @st unless
 * NULL), naming the job, the step, the attribute and the value.  Returns
 * @ret.
 */
int ssdload_store_invalid(struct ssdload_job *job,
			  const struct ssdload_step *st, const char *attr,
			  const char *page, int ret)
{
	char val[40], step[24] = "";

	if (st)
		snprintf(step, sizeof(step), "step %u: ", st->nr);
	ssdload_safe_value(page, val, sizeof(val));
	ssdload_job_pr_err(job, "job %s: %sinvalid %s '%s': %d\n",
			   ssdload_job_name(job), step, attr, val, ret);
	return ret;
}

/*
 * The check of a store, with job->lock held: refuse while a run is set
 * up (-EBUSY), then log and return the error of parsing @page
 * (@parse_ret).  @st is the step whose attribute it is, NULL for the
 * job's.
 */
static int ssdload_store_check(struct ssdload_job *job,
			       const struct ssdload_step *st, const char *attr,
			       const char *page, int parse_ret)
{
	char step[24] = "";

	lockdep_assert_held(&job->lock);
	if (ssdload_state_busy(job->state)) {
		if (st)
			snprintf(step, sizeof(step), "step %u: ", st->nr);
		ssdload_job_pr_err(job, "job %s: %scannot set %s while the job is %s\n",
				   ssdload_job_name(job), step, attr,
				   ssdload_enum_name(ssdload_state_names,
						     job->state));
		return -EBUSY;
	}
	if (parse_ret)
		return ssdload_store_invalid(job, st, attr, page, parse_ret);
	return 0;
}

/*
 * The end of a store that passed ssdload_store_check(), job->lock held:
 * @val goes to @dst as @a says, and a step (@st) marks its override as
 * set.  Without @val (a blank line), the step clears the mark instead
 * and keeps @dst, but an owned object is replaced by NULL.
 */
static void ssdload_store_apply(struct ssdload_step *st,
				const struct ssdload_attr *a, void *dst,
				void **val)
{
	if (st && !*val)
		st->set &= ~BIT(a->field);
	else if (st)
		st->set |= BIT(a->field);
	if (a->owned)
		swap(*(void **)dst, *val);	/* the caller frees the old */
	else if (*val && a->apply)
		a->apply(dst, *val);
	else if (*val)
		memcpy(dst, *val, a->size);
}

/*
 * Store the line written to @page into @dst: attribute @a of @job, or of
 * its step @st.  A step's blank line clears its override instead (the
 * step inherits the job's value), and so does a job's for an owned
 * object (none).  Returns @count, or the errno, logged.
 */
ssize_t ssdload_store(struct ssdload_job *job, struct ssdload_step *st,
		      const struct ssdload_attr *a, void *dst,
		      const char *page, size_t count)
{
	bool none = (st || a->owned) && ssdload_blank(page);
	u64 small[8] = {};		/* a value up to a group name */
	void *val = NULL;
	int ret = 0;

	if (!none) {
		val = small;
		if (a->owned || a->size > sizeof(small))
			val = kzalloc(a->size, GFP_KERNEL);
		if (!val)
			return -ENOMEM;
		ret = a->parse(a, page, val);
	}
	mutex_lock(&job->lock);
	ret = ssdload_store_check(job, st, a->name, page, ret);
	if (!ret)
		ssdload_store_apply(st, a, dst, &val);
	mutex_unlock(&job->lock);
	if (val != small)
		kfree(val);
	return ret ? ret : count;
}

int ssdload_attr_parse_u64(const struct ssdload_attr *a, const char *page,
			   void *val)
{
	return ssdload_parse_u64(page, a->min, a->max, a->align, val);
}

int ssdload_attr_parse_rate(const struct ssdload_attr *a, const char *page,
			    void *val)
{
	return ssdload_parse_rate(page, a->max, val);
}

/* A step's rate: also "0", uncapped where the job is capped. */
int ssdload_attr_parse_step_rate(const struct ssdload_attr *a,
				 const char *page, void *val)
{
	if (sysfs_streq(page, "0"))
		return 0;
	return ssdload_parse_rate(page, a->max, val);
}

/* An enum: its name in a->names, kept in a u32 or a u64 (a->size). */
int ssdload_attr_parse_enum(const struct ssdload_attr *a, const char *page,
			    void *val)
{
	u32 v = 0;
	int ret;

	ret = ssdload_parse_enum(page, a->names, &v);
	if (a->size == sizeof(u64))
		*(u64 *)val = v;
	else
		*(u32 *)val = v;
	return ret;
}

int ssdload_attr_parse_bssplit(const struct ssdload_attr *a,
			       const char *page, void *val)
{
	return ssdload_parse_bssplit(page, val);
}
