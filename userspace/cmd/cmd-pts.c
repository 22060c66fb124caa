// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload pts TEST: the SNIA Solid State Storage Performance Test
 * Specification (Documentation/pts.rst).  "ss-check" applies the
 * steady-state rule by itself to a series of values; the tests run in
 * pts/.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "cmd/builtin.h"
#include "core/options.h"
#include "methods/runner.h"
#include "pts/common.h"
#include "pts/pts.h"
#include "pts/ss.h"
#include "core/util.h"

#define SS_MAX_WINDOW		1000	/* --window at most */
#define SS_MAX_MAX_ROUNDS	1000000	/* --max-rounds at most */

static const char *const pts_usage[] = {
	"usage: ssdload pts TEST [options]",
	"",
	"The SNIA Solid State Storage Performance Test Specification (SSS PTS),",
	"version " SSL_SS_SPEC_VERSION " (Enterprise and Client in one document).",
	"",
	"   iops        IOPS: RND, 7 R/W mixes x 8 block sizes, to steady state",
	"   throughput  Throughput: SEQ 1024KiB (or 128KiB), 100% read and 100% write",
	"   latency     Latency: RND T1Q1, 3 R/W mixes x 3 block sizes",
	"   wsat        Write Saturation: RND 4KiB writes, IOPS every minute, until",
	"               24 hours or 4x the capacity written",
	"   hir         Host Idle Recovery: those writes to steady state, then 360 x",
	"               (5 s of writes + a wait of 5, 10, 15, 25, 50 s), each wait",
	"               state followed by 1800 s of writes",
	"   xsr         Cross Stimulus Recovery: SEQ 1024KiB writes 8 h, RND 8KiB",
	"               writes 6 h, SEQ 1024KiB writes 8 h, throughput every minute",
	"   ecw         Enterprise Composite Workload: ECW's 12 block sizes over 3",
	"               zones, 40/60, at TC x QD 32..1 to steady state, then the",
	"               response-time histograms of MaxIOPS, MidIOPS and MinIOPS",
	"   dirth       Demand Intensity / Response Time Histogram: the same with",
	"               RND 8KiB 65/35 (--bs, --rwmixread)",
	"   ss-check    the steady-state rule (" SSL_SS_CLAUSE ") over a series of values",
	"   purge       purge a device as the tests do, and say how",
	"   window      a finished test's results over another window of its rounds",
	"",
	"   ssdload pts --resume=DIR   continues an interrupted test",
	"See 'ssdload pts TEST --help' for a test's options; 'ssdload report DIR'",
	"renders a test's report again from its pts.json.",
	NULL,
};

static const char *const ss_usage[] = {
	"usage: ssdload pts ss-check [--window=5] [--max-rounds=25] [--range=20]",
	"                            [--slope=10] [--json] FILE|-",
	"",
	"Apply the steady-state rule of " SSL_SS_SPEC " (" SSL_SS_CLAUSE ") to a series: one",
	"value of the tracking variable per line, round 1 first (for example the IOPS",
	"of each round).  Blank lines and '#' comments are ignored; '-' reads stdin.",
	"",
	"After each round R >= 5 the window R-4..R is checked:",
	"  range            max - min <= 20% of the window's average",
	"  slope excursion  |slope| * 4 of the least-squares line of value against",
	"                   round <= 10% of the window's average",
	"Steady state is the first R that passes both; rounds after it, and after",
	"round 25, are not used (a note says how many values were left).",
	"",
	"  --window=N      rounds in the measurement window (default 5)",
	"  --max-rounds=N  the last round that may reach steady state (default 25)",
	"  --range=PCT     limit of the range, % of the average (default 20)",
	"  --slope=PCT     limit of the slope excursion, % of the average (default 10)",
	"  --json          print the result as one JSON object",
	"",
	"Exit status: 0 steady state reached, 1 not reached, 2 bad usage or input.",
	NULL,
};

enum { SS_WINDOW, SS_MAX_ROUNDS, SS_RANGE, SS_SLOPE, SS_JSON };

static const struct ssl_opt ss_opts[] = {
	{ "window",	SSL_ARG_REQUIRED, SS_WINDOW },
	{ "max-rounds",	SSL_ARG_REQUIRED, SS_MAX_ROUNDS },
	{ "range",	SSL_ARG_REQUIRED, SS_RANGE },
	{ "slope",	SSL_ARG_REQUIRED, SS_SLOPE },
	{ "json",	SSL_ARG_FLAG, SS_JSON },
	{ NULL, 0, 0 },
};

