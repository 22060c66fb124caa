// SPDX-License-Identifier: GPL-2.0
/*
 * iolog.c: fio's iolog, versions 2 and 3 (fio's iolog.c, read_iolog()).
 *
 *   fio version 2 iolog            fio version 3 iolog
 *   FILE add                       USEC FILE add
 *   FILE open                      USEC FILE open
 *   FILE read|write|trim OFF LEN   USEC FILE read|write|trim OFF LEN
 *   FILE sync|datasync 0 0         USEC FILE sync|datasync 0 0
 *   FILE wait MSEC 0               USEC FILE close
 *   FILE close
 *
 * Version 3's first field is the time of the entry in microseconds since
 * fio started (utime_since_now() of io_log_start_time), which fio's
 * replay honours between entries.  Version 2 has no times: fio replays it
 * as fast as it can, except at a "wait" entry, which holds the replay
 * until MSEC milliseconds after the start.  So a version 2 record's time
 * is that of the latest wait before it (0 without one).  Each FILE is a
 * trace device, in the order the log first names it.  Times are relative
 * to the first I/O entry.  Anything fio would skip with a complaint (an
 * unknown action, a line of the wrong shape) is refused here with its
 * line number: a replay must not silently drop I/O.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace-int.h"

#define IOLOG_V2	"fio version 2 iolog"
#define IOLOG_V3	"fio version 3 iolog"
#define IOLOG_LINE	4096
#define IOLOG_FIELDS	6

struct iolog {
	int version;			/* 2 or 3 */
	unsigned long line;		/* of the last line read */
	unsigned long long last_t;	/* v3: us of the last entry; v2: wait ns */
	unsigned long long base_t;	/* v3: us of the first I/O entry */
	int have_base;
	char buf[IOLOG_LINE];
};

static int iolog_starts(const unsigned char *head, size_t len,
			const char *line)
{
	size_t n = strlen(line);

	return len > n && !memcmp(head, line, n) &&
	       (head[n] == '\n' || head[n] == '\r');
}

static int iolog2_probe(const unsigned char *head, size_t len)
{
	return iolog_starts(head, len, IOLOG_V2);
}

static int iolog3_probe(const unsigned char *head, size_t len)
{
	return iolog_starts(head, len, IOLOG_V3);
}

static int iolog_open(struct trace *t)
{
	struct iolog *l = calloc(1, sizeof(*l));

	if (!l)
		return trace_fail(t, "%s", strerror(ENOMEM));
	t->priv = l;
	if (!fgets(l->buf, sizeof(l->buf), t->f))
		return trace_fail(t, "empty file, not a fio iolog");
	l->line = 1;
	if (!strncmp(l->buf, IOLOG_V2, strlen(IOLOG_V2)))
		l->version = 2;
	else if (!strncmp(l->buf, IOLOG_V3, strlen(IOLOG_V3)))
		l->version = 3;
	else
		return trace_fail(t, "line 1: not \"%s\" or \"%s\" (fio's iolog version 1 is not read)",
				  IOLOG_V2, IOLOG_V3);
	return 0;
}

/* An unsigned decimal number, the whole of @s: 0, or -1. */
static int iolog_num(const char *s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* Split @s at blanks into at most @max fields; returns their number. */
static int iolog_split(char *s, char **f, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			*s++ = '\0';
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			s++;
	}
}

static int iolog_action(const char *act, uint8_t *op)
{
	static const struct {
		const char *name;
		uint8_t op;
	} acts[] = {
		{ "read", TRACE_READ }, { "write", TRACE_WRITE },
		{ "trim", TRACE_TRIM }, { "sync", TRACE_FLUSH },
		{ "datasync", TRACE_FLUSH },
	};
	size_t i;

	for (i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		if (!strcmp(act, acts[i].name)) {
			*op = acts[i].op;
			return 0;
		}
	}
	return -1;
}

/* A file action (add, open, close, unlink): its device is noted. */
static int iolog_file_act(struct trace *t, struct iolog *l, char **f)
{
	if (strcmp(f[1], "add") && strcmp(f[1], "open") &&
	    strcmp(f[1], "close") && strcmp(f[1], "unlink"))
		return trace_fail(t, "line %lu: unknown file action \"%s\"",
				  l->line, f[1]);
	if (trace_dev_index(t, f[0]) < 0)
		return trace_fail(t, "%s", strerror(ENOMEM));
	return 0;
}

