// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_hist: the latency histogram geometry of
 * uapi/ssdload.h and the recording/merging of module/hist.c.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "ssdload_test.h"

#define HIST_WORKERS	4
#define PCT_SAMPLES	50000

/* Suite fixture: a job of HIST_WORKERS workers with statistics. */
static int ssdload_hist_init(struct kunit *test)
{
	ssdload_test_job_new(test, HIST_WORKERS, true);
	return 0;
}

static void ssdload_hist_exit(struct kunit *test)
{
	ssdload_test_job_del(test->priv);
}

static struct ssdload_job *hist_job(struct kunit *test)
{
	struct ssdload_test_job *tj = test->priv;

	return tj->job;
}

/* Record one successful, measured I/O of @lat ns on worker @wi. */
static void hist_record(struct ssdload_job *job, unsigned int wi, int dir,
			u64 lat)
{
	struct ssdload_io io = {
		.w = job->workers[wi],
		.dir = dir,
		.len = job->cfg.bs,
		.measured = true,
		.submit_ns = 1000,
		.done_ns = 1000 + lat,
	};

	ssdload_record(job->workers[wi], &io);
}

/* Record one I/O of the ramp (not measured) on worker @wi. */
static void hist_record_ramp(struct ssdload_job *job, unsigned int wi,
			     int dir, u64 lat)
{
	struct ssdload_io io = {
		.w = job->workers[wi],
		.dir = dir,
		.measured = false,
		.done_ns = lat,
	};

	ssdload_record(job->workers[wi], &io);
}

/* Every bucket: lower/upper/value map back to it, buckets tile [0, MAX]. */
static void test_round_trip(struct kunit *test)
{
	u32 idx, bad = 0, first_bad = 0;

	KUNIT_EXPECT_EQ(test, ssdload_hist_lower(0), 0ULL);
	for (idx = 0; idx < SSDLOAD_HIST_BUCKETS; idx++) {
		u64 lo = ssdload_hist_lower(idx);
		u64 hi = ssdload_hist_upper(idx);
		bool ok;

		ok = ssdload_hist_width(idx) > 0 && lo <= hi &&
		     ssdload_hist_index(lo) == idx &&
		     ssdload_hist_index(hi) == idx &&
		     ssdload_hist_index(ssdload_hist_value(idx)) == idx &&
		     (idx + 1 == SSDLOAD_HIST_BUCKETS ||
		      ssdload_hist_lower(idx + 1) == hi + 1);
		if (!ok && !bad++)
			first_bad = idx;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U,
			    "first bad bucket %u: [%llu, %llu]", first_bad,
			    ssdload_hist_lower(first_bad),
			    ssdload_hist_upper(first_bad));
	KUNIT_EXPECT_EQ(test, ssdload_hist_upper(SSDLOAD_HIST_BUCKETS - 1),
			SSDLOAD_HIST_MAX_VALUE);
	/* at least 128 sub-buckets per power of two */
	KUNIT_EXPECT_GE(test, SSDLOAD_HIST_SUB, 128U);
}

/*
 * Relative error of the reported value (bucket midpoint) is at most
 * 1 / (2 * SUB) = 0.39% (<= 0.4%) from 1 ns to the top of the range:
 * the edges and 64 spread values of every power of two.
 */
