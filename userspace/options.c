// SPDX-License-Identifier: GPL-2.0
/* Parsers for fio-style option values. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"

/* strip one trailing newline (values read back from sysfs files) */
static size_t value_len(const char *s)
{
	size_t len = strlen(s);

	if (len && s[len - 1] == '\n')
		len--;
	return len;
}

static int parse_digits(const char *s, size_t len, int base, uint64_t *out,
			size_t *used)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		int d;

		if (isdigit((unsigned char)s[i]))
			d = s[i] - '0';
		else if (base == 16 && isxdigit((unsigned char)s[i]))
			d = tolower((unsigned char)s[i]) - 'a' + 10;
		else
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (!i)
		return -1;
	*out = v;
	*used = i;
	return 0;
}

int ssl_parse_u64(const char *s, uint64_t *out)
{
	size_t len = value_len(s), used;

	if (parse_digits(s, len, 10, out, &used) || used != len)
		return -1;
	return 0;
}

int ssl_parse_seed(const char *s, uint64_t *out)
{
	size_t len = value_len(s), used;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (parse_digits(s + 2, len - 2, 16, out, &used) ||
		    used != len - 2)
			return -1;
		return 0;
	}
	return ssl_parse_u64(s, out);
}

struct suffix {
	const char *name;
	uint64_t mult;
};

static int apply_suffix(uint64_t v, const char *suf, size_t len,
			const struct suffix *tab, uint64_t *out)
{
	size_t i;

	for (i = 0; tab[i].name; i++) {
		if (strlen(tab[i].name) != len ||
		    strncasecmp(tab[i].name, suf, len))
			continue;
		if (tab[i].mult && v > UINT64_MAX / tab[i].mult)
			return -1;
		*out = v * tab[i].mult;
		return 0;
	}
	return -1;
}

#define KI	1024ULL

static const struct suffix size_suffixes[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", KI }, { "kb", KI }, { "kib", KI },
	{ "m", KI * KI }, { "mb", KI * KI }, { "mib", KI * KI },
	{ "g", KI * KI * KI }, { "gb", KI * KI * KI }, { "gib", KI * KI * KI },
	{ "t", KI * KI * KI * KI }, { "tb", KI * KI * KI * KI },
	{ "tib", KI * KI * KI * KI },
	{ "p", KI * KI * KI * KI * KI }, { "pb", KI * KI * KI * KI * KI },
	{ "pib", KI * KI * KI * KI * KI },
	{ NULL, 0 },
};

int ssl_parse_size(const char *s, uint64_t *out)
{
	size_t len = value_len(s), used;
	uint64_t v;

	if (parse_digits(s, len, 10, &v, &used))
		return -1;
	return apply_suffix(v, s + used, len - used, size_suffixes, out);
}

int ssl_parse_time_ms(const char *s, uint64_t bare_unit_ms, uint64_t *out)
{
	static const struct suffix time_suffixes[] = {
		{ "ms", 1 }, { "msec", 1 },
		{ "s", 1000 }, { "sec", 1000 },
		{ "m", 60000 }, { "min", 60000 },
		{ "h", 3600000 }, { "hour", 3600000 },
		{ "d", 86400000 }, { "day", 86400000 },
		{ NULL, 0 },
	};
	size_t len = value_len(s), used, slen;
	const char *suf;
	uint64_t v;

	if (parse_digits(s, len, 10, &v, &used))
		return -1;
	suf = s + used;
	slen = len - used;
	if (!slen) {
		if (bare_unit_ms && v > UINT64_MAX / bare_unit_ms)
			return -1;
		*out = v * bare_unit_ms;
		return 0;
	}
	if ((slen == 2 && !strncasecmp(suf, "us", 2)) ||
	    (slen == 4 && !strncasecmp(suf, "usec", 4))) {
		if (v % 1000)
			return -1;	/* the module counts whole ms */
		*out = v / 1000;
		return 0;
	}
	return apply_suffix(v, suf, slen, time_suffixes, out);
}

int ssl_parse_percentiles(const char *s, double *out, int max, int *n)
{
	const char *p = s;
	int cnt = 0;

	if (!*s)
		return -1;
	while (*p) {
		char *end;
		double v;

		if (!isdigit((unsigned char)*p) && *p != '.')
			return -1;
		errno = 0;
		v = strtod(p, &end);
		if (errno || end == p || !isfinite(v) || v <= 0.0 || v > 100.0)
			return -1;
		if (cnt == max)
			return -1;
		out[cnt++] = v;
		p = end;
		if (*p == ':') {
			p++;
			if (!*p)
				return -1;
		} else if (*p) {
			return -1;
		}
	}
	*n = cnt;
	return 0;
}

