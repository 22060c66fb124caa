// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: verify (Documentation/verify.rst).
 *
 * A write stamps each verify_interval unit of its block with a struct
 * ssdload_vhdr (uapi) and a checksum of the rest of the unit; the block's
 * write generation comes from the generation map, one byte per block of
 * the span.  After the run, with do_verify, the whole map is read back
 * and each unit is classified (ssdload_vcheck()).
 *
 * The header and checksum code works on a buffer given as bio_vec
 * chunks (as the workers allocate their buffers): a unit may span two
 * chunks, its 96-byte header never does (units start at multiples of
 * 512 bytes, chunks at multiples of a page).
 */
#include <linux/crc64.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/vmalloc.h>
#include <linux/xxhash.h>

#include "ssdload.h"

const struct ssdload_enum ssdload_verify_names[] = {
	{ SSDLOAD_VERIFY_OFF,		"0" },
	{ SSDLOAD_VERIFY_CRC32C,	"crc32c" },
	{ SSDLOAD_VERIFY_CRC64,		"crc64" },
	{ SSDLOAD_VERIFY_XXHASH,	"xxhash" },
	{ SSDLOAD_VERIFY_SHA256,	"sha256" },
	{ SSDLOAD_VERIFY_MD5,		"md5" },
	{ SSDLOAD_VERIFY_SHA1,		"sha1" },
	{ SSDLOAD_VERIFY_PATTERN,	"pattern" },
	{ SSDLOAD_VERIFY_META,		"meta" },
	{ SSDLOAD_VERIFY_NULL,		"null" },
	{ 0, NULL },
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_verify_names);

const char * const ssdload_vclass_names[SSDLOAD_VCLASS_NR + 1] = {
	[SSDLOAD_VCLASS_CORRUPT]	= "corrupt",
	[SSDLOAD_VCLASS_MISPLACED]	= "misplaced",
	[SSDLOAD_VCLASS_STALE]		= "stale",
	[SSDLOAD_VCLASS_FOREIGN]	= "foreign",
	[SSDLOAD_VCLASS_READ_ERROR]	= "read_error",
	[SSDLOAD_VCLASS_OK]		= "ok",
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_vclass_names);

