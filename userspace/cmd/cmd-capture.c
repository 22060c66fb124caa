// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload capture DEV --duration=T -o TRACE: record what applications do
 * to a block device, with blktrace (Debian package blktrace), into the
 * per-CPU files TRACE.blktrace.N that `ssdload replay`, `profile` and
 * `trace-info` read.  blktrace runs as a child for T and is stopped with
 * SIGINT, as its own -w would; its cost is reported: the events it
 * dropped (its relay buffers overflowed: the trace misses I/Os) and the
 * CPU time it used, which is what the capture took from the system.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/capture.h"
#include "core/options.h"
#include "trace/trace.h"

#define CAP_OUT_MAX	65536

static const char *const capture_usage[] = {
	"usage: ssdload capture DEV --duration=T -o TRACE [--method=blktrace|tracefs]",
	"                       [--buffer-kb=N] [--buffers=N]",
	"",
	"Record the I/O that applications do to block device DEV for T (fio's",
	"time syntax, bare seconds: 30, 500ms, 2m) with blktrace, into",
	"TRACE.blktrace.0, .1, ... (one file per CPU), then check the trace",
	"reads back and report the capture's own cost: the events blktrace",
	"dropped and the CPU time it used.  The trace is what ssdload replay,",
	"profile and trace-info take (as TRACE).  Ctrl-C ends the capture early.",
	"",
	"  --duration=T       how long to record (required)",
	"  -o, --output=TRACE the files' prefix (refused if TRACE.blktrace.0 exists)",
	"  --method=M         blktrace (default): the blktrace program; tracefs:",
	"                     the block_rq_issue and block_rq_complete tracepoints",
	"                     of a tracefs instance (requests only, microsecond",
	"                     times, no blktrace needed), written as one file",
	"  --buffer-kb=N      blktrace's sub-buffer size, KiB (default 512)",
	"  --buffers=N        blktrace's sub-buffers per CPU (default 4); raise",
	"                     both when events are dropped (tracefs: the ring",
	"                     buffer is their product per CPU)",
	"",
	"Needs root, and debugfs at /sys/kernel/debug and blktrace (apt install",
	"blktrace), or tracefs.  Exit status: 0 captured (dropped events are reported),",
	"1 the capture failed, 2 bad usage.",
	NULL,
};

enum { O_DURATION, O_OUTPUT, O_BUFFER_KB, O_BUFFERS, O_METHOD };

static const struct ssl_opt capture_opts[] = {
	{ "duration", SSL_ARG_REQUIRED, O_DURATION },
	{ "output", SSL_ARG_REQUIRED, O_OUTPUT },
	{ "o", SSL_ARG_REQUIRED, O_OUTPUT },
	{ "buffer-kb", SSL_ARG_REQUIRED, O_BUFFER_KB },
	{ "buffers", SSL_ARG_REQUIRED, O_BUFFERS },
	{ "method", SSL_ARG_REQUIRED, O_METHOD },
	{ NULL, 0, 0 },
};

struct capture {
	const char *dev, *out;
	uint64_t ms, buf_kb, nbuf;
	int tracefs;			/* --method=tracefs */
	char dir[PATH_MAX], name[NAME_MAX + 1];
	char text[CAP_OUT_MAX];		/* blktrace's output */
	size_t len;
	double cpu_s;
	uint64_t events, dropped;
	int have_total;
};

static volatile sig_atomic_t cap_stop;

static void cap_signal(int sig)
{
	(void)sig;
	cap_stop = 1;
}

static int capture_opt(struct capture *c, const struct ssl_opt *opt, const char *val)
{
	switch (opt->id) {
	case O_DURATION:
		if (ssl_parse_time_ms(val, 1000, &c->ms) || !c->ms) {
			ssl_err("capture: --duration=%s: want a time above 0 (30, 500ms, 2m)", val);
			return -1;
		}
		return 0;
	case O_OUTPUT:
		c->out = val;
		return 0;
	case O_METHOD:
		if (strcmp(val, "blktrace") && strcmp(val, "tracefs")) {
			ssl_err("capture: --method=%s: want blktrace or tracefs", val);
			return -1;
		}
		c->tracefs = !strcmp(val, "tracefs");
		return 0;
	case O_BUFFER_KB:
		if (ssl_parse_u64(val, &c->buf_kb) || !c->buf_kb || c->buf_kb > 65536) {
			ssl_err("capture: --buffer-kb=%s: want 1..65536", val);
			return -1;
		}
		return 0;
	default:
		if (ssl_parse_u64(val, &c->nbuf) || c->nbuf < 2 || c->nbuf > 4096) {
			ssl_err("capture: --buffers=%s: want 2..4096", val);
			return -1;
		}
		return 0;
	}
}

