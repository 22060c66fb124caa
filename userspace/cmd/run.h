/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload run, shared between its files (each calls only those below it):
 *   cmd-run.c        the command: its arguments, the job file, --parse-only
 *   run-file-jobs.c  a job file of several jobs, each run by a child ssdload
 *   run-job.c        the run of one job: lease, signals, progress, results
 *   run-steps.c      --step, --steps, --loops: the steps/N attributes
 *   run-options.c    fio-named options: the configfs attributes to write
 */
#ifndef SSDLOAD_CLI_RUN_H
#define SSDLOAD_CLI_RUN_H

#include <stdint.h>

#include "uapi/ssdload.h"
#include "core/latstudy.h"
#include "core/options.h"
#include "core/util.h"
#include "fio/fioopts.h"
#include "fio/fiolog.h"
#include "fio/jobfile.h"
#include "fio/report.h"
#include "fio/steadystate.h"

/* the options of ssdload run, named in run_opts[] (run-options.c) */
enum run_opt_id {
	O_NAME, O_FILENAME, O_RW, O_BS, O_IODEPTH, O_CPUS_ALLOWED, O_NUMJOBS,
	O_RWMIXREAD, O_RWMIXWRITE, O_OFFSET, O_SIZE, O_RUNTIME, O_RAMP_TIME,
	O_NUMBER_IOS, O_RANDSEED, O_ALLOW_WRITE, O_HIPRI, O_DISABLE_LAT,
	O_IO_TIMEOUT_MS, O_SCRAMBLE_BUFFERS, O_TIME_BASED, O_DIRECT,
	O_GROUP_REPORTING, O_OUTPUT_FORMAT, O_PERCENTILE_LIST, O_ETA,
	O_STATUS_INTERVAL, O_PARSE_ONLY,
	O_BSSPLIT, O_BSRANGE, O_BLOCKALIGN, O_RANDOM_DISTRIBUTION, O_RANDOM_SCATTER,
	O_BUFFER_COMPRESS_PERCENTAGE, O_BUFFER_COMPRESS_CHUNK, O_DEDUPE_PERCENTAGE,
	O_BUFFER_PATTERN, O_ZERO_BUFFERS, O_REFILL_BUFFERS, O_FILE_SERVICE_TYPE,
	O_RATE_IOPS, O_RATE, O_RATE_PROCESS, O_LOG_INTERVAL_MS, O_LOG_HIST,
	O_SHARED, O_GROUP, O_STEP, O_STEPS, O_LOOPS, O_KEEP_JOB,
	O_LATENCY_TABLE, O_LATENCY_BELOW, O_LATENCY_CHECK,
	O_PROFILE, O_SECTION, O_OUTPUT, O_KB_BASE,
	O_WRITE_BW_LOG, O_WRITE_IOPS_LOG, O_WRITE_LAT_LOG, O_WRITE_HIST_LOG,
	O_LOG_AVG_MSEC, O_LOG_HIST_MSEC, O_LOG_OFFSET, O_IO_SIZE,
	O_IOENGINE, O_THREAD, O_INVALIDATE, O_FADVISE_HINT, O_CLOCKSOURCE,
	O_STONEWALL, O_NEW_GROUP, O_WAIT_FOR,
	O_THINKTIME_BLOCKS_TYPE, O_THINKTIME_IOTIME,
	/* fio's options taken for the values that mean what ssdload does */
	O_DESCRIPTION, O_NORANDOMMAP, O_RANDREPEAT, O_RANDOM_GENERATOR, O_BUFFERED,
	O_VERIFY, O_STARTDELAY, O_CONTINUE_ON_ERROR, O_THINKTIME, O_IO_SUBMIT_MODE,
	O_IODEPTH_BATCH, O_IODEPTH_BATCH_COMPLETE_MIN, O_IODEPTH_BATCH_COMPLETE_MAX,
	O_IODEPTH_LOW, O_GTOD_REDUCE, O_LAT_PERCENTILES, O_CLAT_PERCENTILES,
	O_FSYNC_EVERY, O_FDATASYNC, O_SYNC_MODE, O_END_FSYNC, O_FSYNC_ON_CLOSE,
	O_WRITE_BARRIER, O_THINKTIME_SPIN, O_THINKTIME_BLOCKS, O_RATE_MIN,
	O_RATE_IOPS_MIN, O_MAX_LATENCY, O_LATENCY_TARGET, O_DISABLE_CLAT,
	O_DISABLE_SLAT, O_DISABLE_BW, O_DO_VERIFY, O_EXPERIMENTAL_VERIFY,
	O_ALLRANDREPEAT, O_SOFTRANDOMMAP, O_SERIALIZE_OVERLAP, O_FILL_DEVICE,
	O_CREATE_ONLY, O_FILE_APPEND, O_PRE_READ, O_PER_JOB_LOGS,
	O_NRFILES, O_ZONEMODE, O_ALLOW_FILE_CREATE, O_LOG_PRIO, O_DEDUPE_MODE,
	O_DEDUPE_GLOBAL, O_DEDUPE_WORKING_SET, O_FILESIZE, O_TIOBENCH_THREADS,
	O_STEADYSTATE, O_SS_DUR, O_SS_RAMP,
	O_START_AT,
	O_RW_SEQUENCER,
	/* numjobs' clones at spread offsets (offset_increment_opt()) */
	O_OFFSET_INCREMENT,
	/* verify (run-verify.c), with O_VERIFY, O_DO_VERIFY, O_EXPERIMENTAL_VERIFY */
	O_VERIFY_INTERVAL, O_VERIFY_FATAL, O_VERIFY_ASYNC,
	O_NR
};

