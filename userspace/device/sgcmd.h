/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SATA and SAS commands as bytes: ATA PASS-THROUGH(16) CDBs (SAT), the
 * SCSI SANITIZE CDB, the caching mode page, ATA IDENTIFY words, the ATA
 * return registers and sense data.  Pure functions (no I/O): the host
 * unit tests check them byte by byte (tests/unit/test_sgcmd.c).
 */
#ifndef SSDLOAD_CLI_SGCMD_H
#define SSDLOAD_CLI_SGCMD_H

#include <stddef.h>
#include <stdint.h>

#define SSL_ATA_PT16		0x85	/* ATA PASS-THROUGH(16) opcode (SAT) */
#define SSL_SCSI_SANITIZE	0x48	/* SANITIZE opcode (SBC-3) */
#define SSL_SCSI_SANITIZE_BLOCK	0x02	/* service actions */
#define SSL_SCSI_SANITIZE_CRYPTO 0x03

#define SSL_ATA_IDENTIFY	0xec
#define SSL_ATA_SET_FEATURES	0xef
#define SSL_ATA_SF_WC_ON	0x02	/* SET FEATURES subcommands */
#define SSL_ATA_SF_WC_OFF	0x82
#define SSL_ATA_SANITIZE	0xb4
#define SSL_ATA_SAN_STATUS	0x0000	/* SANITIZE DEVICE features */
#define SSL_ATA_SAN_CRYPTO	0x0011
#define SSL_ATA_SAN_BLOCK	0x0012
#define SSL_ATA_SAN_CRYPTO_KEY	0x43727970ull	/* "Cryp" in the LBA field */
#define SSL_ATA_SAN_BLOCK_KEY	0x426b4572ull	/* "BkEr" */
#define SSL_ATA_SEC_SET_PASS	0xf1
#define SSL_ATA_SEC_ERASE_PREP	0xf3
#define SSL_ATA_SEC_ERASE_UNIT	0xf4
#define SSL_ATA_SEC_DISABLE	0xf6

/* SAT PROTOCOL field values */
enum ssl_ata_proto { SSL_ATA_NONDATA = 3, SSL_ATA_PIO_IN = 4, SSL_ATA_PIO_OUT = 5 };

struct ssl_ata_tf {		/* an ATA command's registers (48-bit) */
	uint16_t feature, count;
	uint64_t lba;
	uint8_t device, command;
};

/*
 * The ATA PASS-THROUGH(16) CDB of @tf into @cdb: @proto; a PIO transfer
 * moves the count field's number of 512-byte blocks; @ck_cond asks for
 * the ATA registers after the command (in the sense data).
 */
void ssl_ata_pt16(uint8_t cdb[16], const struct ssl_ata_tf *tf,
		  enum ssl_ata_proto proto, int ck_cond);

/* SANITIZE(10) with service action @sa, IMMED=1, AUSE=1, no data. */
void ssl_scsi_sanitize_cdb(uint8_t cdb[10], int sa);

/* What an ATA IDENTIFY DEVICE block (256 little-endian words) tells. */
struct ssl_ata_id {
	int wc_supported, wc_enabled;		/* words 82/85 bit 5 */
	int sanitize, san_block, san_crypto, san_overwrite;	/* word 59 bits 12/13/15/14 */
	int sec_supported, sec_enabled, sec_locked, sec_frozen;	/* word 82 bit 1, 128 bits 1-3 */
	int sec_count_expired, sec_enhanced;	/* word 128 bits 4/5 */
	unsigned int erase_min, enh_erase_min;	/* words 89/90: minutes, 0 unknown */
};

/* Decode @id (512 bytes as read from the device). */
void ssl_ata_id_parse(const uint8_t id[512], struct ssl_ata_id *out);

/*
 * The ATA string of @nwords words from word @word of @id (two characters
 * a word, the first in the high byte) into @dst, blanks trimmed.
 */
void ssl_ata_id_string(const uint8_t id[512], unsigned int word,
		       unsigned int nwords, char *dst, size_t len);

/*
 * The registers after an ATA PASS-THROUGH with CK_COND, from @sense
 * (@len bytes): descriptor format (ATA Status Return descriptor 09h),
 * *@full = 1; or fixed format with sense key NO SENSE, RECOVERED ERROR
 * or ABORTED COMMAND (SAT-3: count bits 15:8 and LBA bits 47:24 are not
 * there and read 0), *@full = 0.  @status: the ATA status
 * register, @error the error register.  0, or -1 when @sense holds
 * neither.
 */
int ssl_ata_return(const uint8_t *sense, size_t len, struct ssl_ata_tf *tf,
		   uint8_t *status, uint8_t *error, int *full);

/*
 * The caching mode page (08h) in a MODE SENSE(10) response @buf (@len
 * bytes): the offset of its first byte, or -1 when absent or truncated.
 */
int ssl_caching_page(const uint8_t *buf, size_t len);

/* WCE of the caching page in @buf: 1, 0, or -1 when absent. */
int ssl_caching_wce(const uint8_t *buf, size_t len);

/*
 * Turn the MODE SENSE(10) response @buf (current values, @len bytes, with
 * the caching page) into MODE SELECT(10) parameter data in place, with
 * WCE = @on: the mode data length zeroed, the PS bit cleared.  The
 * parameter list length, or -1 when the page is absent.
 */
int ssl_caching_select(uint8_t *buf, size_t len, int on);

/* Sense key and ASC/ASCQ of @sense; 0, or -1 when it cannot be decoded. */
int ssl_sense_key(const uint8_t *sense, size_t len, int *key, int *asc, int *ascq);

/*
 * One line for sense data @sense (@len bytes), e.g. "Illegal Request,
 * Invalid command operation code (asc 0x20, ascq 0x00)"; "no sense data"
 * when @len is 0 or the data cannot be decoded.
 */
void ssl_sense_line(const uint8_t *sense, size_t len, char *buf, size_t blen);

#endif /* SSDLOAD_CLI_SGCMD_H */
