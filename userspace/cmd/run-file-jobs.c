// SPDX-License-Identifier: GPL-2.0
/*
 * A job file of several job sections, in fio's order.  Each job is a run
 * of this binary, `ssdload run FILE --section=S` with the command line's
 * options; the jobs of a set (between two stonewalls) are armed in one
 * group and started at one instant (ssl_run_group), the next set once
 * they have all ended.  Their --parse-only runs come first: nothing runs
 * unless every job would.  Their reports make one: the JSON entries in
 * file order with fio's groupid and job_start, the text blocks and the
 * "Run status group" of each reporting group, the disks over the whole run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uapi/ssdload.h"
#include "cmd/builtin.h"
#include "cmd/run.h"
#include "core/options.h"
#include "core/util.h"
#include "fio/jobfile.h"
#include "fio/report.h"
#include "methods/runner.h"

#define SET_ARM_TIMEOUT_MS	120000	/* every job of a set armed within */

struct file_job {
	const struct ssl_jobfile_plan *p;
	char name[256];			/* the job's, from its --parse-only */
	char *parse;			/* its --parse-only output */
	char out[PATH_MAX];		/* its run's stdout */
	int ran;			/* its run was started */
	int status;			/* its exit status, -1: not known */
	uint64_t start_ms;		/* CLOCK_REALTIME of its set's start */
	char *buf;			/* its run's output */
	json_object *doc;		/* its JSON report, or NULL */
	const char *text;		/* its normal report, in @buf */
};

struct file_run {
	struct run_ctx *c;
	struct ssl_jobfile_plan *plan;
	struct file_job *j;
	int n;
	unsigned int nsets, ngroups;
	char dir[PATH_MAX];		/* the runs' outputs, removed at the end */
};

