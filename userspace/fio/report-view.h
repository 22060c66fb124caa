/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the text (report-text.c) and JSON (report-json.c) reports share,
 * derived once by report-view.c: each direction's figures as a view, the
 * steps' views, fio's bandwidth and IOPS samples, and small tables.
 * report.c calls the three.  Private to fio/report*.c.
 */
#ifndef SSDLOAD_CLI_REPORT_VIEW_H
#define SSDLOAD_CLI_REPORT_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "fio/report.h"
#include "uapi/ssdload.h"

extern const char *const rep_dir_names[SSDLOAD_DIR_NR];	/* "read", ... */
extern const char *const rep_dir_upper[SSDLOAD_DIR_NR];	/* "READ", ... */

/*
 * fio's io_stat of the bandwidth (KiB/s) or IOPS samples: one per
 * interval, kept as fio's add_stat_sample() keeps them.
 */
struct io_stat {
	uint64_t samples;
	uint64_t min, max;
	double mean, S;			/* running mean, sum of squared deviations */
};

/* Everything reported for one direction, derived once. */
struct dir_view {
	uint64_t ios, bytes, errors;
	uint64_t n;			/* latency samples */
	uint64_t min, max;		/* ns */
	double mean, stddev;		/* ns */
	double iops;
	uint64_t bw_bytes;		/* bytes/s */
	uint64_t runtime_ms;
	const uint64_t *counts;		/* NULL without a histogram */
	uint64_t pct[SSL_MAX_PERCENTILES];
	/* rate control: NULL unless the direction is rate controlled */
	const struct ssl_rate_stats *rate;
	const struct dir_view *intended; /* latency from the intended time */
	int no_stddev;			/* stddev unknown: left out of the JSON */
	/* fio's bw_stat/iops_stat, from the time series (no series: none) */
	struct io_stat bw_stat, iops_stat;
	uint64_t agg_bytes;		/* the group's bytes/s, for bw_agg (per=) */
};

/* One direction of a step, in the shapes lat_view() and the reports read. */
struct step_dir {
	struct ssl_hist h, ih;
	struct ssl_dir_stats ds, ids;
	struct ssl_rate_stats rate;
	struct dir_view v, iv;
};

/*
 * The job's views: @v per direction, @iv their latency from the intended
 * time where rate controlled (@v[d].intended points there), the samples
 * of the time series taken; 0, or -1 when out of memory.
 */
int rep_views(const struct ssl_report *r, struct dir_view v[SSDLOAD_DIR_NR],
	      struct dir_view iv[SSDLOAD_DIR_NR]);

/*
 * The flushes (fio's sync: fsync, end_fsync), in @v: ios, errors and the
 * latency, from hist_sync where it was read; all 0 without flushes.
 */
void rep_sync_view(const struct ssl_report *r, struct dir_view *v);

int rep_have_steps(const struct ssl_report *r);
/* direction @d of step @st, in @sd (its v, and iv when rate controlled) */
void rep_step_dir_view(const struct ssl_report *r, const struct ssl_step *st, int d,
		       struct step_dir *sd);

/*
 * fio's usr_cpu/sys_cpu: CPU time * 100 / the job's run time, summed over
 * its threads.  The workers' CPU time covers their whole life (ramp
 * included), so the time is W x (ramp + runtime).
 */
double rep_cpu_pct(const struct ssl_summary *s, uint64_t ns, unsigned int threads);

/* fio's calc_lat(): 0 without samples; the sample stddev (n - 1) */
int rep_io_stat_calc(const struct io_stat *is, uint64_t *min, uint64_t *max,
		     double *mean, double *dev);
/* fio's convert_agg_kbytes_percent(): the mean KiB/s in percent of the group's */
double rep_agg_percent(uint64_t agg_bytes, double mean);
/* worker @w's samples (a clone): one per record of its own */
void rep_worker_samples(const struct ssl_report *r, uint32_t w,
			struct dir_view v[SSDLOAD_DIR_NR]);
/* qsort() order of series records: by index, then worker */
int rep_cmp_rec_index(const void *a, const void *b);

/* the keys of fio's iodepth_level and of iodepth_submit/complete */
extern const char *const rep_depth_keys[SSDLOAD_DEPTH_NR];
extern const char *const rep_batch_keys[SSDLOAD_DEPTH_NR];
/* @m in percent of its total; 0 when it was not measured (or is empty) */
int rep_depth_pct(const struct ssl_depth_map *m, double pct[SSDLOAD_DEPTH_NR]);
/* fio's name of a step's rw (SSDLOAD_RW_*) */
const char *rep_step_rw_name(uint32_t rw);

/* the two formats: fio's normal text (report-text.c), its JSON (report-json.c) */
void rep_print_normal(FILE *f, const struct ssl_report *r,
		      const struct dir_view v[SSDLOAD_DIR_NR]);
int rep_print_json(FILE *f, const struct ssl_report *r,
		   const struct dir_view v[SSDLOAD_DIR_NR]);

/*
 * report-verify.c: verify (debugfs verify) in the text report, the JSON's
 * ssdload.verify object (NULL without verify) and fio's total_err and
 * first_error; the failed units (0 without verify)
 */
struct json_object;
void rep_print_verify(FILE *f, const struct ssl_report *r);
struct json_object *rep_verify_json(const struct ssl_verify *v);
void rep_verify_fio_keys(struct json_object *job, const struct ssl_report *r);
uint64_t rep_verify_failed(const struct ssl_verify *v);

#endif /* SSDLOAD_CLI_REPORT_VIEW_H */
