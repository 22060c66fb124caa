// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload pts hir: Host Idle Recovery.  After the purge (no WIPC), WSAT's
 * RND 4KiB writes in segments to steady state (the preconditioning), then
 * five wait states: each a run of 360 cycles of an access segment (5 s of
 * writes) and a wait of 5, 10, 15, 25 or 50 s, then a return to baseline
 * (1800 s of writes).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "core/util.h"
#include "methods/runner.h"
#include "pts/common.h"

/* HIR: wait states of k x the access time (5 s): 5, 10, 15, 25, 50 s */
static const unsigned int hir_waits[] = { 1, 2, 3, 5, 10 };

/*
 * A wait state is one run with a step per access segment, and every
 * access step keeps a write histogram per worker (SSDLOAD_HIST_BUCKETS
 * counters, a 64 KiB allocation): refuse, before the purge, a TC x cycles
 * that the module's max_job_mem_mb would refuse only at the first wait
 * state, hours into the test.  0 or -1 after a message.
 */
static int hir_check(struct pts_ctx *c)
{
	unsigned long long cap = max_job_mem(), need;

	/* the histograms, and about as much again for the rest (a margin) */
	need = (unsigned long long)c->threads * c->cycles * 65536 / 1048576;
	if (need + need / 8 + 16 <= cap)
		return 0;
	ssl_err("pts hir: %u threads x %u cycles keep about %llu MiB of step histograms, "
		"more than the module's max_job_mem_mb=%llu: use fewer --threads, or raise "
		"max_job_mem_mb", c->threads, c->cycles, need, cap);
	return -1;
}

/*
 * The samples of a wait state: one per access segment, each a step of the
 * run (its I/Os over its own measured time), on a time line that adds up
 * the steps' times and gaps.  *@end is that line's end (ms from @t0).
 */
static json_object *hir_step_samples(json_object *steps, double t0, double *end)
{
	json_object *arr = json_object_new_array();
	size_t i, n = json_object_array_length(steps);
	double t = 0;

	for (i = 0; i < n; i++) {
		json_object *st = json_object_array_get_idx(steps, i), *x;
		json_object *wr = jget(st, "write");
		double run = jnum(st, "runtime_ns", 0) / 1e6;
		double gap = jnum(jget(st, "gap_ns"), "max", 0) / 1e6;

		t += gap;
		if (!jnum(st, "idle_ms", 0)) {
			x = json_object_new_object();
			jset(x, "t_start_ms", json_object_new_double(t0 + t));
			jset(x, "t_ms", json_object_new_double(t0 + t + run));
			jset(x, "ios", json_object_new_int64((int64_t)jnum(wr, "total_ios", 0)));
			jset(x, "iops", json_object_new_double(run > 0 ?
					jnum(wr, "total_ios", 0) * 1000 / run : 0));
			json_object_array_add(arr, x);
		}
		t += run;
	}
	*end = t;
	return arr;
}

/* A wait state's steps: @cycles x (access, wait), into DIR/rounds/@rel. */
static int hir_steps_file(const struct pts_ctx *c, const char *rel, uint64_t wait)
{
	struct ssl_atomic a;
	char path[PATH_MAX];
	unsigned int i;
	FILE *f;

	if (pts_path(c, path, sizeof(path), rel))
		return -1;
	f = ssl_atomic_open(&a, path);
	if (!f)
		return -1;
	fprintf(f, "# HIR: %u x (%llu ms of writes, %llu ms idle)\n", c->cycles,
		(unsigned long long)c->access_ms, (unsigned long long)wait);
	for (i = 0; i < c->cycles; i++)
		fprintf(f, "runtime=%llums\nidle=%llums\n", (unsigned long long)c->access_ms,
			(unsigned long long)wait);
	return ssl_atomic_commit(&a);
}

/* The end of the last interval of a run's series (ms from its start). */
static double series_end(json_object *ts)
{
	json_object *ivs = jget(ts, "intervals");
	size_t n = ivs ? json_object_array_length(ivs) : 0;

	return n ? jnum(json_object_array_get_idx(ivs, n - 1), "t_end_ms", 0) : 0;
}

/* The write side of a run's job or step, as the phase's figures. */
static void hir_figures(json_object *o, json_object *x)
{
	json_object *clat = jget(x, "clat_ns");

	jset(o, "ios", json_object_new_int64((int64_t)jnum(x, "total_ios", 0)));
	jset(o, "iops", json_object_new_double(jnum(x, "iops", 0)));
	jset(o, "lat_mean_ns", jnum(x, "total_ios", 0) > 0 ?
	     jdouble_or_null(jnum(clat, "mean", NAN)) : NULL);
	jset(o, "lat_max_ns", jnum(x, "total_ios", 0) > 0 ?
	     json_object_new_int64((int64_t)jnum(clat, "max", 0)) : NULL);
}