/* The command line's options that mean one job, refused with several. */
static int file_jobs_cmdline(const struct run_ctx *c, int n)
{
	static const struct {
		int id;
		const char *why;
	} no[] = {
		{ O_NAME, "each job is named after its section (or its name=)" },
		{ O_GROUP, "ssdload run starts the jobs of each set together itself" },
		{ O_STATUS_INTERVAL, "periodic reports are for one job" },
		{ O_TRIGGER_TIMEOUT, "a trigger is for one job" },
		{ O_TRIGGER_FILE, "a trigger is for one job" },
		{ O_TRIGGER_CMD, "a trigger is for one job" },
		{ O_LATENCY_TABLE, "the latency study is for one job" },
		{ O_LATENCY_BELOW, "the latency study is for one job" },
		{ O_LATENCY_CHECK, "the latency study is for one job" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(no); i++) {
		if (!c->raw[no[i].id])
			continue;
		ssl_err("--%s%s%s: %s has %d job sections: %s (run one with --section=NAME)",
			c->raw_name[no[i].id], *c->raw[no[i].id] ? "=" : "", c->raw[no[i].id],
			c->jobfile, n, no[i].why);
		return -1;
	}
	return 0;
}

/* group= in a job of several: run_file_jobs() gives each set its group */
static int file_job_group(void *ctx, const struct ssl_jobfile_opt *o)
{
	const struct ssl_opt *opt = ssl_find_opt(run_opts, o->key, strlen(o->key));

	(void)ctx;
	if (!opt || opt->id != O_GROUP)
		return 0;
	ssl_err("%s: %s=%s: the jobs of a file of several are started in sets by "
		"ssdload run itself (stonewall, new_group): leave group= out", o->where,
		o->key, o->val);
	return -1;
}

/*
 * The run of job @j: FILE (or --profile) and its section, the command
 * line's options as given, then --parse-only, or the outputs the merge
 * reads (JSON first, then the normal report) and the progress line of
 * the @first job of the set only.
 */
static void file_job_argv(const struct run_ctx *c, struct ssl_argv *a,
			  const struct file_job *j, int parse_only, int first)
{
	const struct ssl_opt *opt;
	int i, id;

	av_add(a, "ssdload");
	av_add(a, "run");
	if (!c->raw[O_PROFILE])
		av_addf(a, "%s%s", c->jobfile[0] == '-' ? "./" : "", c->jobfile);
	av_addf(a, "--section=%s", j->p->s->name);
	for (i = 0; i < c->nr_order; i++) {
		id = c->order[i];
		if (id == O_OUTPUT_FORMAT || id == O_OUTPUT || id == O_PARSE_ONLY ||
		    id == O_ETA || id == O_STEP || id == O_STEPS)
			continue;
		opt = ssl_find_opt(run_opts, c->raw_name[id], strlen(c->raw_name[id]));
		if (opt && opt->arg == SSL_ARG_FLAG && !*c->raw[id])
			av_addf(a, "--%s", c->raw_name[id]);
		else
			av_addf(a, "--%s=%s", c->raw_name[id], c->raw[id]);
	}
	for (i = 0; i < c->nsrc; i++)
		av_addf(a, "--%s=%s", c->src[i].file ? "steps" : "step", c->src[i].arg);
	if (parse_only) {
		av_add(a, "--parse-only");
		return;
	}
	av_addf(a, "--output-format=%s%s", c->fmt & SSL_OUTPUT_JSON_PLUS ? "json+" : "json",
		c->fmt & SSL_OUTPUT_NORMAL ? ",normal" : "");
	if (!first)
		av_add(a, "--eta=never");
	else if (c->raw[O_ETA])
		av_addf(a, "--eta=%s", c->raw[O_ETA]);
}

static int file_run_path(const struct file_run *fr, char *buf, size_t len, int k,
			 const char *ext)
{
	if (snprintf(buf, len, "%s/%d.%s", fr->dir, k, ext) >= (int)len) {
		ssl_err("%s: path too long", fr->dir);
		return -1;
	}
	return 0;
}

/* Run @a with its stdout into @out and its stderr into @err: its exit status. */
static int spawn_captured(struct ssl_argv *a, const char *out, const char *err)
{
	int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), saved, st;

	if (fd < 0) {
		ssl_err("%s: %s", err, strerror(errno));
		return -1;
	}
	fflush(stderr);
	saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved < 0 || dup2(fd, STDERR_FILENO) < 0) {
		ssl_err("%s: %s", err, strerror(errno));
		close(fd);
		if (saved >= 0)
			close(saved);
		return -1;
	}
	close(fd);
	st = ssl_run_spawn(a, out);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	return st;
}

/* "KEY=value" of a --parse-only output: the value up to the line's end, or NULL */
static const char *parse_value(const char *text, const char *key, size_t *len)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, key, kl) || p[kl] != '=')
			continue;
		p += kl + 1;
		*len = strcspn(p, "\n");
		return p;
	}
	return NULL;
}

/* The devices of a job, to fio's disk_util over the whole run (no more than 16). */
static void file_job_devs(struct run_ctx *c, const char *parse)
{
	char *devs[SSL_MAX_DEVS], list[4096], why[256];
	const char *v;
	size_t len;
	int i, k, n;

	v = parse_value(parse, SSDLOAD_ATTR_FILENAME, &len);
	if (!v || len >= sizeof(list))
		return;
	snprintf(list, sizeof(list), "%.*s", (int)len, v);
	n = ssl_split_filenames(list, devs, SSL_MAX_DEVS, why, sizeof(why));
	for (i = 0; i < n; i++) {
		for (k = 0; k < c->ndevs && strcmp(c->devs[k], devs[i]); k++)
			;
		if (k == c->ndevs && c->ndevs < SSL_MAX_DEVS)
			c->devs[c->ndevs++] = devs[i];
		else
			free(devs[i]);
	}
}

/* Print the lines of @msg not printed by an earlier call. */
static void print_new_lines(char *msg)
{
	static struct ssl_argv seen;	/* the lines printed (copies) */
	char *line, *save = NULL;
	int i;

	for (line = strtok_r(msg, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < seen.n && strcmp(seen.v[i], line); i++)
			;
		if (i < seen.n)
			continue;
		av_addf(&seen, "%s", line);
		fprintf(stderr, "%s\n", line);
	}
}

