/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Review plans (Documentation/review.rst): a published review as an INI
 * file read through inih, one section per step ([KIND] or [KIND:LABEL],
 * KIND a command of the command table or purge/precondition), each key an
 * option of that command, and a [plan] section of metadata.  review.c
 * reads and checks a plan and builds each step's command line;
 * review-run.c runs the steps, writes plan.json and prints --dry-run and
 * --list.  The commands are reached through a lookup the caller gives
 * (the command table lives in ssdload.c), so any command is a step kind.
 */
#ifndef SSDLOAD_CLI_REVIEW_H
#define SSDLOAD_CLI_REVIEW_H

#include <stdint.h>

#include <json-c/json.h>

#include "methods/runner.h"

typedef int (*ssl_cmd_fn)(int argc, const char **argv);
/* the function of command @name, or NULL */
typedef ssl_cmd_fn (*ssl_cmd_lookup)(const char *name);

#define SSL_REVIEW_MAX_STEPS	32
#define SSL_REVIEW_MAX_KEYS	48

enum ssl_review_from { SSL_KV_PLAN, SSL_KV_QUICK, SSL_KV_SET };

struct ssl_review_kv {
	char *key, *val;
	int line;			/* of the plan file; 0 for --set */
	enum ssl_review_from from;
};

struct ssl_review_step {
	char *section;			/* as written: "sweep:read" */
	char *kind;			/* "sweep" */
	const char *cmd;		/* the command it runs ("pts" for purge) */
	int line;			/* of its [section] header */
	char *chart;			/* its chart= key, or NULL */
	struct ssl_review_kv kv[SSL_REVIEW_MAX_KEYS];
	int nkv;
	char dirname[96];		/* "03-sweep-read" */
};

struct ssl_review_plan {
	char *path;			/* the file as found */
	char *text;			/* its whole text */
	struct ssl_review_kv meta[SSL_REVIEW_MAX_KEYS];	/* [plan] */
	int nmeta;
	int meta_line;			/* of [plan] */
	struct ssl_review_step step[SSL_REVIEW_MAX_STEPS];
	int nsteps;
	int quick;			/* --scale=quick applied */
	json_object *overrides;		/* the --set given, as strings */
	ssl_cmd_lookup lookup;
};

/* The shipped plans' folder ($SSDLOAD_PLANS, plans/ by the binary, DATADIR) */
int ssl_review_plan_dir(char *dir, size_t len);
/* @name: a path (holds '/' or ends in .ini), else a shipped plan's name */
int ssl_review_plan_path(const char *name, char *buf, size_t len);

/*
 * Read and check @path: sections, keys (each an option of its step's
 * command, from that command's --help), values as far as the plan can
 * tell.  Errors name FILE:LINE.  0, or -1 after a message.
 */
int ssl_review_load(const char *path, ssl_cmd_lookup lookup, struct ssl_review_plan *p);
/* A plan from its @text (a resumed run's copy); @path for the messages. */
int ssl_review_load_text(const char *path, const char *text, ssl_cmd_lookup lookup,
			 struct ssl_review_plan *p);
void ssl_review_free(struct ssl_review_plan *p);

/*
 * --set STEP.KEY=VALUE: STEP a section, or a kind that only one section
 * has; KEY one the step sets, or an option its command takes (added)
 */
int ssl_review_set(struct ssl_review_plan *p, const char *spec);
/* --scale=quick: the shrinking of review.c's quick table, step by step */
int ssl_review_quicken(struct ssl_review_plan *p);
/* The value of @key in @p's [plan] ("" if absent) */
const char *ssl_review_meta(const struct ssl_review_plan *p, const char *key);

/*
 * The command line of step @s: its command, the device (@filename), its
 * keys as --key=value, its output in @stepdir, --allow_write when
 * @allow_write.  0, or -1 after a message.
 */
int ssl_review_argv(const struct ssl_review_plan *p, const struct ssl_review_step *s,
		    const char *filename, const char *outdir, int allow_write,
		    struct ssl_argv *a);
/*
 * Whether step @s is skipped on DEV @filename: its needs-devices=N and
 * fewer drives given; 1 with the reason in @why, else 0.
 */
int ssl_review_skip(const struct ssl_review_plan *p, const struct ssl_review_step *s,
		    const char *filename, char *why, size_t len);
/* Estimated seconds of step @s on a device of @capacity bytes */
uint64_t ssl_review_estimate(const struct ssl_review_step *s, uint64_t capacity);
/* Whether step @s writes to the device: "" reads only, else what it destroys */
const char *ssl_review_destroys(const struct ssl_review_step *s);

/* review-run.c */
struct ssl_review_opts {
	const char *filename, *outdir, *resume;
	int allow_write, dry_run, force, no_report;
	const char *command;		/* the review's own command line */
};
int ssl_review_run(struct ssl_review_plan *p, const struct ssl_review_opts *o);
int ssl_review_dry_run(struct ssl_review_plan *p, const struct ssl_review_opts *o);
int ssl_review_list(ssl_cmd_lookup lookup);

#endif /* SSDLOAD_CLI_REVIEW_H */
