// SPDX-License-Identifier: GPL-2.0
/*
 * Reports in fio's two main formats.  The normal text follows fio 3.x's
 * per-job block; the JSON follows fio's schema (key names and types), so
 * tools that read fio's --output-format=json read ours.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/hist.h"
#include "core/latstudy.h"
#include "fio/report.h"
#include "core/util.h"

const double ssl_default_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0,
	95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};
const int ssl_default_percentiles_nr = ARRAY_SIZE(ssl_default_percentiles);

static const char *const dir_names[SSDLOAD_DIR_NR] = { "read", "write", "trim" };
static const char *const dir_upper[SSDLOAD_DIR_NR] = { "READ", "WRITE", "TRIM" };

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

/*
 * The latency from the intended send time of a rate-controlled direction,
 * as a view: hist_intended_<dir>, or the summary's intended_* figures.
 */
static void intended_view(const struct ssl_report *r, int d, struct dir_view *v)
{
	const struct ssl_rate_stats *rs = &r->sum->dir[d].rate;
	struct ssl_dir_stats ds;

	memset(v, 0, sizeof(*v));
	memset(&ds, 0, sizeof(ds));
	ds.ios = rs->ios;
	ds.lat_min_ns = rs->lat_min_ns;
	ds.lat_mean_ns = rs->lat_mean_ns;
	ds.lat_max_ns = rs->lat_max_ns;
	ds.lat_stddev_ns = rs->lat_stddev_ns;
	ds.lat_sum_ns = rs->lat_sum_ns;
	ds.lat_sumsq_ns2 = rs->lat_sumsq_ns2;
	ds.have_sums = rs->have_sums;
	lat_view(r, r->ihist ? &r->ihist[d] : NULL, &ds, v);
}

static void dir_view(const struct ssl_report *r, int d, struct dir_view *v)
{
	const struct ssl_dir_stats *ds = &r->sum->dir[d];
	uint64_t rt = r->sum->runtime_ns;

	memset(v, 0, sizeof(*v));
	v->ios = ds->ios;
	v->bytes = ds->bytes;
	v->errors = ds->errors;
	lat_view(r, &r->hist[d], ds, v);
	if (rt && (v->ios || v->errors)) {
		v->iops = (double)v->ios * 1e9 / (double)rt;
		v->bw_bytes = (uint64_t)((long double)v->bytes * 1e9L / (long double)rt);
		v->runtime_ms = (rt + 500000) / 1000000;
	}
}

/* ------------------------------------------------------------------ */
/* steps (the debugfs steps file)                                      */

/* One direction of a step, in the shapes lat_view() and the reports read. */
struct step_dir {
	struct ssl_hist h, ih;
	struct ssl_dir_stats ds, ids;
	struct ssl_rate_stats rate;
	struct dir_view v, iv;
};

static int have_steps(const struct ssl_report *r)
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

/* a histogram of a step as an ssl_hist (the header's figures from the record) */
static void step_hist(struct ssl_hist *h, const uint64_t *counts, uint64_t min,
		      uint64_t max, uint64_t sum, uint64_t sumsq_hi, uint64_t sumsq_lo)
{
	if (!counts)
		return;
	h->present = 1;
	h->counts = (uint64_t *)counts;
	h->hdr.nr_buckets = SSDLOAD_HIST_BUCKETS;
	h->hdr.samples = ssl_hist_total(counts, SSDLOAD_HIST_BUCKETS);
	h->hdr.min_ns = min;
	h->hdr.max_ns = max;
	h->hdr.sum_ns = sum;
	h->hdr.sumsq_hi = sumsq_hi;
	h->hdr.sumsq_lo = sumsq_lo;
}

static void step_dir_view(const struct ssl_report *r, const struct ssl_step *st, int d,
			  struct step_dir *sd)
{
	const struct ssdload_steps_rec *rec = &st->rec;
	const struct ssdload_steps_dir *x = &rec->dir[d];
	struct dir_view *v = &sd->v;
	uint64_t rt = rec->runtime_ns;

