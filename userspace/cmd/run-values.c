// SPDX-License-Identifier: GPL-2.0
/*
 * fio's options that ssdload takes for the values that mean what it does
 * anyway: buffered=0, continue_on_error=none ...
 * (fio's defaults, or ssdload's behaviour), the options that tune a
 * userspace engine's submission (a note: the kernel workers submit bios
 * themselves), randrepeat, random_generator, norandommap, rw_sequencer
 * and gtod_reduce.
 * Any other value is refused, naming the value and why.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cmd/run.h"
#include "core/options.h"
#include "core/util.h"

enum fio_kind {
	V_ANY,		/* any text */
	V_BOOL,		/* 0/1 (bare = 1) */
	V_TIME,		/* a time, 0 or not */
	V_UINT,		/* a non-negative integer (k/m/g suffixes too); ok: NULL or one */
	V_WORD,		/* one of the words of ok */
};

#define SUBMIT	"the kernel workers submit and complete bios themselves, iodepth at a time"
#define LAT	"in the kernel lat equals clat (no submission phase to add): the clat " \
		"percentiles are printed"

/*
 * @ok: the values that mean what ssdload does ('|' between them; for
 * V_BOOL "0", "1" or "0|1"; for V_TIME and V_UINT one value; NULL: any),
 * accepted with @note (or silently); another value is refused with @why,
 * or NULL: the option's line of cli.rst (ssl_fio_unsupported_why()).
 */
static const struct fio_value {
	int id;
	enum fio_kind kind;
	const char *ok;
	const char *note;
	const char *why;
} fio_values[] = {
	/* first: what makes the rest of a job file moot */
	{ O_ZONEMODE, V_WORD, "none", NULL, NULL },
	{ O_DESCRIPTION, V_ANY, NULL, NULL, NULL },
	{ O_NORANDOMMAP, V_BOOL, "0|1", NULL, NULL },
	{ O_RANDREPEAT, V_BOOL, "0|1", NULL, NULL },
	{ O_RANDOM_GENERATOR, V_WORD, "tausworthe|lfsr|tausworthe64",
	  "ssdload's generator is used (xoshiro256**, seeded from randseed)",
	  "not one of fio's generators" },
	{ O_BUFFERED, V_BOOL, "0", NULL, NULL },
	{ O_CONTINUE_ON_ERROR, V_WORD, "none|0", NULL, NULL },
	{ O_IO_SUBMIT_MODE, V_WORD, "inline|offload", SUBMIT, "not inline or offload" },
	{ O_IODEPTH_BATCH, V_UINT, NULL, SUBMIT, NULL },
	{ O_IODEPTH_BATCH_COMPLETE_MIN, V_UINT, NULL, SUBMIT, NULL },
	{ O_IODEPTH_BATCH_COMPLETE_MAX, V_UINT, NULL, SUBMIT, NULL },
	{ O_IODEPTH_LOW, V_UINT, NULL, SUBMIT, NULL },
	{ O_GTOD_REDUCE, V_BOOL, "0|1", NULL, NULL },
	{ O_LAT_PERCENTILES, V_BOOL, "0|1", LAT, NULL },
	{ O_CLAT_PERCENTILES, V_BOOL, "0|1", LAT, NULL },
	{ O_RATE_MIN, V_UINT, "0", NULL, NULL },
	{ O_RATE_IOPS_MIN, V_UINT, "0", NULL, NULL },
	{ O_MAX_LATENCY, V_UINT, "0", NULL, NULL },
	{ O_LATENCY_TARGET, V_TIME, "0", NULL, NULL },
	{ O_DISABLE_CLAT, V_BOOL, "0", NULL, NULL },
	{ O_DISABLE_SLAT, V_BOOL, "0|1", NULL, NULL },
	{ O_DISABLE_BW, V_BOOL, "0", NULL, NULL },
	{ O_ALLRANDREPEAT, V_BOOL, "0|1", NULL, NULL },
	{ O_SOFTRANDOMMAP, V_BOOL, "0", NULL, NULL },
	{ O_SERIALIZE_OVERLAP, V_BOOL, "0", NULL, NULL },
	{ O_FILL_DEVICE, V_BOOL, "0", NULL, NULL },
	{ O_CREATE_ONLY, V_BOOL, "0", NULL, NULL },
	{ O_FILE_APPEND, V_BOOL, "0", NULL, NULL },
	{ O_PRE_READ, V_BOOL, "0", NULL, NULL },
	{ O_PER_JOB_LOGS, V_BOOL, "1", NULL, NULL },
	{ O_NRFILES, V_UINT, "1", NULL, NULL },
	{ O_ALLOW_FILE_CREATE, V_BOOL, "0", NULL, NULL },
	{ O_LOG_PRIO, V_BOOL, "0", NULL,
	  "the workers' I/Os carry no priority (prio and prioclass are refused): "
	  "there is none to log" },
	{ O_DEDUPE_MODE, V_WORD, "repeat", NULL,
	  "a duplicate block repeats one of the worker's earlier blocks (fio's "
	  "repeat); a working set is not supported" },
	{ O_DEDUPE_GLOBAL, V_BOOL, "0", NULL,
	  "a duplicate block comes from the same worker's earlier blocks, not "
	  "from other jobs'" },
	{ O_TIOBENCH_THREADS, V_UINT, NULL,
	  "threads is the thread count of fio's tiobench profile: without "
	  "profile=tiobench fio ignores it, and so does ssdload (--numjobs runs workers)",
	  NULL },
	{ O_DEDUPE_WORKING_SET, V_UINT, NULL,
	  "dedupe_working_set_percentage is used by dedupe_mode=working_set only (as fio)",
	  NULL },
	/* moot: rw's suffix is 1 I/O per random offset (rw_opt()) */
	{ O_RW_SEQUENCER, V_WORD, "sequential|identical", NULL,
	  "not one of fio's sequencers" },
};

