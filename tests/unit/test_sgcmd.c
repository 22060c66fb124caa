// SPDX-License-Identifier: GPL-2.0
/*
 * userspace/device/sgcmd.c byte by byte: ATA PASS-THROUGH(16) and SANITIZE
 * CDBs, IDENTIFY words, the ATA return registers, the caching mode page
 * and sense decoding.  Each property is one subcommand; "ok NAME" on
 * success, "FAIL ..." lines otherwise (tests/unit/test_sgcmd.py).
 */
#include <stdio.h>
#include <string.h>

#include "device/sgcmd.h"

static int fails;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		fails++;						\
	}								\
} while (0)

static void check_bytes(const char *what, const uint8_t *got, const uint8_t *want,
			size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i]) {
			printf("FAIL %s: byte %zu is 0x%02x, want 0x%02x\n", what, i,
			       got[i], want[i]);
			fails++;
		}
}

static void tf_set(struct ssl_ata_tf *tf, uint8_t cmd, uint16_t feat, uint16_t count,
		   uint64_t lba, uint8_t dev)
{
	memset(tf, 0, sizeof(*tf));
	tf->command = cmd;
	tf->feature = feat;
	tf->count = count;
	tf->lba = lba;
	tf->device = dev;
}

static void t_cdb(void)
{
	static const uint8_t identify[16] = {
		0x85, 0x09, 0x2e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xec, 0 };
	static const uint8_t wc_off[16] = {
		0x85, 0x07, 0x20, 0, 0x82, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0xef, 0 };
	/* LBA 0x426b4572 ("BkEr"): 31:24 in byte 7, 7:0 in 8, 15:8 in 10, 23:16 in 12 */
	static const uint8_t block[16] = {
		0x85, 0x07, 0x20, 0, 0x12, 0, 0, 0x42, 0x72, 0, 0x45, 0, 0x6b, 0x40, 0xb4, 0 };
	static const uint8_t setpass[16] = {
		0x85, 0x0b, 0x26, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0x40, 0xf1, 0 };
	static const uint8_t lba48[16] = {
		0x85, 0x07, 0x00, 0x12, 0x34, 0x56, 0x78, 0x04, 0x01, 0x05, 0x02, 0x06,
		0x03, 0x40, 0xb4, 0 };
	static const uint8_t sanitize[10] = { 0x48, 0xa2, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct ssl_ata_tf tf;
	uint8_t cdb[16];

	tf_set(&tf, SSL_ATA_IDENTIFY, 0, 1, 0, 0);
	ssl_ata_pt16(cdb, &tf, SSL_ATA_PIO_IN, 1);
	check_bytes("identify", cdb, identify, 16);
	tf_set(&tf, SSL_ATA_SET_FEATURES, SSL_ATA_SF_WC_OFF, 0, 0, 0x40);
	ssl_ata_pt16(cdb, &tf, SSL_ATA_NONDATA, 1);
	check_bytes("set features wc off", cdb, wc_off, 16);
	tf_set(&tf, SSL_ATA_SANITIZE, SSL_ATA_SAN_BLOCK, 0, SSL_ATA_SAN_BLOCK_KEY, 0x40);
	ssl_ata_pt16(cdb, &tf, SSL_ATA_NONDATA, 1);
	check_bytes("sanitize block erase", cdb, block, 16);
	tf_set(&tf, SSL_ATA_SEC_SET_PASS, 0, 1, 0, 0x40);
	ssl_ata_pt16(cdb, &tf, SSL_ATA_PIO_OUT, 1);
	check_bytes("security set password", cdb, setpass, 16);
	tf_set(&tf, SSL_ATA_SANITIZE, 0x1234, 0x5678, 0x060504030201ull, 0x40);
	ssl_ata_pt16(cdb, &tf, SSL_ATA_NONDATA, 0);
	check_bytes("48-bit registers", cdb, lba48, 16);
	ssl_scsi_sanitize_cdb(cdb, SSL_SCSI_SANITIZE_BLOCK);
	check_bytes("scsi sanitize", cdb, sanitize, 10);
}

static void put_w(uint8_t *id, unsigned int i, unsigned int v)
{
	id[2 * i] = (uint8_t)v;
	id[2 * i + 1] = (uint8_t)(v >> 8);
}

static void t_identify(void)
{
	struct ssl_ata_id o;
	uint8_t id[512];

	memset(id, 0, sizeof(id));
	ssl_ata_id_parse(id, &o);
	CHECK(!o.wc_supported && !o.sanitize && !o.sec_supported);
	put_w(id, 83, 0x4000);
	put_w(id, 82, 0x0022);		/* write cache, security */
	put_w(id, 85, 0x0020);		/* write cache on */
	put_w(id, 59, 0x3000);		/* sanitize, block erase */
	put_w(id, 128, 0x0029);		/* supported, frozen, enhanced */
	put_w(id, 89, 0x0005);		/* 10 minutes */
	ssl_ata_id_parse(id, &o);
	CHECK(o.wc_supported && o.wc_enabled);
	CHECK(o.sanitize && o.san_block && !o.san_crypto && !o.san_overwrite);
	CHECK(o.sec_supported && o.sec_frozen && !o.sec_enabled && !o.sec_locked);
	CHECK(o.sec_enhanced && o.erase_min == 10);
	put_w(id, 85, 0);
	put_w(id, 89, 0x8100);		/* extended format: 256 x 2 minutes */
	ssl_ata_id_parse(id, &o);
	CHECK(o.wc_supported && !o.wc_enabled && o.erase_min == 512);
	/* words 82-87 invalid: nothing read from them */
	put_w(id, 83, 0);
	ssl_ata_id_parse(id, &o);
	CHECK(!o.wc_supported && !o.sec_supported && o.sanitize);
	/* serial, words 10-19: "  AB12" padded with blanks, byte-swapped */
	memcpy(id + 20, "  BA21                ", 20);
	{
		char str[21];

		ssl_ata_id_string(id, 10, 10, str, sizeof(str));
		CHECK(!strcmp(str, "AB12"));
		ssl_ata_id_string(id, 10, 10, str, 6);
		CHECK(!strcmp(str, "AB"));
	}
	/* crypto without the sanitize bit: not supported */
	put_w(id, 59, 0x8000);
	ssl_ata_id_parse(id, &o);
	CHECK(!o.sanitize && !o.san_crypto);
}

static void t_return(void)
{
	/* descriptor sense, ATA Status Return descriptor 09h */
	uint8_t d[22] = { 0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 14,
			  0x09, 0x0c, 0x01, 0x04, 0x80, 0x00, 0x11, 0x22, 0x33, 0x44,
			  0x55, 0x66, 0x40, 0x51 };
	/* fixed sense (SAT-3): INFORMATION = error, status, device, count */
	uint8_t f[18] = { 0x70, 0, 0x01, 0x04, 0x51, 0x40, 0x07, 10,
			  0, 0, 0, 0, 0, 0x1d, 0, 0, 0, 0 };
	struct ssl_ata_tf tf;
	uint8_t status = 0, error = 0;
	int full = -1;

	f[9] = 0xaa;
	f[10] = 0xbb;
	f[11] = 0xcc;
	CHECK(!ssl_ata_return(d, sizeof(d), &tf, &status, &error, &full));
	CHECK(full == 1 && status == 0x51 && error == 0x04 && tf.count == 0x8000);
	CHECK(tf.device == 0x40);
	/* 7:0 in byte 7 of the descriptor (0x22), 15:8 in 9, 23:16 in 11 ... */
	CHECK(tf.lba == 0x553311664422ull);
	CHECK(!ssl_ata_return(f, sizeof(f), &tf, &status, &error, &full));
	CHECK(full == 0 && status == 0x51 && error == 0x04 && tf.count == 0x07);
	CHECK(tf.lba == 0xccbbaa && tf.device == 0x40);
	d[8] = 0x0a;		/* no 09h descriptor */
	CHECK(ssl_ata_return(d, sizeof(d), &tf, &status, &error, &full) == -1);
	CHECK(ssl_ata_return(f, 4, &tf, &status, &error, &full) == -1);
	/* fixed sense of another condition (ILLEGAL REQUEST, invalid opcode) */
	f[2] = 0x05;
	f[12] = 0x20;
	f[13] = 0;
	CHECK(ssl_ata_return(f, sizeof(f), &tf, &status, &error, &full) == -1);
}

/* MODE SENSE(10): header, one 8-byte block descriptor, page 01h, page 08h */
static size_t mode_data(uint8_t *b, int wce)
{
	size_t n = 8 + 8 + 12 + 20;

	memset(b, 0, 64);
	b[0] = (uint8_t)((n - 2) >> 8);
	b[1] = (uint8_t)(n - 2);
	b[7] = 8;
	b[16] = 0x81;		/* PS + page 01h */
	b[17] = 10;
	b[28] = 0x88;		/* PS + page 08h */
	b[29] = 18;
	b[30] = (uint8_t)(wce ? 0x04 | 0x01 : 0x01);	/* WCE, RCD */
	return n;
}

static void t_caching(void)
{
	uint8_t b[64];
	size_t n = mode_data(b, 1);
	int len;

	CHECK(ssl_caching_page(b, n) == 28);
	CHECK(ssl_caching_wce(b, n) == 1);
	len = ssl_caching_select(b, n, 0);
	CHECK(len == (int)n);
	CHECK(b[0] == 0 && b[1] == 0);
	CHECK(b[28] == 0x08 && b[30] == 0x01);
	CHECK(b[16] == 0x81);		/* other pages as they were */
	n = mode_data(b, 0);
	CHECK(ssl_caching_wce(b, n) == 0);
	CHECK(ssl_caching_select(b, n, 1) == (int)n && b[30] == 0x05);
	/* the caching page cut off by the mode data length */
	n = mode_data(b, 1);
	b[1] = 8 + 8 + 12 - 2;
	CHECK(ssl_caching_page(b, sizeof(b)) == -1);
	CHECK(ssl_caching_select(b, sizeof(b), 1) == -1);
	/* block descriptors beyond the data */
	n = mode_data(b, 1);
	b[7] = 200;
	CHECK(ssl_caching_wce(b, n) == -1);
	CHECK(ssl_caching_page(b, 4) == -1);
}

static void t_sense(void)
{
	const uint8_t fixed[18] = { 0x70, 0, 0x05, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x20, 0x00 };
	const uint8_t desc[8] = { 0x72, 0x02, 0x04, 0x1b, 0, 0, 0, 0 };
	int key, asc, ascq;
	char line[256];

	CHECK(!ssl_sense_key(fixed, sizeof(fixed), &key, &asc, &ascq));
	CHECK(key == 5 && asc == 0x20 && ascq == 0);
	ssl_sense_line(fixed, sizeof(fixed), line, sizeof(line));
	printf("line: %s\n", line);
	CHECK(strstr(line, "Illegal Request") && strstr(line, "asc 0x20, ascq 0x00"));
	CHECK(strstr(line, "operation code"));
	CHECK(!ssl_sense_key(desc, sizeof(desc), &key, &asc, &ascq));
	CHECK(key == 2 && asc == 0x04 && ascq == 0x1b);
	ssl_sense_line(desc, sizeof(desc), line, sizeof(line));
	printf("line: %s\n", line);
	CHECK(strstr(line, "Not Ready") && strstr(line, "anitize"));
	ssl_sense_line(desc, 0, line, sizeof(line));
	CHECK(!strcmp(line, "no sense data"));
	CHECK(ssl_sense_key((const uint8_t *)"\0\0\0\0", 4, &key, &asc, &ascq) == -1);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*fn)(void); } t[] = {
		{ "cdb", t_cdb }, { "identify", t_identify }, { "return", t_return },
		{ "caching", t_caching }, { "sense", t_sense },
	};
	size_t i;

	if (argc != 2)
		return 2;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (strcmp(argv[1], t[i].name))
			continue;
		t[i].fn();
		if (!fails)
			printf("ok %s\n", t[i].name);
		return fails ? 1 : 0;
	}
	printf("FAIL unknown property %s\n", argv[1]);
	return 2;
}
