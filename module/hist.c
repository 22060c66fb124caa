// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: latency recording and statistics.
 *
 * Each worker records into its own per-direction histograms (the
 * log-linear geometry of uapi/ssdload.h) plus exact min, max, sum and
 * sum of squares.  Readers sum the workers.  The worker writes its
 * scalars inside a seqcount section (one per reap batch, preemption off),
 * so a live reader gets a consistent set per worker; the histogram
 * buckets are read one by one, each exact at the moment it is read.
 * Once a run ended every figure is final and exact.
 *
 * This file calls nothing in job.c or worker.c: a failed I/O is counted
 * here, and its worker reports it.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ssdload.h"

int ssdload_dstat_init(struct ssdload_dstat *d, int node)
{
	d->hist = kvzalloc_node(SSDLOAD_HIST_BUCKETS * sizeof(u64), GFP_KERNEL,
				node);
	if (!d->hist)
		return -ENOMEM;
	d->lat_min = U64_MAX;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_dstat_init);

void ssdload_dstat_free(struct ssdload_dstat *d)
{
	kvfree(d->hist);
	d->hist = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_dstat_free);

/*
 * The per-device counters of a job with several devices (with one, the
 * device's figures are the worker's own: nothing more to count per I/O).
 */
static void ssdload_record_dev(struct ssdload_worker *w,
			       const struct ssdload_io *io)
{
	struct ssdload_devstat *ds = &w->wd[io->dev].st[io->dir];

	WRITE_ONCE(ds->done, ds->done + 1);
	if (io->status) {
		WRITE_ONCE(ds->errors, ds->errors + 1);
		return;
	}
	if (!io->measured)
		return;
	WRITE_ONCE(ds->ios, ds->ios + 1);
	WRITE_ONCE(ds->bytes, ds->bytes + io->len);
	if (!w->compl.nolat)
		WRITE_ONCE(ds->lat_sum,
			   ds->lat_sum + io->done_ns - io->submit_ns);
}

/* One sample of @lat ns into @d's extremes, sums and histogram. */
static void ssdload_dstat_add(struct ssdload_dstat *d, u64 lat)
{
	if (lat < d->lat_min)
		d->lat_min = lat;
	if (lat > d->lat_max)
		d->lat_max = lat;
	d->lat_sum += lat;
	d->lat_sumsq += (u128)lat * lat;
	if (unlikely(lat > SSDLOAD_HIST_MAX_VALUE))
		d->overflow++;
	d->hist[ssdload_hist_index(lat)]++;
}

/*
 * Rate control: the latency from the I/O's intended send time, which
 * includes any wait for a free I/O (the device falling behind), and
 * whether it went out late.  An I/O never goes out before its time.
 */
static void ssdload_record_intended(struct ssdload_worker *w,
				    const struct ssdload_io *io)
{
	struct ssdload_dstat *d = &w->res.ist[io->dir];

	WRITE_ONCE(d->ios, d->ios + 1);
	if (io->submit_ns > io->intended_ns + SSDLOAD_LATE_NS)
		WRITE_ONCE(d->late, d->late + 1);
	ssdload_dstat_add(d, io->done_ns - io->intended_ns);
}

/*
 * Steps: the I/O counts in the step that issued it too.  (Steps need
 * latencies: disable_lat is refused with them.)
 */
void ssdload_record_step(struct ssdload_worker *w,
			 const struct ssdload_io *io)
{
	struct ssdload_pstat *ps = &w->pst[io->phase];
	struct ssdload_dstat *d = &ps->st[io->dir];
	struct ssdload_dstat *id = &ps->ist[io->dir];

	WRITE_ONCE(d->done, d->done + 1);
	if (unlikely(io->status)) {
		WRITE_ONCE(d->errors, d->errors + 1);
		return;
	}
	if (!io->measured || !d->hist)
		return;
	WRITE_ONCE(d->ios, d->ios + 1);
	WRITE_ONCE(d->bytes, d->bytes + io->len);
	ssdload_dstat_add(d, io->done_ns - io->submit_ns);
	if (io->done_ns > ps->last_ns)
		WRITE_ONCE(ps->last_ns, io->done_ns);
	if (!io->intended_ns || !id->hist)
		return;
	WRITE_ONCE(id->ios, id->ios + 1);
	if (io->submit_ns > io->intended_ns + SSDLOAD_LATE_NS)
		WRITE_ONCE(id->late, id->late + 1);
	ssdload_dstat_add(id, io->done_ns - io->intended_ns);
}

