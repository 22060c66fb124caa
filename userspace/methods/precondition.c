// SPDX-License-Identifier: GPL-2.0
/*
 * Preconditioning (precondition.h): the write passes pts and the
 * methodology commands share (the modes they run: pcmode.c).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "core/util.h"
#include "fio/fioopts.h"
#include "fio/report.h"
#include "methods/precondition.h"
#include "methods/runner.h"

void ssl_wpass_argv(struct ssl_argv *a, const struct ssl_wpass *w)
{
	av_add(a, w->random ? "--rw=randwrite" : "--rw=write");
	av_addf(a, "--bs=%u", w->bs);
	if (w->random) {
		av_addf(a, "--blockalign=%u", w->bs);
		av_addf(a, "--randseed=%u", w->seed);
	}
	av_addf(a, "--iodepth=%u", w->iodepth);
	av_addf(a, "--size=%" PRIu64, w->bytes);
	if (w->time_ms)
		av_addf(a, "--runtime=%" PRIu64 "ms", w->time_ms);
	else if (w->loops > 1)
		av_addf(a, "--loops=%u", w->loops);
}

int ssl_wpass_run(struct ssl_argv *a, const char *out, const struct ssl_wpass *w,
		  json_object *rec, double *iops)
{
	uint64_t t0 = ssl_now_ms();
	json_object *run, *wr;
	int st = ssl_run_spawn(a, out);

	av_free(a);
	if (st)
		return st;
	run = ssl_read_run(out);
	if (!run)
		return -1;
	wr = jget(run_job0(run), "write");
	jset(rec, "bytes", json_object_new_int64((int64_t)jnum(wr, "io_bytes", 0)));
	jset(rec, "rw", json_object_new_string(w->random ? "randwrite" : "write"));
	jset(rec, "bs", json_object_new_int((int)w->bs));
	jset(rec, "iodepth", json_object_new_int((int)w->iodepth));
	if (!w->time_ms)
		jset(rec, "loops", json_object_new_int((int)w->loops));
	jset(rec, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	if (iops)
		*iops = jnum(wr, "iops", 0);
	json_object_put(run);
	return 0;
}

/* ---- a preconditioning of a method ---- */

/* One pass (or round) of @t named @what: its record added to @arr, its bytes to *@written */
static int pc_pass(const struct ssl_pc_target *t, const char *what, const struct ssl_wpass *w,
		   json_object *arr, uint64_t *written, double *iops)
{
	struct ssl_argv a = { 0 };
	char out[PATH_MAX], rel[64];
	json_object *rec;
	int st;

	snprintf(rel, sizeof(rel), "precondition-%s%s.json", t->tag ? t->tag : "", what);
	if (ssl_dir_path(t->cmd, t->dir, rel, out, sizeof(out)))
		return 1;
	av_add(&a, "ssdload");
	av_add(&a, "run");
	av_addf(&a, "--name=%s-%d-precondition-%s", t->cmd, (int)getpid(), what);
	av_addf(&a, "--filename=%s", t->filename);
	av_add(&a, "--allow_write=1");
	av_addf(&a, "--eta=%s", t->eta);
	av_add(&a, "--output-format=json");
	if (w->time_ms)
		av_add(&a, "--time_based");
	ssl_wpass_argv(&a, w);
	rec = json_object_new_object();
	jset(rec, "what", json_object_new_string(what));
	st = ssl_wpass_run(&a, out, w, rec, iops);
	if (st) {
		json_object_put(rec);
		if (st > 0 && st <= 128 && !ssl_run_sig)
			ssl_err("%s: precondition: %s failed (ssdload run exited %d)", t->cmd, what,
				st);
		return st < 0 ? 1 : st;
	}
	*written += (uint64_t)jnum(rec, "bytes", 0);
	json_object_array_add(arr, rec);
	return 0;
}

/* Passes of @bs (random or not) over the span, @loops of them, as one run */
static int pc_passes(const struct ssl_pc_target *t, const char *what, bool random,
		     unsigned int bs, unsigned int loops, json_object *arr, uint64_t *written)
{
	struct ssl_wpass w = {
		.random = random, .bs = bs, .iodepth = SSL_PC_QD, .loops = loops,
		.seed = 0x5d5, .bytes = ssl_pass_span(t->span, bs),
	};
	char sz[32];

	ssl_size_str(sz, sizeof(sz), w.bytes);
	fprintf(stderr, "%s: precondition: %s: %u pass%s of %s %uKiB writes over %s\n",
		t->cmd, what, loops, loops == 1 ? "" : "es", random ? "RND" : "SEQ", bs / 1024,
		sz);
	return pc_pass(t, what, &w, arr, written, NULL);
}

