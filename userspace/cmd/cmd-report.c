// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload report DIR: render DIR/pts.json (a pts run), DIR/sweep.json (a
 * sweep), DIR/curve.json (an iorate curve), DIR/compare.json (a comparison),
 * DIR/scale.json (drive and RAID scaling), DIR/latency-grid.json (the QD 1
 * latency grid) or DIR/run.json (a plain run's
 * latency study) into DIR/report.html, its
 * SVG plots (DIR/plots/) and CSV tables, from the JSON alone, with the
 * matplotlib renderer ssdload-report.py.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/builtin.h"
#include "methods/render.h"
#include "pts/pts.h"
#include "core/util.h"

static const char *const report_usage[] = {
	"usage: ssdload report DIR",
	"",
	"Render the report of the pts run, the sweep, the curve, the comparison,",
	"the scaling run, the latency grid or the plain run in DIR from",
	"DIR/pts.json, sweep.json, curve.json, compare.json, scale.json,",
	"latency-grid.json or run.json alone (the first found):",
	"DIR/report.html with its SVG plots in DIR/plots/, and CSV tables next to",
	"the JSON (pts: rounds.csv, points.csv, measurement.csv; sweep: sweep.csv,",
	"sweep-series.csv; curve: curve.csv; compare: compare.csv; scale:",
	"scale.csv; latency grid: latency-grid.csv; run: run.csv,",
	"latency.csv, latency-below.csv, latency-check.csv, run-bins.csv).",
	"run.json is what 'ssdload run --output-format=json+ --output=DIR/run.json'",
	"writes (json without the + works: no bins), with --latency-table,",
	"--latency-below and --latency-check for the latency study: a latency",
	"histogram, the percentiles on a scale of nines, the percentile table with",
	"the I/Os behind each row, the shares below, the verdicts.  The renderer is",
	"ssdload-report.py (next to the ssdload binary, or $SSDLOAD_REPORT), run",
	"by $SSDLOAD_PYTHON (default /usr/bin/python3, with python3-matplotlib).",
	"",
	"Exit status: 0 rendered, 2 bad usage or input, other: the renderer failed.",
	NULL,
};

int cmd_report(int argc, const char **argv)
{
	int r;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		ssl_usage(stdout, report_usage);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		ssl_usage(stderr, report_usage);
		return PTS_EXIT_USAGE;
	}
	if (ssl_dir_check("report", argv[1]))
		return PTS_EXIT_USAGE;
	r = ssl_render_report(argv[1], 0);
	if (r < 0)
		return PTS_EXIT_FAILED;
	if (!r)
		printf("%s/report.html\n", argv[1]);
	return r;
}
