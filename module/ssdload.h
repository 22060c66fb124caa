/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload: internal definitions shared by the files of ssdload.ko.
 */
#ifndef _SSDLOAD_INT_H
#define _SSDLOAD_INT_H

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/configfs.h>
#include <linux/kref.h>
#include <linux/kthread.h>
#include <linux/cpumask.h>
#include <linux/llist.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/seq_file.h>
#include <linux/refcount.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "uapi/ssdload.h"
#include "dist.h"
#include "data.h"
#include "rate.h"

#define SSDLOAD_ERR_LEN		320
#define SSDLOAD_MAX_CHUNK_ORDER	(20 - PAGE_SHIFT)	/* 1 MiB buffer chunks */
#define SSDLOAD_PPM		1000000U	/* percentages are kept in ppm */

/* Module parameters: the defaults a new job copies (main.c). */
extern unsigned int ssdload_default_bs;
extern unsigned int ssdload_default_iodepth;
extern unsigned int ssdload_max_job_mem_mb;
/* Tears runs down; destroyed at unload, after the last run's work ended. */
extern struct workqueue_struct *ssdload_wq;

/* Per-direction statistics of one worker; written only by its thread. */
struct ssdload_dstat {
	u64 done;			/* completions, ramp and errors included */
	u64 errors;			/* failed I/Os, ramp included */
	u64 ios;			/* successful measured I/Os */
	u64 bytes;			/* bytes of successful measured I/Os */
	u64 lat_min;			/* ns, U64_MAX before the first sample */
	u64 lat_max;			/* ns */
	u64 lat_sum;			/* ns */
	u128 lat_sumsq;			/* ns^2 */
	u64 overflow;			/* samples beyond SSDLOAD_HIST_MAX_VALUE */
	u64 late;			/* intended: sent over SSDLOAD_LATE_NS late */
	u64 *hist;			/* SSDLOAD_HIST_BUCKETS counts */
};

/*
 * Per-device, per-direction counters of one worker (summary dev<i>_*),
 * kept by the I/O path only when the job has several devices.
 */
struct ssdload_devstat {
	u64 done;			/* completions, ramp and errors included */
	u64 ios;			/* successful measured I/Os */
	u64 bytes;			/* their bytes */
	u64 errors;			/* failed I/Os */
	u64 lat_sum;			/* ns, of the measured I/Os */
};

/* Latency statistics summed over the workers of a job. */
struct ssdload_sum {
	u64 ios;			/* successful measured I/Os */
	u64 bytes;			/* their bytes */
	u64 errors;			/* failed I/Os */
	u64 done;			/* all completions */
	u64 lat_min;			/* ns, 0 without samples */
	u64 lat_max;			/* ns */
	u64 lat_sum;			/* ns */
	u128 lat_sumsq;			/* ns^2 */
	u64 overflow;			/* samples clamped into the last bucket */
	u64 late;			/* intended: sent over SSDLOAD_LATE_NS late */
};

struct ssdload_worker;

/*
 * One phase of a run: a step (steps/N) with the job's parameters where
 * it inherits them, or the job itself when it has no steps.  Compiled at
 * enable (plan.c), fixed for the run.
 */
struct ssdload_phase {
	u32 step;			/* N of steps/N, 0 = the job itself */
	bool idle;			/* idle_ms: no I/O */
	bool rated;			/* some direction is rate controlled */
	bool uniform_bs;		/* one block size in every direction */
	u8 dirs;			/* BIT(dir) of the directions it issues */
	u8 rated_dirs;			/* BIT(dir) of those rate controlled */
	u32 rw;				/* enum ssdload_rw */
	u32 rwmixread;			/* percent */
	u32 iodepth;			/* cap on outstanding I/Os per worker */
	u32 numjobs;			/* workers 0..numjobs-1 issue, 0 = all */
	u32 bs_min, bs_max;		/* over the directions it issues */
	u32 ba;				/* random offset alignment, bytes */
	bool own_ba;			/* ba is the step's blockalign */
	u64 runtime_ms;			/* 0 = none */
	u64 ramp_ms;
	u64 number_ios;			/* 0 = none */
	u64 idle_ms;
	u64 rate_iops[SSDLOAD_DIR_NR];	/* 0 = uncapped */
	u64 rate[SSDLOAD_DIR_NR];	/* 0 = uncapped */
	struct ssdload_bsdist bsd[SSDLOAD_DIR_NR];	/* block sizes */
};

/* Which overrides a step sets (struct ssdload_step.set). */
enum ssdload_step_field {
	SSDLOAD_STEP_RW = 0,
	SSDLOAD_STEP_RWMIXREAD,
	SSDLOAD_STEP_BS,
	SSDLOAD_STEP_BSSPLIT,
	SSDLOAD_STEP_IODEPTH,
	SSDLOAD_STEP_RATE_IOPS,
	SSDLOAD_STEP_RATE,
	SSDLOAD_STEP_RUNTIME_MS,
	SSDLOAD_STEP_RAMP_MS,
	SSDLOAD_STEP_NUMBER_IOS,
	SSDLOAD_STEP_IDLE_MS,
	SSDLOAD_STEP_NUMJOBS,
	SSDLOAD_STEP_BLOCKALIGN,
};

/* One steps/N directory. */
struct ssdload_step {
	struct config_item item;	/* steps/N */
	struct ssdload_job *job;	/* its job (the parent of steps/) */
	struct list_head node;		/* on job->steps, under job->lock */
	u32 nr;				/* N */
	u32 set;			/* BIT(enum ssdload_step_field) */
	struct {			/* the values set */
		u64 rw;
		u64 rwmixread;
		u64 bs;
		struct ssdload_bsspec *bssplit;
		u64 iodepth;
		u64 rate_iops[SSDLOAD_DIR_NR];
		u64 rate[SSDLOAD_DIR_NR];
		u64 runtime_ms;
		u64 ramp_ms;
		u64 number_ios;
		u64 idle_ms;
		u64 numjobs;
		u64 blockalign;
	} v;
};

/* Per worker and step: its statistics (steps only). */
struct ssdload_pstat {
	struct ssdload_dstat st[SSDLOAD_DIR_NR];	/* submit to completion */
	struct ssdload_dstat ist[SSDLOAD_DIR_NR];	/* from the intended time */
	u64 start_ns;			/* measured start of the current loop */
	u64 last_ns;			/* its last measured completion */
	u64 ns;				/* measured time of the loops before */
	u64 gap_max_ns;			/* see ssdload_steps_rec */
	u64 gap_sum_ns;
	u64 gaps;
	u32 entries;			/* loops that entered the step */
};

/* What a series keeps per direction between closes (the totals then). */
struct ssdload_series_prev {
	u64 ios, bytes, errors, lat_sum, ilat_sum, late;
};

/*
 * The time series of one worker (log_interval_ms): its closed records,
 * preallocated for the whole run, and the open interval.  Only the
 * worker writes; readers take nr (published with release) and the
 * records and histogram bytes before it.
 */
