// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: configfs interface.
 *
 *   /sys/kernel/config/ssdload/features	RO, every job attribute name
 *   /sys/kernel/config/ssdload/start	WO, a group name: launch its jobs
 *   /sys/kernel/config/ssdload/jobs/NAME/	one job per directory
 *
 * Parameters are plain attributes; `enable` is the commit point: while a
 * run is set up or in progress (armed, running or stopping), every
 * parameter store fails with -EBUSY.  Refused values are logged
 * rate-limited, naming the job and the attribute.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "attr.h"

/* The numeric attributes (attr.h): NAME, MIN, MAX, ALIGN (0 = any). */
SSDLOAD_NUM_ATTR(rwmixread, 0, 100, 0);
SSDLOAD_NUM_ATTR(loops, 1, SSDLOAD_MAX_LOOPS, 0);
SSDLOAD_NUM_ATTR(time_based, 0, 1, 0);
SSDLOAD_NUM_ATTR(norandommap, 0, 1, 0);
SSDLOAD_NUM_ATTR(bs, SSDLOAD_MIN_BS, SSDLOAD_MAX_BS, SSDLOAD_MIN_BS);
SSDLOAD_NUM_ATTR(iodepth, 1, SSDLOAD_MAX_IODEPTH, 0);
SSDLOAD_NUM_ATTR(runtime_ms, 0, SSDLOAD_MAX_MS, 0);
SSDLOAD_NUM_ATTR(ramp_ms, 0, SSDLOAD_MAX_MS, 0);
SSDLOAD_NUM_ATTR(number_ios, 0, U64_MAX, 0);
SSDLOAD_NUM_ATTR(randseed, 0, U64_MAX, 0);
SSDLOAD_NUM_ATTR(allow_write, 0, 1, 0);
SSDLOAD_NUM_ATTR(hipri, 0, 1, 0);
SSDLOAD_NUM_ATTR(disable_lat, 0, 1, 0);
SSDLOAD_NUM_ATTR(io_timeout_ms, 0, SSDLOAD_MAX_MS, 0);
SSDLOAD_NUM_ATTR(scramble_buffers, 0, 1, 0);
SSDLOAD_NUM_ATTR(blockalign, 0, SSDLOAD_MAX_BS, SSDLOAD_MIN_BS);
SSDLOAD_NUM_ATTR(random_scatter, 0, 1, 0);
SSDLOAD_NUM_ATTR(buffer_compress_percentage, 0, 100, 0);
SSDLOAD_NUM_ATTR(buffer_compress_chunk, 1, SSDLOAD_MAX_BS, 0);
SSDLOAD_NUM_ATTR(dedupe_percentage, 0, 100, 0);
SSDLOAD_NUM_ATTR(zero_buffers, 0, 1, 0);
SSDLOAD_NUM_ATTR(refill_buffers, 0, 1, 0);
SSDLOAD_NUM_ATTR(numjobs, 0, SSDLOAD_MAX_NUMJOBS, 0);
SSDLOAD_NUM_ATTR(log_interval_ms, 0, SSDLOAD_MAX_MS, 0);
SSDLOAD_NUM_ATTR(log_hist, 0, 1, 0);
SSDLOAD_NUM_ATTR(shared, 0, 1, 0);
SSDLOAD_NUM_ATTR(thinktime_us, 0, SSDLOAD_MAX_US, 0);
SSDLOAD_NUM_ATTR(thinktime_spin_us, 0, SSDLOAD_MAX_US, 0);
SSDLOAD_NUM_ATTR(thinktime_blocks, 0, U64_MAX, 0);
SSDLOAD_NUM_ATTR(thinktime_iotime_us, 0, SSDLOAD_MAX_US, 0);
SSDLOAD_NUM_ATTR(fsync, 0, SSDLOAD_MAX_FSYNC, 0);
SSDLOAD_NUM_ATTR(end_fsync, 0, 1, 0);
SSDLOAD_NUM_ATTR(sync, 0, 1, 0);
SSDLOAD_NUM_ATTR(write_barrier, 0, SSDLOAD_MAX_FSYNC, 0);
/* start_at: checked against the clock at enable (job.c) */
SSDLOAD_NUM_ATTR(start_at, 0, U64_MAX, 0);