struct ss_series {
	double *v;			/* the values, round 1 first */
	size_t n;			/* number of values */
	size_t cap;			/* allocated entries of v */
	unsigned long lines;		/* lines read */
};

static const char *const ss_space = " \t\r\n\v\f";

/* Parse one line into @s; 0, or -1 after printing "NAME:LINE: why". */
static int ss_parse_line(const char *name, unsigned long ln, char *line, size_t len,
			 struct ss_series *s)
{
	char *tok, *end, *p;
	double v;

	if (strlen(line) != len) {
		ssl_err("%s:%lu: a NUL byte: this is not a text file", name, ln);
		return -1;
	}
	p = strchr(line, '#');
	if (p)
		*p = '\0';
	tok = line + strspn(line, ss_space);
	for (p = tok + strlen(tok); p > tok && strchr(ss_space, p[-1]); p--)
		;
	*p = '\0';
	if (!*tok)
		return 0;
	if (tok[strcspn(tok, ss_space)]) {
		ssl_err("%s:%lu: '%s': one value per line", name, ln, tok);
		return -1;
	}
	errno = 0;
	v = strtod(tok, &end);
	if (end == tok || *end || strpbrk(tok, "xXpP")) {
		ssl_err("%s:%lu: '%s' is not a number", name, ln, tok);
		return -1;
	}
	if (errno == ERANGE) {
		ssl_err("%s:%lu: '%s' is out of range", name, ln, tok);
		return -1;
	}
	if (!isfinite(v)) {
		ssl_err("%s:%lu: '%s' is not a finite number", name, ln, tok);
		return -1;
	}
	if (v < 0) {
		ssl_err("%s:%lu: '%s' is negative (a tracking variable is a rate or a time)",
			name, ln, tok);
		return -1;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		double *nv = realloc(s->v, cap * sizeof(*nv));

		if (!nv) {
			ssl_err("%s:%lu: out of memory", name, ln);
			return -1;
		}
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = v + 0.0;		/* -0 reads as 0 */
	return 0;
}

/* Read every value of @path ("-": stdin); 0, or -1 after a message. */
static int ss_read(const char *path, const char *name, struct ss_series *s)
{
	int ret = 0;
	FILE *f = strcmp(path, "-") ? ssl_fopen_regular(path, SSL_INPUT_MAX_BYTES, &ret) : stdin;
	size_t cap = 0, total = 0;
	char *line = NULL;
	ssize_t len;

	if (!f) {
		ssl_err("%s: %s", name, ssl_strerror(ret));
		return -1;
	}
	errno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		total += (size_t)len;
		if (len > SSL_LINE_MAX || total > SSL_INPUT_MAX_BYTES) {
			ssl_err("%s:%lu: %s", name, s->lines + 1, len > SSL_LINE_MAX ?
				"a line of more than 4096 bytes" : "more than 16 MiB of values");
			ret = -1;
			break;
		}
		if (ss_parse_line(name, ++s->lines, line, len, s)) {
			ret = -1;
			break;
		}
		errno = 0;
	}
	if (!ret && ferror(f)) {
		ssl_err("%s: read error: %s", name, strerror(errno ? errno : EIO));
		ret = -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}

/* A percentage in [0, 100]. */
static int ss_parse_pct(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*out) || strpbrk(s, "xXpP") ||
	    *out < 0 || *out > 100)
		return -1;
	return 0;
}

static void ss_print_pct(long double pct)
{
	if (isnan(pct))
		printf("n/a, the average is 0");
	else
		printf("%.6Lg%% of the average", pct);
}

static const char *ss_pass(bool ok)
{
	return ok ? "pass" : "fail";
}

static void ss_verdict(char *buf, size_t len, unsigned int steady, unsigned int evaluated,
		       const struct ssl_ss_limits *l, const struct ssl_ss_window *w)
{
	if (steady)
		snprintf(buf, len, "steady state reached at round %u (window %u..%u)",
			 steady, w->first, w->last);
	else
		snprintf(buf, len, "steady state not achieved in %u rounds (limit %u)",
			 evaluated, l->max_rounds);
}

