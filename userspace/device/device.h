/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device layer of ssdload pts: facts about the device under test,
 * the safety gate before any write, purge, write cache and SMART/health.
 * Every NVMe command goes through libnvme (admin passthrough on the
 * namespace block device: the kernel forwards it to the controller).
 */
#ifndef SSDLOAD_CLI_DEVICE_H
#define SSDLOAD_CLI_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "device/dev.h"

/*
 * Facts about @path.  Refuses (prints why, returns -1): not a block device,
 * cannot be opened.  Opening is O_RDONLY (no exclusive open here).
 */
int ssl_dev_probe(const char *path, struct ssl_dev *d);

/*
 * The safety gate that runs before any write: opens @path O_RDWR|O_EXCL (a
 * mounted or otherwise held device fails with EBUSY: "is mounted or in use
 * (held by ...)" naming holders, mount points and swap when found),
 * refuses a partition unless @allow_partition, and returns the fd (caller
 * closes) or -1 after a message.
 */
int ssl_dev_open_excl(const struct ssl_dev *d, int allow_partition);

/* SMART/health now (have = 0 when not available).  Never prints. */
void ssl_dev_health(const struct ssl_dev *d, struct ssl_health *h);

/*
 * Set the volatile write cache on (1) or off (0): NVMe Set Features VWC
 * (not saved: the controller's power-on default is kept); ATA SET
 * FEATURES 02h/82h; SCSI MODE SELECT(10) of the caching page's WCE (not
 * saved, SP=0).  Another device or no write cache: -1 with a message
 * naming why.  Re-reads d->wc.
 */
int ssl_dev_set_write_cache(struct ssl_dev *d, int on);

/*
 * Purge through @fd (from ssl_dev_open_excl) by @method.  AUTO picks, on an
 * NVMe namespace (not a partition of one): sanitize (block erase, else
 * crypto erase) when SANICAP allows it, else Format NVM with user data
 * erase when OACS allows it -- neither when the controller has other
 * active namespaces that the command would erase too; then BLKSECDISCARD
 * over the whole device, else BLKDISCARD, else returns with *used =
 * SSL_PURGE_OVERWRITE and does nothing (the caller overwrites the device
 * with its own engine).  An explicit method that the device lacks is
 * refused with a message (SANITIZE also accepts an overwrite sanitize when
 * that is all SANICAP offers).  NONE does nothing.  On success *used is the
 * method applied and @detail (@len bytes) a one-line description, e.g.
 * "Format NVM, SES=1 (user data erase), LBAF 0, nsid 1" or "BLKDISCARD over
 * 268435456 bytes".  Updates d->capacity_bytes afterwards.  Returns 0 or
 * -1 after a message.
 */
int ssl_dev_purge(struct ssl_dev *d, int fd, enum ssl_purge method,
		  enum ssl_purge *used, char *detail, size_t len);

/*
 * What ssl_dev_purge(@method) would do, without doing it (--dry-run):
 * the method and its scope ("namespace 1 of nvme1 only", or for Sanitize
 * the subsystem with every namespace it erases) into @buf (@len bytes).
 * 0, or -1 after a message when the purge would be refused.
 */
int ssl_dev_purge_plan(const struct ssl_dev *d, int fd, enum ssl_purge method,
		       char *buf, size_t len);

#endif /* SSDLOAD_CLI_DEVICE_H */
