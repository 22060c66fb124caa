// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload pts: the machinery the families of tests share (see common.h):
 * spawning `ssdload run`, the phases before the stimulus (purge, write
 * cache, WIPC), rounds of points and their steady state, the measurement
 * window, and segments of samples of a continuous stimulus.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/fs.h>

#include <json-c/json.h>

#include "uapi/ssdload.h"
#include "core/configfs.h"
#include "core/hist.h"
#include "core/util.h"
#include "device/device.h"
#include "methods/precondition.h"
#include "methods/runner.h"
#include "pts/common.h"
#include "pts/ss.h"

const char *const pts_metric_key[] = {
	[PTS_IOPS] = "iops", [PTS_BW] = "bw_bytes", [PTS_LAT_MEAN] = "lat_mean_ns",
};

const char *const pts_metric_unit[] = {
	[PTS_IOPS] = "IOPS", [PTS_BW] = "B/s", [PTS_LAT_MEAN] = "ns",
};

int pts_path(const struct pts_ctx *c, char *buf, size_t len, const char *rel)
{
	return ssl_dir_path("pts", c->dir, rel, buf, len);
}

int pts_save(struct pts_ctx *c)
{
	char path[PATH_MAX];

	jset(c->doc, "updated", jnow());
	if (pts_path(c, path, sizeof(path), PTS_JSON))
		return -1;
	return json_save(c->doc, path);
}

/* ---- running `ssdload run` ---- */

/* The options every run of the test shares, its output in @format. */
static void av_head(const struct pts_ctx *c, struct ssl_argv *a, const char *name,
		    const char *format)
{
	av_add(a, "ssdload");
	av_add(a, "run");
	av_addf(a, "--name=%s", name);
	av_addf(a, "--filename=%s", c->filename);
	av_add(a, "--allow_write=1");
	/* rounds last their runtime; a pass over the span is not an end */
	av_add(a, "--time_based");
	av_addf(a, "--eta=%s", c->eta);
	av_addf(a, "--output-format=%s", format);
	av_add(a, "--group_reporting");
}

void av_common(const struct pts_ctx *c, struct ssl_argv *a, const char *name)
{
	av_head(c, a, name, "json");
}

void av_common_bins(const struct pts_ctx *c, struct ssl_argv *a, const char *name)
{
	av_head(c, a, name, "json+");
}

/* ECW's access pattern: its block sizes and zones (DIRTH: nothing to add) */
void av_stimulus(const struct pts_ctx *c, struct ssl_argv *a)
{
	if (c->def->bssplit)
		av_addf(a, "--bssplit=%s", c->def->bssplit);
	if (c->def->zones)
		av_addf(a, "--random_distribution=%s", c->def->zones);
}

/*
 * The writes of a segment: random (aligned to @bs: pts_blockalign(); ECW's
 * block sizes: 4 KiB) or sequential, of
 * @bs; the options of their `ssdload run`.
 */
void av_writes(const struct pts_ctx *c, struct ssl_argv *a, const char *name,
	       unsigned int seed, bool random, unsigned int bs)
{
	av_common(c, a, name);
	av_add(a, random ? "--rw=randwrite" : "--rw=write");
	av_addf(a, "--bs=%u", bs);
	if (random)
		av_addf(a, "--blockalign=%u", c->def->bssplit ? pts_round_blockalign(c) :
			pts_blockalign(c, bs));
	av_addf(a, "--numjobs=%u", c->threads);
	av_addf(a, "--iodepth=%u", c->iodepth);
	av_addf(a, "--size=%llu", (unsigned long long)c->active_bytes);
	av_addf(a, "--randseed=%u", 0x5d5 + seed);
	if (c->keep_last_job)
		av_add(a, "--keep-job");
}

/* The random 4KiB writes of WSAT, and of HIR's preconditioning and baselines. */
void av_rnd_writes(const struct pts_ctx *c, struct ssl_argv *a, const char *name,
		   unsigned int seed)
{
	av_writes(c, a, name, seed, true, c->bs[0]);
	av_stimulus(c, a);
}

static const char *job_prefix = "pts";

void job_name(char *buf, size_t len, const struct pts_ctx *c, const char *what)
{
	snprintf(buf, len, "%s-%s-%d-%s", job_prefix, c->def->name, (int)getpid(), what);
}

/*
 * --keep-last-job: the job of the run just made stays, the one kept before
 * it goes (every run of these tests has a job of its own).
 */
void keep_rotate(struct pts_ctx *c, const char *name)
{
	if (!c->keep_last_job)
		return;
	if (*c->kept && strcmp(c->kept, name))
		cfs_job_remove(c->kept);
	snprintf(c->kept, sizeof(c->kept), "%s", name);
}

int spawn_status(int st, const char *what)
{
	if (st == 0)
		return 0;
	if (ssl_run_sig || st > 128)
		return st > 128 ? st : SSL_EXIT_SIGNAL(ssl_run_sig);
	ssl_err("pts: %s failed (ssdload run exited %d)", what, st);
	return PTS_EXIT_FAILED;
}

int spawn_read(struct ssl_argv *a, const char *out, const char *what, json_object **run)
{
	int st;

	*run = NULL;
	st = ssl_run_spawn(a, out);
	av_free(a);
	st = spawn_status(st, what);
	if (st)
		return st;
	*run = ssl_read_run(out);
	return *run ? 0 : PTS_EXIT_FAILED;
}

/* ---- health, deviations, JSON helpers ---- */

json_object *health_json(const struct ssl_health *h)
{
	json_object *o;

	if (!h->have)
		return NULL;
	o = json_object_new_object();
	jset(o, "temperature_k", json_object_new_int(h->temperature_k));
	jset(o, "data_units_written", json_object_new_int64((int64_t)h->data_units_written));
	jset(o, "data_units_read", json_object_new_int64((int64_t)h->data_units_read));
	jset(o, "host_write_commands", json_object_new_int64((int64_t)h->host_write_commands));
	jset(o, "host_read_commands", json_object_new_int64((int64_t)h->host_read_commands));
	jset(o, "percentage_used", json_object_new_int((int)h->percentage_used));
	jset(o, "critical_warning", json_object_new_int((int)h->critical_warning));
	jset(o, "media_errors", json_object_new_int64((int64_t)h->media_errors));
	jset(o, "power_on_hours", json_object_new_int64((int64_t)h->power_on_hours));
	jset(o, "available_spare", json_object_new_int((int)h->available_spare));
	return o;
}

