// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of dist.c:
 *
 *   ssdload_dist_parse	bssplit, bsrange and random_distribution parsers
 *   ssdload_dist	block-size draws, the bijection, the offset samplers
 *
 * The samplers are checked twice: their group masses against independent
 * sums (zipf: every rank; pareto: fio's CDF; normal: Phi), then 10^6 draws
 * against the masses of the table by a chi-square test at p = 0.001.
 */
#include <linux/bitmap.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "ssdload_test.h"
#include "rng.h"

#define DIST_DRAWS	1000000U
#define DIST_BINS	40U
#define DIST_BINS_MAX	64U
#define DIST_SEED	0x5d5dULL

/* chi-square critical values at p = 0.001, df = 1..64, times 1000 */
static const u32 dist_chi2_crit[] = {
	10828, 13816, 16266, 18467, 20515, 22458, 24322, 26124, 27877, 29588,
	31264, 32909, 34528, 36123, 37697, 39252, 40790, 42312, 43820, 45315,
	46797, 48268, 49728, 51179, 52620, 54052, 55476, 56892, 58301, 59703,
	61098, 62487, 63870, 65247, 66619, 67985, 69346, 70703, 72055, 73402,
	74745, 76084, 77419, 78750, 80077, 81400, 82720, 84037, 85351, 86661,
	87968, 89272, 90573, 91872, 93168, 94461, 95751, 97039, 98324, 99607,
	100888, 102166, 103442, 104716,
};

static u64 dist_diff(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/*
 * Chi-square of @obs[@n] against the probabilities @p[@n] (any unit,
 * summing to @total), in thousandths; checked against the critical value.
 */
static void dist_chi2(struct kunit *test, const char *what, const u64 *obs,
		      const u64 *p, u32 n, u64 total, u64 draws)
{
	u64 stat = 0;	/* Q16 */
	u32 i;

	KUNIT_ASSERT_GE(test, n, 2U);
	KUNIT_ASSERT_LE(test, n - 1, (u32)ARRAY_SIZE(dist_chi2_crit));
	for (i = 0; i < n; i++) {
		u64 e = mul_u64_u64_div_u64(p[i], draws << 16, total);
		u64 o = obs[i] << 16, d = o > e ? o - e : e - o;

		if (!e) {
			KUNIT_EXPECT_EQ_MSG(test, obs[i], 0ULL, "%s bin %u", what, i);
			continue;
		}
		KUNIT_EXPECT_GE_MSG(test, e, 5ULL << 16, "%s bin %u", what, i);
		stat += mul_u64_u64_div_u64(d, d, e);
	}
	stat = (stat * 1000) >> 16;
	kunit_info(test, "%s: chi2 %llu.%03llu, df %u, critical %u.%03u\n",
		   what, stat / 1000, stat % 1000, n - 1,
		   dist_chi2_crit[n - 2] / 1000, dist_chi2_crit[n - 2] % 1000);
	KUNIT_EXPECT_LT_MSG(test, stat, (u64)dist_chi2_crit[n - 2],
			    "%s: chi-square too large", what);
}

/* ---- parsers ---------------------------------------------------------- */

struct parse_case {
	const char *in;
	int ret;		/* expected return */
	const char *show;	/* normalised form, NULL: same as in */
};

static const struct parse_case bssplit_cases[] = {
	{ "4096/10:65536/50:32k/40", 0, "4096/10:65536/50:32768/40" },
	{ "4k/50:1k/:32k/\n", 0, "4096/50:1024/25:32768/25" },
	{ "4k", 0, "4096/100" },
	{ "4k/:8k/:16k/", 0, "4096/33.333334:8192/33.333333:16384/33.333333" },
	{ "4k/10:8k/20", 0, "4096/10:8192/90" },
	{ "2k/50:4k/50,4k/90:8k/10", 0, "2048/50:4096/50,4096/90:8192/10" },
	{ "4k,8k,16k", 0, "4096/100,8192/100,16384/100" },
	{ "4k/12.5:8k/87.5", 0, "4096/12.5:8192/87.5" },
	{ "1m/100", 0, "1048576/100" },
	{ "4k/100:8k/", 0, "4096/100:8192/" },	/* fio: 8k gets 0% */
	{ "16m/100", 0, "16777216/100" },
	{ "4kib/100", 0, "4096/100" },
	{ "4k/0:8k/100", -EINVAL, NULL },	/* zero weight */
	{ "0/100", -EINVAL, NULL },		/* 0-byte size */
	{ "4000/100", -EINVAL, NULL },		/* not a multiple of 512 */
	{ "32m/100", -ERANGE, NULL },		/* over 16 MiB */
	{ "4k/60:8k/50", -ERANGE, NULL },	/* over 100% */
	{ "4k/101", -ERANGE, NULL },
	{ "4k/1.0000001", -EINVAL, NULL },	/* 7 decimals */
	{ "4k/10:", -EINVAL, NULL },
	{ "4k/x", -EINVAL, NULL },
	{ "4k/-1", -EINVAL, NULL },
	{ "4q/100", -EINVAL, NULL },
	{ ",4k", -EINVAL, NULL },
	{ "4k,8k,16k,32k", -EINVAL, NULL },
	{ "", -EINVAL, NULL },
	{ "4k 8k", -EINVAL, NULL },
};

static const struct parse_case bsrange_cases[] = {
	{ "4k-64k", 0, "4096-65536" },
	{ "4096-4096", 0, NULL },
	{ "64k:4k", 0, "4096-65536" },		/* fio swaps */
	{ "4k-16k,8k-32k", 0, "4096-16384,8192-32768" },
	{ "4k-16k,8k-32k,512-1k", 0, "4096-16384,8192-32768,512-1024" },
	{ "0-4k", -EINVAL, NULL },
	{ "1000-4k", -EINVAL, NULL },
	{ "4k-32m", -ERANGE, NULL },
	{ "4k", -EINVAL, NULL },
	{ "4k-8k-", -EINVAL, NULL },
};

static const struct parse_case distribution_cases[] = {
	{ "random", 0, NULL },
	{ "zipf:1.2\n", 0, "zipf:1.2" },
	{ "zipf:0.8", 0, NULL },
	{ "zipf:1", 0, NULL },
	{ "zipf", 0, "zipf:1.1" },
	{ "pareto:0.9", 0, NULL },
	{ "pareto", 0, "pareto:0.2" },
	{ "normal:5", 0, NULL },
	{ "normal:0.000001", 0, NULL },
	{ "zoned:50/5:30/15:20/80", 0, NULL },
	{ "zoned:60/10:30/20:8/30:2/40", 0, NULL },
	{ "zoned:50/:50/", 0, "zoned:50/50:50/50" },
	{ "zoned:100/10", 0, NULL },
	{ "zoned:50/50:50/50:0", 0, "zoned:50/50:50/50:0/" },
	{ "zoned:0/50:100/50", 0, NULL },
	{ "zoned:50/5:50/95,100/100", 0, NULL },
	{ "zoned:100/100,50/50:50/50,100/10", 0, NULL },
	{ "zoned_abs:60/20g:30/100g:10/500g", 0,
	  "zoned_abs:60/21474836480:30/107374182400:10/536870912000" },
	{ "zipf:0", -ERANGE, NULL },		/* theta <= 0 */
	{ "zipf:-1", -EINVAL, NULL },
	{ "zipf:101", -ERANGE, NULL },
	{ "zipf:1.2:0.5", -EINVAL, NULL },	/* random_center */
	{ "zipf:", -EINVAL, NULL },
	{ "pareto:1", -ERANGE, NULL },
	{ "pareto:0", -ERANGE, NULL },
	{ "normal", -EINVAL, NULL },
	{ "normal:0", -ERANGE, NULL },
	{ "normal:100", -ERANGE, NULL },
	{ "normal:101", -ERANGE, NULL },
	{ "random:1", -EINVAL, NULL },
	{ "gauss:5", -EINVAL, NULL },		/* unknown name */
	{ "zipfx:1", -EINVAL, NULL },
	{ "zoned:50/5:30/15:30/80", -ERANGE, NULL },	/* access over 100 */
	{ "zoned:50/5:30/15:10/80", -EINVAL, NULL },	/* access under 100 */
	{ "zoned:50/50:50/60", -ERANGE, NULL },		/* sizes over 100 */
	{ "zoned:50/101:50/1", -ERANGE, NULL },		/* a size over 100 */
	{ "zoned:101/10", -ERANGE, NULL },
	{ "zoned:100/0", -EINVAL, NULL },
	{ "zoned:", -EINVAL, NULL },
	{ "zoned", -EINVAL, NULL },
	{ "zoned:100/10,", -EINVAL, NULL },
	{ "zoned_abs:100/", -EINVAL, NULL },
	{ "zoned_abs:100/0", -EINVAL, NULL },
	{ "", -EINVAL, NULL },
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->in);
}

KUNIT_ARRAY_PARAM(bssplit, bssplit_cases, parse_case_desc);
KUNIT_ARRAY_PARAM(bsrange, bsrange_cases, parse_case_desc);
KUNIT_ARRAY_PARAM(distribution, distribution_cases, parse_case_desc);

/* The expected show output: @c->show or the input, with a newline. */
static void parse_expect_show(struct kunit *test, const struct parse_case *c,
			      const char *page)
{
	const char *want = c->show ? c->show : c->in;
	size_t len = strlen(want);

	if (len && want[len - 1] == '\n')
		len--;
	KUNIT_EXPECT_EQ(test, strlen(page), len + 1);
	KUNIT_EXPECT_EQ(test, strncmp(page, want, len), 0);
	KUNIT_EXPECT_EQ(test, page[len], '\n');
}

static void test_parse_bs(struct kunit *test, bool range)
{
	const struct parse_case *c = test->param_value;
	struct ssdload_bsspec *s, *s2;
	char *page;
	int ret;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	s2 = kunit_kzalloc(test, sizeof(*s2), GFP_KERNEL);
	page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, s && s2 && page);
	ret = range ? ssdload_parse_bsrange(c->in, s) :
		      ssdload_parse_bssplit(c->in, s);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (ret)
		return;
	ssdload_bsspec_show(s, range, page);
	parse_expect_show(test, c, page);
	/* the normalised form parses back to the same */
	ret = range ? ssdload_parse_bsrange(page, s2) :
		      ssdload_parse_bssplit(page, s2);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, memcmp(s, s2, sizeof(*s)), 0);
}