/* Why the values after the last round evaluated were not used. */
static const char *ss_unused_why(unsigned int steady)
{
	return steady ? "the test stops at steady state" : "the round limit";
}

static void ss_print_text(const char *name, const struct ss_series *s,
			  const struct ssl_ss_limits *l, const struct ssl_ss_window *w,
			  unsigned int steady, unsigned int evaluated, const char *verdict)
{
	unsigned int r;

	printf("steady-state check of %s (%s, %s)\n", name, SSL_SS_SPEC, SSL_SS_CLAUSE);
	printf("measurement window: rounds %u..%u\n", w->first, w->last);
	for (r = w->first; r <= w->last; r++)
		printf("  round %-5u %.15g\n", r, s->v[r - 1]);
	printf("average           %.10Lg\n", w->avg);
	printf("range             %.10Lg = ", w->range);
	ss_print_pct(w->range_pct);
	printf(" (limit %g%%): %s\n", l->range_pct, ss_pass(w->range_ok));
	printf("least squares     y = %.10Lg * round %c %.10Lg\n", w->slope,
	       w->intercept < 0 ? '-' : '+', fabsl(w->intercept));
	printf("slope excursion   %.10Lg = ", w->slope_exc);
	ss_print_pct(w->slope_exc_pct);
	printf(" (limit %g%%): %s\n", l->slope_pct, ss_pass(w->slope_ok));
	if (s->n > evaluated)
		printf("note: %zu value%s after round %u not used (%s)\n", s->n - evaluated,
		       s->n - evaluated == 1 ? "" : "s", evaluated, ss_unused_why(steady));
	printf("%s\n", verdict);
}

/* a long double as a JSON number, NaN as null */
static json_object *jld(long double v)
{
	return isnan(v) ? NULL : json_object_new_double((double)v);
}

static json_object *ss_json_window(const struct ssl_ss_window *w)
{
	json_object *o = json_object_new_object();

	jset(o, "first_round", json_object_new_int64(w->first));
	jset(o, "last_round", json_object_new_int64(w->last));
	jset(o, "average", jld(w->avg));
	jset(o, "min", jld(w->min));
	jset(o, "max", jld(w->max));
	jset(o, "range", jld(w->range));
	jset(o, "range_pct", jld(w->range_pct));
	jset(o, "range_pass", json_object_new_boolean(w->range_ok));
	jset(o, "slope", jld(w->slope));
	jset(o, "intercept", jld(w->intercept));
	jset(o, "slope_excursion", jld(w->slope_exc));
	jset(o, "slope_excursion_pct", jld(w->slope_exc_pct));
	jset(o, "slope_pass", json_object_new_boolean(w->slope_ok));
	jset(o, "steady", json_object_new_boolean(ssl_ss_steady(w)));
	return o;
}

/* ssl_ss_scan() callback: every window evaluated, for the JSON history */
static void ss_history_add(const struct ssl_ss_window *w, void *arg)
{
	json_object_array_add(arg, ss_json_window(w));
}

static int ss_print_json(const char *name, const struct ss_series *s,
			 const struct ssl_ss_limits *l, const struct ssl_ss_window *w,
			 unsigned int steady, unsigned int evaluated, const char *verdict,
			 json_object *history)
{
	json_object *top = json_object_new_object(), *o, *rounds, *vals;
	const char *str;
	unsigned int r;

	jset(top, "spec", json_object_new_string(SSL_SS_SPEC));
	jset(top, "clause", json_object_new_string(SSL_SS_CLAUSE));
	jset(top, "file", json_object_new_string(name));
	o = json_object_new_object();
	jset(o, "window", json_object_new_int64(l->window));
	jset(o, "max_rounds", json_object_new_int64(l->max_rounds));
	jset(o, "range_pct", json_object_new_double(l->range_pct));
	jset(o, "slope_pct", json_object_new_double(l->slope_pct));
	jset(o, "epsilon", json_object_new_double((double)SSL_SS_EPSILON));
	jset(top, "limits", o);
	jset(top, "values", json_object_new_int64(s->n));
	jset(top, "rounds_evaluated", json_object_new_int64(evaluated));
	jset(top, "unused_values", json_object_new_int64(s->n - evaluated));
	jset(top, "steady", json_object_new_boolean(steady != 0));
	jset(top, "steady_round", steady ? json_object_new_int64(steady) : NULL);
	o = ss_json_window(w);
	rounds = json_object_new_array();
	vals = json_object_new_array();
	for (r = w->first; r <= w->last; r++) {
		json_object_array_add(rounds, json_object_new_int64(r));
		json_object_array_add(vals, json_object_new_double(s->v[r - 1]));
	}
	jset(o, "rounds", rounds);
	jset(o, "values", vals);
	jset(top, "window", o);
	jset(top, "history", json_object_get(history));
	jset(top, "verdict", json_object_new_string(verdict));
	str = json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!str) {
		json_object_put(top);
		ssl_err("pts ss-check: out of memory");
		return -1;
	}
	printf("%s\n", str);
	json_object_put(top);
	return 0;
}