json_object *health_now(const struct pts_ctx *c)
{
	struct ssl_health h;

	memset(&h, 0, sizeof(h));
	ssl_dev_health(&c->dev, &h);
	return health_json(&h);
}

void deviation(struct pts_ctx *c, const char *fmt, ...)
{
	json_object *a = jget(c->doc, "deviations");
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_array_add(a, json_object_new_string(buf));
	jset(c->doc, "conformant", json_object_new_boolean(false));
}

const char *const pts_window_at_name[] = { "steady", "last" };

bool rounds_deviation(struct pts_ctx *c)
{
	if (c->window && c->window != SSL_SS_WINDOW)
		deviation(c, "measurement window of %u rounds (spec: %d)", c->window,
			  SSL_SS_WINDOW);
	if (c->window_at != SSL_WINDOW_AT_STEADY)
		deviation(c, "measurement window at the last rounds run (spec: where steady "
			  "state is reached)");
	if (c->max_rounds == SSL_SS_MAX_ROUNDS)
		return false;
	deviation(c, "round limit %u (spec: %d)", c->max_rounds, SSL_SS_MAX_ROUNDS);
	return true;
}

unsigned int rounds_needed(const struct pts_ctx *c)
{
	unsigned int n = c->window > SSL_SS_WINDOW ? c->window : SSL_SS_WINDOW;

	return c->min_rounds > n ? c->min_rounds : n;
}

unsigned int pts_blockalign(const struct pts_ctx *c, unsigned int bs)
{
	unsigned int lbs = c->dev.logical_block_size ? c->dev.logical_block_size : 512;

	return bs >= lbs && !(bs % lbs) ? bs : lbs;
}

unsigned int pts_round_blockalign(const struct pts_ctx *c)
{
	return pts_blockalign(c, 4096);
}

void bs_label(char *buf, size_t len, unsigned int bs)
{
	if (bs % 1024)
		snprintf(buf, len, "%.1fK", bs / 1024.0);
	else
		snprintf(buf, len, "%uK", bs / 1024);
}

json_object *juints(const unsigned int *v, unsigned int n)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int((int)v[i]));
	return a;
}

/* The module's max_job_mem_mb (MiB; its default if not loaded). */
unsigned long long max_job_mem(void)
{
	unsigned long long cap = 1024;
	FILE *f = fopen("/sys/module/ssdload/parameters/max_job_mem_mb", "r");

	if (f) {
		if (fscanf(f, "%llu", &cap) != 1)
			cap = 1024;
		fclose(f);
	}
	return cap;
}

/* ---- the phases before the stimulus: purge, write cache, WIPC ---- */

/* A finished phase object in the doc, or NULL. */
json_object *phase_done(const struct pts_ctx *c, const char *key)
{
	json_object *p = jget(c->doc, key);

	return p && jget(p, "duration_ms") ? p : NULL;
}

/*
 * One sequential write pass (or @loops) of @bs writes over @bytes from 0:
 * the shared write pass of methods/precondition.c.
 */
int seq_fill(struct pts_ctx *c, const char *what, unsigned int bs, uint64_t bytes,
	     unsigned int loops, const char *out, json_object *rec)
{
	struct ssl_wpass w = {
		.bs = bs, .iodepth = SSL_PC_QD, .loops = loops, .bytes = bytes,
	};
	struct ssl_argv a = { 0 };
	char name[128];
	int st;

	job_name(name, sizeof(name), c, what);
	av_common(c, &a, name);
	ssl_wpass_argv(&a, &w);
	st = ssl_wpass_run(&a, out, &w, rec, NULL);
	return st < 0 ? PTS_EXIT_FAILED : spawn_status(st, what);
}

/*
 * Purge through the exclusive @fd; it is closed (*fd = -1) before the
 * engine opens the device itself (an overwrite).
 */