/* is @v (@len bytes) one of the '|'-separated words of @ok? */
static int one_of(const char *ok, const char *v, size_t len)
{
	const char *p = ok;

	while (p) {
		size_t n = strcspn(p, "|");

		if (n == len && !strncmp(p, v, len))
			return 1;
		p = p[n] ? p + n + 1 : NULL;
	}
	return 0;
}

/* @v refused: what ssdload takes instead, after @why */
static int refuse_value(const struct run_ctx *c, const struct fio_value *f)
{
	const char *reason;
	char why[512], ok[128];
	size_t i, o = 0;

	for (i = 0; f->ok[i] && o + 5 < sizeof(ok); i++) {
		if (f->ok[i] == '|') {
			memcpy(ok + o, " or ", 4);
			o += 4;
		} else {
			ok[o++] = f->ok[i];
		}
	}
	ok[o] = '\0';
	reason = f->why ? f->why : ssl_fio_unsupported_why(c->raw_name[f->id],
							   strlen(c->raw_name[f->id]));
	snprintf(why, sizeof(why), "a fio option that ssdload does not support with this "
		 "value: %s (it takes %s=%s; Documentation/cli.rst, Differences from fio)",
		 reason ? reason : "?", c->raw_name[f->id], ok);
	return bad_value(c, f->id, why);
}

/* The value of @f as given: 0, or -1 after a message; *@on for a V_BOOL. */
static int check_value(const struct run_ctx *c, const struct fio_value *f, int *on)
{
	const char *v = c->raw[f->id];
	char b[2];
	uint64_t x;

	switch (f->kind) {
	case V_ANY:
		return 0;
	case V_BOOL:
		*on = 1;
		if (*v && ssl_parse_bool(v, on))
			return bad_value(c, f->id, "must be 0 or 1");
		snprintf(b, sizeof(b), "%d", *on);
		return one_of(f->ok, b, 1) ? 0 : refuse_value(c, f);
	case V_TIME:
		if (!*v)
			return refuse_value(c, f);
		if (ssl_parse_time_ms(v, 1, &x))
			return bad_value(c, f->id, "not a time (with us/ms/s/m/h suffix)");
		return x ? refuse_value(c, f) : 0;
	case V_UINT:
		if (ssl_parse_size(v, &x))	/* fio's integers take k/m/g too */
			return bad_value(c, f->id, "not a non-negative integer");
		return f->ok && x != strtoull(f->ok, NULL, 10) ? refuse_value(c, f) : 0;
	case V_WORD:
		return one_of(f->ok, v, strlen(v)) ? 0 : refuse_value(c, f);
	}
	return 0;
}

