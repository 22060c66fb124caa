// SPDX-License-Identifier: GPL-2.0
/*
 * fio's log files from the in-kernel time series.
 *
 * fio logs every I/O unless log_avg_msec is set; then each window of a job
 * gives one line per direction with I/O: "msec, value, ddir, bs, offset",
 * bs and offset 0 (fio's __add_stat_to_log()).  The series is that window
 * per worker: bandwidth (KiB/s) and IOPS over the record's measured span,
 * the mean latency (ns) of its I/Os.  The histogram log has fio's bins
 * (1856 of them, fio's plat_val_to_idx()); each of ssdload's finer buckets
 * goes to the fio bin of the value it reports (its midpoint).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/ssdload.h"
#include "fio/fiolog.h"
#include "core/hist.h"
#include "core/results.h"
#include "core/util.h"

unsigned int ssl_fio_plat_idx(uint64_t ns)
{
	unsigned int msb, error_bits, base, offset, idx;

	msb = ns ? 63 - (unsigned int)__builtin_clzll(ns) : 0;
	if (msb <= SSL_FIO_PLAT_BITS)
		return (unsigned int)ns;
	error_bits = msb - SSL_FIO_PLAT_BITS;
	base = (error_bits + 1) << SSL_FIO_PLAT_BITS;
	offset = (SSL_FIO_PLAT_VAL - 1) & (unsigned int)(ns >> error_bits);
	idx = base + offset;
	return idx < SSL_FIO_PLAT_NR - 1 ? idx : SSL_FIO_PLAT_NR - 1;
}

static FILE *open_log(const char *prefix, const char *kind, unsigned int n,
		      struct ssl_atomic *a)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s_%s.%u.log", prefix, kind, n) >= (int)sizeof(path)) {
		ssl_err("%s_%s.%u.log: name too long", prefix, kind, n);
		return NULL;
	}
	return ssl_atomic_open(a, path);
}

/* the measured span of @r: from the ramp's end or its start, in ns */
static uint64_t measured_ns(const struct ssl_series_rec *r, uint64_t ramp_ns)
{
	uint64_t start = r->start_ns > ramp_ns ? r->start_ns : ramp_ns;

	return r->end_ns > start ? r->end_ns - start : 0;
}

/* bw, iops, lat and clat logs of worker @w */
static int simple_logs(const struct ssl_fio_logs *l, const struct ssl_results *res,
		       unsigned int w)
{
	static const char *const kinds[] = { "bw", "iops", "lat", "clat" };
	const struct ssl_series *s = &res->series;
	uint64_t ramp = res->sum.ramp_ns;
	struct ssl_atomic a[4];
	FILE *f[4] = { NULL };
	int k, d, r = 0;
	uint64_t i;

	for (k = 0; k < 4; k++) {
		const char *prefix = l->prefix[k < 3 ? k : SSL_LOG_LAT];

		if (prefix && !(f[k] = open_log(prefix, kinds[k], w + 1, &a[k])))
			r = -1;
	}
	for (i = 0; !r && i < s->hdr.nr_records; i++) {
		const struct ssl_series_rec *x = &s->rec[i];
		uint64_t span = measured_ns(x, ramp), msec;

		if (x->worker != w || x->end_ns <= ramp || !span)
			continue;
		msec = (x->end_ns - ramp) / 1000000;
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			const struct ssl_series_dir *y = &x->dir[d];
			uint64_t v[4];

			if (!y->ios)
				continue;
			v[0] = (uint64_t)((long double)y->bytes * 1e9L / span / 1024);
			v[1] = (uint64_t)((long double)y->ios * 1e9L / span);
			v[2] = v[3] = y->lat_sum_ns / y->ios;
			for (k = 0; k < 4; k++)
				if (f[k])
					fprintf(f[k], "%" PRIu64 ", %" PRIu64 ", %d, 0, 0\n", msec,
						v[k], d);
		}
	}
	for (k = 0; k < 4; k++) {
		if (f[k] && r)
			ssl_atomic_abort(&a[k]);
		else if (f[k] && ssl_atomic_commit(&a[k]))
			r = -1;
	}
	return r;
}

