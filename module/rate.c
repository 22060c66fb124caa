// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: open-loop rate control.
 *
 * A rate-controlled direction has a schedule of intended send times
 * (struct ssdload_sched), shared fairly by the job's workers: each has
 * 1/nr of the rate, and with linear arrivals the workers are staggered by
 * one job-wide gap so that their sends interleave.  An I/O goes out at
 * its intended time, or as soon after it as a free I/O allows (iodepth
 * is the cap on outstanding I/Os, as in vdbench); the schedule never
 * waits for the device, so a device that falls behind shows as latency
 * from the intended time, not as a slower schedule (no coordinated
 * omission).
 *
 * Nothing here allocates or sleeps; the worker sleeps on an hrtimer until
 * the next intended time.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ssdload.h"
#include "rng.h"

static int rate_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* poisson: the sorted arrival positions of a new block. */
static void rate_new_block(struct ssdload_sched *s)
{
	const u64 span = (u64)SSDLOAD_RATE_BLOCK * SSDLOAD_RATE_ONE;
	unsigned int i;

	for (i = 0; i < SSDLOAD_RATE_BLOCK; i++)
		s->pts[i] = (u32)(((ssdload_splitmix64(&s->rng) >> 32) * span) >> 32);
	sort(s->pts, SSDLOAD_RATE_BLOCK, sizeof(s->pts[0]), rate_cmp_u32, NULL);
	s->j = 0;
}

/* Work units from arrival j of the block to the next arrival. */
static u64 rate_gap(struct ssdload_sched *s)
{
	const u64 span = (u64)SSDLOAD_RATE_BLOCK * SSDLOAD_RATE_ONE;
	u32 cur;

	if (!s->poisson)
		return SSDLOAD_RATE_ONE;
	cur = s->pts[s->j];
	if (++s->j < SSDLOAD_RATE_BLOCK)
		return s->pts[s->j] - cur;
	rate_new_block(s);
	return span - cur + s->pts[0];
}

static void rate_update(struct ssdload_sched *s)
{
	/* read by debugfs (how far behind) while the worker runs */
	WRITE_ONCE(s->next_ns,
		   s->t_base + mul_u64_u64_div_u64(s->work, s->mul, s->div));
	if (s->work >= s->rebase_at) {	/* t_base moves: under 1 ns lost */
		s->t_base = s->next_ns;
		s->work = 0;
	}
}

/*
 * The work up to which a schedule computes its times directly: work * mul
 * / div below 2^61 ns (73 years), less the largest single step (a poisson
 * gap of a block, times the largest I/O for a bandwidth); 0 if even one
 * step does not fit.  t_base moves up (a rebase, losing under 1 ns) only
 * there, which no real run reaches.
 */
static u64 rate_work_limit(u64 rate, bool bw, unsigned int nr_workers,
			   u32 bs_max)
{
	u64 mul = (u64)nr_workers * NSEC_PER_SEC, div = rate << 16;
	u64 step = (u64)(bw ? bs_max : 1) * SSDLOAD_RATE_BLOCK *
		   SSDLOAD_RATE_ONE;
	u64 lim;

	if (div / mul >= 2)
		lim = BIT_ULL(62);
	else
		lim = mul_u64_u64_div_u64(BIT_ULL(61), div, mul);
	return lim > 2 * step ? lim - step : 0;
}

/*
 * Start the schedule of worker @idx of @nr_workers at @t0, for a job-wide
 * @rate (I/Os per second, or bytes per second if @bw).  @unit_len is the
 * length that staggers the workers of a bandwidth schedule (the largest
 * block).
 */
void ssdload_sched_init(struct ssdload_sched *s, u64 rate, bool bw,
			bool poisson, unsigned int nr_workers,
			unsigned int idx, u32 unit_len, u64 t0, u64 seed)
{
	u64 unit = bw ? unit_len : 1;

	memset(s, 0, sizeof(*s));
	if (!rate)
		return;
	s->on = true;
	s->bw = bw;
	s->poisson = poisson;
	s->mul = (u64)nr_workers * NSEC_PER_SEC;
	s->div = rate << 16;
	s->rebase_at = rate_work_limit(rate, bw, nr_workers, unit_len);
	s->rng = seed ^ ((u64)idx * 0xd1342543de82ef95ULL) ^
		 0x5ca1ab1e0ddba11ULL;
	s->t_base = t0;
	if (poisson) {
		rate_new_block(s);
		s->work = unit * s->pts[0];
	} else {
		/* worker idx starts idx job-wide gaps after t0 */
		s->t_base += mul_u64_u64_div_u64((u64)idx * unit << 16,
						 NSEC_PER_SEC, s->div);
	}
	rate_update(s);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_sched_init);

/* An I/O of @len bytes went out at its intended time: the next one's. */
void ssdload_sched_advance(struct ssdload_sched *s, u32 len)
{
	s->work += (s->bw ? len : 1) * rate_gap(s);
	rate_update(s);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_sched_advance);

/*
 * Can a schedule of @rate shared by @nr_workers, with I/Os of up to
 * @bs_max bytes, compute its times without overflow?
 */
bool ssdload_sched_fits(u64 rate, bool bw, unsigned int nr_workers,
			u32 bs_max)
{
	return !rate || rate_work_limit(rate, bw, nr_workers, bs_max);
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_sched_fits);

/*
 * rate_iops and rate: "R[,W[,T]]" as fio's per-direction lists (one value
 * applies to reads, writes and trims; two to reads, and to writes and
 * trims).  An empty field leaves that direction uncapped; a rate of 0 is
 * refused (it would never issue); a blank string clears every cap.
 */
int ssdload_parse_rate(const char *buf, u64 max, u64 *out)
{
	size_t len = strlen(buf);
	const char *s = buf, *end;
	u64 v[SSDLOAD_DIR_NR] = { };
	int n = 0, d, ret;

	if (len && buf[len - 1] == '\n')
		len--;
	end = buf + len;
	if (!len)
		goto out;
	for (;;) {
		const char *c = memchr(s, ',', end - s);
		const char *e = c ? c : end;
		char num[24];

		if (n == SSDLOAD_DIR_NR || e - s >= (ptrdiff_t)sizeof(num))
			return -EINVAL;
		if (e > s) {
			memcpy(num, s, e - s);
			num[e - s] = '\0';
			ret = ssdload_parse_u64(num, 1, max, 0, &v[n]);
			if (ret)
				return ret;
		}
		n++;
		if (!c)
			break;
		s = c + 1;
	}
	if (!v[0] && !v[1] && !v[2])
		return -EINVAL;		/* "," or ",,": nothing capped */
	for (d = n; d < SSDLOAD_DIR_NR; d++)
		v[d] = v[n - 1];
out:
	memcpy(out, v, sizeof(v));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_rate);

/* The list as it was meant: "R,W,T", empty fields uncapped. */
ssize_t ssdload_rate_show(const u64 *rate, char *page)
{
	int len = 0, d;

	if (!rate[0] && !rate[1] && !rate[2])
		return sysfs_emit(page, "\n");
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		if (d)
			len += sysfs_emit_at(page, len, ",");
		if (rate[d])
			len += sysfs_emit_at(page, len, "%llu", rate[d]);
	}
	return len + sysfs_emit_at(page, len, "\n");
}
