// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_rate: the schedules of open-loop rate control
 * (module/rate.c) and the parser of rate_iops/rate.
 */
#include <linux/math64.h>
#include <linux/slab.h>

#include "ssdload_test.h"

#define RT_T0		1000000000ULL	/* an arbitrary start, ns */
#define RT_SEED		0x0123456789abcdefULL

/*
 * linear rate_iops: send k of worker i of n is at t0 + (k * n + i) / R
 * seconds, to the ns (floor), for millions of sends and across rebases.
 */
static void ssdload_rate_test_linear_exact(struct kunit *test)
{
	static const struct { u64 rate; unsigned int nr; } c[] = {
		{ 1000, 1 }, { 3, 2 }, { 1000000, 2 }, { 77777, 7 },
		{ 4000000000ULL, 1 },
	};
	struct ssdload_sched *s;
	unsigned int i, w;
	u64 k;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		for (w = 0; w < c[i].nr; w++) {
			ssdload_sched_init(s, c[i].rate, false, false, c[i].nr,
					   w, 4096, RT_T0, RT_SEED);
			KUNIT_ASSERT_TRUE(test, s->on);
			for (k = 0; k < 200000; k++) {
				u64 want = RT_T0 +
					mul_u64_u64_div_u64(k * c[i].nr + w,
							    NSEC_PER_SEC,
							    c[i].rate);

				/* the stagger and the send floor apart */
				if (s->next_ns > want || want - s->next_ns > 1) {
					KUNIT_FAIL(test, "%llu/s %u/%u #%llu: %llu != %llu",
						   c[i].rate, w, c[i].nr, k,
						   s->next_ns, want);
					return;
				}
				ssdload_sched_advance(s, 4096);
			}
		}
	}
}

/*
 * linear rate (bytes/s) with lengths that vary: each send is at t0 plus
 * the bytes before it at the rate.
 */
static void ssdload_rate_test_bw_exact(struct kunit *test)
{
	static const u32 len[] = { 4096, 65536, 512, 131072, 8192 };
	const u64 bw = 100ULL << 20;
	struct ssdload_sched *s;
	u64 bytes = 0, k;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	ssdload_sched_init(s, bw, true, false, 1, 0, 131072, RT_T0, RT_SEED);
	for (k = 0; k < 100000; k++) {
		u64 want = RT_T0 + mul_u64_u64_div_u64(bytes, NSEC_PER_SEC, bw);

		if (s->next_ns > want || want - s->next_ns > 1) {
			KUNIT_FAIL(test, "send %llu after %llu bytes: %llu, want %llu",
				   k, bytes, s->next_ns, want);
			return;
		}
		ssdload_sched_advance(s, len[k % ARRAY_SIZE(len)]);
		bytes += len[k % ARRAY_SIZE(len)];
	}
}

/*
 * poisson: every block of SSDLOAD_RATE_BLOCK sends spans exactly its
 * share of time (the count holds), and the gaps are exponential: mean 1/R,
 * coefficient of variation within 2% of sqrt((M-1)/(M+1)), and the share
 * of gaps above the mean near e^-1.
 */
static void ssdload_rate_test_poisson(struct kunit *test)
{
	const u64 rate = 10000, n = 1000000;
	const u64 mean = NSEC_PER_SEC / rate;
	struct ssdload_sched *s;
	u64 prev, k, above = 0, first;
	u64 sum = 0, sumsq = 0;	/* 1e6 gaps of ~1e5 ns: no overflow */
	u64 cv_ppm, want_ppm, var;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	ssdload_sched_init(s, rate, false, true, 1, 0, 4096, RT_T0, RT_SEED);
	first = s->next_ns;
	KUNIT_EXPECT_LT(test, first - RT_T0, SSDLOAD_RATE_BLOCK * mean);
	prev = first;
	for (k = 1; k <= n; k++) {
		u64 gap;

		ssdload_sched_advance(s, 4096);
		gap = s->next_ns - prev;
		prev = s->next_ns;
		sum += gap;
		sumsq += gap * gap;
		above += gap > mean;
		if (!(k % SSDLOAD_RATE_BLOCK)) {
			/* send k is in block k/M: [k, k + M) mean gaps */
			u64 lo = mul_u64_u64_div_u64(k, NSEC_PER_SEC, rate);
			u64 hi = mul_u64_u64_div_u64(k + SSDLOAD_RATE_BLOCK,
						     NSEC_PER_SEC, rate);
			u64 at = s->next_ns - RT_T0;

			if (at + 2 < lo || at > hi) {
				KUNIT_FAIL(test, "send %llu at %llu ns, not in [%llu, %llu)",
					   k, at, lo, hi);
				return;
			}
		}
	}
	KUNIT_EXPECT_LE(test, abs((s64)div64_u64(sum, n) - (s64)mean), 2);
	var = div64_u64(sumsq, n) - div64_u64(sum, n) * div64_u64(sum, n);
	/* cv = sqrt(var) / mean, in ppm */
	cv_ppm = div64_u64((u64)int_sqrt64(var) * 1000000, mean);
	want_ppm = 992218;	/* sqrt(127 / 129) */
	KUNIT_EXPECT_LE(test, abs((s64)cv_ppm - (s64)want_ppm), 20000);
	/* P(gap > mean) = e^-1 = 0.3679 for an exponential */
	KUNIT_EXPECT_LE(test, abs((s64)div64_u64(above * 10000, n) - 3679), 30);
	kunit_info(test, "poisson: cv %llu ppm, %llu of %llu gaps above the mean\n",
		   cv_ppm, above, n);
}

