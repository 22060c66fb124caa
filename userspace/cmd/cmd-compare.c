// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload compare RUN1 RUN2 ...: runs of different drives or kernels side
 * by side.
 *
 * Each RUN is the directory of a sweep, a curve or a pts test (its
 * sweep.json, curve.json or pts.json), such a file, or the JSON of an
 * `ssdload run --output-format=json` (fio's schema).  All are of one kind
 * (pts: of one test).  The headline figures of each run go to stdout as
 * the columns of one table, and DIR/compare.json holds every input
 * document whole, with its label and source, so that the report (tables,
 * the runs' curves overlaid) is rendered from it alone by ssdload-report.py.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "core/options.h"
#include "fio/report.h"
#include "methods/render.h"
#include "methods/runner.h"
#include "core/util.h"

#define CMP_FORMAT		"ssdload-compare"
#define CMP_FORMAT_VERSION	1
#define CMP_JSON		"compare.json"
#define CMP_MIN_RUNS		2
#define CMP_MAX_RUNS		16
#define CMP_LABEL_MAX		64	/* a label's bytes, with its NUL */
#define CMP_CELL		24	/* a table cell's bytes, with its NUL */

#define CMP_EXIT_FAILED		1	/* a file could not be written */
#define CMP_EXIT_USAGE		2	/* bad usage or input: nothing written */

static const char *const compare_usage[] = {
	"usage: ssdload compare [--output-dir=DIR] [--label=L1,L2,...] [--percentiles=LIST]",
	"                       [--no-report] RUN1 RUN2 ...",
	"",
	"Put 2 to 16 runs of different drives or kernels side by side: a table of",
	"each run's headline figures on stdout, DIR/compare.json (every input whole),",
	"and DIR/report.html with the runs' curves overlaid in one plot.",
	"",
	"A RUN is the directory of an ssdload sweep, curve or pts run (its",
	"sweep.json, curve.json or pts.json), one of those files, or the JSON of",
	"ssdload run --output-format=json.  All RUNs are of one kind: sweeps,",
	"curves, plain runs, or pts runs of one test.",
	"",
	"  --output-dir=DIR      where the results go (default compare-YYYYmmdd-HHMMSS;",
	"                        refused if it exists and is not empty)",
	"  --label=L1,L2,...     the runs' names, one per RUN in order (default: the",
	"                        device model, else the RUN's name; made unique)",
	"  --percentiles=LIST    plain runs: the completion latency percentiles shown,",
	"                        as fio's percentile_list (default 99:99.9; a",
	"                        percentile the run did not record shows as -)",
	"  --no-report           do not render report.html (ssdload report DIR does)",
	"",
	"Exit status: 0 done, 1 a file could not be written, 2 bad usage or input",
	"(nothing written).",
	NULL,
};

enum { O_OUTPUT_DIR, O_LABEL, O_NO_REPORT, O_PERCENTILES };

#define CMP_MAX_PCT		16	/* --percentiles */

static const struct ssl_opt compare_opts[] = {
	{ "output-dir",	SSL_ARG_REQUIRED, O_OUTPUT_DIR },
	{ "label",	SSL_ARG_REQUIRED, O_LABEL },
	{ "no-report",	SSL_ARG_FLAG, O_NO_REPORT },
	{ "percentiles", SSL_ARG_REQUIRED, O_PERCENTILES },
	{ NULL, 0, 0 },
};

enum cmp_kind { K_RUN, K_SWEEP, K_CURVE, K_PTS };

static const char *const kind_name[] = { "run", "sweep", "curve", "pts" };

/* a directory's result files, in the renderer's order of precedence */
static const struct {
	const char *file;
	const char *format;
	enum cmp_kind kind;
} result_files[] = {
	{ "pts.json", "ssdload-pts", K_PTS },
	{ "sweep.json", "ssdload-sweep", K_SWEEP },
	{ "curve.json", "ssdload-curve", K_CURVE },
};

struct cmp_run {
	const char *arg;		/* as given */
	char path[PATH_MAX];		/* the JSON file read */
	char name[NAME_MAX + 1];	/* the RUN's name: directory or file */
	char label[CMP_LABEL_MAX];
	enum cmp_kind kind;
	const char *test;		/* pts: the test */
	json_object *doc;
};

struct cmp_ctx {
	char dir[PATH_MAX];
	bool no_report, made_dir;
	const char *labels;		/* --label, or NULL */
	double pct[CMP_MAX_PCT];	/* --percentiles of plain runs */
	int npct;
	unsigned int n;
	struct cmp_run run[CMP_MAX_RUNS];
	char *command;
};

/* ---- the inputs ---- */

/* The last component of @path (trailing slashes dropped) into @buf. */
static void base_name(char *buf, size_t len, const char *path)
{
	size_t n = strlen(path);
	const char *s;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (s = path + n; s > path && s[-1] != '/'; s--)
		;
	snprintf(buf, len, "%.*s", (int)(n - (size_t)(s - path)), s);
}

/* The file of RUN @r: itself, or its directory's result file. */
static int find_file(struct cmp_run *r)
{
	struct stat st;
	size_t i;

	if (stat(r->arg, &st)) {
		ssl_err("compare: %s: %s", r->arg, strerror(errno));
		return -1;
	}
	base_name(r->name, sizeof(r->name), r->arg);
	if (!S_ISDIR(st.st_mode)) {
		char *dot = strrchr(r->name, '.');

		if (dot && dot != r->name && !strcmp(dot, ".json"))
			*dot = '\0';
		snprintf(r->path, sizeof(r->path), "%s", r->arg);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(result_files); i++) {
		if (ssl_dir_path("compare", r->arg, result_files[i].file, r->path,
				 sizeof(r->path)))
			return -1;
		if (!access(r->path, F_OK))
			return 0;
	}
	if (!ssl_dir_path("compare", r->arg, CMP_JSON, r->path, sizeof(r->path)) &&
	    !access(r->path, F_OK)) {
		ssl_err("compare: %s holds a comparison (%s), not a run", r->arg, CMP_JSON);
		return -1;
	}
	ssl_err("compare: %s: no pts.json, sweep.json nor curve.json in this directory (a "
		"plain run is given as its JSON file)", r->arg);
	return -1;
}

static bool is_type(json_object *o, json_type t)
{
	return o && json_object_is_type(o, t);
}

/* The keys a sweep, a curve or a pts document needs: -1 after a message. */
static int check_keys(const struct cmp_run *r)
{
	static const struct {
		const char *key;
		json_type type;
	} need[] = {
		{ "state", json_type_string }, { "device", json_type_object },
		{ "settings", json_type_object }, { "points", json_type_array },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(need); i++) {
		if (r->kind == K_PTS && need[i].type == json_type_array)
			continue;	/* pts: results, rounds, series, by test */
		if (!is_type(jget(r->doc, need[i].key), need[i].type)) {
			ssl_err("compare: %s: no %s \"%s\" (not a complete %s result)", r->path,
				need[i].type == json_type_array ? "array" :
				need[i].type == json_type_object ? "object" : "string",
				need[i].key, kind_name[r->kind]);
			return -1;
		}
	}
	if (r->kind == K_PTS && !*jstring(r->doc, "test")) {
		ssl_err("compare: %s: no \"test\" (not a complete pts result)", r->path);
		return -1;
	}
	return 0;
}

/* fio's schema: a non-empty "jobs" array of objects with a direction */
static int check_run(const struct cmp_run *r)
{
	json_object *jobs = jget(r->doc, "jobs");
	size_t i;

	if (!is_type(jobs, json_type_array) || !json_object_array_length(jobs)) {
		ssl_err("compare: %s: \"jobs\" is not a non-empty array (not the JSON of "
			"ssdload run)", r->path);
		return -1;
	}
	for (i = 0; i < json_object_array_length(jobs); i++) {
		json_object *job = json_object_array_get_idx(jobs, i);

		if (!is_type(job, json_type_object) ||
		    !(is_type(jget(job, "read"), json_type_object) ||
		      is_type(jget(job, "write"), json_type_object))) {
			ssl_err("compare: %s: jobs[%zu] has no \"read\" nor \"write\" object "
				"(not the JSON of ssdload run)", r->path, i);
			return -1;
		}
	}
	return 0;
}

/* Read RUN @r: its document and its kind; -1 after a message. */
static int read_run(struct cmp_run *r)
{
	enum json_tokener_error jerr;
	json_object *fmt, *ver;
	char *buf;
	size_t len, i;
	int e;

	if (find_file(r))
		return -1;
	e = ssl_read_regular(r->path, SSL_JSON_MAX_BYTES, &buf, &len);
	if (e) {
		ssl_err("compare: %s: %s", r->path, ssl_strerror(e));
		return -1;
	}
	r->doc = json_tokener_parse_verbose(buf, &jerr);
	free(buf);
	if (!r->doc || !is_type(r->doc, json_type_object)) {
		ssl_err("compare: %s: not a JSON object (%s)", r->path,
			r->doc ? "another JSON value" : json_tokener_error_desc(jerr));
		return -1;
	}
	fmt = jget(r->doc, "format");
	if (!fmt) {
		if (!jget(r->doc, "jobs")) {
			ssl_err("compare: %s: neither \"format\" nor \"jobs\": not a result of "
				"ssdload", r->path);
			return -1;
		}
		r->kind = K_RUN;
		return check_run(r);
	}
	for (i = 0; i < ARRAY_SIZE(result_files); i++)
		if (is_type(fmt, json_type_string) &&
		    !strcmp(json_object_get_string(fmt), result_files[i].format))
			break;
	if (i == ARRAY_SIZE(result_files)) {
		ssl_err("compare: %s: \"format\" %s is not one of ssdload-sweep, ssdload-curve, "
			"ssdload-pts%s", r->path, json_object_to_json_string(fmt),
			is_type(fmt, json_type_string) &&
			!strcmp(json_object_get_string(fmt), CMP_FORMAT) ?
			" (a comparison is not compared again)" : "");
		return -1;
	}
	r->kind = result_files[i].kind;
	ver = jget(r->doc, "format_version");
	if (!is_type(ver, json_type_int) || json_object_get_int(ver) != 1) {
		ssl_err("compare: %s: %s format_version %s: this ssdload reads 1", r->path,
			result_files[i].format, ver ? json_object_to_json_string(ver) : "missing");
		return -1;
	}
	r->test = jstring(r->doc, "test");
	return check_keys(r);
}

/* "a sweep", "a pts iops test", "a plain run" */
static void kind_words(char *buf, size_t len, const struct cmp_run *r)
{
	if (r->kind == K_PTS)
		snprintf(buf, len, "a pts %s test", r->test);
	else if (r->kind == K_RUN)
		snprintf(buf, len, "a plain run");
	else
		snprintf(buf, len, "a %s", kind_name[r->kind]);
}

static int same_kind(const struct cmp_ctx *c)
{
	const struct cmp_run *a = &c->run[0];
	char wa[64], wb[64];
	unsigned int i;

	for (i = 1; i < c->n; i++) {
		const struct cmp_run *b = &c->run[i];

		if (b->kind == a->kind && (a->kind != K_PTS || !strcmp(a->test, b->test)))
			continue;
		kind_words(wa, sizeof(wa), a);
		kind_words(wb, sizeof(wb), b);
		ssl_err("compare: %s is %s but %s is %s: compare runs of one kind", a->path, wa,
			b->path, wb);
		return -1;
	}
	return 0;
}

/* ---- labels ---- */

static int given_labels(struct cmp_ctx *c)
{
	const char *s = c->labels, *e;
	unsigned int k = 0, i;

	for (;; s = e + 1) {
		size_t len;

		e = strchr(s, ',');
		len = e ? (size_t)(e - s) : strlen(s);
		if (!len || len >= CMP_LABEL_MAX) {
			ssl_err("compare: --label=%s: each label has 1 to %d characters", c->labels,
				CMP_LABEL_MAX - 1);
			return -1;
		}
		if (k == c->n) {
			ssl_err("compare: --label=%s: more labels than the %u runs", c->labels,
				c->n);
			return -1;
		}
		snprintf(c->run[k].label, CMP_LABEL_MAX, "%.*s", (int)len, s);
		for (i = 0; i < k; i++)
			if (!strcmp(c->run[i].label, c->run[k].label)) {
				ssl_err("compare: --label=%s: \"%s\" is given twice", c->labels,
					c->run[k].label);
				return -1;
			}
		k++;
		if (!e)
			break;
	}
	if (k != c->n) {
		ssl_err("compare: --label=%s: %u labels for %u runs", c->labels, k, c->n);
		return -1;
	}
	return 0;
}

/* the device a run says it ran on: its model, a plain run's filename */
static const char *run_device(const struct cmp_run *r)
{
	json_object *job;

	if (r->kind != K_RUN)
		return jstring(jget(r->doc, "device"), "model");
	job = run_job0(r->doc);
	return jstring(jget(job, "job options"), "filename");
}

static unsigned int label_count(const struct cmp_ctx *c, const char *label)
{
	unsigned int i, k = 0;

	for (i = 0; i < c->n; i++)
		k += !strcmp(c->run[i].label, label);
	return k;
}

/*
 * The device when every run names a different one; "device (name)" where
 * several share one; then " #N" (the run's place) on what is still the same.
 */
static void default_labels(struct cmp_ctx *c)
{
	bool shared[CMP_MAX_RUNS] = { false };
	char tmp[CMP_LABEL_MAX];
	unsigned int i, j;

	for (i = 0; i < c->n; i++)
		for (j = 0; j < c->n; j++)
			if (i != j && *run_device(&c->run[i]) &&
			    !strcmp(run_device(&c->run[i]), run_device(&c->run[j])))
				shared[i] = true;
	for (i = 0; i < c->n; i++) {
		struct cmp_run *r = &c->run[i];
		const char *dev = run_device(r);

		if (shared[i])
			snprintf(tmp, sizeof(tmp), "%.*s (%.*s)", CMP_LABEL_MAX / 2, dev,
				 CMP_LABEL_MAX / 2 - 4, r->name);
		else
			snprintf(tmp, sizeof(tmp), "%s", *dev ? dev : r->name);
		memcpy(r->label, tmp, sizeof(r->label));
	}
	for (i = 0; i < c->n; i++)
		shared[i] = label_count(c, c->run[i].label) > 1;
	for (i = 0; i < c->n; i++) {
		if (!shared[i])
			continue;
		/* room for " #" and 10 digits */
		snprintf(tmp, sizeof(tmp), "%.*s #%u", CMP_LABEL_MAX - 13, c->run[i].label,
			 i + 1);
		snprintf(c->run[i].label, CMP_LABEL_MAX, "%s", tmp);
	}
}

/* ---- the table ---- */

struct cmp_row {
	char name[40];
	char cell[CMP_MAX_RUNS][CMP_CELL];
};

struct cmp_table {
	struct cmp_row *rows;
	unsigned int n, cap;
	bool oom;
};

/* A new row named @fmt..., its cells "-"; NULL when out of memory. */
static struct cmp_row *add_row(struct cmp_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct cmp_row *add_row(struct cmp_table *t, const char *fmt, ...)
{
	struct cmp_row *row;
	unsigned int i;
	va_list ap;

	if (t->n == t->cap) {
		unsigned int cap = t->cap ? 2 * t->cap : 32;
		struct cmp_row *rows = realloc(t->rows, cap * sizeof(*rows));

		if (!rows) {
			t->oom = true;
			return NULL;
		}
		t->rows = rows;
		t->cap = cap;
	}
	row = &t->rows[t->n++];
	va_start(ap, fmt);
	vsnprintf(row->name, sizeof(row->name), fmt, ap);
	va_end(ap);
	for (i = 0; i < CMP_MAX_RUNS; i++)
		snprintf(row->cell[i], CMP_CELL, "-");
	return row;
}

/* the row named like @fmt..., added if new */
static struct cmp_row *row_of(struct cmp_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct cmp_row *row_of(struct cmp_table *t, const char *fmt, ...)
{
	char name[sizeof(t->rows->name)];
	unsigned int i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	return add_row(t, "%s", name);
}

static void set_num(struct cmp_row *row, unsigned int k, const char *fmt, double v)
{
	if (row)
		snprintf(row->cell[k], CMP_CELL, fmt, v);
}

/* a latency in ns, if known (above 0) */
static void set_ns(struct cmp_row *row, unsigned int k, double ns)
{
	if (row && ns > 0)
		ssl_lat_str(row->cell[k], CMP_CELL, ns);
}

static void set_lat(struct cmp_row *row, unsigned int k, json_object *o, const char *key)
{
	set_ns(row, k, jnum(o, key, 0));
}

static void set_str(struct cmp_row *row, unsigned int k, const char *s)
{
	if (row && s && *s)
		snprintf(row->cell[k], CMP_CELL, "%s", s);
}

/* a plain run: each direction summed over the job entries */
static const char *const run_dirs[] = { "read", "write", "trim" };
/* the job options shown, where a run has them */
static const char *const run_opts[] = { "filename", "rw", "bs", "iodepth", "numjobs" };

/* the largest of @v and @key of @o */
static double max_of(double v, json_object *o, const char *key)
{
	return jnum(o, key, 0) > v ? jnum(o, key, 0) : v;
}

static void run_rows(struct cmp_table *t, const struct cmp_ctx *c, unsigned int k)
{
	json_object *doc = c->run[k].doc, *jobs = jget(doc, "jobs");
	json_object *opts = jget(run_job0(doc), "job options");
	size_t d, j;
	char key[32];
	int i;

	for (d = 0; d < ARRAY_SIZE(run_opts); d++)
		if (*jstring(opts, run_opts[d]))
			set_str(row_of(t, "%s", run_opts[d]), k, jstring(opts, run_opts[d]));
	for (d = 0; d < ARRAY_SIZE(run_dirs); d++) {
		double iops = 0, bw = 0, ios = 0, sum = 0, max = 0, pv[CMP_MAX_PCT] = { 0 };

		for (j = 0; j < json_object_array_length(jobs); j++) {
			json_object *x = jget(json_object_array_get_idx(jobs, j), run_dirs[d]);
			json_object *cl = jget(x, "clat_ns"), *pc = jget(cl, "percentile");
			double n = jnum(x, "total_ios", 0);

			iops += jnum(x, "iops", 0);
			bw += jnum(x, "bw_bytes", 0);
			ios += n;
			sum += n * jnum(cl, "mean", 0);
			max = max_of(max, cl, "max");
			/* several entries (clones): the highest that has them */
			for (i = 0; i < c->npct; i++) {
				snprintf(key, sizeof(key), "%f", c->pct[i]);
				pv[i] = max_of(pv[i], pc, key);
			}
		}
		if (!(ios > 0))
			continue;
		set_num(row_of(t, "%s IOPS", run_dirs[d]), k, "%.0f", iops);
		set_num(row_of(t, "%s MiB/s", run_dirs[d]), k, "%.1f", bw / 1048576.0);
		set_ns(row_of(t, "%s clat mean", run_dirs[d]), k, sum / ios);
		set_ns(row_of(t, "%s clat max", run_dirs[d]), k, max);
		for (i = 0; i < c->npct; i++)
			set_ns(row_of(t, "%s clat p%g", run_dirs[d], c->pct[i]), k, pv[i]);
	}
}

static void curve_point_rows(struct cmp_table *t, json_object *p, unsigned int k)
{
	const char *label = jstring(p, "label");

	set_num(row_of(t, "%s IOPS", label), k, "%.0f", jnum(p, "iops", 0));
	set_lat(row_of(t, "%s resp mean", label), k, p, "lat_mean_ns");
	if (jget(p, "intended"))
		set_lat(row_of(t, "%s int. mean", label), k, jget(p, "intended"), "lat_mean_ns");
}

static void curve_rows(struct cmp_table *t, json_object *doc, unsigned int k)
{
	json_object *pts = jget(doc, "points");
	size_t i;

	set_str(row_of(t, "state"), k, jstring(doc, "state"));
	set_str(row_of(t, "100%% (max_iops)"), k, NULL);
	if (jget(doc, "max_iops"))
		set_num(row_of(t, "100%% (max_iops)"), k, "%.0f", jnum(doc, "max_iops", 0));
	if (is_type(jget(doc, "max"), json_type_object))
		curve_point_rows(t, jget(doc, "max"), k);
	for (i = 0; i < json_object_array_length(pts); i++)
		curve_point_rows(t, json_object_array_get_idx(pts, i), k);
}

/* "", or "2w " for a sweep's line of 2 workers (null: the automatic rule) */
static void line_prefix(char *buf, size_t len, json_object *o)
{
	if (is_type(jget(o, "workers"), json_type_int))
		snprintf(buf, len, "%dw ", (int)jnum(o, "workers", 0));
	else
		buf[0] = '\0';
}

static void sweep_rows(struct cmp_table *t, json_object *doc, unsigned int k)
{
	json_object *knees = jget(doc, "knees"), *pts = jget(doc, "points");
	bool auto_rule = !jget(jget(doc, "settings"), "workers_list");
	char w[16];
	size_t i;

	set_str(row_of(t, "state"), k, jstring(doc, "state"));
	for (i = 0; i < json_object_array_length(knees); i++) {
		json_object *kn = json_object_array_get_idx(knees, i);

		line_prefix(w, sizeof(w), kn);
		set_num(row_of(t, "%smax IOPS", w), k, "%.0f", jnum(kn, "max_iops", 0));
		set_num(row_of(t, "%sknee QD", w), k, "%.0f", jnum(kn, "knee_qd", 0));
	}
	for (i = 0; i < json_object_array_length(pts); i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		int qd = (int)jnum(p, "qd", 0);

		if (auto_rule)
			w[0] = '\0';
		else
			line_prefix(w, sizeof(w), p);
		set_num(row_of(t, "%sQD %d IOPS", w, qd), k, "%.0f", jnum(p, "iops", 0));
		set_lat(row_of(t, "%sQD %d lat mean", w, qd), k, p, "lat_mean_ns");
		set_lat(row_of(t, "%sQD %d lat p99", w, qd), k, p, "lat_p99_ns");
	}
}

/* "4KiB", "1MiB", "512B" */
static void bs_words(char *buf, size_t len, double bs)
{
	if (bs >= 1048576 && !fmod(bs, 1048576))
		snprintf(buf, len, "%.0fMiB", bs / 1048576);
	else if (bs >= 1024 && !fmod(bs, 1024))
		snprintf(buf, len, "%.0fKiB", bs / 1024);
	else
		snprintf(buf, len, "%.0fB", bs);
}

static void pts_rows(struct cmp_table *t, json_object *doc, unsigned int k)
{
	const char *test = jstring(doc, "test");
	json_object *ss = jget(doc, "steady_state"), *res = jget(doc, "results");
	json_object *pts = jget(res, "points"), *ops = jget(doc, "operating_points");
	char bs[16];
	size_t i;

	set_str(row_of(t, "state"), k, jstring(doc, "state"));
	set_str(row_of(t, "conformant"), k, json_object_get_boolean(jget(doc, "conformant")) ?
		"yes" : "no");
	if (!ss)
		ss = jget(res, "steady_state");
	set_str(row_of(t, "steady state"), k, !ss ? NULL :
		json_object_get_boolean(jget(ss, "reached")) ? "reached" : "not reached");
	if (!strcmp(test, "wsat"))
		set_num(row_of(t, "steady IOPS"), k, "%.0f", jnum(res, "steady_iops", 0));
	for (i = 0; is_type(ops, json_type_array) && i < json_object_array_length(ops); i++) {
		json_object *o = json_object_array_get_idx(ops, i), *m = jget(o, "measure");

		set_num(row_of(t, "%s IOPS", jstring(o, "label")), k, "%.0f", jnum(m, "iops", 0));
		set_lat(row_of(t, "%s lat mean", jstring(o, "label")), k, m, "lat_mean_ns");
	}
	if (strcmp(test, "iops") && strcmp(test, "throughput") && strcmp(test, "latency"))
		return;
	for (i = 0; is_type(pts, json_type_array) && i < json_object_array_length(pts); i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		int mix = (int)jnum(p, "rwmixread", 0);

		bs_words(bs, sizeof(bs), jnum(p, "bs", 0));
		if (!strcmp(test, "iops"))
			set_num(row_of(t, "%s %d/%d IOPS", bs, mix, 100 - mix), k, "%.0f",
				jnum(p, "iops", 0));
		else if (!strcmp(test, "throughput"))
			set_num(row_of(t, "%s %d/%d MB/s", bs, mix, 100 - mix), k, "%.1f",
				jnum(p, "bw_bytes", 0) / 1e6);
		else
			set_lat(row_of(t, "%s %d/%d lat mean", bs, mix, 100 - mix), k, p,
				"lat_mean_ns");
	}
}

static void print_table(const struct cmp_ctx *c, const struct cmp_table *t)
{
	unsigned int w[CMP_MAX_RUNS], i, k, w0 = 6;

	for (i = 0; i < t->n; i++)
		if (strlen(t->rows[i].name) > w0)
			w0 = strlen(t->rows[i].name);
	for (k = 0; k < c->n; k++) {
		w[k] = strlen(c->run[k].label) > 10 ? strlen(c->run[k].label) : 10;
		for (i = 0; i < t->n; i++)
			if (strlen(t->rows[i].cell[k]) > w[k])
				w[k] = strlen(t->rows[i].cell[k]);
	}
	printf("  %-*s", (int)w0, "");
	for (k = 0; k < c->n; k++)
		printf("  %*s", (int)w[k], c->run[k].label);
	printf("\n");
	for (i = 0; i < t->n; i++) {
		printf("  %-*s", (int)w0, t->rows[i].name);
		for (k = 0; k < c->n; k++)
			printf("  %*s", (int)w[k], t->rows[i].cell[k]);
		printf("\n");
	}
}

static int compare_table(const struct cmp_ctx *c)
{
	static void (*const rows[])(struct cmp_table *, json_object *, unsigned int) = {
		[K_SWEEP] = sweep_rows, [K_CURVE] = curve_rows, [K_PTS] = pts_rows,
	};
	const struct cmp_run *r0 = &c->run[0];
	struct cmp_table t = { 0 };
	unsigned int k;

	for (k = 0; k < c->n; k++)
		if (r0->kind == K_RUN)
			run_rows(&t, c, k);
		else
			rows[r0->kind](&t, c->run[k].doc, k);
	if (t.oom) {
		free(t.rows);
		ssl_err("compare: out of memory");
		return -1;
	}
	if (r0->kind == K_PTS)
		printf("ssdload compare: %u pts %s tests\n", c->n, r0->test);
	else
		printf("ssdload compare: %u %ss\n", c->n, r0->kind == K_RUN ? "plain run" :
		       kind_name[r0->kind]);
	print_table(c, &t);
	for (k = 0; k < c->n; k++)
		printf("%s: %s\n", c->run[k].label, c->run[k].path);
	if (r0->kind == K_CURVE)
		printf("resp: submit to completion; int.: from the intended send time\n");
	if (r0->kind == K_RUN)
		printf("clat: completion latency; with several job entries the IOPS and MiB/s "
		       "are summed, the mean weighted by I/Os, the maximum and the percentiles "
		       "the highest\n");
	printf("results: %s/%s\n", c->dir, CMP_JSON);
	free(t.rows);
	return 0;
}

/* ---- the command ---- */

static json_object *compare_doc(const struct cmp_ctx *c)
{
	json_object *doc = json_object_new_object(), *runs = json_object_new_array();
	const struct cmp_run *r0 = &c->run[0];
	char real[PATH_MAX];
	unsigned int k;

	jset(doc, "format", json_object_new_string(CMP_FORMAT));
	jset(doc, "format_version", json_object_new_int(CMP_FORMAT_VERSION));
	jset(doc, "ssdload_version", json_object_new_string(SSDLOAD_CLI_VERSION));
	jset(doc, "command", json_object_new_string(c->command));
	jset(doc, "created", jnow());
	jset(doc, "kind", json_object_new_string(kind_name[r0->kind]));
	jset(doc, "test", r0->kind == K_PTS ? json_object_new_string(r0->test) : NULL);
	if (r0->kind == K_RUN) {
		json_object *p = json_object_new_array();
		int i;

		for (i = 0; i < c->npct; i++)
			json_object_array_add(p, json_object_new_double(c->pct[i]));
		jset(doc, "percentiles", p);
	}
	for (k = 0; k < c->n; k++) {
		const struct cmp_run *r = &c->run[k];
		json_object *o = json_object_new_object();

		jset(o, "label", json_object_new_string(r->label));
		jset(o, "source", json_object_new_string(realpath(r->path, real) ? real
										 : r->path));
		jset(o, "document", json_object_get(r->doc));
		json_object_array_add(runs, o);
	}
	jset(doc, "runs", runs);
	return doc;
}

/* The output directory: new, or empty; -1 after a message. */
static int make_dir(struct cmp_ctx *c)
{
	struct dirent *e;
	bool empty = true;
	DIR *d;

	if (ssl_make_outdir("compare", c->dir, sizeof(c->dir), CMP_JSON, &c->made_dir))
		return -1;
	if (c->made_dir)
		return 0;
	d = opendir(c->dir);
	if (!d) {
		ssl_err("compare: %s: %s", c->dir, strerror(errno));
		return -1;
	}
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	if (!empty) {
		ssl_err("compare: %s exists and is not empty: give another --output-dir", c->dir);
		return -1;
	}
	return 0;
}

static int compare_parse(struct cmp_ctx *c, int argc, const char **argv)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, dashdash = 0, r;

	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, compare_opts, &opt, &val, &dashdash);
		if (r < 0)
			return -1;
		if (r == 2) {
			ssl_usage(stdout, compare_usage);
			return 1;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			if (c->n == CMP_MAX_RUNS) {
				ssl_err("compare: at most %d runs", CMP_MAX_RUNS);
				return -1;
			}
			c->run[c->n++].arg = argv[i - 1];
			continue;
		}
		switch (opt->id) {
		case O_OUTPUT_DIR:
			if (!*val || snprintf(c->dir, sizeof(c->dir), "%s", val) >=
			    (int)sizeof(c->dir)) {
				ssl_err("compare: --output-dir=%s: empty or too long", val);
				return -1;
			}
			break;
		case O_LABEL:
			c->labels = val;
			break;
		case O_NO_REPORT:
			c->no_report = !val || strcmp(val, "0");
			break;
		case O_PERCENTILES:
			if (ssl_parse_percentiles(val, c->pct, CMP_MAX_PCT, &c->npct) ||
			    !c->npct) {
				ssl_err("compare: --percentiles=%s: give 1 to %d percentiles above "
					"0, at most 100, as fio's percentile_list (99:99.9)", val,
					CMP_MAX_PCT);
				return -1;
			}
			break;
		}
	}
	if (c->n < CMP_MIN_RUNS) {
		ssl_err("compare: give %d to %d runs (RUN1 RUN2 ...), see ssdload compare --help",
			CMP_MIN_RUNS, CMP_MAX_RUNS);
		return -1;
	}
	return 0;
}

static int compare_main(struct cmp_ctx *c)
{
	char path[PATH_MAX];
	json_object *doc;
	unsigned int k;
	int r;

	for (k = 0; k < c->n; k++)
		if (read_run(&c->run[k]))
			return CMP_EXIT_USAGE;
	if (same_kind(c))
		return CMP_EXIT_USAGE;
	if (c->labels) {
		if (given_labels(c))
			return CMP_EXIT_USAGE;
	} else {
		default_labels(c);
	}
	if (make_dir(c))
		return CMP_EXIT_USAGE;
	doc = compare_doc(c);
	r = ssl_dir_path("compare", c->dir, CMP_JSON, path, sizeof(path)) ||
	    json_save(doc, path);
	json_object_put(doc);
	if (r) {
		if (c->made_dir)
			rmdir(c->dir);
		return CMP_EXIT_FAILED;
	}
	if (!c->no_report && ssl_render_report(c->dir, 1))
		ssl_err("compare: the report was not rendered (ssdload report %s)", c->dir);
	return compare_table(c) ? CMP_EXIT_FAILED : 0;
}

int cmd_compare(int argc, const char **argv)
{
	struct cmp_ctx *c = calloc(1, sizeof(*c));
	unsigned int k;
	int r;

	if (!c) {
		ssl_err("compare: out of memory");
		return CMP_EXIT_FAILED;
	}
	c->pct[0] = 99;			/* the default --percentiles */
	c->pct[1] = 99.9;
	c->npct = 2;
	r = compare_parse(c, argc, argv);
	if (r) {
		free(c);
		return r > 0 ? 0 : CMP_EXIT_USAGE;
	}
	c->command = ssl_join_args(argc, argv);
	if (!c->command) {
		ssl_err("compare: out of memory");
		free(c);
		return CMP_EXIT_FAILED;
	}
	r = compare_main(c);
	for (k = 0; k < c->n; k++)
		if (c->run[k].doc)
			json_object_put(c->run[k].doc);
	free(c->command);
	free(c);
	return r;
}
