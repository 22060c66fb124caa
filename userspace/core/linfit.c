// SPDX-License-Identifier: GPL-2.0
/*
 * The least-squares line through equally spaced samples.
 *
 * With x centred on the window's middle xc = x0 + (n - 1) / 2:
 *   slope = sum((x - xc) * (y - avg)) / sum((x - xc)^2)
 * where the denominator is n (n^2 - 1) / 12, and the line passes through
 * (xc, avg).  This is the textbook (n sxy - sx sy) / (n sxx - sx^2) with
 * the large terms cancelled before they are formed.
 */
#include "core/linfit.h"

void ssl_linfit(const double *y, size_t n, long double x0, struct ssl_linfit *fit)
{
	long double sum = 0, sxy = 0, sxx, xc = (long double)(n - 1) / 2;
	size_t i;

	for (i = 0; i < n; i++)
		sum += y[i];
	fit->avg = sum / n;
	for (i = 0; i < n; i++)
		sxy += ((long double)i - xc) * (y[i] - fit->avg);
	sxx = (long double)n * ((long double)n * n - 1) / 12;
	fit->slope = sxy / sxx;
	fit->intercept = fit->avg - fit->slope * (x0 + xc);
}
