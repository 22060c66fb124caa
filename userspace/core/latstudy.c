// SPDX-License-Identifier: GPL-2.0
/*
 * Latency studies on the exact histograms (uapi/ssdload.h geometry: at
 * most 0.39% between a latency and its bucket's midpoint).
 *
 * A percentile lies in one bucket: the first whose cumulative count
 * reaches pct% of the I/Os (fio's rule).  The true sample percentile is
 * somewhere in that bucket, clipped to the exact minimum and maximum, so
 * a check against a bound is decided for certain unless the bound falls
 * inside the bucket; then it is judged by the midpoint (the value every
 * report shows) and said to be at the histogram's resolution.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/ssdload.h"
#include "core/hist.h"
#include "core/latstudy.h"
#include "core/util.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const double ssl_lat_table_default[] = {
	1, 10, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999,
};
const int ssl_lat_table_default_nr = ARRAY_SIZE(ssl_lat_table_default);

static const char *const dir_names[SSDLOAD_DIR_NR] = { "read", "write", "trim" };

int ssl_lat_parse_time(const char *s, uint64_t *ns)
{
	static const struct {
		const char *sfx;
		double mult;
	} units[] = {
		{ "ns", 1 }, { "nsec", 1 }, { "us", 1e3 }, { "usec", 1e3 },
		{ "ms", 1e6 }, { "msec", 1e6 }, { "s", 1e9 }, { "sec", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].sfx))
			continue;
		v *= units[i].mult;
		/* a bound beyond the histogram's range cannot be judged */
		if (v > (double)SSDLOAD_HIST_MAX_VALUE || v != floor(v))
			return -1;
		*ns = (uint64_t)v;
		return 0;
	}
	return -1;
}

static int parse_dir(const char **p)
{
	int d;

	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		size_t l = strlen(dir_names[d]);

		if (!strncmp(*p, dir_names[d], l) && (*p)[l] == ':') {
			*p += l + 1;
			return d;
		}
	}
	return -1;
}

/* one condition, @s NUL-terminated */
static int parse_cond(const char *s, struct ssl_lat_cond *c, char *why, size_t wlen)
{
	const char *p = s, *op;
	char num[64];
	size_t l;

	memset(c, 0, sizeof(*c));
	snprintf(c->text, sizeof(c->text), "%s", s);
	c->dir = parse_dir(&p);
	op = strchr(p, '<');
	if (!op) {
		snprintf(why, wlen, "'%s' has no '<' (write e.g. p99.9<500us or mean<=1ms)", s);
		return -1;
	}
	l = (size_t)(op - p);
	if (l == 4 && !strncmp(p, "mean", 4)) {
		c->stat = SSL_LAT_MEAN;
	} else if (l == 3 && !strncmp(p, "max", 3)) {
		c->stat = SSL_LAT_MAX;
	} else if (l >= 2 && l < sizeof(num) && (p[0] == 'p' || p[0] == 'P')) {
		char *end;

		memcpy(num, p + 1, l - 1);
		num[l - 1] = 0;
		errno = 0;
		c->pct = strtod(num, &end);
		if (!isdigit((unsigned char)num[0]) || *end || errno || !isfinite(c->pct) ||
		    c->pct <= 0 || c->pct > 100) {
			snprintf(why, wlen, "'%s': the percentile '%.*s' is not a number in (0, 100]",
				 s, (int)(l - 1), p + 1);
			return -1;
		}
		c->stat = SSL_LAT_PCT;
	} else {
		snprintf(why, wlen, "'%s': '%.*s' is not a statistic (pN, mean or max, after an"
			 " optional read:, write: or trim:)", s, (int)l, p);
		return -1;
	}
	p = op + 1;
	if (*p == '=') {
		c->le = 1;
		p++;
	}
	if (ssl_lat_parse_time(p, &c->bound_ns)) {
		snprintf(why, wlen, "'%s': '%s' is not a latency with a unit (ns, us, ms or s)",
			 s, p);
		return -1;
	}
	return 0;
}

/*
 * The next item of a comma-separated list at *@p into @one (@size bytes),
 * the @cnt-th of at most @max, each a @what; *@p moves past it and is
 * NULL after the last.  0, or -1 with @why.
 */