/*
 * Every job's --parse-only, in file order: the first refusal is printed
 * (the job's own message, FILE:LINE) and nothing runs.  The jobs' notes
 * are printed here, each line once (a [global]'s note is every job's),
 * and the runs leave them out (SSL_NOTED_ENV).
 */
static int file_jobs_check(struct file_run *fr)
{
	struct run_ctx *c = fr->c;
	char out[PATH_MAX], err[PATH_MAX], *msg;
	struct ssl_argv a;
	const char *v;
	size_t len;
	int k, i, st;

	for (k = 0; k < fr->n; k++) {
		struct file_job *j = &fr->j[k];

		if (file_run_path(fr, out, sizeof(out), k, "parse") ||
		    file_run_path(fr, err, sizeof(err), k, "err"))
			return -1;
		memset(&a, 0, sizeof(a));
		file_job_argv(c, &a, j, 1, 0);
		st = spawn_captured(&a, out, err);
		av_free(&a);
		msg = NULL;
		if (ssl_read_file(err, &msg, &len))
			msg = NULL;
		if (msg && st)
			fputs(msg, stderr);
		else if (msg)
			print_new_lines(msg);
		free(msg);
		if (st) {
			if (st > 0 && !msg)
				ssl_err("%s: [%s]: ssdload run --parse-only failed (exit status "
					"%d)", c->jobfile, j->p->s->name, st);
			return -1;
		}
		if (ssl_read_file(out, &j->parse, &len)) {
			ssl_err("%s: cannot be read back", out);
			return -1;
		}
		v = parse_value(j->parse, "name", &len);
		snprintf(j->name, sizeof(j->name), "%.*s", v ? (int)len : 0, v ? v : "");
		for (i = 0; i < k; i++)
			if (!strcmp(fr->j[i].name, j->name)) {
				ssl_err("%s: [%s] is named '%s', as [%s] is: each job needs a "
					"name of its own (name=)", j->p->s->where, j->p->s->name,
					j->name, fr->j[i].p->s->name);
				return -1;
			}
		file_job_devs(c, j->parse);
	}
	return 0;
}

/* Run the sets one after another; 0, or -1 when one could not start. */
static int file_jobs_run(struct file_run *fr)
{
	const char *outs[SSL_GROUP_MAX_RUNS], *names[SSL_GROUP_MAX_RUNS];
	struct file_job *in[SSL_GROUP_MAX_RUNS];
	int st[SSL_GROUP_MAX_RUNS], k, r = 0;
	struct ssl_argv *a;
	unsigned int set, m, i;
	char group[64];

	a = calloc(SSL_GROUP_MAX_RUNS, sizeof(*a));
	if (!a) {
		ssl_err("out of memory");
		return -1;
	}
	for (set = 0; set < fr->nsets && !ssl_run_sig && !r; set++) {
		memset(a, 0, SSL_GROUP_MAX_RUNS * sizeof(*a));
		for (k = 0, m = 0; k < fr->n; k++) {
			struct file_job *j = &fr->j[k];

			if (j->p->set != set)
				continue;
			file_job_argv(fr->c, &a[m], j, 0, m == 0);
			outs[m] = j->out;
			names[m] = j->name;
			in[m++] = j;
		}
		snprintf(group, sizeof(group), "run-%ld-%u", (long)getpid(), set + 1);
		r = ssl_run_group(a, outs, names, m, group, SET_ARM_TIMEOUT_MS, st);
		if (r && !ssl_run_sig)
			ssl_err("%s: the jobs from [%s] on did not run", fr->c->jobfile,
				in[0]->p->s->name);
		/* a set that did not start (r < 0) has nothing to report */
		for (i = 0; i < m; i++) {
			av_free(&a[i]);
			in[i]->ran = !r;
			in[i]->status = st[i];
			in[i]->start_ms = ssl_run_group_start_ms;
		}
	}
	free(a);
	return r;
}

