// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload run: create a configfs job from fio-named options, start it,
 * follow its progress, print the results and remove the job.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uapi/ssdload.h"
#include "builtin.h"
#include "configfs.h"
#include "options.h"
#include "report.h"
#include "results.h"
#include "util.h"

static const char *const run_usage[] = {
	"usage: ssdload run --filename=DEV [options]",
	"",
	"Options (fio's names; --opt=value or --opt value):",
	"  --name=NAME            job name (default ssdload-<pid>)",
	"  --filename=DEV         block device to drive (required)",
	"  --rw=MODE              read|write|randread|randwrite|rw|randrw (default read)",
	"  --bs=SIZE              block size, bytes or k/m/g (base 1024; default 4k)",
	"  --iodepth=N            I/Os in flight per worker (default 1)",
	"  --cpus_allowed=LIST    cpulist, one worker per CPU (default: lowest online CPU)",
	"  --numjobs=N            one worker on each of the first N online CPUs",
	"  --rwmixread=PCT        percent reads for rw/randrw (default 50)",
	"  --rwmixwrite=PCT       percent writes (= 100 - rwmixread)",
	"  --offset=SIZE          start of the span (default 0)",
	"  --size=SIZE            length of the span (default: to the end of the device)",
	"  --runtime=TIME         measured time; bare number = seconds, or ms/s/m/h",
	"  --ramp_time=TIME       warm-up excluded from the results (same units)",
	"  --number_ios=N         stop after N measured I/Os",
	"  --randseed=N           seed of the offset/mix generator",
	"  --allow_write[=0|1]    permit a job that writes (destroys data on DEV)",
	"  --hipri[=0|1]          polled completions (REQ_POLLED + bio_poll); falls back",
	"                         to interrupts when DEV has no poll queues",
	"  --disable_lat[=0|1]    no latency timestamps/histograms (counts stay exact)",
	"  --time_based           accepted for fio compatibility (runtime is time based)",
	"  --direct=1             accepted for fio compatibility (I/O is always direct)",
	"  --group_reporting      accepted for fio compatibility (one report per job)",
	"  --output-format=FMT    normal (default) or json (fio's schema)",
	"  --percentile_list=L    clat percentiles to report, e.g. 1:50:99.9",
	"  --parse-only           print the configfs attributes that would be written",
	"",
	"Without --runtime and --number_ios the job makes one pass over the span.",
	"Exit status: 0 done, 1 error, 130 interrupted (SIGINT/SIGTERM).",
	NULL,
};

enum run_opt_id {
	O_NAME, O_FILENAME, O_RW, O_BS, O_IODEPTH, O_CPUS_ALLOWED, O_NUMJOBS,
	O_RWMIXREAD, O_RWMIXWRITE, O_OFFSET, O_SIZE, O_RUNTIME, O_RAMP_TIME,
	O_NUMBER_IOS, O_RANDSEED, O_ALLOW_WRITE, O_HIPRI, O_DISABLE_LAT,
	O_TIME_BASED, O_DIRECT,
	O_GROUP_REPORTING, O_OUTPUT_FORMAT, O_PERCENTILE_LIST, O_PARSE_ONLY,
	O_NR
};