/*
 * The options and the FILE of ss-check into @l, *@path and *@json: -1 to
 * go on, or the exit status (0 after --help).
 */
static int ss_args(int argc, const char **argv, struct ssl_ss_limits *l, const char **path,
		   int *json)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, dashdash = 0, r;
	uint64_t u;

	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, ss_opts, &opt, &val, &dashdash);
		if (r < 0)
			return PTS_EXIT_USAGE;
		if (r == 2) {
			ssl_usage(stdout, ss_usage);
			return 0;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			if (*path) {
				ssl_err("pts ss-check: one file only ('%s' and '%s')", *path,
					argv[i - 1]);
				return PTS_EXIT_USAGE;
			}
			*path = argv[i - 1];
			continue;
		}
		switch (opt->id) {
		case SS_WINDOW:
			if (ssl_parse_u64(val, &u) || u < 2 || u > SS_MAX_WINDOW) {
				ssl_err("--window=%s: must be 2 to %d rounds", val, SS_MAX_WINDOW);
				return PTS_EXIT_USAGE;
			}
			l->window = u;
			break;
		case SS_MAX_ROUNDS:
			if (ssl_parse_u64(val, &u) || u < 2 || u > SS_MAX_MAX_ROUNDS) {
				ssl_err("--max-rounds=%s: must be 2 to %d rounds", val,
					SS_MAX_MAX_ROUNDS);
				return PTS_EXIT_USAGE;
			}
			l->max_rounds = u;
			break;
		case SS_RANGE:
		case SS_SLOPE:
			if (ss_parse_pct(val, opt->id == SS_RANGE ? &l->range_pct :
					 &l->slope_pct)) {
				ssl_err("--%s=%s: must be a percentage from 0 to 100", opt->name,
					val);
				return PTS_EXIT_USAGE;
			}
			break;
		case SS_JSON:
			if (val && ssl_parse_bool(val, json)) {
				ssl_err("--json=%s: must be 0 or 1", val);
				return PTS_EXIT_USAGE;
			}
			if (!val)
				*json = 1;
			break;
		}
	}
	return -1;
}

static int pts_ss_check(int argc, const char **argv)
{
	struct ss_series s = { 0 };
	struct ssl_ss_limits l;
	struct ssl_ss_window w;
	const char *path = NULL, *name;
	json_object *history = NULL;
	unsigned int steady, evaluated;
	int json = 0, ret;
	char verdict[128];

	ssl_ss_limits_default(&l);
	ret = ss_args(argc, argv, &l, &path, &json);
	if (ret >= 0)
		return ret;
	if (!path) {
		ssl_usage(stderr, ss_usage);
		return PTS_EXIT_USAGE;
	}
	if (l.max_rounds < l.window) {
		ssl_err("--max-rounds=%u is less than the window of %u rounds", l.max_rounds,
			l.window);
		return PTS_EXIT_USAGE;
	}
	name = strcmp(path, "-") ? path : "<stdin>";
	if (ss_read(path, name, &s)) {
		free(s.v);
		return PTS_EXIT_USAGE;
	}
	if (s.n < l.window) {
		ssl_err("%s:%lu: end of input after %zu value%s: the measurement window needs %u",
			name, s.lines ? s.lines : 1, s.n, s.n == 1 ? "" : "s", l.window);
		free(s.v);
		return PTS_EXIT_USAGE;
	}

	if (json)
		history = json_object_new_array();
	steady = ssl_ss_scan(s.v, s.n, &l, &w, json ? ss_history_add : NULL, history);
	evaluated = steady ? steady : (s.n < l.max_rounds ? s.n : l.max_rounds);
	ss_verdict(verdict, sizeof(verdict), steady, evaluated, &l, &w);
	if (json) {
		ret = ss_print_json(name, &s, &l, &w, steady, evaluated, verdict, history);
		json_object_put(history);
	} else {
		ss_print_text(name, &s, &l, &w, steady, evaluated, verdict);
		ret = 0;
	}
	free(s.v);
	if (ret)
		return PTS_EXIT_USAGE;
	return steady ? 0 : PTS_EXIT_NOT_STEADY;
}

