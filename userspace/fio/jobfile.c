// SPDX-License-Identifier: GPL-2.0
/*
 * fio job files, parsed with inih (Debian's libinih).
 *
 * inih does the INI grammar; a line reader in front of it gives it fio's
 * dialect, which Debian's build of the library cannot be configured for:
 *  - leading blanks are dropped (fio indents freely; inih would take an
 *    indented line as the continuation of the previous value);
 *  - a ';' or '#' anywhere starts a comment, as in fio's parse.c
 *    (strip_blank_end()), where inih strips only a ';' after a blank;
 *  - a bare key ("time_based") becomes "time_based=" (a flag);
 *  - "include FILE" opens FILE (relative to the including file) in place,
 *    inside a section, and FILE opens none (as fio);
 *  - ${VAR} is the environment's VAR, and $pagesize, $ncpus and $mb_memory
 *    are fio's keywords;
 *  - a line longer than inih's line buffer (200 bytes) has its value kept
 *    here: inih gets the key with an empty value, and the handler takes
 *    the value from the reader (inih calls it before reading on);
 *  - a control character (a NUL, 0x01-0x1f but tab, 0x7f) is refused;
 *  - a file must be a regular file (no FIFO, no device) of at most
 *    SSL_JOBFILE_MAX_BYTES, its lines at most SSL_LINE_MAX bytes.
 * The reader also counts lines per file, so that every option carries the
 * "FILE:LINE" it came from, and it records section headers itself: inih
 * reports keys only, and fio's "[job]" with no keys is a job.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "fio/jobfile.h"
#include "core/options.h"
#include "core/util.h"

struct jf_src {
	FILE *f;
	char *path;		/* as it is printed */
	char *real;		/* realpath, to find include loops */
	int line;
	size_t bytes;		/* read so far */
};

struct jf_reader {
	struct jf_src st[SSL_JOBFILE_INCLUDE_MAX + 1];
	int depth;
	int failed;		/* an error was printed: stop */
	char where[PATH_MAX + 16];	/* origin of the line inih has */
	struct ssl_jobfile *jf;
	char **longv;		/* values too long for inih's line */
	int nlong;
	int long_val;		/* the line handed to inih has longv[this], or -1 */
	char *line;		/* getline's buffer */
	size_t cap;
};

static char *xstrdup(struct jf_reader *r, const char *s)
{
	char *d = strdup(s);

	if (!d && !r->failed) {
		ssl_err("out of memory");
		r->failed = 1;
	}
	return d;
}

__attribute__((format(printf, 2, 3)))
static void jf_err(struct jf_reader *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (r->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->depth)
		ssl_err("%s:%d: %s", r->st[r->depth - 1].path, r->st[r->depth - 1].line, msg);
	else
		ssl_err("%s: %s", r->where, msg);
	r->failed = 1;
}

static void pop_src(struct jf_reader *r)
{
	struct jf_src *s = &r->st[--r->depth];

	if (s->f)
		fclose(s->f);
	free(s->path);
	free(s->real);
	memset(s, 0, sizeof(*s));
}

/* @path cannot be opened: errno, at the include line or of the job file */
static int src_err(struct jf_reader *r, const char *path)
{
	if (r->depth)
		jf_err(r, "include %s: %s", path, ssl_strerror(errno));
	else
		ssl_err("%s: %s", path, ssl_strerror(errno));
	r->failed = 1;
	return -1;
}

/* Open @path (the top file when @r->depth is 0) on the include stack. */
static int push_src(struct jf_reader *r, const char *path)
{
	char real[PATH_MAX];
	struct jf_src *s;
	int i, err;

	if (r->depth > SSL_JOBFILE_INCLUDE_MAX) {
		jf_err(r, "include %s: more than %d nested includes", path,
		       SSL_JOBFILE_INCLUDE_MAX);
		return -1;
	}
	if (!realpath(path, real))
		return src_err(r, path);
	for (i = 0; i < r->depth; i++)
		if (!strcmp(r->st[i].real, real)) {
			jf_err(r, "include %s: an include loop (%s is already being read)",
			       path, r->st[i].path);
			return -1;
		}
	s = &r->st[r->depth];
	s->f = ssl_fopen_regular(path, SSL_JOBFILE_MAX_BYTES, &err);
	if (!s->f) {
		errno = -err;
		return src_err(r, path);
	}
	s->path = xstrdup(r, path);
	s->real = xstrdup(r, real);
	s->line = 0;
	r->depth++;
	return r->failed ? -1 : 0;
}

