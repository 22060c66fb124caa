// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: an in-kernel block-device load generator.
 *
 * Module parameters are only the defaults a new job copies; init and
 * exit of the per-file parts are composed here, with mirrored unwind.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "ssdload.h"

unsigned int ssdload_default_bs = 4096;
module_param_named(bs, ssdload_default_bs, uint, 0444);
MODULE_PARM_DESC(bs, "Default block size of new jobs, bytes (512..16M, multiple of 512). Default: 4096");

unsigned int ssdload_default_iodepth = 1;
module_param_named(iodepth, ssdload_default_iodepth, uint, 0444);
MODULE_PARM_DESC(iodepth, "Default I/Os in flight per worker of new jobs (1..65536). Default: 1");

unsigned int ssdload_max_job_mem_mb = 1024;
module_param_named(max_job_mem_mb, ssdload_max_job_mem_mb, uint, 0644);
MODULE_PARM_DESC(max_job_mem_mb, "Cap on the memory one job allocates (buffers in whole pages, I/O structs, histograms), MiB. Default: 1024");

struct workqueue_struct *ssdload_wq;

static int __init ssdload_init(void)
{
	int ret;

	if (ssdload_default_bs < SSDLOAD_MIN_BS ||
	    ssdload_default_bs > SSDLOAD_MAX_BS ||
	    ssdload_default_bs % SSDLOAD_MIN_BS) {
		pr_err("invalid bs=%u\n", ssdload_default_bs);
		return -EINVAL;
	}
	if (!ssdload_default_iodepth ||
	    ssdload_default_iodepth > SSDLOAD_MAX_IODEPTH) {
		pr_err("invalid iodepth=%u\n", ssdload_default_iodepth);
		return -EINVAL;
	}

	ret = ssdload_debugfs_init();
	if (ret)
		return ret;

	ssdload_wq = alloc_workqueue("ssdload", WQ_UNBOUND, 0);
	if (!ssdload_wq) {
		ret = -ENOMEM;
		goto out_debugfs_exit;
	}

	ret = ssdload_configfs_init();
	if (ret)
		goto out_destroy_wq;

	return 0;

out_destroy_wq:
	destroy_workqueue(ssdload_wq);
out_debugfs_exit:
	ssdload_debugfs_exit();
	return ret;
}

/*
 * Every run holds a module reference until its end_work dropped it, so
 * exit only comes once no I/O is in flight; destroying the workqueue waits
 * for the last end_work to return.
 */
static void __exit ssdload_exit(void)
{
	ssdload_configfs_exit();
	destroy_workqueue(ssdload_wq);
	ssdload_debugfs_exit();
}

module_init(ssdload_init);
module_exit(ssdload_exit);

MODULE_AUTHOR("ssdload authors");
MODULE_DESCRIPTION("In-kernel block device load generator");
MODULE_LICENSE("GPL");
MODULE_VERSION(SSDLOAD_VERSION);
