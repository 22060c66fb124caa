// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload curve: a vdbench-style iorate curve.
 *
 * The workload first runs uncontrolled (vdbench's iorate=max), then open
 * loop at each fraction of that maximum (iorate=curve, curve=(10,50,70,
 * 80,90,100) by default; above 100 is allowed), each point its own
 * `ssdload run` with its ramp and measured time.  Every rate-controlled
 * I/O has an intended send time, so each point reports both latencies:
 * submit to completion (vdbench's response time) and from the intended
 * time (what a client offering that rate sees once the device falls
 * behind).  The curve can stop early at a latency bound (vdbench's
 * stopcurve).  DIR/curve.json, vdbench's flatfile columns in
 * DIR/flatfile.csv, every point's run JSON and the report go to one
 * directory.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/precond.h"
#include "device/device.h"
#include "fio/fioopts.h"
#include "core/latstudy.h"
#include "core/options.h"
#include "fio/report.h"
#include "methods/method.h"
#include "methods/runner.h"
#include "core/util.h"

#define CURVE_FORMAT		"ssdload-curve"
#define CURVE_FORMAT_VERSION	1
#define CURVE_JSON		"curve.json"
#define CURVE_FLATFILE		"flatfile.csv"
#define CURVE_MAX_POINTS	64
#define CURVE_MAX_PCT		1000.0
#define CURVE_MAX_DEPTH		65536

/* the percentiles every point reports (fio's limit is 20) */
#define CURVE_PERCENTILES \
	"1:5:10:25:50:75:90:95:99:99.5:99.9:99.95:99.99:99.999:99.9999"

#define CURVE_EXIT_FAILED	1	/* a run failed */
#define CURVE_EXIT_USAGE	2	/* bad usage or a refusal: nothing ran */

static const char *const curve_usage[] = {
	"usage: ssdload curve --filename=DEV [options]",
	"",
	"A vdbench iorate curve: the workload runs uncontrolled first (iorate=max),",
	"then open loop at each percentage of that maximum, each point its own run",
	"with its ramp and measured time.  Every point reports the latency from",
	"submit to completion and from the intended send time of its I/Os (what a",
	"client offering that rate sees).  Results go to DIR/curve.json, DIR/" CURVE_FLATFILE,
	"(vdbench's flatfile columns), DIR/run-*.json (each run, fio's schema) and",
	"DIR/report.html.",
	"",
	"  --filename=DEV        the device (writes need --allow_write)",
	"  --curve=P,...         percentages of the maximum, increasing, above 0, up",
	"                        to 1000 (default vdbench's 10,50,70,80,90,100);",
	"                        --points=P,... is the same (e.g. 10,20,...,100,110,120)",
	"  --max-iops=N          take N I/Os per second as the maximum: no max run",
	"  --stopcurve=LAT       stop the curve after a point whose mean latency",
	"                        (submit to completion) is above LAT (bare = ms, or",
	"                        ns/us/ms/s: vdbench's stopcurve)",
	"  --stopcurve-intended=LAT  the same, on the mean latency from the intended",
	"                        send time",
	"  --iodepth=N           I/Os in flight per worker (default: the profile's,",
	"                        else 8, vdbench's threads=8)",
	"  --numjobs=N           workers (default: the profile's, else 1); the rate",
	"                        is the job's",
	"  --profile=NAME        the workload of a shipped profile (ssdload profiles):",
	"                        its rw, mix, block sizes, skew and threads; options",
	"                        given here override it (--section=S picks a section)",
	"  --rate_process=P      poisson (default, vdbench's exponential arrivals)",
	"                        or linear",
	SSL_METHOD_USAGE_TIMES("30s", "2m"),
	SSL_PRECOND_USAGE,
	SSL_PRECOND_GUARD_USAGE,
	SSL_METHOD_USAGE_OUTPUT("curve"),
	"Passed to every run as they are (see ssdload run --help): --rw (default",
	"randread; read, write, trim or a read/write mix), --bs (default 4k),",
	"--bssplit, --rwmixread, --rwmixwrite, --size, --offset, --randseed,",
	"--random_distribution, --cpus_allowed, --hipri, --allow_write,",
	"--section=NAME (a profile's section).",
	"",
	"Exit status: 0 done (also when a bound stopped the curve), 1 a run failed,",
	"2 bad usage or a refusal (nothing ran), 128+N after signal N (what was",
	"measured is kept).",
	NULL,
};

enum {
	C_CURVE, C_MAX_IOPS, C_STOP, C_STOP_INTENDED, C_IODEPTH, C_NUMJOBS,
	C_RATE_PROCESS,
};

static const struct ssl_opt curve_opts[] = {
	{ "curve",		SSL_ARG_REQUIRED, C_CURVE },
	{ "points",		SSL_ARG_REQUIRED, C_CURVE },
	{ "max-iops",		SSL_ARG_REQUIRED, C_MAX_IOPS },
	{ "stopcurve",		SSL_ARG_REQUIRED, C_STOP },
	{ "stopcurve-intended",	SSL_ARG_REQUIRED, C_STOP_INTENDED },
	{ "iodepth",		SSL_ARG_REQUIRED, C_IODEPTH },
	{ "numjobs",		SSL_ARG_REQUIRED, C_NUMJOBS },
	{ "rate_process",	SSL_ARG_REQUIRED, C_RATE_PROCESS },
	SSL_METHOD_OPTS,
	SSL_METHOD_GUARD_OPTS,
	{ NULL, 0, 0 },
};

struct curve_ctx {
	struct ssl_method m;
	const char *rate_process;
	double pct[CURVE_MAX_POINTS];
	unsigned int npct;
	double max_given;		/* --max-iops, 0: measure */
	uint64_t stop_ns, stop_intended_ns;	/* 0: none */
	unsigned int iodepth, numjobs;
	bool depth_given, jobs_given;	/* else a --profile's, else 8 and 1 */
	unsigned int rdpct;		/* the share of reads the workload asks */
	json_object *doc;
};

/* ---- options ---- */

/* --curve: increasing percentages in (0, 1000] */
static int parse_curve(struct curve_ctx *c, const char *name, const char *val)
{
	const char *s = val;
	char *end;

	c->npct = 0;
	do {
		double v;

		errno = 0;
		v = strtod(s, &end);
		if (end == s || (*end && *end != ',') || errno || !(v > 0) ||
		    v > CURVE_MAX_PCT) {
			ssl_err("curve: --%s=%s: a list of percentages above 0, at most "
				"%.0f (10,50,100,120)", name, val, CURVE_MAX_PCT);
			return -1;
		}
		if (c->npct && v <= c->pct[c->npct - 1]) {
			ssl_err("curve: --%s=%s: the percentages must increase (%g after %g)",
				name, val, v, c->pct[c->npct - 1]);
			return -1;
		}
		if (c->npct == CURVE_MAX_POINTS) {
			ssl_err("curve: --%s=%s: more than %d points", name, val, CURVE_MAX_POINTS);
			return -1;
		}
		c->pct[c->npct++] = v;
		s = end + 1;
	} while (*end);
	return 0;
}

/* a latency bound: ns/us/ms/s, or a bare number of ms (vdbench) */
static int parse_bound(const char *name, const char *val, uint64_t *ns)
{
	double ms;
	char *end;

	if (!ssl_lat_parse_time(val, ns) && *ns)
		return 0;
	errno = 0;
	ms = strtod(val, &end);
	if (end != val && !*end && !errno && ms > 0 && ms <= 3600e3) {
		*ns = (uint64_t)llround(ms * 1e6);
		if (*ns)
			return 0;
	}
	ssl_err("curve: --%s=%s: a latency above 0 (bare number = ms, or ns, us, ms, s)",
		name, val);
	return -1;
}

/*
 * The share of reads the workload asks for, from --rw and --rwmixread or
 * --rwmixwrite: the rate of a mix is split by it.  -1 for a workload a
 * curve cannot split (trimwrite issues two I/Os per block).
 */
static int workload_rdpct(struct curve_ctx *c)
{
	static const char *const reads[] = { "read", "randread" };
	static const char *const mixes[] = { "rw", "readwrite", "randrw" };
	static const char *const others[] = { "write", "randwrite", "trim", "randtrim" };
	const char *rw = c->m.pass.rw ? c->m.pass.rw : "randread";
	unsigned int i, v;

	for (i = 0; i < ARRAY_SIZE(reads); i++)
		if (!strcmp(rw, reads[i]))
			return 100;
	for (i = 0; i < ARRAY_SIZE(others); i++)
		if (!strcmp(rw, others[i]))
			return 0;
	for (i = 0; i < ARRAY_SIZE(mixes); i++) {
		if (strcmp(rw, mixes[i]))
			continue;
		if (c->m.pass.rwmixread)
			return ssl_uint_opt("curve", "rwmixread", c->m.pass.rwmixread, 0, 100, &v) ?
			       -1 : (int)v;
		if (c->m.pass.rwmixwrite)
			return ssl_uint_opt("curve", "rwmixwrite", c->m.pass.rwmixwrite, 0, 100,
					    &v) ? -1 : 100 - (int)v;
		return 50;
	}
	ssl_err("curve: --rw=%s: a curve runs reads, writes, trims or a read/write mix "
		"(its rate is split by --rwmixread)", rw);
	return -1;
}

static int curve_parse(void *ctx, int argc, const char **argv)
{
	struct curve_ctx *c = ctx;
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, r;
	char *end;

	while ((r = ssl_method_next(&c->m, argc, argv, &i, curve_opts, curve_usage, &opt,
				    &val)) == 1) {
		switch (opt->id) {
		case C_CURVE:
			if (parse_curve(c, opt->name, val))
				return -1;
			break;
		case C_MAX_IOPS:
			errno = 0;
			c->max_given = strtod(val, &end);
			if (end == val || *end || errno || !(c->max_given >= 1) ||
			    c->max_given > 1e9) {
				ssl_err("curve: --max-iops=%s: I/Os per second, from 1 to 1e9", val);
				return -1;
			}
			break;
		case C_STOP:
			if (parse_bound(opt->name, val, &c->stop_ns))
				return -1;
			break;
		case C_STOP_INTENDED:
			if (parse_bound(opt->name, val, &c->stop_intended_ns))
				return -1;
			break;
		case C_IODEPTH:
			if (ssl_uint_opt("curve", opt->name, val, 1, CURVE_MAX_DEPTH, &c->iodepth))
				return -1;
			c->depth_given = true;
			break;
		case C_NUMJOBS:
			if (ssl_uint_opt("curve", opt->name, val, 1, SSL_NUMJOBS_MAX, &c->numjobs))
				return -1;
			c->jobs_given = true;
			break;
		case C_RATE_PROCESS:
			if (strcmp(val, "poisson") && strcmp(val, "linear")) {
				ssl_err("curve: --rate_process=%s: poisson or linear", val);
				return -1;
			}
			c->rate_process = val;
			break;
		}
	}
	if (r)
		return r < 0 ? -1 : 1;
	if (ssl_method_check(&c->m))
		return -1;
	if (!c->depth_given && c->m.pass.prof_iodepth)	/* the profile's threads */
		c->iodepth = c->m.pass.prof_iodepth;
	if (!c->jobs_given && c->m.pass.prof_numjobs)
		c->numjobs = c->m.pass.prof_numjobs;
	r = workload_rdpct(c);
	if (r < 0)
		return -1;
	c->rdpct = (unsigned int)r;
	return 0;
}

/* ---- the runs ---- */

static void point_label(char *buf, size_t len, int k, const struct curve_ctx *c)
{
	if (k < 0)
		snprintf(buf, len, "max");
	else
		snprintf(buf, len, "%g%%", c->pct[k]);
}

static int run_file(const struct curve_ctx *c, int k, char *rel, size_t len)
{
	if (k < 0)
		return snprintf(rel, len, "run-max.json") >= (int)len ? -1 : 0;
	return snprintf(rel, len, "run-%g.json", c->pct[k]) >= (int)len ? -1 : 0;
}

/*
 * The rate of point @k as --rate_iops: the job's total split by the
 * workload's share of reads ("R,W"; one value for a single direction).
 * Its total goes to *@target.
 */
static void rate_arg(const struct curve_ctx *c, int k, double max, char *buf, size_t len,
		     double *target)
{
	double t = c->pct[k] / 100 * max;
	uint64_t r, w;

	if (c->rdpct == 100 || c->rdpct == 0) {
		r = (uint64_t)llround(t);
		if (!r)
			r = 1;
		*target = (double)r;
		snprintf(buf, len, "%" PRIu64, r);
		return;
	}
	r = (uint64_t)llround(t * c->rdpct / 100);
	w = (uint64_t)llround(t * (100 - c->rdpct) / 100);
	if (!r && !w)
		w = 1;
	*target = (double)(r + w);
	if (!r)
		snprintf(buf, len, ",%" PRIu64, w);
	else if (!w)
		snprintf(buf, len, "%" PRIu64 ",", r);
	else
		snprintf(buf, len, "%" PRIu64 ",%" PRIu64, r, w);
}

/* The `ssdload run` of point @k (-1: the max run; @rate NULL there). */
static void curve_argv(const struct curve_ctx *c, struct ssl_argv *a, int k,
		       const char *rate, bool parse_only)
{
	char name[48];

	if (k < 0)
		snprintf(name, sizeof(name), "curve-%ld-max", (long)getpid());
	else
		snprintf(name, sizeof(name), "curve-%ld-%d", (long)getpid(), k + 1);
	ssl_method_argv(&c->m, a, name);
	av_addf(a, "--iodepth=%u", c->iodepth);
	av_addf(a, "--numjobs=%u", c->numjobs);
	av_add(a, "--group_reporting");
	av_addf(a, "--ramp_time=%" PRIu64 "ms", c->m.ramp_ms);
	av_addf(a, "--runtime=%" PRIu64 "ms", c->m.runtime_ms);
	if (rate) {
		av_addf(a, "--rate_iops=%s", rate);
		av_addf(a, "--rate_process=%s", c->rate_process);
	}
	av_add(a, "--percentile_list=" CURVE_PERCENTILES);
	av_add(a, "--output-format=json");
	av_addf(a, "--eta=%s", c->m.eta);
	if (parse_only)
		av_add(a, "--parse-only");
}

/* ---- curve.json ---- */

/* [[p, ns], ...] of a latency object's percentiles */
static json_object *pct_list(json_object *lat)
{
	json_object *arr = json_object_new_array();

	json_object_object_foreach(jget(lat, "percentile"), key, v) {
		json_object *pair = json_object_new_array();

		json_object_array_add(pair, json_object_new_double(strtod(key, NULL)));
		json_object_array_add(pair, json_object_new_int64(json_object_get_int64(v)));
		json_object_array_add(arr, pair);
	}
	return arr;
}

/* the sums a point's totals are made of */
struct curve_sums {
	double ios, iops, bw, bytes, lsum, lsq, lmax, p50, p99, p999;
	double rd_ios;
	double iios, isum, imax, ip50, ip99, ip999, late;
	bool intended;
};

static void keep_max(double *m, json_object *v)
{
	if (v && json_object_get_double(v) > *m)
		*m = json_object_get_double(v);
}

/* One direction of a run: NULL without I/O. */
static json_object *curve_dir(json_object *x, bool is_read, struct curve_sums *s)
{
	json_object *clat = jget(x, "clat_ns"), *il = jget(x, "lat_from_intended_ns");
	double n = jnum(x, "total_ios", 0), mean = jnum(clat, "mean", 0);
	double sd = jnum(clat, "stddev", 0);
	json_object *o;

	if (!x || n <= 0)
		return NULL;
	o = run_dir_head(x);
	jset(o, "lat_stddev_ns", json_object_new_double(sd));
	jset(o, "lat_max_ns", json_object_new_int64((int64_t)jnum(clat, "max", 0)));
	jset(o, "percentiles", pct_list(clat));
	s->ios += n;
	s->rd_ios += is_read ? n : 0;
	s->iops += jnum(x, "iops", 0);
	s->bw += jnum(x, "bw_bytes", 0);
	s->bytes += jnum(x, "io_bytes", 0);
	s->lsum += mean * n;
	s->lsq += (sd * sd + mean * mean) * n;
	if (jnum(clat, "max", 0) > s->lmax)
		s->lmax = jnum(clat, "max", 0);
	keep_max(&s->p50, jget(jget(clat, "percentile"), "50.000000"));
	keep_max(&s->p99, jget(jget(clat, "percentile"), "99.000000"));
	keep_max(&s->p999, jget(jget(clat, "percentile"), "99.900000"));
	if (il && jnum(il, "N", 0) > 0) {
		double in = jnum(il, "N", 0);

		jset(o, "intended_percentiles", pct_list(il));
		s->intended = true;
		s->iios += in;
		s->isum += jnum(il, "mean", 0) * in;
		if (jnum(il, "max", 0) > s->imax)
			s->imax = jnum(il, "max", 0);
		keep_max(&s->ip50, jget(jget(il, "percentile"), "50.000000"));
		keep_max(&s->ip99, jget(jget(il, "percentile"), "99.000000"));
		keep_max(&s->ip999, jget(jget(il, "percentile"), "99.900000"));
		s->late += jnum(jget(x, "rate"), "late_ios", 0);
	}
	return o;
}

static json_object *jns_or_null(double v)
{
	return v > 0 ? json_object_new_int64((int64_t)v) : NULL;
}

/* The point of run @job: k < 0 the max run, else curve point k at @target. */
static json_object *make_point(const struct curve_ctx *c, json_object *job, int k,
			       double target, const char *rel)
{
	struct curve_sums s = { 0 };
	json_object *o = json_object_new_object(), *x, *in;
	char label[32], tod[64];
	double mean, var;
	struct timeval tv;
	struct tm tm;

	point_label(label, sizeof(label), k, c);
	jset(o, "label", json_object_new_string(label));
	jset(o, "pct", k < 0 ? NULL : json_object_new_double(c->pct[k]));
	jset(o, "target_iops", k < 0 ? NULL : json_object_new_double(target));
	x = curve_dir(jget(job, "read"), true, &s);
	if (x)
		jset(o, "read", x);
	x = curve_dir(jget(job, "write"), false, &s);
	if (x)
		jset(o, "write", x);
	mean = s.ios > 0 ? s.lsum / s.ios : 0;
	var = s.ios > 0 ? s.lsq / s.ios - mean * mean : 0;
	jset(o, "iops", json_object_new_double(s.iops));
	jset(o, "ratio", k < 0 || target <= 0 ? NULL : json_object_new_double(s.iops / target));
	jset(o, "bw_bytes", json_object_new_double(s.bw));
	jset(o, "bytes_per_io", json_object_new_double(s.ios > 0 ? s.bytes / s.ios : 0));
	jset(o, "ios", json_object_new_int64((int64_t)s.ios));
	jset(o, "read_pct", json_object_new_double(s.ios > 0 ? 100 * s.rd_ios / s.ios : 0));
	jset(o, "lat_mean_ns", json_object_new_double(mean));
	jset(o, "lat_stddev_ns", json_object_new_double(var > 0 ? sqrt(var) : 0));
	jset(o, "lat_max_ns", json_object_new_int64((int64_t)s.lmax));
	jset(o, "lat_p50_ns", jns_or_null(s.p50));
	jset(o, "lat_p99_ns", jns_or_null(s.p99));
	jset(o, "lat_p99_9_ns", jns_or_null(s.p999));
	in = NULL;
	if (s.intended) {
		in = json_object_new_object();
		jset(in, "lat_mean_ns", json_object_new_double(s.iios > 0 ? s.isum / s.iios : 0));
		jset(in, "lat_max_ns", json_object_new_int64((int64_t)s.imax));
		jset(in, "lat_p50_ns", jns_or_null(s.ip50));
		jset(in, "lat_p99_ns", jns_or_null(s.ip99));
		jset(in, "lat_p99_9_ns", jns_or_null(s.ip999));
		jset(in, "late_ios", json_object_new_int64((int64_t)s.late));
	}
	jset(o, "intended", in);
	/* vdbench's flatfile time of day: the point's end, local time */
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(label, sizeof(label), "%H:%M:%S", &tm);
	snprintf(tod, sizeof(tod), "%s.%03d", label, (int)(tv.tv_usec / 1000));
	jset(o, "tod", json_object_new_string(tod));
	jset(o, "run_json", json_object_new_string(rel));
	return o;
}

static json_object *jpct_array(const double *v, unsigned int n)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_double(v[i]));
	return a;
}

