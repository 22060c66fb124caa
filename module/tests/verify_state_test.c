// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_vstate: the verify state file (module/verify-state.c):
 * its layout, a round trip through encode and parse, and the refusals of
 * a truncated, corrupted or inconsistent state and of another span.
 */
#include <linux/string.h>

#include "ssdload_test.h"

#define VS_BS		4096U
#define VS_BLOCKS0	24U
#define VS_BLOCKS1	8U
#define VS_BLOCKS	(VS_BLOCKS0 + VS_BLOCKS1)

struct vs_ctx {
	struct ssdload_vspan sp;
	u8 map[VS_BLOCKS];
	u8 *buf;
	size_t len;
	char why[160];
};

static int ssdload_vstate_test_init(struct kunit *test)
{
	struct vs_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	unsigned int i;

	if (!x)
		return -ENOMEM;
	test->priv = x;
	x->sp.csum_type = SSDLOAD_VERIFY_CRC32C;
	x->sp.bs = VS_BS;
	x->sp.interval = 1024;
	x->sp.seed = 0x1122334455667788ULL;
	x->sp.nr_devs = 2;
	x->sp.dev[0] = (struct ssdload_vspan_dev){
		.dev_bytes = 1 << 20, .span_start = 8192,
		.span_bytes = VS_BLOCKS0 * VS_BS + 512, .name = "nullb0",
	};
	x->sp.dev[1] = (struct ssdload_vspan_dev){
		.dev_bytes = 1 << 17, .span_start = 0,
		.span_bytes = VS_BLOCKS1 * VS_BS, .name = "ram0",
	};
	/* unwritten, generations, an ambiguous one, the wrap */
	for (i = 0; i < VS_BLOCKS; i++)
		x->map[i] = i % 5 ? (i * 7) % SSDLOAD_VGEN_MASK + 1 : 0;
	x->map[3] |= SSDLOAD_VGEN_AMBIG;
	x->map[VS_BLOCKS - 1] = SSDLOAD_VGEN_MASK;
	x->len = ssdload_vstate_len(&x->sp, VS_BLOCKS);
	x->buf = kunit_kzalloc(test, x->len + 8, GFP_KERNEL);
	if (!x->buf)
		return -ENOMEM;
	ssdload_vstate_encode(&x->sp, x->map, VS_BLOCKS, 1234, x->buf);
	return 0;
}

