// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload merge: json+ results of many hosts folded into one document of
 * fio's schema, exactly (merge.h).
 *
 * What is exact: counts, bytes, errors and I/O sizes are summed; latency
 * minimum and maximum are the extremes; the mean and standard deviation
 * come from each input's mean, deviation and count (the pooled moments);
 * the histograms are added bucket by bucket, and every percentile and
 * fio's latency distribution are computed from the sum with the same rule
 * as a single run's (core/hist.c).  What is not: the per-interval
 * bandwidth and IOPS statistics of fio's bw_* and iops_* keys, which are
 * the sums of the hosts' (cli.rst, "ssdload merge").
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/util.h"
#include "fio/merge.h"
#include "uapi/ssdload.h"

#define MERGE_MAX_PCT		64	/* percentiles of one latency object */
#define MERGE_NDIR		3	/* read, write, trim */

static const char *const dir_names[MERGE_NDIR] = { "read", "write", "trim" };
static const char *const lat_names[] = { "clat_ns", "lat_ns", "slat_ns" };
#define MERGE_NLAT		(sizeof(lat_names) / sizeof(lat_names[0]))

/* counters of the job's ssdload object that add across hosts */
static const char *const ext_sums[] = {
	"split_ios", "nowait_retries", "timed_out_ios", "cpu_ns", "usr_cpu_ns",
	"sys_cpu_ns", "think_ns", "think_pauses", "fua_writes", "barrier_writes",
};

/* one latency object (fio's clat_ns, lat_ns, slat_ns, sync's lat_ns) */
struct mlat {
	uint64_t n, min, max;
	long double sum, sumsq;		/* the pooled moments */
	uint64_t *counts;		/* SSDLOAD_HIST_BUCKETS, once seen */
};

struct mdir {
	uint64_t io_bytes, total_ios, short_ios, drop_ios, runtime_ms;
	double bw_min, bw_max, bw_mean, bw_dev, iops_min, iops_max, iops_mean,
	       iops_dev;
	uint64_t bw_samples, iops_samples;
	struct mlat lat[MERGE_NLAT];
};

/* one merged interval of the time series */
struct mslot {
	int64_t slot;			/* interval number on the common clock */
	unsigned int hosts;
	struct {
		uint64_t ios, bytes, errors, min, max;
		long double lat_sum;
	} d[MERGE_NDIR];
};

struct mjob {
	char *name;
	json_object *tmpl;		/* the first host's job, its bins removed */
	unsigned int hosts;
	int error;
	uint64_t job_runtime, ctx, majf, minf, elapsed;
	double usr_cpu, sys_cpu;
	uint64_t sync_ios;
	struct mlat sync_lat;
	struct mdir dir[MERGE_NDIR];
	uint64_t ext[sizeof(ext_sums) / sizeof(ext_sums[0])];
	bool all_done;
	/* time series */
	int64_t interval_ms;		/* 0: none yet; -1: refused (mixed) */
	bool wall;			/* every host's start is known */
	bool series_partial;		/* a host had none */
	/* [0]: on each job's own start; [1]: on wall-clock boundaries */
	struct mslot *slots[2];
	size_t nslots[2], cap[2];
};

struct ssl_merge {
	struct mjob *jobs;
	size_t njobs;
	unsigned int count;
	char version[64];
	json_object *top;		/* the first input's top-level keys */
	json_object *disk_util;
	json_object *hosts;
};

