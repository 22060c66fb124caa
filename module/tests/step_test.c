// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_steps: the steps of a job (jobs/NAME/steps/N),
 * created, stored and shown through the module's own configfs operations,
 * and compiled into the phases of a run (ssdload_steps_compile()): what a
 * step inherits, what it overrides, the run's aggregates, and what enable
 * refuses, naming steps/N/ATTR.
 */
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ssdload_test.h"

#define STEP_MAX	8

struct step_fixture {
	struct ssdload_job *job;
	struct config_item *steps[STEP_MAX];	/* by creation order */
	unsigned int nr;
	char *page;
};

static int ssdload_steps_init(struct kunit *test)
{
	struct step_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	test->priv = f;
	f->page = (char *)get_zeroed_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->page);
	f->job = ssdload_job_alloc("kunit-steps");
	KUNIT_ASSERT_NOT_NULL(test, f->job);
	config_group_init_type_name(&f->job->cg, "kunit-steps", NULL);
	config_group_init_type_name(&f->job->steps_group, "steps",
				    &ssdload_steps_type);
	f->job->cfg.rw = SSDLOAD_RW_RANDREAD;
	f->job->cfg.bs = 4096;
	f->job->cfg.iodepth = 8;
	f->job->cfg.runtime_ms = 1000;
	return 0;
}

static void ssdload_steps_exit(struct kunit *test)
{
	struct step_fixture *f = test->priv;
	const struct configfs_group_operations *ops =
		ssdload_steps_type.ct_group_ops;
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < f->nr; i++)
		ops->drop_item(&f->job->steps_group, f->steps[i]);
	if (f->job)
		ssdload_job_put(f->job);
	free_page((unsigned long)f->page);
}

/* mkdir steps/@name: the item, or an ERR_PTR. */
static struct config_item *step_mkdir(struct kunit *test, const char *name)
{
	struct step_fixture *f = test->priv;
	struct config_item *item;

	item = ssdload_steps_type.ct_group_ops->make_item(&f->job->steps_group,
							   name);
	if (!IS_ERR(item)) {
		KUNIT_ASSERT_LT(test, f->nr, STEP_MAX);
		f->steps[f->nr++] = item;
	}
	return item;
}

static struct configfs_attribute *step_attr(struct config_item *item,
					    const char *name)
{
	struct configfs_attribute **a;

	for (a = item->ci_type->ct_attrs; *a; a++)
		if (!strcmp((*a)->ca_name, name))
			return *a;
	return NULL;
}

static ssize_t step_store(struct kunit *test, struct config_item *item,
			  const char *attr, const char *val)
{
	struct configfs_attribute *a = step_attr(item, attr);

	KUNIT_ASSERT_NOT_NULL_MSG(test, a, "%s", attr);
	return a->store(item, val, strlen(val));
}

static const char *step_show(struct kunit *test, struct config_item *item,
			     const char *attr)
{
	struct step_fixture *f = test->priv;
	struct configfs_attribute *a = step_attr(item, attr);

	KUNIT_ASSERT_NOT_NULL_MSG(test, a, "%s", attr);
	memset(f->page, 0, PAGE_SIZE);
	KUNIT_ASSERT_GE(test, a->show(item, f->page), 0);
	return f->page;
}

static int step_compile(struct ssdload_job *job)
{
	int ret;

	mutex_lock(&job->lock);
	ret = ssdload_steps_compile(job);
	mutex_unlock(&job->lock);
	return ret;
}

/* Names: 1..SSDLOAD_MAX_STEPS in decimal, nothing else. */
static void test_step_names(struct kunit *test)
{
	static const char * const bad[] = { "0", "01", "4097", "-1", "x", "1x",
					    "", "99999999999999999999" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(step_mkdir(test, bad[i])),
				    -EINVAL, "%s", bad[i]);
	KUNIT_EXPECT_FALSE(test, IS_ERR(step_mkdir(test, "4096")));
	KUNIT_EXPECT_FALSE(test, IS_ERR(step_mkdir(test, "1")));
}

