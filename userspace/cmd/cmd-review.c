// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload review PLAN --filename=DEV: a published review as one command,
 * its steps from a plan file (methods/review.c), each run through the
 * command table.  The options here; Documentation/review.rst.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "core/options.h"
#include "methods/review.h"

static const char *const review_usage[] = {
	"usage: ssdload review PLAN --filename=DEV [--allow_write] [options]",
	"       ssdload review --resume=DIR [--filename=DEV] [--allow_write]",
	"       ssdload review --list",
	"",
	"Run a published review as one command: the steps of PLAN (a plan file, or",
	"the name of a shipped plan, see --list) in order, each an ssdload command",
	"([purge], [precondition], [sweep], [curve], [run], [latency-grid], [scale],",
	"[compare], [pts] sections, see Documentation/review.rst), its results in",
	"DIR/NN-STEP/; DIR/plan.json records the plan, the overrides, the device,",
	"the versions and each step's command line, state and times; DIR/report.html",
	"is the report: a cover page, then each step's own report.",
	"",
	"  --filename=DEV        the device under test",
	"  --allow_write         let the steps that write destroy DEV's data (the",
	"                        plan is refused without it when one does)",
	"  --force               destroy DEV even if it holds a filesystem, partition",
	"                        table, LVM, RAID or swap signature",
	"  --scale=full|quick    full (default): the plan as written; quick: every",
	"                        step shrunk to seconds (runtimes of 1-2 s, no ramp,",
	"                        lists cut to their first and last value, 64 MiB spans",
	"                        for fills and pts, pts points of 200 ms), a check of",
	"                        the plan, not a result",
	"  --set STEP.KEY=VALUE  override a key the plan sets, or add an option the",
	"                        step's command takes (repeatable); STEP is a",
	"                        section ([sweep:read]: sweep:read) or a kind only one",
	"                        section has",
	"  --output-dir=DIR      where results go (default review-YYYYmmdd-HHMMSS);",
	"                        -o DIR is the same",
	"  --dry-run             print each step, its command line, its estimated time",
	"                        and what it destroys, and the device's identity and",
	"                        signatures; write nothing",
	"  --resume=DIR          continue the review of DIR: the steps done are",
	"                        skipped, an interrupted one runs again (its partial",
	"                        results set aside in NN-STEP.partial); refused on",
	"                        another device",
	"  --list                the shipped plans, with their length at full scale",
	"                        and at --scale=quick",
	"  --no-report           do not render report.html (ssdload report DIR does)",
	"",
	"Exit status: 0 done, 1 a step failed, 2 bad usage, a bad plan or a refusal",
	"(nothing written), 128+N after signal N (resume it).",
	NULL,
};

enum { R_FILENAME, R_ALLOW_WRITE, R_FORCE, R_SCALE, R_SET, R_OUTPUT_DIR, R_DRY_RUN,
       R_RESUME, R_LIST, R_NO_REPORT };

static const struct ssl_opt review_opts[] = {
	{ "filename",	SSL_ARG_REQUIRED, R_FILENAME },
	{ "allow_write", SSL_ARG_FLAG,	R_ALLOW_WRITE },
	{ "force",	SSL_ARG_FLAG,	R_FORCE },
	{ "scale",	SSL_ARG_REQUIRED, R_SCALE },
	{ "set",	SSL_ARG_REQUIRED, R_SET },
	{ "output-dir",	SSL_ARG_REQUIRED, R_OUTPUT_DIR },
	{ "o",		SSL_ARG_REQUIRED, R_OUTPUT_DIR },	/* -o DIR */
	{ "dry-run",	SSL_ARG_FLAG,	R_DRY_RUN },
	{ "resume",	SSL_ARG_REQUIRED, R_RESUME },
	{ "list",	SSL_ARG_FLAG,	R_LIST },
	{ "no-report",	SSL_ARG_FLAG,	R_NO_REPORT },
	{ NULL, 0, 0 },
};

#define REVIEW_MAX_SETS	32

struct review_args {
	struct ssl_review_opts o;
	const char *plan, *scale;
	const char *sets[REVIEW_MAX_SETS];
	int nsets, list;
	json_object *rdoc;	/* --resume's plan.json: its strings are used */
};

static int flag(const char *val)
{
	return !val || strcmp(val, "0");
}

