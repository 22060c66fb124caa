/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the methodology commands sweep, curve and scale share beyond
 * runner.h's struct ssl_method: the files of their output directory,
 * their result document's saves and its end, the trial run that refuses
 * before anything runs, and the lines of usage each of them prints.
 */
#ifndef SSDLOAD_METHOD_H
#define SSDLOAD_METHOD_H

#include <stddef.h>

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
