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
 *    Cost per write: (100 - P)% of its bytes through four independent
 *    generator lanes (a multiplication, a shift, an xor and a store per
 *    8 bytes, no load), plus four 64-bit mixes per write; one PRNG draw
 *    per write for dedupe.
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

#define DATA_GOLDEN	0x9e3779b97f4a7c15ULL
#define DATA_LANE_MUL	0xd1b54a32d192ed03ULL	/* odd: lane keys of a chunk */
#define DATA_IDX_MUL	0xd1342543de82ef95ULL	/* odd: worker keys */
#define DATA_RNG_SALT	0x5d4a7a3b1c2e8f61ULL	/* dedupe draws vs offsets */
#define DATA_PREFILL	BIT_ULL(63)		/* content numbers of prefill */

/* splitmix64's finaliser: a bijective 64-bit mix. */
static u64 ssdload_data_mix(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* xoshiro256** (as the worker's), for the dedupe draws. */
static u64 ssdload_data_rng(struct ssdload_datagen *g)
{
	u64 *s = g->rng;
	u64 result = rol64(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rol64(s[3], 45);
	return result;
}

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

/*
 * Four lanes of a 64-bit multiplicative congruential generator, one word
 * each in turn, output x ^ (x >> 32) (the high half whitens the weak low
 * bits).  The lanes are independent, so a CPU runs them in parallel; per
 * 8 bytes: one multiplication, a shift, an xor and a store.  It beat
 * xorshift64 (six shifts and xors) by about 20% under qemu TCG, where each
 * guest instruction costs about the same, and a multiplication is fully
 * pipelined on any current CPU.  Random enough for any compressor or
 * deduplicator; not meant for statistics.
 */
struct ssdload_xs {
	u64 s[4];			/* the lanes, odd */
	unsigned int lane;		/* the next word's lane */
	unsigned int left;		/* bytes of w still to write */
	u64 w;				/* a word cut by a chunk boundary */
};

#define DATA_MCG_MUL	0xd1342543de82ef95ULL	/* Steele & Vigna's MCG */

/* Advance lane *@x; returns its output. */
static __always_inline u64 ssdload_xs_step(u64 *x)
{
	u64 v = *x * DATA_MCG_MUL;

	*x = v;
	return v ^ (v >> 32);
}

static void ssdload_xs_seed(struct ssdload_xs *x, u64 key)
{
	int i;

	for (i = 0; i < 4; i++)
		x->s[i] = ssdload_data_mix(key + (i + 1) * DATA_LANE_MUL) | 1;
	x->lane = 0;
	x->left = 0;
}

static __always_inline u64 ssdload_xs_next(struct ssdload_xs *x)
{
	u64 v = ssdload_xs_step(&x->s[x->lane]);

	x->lane = (x->lane + 1) & 3;
	return v;
}

/* The next @n bytes of the stream of @x at @p. */
static void ssdload_xs_put(struct ssdload_xs *x, u8 *p, u32 n)
{
	u64 a, b, c, d;

	if (x->left) {
		u32 k = min(n, x->left);

		memcpy(p, (u8 *)&x->w + 8 - x->left, k);
		x->left -= k;
		p += k;
		n -= k;
	}
	while (x->lane && n >= 8) {
		ssdload_put64(p, ssdload_xs_next(x));
		p += 8;
		n -= 8;
	}
	a = x->s[0];
	b = x->s[1];
	c = x->s[2];
	d = x->s[3];
	for (; n >= 64; n -= 64, p += 64) {
		ssdload_put64(p, ssdload_xs_step(&a));
		ssdload_put64(p + 8, ssdload_xs_step(&b));
		ssdload_put64(p + 16, ssdload_xs_step(&c));
		ssdload_put64(p + 24, ssdload_xs_step(&d));
		ssdload_put64(p + 32, ssdload_xs_step(&a));
		ssdload_put64(p + 40, ssdload_xs_step(&b));
		ssdload_put64(p + 48, ssdload_xs_step(&c));
		ssdload_put64(p + 56, ssdload_xs_step(&d));
	}
	for (; n >= 32; n -= 32, p += 32) {
		ssdload_put64(p, ssdload_xs_step(&a));
		ssdload_put64(p + 8, ssdload_xs_step(&b));
		ssdload_put64(p + 16, ssdload_xs_step(&c));
		ssdload_put64(p + 24, ssdload_xs_step(&d));
	}
	x->s[0] = a;
	x->s[1] = b;
	x->s[2] = c;
	x->s[3] = d;
	for (; n >= 8; n -= 8, p += 8)
		ssdload_put64(p, ssdload_xs_next(x));
	if (n) {
		x->w = ssdload_xs_next(x);
		memcpy(p, &x->w, n);
		x->left = 8 - n;
	}
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

	ssdload_xs_seed(&x, g->key ^ (content * DATA_GOLDEN));
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
	g->key = ssdload_data_mix(c->seed ^ ((u64)(idx + 1) * DATA_IDX_MUL));
	x = g->key ^ DATA_RNG_SALT;
	for (i = 0; i < 4; i++) {
		x += DATA_GOLDEN;
		g->rng[i] = ssdload_data_mix(x);
	}
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
	u64 tag = ((g->wseq << 16 | g->idx) * DATA_GOLDEN) ^ g->cfg->seed;
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
		    ((ssdload_data_rng(g) >> 32) * 100 >> 32) < cfg->dedupe_pct &&
		    g->unique) {
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
