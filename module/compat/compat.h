/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload kernel compatibility shims.
 *
 * This header is force-included (ccflags -include) into every object of
 * ssdload.ko.  It is the only place that tests LINUX_VERSION_CODE: the
 * rest of the module is written against the newest API and calls the
 * ssdload_* wrappers below where the kernel API changed.
 */
#ifndef _SSDLOAD_COMPAT_H
#define _SSDLOAD_COMPAT_H

/* Every message of the module starts with "ssdload: ". */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/version.h>
#include <linux/types.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/fs.h>
#include <linux/file.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/sched.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0) || \
	LINUX_VERSION_CODE >= KERNEL_VERSION(8, 0, 0)
#error "ssdload supports Linux 6.1 to 7.x only"
#endif

#ifndef __SIZEOF_INT128__
#error "ssdload needs a 64-bit architecture with 128-bit integer support"
#endif

/* u128 appeared in <linux/types.h> in 6.5 (cmpxchg128). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
#define u128 unsigned __int128
#endif

/*
 * Exclusive open of a block device by path, with a holder.
 *   6.1 .. 6.4: blkdev_get_by_path(path, fmode | FMODE_EXCL, holder)
 *               blkdev_put(bdev, fmode)
 *   6.5 .. 6.7: blkdev_get_by_path(path, blk_mode, holder, hops)
 *               blkdev_put(bdev, holder)
 *   6.8:        bdev_open_by_path() -> struct bdev_handle, bdev_release()
 *   6.9:        bdev_file_open_by_path() -> struct file, fput()
 *   6.10 ..:    as 6.9, bdev_fput() yields the claim synchronously
 */
struct ssdload_bdev {
	struct block_device *bdev;	/* the opened device, NULL if closed */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	struct file *file;		/* bdev file holding the claim */
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	struct bdev_handle *handle;	/* handle holding the claim */
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	void *holder;			/* holder passed to blkdev_put() */
#else
	fmode_t mode;			/* mode passed to blkdev_put() */
#endif
};

static inline int ssdload_bdev_open(struct ssdload_bdev *b, const char *path,
				    bool write, void *holder)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct file *f = bdev_file_open_by_path(path, mode, holder, NULL);

	if (IS_ERR(f))
		return PTR_ERR(f);
	b->file = f;
	b->bdev = file_bdev(f);
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct bdev_handle *h = bdev_open_by_path(path, mode, holder, NULL);

	if (IS_ERR(h))
		return PTR_ERR(h);
	b->handle = h;
	b->bdev = h->bdev;
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	blk_mode_t mode = BLK_OPEN_READ | (write ? BLK_OPEN_WRITE : 0);
	struct block_device *bdev = blkdev_get_by_path(path, mode, holder, NULL);

	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	b->holder = holder;
	b->bdev = bdev;
#else
	fmode_t mode = FMODE_READ | FMODE_EXCL | (write ? FMODE_WRITE : 0);
	struct block_device *bdev = blkdev_get_by_path(path, mode, holder);

	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	b->mode = mode;
	b->bdev = bdev;
#endif
	return 0;
}

static inline void ssdload_bdev_close(struct ssdload_bdev *b)
{
	if (!b->bdev)
		return;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	bdev_fput(b->file);
	b->file = NULL;
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	fput(b->file);
	b->file = NULL;
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	bdev_release(b->handle);
	b->handle = NULL;
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	blkdev_put(b->bdev, b->holder);
#else
	blkdev_put(b->bdev, b->mode);
#endif
	b->bdev = NULL;
}

/*
 * Does the blk-mq queue @q have poll queues, so that bio_poll() on a
 * cookie reaches the request?  (Callers check queue_is_mq() first: a
 * bio-based device such as dm or an NVMe multipath head remaps the bio,
 * and its ->poll_bio cannot find it.)
 *   6.1 .. 6.10: QUEUE_FLAG_POLL; blk-mq sets it only for a tag set with
 *                poll queues.
 *   6.11 ..:     BLK_FEAT_POLL in q->limits.features is set for every tag
 *                set with a poll map, even an empty one.  The test that
 *                the map has queues is blk_mq_can_poll(), private to
 *                block/ and not exported: no public API says it, so read
 *                the tag set's map (struct blk_mq_tag_set is in
 *                <linux/blk-mq.h>) as blk_mq_can_poll() does.
 */
