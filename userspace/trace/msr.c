// SPDX-License-Identifier: GPL-2.0
/*
 * msr.c: the MSR Cambridge block traces (SNIA IOTTA), one CSV line an I/O:
 *
 *   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
 *   128166372003061629,hm,1,Read,3994305536,4096,53362
 *
 * Timestamp is a Windows filetime (100 ns units since 1601), ResponseTime
 * is in the same 100 ns units, Type is Read or Write, Offset and Size are
 * bytes.  The trace device is Hostname_DiskNumber ("hm_1", the name of
 * the published file).  A first line naming the columns is skipped.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace/csv.h"
#include "trace/trace-int.h"

#define MSR_FIELDS	7
#define MSR_TICK_NS	100ULL

struct msr {
	struct csv csv;
	uint64_t first;		/* the first record's Timestamp */
	int started;
};

static int msr_type(const char *s, enum trace_op *op)
{
	if (!strcasecmp(s, "Read"))
		*op = TRACE_READ;
	else if (!strcasecmp(s, "Write"))
		*op = TRACE_WRITE;
	else
		return -1;
	return 0;
}

static int msr_probe(const unsigned char *head, size_t len)
{
	struct csv c;
	enum trace_op op;

	if (csv_probe_line(head, len, &c) || c.nf != MSR_FIELDS)
		return 0;
	if (!strcasecmp(c.field[0], "Timestamp") && !strcasecmp(c.field[3], "Type"))
		return 1;
	return csv_is_number(c.field[0]) && csv_is_number(c.field[2]) &&
	       !msr_type(c.field[3], &op) && csv_is_number(c.field[4]) &&
	       csv_is_number(c.field[5]) && csv_is_number(c.field[6]);
}

static int msr_open(struct trace *t)
{
	t->priv = calloc(1, sizeof(struct msr));
	return t->priv ? 0 : trace_fail(t, "out of memory");
}

static int msr_record(struct trace *t, struct msr *m, struct trace_rec *rec)
{
	const struct csv *c = &m->csv;
	uint64_t ts, disk, off, size, resp;
	char name[CSV_LINE_MAX + 24];
	enum trace_op op;
	int dev;

	if (c->nf != MSR_FIELDS)
		return csv_fail(t, c, "%u fields, want %d: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
				c->nf, MSR_FIELDS);
	if (csv_u64(t, c, 0, "Timestamp", UINT64_MAX, &ts) ||
	    csv_u64(t, c, 2, "DiskNumber", UINT32_MAX, &disk) ||
	    csv_u64(t, c, 4, "Offset", INT64_MAX, &off) ||
	    csv_u64(t, c, 5, "Size", UINT32_MAX, &size) ||
	    csv_u64(t, c, 6, "ResponseTime", UINT64_MAX / MSR_TICK_NS, &resp))
		return -1;
	if (!c->field[1][0])
		return csv_fail(t, c, "no Hostname");
	if (msr_type(c->field[3], &op))
		return csv_fail(t, c, "Type '%.40s' is neither Read nor Write", c->field[3]);
	if (!size)
		return csv_fail(t, c, "Size 0: a zero-length I/O");
	if (off + size < off || off + size > INT64_MAX)
		return csv_fail(t, c, "Offset + Size is beyond 2^63 bytes");
	if (!m->started) {
		m->first = ts;
		m->started = 1;
	}
	if (ts < m->first)
		return csv_fail(t, c, "Timestamp %llu is before the first record's (%llu): the trace is not in time order",
				(unsigned long long)ts, (unsigned long long)m->first);
	if ((ts - m->first) > UINT64_MAX / MSR_TICK_NS)
		return csv_fail(t, c, "Timestamp too far from the first record's");
	snprintf(name, sizeof(name), "%s_%llu", c->field[1], (unsigned long long)disk);
	dev = trace_dev_index(t, name);
	if (dev < 0)
		return trace_fail(t, "out of memory");
	rec->t_ns = (ts - m->first) * MSR_TICK_NS;
	rec->offset = off;
	rec->len = (uint32_t)size;
	rec->resp_ns = resp * MSR_TICK_NS;
	rec->dev = (uint32_t)dev;
	rec->op = (uint8_t)op;
	return 1;
}

static int msr_next(struct trace *t, struct trace_rec *rec)
{
	struct msr *m = t->priv;
	int r;

	for (;;) {
		r = csv_next(t, &m->csv);
		if (r <= 0)
			return r;
		/* the column names, on the first line only */
		if (m->csv.lineno == 1 && m->csv.nf == MSR_FIELDS &&
		    !strcasecmp(m->csv.field[0], "Timestamp"))
			continue;
		return msr_record(t, m, rec);
	}
}

static void msr_close(struct trace *t)
{
	free(t->priv);
	t->priv = NULL;
}

const struct trace_ops trace_msr_ops = {
	.fmt = TRACE_FMT_MSR,
	.name = "msr",
	.probe = msr_probe,
	.open = msr_open,
	.next = msr_next,
	.close = msr_close,
};
