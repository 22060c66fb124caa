/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload: the pseudo-random generators of ssdload.ko.
 *
 * splitmix64 seeds (and alone draws the poisson arrivals of rate.c and
 * the bijection rounds of dist.c); xoshiro256** is the worker's generator
 * (offsets, directions, block sizes) and data.c's (dedupe draws).  Both
 * are Vigna's reference algorithms: a seed gives the same sequence on
 * every kernel, which the KUnit suites pin.
 */
#ifndef _SSDLOAD_RNG_H
#define _SSDLOAD_RNG_H

#include <linux/bitops.h>
#include <linux/types.h>

#define SSDLOAD_RNG_GOLDEN	0x9e3779b97f4a7c15ULL	/* 2^64 / phi */

/* splitmix64's finaliser: a bijective 64-bit mix. */
static inline u64 ssdload_mix64(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The next value of the splitmix64 sequence of state *@x. */
static inline u64 ssdload_splitmix64(u64 *x)
{
	*x += SSDLOAD_RNG_GOLDEN;
	return ssdload_mix64(*x);
}

/*
 * The next value of xoshiro256** of state @s[4] (not all zero).  Always
 * inlined: the worker draws on its I/O path, where it was open code.
 */
static __always_inline u64 ssdload_xoshiro256ss(u64 *s)
{
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

#endif /* _SSDLOAD_RNG_H */
