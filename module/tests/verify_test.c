// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_verify: the verify header byte by byte, each
 * checksum against its published check value, the classification of
 * crafted units, and the generation map arithmetic (module/verify.c).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "ssdload_test.h"

#define VT_SEED		0x1122334455667788ULL
#define VT_LBA		0x0102030405060708ULL

/* A unit of two one-page chunks, so that the checksum spans both. */
struct vt_ctx {
	struct bio_vec v[2];
	struct ssdload_vctx c;
	struct ssdload_vstamp st;
	struct ssdload_vwant want;
	struct ssdload_vgot got;
};

static int ssdload_verify_test_init(struct kunit *test)
{
	struct vt_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	unsigned int i;

	if (!x)
		return -ENOMEM;
	test->priv = x;
	for (i = 0; i < ARRAY_SIZE(x->v); i++) {
		struct page *page = alloc_page(GFP_KERNEL);

		if (!page)
			return -ENOMEM;
		x->v[i].bv_page = page;
		x->v[i].bv_len = PAGE_SIZE;
		x->v[i].bv_offset = 0;
		memset(page_address(page), 0x5a + i, PAGE_SIZE);
	}
	x->c.type = SSDLOAD_VERIFY_CRC32C;
	x->st = (struct ssdload_vstamp){
		.lba = VT_LBA, .seed = VT_SEED, .seq = 0xa1a2a3a4a5a6a7a8ULL,
		.time_ns = 0xb1b2b3b4b5b6b7b8ULL, .worker = 0xc1c2c3c4,
		.gen = 5,
	};
	x->want = (struct ssdload_vwant){
		.lba = VT_LBA, .seed = VT_SEED, .gen = 5,
	};
	return 0;
}

static void ssdload_verify_test_exit(struct kunit *test)
{
	struct vt_ctx *x = test->priv;
	unsigned int i;

	for (i = 0; x && i < ARRAY_SIZE(x->v); i++)
		if (x->v[i].bv_page)
			__free_page(x->v[i].bv_page);
}

static u8 *vt_byte(struct vt_ctx *x, u32 off)
{
	return (u8 *)page_address(x->v[off / PAGE_SIZE].bv_page) +
	       off % PAGE_SIZE;
}

static u32 vt_le32(const u8 *p)
{
	__le32 v;

	memcpy(&v, p, sizeof(v));
	return le32_to_cpu(v);
}

static u64 vt_le64(const u8 *p)
{
	__le64 v;

	memcpy(&v, p, sizeof(v));
	return le64_to_cpu(v);
}

static u8 vt_check(struct vt_ctx *x)
{
	return ssdload_vcheck(&x->c, x->v, 2, 0, 2 * PAGE_SIZE, &x->want,
			      &x->got);
}

static void vt_stamp(struct vt_ctx *x)
{
	ssdload_vstamp(&x->c, x->v, 2, 0, 2 * PAGE_SIZE, &x->st);
}

/* The header, byte by byte (Documentation/verify.rst). */
static void ssdload_verify_test_layout(struct kunit *test)
{
	static const u8 want[48] = {
		'S', 'S', 'D', 'V',		/* magic */
		1, 0,				/* version */
		SSDLOAD_VERIFY_CRC32C, 0,	/* checksum type, flags */
		0x00, 0x20, 0x00, 0x00,		/* len 8192 */
		0xc4, 0xc3, 0xc2, 0xc1,		/* worker */
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* lba */
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* seed */
		0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,	/* seq */
		0xb8, 0xb7, 0xb6, 0xb5, 0xb4, 0xb3, 0xb2, 0xb1,	/* time */
	};
	struct vt_ctx *x = test->priv;
	u32 crc;
	u8 *h;

	vt_stamp(x);
	h = vt_byte(x, 0);
	KUNIT_EXPECT_MEMEQ(test, h, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, h[48], 5);		/* gen */
	KUNIT_EXPECT_EQ(test, h[49] | h[50] | h[51], 0);
	crc = vt_le32(h + 52);		/* header checksum */
	KUNIT_EXPECT_NE(test, crc, 0U);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(h + 56, 0, 8));	/* reserved */
	KUNIT_EXPECT_TRUE(test, !memchr_inv(h + 68, 0, 28));	/* crc32c pad */
	/* the data around the header keep what they were */
	KUNIT_EXPECT_EQ(test, *vt_byte(x, 96), 0x5a);
	KUNIT_EXPECT_EQ(test, *vt_byte(x, PAGE_SIZE), 0x5b);
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_OK);
	KUNIT_EXPECT_EQ(test, x->got.lba, VT_LBA);
	KUNIT_EXPECT_EQ(test, x->got.gen, 5U);
	KUNIT_EXPECT_EQ(test, x->got.seq, 0xa1a2a3a4a5a6a7a8ULL);
	KUNIT_EXPECT_EQ(test, x->got.worker, 0xc1c2c3c4U);
	KUNIT_EXPECT_EQ(test, sizeof(struct ssdload_vhdr),
			(size_t)SSDLOAD_VHDR_SIZE);
}

