// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload scale: how a workload scales over drives and RAID arrays.
 *
 * The workload runs on the first drive alone, then on 2, 4, ... of the
 * drives at once (one job per drive, started together as one group, the
 * figures summed), then on each md RAID array: arrays the command builds
 * from the drives with mdadm (--raid=0,10), or given ones (--targets).
 * Each point is one depth per drive; an array of M drives gets M times
 * the workers, so that every drive behind it sees the same depth.  The
 * latency percentiles of a point come from the runs' histograms merged
 * (json+ bins), not from averaging percentiles.  The scaling factor is a
 * point's IOPS over the single drive's at the same depth.  DIR/scale.json,
 * the runs' JSON (DIR/runs/) and the report rendered from it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/precond.h"
#include "device/device.h"
#include "fio/fioopts.h"
#include "device/guard.h"
#include "core/options.h"
#include "fio/report.h"
#include "methods/method.h"
#include "methods/runner.h"
#include "core/util.h"
#include "uapi/ssdload.h"

#define SCALE_FORMAT		"ssdload-scale"
#define SCALE_FORMAT_VERSION	1
#define SCALE_JSON		"scale.json"
#define SCALE_MAX_DEVS		16
#define SCALE_MAX_TARGETS	(2 * SCALE_MAX_DEVS + 8)
#define SCALE_MAX_QDS		16
#define SCALE_MAX_PER_WORKER	64	/* AnandTech's rule, as sweep's auto */
#define SCALE_ARM_TIMEOUT_MS	120000

#define SCALE_EXIT_FAILED	1
#define SCALE_EXIT_USAGE	2

extern char **environ;

static const char *const scale_usage[] = {
	"usage: ssdload scale --devices=DEV,DEV[,...] [options]",
	"",
	"How a workload scales over drives and RAID arrays: it runs on the first",
	"drive alone, on 2, 4, ... of the drives at once (one job per drive, started",
	"together, the figures summed), then on md RAID arrays: built from the drives",
	"with mdadm (--raid=0,10) or given (--targets).  Every drive sees the same",
	"depth: an array of M drives gets M times the workers.  The scaling factor is",
	"a point's IOPS over the single drive's at the same depth.  Results go to",
	"DIR/scale.json, the runs' JSON to DIR/runs/ and the report to DIR/report.html.",
	"",
	"  --devices=DEV,...     the drives, 1 to 16 (each used alone and together)",
	"  --counts=N,...        drive counts to run (default 1,2,4,... up to all)",
	"  --raid=L,...          build md arrays of levels 0 and/or 10 from the first",
	"                        2, 4, ... drives (RAID-10: 4 or more) with mdadm,",
	"                        run on each and take it down again; needs",
	"                        --allow_write (the drives' data is destroyed)",
	"  --raid-chunk=SIZE     the arrays' chunk (default 512k)",
	"  --force               --raid, --precondition: write even drives that hold a",
	"                        filesystem, partition table, LVM, RAID or swap signature",
	"  --dry-run             print the drives (--raid, --precondition: their",
	"                        identity and signatures, what would be written) and",
	"                        the arrays it would build, then exit 0 having run",
	"                        and written nothing",
	"  --targets=DEV,...     existing arrays (or other devices) to run on too;",
	"                        their members (holders in sysfs) set their depth",
	"  --qd-list=N,...       depths per drive (default: the profile's",
	"                        numjobs x iodepth, else 32); over 64 splits into",
	"                        workers of at most 64",
	SSL_METHOD_USAGE_TIMES("1m", "3m"),
	SSL_PRECOND_USAGE,
	"                        (each drive of --devices in turn, before any point)",
	SSL_METHOD_USAGE_OUTPUT("scale"),
	"Passed to the runs as they are (see ssdload run --help): --rw (default",
	"randread), --bs (default 4k), --bssplit, --rwmixread, --rwmixwrite, --size,",
	"--offset, --randseed, --random_distribution, --cpus_allowed, --hipri,",
	"--allow_write, --profile=NAME (a shipped workload, see ssdload profiles)",
	"and --section=NAME (its section).",
	"",
	"Exit status: 0 done, 1 a run failed, 2 bad usage or a refusal (nothing",
	"ran), 128+N after signal N (what was measured is kept).",
	NULL,
};

enum {
	C_DEVICES, C_COUNTS, C_RAID, C_CHUNK, C_TARGETS, C_QD_LIST, C_FORCE, C_DRY_RUN,
};

static const struct ssl_opt scale_opts[] = {
	{ "devices",		SSL_ARG_REQUIRED, C_DEVICES },
	{ "counts",		SSL_ARG_REQUIRED, C_COUNTS },
	{ "raid",		SSL_ARG_REQUIRED, C_RAID },
	{ "raid-chunk",		SSL_ARG_REQUIRED, C_CHUNK },
	{ "targets",		SSL_ARG_REQUIRED, C_TARGETS },
	{ "qd-list",		SSL_ARG_REQUIRED, C_QD_LIST },
	{ "force",		SSL_ARG_FLAG, C_FORCE },
	{ "dry-run",		SSL_ARG_FLAG, C_DRY_RUN },
	SSL_METHOD_OPTS,
	{ NULL, 0, 0 },
};

enum target_kind { T_DRIVES, T_RAID, T_GIVEN };

