// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload replay TRACE --filename=DEV[:DEV2...]: issue a recorded block
 * trace from the kernel, each I/O at its recorded time, open loop
 * (Documentation/replay.rst).
 *
 * A first pass reads the whole trace (streamed, never held): its figures
 * and every check, so that a bad trace is refused before anything is
 * issued.  Then a configfs job with replay=1 is enabled and the trace is
 * read again, each record mapped (replay-plan.c) and written to the job's
 * debugfs replay file, which takes them as its bounded buffer has room
 * (the write blocks while it is full).  The end record closes the stream;
 * once the job is done its results are printed as a run's, with the
 * replay's fidelity (lateness, held back) and, where the trace recorded
 * response times, the trace's latency next to this drive's.
 */
#include <endian.h>
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
#include <json-c/json.h>

#include "uapi/ssdload.h"
#include "cmd/builtin.h"
#include "cmd/replay.h"
#include "core/array_size.h"
#include "core/configfs.h"
#include "core/hist.h"
#include "core/options.h"
#include "core/results.h"
#include "core/util.h"
#include "fio/report.h"
#include "trace/trace.h"

static const char *const replay_usage[] = {
	"usage: ssdload replay TRACE --filename=DEV[:DEV2...] [options]",
	"",
	"Issue the I/Os of a recorded block trace from the kernel, each at its",
	"recorded time, open loop; report how late each went out and the drive's",
	"latencies (Documentation/replay.rst).",
	"",
	"  --filename=DEV[:DEV2]  the targets: the trace's devices, in the order",
	"                         it first names them, go to these in order",
	"  --map=T:DEV[,T:DEV]    trace device T (its name in the trace) to DEV",
	"  --trace-format=FMT     auto (default), iolog2, iolog3, blktrace, msr,",
	"                         alibaba",
	"  --speed=X              X times the trace's rate (fio's",
	"                         replay_time_scale=100X); default 1",
	"  --replay_time_scale=P  the same in percent (fio)",
	"  --no-stall             ignore the times: as fast as --iodepth allows,",
	"                         in the trace's order (fio's replay_no_stall)",
	"  --iodepth=N            at most N I/Os in flight (default 32); a record",
	"                         due while N are in flight waits: held back",
	"  --offset-map=M         refuse (default), wrap or scale: records beyond",
	"                         the end of their device",
	"  --replay_align=B       align offsets down to B bytes (fio)",
	"  --replay_scale=N       divide offsets by N (fio)",
	"  --allow_write          permit the trace's writes and trims",
	"  --runtime=TIME         stop after TIME (bare: seconds)",
	"  --output-format=F      normal (default) or json (fio's schema; the",
	"                         replay under jobs[0].ssdload.replay)",
	"  --name=NAME            the configfs job (default replay-PID)",
	"  --parse-only           read and map the trace, print its figures, issue",
	"                         nothing (no module needed)",
	"  --dump                 with --parse-only: every mapped record",
	NULL,
};

enum {
	O_FILENAME, O_MAP, O_FORMAT, O_SPEED, O_TIME_SCALE, O_NO_STALL,
	O_IODEPTH, O_OFFSET_MAP, O_ALIGN, O_SCALE, O_ALLOW_WRITE, O_RUNTIME,
	O_OUTPUT, O_NAME, O_PARSE_ONLY, O_DUMP,
};

