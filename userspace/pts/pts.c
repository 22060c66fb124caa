// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload pts TEST: the tests of the SNIA Solid State Storage Performance
 * Test Specification (SSS PTS 2.0.2, Enterprise), end to end:
 *
 *   safety checks (before any write) -> purge -> write cache -> WIPC ->
 *   the test's stimulus (rounds to steady state, or segments of samples up
 *   to a limit) -> its results -> report.
 *
 * This file parses the options, makes the refusals, sets the run up (or
 * resumes it) and drives the test through its family's hooks (struct
 * pts_ops, see common.h).  The whole state of the test is DIR/pts.json,
 * rewritten atomically after every phase, round and segment, so that
 * --resume=DIR continues after a crash or a signal without losing a
 * finished one.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <linux/fs.h>

#include <json-c/json.h>

#include "core/configfs.h"
#include "core/options.h"
#include "core/util.h"
#include "device/device.h"
#include "device/guard.h"
#include "methods/render.h"
#include "methods/runner.h"
#include "pts/common.h"
#include "pts/pts.h"
#include "pts/ss.h"
#include "uapi/ssdload.h"

#define PTS_FORMAT		"ssdload-pts"
#define PTS_FORMAT_VERSION	1
#define PTS_MAX_THREADS		256
#define PTS_MAX_QD		1024

static const char *const wc_req_name[] = { "off", "on", "leave" };

/*
 * ECW: the access pattern of SSS PTS 2.0 (the block sizes and probabilities
 * of its ECW table; ADATA's SSS-PTS-TEST runs the same) over three zones of
 * the active range: 50% of the accesses to its first 5%, 30% to the next
 * 15%, 20% to the last 80%.
 */
#define PTS_ECW_BSSPLIT		"512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:" \
				"4096/67:8192/10:16384/7:32768/3:65536/3"
#define PTS_ECW_ZONES		"zoned:50/5:30/15:20/80"

/* iops, latency: one load, in rounds */
#define PTS_OPTS_MATRIX		(PTS_OPTS_COMMON | PTS_OPTS_LOAD | PTS_OPTS_ROUNDS)
/* ecw, dirth: every load of --tc-list x --qd-list, in rounds */
#define PTS_OPTS_DEMAND		(PTS_OPTS_COMMON | PTS_OPTS_ROUNDS | PTS_OPT(TC_LIST) | \
				 PTS_OPT(QD_LIST))

static const struct pts_track pts_iops_tracks[PTS_IOPS_NTRACKS] = PTS_IOPS_TRACKS;

static const struct pts_def pts_defs[] = {
	{
		.name = "iops", .title = "IOPS", .clause = "7 (IOPS test)", .wipc = 2,
		.ops = &pts_matrix_ops, .opts = PTS_OPTS_MATRIX,
		.random = true, .threads = PTS_IOPS_TC, .iodepth = PTS_IOPS_QD,
		.nbs = 8, .bs = PTS_IOPS_BSS,
		.nmix = 7, .mix = PTS_IOPS_MIXES,
		.track_bs = 4096, .track_mix = 0, .metric = PTS_IOPS,
		.track_label = "RND 4KiB 0/100 (100% write) IOPS",
		.tracks = pts_iops_tracks, .ntracks = PTS_IOPS_NTRACKS,
	},
	{
		.name = "throughput", .title = "Throughput", .clause = "8 (Throughput test)",
		.wipc = 2,
		.ops = &pts_matrix_ops, .opts = PTS_OPTS_MATRIX | PTS_OPT(BS),
		.bs_choice = { 131072, 1048576 },
		.random = false, .threads = 1, .iodepth = 32,
		.nbs = 1, .bs = { 1048576 },
		.nmix = 2, .mix = { 100, 0 },
		.track_bs = 1048576, .track_mix = 0, .metric = PTS_BW,
		.track_label = "SEQ 1024KiB 0/100 (100% write) bandwidth",
	},
	{
		.name = "latency", .title = "Latency", .clause = "9 (Latency test)", .wipc = 2,
		.ops = &pts_matrix_ops, .opts = PTS_OPTS_MATRIX,
		.random = true, .threads = 1, .iodepth = 1, .fixed_load = true,
		.nbs = 3, .bs = { 8192, 4096, 512 },
		.nmix = 3, .mix = { 100, 65, 0 },
		.track_bs = 4096, .track_mix = 0, .metric = PTS_LAT_MEAN,
		.track_label = "RND 4KiB 0/100 (100% write) average latency",
	},
	{
		/* purge, no WIPC: the stimulus itself fills the drive */
		.name = "wsat", .title = "Write Saturation",
		.clause = "WSAT (Write Saturation test)",
		.ops = &pts_wsat_ops, .opts = PTS_OPTS_COMMON | PTS_OPTS_LOAD |
		PTS_OPT(DURATION) | PTS_OPT(WRITE_LIMIT),
		.duration_ms = PTS_WSAT_DURATION_MS,
		.random = true, .threads = 4, .iodepth = 32,
		.nbs = 1, .bs = { 4096 }, .nmix = 1, .mix = { 0 },
		.track_bs = 4096, .track_mix = 0, .metric = PTS_IOPS,
		.track_label = "RND 4KiB 0/100 (100% write) IOPS",
	},
	{
		/* purge, no WIPC; WSAT's stimulus to steady state, then the waits */
		.name = "hir", .title = "Host Idle Recovery",
		.clause = "HIR (Host Idle Recovery test)",
		.ops = &pts_hir_ops, .opts = PTS_OPTS_COMMON | PTS_OPTS_LOAD |
		PTS_OPT(MAX_ROUNDS) | PTS_OPT(ACCESS_TIME) | PTS_OPT(CYCLES),
		.random = true, .threads = 4, .iodepth = 32,
		.nbs = 1, .bs = { 4096 }, .nmix = 1, .mix = { 0 },
		.track_bs = 4096, .track_mix = 0, .metric = PTS_IOPS,
		.track_label = "RND 4KiB 0/100 (100% write) IOPS",
	},
	{
		/* purge, no WIPC; SEQ 1024KiB, RND 8KiB, SEQ 1024KiB writes */
		.name = "xsr", .title = "Cross Stimulus Recovery",
		.clause = "XSR (Cross Stimulus Recovery test)",
		.ops = &pts_xsr_ops, .opts = PTS_OPTS_COMMON | PTS_OPTS_LOAD | PTS_OPT(DURATION),
		.duration_ms = PTS_XSR_SEQ_MS,
		.random = false, .threads = 1, .iodepth = 32,
		.nbs = 1, .bs = { 1048576 }, .nmix = 1, .mix = { 0 },
		.track_bs = 1048576, .track_mix = 0, .metric = PTS_BW,
		.track_label = "write bandwidth",
	},
	{
		/* WIPC, then the ECW mix as writes to steady state, then demand */
		.name = "ecw", .title = "Enterprise Composite Workload",
		.clause = "ECW (Enterprise Composite Workload test)", .wipc = 2,
		.ops = &pts_demand_ops, .opts = PTS_OPTS_DEMAND,
		.random = true, .threads = 32, .iodepth = 32,
		.nbs = 1, .bs = { 4096 }, .nmix = 1, .mix = { 40 },
		.track_bs = 4096, .track_mix = 40, .metric = PTS_IOPS,
		.track_label = "ECW 40/60 IOPS at the highest load (T32Q32)",
		.bssplit = PTS_ECW_BSSPLIT, .zones = PTS_ECW_ZONES,
	},
	{
		.name = "dirth", .title = "Demand Intensity / Response Time Histogram",
		.clause = "DIRTH (Demand Intensity / Response Time "
		"Histogram test)", .wipc = 2,
		.ops = &pts_demand_ops, .opts = PTS_OPTS_DEMAND | PTS_OPT(BS) | PTS_OPT(RWMIXREAD),
		.random = true, .threads = 32, .iodepth = 32,
		.nbs = 1, .bs = { 8192 }, .nmix = 1, .mix = { 65 },
		.track_bs = 8192, .track_mix = 65, .metric = PTS_IOPS,
		.track_label = "RND 8KiB 65/35 IOPS at the highest load (T32Q32)",
	},
};