static json_object *jget(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static uint64_t ju64(json_object *o, const char *k)
{
	json_object *v = jget(o, k);
	int64_t x = v ? json_object_get_int64(v) : 0;

	return x > 0 ? (uint64_t)x : 0;
}

static double jdouble(json_object *o, const char *k)
{
	json_object *v = jget(o, k);

	return v ? json_object_get_double(v) : 0.0;
}

static void jint(json_object *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void jdbl(json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

struct ssl_merge *ssl_merge_new(void)
{
	struct ssl_merge *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->hosts = json_object_new_array();
	m->disk_util = json_object_new_array();
	if (!m->hosts || !m->disk_util) {
		ssl_merge_free(m);
		return NULL;
	}
	return m;
}

unsigned int ssl_merge_count(const struct ssl_merge *m)
{
	return m->count;
}

/* ---- checks of one input --------------------------------------------- */

static int check_geometry(json_object *job, const char *name, char *why, size_t wlen)
{
	json_object *g = jget(jget(job, "ssdload"), "histogram");

	if (!g)
		return ssl_fail(why, wlen, "job %s has no ssdload.histogram: not a result of "
				"this ssdload, whose histograms cannot be added to ours", name);
	if (ju64(g, "version") != SSDLOAD_HIST_VERSION ||
	    ju64(g, "sub_bits") != SSDLOAD_HIST_SUB_BITS ||
	    ju64(g, "max_shift") != SSDLOAD_HIST_MAX_SHIFT ||
	    ju64(g, "buckets") != SSDLOAD_HIST_BUCKETS)
		return ssl_fail(why, wlen, "job %s: histogram geometry version %" PRIu64
				", sub_bits %" PRIu64 ", max_shift %" PRIu64 ", buckets %"
				PRIu64 " is not this ssdload's (version %u, sub_bits %u, "
				"max_shift %u, buckets %u): merge results of one geometry",
				name, ju64(g, "version"), ju64(g, "sub_bits"),
				ju64(g, "max_shift"), ju64(g, "buckets"),
				SSDLOAD_HIST_VERSION, SSDLOAD_HIST_SUB_BITS,
				SSDLOAD_HIST_MAX_SHIFT, (unsigned int)SSDLOAD_HIST_BUCKETS);
	return 0;
}

/* ---- latency objects -------------------------------------------------- */

/* the bins of @lat (json+) added into a->counts; -1 with @why */
static int bins_fold(struct mlat *a, json_object *lat, uint64_t n, const char *what,
		     char *why, size_t wlen)
{
	json_object *bins = jget(lat, "bins");
	uint64_t total = 0;

	if (!bins || !json_object_is_type(bins, json_type_object))
		return ssl_fail(why, wlen, "%s has no latency bins: merge json+ results "
				"(--output-format=json+), since percentiles cannot be "
				"merged from percentiles", what);
	if (!a->counts) {
		a->counts = calloc(SSDLOAD_HIST_BUCKETS, sizeof(*a->counts));
		if (!a->counts)
			return ssl_fail(why, wlen, "%s", strerror(ENOMEM));
	}
	json_object_object_foreach(bins, k, v) {
		char *end;
		uint64_t val, c;

		errno = 0;
		val = strtoull(k, &end, 10);
		if (errno || end == k || *end || !json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) < 0)
			return ssl_fail(why, wlen, "%s: bin \"%s\" is not a latency in ns with "
					"a count", what, k);
		c = (uint64_t)json_object_get_int64(v);
		a->counts[ssdload_hist_index(val)] += c;
		total += c;
	}
	if (total != n)
		return ssl_fail(why, wlen, "%s: its bins hold %" PRIu64 " I/Os, its N %" PRIu64,
				what, total, n);
	return 0;
}

static int lat_fold(struct mlat *a, json_object *lat, bool need_bins, const char *what,
		    char *why, size_t wlen)
{
	uint64_t n = ju64(lat, "N");
	long double mean, sd;

	if (!lat || !n)
		return 0;
	if (need_bins && bins_fold(a, lat, n, what, why, wlen))
		return -1;
	mean = jdouble(lat, "mean");
	sd = jdouble(lat, "stddev");
	if (!a->n || ju64(lat, "min") < a->min)
		a->min = ju64(lat, "min");
	if (ju64(lat, "max") > a->max)
		a->max = ju64(lat, "max");
	a->n += n;
	a->sum += mean * n;
	a->sumsq += (sd * sd + mean * mean) * n;
	return 0;
}

/* the percentiles of @tmpl's "percentile" keys (fio's "%f" of each) */
static int pct_list(json_object *tmpl, double *pct)
{
	json_object *p = jget(tmpl, "percentile");
	int n = 0;

	if (!p)
		return 0;
	json_object_object_foreach(p, k, v) {
		(void)v;
		if (n < MERGE_MAX_PCT)
			pct[n++] = strtod(k, NULL);
	}
	return n;
}

static json_object *lat_emit(const struct mlat *a, json_object *tmpl)
{
	json_object *o = json_object_new_object();
	double pct[MERGE_MAX_PCT], mean = 0.0, var = 0.0;
	int np = pct_list(tmpl, pct), j;

	if (a->n) {
		mean = (double)(a->sum / a->n);
		var = (double)(a->sumsq / a->n) - mean * mean;
	}
	jint(o, "min", (int64_t)a->min);
	jint(o, "max", (int64_t)a->max);
	jdbl(o, "mean", mean);
	jdbl(o, "stddev", var > 0 ? sqrt(var) : 0.0);
	jint(o, "N", (int64_t)a->n);
	if (!a->n || !a->counts)
		return o;
	if (np) {
		json_object *p = json_object_new_object();

		for (j = 0; j < np; j++) {
			char key[32];

			snprintf(key, sizeof(key), "%f", pct[j]);
			jint(p, key, (int64_t)ssl_hist_percentile(a->counts,
				SSDLOAD_HIST_BUCKETS, pct[j], a->min, a->max));
		}
		json_object_object_add(o, "percentile", p);
	}
	{
		json_object *b = json_object_new_object();
		uint32_t i;

		/* as a single run's json+: the bucket's value within min..max */
		for (i = 0; i < SSDLOAD_HIST_BUCKETS; i++) {
			uint64_t val = ssdload_hist_value(i);
			char key[24];

			if (!a->counts[i])
				continue;
			val = val < a->min ? a->min : val > a->max ? a->max : val;
			snprintf(key, sizeof(key), "%" PRIu64, val);
			jint(b, key, (int64_t)a->counts[i]);
		}
		json_object_object_add(o, "bins", b);
	}
	return o;
}

/* ---- time series ------------------------------------------------------ */

static struct mslot *slot_get(struct mjob *j, int w, int64_t slot)
{
	struct mslot *v = j->slots[w];
	size_t lo = 0, hi = j->nslots[w];

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].slot < slot)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < j->nslots[w] && v[lo].slot == slot)
		return &v[lo];
	if (j->nslots[w] == j->cap[w]) {
		size_t cap = j->cap[w] ? 2 * j->cap[w] : 64;

		v = realloc(j->slots[w], cap * sizeof(*v));
		if (!v)
			return NULL;
		j->slots[w] = v;
		j->cap[w] = cap;
	}
	memmove(&v[lo + 1], &v[lo], (j->nslots[w] - lo) * sizeof(*v));
	memset(&v[lo], 0, sizeof(*v));
	v[lo].slot = slot;
	j->nslots[w]++;
	return &v[lo];
}

