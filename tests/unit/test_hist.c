// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side checks of the histogram maths in uapi/ssdload.h and of the
 * CLI's percentile/statistics helpers (userspace/core/hist.c).
 *
 *   test_hist roundtrip | relerr | clamp | percentiles | stats | latdist
 *
 * Each property prints "ok ..." lines and exits 0, or prints "FAIL ..."
 * lines and exits 1.  Driven by test_hist.py.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/ssdload.h"
#include "core/hist.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static unsigned long failures;

#define FAIL(...)						\
	do {							\
		if (failures++ < 20) {				\
			printf("FAIL ");			\
			printf(__VA_ARGS__);			\
			printf("\n");				\
		}						\
	} while (0)

/* every bucket: lower/upper map back to it, buckets tile [0, 2^40) */
static void test_roundtrip(void)
{
	uint32_t i;

	if (ssdload_hist_lower(0) != 0)
		FAIL("bucket 0 starts at %" PRIu64, (uint64_t)ssdload_hist_lower(0));
	for (i = 0; i < SSDLOAD_HIST_BUCKETS; i++) {
		uint64_t lo = ssdload_hist_lower(i), hi = ssdload_hist_upper(i);
		uint64_t mid = ssdload_hist_value(i);

		if (ssdload_hist_index(lo) != i)
			FAIL("index(lower(%u)=%" PRIu64 ") = %u", i, lo,
			     ssdload_hist_index(lo));
		if (ssdload_hist_index(hi) != i)
			FAIL("index(upper(%u)=%" PRIu64 ") = %u", i, hi,
			     ssdload_hist_index(hi));
		if (hi < lo)
			FAIL("bucket %u: upper %" PRIu64 " < lower %" PRIu64, i, hi, lo);
		if (mid < lo || mid > hi)
			FAIL("bucket %u: value %" PRIu64 " outside [%" PRIu64 ", %" PRIu64 "]",
			     i, mid, lo, hi);
		if (i + 1 < SSDLOAD_HIST_BUCKETS && ssdload_hist_lower(i + 1) != hi + 1)
			FAIL("bucket %u ends at %" PRIu64 " but %u starts at %" PRIu64,
			     i, hi, i + 1, (uint64_t)ssdload_hist_lower(i + 1));
		if (i && lo && ssdload_hist_index(lo - 1) != i - 1)
			FAIL("index(lower(%u) - 1) = %u", i, ssdload_hist_index(lo - 1));
	}
	if (ssdload_hist_upper(SSDLOAD_HIST_BUCKETS - 1) != SSDLOAD_HIST_MAX_VALUE)
		FAIL("last bucket ends at %" PRIu64 ", not 2^%d - 1",
		     (uint64_t)ssdload_hist_upper(SSDLOAD_HIST_BUCKETS - 1),
		     SSDLOAD_HIST_MAX_SHIFT);
	printf("ok roundtrip: %u buckets\n", SSDLOAD_HIST_BUCKETS);
}

static double worst_err;
static uint64_t worst_v;

static void check_relerr(uint64_t v)
{
	uint64_t r = ssdload_hist_value(ssdload_hist_index(v));
	double err;

	if (!v) {
		if (r)
			FAIL("value(index(0)) = %" PRIu64, r);
		return;
	}
	err = fabs((double)r - (double)v) / (double)v;
	if (err > worst_err) {
		worst_err = err;
		worst_v = v;
	}
	if (err > 1.0 / 256.0)
		FAIL("v=%" PRIu64 " -> bucket %u value %" PRIu64 ": relative error %.6f > 1/256",
		     v, ssdload_hist_index(v), r, err);
}

/* |value(index(v)) - v| / v <= 1/256 for all v below 2^40 */
static void test_relerr(void)
{
	uint64_t v, s = 0x9e3779b97f4a7c15ULL;
	unsigned int k, j;

	for (v = 0; v < (1ULL << 20); v++)
		check_relerr(v);
	for (k = 1; k < SSDLOAD_HIST_MAX_SHIFT; k++) {
		uint64_t p = 1ULL << k;

		check_relerr(p - 1);
		check_relerr(p);
		check_relerr(p + 1);
		/* dense sampling inside every power of two */
		for (j = 0; j < 20000; j++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			check_relerr(p + s % p);
		}
	}
	check_relerr(SSDLOAD_HIST_MAX_VALUE);
	printf("ok relerr: worst %.6f at %" PRIu64 " (bound %.6f)\n", worst_err,
	       worst_v, 1.0 / 256.0);
}