/* What one row of the table runs on. */
struct scale_target {
	enum target_kind kind;
	char label[64];			/* "1 drive", "RAID-0 x4", "/dev/md0" */
	char path[256];			/* the array (T_RAID: once built; T_GIVEN) */
	unsigned int ndrives;		/* drives it spans (members of an array) */
	unsigned int level;		/* T_RAID: 0 or 10 */
	char level_name[64];		/* "raid0", "drives", from sysfs for T_GIVEN */
	char md_level[64];		/* T_RAID: md's level once built (sysfs) */
	unsigned int md_members;	/* and its members */
};

struct scale_ctx {
	struct ssl_method m;
	char devbuf[4096], tgtbuf[4096];
	const char *dev[SCALE_MAX_DEVS];
	unsigned int ndev;
	unsigned int counts[SCALE_MAX_DEVS], ncounts;
	unsigned int levels[2], nlevels;
	uint64_t chunk;
	const char *given[SCALE_MAX_DEVS];
	unsigned int ngiven;
	unsigned int qds[SCALE_MAX_QDS], nqd;
	int force, dry_run;		/* --force, --dry-run */
	struct scale_target t[SCALE_MAX_TARGETS];
	unsigned int nt;
	json_object *doc;
	unsigned int npoints, done;
};

/* Split @val at commas into @buf (kept) and @out: 0, or -1 after a message. */
static int dev_list(const char *name, const char *val, char *buf, size_t len,
		    const char **out, unsigned int *n)
{
	char *tok, *save = NULL;
	unsigned int i;

	if (strlen(val) >= len) {
		ssl_err("scale: --%s: too long", name);
		return -1;
	}
	strcpy(buf, val);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (tok[0] != '/') {
			ssl_err("scale: --%s=%s: '%s' is not an absolute device path", name, val,
				tok);
			return -1;
		}
		if (*n == SCALE_MAX_DEVS) {
			ssl_err("scale: --%s=%s: at most %d devices", name, val, SCALE_MAX_DEVS);
			return -1;
		}
		for (i = 0; i < *n; i++)
			if (!strcmp(out[i], tok)) {
				ssl_err("scale: --%s=%s: %s is given twice", name, val, tok);
				return -1;
			}
		out[(*n)++] = tok;
	}
	if (!*n) {
		ssl_err("scale: --%s=%s: give one device or more", name, val);
		return -1;
	}
	return 0;
}

static int raid_opt(struct scale_ctx *c, const char *val)
{
	char buf[64], *tok, *save = NULL;

	if (strlen(val) >= sizeof(buf)) {
		ssl_err("scale: --raid=%s: too long", val);
		return -1;
	}
	strcpy(buf, val);
	c->nlevels = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned int l;

		if (!strcmp(tok, "0") || !strcmp(tok, "raid0")) {
			l = 0;
		} else if (!strcmp(tok, "10") || !strcmp(tok, "raid10")) {
			l = 10;
		} else {
			ssl_err("scale: --raid=%s: '%s' is not a RAID level scale builds "
				"(0 or 10)", val, tok);
			return -1;
		}
		if (c->nlevels == 2 || (c->nlevels && c->levels[0] == l)) {
			ssl_err("scale: --raid=%s: each level once", val);
			return -1;
		}
		c->levels[c->nlevels++] = l;
	}
	if (!c->nlevels) {
		ssl_err("scale: --raid=%s: give 0, 10 or 0,10", val);
		return -1;
	}
	return 0;
}

static int scale_parse(void *ctx, int argc, const char **argv)
{
	struct scale_ctx *c = ctx;
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, r;

	while ((r = ssl_method_next(&c->m, argc, argv, &i, scale_opts, scale_usage, &opt,
				    &val)) == 1) {
		switch (opt->id) {
		case C_DEVICES:
			if (dev_list(opt->name, val, c->devbuf, sizeof(c->devbuf), c->dev,
				     &c->ndev))
				return -1;
			break;
		case C_COUNTS:
			if (ssl_uint_list("scale", opt->name, val, SCALE_MAX_DEVS,
					  SCALE_MAX_DEVS, 1, c->counts, &c->ncounts))
				return -1;
			break;
		case C_RAID:
			if (raid_opt(c, val))
				return -1;
			break;
		case C_CHUNK:
			if (ssl_parse_size(val, &c->chunk) || c->chunk < 4096 ||
			    c->chunk > (64u << 20) || (c->chunk & (c->chunk - 1))) {
				ssl_err("scale: --raid-chunk=%s: a power of two from 4k to 64m", val);
				return -1;
			}
			break;
		case C_TARGETS:
			if (dev_list(opt->name, val, c->tgtbuf, sizeof(c->tgtbuf), c->given,
				     &c->ngiven))
				return -1;
			break;
		case C_QD_LIST:
			if (ssl_uint_list("scale", opt->name, val, SCALE_MAX_PER_WORKER * 64,
					  SCALE_MAX_QDS, 1, c->qds, &c->nqd))
				return -1;
			break;
		case C_FORCE:
		case C_DRY_RUN:
			if (val && ssl_parse_bool(val, opt->id == C_FORCE ? &c->force :
						  &c->dry_run)) {
				ssl_err("scale: --%s=%s: must be 0 or 1", opt->name, val);
				return -1;
			}
			if (!val)
				*(opt->id == C_FORCE ? &c->force : &c->dry_run) = 1;
			break;
		}
	}
	if (r)
		return r < 0 ? -1 : 1;
	if (c->m.filename) {
		ssl_err("scale: give the drives with --devices=DEV,DEV,... (not --filename)");
		return -1;
	}
	if (!c->ndev) {
		ssl_err("scale: --devices=DEV,DEV,... is required");
		return -1;
	}
	c->m.filename = c->dev[0];
	if (ssl_method_check(&c->m))
		return -1;
	if (c->nlevels && !c->m.pass.allow_write) {
		ssl_err("scale: --raid builds md arrays on %s...: their data is destroyed; "
			"give --allow_write", c->dev[0]);
		return -1;
	}
	return 0;
}