/* fio's include: a path relative to the directory of the including file */
static int include_file(struct jf_reader *r, const char *arg)
{
	const char *cur = r->st[r->depth - 1].path, *slash = strrchr(cur, '/');
	char path[PATH_MAX];

	if (!*arg) {
		jf_err(r, "include needs a file name");
		return -1;
	}
	if (arg[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", arg);
	else if (snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - cur), cur, arg) >=
		 (int)sizeof(path)) {
		jf_err(r, "include %s: path too long", arg);
		return -1;
	}
	return push_src(r, path);
}

/* the value of fio's keyword $@name (without the '$'), or -1 */
static int keyword(const char *name, size_t len, char *out, size_t olen)
{
	long v;

	if (len == 8 && !strncmp(name, "pagesize", len))
		v = sysconf(_SC_PAGESIZE);
	else if (len == 5 && !strncmp(name, "ncpus", len))
		v = sysconf(_SC_NPROCESSORS_ONLN);
	else if (len == 9 && !strncmp(name, "mb_memory", len))
		v = (long)((unsigned long long)sysconf(_SC_PHYS_PAGES) *
			   (unsigned long long)sysconf(_SC_PAGESIZE) >> 20);
	else
		return -1;
	snprintf(out, olen, "%ld", v);
	return 0;
}

/* Expand ${VAR} and the keywords of @in into @out; -1 after an error. */
static int expand(struct jf_reader *r, const char *in, char *out, size_t olen)
{
	size_t o = 0, n;
	const char *p = in, *end;
	char name[128], val[32];
	const char *rep;

	while (*p) {
		rep = NULL;
		n = 1;
		if (p[0] == '$' && p[1] == '{') {
			end = strchr(p + 2, '}');
			if (!end) {
				jf_err(r, "'${' without its '}'");
				return -1;
			}
			n = (size_t)(end - p) + 1;
			if (n - 3 == 0 || n - 3 >= sizeof(name)) {
				jf_err(r, "'%.*s' is not a variable name", (int)n, p);
				return -1;
			}
			memcpy(name, p + 2, n - 3);
			name[n - 3] = '\0';
			rep = getenv(name);
			if (!rep) {
				jf_err(r, "${%s} is not set in the environment", name);
				return -1;
			}
		} else if (p[0] == '$') {
			size_t k = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz_");

			if (!keyword(p + 1, k, val, sizeof(val))) {
				rep = val;
				n = k + 1;
			}
		}
		if (!rep) {
			if (o + 1 >= olen)
				goto too_long;
			out[o++] = *p++;
			continue;
		}
		if (o + strlen(rep) >= olen)
			goto too_long;
		memcpy(out + o, rep, strlen(rep));
		o += strlen(rep);
		p += n;
	}
	out[o] = '\0';
	return 0;
too_long:
	jf_err(r, "the line is too long once expanded");
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int new_section(struct jf_reader *r, const char *line)
{
	struct ssl_jobfile *jf = r->jf;
	struct ssl_jobfile_section *s;
	const char *close = strchr(line, ']');
	char name[256];

	if (!close || close[1]) {
		jf_err(r, "a section header must be '[name]' alone on its line");
		return -1;
	}
	if (close == line + 1 || (size_t)(close - line) > sizeof(name)) {
		jf_err(r, "a section needs a name of 1 to %zu characters", sizeof(name) - 1);
		return -1;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(close - line - 1), line + 1);
	s = realloc(jf->s, (size_t)(jf->n + 1) * sizeof(*s));
	if (!s) {
		jf_err(r, "out of memory");
		return -1;
	}
	jf->s = s;
	s = &jf->s[jf->n++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(r, name);
	s->where = xstrdup(r, r->where);
	s->global = !strcmp(name, "global");
	return r->failed ? -1 : 0;
}

/* -1 after an error if @p (@len bytes) holds a control character */
static int refuse_controls(struct jf_reader *r, const char *p, size_t len, const char *what)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
			jf_err(r, "a control character (byte 0x%02x) %s", c, what);
			return -1;
		}
	}
	return 0;
}

