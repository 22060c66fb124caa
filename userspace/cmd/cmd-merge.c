// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload merge DIR...|FILE... [-o OUT]: the json+ results of many hosts
 * as one result, exactly (fio/merge.c).
 *
 * A FILE is one result (`ssdload run --output-format=json+`); a DIR holds
 * results as DIR/NAME.json or DIR/HOST/NAME.json (a cluster run's layout).
 * Each result is a host, named by its folder inside DIR (HOST), or by its
 * file name without .json.  The results are read one at a time, so memory
 * does not grow with the number of hosts beyond their headline figures.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "cmd/builtin.h"
#include "core/options.h"
#include "core/util.h"
#include "fio/merge.h"

#define MERGE_EXIT_FAILED	1	/* the output could not be written */
#define MERGE_EXIT_USAGE	2	/* bad usage or input: nothing written */

static const char *const merge_usage[] = {
	"usage: ssdload merge [-o OUT] [--output-format=normal|json] DIR...|FILE...",
	"",
	"Merge the json+ results of many hosts (ssdload run --output-format=json+)",
	"into one result of the same schema, exactly: counts and bytes are summed,",
	"latency histograms are added bucket by bucket and every percentile comes",
	"from the sum, so it equals the percentile of all the hosts' I/Os pooled.",
	"Time series are merged per interval, on wall-clock boundaries when the",
	"results carry their start time.  hosts[] keeps each host's own figures.",
	"",
	"  FILE                     one result; the host is its name without .json",
	"  DIR                      DIR/NAME.json and DIR/HOST/NAME.json; the host is",
	"                           HOST, or NAME",
	"  -o, --output=OUT         write the merged JSON to OUT (atomically) and print",
	"                           a table; without it the JSON goes to stdout",
	"  --output-format=FMT      normal (the table, with -o) or json (stdout)",
	"",
	"Results of another histogram geometry or ssdload version, plain json",
	"(no bins) and fio's own results are refused: nothing is written.",
	NULL
};

enum {
	O_OUTPUT,
	O_OUTPUT_FORMAT,
};

static const struct ssl_opt merge_opts[] = {
	{ "output",		SSL_ARG_REQUIRED, O_OUTPUT },
	{ "o",			SSL_ARG_REQUIRED, O_OUTPUT },	/* -o OUT */
	{ "output-format",	SSL_ARG_REQUIRED, O_OUTPUT_FORMAT },
	{ NULL, 0, 0 }
};

struct merge_ctx {
	struct ssl_merge *m;
	const char *out;
	bool json_stdout;
};

static int is_json_name(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".json") && name[0] != '.';
}

static int merge_file(struct merge_ctx *c, const char *path, const char *host)
{
	char why[512];
	json_object *doc;
	int err = 0;

	doc = ssl_json_read(path, SSL_JSON_MAX_BYTES, &err);
	if (!doc) {
		ssl_err("merge: %s: %s", path, err == -EINVAL ? "not JSON" : ssl_strerror(err));
		return -1;
	}
	if (ssl_merge_add(c->m, doc, host, path, why, sizeof(why))) {
		ssl_err("merge: %s: %s", path, why);
		json_object_put(doc);
		return -1;
	}
	json_object_put(doc);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the sorted names of @dir's entries that @keep takes; -1 after a message */
static int list_dir(const char *dir, int (*keep)(const char *, const char *),
		    char ***names, size_t *n)
{
	struct dirent *e;
	size_t cap = 0;
	DIR *d;

	*names = NULL;
	*n = 0;
	d = opendir(dir);
	if (!d) {
		ssl_err("merge: %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char **grown;

		if (!keep(dir, e->d_name))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			grown = realloc(*names, cap * sizeof(**names));
			if (!grown)
				goto nomem;
			*names = grown;
		}
		(*names)[*n] = strdup(e->d_name);
		if (!(*names)[*n])
			goto nomem;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(**names), cmp_str);
	return 0;
nomem:
	closedir(d);
	ssl_err("merge: %s: %s", dir, strerror(ENOMEM));
	return -1;
}

static void free_names(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}

static int kind(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (name[0] == '.' || snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path) || stat(path, &st))
		return 0;
	if (S_ISDIR(st.st_mode))
		return 'd';
	return S_ISREG(st.st_mode) && is_json_name(name) ? 'f' : 0;
}