int do_purge(struct pts_ctx *c, int *fd)
{
	json_object *p;
	enum ssl_purge used = SSL_PURGE_NONE;
	char detail[256] = "", out[PATH_MAX];
	uint64_t t0 = ssl_now_ms();
	const char *why = NULL;
	int st, ok;

	if (phase_done(c, "purge"))
		return 0;
	fprintf(stderr, "pts: purge (%s) of %s\n", ssl_purge_name(c->purge), c->filename);
	if (ssl_dev_purge(&c->dev, *fd, c->purge, &used, detail, sizeof(detail)))
		return PTS_EXIT_FAILED;
	ioctl(*fd, BLKFLSBUF, 0);	/* no stale cached pages of the old data */
	p = json_object_new_object();
	if (used == SSL_PURGE_OVERWRITE) {
		/* no erase command: one full write pass with the engine */
		if (pts_path(c, out, sizeof(out), "rounds/purge-overwrite.json"))
			return PTS_EXIT_FAILED;
		close(*fd);
		*fd = -1;
		st = seq_fill(c, "purge", PTS_WIPC_BS, c->dev.capacity_bytes, 1, out, p);
		if (st) {
			json_object_put(p);
			return st;
		}
		snprintf(detail, sizeof(detail), "one sequential 128KiB write pass over %llu bytes",
			 (unsigned long long)c->dev.capacity_bytes);
	}
	ok = ssl_purge_conformant(used, &why);
	jset(p, "method", json_object_new_string(ssl_purge_name(used)));
	jset(p, "detail", json_object_new_string(detail));
	jset(p, "conformant", json_object_new_boolean(ok));
	if (!ok)
		jset(p, "not_conformant_why", json_object_new_string(why));
	jset(p, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	jset(c->doc, "purge", p);
	if (used == SSL_PURGE_NONE)
		deviation(c, "purge: none (--purge=none): the device was not purged");
	else if (!ok)
		deviation(c, "purge: %s: %s", ssl_purge_name(used), why);
	return pts_save(c) ? PTS_EXIT_FAILED : 0;
}

int do_write_cache(struct pts_ctx *c)
{
	json_object *wc = jget(jget(c->doc, "device"), "write_cache");

	if (c->wc != PTS_WC_LEAVE && c->dev.vwc_present == 1 &&
	    c->dev.wc != (c->wc == PTS_WC_ON ? SSL_WC_ENABLED : SSL_WC_DISABLED)) {
		if (ssl_dev_set_write_cache(&c->dev, c->wc == PTS_WC_ON))
			return PTS_EXIT_FAILED;
	}
	jset(wc, "during", json_object_new_string(ssl_wc_name(c->dev.wc)));
	if (c->dev.wc == SSL_WC_ENABLED)
		deviation(c, "write cache: enabled during the test (Enterprise: disabled)");
	else if (c->dev.wc == SSL_WC_UNKNOWN)
		deviation(c, "write cache: state unknown (Enterprise: disabled)");
	return 0;
}

int do_wipc(struct pts_ctx *c)
{
	json_object *w;
	char out[PATH_MAX], sz[32];
	uint64_t bytes = c->active_bytes;
	/* throughput: each block size is its own test, preconditioned with it */
	unsigned int bs = c->def->random ? PTS_WIPC_BS : c->bs[0];
	int st;

	if (phase_done(c, "wipc"))
		return 0;
	if (c->wipc_factor == 0) {
		jset(c->doc, "wipc", NULL);
		return 0;
	}
	ssl_size_str(sz, sizeof(sz), (uint64_t)(c->wipc_factor * bytes));
	fprintf(stderr, "pts: WIPC: %s of SEQ %uKiB writes (%g x the active range)\n", sz,
		bs / 1024, c->wipc_factor);
	if (pts_path(c, out, sizeof(out), "rounds/wipc.json"))
		return PTS_EXIT_FAILED;
	w = json_object_new_object();
	/* whole passes: --loops; a fraction of a pass is a shorter span */
	if (c->wipc_factor == floor(c->wipc_factor))
		st = seq_fill(c, "wipc", bs, bytes, (unsigned int)c->wipc_factor, out, w);
	else
		st = seq_fill(c, "wipc", bs, (uint64_t)(c->wipc_factor * bytes / bs) * bs, 1,
			      out, w);
	if (st) {
		json_object_put(w);
		return st;
	}
	jset(w, "factor", json_object_new_double(c->wipc_factor));
	jset(c->doc, "wipc", w);
	return pts_save(c) ? PTS_EXIT_FAILED : 0;
}

/* ---- rounds of points: their steady state, the measurement window ---- */

/* DIR object of a point from the run's read/write object */
static json_object *point_dir(json_object *x, uint64_t *ios, double *lat_sum, uint64_t *lat_max)
{
	json_object *o = json_object_new_object(), *clat = jget(x, "clat_ns"), *p;
	double n = jnum(x, "total_ios", 0), mean = jnum(clat, "mean", NAN);

	jset(o, "ios", json_object_new_int64((int64_t)n));
	jset(o, "bytes", json_object_new_int64((int64_t)jnum(x, "io_bytes", 0)));
	jset(o, "iops", json_object_new_double(jnum(x, "iops", 0)));
	jset(o, "bw_bytes", json_object_new_double(jnum(x, "bw_bytes", 0)));
	if (n > 0) {
		jset(o, "lat_min_ns", json_object_new_int64((int64_t)jnum(clat, "min", 0)));
		jset(o, "lat_mean_ns", jdouble_or_null(mean));
		jset(o, "lat_max_ns", json_object_new_int64((int64_t)jnum(clat, "max", 0)));
		p = jget(clat, "percentile");
		jset(o, "percentiles", p ? json_object_get(p) : NULL);
		/* json+: the exact histogram, which the window's percentiles merge */
		p = jget(clat, "bins");
		if (p)
			jset(o, "bins", json_object_get(p));
		*ios += (uint64_t)n;
		*lat_sum += mean * n;
		if ((uint64_t)jnum(clat, "max", 0) > *lat_max)
			*lat_max = (uint64_t)jnum(clat, "max", 0);
	} else {
		jset(o, "lat_min_ns", NULL);
		jset(o, "lat_mean_ns", NULL);
		jset(o, "lat_max_ns", NULL);
		jset(o, "percentiles", NULL);
	}
	return o;
}

json_object *point_json(const struct pts_ctx *c, json_object *step, unsigned int bs,
			unsigned int mix)
{
	json_object *o = json_object_new_object(), *rd, *wr;
	double lat_sum = 0;
	uint64_t ios = 0, lat_max = 0;

	jset(o, "bs", json_object_new_int((int)bs));
	jset(o, "rwmixread", json_object_new_int((int)mix));
	jset(o, "pattern", json_object_new_string(c->def->random ? "random" : "sequential"));
	jset(o, "runtime_ms", json_object_new_double(jnum(step, "runtime_ns", 0) / 1e6));
	rd = point_dir(jget(step, "read"), &ios, &lat_sum, &lat_max);
	wr = point_dir(jget(step, "write"), &ios, &lat_sum, &lat_max);
	jset(o, "iops", json_object_new_double(jnum(rd, "iops", 0) + jnum(wr, "iops", 0)));
	jset(o, "bw_bytes", json_object_new_double(jnum(rd, "bw_bytes", 0) +
						    jnum(wr, "bw_bytes", 0)));
	jset(o, "lat_mean_ns", ios ? jdouble_or_null(lat_sum / ios) : NULL);
	jset(o, "lat_max_ns", ios ? json_object_new_int64((int64_t)lat_max) : NULL);
	jset(o, "read", rd);
	jset(o, "write", wr);
	return o;
}

unsigned int rounds_done(const struct pts_ctx *c)
{
	return json_object_array_length(jget(c->doc, "rounds"));
}

json_object *window_json(const struct ssl_ss_window *w, const double *y,
			 bool reached, unsigned int rounds_run, unsigned int max_rounds)
{
	json_object *o = json_object_new_object(), *win, *vals;
	unsigned int r;

	jset(o, "reached", json_object_new_boolean(reached));
	jset(o, "round", reached ? json_object_new_int((int)w->last) : NULL);
	win = json_object_new_array();
	json_object_array_add(win, json_object_new_int((int)w->first));
	json_object_array_add(win, json_object_new_int((int)w->last));
	jset(o, "window", win);
	vals = json_object_new_array();
	for (r = w->first; r <= w->last; r++)
		json_object_array_add(vals, json_object_new_double(y[r - 1]));
	jset(o, "values", vals);
	jset(o, "average", jdouble_or_null((double)w->avg));
	jset(o, "min", jdouble_or_null((double)w->min));
	jset(o, "max", jdouble_or_null((double)w->max));
	jset(o, "range", jdouble_or_null((double)w->range));
	jset(o, "range_pct", jdouble_or_null((double)w->range_pct));
	jset(o, "range_pass", json_object_new_boolean(w->range_ok));
	jset(o, "slope", jdouble_or_null((double)w->slope));
	jset(o, "intercept", jdouble_or_null((double)w->intercept));
	jset(o, "slope_excursion", jdouble_or_null((double)w->slope_exc));
	jset(o, "slope_excursion_pct", jdouble_or_null((double)w->slope_exc_pct));
	jset(o, "slope_pass", json_object_new_boolean(w->slope_ok));
	jset(o, "range_limit_pct", json_object_new_double(SSL_SS_RANGE_PCT));
	jset(o, "slope_limit_pct", json_object_new_double(SSL_SS_SLOPE_PCT));
	jset(o, "rounds_run", json_object_new_int((int)rounds_run));
	jset(o, "max_rounds", json_object_new_int((int)max_rounds));
	return o;
}

/*
 * The steady-state check after the rounds so far: updates steady_state in
 * the doc.  Returns 1 when the test ends (steady, or the round limit).
 */
int check_steady_in(struct pts_ctx *c, const char *arr, const char *key,
		    const char *dest)
{
	json_object *rounds = jget(c->doc, arr);
	unsigned int n = json_object_array_length(rounds), i, steady;
	struct ssl_ss_limits l;
	struct ssl_ss_window w;
	double y[1000];

	if (n < SSL_SS_WINDOW)
		return 0;
	for (i = 0; i < n && i < ARRAY_SIZE(y); i++) {
		y[i] = jnum(json_object_array_get_idx(rounds, i), key, NAN);
		if (!isfinite(y[i]))
			y[i] = 0;
	}
	ssl_ss_limits_default(&l);
	l.max_rounds = c->max_rounds;
	steady = ssl_ss_scan(y, n, &l, &w, NULL, NULL);
	jset(c->doc, dest, window_json(&w, y, steady != 0, n, c->max_rounds));
	return steady || n >= c->max_rounds;
}

double points_metric(const struct pts_ctx *c, json_object *points, unsigned int bs,
		     unsigned int mix)
{
	size_t i, n = json_object_array_length(points);

	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(points, i);

		if ((unsigned int)jnum(p, "bs", 0) != bs ||
		    (unsigned int)jnum(p, "rwmixread", -1) != mix)
			continue;
		if (c->def->metric == PTS_LAT_MEAN)
			return jnum(jget(p, "write"), "lat_mean_ns", NAN);
		return jnum(p, pts_metric_key[c->def->metric], NAN);
	}
	return NAN;
}

