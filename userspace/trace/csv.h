/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csv.h: the comma-separated lines of the MSR Cambridge and Alibaba block
 * trace readers (trace/ only).
 *
 * A line is at most CSV_LINE_MAX bytes, "\r\n" or "\n" ended; empty lines
 * and lines starting with '#' are skipped.  Every error names the file and
 * the line number.
 */
#ifndef SSDLOAD_TRACE_CSV_H
#define SSDLOAD_TRACE_CSV_H

#include <stdint.h>

#include "trace/trace-int.h"

#define CSV_LINE_MAX	1024
#define CSV_FIELDS_MAX	16

struct csv {
	char line[CSV_LINE_MAX + 2];
	char *field[CSV_FIELDS_MAX];
	unsigned int nf;		/* fields of this line; CSV_FIELDS_MAX + 1: more */
	unsigned long lineno;		/* 1-based number of this line in the file */
};

/* 1: the next line split into c->field[]; 0: end of file; -1: error */
int csv_next(struct trace *t, struct csv *c);
/* the fields split from a probe's first line; -1 when there is none */
int csv_probe_line(const unsigned char *head, size_t len, struct csv *c);
/* field I as a decimal number below or equal to MAX; -1 with the reason */
int csv_u64(struct trace *t, const struct csv *c, unsigned int i,
	    const char *name, uint64_t max, uint64_t *v);
/* a failure at this line: "PATH: line N: ..." */
int csv_fail(struct trace *t, const struct csv *c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 1 when S is a decimal number (digits only, 1 to 20 of them) */
int csv_is_number(const char *s);

#endif /* SSDLOAD_TRACE_CSV_H */
