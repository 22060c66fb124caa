/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.h: a block trace summarised into a workload profile (the fio
 * job file that `ssdload run --profile` takes): its mix, block sizes per
 * direction, zoned hot bands fitted to where it accesses, sequential
 * share, arrival rate and burstiness, and concurrency over time.
 * Documentation/traces.rst describes each figure and the fit.
 */
#ifndef SSDLOAD_TRACE_PROFILE_H
#define SSDLOAD_TRACE_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"

#define TP_REGIONS	100	/* the span in 1% regions, the zones' grain */
#define TP_ZONES_MAX	16	/* zones a fit may use */
#define TP_WINDOWS	20	/* the time series: windows of duration / 20 */
#define TP_SIZES_MAX	4096	/* distinct I/O sizes counted per direction */
#define TP_DEPTH_MAX	1024	/* in-flight counts above this are counted here */
#define TP_SEQ_STREAMS	16	/* stream ends remembered for sequential runs */

struct tp_size {
	uint32_t size;
	uint64_t n;
};

struct tp_zone {
	unsigned int access;	/* percent of the direction's I/Os */
	unsigned int size;	/* percent of the span */
};

struct tp_dir {
	uint64_t n, bytes, seq;
	struct tp_size *sizes;	/* sorted by size */
	unsigned int nsizes;
	uint64_t region[TP_REGIONS];
	struct tp_zone zone[TP_ZONES_MAX];
	unsigned int nzones;
	double fit_err;		/* points: total variation of the fit */
};

struct tp_opts {
	enum trace_format fmt;
	const char *device;	/* only this trace device; NULL: all */
	unsigned int zones;	/* 0: the fewest within 1 point of the best */
};

struct trace_profile {
	char format[16];
	uint64_t n, dur_ns, span, ignored;
	struct tp_dir dir[TRACE_NR_OPS];
	unsigned int ndevs;
	/* arrival: inter-arrival times (Welford), per-window counts */
	double ia_mean, ia_m2;
	uint64_t win_n[TP_WINDOWS];
	double win_busy_ns[TP_WINDOWS];	/* sum of response times started there */
	/* concurrency: in flight at each arrival (itself included) */
	uint64_t with_resp, resp_sum_ns;
	uint64_t depth[TP_DEPTH_MAX + 1];
	unsigned int depth_max;
};

/* read PATH twice and fill P; 0, or -1 with the reason in ERR */
int trace_profile_read(const char *path, const struct tp_opts *o,
		       struct trace_profile *p, char *err, size_t errlen);
/* the profile as a fio job file with section NAME; SOURCE for its comments */
int trace_profile_write(FILE *f, const struct trace_profile *p, const char *name,
			const char *source);
void trace_profile_free(struct trace_profile *p);

/* helpers the tests of fits check through the CLI */
double tp_cv(const struct trace_profile *p);
double tp_seq_share(const struct trace_profile *p);

#endif /* SSDLOAD_TRACE_PROFILE_H */
