// SPDX-License-Identifier: GPL-2.0
/*
 * fio 3.33's steady-state detection (its steadystate.c), as pure functions.
 *
 * One sample a second: the I/Os and bytes of all directions done in it.
 * Once ss_dur samples were taken, every new one judges the last ss_dur:
 *   iops, bw:              max |y - mean|, in % of the mean with LIMIT%
 *   iops_slope, bw_slope:  the least-squares slope of y against the sample
 *                          number (per second), in % of the mean with LIMIT%
 * and the job is steady once |criterion| < LIMIT.  The slope's mean is
 * fio's sum_y / dur in integers; the deviation's is the exact one.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/linfit.h"
#include "core/options.h"
#include "fio/steadystate.h"

static const struct {
	const char *name;
	int bw, slope;
} ss_metrics[] = {
	{ "iops", 0, 0 },
	{ "iops_slope", 0, 1 },
	{ "bw", 1, 0 },
	{ "bw_slope", 1, 1 },
};

/* a number >= 0, all of @s but trailing blanks; 0 or -1 */
static int parse_limit(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -1;
	end += strspn(end, " \t");
	if (*end)
		return -1;
	*out = v;
	return 0;
}

int ssl_fio_ss_parse(const char *spec, struct ssl_fio_ss *ss, char *why, size_t wlen)
{
	const char *colon = strchr(spec, ':'), *lim, *pct;
	size_t i, n = colon ? (size_t)(colon - spec) : strlen(spec);
	char num[64];
	uint64_t b;

	for (i = 0; i < sizeof(ss_metrics) / sizeof(ss_metrics[0]); i++)
		if (strlen(ss_metrics[i].name) == n && !strncmp(spec, ss_metrics[i].name, n))
			break;
	if (i == sizeof(ss_metrics) / sizeof(ss_metrics[0])) {
		snprintf(why, wlen, "the metric must be iops, iops_slope, bw or bw_slope");
		return -1;
	}
	if (!colon || !colon[1]) {
		snprintf(why, wlen, "a limit must follow the metric, as in fio (%s:10%% or "
			 "%s:VALUE)", ss_metrics[i].name, ss_metrics[i].name);
		return -1;
	}
	ss->bw = ss_metrics[i].bw;
	ss->by_slope = ss_metrics[i].slope;
	lim = colon + 1;
	pct = strchr(lim, '%');
	ss->pct = pct != NULL;
	if (pct) {
		n = (size_t)(pct - lim);
		if (n < sizeof(num)) {
			memcpy(num, lim, n);
			num[n] = '\0';
		}
		if (n >= sizeof(num) || pct[1] || parse_limit(num, &ss->limit)) {
			snprintf(why, wlen, "the limit is not a percentage (a number >= 0 and %%)");
			return -1;
		}
		return 0;
	}
	if (!ss->bw) {
		if (parse_limit(lim, &ss->limit)) {
			snprintf(why, wlen, "the limit is not a number of IOPS >= 0, nor a "
				 "percentage (%%)");
			return -1;
		}
		return 0;
	}
	if (ssl_parse_size(lim, &b)) {
		snprintf(why, wlen, "the limit is not a bandwidth (bytes/s, or with k/m/g "
			 "suffix), nor a percentage (%%)");
		return -1;
	}
	ss->limit = (double)b;
	return 0;
}

int ssl_fio_ss_start(struct ssl_fio_ss *ss)
{
	ss->iops = calloc(ss->dur, sizeof(*ss->iops));
	ss->bws = calloc(ss->dur, sizeof(*ss->bws));
	ss->scratch = calloc(ss->dur, sizeof(*ss->scratch));
	ss->head = 0;
	ss->nr = 0;
	ss->attained = 0;
	ss->attained_s = 0;
	ss->criterion = ss->slope = ss->deviation = 0;
	if (ss->iops && ss->bws && ss->scratch)
		return 0;
	ssl_fio_ss_free(ss);
	return -ENOMEM;
}

void ssl_fio_ss_free(struct ssl_fio_ss *ss)
{
	free(ss->iops);
	free(ss->bws);
	free(ss->scratch);
	ss->iops = ss->bws = NULL;
	ss->scratch = NULL;
}

/* judge the full window; 1 if it meets the criterion */
static int ss_judge(struct ssl_fio_ss *ss)
{
	const uint64_t *y = ss->bw ? ss->bws : ss->iops;
	uint64_t sum = 0;
	unsigned int i;
	double mean, d;

	for (i = 0; i < ss->dur; i++) {
		ss->scratch[i] = (double)y[(ss->head + i) % ss->dur];
		sum += y[i];
	}
	if (ss->by_slope) {
		struct ssl_linfit fit;
		uint64_t imean = sum / ss->dur;

		if (ss->dur < 2) {
			ss->slope = 0;	/* fio divides 0 by 0 here: never steady */
			ss->criterion = 0;
			return 0;
		}
		ssl_linfit(ss->scratch, ss->dur, 0, &fit);
		ss->slope = (double)fit.slope;
		ss->criterion = 0;	/* fio's is not a number then */
		if (ss->pct && !imean)
			return 0;
		ss->criterion = ss->pct ? 100.0 * ss->slope / (double)imean : ss->slope;
		return fabs(ss->criterion) < ss->limit;
	}
	mean = (double)sum / ss->dur;
	ss->deviation = 0;
	for (i = 0; i < ss->dur; i++) {
		d = fabs(ss->scratch[i] - mean);
		if (d > ss->deviation)
			ss->deviation = d;
	}
	ss->criterion = 0;
	if (ss->pct && mean == 0)
		return 0;
	ss->criterion = ss->pct ? 100.0 * ss->deviation / mean : ss->deviation;
	return ss->criterion < ss->limit;
}

int ssl_fio_ss_add(struct ssl_fio_ss *ss, uint64_t ios, uint64_t bytes, uint64_t at_s)
{
	unsigned int slot;

	if (ss->attained || !ss->dur)
		return ss->attained;
	if (ss->nr < ss->dur) {
		slot = (unsigned int)ss->nr;
	} else {
		slot = ss->head;	/* the oldest goes */
		ss->head = (ss->head + 1) % ss->dur;
	}
	ss->iops[slot] = ios;
	ss->bws[slot] = bytes;
	ss->nr++;
	if (ss->nr < ss->dur || !ss_judge(ss))
		return 0;
	ss->attained = 1;
	ss->attained_s = at_s;
	return 1;
}

void ssl_fio_ss_window(const struct ssl_fio_ss *ss, uint64_t *iops, uint64_t *bws)
{
	unsigned int i, k;

	for (i = 0; i < ss->dur; i++) {
		k = (ss->head + i) % ss->dur;
		iops[i] = ss->iops ? ss->iops[k] : 0;
		bws[i] = ss->bws ? ss->bws[k] : 0;
	}
}

uint64_t ssl_fio_ss_mean(const struct ssl_fio_ss *ss, int bw)
{
	const uint64_t *y = bw ? ss->bws : ss->iops;
	uint64_t sum = 0;
	unsigned int i;

	if (!ss->dur || !y)
		return 0;
	for (i = 0; i < ss->dur; i++)
		sum += y[i];
	return sum / ss->dur;
}

void ssl_fio_ss_spec(const struct ssl_fio_ss *ss, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s:%f%s", ss->bw ? "bw" : "iops", ss->by_slope ? "_slope" : "",
		 (double)(float)ss->limit, ss->pct ? "%" : "");
}
