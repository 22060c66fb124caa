// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload run: create a configfs job from fio-named options, start it
 * under a lease, follow its progress, print the results and remove the job.
 *
 * This file reads the command line and the job file (JOBFILE or --profile)
 * and checks them; cmd/run.h lists the files that do the rest.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "uapi/ssdload.h"
#include "cmd/builtin.h"
#include "cmd/run.h"
#include "core/options.h"
#include "core/preflight.h"
#include "core/util.h"
#include "fio/fioopts.h"
#include "fio/jobfile.h"

static const char *const run_usage[] = {
	"usage: ssdload run [JOBFILE | --profile=NAME] --filename=DEV [options]",
	"",
	"JOBFILE is a fio job file ([global] and job sections, key=value, include,",
	"${ENV}); options given here override the file's, in every section.  Its",
	"job sections run in fio's order: those between two stonewalls start",
	"together, a stonewall (wait_for_previous) once every job before it has",
	"ended; new_group starts a new reporting group, and wait_for=NAME must",
	"name a job before the last stonewall.  One report for all of them.",
	"  --profile=NAME         run the shipped job file NAME (see ssdload profiles)",
	"  --section=NAME         run only the job section NAME of JOBFILE (fio's",
	"                         --section)",
	"",
	"Options (fio's names; --opt=value or --opt value):",
	"  --name=NAME            job name (default ssdload-<pid>)",
	"  --filename=DEV[:DEV]   block device(s) to drive (required); fio's ':' list",
	"                         ('\\:' is a colon in a name), at most 16",
	"  --rw=MODE              read|write|randread|randwrite|rw|randrw|trim|randtrim|",
	"                         trimwrite|randtrimwrite (default read); fio's suffix:",
	"                         read:8k a gap after each I/O (-8k: backwards),",
	"                         randread:N N I/Os per random offset",
	"  --bs=SIZE[,SIZE[,SIZE]] block size, bytes or k/m/g (base 1024; default 4k);",
	"                         per direction read,write,trim as fio",
	"  --bsrange=MIN-MAX[,..] block sizes uniform in [MIN, MAX] (per direction)",
	"  --bssplit=BS/PCT:...   weighted block sizes, e.g. 4k/10:64k/50:32k/40",
	"  --blockalign=SIZE      offset alignment (alias --ba; default: the smallest bs)",
	"  --random_distribution=D random|zipf:T|pareto:H|normal:S|zoned:A/S:...|",
	"                         zoned_abs:A/SIZE:...",
	"  --random_scatter[=0|1] spread zipf/pareto/normal hot blocks over the span",
	"                         (module default 1; 0 = packed at the start)",
	"  --iodepth=N            I/Os in flight per worker (default 1)",
	"  --cpus_allowed=LIST    cpulist of the workers (default: lowest online CPU)",
	"  --numjobs=N            N workers (without --cpus_allowed: spread over the",
	"                         first N online CPUs); one job of N workers sharing",
	"                         the span, rate and count, fio's clones with --per_clone",
	"  --per_clone[=0|1]      the --numjobs workers are fio's clones: each covers the",
	"                         span and has the rate and number_ios (default 1 for a",
	"                         job file's numjobs, else 0)",
	"  --rwmixread=PCT        percent reads for rw/randrw (default 50)",
	"  --rwmixwrite=PCT       percent writes (= 100 - rwmixread)",
	"  --offset=SIZE|P%       start of the span on each device (default 0)",
	"  --size=SIZE|P%         length of the span (default: to the end of the device;",
	"                         a SIZE is split evenly among the devices)",
	"  --offset_increment=SIZE|P%  fio's clone k at offset + k * SIZE (--numjobs;",
	"                         a percentage only equal to --size)",
	"  --size_increment=SIZE  clone k covers size + k * SIZE bytes (not in fio 3.33)",
	"  --file_service_type=T  roundrobin|random|sequential[:N] between devices",
	"  --rate_iops=R[,W[,T]]  open-loop cap, I/Os per second, job-wide (fio's",
	"                         per-direction list; an empty field is uncapped)",
	"  --rate=BW[,BW[,BW]]    the same in bytes per second (k/m/g, base 1024)",
	"  --rate_process=P       linear (default) or poisson arrivals",
	"  --log_interval_ms=N    time series: one record per worker every N ms",
	"                         (needs --runtime; in the JSON as time_series)",
	"  --log_hist[=0|1]       latency percentiles per interval in the series",
	"  --ss=METRIC:LIMIT      fio's steadystate: iops, iops_slope, bw or bw_slope,",
	"                         LIMIT absolute or N% (default iops_slope:0.01%)",
	"  --ss_dur=TIME          steadystate_duration: stop once steady over its",
	"                         last TIME seconds (0 = off; needs --runtime)",
	"  --ss_ramp=TIME         steadystate_ramp_time: no sample before it",
	"  --runtime=TIME         measured time; bare number = seconds, or ms/s/m/h;",
	"                         the run ends then or after one pass over the span,",
	"                         whichever comes first, unless --time_based",
	"  --ramp_time=TIME       warm-up excluded from the results (same units)",
	"  --number_ios=N         stop after N measured I/Os (the whole job's)",
	"  --io_size=SIZE         fio's io_size (io_limit): each of the numjobs workers",
	"                         moves SIZE bytes (looping over the span), then stops;",
	"                         with --runtime, whichever comes first (one --bs only)",
	"  --randseed=N           seed of the offset/mix generator",
	"  --randrepeat=0|1       1 (fio's default): the seed of the job's name; 0: a",
	"                         seed drawn for this run, printed (randseed=N)",
	"  --norandommap[=0|1]    a one-pass random run draws offsets with replacement,",
	"                         as fio's (time- or count-bound runs always do)",
	"  --allow_write[=0|1]    permit a job that writes or trims (destroys data on DEV)",
	"  --hipri[=0|1]          polled completions (REQ_POLLED + bio_poll); falls back",
	"                         to interrupts when DEV has no poll queues",
	"  --disable_lat[=0|1]    no latency timestamps/histograms (counts stay exact)",
	"  --io_timeout_ms=N      count I/Os in flight longer than N ms (0 = off)",
	"  --scramble_buffers[=0|1] fresh data in every write (module default 1)",
	"  --buffer_compress_percentage=PCT  compressible share of each chunk",
	"  --buffer_compress_chunk=SIZE      chunk of that (default 512)",
	"  --dedupe_percentage=PCT           writes repeating an earlier buffer",
	"  --buffer_pattern=P     fill pattern: 0xHEX, \"string\", decimal int,",
	"                         'file', concatenated (optionally with '|')",
	"  --zero_buffers[=0|1]   zero-filled write buffers",
	"  --refill_buffers[=0|1] new buffer content for every write",
	"  --shared[=0|1]         let other shared jobs use DEV at the same time",
	"                         (their writes may overlap: keep them apart with",
	"                         --offset/--size)",
	"  --group=NAME           arm the job instead of starting it: it starts with",
	"                         the other jobs of NAME on 'ssdload start NAME'",
	"  --step=SPEC            one step of the run (repeatable, run in order): key=value",
	"                         pairs separated by commas: rw, rwmixread, bs, bssplit,",
	"                         iodepth, rate_iops, rate, runtime, ramp_time, number_ios",
	"                         (as the options), numjobs=K (the first K of the job's",
	"                         workers issue), or idle=TIME; the rest is the job's",
	"  --steps=FILE           steps from FILE, one a line as --step ('#' comments)",
	"  --loops=N              run the list of steps (or the job) N times (default 1)",
	"  --time_based[=0|1]     run the whole --runtime, going over the span as often",
	"                         as it takes (fio's time_based)",
	"  --direct=1             accepted for fio compatibility (I/O is always direct)",
	"  --ioengine=E, --thread, --invalidate, --fadvise_hint=H, --clocksource=C",
	"                         accepted with a note: they have no meaning for the",
	"                         in-kernel engine (E: a block I/O engine, e.g. libaio;",
	"                         null, net, sg ... are refused)",
	"  --thinktime=TIME       pause after --thinktime_blocks I/Os (bare = us): the",
	"                         worker drains its I/Os, spins --thinktime_spin=TIME,",
	"                         sleeps the rest; --thinktime_blocks_type=complete|issue,",
	"                         --thinktime_iotime=TIME (bare = s) as fio's",
	"  --startdelay=TIME[-TIME] start each worker after this (bare = s; a range:",
	"                         each worker draws its own)",
	"  --start_at=NS|+TIME     start at this instant (ns since the epoch, CLOCK_REALTIME)",
	"                         or this long from now: hosts that start together",
	"  --verify=TYPE          stamp every block written with a header and a",
	"                         checksum (crc32c, crc64, xxhash, sha256, meta, null)",
	"                         and read it all back after the writes; failures are",
	"                         classified in the report and make the exit status 1",
	"                         (Documentation/verify.rst)",
	"  --verify_interval=N    a header every N bytes of a block (divides --bs)",
	"  --do_verify=0|1        read back after the writes (default 1)",
	"  --verify_fatal[=0|1]   stop the read-back at the first failure",
	"  --experimental_verify, --verify_async=N",
	"                         accepted with a note: the kernel checks in the job's",
	"                         own thread",
	"  --buffered=0, --continue_on_error=none,",
	"  --random_generator, --io_submit_mode, --iodepth_batch*,",
	"  --iodepth_low, --gtod_reduce, --(c)lat_percentiles, --description",
	"                         fio's, taken for the values that mean what ssdload",
	"                         does (Documentation/cli.rst, Differences from fio)",
	"  --write_bw_log[=P], --write_iops_log[=P], --write_lat_log[=P],",
	"  --write_hist_log[=P]   fio's logs, P_bw.N.log ... (P: the job name), one per",
	"                         worker N, from the time series at the end of the run",
	"  --log_avg_msec=T       their interval (default 500ms; sets log_interval_ms)",
	"  --log_hist_msec=T      the hist log's, a multiple of it",
	"  --kb_base=1024|1000    fio's unit base: 1024 (default) makes 4k 4096 and 4KiB",
	"                         4000 (fio's compatibility mode); 1000 the reverse",
	"  --group_reporting      one report for all workers (default with --numjobs>1:",
	"                         one JSON entry per worker, as fio's clones)",
	"  --output-format=FMT    normal (default), json (fio's schema) or json+ (json",
	"                         with clat_ns/lat_ns bins), or a list: normal,json",
	"  --output=FILE          write the report(s) to FILE instead of stdout",
	"  --percentile_list=L    clat percentiles to report, e.g. 1:50:99.9",
	"  --latency-table[=L]    a percentile table per direction with the I/Os behind",
	"                         each row (default 1:10:50:90:99:99.9:...:99.9999)",
	"  --latency-below=T[,T]  the share of I/Os faster than each latency T (40us)",
	"  --latency-check=C[,C]  check promises, e.g. 'p99.95<500us,read:mean<=1ms'",
	"                         ([read:|write:|trim:](pN|mean|max)(<|<=)T); prints a",
	"                         verdict line; exit status 1 when one is not met",
	"  --eta=WHEN             progress line on stderr: auto (when stderr is a",
	"                         terminal; default), always, never",
	"  --status-interval=TIME print the full report so far on stdout every TIME",
	"                         (bare number = seconds; at least 200ms)",
	"  --parse-only           print the configfs attributes that would be written",
	"  --keep-job             leave the finished job in configfs and debugfs (read",
	"                         it with ssdload show NAME; remove it with rmdir)",
	"  --trigger-timeout=TIME, --trigger-file=FILE",
	"                         when to run --trigger-cmd=CMD (fio's --trigger), once,",
	"                         with the I/O going on: a power cut (verify.rst)",
	"",
	"Without --time_based, --number_ios, --io_size and steps the job makes one",
	"pass over the span (ended early by --runtime, if it is shorter).",
	"A signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT, ...) stops the job, prints what",
	"was measured and removes the job; a third one leaves the draining job to the",
	"kernel.  If ssdload dies (even SIGKILL), its lease stops the job.",
	"Exit status: 0 done, 1 error, 128+N after signal N (130 SIGINT, 143 SIGTERM).",
	NULL,
};