/* Each checksum against its published check value. */
static void ssdload_verify_test_vectors(struct kunit *test)
{
	static const u8 sha_abc[32] = {
		0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
		0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
		0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
		0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
	};
	struct ssdload_vctx c = {};
	u8 out[SSDLOAD_VHDR_CSUM_MAX];

	c.type = SSDLOAD_VERIFY_CRC32C;		/* CRC-32C check value */
	ssdload_vcsum_flat(&c, "123456789", 9, out);
	KUNIT_EXPECT_EQ(test, vt_le32(out), 0xe3069283U);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(out + 4, 0, sizeof(out) - 4));
	c.type = SSDLOAD_VERIFY_XXHASH;		/* xxHash's own vectors */
	ssdload_vcsum_flat(&c, "", 0, out);
	KUNIT_EXPECT_EQ(test, vt_le64(out), 0xef46db3751d8e999ULL);
	ssdload_vcsum_flat(&c, "abc", 3, out);
	KUNIT_EXPECT_EQ(test, vt_le64(out), 0x44bc2cf5ad770999ULL);
	c.type = SSDLOAD_VERIFY_SHA256;		/* FIPS 180-2 "abc" */
	ssdload_vcsum_flat(&c, "abc", 3, out);
	KUNIT_EXPECT_MEMEQ(test, out, sha_abc, sizeof(sha_abc));
	KUNIT_EXPECT_EQ(test, ssdload_vcsum_size(SSDLOAD_VERIFY_META), 0U);
}

/* crc64 (a case of its own: a kernel without lib/crc64 skips it). */
static void ssdload_verify_test_crc64(struct kunit *test)
{
	struct ssdload_vctx c = {};
	u8 out[SSDLOAD_VHDR_CSUM_MAX];
	const char *why;

	why = ssdload_vctx_get(&c, SSDLOAD_VERIFY_CRC64);
	if (why)
		kunit_skip(test, "crc64: %s", why);
	/* CRC-64/ECMA-182 (init 0, no reflection, no final xor) */
	ssdload_vcsum_flat(&c, "123456789", 9, out);
	ssdload_vctx_put(&c);
	KUNIT_EXPECT_EQ(test, vt_le64(out), 0x6c40df5f0b497347ULL);
}

/* Every failure class from a crafted unit. */
static void ssdload_verify_test_classes(struct kunit *test)
{
	struct vt_ctx *x = test->priv;
	u8 *p;

	vt_stamp(x);
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_OK);

	/* corrupt: a data byte in the second chunk, then a header byte */
	p = vt_byte(x, PAGE_SIZE + 100);
	*p ^= 1;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_CORRUPT);
	*p ^= 1;
	p = vt_byte(x, 33);			/* in seq */
	*p ^= 0x80;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_CORRUPT);
	*p ^= 0x80;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_OK);

	/* misplaced: read from another sector than the header names */
	x->want.lba = VT_LBA + 16;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_MISPLACED);
	KUNIT_EXPECT_EQ(test, x->got.lba, VT_LBA);
	x->want.lba = VT_LBA;

	/* stale: the map has a newer generation; ambiguous: any passes */
	x->want.gen = 6;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_STALE);
	x->want.gen = 6 | SSDLOAD_VGEN_AMBIG;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_OK);
	x->want.gen = 5;

	/* foreign: another job's seed, another checksum type, no header */
	x->want.seed = VT_SEED + 1;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_FOREIGN);
	x->want.seed = VT_SEED;
	x->c.type = SSDLOAD_VERIFY_XXHASH;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_FOREIGN);
	x->c.type = SSDLOAD_VERIFY_CRC32C;
	memset(vt_byte(x, 0), 0, 512);		/* trimmed */
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_FOREIGN);
}

/* meta checks the header only, null nothing; sha256 over two chunks. */
static void ssdload_verify_test_types(struct kunit *test)
{
	struct vt_ctx *x = test->priv;

	x->c.type = SSDLOAD_VERIFY_META;
	vt_stamp(x);
	*vt_byte(x, PAGE_SIZE + 7) ^= 1;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_OK);
	x->want.gen = 4;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_STALE);
	x->want.gen = 5;

	x->c.type = SSDLOAD_VERIFY_SHA256;
	vt_stamp(x);
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_OK);
	*vt_byte(x, 2 * PAGE_SIZE - 1) ^= 1;
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_CORRUPT);

	x->c.type = SSDLOAD_VERIFY_NULL;
	memset(vt_byte(x, 0), 0, 512);
	vt_stamp(x);				/* stamps nothing */
	KUNIT_EXPECT_TRUE(test, !memchr_inv(vt_byte(x, 0), 0, 512));
	KUNIT_EXPECT_EQ(test, vt_check(x), SSDLOAD_VCLASS_OK);
}