/* The value of offset or size, as written. */
struct ssdload_span_val {
	u64 bytes, ppm;
	bool pct;
};

static int ssdload_span_parse(const struct ssdload_attr *a, const char *page,
			      void *val)
{
	struct ssdload_span_val *v = val;

	return ssdload_parse_bytes_or_pct(page, &v->bytes, &v->ppm, &v->pct);
}

/*
 * offset and size: bytes, or a percentage of each device (fio's "25%").
 * show prints what was set.
 */
#define SSDLOAD_SPAN_ATTR(NAME)						\
static ssize_t ssdload_job_##NAME##_show(struct config_item *item,	\
					 char *page)			\
{									\
	struct ssdload_job *job = to_job(item);				\
	u64 ppm = job->cfg.NAME##_ppm;					\
									\
	if (!job->cfg.NAME##_pct)					\
		return sysfs_emit(page, "%llu\n", job->cfg.NAME);	\
	return sysfs_emit(page, "%llu.%04llu%%\n", ppm / 10000,	\
			  ppm % 10000);					\
}									\
									\
static void ssdload_job_##NAME##_apply(void *dst, const void *val)	\
{									\
	const struct ssdload_span_val *v = val;				\
	struct ssdload_cfg *cfg = dst;					\
									\
	cfg->NAME = v->bytes;						\
	cfg->NAME##_ppm = v->ppm;					\
	cfg->NAME##_pct = v->pct;					\
}									\
									\
static ssize_t ssdload_job_##NAME##_store(struct config_item *item,	\
					  const char *page, size_t count) \
{									\
	static const struct ssdload_attr a = {				\
		.name = #NAME, .size = sizeof(struct ssdload_span_val),	\
		.parse = ssdload_span_parse,				\
		.apply = ssdload_job_##NAME##_apply,			\
	};								\
	struct ssdload_job *job = to_job(item);				\
									\
	return ssdload_store(job, NULL, &a, &job->cfg, page, count);	\
}									\
CONFIGFS_ATTR(ssdload_job_, NAME)

SSDLOAD_SPAN_ATTR(offset);
SSDLOAD_SPAN_ATTR(size);

/*
 * A string attribute parsed into an allocated object of @TYPE by @PARSE
 * (a struct ssdload_attr parse callback; the empty string clears it:
 * NULL) and printed by @SHOW.
 */
#define SSDLOAD_SPEC_ATTR(NAME, FIELD, TYPE, PARSE, SHOW)		\
static ssize_t ssdload_job_##NAME##_show(struct config_item *item,	\
					 char *page)			\
{									\
	struct ssdload_job *job = to_job(item);				\
	ssize_t len;							\
									\
	mutex_lock(&job->lock);					\
	len = job->cfg.FIELD ? SHOW(job->cfg.FIELD, page) :		\
			       sysfs_emit(page, "\n");			\
	mutex_unlock(&job->lock);					\
	return len;							\
}									\
									\
static ssize_t ssdload_job_##NAME##_store(struct config_item *item,	\
					  const char *page, size_t count) \
{									\
	static const struct ssdload_attr a = {				\
		.name = #NAME, .owned = true, .size = sizeof(TYPE),	\
		.parse = PARSE,						\
	};								\
	struct ssdload_job *job = to_job(item);				\
									\
	return ssdload_store(job, NULL, &a, &job->cfg.FIELD, page, count); \
}									\
CONFIGFS_ATTR(ssdload_job_, NAME)

static ssize_t ssdload_bssplit_show(const struct ssdload_bsspec *s, char *page)
{
	return ssdload_bsspec_show(s, false, page);
}

static ssize_t ssdload_bsrange_show(const struct ssdload_bsspec *s, char *page)
{
	return ssdload_bsspec_show(s, true, page);
}

static int ssdload_bsrange_parse(const struct ssdload_attr *a,
				 const char *page, void *val)
{
	return ssdload_parse_bsrange(page, val);
}

static int ssdload_dist_parse(const struct ssdload_attr *a, const char *page,
			      void *val)
{
	return ssdload_parse_distribution(page, val);
}

SSDLOAD_SPEC_ATTR(bssplit, bssplit, struct ssdload_bsspec,
		  ssdload_attr_parse_bssplit, ssdload_bssplit_show);
