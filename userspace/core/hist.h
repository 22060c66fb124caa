/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure histogram and statistics helpers (no I/O), shared by the report
 * code and the host-side unit tests in tests/unit/.
 */
#ifndef SSDLOAD_CLI_HIST_H
#define SSDLOAD_CLI_HIST_H

#include <stdint.h>

/* fio's latency_{ns,us,ms} distribution: 10, 10 and 12 buckets */
#define SSL_LAT_NS_NR	10
#define SSL_LAT_US_NR	10
#define SSL_LAT_MS_NR	12

extern const char *const ssl_lat_ranges[SSL_LAT_MS_NR];	/* "2", ..., ">=2000" */

/* Sum of @nr counts. */
uint64_t ssl_hist_total(const uint64_t *counts, uint32_t nr);

/*
 * The @pct percentile (0..100) of the histogram, fio's rule: the first
 * non-empty bucket whose cumulative count reaches pct/100 * total.  The
 * bucket is reported by its midpoint, clamped to [@min, @max] (the exact
 * extremes).  Returns 0 for an empty histogram.
 */
uint64_t ssl_hist_percentile(const uint64_t *counts, uint32_t nr, double pct,
			     uint64_t min, uint64_t max);

/* 128-bit hi:lo as a long double (for sums of squares). */
long double ssl_u128_to_ld(uint64_t hi, uint64_t lo);

/* Mean of @n samples whose sum is @sum; 0 if @n is 0. */
double ssl_mean(uint64_t sum, uint64_t n);

/* Population standard deviation from exact sum and sum of squares. */
double ssl_stddev(uint64_t sum, long double sumsq, uint64_t n);

/*
 * Add each bucket's share (percent of @total) to fio's latency
 * distribution arrays: ns[] for < 1 us, us[] for < 1 ms, ms[] above.
 * Buckets are placed by their midpoint.
 */
void ssl_hist_lat_dist(const uint64_t *counts, uint32_t nr, uint64_t total,
		       double ns[SSL_LAT_NS_NR], double us[SSL_LAT_US_NR],
		       double ms[SSL_LAT_MS_NR]);

/* One bucket of a histogram delta (debugfs series, log_hist=1). */
struct ssl_bucket {
	uint32_t idx;			/* bucket index */
	uint64_t count;			/* I/Os added to it */
};

/*
 * Decode a histogram delta of the series format (uapi/ssdload.h: pairs of
 * LEB128 varints (gap, count), index = previous + 1 + gap) into @out (at
 * most @max pairs; @len / 2 always suffice).  Returns the number of pairs,
 * or -1 if the delta is malformed: a truncated or over-long varint, an
 * index at or past @nr_buckets, or more than @max pairs.
 */
long ssl_delta_decode(const uint8_t *p, uint32_t len, uint32_t nr_buckets,
		      struct ssl_bucket *out, unsigned long max);

/*
 * Percentiles of a sparse histogram: @n buckets sorted by index (an index
 * may repeat: the deltas of several records).  The same rule and value as
 * ssl_hist_percentile(); @out[i] for @pct[i].  All 0 if it is empty.
 */
void ssl_sparse_percentiles(const struct ssl_bucket *b, unsigned long n,
			    const double *pct, int np, uint64_t min, uint64_t max,
			    uint64_t *out);

#endif /* SSDLOAD_CLI_HIST_H */
