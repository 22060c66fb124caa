/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report renderer (ssdload-report.py, in Python): it turns the JSON
 * document of any method (pts, sweep, scale, curve, compare, ...) in a
 * directory into its HTML report, plots and CSV tables.
 */
#ifndef SSDLOAD_CLI_RENDER_H
#define SSDLOAD_CLI_RENDER_H

#include <stddef.h>

/* Path of the report renderer (ssdload-report.py) in @buf; 0 or -1. */
int ssl_report_script(char *buf, size_t len);

/*
 * Render the result document in @dir (pts.json, sweep.json, ...) into
 * DIR/report.html, DIR/plots and CSV tables with the report renderer;
 * @quiet drops its stdout.  Returns its exit status (-1: could not run it).
 */
int ssl_render_report(const char *dir, int quiet);

#endif /* SSDLOAD_CLI_RENDER_H */
