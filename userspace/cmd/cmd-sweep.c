// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload sweep: a queue-depth x worker sweep as the steps of one job.
 *
 * Each point of the sweep (a total queue depth, split over a number of
 * workers) is one step of a single `ssdload run`: numjobs=W iodepth=QD/W,
 * each with its ramp and measured time, back to back on one open device,
 * so that the gap between points is measured rather than assumed.  The
 * default is AnandTech's rule: total depths 1 to 512, on as few workers
 * as keep each at most 64 deep.  The run's JSON (run.json), the sweep's
 * own (sweep.json: points, knees, per-point time series) and the report
 * rendered from it go to one directory.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/precond.h"
#include "device/device.h"
#include "fio/fioopts.h"
#include "core/options.h"
#include "fio/report.h"
#include "methods/method.h"
#include "methods/runner.h"
#include "core/util.h"
#include "uapi/ssdload.h"

#define SWEEP_FORMAT		"ssdload-sweep"
#define SWEEP_FORMAT_VERSION	1
#define SWEEP_JSON		"sweep.json"
#define SWEEP_MAX_QDS		64
#define SWEEP_MAX_WORKERS	64	/* entries of --workers */
#define SWEEP_MAX_QD		65536	/* total */
#define SWEEP_MAX_POINTS	(SWEEP_MAX_QDS * 16)

#define SWEEP_EXIT_FAILED	1	/* the run failed */
#define SWEEP_EXIT_USAGE	2	/* bad usage or a refusal: nothing ran */

static const char *const sweep_usage[] = {
	"usage: ssdload sweep --filename=DEV [options]",
	"",
	"A queue-depth sweep: each point (a total queue depth QD over W workers,",
	"QD/W each) is one step of a single job, run back to back with its own ramp",
	"and measured time; the gap between points is measured.  The default is",
	"AnandTech's: total depths 1 to 512, each on as few workers as keep every",
	"worker at most 64 deep (QD 128 = 2 x 64, 512 = 8 x 64), 1 minute of ramp and",
	"3 of measurement per point.  Results go to DIR/sweep.json (points, the",
	"saturation knee per worker count, each point's time series), DIR/run.json",
	"(the run, fio's schema) and DIR/report.html (plots, CSV).",
	"",
	"  --filename=DEV        the device (writes need --allow_write)",
	"  --qd-list=N,...       total queue depths (default 1,2,4,...,512)",
	"  --workers=auto|N,...  auto (default): W = ceil(QD / --max-qd-per-worker);",
	"                        a list: every QD on each W (QDs that W does not",
	"                        divide are skipped)",
	"  --max-qd-per-worker=N the auto rule's per-worker depth (default 64)",
	SSL_METHOD_USAGE_TIMES("1m", "3m"),
	"  --log_interval_ms=N   time series interval (default 1000; 0 = none)",
	"  --knee=F              the knee: the smallest QD reaching F x the line's",
	"                        highest IOPS (default 0.95)",
	SSL_PRECOND_USAGE,
	SSL_PRECOND_GUARD_USAGE,
	SSL_METHOD_USAGE_OUTPUT("sweep"),
	"Passed to the run as they are (see ssdload run --help): --rw (default",
	"randread), --bs (default 4k), --bssplit, --rwmixread, --rwmixwrite, --size,",
	"--offset, --randseed, --random_distribution, --cpus_allowed, --hipri,",
	"--allow_write, --profile=NAME (a shipped workload, see ssdload profiles;",
	"the sweep sets its depths and workers) and --section=NAME (its section).",
	"",
	"Exit status: 0 done, 1 the run failed, 2 bad usage or a refusal (nothing",
	"ran), 128+N after signal N (what was measured is kept).",
	NULL,
};

enum {
	S_QD_LIST, S_WORKERS, S_MAX_PER, S_LOG_MS, S_KNEE,
};

static const struct ssl_opt sweep_opts[] = {
	{ "qd-list",		SSL_ARG_REQUIRED, S_QD_LIST },
	{ "workers",		SSL_ARG_REQUIRED, S_WORKERS },
	{ "max-qd-per-worker",	SSL_ARG_REQUIRED, S_MAX_PER },
	{ "log_interval_ms",	SSL_ARG_REQUIRED, S_LOG_MS },
	{ "knee",		SSL_ARG_REQUIRED, S_KNEE },
	SSL_METHOD_OPTS,
	SSL_METHOD_GUARD_OPTS,
	{ NULL, 0, 0 },
};