/*
 * Count one reaped bio in @d: done, and errors or measured ios.  True if
 * it was measured and completed without error (its latency to record).
 */
static inline bool ssdload_dstat_reap(struct ssdload_dstat *d,
				      const struct ssdload_io *io)
{
	WRITE_ONCE(d->done, d->done + 1);
	if (unlikely(io->status)) {
		WRITE_ONCE(d->errors, d->errors + 1);
		return false;
	}
	if (!io->measured)
		return false;
	WRITE_ONCE(d->ios, d->ios + 1);
	return true;
}

/*
 * Account one reaped I/O.  Only the owning worker calls this.  With
 * disable_lat there is no per-I/O timestamp: the worker's next clock read
 * stands in for the completion time (reaped_measured).
 */
void ssdload_record(struct ssdload_worker *w, struct ssdload_io *io)
{
	struct ssdload_dstat *d = &w->res.st[io->dir];
	u64 lat;

	if (unlikely(w->pst))
		ssdload_record_step(w, io);
	if (unlikely(w->nr_devs > 1))
		ssdload_record_dev(w, io);
	if (!ssdload_dstat_reap(d, io))
		return;
	d->bytes += io->len;
	if (w->compl.nolat) {
		w->res.reaped_measured = true;
		return;
	}
	lat = io->done_ns - io->submit_ns;
	ssdload_dstat_add(d, lat);
	if (unlikely(w->ser))
		ssdload_series_lat(w->ser, io->dir, lat);
	if (unlikely(io->intended_ns))
		ssdload_record_intended(w, io);
	if (io->done_ns > w->res.last_done_ns)
		w->res.last_done_ns = io->done_ns;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_record);

/*
 * Account one reaped flush (flush.c): its own statistics, as fio keeps
 * its sync latencies apart from the writes'.  With disable_lat only the
 * count.
 */
void ssdload_record_sync(struct ssdload_worker *w, struct ssdload_io *io)
{
	struct ssdload_dstat *d = &w->res.sync;

	if (ssdload_dstat_reap(d, io) && !w->compl.nolat)
		ssdload_dstat_add(d, io->done_ns - io->submit_ns);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_record_sync);

/*
 * A consistent copy of worker @w's scalars of direction @dir (not the
 * histogram pointer).  The writer's section runs with preemption off, so
 * the retry loop cannot wait on a writer that was scheduled out.
 */
static void ssdload_dstat_copy(const struct ssdload_worker *w,
			       const struct ssdload_dstat *src,
			       struct ssdload_dstat *out)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&w->res.seq);
		*out = *src;
	} while (read_seqcount_retry(&w->res.seq, seq));
	out->hist = NULL;
}

void ssdload_worker_sum(const struct ssdload_worker *w, int dir,
			struct ssdload_dstat *out)
{
	ssdload_dstat_copy(w, &w->res.st[dir], out);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_worker_sum);

/*
 * Sum direction @dir over the job's workers, the latencies from submission
 * or (@intended) from the intended send time, of the whole run or (@phase
 * >= 0, steps) of one phase; @hist (optional) gets the counts.
 */