static void test_parse_bssplit(struct kunit *test)
{
	test_parse_bs(test, false);
}

static void test_parse_bsrange(struct kunit *test)
{
	test_parse_bs(test, true);
}

static void test_parse_distribution(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	struct ssdload_distspec *s, *s2;
	char *page;
	int ret;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	s2 = kunit_kzalloc(test, sizeof(*s2), GFP_KERNEL);
	page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, s && s2 && page);
	ret = ssdload_parse_distribution(c->in, s);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (ret)
		return;
	ssdload_distspec_show(s, page);
	parse_expect_show(test, c, page);
	KUNIT_EXPECT_EQ(test, ssdload_parse_distribution(page, s2), 0);
	KUNIT_EXPECT_EQ(test, memcmp(s, s2, sizeof(*s)), 0);
}

/* Remainders and per-direction lists land where fio puts them. */
static void test_parse_details(struct kunit *test)
{
	struct ssdload_bsspec *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct ssdload_distspec *z = kunit_kzalloc(test, sizeof(*z),
						   GFP_KERNEL);

	KUNIT_ASSERT_TRUE(test, s && z);
	KUNIT_ASSERT_EQ(test, ssdload_parse_bssplit("2k/50:4k/50,4k/90:8k/10", s),
			0);
	KUNIT_EXPECT_EQ(test, s->d[SSDLOAD_DIR_READ].min, 2048U);
	KUNIT_EXPECT_EQ(test, s->d[SSDLOAD_DIR_READ].max, 4096U);
	KUNIT_EXPECT_EQ(test, s->d[SSDLOAD_DIR_WRITE].bs[1], 8192U);
	KUNIT_EXPECT_EQ(test, s->d[SSDLOAD_DIR_TRIM].bs[1], 8192U);
	KUNIT_EXPECT_EQ(test, s->d[SSDLOAD_DIR_TRIM].pct[0], 90000000U);
	/* a weight shared out as 0 is never drawn, even at the ends */
	KUNIT_ASSERT_EQ(test, ssdload_parse_bssplit("4k/100:8k/", s), 0);
	KUNIT_EXPECT_EQ(test, ssdload_bs_draw(&s->d[0], 0), 4096U);
	KUNIT_EXPECT_EQ(test, ssdload_bs_draw(&s->d[0], U64_MAX), 4096U);
	KUNIT_EXPECT_EQ(test, s->d[0].max, 8192U);
	KUNIT_ASSERT_EQ(test, ssdload_parse_bssplit("4k/25:8k/75", s), 0);
	KUNIT_EXPECT_EQ(test, ssdload_bs_draw(&s->d[0], (U64_MAX >> 2) - 1),
			4096U);
	KUNIT_EXPECT_EQ(test, ssdload_bs_draw(&s->d[0], (U64_MAX >> 2) + 2),
			8192U);
	KUNIT_ASSERT_EQ(test, ssdload_parse_bsrange("6k-16k", s), 0);
	KUNIT_EXPECT_EQ(test, s->d[0].step, 512U);	/* 6k: not 2^n */
	KUNIT_EXPECT_EQ(test, s->d[0].nr_steps, 21U);
	KUNIT_ASSERT_EQ(test, ssdload_parse_distribution("zoned:50/:50/,100/", z),
			0);
	KUNIT_EXPECT_EQ(test, z->nr_zones[0], 2U);
	KUNIT_EXPECT_EQ(test, z->zones[0][1].size, 50000000ULL);
	KUNIT_EXPECT_EQ(test, z->nr_zones[2], 1U);
	KUNIT_EXPECT_EQ(test, z->zones[2][0].size, 100000000ULL);
	KUNIT_ASSERT_EQ(test, ssdload_parse_distribution("zoned:100/10", z), 0);
	KUNIT_EXPECT_EQ(test, z->zones[1][0].size, 10000000ULL);
}