static void new_doc(struct curve_ctx *c, const struct ssl_dev *d)
{
	json_object *s = json_object_new_object();

	c->doc = ssl_method_doc(&c->m, CURVE_FORMAT, CURVE_FORMAT_VERSION, d);
	jset(s, "filename", json_object_new_string(c->m.filename));
	jset(s, "curve_pct", jpct_array(c->pct, c->npct));
	jset(s, "max_iops_given", c->max_given > 0 ? json_object_new_double(c->max_given)
						   : NULL);
	jset(s, "ramp_ms", json_object_new_int64((int64_t)c->m.ramp_ms));
	jset(s, "runtime_ms", json_object_new_int64((int64_t)c->m.runtime_ms));
	jset(s, "rate_process", json_object_new_string(c->rate_process));
	jset(s, "stopcurve_ns", c->stop_ns ? json_object_new_int64((int64_t)c->stop_ns)
					   : NULL);
	jset(s, "stopcurve_intended_ns", c->stop_intended_ns ?
		 json_object_new_int64((int64_t)c->stop_intended_ns) : NULL);
	jset(s, "rw", NULL);
	jset(s, "bs", NULL);
	jset(s, "rwmixread", c->rdpct == 100 || c->rdpct == 0 ? NULL :
		 json_object_new_int((int)c->rdpct));
	jset(s, "iodepth", json_object_new_int((int)c->iodepth));
	jset(s, "numjobs", json_object_new_int((int)c->numjobs));
	jset(c->doc, "settings", s);
	jset(c->doc, "max_iops", c->max_given > 0 ? json_object_new_double(c->max_given)
						  : NULL);
	jset(c->doc, "max", NULL);
	jset(c->doc, "points", json_object_new_array());
	jset(c->doc, "skipped_pct", json_object_new_array());
	jset(c->doc, "stop", NULL);
}

