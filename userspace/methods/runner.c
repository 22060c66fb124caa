// SPDX-License-Identifier: GPL-2.0
/*
 * Methodology commands' runner (runner.h): `ssdload run` as a child, the
 * signal that stops both, and the JSON helpers of their documents.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/configfs.h"
#include "device/device.h"
#include "fio/jobfile.h"
#include "core/options.h"
#include "methods/render.h"
#include "methods/runner.h"
#include "core/util.h"
#include "uapi/ssdload.h"

extern char **environ;

volatile sig_atomic_t ssl_run_sig;	/* first signal caught */
static volatile pid_t run_child;	/* the running `ssdload run`, or 0 */
/* the runs of a group (ssl_run_group), 0 where none or reaped */
static volatile pid_t group_child[SSL_GROUP_MAX_RUNS];

static void run_on_signal(int sig)
{
	unsigned int i;

	if (!ssl_run_sig)
		ssl_run_sig = sig;
	/* a signal sent to us alone (kill PID) stops the round as well */
	if (run_child > 0)
		kill(run_child, sig);
	for (i = 0; i < SSL_GROUP_MAX_RUNS; i++)
		if (group_child[i] > 0)
			kill(group_child[i], sig);
}

void ssl_run_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}


/* ---- JSON helpers ---- */

