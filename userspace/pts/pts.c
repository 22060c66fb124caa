// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload pts TEST: the tests of the SNIA Solid State Storage Performance
 * Test Specification (SSS PTS 2.0.2, Enterprise), end to end:
 *
 *   safety checks (before any write) -> purge -> write cache -> WIPC ->
 *   rounds of the test's stimulus (WDPC and measurement in one) until
 *   steady state or the round limit -> the measurement window -> report.
 *
 * Each round is one `ssdload run` of this same binary, with one --step per
 * point of the test's matrix: the points of a round run back to back in the
 * kernel, and the round's fio-style JSON is kept in DIR/rounds/.  The whole
 * state of the test is DIR/pts.json, rewritten atomically after every
 * phase and every round, so that --resume=DIR continues after a crash or
 * a signal without losing a finished round.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fs.h>

#include <json-c/json.h>

#include "cmd/builtin.h"
#include "core/configfs.h"
#include "device/device.h"
#include "device/guard.h"
#include "core/options.h"
#include "pts/pts.h"
#include "methods/render.h"
#include "methods/runner.h"
#include "pts/ss.h"
#include "core/util.h"
#include "uapi/ssdload.h"

#define PTS_FORMAT		"ssdload-pts"
#define PTS_FORMAT_VERSION	1
#define PTS_JSON		"pts.json"
#define PTS_SPEC_POINT_MS	60000	/* every test's point: one minute */
#define PTS_WIPC_BS		131072	/* WIPC: SEQ 128KiB writes ... */
#define PTS_WIPC_LOOPS		2	/* ... twice the user capacity */
#define PTS_WIPC_QD		32
#define PTS_WSAT_DURATION_MS	(24ULL * 3600 * 1000)	/* WSAT: 24 hours ... */
#define PTS_WSAT_WRITE_LIMIT	4	/* ... or 4x the user capacity written */
#define PTS_WSAT_SEG_SAMPLES	30	/* samples per `ssdload run` (a segment) */
#define PTS_MAX_POINTS		64
#define PTS_MAX_THREADS		256
#define PTS_MAX_QD		1024
/* clat percentiles every round keeps (fio's list, and the spec's five 9s) */
#define PTS_PERCENTILES		"1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:" \
				"99.95:99.99:99.999:99.9999"

enum pts_metric { PTS_IOPS, PTS_BW, PTS_LAT_MEAN };

static const char *const metric_key[] = {
	[PTS_IOPS] = "iops", [PTS_BW] = "bw_bytes", [PTS_LAT_MEAN] = "lat_mean_ns",
};

static const char *const metric_unit[] = {
	[PTS_IOPS] = "IOPS", [PTS_BW] = "B/s", [PTS_LAT_MEAN] = "ns",
};

/*
 * How a test runs: rounds of a matrix of points until steady state, or
 * one continuous stimulus sampled at a fixed interval up to a limit.
 */
/*
 * PTS_DEMAND: ECW and DIRTH, a preconditioning to steady state, rounds of a
 * TC x QD demand matrix to steady state, then three operating points.
 */
enum pts_kind { PTS_MATRIX, PTS_WSAT, PTS_HIR, PTS_XSR, PTS_DEMAND };

/* One test of the specification: its stimulus matrix and tracking variable. */
struct pts_def {
	const char *name;		/* command-line name */
	enum pts_kind kind;
	unsigned int wipc;		/* the spec's WIPC, x the active range (0: none) */
	const char *title;
	const char *clause;		/* section of SSS PTS 2.0.2 */
	bool random;			/* RND, else SEQ */
	unsigned int threads, iodepth;	/* defaults (TC, QD per thread) */
	bool fixed_load;		/* TC/QD fixed by the spec (latency: T1Q1) */
	unsigned int nbs, nmix;
	unsigned int bs[8];		/* bytes, in the order they run (inner loop) */
	unsigned int mix[7];		/* % reads, in the order they run (outer loop) */
	unsigned int track_bs, track_mix;
	enum pts_metric metric;
	const char *track_label;
	const char *bssplit;		/* ECW: the access pattern's block sizes */
	const char *zones;		/* ECW: its access probabilities */
};

/*
 * ECW: the access pattern of SSS PTS 2.0 (the block sizes and probabilities
 * of its ECW table; ADATA's SSS-PTS-TEST runs the same) over three zones of
 * the active range: 50% of the accesses to its first 5%, 30% to the next
 * 15%, 20% to the last 80%.
 */
#define PTS_ECW_BSSPLIT		"512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:" \
				"4096/67:8192/10:16384/7:32768/3:65536/3"
#define PTS_ECW_ZONES		"zoned:50/5:30/15:20/80"

static const struct pts_def pts_defs[] = {
	{
		.name = "iops", .title = "IOPS", .clause = "7 (IOPS test)", .wipc = 2,
		.random = true, .threads = 4, .iodepth = 32,
		.nbs = 8, .bs = { 1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512 },
		.nmix = 7, .mix = { 100, 95, 65, 50, 35, 5, 0 },
		.track_bs = 4096, .track_mix = 0, .metric = PTS_IOPS,
		.track_label = "RND 4KiB 0/100 (100% write) IOPS",
	},
	{
		.name = "throughput", .title = "Throughput", .clause = "8 (Throughput test)",
		.wipc = 2,
		.random = false, .threads = 1, .iodepth = 32,
		.nbs = 1, .bs = { 1048576 },
		.nmix = 2, .mix = { 100, 0 },
		.track_bs = 1048576, .track_mix = 0, .metric = PTS_BW,
		.track_label = "SEQ 1024KiB 0/100 (100% write) bandwidth",
	},
	{
		.name = "latency", .title = "Latency", .clause = "9 (Latency test)", .wipc = 2,
		.random = true, .threads = 1, .iodepth = 1, .fixed_load = true,
		.nbs = 3, .bs = { 8192, 4096, 512 },
		.nmix = 3, .mix = { 100, 65, 0 },
		.track_bs = 4096, .track_mix = 0, .metric = PTS_LAT_MEAN,
		.track_label = "RND 4KiB 0/100 (100% write) average latency",
	},
	{
		/* purge, no WIPC: the stimulus itself fills the drive */
		.name = "wsat", .title = "Write Saturation", .kind = PTS_WSAT,
		.clause = "WSAT (Write Saturation test)",
		.random = true, .threads = 4, .iodepth = 32,
		.nbs = 1, .bs = { 4096 }, .nmix = 1, .mix = { 0 },
		.track_bs = 4096, .track_mix = 0, .metric = PTS_IOPS,
		.track_label = "RND 4KiB 0/100 (100% write) IOPS",
	},
	{
		/* purge, no WIPC; WSAT's stimulus to steady state, then the waits */
		.name = "hir", .title = "Host Idle Recovery", .kind = PTS_HIR,
		.clause = "HIR (Host Idle Recovery test)",
		.random = true, .threads = 4, .iodepth = 32,
		.nbs = 1, .bs = { 4096 }, .nmix = 1, .mix = { 0 },
		.track_bs = 4096, .track_mix = 0, .metric = PTS_IOPS,
		.track_label = "RND 4KiB 0/100 (100% write) IOPS",
	},
	{
		/* purge, no WIPC; SEQ 1024KiB, RND 8KiB, SEQ 1024KiB writes */
		.name = "xsr", .title = "Cross Stimulus Recovery", .kind = PTS_XSR,
		.clause = "XSR (Cross Stimulus Recovery test)",
		.random = false, .threads = 1, .iodepth = 32,
		.nbs = 1, .bs = { 1048576 }, .nmix = 1, .mix = { 0 },
		.track_bs = 1048576, .track_mix = 0, .metric = PTS_BW,
		.track_label = "write bandwidth",
	},
	{
		/* WIPC, then the ECW mix as writes to steady state, then demand */
		.name = "ecw", .title = "Enterprise Composite Workload", .kind = PTS_DEMAND,
		.clause = "ECW (Enterprise Composite Workload test)", .wipc = 2,
		.random = true, .threads = 32, .iodepth = 32,
		.nbs = 1, .bs = { 4096 }, .nmix = 1, .mix = { 40 },
		.track_bs = 4096, .track_mix = 40, .metric = PTS_IOPS,
		.track_label = "ECW 40/60 IOPS at the highest load (T32Q32)",
		.bssplit = PTS_ECW_BSSPLIT, .zones = PTS_ECW_ZONES,
	},
	{
		.name = "dirth", .title = "Demand Intensity / Response Time Histogram",
		.kind = PTS_DEMAND, .clause = "DIRTH (Demand Intensity / Response Time "
		"Histogram test)", .wipc = 2,
		.random = true, .threads = 32, .iodepth = 32,
		.nbs = 1, .bs = { 8192 }, .nmix = 1, .mix = { 65 },
		.track_bs = 8192, .track_mix = 65, .metric = PTS_IOPS,
		.track_label = "RND 8KiB 65/35 IOPS at the highest load (T32Q32)",
	},
};

/* ECW, DIRTH: thread counts and queue depths, high to low (7 x 7 points) */
static const unsigned int demand_loads[] = { 32, 16, 8, 6, 4, 2, 1 };
#define PTS_DEMAND_MAX_LOADS	8
#define PTS_DEMAND_PREWRITE	5	/* points of writes before each round */
#define PTS_OP_PREWRITE		60	/* points of writes before an operating point */
#define PTS_OP_MEASURE		10	/* points measured at an operating point */
#define PTS_ART_LIMIT_NS	5000000	/* MaxIOPS: the best point under 5 ms ART */

#define PTS_XSR_SEQ_MS		(8ULL * 3600 * 1000)	/* XSR: 8 h, 6 h, 8 h */

/* XSR: a stimulus group, its length in quarters of --duration (8 h) */
struct pts_group {
	const char *label;
	bool random;
	unsigned int bs, quarters;
};

static const struct pts_group xsr_groups[] = {
	{ "SEQ 1024KiB writes", false, 1048576, 4 },	/* 8 h */
	{ "RND 8KiB writes", true, 8192, 3 },		/* 6 h */
	{ "SEQ 1024KiB writes", false, 1048576, 4 },	/* 8 h */
};

/* HIR: wait states of k x the access time (5 s): 5, 10, 15, 25, 50 s */
static const unsigned int hir_waits[] = { 1, 2, 3, 5, 10 };
#define PTS_HIR_ACCESS_MS	5000	/* an access segment: 5 s of writes */
#define PTS_HIR_CYCLES		360	/* access + wait, 360 times per state */

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


enum pts_wc_req { PTS_WC_OFF, PTS_WC_ON, PTS_WC_LEAVE };
static const char *const wc_req_name[] = { "off", "on", "leave" };

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

static int pts_path(const struct pts_ctx *c, char *buf, size_t len, const char *rel)
{
	return ssl_dir_path("pts", c->dir, rel, buf, len);
}

static int pts_save(struct pts_ctx *c)
{
	char path[PATH_MAX];

	jset(c->doc, "updated", jnow());
	if (pts_path(c, path, sizeof(path), PTS_JSON))
		return -1;
	return json_save(c->doc, path);
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
	"  --purge=METHOD        auto (default), sanitize, format, secdiscard, discard,",
	"                        overwrite or none (none: the run is not conformant)",
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
	"  --max-rounds=N        the round limit (spec: 25; wsat, hir: segments of 30",
	"                        samples)",
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

enum {
	P_FILENAME, P_ALLOW_WRITE, P_ALLOW_PARTITION, P_OUTPUT_DIR, P_RESUME, P_PURGE,
	P_WRITE_CACHE, P_THREADS, P_IODEPTH, P_BS, P_POINT_TIME, P_SIZE, P_WIPC,
	P_MAX_ROUNDS, P_ETA, P_NO_REPORT, P_KEEP_LAST_JOB, P_DURATION, P_WRITE_LIMIT,
	P_ACCESS_TIME, P_CYCLES, P_TC_LIST, P_QD_LIST, P_RWMIXREAD, P_FORCE, P_DRY_RUN,
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

/* Parse the test's options into @c; 0, 1 (help printed) or -1. */
static int pts_parse(struct pts_ctx *c, int argc, const char **argv, const char **resume)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, r, dashdash = 0;
	uint64_t u;
	char *end;

	c->purge = SSL_PURGE_AUTO;
	c->wc = PTS_WC_OFF;
	c->point_ms = PTS_SPEC_POINT_MS;
	c->max_rounds = SSL_SS_MAX_ROUNDS;
	c->wipc_factor = c->def ? c->def->wipc : PTS_WIPC_LOOPS;
	c->duration_ms = c->def && c->def->kind == PTS_XSR ? PTS_XSR_SEQ_MS :
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
		switch (opt->id) {
		case P_FILENAME:
			c->filename = val;
			break;
		case P_ALLOW_WRITE:
			if (flag_val(opt->name, val, &c->allow_write))
				return -1;
			break;
		case P_ALLOW_PARTITION:
			if (flag_val(opt->name, val, &c->allow_partition))
				return -1;
			break;
		case P_NO_REPORT:
			if (flag_val(opt->name, val, &c->no_report))
				return -1;
			break;
		case P_KEEP_LAST_JOB:
			if (flag_val(opt->name, val, &c->keep_last_job))
				return -1;
			break;
		case P_FORCE:
			if (flag_val(opt->name, val, &c->force))
				return -1;
			break;
		case P_DRY_RUN:
			if (flag_val(opt->name, val, &c->dry_run))
				return -1;
			break;
		case P_OUTPUT_DIR:
			c->dir = val;
			break;
		case P_RESUME:
			*resume = val;
			break;
		case P_PURGE:
			if (ssl_purge_parse(val, &c->purge)) {
				ssl_err("pts: --purge=%s: must be auto, sanitize, format, "
					"secdiscard, discard, overwrite or none", val);
				return -1;
			}
			break;
		case P_WRITE_CACHE:
			for (u = 0; u < ARRAY_SIZE(wc_req_name); u++)
				if (!strcmp(val, wc_req_name[u]))
					break;
			if (u == ARRAY_SIZE(wc_req_name)) {
				ssl_err("pts: --write-cache=%s: must be off, on or leave", val);
				return -1;
			}
			c->wc = (enum pts_wc_req)u;
			break;
		case P_THREADS:
			if (ssl_uint_opt("pts", opt->name, val, 1, PTS_MAX_THREADS, &c->threads))
				return -1;
			break;
		case P_IODEPTH:
			if (ssl_uint_opt("pts", opt->name, val, 1, PTS_MAX_QD, &c->iodepth))
				return -1;
			break;
		case P_BS:
			/* which sizes a test takes: checked with the test known */
			if (ssl_parse_size(val, &u) || u < 512 || u > 1048576 || u % 512) {
				ssl_err("pts: --bs=%s: must be a multiple of 512 from 512 to 1m",
					val);
				return -1;
			}
			c->bs[0] = u;
			break;
		case P_TC_LIST:
			if (ssl_uint_list("pts", opt->name, val, PTS_MAX_THREADS, PTS_DEMAND_MAX_LOADS, -1,
					  c->tcs, &c->ntc))
				return -1;
			break;
		case P_QD_LIST:
			if (ssl_uint_list("pts", opt->name, val, PTS_MAX_QD, PTS_DEMAND_MAX_LOADS, -1,
					  c->qds, &c->nqd))
				return -1;
			break;
		case P_RWMIXREAD:
			if (ssl_uint_opt("pts", opt->name, val, 0, 100, &c->mix))
				return -1;
			break;
		case P_POINT_TIME:
			if (ssl_parse_time_ms(val, 1000, &u) || u < 100 || u > 3600000) {
				ssl_err("pts: --point-time=%s: must be 100ms to 1h", val);
				return -1;
			}
			c->point_ms = u;
			break;
		case P_SIZE:
			c->size = val;
			break;
		case P_WIPC:
			errno = 0;
			c->wipc_factor = strtod(val, &end);
			if (end == val || *end || errno || !isfinite(c->wipc_factor) ||
			    c->wipc_factor < 0 || c->wipc_factor > 16) {
				ssl_err("pts: --wipc=%s: must be a factor from 0 to 16", val);
				return -1;
			}
			break;
		case P_DURATION:
			if (ssl_parse_time_ms(val, 1000, &u) || u < 100 || u > 7 * 24 * 3600000ULL) {
				ssl_err("pts: --duration=%s: must be 100ms to 7 days", val);
				return -1;
			}
			c->duration_ms = u;
			break;
		case P_ACCESS_TIME:
			if (ssl_parse_time_ms(val, 1000, &u) || u < 50 || u > 600000) {
				ssl_err("pts: --access-time=%s: must be 50ms to 10m", val);
				return -1;
			}
			c->access_ms = u;
			break;
		case P_CYCLES:
			/* a wait state is one run: two steps a cycle */
			if (ssl_uint_opt("pts", opt->name, val, 1, SSDLOAD_MAX_STEPS / 2, &c->cycles))
				return -1;
			break;
		case P_WRITE_LIMIT:
			errno = 0;
			c->write_limit = strtod(val, &end);
			if (end == val || *end || errno || !isfinite(c->write_limit) ||
			    !(c->write_limit > 0) || c->write_limit > 64) {
				ssl_err("pts: --write-limit=%s: must be a factor above 0, at most 64",
					val);
				return -1;
			}
			break;
		case P_MAX_ROUNDS:
			if (ssl_uint_opt("pts", opt->name, val, SSL_SS_WINDOW, 1000, &c->max_rounds))
				return -1;
			break;
		case P_ETA:
			if (ssl_eta_opt("pts", val))
				return -1;
			c->eta = val;
			break;
		}
	}
	return 0;
}

