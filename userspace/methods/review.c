// SPDX-License-Identifier: GPL-2.0
/*
 * Review plans: reading and checking a plan, --set, --scale=quick, and
 * each step's command line, estimate and what it destroys.  See review.h
 * and Documentation/review.rst.
 */
#include <ctype.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "core/options.h"
#include "core/util.h"
#include "methods/review.h"

enum { DEV_FILENAME, DEV_DEVICES, DEV_NONE };
enum { OUT_DIR, OUT_RUN_JSON, OUT_NONE };

/*
 * The step kinds that need more than "the command of that name, on
 * --filename=DEV, its results in --output-dir": every other command of
 * the command table is a step kind as it is.  @quick is what --scale=quick
 * sets (each key only where the command takes it; ?KEY only where the
 * plan sets it), @lists the list keys it cuts to their first and last
 * values.
 */
struct step_kind {
	const char *kind;
	const char *cmd, *sub;		/* the command and its first word */
	const char *posarg;		/* key whose words are positional */
	int pos_first;			/* 1: right after the command, required;
					 * 2: right after it, optional; 0: last */
	int dev, out;
	int writes;			/* 1: always destroys DEV's data */
	const char *quick, *lists;
};

static const struct step_kind kinds[] = {
	{ "purge", "pts", "purge", NULL, 0, DEV_FILENAME, OUT_NONE, 1, "", "" },
	{ "precondition", "precondition", NULL, NULL, 0, DEV_FILENAME, OUT_DIR, 1,
	  "", "" },
	{ "sweep", "sweep", NULL, NULL, 0, DEV_FILENAME, OUT_DIR, 0,
	  "ramp_time=0 runtime=1s", "qd-list workers" },
	{ "curve", "curve", NULL, NULL, 0, DEV_FILENAME, OUT_DIR, 0,
	  "ramp_time=0 runtime=1s", "curve" },
	{ "scale", "scale", NULL, NULL, 0, DEV_DEVICES, OUT_DIR, 0,
	  "ramp_time=0 runtime=1s", "qd-list counts" },
	{ "run", "run", NULL, "jobfile", 2, DEV_FILENAME, OUT_RUN_JSON, 0,
	  "ramp_time=0 runtime=2s", "" },
	{ "latency-grid", "latency-grid", NULL, NULL, 0, DEV_FILENAME, OUT_DIR, 0,
	  "ramp_time=0 runtime=1s", "" },
	{ "pts", "pts", NULL, "test", 1, DEV_FILENAME, OUT_DIR, 1,
	  "point-time=200ms size=64m wipc=0.25 ?rounds=5", "tc-list qd-list" },
	{ "compare", "compare", NULL, "runs", 0, DEV_NONE, OUT_DIR, 0, "", "" },
};

static const struct step_kind generic = {
	NULL, NULL, NULL, NULL, 0, DEV_FILENAME, OUT_DIR, 0, "", ""
};

/*
 * [precondition] while this build has no `ssdload precondition`: one
 * `ssdload run` of sequential or random writes over the device, from the
 * key precondition=fill|seq128k:N|random:N (the syntax of the methods'
 * --precondition).  This is the only place that knows it.
 */
static const struct step_kind precond_by_run = {
	"precondition", "run", NULL, NULL, 0, DEV_FILENAME, OUT_RUN_JSON, 1, "size=64m", ""
};
#define PRECOND_KEY	"precondition"
/* what --scale=quick limits a step's own preconditioning to */
#define QUICK_PC_SPAN_KEY	"precondition-span"
#define QUICK_PC_SPAN		"64m"
/* a step of --devices runs only when they are this many or more */
#define NEEDS_KEY	"needs-devices"
#define NEEDS_MAX	16

/* keys every step takes that are not passed to its command */
static int review_key(const char *k)
{
	return !strcmp(k, "chart") || !strcmp(k, NEEDS_KEY);
}

static const struct step_kind *kind_of(const char *kind, ssl_cmd_lookup lookup)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (strcmp(kinds[i].kind, kind))
			continue;
		if (!strcmp(kind, "precondition") && !lookup("precondition"))
			return &precond_by_run;
		return &kinds[i];
	}
	return lookup(kind) ? &generic : NULL;
}

static const char *kind_cmd(const struct step_kind *k, const char *kind)
{
	return k->cmd ? k->cmd : kind;
}

/* ---- the options a command takes: those its --help names ---- */

struct help_cache {
	char name[64];
	char *text;
};
static struct help_cache helps[24];