void jset(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

json_object *jget(json_object *o, const char *k)
{
	json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

double jnum(json_object *o, const char *k, double def)
{
	json_object *v = jget(o, k);

	if (!v || (!json_object_is_type(v, json_type_int) &&
		   !json_object_is_type(v, json_type_double)))
		return def;
	return json_object_get_double(v);
}

/* a string member, "" if absent or not a string */
const char *jstring(json_object *o, const char *k)
{
	json_object *v = jget(o, k);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

json_object *jdouble_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

void now_iso(char *buf, size_t len)
{
	struct tm tm;
	time_t t = time(NULL);

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

json_object *jnow(void)
{
	char buf[32];

	now_iso(buf, sizeof(buf));
	return json_object_new_string(buf);
}

/* Write @o to @path atomically (a new tmp, fsync, rename); 0 or -1 after a message. */
int json_save(json_object *o, const char *path)
{
	struct ssl_atomic a;
	const char *s;

	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s) {
		ssl_err("out of memory");
		return -1;
	}
	if (!ssl_atomic_open(&a, path))
		return -1;
	fputs(s, a.f);
	fputc('\n', a.f);
	return ssl_atomic_commit(&a);
}


void av_add(struct ssl_argv *a, const char *s)
{
	if (a->n < SSL_MAX_ARGS)
		a->v[a->n++] = s;
}

void av_addf(struct ssl_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (s) {
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	if (!s || a->nown >= SSL_MAX_ARGS) {
		free(s);
		return;
	}
	a->own[a->nown++] = s;
	av_add(a, s);
}

void av_free(struct ssl_argv *a)
{
	int i;

	for (i = 0; i < a->nown; i++)
		free(a->own[i]);
	a->n = a->nown = 0;
}

/* Start `ssdload @a` with its stdout into @out_path: 0, or -1 after a message. */
static int run_start(struct ssl_argv *a, const char *out_path, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int r, fd = -1;

	a->v[a->n] = NULL;
	if (a->n >= SSL_MAX_ARGS) {
		ssl_err("too many arguments for ssdload run");
		return -1;
	}
	/* opened here, to say why not; a link there is replaced, not followed */
	if (out_path) {
		struct stat st;

		if (!lstat(out_path, &st) && S_ISLNK(st.st_mode) && unlink(out_path)) {
			ssl_err("%s: %s", out_path, strerror(errno));
			return -1;
		}
		fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0) {
			ssl_err("%s: %s", out_path, strerror(errno));
			return -1;
		}
	}
	posix_spawn_file_actions_init(&fa);
	if (fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	fflush(stdout);
	fflush(stderr);
	r = posix_spawn(pid, "/proc/self/exe", &fa, NULL, (char *const *)a->v, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (fd >= 0)
		close(fd);
	if (r) {
		ssl_err("cannot run ssdload run: %s", strerror(r));
		return -1;
	}
	return 0;
}

/* The exit status of a reaped child, as the shell gives it. */
static int run_status(int status)
{
	if (WIFSIGNALED(status))
		return SSL_EXIT_SIGNAL(WTERMSIG(status));
	return WEXITSTATUS(status);
}

/*
 * Run `ssdload ARGS` (this binary) with its stdout into @out_path (NULL:
 * ours).  Returns its exit status, 128+N if a signal ended it, or -1.
 */
int ssl_run_spawn(struct ssl_argv *a, const char *out_path)
{
	int status;
	pid_t pid;

	if (run_start(a, out_path, &pid))
		return -1;
	run_child = pid;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ssl_err("waitpid: %s", strerror(errno));
			run_child = 0;
			return -1;
		}
	}
	run_child = 0;
	return run_status(status);
}

/* Reap child @i if it ended (@block: wait for it); 1 if it did. */
static int group_reap(unsigned int i, bool block, int *st)
{
	int status;
	pid_t r;

	if (group_child[i] <= 0)
		return 1;
	do
		r = waitpid(group_child[i], &status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	st[i] = r < 0 ? -1 : run_status(status);
	group_child[i] = 0;
	return 1;
}

/* Stop the runs still going with @sig and reap them all. */
static void group_stop(unsigned int n, int sig, int *st)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (group_child[i] > 0)
			kill(group_child[i], sig);
	for (i = 0; i < n; i++)
		group_reap(i, true, st);
}

uint64_t ssl_run_group_start_ms;

/* CLOCK_REALTIME in ms (fio's job_start) */
static uint64_t realtime_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int ssl_run_group(struct ssl_argv *a, const char *const *out, const char *const *jobs,
		  unsigned int n, const char *group, uint64_t arm_timeout_ms, int *st)
{
	uint64_t t0 = ssl_now_ms();
	unsigned int i, armed;
	char state[32];
	int err;

	if (n > SSL_GROUP_MAX_RUNS) {
		ssl_err("more than %d runs in one group", SSL_GROUP_MAX_RUNS);
		return -1;
	}
	/* the group is started here: its runs need not say how to start it */
	setenv(SSL_RUN_SET_ENV, "1", 1);
	for (i = 0; i < n; i++) {
		pid_t pid;

		st[i] = -1;
		av_addf(&a[i], "--group=%s", group);
		if (run_start(&a[i], out[i], &pid)) {
			group_stop(i, SIGTERM, st);
			return -1;
		}
		group_child[i] = pid;
	}
	/* every run armed (its devices open, its I/O allocated), or one gave up */
	for (;;) {
		for (i = 0, armed = 0; i < n; i++) {
			if (group_reap(i, false, st)) {
				ssl_err("ssdload run of job '%s' ended (exit status %d) before "
					"the group '%s' started", jobs[i], st[i], group);
				group_stop(n, SIGTERM, st);
				return -1;
			}
			if (!cfs_read(jobs[i], "state", state, sizeof(state)) &&
			    !strcmp(state, "armed"))
				armed++;
		}
		if (armed == n)
			break;
		if (ssl_run_sig || ssl_now_ms() - t0 > arm_timeout_ms) {
			if (!ssl_run_sig)
				ssl_err("group '%s': %u of %u jobs armed after %" PRIu64 " ms",
					group, armed, n, arm_timeout_ms);
			group_stop(n, ssl_run_sig ? ssl_run_sig : SIGTERM, st);
			return -1;
		}
		usleep(20000);
	}
	ssl_run_group_start_ms = realtime_ms();
	err = cfs_write_root(SSDLOAD_START, group);
	if (err) {
		ssl_err("start %s: %s", group, strerror(-err));
		group_stop(n, SIGTERM, st);
		return -1;
	}
	for (i = 0; i < n; i++)
		group_reap(i, true, st);
	return 0;
}


/* Read a run's JSON output; the object or NULL after a message. */
json_object *ssl_read_run(const char *path)
{
	int err;
	json_object *o = ssl_json_read(path, SSL_JSON_MAX_BYTES, &err);

	if (!o)
		ssl_err("%s: not the JSON of a run (%s)", path,
			err == -EINVAL ? "not JSON" : ssl_strerror(err));
	return o;
}

json_object *run_job0(json_object *run)
{
	json_object *jobs = jget(run, "jobs");

	if (!jobs || !json_object_is_type(jobs, json_type_array) ||
	    !json_object_array_length(jobs))
		return NULL;
	return json_object_array_get_idx(jobs, 0);
}

json_object *run_dir_head(json_object *x)
{
	json_object *o = json_object_new_object();

	jset(o, "ios", json_object_new_int64((int64_t)jnum(x, "total_ios", 0)));
	jset(o, "iops", json_object_new_double(jnum(x, "iops", 0)));
	jset(o, "bw_bytes", json_object_new_double(jnum(x, "bw_bytes", 0)));
	jset(o, "lat_mean_ns", json_object_new_double(jnum(jget(x, "clat_ns"), "mean", 0)));
	return o;
}

json_object *juint_array(const unsigned int *v, unsigned int n)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int((int)v[i]));
	return a;
}


json_object *jstr_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

/* ---- options ---- */

int ssl_uint_opt(const char *cmd, const char *name, const char *val, unsigned int lo,
		 unsigned int hi, unsigned int *out)
{
	uint64_t u;

	if (ssl_parse_u64(val, &u) || u < lo || u > hi) {
		ssl_err("%s: --%s=%s: must be an integer from %u to %u", cmd, name, val, lo, hi);
		return -1;
	}
	*out = u;
	return 0;
}

int ssl_uint_list(const char *cmd, const char *name, const char *val, unsigned int hi,
		  unsigned int max_n, int order, unsigned int *out, unsigned int *n)
{
	return ssl_uint_list_from(cmd, name, val, 1, hi, max_n, order, out, n);
}

int ssl_uint_list_from(const char *cmd, const char *name, const char *val, unsigned int lo,
		       unsigned int hi, unsigned int max_n, int order, unsigned int *out,
		       unsigned int *n)
{
	char buf[512], *tok, *save = NULL;
	unsigned int k = 0, i, j, t;

	if (strlen(val) >= sizeof(buf)) {
		ssl_err("%s: --%s: too long", cmd, name);
		return -1;
	}
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t u;

		if (ssl_parse_u64(tok, &u) || u < lo || u > hi) {
			ssl_err("%s: --%s=%s: '%s' is not an integer from %u to %u", cmd, name,
				val, tok, lo, hi);
			return -1;
		}
		if (k == max_n) {
			ssl_err("%s: --%s=%s: at most %u values", cmd, name, val, max_n);
			return -1;
		}
		for (i = 0; i < k; i++)
			if (out[i] == u) {
				ssl_err("%s: --%s=%s: %llu is given twice", cmd, name, val,
					(unsigned long long)u);
				return -1;
			}
		out[k++] = (unsigned int)u;
	}
	if (!k) {
		ssl_err("%s: --%s=%s: give one value or more, e.g. 32,16,8,4,2,1", cmd, name,
			val);
		return -1;
	}
	for (i = 1; order && i < k; i++)
		for (j = i; j > 0 && (order < 0 ? out[j - 1] < out[j] : out[j - 1] > out[j]);
		     j--) {
			t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	*n = k;
	return 0;
}

int ssl_eta_opt(const char *cmd, const char *val)
{
	enum ssl_eta eta;

	if (ssl_parse_eta(val, &eta)) {
		ssl_err("%s: --eta=%s: must be auto, always or never", cmd, val);
		return -1;
	}
	return 0;
}

int ssl_dir_path(const char *cmd, const char *dir, const char *rel, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/%s", dir, rel) >= (int)len) {
		ssl_err("%s: %s/%s: path too long", cmd, dir, rel);
		return -1;
	}
	return 0;
}