/*
 * The refusals of an option a test does not take (struct pts_def's opts),
 * in the order they are made: the first that applies is the message.
 */
static const struct {
	unsigned int opts;
	const char *fmt;	/* its message, %s: the test's name */
} pts_refusals[] = {
	{ PTS_OPT(BS), "pts %s: --bs is an option of the throughput and dirth tests only" },
	{ PTS_OPT(RWMIXREAD), "pts %s: --rwmixread is an option of the dirth test only" },
	{ PTS_OPT(TC_LIST) | PTS_OPT(QD_LIST),
	  "pts %s: --tc-list and --qd-list are options of the ecw and dirth tests only" },
	{ PTS_OPTS_LOAD, "pts %s: runs every load of --tc-list x --qd-list: --threads and "
	  "--iodepth do not apply" },
	{ PTS_OPT(DURATION) | PTS_OPT(WRITE_LIMIT), "pts %s: --duration (wsat, xsr) and "
	  "--write-limit (wsat) are not options of this test" },
	{ PTS_OPT(ACCESS_TIME) | PTS_OPT(CYCLES),
	  "pts %s: --access-time and --cycles are options of the hir test only" },
	{ PTS_OPT(MAX_ROUNDS), "pts %s: runs for a set time, not in rounds: --max-rounds does "
	  "not apply (see --duration)" },
	{ PTS_OPTS_ROUNDS, "pts %s: --rounds, --min-rounds, --window and --window-at are "
	  "options of the tests in rounds (iops, throughput, latency, ecw, dirth)" },
};

static const struct pts_def *pts_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pts_defs); i++)
		if (!strcmp(pts_defs[i].name, name))
			return &pts_defs[i];
	return NULL;
}

int pts_is_test(const char *name)
{
	return pts_find(name) != NULL;
}

/* ---- options ---- */

static const char *const pts_test_usage[] = {
	"usage: ssdload pts TEST --filename=DEV --allow_write [options]",
	"       ssdload pts [TEST] --resume=DIR",
	"",
	"TEST: iops, throughput, latency, wsat, hir, xsr, ecw or dirth (SNIA SSS PTS "
	SSL_SS_SPEC_VERSION ", Enterprise).",
	"The test purges DEV, preconditions it and runs rounds of its stimulus until",
	"steady state (wsat: RND 4KiB writes, sampled every minute, until 24 hours or",
	"4x the capacity written; hir: those writes to steady state, then 360 cycles of",
	"5 s of writes and a wait of 5, 10, 15, 25 and 50 s, each followed by 1800 s of",
	"writes; xsr: SEQ 1024KiB writes 8 h, RND 8KiB 6 h, SEQ 1024KiB 8 h, sampled",
	"every minute; ecw, dirth: the stimulus as writes at T32Q32 to steady state, then",
	"rounds of 5 minutes of writes and 49 points of TC x QD 32..1 to steady state,",
	"then MaxIOPS, MidIOPS and MinIOPS, each 60 min of writes and 10 min measured",
	"with response-time histograms); DEV's data is destroyed.  Results go to",
	"DIR/pts.json, with each ssdload run's JSON in DIR/rounds/ and the report",
	"(report.html, plots/, CSV tables) rendered from the JSON.",
	"",
	"  --filename=DEV        the device under test (a whole device: see --allow-partition)",
	"  --allow_write         required: the test writes to and purges DEV",
	"  --allow-partition     accept a partition as DEV (the spec tests whole devices)",
	"  --force               destroy DEV even if it holds a filesystem, partition",
	"                        table, LVM, RAID or swap signature; let --purge=sanitize",
	"                        erase the whole NVM subsystem (other namespaces too)",
	"  --dry-run             print the device, the purge method and its scope, then",
	"                        exit 0 having written nothing",
	"  --output-dir=DIR      where results go (default pts-TEST-YYYYmmdd-HHMMSS)",
	"  --resume=DIR          continue the test of DIR after its last finished round",
	"  --purge=METHOD        auto (default), sanitize, format, security-erase (ATA),",
	"                        secdiscard, discard, overwrite or none (only sanitize,",
	"                        format and security-erase are conformant purges)",
	"  --write-cache=MODE    off (default: Enterprise runs with the volatile write",
	"                        cache disabled), on, or leave",
	"  --threads=N           thread count TC (default per test; workers beyond the",
	"                        CPUs are numjobs workers sharing CPUs)",
	"  --iodepth=N           outstanding I/Os per thread QD (default per test)",
	"  --bs=SIZE             throughput: 1m (default) or 128k; dirth: 512 to 1m",
	"                        (default 8k)",
	"  --rwmixread=N         dirth: % reads of the demand points (default 65)",
	"Scaling (each marks the run as scaled, and not conformant):",
	"  --point-time=TIME     duration of each point, wsat: sample (spec: 1m); bare",
	"                        number = s",
	"  --size=SIZE|P%        the active range from the start of DEV (spec: 100%)",
	"  --wipc=F              WIPC writes F x the active range (spec: 2; 0 = none)",
	"  --max-rounds=N        the round limit (spec: 25; hir: segments of 30 samples)",
	"  --rounds=N            run exactly N rounds (--min-rounds=N --max-rounds=N);",
	"                        steady state is still checked and reported",
	"  --min-rounds=N        run at least N rounds, then on to steady state",
	"  --window=K            rounds averaged in the results (spec: 5; not 5: not",
	"                        conformant)",
	"  --window-at=WHERE     steady (default: the K rounds ending where steady state",
	"                        was reached, else the last K) or last (the last K run)",
	"  --duration=TIME       wsat: the time limit (spec: 24h); xsr: the SEQ segments'",
	"                        length (spec: 8h; the RND one is 3/4 of it)",
	"  --write-limit=F       wsat: stop after F x the active range written (spec: 4)",
	"  --access-time=TIME    hir: an access segment (spec: 5s); the waits are 1, 2,",
	"                        3, 5 and 10 times it",
	"  --cycles=N            hir: access + wait cycles per wait state (spec: 360)",
	"  --tc-list=N,...       ecw, dirth: the thread counts (spec: 32,16,8,6,4,2,1)",
	"  --qd-list=N,...       ecw, dirth: the queue depths (spec: 32,16,8,6,4,2,1);",
	"                        the highest of each is the tracking and pre-write load",
	"Other:",
	"  --eta=WHEN            progress line of each round: auto, always, never",
	"  --no-report           do not render the report (ssdload report DIR does)",
	"  --keep-last-job       leave the last round's job in configfs/debugfs",
	"",
	"Exit status: 0 steady state reached, 1 not reached, 2 bad usage or a refusal",
	"(nothing written), 3 the run failed, 128+N after signal N (resume it).",
	NULL,
};