static const struct ssl_opt replay_opts[] = {
	{ "filename",		SSL_ARG_REQUIRED, O_FILENAME },
	{ "map",		SSL_ARG_REQUIRED, O_MAP },
	{ "trace-format",	SSL_ARG_REQUIRED, O_FORMAT },
	{ "speed",		SSL_ARG_REQUIRED, O_SPEED },
	{ "replay_time_scale",	SSL_ARG_REQUIRED, O_TIME_SCALE },
	{ "no-stall",		SSL_ARG_FLAG, O_NO_STALL },
	{ "replay_no_stall",	SSL_ARG_FLAG, O_NO_STALL },
	{ "iodepth",		SSL_ARG_REQUIRED, O_IODEPTH },
	{ "offset-map",		SSL_ARG_REQUIRED, O_OFFSET_MAP },
	{ "replay_align",	SSL_ARG_REQUIRED, O_ALIGN },
	{ "replay_scale",	SSL_ARG_REQUIRED, O_SCALE },
	{ "allow_write",	SSL_ARG_FLAG, O_ALLOW_WRITE },
	{ "runtime",		SSL_ARG_REQUIRED, O_RUNTIME },
	{ "output-format",	SSL_ARG_REQUIRED, O_OUTPUT },
	{ "name",		SSL_ARG_REQUIRED, O_NAME },
	{ "parse-only",		SSL_ARG_FLAG, O_PARSE_ONLY },
	{ "dump",		SSL_ARG_FLAG, O_DUMP },
	{ NULL, 0, 0 },
};

#define RP_BATCH	128		/* records per write(2) */
#define RP_POLL_MS	50
#define RP_DRAIN_MS	600000		/* the end of the stream to done, at most */

static volatile sig_atomic_t rp_signal;

static void rp_on_signal(int sig)
{
	rp_signal = sig;
}

/* --speed=X: a positive decimal, as percent of the trace's rate. */
static int rp_parse_speed(const char *s, uint64_t *pct)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (errno || end == s || *end || !(x > 0))
		return -1;
	x = x * 100 + 0.5;
	if (x < 1 || x > SSDLOAD_MAX_REPLAY_SCALE)
		return -1;
	*pct = (uint64_t)x;
	return 0;
}

static int rp_flag(const char *v, int *out)
{
	return v ? ssl_parse_bool(v, out) : (*out = 1, 0);
}

/* One option; 0, or -1 with the message printed. */
static int rp_option(struct rp_opts *o, int id, const char *v)
{
	char err[256];
	uint64_t x;

	switch (id) {
	case O_FILENAME:
		o->filename = v;
		return 0;
	case O_MAP:
		if (rp_parse_map(o, v, err, sizeof(err)))
			goto bad_msg;
		return 0;
	case O_FORMAT:
		if (trace_format_parse(v, &o->fmt))
			goto bad;
		return 0;
	case O_SPEED:
		if (rp_parse_speed(v, &o->time_scale))
			goto bad;
		return 0;
	case O_TIME_SCALE:
		if (ssl_parse_u64(v, &x) || !x || x > SSDLOAD_MAX_REPLAY_SCALE)
			goto bad;
		o->time_scale = x;
		return 0;
	case O_NO_STALL:
		return rp_flag(v, &o->no_stall) ? ssl_err("--no-stall=%s: not 0 or 1", v), -1 : 0;
	case O_IODEPTH:
		if (ssl_parse_u64(v, &x) || !x || x > SSDLOAD_MAX_IODEPTH)
			goto bad;
		o->iodepth = x;
		return 0;
	case O_OFFSET_MAP:
		if (!strcmp(v, "refuse"))
			o->offset_map = RP_MAP_REFUSE;
		else if (!strcmp(v, "wrap"))
			o->offset_map = RP_MAP_WRAP;
		else if (!strcmp(v, "scale"))
			o->offset_map = RP_MAP_SCALE;
		else
			goto bad;
		return 0;
	case O_ALIGN:
		if (ssl_parse_size(v, &x) || (x & (x - 1)))
			goto bad;
		o->replay_align = x;
		return 0;
	case O_SCALE:
		if (ssl_parse_u64(v, &x))
			goto bad;
		o->replay_scale = x;
		return 0;
	case O_ALLOW_WRITE:
		return rp_flag(v, &o->allow_write) ? ssl_err("--allow_write=%s: not 0 or 1", v), -1 : 0;
	case O_RUNTIME:
		if (ssl_parse_time_ms(v, 1000, &o->runtime_ms) ||
		    o->runtime_ms > SSDLOAD_MAX_MS)
			goto bad;
		return 0;
	case O_OUTPUT:
		if (ssl_parse_output_format(v, &o->fmt_out))
			goto bad;
		return 0;
	case O_NAME:
		if (!*v || strchr(v, '/') || !strcmp(v, ".") || !strcmp(v, ".."))
			goto bad;
		o->name = v;
		return 0;
	case O_PARSE_ONLY:
		return rp_flag(v, &o->parse_only) ? ssl_err("--parse-only=%s: not 0 or 1", v), -1 : 0;
	case O_DUMP:
		return rp_flag(v, &o->dump) ? ssl_err("--dump=%s: not 0 or 1", v), -1 : 0;
	}
bad:
	ssl_err("replay: bad value \"%s\" for --%s (see ssdload replay --help)",
		v, replay_opts[id].name);
	return -1;
bad_msg:
	ssl_err("replay: %s", err);
	return -1;
}