static struct kunit_case ssdload_dist_parse_cases[] = {
	KUNIT_CASE_PARAM(test_parse_bssplit, bssplit_gen_params),
	KUNIT_CASE_PARAM(test_parse_bsrange, bsrange_gen_params),
	KUNIT_CASE_PARAM(test_parse_distribution, distribution_gen_params),
	KUNIT_CASE(test_parse_details),
	{}
};

static struct kunit_suite ssdload_dist_parse_suite = {
	.name = "ssdload_dist_parse",
	.test_cases = ssdload_dist_parse_cases,
};

/* ---- block sizes -------------------------------------------------------- */

/* ECW-like: 12 sizes. */
static void test_bssplit_draw(struct kunit *test)
{
	static const char *const ecw =
		"512/4:1k/2:2k/2:4k/40:8k/8:16k/10:32k/8:64k/12:128k/6:256k/4:512k/2:1m/2";
	struct ssdload_bsspec *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	u64 obs[12] = { }, p[12], x = DIST_SEED;
	const struct ssdload_bsdist *d;
	u32 i, j;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, ssdload_parse_bssplit(ecw, s), 0);
	d = &s->d[SSDLOAD_DIR_WRITE];
	KUNIT_ASSERT_EQ(test, d->nr, 12U);
	for (i = 0; i < DIST_DRAWS; i++) {
		u32 bs = ssdload_bs_draw(d, ssdload_splitmix64(&x));

		for (j = 0; j < d->nr && d->bs[j] != bs; j++)
			;
		KUNIT_ASSERT_LT(test, j, d->nr);
		obs[j]++;
	}
	for (j = 0; j < d->nr; j++)
		p[j] = d->pct[j];
	dist_chi2(test, "bssplit", obs, p, d->nr, SSDLOAD_PCT_ALL, DIST_DRAWS);
}