/* settings.rw and bs: what the first run ran ("job options" of fio's JSON) */
static void settings_from_run(struct curve_ctx *c, json_object *job)
{
	json_object *s = jget(c->doc, "settings"), *opts = jget(job, "job options");
	const char *rw = jstring(opts, "rw");
	const char *bs = jstring(opts, "bs");
	uint64_t v;

	if (jget(s, "rw") && json_object_get_type(jget(s, "rw")) == json_type_string)
		return;
	jset(s, "rw", json_object_new_string(*rw ? rw : "unknown"));
	jset(s, "bs", *bs && !ssl_parse_size(bs, &v) ? json_object_new_int64((int64_t)v)
						      : NULL);
}

/* ---- flatfile.csv: vdbench's flatfile columns, one row per point ---- */

static void flat_ms(FILE *f, json_object *o, const char *key)
{
	if (o)
		fprintf(f, ",%.3f", jnum(o, key, 0) / 1e6);
	else
		fprintf(f, ",0.000");
}

static void flat_row(FILE *f, const struct curve_ctx *c, json_object *p)
{
	json_object *rd = jget(p, "read"), *wr = jget(p, "write"), *in = jget(p, "intended");
	json_object *s = jget(c->doc, "settings");
	double iops = jnum(p, "iops", 0), resp = jnum(p, "lat_mean_ns", 0);

	fprintf(f, "%s,%s,avg,%.1f,%.2f,%.2f,%.0f,%.2f", jstring(p, "tod"),
		jstring(p, "label"), jnum(p, "target_iops", 0), iops,
		jnum(p, "bw_bytes", 0) / 1048576.0, jnum(p, "bytes_per_io", 0),
		jnum(p, "read_pct", 0));
	fprintf(f, ",%.3f", resp / 1e6);
	flat_ms(f, rd, "lat_mean_ns");
	flat_ms(f, wr, "lat_mean_ns");
	flat_ms(f, p, "lat_max_ns");
	flat_ms(f, rd, "lat_max_ns");
	flat_ms(f, wr, "lat_max_ns");
	flat_ms(f, p, "lat_stddev_ns");
	flat_ms(f, rd, "lat_stddev_ns");
	flat_ms(f, wr, "lat_stddev_ns");
	fprintf(f, ",%.0f,%u,%u,%.2f", jnum(s, "bs", 0), c->iodepth * c->numjobs, c->rdpct,
		iops * resp / 1e9);
	flat_ms(f, in, "lat_mean_ns");
	flat_ms(f, in, "lat_max_ns");
	fprintf(f, ",%.0f\n", jnum(in, "late_ios", 0));
}