/*
 * One part of wait state @ws (0-based): @baseline 0 runs its cycles of
 * access + wait, 1 its return to baseline.  The part goes into @w.
 */
static int hir_part(struct pts_ctx *c, json_object *w, unsigned int ws, int baseline,
		    double t0)
{
	unsigned int k = hir_waits[ws];
	uint64_t wait = k * c->access_ms, t = ssl_now_ms();
	struct ssl_argv a = { 0 };
	json_object *run, *job, *ts, *part, *steps;
	char name[128], rel[64], out[PATH_MAX], started[32];
	double end = 0;
	int st;

	snprintf(rel, sizeof(rel), "%s%u", baseline ? "b" : "w", ws + 1);
	job_name(name, sizeof(name), c, rel);
	snprintf(rel, sizeof(rel), "rounds/hir-%s%u.json", baseline ? "baseline" : "wait",
		 ws + 1);
	if (pts_path(c, out, sizeof(out), rel))
		return PTS_EXIT_FAILED;
	av_rnd_writes(c, &a, name, 100 + 2 * ws + baseline);
	if (baseline) {
		av_addf(&a, "--runtime=%llums", (unsigned long long)(c->cycles * c->access_ms));
		av_addf(&a, "--log_interval_ms=%llu", (unsigned long long)c->access_ms);
	} else {
		/* one step per access and per wait: each access segment's own figures */
		char steps[64], path[PATH_MAX];

		snprintf(steps, sizeof(steps), "rounds/hir-wait%u.steps", ws + 1);
		if (hir_steps_file(c, steps, wait) || pts_path(c, path, sizeof(path), steps)) {
			av_free(&a);
			return PTS_EXIT_FAILED;
		}
		av_addf(&a, "--steps=%s", path);
	}
	fprintf(stderr, "pts hir: wait state %u (%llu ms): %s\n", ws + 1,
		(unsigned long long)wait, baseline ?
		"return to baseline" : "access + wait cycles");
	now_iso(started, sizeof(started));
	st = spawn_read(&a, out, baseline ? "the return to baseline" : "the wait state", &run);
	if (st)
		return st;
	job = run_job0(run);
	ts = jget(job, "time_series");
	steps = jget(job, "steps");
	if (baseline ? !ts : (!steps || json_object_array_length(steps) != 2 * c->cycles)) {
		ssl_err("pts hir: %s: no time series or not %u steps", out, 2 * c->cycles);
		json_object_put(run);
		return PTS_EXIT_FAILED;
	}
	part = json_object_new_object();
	jset(part, "started", json_object_new_string(started));
	jset(part, "t_start_ms", json_object_new_double(t0));
	/* the job's write figures: only the access steps write */
	hir_figures(part, jget(job, "write"));
	if (baseline) {
		jset(part, "t_end_ms", json_object_new_double(t0 + series_end(ts)));
		jset(part, "samples", interval_samples(ts, t0, c->access_ms / 2.0));
	} else {
		json_object *smp = hir_step_samples(steps, t0, &end);
		double ms = 0;
		size_t i;

		/* the access segments' rate: their I/Os over their own time */
		for (i = 0; i < json_object_array_length(smp); i++) {
			json_object *x = json_object_array_get_idx(smp, i);

			ms += jnum(x, "t_ms", 0) - jnum(x, "t_start_ms", 0);
		}
		jset(part, "iops", json_object_new_double(ms > 0 ? jnum(part, "ios", 0) * 1000 / ms :
							   0));
		jset(part, "t_end_ms", json_object_new_double(t0 + end));
		jset(part, "samples", smp);
	}
	jset(part, "run_file", json_object_new_string(rel));
	jset(part, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t)));
	json_object_put(run);
	jset(w, baseline ? "baseline" : "access", part);
	keep_rotate(c, name);
	fprintf(stderr, "pts hir: wait state %u: %s %.6g IOPS\n", ws + 1,
		baseline ? "baseline" : "access segments", jnum(part, "iops", 0));
	return 0;
}

/* The preconditioning to steady state, then the wait states. */
static int do_hir(struct pts_ctx *c)
{
	json_object *wss = jget(c->doc, "wait_states"), *w;
	unsigned int ws;
	double t;
	int st;

	st = precondition_segments(c, false);
	if (st)
		return st;
	for (ws = 0; ws < ARRAY_SIZE(hir_waits); ws++) {
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		w = json_object_array_get_idx(wss, ws);
		if (!w) {
			w = json_object_new_object();
			jset(w, "state", json_object_new_int((int)ws + 1));
			jset(w, "wait_ms", json_object_new_int64((int64_t)(hir_waits[ws] *
									  c->access_ms)));
			jset(w, "access_ms", json_object_new_int64((int64_t)c->access_ms));
			jset(w, "cycles", json_object_new_int((int)c->cycles));
			json_object_array_add(wss, w);
		}
		/* time runs on from the previous part's end */
		t = ws ? jnum(jget(json_object_array_get_idx(wss, ws - 1), "baseline"),
			      "t_end_ms", 0) : 0;
		if (!jget(w, "access")) {
			st = hir_part(c, w, ws, 0, t);
			if (st)
				return st;
			if (pts_save(c))
				return PTS_EXIT_FAILED;
		}
		if (!jget(w, "baseline")) {
			if (ssl_run_sig)
				return SSL_EXIT_SIGNAL(ssl_run_sig);
			st = hir_part(c, w, ws, 1, jnum(jget(w, "access"), "t_end_ms", 0));
			if (st)
				return st;
			if (pts_save(c))
				return PTS_EXIT_FAILED;
		}
	}
	return 0;
}