struct ssdload_series {
	u64 interval_ns;		/* log_interval_ms */
	u64 start_ns;			/* the job's start */
	u64 last_ns;			/* start of the open interval */
	u64 next_ns;			/* its boundary */
	u32 max;			/* records allocated */
	u32 nr;				/* records closed */
	u32 flags;			/* for the next record */
	struct ssdload_series_rec *recs;
	struct ssdload_series_prev prev[SSDLOAD_DIR_NR];
	u64 lat_min[SSDLOAD_DIR_NR];	/* of the open interval, U64_MAX */
	u64 lat_max[SSDLOAD_DIR_NR];
	u64 *hist_prev[SSDLOAD_DIR_NR];	/* log_hist: counts at the last
					 * close (NULL: direction unused)
					 */
	u8 *pool;			/* log_hist: the deltas */
	u64 pool_size;			/* bytes */
	u64 pool_used;			/* bytes */
	u64 pool_final;			/* bytes kept for the last record */
};

/*
 * The start of a group (start GROUP): the workers of its jobs check in at
 * the gate as the scheduler runs them, and none goes before the last one
 * checked in and opened it, so that they all begin together however late
 * each was woken (a thread bound to the CPU of the writer of start may
 * run only once that writer leaves it).  A worker whose CPU has workers
 * still to come sleeps (they need the CPU); the last of a CPU spins,
 * preemption off, for up to SSDLOAD_GATE_HOLD_NS, so that it sees the
 * gate open at once and the writer of start cannot take its CPU back,
 * then sleeps.  The opener wakes the sleepers.  The wait ends early when
 * the worker's job is stopped, and after SSDLOAD_GATE_MAX_NS in any case.
 */
struct ssdload_gate {
	refcount_t ref;			/* start's, and one per worker */
	atomic_t left;			/* workers yet to check in */
	bool open;			/* the last one checked in */
	u64 start_ns;			/* the start time of every job */
	wait_queue_head_t wq;		/* workers sleeping until it opens */
	atomic_t cpu_left[];		/* per CPU: its workers yet to check in */
};

#define SSDLOAD_GATE_HOLD_NS	(10 * NSEC_PER_MSEC)
#define SSDLOAD_GATE_MAX_NS	NSEC_PER_SEC

/*
 * One preallocated I/O: a bio with its inline bvec table and buffers,
 * sized for the largest block of the job.  A job with one block size that
 * only reads or only writes has one buffer, described by the bio's table
 * itself (wbuf == rbuf == bvec).  A mixed job (rw, randrw) has two, so that
 * reads never overwrite the random write data; and with several block
 * sizes the bio's table gets parts of chunks.  Then bvec[] holds the table
 * (as many entries as the longer buffer has chunks), then the write
 * buffer's chunks, then the read buffer's (mixed only); each submission
 * adds the chunks of its direction, up to its length, to the bio.  A trim
 * carries no data.
 */
struct ssdload_io {
	struct bio bio;			/* reused for every submission */
	struct ssdload_worker *w;	/* owning worker */
	struct llist_node node;		/* on w->compl.done once completed */
	u64 submit_ns;			/* clock read just before the plug or
					 * the submit_bio() that carries it
					 */
	u64 done_ns;			/* ktime_get_ns() in bi_end_io */
	u64 intended_ns;		/* rate control: its intended send time,
					 * 0 = not rate controlled
					 */
	u64 pos;			/* byte offset on the device */
	u32 len;			/* bytes of this I/O */
	blk_status_t status;		/* bi_status at completion */
	u8 dir;				/* enum ssdload_dir */
	u8 dev;				/* index in job->devs */
	u16 phase;			/* index in job->phases */
	u32 epoch;			/* phases the worker entered before */
	bool measured;			/* submitted at/after the ramp end */
	bool inflight;			/* submitted, not yet reaped */
	bool late;			/* counted as older than io_timeout_ms */
	bool split;			/* the block layer split the bio */
	u8 vgen;			/* verify: the generation it wrote,
					 * 0 = none
					 */
	bool flush;			/* an empty flush (flush.c), not I/O */
	bool barrier;			/* write_barrier: PREFLUSH | FUA */
	unsigned short nr_wvecs;	/* chunks of the write buffer */
	unsigned short nr_rvecs;	/* chunks of the read buffer */
	const struct bio_vec *wbuf;	/* the write buffer */
	const struct bio_vec *rbuf;	/* the read buffer */
	struct bio_vec bvec[];		/* the bio table, then the buffers */
};

/* Why hipri=1 runs with interrupt completions (summary poll_fallback). */
enum ssdload_poll_fallback {
	SSDLOAD_POLL_OK = 0,		/* "none": polled, or hipri=0 */
	SSDLOAD_POLL_NO_QUEUES,		/* "no_poll_queues": blk-mq, no poll map */
	SSDLOAD_POLL_BIO_BASED,		/* "bio_based": dm, md, NVMe multipath */
	SSDLOAD_POLL_SPLIT,		/* "split": bs exceeds the queue limits */
	SSDLOAD_POLL_NO_NOWAIT,		/* "no_nowait": queue cannot fail fast */
	SSDLOAD_POLL_MULTI_DEV,		/* "multi_device": several devices */
	SSDLOAD_POLL_DISCARD,		/* "discard": the job trims */
};

/* file_service_type: how a worker moves between the devices of its job. */
enum ssdload_fst {
	SSDLOAD_FST_ROUNDROBIN = 0,	/* "roundrobin": next device every N I/Os */
	SSDLOAD_FST_RANDOM,		/* "random": a random device every N I/Os */
	SSDLOAD_FST_SEQUENTIAL,		/* "sequential": stay until done (or N I/Os) */
};

/* A device of the job: its claim, its span and its offset tables. */
struct ssdload_dev {
	struct ssdload_bdev bdev;	/* opened exclusively for the run */
	const char *path;		/* in job->paths */
	u64 span_start;			/* bytes */
	u64 span_bytes;			/* bytes, a multiple of blockalign */
	u64 nr_aligned;			/* blockalign units in the span */
	u64 nr_units;			/* random starts: the largest block fits */
	struct ssdload_dist *dist[SSDLOAD_DIR_NR];	/* NULL: uniform */
};

/* What a worker keeps per device. */
struct ssdload_wdev {
	u64 slice_start;		/* first unit of the worker's slice */
	u64 slice_len;			/* units in the slice */
	u64 next[SSDLOAD_DIR_NR];	/* sequential: byte cursor in the slice */
	u64 left;			/* one pass: measured bytes still to go */
	u64 pass_len;			/* one pass: the bytes of a whole pass */
	bool perm;			/* random one pass: a permutation */
	u64 perm_next;			/* index of the pass */
	struct ssdload_bij bij;		/* the permutation of the slice */
	struct ssdload_devstat st[SSDLOAD_DIR_NR];
};