/* ---- what the methodology commands share: options passed on, the directory ---- */

int ssl_time_opt(const char *cmd, const char *name, const char *val, uint64_t lo,
		 uint64_t *out)
{
	if (ssl_parse_time_ms(val, 1000, out) || *out < lo || *out > 7 * 24 * 3600000ULL) {
		ssl_err("%s: --%s=%s: must be a time from %" PRIu64 "ms to 7 days (bare "
			"number = s, or ms/s/m/h)", cmd, name, val, lo);
		return -1;
	}
	return 0;
}

/* the --rw value when it writes or trims (anything but read and randread) */
static const char *rw_writes(const char *rw)
{
	return strcmp(rw, "read") && strcmp(rw, "randread") ? rw : NULL;
}

int ssl_pass_add(const char *cmd, struct ssl_pass *p, const char *name, const char *val)
{
	size_t len = strlen(name) + (val ? strlen(val) : 0) + 4;
	char *s;

	if (p->n == ARRAY_SIZE(p->v)) {
		ssl_err("%s: too many run options", cmd);
		return -1;
	}
	s = malloc(len);
	if (!s) {
		ssl_err("%s: out of memory", cmd);
		return -1;
	}
	if (val)
		snprintf(s, len, "--%s=%s", name, val);
	else
		snprintf(s, len, "--%s", name);
	p->own[p->n] = s;
	p->v[p->n++] = s;
	if (!strcmp(name, "rw") || !strcmp(name, "readwrite")) {
		p->rw = val;
		p->writes = rw_writes(val);
	}
	if (!strcmp(name, "allow_write"))
		p->allow_write = !val || strcmp(val, "0");
	if (!strcmp(name, "bs") || !strcmp(name, "blocksize") || !strcmp(name, "bssplit"))
		p->have_bs = true;
	if (!strcmp(name, "rwmixread"))
		p->rwmixread = val;
	if (!strcmp(name, "rwmixwrite"))
		p->rwmixwrite = val;
	if (!strcmp(name, "profile"))
		p->profile = val;
	if (!strcmp(name, "section"))
		p->section = val;
	return 0;
}