struct sweep_point {
	unsigned int workers;		/* W */
	unsigned int qd;		/* total */
};

struct sweep_ctx {
	struct ssl_method m;
	bool auto_workers;
	unsigned int qds[SWEEP_MAX_QDS], nqd;
	unsigned int wl[SWEEP_MAX_WORKERS], nw;
	unsigned int max_per;
	unsigned int log_ms;
	double knee;
	struct sweep_point pt[SWEEP_MAX_POINTS];
	unsigned int np, max_workers;
	json_object *doc;
};

/* ---- options ---- */

static int sweep_parse(void *ctx, int argc, const char **argv)
{
	struct sweep_ctx *c = ctx;
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, r;
	char *end;

	while ((r = ssl_method_next(&c->m, argc, argv, &i, sweep_opts, sweep_usage, &opt,
				    &val)) == 1) {
		switch (opt->id) {
		case S_QD_LIST:
			if (ssl_uint_list("sweep", opt->name, val, SWEEP_MAX_QD, SWEEP_MAX_QDS, 1,
					  c->qds, &c->nqd))
				return -1;
			break;
		case S_WORKERS:
			if (!strcmp(val, "auto")) {
				c->auto_workers = true;
				c->nw = 0;
				break;
			}
			c->auto_workers = false;
			if (ssl_uint_list("sweep", opt->name, val, SSL_NUMJOBS_MAX,
					  SWEEP_MAX_WORKERS, 1, c->wl, &c->nw))
				return -1;
			break;
		case S_MAX_PER:
			if (ssl_uint_opt("sweep", opt->name, val, 1, SWEEP_MAX_QD,
					 &c->max_per))
				return -1;
			break;
		case S_LOG_MS:
			if (ssl_uint_opt("sweep", opt->name, val, 0, 3600000, &c->log_ms))
				return -1;
			if (c->log_ms && c->log_ms < 10) {
				ssl_err("sweep: --%s=%s: 0 (none) or at least 10 ms", opt->name, val);
				return -1;
			}
			break;
		case S_KNEE:
			errno = 0;
			c->knee = strtod(val, &end);
			if (end == val || *end || errno || !(c->knee > 0) || c->knee > 1) {
				ssl_err("sweep: --knee=%s: must be a fraction above 0, at most 1", val);
				return -1;
			}
			break;
		}
	}
	if (r)
		return r < 0 ? -1 : 1;
	if (ssl_method_check(&c->m))
		return -1;
	return 0;
}

/*
 * The points: for each worker count (or the auto rule) the depths it can
 * split evenly, in the order they run (by W, then by QD).  0 or -1.
 */
static int plan_points(struct sweep_ctx *c)
{
	unsigned int i, k;

	c->np = 0;
	c->max_workers = 1;
	if (c->auto_workers) {
		for (i = 0; i < c->nqd; i++) {
			unsigned int qd = c->qds[i];
			unsigned int w = (qd + c->max_per - 1) / c->max_per;

			if (qd % w) {
				ssl_err("sweep: QD %u does not split evenly over the %u workers of "
					"the auto rule (at most %u each): use depths that %u "
					"divides, or --workers", qd, w, c->max_per, w);
				return -1;
			}
			c->pt[c->np++] = (struct sweep_point){ .workers = w, .qd = qd };
		}
	} else {
		for (k = 0; k < c->nw; k++)
			for (i = 0; i < c->nqd; i++) {
				unsigned int qd = c->qds[i], w = c->wl[k];

				if (qd < w || qd % w || qd / w > SWEEP_MAX_QD)
					continue;
				c->pt[c->np++] = (struct sweep_point){ .workers = w, .qd = qd };
			}
	}
	if (!c->np) {
		ssl_err("sweep: no point: no QD of --qd-list splits evenly over a worker "
			"count of --workers");
		return -1;
	}
	if (c->np > SSDLOAD_MAX_STEPS) {
		ssl_err("sweep: %u points, more than the %u steps of a job", c->np,
			SSDLOAD_MAX_STEPS);
		return -1;
	}
	for (i = 0; i < c->np; i++) {
		if (c->pt[i].qd / c->pt[i].workers > SWEEP_MAX_QD) {
			ssl_err("sweep: QD %u over %u workers is %u each, more than %u",
				c->pt[i].qd, c->pt[i].workers, c->pt[i].qd / c->pt[i].workers,
				SWEEP_MAX_QD);
			return -1;
		}
		if (c->pt[i].workers > c->max_workers)
			c->max_workers = c->pt[i].workers;
	}
	return 0;
}