static int next_item(const char **p, char *one, size_t size, int cnt, int max,
		     const char *what, char *why, size_t wlen)
{
	const char *comma = strchr(*p, ',');
	size_t l = comma ? (size_t)(comma - *p) : strlen(*p);

	if (!l || l >= size) {
		if (l)
			snprintf(why, wlen, "a %s of over %zu characters", what, size - 1);
		else
			snprintf(why, wlen, "an empty %s", what);
		return -1;
	}
	if (cnt == max) {
		snprintf(why, wlen, "more than %d %ss", max, what);
		return -1;
	}
	memcpy(one, *p, l);
	one[l] = 0;
	*p = comma ? comma + 1 : NULL;
	return 0;
}

int ssl_latcheck_parse(const char *s, struct ssl_lat_cond *c, int max, int *n,
		       char *why, size_t wlen)
{
	const char *p = s;
	int cnt = 0;

	if (!*s) {
		snprintf(why, wlen, "no condition");
		return -1;
	}
	while (p) {
		char one[96];

		if (next_item(&p, one, sizeof(one), cnt, max, "condition", why, wlen) ||
		    parse_cond(one, &c[cnt], why, wlen))
			return -1;
		cnt++;
	}
	*n = cnt;
	return 0;
}

int ssl_latbelow_parse(const char *s, uint64_t *b, char (*text)[32], int max, int *n,
		       char *why, size_t wlen)
{
	const char *p = s;
	int cnt = 0;

	while (p) {
		char one[32];

		if (next_item(&p, one, sizeof(one), cnt, max, "bound", why, wlen))
			return -1;
		if (ssl_lat_parse_time(one, &b[cnt]) || !b[cnt]) {
			snprintf(why, wlen, "'%s' is not a latency above 0 with a unit"
				 " (ns, us, ms or s)", one);
			return -1;
		}
		snprintf(text[cnt], sizeof(text[cnt]), "%s", one);
		cnt++;
	}
	*n = cnt;
	return 0;
}

int ssl_latstudy_opt(struct ssl_latstudy *ls, const char *opt, const char *val)
{
	char why[256];

	if (!strcmp(opt, "latency-table")) {
		if (!val) {
			memcpy(ls->table, ssl_lat_table_default,
			       sizeof(double) * (size_t)ssl_lat_table_default_nr);
			ls->ntable = ssl_lat_table_default_nr;
			return 0;
		}
		if (ssl_parse_percentiles(val, ls->table, SSL_MAX_PERCENTILES, &ls->ntable)) {
			ssl_err("--latency-table=%s: must be percentiles in (0,100] separated"
				" by ':' (at most %d)", val, SSL_MAX_PERCENTILES);
			return -1;
		}
		return 0;
	}
	if (!strcmp(opt, "latency-below")) {
		if (!val || ssl_latbelow_parse(val, ls->below, ls->below_text, SSL_LAT_MAX_BELOW,
					       &ls->nbelow, why, sizeof(why))) {
			ssl_err("--latency-below=%s: %s", val ? val : "",
				val ? why : "needs a latency, e.g. 40us");
			return -1;
		}
		return 0;
	}
	if (!val || ssl_latcheck_parse(val, ls->cond, SSL_LAT_MAX_CONDS, &ls->ncond,
				       why, sizeof(why))) {
		ssl_err("--latency-check=%s: %s", val ? val : "",
			val ? why : "needs conditions, e.g. 'p99.95<500us,p80<40us'");
		return -1;
	}
	return 0;
}

int ssl_latstudy_wanted(const struct ssl_latstudy *ls)
{
	return ls->ntable || ls->nbelow || ls->ncond;
}

uint64_t ssl_pct_need(double pct)
{
	long double tail = 100.0L - (long double)pct;

	if (tail <= 0)
		return 1;		/* p100 is the maximum: one I/O shows it */
	/* pct is a decimal such as 99.9999: forgive its binary rounding */
	return (uint64_t)ceill(100.0L / tail - 1e-6L);
}

