// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload run: create a configfs job from fio-named options, start it
 * under a lease, follow its progress, print the results and remove the job.
 *
 * The CLI must not leave load behind.  Every signal whose default action
 * ends the process (but those reporting a fault in the program) stops the
 * job and waits for its in-flight I/O before the results are printed; for
 * what cannot be caught (SIGKILL, a crash), the lease does it: the job
 * stops when the kernel closes the lease file of the dead process.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uapi/ssdload.h"
#include "cmd/builtin.h"
#include "core/configfs.h"
#include "core/latstudy.h"
#include "fio/fioopts.h"
#include "fio/fiolog.h"
#include "fio/jobfile.h"
#include "core/options.h"
#include "core/preflight.h"
#include "fio/report.h"
#include "core/results.h"
#include "methods/runner.h"
#include "core/util.h"

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
	"                         trimwrite|randtrimwrite (default read)",
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
	"                         first N online CPUs)",
	"  --rwmixread=PCT        percent reads for rw/randrw (default 50)",
	"  --rwmixwrite=PCT       percent writes (= 100 - rwmixread)",
	"  --offset=SIZE|P%       start of the span on each device (default 0)",
	"  --size=SIZE|P%         length of the span (default: to the end of the device;",
	"                         a SIZE is split evenly among the devices)",
	"  --file_service_type=T  roundrobin|random|sequential[:N] between devices",
	"  --rate_iops=R[,W[,T]]  open-loop cap, I/Os per second, job-wide (fio's",
	"                         per-direction list; an empty field is uncapped)",
	"  --rate=BW[,BW[,BW]]    the same in bytes per second (k/m/g, base 1024)",
	"  --rate_process=P       linear (default) or poisson arrivals",
	"  --log_interval_ms=N    time series: one record per worker every N ms",
	"                         (needs --runtime; in the JSON as time_series)",
	"  --log_hist[=0|1]       latency percentiles per interval in the series",
	"  --runtime=TIME         measured time; bare number = seconds, or ms/s/m/h;",
	"                         the run ends then or after one pass over the span,",
	"                         whichever comes first, unless --time_based",
	"  --ramp_time=TIME       warm-up excluded from the results (same units)",
	"  --number_ios=N         stop after N measured I/Os (the whole job's)",
	"  --io_size=SIZE         fio's io_size (io_limit): each of the numjobs workers",
	"                         moves SIZE bytes (looping over the span), then stops;",
	"                         with --runtime, whichever comes first (one --bs only)",
	"  --randseed=N           seed of the offset/mix generator",
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
	"                         in-kernel engine",
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
	"",
	"Without --time_based, --number_ios, --io_size and steps the job makes one",
	"pass over the span (ended early by --runtime, if it is shorter).",
	"A signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT, ...) stops the job, prints what",
	"was measured and removes the job; a third one leaves the draining job to the",
	"kernel.  If ssdload dies (even SIGKILL), its lease stops the job.",
	"Exit status: 0 done, 1 error, 128+N after signal N (130 SIGINT, 143 SIGTERM).",
	NULL,
};

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
	O_NR
};

static const struct ssl_opt run_opts[] = {
	{ "name",		SSL_ARG_REQUIRED, O_NAME },
	{ "filename",		SSL_ARG_REQUIRED, O_FILENAME },
	{ "rw",			SSL_ARG_REQUIRED, O_RW },
	{ "readwrite",		SSL_ARG_REQUIRED, O_RW },
	{ "bs",			SSL_ARG_REQUIRED, O_BS },
	{ "blocksize",		SSL_ARG_REQUIRED, O_BS },
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
	{ "io_limit",		SSL_ARG_REQUIRED, O_IO_SIZE },
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
	{ "latency-table",	SSL_ARG_FLAG, O_LATENCY_TABLE },
	{ "latency-below",	SSL_ARG_REQUIRED, O_LATENCY_BELOW },
	{ "latency-check",	SSL_ARG_REQUIRED, O_LATENCY_CHECK },
	{ "bssplit",		SSL_ARG_REQUIRED, O_BSSPLIT },
	{ "bsrange",		SSL_ARG_REQUIRED, O_BSRANGE },
	{ "blocksize_range",	SSL_ARG_REQUIRED, O_BSRANGE },
	{ "blockalign",		SSL_ARG_REQUIRED, O_BLOCKALIGN },
	{ "ba",			SSL_ARG_REQUIRED, O_BLOCKALIGN },
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
	{ "wait_for_previous",	SSL_ARG_FLAG, O_STONEWALL },
	{ "new_group",		SSL_ARG_FLAG, O_NEW_GROUP },
	{ "wait_for",		SSL_ARG_REQUIRED, O_WAIT_FOR },
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
	int parse_only;
	int keep_job;			/* --keep-job: leave the done job in place */
	int writes;			/* rw includes writes */
	int trims;			/* rw includes trims */
	int group_reporting;		/* --group_reporting */
	int time_based;			/* --time_based (bare or true) */
	int allow_write;		/* --allow_write given as 1 */
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
};

#define POLL_MS		200	/* progress/state polling period */
#define STOP_POLL_MS	50	/* state polling once a stop was requested */
#define ETA_LINE_MS	1000	/* period of the progress line when not a tty */
#define IDLE_GRACE_MS	2000	/* how long "idle" after enable=1 means "starting" */

/*
 * Signals, shared with the handler.  The first one requests the stop, the
 * second makes the wait loop say what it waits for, a third one while the
 * job runs or drains exits at once and leaves the job to the kernel.
 * SIGPIPE (a reader of our output went away) never counts towards that.
 */
static volatile sig_atomic_t sig_first;	/* first signal caught, 0 = none */
static volatile sig_atomic_t sig_last;	/* latest one but SIGPIPE */
static volatile sig_atomic_t sig_count;	/* signals caught but SIGPIPE */
static volatile sig_atomic_t job_busy;	/* enabled and not yet ended */
static volatile sig_atomic_t sig_pipe;	/* a SIGPIPE came */
static char leave_msg[2048];		/* written by the handler on exit */
static size_t leave_len;

/* "rmdir ROOT/jobs/NAME", with its steps/N first when it has steps */
static void rmdir_cmd(const struct run_ctx *c, char *buf, size_t len)
{
	if (c->nsteps)
		snprintf(buf, len, "rmdir %s/jobs/%s/%s/* %s/jobs/%s", ssl_configfs_root(),
			 c->name, SSDLOAD_CONFIGFS_STEPS, ssl_configfs_root(), c->name);
	else
		snprintf(buf, len, "rmdir %s/jobs/%s", ssl_configfs_root(), c->name);
}

static void on_signal(int sig)
{
	if (!sig_first)
		sig_first = sig;
	if (sig == SIGPIPE) {
		sig_pipe = 1;
		return;
	}
	sig_last = sig;
	sig_count++;
	if (sig_count >= 3 && job_busy) {
		/* async-signal-safe; stderr may be gone with the session */
		ssize_t r = write(STDERR_FILENO, leave_msg, leave_len);

		(void)r;
		_exit(SSL_EXIT_SIGNAL(sig));
	}
}

/*
 * Every signal whose default action ends the process, but those that
 * report a fault of the program itself (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGABRT, SIGTRAP, SIGSYS): after those, and SIGKILL, the lease stops
 * the job.  The real-time signals are added at run time.
 */
static const int stop_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
#ifdef SIGIO
	SIGIO,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};

/*
 * Catch a signal only if it has its default action: one that was ignored
 * when we started (nohup, a shell's background job) stays ignored, and
 * one somebody else handles (a profiler's SIGPROF) stays theirs.
 */
static void catch_one(int sig, const struct sigaction *sa)
{
	struct sigaction old;

	if (!sigaction(sig, NULL, &old) && old.sa_handler == SIG_DFL &&
	    !(old.sa_flags & SA_SIGINFO))
		sigaction(sig, sa, NULL);
}

static void catch_signals(const struct run_ctx *c)
{
	struct sigaction sa;
	char rm[600];
	size_t i;
	int sig, r;

	rmdir_cmd(c, rm, sizeof(rm));
	r = snprintf(leave_msg, sizeof(leave_msg),
		     "ssdload: leaving job '%s' to the kernel: it stops once its "
		     "in-flight I/O has completed; read its results with ssdload "
		     "show %s, wait for it with ssdload stop %s, remove it with "
		     "%s\n", c->name, c->name, c->name, rm);
	leave_len = r < 0 ? 0 : (size_t)r < sizeof(leave_msg) ? (size_t)r :
		    sizeof(leave_msg) - 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = 0;	/* no SA_RESTART: a signal ends the loop's sleep */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(&sa.sa_mask, sig);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		catch_one(stop_signals[i], &sa);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		catch_one(sig, &sa);
}

static const char *const rw_names[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw",
	"trim", "randtrim", "trimwrite", "randtrimwrite",
};

static int bad_value(const struct run_ctx *c, int id, const char *why)
{
	if (c->where)	/* a key of a step */
		ssl_err("%s: %s=%s: %s", c->where, c->raw_name[id], c->raw[id], why);
	else if (c->from[id])	/* a line of a job file */
		ssl_err("%s: %s=%s: %s", c->from[id], c->raw_name[id], c->raw[id], why);
	else
		ssl_err("--%s=%s: %s", c->raw_name[id], c->raw[id], why);
	return -1;
}

