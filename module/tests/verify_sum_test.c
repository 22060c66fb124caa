// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_verify_sum: md5 and sha1 through the crypto API
 * against known vectors, fio's verify_pattern syntax (the examples of
 * fio's lib/pattern.c), and a pattern with %o stamped and checked
 * (module/verify-sum.c).
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "ssdload_test.h"

/* The data of a fixed 4 KiB block after its 96-byte header. */
static void vs_fill(u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (i * 7 + 3) & 0xff;
}

/* One digest of "abc" and of the fixed block, by @type. */
static void vs_digest(struct kunit *test, u32 type, const u8 *abc,
		      const u8 *blk, unsigned int size)
{
	const size_t len = 4096 - SSDLOAD_VHDR_SIZE;
	struct ssdload_vctx c = {};
	u8 out[SSDLOAD_VHDR_CSUM_MAX];
	const char *why;
	u8 *buf;

	why = ssdload_vctx_get(&c, type);
	if (why)
		kunit_skip(test, "%s %s",
			   ssdload_enum_name(ssdload_verify_names, type), why);
	buf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	vs_fill(buf, len);
	KUNIT_EXPECT_EQ(test, ssdload_vcsum_size(type), size);
	ssdload_vcsum_flat(&c, "abc", 3, out);
	KUNIT_EXPECT_MEMEQ(test, out, abc, size);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(out + size, 0, sizeof(out) - size));
	ssdload_vcsum_flat(&c, buf, len, out);
	KUNIT_EXPECT_MEMEQ(test, out, blk, size);
	/* the state is reused: the same input gives the same digest */
	ssdload_vcsum_flat(&c, "abc", 3, out);
	KUNIT_EXPECT_MEMEQ(test, out, abc, size);
	ssdload_vctx_put(&c);
	KUNIT_EXPECT_NULL(test, c.tfm);
	KUNIT_EXPECT_NULL(test, c.desc);
}

/* md5: RFC 1321's "abc", and the fixed block (Python's hashlib). */
static void ssdload_vsum_test_md5(struct kunit *test)
{
	static const u8 abc[16] = {
		0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
		0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72,
	};
	static const u8 blk[16] = {
		0xc5, 0x7e, 0xf2, 0x37, 0xfd, 0x76, 0xa2, 0x6b,
		0x7a, 0x47, 0x33, 0x88, 0x94, 0x49, 0x6c, 0xac,
	};

	vs_digest(test, SSDLOAD_VERIFY_MD5, abc, blk, sizeof(abc));
}

/* sha1: FIPS 180-1's "abc", and the fixed block (Python's hashlib). */
static void ssdload_vsum_test_sha1(struct kunit *test)
{
	static const u8 abc[20] = {
		0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
		0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d,
	};
	static const u8 blk[20] = {
		0xa8, 0x32, 0x30, 0xd3, 0x2a, 0xf2, 0xce, 0x31, 0x60, 0x44,
		0xd8, 0x23, 0xf3, 0xb6, 0xf5, 0x2e, 0x83, 0x1a, 0x61, 0x55,
	};

	vs_digest(test, SSDLOAD_VERIFY_SHA1, abc, blk, sizeof(abc));
}