/* Job @j's output: its JSON document, then its normal report (if asked for). */
static void file_job_read(struct file_job *j)
{
	struct json_tokener *tok;
	size_t len;

	if (!j->ran || ssl_read_file(j->out, &j->buf, &len) || !len)
		return;
	tok = json_tokener_new();
	if (!tok)
		return;
	j->doc = json_tokener_parse_ex(tok, j->buf, (int)len);
	if (j->doc && json_object_is_type(j->doc, json_type_object) &&
	    json_object_is_type(jget(j->doc, "jobs"), json_type_array)) {
		j->text = j->buf + json_tokener_get_parse_end(tok);
		while (*j->text == '\n')
			j->text++;
	} else if (j->doc) {
		json_object_put(j->doc);
		j->doc = NULL;
	}
	json_tokener_free(tok);
}

/* An entry of a job's "jobs" with fio's groupid and job_start. */
static json_object *file_entry(json_object *e, unsigned int groupid, uint64_t start_ms)
{
	json_object *o = json_object_new_object();

	json_object_object_foreach(e, k, v) {
		if (!strcmp(k, "job_start"))
			continue;
		if (!strcmp(k, "groupid")) {
			jset(o, k, json_object_new_int64(groupid));
			jset(o, "job_start", json_object_new_int64((int64_t)start_ms));
			continue;
		}
		jset(o, k, json_object_get(v));
	}
	return o;
}

/* fio's disk_util, from run_ctx's disks (report.c's json_disks()) */
static json_object *file_disks(const struct run_ctx *c)
{
	json_object *arr = json_object_new_array();
	int i;

	for (i = 0; i < c->ndisks; i++) {
		const struct ssl_disk_util *u = &c->disks[i];
		json_object *o = json_object_new_object();

		jset(o, "name", json_object_new_string(u->name));
		jset(o, "read_ios", json_object_new_int64((int64_t)u->ios[0]));
		jset(o, "write_ios", json_object_new_int64((int64_t)u->ios[1]));
		jset(o, "read_merges", json_object_new_int64((int64_t)u->merges[0]));
		jset(o, "write_merges", json_object_new_int64((int64_t)u->merges[1]));
		jset(o, "read_ticks", json_object_new_int64((int64_t)u->ticks[0]));
		jset(o, "write_ticks", json_object_new_int64((int64_t)u->ticks[1]));
		jset(o, "in_queue", json_object_new_int64((int64_t)u->in_queue));
		jset(o, "util", json_object_new_double(u->util));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* One JSON document: every job's entries in file order. */
static int file_print_json(const struct file_run *fr)
{
	json_object *top = json_object_new_object(), *jobs = json_object_new_array();
	json_object *glob = json_object_new_object();
	const struct ssl_jobfile *jf = &fr->c->jf;
	const char *fio = NULL, *s;
	time_t now = time(NULL);
	struct timespec ts;
	char when[64];
	int i, k;
	size_t e;

	for (i = 0; i < jf->n; i++)	/* fio leaves out the flags given bare */
		for (k = 0; jf->s[i].global && k < jf->s[i].n; k++)
			if (*jf->s[i].o[k].val)
				jset(glob, jf->s[i].o[k].key,
				     json_object_new_string(jf->s[i].o[k].val));
	for (k = 0; k < fr->n; k++) {
		const struct file_job *j = &fr->j[k];
		json_object *arr = jget(j->doc, "jobs");

		if (!j->doc)
			continue;
		if (!fio)
			fio = jstring(j->doc, "fio version");
		for (e = 0; e < json_object_array_length(arr); e++)
			json_object_array_add(jobs, file_entry(json_object_array_get_idx(arr, e),
							       j->p->groupid, j->start_ms));
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	json_c_set_serialization_double_format("%.6f", JSON_C_OPTION_GLOBAL);
	jset(top, "fio version", json_object_new_string(fio ? fio :
							 "ssdload-" SSDLOAD_CLI_VERSION));
	jset(top, "timestamp", json_object_new_int64((int64_t)now));
	jset(top, "timestamp_ms", json_object_new_int64((int64_t)ts.tv_sec * 1000 +
							ts.tv_nsec / 1000000));
	if (!strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&now)))
		when[0] = '\0';
	jset(top, "time", json_object_new_string(when));
	jset(top, "global options", glob);
	jset(top, "jobs", jobs);
	jset(top, "disk_util", file_disks(fr->c));
	s = json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s)
		printf("%s\n", s);
	json_object_put(top);
	return s ? 0 : -1;
}