static void slot_add(struct mslot *s, json_object *x)
{
	int d;

	s->hosts++;
	for (d = 0; d < MERGE_NDIR; d++) {
		json_object *y = jget(x, dir_names[d]);
		uint64_t ios = ju64(y, "ios");

		if (!y)
			continue;
		s->d[d].ios += ios;
		s->d[d].bytes += ju64(y, "bytes");
		s->d[d].errors += ju64(y, "errors");
		s->d[d].lat_sum += jdouble(y, "lat_mean_ns") * ios;
		if (ios && (!s->d[d].min || ju64(y, "lat_min_ns") < s->d[d].min))
			s->d[d].min = ju64(y, "lat_min_ns");
		if (ju64(y, "lat_max_ns") > s->d[d].max)
			s->d[d].max = ju64(y, "lat_max_ns");
	}
}

/*
 * Intervals of one host's time series onto the common clock: the wall
 * clock when every host's result has its start (ssdload.start_real_ns),
 * else each job's own start.  An interval counts in the slot its start
 * falls in.
 */
static int series_fold(struct mjob *j, json_object *job, char *why, size_t wlen)
{
	json_object *ts = jget(job, "time_series"), *iv;
	uint64_t start_real = ju64(jget(job, "ssdload"), "start_real_ns");
	int64_t ims;
	size_t i, n;

	if (j->interval_ms < 0)
		return 0;
	if (!ts) {
		j->series_partial = true;
		return 0;
	}
	ims = (int64_t)ju64(ts, "interval_ms");
	iv = jget(ts, "intervals");
	if (ims <= 0 || !iv || !json_object_is_type(iv, json_type_array))
		return ssl_fail(why, wlen, "job %s: time_series without interval_ms or "
				"intervals", j->name);
	if (!j->interval_ms) {
		j->interval_ms = ims;
		j->wall = true;
	} else if (j->interval_ms != ims) {
		/* not mergeable interval by interval: leave the series out */
		j->interval_ms = -1;
		return 0;
	}
	if (!start_real)
		j->wall = false;
	n = json_object_array_length(iv);
	/* both clocks while every start is known; the job's own after */
	for (i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(iv, i);
		int64_t t = llround(jdouble(x, "t_start_ms") * 1e6), per = ims * 1000000;
		struct mslot *s = slot_get(j, 0, t >= 0 ? t / per : -1);

		if (s)
			slot_add(s, x);
		if (s && j->wall) {
			s = slot_get(j, 1, (int64_t)((start_real + (uint64_t)(t > 0 ? t : 0)) /
						     (uint64_t)per));
			if (s)
				slot_add(s, x);
		}
		if (!s)
			return ssl_fail(why, wlen, "%s", strerror(ENOMEM));
	}
	return 0;
}

