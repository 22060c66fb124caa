// SPDX-License-Identifier: GPL-2.0
/*
 * profile-write.c: a trace's summary (profile.c) written as a workload
 * profile: a fio job file whose keys `ssdload run --profile` takes and
 * whose comments record the source trace, the fit and what the keys
 * cannot say (trims beside reads and writes, the arrival process, the
 * concurrency over time).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/profile.h"
#include "uapi/ssdload.h"

#define TP_BSSPLIT_MAX	64
#define TP_BS_ALIGN	SSDLOAD_MIN_BS

struct tp_bs {
	uint32_t size;
	uint64_t n;
	int keep;
};

static int by_count(const void *a, const void *b)
{
	const struct tp_bs *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : (x->size > y->size) - (x->size < y->size);
}

static int by_size(const void *a, const void *b)
{
	const struct tp_bs *x = a, *y = b;

	return (x->size > y->size) - (x->size < y->size);
}

static void size_str(char *buf, size_t len, uint32_t s)
{
	if (s % (1U << 20) == 0)
		snprintf(buf, len, "%um", s >> 20);
	else if (s % 1024 == 0)
		snprintf(buf, len, "%uk", s >> 10);
	else
		snprintf(buf, len, "%u", s);
}

/*
 * One direction's bssplit list: sizes rounded up to 512 bytes, the 64
 * most frequent kept (the others counted with the nearest kept size),
 * integer shares by largest remainders, shares of 0 left out.
 */
static void bssplit_dir(FILE *f, const struct tp_dir *d)
{
	struct tp_bs *b = calloc(d->nsizes ? d->nsizes : 1, sizeof(*b));
	unsigned int i, j, n = 0, k, left = 100, best, pct[TP_BSSPLIT_MAX];
	double rem[TP_BSSPLIT_MAX];
	uint64_t tot = 0;
	char s[32];

	if (!b)
		return;
	for (i = 0; i < d->nsizes; i++) {
		uint32_t sz = (d->sizes[i].size + TP_BS_ALIGN - 1) / TP_BS_ALIGN * TP_BS_ALIGN;

		if (sz > SSDLOAD_MAX_BS)
			sz = SSDLOAD_MAX_BS;
		if (n && b[n - 1].size == sz) {
			b[n - 1].n += d->sizes[i].n;
		} else {
			b[n].size = sz;
			b[n++].n = d->sizes[i].n;
		}
	}
	qsort(b, n, sizeof(*b), by_count);
	k = n < TP_BSSPLIT_MAX ? n : TP_BSSPLIT_MAX;
	for (i = k; i < n; i++) {
		unsigned int near = 0;

		for (j = 1; j < k; j++)
			if (labs((long)b[j].size - (long)b[i].size) <
			    labs((long)b[near].size - (long)b[i].size))
				near = j;
		b[near].n += b[i].n;
	}
	qsort(b, k, sizeof(*b), by_size);
	for (i = 0; i < k; i++)
		tot += b[i].n;
	for (i = 0; i < k; i++) {
		double sh = 100.0 * (double)b[i].n / (double)tot;

		pct[i] = (unsigned int)floor(sh);
		rem[i] = sh - pct[i];
		left -= pct[i];
	}
	while (left-- && k) {
		best = 0;
		for (i = 1; i < k; i++)
			if (rem[i] > rem[best])
				best = i;
		pct[best]++;
		rem[best] = -1;
	}
	for (i = 0, j = 0; i < k; i++) {
		if (!pct[i])
			continue;
		size_str(s, sizeof(s), b[i].size);
		fprintf(f, "%s%s/%u", j++ ? ":" : "", s, pct[i]);
	}
	free(b);
}

static void zones_dir(FILE *f, const struct tp_dir *d)
{
	unsigned int i;

	for (i = 0; i < d->nzones; i++)
		fprintf(f, "%s%u/%u", i ? ":" : "", d->zone[i].access, d->zone[i].size);
}

/* the directions the job's rw runs: reads and writes, or trims alone */
static unsigned int job_dirs(const struct trace_profile *p, int *dirs)
{
	unsigned int n = 0;

	if (p->dir[TRACE_READ].n)
		dirs[n++] = TRACE_READ;
	if (p->dir[TRACE_WRITE].n)
		dirs[n++] = TRACE_WRITE;
	if (!n && p->dir[TRACE_TRIM].n)
		dirs[n++] = TRACE_TRIM;
	return n;
}

static unsigned int depth_pct(const struct trace_profile *p, double q)
{
	uint64_t tot = 0, acc = 0;
	unsigned int i;

	for (i = 0; i <= TP_DEPTH_MAX; i++)
		tot += p->depth[i];
	for (i = 0; i <= TP_DEPTH_MAX; i++) {
		acc += p->depth[i];
		if (acc && (double)acc >= q * (double)tot)
			return i;
	}
	return TP_DEPTH_MAX;
}

static double little_depth(const struct trace_profile *p)
{
	return p->dur_ns ? (double)p->resp_sum_ns / (double)p->dur_ns : 0;
}