static const struct ssl_opt pts_opts[] = {
	{ "filename",		SSL_ARG_REQUIRED, P_FILENAME },
	{ "allow_write",	SSL_ARG_FLAG, P_ALLOW_WRITE },
	{ "allow-partition",	SSL_ARG_FLAG, P_ALLOW_PARTITION },
	{ "output-dir",		SSL_ARG_REQUIRED, P_OUTPUT_DIR },
	{ "resume",		SSL_ARG_REQUIRED, P_RESUME },
	{ "purge",		SSL_ARG_REQUIRED, P_PURGE },
	{ "write-cache",	SSL_ARG_REQUIRED, P_WRITE_CACHE },
	{ "threads",		SSL_ARG_REQUIRED, P_THREADS },
	{ "numjobs",		SSL_ARG_REQUIRED, P_THREADS },
	{ "iodepth",		SSL_ARG_REQUIRED, P_IODEPTH },
	{ "bs",			SSL_ARG_REQUIRED, P_BS },
	{ "point-time",		SSL_ARG_REQUIRED, P_POINT_TIME },
	{ "size",		SSL_ARG_REQUIRED, P_SIZE },
	{ "wipc",		SSL_ARG_REQUIRED, P_WIPC },
	{ "max-rounds",		SSL_ARG_REQUIRED, P_MAX_ROUNDS },
	{ "rounds",		SSL_ARG_REQUIRED, P_ROUNDS },
	{ "min-rounds",		SSL_ARG_REQUIRED, P_MIN_ROUNDS },
	{ "window",		SSL_ARG_REQUIRED, P_WINDOW },
	{ "window-at",		SSL_ARG_REQUIRED, P_WINDOW_AT },
	{ "eta",		SSL_ARG_REQUIRED, P_ETA },
	{ "no-report",		SSL_ARG_FLAG, P_NO_REPORT },
	{ "keep-last-job",	SSL_ARG_FLAG, P_KEEP_LAST_JOB },
	{ "duration",		SSL_ARG_REQUIRED, P_DURATION },
	{ "write-limit",	SSL_ARG_REQUIRED, P_WRITE_LIMIT },
	{ "access-time",	SSL_ARG_REQUIRED, P_ACCESS_TIME },
	{ "cycles",		SSL_ARG_REQUIRED, P_CYCLES },
	{ "tc-list",		SSL_ARG_REQUIRED, P_TC_LIST },
	{ "qd-list",		SSL_ARG_REQUIRED, P_QD_LIST },
	{ "rwmixread",		SSL_ARG_REQUIRED, P_RWMIXREAD },
	{ "force",		SSL_ARG_FLAG, P_FORCE },
	{ "dry-run",		SSL_ARG_FLAG, P_DRY_RUN },
	{ NULL, 0, 0 },
};

static int flag_val(const char *name, const char *val, bool *out)
{
	int b = 1;

	if (val && ssl_parse_bool(val, &b)) {
		ssl_err("pts: --%s=%s: must be 0 or 1", name, val);
		return -1;
	}
	*out = b;
	return 0;
}

/* The bool of flag option @id in @c, or NULL if @id takes a value. */
static bool *flag_of(struct pts_ctx *c, int id)
{
	switch (id) {
	case P_ALLOW_WRITE:
		return &c->allow_write;
	case P_ALLOW_PARTITION:
		return &c->allow_partition;
	case P_NO_REPORT:
		return &c->no_report;
	case P_KEEP_LAST_JOB:
		return &c->keep_last_job;
	case P_FORCE:
		return &c->force;
	case P_DRY_RUN:
		return &c->dry_run;
	}
	return NULL;
}

/* The options of the rounds and of their window; 0 or -1. */
static int parse_rounds(struct pts_ctx *c, const struct ssl_opt *opt, const char *val)
{
	switch (opt->id) {
	case P_MAX_ROUNDS:
		return ssl_uint_opt("pts", opt->name, val, SSL_SS_WINDOW, 1000, &c->max_rounds);
	case P_ROUNDS:
		if (ssl_uint_opt("pts", opt->name, val, SSL_SS_WINDOW, 1000, &c->max_rounds))
			return -1;
		c->min_rounds = c->max_rounds;
		return 0;
	case P_MIN_ROUNDS:
		return ssl_uint_opt("pts", opt->name, val, 1, 1000, &c->min_rounds);
	case P_WINDOW:
		return ssl_uint_opt("pts", opt->name, val, 1, 1000, &c->window);
	case P_WINDOW_AT:
		if (ssl_ss_window_at_parse(val, &c->window_at)) {
			ssl_err("pts: --window-at=%s: must be steady or last", val);
			return -1;
		}
		return 0;
	}
	return 0;
}

/*
 * The rounds and the window together: --rounds is --min-rounds and
 * --max-rounds at once, and the window fits the rounds.  0 or -1.
 */
static int check_rounds(struct pts_ctx *c)
{
	const char *lim = c->given & PTS_OPT(ROUNDS) ? "--rounds" : "the round limit";

	if ((c->given & PTS_OPT(ROUNDS)) &&
	    (c->given & (PTS_OPT(MAX_ROUNDS) | PTS_OPT(MIN_ROUNDS)))) {
		ssl_err("pts: --rounds=N is --min-rounds=N --max-rounds=N: give it alone");
		return -1;
	}
	if (c->min_rounds > c->max_rounds) {
		ssl_err("pts: --min-rounds=%u: more than the round limit %u (--max-rounds)",
			c->min_rounds, c->max_rounds);
		return -1;
	}
	if (c->window > c->max_rounds) {
		ssl_err("pts: --window=%u: more rounds than the test runs (%s: %u)", c->window,
			lim, c->max_rounds);
		return -1;
	}
	return 0;
}

/* The options that scale the test (its times, sizes, limits); 0 or -1. */
static int parse_scaling(struct pts_ctx *c, const struct ssl_opt *opt, const char *val)
{
	uint64_t u;
	char *end;

	switch (opt->id) {
	case P_TC_LIST:
		return ssl_uint_list("pts", opt->name, val, PTS_MAX_THREADS, PTS_DEMAND_MAX_LOADS,
				     -1, c->tcs, &c->ntc);
	case P_QD_LIST:
		return ssl_uint_list("pts", opt->name, val, PTS_MAX_QD, PTS_DEMAND_MAX_LOADS, -1,
				     c->qds, &c->nqd);
	case P_POINT_TIME:
		if (ssl_parse_time_ms(val, 1000, &u) || u < 100 || u > 3600000) {
			ssl_err("pts: --point-time=%s: must be 100ms to 1h", val);
			return -1;
		}
		c->point_ms = u;
		return 0;
	case P_SIZE:
		c->size = val;
		return 0;
	case P_WIPC:
		errno = 0;
		c->wipc_factor = strtod(val, &end);
		if (end == val || *end || errno || !isfinite(c->wipc_factor) ||
		    c->wipc_factor < 0 || c->wipc_factor > 16) {
			ssl_err("pts: --wipc=%s: must be a factor from 0 to 16", val);
			return -1;
		}
		return 0;
	case P_DURATION:
		if (ssl_parse_time_ms(val, 1000, &u) || u < 100 || u > 7 * 24 * 3600000ULL) {
			ssl_err("pts: --duration=%s: must be 100ms to 7 days", val);
			return -1;
		}
		c->duration_ms = u;
		return 0;
	case P_ACCESS_TIME:
		if (ssl_parse_time_ms(val, 1000, &u) || u < 50 || u > 600000) {
			ssl_err("pts: --access-time=%s: must be 50ms to 10m", val);
			return -1;
		}
		c->access_ms = u;
		return 0;
	case P_CYCLES:
		/* a wait state is one run: two steps a cycle */
		return ssl_uint_opt("pts", opt->name, val, 1, SSDLOAD_MAX_STEPS / 2, &c->cycles);
	case P_WRITE_LIMIT:
		errno = 0;
		c->write_limit = strtod(val, &end);
		if (end == val || *end || errno || !isfinite(c->write_limit) ||
		    !(c->write_limit > 0) || c->write_limit > 64) {
			ssl_err("pts: --write-limit=%s: must be a factor above 0, at most 64", val);
			return -1;
		}
		return 0;
	}
	return parse_rounds(c, opt, val);
}

