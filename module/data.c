// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: what the write buffers hold, with fio's buffer options.
 *
 * A write buffer is a list of physically contiguous chunks (bio_vecs);
 * everything here addresses it as one stream of bytes from offset 0.
 * ssdload_data_init() picks one mode per worker, in fio's order of
 * precedence (io_u.c fill_io_buffer(), init.c, options.c):
 *
 *  - GEN: buffer_compress_percentage (1..99), dedupe_percentage or
 *    refill_buffers.  Every write gets a content number (a new one, or
 *    the last unique one again with probability dedupe_percentage), and
 *    its bytes are a pure function of (seed, worker, content number,
 *    offset in the buffer): a duplicate is byte for byte the last unique
 *    content, whatever its offset on the device.  With compression, each
 *    chunk of the buffer is chunk * (100 - P) / 100 random bytes, then
 *    zeros or the pattern.  The chunk layout depends on the offset in
 *    the buffer only, so the filler is written once at prefill and each
 *    write regenerates only the random parts, from one stream per
 *    content (fio seeds each chunk anew; one stream costs less and
 *    repeats no more).
 *    Cost per write: (100 - P)% of its bytes from a generator that makes
 *    16 bytes per 64x64->128-bit multiplication (an xor, an add and two
 *    stores with it, no load), plus one 64-bit mix per write; one PRNG
 *    draw per write for dedupe.
 *  - PATTERN: buffer_pattern (or compression 100 with a pattern): the
 *    pattern repeated from the buffer start, written once.  No scramble.
 *    Per write: nothing.
 *  - ZERO: zero_buffers (or compression 100): zeros once.  Per write:
 *    nothing.
 *  - RANDOM: the default.  Random data once; with scramble_buffers, each
 *    512-byte sector of a write starts with a 16-byte header: its byte
 *    offset on the device and a tag unique to the write.  Per write:
 *    16 bytes per sector.
 *
 * The dedupe draws come from the generator's own PRNG: the offsets and
 * the read/write mix of a worker never depend on its data options.
 */
#include <linux/bits.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "ssdload.h"
#include "rng.h"

#define DATA_IDX_MUL	0xd1342543de82ef95ULL	/* odd: worker keys */
#define DATA_RNG_SALT	0x5d4a7a3b1c2e8f61ULL	/* dedupe draws vs offsets */
#define DATA_PREFILL	BIT_ULL(63)		/* content numbers of prefill */

/* ---- the buffer as a stream of bytes --------------------------------- */

/* One 64-bit store at any alignment (a plain store where the CPU allows). */
static __always_inline void ssdload_put64(u8 *p, u64 v)
{
	memcpy(p, &v, sizeof(v));
}

/* A forward-only cursor over the chunks of a buffer. */
struct ssdload_dcur {
	const struct bio_vec *v;	/* the chunks */
	unsigned int nr;		/* their number */
	unsigned int i;			/* chunk of the last position */
	u64 base;			/* stream offset of chunk i */
};

/*
 * Map stream offset @pos (never below the previous call's): *@p gets its
 * address; returns the bytes contiguous from there, 0 past the end.
 */
static u32 ssdload_dcur_span(struct ssdload_dcur *c, u64 pos, u8 **p)
{
	while (c->i < c->nr && pos >= c->base + c->v[c->i].bv_len) {
		c->base += c->v[c->i].bv_len;
		c->i++;
	}
	if (c->i == c->nr)
		return 0;
	*p = (u8 *)page_address(c->v[c->i].bv_page) + c->v[c->i].bv_offset +
	     (pos - c->base);
	return c->base + c->v[c->i].bv_len - pos;
}

/* ---- the random generator ---------------------------------------------- */

#define DATA_MCG_MUL	0xd1342543de82ef95ULL	/* Steele & Vigna's MCG */

/* The 128-bit product of @a and @b: returns its low half, *@hi the high. */
static __always_inline u64 ssdload_mul128(u64 a, u64 b, u64 *hi)
{
#if defined(CONFIG_X86_64)
	u64 lo, h;

	/* one mulq; the fixed registers keep the state in rax between steps */
	asm("mulq %3" : "=a" (lo), "=d" (h) : "a" (a), "rm" (b));
	*hi = h;
	return lo;
#elif defined(CONFIG_ARCH_SUPPORTS_INT128) && defined(__SIZEOF_INT128__)
	__uint128_t m = (__uint128_t)a * b;

	*hi = m >> 64;
	return m;
#else
	u64 ll = (u64)(u32)a * (u32)b, lh = (u64)(u32)a * (b >> 32);
	u64 hl = (a >> 32) * (u32)b, hh = (a >> 32) * (b >> 32);
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;

	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return a * b;
#endif
}