static int write_flatfile(const struct curve_ctx *c)
{
	json_object *pts = jget(c->doc, "points"), *max = jget(c->doc, "max");
	struct ssl_atomic a;
	char path[PATH_MAX];
	size_t i;
	FILE *f;

	if (ssl_method_path(&c->m, path, sizeof(path), CURVE_FLATFILE))
		return -1;
	f = ssl_atomic_open(&a, path);
	if (!f)
		return -1;
	fprintf(f, "tod,Run,Interval,reqrate,rate,MB/sec,bytes/io,read%%,resp,read_resp,"
		"write_resp,resp_max,read_max,write_max,resp_std,read_std,write_std,xfersize,"
		"threads,rdpct,queue_depth,intended_resp,intended_max,late_ios\n");
	if (max)
		flat_row(f, c, max);
	for (i = 0; i < json_object_array_length(pts); i++)
		flat_row(f, c, json_object_array_get_idx(pts, i));
	return ssl_atomic_commit(&a);
}

/* ---- output ---- */

static void lat_cell(char *buf, size_t len, json_object *o, const char *key)
{
	if (o && jget(o, key) && jnum(o, key, 0) > 0)
		ssl_lat_str(buf, len, jnum(o, key, 0));
	else
		snprintf(buf, len, "-");
}