	memset(sd, 0, sizeof(*sd));
	sd->ds.ios = x->ios;
	sd->ds.bytes = x->bytes;
	sd->ds.errors = x->errors;
	sd->ds.lat_min_ns = x->lat_min_ns;
	sd->ds.lat_max_ns = x->lat_max_ns;
	sd->ds.lat_sum_ns = x->lat_sum_ns;
	sd->ds.lat_sumsq_ns2 = ssl_u128_to_ld(x->lat_sumsq_hi, x->lat_sumsq_lo);
	sd->ds.have_sums = 1;
	step_hist(&sd->h, st->hist[d], x->lat_min_ns, x->lat_max_ns, x->lat_sum_ns,
		  x->lat_sumsq_hi, x->lat_sumsq_lo);
	v->ios = x->ios;
	v->bytes = x->bytes;
	v->errors = x->errors;
	lat_view(r, &sd->h, &sd->ds, v);
	if (rt && (v->ios || v->errors)) {
		v->iops = (double)v->ios * 1e9 / (double)rt;
		v->bw_bytes = (uint64_t)((long double)v->bytes * 1e9L / (long double)rt);
		v->runtime_ms = (rt + 500000) / 1000000;
	}
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
	sd->ids.ios = x->intended_ios;
	sd->ids.lat_min_ns = x->intended_lat_min_ns;
	sd->ids.lat_max_ns = x->intended_lat_max_ns;
	sd->ids.lat_mean_ns = (uint64_t)ssl_mean(x->intended_lat_sum_ns, x->intended_ios);
	step_hist(&sd->ih, st->ihist[d], x->intended_lat_min_ns, x->intended_lat_max_ns,
		  x->intended_lat_sum_ns, 0, 0);
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
static double cpu_pct(const struct ssl_summary *s, uint64_t ns, unsigned int threads)
{
	long double t = (long double)(s->ramp_ns + s->runtime_ns) * (threads ? threads : 1);

	return t > 0 ? (double)((long double)ns * 100.0L / t) : 0.0;
}

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
static int io_stat_calc(const struct io_stat *is, uint64_t *min, uint64_t *max,
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
static double agg_percent(uint64_t agg_bytes, double mean)
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

static int cmp_rec_index(const void *a, const void *b);

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
	qsort(sorted, n, sizeof(*sorted), cmp_rec_index);
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
static void worker_samples(const struct ssl_report *r, uint32_t w,
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
/* normal output                                                       */

/*
 * fio's num2str(): at most @maxlen significant digits, k/M/G or Ki/Mi/Gi,
 * then @unit ("", "B", "B/s")
 */
void ssl_num2str(char *buf, size_t len, uint64_t num, int maxlen, int pow2, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	const char *const *pfx = pow2 ? iec : si;
	const unsigned int thousand = pow2 ? 1024 : 1000;
	unsigned int modulo = (unsigned int)-1, post = 0;
	char tmp[32];
	int carry = 0, room;

	while (post < ARRAY_SIZE(si)) {
		snprintf(tmp, sizeof(tmp), "%" PRIu64, num);
		if ((int)strlen(tmp) <= maxlen)
			break;
		modulo = (unsigned int)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= ARRAY_SIZE(si))
		post = 0;
	snprintf(tmp, sizeof(tmp), "%" PRIu64, num);
	room = maxlen - (int)strlen(tmp) - 1;
	if (modulo == (unsigned int)-1 || room <= 0) {
		if (modulo != (unsigned int)-1 && carry)
			num++;
		snprintf(buf, len, "%" PRIu64 "%s%s", num, pfx[post], unit);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.*f", room, (double)modulo / thousand);
	if (tmp[0] == '1')	/* rounded up to 1.0 */
		snprintf(buf, len, "%" PRIu64 "%s%s", num + 1, pfx[post], unit);
	else
		snprintf(buf, len, "%" PRIu64 ".%s%s%s", num, tmp + 2, pfx[post],
			 unit);
}

/* fio's display_lat(): nsec, or usec/msec when min and mean exceed 1000 */
static void print_lat(FILE *f, const char *name, const struct dir_view *v)
{
	uint64_t min = v->min, max = v->max;
	double mean = v->mean, dev = v->stddev;
	const char *base = "nsec";
	char minp[32], maxp[32];

	if (min > 1000000 && mean > 1000000) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1e6;
		dev /= 1e6;
		base = "msec";
	} else if (min > 1000 && mean > 1000) {
		min /= 1000;
		max /= 1000;
		mean /= 1e3;
		dev /= 1e3;
		base = "usec";
	}
	ssl_num2str(minp, sizeof(minp), min, 6, 0, "");
	ssl_num2str(maxp, sizeof(maxp), max, 6, 0, "");
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n",
		name, base, minp, maxp, mean, dev);
}

/* fio's show_clat_percentiles(): 4 per line, one unit for the block */
static void print_percentiles(FILE *f, const struct ssl_report *r,
			      const char *title, const struct dir_view *v)
{
	uint64_t minv = UINT64_MAX, maxv = 0, div = 1;
	const char *base = "nsec";
	int j;

	if (!r->np || !v->counts)
		return;
	for (j = 0; j < r->np; j++) {
		if (v->pct[j] < minv)
			minv = v->pct[j];
		if (v->pct[j] > maxv)
			maxv = v->pct[j];
	}
	if (minv > 2000000 && maxv > 99999999ULL) {
		div = 1000000;
		base = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		div = 1000;
		base = "usec";
	}
	fprintf(f, "    %s percentiles (%s):\n     |", title, base);
	for (j = 0; j < r->np; j++) {
		int last = j == r->np - 1;
		char fbuf[16];

		if (j && j % 4 == 0)
			fprintf(f, "     |");
		snprintf(fbuf, sizeof(fbuf), r->plist[j] < 10.0 ? " %2.2f" : "%2.2f",
			 r->plist[j]);
		fprintf(f, " %sth=[%5" PRIu64 "]%c", fbuf,
			(v->pct[j] + div - 1) / div, last ? '\n' : ',');
		if (!last && j % 4 == 3)
			fputc('\n', f);
	}
}

static void print_lat_dist(FILE *f, const char *unit, const double *vals, int nr)
{
	int i, shown = 0;

	for (i = 0; i < nr; i++) {
		if (vals[i] < 0.005)	/* fio leaves out what rounds to 0.00% */
			continue;
		if (shown % 5 == 0)
			fprintf(f, "%s  lat (%s)   : ", shown ? "\n" : "", unit);
		else
			fputs(", ", f);
		fprintf(f, "%s=%3.2f%%", ssl_lat_ranges[i], vals[i]);
		shown++;
	}
	if (shown)
		fputc('\n', f);
}

/*
 * fio's bw and iops lines (show_ddir_status()), from the samples: none
 * without them, as fio prints none without samples.
 */
static void print_samples(FILE *f, const struct dir_view *v)
{
	uint64_t min, max;
	double mean, dev, per;
	const char *unit = "KiB";

	if (io_stat_calc(&v->bw_stat, &min, &max, &mean, &dev)) {
		per = agg_percent(v->agg_bytes, mean);
		if (mean > 1024.0 * 1024.0) {
			min = (uint64_t)((double)min / 1024.0);
			max = (uint64_t)((double)max / 1024.0);
			mean /= 1024.0;
			dev /= 1024.0;
			unit = "MiB";
		}
		fprintf(f, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64 ", per=%3.2f%%, "
			"avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n", unit, min, max, per,
			mean, dev, v->bw_stat.samples);
	}
	if (io_stat_calc(&v->iops_stat, &min, &max, &mean, &dev))
		fprintf(f, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.02f, "
			"stdev=%5.02f, samples=%" PRIu64 "\n", min, max, mean, dev,
			v->iops_stat.samples);
}

/* summary poll_fallback values, as the module prints them */
static const struct {
	const char *key;
	const char *why;
} poll_fallbacks[] = {
	{ "no_poll_queues", "the device has no poll queues" },
	{ "bio_based", "the device is bio-based (dm, md, NVMe multipath)" },
	{ "split", "bs exceeds the device's limits, so each I/O is split" },
	{ "no_nowait", "the device's queue cannot fail a submission fast (no nowait)" },
};

/* What the module noticed that changes how to read the numbers. */
static void print_notes(FILE *f, const struct ssl_summary *s)
{
	const char *why = NULL;
	unsigned int i;
	char cpu[32];

	if (s->poll_fallback[0] && strcmp(s->poll_fallback, "none")) {
		for (i = 0; i < ARRAY_SIZE(poll_fallbacks); i++)
			if (!strcmp(s->poll_fallback, poll_fallbacks[i].key))
				why = poll_fallbacks[i].why;
		fprintf(f, "  note         : hipri=1 ran with interrupt completions: %s"
			" (poll_fallback=%s)\n", why ? why : "see the kernel log",
			s->poll_fallback);
	}
	if (s->split_ios.v)
		fprintf(f, "  note         : %" PRIu64 " I/Os were split by the block layer"
			" into more than one request\n", s->split_ios.v);
	if (s->nowait_retries.v)
		fprintf(f, "  note         : %" PRIu64 " polled submissions found no free tag"
			" and were retried\n", s->nowait_retries.v);
	if (s->timed_out_ios.v)
		fprintf(f, "  warning      : %" PRIu64 " I/Os were in flight longer than"
			" io_timeout_ms=%" PRIu64 "\n", s->timed_out_ios.v,
			s->io_timeout_ms.v);
	for (i = 0; i < s->nr_worker; i++) {
		const struct ssl_worker *w = &s->worker[i];

		snprintf(cpu, sizeof(cpu), "%ld", w->cpu);
		if (w->ran_on && w->cpu >= 0 && strcmp(w->ran_on, cpu))
			fprintf(f, "  note         : worker %u, bound to cpu%ld, ran on"
				" CPUs %s\n", i, w->cpu, w->ran_on);
	}
}

/* fio's display of a latency in ns: usec or msec with 2 decimals */
void ssl_lat_str(char *buf, size_t len, double ns)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.2fus", ns / 1e3);
	else
		snprintf(buf, len, "%.0fns", ns);
}

/* seconds with 2 decimals, or ms/us below one second */
void ssl_secs_str(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	else
		ssl_lat_str(buf, len, (double)ns);
}

/*
 * A rate-controlled direction: its target, how far behind it fell, the
 * I/Os sent late, and its latency from the intended send time.
 */
static void print_rate(FILE *f, const struct ssl_report *r, const struct dir_view *v)
{
	const struct ssl_rate_stats *rs = v->rate;
	char target[32], lag[32], amount[32], thr[32];

	if (!rs)
		return;
	if (rs->iops)
		snprintf(target, sizeof(target), "%" PRIu64 " IOPS", rs->iops);
	else
		ssl_num2str(target, sizeof(target), rs->bps, 4, 1, "B/s");
	fprintf(f, "    rate: target %s", target);
	if (r->sum->rate_process[0])
		fprintf(f, " (%s)", r->sum->rate_process);
	if (rs->behind_ios || rs->behind_bytes) {
		if (rs->behind_ios)
			snprintf(amount, sizeof(amount), "%" PRIu64 " I/Os", rs->behind_ios);
		else
			ssl_num2str(amount, sizeof(amount), rs->behind_bytes, 4, 1, "B");
		ssl_secs_str(lag, sizeof(lag), rs->behind_ns);
		fprintf(f, ", fell behind by %s (%s)", amount, lag);
	} else {
		fprintf(f, ", kept up");
	}
	ssl_lat_str(thr, sizeof(thr), (double)(r->sum->late_threshold_ns.have ?
					   r->sum->late_threshold_ns.v : 1000000));
	fprintf(f, "; %" PRIu64 " I/Os sent over %s late\n", rs->late_ios, thr);
	if (v->intended && v->intended->n) {
		print_lat(f, "lat from intended send", v->intended);
		print_percentiles(f, r, "lat from intended send", v->intended);
	}
}

/* The time series, in the JSON only: a pointer to it. */
static void print_series_note(FILE *f, const struct ssl_report *r)
{
	const struct ssl_series *ser = r->series;
	uint64_t i, nint = 0;

	if (!ser || !ser->present)
		return;
	for (i = 0; i < ser->hdr.nr_records; i++)
		if (ser->rec[i].index >= nint)
			nint = (uint64_t)ser->rec[i].index + 1;
	fprintf(f, "  time series  : %" PRIu64 " intervals of %" PRIu64 "ms, %u worker%s, "
		"%" PRIu64 " records%s (in the JSON output)\n", nint,
		(uint64_t)ser->hdr.interval_ns / 1000000, ser->hdr.nr_workers,
		ser->hdr.nr_workers == 1 ? "" : "s", (uint64_t)ser->hdr.nr_records,
		ser->hdr.log_hist ? ", with percentiles" : "");
}

/* One block per device, when the job drove more than one. */
static void print_devices(FILE *f, const struct ssl_summary *s)
{
	char a[32], b[32], io[32], lat[32];
	unsigned int i;
	int d;

	if (s->nr_dev < 2)
		return;
	fprintf(f, "  devices      : %u\n", s->nr_dev);
	for (i = 0; i < s->nr_dev; i++) {
		const struct ssl_device *dv = &s->dev[i];

		ssl_num2str(a, sizeof(a), dv->span_bytes, 4, 1, "B");
		fprintf(f, "    %s: span=%" PRIu64 "+%" PRIu64 " (%s)\n", dv->name,
			dv->span_start, dv->span_bytes, a);
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			if (!dv->ios[d] && !dv->errors[d] && !dv->done[d])
				continue;
			ssl_num2str(io, sizeof(io), dv->bytes[d], 4, 1, "B");
			ssl_num2str(b, sizeof(b), dv->ios[d], 4, 0, "");
			ssl_lat_str(lat, sizeof(lat), ssl_mean(dv->lat_sum_ns[d], dv->ios[d]));
			fprintf(f, "      %-5s: ios=%s, io=%s, errors=%" PRIu64 ", lat avg=%s\n",
				dir_names[d], b, io, dv->errors[d], lat);
		}
	}
}