/* Parse argv; 1: --help printed, 0: go on, -1: refused. */
static int rp_parse(int argc, const char **argv, struct rp_opts *o)
{
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, dd = 0, r;

	o->fmt = TRACE_FMT_AUTO;
	o->time_scale = 100;
	o->iodepth = 32;
	o->fmt_out = SSL_OUTPUT_NORMAL;
	while (i < argc) {
		r = dd ? 0 : ssl_next_opt(argc, argv, &i, replay_opts, &opt, &val, &dd);
		if (dd && r != 3) {
			r = 0;
			i++;
		}
		if (r < 0)
			return -1;
		if (r == 2) {
			ssl_usage(stdout, replay_usage);
			return 1;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			if (o->trace) {
				ssl_err("replay: one trace only (\"%s\" and \"%s\")",
					o->trace, argv[i - 1]);
				return -1;
			}
			o->trace = argv[i - 1];
			continue;
		}
		if (rp_option(o, opt->id, val))
			return -1;
	}
	if (!o->trace) {
		ssl_usage(stderr, replay_usage);
		return -1;
	}
	if (o->fmt_out & SSL_OUTPUT_JSON_PLUS)
		o->fmt_out = (o->fmt_out & ~SSL_OUTPUT_JSON_PLUS) | SSL_OUTPUT_JSON;
	if (o->dump && !o->parse_only) {
		ssl_err("replay: --dump goes with --parse-only");
		return -1;
	}
	return 0;
}

/* ---- --parse-only ------------------------------------------------------ */

static void rp_print_plan(FILE *f, const struct rp_plan *p, struct trace *t)
{
	unsigned int d;
	int k;

	fprintf(f, "trace=%s\n", p->o->trace);
	fprintf(f, "format=%s\n", trace_format_name(trace_format_of(t)));
	fprintf(f, "records=%" PRIu64 "\n", p->nrec);
	for (k = 0; k < TRACE_NR_OPS; k++)
		fprintf(f, "%s_records=%" PRIu64 "\n%s_bytes=%" PRIu64 "\n",
			trace_op_name(k), p->ops[k], trace_op_name(k), p->bytes[k]);
	fprintf(f, "max_len=%u\nduration_ns=%" PRIu64 "\n", p->maxlen, p->last_t);
	fprintf(f, "bs=%u\n", rp_job_bs(p));
	fprintf(f, "trace_devices=%u\n", p->ndevs);
	for (d = 0; d < p->ndevs; d++)
		fprintf(f, "device%u=%s -> %s\n", d, trace_dev_name(t, d),
			p->tgt[p->devmap[d]].path);
	fprintf(f, "offset_map=%s\n", rp_offset_map_name(p->o->offset_map));
	fprintf(f, "replay_time_scale=%" PRIu64 "\n", p->o->time_scale);
}

