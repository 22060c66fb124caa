// SPDX-License-Identifier: GPL-2.0
/*
 * fio's JSON output (json and json+): its schema's keys and types, with
 * ssdload's own results under jobs[].ssdload, time_series and steps.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "core/hist.h"
#include "core/latstudy.h"
#include "core/util.h"
#include "fio/report-view.h"

/* clones in the JSON: numjobs > 1 without --group_reporting, as fio */
static int json_clones(const struct ssl_report *r)
{
	const struct ssl_summary *s = r->sum;

	return !r->group_reporting && s->numjobs.have && s->numjobs.v > 1 &&
	       s->nr_worker > 1;
}

/* fio sums the run time of the threads of a group (numjobs > 1) */
static uint64_t group_threads(const struct ssl_summary *s)
{
	return s->numjobs.have && s->numjobs.v > 1 ? s->numjobs.v : 1;
}

static void jint(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void jdbl(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static void jstr(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

static void jopt(json_object *o, const char *k, const struct ssl_opt_u64 *v);

static json_object *json_lat(const struct ssl_report *r, const struct dir_view *v)
{
	json_object *o = json_object_new_object();
	int j;

	jint(o, "min", (int64_t)v->min);
	jint(o, "max", (int64_t)v->max);
	jdbl(o, "mean", v->mean);
	if (!v->no_stddev)
		jdbl(o, "stddev", v->stddev);
	jint(o, "N", (int64_t)v->n);
	if (v->n && v->counts && r->np) {
		json_object *p = json_object_new_object();

		for (j = 0; j < r->np; j++) {
			char key[32];

			snprintf(key, sizeof(key), "%f", r->plist[j]);
			jint(p, key, (int64_t)v->pct[j]);
		}
		json_object_object_add(o, "percentile", p);
	}
	if (r->bins && v->n && v->counts) {
		json_object *b = json_object_new_object();
		uint32_t i;

		/*
		 * fio's json+: "value": count per non-empty bucket.  The value
		 * is the one the percentiles above report for the bucket (its
		 * midpoint, within the exact min and max), so that percentiles
		 * computed from the bins (fio_jsonplus_clat2csv) are ours.
		 */
		for (i = 0; i < SSDLOAD_HIST_BUCKETS; i++) {
			uint64_t val = ssdload_hist_value(i);
			char key[24];

			if (!v->counts[i])
				continue;
			if (val < v->min)
				val = v->min;
			if (val > v->max)
				val = v->max;
			snprintf(key, sizeof(key), "%" PRIu64, val);
			jint(b, key, (int64_t)v->counts[i]);
		}
		json_object_object_add(o, "bins", b);
	}
	return o;
}

static json_object *json_zero_lat(void)
{
	json_object *o = json_object_new_object();

	jint(o, "min", 0);
	jint(o, "max", 0);
	jdbl(o, "mean", 0.0);
	jdbl(o, "stddev", 0.0);
	jint(o, "N", 0);
	return o;
}

/* ssdload: a rate-controlled direction's target and how far behind it fell */
static json_object *json_rate(const struct ssl_report *r, const struct ssl_rate_stats *rs)
{
	json_object *o = json_object_new_object();

	jint(o, "iops_target", (int64_t)rs->iops);
	jint(o, "bps_target", (int64_t)rs->bps);
	if (r->sum->rate_process[0])
		jstr(o, "process", r->sum->rate_process);
	jint(o, "late_ios", (int64_t)rs->late_ios);
	jopt(o, "late_threshold_ns", &r->sum->late_threshold_ns);
	if (rs->no_behind)
		return o;
	jint(o, "behind_ns", (int64_t)rs->behind_ns);
	jint(o, "behind_ios", (int64_t)rs->behind_ios);
	jint(o, "behind_bytes", (int64_t)rs->behind_bytes);
	json_object_object_add(o, "fell_behind",
			       json_object_new_boolean(rs->behind_ios || rs->behind_bytes));
	return o;
}

/*
 * bw_* and iops_*: fio's figures of the per-interval samples (see
 * job_samples()); without samples (no time series) fio's own form for a
 * job that took none: zeros, and 0 samples.
 */
static void json_samples(json_object *o, const struct dir_view *v)
{
	uint64_t min = 0, max = 0;
	double mean = 0.0, dev = 0.0, per = 0.0;

	if (rep_io_stat_calc(&v->bw_stat, &min, &max, &mean, &dev))
		per = rep_agg_percent(v->agg_bytes, mean);
	jint(o, "bw_min", (int64_t)min);
	jint(o, "bw_max", (int64_t)max);
	jdbl(o, "bw_agg", per);
	jdbl(o, "bw_mean", mean);
	jdbl(o, "bw_dev", dev);
	jint(o, "bw_samples", (int64_t)v->bw_stat.samples);
	if (!rep_io_stat_calc(&v->iops_stat, &min, &max, &mean, &dev)) {
		min = 0;
		max = 0;
		mean = 0.0;
		dev = 0.0;
	}
	jint(o, "iops_min", (int64_t)min);
	jint(o, "iops_max", (int64_t)max);
	jdbl(o, "iops_mean", mean);
	jdbl(o, "iops_stddev", dev);
	jint(o, "iops_samples", (int64_t)v->iops_stat.samples);
}

static json_object *json_dir(const struct ssl_report *r, const struct dir_view *v)
{
	json_object *o = json_object_new_object();
	int64_t bw_kib = (int64_t)(v->bw_bytes / 1024);

	jint(o, "io_bytes", (int64_t)v->bytes);
	jint(o, "io_kbytes", (int64_t)(v->bytes / 1024));
	jint(o, "bw_bytes", (int64_t)v->bw_bytes);
	jint(o, "bw", bw_kib);
	jdbl(o, "iops", v->iops);
	jint(o, "runtime", (int64_t)v->runtime_ms);
	jint(o, "total_ios", (int64_t)v->ios);
	jint(o, "short_ios", 0);
	jint(o, "drop_ios", 0);
	json_object_object_add(o, "slat_ns", json_zero_lat());
	if (r) {
		json_object_object_add(o, "clat_ns", json_lat(r, v));
		json_object_object_add(o, "lat_ns", json_lat(r, v));
		if (v->intended) {
			json_object_object_add(o, "lat_from_intended_ns",
					       json_lat(r, v->intended));
			json_object_object_add(o, "rate", json_rate(r, v->rate));
		}
	} else {
		json_object_object_add(o, "clat_ns", json_zero_lat());
		json_object_object_add(o, "lat_ns", json_zero_lat());
	}
	json_samples(o, v);
	return o;
}

static json_object *json_dist(const char *const *keys, const double *vals, int nr)
{
	json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < nr; i++)
		jdbl(o, keys[i], vals ? vals[i] : 0.0);
	return o;
}

static void jopt(json_object *o, const char *k, const struct ssl_opt_u64 *v)
{
	if (!v->have)
		return;
#if defined(JSON_C_VERSION_NUM) && JSON_C_VERSION_NUM >= ((0 << 16) | (14 << 8))
	json_object_object_add(o, k, json_object_new_uint64(v->v));
#else
	jint(o, k, (int64_t)v->v);
#endif
}

/* one worker's own figures (jobs[].ssdload.workers[] and clones) */
static json_object *json_worker(const struct ssl_summary *s, unsigned int i)
{
	const struct ssl_worker *w = &s->worker[i];
	json_object *wo = json_object_new_object();
	char key[32];
	int d;

	jint(wo, "cpu", w->cpu);
	if (w->ran_on)
		jstr(wo, "ran_on", w->ran_on);
	jopt(wo, "pid", &w->pid);
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		if (d == SSDLOAD_DIR_TRIM && !s->have_trim)
			continue;
		snprintf(key, sizeof(key), "%s_ios", rep_dir_names[d]);
		jint(wo, key, (int64_t)w->ios[d]);
		snprintf(key, sizeof(key), "%s_errors", rep_dir_names[d]);
		jint(wo, key, (int64_t)w->errors[d]);
		snprintf(key, sizeof(key), "%s_bytes", rep_dir_names[d]);
		jopt(wo, key, &w->bytes[d]);
	}
	jopt(wo, "cpu_ns", &w->cpu_ns);
	jopt(wo, "ctx", &w->ctx);
	return wo;
}

/* jobs[].ssdload.devices[]: each device's span and counts */
static json_object *json_devices(const struct ssl_summary *s)
{
	json_object *arr = json_object_new_array();
	unsigned int i;
	int d;

	for (i = 0; i < s->nr_dev; i++) {
		const struct ssl_device *dv = &s->dev[i];
		json_object *o = json_object_new_object();

		jstr(o, "name", dv->name);
		jint(o, "span_start", (int64_t)dv->span_start);
		jint(o, "span_bytes", (int64_t)dv->span_bytes);
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			json_object *x = json_object_new_object();

			jint(x, "ios", (int64_t)dv->ios[d]);
			jint(x, "bytes", (int64_t)dv->bytes[d]);
			jint(x, "errors", (int64_t)dv->errors[d]);
			jint(x, "done", (int64_t)dv->done[d]);
			jdbl(x, "lat_mean_ns", ssl_mean(dv->lat_sum_ns[d], dv->ios[d]));
			json_object_object_add(o, rep_dir_names[d], x);
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

/*
 * ssdload's own results, outside fio's schema: jobs[0].ssdload.  A key
 * the module did not print (an older module) is left out.
 */
/*
 * The geometry of every histogram of the result (uapi): results merge
 * bucket by bucket only when it is the same (ssdload merge).
 */
static json_object *json_hist_geometry(void)
{
	json_object *o = json_object_new_object();

	jint(o, "version", SSDLOAD_HIST_VERSION);
	jint(o, "sub_bits", SSDLOAD_HIST_SUB_BITS);
	jint(o, "max_shift", SSDLOAD_HIST_MAX_SHIFT);
	jint(o, "buckets", SSDLOAD_HIST_BUCKETS);
	return o;
}

static json_object *json_ssdload(const struct ssl_summary *s, int with_devices)
{
	json_object *o = json_object_new_object(), *workers;
	char host[256] = "";
	unsigned int i;

	jstr(o, "state", s->state);
	json_object_object_add(o, "histogram", json_hist_geometry());
	if (!gethostname(host, sizeof(host) - 1))
		jstr(o, "hostname", host);
	jopt(o, "hipri", &s->hipri);
	jopt(o, "polled", &s->polled);
	if (s->poll_fallback[0])
		jstr(o, "poll_fallback", s->poll_fallback);
	jopt(o, "split_ios", &s->split_ios);
	jopt(o, "nowait_retries", &s->nowait_retries);
	jopt(o, "io_timeout_ms", &s->io_timeout_ms);
	jopt(o, "timed_out_ios", &s->timed_out_ios);
	jopt(o, "randseed", &s->randseed);
	jopt(o, "numjobs", &s->numjobs);
	jopt(o, "bs_min", &s->bs_min);
	jopt(o, "bs_max", &s->bs_max);
	jopt(o, "blockalign", &s->blockalign);
	jopt(o, "cpu_ns", &s->cpu_ns);
	jopt(o, "usr_cpu_ns", &s->usr_cpu_ns);
	jopt(o, "sys_cpu_ns", &s->sys_cpu_ns);
	jopt(o, "cpu_ns_per_io", &s->cpu_ns_per_io);
	jopt(o, "start_real_ns", &s->start_real_ns);
	if (s->start_at.have && s->start_at.v) {
		jopt(o, "start_at", &s->start_at);
		jopt(o, "first_submit_real_ns", &s->first_submit_real_ns);
		if (s->have_start_error)
			jint(o, "start_error_ns", s->start_error_ns);
	}
	jopt(o, "think_ns", &s->think_ns);
	jopt(o, "think_pauses", &s->think_pauses);
	jopt(o, "fua_writes", &s->fua_writes);
	jopt(o, "barrier_writes", &s->barrier_writes);
	workers = json_object_new_array();
	for (i = 0; i < s->nr_worker; i++)
		json_object_array_add(workers, json_worker(s, i));
	json_object_object_add(o, "workers", workers);
	if (with_devices && s->nr_dev)
		json_object_object_add(o, "devices", json_devices(s));
	return o;
}

/*
 * ssdload's time series (log_interval_ms): jobs[].time_series.  An
 * interval of several records (the workers' records of one index) sums
 * their counts, takes the smallest minimum and largest maximum, and
 * spans from the earliest start to the latest end; with log_hist its
 * percentiles come from the sum of the records' histogram deltas.
 */
static const double series_pct[] = { 50.0, 90.0, 99.0, 99.9 };
static const char *const series_pct_keys[] = { "p50", "p90", "p99", "p99.9" };

/* the directions shown: those with I/O or errors, or rate controlled */
static unsigned int series_dirs(const struct ssl_report *r)
{
	const struct ssl_series *ser = r->series;
	unsigned int mask = 0;
	uint64_t i;
	int d;

	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		if (results_dir_rated(r->sum, d))
			mask |= 1U << d;
	for (i = 0; i < ser->hdr.nr_records; i++)
		for (d = 0; d < SSDLOAD_DIR_NR; d++)
			if (ser->rec[i].dir[d].ios || ser->rec[i].dir[d].errors)
				mask |= 1U << d;
	return mask;
}

static int cmp_bucket(const void *a, const void *b)
{
	uint32_t x = ((const struct ssl_bucket *)a)->idx;
	uint32_t y = ((const struct ssl_bucket *)b)->idx;

	return x < y ? -1 : x > y;
}

/* percentiles of the summed deltas of direction @d of @n records */
static json_object *json_interval_pct(const struct ssl_series_rec *const *recs,
				      size_t n, int d, uint64_t min, uint64_t max)
{
	uint64_t out[ARRAY_SIZE(series_pct)];
	unsigned long cap = 0, nb = 0;
	struct ssl_bucket *b;
	json_object *o;
	size_t i;
	long k;

	for (i = 0; i < n; i++)
		cap += recs[i]->dir[d].hist_len / 2;
	b = malloc((cap ? cap : 1) * sizeof(*b));
	if (!b)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct ssl_series_dir *x = &recs[i]->dir[d];

		if (!x->hist_len)
			continue;
		k = ssl_delta_decode(x->hist, x->hist_len, SSDLOAD_HIST_BUCKETS,
				     b + nb, cap - nb);
		if (k > 0)
			nb += (unsigned long)k;
	}
	if (n > 1)
		qsort(b, nb, sizeof(*b), cmp_bucket);
	ssl_sparse_percentiles(b, nb, series_pct, ARRAY_SIZE(series_pct), min, max, out);
	free(b);
	o = json_object_new_object();
	for (i = 0; i < ARRAY_SIZE(series_pct); i++)
		jint(o, series_pct_keys[i], (int64_t)out[i]);
	return o;
}

/* one interval: the merge of @n records (one worker's, or one per worker) */
static json_object *json_interval(const struct ssl_report *r,
				  const struct ssl_series_rec *const *recs, size_t n,
				  unsigned int dirs)
{
	json_object *o = json_object_new_object();
	uint64_t start = UINT64_MAX, end = 0;
	uint32_t flags = 0;
	size_t i;
	int d;

	for (i = 0; i < n; i++) {
		if (recs[i]->start_ns < start)
			start = recs[i]->start_ns;
		if (recs[i]->end_ns > end)
			end = recs[i]->end_ns;
		flags |= recs[i]->flags;
	}
	jdbl(o, "t_start_ms", (double)start / 1e6);
	jdbl(o, "t_end_ms", (double)end / 1e6);
	/* with steps: the step worker 0 (which runs every step) was in at the close */
	if (rep_have_steps(r))
		jint(o, "step", recs[0]->step);
	if (flags & SSDLOAD_SERIES_HIST_CARRIED)
		json_object_object_add(o, "hist_carried", json_object_new_boolean(1));
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		uint64_t ios = 0, bytes = 0, errors = 0, min = 0, max = 0, sum = 0;
		uint64_t isum = 0, late = 0, len = 0;
		double secs = end > start ? (double)(end - start) / 1e9 : 0.0;
		json_object *x, *p;

		if (!(dirs & (1U << d)))
			continue;
		for (i = 0; i < n; i++) {
			const struct ssl_series_dir *y = &recs[i]->dir[d];

			ios += y->ios;
			bytes += y->bytes;
			errors += y->errors;
			sum += y->lat_sum_ns;
			isum += y->intended_lat_sum_ns;
			late += y->late_ios;
			len += y->hist_len;
			if (y->ios && (!min || y->lat_min_ns < min))
				min = y->lat_min_ns;
			if (y->lat_max_ns > max)
				max = y->lat_max_ns;
		}
		x = json_object_new_object();
		jint(x, "ios", (int64_t)ios);
		jint(x, "bytes", (int64_t)bytes);
		if (errors)
			jint(x, "errors", (int64_t)errors);
		jdbl(x, "iops", secs > 0 ? (double)ios / secs : 0.0);
		jint(x, "bw_bytes", secs > 0 ? (int64_t)((double)bytes / secs) : 0);
		jdbl(x, "lat_mean_ns", ssl_mean(sum, ios));
		jint(x, "lat_min_ns", (int64_t)min);
		jint(x, "lat_max_ns", (int64_t)max);
		if (results_dir_rated(r->sum, d)) {
			jint(x, "late_ios", (int64_t)late);
			jdbl(x, "lat_from_intended_mean_ns", ssl_mean(isum, ios));
		}
		if (r->series->hdr.log_hist && ios && len) {
			p = json_interval_pct(recs, n, d, min, max);
			if (p)
				json_object_object_add(x, "clat_percentiles", p);
		}
		json_object_object_add(o, rep_dir_names[d], x);
	}
	return o;
}

/* the records of worker @w, one interval each, in order */
static json_object *json_worker_intervals(const struct ssl_report *r, uint32_t w,
					  unsigned int dirs)
{
	const struct ssl_series *ser = r->series;
	json_object *arr = json_object_new_array();
	uint64_t i;

	for (i = 0; i < ser->hdr.nr_records; i++) {
		const struct ssl_series_rec *rec = &ser->rec[i];

		if (rec->worker == w)
			json_object_array_add(arr, json_interval(r, &rec, 1, dirs));
	}
	return arr;
}

/*
 * jobs[].time_series: @worker < 0 for the job (intervals merged over the
 * workers by record index, and per_worker), else that worker's own.
 */
static json_object *json_time_series(const struct ssl_report *r, long worker)
{
	const struct ssl_series *ser = r->series;
	unsigned int dirs = series_dirs(r);
	const struct ssl_series_rec **sorted;
	json_object *o, *arr, *pw;
	uint64_t n = ser->hdr.nr_records, i, j;
	uint32_t w;

	o = json_object_new_object();
	jint(o, "interval_ms", (int64_t)(ser->hdr.interval_ns / 1000000));
	jint(o, "log_hist", (int64_t)ser->hdr.log_hist);
	if (worker >= 0) {
		jint(o, "worker", worker);
		json_object_object_add(o, "intervals",
				       json_worker_intervals(r, (uint32_t)worker, dirs));
		return o;
	}
	jint(o, "workers", (int64_t)ser->hdr.nr_workers);
	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!sorted) {
		json_object_put(o);
		return NULL;
	}
	for (i = 0; i < n; i++)
		sorted[i] = &ser->rec[i];
	qsort(sorted, n, sizeof(*sorted), rep_cmp_rec_index);
	arr = json_object_new_array();
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && sorted[j]->index == sorted[i]->index; j++)
			;
		json_object_array_add(arr, json_interval(r, sorted + i, j - i, dirs));
	}
	free(sorted);
	json_object_object_add(o, "intervals", arr);
	pw = json_object_new_array();
	for (w = 0; w < ser->hdr.nr_workers; w++) {
		json_object *x = json_object_new_object();

		jint(x, "worker", w);
		json_object_object_add(x, "intervals", json_worker_intervals(r, w, dirs));
		json_object_array_add(pw, x);
	}
	json_object_object_add(o, "per_worker", pw);
	return o;
}