/* v3: the entry's time; times may not go back. */
static int iolog_time(struct trace *t, struct iolog *l, const char *s,
		      unsigned long long *us)
{
	if (iolog_num(s, us))
		return trace_fail(t, "line %lu: time \"%s\" is not a number of microseconds",
				  l->line, s);
	if (*us < l->last_t)
		return trace_fail(t, "line %lu: time %llu us is before the previous entry's %llu us (unsorted)",
				  l->line, *us, l->last_t);
	l->last_t = *us;
	return 0;
}

/* One I/O entry: FILE ACTION OFFSET LENGTH (after v3's time). */
static int iolog_io(struct trace *t, struct iolog *l, char **f,
		    unsigned long long us, struct trace_rec *rec)
{
	unsigned long long off, len;
	int dev;

	if (iolog_action(f[1], &rec->op))
		return trace_fail(t, "line %lu: unknown action \"%s\"",
				  l->line, f[1]);
	if (f[2][0] == '-')
		return trace_fail(t, "line %lu: negative offset %s",
				  l->line, f[2]);
	if (iolog_num(f[2], &off) || iolog_num(f[3], &len))
		return trace_fail(t, "line %lu: offset \"%s\" or length \"%s\" is not a number",
				  l->line, f[2], f[3]);
	if (rec->op != TRACE_FLUSH && !len)
		return trace_fail(t, "line %lu: zero-length %s",
				  l->line, f[1]);
	if (len > UINT32_MAX)
		return trace_fail(t, "line %lu: length %llu is too large",
				  l->line, len);
	dev = trace_dev_index(t, f[0]);
	if (dev < 0)
		return trace_fail(t, "%s", strerror(ENOMEM));
	if (l->version == 3) {
		if (!l->have_base) {
			l->base_t = us;
			l->have_base = 1;
		}
		rec->t_ns = (us - l->base_t) * 1000;
	} else {
		rec->t_ns = l->last_t;
	}
	rec->offset = rec->op == TRACE_FLUSH ? 0 : off;
	rec->len = rec->op == TRACE_FLUSH ? 0 : (uint32_t)len;
	rec->resp_ns = 0;
	rec->dev = (uint32_t)dev;
	return 1;
}

/* v2's wait: FILE wait MSEC 0, the time of the records after it. */
static int iolog_wait(struct trace *t, struct iolog *l, char **f)
{
	unsigned long long ms;

	if (l->version == 3)
		return trace_fail(t, "line %lu: \"wait\" in a version 3 iolog (fio ignores it; its times say when)",
				  l->line);
	if (iolog_num(f[2], &ms) || ms > UINT64_MAX / 1000000)
		return trace_fail(t, "line %lu: wait \"%s\" is not a number of milliseconds",
				  l->line, f[2]);
	if (ms * 1000000 > l->last_t)
		l->last_t = ms * 1000000;
	return 0;
}

static int iolog_next(struct trace *t, struct trace_rec *rec)
{
	struct iolog *l = t->priv;
	char *f[IOLOG_FIELDS];
	unsigned long long us = 0;
	int n, skip;

	while (fgets(l->buf, sizeof(l->buf), t->f)) {
		l->line++;
		if (!strchr(l->buf, '\n') && !feof(t->f))
			return trace_fail(t, "line %lu: longer than %d bytes",
					  l->line, IOLOG_LINE - 1);
		n = iolog_split(l->buf, f, IOLOG_FIELDS - 1);
		if (!n)
			continue;
		skip = l->version == 3;
		if (skip && iolog_time(t, l, f[0], &us))
			return -1;
		n -= skip;
		if (n == 2) {
			if (iolog_file_act(t, l, f + skip))
				return -1;
			continue;
		}
		if (n != 4)
			return trace_fail(t, "line %lu: %d fields, not an fio iolog%d entry",
					  l->line, n + skip, l->version);
		if (!strcmp(f[skip + 1], "wait")) {
			if (iolog_wait(t, l, f + skip))
				return -1;
			continue;
		}
		return iolog_io(t, l, f + skip, us, rec);
	}
	if (ferror(t->f))
		return trace_fail(t, "line %lu: %s", l->line + 1, strerror(errno));
	return 0;
}

static void iolog_close(struct trace *t)
{
	free(t->priv);
	t->priv = NULL;
}

const struct trace_ops trace_iolog2_ops = {
	.fmt = TRACE_FMT_IOLOG2,
	.name = "iolog2",
	.probe = iolog2_probe,
	.open = iolog_open,
	.next = iolog_next,
	.close = iolog_close,
};

/* the same reader: the first line says which version a file is */
const struct trace_ops trace_iolog3_ops = {
	.fmt = TRACE_FMT_IOLOG3,
	.name = "iolog3",
	.probe = iolog3_probe,
	.open = iolog_open,
	.next = iolog_next,
	.close = iolog_close,
};