/* ---- running `ssdload run` ---- */

/* The options every run of the test shares. */
static void av_common(const struct pts_ctx *c, struct ssl_argv *a, const char *name)
{
	av_add(a, "ssdload");
	av_add(a, "run");
	av_addf(a, "--name=%s", name);
	av_addf(a, "--filename=%s", c->filename);
	av_add(a, "--allow_write=1");
	/* rounds last their runtime; a pass over the span is not an end */
	av_add(a, "--time_based");
	av_addf(a, "--eta=%s", c->eta);
	av_add(a, "--output-format=json");
	av_add(a, "--group_reporting");
}

/* ---- device facts, health ---- */

static json_object *health_json(const struct ssl_health *h)
{
	json_object *o;

	if (!h->have)
		return NULL;
	o = json_object_new_object();
	jset(o, "temperature_k", json_object_new_int(h->temperature_k));
	jset(o, "data_units_written", json_object_new_int64((int64_t)h->data_units_written));
	jset(o, "data_units_read", json_object_new_int64((int64_t)h->data_units_read));
	jset(o, "host_write_commands", json_object_new_int64((int64_t)h->host_write_commands));
	jset(o, "host_read_commands", json_object_new_int64((int64_t)h->host_read_commands));
	jset(o, "percentage_used", json_object_new_int((int)h->percentage_used));
	jset(o, "critical_warning", json_object_new_int((int)h->critical_warning));
	jset(o, "media_errors", json_object_new_int64((int64_t)h->media_errors));
	jset(o, "power_on_hours", json_object_new_int64((int64_t)h->power_on_hours));
	jset(o, "available_spare", json_object_new_int((int)h->available_spare));
	return o;
}

static json_object *health_now(const struct pts_ctx *c)
{
	struct ssl_health h;

	memset(&h, 0, sizeof(h));
	ssl_dev_health(&c->dev, &h);
	return health_json(&h);
}

static json_object *device_json(const struct pts_ctx *c)
{
	const struct ssl_dev *d = &c->dev;
	json_object *o = json_object_new_object(), *l, *wc;
	char num[32];

	jset(o, "path", json_object_new_string(c->filename));
	jset(o, "name", jstr_or_null(d->name));
	snprintf(num, sizeof(num), "%u:%u", d->dev_major, d->dev_minor);
	jset(o, "dev", json_object_new_string(num));
	jset(o, "nsid", d->nsid ? json_object_new_int64(d->nsid) : NULL);
	jset(o, "kind", json_object_new_string(d->is_nvme ? "nvme" : "block"));
	jset(o, "model", jstr_or_null(d->model));
	jset(o, "serial", jstr_or_null(d->serial));
	jset(o, "firmware", jstr_or_null(d->firmware));
	jset(o, "capacity_bytes", json_object_new_int64((int64_t)d->capacity_bytes));
	jset(o, "logical_block_size", json_object_new_int((int)d->logical_block_size));
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

static void deviation(struct pts_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void deviation(struct pts_ctx *c, const char *fmt, ...)
{
	json_object *a = jget(c->doc, "deviations");
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_array_add(a, json_object_new_string(buf));
	jset(c->doc, "conformant", json_object_new_boolean(false));
}

static void bs_label(char *buf, size_t len, unsigned int bs)
{
	if (bs % 1024)
		snprintf(buf, len, "%.1fK", bs / 1024.0);
	else
		snprintf(buf, len, "%uK", bs / 1024);
}

static json_object *juints(const unsigned int *v, unsigned int n)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int((int)v[i]));
	return a;
}

static json_object *settings_json(const struct pts_ctx *c)
{
	const struct pts_def *t = c->def;
	json_object *o = json_object_new_object(), *a, *tr;
	char lab[96];
	unsigned int i;

	jset(o, "threads", json_object_new_int((int)c->threads));
	jset(o, "iodepth", json_object_new_int((int)c->iodepth));
	jset(o, "offset_bytes", json_object_new_int64(0));
	jset(o, "active_range_bytes", json_object_new_int64((int64_t)c->active_bytes));
	jset(o, "active_range_pct",
	     json_object_new_double(100.0 * c->active_bytes / c->dev.capacity_bytes));
	jset(o, "point_ms", json_object_new_int64((int64_t)c->point_ms));
	jset(o, "spec_point_ms", json_object_new_int64(PTS_SPEC_POINT_MS));
	jset(o, "max_rounds", json_object_new_int((int)c->max_rounds));
	jset(o, "window", json_object_new_int(SSL_SS_WINDOW));
	jset(o, "range_limit_pct", json_object_new_double(SSL_SS_RANGE_PCT));
	jset(o, "slope_limit_pct", json_object_new_double(SSL_SS_SLOPE_PCT));
	jset(o, "blockalign", t->random ? json_object_new_int(4096) : NULL);
	jset(o, "pattern", json_object_new_string(t->random ? "random" : "sequential"));
	jset(o, "wipc_factor", json_object_new_double(c->wipc_factor));
	jset(o, "block_sizes", juints(c->bs, c->nbs));
	jset(o, "rwmixread", juints(t->mix, t->nmix));
	tr = json_object_new_object();
	jset(tr, "label", json_object_new_string(t->track_label));
	jset(tr, "bs", json_object_new_int((int)c->track_bs));
	jset(tr, "rwmixread", json_object_new_int((int)t->track_mix));
	jset(tr, "metric", json_object_new_string(metric_key[t->metric]));
	jset(tr, "unit", json_object_new_string(metric_unit[t->metric]));
	jset(o, "tracking", tr);
	jset(o, "percentile_list", json_object_new_string(PTS_PERCENTILES));
	if (t->kind == PTS_HIR) {
		jset(o, "sample_ms", json_object_new_int64((int64_t)c->point_ms));
		jset(o, "segment_samples", json_object_new_int(PTS_WSAT_SEG_SAMPLES));
		jset(o, "access_ms", json_object_new_int64((int64_t)c->access_ms));
		jset(o, "spec_access_ms", json_object_new_int(PTS_HIR_ACCESS_MS));
		jset(o, "cycles", json_object_new_int((int)c->cycles));
		jset(o, "spec_cycles", json_object_new_int(PTS_HIR_CYCLES));
		a = json_object_new_array();
		for (i = 0; i < ARRAY_SIZE(hir_waits); i++)
			json_object_array_add(a, json_object_new_int64((int64_t)(hir_waits[i] *
									c->access_ms)));
		jset(o, "wait_ms", a);
		jset(o, "baseline_ms", json_object_new_int64((int64_t)(c->cycles * c->access_ms)));
	}
	if (t->kind == PTS_XSR) {
		jset(o, "sample_ms", json_object_new_int64((int64_t)c->point_ms));
		jset(o, "segment_samples", json_object_new_int(PTS_WSAT_SEG_SAMPLES));
		a = json_object_new_array();
		for (i = 0; i < ARRAY_SIZE(xsr_groups); i++) {
			const struct pts_group *g = &xsr_groups[i];
			json_object *x = json_object_new_object();

			jset(x, "group", json_object_new_int((int)i + 1));
			jset(x, "label", json_object_new_string(g->label));
			jset(x, "rw", json_object_new_string(g->random ? "randwrite" : "write"));
			jset(x, "bs", json_object_new_int((int)g->bs));
			jset(x, "duration_ms", json_object_new_int64((int64_t)(c->duration_ms *
									     g->quarters / 4)));
			jset(x, "spec_duration_ms", json_object_new_int64((int64_t)(
				PTS_XSR_SEQ_MS * g->quarters / 4)));
			json_object_array_add(a, x);
		}
		jset(o, "groups", a);
	}
	if (t->kind == PTS_DEMAND) {
		jset(o, "sample_ms", json_object_new_int64((int64_t)c->point_ms));
		jset(o, "segment_samples", json_object_new_int(PTS_WSAT_SEG_SAMPLES));
		jset(o, "tc_list", juints(c->tcs, c->ntc));
		jset(o, "qd_list", juints(c->qds, c->nqd));
		jset(o, "rwmixread", juints(&c->mix, 1));
		jset(o, "bssplit", t->bssplit ? json_object_new_string(t->bssplit) : NULL);
		jset(o, "random_distribution", json_object_new_string(t->zones ? t->zones :
								       "random"));
		jset(o, "prewrite_points", json_object_new_int(PTS_DEMAND_PREWRITE));
		jset(o, "op_prewrite_points", json_object_new_int(PTS_OP_PREWRITE));
		jset(o, "op_measure_points", json_object_new_int(PTS_OP_MEASURE));
		jset(o, "art_limit_ns", json_object_new_int(PTS_ART_LIMIT_NS));
		if (t->bssplit) {
			snprintf(lab, sizeof(lab), "ECW %u/%u IOPS at T%uQ%u", c->mix, 100 - c->mix,
				 c->tcs[0], c->qds[0]);
		} else {
			char b[16];

			bs_label(b, sizeof(b), c->bs[0]);
			snprintf(lab, sizeof(lab), "RND %s %u/%u IOPS at T%uQ%u", b, c->mix,
				 100 - c->mix, c->tcs[0], c->qds[0]);
		}
		jset(tr, "label", json_object_new_string(lab));
		jset(tr, "tc", json_object_new_int((int)c->tcs[0]));
		jset(tr, "qd", json_object_new_int((int)c->qds[0]));
		jset(tr, "rwmixread", json_object_new_int((int)c->mix));
	}
	if (t->kind == PTS_WSAT) {
		jset(o, "sample_ms", json_object_new_int64((int64_t)c->point_ms));
		jset(o, "segment_samples", json_object_new_int(PTS_WSAT_SEG_SAMPLES));
		jset(o, "duration_ms", json_object_new_int64((int64_t)c->duration_ms));
		jset(o, "spec_duration_ms", json_object_new_int64(PTS_WSAT_DURATION_MS));
		jset(o, "write_limit_factor", json_object_new_double(c->write_limit));
		jset(o, "spec_write_limit_factor", json_object_new_int(PTS_WSAT_WRITE_LIMIT));
		jset(o, "max_written_bytes",
		     json_object_new_int64((int64_t)(c->write_limit * c->active_bytes)));
	}
	return o;
}

/* ---- one point of a round, from a step of the run's JSON ---- */

/* DIR object of a point from the run's read/write object */
static json_object *point_dir(json_object *x, uint64_t *ios, double *lat_sum, uint64_t *lat_max)
{
	json_object *o = json_object_new_object(), *clat = jget(x, "clat_ns"), *p;
	double n = jnum(x, "total_ios", 0), mean = jnum(clat, "mean", NAN);

	jset(o, "ios", json_object_new_int64((int64_t)n));
	jset(o, "bytes", json_object_new_int64((int64_t)jnum(x, "io_bytes", 0)));
	jset(o, "iops", json_object_new_double(jnum(x, "iops", 0)));
	jset(o, "bw_bytes", json_object_new_double(jnum(x, "bw_bytes", 0)));
	if (n > 0) {
		jset(o, "lat_min_ns", json_object_new_int64((int64_t)jnum(clat, "min", 0)));
		jset(o, "lat_mean_ns", jdouble_or_null(mean));
		jset(o, "lat_max_ns", json_object_new_int64((int64_t)jnum(clat, "max", 0)));
		p = jget(clat, "percentile");
		jset(o, "percentiles", p ? json_object_get(p) : NULL);
		*ios += (uint64_t)n;
		*lat_sum += mean * n;
		if ((uint64_t)jnum(clat, "max", 0) > *lat_max)
			*lat_max = (uint64_t)jnum(clat, "max", 0);
	} else {
		jset(o, "lat_min_ns", NULL);
		jset(o, "lat_mean_ns", NULL);
		jset(o, "lat_max_ns", NULL);
		jset(o, "percentiles", NULL);
	}
	return o;
}

static json_object *point_json(const struct pts_ctx *c, json_object *step, unsigned int bs,
			       unsigned int mix)
{
	json_object *o = json_object_new_object(), *rd, *wr;
	double lat_sum = 0;
	uint64_t ios = 0, lat_max = 0;

	jset(o, "bs", json_object_new_int((int)bs));
	jset(o, "rwmixread", json_object_new_int((int)mix));
	jset(o, "pattern", json_object_new_string(c->def->random ? "random" : "sequential"));
	jset(o, "runtime_ms", json_object_new_double(jnum(step, "runtime_ns", 0) / 1e6));
	rd = point_dir(jget(step, "read"), &ios, &lat_sum, &lat_max);
	wr = point_dir(jget(step, "write"), &ios, &lat_sum, &lat_max);
	jset(o, "iops", json_object_new_double(jnum(rd, "iops", 0) + jnum(wr, "iops", 0)));
	jset(o, "bw_bytes", json_object_new_double(jnum(rd, "bw_bytes", 0) +
						    jnum(wr, "bw_bytes", 0)));
	jset(o, "lat_mean_ns", ios ? jdouble_or_null(lat_sum / ios) : NULL);
	jset(o, "lat_max_ns", ios ? json_object_new_int64((int64_t)lat_max) : NULL);
	jset(o, "read", rd);
	jset(o, "write", wr);
	return o;
}

/* The tracking variable of a round's points; NaN if missing. */
static double round_tracking(const struct pts_ctx *c, json_object *points)
{
	size_t i, n = json_object_array_length(points);

	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(points, i);

		if ((unsigned int)jnum(p, "bs", 0) != c->track_bs ||
		    (unsigned int)jnum(p, "rwmixread", -1) != c->def->track_mix)
			continue;
		if (c->def->metric == PTS_LAT_MEAN)
			return jnum(jget(p, "write"), "lat_mean_ns", NAN);
		return jnum(p, metric_key[c->def->metric], NAN);
	}
	return NAN;
}

/* ---- phases ---- */

static const char *job_prefix = "pts";

static void job_name(char *buf, size_t len, const struct pts_ctx *c, const char *what)
{
	snprintf(buf, len, "%s-%s-%d-%s", job_prefix, c->def->name, (int)getpid(), what);
}

/*
 * --keep-last-job: the job of the run just made stays, the one kept before
 * it goes (every run of these tests has a job of its own).
 */
static void keep_rotate(struct pts_ctx *c, const char *name)
{
	if (!c->keep_last_job)
		return;
	if (*c->kept && strcmp(c->kept, name))
		cfs_job_remove(c->kept);
	snprintf(c->kept, sizeof(c->kept), "%s", name);
}

/* A finished phase object in the doc, or NULL. */
static json_object *phase_done(const struct pts_ctx *c, const char *key)
{
	json_object *p = jget(c->doc, key);

	return p && jget(p, "duration_ms") ? p : NULL;
}

static int spawn_status(int st, const char *what)
{
	if (st == 0)
		return 0;
	if (ssl_run_sig || st > 128)
		return st > 128 ? st : SSL_EXIT_SIGNAL(ssl_run_sig);
	ssl_err("pts: %s failed (ssdload run exited %d)", what, st);
	return PTS_EXIT_FAILED;
}

