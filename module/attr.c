// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: the store of configfs attributes (attr.h), for the job's
 * attributes and the steps'.
 */
#include <linux/kernel.h>
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
 * The common check of a store, with job->lock held: refuse while a run
 * is set up (-EBUSY), then log and return the error of parsing @page
 * (@parse_ret).  @st is the step whose attribute it is, NULL for the
 * job's.
 */
int ssdload_store_check(struct ssdload_job *job,
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
 * the @n values of @v go into @val, and a step (@st) marks its override
 * @field as set; with @inherit, the step clears the mark instead and
 * @val is kept.
 */
static void ssdload_store_assign(struct ssdload_step *st, u32 field,
				 bool inherit, u64 *val, const u64 *v,
				 unsigned int n)
{
	if (st && inherit)
		st->set &= ~BIT(field);
	else if (st)
		st->set |= BIT(field);
	if (!inherit)
		memcpy(val, v, n * sizeof(*v));
}

/*
 * Store the number in @page into *@val: a numeric attribute of @job, or
 * of its step @st.  A step's empty line clears its override instead (the
 * step inherits the job's value).
 */
ssize_t ssdload_num_store(struct ssdload_job *job, struct ssdload_step *st,
			  const struct ssdload_num *num, u64 *val,
			  const char *page, size_t count)
{
	bool inherit = st && ssdload_blank(page);
	u64 v = 0;
	int ret = 0;

	if (!inherit)
		ret = ssdload_parse_u64(page, num->min, num->max, num->align,
					&v);
	mutex_lock(&job->lock);
	ret = ssdload_store_check(job, st, num->name, page, ret);
	if (!ret)
		ssdload_store_assign(st, num->field, inherit, val, &v, 1);
	mutex_unlock(&job->lock);
	return ret ? ret : count;
}

/*
 * Store the per-direction rates in @page (up to num->max each) into
 * @val[SSDLOAD_DIR_NR]: rate_iops or rate of @job, or of its step @st.
 * A job's blank line removes every cap; a step's inherits the job's, and
 * its "0" makes the step uncapped where the job is capped.
 */
ssize_t ssdload_rate_store(struct ssdload_job *job, struct ssdload_step *st,
			   const struct ssdload_num *num, u64 *val,
			   const char *page, size_t count)
{
	bool inherit = st && ssdload_blank(page);
	u64 v[SSDLOAD_DIR_NR] = {};
	int ret = 0;

	if (!inherit && !(st && sysfs_streq(page, "0")))
		ret = ssdload_parse_rate(page, num->max, v);
	mutex_lock(&job->lock);
	ret = ssdload_store_check(job, st, num->name, page, ret);
	if (!ret)
		ssdload_store_assign(st, num->field, inherit, val, v,
				     SSDLOAD_DIR_NR);
	mutex_unlock(&job->lock);
	return ret ? ret : count;
}