/*
 * check_steady_in() for a test with several tracking variables, read from
 * each round's points: steady at the first round whose window passes for
 * all of them.  steady_state is the first variable's window there (or at
 * the last round evaluated), with "variables": each one's window.
 */
static int check_steady_tracks(struct pts_ctx *c)
{
	const struct pts_def *t = c->def;
	json_object *rounds = jget(c->doc, "rounds"), *st, *vars;
	unsigned int n = json_object_array_length(rounds), i, v, steady;
	struct ssl_ss_window w[PTS_MAX_TRACKS];
	static double y[PTS_MAX_TRACKS][1000];
	const double *yv[PTS_MAX_TRACKS];
	struct ssl_ss_limits l;

	if (n < SSL_SS_WINDOW)
		return 0;
	n = n < ARRAY_SIZE(y[0]) ? n : ARRAY_SIZE(y[0]);
	for (v = 0; v < t->ntracks; v++) {
		for (i = 0; i < n; i++) {
			y[v][i] = points_metric(c, jget(json_object_array_get_idx(rounds, i),
						       "points"), t->tracks[v].bs,
						t->tracks[v].rwmixread);
			if (!isfinite(y[v][i]))
				y[v][i] = 0;
		}
		yv[v] = y[v];
	}
	ssl_ss_limits_default(&l);
	l.max_rounds = c->max_rounds;
	steady = ssl_ss_scan_all(yv, t->ntracks, n, &l, w, NULL, NULL);
	st = window_json(&w[0], y[0], steady != 0, n, c->max_rounds);
	vars = json_object_new_array();
	for (v = 0; v < t->ntracks; v++) {
		json_object *o = window_json(&w[v], y[v], ssl_ss_steady(&w[v]), n,
					     c->max_rounds);

		jset(o, "bs", json_object_new_int((int)t->tracks[v].bs));
		jset(o, "rwmixread", json_object_new_int((int)t->tracks[v].rwmixread));
		json_object_array_add(vars, o);
	}
	jset(st, "variables", vars);
	jset(c->doc, "steady_state", st);
	return steady || n >= c->max_rounds;
}

/* The test ends at steady state or the round limit, and its rounds needed. */
int check_steady(struct pts_ctx *c)
{
	int end = c->def->ntracks > 1 ? check_steady_tracks(c) :
		  check_steady_in(c, "rounds", "tracking", "steady_state");

	return end && rounds_done(c) >= rounds_needed(c);
}