/* One sequential write pass (or @loops) of 128KiB over @bytes from 0. */
static int seq_fill(struct pts_ctx *c, const char *what, unsigned int bs, uint64_t bytes,
		    unsigned int loops, const char *out, json_object *rec)
{
	struct ssl_argv a = { 0 };
	char name[128];
	uint64_t t0 = ssl_now_ms();
	json_object *run, *job;
	int st;

	job_name(name, sizeof(name), c, what);
	av_common(c, &a, name);
	av_add(&a, "--rw=write");
	av_addf(&a, "--bs=%u", bs);
	av_addf(&a, "--iodepth=%u", PTS_WIPC_QD);
	av_addf(&a, "--size=%llu", (unsigned long long)bytes);
	if (loops > 1)
		av_addf(&a, "--loops=%u", loops);
	st = ssl_run_spawn(&a, out);
	av_free(&a);
	st = spawn_status(st, what);
	if (st)
		return st;
	run = ssl_read_run(out);
	if (!run)
		return PTS_EXIT_FAILED;
	job = run_job0(run);
	jset(rec, "bytes", json_object_new_int64((int64_t)jnum(jget(job, "write"),
								 "io_bytes", 0)));
	jset(rec, "bs", json_object_new_int((int)bs));
	jset(rec, "iodepth", json_object_new_int(PTS_WIPC_QD));
	jset(rec, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	json_object_put(run);
	return 0;
}

/*
 * Purge through the exclusive @fd; it is closed (*fd = -1) before the
 * engine opens the device itself (an overwrite).
 */
static int do_purge(struct pts_ctx *c, int *fd)
{
	json_object *p;
	enum ssl_purge used = SSL_PURGE_NONE;
	char detail[256] = "", out[PATH_MAX];
	uint64_t t0 = ssl_now_ms();
	int st;

	if (phase_done(c, "purge"))
		return 0;
	fprintf(stderr, "pts: purge (%s) of %s\n", ssl_purge_name(c->purge), c->filename);
	if (ssl_dev_purge(&c->dev, *fd, c->purge, &used, detail, sizeof(detail)))
		return PTS_EXIT_FAILED;
	ioctl(*fd, BLKFLSBUF, 0);	/* no stale cached pages of the old data */
	p = json_object_new_object();
	if (used == SSL_PURGE_OVERWRITE) {
		/* no erase command: one full write pass with the engine */
		if (pts_path(c, out, sizeof(out), "rounds/purge-overwrite.json"))
			return PTS_EXIT_FAILED;
		close(*fd);
		*fd = -1;
		st = seq_fill(c, "purge", PTS_WIPC_BS, c->dev.capacity_bytes, 1, out, p);
		if (st) {
			json_object_put(p);
			return st;
		}
		snprintf(detail, sizeof(detail), "one sequential 128KiB write pass over %llu bytes",
			 (unsigned long long)c->dev.capacity_bytes);
	}
	jset(p, "method", json_object_new_string(ssl_purge_name(used)));
	jset(p, "detail", json_object_new_string(detail));
	jset(p, "conformant", json_object_new_boolean(used != SSL_PURGE_NONE));
	jset(p, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	jset(c->doc, "purge", p);
	if (used == SSL_PURGE_NONE)
		deviation(c, "purge: none (--purge=none): the device was not purged");
	return pts_save(c) ? PTS_EXIT_FAILED : 0;
}

static int do_write_cache(struct pts_ctx *c)
{
	json_object *wc = jget(jget(c->doc, "device"), "write_cache");

	if (c->wc != PTS_WC_LEAVE && c->dev.vwc_present == 1 &&
	    c->dev.wc != (c->wc == PTS_WC_ON ? SSL_WC_ENABLED : SSL_WC_DISABLED)) {
		if (ssl_dev_set_write_cache(&c->dev, c->wc == PTS_WC_ON))
			return PTS_EXIT_FAILED;
	}
	jset(wc, "during", json_object_new_string(ssl_wc_name(c->dev.wc)));
	if (c->dev.wc == SSL_WC_ENABLED)
		deviation(c, "write cache: enabled during the test (Enterprise: disabled)");
	else if (c->dev.wc == SSL_WC_UNKNOWN)
		deviation(c, "write cache: state unknown (Enterprise: disabled)");
	return 0;
}

static int do_wipc(struct pts_ctx *c)
{
	json_object *w;
	char out[PATH_MAX], sz[32];
	uint64_t bytes = c->active_bytes;
	/* throughput: each block size is its own test, preconditioned with it */
	unsigned int bs = c->def->random ? PTS_WIPC_BS : c->bs[0];
	int st;

	if (phase_done(c, "wipc"))
		return 0;
	if (c->wipc_factor == 0) {
		jset(c->doc, "wipc", NULL);
		return 0;
	}
	ssl_size_str(sz, sizeof(sz), (uint64_t)(c->wipc_factor * bytes));
	fprintf(stderr, "pts: WIPC: %s of SEQ %uKiB writes (%g x the active range)\n", sz,
		bs / 1024, c->wipc_factor);
	if (pts_path(c, out, sizeof(out), "rounds/wipc.json"))
		return PTS_EXIT_FAILED;
	w = json_object_new_object();
	/* whole passes: --loops; a fraction of a pass is a shorter span */
	if (c->wipc_factor == floor(c->wipc_factor))
		st = seq_fill(c, "wipc", bs, bytes, (unsigned int)c->wipc_factor, out, w);
	else
		st = seq_fill(c, "wipc", bs, (uint64_t)(c->wipc_factor * bytes / bs) * bs, 1,
			      out, w);
	if (st) {
		json_object_put(w);
		return st;
	}
	jset(w, "factor", json_object_new_double(c->wipc_factor));
	jset(c->doc, "wipc", w);
	return pts_save(c) ? PTS_EXIT_FAILED : 0;
}

static unsigned int rounds_done(const struct pts_ctx *c)
{
	return json_object_array_length(jget(c->doc, "rounds"));
}

/* Run round @r; appends it to the doc.  0 or an exit status. */
static int do_round(struct pts_ctx *c, unsigned int r)
{
	const struct pts_def *t = c->def;
	struct ssl_argv a = { 0 };
	json_object *run, *job, *steps, *rd, *points, *hb;
	char name[128], rel[64], out[PATH_MAX], eta[32], eta_min[32];
	uint64_t t0 = ssl_now_ms(), left;
	unsigned int m, b, k = 0;
	char started[32];
	double tr;
	int st;

	/* the test ends at round 5 at the earliest, at max_rounds at the latest */
	left = (uint64_t)c->points * c->point_ms / 1000;
	ssl_eta_str(eta, sizeof(eta), left * (c->max_rounds - r + 1));
	ssl_eta_str(eta_min, sizeof(eta_min), left * (r <= SSL_SS_WINDOW ? SSL_SS_WINDOW - r + 1 : 1));
	fprintf(stderr, "pts %s: round %u of at most %u: %u points of %llu ms "
		"(%s to %s left)\n", t->name, r, c->max_rounds, c->points,
		(unsigned long long)c->point_ms, eta_min, eta);
	snprintf(rel, sizeof(rel), "rounds/round-%03u.json", r);
	if (pts_path(c, out, sizeof(out), rel))
		return PTS_EXIT_FAILED;
	snprintf(rel, sizeof(rel), "r%u", r);
	job_name(name, sizeof(name), c, rel);
	snprintf(rel, sizeof(rel), "rounds/round-%03u.json", r);
	av_common(c, &a, name);
	av_add(&a, t->random ? "--rw=randrw" : "--rw=rw");
	if (t->random)
		av_add(&a, "--blockalign=4096");
	av_addf(&a, "--numjobs=%u", c->threads);
	av_addf(&a, "--iodepth=%u", c->iodepth);
	av_addf(&a, "--size=%llu", (unsigned long long)c->active_bytes);
	av_addf(&a, "--randseed=%u", 0x5d5 + r);
	av_add(&a, "--percentile_list=" PTS_PERCENTILES);
	if (c->keep_last_job)
		av_add(&a, "--keep-job");
	for (m = 0; m < t->nmix; m++)
		for (b = 0; b < c->nbs; b++)
			av_addf(&a, "--step=rwmixread=%u,bs=%u,runtime=%llums", t->mix[m],
				c->bs[b], (unsigned long long)c->point_ms);
	hb = health_now(c);
	now_iso(started, sizeof(started));
	st = ssl_run_spawn(&a, out);
	av_free(&a);
	st = spawn_status(st, "the round");
	if (st) {
		json_object_put(hb);
		return st;
	}
	run = ssl_read_run(out);
	if (!run) {
		json_object_put(hb);
		return PTS_EXIT_FAILED;
	}
	job = run_job0(run);
	steps = jget(job, "steps");
	if (!steps || !json_object_is_type(steps, json_type_array) ||
	    json_object_array_length(steps) != c->points) {
		ssl_err("pts: %s: %u steps expected", out, c->points);
		json_object_put(run);
		json_object_put(hb);
		return PTS_EXIT_FAILED;
	}
	points = json_object_new_array();
	for (m = 0; m < t->nmix; m++)
		for (b = 0; b < c->nbs; b++)
			json_object_array_add(points, point_json(c,
						json_object_array_get_idx(steps, k++),
						c->bs[b], t->mix[m]));
	json_object_put(run);
	rd = json_object_new_object();
	jset(rd, "round", json_object_new_int((int)r));
	jset(rd, "started", json_object_new_string(started));
	jset(rd, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	tr = round_tracking(c, points);
	jset(rd, "tracking", jdouble_or_null(tr));
	jset(rd, "health_before", hb);
	jset(rd, "health_after", health_now(c));
	jset(rd, "run_file", json_object_new_string(rel));
	jset(rd, "points", points);
	json_object_array_add(jget(c->doc, "rounds"), rd);
	keep_rotate(c, name);
	fprintf(stderr, "pts %s: round %u: %s = %.6g %s\n", t->name, r, t->track_label, tr,
		metric_unit[t->metric]);
	return 0;
}

static json_object *window_json(const struct ssl_ss_window *w, const double *y,
				bool reached, unsigned int rounds_run, unsigned int max_rounds)
{
	json_object *o = json_object_new_object(), *win, *vals;
	unsigned int r;

	jset(o, "reached", json_object_new_boolean(reached));
	jset(o, "round", reached ? json_object_new_int((int)w->last) : NULL);
	win = json_object_new_array();
	json_object_array_add(win, json_object_new_int((int)w->first));
	json_object_array_add(win, json_object_new_int((int)w->last));
	jset(o, "window", win);
	vals = json_object_new_array();
	for (r = w->first; r <= w->last; r++)
		json_object_array_add(vals, json_object_new_double(y[r - 1]));
	jset(o, "values", vals);
	jset(o, "average", jdouble_or_null((double)w->avg));
	jset(o, "min", jdouble_or_null((double)w->min));
	jset(o, "max", jdouble_or_null((double)w->max));
	jset(o, "range", jdouble_or_null((double)w->range));
	jset(o, "range_pct", jdouble_or_null((double)w->range_pct));
	jset(o, "range_pass", json_object_new_boolean(w->range_ok));
	jset(o, "slope", jdouble_or_null((double)w->slope));
	jset(o, "intercept", jdouble_or_null((double)w->intercept));
	jset(o, "slope_excursion", jdouble_or_null((double)w->slope_exc));
	jset(o, "slope_excursion_pct", jdouble_or_null((double)w->slope_exc_pct));
	jset(o, "slope_pass", json_object_new_boolean(w->slope_ok));
	jset(o, "range_limit_pct", json_object_new_double(SSL_SS_RANGE_PCT));
	jset(o, "slope_limit_pct", json_object_new_double(SSL_SS_SLOPE_PCT));
	jset(o, "rounds_run", json_object_new_int((int)rounds_run));
	jset(o, "max_rounds", json_object_new_int((int)max_rounds));
	return o;
}

/*
 * The steady-state check after the rounds so far: updates steady_state in
 * the doc.  Returns 1 when the test ends (steady, or the round limit).
 */
static int check_steady_in(struct pts_ctx *c, const char *arr, const char *key,
			   const char *dest)
{
	json_object *rounds = jget(c->doc, arr);
	unsigned int n = json_object_array_length(rounds), i, steady;
	struct ssl_ss_limits l;
	struct ssl_ss_window w;
	double y[1000];

	if (n < SSL_SS_WINDOW)
		return 0;
	for (i = 0; i < n && i < ARRAY_SIZE(y); i++) {
		y[i] = jnum(json_object_array_get_idx(rounds, i), key, NAN);
		if (!isfinite(y[i]))
			y[i] = 0;
	}
	ssl_ss_limits_default(&l);
	l.max_rounds = c->max_rounds;
	steady = ssl_ss_scan(y, n, &l, &w, NULL, NULL);
	jset(c->doc, dest, window_json(&w, y, steady != 0, n, c->max_rounds));
	return steady || n >= c->max_rounds;
}

static int check_steady(struct pts_ctx *c)
{
	return check_steady_in(c, "rounds", "tracking", "steady_state");
}

/* The measurement window: each point averaged over the window's rounds. */
static void do_results(struct pts_ctx *c)
{
	json_object *ss = jget(c->doc, "steady_state"), *rounds = jget(c->doc, "rounds");
	json_object *res, *pts, *win = jget(ss, "window");
	unsigned int first, last, r, k, d, nwin;
	static const char *const dirs[] = { "read", "write" };
	static const char *const avg_keys[] = { "iops", "bw_bytes", "lat_mean_ns" };

	if (!ss || !win)
		return;
	first = json_object_get_int(json_object_array_get_idx(win, 0));
	last = json_object_get_int(json_object_array_get_idx(win, 1));
	res = json_object_new_object();
	jset(res, "window", json_object_get(win));
	pts = json_object_new_array();
	for (k = 0; k < c->points; k++) {
		json_object *p0, *pt = json_object_new_object();
		double sum[2][3] = { { 0 } }, tot[3] = { 0 };
		double lmax[2] = { -1, -1 }, tmax = -1;
		unsigned int nlat[2] = { 0 }, ntlat = 0, i;

		p0 = json_object_array_get_idx(jget(json_object_array_get_idx(rounds, first - 1),
						    "points"), k);
		jset(pt, "bs", json_object_get(jget(p0, "bs")));
		jset(pt, "rwmixread", json_object_get(jget(p0, "rwmixread")));
		jset(pt, "pattern", json_object_get(jget(p0, "pattern")));
		if (jget(p0, "tc")) {
			jset(pt, "tc", json_object_get(jget(p0, "tc")));
			jset(pt, "qd", json_object_get(jget(p0, "qd")));
			jset(pt, "toio", json_object_get(jget(p0, "toio")));
		}
		if (jget(p0, "bssplit"))
			jset(pt, "bssplit", json_object_get(jget(p0, "bssplit")));
		for (r = first; r <= last; r++) {
			json_object *p = json_object_array_get_idx(jget(json_object_array_get_idx(
						rounds, r - 1), "points"), k);
			double v;

			for (i = 0; i < 2; i++)
				tot[i] += jnum(p, avg_keys[i], 0);
			v = jnum(p, "lat_mean_ns", NAN);
			if (isfinite(v)) {
				tot[2] += v;
				ntlat++;
			}
			tmax = fmax(tmax, jnum(p, "lat_max_ns", -1));
			for (d = 0; d < 2; d++) {
				json_object *x = jget(p, dirs[d]);

				sum[d][0] += jnum(x, "iops", 0);
				sum[d][1] += jnum(x, "bw_bytes", 0);
				v = jnum(x, "lat_mean_ns", NAN);
				if (isfinite(v)) {
					sum[d][2] += v;
					nlat[d]++;
				}
				lmax[d] = fmax(lmax[d], jnum(x, "lat_max_ns", -1));
			}
		}
		nwin = last - first + 1;
		jset(pt, "iops", json_object_new_double(tot[0] / nwin));
		jset(pt, "bw_bytes", json_object_new_double(tot[1] / nwin));
		jset(pt, "lat_mean_ns", ntlat ? json_object_new_double(tot[2] / ntlat) : NULL);
		jset(pt, "lat_max_ns", tmax >= 0 ? json_object_new_int64((int64_t)tmax) : NULL);
		for (d = 0; d < 2; d++) {
			json_object *x = json_object_new_object(), *pc = NULL;

			jset(x, "iops", json_object_new_double(sum[d][0] / nwin));
			jset(x, "bw_bytes", json_object_new_double(sum[d][1] / nwin));
			jset(x, "lat_mean_ns", nlat[d] ?
			     json_object_new_double(sum[d][2] / nlat[d]) : NULL);
			jset(x, "lat_max_ns", lmax[d] >= 0 ?
			     json_object_new_int64((int64_t)lmax[d]) : NULL);
			/* percentiles: the highest of the window's rounds */
			for (r = first; r <= last; r++) {
				json_object *p = jget(jget(json_object_array_get_idx(jget(
					json_object_array_get_idx(rounds, r - 1), "points"), k),
					dirs[d]), "percentiles");

				if (!p)
					continue;
				if (!pc)
					pc = json_object_new_object();
				json_object_object_foreach(p, key, val) {
					json_object *cur = jget(pc, key);

					if (!cur || json_object_get_int64(val) >
						    json_object_get_int64(cur))
						jset(pc, key, json_object_new_int64(
							json_object_get_int64(val)));
				}
			}
			jset(x, "percentiles", pc);
			jset(pt, dirs[d], x);
		}
		json_object_array_add(pts, pt);
	}
	jset(res, "points", pts);
	jset(c->doc, "results", res);
}

/* ---- wsat: one continuous stimulus, sampled ---- */

/* Where the segments so far left off: stimulus time and bytes written. */
static void wsat_pos(const struct pts_ctx *c, double *t_ms, uint64_t *written)
{
	json_object *segs = jget(c->doc, "segments");
	size_t n = json_object_array_length(segs);
	json_object *last = n ? json_object_array_get_idx(segs, n - 1) : NULL;

	*t_ms = last ? jnum(last, "t_end_ms", 0) : 0;
	*written = last ? (uint64_t)jnum(last, "written_end_bytes", 0) : 0;
}

/* The write @key of intervals [i, j) of @ivs, per second of their span. */
static double intervals_rate(json_object *ivs, size_t i, size_t j, const char *key)
{
	double v = 0, span;
	size_t k;

	for (k = i; k < j; k++)
		v += jnum(jget(json_object_array_get_idx(ivs, k), "write"), key, 0);
	span = jnum(json_object_array_get_idx(ivs, j - 1), "t_end_ms", 0) -
	       jnum(json_object_array_get_idx(ivs, i), "t_start_ms", 0);
	return span > 0 ? v * 1000 / span : 0;
}

/*
 * The rate of intervals [i, j) of a run's time series @ts (@key "ios" or
 * "bytes") as the sum of each worker's own (its I/Os over its own span):
 * the workers' intervals start and end up to a wake-up apart, and the
 * merged span (first start to last end) would understate the rate by
 * that.  The merged intervals' rate if a worker's records do not line up.
 */
static double run_rate(json_object *ts, size_t i, size_t j, const char *key)
{
	json_object *pw = jget(ts, "per_worker"), *ivs = jget(ts, "intervals");
	size_t w, n = json_object_array_length(ivs);
	size_t nw = pw ? json_object_array_length(pw) : 0;
	double rate = 0;

	for (w = 0; w < nw; w++) {
		json_object *wi = jget(json_object_array_get_idx(pw, w), "intervals");

		if (!wi || json_object_array_length(wi) != n)
			break;
		rate += intervals_rate(wi, i, j, key);
	}
	return nw && w == nw ? rate : intervals_rate(ivs, i, j, key);
}

/* One sample of the series: the merge of intervals [i, j) of a run. */
static json_object *wsat_sample(json_object *ts, size_t i, size_t j, double t0,
				uint64_t written, int number, json_object *seg)
{
	json_object *smp = json_object_new_object(), *ivs = jget(ts, "intervals");
	double ios = 0, lat_sum = 0, lat_max = 0, t_start, t_end;
	size_t k;

	t_start = jnum(json_object_array_get_idx(ivs, i), "t_start_ms", 0);
	t_end = jnum(json_object_array_get_idx(ivs, j - 1), "t_end_ms", 0);
	for (k = i; k < j; k++) {
		json_object *wr = jget(json_object_array_get_idx(ivs, k), "write");
		double n = jnum(wr, "ios", 0);

		ios += n;
		if (n > 0) {
			lat_sum += n * jnum(wr, "lat_mean_ns", 0);
			lat_max = fmax(lat_max, jnum(wr, "lat_max_ns", 0));
		}
	}
	jset(smp, "sample", json_object_new_int(number));
	jset(smp, "segment", json_object_get(jget(seg, "segment")));
	if (jget(seg, "group"))
		jset(smp, "group", json_object_get(jget(seg, "group")));
	jset(smp, "t_start_ms", json_object_new_double(t0 + t_start));
	jset(smp, "t_ms", json_object_new_double(t0 + t_end));
	jset(smp, "ios", json_object_new_int64((int64_t)ios));
	jset(smp, "iops", json_object_new_double(run_rate(ts, i, j, "ios")));
	jset(smp, "bw_bytes", json_object_new_double(run_rate(ts, i, j, "bytes")));
	jset(smp, "lat_mean_ns", ios > 0 ? json_object_new_double(lat_sum / ios) : NULL);
	jset(smp, "lat_max_ns", ios > 0 ? json_object_new_int64((int64_t)lat_max) : NULL);
	jset(smp, "written_bytes", json_object_new_int64((int64_t)written));
	return smp;
}

/*
 * The intervals of a segment's run as samples of the doc's series.  The
 * run's last interval holds the completions after its deadline (the I/Os
 * in flight, at most ms): shorter than half a sample, it joins the sample
 * before it rather than stand as a sample of its own.
 */
static int wsat_samples(struct pts_ctx *c, json_object *job, json_object *seg, double t0,
			uint64_t w0)
{
	json_object *ts = jget(job, "time_series"), *ivs = jget(ts, "intervals");
	json_object *series = jget(c->doc, "series");
	uint64_t written = w0, ios = 0;
	double t_end = 0;
	size_t i, j, k, n, nsmp = 0;

	if (!ivs || !json_object_is_type(ivs, json_type_array) ||
	    !json_object_array_length(ivs)) {
		ssl_err("pts wsat: the run's JSON has no time series");
		return -1;
	}
	n = json_object_array_length(ivs);
	for (i = 0; i < n; i = j) {
		json_object *last = json_object_array_get_idx(ivs, n - 1);

		j = i + 1;
		if (j == n - 1 && jnum(last, "t_end_ms", 0) - jnum(last, "t_start_ms", 0) <
				  c->point_ms / 2.0)
			j = n;
		for (k = i; k < j; k++) {
			json_object *wr = jget(json_object_array_get_idx(ivs, k), "write");

			written += (uint64_t)jnum(wr, "bytes", 0);
			ios += (uint64_t)jnum(wr, "ios", 0);
		}
		t_end = jnum(json_object_array_get_idx(ivs, j - 1), "t_end_ms", 0);
		json_object_array_add(series, wsat_sample(ts, i, j, t0, written,
					(int)json_object_array_length(series) + 1, seg));
		nsmp++;
	}
	jset(seg, "samples", json_object_new_int((int)nsmp));
	jset(seg, "t_end_ms", json_object_new_double(t0 + t_end));
	jset(seg, "ios", json_object_new_int64((int64_t)ios));
	jset(seg, "iops", json_object_new_double(t_end > 0 ? ios * 1000.0 / t_end : 0));
	jset(seg, "written_end_bytes", json_object_new_int64((int64_t)written));
	return 0;
}

/*
 * One segment: RND 4KiB writes for up to PTS_WSAT_SEG_SAMPLES samples,
 * ending early at the write limit (--number_ios) or the time limit.
 */
/*
 * The writes of a segment: random (aligned to 4KiB) or sequential, of
 * @bs; the options of their `ssdload run`.
 */
/* ECW's access pattern: its block sizes and zones (DIRTH: nothing to add) */
static void av_stimulus(const struct pts_ctx *c, struct ssl_argv *a)
{
	if (c->def->bssplit)
		av_addf(a, "--bssplit=%s", c->def->bssplit);
	if (c->def->zones)
		av_addf(a, "--random_distribution=%s", c->def->zones);
}

static void av_writes(const struct pts_ctx *c, struct ssl_argv *a, const char *name,
		      unsigned int seed, bool random, unsigned int bs)
{
	av_common(c, a, name);
	av_add(a, random ? "--rw=randwrite" : "--rw=write");
	av_addf(a, "--bs=%u", bs);
	if (random)
		av_add(a, "--blockalign=4096");
	av_addf(a, "--numjobs=%u", c->threads);
	av_addf(a, "--iodepth=%u", c->iodepth);
	av_addf(a, "--size=%llu", (unsigned long long)c->active_bytes);
	av_addf(a, "--randseed=%u", 0x5d5 + seed);
	if (c->keep_last_job)
		av_add(a, "--keep-job");
}

/* The random 4KiB writes of WSAT, and of HIR's preconditioning and baselines. */
static void av_rnd_writes(const struct pts_ctx *c, struct ssl_argv *a, const char *name,
			  unsigned int seed)
{
	av_writes(c, a, name, seed, true, c->bs[0]);
	av_stimulus(c, a);
}

/*
 * One segment of samples, at most @ms long and (@ios > 0) ending at @ios
 * I/Os, of group @g's writes (NULL: the test's RND 4KiB): appended to the
 * doc's segments and its samples to the series.
 */
static int wsat_segment(struct pts_ctx *c, unsigned int k, double t0, uint64_t w0,
			uint64_t ms, uint64_t ios, const struct pts_group *g)
{
	struct ssl_argv a = { 0 };
	json_object *run, *job, *seg;
	char name[128], rel[64], out[PATH_MAX], started[32];
	uint64_t t = ssl_now_ms();
	int st;

	snprintf(rel, sizeof(rel), "s%u", k);
	job_name(name, sizeof(name), c, rel);
	snprintf(rel, sizeof(rel), "rounds/%s-%03u.json", c->def->kind == PTS_HIR ||
		 c->def->kind == PTS_DEMAND ? "precondition" : c->def->name, k);
	if (pts_path(c, out, sizeof(out), rel))
		return PTS_EXIT_FAILED;
	if (g)
		av_writes(c, &a, name, k, g->random, g->bs);
	else
		av_rnd_writes(c, &a, name, k);
	av_addf(&a, "--runtime=%llums", (unsigned long long)ms);
	if (ios)
		av_addf(&a, "--number_ios=%llu", (unsigned long long)ios);
	av_addf(&a, "--log_interval_ms=%llu", (unsigned long long)c->point_ms);
	seg = json_object_new_object();
	jset(seg, "segment", json_object_new_int((int)k));
	if (g) {
		jset(seg, "group", json_object_new_int((int)(g - xsr_groups) + 1));
		jset(seg, "rw", json_object_new_string(g->random ? "randwrite" : "write"));
		jset(seg, "bs", json_object_new_int((int)g->bs));
	}
	now_iso(started, sizeof(started));
	jset(seg, "started", json_object_new_string(started));
	jset(seg, "health_before", health_now(c));
	st = ssl_run_spawn(&a, out);
	av_free(&a);
	st = spawn_status(st, "the segment");
	/*
	 * A signal stops the run, which still reports what it did: the device
	 * took those writes, so they stay in the record (a short segment,
	 * "interrupted") rather than vanish from the written total.
	 */
	run = !st ? ssl_read_run(out) :
	      st > 128 ? ssl_json_read(out, SSL_JSON_MAX_BYTES, NULL) : NULL;
	job = run ? run_job0(run) : NULL;
	if (st && (!job || !json_object_array_length(jget(jget(job, "time_series"),
							   "intervals")))) {
		json_object_put(run);
		json_object_put(seg);
		return st;
	}
	if (!run) {
		json_object_put(seg);
		return PTS_EXIT_FAILED;
	}
	jset(seg, "t_start_ms", json_object_new_double(t0));
	jset(seg, "written_start_bytes", json_object_new_int64((int64_t)w0));
	if (wsat_samples(c, job, seg, t0, w0)) {
		json_object_put(run);
		json_object_put(seg);
		return PTS_EXIT_FAILED;
	}
	json_object_put(run);
	if (st)
		jset(seg, "interrupted", json_object_new_boolean(true));
	jset(seg, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t)));
	jset(seg, "health_after", health_now(c));
	jset(seg, "run_file", json_object_new_string(rel));
	json_object_array_add(jget(c->doc, "segments"), seg);
	if (st)
		return st;
	keep_rotate(c, name);
	fprintf(stderr, "pts %s: segment %u: %.6g IOPS\n", c->def->name, k,
		jnum(seg, "iops", 0));
	return 0;
}

/* Segments until the time or the write limit; 0 or an exit status. */
static int do_wsat(struct pts_ctx *c)
{
	uint64_t limit = (uint64_t)(c->write_limit * c->active_bytes), written, ms, left;
	unsigned int k;
	char eta[32];
	double t, rate;
	int st;

	for (;;) {
		wsat_pos(c, &t, &written);
		/* (each run ends up to a few ms late: its I/Os in flight) */
		if (written >= limit || t + c->point_ms / 2.0 >= c->duration_ms)
			return 0;
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		k = json_object_array_length(jget(c->doc, "segments")) + 1;
		left = c->duration_ms - (uint64_t)t;
		ms = (uint64_t)PTS_WSAT_SEG_SAMPLES * c->point_ms;
		if (ms > left)
			ms = left;
		/* the ETA: the nearer of the two limits at the rate so far */
		rate = t > 0 ? written / t : 0;		/* bytes per ms */
		if (rate > 0 && (limit - written) / rate < left)
			left = (uint64_t)((limit - written) / rate);
		ssl_eta_str(eta, sizeof(eta), left / 1000);
		fprintf(stderr, "pts wsat: segment %u: %.3f of %.3f GB written, %.0f of %llu s "
			"(at most %s left)\n", k, written / 1e9, limit / 1e9, t / 1000,
			(unsigned long long)(c->duration_ms / 1000), eta);
		st = wsat_segment(c, k, t, written, ms,
				  (limit - written + c->bs[0] - 1) / c->bs[0], NULL);
		if (st)
			return st;
		if (pts_save(c))
			return PTS_EXIT_FAILED;
	}
}

/*
 * WSAT results: why it stopped, and the spec's steady-state rule applied
 * to the last 5 segments (each segment's mean IOPS): informative, since
 * the test runs to its limits; steady_iops is their average if they pass.
 */
static void wsat_results(struct pts_ctx *c)
{
	json_object *segs = jget(c->doc, "segments"), *res = json_object_new_object();
	uint64_t limit = (uint64_t)(c->write_limit * c->active_bytes), written;
	unsigned int n = json_object_array_length(segs), i;
	struct ssl_ss_limits l;
	struct ssl_ss_window w;
	double *y = calloc(n ? n : 1, sizeof(*y)), t;

	wsat_pos(c, &t, &written);
	jset(res, "stopped_by", json_object_new_string(written >= limit ? "write_limit" :
						       "time_limit"));
	jset(res, "duration_ms", json_object_new_double(t));
	jset(res, "written_bytes", json_object_new_int64((int64_t)written));
	jset(res, "written_factor", json_object_new_double((double)written / c->active_bytes));
	jset(res, "samples", json_object_new_int((int)json_object_array_length(
						 jget(c->doc, "series"))));
	/* a last segment cut short by a limit is no full sample of the rate */
	if (n && jnum(json_object_array_get_idx(segs, n - 1), "samples", 0) <
		 PTS_WSAT_SEG_SAMPLES)
		n--;
	if (y && n >= SSL_SS_WINDOW) {
		for (i = 0; i < n; i++)
			y[i] = jnum(json_object_array_get_idx(segs, i), "iops", 0);
		ssl_ss_limits_default(&l);
		ssl_ss_eval(y + n - SSL_SS_WINDOW, SSL_SS_WINDOW, n - SSL_SS_WINDOW + 1, &l, &w);
		jset(res, "steady_state", window_json(&w, y, ssl_ss_steady(&w), n, n));
		jset(res, "steady_iops", ssl_ss_steady(&w) ? json_object_new_double((double)w.avg) :
			 NULL);
	} else {
		jset(res, "steady_state", NULL);
		jset(res, "steady_iops", NULL);
	}
	free(y);
	jset(c->doc, "results", res);
}

/* ---- hir: WSAT's writes to steady state, then wait states ---- */

/*
 * The samples of a run's series, from @t0 on: every interval of at least
 * @min_ms (half the interval asked for: a return to baseline's access
 * time, a pre-write's point).  The run's final fragment (the completions
 * after its deadline) is left out of the samples, not of the totals.
 */
static json_object *interval_samples(json_object *ts, double t0, double min_ms)
{
	json_object *ivs = jget(ts, "intervals"), *arr = json_object_new_array();
	size_t i, n = ivs ? json_object_array_length(ivs) : 0;

	for (i = 0; i < n; i++) {
		json_object *iv = json_object_array_get_idx(ivs, i), *x;
		double span = jnum(iv, "t_end_ms", 0) - jnum(iv, "t_start_ms", 0);

		if (span < min_ms)
			continue;
		x = json_object_new_object();
		jset(x, "t_start_ms", json_object_new_double(t0 + jnum(iv, "t_start_ms", 0)));
		jset(x, "t_ms", json_object_new_double(t0 + jnum(iv, "t_end_ms", 0)));
		jset(x, "ios", json_object_new_int64((int64_t)jnum(jget(iv, "write"), "ios", 0)));
		jset(x, "iops", json_object_new_double(run_rate(ts, i, i + 1, "ios")));
		json_object_array_add(arr, x);
	}
	return arr;
}

/*
 * The samples of a wait state: one per access segment, each a step of the
 * run (its I/Os over its own measured time), on a time line that adds up
 * the steps' times and gaps.  *@end is that line's end (ms from @t0).
 */
static json_object *hir_step_samples(json_object *steps, double t0, double *end)
{
	json_object *arr = json_object_new_array();
	size_t i, n = json_object_array_length(steps);
	double t = 0;

	for (i = 0; i < n; i++) {
		json_object *st = json_object_array_get_idx(steps, i), *x;
		json_object *wr = jget(st, "write");
		double run = jnum(st, "runtime_ns", 0) / 1e6;
		double gap = jnum(jget(st, "gap_ns"), "max", 0) / 1e6;

		t += gap;
		if (!jnum(st, "idle_ms", 0)) {
			x = json_object_new_object();
			jset(x, "t_start_ms", json_object_new_double(t0 + t));
			jset(x, "t_ms", json_object_new_double(t0 + t + run));
			jset(x, "ios", json_object_new_int64((int64_t)jnum(wr, "total_ios", 0)));
			jset(x, "iops", json_object_new_double(run > 0 ?
					jnum(wr, "total_ios", 0) * 1000 / run : 0));
			json_object_array_add(arr, x);
		}
		t += run;
	}
	*end = t;
	return arr;
}

/* A wait state's steps: @cycles x (access, wait), into DIR/rounds/@rel. */
static int hir_steps_file(const struct pts_ctx *c, const char *rel, uint64_t wait)
{
	struct ssl_atomic a;
	char path[PATH_MAX];
	unsigned int i;
	FILE *f;

	if (pts_path(c, path, sizeof(path), rel))
		return -1;
	f = ssl_atomic_open(&a, path);
	if (!f)
		return -1;
	fprintf(f, "# HIR: %u x (%llu ms of writes, %llu ms idle)\n", c->cycles,
		(unsigned long long)c->access_ms, (unsigned long long)wait);
	for (i = 0; i < c->cycles; i++)
		fprintf(f, "runtime=%llums\nidle=%llums\n", (unsigned long long)c->access_ms,
			(unsigned long long)wait);
	return ssl_atomic_commit(&a);
}

/* The end of the last interval of a run's series (ms from its start). */
static double series_end(json_object *ts)
{
	json_object *ivs = jget(ts, "intervals");
	size_t n = ivs ? json_object_array_length(ivs) : 0;

	return n ? jnum(json_object_array_get_idx(ivs, n - 1), "t_end_ms", 0) : 0;
}

/* The write side of a run's job or step, as the phase's figures. */
static void hir_figures(json_object *o, json_object *x)
{
	json_object *clat = jget(x, "clat_ns");

	jset(o, "ios", json_object_new_int64((int64_t)jnum(x, "total_ios", 0)));
	jset(o, "iops", json_object_new_double(jnum(x, "iops", 0)));
	jset(o, "lat_mean_ns", jnum(x, "total_ios", 0) > 0 ?
	     jdouble_or_null(jnum(clat, "mean", NAN)) : NULL);
	jset(o, "lat_max_ns", jnum(x, "total_ios", 0) > 0 ?
	     json_object_new_int64((int64_t)jnum(clat, "max", 0)) : NULL);
}

/*
 * One part of wait state @ws (0-based): @baseline 0 runs its cycles of
 * access + wait, 1 its return to baseline.  The part goes into @w.
 */
static int hir_part(struct pts_ctx *c, json_object *w, unsigned int ws, int baseline,
		    double t0)
{
	unsigned int k = hir_waits[ws];
	uint64_t wait = k * c->access_ms, t = ssl_now_ms();
	struct ssl_argv a = { 0 };
	json_object *run, *job, *ts, *part, *steps;
	char name[128], rel[64], out[PATH_MAX], started[32];
	double end = 0;
	int st;

	snprintf(rel, sizeof(rel), "%s%u", baseline ? "b" : "w", ws + 1);
	job_name(name, sizeof(name), c, rel);
	snprintf(rel, sizeof(rel), "rounds/hir-%s%u.json", baseline ? "baseline" : "wait",
		 ws + 1);
	if (pts_path(c, out, sizeof(out), rel))
		return PTS_EXIT_FAILED;
	av_rnd_writes(c, &a, name, 100 + 2 * ws + baseline);
	if (baseline) {
		av_addf(&a, "--runtime=%llums", (unsigned long long)(c->cycles * c->access_ms));
		av_addf(&a, "--log_interval_ms=%llu", (unsigned long long)c->access_ms);
	} else {
		/* one step per access and per wait: each access segment's own figures */
		char steps[64], path[PATH_MAX];

		snprintf(steps, sizeof(steps), "rounds/hir-wait%u.steps", ws + 1);
		if (hir_steps_file(c, steps, wait) || pts_path(c, path, sizeof(path), steps)) {
			av_free(&a);
			return PTS_EXIT_FAILED;
		}
		av_addf(&a, "--steps=%s", path);
	}
	fprintf(stderr, "pts hir: wait state %u (%llu ms): %s\n", ws + 1,
		(unsigned long long)wait, baseline ?
		"return to baseline" : "access + wait cycles");
	now_iso(started, sizeof(started));
	st = ssl_run_spawn(&a, out);
	av_free(&a);
	st = spawn_status(st, baseline ? "the return to baseline" : "the wait state");
	if (st)
		return st;
	run = ssl_read_run(out);
	if (!run)
		return PTS_EXIT_FAILED;
	job = run_job0(run);
	ts = jget(job, "time_series");
	steps = jget(job, "steps");
	if (baseline ? !ts : (!steps || json_object_array_length(steps) != 2 * c->cycles)) {
		ssl_err("pts hir: %s: no time series or not %u steps", out, 2 * c->cycles);
		json_object_put(run);
		return PTS_EXIT_FAILED;
	}
	part = json_object_new_object();
	jset(part, "started", json_object_new_string(started));
	jset(part, "t_start_ms", json_object_new_double(t0));
	/* the job's write figures: only the access steps write */
	hir_figures(part, jget(job, "write"));
	if (baseline) {
		jset(part, "t_end_ms", json_object_new_double(t0 + series_end(ts)));
		jset(part, "samples", interval_samples(ts, t0, c->access_ms / 2.0));
	} else {
		json_object *smp = hir_step_samples(steps, t0, &end);
		double ms = 0;
		size_t i;

		/* the access segments' rate: their I/Os over their own time */
		for (i = 0; i < json_object_array_length(smp); i++) {
			json_object *x = json_object_array_get_idx(smp, i);

			ms += jnum(x, "t_ms", 0) - jnum(x, "t_start_ms", 0);
		}
		jset(part, "iops", json_object_new_double(ms > 0 ? jnum(part, "ios", 0) * 1000 / ms :
							   0));
		jset(part, "t_end_ms", json_object_new_double(t0 + end));
		jset(part, "samples", smp);
	}
	jset(part, "run_file", json_object_new_string(rel));
	jset(part, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t)));
	json_object_put(run);
	jset(w, baseline ? "baseline" : "access", part);
	keep_rotate(c, name);
	fprintf(stderr, "pts hir: wait state %u: %s %.6g IOPS\n", ws + 1,
		baseline ? "baseline" : "access segments", jnum(part, "iops", 0));
	return 0;
}

