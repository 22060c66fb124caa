// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload run's steady-state detection, fio's steadystate= (ss),
 * steadystate_duration= (ss_dur) and steadystate_ramp_time= (ss_ramp).
 *
 * The samples come from the kernel's time series (log_interval_ms, 1 s
 * unless given as a divisor of it): each second of the run, the I/Os and
 * bytes of all workers and directions, read from the series once every
 * worker closed it.  fio/steadystate.c judges them; the caller stops the
 * job, as a signal does, at the first steady window.  Without steady
 * state the job runs to its runtime, as fio's.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/run.h"
#include "core/options.h"
#include "core/results.h"
#include "fio/steadystate.h"

#define SS_SAMPLE_MS	1000ULL		/* fio samples once a second */
#define SS_DUR_MAX_S	(7ULL * 86400)	/* a window of at most a week */

/* the options given, bar steadystate itself, when ss_dur is 0 */
static void ss_off_note(const struct run_ctx *c)
{
	static const int ids[] = { O_STEADYSTATE, O_SS_DUR, O_SS_RAMP };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ids); i++)
		if (c->raw[ids[i]])
			run_opt_note(c, ids[i], ": ", "no steady-state detection without "
				     "steadystate_duration (as fio)");
}

/* the series' interval: 1 s, or the one given if it divides 1 s */
static int ss_series_opt(struct run_ctx *c)
{
	uint64_t ms;

	if (!c->raw[O_LOG_INTERVAL_MS]) {
		c->raw[O_LOG_INTERVAL_MS] = "1000";
		c->raw_name[O_LOG_INTERVAL_MS] = "log_interval_ms";
		return 0;
	}
	if (ssl_parse_time_ms(c->raw[O_LOG_INTERVAL_MS], 1, &ms))
		return 0;	/* rate_series_opts() refuses it */
	if (!ms || SS_SAMPLE_MS % ms)
		return bad_value(c, O_LOG_INTERVAL_MS, "steadystate samples each second "
				 "of the time series: give a divisor of 1000 ms");
	return 0;
}

int run_ss_opts(struct run_ctx *c)
{
	uint64_t dur_ms = 0, ramp_ms = 0, job_ramp_ms = 0;
	char why[256];

	memset(&c->ss, 0, sizeof(c->ss));
	if (!c->raw[O_STEADYSTATE] && !c->raw[O_SS_DUR] && !c->raw[O_SS_RAMP])
		return 0;
	if (ssl_fio_ss_parse(c->raw[O_STEADYSTATE] ? c->raw[O_STEADYSTATE] :
			     SSL_FIO_SS_DEFAULT, &c->ss, why, sizeof(why)))
		return bad_value(c, O_STEADYSTATE, why);
	if (c->raw[O_SS_DUR] && ssl_parse_time_ms(c->raw[O_SS_DUR], 1000, &dur_ms))
		return bad_value(c, O_SS_DUR, "not a time (seconds, or with ms/s/m/h suffix)");
	if (dur_ms % SS_SAMPLE_MS || dur_ms / SS_SAMPLE_MS > SS_DUR_MAX_S)
		return bad_value(c, O_SS_DUR, "must be whole seconds, up to a week (fio "
				 "takes one sample a second)");
	if (c->raw[O_SS_RAMP] && ssl_parse_time_ms(c->raw[O_SS_RAMP], 1000, &ramp_ms))
		return bad_value(c, O_SS_RAMP, "not a time (seconds, or with ms/s/m/h suffix)");
	if (!dur_ms) {
		ss_off_note(c);
		return 0;
	}
	if (c->nsrc)
		return bad_value(c, O_SS_DUR, "not with steps: each step has its own end");
	if (!c->raw[O_RUNTIME])
		return bad_value(c, O_SS_DUR, "needs a timed run (the time series is "
				 "sized by it): give runtime, which the job runs to unless "
				 "it is steady earlier, as in fio");
	c->ss.dur = (unsigned int)(dur_ms / SS_SAMPLE_MS);
	c->ss.ramp_ms = ramp_ms;
	/* the job's own ramp_time has no measured I/O: no sample in it */
	if (c->raw[O_RAMP_TIME])
		ssl_parse_time_ms(c->raw[O_RAMP_TIME], 1000, &job_ramp_ms);
	c->ss_ramp_ms = ramp_ms > job_ramp_ms ? ramp_ms : job_ramp_ms;
	c->ss_next_s = (c->ss_ramp_ms + SS_SAMPLE_MS - 1) / SS_SAMPLE_MS;
	return ss_series_opt(c);
}

/*
 * The seconds [c->ss_next_s, *end) that every worker has closed in @s,
 * their I/Os and bytes into @ios and @bytes (allocated, *end - ss_next_s
 * each).  A record counts in the second it starts in (its start_ns is an
 * interval's boundary or a little after); a second is closed once every
 * worker has a record that ends past it.  0, or -1 if none is new.
 */
static int ss_seconds(const struct run_ctx *c, const struct ssl_series *s, uint64_t *end,
		      uint64_t **ios, uint64_t **bytes)
{
	uint64_t ivl = s->hdr.interval_ns, sec_ns = SS_SAMPLE_MS * 1000000ULL;
	uint32_t nw = s->hdr.nr_workers, w;
	uint64_t *last, done = UINT64_MAX, i, k, n;
	int d;

	if (!nw || !ivl || sec_ns % ivl)
		return -1;
	last = calloc(nw, sizeof(*last));
	if (!last)
		return -1;
	for (i = 0; i < s->hdr.nr_records; i++)
		if (s->rec[i].worker < nw && s->rec[i].end_ns > last[s->rec[i].worker])
			last[s->rec[i].worker] = s->rec[i].end_ns;
	for (w = 0; w < nw; w++)
		if (last[w] / sec_ns < done)
			done = last[w] / sec_ns;
	free(last);
	if (done <= c->ss_next_s)
		return -1;
	n = done - c->ss_next_s;
	*ios = calloc(n, sizeof(**ios));
	*bytes = calloc(n, sizeof(**bytes));
	if (!*ios || !*bytes) {
		free(*ios);
		free(*bytes);
		return -1;
	}
	for (i = 0; i < s->hdr.nr_records; i++) {
		const struct ssl_series_rec *r = &s->rec[i];

		k = r->start_ns / sec_ns;	/* its second */
		if (k < c->ss_next_s || k >= done)
			continue;
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			(*ios)[k - c->ss_next_s] += r->dir[d].ios;
			(*bytes)[k - c->ss_next_s] += r->dir[d].bytes;
		}
	}
	*end = done;
	return 0;
}

int run_ss_poll(struct run_ctx *c)
{
	uint64_t *ios = NULL, *bytes = NULL, end = 0, k;
	struct ssl_series s;

	if (!c->ss.dur || c->ss.attained)
		return c->ss.attained;
	if (!c->ss.iops && ssl_fio_ss_start(&c->ss)) {
		ssl_err("steadystate: out of memory: no steady-state detection");
		c->ss.dur = 0;
		return 0;
	}
	if (results_read_series(c->name, &s))
		return 0;	/* none yet: the next poll tries again */
	if (!ss_seconds(c, &s, &end, &ios, &bytes)) {
		for (k = c->ss_next_s; k < end; k++)
			if (ssl_fio_ss_add(&c->ss, ios[k - c->ss_next_s],
					   bytes[k - c->ss_next_s], k + 1))
				break;
		c->ss_next_s = end;
		free(ios);
		free(bytes);
	}
	results_free_series(&s);
	return c->ss.attained;
}