/* a read,write,trim triple as a JSON array */
static json_object *json_triple(const uint64_t v[3])
{
	json_object *a = json_object_new_array();
	int d;

	for (d = 0; d < 3; d++)
		json_object_array_add(a, json_object_new_int64((int64_t)v[d]));
	return a;
}

/* the parameters a step ran with (the job's where it inherits them) */
static json_object *json_step_params(const struct ssdload_steps_rec *rec)
{
	json_object *o = json_object_new_object();

	jstr(o, "rw", rep_step_rw_name(rec->rw));
	jint(o, "rwmixread", rec->rwmixread);
	jint(o, "iodepth", rec->iodepth);
	jint(o, "numjobs", rec->numjobs);	/* the workers that issued */
	jint(o, "bs_min", rec->bs_min);
	jint(o, "bs_max", rec->bs_max);
	if (rec->blockalign)	/* 0: a module that does not say */
		jint(o, "blockalign", rec->blockalign);
	jint(o, "runtime_ms", (int64_t)rec->runtime_ms);
	jint(o, "ramp_ms", (int64_t)rec->ramp_ms);
	jint(o, "number_ios", (int64_t)rec->number_ios);
	json_object_object_add(o, "rate_iops", json_triple((const uint64_t *)rec->rate_iops));
	json_object_object_add(o, "rate", json_triple((const uint64_t *)rec->rate));
	return o;
}