static void test_bsrange_draw(struct kunit *test)
{
	struct ssdload_bsspec *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	u64 obs[16] = { }, p[16], x = DIST_SEED + 1;
	const struct ssdload_bsdist *d;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, ssdload_parse_bsrange("4k-64k", s), 0);
	d = &s->d[SSDLOAD_DIR_READ];
	KUNIT_ASSERT_EQ(test, d->nr_steps, 16U);
	for (i = 0; i < DIST_DRAWS; i++) {
		u32 bs = ssdload_bs_draw(d, ssdload_splitmix64(&x));

		KUNIT_ASSERT_EQ(test, bs % 4096, 0U);
		KUNIT_ASSERT_TRUE(test, bs >= 4096 && bs <= 65536);
		obs[bs / 4096 - 1]++;
	}
	for (i = 0; i < 16; i++)
		p[i] = 1;
	dist_chi2(test, "bsrange", obs, p, 16, 16, DIST_DRAWS);
}

/* ---- bijection -------------------------------------------------------- */

static void test_bijection(struct kunit *test)
{
	static const u64 big[] = { 1000, 4096, 4097, 65537, 100003 };
	unsigned long *seen;
	struct ssdload_bij b;
	u64 n, x;
	u32 i;

	seen = kunit_kzalloc(test, BITS_TO_LONGS(100003) * sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (i = 0; i < 300 + ARRAY_SIZE(big); i++) {
		n = i < 300 ? i + 1 : big[i - 300];
		ssdload_bij_init(&b, n, DIST_SEED + i);
		bitmap_zero(seen, n);
		for (x = 0; x < n; x++) {
			u64 y = ssdload_bij(&b, x);

			KUNIT_ASSERT_LT(test, y, n);
			KUNIT_ASSERT_FALSE_MSG(test, test_bit(y, seen),
					       "n=%llu: %llu hit twice", n, y);
			__set_bit(y, seen);
		}
	}
}

/* ---- offset samplers -------------------------------------------------- */

struct dist_grp {
	u64 start, len, p;
};

static int dist_grp_cmp(const void *a, const void *b)
{
	const struct dist_grp *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Draw DIST_DRAWS units from @d (no scatter) and compare them with the
 * masses of its groups: bins are runs of groups in LBA order, closed once
 * they hold 1/DIST_BINS of the mass (a heavy group is a bin of its own).
 */
static void dist_check_draws(struct kunit *test, const char *what,
			     const struct ssdload_dist *d, u64 seed)
{
	u64 *p = kunit_kcalloc(test, d->nr, sizeof(*p), GFP_KERNEL);
	struct dist_grp *g = kunit_kcalloc(test, d->nr, sizeof(*g),
					   GFP_KERNEL);
	u64 *bstart = kunit_kcalloc(test, 3 * DIST_BINS_MAX, sizeof(u64),
				    GFP_KERNEL);
	u64 *bp = bstart + DIST_BINS_MAX, *obs = bp + DIST_BINS_MAX;
	u64 total, acc = 0;
	u32 i, nb = 0;

	KUNIT_ASSERT_TRUE(test, p && g && bstart);
	ssdload_dist_probs(d, p);
	for (i = 0; i < d->nr; i++) {
		g[i].start = d->col[i].start;
		g[i].len = d->col[i].len;
		g[i].p = p[i];
	}
	sort(g, d->nr, sizeof(*g), dist_grp_cmp, NULL);
	total = (u64)d->nr << 32;
	for (i = 0; i < d->nr; i++) {
		if (!nb || acc * DIST_BINS >= (u64)nb * total) {
			if (nb == DIST_BINS_MAX)
				break;
			bstart[nb++] = g[i].start;
		}
		bp[nb - 1] += g[i].p;
		acc += g[i].p;
		if (i + 1 < d->nr)
			KUNIT_ASSERT_EQ(test, g[i].start + g[i].len,
					g[i + 1].start);
	}
	KUNIT_ASSERT_EQ(test, i, d->nr);
	/* a last bin much lighter than the others joins the one before */
	if (nb > 2 && bp[nb - 1] * 2 * DIST_BINS < total) {
		bp[nb - 2] += bp[nb - 1];
		nb--;
	}
	for (i = 0; i < DIST_DRAWS; i++) {
		u64 u = ssdload_dist_draw(d, ssdload_splitmix64(&seed), ssdload_splitmix64(&seed));
		u32 lo = 0, hi = nb;

		KUNIT_ASSERT_GE(test, u, g[0].start);
		KUNIT_ASSERT_LT(test, u, g[d->nr - 1].start + g[d->nr - 1].len);
		while (hi - lo > 1) {
			u32 mid = (lo + hi) / 2;

			if (u >= bstart[mid])
				lo = mid;
			else
				hi = mid;
		}
		obs[lo]++;
	}
	dist_chi2(test, what, obs, bp, nb, total, DIST_DRAWS);
}

static struct ssdload_dist *dist_new(struct kunit *test, const char *spec,
				     int dir, u64 n, u64 unit, bool scatter)
{
	struct ssdload_distspec *s = kunit_kzalloc(test, sizeof(*s),
						   GFP_KERNEL);
	struct ssdload_dist *d;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, ssdload_parse_distribution(spec, s), 0);
	d = ssdload_dist_build(s, dir, n, unit, scatter, DIST_SEED, NUMA_NO_NODE);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(d), "%s: %ld", spec,
			       PTR_ERR(d));
	return d;
}