/* ---- the plan ---- */

/* The sysfs directory of block device @path (malloc'ed), or NULL. */
static char *sysfs_dir(const char *path)
{
	char p[64];
	struct stat st;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return NULL;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	return realpath(p, NULL);
}

/*
 * The members of array @path (its slaves in sysfs): their number, 0 if
 * none; @level gets md's level ("raid10"), else "device".  With @drives,
 * 1 when one of them is a member of @path.
 */
static unsigned int sysfs_members(const char *path, char *level, size_t len,
				  const char *const *drives, unsigned int ndrives, int *held)
{
	char p[PATH_MAX], buf[64];
	char *rp = sysfs_dir(path), *dp;
	const char *base;
	struct dirent *e;
	unsigned int n = 0, i;
	FILE *f;
	DIR *d;

	snprintf(level, len, "device");
	*held = 0;
	if (!rp)
		return 0;
	snprintf(p, sizeof(p), "%s/md/level", rp);
	f = fopen(p, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = 0;
			snprintf(level, len, "%s", buf);
		}
		fclose(f);
	}
	snprintf(p, sizeof(p), "%s/slaves", rp);
	free(rp);
	d = opendir(p);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		for (i = 0; i < ndrives; i++) {
			dp = sysfs_dir(drives[i]);
			base = dp ? strrchr(dp, '/') : NULL;
			if (base && !strcmp(base + 1, e->d_name))
				*held = 1;
			free(dp);
		}
	}
	closedir(d);
	return n;
}

static int add_target(struct scale_ctx *c, enum target_kind kind, unsigned int ndrives,
		      unsigned int level, const char *path)
{
	struct scale_target *t = &c->t[c->nt++];
	int held;

	t->kind = kind;
	t->ndrives = ndrives;
	t->level = level;
	if (kind == T_DRIVES) {
		snprintf(t->label, sizeof(t->label), "%u drive%s", ndrives,
			 ndrives == 1 ? "" : "s");
		snprintf(t->level_name, sizeof(t->level_name), "drives");
	} else if (kind == T_RAID) {
		snprintf(t->label, sizeof(t->label), "RAID-%u x%u", level, ndrives);
		snprintf(t->level_name, sizeof(t->level_name), "raid%u", level);
	} else {
		snprintf(t->path, sizeof(t->path), "%s", path);
		t->ndrives = sysfs_members(path, t->level_name, sizeof(t->level_name), c->dev,
					   c->ndev, &held);
		if (held) {
			ssl_err("scale: --targets: %s is built on drives of --devices: they "
				"cannot be opened while it holds them", path);
			return -1;
		}
		snprintf(t->label, sizeof(t->label), "%s", path);
		if (!t->ndrives)
			t->ndrives = 1;
	}
	return 0;
}

static int plan(struct scale_ctx *c)
{
	unsigned int i, k, n;

	if (!c->ncounts) {
		for (n = 1; n < c->ndev; n *= 2)
			c->counts[c->ncounts++] = n;
		c->counts[c->ncounts++] = c->ndev;
	}
	for (i = 0; i < c->ncounts; i++)
		if (c->counts[i] > c->ndev) {
			ssl_err("scale: --counts: %u drives, but --devices has %u", c->counts[i],
				c->ndev);
			return -1;
		}
	for (i = 0; i < c->ncounts; i++)
		add_target(c, T_DRIVES, c->counts[i], 0, NULL);
	for (k = 0; k < c->nlevels; k++) {
		unsigned int before = c->nt;

		for (i = 0; i < c->ncounts; i++) {
			n = c->counts[i];
			if (n < 2 || (c->levels[k] == 10 && (n < 4 || n % 2)))
				continue;
			add_target(c, T_RAID, n, c->levels[k], NULL);
		}
		if (c->nt == before) {
			ssl_err("scale: --raid=%u: no drive count of --counts fits it (RAID-0: 2 "
				"or more drives, RAID-10: an even number, 4 or more)", c->levels[k]);
			return -1;
		}
	}
	for (i = 0; i < c->ngiven; i++) {
		for (k = 0; k < c->ndev; k++)
			if (!strcmp(c->given[i], c->dev[k])) {
				ssl_err("scale: --targets: %s is one of --devices", c->given[i]);
				return -1;
			}
		if (add_target(c, T_GIVEN, 0, 0, c->given[i]))
			return -1;
	}
	if (!c->nqd) {
		unsigned int qd = 32;

		if (c->m.pass.prof_iodepth)
			qd = c->m.pass.prof_iodepth * (c->m.pass.prof_numjobs ?
						       c->m.pass.prof_numjobs : 1);
		c->qds[c->nqd++] = qd;
	}
	for (i = 0; i < c->nqd; i++)
		if (c->qds[i] > SCALE_MAX_PER_WORKER &&
		    c->qds[i] % ((c->qds[i] + SCALE_MAX_PER_WORKER - 1) / SCALE_MAX_PER_WORKER)) {
			ssl_err("scale: QD %u does not split evenly into workers of at most %d",
				c->qds[i], SCALE_MAX_PER_WORKER);
			return -1;
		}
	c->npoints = c->nt * c->nqd;
	return 0;
}