/* The --help text of @cmd [@sub], captured from its stdout; NULL on failure */
static const char *cmd_help(ssl_cmd_lookup lookup, const char *cmd, const char *sub)
{
	const char *argv[4] = { cmd, "--help", NULL, NULL };
	ssl_cmd_fn fn = lookup(cmd);
	char name[64];
	FILE *tmp;
	long n;
	int saved, i;

	snprintf(name, sizeof(name), "%s %s", cmd, sub ? sub : "");
	for (i = 0; i < (int)ARRAY_SIZE(helps) && helps[i].text; i++)
		if (!strcmp(helps[i].name, name))
			return helps[i].text;
	if (!fn || i == (int)ARRAY_SIZE(helps))
		return NULL;
	if (sub) {
		argv[1] = sub;
		argv[2] = "--help";
	}
	tmp = tmpfile();
	if (!tmp)
		return NULL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
		fclose(tmp);
		return NULL;
	}
	fn(sub ? 3 : 2, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = ftell(tmp);
	helps[i].text = n > 0 ? calloc(1, (size_t)n + 1) : NULL;
	if (helps[i].text) {
		rewind(tmp);
		if (fread(helps[i].text, 1, (size_t)n, tmp) != (size_t)n)
			helps[i].text[0] = '\0';
		snprintf(helps[i].name, sizeof(helps[i].name), "%s", name);
	}
	fclose(tmp);
	return helps[i].text;
}

/* Whether @help names the option --@key */
static int help_names(const char *help, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = help; (p = strstr(p, "--")); p += 2)
		if (!strncmp(p + 2, key, n) && !isalnum((unsigned char)p[2 + n]) &&
		    p[2 + n] != '_' && p[2 + n] != '-')
			return 1;
	return 0;
}

/* The test of a pts step (its test= key), or NULL */
static const char *step_get(const struct ssl_review_step *s, const char *key)
{
	int i;

	for (i = s->nkv - 1; i >= 0; i--)
		if (!strcmp(s->kv[i].key, key))
			return s->kv[i].val;
	return NULL;
}

static int step_accepts(ssl_cmd_lookup lookup, const struct ssl_review_step *s,
			const char *key)
{
	const struct step_kind *k = kind_of(s->kind, lookup);
	const char *sub = k->sub, *help;

	if (review_key(key) || (k->posarg && !strcmp(key, k->posarg)))
		return 1;
	if (k == &precond_by_run && !strcmp(key, PRECOND_KEY))
		return 1;
	if (k->posarg && !strcmp(k->posarg, "test"))	/* pts TEST --help */
		sub = step_get(s, "test") ?: "iops";
	help = cmd_help(lookup, kind_cmd(k, s->kind), sub);
	return help && help_names(help, key);
}

/* ---- reading the file ---- */

struct plan_reader {
	struct ssl_review_plan *p;
	const char *pos;		/* the rest of the text */
	int line, failed;
	int in_meta;			/* in [plan] */
	int cont;			/* the line is indented: a continuation */
	struct ssl_review_step *cur;	/* the step of the current section */
};

static void plan_err(struct plan_reader *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void plan_err(struct plan_reader *r, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ssl_err("%s:%d: %s", r->p->path, line, msg);
	r->failed = 1;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		ssl_err("out of memory");
		abort();
	}
	return d;
}

static const char *const step_kind_names =
	"purge, precondition, sweep, curve, run, latency-grid, scale, compare, pts";

static void new_section(struct plan_reader *r, const char *hdr)
{
	struct ssl_review_plan *p = r->p;
	struct ssl_review_step *s;
	char name[128], *colon;
	const char *end = strchr(hdr, ']');
	int i;

	r->cur = NULL;
	r->in_meta = 0;
	if (!end || end - hdr - 1 >= (long)sizeof(name) || end[1]) {
		plan_err(r, r->line, "a section header is [KIND] or [KIND:LABEL]");
		return;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(end - hdr - 1), hdr + 1);
	if (!strcmp(name, "plan") || !strcmp(name, "review")) {
		if (p->meta_line)
			plan_err(r, r->line, "a second [%s] (the first is on line %d)",
				 name, p->meta_line);
		p->meta_line = r->line;
		r->in_meta = 1;
		return;
	}
	for (i = 0; i < p->nsteps; i++)
		if (!strcmp(p->step[i].section, name)) {
			plan_err(r, r->line, "[%s] again (line %d): give each step of a kind "
				 "its own label, [KIND:LABEL]", name, p->step[i].line);
			return;
		}
	if (p->nsteps == SSL_REVIEW_MAX_STEPS) {
		plan_err(r, r->line, "more than %d steps", SSL_REVIEW_MAX_STEPS);
		return;
	}
	s = &p->step[p->nsteps];
	memset(s, 0, sizeof(*s));
	s->section = xstrdup(name);
	colon = strchr(name, ':');
	if (colon)
		*colon = '\0';
	s->kind = xstrdup(name);
	s->line = r->line;
	p->nsteps++;
	if (!kind_of(s->kind, p->lookup) || (colon && !colon[1])) {
		plan_err(r, r->line, colon && !colon[1] ? "[%s:]: an empty label" :
			 "[%s]: not a step kind (%s, or a command of ssdload)",
			 s->kind, step_kind_names);
		return;
	}
	s->cmd = kind_cmd(kind_of(s->kind, p->lookup), s->kind);
	snprintf(s->dirname, sizeof(s->dirname), "%02d-%s", p->nsteps, s->section);
	colon = strchr(s->dirname, ':');
	if (colon)
		*colon = '-';
	r->cur = s;
}

