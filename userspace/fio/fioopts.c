// SPDX-License-Identifier: GPL-2.0
/* fio option syntaxes -> configfs attribute values (see fioopts.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <fcntl.h>

#include "fio/fioopts.h"
#include "core/options.h"
#include "core/util.h"

#define SECTOR		512U
#define MAX_BS		SSDLOAD_MAX_BS	/* the module's largest block */
#define TEXT_MAX	4096

/* ---- small helpers ---------------------------------------------------- */

/* output text under construction */
struct sbuf {
	char *buf;
	size_t len, pos;
	int over;
};

static void sb_init(struct sbuf *b, char *buf, size_t len)
{
	b->buf = buf;
	b->len = len;
	b->pos = 0;
	b->over = 0;
	if (len)
		buf[0] = '\0';
}

static void sb_add(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (b->over)
		return;
	va_start(ap, fmt);
	r = vsnprintf(b->buf + b->pos, b->len - b->pos, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= b->len - b->pos) {
		b->over = 1;
		return;
	}
	b->pos += (size_t)r;
}

/* a copy of s[0..n) with one trailing newline of the whole value dropped */
static int copy_part(const char *s, size_t n, char *buf, size_t len)
{
	if (n >= len)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

static size_t text_len(const char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		n--;
	return n;
}

/*
 * A decimal "12", "12.5", ".5" in units of 10^-@digits: at most @digits
 * decimals.  No sign, no exponent.
 */
static int parse_fixed(const char *s, size_t n, int digits, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, unit = 1;
	int d, any = 0;
	size_t i = 0;

	for (d = 0; d < digits; d++)
		unit *= 10;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		if (whole > (UINT64_MAX / unit - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(s[i] - '0');
		any = 1;
	}
	if (i < n && s[i] == '.') {
		uint64_t u = unit;

		for (i++; i < n && isdigit((unsigned char)s[i]); i++) {
			if (u == 1)
				return -1;	/* too many decimals */
			u /= 10;
			frac += (uint64_t)(s[i] - '0') * u;
			any = 1;
		}
	}
	if (i != n || !any)
		return -1;
	*out = whole * unit + frac;
	return 0;
}

/* the shortest decimal text of @v units of 10^-@digits */
static void fmt_fixed(char *buf, size_t len, uint64_t v, int digits)
{
	uint64_t unit = 1;
	char frac[24];
	int d, n;

	if (digits < 0 || digits > 18)	/* 10^18 is the largest unit in 64 bits */
		digits = 18;
	for (d = 0; d < digits; d++)
		unit *= 10;
	if (!(v % unit)) {
		snprintf(buf, len, "%" PRIu64, v / unit);
		return;
	}
	snprintf(frac, sizeof(frac), "%0*" PRIu64, digits, v % unit);
	for (n = (int)strlen(frac); n > 0 && frac[n - 1] == '0'; n--)
		frac[n - 1] = '\0';
	snprintf(buf, len, "%" PRIu64 ".%s", v / unit, frac);
}

/* a SIZE of s[0..n) */
static int part_size(const char *s, size_t n, uint64_t *v)
{
	char tmp[64];

	if (!n || copy_part(s, n, tmp, sizeof(tmp)) || strchr(tmp, '\n'))
		return -1;
	return ssl_parse_size(tmp, v);
}

/*
 * fio's per-direction values (str_split_parse): "a" is for reads, writes
 * and trims; "a,b": reads a, writes and trims b; "a,b,c".  An empty part
 * keeps that direction's default.
 */
struct dirparts {
	const char *p[3];
	size_t n[3];
};

static int split_dirs(const char *s, size_t n, struct dirparts *dp)
{
	const char *c1 = memchr(s, ',', n), *c2;

	if (!c1) {
		dp->p[0] = dp->p[1] = dp->p[2] = s;
		dp->n[0] = dp->n[1] = dp->n[2] = n;
		return 0;
	}
	dp->p[0] = s;
	dp->n[0] = (size_t)(c1 - s);
	c2 = memchr(c1 + 1, ',', n - dp->n[0] - 1);
	dp->p[1] = c1 + 1;
	if (!c2) {
		dp->n[1] = n - dp->n[0] - 1;
		dp->p[2] = dp->p[1];
		dp->n[2] = dp->n[1];
		return 0;
	}
	dp->n[1] = (size_t)(c2 - dp->p[1]);
	dp->p[2] = c2 + 1;
	dp->n[2] = n - (size_t)(dp->p[2] - s);
	if (memchr(dp->p[2], ',', dp->n[2]))
		return -1;
	return 0;
}

static const char *const dir_label[3] = { "read", "write", "trim" };

/* "x,y,z" -> "x" when the three are equal */
static void join_dirs(struct sbuf *o, char d[3][TEXT_MAX])
{
	if (!strcmp(d[0], d[1]) && !strcmp(d[1], d[2]))
		sb_add(o, "%s", d[0]);
	else
		sb_add(o, "%s,%s,%s", d[0], d[1], d[2]);
}

static int block_size_ok(uint64_t v, const char *what, char *why, size_t wlen)
{
	if (!v || v % SECTOR)
		return ssl_fail(why, wlen, "%s %" PRIu64 " is not a multiple of 512 bytes",
			    what, v);
	if (v > MAX_BS)
		return ssl_fail(why, wlen, "%s %" PRIu64 " is above 16MiB", what, v);
	return 0;
}

/* ---- bssplit ----------------------------------------------------------- */

static int bssplit_dir(const char *s, size_t n, int dir, char *out, size_t len,
		       char *why, size_t wlen)
{
	unsigned int nr = 0, sum = 0, blank = 0;
	struct sbuf o;
	size_t i = 0;

	sb_init(&o, out, len);
	while (i < n) {
		const char *e = s + i, *colon = memchr(e, ':', n - i), *slash;
		size_t elen = colon ? (size_t)(colon - e) : n - i;
		uint64_t bs, pct = 0;

		if (!elen)
			return ssl_fail(why, wlen, "empty entry in the %s list", dir_label[dir]);
		if (++nr > SSL_BSSPLIT_MAX)
			return ssl_fail(why, wlen, "more than %d block sizes for %s",
				    SSL_BSSPLIT_MAX, dir_label[dir]);
		slash = memchr(e, '/', elen);
		if (part_size(e, slash ? (size_t)(slash - e) : elen, &bs))
			return ssl_fail(why, wlen, "'%.*s' is not a block size/percentage",
				    (int)elen, e);
		if (block_size_ok(bs, "block size", why, wlen))
			return -1;
		if (slash && slash + 1 < e + elen) {
			char tmp[16];
			size_t pl = (size_t)(e + elen - slash - 1);

			if (copy_part(slash + 1, pl, tmp, sizeof(tmp)) ||
			    ssl_parse_u64(tmp, &pct) || strchr(tmp, '\n') || pct > 100)
				return ssl_fail(why, wlen,
					    "'%.*s': the percentage must be an integer 0..100",
					    (int)elen, e);
		}
		if (pct)		/* as fio: 0 or none = a share of the rest */
			sum += (unsigned int)pct;
		else
			blank++;
		sb_add(&o, "%s%" PRIu64 "/", nr > 1 ? ":" : "", bs);
		if (pct)
			sb_add(&o, "%" PRIu64, pct);
		i += elen + (colon ? 1 : 0);
		if (colon && i == n)
			return ssl_fail(why, wlen, "empty entry in the %s list", dir_label[dir]);
	}
	if (sum > 100)
		return ssl_fail(why, wlen, "the %s percentages add up to %u, more than 100",
			    dir_label[dir], sum);
	if (!blank && nr && sum != 100)
		return ssl_fail(why, wlen, "the %s percentages add up to %u, not 100 "
			    "(leave a percentage empty to give it the rest)",
			    dir_label[dir], sum);
	return o.over ? ssl_fail(why, wlen, "too long") : 0;
}

int ssl_conv_bssplit(const char *in, char *out, size_t len, char *why, size_t wlen)
{
	static char d[3][TEXT_MAX];
	struct dirparts dp;
	size_t n = text_len(in);
	struct sbuf o;
	int i;

	if (!n)
		return ssl_fail(why, wlen, "empty");
	if (split_dirs(in, n, &dp))
		return ssl_fail(why, wlen, "at most three lists (read,write,trim)");
	if (!dp.n[0] && !dp.n[1] && !dp.n[2])
		return ssl_fail(why, wlen, "no block size");
	for (i = 0; i < 3; i++)
		if (bssplit_dir(dp.p[i], dp.n[i], i, d[i], sizeof(d[i]), why, wlen))
			return -1;
	sb_init(&o, out, len);
	join_dirs(&o, d);
	return o.over ? ssl_fail(why, wlen, "too long") : 0;
}

/* ---- bsrange, bs=a,b,c, blockalign ------------------------------------ */

int ssl_conv_bsrange(const char *in, int from_bs, uint64_t def_bs, char *out,
		     size_t len, char *why, size_t wlen)
{
	static char d[3][TEXT_MAX];
	struct dirparts dp;
	size_t n = text_len(in);
	struct sbuf o;
	int i;

	if (!n)
		return ssl_fail(why, wlen, "empty");
	if (split_dirs(in, n, &dp))
		return ssl_fail(why, wlen, "at most three values (read,write,trim)");
	for (i = 0; i < 3; i++) {
		const char *s = dp.p[i], *sep;
		uint64_t lo = def_bs, hi = def_bs;
		size_t k = dp.n[i];

		if (k) {
			sep = from_bs ? NULL : memchr(s, '-', k);
			if (!from_bs && !sep)
				sep = memchr(s, ':', k);
			if (sep ? part_size(s, (size_t)(sep - s), &lo) ||
				  part_size(sep + 1, k - (size_t)(sep - s) - 1, &hi) :
				  part_size(s, k, &lo))
				return ssl_fail(why, wlen, from_bs ?
					    "'%.*s' is not a size (bytes, or with k/m/g suffix)" :
					    "'%.*s' is not a range min-max of sizes",
					    (int)k, s);
			if (!sep)
				hi = lo;
		}
		if (block_size_ok(lo, "block size", why, wlen) ||
		    block_size_ok(hi, "block size", why, wlen))
			return -1;
		if (lo > hi)
			return ssl_fail(why, wlen, "%s range %" PRIu64 "-%" PRIu64
				    ": min is above max", dir_label[i], lo, hi);
		snprintf(d[i], sizeof(d[i]), "%" PRIu64 "-%" PRIu64, lo, hi);
	}
	sb_init(&o, out, len);
	sb_add(&o, "%s,%s,%s", d[0], d[1], d[2]);
	return o.over ? ssl_fail(why, wlen, "too long") : 0;
}

int ssl_conv_blockalign(const char *in, uint64_t *out, char *why, size_t wlen)
{
	struct dirparts dp;
	size_t n = text_len(in);
	int i, have = 0;
	uint64_t v = 0, x;

	if (!n || split_dirs(in, n, &dp))
		return ssl_fail(why, wlen, "not a size (bytes, or with k/m/g suffix)");
	for (i = 0; i < 3; i++) {
		if (!dp.n[i])
			continue;
		if (part_size(dp.p[i], dp.n[i], &x))
			return ssl_fail(why, wlen, "'%.*s' is not a size (bytes, or with "
				    "k/m/g suffix)", (int)dp.n[i], dp.p[i]);
		if (have && x != v)
			return ssl_fail(why, wlen, "one alignment for all directions only");
		v = x;
		have = 1;
	}
	if (!have)
		return ssl_fail(why, wlen, "no value");
	if (v % SECTOR)
		return ssl_fail(why, wlen, "%" PRIu64 " is not a multiple of 512 bytes", v);
	if (v > MAX_BS)
		return ssl_fail(why, wlen, "%" PRIu64 " is above 16MiB", v);
	*out = v;
	return 0;
}

/* ---- random_distribution ---------------------------------------------- */

#define MICRO		1000000ULL	/* distribution values: 6 decimals */

/*
 * One direction's zone list, "A/S:A/S:...".  As fio's split_parse_ddir()
 * and zone_split_ddir(), a zone may leave its size out ("20/", "20") or
 * give 0: those zones share equally what the given sizes leave of 100%.
 * zoned_abs needs every size.
 */
static int zoned_dir(const char *s, size_t n, int dir, int absolute, char *out,
		     size_t len, char *why, size_t wlen)
{
	uint64_t acc[SSL_ZONES_MAX], size[SSL_ZONES_MAX], asum = 0, ssum = 0;
	unsigned int nr = 0, missing = 0, z;
	struct sbuf o;
	size_t i = 0;

	if (!n)
		return ssl_fail(why, wlen, "no zones for %s", dir_label[dir]);
	while (i < n) {
		const char *e = s + i, *colon = memchr(e, ':', n - i), *slash;
		size_t elen = colon ? (size_t)(colon - e) : n - i, slen;

		if (nr == SSL_ZONES_MAX)
			return ssl_fail(why, wlen, "more than %d zones for %s", SSL_ZONES_MAX,
				    dir_label[dir]);
		slash = memchr(e, '/', elen);
		if (!slash && !absolute)
			slash = e + elen;	/* "A": no size */
		if (!slash || parse_fixed(e, (size_t)(slash - e), 6, &acc[nr]) ||
		    acc[nr] > 100 * MICRO)
			return ssl_fail(why, wlen, "zone '%.*s': want access%%/%s, the access "
				    "a percentage 0..100", (int)elen, e,
				    absolute ? "size" : "size%");
		slen = slash < e + elen ? (size_t)(e + elen - slash - 1) : 0;
		if (absolute) {
			if (part_size(slash + 1, slen, &size[nr]) || !size[nr])
				return ssl_fail(why, wlen, "zone '%.*s': the size is not a "
					    "size (bytes, or with k/m/g suffix)", (int)elen, e);
		} else if (!slen) {
			size[nr] = UINT64_MAX;	/* fio: a share of the rest */
			missing++;
		} else {
			if (parse_fixed(slash + 1, slen, 6, &size[nr]) ||
			    size[nr] > 100 * MICRO)
				return ssl_fail(why, wlen, "zone '%.*s': the size must be a "
					    "percentage 0..100", (int)elen, e);
			if (!size[nr]) {
				size[nr] = UINT64_MAX;
				missing++;
			}
			ssum += size[nr] == UINT64_MAX ? 0 : size[nr];
		}
		asum += acc[nr++];
		i += elen + (colon ? 1 : 0);
		if (colon && i == n)
			return ssl_fail(why, wlen, "empty zone in the %s list", dir_label[dir]);
	}
	if (asum != 100 * MICRO) {
		char t[32];

		fmt_fixed(t, sizeof(t), asum, 6);
		return ssl_fail(why, wlen, "the %s access percentages add up to %s, not 100",
			    dir_label[dir], t);
	}
	if (ssum > 100 * MICRO)
		return ssl_fail(why, wlen, "the %s zone sizes add up to more than 100%%",
			    dir_label[dir]);
	if (missing && ssum == 100 * MICRO)
		return ssl_fail(why, wlen, "the %s zone sizes given add up to 100%%, which "
			    "leaves nothing for a zone without a size", dir_label[dir]);
	sb_init(&o, out, len);
	for (z = 0; z < nr; z++) {
		char abuf[32], sbuf[32];

		if (size[z] == UINT64_MAX)
			size[z] = (100 * MICRO - ssum) / missing;
		fmt_fixed(abuf, sizeof(abuf), acc[z], 6);
		if (absolute)
			snprintf(sbuf, sizeof(sbuf), "%" PRIu64, size[z]);
		else
			fmt_fixed(sbuf, sizeof(sbuf), size[z], 6);
		sb_add(&o, "%s%s/%s", z ? ":" : "", abuf, sbuf);
	}
	return o.over ? ssl_fail(why, wlen, "too long") : 0;
}

int ssl_conv_distribution(const char *in, char *out, size_t len, char *why, size_t wlen)
{
	static char d[3][TEXT_MAX];
	size_t n = text_len(in), tl, pl = 0;
	const char *colon = memchr(in, ':', n), *p = NULL;
	char type[16], num[32];
	struct sbuf o;
	uint64_t v;
	int i;

	tl = colon ? (size_t)(colon - in) : n;
	if (colon) {
		p = colon + 1;
		pl = n - tl - 1;
	}
	if (copy_part(in, tl, type, sizeof(type)))
		return ssl_fail(why, wlen, "unknown distribution (random, zipf, pareto, "
			    "normal, zoned or zoned_abs)");
	sb_init(&o, out, len);
	if (!strcmp(type, "random")) {
		if (colon)
			return ssl_fail(why, wlen, "random takes no value");
		sb_add(&o, "random");
		return 0;
	}
	if (!strcmp(type, "zipf") || !strcmp(type, "pareto") || !strcmp(type, "normal")) {
		if (p && memchr(p, ':', pl))
			return ssl_fail(why, wlen, "a center (second value) is not supported: "
				    "see --random_scatter");
		if (!p) {
			if (!strcmp(type, "normal"))
				return ssl_fail(why, wlen,
						"normal needs a deviation, e.g. normal:10");
			/* fio's defaults */
			v = !strcmp(type, "zipf") ? 1100000 : 200000;
		} else if (parse_fixed(p, pl, 6, &v)) {
			return ssl_fail(why, wlen, "'%.*s' is not a decimal number (at most 6 "
				    "decimals)", (int)pl, p);
		}
		if (!strcmp(type, "zipf") && (!v || v == MICRO))
			return ssl_fail(why, wlen, "the zipf theta must be above 0 and not 1");
		if (!strcmp(type, "pareto") && (!v || v >= MICRO))
			return ssl_fail(why, wlen, "the pareto power must be in (0, 1)");
		if (!strcmp(type, "normal") && (!v || v >= 100 * MICRO))
			return ssl_fail(why, wlen, "the normal deviation must be in (0, 100) "
				    "percent of the span");
		fmt_fixed(num, sizeof(num), v, 6);
		sb_add(&o, "%s:%s", type, num);
		return o.over ? ssl_fail(why, wlen, "too long") : 0;
	}
	if (!strcmp(type, "zoned") || !strcmp(type, "zoned_abs")) {
		int absolute = type[5] == '_';
		struct dirparts dp;

		if (!p || !pl)
			return ssl_fail(why, wlen, "%s needs zones, e.g. %s", type, absolute ?
				    "zoned_abs:60/20g:40/100g" : "zoned:60/10:30/20:10/70");
		if (split_dirs(p, pl, &dp))
			return ssl_fail(why, wlen, "at most three lists (read,write,trim)");
		for (i = 0; i < 3; i++)
			if (zoned_dir(dp.p[i], dp.n[i], i, absolute, d[i], sizeof(d[i]),
				      why, wlen))
				return -1;
		sb_add(&o, "%s:", type);
		join_dirs(&o, d);
		return o.over ? ssl_fail(why, wlen, "too long") : 0;
	}
	if (!strcmp(type, "sequence"))
		return ssl_fail(why, wlen, "the sequence distribution is not supported");
	return ssl_fail(why, wlen, "unknown distribution (random, zipf, pareto, normal, "
		    "zoned or zoned_abs)");
}

/* ---- offset / size ---------------------------------------------------- */

int ssl_conv_span(const char *in, char *out, size_t len, char *why, size_t wlen)
{
	size_t n = text_len(in);
	char num[32];
	uint64_t v;

	if (n && in[n - 1] == '%') {
		if (parse_fixed(in, n - 1, 4, &v))
			return ssl_fail(why, wlen, "not a percentage (at most 4 decimals, "
				    "e.g. 12.5%%)");
		if (!v || v > 100 * 10000)
			return ssl_fail(why, wlen,
					"the percentage must be above 0 and at most 100");
		fmt_fixed(num, sizeof(num), v, 4);
		snprintf(out, len, "%s%%", num);
		return 0;
	}
	if (ssl_parse_size(in, &v))
		return ssl_fail(why, wlen, "not a size (bytes, or with k/m/g/t suffix, "
			    "or a percentage P%%)");
	snprintf(out, len, "%" PRIu64, v);
	return 0;
}

/* ---- rate_iops, rate --------------------------------------------------- */

/* "read " in a per-direction list, "" for one value for all */
static const char *dir_word(const char *in, size_t n, int dir)
{
	static const char *const words[3] = { "read ", "write ", "trim " };

	return memchr(in, ',', n) ? words[dir] : "";
}

int ssl_conv_rate(const char *in, int bw, char *out, size_t len, char *why, size_t wlen)
{
	const char *unit = bw ? "bytes per second" : "I/Os per second";
	uint64_t max = bw ? SSL_MAX_RATE_BPS : SSL_MAX_RATE_IOPS;
	static char d[3][TEXT_MAX];
	struct dirparts dp;
	size_t n = text_len(in);
	char tmp[64];
	struct sbuf o;
	uint64_t v;
	int i, any = 0;

	if (!n)
		return ssl_fail(why, wlen, "empty (leave the option out for no cap)");
	if (split_dirs(in, n, &dp))
		return ssl_fail(why, wlen, "at most three values (read,write,trim)");
	for (i = 0; i < 3; i++) {
		d[i][0] = '\0';
		if (!dp.n[i])
			continue;
		if (copy_part(dp.p[i], dp.n[i], tmp, sizeof(tmp)) ||
		    (bw ? ssl_parse_size(tmp, &v) : ssl_parse_u64(tmp, &v)))
			return ssl_fail(why, wlen, bw ? "'%.*s' is not a bandwidth (bytes per "
				    "second, or with k/m/g suffix, base 1024)" :
				    "'%.*s' is not a whole number of I/Os per second",
				    (int)dp.n[i], dp.p[i]);
		if (!v)
			return ssl_fail(why, wlen, "a %srate of 0 would never issue (leave "
				    "the field empty for no cap)", dir_word(in, n, i));
		if (v > max)
			return ssl_fail(why, wlen, "the %srate %" PRIu64 " is above the "
				    "module's largest, %" PRIu64 " %s", dir_word(in, n, i),
				    v, max, unit);
		snprintf(d[i], sizeof(d[i]), "%" PRIu64, v);
		any = 1;
	}
	if (!any)
		return ssl_fail(why, wlen, "no rate in any direction");
	sb_init(&o, out, len);
	join_dirs(&o, d);
	return o.over ? ssl_fail(why, wlen, "too long") : 0;
}

/* ---- buffer_pattern (fio's lib/pattern.c) ----------------------------- */

/* fio's parse_number(): 0x hex of any length, or a decimal int (LE bytes) */
static const char *pat_number(const char *beg, const char *end, uint8_t *out,
			      unsigned int *filled, unsigned int room, int *full)
{
	const char *p = beg;
	unsigned int i = 0;

	if (end - beg > 2 && beg[0] == '0' && (beg[1] == 'x' || beg[1] == 'X') &&
	    isxdigit((unsigned char)beg[2])) {
		const char *h = beg + 2, *he = h;
		size_t nd;

		while (he < end && isxdigit((unsigned char)*he))
			he++;
		/* "0xff0x14": the 0 before x starts the next number */
		if (he < end && (*he == 'x' || *he == 'X') && he - 1 > h && he[-1] == '0')
			he--;
		nd = (size_t)(he - h);
		if ((nd + 1) / 2 > room) {
			*full = 1;
			return NULL;
		}
		while (nd) {
			unsigned int take = nd & 1 ? 1 : 2, k, b = 0;

			for (k = 0; k < take; k++) {
				int c = tolower((unsigned char)h[k]);

				b = b * 16 + (unsigned int)(isdigit(c) ? c - '0' : c - 'a' + 10);
			}
			out[i++] = (uint8_t)b;
			h += take;
			nd -= take;
		}
		*filled = i;
		return he;
	} else {
		long long lv = 0;
		const char *stop = end, *q;
		unsigned int val;
		int neg = 0, any = 0;

		/* a decimal ends where a 0x starts (fio's look-ahead) */
		for (q = beg; q + 1 < end; q++)
			if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
				stop = q;
				break;
			}
		if (p < stop && (*p == '-' || *p == '+'))
			neg = *p++ == '-';
		for (; p < stop && isdigit((unsigned char)*p); p++) {
			lv = lv * 10 + (*p - '0');
			any = 1;
			if (lv > 2147483648LL)
				return NULL;
		}
		if (!any || (!neg && lv > 2147483647LL))
			return NULL;
		if (neg)
			lv = -lv;
		val = (unsigned int)(int)lv;
		if (!val) {
			if (!room) {
				*full = 1;
				return NULL;
			}
			out[i++] = 0;
		}
		for (; val; val >>= 8) {
			if (i == room) {
				*full = 1;
				return NULL;
			}
			out[i++] = (uint8_t)(val & 0xff);
		}
		*filled = i;
		return p;
	}
}

int ssl_conv_pattern(const char *in, char *out, size_t len, char *why, size_t wlen)
{
	uint8_t pat[SSL_PATTERN_MAX];
	size_t n = text_len(in);
	const char *p = in, *end = in + n;
	unsigned int total = 0, k;
	struct sbuf o;

	if (!n)
		return ssl_fail(why, wlen, "empty");
	while (p < end) {
		unsigned int filled = 0, room = SSL_PATTERN_MAX - total;
		const char *q;

		if (*p == '|' && p > in) {	/* optional separator */
			if (++p == end || *p == '|')
				return ssl_fail(why, wlen, "empty element after '|'");
		}
		if (*p == '"') {
			q = memchr(p + 1, '"', (size_t)(end - p - 1));
			if (!q)
				return ssl_fail(why, wlen, "unterminated \"string\"");
			filled = (unsigned int)(q - p - 1);
			if (!filled)
				return ssl_fail(why, wlen, "empty \"\" string");
			if (filled > room)
				goto too_long;
			memcpy(pat + total, p + 1, filled);
			p = q + 1;
		} else if (*p == '\'') {
			char file[4096];
			ssize_t r;
			int fd;

			q = memchr(p + 1, '\'', (size_t)(end - p - 1));
			if (!q)
				return ssl_fail(why, wlen, "unterminated 'file name'");
			if (copy_part(p + 1, (size_t)(q - p - 1), file, sizeof(file)) || !file[0])
				return ssl_fail(why, wlen, "bad 'file name'");
			/* a regular file: a FIFO or a device could block or never end */
			fd = ssl_open_regular(file, SSL_INPUT_MAX_BYTES);
			if (fd < 0)
				return ssl_fail(why, wlen, "'%s': %s (fio reads a pattern from "
					    "a file named in single quotes)", file,
					    ssl_strerror(fd));
			do {	/* as fio: what fits, the rest is not read */
				r = read(fd, pat + total + filled, room - filled);
				if (r > 0)
					filled += (unsigned int)r;
			} while ((r > 0 && filled < room) || (r < 0 && errno == EINTR));
			close(fd);
			if (r < 0)
				return ssl_fail(why, wlen, "'%s': %s", file, strerror(errno));
			if (!filled)
				return ssl_fail(why, wlen, "'%s' is empty", file);
			p = q + 1;
		} else if (*p == '%') {
			return ssl_fail(why, wlen, "formats such as %%o are not supported");
		} else {
			int full = 0;

			q = pat_number(p, end, pat + total, &filled, room, &full);
			if (!q) {
				if (full)
					goto too_long;
				return ssl_fail(why, wlen, "'%.*s' is not 0x hex, a decimal int, "
					    "a \"string\" or a 'file'", (int)(end - p), p);
			}
			p = q;
		}
		total += filled;
		if (total > SSL_PATTERN_MAX)
			goto too_long;
	}
	sb_init(&o, out, len);
	sb_add(&o, "0x");
	for (k = 0; k < total; k++)
		sb_add(&o, "%02x", pat[k]);
	return o.over ? ssl_fail(why, wlen, "too long") : 0;

too_long:
	return ssl_fail(why, wlen, "longer than %d bytes", SSL_PATTERN_MAX);
}

/* ---- file_service_type ------------------------------------------------ */

int ssl_conv_fst(const char *in, char *out, size_t len, char *why, size_t wlen)
{
	static const char *const names[] = { "roundrobin", "random", "sequential" };
	size_t n = text_len(in), tl;
	const char *colon = memchr(in, ':', n);
	char type[16], num[24];
	uint64_t v = 0;
	unsigned int i;

	tl = colon ? (size_t)(colon - in) : n;
	if (copy_part(in, tl, type, sizeof(type)))
		goto bad;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(type, names[i]))
			break;
	if (i == sizeof(names) / sizeof(names[0])) {
		if (!strcmp(type, "zipf") || !strcmp(type, "pareto") ||
		    !strcmp(type, "normal") || !strcmp(type, "gauss"))
			return ssl_fail(why, wlen, "the %s file service type is not supported "
				    "(roundrobin, random or sequential)", type);
		goto bad;
	}
	if (colon) {
		if (copy_part(colon + 1, n - tl - 1, num, sizeof(num)) ||
		    ssl_parse_u64(num, &v) || !v || v > UINT32_MAX)
			return ssl_fail(why, wlen, "the number of I/Os before switching must "
				    "be an integer 1..%u", UINT32_MAX);
		snprintf(out, len, "%s:%" PRIu64, names[i], v);
	} else {
		snprintf(out, len, "%s", names[i]);
	}
	return 0;
bad:
	return ssl_fail(why, wlen, "must be roundrobin, random or sequential, optionally "
		    "with :N");
}