/*
 * A 64-bit multiplicative congruential generator (odd state, period
 * 2^62) with the full 128-bit product of each step: the low half is the
 * next state, and the 16 bytes out are hi ^ lo and hi + lo.  The high
 * half depends on every bit of the state, so both words are well mixed
 * in all their bits although the low bits of the state alone are weak.
 * Per 16 bytes: one multiplication, an xor, an add, two stores, no load.
 * Under qemu TCG each guest instruction costs about the same and every
 * store pays a softmmu TLB lookup, so the fewer instructions per store
 * the better: this beat four lanes of a 64-bit MCG (one multiplication,
 * a shift and an xor per 8 bytes) by a fifth there.  Random enough for
 * any compressor or deduplicator; not meant for statistics.
 */
struct ssdload_xs {
	u64 x;				/* the state, odd */
	unsigned int left;		/* bytes of w[] still to write */
	u64 w[2];			/* a block cut by a chunk boundary */
};

#define DATA_XS_BLOCK	16U		/* bytes per step */
#define DATA_XS_UNROLL	16U		/* steps per loop iteration */

/* One step: the next 16 bytes of the stream at @p (any alignment). */
static __always_inline void ssdload_xs_step(u64 *x, u8 *p)
{
	u64 hi, lo = ssdload_mul128(*x, DATA_MCG_MUL, &hi);

	*x = lo;
	ssdload_put64(p, hi ^ lo);
	ssdload_put64(p + 8, hi + lo);
}

static void ssdload_xs_seed(struct ssdload_xs *x, u64 key)
{
	x->x = ssdload_mix64(key) | 1;
	x->left = 0;
}

/* The next @n bytes of the stream of @x at @p. */
static void ssdload_xs_put(struct ssdload_xs *x, u8 *p, u32 n)
{
	u64 s = x->x;

	if (x->left) {
		u32 k = min(n, x->left);

		memcpy(p, (u8 *)x->w + DATA_XS_BLOCK - x->left, k);
		x->left -= k;
		p += k;
		n -= k;
	}
	for (; n >= DATA_XS_BLOCK * DATA_XS_UNROLL;
	     n -= DATA_XS_BLOCK * DATA_XS_UNROLL,
	     p += DATA_XS_BLOCK * DATA_XS_UNROLL) {
		unsigned int i;

		/* one straight run of stores: no branch, no bounds check */
#pragma GCC unroll 16
		for (i = 0; i < DATA_XS_UNROLL; i++)
			ssdload_xs_step(&s, p + i * DATA_XS_BLOCK);
	}
	for (; n >= DATA_XS_BLOCK; n -= DATA_XS_BLOCK, p += DATA_XS_BLOCK)
		ssdload_xs_step(&s, p);
	if (n) {
		ssdload_xs_step(&s, (u8 *)x->w);
		memcpy(p, x->w, n);
		x->left = DATA_XS_BLOCK - n;
	}
	x->x = s;
}

/* Bytes [@pos, @pos + @len) of the buffer from the stream of @x. */
static void ssdload_data_rand(struct ssdload_dcur *c, u64 pos, u64 len,
			      struct ssdload_xs *x)
{
	while (len) {
		u8 *p;
		u32 n = ssdload_dcur_span(c, pos, &p);

		if (!n)
			return;
		n = min_t(u64, n, len);
		ssdload_xs_put(x, p, n);
		pos += n;
		len -= n;
	}
}

/* Bytes [@pos, @pos + @len): zeros, or the pattern from its first byte. */
static void ssdload_data_filler(const struct ssdload_datacfg *cfg,
				struct ssdload_dcur *c, u64 pos, u64 len)
{
	u32 plen = cfg->pattern_len, ph = 0;

