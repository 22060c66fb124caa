/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the methodology commands sweep, curve, scale and latency-grid
 * share beyond runner.h's struct ssl_method: the files of their output
 * directory, their result document's saves and its end, the trial run
 * that refuses before anything runs, the merged latency bins of fio's
 * json+, and the lines of usage each of them prints.
 */
#ifndef SSDLOAD_METHOD_H
#define SSDLOAD_METHOD_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "methods/runner.h"

/* @m's output directory/@rel into @buf; -1 after "@cmd: ...: path too long" */
int ssl_method_path(const struct ssl_method *m, char *buf, size_t len, const char *rel);

/* @doc into @m's output directory as @json ("sweep.json"); 0 or -1 */
int ssl_method_save(const struct ssl_method *m, json_object *doc, const char *json);

/* The document's end: its @state ("done", ...) and finish time, then saved */
int ssl_method_finish(const struct ssl_method *m, json_object *doc, const char *json,
		      const char *state);

/*
 * The command's run, checked by `ssdload run` before anything runs (its
 * output thrown away; @a is freed): 0, or its exit status after "@cmd:
 * ssdload run refused the @cmd's job (above); nothing ran".
 */
int ssl_method_trial(const struct ssl_method *m, struct ssl_argv *a);

/*
 * The command's exit status after its runs (@st: the worst run's): 128+N
 * after signal N, a run's 128+N, @failed for any other failure, else 0.
 */
int ssl_method_status(int st, int failed);

/*
 * fio's json+ "bins" (ns as text -> count) of latency object @clat added
 * into @bins, to merge directions or runs
 */
void ssl_bins_merge(json_object *bins, json_object *clat);

/* The @pct percentile of merged @bins (the value of its bucket), or NULL */
json_object *ssl_bins_pct(json_object *bins, double pct);

struct ssl_dev;

/*
 * A method run as the steps of one `ssdload run` (sweep, latency-grid):
 * its hooks, each given the command's @ctx.
 */
struct ssl_step_method {
	const char *json;		/* the result document: "sweep.json" */
	/* the lines of DIR/steps.txt, one a step */
	void (*steps)(const void *ctx, FILE *f);
	/* the run's options after ssl_method_argv()'s, before --steps */
	void (*argv)(const void *ctx, struct ssl_argv *a);
	/* after the run's trial, before anything is written: 0, or -1 refused */
	int (*check)(void *ctx, const struct ssl_dev *d);
	/* a new result document of device @d */
	json_object *(*doc)(void *ctx, const struct ssl_dev *d);
	/* the results of the run's job into @doc */
	void (*fill)(void *ctx, json_object *doc, json_object *job);
	/* the table printed at the end */
	void (*table)(const void *ctx);
	/*
	 * optional, before the output directory is made: 0 go on, > 0 done
	 * (a dry run said what it would do), < 0 refused
	 */
	int (*guard)(void *ctx);
	/*
	 * optional, once @doc is saved and before the run: 0, or the exit
	 * status of a preconditioning that failed (it said why; no run)
	 */
	int (*precondition)(void *ctx, json_object *doc);
};

/*
 * Run @ops's method: its guard, the output directory and its steps.txt,
 * the run's trial, the device probed, the document saved, its
 * preconditioning, the run into run.json,
 * its results, the document finished ("done", "interrupted" or "failed")
 * and the output; *@doc holds the document (the caller puts it).  The
 * exit status: 2 refused (nothing ran), 1 failed, 128+N after signal N,
 * else 0.
 */
int ssl_method_run_steps(struct ssl_method *m, const struct ssl_step_method *ops,
			 void *ctx, json_object **doc);

/* usage lines: the measured time of each point, defaults @ramp and @runtime */
#define SSL_METHOD_USAGE_TIMES(ramp, runtime) \
	"  --ramp_time=TIME      per point, excluded (default " ramp "; bare number = s)", \
	"  --runtime=TIME        per point, measured (default " runtime ")"

/* usage lines: where the results of command @cmd go, and its progress line */
#define SSL_METHOD_USAGE_OUTPUT(cmd) \
	"  --output-dir=DIR      where results go (default " cmd "-YYYYmmdd-HHMMSS)", \
	"  --output-format=FMT   normal (default; a table) or json (" cmd ".json)", \
	"  --no-report           do not render report.html (ssdload report DIR does)", \
	"  --eta=WHEN            progress line: auto, always, never"

#endif /* SSDLOAD_METHOD_H */
