// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_think: the pure parts of thinktime and startdelay
 * (module/think.c, parse.c): when a pause is due, how many I/Os may go
 * before it, the startdelay range parser and each worker's draw.
 */
#include "ssdload_test.h"

/* thinktime_blocks=4: due after 4 counted I/Os since the last pause. */
static void test_think_blocks(struct kunit *test)
{
	struct ssdload_wthink t = { .ns = 1000, .blocks = 4 };

	KUNIT_EXPECT_FALSE(test, ssdload_think_due(&t, 0, 0));
	KUNIT_EXPECT_FALSE(test, ssdload_think_due(&t, 3, 0));
	KUNIT_EXPECT_TRUE(test, ssdload_think_due(&t, 4, 0));
	KUNIT_EXPECT_TRUE(test, ssdload_think_due(&t, 9, 0));
	KUNIT_EXPECT_EQ(test, ssdload_think_left(&t, 0), 4ULL);
	KUNIT_EXPECT_EQ(test, ssdload_think_left(&t, 3), 1ULL);
	KUNIT_EXPECT_EQ(test, ssdload_think_left(&t, 4), 0ULL);
	/* the next burst counts from the count when the pause became due */
	t.last = 6;
	KUNIT_EXPECT_FALSE(test, ssdload_think_due(&t, 9, 0));
	KUNIT_EXPECT_TRUE(test, ssdload_think_due(&t, 10, 0));
	KUNIT_EXPECT_EQ(test, ssdload_think_left(&t, 7), 3ULL);
}

/*
 * thinktime_iotime: due once that long passed since the last pause
 * ended; with thinktime_blocks 0, by time only (fio's default when
 * thinktime_blocks is not given), else whichever comes first.
 */
static void test_think_iotime(struct kunit *test)
{
	struct ssdload_wthink t = { .ns = 1000, .iotime_ns = 500,
				    .last_ns = 2000 };

	KUNIT_EXPECT_FALSE(test, ssdload_think_due(&t, 1000000, 2499));
	KUNIT_EXPECT_TRUE(test, ssdload_think_due(&t, 0, 2500));
	KUNIT_EXPECT_EQ(test, ssdload_think_left(&t, 12345), U64_MAX);
	/* a clock read before the last pause's end is not a wrap */
	KUNIT_EXPECT_FALSE(test, ssdload_think_due(&t, 0, 1000));
	t.blocks = 8;
	KUNIT_EXPECT_TRUE(test, ssdload_think_due(&t, 8, 2100));
	KUNIT_EXPECT_FALSE(test, ssdload_think_due(&t, 7, 2100));
	KUNIT_EXPECT_TRUE(test, ssdload_think_due(&t, 7, 2600));
}

/* startdelay_us: a value, or "LO-HI" with LO <= HI, each in range. */
static void test_startdelay_parse(struct kunit *test)
{
	u64 lo = 7, hi = 7;

	KUNIT_EXPECT_EQ(test, ssdload_parse_range("0\n", 100, &lo, &hi), 0);
	KUNIT_EXPECT_EQ(test, lo, 0ULL);
	KUNIT_EXPECT_EQ(test, hi, 0ULL);
	KUNIT_EXPECT_EQ(test, ssdload_parse_range("2000000-5000000", U64_MAX,
						  &lo, &hi), 0);
	KUNIT_EXPECT_EQ(test, lo, 2000000ULL);
	KUNIT_EXPECT_EQ(test, hi, 5000000ULL);
	KUNIT_EXPECT_EQ(test, ssdload_parse_range("5-2", 100, &lo, &hi),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ssdload_parse_range("1-101", 100, &lo, &hi),
			-ERANGE);
	KUNIT_EXPECT_NE(test, ssdload_parse_range("-3", 100, &lo, &hi), 0);
	KUNIT_EXPECT_NE(test, ssdload_parse_range("3-", 100, &lo, &hi), 0);
	KUNIT_EXPECT_NE(test, ssdload_parse_range("1-2-3", 100, &lo, &hi), 0);
	KUNIT_EXPECT_NE(test, ssdload_parse_range("2s", 100, &lo, &hi), 0);
	/* refusals leave the values as they were */
	KUNIT_EXPECT_EQ(test, lo, 2000000ULL);
	KUNIT_EXPECT_EQ(test, hi, 5000000ULL);
}

/*
 * Each worker's draw lies in the range, ends included, is the same for
 * the same seed, and the workers do not all draw one value.
 */
static void test_startdelay_draw(struct kunit *test)
{
	/* the job's whole configuration is too large for a test's stack */
	struct ssdload_cfg *cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	bool seen[4] = { };
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	cfg->randseed = 42;
	cfg->startdelay_us = 10;
	cfg->startdelay_hi_us = 13;

	for (i = 0; i < 256; i++) {
		u64 ns = ssdload_startdelay_ns(cfg, i);

		KUNIT_ASSERT_GE(test, ns, 10 * NSEC_PER_USEC);
		KUNIT_ASSERT_LE(test, ns, 13 * NSEC_PER_USEC);
		KUNIT_ASSERT_EQ(test, ns % NSEC_PER_USEC, 0ULL);
		KUNIT_EXPECT_EQ(test, ns, ssdload_startdelay_ns(cfg, i));
		seen[ns / NSEC_PER_USEC - 10] = true;
	}
	for (i = 0; i < ARRAY_SIZE(seen); i++)
		KUNIT_EXPECT_TRUE(test, seen[i]);
	/* a single value, and none */
	cfg->startdelay_us = 5;
	cfg->startdelay_hi_us = 5;
	KUNIT_EXPECT_EQ(test, ssdload_startdelay_ns(cfg, 3), 5 * NSEC_PER_USEC);
	cfg->startdelay_us = 0;
	cfg->startdelay_hi_us = 0;
	KUNIT_EXPECT_EQ(test, ssdload_startdelay_ns(cfg, 3), 0ULL);
}

static struct kunit_case ssdload_think_cases[] = {
	KUNIT_CASE(test_think_blocks),
	KUNIT_CASE(test_think_iotime),
	KUNIT_CASE(test_startdelay_parse),
	KUNIT_CASE(test_startdelay_draw),
	{}
};

static struct kunit_suite ssdload_think_suite = {
	.name = "ssdload_think",
	.test_cases = ssdload_think_cases,
};

kunit_test_suite(ssdload_think_suite);