int rounds_to_steady(struct pts_ctx *c, int (*round)(struct pts_ctx *c, unsigned int r))
{
	unsigned int r;
	int st;

	for (r = rounds_done(c) + 1; ; r++) {
		if (rounds_done(c) >= SSL_SS_WINDOW && check_steady(c))
			return 0;
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		st = round(c, r);
		if (st)
			return st;
		check_steady(c);
		if (pts_save(c))
			return -1;
	}
}

int steady_status(const struct pts_ctx *c)
{
	return json_object_get_boolean(jget(jget(c->doc, "steady_state"), "reached")) ? 0 :
	       PTS_EXIT_NOT_STEADY;
}

/* Point @k of round @r (rounds count from 1). */
static json_object *round_point(json_object *rounds, unsigned int r, unsigned int k)
{
	return json_object_array_get_idx(jget(json_object_array_get_idx(rounds, r - 1),
					      "points"), k);
}

/*
 * The percentiles of point @k's direction @dir in rounds @first..@last:
 * the highest of the window's rounds (NULL if none has them).  Only for
 * rounds recorded without their histograms.
 */
static json_object *highest_percentiles(json_object *rounds, unsigned int first,
					unsigned int last, unsigned int k, const char *dir)
{
	json_object *pc = NULL;
	unsigned int r;

	for (r = first; r <= last; r++) {
		json_object *p = jget(jget(round_point(rounds, r, k), dir), "percentiles");

		if (!p)
			continue;
		if (!pc)
			pc = json_object_new_object();
		json_object_object_foreach(p, key, val) {
			json_object *cur = jget(pc, key);

			if (!cur || json_object_get_int64(val) > json_object_get_int64(cur))
				jset(pc, key, json_object_new_int64(json_object_get_int64(val)));
		}
	}
	return pc;
}

/*
 * Add the json+ bins of @x (a point's direction) to @counts, and its exact
 * extremes to *@min and *@max.  The key of a bin is a value inside its
 * bucket (the midpoint, or the exact min or max), so that its index is the
 * bucket's: every round has the geometry of uapi/ssdload.h.  0, or -1 if
 * @x did I/O but has no bins.
 */
static int merge_bins(json_object *x, uint64_t *counts, uint64_t *min, uint64_t *max)
{
	json_object *b = jget(x, "bins");

	if (jnum(x, "ios", 0) <= 0)
		return 0;
	if (!b || !json_object_is_type(b, json_type_object))
		return -1;
	json_object_object_foreach(b, key, val)
		counts[ssdload_hist_index(strtoull(key, NULL, 10))] +=
			(uint64_t)json_object_get_int64(val);
	if ((uint64_t)jnum(x, "lat_min_ns", 0) < *min)
		*min = (uint64_t)jnum(x, "lat_min_ns", 0);
	if ((uint64_t)jnum(x, "lat_max_ns", 0) > *max)
		*max = (uint64_t)jnum(x, "lat_max_ns", 0);
	return 0;
}

/*
 * The percentiles of point @k's direction @dir over rounds @first..@last,
 * from the merge of the rounds' histograms, by the rule of every other
 * percentile of the CLI (ssl_hist_percentile()); NULL if none did I/O in
 * @dir.  *@merged is cleared, and the highest of the rounds' percentiles
 * used, if a round was recorded without its histogram.
 */
static json_object *window_percentiles(json_object *rounds, unsigned int first,
				       unsigned int last, unsigned int k, const char *dir,
				       bool *merged)
{
	uint64_t *counts = calloc(SSDLOAD_HIST_BUCKETS, sizeof(*counts));
	uint64_t min = UINT64_MAX, max = 0;
	json_object *keys = NULL, *out = NULL;
	unsigned int r;

	if (!counts)
		goto highest;
	for (r = first; r <= last; r++) {
		json_object *x = jget(round_point(rounds, r, k), dir);

		if (merge_bins(x, counts, &min, &max))
			goto highest;
		if (!keys)
			keys = jget(x, "percentiles");
	}
	if (keys && ssl_hist_total(counts, SSDLOAD_HIST_BUCKETS)) {
		out = json_object_new_object();
		json_object_object_foreach(keys, key, val) {
			(void)val;
			jset(out, key, json_object_new_int64((int64_t)ssl_hist_percentile(
				counts, SSDLOAD_HIST_BUCKETS, strtod(key, NULL), min, max)));
		}
	}
	free(counts);
	return out;
highest:
	free(counts);
	*merged = false;
	return highest_percentiles(rounds, first, last, k, dir);
}

/* Point @k averaged over rounds @first..@last. */
static json_object *window_point(json_object *rounds, unsigned int first, unsigned int last,
				 unsigned int k, bool *merged)
{
	static const char *const dirs[] = { "read", "write" };
	static const char *const avg_keys[] = { "iops", "bw_bytes", "lat_mean_ns" };
	static const char *const copy_keys[] = {
		"bs", "rwmixread", "pattern", "tc", "qd", "toio", "bssplit",
	};
	json_object *p0 = round_point(rounds, first, k), *pt = json_object_new_object();
	double sum[2][3] = { { 0 } }, tot[3] = { 0 };
	double lmax[2] = { -1, -1 }, tmax = -1, v;
	unsigned int nlat[2] = { 0 }, ntlat = 0, i, r, d, nwin = last - first + 1;

	for (i = 0; i < ARRAY_SIZE(copy_keys); i++)
		if (i < 3 || jget(p0, copy_keys[i]))
			jset(pt, copy_keys[i], json_object_get(jget(p0, copy_keys[i])));
	for (r = first; r <= last; r++) {
		json_object *p = round_point(rounds, r, k);

		for (i = 0; i < 2; i++)
			tot[i] += jnum(p, avg_keys[i], 0);
		v = jnum(p, "lat_mean_ns", NAN);
		if (isfinite(v)) {
			tot[2] += v;
			ntlat++;
		}
		tmax = fmax(tmax, jnum(p, "lat_max_ns", -1));
		for (d = 0; d < 2; d++) {
			json_object *x = jget(p, dirs[d]);

			sum[d][0] += jnum(x, "iops", 0);
			sum[d][1] += jnum(x, "bw_bytes", 0);
			v = jnum(x, "lat_mean_ns", NAN);
			if (isfinite(v)) {
				sum[d][2] += v;
				nlat[d]++;
			}
			lmax[d] = fmax(lmax[d], jnum(x, "lat_max_ns", -1));
		}
	}
	jset(pt, "iops", json_object_new_double(tot[0] / nwin));
	jset(pt, "bw_bytes", json_object_new_double(tot[1] / nwin));
	jset(pt, "lat_mean_ns", ntlat ? json_object_new_double(tot[2] / ntlat) : NULL);
	jset(pt, "lat_max_ns", tmax >= 0 ? json_object_new_int64((int64_t)tmax) : NULL);
	for (d = 0; d < 2; d++) {
		json_object *x = json_object_new_object();

		jset(x, "iops", json_object_new_double(sum[d][0] / nwin));
		jset(x, "bw_bytes", json_object_new_double(sum[d][1] / nwin));
		jset(x, "lat_mean_ns", nlat[d] ? json_object_new_double(sum[d][2] / nlat[d]) : NULL);
		jset(x, "lat_max_ns", lmax[d] >= 0 ? json_object_new_int64((int64_t)lmax[d]) : NULL);
		jset(x, "percentiles", window_percentiles(rounds, first, last, k, dirs[d], merged));
		jset(pt, dirs[d], x);
	}
	return pt;
}

