/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload: what the write buffers hold (data.c).  fio's buffer options:
 * refill_buffers, scramble_buffers, zero_buffers, buffer_pattern,
 * buffer_compress_percentage/_chunk and dedupe_percentage.
 */
#ifndef _SSDLOAD_DATA_H
#define _SSDLOAD_DATA_H

#include <linux/bvec.h>
#include <linux/types.h>

/* What a worker does to its write buffers (ssdload_data_init() picks it). */
enum ssdload_data_mode {
	SSDLOAD_DATA_RANDOM = 0,	/* random once; a header per sector per
					 * write if scramble
					 */
	SSDLOAD_DATA_ZERO,		/* zeros once, nothing per write */
	SSDLOAD_DATA_PATTERN,		/* the pattern once, nothing per write */
	SSDLOAD_DATA_GEN,		/* new random parts in every write */
};

/* The job's data options, fixed for a run (job->dcfg, set at enable). */
struct ssdload_datacfg {
	u32 compress_pct;		/* buffer_compress_percentage, 0..100 */
	u32 compress_chunk;		/* buffer_compress_chunk, bytes, 0 = 512 */
	u32 dedupe_pct;			/* dedupe_percentage, 0..100 */
	u32 write_bs_min;		/* smallest write, bytes (0 = unknown):
					 * caps the chunk, as fio does
					 */
	bool refill;			/* refill_buffers */
	bool zero;			/* zero_buffers */
	bool scramble;			/* scramble_buffers */
	u32 pattern_len;		/* buffer_pattern bytes, 0 = none */
	u8 pattern[SSDLOAD_PATTERN_MAX];
	u64 seed;			/* the job's randseed */
};

/* Write data of one worker; used by its thread only. */
struct ssdload_datagen {
	const struct ssdload_datacfg *cfg;
	u8 mode;			/* enum ssdload_data_mode */
	u32 idx;			/* worker index */
	u32 chunk;			/* compression chunk in effect, bytes */
	u32 rand_len;			/* random bytes at the start of each
					 * chunk (U32_MAX: no compression)
					 */
	u64 rng[4];			/* own xoshiro256 state, for the dedupe
					 * draws only (never the offsets)
					 */
	u64 key;			/* the worker's content key (seed, idx) */
	u64 wseq;			/* writes so far */
	u64 unique;			/* unique contents so far */
	u64 dups;			/* writes that repeated a content */
	u64 cur;			/* content number of the last write */
	u64 nprefill;			/* buffers prefilled */
};

void ssdload_data_init(struct ssdload_datagen *g,
		       const struct ssdload_datacfg *c, u32 idx);
void ssdload_data_prefill(struct ssdload_datagen *g, const struct bio_vec *v,
			  unsigned int nr, u32 len);
void ssdload_data_write(struct ssdload_datagen *g, const struct bio_vec *v,
			unsigned int nr, u32 len, u64 pos);

int ssdload_parse_pattern(const char *buf, u8 *out, u32 *len);
ssize_t ssdload_pattern_show(const u8 *pat, u32 len, char *page);

#endif /* _SSDLOAD_DATA_H */