void ssl_pass_free(struct ssl_pass *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		free(p->own[i]);
	p->n = 0;
	for (i = 0; i < ARRAY_SIZE(p->prof); i++) {
		free(p->prof[i]);
		p->prof[i] = NULL;
	}
}

char *ssl_join_args(int argc, const char **argv)
{
	size_t len = 8;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "ssdload");
	for (i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int ssl_make_outdir(const char *cmd, char *dir, size_t len, const char *json, bool *made)
{
	char path[PATH_MAX];

	*made = false;
	if (!dir[0]) {
		struct tm tm;
		time_t t = time(NULL);
		char stamp[32];

		localtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(dir, len, "%s-%s", cmd, stamp);
	}
	if (!mkdir(dir, 0755)) {
		*made = true;
	} else if (errno != EEXIST) {
		ssl_err("%s: %s: %s", cmd, dir, strerror(errno));
		return -1;
	}
	if (ssl_dir_check(cmd, dir))
		return -1;
	if (!ssl_dir_path(cmd, dir, json, path, sizeof(path)) && !access(path, F_OK)) {
		ssl_err("%s: %s already holds a %s (%s): give another --output-dir", cmd, dir,
			cmd, json);
		return -1;
	}
	return 0;
}

static int ssl_method_opt(struct ssl_method *m, int id, const char *name, const char *val)
{
	unsigned int fmt;
	char why[128];

	switch (id) {
	case SSL_M_FILENAME:
		m->filename = val;
		return 0;
	case SSL_M_OUTPUT_DIR:
		if (snprintf(m->dir, sizeof(m->dir), "%s", val) >= (int)sizeof(m->dir)) {
			ssl_err("%s: --output-dir: too long", m->cmd);
			return -1;
		}
		return 0;
	case SSL_M_OUTPUT_FORMAT:
		if (ssl_parse_output_format(val, &fmt) ||
		    (fmt != SSL_OUTPUT_NORMAL && fmt != SSL_OUTPUT_JSON)) {
			ssl_err("%s: --output-format=%s: must be normal or json", m->cmd, val);
			return -1;
		}
		m->json_out = fmt & SSL_OUTPUT_JSON;
		return 0;
	case SSL_M_NO_REPORT:
		m->no_report = true;
		return 0;
	case SSL_M_ETA:
		if (ssl_eta_opt(m->cmd, val))
			return -1;
		m->eta = val;
		return 0;
	case SSL_M_RAMP:
		return ssl_time_opt(m->cmd, name, val, 0, &m->ramp_ms);
	case SSL_M_RUNTIME:
		return ssl_time_opt(m->cmd, name, val, 100, &m->runtime_ms);
	case SSL_M_PASS:
		/* --section=25%|SIZE is the measurement's span; else a profile's */
		if (!strcmp(name, "section")) {
			int r = ssl_section_span(val, m->span, sizeof(m->span), why, sizeof(why));

			if (r < 0)
				ssl_err("%s: --section=%s: %s", m->cmd, val, why);
			if (r <= 0)
				return r;
		}
		return ssl_pass_add(m->cmd, &m->pass, name, val);
	case SSL_M_PRECOND:
		return ssl_precond_parse(m->cmd, val, &m->pc);
	case SSL_M_PRECOND_SPAN:
		return ssl_precond_span_parse(m->cmd, val, &m->pc);
	case SSL_M_FORCE:
	case SSL_M_DRY_RUN:
		if (val && ssl_parse_bool(val, id == SSL_M_FORCE ? &m->force : &m->dry_run)) {
			ssl_err("%s: --%s=%s: must be 0 or 1", m->cmd, name, val);
			return -1;
		}
		if (!val)
			*(id == SSL_M_FORCE ? &m->force : &m->dry_run) = 1;
		return 0;
	}
	ssl_err("%s: --%s: not an option of %s", m->cmd, name, m->cmd);
	return -1;
}

int ssl_method_next(struct ssl_method *m, int argc, const char **argv, int *i,
		    const struct ssl_opt *tab, const char *const *usage,
		    const struct ssl_opt **opt, const char **val)
{
	int r;

	while (*i < argc) {
		r = ssl_next_opt(argc, argv, i, tab, opt, val, &m->dashdash);
		if (r < 0)
			return -1;
		if (r == 2) {
			ssl_usage(stdout, usage);
			return 2;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			ssl_err("%s: unexpected argument '%s' (options are --name=value)", m->cmd,
				argv[*i - 1]);
			return -1;
		}
		if ((*opt)->id < SSL_M_FILENAME)
			return 1;
		if (ssl_method_opt(m, (*opt)->id, (*opt)->name, *val))
			return -1;
	}
	return 0;
}

/* one job option of the profile, unless the command line gave it */
static int profile_opt(void *ctx, const struct ssl_jobfile_opt *o)
{
	struct ssl_method *m = ctx;
	struct ssl_pass *p = &m->pass;
	static const char *const keys[] = { "rw", "rwmixread", "rwmixwrite" };
	unsigned int i, v;

	if (!strcmp(o->key, "readwrite"))
		i = 0;
	else
		for (i = 0; i < ARRAY_SIZE(keys) && strcmp(o->key, keys[i]); i++)
			;
	if (i < ARRAY_SIZE(keys)) {
		char *d = strdup(o->val);

		if (!d) {
			ssl_err("%s: out of memory", m->cmd);
			return -1;
		}
		free(p->prof[i]);
		p->prof[i] = d;
		return 0;
	}
	if (!strcmp(o->key, "bs") || !strcmp(o->key, "blocksize") || !strcmp(o->key, "bssplit"))
		p->have_bs = true;
	if (!strcmp(o->key, "iodepth") || !strcmp(o->key, "numjobs")) {
		if (ssl_uint_opt(m->cmd, o->key, o->val, 1, UINT_MAX, &v)) {
			ssl_err("%s: (in %s)", m->cmd, o->where);
			return -1;
		}
		*(o->key[0] == 'i' ? &p->prof_iodepth : &p->prof_numjobs) = v;
	}
	return 0;
}

/*
 * --profile: its workload is that of the run, so the method reads what it
 * needs (the read share of a curve's rates, writes needing --allow_write,
 * the threads); the runs load the file themselves (--profile is passed).
 */
static int method_profile(struct ssl_method *m)
{
	const struct ssl_jobfile_section *job;
	struct ssl_pass *p = &m->pass;
	char path[PATH_MAX];
	struct ssl_jobfile jf;
	int r = -1;

	if (!p->profile) {
		if (p->section) {
			ssl_err("%s: --section=%s: there is no --profile", m->cmd, p->section);
			return -1;
		}
		return 0;
	}
	if (ssl_profile_path(p->profile, path, sizeof(path))) {
		ssl_err("%s: --profile=%s: no such profile (see ssdload profiles)", m->cmd,
			p->profile);
		return -1;
	}
	if (ssl_jobfile_load(path, &jf))
		return -1;
	job = ssl_jobfile_job(&jf, p->section);
	if (!job || ssl_jobfile_each(&jf, job, profile_opt, m))
		goto out_free;
	if (!p->rw && p->prof[0]) {
		p->rw = p->prof[0];
		p->writes = rw_writes(p->rw);
	}
	if (!p->rwmixread && !p->rwmixwrite) {
		p->rwmixread = p->prof[1];
		p->rwmixwrite = p->prof[2];
	}
	r = 0;
out_free:
	ssl_jobfile_free(&jf);
	return r;
}

/* an option of @p starting with @prefix ("--size=") */
static bool pass_has(const struct ssl_pass *p, const char *prefix)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (!strncmp(p->v[i], prefix, strlen(prefix)))
			return true;
	return false;
}

