/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio 3.33's steady-state detection (steadystate=, steadystate_duration=,
 * steadystate_ramp_time=; fio's steadystate.c), as pure functions: the
 * criterion parsed, then one sample per second of the job's IOPS and
 * bandwidth, judged over the last ss_dur samples.  The job stops at the
 * first sample whose window meets the criterion.  See Documentation/cli.rst
 * ("Steady state, fio's rule") for how it differs from SNIA's (pts/ss.c).
 */
#ifndef SSDLOAD_CLI_FIO_STEADYSTATE_H
#define SSDLOAD_CLI_FIO_STEADYSTATE_H

#include <stddef.h>
#include <stdint.h>

/* fio's default criterion (fio --cmdhelp=steadystate) */
#define SSL_FIO_SS_DEFAULT	"iops_slope:0.01%"

struct ssl_fio_ss {
	/* the criterion: steadystate=METRIC:LIMIT */
	int bw;			/* bw or bw_slope (else iops, iops_slope) */
	int by_slope;		/* *_slope: the window's slope (else max deviation) */
	int pct;		/* LIMIT ends in %: a percentage of the mean */
	double limit;		/* IOPS, bytes/s (per s for a slope), or % */
	unsigned int dur;	/* steadystate_duration: samples in the window (s) */
	uint64_t ramp_ms;	/* steadystate_ramp_time: no samples before it */

	/* the samples: the last dur of them, a ring whose oldest is at head */
	uint64_t *iops, *bws;	/* I/Os and bytes of each second */
	double *scratch;	/* the window in time order, for the fit */
	unsigned int head;
	uint64_t nr;		/* samples taken so far */
	int attained;		/* the criterion was met: the job was stopped */
	uint64_t attained_s;	/* the run's second at which it was */

	/* the last window judged, as fio's JSON reports them */
	double criterion;	/* slope or deviation, in % of the mean if pct */
	double slope;		/* per second; 0 when judging the deviation */
	double deviation;	/* max |y - mean|; 0 when judging the slope */
};

/*
 * Parse fio's steadystate=METRIC:LIMIT into @ss (criterion only): METRIC
 * is iops, iops_slope, bw or bw_slope; LIMIT is a number with % (of the
 * mean), or an absolute value: IOPS, or for bw bytes/s with fio's size
 * suffixes.  0, or -1 with @why set.
 */
int ssl_fio_ss_parse(const char *spec, struct ssl_fio_ss *ss, char *why, size_t wlen);

/* Allocate the window of ss->dur (>= 1) samples: 0 or -ENOMEM. */
int ssl_fio_ss_start(struct ssl_fio_ss *ss);
void ssl_fio_ss_free(struct ssl_fio_ss *ss);

/*
 * Add the sample of second @at_s of the run (@ios I/Os and @bytes bytes
 * done in it) and judge the window once it is full.  Returns 1 when the
 * criterion is met (ss->attained is set; later samples are ignored), else
 * 0.  fio's arithmetic: a slope is the least-squares slope of the window
 * against x = 0..dur-1, in % of the window's mean truncated to an integer
 * (fio divides integers there); a deviation is the largest |y - mean|, in
 * % of the exact mean; "met" is |criterion| < limit, strictly.  A window
 * whose mean is 0 never meets a % limit.
 */
int ssl_fio_ss_add(struct ssl_fio_ss *ss, uint64_t ios, uint64_t bytes, uint64_t at_s);

/*
 * The window as fio's JSON lists it (data.iops, data.bw): the last dur
 * samples, oldest first, zeros after them while fewer were taken.
 */
void ssl_fio_ss_window(const struct ssl_fio_ss *ss, uint64_t *iops, uint64_t *bws);

/* fio's data.iops_mean and data.bw_mean: the window's sum / dur, integers */
uint64_t ssl_fio_ss_mean(const struct ssl_fio_ss *ss, int bw);

/* fio's "ss" key: "iops_slope:0.010000%" (the limit as a C float) */
void ssl_fio_ss_spec(const struct ssl_fio_ss *ss, char *buf, size_t len);

#endif /* SSDLOAD_CLI_FIO_STEADYSTATE_H */