SSDLOAD_SPEC_ATTR(bsrange, bsrange, struct ssdload_bsspec,
		  ssdload_bsrange_parse, ssdload_bsrange_show);
SSDLOAD_SPEC_ATTR(random_distribution, dist, struct ssdload_distspec,
		  ssdload_dist_parse, ssdload_distspec_show);

static ssize_t ssdload_job_buffer_pattern_show(struct config_item *item,
					       char *page)
{
	struct ssdload_job *job = to_job(item);
	ssize_t len;

	mutex_lock(&job->lock);
	len = ssdload_pattern_show(job->cfg.pattern, job->cfg.pattern_len,
				   page);
	mutex_unlock(&job->lock);
	return len;
}

/* buffer_pattern as parsed: its bytes and their number. */
struct ssdload_pattern_val {
	u8 pat[SSDLOAD_PATTERN_MAX];
	u32 len;
};

static int ssdload_pattern_parse(const struct ssdload_attr *a,
				 const char *page, void *val)
{
	struct ssdload_pattern_val *v = val;

	return ssdload_parse_pattern(page, v->pat, &v->len);
}

static void ssdload_pattern_apply(void *dst, const void *val)
{
	const struct ssdload_pattern_val *v = val;
	struct ssdload_cfg *cfg = dst;

	memcpy(cfg->pattern, v->pat, v->len);
	cfg->pattern_len = v->len;
}

static ssize_t ssdload_job_buffer_pattern_store(struct config_item *item,
						const char *page, size_t count)
{
	static const struct ssdload_attr a = {
		.name = "buffer_pattern",
		.size = sizeof(struct ssdload_pattern_val),
		.parse = ssdload_pattern_parse, .apply = ssdload_pattern_apply,
	};
	struct ssdload_job *job = to_job(item);

	return ssdload_store(job, NULL, &a, &job->cfg, page, count);
}
CONFIGFS_ATTR(ssdload_job_, buffer_pattern);

static ssize_t ssdload_job_file_service_type_show(struct config_item *item,
						  char *page)
{
	struct ssdload_cfg *cfg = &to_job(item)->cfg;
	const char *name = ssdload_enum_name(ssdload_fst_names, cfg->fst);

	if (!cfg->fst_n)
		return sysfs_emit(page, "%s\n", name);
	return sysfs_emit(page, "%s:%u\n", name, cfg->fst_n);
}

/* file_service_type as parsed: the policy and its I/Os per switch. */
struct ssdload_fst_val {
	u32 fst, n;
};

static int ssdload_fst_parse(const struct ssdload_attr *a, const char *page,
			     void *val)
{
	struct ssdload_fst_val *v = val;

	return ssdload_parse_fst(page, &v->fst, &v->n);
}

static void ssdload_fst_apply(void *dst, const void *val)
{
	const struct ssdload_fst_val *v = val;
	struct ssdload_cfg *cfg = dst;

	cfg->fst = v->fst;
	cfg->fst_n = v->n;
}

static ssize_t ssdload_job_file_service_type_store(struct config_item *item,
						   const char *page,
						   size_t count)
{
	static const struct ssdload_attr a = {
		.name = "file_service_type",
		.size = sizeof(struct ssdload_fst_val),
		.parse = ssdload_fst_parse, .apply = ssdload_fst_apply,
	};
	struct ssdload_job *job = to_job(item);

	return ssdload_store(job, NULL, &a, &job->cfg, page, count);
}
CONFIGFS_ATTR(ssdload_job_, file_service_type);

/* rate_iops and rate (attr.h) */
SSDLOAD_RATE_ATTR(rate_iops, SSDLOAD_MAX_RATE_IOPS);
SSDLOAD_RATE_ATTR(rate, SSDLOAD_MAX_RATE_BPS);

/* An enum attribute: its name in @TABLE, stored as the value. */
#define SSDLOAD_ENUM_ATTR(NAME, TABLE)					\
static ssize_t ssdload_job_##NAME##_show(struct config_item *item,	\
					 char *page)			\
{									\
	return sysfs_emit(page, "%s\n",				\
			  ssdload_enum_name(TABLE, to_job(item)->cfg.NAME)); \
}									\
									\