/* inih's reader: the next line of the text; sections are seen here */
static char *plan_read(char *str, int num, void *stream)
{
	struct plan_reader *r = stream;
	const char *nl, *t;
	size_t n;

	if (r->failed || !*r->pos)
		return NULL;
	nl = strchr(r->pos, '\n');
	n = nl ? (size_t)(nl - r->pos) : strlen(r->pos);
	r->line++;
	if (n >= (size_t)num - 1) {
		plan_err(r, r->line, "a line longer than %d characters (continue a "
			 "value on an indented line)", num - 2);
		return NULL;
	}
	memcpy(str, r->pos, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	r->pos += n + (nl ? 1 : 0);
	for (t = str; *t == ' ' || *t == '\t'; t++)
		;
	r->cont = t != str;
	if (*t == '[') {
		str[n] = '\0';
		while (n && isspace((unsigned char)str[n - 1]))
			str[--n] = '\0';
		new_section(r, t);
		str[n] = '\n';
	}
	return str;
}

static void kv_set(struct ssl_review_kv *kv, const char *key, const char *val, int line,
		   enum ssl_review_from from)
{
	kv->key = xstrdup(key);
	kv->val = xstrdup(val);
	kv->line = line;
	kv->from = from;
}

static int meta_key(struct plan_reader *r, const char *name, const char *value)
{
	struct ssl_review_plan *p = r->p;
	struct ssl_review_kv *kv;
	char *v;
	int i;

	for (i = 0; i < p->nmeta; i++) {
		kv = &p->meta[i];
		if (strcmp(kv->key, name))
			continue;
		/* inih's continuation line: the same key again */
		v = malloc(strlen(kv->val) + strlen(value) + 2);
		if (!v)
			abort();
		sprintf(v, "%s %s", kv->val, value);
		free(kv->val);
		kv->val = v;
		return 1;
	}
	if (p->nmeta == SSL_REVIEW_MAX_KEYS) {
		plan_err(r, r->line, "more than %d keys in [plan]", SSL_REVIEW_MAX_KEYS);
		return 0;
	}
	kv_set(&p->meta[p->nmeta++], name, value, r->line, SSL_KV_PLAN);
	return 1;
}

static int step_key(struct plan_reader *r, const char *name, const char *value)
{
	struct ssl_review_step *s = r->cur;
	struct ssl_review_kv *last = s->nkv ? &s->kv[s->nkv - 1] : NULL;
	char *v;
	int i;

	if (r->cont && last && !strcmp(last->key, name)) {
		/* inih's continuation line: the value goes on */
		v = malloc(strlen(last->val) + strlen(value) + 2);
		if (!v)
			abort();
		sprintf(v, "%s %s", last->val, value);
		free(last->val);
		last->val = v;
		if (!strcmp(name, "chart")) {
			free(s->chart);
			s->chart = xstrdup(v);
		}
		return 1;
	}
	for (i = 0; i < s->nkv; i++)
		if (!strcmp(s->kv[i].key, name)) {
			plan_err(r, r->line, "[%s] %s= again (line %d)", s->section, name,
				 s->kv[i].line);
			return 0;
		}
	if (s->nkv == SSL_REVIEW_MAX_KEYS) {
		plan_err(r, r->line, "more than %d keys in [%s]", SSL_REVIEW_MAX_KEYS,
			 s->section);
		return 0;
	}
	if (!step_accepts(r->p->lookup, s, name)) {
		plan_err(r, r->line, "[%s] %s=: not an option of %s%s%s (see ssdload %s "
			 "--help)", s->section, name, s->cmd,
			 kind_of(s->kind, r->p->lookup)->sub ? " " : "",
			 kind_of(s->kind, r->p->lookup)->sub ?: "", s->cmd);
		return 0;
	}
	if (!strcmp(name, "chart"))
		s->chart = xstrdup(value);
	kv_set(&s->kv[s->nkv++], name, value, r->line, SSL_KV_PLAN);
	return 1;
}

static int plan_handler(void *user, const char *section, const char *name,
			const char *value)
{
	struct plan_reader *r = user;

	(void)section;
	if (r->failed)
		return 0;
	if (r->in_meta)
		return meta_key(r, name, value);
	if (!r->cur) {
		if (!r->p->nsteps && !r->p->meta_line)
			plan_err(r, r->line, "%s= before any [section]", name);
		return 0;	/* under a refused section: said already */
	}
	return step_key(r, name, value);
}

static int check_values(struct ssl_review_plan *p);

int ssl_review_load_text(const char *path, const char *text, ssl_cmd_lookup lookup,
			 struct ssl_review_plan *p)
{
	struct plan_reader r;
	int err;

	memset(p, 0, sizeof(*p));
	memset(&r, 0, sizeof(r));
	p->path = xstrdup(path);
	p->text = xstrdup(text);
	p->lookup = lookup;
	p->overrides = json_object_new_array();
	r.p = p;
	r.pos = p->text;
	err = ini_parse_stream(plan_read, &r, plan_handler, &r);
	if (err > 0 && !r.failed)
		plan_err(&r, err, "not a line of INI: [section] or key=value");
	if (!r.failed && !p->nsteps)
		plan_err(&r, r.line, "no step: a plan has one [section] per step");
	if (!r.failed && !p->meta_line)
		plan_err(&r, 1, "no [plan] section (name=, source=, measured=)");
	if (r.failed || check_values(p)) {
		ssl_review_free(p);
		return -1;
	}
	return 0;
}

int ssl_review_load(const char *path, ssl_cmd_lookup lookup, struct ssl_review_plan *p)
{
	char *text;
	size_t len;
	int r;

	if (ssl_read_regular(path, 1 << 20, &text, &len)) {
		ssl_err("review: %s: cannot read the plan", path);
		return -1;
	}
	if (strlen(text) != len) {
		ssl_err("review: %s: not a text file (holds a NUL)", path);
		free(text);
		return -1;
	}
	r = ssl_review_load_text(path, text, lookup, p);
	free(text);
	return r;
}

void ssl_review_free(struct ssl_review_plan *p)
{
	int i, j;

	for (i = 0; i < p->nmeta; i++) {
		free(p->meta[i].key);
		free(p->meta[i].val);
	}
	for (i = 0; i < p->nsteps; i++) {
		for (j = 0; j < p->step[i].nkv; j++) {
			free(p->step[i].kv[j].key);
			free(p->step[i].kv[j].val);
		}
		free(p->step[i].section);
		free(p->step[i].kind);
		free(p->step[i].chart);
	}
	free(p->path);
	free(p->text);
	json_object_put(p->overrides);
	memset(p, 0, sizeof(*p));
}

const char *ssl_review_meta(const struct ssl_review_plan *p, const char *key)
{
	int i;

	for (i = 0; i < p->nmeta; i++)
		if (!strcmp(p->meta[i].key, key))
			return p->meta[i].val;
	return "";
}

/* ---- values: what the plan itself can check ---- */

/* precondition=fill|seq128k:N|random:N: 0, and the passes and random-ness */
static int precond_parse(const char *v, unsigned int *passes, int *random)
{
	char *end;
	unsigned long n;

	*random = 0;
	*passes = 1;
	if (!strcmp(v, "fill"))
		return 0;
	if (!strncmp(v, "seq128k:", 8))
		v += 8;
	else if (!strncmp(v, "random:", 7)) {
		v += 7;
		*random = 1;
	} else {
		return -1;
	}
	n = strtoul(v, &end, 10);
	if (*end || !*v || !n || n > 100)
		return -1;
	*passes = (unsigned int)n;
	return 0;
}

/* needs-devices=N: a count from 2 to NEEDS_MAX, on a step of --devices */
static int check_needs(const struct ssl_review_plan *p, const struct ssl_review_step *s,
		       const struct ssl_review_kv *kv, const char *where)
{
	char *end;
	unsigned long n = strtoul(kv->val, &end, 10);

	if (kind_of(s->kind, p->lookup)->dev != DEV_DEVICES) {
		ssl_err("%s: [%s] %s=: only a step that takes --devices (scale) has it", where,
			s->section, kv->key);
		return -1;
	}
	if (*end || end == kv->val || n < 2 || n > NEEDS_MAX) {
		ssl_err("%s: [%s] %s=%s: a number of drives from 2 to %d", where, s->section,
			kv->key, kv->val, NEEDS_MAX);
		return -1;
	}
	return 0;
}

static int check_kv(const struct ssl_review_plan *p, const struct ssl_review_step *s,
		    const struct ssl_review_kv *kv)
{
	uint64_t v;
	int r = 0, rnd;
	unsigned int n;
	char where[PATH_MAX + 48];

	if (kv->from == SSL_KV_SET)
		snprintf(where, sizeof(where), "--set %s.%s", s->section, kv->key);
	else
		snprintf(where, sizeof(where), "%s:%d", p->path, kv->line);
	if (!strcmp(kv->key, "runtime") || !strcmp(kv->key, "ramp_time") ||
	    !strcmp(kv->key, "point-time") || !strcmp(kv->key, "duration"))
		r = ssl_parse_time_ms(kv->val, 1000, &v);
	else if (!strcmp(kv->key, "size") && !strchr(kv->val, '%'))
		r = ssl_parse_size(kv->val, &v);
	else if (!strcmp(kv->key, PRECOND_KEY) && !strcmp(s->cmd, "run"))
		r = precond_parse(kv->val, &n, &rnd);
	else if (!strcmp(kv->key, NEEDS_KEY))
		return check_needs(p, s, kv, where);
	if (r)
		ssl_err("%s: [%s] %s=%s: not a valid value", where, s->section, kv->key,
			kv->val);
	return r ? -1 : 0;
}

static int check_values(struct ssl_review_plan *p)
{
	const struct ssl_review_step *s;
	int i, j;

	for (i = 0; i < p->nsteps; i++) {
		s = &p->step[i];
		for (j = 0; j < s->nkv; j++)
			if (check_kv(p, s, &s->kv[j]))
				return -1;
		if (!strcmp(s->cmd, "run") && !strcmp(s->kind, "precondition") &&
		    !step_get(s, PRECOND_KEY)) {
			ssl_err("%s:%d: [%s] needs precondition=fill|seq128k:N|random:N (this "
				"build has no ssdload precondition: the step is an ssdload run)",
				p->path, s->line, s->section);
			return -1;
		}
		if (kind_of(s->kind, p->lookup)->posarg &&
		    kind_of(s->kind, p->lookup)->pos_first != 2 &&
		    !step_get(s, kind_of(s->kind, p->lookup)->posarg)) {
			ssl_err("%s:%d: [%s] needs %s=", p->path, s->line, s->section,
				kind_of(s->kind, p->lookup)->posarg);
			return -1;
		}
	}
	return 0;
}

/* ---- --set and --scale=quick ---- */

static struct ssl_review_kv *step_kv(struct ssl_review_step *s, const char *key)
{
	int i;

	for (i = s->nkv - 1; i >= 0; i--)
		if (!strcmp(s->kv[i].key, key))
			return &s->kv[i];
	return NULL;
}

static void kv_replace(struct ssl_review_kv *kv, const char *val, enum ssl_review_from from)
{
	free(kv->val);
	kv->val = xstrdup(val);
	kv->from = from;
}

static struct ssl_review_step *find_step(struct ssl_review_plan *p, const char *name,
					 const char *spec)
{
	struct ssl_review_step *found = NULL;
	int i, n = 0;

	for (i = 0; i < p->nsteps; i++)
		if (!strcmp(p->step[i].section, name))
			return &p->step[i];
	for (i = 0; i < p->nsteps; i++)
		if (!strcmp(p->step[i].kind, name)) {
			found = &p->step[i];
			n++;
		}
	if (n == 1)
		return found;
	ssl_err("review: --set %s: %s (%s)", spec, n ? "more than one step of that kind: "
		"name the section, e.g. KIND:LABEL.KEY=VALUE" : "the plan has no such step",
		p->path);
	return NULL;
}

int ssl_review_set(struct ssl_review_plan *p, const char *spec)
{
	char name[160], *dot, *eq;
	struct ssl_review_step *s;
	struct ssl_review_kv *kv;

	snprintf(name, sizeof(name), "%s", spec);
	eq = strchr(name, '=');
	if (eq)
		*eq++ = '\0';
	dot = strrchr(name, '.');
	if (!eq || !dot || dot == name || !dot[1]) {
		ssl_err("review: --set %s: not STEP.KEY=VALUE", spec);
		return -1;
	}
	*dot++ = '\0';
	s = find_step(p, name, spec);
	if (!s)
		return -1;
	kv = step_kv(s, dot);
	if (!kv && !step_accepts(p->lookup, s, dot)) {
		ssl_err("review: --set %s: [%s] (%s:%d) has no %s=, and ssdload %s%s%s takes no "
			"--%s (see ssdload %s --help)", spec, s->section, p->path, s->line, dot,
			s->cmd, kind_of(s->kind, p->lookup)->sub ? " " : "",
			kind_of(s->kind, p->lookup)->sub ?: "", dot, s->cmd);
		return -1;
	}
	if (!kv && s->nkv == SSL_REVIEW_MAX_KEYS) {
		ssl_err("review: --set %s: [%s] has %d keys already", spec, s->section,
			SSL_REVIEW_MAX_KEYS);
		return -1;
	}
	if (kv) {
		kv_replace(kv, eq, SSL_KV_SET);
	} else {	/* a key the step's command takes: added */
		kv = &s->kv[s->nkv++];
		kv_set(kv, dot, eq, 0, SSL_KV_SET);
	}
	if (!strcmp(dot, "chart")) {
		free(s->chart);
		s->chart = xstrdup(eq);
	}
	json_object_array_add(p->overrides, json_object_new_string(spec));
	return check_kv(p, s, kv);
}

static int expand(const struct ssl_review_plan *p, const char *val, const char *filename,
		  const char *outdir, char *buf, size_t len);

/* the drives of step @s: its devices= (or DEV) expanded; how many */
static unsigned int devices_of(const struct ssl_review_plan *p,
			       const struct ssl_review_step *s, const char *filename)
{
	const char *v = step_get(s, "devices");
	char buf[PATH_MAX], *tok, *save;
	unsigned int n = 0;

	if (!v)
		v = filename;
	if (expand(p, v, filename, "", buf, sizeof(buf)))
		return 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		n += *tok != '\0';
	return n;
}

int ssl_review_skip(const struct ssl_review_plan *p, const struct ssl_review_step *s,
		    const char *filename, char *why, size_t len)
{
	const char *need = step_get(s, NEEDS_KEY);
	unsigned long n;
	unsigned int have;

	if (!need || !filename)
		return 0;
	n = strtoul(need, NULL, 10);
	have = devices_of(p, s, filename);
	if (have >= n)
		return 0;
	snprintf(why, len, "needs %lu drives (%s=%lu), given %u: give them with --set "
		 "%s.devices=DEV,DEV,...", n, NEEDS_KEY, n, have, s->section);
	return 1;
}

/* a list value cut to its first and last entries */
static void cut_list(struct ssl_review_kv *kv)
{
	char *first_end = strchr(kv->val, ','), *last = strrchr(kv->val, ',');

	if (!first_end || first_end == last)
		return;
	memmove(first_end, last, strlen(last) + 1);
	kv->from = SSL_KV_QUICK;
}

/* a step that preconditions (precondition=, not none): over 64 MiB only */
static void quicken_precondition(struct ssl_review_plan *p, struct ssl_review_step *s)
{
	const char *pc = step_get(s, PRECOND_KEY);
	struct ssl_review_kv *kv = step_kv(s, QUICK_PC_SPAN_KEY);

	if (!pc || !strcmp(pc, "none") || (kv && kv->from == SSL_KV_SET))
		return;
	if (kv) {
		kv_replace(kv, QUICK_PC_SPAN, SSL_KV_QUICK);
		return;
	}
	if (!step_accepts(p->lookup, s, QUICK_PC_SPAN_KEY) || s->nkv == SSL_REVIEW_MAX_KEYS)
		return;
	kv_set(&s->kv[s->nkv++], QUICK_PC_SPAN_KEY, QUICK_PC_SPAN, 0, SSL_KV_QUICK);
}

static int quicken_step(struct ssl_review_plan *p, struct ssl_review_step *s)
{
	const struct step_kind *k = kind_of(s->kind, p->lookup);
	char buf[256], *tok, *save, *eq;
	struct ssl_review_kv *kv;

	snprintf(buf, sizeof(buf), "%s", k->quick);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		int only_set = tok[0] == '?';	/* only where the plan sets it */

		tok += only_set;
		eq = strchr(tok, '=');
		*eq++ = '\0';
		kv = step_kv(s, tok);
		if ((kv && kv->from == SSL_KV_SET) || (!kv && only_set))
			continue;		/* what --set says wins */
		if (kv) {
			kv_replace(kv, eq, SSL_KV_QUICK);
			continue;
		}
		if (!step_accepts(p->lookup, s, tok) || s->nkv == SSL_REVIEW_MAX_KEYS)
			continue;
		kv_set(&s->kv[s->nkv++], tok, eq, 0, SSL_KV_QUICK);
	}
	snprintf(buf, sizeof(buf), "%s", k->lists);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		kv = step_kv(s, tok);
		if (kv && kv->from != SSL_KV_SET)
			cut_list(kv);
	}
	quicken_precondition(p, s);
	return 0;
}