/* Map every record (the second pass, as the replay would); --dump prints them. */
static int rp_parse_only(const struct rp_plan *p)
{
	struct ssdload_replay_rec out;
	struct trace_rec rec;
	struct trace *t;
	char err[512];
	uint64_t i = 0;
	int r;

	t = trace_open(p->o->trace, p->o->fmt, err, sizeof(err));
	if (!t) {
		ssl_err("replay: %s", err);
		return 1;
	}
	while ((r = trace_next(t, &rec)) > 0) {
		if (rp_map(p, &rec, i, &out, err, sizeof(err))) {
			ssl_err("replay: %s", err);
			trace_close(t);
			return 1;
		}
		if (p->o->dump)
			printf("%" PRIu64 " %s %u %" PRIu64 " %u\n",
			       (uint64_t)le64toh(out.time_ns),
			       trace_op_name(le16toh(out.op)), le16toh(out.target),
			       (uint64_t)le64toh(out.offset), le32toh(out.len));
		i++;
	}
	if (r == 0)
		rp_print_plan(stdout, p, t);
	else
		ssl_err("replay: %s: %s", p->o->trace, trace_error(t));
	trace_close(t);
	return r ? 1 : 0;
}

/* ---- the run ------------------------------------------------------------ */

struct rp_run {
	struct rp_opts *o;
	struct rp_plan *p;
	char name[64];
	int lease;
	int fd;				/* debugfs replay */
	uint64_t sent;			/* records written */
	uint64_t last_progress_ms;
	int progress;			/* stderr is a terminal */
};