static const struct ssl_opt run_opts[] = {
	{ "name",		SSL_ARG_REQUIRED, O_NAME },
	{ "filename",		SSL_ARG_REQUIRED, O_FILENAME },
	{ "rw",			SSL_ARG_REQUIRED, O_RW },
	{ "readwrite",		SSL_ARG_REQUIRED, O_RW },
	{ "bs",			SSL_ARG_REQUIRED, O_BS },
	{ "blocksize",		SSL_ARG_REQUIRED, O_BS },
	{ "iodepth",		SSL_ARG_REQUIRED, O_IODEPTH },
	{ "cpus_allowed",	SSL_ARG_REQUIRED, O_CPUS_ALLOWED },
	{ "numjobs",		SSL_ARG_REQUIRED, O_NUMJOBS },
	{ "rwmixread",		SSL_ARG_REQUIRED, O_RWMIXREAD },
	{ "rwmixwrite",		SSL_ARG_REQUIRED, O_RWMIXWRITE },
	{ "offset",		SSL_ARG_REQUIRED, O_OFFSET },
	{ "size",		SSL_ARG_REQUIRED, O_SIZE },
	{ "runtime",		SSL_ARG_REQUIRED, O_RUNTIME },
	{ "ramp_time",		SSL_ARG_REQUIRED, O_RAMP_TIME },
	{ "number_ios",		SSL_ARG_REQUIRED, O_NUMBER_IOS },
	{ "randseed",		SSL_ARG_REQUIRED, O_RANDSEED },
	{ "allow_write",	SSL_ARG_FLAG, O_ALLOW_WRITE },
	{ "hipri",		SSL_ARG_FLAG, O_HIPRI },
	{ "disable_lat",	SSL_ARG_FLAG, O_DISABLE_LAT },
	{ "time_based",		SSL_ARG_FLAG, O_TIME_BASED },
	{ "direct",		SSL_ARG_FLAG, O_DIRECT },
	{ "group_reporting",	SSL_ARG_FLAG, O_GROUP_REPORTING },
	{ "output-format",	SSL_ARG_REQUIRED, O_OUTPUT_FORMAT },
	{ "percentile_list",	SSL_ARG_REQUIRED, O_PERCENTILE_LIST },
	{ "parse-only",		SSL_ARG_FLAG, O_PARSE_ONLY },
	{ NULL, 0, 0 },
};

/* one configfs attribute to write, in order */
struct attr_write {
	const char *attr;
	char val[4096];
};

struct run_ctx {
	const char *raw[O_NR];		/* as typed ("" for a bare flag) */
	const char *raw_name[O_NR];	/* the spelling used, for messages */
	int order[O_NR];		/* ids in the order first given */
	int nr_order;
	char name[256];
	const char *filename;
	enum ssl_output_format fmt;
	double plist[SSL_MAX_PERCENTILES];
	int np;
	int parse_only;
	int writes;			/* rw includes writes */
	int allow_write;		/* --allow_write given as 1 */
	uint64_t iodepth;
	struct attr_write w[24];
	int nw;
	struct ssl_job_option opts[O_NR + 1];
	int nopts;
};

#define POLL_MS		200	/* progress/state polling period */
#define IDLE_GRACE_MS	2000	/* how long "idle" after enable=1 means "starting" */

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static const char *const rw_names[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw",
};

static int bad_value(const struct run_ctx *c, int id, const char *why)
{
	ssl_err("--%s=%s: %s", c->raw_name[id], c->raw[id], why);
	return -1;
}

static void add_write(struct run_ctx *c, const char *attr, const char *val)
{
	struct attr_write *w = &c->w[c->nw++];

	w->attr = attr;
	snprintf(w->val, sizeof(w->val), "%s", val);
}

static void add_write_u64(struct run_ctx *c, const char *attr, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	add_write(c, attr, buf);
}

static int size_opt(struct run_ctx *c, int id, const char *attr)
{
	uint64_t v;

	if (!c->raw[id])
		return 0;
	if (ssl_parse_size(c->raw[id], &v))
		return bad_value(c, id, "not a size (bytes, or with k/m/g/t suffix)");
	add_write_u64(c, attr, v);
	return 0;
}

static int u64_opt(struct run_ctx *c, int id, const char *attr, uint64_t *out)
{
	uint64_t v;

	if (!c->raw[id])
		return 0;
	if (ssl_parse_u64(c->raw[id], &v))
		return bad_value(c, id, "not a non-negative integer");
	if (out)
		*out = v;
	if (attr)
		add_write_u64(c, attr, v);
	return 0;
}

static int time_opt(struct run_ctx *c, int id, const char *attr)
{
	uint64_t v;

	if (!c->raw[id])
		return 0;
	if (ssl_parse_time_ms(c->raw[id], 1000, &v))
		return bad_value(c, id, "not a time (seconds, or with ms/s/m/h suffix)");
	add_write_u64(c, attr, v);
	return 0;
}