/*
 * jobs[].steps: one entry per step, in the order they ran, each with its
 * parameters, measured time, gap, and read/write/trim objects shaped as
 * the job's own (summed over the workers and loops).
 */
static json_object *json_steps(const struct ssl_report *r)
{
	const struct ssl_steps *st = r->steps;
	json_object *arr = json_object_new_array();
	struct step_dir sd;
	uint32_t i;
	int d;

	for (i = 0; i < st->hdr.nr_steps; i++) {
		const struct ssl_step *sp = &st->step[i];
		const struct ssdload_steps_rec *rec = &sp->rec;
		json_object *o = json_object_new_object(), *gap;

		jint(o, "step", rec->step);
		jint(o, "idle_ms", (int64_t)rec->idle_ms);
		jint(o, "loops_done", rec->loops_done);
		json_object_object_add(o, "params", json_step_params(rec));
		jint(o, "runtime_ns", (int64_t)rec->runtime_ns);
		gap = json_object_new_object();
		jint(gap, "max", (int64_t)rec->gap_max_ns);
		jdbl(gap, "mean", ssl_mean(rec->gap_sum_ns, rec->gaps));
		jint(gap, "count", (int64_t)rec->gaps);
		json_object_object_add(o, "gap_ns", gap);
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			json_object *x;

			rep_step_dir_view(r, sp, d, &sd);
			x = json_dir(r, &sd.v);
			jint(x, "errors", (int64_t)rec->dir[d].errors);
			json_object_object_add(o, rep_dir_names[d], x);
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

/* jobname ... "job options": the keys every entry starts with */
static json_object *json_job_head(const struct ssl_report *r)
{
	json_object *job = json_object_new_object(), *opts;
	uint64_t elapsed_ns = r->sum->ramp_ns + r->sum->runtime_ns;
	int i;

	jstr(job, "jobname", r->name);
	jint(job, "groupid", 0);
	jint(job, "error", -r->sum->error);
	jint(job, "eta", 0);
	jint(job, "elapsed", (int64_t)((elapsed_ns + 500000000) / 1000000000));
	opts = json_object_new_object();
	/* fio leaves out the flags given bare (time_based, group_reporting) */
	for (i = 0; i < r->nopts; i++)
		if (!r->opts[i].global && *r->opts[i].val)
			jstr(opts, r->opts[i].key, r->opts[i].val);
	if (json_object_object_length(opts))	/* fio: none, no key */
		json_object_object_add(job, "job options", opts);
	else
		json_object_put(opts);
	return job;
}

/*
 * A clone's "sync" (@w: its worker): its own flushes, as each of fio's
 * clones counts its own; count and min/mean/max, as its directions (the
 * module keeps no per-worker histogram).  Zeros from a module that
 * keeps flushes per job only.
 */
static json_object *json_clone_sync(const struct ssl_worker *w)
{
	json_object *sync = json_object_new_object(), *lat;
	uint64_t n = w->sync_ios.have ? w->sync_ios.v : 0;

	jint(sync, "total_ios", (int64_t)n);
	if (!n || !w->sync_lat_min_ns.have || !w->sync_lat_max_ns.have ||
	    !w->sync_lat_sum_ns.have) {
		json_object_object_add(sync, "lat_ns", json_zero_lat());
		return sync;
	}
	lat = json_object_new_object();
	jint(lat, "min", (int64_t)w->sync_lat_min_ns.v);
	jint(lat, "max", (int64_t)w->sync_lat_max_ns.v);
	jdbl(lat, "mean", ssl_mean(w->sync_lat_sum_ns.v, n));
	jint(lat, "N", (int64_t)n);
	json_object_object_add(sync, "lat_ns", lat);
	return sync;
}

/*
 * fio's "sync" object: the flushes (fsync, end_fsync), their count and
 * latency with fio's keys (percentiles and json+ bins as the directions').
 */
static json_object *json_sync(const struct ssl_report *r)
{
	json_object *sync = json_object_new_object();
	struct dir_view v;

	rep_sync_view(r, &v);
	jint(sync, "total_ios", (int64_t)v.ios);
	json_object_object_add(sync, "lat_ns", v.n ? json_lat(r, &v) : json_zero_lat());
	return sync;
}

/*
 * fio's iodepth_level, iodepth_submit and iodepth_complete, measured by
 * the module (@depth: the job's or a worker's; @submit and @complete:
 * the job's, NULL for a worker); a map the module did not give is left
 * out, not assumed.
 */
static void json_iodepth(json_object *job, const struct ssl_depth_map *depth,
			 const struct ssl_depth_map *submit,
			 const struct ssl_depth_map *complete)
{
	double pct[SSDLOAD_DEPTH_NR];

	if (rep_depth_pct(depth, pct))
		json_object_object_add(job, "iodepth_level",
				       json_dist(rep_depth_keys, pct, SSDLOAD_DEPTH_NR));
	if (submit && rep_depth_pct(submit, pct))
		json_object_object_add(job, "iodepth_submit",
				       json_dist(rep_batch_keys, pct, SSDLOAD_DEPTH_NR));
	if (complete && rep_depth_pct(complete, pct))
		json_object_object_add(job, "iodepth_complete",
				       json_dist(rep_batch_keys, pct, SSDLOAD_DEPTH_NR));
}

static void json_latency_target(const struct ssl_report *r, json_object *job)
{
	jint(job, "latency_depth", (int64_t)(r->iodepth ? r->iodepth : 1));
	jint(job, "latency_target", 0);
	jdbl(job, "latency_percentile", 100.0);
	jint(job, "latency_window", 0);
}

/* fio's "steadystate" object (stat.c, fio 3.33); NULL if out of memory */
static json_object *json_ss(const struct ssl_fio_ss *ss)
{
	json_object *o, *data, *ai, *ab;
	uint64_t *iops, *bws;
	char buf[64];
	unsigned int i;

	iops = calloc(ss->dur, sizeof(*iops));
	bws = calloc(ss->dur, sizeof(*bws));
	o = json_object_new_object();
	data = json_object_new_object();
	ai = json_object_new_array();
	ab = json_object_new_array();
	if (!iops || !bws || !o || !data || !ai || !ab) {
		free(iops);
		free(bws);
		json_object_put(o);
		json_object_put(data);
		json_object_put(ai);
		json_object_put(ab);
		return NULL;
	}
	ssl_fio_ss_spec(ss, buf, sizeof(buf));
	jstr(o, "ss", buf);
	jint(o, "duration", ss->dur);
	jint(o, "attained", ss->attained);
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)ss->criterion, ss->pct ? "%" : "");
	jstr(o, "criterion", buf);
	jdbl(o, "max_deviation", ss->deviation);
	jdbl(o, "slope", ss->slope);
	ssl_fio_ss_window(ss, iops, bws);
	for (i = 0; i < ss->dur; i++) {
		json_object_array_add(ab, json_object_new_int64((int64_t)bws[i]));
		json_object_array_add(ai, json_object_new_int64((int64_t)iops[i]));
	}
	free(iops);
	free(bws);
	jint(data, "bw_mean", (int64_t)ssl_fio_ss_mean(ss, 1));
	jint(data, "iops_mean", (int64_t)ssl_fio_ss_mean(ss, 0));
	json_object_object_add(data, "iops", ai);
	json_object_object_add(data, "bw", ab);
	json_object_object_add(o, "data", data);
	return o;
}