static int rp_set(const char *job, const char *attr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rp_set(const char *job, const char *attr, const char *fmt, ...)
{
	char val[PATH_MAX * 2];
	va_list ap;
	int err;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	err = cfs_write(job, attr, val);
	if (err)
		ssl_err("replay: %s: %s=%s: %s", job, attr, val, strerror(-err));
	return err;
}

/* The job's filename: the targets, fio's list ("\:" for a colon). */
static void rp_filename(const struct rp_plan *p, char *buf, size_t len)
{
	size_t o = 0;
	unsigned int i;
	const char *c;

	for (i = 0; i < p->ntgt && o + 2 < len; i++) {
		if (i)
			buf[o++] = ':';
		for (c = p->tgt[i].path; *c && o + 3 < len; c++) {
			if (*c == ':')
				buf[o++] = '\\';
			buf[o++] = *c;
		}
	}
	buf[o] = '\0';
}

static int rp_configure(struct rp_run *run)
{
	const struct rp_opts *o = run->o;
	char files[PATH_MAX * 2];
	int err;

	rp_filename(run->p, files, sizeof(files));
	err = rp_set(run->name, SSDLOAD_ATTR_FILENAME, "%s", files);
	err = err ? err : rp_set(run->name, SSDLOAD_ATTR_REPLAY, "1");
	err = err ? err : rp_set(run->name, SSDLOAD_ATTR_BS, "%u", rp_job_bs(run->p));
	err = err ? err : rp_set(run->name, SSDLOAD_ATTR_IODEPTH, "%" PRIu64, o->iodepth);
	err = err ? err : rp_set(run->name, SSDLOAD_ATTR_NUMJOBS, "1");
	err = err ? err : rp_set(run->name, SSDLOAD_ATTR_ALLOW_WRITE, "%d", o->allow_write);
	err = err ? err : rp_set(run->name, SSDLOAD_ATTR_REPLAY_TIME_SCALE, "%" PRIu64,
				 o->time_scale);
	err = err ? err : rp_set(run->name, SSDLOAD_ATTR_REPLAY_NO_STALL, "%d", o->no_stall);
	err = err ? err : rp_set(run->name, SSDLOAD_ATTR_RUNTIME_MS, "%" PRIu64, o->runtime_ms);
	return err;
}

/*
 * The job's replay_stats in @kv, or an empty list; the pairs point into
 * the text returned, which the caller frees after ssl_kv_free().
 */
static char *rp_stats(const char *job, struct ssl_kvlist *kv)
{
	char path[PATH_MAX];
	char *text = NULL;
	size_t len;

	memset(kv, 0, sizeof(*kv));
	snprintf(path, sizeof(path), "%s/%s/%s", ssl_debugfs_root(), job,
		 SSDLOAD_DBG_REPLAY_STATS);
	if (ssl_read_file(path, &text, &len))
		return NULL;
	if (ssl_kv_parse(text, kv))
		memset(kv, 0, sizeof(*kv));
	return text;
}

static void rp_show_progress(struct rp_run *run, int force)
{
	struct ssl_kvlist kv;
	uint64_t now = ssl_now_ms(), issued = 0, late = 0, held = 0;
	char *text;

	if (!run->progress || (!force && now - run->last_progress_ms < 1000))
		return;
	run->last_progress_ms = now;
	text = rp_stats(run->name, &kv);
	ssl_kv_u64(&kv, "issued", &issued);
	ssl_kv_u64(&kv, "late_1ms", &late);
	ssl_kv_u64(&kv, "held", &held);
	ssl_kv_free(&kv);
	free(text);
	fprintf(stderr, "\rreplay: %" PRIu64 "/%" PRIu64 " records sent, %" PRIu64
		" issued, %" PRIu64 " held back, %" PRIu64 " late > 1 ms   ",
		run->sent, run->p->nrec, issued, held, late);
}

/* Write @n records whole (the module may take part of a write). */
static int rp_write(struct rp_run *run, const struct ssdload_replay_rec *b,
		    size_t n)
{
	const char *p = (const char *)b;
	size_t left = n * sizeof(*b);
	ssize_t w;

	while (left) {
		if (rp_signal)
			return -EINTR;
		w = write(run->fd, p, left);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		left -= (size_t)w;
		run->sent += (size_t)w / sizeof(*b);
		rp_show_progress(run, 0);
	}
	return 0;
}

/*
 * The second pass: every record to the module.  0; -EPIPE when the job
 * stopped taking records (it ended: runtime, a failure); -errno else.
 */
static int rp_stream(struct rp_run *run)
{
	struct ssdload_replay_rec buf[RP_BATCH];
	struct trace_rec rec;
	struct trace *t;
	char err[512];
	size_t n = 0;
	uint64_t i = 0;
	int r, ret = 0;

	t = trace_open(run->o->trace, run->o->fmt, err, sizeof(err));
	if (!t) {
		ssl_err("replay: %s", err);
		return -EIO;
	}
	while (!ret && (r = trace_next(t, &rec)) > 0) {
		if (rp_map(run->p, &rec, i++, &buf[n], err, sizeof(err))) {
			ssl_err("replay: %s", err);
			ret = -EINVAL;
			break;
		}
		if (++n == RP_BATCH) {
			ret = rp_write(run, buf, n);
			n = 0;
		}
	}
	if (!ret && r < 0) {
		ssl_err("replay: %s: %s", run->o->trace, trace_error(t));
		ret = -EIO;
	}
	if (!ret) {
		memset(&buf[n], 0, sizeof(buf[n]));
		buf[n].op = htole16(SSDLOAD_REPLAY_OP_END);
		buf[n].magic = htole32(SSDLOAD_REPLAY_REC_MAGIC);
		ret = rp_write(run, buf, n + 1);
		if (!ret)
			run->sent--;	/* the end is no record of the trace */
	}
	trace_close(t);
	return ret;
}

/* Wait for the job to end; its final state in @state. */
static int rp_wait(struct rp_run *run, char *state, size_t len)
{
	uint64_t start = ssl_now_ms();
	int stopped = 0, err;

	for (;;) {
		err = cfs_read(run->name, SSDLOAD_ATTR_STATE, state, len);
		if (err) {
			ssl_err("replay: %s: state: %s", run->name, strerror(-err));
			return -1;
		}
		if (!cfs_state_busy(state))
			return 0;
		if (rp_signal && !stopped) {
			cfs_write(run->name, SSDLOAD_ATTR_ENABLE, "0");
			stopped = 1;
		}
		if (ssl_now_ms() - start > RP_DRAIN_MS) {
			ssl_err("replay: %s still %s %d s after the trace's end",
				run->name, state, RP_DRAIN_MS / 1000);
			return -1;
		}
		rp_show_progress(run, 0);
		ssl_msleep(RP_POLL_MS);
	}
}

/* ---- the report --------------------------------------------------------- */

static const double rp_pct[] = { 50.0, 90.0, 99.0, 99.9, 99.99 };

struct rp_fidelity {
	char *text;			/* replay_stats, which kv points into */
	struct ssl_kvlist kv;
	struct ssl_hist late;		/* hist_replay */
};

static uint64_t rp_kv(const struct rp_fidelity *f, const char *k)
{
	uint64_t v = 0;

	ssl_kv_u64(&f->kv, k, &v);
	return v;
}

static void rp_read_fidelity(const char *job, struct rp_fidelity *f)
{
	char path[PATH_MAX], err[256];
	char *buf = NULL;
	size_t len;

	f->text = rp_stats(job, &f->kv);
	memset(&f->late, 0, sizeof(f->late));
	snprintf(path, sizeof(path), "%s/%s/%s", ssl_debugfs_root(), job,
		 SSDLOAD_DBG_HIST_REPLAY);
	if (ssl_read_file(path, &buf, &len))
		return;
	if (results_parse_hist(buf, len, SSDLOAD_HIST_DIR_REPLAY, &f->late,
			       err, sizeof(err)))
		ssl_err("replay: %s: %s", path, err);
	free(buf);
}

static uint64_t rp_hist_pct(const struct ssl_hist *h, double pct)
{
	if (!h->present || !h->counts)
		return 0;
	return ssl_hist_percentile(h->counts, h->hdr.nr_buckets, pct,
				   h->hdr.min_ns, h->hdr.max_ns);
}

static uint64_t rp_resp_pct(const struct rp_resp *r, double pct)
{
	return r->counts ? ssl_hist_percentile(r->counts, SSDLOAD_HIST_BUCKETS,
					       pct, r->min, r->max) : 0;
}

static void rp_print_normal(FILE *f, const struct rp_run *run,
			    const struct rp_fidelity *fi,
			    const struct ssl_results *res)
{
	const struct rp_plan *p = run->p;
	char a[32];
	size_t i;
	int k;

	fprintf(f, "  replay: %s, %" PRIu64 " records, speed %" PRIu64 "%%%s, iodepth %" PRIu64
		", offset-map %s\n", run->o->trace, p->nrec, run->o->time_scale,
		run->o->no_stall ? " (no stall)" : "", run->o->iodepth,
		rp_offset_map_name(run->o->offset_map));
	fprintf(f, "    fidelity: issued=%" PRIu64 ", late >10us=%" PRIu64 ", >100us=%" PRIu64
		", >1ms=%" PRIu64 ", held back=%" PRIu64 "\n", rp_kv(fi, "issued"),
		rp_kv(fi, "late_10us"), rp_kv(fi, "late_100us"), rp_kv(fi, "late_1ms"),
		rp_kv(fi, "held"));
	ssl_lat_str(a, sizeof(a), (double)rp_kv(fi, "late_max_ns"));
	fprintf(f, "    lateness: max=%s", a);
	for (i = 0; i < ARRAY_SIZE(rp_pct); i++) {
		ssl_lat_str(a, sizeof(a), (double)rp_hist_pct(&fi->late, rp_pct[i]));
		fprintf(f, ", p%g=%s", rp_pct[i], a);
	}
	fputc('\n', f);
	for (k = 0; k < TRACE_NR_OPS; k++) {
		const struct rp_resp *r = &p->resp[k];

		if (!r->n || k == TRACE_FLUSH)
			continue;
		fprintf(f, "    %s latency, the recorded system | this drive:", trace_op_name(k));
		for (i = 0; i < ARRAY_SIZE(rp_pct); i++) {
			char b[32];

			ssl_lat_str(a, sizeof(a), (double)rp_resp_pct(r, rp_pct[i]));
			ssl_lat_str(b, sizeof(b), (double)rp_hist_pct(&res->hist[k], rp_pct[i]));
			fprintf(f, " p%g=%s|%s", rp_pct[i], a, b);
		}
		fputc('\n', f);
	}
}

static struct json_object *rp_pct_json(const struct ssl_hist *h,
				       const struct rp_resp *r)
{
	struct json_object *o = json_object_new_object();
	char key[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rp_pct); i++) {
		snprintf(key, sizeof(key), "%f", rp_pct[i]);
		json_object_object_add(o, key, json_object_new_int64(
			(int64_t)(h ? rp_hist_pct(h, rp_pct[i]) : rp_resp_pct(r, rp_pct[i]))));
	}
	return o;
}

