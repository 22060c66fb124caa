// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload run of one job: create it in configfs with its attributes and
 * steps, enable it under a lease, follow its progress, print the results
 * and remove the job.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "uapi/ssdload.h"
#include "cmd/builtin.h"
#include "cmd/run.h"
#include "core/configfs.h"
#include "core/latstudy.h"
#include "core/results.h"
#include "core/util.h"
#include "fio/fiolog.h"
#include "fio/report.h"
#include "methods/runner.h"

#define STOP_POLL_MS	50	/* state polling once a stop was requested */
#define ETA_LINE_MS	1000	/* period of the progress line when not a tty */
#define IDLE_GRACE_MS	2000	/* how long "idle" after enable=1 means "starting" */
#define SS_POLL_MS	500	/* steadystate: how often the series is read */

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
			.shist = &res.shist,
			.verify = &res.verify,
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
			.ss = c->ss.dur ? &c->ss : NULL,
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
	/* fio exits 1 on a verify failure: so does a run whose pass found one */
	if (final && results_verify_on(&res.verify) &&
	    results_verify_u64(&res.verify, "verify_failed"))
		c->verify_failed = 1;
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

/* The first signal, or steady state: the job stops, as with enable=0. */
static void stop_job(const struct run_ctx *c, struct eta_view *e)
{
	int err;

	clear_progress(e);
	err = cfs_write(c->name, SSDLOAD_ATTR_ENABLE, "0");
	if (err)
		ssl_err("%s: stopping the job: %s", c->name, strerror(-err));
}

/* fio's steadystate was met: said on stderr, where the progress is */
static void ss_stopped(const struct run_ctx *c)
{
	char spec[64];

	ssl_fio_ss_spec(&c->ss, spec, sizeof(spec));
	fprintf(stderr, "%s: steady state (%s over %us) reached at %" PRIu64 "s: "
		"stopping the job\n", c->name, spec, c->ss.dur, c->ss.attained_s);
	fflush(stderr);
}

/*
 * Wait until the job's run is over (state neither armed, running nor
 * stopping), stopping it on the first signal.  Shows the progress line
 * and the periodic reports while it runs.  An armed job (--group) waits
 * for ssdload start GROUP: said once on stderr.
 */
static int wait_job(struct run_ctx *c, char *state, size_t len)
{
	uint64_t now, next_status = ssl_now_ms() + c->status_ms, next_ss = 0;
	int err, stop_sent = 0, told = 0, armed = 0;
	unsigned int waited = 0;
	struct eta_view e;

	memset(&e, 0, sizeof(e));
	e.inplace = isatty(STDERR_FILENO);
	e.on = c->eta == SSL_ETA_ALWAYS || (c->eta == SSL_ETA_AUTO && e.inplace);
	for (;;) {
		if (sig_first && !stop_sent) {
			stop_sent = 1;
			stop_job(c, &e);
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
			if (c->ss.dur && now >= next_ss) {
				next_ss = now + SS_POLL_MS;
				if (run_ss_poll(c)) {
					stop_sent = 1;
					stop_job(c, &e);
					ss_stopped(c);
					continue;
				}
			}
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
void disk_stats(struct run_ctx *c, int end)
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

int run_job(struct run_ctx *c)
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
	status = strcmp(state, "error") && !c->lat_failed && !c->logs_failed &&
		 !c->verify_failed ? 0 : 1;
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

/* fio's --output=FILE: stdout becomes FILE (created, or truncated) */
int output_file(const char *path)
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
