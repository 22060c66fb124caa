// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload run's steps: --step=SPEC and the lines of --steps=FILE, in the
 * order given, become the job's steps/1..N with their attributes; --loops
 * repeats them.  A step's keys are job options, converted by the same
 * converters (run-options.c) through a scratch run_ctx.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/ssdload.h"
#include "cmd/run.h"
#include "core/options.h"
#include "core/util.h"

#define STEP_IDLE	(-1)	/* the idle key: no option of the job */

/* the keys of a step: the options of the same name ('-' = '_') */
static const struct {
	const char *key;
	int id;
} step_keys[] = {
	{ "rw", O_RW }, { "rwmixread", O_RWMIXREAD },
	{ "rwmixwrite", O_RWMIXWRITE }, { "bs", O_BS },
	{ "bssplit", O_BSSPLIT }, { "iodepth", O_IODEPTH }, { "rate_iops", O_RATE_IOPS },
	{ "rate", O_RATE }, { "runtime", O_RUNTIME }, { "ramp_time", O_RAMP_TIME },
	{ "number_ios", O_NUMBER_IOS }, { "numjobs", O_NUMJOBS }, { "idle", STEP_IDLE },
	{ "blockalign", O_BLOCKALIGN },
};

static int step_key_id(const char *key, const char **name)
{
	const char *other, *sp;
	char k[64];
	size_t i;

	if (strlen(key) >= sizeof(k))
		return -2;
	for (i = 0; key[i]; i++)
		k[i] = key[i] == '-' ? '_' : key[i];
	k[i] = '\0';
	for (i = 0; i < ARRAY_SIZE(step_keys); i++)
		if (!strcmp(k, step_keys[i].key)) {
			*name = step_keys[i].key;
			return step_keys[i].id;
		}
	/* fio's other name of the key (timeout for runtime) */
	other = ssl_fio_alias(k, strlen(k), &sp);
	for (i = 0; other && i < ARRAY_SIZE(step_keys); i++)
		if (!strcmp(other, step_keys[i].key)) {
			*name = sp;
			return step_keys[i].id;
		}
	return -2;
}

/*
 * Split @buf (modified) into key=value pairs.  Whitespace separates
 * pairs; so does a comma followed by another key=, a space or the end:
 * the other commas belong to the value (fio's lists: rate_iops=100,200,
 * and rate_iops=100,, for reads only).
 * Returns the number of pairs, or -1 with @bad pointing at what is not
 * a key=value.
 */
static int step_split(char *buf, char **keys, char **vals, int max, char **bad)
{
	char *p = buf, *q, *r;
	int n = 0;

	for (;;) {
		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return n;
		for (q = p; *q && *q != '=' && *q != ',' && *q != ' ' && *q != '\t'; q++)
			;
		if (*q != '=' || q == p || n == max) {
			*q = '\0';
			*bad = p;
			return -1;
		}
		*q++ = '\0';
		keys[n] = p;
		vals[n++] = q;
		for (;;) {
			while (*q && *q != ',' && *q != ' ' && *q != '\t')
				q++;
			if (*q != ',' || !q[1] || q[1] == ' ' || q[1] == '\t')
				break;		/* a comma before a space or the end separates */
			for (r = q + 1; *r && *r != ',' && *r != ' ' && *r != '\t' &&
			     *r != '='; r++)
				;
			if (*r == '=')
				break;		/* the comma starts the next pair */
			q++;
		}
		p = q;
		if (*p)
			*p++ = '\0';
	}
}

static int step_add(struct step_def *st, const char *attr, const char *val)
{
	if (st->na == STEP_ATTRS_MAX)
		return -1;
	st->a[st->na].attr = attr;
	st->a[st->na].val = strdup(val);
	if (!st->a[st->na].val)
		return -1;
	st->na++;
	return 0;
}

/*
 * A step's numjobs: the first K of the job's workers issue in it (the
 * job's --numjobs must be at least K; checked once all steps are read).
 */