/* Unset reads empty, a blank line unsets, a bad value changes nothing. */
static void test_step_attrs(struct kunit *test)
{
	struct step_fixture *f = test->priv;
	struct config_item *st = step_mkdir(test, "3");

	KUNIT_ASSERT_FALSE(test, IS_ERR(st));
	KUNIT_EXPECT_STREQ(test, step_show(test, st, "iodepth"), "\n");
	KUNIT_EXPECT_EQ(test, step_store(test, st, "iodepth", "32\n"), 3);
	KUNIT_EXPECT_STREQ(test, step_show(test, st, "iodepth"), "32\n");
	KUNIT_EXPECT_EQ(test, step_store(test, st, "iodepth", "0"), -ERANGE);
	KUNIT_EXPECT_STREQ(test, step_show(test, st, "iodepth"), "32\n");
	KUNIT_EXPECT_EQ(test, step_store(test, st, "iodepth", "\n"), 1);
	KUNIT_EXPECT_STREQ(test, step_show(test, st, "iodepth"), "\n");
	KUNIT_EXPECT_EQ(test, step_store(test, st, "rw", "randrw"), 6);
	KUNIT_EXPECT_STREQ(test, step_show(test, st, "rw"), "randrw\n");
	KUNIT_EXPECT_EQ(test, step_store(test, st, "rw", "sideways"), -EINVAL);
	KUNIT_EXPECT_EQ(test, step_store(test, st, "bs", "1000"), -EINVAL);
	KUNIT_EXPECT_EQ(test, step_store(test, st, "bssplit", "4k/50:8k/50"),
			11);
	KUNIT_EXPECT_STREQ(test, step_show(test, st, "bssplit"),
			   "4096/50:8192/50\n");
	KUNIT_EXPECT_EQ(test, step_store(test, st, "rate_iops", "0"), 1);
	KUNIT_EXPECT_STREQ(test, step_show(test, st, "rate_iops"), "0\n");
	KUNIT_EXPECT_EQ(test, step_store(test, st, "rate_iops", "100,200"), 7);
	KUNIT_EXPECT_STREQ(test, step_show(test, st, "rate_iops"), "100,200,200\n");
	KUNIT_EXPECT_EQ(test, step_store(test, st, "idle_ms", "0"), -ERANGE);
	/* 0: none, overriding the job's */
	KUNIT_EXPECT_EQ(test, step_store(test, st, "runtime_ms", "0"), 1);
	KUNIT_EXPECT_STREQ(test, step_show(test, st, "runtime_ms"), "0\n");
	KUNIT_EXPECT_EQ(test, step_store(test, st, "runtime_ms", "\n"), 1);
	/* names are digits only ("1\n" would duplicate 1) */
	KUNIT_EXPECT_EQ(test, PTR_ERR(step_mkdir(test, "1\n")), -EINVAL);
	/* fixed while a run is set up */
	f->job->state = SSDLOAD_STATE_RUNNING;
	KUNIT_EXPECT_EQ(test, step_store(test, st, "iodepth", "4"), -EBUSY);
	KUNIT_EXPECT_EQ(test, PTR_ERR(step_mkdir(test, "5")), -EBUSY);
	f->job->state = SSDLOAD_STATE_DONE;
	KUNIT_EXPECT_EQ(test, step_store(test, st, "iodepth", "4"), 1);
}

