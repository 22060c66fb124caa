// SPDX-License-Identifier: GPL-2.0
/*
 * SATA and SAS drives through SG_IO, with sgutils2's pass-through
 * (sg_pt) and sense tables: facts, write cache and purge.  The commands'
 * bytes are built in sgcmd.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <scsi/sg_lib.h>
#include <scsi/sg_pt.h>

#include "device/sg.h"
#include "device/sgcmd.h"
#include "core/util.h"

#define CMD_TIMEOUT_S		60
#define POLL_MS			1000u
/* ATA Sanitize / SCSI SANITIZE with no estimate from the device */
#define SANITIZE_WAIT_S		(2u * 3600)
/* SECURITY ERASE UNIT and FORMAT UNIT run in the command itself */
#define ERASE_TIMEOUT_S		(12u * 3600)
/* the temporary user password of a Security Erase (32 bytes, padded) */
#define SEC_PASSWORD		"ssdload"

#define ATA_ERR			0x01	/* status register bits */
#define ATA_ABRT		0x04	/* error register: command aborted */

/* the outcome of one command */
struct sg_res {
	int status;		/* 0 good, 1 CHECK CONDITION (sense), -1 failed */
	uint8_t sense[64];
	int slen;
	char why[192];		/* a line for a failure */
};

/* One command through sg_pt; data in (@din) or out (@dout) of @dlen bytes. */
static int sg_cmd(int fd, const uint8_t *cdb, int clen, uint8_t *din,
		  const uint8_t *dout, int dlen, unsigned int timeout_s,
		  struct sg_res *r)
{
	struct sg_pt_base *pt = construct_scsi_pt_obj();
	int res, cat;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	if (!pt) {
		snprintf(r->why, sizeof(r->why), "out of memory");
		return -1;
	}
	set_scsi_pt_cdb(pt, cdb, clen);
	set_scsi_pt_sense(pt, r->sense, sizeof(r->sense));
	if (din)
		set_scsi_pt_data_in(pt, din, dlen);
	else if (dout)
		set_scsi_pt_data_out(pt, dout, dlen);
	res = do_scsi_pt(pt, fd, (int)timeout_s, 0);
	cat = get_scsi_pt_result_category(pt);
	r->slen = get_scsi_pt_sense_len(pt);
	if (res < 0 || cat == SCSI_PT_RESULT_OS_ERR) {
		snprintf(r->why, sizeof(r->why), "%s",
			 strerror(res < 0 ? -res : get_scsi_pt_os_err(pt)));
	} else if (cat == SCSI_PT_RESULT_TRANSPORT_ERR) {
		get_scsi_pt_transport_err_str(pt, sizeof(r->why), r->why);
	} else if (cat == SCSI_PT_RESULT_SENSE) {
		r->status = 1;
		ssl_sense_line(r->sense, (size_t)r->slen, r->why, sizeof(r->why));
	} else if (cat == SCSI_PT_RESULT_STATUS) {
		snprintf(r->why, sizeof(r->why), "SCSI status 0x%x",
			 get_scsi_pt_status_response(pt));
	} else {
		r->status = 0;
	}
	destruct_scsi_pt_obj(pt);
	return r->status;
}

/*
 * An ATA command through ATA PASS-THROUGH(16), CK_COND set: *@out holds
 * the registers after it.  0 done, 1 aborted by the device (or the
 * command unknown to the translation), -1 failed; r->why tells.
 */
static int ata_cmd(int fd, const struct ssl_ata_tf *tf, enum ssl_ata_proto proto,
		   uint8_t *din, const uint8_t *dout, unsigned int timeout_s,
		   struct ssl_ata_tf *out, struct sg_res *r)
{
	uint8_t cdb[16], status = 0, error = 0;
	int full = 0, key, asc, ascq;