int ssl_pct_row(const uint64_t *counts, uint32_t nr, double pct, uint64_t min,
		uint64_t max, struct ssl_pct_row *row)
{
	uint64_t total, cum = 0, beyond = 0;
	long double thr;
	uint32_t i, at;

	memset(row, 0, sizeof(*row));
	row->pct = pct;
	if (nr > SSDLOAD_HIST_BUCKETS)
		nr = SSDLOAD_HIST_BUCKETS;
	total = ssl_hist_total(counts, nr);
	if (!total)
		return -1;
	thr = (long double)pct / 100.0L * (long double)total;
	at = nr;
	for (i = 0; i < nr; i++) {
		if (!counts[i])
			continue;
		cum += counts[i];
		at = i;
		if ((long double)cum >= thr)
			break;
	}
	for (i = at + 1; i < nr; i++)
		beyond += counts[i];
	row->value = ssl_hist_percentile(counts, nr, pct, min, max);
	row->lo = ssdload_hist_lower(at);
	row->hi = ssdload_hist_upper(at);
	if (min && row->lo < min)
		row->lo = min;
	if (max && row->hi > max)
		row->hi = max;
	row->beyond = beyond;
	row->need = ssl_pct_need(pct);
	row->backed = total >= row->need;
	return 0;
}

void ssl_hist_below(const uint64_t *counts, uint32_t nr, uint64_t bound, uint64_t min,
		    uint64_t max, uint64_t *sure, uint64_t *maybe)
{
	uint64_t total = 0, below = 0;
	uint32_t i, at;

	if (nr > SSDLOAD_HIST_BUCKETS)
		nr = SSDLOAD_HIST_BUCKETS;
	total = ssl_hist_total(counts, nr);
	*sure = *maybe = 0;
	if (!total || bound <= min)
		return;
	if (max && bound > max) {
		*sure = total;
		return;
	}
	at = bound > SSDLOAD_HIST_MAX_VALUE ? nr : ssdload_hist_index(bound);
	for (i = 0; i < nr && i < at; i++)
		below += counts[i];
	*sure = below;
	/* the bound's own bucket: [lower, bound) below it, [bound, upper] not */
	if (at < nr && ssdload_hist_lower(at) < bound)
		*maybe = counts[at];
}

void ssl_latcheck_eval(const struct ssl_lat_cond *c, const uint64_t *counts, uint32_t nr,
		       uint64_t ios, uint64_t min, uint64_t max, uint64_t sum,
		       struct ssl_lat_result *res)
{
	uint64_t b = c->bound_ns;
	int ok;

	memset(res, 0, sizeof(*res));
	res->ios = ios;
	if (!ios) {
		res->verdict = SSL_LAT_NO_IO;
		return;
	}
	if (c->stat == SSL_LAT_MEAN || c->stat == SSL_LAT_MAX) {
		if (!max) {		/* disable_lat: min = max = 0 */
			res->verdict = SSL_LAT_NO_LAT;
			return;
		}
		if (c->stat == SSL_LAT_MAX) {
			res->value = res->lo = res->hi = max;
			ok = c->le ? max <= b : max < b;
		} else {
			/* exact: sum / ios against b, without rounding */
			long double m = (long double)sum / (long double)ios;

			res->value = res->lo = res->hi = (uint64_t)llroundl(m);
			ok = c->le ? m <= (long double)b : m < (long double)b;
		}
		res->verdict = ok ? SSL_LAT_PASS : SSL_LAT_FAIL;
		return;
	}
	if (!counts) {
		res->verdict = SSL_LAT_NO_LAT;
		return;
	}
	{
		struct ssl_pct_row row;

		if (ssl_pct_row(counts, nr, c->pct, min, max, &row)) {
			res->verdict = SSL_LAT_NO_LAT;
			return;
		}
		res->value = row.value;
		res->lo = row.lo;
		res->hi = row.hi;
		res->need = row.need;
		if (!row.backed) {
			res->verdict = SSL_LAT_SHORT;
			return;
		}
		if (c->le ? row.hi <= b : row.hi < b) {
			ok = 1;
		} else if (c->le ? row.lo > b : row.lo >= b) {
			ok = 0;
		} else {
			res->edge = 1;
			ok = c->le ? row.value <= b : row.value < b;
		}
		res->verdict = ok ? SSL_LAT_PASS : SSL_LAT_FAIL;
	}
}

const char *ssl_lat_verdict_name(enum ssl_lat_verdict v)
{
	switch (v) {
	case SSL_LAT_PASS:
		return "pass";
	case SSL_LAT_FAIL:
		return "fail";
	case SSL_LAT_SHORT:
		return "too_few_ios";
	case SSL_LAT_NO_IO:
		return "no_io";
	default:
		return "no_latencies";
	}
}