static int numjobs_cpus(struct run_ctx *c)
{
	char *online, list[4096];
	uint64_t n;
	int r;

	if (ssl_parse_u64(c->raw[O_NUMJOBS], &n) || !n || n > 65536)
		return bad_value(c, O_NUMJOBS, "not a number of CPUs (1 or more)");
	r = ssl_read_file(ssl_cpu_online_path(), &online, NULL);
	if (r) {
		ssl_err("%s: %s", ssl_cpu_online_path(), strerror(-r));
		return -1;
	}
	r = ssl_cpulist_first_n(online, (unsigned int)n, list, sizeof(list));
	free(online);
	if (r < 0) {
		ssl_err("%s: cannot parse the online CPU list", ssl_cpu_online_path());
		return -1;
	}
	if (r > 0) {
		ssl_err("--numjobs=%" PRIu64 ": only %d CPUs are online", n, r);
		return -1;
	}
	add_write(c, SSDLOAD_ATTR_CPUS_ALLOWED, list);
	return 0;
}

static int parse_args(struct run_ctx *c, int argc, const char **argv)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 0, dashdash = 0, r;

	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, run_opts, &opt, &val, &dashdash);
		if (r < 0)
			return -1;
		if (r == 2) {
			ssl_usage(stdout, run_usage);
			return 1;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			ssl_err("run: unexpected argument '%s' (options are --name=value)",
				argv[i - 1]);
			return -1;
		}
		if (!c->raw[opt->id])
			c->order[c->nr_order++] = opt->id;
		c->raw[opt->id] = val ? val : "";
		c->raw_name[opt->id] = opt->name;
	}
	return 0;
}