static json_object *series_emit(const struct mjob *j)
{
	json_object *o = json_object_new_object(), *arr = json_object_new_array();
	double secs = (double)j->interval_ms / 1000.0;
	const struct mslot *v = j->slots[j->wall];
	size_t i;
	int d;

	jint(o, "interval_ms", j->interval_ms);
	json_object_object_add(o, "aligned",
			       json_object_new_string(j->wall ? "wall clock" : "job start"));
	if (j->series_partial)
		json_object_object_add(o, "partial", json_object_new_boolean(1));
	for (i = 0; i < j->nslots[j->wall]; i++) {
		const struct mslot *s = &v[i];
		json_object *x = json_object_new_object();

		jdbl(x, "t_start_ms", (double)((s->slot - v[0].slot) * j->interval_ms));
		jdbl(x, "t_end_ms", (double)((s->slot - v[0].slot + 1) * j->interval_ms));
		jint(x, "hosts", s->hosts);
		for (d = 0; d < MERGE_NDIR; d++) {
			json_object *y;

			if (!s->d[d].ios && !s->d[d].errors)
				continue;
			y = json_object_new_object();
			jint(y, "ios", (int64_t)s->d[d].ios);
			jint(y, "bytes", (int64_t)s->d[d].bytes);
			if (s->d[d].errors)
				jint(y, "errors", (int64_t)s->d[d].errors);
			jdbl(y, "iops", (double)s->d[d].ios / secs);
			jint(y, "bw_bytes", (int64_t)((double)s->d[d].bytes / secs));
			jdbl(y, "lat_mean_ns", s->d[d].ios ?
			     (double)(s->d[d].lat_sum / s->d[d].ios) : 0.0);
			jint(y, "lat_min_ns", (int64_t)s->d[d].min);
			jint(y, "lat_max_ns", (int64_t)s->d[d].max);
			json_object_object_add(x, dir_names[d], y);
		}
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "intervals", arr);
	return o;
}

/* ---- jobs ------------------------------------------------------------- */

static void strip_bins(json_object *o)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_del(o, "bins");
	json_object_object_foreach(o, k, v) {
		(void)k;
		strip_bins(v);
	}
}