/* One option that takes a value; 0 or -1 after a message. */
static int parse_opt(struct pts_ctx *c, const struct ssl_opt *opt, const char *val,
		     const char **resume)
{
	uint64_t u;

	switch (opt->id) {
	case P_FILENAME:
		c->filename = val;
		return 0;
	case P_OUTPUT_DIR:
		c->dir = val;
		return 0;
	case P_RESUME:
		*resume = val;
		return 0;
	case P_PURGE:
		if (ssl_purge_parse(val, &c->purge)) {
			ssl_err("pts: --purge=%s: must be auto, sanitize, format, secdiscard, "
				"discard, overwrite or none", val);
			return -1;
		}
		return 0;
	case P_WRITE_CACHE:
		for (u = 0; u < ARRAY_SIZE(wc_req_name); u++)
			if (!strcmp(val, wc_req_name[u]))
				break;
		if (u == ARRAY_SIZE(wc_req_name)) {
			ssl_err("pts: --write-cache=%s: must be off, on or leave", val);
			return -1;
		}
		c->wc = (enum pts_wc_req)u;
		return 0;
	case P_THREADS:
		return ssl_uint_opt("pts", opt->name, val, 1, PTS_MAX_THREADS, &c->threads);
	case P_IODEPTH:
		return ssl_uint_opt("pts", opt->name, val, 1, PTS_MAX_QD, &c->iodepth);
	case P_BS:
		/* which sizes a test takes: checked with the test known */
		if (ssl_parse_size(val, &u) || u < 512 || u > 1048576 || u % 512) {
			ssl_err("pts: --bs=%s: must be a multiple of 512 from 512 to 1m", val);
			return -1;
		}
		c->bs[0] = u;
		return 0;
	case P_RWMIXREAD:
		return ssl_uint_opt("pts", opt->name, val, 0, 100, &c->mix);
	case P_ETA:
		if (ssl_eta_opt("pts", val))
			return -1;
		c->eta = val;
		return 0;
	}
	return parse_scaling(c, opt, val);
}

/* Parse the test's options into @c; 0, 1 (help printed) or -1. */
static int pts_parse(struct pts_ctx *c, int argc, const char **argv, const char **resume)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, r, dashdash = 0;
	bool *flag;

	c->purge = SSL_PURGE_AUTO;
	c->wc = PTS_WC_OFF;
	c->point_ms = PTS_SPEC_POINT_MS;
	c->max_rounds = SSL_SS_MAX_ROUNDS;
	c->wipc_factor = c->def ? c->def->wipc : PTS_WIPC_LOOPS;
	c->duration_ms = c->def && c->def->duration_ms ? c->def->duration_ms :
			 PTS_WSAT_DURATION_MS;
	c->write_limit = PTS_WSAT_WRITE_LIMIT;
	c->access_ms = PTS_HIR_ACCESS_MS;
	c->cycles = PTS_HIR_CYCLES;
	c->eta = "auto";
	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, pts_opts, &opt, &val, &dashdash);
		if (r < 0)
			return -1;
		if (r == 2) {
			ssl_usage(stdout, pts_test_usage);
			return 1;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			ssl_err("pts: unexpected argument '%s' (options are --name=value)",
				argv[i - 1]);
			return -1;
		}
		c->given |= 1u << opt->id;
		flag = flag_of(c, opt->id);
		if (flag ? flag_val(opt->name, val, flag) : parse_opt(c, opt, val, resume))
			return -1;
	}
	return 0;
}

/* The rounds the results averaged, when not the spec's window. */
static void summary_window(const struct pts_ctx *c)
{
	json_object *res = jget(c->doc, "results"), *ch = jget(res, "window_choice");
	json_object *win = jget(res, "window");

	if (!ch || !win || json_object_get_boolean(jget(ch, "spec")))
		return;
	printf("results: rounds %d..%d averaged (--window=%d --window-at=%s: not the spec's "
	       "window of %d rounds at steady state)\n",
	       json_object_get_int(json_object_array_get_idx(win, 0)),
	       json_object_get_int(json_object_array_get_idx(win, 1)),
	       json_object_get_int(jget(ch, "rounds")), jstring(ch, "at"), SSL_SS_WINDOW);
}

/* ---- the test's pts.json ---- */

static json_object *device_json(const struct pts_ctx *c)
{
	const struct ssl_dev *d = &c->dev;
	json_object *o = ssl_dev_json(d, c->filename), *l, *wc;
	jset(o, "physical_block_size", json_object_new_int((int)d->physical_block_size));
	jset(o, "partition", json_object_new_boolean(d->is_partition));
	if (d->lbaf_index >= 0) {
		l = json_object_new_object();
		jset(l, "index", json_object_new_int(d->lbaf_index));
		jset(l, "data_bytes", json_object_new_int(d->lbaf_data_bytes));
		jset(l, "metadata_bytes", json_object_new_int(d->lbaf_metadata_bytes));
		jset(o, "lba_format", l);
	} else {
		jset(o, "lba_format", NULL);
	}
	wc = json_object_new_object();
	jset(wc, "present", d->vwc_present < 0 ? NULL : json_object_new_boolean(d->vwc_present));
	jset(wc, "requested", json_object_new_string(wc_req_name[c->wc]));
	jset(wc, "before", json_object_new_string(ssl_wc_name(d->wc)));
	jset(wc, "during", json_object_new_string(ssl_wc_name(d->wc)));
	jset(o, "write_cache", wc);
	return o;
}

/* Why block size @bs is aligned to @ba (pts_blockalign()). */
static const char *blockalign_why(const struct pts_ctx *c, unsigned int bs,
				  unsigned int ba, char *buf, size_t len)
{
	if (c->def->bssplit)
		return "4 KiB (or the logical block if larger) for all of ECW's block sizes: "
		       "one run of them all";
	if (ba == bs)
		return "the block size";
	snprintf(buf, len, "the device's logical block size, %u B: it forbids the block size",
		 ba);
	return buf;
}

/*
 * The offset alignment of the random I/Os: blockalign (the first block
 * size's), blockalign_by_bs and blockalign_why_by_bs (each block size's,
 * as bytes, and why: each is its own step or run), blockalign_rule (one
 * line for them all) and logical_block_size.
 */