/* one configfs attribute to write, in order */
struct attr_write {
	const char *attr;
	char val[4096];
};

/* one attribute of a step (steps/N/attr) */
struct step_attr {
	const char *attr;
	char *val;
};

#define STEP_ATTRS_MAX	16

/* one step, as given by --step or a line of --steps */
struct step_def {
	char *where;			/* "--step=SPEC" or "FILE:LINE" */
	struct step_attr a[STEP_ATTRS_MAX];
	int na;
	int idle;			/* idle=TIME */
	int runtime_set, nios_set;	/* the step sets runtime / number_ios */
	uint64_t runtime_ms, nios;
	unsigned int numjobs;		/* numjobs=K, 0 = the job's workers */
};

/* a --step or --steps argument, in the order given */
struct step_src {
	int file;			/* --steps=FILE */
	const char *arg;
};

/* raw[] of an option given bare (--norandommap), told from an empty value */
extern const char run_bare_flag[];

/* one ssdload run: its options as given, and what they became */
struct run_ctx {
	const char *raw[O_NR];		/* as typed ("" for a bare flag) */
	const char *raw_name[O_NR];	/* the spelling used, for messages */
	const char *from[O_NR];		/* "FILE:LINE" of an option from a job file */
	int global[O_NR];		/* that option came from a [global] section */
	const char *jobfile;		/* JOBFILE, or the --profile's path */
	char profile_path[4096];
	struct ssl_jobfile jf;
	const char *section;		/* the job section run */
	const char *section_where;	/* "FILE:LINE" of its header */
	int multi;			/* JOBFILE's job sections, all of them */
	struct ssl_fio_logs logs;	/* fio's write_*_log, or all NULL */
	int want_logs;
	char series_ms[24];		/* log_interval_ms the logs ask for */
	int order[O_NR];		/* ids in the order first given */
	int nr_order;
	char name[256];
	const char *filename;		/* as given (a fio list) */
	char *devs[SSL_MAX_DEVS];	/* its devices, unescaped */
	int ndevs;
	unsigned int fmt;		/* enum ssl_output_format, a set */
	enum ssl_eta eta;
	uint64_t status_ms;		/* --status-interval, 0 = none */
	int lease;			/* fd of the job's lease, -1 = none */
	int out_errno;			/* why stdout failed, 0 if it did not */
	double plist[SSL_MAX_PERCENTILES];
	int np;
	struct ssl_latstudy lat;	/* --latency-table, -below, -check */
	int lat_failed;			/* a --latency-check condition was not met */
	/* fio's disk_util: each device's stat at enable, then the deltas */
	uint64_t dstat[SSL_MAX_DEVS][SSL_DEV_STAT_NR];
	struct ssl_disk_util disks[SSL_MAX_DEVS];
	int ndisks;
	uint64_t dstat_ms;		/* ssl_now_ms() of the first sample */
	int logs_failed;		/* a fio log could not be written */
	int verify_failed;		/* the verify pass found a failed unit */
	int parse_only;
	int keep_job;			/* --keep-job: leave the done job in place */
	int writes;			/* rw includes writes */
	int trims;			/* rw includes trims */
	int group_reporting;		/* --group_reporting */
	int time_based;			/* --time_based (bare or true) */
	int allow_write;		/* --allow_write given as 1 */
	char seed[24];			/* randseed drawn for randrepeat=0 */
	uint64_t iodepth;
	struct attr_write w[64];
	int nw;
	struct ssl_job_option opts[O_NR + 1];
	int nopts;
	const char *where;		/* a step's origin, for messages (or NULL) */
	struct step_src *src;		/* --step and --steps, in order */
	int nsrc;
	struct step_def *steps;		/* the steps, steps/1 first */
	unsigned int nsteps;
	uint64_t loops;			/* --loops, 0 if not given */
	/* fio's steadystate, ss_dur, ss_ramp (run-ss.c) */
	struct ssl_fio_ss ss;		/* ss.dur 0: no detection */
	uint64_t ss_next_s;		/* the run's next second to sample */
	uint64_t ss_ramp_ms;		/* no sample before it (ramp_time, ss_ramp) */
};