/* the next line of the file on top into r->line: 1, 0 at its end, -1 */
static int next_line(struct jf_reader *r, struct jf_src *s)
{
	ssize_t n;

	errno = 0;
	n = getline(&r->line, &r->cap, s->f);
	if (n < 0) {
		if (!ferror(s->f))
			return 0;
		jf_err(r, "read error: %s", strerror(errno ? errno : EIO));
		return -1;
	}
	s->line++;
	snprintf(r->where, sizeof(r->where), "%s:%d", s->path, s->line);
	s->bytes += (size_t)n;
	if (s->bytes > SSL_JOBFILE_MAX_BYTES) {
		jf_err(r, "the file is longer than %u bytes", SSL_JOBFILE_MAX_BYTES);
		return -1;
	}
	if (n > SSL_LINE_MAX) {
		jf_err(r, "a line of more than %d bytes", SSL_LINE_MAX);
		return -1;
	}
	return refuse_controls(r, r->line, (size_t)n, "in the line") ? -1 : 1;
}

/*
 * inih's reader: the next line in fio's dialect, or NULL at the end (or
 * after an error, which stops the parse).
 */
static char *jf_read(char *str, int num, void *stream)
{
	struct jf_reader *r = stream;
	char exp[SSL_LINE_MAX], *p, *eq;
	struct jf_src *s;
	int got;

	r->long_val = -1;
	while (r->depth && !r->failed) {
		s = &r->st[r->depth - 1];
		got = next_line(r, s);
		if (got < 0)
			break;
		if (!got) {
			pop_src(r);
			continue;
		}
		/* fio's strip_blank_end(): a ';' or '#' anywhere ends the line */
		r->line[strcspn(r->line, ";#")] = '\0';
		p = trim(r->line);
		if (!*p)
			continue;
		if (expand(r, p, exp, sizeof(exp)) ||
		    refuse_controls(r, exp, strlen(exp), "once ${} is expanded"))
			break;
		p = exp;
		if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t')) {
			/* fio inserts an include's lines into the section it is in */
			if (!r->jf->n) {
				jf_err(r, "include %s: outside of a [] section (fio reads an "
				       "include inside one)", trim(p + 7));
				break;
			}
			include_file(r, trim(p + 7));
			continue;
		}
		if (*p == '[') {
			if (r->depth > 1) {
				jf_err(r, "no new sections in included files (as fio)");
				break;
			}
			if (new_section(r, p))
				break;
			snprintf(str, (size_t)num, "%s", p);
			return str;
		}
		eq = strchr(p, '=');
		if (eq) {
			*eq = '\0';
			p = trim(p);
			eq = trim(eq + 1);
		}
		if (!*p) {
			jf_err(r, "a line must be 'key=value', 'key' or '[section]'");
			break;
		}
		if (snprintf(str, (size_t)num, "%s=%s", p, eq ? eq : "") >= num) {
			char **v = realloc(r->longv, (size_t)(r->nlong + 1) * sizeof(*v));

			if (!v) {
				jf_err(r, "out of memory");
				break;
			}
			r->longv = v;
			r->longv[r->nlong] = xstrdup(r, eq ? eq : "");
			if (!r->longv[r->nlong])
				break;
			r->long_val = r->nlong++;
			if (snprintf(str, (size_t)num, "%s=", p) >= num) {
				jf_err(r, "an option name that long is no option");
				break;
			}
		}
		return str;
	}
	return NULL;
}

/* inih's handler: one key of the last section the reader saw */
static int jf_handler(void *user, const char *section, const char *name, const char *value)
{
	struct jf_reader *r = user;
	struct ssl_jobfile_section *s;
	struct ssl_jobfile_opt *o;

	(void)section;
	if (r->failed)
		return 0;
	if (!r->jf->n) {
		jf_err(r, "'%s' comes before any [section]", name);
		return 0;
	}
	/* the value of a long line is the reader's, not in inih's line */
	if (r->long_val >= 0 && r->long_val < r->nlong)
		value = r->longv[r->long_val];
	r->long_val = -1;
	s = &r->jf->s[r->jf->n - 1];
	o = realloc(s->o, (size_t)(s->n + 1) * sizeof(*o));
	if (!o) {
		jf_err(r, "out of memory");
		return 0;
	}
	s->o = o;
	o = &s->o[s->n++];
	o->key = xstrdup(r, name);
	o->val = xstrdup(r, value);
	o->where = xstrdup(r, r->where);
	o->global = s->global;
	return !r->failed;
}

