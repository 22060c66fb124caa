// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_data: the content of the write buffers (module/data.c)
 * on buffers made of several chunks, as the workers allocate them.
 */
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ssdload_test.h"

#define DT_SEED		0x0123456789abcdefULL
#define DT_MAXVEC	4
#define DT_DEDUPE_WRITES 100000U
#define DT_DEDUPE_LEN	512U
#define DT_BENCH_WRITES	2000U

/* One buffer: chunks of different orders, lengths not multiples of 512. */
struct dt_buf {
	struct bio_vec v[DT_MAXVEC];	/* the chunks */
	unsigned int order[DT_MAXVEC];	/* their allocation orders */
	unsigned int nr;		/* chunks in v[] */
	u32 len;			/* their total */
};

/* Suite fixture. */
struct dt_ctx {
	struct dt_buf big;		/* 4096 + 12000 + 8192 bytes */
	struct dt_buf small;		/* one 512-byte chunk */
	struct dt_buf page;		/* one 4 KiB page */
	u8 *flat;			/* copies of buffers, big.len bytes each */
	u8 *flat2;
	struct ssdload_datacfg cfg;	/* zeroed; seed DT_SEED, scramble */
	struct ssdload_datagen g;
};

static int dt_buf_alloc(struct dt_buf *b, const unsigned int *order,
			const u32 *len, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		struct page *page = alloc_pages(GFP_KERNEL, order[i]);

		if (!page)
			return -ENOMEM;
		b->v[i].bv_page = page;
		b->v[i].bv_len = len[i];
		b->v[i].bv_offset = 0;
		b->order[i] = order[i];
		b->nr = i + 1;
		b->len += len[i];
	}
	return 0;
}

static void dt_buf_free(struct dt_buf *b)
{
	while (b->nr--)
		__free_pages(b->v[b->nr].bv_page, b->order[b->nr]);
}

static int ssdload_data_test_init(struct kunit *test)
{
	static const unsigned int big_order[] = { 0, 2, 1 };
	static const u32 big_len[] = { 4096, 12000, 8192 };
	static const unsigned int one_order[] = { 0 };
	static const u32 small_len[] = { DT_DEDUPE_LEN };
	static const u32 page_len[] = { 4096 };
	struct dt_ctx *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test->priv = ctx;
	KUNIT_ASSERT_EQ(test, 0, dt_buf_alloc(&ctx->big, big_order, big_len,
					      ARRAY_SIZE(big_len)));
	KUNIT_ASSERT_EQ(test, 0, dt_buf_alloc(&ctx->small, one_order,
					      small_len, 1));
	KUNIT_ASSERT_EQ(test, 0, dt_buf_alloc(&ctx->page, one_order,
					      page_len, 1));
	ctx->flat = kunit_kzalloc(test, ctx->big.len, GFP_KERNEL);
	ctx->flat2 = kunit_kzalloc(test, ctx->big.len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->flat);
	KUNIT_ASSERT_NOT_NULL(test, ctx->flat2);
	ctx->cfg.seed = DT_SEED;
	ctx->cfg.scramble = true;
	return 0;
}

static void ssdload_data_test_exit(struct kunit *test)
{
	struct dt_ctx *ctx = test->priv;

	if (!ctx)
		return;
	dt_buf_free(&ctx->big);
	dt_buf_free(&ctx->small);
	dt_buf_free(&ctx->page);
}

/* The first @len bytes of @b, copied to @out. */
static void dt_gather(const struct dt_buf *b, u8 *out, u32 len)
{
	unsigned int i;

	for (i = 0; i < b->nr && len; i++) {
		u32 n = min(len, b->v[i].bv_len);

		memcpy(out, page_address(b->v[i].bv_page) + b->v[i].bv_offset,
		       n);
		out += n;
		len -= n;
	}
}

/* Every byte of @b set to @c. */
static void dt_poison(const struct dt_buf *b, u8 c)
{
	unsigned int i;

	for (i = 0; i < b->nr; i++)
		memset(page_address(b->v[i].bv_page) + b->v[i].bv_offset, c,
		       b->v[i].bv_len);
}