static void print_row(json_object *p)
{
	json_object *in = jget(p, "intended");
	char mean[32], p99[32], max[32], imean[32], ip99[32], tgt[32], pct[16];

	lat_cell(mean, sizeof(mean), p, "lat_mean_ns");
	lat_cell(p99, sizeof(p99), p, "lat_p99_ns");
	lat_cell(max, sizeof(max), p, "lat_max_ns");
	lat_cell(imean, sizeof(imean), in, "lat_mean_ns");
	lat_cell(ip99, sizeof(ip99), in, "lat_p99_ns");
	if (jget(p, "target_iops")) {
		snprintf(tgt, sizeof(tgt), "%.0f", jnum(p, "target_iops", 0));
		snprintf(pct, sizeof(pct), "%.1f%%", 100 * jnum(p, "ratio", 0));
	} else {
		snprintf(tgt, sizeof(tgt), "max");
		snprintf(pct, sizeof(pct), "-");
	}
	printf("  %6s  %10s  %10.0f  %7s  %8.1f  %9s  %9s  %9s  %9s  %9s  %8.0f\n",
	       jstring(p, "label"), tgt, jnum(p, "iops", 0), pct, jnum(p, "bw_bytes", 0) / 1e6,
	       mean, p99, max, imean, ip99, jnum(in, "late_ios", 0));
}