static void add_write(struct run_ctx *c, const char *attr, const char *val)
{
	struct attr_write *w = &c->w[c->nw++];

	w->attr = attr;
	snprintf(w->val, sizeof(w->val), "%s", val);
}

static void add_write_u64(struct run_ctx *c, const char *attr, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	add_write(c, attr, buf);
}

static int u64_opt(struct run_ctx *c, int id, const char *attr, uint64_t *out)
{
	uint64_t v;

	if (!c->raw[id])
		return 0;
	if (ssl_parse_u64(c->raw[id], &v))
		return bad_value(c, id, "not a non-negative integer");
	if (out)
		*out = v;
	if (attr)
		add_write_u64(c, attr, v);
	return 0;
}

/* iodepth: 1 to the module's SSDLOAD_MAX_IODEPTH */
static int depth_opt(struct run_ctx *c, uint64_t *out)
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

static int time_opt(struct run_ctx *c, int id, const char *attr)
{
	uint64_t v;

	if (!c->raw[id])
		return 0;
	if (ssl_parse_time_ms(c->raw[id], 1000, &v))
		return bad_value(c, id, "not a time (seconds, or with ms/s/m/h suffix)");
	add_write_u64(c, attr, v);
	return 0;
}

/* A 0/1 option: bare (= 1), --opt=0|1 or --opt 0|1. */
static int flag_opt(struct run_ctx *c, int id, const char *attr, int *out)
{
	int b = 1;

	if (!c->raw[id])
		return 0;
	if (*c->raw[id] && ssl_parse_bool(c->raw[id], &b))
		return bad_value(c, id, "must be 0 or 1");
	if (attr)
		add_write_u64(c, attr, (uint64_t)b);
	if (out)
		*out = b;
	return 0;
}

/* numjobs (the job's, or a step's): 1 to 1024 workers, into @n and the attribute */
static int numjobs_opt(struct run_ctx *c, uint64_t *n)
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
 * "ssdload: note: ..." on stderr, unless this is a run of a job file whose
 * runner printed the notes of every job already (SSL_NOTED_ENV).
 */