/* Bytes of the data checksum of @type in csum[] (0: none). */
unsigned int ssdload_vcsum_size(u32 type)
{
	switch (type) {
	case SSDLOAD_VERIFY_CRC32C:
		return sizeof(u32);
	case SSDLOAD_VERIFY_CRC64:
	case SSDLOAD_VERIFY_XXHASH:
		return sizeof(u64);
	case SSDLOAD_VERIFY_SHA256:
		return SHA256_DIGEST_SIZE;
	case SSDLOAD_VERIFY_MD5:
		return 16;			/* MD5_DIGEST_SIZE */
	case SSDLOAD_VERIFY_SHA1:
		return 20;			/* SHA1_DIGEST_SIZE */
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vcsum_size);

/*
 * Can this kernel compute @type?  Resolves crc64_be (lib/crc64, a module
 * on some kernels, absent from others) into @c->crc64, and md5 and sha1
 * into a crypto API transform (verify-sum.c): the caller drops them with
 * ssdload_vctx_put().  Returns a reason, or NULL if it can.
 */
const char *ssdload_vctx_get(struct ssdload_vctx *c, u32 type)
{
	memset(c, 0, sizeof(*c));
	c->type = type;
	switch (type) {
	case SSDLOAD_VERIFY_MD5:
		return ssdload_vshash_get(c, "md5");
	case SSDLOAD_VERIFY_SHA1:
		return ssdload_vshash_get(c, "sha1");
	case SSDLOAD_VERIFY_CRC64:
		if (!IS_ENABLED(CONFIG_CRC64))
			return "needs lib/crc64 (CONFIG_CRC64), which this kernel lacks";
		c->crc64 = symbol_request(crc64_be);
		if (!c->crc64)
			return "needs crc64_be of lib/crc64: load the crc64 module";
		return NULL;
	default:
		return NULL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vctx_get);

void ssdload_vctx_put(struct ssdload_vctx *c)
{
	if (c->crc64)
		symbol_put(crc64_be);
	c->crc64 = NULL;
	ssdload_vshash_put(c);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vctx_put);

/* A running data checksum. */
struct ssdload_vsum {
	const struct ssdload_vctx *c;
	u32 crc32;
	u64 crc64;
	struct xxh64_state xxh;
	struct ssdload_sha256_ctx sha;
};

static void ssdload_vsum_init(struct ssdload_vsum *s,
			      const struct ssdload_vctx *c)
{
	s->c = c;
	switch (c->type) {
	case SSDLOAD_VERIFY_CRC32C:
		s->crc32 = ~0U;
		break;
	case SSDLOAD_VERIFY_CRC64:
		s->crc64 = 0;
		break;
	case SSDLOAD_VERIFY_XXHASH:
		xxh64_reset(&s->xxh, 0);
		break;
	case SSDLOAD_VERIFY_SHA256:
		sha256_init(&s->sha);
		break;
	case SSDLOAD_VERIFY_MD5:
	case SSDLOAD_VERIFY_SHA1:
		ssdload_vshash_init(c);
		break;
	}
}

static void ssdload_vsum_update(struct ssdload_vsum *s, const void *p,
				size_t len)
{
	switch (s->c->type) {
	case SSDLOAD_VERIFY_CRC32C:
		s->crc32 = ssdload_crc32c(s->crc32, p, len);
		break;
	case SSDLOAD_VERIFY_CRC64:
		s->crc64 = s->c->crc64(s->crc64, p, len);
		break;
	case SSDLOAD_VERIFY_XXHASH:
		xxh64_update(&s->xxh, p, len);
		break;
	case SSDLOAD_VERIFY_SHA256:
		sha256_update(&s->sha, p, len);
		break;
	case SSDLOAD_VERIFY_MD5:
	case SSDLOAD_VERIFY_SHA1:
		ssdload_vshash_update(s->c, p, len);
		break;
	}
}

/* The checksum, as stored in csum[] (zero-padded). */
static void ssdload_vsum_final(struct ssdload_vsum *s,
			       u8 out[SSDLOAD_VHDR_CSUM_MAX])
{
	__le32 c32;
	__le64 c64;

	memset(out, 0, SSDLOAD_VHDR_CSUM_MAX);
	switch (s->c->type) {
	case SSDLOAD_VERIFY_CRC32C:
		c32 = cpu_to_le32(~s->crc32);
		memcpy(out, &c32, sizeof(c32));
		break;
	case SSDLOAD_VERIFY_CRC64:
		c64 = cpu_to_le64(s->crc64);
		memcpy(out, &c64, sizeof(c64));
		break;
	case SSDLOAD_VERIFY_XXHASH:
		c64 = cpu_to_le64(xxh64_digest(&s->xxh));
		memcpy(out, &c64, sizeof(c64));
		break;
	case SSDLOAD_VERIFY_SHA256:
		sha256_final(&s->sha, out);
		break;
	case SSDLOAD_VERIFY_MD5:
	case SSDLOAD_VERIFY_SHA1:
		ssdload_vshash_final(s->c, out);
		break;
	}
}

/* Byte @off of the chunk @v (its pages are contiguous, never highmem). */
static inline void *ssdload_vbyte(const struct bio_vec *v, u32 off)
{
	return (u8 *)page_address(v->bv_page) + v->bv_offset + off;
}

/* The checksum of @len bytes at @p, as stored in csum[]. */
void ssdload_vcsum_flat(const struct ssdload_vctx *c, const void *p,
			size_t len, u8 out[SSDLOAD_VHDR_CSUM_MAX])
{
	struct ssdload_vsum s;

	ssdload_vsum_init(&s, c);
	ssdload_vsum_update(&s, p, len);
	ssdload_vsum_final(&s, out);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vcsum_flat);

/* The checksum of @len bytes at @off of the buffer @v[@nr]. */
static void ssdload_vsum_bvec(const struct ssdload_vctx *c,
			      const struct bio_vec *v, unsigned int nr,
			      u32 off, u32 len, u8 out[SSDLOAD_VHDR_CSUM_MAX])
{
	struct ssdload_vsum s;
	unsigned int i;

	ssdload_vsum_init(&s, c);
	for (i = 0; i < nr && len; i++) {
		u32 l;

		if (off >= v[i].bv_len) {
			off -= v[i].bv_len;
			continue;
		}
		l = min(len, v[i].bv_len - off);
		ssdload_vsum_update(&s, ssdload_vbyte(&v[i], off), l);
		len -= l;
		off = 0;
	}
	ssdload_vsum_final(&s, out);
}

/* The header at @off of the buffer (it lies in one chunk), or NULL. */
static struct ssdload_vhdr *ssdload_vhdr_at(const struct bio_vec *v,
					    unsigned int nr, u32 off)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (off < v[i].bv_len) {
			if (v[i].bv_len - off < SSDLOAD_VHDR_SIZE)
				return NULL;
			return ssdload_vbyte(&v[i], off);
		}
		off -= v[i].bv_len;
	}
	return NULL;
}