static void blockalign_json(const struct pts_ctx *c, json_object *o)
{
	const struct pts_def *t = c->def;
	json_object *by = NULL, *why = NULL;
	unsigned int i, ba, ba0 = 0, own = 0;
	char key[16], buf[96];

	jset(o, "logical_block_size", c->dev.logical_block_size ?
	     json_object_new_int((int)c->dev.logical_block_size) : NULL);
	if (t->random) {
		by = json_object_new_object();
		why = json_object_new_object();
	}
	for (i = 0; t->random && i < c->nbs; i++) {
		ba = t->bssplit ? pts_round_blockalign(c) : pts_blockalign(c, c->bs[i]);
		ba0 = i ? ba0 : ba;
		own += ba == c->bs[i];
		snprintf(key, sizeof(key), "%u", c->bs[i]);
		jset(by, key, json_object_new_int((int)ba));
		jset(why, key, json_object_new_string(blockalign_why(c, c->bs[i], ba, buf,
								     sizeof(buf))));
	}
	jset(o, "blockalign", t->random ? json_object_new_int((int)ba0) : NULL);
	jset(o, "blockalign_by_bs", by);
	jset(o, "blockalign_why_by_bs", why);
	jset(o, "blockalign_rule", !t->random ? NULL : json_object_new_string(
		t->bssplit ? blockalign_why(c, 0, 0, buf, sizeof(buf)) :
		own == c->nbs ? "the block size" :
		"each block size's own where the device's logical block allows it, else the "
		"logical block size"));
}

static json_object *settings_json(const struct pts_ctx *c)
{
	const struct pts_def *t = c->def;
	json_object *o = json_object_new_object(), *tr;

	jset(o, "threads", json_object_new_int((int)c->threads));
	jset(o, "iodepth", json_object_new_int((int)c->iodepth));
	jset(o, "offset_bytes", json_object_new_int64(0));
	jset(o, "active_range_bytes", json_object_new_int64((int64_t)c->active_bytes));
	jset(o, "active_range_pct",
	     json_object_new_double(100.0 * c->active_bytes / c->dev.capacity_bytes));
	jset(o, "point_ms", json_object_new_int64((int64_t)c->point_ms));
	jset(o, "spec_point_ms", json_object_new_int64(PTS_SPEC_POINT_MS));
	jset(o, "max_rounds", json_object_new_int((int)c->max_rounds));
	jset(o, "min_rounds", c->min_rounds ? json_object_new_int((int)c->min_rounds) : NULL);
	jset(o, "window", json_object_new_int((int)(c->window ? c->window : SSL_SS_WINDOW)));
	jset(o, "window_at", json_object_new_string(pts_window_at_name[c->window_at]));
	jset(o, "spec_window", json_object_new_int(SSL_SS_WINDOW));
	jset(o, "range_limit_pct", json_object_new_double(SSL_SS_RANGE_PCT));
	jset(o, "slope_limit_pct", json_object_new_double(SSL_SS_SLOPE_PCT));
	blockalign_json(c, o);
	jset(o, "pattern", json_object_new_string(t->random ? "random" : "sequential"));
	jset(o, "wipc_factor", json_object_new_double(c->wipc_factor));
	jset(o, "block_sizes", juints(c->bs, c->nbs));
	jset(o, "rwmixread", juints(t->mix, t->nmix));
	tr = json_object_new_object();
	jset(tr, "label", json_object_new_string(t->track_label));
	jset(tr, "bs", json_object_new_int((int)c->track_bs));
	jset(tr, "rwmixread", json_object_new_int((int)t->track_mix));
	jset(tr, "metric", json_object_new_string(pts_metric_key[t->metric]));
	jset(tr, "unit", json_object_new_string(pts_metric_unit[t->metric]));
	jset(o, "tracking", tr);
	if (t->ntracks > 1) {
		json_object *vars = json_object_new_array();
		unsigned int v;

		for (v = 0; v < t->ntracks; v++) {
			json_object *x = json_object_new_object();

			jset(x, "bs", json_object_new_int((int)t->tracks[v].bs));
			jset(x, "rwmixread", json_object_new_int((int)t->tracks[v].rwmixread));
			json_object_array_add(vars, x);
		}
		jset(o, "tracking_variables", vars);
	}
	jset(o, "percentile_list", json_object_new_string(PTS_PERCENTILES));
	if (t->ops->segmented) {
		jset(o, "sample_ms", json_object_new_int64((int64_t)c->point_ms));
		jset(o, "segment_samples", json_object_new_int(PTS_WSAT_SEG_SAMPLES));
	}
	if (t->ops->settings)
		t->ops->settings(c, o, tr);
	return o;
}

/* ---- set-up ---- */

/* The active range in bytes from --size (SIZE or P%). */
static int active_range(struct pts_ctx *c)
{
	uint64_t cap = c->dev.capacity_bytes, v;
	double pct;
	char *end;

	c->active_bytes = cap;
	if (!c->size)
		return 0;
	if (c->size[0] && c->size[strlen(c->size) - 1] == '%') {
		errno = 0;
		pct = strtod(c->size, &end);
		if (end == c->size || *end != '%' || errno || !(pct > 0 && pct <= 100)) {
			ssl_err("pts: --size=%s: a percentage must be in (0, 100]", c->size);
			return -1;
		}
		v = (uint64_t)(cap * pct / 100);
	} else if (ssl_parse_size(c->size, &v) || !v || v > cap) {
		ssl_err("pts: --size=%s: must be a size up to the capacity (%llu bytes) or P%%",
			c->size, (unsigned long long)cap);
		return -1;
	}
	c->active_bytes = v / 1048576 * 1048576;
	if (!c->active_bytes) {
		ssl_err("pts: --size=%s: the active range must be at least 1 MiB", c->size);
		return -1;
	}
	return 0;
}

static int make_dirs(struct pts_ctx *c)
{
	char path[PATH_MAX];

	if (!c->dir) {
		struct tm tm;
		time_t now = time(NULL);
		char stamp[32];

		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(c->dirbuf, sizeof(c->dirbuf), "pts-%s-%s", c->def->name, stamp);
		c->dir = c->dirbuf;
	}
	if (mkdir(c->dir, 0755) && errno != EEXIST) {
		ssl_err("pts: mkdir %s: %s", c->dir, strerror(errno));
		return -1;
	}
	if (ssl_dir_check("pts", c->dir))
		return -1;
	if (pts_path(c, path, sizeof(path), PTS_JSON))
		return -1;
	if (!access(path, F_OK)) {
		ssl_err("pts: %s exists: continue it with --resume=%s, or choose another "
			"--output-dir", path, c->dir);
		return -1;
	}
	if (pts_path(c, path, sizeof(path), "rounds") ||
	    (mkdir(path, 0755) && errno != EEXIST)) {
		ssl_err("pts: mkdir %s: %s", path, strerror(errno));
		return -1;
	}
	return ssl_dir_check("pts", path);
}

