// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload latency-grid: the QD 1 latency grid of TheSSDReview's S3700 and
 * P3520 reviews as one command.
 *
 * Every cell (a block size and a read/write mix) is one step of a single
 * `ssdload run` at QD 1 on one worker, back to back with its own ramp and
 * measured time.  Its average and maximum completion latency and the
 * percentiles asked for, of reads and writes together, go to one table;
 * DIR/latency-grid.json holds the cells, DIR/run.json the run, and
 * DIR/report.html the chart of average and maximum latency per cell.
 * The command keeps no state between calls: everything lives in its
 * context, so that a review plan can run it as a step.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "core/options.h"
#include "core/util.h"
#include "device/device.h"
#include "device/guard.h"
#include "fio/report.h"
#include "methods/latgrid.h"
#include "methods/method.h"
#include "methods/runner.h"

#define GRID_FORMAT		"ssdload-latency-grid"
#define GRID_FORMAT_VERSION	1
#define GRID_JSON		"latency-grid.json"

#define GRID_EXIT_FAILED	1	/* the run failed */
#define GRID_EXIT_USAGE		2	/* bad usage or a refusal: nothing ran */

static const char *const grid_usage[] = {
	"usage: ssdload latency-grid --filename=DEV [options]",
	"",
	"The QD 1 latency grid of TheSSDReview's S3700 and P3520 reviews: every",
	"block size with every read/write mix, each cell one step of a single job at",
	"QD 1 on one worker, run back to back with its own ramp and measured time.",
	"The default is the S3700 review's 3 x 3: 512 B, 4 KiB and 8 KiB random, at",
	"100/0, 65/35 and 0/100 read/write.  It prints one table (per cell: average",
	"and maximum completion latency and the percentiles asked for, of reads and",
	"writes together); results go to DIR/latency-grid.json, DIR/run.json (the",
	"run, fio's schema) and DIR/report.html (average and maximum latency per",
	"cell in one chart).",
	"",
	"  --filename=DEV        the device (a mix below 100 writes: --allow_write)",
	"  --bs=LIST             block sizes (default 512,4k,8k)",
	"  --mix=LIST            read percentages (fio's rwmixread), 0 to 100",
	"                        (default 100,65,0: reads, 65/35, writes)",
	"  --percentiles=LIST    fio's percentile_list (default 99:99.9:99.99)",
	SSL_METHOD_USAGE_TIMES("5s", "1m"),
	"  --allow_write         let the mixes below 100 write (the device's data is",
	"                        destroyed; the guard refuses a device that holds a",
	"                        filesystem, partition table or RAID member)",
	"  --force               write even to a device that holds one",
	SSL_METHOD_USAGE_OUTPUT("latency-grid"),
	"Passed to the run as they are (see ssdload run --help): --size, --offset,",
	"--randseed, --random_distribution, --cpus_allowed, --hipri, --section.",
	"The grid sets --rw, --rwmixread, --bs, --iodepth=1 and --numjobs=1 itself.",
	"",
	"Exit status: 0 done, 1 the run failed, 2 bad usage or a refusal (nothing",
	"ran), 128+N after signal N (what was measured is kept).",
	NULL,
};

enum { G_BS, G_MIX, G_PCT, G_FORCE, G_SET };

static const struct ssl_opt grid_opts[] = {
	{ "bs",			SSL_ARG_REQUIRED, G_BS },
	{ "blocksize",		SSL_ARG_REQUIRED, G_BS },
	{ "mix",		SSL_ARG_REQUIRED, G_MIX },
	{ "percentiles",	SSL_ARG_REQUIRED, G_PCT },
	{ "percentile_list",	SSL_ARG_REQUIRED, G_PCT },
	{ "force",		SSL_ARG_FLAG, G_FORCE },
	/* what the grid sets per cell */
	{ "rw",			SSL_ARG_REQUIRED, G_SET },
	{ "readwrite",		SSL_ARG_REQUIRED, G_SET },
	{ "rwmixread",		SSL_ARG_REQUIRED, G_SET },
	{ "rwmixwrite",		SSL_ARG_REQUIRED, G_SET },
	{ "bssplit",		SSL_ARG_REQUIRED, G_SET },
	{ "profile",		SSL_ARG_REQUIRED, G_SET },
	SSL_METHOD_OPTS,
	{ NULL, 0, 0 },
};

struct grid_ctx {
	struct ssl_method m;
	struct ssl_grid g;
	bool force;
	json_object *doc;
};