/* The preconditioning to steady state, then the wait states. */
/*
 * HIR, ECW, DIRTH: the test's writes in segments of 30 samples until the
 * segments' IOPS are steady (at most max_rounds segments), recorded as the
 * doc's "precondition".  0 or an exit status.
 */
static int precondition_segments(struct pts_ctx *c)
{
	/* ecw, dirth: the rounds that follow have the steady_state key */
	const char *dest = c->def->kind == PTS_DEMAND ? "precondition_steady_state" :
			   "steady_state";
	json_object *pc;
	unsigned int k;
	uint64_t written;
	double t;
	int st;

	if (jget(c->doc, "precondition"))
		return 0;
	for (;;) {
		k = json_object_array_length(jget(c->doc, "segments"));
		if (k >= SSL_SS_WINDOW && check_steady_in(c, "segments", "iops", dest))
			break;
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		fprintf(stderr, "pts %s: preconditioning segment %u of at most %u\n",
			c->def->name, k + 1, c->max_rounds);
		wsat_pos(c, &t, &written);
		st = wsat_segment(c, k + 1, t, written,
				  (uint64_t)PTS_WSAT_SEG_SAMPLES * c->point_ms, 0, NULL);
		if (st)
			return st;
		if (json_object_array_length(jget(c->doc, "segments")) >= SSL_SS_WINDOW)
			check_steady_in(c, "segments", "iops", dest);
		if (pts_save(c))
			return PTS_EXIT_FAILED;
	}
	pc = json_object_new_object();
	wsat_pos(c, &t, &written);
	jset(pc, "segments", json_object_new_int((int)k));
	jset(pc, "duration_ms", json_object_new_double(t));
	jset(pc, "written_bytes", json_object_new_int64((int64_t)written));
	jset(c->doc, "precondition", pc);
	if (c->def->kind == PTS_DEMAND) {
		jset(pc, "steady_state", json_object_get(jget(c->doc, dest)));
		json_object_object_del(c->doc, dest);
		if (!json_object_get_boolean(jget(jget(pc, "steady_state"), "reached")))
			fprintf(stderr, "pts %s: the preconditioning did not reach steady state "
				"in %u segments: the rounds start anyway\n", c->def->name, k);
	}
	return pts_save(c) ? PTS_EXIT_FAILED : 0;
}

