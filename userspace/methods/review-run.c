// SPDX-License-Identifier: GPL-2.0
/*
 * Running a review plan: the steps in order, each through its command's
 * cmd_* function, one results directory with plan.json (the provenance),
 * --resume, --dry-run and --list.  See review.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "device/device.h"
#include "device/guard.h"
#include "methods/render.h"
#include "methods/review.h"

#define REVIEW_FORMAT		"ssdload-review"
#define REVIEW_FORMAT_VERSION	1

int ssl_review_plan_dir(char *dir, size_t len)
{
	return ssl_data_path("SSDLOAD_PLANS", "plans", R_OK | X_OK, dir, len);
}

int ssl_review_plan_path(const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX + 128];
	size_t n = strlen(name);

	if (strchr(name, '/') || (n > 4 && !strcmp(name + n - 4, ".ini"))) {
		snprintf(buf, len, "%s", name);
		return 0;
	}
	if (ssl_review_plan_dir(dir, sizeof(dir))) {
		ssl_err("review: %s: no such shipped plan (the plans folder is not "
			"installed; set SSDLOAD_PLANS)", name);
		return -1;
	}
	snprintf(buf, len, "%s/%s.ini", dir, name);
	if (access(buf, R_OK)) {
		ssl_err("review: %s: no such shipped plan (see ssdload review --list)", name);
		return -1;
	}
	return 0;
}

static void dev_json(json_object *doc, const struct ssl_dev *d)
{
	json_object *o = ssl_dev_json(d, d->path);

	jset(o, "write_cache", json_object_new_string(ssl_wc_name(d->wc)));
	jset(doc, "device", o);
}

static char *argv_line(const struct ssl_argv *a)
{
	return ssl_join_args(a->n, (const char **)a->v);
}

static json_object *plan_json(const struct ssl_review_plan *p)
{
	json_object *o = json_object_new_object(), *m = json_object_new_object();
	int i;

	jset(o, "path", json_object_new_string(p->path));
	for (i = 0; i < p->nmeta; i++)
		jset(m, p->meta[i].key, json_object_new_string(p->meta[i].val));
	jset(o, "meta", m);
	jset(o, "scale", json_object_new_string(p->quick ? "quick" : "full"));
	jset(o, "overrides", json_object_get(p->overrides));
	jset(o, "text", json_object_new_string(p->text));
	return o;
}

/* plan.json of a new run: its steps pending */
static json_object *new_doc(const struct ssl_review_plan *p, const struct ssl_review_opts *o,
			    const struct ssl_dev *d, const char *outdir)
{
	json_object *doc = ssl_doc_head(REVIEW_FORMAT, REVIEW_FORMAT_VERSION, o->command);
	json_object *steps = json_object_new_array(), *s;
	struct ssl_argv a;
	char *line, why[256];
	int i, skip;

	jset(doc, "plan", plan_json(p));
	dev_json(doc, d);
	for (i = 0; i < p->nsteps; i++) {
		skip = ssl_review_skip(p, &p->step[i], d->path, why, sizeof(why));
		s = json_object_new_object();
		jset(s, "section", json_object_new_string(p->step[i].section));
		jset(s, "kind", json_object_new_string(p->step[i].kind));
		jset(s, "command", json_object_new_string(p->step[i].cmd));
		jset(s, "chart", jstr_or_null(p->step[i].chart));
		jset(s, "dir", json_object_new_string(p->step[i].dirname));
		line = ssl_review_argv(p, &p->step[i], d->path, outdir, o->allow_write, &a) ?
		       NULL : argv_line(&a);
		av_free(&a);
		jset(s, "argv", jstr_or_null(line ? line : ""));
		free(line);
		jset(s, "estimate_s", json_object_new_int64(skip ? 0 :
			(int64_t)ssl_review_estimate(&p->step[i], d->capacity_bytes)));
		jset(s, "destroys", jstr_or_null(ssl_review_destroys(&p->step[i])));
		jset(s, "state", json_object_new_string("pending"));
		jset(s, "skip_reason", skip ? json_object_new_string(why) : NULL);
		jset(s, "status", NULL);
		jset(s, "started", NULL);
		jset(s, "finished", NULL);
		json_object_array_add(steps, s);
	}
	jset(doc, "steps", steps);
	jset(doc, "resumed", json_object_new_array());
	return doc;
}