static void __attribute__((format(printf, 1, 2))) run_note(const char *fmt, ...)
{
	va_list ap;

	if (getenv(SSL_NOTED_ENV))
		return;
	fputs("ssdload: note: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
static int block_size_opts(struct run_ctx *c)
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
			return bad_value(c, ids[k], "fio's logs come from the time series, "
					 "which needs a timed run: give --runtime");
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
static int rate_series_opts(struct run_ctx *c)
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

/* --rw: the attribute, and whether the job writes or trims */
static int rw_opt(struct run_ctx *c)
{
	size_t i;

	if (!c->raw[O_RW])
		return 0;
	for (i = 0; i < ARRAY_SIZE(rw_names); i++)
		if (!strcmp(c->raw[O_RW], rw_names[i]))
			break;
	if (!strcmp(c->raw[O_RW], "readwrite"))
		i = 4;
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
static int mix_opt(struct run_ctx *c)
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

/* ---- steps: --step, --steps, --loops ------------------------------------ */

#define STEP_IDLE	(-1)	/* the idle key: no option of the job */

/* the keys of a step: the options of the same name ('-' = '_') */
static const struct {
	const char *key;
	int id;
} step_keys[] = {
	{ "rw", O_RW }, { "readwrite", O_RW }, { "rwmixread", O_RWMIXREAD },
	{ "rwmixwrite", O_RWMIXWRITE }, { "bs", O_BS }, { "blocksize", O_BS },
	{ "bssplit", O_BSSPLIT }, { "iodepth", O_IODEPTH }, { "rate_iops", O_RATE_IOPS },
	{ "rate", O_RATE }, { "runtime", O_RUNTIME }, { "ramp_time", O_RAMP_TIME },
	{ "number_ios", O_NUMBER_IOS }, { "numjobs", O_NUMJOBS }, { "idle", STEP_IDLE },
};

static int step_key_id(const char *key, const char **name)
{
	char k[64];
	size_t i;

	if (strlen(key) >= sizeof(k))
		return -2;
	for (i = 0; key[i]; i++)
		k[i] = key[i] == '-' ? '_' : key[i];
	k[i] = '\0';
	for (i = 0; i < ARRAY_SIZE(step_keys); i++)
		if (!strcmp(k, step_keys[i].key)) {
			*name = step_keys[i].key;
			return step_keys[i].id;
		}
	return -2;
}

/*
 * Split @buf (modified) into key=value pairs.  Whitespace separates
 * pairs; so does a comma followed by another key=, a space or the end:
 * the other commas belong to the value (fio's lists: rate_iops=100,200,
 * and rate_iops=100,, for reads only).
 * Returns the number of pairs, or -1 with @bad pointing at what is not
 * a key=value.
 */
static int step_split(char *buf, char **keys, char **vals, int max, char **bad)
{
	char *p = buf, *q, *r;
	int n = 0;

	for (;;) {
		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return n;
		for (q = p; *q && *q != '=' && *q != ',' && *q != ' ' && *q != '\t'; q++)
			;
		if (*q != '=' || q == p || n == max) {
			*q = '\0';
			*bad = p;
			return -1;
		}
		*q++ = '\0';
		keys[n] = p;
		vals[n++] = q;
		for (;;) {
			while (*q && *q != ',' && *q != ' ' && *q != '\t')
				q++;
			if (*q != ',' || !q[1] || q[1] == ' ' || q[1] == '\t')
				break;		/* a comma before a space or the end separates */
			for (r = q + 1; *r && *r != ',' && *r != ' ' && *r != '\t' &&
			     *r != '='; r++)
				;
			if (*r == '=')
				break;		/* the comma starts the next pair */
			q++;
		}
		p = q;
		if (*p)
			*p++ = '\0';
	}
}

static int step_add(struct step_def *st, const char *attr, const char *val)
{
	if (st->na == STEP_ATTRS_MAX)
		return -1;
	st->a[st->na].attr = attr;
	st->a[st->na].val = strdup(val);
	if (!st->a[st->na].val)
		return -1;
	st->na++;
	return 0;
}

/*
 * A step's numjobs: the first K of the job's workers issue in it (the
 * job's --numjobs must be at least K; checked once all steps are read).
 */
static int step_numjobs(struct run_ctx *sc, struct step_def *st)
{
	uint64_t n;

	if (!sc->raw[O_NUMJOBS])
		return 0;
	if (numjobs_opt(sc, &n))
		return -1;
	st->numjobs = (unsigned int)n;
	return 0;
}

/*
 * One step from @spec (its origin in @where, for messages), converted
 * with the same converters as the job's options through the scratch
 * context @sc.  0, or -1 with a message.
 */
static int step_parse(struct run_ctx *c, struct run_ctx *sc, const char *spec,
		      const char *where, struct step_def *st)
{
	char *buf, *keys[32], *vals[32], *bad = NULL;
	const char *name = NULL;
	int n, i, id, ret = -1;
	uint64_t v;

	memset(st, 0, sizeof(*st));
	st->where = strdup(where);
	buf = strdup(spec);
	if (!st->where || !buf) {
		ssl_err("out of memory");
		goto out;
	}
	memset(sc->raw, 0, sizeof(sc->raw));
	memset(sc->raw_name, 0, sizeof(sc->raw_name));
	sc->nw = 0;
	sc->writes = sc->trims = 0;
	sc->where = where;
	n = step_split(buf, keys, vals, (int)ARRAY_SIZE(keys), &bad);
	if (n < 0) {
		ssl_err("%s: '%s' is not key=value", where, bad);
		goto out;
	}
	if (!n) {
		ssl_err("%s: an empty step (give key=value pairs, or idle=TIME)", where);
		goto out;
	}
	for (i = 0; i < n; i++) {
		id = step_key_id(keys[i], &name);
		if (id == -2) {
			ssl_err("%s: unknown key '%s' (a step takes rw, rwmixread, bs, bssplit, "
				"iodepth, rate_iops, rate, runtime, ramp_time, number_ios, "
				"numjobs or idle)", where, keys[i]);
			goto out;
		}
		if (!*vals[i]) {
			ssl_err("%s: %s=: empty value", where, keys[i]);
			goto out;
		}
		if (id == STEP_IDLE) {
			if (st->idle) {
				ssl_err("%s: %s given twice", where, keys[i]);
				goto out;
			}
			if (ssl_parse_time_ms(vals[i], 1000, &v) || !v) {
				ssl_err("%s: %s=%s: not a time over 0 (seconds, or with "
					"ms/s/m/h suffix)", where, keys[i], vals[i]);
				goto out;
			}
			st->idle = 1;
			snprintf(sc->w[0].val, sizeof(sc->w[0].val), "%" PRIu64, v);
			if (step_add(st, SSDLOAD_STEP_ATTR_IDLE_MS, sc->w[0].val))
				goto oom;
			continue;
		}
		if (sc->raw[id] && !strcmp(sc->raw_name[id], name)) {
			ssl_err("%s: %s given twice", where, keys[i]);
			goto out;
		}
		if (sc->raw[id] && id != O_RWMIXREAD && id != O_RWMIXWRITE) {
			ssl_err("%s: %s and %s are the same key", where, sc->raw_name[id], keys[i]);
			goto out;
		}
		sc->raw[id] = vals[i];
		sc->raw_name[id] = name;
	}
	if (st->idle) {
		if (n > 1) {
			ssl_err("%s: idle takes no other key (an idle step does no I/O)", where);
			goto out;
		}
		ret = 0;
		goto out;
	}
	for (i = 0; i < 2; i++) {	/* "0" uncaps a step of a capped job */
		id = i ? O_RATE : O_RATE_IOPS;
		if (sc->raw[id] && !strcmp(sc->raw[id], "0")) {
			if (step_add(st, i ? SSDLOAD_ATTR_RATE : SSDLOAD_ATTR_RATE_IOPS, "0"))
				goto oom;
			sc->raw[id] = NULL;
		}
	}
	if (sc->raw[O_RW] && strstr(sc->raw[O_RW], "trimwrite")) {
		bad_value(sc, O_RW, "not in a step (a step runs no trimwrite)");
		goto out;
	}
	if (sc->raw[O_BS] && strchr(sc->raw[O_BS], ',')) {
		bad_value(sc, O_BS, "a step takes one block size (per direction: "
			  "bssplit=4k/100,16k/100)");
		goto out;
	}
	if (rw_opt(sc) || mix_opt(sc) || block_size_opts(sc) ||
	    depth_opt(sc, NULL) ||
	    rate_series_opts(sc) ||
	    time_opt(sc, O_RUNTIME, SSDLOAD_ATTR_RUNTIME_MS) ||
	    time_opt(sc, O_RAMP_TIME, SSDLOAD_ATTR_RAMP_MS) ||
	    u64_opt(sc, O_NUMBER_IOS, SSDLOAD_ATTR_NUMBER_IOS, &st->nios) ||
	    step_numjobs(sc, st))
		goto out;
	st->nios_set = sc->raw[O_NUMBER_IOS] != NULL;
	st->runtime_set = sc->raw[O_RUNTIME] != NULL;
	if (st->runtime_set)
		ssl_parse_time_ms(sc->raw[O_RUNTIME], 1000, &st->runtime_ms);
	for (i = 0; i < sc->nw; i++)
		if (step_add(st, sc->w[i].attr, sc->w[i].val))
			goto oom;
	c->writes |= sc->writes;
	c->trims |= sc->trims;
	ret = 0;
	goto out;
oom:
	ssl_err("out of memory");
out:
	free(buf);
	sc->where = NULL;
	return ret;
}

static void free_steps(struct run_ctx *c)
{
	unsigned int i;
	int k;

	for (i = 0; i < c->nsteps; i++) {
		for (k = 0; k < c->steps[i].na; k++)
			free(c->steps[i].a[k].val);
		free(c->steps[i].where);
	}
	free(c->steps);
	c->steps = NULL;
	c->nsteps = 0;
	free(c->src);
	c->src = NULL;
	c->nsrc = 0;
}

/* room for one more step; NULL (message printed) past SSDLOAD_MAX_STEPS */
static struct step_def *step_next(struct run_ctx *c, unsigned int *cap)
{
	struct step_def *n;

	if (c->nsteps == SSDLOAD_MAX_STEPS) {
		ssl_err("too many steps (at most %u)", SSDLOAD_MAX_STEPS);
		return NULL;
	}
	if (c->nsteps == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		n = realloc(c->steps, *cap * sizeof(*n));
		if (!n) {
			ssl_err("out of memory");
			return NULL;
		}
		c->steps = n;
	}
	return &c->steps[c->nsteps];
}

/* --steps=FILE: one step a line, '#' comments and blank lines ignored */
static int steps_file(struct run_ctx *c, struct run_ctx *sc, const char *path,
		      unsigned int *cap)
{
	char *text, *line, *next, *hash, where[4200];
	unsigned int nr = 0, before = c->nsteps;
	struct step_def *st;
	int err;

	err = ssl_read_regular(path, SSL_INPUT_MAX_BYTES, &text, NULL);
	if (err) {
		ssl_err("--steps=%s: %s", path, ssl_strerror(err));
		return -1;
	}
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		nr++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (line[strspn(line, " \t\r,")] == '\0')
			continue;
		line[strcspn(line, "\r")] = '\0';
		snprintf(where, sizeof(where), "%s:%u", path, nr);
		st = step_next(c, cap);
		if (!st || step_parse(c, sc, line, where, st)) {
			free(text);
			return -1;
		}
		c->nsteps++;
	}
	free(text);
	if (c->nsteps == before) {
		ssl_err("--steps=%s: no steps in the file", path);
		return -1;
	}
	return 0;
}

/*
 * --step, --steps and --loops: the steps in the order given, each
 * converted, and every one bounded by its own or the job's runtime or
 * number_ios (the module refuses an unbounded step at enable).
 */
static int steps_opts(struct run_ctx *c)
{
	uint64_t job_rt = 0, job_nios = 0, job_workers = 1, loops;
	unsigned int cap = 0, i;
	struct run_ctx *sc;
	char where[4200];
	int k, r = 0;

	if (c->raw[O_LOOPS]) {
		if (ssl_parse_u64(c->raw[O_LOOPS], &loops) || !loops || loops > UINT32_MAX)
			return bad_value(c, O_LOOPS, "must be a number of loops, 1 or more");
		add_write_u64(c, SSDLOAD_ATTR_LOOPS, loops);
		c->loops = loops;
	}
	if (!c->nsrc)
		return 0;
	sc = calloc(1, sizeof(*sc));
	if (!sc) {
		ssl_err("out of memory");
		return -1;
	}
	for (k = 0; k < c->nsrc && !r; k++) {
		struct step_def *st;

		if (c->src[k].file) {
			r = steps_file(c, sc, c->src[k].arg, &cap);
			continue;
		}
		st = step_next(c, &cap);
		snprintf(where, sizeof(where), "--step=%s", c->src[k].arg);
		if (!st || step_parse(c, sc, c->src[k].arg, where, st))
			r = -1;
		else
			c->nsteps++;
	}
	free(sc);
	if (r)
		return -1;
	if (c->raw[O_DISABLE_LAT] && (!*c->raw[O_DISABLE_LAT] ||
				      (!ssl_parse_bool(c->raw[O_DISABLE_LAT], &k) && k))) {
		ssl_err("--%s: not with steps (their gaps and times come from the "
			"completion stamps)", c->raw_name[O_DISABLE_LAT]);
		return -1;
	}
	for (i = 0; i < c->nsteps && c->steps[i].idle; i++)
		;
	if (i == c->nsteps) {
		ssl_err("only idle steps: give at least one step that does I/O");
		return -1;
	}
	if (c->raw[O_RUNTIME])
		ssl_parse_time_ms(c->raw[O_RUNTIME], 1000, &job_rt);
	if (c->raw[O_NUMBER_IOS])
		ssl_parse_u64(c->raw[O_NUMBER_IOS], &job_nios);
	/* without --numjobs (or --cpus_allowed) the module runs one worker */
	if (c->raw[O_NUMJOBS])
		ssl_parse_u64(c->raw[O_NUMJOBS], &job_workers);
	for (i = 0; i < c->nsteps; i++) {
		const struct step_def *st = &c->steps[i];
		uint64_t rt = st->runtime_set ? st->runtime_ms : job_rt;
		uint64_t nios = st->nios_set ? st->nios : job_nios;

		if (st->numjobs > job_workers && (c->raw[O_NUMJOBS] || !c->raw[O_CPUS_ALLOWED])) {
			ssl_err("%s: numjobs=%u, but the job has %" PRIu64 " worker%s: give "
				"--numjobs=%u or more (the most a step uses)", st->where,
				st->numjobs, job_workers, job_workers == 1 ? "" : "s",
				st->numjobs);
			return -1;
		}
		if (st->idle || rt || nios)
			continue;
		ssl_err("%s: step %u never ends: give it runtime= or number_ios=, or the "
			"job --runtime or --number_ios", st->where, i + 1);
		return -1;
	}
	return 0;
}

/* options of the command line alone: not in a job file, not job options */
static int cmdline_only(int id)
{
	switch (id) {
	case O_OUTPUT_FORMAT: case O_PARSE_ONLY: case O_ETA: case O_STATUS_INTERVAL:
	case O_KEEP_JOB: case O_LATENCY_TABLE: case O_LATENCY_BELOW:
	case O_LATENCY_CHECK: case O_PROFILE: case O_SECTION: case O_STEP: case O_STEPS:
	case O_OUTPUT:
		return 1;
	}
	return 0;
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
			run_note("%s%s%s%s%s ignored: %s",
				 c->from[noop[i].id] ? c->from[noop[i].id] : "--",
				 c->from[noop[i].id] ? ": " : "", c->raw_name[noop[i].id],
				 *c->raw[noop[i].id] ? "=" : "", c->raw[noop[i].id],
				 noop[i].why);
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
	c->raw[opt->id] = o->val;
	c->raw_name[opt->id] = opt->name;
	c->from[opt->id] = o->where;
	c->global[opt->id] = o->global;
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
				"the file's sections", opt->name);
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
		c->raw[opt->id] = val ? val : "";
		c->raw_name[opt->id] = opt->name;
	}
	return 0;
}