static int do_hir(struct pts_ctx *c)
{
	json_object *wss = jget(c->doc, "wait_states"), *w;
	unsigned int ws;
	double t;
	int st;

	st = precondition_segments(c);
	if (st)
		return st;
	for (ws = 0; ws < ARRAY_SIZE(hir_waits); ws++) {
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		w = json_object_array_get_idx(wss, ws);
		if (!w) {
			w = json_object_new_object();
			jset(w, "state", json_object_new_int((int)ws + 1));
			jset(w, "wait_ms", json_object_new_int64((int64_t)(hir_waits[ws] *
									  c->access_ms)));
			jset(w, "access_ms", json_object_new_int64((int64_t)c->access_ms));
			jset(w, "cycles", json_object_new_int((int)c->cycles));
			json_object_array_add(wss, w);
		}
		/* time runs on from the previous part's end */
		t = ws ? jnum(jget(json_object_array_get_idx(wss, ws - 1), "baseline"),
			      "t_end_ms", 0) : 0;
		if (!jget(w, "access")) {
			st = hir_part(c, w, ws, 0, t);
			if (st)
				return st;
			if (pts_save(c))
				return PTS_EXIT_FAILED;
		}
		if (!jget(w, "baseline")) {
			if (ssl_run_sig)
				return SSL_EXIT_SIGNAL(ssl_run_sig);
			st = hir_part(c, w, ws, 1, jnum(jget(w, "access"), "t_end_ms", 0));
			if (st)
				return st;
			if (pts_save(c))
				return PTS_EXIT_FAILED;
		}
	}
	return 0;
}

/* HIR results: the steady state, and each wait state against it. */
static void hir_results(struct pts_ctx *c)
{
	json_object *res = json_object_new_object(), *arr = json_object_new_array();
	json_object *ss = jget(c->doc, "steady_state"), *wss = jget(c->doc, "wait_states");
	double steady = json_object_get_boolean(jget(ss, "reached")) ?
			jnum(ss, "average", NAN) : NAN;
	size_t i;

	jset(res, "steady_iops", jdouble_or_null(steady));
	jset(res, "precondition_average_iops", jdouble_or_null(jnum(ss, "average", NAN)));
	for (i = 0; i < json_object_array_length(wss); i++) {
		json_object *w = json_object_array_get_idx(wss, i), *x = json_object_new_object();
		double ai = jnum(jget(w, "access"), "iops", NAN);
		double ref = isfinite(steady) ? steady : jnum(ss, "average", NAN);

		jset(x, "state", json_object_get(jget(w, "state")));
		jset(x, "wait_ms", json_object_get(jget(w, "wait_ms")));
		jset(x, "iops", jdouble_or_null(ai));
		jset(x, "baseline_iops", jdouble_or_null(jnum(jget(w, "baseline"), "iops", NAN)));
		jset(x, "vs_precondition", jdouble_or_null(ref > 0 ? ai / ref : NAN));
		json_object_array_add(arr, x);
	}
	jset(res, "wait_states", arr);
	jset(c->doc, "results", res);
}

/* ---- xsr: SEQ, RND, SEQ writes, sampled ---- */

/* The stimulus time of group @g's segments so far. */
static double xsr_group_ms(const struct pts_ctx *c, unsigned int g)
{
	json_object *segs = jget(c->doc, "segments");
	size_t i, n = json_object_array_length(segs);
	double ms = 0;

	for (i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(segs, i);

		if ((unsigned int)jnum(x, "group", 0) == g + 1)
			ms += jnum(x, "t_end_ms", 0) - jnum(x, "t_start_ms", 0);
	}
	return ms;
}

/* The three groups, each one run (a segment) unless interrupted. */
static int do_xsr(struct pts_ctx *c)
{
	unsigned int g, k;
	uint64_t len, ms, written;
	double done, t;
	int st;

	for (g = 0; g < ARRAY_SIZE(xsr_groups); g++) {
		len = c->duration_ms * xsr_groups[g].quarters / 4;
		for (;;) {
			done = xsr_group_ms(c, g);
			/* (each run ends up to a few ms late: its I/Os in flight) */
			if (done + c->point_ms / 2.0 >= len)
				break;
			if (ssl_run_sig)
				return SSL_EXIT_SIGNAL(ssl_run_sig);
			wsat_pos(c, &t, &written);
			k = json_object_array_length(jget(c->doc, "segments")) + 1;
			/*
			 * The whole group in one run: a SEQ run that started over
			 * at offset 0 every 30 samples would leave the end of a
			 * large drive unwritten.  (A resumed group starts over.)
			 */
			ms = len - (uint64_t)done;
			fprintf(stderr, "pts xsr: group %u of 3 (%s): %.0f of %llu s\n", g + 1,
				xsr_groups[g].label, done / 1000, (unsigned long long)(len / 1000));
			st = wsat_segment(c, k, t, written, ms, 0, &xsr_groups[g]);
			if (st)
				return st;
			if (pts_save(c))
				return PTS_EXIT_FAILED;
		}
	}
	return 0;
}

/*
 * XSR results per group: its mean rates (its I/Os over its stimulus time),
 * and latencies; and the recovery of group 3: the stimulus time from its
 * start to the end of its first sample whose bandwidth reaches the mean of
 * group 1's last 30 samples (the steady SEQ rate before the RND writes),
 * null if none does.
 */