static struct mjob *job_find(struct ssl_merge *m, const char *name, json_object *job)
{
	struct mjob *j;
	size_t i;

	for (i = 0; i < m->njobs; i++)
		if (!strcmp(m->jobs[i].name, name))
			return &m->jobs[i];
	j = realloc(m->jobs, (m->njobs + 1) * sizeof(*j));
	if (!j)
		return NULL;
	m->jobs = j;
	j = &m->jobs[m->njobs];
	memset(j, 0, sizeof(*j));
	j->name = strdup(name);
	if (json_object_deep_copy(job, &j->tmpl, NULL) || !j->name) {
		free(j->name);
		json_object_put(j->tmpl);
		return NULL;
	}
	strip_bins(j->tmpl);
	json_object_object_del(j->tmpl, "time_series");
	j->all_done = true;
	m->njobs++;
	return j;
}

static int dir_fold(struct mdir *a, json_object *dir, const char *what, char *why,
		    size_t wlen)
{
	char lwhat[192];
	size_t l;

	if (!dir)
		return 0;
	a->io_bytes += ju64(dir, "io_bytes");
	a->total_ios += ju64(dir, "total_ios");
	a->short_ios += ju64(dir, "short_ios");
	a->drop_ios += ju64(dir, "drop_ios");
	if (ju64(dir, "runtime") > a->runtime_ms)
		a->runtime_ms = ju64(dir, "runtime");
	a->bw_min += jdouble(dir, "bw_min");
	a->bw_max += jdouble(dir, "bw_max");
	a->bw_mean += jdouble(dir, "bw_mean");
	a->bw_dev += jdouble(dir, "bw_dev") * jdouble(dir, "bw_dev");
	a->bw_samples += ju64(dir, "bw_samples");
	a->iops_min += jdouble(dir, "iops_min");
	a->iops_max += jdouble(dir, "iops_max");
	a->iops_mean += jdouble(dir, "iops_mean");
	a->iops_dev += jdouble(dir, "iops_stddev") * jdouble(dir, "iops_stddev");
	a->iops_samples += ju64(dir, "iops_samples");
	for (l = 0; l < MERGE_NLAT; l++) {
		snprintf(lwhat, sizeof(lwhat), "%s %s", what, lat_names[l]);
		/* slat: the kernel has no submission latency, and no bins */
		if (lat_fold(&a->lat[l], jget(dir, lat_names[l]), l < 2, lwhat, why, wlen))
			return -1;
	}
	return 0;
}

static void dir_emit(const struct mdir *a, json_object *dir)
{
	double secs = (double)a->runtime_ms / 1000.0;
	size_t l;

	jint(dir, "io_bytes", (int64_t)a->io_bytes);
	jint(dir, "io_kbytes", (int64_t)(a->io_bytes >> 10));
	jint(dir, "bw_bytes", secs > 0 ? (int64_t)((double)a->io_bytes / secs) : 0);
	jint(dir, "bw", secs > 0 ? (int64_t)((double)a->io_bytes / secs / 1024.0) : 0);
	jdbl(dir, "iops", secs > 0 ? (double)a->total_ios / secs : 0.0);
	jint(dir, "runtime", (int64_t)a->runtime_ms);
	jint(dir, "total_ios", (int64_t)a->total_ios);
	jint(dir, "short_ios", (int64_t)a->short_ios);
	jint(dir, "drop_ios", (int64_t)a->drop_ios);
	for (l = 0; l < MERGE_NLAT; l++) {
		json_object *t = jget(dir, lat_names[l]);

		if (t)
			json_object_object_add(dir, lat_names[l], lat_emit(&a->lat[l], t));
	}
	jint(dir, "bw_min", (int64_t)a->bw_min);
	jint(dir, "bw_max", (int64_t)a->bw_max);
	jdbl(dir, "bw_mean", a->bw_mean);
	jdbl(dir, "bw_dev", sqrt(a->bw_dev));
	jint(dir, "bw_samples", (int64_t)a->bw_samples);
	jint(dir, "iops_min", (int64_t)a->iops_min);
	jint(dir, "iops_max", (int64_t)a->iops_max);
	jdbl(dir, "iops_mean", a->iops_mean);
	jdbl(dir, "iops_stddev", sqrt(a->iops_dev));
	jint(dir, "iops_samples", (int64_t)a->iops_samples);
}