static struct json_object *rp_json(const struct rp_run *run,
				   const struct rp_fidelity *fi)
{
	static const char *const keys[] = {
		"issued", "flushes", "held", "late_10us", "late_100us", "late_1ms",
		"late_max_ns", "late_sum_ns", "refused",
	};
	const struct rp_plan *p = run->p;
	struct json_object *o = json_object_new_object(), *ops, *tr;
	size_t i;
	int k;

	json_object_object_add(o, "trace", json_object_new_string(run->o->trace));
	json_object_object_add(o, "records", json_object_new_int64((int64_t)p->nrec));
	json_object_object_add(o, "records_sent", json_object_new_int64((int64_t)run->sent));
	ops = json_object_new_object();
	for (k = 0; k < TRACE_NR_OPS; k++)
		json_object_object_add(ops, trace_op_name(k),
				       json_object_new_int64((int64_t)p->ops[k]));
	json_object_object_add(o, "trace_ops", ops);
	json_object_object_add(o, "trace_duration_ns", json_object_new_int64((int64_t)p->last_t));
	json_object_object_add(o, "replay_time_scale",
			       json_object_new_int64((int64_t)run->o->time_scale));
	json_object_object_add(o, "no_stall", json_object_new_int(run->o->no_stall));
	json_object_object_add(o, "iodepth", json_object_new_int64((int64_t)run->o->iodepth));
	json_object_object_add(o, "offset_map",
			       json_object_new_string(rp_offset_map_name(run->o->offset_map)));
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		json_object_object_add(o, keys[i], json_object_new_int64((int64_t)rp_kv(fi, keys[i])));
	json_object_object_add(o, "late_percentiles_ns", rp_pct_json(&fi->late, NULL));
	tr = json_object_new_object();
	for (k = 0; k < TRACE_NR_OPS; k++) {
		struct json_object *d;

		if (!p->resp[k].n)
			continue;
		d = json_object_new_object();
		json_object_object_add(d, "samples", json_object_new_int64((int64_t)p->resp[k].n));
		json_object_object_add(d, "max_ns", json_object_new_int64((int64_t)p->resp[k].max));
		json_object_object_add(d, "percentiles_ns", rp_pct_json(NULL, &p->resp[k]));
		json_object_object_add(tr, trace_op_name(k), d);
	}
	json_object_object_add(o, "trace_latency", tr);
	return o;
}