/* ---- filename lists --------------------------------------------------- */

int ssl_split_filenames(const char *in, char **devs, int max, char *why, size_t wlen)
{
	size_t n = strlen(in), i = 0;
	int nr = 0, k, j;

	while (i <= n) {
		char *d = malloc(n + 1);
		size_t o = 0;

		if (!d)
			goto oom;
		while (i < n && in[i] != ':') {
			if (in[i] == '\\' && i + 1 < n && in[i + 1] == ':')
				i++;
			d[o++] = in[i++];
		}
		d[o] = '\0';
		i++;		/* the colon, or past the end */
		if (!o) {
			free(d);
			for (k = 0; k < nr; k++)
				free(devs[k]);
			return ssl_fail(why, wlen, "an empty device name in the list");
		}
		if (nr == max) {
			free(d);
			for (k = 0; k < nr; k++)
				free(devs[k]);
			return ssl_fail(why, wlen, "more than %d devices", max);
		}
		devs[nr++] = d;
	}
	for (k = 0; k < nr; k++)
		for (j = 0; j < k; j++)
			if (!strcmp(devs[k], devs[j])) {
				ssl_fail(why, wlen, "%s is listed twice", devs[k]);
				for (k = 0; k < nr; k++)
					free(devs[k]);
				return -1;
			}
	return nr;
oom:
	for (k = 0; k < nr; k++)
		free(devs[k]);
	return ssl_fail(why, wlen, "out of memory");
}