static void xsr_results(struct pts_ctx *c)
{
	json_object *res = json_object_new_object(), *arr = json_object_new_array();
	json_object *segs = jget(c->doc, "segments"), *ser = jget(c->doc, "series");
	size_t i, ns = json_object_array_length(segs), nx = json_object_array_length(ser);
	double ref = NAN, g3_start = NAN;
	unsigned int g;

	for (g = 0; g < ARRAY_SIZE(xsr_groups); g++) {
		json_object *x = json_object_new_object(), *last = NULL;
		double ms = 0, ios = 0, lat_sum = 0, lat_max = -1, start = NAN;
		unsigned int nsmp = 0;

		for (i = 0; i < ns; i++) {
			json_object *sg = json_object_array_get_idx(segs, i);

			if ((unsigned int)jnum(sg, "group", 0) != g + 1)
				continue;
			ms += jnum(sg, "t_end_ms", 0) - jnum(sg, "t_start_ms", 0);
			ios += jnum(sg, "ios", 0);
			if (!isfinite(start))
				start = jnum(sg, "t_start_ms", 0);
			last = sg;
		}
		for (i = 0; i < nx; i++) {
			json_object *sm = json_object_array_get_idx(ser, i);
			double n = jnum(sm, "ios", 0);

			if ((unsigned int)jnum(sm, "group", 0) != g + 1)
				continue;
			nsmp++;
			if (n > 0) {
				lat_sum += n * jnum(sm, "lat_mean_ns", 0);
				lat_max = fmax(lat_max, jnum(sm, "lat_max_ns", 0));
			}
		}
		jset(x, "group", json_object_new_int((int)g + 1));
		jset(x, "label", json_object_new_string(xsr_groups[g].label));
		jset(x, "samples", json_object_new_int((int)nsmp));
		jset(x, "t_start_ms", jdouble_or_null(start));
		jset(x, "duration_ms", json_object_new_double(ms));
		jset(x, "iops", json_object_new_double(ms > 0 ? ios * 1000 / ms : 0));
		jset(x, "bw_bytes", json_object_new_double(ms > 0 ?
				ios * xsr_groups[g].bs * 1000 / ms : 0));
		jset(x, "lat_mean_ns", ios > 0 ? json_object_new_double(lat_sum / ios) : NULL);
		jset(x, "lat_max_ns", lat_max >= 0 ? json_object_new_int64((int64_t)lat_max) : NULL);
		if (g == 0 && last) {
			/* group 1's last (up to) 30 samples: its steady SEQ rate */
			double sum = 0;
			unsigned int m = 0;

			for (i = nx; i-- > 0 && m < PTS_WSAT_SEG_SAMPLES;) {
				json_object *sm = json_object_array_get_idx(ser, i);

				if ((unsigned int)jnum(sm, "group", 0) == 1) {
					sum += jnum(sm, "bw_bytes", 0);
					m++;
				}
			}
			ref = m ? sum / m : NAN;
		}
		if (g == 2)
			g3_start = start;
		json_object_array_add(arr, x);
	}
	jset(res, "groups", arr);
	jset(res, "reference_bw_bytes", jdouble_or_null(ref));
	jset(res, "recovery_ms", NULL);
	for (i = 0; i < nx && isfinite(ref) && isfinite(g3_start); i++) {
		json_object *sm = json_object_array_get_idx(ser, i);

		if ((unsigned int)jnum(sm, "group", 0) == 3 && jnum(sm, "bw_bytes", 0) >= ref) {
			jset(res, "recovery_ms", json_object_new_double(jnum(sm, "t_ms", 0) -
									g3_start));
			break;
		}
	}
	jset(c->doc, "results", res);
}

/* ---- ecw, dirth: demand intensity ---- */

/* Spawn @a (freed here) into DIR/@rel; the run's JSON in *@run, or a status. */
static int run_into(struct pts_ctx *c, struct ssl_argv *a, const char *rel, const char *what,
		    json_object **run)
{
	char out[PATH_MAX];
	int st;

	*run = NULL;
	if (pts_path(c, out, sizeof(out), rel)) {
		av_free(a);
		return PTS_EXIT_FAILED;
	}
	st = ssl_run_spawn(a, out);
	av_free(a);
	st = spawn_status(st, what);
	if (st)
		return st;
	*run = ssl_read_run(out);
	return *run ? 0 : PTS_EXIT_FAILED;
}

/* A run's time: job_runtime adds up its workers' (as fio's group reporting). */
static double job_ms(json_object *job)
{
	double n = jnum(jget(job, "ssdload"), "numjobs", 1);

	return jnum(job, "job_runtime", 0) / (n >= 1 ? n : 1);
}

/* The demand points' stimulus: the test's R/W mix, block sizes and zones. */
static void av_demand(const struct pts_ctx *c, struct ssl_argv *a, const char *name,
		      unsigned int seed, unsigned int tc, unsigned int qd)
{
	av_common(c, a, name);
	av_add(a, "--rw=randrw");
	av_addf(a, "--rwmixread=%u", c->mix);
	av_addf(a, "--bs=%u", c->bs[0]);
	av_stimulus(c, a);
	av_add(a, "--blockalign=4096");
	av_addf(a, "--numjobs=%u", tc);
	av_addf(a, "--iodepth=%u", qd);
	av_addf(a, "--size=%llu", (unsigned long long)c->active_bytes);
	av_addf(a, "--randseed=%u", 0x5d5 + seed);
	av_add(a, "--percentile_list=" PTS_PERCENTILES);
	if (c->keep_last_job)
		av_add(a, "--keep-job");
}

/*
 * Writes of the test's stimulus (0/100) at TC @tc x QD @qd for @points
 * points, logged every point: before each round (5 points, T32Q32) and
 * before each operating point (60 points, at its load).  *@out: its record.
 */
static int demand_prewrite(struct pts_ctx *c, const char *tag, const char *rel,
			   unsigned int seed, unsigned int tc, unsigned int qd,
			   unsigned int points, json_object **out)
{
	struct ssl_argv a = { 0 };
	unsigned int t = c->threads, q = c->iodepth;
	json_object *run, *job, *wr, *o;
	char name[128];
	int st;

	*out = NULL;
	job_name(name, sizeof(name), c, tag);
	c->threads = tc;
	c->iodepth = qd;
	av_rnd_writes(c, &a, name, seed);
	c->threads = t;
	c->iodepth = q;
	av_addf(&a, "--runtime=%llums", (unsigned long long)(points * c->point_ms));
	av_addf(&a, "--log_interval_ms=%llu", (unsigned long long)c->point_ms);
	st = run_into(c, &a, rel, "the pre-write", &run);
	if (st)
		return st;
	keep_rotate(c, name);
	job = run_job0(run);
	if (!job) {
		ssl_err("pts: %s/%s: no job in the run's JSON", c->dir, rel);
		json_object_put(run);
		return PTS_EXIT_FAILED;
	}
	wr = jget(job, "write");
	o = json_object_new_object();
	jset(o, "tc", json_object_new_int((int)tc));
	jset(o, "qd", json_object_new_int((int)qd));
	jset(o, "runtime_ms", json_object_new_double(job_ms(job)));
	jset(o, "ios", json_object_new_int64((int64_t)jnum(wr, "total_ios", 0)));
	jset(o, "iops", json_object_new_double(jnum(wr, "iops", 0)));
	jset(o, "bw_bytes", json_object_new_double(jnum(wr, "bw_bytes", 0)));
	/* a sample a point; the final fragment (the drain) in the totals only */
	jset(o, "samples", interval_samples(jget(job, "time_series"), 0, c->point_ms / 2.0));
	jset(o, "run_file", json_object_new_string(rel));
	json_object_put(run);
	*out = o;
	return 0;
}

/* A demand point from a step (or a whole job) of a run at TC @tc x QD @qd. */
static json_object *demand_point(const struct pts_ctx *c, json_object *step, unsigned int tc,
				 unsigned int qd)
{
	json_object *p = point_json(c, step, c->bs[0], c->mix);

	if (c->def->bssplit) {
		jset(p, "bs", NULL);
		jset(p, "bssplit", json_object_new_string(c->def->bssplit));
	}
	jset(p, "tc", json_object_new_int((int)tc));
	jset(p, "qd", json_object_new_int((int)qd));
	jset(p, "toio", json_object_new_int((int)(tc * qd)));
	return p;
}

/* The point at TC @tc x QD @qd of @points, or NULL. */
static json_object *find_load(json_object *points, unsigned int tc, unsigned int qd)
{
	size_t i, n = json_object_array_length(points);

	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(points, i);

		if ((unsigned int)jnum(p, "tc", 0) == tc && (unsigned int)jnum(p, "qd", 0) == qd)
			return p;
	}
	return NULL;
}

/*
 * Round @r: 5 points of writes at the highest load, then every TC (a run
 * each: its workers are its threads) x every QD (a step each), high to
 * low, each for a point.  Appended to the doc's rounds.
 */