/* The offset of the unit at @off of a buffer in its block. */
static u32 ssdload_vboff(const struct ssdload_vctx *c, u32 off)
{
	return c->bs ? off % c->bs : off;
}

/* crc32c of the header with hdr_csum as zero. */
static u32 ssdload_vhdr_csum(const struct ssdload_vhdr *h)
{
	static const __le32 zero;
	u32 crc;

	crc = ssdload_crc32c(~0U, h, offsetof(struct ssdload_vhdr, hdr_csum));
	crc = ssdload_crc32c(crc, &zero, sizeof(zero));
	crc = ssdload_crc32c(crc, &h->reserved, SSDLOAD_VHDR_SIZE -
			     offsetof(struct ssdload_vhdr, reserved));
	return ~crc;
}

/*
 * Stamp the unit of @len bytes at @off of the buffer @v[@nr]: its header
 * from @st, then the checksum of its data.  verify=null stamps nothing.
 */
void ssdload_vstamp(const struct ssdload_vctx *c, const struct bio_vec *v,
		    unsigned int nr, u32 off, u32 len,
		    const struct ssdload_vstamp *st)
{
	struct ssdload_vhdr *h;

	BUILD_BUG_ON(sizeof(struct ssdload_vhdr) != SSDLOAD_VHDR_SIZE);
	BUILD_BUG_ON(offsetof(struct ssdload_vhdr, csum) != 64);
	if (c->type == SSDLOAD_VERIFY_NULL)
		return;
	if (c->pat) {
		ssdload_vpat_fill(c, v, nr, off, len,
				  (st->lba << SECTOR_SHIFT) - ssdload_vboff(c, off));
		if (c->type == SSDLOAD_VERIFY_PATTERN)
			return;
	}
	h = ssdload_vhdr_at(v, nr, off);
	if (WARN_ON_ONCE(!h || len < SSDLOAD_VHDR_SIZE))
		return;
	h->magic = cpu_to_le32(SSDLOAD_VHDR_MAGIC);
	h->version = cpu_to_le16(SSDLOAD_VHDR_VERSION);
	h->csum_type = c->type;
	h->flags = 0;
	h->len = cpu_to_le32(len);
	h->worker = cpu_to_le32(st->worker);
	h->lba = cpu_to_le64(st->lba);
	h->seed = cpu_to_le64(st->seed);
	h->seq = cpu_to_le64(st->seq);
	h->time_ns = cpu_to_le64(st->time_ns);
	h->gen = cpu_to_le32(st->gen);
	h->reserved = 0;
	if (ssdload_vcsum_size(c->type))
		ssdload_vsum_bvec(c, v, nr, off + SSDLOAD_VHDR_SIZE,
				  len - SSDLOAD_VHDR_SIZE, h->csum);
	else
		memset(h->csum, 0, sizeof(h->csum));
	h->hdr_csum = cpu_to_le32(ssdload_vhdr_csum(h));
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vstamp);