	ssl_ata_pt16(cdb, tf, proto, 1);
	sg_cmd(fd, cdb, sizeof(cdb), din, dout, proto == SSL_ATA_NONDATA ? 0 : 512,
	       timeout_s, r);
	if (r->status < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	if (!ssl_ata_return(r->sense, (size_t)r->slen, out, &status, &error, &full)) {
		if (status & ATA_ERR) {
			snprintf(r->why, sizeof(r->why), "ATA status 0x%02x, error 0x%02x%s",
				 status, error, error & ATA_ABRT ? " (command aborted)" : "");
			return 1;
		}
		return 0;
	}
	/* no ATA registers: a good status, or the SCSI layer refused it */
	if (r->status == 0)
		return 0;
	if (!ssl_sense_key(r->sense, (size_t)r->slen, &key, &asc, &ascq) && key == 5)
		return 1;	/* ILLEGAL REQUEST: not an ATA device behind SAT */
	return -1;
}

static void ata_tf(struct ssl_ata_tf *tf, uint8_t cmd, uint16_t feature,
		   uint16_t count, uint64_t lba)
{
	memset(tf, 0, sizeof(*tf));
	tf->command = cmd;
	tf->feature = feature;
	tf->count = count;
	tf->lba = lba;
	tf->device = 0x40;	/* LBA mode */
}

/* IDENTIFY DEVICE, decoded into @id and, when @raw, its 512 bytes there */
static int ata_identify(int fd, struct ssl_ata_id *id, struct sg_res *r, uint8_t *raw)
{
	struct ssl_ata_tf tf, out;
	uint8_t buf[512];
	int ret;

	ata_tf(&tf, SSL_ATA_IDENTIFY, 0, 1, 0);
	tf.device = 0;
	memset(buf, 0, sizeof(buf));
	ret = ata_cmd(fd, &tf, SSL_ATA_PIO_IN, buf, NULL, CMD_TIMEOUT_S, &out, r);
	if (ret)
		return ret;
	/* word 255 is the integrity word when its low byte is A5h */
	if (buf[510] == 0xa5) {
		uint8_t sum = 0;
		size_t i;

		for (i = 0; i < sizeof(buf); i++)
			sum = (uint8_t)(sum + buf[i]);
		if (sum) {
			snprintf(r->why, sizeof(r->why), "IDENTIFY DEVICE checksum mismatch");
			return -1;
		}
	}
	ssl_ata_id_parse(buf, id);
	if (raw)
		memcpy(raw, buf, sizeof(buf));
	return 0;
}

/* MODE SENSE(10) of the caching page, @pc 0 current, 1 changeable */
static int caching_sense(int fd, int pc, uint8_t *buf, size_t len, struct sg_res *r)
{
	uint8_t cdb[10] = { 0x5a, 0x08 /* DBD */, (uint8_t)(pc << 6 | 0x08) };

	cdb[7] = (uint8_t)(len >> 8);
	cdb[8] = (uint8_t)len;
	memset(buf, 0, len);
	return sg_cmd(fd, cdb, sizeof(cdb), buf, NULL, (int)len, CMD_TIMEOUT_S, r);
}

static void ata_facts(struct ssl_dev *d, const struct ssl_ata_id *id)
{
	d->bus = SSL_BUS_ATA;
	d->vwc_present = id->wc_supported;
	d->wc = !id->wc_supported ? SSL_WC_ABSENT :
		id->wc_enabled ? SSL_WC_ENABLED : SSL_WC_DISABLED;
	d->can_sanitize_block = id->san_block;
	d->can_sanitize_crypto = id->san_crypto;
	d->can_sanitize_overwrite = id->san_overwrite;
	d->can_format = 0;
	d->security_erase_min = id->erase_min;
	d->can_security_erase = 0;
	if (!id->sec_supported)
		snprintf(d->security_why, sizeof(d->security_why),
			 "the drive has no Security feature set (IDENTIFY word 82 bit 1)");
	else if (id->sec_frozen)
		snprintf(d->security_why, sizeof(d->security_why),
			 "the security state is frozen (word 128 bit 3): power-cycle or "
			 "hot-plug the drive");
	else if (id->sec_locked || id->sec_enabled)
		snprintf(d->security_why, sizeof(d->security_why),
			 "a security password is already set (word 128)");
	else if (id->sec_count_expired)
		snprintf(d->security_why, sizeof(d->security_why),
			 "the password attempt counter has expired (word 128 bit 4)");
	else
		d->can_security_erase = 1;
}

/* The unit serial number (VPD page 80h, as the kernel read it) into d->serial. */
static void vpd_serial(struct ssl_dev *d)
{
	char path[160];
	uint8_t buf[260];
	size_t n, len;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/block/%s/device/vpd_pg80", d->disk);
	f = fopen(path, "rbe");
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n < 4 || buf[1] != 0x80)
		return;
	len = (size_t)buf[2] << 8 | buf[3];
	if (len > n - 4)
		len = n - 4;
	while (len && (buf[4 + len - 1] == ' ' || !buf[4 + len - 1]))
		len--;
	n = 4;
	while (len && buf[n] == ' ') {
		n++;
		len--;
	}
	snprintf(d->serial, sizeof(d->serial), "%.*s", (int)len, (const char *)buf + n);
}