/* Steps run by N, inherit what they do not set, and the run adds up. */
static void test_compile(struct kunit *test)
{
	struct step_fixture *f = test->priv;
	struct ssdload_job *job = f->job;
	struct config_item *s3, *s1, *s2;
	const struct ssdload_phase *ph;

	s3 = step_mkdir(test, "30");
	s1 = step_mkdir(test, "10");
	s2 = step_mkdir(test, "20");
	KUNIT_ASSERT_FALSE(test, IS_ERR(s1) || IS_ERR(s2) || IS_ERR(s3));
	step_store(test, s1, "iodepth", "32");
	step_store(test, s2, "idle_ms", "500");
	step_store(test, s3, "rw", "randwrite");
	step_store(test, s3, "bs", "65536");
	step_store(test, s3, "number_ios", "1000");
	job->cfg.allow_write = 1;
	job->cfg.loops = 2;
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_ASSERT_EQ(test, job->nr_phases, 3U);
	ph = job->phases;
	KUNIT_EXPECT_EQ(test, ph[0].step, 10U);
	KUNIT_EXPECT_EQ(test, ph[0].iodepth, 32U);
	KUNIT_EXPECT_EQ(test, ph[0].rw, (u32)SSDLOAD_RW_RANDREAD);
	KUNIT_EXPECT_EQ(test, ph[0].bs_max, 4096U);
	KUNIT_EXPECT_EQ(test, ph[0].runtime_ms, 1000ULL);
	KUNIT_EXPECT_EQ(test, ph[0].dirs, (u8)BIT(SSDLOAD_DIR_READ));
	KUNIT_EXPECT_TRUE(test, ph[1].idle);
	KUNIT_EXPECT_EQ(test, ph[1].idle_ms, 500ULL);
	KUNIT_EXPECT_EQ(test, ph[1].dirs, 0);
	KUNIT_EXPECT_EQ(test, ph[2].rw, (u32)SSDLOAD_RW_RANDWRITE);
	KUNIT_EXPECT_EQ(test, ph[2].iodepth, 8U);
	KUNIT_EXPECT_EQ(test, ph[2].bs_min, 65536U);
	KUNIT_EXPECT_EQ(test, ph[2].number_ios, 1000ULL);
	KUNIT_EXPECT_EQ(test, job->depth, 32U);
	KUNIT_EXPECT_EQ(test, job->dirs,
			(u8)(BIT(SSDLOAD_DIR_READ) | BIT(SSDLOAD_DIR_WRITE)));
	KUNIT_EXPECT_TRUE(test, job->writes);
	/* a read step and a write step: two buffers, as a mixed job */
	KUNIT_EXPECT_TRUE(test, job->mixed);
	KUNIT_EXPECT_EQ(test, job->run_loops, 2U);
	/* step 30 keeps the job's runtime too: 2 x (1000 + 500 + 1000) ms */
	KUNIT_EXPECT_EQ(test, job->run_ms, 5000ULL);

	/* a step's rate replaces the job's other kind of cap */
	job->cfg.rate[SSDLOAD_DIR_READ] = 1 << 20;
	step_store(test, s1, "rate_iops", "100");
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_EXPECT_EQ(test, job->phases[0].rate_iops[SSDLOAD_DIR_READ], 100ULL);
	KUNIT_EXPECT_EQ(test, job->phases[0].rate[SSDLOAD_DIR_READ], 0ULL);
	KUNIT_EXPECT_TRUE(test, job->phases[0].rated);
	/* "0" uncaps the step */
	step_store(test, s1, "rate_iops", "0");
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_EXPECT_FALSE(test, job->phases[0].rated);
	/* a count-limited step: the run has no fixed length */
	step_store(test, s3, "runtime_ms", "0");
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_EXPECT_EQ(test, job->run_ms, 0ULL);
}

/* A job without steps is one phase: itself. */
static void test_compile_no_steps(struct kunit *test)
{
	struct ssdload_job *job = ((struct step_fixture *)test->priv)->job;

	job->cfg.rw = SSDLOAD_RW_RANDRW;
	job->cfg.allow_write = 1;
	job->cfg.ramp_ms = 200;
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_EXPECT_EQ(test, job->nr_phases, 1U);
	KUNIT_EXPECT_EQ(test, job->phases[0].step, 0U);
	KUNIT_EXPECT_EQ(test, job->phases[0].iodepth, 8U);
	KUNIT_EXPECT_TRUE(test, job->mixed);
	KUNIT_EXPECT_EQ(test, job->run_ms, 1200ULL);
	/* loops of a single pass: as many passes, of no fixed length */
	job->cfg.runtime_ms = 0;
	job->cfg.loops = 3;
	KUNIT_EXPECT_EQ(test, step_compile(job), 0);
	KUNIT_EXPECT_EQ(test, job->run_loops, 3U);
	KUNIT_EXPECT_EQ(test, job->run_ms, 0ULL);
	/* timed passes (time_based=0): each loop at most ramp + runtime */
	job->cfg.runtime_ms = 1000;
	job->cfg.time_based = 0;
	KUNIT_EXPECT_EQ(test, step_compile(job), 0);
	KUNIT_EXPECT_EQ(test, job->run_ms, 3600ULL);
}

