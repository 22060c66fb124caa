/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-int.h: what a trace format's reader implements (trace/ only).
 *
 * A format is one file, trace/FORMAT.c, exporting one struct trace_ops
 * listed in trace.c's formats[] table.
 */
#ifndef SSDLOAD_TRACE_TRACE_INT_H
#define SSDLOAD_TRACE_TRACE_INT_H

#include <stdio.h>

#include "trace/trace.h"

#define TRACE_PROBE_BYTES	4096

struct trace_ops {
	enum trace_format fmt;
	const char *name;
	/* 1 when the first LEN bytes of the file look like this format */
	int (*probe)(const unsigned char *head, size_t len);
	/* 0, or -1 with trace_fail(); t->f is open at the file's start */
	int (*open)(struct trace *t);
	/* as trace_next() */
	int (*next)(struct trace *t, struct trace_rec *rec);
	/* frees t->priv; t->f is closed by the caller */
	void (*close)(struct trace *t);
};

struct trace {
	const struct trace_ops *ops;
	FILE *f;		/* the file named by path, or NULL */
	char *path;
	void *priv;		/* the format's own state */
	char **devs;		/* device names, trace_dev_index() */
	unsigned int ndevs;
	char err[256];
};

/* record the reason for a failure; returns -1 */
int trace_fail(struct trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* the index of device NAME, added when first seen; -1 on ENOMEM */
int trace_dev_index(struct trace *t, const char *name);

#endif /* SSDLOAD_TRACE_TRACE_INT_H */
