// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: time series (log_interval_ms, log_hist).
 *
 * Each worker closes its own intervals, in its loop: nothing polls from
 * userspace and nothing runs on a timer of its own.  A close takes the
 * differences of the worker's running totals since the previous close
 * (so the I/O path pays only for the interval's min and max latency),
 * and with log_hist the differences of its histograms, varint-encoded
 * into a pool preallocated for the run (uapi/ssdload.h has the format).
 *
 * Memory is fixed at enable and counted against max_job_mem_mb: the
 * records of the whole run, a copy of each histogram in use, and a pool
 * of SSDLOAD_SERIES_HIST_AVG bytes per interval and direction plus the
 * worst case of one delta per direction, kept for the last record.  A
 * delta that does not fit the rest of the pool stays in the histogram
 * (the record says so) and goes into the worker's next record, so the
 * records always add up to the final histogram exactly.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "ssdload.h"

#define SSDLOAD_SERIES_HIST_AVG	4096U	/* pool bytes per interval, dir */
#define SSDLOAD_VARINT_MAX	10U	/* bytes of a u64 in LEB128 */
/* the largest delta: every bucket, gap 0 and the largest count */
#define SSDLOAD_SERIES_HIST_WORST (SSDLOAD_HIST_BUCKETS * (1 + SSDLOAD_VARINT_MAX))

static unsigned int series_varint_len(u64 v)
{
	unsigned int n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static u8 *series_varint(u8 *p, u64 v)
{
	while (v >= 0x80) {
		*p++ = (u8)v | 0x80;
		v >>= 7;
	}
	*p++ = (u8)v;
	return p;
}

/*
 * Start step: the series of each worker.  Records for the whole run (the
 * ramp, the runtime, a record closed during the drain, the last one),
 * histogram copies and the pool; the bytes per worker.  Needs
 * job->ser_dirs set by the caller.
 */
u64 ssdload_series_mem(const struct ssdload_job *job)
{
	const struct ssdload_cfg *cfg = &job->cfg;
	unsigned int dirs = hweight8(job->ser_dirs);

	if (!job->ser_max)
		return 0;
	return kmalloc_size_roundup(sizeof(struct ssdload_series)) +
	       ssdload_kv_bytes(job->ser_max *
				sizeof(struct ssdload_series_rec)) +
	       (cfg->log_hist ? dirs * ssdload_kv_bytes(SSDLOAD_HIST_BUCKETS *
							sizeof(u64)) : 0) +
	       (job->ser_pool ? ssdload_kv_bytes(job->ser_pool) : 0);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_series_mem);

/* Records and pool sizes of the run (0 records: no series). */
void ssdload_series_plan(struct ssdload_job *job, u8 dirs)
{
	const struct ssdload_cfg *cfg = &job->cfg;
	u64 ms = job->run_ms;		/* every phase, every loop */
	unsigned int n = hweight8(dirs);

	job->ser_max = 0;
	job->ser_pool = 0;
	job->ser_final = 0;
	job->ser_dirs = dirs;
	if (!cfg->log_interval_ms)
		return;
	job->ser_max = div64_u64(ms + cfg->log_interval_ms - 1,
				 cfg->log_interval_ms) + 2;
	if (cfg->log_hist) {
		job->ser_final = (u64)n * SSDLOAD_SERIES_HIST_WORST;
		job->ser_pool = (u64)job->ser_max * n * SSDLOAD_SERIES_HIST_AVG +
				job->ser_final;
	}
}

int ssdload_series_alloc(struct ssdload_worker *w, int node)
{
	const struct ssdload_job *job = w->job;
	const gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN;
	struct ssdload_series *ser;
	int d;

	if (!job->ser_max)
		return 0;
	ser = kzalloc_node(sizeof(*ser), gfp, node);
	if (!ser)
		return -ENOMEM;
	w->ser = ser;
	ser->max = job->ser_max;
	ser->recs = kvzalloc_node(array_size(ser->max, sizeof(*ser->recs)),
				  gfp, node);
	if (!ser->recs)
		return -ENOMEM;
	if (!job->cfg.log_hist)
		return 0;
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		if (!(job->ser_dirs & BIT(d)))
			continue;
		ser->hist_prev[d] = kvzalloc_node(SSDLOAD_HIST_BUCKETS *
						  sizeof(u64), gfp, node);
		if (!ser->hist_prev[d])
			return -ENOMEM;
	}
	ser->pool = kvmalloc_node(job->ser_pool, gfp, node);
	if (!ser->pool)
		return -ENOMEM;
	ser->pool_size = job->ser_pool;
	ser->pool_final = job->ser_final;
	return 0;
}

void ssdload_series_free(struct ssdload_worker *w)
{
	struct ssdload_series *ser = w->ser;
	int d;

	if (!ser)
		return;
	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		kvfree(ser->hist_prev[d]);
	kvfree(ser->pool);
	kvfree(ser->recs);
	kfree(ser);
	w->ser = NULL;
}

/* The run starts at @t0: the first interval opens. */
void ssdload_series_begin(struct ssdload_series *ser, u64 t0, u64 interval_ns)
{
	int d;

	ser->interval_ns = interval_ns;
	ser->start_ns = t0;
	ser->last_ns = t0;
	ser->next_ns = t0 + interval_ns;
	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		ser->lat_min[d] = U64_MAX;
}

/*
 * Encode the histogram delta of direction @d into the pool, if it fits
 * below @limit bytes of the pool; its length, or -ENOSPC (then nothing
 * changed).
 */
static int series_hist_delta(struct ssdload_series *ser, const u64 *hist,
			     int d, u64 limit)
{
	u64 *prev = ser->hist_prev[d];
	unsigned int b, last = 0, len = 0;
	bool first = true;
	u8 *p;

	for (b = 0; b < SSDLOAD_HIST_BUCKETS; b++) {
		if (hist[b] == prev[b])
			continue;
		len += series_varint_len(first ? b : b - last - 1) +
		       series_varint_len(hist[b] - prev[b]);
		first = false;
		last = b;
	}
	if (ser->pool_used + len > limit)
		return -ENOSPC;
	p = ser->pool + ser->pool_used;
	first = true;
	for (b = 0; b < SSDLOAD_HIST_BUCKETS; b++) {
		if (hist[b] == prev[b])
			continue;
		p = series_varint(p, first ? b : b - last - 1);
		p = series_varint(p, hist[b] - prev[b]);
		prev[b] = hist[b];
		first = false;
		last = b;
	}
	ser->pool_used += len;
	return len;
}

/*
 * Close the open interval at @now (@last: the worker's final record,
 * after its last completion).  Short of records, intermediate closes are
 * skipped: the next record spans the skipped intervals.
 */
void ssdload_series_close(struct ssdload_worker *w, u64 now, bool last)
{
	struct ssdload_series *ser = w->ser;
	struct ssdload_series_rec *r;
	u64 limit;
	int d, len;

	ser->next_ns = ser->start_ns +
		(div64_u64(now - ser->start_ns, ser->interval_ns) + 1) *
		ser->interval_ns;
	if (!last && ser->nr + 1 >= ser->max)
		return;
	r = &ser->recs[ser->nr];
	r->worker = w->idx;
	r->index = ser->nr;
	r->start_ns = ser->last_ns - ser->start_ns;
	r->end_ns = now - ser->start_ns;
	r->step = w->phase.ph ? w->phase.ph->step : 0;
	limit = ser->pool_size - (last ? 0 : ser->pool_final);
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		const struct ssdload_dstat *st = &w->res.st[d];
		const struct ssdload_dstat *it = &w->res.ist[d];
		struct ssdload_series_prev *pv = &ser->prev[d];
		struct ssdload_series_dir *rd = &r->dir[d];

		rd->ios = st->ios - pv->ios;
		rd->bytes = st->bytes - pv->bytes;
		rd->errors = st->errors - pv->errors;
		rd->lat_sum_ns = st->lat_sum - pv->lat_sum;
		rd->intended_lat_sum_ns = it->lat_sum - pv->ilat_sum;
		rd->late_ios = it->late - pv->late;
		rd->lat_min_ns = rd->ios && ser->lat_min[d] != U64_MAX ?
				 ser->lat_min[d] : 0;
		rd->lat_max_ns = ser->lat_max[d];
		rd->hist_len = 0;
		pv->ios = st->ios;
		pv->bytes = st->bytes;
		pv->errors = st->errors;
		pv->lat_sum = st->lat_sum;
		pv->ilat_sum = it->lat_sum;
		pv->late = it->late;
		ser->lat_min[d] = U64_MAX;
		ser->lat_max[d] = 0;
		if (!ser->hist_prev[d])
			continue;
		len = series_hist_delta(ser, st->hist, d, limit);
		if (len < 0)
			ser->flags |= SSDLOAD_SERIES_HIST_CARRIED;
		else
			rd->hist_len = len;
	}
	r->flags = ser->flags;
	ser->flags = 0;
	ser->last_ns = now;
	/* the record and its deltas before the count that shows them */
	smp_store_release(&ser->nr, ser->nr + 1);
}