/* Mass of units [a, b) of @d in ppb (groups inside count whole). */
static u64 dist_mass_ppb(const struct ssdload_dist *d, const u64 *p, u64 a,
			 u64 b)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < d->nr; i++)
		if (d->col[i].start >= a && d->col[i].start + d->col[i].len <= b)
			sum += p[i];
	return mul_u64_u64_div_u64(sum, 1000000000ULL, (u64)d->nr << 32);
}

/* ECW: zoned:50/5:30/15:20/80 is 50/30/20% in the 5/15/80% unit ranges. */
static void test_zoned(struct kunit *test)
{
	struct ssdload_dist *d = dist_new(test, "zoned:50/5:30/15:20/80",
					  SSDLOAD_DIR_WRITE, 100000, 4096,
					  true);
	u64 p[3];

	KUNIT_ASSERT_EQ(test, d->nr, 3U);
	KUNIT_EXPECT_EQ(test, d->col[0].start, 0ULL);
	KUNIT_EXPECT_EQ(test, d->col[1].start, 5000ULL);
	KUNIT_EXPECT_EQ(test, d->col[2].start, 20000ULL);
	KUNIT_EXPECT_EQ(test, d->col[2].len, 80000ULL);
	ssdload_dist_probs(d, p);
	/* exact but for the 2^-32 rounding of the thresholds */
	KUNIT_EXPECT_LE(test,
			dist_diff(dist_mass_ppb(d, p, 0, 5000), 500000000ULL),
			1ULL);
	KUNIT_EXPECT_LE(test,
			dist_diff(dist_mass_ppb(d, p, 5000, 20000), 300000000ULL),
			1ULL);
	dist_check_draws(test, "zoned", d, DIST_SEED + 2);
	KUNIT_EXPECT_EQ(test, ssdload_dist_top_share_ppm(d, 5000), 500000ULL);
	ssdload_dist_free(d);
}