void ssl_sg_facts(struct ssl_dev *d, int fd)
{
	uint8_t buf[256], chg[256], raw[512];
	struct ssl_ata_id id;
	struct sg_res r;
	int wce;

	if (!ata_identify(fd, &id, &r, raw)) {
		ata_facts(d, &id);
		/* the drive's own strings (sysfs has none for a libata disk) */
		ssl_ata_id_string(raw, 10, 10, d->serial, sizeof(d->serial));
		ssl_ata_id_string(raw, 23, 4, d->firmware, sizeof(d->firmware));
		ssl_ata_id_string(raw, 27, 20, d->model, sizeof(d->model));
		return;
	}
	vpd_serial(d);
	if (caching_sense(fd, 0, buf, sizeof(buf), &r))
		return;
	wce = ssl_caching_wce(buf, sizeof(buf));
	if (wce < 0)
		return;
	d->bus = SSL_BUS_SCSI;
	d->wc = wce ? SSL_WC_ENABLED : SSL_WC_DISABLED;
	d->vwc_present = !caching_sense(fd, 1, chg, sizeof(chg), &r) &&
			 ssl_caching_wce(chg, sizeof(chg)) == 1;
	d->can_format = 1;
	d->can_sanitize_block = d->can_sanitize_crypto = -1;
	d->can_sanitize_overwrite = 0;
	snprintf(d->security_why, sizeof(d->security_why),
		 "ATA Security Erase is for ATA drives");
}

/* Tell the SCSI disk driver to re-read the device (its cache type). */
static void sysfs_rescan(const struct ssl_dev *d)
{
	char path[160];
	int fd;

	snprintf(path, sizeof(path), "/sys/class/block/%s/device/rescan", d->disk);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, "1", 1) != 1)
		ssl_err("%s: %s: %s", d->path, path, strerror(errno));
	close(fd);
}

/* The write cache state as the device reads now (d->wc). */
static void reread_wc(struct ssl_dev *d, int fd)
{
	uint8_t buf[256];
	struct ssl_ata_id id;
	struct sg_res r;
	int wce;

	d->wc = SSL_WC_UNKNOWN;
	if (d->bus == SSL_BUS_ATA) {
		if (!ata_identify(fd, &id, &r, NULL))
			d->wc = id.wc_enabled ? SSL_WC_ENABLED : SSL_WC_DISABLED;
	} else if (!caching_sense(fd, 0, buf, sizeof(buf), &r)) {
		wce = ssl_caching_wce(buf, sizeof(buf));
		if (wce >= 0)
			d->wc = wce ? SSL_WC_ENABLED : SSL_WC_DISABLED;
	}
}

/* MODE SELECT(10) of the current caching page with WCE = @on */
static int scsi_set_wce(int fd, int on, struct sg_res *r)
{
	uint8_t buf[256], cdb[10] = { 0x55, 0x10 /* PF */ };
	int n;

	if (caching_sense(fd, 0, buf, sizeof(buf), r))
		return -1;
	n = ssl_caching_select(buf, sizeof(buf), on);
	if (n < 0) {
		snprintf(r->why, sizeof(r->why), "no caching mode page");
		return -1;
	}
	cdb[7] = (uint8_t)(n >> 8);
	cdb[8] = (uint8_t)n;
	return sg_cmd(fd, cdb, sizeof(cdb), NULL, buf, n, CMD_TIMEOUT_S, r) ? -1 : 0;
}