static int check_args(struct run_ctx *c)
{
	uint64_t v, mix;
	size_t i;
	int b;

	if (c->raw[O_OUTPUT_FORMAT] &&
	    ssl_parse_output_format(c->raw[O_OUTPUT_FORMAT], &c->fmt))
		return bad_value(c, O_OUTPUT_FORMAT, "must be normal or json");
	if (c->raw[O_PERCENTILE_LIST] &&
	    ssl_parse_percentiles(c->raw[O_PERCENTILE_LIST], c->plist,
				  SSL_MAX_PERCENTILES, &c->np))
		return bad_value(c, O_PERCENTILE_LIST,
				 "must be values in (0,100] separated by ':'");
	if (c->raw[O_PARSE_ONLY]) {
		c->parse_only = 1;
		if (*c->raw[O_PARSE_ONLY] &&
		    ssl_parse_bool(c->raw[O_PARSE_ONLY], &c->parse_only))
			return bad_value(c, O_PARSE_ONLY, "must be 0 or 1");
	}
	if (c->raw[O_TIME_BASED] && *c->raw[O_TIME_BASED] &&
	    ssl_parse_bool(c->raw[O_TIME_BASED], &b))
		return bad_value(c, O_TIME_BASED, "must be 0 or 1");
	if (c->raw[O_GROUP_REPORTING] && *c->raw[O_GROUP_REPORTING] &&
	    ssl_parse_bool(c->raw[O_GROUP_REPORTING], &b))
		return bad_value(c, O_GROUP_REPORTING, "must be 0 or 1");
	if (c->raw[O_DIRECT] && *c->raw[O_DIRECT] &&
	    (ssl_parse_bool(c->raw[O_DIRECT], &b) || !b))
		return bad_value(c, O_DIRECT, "ssdload always does direct I/O");

	if (c->raw[O_NAME]) {
		const char *n = c->raw[O_NAME];

		if (!*n || strchr(n, '/') || !strcmp(n, ".") || !strcmp(n, "..") ||
		    strlen(n) >= sizeof(c->name))
			return bad_value(c, O_NAME, "not a valid job name");
		snprintf(c->name, sizeof(c->name), "%s", n);
	} else {
		snprintf(c->name, sizeof(c->name), "ssdload-%ld", (long)getpid());
	}

	c->filename = c->raw[O_FILENAME];
	if (!c->filename || !*c->filename) {
		ssl_err("run: --filename=DEV is required (a block device)");
		return -1;
	}
	add_write(c, SSDLOAD_ATTR_FILENAME, c->filename);

	if (c->raw[O_RW]) {
		for (i = 0; i < ARRAY_SIZE(rw_names); i++)
			if (!strcmp(c->raw[O_RW], rw_names[i]))
				break;
		if (!strcmp(c->raw[O_RW], "readwrite"))
			i = 4;
		if (i == ARRAY_SIZE(rw_names))
			return bad_value(c, O_RW,
					 "must be read, write, randread, randwrite, rw or randrw");
		add_write(c, SSDLOAD_ATTR_RW, rw_names[i]);
		c->writes = i != 0 && i != 2;
	}

	if (c->raw[O_RWMIXREAD] || c->raw[O_RWMIXWRITE]) {
		int id = c->raw[O_RWMIXREAD] ? O_RWMIXREAD : O_RWMIXWRITE;

		if (ssl_parse_u64(c->raw[id], &mix) || mix > 100)
			return bad_value(c, id, "must be a percentage, 0 to 100");
		if (id == O_RWMIXWRITE)
			mix = 100 - mix;
		if (c->raw[O_RWMIXREAD] && c->raw[O_RWMIXWRITE]) {
			if (ssl_parse_u64(c->raw[O_RWMIXWRITE], &v) || v > 100)
				return bad_value(c, O_RWMIXWRITE,
						 "must be a percentage, 0 to 100");
			if (v + mix != 100) {
				ssl_err("--rwmixread=%s and --rwmixwrite=%s do not add up to 100",
					c->raw[O_RWMIXREAD], c->raw[O_RWMIXWRITE]);
				return -1;
			}
		}
		add_write_u64(c, SSDLOAD_ATTR_RWMIXREAD, mix);
	}

	if (c->raw[O_BS] && strchr(c->raw[O_BS], ','))
		return bad_value(c, O_BS, "separate read/write block sizes are not supported");
	if (size_opt(c, O_BS, SSDLOAD_ATTR_BS))
		return -1;
	if (u64_opt(c, O_IODEPTH, SSDLOAD_ATTR_IODEPTH, &c->iodepth))
		return -1;

	if (c->raw[O_NUMJOBS] && c->raw[O_CPUS_ALLOWED]) {
		ssl_err("--numjobs and --cpus_allowed cannot be combined: "
			"numjobs picks the first N online CPUs, cpus_allowed names them");
		return -1;
	}
	if (c->raw[O_CPUS_ALLOWED]) {
		const char *p = c->raw[O_CPUS_ALLOWED];

		if (!*p || strspn(p, "0123456789,-") != strlen(p))
			return bad_value(c, O_CPUS_ALLOWED, "not a cpulist (e.g. 0-1,3)");
		add_write(c, SSDLOAD_ATTR_CPUS_ALLOWED, p);
	}
	if (c->raw[O_NUMJOBS] && numjobs_cpus(c))
		return -1;

	if (size_opt(c, O_OFFSET, SSDLOAD_ATTR_OFFSET) ||
	    size_opt(c, O_SIZE, SSDLOAD_ATTR_SIZE) ||
	    time_opt(c, O_RUNTIME, SSDLOAD_ATTR_RUNTIME_MS) ||
	    time_opt(c, O_RAMP_TIME, SSDLOAD_ATTR_RAMP_MS) ||
	    u64_opt(c, O_NUMBER_IOS, SSDLOAD_ATTR_NUMBER_IOS, NULL))
		return -1;
	if (c->raw[O_RANDSEED]) {
		if (ssl_parse_seed(c->raw[O_RANDSEED], &v))
			return bad_value(c, O_RANDSEED, "not an integer");
		add_write_u64(c, SSDLOAD_ATTR_RANDSEED, v);
	}
	if (c->raw[O_ALLOW_WRITE]) {
		b = 1;
		if (*c->raw[O_ALLOW_WRITE] && ssl_parse_bool(c->raw[O_ALLOW_WRITE], &b))
			return bad_value(c, O_ALLOW_WRITE, "must be 0 or 1");
		add_write_u64(c, SSDLOAD_ATTR_ALLOW_WRITE, (uint64_t)b);
		c->allow_write = b;
	}
	if (c->raw[O_HIPRI]) {
		b = 1;
		if (*c->raw[O_HIPRI] && ssl_parse_bool(c->raw[O_HIPRI], &b))
			return bad_value(c, O_HIPRI, "must be 0 or 1");
		add_write_u64(c, SSDLOAD_ATTR_HIPRI, (uint64_t)b);
	}
	if (c->raw[O_DISABLE_LAT]) {
		b = 1;
		if (*c->raw[O_DISABLE_LAT] && ssl_parse_bool(c->raw[O_DISABLE_LAT], &b))
			return bad_value(c, O_DISABLE_LAT, "must be 0 or 1");
		add_write_u64(c, SSDLOAD_ATTR_DISABLE_LAT, (uint64_t)b);
	}

	/* fio's "job options": what was given, as given */
	c->opts[c->nopts].key = "name";
	c->opts[c->nopts++].val = c->name;
	for (i = 0; i < (size_t)c->nr_order; i++) {
		int id = c->order[i];

		if (id == O_NAME || id == O_OUTPUT_FORMAT || id == O_PARSE_ONLY)
			continue;
		c->opts[c->nopts].key = c->raw_name[id];
		c->opts[c->nopts++].val = c->raw[id];
	}
	if (!c->np) {
		memcpy(c->plist, ssl_default_percentiles,
		       sizeof(double) * (size_t)ssl_default_percentiles_nr);
		c->np = ssl_default_percentiles_nr;
	}
	return 0;
}

