/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Converters from fio's option syntaxes to the value formats of the
 * module's configfs attributes (Documentation/configfs.rst).  Each takes
 * the value as typed and writes the attribute's value into @out, or
 * returns -1 with the reason in @why (without the option name: the caller
 * prefixes "--opt=value: ").  The module stays the authority: these only
 * catch what is certainly wrong, with a clearer message.
 */
#ifndef SSDLOAD_CLI_FIOOPTS_H
#define SSDLOAD_CLI_FIOOPTS_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/ssdload.h"

/* the module's limits (uapi/ssdload.h), as ints where the CLI counts */
#define SSL_BSSPLIT_MAX		SSDLOAD_BSSPLIT_MAX	/* entries per direction, as fio */
#define SSL_ZONES_MAX		SSDLOAD_ZONES_MAX	/* zones per direction, as fio */
#define SSL_PATTERN_MAX		((int)SSDLOAD_PATTERN_MAX)	/* bytes of buffer_pattern */
#define SSL_MAX_DEVS		((int)SSDLOAD_MAX_DEVS)	/* devices in one filename list */
#define SSL_NUMJOBS_MAX		SSDLOAD_MAX_NUMJOBS
#define SSL_DEFAULT_BS		4096	/* fio's default block size */
#define SSL_MAX_RATE_IOPS	SSDLOAD_MAX_RATE_IOPS	/* the module's largest rate_iops */
#define SSL_MAX_RATE_BPS	SSDLOAD_MAX_RATE_BPS	/* the module's largest rate, B/s */

/* bssplit: "4k/10:64k/50:32k/40[,list[,list]]" -> sizes in bytes */
int ssl_conv_bssplit(const char *in, char *out, size_t len, char *why, size_t wlen);

/*
 * bsrange "1k-4k[,r[,r]]" (also "1k:4k"), or a per-direction --bs "8k,32k"
 * (@from_bs: each value is min = max).  Always three directions out,
 * "min-max,min-max,min-max"; a direction left empty gets @def_bs.
 */
int ssl_conv_bsrange(const char *in, int from_bs, uint64_t def_bs, char *out,
		     size_t len, char *why, size_t wlen);

/* blockalign "int[,int][,int]": one value (all given must be equal). */
int ssl_conv_blockalign(const char *in, uint64_t *out, char *why, size_t wlen);

/* random_distribution: random, zipf:t, pareto:h, normal:s, zoned:..., zoned_abs:... */
int ssl_conv_distribution(const char *in, char *out, size_t len, char *why, size_t wlen);

/* offset/size: a SIZE in bytes, or "P%" (0 < P <= 100, up to 4 decimals) */
int ssl_conv_span(const char *in, char *out, size_t len, char *why, size_t wlen);

/* buffer_pattern (fio's lib/pattern.c) -> "0x<hex>" */
int ssl_conv_pattern(const char *in, char *out, size_t len, char *why, size_t wlen);

/*
 * rate_iops "R[,W[,T]]" (@bw = 0: integers, I/Os per second) or rate
 * "BW[,BW[,BW]]" (@bw = 1: sizes with k/m/g, bytes per second), as fio:
 * one value for reads, writes and trims; two for reads, and for writes
 * and trims; an empty field leaves that direction uncapped.  Out: the one
 * value, or "r,w,t" with empty fields.  0 is refused (fio's "no cap" is an
 * empty field here).
 */
int ssl_conv_rate(const char *in, int bw, char *out, size_t len, char *why, size_t wlen);

/* file_service_type: roundrobin|random|sequential[:N] */
int ssl_conv_fst(const char *in, char *out, size_t len, char *why, size_t wlen);

/*
 * filename: fio's list "a:b" ("\:" is a colon in a name).  Fills @devs
 * with up to @max unescaped paths (each malloc'd); returns their number
 * or -1 with @why.
 */
int ssl_split_filenames(const char *in, char **devs, int max, char *why, size_t wlen);

/*
 * fio's ioengine=@e: NULL for the engines doing block I/O on their target
 * (ssdload.ko stands in for them), else why it cannot be run.
 */
const char *ssl_fio_engine_why(const char *e);

#endif /* SSDLOAD_CLI_FIOOPTS_H */