/*
 * fio's cpu line; the module's figures are for its worker threads.
 * Kernel threads have no user memory to fault on: majf and minf are 0.
 */
static void print_cpu(FILE *f, const struct ssl_summary *s)
{
	if (!s->cpu_ns.have)
		return;
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64
		", majf=0, minf=0\n",
		cpu_pct(s, s->usr_cpu_ns.v, s->workers),
		cpu_pct(s, s->sys_cpu_ns.have ? s->sys_cpu_ns.v :
			s->cpu_ns.v - s->usr_cpu_ns.v, s->workers),
		s->ctx.v);
}

static const char *const depth_keys[SSDLOAD_DEPTH_NR] = {
	"1", "2", "4", "8", "16", "32", ">=64",
};
static const char *const batch_keys[SSDLOAD_DEPTH_NR] = {
	"0", "4", "8", "16", "32", "64", ">=64",
};

/* @m in percent of its total; 0 when it was not measured (or is empty) */
static int depth_pct(const struct ssl_depth_map *m, double pct[SSDLOAD_DEPTH_NR])
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

/* "  IO depths    : 1=99.9%, 2=0.1%, ..." in fio's layout */
static void print_depth_line(FILE *f, const char *head, const char *const *keys,
			     const struct ssl_depth_map *m)
{
	double pct[SSDLOAD_DEPTH_NR];
	unsigned int k;

	if (!depth_pct(m, pct))
		return;
	fputs(head, f);
	for (k = 0; k < SSDLOAD_DEPTH_NR; k++)
		fprintf(f, "%s%s=%3.1f%%", k ? ", " : "", keys[k], pct[k]);
	fputc('\n', f);
}