/* A 64-bit hash (FNV-1a over words, then mixed) of @len bytes at @p. */
static u64 dt_hash(const u8 *p, u32 len)
{
	u64 h = 0xcbf29ce484222325ULL, w;
	u32 i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static u64 dt_buf_hash(const struct dt_buf *b, u32 len)
{
	return dt_hash(page_address(b->v[0].bv_page) + b->v[0].bv_offset,
		       len);
}

/* Equal bytes at the same places of @a and @b. */
static u32 dt_same(const u8 *a, const u8 *b, u32 len)
{
	u32 i, n = 0;

	for (i = 0; i < len; i++)
		n += a[i] == b[i];
	return n;
}

/* Zero bytes in @p. */
static u32 dt_zeros(const u8 *p, u32 len)
{
	u32 i, n = 0;

	for (i = 0; i < len; i++)
		n += !p[i];
	return n;
}

/* ---- which mode the options give --------------------------------------- */

struct dt_mode_case {
	const char *name;
	u32 compress, dedupe, pattern_len;
	bool refill, zero, scramble;
	u8 mode;
};

static const struct dt_mode_case dt_mode_cases[] = {
	{ "default", 0, 0, 0, false, false, true, SSDLOAD_DATA_RANDOM },
	{ "noscramble", 0, 0, 0, false, false, false, SSDLOAD_DATA_RANDOM },
	{ "refill", 0, 0, 0, true, false, true, SSDLOAD_DATA_GEN },
	{ "zero", 0, 0, 0, false, true, true, SSDLOAD_DATA_ZERO },
	{ "zero+refill", 0, 0, 0, true, true, true, SSDLOAD_DATA_ZERO },
	{ "pattern", 0, 0, 2, false, false, true, SSDLOAD_DATA_PATTERN },
	{ "pattern+zero", 0, 0, 2, true, true, true, SSDLOAD_DATA_PATTERN },
	{ "compress50", 50, 0, 0, false, false, true, SSDLOAD_DATA_GEN },
	{ "compress50+zero", 50, 0, 0, false, true, true, SSDLOAD_DATA_GEN },
	{ "compress100", 100, 0, 0, false, false, true, SSDLOAD_DATA_ZERO },
	{ "compress100+pattern", 100, 0, 2, false, false, true,
	  SSDLOAD_DATA_PATTERN },
	{ "compress100+dedupe", 100, 30, 0, false, false, true,
	  SSDLOAD_DATA_ZERO },
	{ "dedupe", 0, 30, 0, false, false, true, SSDLOAD_DATA_GEN },
	{ "dedupe+pattern", 0, 30, 2, false, false, true, SSDLOAD_DATA_GEN },
};

static void dt_mode_desc(const struct dt_mode_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(dt_mode, dt_mode_cases, dt_mode_desc);

static void ssdload_data_test_mode(struct kunit *test)
{
	const struct dt_mode_case *c = test->param_value;
	struct dt_ctx *ctx = test->priv;

	ctx->cfg.compress_pct = c->compress;
	ctx->cfg.dedupe_pct = c->dedupe;
	ctx->cfg.pattern_len = c->pattern_len;
	ctx->cfg.refill = c->refill;
	ctx->cfg.zero = c->zero;
	ctx->cfg.scramble = c->scramble;
	ssdload_data_init(&ctx->g, &ctx->cfg, 0);
	KUNIT_EXPECT_EQ(test, ctx->g.mode, c->mode);
}

/* ---- compression --------------------------------------------------------- */

struct dt_comp_case {
	u32 pct, chunk, len, pattern_len;
};

/* 12000 and 10000 are not multiples of the chunks; 1001 and 700 cut words */
static const struct dt_comp_case dt_comp_cases[] = {
	{ 50, 512, 24288, 0 },
	{ 50, 512, 10000, 0 },
	{ 10, 1001, 24288, 0 },
	{ 75, 700, 24288, 3 },
	{ 30, 8192, 24288, 0 },
	{ 1, 4096, 24288, 5 },
};

static void dt_comp_desc(const struct dt_comp_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "P=%u chunk=%u len=%u pattern=%u",
		 c->pct, c->chunk, c->len, c->pattern_len);
}

KUNIT_ARRAY_PARAM(dt_comp, dt_comp_cases, dt_comp_desc);

static const u8 dt_pattern[] = { 0xde, 0xad, 0xbe, 0xef, 0x42 };

/*
 * Each chunk: exactly chunk * (100 - P) / 100 random bytes, then zeros or
 * the pattern from its first byte; the random parts change in every write.
 */
static void ssdload_data_test_compress(struct kunit *test)
{
	const struct dt_comp_case *c = test->param_value;
	struct dt_ctx *ctx = test->priv;
	u32 rl = c->chunk * (100 - c->pct) / 100, pos, i;
	u32 rand_bytes = 0, same_bytes = 0, zero_bytes = 0;
	bool filler_ok = true;

	ctx->cfg.compress_pct = c->pct;
	ctx->cfg.compress_chunk = c->chunk;
	ctx->cfg.pattern_len = c->pattern_len;
	memcpy(ctx->cfg.pattern, dt_pattern, c->pattern_len);
	dt_poison(&ctx->big, 0x5a);
	ssdload_data_init(&ctx->g, &ctx->cfg, 3);
	KUNIT_ASSERT_EQ(test, ctx->g.mode, SSDLOAD_DATA_GEN);
	KUNIT_EXPECT_EQ(test, ctx->g.rand_len, rl);
	ssdload_data_prefill(&ctx->g, ctx->big.v, ctx->big.nr, ctx->big.len);
	ssdload_data_write(&ctx->g, ctx->big.v, ctx->big.nr, c->len, 0);
	dt_gather(&ctx->big, ctx->flat, ctx->big.len);
	ssdload_data_write(&ctx->g, ctx->big.v, ctx->big.nr, c->len, 4096);
	dt_gather(&ctx->big, ctx->flat2, ctx->big.len);

	for (pos = 0; pos < c->len; pos += c->chunk) {
		u32 end = min(pos + c->chunk, c->len);
		u32 r = min(pos + rl, end);

		for (i = r; i < end; i++) {
			u8 want = c->pattern_len ?
				  dt_pattern[(i - r) % c->pattern_len] : 0;

			if (ctx->flat[i] != want || ctx->flat2[i] != want)
				filler_ok = false;
		}
		rand_bytes += r - pos;
		zero_bytes += dt_zeros(ctx->flat + pos, r - pos);
		same_bytes += dt_same(ctx->flat + pos, ctx->flat2 + pos,
				      r - pos);
		/* the random part ends where the layout says, not before */
		if (r - pos >= 8)
			KUNIT_EXPECT_LT(test, dt_zeros(ctx->flat2 + r - 8, 8),
					8U);
	}
	KUNIT_EXPECT_TRUE(test, filler_ok);
	/* random bytes: about 1/256 zero, and 1/256 equal between writes */
	kunit_info(test, "%u random bytes: %u zero, %u equal across writes\n",
		   rand_bytes, zero_bytes, same_bytes);
	KUNIT_EXPECT_LE(test, zero_bytes, rand_bytes / 128 + 16);
	KUNIT_EXPECT_LE(test, same_bytes, rand_bytes / 128 + 16);
	/* bytes past the write were left alone */
	KUNIT_EXPECT_EQ(test, 0, memcmp(ctx->flat + c->len, ctx->flat2 + c->len,
					ctx->big.len - c->len));
}

/* ---- dedupe -------------------------------------------------------------- */

/*
 * dedupe_percentage=30 over 100000 writes: 30% +- 1 exact repeats of the
 * last unique content, whatever the offset; the rest all new.
 */
static void ssdload_data_test_dedupe(struct kunit *test)
{
	struct dt_ctx *ctx = test->priv;
	struct dt_buf *b = &ctx->small;
	u64 last = 0, prev = 0, h, repeats = 0, uniques = 0;
	bool same_ok = true, new_ok = true;
	u32 i;

	ctx->cfg.dedupe_pct = 30;
	ssdload_data_init(&ctx->g, &ctx->cfg, 1);
	ssdload_data_prefill(&ctx->g, b->v, b->nr, b->len);
	for (i = 0; i < DT_DEDUPE_WRITES; i++) {
		ssdload_data_write(&ctx->g, b->v, b->nr, b->len,
				   (u64)i * 7 * 4096);
		h = dt_buf_hash(b, b->len);
		if (i && h == last) {
			repeats++;
			if (memcmp(page_address(b->v[0].bv_page), ctx->flat,
				   b->len))
				same_ok = false;
			continue;
		}
		uniques++;
		if (h == prev)
			new_ok = false;
		prev = last;
		last = h;
		dt_gather(b, ctx->flat, b->len);
	}
	kunit_info(test, "%llu repeats, %llu unique of %u writes\n", repeats,
		   uniques, DT_DEDUPE_WRITES);
	KUNIT_EXPECT_TRUE(test, same_ok);
	KUNIT_EXPECT_TRUE(test, new_ok);
	KUNIT_EXPECT_EQ(test, repeats, ctx->g.dups);
	KUNIT_EXPECT_EQ(test, uniques, ctx->g.unique);
	KUNIT_EXPECT_GE(test, repeats, DT_DEDUPE_WRITES * 29 / 100);
	KUNIT_EXPECT_LE(test, repeats, DT_DEDUPE_WRITES * 31 / 100);
}

/*
 * Content is a pure function of (seed, worker, content number, offset in
 * the buffer): two generators with the same options write the same
 * bytes, whatever the chunking of their buffers and the write lengths
 * (a shorter write is a prefix); another worker writes other bytes.
 * With compression, a duplicate keeps the compressible layout.
 */
static void ssdload_data_test_pure(struct kunit *test)
{
	struct dt_ctx *ctx = test->priv;
	struct ssdload_datagen g2;
	u8 *page = page_address(ctx->page.v[0].bv_page);
	u32 i;

	ctx->cfg.dedupe_pct = 50;
	ctx->cfg.compress_pct = 25;
	ctx->cfg.compress_chunk = 1000;
	ssdload_data_init(&ctx->g, &ctx->cfg, 2);
	ssdload_data_init(&g2, &ctx->cfg, 2);
	ssdload_data_prefill(&ctx->g, ctx->big.v, ctx->big.nr, ctx->big.len);
	ssdload_data_prefill(&g2, ctx->page.v, ctx->page.nr, ctx->page.len);
	for (i = 0; i < 200; i++) {
		u32 len = i % 3 ? 4096 : 3000;

		ssdload_data_write(&ctx->g, ctx->big.v, ctx->big.nr,
				   ctx->big.len, i * 4096ULL);
		ssdload_data_write(&g2, ctx->page.v, ctx->page.nr, len, 0);
		dt_gather(&ctx->big, ctx->flat, len);
		if (memcmp(ctx->flat, page, len)) {
			KUNIT_FAIL(test, "write %u: contents differ", i);
			break;
		}
		KUNIT_EXPECT_EQ(test, dt_zeros(ctx->flat + 750, 250), 250U);
	}
	KUNIT_EXPECT_EQ(test, ctx->g.dups, g2.dups);
	KUNIT_EXPECT_GT(test, ctx->g.dups, 0ULL);

	/* another worker, same options: other contents */
	ssdload_data_init(&g2, &ctx->cfg, 5);
	ssdload_data_write(&g2, ctx->page.v, ctx->page.nr, 4096, 0);
	KUNIT_EXPECT_LE(test, dt_same(ctx->flat, page, 750), 750U / 64 + 8);
}

/* ---- refill ---------------------------------------------------------------- */

/* refill_buffers: every write all new, nothing like the one before. */
static void ssdload_data_test_refill(struct kunit *test)
{
	struct dt_ctx *ctx = test->priv;
	u64 h[32];
	u32 i, j, len = ctx->big.len;
	bool distinct = true;

	ctx->cfg.refill = true;
	ssdload_data_init(&ctx->g, &ctx->cfg, 0);
	ssdload_data_prefill(&ctx->g, ctx->big.v, ctx->big.nr, len);
	dt_gather(&ctx->big, ctx->flat2, len);
	for (i = 0; i < ARRAY_SIZE(h); i++) {
		ssdload_data_write(&ctx->g, ctx->big.v, ctx->big.nr, len, 0);
		dt_gather(&ctx->big, ctx->flat, len);
		h[i] = dt_hash(ctx->flat, len);
		for (j = 0; j < i; j++)
			distinct &= h[j] != h[i];
		KUNIT_EXPECT_LE(test, dt_same(ctx->flat, ctx->flat2, len),
				len / 128);
		KUNIT_EXPECT_LE(test, dt_zeros(ctx->flat, len), len / 128);
		swap(ctx->flat, ctx->flat2);
	}
	KUNIT_EXPECT_TRUE(test, distinct);
	KUNIT_EXPECT_EQ(test, ctx->g.unique, (u64)ARRAY_SIZE(h));
	KUNIT_EXPECT_EQ(test, ctx->g.dups, 0ULL);
}

/* ---- zeros and patterns -------------------------------------------------- */

struct dt_fill_case {
	const char *name;
	u32 pattern_len;
	bool zero;
	u32 compress;
};

static const struct dt_fill_case dt_fill_cases[] = {
	{ "zero", 0, true, 0 },
	{ "compress100", 0, false, 100 },
	{ "pattern1", 1, false, 0 },
	{ "pattern3", 3, true, 0 },
	{ "pattern5+compress100", 5, false, 100 },
	{ "pattern512", SSDLOAD_PATTERN_MAX, false, 0 },
};

static void dt_fill_desc(const struct dt_fill_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(dt_fill, dt_fill_cases, dt_fill_desc);

/* Exact zeros or pattern over the chunks, unchanged by writes. */
static void ssdload_data_test_fill(struct kunit *test)
{
	const struct dt_fill_case *c = test->param_value;
	struct dt_ctx *ctx = test->priv;
	u32 i, len = ctx->big.len, bad = 0;

	for (i = 0; i < c->pattern_len; i++)
		ctx->cfg.pattern[i] = i < ARRAY_SIZE(dt_pattern) ?
				      dt_pattern[i] : i * 37 + 1;
	ctx->cfg.pattern_len = c->pattern_len;
	ctx->cfg.zero = c->zero;
	ctx->cfg.compress_pct = c->compress;
	dt_poison(&ctx->big, 0xa5);
	ssdload_data_init(&ctx->g, &ctx->cfg, 0);
	ssdload_data_prefill(&ctx->g, ctx->big.v, ctx->big.nr, len);
	ssdload_data_write(&ctx->g, ctx->big.v, ctx->big.nr, len, 512);
	ssdload_data_write(&ctx->g, ctx->big.v, ctx->big.nr, 1000, 0);
	dt_gather(&ctx->big, ctx->flat, len);
	for (i = 0; i < len; i++) {
		u8 want = c->pattern_len ? ctx->cfg.pattern[i % c->pattern_len] :
					   0;

		bad += ctx->flat[i] != want;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

/* ---- scramble ------------------------------------------------------------- */

/*
 * Default: random once; each write puts its byte offset and its tag in
 * the first 16 bytes of each of its sectors, the rest stays.
 */
static void ssdload_data_test_scramble(struct kunit *test)
{
	struct dt_ctx *ctx = test->priv;
	u32 len = 10240, s, bad = 0, i;
	u64 pos = 1 << 20, tag, w[2];

	ssdload_data_init(&ctx->g, &ctx->cfg, 7);
	KUNIT_ASSERT_EQ(test, ctx->g.mode, SSDLOAD_DATA_RANDOM);
	ssdload_data_prefill(&ctx->g, ctx->big.v, ctx->big.nr, ctx->big.len);
	dt_gather(&ctx->big, ctx->flat2, ctx->big.len);
	KUNIT_EXPECT_LE(test, dt_zeros(ctx->flat2, ctx->big.len),
			ctx->big.len / 128);
	for (i = 0; i < 3; i++) {
		ssdload_data_write(&ctx->g, ctx->big.v, ctx->big.nr, len, pos);
		dt_gather(&ctx->big, ctx->flat, ctx->big.len);
		tag = (((u64)i << 16 | 7) * 0x9e3779b97f4a7c15ULL) ^ DT_SEED;
		for (s = 0; s < len / SECTOR_SIZE; s++) {
			memcpy(w, ctx->flat + s * SECTOR_SIZE, sizeof(w));
			bad += w[0] != pos + s * SECTOR_SIZE;
			bad += w[1] != tag;
			bad += !!memcmp(ctx->flat + s * SECTOR_SIZE + 16,
					ctx->flat2 + s * SECTOR_SIZE + 16,
					SECTOR_SIZE - 16);
		}
		/* past the write: as prefilled */
		bad += !!memcmp(ctx->flat + len, ctx->flat2 + len,
				ctx->big.len - len);
		pos += 3 * len;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);

	/* scramble_buffers=0: the buffer stays as prefilled */
	ctx->cfg.scramble = false;
	ssdload_data_init(&ctx->g, &ctx->cfg, 7);
	ssdload_data_prefill(&ctx->g, ctx->big.v, ctx->big.nr, ctx->big.len);
	dt_gather(&ctx->big, ctx->flat2, ctx->big.len);
	ssdload_data_write(&ctx->g, ctx->big.v, ctx->big.nr, len, pos);
	dt_gather(&ctx->big, ctx->flat, ctx->big.len);
	KUNIT_EXPECT_EQ(test, 0, memcmp(ctx->flat, ctx->flat2, ctx->big.len));
}

/* ---- buffer_pattern parsing ---------------------------------------------- */

struct dt_parse_case {
	const char *in;
	int ret;
	u32 len;
	const char *show;
};

static const struct dt_parse_case dt_parse_cases[] = {
	{ "", 0, 0, "\n" },
	{ "\n", 0, 0, "\n" },
	{ "0x00", 0, 1, "0x00\n" },
	{ "0xDeadBEEF\n", 0, 4, "0xdeadbeef\n" },
	{ "0X0a1b", 0, 2, "0x0a1b\n" },
	{ "0x", -EINVAL, 0, NULL },
	{ "0x0", -EINVAL, 0, NULL },
	{ "0x123", -EINVAL, 0, NULL },
	{ "00", -EINVAL, 0, NULL },
	{ "ff", -EINVAL, 0, NULL },
	{ "0xg0", -EINVAL, 0, NULL },
	{ "0x00\n\n", -EINVAL, 0, NULL },
	{ "0x00 ", -EINVAL, 0, NULL },
	{ " 0x00", -EINVAL, 0, NULL },
	{ "0x0x00", -EINVAL, 0, NULL },
	{ "\"abc\"", -EINVAL, 0, NULL },
	{ "123", -EINVAL, 0, NULL },
	{ NULL, 0, SSDLOAD_PATTERN_MAX, NULL },		/* 512 bytes */
	{ NULL, -EINVAL, SSDLOAD_PATTERN_MAX + 1, NULL },	/* 513 */
};

static void dt_parse_desc(const struct dt_parse_case *c, char *desc)
{
	const char *p;
	size_t n;

	if (!c->in) {
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "0x<%u bytes>", c->len);
		return;
	}
	n = snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", *c->in ? "" :
		     "<empty>");
	for (p = c->in; *p && n + 5 < KUNIT_PARAM_DESC_SIZE; p++) {
		if (*p == '\n')
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "\\n");
		else if (*p == ' ')
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n,
				       "\\x20");
		else
			desc[n++] = *p;
	}
	desc[n] = '\0';
}