/*
 * Classify the unit of @len bytes at @off of the buffer @v[@nr], read
 * from sector @want->lba: SSDLOAD_VCLASS_OK or the failure, with what
 * the header said in @got (when it had one).
 *   foreign:   no header of this job (magic, or a valid header with
 *              another seed or checksum type);
 *   corrupt:   a header that fails its own checksum or geometry, or data
 *              that fail the checksum;
 *   misplaced: a valid header naming another sector;
 *   stale:     all valid, with another generation than the map's.
 */
u8 ssdload_vcheck(const struct ssdload_vctx *c, const struct bio_vec *v,
		  unsigned int nr, u32 off, u32 len,
		  const struct ssdload_vwant *want, struct ssdload_vgot *got)
{
	u8 csum[SSDLOAD_VHDR_CSUM_MAX];
	const struct ssdload_vhdr *h;

	memset(got, 0, sizeof(*got));
	if (c->type == SSDLOAD_VERIFY_NULL)
		return SSDLOAD_VCLASS_OK;
	if (c->type == SSDLOAD_VERIFY_PATTERN)
		return ssdload_vpat_check(c, v, nr, off, len,
					  (want->lba << SECTOR_SHIFT) -
					  ssdload_vboff(c, off), got);
	h = ssdload_vhdr_at(v, nr, off);
	if (WARN_ON_ONCE(!h || len < SSDLOAD_VHDR_SIZE))
		return SSDLOAD_VCLASS_CORRUPT;
	if (le32_to_cpu(h->magic) != SSDLOAD_VHDR_MAGIC)
		return SSDLOAD_VCLASS_FOREIGN;
	if (le32_to_cpu(h->hdr_csum) != ssdload_vhdr_csum(h) ||
	    le16_to_cpu(h->version) != SSDLOAD_VHDR_VERSION)
		return SSDLOAD_VCLASS_CORRUPT;
	got->lba = le64_to_cpu(h->lba);
	got->gen = le32_to_cpu(h->gen);
	got->seq = le64_to_cpu(h->seq);
	got->worker = le32_to_cpu(h->worker);
	if (le64_to_cpu(h->seed) != want->seed || h->csum_type != c->type)
		return SSDLOAD_VCLASS_FOREIGN;
	if (le32_to_cpu(h->len) != len)
		return SSDLOAD_VCLASS_CORRUPT;
	if (got->lba != want->lba)
		return SSDLOAD_VCLASS_MISPLACED;
	if (ssdload_vcsum_size(c->type)) {
		ssdload_vsum_bvec(c, v, nr, off + SSDLOAD_VHDR_SIZE,
				  len - SSDLOAD_VHDR_SIZE, csum);
		if (memcmp(csum, h->csum, sizeof(csum)))
			return SSDLOAD_VCLASS_CORRUPT;
	}
	if (!(want->gen & SSDLOAD_VGEN_AMBIG) &&
	    got->gen != (want->gen & SSDLOAD_VGEN_MASK))
		return SSDLOAD_VCLASS_STALE;
	return SSDLOAD_VCLASS_OK;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vcheck);

/* ---- the run: enable, writes, the read-back pass --------------------- */

const char * const ssdload_vstate_names[] = {
	[SSDLOAD_VSTATE_NONE]		= "none",
	[SSDLOAD_VSTATE_RUNNING]	= "running",
	[SSDLOAD_VSTATE_DONE]		= "done",
	[SSDLOAD_VSTATE_ABORTED]	= "aborted",
};

/* The read buffer of the pass: a whole number of blocks, 1 MiB or one. */
static u32 ssdload_vread_bytes(u32 bs)
{
	return bs >= SZ_1M ? bs : rounddown(SZ_1M, bs);
}