static void progress_line(const struct run_ctx *c, const struct ssl_progress *p,
			  const struct ssl_progress *prev)
{
	double dt = (double)(p->elapsed_ns - prev->elapsed_ns) / 1e9;
	double riops = 0, wiops = 0;
	char total[64] = "";

	if (dt > 0 && p->elapsed_ns >= prev->elapsed_ns) {
		riops = (double)(p->ios[0] - prev->ios[0]) / dt;
		wiops = (double)(p->ios[1] - prev->ios[1]) / dt;
	}
	if (p->runtime_ns)
		snprintf(total, sizeof(total), "/%.1fs",
			 (double)(p->ramp_ns + p->runtime_ns) / 1e9);
	fprintf(stderr, "\r%s: [%.1fs%s]%s read %.0f IOPS, write %.0f IOPS",
		c->name, (double)p->elapsed_ns / 1e9, total,
		p->elapsed_ns < p->ramp_ns ? " ramp," : "", riops, wiops);
	if (p->number_ios)
		fprintf(stderr, ", %" PRIu64 "/%" PRIu64 " I/Os",
			p->ios[0] + p->ios[1], p->number_ios);
	fputs("\033[K", stderr);
	fflush(stderr);
}

static void clear_progress(int *shown)
{
	if (*shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		*shown = 0;
	}
}

/* Wait for the job to leave "running", stopping it on SIGINT/SIGTERM. */
static int wait_job(struct run_ctx *c, char *state, size_t len, int *interrupted)
{
	struct ssl_progress p, prev;
	int tty = isatty(STDERR_FILENO), shown = 0, err, stopping = 0;
	unsigned int waited = 0;

	memset(&prev, 0, sizeof(prev));
	for (;;) {
		if (got_signal && !stopping) {
			stopping = 1;
			*interrupted = 1;
			clear_progress(&shown);
			err = cfs_write(c->name, SSDLOAD_ATTR_ENABLE, "0");
			if (err)
				ssl_err("%s: stopping the job: %s", c->name, strerror(-err));
		}
		err = cfs_read(c->name, SSDLOAD_ATTR_STATE, state, len);
		if (err) {
			clear_progress(&shown);
			ssl_err("job '%s' disappeared while running: %s", c->name,
				strerror(-err));
			return -1;
		}
		/* tolerate a module that reports running a moment after enable */
		if (!strcmp(state, "idle") && !stopping && waited < IDLE_GRACE_MS) {
			ssl_msleep(20);
			waited += 20;
			continue;
		}
		if (strcmp(state, "running"))
			break;
		if (tty && !stopping && !results_read_progress(c->name, &p)) {
			if (shown)
				progress_line(c, &p, &prev);
			shown = 1;
			prev = p;
		}
		ssl_msleep(POLL_MS);
	}
	clear_progress(&shown);
	return 0;
}