static int check_args(struct run_ctx *c)
{
	uint64_t v, kb, nios = 0;
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
	noop_notes(c);

	/* before any size is read */
	if (c->raw[O_KB_BASE] && (ssl_parse_u64(c->raw[O_KB_BASE], &kb) || kb > 1024 ||
				  ssl_set_kb_base((unsigned int)kb)))
		return bad_value(c, O_KB_BASE, "1024 (k = 1024, kib = 1000: fio's default) "
				 "or 1000 (k = 1000, kib = 1024)");
	if (filename_opt(c))
		return -1;

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

	if (conv_opt(c, O_OFFSET, SSDLOAD_ATTR_OFFSET, ssl_conv_span) ||
	    conv_opt(c, O_SIZE, SSDLOAD_ATTR_SIZE, ssl_conv_span) ||
	    time_opt(c, O_RUNTIME, SSDLOAD_ATTR_RUNTIME_MS) ||
	    time_opt(c, O_RAMP_TIME, SSDLOAD_ATTR_RAMP_MS) ||
	    u64_opt(c, O_NUMBER_IOS, SSDLOAD_ATTR_NUMBER_IOS, &nios) || io_size_opt(c))
		return -1;
	time_based_opt(c, nios);
	if (c->raw[O_RANDSEED]) {
		if (ssl_parse_seed(c->raw[O_RANDSEED], &v))
			return bad_value(c, O_RANDSEED, "not an integer");
		add_write_u64(c, SSDLOAD_ATTR_RANDSEED, v);
	}
	/* newer attributes are written only when given: older modules lack them */
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
	    fio_log_opts(c) || rate_series_opts(c) ||
	    flag_opt(c, O_SHARED, SSDLOAD_ATTR_SHARED, NULL))
		return -1;
	if (c->raw[O_GROUP]) {
		if (ssl_check_group(c->raw[O_GROUP]))
			return bad_value(c, O_GROUP, "not a group name (1 to 63 of "
					 "A-Z a-z 0-9 _ . -)");
		add_write(c, SSDLOAD_ATTR_GROUP, c->raw[O_GROUP]);
	}
	if (steps_opts(c))
		return -1;

	/*
	 * fio's "job options": what was given, as given.  fio lists name for
	 * a job of the command line; a job file's job is named by its section.
	 */
	if (!c->jobfile || c->raw[O_NAME]) {
		c->opts[c->nopts].key = "name";
		c->opts[c->nopts].global = c->raw[O_NAME] && c->global[O_NAME];
		c->opts[c->nopts++].val = c->name;
	}
	for (i = 0; i < (size_t)c->nr_order; i++) {
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
	return 0;
}

/* The progress line (--eta): rewritten in place on a tty, else one a second. */
struct eta_view {
	int on;				/* --eta says to show it */
	int inplace;			/* stderr is a tty: \r and erase */
	int shown;			/* an in-place line is on the screen */
	int have_prev;
	uint64_t last_ms;		/* when prev was read */
	struct ssl_progress prev;
};

static void progress_line(const struct run_ctx *c, const struct ssl_progress *p,
			  const struct ssl_progress *prev, int inplace)
{
	double dt = (double)(p->elapsed_ns - prev->elapsed_ns) / 1e9;
	double riops = 0, wiops = 0, tiops = 0;
	char total[64] = "", eta[64] = "", ios[64] = "", late[64] = "", left[32];
	char trim[48] = "", step[48] = "";

	if (p->step)
		snprintf(step, sizeof(step), " step %" PRIu64 "%s", p->step,
			 c->loops > 1 ? "" : ",");
	if (p->step && c->loops > 1)
		snprintf(step + strlen(step), sizeof(step) - strlen(step),
			 " loop %" PRIu64 "/%" PRIu64 ",", p->loop + 1, c->loops);
	if (dt > 0 && p->elapsed_ns >= prev->elapsed_ns) {
		riops = (double)(p->ios[0] - prev->ios[0]) / dt;
		wiops = (double)(p->ios[1] - prev->ios[1]) / dt;
		tiops = (double)(p->ios[2] - prev->ios[2]) / dt;
	}
	if (p->ios[2])
		snprintf(trim, sizeof(trim), ", trim %.0f IOPS", tiops);
	if (p->runtime_ns) {
		uint64_t end = p->ramp_ns + p->runtime_ns;
		uint64_t rest = end > p->elapsed_ns ? end - p->elapsed_ns : 0;

		snprintf(total, sizeof(total), "/%.1fs", (double)end / 1e9);
		ssl_eta_str(left, sizeof(left), (rest + 999999999) / 1000000000);
		snprintf(eta, sizeof(eta), "[eta %s]", left);
	}
	if (p->number_ios)
		snprintf(ios, sizeof(ios), ", %" PRIu64 "/%" PRIu64 " I/Os",
			 p->ios[0] + p->ios[1] + p->ios[2], p->number_ios);
	if (p->timed_out_ios.v)
		snprintf(late, sizeof(late), ", %" PRIu64 " I/Os over io_timeout_ms",
			 p->timed_out_ios.v);
	fprintf(stderr, "%s%s: [%.1fs%s]%s%s%s read %.0f IOPS, write %.0f IOPS%s%s%s%s",
		inplace ? "\r" : "", c->name, (double)p->elapsed_ns / 1e9, total, eta,
		step, p->elapsed_ns < p->ramp_ns ? " ramp," : "", riops, wiops, trim, ios, late,
		inplace ? "\033[K" : "\n");
	fflush(stderr);
}

static void show_progress(const struct run_ctx *c, struct eta_view *e, uint64_t now)
{
	struct ssl_progress p;

	if (e->have_prev && !e->inplace && now - e->last_ms < ETA_LINE_MS)
		return;
	if (results_read_progress(c->name, &p))
		return;
	if (e->have_prev) {
		progress_line(c, &p, &e->prev, e->inplace);
		e->shown = e->inplace;
	}
	e->prev = p;
	e->have_prev = 1;
	e->last_ms = now;
}

static void clear_progress(struct eta_view *e)
{
	if (e->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		e->shown = 0;
	}
}

/*
 * Read the job's results and print the report; 0, or -1 (message printed).
 * A failed write to stdout is left in c->out_errno.  The @final report
 * ends with the --latency-check verdict (on stderr under JSON).
 */
static int print_results(struct run_ctx *c, int final)
{
	struct ssl_results res;
	int r;

	if (results_read(c->name, &res))
		return -1;
	errno = 0;		/* a write error below sets it */
	{
		struct ssl_report rep = {
			.name = c->name,
			.pid = (long)getpid(),
			.when = time(NULL),
			.sum = &res.sum,
			.hist = res.hist,
			.ihist = res.ihist,
			.series = &res.series,
			.steps = &res.steps,
			.plist = c->plist,
			.np = c->np,
			.opts = c->opts,
			.nopts = c->nopts,
			.iodepth = c->iodepth,
			.group_reporting = c->group_reporting,
			.lat = ssl_latstudy_wanted(&c->lat) ? &c->lat : NULL,
			.disks = final ? c->disks : NULL,
			.ndisks = final ? c->ndisks : 0,
		};

		r = report_print(stdout, &rep, c->fmt);
	}
	if (r)
		ssl_err("out of memory while printing the report");
	else if (final && !ssl_latstudy_verdict(c->fmt & SSL_OUTPUT_ANY_JSON ? stderr : stdout,
						&c->lat, &res.sum, res.hist))
		c->lat_failed = 1;
	if (!r && final && c->want_logs && ssl_fio_logs_write(&c->logs, &res))
		c->logs_failed = 1;
	results_free(&res);
	if ((fflush(stdout) || ferror(stdout)) && !c->out_errno)
		c->out_errno = errno ? errno : EIO;
	return r;
}

/*
 * The second signal: say what the stop waits for, with the job's own count
 * of I/Os in flight, or else the device's (every user's), if known.
 */
static void tell_draining(const struct run_ctx *c)
{
	struct ssl_progress p;
	char what[32] = "the";
	uint64_t n, all = 0;
	int i, known = c->ndevs > 0;

	for (i = 0; i < c->ndevs; i++) {
		if (ssl_dev_inflight(c->devs[i], &n))
			known = 0;
		else
			all += n;
	}
	if (!results_read_progress(c->name, &p) && p.inflight.have)
		snprintf(what, sizeof(what), "%" PRIu64, p.inflight.v);
	else if (known)
		snprintf(what, sizeof(what), "%" PRIu64, all);
	ssl_err("stop requested; waiting for %s in-flight I/O to complete (%s again to "
		"leave it to the kernel)", what, sig_last == SIGINT ? "Ctrl-C" : "signal");
}

/*
 * Wait until the job's run is over (state neither armed, running nor
 * stopping), stopping it on the first signal.  Shows the progress line
 * and the periodic reports while it runs.  An armed job (--group) waits
 * for ssdload start GROUP: said once on stderr.
 */