/* fio's examples of lib/pattern.c, and what it refuses. */
static void ssdload_vsum_test_parse(struct kunit *test)
{
	static const struct {
		const char *in;
		u8 out[24];
		u32 len, nr_fmt;
	} good[] = {
		{ "\"abcd\"", { 0x61, 0x62, 0x63, 0x64 }, 4, 0 },
		{ "-1024", { 0x00, 0xfc, 0xff, 0xff }, 4, 0 },
		{ "66", { 0x42 }, 1, 0 },
		{ "0", { 0x00 }, 1, 0 },
		{ "256", { 0x00, 0x01 }, 2, 0 },
		{ "0xFF0X1", { 0xff, 0x01 }, 2, 0 },
		{ "0xabc", { 0x0a, 0xbc }, 2, 0 },
		{ "%o", { 0 }, 8, 1 },
		{ "\"123\"0xFFeeCC", { 0x31, 0x32, 0x33, 0xff, 0xee, 0xcc },
		  6, 0 },
		{ "-100xab\"1\"%o\"2\"",
		  { 0xf6, 0xff, 0xff, 0xff, 0xab, 0x31, 0, 0, 0, 0, 0, 0, 0, 0,
		    0x32 }, 15, 1 },
		{ "%o0xdeadbeef%o\n",
		  { 0, 0, 0, 0, 0, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef }, 20, 2 },
	};
	static const char * const bad[] = {
		"%x", "%", "\"abc", "\"\"", "'file'", "0x", "0xzz", "abc",
		"2147483648", "-2147483649", "1 2", "-", "0x12 ",
	};
	struct ssdload_vpat *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	char *big;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ssdload_parse_vpattern(good[i].in, p),
				    0, "%s", good[i].in);
		KUNIT_EXPECT_EQ_MSG(test, p->len, good[i].len, "%s",
				    good[i].in);
		KUNIT_EXPECT_EQ_MSG(test, p->nr_fmt, good[i].nr_fmt, "%s",
				    good[i].in);
		KUNIT_EXPECT_MEMEQ_MSG(test, p->bytes, good[i].out,
				       min_t(u32, p->len, 24), "%s",
				       good[i].in);
	}
	KUNIT_EXPECT_EQ(test, p->fmt[0], 0);		/* %o0xdeadbeef%o */
	KUNIT_EXPECT_EQ(test, p->fmt[1], 12);
	KUNIT_EXPECT_STREQ(test, p->text, "%o0xdeadbeef%o");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ssdload_parse_vpattern(bad[i], p),
				    -EINVAL, "%s", bad[i]);
		KUNIT_EXPECT_EQ(test, p->len, 0U);
	}
	/* 512 bytes fit, 513 do not */
	big = kunit_kzalloc(test, 1100, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	big[0] = '0';
	big[1] = 'x';
	memset(big + 2, 'a', 1024);
	KUNIT_EXPECT_EQ(test, ssdload_parse_vpattern(big, p), 0);
	KUNIT_EXPECT_EQ(test, p->len, SSDLOAD_PATTERN_MAX);
	memcpy(big + 1026, "aa", 2);
	KUNIT_EXPECT_EQ(test, ssdload_parse_vpattern(big, p), -EINVAL);
}

/* Two one-page chunks, one 8 KiB block: a unit spans both. */
struct vs_buf {
	struct bio_vec v[2];
};

static void vs_buf_free(void *data)
{
	struct vs_buf *b = data;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(b->v); i++)
		if (b->v[i].bv_page)
			__free_page(b->v[i].bv_page);
}

static struct vs_buf *vs_buf_new(struct kunit *test)
{
	struct vs_buf *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < ARRAY_SIZE(b->v); i++) {
		b->v[i].bv_page = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, b->v[i].bv_page);
		b->v[i].bv_len = PAGE_SIZE;
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, vs_buf_free, b),
			0);
	return b;
}

static u8 *vs_byte(struct vs_buf *b, u32 off)
{
	return (u8 *)page_address(b->v[off / PAGE_SIZE].bv_page) +
	       off % PAGE_SIZE;
}

/*
 * verify=pattern with "0xaa%o": every 9 bytes from the block's start,
 * 0xaa then the block's byte offset; verify_interval units continue the
 * repetition.  A flipped byte is corrupt, another block's pattern is
 * misplaced (naming that block's sector).
 */