/*
 * fio's "Run status group N" (its show_group_stats()): per direction the
 * group's bytes over its longest runtime, the smallest and largest job
 * bandwidth (bytes over the job's runtime), the bytes, the runtimes.
 */
static void file_group_status(const struct file_run *fr, unsigned int g)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	static const char *const upper[] = { "READ", "WRITE", "TRIM" };
	char agg[32], aggalt[32], mn[32], mnalt[32], mx[32], mxalt[32], io[32], ioalt[32];
	unsigned int d;
	size_t e;
	int k;

	printf("\nRun status group %u (all jobs):\n", g);
	for (d = 0; d < ARRAY_SIZE(dirs); d++) {
		uint64_t min_run = 0, max_run = 0, min_bw = UINT64_MAX, max_bw = 0, bytes = 0;

		for (k = 0; k < fr->n; k++) {
			json_object *arr = jget(fr->j[k].doc, "jobs");

			if (!fr->j[k].doc || fr->j[k].p->groupid != g)
				continue;
			for (e = 0; e < json_object_array_length(arr); e++) {
				json_object *x = jget(json_object_array_get_idx(arr, e), dirs[d]);
				uint64_t rt = (uint64_t)jnum(x, "runtime", 0);
				uint64_t b = (uint64_t)jnum(x, "io_bytes", 0), bw;

				if (!rt)
					continue;
				if (!min_run || rt < min_run)
					min_run = rt;
				if (rt > max_run)
					max_run = rt;
				bw = b * 1000 / rt;
				if (bw < min_bw)
					min_bw = bw;
				if (bw > max_bw)
					max_bw = bw;
				bytes += b;
			}
		}
		if (!max_run)
			continue;
		ssl_num2str(agg, sizeof(agg), bytes * 1000 / max_run, 4, 1, "B/s");
		ssl_num2str(aggalt, sizeof(aggalt), bytes * 1000 / max_run, 4, 0, "B/s");
		ssl_num2str(mn, sizeof(mn), min_bw, 4, 1, "B/s");
		ssl_num2str(mnalt, sizeof(mnalt), min_bw, 4, 0, "B/s");
		ssl_num2str(mx, sizeof(mx), max_bw, 4, 1, "B/s");
		ssl_num2str(mxalt, sizeof(mxalt), max_bw, 4, 0, "B/s");
		ssl_num2str(io, sizeof(io), bytes, 4, 1, "B");
		ssl_num2str(ioalt, sizeof(ioalt), bytes, 4, 0, "B");
		printf("%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64
		       "msec\n", upper[d], agg, aggalt, mn, mx, mnalt, mxalt, io, ioalt,
		       min_run, max_run);
	}
}

/*
 * A job's normal report without what is the whole run's: its block, with
 * its groupid, then (after its run status and disk stats) its steps.
 */
