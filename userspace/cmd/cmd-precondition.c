// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload precondition: write a whole device as --precondition=MODE says
 * (methods/precondition.c), on its own (a step of a review plan); and the
 * same for sweep, curve and scale (precond.h): the guard first, then the
 * passes, pts mode's WDPC ended by pts's steady-state rule (pts/ss.c).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/precond.h"
#include "core/util.h"
#include "device/device.h"
#include "device/guard.h"
#include "methods/method.h"
#include "methods/precondition.h"
#include "methods/runner.h"
#include "pts/ss.h"

#define PC_FORMAT		"ssdload-precondition"
#define PC_FORMAT_VERSION	1

/* pts/ss.c's rule over the WDPC's rounds so far: the last window steady? */
static bool pts_steady(const double *y, unsigned int n, json_object *rec)
{
	struct ssl_ss_limits l;
	struct ssl_ss_window w;

	ssl_ss_limits_default(&l);
	if (n < l.window)
		return false;
	ssl_ss_eval(y + n - l.window, l.window, n - l.window + 1, &l, &w);
	jset(rec, "window_first", json_object_new_int((int)w.first));
	jset(rec, "window_last", json_object_new_int((int)w.last));
	jset(rec, "range_pct", jdouble_or_null((double)w.range_pct));
	jset(rec, "slope_excursion_pct", jdouble_or_null((double)w.slope_exc_pct));
	jset(rec, "rule", json_object_new_string(SSL_SS_SPEC " " SSL_SS_CLAUSE));
	return ssl_ss_steady(&w);
}

/* The guard of one device; its capacity in *@cap.  0, or -1 refused. */
static int guard_one(const struct ssl_method *m, const char *path, uint64_t *cap)
{
	struct ssl_dev d;
	int fd, r;

	memset(&d, 0, sizeof(d));
	if (ssl_dev_probe(path, &d))
		return -1;
	*cap = d.capacity_bytes;
	fd = ssl_dev_open_excl(&d, 1);
	if (fd < 0)
		return -1;
	r = ssl_guard(&d, fd, m->force, m->dry_run);
	close(fd);
	return r;
}

int ssl_method_guard(const struct ssl_method *m, const char *const *devs, unsigned int n)
{
	char mode[32], sz[32];
	uint64_t cap, bytes;
	unsigned int i;
	int bad = 0;

	if (m->pc.mode == SSL_PC_NONE) {
		if (m->dry_run)
			fprintf(stderr, "ssdload: %s: --dry-run: no --precondition: nothing would be "
				"written before the measurement\n", m->cmd);
		return m->dry_run ? 1 : 0;
	}
	ssl_precond_str(&m->pc, mode, sizeof(mode));
	for (i = 0; i < n; i++) {
		if (guard_one(m, devs[i], &cap)) {
			bad = 1;
			continue;
		}
		if (!m->dry_run)
			continue;
		bytes = ssl_precond_promised(&m->pc, ssl_precond_span(&m->pc, cap));
		ssl_size_str(sz, sizeof(sz), bytes);
		fprintf(stderr, "ssdload: %s: --dry-run: --precondition=%s would write %s (%" PRIu64
			" bytes)%s to %s\n", m->cmd, mode, sz, bytes,
			m->pc.mode == SSL_PC_PTS ? " and its WDPC rounds" : "", devs[i]);
	}
	if (bad) {
		ssl_err("%s: --precondition: refused; nothing was written", m->cmd);
		return -1;
	}
	if (m->dry_run)
		fprintf(stderr, "ssdload: %s: --dry-run: nothing was written\n", m->cmd);
	return m->dry_run ? 1 : 0;
}

int ssl_method_precondition(const struct ssl_method *m, json_object *doc, const char *json,
			    const char *const *devs, unsigned int n)
{
	struct ssl_pc_target t = {
		.cmd = m->cmd, .eta = m->eta, .dir = m->dir, .steady = pts_steady,
	};
	json_object *top, *arr, *rec;
	uint64_t t0 = ssl_now_ms(), promised = 0, written = 0;
	char mode[32], tag[16] = "";
	unsigned int i;
	struct ssl_dev d;
	int st = 0;

	jset(doc, "section", jstr_or_null(m->span));
	if (m->pc.mode == SSL_PC_NONE) {
		jset(doc, "precondition", NULL);
		return 0;
	}
	ssl_precond_str(&m->pc, mode, sizeof(mode));
	top = json_object_new_object();
	arr = json_object_new_array();
	jset(top, "mode", json_object_new_string(mode));
	jset(top, "span", jstr_or_null(m->pc.span_arg[0] ? m->pc.span_arg : NULL));
	jset(top, "devices", arr);
	jset(doc, "precondition", top);
	for (i = 0; i < n && !st; i++) {
		memset(&d, 0, sizeof(d));
		if (ssl_dev_probe(devs[i], &d)) {
			st = 1;
			break;
		}
		if (n > 1)
			snprintf(tag, sizeof(tag), "d%u-", i + 1);
		t.filename = devs[i];
		t.tag = tag;
		t.span = ssl_precond_span(&m->pc, d.capacity_bytes);
		st = ssl_precond_run(&t, &m->pc, &rec);
		if (!rec)
			continue;
		jset(rec, "path", json_object_new_string(devs[i]));
		jset(rec, "capacity_bytes", json_object_new_int64((int64_t)d.capacity_bytes));
		jset(rec, "whole_device", json_object_new_boolean(t.span == d.capacity_bytes));
		promised += (uint64_t)jnum(rec, "bytes_promised", 0);
		written += (uint64_t)jnum(rec, "bytes_written", 0);
		json_object_array_add(arr, rec);
	}
	jset(top, "bytes_promised", json_object_new_int64((int64_t)promised));
	jset(top, "bytes_written", json_object_new_int64((int64_t)written));
	jset(top, "duration_ms", json_object_new_int64((int64_t)(ssl_now_ms() - t0)));
	jset(top, "complete", json_object_new_boolean(!st));
	if (ssl_method_save(m, doc, json))
		return 1;
	return st;
}

