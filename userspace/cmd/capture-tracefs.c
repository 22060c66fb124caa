// SPDX-License-Identifier: GPL-2.0
/*
 * capture-tracefs.c: `ssdload capture --method=tracefs`, the block
 * tracepoints instead of blktrace.  A tracefs instance of our own
 * (instances/ssdload-capture-PID: its own ring buffer, event enables,
 * filters and clock) records block_rq_issue and block_rq_complete of the
 * device, on the "mono" clock (one clock for every CPU); trace_pipe
 * hands the events over merged by time, and each becomes a blk_io_trace
 * record, D or C, of OUT.blktrace.0, which the blktrace reader takes.
 * The text of trace_pipe gives times in microseconds.  Requests only: a
 * bio-based device (device-mapper, md) has no block_rq_issue; use
 * blktrace there.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/blktrace_api.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cmd/capture.h"
#include "core/util.h"

#define TF_ROOTS	{ "/sys/kernel/tracing", "/sys/kernel/debug/tracing" }
#define TF_LINE		4096

struct tf {
	char inst[256];
	FILE *out;
	uint32_t devt;
	uint32_t seq;
	char line[TF_LINE];
	size_t len;
	uint64_t events;
};

static int tf_write(const char *dir, const char *file, const char *val)
{
	char p[512];
	int fd, ok;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/* the category bits of a tracepoint's rwbs ("WS", "FWS", "R", "D", "FN") */
static uint32_t tf_cat(const char *rwbs, uint32_t nr)
{
	uint32_t c = 0;

	if (strchr(rwbs, 'D'))
		c |= BLK_TC_DISCARD | BLK_TC_WRITE;
	else if (strchr(rwbs, 'W'))
		c |= BLK_TC_WRITE;
	else
		c |= BLK_TC_READ;
	if (rwbs[0] == 'F' || (strchr(rwbs, 'F') && !nr))
		c |= BLK_TC_FLUSH;
	if (strchr(rwbs, 'S'))
		c |= BLK_TC_SYNC;
	if (strchr(rwbs, 'M'))
		c |= BLK_TC_META;
	if (strchr(rwbs, 'A'))
		c |= BLK_TC_AHEAD;
	return c;
}

/*
 * "COMM-PID [CPU] FLAGS SECS.USECS: block_rq_issue: MAJ,MIN RWBS BYTES (CMD)
 * SECTOR + NR ...": one record; lines of other events are skipped
 */
static int tf_line(struct tf *t, const char *l)
{
	const char *ev, *p;
	unsigned long long secs, usecs, sector;
	unsigned int ma, mi, nr, cpu = 0;
	uint32_t rec[12], act;
	char rwbs[16];
	int issue;

	ev = strstr(l, ": block_rq_issue: ");
	issue = ev != NULL;
	if (!ev)
		ev = strstr(l, ": block_rq_complete: ");
	if (!ev)
		return 0;
	for (p = ev; p > l && p[-1] != ' '; p--)
		;
	if (sscanf(p, "%llu.%llu", &secs, &usecs) != 2)
		return 0;
	p = strchr(l, '[');
	if (p)
		sscanf(p, "[%u]", &cpu);
	ev = strchr(ev + 2, ':') + 2;
	if (sscanf(ev, "%u,%u %15s", &ma, &mi, rwbs) != 3)
		return 0;
	p = strstr(ev, ") ");
	if (!p || sscanf(p + 2, "%llu + %u", &sector, &nr) != 2)
		return 0;
	act = (tf_cat(rwbs, nr) | (issue ? BLK_TC_ISSUE : BLK_TC_COMPLETE)) << BLK_TC_SHIFT;
	act |= issue ? __BLK_TA_ISSUE : __BLK_TA_COMPLETE;
	/* struct blk_io_trace, in this machine's byte order */
	rec[0] = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION;
	rec[1] = ++t->seq;
	secs = secs * 1000000000ULL + usecs * 1000ULL;
	memcpy(&rec[2], &secs, 8);
	memcpy(&rec[4], &sector, 8);
	rec[6] = nr * 512U;
	rec[7] = act;
	rec[8] = 0;
	rec[9] = (ma << 20) | mi;
	rec[10] = cpu;
	rec[11] = 0;		/* error, pdu_len */
	t->events++;
	return fwrite(rec, sizeof(rec), 1, t->out) == 1 ? 0 : -1;
}

/* the complete lines of what FD has now; -1 on a write error */
static int tf_drain(struct tf *t, int fd)
{
	ssize_t n;
	char *nl;

	while ((n = read(fd, t->line + t->len, sizeof(t->line) - 1 - t->len)) > 0) {
		t->len += (size_t)n;
		t->line[t->len] = '\0';
		while ((nl = strchr(t->line, '\n'))) {
			*nl = '\0';
			if (tf_line(t, t->line))
				return -1;
			t->len -= (size_t)(nl + 1 - t->line);
			memmove(t->line, nl + 1, t->len + 1);
		}
		if (t->len == sizeof(t->line) - 1)
			t->len = 0;	/* a line longer than any event's: dropped */
	}
	return 0;
}