/* the name of @opt as given (@name, @len bytes): fio's alias or its name */
static const char *spelled(const struct ssl_opt *opt, const char *name, size_t len)
{
	const char *sp;

	return ssl_fio_alias(name, len, &sp) ? sp : opt->name;
}

/* one option of the job file, unless the command line gave it */
static int jobfile_opt(void *ctx, const struct ssl_jobfile_opt *o)
{
	struct run_ctx *c = ctx;
	const struct ssl_opt *opt = ssl_find_opt(run_opts, o->key, strlen(o->key));

	if (!opt) {
		ssl_opt_unknown(o->where, run_opts, o->key, strlen(o->key), "");
		return -1;
	}
	if (cmdline_only(opt->id)) {
		ssl_err("%s: %s is an option of the command line, not of a job file",
			o->where, o->key);
		return -1;
	}
	if (c->raw[opt->id] && !c->from[opt->id])
		return 0;		/* the command line's wins */
	if (!c->raw[opt->id])
		c->order[c->nr_order++] = opt->id;
	c->raw[opt->id] = *o->val ? o->val : run_bare_flag;	/* a bare key */
	c->raw_name[opt->id] = spelled(opt, o->key, strlen(o->key));
	c->from[opt->id] = o->where;
	c->global[opt->id] = o->global;
	return 0;
}

