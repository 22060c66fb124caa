// SPDX-License-Identifier: GPL-2.0
/*
 * The views of a job's results that fio's text (report-text.c) and JSON
 * (report-json.c) print from: each direction's figures, derived once,
 * the steps' directions, and fio's bandwidth and IOPS samples from the
 * time series.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/util.h"
#include "fio/report-view.h"

const char *const rep_dir_names[SSDLOAD_DIR_NR] = { "read", "write", "trim" };
const char *const rep_dir_upper[SSDLOAD_DIR_NR] = { "READ", "WRITE", "TRIM" };

/* The latency fields of @v, from histogram @h or else the summary's figures. */
static void lat_view(const struct ssl_report *r, const struct ssl_hist *h,
		     const struct ssl_dir_stats *ds, struct dir_view *v)
{
	int i;

	if (h && h->present && h->hdr.samples) {
		v->n = h->hdr.samples;
		v->min = h->hdr.min_ns;
		v->max = h->hdr.max_ns;
		v->mean = ssl_mean(h->hdr.sum_ns, v->n);
		v->stddev = ssl_stddev(h->hdr.sum_ns,
				       ssl_u128_to_ld(h->hdr.sumsq_hi, h->hdr.sumsq_lo),
				       v->n);
		v->counts = h->counts;
		for (i = 0; i < r->np && i < SSL_MAX_PERCENTILES; i++)
			v->pct[i] = ssl_hist_percentile(h->counts, h->hdr.nr_buckets,
							r->plist[i], v->min, v->max);
	} else if (ds->ios) {
		v->n = ds->ios;
		v->min = ds->lat_min_ns;
		v->max = ds->lat_max_ns;
		if (ds->have_sums) {
			v->mean = ssl_mean(ds->lat_sum_ns, v->n);
			v->stddev = ssl_stddev(ds->lat_sum_ns, ds->lat_sumsq_ns2, v->n);
		} else {
			v->mean = (double)ds->lat_mean_ns;
			v->stddev = (double)ds->lat_stddev_ns;
		}
	}
}

/* the latency from the intended send time of @rs, in the shape lat_view() reads */
static void rate_as_dir(const struct ssl_rate_stats *rs, struct ssl_dir_stats *ds)
{
	memset(ds, 0, sizeof(*ds));
	ds->ios = rs->ios;
	ds->lat_min_ns = rs->lat_min_ns;
	ds->lat_mean_ns = rs->lat_mean_ns;
	ds->lat_max_ns = rs->lat_max_ns;
	ds->lat_stddev_ns = rs->lat_stddev_ns;
	ds->lat_sum_ns = rs->lat_sum_ns;
	ds->lat_sumsq_ns2 = rs->lat_sumsq_ns2;
	ds->have_sums = rs->have_sums;
}

/*
 * The latency from the intended send time of a rate-controlled direction,
 * as a view: hist_intended_<dir>, or the summary's intended_* figures.
 */
static void intended_view(const struct ssl_report *r, int d, struct dir_view *v)
{
	struct ssl_dir_stats ds;

	memset(v, 0, sizeof(*v));
	rate_as_dir(&r->sum->dir[d].rate, &ds);
	lat_view(r, r->ihist ? &r->ihist[d] : NULL, &ds, v);
}

/* @v's I/Os and bytes per second and its run time, over @rt ns */
static void view_rates(struct dir_view *v, uint64_t rt)
{
	if (!rt || (!v->ios && !v->errors))
		return;
	v->iops = (double)v->ios * 1e9 / (double)rt;
	v->bw_bytes = (uint64_t)((long double)v->bytes * 1e9L / (long double)rt);
	v->runtime_ms = (rt + 500000) / 1000000;
}

/* @v of the I/O of @ds (and its histogram @h) over @rt ns */
static void io_view(const struct ssl_report *r, const struct ssl_hist *h,
		    const struct ssl_dir_stats *ds, uint64_t rt, struct dir_view *v)
{
	memset(v, 0, sizeof(*v));
	v->ios = ds->ios;
	v->bytes = ds->bytes;
	v->errors = ds->errors;
	lat_view(r, h, ds, v);
	view_rates(v, rt);
}

