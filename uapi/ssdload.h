/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ssdload: interface shared by the kernel module and the ssdload CLI.
 *
 * This header holds the configfs/debugfs names, the enums, the latency
 * histogram geometry with its index<->value maths, and the versioned
 * binary format of the debugfs hist_read/hist_write files.
 *
 * It is included by the module (kernel types) and by userspace (<linux/types.h>),
 * so it uses only __u64-style types and static inline functions.
 */
#ifndef _UAPI_SSDLOAD_H
#define _UAPI_SSDLOAD_H

#include <linux/types.h>

/*
 * The release of ssdload.ko (its MODULE_VERSION) and of its DKMS package,
 * which installs as /usr/src/ssdload-<this>.  dkms.conf's PACKAGE_VERSION
 * and the CLI's SSDLOAD_CLI_VERSION repeat it; tests/unit/test_dkms.py
 * checks that all three agree, and make install-dkms refuses a mismatch.
 */
#define SSDLOAD_VERSION		"0.1.0"

/* ---- paths ------------------------------------------------------------ */
#define SSDLOAD_CONFIGFS_ROOT	"/sys/kernel/config/ssdload"
#define SSDLOAD_CONFIGFS_JOBS	SSDLOAD_CONFIGFS_ROOT "/jobs"
#define SSDLOAD_DEBUGFS_ROOT	"/sys/kernel/debug/ssdload"

