// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c: a block trace summarised into a workload profile.
 *
 * The trace is read twice, each time as a stream (constant memory: the
 * distinct sizes, 100 region counters per direction and the completion
 * times of the I/Os in flight): the first pass finds the span, duration,
 * mix, sizes, sequential runs, inter-arrival times and concurrency; the
 * second counts the accesses per 1% region of the span and per time
 * window.  The zones are the best piecewise-constant fit of the regions'
 * access shares (dynamic programming over the 100 regions, least total
 * variation), with the fewest zones within 1 point of a 16-zone fit.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/profile.h"
#include "uapi/ssdload.h"

#define TP_BSSPLIT_MAX	64	/* fio's bssplit entries per direction */
#define TP_HEAP_MAX	(1U << 20)
#define TP_ZONE_SLACK	1.0	/* points above the best fit a smaller one may be */

struct tp_heap {
	uint64_t *v;
	unsigned int n, cap;
	int overflow;
};

struct tp_seq {
	uint64_t end;
	uint32_t dev;
	uint8_t op, used;
};

struct tp_pass {
	struct trace *t;
	int dev;		/* -1: every device */
	uint64_t n, prev_t;
	struct tp_heap heap;
	struct tp_seq seq[TP_SEQ_STREAMS];
	unsigned int seq_next;
};