static int job_fold(struct mjob *j, json_object *job, char *why, size_t wlen)
{
	json_object *ext = jget(job, "ssdload"), *st;
	char what[160];
	size_t d, k;

	for (d = 0; d < MERGE_NDIR; d++) {
		snprintf(what, sizeof(what), "job %s %s", j->name, dir_names[d]);
		if (dir_fold(&j->dir[d], jget(job, dir_names[d]), what, why, wlen))
			return -1;
	}
	snprintf(what, sizeof(what), "job %s sync lat_ns", j->name);
	j->sync_ios += ju64(jget(job, "sync"), "total_ios");
	if (lat_fold(&j->sync_lat, jget(jget(job, "sync"), "lat_ns"), true, what, why, wlen))
		return -1;
	if (!j->error && ju64(job, "error"))
		j->error = (int)ju64(job, "error");
	j->job_runtime += ju64(job, "job_runtime");
	j->ctx += ju64(job, "ctx");
	j->majf += ju64(job, "majf");
	j->minf += ju64(job, "minf");
	if (ju64(job, "elapsed") > j->elapsed)
		j->elapsed = ju64(job, "elapsed");
	j->usr_cpu += jdouble(job, "usr_cpu");
	j->sys_cpu += jdouble(job, "sys_cpu");
	for (k = 0; k < sizeof(ext_sums) / sizeof(ext_sums[0]); k++)
		j->ext[k] += ju64(ext, ext_sums[k]);
	st = jget(ext, "state");
	if (st && strcmp(json_object_get_string(st), "done"))
		j->all_done = false;
	j->hosts++;
	return series_fold(j, job, why, wlen);
}

static json_object *job_emit(const struct mjob *j)
{
	json_object *job = NULL, *ext, *g;
	double ns[SSL_LAT_NS_NR] = { 0 }, us[SSL_LAT_US_NR] = { 0 }, ms[SSL_LAT_MS_NR] = { 0 };
	uint64_t all = 0, ios = 0;
	size_t d, k;
	int i;

	if (json_object_deep_copy(j->tmpl, &job, NULL))
		return NULL;
	for (d = 0; d < MERGE_NDIR; d++) {
		json_object *dir = jget(job, dir_names[d]);

		if (dir)
			dir_emit(&j->dir[d], dir);
		all += j->dir[d].lat[0].n;
		ios += j->dir[d].total_ios;
	}
	if (jget(job, "sync")) {
		json_object *s = jget(job, "sync");

		jint(s, "total_ios", (int64_t)j->sync_ios);
		if (jget(s, "lat_ns"))
			json_object_object_add(s, "lat_ns", lat_emit(&j->sync_lat,
								    jget(s, "lat_ns")));
	}
	jint(job, "error", j->error);
	jint(job, "elapsed", (int64_t)j->elapsed);
	jint(job, "job_runtime", (int64_t)j->job_runtime);
	jdbl(job, "usr_cpu", j->hosts ? j->usr_cpu / j->hosts : 0.0);
	jdbl(job, "sys_cpu", j->hosts ? j->sys_cpu / j->hosts : 0.0);
	jint(job, "ctx", (int64_t)j->ctx);
	jint(job, "majf", (int64_t)j->majf);
	jint(job, "minf", (int64_t)j->minf);
	for (d = 0; d < MERGE_NDIR; d++)
		if (j->dir[d].lat[0].counts)
			ssl_hist_lat_dist(j->dir[d].lat[0].counts, SSDLOAD_HIST_BUCKETS, all,
					  ns, us, ms);
	{
		json_object *o;

		o = json_object_new_object();
		for (i = 0; i < SSL_LAT_NS_NR; i++)
			jdbl(o, ssl_lat_ranges[i], ns[i]);
		json_object_object_add(job, "latency_ns", o);
		o = json_object_new_object();
		for (i = 0; i < SSL_LAT_US_NR; i++)
			jdbl(o, ssl_lat_ranges[i], us[i]);
		json_object_object_add(job, "latency_us", o);
		o = json_object_new_object();
		for (i = 0; i < SSL_LAT_MS_NR; i++)
			jdbl(o, ssl_lat_ranges[i], ms[i]);
		json_object_object_add(job, "latency_ms", o);
	}
	/* the ssdload object: what adds up across hosts, and the geometry */
	ext = json_object_new_object();
	json_object_object_add(ext, "state",
			       json_object_new_string(j->all_done ? "done" : "partial"));
	g = jget(jget(j->tmpl, "ssdload"), "histogram");
	if (g)
		json_object_object_add(ext, "histogram", json_object_get(g));
	jint(ext, "hosts", j->hosts);
	for (k = 0; k < sizeof(ext_sums) / sizeof(ext_sums[0]); k++)
		if (jget(jget(j->tmpl, "ssdload"), ext_sums[k]))
			jint(ext, ext_sums[k], (int64_t)j->ext[k]);
	if (j->ext[3] && ios)	/* cpu_ns */
		jint(ext, "cpu_ns_per_io", (int64_t)(j->ext[3] / ios));
	json_object_object_add(job, "ssdload", ext);
	if (j->interval_ms > 0 && j->nslots[j->wall])
		json_object_object_add(job, "time_series", series_emit(j));
	return job;
}