static void write_comments(FILE *f, const struct trace_profile *p, const char *source)
{
	double secs = p->dur_ns / 1e9, win = secs / TP_WINDOWS, iops = secs > 0 ? p->n / secs : 0;
	double peak = 0;
	static const char *const dname[] = { "read", "write", "trim" };
	unsigned int i;

	fprintf(f, "; source: %s (%s trace, %" PRIu64 " I/Os over %.3f s, %u device%s%s)\n",
		source, p->format, p->n, secs, p->ndevs, p->ndevs == 1 ? "" : "s",
		p->ignored ? ", one profiled" : "");
	fprintf(f, ";         summarised by ssdload profile (Documentation/traces.rst)\n;\n");
	fprintf(f, "; mix: reads %.2f%%, writes %.2f%%, trims %.2f%%, flushes %.2f%% of the I/Os\n",
		100.0 * p->dir[TRACE_READ].n / p->n, 100.0 * p->dir[TRACE_WRITE].n / p->n,
		100.0 * p->dir[TRACE_TRIM].n / p->n, 100.0 * p->dir[TRACE_FLUSH].n / p->n);
	if (p->dir[TRACE_TRIM].n && (p->dir[TRACE_READ].n || p->dir[TRACE_WRITE].n))
		fprintf(f, ";   trims are left out of rw= (fio mixes reads and writes only)\n");
	if (p->dir[TRACE_FLUSH].n)
		fprintf(f, ";   flushes: one per %.1f I/Os in the trace; fio's fsync= is not a key here\n",
			(double)p->n / p->dir[TRACE_FLUSH].n);
	fprintf(f, "; sequential: %.2f%% of the I/Os start where an I/O of the same direction\n"
		";   ended (%d streams remembered); rw= is sequential above 50%%\n",
		100.0 * tp_seq_share(p), TP_SEQ_STREAMS);
	fprintf(f, "; span: %" PRIu64 " bytes (highest offset + length); zones are shares of it\n",
		p->span);
	for (i = 0; i < TRACE_FLUSH; i++) {
		if (!p->dir[i].n)
			continue;
		fprintf(f, "; zones (%s): %u zone%s fitted to %d regions of 1%%, error %.2f points\n"
			";   (total variation: the share of the %s I/Os the zones put in another region)\n",
			dname[i], p->dir[i].nzones, p->dir[i].nzones == 1 ? "" : "s", TP_REGIONS,
			p->dir[i].fit_err, dname[i]);
	}
	for (i = 0; i < TP_WINDOWS; i++)
		if (win > 0 && p->win_n[i] / win > peak)
			peak = p->win_n[i] / win;
	fprintf(f, "; arrival: %.1f IOPS mean; inter-arrival CV %.2f (1 for Poisson arrivals,\n"
		";   above 1 bursty); busiest window %.2fx the mean\n",
		iops, tp_cv(p), iops > 0 ? peak / iops : 0);
	if (p->with_resp)
		fprintf(f, "; concurrency: mean %.2f in flight (response times / duration); at each\n"
			";   arrival p50 %u, p90 %u, p99 %u, max %u\n", little_depth(p),
			depth_pct(p, 0.5), depth_pct(p, 0.9), depth_pct(p, 0.99), p->depth_max);
	else
		fprintf(f, "; concurrency: the trace records no response times; iodepth=1 is a guess\n");
	fprintf(f, "; over time (%d windows of %.3f s):\n;   %10s %12s %10s\n", TP_WINDOWS, win,
		"start_s", "IOPS", "in_flight");
	for (i = 0; i < TP_WINDOWS; i++) {
		fprintf(f, ";   %10.3f %12.1f ", i * win, win > 0 ? p->win_n[i] / win : 0);
		if (p->with_resp && win > 0)
			fprintf(f, "%10.2f\n", p->win_busy_ns[i] / (win * 1e9));
		else
			fprintf(f, "%10s\n", "-");
	}
	fprintf(f, ";\n; Run it with: ssdload run --profile=NAME --filename=DEV (the profile's\n"
		"; directory as $SSDLOAD_PROFILES), or ssdload run THIS_FILE --filename=DEV;\n"
		"; open loop at the trace's rate: add --rate_iops=%.0f --rate_process=poisson\n\n",
		iops >= 1 ? iops : 1);
}

int trace_profile_write(FILE *f, const struct trace_profile *p, const char *name,
			const char *source)
{
	int dirs[2], seq = tp_seq_share(p) > 0.5;
	unsigned int nd = job_dirs(p, dirs), i, depth = 1;
	uint64_t rw = p->dir[TRACE_READ].n + p->dir[TRACE_WRITE].n;

	if (!nd)
		return -1;
	fprintf(f, "; summary: profile of %s: %.0f%% read, %" PRIu64 " I/Os, %.1f IOPS\n",
		source, rw ? 100.0 * p->dir[TRACE_READ].n / rw : 0.0, p->n,
		p->dur_ns ? p->n / (p->dur_ns / 1e9) : 0.0);
	write_comments(f, p, source);
	fprintf(f, "[%s]\n", name);
	if (nd == 2)
		fprintf(f, "rw=%s\nrwmixread=%.0f\n", seq ? "rw" : "randrw",
			100.0 * p->dir[TRACE_READ].n / rw);
	else
		fprintf(f, "rw=%s%s\n", seq ? "" : "rand", dirs[0] == TRACE_READ ? "read" :
			dirs[0] == TRACE_WRITE ? "write" : "trim");
	fprintf(f, "bssplit=");
	for (i = 0; i < nd; i++) {
		fprintf(f, "%s", i ? "," : "");
		bssplit_dir(f, &p->dir[dirs[i]]);
	}
	fprintf(f, "\nrandom_distribution=zoned:");
	for (i = 0; i < nd; i++) {
		fprintf(f, "%s", i ? "," : "");
		zones_dir(f, &p->dir[dirs[i]]);
	}
	if (p->with_resp)
		depth = (unsigned int)lround(little_depth(p));
	if (depth < 1)
		depth = 1;
	if (depth > SSDLOAD_MAX_IODEPTH)
		depth = SSDLOAD_MAX_IODEPTH;
	fprintf(f, "\niodepth=%u\nnumjobs=1\n", depth);
	return ferror(f) ? -1 : 0;
}