/* results' window_choice: which rounds were averaged, and whether the spec's */
static json_object *window_choice(unsigned int k, enum ssl_window_at at, unsigned int steady,
				  unsigned int run, bool merged)
{
	json_object *o = json_object_new_object();

	jset(o, "rounds", json_object_new_int((int)k));
	jset(o, "at", json_object_new_string(pts_window_at_name[at]));
	jset(o, "spec", json_object_new_boolean(k == SSL_SS_WINDOW &&
						 at == SSL_WINDOW_AT_STEADY));
	jset(o, "steady_round", steady ? json_object_new_int((int)steady) : NULL);
	jset(o, "rounds_run", json_object_new_int((int)run));
	jset(o, "percentiles", json_object_new_string(merged ? "merged histograms" :
						       "highest of the rounds"));
	return o;
}

json_object *window_results(json_object *doc, unsigned int k, enum ssl_window_at at,
			    char *err, size_t errlen)
{
	json_object *ss = jget(doc, "steady_state"), *rounds = jget(doc, "rounds");
	json_object *res, *pts, *win;
	unsigned int first, last, n, steady = 0, np, i;
	bool merged = true;

	n = rounds && json_object_is_type(rounds, json_type_array) ?
	    json_object_array_length(rounds) : 0;
	if (!ss || !n) {
		snprintf(err, errlen, "no finished rounds with a steady-state check");
		return NULL;
	}
	if (json_object_get_boolean(jget(ss, "reached")))
		steady = (unsigned int)jnum(ss, "round", 0);
	if (ssl_ss_window_rounds(steady, n, k, at, &first, &last)) {
		snprintf(err, errlen, "a window of %u rounds does not fit the %u rounds run", k, n);
		return NULL;
	}
	np = json_object_array_length(jget(json_object_array_get_idx(rounds, 0), "points"));
	for (i = first; i <= last; i++) {
		if (json_object_array_length(jget(json_object_array_get_idx(rounds, i - 1),
						  "points")) != np) {
			snprintf(err, errlen, "round %u has not the points of round 1", i);
			return NULL;
		}
	}
	res = json_object_new_object();
	win = json_object_new_array();
	json_object_array_add(win, json_object_new_int((int)first));
	json_object_array_add(win, json_object_new_int((int)last));
	jset(res, "window", win);
	pts = json_object_new_array();
	for (i = 0; i < np; i++)
		json_object_array_add(pts, window_point(rounds, first, last, i, &merged));
	jset(res, "points", pts);
	jset(res, "window_choice", window_choice(k, at, steady, n, merged));
	return res;
}

/* The measurement window: each point averaged over the window's rounds. */
void do_results(struct pts_ctx *c)
{
	json_object *res;
	char err[160];

	res = window_results(c->doc, c->window ? c->window : SSL_SS_WINDOW, c->window_at,
			     err, sizeof(err));
	if (!res) {
		ssl_err("pts %s: results: %s", c->def->name, err);
		return;
	}
	jset(c->doc, "results", res);
}

/* ---- segments: a continuous stimulus, sampled ---- */

/* Where the segments so far left off: stimulus time and bytes written. */
void seg_pos(const struct pts_ctx *c, double *t_ms, uint64_t *written)
{
	json_object *segs = jget(c->doc, "segments");
	size_t n = json_object_array_length(segs);
	json_object *last = n ? json_object_array_get_idx(segs, n - 1) : NULL;

	*t_ms = last ? jnum(last, "t_end_ms", 0) : 0;
	*written = last ? (uint64_t)jnum(last, "written_end_bytes", 0) : 0;
}

/* The write @key of intervals [i, j) of @ivs, per second of their span. */
static double intervals_rate(json_object *ivs, size_t i, size_t j, const char *key)
{
	double v = 0, span;
	size_t k;

	for (k = i; k < j; k++)
		v += jnum(jget(json_object_array_get_idx(ivs, k), "write"), key, 0);
	span = jnum(json_object_array_get_idx(ivs, j - 1), "t_end_ms", 0) -
	       jnum(json_object_array_get_idx(ivs, i), "t_start_ms", 0);
	return span > 0 ? v * 1000 / span : 0;
}

/*
 * The rate of intervals [i, j) of a run's time series @ts (@key "ios" or
 * "bytes") as the sum of each worker's own (its I/Os over its own span):
 * the workers' intervals start and end up to a wake-up apart, and the
 * merged span (first start to last end) would understate the rate by
 * that.  The merged intervals' rate if a worker's records do not line up.
 */
double run_rate(json_object *ts, size_t i, size_t j, const char *key)
{
	json_object *pw = jget(ts, "per_worker"), *ivs = jget(ts, "intervals");
	size_t w, n = json_object_array_length(ivs);
	size_t nw = pw ? json_object_array_length(pw) : 0;
	double rate = 0;

	for (w = 0; w < nw; w++) {
		json_object *wi = jget(json_object_array_get_idx(pw, w), "intervals");

		if (!wi || json_object_array_length(wi) != n)
			break;
		rate += intervals_rate(wi, i, j, key);
	}
	return nw && w == nw ? rate : intervals_rate(ivs, i, j, key);
}

