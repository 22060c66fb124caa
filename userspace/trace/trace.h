/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h: recorded block traces read as one stream of records.
 *
 * Every format (blktrace's binary output, fio's iolog v2 and v3, the MSR
 * Cambridge and Alibaba block trace CSVs) is read through the same
 * reader: trace_open() detects or takes the format, trace_next() returns
 * one record at a time in the trace's own order, so a trace larger than
 * memory streams.  Times are relative to the trace's first record.
 * Documentation/replay.rst describes the formats and the mapping.
 */
#ifndef SSDLOAD_TRACE_TRACE_H
#define SSDLOAD_TRACE_TRACE_H

#include <stddef.h>
#include <stdint.h>

enum trace_op {
	TRACE_READ,
	TRACE_WRITE,
	TRACE_TRIM,
	TRACE_FLUSH,
	TRACE_NR_OPS,
};

enum trace_format {
	TRACE_FMT_AUTO,		/* detect from the first bytes */
	TRACE_FMT_BLKTRACE,	/* DEV.blktrace.N per-CPU binary files */
	TRACE_FMT_IOLOG2,	/* fio version 2 iolog */
	TRACE_FMT_IOLOG3,	/* fio version 3 iolog (timestamps) */
	TRACE_FMT_MSR,		/* MSR Cambridge CSV (SNIA IOTTA) */
	TRACE_FMT_ALIBABA,	/* Alibaba cloud block trace CSV */
	TRACE_NR_FORMATS,
};

struct trace_rec {
	uint64_t t_ns;		/* issue time since the trace's first record */
	uint64_t offset;	/* bytes from the start of the trace device */
	uint64_t resp_ns;	/* recorded response time; 0: none recorded */
	uint32_t len;		/* bytes; 0 for a flush */
	uint32_t dev;		/* trace device, 0.. in first-seen order */
	uint8_t op;		/* enum trace_op */
};

struct trace;

/*
 * Open PATH as FMT (TRACE_FMT_AUTO: detect).  NULL on failure, with the
 * reason in ERR (ERRLEN bytes, may be 0).
 */
struct trace *trace_open(const char *path, enum trace_format fmt,
			 char *err, size_t errlen);
/* 1: *REC holds the next record; 0: end of trace; -1: error (trace_error) */
int trace_next(struct trace *t, struct trace_rec *rec);
const char *trace_error(const struct trace *t);
enum trace_format trace_format_of(const struct trace *t);
/* the trace's devices seen so far, and their names in the trace */
unsigned int trace_ndevs(const struct trace *t);
const char *trace_dev_name(const struct trace *t, unsigned int dev);
void trace_close(struct trace *t);

const char *trace_format_name(enum trace_format fmt);
/* 0 and *FMT set for a known name ("auto", "blktrace", "iolog2", ...) */
int trace_format_parse(const char *name, enum trace_format *fmt);
const char *trace_op_name(enum trace_op op);

#endif /* SSDLOAD_TRACE_TRACE_H */