static int step_numjobs(struct run_ctx *sc, struct step_def *st)
{
	uint64_t n;

	if (!sc->raw[O_NUMJOBS])
		return 0;
	if (numjobs_opt(sc, &n))
		return -1;
	st->numjobs = (unsigned int)n;
	return 0;
}

/* idle=TIME: a step with no I/O (its only key, checked once all are read) */
static int step_idle(struct run_ctx *sc, struct step_def *st, const char *where,
		     const char *key, const char *val)
{
	uint64_t v;

	if (st->idle) {
		ssl_err("%s: %s given twice", where, key);
		return -1;
	}
	if (ssl_parse_time_ms(val, 1000, &v) || !v) {
		ssl_err("%s: %s=%s: not a time over 0 (seconds, or with "
			"ms/s/m/h suffix)", where, key, val);
		return -1;
	}
	st->idle = 1;
	snprintf(sc->w[0].val, sizeof(sc->w[0].val), "%" PRIu64, v);
	if (step_add(st, SSDLOAD_STEP_ATTR_IDLE_MS, sc->w[0].val)) {
		ssl_err("out of memory");
		return -1;
	}
	return 0;
}

/*
 * The @n key=value pairs of a step: each key known and given once, as
 * the raw options of the scratch context @sc (idle= into @st itself).
 * 0, or -1 with a message.
 */
static int step_keys_read(struct run_ctx *sc, struct step_def *st, const char *where,
			  char **keys, char **vals, int n)
{
	const char *name = NULL;
	int i, id;

	for (i = 0; i < n; i++) {
		id = step_key_id(keys[i], &name);
		if (id == -2) {
			ssl_err("%s: unknown key '%s' (a step takes rw, rwmixread, bs, bssplit, "
				"iodepth, rate_iops, rate, runtime, ramp_time, number_ios, "
				"numjobs, blockalign or idle)", where, keys[i]);
			return -1;
		}
		if (!*vals[i]) {
			ssl_err("%s: %s=: empty value", where, keys[i]);
			return -1;
		}
		if (id == STEP_IDLE) {
			if (step_idle(sc, st, where, keys[i], vals[i]))
				return -1;
			continue;
		}
		if (sc->raw[id] && !strcmp(sc->raw_name[id], name)) {
			ssl_err("%s: %s given twice", where, keys[i]);
			return -1;
		}
		if (sc->raw[id] && id != O_RWMIXREAD && id != O_RWMIXWRITE) {
			ssl_err("%s: %s and %s are the same key", where, sc->raw_name[id], keys[i]);
			return -1;
		}
		sc->raw[id] = vals[i];
		sc->raw_name[id] = name;
	}
	if (st->idle && n > 1) {
		ssl_err("%s: idle takes no other key (an idle step does no I/O)", where);
		return -1;
	}
	return 0;
}

/*
 * The I/O keys of a step, read into @sc, converted into its attributes
 * with the job's converters; what the step writes or trims is the job's
 * too.  0, or -1 with a message.
 */
static int step_convert(struct run_ctx *c, struct run_ctx *sc, struct step_def *st)
{
	int i, id;

	for (i = 0; i < 2; i++) {	/* "0" uncaps a step of a capped job */
		id = i ? O_RATE : O_RATE_IOPS;
		if (sc->raw[id] && !strcmp(sc->raw[id], "0")) {
			if (step_add(st, i ? SSDLOAD_ATTR_RATE : SSDLOAD_ATTR_RATE_IOPS, "0"))
				goto oom;
			sc->raw[id] = NULL;
		}
	}
	if (sc->raw[O_RW] && strstr(sc->raw[O_RW], "trimwrite"))
		return bad_value(sc, O_RW, "not in a step (a step runs no trimwrite)");
	if (sc->raw[O_BS] && strchr(sc->raw[O_BS], ','))
		return bad_value(sc, O_BS, "a step takes one block size (per direction: "
				 "bssplit=4k/100,16k/100)");
	if (rw_opt(sc) || mix_opt(sc) || block_size_opts(sc) ||
	    depth_opt(sc, NULL) ||
	    rate_series_opts(sc) ||
	    time_opt(sc, O_RUNTIME, SSDLOAD_ATTR_RUNTIME_MS) ||
	    time_opt(sc, O_RAMP_TIME, SSDLOAD_ATTR_RAMP_MS) ||
	    u64_opt(sc, O_NUMBER_IOS, SSDLOAD_ATTR_NUMBER_IOS, &st->nios) ||
	    step_numjobs(sc, st))
		return -1;
	st->nios_set = sc->raw[O_NUMBER_IOS] != NULL;
	st->runtime_set = sc->raw[O_RUNTIME] != NULL;
	if (st->runtime_set)
		ssl_parse_time_ms(sc->raw[O_RUNTIME], 1000, &st->runtime_ms);
	for (i = 0; i < sc->nw; i++)
		if (step_add(st, sc->w[i].attr, sc->w[i].val))
			goto oom;
	c->writes |= sc->writes;
	c->trims |= sc->trims;
	return 0;
oom:
	ssl_err("out of memory");
	return -1;
}

