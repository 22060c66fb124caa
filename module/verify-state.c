// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: the verify state file (Documentation/verify.rst, "The state
 * file"): what a write run with verify leaves for a later verify_only
 * run, in uapi's struct ssdload_vstate_hdr format.
 *
 * Save: debugfs verify_state encodes the run's span and generation map
 * (kept after the run until the next enable).  Load: configfs
 * verify_state keeps the bytes written to it; enable of a verify_only
 * job checks them (length, crc32c, then the span, block size and
 * checksum against the job's) and copies the map.  configfs hands a
 * binary attribute's bytes over at close and ignores the result, so
 * every refusal is reported at enable, with the attribute's name.
 */
#include <linux/blkdev.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "ssdload.h"

/* Bytes of the state of @sp with @map_bytes blocks. */
u64 ssdload_vstate_len(const struct ssdload_vspan *sp, u64 map_bytes)
{
	return ssdload_vstate_bytes(sp->nr_devs, map_bytes);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vstate_len);

/* crc32c of a state's bytes before its trailing crc, as stored. */
static u32 ssdload_vstate_crc(const void *buf, size_t len)
{
	return ~ssdload_crc32c(~0U, buf, len);
}

/*
 * Encode the state of @sp and its map of @map_bytes blocks into @out,
 * ssdload_vstate_len() bytes.
 */
void ssdload_vstate_encode(const struct ssdload_vspan *sp, const u8 *map,
			   u64 map_bytes, u64 time_ns, void *out)
{
	struct ssdload_vstate_hdr *h = out;
	struct ssdload_vstate_dev *d = (void *)(h + 1);
	u8 *m = (u8 *)(d + sp->nr_devs);
	u64 i, written = 0;
	__le32 crc;

	for (i = 0; i < map_bytes; i++)
		written += !!map[i];
	memset(h, 0, sizeof(*h));
	h->magic = cpu_to_le32(SSDLOAD_VSTATE_MAGIC);
	h->version = cpu_to_le16(SSDLOAD_VSTATE_VERSION);
	h->header_size = cpu_to_le16(sizeof(*h));
	h->dev_size = cpu_to_le16(sizeof(*d));
	h->nr_devs = cpu_to_le16(sp->nr_devs);
	h->csum_type = sp->csum_type;
	h->gen_bits = SSDLOAD_VSTATE_GEN_BITS;
	h->bs = cpu_to_le32(sp->bs);
	h->interval = cpu_to_le32(sp->interval);
	h->seed = cpu_to_le64(sp->seed);
	h->map_bytes = cpu_to_le64(map_bytes);
	h->written = cpu_to_le64(written);
	h->time_ns = cpu_to_le64(time_ns);
	for (i = 0; i < sp->nr_devs; i++) {
		const struct ssdload_vspan_dev *s = &sp->dev[i];

		memset(&d[i], 0, sizeof(d[i]));
		d[i].dev_bytes = cpu_to_le64(s->dev_bytes);
		d[i].span_start = cpu_to_le64(s->span_start);
		d[i].span_bytes = cpu_to_le64(s->span_bytes);
		d[i].blocks = cpu_to_le64(div_u64(s->span_bytes, sp->bs));
		strscpy(d[i].name, s->name, sizeof(d[i].name));
	}
	memcpy(m, map, map_bytes);
	crc = cpu_to_le32(ssdload_vstate_crc(out, m + map_bytes - (u8 *)out));
	memcpy(m + map_bytes, &crc, sizeof(crc));
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vstate_encode);

/* The geometry of a parsed state: sane, or -EBADMSG with @why. */
static int ssdload_vstate_sane(const struct ssdload_vspan *sp, u64 blocks[],
			       u64 map_bytes, char *why, size_t n)
{
	u64 sum = 0;
	u32 i;

	if (sp->csum_type == SSDLOAD_VERIFY_OFF ||
	    sp->csum_type >= SSDLOAD_VERIFY_NR) {
		snprintf(why, n, "unknown checksum type %u", sp->csum_type);
		return -EBADMSG;
	}
	if (sp->bs < SSDLOAD_MIN_BS || sp->bs > SSDLOAD_MAX_BS ||
	    sp->bs % SSDLOAD_MIN_BS || !sp->interval ||
	    sp->interval % SSDLOAD_MIN_BS || sp->bs % sp->interval) {
		snprintf(why, n, "bs=%u with verify_interval=%u is no valid geometry",
			 sp->bs, sp->interval);
		return -EBADMSG;
	}
	for (i = 0; i < sp->nr_devs; i++) {
		const struct ssdload_vspan_dev *d = &sp->dev[i];

		if (d->span_start > d->dev_bytes ||
		    d->span_bytes > d->dev_bytes - d->span_start ||
		    blocks[i] != div_u64(d->span_bytes, sp->bs)) {
			snprintf(why, n,
				 "device %u: a span of %llu bytes at %llu (%llu blocks) on %llu bytes is inconsistent",
				 i, d->span_bytes, d->span_start, blocks[i],
				 d->dev_bytes);
			return -EBADMSG;
		}
		sum += blocks[i];
	}
	if (sum != map_bytes) {
		snprintf(why, n, "the devices have %llu blocks, the map %llu",
			 sum, map_bytes);
		return -EBADMSG;
	}
	return 0;
}

/*
 * Check a state of @len bytes at @buf: its format, length and crc32c,
 * then its geometry.  Fills @sp and points @map at its map of
 * @map_bytes blocks.  Returns 0, or -EBADMSG with the reason in @why.
 */
int ssdload_vstate_parse(const void *buf, size_t len,
			 struct ssdload_vspan *sp, const u8 **map,
			 u64 *map_bytes, char *why, size_t n)
{
	const struct ssdload_vstate_hdr *h = buf;
	u64 blocks[SSDLOAD_MAX_DEVS];
	u32 hsize, dsize, i, stored;
	u64 total, mb;
	const u8 *p;

	memset(sp, 0, sizeof(*sp));
	if (len < sizeof(*h)) {
		snprintf(why, n, "truncated: %zu bytes, the header alone is %zu",
			 len, sizeof(*h));
		return -EBADMSG;
	}
	if (le32_to_cpu(h->magic) != SSDLOAD_VSTATE_MAGIC) {
		snprintf(why, n, "not a state file (magic 0x%08x)",
			 le32_to_cpu(h->magic));
		return -EBADMSG;
	}
	if (le16_to_cpu(h->version) != SSDLOAD_VSTATE_VERSION) {
		snprintf(why, n, "version %u, this module reads %u",
			 le16_to_cpu(h->version), SSDLOAD_VSTATE_VERSION);
		return -EBADMSG;
	}
	hsize = le16_to_cpu(h->header_size);
	dsize = le16_to_cpu(h->dev_size);
	sp->nr_devs = le16_to_cpu(h->nr_devs);
	mb = le64_to_cpu(h->map_bytes);
	if (hsize < sizeof(*h) || dsize < sizeof(struct ssdload_vstate_dev) ||
	    !sp->nr_devs || sp->nr_devs > SSDLOAD_MAX_DEVS ||
	    h->gen_bits != SSDLOAD_VSTATE_GEN_BITS) {
		snprintf(why, n,
			 "a bad header (header_size %u, dev_size %u, %u devices, %u bits per block)",
			 hsize, dsize, sp->nr_devs, h->gen_bits);
		return -EBADMSG;
	}
	total = hsize + (u64)sp->nr_devs * dsize + sizeof(u32);
	if (check_add_overflow(total, mb, &total) || len != total) {
		snprintf(why, n, "%s: %zu bytes, its header says %llu",
			 len < total ? "truncated" : "a wrong length", len,
			 mb > SSDLOAD_VSTATE_MAX_BYTES ? U64_MAX : total);
		return -EBADMSG;
	}
	memcpy(&stored, (const u8 *)buf + len - sizeof(u32), sizeof(stored));
	stored = le32_to_cpu((__force __le32)stored);
	if (stored != ssdload_vstate_crc(buf, len - sizeof(u32))) {
		snprintf(why, n, "corrupted: crc32c 0x%08x stored, 0x%08x computed",
			 stored, ssdload_vstate_crc(buf, len - sizeof(u32)));
		return -EBADMSG;
	}
	sp->csum_type = h->csum_type;
	sp->bs = le32_to_cpu(h->bs);
	sp->interval = le32_to_cpu(h->interval);
	sp->seed = le64_to_cpu(h->seed);
	p = (const u8 *)buf + hsize;
	for (i = 0; i < sp->nr_devs; i++, p += dsize) {
		const struct ssdload_vstate_dev *d = (const void *)p;

		sp->dev[i].dev_bytes = le64_to_cpu(d->dev_bytes);
		sp->dev[i].span_start = le64_to_cpu(d->span_start);
		sp->dev[i].span_bytes = le64_to_cpu(d->span_bytes);
		blocks[i] = le64_to_cpu(d->blocks);
		memcpy(sp->dev[i].name, d->name, sizeof(d->name));
		sp->dev[i].name[sizeof(d->name) - 1] = '\0';
	}
	*map = p;
	*map_bytes = mb;
	return ssdload_vstate_sane(sp, blocks, mb, why, n);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vstate_parse);

/*
 * Does the state's @got describe the job's @want: checksum, unit, block
 * size and, per device, its size and span?  (The seed and names are
 * not compared: the state's seed is the one the blocks carry.)
 * Returns 0, or -EINVAL with the first difference in @why.
 */
int ssdload_vstate_match(const struct ssdload_vspan *got,
			 const struct ssdload_vspan *want, char *why,
			 size_t n)
{
	u32 i;

	if (got->csum_type != want->csum_type) {
		snprintf(why, n, "verify=%s in the state, the job's is %s",
			 ssdload_enum_name(ssdload_verify_names,
					   got->csum_type),
			 ssdload_enum_name(ssdload_verify_names,
					   want->csum_type));
		return -EINVAL;
	}
	if (got->bs != want->bs || got->interval != want->interval) {
		snprintf(why, n,
			 "bs=%u verify_interval=%u in the state, the job's bs=%u verify_interval=%u",
			 got->bs, got->interval, want->bs, want->interval);
		return -EINVAL;
	}
	if (got->nr_devs != want->nr_devs) {
		snprintf(why, n, "%u devices in the state, the job has %u",
			 got->nr_devs, want->nr_devs);
		return -EINVAL;
	}
	for (i = 0; i < got->nr_devs; i++) {
		const struct ssdload_vspan_dev *g = &got->dev[i];
		const struct ssdload_vspan_dev *w = &want->dev[i];

		if (g->dev_bytes != w->dev_bytes) {
			snprintf(why, n, "device %u (%s in the state) had %llu bytes, %s has %llu",
				 i, g->name, g->dev_bytes, w->name,
				 w->dev_bytes);
			return -EINVAL;
		}
		if (g->span_start != w->span_start ||
		    g->span_bytes != w->span_bytes) {
			snprintf(why, n,
				 "device %u: the state's span is %llu bytes at %llu, the job's %llu bytes at %llu (offset, size)",
				 i, g->span_bytes, g->span_start,
				 w->span_bytes, w->span_start);
			return -EINVAL;
		}
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vstate_match);

/* The span of @job's run (devices open, bs, interval and seed set). */
void ssdload_vstate_span(struct ssdload_job *job, struct ssdload_vspan *sp)
{
	const struct ssdload_vrun *v = &job->vfy;
	unsigned int i;

	memset(sp, 0, sizeof(*sp));
	sp->csum_type = job->cfg.verify;
	sp->bs = v->bs;
	sp->interval = v->interval;
	sp->seed = v->seed;
	sp->nr_devs = job->nr_devs;
	for (i = 0; i < job->nr_devs; i++) {
		struct block_device *bdev = job->devs[i].bdev.bdev;

		sp->dev[i].dev_bytes = bdev_nr_bytes(bdev);
		sp->dev[i].span_start = job->devs[i].span_start;
		sp->dev[i].span_bytes = job->devs[i].span_bytes;
		snprintf(sp->dev[i].name, sizeof(sp->dev[i].name), "%pg",
			 bdev);
	}
}

/*
 * Enable of a verify_only job, under job->lock, its v->span the job's:
 * check the loaded state against it.  Points @map at the state's map
 * and sets v->seed to the state's.  Returns 0 or a refusal.
 */
int ssdload_vstate_load(struct ssdload_job *job, const u8 **map)
{
	struct ssdload_vrun *v = &job->vfy;
	struct ssdload_vload *l = &job->vload;
	struct ssdload_vspan *got;
	char why[160];
	u64 mb;
	int ret;

	if (l->err)
		return ssdload_job_refuse(job, l->err, "verify_state",
					  "the state written (%zu bytes) was not kept: more than max_job_mem_mb, or out of memory",
					  l->err_len);
	if (!l->buf)
		return ssdload_job_refuse(job, -ENODATA, "verify_only",
					  "verify_only=1 needs a state: write a saved verify_state first");
	got = kmalloc(sizeof(*got), GFP_KERNEL);
	if (!got)
		return ssdload_job_refuse(job, -ENOMEM, "verify_state",
					  "out of memory");
	ret = ssdload_vstate_parse(l->buf, l->len, got, map, &mb, why,
				   sizeof(why));
	if (!ret)
		ret = ssdload_vstate_match(got, &v->span, why, sizeof(why));
	if (!ret && mb != v->map_bytes) {
		snprintf(why, sizeof(why), "%llu blocks in the state, the job has %llu",
			 mb, v->map_bytes);
		ret = -EINVAL;
	}
	if (!ret)
		v->seed = got->seed;
	kfree(got);
	if (ret)
		return ssdload_job_refuse(job, ret, "verify_state",
					  "verify_state of %zu bytes: %s",
					  l->len, why);
	v->span.seed = v->seed;
	return 0;
}

/* Drop the loaded state. */
void ssdload_vstate_drop(struct ssdload_job *job)
{
	kvfree(job->vload.buf);
	memset(&job->vload, 0, sizeof(job->vload));
}

/* "0" or "0\n": drop the state (configfs refuses a zero-length write). */
static bool ssdload_vstate_is_drop(const u8 *buf, size_t len)
{
	return len && len <= 2 && buf[0] == '0' && (len == 1 || buf[1] == '\n');
}

/*
 * configfs verify_state, at the close of a writer: keep @len bytes
 * ("0" drops the state).  Nothing is checked here but the size: configfs
 * ignores the result, so a refusal is kept for enable to report.
 */
ssize_t ssdload_vstate_store(struct ssdload_job *job, const void *buf,
			     size_t len)
{
	u64 cap = (u64)READ_ONCE(ssdload_max_job_mem_mb) << 20;
	void *copy = NULL;
	int err = 0;

	mutex_lock(&job->lock);
	if (ssdload_state_busy(job->state)) {
		ssdload_job_pr_err(job,
				   "job %s: invalid verify_state (%zu bytes): the job is %s, the state was not loaded\n",
				   ssdload_job_name(job), len,
				   ssdload_enum_name(ssdload_state_names,
						     job->state));
		mutex_unlock(&job->lock);
		return -EBUSY;
	}
	if (ssdload_vstate_is_drop(buf, len))
		len = 0;
	if (len > cap)
		err = -ENOMEM;
	else if (len)
		copy = kvmalloc(len, GFP_KERNEL);
	if (len && !copy)
		err = -ENOMEM;
	ssdload_vstate_drop(job);
	if (err) {
		ssdload_job_pr_err(job,
				   "job %s: invalid verify_state (%zu bytes): more than max_job_mem_mb=%llu or out of memory\n",
				   ssdload_job_name(job), len, cap >> 20);
		job->vload.err = err;
		job->vload.err_len = len;
	} else if (len) {
		memcpy(copy, buf, len);
		job->vload.buf = copy;
		job->vload.len = len;
	}
	mutex_unlock(&job->lock);
	return err ? err : len;
}