/* values at or beyond 2^40 clamp into the last bucket */
static void test_clamp(void)
{
	static const uint64_t vals[] = {
		1ULL << SSDLOAD_HIST_MAX_SHIFT, (1ULL << SSDLOAD_HIST_MAX_SHIFT) + 1,
		1ULL << 50, 1ULL << 63, UINT64_MAX,
	};
	unsigned int i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		if (ssdload_hist_index(vals[i]) != SSDLOAD_HIST_BUCKETS - 1)
			FAIL("index(%" PRIu64 ") = %u, not the last bucket", vals[i],
			     ssdload_hist_index(vals[i]));
	if (SSDLOAD_HIST_BUCKETS != (SSDLOAD_HIST_MAX_SHIFT - SSDLOAD_HIST_SUB_BITS + 1) *
	    SSDLOAD_HIST_SUB)
		FAIL("bucket count");
	printf("ok clamp\n");
}

/* ---- samples ---------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t splitmix64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform01(void)
{
	return ((double)(splitmix64() >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2.0 * log(uniform01())) * cos(2.0 * M_PI * uniform01());
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct sample {
	const char *name;
	uint64_t *v;
	size_t n;
	uint64_t counts[SSDLOAD_HIST_BUCKETS];
	uint64_t min, max, sum;
	long double sumsq;
};

static void make_sample(struct sample *s, const char *name, size_t n,
			double mu, double sigma, uint64_t seed, uint64_t add)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->n = n;
	s->v = malloc(n * sizeof(*s->v));
	if (!s->v) {
		FAIL("out of memory");
		exit(1);
	}
	rng_state = seed;
	s->min = UINT64_MAX;
	for (i = 0; i < n; i++) {
		uint64_t x = (uint64_t)llround(exp(mu + sigma * gauss())) + add;

		if (x > SSDLOAD_HIST_MAX_VALUE)
			x = SSDLOAD_HIST_MAX_VALUE;
		s->v[i] = x;
		s->counts[ssdload_hist_index(x)]++;
		if (x < s->min)
			s->min = x;
		if (x > s->max)
			s->max = x;
		s->sum += x;
		s->sumsq += (long double)x * (long double)x;
	}
	qsort(s->v, n, sizeof(*s->v), cmp_u64);
}

/* percentiles from counts vs exact percentiles of the sorted sample */
static void check_percentiles(struct sample *s)
{
	static const double plist[] = {
		0.001, 0.1, 1, 5, 10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 95,
		99, 99.5, 99.9, 99.95, 99.99, 99.999, 100,
	};
	double worst = 0;
	unsigned int i;

	for (i = 0; i < sizeof(plist) / sizeof(plist[0]); i++) {
		long double thr = (long double)plist[i] / 100.0L * (long double)s->n;
		size_t rank = (size_t)ceill(thr);
		uint64_t exact, est;
		double err;

		if (rank < 1)
			rank = 1;
		if (rank > s->n)
			rank = s->n;
		exact = s->v[rank - 1];
		est = ssl_hist_percentile(s->counts, SSDLOAD_HIST_BUCKETS, plist[i],
					  s->min, s->max);
		err = exact ? fabs((double)est - (double)exact) / (double)exact :
			      (double)est;
		if (err > worst)
			worst = err;
		if (err > 1.0 / 256.0)
			FAIL("%s: p%g: from counts %" PRIu64 ", exact %" PRIu64
			     " (error %.6f > 1/256)", s->name, plist[i], est, exact, err);
	}
	if (ssl_hist_percentile(s->counts, SSDLOAD_HIST_BUCKETS, 100.0, s->min,
				s->max) > s->max)
		FAIL("%s: p100 above max", s->name);
	printf("ok percentiles %s: n=%zu min=%" PRIu64 " max=%" PRIu64
	       " worst error %.6f\n", s->name, s->n, s->min, s->max, worst);
}

static void test_percentiles(void)
{
	static struct sample s;
	uint64_t empty[SSDLOAD_HIST_BUCKETS] = { 0 };

	/* lognormal around 100 us, as a disk's latency */
	make_sample(&s, "lognormal-100us", 1000000, log(100000.0), 0.5, 42, 0);
	check_percentiles(&s);
	free(s.v);
	/* wide spread, from the exact region (< 128 ns) to seconds */
	make_sample(&s, "lognormal-wide", 1000000, log(20000.0), 3.0, 7, 1);
	check_percentiles(&s);
	free(s.v);
	/* tiny sample: every percentile is one of few values */
	make_sample(&s, "small-n", 7, log(5000.0), 1.0, 3, 0);
	check_percentiles(&s);
	free(s.v);
	if (ssl_hist_percentile(empty, SSDLOAD_HIST_BUCKETS, 50, 0, 0) != 0)
		FAIL("empty histogram: p50 not 0");
}