/* ---- hosts ------------------------------------------------------------ */

/* one host's own headline figures (no bins, no series: they stay small) */
static json_object *host_entry(json_object *doc, const char *host, const char *source)
{
	json_object *o = json_object_new_object(), *jobs = json_object_new_array();
	json_object *in = jget(doc, "jobs");
	size_t i, n = json_object_array_length(in);
	const char *keep[] = { "io_bytes", "total_ios", "iops", "bw_bytes", "runtime" };

	json_object_object_add(o, "host", json_object_new_string(host));
	json_object_object_add(o, "source", json_object_new_string(source));
	for (i = 0; i < n; i++) {
		json_object *job = json_object_array_get_idx(in, i), *x, *e;
		size_t d, k;

		x = json_object_new_object();
		e = jget(job, "jobname");
		json_object_object_add(x, "jobname", json_object_get(e));
		jint(x, "error", (int64_t)ju64(job, "error"));
		e = jget(jget(job, "ssdload"), "start_real_ns");
		if (e)
			json_object_object_add(x, "start_real_ns", json_object_get(e));
		for (d = 0; d < MERGE_NDIR; d++) {
			json_object *dir = jget(job, dir_names[d]), *y, *c, *cl;

			if (!dir || !ju64(dir, "total_ios"))
				continue;
			y = json_object_new_object();
			for (k = 0; k < sizeof(keep) / sizeof(keep[0]); k++)
				if (jget(dir, keep[k]))
					json_object_object_add(y, keep[k],
							       json_object_get(jget(dir, keep[k])));
			c = jget(dir, "clat_ns");
			if (c) {
				cl = json_object_new_object();
				json_object_object_foreach(c, ck, cv)
					if (strcmp(ck, "bins"))
						json_object_object_add(cl, ck, json_object_get(cv));
				json_object_object_add(y, "clat_ns", cl);
			}
			json_object_object_add(x, dir_names[d], y);
		}
		json_object_array_add(jobs, x);
	}
	json_object_object_add(o, "jobs", jobs);
	return o;
}

