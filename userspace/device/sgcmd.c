// SPDX-License-Identifier: GPL-2.0
/*
 * SATA and SAS commands as bytes (see sgcmd.h): CDB building, IDENTIFY
 * and mode page decoding, the ATA return registers; sense data decoded
 * through sgutils2's tables.
 */
#include <stdio.h>
#include <string.h>

#include <scsi/sg_lib.h>

#include "device/sgcmd.h"

void ssl_ata_pt16(uint8_t cdb[16], const struct ssl_ata_tf *tf,
		  enum ssl_ata_proto proto, int ck_cond)
{
	memset(cdb, 0, 16);
	cdb[0] = SSL_ATA_PT16;
	cdb[1] = (uint8_t)(proto << 1 | 1);	/* EXTEND: 48-bit registers */
	if (ck_cond)
		cdb[2] |= 0x20;
	if (proto != SSL_ATA_NONDATA) {
		/* T_LENGTH 2 (the count field), BYT_BLOK 1 (in blocks) */
		cdb[2] |= 0x04 | 0x02;
		if (proto == SSL_ATA_PIO_IN)
			cdb[2] |= 0x08;		/* T_DIR: from the device */
	}
	cdb[3] = (uint8_t)(tf->feature >> 8);
	cdb[4] = (uint8_t)tf->feature;
	cdb[5] = (uint8_t)(tf->count >> 8);
	cdb[6] = (uint8_t)tf->count;
	cdb[7] = (uint8_t)(tf->lba >> 24);
	cdb[8] = (uint8_t)tf->lba;
	cdb[9] = (uint8_t)(tf->lba >> 32);
	cdb[10] = (uint8_t)(tf->lba >> 8);
	cdb[11] = (uint8_t)(tf->lba >> 40);
	cdb[12] = (uint8_t)(tf->lba >> 16);
	cdb[13] = tf->device;
	cdb[14] = tf->command;
}

void ssl_scsi_sanitize_cdb(uint8_t cdb[10], int sa)
{
	memset(cdb, 0, 10);
	cdb[0] = SSL_SCSI_SANITIZE;
	/* IMMED (bit 7): return at once, poll with REQUEST SENSE; AUSE (bit 5) */
	cdb[1] = (uint8_t)(0x80 | 0x20 | (sa & 0x1f));
}

static unsigned int w(const uint8_t *id, unsigned int i)
{
	return id[2 * i] | (unsigned int)id[2 * i + 1] << 8;
}

/* A time in words 89/90: 2-minute units; bit 15 set: the extended format */
static unsigned int erase_minutes(unsigned int v)
{
	if (v & 0x8000)
		return (v & 0x7fff) * 2;
	return (v & 0xff) * 2;
}

void ssl_ata_id_parse(const uint8_t id[512], struct ssl_ata_id *o)
{
	unsigned int w59 = w(id, 59), w82 = w(id, 82), w85 = w(id, 85);
	unsigned int w128 = w(id, 128);

	memset(o, 0, sizeof(*o));
	/* words 82-87 hold something only when bits 15:14 of word 83 are 01 */
	if ((w(id, 83) & 0xc000) == 0x4000) {
		o->wc_supported = !!(w82 & 0x20);
		o->wc_enabled = !!(w85 & 0x20);
		o->sec_supported = !!(w82 & 0x02);
	}
	o->sanitize = !!(w59 & 0x1000);
	if (o->sanitize) {
		o->san_block = !!(w59 & 0x2000);
		o->san_overwrite = !!(w59 & 0x4000);
		o->san_crypto = !!(w59 & 0x8000);
	}
	if (o->sec_supported && (w128 & 1)) {
		o->sec_enabled = !!(w128 & 0x02);
		o->sec_locked = !!(w128 & 0x04);
		o->sec_frozen = !!(w128 & 0x08);
		o->sec_count_expired = !!(w128 & 0x10);
		o->sec_enhanced = !!(w128 & 0x20);
		o->erase_min = erase_minutes(w(id, 89));
		o->enh_erase_min = erase_minutes(w(id, 90));
	}
}

void ssl_ata_id_string(const uint8_t id[512], unsigned int word,
		       unsigned int nwords, char *dst, size_t len)
{
	size_t n = 0, i;

	if (!len)
		return;
	for (i = 0; i < nwords && word + i < 256 && n + 2 < len; i++) {
		dst[n++] = (char)id[2 * (word + i) + 1];
		dst[n++] = (char)id[2 * (word + i)];
	}
	dst[n] = '\0';
	while (n && (dst[n - 1] == ' ' || dst[n - 1] == '\0'))
		dst[--n] = '\0';
	for (i = 0; dst[i] == ' '; i++)
		;
	memmove(dst, dst + i, n - i + 1);
}