/* What enable refuses, naming the step and the attribute. */
static void test_compile_refused(struct kunit *test)
{
	struct step_fixture *f = test->priv;
	struct ssdload_job *job = f->job;
	struct config_item *s1 = step_mkdir(test, "1");
	struct config_item *s2 = step_mkdir(test, "2");

	KUNIT_ASSERT_FALSE(test, IS_ERR(s1) || IS_ERR(s2));
	/* no end: the step turns the job's runtime off */
	step_store(test, s1, "runtime_ms", "0");
	KUNIT_EXPECT_EQ(test, step_compile(job), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(job->errmsg, "step 1 has no end"));
	step_store(test, s1, "runtime_ms", "\n");
	/* no end: neither the job nor the step */
	job->cfg.runtime_ms = 0;
	KUNIT_EXPECT_EQ(test, step_compile(job), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(job->errmsg, "step 1 has no end"));
	step_store(test, s1, "number_ios", "10");
	step_store(test, s2, "runtime_ms", "10");
	KUNIT_EXPECT_EQ(test, step_compile(job), 0);
	/* writes without the opt-in */
	step_store(test, s2, "rw", "write");
	KUNIT_EXPECT_EQ(test, step_compile(job), -EPERM);
	KUNIT_EXPECT_NOT_NULL(test, strstr(job->errmsg, "steps/2/rw"));
	job->cfg.allow_write = 1;
	KUNIT_EXPECT_EQ(test, step_compile(job), 0);
	/* trimwrite cannot be a step */
	step_store(test, s2, "rw", "trimwrite");
	KUNIT_EXPECT_EQ(test, step_compile(job), -EINVAL);
	step_store(test, s2, "rw", "\n");
	/* an idle step sets nothing else */
	step_store(test, s2, "idle_ms", "5");
	KUNIT_EXPECT_EQ(test, step_compile(job), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(job->errmsg, "idle_ms"));
	step_store(test, s2, "runtime_ms", "\n");
	KUNIT_EXPECT_EQ(test, step_compile(job), 0);
	/* only idle steps */
	step_store(test, s1, "number_ios", "\n");
	step_store(test, s1, "idle_ms", "5");
	KUNIT_EXPECT_EQ(test, step_compile(job), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(job->errmsg, "every step is idle"));
	KUNIT_EXPECT_NULL(test, job->phases);
	/* steps need latencies */
	step_store(test, s1, "idle_ms", "\n");
	step_store(test, s1, "number_ios", "10");
	job->cfg.disable_lat = 1;
	KUNIT_EXPECT_EQ(test, step_compile(job), -EINVAL);
	job->cfg.disable_lat = 0;
	KUNIT_EXPECT_EQ(test, step_compile(job), 0);
	/* steps end by their own runtime or count: no one timed pass */
	job->cfg.time_based = 0;
	KUNIT_EXPECT_EQ(test, step_compile(job), -EINVAL);
	KUNIT_EXPECT_STREQ(test, job->errmsg,
			   "time_based=0 ends a timed run after one pass: not with steps");
}