int ssl_sg_set_write_cache(struct ssl_dev *d, int on)
{
	enum ssl_wc want = on ? SSL_WC_ENABLED : SSL_WC_DISABLED;
	struct ssl_ata_tf tf, out;
	struct sg_res r;
	const char *what;
	int fd, ret;

	if (d->vwc_present != 1) {
		ssl_err("%s: the drive has no write cache that can be switched (%s)",
			d->path, d->bus == SSL_BUS_ATA ? "IDENTIFY word 82 bit 5 is 0" :
			"WCE of the caching mode page is not changeable");
		return -1;
	}
	fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ssl_err("%s: %s", d->path, strerror(errno));
		return -1;
	}
	if (d->bus == SSL_BUS_ATA) {
		what = on ? "ATA SET FEATURES 02h (write cache on)" :
			"ATA SET FEATURES 82h (write cache off)";
		ata_tf(&tf, SSL_ATA_SET_FEATURES, on ? SSL_ATA_SF_WC_ON : SSL_ATA_SF_WC_OFF,
		       0, 0);
		ret = ata_cmd(fd, &tf, SSL_ATA_NONDATA, NULL, NULL, CMD_TIMEOUT_S, &out, &r);
	} else {
		what = on ? "MODE SELECT, caching page WCE=1" :
			"MODE SELECT, caching page WCE=0";
		ret = scsi_set_wce(fd, on, &r);
	}
	if (ret)
		ssl_err("%s: %s: %s", d->path, what, r.why);
	reread_wc(d, fd);
	close(fd);
	sysfs_rescan(d);
	if (!ret && d->wc != want) {
		ssl_err("%s: the write cache reads %s after %s (wanted %s)", d->path,
			ssl_wc_name(d->wc), what, ssl_wc_name(want));
		ret = -1;
	}
	return ret ? -1 : 0;
}

/* ---- purge ---- */

const char *ssl_sg_refusal(const struct ssl_dev *d, enum ssl_purge method)
{
	if (d->is_partition)
		return "it is a partition: the command erases the whole disk";
	switch (method) {
	case SSL_PURGE_SANITIZE:
		if (d->bus == SSL_BUS_ATA && !d->can_sanitize_block && !d->can_sanitize_crypto)
			return "the drive supports neither BLOCK ERASE nor CRYPTO SCRAMBLE "
			       "of the Sanitize feature set (IDENTIFY word 59)";
		return NULL;
	case SSL_PURGE_FORMAT:
		if (d->bus == SSL_BUS_ATA)
			return "ATA has no format command: --purge=sanitize or security-erase";
		return NULL;
	case SSL_PURGE_SECERASE:
		return d->can_security_erase ? NULL : d->security_why;
	default:
		return NULL;
	}
}

/* SANITIZE STATUS EXT: 0 (registers in *@st), or -1/1 as ata_cmd() */
static int ata_sanitize_status(int fd, struct ssl_ata_tf *st, struct sg_res *r)
{
	struct ssl_ata_tf tf;

	ata_tf(&tf, SSL_ATA_SANITIZE, SSL_ATA_SAN_STATUS, 0, 0);
	return ata_cmd(fd, &tf, SSL_ATA_NONDATA, NULL, NULL, CMD_TIMEOUT_S, st, r);
}