static int capture_args(int argc, const char **argv, struct capture *c)
{
	const struct ssl_opt *opt;
	int i = 1, dashdash = 0, r;
	const char *val;

	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, capture_opts, &opt, &val, &dashdash);
		if (r < 0)
			return -1;
		if (r == 2)
			return 1;
		if (r == 3)
			continue;
		if (r == 0) {
			if (c->dev) {
				ssl_err("capture: one DEV, not '%s' too", argv[i - 1]);
				return -1;
			}
			c->dev = argv[i - 1];
			continue;
		}
		if (capture_opt(c, opt, val))
			return -1;
	}
	if (!c->dev || !c->out || !*c->out || !c->ms) {
		ssl_err("capture: want DEV, --duration=T and -o TRACE");
		return -1;
	}
	return 0;
}

/* DEV a block device; TRACE's directory and name; no TRACE.blktrace.0 */
static int capture_check(struct capture *c)
{
	const char *slash = strrchr(c->out, '/');
	char first[PATH_MAX + 16];
	struct stat st;

	if (stat(c->dev, &st)) {
		ssl_err("capture: %s: %s", c->dev, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		ssl_err("capture: %s: not a block device", c->dev);
		return -1;
	}
	if (slash) {
		snprintf(c->dir, sizeof(c->dir), "%.*s", slash == c->out ? 1 :
			 (int)(slash - c->out), c->out);
		snprintf(c->name, sizeof(c->name), "%s", slash + 1);
	} else {
		snprintf(c->dir, sizeof(c->dir), ".");
		snprintf(c->name, sizeof(c->name), "%s", c->out);
	}
	if (!c->name[0] || strlen(slash ? slash + 1 : c->out) > NAME_MAX - 16) {
		ssl_err("capture: -o %s: want a file name", c->out);
		return -1;
	}
	snprintf(first, sizeof(first), "%s.blktrace.0", c->out);
	if (!access(first, F_OK)) {
		ssl_err("capture: %s exists: not overwritten", first);
		return -1;
	}
	if (!c->tracefs && !ssl_is_mounted("/sys/kernel/debug", "debugfs")) {
		ssl_err("capture: debugfs is not mounted at /sys/kernel/debug (blktrace needs it)");
		return -1;
	}
	return 0;
}

static void capture_child(struct capture *c, int out)
{
	char kb[24], nb[24];

	snprintf(kb, sizeof(kb), "%" PRIu64, c->buf_kb);
	snprintf(nb, sizeof(nb), "%" PRIu64, c->nbuf);
	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	execlp("blktrace", "blktrace", "-d", c->dev, "-D", c->dir, "-o", c->name,
	       "-b", kb, "-n", nb, (char *)NULL);
	dprintf(STDERR_FILENO, "cannot run blktrace: %s%s\n", strerror(errno),
		errno == ENOENT ? " (apt install blktrace)" : "");
	_exit(127);
}

/* run blktrace for c->ms (or until a signal), its output in c->text */
static int capture_run(struct capture *c)
{
	uint64_t start = ssl_now_ms();
	struct rusage ru;
	int fds[2], st = 0, done = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fds)) {
		ssl_err("capture: pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		ssl_err("capture: fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[0]);
		setpgid(0, 0);	/* our Ctrl-C is ours to forward, once */
		capture_child(c, fds[1]);
	}
	close(fds[1]);
	while (!cap_stop && ssl_now_ms() - start < c->ms) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			done = 1;
			break;
		}
		ssl_msleep(20);
	}
	if (!done)
		kill(pid, SIGINT);
	while ((n = read(fds[0], c->text + c->len, sizeof(c->text) - 1 - c->len)) > 0 ||
	       (n < 0 && errno == EINTR))
		c->len += n > 0 ? (size_t)n : 0;
	c->text[c->len] = '\0';
	close(fds[0]);
	if (!done)
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	if (!getrusage(RUSAGE_CHILDREN, &ru))
		c->cpu_s = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
			   (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	if (done || !WIFEXITED(st) || WEXITSTATUS(st)) {
		char *nl = strrchr(c->text, '\n');

		while (nl && nl > c->text && !nl[1]) {
			*nl = '\0';
			nl = strrchr(c->text, '\n');
		}
		ssl_err("capture: blktrace %s: %s", done ? "ended before the duration" :
			"failed", nl ? nl + 1 : c->len ? c->text : "no output");
		return -1;
	}
	return 0;
}