/* A step's numjobs: its workers issue, at most the job's. */
static void test_step_numjobs(struct kunit *test)
{
	struct step_fixture *f = test->priv;
	struct ssdload_job *job = f->job;
	struct config_item *s1 = step_mkdir(test, "1");
	struct config_item *s2 = step_mkdir(test, "2");

	KUNIT_ASSERT_FALSE(test, IS_ERR(s1) || IS_ERR(s2));
	KUNIT_EXPECT_EQ(test, step_store(test, s1, "numjobs", "0"), -ERANGE);
	KUNIT_EXPECT_EQ(test, step_store(test, s1, "numjobs", "1025"), -ERANGE);
	KUNIT_EXPECT_STREQ(test, step_show(test, s1, "numjobs"), "\n");
	KUNIT_EXPECT_EQ(test, step_store(test, s1, "numjobs", "4"), 1);
	KUNIT_EXPECT_STREQ(test, step_show(test, s1, "numjobs"), "4\n");
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_EXPECT_EQ(test, job->phases[0].numjobs, 4U);
	/* unset: every worker of the job */
	KUNIT_EXPECT_EQ(test, job->phases[1].numjobs, 0U);
	KUNIT_EXPECT_EQ(test, ssdload_steps_plan_rate(job, 4), 0);
	KUNIT_EXPECT_EQ(test, ssdload_steps_plan_rate(job, 3), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(job->errmsg, "steps/1/numjobs=4"));
	/* a step may run on fewer workers than another: no refusal */
	step_store(test, s2, "numjobs", "1");
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_EXPECT_EQ(test, job->phases[1].numjobs, 1U);
	KUNIT_EXPECT_EQ(test, ssdload_steps_plan_rate(job, 4), 0);
	/* an idle step has no workers to choose */
	step_store(test, s2, "idle_ms", "5");
	KUNIT_EXPECT_EQ(test, step_compile(job), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(job->errmsg, "idle_ms"));
}

/*
 * A step's blockalign: its random offsets' alignment (0: its smallest
 * block), else the job's; the job's unit divides them all.
 */
static void test_step_blockalign(struct kunit *test)
{
	struct step_fixture *f = test->priv;
	struct ssdload_job *job = f->job;
	struct config_item *s1 = step_mkdir(test, "1");
	struct config_item *s2 = step_mkdir(test, "2");
	struct config_item *s3 = step_mkdir(test, "3");

	KUNIT_ASSERT_FALSE(test, IS_ERR(s1) || IS_ERR(s2) || IS_ERR(s3));
	KUNIT_EXPECT_EQ(test, step_store(test, s1, "blockalign", "100"),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, step_show(test, s1, "blockalign"), "\n");
	step_store(test, s1, "bs", "512");
	KUNIT_EXPECT_EQ(test, step_store(test, s1, "blockalign", "512"), 3);
	step_store(test, s2, "bs", "65536");
	KUNIT_EXPECT_EQ(test, step_store(test, s2, "blockalign", "0"), 1);
	/* step 3 keeps the job's (4096, as pts's rounds had it) */
	job->cfg.blockalign = 4096;
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_ASSERT_EQ(test, ssdload_plan_run(job, 1), 0);
	KUNIT_EXPECT_EQ(test, job->phases[0].ba, 512U);
	KUNIT_EXPECT_TRUE(test, job->phases[0].own_ba);
	KUNIT_EXPECT_EQ(test, job->phases[1].ba, 65536U);
	KUNIT_EXPECT_EQ(test, job->phases[2].ba, 4096U);
	KUNIT_EXPECT_FALSE(test, job->phases[2].own_ba);
	KUNIT_EXPECT_EQ(test, job->ba, 512U);
	/* without step 1's, its 512 B I/Os are on the job's 4 KiB */
	step_store(test, s1, "blockalign", "\n");
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_ASSERT_EQ(test, ssdload_plan_run(job, 1), 0);
	KUNIT_EXPECT_FALSE(test, job->phases[0].own_ba);
	KUNIT_EXPECT_EQ(test, job->phases[0].ba, 4096U);
	KUNIT_EXPECT_EQ(test, job->ba, 4096U);
	/* at most the step's largest block */
	step_store(test, s1, "blockalign", "4096");
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	KUNIT_EXPECT_EQ(test, ssdload_plan_run(job, 1), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(job->errmsg, "step's largest block 512"));
}