static const char *const window_usage[] = {
	"usage: ssdload pts window DIR [--window=K] [--window-at=steady|last]",
	"",
	"Print, as JSON, the results of the test in DIR (its pts.json: iops,",
	"throughput, latency, ecw, dirth) averaged over another window of its rounds:",
	"K rounds (default: the run's own, the spec's 5) ending where steady state",
	"was reached (steady; without steady state, the last K), or the last K rounds",
	"run (last).  Percentiles come from the window's merged histograms.  DIR is",
	"only read.",
	NULL,
};

/* ssdload pts window DIR: the results of another window, on stdout. */
static int pts_window(int argc, const char **argv)
{
	const char *dir = NULL;
	char path[PATH_MAX], err[160];
	json_object *doc, *set, *res;
	enum ssl_window_at at = SSL_WINDOW_AT_STEADY;
	unsigned int k = 0;
	bool at_given = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			ssl_usage(stdout, window_usage);
			return 0;
		} else if (!strncmp(argv[i], "--window=", 9)) {
			if (ssl_uint_opt("pts window", "window", argv[i] + 9, 1, 1000, &k))
				return PTS_EXIT_USAGE;
		} else if (!strncmp(argv[i], "--window-at=", 12)) {
			at_given = true;
			if (ssl_ss_window_at_parse(argv[i] + 12, &at)) {
				ssl_err("pts window: --window-at=%s: must be steady or last",
					argv[i] + 12);
				return PTS_EXIT_USAGE;
			}
		} else if (argv[i][0] == '-' || dir) {
			ssl_err("pts window: unexpected argument '%s'", argv[i]);
			return PTS_EXIT_USAGE;
		} else {
			dir = argv[i];
		}
	}
	if (!dir) {
		ssl_usage(stderr, window_usage);
		return PTS_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/pts.json", dir);
	doc = json_object_from_file(path);
	if (!doc) {
		ssl_err("pts window: %s: not a readable JSON file", path);
		return PTS_EXIT_USAGE;
	}
	set = jget(doc, "settings");
	if (!k)
		k = jget(set, "window") ? (unsigned int)jnum(set, "window", 0) : SSL_SS_WINDOW;
	/* the run's own window where the options say nothing */
	if (!at_given && jget(set, "window_at"))
		ssl_ss_window_at_parse(json_object_get_string(jget(set, "window_at")), &at);
	res = window_results(doc, k, at, err, sizeof(err));
	if (!res) {
		ssl_err("pts window: %s: --window=%u: %s", path, k, err);
		json_object_put(doc);
		return PTS_EXIT_USAGE;
	}
	printf("%s\n", json_object_to_json_string_ext(res, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(res);
	json_object_put(doc);
	return 0;
}

/* the subcommands besides the tests that pts_run() runs (pts_is_test()) */
struct pts_test {
	const char *name;
	int (*fn)(int argc, const char **argv);
};

static const struct pts_test pts_tests[] = {
	{ "ss-check",	pts_ss_check },
	{ "purge",	pts_purge },
	{ "window",	pts_window },
};

int cmd_pts(int argc, const char **argv)
{
	size_t i;

	if (argc < 2) {
		ssl_usage(stderr, pts_usage);
		return PTS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		ssl_usage(stdout, pts_usage);
		return 0;
	}
	if (!strncmp(argv[1], "--resume", 8))
		return pts_run(NULL, argc, argv);
	if (pts_is_test(argv[1]))
		return pts_run(argv[1], argc - 1, argv + 1);
	for (i = 0; i < ARRAY_SIZE(pts_tests); i++) {
		if (strcmp(argv[1], pts_tests[i].name))
			continue;
		return pts_tests[i].fn(argc - 1, argv + 1);
	}
	ssl_err("pts: '%s' is not a test, see 'ssdload pts --help'", argv[1]);
	return PTS_EXIT_USAGE;
}
