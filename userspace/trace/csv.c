// SPDX-License-Identifier: GPL-2.0
/*
 * csv.c: the comma-separated lines of the MSR Cambridge and Alibaba block
 * trace readers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/csv.h"

static void csv_split(struct csv *c)
{
	char *s = c->line, *comma;

	c->nf = 0;
	for (;;) {
		if (c->nf == CSV_FIELDS_MAX) {
			c->nf++;
			return;
		}
		c->field[c->nf++] = s;
		comma = strchr(s, ',');
		if (!comma)
			return;
		*comma = '\0';
		s = comma + 1;
	}
}

/* drop the line end and surrounding blanks of every field */
static void csv_trim(char *s)
{
	size_t n = strlen(s), b = strspn(s, " \t");

	while (n > b && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' ||
			 s[n - 1] == '\t'))
		n--;
	memmove(s, s + b, n - b);
	s[n - b] = '\0';
}

int csv_fail(struct trace *t, const struct csv *c, const char *fmt, ...)
{
	char why[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return trace_fail(t, "%s: line %lu: %s", t->path, c->lineno, why);
}

int csv_next(struct trace *t, struct csv *c)
{
	unsigned int i;
	size_t n;

	for (;;) {
		if (!fgets(c->line, sizeof(c->line), t->f)) {
			if (ferror(t->f))
				return trace_fail(t, "%s: after line %lu: %s", t->path,
						  c->lineno, strerror(errno));
			return 0;
		}
		c->lineno++;
		n = strlen(c->line);
		if (n == sizeof(c->line) - 1 && c->line[n - 1] != '\n')
			return csv_fail(t, c, "longer than %d bytes", CSV_LINE_MAX);
		/* fgets() reads past a NUL byte, strlen() stops at it */
		if ((!n || c->line[n - 1] != '\n') && !feof(t->f))
			return csv_fail(t, c, "a NUL byte: not a text file");
		csv_trim(c->line);
		if (!c->line[0] || c->line[0] == '#')
			continue;
		csv_split(c);
		if (c->nf > CSV_FIELDS_MAX)
			return csv_fail(t, c, "more than %d fields", CSV_FIELDS_MAX);
		for (i = 0; i < c->nf; i++)
			csv_trim(c->field[i]);
		return 1;
	}
}

int csv_probe_line(const unsigned char *head, size_t len, struct csv *c)
{
	size_t i = 0, n;
	unsigned int f;

	for (;;) {
		if (i >= len)
			return -1;
		n = 0;
		while (i + n < len && head[i + n] != '\n')
			n++;
		if (n > CSV_LINE_MAX || memchr(head + i, '\0', n))
			return -1;
		memcpy(c->line, head + i, n);
		c->line[n] = '\0';
		i += n + 1;
		csv_trim(c->line);
		if (c->line[0] && c->line[0] != '#')
			break;
	}
	csv_split(c);
	if (c->nf > CSV_FIELDS_MAX)
		return -1;
	for (f = 0; f < c->nf; f++)
		csv_trim(c->field[f]);
	c->lineno = 1;
	return 0;
}

int csv_is_number(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n && n <= 20 && !s[n];
}

int csv_u64(struct trace *t, const struct csv *c, unsigned int i,
	    const char *name, uint64_t max, uint64_t *v)
{
	const char *s = c->field[i];
	unsigned long long x;
	char *end;

	if (s[0] == '-' && csv_is_number(s + 1))
		return csv_fail(t, c, "%s %.40s is negative", name, s);
	if (!csv_is_number(s))
		return csv_fail(t, c, "%s '%.40s' is not a decimal number", name, s);
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x > max)
		return csv_fail(t, c, "%s %.40s is above %llu", name, s,
				(unsigned long long)max);
	*v = x;
	return 0;
}