/* Workers and depth of one drive's share at total depth @qd per drive. */
static void split_qd(unsigned int qd, unsigned int *workers, unsigned int *depth)
{
	*workers = (qd + SCALE_MAX_PER_WORKER - 1) / SCALE_MAX_PER_WORKER;
	*depth = qd / *workers;
}

/* ---- mdadm ---- */

/* Run mdadm with @args (NULL-terminated), its output on our stderr: its status. */
static int mdadm(const char *const *args)
{
	posix_spawn_file_actions_t fa;
	int status, r;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	fflush(stdout);
	fflush(stderr);
	r = posix_spawnp(&pid, "mdadm", &fa, NULL, (char *const *)args, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r) {
		ssl_err("scale: cannot run mdadm: %s (Debian: apt install mdadm)", strerror(r));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A free /dev/mdN for the array, into t->path. */
static int free_md(struct scale_target *t)
{
	char p[64];
	int n;

	for (n = 127; n >= 100; n--) {
		snprintf(p, sizeof(p), "/sys/block/md%d", n);
		if (access(p, F_OK)) {
			snprintf(t->path, sizeof(t->path), "/dev/md%d", n);
			return 0;
		}
	}
	ssl_err("scale: no free md device between md100 and md127");
	return -1;
}

static void raid_down(struct scale_ctx *c, struct scale_target *t)
{
	const char *args[SCALE_MAX_DEVS + 4] = { "mdadm", "--stop", t->path, NULL };
	unsigned int i;

	if (mdadm(args))
		ssl_err("scale: mdadm --stop %s failed (above)", t->path);
	args[1] = "--zero-superblock";
	for (i = 0; i < t->ndrives; i++)
		args[2 + i] = c->dev[i];
	args[2 + i] = NULL;
	if (mdadm(args))
		ssl_err("scale: mdadm --zero-superblock failed (above)");
}

static int raid_up(struct scale_ctx *c, struct scale_target *t)
{
	char level[32], ndev[32], chunk[48];
	const char *args[SCALE_MAX_DEVS + 16];
	unsigned int i, n = 0;
	int held;

	if (free_md(t))
		return -1;
	snprintf(level, sizeof(level), "--level=%u", t->level);
	snprintf(ndev, sizeof(ndev), "--raid-devices=%u", t->ndrives);
	snprintf(chunk, sizeof(chunk), "--chunk=%" PRIu64 "K", c->chunk >> 10);
	args[n++] = "mdadm";
	args[n++] = "--create";
	args[n++] = t->path;
	/*
	 * no --run: mdadm asks (and, reading /dev/null, stops) on a signature;
	 * --force, after the guard named them, is the user's yes
	 */
	if (c->force)
		args[n++] = "--run";
	args[n++] = "--quiet";
	args[n++] = "--metadata=1.2";
	args[n++] = level;
	args[n++] = ndev;
	args[n++] = chunk;
	/* no initial resync: it would run under the measurement */
	if (t->level)
		args[n++] = "--assume-clean";
	for (i = 0; i < t->ndrives; i++)
		args[n++] = c->dev[i];
	args[n] = NULL;
	if (mdadm(args)) {
		ssl_err("scale: mdadm --create %s (RAID-%u of %u drives) failed (above)",
			t->path, t->level, t->ndrives);
		return -1;
	}
	for (i = 0; i < 100 && access(t->path, F_OK); i++)
		usleep(20000);
	/* what the kernel built, for the record */
	t->md_members = sysfs_members(t->path, t->md_level, sizeof(t->md_level), NULL, 0,
				      &held);
	return 0;
}

/* ---- one point ---- */

/* The run of @dev for a point at depth @qd per drive over @mult drives. */
static void run_argv(struct scale_ctx *c, struct ssl_argv *a, const char *name,
		     const char *dev, unsigned int qd, unsigned int mult, bool first,
		     bool parse_only)
{
	unsigned int w, d;

	split_qd(qd, &w, &d);
	c->m.filename = dev;
	ssl_method_argv(&c->m, a, name);
	c->m.filename = c->dev[0];
	av_addf(a, "--numjobs=%u", w * mult);
	av_addf(a, "--iodepth=%u", d);
	av_add(a, "--group_reporting");
	av_addf(a, "--ramp_time=%" PRIu64 "ms", c->m.ramp_ms);
	av_addf(a, "--runtime=%" PRIu64 "ms", c->m.runtime_ms);
	av_add(a, "--percentile_list=50:99:99.9");
	av_add(a, "--output-format=json+");
	av_addf(a, "--eta=%s", first ? c->m.eta : "never");
	if (parse_only)
		av_add(a, "--parse-only");
}

/*
 * One direction of a point, summed over the runs' jobs @job[0..@n-1]:
 * NULL if none did I/O in it.  *@ios, *@iops, *@bw and *@lsum add up.
 */
static json_object *point_dir(json_object **job, unsigned int n, const char *d,
			      json_object *all_bins, double *ios, double *iops, double *bw,
			      double *lsum, double *lmax)
{
	double dios = 0, diops = 0, dbw = 0, dsum = 0, dmax = 0;
	json_object *o, *bins = json_object_new_object(), *per = json_object_new_array();
	unsigned int i;

	for (i = 0; i < n; i++) {
		json_object *x = jget(job[i], d), *clat = jget(x, "clat_ns");
		double k = jnum(x, "total_ios", 0);

		json_object_array_add(per, json_object_new_double(jnum(x, "iops", 0)));
		if (k <= 0)
			continue;
		dios += k;
		diops += jnum(x, "iops", 0);
		dbw += jnum(x, "bw_bytes", 0);
		dsum += jnum(clat, "mean", 0) * k;
		if (jnum(clat, "max", 0) > dmax)
			dmax = jnum(clat, "max", 0);
		ssl_bins_merge(bins, clat);
		ssl_bins_merge(all_bins, clat);
	}
	if (dios <= 0) {
		json_object_put(bins);
		json_object_put(per);
		return NULL;
	}
	o = json_object_new_object();
	jset(o, "ios", json_object_new_int64((int64_t)dios));
	jset(o, "iops", json_object_new_double(diops));
	jset(o, "bw_bytes", json_object_new_double(dbw));
	jset(o, "lat_mean_ns", json_object_new_double(dsum / dios));
	jset(o, "lat_max_ns", json_object_new_int64((int64_t)dmax));
	jset(o, "lat_p50_ns", ssl_bins_pct(bins, 50));
	jset(o, "lat_p99_ns", ssl_bins_pct(bins, 99));
	jset(o, "lat_p99_9_ns", ssl_bins_pct(bins, 99.9));
	jset(o, "iops_per_run", per);
	json_object_put(bins);
	*ios += dios;
	*iops += diops;
	*bw += dbw;
	*lsum += dsum;
	if (dmax > *lmax)
		*lmax = dmax;
	return o;
}

/* The point's figures from its runs' JSON; the point object. */
static json_object *point_result(const struct scale_target *t, unsigned int qd,
				 char (*files)[PATH_MAX], const char *const *rel,
				 unsigned int n, const int *st)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	json_object *o = json_object_new_object(), *run[SCALE_MAX_DEVS] = { 0 };
	json_object *job[SCALE_MAX_DEVS], *runs = json_object_new_array();
	json_object *bins = json_object_new_object(), *x;
	double ios = 0, iops = 0, bw = 0, lsum = 0, lmax = 0;
	unsigned int i, ok = 0, w, d;
	size_t k;

	split_qd(qd, &w, &d);
	for (i = 0; i < n; i++) {
		json_object *r = json_object_new_object();

		run[i] = ssl_json_read(files[i], SSL_JSON_MAX_BYTES, NULL);
		job[i] = run[i] ? run_job0(run[i]) : NULL;
		ok += !!job[i];
		jset(r, "file", json_object_new_string(rel[i]));
		jset(r, "exit_status", json_object_new_int(st[i]));
		json_object_array_add(runs, r);
	}
	jset(o, "target", json_object_new_string(t->label));
	jset(o, "kind", json_object_new_string(t->kind == T_DRIVES ? "drives" :
					       t->kind == T_RAID ? "raid" : "target"));
	jset(o, "drives", json_object_new_int((int)t->ndrives));
	jset(o, "qd_per_drive", json_object_new_int((int)qd));
	jset(o, "qd_total", json_object_new_int((int)(qd * t->ndrives)));
	jset(o, "workers_per_drive", json_object_new_int((int)w));
	jset(o, "iodepth", json_object_new_int((int)d));
	jset(o, "runs", runs);
	if (t->kind == T_RAID) {
		jset(o, "md_device", json_object_new_string(t->path));
		jset(o, "md_level", json_object_new_string(t->md_level));
		jset(o, "md_members", json_object_new_int((int)t->md_members));
	}
	if (ok == n) {
		for (k = 0; k < ARRAY_SIZE(dirs); k++) {
			x = point_dir(job, n, dirs[k], bins, &ios, &iops, &bw, &lsum, &lmax);
			if (x)
				jset(o, dirs[k], x);
		}
	}
	jset(o, "complete", json_object_new_boolean(ok == n && ios > 0));
	jset(o, "iops", ios > 0 ? json_object_new_double(iops) : NULL);
	jset(o, "bw_bytes", ios > 0 ? json_object_new_double(bw) : NULL);
	jset(o, "lat_mean_ns", ios > 0 ? json_object_new_double(lsum / ios) : NULL);
	jset(o, "lat_max_ns", ios > 0 ? json_object_new_int64((int64_t)lmax) : NULL);
	jset(o, "lat_p99_ns", ssl_bins_pct(bins, 99));
	jset(o, "lat_p99_9_ns", ssl_bins_pct(bins, 99.9));
	json_object_put(bins);
	for (i = 0; i < n; i++)
		if (run[i])
			json_object_put(run[i]);
	return o;
}

/* Run target @t at depth @qd: its point, or NULL when nothing could run. */
static json_object *run_point(struct scale_ctx *c, const struct scale_target *t,
			      unsigned int qd, unsigned int idx, int *worst)
{
	struct ssl_argv a[SCALE_MAX_DEVS];
	char files[SCALE_MAX_DEVS][PATH_MAX], rel[SCALE_MAX_DEVS][64];
	char names[SCALE_MAX_DEVS][64], group[48];
	const char *outs[SCALE_MAX_DEVS], *jobs[SCALE_MAX_DEVS], *rels[SCALE_MAX_DEVS];
	unsigned int n = t->kind == T_DRIVES ? t->ndrives : 1, i;
	int st[SCALE_MAX_DEVS], r;
	json_object *o;

	memset(a, 0, sizeof(a));
	snprintf(group, sizeof(group), "scale-%ld-%u", (long)getpid(), idx);
	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "%s-%u", group, i);
		snprintf(rel[i], sizeof(rel[i]), "runs/p%02u-d%u.json", idx, i);
		if (ssl_method_path(&c->m, files[i], sizeof(files[i]), rel[i]))
			return NULL;
		run_argv(c, &a[i], names[i], t->kind == T_DRIVES ? c->dev[i] : t->path, qd,
			 t->kind == T_DRIVES ? 1 : t->ndrives, i == 0, false);
		outs[i] = files[i];
		jobs[i] = names[i];
		rels[i] = rel[i];
	}
	if (strcmp(c->m.eta, "never"))
		fprintf(stderr, "scale: point %u/%u: %s, QD %u per drive\n", c->done + 1,
			c->npoints, t->label, qd);
	r = ssl_run_group(a, outs, jobs, n, group, SCALE_ARM_TIMEOUT_MS, st);
	for (i = 0; i < n; i++) {
		av_free(&a[i]);
		if (st[i] && *worst == 0)
			*worst = st[i];
	}
	if (r && !ssl_run_sig) {
		*worst = SCALE_EXIT_FAILED;
		return NULL;
	}
	o = point_result(t, qd, files, rels, n, st);
	return o;
}

