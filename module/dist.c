// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: block-size and offset distributions.
 *
 * The parsers follow fio's syntax and rules (options.c: bssplit_ddir(),
 * zone_split_ddir(), str_split_parse(), str_random_distribution_cb()).
 * Everything is integer arithmetic: the build of an offset sampler works
 * in a small software floating point (struct dfx: a 64-bit mantissa and
 * a binary exponent) with fixed-point log2/exp2, accurate to about 1e-15;
 * the draws only multiply and shift.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "ssdload.h"
#include "rng.h"

/* ---- parsing helpers ------------------------------------------------- */

/* A decimal "D[.DDDDDD]" at *@p (before @end), in millionths. */
static int dist_scan_micro(const char **p, const char *end, u64 *out)
{
	const char *s = *p;
	u64 whole = 0, frac = 0, unit = SSDLOAD_MICRO;
	bool digits = false;

	for (; s < end && isdigit(*s); s++) {
		whole = whole * 10 + (*s - '0');
		digits = true;
		if (whole > 1000000000000ULL)
			return -ERANGE;
	}
	if (s < end && *s == '.') {
		for (s++; s < end && isdigit(*s); s++) {
			if (unit == 1)
				return -EINVAL;
			unit /= 10;
			frac += (*s - '0') * unit;
			digits = true;
		}
	}
	if (!digits)
		return -EINVAL;
	*out = whole * SSDLOAD_MICRO + frac;
	*p = s;
	return 0;
}