/* HIR results: the steady state, and each wait state against it. */
static void hir_results(struct pts_ctx *c)
{
	json_object *res = json_object_new_object(), *arr = json_object_new_array();
	json_object *ss = jget(c->doc, "steady_state"), *wss = jget(c->doc, "wait_states");
	double steady = json_object_get_boolean(jget(ss, "reached")) ?
			jnum(ss, "average", NAN) : NAN;
	size_t i;

	jset(res, "steady_iops", jdouble_or_null(steady));
	jset(res, "precondition_average_iops", jdouble_or_null(jnum(ss, "average", NAN)));
	for (i = 0; i < json_object_array_length(wss); i++) {
		json_object *w = json_object_array_get_idx(wss, i), *x = json_object_new_object();
		double ai = jnum(jget(w, "access"), "iops", NAN);
		double ref = isfinite(steady) ? steady : jnum(ss, "average", NAN);

		jset(x, "state", json_object_get(jget(w, "state")));
		jset(x, "wait_ms", json_object_get(jget(w, "wait_ms")));
		jset(x, "iops", jdouble_or_null(ai));
		jset(x, "baseline_iops", jdouble_or_null(jnum(jget(w, "baseline"), "iops", NAN)));
		jset(x, "vs_precondition", jdouble_or_null(ref > 0 ? ai / ref : NAN));
		json_object_array_add(arr, x);
	}
	jset(res, "wait_states", arr);
	jset(c->doc, "results", res);
}

static int hir_results_status(struct pts_ctx *c)
{
	hir_results(c);
	return steady_status(c);
}

static void hir_settings(const struct pts_ctx *c, json_object *o, json_object *tr)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	(void)tr;
	jset(o, "access_ms", json_object_new_int64((int64_t)c->access_ms));
	jset(o, "spec_access_ms", json_object_new_int(PTS_HIR_ACCESS_MS));
	jset(o, "cycles", json_object_new_int((int)c->cycles));
	jset(o, "spec_cycles", json_object_new_int(PTS_HIR_CYCLES));
	for (i = 0; i < ARRAY_SIZE(hir_waits); i++)
		json_object_array_add(a, json_object_new_int64((int64_t)(hir_waits[i] *
									c->access_ms)));
	jset(o, "wait_ms", a);
	jset(o, "baseline_ms", json_object_new_int64((int64_t)(c->cycles * c->access_ms)));
}

static void hir_doc(json_object *d)
{
	jset(d, "wait_states", json_object_new_array());
}

static bool hir_scale(struct pts_ctx *c)
{
	bool scaled = false;

	if (c->access_ms != PTS_HIR_ACCESS_MS) {
		deviation(c, "access time %llu ms (spec: %d ms)", (unsigned long long)c->access_ms,
			  PTS_HIR_ACCESS_MS);
		scaled = true;
	}
	if (c->cycles != PTS_HIR_CYCLES) {
		deviation(c, "%u cycles per wait state (spec: %d)", c->cycles, PTS_HIR_CYCLES);
		scaled = true;
	}
	return rounds_deviation(c) || scaled;
}

static void hir_summary(const struct pts_ctx *c)
{
	json_object *ws = jget(jget(c->doc, "results"), "wait_states");
	unsigned int k;

	printf("\n%6s %10s %14s %14s %10s\n", "state", "wait (s)", "access IOPS",
	       "baseline IOPS", "vs steady");
	for (k = 0; k < json_object_array_length(ws); k++) {
		json_object *w = json_object_array_get_idx(ws, k);

		printf("%6d %10.3f %14.1f %14.1f %9.1f%%\n", (int)jnum(w, "state", 0),
		       jnum(w, "wait_ms", 0) / 1000, jnum(w, "iops", NAN),
		       jnum(w, "baseline_iops", NAN), 100 * jnum(w, "vs_precondition", NAN));
	}
	summary_where(c);
}

const struct pts_ops pts_hir_ops = {
	.window_of = "segments",
	.segmented = true,
	.check = hir_check,
	.settings = hir_settings,
	.doc = hir_doc,
	.scale = hir_scale,
	.run = do_hir,
	.results = hir_results_status,
	.summary = hir_summary,
	.interrupted = interrupted_segments,
};