/* One sample of the series: the merge of intervals [i, j) of a run. */
static json_object *seg_sample(json_object *ts, size_t i, size_t j, double t0,
			       uint64_t written, int number, json_object *seg)
{
	json_object *smp = json_object_new_object(), *ivs = jget(ts, "intervals");
	double ios = 0, lat_sum = 0, lat_max = 0, t_start, t_end;
	size_t k;

	t_start = jnum(json_object_array_get_idx(ivs, i), "t_start_ms", 0);
	t_end = jnum(json_object_array_get_idx(ivs, j - 1), "t_end_ms", 0);
	for (k = i; k < j; k++) {
		json_object *wr = jget(json_object_array_get_idx(ivs, k), "write");
		double n = jnum(wr, "ios", 0);

		ios += n;
		if (n > 0) {
			lat_sum += n * jnum(wr, "lat_mean_ns", 0);
			lat_max = fmax(lat_max, jnum(wr, "lat_max_ns", 0));
		}
	}
	jset(smp, "sample", json_object_new_int(number));
	jset(smp, "segment", json_object_get(jget(seg, "segment")));
	if (jget(seg, "group"))
		jset(smp, "group", json_object_get(jget(seg, "group")));
	jset(smp, "t_start_ms", json_object_new_double(t0 + t_start));
	jset(smp, "t_ms", json_object_new_double(t0 + t_end));
	jset(smp, "ios", json_object_new_int64((int64_t)ios));
	jset(smp, "iops", json_object_new_double(run_rate(ts, i, j, "ios")));
	jset(smp, "bw_bytes", json_object_new_double(run_rate(ts, i, j, "bytes")));
	jset(smp, "lat_mean_ns", ios > 0 ? json_object_new_double(lat_sum / ios) : NULL);
	jset(smp, "lat_max_ns", ios > 0 ? json_object_new_int64((int64_t)lat_max) : NULL);
	jset(smp, "written_bytes", json_object_new_int64((int64_t)written));
	return smp;
}

/*
 * The intervals of a segment's run as samples of the doc's series.  The
 * run's last interval holds the completions after its deadline (the I/Os
 * in flight, at most ms): shorter than half a sample, it joins the sample
 * before it rather than stand as a sample of its own.
 */
static int seg_samples(struct pts_ctx *c, json_object *job, json_object *seg, double t0,
		       uint64_t w0)
{
	json_object *ts = jget(job, "time_series"), *ivs = jget(ts, "intervals");
	json_object *series = jget(c->doc, "series");
	uint64_t written = w0, ios = 0;
	double t_end = 0;
	size_t i, j, k, n, nsmp = 0;

	if (!ivs || !json_object_is_type(ivs, json_type_array) ||
	    !json_object_array_length(ivs)) {
		ssl_err("pts wsat: the run's JSON has no time series");
		return -1;
	}
	n = json_object_array_length(ivs);
	for (i = 0; i < n; i = j) {
		json_object *last = json_object_array_get_idx(ivs, n - 1);

		j = i + 1;
		if (j == n - 1 && jnum(last, "t_end_ms", 0) - jnum(last, "t_start_ms", 0) <
				  c->point_ms / 2.0)
			j = n;
		for (k = i; k < j; k++) {
			json_object *wr = jget(json_object_array_get_idx(ivs, k), "write");

			written += (uint64_t)jnum(wr, "bytes", 0);
			ios += (uint64_t)jnum(wr, "ios", 0);
		}
		t_end = jnum(json_object_array_get_idx(ivs, j - 1), "t_end_ms", 0);
		json_object_array_add(series, seg_sample(ts, i, j, t0, written,
					(int)json_object_array_length(series) + 1, seg));
		nsmp++;
	}
	jset(seg, "samples", json_object_new_int((int)nsmp));
	jset(seg, "t_end_ms", json_object_new_double(t0 + t_end));
	jset(seg, "ios", json_object_new_int64((int64_t)ios));
	jset(seg, "iops", json_object_new_double(t_end > 0 ? ios * 1000.0 / t_end : 0));
	jset(seg, "written_end_bytes", json_object_new_int64((int64_t)written));
	return 0;
}

/*
 * One segment of samples, at most @ms long and (@ios > 0) ending at @ios
 * I/Os (wsat: the write limit), of group @g's writes (NULL: the test's RND
 * 4KiB), its run's JSON in DIR/rounds/@stem-K.json: appended to the doc's
 * segments and its samples to the series.
 */