/* Bytes at *@p: digits, then k, m, g, t or p (1024), "b" or "ib" optional. */
static int dist_scan_bytes(const char **p, const char *end, u64 *out)
{
	static const char units[] = "kmgtp";
	const char *s = *p, *u;
	unsigned int shift = 0;
	u64 v = 0;

	if (s == end || !isdigit(*s))
		return -EINVAL;
	for (; s < end && isdigit(*s); s++) {
		if (v > (U64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (*s - '0');
	}
	u = s < end && *s ? strchr(units, tolower(*s)) : NULL;
	if (u) {
		shift = 10 * (u - units + 1);
		s++;
		if (s + 1 < end && tolower(s[0]) == 'i' && tolower(s[1]) == 'b')
			s += 2;
		else if (s < end && tolower(*s) == 'b')
			s++;
		if (v > U64_MAX >> shift)
			return -ERANGE;
	}
	*out = v << shift;
	*p = s;
	return 0;
}

/* Length of @buf without its one optional trailing newline. */
static size_t dist_len(const char *buf)
{
	size_t len = strlen(buf);

	if (len && buf[len - 1] == '\n')
		len--;
	return len;
}

/*
 * Cut [@s, @end) at its commas into at most SSDLOAD_DIR_NR lists, none
 * empty.  As fio's str_split_parse(): one list applies to reads, writes
 * and trims; two to reads, and to writes and trims; three to each.
 */
static int dist_split_dirs(const char *s, const char *end,
			   const char *b[SSDLOAD_DIR_NR],
			   const char *e[SSDLOAD_DIR_NR])
{
	int n = 0, d;

	for (;;) {
		const char *c = memchr(s, ',', end - s);

		if (n == SSDLOAD_DIR_NR)
			return -EINVAL;
		b[n] = s;
		e[n] = c ? c : end;
		if (b[n] == e[n])
			return -EINVAL;
		n++;
		if (!c)
			break;
		s = c + 1;
	}
	for (d = n; d < SSDLOAD_DIR_NR; d++) {
		b[d] = b[n - 1];
		e[d] = e[n - 1];
	}
	return 0;
}

/* Print @v millionths as a decimal without trailing zeros. */
static int dist_show_micro(char *buf, size_t size, u64 v)
{
	u64 frac = v % SSDLOAD_MICRO;
	int digits = 6;

	if (!frac)
		return scnprintf(buf, size, "%llu", v / SSDLOAD_MICRO);
	while (!(frac % 10)) {
		frac /= 10;
		digits--;
	}
	return scnprintf(buf, size, "%llu.%0*llu", v / SSDLOAD_MICRO, digits,
			 frac);
}

/*
 * The weights @w[@n] (millionths of a percent, 0 = not given) summing to
 * @sum with @missing of them not given: fio shares what is left to 100%
 * evenly among those; what is still left (the remainder of that division,
 * or all of it when every weight was given) goes to the largest weight,
 * as fio's draw gives it to the last entry of its list sorted by weight.
 */
static void dist_fill_weights(u32 *w, const bool *given, u32 n, u64 sum,
			      u32 missing)
{
	u64 share = missing ? (SSDLOAD_PCT_ALL - sum) / missing : 0;
	u32 i, big = 0;

	sum = 0;
	for (i = 0; i < n; i++) {
		if (!given[i])
			w[i] = share;
		sum += w[i];
		if (w[i] > w[big])
			big = i;
	}
	w[big] += SSDLOAD_PCT_ALL - sum;
}

/* ---- bssplit / bsrange ------------------------------------------------ */

/* One direction of bssplit: "size[/weight]:size[/weight]...". */
static int dist_parse_bslist(const char *s, const char *end,
			     struct ssdload_bsdist *d)
{
	bool given[SSDLOAD_BSSPLIT_MAX];
	u32 i, missing = 0;
	u64 sum = 0, cum = 0;
	int ret;

	memset(d, 0, sizeof(*d));
	d->min = U32_MAX;
	for (;;) {
		u64 bs, w = 0;

		if (d->nr == SSDLOAD_BSSPLIT_MAX)
			return -ERANGE;
		ret = dist_scan_bytes(&s, end, &bs);
		if (ret)
			return ret;
		if (!bs || bs % SECTOR_SIZE)
			return -EINVAL;
		if (bs > SSDLOAD_MAX_BS)
			return -ERANGE;
		given[d->nr] = false;
		if (s < end && *s == '/') {
			s++;
			if (s < end && *s != ':') {
				ret = dist_scan_micro(&s, end, &w);
				if (ret)
					return ret;
				if (!w)
					return -EINVAL;
				if (w > SSDLOAD_PCT_ALL)
					return -ERANGE;
				given[d->nr] = true;
			}
		}
		if (given[d->nr])
			sum += w;
		else
			missing++;
		d->bs[d->nr] = bs;
		d->pct[d->nr] = w;
		d->min = min_t(u32, d->min, bs);
		d->max = max_t(u32, d->max, bs);
		d->nr++;
		if (s == end)
			break;
		if (*s != ':' || ++s == end)
			return -EINVAL;
	}
	if (sum > SSDLOAD_PCT_ALL)
		return -ERANGE;
	dist_fill_weights(d->pct, given, d->nr, sum, missing);
	for (i = 0; i < d->nr; i++) {
		cum += d->pct[i];
		/* cum / 100% in 2^-64 units; the first entry at 100% ends */
		d->cum[i] = cum >= SSDLOAD_PCT_ALL ? U64_MAX :
			    mul_u64_u64_div_u64(cum, 1ULL << 63,
						SSDLOAD_PCT_ALL) << 1;
	}
	return 0;
}

/* One direction of bsrange: "min-max" or "min:max" (fio swaps them). */
static int dist_parse_bsrange1(const char *s, const char *end,
			       struct ssdload_bsdist *d)
{
	u64 lo, hi;
	int ret;

	memset(d, 0, sizeof(*d));
	ret = dist_scan_bytes(&s, end, &lo);
	if (ret)
		return ret;
	if (s == end || (*s != '-' && *s != ':'))
		return -EINVAL;
	s++;
	ret = dist_scan_bytes(&s, end, &hi);
	if (ret)
		return ret;
	if (s != end)
		return -EINVAL;
	if (lo > hi)
		swap(lo, hi);
	if (!lo || lo % SECTOR_SIZE || hi % SECTOR_SIZE)
		return -EINVAL;
	if (hi > SSDLOAD_MAX_BS)
		return -ERANGE;
	d->range = true;
	d->min = lo;
	d->max = hi;
	d->step = is_power_of_2(lo) ? lo : SECTOR_SIZE;
	d->nr_steps = (hi - lo) / d->step + 1;
	return 0;
}

static int dist_parse_bsspec(const char *buf, struct ssdload_bsspec *out,
			     bool range)
{
	const char *b[SSDLOAD_DIR_NR], *e[SSDLOAD_DIR_NR];
	size_t len = dist_len(buf);
	int d, ret;

	if (!len || memchr(buf, '\n', len))
		return -EINVAL;
	ret = dist_split_dirs(buf, buf + len, b, e);
	for (d = 0; !ret && d < SSDLOAD_DIR_NR; d++)
		ret = range ? dist_parse_bsrange1(b[d], e[d], &out->d[d]) :
			      dist_parse_bslist(b[d], e[d], &out->d[d]);
	return ret;
}

/*
 * bssplit: per direction, "size/weight:size/weight..." (fio syntax, sizes
 * with k/m/g suffixes, weights in percent with up to 6 decimals).  Up to
 * 64 entries; sizes are multiples of 512 up to 16 MiB; a weight left out
 * shares what is left to 100%; an explicit 0 weight or weights over 100%
 * are refused.
 */
int ssdload_parse_bssplit(const char *buf, struct ssdload_bsspec *out)
{
	return dist_parse_bsspec(buf, out, false);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_bssplit);

/* bsrange: "min-max" per direction; uniform over min + k * step. */
int ssdload_parse_bsrange(const char *buf, struct ssdload_bsspec *out)
{
	return dist_parse_bsspec(buf, out, true);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_bsrange);

static bool dist_bs_same(const struct ssdload_bsdist *a,
			 const struct ssdload_bsdist *b)
{
	return a->nr == b->nr && a->range == b->range && a->min == b->min &&
	       a->max == b->max && !memcmp(a->bs, b->bs, sizeof(a->bs)) &&
	       !memcmp(a->pct, b->pct, sizeof(a->pct));
}

/* How many lists show prints: 1, 2 (writes = trims) or 3. */
static int dist_nr_lists(bool same01, bool same12)
{
	if (same01 && same12)
		return 1;
	return same12 ? 2 : 3;
}

/* The normalised form: plain bytes, every weight, one line. */
int ssdload_bsspec_show(const struct ssdload_bsspec *s, bool range,
			char *page)
{
	int n = dist_nr_lists(dist_bs_same(&s->d[0], &s->d[1]),
			      dist_bs_same(&s->d[1], &s->d[2]));
	int len = 0, d;
	u32 i;

	for (d = 0; d < n; d++) {
		const struct ssdload_bsdist *b = &s->d[d];

		if (d)
			len += scnprintf(page + len, PAGE_SIZE - len, ",");
		if (range) {
			len += scnprintf(page + len, PAGE_SIZE - len, "%u-%u",
					 b->min, b->max);
			continue;
		}
		for (i = 0; i < b->nr; i++) {
			len += scnprintf(page + len, PAGE_SIZE - len, "%s%u/",
					 i ? ":" : "", b->bs[i]);
			/* a weight shared out as 0 shows as left out */
			if (b->pct[i])
				len += dist_show_micro(page + len,
						       PAGE_SIZE - len,
						       b->pct[i]);
		}
	}
	len += scnprintf(page + len, PAGE_SIZE - len, "\n");
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_bsspec_show);

/* ---- random_distribution ----------------------------------------------- */

static const struct ssdload_enum dist_names[] = {
	{ SSDLOAD_DIST_RANDOM,		"random" },
	{ SSDLOAD_DIST_ZIPF,		"zipf" },
	{ SSDLOAD_DIST_PARETO,		"pareto" },
	{ SSDLOAD_DIST_NORMAL,		"normal" },
	{ SSDLOAD_DIST_ZONED,		"zoned" },
	{ SSDLOAD_DIST_ZONED_ABS,	"zoned_abs" },
	{ 0, NULL }
};

/*
 * One direction of zoned ("access/size_percent:...") or zoned_abs
 * ("access/size_bytes:...").  fio's rules: the accesses add up to exactly
 * 100%; zoned sizes add up to at most 100% and a size left out shares
 * what is left; a zoned_abs size must be given.  Explicit 0 sizes are
 * refused (fio would take them as left out); 0 accesses are fine.
 */
static int dist_parse_zones(const char *s, const char *end, bool abs,
			    struct ssdload_zone *z, u32 *nr)
{
	bool given[SSDLOAD_ZONES_MAX];
	u64 acc = 0, size = 0;
	u32 i, missing = 0;
	int ret;

	for (*nr = 0;;) {
		u64 a, v = 0;

		if (*nr == SSDLOAD_ZONES_MAX)
			return -ERANGE;
		ret = dist_scan_micro(&s, end, &a);
		if (ret)
			return ret;
		if (a > SSDLOAD_PCT_ALL)
			return -ERANGE;
		given[*nr] = false;
		if (s < end && *s == '/' && s + 1 < end && s[1] != ':') {
			s++;
			ret = abs ? dist_scan_bytes(&s, end, &v) :
				    dist_scan_micro(&s, end, &v);
			if (ret)
				return ret;
			if (!v)
				return -EINVAL;
			if (!abs && v > SSDLOAD_PCT_ALL)
				return -ERANGE;
			if (size + v < size)
				return -ERANGE;
			size += v;
			given[*nr] = true;
		} else if (s < end && *s == '/') {
			s++;
		}
		if (!given[*nr]) {
			if (abs)
				return -EINVAL;
			missing++;
		}
		acc += a;
		z[*nr].access = a;
		z[*nr].size = v;
		(*nr)++;
		if (s == end)
			break;
		if (*s != ':' || ++s == end)
			return -EINVAL;
	}
	if (acc > SSDLOAD_PCT_ALL || (!abs && size > SSDLOAD_PCT_ALL))
		return -ERANGE;
	if (acc != SSDLOAD_PCT_ALL)
		return -EINVAL;
	for (i = 0; i < *nr && missing; i++)
		if (!given[i])
			z[i].size = (SSDLOAD_PCT_ALL - size) / missing;
	return 0;
}

static int dist_show_buf(const struct ssdload_distspec *s, char *buf,
			 size_t size);

static int dist_parse(const char *buf, size_t len,
		      struct ssdload_distspec *out)
{
	const char *colon = memchr(buf, ':', len), *end = buf + len;
	const char *b[SSDLOAD_DIR_NR], *e[SSDLOAD_DIR_NR];
	char name[16];
	size_t nl = colon ? colon - buf : len;
	u32 type;
	int d, ret;
	u64 v;

	if (nl >= sizeof(name))
		return -EINVAL;
	memcpy(name, buf, nl);
	name[nl] = '\0';
	ret = ssdload_parse_enum(name, dist_names, &type);
	if (ret)
		return ret;
	out->type = type;
	switch (type) {
	case SSDLOAD_DIST_RANDOM:
		return colon ? -EINVAL : 0;
	case SSDLOAD_DIST_ZONED:
	case SSDLOAD_DIST_ZONED_ABS:
		if (!colon)
			return -EINVAL;
		ret = dist_split_dirs(colon + 1, end, b, e);
		for (d = 0; !ret && d < SSDLOAD_DIR_NR; d++)
			ret = dist_parse_zones(b[d], e[d],
					       type == SSDLOAD_DIST_ZONED_ABS,
					       out->zones[d], &out->nr_zones[d]);
		return ret;
	}
	/* zipf, pareto: fio's defaults when the value is left out */
	if (!colon) {
		if (type == SSDLOAD_DIST_NORMAL)
			return -EINVAL;
		out->param = type == SSDLOAD_DIST_ZIPF ? 1100000 : 200000;
		return 0;
	}
	colon++;
	ret = dist_scan_micro(&colon, end, &v);
	if (ret)
		return ret;
	if (colon != end)	/* fio's random_center ":c" is not supported */
		return -EINVAL;
	if (!v || (type == SSDLOAD_DIST_ZIPF && v > 100 * SSDLOAD_MICRO) ||
	    (type == SSDLOAD_DIST_PARETO && v >= SSDLOAD_MICRO) ||
	    (type == SSDLOAD_DIST_NORMAL && v >= SSDLOAD_PCT_ALL))
		return -ERANGE;
	out->param = v;
	return 0;
}

/*
 * random_distribution: random | zipf[:theta] | pareto[:h] | normal:sigma
 * | zoned:a/s:...[,...] | zoned_abs:a/bytes:...[,...].  theta in (0, 100]
 * (fio refuses 1.0, which its approximation cannot take; this exact
 * computation can), h in (0, 1), sigma in (0, 100) percent of the span.
 */
int ssdload_parse_distribution(const char *buf, struct ssdload_distspec *out)
{
	size_t len = dist_len(buf);
	char *tmp;
	int ret;

	if (!len || memchr(buf, '\n', len))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	ret = dist_parse(buf, len, out);
	if (ret)
		return ret;
	/* the normalised form must fit the page show writes */
	tmp = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	if (dist_show_buf(out, tmp, PAGE_SIZE) >= PAGE_SIZE - 1)
		ret = -ERANGE;
	kfree(tmp);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_distribution);

static bool dist_zones_same(const struct ssdload_distspec *s, int a, int b)
{
	return s->nr_zones[a] == s->nr_zones[b] &&
	       !memcmp(s->zones[a], s->zones[b],
		       s->nr_zones[a] * sizeof(s->zones[a][0]));
}

static int dist_show_buf(const struct ssdload_distspec *s, char *buf,
			 size_t size)
{
	int len, n, d;
	u32 i;

	len = scnprintf(buf, size, "%s",
			ssdload_enum_name(dist_names, s->type));
	switch (s->type) {
	case SSDLOAD_DIST_RANDOM:
		break;
	case SSDLOAD_DIST_ZONED:
	case SSDLOAD_DIST_ZONED_ABS:
		n = dist_nr_lists(dist_zones_same(s, 0, 1),
				  dist_zones_same(s, 1, 2));
		for (d = 0; d < n; d++) {
			len += scnprintf(buf + len, size - len, d ? "," : ":");
			for (i = 0; i < s->nr_zones[d]; i++) {
				const struct ssdload_zone *z = &s->zones[d][i];

				if (i)
					len += scnprintf(buf + len, size - len,
							 ":");
				len += dist_show_micro(buf + len, size - len,
						       z->access);
				len += scnprintf(buf + len, size - len, "/");
				if (s->type == SSDLOAD_DIST_ZONED_ABS)
					len += scnprintf(buf + len, size - len,
							 "%llu", z->size);
				else if (z->size)	/* 0: left out */
					len += dist_show_micro(buf + len,
							       size - len,
							       z->size);
			}
		}
		break;
	default:
		len += scnprintf(buf + len, size - len, ":");
		len += dist_show_micro(buf + len, size - len, s->param);
	}
	len += scnprintf(buf + len, size - len, "\n");
	return len;
}

int ssdload_distspec_show(const struct ssdload_distspec *s, char *page)
{
	return dist_show_buf(s, page, PAGE_SIZE);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_distspec_show);

/* ---- bijection ------------------------------------------------------- */

/*
 * A bijection P of [0, 2^k), 2^k >= n: rounds of an odd multiplier, an
 * addend and an xorshift, each invertible mod 2^k.  Values at or past n
 * are walked on through P (cycle walking), which keeps a bijection of
 * [0, n); since 2^k < 2n the walk takes fewer than two steps on average.
 */
void ssdload_bij_init(struct ssdload_bij *b, u64 n, u64 seed)
{
	unsigned int k = n > 1 ? fls64(n - 1) : 0;
	int r;

	b->n = n;
	b->mask = k >= 64 ? ~0ULL : (1ULL << k) - 1;
	b->shift = max(1U, k / 2);
	for (r = 0; r < SSDLOAD_BIJ_ROUNDS; r++) {
		b->mul[r] = ssdload_splitmix64(&seed) | 1;
		b->add[r] = ssdload_splitmix64(&seed);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_bij_init);

/* ---- software floating point ----------------------------------------- */

/* m * 2^e, m = 0 or m >= 2^63 (normalised); non-negative values only. */
struct dfx {
	u64 m;
	int e;
};

#define DFX_LN2_Q62	0x2c5c85fdf473de6bULL	/* ln(2) * 2^62 */
#define DFX_LOG2E_Q62	0x5c551d94ae0bf85eULL	/* log2(e) * 2^62 */

static struct dfx dfx_make(u128 m, int e)
{
	struct dfx r = { 0, 0 };
	unsigned int s;

	if (!m)
		return r;
	if (m >> 64) {
		s = fls64((u64)(m >> 64));
		m >>= s;
		e += s;
	}
	s = 64 - fls64((u64)m);
	r.m = (u64)m << s;
	r.e = e - s;
	return r;
}

static struct dfx dfx_u64(u64 x)
{
	return dfx_make(x, 0);
}

static struct dfx dfx_mul(struct dfx a, struct dfx b)
{
	return dfx_make((u128)a.m * b.m, a.e + b.e);
}

static struct dfx dfx_div(struct dfx a, struct dfx b)
{
	if (!a.m)
		return a;
	return dfx_make(mul_u64_u64_div_u64(a.m, 1ULL << 63, b.m),
			a.e - b.e - 63);
}

static struct dfx dfx_add(struct dfx a, struct dfx b)
{
	int d;

	if (!a.m)
		return b;
	if (!b.m)
		return a;
	if (a.e < b.e)
		swap(a, b);
	d = a.e - b.e;
	if (d >= 64)
		return a;
	return dfx_make(((u128)a.m << d) + b.m, b.e);
}

/* a - b for a >= b. */
static struct dfx dfx_sub(struct dfx a, struct dfx b)
{
	int d;

	if (!b.m)
		return a;
	d = a.e - b.e;
	if (d >= 64)
		return a;
	if (d < 0)
		return dfx_make(0, 0);
	return dfx_make(((u128)a.m << d) - b.m, b.e);
}

static int dfx_cmp(struct dfx a, struct dfx b)
{
	if (!a.m || !b.m)
		return (a.m != 0) - (b.m != 0);
	if (a.e != b.e)
		return a.e < b.e ? -1 : 1;
	return a.m < b.m ? -1 : a.m > b.m;
}

/* floor(a * 2^shift), saturated to u64. */
static u64 dfx_to_u64(struct dfx a, int shift)
{
	int e = a.e + shift;

	if (!a.m || e <= -64)
		return 0;
	if (e > 0)
		return U64_MAX;
	return a.m >> -e;
}

/* log2(a) in Q56, a > 0 with |log2(a)| < 127: squaring, one bit a round. */
static s64 dfx_log2(struct dfx a)
{
	s64 r = (s64)(a.e + 63) * (1LL << 56);
	u64 x = a.m >> 1;		/* Q62, in [1, 2) */
	int i;

	for (i = 55; i >= 0; i--) {
		x = (u64)(((u128)x * x) >> 62);
		if (x >= 2ULL << 62) {
			x >>= 1;
			r += 1LL << i;
		}
	}
	return r;
}

/* 2^(y / 2^56): 2^frac by the series of e^(frac ln 2), in Q62. */
static struct dfx dfx_exp2(__int128 y)
{
	s64 i = (s64)(y >> 56);
	u64 f = (u64)(y - ((__int128)i << 56));
	u64 z = (u64)(((u128)f * DFX_LN2_Q62) >> 56);
	u64 t = 1ULL << 62, sum = t;
	unsigned int k;

	if (i < -4000)
		return dfx_make(0, 0);
	for (k = 1; t; k++) {
		t = (u64)(((u128)t * z) >> 62) / k;
		sum += t;
	}
	return dfx_make(sum, (int)i - 62);
}

/* |a| as Q56 in an __int128, saturated at 2^72 (a tiny or huge exponent). */
static __int128 dfx_q56(struct dfx a)
{
	int e = a.e + 56;

	if (!a.m || e <= -64)
		return 0;
	if (e > 8)
		return (__int128)1 << 72;
	return e >= 0 ? (__int128)a.m << e : (__int128)(a.m >> -e);
}

/* x^y, or x^-y with @neg; x > 0. */
static struct dfx dfx_pow(struct dfx x, struct dfx y, bool neg)
{
	s64 l = dfx_log2(x);
	__int128 p = dfx_q56(dfx_mul(dfx_make(l < 0 ? -l : l, -56), y));

	return dfx_exp2((l < 0) != neg ? -p : p);
}

/* e^z or e^-z, z >= 0. */
static struct dfx dfx_exp(struct dfx z, bool neg)
{
	__int128 p = dfx_q56(dfx_mul(z, dfx_make(DFX_LOG2E_Q62, -62)));

	return dfx_exp2(neg ? -p : p);
}

/* ln(1 + s), s >= 0, accurate for small s: 2 atanh(s / (2 + s)). */
static struct dfx dfx_log1p(struct dfx s)
{
	struct dfx one = dfx_u64(1), w, w2, t, sum;
	unsigned int k;

	if (dfx_cmp(s, one) > 0) {
		s64 l = dfx_log2(dfx_add(one, s));

		return dfx_mul(dfx_make(l, -56), dfx_make(DFX_LN2_Q62, -62));
	}
	w = dfx_div(s, dfx_add(dfx_u64(2), s));
	w2 = dfx_mul(w, w);
	sum = w;
	t = w;
	for (k = 3; k < 200; k += 2) {
		struct dfx term;

		t = dfx_mul(t, w2);
		term = dfx_div(t, dfx_u64(k));
		if (!term.m || sum.e - term.e > 64)
			break;
		sum = dfx_add(sum, term);
	}
	return dfx_make(sum.m, sum.e + 1);
}

/* e^z - 1, z >= 0, accurate for small z. */
static struct dfx dfx_expm1(struct dfx z)
{
	struct dfx one = dfx_u64(1), t = z, sum = z;
	unsigned int k;

	if (dfx_cmp(z, one) > 0)
		return dfx_sub(dfx_exp(z, false), one);
	for (k = 2; k < 200; k++) {
		t = dfx_div(dfx_mul(t, z), dfx_u64(k));
		if (!t.m || sum.e - t.e > 64)
			break;
		sum = dfx_add(sum, t);
	}
	return sum;
}

#if IS_ENABLED(CONFIG_KUNIT)
/* (x_num / x_den)^(y_micro / 10^6) * 2^shift, for the KUnit suite. */
u64 ssdload_dist_pow_fx(u64 x_num, u64 x_den, s64 y_micro, int shift)
{
	struct dfx x = dfx_div(dfx_u64(x_num), dfx_u64(x_den));
	struct dfx y = dfx_div(dfx_u64(y_micro < 0 ? -y_micro : y_micro),
			       dfx_u64(SSDLOAD_MICRO));

	return dfx_to_u64(dfx_pow(x, y, y_micro < 0), shift);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_dist_pow_fx);
#endif

/* ---- groups of units and their masses --------------------------------- */

/* Ranks below this are groups of one; then DIST_PER_OCTAVE per octave. */
#define DIST_EXACT		4096ULL
#define DIST_PER_OCTAVE_SHIFT	8
/* normal: groups of sigma / 2^7, out to 8.5 sigma */
#define DIST_NORMAL_SHIFT	7
#define DIST_NORMAL_SPAN_X2	17

struct dist_group {
	u64 start, len;			/* units */
	struct dfx mass;		/* unnormalised */
};

struct dist_build {
	struct dist_group *g;
	u32 nr, max;
};

static void dist_add(struct dist_build *b, u64 start, u64 len,
		     struct dfx mass)
{
	if (!len || WARN_ON_ONCE(b->nr >= b->max))
		return;
	b->g[b->nr].start = start;
	b->g[b->nr].len = len;
	b->g[b->nr].mass = mass;
	b->nr++;
}

/*
 * Hot ranks 1..n (1-based) in groups: [r, r + 1) up to DIST_EXACT, then
 * [r, r + 2^(j - 8)) within each octave [2^j, 2^(j + 1)).  Returns the
 * end of the group that starts at @r.
 */
static u64 dist_rank_next(u64 r, u64 n)
{
	u64 w = r < DIST_EXACT ? 1 :
		1ULL << (ilog2(r) - DIST_PER_OCTAVE_SHIFT);

	return min(r + w, n + 1);
}

static u32 dist_rank_groups(u64 n)
{
	u32 nr = 0;
	u64 r;

	for (r = 1; r <= n; r = dist_rank_next(r, n))
		nr++;
	return nr;
}

/* x^-theta at the half-integer x = h / 2. */
static struct dfx dist_zipf_f(u64 h, struct dfx theta)
{
	return dfx_pow(dfx_make(h, -1), theta, true);
}

/*
 * zipf: P(rank k) proportional to k^-theta, k = 1..n.  Single ranks are
 * exact; a group [a, b) is sum_{k=a}^{b-1} k^-theta by Euler-Maclaurin
 * around the midpoints: the integral over [a - 1/2, b - 1/2] (Simpson:
 * relative error ~1e-11 over a group 1/256 of its rank wide) minus
 * (theta / 24) (A^(-theta-1) - B^(-theta-1)) (next term ~1e-13).
 */
static void dist_zipf(struct dist_build *b, u64 n, u64 param)
{
	struct dfx theta = dfx_div(dfx_u64(param), dfx_u64(SSDLOAD_MICRO));
	struct dfx c24 = dfx_div(theta, dfx_u64(24));
	struct dfx fa = { 0, 0 };
	u64 r, e;

	for (r = 1; r <= n; r = e) {
		struct dfx fb, fm, i, corr;

		e = dist_rank_next(r, n);
		if (e - r == 1) {
			dist_add(b, r - 1, 1, dfx_pow(dfx_u64(r), theta, true));
			continue;
		}
		if (!fa.m)
			fa = dist_zipf_f(2 * r - 1, theta);
		fb = dist_zipf_f(2 * e - 1, theta);
		fm = dist_zipf_f(r + e - 1, theta);
		i = dfx_add(dfx_add(fa, fb), dfx_mul(fm, dfx_u64(4)));
		i = dfx_div(dfx_mul(i, dfx_u64(e - r)), dfx_u64(6));
		corr = dfx_sub(dfx_div(fa, dfx_make(2 * r - 1, -1)),
			       dfx_div(fb, dfx_make(2 * e - 1, -1)));
		dist_add(b, r - 1, e - r, dfx_sub(i, dfx_mul(c24, corr)));
		fa = fb;
	}
}

/*
 * pareto as fio draws it (lib/zipf.c): value v = floor(n u^p) with
 * p = log(h) / log(1 - h), so F(x) = P(v < x) = (x / n)^alpha, alpha =
 * 1 / p.  For alpha >= 1 (h >= 0.5) the hottest values are the highest:
 * hot rank k is v = n - 1 - k; below, hot rank k is v = k.  A group of
 * values [x1, x0) weighs F(x0) - F(x1) = F(x1) (e^(alpha ln(x0 / x1)) - 1),
 * computed with log1p/expm1 so that single ranks near F = 1 stay exact.
 */
static void dist_pareto(struct dist_build *b, u64 n, u64 param)
{
	struct dfx h = dfx_div(dfx_u64(param), dfx_u64(SSDLOAD_MICRO));
	struct dfx h1 = dfx_div(dfx_u64(SSDLOAD_MICRO - param),
				dfx_u64(SSDLOAD_MICRO));
	s64 lh = -dfx_log2(h), lh1 = -dfx_log2(h1);
	struct dfx alpha = dfx_div(dfx_make(lh1, 0), dfx_make(lh, 0));
	bool top = lh1 >= lh;		/* alpha >= 1 */
	struct dfx nn = dfx_u64(n);
	u64 r, e;

	for (r = 1; r <= n; r = e) {
		u64 k0 = r - 1, k1, x0, x1;
		struct dfx m, fx1, z;

		e = dist_rank_next(r, n);
		k1 = e - 1;
		x0 = top ? n - k0 : k1;		/* values [x1, x0) */
		x1 = top ? n - k1 : k0;
		if (!x1) {
			m = dfx_pow(dfx_div(dfx_u64(x0), nn), alpha, false);
		} else {
			fx1 = dfx_pow(dfx_div(dfx_u64(x1), nn), alpha, false);
			z = dfx_mul(alpha, dfx_log1p(dfx_div(dfx_u64(x0 - x1),
							     dfx_u64(x1))));
			m = dfx_mul(fx1, dfx_expm1(z));
		}
		dist_add(b, k0, k1 - k0, m);
	}
}

/* exp(-((x - c) / sigma)^2 / 2). */
static struct dfx dist_phi(struct dfx x, struct dfx c, struct dfx inv2s2)
{
	struct dfx d = dfx_cmp(x, c) >= 0 ? dfx_sub(x, c) : dfx_sub(c, x);

	return dfx_exp(dfx_mul(dfx_mul(d, d), inv2s2), true);
}

/* Composite Simpson of the density over units [a, b), @p panels. */
static struct dfx dist_normal_mass(u64 a, u64 b, u32 p, struct dfx c,
				   struct dfx inv2s2)
{
	struct dfx sum = { 0, 0 }, den = dfx_u64(2ULL * p);
	u32 j;

	/* point j of 2p + 1 is a + j (b - a) / 2p; weights 1 4 2 4 ... 4 1 */
	for (j = 0; j <= 2 * p; j++) {
		u128 num = (u128)2 * p * a + (u128)j * (b - a);
		struct dfx f = dist_phi(dfx_div(dfx_make(num, 0), den), c,
					inv2s2);
		u64 k = (j == 0 || j == 2 * p) ? 1 : (j & 1) ? 4 : 2;

		sum = dfx_add(sum, dfx_mul(f, dfx_u64(k)));
	}
	return dfx_mul(sum, dfx_div(dfx_u64(b - a), dfx_u64(6ULL * p)));
}

/* normal: sigma in units, group width, and units from the centre out. */
static struct dfx dist_normal_geom(u64 n, u64 param, u64 *w, u64 *ext)
{
	struct dfx sigma = dfx_div(dfx_mul(dfx_u64(n), dfx_u64(param)),
				   dfx_u64(SSDLOAD_PCT_ALL));

	*w = max(1ULL, dfx_to_u64(sigma, -DIST_NORMAL_SHIFT));
	*ext = dfx_to_u64(dfx_mul(sigma, dfx_u64(DIST_NORMAL_SPAN_X2)), -1) + 1;
	return sigma;
}

static u32 dist_normal_groups(u64 n, u64 param)
{
	u64 w, ext;

	dist_normal_geom(n, param, &w, &ext);
	return 2 * (min(ext, n) / w + 2);
}

/*
 * normal: a Gaussian centred on the middle of the units, sigma in
 * millionths of a percent of them; groups of sigma / 128 units (at least
 * one) from the centre out to 8.5 sigma, clipped to the units; each weighs
 * the integral of the density over it (composite Simpson, panels of at
 * most sigma / 128: relative error ~1e-11).  The tails past 8.5 sigma
 * (2e-17) and past the ends are cut off, the rest renormalised.
 */
static void dist_normal(struct dist_build *b, u64 n, u64 param)
{
	u64 w, ext, cu = n / 2, lo, hi, x, p;
	struct dfx sigma = dist_normal_geom(n, param, &w, &ext);
	struct dfx c = dfx_make(n, -1), inv2s2;

	lo = cu > ext ? cu - ext : 0;
	hi = n - cu > ext ? cu + ext : n;
	/* panels per group: at most sigma / 128 wide */
	p = dfx_to_u64(dfx_div(dfx_u64(w << DIST_NORMAL_SHIFT), sigma), 0);
	p = clamp_val(p + 1, 1, 1024);
	inv2s2 = dfx_div(dfx_u64(1), dfx_mul(dfx_mul(sigma, sigma),
					     dfx_u64(2)));
	for (x = cu; x > lo; ) {
		u64 a = x - min(w, x - lo);

		dist_add(b, a, x - a, dist_normal_mass(a, x, p, c, inv2s2));
		x = a;
	}
	for (x = cu; x < hi; ) {
		u64 e = x + min(w, hi - x);

		dist_add(b, x, e - x, dist_normal_mass(x, e, p, c, inv2s2));
		x = e;
	}
}

/* zoned, zoned_abs: the zones in LBA order, weighing their access. */
static int dist_zoned(struct dist_build *b, const struct ssdload_distspec *s,
		      int dir, u64 n, u64 unit_bytes)
{
	const struct ssdload_zone *z = s->zones[dir];
	bool abs = s->type == SSDLOAD_DIST_ZONED_ABS;
	u64 cum = 0, start = 0, end;
	u32 i;

	for (i = 0; i < s->nr_zones[dir]; i++) {
		cum += z[i].size;
		if (abs)
			end = div64_u64(cum, unit_bytes);
		else
			end = mul_u64_u64_div_u64(min(cum, SSDLOAD_PCT_ALL), n,
						  SSDLOAD_PCT_ALL);
		if (z[i].access && (end > n || end <= start))
			return -EINVAL;
		end = min(end, n);
		if (z[i].access)
			dist_add(b, start, end - start, dfx_u64(z[i].access));
		start = max(start, end);
	}
	return 0;
}

static u32 dist_max_groups(const struct ssdload_distspec *s, int dir, u64 n)
{
	switch (s->type) {
	case SSDLOAD_DIST_ZIPF:
	case SSDLOAD_DIST_PARETO:
		return dist_rank_groups(n);
	case SSDLOAD_DIST_NORMAL:
		return dist_normal_groups(n, s->param);
	case SSDLOAD_DIST_ZONED:
	case SSDLOAD_DIST_ZONED_ABS:
		return s->nr_zones[dir];
	}
	return 1;
}

/*
 * Vose's alias method in integers: the group weights W (u64, from the
 * masses) scaled by the number of columns n, a column holds S = sum(W);
 * exact but for the final threshold, rounded to 2^-32 of a column.
 */
static void dist_alias(struct ssdload_dist *d, const struct dist_group *g,
		       u128 *s, u32 *stack)
{
	u32 n = d->nr, nsmall = 0, nlarge = 0, i;
	struct dfx top = { 0, 0 };
	u128 cap = 0;
	int shift;

	for (i = 0; i < n; i++)
		if (dfx_cmp(g[i].mass, top) > 0)
			top = g[i].mass;
	for (i = 0; i < n; i++) {
		s[i] = dfx_to_u64(dfx_div(g[i].mass, top), 62);
		cap += s[i];
		s[i] *= n;
		d->col[i].start = g[i].start;
		d->col[i].len = g[i].len;
		d->col[i].thr = U32_MAX;
		d->col[i].alias = i;
	}
	shift = cap >> 64 ? fls64((u64)(cap >> 64)) : 0;
	/* small ones from the front of stack[], large ones from the back */
	for (i = 0; i < n; i++) {
		if (s[i] < cap)
			stack[nsmall++] = i;
		else
			stack[n - 1 - nlarge++] = i;
	}
	while (nsmall && nlarge) {
		u32 l = stack[--nsmall], h = stack[n - nlarge];
		u64 thr;

		nlarge--;
		thr = mul_u64_u64_div_u64((u64)(s[l] >> shift), 1ULL << 32,
					  (u64)(cap >> shift));
		d->col[l].thr = min_t(u64, thr, U32_MAX);
		d->col[l].alias = h;
		s[h] -= cap - s[l];
		if (s[h] < cap)
			stack[nsmall++] = h;
		else
			stack[n - 1 - nlarge++] = h;
	}
}

/*
 * The offset sampler of direction @dir over @nr_units units of
 * @unit_bytes: groups of units with their exact masses, in an alias table.
 * With @scatter (zipf, pareto, normal) the drawn unit goes through a
 * bijection seeded by @seed, so that hot ranks spread over the span.
 */
struct ssdload_dist *ssdload_dist_build(const struct ssdload_distspec *s,
					int dir, u64 nr_units, u64 unit_bytes,
					bool scatter, u64 seed, int node)
{
	struct dist_build b = { };
	struct ssdload_dist *d = NULL;
	u128 *tmp = NULL;
	u32 *stack = NULL;
	int ret = -ENOMEM;

	if (!nr_units || !unit_bytes || dir < 0 || dir >= SSDLOAD_DIR_NR)
		return ERR_PTR(-EINVAL);
	b.max = dist_max_groups(s, dir, nr_units);
	if (!b.max)
		return ERR_PTR(-EINVAL);
	b.g = kvmalloc_array(b.max, sizeof(*b.g), GFP_KERNEL);
	if (!b.g)
		goto out;
	switch (s->type) {
	case SSDLOAD_DIST_ZIPF:
		dist_zipf(&b, nr_units, s->param);
		break;
	case SSDLOAD_DIST_PARETO:
		dist_pareto(&b, nr_units, s->param);
		break;
	case SSDLOAD_DIST_NORMAL:
		dist_normal(&b, nr_units, s->param);
		break;
	case SSDLOAD_DIST_ZONED:
	case SSDLOAD_DIST_ZONED_ABS:
		ret = dist_zoned(&b, s, dir, nr_units, unit_bytes);
		if (ret)
			goto out;
		break;
	default:
		dist_add(&b, 0, nr_units, dfx_u64(1));
	}
	ret = -EINVAL;
	if (!b.nr)
		goto out;
	ret = -ENOMEM;
	d = kvzalloc_node(struct_size(d, col, b.nr), GFP_KERNEL, node);
	tmp = kvmalloc_array(b.nr, sizeof(*tmp), GFP_KERNEL);
	stack = kvmalloc_array(b.nr, sizeof(*stack), GFP_KERNEL);
	if (!d || !tmp || !stack)
		goto out;
	d->nr_units = nr_units;
	d->nr = b.nr;
	d->scatter = scatter && (s->type == SSDLOAD_DIST_ZIPF ||
				 s->type == SSDLOAD_DIST_PARETO ||
				 s->type == SSDLOAD_DIST_NORMAL);
	ssdload_bij_init(&d->bij, nr_units, seed ^ 0x7363617474657221ULL);
	dist_alias(d, b.g, tmp, stack);
	ret = 0;
out:
	kvfree(stack);
	kvfree(tmp);
	kvfree(b.g);
	if (ret) {
		kvfree(d);
		return ERR_PTR(ret);
	}
	return d;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_dist_build);

void ssdload_dist_free(struct ssdload_dist *d)
{
	kvfree(d);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_dist_free);

/* Probability of each group in units of 2^-32 / nr (they sum to nr 2^32). */
static void dist_probs(const struct ssdload_dist *d, u64 *p)
{
	u32 i;

	memset(p, 0, d->nr * sizeof(*p));
	for (i = 0; i < d->nr; i++) {
		p[i] += d->col[i].thr;
		p[d->col[i].alias] += (1ULL << 32) - d->col[i].thr;
	}
}

#if IS_ENABLED(CONFIG_KUNIT)
void ssdload_dist_probs(const struct ssdload_dist *d, u64 *p)
{
	dist_probs(d, p);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_dist_probs);
#endif

struct dist_dens {
	u64 p, len;
};

/* Densest first: p_a / len_a > p_b / len_b. */
static int dist_dens_cmp(const void *a, const void *b)
{
	const struct dist_dens *x = a, *y = b;
	u128 l = (u128)x->p * y->len, r = (u128)y->p * x->len;

	return l > r ? -1 : l < r;
}

u64 ssdload_dist_top_share_ppm(const struct ssdload_dist *d, u64 top_units)
{
	struct dist_dens *v;
	u64 *p, share = 0;
	u32 i;

	p = kvmalloc_array(d->nr, sizeof(*p), GFP_KERNEL);
	v = kvmalloc_array(d->nr, sizeof(*v), GFP_KERNEL);
	if (!p || !v) {
		kvfree(p);
		kvfree(v);
		return 0;
	}
	dist_probs(d, p);
	for (i = 0; i < d->nr; i++) {
		v[i].p = p[i];
		v[i].len = d->col[i].len;
	}
	sort(v, d->nr, sizeof(*v), dist_dens_cmp, NULL);
	for (i = 0; i < d->nr && top_units; i++) {
		u64 take = min(top_units, v[i].len);

		share += take == v[i].len ? v[i].p :
			 mul_u64_u64_div_u64(v[i].p, take, v[i].len);
		top_units -= take;
	}
	kvfree(p);
	kvfree(v);
	return mul_u64_u64_div_u64(share, SSDLOAD_MICRO, (u64)d->nr << 32);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_dist_top_share_ppm);