static int wait_job(struct run_ctx *c, char *state, size_t len)
{
	uint64_t now, next_status = ssl_now_ms() + c->status_ms;
	int err, stop_sent = 0, told = 0, armed = 0;
	unsigned int waited = 0;
	struct eta_view e;

	memset(&e, 0, sizeof(e));
	e.inplace = isatty(STDERR_FILENO);
	e.on = c->eta == SSL_ETA_ALWAYS || (c->eta == SSL_ETA_AUTO && e.inplace);
	for (;;) {
		if (sig_first && !stop_sent) {
			stop_sent = 1;
			clear_progress(&e);
			err = cfs_write(c->name, SSDLOAD_ATTR_ENABLE, "0");
			if (err)
				ssl_err("%s: stopping the job: %s", c->name, strerror(-err));
		}
		if (sig_count >= 2 && !told) {
			told = 1;
			tell_draining(c);
		}
		err = cfs_read(c->name, SSDLOAD_ATTR_STATE, state, len);
		if (err) {
			clear_progress(&e);
			ssl_err("job '%s' disappeared while running: %s", c->name,
				strerror(-err));
			return -1;
		}
		/* tolerate a module that reports running a moment after enable */
		if (!strcmp(state, "idle") && !stop_sent && waited < IDLE_GRACE_MS) {
			ssl_msleep(20);
			waited += 20;
			continue;
		}
		if (!cfs_state_busy(state))
			break;
		if (!strcmp(state, "armed")) {
			/* a set of a job file's jobs: ssdload run starts it */
			if (!armed++ && !getenv(SSL_RUN_SET_ENV))
				ssl_err("job '%s' is armed: it starts with ssdload start %s",
					c->name, c->raw[O_GROUP] ? c->raw[O_GROUP] : "GROUP");
			next_status = ssl_now_ms() + c->status_ms;
			ssl_msleep(stop_sent ? STOP_POLL_MS : POLL_MS);
			continue;
		}
		if (!stop_sent) {
			now = ssl_now_ms();
			if (c->status_ms && now >= next_status) {
				clear_progress(&e);
				print_results(c, 0);
				while (next_status <= now)
					next_status += c->status_ms;
			}
			if (e.on)
				show_progress(c, &e, now);
		}
		ssl_msleep(stop_sent ? STOP_POLL_MS : POLL_MS);
	}
	clear_progress(&e);
	return 0;
}

static void attr_error(const char *attr, const char *val, int err)
{
	if (err == -ENOENT)
		ssl_err("%s=%s: %s (the loaded ssdload.ko has no '%s' attribute: "
			"is it older than this CLI?)", attr, val, strerror(-err), attr);
	else
		ssl_err("%s=%s: %s", attr, val, strerror(-err));
}

/* Does the loaded module run steps?  0, or -1 with a message. */
static int check_steps_feature(void)
{
	int r = cfs_has_feature(SSDLOAD_ATTR_LOOPS);

	if (r > 0)
		return 0;
	if (r < 0)
		ssl_err("%s/%s: %s: cannot tell whether the loaded ssdload.ko runs steps",
			ssl_configfs_root(), SSDLOAD_FEATURES, strerror(-r));
	else
		ssl_err("the loaded ssdload.ko has no steps (no '%s' in %s/%s): --step, "
			"--steps and --loops need a newer module", SSDLOAD_ATTR_LOOPS,
			ssl_configfs_root(), SSDLOAD_FEATURES);
	return -1;
}

/* steps/1..N of the job, each with its attributes: 0, or -1 with a message */
static int create_steps(struct run_ctx *c)
{
	char attr[128];
	unsigned int i;
	int k, err;

	for (i = 0; i < c->nsteps; i++) {
		const struct step_def *st = &c->steps[i];

		err = cfs_step_create(c->name, i + 1);
		if (err) {
			ssl_err("mkdir %s/jobs/%s/%s/%u: %s (%s)", ssl_configfs_root(), c->name,
				SSDLOAD_CONFIGFS_STEPS, i + 1, strerror(-err), st->where);
			return -1;
		}
		for (k = 0; k < st->na; k++) {
			snprintf(attr, sizeof(attr), "%s/%u/%s", SSDLOAD_CONFIGFS_STEPS, i + 1,
				 st->a[k].attr);
			err = cfs_write(c->name, attr, st->a[k].val);
			if (err) {
				attr_error(attr, st->a[k].val, err);
				return -1;
			}
		}
		if (sig_first)
			return 0;
	}
	return 0;
}

/*
 * Hold the job's lease from before enable until the results are read: if
 * ssdload dies, the kernel closes it and the module stops the job.
 */
static void take_lease(struct run_ctx *c)
{
	c->lease = results_open_lease(c->name);
	if (c->lease >= 0 || c->lease == -ENOENT)	/* ENOENT: no leases */
		return;
	ssl_err("%s/%s/%s: %s: if ssdload dies, the job keeps running (ssdload stop %s)",
		ssl_debugfs_root(), c->name, SSDLOAD_DBG_LEASE, strerror(-c->lease),
		c->name);
}

static void drop_lease(struct run_ctx *c)
{
	if (c->lease >= 0)
		close(c->lease);
	c->lease = -1;
}

/*
 * fio's disk_util: /sys/block/<dev>/stat of each device when the job is
 * enabled (@end 0) and when it has ended (@end 1), as deltas.  A device
 * whose stat cannot be read (not a block device: the unit tests' fakes)
 * is left out, not reported as idle.
 */
static void disk_stats(struct run_ctx *c, int end)
{
	uint64_t st[SSL_DEV_STAT_NR], ms;
	char name[64];
	int i, n = 0;

	if (!end) {
		c->dstat_ms = ssl_now_ms();
		for (i = 0; i < c->ndevs; i++)
			if (ssl_dev_stat(c->devs[i], c->disks[i].name, sizeof(c->disks[i].name),
					 c->dstat[i]))
				c->disks[i].name[0] = '\0';
		return;
	}
	ms = ssl_now_ms() - c->dstat_ms;
	for (i = 0; i < c->ndevs; i++) {
		struct ssl_disk_util *u = &c->disks[n];
		const uint64_t *b = c->dstat[i];

		if (!c->disks[i].name[0] || ssl_dev_stat(c->devs[i], name, sizeof(name), st))
			continue;
		snprintf(u->name, sizeof(u->name), "%s", name);
		u->ios[0] = st[0] - b[0];
		u->merges[0] = st[1] - b[1];
		u->ticks[0] = st[3] - b[3];
		u->ios[1] = st[4] - b[4];
		u->merges[1] = st[5] - b[5];
		u->ticks[1] = st[7] - b[7];
		u->in_queue = st[10] - b[10];
		u->util = ms ? 100.0 * (double)(st[9] - b[9]) / (double)ms : 0;
		if (u->util > 100.0)
			u->util = 100.0;
		n++;
	}
	c->ndisks = n;
}

static int run_job(struct run_ctx *c)
{
	char state[32];
	int i, err, status = 1;

	c->lease = -1;
	if (cfs_check_module() || ssl_check_debugfs())
		return 1;
	if (c->nsteps && check_steps_feature())
		return 1;
	catch_signals(c);

	err = cfs_job_create(c->name);
	if (err) {
		if (err == -EEXIST)
			ssl_err("job '%s' already exists: choose another --name, or "
				"rmdir %s/jobs/%s", c->name, ssl_configfs_root(), c->name);
		else
			ssl_err("mkdir %s/jobs/%s: %s", ssl_configfs_root(), c->name,
				strerror(-err));
		goto out;
	}
	for (i = 0; i < c->nw; i++) {
		err = cfs_write(c->name, c->w[i].attr, c->w[i].val);
		if (err == -ENOENT && !strcmp(c->w[i].attr, SSDLOAD_ATTR_TIME_BASED)) {
			/* an older module: its timed runs are all time based */
			run_note("the loaded ssdload.ko has no '%s': the run lasts its whole "
				 "runtime, as with --time_based", SSDLOAD_ATTR_TIME_BASED);
			continue;
		}
		if (err) {
			attr_error(c->w[i].attr, c->w[i].val, err);
			goto out_remove;
		}
	}
	if (create_steps(c))
		goto out_remove;
	if (!c->iodepth) {
		char buf[32];

		if (!cfs_read(c->name, SSDLOAD_ATTR_IODEPTH, buf, sizeof(buf)))
			ssl_parse_u64(buf, &c->iodepth);
	}
	if (sig_first)
		goto out_remove;
	take_lease(c);
	disk_stats(c, 0);
	err = cfs_write(c->name, SSDLOAD_ATTR_ENABLE, "1");
	if (err) {
		cfs_report_enable_error(c->name, c->filename, err,
					err == -EPERM && (c->writes || c->trims) &&
					!c->allow_write ? (c->trims ?
					"pass --allow_write=1 to let the job trim (discard)" :
					"pass --allow_write=1 to let the job write") : NULL);
		goto out_remove;
	}
	job_busy = 1;
	err = wait_job(c, state, sizeof(state));
	job_busy = 0;
	if (err)
		goto out_remove;
	if (!strcmp(state, "error"))
		cfs_report_enable_error(c->name, c->filename, -EIO, NULL);
	disk_stats(c, 1);
	if (print_results(c, 1) || (c->out_errno && c->out_errno != EPIPE && !sig_pipe)) {
		/*
		 * Results that did not reach the user stay with the job; but
		 * a reader that closed its pipe (head, grep -m) had enough.
		 */
		char rm[600];

		rmdir_cmd(c, rm, sizeof(rm));
		ssl_err("job '%s' is kept with its results: read them with ssdload show %s, "
			"then %s", c->name, c->name, rm);
		goto out;
	}
	status = strcmp(state, "error") && !c->lat_failed && !c->logs_failed ? 0 : 1;
	if (c->keep_job && !sig_first)
		goto out;

out_remove:
	drop_lease(c);
	err = cfs_job_remove(c->name);
	if (err && err != -ENOENT) {
		ssl_err("rmdir %s/jobs/%s: %s", ssl_configfs_root(), c->name,
			strerror(-err));
		status = 1;
	}
out:
	drop_lease(c);
	/* a signal decides the exit status, as if it had ended the process */
	return sig_first ? SSL_EXIT_SIGNAL(sig_first) : status;
}

