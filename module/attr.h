/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload: the store of configfs attributes, shared by the job's
 * attributes (configfs.c) and the steps' (step.c).
 *
 * Every store goes through ssdload_store(): it parses the value before
 * taking job->lock, then, with the lock held, is refused with -EBUSY
 * while a run is set up (armed, running or stopping), or with the parse
 * error, each logged naming the job, the step and the attribute; else it
 * keeps the value.  What differs between attributes is in their struct
 * ssdload_attr: how to parse, how to keep.  Numeric attributes are one
 * line each (null_blk style): SSDLOAD_NUM_ATTR and SSDLOAD_RATE_ATTR for
 * a job, SSDLOAD_STEP_NUM_ATTR and SSDLOAD_STEP_RATE_ATTR for a step.
 */
#ifndef _SSDLOAD_ATTR_H
#define _SSDLOAD_ATTR_H

#include "ssdload.h"

/*
 * One attribute, for ssdload_store().  @parse reads the written line into
 * @val, a zeroed temporary of @size bytes, before job->lock is taken;
 * @apply puts it into the job or step (@dst) with the lock held, once
 * the store is allowed (NULL: copy the @size bytes to @dst).  With
 * @owned, @val is allocated and kept: it replaces the pointer at @dst,
 * whose old object is freed.
 */
struct ssdload_attr {
	const char *name;		/* the attribute, for the log */
	u32 field;			/* a step's: enum ssdload_step_field */
	bool owned;
	size_t size;
	int (*parse)(const struct ssdload_attr *a, const char *page,
		     void *val);
	void (*apply)(void *dst, const void *val);
	u64 min, max, align;		/* a number's range (align 0 = any);
					 * a rate's cap in each direction
					 */
	const struct ssdload_enum *names;	/* an enum's */
};

int ssdload_store_invalid(struct ssdload_job *job,
			  const struct ssdload_step *st, const char *attr,
			  const char *page, int ret);
ssize_t ssdload_store(struct ssdload_job *job, struct ssdload_step *st,
		      const struct ssdload_attr *a, void *dst,
		      const char *page, size_t count);

/* The parse callbacks of the kinds a job and a step share. */
int ssdload_attr_parse_u64(const struct ssdload_attr *a, const char *page,
			   void *val);
int ssdload_attr_parse_rate(const struct ssdload_attr *a, const char *page,
			    void *val);
int ssdload_attr_parse_step_rate(const struct ssdload_attr *a,
				 const char *page, void *val);
int ssdload_attr_parse_enum(const struct ssdload_attr *a, const char *page,
			    void *val);
int ssdload_attr_parse_bssplit(const struct ssdload_attr *a,
			       const char *page, void *val);

static inline struct ssdload_step *to_step(struct config_item *item)
{
	return container_of(item, struct ssdload_step, item);
}

/*
 * A job's numeric attribute: show, store and the configfs attribute.
 * MIN..MAX, a multiple of ALIGN (0 = any).
 */
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
	static const struct ssdload_attr a = {				\
		.name = #NAME, .size = sizeof(u64),			\
		.parse = ssdload_attr_parse_u64,			\
		.min = MIN, .max = MAX, .align = ALIGN,			\
	};								\
	struct ssdload_job *job = to_job(item);				\
									\
	BUILD_BUG_ON(sizeof(job->cfg.NAME) != sizeof(u64));		\
	return ssdload_store(job, NULL, &a, &job->cfg.NAME, page, count); \
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
	static const struct ssdload_attr a = {				\
		.name = #NAME, .field = FIELD, .size = sizeof(u64),	\
		.parse = ssdload_attr_parse_u64,			\
		.min = MIN, .max = MAX, .align = ALIGN,			\
	};								\
	struct ssdload_step *st = to_step(item);			\
									\
	BUILD_BUG_ON(sizeof(st->v.NAME) != sizeof(u64));		\
	return ssdload_store(st->job, st, &a, &st->v.NAME, page, count); \
}									\
CONFIGFS_ATTR(ssdload_step_, NAME)

/*
 * rate_iops and rate of a job: fio's per-direction lists, up to MAX in
 * each direction, job-wide (the workers share them).  The blank string
 * removes every cap.
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
	static const struct ssdload_attr a = {				\
		.name = #NAME, .size = sizeof(u64) * SSDLOAD_DIR_NR,	\
		.parse = ssdload_attr_parse_rate, .max = MAX,		\
	};								\
	struct ssdload_job *job = to_job(item);				\
									\
	BUILD_BUG_ON(sizeof(job->cfg.NAME) != sizeof(u64) * SSDLOAD_DIR_NR); \
	return ssdload_store(job, NULL, &a, job->cfg.NAME, page, count); \
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
	static const struct ssdload_attr a = {				\
		.name = #NAME, .field = FIELD,				\
		.size = sizeof(u64) * SSDLOAD_DIR_NR,			\
		.parse = ssdload_attr_parse_step_rate, .max = MAX,	\
	};								\
	struct ssdload_step *st = to_step(item);			\
									\
	BUILD_BUG_ON(sizeof(st->v.NAME) != sizeof(u64) * SSDLOAD_DIR_NR); \
	return ssdload_store(st->job, st, &a, st->v.NAME, page, count);	\
}									\
CONFIGFS_ATTR(ssdload_step_, NAME)

#endif /* _SSDLOAD_ATTR_H */