/* ---- the command ---- */

static const char *const pc_usage[] = {
	"usage: ssdload precondition --filename=DEV --precondition=MODE --allow_write",
	"                            [options]",
	"",
	"Write the whole device as sweep, curve and scale do with --precondition, on",
	"its own: a step of a review before the measurements.  The device's identity",
	"and what it holds are printed first; a device holding a signature",
	"(filesystem, partition table, RAID) is refused unless --force.  The record",
	"(mode, bytes written, time, each pass) goes to DIR/precondition.json.",
	"",
	"  --filename=DEV        the device (all of it is written, unless",
	"                        --precondition-span)",
	"  --precondition=MODE   fill, seq128k:N, random:N or pts[:TIME[:N]] (see",
	"                        ssdload sweep --help)",
	"  --precondition-span=SIZE|P%",
	"                        write only the device's first SIZE bytes or P%",
	"                        (review's --scale=quick: 64m); the record says so",
	"  --allow_write         required: the device's data is destroyed",
	SSL_PRECOND_GUARD_USAGE,
	"  --output-dir=DIR      where the record goes (default",
	"                        precondition-YYYYmmdd-HHMMSS)",
	"  --output-format=FMT   normal (default; where the record is) or json (the",
	"                        record on stdout)",
	"  --eta=WHEN            the passes' progress line: auto, always, never",
	"",
	"Exit status: 0 done, 1 a pass failed, 2 bad usage or a refusal (nothing was",
	"written), 128+N after signal N.",
	NULL,
};

static const struct ssl_opt pc_opts[] = {
	{ "filename",		SSL_ARG_REQUIRED, SSL_M_FILENAME },
	{ "output-dir",		SSL_ARG_REQUIRED, SSL_M_OUTPUT_DIR },
	{ "output-format",	SSL_ARG_REQUIRED, SSL_M_OUTPUT_FORMAT },
	{ "eta",		SSL_ARG_REQUIRED, SSL_M_ETA },
	{ "allow_write",	SSL_ARG_FLAG, SSL_M_PASS },
	{ "precondition",	SSL_ARG_REQUIRED, SSL_M_PRECOND },
	{ "precondition-span",	SSL_ARG_REQUIRED, SSL_M_PRECOND_SPAN },
	SSL_METHOD_GUARD_OPTS,
	{ NULL, 0, 0 },
};

static int pc_parse(void *ctx, int argc, const char **argv)
{
	struct ssl_method *m = ctx;
	const struct ssl_opt *opt;
	const char *val;
	int i = 1, r;

	r = ssl_method_next(m, argc, argv, &i, pc_opts, pc_usage, &opt, &val);
	if (r)
		return r < 0 ? -1 : 1;
	if (m->pc.mode == SSL_PC_NONE) {
		ssl_err("precondition: give --precondition=MODE (fill, seq128k:N, random:N or "
			"pts)");
		return -1;
	}
	return ssl_method_check(m);
}

static void pc_table(const void *ctx)
{
	const struct ssl_method *m = ctx;

	printf("results: %s/%s\n", m->dir, SSL_PC_JSON);
}

static int pc_main(void *ctx)
{
	struct ssl_method *m = ctx;
	json_object *doc;
	struct ssl_dev d;
	int r, st;

	r = ssl_method_guard(m, &m->filename, 1);
	if (r)
		return r > 0 ? 0 : SSL_GUARD_EXIT_REFUSED;
	if (ssl_make_outdir("precondition", m->dir, sizeof(m->dir), SSL_PC_JSON, &m->made_dir))
		return SSL_GUARD_EXIT_REFUSED;
	memset(&d, 0, sizeof(d));
	if (ssl_dev_probe(m->filename, &d))
		return 1;
	doc = ssl_method_doc(m, PC_FORMAT, PC_FORMAT_VERSION, &d);
	if (ssl_method_save(m, doc, SSL_PC_JSON)) {
		json_object_put(doc);
		return 1;
	}
	ssl_run_catch_signals();
	st = ssl_method_precondition(m, doc, SSL_PC_JSON, &m->filename, 1);
	if (ssl_method_finish(m, doc, SSL_PC_JSON, ssl_run_sig || st > 128 ? "interrupted" :
			      st ? "failed" : "done"))
		st = st ? st : 1;
	m->no_report = true;	/* the record is the JSON; a method's report shows its own */
	ssl_method_output(m, doc, pc_table, m);
	json_object_put(doc);
	return ssl_method_status(st, 1);
}

int cmd_precondition(int argc, const char **argv)
{
	struct ssl_method m;
	int r;

	memset(&m, 0, sizeof(m));
	m.cmd = "precondition";
	m.eta = "auto";
	r = ssl_method_main(&m, argc, argv, pc_parse, pc_main, &m);
	ssl_method_free(&m);
	return r;
}
