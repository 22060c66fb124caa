// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload profile TRACE -o PROFILE: a block trace summarised into a
 * workload profile (trace/profile.c) that `ssdload run --profile`,
 * `curve --profile` and the review plans take: a fio job file of the
 * trace's mix, block sizes, zoned hot bands and concurrency, its source
 * and fit in the comments.  The file is written whole or not at all.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "core/options.h"
#include "trace/profile.h"

static const char *const profile_usage[] = {
	"usage: ssdload profile [--trace-format=FMT] [--device=NAME] [--zones=N]",
	"                       [--name=NAME] TRACE -o PROFILE",
	"",
	"Summarise a block trace into a workload profile: a fio job file with the",
	"trace's read/write mix (rw, rwmixread), block sizes per direction",
	"(bssplit), where it accesses as zoned hot bands (random_distribution)",
	"and its mean concurrency (iodepth); its comments give the source, the",
	"fit's error, the sequential share, the arrival rate and burstiness and",
	"the concurrency over time.  Run it with ssdload run PROFILE",
	"--filename=DEV, or by name from $SSDLOAD_PROFILES with --profile=NAME.",
	"",
	"  -o, --output=PROFILE  the file to write (refused if it exists)",
	"  --trace-format=FMT    auto (default), blktrace, msr, alibaba, iolog2, iolog3",
	"  --device=NAME         only this device of a multi-device trace (as",
	"                        ssdload trace-info names it: 259,0  hm_1  17)",
	"  --zones=N             fit exactly N zones (1..16); default: the fewest",
	"                        within 1 point of the best 16-zone fit",
	"  --name=NAME           the job section (default: PROFILE's name less .fio)",
	"",
	"The trace is read twice, as a stream.  Exit status: 0 written, 1 the",
	"trace could not be read or the file written, 2 bad usage.",
	NULL,
};

enum { O_TRACE_FORMAT, O_DEVICE, O_ZONES, O_NAME, O_OUTPUT };

static const struct ssl_opt profile_opts[] = {
	{ "trace-format", SSL_ARG_REQUIRED, O_TRACE_FORMAT },
	{ "device", SSL_ARG_REQUIRED, O_DEVICE },
	{ "zones", SSL_ARG_REQUIRED, O_ZONES },
	{ "name", SSL_ARG_REQUIRED, O_NAME },
	{ "output", SSL_ARG_REQUIRED, O_OUTPUT },
	{ "o", SSL_ARG_REQUIRED, O_OUTPUT },
	{ NULL, 0, 0 },
};

struct profile_args {
	struct tp_opts o;
	const char *trace, *out, *name;
	char sect[128];
};

static int profile_opt(struct profile_args *a, const struct ssl_opt *opt, const char *val)
{
	uint64_t z;

	switch (opt->id) {
	case O_TRACE_FORMAT:
		if (trace_format_parse(val, &a->o.fmt)) {
			ssl_err("profile: --trace-format=%s: not a format (auto, blktrace, iolog2, iolog3, msr, alibaba)",
				val);
			return -1;
		}
		return 0;
	case O_DEVICE:
		a->o.device = val;
		return 0;
	case O_ZONES:
		if (ssl_parse_u64(val, &z) || !z || z > TP_ZONES_MAX) {
			ssl_err("profile: --zones=%s: want 1..%d", val, TP_ZONES_MAX);
			return -1;
		}
		a->o.zones = (unsigned int)z;
		return 0;
	case O_NAME:
		a->name = val;
		return 0;
	default:
		a->out = val;
		return 0;
	}
}

static int profile_args(int argc, const char **argv, struct profile_args *a)
{
	const struct ssl_opt *opt;
	int i = 1, dashdash = 0, r;
	const char *val;

	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, profile_opts, &opt, &val, &dashdash);
		if (r < 0)
			return -1;
		if (r == 2)
			return 1;
		if (r == 3)
			continue;
		if (r == 0) {
			if (a->trace) {
				ssl_err("profile: one TRACE, not '%s' too", argv[i - 1]);
				return -1;
			}
			a->trace = argv[i - 1];
			continue;
		}
		if (profile_opt(a, opt, val))
			return -1;
	}
	if (!a->trace || !a->out || !*a->out) {
		ssl_err("profile: want a TRACE and -o PROFILE (ssdload profile TRACE -o FILE)");
		return -1;
	}
	return 0;
}

/* the job section: --name, else the output's base name less ".fio" */
static int section_name(struct profile_args *a)
{
	const char *b = a->name, *slash;
	size_t n;

	if (!b) {
		slash = strrchr(a->out, '/');
		b = slash ? slash + 1 : a->out;
	}
	n = strlen(b);
	if (!a->name && n > 4 && !strcmp(b + n - 4, ".fio"))
		n -= 4;
	if (!n || n >= sizeof(a->sect) || b[0] == '.' ||
	    strspn(b, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") < n) {
		ssl_err("profile: '%.*s' is not a profile name (letters, digits, _ . -; --name=)",
			(int)n, b);
		return -1;
	}
	memcpy(a->sect, b, n);
	a->sect[n] = '\0';
	return 0;
}

int cmd_profile(int argc, const char **argv)
{
	struct profile_args a = { .o = { .fmt = TRACE_FMT_AUTO } };
	struct trace_profile p;
	struct ssl_atomic at;
	char err[512], src[PATH_MAX];
	size_t i;
	int r;

	r = profile_args(argc, argv, &a);
	if (r > 0) {
		ssl_usage(stdout, profile_usage);
		return 0;
	}
	if (r < 0 || section_name(&a))
		return 2;
	if (!access(a.out, F_OK)) {
		ssl_err("profile: %s exists: not overwritten", a.out);
		return 2;
	}
	if (trace_profile_read(a.trace, &a.o, &p, err, sizeof(err))) {
		ssl_err("profile: %s", err);
		trace_profile_free(&p);
		return 1;
	}
	/* the trace's name goes into comments: one line, printable */
	snprintf(src, sizeof(src), "%s", a.trace);
	for (i = 0; src[i]; i++)
		if ((unsigned char)src[i] < ' ' || src[i] == 0x7f)
			src[i] = '?';
	if (!ssl_atomic_open(&at, a.out)) {
		trace_profile_free(&p);
		return 1;
	}
	if (trace_profile_write(at.f, &p, a.sect, src)) {
		ssl_err("profile: %s: nothing to profile (no reads, writes or trims)", a.trace);
		ssl_atomic_abort(&at);
		trace_profile_free(&p);
		return 1;
	}
	r = ssl_atomic_commit(&at);
	if (!r)
		printf("%s: %llu I/Os of %s summarised as profile [%s]\n", a.out,
		       (unsigned long long)p.n, a.trace, a.sect);
	trace_profile_free(&p);
	return r ? 1 : 0;
}