/* The histograms of a step in the steps file, and their order. */
static void test_step_hists(struct kunit *test)
{
	struct step_fixture *f = test->priv;
	struct ssdload_job *job = f->job;
	struct config_item *s1 = step_mkdir(test, "1");
	struct config_item *s2 = step_mkdir(test, "2");
	struct config_item *s3 = step_mkdir(test, "3");
	const struct ssdload_phase *ph;
	bool intended;

	KUNIT_ASSERT_FALSE(test, IS_ERR(s1) || IS_ERR(s2) || IS_ERR(s3));
	job->cfg.allow_write = 1;
	step_store(test, s2, "rw", "randrw");
	step_store(test, s2, "rate_iops", "100,200");
	step_store(test, s3, "rw", "randwrite");
	step_store(test, s3, "rate_iops", ",50");
	KUNIT_ASSERT_EQ(test, step_compile(job), 0);
	ph = job->phases;
	/* step 1: reads, no rate */
	KUNIT_EXPECT_EQ(test, ssdload_phase_nr_hists(&ph[0]), 1U);
	KUNIT_EXPECT_EQ(test, ssdload_phase_hist_at(&ph[0], 0, &intended),
			SSDLOAD_DIR_READ);
	KUNIT_EXPECT_FALSE(test, intended);
	KUNIT_EXPECT_EQ(test, ssdload_phase_hist_at(&ph[0], 1, &intended),
			-ERANGE);
	/* step 2: read, intended read, write, intended write */
	KUNIT_EXPECT_EQ(test, ssdload_phase_nr_hists(&ph[1]), 4U);
	KUNIT_EXPECT_EQ(test, ssdload_phase_hist_at(&ph[1], 0, &intended),
			SSDLOAD_DIR_READ);
	KUNIT_EXPECT_FALSE(test, intended);
	KUNIT_EXPECT_EQ(test, ssdload_phase_hist_at(&ph[1], 1, &intended),
			SSDLOAD_DIR_READ);
	KUNIT_EXPECT_TRUE(test, intended);
	KUNIT_EXPECT_EQ(test, ssdload_phase_hist_at(&ph[1], 2, &intended),
			SSDLOAD_DIR_WRITE);
	KUNIT_EXPECT_FALSE(test, intended);
	KUNIT_EXPECT_EQ(test, ssdload_phase_hist_at(&ph[1], 3, &intended),
			SSDLOAD_DIR_WRITE);
	KUNIT_EXPECT_TRUE(test, intended);
	KUNIT_EXPECT_EQ(test, ssdload_phase_hist_at(&ph[1], 4, &intended),
			-ERANGE);
	/* step 3: writes capped, reads not issued */
	KUNIT_EXPECT_EQ(test, ssdload_phase_nr_hists(&ph[2]), 2U);
	KUNIT_EXPECT_EQ(test, ssdload_phase_hist_at(&ph[2], 1, &intended),
			SSDLOAD_DIR_WRITE);
	KUNIT_EXPECT_TRUE(test, intended);
}

static struct kunit_case ssdload_steps_cases[] = {
	KUNIT_CASE(test_step_names),
	KUNIT_CASE(test_step_attrs),
	KUNIT_CASE(test_compile),
	KUNIT_CASE(test_compile_no_steps),
	KUNIT_CASE(test_compile_refused),
	KUNIT_CASE(test_step_numjobs),
	KUNIT_CASE(test_step_hists),
	KUNIT_CASE(test_step_blockalign),
	{}
};

static struct kunit_suite ssdload_steps_suite = {
	.name = "ssdload_steps",
	.init = ssdload_steps_init,
	.exit = ssdload_steps_exit,
	.test_cases = ssdload_steps_cases,
};

kunit_test_suite(ssdload_steps_suite);