int ssl_review_quicken(struct ssl_review_plan *p)
{
	int i;

	p->quick = 1;
	for (i = 0; i < p->nsteps; i++)
		if (quicken_step(p, &p->step[i]))
			return -1;
	return 0;
}

/* ---- a step's command line ---- */

/* the folder of the plan file @path, into @buf */
static const char *plan_dir(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	snprintf(buf, len, "%.*s", (int)(slash - path), path);
	return buf;
}

/*
 * @val with ${filename} (the device), ${dir} (the results directory) and
 * ${step.SECTION} (that step's directory) expanded into @buf.
 */
static int expand(const struct ssl_review_plan *p, const char *val, const char *filename,
		  const char *outdir, char *buf, size_t len)
{
	size_t n = 0, w;
	const char *end, *rep;
	char name[128], tmp[PATH_MAX];
	int i;

	while (*val) {
		if (val[0] != '$' || val[1] != '{' || !(end = strchr(val, '}'))) {
			if (n + 1 >= len)
				goto too_long;
			buf[n++] = *val++;
			continue;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(end - val - 2), val + 2);
		rep = NULL;
		if (!strcmp(name, "filename"))
			rep = filename;
		else if (!strcmp(name, "dir"))
			rep = outdir;
		else if (!strcmp(name, "plandir"))
			rep = plan_dir(p->path, tmp, sizeof(tmp));
		for (i = 0; !rep && !strncmp(name, "step.", 5) && i < p->nsteps; i++)
			if (!strcmp(p->step[i].section, name + 5)) {
				snprintf(tmp, sizeof(tmp), "%s/%s", outdir, p->step[i].dirname);
				rep = tmp;
			}
		if (!rep) {
			ssl_err("review: %s: ${%s}: not ${filename}, ${dir}, ${plandir} or ${step.SECTION} "
				"of a section of the plan", p->path, name);
			return -1;
		}
		w = strlen(rep);
		if (n + w >= len)
			goto too_long;
		memcpy(buf + n, rep, w);
		n += w;
		val = end + 1;
	}
	buf[n] = '\0';
	return 0;
too_long:
	ssl_err("review: %s: a value too long once expanded", p->path);
	return -1;
}