static void file_print_block(const struct file_job *j)
{
	static const char status[] = "\nRun status group 0 (all jobs):\n";
	static const char disks[] = "\nDisk stats (read/write):\n";
	static const char gid[] = "(groupid=0, ";
	const char *end = strstr(j->text, status), *eol = strchr(j->text, '\n');
	const char *g = strstr(j->text, gid), *rest;

	if (!end)
		end = j->text + strlen(j->text);
	if (g && eol && g < eol && g < end) {
		printf("%.*s(groupid=%u, ", (int)(g - j->text), j->text, j->p->groupid);
		printf("%.*s", (int)(end - g - strlen(gid)), g + strlen(gid));
	} else {
		printf("%.*s", (int)(end - j->text), j->text);
	}
	if (!*end)
		return;
	/* the status lines and disk lines are indented; what follows is the job's */
	rest = end + strlen(status);
	while (*rest == ' ')
		rest = strchr(rest, '\n') ? strchr(rest, '\n') + 1 : rest + strlen(rest);
	if (!strncmp(rest, disks, strlen(disks))) {
		rest += strlen(disks);
		while (*rest == ' ')
			rest = strchr(rest, '\n') ? strchr(rest, '\n') + 1 :
			       rest + strlen(rest);
	}
	fputs(rest, stdout);
}

/* fio's normal output of several jobs: each job, each group's status, the disks */
static void file_print_normal(const struct file_run *fr)
{
	const struct run_ctx *c = fr->c;
	unsigned int g;
	int k, i;

	for (k = 0; k < fr->n; k++)
		if (fr->j[k].doc && fr->j[k].text)
			file_print_block(&fr->j[k]);
	for (g = 0; g < fr->ngroups; g++)
		for (k = 0; k < fr->n; k++)
			if (fr->j[k].doc && fr->j[k].p->groupid == g) {
				file_group_status(fr, g);
				break;
			}
	if (!c->ndisks)
		return;
	printf("\nDisk stats (read/write):\n");
	for (i = 0; i < c->ndisks; i++) {
		const struct ssl_disk_util *u = &c->disks[i];

		printf("  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
		       ", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%.2f%%\n",
		       u->name, u->ios[0], u->ios[1], u->merges[0], u->merges[1], u->ticks[0],
		       u->ticks[1], u->in_queue, u->util);
	}
}

/* --parse-only of several jobs: each job's, after a line of its place */
static void file_print_parse(const struct file_run *fr)
{
	int k;

	for (k = 0; k < fr->n; k++) {
		const struct file_job *j = &fr->j[k];

		printf("%s# [%s]: set %u of %u, groupid %u\n%s", k ? "\n" : "", j->p->s->name,
		       j->p->set + 1, fr->nsets, j->p->groupid, j->parse);
	}
}

static void file_run_free(struct file_run *fr)
{
	static const char *const ext[] = { "parse", "err", "out" };
	char path[PATH_MAX];
	size_t e;
	int k;

	for (k = 0; k < fr->n && fr->j; k++) {
		free(fr->j[k].parse);
		free(fr->j[k].buf);
		if (fr->j[k].doc)
			json_object_put(fr->j[k].doc);
		for (e = 0; fr->dir[0] && e < ARRAY_SIZE(ext); e++)
			if (!file_run_path(fr, path, sizeof(path), k, ext[e]))
				unlink(path);
	}
	if (fr->dir[0])
		rmdir(fr->dir);
	free(fr->j);
	free(fr->plan);
}

/*
 * The sets' sizes (one group of at most SSL_GROUP_MAX_RUNS runs each) and
 * the sections' names (the runs' --section), then the numbers of sets and
 * groups.
 */
static int file_sets(struct file_run *fr)
{
	unsigned int set;
	int k, first = 0;

	for (k = 0; k < fr->n; k++) {
		if (k && fr->plan[k].set != fr->plan[k - 1].set)
			first = k;
		if (k - first + 1 > SSL_GROUP_MAX_RUNS) {
			ssl_err("%s: more than %d jobs would start together from [%s] on: "
				"give one of them stonewall", fr->c->jobfile, SSL_GROUP_MAX_RUNS,
				fr->plan[first].s->name);
			return -1;
		}
	}
	/* --section=NAME picks the first [NAME]: each job needs its own */
	for (k = 1; k < fr->n; k++)
		for (first = 0; first < k; first++)
			if (!strcmp(fr->plan[k].s->name, fr->plan[first].s->name)) {
				ssl_err("%s: [%s] again (the first is at %s): give each job "
					"section a name of its own", fr->plan[k].s->where,
					fr->plan[k].s->name, fr->plan[first].s->where);
				return -1;
			}
	set = fr->plan[fr->n - 1].set;
	fr->nsets = set + 1;
	for (k = 0; k < fr->n; k++)
		if (fr->plan[k].groupid + 1 > fr->ngroups)
			fr->ngroups = fr->plan[k].groupid + 1;
	return 0;
}