/* ---- configfs job attribute names (fio option names) ------------------ */
#define SSDLOAD_ATTR_FILENAME		"filename"	/* block device path */
#define SSDLOAD_ATTR_RW			"rw"		/* enum ssdload_rw, by name */
#define SSDLOAD_ATTR_RWMIXREAD		"rwmixread"	/* percent, 0..100 */
#define SSDLOAD_ATTR_BS			"bs"		/* bytes */
#define SSDLOAD_ATTR_IODEPTH		"iodepth"	/* I/Os in flight per worker */
#define SSDLOAD_MAX_IODEPTH		65536U		/* iodepth is 1..this */
#define SSDLOAD_ATTR_CPUS_ALLOWED	"cpus_allowed"	/* cpulist, one worker per CPU */
#define SSDLOAD_ATTR_OFFSET		"offset"	/* bytes */
#define SSDLOAD_ATTR_SIZE		"size"		/* bytes, 0 = to the end */
#define SSDLOAD_ATTR_RUNTIME_MS		"runtime_ms"	/* measured time, ms */
#define SSDLOAD_ATTR_RAMP_MS		"ramp_ms"	/* unmeasured warm-up, ms */
#define SSDLOAD_ATTR_NUMBER_IOS		"number_ios"	/* measured I/Os, whole job */
#define SSDLOAD_ATTR_RANDSEED		"randseed"	/* PRNG seed */
#define SSDLOAD_ATTR_ALLOW_WRITE	"allow_write"	/* 0/1, opt-in to writes */
#define SSDLOAD_ATTR_HIPRI		"hipri"		/* 0/1, polled completions */
#define SSDLOAD_ATTR_DISABLE_LAT	"disable_lat"	/* 0/1, no timestamps/histograms */
#define SSDLOAD_ATTR_IO_TIMEOUT_MS	"io_timeout_ms"	/* ms, flag older I/Os, 0 = off */
#define SSDLOAD_ATTR_SCRAMBLE_BUFFERS	"scramble_buffers" /* 0/1, fresh header per write */
#define SSDLOAD_ATTR_BSSPLIT		"bssplit"	/* size/weight:..., per-direction lists */
#define SSDLOAD_ATTR_BSRANGE		"bsrange"	/* min-max bytes, per direction */
#define SSDLOAD_ATTR_BLOCKALIGN		"blockalign"	/* bytes, offset alignment, 0 = min bs */
#define SSDLOAD_ATTR_RANDOM_DISTRIBUTION "random_distribution" /* random, zipf:t, ... */
#define SSDLOAD_ATTR_RANDOM_SCATTER	"random_scatter" /* 0/1, spread hot ranks over the span */
#define SSDLOAD_ATTR_BUFFER_COMPRESS_PERCENTAGE "buffer_compress_percentage" /* percent */
#define SSDLOAD_ATTR_BUFFER_COMPRESS_CHUNK "buffer_compress_chunk" /* bytes */
#define SSDLOAD_ATTR_DEDUPE_PERCENTAGE	"dedupe_percentage" /* percent of writes repeated */
#define SSDLOAD_ATTR_BUFFER_PATTERN	"buffer_pattern" /* 0x hex bytes */
#define SSDLOAD_ATTR_ZERO_BUFFERS	"zero_buffers"	/* 0/1 */
#define SSDLOAD_ATTR_REFILL_BUFFERS	"refill_buffers" /* 0/1, new content per write */
#define SSDLOAD_ATTR_FILE_SERVICE_TYPE	"file_service_type" /* roundrobin|random|sequential[:N] */
#define SSDLOAD_ATTR_NUMJOBS		"numjobs"	/* workers, 0 = one per CPU */
#define SSDLOAD_ATTR_RATE_IOPS		"rate_iops"	/* I/Os per second, R[,W[,T]], job-wide */
#define SSDLOAD_ATTR_RATE		"rate"		/* bytes per second, R[,W[,T]], job-wide */
#define SSDLOAD_ATTR_RATE_PROCESS	"rate_process"	/* linear|poisson */
#define SSDLOAD_ATTR_LOG_INTERVAL_MS	"log_interval_ms" /* time series interval, ms, 0 = off */
#define SSDLOAD_ATTR_LOG_HIST		"log_hist"	/* 0/1, histogram deltas in the series */
#define SSDLOAD_ATTR_SHARED		"shared"	/* 0/1, share the device with shared jobs */
#define SSDLOAD_ATTR_GROUP		"group"		/* name, enable arms; start launches */
#define SSDLOAD_ATTR_LOOPS		"loops"		/* runs of the step list, >= 1 */
#define SSDLOAD_ATTR_TIME_BASED		"time_based"	/* 0/1, 0 = a timed job ends after one pass */
#define SSDLOAD_ATTR_NORANDOMMAP	"norandommap"	/* 0/1, 1 = a random pass draws with replacement */
/* verify (Documentation/verify.rst): fio's names and meanings */
#define SSDLOAD_ATTR_VERIFY		"verify"	/* enum ssdload_verify, by name */
#define SSDLOAD_ATTR_VERIFY_INTERVAL	"verify_interval" /* bytes per checked unit, 0 = bs */
#define SSDLOAD_ATTR_DO_VERIFY		"do_verify"	/* 0/1, read back after the writes */
#define SSDLOAD_ATTR_VERIFY_FATAL	"verify_fatal"	/* 0/1, stop at the first failure */
#define SSDLOAD_ATTR_THINKTIME_US	"thinktime_us"	/* pause after thinktime_blocks I/Os, us, 0 = off */
#define SSDLOAD_ATTR_THINKTIME_SPIN_US	"thinktime_spin_us" /* of the pause, spun, us */
#define SSDLOAD_ATTR_THINKTIME_BLOCKS	"thinktime_blocks" /* I/Os between pauses, 0 = by time only */
#define SSDLOAD_ATTR_THINKTIME_BLOCKS_TYPE "thinktime_blocks_type" /* complete|issue */
#define SSDLOAD_ATTR_THINKTIME_IOTIME_US "thinktime_iotime_us" /* us of I/O between pauses, 0 = off */
#define SSDLOAD_ATTR_STARTDELAY_US	"startdelay_us"	/* us, or LO-HI: drawn per worker */
#define SSDLOAD_ATTR_START_AT		"start_at"	/* CLOCK_REALTIME ns, 0 = at enable */
#define SSDLOAD_ATTR_FSYNC		"fsync"		/* a flush after every N writes, 0 = none */
#define SSDLOAD_ATTR_END_FSYNC		"end_fsync"	/* 0/1, a flush once the writes ended */
#define SSDLOAD_ATTR_SYNC		"sync"		/* 0/1, every write with FUA */
#define SSDLOAD_ATTR_WRITE_BARRIER	"write_barrier"	/* every Nth write PREFLUSH|FUA, 0 = none */

/*
 * ---- limits of the job attributes --------------------------------------
 * What the module's stores and enable accept; the CLI's --parse-only
 * (userspace/core/preflight.c) checks the same values against the same
 * constants, so that a job it passes is not refused for them.
 */
