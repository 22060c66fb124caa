// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_walk: fio's rw suffixes (rw_gap, rw_seq_nr) and
 * numjobs clones (offset_increment, size_increment) of walk.c.  The
 * expected offsets are fio 3.33's, from its --write_iolog of the same
 * jobs on a 1 MiB file (bs=4k, size=64k).
 */
#include <linux/kernel.h>

#include "ssdload_test.h"

#define K		1024ULL

static int ssdload_walk_init(struct kunit *test)
{
	ssdload_test_job_new(test, 3, false);
	return 0;
}

static void ssdload_walk_exit(struct kunit *test)
{
	ssdload_test_job_del(test->priv);
}

static struct ssdload_worker *walk_worker(struct kunit *test, unsigned int i)
{
	struct ssdload_test_job *tj = test->priv;

	return tj->job->workers[i];
}

/* Worker 0 over the whole span of 64 KiB at @start, bs 4 KiB, @gap. */
static struct ssdload_worker *walk_setup(struct kunit *test, u64 start,
					 s64 gap)
{
	struct ssdload_worker *w = walk_worker(test, 0);

	ssdload_test_span(w->job, start, 4 * K, 16);
	w->job->cfg.rw_gap = gap;
	w->phase.random = false;
	w->wd[0].slice_start = 0;
	w->wd[0].slice_len = 16;
	w->wd[0].rnd_begin = 0;
	w->wd[0].rnd_end = 64 * K;
	ssdload_walk_arm(w);
	return w;
}

/* The next @n offsets, in KiB from the span's start, against @want. */
static void walk_expect(struct kunit *test, struct ssdload_worker *w,
			const u64 *want, unsigned int n, u64 start)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 pos = ssdload_next_pos(w, SSDLOAD_DIR_READ);

		KUNIT_EXPECT_EQ_MSG(test, (pos - start) / K, want[i],
				    "I/O %u", i);
	}
}

/*
 * rw=read:8k: 0 12 24 36 48 60, then the walk wraps to the start; the
 * I/O at 60 is the last of a one-pass run (walk_end), as fio's.
 */
static void test_walk_forward(struct kunit *test)
{
	static const u64 want[] = { 0, 12, 24, 36, 48 };
	struct ssdload_worker *w = walk_setup(test, 128 * K, 8 * K);

	walk_expect(test, w, want, ARRAY_SIZE(want), 128 * K);
	KUNIT_EXPECT_FALSE(test, w->cursor.walk_end);
	KUNIT_EXPECT_EQ(test, ssdload_next_pos(w, SSDLOAD_DIR_READ),
			188 * K);
	KUNIT_EXPECT_TRUE(test, w->cursor.walk_end);
	w->cursor.walk_end = false;
	/* time based: round again from the region's start */
	walk_expect(test, w, want, ARRAY_SIZE(want), 128 * K);
}

/* rw=read:-8k at offset=128k: 56 52 ... 4 0, then 56 again. */
static void test_walk_backward(struct kunit *test)
{
	static const u64 want[] = { 56, 52, 48, 44, 40, 36, 32, 28, 24, 20,
				    16, 12, 8, 4, 0, 56, 52 };
	struct ssdload_worker *w = walk_setup(test, 128 * K, -8 * (s64)K);

	walk_expect(test, w, want, ARRAY_SIZE(want), 128 * K);
	KUNIT_EXPECT_FALSE(test, w->cursor.walk_end);
}

/* fio 3.33 starts a backward walk at 0 when the region starts at 0. */
static void test_walk_backward_at_zero(struct kunit *test)
{
	static const u64 want[] = { 0, 56, 52, 48 };
	struct ssdload_worker *w = walk_setup(test, 0, -8 * (s64)K);

	walk_expect(test, w, want, ARRAY_SIZE(want), 0);
}

/* ... and at region - start + gap for a start within the region's size. */
static void test_walk_backward_at_16k(struct kunit *test)
{
	static const u64 want[] = { 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0,
				    56 };
	struct ssdload_worker *w = walk_setup(test, 16 * K, -8 * (s64)K);

	walk_expect(test, w, want, ARRAY_SIZE(want), 16 * K);
}

/* The arithmetic alone: wraps at both ends, gaps larger than the region. */
static void test_walk_after(struct kunit *test)
{
	static const struct {
		s64 off, gap;
		u64 region;
		s64 want;
		bool end;
	} c[] = {
		{ 0, 8 * K, 64 * K, 12 * K, false },
		{ 48 * K, 8 * K, 64 * K, 60 * K, false },
		{ 56 * K, 4 * K, 64 * K, 0, true },	/* 64 + 4: no room */
		{ 60 * K, 0, 64 * K, 0, true },		/* contiguous wrap */
		{ 4 * K, -8 * (s64)K, 64 * K, 0, false },
		{ 0, -8 * (s64)K, 64 * K, 56 * K, false }, /* below 0 */
		{ 0, -4 * (s64)K, 64 * K, 0, false },	/* the same block */
		{ 0, -128 * (s64)K, 64 * K, 0, false },	/* |gap| > region */
		{ 60 * K, 1 << 30, 64 * K, 0, true },	/* gap > region */
		{ 56 * K, -2 * (s64)K, 64 * K, 58 * K, false }, /* overlap */
		{ 60 * K, -2 * (s64)K, 64 * K, 0, true },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		bool end = false;

		KUNIT_EXPECT_EQ_MSG(test,
				    ssdload_walk_after(c[i].off, 4 * K,
						       c[i].gap, c[i].region,
						       &end),
				    c[i].want, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, end, c[i].end, "case %u", i);
	}
	/* first offsets: forward 0; backward by the region's start */
	KUNIT_EXPECT_EQ(test, ssdload_walk_first(128 * K, 64 * K, 8 * K, 4 * K),
			0);
	KUNIT_EXPECT_EQ(test, ssdload_walk_first(64 * K, 64 * K,
						 -8 * (s64)K, 4 * K), 0);
	KUNIT_EXPECT_EQ(test, ssdload_walk_first(1 << 30, 4 * K,
						 -8 * (s64)K, 4 * K), 0);
}

