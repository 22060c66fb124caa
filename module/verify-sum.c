// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: the checksums of verify that need more than a library call
 * (Documentation/verify.rst).
 *
 *  - md5 and sha1 through the kernel crypto API: one transform per job,
 *    allocated at enable (crypto_alloc_shash()), and a hash state per
 *    user, since a state holds one running digest: the job's for the
 *    read-back pass, one per worker for the writes it stamps.
 *  - verify_pattern, with fio's syntax (lib/pattern.c): hex bytes
 *    (0x...), "text", decimal integers, and %o, the block's byte offset
 *    as 8 bytes little-endian.  verify=pattern writes the pattern over
 *    the whole block, without a header, and checks it byte for byte;
 *    with a checksum type, the pattern is the data the header covers.
 */
#include <crypto/hash.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ssdload.h"

/* ---- verify_pattern: parsing --------------------------------------- */

/* Append @n bytes of @src to @p (NULL @src: zeros), if they fit. */
static int ssdload_vpat_put(struct ssdload_vpat *p, const void *src,
			    size_t n)
{
	if (!n || n > SSDLOAD_PATTERN_MAX - p->len)
		return -EINVAL;
	if (src)
		memcpy(p->bytes + p->len, src, n);
	else
		memset(p->bytes + p->len, 0, n);
	p->len += n;
	return 0;
}

static int ssdload_vpat_hexval(char c)
{
	return isdigit(c) ? c - '0' : _tolower(c) - 'a' + 10;
}