static void test_zoned_abs(struct kunit *test)
{
	struct ssdload_distspec *s = kunit_kzalloc(test, sizeof(*s),
						   GFP_KERNEL);
	struct ssdload_dist *d;

	d = dist_new(test, "zoned_abs:60/1m:40/3m,100/8m", SSDLOAD_DIR_READ,
		     2048, 4096, false);
	KUNIT_ASSERT_EQ(test, d->nr, 2U);
	KUNIT_EXPECT_EQ(test, d->col[0].len, 256ULL);
	KUNIT_EXPECT_EQ(test, d->col[1].start, 256ULL);
	KUNIT_EXPECT_EQ(test, d->col[1].len, 768ULL);
	dist_check_draws(test, "zoned_abs", d, DIST_SEED + 3);
	ssdload_dist_free(d);
	/* writes: 8 MiB is the whole span; one unit less is too small */
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, ssdload_parse_distribution("zoned_abs:60/1m:40/3m,100/8m",
							 s), 0);
	d = ssdload_dist_build(s, SSDLOAD_DIR_WRITE, 2048, 4096, false, 1,
			       NUMA_NO_NODE);
	KUNIT_EXPECT_FALSE(test, IS_ERR(d));
	if (!IS_ERR(d))
		ssdload_dist_free(d);
	d = ssdload_dist_build(s, SSDLOAD_DIR_WRITE, 2047, 4096, false, 1,
			       NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(d), -EINVAL);
	/* a zone with accesses but no unit */
	KUNIT_ASSERT_EQ(test, ssdload_parse_distribution("zoned:50/0.001:50/",
							 s), 0);
	d = ssdload_dist_build(s, SSDLOAD_DIR_READ, 1000, 4096, false, 1,
			       NUMA_NO_NODE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(d), -EINVAL);
}

/* sum_{k=a}^{b-1} k^-theta, Q40 */
static u64 zipf_sum(u64 a, u64 b, s64 theta)
{
	u64 s = 0, k;

	for (k = a; k < b; k++)
		s += ssdload_dist_pow_fx(k, 1, -theta, 40);
	return s;
}

/*
 * zipf: each group's mass in the table against the direct sum of k^-theta
 * over its ranks (within 1e-6, the thresholds' rounding), then the draws.
 */
