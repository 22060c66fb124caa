// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload pts ecw, dirth: the Enterprise Composite Workload and the Demand
 * Intensity / Response Time Histogram tests.  After the purge and the
 * WIPC, the test's stimulus as writes at the highest load to steady state
 * (the preconditioning, in segments); then rounds of 5 points of writes
 * and the TC x QD demand matrix (32..1 each, high to low) to steady state;
 * then three operating points chosen from the measurement window (MaxIOPS,
 * MidIOPS, MinIOPS), each 60 points of writes and 10 points measured with
 * response-time histograms.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "core/util.h"
#include "methods/runner.h"
#include "pts/common.h"
#include "pts/ss.h"

/* ECW, DIRTH: thread counts and queue depths, high to low (7 x 7 points) */
static const unsigned int demand_loads[] = { 32, 16, 8, 6, 4, 2, 1 };
#define PTS_DEMAND_PREWRITE	5	/* points of writes before each round */
#define PTS_OP_PREWRITE		60	/* points of writes before an operating point */
#define PTS_OP_MEASURE		10	/* points measured at an operating point */
#define PTS_ART_LIMIT_NS	5000000	/* MaxIOPS: the best point under 5 ms ART */

/*
 * ECW, DIRTH: the highest load's buffers (TC x QD x the largest block,
 * twice for the mixed points: reads and writes have their own) and the
 * step histograms of a round's TC run must fit the module's
 * max_job_mem_mb, or the module would refuse a run hours into the test.
 * 0 or -1 after a message.
 */
static int demand_mem_check(const struct pts_ctx *c)
{
	unsigned long long cap = max_job_mem(), need;
	unsigned int bs_max = c->def->bssplit ? 65536 : c->bs[0];

	need = (unsigned long long)c->tcs[0] * c->qds[0] * bs_max * 2 / 1048576 +
	       (unsigned long long)c->tcs[0] * c->nqd * 65536 / 1048576;
	if (need + need / 8 + 16 <= cap)
		return 0;
	ssl_err("pts %s: T%uQ%u of %u-byte blocks keeps about %llu MiB of buffers and "
		"histograms, more than the module's max_job_mem_mb=%llu: use a smaller "
		"--bs, --tc-list or --qd-list, or raise max_job_mem_mb", c->def->name,
		c->tcs[0], c->qds[0], bs_max, need, cap);
	return -1;
}

/* The loads' defaults, then the memory the highest load needs. */
static int demand_check(struct pts_ctx *c)
{
	if (!c->ntc) {
		memcpy(c->tcs, demand_loads, sizeof(demand_loads));
		c->ntc = ARRAY_SIZE(demand_loads);
	}
	if (!c->nqd) {
		memcpy(c->qds, demand_loads, sizeof(demand_loads));
		c->nqd = ARRAY_SIZE(demand_loads);
	}
	if (!(c->given & PTS_OPT(RWMIXREAD)))
		c->mix = c->def->mix[0];
	/* the tracking load, the pre-writes' and the preconditioning's */
	c->threads = c->tcs[0];
	c->iodepth = c->qds[0];
	c->points = c->ntc * c->nqd;
	return demand_mem_check(c);
}

/* Spawn @a (freed here) into DIR/@rel; the run's JSON in *@run, or a status. */
static int run_into(struct pts_ctx *c, struct ssl_argv *a, const char *rel, const char *what,
		    json_object **run)
{
	char out[PATH_MAX];

	*run = NULL;
	if (pts_path(c, out, sizeof(out), rel)) {
		av_free(a);
		return PTS_EXIT_FAILED;
	}
	return spawn_read(a, out, what, run);
}

/*
 * run_into() a run of a single job, job @name (--keep-last-job keeps it);
 * the run's JSON in *@run and its job in *@job, or an exit status.
 */
