// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload trace-info TRACE: what a block trace holds, read through the
 * same reader as replay and profile (trace/): its format, records,
 * devices, duration, mix, sizes and response times.  It reads the whole
 * trace once, in constant memory (per device: one counter).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "core/options.h"
#include "trace/trace.h"

static const char *const trace_info_usage[] = {
	"usage: ssdload trace-info [--trace-format=FMT] TRACE",
	"",
	"Read a block trace and print its format, record count, devices,",
	"duration, read/write/trim/flush mix, I/O sizes, arrival rate and, when",
	"the trace records them, response times.  A malformed record stops it",
	"with the file, the line or record number and the reason.",
	"",
	"  --trace-format=FMT   auto (default: detected from the first bytes),",
	"                       blktrace, msr, alibaba, iolog2, iolog3",
	"  --records            first print every record, one a line:",
	"                       T_NS OP OFFSET LENGTH RESP_NS DEVICE",
	"",
	"TRACE is a file, or for blktrace one DEV.blktrace.N file or the DEV",
	"prefix of them all (Documentation/traces.rst).",
	"Exit status: 0 done, 1 the trace could not be read, 2 bad usage.",
	NULL,
};

enum { O_TRACE_FORMAT, O_RECORDS };

static const struct ssl_opt trace_info_opts[] = {
	{ "trace-format", SSL_ARG_REQUIRED, O_TRACE_FORMAT },
	{ "records", SSL_ARG_FLAG, O_RECORDS },
	{ NULL, 0, 0 },
};

struct info {
	uint64_t n, ops[TRACE_NR_OPS], bytes[TRACE_NR_OPS];
	uint64_t last_ns, min_len, max_len, with_resp, resp_sum, resp_max;
	uint64_t max_end, unsorted;
	uint64_t *per_dev;
	unsigned int ndev;
};

static int info_add(struct info *in, const struct trace_rec *r)
{
	if (r->dev >= in->ndev) {
		uint64_t *p = realloc(in->per_dev, (r->dev + 1) * sizeof(*p));

		if (!p)
			return -1;
		memset(p + in->ndev, 0, (r->dev + 1 - in->ndev) * sizeof(*p));
		in->per_dev = p;
		in->ndev = r->dev + 1;
	}
	in->per_dev[r->dev]++;
	if (in->n && r->t_ns < in->last_ns)
		in->unsorted++;
	if (r->t_ns > in->last_ns)
		in->last_ns = r->t_ns;
	in->n++;
	in->ops[r->op]++;
	in->bytes[r->op] += r->len;
	if (r->op != TRACE_FLUSH) {
		if (!in->min_len || r->len < in->min_len)
			in->min_len = r->len;
		if (r->len > in->max_len)
			in->max_len = r->len;
		if (r->offset + r->len > in->max_end)
			in->max_end = r->offset + r->len;
	}
	if (r->resp_ns) {
		in->with_resp++;
		in->resp_sum += r->resp_ns;
		if (r->resp_ns > in->resp_max)
			in->resp_max = r->resp_ns;
	}
	return 0;
}

static void info_print(const char *path, struct trace *t, const struct info *in)
{
	uint64_t data = in->n - in->ops[TRACE_FLUSH], bytes = 0;
	double secs = in->last_ns / 1e9;
	unsigned int i;

	printf("trace:     %s\n", path);
	printf("format:    %s\n", trace_format_name(trace_format_of(t)));
	printf("records:   %" PRIu64 "\n", in->n);
	printf("devices:   %u", trace_ndevs(t));
	for (i = 0; i < trace_ndevs(t); i++)
		printf("%s%s %" PRIu64, i ? ", " : " (", trace_dev_name(t, i),
		       i < in->ndev ? in->per_dev[i] : 0);
	printf("%s\n", trace_ndevs(t) ? ")" : "");
	printf("duration:  %.6f s\n", secs);
	for (i = 0; i < TRACE_NR_OPS; i++) {
		bytes += in->bytes[i];
		printf("%-10s %" PRIu64 " (%.2f%%), %" PRIu64 " bytes\n",
		       i == TRACE_READ ? "reads:" : i == TRACE_WRITE ? "writes:" :
		       i == TRACE_TRIM ? "trims:" : "flushes:", in->ops[i],
		       in->n ? 100.0 * in->ops[i] / in->n : 0.0, in->bytes[i]);
	}
	if (data)
		printf("size:      min %" PRIu64 ", mean %.0f, max %" PRIu64 " bytes\n",
		       in->min_len, (double)bytes / data, in->max_len);
	printf("span:      %" PRIu64 " bytes (the highest offset + length)\n", in->max_end);
	if (in->n > 1 && in->last_ns)
		printf("rate:      %.1f IOPS, %.1f bytes/s\n", in->n / secs, bytes / secs);
	if (in->with_resp)
		printf("response:  %" PRIu64 " records, mean %.1f us, max %.1f us\n",
		       in->with_resp, in->resp_sum / 1e3 / in->with_resp, in->resp_max / 1e3);
	else
		printf("response:  none recorded\n");
	if (in->unsorted)
		printf("unsorted:  %" PRIu64 " records earlier than the one before\n",
		       in->unsorted);
}

int cmd_trace_info(int argc, const char **argv)
{
	enum trace_format fmt = TRACE_FMT_AUTO;
	const struct ssl_opt *opt;
	const char *path = NULL, *val;
	struct info in = { 0 };
	struct trace_rec rec;
	int i = 1, dashdash = 0, records = 0, r;
	struct trace *t;
	char err[512];

	while (i < argc) {
		r = ssl_next_opt(argc, argv, &i, trace_info_opts, &opt, &val, &dashdash);
		if (r < 0)
			return 2;
		if (r == 2) {
			ssl_usage(stdout, trace_info_usage);
			return 0;
		}
		if (r == 3)
			continue;
		if (r == 0) {
			if (path) {
				ssl_err("trace-info: one TRACE, not '%s' too", argv[i - 1]);
				return 2;
			}
			path = argv[i - 1];
			continue;
		}
		if (opt->id == O_RECORDS) {
			if (val && ssl_parse_bool(val, &records)) {
				ssl_err("trace-info: --records=%s: want 0 or 1", val);
				return 2;
			}
			if (!val)
				records = 1;
			continue;
		}
		if (trace_format_parse(val, &fmt)) {
			ssl_err("trace-info: --trace-format=%s: not a format (auto, blktrace, iolog2, iolog3, msr, alibaba)",
				val);
			return 2;
		}
	}
	if (!path) {
		ssl_err("trace-info: which trace? (ssdload trace-info TRACE)");
		return 2;
	}
	t = trace_open(path, fmt, err, sizeof(err));
	if (!t) {
		ssl_err("trace-info: %s", err);
		return 1;
	}
	while ((r = trace_next(t, &rec)) > 0) {
		if (records)
			printf("%" PRIu64 " %s %" PRIu64 " %u %" PRIu64 " %s\n", rec.t_ns,
			       trace_op_name(rec.op), rec.offset, rec.len, rec.resp_ns,
			       trace_dev_name(t, rec.dev));
		if (info_add(&in, &rec)) {
			ssl_err("trace-info: out of memory");
			r = -2;
			break;
		}
	}
	if (r == -1)
		ssl_err("trace-info: %s", trace_error(t));
	else if (!r)
		info_print(path, t, &in);
	trace_close(t);
	free(in.per_dev);
	return r ? 1 : 0;
}
