/* SPDX-License-Identifier: GPL-2.0 */
/* Parsers for fio-style option values. All return 0 or -1 (invalid). */
#ifndef SSDLOAD_CLI_OPTIONS_H
#define SSDLOAD_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/ssdload.h"

#define SSL_MAX_PERCENTILES	64
#define SSL_GROUP_MAX		((int)SSDLOAD_GROUP_LEN - 1)	/* characters of a group name */

/* fio's --output-format: a set of these (normal,json+ prints both) */
enum ssl_output_format {
	SSL_OUTPUT_NORMAL = 1 << 0,
	SSL_OUTPUT_JSON = 1 << 1,
	SSL_OUTPUT_JSON_PLUS = 1 << 2,	/* json with the latency bins */
};

#define SSL_OUTPUT_ANY_JSON	(SSL_OUTPUT_JSON | SSL_OUTPUT_JSON_PLUS)

/* fio's --eta: when the progress line is shown. */
enum ssl_eta {
	SSL_ETA_AUTO = 0,	/* when the output is a terminal */
	SSL_ETA_ALWAYS,
	SSL_ETA_NEVER,
};

/* Plain decimal u64, optional trailing newline; no sign, no overflow. */
int ssl_parse_u64(const char *s, uint64_t *out);

/* Decimal or 0x hex u64 (for randseed). */
int ssl_parse_seed(const char *s, uint64_t *out);

/*
 * A size in bytes as fio reads it: decimal with an optional unit (any
 * case) b, k/kb/kib, m/mb/mib, g/gb/gib, t/tb/tib, p/pb/pib, where k and
 * kb are kb_base and kib is the other base (fio's default kb_base=1024
 * makes "4k" 4096 and "4KiB" 4000), or 0x hexadecimal without a unit.
 * A fraction (1.5k) must come to whole bytes (fio truncates it to 1).
 */
int ssl_parse_size(const char *s, uint64_t *out);
/* fio's kb_base: 1024 (default) or 1000; 0, or -1 for another value */
int ssl_set_kb_base(unsigned int base);

/*
 * A duration in milliseconds.  Suffixes: us/usec (must be whole ms),
 * ms/msec, s/sec, m/min, h/hour, d/day.  A bare number is in @bare_unit_ms
 * units (1000 for fio's runtime and ramp_time: seconds).
 */
int ssl_parse_time_ms(const char *s, uint64_t bare_unit_ms, uint64_t *out);
/*
 * A duration in microseconds (fio's thinktime, startdelay): suffixes
 * us/usec, ms/msec, s/sec, m/min, h/hour, d/day; a bare number is in
 * @bare_unit_us units (1 for thinktime, 1000000 for startdelay: seconds),
 * 0 refuses it.
 */
int ssl_parse_time_us(const char *s, uint64_t bare_unit_us, uint64_t *out);

/* fio's percentile_list "1:5:99.9": values in (0, 100], at most max. */
int ssl_parse_percentiles(const char *s, double *out, int max, int *n);

/*
 * fio's --output-format: a comma list of normal, json and json+ (fio's
 * terse is refused) into a set of enum ssl_output_format; 0 or -1.
 */
int ssl_parse_output_format(const char *s, unsigned int *fmt);

/* "always", "auto" or "never". */
int ssl_parse_eta(const char *s, enum ssl_eta *eta);

/* 0/1 (also true/false, yes/no, on/off). */
int ssl_parse_bool(const char *s, int *out);

/* A group name as the module takes it: 1..63 of [A-Za-z0-9_.-]; 0 or -1. */
int ssl_check_group(const char *s);

/*
 * The first @n CPUs of cpulist @online ("0-3,5\n") as a cpulist in @out.
 * Returns 0, -1 if @online is malformed, or the number of CPUs available
 * (> 0) if there are fewer than @n.
 */
int ssl_cpulist_first_n(const char *online, unsigned int n, char *out, size_t len);



/* ---- command-line options: --name=value, --name value, bare flags ---- */
enum ssl_arg {
	SSL_ARG_REQUIRED,	/* --opt=value or --opt value */
	SSL_ARG_FLAG,		/* --opt, --opt=value, or --opt 0|1 */
};

struct ssl_opt {
	const char *name;	/* fio's spelling; '-' and '_' are equivalent */
	enum ssl_arg arg;
	int id;
};

/*
 * Parse argv[*i].  Returns 1 for an option (*opt, *val set; *val is NULL
 * for a bare flag), 0 for a positional argument, 2 for "--help"/"-h",
 * 3 for "--" (every later argument is positional), -1 on error (message
 * printed).  Advances *i past what it consumed; a positional argument is
 * argv[*i - 1] after the call.  A one-letter entry of @tab ("o") is also
 * taken as "-o VALUE" (or "-o" for a flag).
 */
int ssl_next_opt(int argc, const char **argv, int *i, const struct ssl_opt *tab,
		 const struct ssl_opt **opt, const char **val, int *dashdash);

/*
 * fio's aliases (fio 3.33's options.c): the other name of @name (@len
 * bytes) when it is one of a pair (runtime -> timeout, timeout ->
 * runtime), else NULL; *@spelled (when not NULL) gets the table's own
 * string of @name, for messages that outlive @name.
 */
const char *ssl_fio_alias(const char *name, size_t len, const char **spelled);

/*
 * Why ssdload does not support fio's option @name (@len bytes, or its
 * alias), as Documentation/cli.rst says it, or NULL: not such an option.
 */
const char *ssl_fio_unsupported_why(const char *name, size_t len);

/*
 * The option of @tab named @name (@len bytes; '-' == '_'), or of its fio
 * alias (ssl_fio_alias()), or NULL.
 */
const struct ssl_opt *ssl_find_opt(const struct ssl_opt *tab, const char *name, size_t len);

/*
 * The message for @name (@len bytes), not an option of @tab, on stderr
 * after "ssdload: " and "@where: " (FILE:LINE, or NULL): a fio option
 * ssdload does not support is named as such; else "unknown option",
 * with "did you mean DASHESopt?" when an option of @tab is a slip of the
 * fingers away (at most 2 edits).
 */
void ssl_opt_unknown(const char *where, const struct ssl_opt *tab, const char *name,
		     size_t len, const char *dashes);

#endif /* SSDLOAD_CLI_OPTIONS_H */