KUNIT_ARRAY_PARAM(dt_parse, dt_parse_cases, dt_parse_desc);

static void ssdload_data_test_parse(struct kunit *test)
{
	const struct dt_parse_case *c = test->param_value;
	u8 *out = kunit_kzalloc(test, SSDLOAD_PATTERN_MAX + 1, GFP_KERNEL);
	char *in = NULL, *page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u32 len = 12345, i;
	ssize_t n;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, page);
	if (!c->in) {
		in = kunit_kzalloc(test, 2 * c->len + 4, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, in);
		in[0] = '0';
		in[1] = 'x';
		for (i = 0; i < c->len; i++)
			sprintf(in + 2 + 2 * i, "%02x", (i * 7) & 0xff);
	}
	ret = ssdload_parse_pattern(c->in ? c->in : in, out, &len);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (ret)
		return;
	KUNIT_EXPECT_EQ(test, len, c->len);
	n = ssdload_pattern_show(out, len, page);
	KUNIT_EXPECT_EQ(test, n, (ssize_t)strlen(page));
	if (c->show) {
		KUNIT_EXPECT_STREQ(test, page, c->show);
	} else {
		/* long patterns: show gives the input back */
		KUNIT_EXPECT_EQ(test, n, (ssize_t)(2 + 2 * c->len + 1));
		KUNIT_EXPECT_EQ(test, 0, strncmp(page, in, 2 + 2 * c->len));
	}
}

