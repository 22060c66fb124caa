// SPDX-License-Identifier: GPL-2.0
/*
 * The verify state file: the checks of module/verify-state.c, in
 * userspace (vstate.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "core/vstate.h"

uint32_t ssl_crc32c(const void *p, size_t len)
{
	static uint32_t table[256];
	const unsigned char *b = p;
	uint32_t c = 0xffffffffU;
	size_t i;

	if (!table[1]) {
		for (i = 0; i < 256; i++) {
			uint32_t v = (uint32_t)i;
			int k;

			for (k = 0; k < 8; k++)
				v = v & 1 ? (v >> 1) ^ 0x82f63b78U : v >> 1;
			table[i] = v;
		}
	}
	for (i = 0; i < len; i++)
		c = table[(c ^ b[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

/* The little-endian value of @n bytes at @p. */
static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static int check_geometry(const struct ssl_vstate *st, char *why, size_t wlen)
{
	uint64_t sum = 0;
	unsigned int i;

	if (st->csum_type == SSDLOAD_VERIFY_OFF || st->csum_type >= SSDLOAD_VERIFY_NR)
		return ssl_fail(why, wlen, "unknown checksum type %u", st->csum_type);
	if (st->bs < SSDLOAD_MIN_BS || st->bs > SSDLOAD_MAX_BS || st->bs % SSDLOAD_MIN_BS ||
	    !st->interval || st->interval % SSDLOAD_MIN_BS || st->bs % st->interval)
		return ssl_fail(why, wlen, "bs=%u with verify_interval=%u is no valid geometry",
				st->bs, st->interval);
	for (i = 0; i < st->nr_devs; i++) {
		if (st->dev[i].span_start > st->dev[i].dev_bytes ||
		    st->dev[i].span_bytes > st->dev[i].dev_bytes - st->dev[i].span_start ||
		    st->dev[i].blocks != st->dev[i].span_bytes / st->bs)
			return ssl_fail(why, wlen, "device %u: its span and blocks are inconsistent",
					i);
		sum += st->dev[i].blocks;
	}
	if (sum != st->map_bytes)
		return ssl_fail(why, wlen, "the devices have %llu blocks, the map %llu",
				(unsigned long long)sum, (unsigned long long)st->map_bytes);
	return 0;
}

int ssl_vstate_check(const void *buf, size_t len, struct ssl_vstate *out,
		     char *why, size_t wlen)
{
	const unsigned char *b = buf;
	struct ssl_vstate st;
	unsigned int hsize, dsize, i;
	uint64_t total;
	uint32_t crc;

	memset(&st, 0, sizeof(st));
	if (len < sizeof(struct ssdload_vstate_hdr))
		return ssl_fail(why, wlen, "truncated: %zu bytes, the header alone is %zu",
				len, sizeof(struct ssdload_vstate_hdr));
	if (le(b, 4) != SSDLOAD_VSTATE_MAGIC)
		return ssl_fail(why, wlen, "not a state file (magic 0x%08llx)",
				(unsigned long long)le(b, 4));
	if (le(b + 4, 2) != SSDLOAD_VSTATE_VERSION)
		return ssl_fail(why, wlen, "version %u, this ssdload reads %u",
				(unsigned int)le(b + 4, 2), SSDLOAD_VSTATE_VERSION);
	hsize = (unsigned int)le(b + 6, 2);
	dsize = (unsigned int)le(b + 8, 2);
	st.nr_devs = (unsigned int)le(b + 10, 2);
	st.map_bytes = le(b + 32, 8);
	if (hsize < sizeof(struct ssdload_vstate_hdr) ||
	    dsize < sizeof(struct ssdload_vstate_dev) || !st.nr_devs ||
	    st.nr_devs > SSDLOAD_MAX_DEVS || b[13] != SSDLOAD_VSTATE_GEN_BITS)
		return ssl_fail(why, wlen, "a bad header (header_size %u, dev_size %u, "
				"%u devices, %u bits per block)", hsize, dsize, st.nr_devs, b[13]);
	total = hsize + (uint64_t)st.nr_devs * dsize + 4;
	if (st.map_bytes > SSDLOAD_VSTATE_MAX_BYTES || total + st.map_bytes != len)
		return ssl_fail(why, wlen, "%s: %zu bytes, its header says %llu",
				len < total + st.map_bytes ? "truncated" : "a wrong length", len,
				(unsigned long long)(total + st.map_bytes));
	crc = (uint32_t)le(b + len - 4, 4);
	if (crc != ssl_crc32c(b, len - 4))
		return ssl_fail(why, wlen, "corrupted: crc32c 0x%08x stored, 0x%08x computed",
				crc, ssl_crc32c(b, len - 4));
	st.csum_type = b[12];
	st.bs = (uint32_t)le(b + 16, 4);
	st.interval = (uint32_t)le(b + 20, 4);
	st.seed = le(b + 24, 8);
	st.written = le(b + 40, 8);
	for (i = 0; i < st.nr_devs; i++) {
		const unsigned char *d = b + hsize + (size_t)i * dsize;

		st.dev[i].dev_bytes = le(d, 8);
		st.dev[i].span_start = le(d + 8, 8);
		st.dev[i].span_bytes = le(d + 16, 8);
		st.dev[i].blocks = le(d + 24, 8);
		memcpy(st.dev[i].name, d + 32, SSDLOAD_VSTATE_NAME_LEN);
		st.dev[i].name[SSDLOAD_VSTATE_NAME_LEN] = '\0';
	}
	if (check_geometry(&st, why, wlen))
		return -1;
	if (out)
		*out = st;
	return 0;
}

int ssl_vstate_name(char *buf, size_t len, const char *dir, const char *job,
		    unsigned int num)
{
	char ename[256];
	size_t i;
	int n;

	for (i = 0; job[i] && i < sizeof(ename) - 1; i++)
		ename[i] = job[i] == '/' ? '.' : job[i];
	ename[i] = '\0';
	if (dir && *dir)
		n = snprintf(buf, len, "%s/local-%s-%u-verify.state", dir, ename, num);
	else
		n = snprintf(buf, len, "local-%s-%u-verify.state", ename, num);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}