#define SSDLOAD_MIN_BS		512U		/* bs, bssplit, bsrange, blockalign: */
#define SSDLOAD_MAX_BS		(16U << 20)	/*   bytes, multiples of SSDLOAD_MIN_BS */
#define SSDLOAD_SPAN_ALIGN	512U		/* offset and size in bytes: multiples */
#define SSDLOAD_MAX_DEVS	16U		/* devices in one filename list */
#define SSDLOAD_MAX_NUMJOBS	1024U		/* numjobs is 0..this */
/*
 * workers of a job: numjobs, or (numjobs=0) one per CPU of cpus_allowed;
 * the CLI also refuses a debugfs file (summary, series, steps) that
 * reports more workers or devices than these limits
 */
#define SSDLOAD_MAX_WORKERS	8192U
#define SSDLOAD_MAX_LOOPS	0xffffffffU	/* loops is 1..this */
#define SSDLOAD_MAX_FSYNC	0xffffffffU	/* fsync, write_barrier: 0..this */
/*
 * runtime_ms, ramp_ms, io_timeout_ms, log_interval_ms, idle_ms: 0..this,
 * a quarter of the ns a u64 holds (U64_MAX / NSEC_PER_MSEC / 4)
 */
#define SSDLOAD_MAX_MS		(0xffffffffffffffffULL / 1000000U / 4)
/* thinktime_us, thinktime_spin_us, thinktime_iotime_us, startdelay_us */
#define SSDLOAD_MAX_US		(0xffffffffffffffffULL / 1000U / 4)
/* start_at: at most this far ahead of the clock at enable (a day) */
#define SSDLOAD_MAX_START_AHEAD_NS (86400ULL * 1000000000ULL)
#define SSDLOAD_MAX_RATE_IOPS	(1ULL << 32)	/* rate_iops: I/Os per second */
#define SSDLOAD_MAX_RATE_BPS	(1ULL << 44)	/* rate: bytes per second */
#define SSDLOAD_GROUP_LEN	64U		/* group names: 1..63 characters */
#define SSDLOAD_BSSPLIT_MAX	64		/* bssplit sizes per direction (fio) */
#define SSDLOAD_ZONES_MAX	256		/* random_distribution zones per direction */
#define SSDLOAD_PATTERN_MAX	512U		/* buffer_pattern bytes */

/*
 * ---- configfs steps: jobs/NAME/steps/N/ (N = 1..SSDLOAD_MAX_STEPS) -----
 * Each step overrides some of the job's parameters for one phase of the
 * run (an attribute reads "" while it inherits the job's value; writing
 * an empty line makes it inherit again), or is an idle phase (idle_ms).
 * Steps run in increasing N, the whole list `loops` times.
 */
#define SSDLOAD_CONFIGFS_STEPS		"steps"
#define SSDLOAD_MAX_STEPS		4096U
#define SSDLOAD_STEP_ATTR_IDLE_MS	"idle_ms"	/* no I/O for this long, ms */
/* the overridable job attributes, by their job attribute names */
#define SSDLOAD_STEP_ATTRS	"rw", "rwmixread", "bs", "bssplit", "iodepth", \
				"rate_iops", "rate", "runtime_ms", "ramp_ms", \
				"number_ios", "idle_ms", "numjobs", "blockalign"
#define SSDLOAD_ATTR_ENABLE		"enable"	/* 1 = start, 0 = stop */
#define SSDLOAD_ATTR_STATE		"state"		/* RO: enum ssdload_state */
#define SSDLOAD_ATTR_ERROR		"error"		/* RO: "<errno> <reason>" */

/* top-level read-only attribute listing every job attribute, one per line */
#define SSDLOAD_FEATURES		"features"
/* top-level write-only attribute: a group name launches its armed jobs */
#define SSDLOAD_START			"start"

/* ---- debugfs file names ----------------------------------------------- */
#define SSDLOAD_DBG_SUMMARY		"summary"	/* text, key=value per line */
#define SSDLOAD_DBG_PROGRESS		"progress"	/* text, key=value per line */
#define SSDLOAD_DBG_HIST_READ		"hist_read"	/* binary, see below */
#define SSDLOAD_DBG_HIST_WRITE		"hist_write"	/* binary, see below */
#define SSDLOAD_DBG_HIST_TRIM		"hist_trim"	/* binary, see below */
/* latency from the intended send time of rate-controlled I/Os (rate, rate_iops) */
#define SSDLOAD_DBG_HIST_INTENDED_READ	"hist_intended_read"	/* binary, as hist_read */
#define SSDLOAD_DBG_HIST_INTENDED_WRITE	"hist_intended_write"	/* binary, as hist_write */
#define SSDLOAD_DBG_HIST_INTENDED_TRIM	"hist_intended_trim"	/* binary, as hist_trim */
/* flushes (fsync, end_fsync): as hist_write, dir SSDLOAD_HIST_DIR_SYNC */
#define SSDLOAD_DBG_HIST_SYNC		"hist_sync"	/* binary, see below */
#define SSDLOAD_DBG_SERIES		"series"	/* binary time series, see below */
#define SSDLOAD_DBG_STEPS		"steps"		/* binary per-step results, see below */
#define SSDLOAD_DBG_LEASE		"lease"		/* held open: closing it stops the run */
#define SSDLOAD_DBG_VERIFY		"verify"	/* text, the verify pass, see below */