/*
 * A job file for another engine than a block device's (network, null,
 * exec, ...) is refused at its ioengine line first: its other options
 * (hostname, port, cpuload ...) are that engine's, not unknown ones.
 */
static int jobfile_engines(const struct ssl_jobfile *jf)
{
	const char *why;
	int i, j;

	for (i = 0; i < jf->n; i++)
		for (j = 0; j < jf->s[i].n; j++) {
			const struct ssl_jobfile_opt *o = &jf->s[i].o[j];

			if (!strcmp(o->key, "ioengine") && (why = ssl_fio_engine_why(o->val))) {
				ssl_err("%s: ioengine=%s: %s", o->where, o->val, why);
				return -1;
			}
		}
	return 0;
}

/*
 * JOBFILE or --profile: the options of the job section to run, after those
 * of the [global] sections above it (fio's order), under the command line's.
 */
static int load_jobfile(struct run_ctx *c)
{
	const struct ssl_jobfile_section *job;

	if (c->raw[O_PROFILE]) {
		if (c->jobfile) {
			ssl_err("run: a job file ('%s') or --profile, not both", c->jobfile);
			return -1;
		}
		if (ssl_profile_path(c->raw[O_PROFILE], c->profile_path,
				     sizeof(c->profile_path))) {
			ssl_err("--profile=%s: no such profile (see ssdload profiles)",
				c->raw[O_PROFILE]);
			return -1;
		}
		c->jobfile = c->profile_path;
	}
	if (!c->jobfile) {
		if (c->raw[O_SECTION])
			return bad_value(c, O_SECTION, "there is no job file");
		return 0;
	}
	if (ssl_jobfile_load(c->jobfile, &c->jf))
		return -1;
	/* the command line's --ioengine stands for the file's */
	if (!c->raw[O_IOENGINE] && jobfile_engines(&c->jf))
		return -1;
	if (!c->raw[O_SECTION] && ssl_jobfile_jobs(&c->jf) > 1) {
		c->multi = 1;		/* every job section: run_file_jobs() */
		return 0;
	}
	job = ssl_jobfile_job(&c->jf, c->raw[O_SECTION]);
	if (!job)
		return -1;
	c->section = job->name;
	c->section_where = job->where;
	return ssl_jobfile_each(&c->jf, job, jobfile_opt, c);
}