static int save(json_object *doc, const char *outdir)
{
	char path[PATH_MAX];

	if (ssl_dir_path("review", outdir, "plan.json", path, sizeof(path)) ||
	    json_save(doc, path)) {
		ssl_err("review: %s: cannot write plan.json", outdir);
		return -1;
	}
	return 0;
}

/* the steps of @p that destroy data on @dev, as one line, into @buf; 0 if none */
static int destroyers(const struct ssl_review_plan *p, const char *dev, char *buf,
		      size_t len)
{
	char why[256];
	size_t n = 0;
	int i, c = 0;

	buf[0] = '\0';
	for (i = 0; i < p->nsteps; i++)
		if (ssl_review_destroys(&p->step[i])[0] && n < len &&
		    !ssl_review_skip(p, &p->step[i], dev, why, sizeof(why))) {
			n += (size_t)snprintf(buf + n, len - n, "%s[%s]", c++ ? ", " : "",
					      p->step[i].section);
		}
	return c;
}

/* The guard of the whole plan, before its first step: 0 or -1 refused */
static int guard(const struct ssl_review_plan *p, const struct ssl_review_opts *o,
		 const struct ssl_dev *d)
{
	char what[512];
	int fd, r;

	if (!destroyers(p, o->filename, what, sizeof(what)))
		return 0;
	if (!o->allow_write) {
		ssl_err("review: the steps %s write to %s: --allow_write to let them "
			"(its data is destroyed)", what, o->filename);
		return -1;
	}
	fd = ssl_dev_open_excl(d, 1);
	if (fd < 0)
		return -1;
	r = ssl_guard(d, fd, o->force, 0);
	close(fd);
	return r;
}

/* a step's directory left by an interrupted run: kept aside, as .partial */
static void set_aside(const char *outdir, const struct ssl_review_step *s)
{
	char path[PATH_MAX + 128], aside[PATH_MAX + 144];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", outdir, s->dirname);
	if (stat(path, &st))
		return;
	snprintf(aside, sizeof(aside), "%s.partial", path);
	if (!access(aside, F_OK)) {
		ssl_err("review: %s exists: remove it to resume (an earlier "
			"interrupted %s)", aside, s->section);
		return;
	}
	if (rename(path, aside))
		ssl_err("review: cannot set %s aside: %s", path, strerror(errno));
	else
		fprintf(stderr, "ssdload: review: %s was interrupted: its partial results "
			"are in %s\n", s->section, aside);
}

static void progress(const struct ssl_review_plan *p, json_object *steps, int i,
		     uint64_t t0)
{
	uint64_t left = 0, el = (ssl_now_ms() - t0) / 1000;
	char eta[32], elapsed[32];
	int j;

	for (j = i; j < p->nsteps; j++)
		left += (uint64_t)jnum(json_object_array_get_idx(steps, (size_t)j),
				       "estimate_s", 0);
	ssl_eta_str(eta, sizeof(eta), left);
	ssl_eta_str(elapsed, sizeof(elapsed), el);
	fprintf(stderr, "ssdload: review: step %d/%d [%s], elapsed %s, plan ETA %s\n",
		i + 1, p->nsteps, p->step[i].section, elapsed, eta);
}