static void new_doc(struct pts_ctx *c)
{
	json_object *d = json_object_new_object(), *cmd;
	int i;

	c->doc = d;
	jset(d, "format", json_object_new_string(PTS_FORMAT));
	jset(d, "format_version", json_object_new_int(PTS_FORMAT_VERSION));
	jset(d, "spec", json_object_new_string(SSL_SS_SPEC));
	jset(d, "ssdload_version", json_object_new_string(SSDLOAD_CLI_VERSION));
	jset(d, "test", json_object_new_string(c->def->name));
	jset(d, "title", json_object_new_string(c->def->title));
	jset(d, "clause", json_object_new_string(c->def->clause));
	jset(d, "variant", json_object_new_string("Enterprise"));
	cmd = json_object_new_array();
	json_object_array_add(cmd, json_object_new_string("ssdload"));
	json_object_array_add(cmd, json_object_new_string("pts"));
	for (i = 0; i < c->argc; i++)
		json_object_array_add(cmd, json_object_new_string(c->argv[i]));
	jset(d, "command", cmd);
	jset(d, "state", json_object_new_string("running"));
	jset(d, "started", jnow());
	jset(d, "updated", jnow());
	jset(d, "finished", NULL);
	jset(d, "conformant", json_object_new_boolean(true));
	jset(d, "deviations", json_object_new_array());
	jset(d, "scaled", json_object_new_boolean(false));
	jset(d, "resumed", json_object_new_array());
	jset(d, "device", device_json(c));
	jset(d, "settings", settings_json(c));
	jset(d, "purge", NULL);
	jset(d, "wipc", NULL);
	jset(d, "health_before", health_now(c));
	jset(d, "health_after", NULL);
	jset(d, "rounds", json_object_new_array());
	jset(d, "steady_state", NULL);
	jset(d, "results", NULL);
	if (c->def->ops->segmented) {
		jset(d, "segments", json_object_new_array());
		jset(d, "series", json_object_new_array());
	}
	if (c->def->ops->doc)
		c->def->ops->doc(d);
}

/* Deviations from the specification that the options make. */
static void scale_deviations(struct pts_ctx *c)
{
	const struct pts_def *t = c->def;
	char a[32], b[32];
	bool scaled = false;

	if (c->point_ms != PTS_SPEC_POINT_MS) {
		deviation(c, "point time %llu ms (spec: %u ms)", (unsigned long long)c->point_ms,
			  PTS_SPEC_POINT_MS);
		scaled = true;
	}
	if (c->active_bytes != c->dev.capacity_bytes) {
		ssl_size_str(a, sizeof(a), c->active_bytes);
		ssl_size_str(b, sizeof(b), c->dev.capacity_bytes);
		deviation(c, "active range %s of %s (Enterprise: 100%%)", a, b);
		scaled = true;
	}
	if (c->wipc_factor != t->wipc) {
		if (t->wipc)
			deviation(c, "WIPC %g x the active range (spec: %u x)", c->wipc_factor,
				  t->wipc);
		else
			deviation(c, "WIPC %g x the active range (spec: none)", c->wipc_factor);
		scaled = true;
	}
	if (t->ops->scale(c))
		scaled = true;
	if (t->fixed_load && (c->threads != t->threads || c->iodepth != t->iodepth))
		deviation(c, "T%uQ%u (spec: T%uQ%u)", c->threads, c->iodepth, t->threads,
			  t->iodepth);
	if (c->dev.is_partition)
		deviation(c, "a partition, not the whole device");
	jset(c->doc, "scaled", json_object_new_boolean(scaled));
}

/* Restore the options of DIR's run from its command; 0 or exit status. */
static int load_resume(struct pts_ctx *c, const char *dir, const char *test,
		       const char ***argv_out)
{
	char path[PATH_MAX];
	json_object *doc, *cmd;
	const char **argv;
	size_t i, n;

	if (snprintf(path, sizeof(path), "%s/%s", dir, PTS_JSON) >= (int)sizeof(path)) {
		ssl_err("pts: --resume=%s: path too long", dir);
		return PTS_EXIT_USAGE;
	}
	doc = ssl_json_read(path, SSL_JSON_MAX_BYTES, NULL);
	if (!doc || strcmp(jstring(doc, "format"), PTS_FORMAT) ||
	    jnum(doc, "format_version", 0) != PTS_FORMAT_VERSION) {
		ssl_err("pts: --resume=%s: %s is not the state of a pts run", dir, path);
		json_object_put(doc);
		return PTS_EXIT_USAGE;
	}
	if (!strcmp(jstring(doc, "state"), "complete")) {
		ssl_err("pts: --resume=%s: the test is complete already", dir);
		json_object_put(doc);
		return PTS_EXIT_USAGE;
	}
	c->def = pts_find(jstring(doc, "test"));
	if (!c->def || (test && strcmp(test, c->def->name))) {
		ssl_err("pts: --resume=%s: that directory holds a %s test", dir,
			json_object_get_string(jget(doc, "test")));
		json_object_put(doc);
		return PTS_EXIT_USAGE;
	}
	cmd = jget(doc, "command");
	n = json_object_array_length(cmd);
	argv = calloc(n + 1, sizeof(*argv));
	if (!argv || n < 3) {
		free(argv);
		json_object_put(doc);
		ssl_err("pts: --resume=%s: no command recorded", dir);
		return PTS_EXIT_USAGE;
	}
	/* "ssdload pts TEST ...": argv[0] is the test */
	for (i = 2; i < n; i++)
		argv[i - 2] = strdup(json_object_get_string(json_object_array_get_idx(cmd, i)));
	c->argc = (int)(n - 2);
	*argv_out = argv;
	c->doc = doc;
	return 0;
}

static void free_argv(const char **argv, int argc)
{
	int i;

	if (!argv)
		return;
	for (i = 0; i < argc; i++)
		free((char *)argv[i]);
	free(argv);
}

static int finish(struct pts_ctx *c, const char *state, int status)
{
	jset(c->doc, "state", json_object_new_string(state));
	if (!strcmp(state, "complete")) {
		jset(c->doc, "finished", jnow());
		jset(c->doc, "health_after", health_now(c));
	}
	if (pts_save(c))
		return PTS_EXIT_FAILED;
	if (!strcmp(state, "interrupted"))
		c->def->ops->interrupted(c);
	return status;
}

/* ---- the text summary ---- */

static void print_summary(const struct pts_ctx *c)
{
	const struct pts_def *t = c->def;
	json_object *ss = jget(c->doc, "steady_state");

	printf("%s: %s test, %s\n", SSL_SS_SPEC, t->title, c->filename);
	if (ss) {
		json_object *win = jget(ss, "window");

		printf("steady state: %s (window %s %d..%d, average %.6g %s, range %.2f%%, "
		       "slope excursion %.2f%%)\n",
		       json_object_get_boolean(jget(ss, "reached")) ? "reached" : "NOT achieved",
		       t->ops->window_of,
		       json_object_get_int(json_object_array_get_idx(win, 0)),
		       json_object_get_int(json_object_array_get_idx(win, 1)),
		       jnum(ss, "average", NAN), pts_metric_unit[t->metric],
		       jnum(ss, "range_pct", NAN), jnum(ss, "slope_excursion_pct", NAN));
	}
	summary_window(c);
	if (!json_object_get_boolean(jget(c->doc, "conformant"))) {
		json_object *dev = jget(c->doc, "deviations");
		size_t i;

		printf("NOT CONFORMANT:\n");
		for (i = 0; i < json_object_array_length(dev); i++)
			printf("  - %s\n", json_object_get_string(json_object_array_get_idx(dev, i)));
	}
	t->ops->summary(c);
}

