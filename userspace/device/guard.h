/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guard of every destructive command (pts purge, pts TEST, scale
 * --raid): what the device is (path, model, serial, capacity) and what it
 * holds (the signatures libblkid finds: filesystems, partition tables,
 * LVM, md and other RAID superblocks, swap), printed before anything is
 * written; a device that holds a signature is refused unless --force.
 */
#ifndef SSDLOAD_CLI_GUARD_H
#define SSDLOAD_CLI_GUARD_H

#include <stddef.h>

#include "device/device.h"

/* exit status of a refusal: nothing was written */
#define SSL_GUARD_EXIT_REFUSED	2

struct ssl_sigs {
	unsigned int n;		/* signatures found */
	char what[1024];	/* "an ext4 filesystem (label "backup"), a gpt ..." */
};

/*
 * The signatures on block device @fd (@path for messages) by libblkid's
 * low-level probe, every one of them as wipefs sees them.  0, or -1 after
 * a message (the device could not be probed).
 */
int ssl_sigs_probe(const char *path, int fd, struct ssl_sigs *s);

/*
 * "QEMU NVMe Ctrl, serial ssdload-pts, 1 GiB (1073741824 bytes), dev 259:1"
 * into @buf (@len bytes); unknown model or serial are said so.
 */
void ssl_dev_identity(const struct ssl_dev *d, char *buf, size_t len);

/*
 * The guard, on @fd from ssl_dev_open_excl(): prints "ssdload: will
 * destroy PATH: IDENTITY, holds: WHAT" ("would destroy" when @dry_run) on
 * stderr, then refuses ("ssdload: PATH: holds WHAT; --force to destroy
 * it") a device holding any signature unless @force.  0, or -1 refused.
 */
int ssl_guard(const struct ssl_dev *d, int fd, int force, int dry_run);

/*
 * The check of every resumed run (pts --resume, review --resume): is @now
 * the device @was recorded when the run started?  Serial and model, or,
 * without a serial, device number (@was->dev_major 0: not recorded, any
 * number) and capacity.  An NVMe serial is the controller's: its
 * namespaces share it, so the namespace ID and the capacity must match
 * too.  0, or -1 after "@who: PATH is not the device the run started on"
 * with both identities.
 */
int ssl_dev_check_same(const struct ssl_dev *was, const struct ssl_dev *now,
		       const char *who);

#endif /* SSDLOAD_CLI_GUARD_H */
