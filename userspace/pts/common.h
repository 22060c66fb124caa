/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside ssdload pts TEST: a run's context, the table of tests with the
 * hooks of their family, and the machinery the families share.
 *
 *   pts/pts.c     options, refusals, set-up, resume; drives a test through
 *                 its phases and its family's hooks (struct pts_ops)
 *   pts/common.c  what every family uses: spawning `ssdload run`, the
 *                 purge, the WIPC, rounds and their steady state, segments
 *                 of samples, the measurement window's results
 *   pts/matrix.c  iops, throughput, latency: rounds of a matrix of points
 *   pts/wsat.c    wsat: one stimulus sampled up to a time or write limit
 *   pts/hir.c     hir: wsat's writes to steady state, then wait states
 *   pts/xsr.c     xsr: SEQ, RND, SEQ writes, sampled
 *   pts/demand.c  ecw, dirth: a TC x QD demand matrix, operating points
 */
#ifndef SSDLOAD_CLI_PTS_COMMON_H
#define SSDLOAD_CLI_PTS_COMMON_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "device/device.h"
#include "methods/precondition.h"
#include "methods/runner.h"
#include "pts/pts.h"
#include "pts/spec.h"
#include "pts/ss.h"

#define PTS_JSON		"pts.json"
#define PTS_WIPC_BS		SSL_PC_SEQ_BS	/* WIPC: SEQ 128KiB writes ... */
#define PTS_WIPC_LOOPS		SSL_PC_WIPC_LOOPS	/* ... twice the user capacity */
#define PTS_WSAT_DURATION_MS	(24ULL * 3600 * 1000)	/* WSAT: 24 hours ... */
#define PTS_WSAT_WRITE_LIMIT	4	/* ... or 4x the user capacity written */
#define PTS_WSAT_SEG_SAMPLES	30	/* samples per `ssdload run` (a segment) */
#define PTS_XSR_SEQ_MS		(8ULL * 3600 * 1000)	/* XSR: 8 h, 6 h, 8 h */
#define PTS_HIR_ACCESS_MS	5000	/* an access segment: 5 s of writes */
#define PTS_HIR_CYCLES		360	/* access + wait, 360 times per state */
#define PTS_DEMAND_MAX_LOADS	8	/* ecw, dirth: TCs and QDs at most */
/* clat percentiles every round keeps (fio's list, and the spec's five 9s) */
#define PTS_PERCENTILES		"1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:" \
				"99.95:99.99:99.999:99.9999"

/* The options of ssdload pts TEST (struct pts_ctx's given: 1 << P_*). */
enum {
	P_FILENAME, P_ALLOW_WRITE, P_ALLOW_PARTITION, P_OUTPUT_DIR, P_RESUME, P_PURGE,
	P_WRITE_CACHE, P_THREADS, P_IODEPTH, P_BS, P_POINT_TIME, P_SIZE, P_WIPC,
	P_MAX_ROUNDS, P_ETA, P_NO_REPORT, P_KEEP_LAST_JOB, P_DURATION, P_WRITE_LIMIT,
	P_ACCESS_TIME, P_CYCLES, P_TC_LIST, P_QD_LIST, P_RWMIXREAD, P_FORCE, P_DRY_RUN,
	P_ROUNDS, P_MIN_ROUNDS, P_WINDOW, P_WINDOW_AT,
};

#define PTS_OPT(x)		(1u << P_##x)
/* the options every test takes */
#define PTS_OPTS_COMMON		(PTS_OPT(FILENAME) | PTS_OPT(ALLOW_WRITE) | \
				 PTS_OPT(ALLOW_PARTITION) | PTS_OPT(OUTPUT_DIR) | \
				 PTS_OPT(RESUME) | PTS_OPT(PURGE) | PTS_OPT(WRITE_CACHE) | \
				 PTS_OPT(POINT_TIME) | PTS_OPT(SIZE) | PTS_OPT(WIPC) | \
				 PTS_OPT(ETA) | PTS_OPT(NO_REPORT) | PTS_OPT(KEEP_LAST_JOB) | \
				 PTS_OPT(FORCE) | PTS_OPT(DRY_RUN))