static int parse_args(struct run_ctx *c, int argc, const char **argv)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 0, dashdash = 0, r;

	while (i < argc) {
		const char *arg = argv[i];

		r = ssl_next_opt(argc, argv, &i, run_opts, &opt, &val, &dashdash);
		if (r < 0)
			return -1;
		if (r == 2) {
			ssl_usage(stdout, run_usage);
			return 1;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			if (c->jobfile) {
				ssl_err("run: one job file only ('%s', then '%s')",
					c->jobfile, argv[i - 1]);
				return -1;
			}
			c->jobfile = argv[i - 1];
			continue;
		}
		if (opt->id == O_STONEWALL || opt->id == O_NEW_GROUP || opt->id == O_WAIT_FOR) {
			ssl_err("--%s: orders the job sections of a job file: give it in "
				"the file's sections", spelled(opt, arg + 2, strcspn(arg + 2, "=")));
			return -1;
		}
		if (opt->id == O_STEP || opt->id == O_STEPS) {
			struct step_src *n = realloc(c->src, (size_t)(c->nsrc + 1) * sizeof(*n));

			if (!n) {
				ssl_err("out of memory");
				return -1;
			}
			c->src = n;
			c->src[c->nsrc].file = opt->id == O_STEPS;
			c->src[c->nsrc++].arg = val ? val : "";
		}
		if (!c->raw[opt->id])
			c->order[c->nr_order++] = opt->id;
		c->raw[opt->id] = val ? val : run_bare_flag;
		c->raw_name[opt->id] = spelled(opt, arg + 2, strcspn(arg + 2, "="));
	}
	return 0;
}

/*
 * The options of one job, then its steps; then fio's "job options" of the
 * report: 0, or -1 with a message.
 */
