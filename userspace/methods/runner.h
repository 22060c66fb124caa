/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Methodology commands (pts, sweep) run `ssdload run` as a child per
 * round or point and keep their results as JSON: the child's argv, its
 * spawn with the stdout into a file, the signal that stops both, and the
 * json-c helpers their documents share.
 */
#ifndef SSDLOAD_RUNNER_H
#define SSDLOAD_RUNNER_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "core/options.h"
#include "methods/pcmode.h"

#define SSL_MAX_ARGS	112	/* arguments of one `ssdload run` */

/* The first signal caught (0: none); it was passed on to the child. */
extern volatile sig_atomic_t ssl_run_sig;

void ssl_run_catch_signals(void);

/* The argv of one `ssdload run`; av_addf()'s strings are freed by av_free(). */
struct ssl_argv {
	const char *v[SSL_MAX_ARGS + 1];
	char *own[SSL_MAX_ARGS];
	int n, nown;
};

void av_add(struct ssl_argv *a, const char *s);
void av_addf(struct ssl_argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void av_free(struct ssl_argv *a);
int ssl_run_spawn(struct ssl_argv *a, const char *out_path);

#define SSL_GROUP_MAX_RUNS	64
/* in the environment of the runs ssl_run_group() starts: they do not say "armed" */
#define SSL_RUN_SET_ENV		"SSDLOAD_RUN_SET"
/* in the environment of a job file's runs: the file's runner printed their notes */
#define SSL_NOTED_ENV		"SSDLOAD_NOTED"
/*
 * Run @n `ssdload run`s together: each @a[i] (given --group=@group here)
 * with its stdout into @out[i]; once every job @jobs[i] is armed (within
 * @arm_timeout_ms), the group is started at one instant and the runs are
 * waited for.  @st[i]: each run's exit status (-1: not known).  0, or -1
 * after a message when a run gave up before the start, the start failed
 * or a signal came first (the runs are stopped and reaped).
 */
int ssl_run_group(struct ssl_argv *a, const char *const *out, const char *const *jobs,
		  unsigned int n, const char *group, uint64_t arm_timeout_ms, int *st);
/* CLOCK_REALTIME ms when ssl_run_group() last started its group (fio's job_start) */
extern uint64_t ssl_run_group_start_ms;

/* Options: messages start with "@cmd: --@name=@val: " */
int ssl_uint_opt(const char *cmd, const char *name, const char *val, unsigned int lo,
		 unsigned int hi, unsigned int *out);
/*
 * A list N,N,... of @lo (ssl_uint_list: 1) to @hi, each once, at most
 * @max_n of them (@out holds that many), sorted high to low (@order < 0),
 * low to high (> 0) or kept as given.  0, or -1 after a message.
 */
int ssl_uint_list(const char *cmd, const char *name, const char *val, unsigned int hi,
		  unsigned int max_n, int order, unsigned int *out, unsigned int *n);
int ssl_uint_list_from(const char *cmd, const char *name, const char *val, unsigned int lo,
		       unsigned int hi, unsigned int max_n, int order, unsigned int *out,
		       unsigned int *n);

/* --eta=auto|always|never, for the child runs' progress line */
int ssl_eta_opt(const char *cmd, const char *val);
/* @dir/@rel into @buf; -1 after "@cmd: ...: path too long" */
int ssl_dir_path(const char *cmd, const char *dir, const char *rel, char *buf, size_t len);

/* TIME options (bare number = s), from @lo ms to 7 days */
int ssl_time_opt(const char *cmd, const char *name, const char *val, uint64_t lo,
		 uint64_t *out);

/* The options a methodology command gives its runs as they are ("--name=val"). */
struct ssl_pass {
	const char *v[32];
	char *own[32];
	unsigned int n;
	bool have_bs, allow_write;
	const char *rw;			/* the last --rw/--readwrite, or NULL */
	const char *writes;		/* that --rw when it writes or trims */
	const char *rwmixread, *rwmixwrite;
	const char *profile, *section;	/* --profile=NAME, --section=NAME */
	char *prof[3];			/* rw, rwmixread, rwmixwrite of the profile */
	unsigned int prof_iodepth, prof_numjobs;	/* its iodepth/numjobs, or 0 */
};

int ssl_pass_add(const char *cmd, struct ssl_pass *p, const char *name, const char *val);
void ssl_pass_free(struct ssl_pass *p);

/*
 * What the methodology commands (sweep, curve, scale) share: the options
 * every one takes, those passed on to its runs, and the output directory
 * (its files and the result document: methods/method.h).
 */
enum {
	SSL_M_FILENAME = 1000, SSL_M_OUTPUT_DIR, SSL_M_OUTPUT_FORMAT, SSL_M_NO_REPORT,
	SSL_M_ETA, SSL_M_RAMP, SSL_M_RUNTIME, SSL_M_PASS, SSL_M_PRECOND, SSL_M_FORCE,
	SSL_M_DRY_RUN, SSL_M_PRECOND_SPAN,
};

#define SSL_METHOD_OPTS \
	{ "filename",		SSL_ARG_REQUIRED, SSL_M_FILENAME }, \
	{ "output-dir",		SSL_ARG_REQUIRED, SSL_M_OUTPUT_DIR }, \
	{ "output-format",	SSL_ARG_REQUIRED, SSL_M_OUTPUT_FORMAT }, \
	{ "no-report",		SSL_ARG_FLAG, SSL_M_NO_REPORT }, \
	{ "eta",		SSL_ARG_REQUIRED, SSL_M_ETA }, \
	{ "ramp_time",		SSL_ARG_REQUIRED, SSL_M_RAMP }, \
	{ "runtime",		SSL_ARG_REQUIRED, SSL_M_RUNTIME }, \
	{ "rw",			SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "readwrite",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "bs",			SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "blocksize",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "bssplit",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "rwmixread",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "rwmixwrite",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "size",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "offset",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "randseed",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "random_distribution", SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "cpus_allowed",	SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "hipri",		SSL_ARG_FLAG, SSL_M_PASS }, \
	{ "allow_write",	SSL_ARG_FLAG, SSL_M_PASS }, \
	{ "profile",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "section",		SSL_ARG_REQUIRED, SSL_M_PASS }, \
	{ "precondition",	SSL_ARG_REQUIRED, SSL_M_PRECOND }, \
	{ "precondition-span",	SSL_ARG_REQUIRED, SSL_M_PRECOND_SPAN }

/* --force, --dry-run: the guard of --precondition (scale has its own) */
#define SSL_METHOD_GUARD_OPTS \
	{ "force",		SSL_ARG_FLAG, SSL_M_FORCE }, \
	{ "dry-run",		SSL_ARG_FLAG, SSL_M_DRY_RUN }

struct ssl_method {
	const char *cmd;		/* "sweep": messages and the directory's name */
	const char *filename;
	const char *eta;
	bool json_out, no_report, made_dir;
	uint64_t ramp_ms, runtime_ms;	/* per point: --ramp_time, --runtime */
	char dir[PATH_MAX];
	struct ssl_pass pass;
	struct ssl_precond pc;		/* --precondition (mode none: not given) */
	char span[48];			/* --section=25%|SIZE: the run's --size, or "" */
	int force, dry_run;		/* the guard's --force, --dry-run */
	const char *command;		/* the command line, for the record */
	int dashdash;
};

/*
 * The next of the command's own options in argv[*@i...] (the common ones
 * of SSL_METHOD_OPTS are taken on the way): 1 with *@opt and *@val, 0 at
 * the end, 2 after --help printed @usage, -1 after a message.
 */
int ssl_method_next(struct ssl_method *m, int argc, const char **argv, int *i,
		    const struct ssl_opt *tab, const char *const *usage,
		    const struct ssl_opt **opt, const char **val);
/*
 * After the options: --filename given, writes allowed; 0 or -1.  With
 * --profile, the profile's rw, rwmixread/rwmixwrite, bs, iodepth and
 * numjobs fill in what the command line left out (it is loaded here).
 */
int ssl_method_check(struct ssl_method *m);
/* The common options of the child run: name, filename, rw, bs, passed ones. */
void ssl_method_argv(const struct ssl_method *m, struct ssl_argv *a, const char *name);
/* Render DIR's report, then print @doc as JSON or call @table. */
void ssl_method_output(const struct ssl_method *m, json_object *doc,
		       void (*table)(const void *ctx), const void *ctx);
void ssl_method_free(struct ssl_method *m);

/*
 * The command's life after its defaults are set: @parse (0 go on, 1 done
 * after --help, -1 refused), the command line kept, then @body.  The exit
 * status: 0 after --help, 2 refused, 1 out of memory, else @body's.
 */
int ssl_method_main(struct ssl_method *m, int argc, const char **argv,
		    int (*parse)(void *ctx, int argc, const char **argv),
		    int (*body)(void *ctx), void *ctx);

struct ssl_dev;
/* A new result document: format, versions, command, times, state, device */
/*
 * A result document's head: format and its version, ssdload_version,
 * the command line, started (now), finished (null), state "running".
 */
json_object *ssl_doc_head(const char *format, int version, const char *command);
/*
 * The device @d (given as @path) as pts.json and a review's plan.json
 * record it: path, name, dev (MAJ:MIN), nsid, kind, model, serial,
 * firmware, capacity_bytes, logical_block_size; callers add their own.
 */
json_object *ssl_dev_json(const struct ssl_dev *d, const char *path);
json_object *ssl_method_doc(const struct ssl_method *m, const char *format, int version,
			    const struct ssl_dev *d);

/*
 * The device a result document recorded (its "device": serial, model,
 * nsid, "dev" MAJ:MIN, capacity_bytes, path) into @was, for
 * ssl_dev_check_same(); what it lacks is left empty or 0.
 */
void ssl_dev_recorded(json_object *dev, struct ssl_dev *was);

/* "ssdload ARGV...", malloc'ed (NULL: out of memory) */
char *ssl_join_args(int argc, const char **argv);
/*
 * The output directory @dir (empty: "@cmd-YYYYmmdd-HHMMSS", written back),
 * created if missing (*@made); -1 after a message if it cannot be, or it
 * already holds @json.
 */
int ssl_make_outdir(const char *cmd, char *dir, size_t len, const char *json, bool *made);

/* JSON */
void jset(json_object *o, const char *k, json_object *v);
json_object *jget(json_object *o, const char *k);
double jnum(json_object *o, const char *k, double def);
const char *jstring(json_object *o, const char *k);
json_object *jdouble_or_null(double v);
json_object *jstr_or_null(const char *s);
void now_iso(char *buf, size_t len);
json_object *jnow(void);
int json_save(json_object *o, const char *path);
json_object *ssl_read_run(const char *path);
json_object *run_job0(json_object *run);
/*
 * The head of a point's direction from direction @x of a run's job
 * (jobs[0].read, a step's write...): a new object of its ios, iops,
 * bw_bytes and lat_mean_ns (completion latency, ns).
 */
json_object *run_dir_head(json_object *x);
/* @v[0..@n-1] as a JSON array of integers */
json_object *juint_array(const unsigned int *v, unsigned int n);

#endif