/* the options of the tests in rounds of points (iops ... latency, ecw, dirth) */
#define PTS_OPTS_ROUNDS		(PTS_OPT(MAX_ROUNDS) | PTS_OPT(ROUNDS) | PTS_OPT(MIN_ROUNDS) | \
				 PTS_OPT(WINDOW) | PTS_OPT(WINDOW_AT))
/* the options of a test at one load (not ecw, dirth) */
#define PTS_OPTS_LOAD		(PTS_OPT(THREADS) | PTS_OPT(IODEPTH))

enum pts_metric { PTS_IOPS, PTS_BW, PTS_LAT_MEAN };

extern const char *const pts_metric_key[];	/* its key in a point: "iops", ... */
extern const char *const pts_metric_unit[];	/* "IOPS", "B/s", "ns" */

enum pts_wc_req { PTS_WC_OFF, PTS_WC_ON, PTS_WC_LEAVE };

struct pts_ctx;

/*
 * What a family of tests does its own way; NULL: nothing to add.  A test
 * runs: the refusals (the mask of struct pts_def, then check), the purge,
 * write cache and WIPC (pts/common.c), run, results, the report, summary.
 */
struct pts_ops {
	const char *window_of;		/* what steady_state's window counts */
	bool segmented;			/* the doc has "segments" and "series" */
	/* refusals of the options' values, their defaults set: 0 or -1 */
	int (*check)(struct pts_ctx *c);
	/* refusals once the active range is known: 0 or -1 */
	int (*check_range)(const struct pts_ctx *c);
	/* the test's keys of the settings @o and of its tracking variable @tr */
	void (*settings)(const struct pts_ctx *c, json_object *o, json_object *tr);
	/* the test's keys of a new pts.json @d */
	void (*doc)(json_object *d);
	/* the deviations its options make; true if they scale the test */
	bool (*scale)(struct pts_ctx *c);
	/*
	 * The stimulus, after the purge and the WIPC: 0, an exit status, or
	 * -1 if pts.json could not be saved (the test ends, recording nothing).
	 */
	int (*run)(struct pts_ctx *c);
	/* the results into the doc; the exit status of the complete test */
	int (*results)(struct pts_ctx *c);
	/* the text summary's tables */
	void (*summary)(const struct pts_ctx *c);
	/* where an interrupted test stopped, and how to go on */
	void (*interrupted)(const struct pts_ctx *c);
};

extern const struct pts_ops pts_matrix_ops, pts_wsat_ops, pts_hir_ops, pts_xsr_ops,
	pts_demand_ops;

/* One test of the specification: its stimulus matrix and tracking variable. */
struct pts_def {
	const char *name;		/* command-line name */
	const struct pts_ops *ops;	/* its family's */
	unsigned int opts;		/* PTS_OPT() of the options it takes */
	unsigned int wipc;		/* the spec's WIPC, x the active range (0: none) */
	const char *title;
	const char *clause;		/* section of SSS PTS 2.0.2 */
	bool random;			/* RND, else SEQ */
	unsigned int threads, iodepth;	/* defaults (TC, QD per thread) */
	bool fixed_load;		/* TC/QD fixed by the spec (latency: T1Q1) */
	unsigned int bs_choice[2];	/* --bs must be one of these (0: any size) */
	uint64_t duration_ms;		/* the spec's --duration (wsat, xsr) */
	unsigned int nbs, nmix;
	unsigned int bs[8];		/* bytes, in the order they run (inner loop) */
	unsigned int mix[7];		/* % reads, in the order they run (outer loop) */
	unsigned int track_bs, track_mix;
	enum pts_metric metric;
	const char *track_label;
	/* every tracking variable, the first being track_bs/mix (NULL: that one) */
	const struct pts_track *tracks;
	unsigned int ntracks;
	const char *bssplit;		/* ECW: the access pattern's block sizes */
	const char *zones;		/* ECW: its access probabilities */
};