#define POLL_MS		200	/* progress/state polling period */

/*
 * run-write.c: the attribute writes into c->w[], a value's refusal, the
 * notes, and the plain options (0, or -1 after a message naming the
 * option as given: --opt, FILE:LINE or a step)
 */
int bad_value(const struct run_ctx *c, int id, const char *why);
void add_write(struct run_ctx *c, const char *attr, const char *val);
void add_write_u64(struct run_ctx *c, const char *attr, uint64_t v);
int u64_opt(struct run_ctx *c, int id, const char *attr, uint64_t *out);
int time_opt(struct run_ctx *c, int id, const char *attr);
int flag_opt(struct run_ctx *c, int id, const char *attr, int *out);
void __attribute__((format(printf, 1, 2))) run_note(const char *fmt, ...);
/* "FILE:LINE: name=value@sep@why" (or "--name=value...") as a run_note() */
void run_opt_note(const struct run_ctx *c, int id, const char *sep, const char *why);

/* run-options.c: the options, and their converters into c->w[] */
extern const struct ssl_opt run_opts[];
int depth_opt(struct run_ctx *c, uint64_t *out);
int numjobs_opt(struct run_ctx *c, uint64_t *n);
int rw_opt(struct run_ctx *c);
int mix_opt(struct run_ctx *c);
int block_size_opts(struct run_ctx *c);
int rate_series_opts(struct run_ctx *c);
int cmdline_only(int id);
int run_check_options(struct run_ctx *c);
void numjobs_notes(const struct run_ctx *c);
void run_job_options(struct run_ctx *c);

/*
 * run-values.c: fio's options taken for the values that mean what ssdload
 * does (notes, a seed for randrepeat=0, gtod_reduce's disable_lat), before
 * the others; norandommap once the rest is known
 */
int run_value_opts(struct run_ctx *c);
int run_norandommap_opt(struct run_ctx *c);
int run_sync_opts(struct run_ctx *c);

/*
 * run-verify.c: verify, verify_interval, do_verify, verify_fatal (the
 * module's attributes), experimental_verify and verify_async (notes);
 * after rw_opt()
 */
int run_verify_opts(struct run_ctx *c);

/* run-steps.c: --step, --steps and --loops into c->steps */
int steps_opts(struct run_ctx *c);
void free_steps(struct run_ctx *c);

/*
 * run-ss.c: fio's steadystate, ss_dur and ss_ramp: the options (a time
 * series of 1 s or a divisor of it), then, while the job runs, one sample
 * per second from the series: 1 when the job is steady (to be stopped)
 */
int run_ss_opts(struct run_ctx *c);
int run_ss_poll(struct run_ctx *c);

/* run-job.c: the run of the job c->w[] and c->steps describe */
int run_job(struct run_ctx *c);
void disk_stats(struct run_ctx *c, int end);
int output_file(const char *path);

/* run-file-jobs.c: every job section of c->jf; the exit status */
int run_file_jobs(struct run_ctx *c);

#endif /* SSDLOAD_CLI_RUN_H */