/* Wait for an ATA sanitize: count bit 15 done, bit 14 in progress */
static int ata_sanitize_wait(struct ssl_dev *d, int fd)
{
	uint64_t t0 = ssl_now_ms();
	struct ssl_ata_tf st;
	struct sg_res r;
	int ret;

	for (;;) {
		ret = ata_sanitize_status(fd, &st, &r);
		if (ret) {
			ssl_err("%s: SANITIZE STATUS EXT: %s", d->path, r.why);
			return -1;
		}
		if (st.count & 0x8000)
			return 0;
		if (!(st.count & 0x4000)) {
			ssl_err("%s: the sanitize stopped without completing "
				"(SANITIZE STATUS EXT count 0x%04x)", d->path, st.count);
			return -1;
		}
		if (ssl_now_ms() - t0 > SANITIZE_WAIT_S * 1000ull) {
			ssl_err("%s: the sanitize still runs after %u s (%u%% done): "
				"giving up waiting; it goes on in the drive", d->path,
				SANITIZE_WAIT_S, (unsigned int)((st.lba & 0xffff) * 100 / 65536));
			return -1;
		}
		ssl_msleep(POLL_MS);
	}
}

/* ATA Sanitize, block erase else crypto scramble: 0 done, 1 refused, -1 */
static int ata_sanitize(struct ssl_dev *d, int fd, char *detail, size_t len)
{
	int block = d->can_sanitize_block;
	const char *what = block ? "BLOCK ERASE EXT" : "CRYPTO SCRAMBLE EXT";
	struct ssl_ata_tf tf, st;
	uint64_t t0 = ssl_now_ms();
	struct sg_res r;
	int ret, full;

	ret = ata_sanitize_status(fd, &st, &r);
	full = r.slen > 0 && (r.sense[0] & 0x7f) >= 0x72;
	if (ret) {
		ssl_err("%s: SANITIZE STATUS EXT: %s", d->path, r.why);
		return ret;
	}
	if (!full) {
		ssl_err("%s: the SCSI layer returns the ATA registers in fixed format: "
			"the sanitize's progress cannot be followed", d->path);
		return 1;
	}
	if (st.count & 0x4000) {
		ssl_err("%s: a sanitize is already in progress: wait for it", d->path);
		return -1;
	}
	ata_tf(&tf, SSL_ATA_SANITIZE, block ? SSL_ATA_SAN_BLOCK : SSL_ATA_SAN_CRYPTO, 0,
	       block ? SSL_ATA_SAN_BLOCK_KEY : SSL_ATA_SAN_CRYPTO_KEY);
	ret = ata_cmd(fd, &tf, SSL_ATA_NONDATA, NULL, NULL, CMD_TIMEOUT_S, &st, &r);
	if (ret) {
		ssl_err("%s: ATA SANITIZE %s: %s", d->path, what, r.why);
		return ret;
	}
	if (ata_sanitize_wait(d, fd))
		return -1;
	snprintf(detail, len, "ATA Sanitize, %s, %.1f s", what, (ssl_now_ms() - t0) / 1000.0);
	return 0;
}

/* SECURITY SET PASSWORD / ERASE UNIT / DISABLE PASSWORD data: user password */
static void sec_block(uint8_t buf[512], int enhanced)
{
	memset(buf, 0, 512);
	buf[0] = enhanced ? 0x02 : 0;	/* word 0: bit 0 user (0), bit 1 enhanced */
	memcpy(buf + 2, SEC_PASSWORD, strlen(SEC_PASSWORD));
}

static int sec_cmd(struct ssl_dev *d, int fd, uint8_t cmd, unsigned int timeout_s,
		   const char *what)
{
	struct ssl_ata_tf tf, out;
	struct sg_res r;
	uint8_t buf[512];
	int ret;

	sec_block(buf, 0);
	ata_tf(&tf, cmd, 0, 1, 0);
	ret = ata_cmd(fd, &tf, cmd == SSL_ATA_SEC_ERASE_PREP ? SSL_ATA_NONDATA :
		      SSL_ATA_PIO_OUT, NULL, cmd == SSL_ATA_SEC_ERASE_PREP ? NULL : buf,
		      timeout_s, &out, &r);
	if (ret)
		ssl_err("%s: ATA %s: %s", d->path, what, r.why);
	return ret;
}