static void ssdload_vsum_test_pattern(struct kunit *test)
{
	const u64 pos = 0x123456000ULL, other = 0x2000ULL;
	struct vs_buf *b = vs_buf_new(test);
	struct ssdload_vpat *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct ssdload_vctx c = { .type = SSDLOAD_VERIFY_PATTERN,
				  .bs = 2 * PAGE_SIZE };
	struct ssdload_vstamp st = { .lba = pos >> SECTOR_SHIFT };
	struct ssdload_vwant want = { .lba = pos >> SECTOR_SHIFT };
	struct ssdload_vgot got;
	u32 off, half = PAGE_SIZE;
	__le64 le;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, ssdload_parse_vpattern("0xaa%o", p), 0);
	c.pat = p;
	c.pbuf = kunit_kmalloc(test, SSDLOAD_PATTERN_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c.pbuf);

	ssdload_vstamp(&c, b->v, 2, 0, 2 * PAGE_SIZE, &st);
	for (off = 0; off + 9 <= 2 * PAGE_SIZE; off += 9) {
		u32 i;
		u8 got8[8];

		KUNIT_ASSERT_EQ_MSG(test, *vs_byte(b, off), 0xaa, "at %u", off);
		for (i = 0; i < 8; i++)
			got8[i] = *vs_byte(b, off + 1 + i);
		memcpy(&le, got8, sizeof(le));
		KUNIT_ASSERT_EQ_MSG(test, le64_to_cpu(le), pos, "at %u", off);
	}
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&c, b->v, 2, 0, 2 * PAGE_SIZE,
					     &want, &got), SSDLOAD_VCLASS_OK);

	*vs_byte(b, PAGE_SIZE + 5) ^= 0x10;
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&c, b->v, 2, 0, 2 * PAGE_SIZE,
					     &want, &got),
			SSDLOAD_VCLASS_CORRUPT);
	/* the first unit of two still passes, the second does not */
	want.lba = pos >> SECTOR_SHIFT;
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&c, b->v, 2, 0, half, &want,
					     &got), SSDLOAD_VCLASS_OK);
	want.lba = (pos + half) >> SECTOR_SHIFT;
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&c, b->v, 2, half, half, &want,
					     &got), SSDLOAD_VCLASS_CORRUPT);

	/* another block's data: misplaced, naming it */
	st.lba = other >> SECTOR_SHIFT;
	ssdload_vstamp(&c, b->v, 2, 0, 2 * PAGE_SIZE, &st);
	want.lba = pos >> SECTOR_SHIFT;
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&c, b->v, 2, 0, 2 * PAGE_SIZE,
					     &want, &got),
			SSDLOAD_VCLASS_MISPLACED);
	KUNIT_EXPECT_EQ(test, got.lba, other >> SECTOR_SHIFT);
	/* and its second unit, whose repetition starts mid-pattern */
	want.lba = (pos + half) >> SECTOR_SHIFT;
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&c, b->v, 2, half, half, &want,
					     &got),
			SSDLOAD_VCLASS_MISPLACED);
	KUNIT_EXPECT_EQ(test, got.lba, (other + half) >> SECTOR_SHIFT);

	/* zeros (trimmed, never written): corrupt, no header to say more */
	memset(vs_byte(b, 0), 0, PAGE_SIZE);
	want.lba = pos >> SECTOR_SHIFT;
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&c, b->v, 2, 0, half, &want,
					     &got), SSDLOAD_VCLASS_CORRUPT);
}

/* verify_pattern under a checksum: the pattern is the covered data. */
static void ssdload_vsum_test_pattern_crc(struct kunit *test)
{
	struct vs_buf *b = vs_buf_new(test);
	struct ssdload_vpat *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct ssdload_vctx c = { .type = SSDLOAD_VERIFY_CRC32C,
				  .bs = 2 * PAGE_SIZE };
	struct ssdload_vstamp st = { .lba = 16, .seed = 7, .gen = 3 };
	struct ssdload_vwant want = { .lba = 16, .seed = 7, .gen = 3 };
	struct ssdload_vgot got;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, ssdload_parse_vpattern("\"ssd\"", p), 0);
	c.pat = p;
	c.pbuf = kunit_kmalloc(test, SSDLOAD_PATTERN_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c.pbuf);
	ssdload_vstamp(&c, b->v, 2, 0, 2 * PAGE_SIZE, &st);
	/* the header at 0, the pattern after it, in phase with the block */
	KUNIT_EXPECT_EQ(test, *vs_byte(b, 0), 'S');
	KUNIT_EXPECT_EQ(test, *vs_byte(b, 96), 's');	/* 96 % 3 == 0 */
	KUNIT_EXPECT_EQ(test, *vs_byte(b, 97), 's');
	KUNIT_EXPECT_EQ(test, *vs_byte(b, 98), 'd');
	KUNIT_EXPECT_EQ(test, *vs_byte(b, 2 * PAGE_SIZE - 1), 's');
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&c, b->v, 2, 0, 2 * PAGE_SIZE,
					     &want, &got), SSDLOAD_VCLASS_OK);
	*vs_byte(b, 100) = 'x';
	KUNIT_EXPECT_EQ(test, ssdload_vcheck(&c, b->v, 2, 0, 2 * PAGE_SIZE,
					     &want, &got),
			SSDLOAD_VCLASS_CORRUPT);
}

static struct kunit_case ssdload_vsum_cases[] = {
	KUNIT_CASE(ssdload_vsum_test_md5),
	KUNIT_CASE(ssdload_vsum_test_sha1),
	KUNIT_CASE(ssdload_vsum_test_parse),
	KUNIT_CASE(ssdload_vsum_test_pattern),
	KUNIT_CASE(ssdload_vsum_test_pattern_crc),
	{}
};

static struct kunit_suite ssdload_vsum_suite = {
	.name = "ssdload_verify_sum",
	.test_cases = ssdload_vsum_cases,
};

kunit_test_suite(ssdload_vsum_suite);