/*
 * fio's lines after cpu.  IO depths, submit and complete are the module's
 * measured distributions (left out when it gave none).  issued rwts
 * counts the measured I/Os that completed, failed ones included (fio's
 * total_io_u counts every issued I/O); none are short or dropped.
 */
static void print_issued(FILE *f, const struct ssl_report *r,
			 const struct dir_view v[SSDLOAD_DIR_NR])
{
	print_depth_line(f, "  IO depths    : ", depth_keys, &r->sum->depth);
	print_depth_line(f, "     submit    : ", batch_keys, &r->sum->submit);
	print_depth_line(f, "     complete  : ", batch_keys, &r->sum->complete);
	fprintf(f, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0"
		" short=0,0,0,0 dropped=0,0,0,0\n", v[0].ios + v[0].errors,
		v[1].ios + v[1].errors, v[2].ios + v[2].errors);
	if (r->iodepth)
		fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, "
			"depth=%" PRIu64 "\n", r->iodepth);
	if (r->sum->cpu_ns.have)
		fprintf(f, "  cpu_ns/io    : %" PRIu64 "\n", r->sum->cpu_ns_per_io.v);
}

/* a size as the CLI takes it: 4k, 1m, or bytes */
static void size_str(char *buf, size_t len, uint64_t b)
{
	if (b && !(b % (1ULL << 30)))
		snprintf(buf, len, "%" PRIu64 "g", b >> 30);
	else if (b && !(b % (1ULL << 20)))
		snprintf(buf, len, "%" PRIu64 "m", b >> 20);
	else if (b && !(b % 1024))
		snprintf(buf, len, "%" PRIu64 "k", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64, b);
}

