/* SPDX-License-Identifier: GPL-2.0 */
/* The commands of ssdload, one file each (cmd-<name>.c). */
#ifndef SSDLOAD_CLI_BUILTIN_H
#define SSDLOAD_CLI_BUILTIN_H

#include <stdio.h>

int cmd_run(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_show(int argc, const char **argv);
int cmd_stop(int argc, const char **argv);

/* Print a NULL-terminated array of usage lines. */
void ssl_usage(FILE *f, const char *const *lines);

/* exit status for a run ended by SIGINT/SIGTERM, like a shell's */
#define SSL_EXIT_INTERRUPTED	130

#endif /* SSDLOAD_CLI_BUILTIN_H */