/* pts's WDPC: rounds of random 4KiB writes until steady state or the limit */
static int pc_wdpc(const struct ssl_pc_target *t, const struct ssl_precond *pc,
		   json_object *arr, json_object *rec, uint64_t *written)
{
	struct ssl_wpass w = {
		.random = true, .bs = SSL_PC_RND_BS, .iodepth = SSL_PC_QD, .loops = 1,
		.bytes = ssl_pass_span(t->span, SSL_PC_RND_BS), .time_ms = pc->round_ms,
	};
	json_object *wd = json_object_new_object(), *ys = json_object_new_array();
	double y[SSL_PC_MAX_ROUNDS];
	unsigned int max = pc->max_rounds;
	bool steady = false;
	unsigned int r;
	char what[32];
	int st = 0;

	jset(rec, "wdpc", wd);
	jset(wd, "round_ms", json_object_new_int64((int64_t)pc->round_ms));
	jset(wd, "max_rounds", json_object_new_int((int)max));
	jset(wd, "iops", ys);
	for (r = 1; r <= max && !steady; r++) {
		fprintf(stderr, "%s: precondition: WDPC round %u of at most %u (RND 4KiB "
			"writes, %" PRIu64 " ms)\n", t->cmd, r, max, pc->round_ms);
		snprintf(what, sizeof(what), "wdpc-%u", r);
		w.seed = 0x5d5 + r;
		st = pc_pass(t, what, &w, arr, written, &y[r - 1]);
		if (st)
			break;
		json_object_array_add(ys, json_object_new_double(y[r - 1]));
		if (t->steady)
			steady = t->steady(y, r, wd);
	}
	jset(wd, "rounds", json_object_new_int((int)json_object_array_length(ys)));
	jset(wd, "steady", json_object_new_boolean(steady));
	if (!st && !steady)
		fprintf(stderr, "%s: precondition: the WDPC did not reach steady state in %u "
			"rounds\n", t->cmd, max);
	return st;
}

int ssl_precond_run(const struct ssl_pc_target *t, const struct ssl_precond *pc,
		    json_object **rec)
{
	json_object *r, *arr;
	uint64_t t0 = ssl_now_ms(), written = 0;
	char mode[32], sz[32], secs[32];
	int st;

	*rec = NULL;
	if (pc->mode == SSL_PC_NONE)
		return 0;
	ssl_precond_str(pc, mode, sizeof(mode));
	r = json_object_new_object();
	arr = json_object_new_array();
	jset(r, "mode", json_object_new_string(mode));
	jset(r, "span_bytes", json_object_new_int64((int64_t)t->span));
	jset(r, "bytes_promised", json_object_new_int64((int64_t)ssl_precond_promised(pc,
										    t->span)));
	jset(r, "passes", arr);
	if (pc->mode == SSL_PC_RANDOM) {
		st = pc_passes(t, "random", true, SSL_PC_RND_BS, pc->passes, arr, &written);
	} else if (pc->mode == SSL_PC_PTS) {
		st = pc_passes(t, "wipc", false, SSL_PC_SEQ_BS, pc->passes, arr, &written);
		if (!st)
			st = pc_wdpc(t, pc, arr, r, &written);
	} else {
		st = pc_passes(t, ssl_precond_name(pc->mode), false, SSL_PC_SEQ_BS, pc->passes, arr,
			       &written);
	}
	jset(r, "bytes_written", json_object_new_int64((int64_t)written));
	jset(r, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	jset(r, "complete", json_object_new_boolean(!st));
	*rec = r;
	ssl_size_str(sz, sizeof(sz), written);
	ssl_secs_str(secs, sizeof(secs), (ssl_now_ms() - t0) * 1000000ULL);
	fprintf(stderr, "%s: precondition %s: %s written (%" PRIu64 " bytes) in %s%s\n",
		t->cmd, mode, sz, written, secs, st ? ", not complete" : "");
	return st;
}