/* thinktime_blocks_type: what thinktime_blocks counts. */
enum ssdload_think_type {
	SSDLOAD_THINK_COMPLETE = 0,	/* "complete": completed I/Os */
	SSDLOAD_THINK_ISSUE,		/* "issue": issued I/Os */
};

/*
 * thinktime (think.c), as fio's: once thinktime_blocks I/Os were counted
 * since the last pause (or thinktime_iotime passed), the worker issues
 * nothing new, waits for its I/Os in flight, then spins for
 * thinktime_spin and sleeps (hrtimer) for the rest of thinktime.  Set
 * before the run (ns, the limits) and by ssdload_think_begin(); the rest
 * only by the worker.  debugfs reads total_ns and pauses.
 */
struct ssdload_wthink {
	u64 ns;				/* thinktime, 0 = off */
	u64 spin_ns;			/* of it, spun */
	u64 iotime_ns;			/* I/O time between pauses, 0 = off */
	u64 blocks;			/* I/Os between pauses, 0 = by time */
	bool by_issue;			/* count issued, not completed, I/Os */
	bool due;			/* a pause is due: drain, then pause */
	u64 last;			/* the count at the last pause */
	u64 due_cnt;			/* the count when this one became due */
	u64 last_ns;			/* end of the last pause (iotime) */
	u64 start_ns;			/* start of the pause, 0 = none */
	u64 end_ns;			/* its end */
	u64 total_ns;			/* time paused */
	u64 pauses;			/* pauses taken */
};

/* Counters of a worker, read live with READ_ONCE(); summed per job. */
struct ssdload_wcount {
	u64 split_ios;			/* completed I/Os whose bio was split */
	u64 nowait_retries;		/* polled submissions refused, retried */
	u64 timed_out;			/* I/Os seen older than io_timeout_ms */
	u64 stuck;			/* of those, still in flight */
	u64 fua_writes;			/* writes sent with REQ_FUA (sync=1 or
					 * write_barrier)
					 */
	u64 barrier_writes;		/* of them, with REQ_PREFLUSH too */
};

/* The first failed I/O a worker reaped (the job's error at teardown). */
struct ssdload_ioerr {
	int err;			/* errno, 0 = none */
	u8 dir;				/* enum ssdload_dir */
	u8 dev;				/* index in job->devs */
	u64 pos;			/* byte offset */
};

/*
 * The groups of a worker's fields, by who writes them.  Unless a comment
 * says otherwise, only the worker's own thread writes a field once it
 * runs; live readers (debugfs) use READ_ONCE() or the seqcount.
 */

/*
 * The phase the worker is in.  Written by ssdload_phase_enter() (from
 * ssdload_worker_begin() and ssdload_phase_next()), before the run also
 * by ssdload_worker_alloc() (random) and the slice plan in job.c (the
 * quota of a one-pass worker with no slice).  Read by the submission
 * path on every I/O; debugfs reads idx and loop.
 */
struct ssdload_wphase {
	const struct ssdload_phase *ph;	/* the current phase */
	unsigned int idx;		/* its index in job->phases */
	unsigned int loop;		/* loops of the step list done */
	u32 epoch;			/* phases entered, minus one */
	u32 bs;				/* its block size if uniform */
	u32 ba;				/* its random offset alignment, 0 =
					 * the job's unit (job->ba)
					 */
	u32 rwmixread;			/* percent of reads if mixed */
	unsigned int spare;		/* free I/Os beyond its iodepth */
	bool idle;			/* issues nothing (an idle step, or a
					 * worker beyond its numjobs)
					 */
	bool random;			/* random offsets */
	bool mixed;			/* direction drawn per I/O */
	u8 fixed_dir;			/* direction unless mixed */
	bool uniform_bs;		/* one block size (bs) */
	bool paced;			/* rate controlled */
	bool rate_mix;			/* rate: reads and writes both drawn */
	bool has_quota;			/* quota limits measured I/Os */
	u64 quota;			/* measured I/Os this worker may submit */
	u64 ramp_end_ns;		/* measured from here */
	u64 deadline_ns;		/* no submissions from here, 0 = none */
};

/*
 * Where the next new I/O goes and what it carries.  Written as each new
 * I/O is planned (ssdload_next_io(), ssdload_plan_io(), ssdload_prep()),
 * reset by ssdload_phase_enter() (submitted) and ssdload_pass_arm(),
 * set up before the run by ssdload_worker_alloc() and the slice plan in
 * job.c.  Read by the submission path only.
 */
struct ssdload_wcursor {
	u64 rng[4];			/* xoshiro256** state */
	u64 submitted;			/* measured I/Os submitted this phase */
	bool one_pass;			/* ends when every slice was covered */
	unsigned int devs_left;		/* one pass: devices not yet covered */
	unsigned int dev;		/* device of the next I/O */
	unsigned int dev_ios;		/* I/Os on it since the last switch */
	u64 dev_bytes;			/* bytes on it since the last switch */
	struct ssdload_datagen dg;	/* write data */
	u64 vseq;			/* verify: writes stamped */
};

/*
 * Steps only: the gap between the last completion of a phase and the
 * first submission of the next.  ssdload_phase_enter() opens it, the
 * first submission closes it (ssdload_step_gap()), the reap tracks the
 * drain of the earlier phases.
 */
struct ssdload_wgap {
	bool open;			/* the first submission is due */
	bool issued;			/* the phase planned a new I/O */
	u64 old_inflight;		/* I/Os of earlier phases in flight */
	u64 old_last_ns;		/* their last completion */
	u64 last_reap_ns;		/* latest completion reaped (any) */
};

/*
 * The worker's I/Os.  Allocated by ssdload_worker_alloc(); then written
 * as I/Os are submitted and reaped, and by the io_timeout_ms scan.
 * debugfs reads inflight.
 */
struct ssdload_wpool {
	struct ssdload_io **ios;	/* all I/Os */
	struct ssdload_io **free;	/* idle I/Os (a stack) */
	unsigned int nr_ios;		/* allocated I/Os */
	unsigned int nr_free;		/* entries in free[] */
	unsigned int inflight;		/* submitted, not yet reaped */
	struct llist_node *retry;	/* refused I/Os to send again */
	struct llist_node *follow;	/* trimwrite: trimmed, to write now */
	struct llist_node *local;	/* completed in this thread (bi_end_io
					 * in our context): no atomics
					 */
	u64 timeout_ns;			/* io_timeout_ms in ns, 0 = off */
	u64 next_scan_ns;		/* next look for overdue I/Os */
};

/*
 * Rate control.  The schedules are allocated by ssdload_worker_alloc(),
 * restarted by ssdload_phase_enter() and advanced as each I/O is
 * stamped; the rest is written by ssdload_rate_pick() and the worker
 * loop.  debugfs reads the schedules and issue_end_ns for the lag.
 */
struct ssdload_wrate {
	struct ssdload_sched *sched;	/* per direction, NULL = no rate */
	bool drawn;			/* dir drawn, not yet sent */
	u8 dir;				/* the direction drawn */
	u64 wake_ns;			/* nothing due before this */
	u64 issue_end_ns;		/* when issuing ended, 0 = not yet */
};

