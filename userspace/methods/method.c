// SPDX-License-Identifier: GPL-2.0
/* What sweep, curve, scale and latency-grid share: see method.h. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "device/device.h"
#include "methods/method.h"

int ssl_method_path(const struct ssl_method *m, char *buf, size_t len, const char *rel)
{
	return ssl_dir_path(m->cmd, m->dir, rel, buf, len);
}

int ssl_method_save(const struct ssl_method *m, json_object *doc, const char *json)
{
	char path[PATH_MAX];

	if (ssl_method_path(m, path, sizeof(path), json))
		return -1;
	return json_save(doc, path);
}

int ssl_method_finish(const struct ssl_method *m, json_object *doc, const char *json,
		      const char *state)
{
	jset(doc, "state", json_object_new_string(state));
	jset(doc, "finished", jnow());
	return ssl_method_save(m, doc, json);
}

int ssl_method_status(int st, int failed)
{
	if (ssl_run_sig)
		return SSL_EXIT_SIGNAL(ssl_run_sig);
	return st ? (st > 128 ? st : failed) : 0;
}

int ssl_method_trial(const struct ssl_method *m, struct ssl_argv *a)
{
	int st = ssl_run_spawn(a, "/dev/null");

	av_free(a);
	if (st)
		ssl_err("%s: ssdload run refused the %s's job (above); nothing ran", m->cmd,
			m->cmd);
	return st;
}

/* bins of @clat merged into @bins (key: ns as text -> count) */
void ssl_bins_merge(json_object *bins, json_object *clat)
{
	json_object *b = jget(clat, "bins");

	if (!b || !json_object_is_type(b, json_type_object))
		return;
	json_object_object_foreach(b, k, v) {
		json_object *have = jget(bins, k);
		int64_t n = json_object_get_int64(v) + (have ? json_object_get_int64(have) : 0);

		jset(bins, k, json_object_new_int64(n));
	}
}

struct bin {
	uint64_t ns, n;
};

static int bin_cmp(const void *a, const void *b)
{
	const struct bin *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* The @pct percentile of merged @bins: the value of the bucket it lies in. */
json_object *ssl_bins_pct(json_object *bins, double pct)
{
	size_t n = 0, i, cap = (size_t)json_object_object_length(bins);
	struct bin *v;
	uint64_t total = 0, need, seen = 0;
	json_object *out = NULL;

	if (!cap)
		return NULL;
	v = calloc(cap, sizeof(*v));
	if (!v)
		return NULL;
	json_object_object_foreach(bins, k, x) {
		v[n].ns = strtoull(k, NULL, 10);
		v[n].n = (uint64_t)json_object_get_int64(x);
		total += v[n++].n;
	}
	qsort(v, n, sizeof(*v), bin_cmp);
	need = (uint64_t)ceil(pct / 100.0 * (double)total);
	if (!need)
		need = 1;
	for (i = 0; i < n; i++) {
		seen += v[i].n;
		if (seen >= need) {
			out = json_object_new_int64((int64_t)v[i].ns);
			break;
		}
	}
	free(v);
	return out;
}

#define STEPS_EXIT_FAILED	1	/* the run failed */
#define STEPS_EXIT_USAGE	2	/* bad usage or a refusal: nothing ran */

static int write_steps(const struct ssl_method *m, const struct ssl_step_method *ops,
		       const void *ctx)
{
	struct ssl_atomic a;
	char path[PATH_MAX];
	FILE *f;

	if (ssl_method_path(m, path, sizeof(path), "steps.txt"))
		return -1;
	f = ssl_atomic_open(&a, path);
	if (!f)
		return -1;
	ops->steps(ctx, f);
	return ssl_atomic_commit(&a);
}

/* The `ssdload run` of the method (@parse_only: only check its options). */
static void steps_argv(const struct ssl_method *m, const struct ssl_step_method *ops,
		       const void *ctx, struct ssl_argv *a, bool parse_only)
{
	char name[64];

	memset(a, 0, sizeof(*a));
	snprintf(name, sizeof(name), "%s-%ld", m->cmd, (long)getpid());
	ssl_method_argv(m, a, name);
	ops->argv(ctx, a);
	av_addf(a, "--steps=%s/steps.txt", m->dir);
	av_addf(a, "--eta=%s", m->eta);
	if (parse_only)
		av_add(a, "--parse-only");
}

/* the run into run.json, its results into @doc; the document's state */
static const char *run_steps(const struct ssl_method *m, const struct ssl_step_method *ops,
			     void *ctx, json_object *doc, const char *run_path, int *st)
{
	struct ssl_argv a;
	json_object *run, *job;
	const char *state;

	ssl_run_catch_signals();
	steps_argv(m, ops, ctx, &a, false);
	*st = ssl_run_spawn(&a, run_path);
	av_free(&a);
	run = ssl_json_read(run_path, SSL_JSON_MAX_BYTES, NULL);
	job = run ? run_job0(run) : NULL;
	if (job)
		ops->fill(ctx, doc, job);
	if (ssl_run_sig || (*st > 128 && job))
		state = "interrupted";
	else if (*st || !job)
		state = "failed";
	else
		state = "done";
	if (run)
		json_object_put(run);
	return job ? state : NULL;
}

int ssl_method_run_steps(struct ssl_method *m, const struct ssl_step_method *ops,
			 void *ctx, json_object **doc)
{
	char run_path[PATH_MAX];
	struct ssl_argv a;
	struct ssl_dev dev;
	const char *state;
	int st, pst;

	*doc = NULL;
	st = ops->guard ? ops->guard(ctx) : 0;
	if (st)
		return st > 0 ? 0 : STEPS_EXIT_USAGE;
	if (ssl_make_outdir(m->cmd, m->dir, sizeof(m->dir), ops->json, &m->made_dir))
		return STEPS_EXIT_USAGE;
	if (write_steps(m, ops, ctx))
		goto refused;
	/* the run's own checks first: a refusal leaves nothing behind */
	steps_argv(m, ops, ctx, &a, true);
	if (ssl_method_trial(m, &a))
		goto refused;
	memset(&dev, 0, sizeof(dev));
	if (ssl_dev_probe(m->filename, &dev) || (ops->check && ops->check(ctx, &dev)))
		goto refused;
	*doc = ops->doc(ctx, &dev);
	if (ssl_method_save(m, *doc, ops->json) ||
	    ssl_method_path(m, run_path, sizeof(run_path), "run.json"))
		return STEPS_EXIT_FAILED;
	ssl_run_catch_signals();
	pst = ops->precondition ? ops->precondition(ctx, *doc) : 0;
	st = pst;
	state = pst ? NULL : run_steps(m, ops, ctx, *doc, run_path, &st);
	if (ssl_method_finish(m, *doc, ops->json,
			      state ? state : ssl_run_sig ? "interrupted" : "failed"))
		return STEPS_EXIT_FAILED;
	if (!state) {
		/* a failed preconditioning said why */
		if (!pst)
			ssl_err("%s: the run left no results in %s (exit status %d)", m->cmd,
				run_path, st);
		return st > 128 ? st : STEPS_EXIT_FAILED;
	}
	ssl_method_output(m, *doc, ops->table, ctx);
	return ssl_method_status(st, STEPS_EXIT_FAILED);

refused:
	if (!ssl_method_path(m, run_path, sizeof(run_path), "steps.txt"))
		unlink(run_path);
	if (m->made_dir)
		rmdir(m->dir);
	return STEPS_EXIT_USAGE;
}