/* blktrace's "Total: N events (dropped D), K KiB data" */
static void capture_parse(struct capture *c)
{
	const char *s = strstr(c->text, "Total:");
	unsigned long long ev, dr;

	if (s && sscanf(s, "Total: %llu events (dropped %llu)", &ev, &dr) == 2) {
		c->events = ev;
		c->dropped = dr;
		c->have_total = 1;
	}
}

/* the trace reads back: its records */
static int capture_verify(struct capture *c, uint64_t *recs)
{
	struct trace_rec r;
	struct trace *t;
	char err[512];
	int k;

	*recs = 0;
	t = trace_open(c->out, TRACE_FMT_BLKTRACE, err, sizeof(err));
	if (!t) {
		ssl_err("capture: the trace does not read back: %s", err);
		return -1;
	}
	while ((k = trace_next(t, &r)) > 0)
		(*recs)++;
	if (k < 0)
		ssl_err("capture: the trace does not read back: %s", trace_error(t));
	trace_close(t);
	return k < 0 ? -1 : 0;
}

int cmd_capture(int argc, const char **argv)
{
	struct sigaction sa = { .sa_handler = cap_signal }, old_int, old_term;
	struct capture *c = calloc(1, sizeof(*c));
	struct capture_cost cost = { 0 };
	uint64_t recs, t0;
	double secs;
	int r;

	if (!c) {
		ssl_err("capture: out of memory");
		return 1;
	}
	c->buf_kb = 512;
	c->nbuf = 4;
	r = capture_args(argc, argv, c);
	if (r > 0) {
		ssl_usage(stdout, capture_usage);
		free(c);
		return 0;
	}
	if (r < 0 || capture_check(c)) {
		free(c);
		return 2;
	}
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	t0 = ssl_now_ms();
	if (c->tracefs) {
		r = capture_tracefs(c->dev, c->ms, c->buf_kb * c->nbuf, c->out, &cap_stop, &cost);
	} else {
		r = capture_run(c);
		if (!r) {
			capture_parse(c);
			cost.events = c->events;
			cost.dropped = c->dropped;
			cost.have_events = c->have_total;
			cost.cpu_s = c->cpu_s;
		}
	}
	/* the time recorded: shorter than asked after a Ctrl-C */
	secs = (ssl_now_ms() - t0) / 1e3;
	if (secs <= 0)
		secs = 1e-3;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (r || capture_verify(c, &recs)) {
		free(c);
		return 1;
	}
	printf("captured %s for %.3f s into %s.blktrace.N: %" PRIu64 " I/Os\n", c->dev, secs,
	       c->out, recs);
	if (cost.have_events)
		printf("%s: %" PRIu64 " events, %" PRIu64 " dropped\n",
		       c->tracefs ? "tracefs" : "blktrace", cost.events, cost.dropped);
	printf("overhead: %s used %.3f s of CPU (%.2f%% of one CPU over the capture)\n",
	       c->tracefs ? "ssdload" : "blktrace", cost.cpu_s, 100.0 * cost.cpu_s / secs);
	if (cost.dropped)
		ssl_err("capture: %" PRIu64 " events dropped: the trace misses I/Os; raise --buffer-kb and --buffers",
			cost.dropped);
	free(c);
	return 0;
}
