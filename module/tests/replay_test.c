// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_replay: replay.c's schedule arithmetic (a record's
 * time scaled by replay_time_scale, saturated), the checks of a record
 * against its devices, and the stream: the ring's room, the clock's
 * start when the ring fills or the stream ends, the end record, and a
 * bad record failing the job.
 */
#include <linux/ktime.h>

#include "ssdload_test.h"

static int ssdload_replay_tinit(struct kunit *test)
{
	struct ssdload_test_job *tj = ssdload_test_job_new(test, 1, false);

	spin_lock_init(&tj->job->err_lock);
	ssdload_replay_init(tj->job);
	return 0;
}

static void ssdload_replay_texit(struct kunit *test)
{
	struct ssdload_test_job *tj = test->priv;

	if (tj)
		ssdload_replay_release(tj->job);
	ssdload_test_job_del(tj);
}

static struct ssdload_replay_rec rec(u64 t, u64 off, u32 len, u16 op)
{
	struct ssdload_replay_rec r = {
		.time_ns = cpu_to_le64(t),
		.offset = cpu_to_le64(off),
		.len = cpu_to_le32(len),
		.op = cpu_to_le16(op),
		.target = 0,
		.magic = cpu_to_le32(SSDLOAD_REPLAY_REC_MAGIC),
	};

	return r;
}

/* fio's replay_time_scale: a percentage of the trace's rate. */
static void test_replay_at(struct kunit *test)
{
	const u64 t0 = 1000000;

	KUNIT_EXPECT_EQ(test, ssdload_replay_at(t0, 0, 100, false), t0);
	KUNIT_EXPECT_EQ(test, ssdload_replay_at(t0, 5000, 100, false),
			t0 + 5000);
	/* 200: twice the rate, half the time; 50: half the rate */
	KUNIT_EXPECT_EQ(test, ssdload_replay_at(t0, 5000, 200, false),
			t0 + 2500);
	KUNIT_EXPECT_EQ(test, ssdload_replay_at(t0, 5000, 50, false),
			t0 + 10000);
	KUNIT_EXPECT_EQ(test, ssdload_replay_at(t0, 3, 300, false), t0 + 1);
	/* no_stall: everything is due at once */
	KUNIT_EXPECT_EQ(test, ssdload_replay_at(t0, 5000, 100, true), t0);
	/* times are clamped to 2^56 ns: at the slowest scale, 100 times that */
	KUNIT_EXPECT_EQ(test, ssdload_replay_at(t0, U64_MAX, 1, false),
			t0 + BIT_ULL(56) * 100);
	/* a schedule past KTIME_MAX saturates below it, no wrap */
	KUNIT_EXPECT_EQ(test, ssdload_replay_at((u64)KTIME_MAX - 10, 1000, 100,
						false),
			(u64)KTIME_MAX - 1);
	KUNIT_EXPECT_LE(test, ssdload_replay_at(t0, BIT_ULL(56), 1, false),
			(u64)KTIME_MAX - 1);
	KUNIT_EXPECT_GT(test, ssdload_replay_at(t0, BIT_ULL(40), 1, false),
			ssdload_replay_at(t0, BIT_ULL(39), 1, false));
}