/*
 * rw=randread:4: the first of each 4 I/Os is drawn, the 3 after it go
 * on from it; one that would pass the region's end goes to its start,
 * and the I/O before it ends a one-pass run.
 */
static void test_walk_rseq(struct kunit *test)
{
	struct ssdload_worker *w = walk_worker(test, 0);
	unsigned int i, k, ends = 0, bad = 0;
	u64 pos, prev = 0;

	ssdload_test_span(w->job, 1 << 20, 4 * K, 16);
	w->job->cfg.rw_seq_nr = 4;
	w->phase.random = true;
	w->wd[0].rnd_begin = 0;
	w->wd[0].rnd_end = 64 * K;
	ssdload_walk_arm(w);
	for (i = 0; i < 400; i++) {
		pos = ssdload_next_pos(w, SSDLOAD_DIR_READ) - (1 << 20);
		k = i % 4;
		if (pos % (4 * K) || pos + 4 * K > 64 * K)
			bad++;
		/* sequential after the draw: the end before, or the start */
		if (k && pos != prev + 4 * K && !(prev == 60 * K && !pos))
			bad++;
		if (w->cursor.walk_end) {
			ends++;
			/* the next one is sequential and would not fit */
			KUNIT_EXPECT_EQ(test, pos, 60 * K);
			KUNIT_EXPECT_NE(test, k, 3U);
			w->cursor.walk_end = false;
		}
		prev = pos;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	/* 100 draws, 1 in 16 at 60k, most with a sequential I/O after */
	KUNIT_EXPECT_GT(test, ends, 0U);
	w->job->cfg.rw_seq_nr = 0;
}

/*
 * offset_increment=100k, size_increment=16k, size=64k, 3 workers at
 * offset 32k: worker k covers 32k + 100k * k for 64k + 16k * k bytes;
 * the span ends with the last worker's region.
 */
static void test_clone_regions(struct kunit *test)
{
	struct ssdload_worker *w = walk_worker(test, 2);
	struct ssdload_job *job = w->job;
	struct ssdload_dev *dev = &job->devs[0];
	u64 size = 64 * K;
	unsigned int i;

	ssdload_test_span(job, 32 * K, 4 * K, 16);
	job->cfg.offset_increment = 100 * K;
	job->cfg.size_increment = 16 * K;
	job->plan_nr = 3;
	job->clones = true;
	KUNIT_ASSERT_EQ(test, ssdload_plan_clones(job, dev, 32 * K, &size,
						  false, 1 << 20), 0);
	KUNIT_EXPECT_EQ(test, size, (200 + 96) * K);
	dev->span_bytes = size;
	for (i = 0; i < 3; i++) {
		struct ssdload_worker *c = walk_worker(test, i);

		ssdload_walk_plan_worker(job, c, 0);
		KUNIT_EXPECT_EQ(test, c->wd[0].slice_start * job->ba,
				i * 100 * K);
		KUNIT_EXPECT_EQ(test, c->wd[0].slice_len * job->ba,
				(64 + 16 * i) * K);
		KUNIT_EXPECT_EQ(test, c->wd[0].rnd_units, 16ULL + 4 * i);
	}
	/* without size: each region runs to the device's end */
	size = (1 << 20) - 32 * K;
	job->cfg.size_increment = 0;
	KUNIT_ASSERT_EQ(test, ssdload_plan_clones(job, dev, 32 * K, &size,
						  true, 1 << 20), 0);
	ssdload_walk_plan_worker(job, w, 0);
	KUNIT_EXPECT_EQ(test, (w->wd[0].slice_start + w->wd[0].slice_len) *
			job->ba + 32 * K, 1ULL << 20);
	job->clones = false;
	job->cfg.offset_increment = 0;
}

static struct kunit_case ssdload_walk_cases[] = {
	KUNIT_CASE(test_walk_forward),
	KUNIT_CASE(test_walk_backward),
	KUNIT_CASE(test_walk_backward_at_zero),
	KUNIT_CASE(test_walk_backward_at_16k),
	KUNIT_CASE(test_walk_after),
	KUNIT_CASE(test_walk_rseq),
	KUNIT_CASE(test_clone_regions),
	{}
};

static struct kunit_suite ssdload_walk_suite = {
	.name = "ssdload_walk",
	.init = ssdload_walk_init,
	.exit = ssdload_walk_exit,
	.test_cases = ssdload_walk_cases,
};

kunit_test_suite(ssdload_walk_suite);
