// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c: open a block trace, detect its format, hand out its records.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/array_size.h"
#include "trace/trace-int.h"

extern const struct trace_ops trace_blktrace_ops;
extern const struct trace_ops trace_msr_ops;
extern const struct trace_ops trace_alibaba_ops;

/* one line per format reader, probed in this order; NULL ends the table */
static const struct trace_ops *const formats[] = {
	&trace_blktrace_ops,
	&trace_msr_ops,
	&trace_alibaba_ops,
	NULL,
};

static const char *const format_names[TRACE_NR_FORMATS] = {
	[TRACE_FMT_AUTO] = "auto",
	[TRACE_FMT_BLKTRACE] = "blktrace",
	[TRACE_FMT_IOLOG2] = "iolog2",
	[TRACE_FMT_IOLOG3] = "iolog3",
	[TRACE_FMT_MSR] = "msr",
	[TRACE_FMT_ALIBABA] = "alibaba",
};

static const char *const op_names[TRACE_NR_OPS] = {
	[TRACE_READ] = "read",
	[TRACE_WRITE] = "write",
	[TRACE_TRIM] = "trim",
	[TRACE_FLUSH] = "flush",
};

const char *trace_format_name(enum trace_format fmt)
{
	return (unsigned int)fmt < TRACE_NR_FORMATS ? format_names[fmt] : "?";
}

int trace_format_parse(const char *name, enum trace_format *fmt)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(format_names); i++) {
		if (!strcmp(name, format_names[i])) {
			*fmt = (enum trace_format)i;
			return 0;
		}
	}
	return -1;
}

const char *trace_op_name(enum trace_op op)
{
	return (unsigned int)op < TRACE_NR_OPS ? op_names[op] : "?";
}

int trace_fail(struct trace *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->err, sizeof(t->err), fmt, ap);
	va_end(ap);
	return -1;
}

int trace_dev_index(struct trace *t, const char *name)
{
	char **devs;
	unsigned int i;

	for (i = 0; i < t->ndevs; i++)
		if (!strcmp(t->devs[i], name))
			return (int)i;
	devs = realloc(t->devs, (t->ndevs + 1) * sizeof(*devs));
	if (!devs)
		return -1;
	t->devs = devs;
	devs[t->ndevs] = strdup(name);
	if (!devs[t->ndevs])
		return -1;
	return (int)t->ndevs++;
}

/* PATH.blktrace.0 exists: PATH names blktrace's per-CPU files */
static int blktrace_prefix(const char *path)
{
	size_t n = strlen(path);
	char *name = malloc(n + sizeof(".blktrace.0"));
	int ok;

	if (!name)
		return 0;
	memcpy(name, path, n);
	memcpy(name + n, ".blktrace.0", sizeof(".blktrace.0"));
	ok = !access(name, F_OK);
	free(name);
	return ok;
}

static void free_devs(struct trace *t)
{
	unsigned int i;

	for (i = 0; i < t->ndevs; i++)
		free(t->devs[i]);
	free(t->devs);
	t->devs = NULL;
	t->ndevs = 0;
}

static const struct trace_ops *find_format(enum trace_format fmt)
{
	size_t i;

	for (i = 0; formats[i]; i++)
		if (formats[i]->fmt == fmt)
			return formats[i];
	return NULL;
}

static const struct trace_ops *detect_format(FILE *f)
{
	unsigned char head[TRACE_PROBE_BYTES];
	size_t len, i;

	len = fread(head, 1, sizeof(head), f);
	rewind(f);
	for (i = 0; formats[i]; i++)
		if (formats[i]->probe && formats[i]->probe(head, len))
			return formats[i];
	return NULL;
}

struct trace *trace_open(const char *path, enum trace_format fmt,
			 char *err, size_t errlen)
{
	struct trace *t;

	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return NULL;
	}
	t->path = strdup(path);
	if (!t->path) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		goto free_trace;
	}
	t->f = fopen(path, "rb");
	if (!t->f && errno == ENOENT && fmt == TRACE_FMT_AUTO &&
	    blktrace_prefix(path))
		fmt = TRACE_FMT_BLKTRACE;	/* DEV for DEV.blktrace.N */
	if (!t->f && fmt != TRACE_FMT_BLKTRACE) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto free_path;
	}
	if (fmt == TRACE_FMT_AUTO) {
		t->ops = t->f ? detect_format(t->f) : NULL;
		if (!t->ops) {
			snprintf(err, errlen,
				 "%s: not a trace format ssdload reads; name it with --trace-format",
				 path);
			goto close_file;
		}
	} else {
		t->ops = find_format(fmt);
		if (!t->ops) {
			snprintf(err, errlen, "%s: trace format %s is not built in",
				 path, trace_format_name(fmt));
			goto close_file;
		}
	}
	if (t->ops->open(t)) {
		/* a reader's error may name a file of its own (blktrace's CPUs) */
		if (!strncmp(t->err, path, strlen(path)))
			snprintf(err, errlen, "%s", t->err);
		else
			snprintf(err, errlen, "%s: %s", path, t->err);
		goto close_format;
	}
	return t;

close_format:
	if (t->ops->close)
		t->ops->close(t);
	free_devs(t);
close_file:
	if (t->f)
		fclose(t->f);
free_path:
	free(t->path);
free_trace:
	free(t);
	return NULL;
}

int trace_next(struct trace *t, struct trace_rec *rec)
{
	return t->ops->next(t, rec);
}

const char *trace_error(const struct trace *t)
{
	return t->err;
}

enum trace_format trace_format_of(const struct trace *t)
{
	return t->ops->fmt;
}

unsigned int trace_ndevs(const struct trace *t)
{
	return t->ndevs;
}

const char *trace_dev_name(const struct trace *t, unsigned int dev)
{
	return dev < t->ndevs ? t->devs[dev] : NULL;
}

void trace_close(struct trace *t)
{
	if (!t)
		return;
	if (t->ops->close)
		t->ops->close(t);
	if (t->f)
		fclose(t->f);
	free_devs(t);
	free(t->path);
	free(t);
}