/* Step @i: its directory, its command, its state in @doc; the exit status */
static int run_step(struct ssl_review_plan *p, const struct ssl_review_opts *o,
		    json_object *doc, const char *outdir, int i)
{
	struct ssl_review_step *s = &p->step[i];
	json_object *js = json_object_array_get_idx(jget(doc, "steps"), (size_t)i);
	ssl_cmd_fn fn = p->lookup(s->cmd);
	char dir[PATH_MAX + 128];
	struct ssl_argv a;
	int st, saved;

	set_aside(outdir, s);
	snprintf(dir, sizeof(dir), "%s/%s", outdir, s->dirname);
	if (ssl_review_argv(p, s, o->filename, outdir, o->allow_write, &a))
		return 2;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ssl_err("review: %s: %s", dir, strerror(errno));
		av_free(&a);
		return 1;
	}
	jset(js, "state", json_object_new_string("running"));
	jset(js, "started", jnow());
	if (save(doc, outdir)) {
		av_free(&a);
		return 1;
	}
	/* a command may point stdout elsewhere (run --output=FILE): put it back */
	fflush(stdout);
	saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	st = fn(a.n, a.v);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	av_free(&a);
	jset(js, "status", json_object_new_int(st));
	jset(js, "finished", jnow());
	/* pts: 1 is "steady state not reached", a complete result */
	jset(js, "state", json_object_new_string(
		!st || (st == 1 && !strcmp(s->cmd, "pts")) ? "done" :
		st >= 128 ? "interrupted" : "failed"));
	return st == 1 && !strcmp(s->cmd, "pts") ? 0 : st;
}

/* a resumed run: its plan.json, the same device; NULL after a message */
static json_object *resume_doc(const struct ssl_review_opts *o, const struct ssl_dev *d)
{
	char path[PATH_MAX];
	struct ssl_dev was;
	json_object *doc, *ev;
	int err;

	snprintf(path, sizeof(path), "%s/plan.json", o->resume);
	doc = ssl_json_read(path, 64 << 20, &err);
	if (!doc || strcmp(jstring(doc, "format"), REVIEW_FORMAT)) {
		ssl_err("review: --resume=%s: %s is not the plan.json of a review", o->resume,
			path);
		json_object_put(doc);
		return NULL;
	}
	ssl_dev_recorded(jget(doc, "device"), &was);
	snprintf(path, sizeof(path), "review: --resume=%s", o->resume);
	if (ssl_dev_check_same(&was, d, path)) {
		json_object_put(doc);
		return NULL;
	}
	ev = json_object_new_object();
	jset(ev, "at", jnow());
	jset(ev, "command", json_object_new_string(o->command));
	json_object_array_add(jget(doc, "resumed"), ev);
	jset(doc, "state", json_object_new_string("running"));
	return doc;
}

/*
 * Step @i skipped on @dev (its needs-devices=): said, and recorded in @doc;
 * 1, or 0 if it runs.  A resumed run asks again (its --set are the same).
 */
static int skipped(struct ssl_review_plan *p, json_object *doc, const char *dev, int i)
{
	json_object *js = json_object_array_get_idx(jget(doc, "steps"), (size_t)i);
	char why[256];

	if (!ssl_review_skip(p, &p->step[i], dev, why, sizeof(why)))
		return 0;
	fprintf(stderr, "ssdload: review: step %d/%d [%s] skipped: %s\n", i + 1, p->nsteps,
		p->step[i].section, why);
	jset(js, "state", json_object_new_string("skipped"));
	jset(js, "skip_reason", json_object_new_string(why));
	return 1;
}

static int step_done(json_object *doc, int i)
{
	json_object *s = json_object_array_get_idx(jget(doc, "steps"), (size_t)i);

	return !strcmp(jstring(s, "state"), "done");
}

