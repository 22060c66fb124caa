/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency studies on the exact histograms: a percentile table with the
 * I/Os behind each row, the share of I/Os below a bound, and checks of
 * promises such as "p99.95 < 500us" (run and show: --latency-table,
 * --latency-below, --latency-check).  Pure functions but the printers.
 */
#ifndef SSDLOAD_CLI_LATSTUDY_H
#define SSDLOAD_CLI_LATSTUDY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "core/options.h"
#include "core/results.h"

#define SSL_LAT_MAX_CONDS	32
#define SSL_LAT_MAX_BELOW	16

/* the table's percentiles when --latency-table has no list */
extern const double ssl_lat_table_default[];
extern const int ssl_lat_table_default_nr;

enum ssl_lat_stat {
	SSL_LAT_PCT,		/* pN: the N-th percentile */
	SSL_LAT_MEAN,		/* exact: sum / ios */
	SSL_LAT_MAX,		/* exact */
};

/* One condition of --latency-check, e.g. "read:p99.95<500us". */
struct ssl_lat_cond {
	int dir;		/* SSDLOAD_DIR_*, or -1: each direction with I/O */
	enum ssl_lat_stat stat;
	double pct;		/* SSL_LAT_PCT: in (0, 100] */
	int le;			/* "<=" rather than "<" */
	uint64_t bound_ns;
	char text[96];		/* as written */
};

/* What --latency-table, --latency-below and --latency-check asked for. */
struct ssl_latstudy {
	double table[SSL_MAX_PERCENTILES];
	int ntable;			/* 0: no table */
	uint64_t below[SSL_LAT_MAX_BELOW];
	char below_text[SSL_LAT_MAX_BELOW][32];
	int nbelow;
	struct ssl_lat_cond cond[SSL_LAT_MAX_CONDS];
	int ncond;
};

/*
 * A latency with a unit: ns, us (also usec), ms (msec), s (sec);
 * decimals allowed ("1.5ms").  0 or -1.
 */
int ssl_lat_parse_time(const char *s, uint64_t *ns);

/*
 * --latency-check: conditions separated by commas, each
 * [read:|write:|trim:](pN|mean|max)(<|<=)TIME.  0, or -1 with @why.
 */
int ssl_latcheck_parse(const char *s, struct ssl_lat_cond *c, int max, int *n,
		       char *why, size_t wlen);

/* --latency-below: TIME[,TIME...] (at most @max).  0, or -1 with @why. */
int ssl_latbelow_parse(const char *s, uint64_t *b, char (*text)[32], int max, int *n,
		       char *why, size_t wlen);

/*
 * Take one of run's and show's options: "latency-table" (@val NULL: the
 * default list), "latency-below" or "latency-check".  0, or -1 after
 * printing what is wrong.
 */
int ssl_latstudy_opt(struct ssl_latstudy *ls, const char *opt, const char *val);

/* Whether anything was asked. */
int ssl_latstudy_wanted(const struct ssl_latstudy *ls);

/* One row of the percentile table. */
struct ssl_pct_row {
	double pct;
	uint64_t value;		/* the bucket's midpoint within [min, max] */
	uint64_t lo, hi;	/* where the percentile lies: its bucket, in [min, max] */
	uint64_t beyond;	/* I/Os in the buckets above its bucket */
	uint64_t need;		/* I/Os for one to lie beyond the percentile */
	int backed;		/* ios >= need */
};

/*
 * The @pct percentile of @counts with what backs it.  @min and @max are
 * the exact extremes (0 if unknown).  0, or -1 for an empty histogram.
 */
int ssl_pct_row(const uint64_t *counts, uint32_t nr, double pct, uint64_t min,
		uint64_t max, struct ssl_pct_row *row);

/* The I/Os needed for one to lie beyond the @pct percentile. */
uint64_t ssl_pct_need(double pct);

/*
 * I/Os below @bound: @sure are below it for certain; @maybe more share
 * its bucket and may be (the histogram's resolution).
 */
void ssl_hist_below(const uint64_t *counts, uint32_t nr, uint64_t bound, uint64_t min,
		    uint64_t max, uint64_t *sure, uint64_t *maybe);

enum ssl_lat_verdict {
	SSL_LAT_PASS,
	SSL_LAT_FAIL,
	SSL_LAT_SHORT,		/* too few I/Os to back the percentile */
	SSL_LAT_NO_IO,		/* a direction named without I/O */
	SSL_LAT_NO_LAT,		/* no latencies recorded (disable_lat) */
};

struct ssl_lat_result {
	enum ssl_lat_verdict verdict;
	uint64_t value;		/* the statistic (ns) */
	uint64_t lo, hi;	/* where it lies (lo == hi: exact) */
	int edge;		/* the bound lies within [lo, hi]: judged by value */
	uint64_t ios, need;
};

/*
 * Judge @c on one direction: @counts (NULL: no histogram), @ios and
 * the exact @min, @max and @sum of its latencies.
 */
void ssl_latcheck_eval(const struct ssl_lat_cond *c, const uint64_t *counts, uint32_t nr,
		       uint64_t ios, uint64_t min, uint64_t max, uint64_t sum,
		       struct ssl_lat_result *res);

/* "pass", "FAIL", ... */
const char *ssl_lat_verdict_name(enum ssl_lat_verdict v);

/*
 * The study of a job's results: print it (normal output), or add it to
 * the JSON document as "latency_study".  ssl_latstudy_verdict() returns
 * 1 when every condition passed (or none was given), else 0, and prints
 * the verdict line on @f when there were conditions.
 */
void ssl_latstudy_print(FILE *f, const struct ssl_latstudy *ls, const struct ssl_summary *sum, const struct ssl_hist *hist);
json_object *ssl_latstudy_json(const struct ssl_latstudy *ls, const struct ssl_summary *sum, const struct ssl_hist *hist);
int ssl_latstudy_verdict(FILE *f, const struct ssl_latstudy *ls, const struct ssl_summary *sum, const struct ssl_hist *hist);

#endif /* SSDLOAD_CLI_LATSTUDY_H */
