// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_offset: the worker PRNG (xoshiro256** seeded by
 * splitmix64), its bounded draw, the one-pass permutation (and its
 * norandommap opposite) and the offset generator of worker.c.
 */
#include <linux/bitmap.h>
#include <linux/math64.h>

#include "ssdload_test.h"

#define CHI_CELLS	64
#define CHI_DRAWS	(1024U * 1024U)
/* chi-square, 63 degrees of freedom: P(X > 103.4) = P(X < 33.8) = 0.001 */
#define CHI_MAX_X10	1034
#define CHI_MIN_X10	338

/* Suite fixture: one job with two workers, no statistics. */
static int ssdload_offset_init(struct kunit *test)
{
	ssdload_test_job_new(test, 2, false);
	return 0;
}

static void ssdload_offset_exit(struct kunit *test)
{
	ssdload_test_job_del(test->priv);
}

static struct ssdload_worker *offset_worker(struct kunit *test,
					    unsigned int i)
{
	struct ssdload_test_job *tj = test->priv;

	return tj->job->workers[i];
}

/*
 * A step's own blockalign over the job's 512 B unit: 4 KiB steps land on
 * 4 KiB (from the span's start), 512 B steps on 512 B, not all on 4 KiB.
 */
static void test_random_step_align(struct kunit *test)
{
	struct ssdload_worker *w = offset_worker(test, 0);
	unsigned int i, off4k = 0, bad = 0;
	u64 pos;

	w->phase.random = true;
	ssdload_test_span(w->job, 512, 512, 1 << 20);
	w->phase.ba = 4096;
	for (i = 0; i < 20000; i++) {
		pos = ssdload_next_pos(w, SSDLOAD_DIR_READ) - 512;
		if (pos % 4096 || pos + 512 > (512ULL << 20))
			bad++;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	w->phase.ba = 512;
	for (i = 0; i < 20000; i++) {
		pos = ssdload_next_pos(w, SSDLOAD_DIR_READ) - 512;
		if (pos % 4096)
			off4k++;
	}
	/* 7 in 8 are off 4 KiB: far more than 1000 of 20000 */
	KUNIT_EXPECT_GT(test, off4k, 1000U);
}

/*
 * rw=rw: reads and writes keep a position each (as fio does), so both
 * streams are sequential however the mix interleaves them.
 */
static void test_sequential_per_direction(struct kunit *test)
{
	struct ssdload_worker *w = offset_worker(test, 0);
	const u64 start = 0, bs = 512;
	u64 next[SSDLOAD_DIR_NR] = { 0, 0 };
	unsigned int i;

	ssdload_test_span(w->job, start, bs, 64);
	w->phase.random = false;
	w->wd[0].slice_start = 0;
	w->wd[0].slice_len = 64;
	for (i = 0; i < 200; i++) {
		u8 dir = (i * 7 + i / 3) % 3 ? SSDLOAD_DIR_READ : SSDLOAD_DIR_WRITE;
		u64 pos = ssdload_next_pos(w, dir);

		KUNIT_EXPECT_EQ_MSG(test, pos, start + next[dir] * bs,
				    "I/O %u, dir %u", i, dir);
		next[dir] = (next[dir] + 1) % 64;
	}
	KUNIT_EXPECT_GT(test, next[SSDLOAD_DIR_READ], 0ULL);
	KUNIT_EXPECT_GT(test, next[SSDLOAD_DIR_WRITE], 0ULL);
}

/* A worker walks its slice from the start and wraps at its end. */
static void test_sequential_walk(struct kunit *test)
{
	struct ssdload_worker *w = offset_worker(test, 0);
	const u64 start = 1 << 20, bs = 4096;
	unsigned int i;

	ssdload_test_span(w->job, start, bs, 16);
	w->phase.random = false;
	w->wd[0].slice_start = 3;
	w->wd[0].slice_len = 5;
	w->wd[0].next[SSDLOAD_DIR_READ] = 0;
	for (i = 0; i < 3 * 5 + 2; i++) {
		u64 pos = ssdload_next_pos(w, SSDLOAD_DIR_READ);

		KUNIT_EXPECT_EQ_MSG(test, pos, start + (3 + i % 5) * bs,
				    "I/O %u", i);
	}
	/* the cursor is back at the slice start + 2 */
	KUNIT_EXPECT_EQ(test, w->wd[0].next[SSDLOAD_DIR_READ], 2 * bs);
}

/*
 * Two workers with slices [0, 7) and [7, 13) of a 13-block span (as
 * job.c cuts it): together they cover every block once per pass, each
 * inside its own slice, and a one-block slice stays on its block.
 */
static void test_sequential_slices(struct kunit *test)
{
	struct ssdload_worker *w0 = offset_worker(test, 0);
	struct ssdload_worker *w1 = offset_worker(test, 1);
	const u64 start = 512 * 3, bs = 512;
	unsigned long seen = 0;
	unsigned int i;

	ssdload_test_span(w0->job, start, bs, 13);
	w0->wd[0].slice_start = 0;
	w0->wd[0].slice_len = 7;
	w1->wd[0].slice_start = 7;
	w1->wd[0].slice_len = 6;
	for (i = 0; i < 7; i++) {
		u64 b0 = (ssdload_next_pos(w0, SSDLOAD_DIR_READ) - start) / bs;

		KUNIT_EXPECT_LT(test, b0, 7ULL);
		seen |= BIT(b0);
	}
	for (i = 0; i < 6; i++) {
		u64 b1 = (ssdload_next_pos(w1, SSDLOAD_DIR_READ) - start) / bs;

		KUNIT_EXPECT_GE(test, b1, 7ULL);
		KUNIT_EXPECT_LT(test, b1, 13ULL);
		seen |= BIT(b1);
	}
	KUNIT_EXPECT_EQ(test, seen, BIT(13) - 1);
	/* both wrapped to their slice starts */
	KUNIT_EXPECT_EQ(test, ssdload_next_pos(w0, SSDLOAD_DIR_READ), start);
	KUNIT_EXPECT_EQ(test, ssdload_next_pos(w1, SSDLOAD_DIR_READ), start + 7 * bs);

	w0->wd[0].slice_start = 12;
	w0->wd[0].slice_len = 1;
	w0->wd[0].next[SSDLOAD_DIR_READ] = 0;
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, ssdload_next_pos(w0, SSDLOAD_DIR_READ), start + 12 * bs);
}

