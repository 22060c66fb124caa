// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_mix: the per-I/O direction of rw/randrw, drawn from
 * rwmixread by worker.c, and the fixed direction of the other modes.
 */
#include <linux/math.h>

#include "ssdload_test.h"

#define MIX_DRAWS	200000U

/* Suite fixture: one job with one worker, no statistics. */
static int ssdload_mix_init(struct kunit *test)
{
	ssdload_test_job_new(test, 1, false);
	return 0;
}

static void ssdload_mix_exit(struct kunit *test)
{
	ssdload_test_job_del(test->priv);
}

static struct ssdload_worker *mix_worker(struct kunit *test)
{
	struct ssdload_test_job *tj = test->priv;

	return tj->job->workers[0];
}

static const unsigned int mix_pcts[] = { 0, 5, 35, 50, 65, 95, 100 };

static void mix_desc(const unsigned int *pct, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "rwmixread=%u", *pct);
}

KUNIT_ARRAY_PARAM(mix, mix_pcts, mix_desc);

/*
 * The read share over MIX_DRAWS draws is rwmixread within 5 binomial
 * standard deviations (under 0.6 points; the e2e bound is 2 points), and
 * exact at 0 and 100.
 */
static void test_read_share(struct kunit *test)
{
	const unsigned int pct = *(const unsigned int *)test->param_value;
	struct ssdload_worker *w = mix_worker(test);
	u64 reads = 0, expect, tol, diff;
	unsigned int i;

	w->phase.mixed = true;
	w->phase.fixed_dir = SSDLOAD_DIR_WRITE;	/* must not matter */
	w->phase.rwmixread = pct;
	ssdload_rng_seed(w, 0x5d5d + pct);
	for (i = 0; i < MIX_DRAWS; i++) {
		u8 dir = ssdload_next_dir(w);

		KUNIT_ASSERT_LT(test, dir, (u8)SSDLOAD_DIR_NR);
		reads += dir == SSDLOAD_DIR_READ;
	}
	expect = (u64)MIX_DRAWS * pct / 100;
	/* 5 sigma of Binomial(N, p): 5 * sqrt(N p (1 - p)) */
	tol = 5 * int_sqrt64((u64)MIX_DRAWS * pct * (100 - pct) / 10000) + 1;
	diff = reads > expect ? reads - expect : expect - reads;
	kunit_info(test, "rwmixread=%u: %llu reads of %u (%llu.%02llu%%)\n",
		   pct, reads, MIX_DRAWS, reads * 100 / MIX_DRAWS,
		   reads * 10000 / MIX_DRAWS % 100);
	if (pct == 0 || pct == 100)
		KUNIT_EXPECT_EQ(test, reads, expect);
	else
		KUNIT_EXPECT_LE_MSG(test, diff, tol,
				    "%llu reads, expected %llu +- %llu",
				    reads, expect, tol);
}

struct fixed_case {
	u64 rw;			/* enum ssdload_rw */
	u8 dir;			/* its only direction */
	const char *desc;	/* sub-test name */
};

static const struct fixed_case fixed_cases[] = {
	{ SSDLOAD_RW_READ, SSDLOAD_DIR_READ, "read" },
	{ SSDLOAD_RW_WRITE, SSDLOAD_DIR_WRITE, "write" },
	{ SSDLOAD_RW_RANDREAD, SSDLOAD_DIR_READ, "randread" },
	{ SSDLOAD_RW_RANDWRITE, SSDLOAD_DIR_WRITE, "randwrite" },
};

KUNIT_ARRAY_PARAM_DESC(fixed, fixed_cases, desc);

/*
 * The modes without a mix never draw: one direction whatever rwmixread
 * says, and the PRNG state is left alone (offsets do not shift).
 */
static void test_fixed_direction(struct kunit *test)
{
	const struct fixed_case *c = test->param_value;
	struct ssdload_worker *w = mix_worker(test);
	u64 rng[4];
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, ssdload_rw_is_mixed(c->rw));
	w->phase.mixed = ssdload_rw_is_mixed(c->rw);
	w->phase.fixed_dir = c->dir;
	w->phase.rwmixread = 50;
	memcpy(rng, w->cursor.rng, sizeof(rng));
	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_EQ(test, ssdload_next_dir(w), c->dir);
	KUNIT_EXPECT_EQ(test, memcmp(rng, w->cursor.rng, sizeof(rng)), 0);
}

static struct kunit_case ssdload_mix_cases[] = {
	KUNIT_CASE_PARAM(test_read_share, mix_gen_params),
	KUNIT_CASE_PARAM(test_fixed_direction, fixed_gen_params),
	{}
};

static struct kunit_suite ssdload_mix_suite = {
	.name = "ssdload_mix",
	.init = ssdload_mix_init,
	.exit = ssdload_mix_exit,
	.test_cases = ssdload_mix_cases,
};

kunit_test_suite(ssdload_mix_suite);