static ssize_t ssdload_job_##NAME##_store(struct config_item *item,	\
					  const char *page, size_t count) \
{									\
	static const struct ssdload_attr a = {				\
		.name = #NAME,						\
		.size = sizeof_field(struct ssdload_cfg, NAME),		\
		.parse = ssdload_attr_parse_enum, .names = TABLE,	\
	};								\
	struct ssdload_job *job = to_job(item);				\
									\
	return ssdload_store(job, NULL, &a, &job->cfg.NAME, page, count); \
}									\
CONFIGFS_ATTR(ssdload_job_, NAME)

SSDLOAD_ENUM_ATTR(rw, ssdload_rw_names);
SSDLOAD_ENUM_ATTR(rate_process, ssdload_rate_process_names);
SSDLOAD_ENUM_ATTR(thinktime_blocks_type, ssdload_think_type_names);

/* startdelay_us: a delay, or a range "LO-HI" each worker draws from. */
static ssize_t ssdload_job_startdelay_us_show(struct config_item *item,
					      char *page)
{
	const struct ssdload_cfg *cfg = &to_job(item)->cfg;

	if (cfg->startdelay_hi_us == cfg->startdelay_us)
		return sysfs_emit(page, "%llu\n", cfg->startdelay_us);
	return sysfs_emit(page, "%llu-%llu\n", cfg->startdelay_us,
			  cfg->startdelay_hi_us);
}

/* startdelay_us as parsed: the range's ends. */
struct ssdload_range_val {
	u64 lo, hi;
};

static int ssdload_startdelay_parse(const struct ssdload_attr *a,
				    const char *page, void *val)
{
	struct ssdload_range_val *v = val;

	return ssdload_parse_range(page, SSDLOAD_MAX_US, &v->lo, &v->hi);
}

static void ssdload_startdelay_apply(void *dst, const void *val)
{
	const struct ssdload_range_val *v = val;
	struct ssdload_cfg *cfg = dst;

	cfg->startdelay_us = v->lo;
	cfg->startdelay_hi_us = v->hi;
}

static ssize_t ssdload_job_startdelay_us_store(struct config_item *item,
					       const char *page, size_t count)
{
	static const struct ssdload_attr a = {
		.name = "startdelay_us",
		.size = sizeof(struct ssdload_range_val),
		.parse = ssdload_startdelay_parse,
		.apply = ssdload_startdelay_apply,
	};
	struct ssdload_job *job = to_job(item);

	return ssdload_store(job, NULL, &a, &job->cfg, page, count);
}
CONFIGFS_ATTR(ssdload_job_, startdelay_us);

/* verify (Documentation/verify.rst) */
SSDLOAD_ENUM_ATTR(verify, ssdload_verify_names);
SSDLOAD_NUM_ATTR(verify_interval, 0, SSDLOAD_MAX_BS, SSDLOAD_MIN_BS);
SSDLOAD_NUM_ATTR(do_verify, 0, 1, 0);
SSDLOAD_NUM_ATTR(verify_fatal, 0, 1, 0);

/*
 * filename: a block device, or fio's list "a:b" ("\\:" escapes a colon)
 * of up to SSDLOAD_MAX_DEVS, each absolute.
 */
static int ssdload_filename_parse(const struct ssdload_attr *a,
				  const char *page, void *val)
{
	unsigned int n = 1;
	const char *p;
	int ret;

	ret = ssdload_parse_path(page, val, a->size);
	if (ret)
		return ret;
	for (p = val; *p; p++) {
		if (*p == '\\' && p[1] == ':') {
			p++;
		} else if (*p == ':') {
			if (p[1] != '/' || ++n > SSDLOAD_MAX_DEVS)
				return -EINVAL;
		}
	}
	return 0;
}

static ssize_t ssdload_job_filename_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, "%s\n", to_job(item)->filename);
}

static ssize_t ssdload_job_filename_store(struct config_item *item,
					  const char *page, size_t count)
{
	static const struct ssdload_attr a = {
		.name = "filename",
		.size = sizeof_field(struct ssdload_job, filename),
		.parse = ssdload_filename_parse,
	};
	struct ssdload_job *job = to_job(item);

	return ssdload_store(job, NULL, &a, job->filename, page, count);
}
CONFIGFS_ATTR(ssdload_job_, filename);

