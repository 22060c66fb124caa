// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram maths for reports: percentiles, mean, stddev and fio's
 * latency distribution.  Pure functions over the uapi geometry.
 */
#include <math.h>

#include "uapi/ssdload.h"
#include "core/hist.h"

const char *const ssl_lat_ranges[SSL_LAT_MS_NR] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000",
};

/* upper bounds (exclusive) of fio's ranges, in the unit of the array */
static const uint64_t lat_limits[SSL_LAT_MS_NR - 1] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000,
};

uint64_t ssl_hist_total(const uint64_t *counts, uint32_t nr)
{
	uint64_t total = 0;
	uint32_t i;

	for (i = 0; i < nr; i++)
		total += counts[i];
	return total;
}

uint64_t ssl_hist_percentile(const uint64_t *counts, uint32_t nr, double pct,
			     uint64_t min, uint64_t max)
{
	uint64_t total = ssl_hist_total(counts, nr), cum = 0, v;
	long double thr;
	uint32_t i;

	if (!total)
		return 0;
	if (nr > SSDLOAD_HIST_BUCKETS)
		nr = SSDLOAD_HIST_BUCKETS;
	thr = (long double)pct / 100.0L * (long double)total;
	for (i = 0; i < nr; i++) {
		if (!counts[i])
			continue;
		cum += counts[i];
		if ((long double)cum >= thr)
			break;
	}
	if (i == nr) {		/* pct > 100 or rounding: the last sample */
		while (i > 0 && !counts[i - 1])
			i--;
		i--;
	}
	v = ssdload_hist_value(i);
	if (v < min)
		v = min;
	if (max && v > max)
		v = max;
	return v;
}

long double ssl_u128_to_ld(uint64_t hi, uint64_t lo)
{
	return ldexpl((long double)hi, 64) + (long double)lo;
}

double ssl_mean(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / (double)n : 0.0;
}

double ssl_stddev(uint64_t sum, long double sumsq, uint64_t n)
{
	long double mean, var;

	if (!n)
		return 0.0;
	mean = (long double)sum / (long double)n;
	var = sumsq / (long double)n - mean * mean;
	if (var <= 0)
		return 0.0;
	return (double)sqrtl(var);
}

static unsigned int lat_slot(uint64_t v, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr - 1 && i < SSL_LAT_MS_NR - 1; i++)
		if (v < lat_limits[i])
			return i;
	return nr - 1;
}

void ssl_hist_lat_dist(const uint64_t *counts, uint32_t nr, uint64_t total,
		       double ns[SSL_LAT_NS_NR], double us[SSL_LAT_US_NR],
		       double ms[SSL_LAT_MS_NR])
{
	uint32_t i;

	if (!total)
		return;
	if (nr > SSDLOAD_HIST_BUCKETS)
		nr = SSDLOAD_HIST_BUCKETS;
	for (i = 0; i < nr; i++) {
		uint64_t v;
		double share;

		if (!counts[i])
			continue;
		v = ssdload_hist_value(i);
		share = (double)counts[i] * 100.0 / (double)total;
		if (v < 1000)
			ns[lat_slot(v, SSL_LAT_NS_NR)] += share;
		else if (v < 1000000)
			us[lat_slot(v / 1000, SSL_LAT_US_NR)] += share;
		else
			ms[lat_slot(v / 1000000, SSL_LAT_MS_NR)] += share;
	}
}

/* one LEB128 varint; 0, or -1 if truncated or longer than a u64 */
static int varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (*p < end) {
		uint8_t b = *(*p)++;

		if (shift == 63 && (b & 0x7e))
			return -1;		/* bits past 2^64 */
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return 0;
		}
		shift += 7;
		if (shift > 63)
			return -1;
	}
	return -1;
}

long ssl_delta_decode(const uint8_t *p, uint32_t len, uint32_t nr_buckets,
		      struct ssl_bucket *out, unsigned long max)
{
	const uint8_t *end = p + len;
	uint64_t idx = 0, gap, count;
	unsigned long n = 0;

	while (p < end) {
		if (varint(&p, end, &gap) || varint(&p, end, &count))
			return -1;
		if (gap >= nr_buckets)
			return -1;
		idx = n ? idx + 1 + gap : gap;
		if (idx >= nr_buckets || n == max)
			return -1;
		out[n].idx = (uint32_t)idx;
		out[n].count = count;
		n++;
	}
	return (long)n;
}

void ssl_sparse_percentiles(const struct ssl_bucket *b, unsigned long n,
			    const double *pct, int np, uint64_t min, uint64_t max,
			    uint64_t *out)
{
	uint64_t total = 0, cum;
	unsigned long i;
	int j;

	for (i = 0; i < n; i++)
		total += b[i].count;
	for (j = 0; j < np; j++) {
		long double thr = (long double)pct[j] / 100.0L * (long double)total;
		uint32_t idx = 0;
		uint64_t v;

		out[j] = 0;
		if (!total)
			continue;
		cum = 0;
		for (i = 0; i < n; i++) {
			if (!b[i].count)
				continue;
			idx = b[i].idx;
			cum += b[i].count;
			/* a repeated index: the bucket's whole count first */
			while (i + 1 < n && b[i + 1].idx == idx)
				cum += b[++i].count;
			if ((long double)cum >= thr)
				break;
		}
		v = ssdload_hist_value(idx);
		if (v < min)
			v = min;
		if (max && v > max)
			v = max;
		out[j] = v;
	}
}