/* ---- options ---- */

static int grid_opt(struct grid_ctx *c, const struct ssl_opt *opt, const char *val)
{
	switch (opt->id) {
	case G_BS:
		return ssl_grid_bs_list("latency-grid", val, &c->g);
	case G_MIX:
		return ssl_uint_list_from("latency-grid", opt->name, val, 0, 100,
					  SSL_GRID_MAX_MIX, 0, c->g.mix, &c->g.nmix);
	case G_PCT:
		return ssl_grid_pct_list("latency-grid", val, &c->g);
	case G_FORCE:
		c->force = !val || strcmp(val, "0");
		return 0;
	}
	ssl_err("latency-grid: --%s: the grid sets it for each cell (--bs, --mix)",
		opt->name);
	return -1;
}

static int grid_parse(void *ctx, int argc, const char **argv)
{
	struct grid_ctx *c = ctx;
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, r;

	while ((r = ssl_method_next(&c->m, argc, argv, &i, grid_opts, grid_usage, &opt,
				    &val)) == 1)
		if (grid_opt(c, opt, val))
			return -1;
	if (r)
		return r < 0 ? -1 : 1;
	if (ssl_method_check(&c->m))
		return -1;
	if (ssl_grid_writes(&c->g) && !c->m.pass.allow_write) {
		ssl_err("latency-grid: a mix below 100 writes to %s: give --allow_write (its "
			"data is destroyed), or --mix=100; nothing ran", c->m.filename);
		return -1;
	}
	return 0;
}

/* ---- the run ---- */

static void grid_steps(const void *ctx, FILE *f)
{
	const struct grid_ctx *c = ctx;

	ssl_grid_steps(&c->g, f);
}

static void grid_argv(const void *ctx, struct ssl_argv *a)
{
	const struct grid_ctx *c = ctx;
	char pct[256];

	ssl_grid_pct_str(&c->g, pct, sizeof(pct));
	av_add(a, "--iodepth=1");
	av_add(a, "--numjobs=1");
	av_addf(a, "--ramp_time=%" PRIu64 "ms", c->m.ramp_ms);
	av_addf(a, "--runtime=%" PRIu64 "ms", c->m.runtime_ms);
	av_addf(a, "--percentile_list=%s", pct);
	av_add(a, "--output-format=json+");	/* the bins: a mix's percentiles */
}

/* A grid that writes: the guard of every destructive command; 0, or -1. */
static int grid_guard(void *ctx, const struct ssl_dev *d)
{
	struct grid_ctx *c = ctx;
	int fd, r;

	if (!ssl_grid_writes(&c->g))
		return 0;
	fd = ssl_dev_open_excl(d, 1);
	if (fd < 0)
		return -1;
	r = ssl_guard(d, fd, c->force, 0);
	close(fd);
	return r;
}

/* ---- latency-grid.json ---- */

static json_object *new_doc(void *ctx, const struct ssl_dev *d)
{
	struct grid_ctx *c = ctx;
	json_object *s = json_object_new_object(), *p = json_object_new_array();
	int i;

	c->doc = ssl_method_doc(&c->m, GRID_FORMAT, GRID_FORMAT_VERSION, d);
	for (i = 0; i < c->g.npct; i++)
		json_object_array_add(p, json_object_new_double(c->g.pct[i]));
	jset(s, "filename", json_object_new_string(c->m.filename));
	jset(s, "bs_list", juint_array(c->g.bs, c->g.nbs));
	jset(s, "mix_list", juint_array(c->g.mix, c->g.nmix));
	jset(s, "percentiles", p);
	jset(s, "iodepth", json_object_new_int(1));
	jset(s, "numjobs", json_object_new_int(1));
	jset(s, "ramp_ms", json_object_new_int64((int64_t)c->m.ramp_ms));
	jset(s, "runtime_ms", json_object_new_int64((int64_t)c->m.runtime_ms));
	jset(c->doc, "settings", s);
	jset(c->doc, "points", json_object_new_array());
	jset(c->doc, "run_json", json_object_new_string("run.json"));
	return c->doc;
}

/* the cells, from the run's steps (as many as ran) */
static void fill_cells(void *ctx, json_object *doc, json_object *job)
{
	struct grid_ctx *c = ctx;
	json_object *steps = jget(job, "steps"), *arr = json_object_new_array();
	size_t k, n = steps && json_object_is_type(steps, json_type_array) ?
		      json_object_array_length(steps) : 0;

	for (k = 0; k < n && k < ssl_grid_cells(&c->g); k++)
		json_object_array_add(arr, ssl_grid_cell(&c->g, (unsigned int)k,
							 json_object_array_get_idx(steps, k)));
	jset(doc, "points", arr);
}