static int demand_round(struct pts_ctx *c, unsigned int r)
{
	json_object *rd, *points, *files, *pw, *run, *steps;
	char name[128], tag[32], rel[64], started[32], eta[32];
	uint64_t t0 = ssl_now_ms();
	unsigned int i, j;
	double tr;
	int st;

	ssl_eta_str(eta, sizeof(eta), (uint64_t)(c->points + PTS_DEMAND_PREWRITE) *
		    c->point_ms / 1000);
	fprintf(stderr, "pts %s: round %u of at most %u: %u points of writes, then %u "
		"points of TC x QD (%s)\n", c->def->name, r, c->max_rounds, PTS_DEMAND_PREWRITE,
		c->points, eta);
	rd = json_object_new_object();
	jset(rd, "round", json_object_new_int((int)r));
	now_iso(started, sizeof(started));
	jset(rd, "started", json_object_new_string(started));
	jset(rd, "health_before", health_now(c));
	snprintf(tag, sizeof(tag), "r%u-pw", r);
	snprintf(rel, sizeof(rel), "rounds/round-%03u-prewrite.json", r);
	st = demand_prewrite(c, tag, rel, 1000 + r, c->tcs[0], c->qds[0],
			     PTS_DEMAND_PREWRITE, &pw);
	if (st) {
		json_object_put(rd);
		return st;
	}
	jset(rd, "prewrite", pw);
	points = json_object_new_array();
	files = json_object_new_array();
	jset(rd, "points", points);
	jset(rd, "run_files", files);
	for (i = 0; i < c->ntc; i++) {
		struct ssl_argv a = { 0 };

		if (ssl_run_sig) {
			json_object_put(rd);
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		}
		snprintf(tag, sizeof(tag), "r%u-t%u", r, c->tcs[i]);
		job_name(name, sizeof(name), c, tag);
		snprintf(rel, sizeof(rel), "rounds/round-%03u-tc%u.json", r, c->tcs[i]);
		av_demand(c, &a, name, r * 64 + i, c->tcs[i], c->qds[0]);
		for (j = 0; j < c->nqd; j++)
			av_addf(&a, "--step=iodepth=%u,runtime=%llums", c->qds[j],
				(unsigned long long)c->point_ms);
		st = run_into(c, &a, rel, "the round", &run);
		if (st) {
			json_object_put(rd);
			return st;
		}
		keep_rotate(c, name);
		steps = jget(run_job0(run), "steps");
		if (!steps || !json_object_is_type(steps, json_type_array) ||
		    json_object_array_length(steps) != c->nqd) {
			ssl_err("pts: %s/%s: %u steps expected", c->dir, rel, c->nqd);
			json_object_put(run);
			json_object_put(rd);
			return PTS_EXIT_FAILED;
		}
		for (j = 0; j < c->nqd; j++)
			json_object_array_add(points, demand_point(c,
						json_object_array_get_idx(steps, j),
						c->tcs[i], c->qds[j]));
		json_object_put(run);
		json_object_array_add(files, json_object_new_string(rel));
	}
	tr = jnum(find_load(points, c->tcs[0], c->qds[0]), "iops", NAN);
	jset(rd, "tracking", jdouble_or_null(tr));
	jset(rd, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	jset(rd, "health_after", health_now(c));
	json_object_array_add(jget(c->doc, "rounds"), rd);
	fprintf(stderr, "pts %s: round %u: T%uQ%u %.6g IOPS (pre-write %.6g IOPS)\n",
		c->def->name, r, c->tcs[0], c->qds[0], tr, jnum(pw, "iops", NAN));
	return 0;
}

/*
 * The operating points from the measurement window's averages: MaxIOPS,
 * the point of most IOPS whose average response time (ART) is under 5 ms;
 * MidIOPS, the point under 5 ms closest to the middle of the IOPS range
 * under 5 ms; MinIOPS, the lowest load (T1Q1).  A point none qualifies
 * for is recorded as null, with the reason.
 */
static json_object *choose_points(const struct pts_ctx *c)
{
	json_object *pts = jget(jget(c->doc, "results"), "points"), *arr, *mx = NULL, *md = NULL;
	json_object *mn = find_load(pts, c->tcs[c->ntc - 1], c->qds[c->nqd - 1]);
	static const char *const labels[] = { "MaxIOPS", "MidIOPS", "MinIOPS" };
	json_object *chosen[3];
	double lo = INFINITY, hi = -1, mid, best = INFINITY;
	size_t i, n = json_object_array_length(pts);

	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i);
		double art = jnum(p, "lat_mean_ns", NAN), v = jnum(p, "iops", 0);

		if (!(art < PTS_ART_LIMIT_NS))
			continue;
		if (v > hi) {
			hi = v;
			mx = p;
		}
		lo = fmin(lo, v);
	}
	mid = (hi + lo) / 2;
	for (i = 0; mx && i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i);

		if (jnum(p, "lat_mean_ns", NAN) < PTS_ART_LIMIT_NS &&
		    fabs(jnum(p, "iops", 0) - mid) < best) {
			best = fabs(jnum(p, "iops", 0) - mid);
			md = p;
		}
	}
	chosen[0] = mx;
	chosen[1] = md;
	chosen[2] = mn;
	arr = json_object_new_array();
	for (i = 0; i < 3; i++) {
		json_object *o = json_object_new_object();

		jset(o, "label", json_object_new_string(labels[i]));
		if (!chosen[i]) {
			jset(o, "tc", NULL);
			jset(o, "qd", NULL);
			jset(o, "skipped", json_object_new_string(i < 2 ?
				"no point had an average response time under 5 ms" :
				"the lowest load was not measured"));
		} else {
			jset(o, "tc", json_object_get(jget(chosen[i], "tc")));
			jset(o, "qd", json_object_get(jget(chosen[i], "qd")));
			jset(o, "window_iops", json_object_get(jget(chosen[i], "iops")));
			jset(o, "window_lat_mean_ns",
			     json_object_get(jget(chosen[i], "lat_mean_ns")));
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The response-time histogram of a run: fio's latency_ns/us/ms buckets, in %. */
static json_object *rt_histogram(json_object *job)
{
	json_object *o = json_object_new_object();
	static const char *const keys[] = { "latency_ns", "latency_us", "latency_ms" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		jset(o, keys[i] + 8, json_object_get(jget(job, keys[i])));
	return o;
}

/*
 * Operating point @k: 60 points of writes at its load, then 10 points of
 * the demand stimulus measured whole, with its response-time histogram.
 */
static int operating_point(struct pts_ctx *c, json_object *op, unsigned int k)
{
	unsigned int tc = (unsigned int)jnum(op, "tc", 0), qd = (unsigned int)jnum(op, "qd", 0);
	struct ssl_argv a = { 0 };
	json_object *pw, *run, *job, *m;
	char name[128], tag[32], rel[64];
	int st;

	if (!jget(op, "prewrite")) {
		fprintf(stderr, "pts %s: %s (T%uQ%u): %u points of writes\n", c->def->name,
			jstring(op, "label"), tc, qd, PTS_OP_PREWRITE);
		snprintf(tag, sizeof(tag), "op%u-pw", k + 1);
		snprintf(rel, sizeof(rel), "rounds/op%u-prewrite.json", k + 1);
		st = demand_prewrite(c, tag, rel, 2000 + k, tc, qd, PTS_OP_PREWRITE, &pw);
		if (st)
			return st;
		jset(op, "prewrite", pw);
		if (pts_save(c))
			return PTS_EXIT_FAILED;
	}
	if (ssl_run_sig)
		return SSL_EXIT_SIGNAL(ssl_run_sig);
	fprintf(stderr, "pts %s: %s (T%uQ%u): %u points measured\n", c->def->name,
		jstring(op, "label"), tc, qd, PTS_OP_MEASURE);
	snprintf(tag, sizeof(tag), "op%u", k + 1);
	job_name(name, sizeof(name), c, tag);
	snprintf(rel, sizeof(rel), "rounds/op%u.json", k + 1);
	av_demand(c, &a, name, 3000 + k, tc, qd);
	av_addf(&a, "--runtime=%llums", (unsigned long long)(PTS_OP_MEASURE * c->point_ms));
	st = run_into(c, &a, rel, "the operating point", &run);
	if (st)
		return st;
	keep_rotate(c, name);
	job = run_job0(run);
	if (!job) {
		ssl_err("pts: %s/%s: no job in the run's JSON", c->dir, rel);
		json_object_put(run);
		return PTS_EXIT_FAILED;
	}
	m = demand_point(c, job, tc, qd);
	jset(m, "runtime_ms", json_object_new_double(job_ms(job)));
	jset(m, "rt_histogram", rt_histogram(job));
	jset(m, "run_file", json_object_new_string(rel));
	json_object_put(run);
	jset(op, "measure", m);
	return pts_save(c) ? PTS_EXIT_FAILED : 0;
}

/* ECW, DIRTH; 0 or an exit status. */
static int do_demand(struct pts_ctx *c)
{
	json_object *ops;
	unsigned int r, k;
	int st;

	st = precondition_segments(c);
	if (st)
		return st;
	for (r = rounds_done(c) + 1; ; r++) {
		if (rounds_done(c) >= SSL_SS_WINDOW && check_steady(c))
			break;
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		st = demand_round(c, r);
		if (st)
			return st;
		check_steady(c);
		if (pts_save(c))
			return PTS_EXIT_FAILED;
	}
	if (!jget(c->doc, "operating_points")) {
		do_results(c);
		jset(c->doc, "operating_points", choose_points(c));
		if (pts_save(c))
			return PTS_EXIT_FAILED;
	}
	ops = jget(c->doc, "operating_points");
	/*
	 * A pre-write that an earlier process made (the test was interrupted
	 * before its measurement) no longer comes right before it: the drive
	 * idled since.  It is made again.
	 */
	for (k = 0; k < json_object_array_length(ops); k++) {
		json_object *op = json_object_array_get_idx(ops, k);

		if (jget(op, "prewrite") && !jget(op, "measure"))
			jset(op, "prewrite", NULL);
	}
	for (k = 0; k < json_object_array_length(ops); k++) {
		json_object *op = json_object_array_get_idx(ops, k);

		if (!jget(op, "tc") || jget(op, "measure"))
			continue;
		if (ssl_run_sig)
			return SSL_EXIT_SIGNAL(ssl_run_sig);
		st = operating_point(c, op, k);
		if (st)
			return st;
	}
	return 0;
}

/* ---- the text summary ---- */

static void print_summary(const struct pts_ctx *c)
{
	const struct pts_def *t = c->def;
	json_object *ss = jget(c->doc, "steady_state");
	json_object *pts = jget(jget(c->doc, "results"), "points");
	unsigned int m, b, k = 0;
	char lab[16];

	printf("%s: %s test, %s\n", SSL_SS_SPEC, t->title, c->filename);
	if (ss) {
		json_object *win = jget(ss, "window");

		printf("steady state: %s (window %s %d..%d, average %.6g %s, range %.2f%%, "
		       "slope excursion %.2f%%)\n",
		       json_object_get_boolean(jget(ss, "reached")) ? "reached" : "NOT achieved",
		       t->kind == PTS_MATRIX || t->kind == PTS_DEMAND ? "rounds" : "segments",
		       json_object_get_int(json_object_array_get_idx(win, 0)),
		       json_object_get_int(json_object_array_get_idx(win, 1)),
		       jnum(ss, "average", NAN), metric_unit[t->metric],
		       jnum(ss, "range_pct", NAN), jnum(ss, "slope_excursion_pct", NAN));
	}
	if (!json_object_get_boolean(jget(c->doc, "conformant"))) {
		json_object *dev = jget(c->doc, "deviations");
		size_t i;

		printf("NOT CONFORMANT:\n");
		for (i = 0; i < json_object_array_length(dev); i++)
			printf("  - %s\n", json_object_get_string(json_object_array_get_idx(dev, i)));
	}
	if (t->kind == PTS_DEMAND) {
		json_object *ops = jget(c->doc, "operating_points");
		json_object *pc = jget(c->doc, "precondition");
		unsigned int i, j, q;

		if (json_object_get_boolean(jget(jget(pc, "steady_state"), "reached")))
			printf("preconditioning: steady at segment %d\n",
			       (int)jnum(pc, "segments", 0));
		else
			printf("preconditioning: NOT steady after %d segments\n",
			       (int)jnum(pc, "segments", 0));

		for (q = 0; pts && q < 2; q++) {
			printf("\n%s, window average\n%-6s", q ? "ART (us)" : "IOPS", "TC\\QD");
			for (j = 0; j < c->nqd; j++)
				printf(" %10u", c->qds[j]);
			printf("\n");
			for (i = 0; i < c->ntc; i++) {
				printf("%-6u", c->tcs[i]);
				for (j = 0; j < c->nqd; j++) {
					json_object *p = find_load(pts, c->tcs[i], c->qds[j]);

					printf(" %10.1f", q ? jnum(p, "lat_mean_ns", NAN) / 1e3 :
					       jnum(p, "iops", NAN));
				}
				printf("\n");
			}
		}
		printf("\n%-8s %6s %12s %12s %12s %12s %12s\n", "point", "load", "IOPS",
		       "ART (us)", "p99 (us)", "p99.99 (us)", "MRT (us)");
		for (k = 0; k < json_object_array_length(ops); k++) {
			json_object *op = json_object_array_get_idx(ops, k), *m = jget(op, "measure");
			json_object *pc[2] = { NULL, NULL };
			char load[16];
			unsigned int d;

			if (!m) {
				printf("%-8s %s\n", jstring(op, "label"), jget(op, "skipped") ?
				       jstring(op, "skipped") : "not measured");
				continue;
			}
			for (d = 0; d < 2; d++) {
				json_object *x = jget(m, d ? "write" : "read");

				if (jnum(x, "ios", 0) > 0)
					pc[d] = jget(x, "percentiles");
			}
			snprintf(load, sizeof(load), "T%dQ%d", (int)jnum(op, "tc", 0),
				 (int)jnum(op, "qd", 0));
			printf("%-8s %6s %12.1f %12.1f %12.1f %12.1f %12.1f\n", jstring(op, "label"),
			       load, jnum(m, "iops", NAN), jnum(m, "lat_mean_ns", NAN) / 1e3,
			       fmax(jnum(pc[0], "99.000000", NAN), jnum(pc[1], "99.000000", NAN)) / 1e3,
			       fmax(jnum(pc[0], "99.990000", NAN), jnum(pc[1], "99.990000", NAN)) / 1e3,
			       jnum(m, "lat_max_ns", NAN) / 1e3);
		}
		printf("(p99 and p99.99: the higher of reads and writes)\n");
		printf("\nreport: %s/report.html, data: %s/%s\n", c->dir, c->dir, PTS_JSON);
		return;
	}
	if (t->kind == PTS_XSR) {
		json_object *res = jget(c->doc, "results"), *gs = jget(res, "groups");

		printf("\n%6s %-20s %10s %12s %12s %14s\n", "group", "stimulus", "time (s)",
		       "MB/s", "IOPS", "mean lat (us)");
		for (k = 0; k < json_object_array_length(gs); k++) {
			json_object *g = json_object_array_get_idx(gs, k);

			printf("%6d %-20s %10.1f %12.1f %12.1f %14.1f\n", (int)jnum(g, "group", 0),
			       jstring(g, "label"), jnum(g, "duration_ms", 0) / 1000,
			       jnum(g, "bw_bytes", 0) / 1e6, jnum(g, "iops", 0),
			       jnum(g, "lat_mean_ns", NAN) / 1e3);
		}
		if (jget(res, "recovery_ms"))
			printf("recovery: group 3 reached group 1's final %.1f MB/s after %.1f s\n",
			       jnum(res, "reference_bw_bytes", 0) / 1e6,
			       jnum(res, "recovery_ms", 0) / 1000);
		else
			printf("recovery: group 3 never reached group 1's final %.1f MB/s\n",
			       jnum(res, "reference_bw_bytes", 0) / 1e6);
		printf("\nreport: %s/report.html, data: %s/%s\n", c->dir, c->dir, PTS_JSON);
		return;
	}
	if (t->kind == PTS_HIR) {
		json_object *ws = jget(jget(c->doc, "results"), "wait_states");

		printf("\n%6s %10s %14s %14s %10s\n", "state", "wait (s)", "access IOPS",
		       "baseline IOPS", "vs steady");
		for (k = 0; k < json_object_array_length(ws); k++) {
			json_object *w = json_object_array_get_idx(ws, k);

			printf("%6d %10.3f %14.1f %14.1f %9.1f%%\n", (int)jnum(w, "state", 0),
			       jnum(w, "wait_ms", 0) / 1000, jnum(w, "iops", NAN),
			       jnum(w, "baseline_iops", NAN), 100 * jnum(w, "vs_precondition", NAN));
		}
		printf("\nreport: %s/report.html, data: %s/%s\n", c->dir, c->dir, PTS_JSON);
		return;
	}
	if (t->kind == PTS_WSAT) {
		json_object *res = jget(c->doc, "results");
		char sz[32];

		ssl_size_str(sz, sizeof(sz), (uint64_t)jnum(res, "written_bytes", 0));
		printf("stopped by the %s: %s written (%.2f x the active range) in %.1f s, "
		       "%d samples\n", strcmp(jstring(res, "stopped_by"), "write_limit") ?
		       "time limit" : "write limit", sz, jnum(res, "written_factor", 0),
		       jnum(res, "duration_ms", 0) / 1000, (int)jnum(res, "samples", 0));
		pts = jget(c->doc, "segments");
		printf("\n%8s %12s %14s %12s\n", "segment", "end (s)", "written (GB)", "IOPS");
		for (k = 0; k < json_object_array_length(pts); k++) {
			json_object *g = json_object_array_get_idx(pts, k);

			printf("%8d %12.1f %14.3f %12.1f\n", (int)jnum(g, "segment", 0),
			       jnum(g, "t_end_ms", 0) / 1000, jnum(g, "written_end_bytes", 0) / 1e9,
			       jnum(g, "iops", 0));
		}
		if (jget(res, "steady_iops"))
			printf("last 5 segments steady: %.6g IOPS\n", jnum(res, "steady_iops", 0));
		else if (jget(res, "steady_state"))
			printf("last 5 segments: not steady (range %.2f%%, slope excursion %.2f%%)\n",
			       jnum(jget(res, "steady_state"), "range_pct", NAN),
			       jnum(jget(res, "steady_state"), "slope_excursion_pct", NAN));
		printf("\nreport: %s/report.html, data: %s/%s\n", c->dir, c->dir, PTS_JSON);
		return;
	}
	if (!pts)
		return;
	printf("\n%-8s", t->metric == PTS_LAT_MEAN ? "avg lat" : "R/W mix");
	for (b = 0; b < c->nbs; b++) {
		bs_label(lab, sizeof(lab), c->bs[b]);
		printf(" %12s", lab);
	}
	printf("\n");
	for (m = 0; m < t->nmix; m++) {
		printf("%3u/%-4u", t->mix[m], 100 - t->mix[m]);
		for (b = 0; b < c->nbs; b++) {
			json_object *p = json_object_array_get_idx(pts, k++);

			if (t->metric == PTS_IOPS)
				printf(" %12.1f", jnum(p, "iops", NAN));
			else if (t->metric == PTS_BW)
				printf(" %9.1f MB/s", jnum(p, "bw_bytes", NAN) / 1e6);
			else
				printf(" %9.1f us", jnum(p, "lat_mean_ns", NAN) / 1e3);
		}
		printf("\n");
	}
	printf("\nreport: %s/report.html, data: %s/%s\n", c->dir, c->dir, PTS_JSON);
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
	if (c->def->kind != PTS_MATRIX) {
		jset(d, "segments", json_object_new_array());
		jset(d, "series", json_object_new_array());
	}
	if (c->def->kind == PTS_HIR)
		jset(d, "wait_states", json_object_new_array());
	if (c->def->kind == PTS_DEMAND) {
		jset(d, "precondition", NULL);
		jset(d, "operating_points", NULL);
	}
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
	if (t->kind == PTS_WSAT && c->duration_ms != PTS_WSAT_DURATION_MS) {
		deviation(c, "time limit %llu ms (spec: %llu ms)",
			  (unsigned long long)c->duration_ms,
			  (unsigned long long)PTS_WSAT_DURATION_MS);
		scaled = true;
	}
	if (t->kind == PTS_XSR && c->duration_ms != PTS_XSR_SEQ_MS) {
		deviation(c, "SEQ segments of %llu ms and an RND segment of %llu ms (spec: 8 h "
			  "and 6 h)", (unsigned long long)c->duration_ms,
			  (unsigned long long)(c->duration_ms * 3 / 4));
		scaled = true;
	}
	if (t->kind == PTS_WSAT && c->write_limit != PTS_WSAT_WRITE_LIMIT) {
		deviation(c, "write limit %g x the active range (spec: %d x)", c->write_limit,
			  PTS_WSAT_WRITE_LIMIT);
		scaled = true;
	}
	if (t->kind == PTS_HIR && c->access_ms != PTS_HIR_ACCESS_MS) {
		deviation(c, "access time %llu ms (spec: %d ms)", (unsigned long long)c->access_ms,
			  PTS_HIR_ACCESS_MS);
		scaled = true;
	}
	if (t->kind == PTS_HIR && c->cycles != PTS_HIR_CYCLES) {
		deviation(c, "%u cycles per wait state (spec: %d)", c->cycles, PTS_HIR_CYCLES);
		scaled = true;
	}
	if (t->kind != PTS_WSAT && c->max_rounds != SSL_SS_MAX_ROUNDS) {
		deviation(c, "round limit %u (spec: %d)", c->max_rounds, SSL_SS_MAX_ROUNDS);
		scaled = true;
	}
	if (t->kind == PTS_DEMAND && (c->ntc != ARRAY_SIZE(demand_loads) ||
				      memcmp(c->tcs, demand_loads, sizeof(demand_loads)) ||
				      c->nqd != ARRAY_SIZE(demand_loads) ||
				      memcmp(c->qds, demand_loads, sizeof(demand_loads)))) {
		char tl[64] = "", ql[64] = "";
		unsigned int i;

		for (i = 0; i < c->ntc; i++)
			snprintf(tl + strlen(tl), sizeof(tl) - strlen(tl), "%s%u", i ? "," : "",
				 c->tcs[i]);
		for (i = 0; i < c->nqd; i++)
			snprintf(ql + strlen(ql), sizeof(ql) - strlen(ql), "%s%u", i ? "," : "",
				 c->qds[i]);
		deviation(c, "TC %s x QD %s (spec: 32,16,8,6,4,2,1 each)", tl, ql);
		scaled = true;
	}
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
	if (!strcmp(state, "interrupted") && c->def->kind == PTS_DEMAND)
		fprintf(stderr, "pts: interrupted after %u preconditioning segments and %u "
			"rounds: continue with ssdload pts --resume=%s\n",
			(unsigned int)json_object_array_length(jget(c->doc, "segments")),
			rounds_done(c), c->dir);
	else if (!strcmp(state, "interrupted") && c->def->kind != PTS_MATRIX)
		fprintf(stderr, "pts: interrupted after %u segments: continue with ssdload pts "
			"--resume=%s\n", (unsigned int)json_object_array_length(jget(c->doc,
										  "segments")),
			c->dir);
	else if (!strcmp(state, "interrupted"))
		fprintf(stderr, "pts: interrupted after %u finished round%s: continue with "
			"ssdload pts --resume=%s\n", rounds_done(c), rounds_done(c) == 1 ? "" : "s",
			c->dir);
	return status;
}

/* The module's max_job_mem_mb (MiB; its default if not loaded). */
static unsigned long long max_job_mem(void)
{
	unsigned long long cap = 1024;
	FILE *f = fopen("/sys/module/ssdload/parameters/max_job_mem_mb", "r");

	if (f) {
		if (fscanf(f, "%llu", &cap) != 1)
			cap = 1024;
		fclose(f);
	}
	return cap;
}

/*
 * A wait state is one run with a step per access segment, and every
 * access step keeps a write histogram per worker (SSDLOAD_HIST_BUCKETS
 * counters, a 64 KiB allocation): refuse, before the purge, a TC x cycles
 * that the module's max_job_mem_mb would refuse only at the first wait
 * state, hours into the test.  0 or -1 after a message.
 */
static int hir_mem_check(const struct pts_ctx *c)
{
	unsigned long long cap = max_job_mem(), need;

	/* the histograms, and about as much again for the rest (a margin) */
	need = (unsigned long long)c->threads * c->cycles * 65536 / 1048576;
	if (need + need / 8 + 16 <= cap)
		return 0;
	ssl_err("pts hir: %u threads x %u cycles keep about %llu MiB of step histograms, "
		"more than the module's max_job_mem_mb=%llu: use fewer --threads, or raise "
		"max_job_mem_mb", c->threads, c->cycles, need, cap);
	return -1;
}

/*
 * ECW, DIRTH: the highest load's buffers (TC x QD x the largest block,
 * twice for the mixed points: reads and writes have their own) and the
 * step histograms of a round's TC run must fit the module's
 * max_job_mem_mb, or the module would refuse a run hours into the test.
 * 0 or -1 after a message.
 */
static int demand_mem_check(const struct pts_ctx *c)
{
	unsigned long long cap = max_job_mem(), need;
	/* (checked before c->bs takes the test's default) */
	unsigned int bs_max = c->def->bssplit ? 65536 : c->bs[0] ? c->bs[0] : c->def->bs[0];

	need = (unsigned long long)c->tcs[0] * c->qds[0] * bs_max * 2 / 1048576 +
	       (unsigned long long)c->tcs[0] * c->nqd * 65536 / 1048576;
	if (need + need / 8 + 16 <= cap)
		return 0;
	ssl_err("pts %s: T%uQ%u of %u-byte blocks keeps about %llu MiB of buffers and "
		"histograms, more than the module's max_job_mem_mb=%llu: use a smaller "
		"--bs, --tc-list or --qd-list, or raise max_job_mem_mb", c->def->name,
		c->tcs[0], c->qds[0], bs_max, need, cap);
	return -1;
}

static const struct pts_def purge_def = { .name = "purge", .title = "Purge" };

static const char *const pts_purge_usage[] = {
	"usage: ssdload pts purge --filename=DEV --allow_write [--purge=METHOD]",
	"                         [--allow-partition] [--force] [--dry-run]",
	"",
	"Purge DEV as a test does before its preconditioning, and say how: on NVMe",
	"Sanitize (block erase, else crypto erase) where the controller supports it,",
	"else Format NVM with user data erase; elsewhere BLKSECDISCARD, BLKDISCARD, or",
	"one sequential write pass.  --purge=METHOD asks for one of sanitize, format,",
	"secdiscard, discard or overwrite (refused where DEV lacks it).",
	"",
	"DEV's identity and signatures are printed first; a DEV holding a filesystem,",
	"partition table, LVM, RAID or swap signature is refused (exit status 2)",
	"unless --force; --dry-run prints the method and its scope and writes nothing.",
	NULL,
};

/*
 * --resume: the device must be the one the test started on: serial and
 * model, or, without a serial, device number and capacity.  An NVMe
 * serial is the controller's: its namespaces share it, so the namespace
 * ID and the capacity must match too.  0 or -1.
 */
static int resume_identity(struct pts_ctx *c)
{
	json_object *dev = jget(c->doc, "device");
	const char *serial = jstring(dev, "serial"), *model = jstring(dev, "model");
	const char *num = jstring(dev, "dev");
	struct ssl_dev was;
	char a[256], b[256], now[32];
	bool same;

	snprintf(now, sizeof(now), "%u:%u", c->dev.dev_major, c->dev.dev_minor);
	if (serial[0])
		same = !strcmp(serial, c->dev.serial) && !strcmp(model, c->dev.model) &&
		       (uint32_t)jnum(dev, "nsid", c->dev.nsid) == c->dev.nsid;
	else
		same = !num[0] || !strcmp(num, now);
	same = same && (uint64_t)jnum(dev, "capacity_bytes", 0) == c->dev.capacity_bytes;
	if (same)
		return 0;
	memset(&was, 0, sizeof(was));
	snprintf(was.model, sizeof(was.model), "%s", model);
	snprintf(was.serial, sizeof(was.serial), "%s", serial);
	was.capacity_bytes = (uint64_t)jnum(dev, "capacity_bytes", 0);
	was.nsid = (uint32_t)jnum(dev, "nsid", 0);
	if (sscanf(num, "%u:%u", &was.dev_major, &was.dev_minor) != 2)
		was.dev_major = was.dev_minor = 0;
	ssl_dev_identity(&was, a, sizeof(a));
	ssl_dev_identity(&c->dev, b, sizeof(b));
	ssl_err("pts: --resume=%s: %s is not the device the test started on (%s)\n"
		"  started on: %s\n  now:        %s", c->dir, c->filename,
		serial[0] ? "serial, model, namespace and capacity" :
		"device number and capacity", a, b);
	return -1;
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
	/* a dry run writes nothing: it needs no module */
	if (!c->dry_run && (cfs_check_module() || ssl_check_debugfs())) {
		close(fd);
		return -1;
	}
	return fd;
}

int pts_purge(int argc, const char **argv)
{
	struct pts_ctx ctx, *c = &ctx;
	const char *resume = NULL;
	enum ssl_purge used = SSL_PURGE_NONE;
	char detail[256] = "", sz[32], tmp[] = "/tmp/ssdload-purge-XXXXXX";
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
		int tfd = mkstemp(tmp);

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
	printf("duration: %.3f s\n", (ssl_now_ms() - t0) / 1000.0);
	return 0;
}

int pts_run(const char *test, int argc, const char **argv)
{
	struct pts_ctx ctx, *c = &ctx;
	const char *resume = NULL, **rargv = NULL;
	int st, fd, r;
	unsigned int round;
	json_object *ss;

	memset(c, 0, sizeof(*c));
	c->dev.lbaf_index = -1;
	if (test) {
		c->def = pts_find(test);
		c->argc = argc;
		c->argv = argv;
	}
	r = pts_parse(c, argc, argv, &resume);
	if (r)
		return r > 0 ? 0 : PTS_EXIT_USAGE;
	if (resume) {
		const char *rdir = resume, *eta = c->eta;
		bool force = c->force, dry_run = c->dry_run;

		if (c->given & ~(1u << P_RESUME | 1u << P_ETA | 1u << P_FORCE | 1u << P_DRY_RUN)) {
			ssl_err("pts: --resume continues with the options of the run it "
				"continues: give it alone (or with --eta, --force, --dry-run)");
			return PTS_EXIT_USAGE;
		}
		if (ssl_dir_check("pts", rdir))
			return PTS_EXIT_USAGE;
		memset(c, 0, sizeof(*c));
		c->dev.lbaf_index = -1;
		st = load_resume(c, rdir, test, &rargv);
		if (st)
			return st;
		c->argv = rargv;
		r = pts_parse(c, c->argc, c->argv, &resume);
		if (r) {
			st = PTS_EXIT_USAGE;
			goto out;
		}
		c->dir = rdir;
		c->eta = eta;
		c->force = c->force || force;
		c->dry_run = dry_run;
	} else if (!test) {
		ssl_usage(stderr, pts_test_usage);
		return PTS_EXIT_USAGE;
	}

	/* ---- refusals: all before any write ---- */
	if (!c->threads)
		c->threads = c->def->threads;
	if (!c->iodepth)
		c->iodepth = c->def->iodepth;
	if (c->bs[0] && strcmp(c->def->name, "throughput") && strcmp(c->def->name, "dirth")) {
		ssl_err("pts %s: --bs is an option of the throughput and dirth tests only",
			c->def->name);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->bs[0] && !strcmp(c->def->name, "throughput") && c->bs[0] != 131072 &&
	    c->bs[0] != 1048576) {
		ssl_err("pts throughput: --bs=%u: the throughput test runs 128k or 1m", c->bs[0]);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if ((c->given & (1u << P_RWMIXREAD)) && strcmp(c->def->name, "dirth")) {
		ssl_err("pts %s: --rwmixread is an option of the dirth test only", c->def->name);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->def->kind != PTS_DEMAND && (c->given & (1u << P_TC_LIST | 1u << P_QD_LIST))) {
		ssl_err("pts %s: --tc-list and --qd-list are options of the ecw and dirth "
			"tests only", c->def->name);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->def->kind == PTS_DEMAND && (c->given & (1u << P_THREADS | 1u << P_IODEPTH))) {
		ssl_err("pts %s: runs every load of --tc-list x --qd-list: --threads and "
			"--iodepth do not apply", c->def->name);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->def->kind == PTS_DEMAND) {
		if (!c->ntc) {
			memcpy(c->tcs, demand_loads, sizeof(demand_loads));
			c->ntc = ARRAY_SIZE(demand_loads);
		}
		if (!c->nqd) {
			memcpy(c->qds, demand_loads, sizeof(demand_loads));
			c->nqd = ARRAY_SIZE(demand_loads);
		}
		if (!(c->given & (1u << P_RWMIXREAD)))
			c->mix = c->def->mix[0];
		/* the tracking load, the pre-writes' and the preconditioning's */
		c->threads = c->tcs[0];
		c->iodepth = c->qds[0];
	}
	if ((c->def->kind != PTS_WSAT && (c->given & (1u << P_WRITE_LIMIT))) ||
	    (c->def->kind != PTS_WSAT && c->def->kind != PTS_XSR &&
	     (c->given & (1u << P_DURATION)))) {
		ssl_err("pts %s: --duration (wsat, xsr) and --write-limit (wsat) are not "
			"options of this test", c->def->name);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->def->kind != PTS_HIR && (c->given & (1u << P_ACCESS_TIME | 1u << P_CYCLES))) {
		ssl_err("pts %s: --access-time and --cycles are options of the hir test only",
			c->def->name);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if ((c->def->kind == PTS_WSAT || c->def->kind == PTS_XSR) &&
	    (c->given & (1u << P_MAX_ROUNDS))) {
		ssl_err("pts %s: runs for a set time, not in rounds: --max-rounds does not "
			"apply (see --duration)", c->def->name);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->def->kind == PTS_WSAT && c->duration_ms < c->point_ms) {
		ssl_err("pts wsat: --duration=%llums is shorter than one sample (--point-time "
			"%llums)", (unsigned long long)c->duration_ms,
			(unsigned long long)c->point_ms);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->def->kind == PTS_XSR && c->duration_ms * 3 / 4 < c->point_ms) {
		ssl_err("pts xsr: --duration=%llums leaves the RND segment (3/4 of it) shorter "
			"than one sample (--point-time %llums)", (unsigned long long)c->duration_ms,
			(unsigned long long)c->point_ms);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->def->kind == PTS_DEMAND && demand_mem_check(c)) {
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->def->kind == PTS_HIR && hir_mem_check(c)) {
		st = PTS_EXIT_USAGE;
		goto out;
	}
	c->nbs = c->def->nbs;
	if (c->bs[0]) {
		c->track_bs = c->bs[0];
	} else {
		memcpy(c->bs, c->def->bs, sizeof(c->bs));
		c->track_bs = c->def->track_bs;
	}
	c->points = c->def->kind == PTS_DEMAND ? c->ntc * c->nqd : c->nbs * c->def->nmix;
	fd = pts_gate(c);
	if (fd < 0) {
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (active_range(c)) {
		close(fd);
		st = PTS_EXIT_USAGE;
		goto out;
	}
	if (c->def->kind == PTS_WSAT && c->write_limit * c->active_bytes < c->bs[0]) {
		ssl_err("pts wsat: --write-limit=%g of %llu bytes is less than one write",
			c->write_limit, (unsigned long long)c->active_bytes);
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
		json_object *ev = json_object_new_object();

		jset(ev, "at", jnow());
		jset(ev, "after_round", json_object_new_int((int)rounds_done(c)));
		if (c->def->kind != PTS_MATRIX) {
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
	} else {
		if (make_dirs(c)) {
			close(fd);
			st = PTS_EXIT_USAGE;
			goto out;
		}
		new_doc(c);
		scale_deviations(c);
		if (pts_save(c)) {
			close(fd);
			st = PTS_EXIT_FAILED;
			goto out;
		}
	}
	ssl_run_catch_signals();

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

	if (c->def->kind == PTS_XSR) {
		st = do_xsr(c);
		if (st)
			goto interrupted;
		xsr_results(c);
		st = finish(c, "complete", 0);
		if (st == PTS_EXIT_FAILED)
			goto out;
		goto report;
	}
	if (c->def->kind == PTS_HIR) {
		st = do_hir(c);
		if (st)
			goto interrupted;
		hir_results(c);
		st = finish(c, "complete", json_object_get_boolean(jget(jget(c->doc,
			"steady_state"), "reached")) ? 0 : PTS_EXIT_NOT_STEADY);
		if (st == PTS_EXIT_FAILED)
			goto out;
		goto report;
	}
	if (c->def->kind == PTS_DEMAND) {
		st = do_demand(c);
		if (st)
			goto interrupted;
		st = finish(c, "complete", json_object_get_boolean(jget(jget(c->doc,
			"steady_state"), "reached")) ? 0 : PTS_EXIT_NOT_STEADY);
		if (st == PTS_EXIT_FAILED)
			goto out;
		goto report;
	}
	if (c->def->kind == PTS_WSAT) {
		st = do_wsat(c);
		if (st)
			goto interrupted;
		wsat_results(c);
		st = finish(c, "complete", 0);
		if (st == PTS_EXIT_FAILED)
			goto out;
		goto report;
	}
	ss = NULL;
	for (round = rounds_done(c) + 1; ; round++) {
		if (rounds_done(c) >= SSL_SS_WINDOW && check_steady(c))
			break;
		if (ssl_run_sig) {
			st = SSL_EXIT_SIGNAL(ssl_run_sig);
			goto interrupted;
		}
		st = do_round(c, round);
		if (st)
			goto interrupted;
		check_steady(c);
		if (pts_save(c)) {
			st = PTS_EXIT_FAILED;
			goto out;
		}
	}
	ss = jget(c->doc, "steady_state");
	do_results(c);
	{
		json_object *wd = json_object_new_object(), *rs = jget(c->doc, "rounds");
		int64_t ms = 0;
		size_t i;

		for (i = 0; i < json_object_array_length(rs); i++)
			ms += (int64_t)jnum(json_object_array_get_idx(rs, i), "duration_ms", 0);
		jset(wd, "rounds", json_object_new_int((int)json_object_array_length(rs)));
		jset(wd, "duration_ms", json_object_new_int64(ms));
		jset(c->doc, "wdpc", wd);
	}
	st = finish(c, "complete", json_object_get_boolean(jget(ss, "reached")) ? 0 :
		    PTS_EXIT_NOT_STEADY);
	if (st == PTS_EXIT_FAILED)
		goto out;
report:
	if (!c->no_report && ssl_render_report(c->dir, 1))
		ssl_err("pts: the report was not rendered; the data is in %s/%s (render it "
			"with ssdload report %s)", c->dir, PTS_JSON, c->dir);
	print_summary(c);
	goto out;

interrupted:
	if (st > 128 || ssl_run_sig) {
		st = finish(c, "interrupted", st > 128 ? st : SSL_EXIT_SIGNAL(ssl_run_sig));
		goto out;
	}
failed:
	finish(c, "failed", st);
out:
	json_object_put(c->doc);
	free_argv(rargv, rargv ? c->argc : 0);
	return st;
}