static int run_steps(struct ssl_review_plan *p, const struct ssl_review_opts *o,
		     json_object *doc, const char *outdir)
{
	uint64_t t0 = ssl_now_ms();
	int i, st;

	for (i = 0; i < p->nsteps; i++) {
		if (step_done(doc, i)) {
			fprintf(stderr, "ssdload: review: step %d/%d [%s] is done already\n",
				i + 1, p->nsteps, p->step[i].section);
			continue;
		}
		if (skipped(p, doc, o->filename, i)) {
			if (save(doc, outdir))
				return 1;
			continue;
		}
		progress(p, jget(doc, "steps"), i, t0);
		st = run_step(p, o, doc, outdir, i);
		if (save(doc, outdir))
			return 1;
		if (st >= 128) {
			jset(doc, "state", json_object_new_string("interrupted"));
			save(doc, outdir);
			fprintf(stderr, "ssdload: review: interrupted in [%s]; continue with "
				"ssdload review --resume=%s\n", p->step[i].section, outdir);
			return st;
		}
		if (st) {
			jset(doc, "state", json_object_new_string("failed"));
			save(doc, outdir);
			ssl_err("review: [%s] failed (exit status %d); after fixing it, "
				"continue with ssdload review --resume=%s", p->step[i].section,
				st, outdir);
			return 1;
		}
	}
	return 0;
}

int ssl_review_run(struct ssl_review_plan *p, const struct ssl_review_opts *o)
{
	char outdir[PATH_MAX];
	struct ssl_dev d;
	json_object *doc;
	bool made;
	int st;

	if (ssl_dev_probe(o->filename, &d) || guard(p, o, &d))
		return 2;
	snprintf(outdir, sizeof(outdir), "%s", o->resume ? o->resume :
		 o->outdir ? o->outdir : "");
	if (o->resume)
		doc = resume_doc(o, &d);
	else if (ssl_make_outdir("review", outdir, sizeof(outdir), "plan.json", &made))
		return 2;
	else
		doc = new_doc(p, o, &d, outdir);
	if (!doc || save(doc, outdir)) {
		json_object_put(doc);
		return 2;
	}
	printf("review: %s, results in %s\n", ssl_review_meta(p, "name"), outdir);
	st = run_steps(p, o, doc, outdir);
	if (!st) {
		jset(doc, "finished", jnow());
		jset(doc, "state", json_object_new_string("done"));
		st = save(doc, outdir) ? 1 : 0;
		if (!st && !o->no_report && ssl_render_report(outdir, 0))
			ssl_err("review: the report of %s was not rendered (ssdload report "
				"%s renders it)", outdir, outdir);
		if (!st)
			printf("review: done: %s/plan.json%s\n", outdir,
			       o->no_report ? "" : ", report.html");
	}
	json_object_put(doc);
	return st;
}

/* ---- --dry-run and --list ---- */

/* the steps' estimates on @dev (NULL: every step, none skipped) */
static uint64_t plan_estimate(const struct ssl_review_plan *p, const char *dev,
			      uint64_t capacity)
{
	char why[256];
	uint64_t t = 0;
	int i;

	for (i = 0; i < p->nsteps; i++)
		if (!ssl_review_skip(p, &p->step[i], dev, why, sizeof(why)))
			t += ssl_review_estimate(&p->step[i], capacity);
	return t;
}

static void dry_device(const struct ssl_review_plan *p, const struct ssl_review_opts *o,
		       struct ssl_dev *d, int *st)
{
	char what[512];
	int fd;

	if (ssl_dev_probe(o->filename, d)) {
		*st = 2;
		return;
	}
	if (!destroyers(p, o->filename, what, sizeof(what))) {
		ssl_dev_identity(d, what, sizeof(what));
		fprintf(stderr, "ssdload: %s: %s; the plan only reads it\n", d->path, what);
		return;
	}
	if (!o->allow_write) {
		ssl_err("review: the steps %s write to %s: the run needs --allow_write",
			what, o->filename);
		*st = 2;
	}
	fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || ssl_guard(d, fd, o->force, 1))
		*st = 2;
	if (fd >= 0)
		close(fd);
}

