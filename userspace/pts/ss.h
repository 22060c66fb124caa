/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steady-state rule of the SNIA Solid State Storage Performance Test
 * Specification (SSS PTS 2.0.2, definition 2.1.24), as pure functions (no
 * I/O): evaluate one measurement window of a tracking variable, or scan a
 * series round by round.  See Documentation/pts.rst.
 */
#ifndef SSDLOAD_CLI_SS_H
#define SSDLOAD_CLI_SS_H

#include <stdbool.h>
#include <stddef.h>

#define SSL_SS_SPEC_VERSION	"2.0.2"
#define SSL_SS_SPEC		"SNIA SSS PTS " SSL_SS_SPEC_VERSION
#define SSL_SS_CLAUSE		"2.1.24"

/* the specification's values */
#define SSL_SS_WINDOW		5	/* rounds in a measurement window */
#define SSL_SS_MAX_ROUNDS	25	/* the test stops at round 25 at the latest */
#define SSL_SS_RANGE_PCT	20.0	/* max(y) - min(y) at most 20% of avg(y) */
#define SSL_SS_SLOPE_PCT	10.0	/* slope excursion at most 10% of avg(y) */

/*
 * Both comparisons are "<=" with a tolerance of SSL_SS_EPSILON times the
 * window's average, so that a window exactly on a limit passes even when
 * its decimal values are not exact in binary (0.9, 1.1, 1, 1, 1: a range of
 * 20% that computes as 20.00000000000001%).  Input parsed from decimals
 * and sums in long double are off by about 1e-16 of the values, far below
 * the tolerance; a window more than 1e-9 of its average past a limit fails.
 */
#define SSL_SS_EPSILON		1e-9L

struct ssl_ss_limits {
	unsigned int window;		/* rounds in the measurement window, >= 2 */
	unsigned int max_rounds;	/* last round that may reach steady state */
	double range_pct;		/* limit of the range, % of the average */
	double slope_pct;		/* limit of the slope excursion, % of the average */
};

/* One measurement window: rounds first..last, y = the tracking variable. */
struct ssl_ss_window {
	unsigned int first;		/* first round (rounds count from 1) */
	unsigned int last;		/* last round, first + window - 1 */
	long double avg;		/* average of y */
	long double min, max;		/* extremes of y */
	long double range;		/* max - min */
	long double range_pct;		/* range, % of avg (NaN if avg is 0) */
	long double slope;		/* least-squares fit y = slope * round + intercept */
	long double intercept;
	long double slope_exc;		/* |slope| * (window - 1): max - min of the fit */
	long double slope_exc_pct;	/* slope_exc, % of avg (NaN if avg is 0) */
	bool range_ok;			/* range <= range_pct% of avg */
	bool slope_ok;			/* slope_exc <= slope_pct% of avg */
};

/* The specification's limits: a window of 5, 25 rounds, 20% and 10%. */
void ssl_ss_limits_default(struct ssl_ss_limits *l);

/*
 * Evaluate the window of @n >= 2 values @y, which are rounds
 * @first..@first+@n-1.  A window whose average is 0 (all values 0) passes
 * neither criterion: its percentages are undefined.
 */
void ssl_ss_eval(const double *y, unsigned int n, unsigned int first,
		 const struct ssl_ss_limits *l, struct ssl_ss_window *w);

static inline bool ssl_ss_steady(const struct ssl_ss_window *w)
{
	return w->range_ok && w->slope_ok;
}

/*
 * Scan the series @y[0..@n-1] (round k is @y[k-1]) as the test does: after
 * each round R >= window, evaluate the window R-window+1..R; stop at the
 * first one that passes, and never look past round max_rounds.  Returns
 * that round R, or 0 if none passes; *@w is then the last window evaluated
 * (the one the report uses), ending at round min(@n, max_rounds).
 * @n and l->max_rounds must be at least l->window.  @fn, if not NULL, is
 * called for every window evaluated, in order.
 */
unsigned int ssl_ss_scan(const double *y, size_t n, const struct ssl_ss_limits *l,
			 struct ssl_ss_window *w,
			 void (*fn)(const struct ssl_ss_window *w, void *arg), void *arg);

/*
 * ssl_ss_scan() of @nvar series at once, @y[v][0..@n-1] for variable v:
 * the first round R whose window passes for every variable (a test that
 * tracks several variables, as the IOPS test does).  Returns R, or 0;
 * @w[v] is then variable v's window at R, else its last window evaluated.
 * @fn, if not NULL, gets every window, variable by variable, round by
 * round.  ssl_ss_scan(y, ...) is ssl_ss_scan_all(&y, 1, ...).
 */
unsigned int ssl_ss_scan_all(const double *const *y, unsigned int nvar, size_t n,
			     const struct ssl_ss_limits *l, struct ssl_ss_window *w,
			     void (*fn)(const struct ssl_ss_window *w, void *arg), void *arg);

/* Where a measurement window of --window=K rounds lies (--window-at). */
enum ssl_window_at {
	SSL_WINDOW_AT_STEADY,	/* the K rounds ending where steady state was reached */
	SSL_WINDOW_AT_LAST,	/* the last K rounds run */
};

/* "steady" or "last" into *@at: 0, or -1 if @s is neither. */
int ssl_ss_window_at_parse(const char *s, enum ssl_window_at *at);

/*
 * The rounds @first..@last that the results average, of @rounds_run rounds
 * run with steady state reached at round @steady_round (0: not reached),
 * for a window of @k rounds at @at.  At steady state, the K rounds ending
 * at @steady_round (the first K rounds if fewer precede it); without
 * steady state, and at the last rounds, the last K rounds run.  Returns 0,
 * or -1 if @k is 0 or more than @rounds_run, or @steady_round is past it.
 */
int ssl_ss_window_rounds(unsigned int steady_round, unsigned int rounds_run, unsigned int k,
			 enum ssl_window_at at, unsigned int *first, unsigned int *last);

#endif /* SSDLOAD_CLI_SS_H */
