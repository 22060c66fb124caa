// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload pts xsr: Cross Stimulus Recovery.  After the purge (no WIPC),
 * three groups of writes, each one run sampled every point: SEQ 1024KiB
 * for 8 h, RND 8KiB for 6 h, SEQ 1024KiB for 8 h; and how long the last
 * group takes to recover the first one's bandwidth.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "core/util.h"
#include "methods/runner.h"
#include "pts/common.h"

static const struct pts_group xsr_groups[] = {
	{ 1, "SEQ 1024KiB writes", false, 1048576, 4 },	/* 8 h */
	{ 2, "RND 8KiB writes", true, 8192, 3 },	/* 6 h */
	{ 3, "SEQ 1024KiB writes", false, 1048576, 4 },	/* 8 h */
};

static int xsr_check(struct pts_ctx *c)
{
	if (c->duration_ms * 3 / 4 >= c->point_ms)
		return 0;
	ssl_err("pts xsr: --duration=%llums leaves the RND segment (3/4 of it) shorter "
		"than one sample (--point-time %llums)", (unsigned long long)c->duration_ms,
		(unsigned long long)c->point_ms);
	return -1;
}

static void xsr_settings(const struct pts_ctx *c, json_object *o, json_object *tr)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	(void)tr;
	for (i = 0; i < ARRAY_SIZE(xsr_groups); i++) {
		const struct pts_group *g = &xsr_groups[i];
		json_object *x = json_object_new_object();

		jset(x, "group", json_object_new_int((int)i + 1));
		jset(x, "label", json_object_new_string(g->label));
		jset(x, "rw", json_object_new_string(g->random ? "randwrite" : "write"));
		jset(x, "blockalign", g->random ? json_object_new_int((int)pts_blockalign(c,
			g->bs)) : NULL);
		jset(x, "bs", json_object_new_int((int)g->bs));
		jset(x, "duration_ms", json_object_new_int64((int64_t)(c->duration_ms *
								     g->quarters / 4)));
		jset(x, "spec_duration_ms", json_object_new_int64((int64_t)(
			PTS_XSR_SEQ_MS * g->quarters / 4)));
		json_object_array_add(a, x);
	}
	jset(o, "groups", a);
}

static bool xsr_scale(struct pts_ctx *c)
{
	bool scaled = false;

	if (c->duration_ms != PTS_XSR_SEQ_MS) {
		deviation(c, "SEQ segments of %llu ms and an RND segment of %llu ms (spec: 8 h "
			  "and 6 h)", (unsigned long long)c->duration_ms,
			  (unsigned long long)(c->duration_ms * 3 / 4));
		scaled = true;
	}
	/* (--max-rounds is no option of xsr: this is the spec's limit) */
	return rounds_deviation(c) || scaled;
}

/* The stimulus time of group @g's segments so far. */
static double xsr_group_ms(const struct pts_ctx *c, unsigned int g)
{
	json_object *segs = jget(c->doc, "segments");
	size_t i, n = json_object_array_length(segs);
	double ms = 0;

	for (i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(segs, i);

		if ((unsigned int)jnum(x, "group", 0) == g + 1)
			ms += jnum(x, "t_end_ms", 0) - jnum(x, "t_start_ms", 0);
	}
	return ms;
}

/* The three groups, each one run (a segment) unless interrupted. */
static int do_xsr(struct pts_ctx *c)
{
	unsigned int g, k;
	uint64_t len, ms, written;
	double done, t;
	int st;

	for (g = 0; g < ARRAY_SIZE(xsr_groups); g++) {
		len = c->duration_ms * xsr_groups[g].quarters / 4;
		for (;;) {
			done = xsr_group_ms(c, g);
			/* (each run ends up to a few ms late: its I/Os in flight) */
			if (done + c->point_ms / 2.0 >= len)
				break;
			if (ssl_run_sig)
				return SSL_EXIT_SIGNAL(ssl_run_sig);
			seg_pos(c, &t, &written);
			k = json_object_array_length(jget(c->doc, "segments")) + 1;
			/*
			 * The whole group in one run: a SEQ run that started over
			 * at offset 0 every 30 samples would leave the end of a
			 * large drive unwritten.  (A resumed group starts over.)
			 */
			ms = len - (uint64_t)done;
			fprintf(stderr, "pts xsr: group %u of 3 (%s): %.0f of %llu s\n", g + 1,
				xsr_groups[g].label, done / 1000, (unsigned long long)(len / 1000));
			st = seg_run(c, "xsr", k, t, written, ms, 0, &xsr_groups[g]);
			if (st)
				return st;
			if (pts_save(c))
				return PTS_EXIT_FAILED;
		}
	}
	return 0;
}

/*
 * XSR results per group: its mean rates (its I/Os over its stimulus time),
 * and latencies; and the recovery of group 3: the stimulus time from its
 * start to the end of its first sample whose bandwidth reaches the mean of
 * group 1's last 30 samples (the steady SEQ rate before the RND writes),
 * null if none does.
 */