/* Is there a "0x" or "0X" at @s? */
static bool ssdload_vpat_is_hex(const char *s, const char *end)
{
	return end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/*
 * fio's hex number: "0x" and hex digits, as many bytes as pairs of
 * digits, most significant first; an odd count makes the first digit a
 * byte of its own (0xabc: 0a bc).  A digit run that ends in "0x" leaves
 * the 0 to the next number (0xff0x14: ff, then 14).
 */
static const char *ssdload_vpat_hex(const char *s, const char *end,
				    struct ssdload_vpat *p)
{
	const char *d = s + 2, *e = d;
	u8 b;

	while (e < end && isxdigit(*e))
		e++;
	if (e < end && e - d > 1 && (*e == 'x' || *e == 'X') && e[-1] == '0')
		e--;
	if (e == d)
		return NULL;
	if ((e - d) & 1) {
		b = ssdload_vpat_hexval(*d++);
		if (ssdload_vpat_put(p, &b, 1))
			return NULL;
	}
	for (; d < e; d += 2) {
		b = ssdload_vpat_hexval(d[0]) << 4 | ssdload_vpat_hexval(d[1]);
		if (ssdload_vpat_put(p, &b, 1))
			return NULL;
	}
	return e;
}

/*
 * fio's decimal number: an int (INT_MIN..INT_MAX), up to the next "0x";
 * 0 is one byte 00, another value its bytes little-endian up to the
 * last non-zero one (66: 42; -1024: 00 fc ff ff).
 */
static const char *ssdload_vpat_dec(const char *s, const char *end,
				    struct ssdload_vpat *p)
{
	const char *d = s, *lim = end, *q;
	bool neg = false;
	u64 mag = 0;
	u32 val;
	u8 b;

	for (q = s; q < end; q++) {
		if (ssdload_vpat_is_hex(q, end)) {
			lim = q;
			break;
		}
	}
	if (d < lim && (*d == '-' || *d == '+'))
		neg = *d++ == '-';
	if (d == lim || !isdigit(*d))
		return NULL;
	while (d < lim && isdigit(*d)) {
		mag = mag * 10 + (*d++ - '0');
		if (mag > (u64)INT_MAX + 1)
			return NULL;
	}
	if (!neg && mag > INT_MAX)
		return NULL;
	val = neg ? (u32)-(s64)mag : (u32)mag;
	if (!val)
		return ssdload_vpat_put(p, NULL, 1) ? NULL : d;
	for (; val; val >>= 8) {
		b = val & 0xff;
		if (ssdload_vpat_put(p, &b, 1))
			return NULL;
	}
	return d;
}

/*
 * verify_pattern, fio's syntax: a sequence of "text" (no escapes, not
 * empty), 0xHEX, decimal integers and %o (8 bytes: the block's offset),
 * nothing between them; one trailing newline; "" clears the pattern.
 * fio's 'file' element is refused (the kernel reads no user files).
 * -EINVAL if malformed or longer than SSDLOAD_PATTERN_MAX bytes.
 */
int ssdload_parse_vpattern(const char *buf, struct ssdload_vpat *p)
{
	size_t n = strlen(buf);
	const char *s = buf, *end;

	memset(p, 0, sizeof(*p));
	if (n && buf[n - 1] == '\n')
		n--;
	if (n >= SSDLOAD_VPATTERN_TEXT_MAX)
		return -EINVAL;
	end = buf + n;
	while (s < end) {
		const char *q;

		switch (*s) {
		case '"':
			q = memchr(s + 1, '"', end - s - 1);
			if (!q || ssdload_vpat_put(p, s + 1, q - s - 1))
				goto bad;
			s = q + 1;
			break;
		case '%':
			if (end - s < 2 || s[1] != 'o' ||
			    p->nr_fmt == SSDLOAD_VPATTERN_FMT_MAX)
				goto bad;
			p->fmt[p->nr_fmt++] = p->len;
			if (ssdload_vpat_put(p, NULL, sizeof(u64)))
				goto bad;
			s += 2;
			break;
		default:
			if (ssdload_vpat_is_hex(s, end))
				q = ssdload_vpat_hex(s, end, p);
			else
				q = ssdload_vpat_dec(s, end, p);
			if (!q)
				goto bad;
			s = q;
			break;
		}
	}
	memcpy(p->text, buf, n);
	p->text[n] = '\0';
	return 0;
bad:
	memset(p, 0, sizeof(*p));
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_vpattern);

/* verify_pattern as configfs shows it: as written. */
ssize_t ssdload_vpattern_show(const struct ssdload_vpat *p, char *page)
{
	return sysfs_emit(page, "%s\n", p->text);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vpattern_show);

/* ---- verify_pattern: filling and checking a unit -------------------- */

/* The pattern of the block at byte @pos into @out (@p->len bytes). */
void ssdload_vpat_make(const struct ssdload_vpat *p, u8 *out, u64 pos)
{
	__le64 le = cpu_to_le64(pos);
	unsigned int i;

	memcpy(out, p->bytes, p->len);
	for (i = 0; i < p->nr_fmt; i++)
		memcpy(out + p->fmt[i], &le, sizeof(le));
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vpat_make);

/*
 * Walk the @len bytes at @off of the buffer @v[@nr] against the pattern
 * in @pat (@plen bytes) repeated from the start of the block, the unit
 * starting @boff bytes into it: fill them (@fill), or compare them.
 * Returns false at the first byte that differs.
 */
static bool ssdload_vpat_walk(const struct bio_vec *v, unsigned int nr,
			      u32 off, u32 len, const u8 *pat, u32 plen,
			      u32 boff, bool fill)
{
	u32 ph = boff % plen;
	unsigned int i;

	for (i = 0; i < nr && len; i++) {
		u8 *dst;
		u32 l;

		if (off >= v[i].bv_len) {
			off -= v[i].bv_len;
			continue;
		}
		l = min(len, v[i].bv_len - off);
		dst = (u8 *)page_address(v[i].bv_page) + v[i].bv_offset + off;
		len -= l;
		off = 0;
		while (l) {
			u32 k = min(l, plen - ph);

			if (fill)
				memcpy(dst, pat + ph, k);
			else if (memcmp(dst, pat + ph, k))
				return false;
			dst += k;
			l -= k;
			ph = (ph + k) % plen;
		}
	}
	return true;
}

/* The unit's offset in its block (the buffer may hold several blocks). */
static u32 ssdload_vpat_boff(const struct ssdload_vctx *c, u32 off)
{
	return c->bs ? off % c->bs : off;
}

/*
 * Write the pattern over the unit of @len bytes at @off of the buffer,
 * in the block at byte @pos of the device.
 */
void ssdload_vpat_fill(const struct ssdload_vctx *c, const struct bio_vec *v,
		       unsigned int nr, u32 off, u32 len, u64 pos)
{
	const struct ssdload_vpat *p = c->pat;

	ssdload_vpat_make(p, c->pbuf, pos);
	ssdload_vpat_walk(v, nr, off, len, c->pbuf, p->len,
			  ssdload_vpat_boff(c, off), true);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vpat_fill);

/* Copy @len bytes at @off of the buffer into @out (false: past its end). */
static bool ssdload_vpat_gather(const struct bio_vec *v, unsigned int nr,
				u32 off, u8 *out, u32 len)
{
	unsigned int i;

	for (i = 0; i < nr && len; i++) {
		u32 l;

		if (off >= v[i].bv_len) {
			off -= v[i].bv_len;
			continue;
		}
		l = min(len, v[i].bv_len - off);
		memcpy(out, (u8 *)page_address(v[i].bv_page) + v[i].bv_offset +
		       off, l);
		out += l;
		len -= l;
		off = 0;
	}
	return !len;
}

/*
 * Check the unit of @len bytes at @off of the buffer, read from the block
 * at byte @pos: OK if it holds the pattern.  Else, with a %o, the first
 * offset the unit holds names the block it came from: the pattern of that
 * block there makes it misplaced (@got->lba, its sector); any other
 * difference is corrupt.  Without a header, a lost write (stale) cannot
 * be told from the pattern alone.
 */
u8 ssdload_vpat_check(const struct ssdload_vctx *c, const struct bio_vec *v,
		      unsigned int nr, u32 off, u32 len, u64 pos,
		      struct ssdload_vgot *got)
{
	const struct ssdload_vpat *p = c->pat;
	u32 boff = ssdload_vpat_boff(c, off);
	__le64 le;
	u32 k;
	u64 other;

	ssdload_vpat_make(p, c->pbuf, pos);
	if (ssdload_vpat_walk(v, nr, off, len, c->pbuf, p->len, boff, false))
		return SSDLOAD_VCLASS_OK;
	if (!p->nr_fmt)
		return SSDLOAD_VCLASS_CORRUPT;
	/* the first %o inside the unit: block bytes boff + k */
	k = (p->fmt[0] + p->len - boff % p->len) % p->len;
	if (k + sizeof(le) > len ||
	    !ssdload_vpat_gather(v, nr, off + k, (u8 *)&le, sizeof(le)))
		return SSDLOAD_VCLASS_CORRUPT;
	other = le64_to_cpu(le);
	if (other == pos || other % SECTOR_SIZE)
		return SSDLOAD_VCLASS_CORRUPT;
	ssdload_vpat_make(p, c->pbuf, other);
	if (!ssdload_vpat_walk(v, nr, off, len, c->pbuf, p->len, boff, false))
		return SSDLOAD_VCLASS_CORRUPT;
	got->lba = (other + boff) >> SECTOR_SHIFT;
	return SSDLOAD_VCLASS_MISPLACED;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vpat_check);

/* ---- md5 and sha1: the crypto API ------------------------------------ */

#if IS_REACHABLE(CONFIG_CRYPTO_HASH)
/*
 * The transform of @alg and a hash state for @c (the job's).  Returns a
 * reason if this kernel cannot, else NULL; ssdload_vshash_put() undoes.
 */
const char *ssdload_vshash_get(struct ssdload_vctx *c, const char *alg)
{
	struct crypto_shash *tfm;

	tfm = crypto_alloc_shash(alg, 0, 0);
	if (IS_ERR(tfm))
		return "is not in this kernel's crypto API (CONFIG_CRYPTO_MD5, CONFIG_CRYPTO_SHA1)";
	if (crypto_shash_digestsize(tfm) > SSDLOAD_VHDR_CSUM_MAX)
		goto out_free_tfm;
	c->desc = kmalloc(sizeof(*c->desc) + crypto_shash_descsize(tfm),
			  GFP_KERNEL);
	if (!c->desc)
		goto out_free_tfm;
	c->desc->tfm = tfm;
	c->tfm = tfm;
	return NULL;

out_free_tfm:
	crypto_free_shash(tfm);
	return "cannot get its hash state (out of memory)";
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vshash_get);

void ssdload_vshash_put(struct ssdload_vctx *c)
{
	kfree_sensitive(c->desc);
	c->desc = NULL;
	if (c->tfm)
		crypto_free_shash(c->tfm);
	c->tfm = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vshash_put);

/* A hash state of its own for a copy of the job's context. */
static struct shash_desc *ssdload_vshash_desc(const struct ssdload_vctx *c,
					      int node)
{
	struct shash_desc *d;

	d = kmalloc_node(sizeof(*d) + crypto_shash_descsize(c->tfm),
			 GFP_KERNEL, node);
	if (d)
		d->tfm = c->tfm;
	return d;
}

/*
 * md5 and sha1 are synchronous software hashes of the buffers the caller
 * gives: init, update and final cannot fail for them.
 */
void ssdload_vshash_init(const struct ssdload_vctx *c)
{
	crypto_shash_init(c->desc);
}

void ssdload_vshash_update(const struct ssdload_vctx *c, const void *p,
			   size_t len)
{
	crypto_shash_update(c->desc, p, len);
}

void ssdload_vshash_final(const struct ssdload_vctx *c, u8 *out)
{
	crypto_shash_final(c->desc, out);
}
#else
const char *ssdload_vshash_get(struct ssdload_vctx *c, const char *alg)
{
	return "needs the kernel crypto API (CONFIG_CRYPTO_HASH), which this kernel lacks";
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vshash_get);

void ssdload_vshash_put(struct ssdload_vctx *c)
{
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_vshash_put);

static struct shash_desc *ssdload_vshash_desc(const struct ssdload_vctx *c,
					      int node)
{
	return NULL;
}

void ssdload_vshash_init(const struct ssdload_vctx *c)
{
}

void ssdload_vshash_update(const struct ssdload_vctx *c, const void *p,
			   size_t len)
{
}

void ssdload_vshash_final(const struct ssdload_vctx *c, u8 *out)
{
}
#endif

/* ---- a job's and a worker's context ---------------------------------- */

/*
 * Start step, after ssdload_vctx_get(): verify_pattern's rules and the
 * job's scratch copy of the pattern.  verify=pattern needs a pattern;
 * verify_pattern needs a verify type that writes it (not meta or null,
 * whose data are not checked).
 */
int ssdload_vsum_prepare(struct ssdload_job *job)
{
	struct ssdload_vctx *c = &job->vfy.c;
	const struct ssdload_vpat *p = job->cfg.vpat;
	u32 type = job->cfg.verify;

	c->bs = job->vfy.bs;
	if (type == SSDLOAD_VERIFY_PATTERN && !p)
		return ssdload_job_refuse(job, -EINVAL, "verify_pattern",
					  "verify=pattern needs verify_pattern");
	if (!p)
		return 0;
	if (type == SSDLOAD_VERIFY_META || type == SSDLOAD_VERIFY_NULL)
		return ssdload_job_refuse(job, -EINVAL, "verify_pattern",
					  "verify_pattern=%s: verify=%s does not check the data",
					  p->text,
					  ssdload_enum_name(ssdload_verify_names,
							    type));
	c->pbuf = kmalloc(SSDLOAD_PATTERN_MAX, GFP_KERNEL);
	if (!c->pbuf)
		return ssdload_job_refuse(job, -ENOMEM, "verify_pattern",
					  "out of memory");
	c->pat = p;
	return 0;
}

/* Undo ssdload_vsum_prepare() (ssdload_vctx_put() drops the rest). */
void ssdload_vsum_release(struct ssdload_vctx *c)
{
	kfree(c->pbuf);
	c->pbuf = NULL;
	c->pat = NULL;
}

/*
 * Start step, per worker: a copy of the job's context with a hash state
 * and a pattern scratch of its own.  Nothing without verify.
 */
int ssdload_vsum_worker_alloc(struct ssdload_worker *w, int node)
{
	const struct ssdload_vctx *jc = &w->job->vfy.c;
	struct ssdload_vctx *c;

	if (!w->job->vfy.map)
		return 0;
	c = kmalloc_node(sizeof(*c), GFP_KERNEL, node);
	if (!c)
		return -ENOMEM;
	*c = *jc;
	c->desc = NULL;
	c->pbuf = NULL;
	w->vc = c;
	if (jc->tfm) {
		c->desc = ssdload_vshash_desc(jc, node);
		if (!c->desc)
			return -ENOMEM;
	}
	if (jc->pat) {
		c->pbuf = kmalloc_node(SSDLOAD_PATTERN_MAX, GFP_KERNEL, node);
		if (!c->pbuf)
			return -ENOMEM;
	}
	return 0;
}

/* Free a worker's context (its transform is the job's). */
void ssdload_vsum_worker_free(struct ssdload_worker *w)
{
	if (!w->vc)
		return;
	kfree(w->vc->pbuf);
	kfree_sensitive(w->vc->desc);
	kfree(w->vc);
	w->vc = NULL;
}

/* ---- the checksum's own speed ---------------------------------------- */

#define SSDLOAD_VSUM_TIME_BYTES	SZ_256K	/* checksummed per timing */
#define SSDLOAD_VSUM_TIME_REPS	3	/* the fastest of this many */

/*
 * At the run's end, before the read-back pass: time the job's checksum
 * (or, for verify=pattern, the pattern's fill) over 256 KiB in units of
 * verify_interval bytes, the fastest of three passes, on this (the
 * end_work) thread, into csum_ns and csum_bytes (debugfs verify).  The
 * same kernel code the workers run, measured apart from the I/O, so that
 * `make bench` can set a verify row's extra CPU per I/O against it.
 * meta and null have no data checksum: nothing is timed.
 */
void ssdload_vsum_time(struct ssdload_job *job)
{
	struct ssdload_vrun *v = &job->vfy;
	u32 unit = v->interval, off, i;
	u8 out[SSDLOAD_VHDR_CSUM_MAX];
	struct bio_vec bv;
	u64 best = U64_MAX;
	struct page *page;
	u8 *buf;

	if (!ssdload_vcsum_size(v->c.type) &&
	    v->c.type != SSDLOAD_VERIFY_PATTERN)
		return;
	if (!unit || unit > SSDLOAD_VSUM_TIME_BYTES)
		return;
	page = alloc_pages(GFP_KERNEL | __GFP_NOWARN,
			   get_order(SSDLOAD_VSUM_TIME_BYTES));
	if (!page)
		return;
	buf = page_address(page);
	for (off = 0; off < SSDLOAD_VSUM_TIME_BYTES; off++)
		buf[off] = (off * 2654435761U) >> 24;
	bv.bv_page = page;
	bv.bv_offset = 0;
	bv.bv_len = SSDLOAD_VSUM_TIME_BYTES;
	for (i = 0; i < SSDLOAD_VSUM_TIME_REPS; i++) {
		u64 t = ktime_get_ns();

		for (off = 0; off + unit <= SSDLOAD_VSUM_TIME_BYTES;
		     off += unit) {
			if (v->c.type == SSDLOAD_VERIFY_PATTERN)
				ssdload_vpat_fill(&v->c, &bv, 1, off, unit, off);
			else
				ssdload_vcsum_flat(&v->c, buf + off, unit, out);
		}
		best = min(best, ktime_get_ns() - t);
		cond_resched();
	}
	__free_pages(page, get_order(SSDLOAD_VSUM_TIME_BYTES));
	WRITE_ONCE(v->csum_ns, best);
	WRITE_ONCE(v->csum_bytes, rounddown(SSDLOAD_VSUM_TIME_BYTES, unit));
}