static ssize_t ssdload_job_cpus_allowed_show(struct config_item *item,
					     char *page)
{
	return sysfs_emit(page, "%*pbl\n",
			  cpumask_pr_args(to_job(item)->cpus));
}

static int ssdload_cpus_parse(const struct ssdload_attr *a, const char *page,
			      void *val)
{
	return ssdload_parse_cpulist(page, val);
}

static void ssdload_cpus_apply(void *dst, const void *val)
{
	cpumask_copy(dst, val);
}

static ssize_t ssdload_job_cpus_allowed_store(struct config_item *item,
					      const char *page, size_t count)
{
	static const struct ssdload_attr a = {
		.name = "cpus_allowed", .size = sizeof(struct cpumask),
		.parse = ssdload_cpus_parse, .apply = ssdload_cpus_apply,
	};
	struct ssdload_job *job = to_job(item);

	return ssdload_store(job, NULL, &a, job->cpus, page, count);
}
CONFIGFS_ATTR(ssdload_job_, cpus_allowed);

static ssize_t ssdload_job_group_show(struct config_item *item, char *page)
{
	struct ssdload_job *job = to_job(item);
	ssize_t len;

	mutex_lock(&job->lock);
	len = sysfs_emit(page, "%s\n", job->group);
	mutex_unlock(&job->lock);
	return len;
}

static int ssdload_group_parse(const struct ssdload_attr *a, const char *page,
			       void *val)
{
	return ssdload_parse_group(page, val, a->size);
}

static ssize_t ssdload_job_group_store(struct config_item *item,
				       const char *page, size_t count)
{
	static const struct ssdload_attr a = {
		.name = "group", .size = sizeof_field(struct ssdload_job, group),
		.parse = ssdload_group_parse,
	};
	struct ssdload_job *job = to_job(item);

	return ssdload_store(job, NULL, &a, job->group, page, count);
}
CONFIGFS_ATTR(ssdload_job_, group);

static ssize_t ssdload_job_enable_show(struct config_item *item, char *page)
{
	enum ssdload_state state = READ_ONCE(to_job(item)->state);

	return sysfs_emit(page, "%d\n", state == SSDLOAD_STATE_RUNNING ||
			  state == SSDLOAD_STATE_ARMED);
}

static ssize_t ssdload_job_enable_store(struct config_item *item,
					const char *page, size_t count)
{
	struct ssdload_job *job = to_job(item);
	bool enable;
	int ret;

	ret = ssdload_parse_bool(page, &enable);
	if (ret)
		return ssdload_store_invalid(job, NULL, "enable", page, ret);

	if (enable) {
		mutex_lock(&job->lock);
		ret = ssdload_job_start(job);
		mutex_unlock(&job->lock);
	} else {
		ssdload_job_stop(job);
	}
	return ret ? ret : count;
}
CONFIGFS_ATTR(ssdload_job_, enable);

static ssize_t ssdload_job_state_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, "%s\n",
			  ssdload_enum_name(ssdload_state_names,
					    READ_ONCE(to_job(item)->state)));
}
CONFIGFS_ATTR_RO(ssdload_job_, state);

static ssize_t ssdload_job_error_show(struct config_item *item, char *page)
{
	struct ssdload_job *job = to_job(item);
	ssize_t len;

	spin_lock(&job->err_lock);
	if (job->err)
		len = sysfs_emit(page, "%d %s\n", job->err, job->errmsg);
	else
		len = sysfs_emit(page, "0\n");
	spin_unlock(&job->err_lock);
	return len;
}
CONFIGFS_ATTR_RO(ssdload_job_, error);

