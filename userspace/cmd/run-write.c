// SPDX-License-Identifier: GPL-2.0
/*
 * The primitives every converter of ssdload run's options uses: the
 * attribute writes of a job (run_ctx's w[]), the refusal of a value, the
 * notes, and the plain integer, time and 0/1 options.  run-options.c,
 * run-values.c, run-ss.c and run-steps.c build on them; this file calls
 * none of them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run.h"
#include "core/util.h"
#include "methods/runner.h"

/* raw[] of an option given bare (--norandommap), told from an empty value */
const char run_bare_flag[] = "";

int bad_value(const struct run_ctx *c, int id, const char *why)
{
	const char *eq = c->raw[id] == run_bare_flag ? "" : "=";

	if (c->where)	/* a key of a step */
		ssl_err("%s: %s%s%s: %s", c->where, c->raw_name[id], eq, c->raw[id], why);
	else if (c->from[id])	/* a line of a job file */
		ssl_err("%s: %s%s%s: %s", c->from[id], c->raw_name[id], eq, c->raw[id], why);
	else
		ssl_err("--%s%s%s: %s", c->raw_name[id], eq, c->raw[id], why);
	return -1;
}

void add_write(struct run_ctx *c, const char *attr, const char *val)
{
	struct attr_write *w = &c->w[c->nw++];

	w->attr = attr;
	snprintf(w->val, sizeof(w->val), "%s", val);
}

void add_write_u64(struct run_ctx *c, const char *attr, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	add_write(c, attr, buf);
}

int u64_opt(struct run_ctx *c, int id, const char *attr, uint64_t *out)
{
	uint64_t v;

	if (!c->raw[id])
		return 0;
	if (ssl_parse_u64(c->raw[id], &v))
		return bad_value(c, id, "not a non-negative integer");
	if (out)
		*out = v;
	if (attr)
		add_write_u64(c, attr, v);
	return 0;
}

int time_opt(struct run_ctx *c, int id, const char *attr)
{
	uint64_t v;

	if (!c->raw[id])
		return 0;
	if (ssl_parse_time_ms(c->raw[id], 1000, &v))
		return bad_value(c, id, "not a time (seconds, or with ms/s/m/h suffix)");
	add_write_u64(c, attr, v);
	return 0;
}

/* A 0/1 option: bare (= 1), --opt=0|1 or --opt 0|1. */
int flag_opt(struct run_ctx *c, int id, const char *attr, int *out)
{
	int b = 1;

	if (!c->raw[id])
		return 0;
	if (*c->raw[id] && ssl_parse_bool(c->raw[id], &b))
		return bad_value(c, id, "must be 0 or 1");
	if (attr)
		add_write_u64(c, attr, (uint64_t)b);
	if (out)
		*out = b;
	return 0;
}

/*
 * "ssdload: note: ..." on stderr, unless this is a run of a job file whose
 * runner printed the notes of every job already (SSL_NOTED_ENV).
 */
void __attribute__((format(printf, 1, 2))) run_note(const char *fmt, ...)
{
	va_list ap;

	if (getenv(SSL_NOTED_ENV))
		return;
	fputs("ssdload: note: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void run_opt_note(const struct run_ctx *c, int id, const char *sep, const char *why)
{
	run_note("%s%s%s%s%s%s%s", c->from[id] ? c->from[id] : "--",
		 c->from[id] ? ": " : "", c->raw_name[id], *c->raw[id] ? "=" : "",
		 c->raw[id], sep, why);
}
