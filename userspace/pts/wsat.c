// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload pts wsat: Write Saturation.  After the purge (no WIPC: the
 * stimulus itself fills the drive), one continuous stimulus of RND 4KiB
 * writes, sampled every point (a minute), until 24 hours or 4x the active
 * range written; run in segments of 30 samples, one `ssdload run` each.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "core/util.h"
#include "methods/runner.h"
#include "pts/common.h"
#include "pts/ss.h"

static int wsat_check(struct pts_ctx *c)
{
	if (c->duration_ms >= c->point_ms)
		return 0;
	ssl_err("pts wsat: --duration=%llums is shorter than one sample (--point-time "
		"%llums)", (unsigned long long)c->duration_ms,
		(unsigned long long)c->point_ms);
	return -1;
}

static int wsat_check_range(const struct pts_ctx *c)
{
	if (!(c->write_limit * c->active_bytes < c->bs[0]))
		return 0;
	ssl_err("pts wsat: --write-limit=%g of %llu bytes is less than one write",
		c->write_limit, (unsigned long long)c->active_bytes);
	return -1;
}

static void wsat_settings(const struct pts_ctx *c, json_object *o, json_object *tr)
{
	(void)tr;
	jset(o, "duration_ms", json_object_new_int64((int64_t)c->duration_ms));
	jset(o, "spec_duration_ms", json_object_new_int64(PTS_WSAT_DURATION_MS));
	jset(o, "write_limit_factor", json_object_new_double(c->write_limit));
	jset(o, "spec_write_limit_factor", json_object_new_int(PTS_WSAT_WRITE_LIMIT));
	jset(o, "max_written_bytes",
	     json_object_new_int64((int64_t)(c->write_limit * c->active_bytes)));
}

static bool wsat_scale(struct pts_ctx *c)
{
	bool scaled = false;

	if (c->duration_ms != PTS_WSAT_DURATION_MS) {
		deviation(c, "time limit %llu ms (spec: %llu ms)",
			  (unsigned long long)c->duration_ms,
			  (unsigned long long)PTS_WSAT_DURATION_MS);
		scaled = true;
	}
	if (c->write_limit != PTS_WSAT_WRITE_LIMIT) {
		deviation(c, "write limit %g x the active range (spec: %d x)", c->write_limit,
			  PTS_WSAT_WRITE_LIMIT);
		scaled = true;
	}
	return scaled;
}

/* Segments until the time or the write limit; 0 or an exit status. */
static int do_wsat(struct pts_ctx *c)
{
	uint64_t limit = (uint64_t)(c->write_limit * c->active_bytes), written, ms, left;
	unsigned int k;
	char eta[32];
	double t, rate;
	int st;

	for (;;) {
		seg_pos(c, &t, &written);
		/* (each run ends up to a few ms late: its I/Os in flight) */
		if (written >= limit || t + c->point_ms / 2.0 >= c->duration_ms)
			return 0;
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		k = json_object_array_length(jget(c->doc, "segments")) + 1;
		left = c->duration_ms - (uint64_t)t;
		ms = (uint64_t)PTS_WSAT_SEG_SAMPLES * c->point_ms;
		if (ms > left)
			ms = left;
		/* the ETA: the nearer of the two limits at the rate so far */
		rate = t > 0 ? written / t : 0;		/* bytes per ms */
		if (rate > 0 && (limit - written) / rate < left)
			left = (uint64_t)((limit - written) / rate);
		ssl_eta_str(eta, sizeof(eta), left / 1000);
		fprintf(stderr, "pts wsat: segment %u: %.3f of %.3f GB written, %.0f of %llu s "
			"(at most %s left)\n", k, written / 1e9, limit / 1e9, t / 1000,
			(unsigned long long)(c->duration_ms / 1000), eta);
		st = seg_run(c, "wsat", k, t, written, ms,
			     (limit - written + c->bs[0] - 1) / c->bs[0], NULL);
		if (st)
			return st;
		if (pts_save(c))
			return PTS_EXIT_FAILED;
	}
}

/*
 * WSAT results: why it stopped, and the spec's steady-state rule applied
 * to the last 5 segments (each segment's mean IOPS): informative, since
 * the test runs to its limits; steady_iops is their average if they pass.
 */