/* ---- on a job's results --------------------------------------------------- */

/* a latency with 4 significant digits */
static void ns_str(char *buf, size_t len, uint64_t ns)
{
	double v = (double)ns;

	if (v >= 1e9)
		snprintf(buf, len, "%.4gs", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.4gms", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.4gus", v / 1e3);
	else
		snprintf(buf, len, "%" PRIu64 "ns", ns);
}

/* 1234567 -> "1,234,567" */
static void count_str(char *buf, size_t len, uint64_t n)
{
	char raw[32];
	size_t l, i, o = 0;

	snprintf(raw, sizeof(raw), "%" PRIu64, n);
	l = strlen(raw);
	for (i = 0; i < l && o + 2 < len; i++) {
		if (i && (l - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = 0;
}

static const uint64_t *dir_counts(const struct ssl_hist *hist, int d, uint32_t *nr)
{
	const struct ssl_hist *h = &hist[d];

	if (!h->present || !h->counts)
		return NULL;
	*nr = h->hdr.nr_buckets;
	return h->counts;
}

/* directions a condition or the table covers: named, or those with I/O */
static int dir_wanted(const struct ssl_summary *sum, int cdir, int d)
{
	if (cdir >= 0)
		return cdir == d;
	return sum->dir[d].ios > 0;
}

static void eval_dir(const struct ssl_lat_cond *c, const struct ssl_summary *sum, const struct ssl_hist *hist, int d,
		     struct ssl_lat_result *r)
{
	const struct ssl_dir_stats *ds = &sum->dir[d];
	uint32_t nr = 0;
	const uint64_t *counts = dir_counts(hist, d, &nr);

	ssl_latcheck_eval(c, counts, nr, ds->ios, ds->lat_min_ns, ds->lat_max_ns,
			  ds->have_sums ? ds->lat_sum_ns : ds->lat_mean_ns * ds->ios, r);
}

static const char *stat_name(const struct ssl_lat_cond *c, char *buf, size_t len)
{
	if (c->stat == SSL_LAT_MEAN)
		return "mean";
	if (c->stat == SSL_LAT_MAX)
		return "max";
	snprintf(buf, len, "p%g", c->pct);
	return buf;
}

/* "read p99.95 = 412.3us < 500us" and what decided it */
static void cond_line(char *buf, size_t len, const struct ssl_lat_cond *c, int d,
		      const struct ssl_lat_result *r)
{
	char buf_sn[32], v[32], b[32], n[32], need[32];
	const char *sn = stat_name(c, buf_sn, sizeof(buf_sn));

	ns_str(v, sizeof(v), r->value);
	ns_str(b, sizeof(b), c->bound_ns);
	switch (r->verdict) {
	case SSL_LAT_PASS:
	case SSL_LAT_FAIL:
		snprintf(buf, len, "%s %s = %s %s %s%s", dir_names[d], sn, v,
			 r->verdict == SSL_LAT_PASS ? (c->le ? "<=" : "<") :
			 (c->le ? "is not <=" : "is not <"), b,
			 r->edge ? " (at the histogram's resolution: the bound is inside"
			 " the percentile's bucket)" : "");
		break;
	case SSL_LAT_SHORT:
		count_str(n, sizeof(n), r->ios);
		count_str(need, sizeof(need), r->need);
		snprintf(buf, len, "%s %s: too few I/Os (%s; %s needs at least %s)",
			 dir_names[d], sn, n, sn, need);
		break;
	case SSL_LAT_NO_IO:
		snprintf(buf, len, "%s %s: no %s I/O in this run", dir_names[d], sn,
			 dir_names[d]);
		break;
	default:
		snprintf(buf, len, "%s %s: no latencies were recorded (disable_lat)",
			 dir_names[d], sn);
		break;
	}
}

void ssl_latstudy_print(FILE *f, const struct ssl_latstudy *ls, const struct ssl_summary *sum, const struct ssl_hist *hist)
{
	int d, i;

	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		const struct ssl_dir_stats *ds = &sum->dir[d];
		uint32_t nr = 0;
		const uint64_t *counts = dir_counts(hist, d, &nr);
		char n[32];

		if (!ds->ios || (!ls->ntable && !ls->nbelow))
			continue;
		count_str(n, sizeof(n), ds->ios);
		if (!counts) {
			fprintf(f, "  %s latency: no histogram (disable_lat)\n", dir_names[d]);
			continue;
		}
		if (ls->ntable) {
			fprintf(f, "  %s latency percentiles (clat, %s I/Os):\n", dir_names[d], n);
			fprintf(f, "    %10s %12s  %-25s %14s\n", "percentile", "latency",
				"lies in", "I/Os beyond");
		}
		for (i = 0; i < ls->ntable; i++) {
			struct ssl_pct_row row;
			char v[32], lo[32], hi[32], in[72], by[32], need[32];

			ssl_pct_row(counts, nr, ls->table[i], ds->lat_min_ns, ds->lat_max_ns,
				    &row);
			ns_str(v, sizeof(v), row.value);
			ns_str(lo, sizeof(lo), row.lo);
			ns_str(hi, sizeof(hi), row.hi);
			snprintf(in, sizeof(in), "[%s, %s]", lo, hi);
			count_str(by, sizeof(by), row.beyond);
			fprintf(f, "    %10.4f %12s  %-25s %14s", row.pct, v, in, by);
			if (!row.backed) {
				count_str(need, sizeof(need), row.need);
				fprintf(f, "  too few I/Os: needs %s", need);
			}
			fputc('\n', f);
		}
		for (i = 0; i < ls->nbelow; i++) {
			uint64_t sure, maybe;
			double t = (double)ds->ios;

			ssl_hist_below(counts, nr, ls->below[i], ds->lat_min_ns,
				       ds->lat_max_ns, &sure, &maybe);
			count_str(n, sizeof(n), sure);
			fprintf(f, "  %s latency below %s: %.4f%% (%s I/Os)", dir_names[d],
				ls->below_text[i], 100.0 * (double)sure / t, n);
			if (maybe)
				fprintf(f, ", at most %.4f%% (the bound's bucket)",
					100.0 * (double)(sure + maybe) / t);
			fputc('\n', f);
		}
	}
}

static json_object *jrow(const struct ssl_pct_row *row)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "percentile", json_object_new_double(row->pct));
	json_object_object_add(o, "value_ns", json_object_new_int64((int64_t)row->value));
	json_object_object_add(o, "lo_ns", json_object_new_int64((int64_t)row->lo));
	json_object_object_add(o, "hi_ns", json_object_new_int64((int64_t)row->hi));
	json_object_object_add(o, "ios_beyond", json_object_new_int64((int64_t)row->beyond));
	json_object_object_add(o, "needs_ios", json_object_new_int64((int64_t)row->need));
	json_object_object_add(o, "backed", json_object_new_boolean(row->backed));
	return o;
}