int ssl_jobfile_load(const char *path, struct ssl_jobfile *jf)
{
	struct jf_reader r;
	int err, i;

	memset(jf, 0, sizeof(*jf));
	memset(&r, 0, sizeof(r));
	r.jf = jf;
	jf->path = strdup(path);
	if (!jf->path) {
		ssl_err("out of memory");
		return -1;
	}
	if (push_src(&r, path))
		goto out_free;
	err = ini_parse_stream(jf_read, &r, jf_handler, &r);
	if (err > 0 && !r.failed)	/* inih's own complaint: not known which line */
		ssl_err("%s: line %d is not valid INI", r.where, err);
	if (err && !r.failed)
		r.failed = 1;
	if (!r.failed && !ssl_jobfile_jobs(jf)) {
		ssl_err("%s: no job section (only [global])", path);
		r.failed = 1;
	}
out_free:
	while (r.depth)
		pop_src(&r);
	for (i = 0; i < r.nlong; i++)
		free(r.longv[i]);
	free(r.longv);
	free(r.line);
	if (r.failed) {
		ssl_jobfile_free(jf);
		return -1;
	}
	return 0;
}

void ssl_jobfile_free(struct ssl_jobfile *jf)
{
	int i, k;

	for (i = 0; i < jf->n; i++) {
		for (k = 0; k < jf->s[i].n; k++) {
			free(jf->s[i].o[k].key);
			free(jf->s[i].o[k].val);
			free(jf->s[i].o[k].where);
		}
		free(jf->s[i].o);
		free(jf->s[i].name);
		free(jf->s[i].where);
	}
	free(jf->s);
	free(jf->path);
	memset(jf, 0, sizeof(*jf));
}

int ssl_jobfile_jobs(const struct ssl_jobfile *jf)
{
	int i, n = 0;

	for (i = 0; i < jf->n; i++)
		n += !jf->s[i].global;
	return n;
}

const struct ssl_jobfile_section *ssl_jobfile_job(const struct ssl_jobfile *jf,
						  const char *name)
{
	const struct ssl_jobfile_section *job = NULL;
	int i, jobs = ssl_jobfile_jobs(jf);

	for (i = 0; i < jf->n && !job; i++)
		if (!jf->s[i].global && (!name || !strcmp(jf->s[i].name, name)))
			job = &jf->s[i];
	if (!job) {
		ssl_err("%s: --section=%s: no such job section", jf->path, name);
		return NULL;
	}
	if (jobs > 1 && !name) {
		ssl_err("%s: %d job sections: ssdload runs one job; choose it with "
			"--section=NAME ([%s] is at %s)", jf->path, jobs, job->name, job->where);
		return NULL;
	}
	return job;
}

int ssl_jobfile_each(const struct ssl_jobfile *jf, const struct ssl_jobfile_section *job,
		     int (*fn)(void *ctx, const struct ssl_jobfile_opt *o), void *ctx)
{
	const struct ssl_jobfile_section *s;
	int k, r;

	for (s = jf->s; s <= job; s++) {
		if (!s->global && s != job)
			continue;
		for (k = 0; k < s->n; k++) {
			r = fn(ctx, &s->o[k]);
			if (r)
				return r;
		}
	}
	return 0;
}

/* the options that order a file's jobs, and the job's name */
enum { PLAN_STONEWALL = 1, PLAN_NEW_GROUP, PLAN_WAIT_FOR, PLAN_NAME };

static const struct ssl_opt plan_opts[] = {
	{ "stonewall",		SSL_ARG_FLAG, PLAN_STONEWALL },
	{ "new_group",		SSL_ARG_FLAG, PLAN_NEW_GROUP },
	{ "wait_for",		SSL_ARG_REQUIRED, PLAN_WAIT_FOR },
	{ "name",		SSL_ARG_REQUIRED, PLAN_NAME },
	{ NULL, 0, 0 },
};

/* what a job's options (its [global]s', then its own) say of its order */
struct plan_job {
	int stonewall, new_group;
	const struct ssl_jobfile_opt *wait_for;	/* NULL: none */
	const char *name;
};