static void free_ctx(struct run_ctx *c)
{
	int i;

	for (i = 0; i < c->ndevs; i++)
		free(c->devs[i]);
	free_steps(c);
	ssl_jobfile_free(&c->jf);
	free(c);
}

/* fio's --output=FILE: stdout becomes FILE (created, or truncated) */
static int output_file(const char *path)
{
	char what[PATH_MAX + 16];
	int fd;

	snprintf(what, sizeof(what), "--output=%s", path);
	if (ssl_dir_check_file(what, path))
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || fflush(stdout) || dup2(fd, STDOUT_FILENO) < 0) {
		ssl_err("--output=%s: %s; nothing ran", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* ------------------------------------------------------------------ */
/*
 * A job file of several job sections, in fio's order.  Each job is a run
 * of this binary, `ssdload run FILE --section=S` with the command line's
 * options; the jobs of a set (between two stonewalls) are armed in one
 * group and started at one instant (ssl_run_group), the next set once
 * they have all ended.  Their --parse-only runs come first: nothing runs
 * unless every job would.  Their reports make one: the JSON entries in
 * file order with fio's groupid and job_start, the text blocks and the
 * "Run status group" of each reporting group, the disks over the whole run.
 */

#define SET_ARM_TIMEOUT_MS	120000	/* every job of a set armed within */

struct file_job {
	const struct ssl_jobfile_plan *p;
	char name[256];			/* the job's, from its --parse-only */
	char *parse;			/* its --parse-only output */
	char out[PATH_MAX];		/* its run's stdout */
	int ran;			/* its run was started */
	int status;			/* its exit status, -1: not known */
	uint64_t start_ms;		/* CLOCK_REALTIME of its set's start */
	char *buf;			/* its run's output */
	json_object *doc;		/* its JSON report, or NULL */
	const char *text;		/* its normal report, in @buf */
};

struct file_run {
	struct run_ctx *c;
	struct ssl_jobfile_plan *plan;
	struct file_job *j;
	int n;
	unsigned int nsets, ngroups;
	char dir[PATH_MAX];		/* the runs' outputs, removed at the end */
};

/* The command line's options that mean one job, refused with several. */
static int file_jobs_cmdline(const struct run_ctx *c, int n)
{
	static const struct {
		int id;
		const char *why;
	} no[] = {
		{ O_NAME, "each job is named after its section (or its name=)" },
		{ O_GROUP, "ssdload run starts the jobs of each set together itself" },
		{ O_STATUS_INTERVAL, "periodic reports are for one job" },
		{ O_LATENCY_TABLE, "the latency study is for one job" },
		{ O_LATENCY_BELOW, "the latency study is for one job" },
		{ O_LATENCY_CHECK, "the latency study is for one job" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(no); i++) {
		if (!c->raw[no[i].id])
			continue;
		ssl_err("--%s%s%s: %s has %d job sections: %s (run one with --section=NAME)",
			c->raw_name[no[i].id], *c->raw[no[i].id] ? "=" : "", c->raw[no[i].id],
			c->jobfile, n, no[i].why);
		return -1;
	}
	return 0;
}

/* group= in a job of several: run_file_jobs() gives each set its group */
static int file_job_group(void *ctx, const struct ssl_jobfile_opt *o)
{
	const struct ssl_opt *opt = ssl_find_opt(run_opts, o->key, strlen(o->key));

	(void)ctx;
	if (!opt || opt->id != O_GROUP)
		return 0;
	ssl_err("%s: %s=%s: the jobs of a file of several are started in sets by "
		"ssdload run itself (stonewall, new_group): leave group= out", o->where,
		o->key, o->val);
	return -1;
}

/*
 * The run of job @j: FILE (or --profile) and its section, the command
 * line's options as given, then --parse-only, or the outputs the merge
 * reads (JSON first, then the normal report) and the progress line of
 * the @first job of the set only.
 */
static void file_job_argv(const struct run_ctx *c, struct ssl_argv *a,
			  const struct file_job *j, int parse_only, int first)
{
	const struct ssl_opt *opt;
	int i, id;

	av_add(a, "ssdload");
	av_add(a, "run");
	if (!c->raw[O_PROFILE])
		av_addf(a, "%s%s", c->jobfile[0] == '-' ? "./" : "", c->jobfile);
	av_addf(a, "--section=%s", j->p->s->name);
	for (i = 0; i < c->nr_order; i++) {
		id = c->order[i];
		if (id == O_OUTPUT_FORMAT || id == O_OUTPUT || id == O_PARSE_ONLY ||
		    id == O_ETA || id == O_STEP || id == O_STEPS)
			continue;
		opt = ssl_find_opt(run_opts, c->raw_name[id], strlen(c->raw_name[id]));
		if (opt && opt->arg == SSL_ARG_FLAG && !*c->raw[id])
			av_addf(a, "--%s", c->raw_name[id]);
		else
			av_addf(a, "--%s=%s", c->raw_name[id], c->raw[id]);
	}
	for (i = 0; i < c->nsrc; i++)
		av_addf(a, "--%s=%s", c->src[i].file ? "steps" : "step", c->src[i].arg);
	if (parse_only) {
		av_add(a, "--parse-only");
		return;
	}
	av_addf(a, "--output-format=%s%s", c->fmt & SSL_OUTPUT_JSON_PLUS ? "json+" : "json",
		c->fmt & SSL_OUTPUT_NORMAL ? ",normal" : "");
	if (!first)
		av_add(a, "--eta=never");
	else if (c->raw[O_ETA])
		av_addf(a, "--eta=%s", c->raw[O_ETA]);
}

static int file_run_path(const struct file_run *fr, char *buf, size_t len, int k,
			 const char *ext)
{
	if (snprintf(buf, len, "%s/%d.%s", fr->dir, k, ext) >= (int)len) {
		ssl_err("%s: path too long", fr->dir);
		return -1;
	}
	return 0;
}

/* Run @a with its stdout into @out and its stderr into @err: its exit status. */
static int spawn_captured(struct ssl_argv *a, const char *out, const char *err)
{
	int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), saved, st;

	if (fd < 0) {
		ssl_err("%s: %s", err, strerror(errno));
		return -1;
	}
	fflush(stderr);
	saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved < 0 || dup2(fd, STDERR_FILENO) < 0) {
		ssl_err("%s: %s", err, strerror(errno));
		close(fd);
		if (saved >= 0)
			close(saved);
		return -1;
	}
	close(fd);
	st = ssl_run_spawn(a, out);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	return st;
}

/* "KEY=value" of a --parse-only output: the value up to the line's end, or NULL */
static const char *parse_value(const char *text, const char *key, size_t *len)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, key, kl) || p[kl] != '=')
			continue;
		p += kl + 1;
		*len = strcspn(p, "\n");
		return p;
	}
	return NULL;
}

/* The devices of a job, to fio's disk_util over the whole run (no more than 16). */
static void file_job_devs(struct run_ctx *c, const char *parse)
{
	char *devs[SSL_MAX_DEVS], list[4096], why[256];
	const char *v;
	size_t len;
	int i, k, n;

	v = parse_value(parse, SSDLOAD_ATTR_FILENAME, &len);
	if (!v || len >= sizeof(list))
		return;
	snprintf(list, sizeof(list), "%.*s", (int)len, v);
	n = ssl_split_filenames(list, devs, SSL_MAX_DEVS, why, sizeof(why));
	for (i = 0; i < n; i++) {
		for (k = 0; k < c->ndevs && strcmp(c->devs[k], devs[i]); k++)
			;
		if (k == c->ndevs && c->ndevs < SSL_MAX_DEVS)
			c->devs[c->ndevs++] = devs[i];
		else
			free(devs[i]);
	}
}

/* Print the lines of @msg not printed by an earlier call. */
static void print_new_lines(char *msg)
{
	static struct ssl_argv seen;	/* the lines printed (copies) */
	char *line, *save = NULL;
	int i;

	for (line = strtok_r(msg, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < seen.n && strcmp(seen.v[i], line); i++)
			;
		if (i < seen.n)
			continue;
		av_addf(&seen, "%s", line);
		fprintf(stderr, "%s\n", line);
	}
}

/*
 * Every job's --parse-only, in file order: the first refusal is printed
 * (the job's own message, FILE:LINE) and nothing runs.  The jobs' notes
 * are printed here, each line once (a [global]'s note is every job's),
 * and the runs leave them out (SSL_NOTED_ENV).
 */