/* Start step: the refusals of verify_only and of a loaded state. */
static int ssdload_verify_check_only(struct ssdload_job *job, const char *name)
{
	bool loaded = job->vload.buf || job->vload.err;

	if (job->cfg.verify == SSDLOAD_VERIFY_OFF && job->cfg.verify_only)
		return ssdload_job_refuse(job, -EINVAL, "verify_only",
					  "verify_only=1 needs verify= set (the checksum the blocks were written with)");
	if (loaded && !job->cfg.verify_only)
		return ssdload_job_refuse(job, -EINVAL, "verify_state",
					  "a state is loaded but verify_only=0 (writing 0 to verify_state drops it)");
	if (job->cfg.verify_only || job->cfg.verify == SSDLOAD_VERIFY_OFF)
		return 0;
	if (!job->writes)
		return ssdload_job_refuse(job, -EINVAL, "verify",
					  "verify=%s: the job does not write (verify_only=1 checks a saved state)",
					  name);
	if (job->dirs & BIT(SSDLOAD_DIR_TRIM))
		return ssdload_job_refuse(job, -EINVAL, "verify",
					  "verify=%s: the job trims what it would check",
					  name);
	return 0;
}

/* Start step, with the devices open: check verify, allocate the map. */
int ssdload_verify_prepare(struct ssdload_job *job)
{
	struct ssdload_vrun *v = &job->vfy;
	const char *name = ssdload_enum_name(ssdload_verify_names,
					     job->cfg.verify);
	u64 cap = (u64)READ_ONCE(ssdload_max_job_mem_mb) << 20;
	const u8 *state = NULL;
	u64 blocks = 0, need;
	const char *why;
	unsigned int i;
	int ret;

	ssdload_verify_free(job);
	memset(v, 0, sizeof(*v));
	if (job->cfg.verify == SSDLOAD_VERIFY_OFF && job->cfg.vpat)
		return ssdload_job_refuse(job, -EINVAL, "verify_pattern",
					  "verify_pattern=%s needs verify (pattern, or a checksum); buffer_pattern fills without checking",
					  job->cfg.vpat->text);
	ret = ssdload_verify_check_only(job, name);
	if (ret || job->cfg.verify == SSDLOAD_VERIFY_OFF)
		return ret;
	if (!job->fixed_len)
		return ssdload_job_refuse(job, -EINVAL, "verify",
					  "verify=%s needs one block size and offsets aligned to it (no bssplit, bsrange or smaller blockalign)",
					  name);
	v->bs = job->bs_max;
	v->interval = job->cfg.verify_interval ?: v->bs;
	if (v->interval > v->bs || v->bs % v->interval)
		return ssdload_job_refuse(job, -EINVAL, "verify_interval",
					  "verify_interval=%u must divide bs=%u",
					  v->interval, v->bs);
	v->seed = job->dcfg.seed;
	for (i = 0; i < job->nr_devs; i++) {
		v->base[i] = blocks;
		blocks += ssdload_vmap_blocks(job->devs[i].span_bytes, v->bs);
	}
	v->map_bytes = blocks;
	ssdload_vstate_span(job, &v->span);
	if (job->cfg.verify_only) {
		ret = ssdload_vstate_load(job, &state);
		if (ret)
			return ret;
	}
	why = ssdload_vctx_get(&v->c, job->cfg.verify);
	if (why)
		return ssdload_job_refuse(job, -EOPNOTSUPP, "verify",
					  "verify=%s %s", name, why);
	ret = ssdload_vsum_prepare(job);
	if (ret)
		goto out_put_ctx;
	need = PAGE_ALIGN(max_t(u64, blocks, 1)) +
	       ssdload_vread_bytes(v->bs);
	if (job->mem + need > cap) {
		ret = ssdload_job_refuse(job, -ENOMEM, "verify",
					 "the generation map of %llu blocks and the read buffer need %llu MiB more, %llu MiB in all, more than max_job_mem_mb=%llu",
					 blocks, DIV_ROUND_UP_ULL(need, SZ_1M),
					 DIV_ROUND_UP_ULL(job->mem + need,
							  SZ_1M),
					 cap >> 20);
		goto out_release_sum;
	}
	v->map = vzalloc(max_t(u64, blocks, 1));
	if (!v->map) {
		ret = ssdload_job_refuse(job, -ENOMEM, "verify",
					 "out of memory for the generation map (%llu bytes)",
					 blocks);
		goto out_release_sum;
	}
	if (state)
		memcpy(v->map, state, blocks);
	job->mem += need;
	return 0;

out_release_sum:
	ssdload_vsum_release(&v->c);
out_put_ctx:
	ssdload_vctx_put(&v->c);
	return ret;
}