/* ---- running a test ---- */

/* --resume: the device must be the one the test started on (guard.h). */
static int resume_identity(struct pts_ctx *c)
{
	struct ssl_dev was;
	char who[PATH_MAX + 32];

	ssl_dev_recorded(jget(c->doc, "device"), &was);
	snprintf(who, sizeof(who), "pts: --resume=%s", c->dir);
	return ssl_dev_check_same(&was, &c->dev, who);
}

/* --dry-run: what the test would purge, and how; 0 or an exit status. */
static int pts_dry_run(struct pts_ctx *c, int fd)
{
	char plan[1600];

	if (c->doc && phase_done(c, "purge") &&
	    (phase_done(c, "wipc") || !(c->wipc_factor > 0))) {
		fprintf(stderr, "ssdload: dry run: %s: purged already; the test would go "
			"on writing\n", c->filename);
	} else {
		if (ssl_dev_purge_plan(&c->dev, fd, c->purge, plan, sizeof(plan)))
			return PTS_EXIT_USAGE;
		fprintf(stderr, "ssdload: dry run: %s: purge (%s): %s\n", c->filename,
			ssl_purge_name(c->purge), plan);
	}
	fprintf(stderr, "ssdload: dry run: nothing was written\n");
	return 0;
}

/* The refusals every writing command makes before any write; the fd or -1. */
static int pts_gate(struct pts_ctx *c)
{
	char plan[1600];
	int fd;

	if (!c->filename) {
		ssl_err("pts %s: --filename=DEV is required", c->def->name);
		return -1;
	}
	if (!c->allow_write) {
		ssl_err("pts %s: the test purges and writes %s, destroying its data: pass "
			"--allow_write", c->def->name, c->filename);
		return -1;
	}
	if (ssl_dev_probe(c->filename, &c->dev))
		return -1;
	c->dev.force_scope = c->force;
	fd = ssl_dev_open_excl(&c->dev, c->allow_partition);
	if (fd < 0)
		return -1;
	if ((c->doc && resume_identity(c)) ||
	    ssl_guard(&c->dev, fd, c->force, c->dry_run)) {
		close(fd);
		return -1;
	}
	/*
	 * a purge the device would refuse (a Sanitize beyond the namespace, a
	 * method it lacks) is a refusal too, before any write; the dry run
	 * prints the plan
	 */
	if (!c->dry_run && !(c->doc && phase_done(c, "purge")) &&
	    ssl_dev_purge_plan(&c->dev, fd, c->purge, plan, sizeof(plan))) {
		close(fd);
		return -1;
	}
	/* a dry run writes nothing: it needs no module */
	if (!c->dry_run && (cfs_check_module() || ssl_check_debugfs())) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The options' defaults and refusals, all before any write: those of the
 * options the test does not take (one mask test), then those of their
 * values.  0 or an exit status.
 */
static int pts_refuse(struct pts_ctx *c)
{
	const struct pts_def *t = c->def;
	unsigned int bad = c->given & ~t->opts;
	size_t i;

	if (!c->threads)
		c->threads = t->threads;
	if (!c->iodepth)
		c->iodepth = t->iodepth;
	/* throughput: each block size is a test of its own */
	if (c->bs[0] && t->bs_choice[0] && c->bs[0] != t->bs_choice[0] &&
	    c->bs[0] != t->bs_choice[1]) {
		ssl_err("pts %s: --bs=%u: the %s test runs 128k or 1m", t->name, c->bs[0],
			t->name);
		return PTS_EXIT_USAGE;
	}
	for (i = 0; i < ARRAY_SIZE(pts_refusals); i++) {
		if (bad & pts_refusals[i].opts) {
			ssl_err(pts_refusals[i].fmt, t->name);
			return PTS_EXIT_USAGE;
		}
	}
	c->nbs = t->nbs;
	if (c->bs[0]) {
		c->track_bs = c->bs[0];
	} else {
		memcpy(c->bs, t->bs, sizeof(c->bs));
		c->track_bs = t->track_bs;
	}
	c->points = c->nbs * t->nmix;
	if (check_rounds(c))
		return PTS_EXIT_USAGE;
	if (t->ops->check && t->ops->check(c))
		return PTS_EXIT_USAGE;
	return 0;
}

/*
 * The command line: @test's options, or those recorded in --resume=DIR's
 * pts.json (*@rargv, with its doc in c->doc).  -1 to go on, or the exit
 * status.
 */
static int pts_args(struct pts_ctx *c, const char *test, int argc, const char **argv,
		    const char ***rargv)
{
	const char *resume = NULL, *rdir, *eta;
	bool force, dry_run;
	int r, st;

	r = pts_parse(c, argc, argv, &resume);
	if (r)
		return r > 0 ? 0 : PTS_EXIT_USAGE;
	if (!resume && !test) {
		ssl_usage(stderr, pts_test_usage);
		return PTS_EXIT_USAGE;
	}
	if (!resume)
		return -1;
	rdir = resume;
	eta = c->eta;
	force = c->force;
	dry_run = c->dry_run;
	if (c->given & ~(1u << P_RESUME | 1u << P_ETA | 1u << P_FORCE | 1u << P_DRY_RUN)) {
		ssl_err("pts: --resume continues with the options of the run it "
			"continues: give it alone (or with --eta, --force, --dry-run)");
		return PTS_EXIT_USAGE;
	}
	if (ssl_dir_check("pts", rdir))
		return PTS_EXIT_USAGE;
	memset(c, 0, sizeof(*c));
	c->dev.lbaf_index = -1;
	st = load_resume(c, rdir, test, rargv);
	if (st)
		return st;
	c->argv = *rargv;
	if (pts_parse(c, c->argc, c->argv, &resume))
		return PTS_EXIT_USAGE;
	c->dir = rdir;
	c->eta = eta;
	c->force = c->force || force;
	c->dry_run = dry_run;
	return -1;
}

/* A resumed test: where it goes on, in the doc's "resumed" and on stderr. */
static void pts_resumed(struct pts_ctx *c)
{
	json_object *ev = json_object_new_object();

	jset(ev, "at", jnow());
	jset(ev, "after_round", json_object_new_int((int)rounds_done(c)));
	if (c->def->ops->segmented) {
		unsigned int n = json_object_array_length(jget(c->doc, "segments"));

		jset(ev, "after_segment", json_object_new_int((int)n));
		fprintf(stderr, "pts %s: resuming %s after segment %u\n", c->def->name,
			c->dir, n);
		/* the idle time of the interruption is what HIR measures */
		if (n)
			deviation(c, "resumed after an interruption (%s): the drive "
				  "idled for it, which the stimulus does not have",
				  jstring(ev, "at"));
	} else {
		fprintf(stderr, "pts %s: resuming %s after round %u\n", c->def->name,
			c->dir, rounds_done(c));
	}
	json_object_array_add(jget(c->doc, "resumed"), ev);
}

/* A new test: its directory and its pts.json.  0 or an exit status. */
static int pts_begin(struct pts_ctx *c)
{
	if (make_dirs(c))
		return PTS_EXIT_USAGE;
	new_doc(c);
	scale_deviations(c);
	return pts_save(c) ? PTS_EXIT_FAILED : 0;
}

/*
 * The test after the refusals: purge (through the exclusive @fd, closed
 * here), write cache, WIPC, the stimulus, results, report and summary.
 * Returns the exit status.
 */
static int pts_phases(struct pts_ctx *c, int fd)
{
	int st;

	/*
	 * A crash during the purge or the WIPC leaves them unfinished: they
	 * start over (a WIPC on an unknown state needs its purge first).
	 */
	if (!phase_done(c, "wipc") && c->wipc_factor > 0)
		jset(c->doc, "purge", NULL);
	st = do_purge(c, &fd);
	if (fd >= 0)
		close(fd);
	if (st)
		goto interrupted;
	st = do_write_cache(c);
	if (st)
		goto failed;
	st = do_wipc(c);
	if (st)
		goto interrupted;
	st = c->def->ops->run(c);
	if (st < 0)
		return PTS_EXIT_FAILED;
	if (st)
		goto interrupted;
	st = finish(c, "complete", c->def->ops->results(c));
	if (st == PTS_EXIT_FAILED)
		return st;
	if (!c->no_report && ssl_render_report(c->dir, 1))
		ssl_err("pts: the report was not rendered; the data is in %s/%s (render it "
			"with ssdload report %s)", c->dir, PTS_JSON, c->dir);
	print_summary(c);
	return st;

interrupted:
	if (st > 128 || ssl_run_sig)
		return finish(c, "interrupted", st > 128 ? st : SSL_EXIT_SIGNAL(ssl_run_sig));
failed:
	finish(c, "failed", st);
	return st;
}

int pts_run(const char *test, int argc, const char **argv)
{
	struct pts_ctx ctx, *c = &ctx;
	const char **rargv = NULL;
	int st, fd;

	memset(c, 0, sizeof(*c));
	c->dev.lbaf_index = -1;
	if (test) {
		c->def = pts_find(test);
		c->argc = argc;
		c->argv = argv;
	}
	st = pts_args(c, test, argc, argv, &rargv);
	if (st >= 0)
		goto out;
	st = pts_refuse(c);
	if (st)
		goto out;
	fd = pts_gate(c);
	if (fd < 0) {
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (active_range(c) || (c->def->ops->check_range && c->def->ops->check_range(c))) {
		close(fd);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->dry_run) {
		st = pts_dry_run(c, fd);
		close(fd);
		goto out;
	}
	if (rargv) {
		pts_resumed(c);
	} else {
		st = pts_begin(c);
		if (st) {
			close(fd);
			goto out;
		}
	}
	ssl_run_catch_signals();
	st = pts_phases(c, fd);
out:
	json_object_put(c->doc);
	free_argv(rargv, rargv ? c->argc : 0);
	return st;
}

/* ---- ssdload pts purge ---- */

static const struct pts_def purge_def = { .name = "purge", .title = "Purge" };

static const char *const pts_purge_usage[] = {
	"usage: ssdload pts purge --filename=DEV --allow_write [--purge=METHOD]",
	"                         [--allow-partition] [--force] [--dry-run]",
	"",
	"Purge DEV as a test does before its preconditioning, and say how: on NVMe",
	"Sanitize (block erase, else crypto erase) where the controller supports it,",
	"else Format NVM with user data erase; on a SATA drive ATA Sanitize, else ATA",
	"Security Erase; on a SCSI/SAS disk SANITIZE, else FORMAT UNIT; elsewhere",
	"BLKSECDISCARD, BLKDISCARD, or one sequential write pass, which are not",
	"conformant purges (the output says so).  --purge=METHOD asks for one of",
	"sanitize, format, security-erase, secdiscard, discard or overwrite (refused",
	"where DEV lacks it).",
	"",
	"DEV's identity and signatures are printed first; a DEV holding a filesystem,",
	"partition table, LVM, RAID or swap signature is refused (exit status 2)",
	"unless --force; --dry-run prints the method and its scope and writes nothing.",
	NULL,
};

int pts_purge(int argc, const char **argv)
{
	struct pts_ctx ctx, *c = &ctx;
	const char *resume = NULL;
	enum ssl_purge used = SSL_PURGE_NONE;
	const char *why = NULL;
	char detail[256] = "", sz[32], tmp[PATH_MAX];
	uint64_t t0;
	int fd, r, st = 0;

	memset(c, 0, sizeof(*c));
	c->def = &purge_def;
	c->dev.lbaf_index = -1;
	for (r = 1; r < argc; r++)
		if (!strcmp(argv[r], "--help") || !strcmp(argv[r], "-h")) {
			ssl_usage(stdout, pts_purge_usage);
			return 0;
		}
	r = pts_parse(c, argc, argv, &resume);
	if (r)
		return r > 0 ? 0 : PTS_EXIT_USAGE;
	if (c->given & ~(1u << P_FILENAME | 1u << P_ALLOW_WRITE | 1u << P_ALLOW_PARTITION |
			 1u << P_PURGE | 1u << P_ETA | 1u << P_FORCE | 1u << P_DRY_RUN)) {
		ssl_err("pts purge: takes --filename, --allow_write, --allow-partition, "
			"--purge, --force and --dry-run only");
		return PTS_EXIT_USAGE;
	}
	fd = pts_gate(c);
	if (fd < 0)
		return PTS_EXIT_USAGE;
	if (c->dry_run) {
		st = pts_dry_run(c, fd);
		close(fd);
		return st;
	}
	t0 = ssl_now_ms();
	if (ssl_dev_purge(&c->dev, fd, c->purge, &used, detail, sizeof(detail))) {
		close(fd);
		return PTS_EXIT_FAILED;
	}
	ioctl(fd, BLKFLSBUF, 0);	/* no stale cached pages of the old data */
	close(fd);
	if (used == SSL_PURGE_OVERWRITE) {
		json_object *rec = json_object_new_object();
		const char *dir = getenv("TMPDIR");
		int tfd;

		/* the overwrite pass's record: in $TMPDIR, as fio's and mktemp's */
		snprintf(tmp, sizeof(tmp), "%s/ssdload-purge-XXXXXX",
			 dir && *dir ? dir : "/tmp");
		tfd = mkstemp(tmp);
		if (tfd < 0) {
			ssl_err("pts purge: mkstemp: %s", strerror(errno));
			json_object_put(rec);
			return PTS_EXIT_FAILED;
		}
		close(tfd);
		c->eta = "auto";
		ssl_run_catch_signals();
		st = seq_fill(c, "purge", PTS_WIPC_BS, c->dev.capacity_bytes, 1, tmp, rec);
		unlink(tmp);
		json_object_put(rec);
		if (st)
			return st;
		snprintf(detail, sizeof(detail), "one sequential 128KiB write pass over %llu bytes",
			 (unsigned long long)c->dev.capacity_bytes);
	}
	ssl_size_str(sz, sizeof(sz), c->dev.capacity_bytes);
	printf("device: %s (%s, serial %s, firmware %s, %s)\n", c->filename,
	       *c->dev.model ? c->dev.model : "model unknown",
	       *c->dev.serial ? c->dev.serial : "unknown",
	       *c->dev.firmware ? c->dev.firmware : "unknown", sz);
	printf("method: %s\n", ssl_purge_name(used));
	printf("detail: %s\n", detail);
	if (ssl_purge_conformant(used, &why))
		printf("conformant: yes\n");
	else
		printf("conformant: no (%s)\n", why);
	printf("duration: %.3f s\n", (ssl_now_ms() - t0) / 1000.0);
	return 0;
}