int ssl_method_check(struct ssl_method *m)
{
	if (method_profile(m))
		return -1;
	if (!m->filename) {
		ssl_err("%s: --filename=DEV is required", m->cmd);
		return -1;
	}
	if (m->pass.writes && !m->pass.allow_write) {
		ssl_err("%s: --rw=%s writes to %s: give --allow_write (its data is "
			"destroyed); nothing ran", m->cmd, m->pass.writes, m->filename);
		return -1;
	}
	if (m->pc.span_arg[0] && m->pc.mode == SSL_PC_NONE) {
		ssl_err("%s: --precondition-span=%s limits a --precondition: give one",
			m->cmd, m->pc.span_arg);
		return -1;
	}
	if (m->pc.mode != SSL_PC_NONE && !m->pass.allow_write) {
		ssl_err("%s: --precondition writes to the whole of %s: give --allow_write "
			"(its data is destroyed); nothing ran", m->cmd, m->filename);
		return -1;
	}
	if (m->span[0] && (pass_has(&m->pass, "--size=") || pass_has(&m->pass, "--offset="))) {
		ssl_err("%s: --section=%s is the measurement's span from the device's start: "
			"give neither --size nor --offset with it", m->cmd, m->span);
		return -1;
	}
	return 0;
}

void ssl_method_argv(const struct ssl_method *m, struct ssl_argv *a, const char *name)
{
	unsigned int i;

	av_add(a, "ssdload");
	av_add(a, "run");
	av_addf(a, "--name=%s", name);
	av_addf(a, "--filename=%s", m->filename);
	/* each point lasts its runtime (fio would end it after one pass) */
	av_add(a, "--time_based");
	if (!m->pass.rw)
		av_add(a, "--rw=randread");
	if (!m->pass.have_bs)
		av_add(a, "--bs=4k");
	for (i = 0; i < m->pass.n; i++)
		av_add(a, m->pass.v[i]);
	if (m->span[0])
		av_addf(a, "--size=%s", m->span);
}

