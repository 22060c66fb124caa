// SPDX-License-Identifier: GPL-2.0
/*
 * The modes of --precondition and the span of --section (pcmode.h):
 * what a method's options say, before anything runs.  The runner parses
 * them with the other options; precondition.c runs them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array_size.h"
#include "core/options.h"
#include "core/util.h"
#include "fio/fioopts.h"
#include "methods/pcmode.h"

static const char *const pc_names[] = {
	[SSL_PC_NONE] = "none", [SSL_PC_FILL] = "fill", [SSL_PC_RANDOM] = "random",
	[SSL_PC_SEQ128K] = "seq128k", [SSL_PC_PTS] = "pts",
};

/* N of --precondition=@val in @s: @what, from @lo to @hi; 0 or -1 */
static int pc_uint(const char *cmd, const char *val, const char *s, const char *what,
		   unsigned int lo, unsigned int hi, unsigned int *out)
{
	uint64_t u;

	if (ssl_parse_u64(s, &u) || u < lo || u > hi) {
		ssl_err("%s: --precondition=%s: %s must be an integer from %u to %u", cmd, val,
			what, lo, hi);
		return -1;
	}
	*out = (unsigned int)u;
	return 0;
}

/* pts[:TIME[:N]]: the WDPC's round time and round limit */
static int pts_mode(const char *cmd, const char *val, const char *colon,
		    struct ssl_precond *pc)
{
	char t[32];
	const char *n = colon ? strchr(colon + 1, ':') : NULL;
	size_t len = n ? (size_t)(n - colon - 1) : colon ? strlen(colon + 1) : 0;

	if (!colon)
		return 0;
	if (len >= sizeof(t)) {
		ssl_err("%s: --precondition=%s: the round time is too long", cmd, val);
		return -1;
	}
	memcpy(t, colon + 1, len);
	t[len] = 0;
	if (ssl_parse_time_ms(t, 1000, &pc->round_ms) || pc->round_ms < 100 ||
	    pc->round_ms > 7 * 24 * 3600000ULL) {
		ssl_err("%s: --precondition=%s: the round time must be from 100ms to 7 days "
			"(bare number = s, or ms/s/m/h)", cmd, val);
		return -1;
	}
	if (n)
		return pc_uint(cmd, val, n + 1, "the round limit", SSL_PC_MIN_ROUNDS,
			       SSL_PC_MAX_ROUNDS, &pc->max_rounds);
	return 0;
}

int ssl_precond_span_parse(const char *cmd, const char *val, struct ssl_precond *pc)
{
	size_t n = strlen(val);
	double pct = 0;
	uint64_t b = 0;
	char *end;

	if (n && val[n - 1] == '%') {
		pct = strtod(val, &end);
		if (end != val + n - 1 || end == val || !(pct > 0) || pct > 100)
			goto bad;
	} else if (ssl_parse_size(val, &b) || b < SSL_PC_SEQ_BS) {
		goto bad;
	}
	if (n >= sizeof(pc->span_arg))
		goto bad;
	pc->span_bytes = b;
	pc->span_pct = pct;
	snprintf(pc->span_arg, sizeof(pc->span_arg), "%s", val);
	return 0;
bad:
	ssl_err("%s: --precondition-span=%s: a size of at least 128k (k/m/g/t suffixes) "
		"or a percentage of the device above 0 and at most 100%%", cmd, val);
	return -1;
}

uint64_t ssl_precond_span(const struct ssl_precond *pc, uint64_t capacity)
{
	uint64_t s = capacity;

	if (pc->span_pct)
		s = (uint64_t)((double)capacity * pc->span_pct / 100.0);
	else if (pc->span_bytes && pc->span_bytes < capacity)
		s = pc->span_bytes;
	return s == capacity ? s : s / SSL_PC_RND_BS * SSL_PC_RND_BS;
}

int ssl_precond_parse(const char *cmd, const char *val, struct ssl_precond *pc)
{
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	struct ssl_precond span = *pc;	/* --precondition-span, given before */
	unsigned int m;

	memset(pc, 0, sizeof(*pc));
	pc->span_bytes = span.span_bytes;
	pc->span_pct = span.span_pct;
	memcpy(pc->span_arg, span.span_arg, sizeof(pc->span_arg));
	for (m = 0; m < ARRAY_SIZE(pc_names); m++)
		if (strlen(pc_names[m]) == n && !strncmp(val, pc_names[m], n))
			break;
	if (m == ARRAY_SIZE(pc_names))
		goto bad;
	pc->mode = m;
	pc->passes = 1;
	pc->round_ms = SSL_PC_ROUND_MS;
	pc->max_rounds = SSL_PC_MAX_ROUNDS;
	switch (pc->mode) {
	case SSL_PC_NONE:
	case SSL_PC_FILL:
		if (colon)
			goto bad;
		return 0;
	case SSL_PC_RANDOM:
	case SSL_PC_SEQ128K:
		if (!colon) {
			ssl_err("%s: --precondition=%s: give the passes, e.g. %s:2", cmd, val,
				pc_names[m]);
			return -1;
		}
		return pc_uint(cmd, val, colon + 1, "the passes", 1, SSL_PC_MAX_PASSES,
			       &pc->passes);
	case SSL_PC_PTS:
		pc->passes = SSL_PC_WIPC_LOOPS;
		return pts_mode(cmd, val, colon, pc);
	}
bad:
	ssl_err("%s: --precondition=%s: must be none, fill, random:N, seq128k:N (N passes, "
		"1 to %d) or pts[:ROUND_TIME[:MAX_ROUNDS]]", cmd, val, SSL_PC_MAX_PASSES);
	return -1;
}

void ssl_precond_str(const struct ssl_precond *pc, char *buf, size_t len)
{
	if (pc->mode == SSL_PC_RANDOM || pc->mode == SSL_PC_SEQ128K)
		snprintf(buf, len, "%s:%u", pc_names[pc->mode], pc->passes);
	else if (pc->mode == SSL_PC_PTS && pc->max_rounds != SSL_PC_MAX_ROUNDS)
		snprintf(buf, len, "pts:%" PRIu64 "ms:%u", pc->round_ms, pc->max_rounds);
	else if (pc->mode == SSL_PC_PTS && pc->round_ms != SSL_PC_ROUND_MS)
		snprintf(buf, len, "pts:%" PRIu64 "ms", pc->round_ms);
	else
		snprintf(buf, len, "%s", pc_names[pc->mode]);
}

const char *ssl_precond_name(enum ssl_pc_mode mode)
{
	return pc_names[mode];
}

uint64_t ssl_precond_promised(const struct ssl_precond *pc, uint64_t span)
{
	switch (pc->mode) {
	case SSL_PC_RANDOM:
		return pc->passes * ssl_pass_span(span, SSL_PC_RND_BS);
	case SSL_PC_FILL:
	case SSL_PC_SEQ128K:
	case SSL_PC_PTS:
		return pc->passes * ssl_pass_span(span, SSL_PC_SEQ_BS);
	default:
		return 0;
	}
}

int ssl_section_span(const char *val, char *out, size_t len, char *why, size_t wlen)
{
	size_t n = strlen(val);

	/* a percentage is a span; a size too, else it names a profile's section */
	if (n && val[n - 1] == '%')
		return ssl_conv_span(val, out, len, why, wlen) ? -1 : 0;
	return ssl_conv_span(val, out, len, why, wlen) ? 1 : 0;
}