/* precondition=... as `ssdload run` options (the fallback of precond_by_run) */
static void precond_argv(const char *v, struct ssl_argv *a)
{
	unsigned int passes;
	int rnd;

	precond_parse(v, &passes, &rnd);
	av_add(a, rnd ? "--rw=randwrite" : "--rw=write");
	av_add(a, rnd ? "--bs=4k" : "--bs=128k");
	av_add(a, "--iodepth=32");
	av_addf(a, "--loops=%u", passes);
}

static int add_kv(const struct ssl_review_plan *p, const struct ssl_review_step *s,
		  const struct step_kind *k, const struct ssl_review_kv *kv,
		  const char *filename, const char *outdir, struct ssl_argv *a)
{
	char val[PATH_MAX];

	if (review_key(kv->key) || (k->posarg && !strcmp(kv->key, k->posarg)))
		return 0;
	if (k == &precond_by_run && !strcmp(kv->key, PRECOND_KEY)) {
		precond_argv(kv->val, a);
		return 0;
	}
	if (expand(p, kv->val, filename, outdir, val, sizeof(val)))
		return -1;
	if (val[0])
		av_addf(a, "--%s=%s", kv->key, val);
	else
		av_addf(a, "--%s", kv->key);	/* key= : a flag */
	(void)s;
	return 0;
}