static int keep_any(const char *dir, const char *name)
{
	return kind(dir, name) != 0;
}

static int keep_json(const char *dir, const char *name)
{
	return kind(dir, name) == 'f';
}

/* DIR/NAME.json (host NAME) and DIR/HOST/NAME.json (host HOST) */
static int merge_dir(struct merge_ctx *c, const char *dir)
{
	char path[PATH_MAX], host[PATH_MAX], **names, **sub;
	size_t n, ns, i, k;
	unsigned int before = ssl_merge_count(c->m);
	int ret = -1;

	if (list_dir(dir, keep_any, &names, &n))
		return -1;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (kind(dir, names[i]) == 'f') {
			snprintf(host, sizeof(host), "%.*s", (int)(strlen(names[i]) - 5),
				 names[i]);
			if (merge_file(c, path, host))
				goto free_names;
			continue;
		}
		if (list_dir(path, keep_json, &sub, &ns))
			goto free_names;
		for (k = 0; k < ns; k++) {
			char file[PATH_MAX];

			if (snprintf(file, sizeof(file), "%s/%s", path, sub[k]) >=
			    (int)sizeof(file)) {
				ssl_err("merge: %s/%s: path too long", path, sub[k]);
				free_names(sub, ns);
				goto free_names;
			}
			if (ns > 1)
				snprintf(host, sizeof(host), "%s/%.*s", names[i],
					 (int)(strlen(sub[k]) - 5), sub[k]);
			else
				snprintf(host, sizeof(host), "%s", names[i]);
			if (merge_file(c, file, host)) {
				free_names(sub, ns);
				goto free_names;
			}
		}
		free_names(sub, ns);
	}
	if (ssl_merge_count(c->m) == before) {
		ssl_err("merge: %s: no results (NAME.json or HOST/NAME.json) in it", dir);
		goto free_names;
	}
	ret = 0;
free_names:
	free_names(names, n);
	return ret;
}

static int merge_arg(struct merge_ctx *c, const char *arg)
{
	char host[PATH_MAX];
	const char *base;
	struct stat st;
	size_t len;

	if (stat(arg, &st)) {
		ssl_err("merge: %s: %s", arg, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode))
		return merge_dir(c, arg);
	base = strrchr(arg, '/');
	base = base ? base + 1 : arg;
	len = strlen(base);
	if (is_json_name(base))
		len -= 5;
	snprintf(host, sizeof(host), "%.*s", (int)len, base);
	return merge_file(c, arg, host);
}

static json_object *jget(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static int64_t pct_of(json_object *lat, const char *key)
{
	json_object *v = jget(jget(lat, "percentile"), key);

	return v ? json_object_get_int64(v) : -1;
}

static void print_row(const char *name, const char *dir, json_object *d)
{
	json_object *clat = jget(d, "clat_ns");
	char bw[32];

	ssl_size_str(bw, sizeof(bw), (uint64_t)json_object_get_int64(jget(d, "bw_bytes")));
	printf("  %-20.20s %-5s %12.0f %10s/s", name, dir,
	       json_object_get_double(jget(d, "iops")), bw);
	if (pct_of(clat, "50.000000") >= 0)
		printf(" %10.1f %10.1f %10.1f", pct_of(clat, "50.000000") / 1e3,
		       pct_of(clat, "99.000000") / 1e3, pct_of(clat, "99.900000") / 1e3);
	printf("\n");
}

/* the merged jobs, then each host's line under them */
static void print_table(json_object *doc)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	json_object *jobs = jget(doc, "jobs"), *hosts = jget(doc, "hosts");
	size_t i, h, d;

	printf("merged %zu results\n", json_object_array_length(hosts));
	for (i = 0; i < json_object_array_length(jobs); i++) {
		json_object *job = json_object_array_get_idx(jobs, i);
		const char *name = json_object_get_string(jget(job, "jobname"));

		printf("\njob %s (%" PRId64 " hosts)\n", name,
		       json_object_get_int64(jget(jget(job, "ssdload"), "hosts")));
		printf("  %-20s %-5s %12s %12s %10s %10s %10s\n", "host", "dir", "IOPS",
		       "bandwidth", "p50 us", "p99 us", "p99.9 us");
		for (d = 0; d < 3; d++)
			if (json_object_get_int64(jget(jget(job, dirs[d]), "total_ios")))
				print_row("all", dirs[d], jget(job, dirs[d]));
		for (h = 0; h < json_object_array_length(hosts); h++) {
			json_object *host = json_object_array_get_idx(hosts, h);
			json_object *hj = jget(host, "jobs");
			size_t k;

			for (k = 0; k < json_object_array_length(hj); k++) {
				json_object *x = json_object_array_get_idx(hj, k);

				if (strcmp(json_object_get_string(jget(x, "jobname")), name))
					continue;
				for (d = 0; d < 3; d++)
					if (jget(x, dirs[d]))
						print_row(json_object_get_string(jget(host, "host")),
							  dirs[d], jget(x, dirs[d]));
			}
		}
	}
}

