/* SPDX-License-Identifier: GPL-2.0 */
/* The commands of ssdload, one file each (cmd-<name>.c). */
#ifndef SSDLOAD_CLI_BUILTIN_H
#define SSDLOAD_CLI_BUILTIN_H

#include <stdio.h>

#include "core/util.h"	/* ssl_usage(), SSL_EXIT_SIGNAL(), for every command */

int cmd_run(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_show(int argc, const char **argv);
int cmd_stop(int argc, const char **argv);
int cmd_start(int argc, const char **argv);
int cmd_pts(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_sweep(int argc, const char **argv);
int cmd_scale(int argc, const char **argv);
int cmd_curve(int argc, const char **argv);
int cmd_latency_grid(int argc, const char **argv);
int cmd_compare(int argc, const char **argv);
int cmd_profiles(int argc, const char **argv);
int cmd_precondition(int argc, const char **argv);
int cmd_review(int argc, const char **argv);
int cmd_merge(int argc, const char **argv);
int cmd_trace_info(int argc, const char **argv);
int cmd_profile(int argc, const char **argv);
int cmd_capture(int argc, const char **argv);

/* The function of command @name in ssdload.c's table, or NULL (review's steps) */
int (*ssl_cmd_find(const char *name))(int argc, const char **argv);

#endif /* SSDLOAD_CLI_BUILTIN_H */
