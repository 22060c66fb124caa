/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device record (struct ssl_dev) and the names of its write-cache
 * states and purge methods: what device.c (NVMe, sysfs, the gate) and
 * sg.c (SATA and SAS through SG_IO) both fill in and read.
 */
#ifndef SSDLOAD_CLI_DEV_H
#define SSDLOAD_CLI_DEV_H

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

#endif /* SSDLOAD_CLI_DEV_H */