static void ssdload_sum_stats(struct ssdload_job *job, int phase, int dir,
			      bool intended, struct ssdload_sum *s, u64 *hist)
{
	unsigned int i, b;

	memset(s, 0, sizeof(*s));
	s->lat_min = U64_MAX;
	if (hist)
		memset(hist, 0, SSDLOAD_HIST_BUCKETS * sizeof(u64));
	for (i = 0; i < job->nr_workers; i++) {
		const struct ssdload_worker *w = job->workers[i];
		const struct ssdload_dstat *src;
		const u64 *h;
		struct ssdload_dstat d;

		if (dir == SSDLOAD_HIST_DIR_SYNC) {
			if (intended || phase >= 0)
				continue;
			src = &w->res.sync;
		} else {
			src = intended ? &w->res.ist[dir] : &w->res.st[dir];
		}
		if (phase >= 0 && !w->pst)
			continue;
		if (phase >= 0)
			src = intended ? &w->pst[phase].ist[dir] :
					 &w->pst[phase].st[dir];
		h = src->hist;

		ssdload_dstat_copy(w, src, &d);
		s->ios += d.ios;
		s->bytes += d.bytes;
		s->errors += d.errors;
		s->done += d.done;
		s->lat_min = min(s->lat_min, d.lat_min);
		s->lat_max = max(s->lat_max, d.lat_max);
		s->lat_sum += d.lat_sum;
		s->lat_sumsq += d.lat_sumsq;
		s->overflow += d.overflow;
		s->late += d.late;
		if (hist && h)
			for (b = 0; b < SSDLOAD_HIST_BUCKETS; b++)
				hist[b] += READ_ONCE(h[b]);
	}
	if (s->lat_min == U64_MAX)	/* no samples (or disable_lat) */
		s->lat_min = 0;
}

void ssdload_sum_dir(struct ssdload_job *job, int dir, struct ssdload_sum *s,
		     u64 *hist)
{
	ssdload_sum_stats(job, -1, dir, false, s, hist);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_sum_dir);

void ssdload_sum_intended(struct ssdload_job *job, int dir,
			  struct ssdload_sum *s, u64 *hist)
{
	ssdload_sum_stats(job, -1, dir, true, s, hist);
}

/* The statistics of direction @dir in phase @phase of a run with steps. */
void ssdload_sum_step(struct ssdload_job *job, unsigned int phase, int dir,
		      bool intended, struct ssdload_sum *s, u64 *hist)
{
	ssdload_sum_stats(job, phase, dir, intended, s, hist);
}

/* Mean latency, rounded to the nearest ns. */
u64 ssdload_sum_mean(const struct ssdload_sum *s)
{
	if (!s->ios)
		return 0;
	return div64_u64(s->lat_sum + s->ios / 2, s->ios);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_sum_mean);

/* u128 / u64, by shift and subtract (no libgcc __udivti3 in the kernel). */
static u128 ssdload_div128(u128 n, u64 d)
{
	u128 q = 0, r = 0;
	int i;

	for (i = 127; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= (u128)1 << i;
		}
	}
	return q;
}

/* Integer square root of a u128, rounded to the nearest integer. */
static u64 ssdload_sqrt128(u128 x)
{
	u128 res = 0, bit = (u128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= res + bit) {
			x -= res + bit;
			res = (res >> 1) + bit;
		} else {
			res >>= 1;
		}
		bit >>= 2;
	}
	/* x is now the remainder v - res^2; round half up */
	if (x > res)
		res++;
	return (u64)res;
}

/* Population standard deviation, rounded to the nearest ns. */
u64 ssdload_sum_stddev(const struct ssdload_sum *s)
{
	u128 sq, var;

	if (s->ios < 2)
		return 0;
	sq = ssdload_div128((u128)s->lat_sum * s->lat_sum, s->ios);
	if (s->lat_sumsq <= sq)
		return 0;
	var = ssdload_div128(s->lat_sumsq - sq, s->ios);
	return ssdload_sqrt128(var);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_sum_stddev);

/* Decimal representation of a u128; returns the length. */
int ssdload_u128_to_str(u128 v, char *buf, size_t len)
{
	char tmp[48];
	int pos = sizeof(tmp);
	int i;

	tmp[--pos] = '\0';
	do {
		u128 q = 0;
		u32 rem = 0;

		/* divide by 10^9, 32 bits at a time */
		for (i = 3; i >= 0; i--) {
			u64 cur = ((u64)rem << 32) | (u32)(v >> (32 * i));
			u64 d = div_u64_rem(cur, 1000000000U, &rem);

			q |= (u128)d << (32 * i);
		}
		v = q;
		for (i = 0; i < 9 && (v || rem); i++) {
			tmp[--pos] = '0' + rem % 10;
			rem /= 10;
		}
	} while (v);
	if (pos == (int)sizeof(tmp) - 1)
		tmp[--pos] = '0';
	return strscpy(buf, tmp + pos, len);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_u128_to_str);