/* ---- scale.json ---- */

/* Each point's scaling: its IOPS over the single drive's (the first count). */
static void fill_scaling(struct scale_ctx *c)
{
	json_object *pts = jget(c->doc, "points");
	size_t n = json_object_array_length(pts), i, k;

	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i), *base = NULL;
		double f;

		for (k = 0; k < n; k++) {
			json_object *b = json_object_array_get_idx(pts, k);

			if (!strcmp(jstring(b, "target"), c->t[0].label) &&
			    jnum(b, "qd_per_drive", 0) == jnum(p, "qd_per_drive", 0))
				base = b;
		}
		if (!base || !jget(base, "iops") || !jget(p, "iops") ||
		    jnum(base, "iops", 0) <= 0) {
			jset(p, "scaling", NULL);
			jset(p, "efficiency", NULL);
			continue;
		}
		f = jnum(p, "iops", 0) / jnum(base, "iops", 0);
		jset(p, "scaling", json_object_new_double(f));
		jset(p, "efficiency", json_object_new_double(f * c->t[0].ndrives /
							      jnum(p, "drives", 1)));
	}
}

static json_object *dev_json(const char *path, const struct ssl_dev *d)
{
	json_object *o = json_object_new_object();

	jset(o, "path", json_object_new_string(path));
	jset(o, "model", jstr_or_null(d->model));
	jset(o, "serial", jstr_or_null(d->serial));
	jset(o, "firmware", jstr_or_null(d->firmware));
	jset(o, "capacity_bytes", json_object_new_int64((int64_t)d->capacity_bytes));
	return o;
}

