/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload: block-size and offset distributions (dist.c).
 *
 * Pure functions without job state: the parsers of bssplit, bsrange and
 * random_distribution, the block-size draw, a seeded bijection of [0, n)
 * and the table-based offset samplers built at enable.
 */
#ifndef _SSDLOAD_DIST_H
#define _SSDLOAD_DIST_H

#include <linux/types.h>

#include "uapi/ssdload.h"

/*
 * Percentages and parameters are kept in millionths of the number the user
 * wrote ("12.5" -> 12500000): 6 decimals, no floating point.
 */
#define SSDLOAD_MICRO		1000000ULL
#define SSDLOAD_PCT_ALL		(100 * SSDLOAD_MICRO)	/* 100% */

/* Block sizes of one direction. */
struct ssdload_bsdist {
	u32 nr;				/* bssplit entries; 0: bs or bsrange */
	bool range;			/* bsrange: uniform over the steps */
	u32 min, max;			/* bytes, smallest and largest size */
	u32 step;			/* bsrange: sizes are min + k * step */
	u32 nr_steps;			/* bsrange: values of k, >= 1 */
	u32 bs[SSDLOAD_BSSPLIT_MAX];	/* bssplit sizes, in the order given */
	u32 pct[SSDLOAD_BSSPLIT_MAX];	/* their weights, millionths of % */
	u64 cum[SSDLOAD_BSSPLIT_MAX];	/* first r <= cum[i]: bs[i]; 2^-64 */
};

/* bssplit or bsrange: one distribution per direction. */
struct ssdload_bsspec {
	struct ssdload_bsdist d[SSDLOAD_DIR_NR];
};

int ssdload_parse_bssplit(const char *buf, struct ssdload_bsspec *out);
int ssdload_parse_bsrange(const char *buf, struct ssdload_bsspec *out);
int ssdload_bsspec_show(const struct ssdload_bsspec *s, bool range,
			char *page);

/* Block size of one I/O from one 64-bit random value. */
static inline u32 ssdload_bs_draw(const struct ssdload_bsdist *d, u64 r)
{
	u32 i;

	if (d->range)
		return d->min +
		       (u32)(((u128)r * d->nr_steps) >> 64) * d->step;
	for (i = 0; i < d->nr; i++)
		if (r <= d->cum[i])
			return d->bs[i];
	return d->min;
}

enum ssdload_dist_type {
	SSDLOAD_DIST_RANDOM = 0,	/* uniform */
	SSDLOAD_DIST_ZIPF,		/* zipf:theta */
	SSDLOAD_DIST_PARETO,		/* pareto:h */
	SSDLOAD_DIST_NORMAL,		/* normal:sigma (percent of the span) */
	SSDLOAD_DIST_ZONED,		/* zoned:access/size_percent:... */
	SSDLOAD_DIST_ZONED_ABS,		/* zoned_abs:access/size_bytes:... */
};

struct ssdload_zone {
	u32 access;			/* millionths of a percent of the I/Os */
	u64 size;			/* zoned: millionths of a percent of
					 * the span; zoned_abs: bytes
					 */
};

/* A parsed random_distribution (12 KiB: allocate it). */
struct ssdload_distspec {
	u32 type;			/* enum ssdload_dist_type */
	u64 param;			/* theta, h or sigma, millionths */
	u32 nr_zones[SSDLOAD_DIR_NR];	/* zoned: zones per direction */
	struct ssdload_zone zones[SSDLOAD_DIR_NR][SSDLOAD_ZONES_MAX];
};

int ssdload_parse_distribution(const char *buf, struct ssdload_distspec *out);
int ssdload_distspec_show(const struct ssdload_distspec *s, char *page);

/* A seeded bijection of [0, n): rounds mod 2^k plus cycle walking. */
#define SSDLOAD_BIJ_ROUNDS	3

struct ssdload_bij {
	u64 n;				/* the domain */
	u64 mask;			/* 2^k - 1, 2^k >= n */
	u32 shift;			/* of the xorshift, k / 2 */
	u64 mul[SSDLOAD_BIJ_ROUNDS];	/* odd multipliers */
	u64 add[SSDLOAD_BIJ_ROUNDS];	/* addends */
};

void ssdload_bij_init(struct ssdload_bij *b, u64 n, u64 seed);

/* x in [0, n) -> its image in [0, n); fewer than 2 rounds on average. */
static inline u64 ssdload_bij(const struct ssdload_bij *b, u64 x)
{
	int r;

	do {
		for (r = 0; r < SSDLOAD_BIJ_ROUNDS; r++) {
			x = (x * b->mul[r] + b->add[r]) & b->mask;
			x ^= x >> b->shift;
		}
	} while (x >= b->n);
	return x;
}

/* One column of an alias table, and the group of units it stands for. */
struct ssdload_dist_col {
	u64 start;			/* first unit of the group */
	u64 len;			/* units in the group, > 0 */
	u32 thr;			/* below: this group, else alias; 2^-32 */
	u32 alias;			/* the other group of the column */
};

/* An offset sampler: an alias table over groups of units. */
struct ssdload_dist {
	u64 nr_units;			/* units drawn from: [0, nr_units) */
	u32 nr;				/* groups (columns) */
	bool scatter;			/* apply bij to the drawn unit */
	struct ssdload_bij bij;		/* seeded bijection of the units */
	struct ssdload_dist_col col[];	/* nr columns */
};

struct ssdload_dist *ssdload_dist_build(const struct ssdload_distspec *s,
					int dir, u64 nr_units, u64 unit_bytes,
					bool scatter, u64 seed, int node);
void ssdload_dist_free(struct ssdload_dist *d);

/* A unit in [0, nr_units) from two 64-bit random values; O(1). */
static inline u64 ssdload_dist_draw(const struct ssdload_dist *d, u64 r1,
				    u64 r2)
{
	u128 m = (u128)r1 * d->nr;
	const struct ssdload_dist_col *c = &d->col[(u64)(m >> 64)];
	u64 unit;

	if ((u32)((u64)m >> 32) >= c->thr)
		c = &d->col[c->alias];
	unit = c->start + (u64)(((u128)r2 * c->len) >> 64);
	return d->scatter ? ssdload_bij(&d->bij, unit) : unit;
}

/*
 * The model: the exact probability that a draw lands in the @top_units
 * hottest units, in millionths (for the e2e tests and the docs).
 */
u64 ssdload_dist_top_share_ppm(const struct ssdload_dist *d, u64 top_units);

#if IS_ENABLED(CONFIG_KUNIT)
/* Probability of group @g in 2^-64 units (from the table itself). */
void ssdload_dist_probs(const struct ssdload_dist *d, u64 *p);
/* Fixed-point maths of dist.c exposed to KUnit: x^y, scaled by 2^shift. */
u64 ssdload_dist_pow_fx(u64 x_num, u64 x_den, s64 y_micro, int shift);
#endif

#endif /* _SSDLOAD_DIST_H */