/*
 * One step from @spec (its origin in @where, for messages), converted
 * with the same converters as the job's options through the scratch
 * context @sc.  0, or -1 with a message.
 */
static int step_parse(struct run_ctx *c, struct run_ctx *sc, const char *spec,
		      const char *where, struct step_def *st)
{
	char *buf, *keys[32], *vals[32], *bad = NULL;
	int n, ret = -1;

	memset(st, 0, sizeof(*st));
	st->where = strdup(where);
	buf = strdup(spec);
	if (!st->where || !buf) {
		ssl_err("out of memory");
		goto out;
	}
	memset(sc->raw, 0, sizeof(sc->raw));
	memset(sc->raw_name, 0, sizeof(sc->raw_name));
	sc->nw = 0;
	sc->writes = sc->trims = 0;
	sc->where = where;
	n = step_split(buf, keys, vals, (int)ARRAY_SIZE(keys), &bad);
	if (n < 0) {
		ssl_err("%s: '%s' is not key=value", where, bad);
		goto out;
	}
	if (!n) {
		ssl_err("%s: an empty step (give key=value pairs, or idle=TIME)", where);
		goto out;
	}
	if (step_keys_read(sc, st, where, keys, vals, n))
		goto out;
	ret = st->idle ? 0 : step_convert(c, sc, st);
out:
	free(buf);
	sc->where = NULL;
	return ret;
}

void free_steps(struct run_ctx *c)
{
	unsigned int i;
	int k;

	for (i = 0; i < c->nsteps; i++) {
		for (k = 0; k < c->steps[i].na; k++)
			free(c->steps[i].a[k].val);
		free(c->steps[i].where);
	}
	free(c->steps);
	c->steps = NULL;
	c->nsteps = 0;
	free(c->src);
	c->src = NULL;
	c->nsrc = 0;
}

/* room for one more step; NULL (message printed) past SSDLOAD_MAX_STEPS */
static struct step_def *step_next(struct run_ctx *c, unsigned int *cap)
{
	struct step_def *n;

	if (c->nsteps == SSDLOAD_MAX_STEPS) {
		ssl_err("too many steps (at most %u)", SSDLOAD_MAX_STEPS);
		return NULL;
	}
	if (c->nsteps == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		n = realloc(c->steps, *cap * sizeof(*n));
		if (!n) {
			ssl_err("out of memory");
			return NULL;
		}
		c->steps = n;
	}
	return &c->steps[c->nsteps];
}