static int check_args(struct run_ctx *c)
{
	if (run_check_options(c) || steps_opts(c))
		return -1;
	numjobs_notes(c);
	run_job_options(c);
	return 0;
}

static void free_ctx(struct run_ctx *c)
{
	int i;

	for (i = 0; i < c->ndevs; i++)
		free(c->devs[i]);
	free_steps(c);
	ssl_fio_ss_free(&c->ss);
	ssl_jobfile_free(&c->jf);
	free(c);
}

/* A refusal of preflight.c, naming the option that wrote @attr. */
static int preflight_refused(const struct run_ctx *c, const char *attr, const char *why)
{
	int id = !strcmp(attr, SSDLOAD_ATTR_RUNTIME_MS) ? O_RUNTIME :
		 !strcmp(attr, SSDLOAD_ATTR_RAMP_MS) ? O_RAMP_TIME :
		 !strcmp(attr, SSDLOAD_ATTR_NUMBER_IOS) && !c->raw[O_NUMBER_IOS] ? O_IO_SIZE : -1;
	const struct ssl_opt *o;

	for (o = run_opts; id < 0 && o->name; o++)
		if (!strcmp(o->name, attr))
			id = o->id;
	if (id == O_BSRANGE && !c->raw[id])	/* --bs=R,W per direction */
		id = O_BS;
	if (id >= 0 && c->raw[id])
		return bad_value(c, id, why);
	ssl_err("%s: %s", attr, why);
	return -1;
}

/*
 * --parse-only: what the module's stores and enable would refuse of the
 * attributes to write (preflight.c), before anything is written.
 */
/*
 * --parse-only: each device of filename must be one, as a real run (the
 * module) would have it: a URL, a path that does not exist, a regular
 * file, a directory or a character device is refused here.  It is only
 * looked at (stat), never opened.
 */
static int check_targets(const struct run_ctx *c)
{
	struct stat st;
	const char *kind;
	int i;

	/* before fio's ':' splits it */
	if (c->filename && strstr(c->filename, "://")) {
		ssl_err("%s: a URL, not a block device (ssdload drives a local one)",
			c->filename);
		return -1;
	}
	for (i = 0; i < c->ndevs; i++) {
		const char *d = c->devs[i];

		if (stat(d, &st)) {
			ssl_err("%s: not a block device (%s; a real run would be "
				"refused too)", d, strerror(errno));
			return -1;
		}
		if (S_ISBLK(st.st_mode))
			continue;
		kind = S_ISREG(st.st_mode) ? "a regular file" :
		       S_ISDIR(st.st_mode) ? "a directory" :
		       S_ISCHR(st.st_mode) ? "a character device" : "not a device";
		ssl_err("%s: not a block device (%s; ssdload drives a block device, "
			"not files)", d, kind);
		return -1;
	}
	return 0;
}

static int run_preflight(const struct run_ctx *c)
{
	struct ssl_pf_attr a[sizeof(c->w) / sizeof(c->w[0])];
	struct ssl_pf_job job = { a, c->nw, NULL, (int)c->nsteps, c->devs, c->ndevs };
	struct ssl_pf_step *st = calloc(c->nsteps + 1, sizeof(*st));
	struct ssl_pf_attr *sa = calloc((c->nsteps + 1) * STEP_ATTRS_MAX, sizeof(*sa));
	char why[512], attr[64];
	int i, k, r = -1;

	if (!st || !sa) {
		ssl_err("out of memory");
		goto out;
	}
	if (check_targets(c))
		goto out;
	for (i = 0; i < c->nw; i++) {
		a[i] = (struct ssl_pf_attr){ c->w[i].attr, c->w[i].val };
		if (ssl_preflight_attr(a[i].attr, a[i].val, 0, why, sizeof(why))) {
			preflight_refused(c, a[i].attr, why);
			goto out;
		}
	}
	for (i = 0; i < (int)c->nsteps; i++) {
		st[i] = (struct ssl_pf_step){ sa + i * STEP_ATTRS_MAX, c->steps[i].na };
		for (k = 0; k < c->steps[i].na; k++) {
			sa[i * STEP_ATTRS_MAX + k] = (struct ssl_pf_attr){
				c->steps[i].a[k].attr, c->steps[i].a[k].val };
			if (ssl_preflight_attr(c->steps[i].a[k].attr, c->steps[i].a[k].val, 1,
					       why, sizeof(why))) {
				ssl_err("%s: %s", c->steps[i].where, why);
				goto out;
			}
		}
	}
	job.steps = st;
	r = ssl_preflight_job(&job, attr, sizeof(attr), why, sizeof(why));
	if (r && sscanf(attr, SSDLOAD_CONFIGFS_STEPS "/%d/", &k) == 1 && k >= 1 &&
	    k <= (int)c->nsteps)
		ssl_err("%s: %s: %s", c->steps[k - 1].where, attr, why);
	else if (r)
		preflight_refused(c, attr, why);
out:
	free(st);
	free(sa);
	return r ? -1 : 0;
}

