/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload: the store of configfs attributes, shared by the job's
 * attributes (configfs.c) and the steps' (step.c).
 *
 * Every store parses the value before taking job->lock, then, with the
 * lock held, is refused with -EBUSY while a run is set up (armed,
 * running or stopping), or with the parse error, each logged naming the
 * job, the step and the attribute (ssdload_store_check()).  Numeric
 * attributes are one line each (null_blk style): SSDLOAD_NUM_ATTR and
 * SSDLOAD_RATE_ATTR for a job, SSDLOAD_STEP_NUM_ATTR and
 * SSDLOAD_STEP_RATE_ATTR for a step, stored by ssdload_num_store() and
 * ssdload_rate_store().
 */
#ifndef _SSDLOAD_ATTR_H
#define _SSDLOAD_ATTR_H

#include "ssdload.h"

/*
 * A numeric attribute: MIN..MAX, a multiple of ALIGN (0 = any); a rate
 * list: up to MAX in each direction.
 */
struct ssdload_num {
	const char *name;		/* the attribute, for the log */
	u64 min, max, align;
	u32 field;			/* a step's: enum ssdload_step_field */
};

int ssdload_store_invalid(struct ssdload_job *job,
			  const struct ssdload_step *st, const char *attr,
			  const char *page, int ret);
int ssdload_store_check(struct ssdload_job *job,
			const struct ssdload_step *st, const char *attr,
			const char *page, int parse_ret);
ssize_t ssdload_num_store(struct ssdload_job *job, struct ssdload_step *st,
			  const struct ssdload_num *num, u64 *val,
			  const char *page, size_t count);
ssize_t ssdload_rate_store(struct ssdload_job *job, struct ssdload_step *st,
			   const struct ssdload_num *num, u64 *val,
			   const char *page, size_t count);

static inline struct ssdload_step *to_step(struct config_item *item)
{
	return container_of(item, struct ssdload_step, item);
}

/* A job's numeric attribute: show, store and the configfs attribute. */
#define SSDLOAD_NUM_ATTR(NAME, MIN, MAX, ALIGN)				\
static ssize_t ssdload_job_##NAME##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return sysfs_emit(page, "%llu\n", to_job(item)->cfg.NAME);	\
}									\
									\
static ssize_t ssdload_job_##NAME##_store(struct config_item *item,	\
					  const char *page, size_t count) \
{									\
	static const struct ssdload_num num = {				\
		.name = #NAME, .min = MIN, .max = MAX, .align = ALIGN,	\
	};								\
	struct ssdload_job *job = to_job(item);				\
									\
	return ssdload_num_store(job, NULL, &num, &job->cfg.NAME,	\
				 page, count);				\
}									\
CONFIGFS_ATTR(ssdload_job_, NAME)

/*
 * A step's numeric override, bit FIELD of its set: empty = inherit, else
 * MIN..MAX as the job's attribute of the same name.
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
	static const struct ssdload_num num = {				\
		.name = #NAME, .min = MIN, .max = MAX, .align = ALIGN,	\
		.field = FIELD,						\
	};								\
	struct ssdload_step *st = to_step(item);			\
									\
	return ssdload_num_store(st->job, st, &num, &st->v.NAME,	\
				 page, count);				\
}									\
CONFIGFS_ATTR(ssdload_step_, NAME)

/*
 * rate_iops and rate of a job: fio's per-direction lists, job-wide (the
 * workers share them).  The blank string removes every cap.
 */
#define SSDLOAD_RATE_ATTR(NAME, MAX)					\
static ssize_t ssdload_job_##NAME##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return ssdload_rate_show(to_job(item)->cfg.NAME, page);	\
}									\
									\
static ssize_t ssdload_job_##NAME##_store(struct config_item *item,	\
					  const char *page, size_t count) \
{									\
	static const struct ssdload_num num = {				\
		.name = #NAME, .max = MAX,				\
	};								\
	struct ssdload_job *job = to_job(item);				\
									\
	return ssdload_rate_store(job, NULL, &num, job->cfg.NAME,	\
				  page, count);				\
}									\
CONFIGFS_ATTR(ssdload_job_, NAME)

/*
 * rate_iops and rate of a step, bit FIELD of its set: empty = inherit,
 * "0" = uncapped where the job is capped, else as the job's.
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
	static const struct ssdload_num num = {				\
		.name = #NAME, .max = MAX, .field = FIELD,		\
	};								\
	struct ssdload_step *st = to_step(item);			\
									\
	return ssdload_rate_store(st->job, st, &num, st->v.NAME,	\
				  page, count);				\
}									\
CONFIGFS_ATTR(ssdload_step_, NAME)

#endif /* _SSDLOAD_ATTR_H */