/* ---- the run ---- */

static void sweep_steps(const void *ctx, FILE *f)
{
	const struct sweep_ctx *c = ctx;
	unsigned int i;

	fprintf(f, "# ssdload sweep: one step per point (total QD = numjobs x iodepth)\n");
	for (i = 0; i < c->np; i++)
		fprintf(f, "numjobs=%u iodepth=%u	# QD %u\n", c->pt[i].workers,
			c->pt[i].qd / c->pt[i].workers, c->pt[i].qd);
}

/* The options of the sweep's `ssdload run`. */
static void sweep_argv(const void *ctx, struct ssl_argv *a)
{
	const struct sweep_ctx *c = ctx;

	av_addf(a, "--numjobs=%u", c->max_workers);
	av_add(a, "--group_reporting");
	av_addf(a, "--ramp_time=%" PRIu64 "ms", c->m.ramp_ms);
	av_addf(a, "--runtime=%" PRIu64 "ms", c->m.runtime_ms);
	if (c->log_ms)
		av_addf(a, "--log_interval_ms=%u", c->log_ms);
	av_add(a, "--percentile_list=50:99:99.9");
	av_add(a, "--output-format=json");
}

/* ---- sweep.json ---- */

static json_object *jpct(json_object *dir, const char *key)
{
	json_object *p = jget(jget(dir, "clat_ns"), "percentile");
	json_object *v = jget(p, key);

	return v ? json_object_new_int64(json_object_get_int64(v)) : NULL;
}

/* One direction of a step: NULL if it did no I/O. */
static json_object *point_dir(json_object *x, double *ios, double *iops, double *bw,
			      double *lat_sum, double *p99)
{
	json_object *o, *clat = jget(x, "clat_ns"), *v;
	double n = jnum(x, "total_ios", 0), mean = jnum(clat, "mean", 0);

	if (!x || n <= 0)
		return NULL;
	o = run_dir_head(x);
	jset(o, "lat_max_ns", json_object_new_int64((int64_t)jnum(clat, "max", 0)));
	jset(o, "lat_p50_ns", jpct(x, "50.000000"));
	jset(o, "lat_p99_ns", jpct(x, "99.000000"));
	jset(o, "lat_p99_9_ns", jpct(x, "99.900000"));
	*ios += n;
	*iops += jnum(x, "iops", 0);
	*bw += jnum(x, "bw_bytes", 0);
	*lat_sum += mean * n;
	v = jget(o, "lat_p99_ns");
	if (v && json_object_get_double(v) > *p99)
		*p99 = json_object_get_double(v);
	return o;
}

/*
 * The intervals of the time series measured in step @step: those the run
 * tagged with it (the step its worker 0 was in when the interval closed),
 * less the first of a step after the first (it closed in this step but
 * began in the one before) and the leading ones without I/O (the ramp:
 * its I/Os are not counted).  t_ms is the interval's end from the start
 * of the first one kept.
 */