/*
 * read_iolog=FILE (fio's meaning): the job is a replay of FILE, run by
 * ssdload replay with the job's target, depth, write permission, runtime,
 * output format and fio's replay_* options; the job's other I/O options
 * do not apply (fio takes the I/Os from the log too).
 */
static int run_replay(struct run_ctx *c)
{
	static const struct {
		int id;
		const char *opt;
	} pass[] = {
		{ O_FILENAME, "--filename=" }, { O_IODEPTH, "--iodepth=" },
		{ O_ALLOW_WRITE, "--allow_write=" }, { O_RUNTIME, "--runtime=" },
		{ O_REPLAY_TIME_SCALE, "--replay_time_scale=" },
		{ O_REPLAY_NO_STALL, "--replay_no_stall=" },
		{ O_REPLAY_ALIGN, "--replay_align=" },
		{ O_REPLAY_SCALE, "--replay_scale=" },
		{ O_OUTPUT_FORMAT, "--output-format=" },
		{ O_PARSE_ONLY, "--parse-only=" },
	};
	char args[ARRAY_SIZE(pass) + 2][PATH_MAX + 32];
	const char *argv[ARRAY_SIZE(pass) + 8];
	int n = 0, k = 0;
	size_t i;

	argv[n++] = "replay";
	argv[n++] = c->raw[O_READ_IOLOG];
	for (i = 0; i < ARRAY_SIZE(pass); i++) {
		const char *v = c->raw[pass[i].id];

		if (!v)
			continue;
		/* a bare flag is 1 */
		snprintf(args[k], sizeof(args[k]), "%s%s", pass[i].opt,
			 *v ? v : "1");
		argv[n++] = args[k++];
	}
	argv[n] = NULL;
	return cmd_replay(n, argv);
}

int cmd_run(int argc, const char **argv)
{
	struct run_ctx *c = calloc(1, sizeof(*c));
	int r, i;

	if (!c) {
		ssl_err("out of memory");
		return 1;
	}
	c->fmt = SSL_OUTPUT_NORMAL;
	r = parse_args(c, argc - 1, argv + 1);
	if (r) {
		free_ctx(c);
		return r < 0 ? 1 : 0;
	}
	if (load_jobfile(c)) {
		free_ctx(c);
		return 1;
	}
	if (c->multi) {
		r = run_file_jobs(c);
		free_ctx(c);
		return r;
	}
	if (c->raw[O_READ_IOLOG]) {
		r = run_replay(c);
		free_ctx(c);
		return r;
	}
	if (check_args(c)) {
		free_ctx(c);
		return 1;
	}
	if (c->parse_only && run_preflight(c)) {
		free_ctx(c);
		return 1;
	}
	if (c->parse_only) {
		printf("name=%s\n", c->name);
		for (i = 0; i < c->nw; i++)
			printf("%s=%s\n", c->w[i].attr, c->w[i].val);
		if (c->ss.dur) {
			char spec[64];

			ssl_fio_ss_spec(&c->ss, spec, sizeof(spec));
			printf("steadystate=%s\nsteadystate_duration_s=%u\n"
			       "steadystate_ramp_ms=%" PRIu64 "\n", spec, c->ss.dur,
			       c->ss_ramp_ms);
		}
		for (i = 0; i < (int)c->nsteps; i++) {
			int k;

			for (k = 0; k < c->steps[i].na; k++)
				printf("%s/%d/%s=%s\n", SSDLOAD_CONFIGFS_STEPS, i + 1,
				       c->steps[i].a[k].attr, c->steps[i].a[k].val);
		}
		free_ctx(c);
		return 0;
	}
	/* fio's --output: the reports go to FILE (the progress line stays on stderr) */
	if ((c->want_logs && ssl_fio_logs_check(&c->logs)) ||
	    (c->raw[O_OUTPUT] && output_file(c->raw[O_OUTPUT]))) {
		free_ctx(c);
		return 1;
	}
	r = run_job(c);
	free_ctx(c);
	return r;
}
