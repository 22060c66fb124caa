/* SPDX-License-Identifier: GPL-2.0 */
/* Results of a job from /sys/kernel/debug/ssdload/NAME ($SSDLOAD_DEBUGFS). */
#ifndef SSDLOAD_CLI_RESULTS_H
#define SSDLOAD_CLI_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/ssdload.h"
#include "core/util.h"

/*
 * Open-loop rate control of one direction (<dir>_rate_iops and the keys
 * after it): absent from older modules (have = 0).
 */
struct ssl_rate_stats {
	int have;			/* the keys were present */
	uint64_t iops, bps;		/* the job's targets, 0 = uncapped */
	uint64_t ios;			/* I/Os with an intended time */
	uint64_t lat_min_ns;		/* from the intended time to completion */
	uint64_t lat_mean_ns;		/* rounded by the module */
	uint64_t lat_max_ns;
	uint64_t lat_stddev_ns;
	uint64_t lat_sum_ns;		/* exact */
	long double lat_sumsq_ns2;	/* exact u128 as long double */
	int have_sums;
	uint64_t late_ios;		/* sent over late_threshold_ns late */
	uint64_t behind_ns;		/* the largest lag of a worker */
	uint64_t behind_ios, behind_bytes; /* that lag times the rate */
	int no_behind;			/* behind_* unknown (a step's figures) */
};

struct ssl_dir_stats {
	uint64_t ios;			/* successful measured I/Os */
	uint64_t bytes;			/* their bytes */
	uint64_t errors;		/* failed I/Os */
	uint64_t lat_min_ns;
	uint64_t lat_mean_ns;		/* rounded by the module */
	uint64_t lat_max_ns;
	uint64_t lat_stddev_ns;		/* population stddev, rounded */
	uint64_t lat_sum_ns;		/* exact */
	long double lat_sumsq_ns2;	/* exact u128 as long double */
	int have_sums;			/* lat_sum/lat_sumsq were present */
	struct ssl_rate_stats rate;
};

/* A summary key that an older module may not print. */
struct ssl_opt_u64 {
	uint64_t v;
	int have;			/* the key was present (and valid) */
};

/* iodepth_level, iodepth_submit, iodepth_complete: uapi SSDLOAD_DEPTH_NR counts */
struct ssl_depth_map {
	uint64_t n[SSDLOAD_DEPTH_NR];
	int have;			/* the key was present (and valid) */
};

struct ssl_worker {
	long cpu;			/* -1 if not reported */
	uint64_t ios[SSDLOAD_DIR_NR];
	uint64_t errors[SSDLOAD_DIR_NR];
	char *ran_on;			/* workerN_ran_on cpulist, NULL if absent */
	/* newer keys: .have = 0 when absent */
	struct ssl_opt_u64 bytes[SSDLOAD_DIR_NR];
	struct ssl_opt_u64 lat_min_ns[SSDLOAD_DIR_NR];
	struct ssl_opt_u64 lat_max_ns[SSDLOAD_DIR_NR];
	struct ssl_opt_u64 lat_sum_ns[SSDLOAD_DIR_NR];
	struct ssl_opt_u64 cpu_ns, ctx, pid;
	struct ssl_depth_map depth;	/* workerN_iodepth_level */
	/* its flushes (workerN_sync_*), as fio's clone counts its own */
	struct ssl_opt_u64 sync_ios, sync_errors;
	struct ssl_opt_u64 sync_lat_min_ns, sync_lat_max_ns, sync_lat_sum_ns;
};

/* One device of the job's filename list (devices/devI_* keys). */
struct ssl_device {
	char *name;
	uint64_t span_start, span_bytes;
	uint64_t ios[SSDLOAD_DIR_NR];	/* measured, successful */
	uint64_t bytes[SSDLOAD_DIR_NR];
	uint64_t errors[SSDLOAD_DIR_NR];
	uint64_t done[SSDLOAD_DIR_NR];	/* all completions, ramp included */
	uint64_t lat_sum_ns[SSDLOAD_DIR_NR];
};