/* Two workers' linear schedules interleave: one job-wide gap apart. */
static void ssdload_rate_test_stagger(struct kunit *test)
{
	struct ssdload_sched *a, *b;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	ssdload_sched_init(a, 1000, false, false, 2, 0, 4096, RT_T0, RT_SEED);
	ssdload_sched_init(b, 1000, false, false, 2, 1, 4096, RT_T0, RT_SEED);
	KUNIT_EXPECT_EQ(test, a->next_ns, RT_T0);
	KUNIT_EXPECT_EQ(test, b->next_ns, RT_T0 + NSEC_PER_MSEC);
	ssdload_sched_advance(a, 4096);
	KUNIT_EXPECT_EQ(test, a->next_ns, RT_T0 + 2 * NSEC_PER_MSEC);
}

static void ssdload_rate_test_fits(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ssdload_sched_fits(1, false, 1024, 4096));
	KUNIT_EXPECT_TRUE(test, ssdload_sched_fits(SSDLOAD_MAX_RATE_IOPS, false,
						   1024, 4096));
	KUNIT_EXPECT_TRUE(test, ssdload_sched_fits(4096, true, 1, 4096));
	/* 1 byte per second, 16 MiB blocks, 1024 workers: no */
	KUNIT_EXPECT_FALSE(test, ssdload_sched_fits(1, true, 1024, 16 << 20));
}

struct rt_parse_case {
	const char *in;
	int ret;
	u64 out[SSDLOAD_DIR_NR];
};

static const struct rt_parse_case rt_parse_cases[] = {
	{ "1000\n", 0, { 1000, 1000, 1000 } },
	{ "3000,1000", 0, { 3000, 1000, 1000 } },
	{ "1,2,3", 0, { 1, 2, 3 } },
	{ ",500", 0, { 0, 500, 500 } },
	{ "7,,9", 0, { 7, 0, 9 } },
	{ "", 0, { 0, 0, 0 } },
	{ "\n", 0, { 0, 0, 0 } },
	{ "0", -ERANGE, { } },
	{ "1,0", -ERANGE, { } },
	{ ",", -EINVAL, { } },
	{ ",,", -EINVAL, { } },
	{ "1,2,3,4", -EINVAL, { } },
	{ "abc", -EINVAL, { } },
	{ "-5", -EINVAL, { } },
	{ "4294967297", -ERANGE, { } },
	{ "123456789012345678901234567890", -EINVAL, { } },
};

static void rt_parse_desc(const struct rt_parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s'", c->in);
}

KUNIT_ARRAY_PARAM(rt_parse, rt_parse_cases, rt_parse_desc);

static void ssdload_rate_test_parse(struct kunit *test)
{
	const struct rt_parse_case *c = test->param_value;
	u64 out[SSDLOAD_DIR_NR] = { 11, 12, 13 };
	int ret, d;

	ret = ssdload_parse_rate(c->in, SSDLOAD_MAX_RATE_IOPS, out);
	if (c->ret) {
		KUNIT_EXPECT_NE(test, ret, 0);
		KUNIT_EXPECT_EQ(test, out[0], 11ULL);
		return;
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		KUNIT_EXPECT_EQ(test, out[d], c->out[d]);
}

static struct kunit_case ssdload_rate_cases[] = {
	KUNIT_CASE(ssdload_rate_test_linear_exact),
	KUNIT_CASE(ssdload_rate_test_bw_exact),
	KUNIT_CASE(ssdload_rate_test_poisson),
	KUNIT_CASE(ssdload_rate_test_stagger),
	KUNIT_CASE(ssdload_rate_test_fits),
	KUNIT_CASE_PARAM(ssdload_rate_test_parse, rt_parse_gen_params),
	{}
};

static struct kunit_suite ssdload_rate_suite = {
	.name = "ssdload_rate",
	.test_cases = ssdload_rate_cases,
};

kunit_test_suite(ssdload_rate_suite);
