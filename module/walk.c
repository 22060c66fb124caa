// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: fio's walks and clones (configfs.rst).
 *
 * rw_gap is fio's sequential suffix (rw=read:8k): each I/O starts @gap
 * bytes after the end of the one before in its direction, a negative gap
 * going backwards.  Offsets are relative to the worker's region (its slice
 * of the span, or its clone's region).  As fio 3.33's
 * get_next_seq_offset(): a forward walk whose next I/O would not fit
 * wraps to the region's start, and that ends a one-pass run; a backward
 * walk that would go below the start wraps as if the I/O before had ended
 * at the region's end (its next starts at region + gap), and a one-pass
 * run ends by its bytes.  A backward walk begins where fio 3.33's does:
 * at the region's start when that is the device's first byte, else at
 * region - start + gap when that is within the region, else at region +
 * gap (ssdload_walk_first()).
 *
 * rw_seq_nr is fio's random suffix (rw=randread:N): of every N I/Os of a
 * worker the first draws a random offset and the N - 1 after it each
 * start where the one before in their direction ended; one that would not
 * fit in the region goes to its start, and in a one-pass run ends it
 * (fio's I/O past the end).
 *
 * offset_increment, size_increment and per_clone give each worker its
 * own region, as fio's numjobs clones: worker k covers offset + k *
 * offset_increment for size + k * size_increment bytes (to the device's
 * end without size), draws its random offsets there, and with per_clone
 * has the job's rate and number_ios to itself (plan.c, worker.c).
 */
#include <linux/kernel.h>
#include <linux/math64.h>

#include "ssdload.h"

/*
 * Where a walk of @gap bytes with I/Os of @len bytes begins in a region
 * of @region bytes starting at byte @abs of the device: 0, or for a
 * backward walk fio 3.33's first offset (see above).
 */
s64 ssdload_walk_first(u64 abs, u64 region, s64 gap, u32 len)
{
	s64 p;

	if (gap >= 0 || !abs)
		return 0;
	/* fio rewinds its last position to the region's size, in bytes */
	p = (s64)region - (s64)abs;
	if (!p)
		return 0;
	p += gap;
	if (p < 0)
		p = (s64)region + gap;
	if (p < 0 || p + len > (s64)region)
		return 0;
	return p;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_walk_first);

/*
 * The start of the I/O after one of @len bytes at @off of a region of
 * @region bytes, @gap bytes after its end.  *@end is set when a forward
 * walk wraps to the start: a one-pass run ends there.
 */
s64 ssdload_walk_after(s64 off, u32 len, s64 gap, u64 region, bool *end)
{
	s64 nxt = off + len + gap;

	if (nxt >= 0 && nxt + len <= (s64)region)
		return nxt;
	if ((s64)len + gap > 0) {
		*end = true;
		return 0;
	}
	/* backwards: as if the I/O before had ended at the region's end */
	nxt = (s64)region + gap;
	return nxt < 0 ? 0 : nxt;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_walk_after);

/* The byte offset of the next sequential I/O of a walk with rw_gap. */
u64 ssdload_walk_seq(struct ssdload_worker *w, u8 dir, unsigned int dev,
		     u32 len)
{
	struct ssdload_job *job = w->job;
	struct ssdload_wdev *wd = &w->wd[dev];
	u64 region = wd->slice_len * job->ba;
	s64 off = (s64)wd->next[dir];

	if (off < 0 || off + len > (s64)region)
		off = 0;
	wd->next[dir] = (u64)ssdload_walk_after(off, len, job->cfg.rw_gap,
						 region, &w->cursor.walk_end);
	return job->devs[dev].span_start + wd->slice_start * job->ba + off;
}

/* An I/O at @off (from the span's start): where the next may go on. */
static void ssdload_walk_rdone(struct ssdload_worker *w,
			       struct ssdload_wdev *wd, u8 dir, u64 off,
			       u32 len)
{
	wd->rnext[dir] = off + len;
	/* the next one goes on from here: would it fit? */
	if (w->cursor.seq_left && wd->rnext[dir] + len > wd->rnd_end)
		w->cursor.walk_end = true;
}

/*
 * rw_seq_nr > 1: does this random I/O go on from the last one?  Then
 * *@pos is its byte offset on the device; else a random offset is due,
 * and ssdload_walk_rdrawn() is told where it went.
 */
bool ssdload_walk_rseq(struct ssdload_worker *w, u8 dir, unsigned int dev,
		       u32 len, u64 *pos)
{
	struct ssdload_wdev *wd = &w->wd[dev];
	u64 off;

	if (!w->cursor.seq_left) {
		w->cursor.seq_left = w->job->cfg.rw_seq_nr - 1;
		return false;
	}
	w->cursor.seq_left--;
	off = wd->rnext[dir];
	if (off < wd->rnd_begin || off + len > wd->rnd_end)
		off = wd->rnd_begin;
	ssdload_walk_rdone(w, wd, dir, off, len);
	*pos = w->job->devs[dev].span_start + off;
	return true;
}

/* rw_seq_nr > 1: a random offset @off (from the span's start) was drawn. */
void ssdload_walk_rdrawn(struct ssdload_worker *w, u8 dir, unsigned int dev,
			 u64 off, u32 len)
{
	ssdload_walk_rdone(w, &w->wd[dev], dir, off, len);
}

/* The walks' positions at the start of a run, and of each pass. */
void ssdload_walk_arm(struct ssdload_worker *w)
{
	struct ssdload_job *job = w->job;
	unsigned int i, d;

	w->cursor.walk_end = false;
	w->cursor.seq_left = 0;
	for (i = 0; i < w->nr_devs; i++) {
		struct ssdload_wdev *wd = &w->wd[i];
		u64 abs = job->devs[i].span_start + wd->slice_start * job->ba;
		s64 first = ssdload_walk_first(abs, wd->slice_len * job->ba,
					       job->cfg.rw_gap, job->bs_max);

		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			wd->next[d] = (u64)first;
			wd->rnext[d] = wd->rnd_begin;
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_walk_arm);

/*
 * Start step: the refusals of the walks and clones that need no device.
 * The walks move by whole blocks: one block size.  A skewed
 * random_distribution is a table of the whole span, not of a clone's
 * region.
 */
int ssdload_plan_walk(struct ssdload_job *job)
{
	const struct ssdload_cfg *cfg = &job->cfg;

	if (cfg->rw_gap && !job->uniform_bs)
		return ssdload_job_refuse(job, -EINVAL, "rw_gap",
					  "rw_gap %lld needs one block size (bs %u to %u)",
					  cfg->rw_gap, job->bs_min, job->bs_max);
	if (cfg->rw_seq_nr > 1 && !job->uniform_bs)
		return ssdload_job_refuse(job, -EINVAL, "rw_seq_nr",
					  "rw_seq_nr %llu needs one block size (bs %u to %u)",
					  cfg->rw_seq_nr, job->bs_min, job->bs_max);
	if ((cfg->offset_increment || cfg->size_increment) &&
	    ssdload_cfg_skewed(cfg))
		return ssdload_job_refuse(job, -EINVAL, "random_distribution",
					  "a skewed random_distribution covers the span: not with offset_increment or size_increment");
	job->clones = ssdload_cfg_clones(cfg);
	return 0;
}

/* Worker @k's region on @dev, bytes from the span's start and long. */
static void ssdload_clone_region(const struct ssdload_job *job,
				 const struct ssdload_dev *dev,
				 unsigned int k, u64 *start, u64 *bytes)
{
	const struct ssdload_cfg *cfg = &job->cfg;

	*start = k * cfg->offset_increment;
	if (job->clone_to_end)
		*bytes = dev->clone_bytes - *start;
	else
		*bytes = dev->clone_bytes + k * cfg->size_increment;
	*bytes -= *bytes % job->ba;
}

/*
 * Start step, once @dev is open: with clones, the span of @dev covers
 * every worker's region; *@size (the span of offset and size, @to_end
 * if size is unset) becomes its length.  Each region must hold a block.
 */
int ssdload_plan_clones(struct ssdload_job *job, struct ssdload_dev *dev,
			u64 offset, u64 *size, bool to_end, u64 devsize)
{
	const struct ssdload_cfg *cfg = &job->cfg;
	const char *attr = cfg->offset_increment ? "offset_increment" :
			   "size_increment";
	u64 last = job->plan_nr ? job->plan_nr - 1 : 0, start, bytes, end;

	if (!job->clones)
		return 0;
	if (cfg->offset_increment % job->ba || cfg->size_increment % job->ba)
		return ssdload_job_refuse(job, -EINVAL, attr,
					  "%s %llu is not a multiple of blockalign %u",
					  attr, cfg->offset_increment % job->ba ?
					  cfg->offset_increment :
					  cfg->size_increment, job->ba);
	if (to_end && cfg->size_increment)
		return ssdload_job_refuse(job, -EINVAL, "size_increment",
					  "size_increment needs size (without it each region runs to the end of %s)",
					  dev->path);
	job->clone_to_end = to_end;
	dev->clone_bytes = *size;
	ssdload_clone_region(job, dev, 0, &start, &bytes);
	if (bytes < job->bs_max)
		return ssdload_job_refuse(job, -EINVAL, "size",
					  "worker 0's region of %llu bytes of %s is smaller than bs %u",
					  bytes, dev->path, job->bs_max);
	start = last * cfg->offset_increment;
	if (start >= *size && to_end)
		return ssdload_job_refuse(job, -EINVAL, attr,
					  "%s: worker %llu starts at %llu, beyond the end of %s (%llu bytes)",
					  attr, last, offset + start, dev->path,
					  devsize);
	ssdload_clone_region(job, dev, last, &start, &bytes);
	end = offset + start + bytes;
	if (bytes < job->bs_max || end > devsize)
		return ssdload_job_refuse(job, -EINVAL, attr,
					  "%s: worker %llu's region %llu+%llu does not fit %s (%llu bytes) with a block of %u",
					  attr, last, offset + start, bytes,
					  dev->path, devsize, job->bs_max);
	*size = start + bytes;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_plan_clones);

/*
 * Worker @w's region on device @i: with clones its own, else the
 * slice plan of job.c has set it.  Random offsets are drawn over the
 * region of a clone, over the span otherwise.
 */
void ssdload_walk_plan_worker(struct ssdload_job *job,
			      struct ssdload_worker *w, unsigned int i)
{
	const struct ssdload_dev *dev = &job->devs[i];
	struct ssdload_wdev *wd = &w->wd[i];
	u64 start, bytes;

	wd->rnd_begin = 0;
	wd->rnd_end = dev->span_bytes;
	if (!job->clones)
		return;
	ssdload_clone_region(job, dev, w->idx, &start, &bytes);
	wd->slice_start = div_u64(start, job->ba);
	wd->slice_len = div_u64(bytes, job->ba);
	wd->rnd_begin = start;
	wd->rnd_end = start + bytes;
	wd->rnd_first = wd->slice_start;
	wd->rnd_units = div_u64(bytes - job->bs_max, job->ba) + 1;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_walk_plan_worker);