/*
 * Polled completions (hipri).  Written by the submission (last_io), by
 * ssdload_poll() (cookie, pbio), by a refused REQ_NOWAIT submission and
 * the next completion (again_streak), and by ssdload_track_cpu() each
 * pass (last_cpu, migrated: a moved worker also polls its old queues).
 */
struct ssdload_wpoll {
	struct ssdload_io *last_io;	/* latest submission, its cookie polls */
	blk_qc_t cookie;		/* last valid poll cookie seen */
	unsigned int last_cpu;		/* CPU of the latest pass */
	bool migrated;			/* ran off its CPU (hotplug) */
	u64 again_streak;		/* refusals since the last completion */
	struct bio pbio;		/* carries the cookie into bio_poll() */
};

/*
 * The results.  Written by the reap (ssdload_reap(), ssdload_record(),
 * under seq), the submission (depth, submits), ssdload_track_cpu()
 * (ran_on) and, at teardown, job.c (cpu_ns, usr_ns, ctx).  Read live by
 * debugfs, then summed once the run ended.
 */
struct ssdload_wres {
	seqcount_t seq;			/* st[] scalars for live readers */
	bool reaped_measured;		/* disable_lat: a measured I/O was
					 * reaped
					 */
	u64 last_done_ns;		/* latest measured completion */
	struct ssdload_wcount cnt;	/* counters for progress and summary */
	struct ssdload_ioerr ioerr;	/* first failed I/O */
	u64 depth[SSDLOAD_DEPTH_NR];	/* measured submissions by the I/Os
					 * then in flight (ssdload_depth_bucket)
					 */
	u64 submits[SSDLOAD_DEPTH_NR];	/* submission batches by size */
	u64 reaps[SSDLOAD_DEPTH_NR];	/* completion batches by size */
	u64 cpu_ns;			/* scheduler runtime, set at teardown */
	u64 usr_ns;			/* of it, user time */
	u64 ctx;			/* context switches */
	cpumask_var_t ran_on;		/* CPUs the thread ran on */
	struct ssdload_dstat st[SSDLOAD_DIR_NR];	/* per-direction stats */
	struct ssdload_dstat ist[SSDLOAD_DIR_NR];	/* latency from the
							 * intended time (rate)
							 */
	struct ssdload_dstat sync;	/* flushes (fsync, end_fsync): ios
					 * counts flushes, bytes stays 0
					 */
};

/*
 * Flushes (fsync, end_fsync) and FUA writes (sync, write_barrier), see
 * flush.c.  Written by the submission path and the reap only.
 */
struct ssdload_wflush {
	struct ssdload_io **ios;	/* one empty flush bio per device */
	u64 every;			/* fsync: a flush after this many
					 * writes, 0 = none
					 */
	u64 barrier;			/* write_barrier: every Nth write */
	u64 writes;			/* writes planned since the last flush */
	u64 nth;			/* writes planned, for write_barrier */
	unsigned int inflight;		/* flush bios in flight */
	bool due;			/* a flush waits for the writes before
					 * it to complete: nothing new goes out
					 */
	bool at_end;			/* end_fsync: one flush once issuing
					 * ended
					 */
	bool fua;			/* sync: every write with REQ_FUA */
	bool plan;			/* some of the above: count the writes */
};

/*
 * The completion side: what bi_end_io reads or writes, on any CPU.
 * done is pushed by bi_end_io and emptied by the reap; task and nolat
 * are set before the thread runs.
 */
struct ssdload_wcompl {
	struct llist_head done;		/* completed I/Os */
	struct task_struct *task;	/* the kthread, reference held */
	bool nolat;			/* disable_lat: no clock reads per I/O */
};

/*
 * One kthread with its I/Os and its private statistics.  Workers are
 * separate node-local allocations.  The fields above the groups are set
 * before the thread runs and stay fixed (gate: cleared once passed).
 * The completion side (compl) sits on its own cache line at the end,
 * away from the fields the worker writes on every I/O.
 */
struct ssdload_worker {
	struct ssdload_job *job;	/* owning job */
	unsigned int idx;		/* index in job->workers */
	unsigned int cpu;		/* CPU the thread is bound to */
	bool polled;			/* reap by bio_poll(), never sleep */
	bool coarse;			/* pass clock: ktime_get_coarse_ns() */
	bool trimwrite;			/* each trim is followed by a write */
	pid_t pid;			/* of the kthread */
	unsigned int nr_devs;		/* entries of wd[] (job->nr_devs) */
	struct ssdload_wdev *wd;	/* per device */
	struct ssdload_pstat *pst;	/* per phase, steps only (else NULL) */
	struct ssdload_series *ser;	/* log_interval_ms, NULL = off */
	struct ssdload_gate *gate;	/* start GROUP: passed before the first
					 * I/O, then NULL
					 */
	u64 begin_ns;			/* its first I/O, after startdelay */
	u64 first_real_ns;		/* CLOCK_REALTIME as it began to submit */

	struct ssdload_wthink think;

	struct ssdload_wphase phase;
	struct ssdload_wcursor cursor;
	struct ssdload_wgap gap;
	struct ssdload_wpool pool;
	struct ssdload_wrate rate;
	struct ssdload_wpoll poll;
	struct ssdload_wres res;
	struct ssdload_wflush flush;
	struct ssdload_wcompl compl ____cacheline_aligned_in_smp;
};

/* verify: the block header, the checksums, the generation map (verify.c) */
#define SSDLOAD_VGEN_MASK	0x7f	/* generation of the map byte, 1..127 */
#define SSDLOAD_VGEN_AMBIG	0x80	/* two writes overlapped: any passes */

/* What a job's checksums need: the type and, for crc64, the function. */
struct ssdload_vctx {
	u32 type;			/* enum ssdload_verify */
	u64 (*crc64)(u64 crc, const void *p, size_t len); /* crc64_be */
};

/* What a write stamps into the header of a unit. */
struct ssdload_vstamp {
	u64 lba;			/* 512-byte sector of the unit */
	u64 seed;			/* the job's randseed */
	u64 seq;			/* the worker's write sequence number */
	u64 time_ns;			/* CLOCK_REALTIME */
	u32 worker;			/* worker index */
	u32 gen;			/* the block's generation, 1..127 */
};

/* What a read-back unit should hold. */
struct ssdload_vwant {
	u64 lba;			/* the sector it was read from */
	u64 seed;			/* the job's randseed */
	u8 gen;				/* the map byte of its block */
};

/* What its header said (valid when it had one). */
struct ssdload_vgot {
	u64 lba;
	u64 seq;
	u32 gen;
	u32 worker;
};

/* One listed failure (debugfs verify). */
struct ssdload_vfail {
	u64 lba;			/* 512-byte sector of the unit */
	u8 cls;				/* enum ssdload_vclass */
	int err;			/* read_error: errno */
	struct ssdload_vgot got;	/* what the header said */
	u8 want_gen;			/* the map byte */
};