static int review_opt(struct review_args *c, const struct ssl_opt *opt, const char *val)
{
	switch (opt->id) {
	case R_FILENAME:
		c->o.filename = val;
		break;
	case R_ALLOW_WRITE:
		c->o.allow_write = flag(val);
		break;
	case R_FORCE:
		c->o.force = flag(val);
		break;
	case R_SCALE:
		if (strcmp(val, "full") && strcmp(val, "quick")) {
			ssl_err("review: --scale=%s: full or quick", val);
			return -1;
		}
		c->scale = val;
		break;
	case R_SET:
		if (c->nsets == REVIEW_MAX_SETS) {
			ssl_err("review: at most %d --set", REVIEW_MAX_SETS);
			return -1;
		}
		c->sets[c->nsets++] = val;
		break;
	case R_OUTPUT_DIR:
		c->o.outdir = val;
		break;
	case R_DRY_RUN:
		c->o.dry_run = flag(val);
		break;
	case R_RESUME:
		c->o.resume = val;
		break;
	case R_LIST:
		c->list = flag(val);
		break;
	case R_NO_REPORT:
		c->o.no_report = flag(val);
		break;
	}
	return 0;
}

static int review_parse(struct review_args *c, int argc, const char **argv)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, dashdash = 0, r;

	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, review_opts, &opt, &val, &dashdash);
		if (r < 0)
			return -1;
		if (r == 2) {
			ssl_usage(stdout, review_usage);
			return 1;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			if (c->plan) {
				ssl_err("review: one PLAN (%s, then %s)", c->plan, argv[i - 1]);
				return -1;
			}
			c->plan = argv[i - 1];
			continue;
		}
		if (review_opt(c, opt, val))
			return -1;
	}
	return 0;
}

/*
 * --resume=DIR: the plan's text, scale, overrides and device as DIR's
 * plan.json recorded them (the plan file may have changed since).
 */
static json_object *resume_args(struct review_args *c, char **text, const char **path)
{
	char file[PATH_MAX];
	json_object *doc, *plan, *ov;
	size_t i;
	int err;

	snprintf(file, sizeof(file), "%s/plan.json", c->o.resume);
	doc = ssl_json_read(file, 64 << 20, &err);
	plan = jget(doc, "plan");
	if (!plan || !jstring(plan, "text")[0]) {
		ssl_err("review: --resume=%s: %s is not the plan.json of a review",
			c->o.resume, file);
		json_object_put(doc);
		return NULL;
	}
	*text = strdup(jstring(plan, "text"));
	*path = jstring(plan, "path");
	if (!c->scale)
		c->scale = jstring(plan, "scale");
	ov = jget(plan, "overrides");
	for (i = 0; ov && i < json_object_array_length(ov); i++)
		if (c->nsets < REVIEW_MAX_SETS)
			c->sets[c->nsets++] = json_object_get_string(
				json_object_array_get_idx(ov, i));
	if (!c->o.filename)
		c->o.filename = jstring(jget(doc, "device"), "path");
	return doc;
}

static int review_load(struct review_args *c, struct ssl_review_plan *p)
{
	char path[PATH_MAX], *text = NULL;
	const char *rpath;
	int i, r;

	if (c->o.resume) {
		c->rdoc = resume_args(c, &text, &rpath);
		if (!c->rdoc)
			return -1;
		r = text ? ssl_review_load_text(rpath, text, ssl_cmd_find, p) : -1;
		free(text);
	} else {
		r = ssl_review_plan_path(c->plan, path, sizeof(path)) ? -1 :
		    ssl_review_load(path, ssl_cmd_find, p);
	}
	if (r)
		return r;
	for (i = 0; !r && i < c->nsets; i++)
		r = ssl_review_set(p, c->sets[i]);
	if (!r && c->scale && !strcmp(c->scale, "quick"))
		r = ssl_review_quicken(p);
	if (r)
		ssl_review_free(p);
	return r;
}

int cmd_review(int argc, const char **argv)
{
	struct review_args c;
	struct ssl_review_plan p;
	int r;

	memset(&c, 0, sizeof(c));
	r = review_parse(&c, argc, argv);
	if (r)
		return r > 0 ? 0 : 2;
	if (c.list)
		return ssl_review_list(ssl_cmd_find);
	if (!c.plan == !c.o.resume) {
		ssl_err("review: give a PLAN or --resume=DIR (see ssdload review --help)");
		return 2;
	}
	if (review_load(&c, &p)) {
		json_object_put(c.rdoc);
		return 2;
	}
	if (!c.o.filename) {
		ssl_err("review: --filename=DEV is required");
		r = 2;
		goto out_free;
	}
	c.o.command = ssl_join_args(argc, argv);
	r = c.o.dry_run ? ssl_review_dry_run(&p, &c.o) : ssl_review_run(&p, &c.o);
	free((char *)c.o.command);
out_free:
	ssl_review_free(&p);
	json_object_put(c.rdoc);
	return r;
}