static void print_table(const void *ctx)
{
	const struct curve_ctx *c = ctx;
	json_object *pts = jget(c->doc, "points"), *s = jget(c->doc, "settings");
	json_object *stop = jget(c->doc, "stop"), *skip = jget(c->doc, "skipped_pct");
	size_t i;

	printf("ssdload curve: %s bs=%d iodepth=%u numjobs=%u on %s, max %.0f IOPS%s, ramp %"
	       PRIu64 " ms + %" PRIu64 " ms per point, %s arrivals (%s)\n",
	       jstring(s, "rw"), (int)jnum(s, "bs", 0), c->iodepth, c->numjobs, c->m.filename,
	       jnum(c->doc, "max_iops", 0), c->max_given > 0 ? " (given)" : " (measured)",
	       c->m.ramp_ms, c->m.runtime_ms, c->rate_process, jstring(c->doc, "state"));
	printf("  %6s  %10s  %10s  %7s  %8s  %9s  %9s  %9s  %9s  %9s  %8s\n", "point",
	       "target", "IOPS", "of tgt", "MB/s", "resp mean", "resp p99", "resp max",
	       "int. mean", "int. p99", "late");
	if (jget(c->doc, "max"))
		print_row(jget(c->doc, "max"));
	for (i = 0; i < json_object_array_length(pts); i++)
		print_row(json_object_array_get_idx(pts, i));
	printf("resp: submit to completion; int.: from the intended send time; late: I/Os "
	       "sent over 1 ms after it\n");
	if (stop) {
		printf("stopped at %g%%: %s", jnum(stop, "pct", 0), jstring(stop, "reason"));
		for (i = 0; i < json_object_array_length(skip); i++)
			printf("%s%g%%", i ? ", " : "; not run: ",
			       json_object_get_double(json_object_array_get_idx(skip, i)));
		printf("\n");
	}
	printf("results: %s/%s, %s/%s\n", c->m.dir, CURVE_JSON, c->m.dir, CURVE_FLATFILE);
}

