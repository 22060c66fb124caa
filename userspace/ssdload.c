// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: command-line front end of the ssdload.ko block-device load
 * generator.  A flat command table dispatches to cmd_<name>() (perf style).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd/builtin.h"
#include "core/util.h"

struct cmd_struct {
	const char *cmd;
	int (*fn)(int argc, const char **argv);
	const char *help;
};

static const struct cmd_struct commands[] = {
	{ "run",  cmd_run,  "run a job and print its results (fio options)" },
	{ "list", cmd_list, "list the configured jobs" },
	{ "show", cmd_show, "print the results of a job" },
	{ "stop", cmd_stop, "stop a running job" },
	{ "start", cmd_start, "launch the armed jobs of a group at one instant" },
	{ "pts",  cmd_pts,  "SNIA PTS tests: iops, throughput, latency, wsat, hir, xsr, ecw, dirth; purge; ss-check" },
	{ "sweep", cmd_sweep, "queue-depth x worker sweep as the steps of one job, with its report" },
	{ "scale", cmd_scale, "a workload on 1, 2, 4... drives and md RAID arrays: the scaling table" },
	{ "precondition", cmd_precondition, "write a whole device as --precondition=MODE says, before a method" },
	{ "curve", cmd_curve, "vdbench iorate curve: max, then open loop at fractions of it, with its report" },
	{ "latency-grid", cmd_latency_grid, "QD 1 latency of block sizes x R/W mixes (S3700 review), with its report" },
	{ "profiles", cmd_profiles, "list the shipped workload profiles (four corners, SQL, Oracle, VDI)" },
	{ "compare", cmd_compare, "runs of different drives or kernels side by side, curves overlaid" },
	{ "merge", cmd_merge, "the json+ results of many hosts as one result, percentiles exact" },
	{ "review", cmd_review, "a published review as one command: the steps of a plan, one report" },
	{ "trace-info", cmd_trace_info, "what a block trace holds: format, records, devices, duration, mix" },
	{ "capture", cmd_capture, "record the I/O on a block device with blktrace, for replay and profile" },
	{ "profile", cmd_profile, "summarise a block trace into a workload profile for run --profile" },
	{ "report", cmd_report, "render the HTML report of a pts, sweep, curve, compare, scale, latency grid or plain run from its JSON" },
};

static const char *const main_usage[] = {
	"usage: ssdload [--version] [--help] COMMAND [ARGS]",
	"",
	"The commands are:",
	NULL,
};

static const char *const main_usage_tail[] = {
	"",
	"See 'ssdload help COMMAND' or 'ssdload COMMAND --help' for a command's options.",
	"Environment: SSDLOAD_CONFIGFS (default /sys/kernel/config/ssdload),",
	"             SSDLOAD_DEBUGFS (default /sys/kernel/debug/ssdload).",
	NULL,
};

static void print_usage(FILE *f)
{
	size_t i, w = 0;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (strlen(commands[i].cmd) > w)
			w = strlen(commands[i].cmd);
	ssl_usage(f, main_usage);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "   %-*s %s\n", (int)w, commands[i].cmd, commands[i].help);
	ssl_usage(f, main_usage_tail);
}

static const struct cmd_struct *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].cmd, name))
			return &commands[i];
	return NULL;
}

int (*ssl_cmd_find(const char *name))(int argc, const char **argv)
{
	const struct cmd_struct *c = find_cmd(name);

	return c ? c->fn : NULL;
}

static int run_main(int argc, const char **argv)
{
	const struct cmd_struct *c;

	if (argc < 2) {
		print_usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && argc == 2)) {
		print_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("ssdload version %s\n", SSDLOAD_CLI_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		static const char *help_argv[] = { NULL, "--help", NULL };

		c = find_cmd(argv[2]);
		if (!c) {
			ssl_err("'%s' is not a command, see 'ssdload --help'", argv[2]);
			return 1;
		}
		help_argv[0] = c->cmd;
		return c->fn(2, help_argv);
	}
	c = find_cmd(argv[1]);
	if (!c) {
		ssl_err("'%s' is not a command, see 'ssdload --help'", argv[1]);
		return 1;
	}
	return c->fn(argc - 1, argv + 1);
}

int main(int argc, const char **argv)
{
	int status = run_main(argc, argv);

	/* a report that did not reach its reader is a failure (perf does this) */
	if (fflush(stdout) || ferror(stdout)) {
		ssl_err("write error on standard output: %s", strerror(errno));
		return status ? status : 1;
	}
	if (fclose(stdout)) {
		ssl_err("close of standard output failed: %s", strerror(errno));
		return status ? status : 1;
	}
	return status;
}