static json_object *point_series(json_object *ivs, int step)
{
	static const char *const d[] = { "read", "write", "trim" };
	json_object *arr = json_object_new_array();
	size_t i, j, n = ivs ? json_object_array_length(ivs) : 0;
	unsigned int seen = 0;
	double t0 = -1;

	for (i = 0; i < n; i++) {
		json_object *iv = json_object_array_get_idx(ivs, i), *o;
		double ios = 0, iops = 0, lsum = 0;

		if ((int)jnum(iv, "step", -1) != step)
			continue;
		if (!seen++ && step > 1)
			continue;
		for (j = 0; j < ARRAY_SIZE(d); j++) {
			json_object *x = jget(iv, d[j]);
			double n_io = jnum(x, "ios", 0);

			ios += n_io;
			iops += jnum(x, "iops", 0);
			lsum += jnum(x, "lat_mean_ns", 0) * n_io;
		}
		if (t0 < 0 && ios <= 0)
			continue;
		if (t0 < 0)
			t0 = jnum(iv, "t_start_ms", 0);
		o = json_object_new_object();
		jset(o, "t_ms", json_object_new_double(jnum(iv, "t_end_ms", 0) - t0));
		jset(o, "iops", json_object_new_double(iops));
		jset(o, "lat_mean_ns", ios > 0 ? json_object_new_double(lsum / ios) : NULL);
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The points of the run's steps; -1 if the run JSON has none. */
static int fill_points(struct sweep_ctx *c, json_object *job)
{
	json_object *steps = jget(job, "steps"), *ivs, *arr;
	size_t k, n;

	ivs = jget(jget(job, "time_series"), "intervals");
	if (!steps || !json_object_is_type(steps, json_type_array))
		return -1;
	n = json_object_array_length(steps);
	arr = json_object_new_array();
	for (k = 0; k < n && k < c->np; k++) {
		json_object *st = json_object_array_get_idx(steps, k), *o, *gap, *x;
		double ios = 0, iops = 0, bw = 0, lsum = 0, p99 = 0, mean;
		const struct sweep_point *p = &c->pt[k];

		gap = jget(st, "gap_ns");
		o = json_object_new_object();
		jset(o, "step", json_object_new_int((int)jnum(st, "step", (double)k + 1)));
		jset(o, "workers", json_object_new_int((int)p->workers));
		jset(o, "qd", json_object_new_int((int)p->qd));
		jset(o, "qd_per_worker", json_object_new_int((int)(p->qd / p->workers)));
		jset(o, "runtime_ns", json_object_new_int64((int64_t)jnum(st, "runtime_ns", 0)));
		jset(o, "gap_max_ns", json_object_new_int64((int64_t)jnum(gap, "max", 0)));
		jset(o, "gap_mean_ns", json_object_new_double(jnum(gap, "mean", 0)));
		x = point_dir(jget(st, "read"), &ios, &iops, &bw, &lsum, &p99);
		if (x)
			jset(o, "read", x);
		x = point_dir(jget(st, "write"), &ios, &iops, &bw, &lsum, &p99);
		if (x)
			jset(o, "write", x);
		mean = ios > 0 ? lsum / ios : 0;
		jset(o, "iops", json_object_new_double(iops));
		jset(o, "bw_bytes", json_object_new_double(bw));
		jset(o, "lat_mean_ns", json_object_new_double(mean));
		jset(o, "lat_p99_ns", p99 > 0 ? json_object_new_int64((int64_t)p99) : NULL);
		/* Little's law: the share of the depth kept in flight */
		jset(o, "little", mean > 0 ? json_object_new_double(iops * mean / 1e9 / p->qd)
					   : NULL);
		jset(o, "series", point_series(ivs, (int)jnum(st, "step", (double)k + 1)));
		json_object_array_add(arr, o);
	}
	jset(c->doc, "points", arr);
	return 0;
}

/* Per worker count (one line for the auto rule): the highest IOPS and the knee. */
static void fill_knees(struct sweep_ctx *c)
{
	json_object *pts = jget(c->doc, "points"), *arr = json_object_new_array();
	size_t n = pts ? json_object_array_length(pts) : 0, i;
	unsigned int lines = c->auto_workers ? 1 : c->nw, l;

	for (l = 0; l < lines; l++) {
		double max = 0, knee_iops = 0;
		int max_qd = 0, knee_qd = 0;
		json_object *o;

		for (i = 0; i < n; i++) {
			json_object *p = json_object_array_get_idx(pts, i);

			if (!c->auto_workers && jnum(p, "workers", 0) != c->wl[l])
				continue;
			if (jnum(p, "iops", 0) > max) {
				max = jnum(p, "iops", 0);
				max_qd = (int)jnum(p, "qd", 0);
			}
		}
		if (!max_qd)
			continue;
		for (i = 0; i < n && !knee_qd; i++) {
			json_object *p = json_object_array_get_idx(pts, i);

			if (!c->auto_workers && jnum(p, "workers", 0) != c->wl[l])
				continue;
			if (jnum(p, "iops", 0) >= c->knee * max) {
				knee_qd = (int)jnum(p, "qd", 0);
				knee_iops = jnum(p, "iops", 0);
			}
		}
		o = json_object_new_object();
		jset(o, "workers", c->auto_workers ? NULL : json_object_new_int((int)c->wl[l]));
		jset(o, "max_iops", json_object_new_double(max));
		jset(o, "max_qd", json_object_new_int(max_qd));
		jset(o, "knee_qd", json_object_new_int(knee_qd));
		jset(o, "knee_iops", json_object_new_double(knee_iops));
		json_object_array_add(arr, o);
	}
	jset(c->doc, "knees", arr);
}

static json_object *new_doc(void *ctx, const struct ssl_dev *d)
{
	struct sweep_ctx *c = ctx;
	json_object *s = json_object_new_object();

	c->doc = ssl_method_doc(&c->m, SWEEP_FORMAT, SWEEP_FORMAT_VERSION, d);
	jset(s, "filename", json_object_new_string(c->m.filename));
	jset(s, "qd_list", juint_array(c->qds, c->nqd));
	jset(s, "workers_list", c->auto_workers ? NULL : juint_array(c->wl, c->nw));
	jset(s, "max_qd_per_worker", json_object_new_int((int)c->max_per));
	jset(s, "ramp_ms", json_object_new_int64((int64_t)c->m.ramp_ms));
	jset(s, "runtime_ms", json_object_new_int64((int64_t)c->m.runtime_ms));
	jset(s, "log_interval_ms", json_object_new_int((int)c->log_ms));
	jset(s, "knee_fraction", json_object_new_double(c->knee));
	jset(s, "numjobs", json_object_new_int((int)c->max_workers));
	jset(c->doc, "settings", s);
	jset(c->doc, "points", json_object_new_array());
	jset(c->doc, "knees", json_object_new_array());
	jset(c->doc, "run_json", json_object_new_string("run.json"));
	return c->doc;
}

/* settings.rw, bs and rwmixread: what the run's first step ran with */
static void settings_from_run(struct sweep_ctx *c, json_object *job)
{
	json_object *s = jget(c->doc, "settings");
	json_object *par = jget(json_object_array_get_idx(jget(job, "steps"), 0), "params");
	const char *rw = jstring(par, "rw");

	jset(s, "rw", json_object_new_string(*rw ? rw : "unknown"));
	jset(s, "bs", json_object_new_int64((int64_t)jnum(par, "bs_max", 0)));
	jset(s, "rwmixread", strstr(rw, "rw") ? json_object_new_int((int)jnum(par, "rwmixread", 0))
					    : NULL);
}

/* ---- output ---- */

static void print_table(const void *ctx)
{
	const struct sweep_ctx *c = ctx;
	json_object *pts = jget(c->doc, "points"), *knees = jget(c->doc, "knees");
	json_object *s = jget(c->doc, "settings");
	size_t n = json_object_array_length(pts), i, k;
	char mean[32], p99[32], gap[32], little[16];

	printf("ssdload sweep: %s bs=%d on %s, %zu point%s, ramp %" PRIu64 " ms + %" PRIu64
	       " ms each (%s)\n", jstring(s, "rw"), (int)jnum(s, "bs", 0), c->m.filename, n,
	       n == 1 ? "" : "s", c->m.ramp_ms, c->m.runtime_ms,
	       jstring(c->doc, "state"));
	printf("  %7s  %6s  %5s  %10s  %9s  %9s  %9s  %6s  %9s\n", "workers", "QD", "QD/w",
	       "IOPS", "MB/s", "lat mean", "lat p99", "Little", "gap");
	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		const char *mark = "";

		for (k = 0; k < json_object_array_length(knees); k++) {
			json_object *kn = json_object_array_get_idx(knees, k);
			json_object *w = jget(kn, "workers");

			if (jnum(kn, "knee_qd", 0) == jnum(p, "qd", 0) &&
			    (!w || json_object_get_int(w) == (int)jnum(p, "workers", 0)))
				mark = "  <- knee";
		}
		/* as the steps table of `ssdload run` */
		if (jnum(p, "lat_mean_ns", 0) > 0)
			ssl_lat_str(mean, sizeof(mean), jnum(p, "lat_mean_ns", 0));
		else
			snprintf(mean, sizeof(mean), "-");
		if (jget(p, "lat_p99_ns"))
			ssl_lat_str(p99, sizeof(p99), jnum(p, "lat_p99_ns", 0));
		else
			snprintf(p99, sizeof(p99), "-");
		if (jnum(p, "gap_max_ns", 0) > 0)
			ssl_secs_str(gap, sizeof(gap), (uint64_t)jnum(p, "gap_max_ns", 0));
		else
			snprintf(gap, sizeof(gap), "-");
		if (jget(p, "little"))
			snprintf(little, sizeof(little), "%.3f", jnum(p, "little", 0));
		else
			snprintf(little, sizeof(little), "-");
		printf("  %7d  %6d  %5d  %10.0f  %9.1f  %9s  %9s  %6s  %9s%s\n",
		       (int)jnum(p, "workers", 0), (int)jnum(p, "qd", 0),
		       (int)jnum(p, "qd_per_worker", 0), jnum(p, "iops", 0),
		       jnum(p, "bw_bytes", 0) / 1e6, mean, p99, little, gap, mark);
	}
	for (k = 0; k < json_object_array_length(knees); k++) {
		json_object *kn = json_object_array_get_idx(knees, k);
		json_object *w = jget(kn, "workers");
		char line[32] = "";

		if (w)
			snprintf(line, sizeof(line), " with %d worker%s", json_object_get_int(w),
				 json_object_get_int(w) == 1 ? "" : "s");
		printf("knee%s: QD %d, %.0f IOPS (the smallest QD at %.0f%% of the highest, "
		       "%.0f IOPS at QD %d)\n", line, (int)jnum(kn, "knee_qd", 0),
		       jnum(kn, "knee_iops", 0), c->knee * 100, jnum(kn, "max_iops", 0),
		       (int)jnum(kn, "max_qd", 0));
	}
	printf("results: %s/%s, %s/run.json\n", c->m.dir, SWEEP_JSON, c->m.dir);
}

/* ---- the command ---- */

static void free_ctx(struct sweep_ctx *c)
{
	ssl_method_free(&c->m);
	if (c->doc)
		json_object_put(c->doc);
}

/* the run's steps into the points, the run's settings and the knees */
static void sweep_fill(void *ctx, json_object *doc, json_object *job)
{
	struct sweep_ctx *c = ctx;

	(void)doc;			/* c->doc */
	if (fill_points(c, job))
		return;
	settings_from_run(c, job);
	fill_knees(c);
}

/* --precondition: the guard before anything is made, the passes before the run */
static int sweep_guard(void *ctx)
{
	struct sweep_ctx *c = ctx;

	return ssl_method_guard(&c->m, &c->m.filename, 1);
}

static int sweep_precondition(void *ctx, json_object *doc)
{
	struct sweep_ctx *c = ctx;

	return ssl_method_precondition(&c->m, doc, SWEEP_JSON, &c->m.filename, 1);
}

static const struct ssl_step_method sweep_ops = {
	.json = SWEEP_JSON, .steps = sweep_steps, .argv = sweep_argv, .doc = new_doc,
	.fill = sweep_fill, .table = print_table, .guard = sweep_guard,
	.precondition = sweep_precondition,
};

static int sweep_main(void *ctx)
{
	struct sweep_ctx *c = ctx;
	json_object *doc;
	int r;

	if (plan_points(c))
		return SWEEP_EXIT_USAGE;
	r = ssl_method_run_steps(&c->m, &sweep_ops, c, &doc);
	c->doc = doc;
	return r;
}

int cmd_sweep(int argc, const char **argv)
{
	static const unsigned int anandtech[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 };
	struct sweep_ctx *c = calloc(1, sizeof(*c));
	int r;

	if (!c) {
		ssl_err("sweep: out of memory");
		return SWEEP_EXIT_FAILED;
	}
	c->m.cmd = "sweep";
	c->m.eta = "auto";
	c->auto_workers = true;
	c->max_per = 64;
	c->m.ramp_ms = 60000;
	c->m.runtime_ms = 180000;
	c->log_ms = 1000;
	c->knee = 0.95;
	memcpy(c->qds, anandtech, sizeof(anandtech));
	c->nqd = ARRAY_SIZE(anandtech);
	r = ssl_method_main(&c->m, argc, argv, sweep_parse, sweep_main, c);
	free_ctx(c);
	free(c);
	return r;
}