/* ---- enums ------------------------------------------------------------ */
enum ssdload_rw {
	SSDLOAD_RW_READ = 0,		/* "read": sequential reads */
	SSDLOAD_RW_WRITE = 1,		/* "write": sequential writes */
	SSDLOAD_RW_RANDREAD = 2,	/* "randread" */
	SSDLOAD_RW_RANDWRITE = 3,	/* "randwrite" */
	SSDLOAD_RW_RW = 4,		/* "rw": sequential, mixed by rwmixread */
	SSDLOAD_RW_RANDRW = 5,		/* "randrw": random, mixed by rwmixread */
	SSDLOAD_RW_TRIM = 6,		/* "trim": sequential discards */
	SSDLOAD_RW_RANDTRIM = 7,	/* "randtrim": random discards */
	SSDLOAD_RW_TRIMWRITE = 8,	/* "trimwrite": discard, then write, each block */
	SSDLOAD_RW_RANDTRIMWRITE = 9,	/* "randtrimwrite": likewise at random blocks */
	SSDLOAD_RW_NR
};

enum ssdload_state {
	SSDLOAD_STATE_IDLE = 0,		/* "idle": configured, never started */
	SSDLOAD_STATE_RUNNING = 1,	/* "running" */
	SSDLOAD_STATE_DONE = 2,		/* "done": runtime or number_ios reached */
	SSDLOAD_STATE_STOPPED = 3,	/* "stopped": enable=0, rmdir or unload */
	SSDLOAD_STATE_ERROR = 4,	/* "error": see the error attribute */
	SSDLOAD_STATE_STOPPING = 5,	/* "stopping": stop requested, I/O draining */
	SSDLOAD_STATE_ARMED = 6,	/* "armed": set up, waiting for its group's start */
	SSDLOAD_STATE_NR
};

enum ssdload_dir {
	SSDLOAD_DIR_READ = 0,
	SSDLOAD_DIR_WRITE = 1,
	SSDLOAD_DIR_TRIM = 2,		/* REQ_OP_DISCARD */
	SSDLOAD_DIR_NR
};

/*
 * The dir of the header of hist_sync (flushes).  Not an I/O direction:
 * the per-direction arrays of the other formats stay SSDLOAD_DIR_NR long.
 */
#define SSDLOAD_HIST_DIR_SYNC	3

/*
 * The summary's iodepth_level, iodepth_submit and iodepth_complete (and
 * each worker's): SSDLOAD_DEPTH_NR counts each, space-separated, in fio's
 * buckets.  iodepth_level counts the measured submissions by the worker's
 * I/Os in flight, that one included: 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64
 * or more.  iodepth_submit and iodepth_complete count the worker's
 * submission batches (the I/Os of one plug) and completion batches (the
 * I/Os of one reap) with a measured I/O, by their size: 0, 1-4, 5-8, 9-16,
 * 17-32, 33-64, more than 64.
 */
#define SSDLOAD_DEPTH_NR	7

/* ---- latency histogram geometry --------------------------------------- */
/*
 * Log-linear ("HDR") buckets over nanoseconds.  Values below
 * SSDLOAD_HIST_SUB are exact (one bucket per ns).  Above, each power of
 * two [2^k, 2^(k+1)) is split into SSDLOAD_HIST_SUB equal buckets of width
 * 2^(k - SUB_BITS).  Reporting a bucket by its midpoint bounds the relative
 * error by 1 / (2 * SSDLOAD_HIST_SUB) = 0.39%.  Values at or above
 * 2^SSDLOAD_HIST_MAX_SHIFT ns (18.3 minutes) clamp into the last bucket
 * and are also counted in the header's overflow field.
 */
