// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload pts iops, throughput, latency: rounds of the test's matrix of
 * points until steady state or the round limit.  Each round is one
 * `ssdload run` with one --step per point (R/W mix outer, block size
 * inner): the points of a round run back to back in the kernel, and the
 * round's fio-style JSON is kept in DIR/rounds/.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "core/util.h"
#include "methods/runner.h"
#include "pts/common.h"
#include "pts/ss.h"

/* The tracking variable of a round's points; NaN if missing. */
static double round_tracking(const struct pts_ctx *c, json_object *points)
{
	return points_metric(c, points, c->track_bs, c->def->track_mix);
}

/* Run round @r; appends it to the doc.  0 or an exit status. */
static int do_round(struct pts_ctx *c, unsigned int r)
{
	const struct pts_def *t = c->def;
	struct ssl_argv a = { 0 };
	json_object *run, *job, *steps, *rd, *points, *hb;
	char name[128], rel[64], out[PATH_MAX], eta[32], eta_min[32];
	uint64_t t0 = ssl_now_ms(), left;
	unsigned int m, b, k = 0;
	char started[32], ba[32];
	double tr;
	int st;

	/* the test ends at rounds_needed() at the earliest, at max_rounds at the latest */
	left = (uint64_t)c->points * c->point_ms / 1000;
	ssl_eta_str(eta, sizeof(eta), left * (c->max_rounds - r + 1));
	ssl_eta_str(eta_min, sizeof(eta_min), left * (r <= rounds_needed(c) ?
						       rounds_needed(c) - r + 1 : 1));
	fprintf(stderr, "pts %s: round %u of at most %u: %u points of %llu ms "
		"(%s to %s left)\n", t->name, r, c->max_rounds, c->points,
		(unsigned long long)c->point_ms, eta_min, eta);
	snprintf(rel, sizeof(rel), "rounds/round-%03u.json", r);
	if (pts_path(c, out, sizeof(out), rel))
		return PTS_EXIT_FAILED;
	snprintf(rel, sizeof(rel), "r%u", r);
	job_name(name, sizeof(name), c, rel);
	snprintf(rel, sizeof(rel), "rounds/round-%03u.json", r);
	av_common_bins(c, &a, name);
	av_add(&a, t->random ? "--rw=randrw" : "--rw=rw");
	av_addf(&a, "--numjobs=%u", c->threads);
	av_addf(&a, "--iodepth=%u", c->iodepth);
	av_addf(&a, "--size=%llu", (unsigned long long)c->active_bytes);
	av_addf(&a, "--randseed=%u", 0x5d5 + r);
	av_add(&a, "--percentile_list=" PTS_PERCENTILES);
	if (c->keep_last_job)
		av_add(&a, "--keep-job");
	/* random points: each block size its own alignment (pts_blockalign()) */
	for (m = 0; m < t->nmix; m++)
		for (b = 0; b < c->nbs; b++) {
			ba[0] = '\0';
			/* a block the device forbids: the kernel says so about bs */
			if (t->random && pts_blockalign(c, c->bs[b]) <= c->bs[b])
				snprintf(ba, sizeof(ba), ",blockalign=%u",
					 pts_blockalign(c, c->bs[b]));
			av_addf(&a, "--step=rwmixread=%u,bs=%u,runtime=%llums%s", t->mix[m],
				c->bs[b], (unsigned long long)c->point_ms, ba);
		}
	hb = health_now(c);
	now_iso(started, sizeof(started));
	st = spawn_read(&a, out, "the round", &run);
	if (st) {
		json_object_put(hb);
		return st;
	}
	job = run_job0(run);
	steps = jget(job, "steps");
	if (!steps || !json_object_is_type(steps, json_type_array) ||
	    json_object_array_length(steps) != c->points) {
		ssl_err("pts: %s: %u steps expected", out, c->points);
		json_object_put(run);
		json_object_put(hb);
		return PTS_EXIT_FAILED;
	}
	points = json_object_new_array();
	for (m = 0; m < t->nmix; m++)
		for (b = 0; b < c->nbs; b++)
			json_object_array_add(points, point_json(c,
						json_object_array_get_idx(steps, k++),
						c->bs[b], t->mix[m]));
	json_object_put(run);
	rd = json_object_new_object();
	jset(rd, "round", json_object_new_int((int)r));
	jset(rd, "started", json_object_new_string(started));
	jset(rd, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	tr = round_tracking(c, points);
	jset(rd, "tracking", jdouble_or_null(tr));
	jset(rd, "health_before", hb);
	jset(rd, "health_after", health_now(c));
	jset(rd, "run_file", json_object_new_string(rel));
	jset(rd, "points", points);
	json_object_array_add(jget(c->doc, "rounds"), rd);
	keep_rotate(c, name);
	fprintf(stderr, "pts %s: round %u: %s = %.6g %s\n", t->name, r, t->track_label, tr,
		pts_metric_unit[t->metric]);
	return 0;
}

/* Rounds until steady state or the round limit; 0, a status or -1. */
static int matrix_run(struct pts_ctx *c)
{
	return rounds_to_steady(c, do_round);
}

/* The measurement window, and the WDPC: the rounds, all of them. */
static int matrix_results(struct pts_ctx *c)
{
	json_object *wd = json_object_new_object(), *rs = jget(c->doc, "rounds");
	int64_t ms = 0;
	size_t i;

	do_results(c);
	for (i = 0; i < json_object_array_length(rs); i++)
		ms += (int64_t)jnum(json_object_array_get_idx(rs, i), "duration_ms", 0);
	jset(wd, "rounds", json_object_new_int((int)json_object_array_length(rs)));
	jset(wd, "duration_ms", json_object_new_int64(ms));
	jset(c->doc, "wdpc", wd);
	return steady_status(c);
}

static bool matrix_scale(struct pts_ctx *c)
{
	return rounds_deviation(c);
}

/* The window's average of each point: R/W mixes down, block sizes across. */
static void matrix_summary(const struct pts_ctx *c)
{
	const struct pts_def *t = c->def;
	json_object *pts = jget(jget(c->doc, "results"), "points");
	unsigned int m, b, k = 0;
	char lab[16];

	if (!pts)
		return;
	printf("\n%-8s", t->metric == PTS_LAT_MEAN ? "avg lat" : "R/W mix");
	for (b = 0; b < c->nbs; b++) {
		bs_label(lab, sizeof(lab), c->bs[b]);
		printf(" %12s", lab);
	}
	printf("\n");
	for (m = 0; m < t->nmix; m++) {
		printf("%3u/%-4u", t->mix[m], 100 - t->mix[m]);
		for (b = 0; b < c->nbs; b++) {
			json_object *p = json_object_array_get_idx(pts, k++);

			if (t->metric == PTS_IOPS)
				printf(" %12.1f", jnum(p, "iops", NAN));
			else if (t->metric == PTS_BW)
				printf(" %9.1f MB/s", jnum(p, "bw_bytes", NAN) / 1e6);
			else
				printf(" %9.1f us", jnum(p, "lat_mean_ns", NAN) / 1e3);
		}
		printf("\n");
	}
	summary_where(c);
}

static void matrix_interrupted(const struct pts_ctx *c)
{
	fprintf(stderr, "pts: interrupted after %u finished round%s: continue with "
		"ssdload pts --resume=%s\n", rounds_done(c), rounds_done(c) == 1 ? "" : "s",
		c->dir);
}

const struct pts_ops pts_matrix_ops = {
	.window_of = "rounds",
	.scale = matrix_scale,
	.run = matrix_run,
	.results = matrix_results,
	.summary = matrix_summary,
	.interrupted = matrix_interrupted,
};