/* the clat_hist log of worker @w: every hist_ms, the bins added in it */
static int hist_log(const struct ssl_fio_logs *l, const struct ssl_results *res,
		    unsigned int w)
{
	const struct ssl_series *s = &res->series;
	uint64_t ramp = res->sum.ramp_ns, every, n = 0, i;
	uint64_t *bins[SSDLOAD_DIR_NR] = { NULL };
	struct ssl_bucket *b = NULL;
	struct ssl_atomic a;
	const char *path;
	int d, r = -1, any[SSDLOAD_DIR_NR] = { 0 };
	unsigned int k;
	long nb, j;
	FILE *f;

	every = s->hdr.interval_ns ? l->hist_ms * 1000000 / s->hdr.interval_ns : 1;
	if (!every)
		every = 1;
	f = open_log(l->prefix[SSL_LOG_HIST], "clat_hist", w + 1, &a);
	if (!f)
		return -1;
	path = a.path;
	b = calloc(s->max_pairs ? s->max_pairs : 1, sizeof(*b));
	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		bins[d] = calloc(SSL_FIO_PLAT_NR, sizeof(uint64_t));
	if (!b || !bins[0] || !bins[1] || !bins[2]) {
		ssl_err("%s: out of memory", path);
		goto out;
	}
	for (i = 0; i < s->hdr.nr_records; i++) {
		const struct ssl_series_rec *x = &s->rec[i];
		int last;

		if (x->worker != w || x->end_ns <= ramp)
			continue;
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			nb = ssl_delta_decode(x->dir[d].hist, x->dir[d].hist_len,
					      SSDLOAD_HIST_BUCKETS, b, s->max_pairs);
			if (nb < 0) {
				ssl_err("%s: a malformed histogram delta in the series", path);
				goto out;
			}
			for (j = 0; j < nb; j++) {
				bins[d][ssl_fio_plat_idx(ssdload_hist_value(b[j].idx))] +=
					b[j].count;
				any[d] = 1;
			}
		}
		/* the worker's last record closes a window too */
		last = i + 1 == s->hdr.nr_records || s->rec[i + 1].worker != w;
		if (++n % every && !last)
			continue;
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			if (!any[d])
				continue;
			fprintf(f, "%" PRIu64 ", %d, %" PRIu64, (x->end_ns - ramp) / 1000000, d,
				l->bs);
			for (k = 0; k < SSL_FIO_PLAT_NR; k++)
				fprintf(f, ", %" PRIu64, bins[d][k]);
			fputc('\n', f);
			memset(bins[d], 0, SSL_FIO_PLAT_NR * sizeof(uint64_t));
			any[d] = 0;
		}
	}
	r = 0;
out:
	if (r)
		ssl_atomic_abort(&a);
	else if (ssl_atomic_commit(&a))
		r = -1;
	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		free(bins[d]);
	free(b);
	return r;
}

int ssl_fio_logs_check(const struct ssl_fio_logs *l)
{
	unsigned int i;

	for (i = 0; i < SSL_LOG_NR; i++)
		if (l->prefix[i] && ssl_dir_check_file("fio log", l->prefix[i]))
			return -1;
	return 0;
}

int ssl_fio_logs_write(const struct ssl_fio_logs *l, const struct ssl_results *res)
{
	unsigned int w, nw;
	int r = 0;

	if (!res->series.present) {
		ssl_err("the job has no time series: no fio logs written");
		return -1;
	}
	if (ssl_fio_logs_check(l))
		return -1;
	nw = res->series.hdr.nr_workers;
	for (w = 0; w < nw; w++) {
		if ((l->prefix[SSL_LOG_BW] || l->prefix[SSL_LOG_IOPS] || l->prefix[SSL_LOG_LAT]) &&
		    simple_logs(l, res, w))
			r = -1;
		if (l->prefix[SSL_LOG_HIST] && hist_log(l, res, w))
			r = -1;
	}
	return r;
}