static int run_job(struct run_ctx *c)
{
	struct ssl_hist hist[SSDLOAD_DIR_NR];
	struct ssl_summary sum;
	struct sigaction sa;
	char state[32];
	int i, err, status = 1, interrupted = 0;

	if (cfs_check_module() || ssl_check_debugfs())
		return 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed stdout must not kill us before the job is removed */
	signal(SIGPIPE, SIG_IGN);

	err = cfs_job_create(c->name);
	if (err) {
		if (err == -EEXIST)
			ssl_err("job '%s' already exists: choose another --name, or "
				"rmdir %s/jobs/%s", c->name, ssl_configfs_root(), c->name);
		else
			ssl_err("mkdir %s/jobs/%s: %s", ssl_configfs_root(), c->name,
				strerror(-err));
		return 1;
	}
	for (i = 0; i < c->nw; i++) {
		err = cfs_write(c->name, c->w[i].attr, c->w[i].val);
		if (err) {
			ssl_err("%s=%s: %s", c->w[i].attr, c->w[i].val, strerror(-err));
			goto out_remove;
		}
	}
	if (got_signal) {
		status = SSL_EXIT_INTERRUPTED;
		goto out_remove;
	}
	err = cfs_write(c->name, SSDLOAD_ATTR_ENABLE, "1");
	if (err) {
		cfs_report_enable_error(c->name, c->filename, err,
					err == -EPERM && c->writes && !c->allow_write ?
					"pass --allow_write=1 to let the job write" : NULL);
		goto out_remove;
	}
	if (wait_job(c, state, sizeof(state), &interrupted))
		goto out_remove;
	if (!c->iodepth) {
		char buf[32];

		if (!cfs_read(c->name, SSDLOAD_ATTR_IODEPTH, buf, sizeof(buf)))
			ssl_parse_u64(buf, &c->iodepth);
	}
	if (!strcmp(state, "error"))
		cfs_report_enable_error(c->name, c->filename, -EIO, NULL);
	if (!results_read(c->name, &sum, hist)) {
		struct ssl_report r = {
			.name = c->name,
			.pid = (long)getpid(),
			.when = time(NULL),
			.sum = &sum,
			.hist = hist,
			.plist = c->plist,
			.np = c->np,
			.opts = c->opts,
			.nopts = c->nopts,
			.iodepth = c->iodepth,
		};

		if (report_print(stdout, &r, c->fmt))
			ssl_err("out of memory while printing the report");
		results_free_summary(&sum);
		for (i = 0; i < SSDLOAD_DIR_NR; i++)
			results_free_hist(&hist[i]);
	} else {
		goto out_remove;	/* status stays 1 */
	}
	if (!strcmp(state, "error"))
		status = 1;
	else if (interrupted)
		status = SSL_EXIT_INTERRUPTED;
	else
		status = 0;

out_remove:
	err = cfs_job_remove(c->name);
	if (err && err != -ENOENT) {
		ssl_err("rmdir %s/jobs/%s: %s", ssl_configfs_root(), c->name,
			strerror(-err));
		if (!status)
			status = 1;
	}
	return status;
}

int cmd_run(int argc, const char **argv)
{
	struct run_ctx *c = calloc(1, sizeof(*c));
	int r, i;

	if (!c) {
		ssl_err("out of memory");
		return 1;
	}
	r = parse_args(c, argc - 1, argv + 1);
	if (r) {
		free(c);
		return r < 0 ? 1 : 0;
	}
	if (check_args(c)) {
		free(c);
		return 1;
	}
	if (c->parse_only) {
		printf("name=%s\n", c->name);
		for (i = 0; i < c->nw; i++)
			printf("%s=%s\n", c->w[i].attr, c->w[i].val);
		free(c);
		return 0;
	}
	r = run_job(c);
	free(c);
	return r;
}