/* the steadystate object into @job, and when it was reached into @ext */
static int json_add_ss(const struct ssl_report *r, json_object *job, json_object *ext)
{
	json_object *o;

	if (!r->ss || !r->ss->dur)
		return 0;
	o = json_ss(r->ss);
	if (!o)
		return -1;
	json_object_object_add(job, "steadystate", o);
	if (r->ss->attained)
		jint(ext, "steadystate_attained_s", (int64_t)r->ss->attained_s);
	return 0;
}

static json_object *json_job(const struct ssl_report *r,
			     const struct dir_view v[SSDLOAD_DIR_NR])
{
	double ns[SSL_LAT_NS_NR] = { 0 }, us[SSL_LAT_US_NR] = { 0 };
	double ms[SSL_LAT_MS_NR] = { 0 };
	uint64_t all = v[0].n + v[1].n + v[2].n;
	const struct ssl_summary *s = r->sum;
	json_object *job = json_job_head(r), *ext, *vfy;
	int d;

	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		json_object_object_add(job, rep_dir_names[d], json_dir(r, &v[d]));
	json_object_object_add(job, "sync", json_sync(r));
	jint(job, "job_runtime", (int64_t)((r->sum->runtime_ns * group_threads(r->sum) +
					    500000) / 1000000));
	if (s->cpu_ns.have) {
		jdbl(job, "usr_cpu", rep_cpu_pct(s, s->usr_cpu_ns.v, s->workers));
		jdbl(job, "sys_cpu", rep_cpu_pct(s, s->sys_cpu_ns.have ? s->sys_cpu_ns.v :
					     s->cpu_ns.v - s->usr_cpu_ns.v, s->workers));
	} else {
		jdbl(job, "usr_cpu", 0.0);
		jdbl(job, "sys_cpu", 0.0);
	}
	jint(job, "ctx", (int64_t)s->ctx.v);
	jint(job, "majf", 0);
	jint(job, "minf", 0);

	json_iodepth(job, &s->depth, &s->submit, &s->complete);
	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		if (v[d].counts)
			ssl_hist_lat_dist(v[d].counts, SSDLOAD_HIST_BUCKETS, all,
					  ns, us, ms);
	json_object_object_add(job, "latency_ns",
			       json_dist(ssl_lat_ranges, ns, SSL_LAT_NS_NR));
	json_object_object_add(job, "latency_us",
			       json_dist(ssl_lat_ranges, us, SSL_LAT_US_NR));
	json_object_object_add(job, "latency_ms",
			       json_dist(ssl_lat_ranges, ms, SSL_LAT_MS_NR));
	json_latency_target(r, job);
	rep_verify_fio_keys(job, r);
	ext = json_ssdload(r->sum, 1);
	json_object_object_add(job, "ssdload", ext);
	if ((vfy = rep_verify_json(r->verify)))
		json_object_object_add(ext, "verify", vfy);
	if (json_add_ss(r, job, ext)) {
		json_object_put(job);
		return NULL;
	}
	if (r->series && r->series->present) {
		json_object *ts = json_time_series(r, -1);

		if (!ts) {
			json_object_put(job);
			return NULL;
		}
		json_object_object_add(job, "time_series", ts);
	}
	if (rep_have_steps(r))
		json_object_object_add(job, "steps", json_steps(r));
	return job;
}