static void dir_view(const struct ssl_report *r, int d, struct dir_view *v)
{
	io_view(r, &r->hist[d], &r->sum->dir[d], r->sum->runtime_ns, v);
}

/* ------------------------------------------------------------------ */
/* steps (the debugfs steps file)                                      */

int rep_have_steps(const struct ssl_report *r)
{
	return r->steps && r->steps->present && r->steps->hdr.nr_steps;
}

/* Is direction @d of a step rate controlled?  As results_dir_rated(). */
static int step_dir_rated(const struct ssdload_steps_rec *rec, int d)
{
	if (!rec->rate_iops[d] && !rec->rate[d])
		return 0;
	return rec->dir[d].intended_ios || !rec->dir[d].ios;
}

/*
 * A histogram of a step as an ssl_hist, the header's figures from the
 * step's @ds and its sum of squares (0 where the step keeps none).
 */
static void step_hist(struct ssl_hist *h, const uint64_t *counts,
		      const struct ssl_dir_stats *ds, uint64_t sumsq_hi, uint64_t sumsq_lo)
{
	if (!counts)
		return;
	h->present = 1;
	h->counts = (uint64_t *)counts;
	h->hdr.nr_buckets = SSDLOAD_HIST_BUCKETS;
	h->hdr.samples = ssl_hist_total(counts, SSDLOAD_HIST_BUCKETS);
	h->hdr.min_ns = ds->lat_min_ns;
	h->hdr.max_ns = ds->lat_max_ns;
	h->hdr.sum_ns = ds->lat_sum_ns;
	h->hdr.sumsq_hi = sumsq_hi;
	h->hdr.sumsq_lo = sumsq_lo;
}

void rep_step_dir_view(const struct ssl_report *r, const struct ssl_step *st, int d,
		       struct step_dir *sd)
{
	const struct ssdload_steps_rec *rec = &st->rec;
	const struct ssdload_steps_dir *x = &rec->dir[d];
	struct dir_view *v = &sd->v;

	memset(sd, 0, sizeof(*sd));
	sd->ds.ios = x->ios;
	sd->ds.bytes = x->bytes;
	sd->ds.errors = x->errors;
	sd->ds.lat_min_ns = x->lat_min_ns;
	sd->ds.lat_max_ns = x->lat_max_ns;
	sd->ds.lat_sum_ns = x->lat_sum_ns;
	sd->ds.lat_sumsq_ns2 = ssl_u128_to_ld(x->lat_sumsq_hi, x->lat_sumsq_lo);
	sd->ds.have_sums = 1;
	step_hist(&sd->h, st->hist[d], &sd->ds, x->lat_sumsq_hi, x->lat_sumsq_lo);
	io_view(r, &sd->h, &sd->ds, rec->runtime_ns, v);
	if (!step_dir_rated(rec, d))
		return;
	/* the step keeps no sum of squares nor lag of its intended times */
	sd->rate.have = 1;
	sd->rate.no_behind = 1;
	sd->rate.iops = rec->rate_iops[d];
	sd->rate.bps = rec->rate[d];
	sd->rate.ios = x->intended_ios;
	sd->rate.lat_min_ns = x->intended_lat_min_ns;
	sd->rate.lat_max_ns = x->intended_lat_max_ns;
	sd->rate.lat_sum_ns = x->intended_lat_sum_ns;
	sd->rate.late_ios = x->late_ios;
	rate_as_dir(&sd->rate, &sd->ids);
	/* no sum of squares: the mean stands in for the sums */
	sd->ids.lat_mean_ns = (uint64_t)ssl_mean(x->intended_lat_sum_ns, x->intended_ios);
	step_hist(&sd->ih, st->ihist[d], &sd->ids, 0, 0);
	lat_view(r, &sd->ih, &sd->ids, &sd->iv);
	sd->iv.no_stddev = 1;
	v->rate = &sd->rate;
	v->intended = &sd->iv;
}

/*
 * fio's usr_cpu/sys_cpu: CPU time * 100 / the job's run time, summed over
 * its threads.  The workers' CPU time covers their whole life (ramp
 * included), so the time is W x (ramp + runtime).
 */