int ssl_parse_output_format(const char *s, enum ssl_output_format *fmt)
{
	if (!strcmp(s, "normal"))
		*fmt = SSL_OUTPUT_NORMAL;
	else if (!strcmp(s, "json"))
		*fmt = SSL_OUTPUT_JSON;
	else
		return -1;
	return 0;
}

int ssl_parse_eta(const char *s, enum ssl_eta *eta)
{
	if (!strcmp(s, "auto"))
		*eta = SSL_ETA_AUTO;
	else if (!strcmp(s, "always"))
		*eta = SSL_ETA_ALWAYS;
	else if (!strcmp(s, "never"))
		*eta = SSL_ETA_NEVER;
	else
		return -1;
	return 0;
}

int ssl_parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

int ssl_check_group(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > SSL_GROUP_MAX ||
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		   "0123456789_.-") != n)
		return -1;
	return 0;
}

static int append(char *out, size_t len, size_t *pos, const char *fmt,
		  unsigned long a, unsigned long b)
{
	int r = snprintf(out + *pos, len - *pos, fmt, a, b);

	if (r < 0 || (size_t)r >= len - *pos)
		return -1;
	*pos += (size_t)r;
	return 0;
}

int ssl_cpulist_first_n(const char *online, unsigned int n, char *out, size_t len)
{
	const char *p = online;
	unsigned int taken = 0;
	size_t pos = 0;

	out[0] = '\0';
	while (*p && *p != '\n' && taken < n) {
		unsigned long a, b;
		char *end;

		if (!isdigit((unsigned char)*p))
			return -1;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -1;
			b = strtoul(p, &end, 10);
			p = end;
			if (b < a)
				return -1;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
		if (b - a + 1 > n - taken)
			b = a + (n - taken) - 1;
		if (a == b ? append(out, len, &pos, pos ? ",%lu" : "%lu", a, 0) :
			     append(out, len, &pos, pos ? ",%lu-%lu" : "%lu-%lu", a, b))
			return -1;
		taken += (unsigned int)(b - a + 1);
	}
	if (taken < n)
		return taken ? (int)taken : -1;
	return 0;
}

static int opt_name_eq(const char *a, size_t alen, const char *b)
{
	size_t i;

	if (strlen(b) != alen)
		return 0;
	for (i = 0; i < alen; i++) {
		char x = a[i] == '-' ? '_' : a[i];
		char y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return 0;
	}
	return 1;
}

int ssl_next_opt(int argc, const char **argv, int *i, const struct ssl_opt *tab,
		 const struct ssl_opt **opt, const char **val, int *dashdash)
{
	const char *arg = argv[*i], *name, *eq;
	size_t nlen;

	*opt = NULL;
	*val = NULL;
	if (*dashdash || arg[0] != '-' || !arg[1]) {
		(*i)++;
		return 0;
	}
	if (!strcmp(arg, "--")) {
		*dashdash = 1;
		(*i)++;
		return 3;
	}
	if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
		(*i)++;
		return 2;
	}
	if (arg[1] != '-') {
		fprintf(stderr, "ssdload: unknown option '%s' (options are --name=value)\n",
			arg);
		return -1;
	}
	name = arg + 2;
	eq = strchr(name, '=');
	nlen = eq ? (size_t)(eq - name) : strlen(name);
	for (; tab->name; tab++)
		if (opt_name_eq(name, nlen, tab->name))
			break;
	if (!tab->name) {
		fprintf(stderr, "ssdload: unknown option '--%.*s'\n", (int)nlen, name);
		return -1;
	}
	*opt = tab;
	(*i)++;
	if (eq) {
		*val = eq + 1;
		return 1;
	}
	if (tab->arg == SSL_ARG_FLAG) {
		int b;

		if (*i < argc && !ssl_parse_bool(argv[*i], &b) &&
		    (!strcmp(argv[*i], "0") || !strcmp(argv[*i], "1")))
			*val = argv[(*i)++];
		return 1;
	}
	if (*i >= argc) {
		fprintf(stderr, "ssdload: option '--%s' needs a value\n", tab->name);
		return -1;
	}
	*val = argv[(*i)++];
	return 1;
}