/* --steps=FILE: one step a line, '#' comments and blank lines ignored */
static int steps_file(struct run_ctx *c, struct run_ctx *sc, const char *path,
		      unsigned int *cap)
{
	char *text, *line, *next, *hash, where[4200];
	unsigned int nr = 0, before = c->nsteps;
	struct step_def *st;
	int err;

	err = ssl_read_regular(path, SSL_INPUT_MAX_BYTES, &text, NULL);
	if (err) {
		ssl_err("--steps=%s: %s", path, ssl_strerror(err));
		return -1;
	}
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		nr++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (line[strspn(line, " \t\r,")] == '\0')
			continue;
		line[strcspn(line, "\r")] = '\0';
		snprintf(where, sizeof(where), "%s:%u", path, nr);
		st = step_next(c, cap);
		if (!st || step_parse(c, sc, line, where, st)) {
			free(text);
			return -1;
		}
		c->nsteps++;
	}
	free(text);
	if (c->nsteps == before) {
		ssl_err("--steps=%s: no steps in the file", path);
		return -1;
	}
	return 0;
}

/*
 * --step, --steps and --loops: the steps in the order given, each
 * converted, and every one bounded by its own or the job's runtime or
 * number_ios (the module refuses an unbounded step at enable).
 */
int steps_opts(struct run_ctx *c)
{
	uint64_t job_rt = 0, job_nios = 0, job_workers = 1, loops;
	unsigned int cap = 0, i;
	struct run_ctx *sc;
	char where[4200];
	int k, r = 0;

	if (c->raw[O_LOOPS]) {
		if (ssl_parse_u64(c->raw[O_LOOPS], &loops) || !loops || loops > UINT32_MAX)
			return bad_value(c, O_LOOPS, "must be a number of loops, 1 or more");
		add_write_u64(c, SSDLOAD_ATTR_LOOPS, loops);
		c->loops = loops;
	}
	if (!c->nsrc)
		return 0;
	sc = calloc(1, sizeof(*sc));
	if (!sc) {
		ssl_err("out of memory");
		return -1;
	}
	for (k = 0; k < c->nsrc && !r; k++) {
		struct step_def *st;

		if (c->src[k].file) {
			r = steps_file(c, sc, c->src[k].arg, &cap);
			continue;
		}
		st = step_next(c, &cap);
		snprintf(where, sizeof(where), "--step=%s", c->src[k].arg);
		if (!st || step_parse(c, sc, c->src[k].arg, where, st))
			r = -1;
		else
			c->nsteps++;
	}
	free(sc);
	if (r)
		return -1;
	if (c->raw[O_DISABLE_LAT] && (!*c->raw[O_DISABLE_LAT] ||
				      (!ssl_parse_bool(c->raw[O_DISABLE_LAT], &k) && k))) {
		ssl_err("--%s: not with steps (their gaps and times come from the "
			"completion stamps)", c->raw_name[O_DISABLE_LAT]);
		return -1;
	}
	for (i = 0; i < c->nsteps && c->steps[i].idle; i++)
		;
	if (i == c->nsteps) {
		ssl_err("only idle steps: give at least one step that does I/O");
		return -1;
	}
	if (c->raw[O_RUNTIME])
		ssl_parse_time_ms(c->raw[O_RUNTIME], 1000, &job_rt);
	if (c->raw[O_NUMBER_IOS])
		ssl_parse_u64(c->raw[O_NUMBER_IOS], &job_nios);
	/* without --numjobs (or --cpus_allowed) the module runs one worker */
	if (c->raw[O_NUMJOBS])
		ssl_parse_u64(c->raw[O_NUMJOBS], &job_workers);
	for (i = 0; i < c->nsteps; i++) {
		const struct step_def *st = &c->steps[i];
		uint64_t rt = st->runtime_set ? st->runtime_ms : job_rt;
		uint64_t nios = st->nios_set ? st->nios : job_nios;

		if (st->numjobs > job_workers && (c->raw[O_NUMJOBS] || !c->raw[O_CPUS_ALLOWED])) {
			ssl_err("%s: numjobs=%u, but the job has %" PRIu64 " worker%s: give "
				"--numjobs=%u or more (the most a step uses)", st->where,
				st->numjobs, job_workers, job_workers == 1 ? "" : "s",
				st->numjobs);
			return -1;
		}
		if (st->idle || rt || nios)
			continue;
		ssl_err("%s: step %u never ends: give it runtime= or number_ios=, or the "
			"job --runtime or --number_ios", st->where, i + 1);
		return -1;
	}
	return 0;
}
