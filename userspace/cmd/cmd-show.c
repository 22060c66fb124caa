// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload show NAME: print the results of any job from debugfs, in the
 * same format as `ssdload run` (also jobs set up by hand with mkdir/echo).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uapi/ssdload.h"
#include "cmd/builtin.h"
#include "core/configfs.h"
#include "core/latstudy.h"
#include "core/options.h"
#include "fio/report.h"
#include "core/results.h"
#include "core/util.h"

static const char *const show_usage[] = {
	"usage: ssdload show NAME [--output-format=normal|json] [--percentile_list=L]",
	"                         [--group_reporting] [--latency-table[=L]]",
	"                         [--latency-below=T[,T]] [--latency-check=C[,C]]",
	"",
	"Print the results of job NAME from the debugfs tree (while it runs: so far).",
	"The job's settings are read from configfs when the job still exists there.",
	"A numjobs > 1 job gives one JSON entry per worker, or one with --group_reporting.",
	"The --latency-* options are run's (ssdload run --help); with --latency-check",
	"the exit status is 1 when a condition is not met.",
	NULL,
};

enum {
	S_OUTPUT_FORMAT, S_PERCENTILE_LIST, S_GROUP_REPORTING, S_LATENCY_TABLE,
	S_LATENCY_BELOW, S_LATENCY_CHECK,
};

static const struct ssl_opt show_opts[] = {
	{ "output-format",	SSL_ARG_REQUIRED, S_OUTPUT_FORMAT },
	{ "percentile_list",	SSL_ARG_REQUIRED, S_PERCENTILE_LIST },
	{ "group_reporting",	SSL_ARG_FLAG, S_GROUP_REPORTING },
	{ "latency-table",	SSL_ARG_FLAG, S_LATENCY_TABLE },
	{ "latency-below",	SSL_ARG_REQUIRED, S_LATENCY_BELOW },
	{ "latency-check",	SSL_ARG_REQUIRED, S_LATENCY_CHECK },
	{ NULL, 0, 0 },
};

/* configfs attribute -> fio option name for "job options" */
static const struct {
	const char *attr;
	const char *opt;
	const char *unit;	/* appended to the value */
} show_attrs[] = {
	{ SSDLOAD_ATTR_FILENAME, "filename", "" },
	{ SSDLOAD_ATTR_RW, "rw", "" },
	{ SSDLOAD_ATTR_RWMIXREAD, "rwmixread", "" },
	{ SSDLOAD_ATTR_BS, "bs", "" },
	{ SSDLOAD_ATTR_IODEPTH, "iodepth", "" },
	{ SSDLOAD_ATTR_CPUS_ALLOWED, "cpus_allowed", "" },
	{ SSDLOAD_ATTR_OFFSET, "offset", "" },
	{ SSDLOAD_ATTR_SIZE, "size", "" },
	{ SSDLOAD_ATTR_RUNTIME_MS, "runtime", "ms" },
	{ SSDLOAD_ATTR_RAMP_MS, "ramp_time", "ms" },
	{ SSDLOAD_ATTR_NUMBER_IOS, "number_ios", "" },
	{ SSDLOAD_ATTR_RANDSEED, "randseed", "" },
	{ SSDLOAD_ATTR_ALLOW_WRITE, "allow_write", "" },
	{ SSDLOAD_ATTR_HIPRI, "hipri", "" },
	{ SSDLOAD_ATTR_DISABLE_LAT, "disable_lat", "" },
	{ SSDLOAD_ATTR_IO_TIMEOUT_MS, "io_timeout_ms", "" },
	{ SSDLOAD_ATTR_SCRAMBLE_BUFFERS, "scramble_buffers", "" },
	{ SSDLOAD_ATTR_NUMJOBS, "numjobs", "" },
	{ SSDLOAD_ATTR_BSSPLIT, "bssplit", "" },
	{ SSDLOAD_ATTR_BSRANGE, "bsrange", "" },
	{ SSDLOAD_ATTR_BLOCKALIGN, "blockalign", "" },
	{ SSDLOAD_ATTR_RANDOM_DISTRIBUTION, "random_distribution", "" },
	{ SSDLOAD_ATTR_RANDOM_SCATTER, "random_scatter", "" },
	{ SSDLOAD_ATTR_BUFFER_COMPRESS_PERCENTAGE, "buffer_compress_percentage", "" },
	{ SSDLOAD_ATTR_BUFFER_COMPRESS_CHUNK, "buffer_compress_chunk", "" },
	{ SSDLOAD_ATTR_DEDUPE_PERCENTAGE, "dedupe_percentage", "" },
	{ SSDLOAD_ATTR_BUFFER_PATTERN, "buffer_pattern", "" },
	{ SSDLOAD_ATTR_ZERO_BUFFERS, "zero_buffers", "" },
	{ SSDLOAD_ATTR_REFILL_BUFFERS, "refill_buffers", "" },
	{ SSDLOAD_ATTR_FILE_SERVICE_TYPE, "file_service_type", "" },
	{ SSDLOAD_ATTR_RATE_IOPS, "rate_iops", "" },
	{ SSDLOAD_ATTR_RATE, "rate", "" },
	{ SSDLOAD_ATTR_RATE_PROCESS, "rate_process", "" },
	{ SSDLOAD_ATTR_LOG_INTERVAL_MS, "log_interval_ms", "" },
	{ SSDLOAD_ATTR_LOG_HIST, "log_hist", "" },
	{ SSDLOAD_ATTR_SHARED, "shared", "" },
	{ SSDLOAD_ATTR_GROUP, "group", "" },
};