/*
 * A job's verify state.  Fixed from enable: the context, the map and
 * the unit; the results are written by the verify pass (end_work) and
 * read by debugfs under job->lock; they stay until the next enable.
 */
struct ssdload_vrun {
	struct ssdload_vctx c;
	u8 *map;			/* one byte per block, NULL = no verify */
	u64 map_bytes;			/* its size */
	u64 base[SSDLOAD_MAX_DEVS];	/* each device's first block in map */
	u32 bs;				/* block (the job's only block size) */
	u32 interval;			/* bytes per checked unit */
	u8 state;			/* enum ssdload_vstate */
	u64 written;			/* blocks with a generation */
	u64 checked;			/* blocks read back */
	u64 units;			/* units classified */
	u64 ambiguous;			/* blocks with two writes in flight */
	u64 cls[SSDLOAD_VCLASS_NR];	/* failed units per class */
	u32 nr_fail;			/* entries of fail[] */
	struct ssdload_vfail fail[SSDLOAD_VFAIL_MAX];
};

enum ssdload_vstate {
	SSDLOAD_VSTATE_NONE = 0,	/* "none": no verify pass (yet) */
	SSDLOAD_VSTATE_RUNNING,		/* "running" */
	SSDLOAD_VSTATE_DONE,		/* "done" */
	SSDLOAD_VSTATE_ABORTED,		/* "aborted": stopped, or verify_fatal */
};

/* Job parameters: set through configfs, fixed while the job runs. */
struct ssdload_cfg {
	u64 rw;				/* enum ssdload_rw */
	u64 rwmixread;			/* percent of reads for rw/randrw */
	u64 bs;				/* bytes per I/O */
	u64 iodepth;			/* I/Os in flight per worker */
	u64 offset;			/* span start, bytes */
	u64 size;			/* span length, bytes, 0 = to the end */
	u64 runtime_ms;			/* measured time limit, 0 = none */
	u64 ramp_ms;			/* unmeasured warm-up */
	u64 number_ios;			/* measured I/O limit, 0 = none */
	u64 randseed;			/* PRNG seed (default: from the name) */
	u64 allow_write;		/* 1 = writes permitted */
	u64 hipri;			/* 1 = polled completions (REQ_POLLED) */
	u64 disable_lat;		/* 1 = no timestamps, no histograms */
	u64 io_timeout_ms;		/* count I/Os older than this, 0 = off */
	u64 scramble_buffers;		/* 1 = fresh header in each write */
	u64 offset_ppm;			/* offset as ppm of each device, or */
	bool offset_pct;		/* ... when set */
	u64 size_ppm;			/* likewise for size */
	bool size_pct;
	u64 blockalign;			/* bytes, 0 = the smallest block */
	u64 random_scatter;		/* 1 = hot ranks spread over the span */
	u64 buffer_compress_percentage;
	u64 buffer_compress_chunk;	/* bytes */
	u64 dedupe_percentage;
	u64 zero_buffers;
	u64 refill_buffers;
	u64 numjobs;			/* 0 = one worker per CPU */
	u64 rate_iops[SSDLOAD_DIR_NR];	/* I/Os per second, 0 = uncapped */
	u64 rate[SSDLOAD_DIR_NR];	/* bytes per second, 0 = uncapped */
	u32 rate_process;		/* enum ssdload_rate_process */
	u64 log_interval_ms;		/* time series interval, 0 = off */
	u64 log_hist;			/* 1 = histogram deltas in the series */
	u64 shared;			/* 1 = other shared jobs may use the devices */
	u64 loops;			/* runs of the step list (or of the job) */
	u64 time_based;			/* 0 = runtime_ms or one pass, the first */
	u64 norandommap;		/* 1 = a random pass draws with replacement */
	u64 thinktime_us;		/* pause, 0 = none */
	u64 thinktime_spin_us;		/* of it, spun */
	u64 thinktime_blocks;		/* I/Os between pauses, 0 = by time */
	u32 thinktime_blocks_type;	/* enum ssdload_think_type */
	u64 thinktime_iotime_us;	/* I/O time between pauses, 0 = off */
	u64 startdelay_us;		/* start delay, or its range's low end */
	u64 startdelay_hi_us;		/* the range's high end (= low: none) */
	u64 start_at;			/* CLOCK_REALTIME ns to start at, 0 = now */
	u64 fsync;			/* a flush after every N writes, 0 = none */
	u64 end_fsync;			/* 1 = a flush once the writes ended */
	u64 sync;			/* 1 = writes with REQ_FUA */
	u64 write_barrier;		/* every Nth write PREFLUSH | FUA, 0 = none */
	u32 fst;			/* enum ssdload_fst */
	u32 fst_n;			/* I/Os before a switch, 0 = 1 */
	u32 pattern_len;		/* buffer_pattern bytes, 0 = none */
	u8 pattern[SSDLOAD_PATTERN_MAX];
	struct ssdload_bsspec *bssplit;	/* NULL = unset */
	struct ssdload_bsspec *bsrange;	/* NULL = unset */
	struct ssdload_distspec *dist;	/* NULL = random (uniform) */
	/* verify (Documentation/verify.rst) */
	u32 verify;			/* enum ssdload_verify, 0 = off */
	u64 verify_interval;		/* bytes per checked unit, 0 = bs */
	u64 do_verify;			/* 1 = read back after the writes */
	u64 verify_fatal;		/* 1 = stop at the first failure */
};

/*
 * A job.  Its memory is reference counted: configfs holds one reference
 * until release, a run holds one until its last I/O is reaped and it is
 * torn down, and every open lease holds one.  So rmdir returns at once,
 * even while a stuck device keeps the run draining.
 */