static int merge_parse(struct merge_ctx *c, int argc, const char **argv,
		       const char ***args, int *nargs)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, dashdash = 0, r;

	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, merge_opts, &opt, &val, &dashdash);
		if (r < 0)
			return -1;
		if (r == 2) {
			ssl_usage(stdout, merge_usage);
			return 1;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			(*args)[(*nargs)++] = argv[i - 1];
			continue;
		}
		switch (opt->id) {
		case O_OUTPUT:
			if (!*val) {
				ssl_err("merge: --output= needs a file name");
				return -1;
			}
			c->out = val;
			break;
		case O_OUTPUT_FORMAT:
			if (!strcmp(val, "json")) {
				c->json_stdout = true;
			} else if (strcmp(val, "normal")) {
				ssl_err("merge: --output-format=%s: normal or json", val);
				return -1;
			}
			break;
		}
	}
	if (!*nargs) {
		ssl_err("merge: name the results to merge (DIR or FILE)");
		ssl_usage(stderr, merge_usage);
		return -1;
	}
	if (!c->out)
		c->json_stdout = true;
	return 0;
}

int cmd_merge(int argc, const char **argv)
{
	struct merge_ctx c = { 0 };
	struct ssl_atomic a;
	const char **args;
	json_object *doc;
	int nargs = 0, i, r, ret = MERGE_EXIT_USAGE;

	args = calloc((size_t)argc, sizeof(*args));
	if (!args) {
		ssl_err("merge: %s", strerror(ENOMEM));
		return MERGE_EXIT_FAILED;
	}
	r = merge_parse(&c, argc, argv, &args, &nargs);
	if (r) {
		ret = r > 0 ? 0 : MERGE_EXIT_USAGE;
		goto free_args;
	}
	c.m = ssl_merge_new();
	if (!c.m) {
		ssl_err("merge: %s", strerror(ENOMEM));
		ret = MERGE_EXIT_FAILED;
		goto free_args;
	}
	for (i = 0; i < nargs; i++)
		if (merge_arg(&c, args[i]))
			goto free_merge;
	doc = ssl_merge_doc(c.m);
	if (!doc) {
		ssl_err("merge: %s", strerror(ENOMEM));
		ret = MERGE_EXIT_FAILED;
		goto free_merge;
	}
	ret = 0;
	if (c.out) {
		FILE *f = ssl_atomic_open(&a, c.out);

		if (!f) {
			ret = MERGE_EXIT_FAILED;
		} else if (fprintf(f, "%s\n", json_object_to_json_string_ext(doc,
				   JSON_C_TO_STRING_PRETTY |
				   JSON_C_TO_STRING_NOSLASHESCAPE)) < 0) {
			ssl_err("merge: %s: %s", c.out, strerror(errno));
			ssl_atomic_abort(&a);
			ret = MERGE_EXIT_FAILED;
		} else if (ssl_atomic_commit(&a)) {
			ret = MERGE_EXIT_FAILED;
		}
	}
	if (!ret && c.json_stdout)
		printf("%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	else if (!ret)
		print_table(doc);
	json_object_put(doc);
free_merge:
	ssl_merge_free(c.m);
free_args:
	free(args);
	return ret;
}