struct ssl_summary {
	unsigned int version;
	char state[16];			/* idle|running|done|stopped|error */
	long long error;		/* negative errno or 0 */
	unsigned int workers;
	uint64_t runtime_ns;		/* measured phase */
	uint64_t ramp_ns;
	struct ssl_dir_stats dir[SSDLOAD_DIR_NR];
	struct ssl_worker *worker;	/* workers entries (may be NULL) */
	unsigned int nr_worker;
	/* keys that older modules lack: .have = 0 when absent */
	struct ssl_opt_u64 hipri, polled;
	char poll_fallback[32];		/* none|no_poll_queues|...; "" if absent */
	struct ssl_opt_u64 split_ios;	/* I/Os split into more than one request */
	struct ssl_opt_u64 nowait_retries; /* polled submissions retried (no tag) */
	struct ssl_opt_u64 io_timeout_ms;
	struct ssl_opt_u64 timed_out_ios; /* in flight longer than io_timeout_ms */
	struct ssl_opt_u64 randseed;
	int have_trim;			/* trim_* keys were present */
	struct ssl_opt_u64 cpu_ns, usr_cpu_ns, sys_cpu_ns, ctx, cpu_ns_per_io;
	struct ssl_depth_map depth, submit, complete;	/* measured, fio's buckets */
	struct ssl_opt_u64 numjobs, bs_min, bs_max, blockalign;
	struct ssl_device *dev;		/* devices entries (NULL if none) */
	unsigned int nr_dev;
	char rate_process[16];		/* linear|poisson; "" if absent */
	struct ssl_opt_u64 late_threshold_ns;
	struct ssl_opt_u64 log_interval_ms, log_hist, series_records;
	struct ssl_opt_u64 think_ns, think_pauses;	/* thinktime: paused */
	struct ssl_opt_u64 start_real_ns;	/* the start on CLOCK_REALTIME */
	/* start_at (CLOCK_REALTIME ns), the first worker's first submission */
	struct ssl_opt_u64 start_at, first_submit_real_ns;
	int64_t start_error_ns;		/* the last worker's lateness after start_at */
	int have_start_error;
	/* fio's sync options: the flushes as sync_* (have_sync: the keys were there) */
	struct ssl_dir_stats sync;
	int have_sync;
	struct ssl_opt_u64 fsync, end_fsync, fua, write_barrier;	/* as set */
	struct ssl_opt_u64 fua_writes, barrier_writes;
};

/* One direction of a series record (struct ssdload_series_dir). */
struct ssl_series_dir {
	uint64_t ios, bytes, errors;
	uint64_t lat_min_ns, lat_max_ns, lat_sum_ns;
	uint64_t intended_lat_sum_ns, late_ios;
	uint32_t hist_len;		/* bytes of the delta */
	const uint8_t *hist;		/* the delta (into ssl_series.blob) */
};

/* One record: an interval of one worker (struct ssdload_series_rec). */
struct ssl_series_rec {
	uint32_t worker, index;
	uint64_t start_ns, end_ns;	/* from the job's start */
	uint32_t flags, step;
	struct ssl_series_dir dir[SSDLOAD_DIR_NR];
};

/* The debugfs series file (log_interval_ms), validated. */
struct ssl_series {
	int present;			/* the file was read */
	struct ssdload_series_header hdr;
	struct ssl_series_rec *rec;	/* hdr.nr_records, worker then index */
	uint8_t *blob;			/* the file (the deltas point into it) */
	unsigned long max_pairs;	/* buckets in the largest delta */
};

/* One step of the debugfs steps file (struct ssdload_steps_rec), validated. */
struct ssl_step {
	struct ssdload_steps_rec rec;	/* as read (fields past record_size: 0) */
	const uint64_t *hist[SSDLOAD_DIR_NR];	/* hist_buckets counts, or NULL */
	const uint64_t *ihist[SSDLOAD_DIR_NR];	/* from the intended time, or NULL */
};

/* The debugfs steps file (a job with steps/), validated. */
struct ssl_steps {
	int present;			/* the file was read */
	struct ssdload_steps_header hdr;
	struct ssl_step *step;		/* hdr.nr_steps, in the order they run */
	uint64_t *counts;		/* the histograms (the steps point into it) */
};

struct ssl_hist {
	int present;			/* the file existed and was valid */
	struct ssdload_hist_header hdr;
	uint64_t *counts;		/* hdr.nr_buckets counts */
};

/* One fail= line of debugfs verify: "<sector> <class> <detail>". */
struct ssl_vfail {
	uint64_t lba;			/* 512-byte sector */
	const char *cls;		/* corrupt, misplaced, ... (into the text) */
	const char *detail;		/* the rest of the line: key=value words */
};

/*
 * The debugfs verify file (uapi SSDLOAD_DBG_VERIFY), kept whole: every
 * key=value line in file order, so that keys a newer module adds reach
 * the reports without a change here; the fail= lines apart.
 */
