// SPDX-License-Identifier: GPL-2.0
/*
 * The steady-state rule of SNIA SSS PTS 2.0.2 (2.1.24), as pure functions.
 *
 * For the tracking variable y over a measurement window of n rounds:
 *   a) range:  max(y) - min(y)                   <= range_pct% of avg(y)
 *   b) slope:  |slope| * (n - 1)                  <= slope_pct% of avg(y)
 * where slope is that of the least-squares line of y against the round
 * number; |slope| * (n - 1) is the line's max - min over the window (the
 * spec's "slope excursion").  The line is core/linfit.c's (shared with
 * fio's rule, fio/steadystate.c); each "<=" allows SSL_SS_EPSILON of the
 * average (see ss.h).
 */
#include <math.h>
#include <string.h>

#include "core/linfit.h"
#include "pts/ss.h"

void ssl_ss_limits_default(struct ssl_ss_limits *l)
{
	l->window = SSL_SS_WINDOW;
	l->max_rounds = SSL_SS_MAX_ROUNDS;
	l->range_pct = SSL_SS_RANGE_PCT;
	l->slope_pct = SSL_SS_SLOPE_PCT;
}

/* @v <= @pct% of @avg, with the tolerance of ss.h; never for avg 0 */
static bool within(long double v, double pct, long double avg)
{
	if (avg <= 0)
		return false;
	return v <= avg * ((long double)pct / 100 + SSL_SS_EPSILON);
}

void ssl_ss_eval(const double *y, unsigned int n, unsigned int first,
		 const struct ssl_ss_limits *l, struct ssl_ss_window *w)
{
	struct ssl_linfit fit;
	unsigned int i;

	w->first = first;
	w->last = first + n - 1;
	w->min = w->max = y[0];
	for (i = 0; i < n; i++) {
		if (y[i] < w->min)
			w->min = y[i];
		if (y[i] > w->max)
			w->max = y[i];
	}
	w->range = w->max - w->min;

	/* the least-squares line of y against the round number */
	ssl_linfit(y, n, first, &fit);
	w->avg = fit.avg;
	w->slope = fit.slope;
	w->intercept = fit.intercept;
	w->slope_exc = fabsl(w->slope) * (n - 1);

	if (w->avg > 0) {
		w->range_pct = w->range / w->avg * 100;
		w->slope_exc_pct = w->slope_exc / w->avg * 100;
	} else {
		w->range_pct = NAN;
		w->slope_exc_pct = NAN;
	}
	w->range_ok = within(w->range, l->range_pct, w->avg);
	w->slope_ok = within(w->slope_exc, l->slope_pct, w->avg);
}

unsigned int ssl_ss_scan(const double *y, size_t n, const struct ssl_ss_limits *l,
			 struct ssl_ss_window *w,
			 void (*fn)(const struct ssl_ss_window *w, void *arg), void *arg)
{
	return ssl_ss_scan_all(&y, 1, n, l, w, fn, arg);
}

unsigned int ssl_ss_scan_all(const double *const *y, unsigned int nvar, size_t n,
			     const struct ssl_ss_limits *l, struct ssl_ss_window *w,
			     void (*fn)(const struct ssl_ss_window *w, void *arg), void *arg)
{
	size_t last = n < l->max_rounds ? n : l->max_rounds;
	unsigned int v;
	bool steady;
	size_t r;

	for (r = l->window; r <= last; r++) {
		steady = true;
		for (v = 0; v < nvar; v++) {
			ssl_ss_eval(y[v] + r - l->window, l->window, r - l->window + 1, l, &w[v]);
			if (fn)
				fn(&w[v], arg);
			steady = steady && ssl_ss_steady(&w[v]);
		}
		if (steady)
			return r;
	}
	return 0;
}

int ssl_ss_window_rounds(unsigned int steady_round, unsigned int rounds_run, unsigned int k,
			 enum ssl_window_at at, unsigned int *first, unsigned int *last)
{
	unsigned int end = rounds_run;

	if (!k || k > rounds_run || steady_round > rounds_run)
		return -1;
	if (at == SSL_WINDOW_AT_STEADY && steady_round)
		end = steady_round < k ? k : steady_round;
	*first = end - k + 1;
	*last = end;
	return 0;
}

int ssl_ss_window_at_parse(const char *s, enum ssl_window_at *at)
{
	if (!strcmp(s, "steady"))
		*at = SSL_WINDOW_AT_STEADY;
	else if (!strcmp(s, "last"))
		*at = SSL_WINDOW_AT_LAST;
	else
		return -1;
	return 0;
}
