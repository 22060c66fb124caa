/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload: open-loop rate control (rate.c).  fio's rate_iops, rate and
 * rate_process, with an intended send time for every rate-controlled I/O.
 */
#ifndef _SSDLOAD_RATE_H
#define _SSDLOAD_RATE_H

#include <linux/bits.h>
#include <linux/types.h>

#define SSDLOAD_RATE_BLOCK	128U	/* poisson: arrivals per block */
#define SSDLOAD_RATE_ONE	BIT(16)		/* work of one I/O (or byte) */
#define SSDLOAD_LATE_NS		NSEC_PER_MSEC	/* sent this late: "late" */

/* rate_process: how the intended send times are spaced. */
enum ssdload_rate_process {
	SSDLOAD_RATE_LINEAR = 0,	/* "linear": evenly */
	SSDLOAD_RATE_POISSON,		/* "poisson": exponential gaps */
};

/*
 * The schedule of one direction of one worker.  Work is counted in
 * 1/2^16 of an I/O (rate_iops) or of a byte (rate); the intended time of
 * the next send is t_base + work * mul / div, floored to the ns, never
 * accumulated: there is no drift.
 *
 * poisson: the arrivals of each block of SSDLOAD_RATE_BLOCK sends are
 * placed at sorted uniform positions of the block's span: a Poisson
 * process conditioned on its count per block.  Each gap is exponential
 * in the limit (coefficient of variation sqrt((M-1)/(M+1)), 0.992 for
 * M = 128) and every block takes exactly its share of time, so the rate
 * holds over any run longer than a few blocks instead of drifting by
 * the sqrt(N) of independent draws.
 */
struct ssdload_sched {
	bool on;			/* this direction is rate controlled */
	bool bw;			/* work in bytes (rate), else in I/Os */
	bool poisson;			/* rate_process=poisson */
	u32 j;				/* poisson: next arrival of the block */
	u64 t_base;			/* ns, the time of work 0 */
	u64 work;			/* since t_base, 1/2^16 units */
	u64 mul;			/* workers * NSEC_PER_SEC */
	u64 div;			/* the job's rate << 16 */
	u64 rebase_at;			/* work that moves t_base up */
	u64 next_ns;			/* intended time of the next send */
	u64 rng;			/* splitmix64 state of the gaps */
	u32 pts[SSDLOAD_RATE_BLOCK];	/* poisson: sorted positions, work
					 * units from the block's start
					 */
};

void ssdload_sched_init(struct ssdload_sched *s, u64 rate, bool bw,
			bool poisson, unsigned int nr_workers,
			unsigned int idx, u32 unit_len, u64 t0, u64 seed);
void ssdload_sched_advance(struct ssdload_sched *s, u32 len);
bool ssdload_sched_fits(u64 rate, bool bw, unsigned int nr_workers,
			u32 bs_max);
int ssdload_parse_rate(const char *buf, u64 max, u64 *out);
ssize_t ssdload_rate_show(const u64 *rate, char *page);

#endif /* _SSDLOAD_RATE_H */