struct ssl_verify {
	int present;			/* the file was read */
	char *text;			/* the file (the pairs point into it) */
	struct ssl_kvlist kv;		/* every pair but fail=, in file order */
	struct ssl_vfail *fail;
	unsigned int nr_fail;
};

/* Everything `ssdload run` and `ssdload show` report on a job. */
struct ssl_results {
	struct ssl_summary sum;
	struct ssl_hist hist[SSDLOAD_DIR_NR];	/* hist_<dir> */
	struct ssl_hist ihist[SSDLOAD_DIR_NR];	/* hist_intended_<dir> */
	struct ssl_hist shist;			/* hist_sync (flushes) */
	struct ssl_series series;		/* with log_interval_ms > 0 */
	struct ssl_steps steps;			/* a job with steps (else absent) */
	struct ssl_verify verify;		/* debugfs verify (else absent) */
};

struct ssl_progress {
	char state[16];
	uint64_t elapsed_ns, ramp_ns, runtime_ns, number_ios;
	uint64_t ios[SSDLOAD_DIR_NR];	/* all completions so far, incl. ramp */
	struct ssl_opt_u64 inflight;	/* the job's I/Os in flight now */
	struct ssl_opt_u64 timed_out_ios; /* in flight longer than io_timeout_ms */
	struct ssl_opt_u64 cpu_ns;	/* the workers' CPU time so far */
	uint64_t step, loop;		/* steps: where the first worker is */
};

/* Parse the summary text (modified in place); 0 or -1 with @err set. */
int results_parse_summary(char *text, struct ssl_summary *s, char *err, size_t errlen);
void results_free_summary(struct ssl_summary *s);

/* Validate and copy a hist file image; 0 or -1 with @err set. */
int results_parse_hist(const void *buf, size_t len, int dir, struct ssl_hist *h,
		       char *err, size_t errlen);
void results_free_hist(struct ssl_hist *h);

/* Validate and copy a series file image; 0 or -1 with @err set. */
int results_parse_series(const void *buf, size_t len, struct ssl_series *s,
			 char *err, size_t errlen);
void results_free_series(struct ssl_series *s);

/* Validate and copy a steps file image; 0 or -1 with @err set. */
int results_parse_steps(const void *buf, size_t len, struct ssl_steps *s,
			char *err, size_t errlen);
void results_free_steps(struct ssl_steps *s);

/* Parse the verify text (kept in @v, freed by results_free_verify()); 0 or -1. */
int results_parse_verify(char *text, struct ssl_verify *v, char *err, size_t errlen);
void results_free_verify(struct ssl_verify *v);

/*
 * The verify file's value of @key ("verify_checked" ...), NULL if absent;
 * and whether verify was on for the job (present, verify= not 0).
 */
const char *results_verify_get(const struct ssl_verify *v, const char *key);
uint64_t results_verify_u64(const struct ssl_verify *v, const char *key);
int results_verify_on(const struct ssl_verify *v);

/*
 * Is direction @d rate controlled?  Its cap is set and its I/Os have
 * intended times (trimwrite's writes follow their trims: not scheduled).
 */
int results_dir_rated(const struct ssl_summary *s, int d);

/*
 * Read the summary, hist_<dir>, and for a rate-controlled direction
 * hist_intended_<dir>, and with log_interval_ms > 0 the series, of @job
 * from debugfs.  Prints a message and returns -1 on failure.  A missing
 * hist file is accepted (present = 0) when the summary counts no I/O for
 * it; a missing series file when the summary counts no record; a
 * missing steps file always (a job without steps, or an older module).
 */
int results_read(const char *job, struct ssl_results *r);
void results_free(struct ssl_results *r);

/* Read the progress file; 0 or -errno (no message). */
int results_read_progress(const char *job, struct ssl_progress *p);

/*
 * The series file of a running @job alone (a snapshot of the records
 * closed so far): 0, or -errno (-EINVAL: not a valid series).  No message.
 */
int results_read_series(const char *job, struct ssl_series *s);

/*
 * Open the job's lease file (O_RDONLY | O_CLOEXEC): while a lease is
 * open, closing the last one (also by the kernel when the process dies)
 * stops the job.  Returns the fd or -errno (-ENOENT: a module without
 * leases).  No message.
 */
int results_open_lease(const char *job);

#endif /* SSDLOAD_CLI_RESULTS_H */