VISIBLE_IF_KUNIT struct configfs_attribute *ssdload_job_attrs[] = {
	&ssdload_job_attr_filename,
	&ssdload_job_attr_rw,
	&ssdload_job_attr_rwmixread,
	&ssdload_job_attr_bs,
	&ssdload_job_attr_iodepth,
	&ssdload_job_attr_cpus_allowed,
	&ssdload_job_attr_offset,
	&ssdload_job_attr_size,
	&ssdload_job_attr_runtime_ms,
	&ssdload_job_attr_ramp_ms,
	&ssdload_job_attr_number_ios,
	&ssdload_job_attr_randseed,
	&ssdload_job_attr_allow_write,
	&ssdload_job_attr_hipri,
	&ssdload_job_attr_disable_lat,
	&ssdload_job_attr_io_timeout_ms,
	&ssdload_job_attr_scramble_buffers,
	&ssdload_job_attr_bssplit,
	&ssdload_job_attr_bsrange,
	&ssdload_job_attr_blockalign,
	&ssdload_job_attr_random_distribution,
	&ssdload_job_attr_random_scatter,
	&ssdload_job_attr_buffer_compress_percentage,
	&ssdload_job_attr_buffer_compress_chunk,
	&ssdload_job_attr_dedupe_percentage,
	&ssdload_job_attr_buffer_pattern,
	&ssdload_job_attr_zero_buffers,
	&ssdload_job_attr_refill_buffers,
	&ssdload_job_attr_file_service_type,
	&ssdload_job_attr_numjobs,
	&ssdload_job_attr_rate_iops,
	&ssdload_job_attr_rate,
	&ssdload_job_attr_rate_process,
	&ssdload_job_attr_log_interval_ms,
	&ssdload_job_attr_log_hist,
	&ssdload_job_attr_shared,
	&ssdload_job_attr_group,
	&ssdload_job_attr_loops,
	&ssdload_job_attr_time_based,
	&ssdload_job_attr_norandommap,
	/* verify */
	&ssdload_job_attr_verify,
	&ssdload_job_attr_verify_interval,
	&ssdload_job_attr_do_verify,
	&ssdload_job_attr_verify_fatal,
	&ssdload_job_attr_thinktime_us,
	&ssdload_job_attr_thinktime_spin_us,
	&ssdload_job_attr_thinktime_blocks,
	&ssdload_job_attr_thinktime_blocks_type,
	&ssdload_job_attr_thinktime_iotime_us,
	&ssdload_job_attr_startdelay_us,
	&ssdload_job_attr_fsync,
	&ssdload_job_attr_end_fsync,
	&ssdload_job_attr_sync,
	&ssdload_job_attr_write_barrier,
	&ssdload_job_attr_start_at,
	&ssdload_job_attr_enable,
	&ssdload_job_attr_state,
	&ssdload_job_attr_error,
	NULL,
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_job_attrs);

/* configfs' reference; a run or an open lease may keep the job longer. */
static void ssdload_job_release(struct config_item *item)
{
	ssdload_job_put(to_job(item));
}

static struct configfs_item_operations ssdload_job_item_ops = {
	.release	= ssdload_job_release,
};

static const struct config_item_type ssdload_job_type = {
	.ct_item_ops	= &ssdload_job_item_ops,
	.ct_attrs	= ssdload_job_attrs,
	.ct_owner	= THIS_MODULE,
};

/*
 * jobs/: mkdir creates a job (with its steps/), rmdir stops and removes it
 * without waiting (configfs refuses it while steps/ has steps).
 */
static struct config_group *ssdload_jobs_make_group(struct config_group *group,
						    const char *name)
{
	struct ssdload_job *job;

	job = ssdload_job_alloc(name);
	if (!job)
		return ERR_PTR(-ENOMEM);
	config_group_init_type_name(&job->cg, name, &ssdload_job_type);
	config_group_init_type_name(&job->steps_group, SSDLOAD_CONFIGFS_STEPS,
				    &ssdload_steps_type);
	configfs_add_default_group(&job->steps_group, &job->cg);
	ssdload_debugfs_job_add(job);
	return &job->cg;
}

static void ssdload_jobs_drop_item(struct config_group *group,
				   struct config_item *item)
{
	struct ssdload_job *job = to_job(item);

	/* returns at once: a draining run holds its own reference */
	ssdload_job_stop(job);
	ssdload_debugfs_job_del(job);
	config_item_put(item);
}

static struct configfs_group_operations ssdload_jobs_group_ops = {
	.make_group	= ssdload_jobs_make_group,
	.drop_item	= ssdload_jobs_drop_item,
};

static const struct config_item_type ssdload_jobs_type = {
	.ct_group_ops	= &ssdload_jobs_group_ops,
	.ct_owner	= THIS_MODULE,
};