#define SSDLOAD_HIST_SUB_BITS	7
#define SSDLOAD_HIST_SUB	(1U << SSDLOAD_HIST_SUB_BITS)		/* 128 */
#define SSDLOAD_HIST_MAX_SHIFT	40					/* 2^40 ns */
#define SSDLOAD_HIST_BUCKETS	((SSDLOAD_HIST_MAX_SHIFT - SSDLOAD_HIST_SUB_BITS + 1) * \
				 SSDLOAD_HIST_SUB)			/* 4352 */
#define SSDLOAD_HIST_MAX_VALUE	((1ULL << SSDLOAD_HIST_MAX_SHIFT) - 1)

/* Bucket index of a latency in ns (clamped to the last bucket). */
static inline __u32 ssdload_hist_index(__u64 ns)
{
	__u32 msb, shift;

	if (ns < SSDLOAD_HIST_SUB)
		return (__u32)ns;
	if (ns > SSDLOAD_HIST_MAX_VALUE)
		return SSDLOAD_HIST_BUCKETS - 1;
	msb = 63 - (__u32)__builtin_clzll(ns);		/* >= SUB_BITS */
	shift = msb - SSDLOAD_HIST_SUB_BITS;
	return (shift + 1) * SSDLOAD_HIST_SUB +
	       (__u32)((ns >> shift) & (SSDLOAD_HIST_SUB - 1));
}

/* Smallest value (ns) that lands in bucket @idx. */
static inline __u64 ssdload_hist_lower(__u32 idx)
{
	__u32 group = idx / SSDLOAD_HIST_SUB;
	__u64 sub = idx % SSDLOAD_HIST_SUB;

	if (group == 0)
		return sub;
	return (SSDLOAD_HIST_SUB + sub) << (group - 1);
}

/* Width (ns) of bucket @idx: the bucket is [lower, lower + width). */
static inline __u64 ssdload_hist_width(__u32 idx)
{
	__u32 group = idx / SSDLOAD_HIST_SUB;

	return group == 0 ? 1 : 1ULL << (group - 1);
}

/* Largest value (ns) that lands in bucket @idx (inclusive). */
static inline __u64 ssdload_hist_upper(__u32 idx)
{
	return ssdload_hist_lower(idx) + ssdload_hist_width(idx) - 1;
}

/* Representative value of bucket @idx: its midpoint (exact below SUB). */
static inline __u64 ssdload_hist_value(__u32 idx)
{
	return ssdload_hist_lower(idx) + ssdload_hist_width(idx) / 2;
}

/* ---- binary format of debugfs hist_read / hist_write ------------------ */
/*
 * A file is one struct ssdload_hist_header followed by nr_buckets __u64
 * counts, all in native byte order.  Readers must check magic and
 * version, and must use header_size to find the counts (newer versions
 * may append header fields).  Counts cover the measured phase only (the
 * ramp is excluded) and are summed over all workers of the job.
 * hist_sync has the same layout (version 1) with dir SSDLOAD_HIST_DIR_SYNC:
 * a flush's latency is from its submission (after the writes before it
 * completed) to its completion; samples counts the flushes.
 */
#define SSDLOAD_HIST_MAGIC	0x48445353U	/* "SSDH" little-endian */
#define SSDLOAD_HIST_VERSION	1

struct ssdload_hist_header {
	__u32 magic;		/* SSDLOAD_HIST_MAGIC */
	__u16 version;		/* SSDLOAD_HIST_VERSION */
	__u16 header_size;	/* bytes, offset of the counts */
	__u32 sub_bits;		/* SSDLOAD_HIST_SUB_BITS */
	__u32 max_shift;	/* SSDLOAD_HIST_MAX_SHIFT */
	__u32 nr_buckets;	/* number of __u64 counts that follow */
	__u32 dir;		/* enum ssdload_dir */
	__u64 samples;		/* sum of all counts: successful measured I/Os */
	__u64 overflow;		/* samples >= 2^max_shift ns (in the last bucket) */
	__u64 min_ns;		/* exact minimum latency, 0 if no samples */
	__u64 max_ns;		/* exact maximum latency */
	__u64 sum_ns;		/* exact sum of latencies */
	__u64 sumsq_hi;		/* exact sum of squared latencies (ns^2), */
	__u64 sumsq_lo;		/*   as a 128-bit value hi:lo */
	__u64 runtime_ns;	/* measured wall time of the job, ns */
};