/*
 * ATA Security Erase with the temporary user password "ssdload": SET
 * PASSWORD, ERASE PREPARE, ERASE UNIT (which clears the password).
 * 0 done, 1 refused before anything changed, -1 failed.
 */
static int ata_security_erase(struct ssl_dev *d, int fd, char *detail, size_t len)
{
	unsigned int tmo = d->security_erase_min ?
			   d->security_erase_min * 60 * 2 + 600 : ERASE_TIMEOUT_S;
	uint64_t t0 = ssl_now_ms();
	struct ssl_ata_id id;
	struct sg_res r;
	int ret;

	fprintf(stderr, "%s: ATA Security Erase: setting the temporary user password "
		"\"%s\" (the erase clears it)\n", d->path, SEC_PASSWORD);
	ret = sec_cmd(d, fd, SSL_ATA_SEC_SET_PASS, CMD_TIMEOUT_S, "SECURITY SET PASSWORD");
	if (ret)
		return ret;
	if (sec_cmd(d, fd, SSL_ATA_SEC_ERASE_PREP, CMD_TIMEOUT_S, "SECURITY ERASE PREPARE") ||
	    sec_cmd(d, fd, SSL_ATA_SEC_ERASE_UNIT, tmo, "SECURITY ERASE UNIT"))
		goto out_disable;
	if (ata_identify(fd, &id, &r, NULL) || id.sec_enabled)
		goto out_disable;
	snprintf(detail, len, "ATA Security Erase (normal), %.1f s",
		 (ssl_now_ms() - t0) / 1000.0);
	return 0;

out_disable:
	if (sec_cmd(d, fd, SSL_ATA_SEC_DISABLE, CMD_TIMEOUT_S, "SECURITY DISABLE PASSWORD"))
		ssl_err("%s: the drive may keep the user password \"%s\": clear it with "
			"hdparm --user-master u --security-disable %s %s", d->path,
			SEC_PASSWORD, SEC_PASSWORD, d->path);
	return -1;
}

/* Wait while the SCSI device reports "sanitize in progress" (04h/1Bh). */
static int scsi_sanitize_wait(struct ssl_dev *d, int fd)
{
	static const uint8_t tur[6] = { 0 };
	uint64_t t0 = ssl_now_ms();
	int key, asc, ascq;
	struct sg_res r;

	for (;;) {
		ssl_msleep(POLL_MS);
		if (!sg_cmd(fd, tur, sizeof(tur), NULL, NULL, 0, CMD_TIMEOUT_S, &r))
			return 0;
		if (r.status < 0 || ssl_sense_key(r.sense, (size_t)r.slen, &key, &asc, &ascq) ||
		    !(key == 2 && asc == 0x04 && ascq == 0x1b)) {
			ssl_err("%s: SANITIZE: %s", d->path, r.why);
			return -1;
		}
		if (ssl_now_ms() - t0 > SANITIZE_WAIT_S * 1000ull) {
			ssl_err("%s: the sanitize still runs after %u s: giving up waiting; "
				"it goes on in the drive", d->path, SANITIZE_WAIT_S);
			return -1;
		}
	}
}

/* SCSI SANITIZE block erase, else crypto erase: 0 done, 1 refused, -1 */
static int scsi_sanitize(struct ssl_dev *d, int fd, char *detail, size_t len)
{
	static const int sa[] = { SSL_SCSI_SANITIZE_BLOCK, SSL_SCSI_SANITIZE_CRYPTO };
	static const char *const name[] = { "block erase", "cryptographic erase" };
	uint64_t t0 = ssl_now_ms();
	uint8_t cdb[10];
	struct sg_res r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sa); i++) {
		ssl_scsi_sanitize_cdb(cdb, sa[i]);
		if (!sg_cmd(fd, cdb, sizeof(cdb), NULL, NULL, 0, CMD_TIMEOUT_S, &r))
			break;
		ssl_err("%s: SCSI SANITIZE (%s): %s", d->path, name[i], r.why);
		if (r.status < 0)
			return -1;
	}
	if (i == ARRAY_SIZE(sa))
		return 1;
	if (scsi_sanitize_wait(d, fd))
		return -1;
	snprintf(detail, len, "SCSI SANITIZE, %s, %.1f s", name[i],
		 (ssl_now_ms() - t0) / 1000.0);
	return 0;
}