/* Units of one block: each names its own sector. */
static void ssdload_verify_test_interval(struct kunit *test)
{
	struct vt_ctx *x = test->priv;
	u32 off;

	for (off = 0; off < 2 * PAGE_SIZE; off += 512) {
		x->st.lba = VT_LBA + off / 512;
		ssdload_vstamp(&x->c, x->v, 2, off, 512, &x->st);
	}
	for (off = 0; off < 2 * PAGE_SIZE; off += 512) {
		x->want.lba = VT_LBA + off / 512;
		KUNIT_EXPECT_EQ(test, ssdload_vcheck(&x->c, x->v, 2, off, 512,
						     &x->want, &x->got),
				SSDLOAD_VCLASS_OK);
	}
	/* unit 3 copied over unit 2: misplaced, and only unit 2 */
	memcpy(vt_byte(x, 1024), vt_byte(x, 1536), 512);
	x->want.lba = VT_LBA + 2;
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&x->c, x->v, 2, 1024, 512,
					     &x->want, &x->got),
			SSDLOAD_VCLASS_MISPLACED);
	x->want.lba = VT_LBA + 3;
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&x->c, x->v, 2, 1536, 512,
					     &x->want, &x->got),
			SSDLOAD_VCLASS_OK);
}

/* The generation map: wrapping generations, blocks and indexes. */
static void ssdload_verify_test_map(struct kunit *test)
{
	struct ssdload_vrun *v;
	struct ssdload_dev d = { .span_start = 1 << 20 };

	KUNIT_EXPECT_EQ(test, ssdload_vgen_next(0), 1);
	KUNIT_EXPECT_EQ(test, ssdload_vgen_next(1), 2);
	KUNIT_EXPECT_EQ(test, ssdload_vgen_next(126), 127);
	KUNIT_EXPECT_EQ(test, ssdload_vgen_next(127), 1);
	KUNIT_EXPECT_EQ(test, ssdload_vgen_next(SSDLOAD_VGEN_AMBIG | 5), 6);
	KUNIT_EXPECT_EQ(test, ssdload_vgen_next(0xff), 1);

	KUNIT_EXPECT_EQ(test, ssdload_vmap_blocks(0, 4096), 0ULL);
	KUNIT_EXPECT_EQ(test, ssdload_vmap_blocks(4095, 4096), 0ULL);
	KUNIT_EXPECT_EQ(test, ssdload_vmap_blocks(8191, 4096), 1ULL);
	KUNIT_EXPECT_EQ(test, ssdload_vmap_blocks(1ULL << 40, 4096),
			1ULL << 28);
	KUNIT_EXPECT_EQ(test, ssdload_vmap_blocks(3 * SSDLOAD_MAX_BS,
						  SSDLOAD_MAX_BS), 3ULL);

	v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	v->bs = 4096;
	v->base[0] = 0;
	v->base[1] = 256;		/* device 0: 1 MiB of blocks */
	KUNIT_EXPECT_EQ(test, ssdload_vmap_idx(v, &d, 0, 1 << 20), 0ULL);
	KUNIT_EXPECT_EQ(test, ssdload_vmap_idx(v, &d, 0, (2 << 20) - 4096),
			255ULL);		/* the last block of the span */
	KUNIT_EXPECT_EQ(test, ssdload_vmap_idx(v, &d, 1, 1 << 20), 256ULL);
	KUNIT_EXPECT_EQ(test, ssdload_vmap_idx(v, &d, 1, (1 << 20) + 8192),
			258ULL);
}

/* The names the verify attribute takes (fio's). */
static void ssdload_verify_test_names(struct kunit *test)
{
	static const char * const names[] = {
		"0", "crc32c", "crc64", "xxhash", "sha256", "md5", "sha1",
		"pattern", "meta", "null",
	};
	unsigned int i;
	u32 val;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		KUNIT_EXPECT_EQ(test, ssdload_parse_enum(names[i],
							 ssdload_verify_names,
							 &val), 0);
		KUNIT_EXPECT_EQ(test, val, i);
	}
	KUNIT_EXPECT_EQ(test, (int)SSDLOAD_VERIFY_NR, (int)ARRAY_SIZE(names));
	KUNIT_EXPECT_STREQ(test, ssdload_vclass_names[SSDLOAD_VCLASS_STALE],
			   "stale");
}

static struct kunit_case ssdload_verify_cases[] = {
	KUNIT_CASE(ssdload_verify_test_layout),
	KUNIT_CASE(ssdload_verify_test_vectors),
	KUNIT_CASE(ssdload_verify_test_crc64),
	KUNIT_CASE(ssdload_verify_test_classes),
	KUNIT_CASE(ssdload_verify_test_types),
	KUNIT_CASE(ssdload_verify_test_interval),
	KUNIT_CASE(ssdload_verify_test_map),
	KUNIT_CASE(ssdload_verify_test_names),
	{}
};

static struct kunit_suite ssdload_verify_suite = {
	.name = "ssdload_verify",
	.init = ssdload_verify_test_init,
	.exit = ssdload_verify_test_exit,
	.test_cases = ssdload_verify_cases,
};

kunit_test_suite(ssdload_verify_suite);