/* a time in ms as the CLI takes it: 5s, 1500ms */
static void ms_str(char *buf, size_t len, uint64_t ms)
{
	if (ms && !(ms % 1000))
		snprintf(buf, len, "%" PRIu64 "s", ms / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "ms", ms);
}

static const char *const rw_names[SSDLOAD_RW_NR] = {
	"read", "write", "randread", "randwrite", "rw", "randrw",
	"trim", "randtrim", "trimwrite", "randtrimwrite",
};

static const char *step_rw_name(uint32_t rw)
{
	return rw < SSDLOAD_RW_NR ? rw_names[rw] : "?";
}

/* a rate list as --rate_iops/--rate take it: "1000", or "r,w,t" with blanks */
static void rate_list(char *buf, size_t len, const uint64_t v[3], int bw)
{
	size_t n = 0;
	int d;

	buf[0] = '\0';
	if (v[0] == v[1] && v[1] == v[2]) {
		if (bw)
			size_str(buf, len, v[0]);
		else
			snprintf(buf, len, "%" PRIu64, v[0]);
		return;
	}
	for (d = 0; d < 3 && n < len; d++) {
		char one[32] = "";

		if (v[d] && bw)
			size_str(one, sizeof(one), v[d]);
		else if (v[d])
			snprintf(one, sizeof(one), "%" PRIu64, v[d]);
		n += (size_t)snprintf(buf + n, len - n, "%s%s", d ? "," : "", one);
	}
}

/* what a step ran: "randread bs=4k iodepth=8 rate_iops=1000", or "idle 5s" */
static void step_what(char *buf, size_t len, const struct ssdload_steps_rec *rec,
		      uint32_t nr_workers)
{
	char a[32], b[32], rate[128] = "", mix[32] = "", nj[32] = "";

	if (rec->flags & SSDLOAD_STEPS_IDLE) {
		ms_str(a, sizeof(a), rec->idle_ms);
		snprintf(buf, len, "idle %s", a);
		return;
	}
	size_str(a, sizeof(a), rec->bs_min);
	size_str(b, sizeof(b), rec->bs_max);
	if (rec->rw == SSDLOAD_RW_RW || rec->rw == SSDLOAD_RW_RANDRW)
		snprintf(mix, sizeof(mix), " rwmixread=%u", rec->rwmixread);
	if (rec->rate_iops[0] || rec->rate_iops[1] || rec->rate_iops[2]) {
		strcpy(rate, " rate_iops=");
		rate_list(rate + strlen(rate), sizeof(rate) - strlen(rate),
			  (const uint64_t *)rec->rate_iops, 0);
	}
	if (rec->rate[0] || rec->rate[1] || rec->rate[2]) {
		snprintf(rate + strlen(rate), sizeof(rate) - strlen(rate), " rate=");
		rate_list(rate + strlen(rate), sizeof(rate) - strlen(rate),
			  (const uint64_t *)rec->rate, 1);
	}
	/* a step on fewer workers than the job's */
	if (rec->numjobs != nr_workers)
		snprintf(nj, sizeof(nj), " numjobs=%u", rec->numjobs);
	snprintf(buf, len, "%s%s bs=%s%s%s iodepth=%u%s%s", step_rw_name(rec->rw), mix, a,
		 rec->bs_min != rec->bs_max ? "-" : "",
		 rec->bs_min != rec->bs_max ? b : "", rec->iodepth, nj, rate);
}

/*
 * The per-step table: what each step ran, and over its measured time its
 * I/Os per second and MiB/s (all directions), its mean and p99 latency
 * (all directions; p99 from the step's histograms), and the gap before it.
 */