/* the positional words of @k's posarg (compare's runs, pts's test, run's job file) */
static int add_words(const struct ssl_review_plan *p, const char *v, const char *filename,
		     const char *outdir, struct ssl_argv *a)
{
	char val[PATH_MAX], *tok, *save;

	if (expand(p, v, filename, outdir, val, sizeof(val)))
		return -1;
	for (tok = strtok_r(val, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save))
		av_addf(a, "%s", tok);
	return 0;
}

int ssl_review_argv(const struct ssl_review_plan *p, const struct ssl_review_step *s,
		    const char *filename, const char *outdir, int allow_write,
		    struct ssl_argv *a)
{
	const struct step_kind *k = kind_of(s->kind, p->lookup);
	const char *pos = k->posarg ? step_get(s, k->posarg) : NULL;
	int i, test = pos && k->pos_first;

	memset(a, 0, sizeof(*a));
	av_add(a, s->cmd);
	if (k->sub)
		av_add(a, k->sub);
	if (test && add_words(p, pos, filename, outdir, a))
		return -1;
	if (k->dev == DEV_FILENAME && !step_get(s, "filename"))
		av_addf(a, "--filename=%s", filename);
	if (k->dev == DEV_DEVICES && !step_get(s, "devices"))
		av_addf(a, "--devices=%s", filename);
	for (i = 0; i < s->nkv; i++)
		if (add_kv(p, s, k, &s->kv[i], filename, outdir, a))
			return -1;
	if (allow_write && step_accepts(p->lookup, s, "allow_write"))
		av_add(a, "--allow_write");
	/* the review renders every step's report at its end, in one process */
	if (!step_get(s, "no-report") && step_accepts(p->lookup, s, "no-report"))
		av_add(a, "--no-report");
	if (k->out == OUT_DIR)
		av_addf(a, "--output-dir=%s/%s", outdir, s->dirname);
	if (k->out == OUT_RUN_JSON) {
		av_add(a, "--output-format=json");
		av_addf(a, "--output=%s/%s/run.json", outdir, s->dirname);
	}
	if (pos && !test && add_words(p, pos, filename, outdir, a))
		return -1;
	if (a->n == SSL_MAX_ARGS) {
		ssl_err("review: [%s]: too many options", s->section);
		return -1;
	}
	return 0;
}