static int new_doc(struct scale_ctx *c)
{
	json_object *s = json_object_new_object(), *devs = json_object_new_array();
	json_object *tg = json_object_new_array(), *q = json_object_new_array();
	struct ssl_dev d;
	unsigned int i;

	for (i = 0; i < c->ndev; i++) {
		memset(&d, 0, sizeof(d));
		if (ssl_dev_probe(c->dev[i], &d)) {
			json_object_put(s);
			json_object_put(devs);
			json_object_put(tg);
			json_object_put(q);
			return -1;
		}
		if (!i)
			c->doc = ssl_method_doc(&c->m, SCALE_FORMAT, SCALE_FORMAT_VERSION, &d);
		json_object_array_add(devs, dev_json(c->dev[i], &d));
	}
	for (i = 0; i < c->nt; i++) {
		json_object *o = json_object_new_object();

		jset(o, "label", json_object_new_string(c->t[i].label));
		jset(o, "kind", json_object_new_string(c->t[i].kind == T_DRIVES ? "drives" :
						       c->t[i].kind == T_RAID ? "raid" :
						       "target"));
		jset(o, "drives", json_object_new_int((int)c->t[i].ndrives));
		jset(o, "level", json_object_new_string(c->t[i].level_name));
		jset(o, "path", c->t[i].kind == T_RAID ? NULL :
			 c->t[i].kind == T_GIVEN ? json_object_new_string(c->t[i].path) : NULL);
		json_object_array_add(tg, o);
	}
	for (i = 0; i < c->nqd; i++)
		json_object_array_add(q, json_object_new_int((int)c->qds[i]));
	jset(c->doc, "devices", devs);
	jset(s, "qd_list", q);
	jset(s, "ramp_ms", json_object_new_int64((int64_t)c->m.ramp_ms));
	jset(s, "runtime_ms", json_object_new_int64((int64_t)c->m.runtime_ms));
	jset(s, "raid_chunk_bytes", c->nlevels ? json_object_new_int64((int64_t)c->chunk)
					       : NULL);
	jset(s, "baseline", json_object_new_string(c->t[0].label));
	jset(c->doc, "settings", s);
	jset(c->doc, "targets", tg);
	jset(c->doc, "points", json_object_new_array());
	return 0;
}

