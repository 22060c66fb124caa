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

struct ssl_health {		/* NVMe SMART / Health Information log */
	int have;		/* 0: the device reports none (not NVMe, or the log failed) */
	int temperature_k;	/* composite temperature, kelvin */
	uint64_t data_units_read, data_units_written;	/* 1000 x 512 bytes */
	uint64_t host_read_commands, host_write_commands;
	uint64_t power_on_hours, media_errors;
	unsigned int percentage_used, critical_warning, available_spare;
};

enum ssl_wc { SSL_WC_UNKNOWN, SSL_WC_ABSENT, SSL_WC_ENABLED, SSL_WC_DISABLED };
/* "unknown" "absent" "enabled" "disabled" */
const char *ssl_wc_name(enum ssl_wc wc);

enum ssl_purge {
	SSL_PURGE_AUTO, SSL_PURGE_SANITIZE, SSL_PURGE_FORMAT, SSL_PURGE_SECDISCARD,
	SSL_PURGE_DISCARD, SSL_PURGE_OVERWRITE, SSL_PURGE_NONE, SSL_PURGE_SECERASE,
};
/*
 * "auto" "sanitize" "format" "secdiscard" "discard" "overwrite" "none"
 * "security-erase"
 */
const char *ssl_purge_name(enum ssl_purge p);
/* 0, or -1 (nothing printed) when @s names no method */
int ssl_purge_parse(const char *s, enum ssl_purge *p);
/*
 * Whether the purge @used is one of the specification's (a device
 * command that erases every block: Sanitize, Format NVM / FORMAT UNIT,
 * ATA Security Erase): 1, or 0 with the reason in *@why.
 */
int ssl_purge_conformant(enum ssl_purge used, const char **why);

/* How the device is reached: NVMe admin commands, or SCSI commands (SG_IO) */
enum ssl_bus { SSL_BUS_OTHER, SSL_BUS_NVME, SSL_BUS_ATA, SSL_BUS_SCSI };

struct ssl_dev {
	char path[256];		/* as given, e.g. /dev/nvme0n1 */
	char name[64];		/* kernel name, e.g. nvme0n1 (/sys/dev/block/MAJ:MIN) */
	unsigned int dev_major, dev_minor;	/* the device number */
	char disk[64];		/* the whole disk's kernel name (= name unless a partition) */
	int is_nvme;		/* NVMe namespace answering identify */
	/*
	 * SSL_BUS_ATA: a SCSI disk answering ATA IDENTIFY DEVICE through ATA
	 * PASS-THROUGH(16) (libata, a SAT bridge); SSL_BUS_SCSI: another
	 * SCSI disk (SAS, virtio-scsi) with a caching mode page.
	 */
	enum ssl_bus bus;
	int is_partition;	/* /sys/dev/block/MAJ:MIN/partition exists */
	uint64_t capacity_bytes;	/* BLKGETSIZE64 */
	unsigned int logical_block_size, physical_block_size;	/* BLKSSZGET, BLKPBSZGET */
	/*
	 * NVMe identify (trailing spaces trimmed); else from
	 * /sys/block/X/device/{model,serial,firmware_rev}; "" if unknown
	 */
	char model[41], serial[21], firmware[9];
	uint32_t nsid;		/* 0 if not NVMe */
	int lbaf_index, lbaf_data_bytes, lbaf_metadata_bytes;	/* current LBA format; -1 if not NVMe */
	int vwc_present;	/* 1/0 (NVMe VWC; ATA word 82 bit 5; SCSI WCE changeable); -1 unknown */
	/*
	 * Current write cache state: NVMe Get Features VWC; else the
	 * block layer's queue/write_cache ("write back" -> enabled, "write
	 * through" -> disabled for a SCSI disk, else absent).
	 */
	enum ssl_wc wc;
	int can_format;		/* OACS bit 1 (Format NVM supported); SCSI: 1 (FORMAT UNIT) */
	/*
	 * NVMe SANICAP bits; ATA IDENTIFY word 59; SCSI: -1 (unknown: no
	 * page tells, SANITIZE is tried)
	 */
	int can_sanitize_block, can_sanitize_crypto, can_sanitize_overwrite;
	/* ATA Security feature set: 1 usable, 0 absent; why it is not usable */
	int can_security_erase;
	char security_why[96];
	unsigned int security_erase_min;	/* IDENTIFY word 89 (minutes), 0 unknown */
	int can_discard;	/* queue/discard_max_bytes > 0 */
	/*
	 * 0: no (NVMe namespaces never offer it); -1: unknown, as no sysfs
	 * attribute tells: BLKSECDISCARD is tried at purge time.
	 */
	int can_secdiscard;
	/*
	 * Set by the caller (--force): an explicit Sanitize may erase more
	 * than this namespace (other namespaces or controllers of the
	 * subsystem).  AUTO never does: it formats the namespace instead.
	 */
	int force_scope;
};

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