void ssl_method_output(const struct ssl_method *m, json_object *doc,
		       void (*table)(const void *ctx), const void *ctx)
{
	if (!m->no_report && ssl_render_report(m->dir, 1))
		ssl_err("%s: the report was not rendered (ssdload report %s)", m->cmd, m->dir);
	if (m->json_out)
		printf("%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_SPACED |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	else
		table(ctx);
}

void ssl_method_free(struct ssl_method *m)
{
	ssl_pass_free(&m->pass);
	free((char *)m->command);
	m->command = NULL;
}

json_object *ssl_doc_head(const char *format, int version, const char *command)
{
	json_object *doc = json_object_new_object();

	jset(doc, "format", json_object_new_string(format));
	jset(doc, "format_version", json_object_new_int(version));
	jset(doc, "ssdload_version", json_object_new_string(SSDLOAD_CLI_VERSION));
	jset(doc, "command", json_object_new_string(command));
	jset(doc, "started", jnow());
	jset(doc, "finished", NULL);
	jset(doc, "state", json_object_new_string("running"));
	return doc;
}

json_object *ssl_method_doc(const struct ssl_method *m, const char *format, int version,
			    const struct ssl_dev *d)
{
	json_object *doc = ssl_doc_head(format, version, m->command);
	json_object *dev = json_object_new_object();

	jset(dev, "path", json_object_new_string(m->filename));
	jset(dev, "model", jstr_or_null(d->model));
	jset(dev, "serial", jstr_or_null(d->serial));
	jset(dev, "firmware", jstr_or_null(d->firmware));
	jset(dev, "capacity_bytes", json_object_new_int64((int64_t)d->capacity_bytes));
	jset(doc, "device", dev);
	return doc;
}

json_object *ssl_dev_json(const struct ssl_dev *d, const char *path)
{
	json_object *o = json_object_new_object();
	char num[32];

	snprintf(num, sizeof(num), "%u:%u", d->dev_major, d->dev_minor);
	jset(o, "path", json_object_new_string(path));
	jset(o, "name", jstr_or_null(d->name));
	jset(o, "dev", json_object_new_string(num));
	jset(o, "nsid", d->nsid ? json_object_new_int64(d->nsid) : NULL);
	jset(o, "kind", json_object_new_string(d->is_nvme ? "nvme" : "block"));
	jset(o, "model", jstr_or_null(d->model));
	jset(o, "serial", jstr_or_null(d->serial));
	jset(o, "firmware", jstr_or_null(d->firmware));
	jset(o, "capacity_bytes", json_object_new_int64((int64_t)d->capacity_bytes));
	jset(o, "logical_block_size", json_object_new_int((int)d->logical_block_size));
	return o;
}

void ssl_dev_recorded(json_object *dev, struct ssl_dev *was)
{
	memset(was, 0, sizeof(*was));
	snprintf(was->path, sizeof(was->path), "%s", jstring(dev, "path"));
	snprintf(was->model, sizeof(was->model), "%s", jstring(dev, "model"));
	snprintf(was->serial, sizeof(was->serial), "%s", jstring(dev, "serial"));
	was->capacity_bytes = (uint64_t)jnum(dev, "capacity_bytes", 0);
	was->nsid = (uint32_t)jnum(dev, "nsid", 0);
	if (sscanf(jstring(dev, "dev"), "%u:%u", &was->dev_major, &was->dev_minor) != 2)
		was->dev_major = was->dev_minor = 0;
}

int ssl_method_main(struct ssl_method *m, int argc, const char **argv,
		    int (*parse)(void *ctx, int argc, const char **argv),
		    int (*body)(void *ctx), void *ctx)
{
	int r = parse(ctx, argc, argv);

	if (r)
		return r > 0 ? 0 : 2;
	m->command = ssl_join_args(argc, argv);
	if (!m->command) {
		ssl_err("%s: out of memory", m->cmd);
		return 1;
	}
	return body(ctx);
}