/* XSR: a stimulus group, its length in quarters of --duration (8 h) */
struct pts_group {
	unsigned int number;		/* 1, 2, 3 */
	const char *label;
	bool random;
	unsigned int bs, quarters;
};

/* Everything the command line says, and the run's state. */
struct pts_ctx {
	const struct pts_def *def;
	unsigned int bs[8];		/* the test's block sizes (throughput: --bs) */
	unsigned int nbs;
	unsigned int track_bs;
	const char *filename;
	const char *dir;		/* output directory */
	char dirbuf[PATH_MAX];
	bool allow_write, allow_partition, keep_last_job, no_report;
	bool force, dry_run;		/* --force, --dry-run */
	enum ssl_purge purge;
	enum pts_wc_req wc;
	unsigned int threads, iodepth;
	uint64_t point_ms;
	unsigned int max_rounds;
	unsigned int min_rounds;	/* --min-rounds (--rounds: = max_rounds) */
	unsigned int window;		/* --window: rounds averaged (spec 5) */
	enum ssl_window_at window_at;	/* --window-at */
	const char *size;		/* --size as given (active range), NULL: 100% */
	uint64_t active_bytes;
	double wipc_factor;		/* WIPC bytes / active range; 0: no WIPC */
	uint64_t duration_ms;		/* wsat: time limit of the stimulus */
	uint64_t access_ms;		/* hir: an access segment */
	unsigned int cycles;		/* hir: access + wait per wait state */
	double write_limit;		/* wsat: bytes limit / active range */
	unsigned int tcs[PTS_DEMAND_MAX_LOADS], ntc;	/* ecw, dirth: high to low */
	unsigned int qds[PTS_DEMAND_MAX_LOADS], nqd;
	unsigned int mix;		/* ecw, dirth: % reads of the demand points */
	char kept[128];			/* --keep-last-job: the job kept so far */
	const char *eta;
	unsigned int given;		/* 1 << P_* of each option given */
	int argc;			/* the command line, for the JSON and --resume */
	const char **argv;

	struct ssl_dev dev;
	json_object *doc;		/* pts.json */
	unsigned int points;		/* points per round */
	uint64_t t0_ms;			/* the test's start (this process) */
};

/* ---- pts/common.c ---- */