	while (len) {
		u32 n, done, k;
		u8 *p;

		n = ssdload_dcur_span(c, pos, &p);
		if (!n)
			return;
		n = min_t(u64, n, len);
		pos += n;
		len -= n;
		if (plen <= 1) {
			memset(p, plen ? cfg->pattern[0] : 0, n);
			continue;
		}
		/* the rest of the pattern cut at the last chunk's end */
		k = min(n, plen - ph);
		memcpy(p, cfg->pattern + ph, k);
		ph = (ph + k) % plen;
		if (k == n)
			continue;
		p += k;
		n -= k;
		/* one whole pattern, then doubling copies keep the phase */
		done = min(n, plen);
		memcpy(p, cfg->pattern, done);
		while (done < n) {
			k = min(done, n - done);
			memcpy(p + done, p, k);
			done += k;
		}
		ph = n % plen;
	}
}

/*
 * The random parts of content @content over @len bytes: one stream from
 * the content's key, laid over the random part of each chunk in turn
 * (the whole buffer without compression).  The fillers are not touched
 * (ssdload_data_prefill() wrote them).  The chunk layout is fixed, so
 * the first n bytes of a content are the same at any length >= n.
 */
static void ssdload_data_content(struct ssdload_datagen *g,
				 const struct bio_vec *v, unsigned int nr,
				 u32 len, u64 content)
{
	struct ssdload_dcur c = { .v = v, .nr = nr };
	struct ssdload_xs x;
	u64 pos;

	ssdload_xs_seed(&x, g->key ^ (content * SSDLOAD_RNG_GOLDEN));
	if (g->rand_len == U32_MAX) {
		ssdload_data_rand(&c, 0, len, &x);
		return;
	}
	if (!g->rand_len)
		return;
	for (pos = 0; pos < len; pos += g->chunk)
		ssdload_data_rand(&c, pos, min_t(u64, g->rand_len, len - pos),
				  &x);
}

/* ---- the interface ----------------------------------------------------- */

/*
 * Set up the write data of worker @idx for the options in @c (kept by
 * reference: it must outlive the run).
 */
void ssdload_data_init(struct ssdload_datagen *g,
		       const struct ssdload_datacfg *c, u32 idx)
{
	u64 x;
	int i;

	memset(g, 0, sizeof(*g));
	g->cfg = c;
	g->idx = idx;
	g->key = ssdload_mix64(c->seed ^ ((u64)(idx + 1) * DATA_IDX_MUL));
	x = g->key ^ DATA_RNG_SALT;
	for (i = 0; i < 4; i++)
		g->rng[i] = ssdload_splitmix64(&x);
	g->chunk = c->compress_chunk ? c->compress_chunk : 512;
	/* fio: a chunk never spans more than the smallest write */
	if (c->write_bs_min)
		g->chunk = min(g->chunk, c->write_bs_min);
	g->rand_len = U32_MAX;
	if (c->compress_pct >= 100)
		g->mode = c->pattern_len ? SSDLOAD_DATA_PATTERN :
					   SSDLOAD_DATA_ZERO;
	else if (c->compress_pct || c->dedupe_pct)
		g->mode = SSDLOAD_DATA_GEN;
	else if (c->pattern_len)
		g->mode = SSDLOAD_DATA_PATTERN;
	else if (c->zero)
		g->mode = SSDLOAD_DATA_ZERO;
	else if (c->refill)
		g->mode = SSDLOAD_DATA_GEN;
	else
		g->mode = SSDLOAD_DATA_RANDOM;
	if (g->mode == SSDLOAD_DATA_GEN && c->compress_pct)
		g->rand_len = div_u64((u64)g->chunk * (100 - c->compress_pct),
				      100);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_data_init);

/*
 * Fill a newly allocated write buffer of @len bytes (@nr chunks in @v):
 * its whole content for ZERO, PATTERN and RANDOM, the fillers (and a
 * first random content) for GEN.  May take long for big buffers: the
 * caller allocates in process context and may cond_resched() between
 * buffers.
 */
