// SPDX-License-Identifier: GPL-2.0
/*
 * Reports in fio's two main formats.  The normal text follows fio 3.x's
 * per-job block (report-text.c); the JSON follows fio's schema (key names
 * and types), so tools that read fio's --output-format=json read ours
 * (report-json.c).  Both print from the views of report-view.c.
 */
#include <stdio.h>

#include "core/util.h"
#include "fio/report-view.h"

const double ssl_default_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0,
	95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};
const int ssl_default_percentiles_nr = ARRAY_SIZE(ssl_default_percentiles);

int report_print(FILE *f, const struct ssl_report *r, unsigned int fmt)
{
	struct dir_view v[SSDLOAD_DIR_NR], iv[SSDLOAD_DIR_NR];
	struct ssl_report rj = *r;

	if (rep_views(r, v, iv))
		return -1;
	rj.bins = !!(fmt & SSL_OUTPUT_JSON_PLUS);
	if ((fmt & SSL_OUTPUT_ANY_JSON) && rep_print_json(f, &rj, v))
		return -1;
	if (fmt & SSL_OUTPUT_NORMAL)
		rep_print_normal(f, r, v);
	return 0;
}