/* FORMAT UNIT, no parameter list (the device's defaults): 0, 1 refused, -1 */
static int scsi_format(struct ssl_dev *d, int fd, char *detail, size_t len)
{
	static const uint8_t cdb[6] = { 0x04 };
	uint64_t t0 = ssl_now_ms();
	struct sg_res r;

	if (sg_cmd(fd, cdb, sizeof(cdb), NULL, NULL, 0, ERASE_TIMEOUT_S, &r)) {
		ssl_err("%s: SCSI FORMAT UNIT: %s", d->path, r.why);
		return r.status > 0 ? 1 : -1;
	}
	snprintf(detail, len, "SCSI FORMAT UNIT, %.1f s", (ssl_now_ms() - t0) / 1000.0);
	return 0;
}

/* One method: 0 done, 1 refused (not available or by the device), -1 */
static int sg_one(struct ssl_dev *d, int fd, enum ssl_purge m, char *detail,
		  size_t len)
{
	const char *no = ssl_sg_refusal(d, m);

	if (no) {
		ssl_err("%s: no %s: %s", d->path, ssl_purge_name(m), no);
		return 1;
	}
	if (m == SSL_PURGE_SANITIZE)
		return d->bus == SSL_BUS_ATA ? ata_sanitize(d, fd, detail, len) :
		       scsi_sanitize(d, fd, detail, len);
	if (m == SSL_PURGE_FORMAT)
		return scsi_format(d, fd, detail, len);
	return ata_security_erase(d, fd, detail, len);
}

int ssl_sg_purge(struct ssl_dev *d, int fd, enum ssl_purge method,
		 enum ssl_purge *used, char *detail, size_t len)
{
	static const enum ssl_purge ata[] = { SSL_PURGE_SANITIZE, SSL_PURGE_SECERASE };
	static const enum ssl_purge scsi[] = { SSL_PURGE_SANITIZE, SSL_PURGE_FORMAT };
	const enum ssl_purge *try = d->bus == SSL_BUS_ATA ? ata : scsi;
	size_t i, n = 2;
	int ret = 1;

	if (method != SSL_PURGE_AUTO) {
		try = &method;
		n = 1;
	}
	for (i = 0; i < n && ret > 0; i++) {
		ret = sg_one(d, fd, try[i], detail, len);
		if (!ret)
			*used = try[i];
	}
	return ret;
}

int ssl_sg_plan(const struct ssl_dev *d, enum ssl_purge method, char *buf,
		size_t len)
{
	int ata = d->bus == SSL_BUS_ATA;
	int san = !ssl_sg_refusal(d, SSL_PURGE_SANITIZE);
	int sec = !ssl_sg_refusal(d, SSL_PURGE_SECERASE);
	const char *first, *then;

	if (method == SSL_PURGE_AUTO) {
		if (ata && !san && !sec)
			return 1;
		first = !san ? NULL : !ata ? "SCSI SANITIZE (block erase, else cryptographic "
			"erase)" : d->can_sanitize_block ? "ATA Sanitize BLOCK ERASE EXT" :
			"ATA Sanitize CRYPTO SCRAMBLE EXT";
		then = !ata ? "SCSI FORMAT UNIT" : sec ? "ATA Security Erase" : NULL;
		snprintf(buf, len, "%s%s%s; scope: the whole disk %s", first ? first : "",
			 first && then ? ", else " : "", then ? then : "", d->path);
		return 0;
	}
	snprintf(buf, len, "%s; scope: the whole disk %s",
		 method == SSL_PURGE_SECERASE ? "ATA Security Erase (temporary user "
		 "password \"" SEC_PASSWORD "\")" :
		 method == SSL_PURGE_FORMAT ? "SCSI FORMAT UNIT" :
		 ata ? "ATA Sanitize" : "SCSI SANITIZE", d->path);
	return 0;
}