/* ---- cost (informational) ------------------------------------------------ */

/* ns per write of @len bytes of a datagen already prefilled. */
static u64 dt_bench(struct dt_ctx *ctx, struct dt_buf *b, u32 len)
{
	u64 t0 = ktime_get_ns();
	u32 i;

	for (i = 0; i < DT_BENCH_WRITES; i++)
		ssdload_data_write(&ctx->g, b->v, b->nr, len, (u64)i << 12);
	return div_u64(ktime_get_ns() - t0, DT_BENCH_WRITES);
}

/*
 * What a 4 KiB write costs in each mode, in ns (debug kernels with KASAN
 * and TCG inflate every number; compare them with each other only).
 * Never fails on time.
 */
static void ssdload_data_test_cost(struct kunit *test)
{
	static const struct { const char *name; u32 pct, dedupe; bool refill,
			      scramble; } m[] = {
		{ "scramble (default)", 0, 0, false, true },
		{ "refill_buffers", 0, 0, true, true },
		{ "compress 50 chunk 512", 50, 0, false, true },
		{ "dedupe 30", 0, 30, false, true },
		{ "no scramble", 0, 0, false, false },
	};
	struct dt_ctx *ctx = test->priv;
	struct dt_buf *b = &ctx->page;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		ctx->cfg.compress_pct = m[i].pct;
		ctx->cfg.dedupe_pct = m[i].dedupe;
		ctx->cfg.refill = m[i].refill;
		ctx->cfg.scramble = m[i].scramble;
		ssdload_data_init(&ctx->g, &ctx->cfg, 0);
		ssdload_data_prefill(&ctx->g, b->v, b->nr, b->len);
		kunit_info(test, "4 KiB write, %s: %llu ns\n", m[i].name,
			   dt_bench(ctx, b, b->len));
	}
}

static struct kunit_case ssdload_data_cases[] = {
	KUNIT_CASE_PARAM(ssdload_data_test_mode, dt_mode_gen_params),
	KUNIT_CASE_PARAM(ssdload_data_test_compress, dt_comp_gen_params),
	KUNIT_CASE(ssdload_data_test_dedupe),
	KUNIT_CASE(ssdload_data_test_pure),
	KUNIT_CASE(ssdload_data_test_refill),
	KUNIT_CASE_PARAM(ssdload_data_test_fill, dt_fill_gen_params),
	KUNIT_CASE(ssdload_data_test_scramble),
	KUNIT_CASE_PARAM(ssdload_data_test_parse, dt_parse_gen_params),
	KUNIT_CASE(ssdload_data_test_cost),
	{}
};

static struct kunit_suite ssdload_data_suite = {
	.name = "ssdload_data",
	.init = ssdload_data_test_init,
	.exit = ssdload_data_test_exit,
	.test_cases = ssdload_data_cases,
};

kunit_test_suite(ssdload_data_suite);
