/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The least-squares line through equally spaced samples, shared by the
 * steady-state rules of SNIA's PTS (pts/ss.c) and of fio
 * (fio/steadystate.c).
 */
#ifndef SSDLOAD_CLI_LINFIT_H
#define SSDLOAD_CLI_LINFIT_H

#include <stddef.h>

/* y = slope * x + intercept through (x0 + i, y[i]), i = 0 .. n-1 */
struct ssl_linfit {
	long double avg;		/* mean of y */
	long double slope;		/* change of y per step of x */
	long double intercept;		/* y at x = 0 */
};

/*
 * Fit the @n >= 2 values @y, sample i being at x = @x0 + i.  Sums are in
 * long double, with x centred on the window's middle, so that no large
 * terms cancel.
 */
void ssl_linfit(const double *y, size_t n, long double x0, struct ssl_linfit *fit);

#endif /* SSDLOAD_CLI_LINFIT_H */