/*
 * randrepeat=0 without randseed: a seed of its own for this run, printed
 * (and in the job options, and the JSON's ssdload.randseed) so that the
 * run can be repeated with --randseed.  fio draws its seeds the same way
 * and takes a randseed given over randrepeat=0.
 */
static int draw_seed(struct run_ctx *c)
{
	char why[160];
	uint64_t seed;

	if (c->raw[O_RANDSEED])
		return 0;
	if (getrandom(&seed, sizeof(seed), 0) != (ssize_t)sizeof(seed)) {
		ssl_err("randrepeat=0: cannot draw a seed: %s", strerror(errno));
		return -1;
	}
	snprintf(c->seed, sizeof(c->seed), "%" PRIu64, seed);
	c->raw[O_RANDSEED] = c->seed;
	c->raw_name[O_RANDSEED] = "randseed";
	c->order[c->nr_order++] = O_RANDSEED;
	/*
	 * A run prints its seed even when a runner printed the notes of its
	 * --parse-only pass (SSL_NOTED_ENV): that pass drew another.
	 */
	snprintf(why, sizeof(why), c->parse_only ? "randseed=%s (drawn for this parse "
		 "only: a run draws its own and prints it)" : "randseed=%s (give "
		 "--randseed=%s to repeat this run)", c->seed, c->seed);
	if (c->parse_only)
		run_opt_note(c, O_RANDREPEAT, ": ", why);
	else
		fprintf(stderr, "ssdload: note: %s%s%s=%s: %s\n",
			c->from[O_RANDREPEAT] ? c->from[O_RANDREPEAT] : "--",
			c->from[O_RANDREPEAT] ? ": " : "", c->raw_name[O_RANDREPEAT],
			c->raw[O_RANDREPEAT], why);
	return 0;
}

/* gtod_reduce=1 is fio's way to time nothing: ssdload's disable_lat */
static void gtod_reduce(struct run_ctx *c)
{
	if (c->raw[O_DISABLE_LAT]) {
		run_opt_note(c, O_GTOD_REDUCE, ": ", "disable_lat is given: it decides");
		return;
	}
	c->raw[O_DISABLE_LAT] = "1";
	c->raw_name[O_DISABLE_LAT] = c->raw_name[O_GTOD_REDUCE];
	c->from[O_DISABLE_LAT] = c->from[O_GTOD_REDUCE];
	run_opt_note(c, O_GTOD_REDUCE, ": ", "no latencies are timed (ssdload's "
		     "disable_lat=1); the counts stay exact");
}

int run_value_opts(struct run_ctx *c)
{
	size_t i;
	int on;

	for (i = 0; i < ARRAY_SIZE(fio_values); i++) {
		const struct fio_value *f = &fio_values[i];

		if (!c->raw[f->id])
			continue;
		on = 0;
		if (check_value(c, f, &on))
			return -1;
		if (f->note)
			run_opt_note(c, f->id, ": ", f->note);
		if (f->id == O_RANDREPEAT && !on && draw_seed(c))
			return -1;
		if (f->id == O_GTOD_REDUCE && on)
			gtod_reduce(c);
	}
	return 0;
}