static void wsat_results(struct pts_ctx *c)
{
	json_object *segs = jget(c->doc, "segments"), *res = json_object_new_object();
	uint64_t limit = (uint64_t)(c->write_limit * c->active_bytes), written;
	unsigned int n = json_object_array_length(segs), i;
	struct ssl_ss_limits l;
	struct ssl_ss_window w;
	double *y = calloc(n ? n : 1, sizeof(*y)), t;

	seg_pos(c, &t, &written);
	jset(res, "stopped_by", json_object_new_string(written >= limit ? "write_limit" :
						       "time_limit"));
	jset(res, "duration_ms", json_object_new_double(t));
	jset(res, "written_bytes", json_object_new_int64((int64_t)written));
	jset(res, "written_factor", json_object_new_double((double)written / c->active_bytes));
	jset(res, "samples", json_object_new_int((int)json_object_array_length(
						 jget(c->doc, "series"))));
	/* a last segment cut short by a limit is no full sample of the rate */
	if (n && jnum(json_object_array_get_idx(segs, n - 1), "samples", 0) <
		 PTS_WSAT_SEG_SAMPLES)
		n--;
	if (y && n >= SSL_SS_WINDOW) {
		for (i = 0; i < n; i++)
			y[i] = jnum(json_object_array_get_idx(segs, i), "iops", 0);
		ssl_ss_limits_default(&l);
		ssl_ss_eval(y + n - SSL_SS_WINDOW, SSL_SS_WINDOW, n - SSL_SS_WINDOW + 1, &l, &w);
		jset(res, "steady_state", window_json(&w, y, ssl_ss_steady(&w), n, n));
		jset(res, "steady_iops", ssl_ss_steady(&w) ? json_object_new_double((double)w.avg) :
			 NULL);
	} else {
		jset(res, "steady_state", NULL);
		jset(res, "steady_iops", NULL);
	}
	free(y);
	jset(c->doc, "results", res);
}

static int wsat_results_status(struct pts_ctx *c)
{
	wsat_results(c);
	return 0;
}

static void wsat_summary(const struct pts_ctx *c)
{
	json_object *res = jget(c->doc, "results"), *segs = jget(c->doc, "segments");
	unsigned int k;
	char sz[32];

	ssl_size_str(sz, sizeof(sz), (uint64_t)jnum(res, "written_bytes", 0));
	printf("stopped by the %s: %s written (%.2f x the active range) in %.1f s, "
	       "%d samples\n", strcmp(jstring(res, "stopped_by"), "write_limit") ?
	       "time limit" : "write limit", sz, jnum(res, "written_factor", 0),
	       jnum(res, "duration_ms", 0) / 1000, (int)jnum(res, "samples", 0));
	printf("\n%8s %12s %14s %12s\n", "segment", "end (s)", "written (GB)", "IOPS");
	for (k = 0; k < json_object_array_length(segs); k++) {
		json_object *g = json_object_array_get_idx(segs, k);

		printf("%8d %12.1f %14.3f %12.1f\n", (int)jnum(g, "segment", 0),
		       jnum(g, "t_end_ms", 0) / 1000, jnum(g, "written_end_bytes", 0) / 1e9,
		       jnum(g, "iops", 0));
	}
	if (jget(res, "steady_iops"))
		printf("last 5 segments steady: %.6g IOPS\n", jnum(res, "steady_iops", 0));
	else if (jget(res, "steady_state"))
		printf("last 5 segments: not steady (range %.2f%%, slope excursion %.2f%%)\n",
		       jnum(jget(res, "steady_state"), "range_pct", NAN),
		       jnum(jget(res, "steady_state"), "slope_excursion_pct", NAN));
	summary_where(c);
}

const struct pts_ops pts_wsat_ops = {
	.window_of = "segments",
	.segmented = true,
	.check = wsat_check,
	.check_range = wsat_check_range,
	.settings = wsat_settings,
	.scale = wsat_scale,
	.run = do_wsat,
	.results = wsat_results_status,
	.summary = wsat_summary,
	.interrupted = interrupted_segments,
};