struct ssdload_job {
	struct config_group cg;		/* jobs/NAME */
	struct config_group steps_group; /* jobs/NAME/steps */
	struct list_head steps;		/* struct ssdload_step by N, under lock */
	unsigned int nr_steps;		/* entries of steps */
	struct kref ref;		/* configfs, the run, the leases */
	struct mutex lock;		/* start/stop/teardown/readers; never
					 * held while waiting for I/O
					 */
	struct ssdload_cfg cfg;		/* parameters */
	char filename[PATH_MAX];	/* block device path, "" if unset */
	char group[SSDLOAD_GROUP_LEN];	/* enable arms, start launches; "" = none */
	cpumask_var_t cpus;		/* cpus_allowed, empty = default */
	enum ssdload_state state;	/* READ_ONCE() for lockless readers */
	struct ratelimit_state rs;	/* for the refusals it logs */
	spinlock_t err_lock;		/* protects err and errmsg */
	int err;			/* errno of the failure, 0 if fine */
	char errmsg[SSDLOAD_ERR_LEN];	/* one-line reason */
	bool stop;			/* stop requested: enable=0 or rmdir */
	bool failed;			/* an I/O failed: stop issuing */
	unsigned int leases;		/* open lease files */
	bool leased;			/* the run started (or was armed) under a
					 * lease
					 */
	char *paths;			/* filename split into devs[].path */
	unsigned int nr_devs;		/* devices of the current run */
	struct ssdload_dev *devs;	/* kcalloc'ed at enable */
	struct ssdload_phase *phases;	/* of the run (at least one) */
	unsigned int nr_phases;
	unsigned int depth;		/* I/Os per worker: the largest iodepth */
	u8 dirs;			/* BIT(dir): directions some phase issues */
	u8 rated_dirs;			/* BIT(dir): ... with a rate */
	bool mixed;			/* some phase mixes reads and writes */
	bool random;			/* some phase has random offsets */
	u64 run_ms;			/* the run's length, 0 if a count ends a phase */
	u32 run_loops;			/* loops of the run */
	u32 bs_min, bs_max;		/* over the phases and directions */
	u32 ba;				/* offset alignment, bytes: the unit
					 * of the spans, dividing every
					 * phase's (its greatest common
					 * divisor)
					 */
	bool uniform_bs;		/* one block size in every direction */
	bool fixed_len;			/* ... and offsets aligned to it: every
					 * I/O is bs_max long
					 */
	struct ssdload_datacfg dcfg;	/* write data */
	u64 mem;			/* bytes the run allocates */
	bool writes;			/* the run issues writes */
	bool polled;			/* the run polls (hipri and the queue can) */
	bool rated;			/* some direction is rate controlled */
	u64 ser_max;			/* series records per worker, 0 = off */
	u8 ser_dirs;			/* directions with histogram deltas */
	u64 ser_pool;			/* their bytes per worker */
	u64 ser_final;			/* of which kept for the last record */
	u8 poll_fallback;		/* enum ssdload_poll_fallback */
	unsigned int nr_workers;	/* workers of the last run */
	u32 run_gen;			/* changes when the last run's results
					 * are freed (a streamed reader checks)
					 */
	struct ssdload_worker **workers; /* results of the last run */
	atomic_t nr_active;		/* workers still running their loop */
	struct work_struct end_work;	/* tears a run down when it ends */
	u64 start_ns;			/* ktime at enable */
	u64 start_real_ns;		/* start_ns as CLOCK_REALTIME */
	u64 ramp_end_ns;		/* start_ns + ramp */
	u64 deadline_ns;		/* no submissions from here, 0 = none */
	u64 end_ns;			/* ktime at teardown, 0 while running */
	struct dentry *dbg;		/* debugfs directory */
	struct ssdload_vrun vfy;	/* verify: map and results */
};

/*
 * Log a refused configfs write or enable of @job, rate-limited per job (a
 * script hammering one job cannot flood the log; every job still gets its
 * first messages).
 */