static void xsr_results(struct pts_ctx *c)
{
	json_object *res = json_object_new_object(), *arr = json_object_new_array();
	json_object *segs = jget(c->doc, "segments"), *ser = jget(c->doc, "series");
	size_t i, ns = json_object_array_length(segs), nx = json_object_array_length(ser);
	double ref = NAN, g3_start = NAN;
	unsigned int g;

	for (g = 0; g < ARRAY_SIZE(xsr_groups); g++) {
		json_object *x = json_object_new_object(), *last = NULL;
		double ms = 0, ios = 0, lat_sum = 0, lat_max = -1, start = NAN;
		unsigned int nsmp = 0;

		for (i = 0; i < ns; i++) {
			json_object *sg = json_object_array_get_idx(segs, i);

			if ((unsigned int)jnum(sg, "group", 0) != g + 1)
				continue;
			ms += jnum(sg, "t_end_ms", 0) - jnum(sg, "t_start_ms", 0);
			ios += jnum(sg, "ios", 0);
			if (!isfinite(start))
				start = jnum(sg, "t_start_ms", 0);
			last = sg;
		}
		for (i = 0; i < nx; i++) {
			json_object *sm = json_object_array_get_idx(ser, i);
			double n = jnum(sm, "ios", 0);

			if ((unsigned int)jnum(sm, "group", 0) != g + 1)
				continue;
			nsmp++;
			if (n > 0) {
				lat_sum += n * jnum(sm, "lat_mean_ns", 0);
				lat_max = fmax(lat_max, jnum(sm, "lat_max_ns", 0));
			}
		}
		jset(x, "group", json_object_new_int((int)g + 1));
		jset(x, "label", json_object_new_string(xsr_groups[g].label));
		jset(x, "samples", json_object_new_int((int)nsmp));
		jset(x, "t_start_ms", jdouble_or_null(start));
		jset(x, "duration_ms", json_object_new_double(ms));
		jset(x, "iops", json_object_new_double(ms > 0 ? ios * 1000 / ms : 0));
		jset(x, "bw_bytes", json_object_new_double(ms > 0 ?
				ios * xsr_groups[g].bs * 1000 / ms : 0));
		jset(x, "lat_mean_ns", ios > 0 ? json_object_new_double(lat_sum / ios) : NULL);
		jset(x, "lat_max_ns", lat_max >= 0 ? json_object_new_int64((int64_t)lat_max) : NULL);
		if (g == 0 && last) {
			/* group 1's last (up to) 30 samples: its steady SEQ rate */
			double sum = 0;
			unsigned int m = 0;

			for (i = nx; i-- > 0 && m < PTS_WSAT_SEG_SAMPLES;) {
				json_object *sm = json_object_array_get_idx(ser, i);

				if ((unsigned int)jnum(sm, "group", 0) == 1) {
					sum += jnum(sm, "bw_bytes", 0);
					m++;
				}
			}
			ref = m ? sum / m : NAN;
		}
		if (g == 2)
			g3_start = start;
		json_object_array_add(arr, x);
	}
	jset(res, "groups", arr);
	jset(res, "reference_bw_bytes", jdouble_or_null(ref));
	jset(res, "recovery_ms", NULL);
	for (i = 0; i < nx && isfinite(ref) && isfinite(g3_start); i++) {
		json_object *sm = json_object_array_get_idx(ser, i);

		if ((unsigned int)jnum(sm, "group", 0) == 3 && jnum(sm, "bw_bytes", 0) >= ref) {
			jset(res, "recovery_ms", json_object_new_double(jnum(sm, "t_ms", 0) -
									g3_start));
			break;
		}
	}
	jset(c->doc, "results", res);
}

static int xsr_results_status(struct pts_ctx *c)
{
	xsr_results(c);
	return 0;
}

static void xsr_summary(const struct pts_ctx *c)
{
	json_object *res = jget(c->doc, "results"), *gs = jget(res, "groups");
	unsigned int k;

	printf("\n%6s %-20s %10s %12s %12s %14s\n", "group", "stimulus", "time (s)",
	       "MB/s", "IOPS", "mean lat (us)");
	for (k = 0; k < json_object_array_length(gs); k++) {
		json_object *g = json_object_array_get_idx(gs, k);

		printf("%6d %-20s %10.1f %12.1f %12.1f %14.1f\n", (int)jnum(g, "group", 0),
		       jstring(g, "label"), jnum(g, "duration_ms", 0) / 1000,
		       jnum(g, "bw_bytes", 0) / 1e6, jnum(g, "iops", 0),
		       jnum(g, "lat_mean_ns", NAN) / 1e3);
	}
	if (jget(res, "recovery_ms"))
		printf("recovery: group 3 reached group 1's final %.1f MB/s after %.1f s\n",
		       jnum(res, "reference_bw_bytes", 0) / 1e6,
		       jnum(res, "recovery_ms", 0) / 1000);
	else
		printf("recovery: group 3 never reached group 1's final %.1f MB/s\n",
		       jnum(res, "reference_bw_bytes", 0) / 1e6);
	summary_where(c);
}

const struct pts_ops pts_xsr_ops = {
	.window_of = "segments",
	.segmented = true,
	.check = xsr_check,
	.settings = xsr_settings,
	.scale = xsr_scale,
	.run = do_xsr,
	.results = xsr_results_status,
	.summary = xsr_summary,
	.interrupted = interrupted_segments,
};