static int file_jobs_check(struct file_run *fr)
{
	struct run_ctx *c = fr->c;
	char out[PATH_MAX], err[PATH_MAX], *msg;
	struct ssl_argv a;
	const char *v;
	size_t len;
	int k, i, st;

	for (k = 0; k < fr->n; k++) {
		struct file_job *j = &fr->j[k];

		if (file_run_path(fr, out, sizeof(out), k, "parse") ||
		    file_run_path(fr, err, sizeof(err), k, "err"))
			return -1;
		memset(&a, 0, sizeof(a));
		file_job_argv(c, &a, j, 1, 0);
		st = spawn_captured(&a, out, err);
		av_free(&a);
		msg = NULL;
		if (ssl_read_file(err, &msg, &len))
			msg = NULL;
		if (msg && st)
			fputs(msg, stderr);
		else if (msg)
			print_new_lines(msg);
		free(msg);
		if (st) {
			if (st > 0 && !msg)
				ssl_err("%s: [%s]: ssdload run --parse-only failed (exit status "
					"%d)", c->jobfile, j->p->s->name, st);
			return -1;
		}
		if (ssl_read_file(out, &j->parse, &len)) {
			ssl_err("%s: cannot be read back", out);
			return -1;
		}
		v = parse_value(j->parse, "name", &len);
		snprintf(j->name, sizeof(j->name), "%.*s", v ? (int)len : 0, v ? v : "");
		for (i = 0; i < k; i++)
			if (!strcmp(fr->j[i].name, j->name)) {
				ssl_err("%s: [%s] is named '%s', as [%s] is: each job needs a "
					"name of its own (name=)", j->p->s->where, j->p->s->name,
					j->name, fr->j[i].p->s->name);
				return -1;
			}
		file_job_devs(c, j->parse);
	}
	return 0;
}

/* Run the sets one after another; 0, or -1 when one could not start. */
static int file_jobs_run(struct file_run *fr)
{
	const char *outs[SSL_GROUP_MAX_RUNS], *names[SSL_GROUP_MAX_RUNS];
	struct file_job *in[SSL_GROUP_MAX_RUNS];
	int st[SSL_GROUP_MAX_RUNS], k, r = 0;
	struct ssl_argv *a;
	unsigned int set, m, i;
	char group[64];

	a = calloc(SSL_GROUP_MAX_RUNS, sizeof(*a));
	if (!a) {
		ssl_err("out of memory");
		return -1;
	}
	for (set = 0; set < fr->nsets && !ssl_run_sig && !r; set++) {
		memset(a, 0, SSL_GROUP_MAX_RUNS * sizeof(*a));
		for (k = 0, m = 0; k < fr->n; k++) {
			struct file_job *j = &fr->j[k];

			if (j->p->set != set)
				continue;
			file_job_argv(fr->c, &a[m], j, 0, m == 0);
			outs[m] = j->out;
			names[m] = j->name;
			in[m++] = j;
		}
		snprintf(group, sizeof(group), "run-%ld-%u", (long)getpid(), set + 1);
		r = ssl_run_group(a, outs, names, m, group, SET_ARM_TIMEOUT_MS, st);
		if (r && !ssl_run_sig)
			ssl_err("%s: the jobs from [%s] on did not run", fr->c->jobfile,
				in[0]->p->s->name);
		/* a set that did not start (r < 0) has nothing to report */
		for (i = 0; i < m; i++) {
			av_free(&a[i]);
			in[i]->ran = !r;
			in[i]->status = st[i];
			in[i]->start_ms = ssl_run_group_start_ms;
		}
	}
	free(a);
	return r;
}

/* Job @j's output: its JSON document, then its normal report (if asked for). */
static void file_job_read(struct file_job *j)
{
	struct json_tokener *tok;
	size_t len;

	if (!j->ran || ssl_read_file(j->out, &j->buf, &len) || !len)
		return;
	tok = json_tokener_new();
	if (!tok)
		return;
	j->doc = json_tokener_parse_ex(tok, j->buf, (int)len);
	if (j->doc && json_object_is_type(j->doc, json_type_object) &&
	    json_object_is_type(jget(j->doc, "jobs"), json_type_array)) {
		j->text = j->buf + json_tokener_get_parse_end(tok);
		while (*j->text == '\n')
			j->text++;
	} else if (j->doc) {
		json_object_put(j->doc);
		j->doc = NULL;
	}
	json_tokener_free(tok);
}

/* An entry of a job's "jobs" with fio's groupid and job_start. */
static json_object *file_entry(json_object *e, unsigned int groupid, uint64_t start_ms)
{
	json_object *o = json_object_new_object();

	json_object_object_foreach(e, k, v) {
		if (!strcmp(k, "job_start"))
			continue;
		if (!strcmp(k, "groupid")) {
			jset(o, k, json_object_new_int64(groupid));
			jset(o, "job_start", json_object_new_int64((int64_t)start_ms));
			continue;
		}
		jset(o, k, json_object_get(v));
	}
	return o;
}

/* fio's disk_util, from run_ctx's disks (report.c's json_disks()) */
static json_object *file_disks(const struct run_ctx *c)
{
	json_object *arr = json_object_new_array();
	int i;

	for (i = 0; i < c->ndisks; i++) {
		const struct ssl_disk_util *u = &c->disks[i];
		json_object *o = json_object_new_object();

		jset(o, "name", json_object_new_string(u->name));
		jset(o, "read_ios", json_object_new_int64((int64_t)u->ios[0]));
		jset(o, "write_ios", json_object_new_int64((int64_t)u->ios[1]));
		jset(o, "read_merges", json_object_new_int64((int64_t)u->merges[0]));
		jset(o, "write_merges", json_object_new_int64((int64_t)u->merges[1]));
		jset(o, "read_ticks", json_object_new_int64((int64_t)u->ticks[0]));
		jset(o, "write_ticks", json_object_new_int64((int64_t)u->ticks[1]));
		jset(o, "in_queue", json_object_new_int64((int64_t)u->in_queue));
		jset(o, "util", json_object_new_double(u->util));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* One JSON document: every job's entries in file order. */
static int file_print_json(const struct file_run *fr)
{
	json_object *top = json_object_new_object(), *jobs = json_object_new_array();
	json_object *glob = json_object_new_object();
	const struct ssl_jobfile *jf = &fr->c->jf;
	const char *fio = NULL, *s;
	time_t now = time(NULL);
	struct timespec ts;
	char when[64];
	int i, k;
	size_t e;

	for (i = 0; i < jf->n; i++)	/* fio leaves out the flags given bare */
		for (k = 0; jf->s[i].global && k < jf->s[i].n; k++)
			if (*jf->s[i].o[k].val)
				jset(glob, jf->s[i].o[k].key,
				     json_object_new_string(jf->s[i].o[k].val));
	for (k = 0; k < fr->n; k++) {
		const struct file_job *j = &fr->j[k];
		json_object *arr = jget(j->doc, "jobs");

		if (!j->doc)
			continue;
		if (!fio)
			fio = jstring(j->doc, "fio version");
		for (e = 0; e < json_object_array_length(arr); e++)
			json_object_array_add(jobs, file_entry(json_object_array_get_idx(arr, e),
							       j->p->groupid, j->start_ms));
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	json_c_set_serialization_double_format("%.6f", JSON_C_OPTION_GLOBAL);
	jset(top, "fio version", json_object_new_string(fio ? fio :
							 "ssdload-" SSDLOAD_CLI_VERSION));
	jset(top, "timestamp", json_object_new_int64((int64_t)now));
	jset(top, "timestamp_ms", json_object_new_int64((int64_t)ts.tv_sec * 1000 +
							ts.tv_nsec / 1000000));
	if (!strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&now)))
		when[0] = '\0';
	jset(top, "time", json_object_new_string(when));
	jset(top, "global options", glob);
	jset(top, "jobs", jobs);
	jset(top, "disk_util", file_disks(fr->c));
	s = json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (s)
		printf("%s\n", s);
	json_object_put(top);
	return s ? 0 : -1;
}

/*
 * fio's "Run status group N" (its show_group_stats()): per direction the
 * group's bytes over its longest runtime, the smallest and largest job
 * bandwidth (bytes over the job's runtime), the bytes, the runtimes.
 */
static void file_group_status(const struct file_run *fr, unsigned int g)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	static const char *const upper[] = { "READ", "WRITE", "TRIM" };
	char agg[32], aggalt[32], mn[32], mnalt[32], mx[32], mxalt[32], io[32], ioalt[32];
	unsigned int d;
	size_t e;
	int k;

	printf("\nRun status group %u (all jobs):\n", g);
	for (d = 0; d < ARRAY_SIZE(dirs); d++) {
		uint64_t min_run = 0, max_run = 0, min_bw = UINT64_MAX, max_bw = 0, bytes = 0;

		for (k = 0; k < fr->n; k++) {
			json_object *arr = jget(fr->j[k].doc, "jobs");

			if (!fr->j[k].doc || fr->j[k].p->groupid != g)
				continue;
			for (e = 0; e < json_object_array_length(arr); e++) {
				json_object *x = jget(json_object_array_get_idx(arr, e), dirs[d]);
				uint64_t rt = (uint64_t)jnum(x, "runtime", 0);
				uint64_t b = (uint64_t)jnum(x, "io_bytes", 0), bw;

				if (!rt)
					continue;
				if (!min_run || rt < min_run)
					min_run = rt;
				if (rt > max_run)
					max_run = rt;
				bw = b * 1000 / rt;
				if (bw < min_bw)
					min_bw = bw;
				if (bw > max_bw)
					max_bw = bw;
				bytes += b;
			}
		}
		if (!max_run)
			continue;
		ssl_num2str(agg, sizeof(agg), bytes * 1000 / max_run, 4, 1, "B/s");
		ssl_num2str(aggalt, sizeof(aggalt), bytes * 1000 / max_run, 4, 0, "B/s");
		ssl_num2str(mn, sizeof(mn), min_bw, 4, 1, "B/s");
		ssl_num2str(mnalt, sizeof(mnalt), min_bw, 4, 0, "B/s");
		ssl_num2str(mx, sizeof(mx), max_bw, 4, 1, "B/s");
		ssl_num2str(mxalt, sizeof(mxalt), max_bw, 4, 0, "B/s");
		ssl_num2str(io, sizeof(io), bytes, 4, 1, "B");
		ssl_num2str(ioalt, sizeof(ioalt), bytes, 4, 0, "B");
		printf("%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64
		       "msec\n", upper[d], agg, aggalt, mn, mx, mnalt, mxalt, io, ioalt,
		       min_run, max_run);
	}
}