/*
 * Teardown: drop what the checksums hold.  The map stays, with the
 * results, for debugfs verify_state, until the next enable.
 */
void ssdload_verify_release(struct ssdload_job *job)
{
	ssdload_vsum_release(&job->vfy.c);
	ssdload_vctx_put(&job->vfy.c);
}

/* A failed start, the next enable, the job's end: free the map too. */
void ssdload_verify_free(struct ssdload_job *job)
{
	vfree(job->vfy.map);
	job->vfy.map = NULL;
	ssdload_vsum_release(&job->vfy.c);
	ssdload_vctx_put(&job->vfy.c);
}

/*
 * A write of @io is planned, its data in @buf[@nr] filled: give its block
 * the next generation and stamp every unit.  Only with verify.
 */
void ssdload_verify_write(struct ssdload_worker *w, struct ssdload_io *io,
			  const struct bio_vec *buf, unsigned int nr)
{
	struct ssdload_job *job = w->job;
	struct ssdload_vrun *v = &job->vfy;
	struct ssdload_vstamp st;
	u64 idx;
	u32 off;

	idx = ssdload_vmap_idx(v, &job->devs[io->dev], io->dev, io->pos);
	if (WARN_ON_ONCE(idx >= v->map_bytes || io->len % v->interval))
		return;
	st.gen = ssdload_vgen_next(READ_ONCE(v->map[idx]));
	WRITE_ONCE(v->map[idx], st.gen);
	io->vgen = st.gen;
	st.seed = job->dcfg.seed;
	st.worker = w->idx;
	st.seq = w->cursor.vseq++;
	st.time_ns = ktime_get_real_ns();
	for (off = 0; off < io->len; off += v->interval) {
		st.lba = (io->pos + off) >> SECTOR_SHIFT;
		ssdload_vstamp(w->vc, buf, nr, off, v->interval, &st);
	}
}

/*
 * A stamped write completed.  If its block got a newer generation while
 * it was in flight, or it failed, the block may hold either: mark it
 * ambiguous, until the next write of the block.
 */
void ssdload_verify_written(struct ssdload_worker *w,
			    const struct ssdload_io *io)
{
	struct ssdload_job *job = w->job;
	struct ssdload_vrun *v = &job->vfy;
	u64 idx = ssdload_vmap_idx(v, &job->devs[io->dev], io->dev, io->pos);
	u8 m = READ_ONCE(v->map[idx]);

	if (io->status || (m & SSDLOAD_VGEN_MASK) != io->vgen)
		WRITE_ONCE(v->map[idx], m | SSDLOAD_VGEN_AMBIG);
}

/* The read buffer of the pass. */
struct ssdload_vbuf {
	struct bio_vec *v;
	unsigned int nr;
	u32 len;
};

static void ssdload_vbuf_free(struct ssdload_vbuf *b)
{
	unsigned int i;

	for (i = 0; i < b->nr; i++)
		__free_pages(b->v[i].bv_page, get_order(b->v[i].bv_len));
	kfree(b->v);
}

static int ssdload_vbuf_alloc(struct ssdload_vbuf *b, u32 len)
{
	unsigned int max = DIV_ROUND_UP(len, SZ_1M) + ilog2(SZ_1M / PAGE_SIZE) + 1;
	u32 left = len;

	b->nr = 0;
	b->len = len;
	b->v = kcalloc(max, sizeof(*b->v), GFP_KERNEL);
	if (!b->v)
		return -ENOMEM;
	while (left) {
		unsigned int order = ssdload_chunk_order(left);
		u32 l = min_t(u32, left, PAGE_SIZE << order);
		struct page *page = alloc_pages(GFP_KERNEL, order);

		if (!page || WARN_ON_ONCE(b->nr == max)) {
			if (page)
				__free_pages(page, order);
			ssdload_vbuf_free(b);
			return -ENOMEM;
		}
		b->v[b->nr].bv_page = page;
		b->v[b->nr].bv_len = l;
		b->v[b->nr++].bv_offset = 0;
		left -= l;
	}
	return 0;
}

