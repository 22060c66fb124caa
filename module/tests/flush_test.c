// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_flush: fio's sync options (flush.c): when a flush
 * becomes due (fsync), which writes are barriers (write_barrier) and
 * carry FUA (sync), the flush bios a worker gets, and the flush
 * statistics (hist_sync).
 */
#include "ssdload_test.h"

static int ssdload_flush_init(struct kunit *test)
{
	ssdload_test_job_new(test, 1, false);
	return 0;
}

static void ssdload_flush_exit(struct kunit *test)
{
	struct ssdload_test_job *tj = test->priv;

	if (tj && tj->job->workers[0])
		ssdload_flush_free(tj->job->workers[0]);
	ssdload_test_job_del(tj);
}

static struct ssdload_worker *flush_worker(struct kunit *test)
{
	struct ssdload_test_job *tj = test->priv;

	return tj->job->workers[0];
}

/* Plan one I/O of direction @dir; returns it (for its barrier flag). */
static struct ssdload_io *plan(struct ssdload_worker *w, struct ssdload_io *io,
			       u8 dir)
{
	io->dir = dir;
	ssdload_flush_plan(w, io);
	return io;
}

static const u64 fsync_every[] = { 1, 3, 8, 32 };

static void every_desc(const u64 *n, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "N=%llu", *n);
}

KUNIT_ARRAY_PARAM(every, fsync_every, every_desc);

/*
 * fsync=N: a flush is due right after the Nth, 2Nth, ... write (fio's
 * io_issues[WRITE] % N == 0 before the next I/O); reads and trims do
 * not count.  Over W writes, W / N flushes.
 */
static void test_fsync_due(struct kunit *test)
{
	const u64 n = *(const u64 *)test->param_value;
	struct ssdload_worker *w = flush_worker(test);
	struct ssdload_io io = { };
	u64 k, flushes = 0;

	w->flush.every = n;
	for (k = 1; k <= 100; k++) {
		plan(w, &io, SSDLOAD_DIR_READ);
		KUNIT_EXPECT_FALSE(test, w->flush.due);
		plan(w, &io, SSDLOAD_DIR_WRITE);
		KUNIT_EXPECT_EQ_MSG(test, w->flush.due, !(k % n),
				    "write %llu of fsync=%llu", k, n);
		KUNIT_EXPECT_FALSE(test, io.barrier);
		if (w->flush.due) {
			flushes++;
			w->flush.due = false;	/* as the reap of the flush */
		}
		plan(w, &io, SSDLOAD_DIR_TRIM);
		KUNIT_EXPECT_FALSE(test, w->flush.due);
	}
	KUNIT_EXPECT_EQ(test, flushes, 100 / n);
	KUNIT_EXPECT_EQ(test, w->res.cnt.fua_writes, 0ULL);
}

/*
 * write_barrier=N: as fio's, the write after a non-zero multiple of N
 * writes is PREFLUSH|FUA: the (N+1)th, (2N+1)th, ...; with sync=1 every
 * write is FUA.
 */
static void test_barrier(struct kunit *test)
{
	const u64 n = *(const u64 *)test->param_value;
	struct ssdload_worker *w = flush_worker(test);
	struct ssdload_io io = { };
	u64 k, barriers = 0;

	w->flush.barrier = n;
	for (k = 1; k <= 100; k++) {
		bool want = k > 1 && !((k - 1) % n);

		plan(w, &io, SSDLOAD_DIR_WRITE);
		KUNIT_EXPECT_EQ_MSG(test, io.barrier, want,
				    "write %llu of write_barrier=%llu", k, n);
		KUNIT_EXPECT_EQ(test, ssdload_flush_opf(w, &io),
				want ? (blk_opf_t)(REQ_PREFLUSH | REQ_FUA) :
				       (blk_opf_t)0);
		barriers += want;
		KUNIT_EXPECT_FALSE(test, plan(w, &io, SSDLOAD_DIR_READ)->barrier);
	}
	KUNIT_EXPECT_EQ(test, barriers, 99 / n);
	KUNIT_EXPECT_EQ(test, w->res.cnt.barrier_writes, barriers);
	KUNIT_EXPECT_EQ(test, w->res.cnt.fua_writes, barriers);
	KUNIT_EXPECT_FALSE(test, w->flush.due);
}

static void test_fua(struct kunit *test)
{
	struct ssdload_worker *w = flush_worker(test);
	struct ssdload_io io = { };
	unsigned int k;

	w->flush.fua = true;
	for (k = 0; k < 10; k++) {
		plan(w, &io, SSDLOAD_DIR_WRITE);
		KUNIT_EXPECT_EQ(test, ssdload_flush_opf(w, &io),
				(blk_opf_t)REQ_FUA);
	}
	KUNIT_EXPECT_EQ(test, w->res.cnt.fua_writes, 10ULL);
	KUNIT_EXPECT_EQ(test, w->res.cnt.barrier_writes, 0ULL);
}