static inline bool ssdload_mq_has_poll_queues(struct request_queue *q)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	if (!(q->limits.features & BLK_FEAT_POLL))
		return false;
	return q->tag_set->nr_maps > HCTX_TYPE_POLL &&
	       q->tag_set->map[HCTX_TYPE_POLL].nr_queues;
#else
	return test_bit(QUEUE_FLAG_POLL, &q->queue_flags);
#endif
}

/*
 * Was @bio split (chained) by the block layer?  Called from its bi_end_io.
 * A split chains the rest of the bio to the split-off part:
 * bio_inc_remaining() raises __bi_remaining from 1 (bio_init/bio_reset)
 * to 2, and the chain's completion brings it to 0 before bi_end_io runs;
 * BIO_CHAIN is already cleared by then.  A bio that was never chained
 * keeps 1.  No public API reports a split after the fact, hence this read
 * of the private counter (the same on 6.1 .. 7.x).
 */
static inline bool ssdload_bio_was_split(struct bio *bio)
{
	return atomic_read(&bio->__bi_remaining) == 0;
}

/*
 * A plug that lets blk-mq allocate @nr_ios requests in one batch.
 * blk_start_plug_nr_ios() is the API for this, but it is not exported to
 * modules (6.1 .. 7.x), so there is no public way to size a plug.  struct
 * blk_plug is in <linux/blkdev.h>; its nr_ios belongs to the block layer.
 * Start a plain plug, then size it as blk_start_plug_nr_ios() would
 * (capped at BLK_MAX_REQUEST_COUNT, 32, private to block/).  A nested
 * plug is left alone.  Without this write, each I/O of a plug allocates
 * its request alone.
 */
#define SSDLOAD_PLUG_MAX_IOS	32

static inline void ssdload_start_plug(struct blk_plug *plug,
				      unsigned int nr_ios)
{
	blk_start_plug(plug);
	if (current->plug == plug)
		plug->nr_ios = min_t(unsigned int, nr_ios,
				     SSDLOAD_PLUG_MAX_IOS);
}

/*
 * Exposing internals to the KUnit suites (module/tests/, ssdload_test.ko).
 * <kunit/visibility.h> is used from 6.3; before, the same definitions
 * (sparse knows no __has_include, so this goes by version).  The test
 * module imports the namespace with SSDLOAD_IMPORT_KUNIT_NS():
 * MODULE_IMPORT_NS() takes a string literal since 6.13, a bare identifier
 * before.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#include <kunit/visibility.h>
#elif IS_ENABLED(CONFIG_KUNIT)
#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol) \
	EXPORT_SYMBOL_NS(symbol, EXPORTED_FOR_KUNIT_TESTING)
#else
#define VISIBLE_IF_KUNIT static
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define SSDLOAD_IMPORT_KUNIT_NS() \
	MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING")
#else
#define SSDLOAD_IMPORT_KUNIT_NS() \
	MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING)
#endif

/*
 * crc32c, for the verify header and verify=crc32c.
 *   6.1 .. 6.13: crc32c() is in libcrc32c.ko (a module on Debian's
 *                kernels: a link to it would make insmod of ssdload.ko
 *                fail until it is loaded); __crc32c_le() of lib/crc32.c
 *                (CONFIG_CRC32, built in) computes the same CRC, in
 *                software.
 *   6.14 ..:     crc32c() is part of the CRC32 library itself.
 */
#include <linux/crc32.h>

static inline u32 ssdload_crc32c(u32 crc, const void *p, size_t len)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
	return crc32c(crc, p, len);
#else
	return __crc32c_le(crc, p, len);
#endif
}

/*
 * Incremental SHA-256 of lib/crypto (verify=sha256).
 *   6.1 .. 6.16: struct sha256_state, sha256_init/update/final()
 *   6.17 ..:     struct sha256_ctx, the same three calls
 */
#include <crypto/sha2.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define ssdload_sha256_ctx sha256_ctx
#else
#define ssdload_sha256_ctx sha256_state
#endif

#endif /* _SSDLOAD_COMPAT_H */