/* direction @ds's percentile table and below-bound counts, from @counts */
static json_object *json_dir_study(const struct ssl_latstudy *ls,
				   const struct ssl_dir_stats *ds, const uint64_t *counts,
				   uint32_t nr)
{
	json_object *o = json_object_new_object(), *a;
	int i;

	json_object_object_add(o, "ios", json_object_new_int64((int64_t)ds->ios));
	a = json_object_new_array();
	for (i = 0; i < ls->ntable; i++) {
		struct ssl_pct_row row;

		ssl_pct_row(counts, nr, ls->table[i], ds->lat_min_ns, ds->lat_max_ns,
			    &row);
		json_object_array_add(a, jrow(&row));
	}
	if (ls->ntable)
		json_object_object_add(o, "percentiles", a);
	else
		json_object_put(a);
	a = json_object_new_array();
	for (i = 0; i < ls->nbelow; i++) {
		json_object *b = json_object_new_object();
		uint64_t sure, maybe;

		ssl_hist_below(counts, nr, ls->below[i], ds->lat_min_ns,
			       ds->lat_max_ns, &sure, &maybe);
		json_object_object_add(b, "bound_ns",
				       json_object_new_int64((int64_t)ls->below[i]));
		json_object_object_add(b, "ios_below", json_object_new_int64((int64_t)sure));
		json_object_object_add(b, "ios_in_bound_bucket",
				       json_object_new_int64((int64_t)maybe));
		json_object_object_add(b, "percent", json_object_new_double(
			100.0 * (double)sure / (double)ds->ios));
		json_object_object_add(b, "percent_max", json_object_new_double(
			100.0 * (double)(sure + maybe) / (double)ds->ios));
		json_object_array_add(a, b);
	}
	if (ls->nbelow)
		json_object_object_add(o, "below", a);
	else
		json_object_put(a);
	return o;
}