/* @e is one of the words of @list (separated by single spaces) */
static int word_in(const char *list, const char *e)
{
	size_t n = strlen(e);
	const char *p;

	for (p = list; p; p = strchr(p, ' '), p = p ? p + 1 : NULL)
		if (!strncmp(p, e, n) && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

#define SSL_BLOCK_ENGINES "sync psync vsync pvsync pvsync2 libaio io_uring posixaio mmap"

const char *ssl_fio_engine_why(const char *e)
{
	static const struct {
		const char *names;
		const char *why;
	} other[] = {
		{ "net netsplice rdma librpma_apm librpma_gpspm librpma_apm_client "
		  "librpma_apm_server librpma_gpspm_client librpma_gpspm_server http "
		  "nbd nfs rbd rados gfapi gfapi_async libhdfs dfs libiscsi ime_psync "
		  "ime_psyncv ime_aio",
		  "a network or remote storage engine: ssdload drives a local block device" },
		{ "null cpuio", "an engine that does no device I/O" },
		{ "filecreate filestat filedelete dircreate dirstat dirdelete falloc "
		  "ftruncate e4defrag",
		  "a file system engine: ssdload drives a block device, not files" },
		{ "sg libzbc xnvme io_uring_cmd spdk",
		  "a passthrough engine (SCSI/NVMe commands): ssdload submits bios "
		  "through the block layer" },
		{ "pmemblk libpmem dev-dax mtd libcufile",
		  "an engine for memory or devices that are not block devices" },
		{ "exec", "an engine that runs a program, not I/O" },
		{ "splice", "an engine that copies through pipes and the page cache" },
	};
	size_t i;

	if (word_in(SSL_BLOCK_ENGINES, e))
		return NULL;
	if (!strncmp(e, "external", 8))
		return "an external engine: not a block device engine (ssdload.ko is the engine)";
	for (i = 0; i < ARRAY_SIZE(other); i++)
		if (word_in(other[i].names, e))
			return other[i].why;
	return "not a block device engine (ssdload.ko is the engine; it stands in for "
		SSL_BLOCK_ENGINES ")";
}