int ssl_ata_return(const uint8_t *sense, size_t len, struct ssl_ata_tf *tf,
		   uint8_t *status, uint8_t *error, int *full)
{
	const uint8_t *d;

	memset(tf, 0, sizeof(*tf));
	if (len < 8)
		return -1;
	if ((sense[0] & 0x7f) == 0x72 || (sense[0] & 0x7f) == 0x73) {
		d = sg_scsi_sense_desc_find(sense, (int)len, 0x09);
		if (!d || (size_t)(d - sense) + 14 > len)
			return -1;
		*error = d[3];
		tf->count = (uint16_t)(d[4] << 8 | d[5]);
		tf->lba = (uint64_t)d[7] | (uint64_t)d[9] << 8 | (uint64_t)d[11] << 16 |
			  (uint64_t)d[6] << 24 | (uint64_t)d[8] << 32 |
			  (uint64_t)d[10] << 40;
		tf->device = d[12];
		*status = d[13];
		*full = 1;
		return 0;
	}
	if ((sense[0] & 0x7f) == 0x70 || (sense[0] & 0x7f) == 0x71) {
		/*
		 * The registers are in INFORMATION for the conditions a
		 * translation reports (no sense, RECOVERED ERROR with ASC/ASCQ
		 * 00h/1Dh ATA PASS-THROUGH INFORMATION AVAILABLE, ABORTED
		 * COMMAND); not for a refusal such as ILLEGAL REQUEST.
		 */
		if (len < 14 || !((sense[2] & 0xf) == 0 || (sense[2] & 0xf) == 1 ||
				  (sense[2] & 0xf) == 0xb))
			return -1;
		/* SAT-3 fixed format: INFORMATION = error, status, device, count */
		*error = sense[3];
		*status = sense[4];
		tf->device = sense[5];
		tf->count = sense[6];
		tf->lba = (uint64_t)sense[9] | (uint64_t)sense[10] << 8 |
			  (uint64_t)sense[11] << 16;
		*full = 0;
		return 0;
	}
	return -1;
}

/* The offset of the first page after the header and block descriptors. */
static int mode10_pages(const uint8_t *buf, size_t len)
{
	size_t bd;

	if (len < 8)
		return -1;
	bd = (size_t)buf[6] << 8 | buf[7];
	return 8 + bd <= len ? (int)(8 + bd) : -1;
}

int ssl_caching_page(const uint8_t *buf, size_t len)
{
	size_t off, end, plen;
	int p = mode10_pages(buf, len);

	if (p < 0)
		return -1;
	end = ((size_t)buf[0] << 8 | buf[1]) + 2;
	if (end > len)
		end = len;
	for (off = (size_t)p; off + 2 <= end; off += plen) {
		/* SPF (bit 6): a sub-page, with a 2-byte length */
		if (buf[off] & 0x40) {
			if (off + 4 > end)
				return -1;
			plen = 4 + ((size_t)buf[off + 2] << 8 | buf[off + 3]);
			continue;
		}
		plen = 2 + (size_t)buf[off + 1];
		if ((buf[off] & 0x3f) == 0x08)
			return off + 3 <= end && plen >= 3 ? (int)off : -1;
	}
	return -1;
}

int ssl_caching_wce(const uint8_t *buf, size_t len)
{
	int off = ssl_caching_page(buf, len);

	return off < 0 ? -1 : !!(buf[off + 2] & 0x04);
}

int ssl_caching_select(uint8_t *buf, size_t len, int on)
{
	int off = ssl_caching_page(buf, len);
	size_t n;

	if (off < 0)
		return -1;
	n = ((size_t)buf[0] << 8 | buf[1]) + 2;
	if (n > len)
		n = len;
	buf[0] = buf[1] = 0;		/* MODE DATA LENGTH: reserved in SELECT */
	buf[off] &= 0x7f;		/* PS: reserved in SELECT */
	if (on)
		buf[off + 2] |= 0x04;
	else
		buf[off + 2] &= (uint8_t)~0x04;
	return (int)n;
}

int ssl_sense_key(const uint8_t *sense, size_t len, int *key, int *asc, int *ascq)
{
	struct sg_scsi_sense_hdr h;

	if (!len || !sg_scsi_normalize_sense(sense, (int)len, &h))
		return -1;
	*key = h.sense_key;
	*asc = h.asc;
	*ascq = h.ascq;
	return 0;
}

void ssl_sense_line(const uint8_t *sense, size_t len, char *buf, size_t blen)
{
	char k[64], a[128];
	int key, asc, ascq;

	if (ssl_sense_key(sense, len, &key, &asc, &ascq)) {
		snprintf(buf, blen, "no sense data");
		return;
	}
	sg_get_sense_key_str(key, sizeof(k), k);
	sg_get_asc_ascq_str(asc, ascq, sizeof(a), a);
	snprintf(buf, blen, "%s, %s (asc 0x%02x, ascq 0x%02x)", k, a, asc, ascq);
}