/*
 * One clone of a numjobs > 1 job (fio's entries without group_reporting),
 * from worker @i's own keys: counts, bytes, rates, latency min/mean/max.
 * What the module does not keep per worker (latency stddev, percentiles,
 * the latency distribution, user/system CPU split) is left out.
 */
static json_object *json_clone_dir(const struct ssl_report *r, const struct ssl_worker *w,
				   int d, const struct dir_view *sv)
{
	json_object *o = json_object_new_object(), *lat;
	uint64_t rt = r->sum->runtime_ns, ios = w->ios[d], bw = 0;
	double iops = 0.0;
	int k;

	if (rt && (ios || w->errors[d])) {
		iops = (double)ios * 1e9 / (double)rt;
		if (w->bytes[d].have)
			bw = (uint64_t)((long double)w->bytes[d].v * 1e9L / (long double)rt);
	}
	if (w->bytes[d].have) {
		jint(o, "io_bytes", (int64_t)w->bytes[d].v);
		jint(o, "io_kbytes", (int64_t)(w->bytes[d].v / 1024));
		jint(o, "bw_bytes", (int64_t)bw);
		jint(o, "bw", (int64_t)(bw / 1024));
	}
	jdbl(o, "iops", iops);
	jint(o, "runtime", rt && (ios || w->errors[d]) ? (int64_t)((rt + 500000) / 1000000) : 0);
	jint(o, "total_ios", (int64_t)ios);
	jint(o, "short_ios", 0);
	jint(o, "drop_ios", 0);
	json_object_object_add(o, "slat_ns", json_zero_lat());
	for (k = 0; k < 2; k++) {
		lat = json_object_new_object();
		if (ios && w->lat_min_ns[d].have && w->lat_max_ns[d].have &&
		    w->lat_sum_ns[d].have) {
			jint(lat, "min", (int64_t)w->lat_min_ns[d].v);
			jint(lat, "max", (int64_t)w->lat_max_ns[d].v);
			jdbl(lat, "mean", ssl_mean(w->lat_sum_ns[d].v, ios));
		} else if (!ios) {
			jint(lat, "min", 0);
			jint(lat, "max", 0);
			jdbl(lat, "mean", 0.0);
		}
		jint(lat, "N", (int64_t)ios);
		json_object_object_add(o, k ? "lat_ns" : "clat_ns", lat);
	}
	json_samples(o, sv);	/* the worker's own records */
	return o;
}