/* ---- the command ---- */

/* The bound point @p passed, as a sentence into @buf; false if none. */
static bool passed_bound(const struct curve_ctx *c, json_object *p, char *buf, size_t len)
{
	double m = jnum(p, "lat_mean_ns", 0);
	double im = jnum(jget(p, "intended"), "lat_mean_ns", 0);
	char a[32], b[32];

	if (c->stop_ns && m > (double)c->stop_ns) {
		ssl_lat_str(a, sizeof(a), m);
		ssl_lat_str(b, sizeof(b), (double)c->stop_ns);
		snprintf(buf, len, "mean latency %s above --stopcurve=%s", a, b);
		return true;
	}
	if (c->stop_intended_ns && im > (double)c->stop_intended_ns) {
		ssl_lat_str(a, sizeof(a), im);
		ssl_lat_str(b, sizeof(b), (double)c->stop_intended_ns);
		snprintf(buf, len, "mean latency from the intended time %s above "
			 "--stopcurve-intended=%s", a, b);
		return true;
	}
	return false;
}

/*
 * Run point @k (-1: the max run) into DIR/run-*.json and add it to the
 * document.  0, or the run's exit status (a signal: 128+N).
 */
static int run_point(struct curve_ctx *c, int k)
{
	char rel[64], path[PATH_MAX], rate[64];
	struct ssl_argv a = { 0 };
	json_object *run, *job;
	double target = 0;
	int st;

	if (run_file(c, k, rel, sizeof(rel)) || ssl_method_path(&c->m, path, sizeof(path), rel))
		return CURVE_EXIT_FAILED;
	if (k >= 0)
		rate_arg(c, k, jnum(c->doc, "max_iops", 0), rate, sizeof(rate), &target);
	curve_argv(c, &a, k, k < 0 ? NULL : rate, false);
	st = ssl_run_spawn(&a, path);
	av_free(&a);
	run = ssl_json_read(path, SSL_JSON_MAX_BYTES, NULL);
	job = run ? run_job0(run) : NULL;
	if (job && !st) {
		json_object *p = make_point(c, job, k, target, rel);

		settings_from_run(c, job);
		if (k < 0) {
			jset(c->doc, "max", p);
			jset(c->doc, "max_iops", json_object_new_double(jnum(p, "iops", 0)));
		} else {
			json_object_array_add(jget(c->doc, "points"), p);
		}
	}
	if (run)
		json_object_put(run);
	if (!st && !job) {
		ssl_err("curve: the run left no results in %s", path);
		st = CURVE_EXIT_FAILED;
	}
	return st;
}