void ssdload_data_prefill(struct ssdload_datagen *g, const struct bio_vec *v,
			  unsigned int nr, u32 len)
{
	struct ssdload_dcur c = { .v = v, .nr = nr };
	u64 content = DATA_PREFILL | g->nprefill++;
	u64 pos;

	switch (g->mode) {
	case SSDLOAD_DATA_ZERO:
	case SSDLOAD_DATA_PATTERN:
		ssdload_data_filler(g->cfg, &c, 0, len);
		return;
	case SSDLOAD_DATA_GEN:
		if (g->rand_len != U32_MAX) {
			for (pos = 0; pos < len; pos += g->chunk) {
				u64 r = min_t(u64, g->rand_len, len - pos);
				u64 f = min_t(u64, g->chunk, len - pos) - r;

				if (f)
					ssdload_data_filler(g->cfg, &c, pos + r,
							    f);
			}
		}
		fallthrough;
	default:
		ssdload_data_content(g, v, nr, len, content);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_data_prefill);

/* The scramble header of each sector: @pos, then the write's tag. */
static void ssdload_data_scramble(struct ssdload_datagen *g,
				  const struct bio_vec *v, unsigned int nr,
				  u32 len, u64 pos)
{
	struct ssdload_dcur c = { .v = v, .nr = nr };
	u64 tag = ((g->wseq << 16 | g->idx) * SSDLOAD_RNG_GOLDEN) ^
		  g->cfg->seed;
	u32 off;

	for (off = 0; off + 2 * sizeof(u64) <= len; off += SECTOR_SIZE) {
		u8 *p;

		if (ssdload_dcur_span(&c, off, &p) < 2 * sizeof(u64))
			break;
		ssdload_put64(p, pos + off);
		ssdload_put64(p + sizeof(u64), tag);
	}
}

/*
 * Before each write of @len bytes (at most the prefilled length) at byte
 * @pos of the device: what the mode asks (see the top of this file).
 */
void ssdload_data_write(struct ssdload_datagen *g, const struct bio_vec *v,
			unsigned int nr, u32 len, u64 pos)
{
	const struct ssdload_datacfg *cfg = g->cfg;

	switch (g->mode) {
	case SSDLOAD_DATA_RANDOM:
		if (cfg->scramble)
			ssdload_data_scramble(g, v, nr, len, pos);
		break;
	case SSDLOAD_DATA_GEN:
		/* the draw comes first: its sequence depends on nothing else */
		if (cfg->dedupe_pct &&
		    ((ssdload_xoshiro256ss(g->rng) >> 32) * 100 >> 32) <
		    cfg->dedupe_pct && g->unique) {
			g->dups++;
		} else {
			g->cur = ++g->unique;
		}
		ssdload_data_content(g, v, nr, len, g->cur);
		break;
	default:
		break;
	}
	g->wseq++;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_data_write);

/* The value of hex digit @c, -1 if it is none. */
static int ssdload_hexval(char c)
{
	if (!isxdigit(c))
		return -1;
	return isdigit(c) ? c - '0' : _tolower(c) - 'a' + 10;
}

/*
 * buffer_pattern: "0x" (or "0X") and an even number of hex digits, 1 to
 * SSDLOAD_PATTERN_MAX bytes, one optional trailing newline; "" is no
 * pattern (*@len = 0).  @out has room for SSDLOAD_PATTERN_MAX bytes.
 */
int ssdload_parse_pattern(const char *buf, u8 *out, u32 *len)
{
	size_t n = strlen(buf), i;

	if (n && buf[n - 1] == '\n')
		n--;
	if (!n) {
		*len = 0;
		return 0;
	}
	if (n < 4 || buf[0] != '0' || (buf[1] != 'x' && buf[1] != 'X'))
		return -EINVAL;
	n -= 2;
	if (n % 2 || n / 2 > SSDLOAD_PATTERN_MAX)
		return -EINVAL;
	for (i = 0; i < n / 2; i++) {
		int hi = ssdload_hexval(buf[2 + 2 * i]);
		int lo = ssdload_hexval(buf[3 + 2 * i]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = hi << 4 | lo;
	}
	*len = n / 2;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_pattern);

/* buffer_pattern as configfs shows it: "0x" and lowercase hex, or "". */
ssize_t ssdload_pattern_show(const u8 *pat, u32 len, char *page)
{
	char *p = page;
	u32 i, n;

	len = min(len, SSDLOAD_PATTERN_MAX);
	if (len)
		p += sprintf(p, "0x");
	/* %*phN prints up to 64 bytes at a time */
	for (i = 0; i < len; i += n) {
		n = min(len - i, 64U);
		p += sprintf(p, "%*phN", (int)n, pat + i);
	}
	*p++ = '\n';
	return p - page;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_pattern_show);