/* The little-endian value of @n bytes at @p. */
static u64 vs_le(const u8 *p, int n)
{
	u64 v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static void vs_put_le64(u8 *p, u64 v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (u8)v;
}

static int vs_parse(struct vs_ctx *x, size_t len, struct ssdload_vspan *got)
{
	const u8 *map;
	u64 mb;

	return ssdload_vstate_parse(x->buf, len, got, &map, &mb, x->why,
				    sizeof(x->why));
}

/* The documented bytes: header, device records, map, crc. */
static void ssdload_vstate_test_layout(struct kunit *test)
{
	struct vs_ctx *x = test->priv;
	const u8 *b = x->buf;
	u32 crc;

	KUNIT_EXPECT_EQ(test, x->len, (size_t)(64 + 2 * 64 + VS_BLOCKS + 4));
	KUNIT_EXPECT_EQ(test, vs_le(b + 0, 4), (u64)SSDLOAD_VSTATE_MAGIC);
	KUNIT_EXPECT_EQ(test, memcmp(b, "SSST", 4), 0);
	KUNIT_EXPECT_EQ(test, vs_le(b + 4, 2), (u64)1);
	KUNIT_EXPECT_EQ(test, vs_le(b + 6, 2), (u64)64);
	KUNIT_EXPECT_EQ(test, vs_le(b + 8, 2), (u64)64);
	KUNIT_EXPECT_EQ(test, vs_le(b + 10, 2), (u64)2);
	KUNIT_EXPECT_EQ(test, (u32)b[12], (u32)SSDLOAD_VERIFY_CRC32C);
	KUNIT_EXPECT_EQ(test, (u32)b[13], 8U);
	KUNIT_EXPECT_EQ(test, vs_le(b + 16, 4), (u64)VS_BS);
	KUNIT_EXPECT_EQ(test, vs_le(b + 20, 4), (u64)1024U);
	KUNIT_EXPECT_EQ(test, vs_le(b + 24, 8), (u64)x->sp.seed);
	KUNIT_EXPECT_EQ(test, vs_le(b + 32, 8), (u64)VS_BLOCKS);
	/* written: every fifth block (0, 5, ...) is not */
	KUNIT_EXPECT_EQ(test, vs_le(b + 40, 8),
			(u64)(VS_BLOCKS - DIV_ROUND_UP(VS_BLOCKS, 5)));
	KUNIT_EXPECT_EQ(test, vs_le(b + 48, 8), (u64)1234ULL);
	/* device 0 at 64: its size, span, blocks (a partial one is not) */
	KUNIT_EXPECT_EQ(test, vs_le(b + 64, 8), (u64)(1ULL << 20));
	KUNIT_EXPECT_EQ(test, vs_le(b + 72, 8), (u64)8192ULL);
	KUNIT_EXPECT_EQ(test, vs_le(b + 88, 8), (u64)VS_BLOCKS0);
	KUNIT_EXPECT_STREQ(test, (const char *)b + 96, "nullb0");
	KUNIT_EXPECT_EQ(test, vs_le(b + 128 + 24, 8),
			(u64)VS_BLOCKS1);
	KUNIT_EXPECT_EQ(test, memcmp(b + 192, x->map, VS_BLOCKS), 0);
	crc = ~ssdload_crc32c(~0U, b, x->len - 4);
	KUNIT_EXPECT_EQ(test, vs_le(b + x->len - 4, 4), (u64)crc);
}

/* Encode then parse gives back the span and the map. */
static void ssdload_vstate_test_roundtrip(struct kunit *test)
{
	struct vs_ctx *x = test->priv;
	struct ssdload_vspan got;
	const u8 *map;
	u64 mb;

	KUNIT_ASSERT_EQ(test, ssdload_vstate_parse(x->buf, x->len, &got, &map,
						   &mb, x->why,
						   sizeof(x->why)), 0);
	KUNIT_EXPECT_EQ(test, mb, (u64)VS_BLOCKS);
	KUNIT_EXPECT_EQ(test, memcmp(map, x->map, VS_BLOCKS), 0);
	KUNIT_EXPECT_EQ(test, got.seed, x->sp.seed);
	KUNIT_EXPECT_EQ(test, got.nr_devs, 2U);
	KUNIT_EXPECT_STREQ(test, got.dev[1].name, "ram0");
	KUNIT_EXPECT_EQ(test, got.dev[0].span_bytes, x->sp.dev[0].span_bytes);
	KUNIT_EXPECT_EQ(test, ssdload_vstate_match(&got, &x->sp, x->why,
						   sizeof(x->why)), 0);
}

/* Every shorter or longer length is refused, before the crc is read. */
static void ssdload_vstate_test_truncated(struct kunit *test)
{
	struct vs_ctx *x = test->priv;
	struct ssdload_vspan got;
	size_t len;

	for (len = 0; len < x->len; len++) {
		KUNIT_EXPECT_EQ_MSG(test, vs_parse(x, len, &got), -EBADMSG,
				    "length %zu", len);
		if (len >= 64)
			KUNIT_EXPECT_NOT_NULL_MSG(test,
						  strstr(x->why, "truncated"),
						  "%zu: %s", len, x->why);
	}
	KUNIT_EXPECT_EQ(test, vs_parse(x, x->len + 1, &got), -EBADMSG);
	KUNIT_EXPECT_NOT_NULL(test, strstr(x->why, "wrong length"));
}

/* A flipped bit anywhere is caught: by the crc, or the header checks. */
static void ssdload_vstate_test_corrupted(struct kunit *test)
{
	struct vs_ctx *x = test->priv;
	struct ssdload_vspan got;
	size_t i;

	for (i = 0; i < x->len; i++) {
		x->buf[i] ^= 0x10;
		KUNIT_EXPECT_EQ_MSG(test, vs_parse(x, x->len, &got), -EBADMSG,
				    "byte %zu", i);
		x->buf[i] ^= 0x10;
	}
	/* in the map: named as a crc mismatch */
	x->buf[200] ^= 1;
	KUNIT_EXPECT_EQ(test, vs_parse(x, x->len, &got), -EBADMSG);
	KUNIT_EXPECT_NOT_NULL(test, strstr(x->why, "crc32c"));
	x->buf[200] ^= 1;
	x->buf[0] = 'X';
	KUNIT_EXPECT_EQ(test, vs_parse(x, x->len, &got), -EBADMSG);
	KUNIT_EXPECT_NOT_NULL(test, strstr(x->why, "magic"));
}

/* A valid crc over an inconsistent geometry is still refused. */
static void ssdload_vstate_test_inconsistent(struct kunit *test)
{
	struct vs_ctx *x = test->priv;
	struct ssdload_vspan got;
	__le32 crc;

	vs_put_le64(x->buf + 88, VS_BLOCKS0 + 1);
	vs_put_le64(x->buf + 128 + 24, VS_BLOCKS1 - 1);
	crc = cpu_to_le32(~ssdload_crc32c(~0U, x->buf, x->len - 4));
	memcpy(x->buf + x->len - 4, &crc, 4);
	KUNIT_EXPECT_EQ(test, vs_parse(x, x->len, &got), -EBADMSG);
	KUNIT_EXPECT_NOT_NULL(test, strstr(x->why, "inconsistent"));
	/* an unknown checksum type */
	ssdload_vstate_encode(&x->sp, x->map, VS_BLOCKS, 0, x->buf);
	x->buf[12] = SSDLOAD_VERIFY_NR;
	crc = cpu_to_le32(~ssdload_crc32c(~0U, x->buf, x->len - 4));
	memcpy(x->buf + x->len - 4, &crc, 4);
	KUNIT_EXPECT_EQ(test, vs_parse(x, x->len, &got), -EBADMSG);
}

/* Another span, device size, bs, unit or checksum: -EINVAL, named. */
static void ssdload_vstate_test_mismatch(struct kunit *test)
{
	struct vs_ctx *x = test->priv;
	struct ssdload_vspan want;

#define VS_DIFF(field, val, word) do {					\
	want = x->sp;							\
	want.field = (val);						\
	KUNIT_EXPECT_EQ(test, ssdload_vstate_match(&x->sp, &want, x->why, \
						   sizeof(x->why)),	\
			-EINVAL);					\
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(x->why, word), "%s",	\
				  x->why);				\
} while (0)
	VS_DIFF(csum_type, SSDLOAD_VERIFY_XXHASH, "verify=crc32c");
	VS_DIFF(bs, 8192, "bs=4096");
	VS_DIFF(interval, 4096, "verify_interval=1024");
	VS_DIFF(nr_devs, 1, "devices");
	VS_DIFF(dev[1].dev_bytes, 1 << 18, "bytes");
	VS_DIFF(dev[0].span_start, 0, "span");
	VS_DIFF(dev[0].span_bytes, 4096, "span");
#undef VS_DIFF
	/* the seed and the names are not compared */
	want = x->sp;
	want.seed++;
	strscpy(want.dev[0].name, "nvme0n1", sizeof(want.dev[0].name));
	KUNIT_EXPECT_EQ(test, ssdload_vstate_match(&x->sp, &want, x->why,
						   sizeof(x->why)), 0);
}

static struct kunit_case ssdload_vstate_cases[] = {
	KUNIT_CASE(ssdload_vstate_test_layout),
	KUNIT_CASE(ssdload_vstate_test_roundtrip),
	KUNIT_CASE(ssdload_vstate_test_truncated),
	KUNIT_CASE(ssdload_vstate_test_corrupted),
	KUNIT_CASE(ssdload_vstate_test_inconsistent),
	KUNIT_CASE(ssdload_vstate_test_mismatch),
	{}
};

static struct kunit_suite ssdload_vstate_suite = {
	.name = "ssdload_vstate",
	.init = ssdload_vstate_test_init,
	.test_cases = ssdload_vstate_cases,
};

kunit_test_suite(ssdload_vstate_suite);