static int curve_main(void *ctx)
{
	struct curve_ctx *c = ctx;
	struct ssl_argv a = { 0 };
	const char *state = "done";
	struct ssl_dev dev;
	char why[160];
	int st = 0, k;

	st = ssl_method_guard(&c->m, &c->m.filename, 1);
	if (st)
		return st > 0 ? 0 : CURVE_EXIT_USAGE;
	if (ssl_make_outdir("curve", c->m.dir, sizeof(c->m.dir), CURVE_JSON, &c->m.made_dir))
		return CURVE_EXIT_USAGE;
	/* the run's own checks first, at the highest rate: a refusal leaves nothing */
	snprintf(why, sizeof(why), "%.0f", c->pct[c->npct - 1] / 100 *
		 (c->max_given > 0 ? c->max_given : 1e6));
	curve_argv(c, &a, 0, why, true);
	st = ssl_method_trial(&c->m, &a);
	if (st)
		goto refused;
	memset(&dev, 0, sizeof(dev));
	if (ssl_dev_probe(c->m.filename, &dev))
		goto refused;
	new_doc(c, &dev);
	if (ssl_method_save(&c->m, c->doc, CURVE_JSON))
		return CURVE_EXIT_FAILED;
	ssl_run_catch_signals();
	st = ssl_method_precondition(&c->m, c->doc, CURVE_JSON, &c->m.filename, 1);
	if (!st && !(c->max_given > 0)) {
		st = run_point(c, -1);
		if (!st && !(jnum(c->doc, "max_iops", 0) >= 1)) {
			ssl_err("curve: the max run did no I/O: no curve to run");
			st = CURVE_EXIT_FAILED;
		}
	}
	for (k = 0; !st && !ssl_run_sig && k < (int)c->npct; k++) {
		json_object *pts = jget(c->doc, "points"), *stop;

		if (ssl_method_save(&c->m, c->doc, CURVE_JSON))
			return CURVE_EXIT_FAILED;
		st = run_point(c, k);
		if (st || !passed_bound(c, json_object_array_get_idx(pts, (size_t)k), why,
					sizeof(why)))
			continue;
		state = "stopped";
		stop = json_object_new_object();
		jset(stop, "pct", json_object_new_double(c->pct[k]));
		jset(stop, "reason", json_object_new_string(why));
		jset(c->doc, "stop", stop);
		while (++k < (int)c->npct)
			json_object_array_add(jget(c->doc, "skipped_pct"),
					      json_object_new_double(c->pct[k]));
	}
	if (ssl_run_sig || st > 128)
		state = "interrupted";
	else if (st)
		state = "failed";
	if (ssl_method_finish(&c->m, c->doc, CURVE_JSON, state) || write_flatfile(c))
		return CURVE_EXIT_FAILED;
	ssl_method_output(&c->m, c->doc, print_table, c);
	return ssl_method_status(st, CURVE_EXIT_FAILED);

refused:
	if (c->m.made_dir)
		rmdir(c->m.dir);
	return CURVE_EXIT_USAGE;
}

static void free_ctx(struct curve_ctx *c)
{
	ssl_method_free(&c->m);
	if (c->doc)
		json_object_put(c->doc);
}

int cmd_curve(int argc, const char **argv)
{
	static const double vdbench[] = { 10, 50, 70, 80, 90, 100 };
	struct curve_ctx *c = calloc(1, sizeof(*c));
	int r;

	if (!c) {
		ssl_err("curve: out of memory");
		return CURVE_EXIT_FAILED;
	}
	c->m.cmd = "curve";
	c->m.eta = "auto";
	c->rate_process = "poisson";
	c->iodepth = 8;
	c->numjobs = 1;
	c->m.ramp_ms = 30000;
	c->m.runtime_ms = 120000;
	memcpy(c->pct, vdbench, sizeof(vdbench));
	c->npct = ARRAY_SIZE(vdbench);
	r = ssl_method_main(&c->m, argc, argv, curve_parse, curve_main, c);
	free_ctx(c);
	free(c);
	return r;
}