/* Every reason a record is refused, and what passes. */
static void test_replay_check(struct kunit *test)
{
	struct ssdload_replay_lim lim = {
		.bytes = { 1 << 20 }, .lbs = { 512 }, .discard = { false },
		.nr_devs = 1, .bs_max = 65536, .allow_write = false,
	};
	struct ssdload_replay_rec r;
	const char *why;

	r = rec(10, 4096, 4096, SSDLOAD_REPLAY_OP_READ);
	KUNIT_EXPECT_EQ(test, ssdload_replay_check(&r, 10, &lim, &why), 0);
	KUNIT_EXPECT_NULL(test, why);
	/* the last sector of the device, and the end record */
	r = rec(10, (1 << 20) - 512, 512, SSDLOAD_REPLAY_OP_READ);
	KUNIT_EXPECT_EQ(test, ssdload_replay_check(&r, 0, &lim, &why), 0);
	r = rec(0, 0, 0, SSDLOAD_REPLAY_OP_END);
	KUNIT_EXPECT_EQ(test, ssdload_replay_check(&r, 99, &lim, &why), 0);
	r = rec(10, 0, 0, SSDLOAD_REPLAY_OP_FLUSH);
	KUNIT_EXPECT_EQ(test, ssdload_replay_check(&r, 0, &lim, &why), 0);

#define REFUSED(R, PREV, WHY) do {					\
	r = (R);							\
	KUNIT_EXPECT_EQ(test, ssdload_replay_check(&r, PREV, &lim, &why), \
			-EINVAL);					\
	KUNIT_EXPECT_NOT_NULL(test, why);				\
	if (why)							\
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, WHY), "%s", why); \
} while (0)
	r = rec(10, 0, 512, SSDLOAD_REPLAY_OP_READ);
	r.magic = 0;
	REFUSED(r, 0, "magic");
	r = rec(10, 0, 512, SSDLOAD_REPLAY_OP_READ);
	r.reserved = cpu_to_le32(1);
	REFUSED(r, 0, "reserved");
	REFUSED(rec(10, 0, 512, SSDLOAD_REPLAY_OP_NR), 0, "unknown op");
	REFUSED(rec(9, 0, 512, SSDLOAD_REPLAY_OP_READ), 10, "unsorted");
	REFUSED(rec(BIT_ULL(56) + 1, 0, 512, SSDLOAD_REPLAY_OP_READ), 0,
		"2^56");
	r = rec(10, 0, 512, SSDLOAD_REPLAY_OP_READ);
	r.target = cpu_to_le16(1);
	REFUSED(r, 0, "target");
	REFUSED(rec(10, 512, 0, SSDLOAD_REPLAY_OP_FLUSH), 0, "flush");
	REFUSED(rec(10, 0, 0, SSDLOAD_REPLAY_OP_READ), 0, "zero length");
	REFUSED(rec(10, 0, 131072, SSDLOAD_REPLAY_OP_READ), 0, "longer");
	REFUSED(rec(10, 100, 512, SSDLOAD_REPLAY_OP_READ), 0, "logical");
	REFUSED(rec(10, 0, 700, SSDLOAD_REPLAY_OP_READ), 0, "logical");
	REFUSED(rec(10, 1 << 20, 512, SSDLOAD_REPLAY_OP_READ), 0, "end");
	/* an offset near 2^64: offset + len must not wrap to a small value */
	REFUSED(rec(10, U64_MAX - 511, 512, SSDLOAD_REPLAY_OP_READ), 0, "end");
	REFUSED(rec(10, 0, 512, SSDLOAD_REPLAY_OP_WRITE), 0, "allow_write");
	REFUSED(rec(10, 0, 512, SSDLOAD_REPLAY_OP_TRIM), 0, "allow_write");
	lim.allow_write = true;
	r = rec(10, 0, 512, SSDLOAD_REPLAY_OP_WRITE);
	KUNIT_EXPECT_EQ(test, ssdload_replay_check(&r, 0, &lim, &why), 0);
	REFUSED(rec(10, 0, 512, SSDLOAD_REPLAY_OP_TRIM), 0, "discard");
	lim.discard[0] = true;
	r = rec(10, 0, 512, SSDLOAD_REPLAY_OP_TRIM);
	KUNIT_EXPECT_EQ(test, ssdload_replay_check(&r, 0, &lim, &why), 0);
#undef REFUSED
}

/* A stream's ring, with the device of @job as its one target. */
static struct ssdload_replay *stream(struct kunit *test,
				     struct ssdload_job *job)
{
	struct ssdload_replay *rp = &job->rp;

	rp->ring = kvcalloc(SSDLOAD_REPLAY_RING, sizeof(*rp->ring),
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rp->ring);
	rp->lim.nr_devs = 1;
	rp->lim.bytes[0] = 1ULL << 30;
	rp->lim.lbs[0] = 512;
	rp->lim.bs_max = 4096;
	return rp;
}

/*
 * The ring takes whole records up to its size; the clock starts when it
 * is full; the worker's consumption makes room, the indices wrap, the
 * records come out in order.
 */