double rep_cpu_pct(const struct ssl_summary *s, uint64_t ns, unsigned int threads)
{
	long double t = (long double)(s->ramp_ns + s->runtime_ns) * (threads ? threads : 1);

	return t > 0 ? (double)((long double)ns * 100.0L / t) : 0.0;
}

/* ------------------------------------------------------------------ */
/* bandwidth and IOPS samples (fio's bw_stat and iops_stat)            */

/* fio's add_stat_sample(): Welford's update, in fio's order of operations */
static void io_stat_add(struct io_stat *is, uint64_t data)
{
	double val = (double)data, delta;

	if (!is->samples || data > is->max)
		is->max = data;
	if (!is->samples || data < is->min)
		is->min = data;
	delta = val - is->mean;
	if (delta) {
		is->mean += delta / ((double)is->samples + 1.0);
		is->S += delta * (val - is->mean);
	}
	is->samples++;
}

/* fio's calc_lat(): 0 without samples; the sample stddev (n - 1) */
int rep_io_stat_calc(const struct io_stat *is, uint64_t *min, uint64_t *max,
		     double *mean, double *dev)
{
	double n = (double)is->samples;

	if (!is->samples)
		return 0;
	*min = is->min;
	*max = is->max;
	*mean = is->mean;
	*dev = n > 1.0 ? sqrt(is->S / (n - 1.0)) : 0.0;
	return 1;
}

/*
 * fio's convert_agg_kbytes_percent(): the mean bandwidth (KiB/s, truncated
 * as fio passes it as an int) in percent of the group's, at most 100.
 */
double rep_agg_percent(uint64_t agg_bytes, double mean)
{
	double p;

	if (agg_bytes <= 1024)
		return 100.0;
	p = (double)(int64_t)mean * 100.0 / ((double)agg_bytes / 1024.0);
	return p > 100.0 ? 100.0 : p;
}

/*
 * One sample per direction that did I/O in an interval of the series,
 * as fio's __add_samples() takes one per direction with I/O in each
 * bw_avg_time/iops_avg_time window: KiB/s and I/Os per second, truncated,
 * over the interval's measured part (from the end of the ramp; an
 * interval wholly in the ramp gives none).  The values are those of the
 * fio logs of fiolog.c.
 */
static void add_interval_samples(struct dir_view v[SSDLOAD_DIR_NR], uint64_t start,
				 uint64_t end, uint64_t ramp_ns,
				 const uint64_t ios[SSDLOAD_DIR_NR],
				 const uint64_t bytes[SSDLOAD_DIR_NR])
{
	uint64_t span;
	int d;

	if (start < ramp_ns)
		start = ramp_ns;
	if (end <= start)
		return;
	span = end - start;
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		if (bytes[d])
			io_stat_add(&v[d].bw_stat, (uint64_t)((long double)bytes[d] * 1e9L /
							      span / 1024));
		if (ios[d])
			io_stat_add(&v[d].iops_stat, (uint64_t)((long double)ios[d] * 1e9L /
								span));
	}
}

int rep_cmp_rec_index(const void *a, const void *b)
{
	const struct ssl_series_rec *x = *(const struct ssl_series_rec *const *)a;
	const struct ssl_series_rec *y = *(const struct ssl_series_rec *const *)b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->worker < y->worker ? -1 : x->worker > y->worker;
}

/*
 * The job's samples: one per interval of the series, the workers'
 * records of one index merged as in time_series.intervals (counts
 * summed, from the earliest start to the latest end).  0, or -1 when out
 * of memory.
 */