/* Random offsets are bs-aligned and inside [offset, offset + size). */
static void test_random_aligned(struct kunit *test)
{
	static const struct {
		u64 start, bs, nr_blocks;
	} spans[] = {
		{ 0, 4096, 1 },
		{ 512, 4096, 3 },
		{ 1 << 20, 65536, 1000003 },
		{ 7 * 512, 512, 1ULL << 40 },
		{ 4096, 16 << 20, (1ULL << 39) - 1 },
	};
	struct ssdload_worker *w = offset_worker(test, 0);
	unsigned int s, i, bad = 0;

	w->phase.random = true;
	for (s = 0; s < ARRAY_SIZE(spans); s++) {
		u64 end = spans[s].start + spans[s].nr_blocks * spans[s].bs;

		ssdload_test_span(w->job, spans[s].start, spans[s].bs,
				  spans[s].nr_blocks);
		for (i = 0; i < 20000; i++) {
			u64 pos = ssdload_next_pos(w, SSDLOAD_DIR_READ);

			if (pos >= spans[s].start && pos + spans[s].bs <= end &&
			    !((pos - spans[s].start) % spans[s].bs))
				continue;
			if (!bad++)
				KUNIT_FAIL(test, "span %u: offset %llu in [%llu, %llu), bs %llu",
					   s, pos, spans[s].start, end, spans[s].bs);
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

/*
 * Uniformity: 2^20 random offsets over a span of 64 * 15625 blocks (not a
 * power of two, so the rejection path of the bounded draw is live) fall
 * into 64 equal cells; Pearson's chi-square with 63 degrees of freedom
 * must lie inside its central 99.8% (fixed seed: deterministic).
 */
static void test_random_uniform(struct kunit *test)
{
	struct ssdload_worker *w = offset_worker(test, 0);
	const u64 nr_blocks = CHI_CELLS * 15625ULL, bs = 4096;
	const u64 expect = CHI_DRAWS / CHI_CELLS;
	u32 *cells;
	u64 chi_x10 = 0;
	unsigned int i;

	cells = kunit_kcalloc(test, CHI_CELLS, sizeof(*cells), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cells);
	w->phase.random = true;
	w->job->cfg.randseed = 12345;
	ssdload_rng_seed(w, w->job->cfg.randseed);
	ssdload_test_span(w->job, 0, bs, nr_blocks);
	for (i = 0; i < CHI_DRAWS; i++) {
		u64 blk = ssdload_next_pos(w, SSDLOAD_DIR_READ) / bs;

		cells[div64_u64(blk * CHI_CELLS, nr_blocks)]++;
	}
	for (i = 0; i < CHI_CELLS; i++) {
		s64 d = (s64)cells[i] - (s64)expect;

		chi_x10 += div64_u64((u64)(d * d) * 10, expect);
	}
	kunit_info(test, "chi-square over %u cells, %u draws: %llu.%llu\n",
		   CHI_CELLS, CHI_DRAWS, chi_x10 / 10, chi_x10 % 10);
	KUNIT_EXPECT_LE(test, chi_x10, (u64)CHI_MAX_X10);
	KUNIT_EXPECT_GE(test, chi_x10, (u64)CHI_MIN_X10);
}

/* The same seed gives the same sequence; other seeds and workers differ. */
static void test_same_seed(struct kunit *test)
{
	struct ssdload_worker *a = offset_worker(test, 0);
	struct ssdload_worker *b = offset_worker(test, 1);
	unsigned int i, same_seed = 0, other_worker = 0, other_seed = 0;
	u64 first[64];

	a->phase.random = true;
	b->phase.random = true;
	b->phase.mixed = true;
	a->phase.mixed = true;
	ssdload_test_span(a->job, 0, 4096, 1 << 20);

	ssdload_rng_seed(a, 42);
	for (i = 0; i < ARRAY_SIZE(first); i++)
		first[i] = ssdload_next_pos(a, SSDLOAD_DIR_READ) << 1 | ssdload_next_dir(a);
	/* reseeding restarts the sequence */
	ssdload_rng_seed(a, 42);
	for (i = 0; i < ARRAY_SIZE(first); i++)
		same_seed += first[i] ==
			     (ssdload_next_pos(a, SSDLOAD_DIR_READ) << 1 | ssdload_next_dir(a));
	KUNIT_EXPECT_EQ(test, same_seed, (unsigned int)ARRAY_SIZE(first));

	/* a second worker with the same seed has its own stream */
	ssdload_rng_seed(b, 42);
	for (i = 0; i < ARRAY_SIZE(first); i++)
		other_worker += first[i] ==
				(ssdload_next_pos(b, SSDLOAD_DIR_READ) << 1 | ssdload_next_dir(b));
	KUNIT_EXPECT_LT(test, other_worker, 4U);

	/* another seed gives another sequence */
	ssdload_rng_seed(a, 43);
	for (i = 0; i < ARRAY_SIZE(first); i++)
		other_seed += first[i] ==
			      (ssdload_next_pos(a, SSDLOAD_DIR_READ) << 1 | ssdload_next_dir(a));
	KUNIT_EXPECT_LT(test, other_seed, 4U);

	/* the raw generator is reproducible too */
	ssdload_rng_seed(a, 0);
	b->idx = a->idx;
	ssdload_rng_seed(b, 0);
	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_EQ(test, ssdload_rng_next(a), ssdload_rng_next(b));
}

/*
 * Random one pass: slice_len I/Os visit every block of the slice exactly
 * once, inside the slice, for slice lengths around powers of two (where
 * cycle walking matters most) and odd sizes; the order is not the
 * identity, the next pass repeats it, and another seed gives another one.
 */
struct perm_case {
	u64 slice_start, slice_len;
	const char *desc;
};

static const struct perm_case perm_cases[] = {
	{ 0, 1, "len=1" },
	{ 5, 2, "len=2" },
	{ 0, 3, "len=3" },
	{ 100, 64, "len=64" },
	{ 7, 65, "len=65" },
	{ 0, 1000, "len=1000" },
	{ 3, 4095, "len=4095" },
	{ 0, 65537, "len=65537" },
	{ 11, 100003, "len=100003" },
};

KUNIT_ARRAY_PARAM_DESC(perm, perm_cases, desc);

static void test_random_one_pass(struct kunit *test)
{
	const struct perm_case *c = test->param_value;
	struct ssdload_worker *w = offset_worker(test, 0);
	const u64 bs = 512, nr_blocks = c->slice_start + c->slice_len + 9;
	unsigned long *seen;
	u64 i, in_place = 0, dup = 0, outside = 0, first[8];

	seen = kunit_kcalloc(test, BITS_TO_LONGS(c->slice_len), sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	ssdload_test_span(w->job, 0, bs, nr_blocks);
	w->phase.random = true;
	w->wd[0].slice_start = c->slice_start;
	w->wd[0].slice_len = c->slice_len;
	ssdload_perm_init(&w->wd[0], w->idx, 99);
	KUNIT_ASSERT_TRUE(test, w->wd[0].perm);
	for (i = 0; i < c->slice_len; i++) {
		u64 blk = ssdload_next_pos(w, SSDLOAD_DIR_READ) / bs;

		if (i < ARRAY_SIZE(first))
			first[i] = blk;
		if (blk < c->slice_start || blk >= c->slice_start + c->slice_len) {
			outside++;
			continue;
		}
		blk -= c->slice_start;
		in_place += blk == i;
		dup += test_and_set_bit(blk, seen);
	}
	KUNIT_EXPECT_EQ(test, outside, 0ULL);
	KUNIT_EXPECT_EQ(test, dup, 0ULL);
	KUNIT_EXPECT_EQ(test, (u64)bitmap_weight(seen, c->slice_len), c->slice_len);
	if (c->slice_len >= 64)	/* shuffled: few blocks where a walk puts them */
		KUNIT_EXPECT_LT(test, in_place, c->slice_len / 8);

	/* the next pass replays the same order */
	for (i = 0; i < min_t(u64, c->slice_len, ARRAY_SIZE(first)); i++)
		KUNIT_EXPECT_EQ(test, ssdload_next_pos(w, SSDLOAD_DIR_READ) / bs, first[i]);

	/* another seed, another order */
	if (c->slice_len >= 64) {
		u64 same = 0;

		ssdload_perm_init(&w->wd[0], w->idx, 100);
		for (i = 0; i < ARRAY_SIZE(first); i++)
			same += ssdload_next_pos(w, SSDLOAD_DIR_READ) / bs == first[i];
		KUNIT_EXPECT_LT(test, same, (u64)ARRAY_SIZE(first));
	}
	w->wd[0].perm = false;
}

/*
 * norandommap: a one-pass random run is no permutation; its draws land
 * anywhere in the span, with replacement, so some blocks come twice
 * (as fio's norandommap).  The same pass without it is a permutation
 * (test_random_one_pass).
 */
static void test_norandommap_one_pass(struct kunit *test)
{
	struct ssdload_worker *w = offset_worker(test, 0);
	const u64 bs = 512, nr = 1024;
	u64 i, dup = 0, outside = 0;
	unsigned long *seen;

	seen = kunit_kcalloc(test, BITS_TO_LONGS(nr), sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	ssdload_test_span(w->job, 0, bs, nr);
	w->phase.random = true;
	w->cursor.one_pass = true;
	KUNIT_EXPECT_TRUE(test, ssdload_pass_perm(w->job, w));
	w->job->cfg.norandommap = 1;
	KUNIT_EXPECT_FALSE(test, ssdload_pass_perm(w->job, w));
	w->wd[0].slice_start = 0;
	w->wd[0].slice_len = nr;
	for (i = 0; i < nr; i++) {
		u64 blk = ssdload_next_pos(w, SSDLOAD_DIR_READ) / bs;

		if (blk >= nr) {
			outside++;
			continue;
		}
		dup += test_and_set_bit(blk, seen);
	}
	KUNIT_EXPECT_EQ(test, outside, 0ULL);
	/* n draws over n blocks repeat n/e of them (377, sd ~10) */
	KUNIT_EXPECT_GT(test, dup, nr / 8);
	KUNIT_EXPECT_LT(test, dup, nr / 2);
	w->job->cfg.norandommap = 0;
	w->cursor.one_pass = false;
}

/* Bounded draws stay below their bound, for small and huge bounds. */
struct below_case {
	u64 n;			/* the bound */
	const char *desc;	/* sub-test name */
};

static const struct below_case below_cases[] = {
	{ 1, "n=1" },
	{ 2, "n=2" },
	{ 3, "n=3" },
	{ 100, "n=100" },
	{ (1ULL << 32) + 1, "n=2^32+1" },
	{ (1ULL << 63) + 1, "n=2^63+1" },
	{ U64_MAX, "n=2^64-1" },
};

KUNIT_ARRAY_PARAM_DESC(below, below_cases, desc);

static void test_rng_below(struct kunit *test)
{
	const struct below_case *c = test->param_value;
	struct ssdload_worker *w = offset_worker(test, 0);
	u64 v, max = 0, bad = 0;
	unsigned int i;

	for (i = 0; i < 10000; i++) {
		v = ssdload_rng_below(w, c->n);
		bad += v >= c->n;
		max = max(max, v);
	}
	KUNIT_EXPECT_EQ(test, bad, 0ULL);
	if (c->n == 1)
		KUNIT_EXPECT_EQ(test, max, 0ULL);
	else	/* the top half of the range is reached */
		KUNIT_EXPECT_GE(test, max, c->n / 2);
}

static struct kunit_case ssdload_offset_cases[] = {
	KUNIT_CASE(test_sequential_walk),
	KUNIT_CASE(test_sequential_per_direction),
	KUNIT_CASE(test_sequential_slices),
	KUNIT_CASE(test_random_aligned),
	KUNIT_CASE(test_random_step_align),
	KUNIT_CASE_SLOW(test_random_uniform),
	KUNIT_CASE(test_same_seed),
	KUNIT_CASE_PARAM(test_rng_below, below_gen_params),
	KUNIT_CASE_PARAM(test_random_one_pass, perm_gen_params),
	KUNIT_CASE(test_norandommap_one_pass),
	{}
};

static struct kunit_suite ssdload_offset_suite = {
	.name = "ssdload_offset",
	.init = ssdload_offset_init,
	.exit = ssdload_offset_exit,
	.test_cases = ssdload_offset_cases,
};

kunit_test_suite(ssdload_offset_suite);
