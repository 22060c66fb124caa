/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SATA and SAS drives through SG_IO (sgutils2's pass-through): facts,
 * write cache (ATA SET FEATURES; SCSI MODE SELECT on the caching page)
 * and purge (ATA Sanitize, ATA Security Erase; SCSI SANITIZE, FORMAT
 * UNIT).  A SATA drive behind libata is reached with ATA PASS-THROUGH(16)
 * (SAT).  Used by device.c only.
 */
#ifndef SSDLOAD_CLI_SG_H
#define SSDLOAD_CLI_SG_H

#include <stddef.h>

#include "device/dev.h"

/*
 * Fill the ATA or SCSI facts of @d (d->bus, the write cache, the purge
 * commands) from the disk behind @fd: ATA IDENTIFY DEVICE through SAT,
 * else MODE SENSE(10) of the caching page.  Never prints.
 */
void ssl_sg_facts(struct ssl_dev *d, int fd);

/* Write cache on (1) or off (0) and read it back: 0, or -1 after a message. */
int ssl_sg_set_write_cache(struct ssl_dev *d, int on);

/*
 * Why @method cannot purge the ATA or SCSI disk @d: NULL when it can
 * (as far as the facts tell; the device may still refuse the command).
 */
const char *ssl_sg_refusal(const struct ssl_dev *d, enum ssl_purge method);

/*
 * Purge the ATA or SCSI disk @d through @fd by @method (AUTO: the first
 * command the device takes).  0 done (*@used, @detail), 1 no command
 * available or the device refused every one (after a message), -1
 * failed.
 */
int ssl_sg_purge(struct ssl_dev *d, int fd, enum ssl_purge method,
		 enum ssl_purge *used, char *detail, size_t len);

/* What ssl_sg_purge(@method) would send, into @buf; 0, or 1 nothing. */
int ssl_sg_plan(const struct ssl_dev *d, enum ssl_purge method, char *buf,
		size_t len);

#endif /* SSDLOAD_CLI_SG_H */