static void test_replay_stream_full(struct kunit *test)
{
	struct ssdload_test_job *tj = test->priv;
	struct ssdload_replay *rp = stream(test, tj->job);
	const size_t nr = 64;
	struct ssdload_replay_rec *buf;
	u64 t = 0, i;
	long n;

	buf = kunit_kcalloc(test, nr, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	while (rp->tail - rp->head < SSDLOAD_REPLAY_RING) {
		long room = SSDLOAD_REPLAY_RING - (rp->tail - rp->head);

		for (i = 0; i < nr; i++, t += 1000)
			buf[i] = rec(t, (t / 1000 % 1024) * 4096, 4096,
				     SSDLOAD_REPLAY_OP_READ);
		KUNIT_EXPECT_FALSE(test, rp->primed);
		n = ssdload_replay_queue(tj->job, buf,
					 min_t(long, room, (long)nr));
		KUNIT_ASSERT_EQ(test, n, min_t(long, room, (long)nr));
	}
	KUNIT_EXPECT_EQ(test, rp->tail, (u64)SSDLOAD_REPLAY_RING);
	KUNIT_EXPECT_TRUE(test, rp->primed);
	KUNIT_EXPECT_NE(test, rp->t0_ns, 0ULL);
	KUNIT_EXPECT_FALSE(test, rp->eos);
	/* the worker takes 100; 100 more fit, behind the wrap */
	rp->head += 100;
	for (i = 0; i < nr; i++, t += 1000)
		buf[i] = rec(t, 0, 512, SSDLOAD_REPLAY_OP_READ);
	KUNIT_EXPECT_EQ(test, ssdload_replay_queue(tj->job, buf, 64), 64L);
	KUNIT_EXPECT_EQ(test, rp->tail, (u64)SSDLOAD_REPLAY_RING + 64);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(rp->ring[63].time_ns),
			(u64)(SSDLOAD_REPLAY_RING + 63) * 1000);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(rp->ring[100].time_ns), 100000ULL);
	KUNIT_EXPECT_EQ(test, rp->accepted, (u64)SSDLOAD_REPLAY_RING + 64);
}

/* A short stream: its end record starts the clock and ends the stream. */
static void test_replay_stream_end(struct kunit *test)
{
	struct ssdload_test_job *tj = test->priv;
	struct ssdload_replay *rp = stream(test, tj->job);
	struct ssdload_replay_rec buf[4] = {
		rec(0, 0, 4096, SSDLOAD_REPLAY_OP_READ),
		rec(5, 4096, 4096, SSDLOAD_REPLAY_OP_READ),
		rec(0, 0, 0, SSDLOAD_REPLAY_OP_END),
		rec(9, 8192, 4096, SSDLOAD_REPLAY_OP_READ),
	};

	/* the end is taken, what follows it is not */
	KUNIT_EXPECT_EQ(test, ssdload_replay_queue(tj->job, buf, 4), 3L);
	KUNIT_EXPECT_EQ(test, rp->tail, 2ULL);
	KUNIT_EXPECT_TRUE(test, rp->eos);
	KUNIT_EXPECT_TRUE(test, rp->primed);
	KUNIT_EXPECT_FALSE(test, tj->job->failed);
}

/*
 * A bad record: the write fails, the records before it were queued, the
 * job fails with the record's number in its error.
 */
static void test_replay_stream_bad(struct kunit *test)
{
	struct ssdload_test_job *tj = test->priv;
	struct ssdload_replay *rp = stream(test, tj->job);
	struct ssdload_replay_rec buf[3] = {
		rec(0, 0, 4096, SSDLOAD_REPLAY_OP_READ),
		rec(5, 4096, 4096, SSDLOAD_REPLAY_OP_READ),
		rec(6, 0, 4096, SSDLOAD_REPLAY_OP_WRITE),
	};

	KUNIT_EXPECT_EQ(test, ssdload_replay_queue(tj->job, buf, 3),
			(long)-EINVAL);
	KUNIT_EXPECT_EQ(test, rp->tail, 2ULL);
	KUNIT_EXPECT_EQ(test, rp->refused, 1ULL);
	KUNIT_EXPECT_TRUE(test, tj->job->failed);
	KUNIT_EXPECT_EQ(test, tj->job->err, -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(tj->job->errmsg, "record 2"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(tj->job->errmsg, "allow_write"));
	KUNIT_EXPECT_FALSE(test, rp->primed);
}

static struct kunit_case ssdload_replay_cases[] = {
	KUNIT_CASE(test_replay_at),
	KUNIT_CASE(test_replay_check),
	KUNIT_CASE(test_replay_stream_full),
	KUNIT_CASE(test_replay_stream_end),
	KUNIT_CASE(test_replay_stream_bad),
	{}
};

static struct kunit_suite ssdload_replay_suite = {
	.name = "ssdload_replay",
	.init = ssdload_replay_tinit,
	.exit = ssdload_replay_texit,
	.test_cases = ssdload_replay_cases,
};

kunit_test_suite(ssdload_replay_suite);