/* ---- binary format of debugfs series (log_interval_ms) ----------------- */
/*
 * The file is one struct ssdload_series_header, then nr_records struct
 * ssdload_series_rec (each record_size bytes: use record_size, newer
 * versions may append fields), ordered by worker and then by interval,
 * then the histogram deltas (log_hist=1): hist_bytes bytes, the deltas of
 * every record in record order, each record's read, write and trim deltas
 * back to back (dir[d].hist_len bytes each).  A delta is a sequence of
 * pairs of LEB128 varints (gap, count): the bucket index is the previous
 * pair's index + 1 + gap (the first pair's index is gap), count is the
 * number of I/Os added to that bucket in the interval.  All in native
 * byte order.
 *
 * Each worker closes its intervals itself: a record covers [start_ns,
 * end_ns) of its worker, times from the job's start.  The boundaries are
 * at every log_interval_ms from the start; a record closes at the first
 * pass of the worker's loop at or after its boundary (the worker sleeps
 * no longer than that), so end_ns is the boundary or a little after it.
 * The last record of a worker closes when the worker ends, after its last
 * completion.  An I/O counts in the interval in which its completion was
 * reaped, so the records of a worker sum exactly to its totals, and their
 * histogram deltas to its histogram.  Only measured I/Os are counted (the
 * ramp's intervals have records with zero I/Os).  The file is a snapshot
 * of the records closed when it was opened.
 */
#define SSDLOAD_SERIES_MAGIC	0x53445353U	/* "SSDS" little-endian */
#define SSDLOAD_SERIES_VERSION	1

struct ssdload_series_header {
	__u32 magic;		/* SSDLOAD_SERIES_MAGIC */
	__u16 version;		/* SSDLOAD_SERIES_VERSION */
	__u16 header_size;	/* bytes, offset of the first record */
	__u32 record_size;	/* bytes per record */
	__u32 nr_workers;	/* workers of the run */
	__u64 nr_records;	/* records in this file */
	__u64 hist_bytes;	/* bytes of histogram deltas after them */
	__u64 interval_ns;	/* log_interval_ms in ns */
	__u32 log_hist;		/* 1 if records carry histogram deltas */
	__u32 hist_sub_bits;	/* histogram geometry, as hist_* files */
	__u32 hist_max_shift;
	__u32 hist_buckets;
};

/* Per direction, over the interval (measured I/Os). */
struct ssdload_series_dir {
	__u64 ios;		/* successful I/Os reaped */
	__u64 bytes;		/* their bytes */
	__u64 errors;		/* failed I/Os reaped */
	__u64 lat_min_ns;	/* 0 if no I/O */
	__u64 lat_max_ns;
	__u64 lat_sum_ns;	/* submit to completion */
	__u64 intended_lat_sum_ns; /* rate control: from the intended time */
	__u64 late_ios;		/* rate control: sent over 1 ms late */
	__u32 hist_len;		/* bytes of this direction's delta */
	__u32 pad;
};

#define SSDLOAD_SERIES_HIST_CARRIED	0x1	/* a delta did not fit: it is
						 * in the worker's next record
						 */

struct ssdload_series_rec {
	__u32 worker;		/* index of the worker */
	__u32 index;		/* record number within the worker */
	__u64 start_ns;		/* from the job's start */
	__u64 end_ns;
	__u32 flags;		/* SSDLOAD_SERIES_* */
	__u32 step;		/* step of the run (0 without steps) */
	struct ssdload_series_dir dir[3];	/* read, write, trim */
};

/* ---- binary format of debugfs steps (jobs with steps/) ----------------- */
/*
 * The file is one struct ssdload_steps_header, then nr_steps struct
 * ssdload_steps_rec (each record_size bytes: use record_size, newer
 * versions may append fields), in the order the steps run, then the
 * histograms: for each record in order, for each direction d in read,
 * write, trim order, hist_buckets __u64 counts if dir[d].flags has
 * SSDLOAD_STEPS_HIST, then hist_buckets counts from the intended time
 * if it has SSDLOAD_STEPS_INTENDED_HIST.  All in native byte order.
 *
 * An I/O belongs to the step that issued it, even when it completes
 * after the next step began; the loops of a step add up.  The figures
 * are summed over the workers; runtime_ns is the longest worker's
 * measured time in the step (the ramp end to its last measured
 * completion, summed over the loops).  The gap of a step is, per
 * worker, the time from the last completion of the previous step's I/O
 * to the first submission of this step's (0 when they overlap); the
 * file gives the largest and the sum over workers and loops.  The first
 * step of the first loop, and a step after an idle step, have no gap.
 * The file is streamed: the header is taken at open, each record and
 * histogram when read (a live run's records are consistent per worker);
 * a read after the job ran again fails with ESTALE.
 */
