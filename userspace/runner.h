/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Methodology commands (pts, sweep) run `ssdload run` as a child per
 * round or point and keep their results as JSON: the child's argv, its
 * spawn with the stdout into a file, the signal that stops both, and the
 * json-c helpers their documents share.
 */
#ifndef SSDLOAD_RUNNER_H
#define SSDLOAD_RUNNER_H

#include <signal.h>
#include <stddef.h>

#include <json-c/json.h>

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

/* Options: messages start with "@cmd: --@name=@val: " */
int ssl_uint_opt(const char *cmd, const char *name, const char *val, unsigned int lo,
		 unsigned int hi, unsigned int *out);
int ssl_uint_list(const char *cmd, const char *name, const char *val, unsigned int hi,
		  unsigned int max_n, int order, unsigned int *out, unsigned int *n);

/* --eta=auto|always|never, for the child runs' progress line */
int ssl_eta_opt(const char *cmd, const char *val);
/* @dir/@rel into @buf; -1 after "@cmd: ...: path too long" */
int ssl_dir_path(const char *cmd, const char *dir, const char *rel, char *buf, size_t len);

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

#endif