/* Read @len bytes at sector @sector of @bdev into the buffer. */
static int ssdload_vread(struct block_device *bdev, struct ssdload_vbuf *b,
			 u64 sector, u32 len)
{
	struct bio *bio;
	unsigned int i;
	int ret;

	bio = bio_alloc(bdev, b->nr, REQ_OP_READ, GFP_KERNEL);
	bio->bi_iter.bi_sector = sector;
	for (i = 0; i < b->nr && len; i++) {
		u32 l = min(len, b->v[i].bv_len);

		__bio_add_page(bio, b->v[i].bv_page, l, 0);
		len -= l;
	}
	ret = submit_bio_wait(bio);
	bio_put(bio);
	return ret;
}

/* Count a failed unit, and list it among the first ones. */
static void ssdload_vfailed(struct ssdload_vrun *v, u64 lba, u8 cls,
			    int err, const struct ssdload_vgot *got, u8 want)
{
	struct ssdload_vfail *f;

	WRITE_ONCE(v->cls[cls], v->cls[cls] + 1);
	if (v->nr_fail >= SSDLOAD_VFAIL_MAX)
		return;
	f = &v->fail[v->nr_fail];
	f->lba = lba;
	f->cls = cls;
	f->err = err;
	f->got = *got;
	f->want_gen = want;
	/* the entry before the count that shows it (debugfs reads live) */
	smp_store_release(&v->nr_fail, v->nr_fail + 1);
}

/* Check the @n blocks read into @b from block @blk of device @dev. */
static bool ssdload_vcheck_run(struct ssdload_job *job, unsigned int dev,
			       u64 blk, u64 n, struct ssdload_vbuf *b,
			       int err)
{
	struct ssdload_vrun *v = &job->vfy;
	u64 start = job->devs[dev].span_start;
	struct ssdload_vgot got = {};
	struct ssdload_vwant want;
	bool failed = false;
	u64 i;
	u32 off;

	want.seed = v->seed;
	for (i = 0; i < n; i++) {
		want.gen = v->map[v->base[dev] + blk + i];
		for (off = 0; off < v->bs; off += v->interval) {
			u64 pos = start + (blk + i) * v->bs + off;
			u8 cls = SSDLOAD_VCLASS_READ_ERROR;

			want.lba = pos >> SECTOR_SHIFT;
			if (!err)
				cls = ssdload_vcheck(&v->c, b->v, b->nr,
						     i * v->bs + off,
						     v->interval, &want, &got);
			WRITE_ONCE(v->units, v->units + 1);
			if (cls == SSDLOAD_VCLASS_OK)
				continue;
			ssdload_vfailed(v, want.lba, cls, err, &got, want.gen);
			failed = true;
		}
		WRITE_ONCE(v->checked, v->checked + 1);
	}
	return failed;
}

/* Verify device @dev: read back every block with a generation. */
static int ssdload_verify_dev(struct ssdload_job *job, unsigned int dev,
			      struct ssdload_vbuf *b)
{
	struct ssdload_vrun *v = &job->vfy;
	u64 nr = ssdload_vmap_blocks(job->devs[dev].span_bytes, v->bs);
	u64 per = b->len / v->bs, blk = 0, n;
	const u8 *map = v->map + v->base[dev];
	bool failed;
	int err;

	while (blk < nr) {
		if (!map[blk]) {
			blk++;
			continue;
		}
		n = 1;
		while (n < per && blk + n < nr && map[blk + n])
			n++;
		err = ssdload_vread(job->devs[dev].bdev.bdev, b,
				    (job->devs[dev].span_start +
				     blk * v->bs) >> SECTOR_SHIFT,
				    n * v->bs);
		failed = ssdload_vcheck_run(job, dev, blk, n, b, err);
		if (failed && job->cfg.verify_fatal)
			return -EILSEQ;
		if (READ_ONCE(job->stop))
			return -EINTR;
		blk += n;
		cond_resched();
	}
	return 0;
}