static int run_job(struct pts_ctx *c, struct ssl_argv *a, const char *rel, const char *what,
		   const char *name, json_object **run, json_object **job)
{
	int st = run_into(c, a, rel, what, run);

	if (st)
		return st;
	keep_rotate(c, name);
	*job = run_job0(*run);
	if (!*job) {
		ssl_err("pts: %s/%s: no job in the run's JSON", c->dir, rel);
		json_object_put(*run);
		return PTS_EXIT_FAILED;
	}
	return 0;
}

/* A run's time: job_runtime adds up its workers' (as fio's group reporting). */
static double job_ms(json_object *job)
{
	double n = jnum(jget(job, "ssdload"), "numjobs", 1);

	return jnum(job, "job_runtime", 0) / (n >= 1 ? n : 1);
}

/*
 * The CPU that run @job's workers used, as the engine measures it (their
 * own CPU time, user and system): for the CPU utilisation page.  usr_pct
 * and sys_pct as fio's usr_cpu and sys_cpu (% of each worker's time),
 * host_pct of all the host's online CPUs over the run; null if the engine
 * gave no CPU time.
 */
static json_object *run_cpu(json_object *job, unsigned int tc, unsigned int qd)
{
	json_object *o = json_object_new_object(), *sl = jget(job, "ssdload");
	double ns = jnum(sl, "cpu_ns", NAN), ms = job_ms(job);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	bool have = isfinite(ns);

	jset(o, "tc", json_object_new_int((int)tc));
	jset(o, "qd", qd ? json_object_new_int((int)qd) : NULL);
	jset(o, "usr_pct", have ? json_object_new_double(jnum(job, "usr_cpu", 0)) : NULL);
	jset(o, "sys_pct", have ? json_object_new_double(jnum(job, "sys_cpu", 0)) : NULL);
	jset(o, "cpu_ns", have ? json_object_new_int64((int64_t)ns) : NULL);
	jset(o, "usr_cpu_ns", jget(sl, "usr_cpu_ns") ?
	     json_object_new_int64((int64_t)jnum(sl, "usr_cpu_ns", 0)) : NULL);
	jset(o, "sys_cpu_ns", jget(sl, "sys_cpu_ns") ?
	     json_object_new_int64((int64_t)jnum(sl, "sys_cpu_ns", 0)) : NULL);
	jset(o, "runtime_ms", json_object_new_double(ms));
	jset(o, "online_cpus", json_object_new_int((int)(ncpu > 0 ? ncpu : 1)));
	jset(o, "host_pct", have && ms > 0 ? json_object_new_double(
		ns / (ms * 1e6 * (double)(ncpu > 0 ? ncpu : 1)) * 100) : NULL);
	return o;
}

/* The demand points' stimulus: the test's R/W mix, block sizes and zones. */
static void av_demand(const struct pts_ctx *c, struct ssl_argv *a, const char *name,
		      unsigned int seed, unsigned int tc, unsigned int qd)
{
	av_common_bins(c, a, name);
	av_add(a, "--rw=randrw");
	av_addf(a, "--rwmixread=%u", c->mix);
	av_addf(a, "--bs=%u", c->bs[0]);
	av_stimulus(c, a);
	av_addf(a, "--blockalign=%u", c->def->bssplit ? pts_round_blockalign(c) :
		pts_blockalign(c, c->bs[0]));
	av_addf(a, "--numjobs=%u", tc);
	av_addf(a, "--iodepth=%u", qd);
	av_addf(a, "--size=%llu", (unsigned long long)c->active_bytes);
	av_addf(a, "--randseed=%u", 0x5d5 + seed);
	av_add(a, "--percentile_list=" PTS_PERCENTILES);
	if (c->keep_last_job)
		av_add(a, "--keep-job");
}

/*
 * Writes of the test's stimulus (0/100) at TC @tc x QD @qd for @points
 * points, logged every point: before each round (5 points, T32Q32) and
 * before each operating point (60 points, at its load).  *@out: its record.
 */