#define NR_SHOW_ATTRS	ARRAY_SIZE(show_attrs)

/* what to print, from the command line */
struct show_args {
	const char *name;
	unsigned int fmt;		/* enum ssl_output_format, a set */
	double plist[SSL_MAX_PERCENTILES];
	int np;
	int group;			/* --group_reporting */
	struct ssl_latstudy *lat;	/* --latency-table, -below, -check */
};

/* The command line into @a: 0, 1 after --help, or -1 with a message. */
static int show_parse(int argc, const char **argv, struct show_args *a)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, dashdash = 0, r;

	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, show_opts, &opt, &val, &dashdash);
		if (r < 0)
			return -1;
		if (r == 2) {
			ssl_usage(stdout, show_usage);
			return 1;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			if (a->name) {
				ssl_err("show: one job name only ('%s' and '%s')", a->name,
					argv[i - 1]);
				return -1;
			}
			a->name = argv[i - 1];
			continue;
		}
		if (opt->id == S_OUTPUT_FORMAT && ssl_parse_output_format(val, &a->fmt)) {
			ssl_err("--output-format=%s: must be normal, json or json+, or a comma list of them",
				val);
			return -1;
		}
		if (opt->id == S_GROUP_REPORTING &&
		    ((val && ssl_parse_bool(val, &a->group)) || (!val && !(a->group = 1)))) {
			ssl_err("--group_reporting=%s: must be 0 or 1", val);
			return -1;
		}
		if (opt->id == S_PERCENTILE_LIST &&
		    ssl_parse_percentiles(val, a->plist, SSL_MAX_PERCENTILES, &a->np)) {
			ssl_err("--percentile_list=%s: must be values in (0,100] separated by ':'",
				val);
			return -1;
		}
		if (opt->id >= S_LATENCY_TABLE && ssl_latstudy_opt(a->lat, opt->name, val))
			return -1;
	}
	return 0;
}

/*
 * fio's "job options" of job @name: its name, then the attributes it has
 * in configfs (none once it is removed), into @opts (their values in
 * @vals); the number of options.  Its iodepth goes to @iodepth.
 */
static int show_job_options(const char *name, struct ssl_job_option *opts,
			    char (*vals)[1200], uint64_t *iodepth)
{
	int nopts = 0;
	size_t a;

	opts[nopts].key = "name";
	opts[nopts++].val = name;
	if (!cfs_job_exists(name))
		return nopts;
	for (a = 0; a < NR_SHOW_ATTRS; a++) {
		char buf[1100];	/* a 512-byte buffer_pattern in hex */

		if (cfs_read(name, show_attrs[a].attr, buf, sizeof(buf)) || !buf[0])
			continue;
		snprintf(vals[a], sizeof(vals[a]), "%s%s", buf, show_attrs[a].unit);
		opts[nopts].key = show_attrs[a].opt;
		opts[nopts++].val = vals[a];
		if (!strcmp(show_attrs[a].attr, SSDLOAD_ATTR_IODEPTH))
			ssl_parse_u64(buf, iodepth);
	}
	return nopts;
}

int cmd_show(int argc, const char **argv)
{
	static char vals[NR_SHOW_ATTRS][1200];
	struct ssl_job_option opts[NR_SHOW_ATTRS + 1] = { { 0 } };
	static struct ssl_latstudy lat;
	struct show_args a = { .fmt = SSL_OUTPUT_NORMAL, .lat = &lat };
	struct ssl_results res;
	int r, nopts, status;
	uint64_t iodepth = 0;

	r = show_parse(argc, argv, &a);
	if (r)
		return r < 0 ? 1 : 0;
	if (!a.name) {
		ssl_usage(stderr, show_usage);
		return 1;
	}
	if (!*a.name || strchr(a.name, '/') || !strcmp(a.name, ".") || !strcmp(a.name, "..")) {
		ssl_err("show: '%s' is not a job name", a.name);
		return 1;
	}
	if (!a.np) {
		memcpy(a.plist, ssl_default_percentiles,
		       sizeof(double) * (size_t)ssl_default_percentiles_nr);
		a.np = ssl_default_percentiles_nr;
	}

	nopts = show_job_options(a.name, opts, vals, &iodepth);
	if (results_read(a.name, &res))
		return 1;
	{
		struct ssl_report rep = {
			.name = a.name,
			.pid = 0,
			.when = time(NULL),
			.sum = &res.sum,
			.hist = res.hist,
			.ihist = res.ihist,
			.shist = &res.shist,
			.verify = &res.verify,
			.series = &res.series,
			.steps = &res.steps,
			.plist = a.plist,
			.np = a.np,
			.opts = opts,
			.nopts = nopts,
			.iodepth = iodepth,
			.group_reporting = a.group,
			.lat = ssl_latstudy_wanted(&lat) ? &lat : NULL,
		};

		status = report_print(stdout, &rep, a.fmt) ? 1 : 0;
		if (status)
			ssl_err("out of memory while printing the report");
		else if (!ssl_latstudy_verdict(a.fmt & SSL_OUTPUT_ANY_JSON ? stderr : stdout,
					       &lat, &res.sum, res.hist))
			status = 1;
	}
	results_free(&res);
	return status;
}