#define SSDLOAD_STEPS_MAGIC	0x50545353U	/* "SSTP" little-endian */
#define SSDLOAD_STEPS_VERSION	1

struct ssdload_steps_header {
	__u32 magic;		/* SSDLOAD_STEPS_MAGIC */
	__u16 version;		/* SSDLOAD_STEPS_VERSION */
	__u16 header_size;	/* bytes, offset of the first record */
	__u32 record_size;	/* bytes per record */
	__u32 nr_steps;		/* records in this file */
	__u32 loops;		/* loops of the run */
	__u32 nr_workers;	/* workers of the run */
	__u32 hist_sub_bits;	/* histogram geometry, as hist_* files */
	__u32 hist_max_shift;
	__u32 hist_buckets;
	__u32 pad;
	__u64 hist_bytes;	/* bytes of histograms after the records */
};

#define SSDLOAD_STEPS_HIST		0x1	/* a histogram follows */
#define SSDLOAD_STEPS_INTENDED_HIST	0x2	/* ... and one from the intended time */

/* Per direction, over the step (measured I/Os), summed over workers. */
struct ssdload_steps_dir {
	__u64 ios;		/* successful measured I/Os */
	__u64 bytes;		/* their bytes */
	__u64 errors;		/* failed I/Os, ramp included */
	__u64 done;		/* completions, ramp and errors included */
	__u64 lat_min_ns;	/* 0 if no I/O */
	__u64 lat_max_ns;
	__u64 lat_sum_ns;	/* submit to completion */
	__u64 lat_sumsq_hi;	/* sum of squares (ns^2), hi:lo */
	__u64 lat_sumsq_lo;
	__u64 overflow;		/* samples clamped into the last bucket */
	__u64 intended_ios;	/* rate control: I/Os with an intended time */
	__u64 intended_lat_min_ns;
	__u64 intended_lat_max_ns;
	__u64 intended_lat_sum_ns;
	__u64 late_ios;		/* sent over 1 ms after their intended time */
	__u32 flags;		/* SSDLOAD_STEPS_HIST, _INTENDED_HIST */
	__u32 pad;
};

#define SSDLOAD_STEPS_IDLE	0x1	/* an idle step (idle_ms) */

struct ssdload_steps_rec {
	__u32 step;		/* N of steps/N */
	__u32 flags;		/* SSDLOAD_STEPS_IDLE */
	/* the step's parameters, the job's where the step inherits them */
	__u32 rw;		/* enum ssdload_rw */
	__u32 rwmixread;	/* percent */
	__u32 iodepth;
	__u32 bs_min;		/* bytes, over the directions it uses */
	__u32 bs_max;
	__u32 loops_done;	/* times a worker entered the step, the most */
	__u64 runtime_ms;	/* 0 = none (number_ios ends it) */
	__u64 ramp_ms;
	__u64 number_ios;	/* 0 = none */
	__u64 idle_ms;		/* idle steps */
	__u64 rate_iops[3];	/* read, write, trim; 0 = uncapped */
	__u64 rate[3];		/* bytes per second; 0 = uncapped */
	/* what it did */
	__u64 runtime_ns;	/* measured time, the longest worker's */
	__u64 gap_max_ns;	/* previous step's last completion to this
				 * step's first submission, the largest
				 */
	__u64 gap_sum_ns;	/* over the workers and loops */
	__u64 gaps;		/* gaps measured */
	struct ssdload_steps_dir dir[3];	/* read, write, trim */
	/* appended (record_size tells whether a file has them) */
	__u32 numjobs;		/* workers that issued in the step */
	__u32 blockalign;	/* bytes, its random offsets' alignment
				 * (0: idle, or a module before it)
				 */
};

/* ---- verify: the block header and the results ------------------------ */
/*
 * With verify set, every verify_interval bytes of a written block (the
 * whole block if 0) start with a struct ssdload_vhdr: little-endian,
 * fixed-width, SSDLOAD_VHDR_SIZE bytes.  The data checksum covers the
 * unit's bytes after the header; the header checksum (crc32c, seed ~0)
 * covers the header with hdr_csum as zero.  Documentation/verify.rst
 * gives the layout byte by byte.
 */