/* settings.rw, bs, rwmixread: what the first run ran with */
static void settings_from_run(struct scale_ctx *c)
{
	json_object *s = jget(c->doc, "settings"), *run, *opts;
	char path[PATH_MAX];
	const char *rw, *v;
	uint64_t u;

	if (ssl_method_path(&c->m, path, sizeof(path), "runs/p00-d0.json"))
		return;
	run = ssl_json_read(path, SSL_JSON_MAX_BYTES, NULL);
	opts = jget(run_job0(run), "job options");
	rw = jstring(opts, "rw");
	jset(s, "rw", json_object_new_string(*rw ? rw : "unknown"));
	v = jstring(opts, "bs");
	jset(s, "bs", *v && !ssl_parse_size(v, &u) ? json_object_new_int64((int64_t)u) : NULL);
	v = jstring(opts, "rwmixread");
	jset(s, "rwmixread", strstr(rw, "rw") && *v && !ssl_parse_u64(v, &u) && u <= 100 ?
		 json_object_new_int((int)u) : NULL);
	if (run)
		json_object_put(run);
}

/* ---- output ---- */

static void print_table(const void *ctx)
{
	const struct scale_ctx *c = ctx;
	json_object *pts = jget(c->doc, "points"), *s = jget(c->doc, "settings");
	size_t n = json_object_array_length(pts), i;
	char mean[32], p99[32], f[16], e[16];

	printf("ssdload scale: %s bs=%.0f on %u drive%s, %zu point%s, ramp %" PRIu64 " ms + %"
	       PRIu64 " ms each (%s)\n", jstring(s, "rw"), jnum(s, "bs", 0), c->ndev,
	       c->ndev == 1 ? "" : "s", n, n == 1 ? "" : "s", c->m.ramp_ms, c->m.runtime_ms,
	       jstring(c->doc, "state"));
	printf("  %-14s  %6s  %8s  %10s  %9s  %9s  %9s  %7s  %6s\n", "target", "drives",
	       "QD/drive", "IOPS", "MB/s", "lat mean", "lat p99", "scaling", "effic.");
	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pts, i);

		if (jget(p, "lat_mean_ns"))
			ssl_lat_str(mean, sizeof(mean), jnum(p, "lat_mean_ns", 0));
		else
			snprintf(mean, sizeof(mean), "-");
		if (jget(p, "lat_p99_ns"))
			ssl_lat_str(p99, sizeof(p99), jnum(p, "lat_p99_ns", 0));
		else
			snprintf(p99, sizeof(p99), "-");
		if (jget(p, "scaling")) {
			snprintf(f, sizeof(f), "%.2fx", jnum(p, "scaling", 0));
			snprintf(e, sizeof(e), "%.0f%%", jnum(p, "efficiency", 0) * 100);
		} else {
			snprintf(f, sizeof(f), "-");
			snprintf(e, sizeof(e), "-");
		}
		printf("  %-14s  %6d  %8d  %10.0f  %9.1f  %9s  %9s  %7s  %6s\n",
		       jstring(p, "target"), (int)jnum(p, "drives", 0),
		       (int)jnum(p, "qd_per_drive", 0), jnum(p, "iops", 0),
		       jnum(p, "bw_bytes", 0) / 1e6, mean, p99, f, e);
	}
	printf("scaling: IOPS over %s's at the same QD per drive; efficiency: scaling per "
	       "drive\n", c->t[0].label);
	printf("results: %s/%s, %s/runs/\n", c->m.dir, SCALE_JSON, c->m.dir);
}

/* ---- the command ---- */

/*
 * --raid: the drives the arrays take get the guard of every destructive
 * command (identity, signatures, exclusive open), all before mdadm runs;
 * --dry-run lists the arrays.  0, or -1 refused.
 */
static int raid_guard(struct scale_ctx *c)
{
	unsigned int i, k, most = 0;
	struct ssl_dev d;
	int fd, bad = 0;

	for (k = 0; k < c->nt; k++)
		if (c->t[k].kind == T_RAID && c->t[k].ndrives > most)
			most = c->t[k].ndrives;
	for (i = 0; i < most; i++) {
		if (ssl_dev_probe(c->dev[i], &d)) {
			bad = 1;
			continue;
		}
		fd = ssl_dev_open_excl(&d, 1);
		if (fd < 0) {
			bad = 1;
			continue;
		}
		if (ssl_guard(&d, fd, c->force, c->dry_run))
			bad = 1;
		close(fd);
	}
	if (bad) {
		ssl_err("scale: --raid: refused before mdadm ran; nothing was written");
		return -1;
	}
	for (k = 0; c->dry_run && k < c->nt; k++) {
		const struct scale_target *t = &c->t[k];

		if (t->kind != T_RAID)
			continue;
		fprintf(stderr, "ssdload: dry run: would build RAID-%u of %u drives (",
			t->level, t->ndrives);
		for (i = 0; i < t->ndrives; i++)
			fprintf(stderr, "%s%s", i ? ", " : "", c->dev[i]);
		fprintf(stderr, "), chunk %" PRIu64 " KiB, metadata 1.2\n", c->chunk >> 10);
	}
	return 0;
}

static int check_runs(struct scale_ctx *c);

/* --dry-run: the plan, nothing run or written; refused as the run would be */
static int scale_dry_run(struct scale_ctx *c)
{
	unsigned int k;

	if ((c->nlevels && raid_guard(c)) || check_runs(c))
		return SCALE_EXIT_USAGE;
	for (k = 0; k < c->nt; k++)
		fprintf(stderr, "ssdload: dry run: would run on %s\n", c->t[k].label);
	fprintf(stderr, "ssdload: dry run: nothing was run or written\n");
	return 0;
}

