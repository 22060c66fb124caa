// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload_floor: the cheapest synchronous round trip the block layer
 * allows, the QD1 floor of `make bench`.
 *
 * One kthread bound to @cpu issues one bs-sized read bio, waits for its
 * completion and repeats, for @seconds.  There is no accounting beyond
 * one counter: no timestamps, no histogram, no per-I/O clock read (the
 * clock is read every 1024 I/Os to find the end).  Offsets walk the
 * first GiB of the device with a cheap LCG, 4k aligned.
 *
 * With @nr_cpus=N, N such loops run at once on CPUs @cpu..@cpu+N-1: what
 * the platform itself gives when a second CPU does the same work, the
 * scaling calibration of `make bench`.  ios is then the sum over the
 * loops and elapsed_ns the longest loop.
 *
 *   insmod ssdload_floor.ko path=/dev/nullb0 seconds=5 cpu=0 [nr_cpus=2]
 *   cat /sys/module/ssdload_floor/parameters/{ios,elapsed_ns}
 *   rmmod ssdload_floor
 *
 * insmod returns once the run is over; the results stay readable until
 * rmmod.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>

static char *path = "/dev/nullb0";
module_param(path, charp, 0444);
MODULE_PARM_DESC(path, "block device to read");
static unsigned int seconds = 5;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "duration of the run");
static unsigned int cpu;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "CPU the loop is bound to");
static unsigned int nr_cpus = 1;
module_param(nr_cpus, uint, 0444);
MODULE_PARM_DESC(nr_cpus, "number of loops, on CPUs cpu..cpu+nr_cpus-1");
static unsigned int bs = 4096;
module_param(bs, uint, 0444);
MODULE_PARM_DESC(bs, "bytes per read, at most PAGE_SIZE");

/* Results, read back after insmod returned. */
static unsigned long long ios;
module_param(ios, ullong, 0444);
MODULE_PARM_DESC(ios, "reads completed (result)");
static unsigned long long elapsed_ns;
module_param(elapsed_ns, ullong, 0444);
MODULE_PARM_DESC(elapsed_ns, "duration of the loop in ns (result)");
static int result;
module_param(result, int, 0444);
MODULE_PARM_DESC(result, "0 or the errno of the first failed read (result)");

static int floor_holder;

struct floor_run {
	struct task_struct *task;	/* the loop, bound, reference held */
	struct block_device *bdev;	/* target */
	struct page *page;		/* read buffer */
	struct completion done;		/* the loop finished */
	u64 ios;			/* reads completed */
	u64 elapsed_ns;			/* duration of the loop */
	int result;			/* 0 or the first errno */
};

static int floor_fn(void *data)
{
	struct floor_run *r = data;
	u64 span = min_t(u64, bdev_nr_bytes(r->bdev), 1ULL << 30) / bs;
	u64 start = ktime_get_ns(), end = start + (u64)seconds * NSEC_PER_SEC;
	u64 now = start, x = 1, n = 0;
	struct bio_vec bvec;
	struct bio bio;
	int ret = 0;

	bio_init(&bio, r->bdev, &bvec, 1, REQ_OP_READ);
	while (!kthread_should_stop()) {
		bio_reset(&bio, r->bdev, REQ_OP_READ);
		__bio_add_page(&bio, r->page, bs, 0);
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		bio.bi_iter.bi_sector = ((x >> 33) % span) * (bs >> SECTOR_SHIFT);
		ret = submit_bio_wait(&bio);
		if (ret)
			break;
		if (!(++n & 1023)) {
			now = ktime_get_ns();
			if (now >= end)
				break;
			cond_resched();
		}
	}
	now = ktime_get_ns();
	bio_uninit(&bio);
	r->ios = n;
	r->elapsed_ns = now - start;
	r->result = ret;
	complete(&r->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

static void floor_free_runs(struct floor_run *runs, unsigned int n)
{
	while (n--)
		__free_page(runs[n].page);
	kfree(runs);
}

static int __init floor_init(void)
{
	struct ssdload_bdev b = { };
	struct floor_run *runs;
	unsigned int i, n;
	int ret;

	if (!bs || bs > PAGE_SIZE || bs % SECTOR_SIZE || !nr_cpus)
		return -EINVAL;
	for (i = 0; i < nr_cpus; i++)
		if (cpu + i >= nr_cpu_ids || !cpu_online(cpu + i))
			return -EINVAL;
	ret = ssdload_bdev_open(&b, path, false, &floor_holder);
	if (ret) {
		pr_err("cannot open %s: %d\n", path, ret);
		return ret;
	}
	runs = kcalloc(nr_cpus, sizeof(*runs), GFP_KERNEL);
	if (!runs) {
		ret = -ENOMEM;
		goto out_close;
	}
	for (n = 0; n < nr_cpus; n++) {
		runs[n].bdev = b.bdev;
		init_completion(&runs[n].done);
		runs[n].page = alloc_page(GFP_KERNEL);
		if (!runs[n].page) {
			ret = -ENOMEM;
			goto out_free_runs;
		}
	}
	for (i = 0; i < nr_cpus; i++) {
		struct task_struct *t;

		t = kthread_create(floor_fn, &runs[i], "ssdload_floor/%u",
				   cpu + i);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			goto out_stop_tasks;
		}
		kthread_bind(t, cpu + i);
		get_task_struct(t);
		runs[i].task = t;
	}
	/* start them together: the loops overlap for the whole run */
	for (i = 0; i < nr_cpus; i++)
		wake_up_process(runs[i].task);
	ios = 0;
	elapsed_ns = 0;
	result = 0;
	for (i = 0; i < nr_cpus; i++) {
		wait_for_completion(&runs[i].done);
		ios += runs[i].ios;
		elapsed_ns = max(elapsed_ns, runs[i].elapsed_ns);
		if (!result)
			result = runs[i].result;
	}
	pr_info("%s: %llu reads in %llu ns (%llu IOPS) on %u CPU(s), result %d\n",
		path, ios, elapsed_ns,
		elapsed_ns ? div64_u64(ios * NSEC_PER_SEC, elapsed_ns) : 0,
		nr_cpus, result);
	ret = 0;
out_stop_tasks:
	/* a created task that never ran exits from kthread_stop() unrun */
	while (i--) {
		kthread_stop(runs[i].task);
		put_task_struct(runs[i].task);
	}
out_free_runs:
	floor_free_runs(runs, n);
out_close:
	ssdload_bdev_close(&b);
	return ret;
}

static void __exit floor_exit(void)
{
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_DESCRIPTION("ssdload bench floor: synchronous 4k reads, no accounting");
MODULE_LICENSE("GPL");