/*
 * A worker of a job with fsync gets one flush bio per device, an empty
 * PREFLUSH write; end_fsync alone too (if the job writes), sync alone
 * none.
 */
static void test_alloc(struct kunit *test)
{
	struct ssdload_worker *w = flush_worker(test);
	struct ssdload_job *job = w->job;

	job->cfg.sync = 1;
	KUNIT_ASSERT_EQ(test, ssdload_flush_alloc(w, NUMA_NO_NODE), 0);
	KUNIT_EXPECT_NULL(test, w->flush.ios);
	KUNIT_EXPECT_TRUE(test, w->flush.fua);

	job->cfg.sync = 0;
	job->cfg.end_fsync = 1;
	job->writes = false;
	KUNIT_ASSERT_EQ(test, ssdload_flush_alloc(w, NUMA_NO_NODE), 0);
	KUNIT_EXPECT_NULL(test, w->flush.ios);
	KUNIT_EXPECT_FALSE(test, w->flush.at_end);

	job->writes = true;
	job->cfg.fsync = 4;
	KUNIT_ASSERT_EQ(test, ssdload_flush_alloc(w, NUMA_NO_NODE), 0);
	KUNIT_ASSERT_NOT_NULL(test, w->flush.ios);
	KUNIT_ASSERT_NOT_NULL(test, w->flush.ios[0]);
	KUNIT_EXPECT_TRUE(test, w->flush.at_end);
	KUNIT_EXPECT_EQ(test, w->flush.every, 4ULL);
	KUNIT_EXPECT_TRUE(test, w->flush.ios[0]->flush);
	KUNIT_EXPECT_EQ(test, w->flush.ios[0]->bio.bi_opf,
			(blk_opf_t)(REQ_OP_WRITE | REQ_PREFLUSH));
	KUNIT_EXPECT_EQ(test, w->flush.ios[0]->bio.bi_iter.bi_size, 0U);
	KUNIT_EXPECT_NOT_NULL(test, w->res.sync.hist);
}

/*
 * Flush latencies go to their own statistics (the job's hist_sync):
 * measured ones timed, ramp ones and failed ones only counted.
 */
static void test_record(struct kunit *test)
{
	struct ssdload_worker *w = flush_worker(test);
	struct ssdload_io io = { .flush = true, .measured = true };
	struct ssdload_sum s;
	u64 *hist;

	hist = kunit_kcalloc(test, SSDLOAD_HIST_BUCKETS, sizeof(*hist),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hist);
	w->job->cfg.fsync = 1;
	KUNIT_ASSERT_EQ(test, ssdload_flush_alloc(w, NUMA_NO_NODE), 0);
	io.submit_ns = 1000;
	io.done_ns = 1000 + 50000;
	ssdload_record_sync(w, &io);
	io.done_ns = 1000 + 150000;
	ssdload_record_sync(w, &io);
	io.measured = false;		/* the ramp's */
	ssdload_record_sync(w, &io);
	io.measured = true;
	io.status = BLK_STS_IOERR;
	ssdload_record_sync(w, &io);

	ssdload_sum_dir(w->job, SSDLOAD_HIST_DIR_SYNC, &s, hist);
	KUNIT_EXPECT_EQ(test, s.ios, 2ULL);
	KUNIT_EXPECT_EQ(test, s.errors, 1ULL);
	KUNIT_EXPECT_EQ(test, s.done, 4ULL);
	KUNIT_EXPECT_EQ(test, s.bytes, 0ULL);
	KUNIT_EXPECT_EQ(test, s.lat_min, 50000ULL);
	KUNIT_EXPECT_EQ(test, s.lat_max, 150000ULL);
	KUNIT_EXPECT_EQ(test, s.lat_sum, 200000ULL);
	KUNIT_EXPECT_EQ(test, hist[ssdload_hist_index(50000)], 1ULL);
	KUNIT_EXPECT_EQ(test, hist[ssdload_hist_index(150000)], 1ULL);
	/* the writes' statistics are untouched */
	ssdload_sum_dir(w->job, SSDLOAD_DIR_WRITE, &s, NULL);
	KUNIT_EXPECT_EQ(test, s.done, 0ULL);
}

static struct kunit_case ssdload_flush_cases[] = {
	KUNIT_CASE_PARAM(test_fsync_due, every_gen_params),
	KUNIT_CASE_PARAM(test_barrier, every_gen_params),
	KUNIT_CASE(test_fua),
	KUNIT_CASE(test_alloc),
	KUNIT_CASE(test_record),
	{}
};

static struct kunit_suite ssdload_flush_suite = {
	.name = "ssdload_flush",
	.init = ssdload_flush_init,
	.exit = ssdload_flush_exit,
	.test_cases = ssdload_flush_cases,
};

kunit_test_suite(ssdload_flush_suite);