static int plan_opt(void *ctx, const struct ssl_jobfile_opt *o)
{
	const struct ssl_opt *opt = ssl_find_opt(plan_opts, o->key, strlen(o->key));
	struct plan_job *pj = ctx;
	int b = 1;

	if (!opt)
		return 0;
	switch (opt->id) {
	case PLAN_STONEWALL:
	case PLAN_NEW_GROUP:
		if (*o->val && ssl_parse_bool(o->val, &b)) {
			ssl_err("%s: %s=%s: must be 0 or 1", o->where, o->key, o->val);
			return -1;
		}
		if (opt->id == PLAN_STONEWALL)
			pj->stonewall = b;
		else
			pj->new_group = b;
		break;
	case PLAN_WAIT_FOR:
		pj->wait_for = *o->val ? o : NULL;
		break;
	case PLAN_NAME:
		pj->name = o->val;
		break;
	}
	return 0;
}

/*
 * wait_for=@o->val of job @k: fio waits for the job of that name defined
 * before (no forward reference), and skips the job itself.  Held when
 * that job is of an earlier set; one of the same set would start with it.
 */
static int plan_wait(const struct ssl_jobfile *jf, const struct ssl_jobfile_plan *p, int n,
		     int k, const struct ssl_jobfile_opt *o)
{
	int i, before = -1, after = -1;

	if (!strcmp(o->val, p[k].name))
		return 0;
	for (i = 0; i < n; i++) {
		if (strcmp(p[i].name, o->val))
			continue;
		if (i < k)
			before = i;
		else if (after < 0)
			after = i;
	}
	if (before >= 0 && p[before].set < p[k].set)
		return 0;
	if (before >= 0)
		ssl_err("%s: wait_for=%s: [%s] starts together with [%s] (no stonewall "
			"between them), and ssdload starts the jobs between two stonewalls "
			"at once: give [%s] stonewall to run it after every job before it",
			o->where, o->val, p[before].s->name, p[k].s->name, p[k].s->name);
	else if (after >= 0)
		ssl_err("%s: wait_for=%s: [%s] comes after [%s]: a job waits only for one "
			"defined before it (as in fio)", o->where, o->val, p[after].s->name,
			p[k].s->name);
	else
		ssl_err("%s: wait_for=%s: no job of %s is named %s", o->where, o->val,
			jf->path, o->val);
	return -1;
}

int ssl_jobfile_plan(const struct ssl_jobfile *jf, struct ssl_jobfile_plan **plan, int *n)
{
	int i, k, nj = 0, group_jobs = 0, jobs = ssl_jobfile_jobs(jf);
	const struct ssl_jobfile_opt **wait;
	unsigned int set = 0, groupid = 0;
	struct ssl_jobfile_plan *p;

	p = calloc((size_t)jobs + 1, sizeof(*p));
	wait = calloc((size_t)jobs + 1, sizeof(*wait));
	if (!p || !wait) {
		ssl_err("out of memory");
		goto fail;
	}
	for (i = 0; i < jf->n; i++) {
		struct plan_job pj;

		if (jf->s[i].global)
			continue;
		memset(&pj, 0, sizeof(pj));
		if (ssl_jobfile_each(jf, &jf->s[i], plan_opt, &pj))
			goto fail;
		/* fio: a stonewall waits for every job started before it */
		if (pj.stonewall && nj)
			set++;
		if ((pj.stonewall || pj.new_group) && group_jobs) {
			groupid++;
			group_jobs = 0;
		}
		group_jobs++;
		p[nj].s = &jf->s[i];
		p[nj].name = pj.name ? pj.name : jf->s[i].name;
		p[nj].set = set;
		p[nj].groupid = groupid;
		wait[nj++] = pj.wait_for;
	}
	for (k = 0; k < nj; k++)
		if (wait[k] && plan_wait(jf, p, nj, k, wait[k]))
			goto fail;
	free(wait);
	*plan = p;
	*n = nj;
	return 0;
fail:
	free(wait);
	free(p);
	return -1;
}

int ssl_profile_dir(char *dir, size_t len)
{
	return ssl_data_path("SSDLOAD_PROFILES", "profiles", R_OK | X_OK, dir, len);
}

int ssl_profile_path(const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != strlen(name) ||
	    name[0] == '.')
		return -1;
	if (ssl_profile_dir(dir, sizeof(dir)))
		return -1;
	if (snprintf(buf, len, "%s/%s.fio", dir, name) >= (int)len)
		return -1;
	return access(buf, R_OK) ? -1 : 0;
}