/*
 * The clones' rate control: job-wide (the module keeps no per-worker
 * intended latency), once, in the first entry's ssdload object.
 */
static json_object *json_clone_rate(const struct ssl_report *r,
				    const struct dir_view v[SSDLOAD_DIR_NR])
{
	json_object *o = NULL, *x;
	int d;

	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		if (!v[d].intended)
			continue;
		if (!o)
			o = json_object_new_object();
		x = json_rate(r, v[d].rate);
		json_object_object_add(x, "lat_from_intended_ns", json_lat(r, v[d].intended));
		json_object_object_add(o, rep_dir_names[d], x);
	}
	return o;
}

static json_object *json_clone(const struct ssl_report *r, unsigned int i,
			       const struct dir_view v[SSDLOAD_DIR_NR])
{
	const struct ssl_worker *w = &r->sum->worker[i];
	json_object *job = json_job_head(r), *ext, *rate;
	struct dir_view sv[SSDLOAD_DIR_NR];
	int d;

	/* per=: in percent of the group's bandwidth, all clones, as fio's */
	memset(sv, 0, sizeof(sv));
	rep_worker_samples(r, i, sv);
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		sv[d].agg_bytes = v[d].bw_bytes;
		json_object_object_add(job, rep_dir_names[d], json_clone_dir(r, w, d, &sv[d]));
	}
	json_object_object_add(job, "sync", json_clone_sync(w));
	jint(job, "job_runtime", (int64_t)((r->sum->runtime_ns + 500000) / 1000000));
	if (w->ctx.have)
		jint(job, "ctx", (int64_t)w->ctx.v);
	jint(job, "majf", 0);
	jint(job, "minf", 0);
	json_iodepth(job, &w->depth, NULL, NULL);
	json_latency_target(r, job);
	if (i == 0)	/* job-wide: once, in the first entry */
		rep_verify_fio_keys(job, r);
	ext = json_worker(r->sum, i);
	jint(ext, "worker", i);
	jstr(ext, "state", r->sum->state);
	if (i == 0 && r->sum->nr_dev)	/* job-wide: once, in the first entry */
		json_object_object_add(ext, "devices", json_devices(r->sum));
	if (i == 0 && (rate = json_clone_rate(r, v)))
		json_object_object_add(ext, "rate", rate);
	if (i == 0 && (rate = rep_verify_json(r->verify)))
		json_object_object_add(ext, "verify", rate);
	json_object_object_add(job, "ssdload", ext);
	if (json_add_ss(r, job, ext)) {
		json_object_put(job);
		return NULL;
	}
	if (r->series && r->series->present)
		json_object_object_add(job, "time_series", json_time_series(r, i));
	if (i == 0 && rep_have_steps(r))	/* job-wide: once, in the first entry */
		json_object_object_add(job, "steps", json_steps(r));
	return job;
}