/* fio's integer option @id (k/m/g too) up to the module's SSDLOAD_MAX_FSYNC */
static int sync_count(const struct run_ctx *c, int id, uint64_t *n)
{
	char why[96];

	*n = 0;
	if (!c->raw[id])
		return 0;
	if (ssl_parse_size(c->raw[id], n))
		return bad_value(c, id, "not a non-negative integer");
	if (*n > SSDLOAD_MAX_FSYNC) {
		snprintf(why, sizeof(why), "out of range (0 to %u writes)", SSDLOAD_MAX_FSYNC);
		return bad_value(c, id, why);
	}
	return 0;
}

/*
 * fio's sync options on a block device (configfs.rst, fsync): fsync=N and
 * fdatasync=N, which mean the same there (one flush of the write cache),
 * a flush after every N writes; end_fsync a flush once the writes ended;
 * sync=1|sync|dsync FUA writes (O_SYNC and O_DSYNC with direct I/O);
 * write_barrier=N every Nth write PREFLUSH+FUA.  Written only when given:
 * older modules lack the attributes.
 *
 * fsync_on_close=1 is end_fsync's flush: fio 3.33's do_io() ends a
 * writing job's I/O with the same fsync for end_fsync or fsync_on_close,
 * and the fsync it adds at the file's close (put_file(), outside its
 * statistics) finds nothing more to flush.  A job closes its block device
 * once, at its end: one flush per device, so the same attribute, noted.
 */
int run_sync_opts(struct run_ctx *c)
{
	const char *v = c->raw[O_SYNC_MODE];
	int end = 0, close = 0;
	uint64_t n, d, b;

	if (sync_count(c, O_FSYNC_EVERY, &n) || sync_count(c, O_FDATASYNC, &d) ||
	    sync_count(c, O_WRITE_BARRIER, &b))
		return -1;
	if (n && d && n != d)
		return bad_value(c, O_FDATASYNC, "differs from fsync: on a block device both "
				 "flush the write cache, and a job has one flush interval");
	if (c->raw[O_FSYNC_EVERY] || c->raw[O_FDATASYNC])
		add_write_u64(c, SSDLOAD_ATTR_FSYNC, n ? n : d);
	if (c->raw[O_WRITE_BARRIER])
		add_write_u64(c, SSDLOAD_ATTR_WRITE_BARRIER, b);
	if (flag_opt(c, O_END_FSYNC, NULL, &end) || flag_opt(c, O_FSYNC_ON_CLOSE, NULL, &close))
		return -1;
	if (close)
		run_opt_note(c, O_FSYNC_ON_CLOSE, ": ", "a flush per device at the end of "
			     "the job's writes, end_fsync's (fio flushes there for either; "
			     "its fsync at the file's close then finds nothing left)");
	if (c->raw[O_END_FSYNC] || close)
		add_write_u64(c, SSDLOAD_ATTR_END_FSYNC, (uint64_t)(end || close));
	if (!v)
		return 0;
	if (!strcmp(v, "none") || !strcmp(v, "0"))
		add_write_u64(c, SSDLOAD_ATTR_SYNC, 0);
	else if (!strcmp(v, "sync") || !strcmp(v, "1") || !strcmp(v, "dsync"))
		add_write_u64(c, SSDLOAD_ATTR_SYNC, 1);
	else
		return bad_value(c, O_SYNC_MODE, "must be none, 0, sync, 1 or dsync (fio's "
				 "values; sync and dsync both make every write FUA on a "
				 "block device)");
	return 0;
}

/*
 * norandommap: fio's draws with replacement.  ssdload's time- and
 * count-bound random runs, its skewed distributions and its runs of
 * several block sizes draw so anyway; a one-pass random run of one block
 * size visits every block once (fio's random map) unless the module's
 * norandommap attribute is 1.  Written whenever it is given true.
 */
int run_norandommap_opt(struct run_ctx *c)
{
	int on = 1;

	if (!c->raw[O_NORANDOMMAP] ||
	    (*c->raw[O_NORANDOMMAP] && ssl_parse_bool(c->raw[O_NORANDOMMAP], &on)) || !on)
		return 0;	/* a bad value was refused by run_value_opts() */
	add_write_u64(c, SSDLOAD_ATTR_NORANDOMMAP, 1);
	return 0;
}