/* ssdload run FILE of several job sections; the exit status. */
int run_file_jobs(struct run_ctx *c)
{
	const char *tmp = getenv("TMPDIR");
	struct file_run fr;
	int k, r = 1, failed;

	memset(&fr, 0, sizeof(fr));
	fr.c = c;
	if (file_jobs_cmdline(c, ssl_jobfile_jobs(&c->jf)))
		return 1;
	if (c->raw[O_OUTPUT_FORMAT] &&
	    ssl_parse_output_format(c->raw[O_OUTPUT_FORMAT], &c->fmt)) {
		bad_value(c, O_OUTPUT_FORMAT,
			  "must be normal, json or json+, or a comma list of them");
		return 1;
	}
	if (c->raw[O_ETA] && ssl_parse_eta(c->raw[O_ETA], &c->eta)) {
		bad_value(c, O_ETA, "must be always, auto or never");
		return 1;
	}
	if (flag_opt(c, O_PARSE_ONLY, NULL, &c->parse_only))
		return 1;
	if (ssl_jobfile_plan(&c->jf, &fr.plan, &fr.n))
		return 1;
	for (k = 0; k < fr.n; k++)
		if (ssl_jobfile_each(&c->jf, fr.plan[k].s, file_job_group, NULL))
			goto out;
	if (file_sets(&fr))
		goto out;
	fr.j = calloc(fr.n > 0 ? (size_t)fr.n : 1, sizeof(*fr.j));
	if (!fr.j) {
		ssl_err("out of memory");
		goto out;
	}
	if (snprintf(fr.dir, sizeof(fr.dir), "%s/ssdload-run-XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") >= (int)sizeof(fr.dir) || !mkdtemp(fr.dir)) {
		ssl_err("%s: %s", fr.dir, strerror(errno));
		fr.dir[0] = '\0';
		goto out;
	}
	for (k = 0; k < fr.n; k++) {
		fr.j[k].p = &fr.plan[k];
		fr.j[k].status = -1;
		if (file_run_path(&fr, fr.j[k].out, sizeof(fr.j[k].out), k, "out"))
			goto out;
	}
	if (file_jobs_check(&fr))
		goto out;
	if (c->parse_only) {
		file_print_parse(&fr);
		r = 0;
		goto out;
	}
	/* fio's --output: the report goes to FILE (the progress lines stay on stderr) */
	if (c->raw[O_OUTPUT] && output_file(c->raw[O_OUTPUT]))
		goto out;
	setenv(SSL_RUN_SET_ENV, "1", 1);
	setenv(SSL_NOTED_ENV, "1", 1);
	ssl_run_catch_signals();
	disk_stats(c, 0);
	failed = file_jobs_run(&fr) != 0;
	disk_stats(c, 1);
	for (k = 0; k < fr.n; k++) {
		file_job_read(&fr.j[k]);
		if (fr.j[k].ran && fr.j[k].status)
			failed = 1;
	}
	for (k = 0; k < fr.n && !fr.j[k].doc; k++)
		;
	if (k < fr.n) {		/* what ran, even if not everything did */
		if (c->fmt & SSL_OUTPUT_ANY_JSON && file_print_json(&fr)) {
			ssl_err("out of memory while printing the report");
			failed = 1;
		}
		if (c->fmt & SSL_OUTPUT_NORMAL)
			file_print_normal(&fr);
	}
	if (fflush(stdout) || ferror(stdout))
		failed = 1;
	r = ssl_run_sig ? SSL_EXIT_SIGNAL(ssl_run_sig) : failed;
out:
	file_run_free(&fr);
	return r;
}