/* mean and population stddev from exact sums match a direct computation */
static void test_stats(void)
{
	static struct sample s;
	long double m = 0, var = 0;
	double mean, sd;
	size_t i;

	make_sample(&s, "stats", 200000, log(300000.0), 1.0, 11, 0);
	for (i = 0; i < s.n; i++)
		m += s.v[i];
	m /= s.n;
	for (i = 0; i < s.n; i++)
		var += ((long double)s.v[i] - m) * ((long double)s.v[i] - m);
	var /= s.n;
	mean = ssl_mean(s.sum, s.n);
	sd = ssl_stddev(s.sum, s.sumsq, s.n);
	if (fabs(mean - (double)m) > 1e-9 * (double)m)
		FAIL("mean %.6f, direct %.6f", mean, (double)m);
	if (fabs(sd - sqrt((double)var)) > 1e-6 * sqrt((double)var))
		FAIL("stddev %.6f, direct %.6f", sd, sqrt((double)var));
	/* 128-bit split of the sum of squares */
	if (ssl_u128_to_ld(1, 5) != 18446744073709551616.0L + 5)
		FAIL("u128 to long double");
	if (ssl_mean(0, 0) != 0 || ssl_stddev(0, 0, 0) != 0)
		FAIL("empty stats not 0");
	if (ssl_stddev(3 * 1000, 3 * 1000000.0L, 3) != 0)
		FAIL("constant sample stddev not 0");
	printf("ok stats: mean %.3f stddev %.3f\n", mean, sd);
	free(s.v);
}

/* fio's latency_{ns,us,ms} distribution adds up to 100% */
static void test_latdist(void)
{
	static struct sample s;
	double ns[SSL_LAT_NS_NR] = { 0 }, us[SSL_LAT_US_NR] = { 0 };
	double ms[SSL_LAT_MS_NR] = { 0 }, total = 0;
	uint64_t one[SSDLOAD_HIST_BUCKETS] = { 0 };
	int i;

	make_sample(&s, "latdist", 100000, log(50000.0), 3.0, 5, 1);
	ssl_hist_lat_dist(s.counts, SSDLOAD_HIST_BUCKETS, s.n, ns, us, ms);
	for (i = 0; i < SSL_LAT_NS_NR; i++)
		total += ns[i] + us[i];
	for (i = 0; i < SSL_LAT_MS_NR; i++)
		total += ms[i];
	if (fabs(total - 100.0) > 1e-6)
		FAIL("distribution sums to %.9f%%", total);
	free(s.v);

	/* 3 us lands in latency_us "4" ([2, 4) us), 1.5 ms in latency_ms "2" */
	memset(ns, 0, sizeof(ns));
	memset(us, 0, sizeof(us));
	memset(ms, 0, sizeof(ms));
	one[ssdload_hist_index(3000)] = 1;
	one[ssdload_hist_index(1500000)] = 1;
	one[ssdload_hist_index(5000000000ULL)] = 2;
	ssl_hist_lat_dist(one, SSDLOAD_HIST_BUCKETS, 4, ns, us, ms);
	if (us[1] != 25.0 || ms[0] != 25.0 || ms[SSL_LAT_MS_NR - 1] != 50.0)
		FAIL("placement: us[4]=%f ms[2]=%f ms[>=2000]=%f", us[1], ms[0],
		     ms[SSL_LAT_MS_NR - 1]);
	printf("ok latdist\n");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{ "roundtrip", test_roundtrip },
		{ "relerr", test_relerr },
		{ "clamp", test_clamp },
		{ "percentiles", test_percentiles },
		{ "stats", test_stats },
		{ "latdist", test_latdist },
	};
	unsigned int i, ran = 0;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (argc > 1 && strcmp(argv[1], tests[i].name))
			continue;
		tests[i].fn();
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "unknown test '%s'\n", argv[1]);
		return 2;
	}
	if (failures)
		printf("%lu failures\n", failures);
	return failures ? 1 : 0;
}