/* Every device and target takes the first point's options: 0, or -1. */
static int check_runs(struct scale_ctx *c)
{
	struct ssl_argv a;
	unsigned int i;
	int st;

	for (i = 0; i < c->ndev + c->ngiven; i++) {
		const char *dev = i < c->ndev ? c->dev[i] : c->given[i - c->ndev];

		memset(&a, 0, sizeof(a));
		run_argv(c, &a, "scale-check", dev, c->qds[c->nqd - 1], 1, false, true);
		st = ssl_run_spawn(&a, "/dev/null");
		av_free(&a);
		if (st) {
			ssl_err("scale: ssdload run refused the job on %s (above); nothing ran",
				dev);
			return -1;
		}
	}
	/* an array's run: the workers of all its drives, on its first drive */
	for (i = 0; i < c->nt; i++) {
		if (c->t[i].kind != T_RAID)
			continue;
		memset(&a, 0, sizeof(a));
		run_argv(c, &a, "scale-check", c->dev[0], c->qds[c->nqd - 1], c->t[i].ndrives,
			 false, true);
		st = ssl_run_spawn(&a, "/dev/null");
		av_free(&a);
		if (st) {
			ssl_err("scale: ssdload run refused the job of %s (above); no array "
				"was built", c->t[i].label);
			return -1;
		}
	}
	return 0;
}

static int scale_main(void *ctx)
{
	struct scale_ctx *c = ctx;
	char path[PATH_MAX];
	unsigned int q, k, idx = 0;
	int worst = 0, pst;
	const char *state;

	if (plan(c))
		return SCALE_EXIT_USAGE;
	c->m.force = c->force;
	c->m.dry_run = c->dry_run;
	if (c->m.pc.mode != SSL_PC_NONE && ssl_method_guard(&c->m, c->dev, c->ndev) < 0)
		return SCALE_EXIT_USAGE;
	if (c->dry_run)
		return scale_dry_run(c);
	if (c->nlevels && raid_guard(c))
		return SCALE_EXIT_USAGE;
	if (ssl_make_outdir("scale", c->m.dir, sizeof(c->m.dir), SCALE_JSON, &c->m.made_dir))
		return SCALE_EXIT_USAGE;
	if (check_runs(c) || new_doc(c))
		goto refused;
	if (ssl_method_path(&c->m, path, sizeof(path), "runs") ||
	    (mkdir(path, 0755) && errno != EEXIST)) {
		ssl_err("scale: %s: %s", path, strerror(errno));
		return SCALE_EXIT_FAILED;
	}
	if (ssl_dir_check("scale", path))
		return SCALE_EXIT_FAILED;
	if (ssl_method_save(&c->m, c->doc, SCALE_JSON))
		return SCALE_EXIT_FAILED;
	ssl_run_catch_signals();
	pst = ssl_method_precondition(&c->m, c->doc, SCALE_JSON, c->dev, c->ndev);
	worst = pst;
	for (k = 0; k < c->nt && !ssl_run_sig && !pst; k++) {
		struct scale_target *t = &c->t[k];

		if (t->kind == T_RAID && raid_up(c, t)) {
			worst = SCALE_EXIT_FAILED;
			break;
		}
		for (q = 0; q < c->nqd && !ssl_run_sig; q++, idx++) {
			json_object *p = run_point(c, t, c->qds[q], idx, &worst);

			c->done++;
			if (!p)
				break;
			json_object_array_add(jget(c->doc, "points"), p);
			if (!idx)
				settings_from_run(c);
			fill_scaling(c);
			ssl_method_save(&c->m, c->doc, SCALE_JSON);
		}
		if (t->kind == T_RAID)
			raid_down(c, t);
		/* a group that could not start stops the scale; a failed run does not */
		if (worst == SCALE_EXIT_FAILED)
			break;
	}
	if (ssl_run_sig)
		state = "interrupted";
	else if (worst)
		state = "failed";
	else
		state = "done";
	if (ssl_method_finish(&c->m, c->doc, SCALE_JSON, state))
		return SCALE_EXIT_FAILED;
	if (!json_object_array_length(jget(c->doc, "points"))) {
		ssl_err("scale: no point was measured");
		return ssl_run_sig ? SSL_EXIT_SIGNAL(ssl_run_sig) : SCALE_EXIT_FAILED;
	}
	ssl_method_output(&c->m, c->doc, print_table, c);
	return ssl_method_status(worst, SCALE_EXIT_FAILED);

refused:
	if (c->m.made_dir)
		rmdir(c->m.dir);
	return SCALE_EXIT_USAGE;
}

int cmd_scale(int argc, const char **argv)
{
	struct scale_ctx *c = calloc(1, sizeof(*c));
	int r;

	if (!c) {
		ssl_err("scale: out of memory");
		return SCALE_EXIT_FAILED;
	}
	c->m.cmd = "scale";
	c->m.eta = "auto";
	c->m.ramp_ms = 60000;
	c->m.runtime_ms = 180000;
	c->chunk = 512 << 10;
	r = ssl_method_main(&c->m, argc, argv, scale_parse, scale_main, c);
	ssl_method_free(&c->m);
	if (c->doc)
		json_object_put(c->doc);
	free(c);
	return r;
}