/*
 * A job's normal report without what is the whole run's: its block, with
 * its groupid, then (after its run status and disk stats) its steps.
 */
static void file_print_block(const struct file_job *j)
{
	static const char status[] = "\nRun status group 0 (all jobs):\n";
	static const char disks[] = "\nDisk stats (read/write):\n";
	static const char gid[] = "(groupid=0, ";
	const char *end = strstr(j->text, status), *eol = strchr(j->text, '\n');
	const char *g = strstr(j->text, gid), *rest;

	if (!end)
		end = j->text + strlen(j->text);
	if (g && eol && g < eol && g < end) {
		printf("%.*s(groupid=%u, ", (int)(g - j->text), j->text, j->p->groupid);
		printf("%.*s", (int)(end - g - strlen(gid)), g + strlen(gid));
	} else {
		printf("%.*s", (int)(end - j->text), j->text);
	}
	if (!*end)
		return;
	/* the status lines and disk lines are indented; what follows is the job's */
	rest = end + strlen(status);
	while (*rest == ' ')
		rest = strchr(rest, '\n') ? strchr(rest, '\n') + 1 : rest + strlen(rest);
	if (!strncmp(rest, disks, strlen(disks))) {
		rest += strlen(disks);
		while (*rest == ' ')
			rest = strchr(rest, '\n') ? strchr(rest, '\n') + 1 :
			       rest + strlen(rest);
	}
	fputs(rest, stdout);
}

/* fio's normal output of several jobs: each job, each group's status, the disks */
static void file_print_normal(const struct file_run *fr)
{
	const struct run_ctx *c = fr->c;
	unsigned int g;
	int k, i;

	for (k = 0; k < fr->n; k++)
		if (fr->j[k].doc && fr->j[k].text)
			file_print_block(&fr->j[k]);
	for (g = 0; g < fr->ngroups; g++)
		for (k = 0; k < fr->n; k++)
			if (fr->j[k].doc && fr->j[k].p->groupid == g) {
				file_group_status(fr, g);
				break;
			}
	if (!c->ndisks)
		return;
	printf("\nDisk stats (read/write):\n");
	for (i = 0; i < c->ndisks; i++) {
		const struct ssl_disk_util *u = &c->disks[i];

		printf("  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
		       ", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%.2f%%\n",
		       u->name, u->ios[0], u->ios[1], u->merges[0], u->merges[1], u->ticks[0],
		       u->ticks[1], u->in_queue, u->util);
	}
}

/* --parse-only of several jobs: each job's, after a line of its place */
static void file_print_parse(const struct file_run *fr)
{
	int k;

	for (k = 0; k < fr->n; k++) {
		const struct file_job *j = &fr->j[k];

		printf("%s# [%s]: set %u of %u, groupid %u\n%s", k ? "\n" : "", j->p->s->name,
		       j->p->set + 1, fr->nsets, j->p->groupid, j->parse);
	}
}

static void file_run_free(struct file_run *fr)
{
	static const char *const ext[] = { "parse", "err", "out" };
	char path[PATH_MAX];
	size_t e;
	int k;

	for (k = 0; k < fr->n && fr->j; k++) {
		free(fr->j[k].parse);
		free(fr->j[k].buf);
		if (fr->j[k].doc)
			json_object_put(fr->j[k].doc);
		for (e = 0; fr->dir[0] && e < ARRAY_SIZE(ext); e++)
			if (!file_run_path(fr, path, sizeof(path), k, ext[e]))
				unlink(path);
	}
	if (fr->dir[0])
		rmdir(fr->dir);
	free(fr->j);
	free(fr->plan);
}

/*
 * The sets' sizes (one group of at most SSL_GROUP_MAX_RUNS runs each) and
 * the sections' names (the runs' --section), then the numbers of sets and
 * groups.
 */
static int file_sets(struct file_run *fr)
{
	unsigned int set;
	int k, first = 0;

	for (k = 0; k < fr->n; k++) {
		if (k && fr->plan[k].set != fr->plan[k - 1].set)
			first = k;
		if (k - first + 1 > SSL_GROUP_MAX_RUNS) {
			ssl_err("%s: more than %d jobs would start together from [%s] on: "
				"give one of them stonewall", fr->c->jobfile, SSL_GROUP_MAX_RUNS,
				fr->plan[first].s->name);
			return -1;
		}
	}
	/* --section=NAME picks the first [NAME]: each job needs its own */
	for (k = 1; k < fr->n; k++)
		for (first = 0; first < k; first++)
			if (!strcmp(fr->plan[k].s->name, fr->plan[first].s->name)) {
				ssl_err("%s: [%s] again (the first is at %s): give each job "
					"section a name of its own", fr->plan[k].s->where,
					fr->plan[k].s->name, fr->plan[first].s->where);
				return -1;
			}
	set = fr->plan[fr->n - 1].set;
	fr->nsets = set + 1;
	for (k = 0; k < fr->n; k++)
		if (fr->plan[k].groupid + 1 > fr->ngroups)
			fr->ngroups = fr->plan[k].groupid + 1;
	return 0;
}

/* ssdload run FILE of several job sections; the exit status. */
static int run_file_jobs(struct run_ctx *c)
{
	const char *tmp = getenv("TMPDIR");
	struct file_run fr;
	int k, r = 1, failed;

	memset(&fr, 0, sizeof(fr));
	fr.c = c;
	if (file_jobs_cmdline(c, ssl_jobfile_jobs(&c->jf)))
		return 1;
	if (c->raw[O_OUTPUT_FORMAT] &&
	    ssl_parse_output_format(c->raw[O_OUTPUT_FORMAT], &c->fmt)) {
		bad_value(c, O_OUTPUT_FORMAT,
			  "must be normal, json or json+, or a comma list of them");
		return 1;
	}
	if (c->raw[O_ETA] && ssl_parse_eta(c->raw[O_ETA], &c->eta)) {
		bad_value(c, O_ETA, "must be always, auto or never");
		return 1;
	}
	if (flag_opt(c, O_PARSE_ONLY, NULL, &c->parse_only))
		return 1;
	if (ssl_jobfile_plan(&c->jf, &fr.plan, &fr.n))
		return 1;
	for (k = 0; k < fr.n; k++)
		if (ssl_jobfile_each(&c->jf, fr.plan[k].s, file_job_group, NULL))
			goto out;
	if (file_sets(&fr))
		goto out;
	fr.j = calloc(fr.n > 0 ? (size_t)fr.n : 1, sizeof(*fr.j));
	if (!fr.j) {
		ssl_err("out of memory");
		goto out;
	}
	if (snprintf(fr.dir, sizeof(fr.dir), "%s/ssdload-run-XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") >= (int)sizeof(fr.dir) || !mkdtemp(fr.dir)) {
		ssl_err("%s: %s", fr.dir, strerror(errno));
		fr.dir[0] = '\0';
		goto out;
	}
	for (k = 0; k < fr.n; k++) {
		fr.j[k].p = &fr.plan[k];
		fr.j[k].status = -1;
		if (file_run_path(&fr, fr.j[k].out, sizeof(fr.j[k].out), k, "out"))
			goto out;
	}
	if (file_jobs_check(&fr))
		goto out;
	if (c->parse_only) {
		file_print_parse(&fr);
		r = 0;
		goto out;
	}
	/* fio's --output: the report goes to FILE (the progress lines stay on stderr) */
	if (c->raw[O_OUTPUT] && output_file(c->raw[O_OUTPUT]))
		goto out;
	setenv(SSL_RUN_SET_ENV, "1", 1);
	setenv(SSL_NOTED_ENV, "1", 1);
	ssl_run_catch_signals();
	disk_stats(c, 0);
	failed = file_jobs_run(&fr) != 0;
	disk_stats(c, 1);
	for (k = 0; k < fr.n; k++) {
		file_job_read(&fr.j[k]);
		if (fr.j[k].ran && fr.j[k].status)
			failed = 1;
	}
	for (k = 0; k < fr.n && !fr.j[k].doc; k++)
		;
	if (k < fr.n) {		/* what ran, even if not everything did */
		if (c->fmt & SSL_OUTPUT_ANY_JSON && file_print_json(&fr)) {
			ssl_err("out of memory while printing the report");
			failed = 1;
		}
		if (c->fmt & SSL_OUTPUT_NORMAL)
			file_print_normal(&fr);
	}
	if (fflush(stdout) || ferror(stdout))
		failed = 1;
	r = ssl_run_sig ? SSL_EXIT_SIGNAL(ssl_run_sig) : failed;
out:
	file_run_free(&fr);
	return r;
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