static void heap_push(struct tp_heap *h, uint64_t v)
{
	unsigned int i;

	if (h->n == h->cap) {
		unsigned int cap = h->cap ? h->cap * 2 : 1024;
		uint64_t *nv;

		if (cap > TP_HEAP_MAX || !(nv = realloc(h->v, cap * sizeof(*nv)))) {
			h->overflow = 1;
			return;
		}
		h->v = nv;
		h->cap = cap;
	}
	for (i = h->n++; i && h->v[(i - 1) / 2] > v; i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = v;
}

static void heap_pop(struct tp_heap *h)
{
	uint64_t last = h->v[--h->n];
	unsigned int i = 0, c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (h->v[c] >= last)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
}

static int size_add(struct tp_dir *d, uint32_t size)
{
	unsigned int lo = 0, hi = d->nsizes, m;

	while (lo < hi) {
		m = (lo + hi) / 2;
		if (d->sizes[m].size < size)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo < d->nsizes && d->sizes[lo].size == size) {
		d->sizes[lo].n++;
		return 0;
	}
	if (d->nsizes == TP_SIZES_MAX) {
		/* full: the nearest size counted takes it */
		if (lo == d->nsizes || (lo && size - d->sizes[lo - 1].size <
					d->sizes[lo].size - size))
			lo--;
		d->sizes[lo].n++;
		return 0;
	}
	if (!d->sizes) {
		d->sizes = calloc(TP_SIZES_MAX, sizeof(*d->sizes));
		if (!d->sizes)
			return -1;
	}
	memmove(&d->sizes[lo + 1], &d->sizes[lo], (d->nsizes - lo) * sizeof(*d->sizes));
	d->sizes[lo].size = size;
	d->sizes[lo].n = 1;
	d->nsizes++;
	return 0;
}

static void seq_note(struct trace_profile *p, struct tp_pass *ps, const struct trace_rec *r)
{
	unsigned int i;

	for (i = 0; i < TP_SEQ_STREAMS; i++) {
		struct tp_seq *s = &ps->seq[i];

		if (s->used && s->dev == r->dev && s->op == r->op && s->end == r->offset) {
			p->dir[r->op].seq++;
			s->end = r->offset + r->len;
			return;
		}
	}
	ps->seq[ps->seq_next] = (struct tp_seq){ r->offset + r->len, r->dev, r->op, 1 };
	ps->seq_next = (ps->seq_next + 1) % TP_SEQ_STREAMS;
}

static void depth_note(struct trace_profile *p, struct tp_pass *ps, const struct trace_rec *r)
{
	struct tp_heap *h = &ps->heap;

	if (!r->resp_ns)
		return;
	p->with_resp++;
	p->resp_sum_ns += r->resp_ns;
	if (h->overflow)
		return;
	while (h->n && h->v[0] <= r->t_ns)
		heap_pop(h);
	heap_push(h, r->t_ns + r->resp_ns);
	p->depth[h->n < TP_DEPTH_MAX ? h->n : TP_DEPTH_MAX]++;
	if (h->n > p->depth_max)
		p->depth_max = h->n;
}

static int pass1(struct trace_profile *p, struct tp_pass *ps, const struct trace_rec *r)
{
	struct tp_dir *d = &p->dir[r->op];

	if (ps->n) {
		double x = r->t_ns >= ps->prev_t ? (double)(r->t_ns - ps->prev_t) : 0.0;
		double delta = x - p->ia_mean;

		p->ia_mean += delta / (double)ps->n;
		p->ia_m2 += delta * (x - p->ia_mean);
	}
	ps->prev_t = r->t_ns;
	ps->n++;
	p->n++;
	d->n++;
	d->bytes += r->len;
	if (r->t_ns > p->dur_ns)
		p->dur_ns = r->t_ns;
	depth_note(p, ps, r);
	if (r->op == TRACE_FLUSH)
		return 0;
	if (r->offset + r->len > p->span)
		p->span = r->offset + r->len;
	seq_note(p, ps, r);
	return size_add(d, r->len);
}

static void pass2(struct trace_profile *p, const struct trace_rec *r)
{
	unsigned int w = (unsigned int)((double)r->t_ns * TP_WINDOWS / ((double)p->dur_ns + 1));

	if (w >= TP_WINDOWS)
		w = TP_WINDOWS - 1;
	p->win_n[w]++;
	p->win_busy_ns[w] += (double)r->resp_ns;
	if (r->op != TRACE_FLUSH && p->span) {
		unsigned int g = (unsigned int)((double)r->offset * TP_REGIONS / (double)p->span);

		p->dir[r->op].region[g < TP_REGIONS ? g : TP_REGIONS - 1]++;
	}
}

/* one pass over PATH: 0, or -1 with ERR */
static int read_pass(const char *path, const struct tp_opts *o, struct trace_profile *p,
		     int second, char *err, size_t errlen)
{
	struct tp_pass ps = { .dev = -1 };
	struct trace_rec r;
	int ret = 0, k;

	ps.t = trace_open(path, o->fmt, err, errlen);
	if (!ps.t)
		return -1;
	snprintf(p->format, sizeof(p->format), "%s", trace_format_name(trace_format_of(ps.t)));
	while ((k = trace_next(ps.t, &r)) > 0) {
		if (o->device && ps.dev < 0 && !strcmp(trace_dev_name(ps.t, r.dev), o->device))
			ps.dev = (int)r.dev;
		if (o->device && (int)r.dev != ps.dev) {
			p->ignored += !second;
			continue;
		}
		if (second) {
			pass2(p, &r);
			ps.n++;
		} else if (pass1(p, &ps, &r)) {
			snprintf(err, errlen, "out of memory");
			ret = -1;
			break;
		}
	}
	if (k < 0) {
		snprintf(err, errlen, "%s", trace_error(ps.t));
		ret = -1;
	}
	if (!ret && second && ps.n != p->n) {
		snprintf(err, errlen, "%s: changed while it was read (%llu records, then %llu)",
			 path, (unsigned long long)p->n, (unsigned long long)ps.n);
		ret = -1;
	}
	if (!second)
		p->ndevs = trace_ndevs(ps.t);
	trace_close(ps.t);
	free(ps.heap.v);
	return ret;
}

/* ---- the zone fit ---- */

/* the segment [i, j) of P at its mean: sum |p - mean| */
static double seg_cost(const double *pr, unsigned int i, unsigned int j)
{
	double s = 0, c = 0;
	unsigned int r;

	for (r = i; r < j; r++)
		s += pr[r];
	s /= j - i;
	for (r = i; r < j; r++)
		c += fabs(pr[r] - s);
	return c;
}

/* rounded zones' total variation from the regions' shares, in points */
static double zones_err(const double *pr, const struct tp_zone *z, unsigned int nz)
{
	unsigned int k, r, at = 0;
	double e = 0;

	for (k = 0; k < nz; k++) {
		double q = z[k].access / 100.0 / z[k].size;

		for (r = at; r < at + z[k].size; r++)
			e += fabs(pr[r] - q);
		at += z[k].size;
	}
	return 50.0 * e;
}

/* integer access percentages summing to 100 (largest remainders) */
static void round_access(const double *share, unsigned int n, unsigned int *out)
{
	unsigned int k, left = 100, best;
	double rem[TP_BSSPLIT_MAX > TP_ZONES_MAX ? TP_BSSPLIT_MAX : TP_ZONES_MAX];

	for (k = 0; k < n; k++) {
		out[k] = (unsigned int)floor(share[k] * 100.0);
		rem[k] = share[k] * 100.0 - out[k];
		left -= out[k] <= left ? out[k] : left;
	}
	while (left--) {
		best = 0;
		for (k = 1; k < n; k++)
			if (rem[k] > rem[best])
				best = k;
		out[best]++;
		rem[best] = -1;
	}
}

static void fit_zones(struct tp_dir *d, unsigned int want)
{
	static double cost[TP_REGIONS + 1][TP_REGIONS + 1];
	double dp[TP_ZONES_MAX + 1][TP_REGIONS + 1], pr[TP_REGIONS], share[TP_ZONES_MAX];
	unsigned int from[TP_ZONES_MAX + 1][TP_REGIONS + 1], cut[TP_ZONES_MAX + 1];
	unsigned int i, j, k, nk = TP_ZONES_MAX, acc[TP_ZONES_MAX];

	for (i = 0; i < TP_REGIONS; i++)
		pr[i] = (double)d->region[i] / (double)d->n;
	for (i = 0; i < TP_REGIONS; i++)
		for (j = i + 1; j <= TP_REGIONS; j++)
			cost[i][j] = seg_cost(pr, i, j);
	for (j = 0; j <= TP_REGIONS; j++)
		dp[0][j] = j ? HUGE_VAL : 0;
	for (k = 1; k <= nk; k++) {
		for (j = 0; j <= TP_REGIONS; j++) {
			dp[k][j] = HUGE_VAL;
			from[k][j] = 0;
			for (i = k - 1; i < j; i++) {
				double c = dp[k - 1][i] + cost[i][j];

				if (c < dp[k][j]) {
					dp[k][j] = c;
					from[k][j] = i;
				}
			}
		}
	}
	if (want) {
		k = want < nk ? want : nk;
	} else {
		for (k = 1; k < nk && 50.0 * dp[k][TP_REGIONS] >
		     50.0 * dp[nk][TP_REGIONS] + TP_ZONE_SLACK; k++)
			;
	}
	cut[k] = TP_REGIONS;
	for (i = k; i > 0; i--)
		cut[i - 1] = from[i][cut[i]];
	for (i = 0; i < k; i++) {
		share[i] = 0;
		for (j = cut[i]; j < cut[i + 1]; j++)
			share[i] += pr[j];
	}
	round_access(share, k, acc);
	d->nzones = 0;
	for (i = 0; i < k; i++) {
		struct tp_zone *z = d->nzones ? &d->zone[d->nzones - 1] : NULL;

		/* neighbours of one density are one zone (uniform: 100/100) */
		if (z && acc[i] * z->size == z->access * (cut[i + 1] - cut[i])) {
			z->access += acc[i];
			z->size += cut[i + 1] - cut[i];
			continue;
		}
		d->zone[d->nzones].access = acc[i];
		d->zone[d->nzones++].size = cut[i + 1] - cut[i];
	}
	k = d->nzones;
	d->fit_err = zones_err(pr, d->zone, k);
}

int trace_profile_read(const char *path, const struct tp_opts *o,
		       struct trace_profile *p, char *err, size_t errlen)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	if (read_pass(path, o, p, 0, err, errlen))
		return -1;
	if (!p->n) {
		snprintf(err, errlen, "%s: no I/O%s%s", path, o->device ? " of device " : "",
			 o->device ? o->device : "");
		return -1;
	}
	if (read_pass(path, o, p, 1, err, errlen))
		return -1;
	for (i = 0; i < TRACE_NR_OPS; i++)
		if (i != TRACE_FLUSH && p->dir[i].n)
			fit_zones(&p->dir[i], o->zones);
	return 0;
}

void trace_profile_free(struct trace_profile *p)
{
	unsigned int i;

	for (i = 0; i < TRACE_NR_OPS; i++) {
		free(p->dir[i].sizes);
		p->dir[i].sizes = NULL;
	}
}

double tp_cv(const struct trace_profile *p)
{
	double sd;

	if (p->n < 3 || p->ia_mean <= 0)
		return 0;
	sd = sqrt(p->ia_m2 / (double)(p->n - 2));
	return sd / p->ia_mean;
}

double tp_seq_share(const struct trace_profile *p)
{
	uint64_t n = p->n - p->dir[TRACE_FLUSH].n;

	return n ? (double)(p->dir[TRACE_READ].seq + p->dir[TRACE_WRITE].seq +
			    p->dir[TRACE_TRIM].seq) / (double)n : 0;
}