static void test_zipf(struct kunit *test, const char *spec, s64 theta)
{
	const u64 n = 16384;
	struct ssdload_dist *d = dist_new(test, spec, SSDLOAD_DIR_READ, n, 4096,
					  false);
	u64 *p = kunit_kcalloc(test, d->nr, sizeof(*p), GFP_KERNEL);
	u64 zeta = zipf_sum(1, n + 1, theta), top, want;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	ssdload_dist_probs(d, p);
	for (i = 0; i < d->nr; i++) {
		const struct ssdload_dist_col *c = &d->col[i];
		u64 want = mul_u64_u64_div_u64(zipf_sum(c->start + 1,
							c->start + c->len + 1,
							theta),
					       (u64)d->nr << 32, zeta);
		u64 diff = want > p[i] ? want - p[i] : p[i] - want;

		KUNIT_EXPECT_LE_MSG(test, diff, want / 1000000 + 2 * d->nr,
				    "%s group %u [%llu, +%llu): %llu vs %llu",
				    spec, i, c->start, c->len, p[i], want);
	}
	dist_check_draws(test, spec, d, DIST_SEED + 4);
	top = ssdload_dist_top_share_ppm(d, n / 100);
	kunit_info(test, "%s: top 1%% of %llu units: %llu ppm\n", spec, n, top);
	want = mul_u64_u64_div_u64(zipf_sum(1, n / 100 + 1, theta), 1000000,
				   zeta);
	KUNIT_EXPECT_TRUE_MSG(test, top + 1 >= want && top <= want + 1,
			      "%llu ppm, expected %llu", top, want);
	ssdload_dist_free(d);
}

static void test_zipf12(struct kunit *test)
{
	test_zipf(test, "zipf:1.2", 1200000);
}

static void test_zipf08(struct kunit *test)
{
	test_zipf(test, "zipf:0.8", 800000);
}

/*
 * The e2e model: top 1% share of zipf:1.2 (exact sums: 777130 ppm for
 * 16384 units, 879632 ppm for 262144).
 */
static void test_top_share(struct kunit *test)
{
	struct ssdload_dist *d = dist_new(test, "zipf:1.2", SSDLOAD_DIR_READ,
					  262144, 4096, true);
	u64 top = ssdload_dist_top_share_ppm(d, 2621);

	kunit_info(test, "zipf:1.2 top 1%% of 262144 units: %llu ppm\n", top);
	KUNIT_EXPECT_TRUE(test, top >= 879630 && top <= 879634);
	ssdload_dist_free(d);
}

/*
 * pareto against fio's CDF F(x) = (x / n)^alpha, alpha = log(1 - h) /
 * log(h): h = 0.9 (alpha = 21.854345...), the K hottest ranks are the
 * highest values and weigh 1 - (1 - K / n)^alpha; h = 0.3 (alpha =
 * 0.296248...), they are the lowest and weigh (K / n)^alpha.  K at group
 * boundaries (0-based: 4095, then 2^j - 1 + i 2^(j - 8)).
 */