/* ---- estimates ---- */

/* assumed for the steps whose length is their bytes: 1 GiB/s */
#define EST_BYTES_PER_S	(1ULL << 30)

static uint64_t time_of(const struct ssl_review_step *s, const char *key, uint64_t def_s)
{
	const char *v = step_get(s, key);
	uint64_t ms;

	if (!v || ssl_parse_time_ms(v, 1000, &ms))
		return def_s;
	return (ms + 999) / 1000;
}

static uint64_t count_of(const struct ssl_review_step *s, const char *key, uint64_t def_n)
{
	const char *v = step_get(s, key);
	uint64_t n = 1;

	if (!v)
		return def_n;
	for (; *v; v++)
		n += *v == ',';
	return n;
}

/* the span's bytes: size= or precondition-span= (bytes or percent) of @capacity */
static uint64_t span_of(const struct ssl_review_step *s, uint64_t capacity)
{
	const char *v = step_get(s, "size") ?: step_get(s, QUICK_PC_SPAN_KEY);
	uint64_t b;

	if (v && strchr(v, '%'))
		return capacity * strtoull(v, NULL, 10) / 100;
	if (v && !ssl_parse_size(v, &b) && b < capacity)
		return b;
	return capacity;
}

static uint64_t pts_estimate(const struct ssl_review_step *s, uint64_t capacity)
{
	const char *t = step_get(s, "test");
	uint64_t pt = time_of(s, "point-time", 60), rounds = count_of(s, "max-rounds", 0);
	uint64_t span = span_of(s, capacity), points;
	const char *mr = step_get(s, "max-rounds");

	rounds = step_get(s, "rounds") ? strtoull(step_get(s, "rounds"), NULL, 10) :
		 mr ? strtoull(mr, NULL, 10) : 25;
	if (!t)
		return 0;
	if (!strcmp(t, "iops"))
		points = 56;
	else if (!strcmp(t, "latency"))
		points = 9;
	else if (!strcmp(t, "throughput"))
		points = 2;
	else
		return 24 * 3600;	/* wsat, hir, xsr, ecw, dirth: their limits */
	return 2 * span / EST_BYTES_PER_S + rounds * points * pt;
}

