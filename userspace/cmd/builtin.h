/* SPDX-License-Identifier: GPL-2.0 */
/* The commands of ssdload, one file each (cmd-<name>.c). */
#ifndef SSDLOAD_CLI_BUILTIN_H
#define SSDLOAD_CLI_BUILTIN_H

#include <stdio.h>

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
int cmd_compare(int argc, const char **argv);
int cmd_profiles(int argc, const char **argv);

/* Print a NULL-terminated array of usage lines. */
void ssl_usage(FILE *f, const char *const *lines);

/* exit status of a run ended by signal @sig, as a shell reports it */
#define SSL_EXIT_SIGNAL(sig)	(128 + (sig))

#endif /* SSDLOAD_CLI_BUILTIN_H */