#define ssdload_job_pr_err(job, fmt, ...)				\
do {									\
	if (__ratelimit(&(job)->rs))					\
		pr_err(fmt, ##__VA_ARGS__);				\
} while (0)

static inline struct ssdload_job *to_job(struct config_item *item)
{
	return container_of(to_config_group(item), struct ssdload_job, cg);
}

static inline const char *ssdload_job_name(struct ssdload_job *job)
{
	return config_item_name(&job->cg.cg_item);
}

/* The workers that issue in phase @ph of a run of @nr workers. */
static inline unsigned int ssdload_phase_workers(const struct ssdload_phase *ph,
						 unsigned int nr)
{
	return ph->numjobs ? ph->numjobs : nr;
}

static inline bool ssdload_rw_is_random(u64 rw)
{
	return rw == SSDLOAD_RW_RANDREAD || rw == SSDLOAD_RW_RANDWRITE ||
	       rw == SSDLOAD_RW_RANDRW || rw == SSDLOAD_RW_RANDTRIM ||
	       rw == SSDLOAD_RW_RANDTRIMWRITE;
}

/* A trim followed by a write of the same blocks (trimwrite). */
static inline bool ssdload_rw_is_trimwrite(u64 rw)
{
	return rw == SSDLOAD_RW_TRIMWRITE || rw == SSDLOAD_RW_RANDTRIMWRITE;
}

/* The direction of an unmixed job (trimwrite: its first, the trim). */
static inline u8 ssdload_rw_dir(u64 rw)
{
	switch (rw) {
	case SSDLOAD_RW_WRITE:
	case SSDLOAD_RW_RANDWRITE:
		return SSDLOAD_DIR_WRITE;
	case SSDLOAD_RW_TRIM:
	case SSDLOAD_RW_RANDTRIM:
	case SSDLOAD_RW_TRIMWRITE:
	case SSDLOAD_RW_RANDTRIMWRITE:
		return SSDLOAD_DIR_TRIM;
	default:
		return SSDLOAD_DIR_READ;
	}
}

static inline bool ssdload_rw_is_mixed(u64 rw)
{
	return rw == SSDLOAD_RW_RW || rw == SSDLOAD_RW_RANDRW;
}

/*
 * A run is set up: waiting for its group's start (armed), issuing
 * (running) or draining (stopping).
 */
static inline bool ssdload_state_busy(enum ssdload_state state)
{
	return state == SSDLOAD_STATE_ARMED ||
	       state == SSDLOAD_STATE_RUNNING ||
	       state == SSDLOAD_STATE_STOPPING;
}

/* parse.c: pure parsers, also meant for KUnit */
struct ssdload_enum {
	u32 value;			/* enum value */
	const char *name;		/* its configfs spelling */
};

extern const struct ssdload_enum ssdload_rw_names[];
extern const struct ssdload_enum ssdload_state_names[];
extern const struct ssdload_enum ssdload_poll_fallback_names[];
extern const struct ssdload_enum ssdload_fst_names[];
extern const struct ssdload_enum ssdload_rate_process_names[];
extern const struct ssdload_enum ssdload_think_type_names[];
extern const char * const ssdload_dir_names[SSDLOAD_DIR_NR];

int ssdload_parse_u64(const char *buf, u64 min, u64 max, u64 align, u64 *out);
int ssdload_parse_bool(const char *buf, bool *out);
int ssdload_parse_enum(const char *buf, const struct ssdload_enum *tbl,
		       u32 *out);
const char *ssdload_enum_name(const struct ssdload_enum *tbl, u32 value);
int ssdload_parse_cpulist(const char *buf, struct cpumask *out);
int ssdload_parse_path(const char *buf, char *out, size_t outlen);
int ssdload_parse_bytes_or_pct(const char *buf, u64 *bytes, u64 *ppm,
			       bool *pct);
int ssdload_parse_fst(const char *buf, u32 *fst, u32 *n);
int ssdload_parse_group(const char *buf, char *out, size_t outlen);
int ssdload_parse_range(const char *buf, u64 max, u64 *lo, u64 *hi);
void ssdload_safe_value(const char *buf, char *out, size_t outlen);
bool ssdload_blank(const char *buf);

/* configfs.c */
int ssdload_configfs_init(void);
void ssdload_configfs_exit(void);

/* job.c */
struct ssdload_job *ssdload_job_alloc(const char *name);
void ssdload_job_get(struct ssdload_job *job);
void ssdload_job_put(struct ssdload_job *job);
int ssdload_job_start(struct ssdload_job *job);
void ssdload_job_stop(struct ssdload_job *job);
void ssdload_job_lease(struct ssdload_job *job, bool take);
u64 ssdload_job_runtime_ns(struct ssdload_job *job);
unsigned int ssdload_job_armed_workers(struct ssdload_job *job,
				       const char *group);
unsigned int ssdload_job_launch_armed(struct ssdload_job *job,
				      const char *group,
				      struct ssdload_gate *gate,
				      struct task_struct **tasks,
				      unsigned int room);
void ssdload_wake_tasks(struct task_struct **tasks, unsigned int nr);
u64 ssdload_seed_from_name(const char *name);

/* gate.c */
struct ssdload_gate *ssdload_gate_alloc(void);
void ssdload_gate_put(struct ssdload_gate *gate);
void ssdload_gate_pass(struct ssdload_worker *w);

/* plan.c */
unsigned int ssdload_buf_cut(u32 bs, u64 seg, u64 *mem, u64 *segs);
u64 ssdload_worker_mem(const struct ssdload_cfg *cfg, u32 bs_max,
		       bool fixed_len, unsigned int nr_devs);
u64 ssdload_worker_mem_of(unsigned int depth, bool mixed, unsigned int rated,
			  u32 bs_max, bool fixed_len, unsigned int nr_devs);
__printf(4, 5) int ssdload_job_refuse(struct ssdload_job *job, int err,
				      const char *attr, const char *fmt, ...);
bool ssdload_cfg_skewed(const struct ssdload_cfg *cfg);
bool ssdload_cfg_uses_dir(const struct ssdload_cfg *cfg, int dir);
bool ssdload_dir_rated(const struct ssdload_cfg *cfg, int dir);
void ssdload_plan_bsd(const struct ssdload_cfg *cfg,
		      struct ssdload_bsdist *bsd, u32 *lo, u32 *hi);
u64 ssdload_share(u64 total, unsigned int nr, unsigned int i);
u64 ssdload_share_start(u64 total, unsigned int nr, unsigned int i);
int ssdload_steps_compile(struct ssdload_job *job);
int ssdload_steps_plan_rate(struct ssdload_job *job, unsigned int nr);
int ssdload_plan_run(struct ssdload_job *job, unsigned int nr);
int ssdload_plan_span(struct ssdload_job *job, struct ssdload_dev *dev);

/* step.c */
extern const struct config_item_type ssdload_steps_type;
void ssdload_steps_release(struct ssdload_job *job);
u32 ssdload_phase_nr_hists(const struct ssdload_phase *ph);
int ssdload_phase_hist_at(const struct ssdload_phase *ph, u32 k,
			  bool *intended);
u64 ssdload_steps_mem(const struct ssdload_job *job);
int ssdload_steps_alloc(struct ssdload_worker *w, int node);
void ssdload_steps_free(struct ssdload_worker *w);

/*
 * The chunks of one buffer of @remaining bytes: the largest power-of-two
 * run of pages that fits what is left, up to 1 MiB, so that nothing is
 * rounded up beyond the last page.  Returns the order of the next chunk.
 */
static inline unsigned int ssdload_chunk_order(u32 remaining)
{
	unsigned int pages = DIV_ROUND_UP(remaining, PAGE_SIZE);

	return min_t(unsigned int, ilog2(pages), SSDLOAD_MAX_CHUNK_ORDER);
}

/*
 * Does an I/O keep its buffers' description apart from the bio's table?
 * A mixed job has two buffers; when I/Os may be shorter than the buffer
 * (several block sizes, or a one pass that ends on a blockalign boundary
 * inside a block), adding a part of a chunk to the bio rewrites the
 * table's entry, which then must not be the buffer's only description.
 */
static inline bool ssdload_io_sep_table(bool mixed, bool fixed_len)
{
	return mixed || !fixed_len;
}

/* worker.c */
struct ssdload_worker *ssdload_worker_alloc(struct ssdload_job *job,
					    unsigned int idx, unsigned int cpu);
void ssdload_worker_free_ios(struct ssdload_worker *w);
void ssdload_worker_free(struct ssdload_worker *w);
int ssdload_worker_fn(void *data);
void ssdload_end_io(struct bio *bio);

/*
 * Has the measured phase begun at @now?  Without a ramp it always has: the
 * coarse clock of disable_lat may lag the precise start by up to a tick.
 */
static inline bool ssdload_measuring(const struct ssdload_worker *w, u64 now)
{
	return !w->phase.ph->ramp_ms || now >= w->phase.ramp_end_ns;
}

/* flush.c */
u64 ssdload_flush_mem(const struct ssdload_job *job);
int ssdload_flush_alloc(struct ssdload_worker *w, int node);
void ssdload_flush_free(struct ssdload_worker *w);
void ssdload_flush_plan(struct ssdload_worker *w, struct ssdload_io *io);
blk_opf_t ssdload_flush_opf(const struct ssdload_worker *w,
			    const struct ssdload_io *io);
void ssdload_flush_try(struct ssdload_worker *w, bool issuing, u64 now);
void ssdload_flush_reaped(struct ssdload_worker *w, struct ssdload_io *io);
void ssdload_perm_init(struct ssdload_wdev *wd, unsigned int idx, u64 seed);
void ssdload_worker_begin(struct ssdload_worker *w, u64 t0);
void ssdload_phase_enter(struct ssdload_worker *w, unsigned int idx, u64 t0);
bool ssdload_pass_arm(struct ssdload_worker *w);
bool ssdload_phase_next(struct ssdload_worker *w, u64 now);
void ssdload_step_gap(struct ssdload_worker *w, u64 now);
void ssdload_pstat_update(struct ssdload_worker *w, unsigned int idx, u64 end);

/*
 * What kvmalloc(@size) may take: a kmalloc slab object, pages of the
 * allocation's order (up to KMALLOC_MAX_SIZE), or vmalloc'ed pages.
 */
static inline u64 ssdload_kv_bytes(size_t size)
{
	if (size <= PAGE_SIZE)
		return kmalloc_size_roundup(size);
	if (size <= KMALLOC_MAX_SIZE)
		return PAGE_SIZE << get_order(size);
	return PAGE_ALIGN(size);
}

/*
 * The free I/Os a worker keeps back in phase @ph: those beyond its
 * iodepth, or none when it issues nothing (@idle).
 */
static inline unsigned int ssdload_phase_spare(const struct ssdload_worker *w,
					       const struct ssdload_phase *ph,
					       bool idle)
{
	return idle ? 0 : w->pool.nr_ios - min(ph->iodepth, w->pool.nr_ios);
}

/* Must the worker stop issuing (stop, an I/O error, teardown)? */
static inline bool ssdload_worker_stopped(const struct ssdload_worker *w)
{
	return READ_ONCE(w->job->stop) || READ_ONCE(w->job->failed) ||
	       kthread_should_stop();
}

/* think.c */
u64 ssdload_startdelay_ns(const struct ssdload_cfg *cfg, unsigned int idx);
void ssdload_think_begin(struct ssdload_worker *w, u64 t0);
bool ssdload_think(struct ssdload_worker *w, u64 now);
void ssdload_start_wait(struct ssdload_worker *w);

/* series.c */
u64 ssdload_series_mem(const struct ssdload_job *job);
void ssdload_series_plan(struct ssdload_job *job, u8 dirs);
int ssdload_series_alloc(struct ssdload_worker *w, int node);
void ssdload_series_free(struct ssdload_worker *w);
void ssdload_series_begin(struct ssdload_series *ser, u64 t0, u64 interval_ns);
void ssdload_series_close(struct ssdload_worker *w, u64 now, bool last);

/* The extremes of the open interval (the rest comes from the totals). */
static inline void ssdload_series_lat(struct ssdload_series *ser, int dir,
				      u64 lat)
{
	if (lat < ser->lat_min[dir])
		ser->lat_min[dir] = lat;
	if (lat > ser->lat_max[dir])
		ser->lat_max[dir] = lat;
}

/* hist.c */
int ssdload_dstat_init(struct ssdload_dstat *d, int node);
void ssdload_dstat_free(struct ssdload_dstat *d);
void ssdload_record_sync(struct ssdload_worker *w, struct ssdload_io *io);
void ssdload_record(struct ssdload_worker *w, struct ssdload_io *io);
void ssdload_record_step(struct ssdload_worker *w,
			 const struct ssdload_io *io);
void ssdload_worker_sum(const struct ssdload_worker *w, int dir,
			struct ssdload_dstat *out);
void ssdload_sum_dir(struct ssdload_job *job, int dir, struct ssdload_sum *s,
		     u64 *hist);
void ssdload_sum_intended(struct ssdload_job *job, int dir,
			  struct ssdload_sum *s, u64 *hist);
void ssdload_sum_step(struct ssdload_job *job, unsigned int phase, int dir,
		      bool intended, struct ssdload_sum *s, u64 *hist);
u64 ssdload_sum_mean(const struct ssdload_sum *s);
u64 ssdload_sum_stddev(const struct ssdload_sum *s);
int ssdload_u128_to_str(u128 v, char *buf, size_t len);

/*
 * fio's iodepth_level bucket (uapi SSDLOAD_DEPTH_NR) of @n I/Os in flight:
 * 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64 and more (0 counts as 1).
 */
static inline unsigned int ssdload_depth_bucket(unsigned int n)
{
	return n ? min_t(unsigned int, fls(n) - 1, SSDLOAD_DEPTH_NR - 1) : 0;
}

/*
 * fio's iodepth_submit/iodepth_complete bucket of a batch of @n I/Os:
 * 0, 1-4, 5-8, 9-16, 17-32, 33-64, more than 64.
 */
static inline unsigned int ssdload_batch_bucket(unsigned int n)
{
	if (n <= 4)
		return n ? 1 : 0;
	return min_t(unsigned int, fls(n - 1) - 1, SSDLOAD_DEPTH_NR - 1);
}

/* One more in a counter that live readers of the summary read. */
static inline void ssdload_count(u64 *c)
{
	WRITE_ONCE(*c, *c + 1);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* Internals exposed to the KUnit suites (VISIBLE_IF_KUNIT, module/tests/). */
extern struct configfs_attribute *ssdload_job_attrs[];
void ssdload_rng_seed(struct ssdload_worker *w, u64 seed);
u64 ssdload_rng_next(struct ssdload_worker *w);
u64 ssdload_rng_below(struct ssdload_worker *w, u64 n);
u8 ssdload_next_dir(struct ssdload_worker *w);
u64 ssdload_next_pos(struct ssdload_worker *w, u8 dir);
u64 ssdload_target(struct ssdload_worker *w, u8 dir, unsigned int dev,
		   u32 *len);
bool ssdload_pass_perm(const struct ssdload_job *job,
		       const struct ssdload_worker *w);
bool ssdload_think_due(const struct ssdload_wthink *t, u64 n, u64 now);
u64 ssdload_think_left(const struct ssdload_wthink *t, u64 n);
#endif

/* verify.c */
extern const struct ssdload_enum ssdload_verify_names[];
extern const char * const ssdload_vclass_names[SSDLOAD_VCLASS_NR + 1];
extern const char * const ssdload_vstate_names[];

unsigned int ssdload_vcsum_size(u32 type);
void ssdload_vcsum_flat(const struct ssdload_vctx *c, const void *p,
			size_t len, u8 out[SSDLOAD_VHDR_CSUM_MAX]);
const char *ssdload_vctx_get(struct ssdload_vctx *c, u32 type);
void ssdload_vctx_put(struct ssdload_vctx *c);
void ssdload_vstamp(const struct ssdload_vctx *c, const struct bio_vec *v,
		    unsigned int nr, u32 off, u32 len,
		    const struct ssdload_vstamp *st);
u8 ssdload_vcheck(const struct ssdload_vctx *c, const struct bio_vec *v,
		  unsigned int nr, u32 off, u32 len,
		  const struct ssdload_vwant *want, struct ssdload_vgot *got);
int ssdload_verify_prepare(struct ssdload_job *job);
void ssdload_verify_release(struct ssdload_job *job);
void ssdload_verify_write(struct ssdload_worker *w, struct ssdload_io *io,
			  const struct bio_vec *buf, unsigned int nr);
void ssdload_verify_written(struct ssdload_worker *w,
			    const struct ssdload_io *io);
int ssdload_verify_run(struct ssdload_job *job);
int ssdload_verify_show(struct ssdload_job *job, struct seq_file *m);

/* The generation after the map byte @m (1..127, wrapping; 0 = unwritten). */
static inline u8 ssdload_vgen_next(u8 m)
{
	u8 g = m & SSDLOAD_VGEN_MASK;

	return g >= SSDLOAD_VGEN_MASK ? 1 : g + 1;
}

/* Blocks of @bs bytes in a span of @span bytes (a partial one is not). */
static inline u64 ssdload_vmap_blocks(u64 span, u32 bs)
{
	return div_u64(span, bs);
}

/* The map index of the block at byte @pos of device @dev. */
static inline u64 ssdload_vmap_idx(const struct ssdload_vrun *v,
				   const struct ssdload_dev *d,
				   unsigned int dev, u64 pos)
{
	return v->base[dev] + div_u64(pos - d->span_start, v->bs);
}

/* debugfs.c */
int ssdload_debugfs_init(void);
void ssdload_debugfs_exit(void);
void ssdload_debugfs_job_add(struct ssdload_job *job);
void ssdload_debugfs_job_del(struct ssdload_job *job);

#endif /* _SSDLOAD_INT_H */