int ssl_review_dry_run(struct ssl_review_plan *p, const struct ssl_review_opts *o)
{
	const char *outdir = o->resume ? o->resume : o->outdir ? o->outdir : "review-DATE";
	struct ssl_dev d;
	struct ssl_argv a;
	char eta[32], *line, why[256];
	const char *destroys;
	int i, st = 0;

	memset(&d, 0, sizeof(d));
	printf("plan %s (%s), scale %s: %d steps\n", ssl_review_meta(p, "name"), p->path,
	       p->quick ? "quick" : "full", p->nsteps);
	dry_device(p, o, &d, &st);
	for (i = 0; i < p->nsteps; i++) {
		if (ssl_review_skip(p, &p->step[i], o->filename, why, sizeof(why))) {
			printf("%2d. [%s]%s%s\n    skipped: %s\n", i + 1, p->step[i].section,
			       p->step[i].chart ? " chart: " : "", p->step[i].chart ?: "", why);
			continue;
		}
		if (ssl_review_argv(p, &p->step[i], o->filename, outdir, o->allow_write, &a))
			return 2;
		line = argv_line(&a);
		av_free(&a);
		ssl_eta_str(eta, sizeof(eta), ssl_review_estimate(&p->step[i], d.capacity_bytes));
		destroys = ssl_review_destroys(&p->step[i]);
		printf("%2d. [%s]%s%s\n    %s\n    about %s; %s%s\n", i + 1,
		       p->step[i].section, p->step[i].chart ? " chart: " : "",
		       p->step[i].chart ?: "", line ?: "(out of memory)", eta,
		       destroys[0] ? "destroys " : "reads only", destroys);
		free(line);
	}
	ssl_eta_str(eta, sizeof(eta), plan_estimate(p, o->filename, d.capacity_bytes));
	printf("total: about %s%s; dry run: nothing was written\n", eta,
	       d.capacity_bytes ? "" : " (device unknown: fills not counted)");
	return st;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the capacity --list assumes for the fills: 1 TiB */
#define LIST_CAPACITY	(1ULL << 40)

static void list_one(const char *dir, const char *file, ssl_cmd_lookup lookup)
{
	struct ssl_review_plan p;
	char path[PATH_MAX], full[32], quick[32], name[128];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	snprintf(name, sizeof(name), "%.*s", (int)(strlen(file) - 4), file);
	if (ssl_review_load(path, lookup, &p))
		return;
	ssl_eta_str(full, sizeof(full), plan_estimate(&p, NULL, LIST_CAPACITY));
	ssl_review_quicken(&p);
	ssl_eta_str(quick, sizeof(quick), plan_estimate(&p, NULL, LIST_CAPACITY));
	printf("%-28s %2d steps  full %-9s quick %-7s %s\n", name, p.nsteps, full, quick,
	       ssl_review_meta(&p, "title"));
	ssl_review_free(&p);
}

int ssl_review_list(ssl_cmd_lookup lookup)
{
	char dir[PATH_MAX], *names[64];
	struct dirent *e;
	size_t n = 0, i, len;
	DIR *dp;

	if (ssl_review_plan_dir(dir, sizeof(dir)) || !(dp = opendir(dir))) {
		ssl_err("review: the shipped plans are not installed (set SSDLOAD_PLANS)");
		return 1;
	}
	while ((e = readdir(dp)) && n < ARRAY_SIZE(names)) {
		len = strlen(e->d_name);
		if (len > 4 && !strcmp(e->d_name + len - 4, ".ini"))
			names[n++] = strdup(e->d_name);
	}
	closedir(dp);
	qsort(names, n, sizeof(names[0]), cmp_str);
	printf("the shipped plans (%s); lengths estimated for a 1 TiB drive, fills at "
	       "1 GiB/s:\n", dir);
	for (i = 0; i < n; i++) {
		if (names[i])
			list_one(dir, names[i], lookup);
		free(names[i]);
	}
	return 0;
}
