// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload_test.ko: KUnit suites for ssdload.ko (module/tests/).
 *
 *   ssdload_hist	histogram geometry, recording, merging, percentiles
 *   ssdload_offset	PRNG, sequential and random offsets
 *   ssdload_mix	the rwmixread direction draw
 *   ssdload_config	every configfs attribute parser
 *   ssdload_dist	block-size and offset generators (chi-square)
 *   ssdload_dist_parse	bssplit, bsrange, random_distribution parsers
 *   ssdload_data	write-buffer contents (compress, dedupe, refill)
 *   ssdload_verify	verify header, checksums, classes, generation map
 *   ssdload_walk	rw_gap and rw_seq_nr walks, clones' regions
 *   ssdload_replay	replay: schedule arithmetic, record checks, the stream
 *
 * The suites run when the module is loaded; results are in dmesg and in
 * /sys/kernel/debug/kunit/<suite>/results (KTAP).
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "ssdload_test.h"

/*
 * A zeroed job with @nr_workers zeroed workers (index i, CPU 0), freed
 * with the test; it becomes test->priv.  With @stats the workers get their
 * per-direction statistics (histograms), which ssdload_test_job_del()
 * (the suite's .exit) frees.
 */
struct ssdload_test_job *ssdload_test_job_new(struct kunit *test,
					      unsigned int nr_workers,
					      bool stats)
{
	struct ssdload_test_job *tj;
	struct ssdload_job *job;
	unsigned int i;
	int d;

	tj = kunit_kzalloc(test, sizeof(*tj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tj);
	test->priv = tj;	/* for .exit, even if a step below fails */
	job = kunit_kzalloc(test, sizeof(*job), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, job);
	job->workers = kunit_kcalloc(test, nr_workers, sizeof(*job->workers),
				     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, job->workers);
	job->cfg.bs = 4096;
	job->cfg.rwmixread = 50;
	job->cfg.randseed = 0x5d5d;
	job->cfg.scramble_buffers = 1;
	job->devs = kunit_kzalloc(test, sizeof(*job->devs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, job->devs);
	job->nr_devs = 1;
	tj->job = job;
	for (i = 0; i < nr_workers; i++) {
		struct ssdload_worker *w;

		w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, w);
		w->job = job;
		w->idx = i;
		w->wd = kunit_kzalloc(test, sizeof(*w->wd), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, w->wd);
		w->nr_devs = 1;
		w->phase.rwmixread = 50;
		w->phase.uniform_bs = true;
		w->phase.bs = 4096;
		seqcount_init(&w->res.seq);
		job->workers[i] = w;
		job->nr_workers = i + 1;
		tj->nr_workers = i + 1;
		for (d = 0; stats && d < SSDLOAD_DIR_NR; d++)
			KUNIT_ASSERT_EQ(test,
					ssdload_dstat_init(&w->res.st[d],
							   NUMA_NO_NODE), 0);
		ssdload_rng_seed(w, job->cfg.randseed);
	}
	return tj;
}

/* Free what ssdload_test_job_new() allocated outside KUnit's reach. */
void ssdload_test_job_del(struct ssdload_test_job *tj)
{
	unsigned int i;
	int d;

	if (!tj)
		return;
	for (i = 0; i < tj->nr_workers; i++)
		for (d = 0; d < SSDLOAD_DIR_NR; d++)
			ssdload_dstat_free(&tj->job->workers[i]->res.st[d]);
}

void ssdload_test_span(struct ssdload_job *job, u64 span_start, u64 bs,
		       u64 nr_blocks)
{
	struct ssdload_dev *dev = &job->devs[0];
	unsigned int i;

	for (i = 0; i < job->nr_workers; i++) {
		job->workers[i]->phase.uniform_bs = true;
		job->workers[i]->phase.bs = bs;
	}
	job->cfg.bs = bs;
	job->bs_min = bs;
	job->bs_max = bs;
	job->ba = bs;
	job->uniform_bs = true;
	dev->span_start = span_start;
	dev->nr_aligned = nr_blocks;
	dev->nr_units = nr_blocks;
	dev->span_bytes = nr_blocks * bs;
}

MODULE_DESCRIPTION("KUnit suites of ssdload.ko");
MODULE_LICENSE("GPL");
SSDLOAD_IMPORT_KUNIT_NS();