/* DIR/@rel in @buf; 0 or -1 after a message. */
int pts_path(const struct pts_ctx *c, char *buf, size_t len, const char *rel);
/* Write the doc to DIR/pts.json (atomically); 0 or -1. */
int pts_save(struct pts_ctx *c);
/* Record a deviation from the specification: the run is not conformant. */
void deviation(struct pts_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The round limit, if --max-rounds (--rounds) changed it, and a window
 * other than the spec's (--window, --window-at): a deviation each; true if
 * the round limit changed.
 */
bool rounds_deviation(struct pts_ctx *c);
/* The rounds a test runs at least: the window, --min-rounds (--rounds). */
unsigned int rounds_needed(const struct pts_ctx *c);
extern const char *const pts_window_at_name[];	/* "steady", "last" */
json_object *health_json(const struct ssl_health *h);
json_object *health_now(const struct pts_ctx *c);
/*
 * The offset alignment of random I/Os of @bs bytes: @bs, unless the
 * device's logical block size forbids it (larger, or not a divisor of
 * @bs): then the logical block size.
 */
unsigned int pts_blockalign(const struct pts_ctx *c, unsigned int bs);
/*
 * The alignment of a run of several random block sizes in one step
 * (ECW's bssplit): 4 KiB, or the logical block if larger.  The matrix
 * tests give each block size's step its own (pts_blockalign()).
 */
unsigned int pts_round_blockalign(const struct pts_ctx *c);
/* "4K", "0.5K" */
void bs_label(char *buf, size_t len, unsigned int bs);
json_object *juints(const unsigned int *v, unsigned int n);
/* The module's max_job_mem_mb (MiB; its default if not loaded). */
unsigned long long max_job_mem(void);

/* running `ssdload run` */
void av_common(const struct pts_ctx *c, struct ssl_argv *a, const char *name);
/* av_common() with the exact histograms (json+ bins): the rounds' runs */
void av_common_bins(const struct pts_ctx *c, struct ssl_argv *a, const char *name);
void av_writes(const struct pts_ctx *c, struct ssl_argv *a, const char *name,
	       unsigned int seed, bool random, unsigned int bs);
void av_stimulus(const struct pts_ctx *c, struct ssl_argv *a);
void av_rnd_writes(const struct pts_ctx *c, struct ssl_argv *a, const char *name,
		   unsigned int seed);
void job_name(char *buf, size_t len, const struct pts_ctx *c, const char *what);
void keep_rotate(struct pts_ctx *c, const char *name);
int spawn_status(int st, const char *what);
/*
 * Spawn @a (freed here) with its stdout into @out; the run's JSON in
 * *@run, or an exit status (what failed: @what).
 */
int spawn_read(struct ssl_argv *a, const char *out, const char *what, json_object **run);

/* the phases before the stimulus */
json_object *phase_done(const struct pts_ctx *c, const char *key);
int seq_fill(struct pts_ctx *c, const char *what, unsigned int bs, uint64_t bytes,
	     unsigned int loops, const char *out, json_object *rec);
int do_purge(struct pts_ctx *c, int *fd);
int do_write_cache(struct pts_ctx *c);
int do_wipc(struct pts_ctx *c);

/* rounds of points, their steady state and the measurement window */
unsigned int rounds_done(const struct pts_ctx *c);
json_object *point_json(const struct pts_ctx *c, json_object *step, unsigned int bs,
			unsigned int mix);
json_object *window_json(const struct ssl_ss_window *w, const double *y,
			 bool reached, unsigned int rounds_run, unsigned int max_rounds);
/* The metric of the point @bs, @mix among a round's @points; NaN if none. */
double points_metric(const struct pts_ctx *c, json_object *points, unsigned int bs,
		     unsigned int mix);
int check_steady_in(struct pts_ctx *c, const char *arr, const char *key, const char *dest);
/*
 * After a round: the steady-state check of the test's tracking variables
 * (all of them, if it has several), into steady_state.  1 if the test ends.
 */
int check_steady(struct pts_ctx *c);
/*
 * Rounds from the next one on, each made by @round, until steady state or
 * the round limit: 0, an exit status, or -1 if pts.json could not be saved.
 */
int rounds_to_steady(struct pts_ctx *c, int (*round)(struct pts_ctx *c, unsigned int r));
/* 0 if the doc's steady_state was reached, else PTS_EXIT_NOT_STEADY */
int steady_status(const struct pts_ctx *c);
void do_results(struct pts_ctx *c);
/*
 * The results of the finished rounds of @doc (a pts.json) for a window of
 * @k rounds at @at: each point averaged over the window, its percentiles
 * from the window's merged histograms.  NULL with @err set if the rounds
 * or the steady-state record are missing, or @k does not fit.
 */
json_object *window_results(json_object *doc, unsigned int k, enum ssl_window_at at,
			    char *err, size_t errlen);

/* segments of samples (wsat, hir, xsr, and the preconditioning of ecw, dirth) */
void seg_pos(const struct pts_ctx *c, double *t_ms, uint64_t *written);
double run_rate(json_object *ts, size_t i, size_t j, const char *key);
int seg_run(struct pts_ctx *c, const char *stem, unsigned int k, double t0, uint64_t w0,
	    uint64_t ms, uint64_t ios, const struct pts_group *g);
json_object *interval_samples(json_object *ts, double t0, double min_ms);
int precondition_segments(struct pts_ctx *c, bool apart);

/* the end of the text summary: where the report and the data are */
void summary_where(const struct pts_ctx *c);
/* an interrupted test of segments: how many, and how to resume it */
void interrupted_segments(const struct pts_ctx *c);

#endif /* SSDLOAD_CLI_PTS_COMMON_H */