static void print_steps(FILE *f, const struct ssl_report *r)
{
	const struct ssl_steps *st = r->steps;
	uint64_t *sum = NULL;
	int wide = 4;
	uint32_t i;
	int d;

	if (!have_steps(r))
		return;
	for (i = 0; i < st->hdr.nr_steps; i++) {
		char what[256];

		step_what(what, sizeof(what), &st->step[i].rec, st->hdr.nr_workers);
		if ((int)strlen(what) > wide)
			wide = (int)strlen(what);
	}
	sum = malloc(SSDLOAD_HIST_BUCKETS * sizeof(*sum));
	fprintf(f, "\nSteps: %u, loops=%u, workers=%u\n", st->hdr.nr_steps, st->hdr.loops,
		st->hdr.nr_workers);
	fprintf(f, "  %4s  %-*s  %8s  %9s  %9s  %9s  %9s  %9s\n", "step", wide, "what",
		"IOPS", "MiB/s", "lat mean", "lat p99", "gap max", "gap mean");
	for (i = 0; i < st->hdr.nr_steps; i++) {
		const struct ssl_step *sp = &st->step[i];
		const struct ssdload_steps_rec *rec = &sp->rec;
		uint64_t ios = 0, bytes = 0, lsum = 0, min = 0, max = 0, n = 0;
		char what[256], iops[32] = "-", mibs[32] = "-", mean[32] = "-", p99[32] = "-";
		char gmax[32] = "-", gmean[32] = "-";
		int hist = 0;
		uint32_t k;

		step_what(what, sizeof(what), rec, st->hdr.nr_workers);
		if (sum)
			memset(sum, 0, SSDLOAD_HIST_BUCKETS * sizeof(*sum));
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			const struct ssdload_steps_dir *x = &rec->dir[d];

			ios += x->ios;
			bytes += x->bytes;
			lsum += x->lat_sum_ns;
			if (x->ios && (!min || x->lat_min_ns < min))
				min = x->lat_min_ns;
			if (x->lat_max_ns > max)
				max = x->lat_max_ns;
			if (sp->hist[d] && sum) {
				for (k = 0; k < SSDLOAD_HIST_BUCKETS; k++)
					sum[k] += sp->hist[d][k];
				hist = 1;
			}
		}
		if (!(rec->flags & SSDLOAD_STEPS_IDLE)) {
			double secs = (double)rec->runtime_ns / 1e9;

			if (secs > 0) {
				ssl_num2str(iops, sizeof(iops), (uint64_t)((double)ios / secs + 0.5),
					4, 0, "");
				snprintf(mibs, sizeof(mibs), "%.1f",
					 (double)bytes / 1048576.0 / secs);
			}
			if (ios && lsum)
				ssl_lat_str(mean, sizeof(mean), ssl_mean(lsum, ios));
			if (hist)
				n = ssl_hist_total(sum, SSDLOAD_HIST_BUCKETS);
			if (n)
				ssl_lat_str(p99, sizeof(p99), (double)ssl_hist_percentile(
					sum, SSDLOAD_HIST_BUCKETS, 99.0, min, max));
		}
		if (rec->gaps) {
			ssl_secs_str(gmax, sizeof(gmax), rec->gap_max_ns);
			ssl_secs_str(gmean, sizeof(gmean),
				 (uint64_t)(ssl_mean(rec->gap_sum_ns, rec->gaps) + 0.5));
		}
		fprintf(f, "  %4u  %-*s  %8s  %9s  %9s  %9s  %9s  %9s\n", rec->step, wide,
			what, iops, mibs, mean, p99, gmax, gmean);
	}
	free(sum);
}