/* ---- output ---- */

static void lat_cell(char *buf, size_t len, json_object *v)
{
	if (v && json_object_get_double(v) > 0)
		ssl_lat_str(buf, len, json_object_get_double(v));
	else
		snprintf(buf, len, "-");
}

static void print_table(const void *ctx)
{
	const struct grid_ctx *c = ctx;
	json_object *pts = jget(c->doc, "points");
	size_t n = json_object_array_length(pts), i;
	char cell[32], mix[16];
	int k;

	printf("ssdload latency-grid: QD 1 on %s, %zu cell%s, ramp %" PRIu64 " ms + %" PRIu64
	       " ms each (%s)\n", c->m.filename, n, n == 1 ? "" : "s", c->m.ramp_ms,
	       c->m.runtime_ms, jstring(c->doc, "state"));
	printf("  %6s  %7s  %6s  %9s  %9s  %9s", "bs", "R/W mix", "read%", "IOPS", "lat avg",
	       "lat max");
	for (k = 0; k < c->g.npct; k++) {
		snprintf(cell, sizeof(cell), "p%g", c->g.pct[k]);
		printf("  %9s", cell);
	}
	printf("\n");
	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i), *pc = jget(p, "percentiles");

		snprintf(mix, sizeof(mix), "%d/%d", (int)jnum(p, "mix", 0),
			 100 - (int)jnum(p, "mix", 0));
		snprintf(cell, sizeof(cell), "%.1f", jnum(p, "read_pct", 0));
		printf("  %6d  %7s  %6s  %9.0f", (int)jnum(p, "bs", 0), mix,
		       jget(p, "read_pct") ? cell : "-", jnum(p, "iops", 0));
		lat_cell(cell, sizeof(cell), jget(p, "lat_mean_ns"));
		printf("  %9s", cell);
		lat_cell(cell, sizeof(cell), jget(p, "lat_max_ns"));
		printf("  %9s", cell);
		for (k = 0; k < c->g.npct; k++) {
			char key[32];

			snprintf(key, sizeof(key), "%f", c->g.pct[k]);
			lat_cell(cell, sizeof(cell), jget(pc, key));
			printf("  %9s", cell);
		}
		printf("\n");
	}
	printf("completion latency of reads and writes together; the percentiles of "
	       "their merged histogram\n");
	printf("results: %s/%s, %s/run.json\n", c->m.dir, GRID_JSON, c->m.dir);
}

/* ---- the command ---- */

static const struct ssl_step_method grid_ops = {
	.json = GRID_JSON, .steps = grid_steps, .argv = grid_argv, .check = grid_guard,
	.doc = new_doc, .fill = fill_cells, .table = print_table,
};

static int grid_main(void *ctx)
{
	struct grid_ctx *c = ctx;
	json_object *doc;
	int r;

	r = ssl_method_run_steps(&c->m, &grid_ops, c, &doc);
	c->doc = doc;
	return r;
}

int cmd_latency_grid(int argc, const char **argv)
{
	static const unsigned int s3700_bs[] = { 512, 4096, 8192 };
	static const unsigned int s3700_mix[] = { 100, 65, 0 };
	static const double pct[] = { 99, 99.9, 99.99 };
	struct grid_ctx *c = calloc(1, sizeof(*c));
	int r;

	if (!c) {
		ssl_err("latency-grid: out of memory");
		return GRID_EXIT_FAILED;
	}
	c->m.cmd = "latency-grid";
	c->m.eta = "auto";
	c->m.ramp_ms = 5000;
	c->m.runtime_ms = 60000;
	memcpy(c->g.bs, s3700_bs, sizeof(s3700_bs));
	c->g.nbs = ARRAY_SIZE(s3700_bs);
	memcpy(c->g.mix, s3700_mix, sizeof(s3700_mix));
	c->g.nmix = ARRAY_SIZE(s3700_mix);
	memcpy(c->g.pct, pct, sizeof(pct));
	c->g.npct = ARRAY_SIZE(pct);
	r = ssl_method_main(&c->m, argc, argv, grid_parse, grid_main, c);
	ssl_method_free(&c->m);
	if (c->doc)
		json_object_put(c->doc);
	free(c);
	return r;
}