static int demand_prewrite(struct pts_ctx *c, const char *tag, const char *rel,
			   unsigned int seed, unsigned int tc, unsigned int qd,
			   unsigned int points, json_object **out)
{
	struct ssl_argv a = { 0 };
	unsigned int t = c->threads, q = c->iodepth;
	json_object *run, *job, *wr, *o;
	char name[128];
	int st;

	*out = NULL;
	job_name(name, sizeof(name), c, tag);
	c->threads = tc;
	c->iodepth = qd;
	av_rnd_writes(c, &a, name, seed);
	c->threads = t;
	c->iodepth = q;
	av_addf(&a, "--runtime=%llums", (unsigned long long)(points * c->point_ms));
	av_addf(&a, "--log_interval_ms=%llu", (unsigned long long)c->point_ms);
	st = run_job(c, &a, rel, "the pre-write", name, &run, &job);
	if (st)
		return st;
	wr = jget(job, "write");
	o = json_object_new_object();
	jset(o, "tc", json_object_new_int((int)tc));
	jset(o, "qd", json_object_new_int((int)qd));
	jset(o, "runtime_ms", json_object_new_double(job_ms(job)));
	jset(o, "ios", json_object_new_int64((int64_t)jnum(wr, "total_ios", 0)));
	jset(o, "iops", json_object_new_double(jnum(wr, "iops", 0)));
	jset(o, "bw_bytes", json_object_new_double(jnum(wr, "bw_bytes", 0)));
	/* a sample a point; the final fragment (the drain) in the totals only */
	jset(o, "samples", interval_samples(jget(job, "time_series"), 0, c->point_ms / 2.0));
	jset(o, "run_file", json_object_new_string(rel));
	json_object_put(run);
	*out = o;
	return 0;
}

/* A demand point from a step (or a whole job) of a run at TC @tc x QD @qd. */
static json_object *demand_point(const struct pts_ctx *c, json_object *step, unsigned int tc,
				 unsigned int qd)
{
	json_object *p = point_json(c, step, c->bs[0], c->mix);

	if (c->def->bssplit) {
		jset(p, "bs", NULL);
		jset(p, "bssplit", json_object_new_string(c->def->bssplit));
	}
	jset(p, "tc", json_object_new_int((int)tc));
	jset(p, "qd", json_object_new_int((int)qd));
	jset(p, "toio", json_object_new_int((int)(tc * qd)));
	return p;
}

/* The point at TC @tc x QD @qd of @points, or NULL. */
static json_object *find_load(json_object *points, unsigned int tc, unsigned int qd)
{
	size_t i, n = json_object_array_length(points);

	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(points, i);

		if ((unsigned int)jnum(p, "tc", 0) == tc && (unsigned int)jnum(p, "qd", 0) == qd)
			return p;
	}
	return NULL;
}

/*
 * Round @r: 5 points of writes at the highest load, then every TC (a run
 * each: its workers are its threads) x every QD (a step each), high to
 * low, each for a point.  Appended to the doc's rounds.
 */