static void print_normal(FILE *f, const struct ssl_report *r,
			 const struct dir_view v[SSDLOAD_DIR_NR])
{
	double ns[SSL_LAT_NS_NR] = { 0 }, us[SSL_LAT_US_NR] = { 0 };
	double ms[SSL_LAT_MS_NR] = { 0 };
	uint64_t all = v[0].n + v[1].n + v[2].n;
	int trims = r->sum->have_trim && (v[2].ios || v[2].errors);
	char when[64], a[32], b[32], c[32], io[32];
	int d, any = 0;
	unsigned int i;

	if (!strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&r->when)))
		when[0] = '\0';
	fprintf(f, "%s: (groupid=0, jobs=%u): err=%2lld: pid=%ld: %s\n", r->name,
		r->sum->workers, -r->sum->error, r->pid, when);
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		const struct dir_view *dv = &v[d];

		if (!dv->ios && !dv->errors)
			continue;
		any = 1;
		ssl_num2str(a, sizeof(a), (uint64_t)(dv->iops + 0.5), 4, 0, "");
		ssl_num2str(b, sizeof(b), dv->bw_bytes, 4, 1, "B/s");
		ssl_num2str(c, sizeof(c), dv->bw_bytes, 4, 0, "B/s");
		ssl_num2str(io, sizeof(io), dv->bytes, 4, 1, "B");
		fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n",
			dir_names[d], a, b, c, io, dv->runtime_ms);
		if (dv->n) {
			print_lat(f, "clat", dv);
			print_lat(f, " lat", dv);
			print_percentiles(f, r, "clat", dv);
			if (dv->counts)
				ssl_hist_lat_dist(dv->counts, SSDLOAD_HIST_BUCKETS,
						  all, ns, us, ms);
		}
		print_samples(f, dv);
		print_rate(f, r, dv);
	}
	if (!any)
		fprintf(f, "  no measured I/O\n");
	print_lat_dist(f, "nsec", ns, SSL_LAT_NS_NR);
	print_lat_dist(f, "usec", us, SSL_LAT_US_NR);
	print_lat_dist(f, "msec", ms, SSL_LAT_MS_NR);
	print_cpu(f, r->sum);
	print_issued(f, r, v);
	if (r->sum->nr_worker) {
		fprintf(f, "  workers      :");
		for (i = 0; i < r->sum->nr_worker; i++) {
			const struct ssl_worker *w = &r->sum->worker[i];

			fprintf(f, "%s cpu%ld=%" PRIu64 "/%" PRIu64, i ? "," : "",
				w->cpu, w->ios[0], w->ios[1]);
			if (trims)
				fprintf(f, "/%" PRIu64, w->ios[2]);
		}
		fprintf(f, trims ? " (read/write/trim I/Os)\n" : " (read/write I/Os)\n");
	}
	print_devices(f, r->sum);
	print_series_note(f, r);
	fprintf(f, "  total I/Os: read=%" PRIu64 ", write=%" PRIu64, v[0].ios, v[1].ios);
	if (trims)
		fprintf(f, ", trim=%" PRIu64, v[2].ios);
	fputc('\n', f);
	if (v[0].errors || v[1].errors || v[2].errors) {
		fprintf(f, "  errors    : read=%" PRIu64 ", write=%" PRIu64,
			v[0].errors, v[1].errors);
		if (trims)
			fprintf(f, ", trim=%" PRIu64, v[2].errors);
		fputc('\n', f);
	}
	print_notes(f, r->sum);
	if (r->lat)
		ssl_latstudy_print(f, r->lat, r->sum, r->hist);

	fprintf(f, "\nRun status group 0 (all jobs):\n");
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		const struct dir_view *dv = &v[d];

		if (!dv->ios && !dv->errors)
			continue;
		ssl_num2str(a, sizeof(a), dv->bw_bytes, 4, 1, "B/s");
		ssl_num2str(b, sizeof(b), dv->bw_bytes, 4, 0, "B/s");
		ssl_num2str(io, sizeof(io), dv->bytes, 4, 1, "B");
		ssl_num2str(c, sizeof(c), dv->bytes, 4, 0, "B");
		fprintf(f, "%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64
			"-%" PRIu64 "msec\n", dir_upper[d], a, b, a, a, b, b, io, c,
			dv->runtime_ms, dv->runtime_ms);
	}
	if (r->ndisks) {
		int i;

		fprintf(f, "\nDisk stats (read/write):\n");
		for (i = 0; i < r->ndisks; i++) {
			const struct ssl_disk_util *u = &r->disks[i];

			fprintf(f, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
				", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64
				", util=%.2f%%\n", u->name, u->ios[0], u->ios[1], u->merges[0],
				u->merges[1], u->ticks[0], u->ticks[1], u->in_queue, u->util);
		}
	}
	print_steps(f, r);
}

/* ------------------------------------------------------------------ */
/* JSON output (fio schema)                                            */

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

	if (io_stat_calc(&v->bw_stat, &min, &max, &mean, &dev))
		per = agg_percent(v->agg_bytes, mean);
	jint(o, "bw_min", (int64_t)min);
	jint(o, "bw_max", (int64_t)max);
	jdbl(o, "bw_agg", per);
	jdbl(o, "bw_mean", mean);
	jdbl(o, "bw_dev", dev);
	jint(o, "bw_samples", (int64_t)v->bw_stat.samples);
	if (!io_stat_calc(&v->iops_stat, &min, &max, &mean, &dev)) {
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

/*
 * ssdload's own results, outside fio's schema: jobs[0].ssdload.  A key
 * the module did not print (an older module) is left out.
 */
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
		snprintf(key, sizeof(key), "%s_ios", dir_names[d]);
		jint(wo, key, (int64_t)w->ios[d]);
		snprintf(key, sizeof(key), "%s_errors", dir_names[d]);
		jint(wo, key, (int64_t)w->errors[d]);
		snprintf(key, sizeof(key), "%s_bytes", dir_names[d]);
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
			json_object_object_add(o, dir_names[d], x);
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

static json_object *json_ssdload(const struct ssl_summary *s, int with_devices)
{
	json_object *o = json_object_new_object(), *workers;
	unsigned int i;

	jstr(o, "state", s->state);
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
	if (have_steps(r))
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
		json_object_object_add(o, dir_names[d], x);
	}
	return o;
}