static void test_pareto(struct kunit *test, const char *spec, s64 alpha,
			bool high)
{
	static const u64 ks[] = { 1, 2, 10, 100, 1000, 4095, 10015, 32767 };
	const u64 n = 65536;
	struct ssdload_dist *d = dist_new(test, spec, SSDLOAD_DIR_READ, n, 4096,
					  false);
	u64 *p = kunit_kcalloc(test, d->nr, sizeof(*p), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	ssdload_dist_probs(d, p);
	for (i = 0; i < ARRAY_SIZE(ks); i++) {
		u64 got = dist_mass_ppb(d, p, 0, ks[i]), want;

		if (high)
			want = 1000000000ULL -
			       mul_u64_u64_div_u64(ssdload_dist_pow_fx(n - ks[i], n,
								       alpha, 40),
						   1000000000ULL, 1ULL << 40);
		else
			want = mul_u64_u64_div_u64(ssdload_dist_pow_fx(ks[i], n,
								       alpha, 40),
						   1000000000ULL, 1ULL << 40);
		KUNIT_EXPECT_LE_MSG(test, dist_diff(got, want), 2ULL + want / 100000,
				    "%s top %llu: %llu vs %llu ppb", spec, ks[i],
				    got, want);
	}
	dist_check_draws(test, spec, d, DIST_SEED + 5);
	ssdload_dist_free(d);
}

static void test_pareto09(struct kunit *test)
{
	test_pareto(test, "pareto:0.9", 21854345, true);
}

static void test_pareto03(struct kunit *test)
{
	test_pareto(test, "pareto:0.3", 296248, false);
}

/* normal:5 within one sigma: P(|Z| < 1) = 0.682689. */
static void test_normal(struct kunit *test)
{
	const u64 n = 1 << 20;
	struct ssdload_dist *d = dist_new(test, "normal:5", SSDLOAD_DIR_READ, n,
					  4096, false);
	u64 one = ssdload_dist_top_share_ppm(d, 104858);	/* 2 sigma */
	u64 two = ssdload_dist_top_share_ppm(d, 209715);

	kunit_info(test, "normal:5: %llu ppm within 1 sigma, %llu within 2\n",
		   one, two);
	KUNIT_EXPECT_TRUE(test, one >= 682680 && one <= 682700);
	KUNIT_EXPECT_TRUE(test, two >= 954490 && two <= 954510);
	dist_check_draws(test, "normal:5", d, DIST_SEED + 6);
	ssdload_dist_free(d);
}

/*
 * random_scatter=1: the unit is the bijection of the unscattered one, and
 * the top 1% of zipf ranks spread over the span (each sixteenth of it
 * gets a share near 1/16, not all in the first 1%).
 */
static void test_scatter(struct kunit *test)
{
	const u64 n = 1 << 20, top = n / 100;
	struct ssdload_dist *d0 = dist_new(test, "zipf:1.2", SSDLOAD_DIR_READ,
					   n, 4096, false);
	struct ssdload_dist *d1 = dist_new(test, "zipf:1.2", SSDLOAD_DIR_READ,
					   n, 4096, true);
	u64 x = DIST_SEED + 7, k, lowest = 0, part[16] = { };
	u32 i;

	for (i = 0; i < 10000; i++) {
		u64 r1 = ssdload_splitmix64(&x), r2 = ssdload_splitmix64(&x);

		KUNIT_ASSERT_EQ(test, ssdload_dist_draw(d1, r1, r2),
				ssdload_bij(&d1->bij,
					    ssdload_dist_draw(d0, r1, r2)));
	}
	for (k = 0; k < top; k++) {
		u64 u = ssdload_bij(&d1->bij, k);

		lowest += u < top;
		part[u * 16 / n]++;
	}
	KUNIT_EXPECT_LT(test, lowest, top / 20);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_TRUE_MSG(test, part[i] > top / 32 &&
				      part[i] < top / 8,
				      "sixteenth %u: %llu of %llu", i, part[i],
				      top);
	ssdload_dist_free(d0);
	ssdload_dist_free(d1);
}

/* The fixed-point pow against known values (~1e-12). */
static void test_pow(struct kunit *test)
{
	static const struct {
		u64 num, den;
		s64 y;
		u64 want;	/* value * 2^40 */
	} c[] = {
		{ 2, 1, 500000, 1554944255987ULL },	/* sqrt(2) */
		{ 10, 1, -1200000, 69374493688ULL },	/* 10^-1.2 */
		{ 3, 1, 2500000, 17139690025387ULL },	/* 3^2.5 */
		{ 1, 10, 45757490, 0 },	/* tiny */
		{ 9, 10, 21854345, 109951166563ULL },	/* ~0.1 */
		{ 16384, 1, -1200000, 9635980ULL },	/* 2^-16.8 */
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		u64 got = ssdload_dist_pow_fx(c[i].num, c[i].den, c[i].y, 40);
		u64 diff = got > c[i].want ? got - c[i].want : c[i].want - got;

		KUNIT_EXPECT_LE_MSG(test, diff, 2 + c[i].want / 1000000000ULL,
				    "%llu/%llu ^ %lld: %llu vs %llu", c[i].num,
				    c[i].den, c[i].y, got, c[i].want);
	}
}

static struct kunit_case ssdload_dist_cases[] = {
	KUNIT_CASE(test_pow),
	KUNIT_CASE(test_bssplit_draw),
	KUNIT_CASE(test_bsrange_draw),
	KUNIT_CASE(test_bijection),
	KUNIT_CASE(test_zoned),
	KUNIT_CASE(test_zoned_abs),
	KUNIT_CASE(test_zipf12),
	KUNIT_CASE(test_zipf08),
	KUNIT_CASE(test_top_share),
	KUNIT_CASE(test_pareto09),
	KUNIT_CASE(test_pareto03),
	KUNIT_CASE(test_normal),
	KUNIT_CASE(test_scatter),
	{}
};

static struct kunit_suite ssdload_dist_suite = {
	.name = "ssdload_dist",
	.test_cases = ssdload_dist_cases,
};

kunit_test_suites(&ssdload_dist_parse_suite, &ssdload_dist_suite);