static int demand_round(struct pts_ctx *c, unsigned int r)
{
	json_object *rd, *points, *files, *pw, *run, *steps, *cpu;
	char name[128], tag[32], rel[64], started[32], eta[32];
	uint64_t t0 = ssl_now_ms();
	unsigned int i, j;
	double tr;
	int st;

	ssl_eta_str(eta, sizeof(eta), (uint64_t)(c->points + PTS_DEMAND_PREWRITE) *
		    c->point_ms / 1000);
	fprintf(stderr, "pts %s: round %u of at most %u: %u points of writes, then %u "
		"points of TC x QD (%s)\n", c->def->name, r, c->max_rounds, PTS_DEMAND_PREWRITE,
		c->points, eta);
	rd = json_object_new_object();
	jset(rd, "round", json_object_new_int((int)r));
	now_iso(started, sizeof(started));
	jset(rd, "started", json_object_new_string(started));
	jset(rd, "health_before", health_now(c));
	snprintf(tag, sizeof(tag), "r%u-pw", r);
	snprintf(rel, sizeof(rel), "rounds/round-%03u-prewrite.json", r);
	st = demand_prewrite(c, tag, rel, 1000 + r, c->tcs[0], c->qds[0],
			     PTS_DEMAND_PREWRITE, &pw);
	if (st) {
		json_object_put(rd);
		return st;
	}
	jset(rd, "prewrite", pw);
	points = json_object_new_array();
	files = json_object_new_array();
	cpu = json_object_new_array();
	jset(rd, "points", points);
	jset(rd, "run_files", files);
	jset(rd, "cpu", cpu);
	for (i = 0; i < c->ntc; i++) {
		struct ssl_argv a = { 0 };

		if (ssl_run_sig) {
			json_object_put(rd);
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		}
		snprintf(tag, sizeof(tag), "r%u-t%u", r, c->tcs[i]);
		job_name(name, sizeof(name), c, tag);
		snprintf(rel, sizeof(rel), "rounds/round-%03u-tc%u.json", r, c->tcs[i]);
		av_demand(c, &a, name, r * 64 + i, c->tcs[i], c->qds[0]);
		for (j = 0; j < c->nqd; j++)
			av_addf(&a, "--step=iodepth=%u,runtime=%llums", c->qds[j],
				(unsigned long long)c->point_ms);
		st = run_into(c, &a, rel, "the round", &run);
		if (st) {
			json_object_put(rd);
			return st;
		}
		keep_rotate(c, name);
		steps = jget(run_job0(run), "steps");
		if (!steps || !json_object_is_type(steps, json_type_array) ||
		    json_object_array_length(steps) != c->nqd) {
			ssl_err("pts: %s/%s: %u steps expected", c->dir, rel, c->nqd);
			json_object_put(run);
			json_object_put(rd);
			return PTS_EXIT_FAILED;
		}
		for (j = 0; j < c->nqd; j++)
			json_object_array_add(points, demand_point(c,
						json_object_array_get_idx(steps, j),
						c->tcs[i], c->qds[j]));
		json_object_array_add(cpu, run_cpu(run_job0(run), c->tcs[i], 0));
		json_object_put(run);
		json_object_array_add(files, json_object_new_string(rel));
	}
	tr = jnum(find_load(points, c->tcs[0], c->qds[0]), "iops", NAN);
	jset(rd, "tracking", jdouble_or_null(tr));
	jset(rd, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	jset(rd, "health_after", health_now(c));
	json_object_array_add(jget(c->doc, "rounds"), rd);
	fprintf(stderr, "pts %s: round %u: T%uQ%u %.6g IOPS (pre-write %.6g IOPS)\n",
		c->def->name, r, c->tcs[0], c->qds[0], tr, jnum(pw, "iops", NAN));
	return 0;
}

/*
 * The operating points from the measurement window's averages: MaxIOPS,
 * the point of most IOPS whose average response time (ART) is under 5 ms;
 * MidIOPS, the point under 5 ms closest to the middle of the IOPS range
 * under 5 ms; MinIOPS, the lowest load (T1Q1).  A point none qualifies
 * for is recorded as null, with the reason.
 */
static json_object *choose_points(const struct pts_ctx *c)
{
	json_object *pts = jget(jget(c->doc, "results"), "points"), *arr, *mx = NULL, *md = NULL;
	json_object *mn = find_load(pts, c->tcs[c->ntc - 1], c->qds[c->nqd - 1]);
	static const char *const labels[] = { "MaxIOPS", "MidIOPS", "MinIOPS" };
	json_object *chosen[3];
	double lo = INFINITY, hi = -1, mid, best = INFINITY;
	size_t i, n = json_object_array_length(pts);

	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		double art = jnum(p, "lat_mean_ns", NAN), v = jnum(p, "iops", 0);

		if (!(art < PTS_ART_LIMIT_NS))
			continue;
		if (v > hi) {
			hi = v;
			mx = p;
		}
		lo = fmin(lo, v);
	}
	mid = (hi + lo) / 2;
	for (i = 0; mx && i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i);

		if (jnum(p, "lat_mean_ns", NAN) < PTS_ART_LIMIT_NS &&
		    fabs(jnum(p, "iops", 0) - mid) < best) {
			best = fabs(jnum(p, "iops", 0) - mid);
			md = p;
		}
	}
	chosen[0] = mx;
	chosen[1] = md;
	chosen[2] = mn;
	arr = json_object_new_array();
	for (i = 0; i < 3; i++) {
		json_object *o = json_object_new_object();

		jset(o, "label", json_object_new_string(labels[i]));
		if (!chosen[i]) {
			jset(o, "tc", NULL);
			jset(o, "qd", NULL);
			jset(o, "skipped", json_object_new_string(i < 2 ?
				"no point had an average response time under 5 ms" :
				"the lowest load was not measured"));
		} else {
			jset(o, "tc", json_object_get(jget(chosen[i], "tc")));
			jset(o, "qd", json_object_get(jget(chosen[i], "qd")));
			jset(o, "window_iops", json_object_get(jget(chosen[i], "iops")));
			jset(o, "window_lat_mean_ns",
			     json_object_get(jget(chosen[i], "lat_mean_ns")));
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The response-time histogram of a run: fio's latency_ns/us/ms buckets, in %. */
static json_object *rt_histogram(json_object *job)
{
	json_object *o = json_object_new_object();
	static const char *const keys[] = { "latency_ns", "latency_us", "latency_ms" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		jset(o, keys[i] + 8, json_object_get(jget(job, keys[i])));
	return o;
}

/*
 * Operating point @k: 60 points of writes at its load, then 10 points of
 * the demand stimulus measured whole, with its response-time histogram.
 */
static int operating_point(struct pts_ctx *c, json_object *op, unsigned int k)
{
	unsigned int tc = (unsigned int)jnum(op, "tc", 0), qd = (unsigned int)jnum(op, "qd", 0);
	struct ssl_argv a = { 0 };
	json_object *pw, *run, *job, *m;
	char name[128], tag[32], rel[64];
	int st;

	if (!jget(op, "prewrite")) {
		fprintf(stderr, "pts %s: %s (T%uQ%u): %u points of writes\n", c->def->name,
			jstring(op, "label"), tc, qd, PTS_OP_PREWRITE);
		snprintf(tag, sizeof(tag), "op%u-pw", k + 1);
		snprintf(rel, sizeof(rel), "rounds/op%u-prewrite.json", k + 1);
		st = demand_prewrite(c, tag, rel, 2000 + k, tc, qd, PTS_OP_PREWRITE, &pw);
		if (st)
			return st;
		jset(op, "prewrite", pw);
		if (pts_save(c))
			return PTS_EXIT_FAILED;
	}
	if (ssl_run_sig)
		return SSL_EXIT_SIGNAL(ssl_run_sig);
	fprintf(stderr, "pts %s: %s (T%uQ%u): %u points measured\n", c->def->name,
		jstring(op, "label"), tc, qd, PTS_OP_MEASURE);
	snprintf(tag, sizeof(tag), "op%u", k + 1);
	job_name(name, sizeof(name), c, tag);
	snprintf(rel, sizeof(rel), "rounds/op%u.json", k + 1);
	av_demand(c, &a, name, 3000 + k, tc, qd);
	av_addf(&a, "--runtime=%llums", (unsigned long long)(PTS_OP_MEASURE * c->point_ms));
	st = run_job(c, &a, rel, "the operating point", name, &run, &job);
	if (st)
		return st;
	m = demand_point(c, job, tc, qd);
	jset(m, "runtime_ms", json_object_new_double(job_ms(job)));
	jset(m, "rt_histogram", rt_histogram(job));
	jset(m, "cpu", run_cpu(job, tc, qd));
	jset(m, "run_file", json_object_new_string(rel));
	json_object_put(run);
	jset(op, "measure", m);
	return pts_save(c) ? PTS_EXIT_FAILED : 0;
}

/* ECW, DIRTH; 0 or an exit status. */
static int do_demand(struct pts_ctx *c)
{
	json_object *ops;
	unsigned int k;
	int st;

	st = precondition_segments(c, true);
	if (st)
		return st;
	st = rounds_to_steady(c, demand_round);
	if (st)
		return st < 0 ? PTS_EXIT_FAILED : st;
	if (!jget(c->doc, "operating_points")) {
		do_results(c);
		jset(c->doc, "operating_points", choose_points(c));
		if (pts_save(c))
			return PTS_EXIT_FAILED;
	}
	ops = jget(c->doc, "operating_points");
	/*
	 * A pre-write that an earlier process made (the test was interrupted
	 * before its measurement) no longer comes right before it: the drive
	 * idled since.  It is made again.
	 */
	for (k = 0; k < json_object_array_length(ops); k++) {
		json_object *op = json_object_array_get_idx(ops, k);

		if (jget(op, "prewrite") && !jget(op, "measure"))
			jset(op, "prewrite", NULL);
	}
	for (k = 0; k < json_object_array_length(ops); k++) {
		json_object *op = json_object_array_get_idx(ops, k);

		if (!jget(op, "tc") || jget(op, "measure"))
			continue;
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		st = operating_point(c, op, k);
		if (st)
			return st;
	}
	return 0;
}

static int demand_results(struct pts_ctx *c)
{
	return steady_status(c);
}

static void demand_settings(const struct pts_ctx *c, json_object *o, json_object *tr)
{
	const struct pts_def *t = c->def;
	char lab[96];

	jset(o, "tc_list", juints(c->tcs, c->ntc));
	jset(o, "qd_list", juints(c->qds, c->nqd));
	jset(o, "rwmixread", juints(&c->mix, 1));
	jset(o, "bssplit", t->bssplit ? json_object_new_string(t->bssplit) : NULL);
	jset(o, "random_distribution", json_object_new_string(t->zones ? t->zones :
							       "random"));
	jset(o, "prewrite_points", json_object_new_int(PTS_DEMAND_PREWRITE));
	jset(o, "op_prewrite_points", json_object_new_int(PTS_OP_PREWRITE));
	jset(o, "op_measure_points", json_object_new_int(PTS_OP_MEASURE));
	jset(o, "art_limit_ns", json_object_new_int(PTS_ART_LIMIT_NS));
	if (t->bssplit) {
		snprintf(lab, sizeof(lab), "ECW %u/%u IOPS at T%uQ%u", c->mix, 100 - c->mix,
			 c->tcs[0], c->qds[0]);
	} else {
		char b[16];

		bs_label(b, sizeof(b), c->bs[0]);
		snprintf(lab, sizeof(lab), "RND %s %u/%u IOPS at T%uQ%u", b, c->mix,
			 100 - c->mix, c->tcs[0], c->qds[0]);
	}
	jset(tr, "label", json_object_new_string(lab));
	jset(tr, "tc", json_object_new_int((int)c->tcs[0]));
	jset(tr, "qd", json_object_new_int((int)c->qds[0]));
	jset(tr, "rwmixread", json_object_new_int((int)c->mix));
}

static void demand_doc(json_object *d)
{
	jset(d, "precondition", NULL);
	jset(d, "operating_points", NULL);
}

static bool demand_scale(struct pts_ctx *c)
{
	bool scaled = rounds_deviation(c);
	char tl[64] = "", ql[64] = "";
	unsigned int i;

	if (c->ntc == ARRAY_SIZE(demand_loads) &&
	    !memcmp(c->tcs, demand_loads, sizeof(demand_loads)) &&
	    c->nqd == ARRAY_SIZE(demand_loads) &&
	    !memcmp(c->qds, demand_loads, sizeof(demand_loads)))
		return scaled;
	for (i = 0; i < c->ntc; i++)
		snprintf(tl + strlen(tl), sizeof(tl) - strlen(tl), "%s%u", i ? "," : "",
			 c->tcs[i]);
	for (i = 0; i < c->nqd; i++)
		snprintf(ql + strlen(ql), sizeof(ql) - strlen(ql), "%s%u", i ? "," : "",
			 c->qds[i]);
	deviation(c, "TC %s x QD %s (spec: 32,16,8,6,4,2,1 each)", tl, ql);
	return true;
}

/* The window's IOPS and ART of every load: TC down, QD across. */
static void demand_summary_matrix(const struct pts_ctx *c, json_object *pts)
{
	unsigned int i, j, q;

	for (q = 0; pts && q < 2; q++) {
		printf("\n%s, window average\n%-6s", q ? "ART (us)" : "IOPS", "TC\\QD");
		for (j = 0; j < c->nqd; j++)
			printf(" %10u", c->qds[j]);
		printf("\n");
		for (i = 0; i < c->ntc; i++) {
			printf("%-6u", c->tcs[i]);
			for (j = 0; j < c->nqd; j++) {
				json_object *p = find_load(pts, c->tcs[i], c->qds[j]);

				printf(" %10.1f", q ? jnum(p, "lat_mean_ns", NAN) / 1e3 :
				       jnum(p, "iops", NAN));
			}
			printf("\n");
		}
	}
}

/* An operating point's figures (@m: its measurement). */
static void demand_summary_op(json_object *op, json_object *m)
{
	json_object *pc[2] = { NULL, NULL };
	char load[16];
	unsigned int d;

	for (d = 0; d < 2; d++) {
		json_object *x = jget(m, d ? "write" : "read");

		if (jnum(x, "ios", 0) > 0)
			pc[d] = jget(x, "percentiles");
	}
	snprintf(load, sizeof(load), "T%dQ%d", (int)jnum(op, "tc", 0),
		 (int)jnum(op, "qd", 0));
	printf("%-8s %6s %12.1f %12.1f %12.1f %12.1f %12.1f\n", jstring(op, "label"),
	       load, jnum(m, "iops", NAN), jnum(m, "lat_mean_ns", NAN) / 1e3,
	       fmax(jnum(pc[0], "99.000000", NAN), jnum(pc[1], "99.000000", NAN)) / 1e3,
	       fmax(jnum(pc[0], "99.990000", NAN), jnum(pc[1], "99.990000", NAN)) / 1e3,
	       jnum(m, "lat_max_ns", NAN) / 1e3);
}

static void demand_summary(const struct pts_ctx *c)
{
	json_object *ops = jget(c->doc, "operating_points");
	json_object *pc = jget(c->doc, "precondition");
	unsigned int k;

	if (json_object_get_boolean(jget(jget(pc, "steady_state"), "reached")))
		printf("preconditioning: steady at segment %d\n",
		       (int)jnum(pc, "segments", 0));
	else
		printf("preconditioning: NOT steady after %d segments\n",
		       (int)jnum(pc, "segments", 0));

	demand_summary_matrix(c, jget(jget(c->doc, "results"), "points"));
	printf("\n%-8s %6s %12s %12s %12s %12s %12s\n", "point", "load", "IOPS",
	       "ART (us)", "p99 (us)", "p99.99 (us)", "MRT (us)");
	for (k = 0; k < json_object_array_length(ops); k++) {
		json_object *op = json_object_array_get_idx(ops, k), *m = jget(op, "measure");

		if (!m) {
			printf("%-8s %s\n", jstring(op, "label"), jget(op, "skipped") ?
			       jstring(op, "skipped") : "not measured");
			continue;
		}
		demand_summary_op(op, m);
	}
	printf("(p99 and p99.99: the higher of reads and writes)\n");
	summary_where(c);
}

static void demand_interrupted(const struct pts_ctx *c)
{
	fprintf(stderr, "pts: interrupted after %u preconditioning segments and %u "
		"rounds: continue with ssdload pts --resume=%s\n",
		(unsigned int)json_object_array_length(jget(c->doc, "segments")),
		rounds_done(c), c->dir);
}

const struct pts_ops pts_demand_ops = {
	.window_of = "rounds",
	.segmented = true,
	.check = demand_check,
	.settings = demand_settings,
	.doc = demand_doc,
	.scale = demand_scale,
	.run = do_demand,
	.results = demand_results,
	.summary = demand_summary,
	.interrupted = demand_interrupted,
};
