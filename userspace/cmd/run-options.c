// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload run's options: fio's names (on the command line or in a job
 * file) checked and converted into the configfs attributes to write, in
 * order (run_ctx's w[]), and the "job options" the report lists.  A step's
 * keys go through the same converters (run-steps.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uapi/ssdload.h"
#include "cmd/run.h"
#include "core/configfs.h"
#include "core/latstudy.h"
#include "core/options.h"
#include "core/util.h"
#include "fio/fioopts.h"
#include "methods/runner.h"

/* one name of each option: fio's other name is found by ssl_find_opt() */
const struct ssl_opt run_opts[] = {
	{ "name",		SSL_ARG_REQUIRED, O_NAME },
	{ "filename",		SSL_ARG_REQUIRED, O_FILENAME },
	{ "rw",			SSL_ARG_REQUIRED, O_RW },
	{ "bs",			SSL_ARG_REQUIRED, O_BS },
	{ "iodepth",		SSL_ARG_REQUIRED, O_IODEPTH },
	{ "cpus_allowed",	SSL_ARG_REQUIRED, O_CPUS_ALLOWED },
	{ "numjobs",		SSL_ARG_REQUIRED, O_NUMJOBS },
	{ "rwmixread",		SSL_ARG_REQUIRED, O_RWMIXREAD },
	{ "rwmixwrite",		SSL_ARG_REQUIRED, O_RWMIXWRITE },
	{ "offset",		SSL_ARG_REQUIRED, O_OFFSET },
	{ "size",		SSL_ARG_REQUIRED, O_SIZE },
	{ "runtime",		SSL_ARG_REQUIRED, O_RUNTIME },
	{ "ramp_time",		SSL_ARG_REQUIRED, O_RAMP_TIME },
	{ "number_ios",		SSL_ARG_REQUIRED, O_NUMBER_IOS },
	{ "io_size",		SSL_ARG_REQUIRED, O_IO_SIZE },
	{ "randseed",		SSL_ARG_REQUIRED, O_RANDSEED },
	{ "allow_write",	SSL_ARG_FLAG, O_ALLOW_WRITE },
	{ "hipri",		SSL_ARG_FLAG, O_HIPRI },
	{ "disable_lat",	SSL_ARG_FLAG, O_DISABLE_LAT },
	{ "io_timeout_ms",	SSL_ARG_REQUIRED, O_IO_TIMEOUT_MS },
	{ "scramble_buffers",	SSL_ARG_FLAG, O_SCRAMBLE_BUFFERS },
	{ "time_based",		SSL_ARG_FLAG, O_TIME_BASED },
	{ "direct",		SSL_ARG_FLAG, O_DIRECT },
	{ "group_reporting",	SSL_ARG_FLAG, O_GROUP_REPORTING },
	{ "output-format",	SSL_ARG_REQUIRED, O_OUTPUT_FORMAT },
	{ "percentile_list",	SSL_ARG_REQUIRED, O_PERCENTILE_LIST },
	{ "eta",		SSL_ARG_REQUIRED, O_ETA },
	{ "status-interval",	SSL_ARG_REQUIRED, O_STATUS_INTERVAL },
	{ "parse-only",		SSL_ARG_FLAG, O_PARSE_ONLY },
	{ "keep-job",		SSL_ARG_FLAG, O_KEEP_JOB },
	{ "trigger-timeout",	SSL_ARG_REQUIRED, O_TRIGGER_TIMEOUT },
	{ "trigger-file",	SSL_ARG_REQUIRED, O_TRIGGER_FILE },
	{ "trigger-cmd",	SSL_ARG_REQUIRED, O_TRIGGER_CMD },
	{ "trigger",		SSL_ARG_REQUIRED, O_TRIGGER_CMD },	/* fio's name */
	{ "latency-table",	SSL_ARG_FLAG, O_LATENCY_TABLE },
	{ "latency-below",	SSL_ARG_REQUIRED, O_LATENCY_BELOW },
	{ "latency-check",	SSL_ARG_REQUIRED, O_LATENCY_CHECK },
	{ "bssplit",		SSL_ARG_REQUIRED, O_BSSPLIT },
	{ "bsrange",		SSL_ARG_REQUIRED, O_BSRANGE },
	{ "blockalign",		SSL_ARG_REQUIRED, O_BLOCKALIGN },
	{ "random_distribution", SSL_ARG_REQUIRED, O_RANDOM_DISTRIBUTION },
	{ "random_scatter",	SSL_ARG_FLAG, O_RANDOM_SCATTER },
	{ "buffer_compress_percentage", SSL_ARG_REQUIRED, O_BUFFER_COMPRESS_PERCENTAGE },
	{ "buffer_compress_chunk", SSL_ARG_REQUIRED, O_BUFFER_COMPRESS_CHUNK },
	{ "dedupe_percentage",	SSL_ARG_REQUIRED, O_DEDUPE_PERCENTAGE },
	{ "buffer_pattern",	SSL_ARG_REQUIRED, O_BUFFER_PATTERN },
	{ "zero_buffers",	SSL_ARG_FLAG, O_ZERO_BUFFERS },
	{ "refill_buffers",	SSL_ARG_FLAG, O_REFILL_BUFFERS },
	{ "file_service_type",	SSL_ARG_REQUIRED, O_FILE_SERVICE_TYPE },
	{ "rate_iops",		SSL_ARG_REQUIRED, O_RATE_IOPS },
	{ "rate",		SSL_ARG_REQUIRED, O_RATE },
	{ "rate_process",	SSL_ARG_REQUIRED, O_RATE_PROCESS },
	{ "log_interval_ms",	SSL_ARG_REQUIRED, O_LOG_INTERVAL_MS },
	{ "log_hist",		SSL_ARG_FLAG, O_LOG_HIST },
	{ "shared",		SSL_ARG_FLAG, O_SHARED },
	{ "group",		SSL_ARG_REQUIRED, O_GROUP },
	{ "step",		SSL_ARG_REQUIRED, O_STEP },
	{ "steps",		SSL_ARG_REQUIRED, O_STEPS },
	{ "loops",		SSL_ARG_REQUIRED, O_LOOPS },
	{ "profile",		SSL_ARG_REQUIRED, O_PROFILE },
	{ "output",		SSL_ARG_REQUIRED, O_OUTPUT },
	{ "kb_base",		SSL_ARG_REQUIRED, O_KB_BASE },
	{ "write_bw_log",	SSL_ARG_FLAG, O_WRITE_BW_LOG },
	{ "write_iops_log",	SSL_ARG_FLAG, O_WRITE_IOPS_LOG },
	{ "write_lat_log",	SSL_ARG_FLAG, O_WRITE_LAT_LOG },
	{ "write_hist_log",	SSL_ARG_FLAG, O_WRITE_HIST_LOG },
	{ "log_avg_msec",	SSL_ARG_REQUIRED, O_LOG_AVG_MSEC },
	{ "log_hist_msec",	SSL_ARG_REQUIRED, O_LOG_HIST_MSEC },
	{ "log_offset",		SSL_ARG_FLAG, O_LOG_OFFSET },
	{ "section",		SSL_ARG_REQUIRED, O_SECTION },
	{ "ioengine",		SSL_ARG_REQUIRED, O_IOENGINE },
	{ "thread",		SSL_ARG_FLAG, O_THREAD },
	{ "invalidate",		SSL_ARG_FLAG, O_INVALIDATE },
	{ "fadvise_hint",	SSL_ARG_REQUIRED, O_FADVISE_HINT },
	{ "clocksource",	SSL_ARG_REQUIRED, O_CLOCKSOURCE },
	/* of a job file's sections: the order of its jobs (run_file_jobs) */
	{ "stonewall",		SSL_ARG_FLAG, O_STONEWALL },
	{ "new_group",		SSL_ARG_FLAG, O_NEW_GROUP },
	{ "wait_for",		SSL_ARG_REQUIRED, O_WAIT_FOR },
	/* fio's, for the values that mean what ssdload does (fio_values[]) */
	{ "description",	SSL_ARG_REQUIRED, O_DESCRIPTION },
	{ "norandommap",	SSL_ARG_FLAG, O_NORANDOMMAP },
	{ "randrepeat",		SSL_ARG_FLAG, O_RANDREPEAT },
	{ "random_generator",	SSL_ARG_REQUIRED, O_RANDOM_GENERATOR },
	{ "buffered",		SSL_ARG_FLAG, O_BUFFERED },
	{ "verify",		SSL_ARG_REQUIRED, O_VERIFY },
	{ "startdelay",		SSL_ARG_REQUIRED, O_STARTDELAY },
	{ "start_at",		SSL_ARG_REQUIRED, O_START_AT },
	{ "continue_on_error",	SSL_ARG_REQUIRED, O_CONTINUE_ON_ERROR },
	{ "thinktime",		SSL_ARG_REQUIRED, O_THINKTIME },
	{ "io_submit_mode",	SSL_ARG_REQUIRED, O_IO_SUBMIT_MODE },
	{ "iodepth_batch",	SSL_ARG_REQUIRED, O_IODEPTH_BATCH },
	{ "iodepth_batch_complete_min", SSL_ARG_REQUIRED, O_IODEPTH_BATCH_COMPLETE_MIN },
	{ "iodepth_batch_complete_max", SSL_ARG_REQUIRED, O_IODEPTH_BATCH_COMPLETE_MAX },
	{ "iodepth_low",	SSL_ARG_REQUIRED, O_IODEPTH_LOW },
	{ "gtod_reduce",	SSL_ARG_FLAG, O_GTOD_REDUCE },
	{ "lat_percentiles",	SSL_ARG_FLAG, O_LAT_PERCENTILES },
	{ "clat_percentiles",	SSL_ARG_FLAG, O_CLAT_PERCENTILES },
	{ "fsync",		SSL_ARG_REQUIRED, O_FSYNC_EVERY },
	{ "fdatasync",		SSL_ARG_REQUIRED, O_FDATASYNC },
	{ "sync",		SSL_ARG_REQUIRED, O_SYNC_MODE },
	{ "end_fsync",		SSL_ARG_FLAG, O_END_FSYNC },
	{ "fsync_on_close",	SSL_ARG_FLAG, O_FSYNC_ON_CLOSE },
	{ "write_barrier",	SSL_ARG_REQUIRED, O_WRITE_BARRIER },
	{ "read_iolog",		SSL_ARG_REQUIRED, O_READ_IOLOG },
	{ "replay_time_scale",	SSL_ARG_REQUIRED, O_REPLAY_TIME_SCALE },
	{ "replay_no_stall",	SSL_ARG_FLAG, O_REPLAY_NO_STALL },
	{ "replay_align",	SSL_ARG_REQUIRED, O_REPLAY_ALIGN },
	{ "replay_scale",	SSL_ARG_REQUIRED, O_REPLAY_SCALE },
	{ "thinktime_spin",	SSL_ARG_REQUIRED, O_THINKTIME_SPIN },
	{ "thinktime_blocks",	SSL_ARG_REQUIRED, O_THINKTIME_BLOCKS },
	{ "thinktime_blocks_type", SSL_ARG_REQUIRED, O_THINKTIME_BLOCKS_TYPE },
	{ "thinktime_iotime",	SSL_ARG_REQUIRED, O_THINKTIME_IOTIME },
	{ "rate_min",		SSL_ARG_REQUIRED, O_RATE_MIN },
	{ "rate_iops_min",	SSL_ARG_REQUIRED, O_RATE_IOPS_MIN },
	{ "max_latency",	SSL_ARG_REQUIRED, O_MAX_LATENCY },
	{ "latency_target",	SSL_ARG_REQUIRED, O_LATENCY_TARGET },
	{ "disable_clat",	SSL_ARG_FLAG, O_DISABLE_CLAT },
	{ "disable_slat",	SSL_ARG_FLAG, O_DISABLE_SLAT },
	{ "disable_bw_measurement", SSL_ARG_FLAG, O_DISABLE_BW },
	{ "do_verify",		SSL_ARG_FLAG, O_DO_VERIFY },
	{ "experimental_verify", SSL_ARG_FLAG, O_EXPERIMENTAL_VERIFY },
	{ "allrandrepeat",	SSL_ARG_FLAG, O_ALLRANDREPEAT },
	{ "softrandommap",	SSL_ARG_FLAG, O_SOFTRANDOMMAP },
	{ "serialize_overlap",	SSL_ARG_FLAG, O_SERIALIZE_OVERLAP },
	{ "fill_device",	SSL_ARG_FLAG, O_FILL_DEVICE },
	{ "create_only",	SSL_ARG_FLAG, O_CREATE_ONLY },
	{ "file_append",	SSL_ARG_FLAG, O_FILE_APPEND },
	{ "pre_read",		SSL_ARG_FLAG, O_PRE_READ },
	{ "per_job_logs",	SSL_ARG_FLAG, O_PER_JOB_LOGS },
	{ "nrfiles",		SSL_ARG_REQUIRED, O_NRFILES },
	{ "zonemode",		SSL_ARG_REQUIRED, O_ZONEMODE },
	{ "allow_file_create",	SSL_ARG_FLAG, O_ALLOW_FILE_CREATE },
	{ "log_prio",		SSL_ARG_FLAG, O_LOG_PRIO },
	{ "dedupe_mode",	SSL_ARG_REQUIRED, O_DEDUPE_MODE },
	{ "dedupe_global",	SSL_ARG_FLAG, O_DEDUPE_GLOBAL },
	{ "dedupe_working_set_percentage", SSL_ARG_REQUIRED, O_DEDUPE_WORKING_SET },
	{ "filesize",		SSL_ARG_REQUIRED, O_FILESIZE },
	{ "threads",		SSL_ARG_REQUIRED, O_TIOBENCH_THREADS },
	/* fio's steady-state detection (run-ss.c) */
	{ "steadystate",	SSL_ARG_REQUIRED, O_STEADYSTATE },
	{ "steadystate_duration", SSL_ARG_REQUIRED, O_SS_DUR },
	{ "steadystate_ramp_time", SSL_ARG_REQUIRED, O_SS_RAMP },
	{ "rw_sequencer",	SSL_ARG_REQUIRED, O_RW_SEQUENCER },
	/* with numjobs: offset_increment_opt() */
	{ "offset_increment",	SSL_ARG_REQUIRED, O_OFFSET_INCREMENT },
	/* verify (run-verify.c) */
	{ "verify_interval",	SSL_ARG_REQUIRED, O_VERIFY_INTERVAL },
	{ "verify_fatal",	SSL_ARG_FLAG, O_VERIFY_FATAL },
	{ "verify_async",	SSL_ARG_REQUIRED, O_VERIFY_ASYNC },
	/* verify_only and the verify state file (run-vstate.c) */
	{ "verify_only",	SSL_ARG_FLAG, O_VERIFY_ONLY },
	{ "verify_state_save",	SSL_ARG_FLAG, O_VERIFY_STATE_SAVE },
	{ "verify_state_load",	SSL_ARG_FLAG, O_VERIFY_STATE_LOAD },
	{ "verify_state",	SSL_ARG_REQUIRED, O_VERIFY_STATE },
	{ "size_increment",	SSL_ARG_REQUIRED, O_SIZE_INCREMENT },
	{ "per_clone",		SSL_ARG_FLAG, O_PER_CLONE },
	{ NULL, 0, 0 },
};

/* the canonical name of option @id */
static const char *run_opts_name(int id)
{
	const struct ssl_opt *o;

	for (o = run_opts; o->name; o++)
		if (o->id == id)
			return o->name;
	return "?";
}

static const char *const rw_names[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw",
	"trim", "randtrim", "trimwrite", "randtrimwrite",
};

/* iodepth: 1 to the module's SSDLOAD_MAX_IODEPTH */
int depth_opt(struct run_ctx *c, uint64_t *out)
{
	char why[64];
	uint64_t v = 0;

	if (u64_opt(c, O_IODEPTH, NULL, &v))
		return -1;
	if (!c->raw[O_IODEPTH])
		return 0;
	if (!v || v > SSDLOAD_MAX_IODEPTH) {
		snprintf(why, sizeof(why), "out of range (1 to %u)", SSDLOAD_MAX_IODEPTH);
		return bad_value(c, O_IODEPTH, why);
	}
	if (out)
		*out = v;
	add_write_u64(c, SSDLOAD_ATTR_IODEPTH, v);
	return 0;
}

/* numjobs (the job's, or a step's): 1 to 1024 workers, into @n and the attribute */
int numjobs_opt(struct run_ctx *c, uint64_t *n)
{
	if (ssl_parse_u64(c->raw[O_NUMJOBS], n) || !*n || *n > SSL_NUMJOBS_MAX)
		return bad_value(c, O_NUMJOBS, "must be a number of workers, 1 to 1024");
	add_write_u64(c, SSDLOAD_ATTR_NUMJOBS, *n);
	return 0;
}

/*
 * --numjobs=N: N workers (the numjobs attribute).  Without --cpus_allowed
 * they go round-robin over the first N online CPUs (all of them if fewer),
 * like the scheduler spreads fio's clones; the module's default would put
 * them all on one CPU.
 */
static int numjobs_cpus(struct run_ctx *c)
{
	char *online, list[4096];
	uint64_t n;
	int r;

	if (numjobs_opt(c, &n))
		return -1;
	if (c->raw[O_CPUS_ALLOWED])
		return 0;
	r = ssl_read_file(ssl_cpu_online_path(), &online, NULL);
	if (r) {
		ssl_err("%s: %s", ssl_cpu_online_path(), strerror(-r));
		return -1;
	}
	r = ssl_cpulist_first_n(online, (unsigned int)n, list, sizeof(list));
	if (r > 0)	/* fewer CPUs than workers: all of them */
		r = ssl_cpulist_first_n(online, (unsigned int)r, list, sizeof(list));
	free(online);
	if (r < 0) {
		ssl_err("%s: cannot parse the online CPU list", ssl_cpu_online_path());
		return -1;
	}
	add_write(c, SSDLOAD_ATTR_CPUS_ALLOWED, list);
	return 0;
}

/* An option converted by a fioopts.c converter into its attribute. */
static int conv_opt(struct run_ctx *c, int id, const char *attr,
		    int (*conv)(const char *, char *, size_t, char *, size_t))
{
	char val[4096], why[256];

	if (!c->raw[id])
		return 0;
	if (conv(c->raw[id], val, sizeof(val), why, sizeof(why)))
		return bad_value(c, id, why);
	add_write(c, attr, val);
	return 0;
}

/* A percentage 0..100 option. */
static int pct_opt(struct run_ctx *c, int id, const char *attr)
{
	uint64_t v;

	if (!c->raw[id])
		return 0;
	if (ssl_parse_u64(c->raw[id], &v) || v > 100)
		return bad_value(c, id, "must be a percentage, 0 to 100");
	add_write_u64(c, attr, v);
	return 0;
}

/*
 * fio's io_size (io_limit): the bytes each clone moves, looping over the
 * span, before it stops (or at --runtime, whichever comes first).  Here
 * the job's number_ios: ceil(io_size / bs) I/Os (fio stops a clone once
 * it moved io_size) for each of the numjobs workers.
 */
static int io_size_opt(struct run_ctx *c)
{
	uint64_t bytes, bs = SSL_DEFAULT_BS, n = 1;

	if (!c->raw[O_IO_SIZE])
		return 0;
	if (c->raw[O_NUMBER_IOS])
		return bad_value(c, O_IO_SIZE, "give io_size or number_ios, not both");
	if (c->nsrc)
		return bad_value(c, O_IO_SIZE, "not with steps: give each step number_ios=");
	if (c->raw[O_BSSPLIT] || c->raw[O_BSRANGE] ||
	    (c->raw[O_BS] && strchr(c->raw[O_BS], ',')))
		return bad_value(c, O_IO_SIZE, "needs one block size (bs): it becomes a "
				 "count of I/Os");
	if (strchr(c->raw[O_IO_SIZE], '%'))
		return bad_value(c, O_IO_SIZE, "a percentage is not supported: give a size");
	if (ssl_parse_size(c->raw[O_IO_SIZE], &bytes) || !bytes)
		return bad_value(c, O_IO_SIZE, "not a size above 0 (bytes, or with "
				 "k/m/g/t suffix)");
	if (c->time_based && c->raw[O_RUNTIME]) {
		/* fio: a time_based job runs its runtime, whatever io_size says */
		run_note("io_size=%s ignored: time_based runs for the runtime (as fio)",
			 c->raw[O_IO_SIZE]);
		return 0;
	}
	if (c->raw[O_BS] && ssl_parse_size(c->raw[O_BS], &bs))
		return -1;		/* refused by block_size_opts() already */
	if (c->raw[O_NUMJOBS] && ssl_parse_u64(c->raw[O_NUMJOBS], &n))
		return -1;
	/* per_clone: the module counts number_ios per worker already */
	if (c->per_clone)
		n = 1;
	add_write_u64(c, SSDLOAD_ATTR_NUMBER_IOS, n * ((bytes + bs - 1) / bs));
	return 0;
}

/*
 * fio's time_based: without it a timed run also ends once it covered the
 * span (one pass: the module's time_based=0), as fio stops a job after
 * `size` bytes; with it the run lasts its runtime.  A count (number_ios,
 * io_size) and steps end a run by their own rules: there the module's
 * default (time based) stays.  Each of --loops is a pass (or a runtime).
 */
static void time_based_opt(struct run_ctx *c, uint64_t number_ios)
{
	/* number_ios=0 is no count, as in fio */
	if (!c->time_based && c->raw[O_RUNTIME] && !number_ios && !c->raw[O_IO_SIZE] &&
	    !c->nsrc)
		add_write_u64(c, SSDLOAD_ATTR_TIME_BASED, 0);
}

/* --bs, --bsrange, --bssplit, --blockalign */
int block_size_opts(struct run_ctx *c)
{
	char val[4096], why[256];
	uint64_t v, def_bs = SSL_DEFAULT_BS;

	if (c->raw[O_BS] && strchr(c->raw[O_BS], ',')) {
		if (c->raw[O_BSRANGE])
			return bad_value(c, O_BS, "per-direction block sizes cannot be "
					 "combined with --bsrange");
		/* fio's bs=r,w,t: a range min = max per direction */
		if (ssl_conv_bsrange(c->raw[O_BS], 1, SSL_DEFAULT_BS, val, sizeof(val),
				     why, sizeof(why)))
			return bad_value(c, O_BS, why);
		add_write(c, SSDLOAD_ATTR_BSRANGE, val);
	} else if (c->raw[O_BS]) {
		if (ssl_parse_size(c->raw[O_BS], &def_bs))
			return bad_value(c, O_BS, "not a size (bytes, or with k/m/g/t suffix)");
		if (!def_bs)
			return bad_value(c, O_BS, "must be above 0 (as fio)");
		add_write_u64(c, SSDLOAD_ATTR_BS, def_bs);
	}
	if (c->raw[O_BSRANGE]) {
		if (ssl_conv_bsrange(c->raw[O_BSRANGE], 0, def_bs, val, sizeof(val),
				     why, sizeof(why)))
			return bad_value(c, O_BSRANGE, why);
		add_write(c, SSDLOAD_ATTR_BSRANGE, val);
	}
	if (conv_opt(c, O_BSSPLIT, SSDLOAD_ATTR_BSSPLIT, ssl_conv_bssplit))
		return -1;
	if (c->raw[O_BLOCKALIGN]) {
		if (ssl_conv_blockalign(c->raw[O_BLOCKALIGN], &v, why, sizeof(why)))
			return bad_value(c, O_BLOCKALIGN, why);
		add_write_u64(c, SSDLOAD_ATTR_BLOCKALIGN, v);
	}
	return 0;
}

static int filename_opt(struct run_ctx *c)
{
	char why[256];
	int n;

	c->filename = c->raw[O_FILENAME];
	if ((!c->filename || !*c->filename) && c->section_where) {
		ssl_err("%s: [%s] has no filename=DEV (a block device), nor is "
			"--filename=DEV given", c->section_where, c->section);
		return -1;
	}
	if (!c->filename || !*c->filename) {
		ssl_err("run: --filename=DEV is required (a block device)");
		return -1;
	}
	n = ssl_split_filenames(c->filename, c->devs, SSL_MAX_DEVS, why, sizeof(why));
	if (n < 0)
		return bad_value(c, O_FILENAME, why);
	c->ndevs = n;
	add_write(c, SSDLOAD_ATTR_FILENAME, c->filename);
	return 0;
}

/* the write-buffer content options */
static int buffer_opts(struct run_ctx *c)
{
	uint64_t v;

	if (pct_opt(c, O_BUFFER_COMPRESS_PERCENTAGE, SSDLOAD_ATTR_BUFFER_COMPRESS_PERCENTAGE) ||
	    pct_opt(c, O_DEDUPE_PERCENTAGE, SSDLOAD_ATTR_DEDUPE_PERCENTAGE))
		return -1;
	if (c->raw[O_BUFFER_COMPRESS_CHUNK]) {
		if (ssl_parse_size(c->raw[O_BUFFER_COMPRESS_CHUNK], &v))
			return bad_value(c, O_BUFFER_COMPRESS_CHUNK,
					 "not a size (bytes, or with k/m suffix)");
		if (!v || v > SSDLOAD_MAX_BS)
			return bad_value(c, O_BUFFER_COMPRESS_CHUNK,
					 "must be 1 byte to 16MiB");
		add_write_u64(c, SSDLOAD_ATTR_BUFFER_COMPRESS_CHUNK, v);
	}
	if (conv_opt(c, O_BUFFER_PATTERN, SSDLOAD_ATTR_BUFFER_PATTERN, ssl_conv_pattern) ||
	    flag_opt(c, O_ZERO_BUFFERS, SSDLOAD_ATTR_ZERO_BUFFERS, NULL) ||
	    flag_opt(c, O_REFILL_BUFFERS, SSDLOAD_ATTR_REFILL_BUFFERS, NULL))
		return -1;
	return 0;
}

static int conv_rate_iops(const char *in, char *out, size_t len, char *why, size_t wlen)
{
	return ssl_conv_rate(in, 0, out, len, why, wlen);
}

static int conv_rate_bps(const char *in, char *out, size_t len, char *why, size_t wlen)
{
	return ssl_conv_rate(in, 1, out, len, why, wlen);
}

/* which directions a converted rate list ("v" or "r,w,t") caps */
static unsigned int rate_dirs(const char *val)
{
	const char *p = val;
	unsigned int mask = 0;
	int d;

	if (!strchr(val, ','))
		return 7;
	for (d = 0; d < 3 && p; d++) {
		if (*p && *p != ',')
			mask |= 1U << d;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return mask;
}

/*
 * fio's write_bw_log, write_iops_log, write_lat_log and write_hist_log:
 * written at the end from the time series, so they set log_interval_ms
 * (log_avg_msec, else log_hist_msec, else 500 ms with a note: fio logs each
 * I/O without log_avg_msec, the kernel series cannot) and log_hist.
 */
static int fio_log_opts(struct run_ctx *c)
{
	static const int ids[SSL_LOG_NR] = {
		O_WRITE_BW_LOG, O_WRITE_IOPS_LOG, O_WRITE_LAT_LOG, O_WRITE_HIST_LOG,
	};
	uint64_t avg = 0, hist = 0, series = 0;
	int k, lo = 0;

	for (k = 0; k < SSL_LOG_NR; k++) {
		const char *v = c->raw[ids[k]];

		if (!v || !strcmp(v, "0"))
			continue;
		/* fio: no value (or "1", a flag) is the job's name */
		c->logs.prefix[k] = *v && strcmp(v, "1") ? v : c->name;
		if (!c->want_logs && !c->raw[O_RUNTIME] && !c->nsrc)
			return bad_value(c, ids[k], "ssdload writes fio's logs from the kernel's "
					 "time series, whose records are allocated for the run's "
					 "length: a run bound only by its size has none; give "
					 "--runtime=T as its limit (it still ends when its span "
					 "is done, as fio's)");
		c->want_logs = 1;
	}
	if (c->raw[O_LOG_AVG_MSEC] && ssl_parse_time_ms(c->raw[O_LOG_AVG_MSEC], 1, &avg))
		return bad_value(c, O_LOG_AVG_MSEC, "not a time (milliseconds, or with a unit)");
	if (c->raw[O_LOG_HIST_MSEC] && ssl_parse_time_ms(c->raw[O_LOG_HIST_MSEC], 1, &hist))
		return bad_value(c, O_LOG_HIST_MSEC, "not a time (milliseconds, or with a unit)");
	if (flag_opt(c, O_LOG_OFFSET, NULL, &lo))
		return -1;
	if (!c->want_logs)
		return 0;
	if (c->raw[O_BS] && !strchr(c->raw[O_BS], ','))
		ssl_parse_size(c->raw[O_BS], &c->logs.bs);	/* checked below */
	else if (!c->raw[O_BS] && !c->raw[O_BSSPLIT] && !c->raw[O_BSRANGE])
		c->logs.bs = SSL_DEFAULT_BS;
	if (c->raw[O_LOG_INTERVAL_MS] &&
	    ssl_parse_time_ms(c->raw[O_LOG_INTERVAL_MS], 1, &series))
		return bad_value(c, O_LOG_INTERVAL_MS,
				 "not a time (milliseconds, or with ms/s/m/h suffix)");
	if (series && avg && series != avg)
		return bad_value(c, O_LOG_AVG_MSEC, "the logs average over the series' "
				 "intervals: give log_interval_ms the same value, or one of them");
	if (!series)
		series = avg ? avg : hist ? hist : 500;
	if (!avg && (c->logs.prefix[SSL_LOG_BW] || c->logs.prefix[SSL_LOG_IOPS] ||
		     c->logs.prefix[SSL_LOG_LAT]))
		run_note("fio logs each I/O without log_avg_msec; ssdload's logs average "
			 "over %" PRIu64 " ms (its time series)", series);
	if (c->logs.prefix[SSL_LOG_HIST]) {
		if (!hist)
			hist = series;
		if (hist % series)
			return bad_value(c, O_LOG_HIST_MSEC, "must be a multiple of "
					 "log_avg_msec (the series' interval)");
		c->logs.hist_ms = hist;
		if (!c->raw[O_LOG_HIST])
			c->raw[O_LOG_HIST] = "1";
	}
	if (lo)
		run_note("log_offset: averaged log lines carry no offset (0, as fio's)");
	if (!c->raw[O_LOG_INTERVAL_MS]) {
		snprintf(c->series_ms, sizeof(c->series_ms), "%" PRIu64, series);
		c->raw[O_LOG_INTERVAL_MS] = c->series_ms;
		c->raw_name[O_LOG_INTERVAL_MS] = "log_avg_msec";
	}
	return 0;
}

/*
 * --rate_iops, --rate, --rate_process, --log_interval_ms, --log_hist:
 * what the module would refuse at enable is refused here first.
 */
int rate_series_opts(struct run_ctx *c)
{
	static const char *const dirs[] = { "reads", "writes", "trims" };
	char iops[4096] = "", bps[4096] = "", why[256];
	uint64_t ms = 0, runtime = 0;
	unsigned int both;
	int hist = 0, nolat = 0, d;

	if (c->raw[O_RATE_IOPS]) {
		if (conv_rate_iops(c->raw[O_RATE_IOPS], iops, sizeof(iops), why, sizeof(why)))
			return bad_value(c, O_RATE_IOPS, why);
		add_write(c, SSDLOAD_ATTR_RATE_IOPS, iops);
	}
	if (c->raw[O_RATE]) {
		if (conv_rate_bps(c->raw[O_RATE], bps, sizeof(bps), why, sizeof(why)))
			return bad_value(c, O_RATE, why);
		add_write(c, SSDLOAD_ATTR_RATE, bps);
	}
	both = iops[0] && bps[0] ? rate_dirs(iops) & rate_dirs(bps) : 0;
	for (d = 0; d < 3; d++)
		if (both & (1U << d)) {
			ssl_err("%s%s%s=%s and %s%s=%s both cap %s: set one of them per "
				"direction", c->where ? c->where : "", c->where ? ": " : "--",
				c->raw_name[O_RATE_IOPS], c->raw[O_RATE_IOPS],
				c->where ? "" : "--", c->raw_name[O_RATE], c->raw[O_RATE],
				dirs[d]);
			return -1;
		}
	if (c->raw[O_RATE_PROCESS]) {
		if (strcmp(c->raw[O_RATE_PROCESS], "linear") &&
		    strcmp(c->raw[O_RATE_PROCESS], "poisson"))
			return bad_value(c, O_RATE_PROCESS, "must be linear or poisson");
		add_write(c, SSDLOAD_ATTR_RATE_PROCESS, c->raw[O_RATE_PROCESS]);
	}
	if (c->raw[O_LOG_INTERVAL_MS]) {
		if (ssl_parse_time_ms(c->raw[O_LOG_INTERVAL_MS], 1, &ms))
			return bad_value(c, O_LOG_INTERVAL_MS,
					 "not a time (milliseconds, or with ms/s/m/h suffix)");
		if (c->raw[O_RUNTIME])
			ssl_parse_time_ms(c->raw[O_RUNTIME], 1000, &runtime);
		/* with steps the module checks that every step is timed */
		if (ms && !runtime && !c->nsrc)
			return bad_value(c, O_LOG_INTERVAL_MS,
					 "a time series needs a timed run: give --runtime");
		add_write_u64(c, SSDLOAD_ATTR_LOG_INTERVAL_MS, ms);
	}
	if (flag_opt(c, O_LOG_HIST, SSDLOAD_ATTR_LOG_HIST, &hist) ||
	    flag_opt(c, O_DISABLE_LAT, NULL, &nolat))
		return -1;
	if (hist && !ms) {
		ssl_err("--%s needs --log_interval_ms (the series it adds percentiles to)",
			c->raw_name[O_LOG_HIST]);
		return -1;
	}
	if (hist && nolat) {
		ssl_err("--%s needs latencies: not with --%s", c->raw_name[O_LOG_HIST],
			c->raw_name[O_DISABLE_LAT]);
		return -1;
	}
	return 0;
}

/*
 * fio's rw suffix (rw=read:8k, rw=randread:8): for sequential I/O a gap
 * added after each I/O (negative: backwards), the module's rw_gap; for
 * random I/O the I/Os issued per new random offset, the module's
 * rw_seq_nr (the next blocks: rw_sequencer=sequential, fio's default).
 * Both walk by whole blocks: one block size.
 */
static int rw_suffix(struct run_ctx *c, const char *sfx, int random)
{
	const char *s = sfx + strspn(sfx, " \t"), *seq = c->raw[O_RW_SEQUENCER];
	int several = c->raw[O_BSSPLIT] || c->raw[O_BSRANGE] ||
		      (c->raw[O_BS] && strchr(c->raw[O_BS], ','));
	char gap[32];
	uint64_t v;

	if (random) {
		if (ssl_parse_u64(s, &v) || !v || v > SSDLOAD_MAX_RW_SEQ_NR)
			return bad_value(c, O_RW, "the suffix of a random rw is the number "
					 "of I/Os per random offset (rw_sequencer), a count "
					 "from 1 to 4294967295");
		if (v == 1)
			return 0;
		if (seq && !strcmp(seq, "identical"))
			return bad_value(c, O_RW_SEQUENCER, "the same block several times "
					 "per random offset is not supported: ssdload goes on to "
					 "the next blocks (rw_sequencer=sequential)");
		if (several)
			return bad_value(c, O_RW, "several I/Os per random offset need one "
					 "block size (bs)");
		add_write_u64(c, SSDLOAD_ATTR_RW_SEQ_NR, v);
		return 0;
	}
	if (ssl_parse_size(*s == '-' ? s + 1 : s, &v))
		return bad_value(c, O_RW, "the suffix of a sequential rw is a gap (bytes, "
				 "or with k/m/g/t suffix; negative: backwards)");
	if (!v)
		return 0;
	if (v > SSDLOAD_MAX_RW_GAP || v % SSDLOAD_SPAN_ALIGN)
		return bad_value(c, O_RW, "the gap must be a multiple of 512 bytes, "
				 "at most 1t either way");
	if (several)
		return bad_value(c, O_RW, "a gap after each sequential I/O needs one "
				 "block size (bs)");
	snprintf(gap, sizeof(gap), "%s%" PRIu64, *s == '-' ? "-" : "", v);
	add_write(c, SSDLOAD_ATTR_RW_GAP, gap);
	return 0;
}

/* --rw: the attribute, and whether the job writes or trims */
int rw_opt(struct run_ctx *c)
{
	const char *sfx;
	size_t i, n;

	if (!c->raw[O_RW])
		return 0;
	sfx = strchr(c->raw[O_RW], ':');
	n = sfx ? (size_t)(sfx - c->raw[O_RW]) : strlen(c->raw[O_RW]);
	for (i = 0; i < ARRAY_SIZE(rw_names); i++)
		if (strlen(rw_names[i]) == n && !strncmp(c->raw[O_RW], rw_names[i], n))
			break;
	if (n == strlen("readwrite") && !strncmp(c->raw[O_RW], "readwrite", n))
		i = 4;
	if (i < ARRAY_SIZE(rw_names) && sfx &&
	    rw_suffix(c, sfx + 1, !strncmp(rw_names[i], "rand", 4)))
		return -1;
	if (i == ARRAY_SIZE(rw_names))
		return bad_value(c, O_RW,
				 "must be read, write, randread, randwrite, rw, randrw, "
				 "trim, randtrim, trimwrite or randtrimwrite");
	add_write(c, SSDLOAD_ATTR_RW, rw_names[i]);
	c->trims = strstr(rw_names[i], "trim") != NULL;
	c->writes = i != 0 && i != 2 && (!c->trims || strstr(rw_names[i], "write"));
	return 0;
}

/* --rwmixread, --rwmixwrite: the rwmixread attribute */
int mix_opt(struct run_ctx *c)
{
	uint64_t v, mix;
	int id;

	if (!c->raw[O_RWMIXREAD] && !c->raw[O_RWMIXWRITE])
		return 0;
	id = c->raw[O_RWMIXREAD] ? O_RWMIXREAD : O_RWMIXWRITE;
	if (ssl_parse_u64(c->raw[id], &mix) || mix > 100)
		return bad_value(c, id, "must be a percentage, 0 to 100");
	if (id == O_RWMIXWRITE)
		mix = 100 - mix;
	if (c->raw[O_RWMIXREAD] && c->raw[O_RWMIXWRITE]) {
		if (ssl_parse_u64(c->raw[O_RWMIXWRITE], &v) || v > 100)
			return bad_value(c, O_RWMIXWRITE, "must be a percentage, 0 to 100");
		if (v + mix != 100) {
			ssl_err("%s%s%s=%s and %s%s=%s do not add up to 100",
				c->where ? c->where : "", c->where ? ": " : "--",
				c->raw_name[O_RWMIXREAD], c->raw[O_RWMIXREAD],
				c->where ? "" : "--", c->raw_name[O_RWMIXWRITE],
				c->raw[O_RWMIXWRITE]);
			return -1;
		}
	}
	add_write_u64(c, SSDLOAD_ATTR_RWMIXREAD, mix);
	return 0;
}

/* options of the command line alone: not in a job file, not job options */
int cmdline_only(int id)
{
	switch (id) {
	case O_OUTPUT_FORMAT: case O_PARSE_ONLY: case O_ETA: case O_STATUS_INTERVAL:
	case O_KEEP_JOB: case O_LATENCY_TABLE: case O_LATENCY_BELOW:
	case O_LATENCY_CHECK: case O_PROFILE: case O_SECTION: case O_STEP: case O_STEPS:
	case O_OUTPUT: case O_TRIGGER_TIMEOUT: case O_TRIGGER_FILE: case O_TRIGGER_CMD:
		return 1;
	}
	return 0;
}

/* fio's ioengine: ssl_fio_engine_why() says which ones are refused */
static int ioengine_opt(const struct run_ctx *c)
{
	const char *why = c->raw[O_IOENGINE] ? ssl_fio_engine_why(c->raw[O_IOENGINE]) : NULL;

	return why ? bad_value(c, O_IOENGINE, why) : 0;
}

/* fio's options with no meaning for an in-kernel engine: a note, never silence */
static void noop_notes(const struct run_ctx *c)
{
	static const struct {
		int id;
		const char *why;
	} noop[] = {
		{ O_IOENGINE, "ssdload.ko is the engine: it submits bios itself" },
		{ O_THREAD, "the workers are kernel threads" },
		{ O_INVALIDATE, "I/O is direct: there is no page cache to invalidate" },
		{ O_FADVISE_HINT, "I/O is direct: there is no page cache to advise" },
		{ O_CLOCKSOURCE, "latencies are taken with the kernel's ktime" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(noop); i++)
		if (c->raw[noop[i].id])
			run_opt_note(c, noop[i].id, " ignored: ", noop[i].why);
}

/*
 * numjobs=N makes one job of N workers, where fio makes N clones: without
 * per_clone a note for each option whose meaning differs then
 * (Documentation/cli.rst, Differences from fio); with it the workers are
 * fio's clones.  Called once the job is valid, steps included.  A count
 * (number_ios, io_size) bounds a run by I/Os, not by the span.
 */
void numjobs_notes(const struct run_ctx *c)
{
	static const int per_job[] = { O_RATE_IOPS, O_RATE, O_NUMBER_IOS };
	const char *rw = c->raw[O_RW] ? c->raw[O_RW] : "read";
	const char *nj = c->raw[O_NUMJOBS], *at = c->from[O_NUMJOBS];
	uint64_t n;
	size_t i;

	if (!nj || ssl_parse_u64(nj, &n) || n < 2 || c->per_clone)
		return;
	for (i = 0; i < ARRAY_SIZE(per_job); i++)
		if (c->raw[per_job[i]] && *c->raw[per_job[i]])
			run_note("%s%snumjobs=%s with %s=%s: the %s is the job's, shared by "
				 "its %s workers; fio's is each clone's (%s times as much; "
				 "--per_clone=1 gives fio's)",
				 at ? at : "--", at ? ": " : "", nj, c->raw_name[per_job[i]],
				 c->raw[per_job[i]], per_job[i] == O_NUMBER_IOS ? "count" : "cap",
				 nj, nj);
	if (strncmp(rw, "rand", 4) && !c->raw[O_NUMBER_IOS] && !c->raw[O_IO_SIZE] &&
	    !c->raw[O_OFFSET_INCREMENT] && !c->raw[O_SIZE_INCREMENT])
		run_note("%s%snumjobs=%s with rw=%s: the %s workers split the span into "
			 "slices; fio's clones each cover the whole span (--per_clone=1 "
			 "gives fio's)",
			 at ? at : "--", at ? ": " : "", nj, rw, nj);
}

/* how to report: --output-format, --percentile_list, --latency-*, --eta, ... */
static int report_opts(struct run_ctx *c)
{
	size_t i;
	int b;

	if (c->raw[O_OUTPUT_FORMAT] &&
	    ssl_parse_output_format(c->raw[O_OUTPUT_FORMAT], &c->fmt))
		return bad_value(c, O_OUTPUT_FORMAT,
				 "must be normal, json or json+, or a comma list of them");
	if (c->raw[O_PERCENTILE_LIST] &&
	    ssl_parse_percentiles(c->raw[O_PERCENTILE_LIST], c->plist,
				  SSL_MAX_PERCENTILES, &c->np))
		return bad_value(c, O_PERCENTILE_LIST,
				 "must be values in (0,100] separated by ':'");
	for (i = O_LATENCY_TABLE; i <= O_LATENCY_CHECK; i++)
		if (c->raw[i] && ssl_latstudy_opt(&c->lat, run_opts_name((int)i),
						  i == O_LATENCY_TABLE && !*c->raw[i] ?
						  NULL : c->raw[i]))
			return -1;
	if (c->raw[O_ETA] && ssl_parse_eta(c->raw[O_ETA], &c->eta))
		return bad_value(c, O_ETA, "must be always, auto or never");
	if (c->raw[O_STATUS_INTERVAL]) {
		if (ssl_parse_time_ms(c->raw[O_STATUS_INTERVAL], 1000, &c->status_ms))
			return bad_value(c, O_STATUS_INTERVAL,
					 "not a time (seconds, or with ms/s/m/h suffix)");
		if (c->status_ms < POLL_MS)
			return bad_value(c, O_STATUS_INTERVAL,
					 "must be at least 200ms (the polling period)");
	}
	if (run_trigger_opts(c))
		return -1;
	if (flag_opt(c, O_PARSE_ONLY, NULL, &c->parse_only) ||
	    flag_opt(c, O_KEEP_JOB, NULL, &c->keep_job) ||
	    flag_opt(c, O_TIME_BASED, NULL, &c->time_based) ||
	    /* one job: its place among a file's others is run_file_jobs()'s */
	    flag_opt(c, O_STONEWALL, NULL, NULL) || flag_opt(c, O_NEW_GROUP, NULL, NULL) ||
	    flag_opt(c, O_GROUP_REPORTING, NULL, &c->group_reporting))
		return -1;
	if (c->raw[O_DIRECT] && *c->raw[O_DIRECT] &&
	    (ssl_parse_bool(c->raw[O_DIRECT], &b) || !b))
		return bad_value(c, O_DIRECT, "ssdload always does direct I/O");
	return 0;
}

/* the job's name: --name, else its section's, else ssdload-PID */
static int name_opt(struct run_ctx *c)
{
	if (c->raw[O_NAME]) {
		const char *n = c->raw[O_NAME];

		if (!*n || strchr(n, '/') || !strcmp(n, ".") || !strcmp(n, "..") ||
		    strlen(n) >= sizeof(c->name))
			return bad_value(c, O_NAME, "not a valid job name");
		snprintf(c->name, sizeof(c->name), "%s", n);
	} else if (c->section) {
		/* fio names a job after its section; configfs takes no '/' */
		if (strchr(c->section, '/') || strlen(c->section) >= sizeof(c->name) ||
		    !strcmp(c->section, ".") || !strcmp(c->section, "..")) {
			ssl_err("%s: [%s] is not a valid job name: give name= or --name",
				c->jobfile, c->section);
			return -1;
		}
		snprintf(c->name, sizeof(c->name), "%s", c->section);
	} else {
		snprintf(c->name, sizeof(c->name), "ssdload-%ld", (long)getpid());
	}
	return 0;
}

/* the I/O pattern and who issues it: --rw, mixes, block sizes, depth, workers */
static int pattern_opts(struct run_ctx *c)
{
	if (rw_opt(c) || mix_opt(c) || block_size_opts(c))
		return -1;
	if (depth_opt(c, &c->iodepth))
		return -1;

	if (c->raw[O_CPUS_ALLOWED]) {
		const char *p = c->raw[O_CPUS_ALLOWED];

		if (!*p || strspn(p, "0123456789,-") != strlen(p))
			return bad_value(c, O_CPUS_ALLOWED, "not a cpulist (e.g. 0-1,3)");
		add_write(c, SSDLOAD_ATTR_CPUS_ALLOWED, p);
	}
	if (c->raw[O_NUMJOBS] && numjobs_cpus(c))
		return -1;
	return 0;
}

/*
 * fio's filesize: the size of each file's I/O region.  ssdload's target is
 * one device (a --filename list splits --size among its devices), so one
 * size is fio's --size; a range draws a size per file and is refused.
 */
static int filesize_opt(struct run_ctx *c)
{
	const char *f = c->raw[O_FILESIZE];
	uint64_t a, b;

	if (!f)
		return 0;
	if (strchr(f, '-') || strchr(f, ':'))
		return bad_value(c, O_FILESIZE, "a range draws a size per file: give one "
				 "size, or --size");
	if (strchr(f, '%') || ssl_parse_size(f, &a) || !a)
		return bad_value(c, O_FILESIZE, "not a size above 0 (bytes, or with "
				 "k/m/g/t suffix)");
	if (!c->raw[O_SIZE]) {
		c->raw[O_SIZE] = f;	/* one device: its region is fio's size */
		return 0;
	}
	if (strchr(c->raw[O_SIZE], '%') || ssl_parse_size(c->raw[O_SIZE], &b) || a != b)
		return bad_value(c, O_FILESIZE, "differs from size: with one device "
				 "they are the same region; give one of them");
	return 0;
}

/* @v (ssl_conv_span()'s, bytes or a percentage) times @n, into @out */
static int span_times(const char *v, uint64_t n, char *out, size_t len)
{
	char why[256], num[64];
	uint64_t b;
	double p;

	if (v[strlen(v) - 1] == '%') {
		p = strtod(v, NULL) * (double)n;
		if (p > 100.0)
			return -1;
		snprintf(num, sizeof(num), "%.4f%%", p);
		return ssl_conv_span(num, out, len, why, sizeof(why));
	}
	b = strtoull(v, NULL, 10);
	if (b > UINT64_MAX / n)
		return -1;
	snprintf(out, len, "%" PRIu64, b * n);
	return 0;
}

/*
 * fio's offset_increment as a percentage: taken when it equals size (both
 * percentages), as ssdload's numjobs slices of a span of numjobs times
 * size; fio's clones cover the same regions.  Then --size.
 */
static int increment_pct(struct run_ctx *c, const char *inc, uint64_t n)
{
	char size[4096], span[4096], why[256];

	if (c->nsrc)
		return bad_value(c, O_OFFSET_INCREMENT, "a percentage is not taken with "
				 "steps: a step's numjobs would slice the span anew (give "
				 "bytes)");
	if (!c->raw[O_SIZE] ||
	    ssl_conv_span(c->raw[O_SIZE], size, sizeof(size), why, sizeof(why)) ||
	    strcmp(inc, size))
		return bad_value(c, O_OFFSET_INCREMENT, "a percentage is taken only equal "
				 "to size (the clones then take consecutive slices): give "
				 "bytes otherwise");
	if (span_times(size, n, span, sizeof(span)))
		return bad_value(c, O_OFFSET_INCREMENT, "numjobs times size is more than "
				 "the device (100%)");
	add_write(c, SSDLOAD_ATTR_SIZE, span);
	if (c->per_clone)
		run_opt_note(c, O_OFFSET_INCREMENT, ": ", "the workers take consecutive "
			     "slices (a percentage increment): rate_iops and number_ios "
			     "are the job's, as without per_clone");
	c->per_clone = 0;
	return 0;
}

/* offset_increment or size_increment in bytes: a multiple of 512 up to 2^48 */
static int increment_bytes(struct run_ctx *c, int id, uint64_t *v)
{
	if (ssl_parse_size(c->raw[id], v))
		return bad_value(c, id, "not a size (bytes, or with k/m/g/t suffix)");
	if (*v % SSDLOAD_SPAN_ALIGN || *v > SSDLOAD_MAX_INCREMENT)
		return bad_value(c, id, "must be a multiple of 512 bytes, at most 256t");
	return 0;
}

/*
 * fio's offset_increment: clone k of numjobs covers offset + k *
 * offset_increment, size bytes (to the device's end without size).  The
 * module's offset_increment and size_increment give worker k that region
 * (size_increment: size + k * it bytes, an ssdload extension, which fio
 * 3.33 does not have).  With one worker, or increments of 0, every clone
 * starts at offset.  Then --size.
 */
static int offset_increment_opt(struct run_ctx *c)
{
	char inc[4096], why[256];
	uint64_t n = 1, oi = 0, si = 0;

	if (c->raw[O_NUMJOBS])
		ssl_parse_u64(c->raw[O_NUMJOBS], &n);	/* checked by numjobs_cpus() */
	if (c->raw[O_OFFSET_INCREMENT]) {
		if (ssl_conv_span(c->raw[O_OFFSET_INCREMENT], inc, sizeof(inc), why,
				  sizeof(why)))
			return bad_value(c, O_OFFSET_INCREMENT, why);
		if (strchr(inc, '%') && n > 1 && !c->raw[O_SIZE_INCREMENT])
			return increment_pct(c, inc, n);
		if (strchr(inc, '%'))
			return bad_value(c, O_OFFSET_INCREMENT, "a percentage is taken only "
					 "equal to size, without size_increment: give bytes");
		if (increment_bytes(c, O_OFFSET_INCREMENT, &oi))
			return -1;
	}
	if (c->raw[O_SIZE_INCREMENT]) {
		if (increment_bytes(c, O_SIZE_INCREMENT, &si))
			return -1;
		if (si && !c->raw[O_SIZE])
			return bad_value(c, O_SIZE_INCREMENT, "needs size (each clone's "
					 "region grows from it)");
	}
	if (n > 1 && oi)
		add_write_u64(c, SSDLOAD_ATTR_OFFSET_INCREMENT, oi);
	if (n > 1 && si)
		add_write_u64(c, SSDLOAD_ATTR_SIZE_INCREMENT, si);
	return conv_opt(c, O_SIZE, SSDLOAD_ATTR_SIZE, ssl_conv_span);
}

/*
 * per_clone: fio's numjobs clones (the module's per_clone), each with
 * the whole span, rate and number_ios.  --per_clone[=0|1]; by default on
 * for a numjobs of a job file (fio's own files mean fio's clones), off
 * for --numjobs of the command line and for --profile, ssdload's
 * methods' workers.
 */
static int per_clone_opt(struct run_ctx *c)
{
	uint64_t n = 1;
	int b = 0;

	if (c->raw[O_NUMJOBS])
		ssl_parse_u64(c->raw[O_NUMJOBS], &n);
	if (c->raw[O_PER_CLONE]) {
		if (flag_opt(c, O_PER_CLONE, NULL, &b))
			return -1;
	} else {
		b = c->from[O_NUMJOBS] && !c->raw[O_PROFILE];
	}
	c->per_clone = b && n > 1;
	return 0;
}

/* where and how long: --offset, --size, --runtime, --ramp_time, counts, seed */
static int extent_opts(struct run_ctx *c)
{
	uint64_t v, nios = 0;

	if (filesize_opt(c))
		return -1;
	if (per_clone_opt(c) || conv_opt(c, O_OFFSET, SSDLOAD_ATTR_OFFSET, ssl_conv_span) ||
	    offset_increment_opt(c) ||
	    time_opt(c, O_RUNTIME, SSDLOAD_ATTR_RUNTIME_MS) ||
	    time_opt(c, O_RAMP_TIME, SSDLOAD_ATTR_RAMP_MS) ||
	    u64_opt(c, O_NUMBER_IOS, SSDLOAD_ATTR_NUMBER_IOS, &nios) || io_size_opt(c))
		return -1;
	time_based_opt(c, nios);
	if (c->per_clone)
		add_write_u64(c, SSDLOAD_ATTR_PER_CLONE, 1);
	if (c->raw[O_RANDSEED]) {
		if (ssl_parse_seed(c->raw[O_RANDSEED], &v))
			return bad_value(c, O_RANDSEED, "not an integer");
		add_write_u64(c, SSDLOAD_ATTR_RANDSEED, v);
	}
	return 0;
}

/* A time in us (a bare number: @bare_us units) into @attr. */
static int us_opt(struct run_ctx *c, int id, const char *attr, uint64_t bare_us,
		  uint64_t *out)
{
	uint64_t v;

	if (!c->raw[id])
		return 0;
	if (ssl_parse_time_us(c->raw[id], bare_us, &v) || v > SSDLOAD_MAX_US)
		return bad_value(c, id, bare_us == 1 ?
				 "not a time (microseconds, or with us/ms/s/m/h suffix)" :
				 "not a time (seconds, or with us/ms/s/m/h suffix)");
	if (out)
		*out = v;
	add_write_u64(c, attr, v);
	return 0;
}

/* startdelay: a time, or fio's range LO-HI (each worker draws its own) */
static int startdelay_opt(struct run_ctx *c)
{
	const char *v = c->raw[O_STARTDELAY];
	const char *dash = v ? strchr(v, '-') : NULL;
	char lo[64], val[64];
	uint64_t a, b;

	if (!v)
		return 0;
	if (!dash)
		return us_opt(c, O_STARTDELAY, SSDLOAD_ATTR_STARTDELAY_US, 1000000, NULL);
	snprintf(lo, sizeof(lo), "%.*s", (int)(dash - v), v);
	if (ssl_parse_time_us(lo, 1000000, &a) || ssl_parse_time_us(dash + 1, 1000000, &b) ||
	    a > SSDLOAD_MAX_US || b > SSDLOAD_MAX_US || a > b)
		return bad_value(c, O_STARTDELAY, "not a time or a range LO-HI of times "
				 "(seconds, or with us/ms/s/m/h suffix)");
	snprintf(val, sizeof(val), "%" PRIu64 "-%" PRIu64, a, b);
	add_write(c, SSDLOAD_ATTR_STARTDELAY_US, val);
	return 0;
}

/*
 * start_at: when the workers begin, on CLOCK_REALTIME (hosts that start
 * together): ns since the epoch, or +TIME from now (bare: seconds).
 */
static int start_at_opt(struct run_ctx *c)
{
	const char *v = c->raw[O_START_AT];
	struct timespec ts;
	uint64_t at, us;
	char *end;

	if (!v)
		return 0;
	if (*v == '+') {
		if (ssl_parse_time_us(v + 1, 1000000, &us) || !us ||
		    us > SSDLOAD_MAX_START_AHEAD_NS / 1000)
			return bad_value(c, O_START_AT, "not +TIME of at most a day "
					 "(seconds, or with us/ms/s/m/h suffix)");
		clock_gettime(CLOCK_REALTIME, &ts);
		at = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec + us * 1000;
	} else {
		errno = 0;
		at = strtoull(v, &end, 10);
		if (errno || end == v || *end || !at || *v == '-')
			return bad_value(c, O_START_AT, "not an instant in ns since the "
					 "epoch (CLOCK_REALTIME) or +TIME from now");
	}
	add_write_u64(c, SSDLOAD_ATTR_START_AT, at);
	return 0;
}

/*
 * fio's thinktime family: thinktime and thinktime_spin in us (bare: us),
 * thinktime_iotime (bare: s), thinktime_blocks (fio's 0 pauses after each
 * I/O: 1), thinktime_blocks_type.  thinktime_iotime without
 * thinktime_blocks pauses by time only (fio), the module's blocks 0.
 */
static int think_opts(struct run_ctx *c)
{
	const char *type = c->raw[O_THINKTIME_BLOCKS_TYPE];
	uint64_t blocks = 1;

	if (us_opt(c, O_THINKTIME, SSDLOAD_ATTR_THINKTIME_US, 1, NULL) ||
	    us_opt(c, O_THINKTIME_SPIN, SSDLOAD_ATTR_THINKTIME_SPIN_US, 1, NULL) ||
	    us_opt(c, O_THINKTIME_IOTIME, SSDLOAD_ATTR_THINKTIME_IOTIME_US, 1000000, NULL) ||
	    startdelay_opt(c) || start_at_opt(c))
		return -1;
	if (c->raw[O_THINKTIME_BLOCKS]) {
		if (u64_opt(c, O_THINKTIME_BLOCKS, NULL, &blocks))
			return -1;
		add_write_u64(c, SSDLOAD_ATTR_THINKTIME_BLOCKS, blocks ? blocks : 1);
	} else if (c->raw[O_THINKTIME_IOTIME]) {
		add_write_u64(c, SSDLOAD_ATTR_THINKTIME_BLOCKS, 0);
	}
	if (type) {
		if (strcmp(type, "complete") && strcmp(type, "issue"))
			return bad_value(c, O_THINKTIME_BLOCKS_TYPE, "must be complete or issue");
		add_write(c, SSDLOAD_ATTR_THINKTIME_BLOCKS_TYPE, type);
	}
	return 0;
}

/* newer attributes are written only when given: older modules lack them */
static int newer_opts(struct run_ctx *c)
{
	if (flag_opt(c, O_ALLOW_WRITE, SSDLOAD_ATTR_ALLOW_WRITE, &c->allow_write) ||
	    flag_opt(c, O_HIPRI, SSDLOAD_ATTR_HIPRI, NULL) ||
	    flag_opt(c, O_DISABLE_LAT, SSDLOAD_ATTR_DISABLE_LAT, NULL) ||
	    u64_opt(c, O_IO_TIMEOUT_MS, SSDLOAD_ATTR_IO_TIMEOUT_MS, NULL) ||
	    flag_opt(c, O_SCRAMBLE_BUFFERS, SSDLOAD_ATTR_SCRAMBLE_BUFFERS, NULL) ||
	    conv_opt(c, O_RANDOM_DISTRIBUTION, SSDLOAD_ATTR_RANDOM_DISTRIBUTION,
		     ssl_conv_distribution) ||
	    flag_opt(c, O_RANDOM_SCATTER, SSDLOAD_ATTR_RANDOM_SCATTER, NULL) ||
	    buffer_opts(c) ||
	    conv_opt(c, O_FILE_SERVICE_TYPE, SSDLOAD_ATTR_FILE_SERVICE_TYPE, ssl_conv_fst) ||
	    fio_log_opts(c) || run_ss_opts(c) || rate_series_opts(c) ||
	    flag_opt(c, O_SHARED, SSDLOAD_ATTR_SHARED, NULL) || think_opts(c) ||
	    run_sync_opts(c) || run_verify_opts(c) ||
	    run_vstate_opts(c))
		return -1;
	if (c->raw[O_GROUP]) {
		if (ssl_check_group(c->raw[O_GROUP]))
			return bad_value(c, O_GROUP, "not a group name (1 to 63 of "
					 "A-Z a-z 0-9 _ . -)");
		add_write(c, SSDLOAD_ATTR_GROUP, c->raw[O_GROUP]);
	}
	return 0;
}

/*
 * Every option of one job but the steps (run-steps.c), in the order their
 * refusals are reported: 0, or -1 with a message.
 */
int run_check_options(struct run_ctx *c)
{
	uint64_t kb;

	if (report_opts(c) || name_opt(c) || ioengine_opt(c))
		return -1;
	noop_notes(c);
	/* before the seed and disable_lat are read */
	if (run_value_opts(c))
		return -1;

	/* before any size is read */
	if (c->raw[O_KB_BASE] && (ssl_parse_u64(c->raw[O_KB_BASE], &kb) || kb > 1024 ||
				  ssl_set_kb_base((unsigned int)kb)))
		return bad_value(c, O_KB_BASE, "1024 (k = 1024, kib = 1000: fio's default) "
				 "or 1000 (k = 1000, kib = 1024)");
	if (filename_opt(c))
		return -1;
	if (pattern_opts(c) || extent_opts(c) || newer_opts(c) || run_norandommap_opt(c))
		return -1;
	return 0;
}

/*
 * fio's "job options": what was given, as given.  fio lists name for
 * a job of the command line; a job file's job is named by its section.
 * Then the default percentiles, unless --percentile_list gave some.
 */
void run_job_options(struct run_ctx *c)
{
	int i;

	if (!c->jobfile || c->raw[O_NAME]) {
		c->opts[c->nopts].key = "name";
		c->opts[c->nopts].global = c->raw[O_NAME] && c->global[O_NAME];
		c->opts[c->nopts++].val = c->name;
	}
	for (i = 0; i < c->nr_order; i++) {
		int id = c->order[i];

		/* fio's command-line options are not job options */
		if ((cmdline_only(id) && id != O_STEPS) || id == O_NAME)
			continue;
		if (id == O_STEP)	/* repeated: the steps are in "steps" */
			continue;
		c->opts[c->nopts].key = c->raw_name[id];
		c->opts[c->nopts].global = c->global[id];
		c->opts[c->nopts++].val = c->raw[id];
	}
	if (!c->np) {
		memcpy(c->plist, ssl_default_percentiles,
		       sizeof(double) * (size_t)ssl_default_percentiles_nr);
		c->np = ssl_default_percentiles_nr;
	}
}