static struct config_group ssdload_jobs_group;

/* Root: the read-only features list. */
static ssize_t ssdload_root_features_show(struct config_item *item, char *page)
{
	struct configfs_attribute **attr;
	ssize_t len = 0;

	for (attr = ssdload_job_attrs; *attr; attr++)
		len += sysfs_emit_at(page, len, "%s\n", (*attr)->ca_name);
	return len;
}
CONFIGFS_ATTR_RO(ssdload_root_, features);

static struct configfs_subsystem ssdload_subsys;

/*
 * Root: start GROUP launches every armed job of the group at one instant.
 * The jobs are the children of jobs/, walked under su_mutex (configfs'
 * rule for walking the tree; mkdir and rmdir take it, and rmdir stops a
 * job under it: su_mutex comes before job->lock).  Each job is launched
 * under its lock with the same start time, so their ramp and runtime
 * end together; then all their threads are woken in one go, and they
 * issue their first I/O together once the last one ran (the gate).
 * Nothing waits for I/O.
 */
static ssize_t ssdload_root_start_store(struct config_item *item,
					const char *page, size_t count)
{
	static DEFINE_RATELIMIT_STATE(rs, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	struct config_item *ci;
	struct task_struct **tasks;
	struct ssdload_gate *gate;
	char group[SSDLOAD_GROUP_LEN], val[40];
	unsigned int nr = 0, n = 0;
	int ret;

	ret = ssdload_parse_group(page, group, sizeof(group));
	if (!ret && !group[0])
		ret = -EINVAL;
	if (ret) {
		ssdload_safe_value(page, val, sizeof(val));
		if (__ratelimit(&rs))
			pr_err("invalid start '%s': %d\n", val, ret);
		return ret;
	}

	mutex_lock(&ssdload_subsys.su_mutex);
	list_for_each_entry(ci, &ssdload_jobs_group.cg_children, ci_entry)
		nr += ssdload_job_armed_workers(to_job(ci), group);
	if (!nr) {
		ret = -ENOENT;
		goto out_unlock;
	}
	tasks = kcalloc(nr, sizeof(*tasks), GFP_KERNEL);
	if (!tasks) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	gate = ssdload_gate_alloc();
	if (!gate) {
		ret = -ENOMEM;
		goto out_free_tasks;
	}
	list_for_each_entry(ci, &ssdload_jobs_group.cg_children, ci_entry)
		n += ssdload_job_launch_armed(to_job(ci), group, gate,
					      tasks + n, nr - n);
	ssdload_wake_tasks(tasks, n);
	ssdload_gate_put(gate);
	if (!n)
		ret = -ENOENT;
out_free_tasks:
	kfree(tasks);
out_unlock:
	mutex_unlock(&ssdload_subsys.su_mutex);
	if (ret == -ENOENT && __ratelimit(&rs))
		pr_err("start: no armed job in group %s\n", group);
	return ret ? ret : count;
}
CONFIGFS_ATTR_WO(ssdload_root_, start);

static struct configfs_attribute *ssdload_root_attrs[] = {
	&ssdload_root_attr_features,
	&ssdload_root_attr_start,
	NULL,
};

static const struct config_item_type ssdload_root_type = {
	.ct_attrs	= ssdload_root_attrs,
	.ct_owner	= THIS_MODULE,
};

static struct configfs_subsystem ssdload_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= "ssdload",
			.ci_type	= &ssdload_root_type,
		},
	},
};

int ssdload_configfs_init(void)
{
	int ret;

	config_group_init(&ssdload_subsys.su_group);
	mutex_init(&ssdload_subsys.su_mutex);

	config_group_init_type_name(&ssdload_jobs_group, "jobs",
				    &ssdload_jobs_type);
	configfs_add_default_group(&ssdload_jobs_group,
				   &ssdload_subsys.su_group);

	ret = configfs_register_subsystem(&ssdload_subsys);
	if (ret) {
		pr_err("cannot register the configfs subsystem: %d\n", ret);
		return ret;
	}
	return 0;
}

void ssdload_configfs_exit(void)
{
	configfs_unregister_subsystem(&ssdload_subsys);
}