static void test_relative_error(struct kunit *test)
{
	u64 worst_v = 0, worst_err = 0, checked = 0;
	u32 bad = 0;
	int shift, k;

	for (shift = 0; shift < SSDLOAD_HIST_MAX_SHIFT; shift++) {
		u64 base = 1ULL << shift;

		for (k = -1; k <= 64; k++) {
			u64 v, rep, err;

			if (k < 0)
				v = base;
			else if (k == 64)
				v = 2 * base - 1;
			else
				v = base + div64_u64(base * k, 64) +
				    (base > 64 ? k * 7 % (base / 64) : 0);
			rep = ssdload_hist_value(ssdload_hist_index(v));
			err = rep > v ? rep - v : v - rep;
			checked++;
			/* err / v <= 1 / (2 * SUB), and <= 0.4% */
			if (err * 2 * SSDLOAD_HIST_SUB > v || err * 1000 > 4 * v)
				bad++;
			/* keep the worst ratio: err/v > worst_err/worst_v */
			if (!worst_v || (u128)err * worst_v > (u128)worst_err * v) {
				worst_err = err;
				worst_v = v;
			}
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U,
			    "worst: %llu ns reported with error %llu ns",
			    worst_v, worst_err);
	KUNIT_EXPECT_GT(test, checked, 2000ULL);
	/* values below SUB are exact */
	for (k = 0; k < SSDLOAD_HIST_SUB; k++)
		KUNIT_EXPECT_EQ(test, ssdload_hist_value(ssdload_hist_index(k)),
				(u64)k);
	/* 10 minutes is inside the range, not clamped */
	KUNIT_EXPECT_LT(test, ssdload_hist_index(600ULL * NSEC_PER_SEC),
			SSDLOAD_HIST_BUCKETS - 1);
}

/*
 * Several workers (one per CPU in a run) record known latencies in both
 * directions; ssdload_sum_dir() must give the exact totals, extremes,
 * sums and the bucket-by-bucket sum of the workers' histograms.
 */
static void test_merge(struct kunit *test)
{
	/* mean 5, population stddev 2 */
	static const u64 lat[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct ssdload_job *job = hist_job(test);
	u64 exp_sum = 0, exp_sumsq = 0, total = 0;
	struct ssdload_sum s;
	u64 *hist, *exp;
	unsigned int i, b, wi;

	hist = kunit_kcalloc(test, SSDLOAD_HIST_BUCKETS, sizeof(u64), GFP_KERNEL);
	exp = kunit_kcalloc(test, SSDLOAD_HIST_BUCKETS, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hist);
	KUNIT_ASSERT_NOT_NULL(test, exp);
	job->cfg.bs = 8192;

	/* reads: lat[] spread round-robin over the workers, scaled to us */
	for (i = 0; i < ARRAY_SIZE(lat); i++) {
		u64 v = lat[i] * 1000;

		hist_record(job, i % HIST_WORKERS, SSDLOAD_DIR_READ, v);
		exp[ssdload_hist_index(v)]++;
		exp_sum += v;
		exp_sumsq += v * v;
	}
	/* writes: a different set, only on worker 1 and 3 */
	for (wi = 1; wi < HIST_WORKERS; wi += 2)
		for (i = 1; i <= 100; i++)
			hist_record(job, wi, SSDLOAD_DIR_WRITE, i * 977 + wi);
	/* one unmeasured (ramp) read: counted as done, not in the stats */
	hist_record_ramp(job, 2, SSDLOAD_DIR_READ, 1);

	ssdload_sum_dir(job, SSDLOAD_DIR_READ, &s, hist);
	KUNIT_EXPECT_EQ(test, s.ios, (u64)ARRAY_SIZE(lat));
	KUNIT_EXPECT_EQ(test, s.done, (u64)ARRAY_SIZE(lat) + 1);
	KUNIT_EXPECT_EQ(test, s.bytes, (u64)ARRAY_SIZE(lat) * 8192);
	KUNIT_EXPECT_EQ(test, s.errors, 0ULL);
	KUNIT_EXPECT_EQ(test, s.lat_min, 2000ULL);
	KUNIT_EXPECT_EQ(test, s.lat_max, 9000ULL);
	KUNIT_EXPECT_EQ(test, s.lat_sum, exp_sum);
	KUNIT_EXPECT_TRUE(test, s.lat_sumsq == (u128)exp_sumsq);
	KUNIT_EXPECT_EQ(test, ssdload_sum_mean(&s), 5000ULL);
	KUNIT_EXPECT_EQ(test, ssdload_sum_stddev(&s), 2000ULL);
	for (b = 0; b < SSDLOAD_HIST_BUCKETS; b++) {
		total += hist[b];
		if (hist[b] != exp[b]) {
			KUNIT_FAIL(test, "read bucket %u: %llu, expected %llu",
				   b, hist[b], exp[b]);
			break;
		}
	}
	KUNIT_EXPECT_EQ(test, total, s.ios);

	/* writes: sum over workers 1 and 3, bucket by bucket */
	memset(exp, 0, SSDLOAD_HIST_BUCKETS * sizeof(u64));
	for (wi = 1; wi < HIST_WORKERS; wi += 2)
		for (i = 1; i <= 100; i++)
			exp[ssdload_hist_index(i * 977 + wi)]++;
	ssdload_sum_dir(job, SSDLOAD_DIR_WRITE, &s, hist);
	KUNIT_EXPECT_EQ(test, s.ios, 200ULL);
	KUNIT_EXPECT_EQ(test, s.lat_min, 977ULL + 1);
	KUNIT_EXPECT_EQ(test, s.lat_max, 97700ULL + 3);
	KUNIT_EXPECT_EQ(test, memcmp(hist, exp, SSDLOAD_HIST_BUCKETS * sizeof(u64)),
			0);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* xorshift64*: the test's own sample generator, independent of worker.c */
static u64 sample_next(u64 *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dULL;
}

/*
 * Percentiles from the merged counts, by the rule of the CLI and fio
 * (userspace/core/hist.c: the first bucket whose cumulative count reaches
 * pct * N, reported by its midpoint), against the exact percentiles of the
 * sorted samples: the k-th smallest sample lies in that bucket, so the
 * two differ by at most the histogram's relative error.
 */
static void test_percentiles(struct kunit *test)
{
	/* percentiles in 1/100 of a percent: fio's default list */
	static const u32 pcts[] = {
		100, 500, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000,
		9000, 9500, 9900, 9950, 9990, 9995, 9999, 10000,
	};
	struct ssdload_job *job = hist_job(test);
	struct ssdload_sum s;
	u64 *samples, *hist;
	u64 x = 0x9e3779b97f4a7c15ULL;
	unsigned int i, p;

	samples = kvmalloc_array(PCT_SAMPLES, sizeof(u64), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, samples);
	hist = kunit_kcalloc(test, SSDLOAD_HIST_BUCKETS, sizeof(u64), GFP_KERNEL);
	if (!hist)
		kvfree(samples);
	KUNIT_ASSERT_NOT_NULL(test, hist);

	/* log-uniform latencies from 50 ns to ~100 s, plus a 1 ms mode */
	for (i = 0; i < PCT_SAMPLES; i++) {
		u64 r = sample_next(&x);
		u64 v = (r >> 27) & ((1ULL << (6 + (r & 31))) - 1);

		if (i % 5 == 0)
			v = 1000000 + (r >> 50);
		samples[i] = v + 50;
		hist_record(job, i % HIST_WORKERS, SSDLOAD_DIR_READ, samples[i]);
	}
	sort(samples, PCT_SAMPLES, sizeof(u64), cmp_u64, NULL);
	ssdload_sum_dir(job, SSDLOAD_DIR_READ, &s, hist);
	KUNIT_EXPECT_EQ(test, s.ios, (u64)PCT_SAMPLES);
	KUNIT_EXPECT_EQ(test, s.lat_min, samples[0]);
	KUNIT_EXPECT_EQ(test, s.lat_max, samples[PCT_SAMPLES - 1]);

	for (p = 0; p < ARRAY_SIZE(pcts); p++) {
		u64 k = DIV_ROUND_UP_ULL((u64)pcts[p] * PCT_SAMPLES, 10000);
		u64 exact = samples[k - 1], cum = 0, got, err;
		u32 b;

		for (b = 0; b < SSDLOAD_HIST_BUCKETS - 1; b++) {
			cum += hist[b];
			if (cum >= k)
				break;
		}
		got = ssdload_hist_value(b);
		err = got > exact ? got - exact : exact - got;
		KUNIT_EXPECT_EQ_MSG(test, b, ssdload_hist_index(exact),
				    "p%u.%02u: bucket of the exact value",
				    pcts[p] / 100, pcts[p] % 100);
		KUNIT_EXPECT_LE_MSG(test, err * 2 * SSDLOAD_HIST_SUB, exact,
				    "p%u.%02u: %llu from counts, exact %llu",
				    pcts[p] / 100, pcts[p] % 100, got, exact);
	}
	kvfree(samples);
}

/* The range edges: exact small values, clamping at the top, overflow. */
static void test_clamp(struct kunit *test)
{
	struct ssdload_job *job = hist_job(test);
	const struct ssdload_dstat *d =
		&job->workers[0]->res.st[SSDLOAD_DIR_READ];
	u32 last = SSDLOAD_HIST_BUCKETS - 1;
	struct ssdload_sum s;

	KUNIT_EXPECT_EQ(test, ssdload_hist_index(0), 0U);
	KUNIT_EXPECT_EQ(test, ssdload_hist_index(1), 1U);
	KUNIT_EXPECT_EQ(test, ssdload_hist_index(SSDLOAD_HIST_SUB - 1),
			SSDLOAD_HIST_SUB - 1);
	KUNIT_EXPECT_EQ(test, ssdload_hist_index(SSDLOAD_HIST_SUB),
			SSDLOAD_HIST_SUB);
	KUNIT_EXPECT_EQ(test, ssdload_hist_index(SSDLOAD_HIST_MAX_VALUE), last);
	KUNIT_EXPECT_EQ(test, ssdload_hist_index(SSDLOAD_HIST_MAX_VALUE + 1),
			last);
	KUNIT_EXPECT_EQ(test, ssdload_hist_index(U64_MAX), last);
	KUNIT_EXPECT_LT(test, ssdload_hist_index(SSDLOAD_HIST_MAX_VALUE / 2 + 1),
			last);

	/* recording at both edges: 0 ns, the top value and beyond */
	hist_record(job, 0, SSDLOAD_DIR_READ, 0);
	hist_record(job, 0, SSDLOAD_DIR_READ, SSDLOAD_HIST_MAX_VALUE);
	hist_record(job, 0, SSDLOAD_DIR_READ, SSDLOAD_HIST_MAX_VALUE + 1);
	hist_record(job, 0, SSDLOAD_DIR_READ, 3ULL << 50);
	KUNIT_EXPECT_EQ(test, d->hist[0], 1ULL);
	KUNIT_EXPECT_EQ(test, d->hist[last], 3ULL);
	KUNIT_EXPECT_EQ(test, d->overflow, 2ULL);

	ssdload_sum_dir(job, SSDLOAD_DIR_READ, &s, NULL);
	KUNIT_EXPECT_EQ(test, s.ios, 4ULL);
	KUNIT_EXPECT_EQ(test, s.overflow, 2ULL);
	KUNIT_EXPECT_EQ(test, s.lat_min, 0ULL);
	/* min/max stay exact beyond the histogram's range */
	KUNIT_EXPECT_EQ(test, s.lat_max, 3ULL << 50);

	/* a direction without samples reports min 0, not U64_MAX */
	ssdload_sum_dir(job, SSDLOAD_DIR_WRITE, &s, NULL);
	KUNIT_EXPECT_EQ(test, s.ios, 0ULL);
	KUNIT_EXPECT_EQ(test, s.lat_min, 0ULL);
	KUNIT_EXPECT_EQ(test, s.lat_max, 0ULL);
	KUNIT_EXPECT_EQ(test, ssdload_sum_mean(&s), 0ULL);
}

/* Exact 128-bit decimal printing (sum of squares in debugfs). */
static void test_u128_str(struct kunit *test)
{
	char buf[48];

	ssdload_u128_to_str(0, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "0");
	ssdload_u128_to_str(1000000000ULL, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "1000000000");
	ssdload_u128_to_str((u128)U64_MAX * U64_MAX, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   "340282366920938463426481119284349108225");
	ssdload_u128_to_str(~(u128)0, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf,
			   "340282366920938463463374607431768211455");
}

/* fio's io_u_mark_depth() bucket of a depth, as its switch writes it */
static unsigned int fio_depth_bucket(unsigned int n)
{
	if (n >= 64)
		return 6;
	if (n >= 32)
		return 5;
	if (n >= 16)
		return 4;
	if (n >= 8)
		return 3;
	if (n >= 4)
		return 2;
	return n >= 2 ? 1 : 0;
}

/* fio's __io_u_mark_map() bucket of a batch (iodepth_submit/_complete) */
static unsigned int fio_batch_bucket(unsigned int n)
{
	if (n > 64)
		return 6;
	if (n > 32)
		return 5;
	if (n > 16)
		return 4;
	if (n > 8)
		return 3;
	if (n > 4)
		return 2;
	return n ? 1 : 0;
}

/* The depth and batch buckets are fio's, at every edge. */
static void test_depth_buckets(struct kunit *test)
{
	unsigned int n;

	for (n = 1; n <= 1024; n++)
		KUNIT_EXPECT_EQ_MSG(test, ssdload_depth_bucket(n),
				    fio_depth_bucket(n), "depth %u", n);
	for (n = 0; n <= 1024; n++)
		KUNIT_EXPECT_EQ_MSG(test, ssdload_batch_bucket(n),
				    fio_batch_bucket(n), "batch of %u", n);
	KUNIT_EXPECT_EQ(test, ssdload_depth_bucket(UINT_MAX), SSDLOAD_DEPTH_NR - 1);
	KUNIT_EXPECT_EQ(test, ssdload_batch_bucket(UINT_MAX), SSDLOAD_DEPTH_NR - 1);
}

static struct kunit_case ssdload_hist_cases[] = {
	KUNIT_CASE(test_round_trip),
	KUNIT_CASE(test_relative_error),
	KUNIT_CASE(test_merge),
	KUNIT_CASE(test_percentiles),
	KUNIT_CASE(test_clamp),
	KUNIT_CASE(test_u128_str),
	KUNIT_CASE(test_depth_buckets),
	{}
};

static struct kunit_suite ssdload_hist_suite = {
	.name = "ssdload_hist",
	.init = ssdload_hist_init,
	.exit = ssdload_hist_exit,
	.test_cases = ssdload_hist_cases,
};

kunit_test_suite(ssdload_hist_suite);
