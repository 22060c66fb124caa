// SPDX-License-Identifier: GPL-2.0
/*
 * alibaba.c: the Alibaba Cloud block traces (github.com/alibaba/block-traces,
 * io_traces.csv), one CSV line an I/O:
 *
 *   device_id,opcode,offset,length,timestamp
 *   0,R,126703644672,4096,1577808000000626
 *
 * device_id is the virtual disk (0-999), opcode R or W, offset and length
 * are bytes, timestamp is when the server received the I/O, in
 * microseconds (Unix time).  The trace records no response time.  A first
 * line naming the columns is skipped.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace/csv.h"
#include "trace/trace-int.h"

#define ALI_FIELDS	5
#define ALI_TICK_NS	1000ULL

struct alibaba {
	struct csv csv;
	uint64_t first;		/* the first record's timestamp */
	int started;
};

static int ali_opcode(const char *s, enum trace_op *op)
{
	if (!strcasecmp(s, "R"))
		*op = TRACE_READ;
	else if (!strcasecmp(s, "W"))
		*op = TRACE_WRITE;
	else
		return -1;
	return 0;
}

static int ali_probe(const unsigned char *head, size_t len)
{
	struct csv c;
	enum trace_op op;

	if (csv_probe_line(head, len, &c) || c.nf != ALI_FIELDS)
		return 0;
	if (!strcasecmp(c.field[0], "device_id") && !strcasecmp(c.field[1], "opcode"))
		return 1;
	return csv_is_number(c.field[0]) && !ali_opcode(c.field[1], &op) &&
	       csv_is_number(c.field[2]) && csv_is_number(c.field[3]) &&
	       csv_is_number(c.field[4]);
}

static int ali_open(struct trace *t)
{
	t->priv = calloc(1, sizeof(struct alibaba));
	return t->priv ? 0 : trace_fail(t, "out of memory");
}

static int ali_record(struct trace *t, struct alibaba *a, struct trace_rec *rec)
{
	const struct csv *c = &a->csv;
	uint64_t id, off, len, ts;
	enum trace_op op;
	char name[24];
	int dev;

	if (c->nf != ALI_FIELDS)
		return csv_fail(t, c, "%u fields, want %d: device_id,opcode,offset,length,timestamp",
				c->nf, ALI_FIELDS);
	if (csv_u64(t, c, 0, "device_id", UINT32_MAX, &id) ||
	    csv_u64(t, c, 2, "offset", INT64_MAX, &off) ||
	    csv_u64(t, c, 3, "length", UINT32_MAX, &len) ||
	    csv_u64(t, c, 4, "timestamp", UINT64_MAX, &ts))
		return -1;
	if (ali_opcode(c->field[1], &op))
		return csv_fail(t, c, "opcode '%.40s' is neither R nor W", c->field[1]);
	if (!len)
		return csv_fail(t, c, "length 0: a zero-length I/O");
	if (off + len > INT64_MAX)
		return csv_fail(t, c, "offset + length is beyond 2^63 bytes");
	if (!a->started) {
		a->first = ts;
		a->started = 1;
	}
	if (ts < a->first)
		return csv_fail(t, c, "timestamp %llu is before the first record's (%llu): the trace is not in time order",
				(unsigned long long)ts, (unsigned long long)a->first);
	if (ts - a->first > UINT64_MAX / ALI_TICK_NS)
		return csv_fail(t, c, "timestamp too far from the first record's");
	snprintf(name, sizeof(name), "%llu", (unsigned long long)id);
	dev = trace_dev_index(t, name);
	if (dev < 0)
		return trace_fail(t, "out of memory");
	rec->t_ns = (ts - a->first) * ALI_TICK_NS;
	rec->offset = off;
	rec->len = (uint32_t)len;
	rec->resp_ns = 0;
	rec->dev = (uint32_t)dev;
	rec->op = (uint8_t)op;
	return 1;
}

static int ali_next(struct trace *t, struct trace_rec *rec)
{
	struct alibaba *a = t->priv;
	int r;

	for (;;) {
		r = csv_next(t, &a->csv);
		if (r <= 0)
			return r;
		if (a->csv.lineno == 1 && a->csv.nf == ALI_FIELDS &&
		    !strcasecmp(a->csv.field[0], "device_id"))
			continue;
		return ali_record(t, a, rec);
	}
}

static void ali_close(struct trace *t)
{
	free(t->priv);
	t->priv = NULL;
}

const struct trace_ops trace_alibaba_ops = {
	.fmt = TRACE_FMT_ALIBABA,
	.name = "alibaba",
	.probe = ali_probe,
	.open = ali_open,
	.next = ali_next,
	.close = ali_close,
};