/* fio's disk_util: measured from /sys/block/<dev>/stat, else empty */
static json_object *json_disks(const struct ssl_report *r)
{
	json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < r->ndisks; i++) {
		const struct ssl_disk_util *u = &r->disks[i];
		json_object *o = json_object_new_object();

		jstr(o, "name", u->name);
		jint(o, "read_ios", (int64_t)u->ios[0]);
		jint(o, "write_ios", (int64_t)u->ios[1]);
		jint(o, "read_merges", (int64_t)u->merges[0]);
		jint(o, "write_merges", (int64_t)u->merges[1]);
		jint(o, "read_ticks", (int64_t)u->ticks[0]);
		jint(o, "write_ticks", (int64_t)u->ticks[1]);
		jint(o, "in_queue", (int64_t)u->in_queue);
		jdbl(o, "util", u->util);
		json_object_array_add(a, o);
	}
	return a;
}

int rep_print_json(FILE *f, const struct ssl_report *r,
		   const struct dir_view v[SSDLOAD_DIR_NR])
{
	json_object *top = json_object_new_object(), *jobs, *job, *glob;
	char when[64];
	const char *s;
	int o;

	if (!top)
		return -1;
	json_c_set_serialization_double_format("%.6f", JSON_C_OPTION_GLOBAL);
	jstr(top, "fio version", "ssdload-" SSDLOAD_CLI_VERSION);
	jint(top, "timestamp", (int64_t)r->when);
	jint(top, "timestamp_ms", (int64_t)r->when * 1000);
	if (!strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&r->when)))
		when[0] = '\0';
	jstr(top, "time", when);
	/* a job file's [global] options, as fio lists them apart from the job's */
	glob = json_object_new_object();
	for (o = 0; o < r->nopts; o++)
		if (r->opts[o].global && *r->opts[o].val)
			jstr(glob, r->opts[o].key, r->opts[o].val);
	json_object_object_add(top, "global options", glob);
	jobs = json_object_new_array();
	json_object_object_add(top, "jobs", jobs);
	if (json_clones(r)) {
		unsigned int i;

		for (i = 0; i < r->sum->nr_worker; i++)
			json_object_array_add(jobs, json_clone(r, i, v));
	} else {
		job = json_job(r, v);
		if (!job) {
			json_object_put(top);
			return -1;
		}
		json_object_array_add(jobs, job);
	}
	json_object_object_add(top, "disk_util", json_disks(r));
	if (r->lat)
		json_object_object_add(top, "latency_study",
				       ssl_latstudy_json(r->lat, r->sum, r->hist));
	s = json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s) {
		json_object_put(top);
		return -1;
	}
	fprintf(f, "%s\n", s);
	json_object_put(top);
	return 0;
}