/* condition @c on direction @d, evaluated: *@pass cleared unless it passed */
static json_object *json_cond_dir(const struct ssl_lat_cond *c, const struct ssl_summary *sum,
				  const struct ssl_hist *hist, int d, int *pass)
{
	struct ssl_lat_result r;
	json_object *o;
	char line[256];

	eval_dir(c, sum, hist, d, &r);
	cond_line(line, sizeof(line), c, d, &r);
	o = json_object_new_object();
	json_object_object_add(o, "condition", json_object_new_string(c->text));
	json_object_object_add(o, "direction", json_object_new_string(dir_names[d]));
	json_object_object_add(o, "bound_ns",
			       json_object_new_int64((int64_t)c->bound_ns));
	json_object_object_add(o, "value_ns",
			       json_object_new_int64((int64_t)r.value));
	json_object_object_add(o, "lo_ns", json_object_new_int64((int64_t)r.lo));
	json_object_object_add(o, "hi_ns", json_object_new_int64((int64_t)r.hi));
	json_object_object_add(o, "at_resolution",
			       json_object_new_boolean(r.edge));
	json_object_object_add(o, "result", json_object_new_string(
		ssl_lat_verdict_name(r.verdict)));
	json_object_object_add(o, "text", json_object_new_string(line));
	if (r.verdict != SSL_LAT_PASS)
		*pass = 0;
	return o;
}

/* "check": each --latency-check condition per direction, and the verdict */
static json_object *json_check(const struct ssl_latstudy *ls, const struct ssl_summary *sum,
			       const struct ssl_hist *hist)
{
	json_object *chk = json_object_new_object(), *a = json_object_new_array();
	int all = 1, i, d;

	for (i = 0; i < ls->ncond; i++) {
		const struct ssl_lat_cond *c = &ls->cond[i];
		int any = 0;

		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			if (!dir_wanted(sum, c->dir, d))
				continue;
			any = 1;
			json_object_array_add(a, json_cond_dir(c, sum, hist, d, &all));
		}
		if (!any) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "condition", json_object_new_string(c->text));
			json_object_object_add(o, "result", json_object_new_string("no_io"));
			json_object_array_add(a, o);
			all = 0;
		}
	}
	json_object_object_add(chk, "conditions", a);
	json_object_object_add(chk, "verdict", json_object_new_string(all ? "pass" : "fail"));
	return chk;
}

json_object *ssl_latstudy_json(const struct ssl_latstudy *ls, const struct ssl_summary *sum, const struct ssl_hist *hist)
{
	json_object *top = json_object_new_object();
	int d;

	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		const struct ssl_dir_stats *ds = &sum->dir[d];
		uint32_t nr = 0;
		const uint64_t *counts = dir_counts(hist, d, &nr);

		if (!ds->ios || !counts || (!ls->ntable && !ls->nbelow))
			continue;
		json_object_object_add(top, dir_names[d], json_dir_study(ls, ds, counts, nr));
	}
	if (ls->ncond)
		json_object_object_add(top, "check", json_check(ls, sum, hist));
	return top;
}

int ssl_latstudy_verdict(FILE *f, const struct ssl_latstudy *ls, const struct ssl_summary *sum, const struct ssl_hist *hist)
{
	int all = 1, i, d;

	if (!ls->ncond)
		return 1;
	for (i = 0; i < ls->ncond; i++) {
		const struct ssl_lat_cond *c = &ls->cond[i];
		int any = 0;

		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			struct ssl_lat_result r;
			char line[256];

			if (!dir_wanted(sum, c->dir, d))
				continue;
			any = 1;
			eval_dir(c, sum, hist, d, &r);
			cond_line(line, sizeof(line), c, d, &r);
			fprintf(f, "  latency-check %-4s %s\n",
				r.verdict == SSL_LAT_PASS ? "ok" : "FAIL", line);
			if (r.verdict != SSL_LAT_PASS)
				all = 0;
		}
		if (!any) {
			fprintf(f, "  latency-check FAIL %s: the run did no I/O\n", c->text);
			all = 0;
		}
	}
	fprintf(f, "latency-check: %s\n", all ? "PASS" : "FAIL");
	return all;
}