enum ssdload_verify {
	SSDLOAD_VERIFY_OFF = 0,		/* "0": no verify (the default) */
	SSDLOAD_VERIFY_CRC32C,		/* "crc32c": Castagnoli, seed ~0 */
	SSDLOAD_VERIFY_CRC64,		/* "crc64": crc64_be (ECMA-182), seed 0 */
	SSDLOAD_VERIFY_XXHASH,		/* "xxhash": xxh64, seed 0 */
	SSDLOAD_VERIFY_SHA256,		/* "sha256" */
	SSDLOAD_VERIFY_MD5,		/* "md5": named, refused at enable */
	SSDLOAD_VERIFY_SHA1,		/* "sha1": named, refused at enable */
	SSDLOAD_VERIFY_PATTERN,		/* "pattern": named, refused at enable */
	SSDLOAD_VERIFY_META,		/* "meta": the header only */
	SSDLOAD_VERIFY_NULL,		/* "null": written and read, not checked */
	SSDLOAD_VERIFY_NR,
};

#define SSDLOAD_VHDR_MAGIC	0x56445353U	/* "SSDV" little-endian */
#define SSDLOAD_VHDR_VERSION	1
#define SSDLOAD_VHDR_SIZE	96U		/* bytes, the header with csum[] */
#define SSDLOAD_VHDR_CSUM_MAX	32U		/* bytes of csum[] (sha256) */

struct ssdload_vhdr {
	__le32 magic;		/*  0: SSDLOAD_VHDR_MAGIC */
	__le16 version;		/*  4: SSDLOAD_VHDR_VERSION */
	__u8 csum_type;		/*  6: enum ssdload_verify */
	__u8 flags;		/*  7: 0 */
	__le32 len;		/*  8: bytes of the unit, header included */
	__le32 worker;		/* 12: index of the worker that wrote it */
	__le64 lba;		/* 16: 512-byte sector the unit was written to */
	__le64 seed;		/* 24: the job's randseed */
	__le64 seq;		/* 32: the worker's write sequence number */
	__le64 time_ns;		/* 40: CLOCK_REALTIME at the write, ns */
	__le32 gen;		/* 48: the block's write generation, 1..127 */
	__le32 hdr_csum;	/* 52: crc32c of the header, this field 0 */
	__le64 reserved;	/* 56: 0 */
	__u8 csum[32];		/* 64: the data checksum, little-endian for
				 * the CRCs and xxh64, the digest for sha256;
				 * zero-padded
				 */
};

_Static_assert(sizeof(struct ssdload_vhdr) == SSDLOAD_VHDR_SIZE,
	       "struct ssdload_vhdr is the documented 96 bytes");

/* The failure classes of a checked unit. */
enum ssdload_vclass {
	SSDLOAD_VCLASS_CORRUPT = 0,	/* "corrupt": a checksum mismatch */
	SSDLOAD_VCLASS_MISPLACED,	/* "misplaced": the header names another LBA */
	SSDLOAD_VCLASS_STALE,		/* "stale": an older generation */
	SSDLOAD_VCLASS_FOREIGN,		/* "foreign": no header of this job */
	SSDLOAD_VCLASS_READ_ERROR,	/* "read_error": the read failed */
	SSDLOAD_VCLASS_NR,
	SSDLOAD_VCLASS_OK = SSDLOAD_VCLASS_NR,	/* passed (no failure) */
};

#define SSDLOAD_VFAIL_MAX	64	/* failures listed in debugfs verify */

/*
 * debugfs verify (text, key=value per line):
 *   verify=<type name>	verify_interval=<bytes>
 *   verify_state=<none|running|done|aborted>
 *   verify_written=<blocks>	blocks written and acknowledged (map entries)
 *   verify_checked=<blocks>	blocks read back and classified
 *   verify_units=<units>	verify_interval units checked
 *   verify_ambiguous=<blocks>	written twice with both writes in flight:
 *				any generation of them passes
 *   verify_failed=<units>	failed units, the sum of the classes
 *   verify_corrupt= verify_misplaced= verify_stale= verify_foreign=
 *   verify_read_error=		failed units per class
 *   verify_map_bytes=<bytes>	the generation map
 * then the first SSDLOAD_VFAIL_MAX failures, one per line:
 *   fail=<lba> <class> <detail>
 * (lba in 512-byte sectors, detail one word: got=.. want=..).
 */

#endif /* _UAPI_SSDLOAD_H */