static int job_samples(const struct ssl_report *r, struct dir_view v[SSDLOAD_DIR_NR])
{
	const struct ssl_series *ser = r->series;
	const struct ssl_series_rec **sorted;
	uint64_t n, i, j, ios[SSDLOAD_DIR_NR], bytes[SSDLOAD_DIR_NR];
	uint64_t start, end;
	int d;

	if (!ser || !ser->present || !ser->hdr.nr_records)
		return 0;
	n = ser->hdr.nr_records;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -1;
	for (i = 0; i < n; i++)
		sorted[i] = &ser->rec[i];
	qsort(sorted, n, sizeof(*sorted), rep_cmp_rec_index);
	for (i = 0; i < n; i = j) {
		start = sorted[i]->start_ns;
		end = sorted[i]->end_ns;
		memset(ios, 0, sizeof(ios));
		memset(bytes, 0, sizeof(bytes));
		for (j = i; j < n && sorted[j]->index == sorted[i]->index; j++) {
			if (sorted[j]->start_ns < start)
				start = sorted[j]->start_ns;
			if (sorted[j]->end_ns > end)
				end = sorted[j]->end_ns;
			for (d = 0; d < SSDLOAD_DIR_NR; d++) {
				ios[d] += sorted[j]->dir[d].ios;
				bytes[d] += sorted[j]->dir[d].bytes;
			}
		}
		add_interval_samples(v, start, end, r->sum->ramp_ns, ios, bytes);
	}
	free(sorted);
	return 0;
}

/* worker @w's samples (a clone): one per record of its own */
void rep_worker_samples(const struct ssl_report *r, uint32_t w,
			struct dir_view v[SSDLOAD_DIR_NR])
{
	const struct ssl_series *ser = r->series;
	uint64_t i, ios[SSDLOAD_DIR_NR], bytes[SSDLOAD_DIR_NR];
	int d;

	if (!ser || !ser->present)
		return;
	for (i = 0; i < ser->hdr.nr_records; i++) {
		const struct ssl_series_rec *rec = &ser->rec[i];

		if (rec->worker != w)
			continue;
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			ios[d] = rec->dir[d].ios;
			bytes[d] = rec->dir[d].bytes;
		}
		add_interval_samples(v, rec->start_ns, rec->end_ns, r->sum->ramp_ns, ios, bytes);
	}
}

/* ------------------------------------------------------------------ */
/* fio's depth distributions and rw names, for both formats            */

const char *const rep_depth_keys[SSDLOAD_DEPTH_NR] = {
	"1", "2", "4", "8", "16", "32", ">=64",
};
const char *const rep_batch_keys[SSDLOAD_DEPTH_NR] = {
	"0", "4", "8", "16", "32", "64", ">=64",
};

/* @m in percent of its total; 0 when it was not measured (or is empty) */
int rep_depth_pct(const struct ssl_depth_map *m, double pct[SSDLOAD_DEPTH_NR])
{
	uint64_t all = 0;
	unsigned int k;

	for (k = 0; m->have && k < SSDLOAD_DEPTH_NR; k++)
		all += m->n[k];
	if (!all)
		return 0;
	for (k = 0; k < SSDLOAD_DEPTH_NR; k++)
		pct[k] = 100.0 * (double)m->n[k] / (double)all;
	return 1;
}

static const char *const rw_names[SSDLOAD_RW_NR] = {
	"read", "write", "randread", "randwrite", "rw", "randrw",
	"trim", "randtrim", "trimwrite", "randtrimwrite",
};

const char *rep_step_rw_name(uint32_t rw)
{
	return rw < SSDLOAD_RW_NR ? rw_names[rw] : "?";
}

/* ------------------------------------------------------------------ */
/* the job's views                                                     */

void rep_sync_view(const struct ssl_report *r, struct dir_view *v)
{
	memset(v, 0, sizeof(*v));
	v->ios = r->sum->sync.ios;
	v->errors = r->sum->sync.errors;
	lat_view(r, r->shist, &r->sum->sync, v);
}

int rep_views(const struct ssl_report *r, struct dir_view v[SSDLOAD_DIR_NR],
	      struct dir_view iv[SSDLOAD_DIR_NR])
{
	int d;

	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		dir_view(r, d, &v[d]);
		v[d].agg_bytes = v[d].bw_bytes;	/* the job is its group */
		if (!results_dir_rated(r->sum, d))
			continue;
		intended_view(r, d, &iv[d]);
		v[d].rate = &r->sum->dir[d].rate;
		v[d].intended = &iv[d];
	}
	return job_samples(r, v);
}