/*
 * The read-back pass, after the run's last I/O was reaped, the devices
 * still open, without job->lock (it waits for I/O; stop aborts it).
 * Returns 0, or -EILSEQ if a unit failed, -EINTR if stopped.
 */
int ssdload_verify_run(struct ssdload_job *job)
{
	struct ssdload_vrun *v = &job->vfy;
	struct ssdload_vbuf b;
	unsigned int dev;
	u64 i, written = 0, ambig = 0;
	int ret = 0;

	if (!v->map || READ_ONCE(job->stop))
		return 0;
	ssdload_vsum_time(job);
	if (!(job->cfg.do_verify || job->cfg.verify_only))
		return 0;
	for (i = 0; i < v->map_bytes; i++) {
		written += !!v->map[i];
		ambig += !!(v->map[i] & SSDLOAD_VGEN_AMBIG);
	}
	WRITE_ONCE(v->written, written);
	WRITE_ONCE(v->ambiguous, ambig);
	WRITE_ONCE(v->state, SSDLOAD_VSTATE_RUNNING);
	ret = ssdload_vbuf_alloc(&b, ssdload_vread_bytes(v->bs));
	if (ret)
		goto out;
	for (dev = 0; dev < job->nr_devs && !ret; dev++)
		ret = ssdload_verify_dev(job, dev, &b);
	ssdload_vbuf_free(&b);
out:
	WRITE_ONCE(v->state, ret ? SSDLOAD_VSTATE_ABORTED :
		   SSDLOAD_VSTATE_DONE);
	if (!ret && v->nr_fail)
		ret = -EILSEQ;
	return ret;
}

/* debugfs verify (uapi): the counts, then the first failures. */
int ssdload_verify_show(struct ssdload_job *job, struct seq_file *m)
{
	const struct ssdload_vrun *v = &job->vfy;
	u64 failed = 0;
	unsigned int i, nr;

	/* pairs with ssdload_vfailed(): the entries below the count are set */
	nr = smp_load_acquire(&v->nr_fail);
	seq_printf(m, "verify=%s\nverify_interval=%u\nverify_state=%s\n",
		   ssdload_enum_name(ssdload_verify_names, job->cfg.verify),
		   v->interval, ssdload_vstate_names[READ_ONCE(v->state)]);
	seq_printf(m, "verify_written=%llu\nverify_checked=%llu\nverify_units=%llu\nverify_ambiguous=%llu\n",
		   READ_ONCE(v->written), READ_ONCE(v->checked),
		   READ_ONCE(v->units), READ_ONCE(v->ambiguous));
	for (i = 0; i < SSDLOAD_VCLASS_NR; i++)
		failed += READ_ONCE(v->cls[i]);
	seq_printf(m, "verify_failed=%llu\n", failed);
	for (i = 0; i < SSDLOAD_VCLASS_NR; i++)
		seq_printf(m, "verify_%s=%llu\n", ssdload_vclass_names[i],
			   READ_ONCE(v->cls[i]));
	seq_printf(m, "verify_map_bytes=%llu\n", v->map_bytes);
	seq_printf(m, "verify_csum_ns=%llu\nverify_csum_bytes=%llu\n",
		   READ_ONCE(v->csum_ns), READ_ONCE(v->csum_bytes));
	for (i = 0; i < nr; i++) {
		const struct ssdload_vfail *f = &v->fail[i];

		seq_printf(m, "fail=%llu %s got_lba=%llu got_gen=%u want_gen=%u%s seq=%llu worker=%u err=%d\n",
			   f->lba, ssdload_vclass_names[f->cls], f->got.lba,
			   f->got.gen, f->want_gen & SSDLOAD_VGEN_MASK,
			   f->want_gen & SSDLOAD_VGEN_AMBIG ? "+ambiguous" : "",
			   f->got.seq, f->got.worker, f->err);
	}
	return 0;
}