int seg_run(struct pts_ctx *c, const char *stem, unsigned int k, double t0, uint64_t w0,
	    uint64_t ms, uint64_t ios, const struct pts_group *g)
{
	struct ssl_argv a = { 0 };
	json_object *run, *job, *seg;
	char name[128], rel[64], out[PATH_MAX], started[32];
	uint64_t t = ssl_now_ms();
	int st;

	snprintf(rel, sizeof(rel), "s%u", k);
	job_name(name, sizeof(name), c, rel);
	snprintf(rel, sizeof(rel), "rounds/%s-%03u.json", stem, k);
	if (pts_path(c, out, sizeof(out), rel))
		return PTS_EXIT_FAILED;
	if (g)
		av_writes(c, &a, name, k, g->random, g->bs);
	else
		av_rnd_writes(c, &a, name, k);
	av_addf(&a, "--runtime=%llums", (unsigned long long)ms);
	if (ios)
		av_addf(&a, "--number_ios=%llu", (unsigned long long)ios);
	av_addf(&a, "--log_interval_ms=%llu", (unsigned long long)c->point_ms);
	seg = json_object_new_object();
	jset(seg, "segment", json_object_new_int((int)k));
	if (g) {
		jset(seg, "group", json_object_new_int((int)g->number));
		jset(seg, "rw", json_object_new_string(g->random ? "randwrite" : "write"));
		jset(seg, "bs", json_object_new_int((int)g->bs));
	}
	now_iso(started, sizeof(started));
	jset(seg, "started", json_object_new_string(started));
	jset(seg, "health_before", health_now(c));
	st = ssl_run_spawn(&a, out);
	av_free(&a);
	st = spawn_status(st, "the segment");
	/*
	 * A signal stops the run, which still reports what it did: the device
	 * took those writes, so they stay in the record (a short segment,
	 * "interrupted") rather than vanish from the written total.
	 */
	run = !st ? ssl_read_run(out) :
	      st > 128 ? ssl_json_read(out, SSL_JSON_MAX_BYTES, NULL) : NULL;
	job = run ? run_job0(run) : NULL;
	if (st && (!job || !json_object_array_length(jget(jget(job, "time_series"),
							   "intervals")))) {
		json_object_put(run);
		json_object_put(seg);
		return st;
	}
	if (!run) {
		json_object_put(seg);
		return PTS_EXIT_FAILED;
	}
	jset(seg, "t_start_ms", json_object_new_double(t0));
	jset(seg, "written_start_bytes", json_object_new_int64((int64_t)w0));
	if (seg_samples(c, job, seg, t0, w0)) {
		json_object_put(run);
		json_object_put(seg);
		return PTS_EXIT_FAILED;
	}
	json_object_put(run);
	if (st)
		jset(seg, "interrupted", json_object_new_boolean(true));
	jset(seg, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t)));
	jset(seg, "health_after", health_now(c));
	jset(seg, "run_file", json_object_new_string(rel));
	json_object_array_add(jget(c->doc, "segments"), seg);
	if (st)
		return st;
	keep_rotate(c, name);
	fprintf(stderr, "pts %s: segment %u: %.6g IOPS\n", c->def->name, k,
		jnum(seg, "iops", 0));
	return 0;
}

/*
 * The samples of a run's series, from @t0 on: every interval of at least
 * @min_ms (half the interval asked for: a return to baseline's access
 * time, a pre-write's point).  The run's final fragment (the completions
 * after its deadline) is left out of the samples, not of the totals.
 */
json_object *interval_samples(json_object *ts, double t0, double min_ms)
{
	json_object *ivs = jget(ts, "intervals"), *arr = json_object_new_array();
	size_t i, n = ivs ? json_object_array_length(ivs) : 0;

	for (i = 0; i < n; i++) {
		json_object *iv = json_object_array_get_idx(ivs, i), *x;
		double span = jnum(iv, "t_end_ms", 0) - jnum(iv, "t_start_ms", 0);

		if (span < min_ms)
			continue;
		x = json_object_new_object();
		jset(x, "t_start_ms", json_object_new_double(t0 + jnum(iv, "t_start_ms", 0)));
		jset(x, "t_ms", json_object_new_double(t0 + jnum(iv, "t_end_ms", 0)));
		jset(x, "ios", json_object_new_int64((int64_t)jnum(jget(iv, "write"), "ios", 0)));
		jset(x, "iops", json_object_new_double(run_rate(ts, i, i + 1, "ios")));
		json_object_array_add(arr, x);
	}
	return arr;
}

/*
 * HIR, ECW, DIRTH: the test's writes in segments of 30 samples until the
 * segments' IOPS are steady (at most max_rounds segments), recorded as the
 * doc's "precondition".  @apart (ecw, dirth): the rounds that follow have
 * the steady_state key, the preconditioning's goes into "precondition".
 * 0 or an exit status.
 */
int precondition_segments(struct pts_ctx *c, bool apart)
{
	const char *dest = apart ? "precondition_steady_state" : "steady_state";
	json_object *pc;
	unsigned int k;
	uint64_t written;
	double t;
	int st;

	if (jget(c->doc, "precondition"))
		return 0;
	for (;;) {
		k = json_object_array_length(jget(c->doc, "segments"));
		if (k >= SSL_SS_WINDOW && check_steady_in(c, "segments", "iops", dest))
			break;
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		fprintf(stderr, "pts %s: preconditioning segment %u of at most %u\n",
			c->def->name, k + 1, c->max_rounds);
		seg_pos(c, &t, &written);
		st = seg_run(c, "precondition", k + 1, t, written,
			     (uint64_t)PTS_WSAT_SEG_SAMPLES * c->point_ms, 0, NULL);
		if (st)
			return st;
		if (json_object_array_length(jget(c->doc, "segments")) >= SSL_SS_WINDOW)
			check_steady_in(c, "segments", "iops", dest);
		if (pts_save(c))
			return PTS_EXIT_FAILED;
	}
	pc = json_object_new_object();
	seg_pos(c, &t, &written);
	jset(pc, "segments", json_object_new_int((int)k));
	jset(pc, "duration_ms", json_object_new_double(t));
	jset(pc, "written_bytes", json_object_new_int64((int64_t)written));
	jset(c->doc, "precondition", pc);
	if (apart) {
		jset(pc, "steady_state", json_object_get(jget(c->doc, dest)));
		json_object_object_del(c->doc, dest);
		if (!json_object_get_boolean(jget(jget(pc, "steady_state"), "reached")))
			fprintf(stderr, "pts %s: the preconditioning did not reach steady state "
				"in %u segments: the rounds start anyway\n", c->def->name, k);
	}
	return pts_save(c) ? PTS_EXIT_FAILED : 0;
}

/* ---- the end of a run ---- */

void summary_where(const struct pts_ctx *c)
{
	/* --no-report: no report.html was made, so none is named */
	if (c->no_report)
		printf("\ndata: %s/%s (ssdload report %s renders the report)\n", c->dir,
		       PTS_JSON, c->dir);
	else
		printf("\nreport: %s/report.html, data: %s/%s\n", c->dir, c->dir, PTS_JSON);
}

void interrupted_segments(const struct pts_ctx *c)
{
	fprintf(stderr, "pts: interrupted after %u segments: continue with ssdload pts "
		"--resume=%s\n", (unsigned int)json_object_array_length(jget(c->doc,
									  "segments")),
		c->dir);
}