int ssl_merge_add(struct ssl_merge *m, json_object *doc, const char *host,
		  const char *source, char *why, size_t wlen)
{
	json_object *jobs = jget(doc, "jobs"), *ver = jget(doc, "fio version"), *du;
	const char *v = ver ? json_object_get_string(ver) : "";
	size_t i, n;

	if (!jobs || !json_object_is_type(jobs, json_type_array) ||
	    !json_object_array_length(jobs))
		return ssl_fail(why, wlen, "no jobs[]: not a result of fio's schema");
	if (strncmp(v, "ssdload-", 8))
		return ssl_fail(why, wlen, "written by %s, not by ssdload: its histograms "
				"have another geometry", *v ? v : "an unknown program");
	if (!m->count) {
		snprintf(m->version, sizeof(m->version), "%s", v);
	} else if (strcmp(m->version, v)) {
		return ssl_fail(why, wlen, "written by %s, the first result by %s: merge "
				"results of one version", v, m->version);
	}
	n = json_object_array_length(jobs);
	/* the geometry of every job first: the common refusal leaves @m as it was */
	for (i = 0; i < n; i++) {
		json_object *job = json_object_array_get_idx(jobs, i);
		json_object *name = jget(job, "jobname");

		if (!name || !json_object_is_type(name, json_type_string))
			return ssl_fail(why, wlen, "jobs[%zu] has no jobname", i);
		if (check_geometry(job, json_object_get_string(name), why, wlen))
			return -1;
	}
	for (i = 0; i < n; i++) {
		json_object *job = json_object_array_get_idx(jobs, i);
		struct mjob *j = job_find(m, json_object_get_string(jget(job, "jobname")),
					  job);

		if (!j)
			return ssl_fail(why, wlen, "%s", strerror(ENOMEM));
		if (job_fold(j, job, why, wlen))
			return -1;
	}
	if (!m->top) {
		json_object_deep_copy(doc, &m->top, NULL);
		if (m->top) {
			json_object_object_del(m->top, "jobs");
			json_object_object_del(m->top, "disk_util");
		}
	}
	du = jget(doc, "disk_util");
	if (du && json_object_is_type(du, json_type_array)) {
		n = json_object_array_length(du);
		for (i = 0; i < n; i++) {
			json_object *e = NULL;

			if (!json_object_deep_copy(json_object_array_get_idx(du, i), &e, NULL)) {
				json_object_object_add(e, "host", json_object_new_string(host));
				json_object_array_add(m->disk_util, e);
			}
		}
	}
	json_object_array_add(m->hosts, host_entry(doc, host, source));
	m->count++;
	return 0;
}

json_object *ssl_merge_doc(struct ssl_merge *m)
{
	json_object *doc = NULL, *jobs;
	size_t i;

	if (!m->top || json_object_deep_copy(m->top, &doc, NULL))
		return NULL;
	jobs = json_object_new_array();
	for (i = 0; i < m->njobs; i++) {
		json_object *job = job_emit(&m->jobs[i]);

		if (!job) {
			json_object_put(jobs);
			json_object_put(doc);
			return NULL;
		}
		json_object_array_add(jobs, job);
	}
	json_object_object_add(doc, "jobs", jobs);
	json_object_object_add(doc, "disk_util", json_object_get(m->disk_util));
	json_object_object_add(doc, "hosts", json_object_get(m->hosts));
	return doc;
}

void ssl_merge_free(struct ssl_merge *m)
{
	size_t i, d, l;

	if (!m)
		return;
	for (i = 0; i < m->njobs; i++) {
		struct mjob *j = &m->jobs[i];

		for (d = 0; d < MERGE_NDIR; d++)
			for (l = 0; l < MERGE_NLAT; l++)
				free(j->dir[d].lat[l].counts);
		free(j->sync_lat.counts);
		free(j->slots[0]);
		free(j->slots[1]);
		free(j->name);
		json_object_put(j->tmpl);
	}
	free(m->jobs);
	json_object_put(m->top);
	json_object_put(m->disk_util);
	json_object_put(m->hosts);
	free(m);
}