/* fio's JSON of the run, with the replay under jobs[0].ssdload.replay. */
static int rp_print_json(const struct ssl_report *rep, struct json_object *replay)
{
	struct json_object *doc, *jobs, *job, *ext;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret = -1;

	if (!m)
		goto out_put;
	if (report_print(m, rep, SSL_OUTPUT_JSON)) {
		fclose(m);
		goto out_free;
	}
	fclose(m);
	doc = json_tokener_parse(buf);
	if (!doc)
		goto out_free;
	if (json_object_object_get_ex(doc, "jobs", &jobs) &&
	    json_object_array_length(jobs) > 0) {
		job = json_object_array_get_idx(jobs, 0);
		if (!json_object_object_get_ex(job, "ssdload", &ext)) {
			ext = json_object_new_object();
			json_object_object_add(job, "ssdload", ext);
		}
		json_object_object_add(ext, "replay", json_object_get(replay));
	}
	printf("%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(doc);
	ret = 0;
out_free:
	free(buf);
out_put:
	json_object_put(replay);
	return ret;
}

static int rp_report(struct rp_run *run)
{
	struct rp_fidelity fi;
	struct ssl_results res;
	int ret;

	if (results_read(run->name, &res))
		return -1;
	rp_read_fidelity(run->name, &fi);
	{
		struct ssl_report rep = {
			.name = run->name,
			.pid = (long)getpid(),
			.when = time(NULL),
			.sum = &res.sum,
			.hist = res.hist,
			.ihist = res.ihist,
			.shist = &res.shist,
			.plist = ssl_default_percentiles,
			.np = ssl_default_percentiles_nr,
			.iodepth = run->o->iodepth,
		};

		if (run->o->fmt_out & SSL_OUTPUT_ANY_JSON)
			ret = rp_print_json(&rep, rp_json(run, &fi));
		else
			ret = report_print(stdout, &rep, SSL_OUTPUT_NORMAL);
		if (!ret && (run->o->fmt_out & SSL_OUTPUT_NORMAL) &&
		    !(run->o->fmt_out & SSL_OUTPUT_ANY_JSON))
			rp_print_normal(stdout, run, &fi, &res);
	}
	ssl_kv_free(&fi.kv);
	free(fi.text);
	results_free_hist(&fi.late);
	results_free(&res);
	return ret;
}

/* ---- the command ---------------------------------------------------------- */

static void rp_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rp_on_signal;	/* no SA_RESTART: write(2) returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Enable, stream, wait; the job's final state in @state. */
static int rp_go(struct rp_run *run, char *state, size_t len)
{
	char path[PATH_MAX];
	int err;

	run->lease = results_open_lease(run->name);
	err = cfs_write(run->name, SSDLOAD_ATTR_ENABLE, "1");
	if (err) {
		cfs_report_enable_error(run->name, run->o->trace, err, NULL);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s/%s", ssl_debugfs_root(), run->name,
		 SSDLOAD_DBG_REPLAY);
	run->fd = open(path, O_WRONLY | O_CLOEXEC);
	if (run->fd < 0) {
		ssl_err("replay: %s: %s", path, strerror(errno));
		cfs_write(run->name, SSDLOAD_ATTR_ENABLE, "0");
		rp_wait(run, state, len);
		return -1;
	}
	err = rp_stream(run);
	close(run->fd);
	run->fd = -1;
	if (err && err != -EPIPE)
		cfs_write(run->name, SSDLOAD_ATTR_ENABLE, "0");
	if (rp_wait(run, state, len))
		return -1;
	rp_show_progress(run, 1);
	if (run->progress)
		fputc('\n', stderr);
	return err && err != -EPIPE && err != -EINTR ? -1 : 0;
}

int cmd_replay(int argc, const char **argv)
{
	struct rp_opts o = { 0 };
	struct rp_plan p;
	struct rp_run run = { .o = &o, .p = &p, .lease = -1, .fd = -1 };
	char err[1024], state[32];
	int r, status = 1;

	r = rp_parse(argc, argv, &o);
	if (r) {
		rp_opts_free(&o);
		return r < 0 ? 1 : 0;
	}
	if (rp_plan_init(&p, &o, err, sizeof(err)) || rp_prescan(&p, err, sizeof(err))) {
		ssl_err("replay: %s", err);
		goto out_plan;
	}
	if (o.parse_only) {
		status = rp_parse_only(&p);
		goto out_plan;
	}
	if (cfs_check_module() || ssl_check_debugfs())
		goto out_plan;
	if (o.name)
		snprintf(run.name, sizeof(run.name), "%s", o.name);
	else
		snprintf(run.name, sizeof(run.name), "replay-%ld", (long)getpid());
	r = cfs_job_create(run.name);
	if (r) {
		ssl_err("replay: job %s: %s", run.name,
			r == -EEXIST ? "exists already (--name)" : strerror(-r));
		goto out_plan;
	}
	run.progress = isatty(STDERR_FILENO);
	rp_signals();
	if (rp_configure(&run) || rp_go(&run, state, sizeof(state)))
		goto out_job;
	if (!strcmp(state, "error")) {
		cfs_report_enable_error(run.name, o.trace, -EIO, NULL);
		goto out_job;
	}
	status = rp_report(&run) ? 1 : 0;
	if (rp_signal)
		status = SSL_EXIT_SIGNAL(rp_signal);
out_job:
	if (run.lease >= 0)
		close(run.lease);
	r = cfs_job_remove(run.name);
	if (r && r != -ENOENT)
		ssl_err("replay: rmdir job %s: %s", run.name, strerror(-r));
out_plan:
	rp_plan_free(&p);
	rp_opts_free(&o);
	return status;
}