uint64_t ssl_review_estimate(const struct ssl_review_step *s, uint64_t capacity)
{
	const char *cmd = s->cmd;
	const char *pc = step_get(s, PRECOND_KEY);
	unsigned int passes = 1;
	int rnd;
	uint64_t t;

	if (!strcmp(s->kind, "purge"))
		return 60;
	if (!strcmp(s->kind, "precondition")) {
		if (pc)
			precond_parse(pc, &passes, &rnd);
		return passes * span_of(s, capacity) / EST_BYTES_PER_S;
	}
	if (!strcmp(cmd, "sweep"))
		return count_of(s, "qd-list", 10) * count_of(s, "workers", 1) *
		       (time_of(s, "ramp_time", 60) + time_of(s, "runtime", 180));
	if (!strcmp(cmd, "curve"))
		return (count_of(s, "curve", 6) + !step_get(s, "max-iops")) *
		       (time_of(s, "ramp_time", 30) + time_of(s, "runtime", 120));
	if (!strcmp(cmd, "scale"))
		return (count_of(s, "counts", 1) + count_of(s, "raid", 0)) *
		       count_of(s, "qd-list", 1) *
		       (time_of(s, "ramp_time", 60) + time_of(s, "runtime", 180));
	if (!strcmp(cmd, "latency-grid"))
		return count_of(s, "bs", 3) * count_of(s, "mix", 3) *
		       (time_of(s, "ramp_time", 5) + time_of(s, "runtime", 60));
	if (!strcmp(cmd, "pts"))
		return pts_estimate(s, capacity);
	if (!strcmp(cmd, "run")) {
		t = time_of(s, "ramp_time", 0) + time_of(s, "runtime", 0);
		return t ? t : span_of(s, capacity) / EST_BYTES_PER_S;
	}
	return 0;
}

const char *ssl_review_destroys(const struct ssl_review_step *s)
{
	const char *rw = step_get(s, "rw");

	if (!strcmp(s->kind, "purge"))
		return "all of DEV's data (purge)";
	if (!strcmp(s->kind, "precondition"))
		return "all of DEV's data (written over)";
	if (!strcmp(s->cmd, "pts"))
		return "all of DEV's data (purged, preconditioned)";
	if (!strcmp(s->cmd, "scale") && step_get(s, "raid"))
		return "the data of every drive of --devices (md arrays built)";
	if (!strcmp(s->cmd, "latency-grid") &&
	    (!step_get(s, "mix") || strcmp(step_get(s, "mix"), "100")))
		return "DEV's data in the span written (the mixes that write)";
	if (step_get(s, "profile") && !rw)
		return "DEV's data if the profile writes";
	if (rw && strcmp(rw, "read") && strcmp(rw, "randread"))
		return "DEV's data in the span written";
	return "";
}