static uint64_t tf_dropped(const char *inst)
{
	static const char *const keys[] = { "overrun: ", "dropped events: " };
	char p[512], buf[1024];
	uint64_t sum = 0;
	unsigned int cpu, k;
	char *s;
	FILE *f;

	for (cpu = 0; cpu < 4096; cpu++) {
		snprintf(p, sizeof(p), "%s/per_cpu/cpu%u/stats", inst, cpu);
		f = fopen(p, "r");
		if (!f) {
			if (errno == ENOENT && cpu > 64)
				break;
			continue;
		}
		while (fgets(buf, sizeof(buf), f))
			for (k = 0; k < 2; k++)
				if (!strncmp(buf, keys[k], strlen(keys[k])))
					sum += strtoull(buf + strlen(keys[k]), &s, 10);
		fclose(f);
	}
	return sum;
}

static int tf_setup(struct tf *t, uint64_t buf_kb)
{
	static const char *const roots[] = TF_ROOTS;
	char v[64], ev[300];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		snprintf(t->inst, sizeof(t->inst), "%s/instances/ssdload-capture-%d", roots[i],
			 (int)getpid());
		if (!mkdir(t->inst, 0700))
			break;
		if (errno != ENOENT) {
			ssl_err("capture: %s: %s", t->inst, strerror(errno));
			return -1;
		}
	}
	if (i == 2) {
		ssl_err("capture: no tracefs (mount -t tracefs nodev /sys/kernel/tracing)");
		return -1;
	}
	snprintf(v, sizeof(v), "%" PRIu64, buf_kb);
	tf_write(t->inst, "trace_clock", "mono");
	if (tf_write(t->inst, "buffer_size_kb", v))
		goto fail;
	snprintf(v, sizeof(v), "dev == %u", t->devt);
	for (i = 0; i < 2; i++) {
		snprintf(ev, sizeof(ev), "%s/events/block/%s", t->inst,
			 i ? "block_rq_complete" : "block_rq_issue");
		if (tf_write(ev, "filter", v) || tf_write(ev, "enable", "1"))
			goto fail;
	}
	return 0;
fail:
	ssl_err("capture: setting up %s: %s", t->inst, strerror(errno));
	return -1;
}

static void tf_teardown(struct tf *t)
{
	char ev[300];
	unsigned int i;

	tf_write(t->inst, "tracing_on", "0");
	for (i = 0; i < 2; i++) {
		snprintf(ev, sizeof(ev), "%s/events/block/%s", t->inst,
			 i ? "block_rq_complete" : "block_rq_issue");
		tf_write(ev, "enable", "0");
	}
	if (rmdir(t->inst))
		ssl_err("capture: could not remove %s: %s", t->inst, strerror(errno));
}

static int tf_run(struct tf *t, uint64_t ms, volatile sig_atomic_t *stop)
{
	char p[300];
	uint64_t start = ssl_now_ms();
	struct pollfd pfd;
	int fd, r = 0;

	snprintf(p, sizeof(p), "%s/trace_pipe", t->inst);
	fd = open(p, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		ssl_err("capture: %s: %s", p, strerror(errno));
		return -1;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (!r && !*stop && ssl_now_ms() - start < ms) {
		poll(&pfd, 1, 50);
		r = tf_drain(t, fd);
	}
	tf_write(t->inst, "tracing_on", "0");
	if (!r)
		r = tf_drain(t, fd);
	close(fd);
	if (r)
		ssl_err("capture: writing the trace: %s", strerror(errno));
	return r;
}

int capture_tracefs(const char *dev, uint64_t ms, uint64_t buf_kb, const char *out,
		    volatile sig_atomic_t *stop, struct capture_cost *cost)
{
	struct tf *t = calloc(1, sizeof(*t));
	char path[4096];
	struct rusage a, b;
	struct stat st;
	int r = -1;

	if (!t || stat(dev, &st)) {
		ssl_err("capture: %s: %s", dev, strerror(t ? errno : ENOMEM));
		free(t);
		return -1;
	}
	t->devt = (major(st.st_rdev) << 20) | minor(st.st_rdev);
	snprintf(path, sizeof(path), "%s.blktrace.0", out);
	t->out = fopen(path, "wbx");
	if (!t->out) {
		ssl_err("capture: %s: %s", path, strerror(errno));
		free(t);
		return -1;
	}
	getrusage(RUSAGE_SELF, &a);
	if (!tf_setup(t, buf_kb)) {
		r = tf_run(t, ms, stop);
		cost->dropped = tf_dropped(t->inst);
		tf_teardown(t);
	} else if (t->inst[0] && !access(t->inst, F_OK)) {
		tf_teardown(t);
	}
	getrusage(RUSAGE_SELF, &b);
	cost->cpu_s = (b.ru_utime.tv_sec - a.ru_utime.tv_sec) +
		      (b.ru_stime.tv_sec - a.ru_stime.tv_sec) +
		      ((b.ru_utime.tv_usec - a.ru_utime.tv_usec) +
		       (b.ru_stime.tv_usec - a.ru_stime.tv_usec)) / 1e6;
	cost->events = t->events;
	cost->have_events = 1;
	if (fclose(t->out) && !r) {
		ssl_err("capture: %s: %s", path, strerror(errno));
		r = -1;
	}
	if (r)
		unlink(path);
	free(t);
	return r;
}