static int cmp_rec_index(const void *a, const void *b)
{
	const struct ssl_series_rec *x = *(const struct ssl_series_rec *const *)a;
	const struct ssl_series_rec *y = *(const struct ssl_series_rec *const *)b;

	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->worker < y->worker ? -1 : x->worker > y->worker;
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
	qsort(sorted, n, sizeof(*sorted), cmp_rec_index);
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

	jstr(o, "rw", step_rw_name(rec->rw));
	jint(o, "rwmixread", rec->rwmixread);
	jint(o, "iodepth", rec->iodepth);
	jint(o, "numjobs", rec->numjobs);	/* the workers that issued */
	jint(o, "bs_min", rec->bs_min);
	jint(o, "bs_max", rec->bs_max);
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

			step_dir_view(r, sp, d, &sd);
			x = json_dir(r, &sd.v);
			jint(x, "errors", (int64_t)rec->dir[d].errors);
			json_object_object_add(o, dir_names[d], x);
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

static json_object *json_sync(void)
{
	json_object *sync = json_object_new_object();

	jint(sync, "total_ios", 0);
	json_object_object_add(sync, "lat_ns", json_zero_lat());
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

	if (depth_pct(depth, pct))
		json_object_object_add(job, "iodepth_level",
				       json_dist(depth_keys, pct, SSDLOAD_DEPTH_NR));
	if (submit && depth_pct(submit, pct))
		json_object_object_add(job, "iodepth_submit",
				       json_dist(batch_keys, pct, SSDLOAD_DEPTH_NR));
	if (complete && depth_pct(complete, pct))
		json_object_object_add(job, "iodepth_complete",
				       json_dist(batch_keys, pct, SSDLOAD_DEPTH_NR));
}

static void json_latency_target(const struct ssl_report *r, json_object *job)
{
	jint(job, "latency_depth", (int64_t)(r->iodepth ? r->iodepth : 1));
	jint(job, "latency_target", 0);
	jdbl(job, "latency_percentile", 100.0);
	jint(job, "latency_window", 0);
}

static json_object *json_job(const struct ssl_report *r,
			     const struct dir_view v[SSDLOAD_DIR_NR])
{
	double ns[SSL_LAT_NS_NR] = { 0 }, us[SSL_LAT_US_NR] = { 0 };
	double ms[SSL_LAT_MS_NR] = { 0 };
	uint64_t all = v[0].n + v[1].n + v[2].n;
	const struct ssl_summary *s = r->sum;
	json_object *job = json_job_head(r);
	int d;
	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		json_object_object_add(job, dir_names[d], json_dir(r, &v[d]));
	json_object_object_add(job, "sync", json_sync());
	jint(job, "job_runtime", (int64_t)((r->sum->runtime_ns * group_threads(r->sum) +
					    500000) / 1000000));
	if (s->cpu_ns.have) {
		jdbl(job, "usr_cpu", cpu_pct(s, s->usr_cpu_ns.v, s->workers));
		jdbl(job, "sys_cpu", cpu_pct(s, s->sys_cpu_ns.have ? s->sys_cpu_ns.v :
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
	json_object_object_add(job, "ssdload", json_ssdload(r->sum, 1));
	if (r->series && r->series->present) {
		json_object *ts = json_time_series(r, -1);

		if (!ts) {
			json_object_put(job);
			return NULL;
		}
		json_object_object_add(job, "time_series", ts);
	}
	if (have_steps(r))
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
		json_object_object_add(o, dir_names[d], x);
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
	worker_samples(r, i, sv);
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		sv[d].agg_bytes = v[d].bw_bytes;
		json_object_object_add(job, dir_names[d], json_clone_dir(r, w, d, &sv[d]));
	}
	json_object_object_add(job, "sync", json_sync());
	jint(job, "job_runtime", (int64_t)((r->sum->runtime_ns + 500000) / 1000000));
	if (w->ctx.have)
		jint(job, "ctx", (int64_t)w->ctx.v);
	jint(job, "majf", 0);
	jint(job, "minf", 0);
	json_iodepth(job, &w->depth, NULL, NULL);
	json_latency_target(r, job);
	ext = json_worker(r->sum, i);
	jint(ext, "worker", i);
	jstr(ext, "state", r->sum->state);
	if (i == 0 && r->sum->nr_dev)	/* job-wide: once, in the first entry */
		json_object_object_add(ext, "devices", json_devices(r->sum));
	if (i == 0 && (rate = json_clone_rate(r, v)))
		json_object_object_add(ext, "rate", rate);
	json_object_object_add(job, "ssdload", ext);
	if (r->series && r->series->present)
		json_object_object_add(job, "time_series", json_time_series(r, i));
	if (i == 0 && have_steps(r))	/* job-wide: once, in the first entry */
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

static int print_json(FILE *f, const struct ssl_report *r,
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

int report_print(FILE *f, const struct ssl_report *r, unsigned int fmt)
{
	struct dir_view v[SSDLOAD_DIR_NR], iv[SSDLOAD_DIR_NR];
	struct ssl_report rj = *r;
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
	if (job_samples(r, v))
		return -1;
	rj.bins = !!(fmt & SSL_OUTPUT_JSON_PLUS);
	if ((fmt & SSL_OUTPUT_ANY_JSON) && print_json(f, &rj, v))
		return -1;
	if (fmt & SSL_OUTPUT_NORMAL)
		print_normal(f, r, v);
	return 0;
}
