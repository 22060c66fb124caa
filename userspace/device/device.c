// SPDX-License-Identifier: GPL-2.0
/*
 * The device layer of ssdload pts: device facts, the safety gate, purge,
 * write cache and SMART/health.  NVMe commands go through libnvme, as
 * admin passthrough on the namespace block device (the kernel forwards
 * them to the controller, from a partition node too).
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include <libnvme.h>

#include "device/device.h"
#include "device/sg.h"
#include "core/util.h"

/* Format NVM with a user data erase can take minutes on a large device */
#define FORMAT_TIMEOUT_MS	(10u * 60 * 1000)
/* sanitize: poll period, and how long to wait without a device estimate */
#define SANITIZE_POLL_MS	1000u
#define SANITIZE_WAIT_S		(2u * 3600)
#define SANITIZE_OVERWRITE_WAIT_S (24u * 3600)
/* the Sanitize Status log may lag the command briefly */
#define SANITIZE_START_S	30u
#define SANITIZE_LOG_RETRIES	5
/* after a format or sanitize: let the kernel's namespace scan settle */
#define RESCAN_SETTLE_MS	500u
#define RESCAN_WAIT_MS		10000u

/* the device itself and, for a whole disk, its partitions */
#define MAX_FAMILY		64

struct blk_ent {
	unsigned int maj, min;
	char name[64];
};

/* ---- small helpers ---- */

/* snprintf that never fails the caller: a truncated @buf is still a string */
static void fmt(char *buf, size_t len, const char *f, ...)
	__attribute__((format(printf, 3, 4)));

static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

/* Append to the ", "-separated list in @buf (@len bytes). */
static void list_add(char *buf, size_t len, const char *f, ...)
	__attribute__((format(printf, 3, 4)));

static void list_add(char *buf, size_t len, const char *f, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(buf + n, ", ", 3);
		n += 2;
	}
	if (n + 1 >= len)
		return;
	va_start(ap, f);
	vsnprintf(buf + n, len - n, f, ap);
	va_end(ap);
}

/* Trim the trailing blanks and newlines of the string @s. */
static void trim_right(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* A fixed-width, space-padded NVMe identify string into @dst (@len bytes). */
static void id_str(char *dst, size_t len, const char *src, size_t n)
{
	if (n > len - 1)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	trim_right(dst);
}

/* A one-line sysfs attribute into @dst (trimmed); 0 or -errno. */
static int sysfs_str(const char *path, char *dst, size_t len)
{
	const char *p;
	char *buf;
	int err;

	err = ssl_read_file(path, &buf, NULL);
	if (err)
		return err;
	trim_right(buf);
	for (p = buf; *p == ' ' || *p == '\t'; p++)
		;
	fmt(dst, len, "%s", p);
	free(buf);
	return 0;
}

static int sysfs_u64(const char *path, uint64_t *v)
{
	unsigned long long x;
	char buf[32], *end;
	int err;

	err = sysfs_str(path, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	*v = x;
	return 0;
}

static int sysfs_majmin(const char *path, unsigned int *maj, unsigned int *min)
{
	char buf[32];

	if (sysfs_str(path, buf, sizeof(buf)))
		return -1;
	return sscanf(buf, "%u:%u", maj, min) == 2 ? 0 : -1;
}

static int path_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* The low 64 bits of a 128-bit little-endian SMART counter (saturating). */
static uint64_t le128(const __u8 *b)
{
	uint64_t v = 0;
	int i;

	for (i = 15; i >= 8; i--)
		if (b[i])
			return UINT64_MAX;
	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/*
 * Report a failed libnvme call: @ret > 0 is an NVMe status (decoded), < 0
 * an errno (@err, saved right after the call).
 */
static void nvme_report(const char *path, const char *what, int ret, int err)
{
	if (ret > 0)
		ssl_err("%s: %s: NVMe status 0x%x: %s", path, what,
			(unsigned int)ret, nvme_status_to_string(ret, false));
	else
		ssl_err("%s: %s: %s", path, what, strerror(err));
}

/* ---- sysfs view of the device ---- */

/*
 * /sys/dev/block/MAJ:MIN of the block device @fd and, resolved, the sysfs
 * directory of its whole disk (the parent of a partition).  0 or -1.
 */
static int sysfs_dirs(int fd, char *dev_dir, size_t dlen, char *disk_dir,
		      size_t klen, int *is_part)
{
	char real[PATH_MAX], part[PATH_MAX + 16];
	struct stat st;

	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		return -1;
	fmt(dev_dir, dlen, "/sys/dev/block/%u:%u", major(st.st_rdev),
	    minor(st.st_rdev));
	if (!realpath(dev_dir, real))
		return -1;
	snprintf(part, sizeof(part), "%s/partition", real);
	*is_part = path_exists(part);
	if (*is_part) {
		char *slash = strrchr(real, '/');

		if (!slash || slash == real)
			return -1;
		*slash = '\0';
	}
	fmt(disk_dir, klen, "%s", real);
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Current write cache state as the block layer tells it (non-NVMe). */
static enum ssl_wc sysfs_wc(const char *disk_dir)
{
	char path[PATH_MAX + 64], val[32];

	snprintf(path, sizeof(path), "%s/queue/write_cache", disk_dir);
	if (sysfs_str(path, val, sizeof(val)))
		return SSL_WC_UNKNOWN;
	if (!strcmp(val, "write back"))
		return SSL_WC_ENABLED;
	if (strcmp(val, "write through"))
		return SSL_WC_UNKNOWN;
	/* a SCSI disk reports its WCE bit here: a cache, switched off */
	snprintf(path, sizeof(path), "%s/device/scsi_disk", disk_dir);
	return path_exists(path) ? SSL_WC_DISABLED : SSL_WC_ABSENT;
}

static void sysfs_facts(struct ssl_dev *d, const char *disk_dir)
{
	char path[PATH_MAX + 64];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/queue/discard_max_bytes", disk_dir);
	d->can_discard = !sysfs_u64(path, &v) && v > 0;
	if (d->is_nvme)
		return;
	snprintf(path, sizeof(path), "%s/device/model", disk_dir);
	sysfs_str(path, d->model, sizeof(d->model));
	snprintf(path, sizeof(path), "%s/device/serial", disk_dir);
	sysfs_str(path, d->serial, sizeof(d->serial));
	snprintf(path, sizeof(path), "%s/device/firmware_rev", disk_dir);
	sysfs_str(path, d->firmware, sizeof(d->firmware));
	/* no sysfs attribute tells about secure erase: tried at purge time */
	d->can_secdiscard = -1;
	d->wc = sysfs_wc(disk_dir);
}

/* ---- NVMe ---- */

static enum ssl_wc nvme_wc(int fd)
{
	__u32 res = 0;

	if (nvme_get_features_volatile_wc(fd, NVME_GET_FEATURES_SEL_CURRENT,
					  &res))
		return SSL_WC_UNKNOWN;
	return res & 1 ? SSL_WC_ENABLED : SSL_WC_DISABLED;
}

/* Fill the NVMe facts of @d when @fd is a namespace answering identify. */
static void nvme_facts(struct ssl_dev *d, int fd)
{
	struct nvme_id_ctrl *ctrl;
	struct nvme_id_ns *ns;
	struct nvme_lbaf *f;
	__u32 nsid = 0, sanicap;
	__u16 oacs;
	__u8 idx;

	ctrl = malloc(sizeof(*ctrl));
	ns = malloc(sizeof(*ns));
	if (!ctrl || !ns)
		goto out_free;
	if (nvme_get_nsid(fd, &nsid) || !nsid)
		goto out_free;
	if (nvme_identify_ctrl(fd, ctrl) || nvme_identify_ns(fd, nsid, ns))
		goto out_free;

	d->is_nvme = 1;
	d->bus = SSL_BUS_NVME;
	d->nsid = nsid;
	id_str(d->model, sizeof(d->model), ctrl->mn, sizeof(ctrl->mn));
	id_str(d->serial, sizeof(d->serial), ctrl->sn, sizeof(ctrl->sn));
	id_str(d->firmware, sizeof(d->firmware), ctrl->fr, sizeof(ctrl->fr));

	nvme_id_ns_flbas_to_lbaf_inuse(ns->flbas, &idx);
	if (idx < ARRAY_SIZE(ns->lbaf)) {
		f = &ns->lbaf[idx];
		d->lbaf_index = idx;
		d->lbaf_data_bytes = f->ds >= 9 && f->ds < 31 ? 1 << f->ds : 0;
		d->lbaf_metadata_bytes = le16toh(f->ms);
	}

	oacs = le16toh(ctrl->oacs);
	sanicap = le32toh(ctrl->sanicap);
	d->can_format = !!(oacs & NVME_CTRL_OACS_FORMAT);
	d->can_sanitize_block = !!(sanicap & NVME_CTRL_SANICAP_BES);
	d->can_sanitize_crypto = !!(sanicap & NVME_CTRL_SANICAP_CES);
	d->can_sanitize_overwrite = !!(sanicap & NVME_CTRL_SANICAP_OWS);
	/* the Linux NVMe driver offers no secure erase to the block layer */
	d->can_secdiscard = 0;
	d->vwc_present = !!(ctrl->vwc & NVME_CTRL_VWC_PRESENT);
	d->wc = d->vwc_present ? nvme_wc(fd) : SSL_WC_ABSENT;

out_free:
	free(ns);
	free(ctrl);
}

/* What an NVMe purge command would erase besides the namespace @d. */
struct nvme_reach {
	unsigned int others;	/* this controller's other active namespaces */
	unsigned int allocated;	/* allocated namespaces (NS management), 0 unknown */
	__u8 fna;		/* Format NVM attributes */
	char subsys[64];	/* nvme-subsysN, "" when sysfs does not tell */
	unsigned int nctrl;	/* its controllers */
	unsigned int nns;	/* the namespaces the host sees in it */
	char ns[512];		/* their names, ", "-separated */
};

/* 1 when @s is "nvme<N>" (@ns 0) or "nvme<N>n<M>" (@ns 1) */
static int nvme_node_name(const char *s, int ns)
{
	unsigned int a, b;
	int n = -1;

	if (ns)
		sscanf(s, "nvme%un%u%n", &a, &b, &n);
	else
		sscanf(s, "nvme%u%n", &a, &n);
	return n > 0 && !s[n];
}

/* The namespaces (not the hidden paths nvmeXcYnZ) in @dir into @r. */
static void subsys_ns(const char *dir, const char *disk, struct nvme_reach *r,
		      int *mine)
{
	struct dirent *de;
	DIR *dh = opendir(dir);

	if (!dh)
		return;
	while ((de = readdir(dh))) {
		if (!nvme_node_name(de->d_name, 1))
			continue;
		if (!strcmp(de->d_name, disk))
			*mine = 1;
		r->nns++;
		list_add(r->ns, sizeof(r->ns), "%s", de->d_name);
	}
	closedir(dh);
}

/*
 * The subsystem of namespace disk @disk from /sys/class/nvme-subsystem:
 * its controllers and every namespace the host sees (multipath heads in
 * the subsystem's directory, else under each controller).
 */
static void nvme_subsys(const char *disk, struct nvme_reach *r)
{
	static const char root[] = "/sys/class/nvme-subsystem";
	char dir[PATH_MAX];
	struct dirent *de, *ce;
	DIR *dh, *ch;
	int mine;

	dh = opendir(root);
	if (!dh)
		return;
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.')
			continue;
		mine = 0;
		r->nctrl = r->nns = 0;
		r->ns[0] = '\0';
		snprintf(dir, sizeof(dir), "%s/%s", root, de->d_name);
		subsys_ns(dir, disk, r, &mine);
		ch = opendir(dir);
		if (!ch)
			continue;
		while ((ce = readdir(ch))) {
			if (!nvme_node_name(ce->d_name, 0))
				continue;
			r->nctrl++;
			snprintf(dir, sizeof(dir), "%s/%s/%s", root, de->d_name, ce->d_name);
			subsys_ns(dir, disk, r, &mine);
		}
		closedir(ch);
		if (mine) {
			fmt(r->subsys, sizeof(r->subsys), "%s", de->d_name);
			break;
		}
	}
	closedir(dh);
	if (!r->subsys[0]) {	/* not found: nothing of the last one looked at */
		r->nctrl = r->nns = 0;
		r->ns[0] = '\0';
	}
}

/* The number of namespace IDs in @list. */
static unsigned int ns_count(const struct nvme_ns_list *list)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(list->ns) && list->ns[i]; i++)
		;
	return i;
}

/*
 * The reach of an NVMe purge of @d: its controller's other active
 * namespaces, the allocated ones, the Format NVM attributes and the
 * subsystem in sysfs.  0, or -1 when it cannot be known (after a message).
 */
static int nvme_scope(const struct ssl_dev *d, int fd, struct nvme_reach *rch)
{
	struct nvme_id_ctrl *ctrl;
	struct nvme_ns_list *list;
	unsigned int i;
	int ret = -1, r, err;

	memset(rch, 0, sizeof(*rch));
	ctrl = malloc(sizeof(*ctrl));
	list = malloc(sizeof(*list));
	if (!ctrl || !list) {
		ssl_err("%s: out of memory", d->path);
		goto out_free;
	}
	r = nvme_identify_ctrl(fd, ctrl);
	if (r) {
		nvme_report(d->path, "identify controller", r, errno);
		goto out_free;
	}
	rch->fna = ctrl->fna;
	/* counted whatever NN says: NN is a limit, not the namespaces there are */
	r = nvme_identify_active_ns_list(fd, 0, list);
	if (r) {
		err = errno;
		nvme_report(d->path, "identify active namespace list", r, err);
		ssl_err("%s: cannot tell which namespaces a purge would erase",
			d->path);
		goto out_free;
	}
	for (i = 0; i < ARRAY_SIZE(list->ns) && list->ns[i]; i++)
		if (le32toh(list->ns[i]) != d->nsid)
			rch->others++;
	/* namespaces of the subsystem attached to no controller, or another */
	if ((le16toh(ctrl->oacs) & NVME_CTRL_OACS_NS_MGMT) &&
	    !nvme_identify_allocated_ns_list(fd, 0, list))
		rch->allocated = ns_count(list);
	nvme_subsys(d->name, rch);
	ret = 0;

out_free:
	free(list);
	free(ctrl);
	return ret;
}

/*
 * The controller character device (/dev/nvmeN) of the namespace @d: the
 * sysfs "device" of a namespace disk is its controller, or, with native
 * multipath, the subsystem that lists its controllers.  0 or -1.
 */
static int nvme_ctrl_node(const struct ssl_dev *d, char *buf, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX], *disk;
	const char *b;
	struct dirent *de;
	unsigned int n;
	int ret = -1;
	DIR *dh;

	disk = strdup(d->name);
	if (!disk)
		return -1;
	if (d->is_partition) {
		/* nvme0n1p1 -> nvme0n1 */
		char *p = strrchr(disk, 'p');

		if (p && p != disk)
			*p = '\0';
	}
	snprintf(dir, sizeof(dir), "/sys/class/block/%s/device", disk);
	free(disk);
	if (!realpath(dir, real))
		return -1;
	b = base_name(real);
	if (sscanf(b, "nvme%u", &n) == 1 && strspn(b + 4, "0123456789") == strlen(b + 4)) {
		fmt(buf, len, "/dev/%s", b);
		return 0;
	}
	dh = opendir(real);
	if (!dh)
		return -1;
	while ((de = readdir(dh))) {
		b = de->d_name;
		if (strncmp(b, "nvme", 4) || !b[4] ||
		    strspn(b + 4, "0123456789") != strlen(b + 4))
			continue;
		fmt(buf, len, "/dev/%s", b);
		ret = 0;
		break;
	}
	closedir(dh);
	return ret;
}

/*
 * After a format or sanitize: make the kernel look at the namespace again
 * (controller rescan, partition table re-read), then re-read the facts.
 */
static void nvme_rescan(struct ssl_dev *d, int fd)
{
	uint64_t t0, size = 0;
	char ctrl[128];

	if (!nvme_ctrl_node(d, ctrl, sizeof(ctrl))) {
		int cfd = open(ctrl, O_RDONLY | O_CLOEXEC);

		if (cfd >= 0) {
			if (nvme_ns_rescan(cfd))
				ssl_err("%s: namespace rescan: %s (continuing)",
					ctrl, strerror(errno));
			close(cfd);
		}
	}
	ssl_msleep(RESCAN_SETTLE_MS);
	/* EINVAL: a partition, or a disk without partitions */
	if (ioctl(fd, BLKRRPART) && errno != EINVAL)
		ssl_err("%s: re-reading the partition table: %s (continuing)",
			d->path, strerror(errno));

	/* a namespace being revalidated may read as empty for a moment */
	t0 = ssl_now_ms();
	while ((ioctl(fd, BLKGETSIZE64, &size) || !size) &&
	       ssl_now_ms() - t0 < RESCAN_WAIT_MS)
		ssl_msleep(200);
	if (size)
		d->capacity_bytes = size;
	else
		ssl_err("%s: the device reads as empty after the purge", d->path);
	nvme_facts(d, fd);
}

/* sanitize: 0 done, 1 refused by the device (not started), -1 failed */
static int nvme_sanitize(struct ssl_dev *d, int fd, enum nvme_sanitize_sanact act,
			 char *detail, size_t len)
{
	struct nvme_sanitize_log_page log;
	struct nvme_sanitize_nvm_args args;
	const char *what = act == NVME_SANITIZE_SANACT_START_BLOCK_ERASE ? "block erase" :
			   act == NVME_SANITIZE_SANACT_START_CRYPTO_ERASE ? "crypto erase" :
			   "overwrite";
	uint64_t t0, wait_ms, est_s = 0;
	unsigned int fails = 0, st;
	__u32 est;
	int r, err, seen = 0;

	r = nvme_get_log_sanitize(fd, false, &log);
	if (r) {
		nvme_report(d->path, "sanitize status log", r, errno);
		return -1;
	}
	if ((le16toh(log.sstat) & NVME_SANITIZE_SSTAT_STATUS_MASK) ==
	    NVME_SANITIZE_SSTAT_STATUS_IN_PROGESS) {
		ssl_err("%s: a sanitize is already in progress (%u%% done): wait for it",
			d->path, le16toh(log.sprog) * 100u / 65536u);
		return -1;
	}

	memset(&args, 0, sizeof(args));
	args.args_size = sizeof(args);
	args.fd = fd;
	args.timeout = NVME_DEFAULT_IOCTL_TIMEOUT;
	args.sanact = act;
	args.ovrpat = 0;
	args.ause = true;	/* a failure can be left with Exit Failure Mode */
	args.owpass = 1;	/* 0 would mean 16 passes */
	args.oipbp = false;
	args.nodas = false;	/* deallocate after: the fresh-out-of-box state */
	r = nvme_sanitize_nvm(&args);
	if (r) {
		nvme_report(d->path, "Sanitize", r, errno);
		return r > 0 ? 1 : -1;
	}

	wait_ms = (uint64_t)(act == NVME_SANITIZE_SANACT_START_OVERWRITE ?
			     SANITIZE_OVERWRITE_WAIT_S : SANITIZE_WAIT_S) * 1000;
	t0 = ssl_now_ms();
	for (;;) {
		r = nvme_get_log_sanitize(fd, false, &log);
		if (r) {
			err = errno;
			if (++fails > SANITIZE_LOG_RETRIES) {
				nvme_report(d->path, "sanitize status log", r, err);
				ssl_err("%s: lost track of the sanitize: it may still be running",
					d->path);
				return -1;
			}
		} else {
			fails = 0;
			st = le16toh(log.sstat) & NVME_SANITIZE_SSTAT_STATUS_MASK;
			if (!seen) {
				seen = 1;
				est = le32toh(act == NVME_SANITIZE_SANACT_START_BLOCK_ERASE ? log.etbe :
					      act == NVME_SANITIZE_SANACT_START_CRYPTO_ERASE ? log.etce :
					      log.eto);
				if (est && est != 0xffffffffu)
					est_s = est;
				if (est_s * 2 * 1000 + 600000 > wait_ms)
					wait_ms = est_s * 2 * 1000 + 600000;
			}
			if (st == NVME_SANITIZE_SSTAT_STATUS_COMPLETE_SUCCESS ||
			    st == NVME_SANITIZE_SSTAT_STATUS_ND_COMPLETE_SUCCESS)
				break;
			if (st == NVME_SANITIZE_SSTAT_STATUS_COMPLETED_FAILED) {
				ssl_err("%s: sanitize (%s) failed (SSTAT 0x%x): the controller "
					"is in sanitize failure mode until a sanitize succeeds",
					d->path, what, le16toh(log.sstat));
				return -1;
			}
			if (st == NVME_SANITIZE_SSTAT_STATUS_NEVER_SANITIZED &&
			    ssl_now_ms() - t0 > SANITIZE_START_S * 1000) {
				ssl_err("%s: sanitize (%s) accepted but never reported as started",
					d->path, what);
				return -1;
			}
		}
		if (ssl_now_ms() - t0 > wait_ms) {
			ssl_err("%s: sanitize (%s) still running after %llu s (%u%% done): "
				"giving up waiting; it goes on in the controller",
				d->path, what, (unsigned long long)(wait_ms / 1000),
				le16toh(log.sprog) * 100u / 65536u);
			return -1;
		}
		ssl_msleep(SANITIZE_POLL_MS);
	}
	fmt(detail, len, "Sanitize NVM, SANACT=%d (%s), AUSE=1, deallocate after, "
	    "SSTAT 0x%x, %.1f s", (int)act, what, le16toh(log.sstat),
	    (ssl_now_ms() - t0) / 1000.0);
	nvme_rescan(d, fd);
	return 0;
}

/* Format NVM, user data erase, current LBA format: 0, 1 refused, -1 failed */
static int nvme_format(struct ssl_dev *d, int fd, char *detail, size_t len)
{
	struct nvme_format_nvm_args args;
	struct nvme_id_ns *ns;
	__u32 result = 0;
	int r, ret = -1;
	__u8 idx;

	ns = malloc(sizeof(*ns));
	if (!ns) {
		ssl_err("%s: out of memory", d->path);
		return -1;
	}
	r = nvme_identify_ns(fd, d->nsid, ns);
	if (r) {
		nvme_report(d->path, "identify namespace", r, errno);
		goto out_free;
	}
	nvme_id_ns_flbas_to_lbaf_inuse(ns->flbas, &idx);

	/* the same LBA format, metadata and protection settings: only erase */
	memset(&args, 0, sizeof(args));
	args.result = &result;
	args.args_size = sizeof(args);
	args.fd = fd;
	args.timeout = FORMAT_TIMEOUT_MS;
	args.nsid = d->nsid;
	args.mset = (ns->flbas & NVME_NS_FLBAS_META_EXT) ?
		    NVME_FORMAT_MSET_EXTENDED : NVME_FORMAT_MSET_SEPARATE;
	args.pi = (enum nvme_cmd_format_pi)(ns->dps & NVME_NS_DPS_PI_MASK);
	args.pil = (ns->dps & NVME_NS_DPS_PI_FIRST) ?
		   NVME_FORMAT_PIL_FIRST : NVME_FORMAT_PIL_LAST;
	args.ses = NVME_FORMAT_SES_USER_DATA_ERASE;
	args.lbaf = idx & 0xf;
	args.lbafu = (idx >> 4) & 0x3;
	r = nvme_format_nvm(&args);
	if (r) {
		nvme_report(d->path, "Format NVM", r, errno);
		ret = r > 0 ? 1 : -1;
		goto out_free;
	}
	fmt(detail, len, "Format NVM, SES=1 (user data erase), LBAF %u, nsid %u",
	    (unsigned int)idx, (unsigned int)d->nsid);
	nvme_rescan(d, fd);
	ret = 0;

out_free:
	free(ns);
	return ret;
}

/*
 * Why a Sanitize of @d reaches beyond its namespace, into @why; 0 when it
 * does not.  Sanitize erases the whole NVM subsystem.
 */
static int sanitize_beyond(const struct nvme_reach *r, char *why, size_t len)
{
	if (r->nctrl > 1)
		fmt(why, len, "Sanitize erases the whole subsystem %s: %u controllers, "
		    "namespaces %s", r->subsys, r->nctrl, r->ns);
	else if (r->others)
		fmt(why, len, "Sanitize erases the whole subsystem: the controller has "
		    "%u other active namespace%s", r->others, r->others == 1 ? "" : "s");
	else if (r->allocated > 1)
		fmt(why, len, "Sanitize erases the whole subsystem: %u namespaces are "
		    "allocated, this controller sees 1", r->allocated);
	else if (r->nns > 1)
		fmt(why, len, "Sanitize erases the whole subsystem %s: namespaces %s",
		    r->subsys, r->ns);
	else
		return 0;
	return 1;
}

/*
 * Why an NVMe purge command cannot run on @d: NULL when it can.  @all: 1
 * when the command erases every namespace (sanitize; @may_force: --force
 * lets it), -1 when FNA tells (Format NVM with a secure erase).  @why
 * (@len bytes) holds a built reason.
 */
static const char *nvme_refusal(const struct ssl_dev *d, int fd, int all,
				int may_force, char *why, size_t len)
{
	struct nvme_reach r;

	if (!d->is_nvme)
		return "it is not an NVMe namespace";
	if (d->is_partition)
		return "it is a partition: the command erases the whole namespace";
	if (nvme_scope(d, fd, &r))
		return "the namespaces it would erase are unknown";
	if (all > 0) {
		if (!sanitize_beyond(&r, why, len))
			return NULL;
		if (may_force)
			return NULL;
		list_add(why, len, "%s", d->force_scope ? "which --purge=auto does not do" :
			 "--force to erase them all");
		return why;
	}
	/* Format NVM: FNA says whether it spans namespaces */
	all = !!(r.fna & (NVME_CTRL_FNA_FMT_ALL_NAMESPACES |
			  NVME_CTRL_FNA_SEC_ALL_NAMESPACES));
	if (all && r.others) {
		fmt(why, len, "the controller has %u other active namespace%s that "
		    "it would erase too", r.others, r.others == 1 ? "" : "s");
		return why;
	}
	return NULL;
}

/* ---- block layer discard ---- */

/* BLKSECDISCARD or BLKDISCARD over the whole device: 0, 1 unsupported, -1 */
static int blk_discard(struct ssl_dev *d, int fd, int secure, char *detail,
		       size_t len)
{
	const char *name = secure ? "BLKSECDISCARD" : "BLKDISCARD";
	uint64_t range[2] = { 0, 0 };

	if (ioctl(fd, BLKGETSIZE64, &range[1])) {
		ssl_err("%s: BLKGETSIZE64: %s", d->path, strerror(errno));
		return -1;
	}
	d->capacity_bytes = range[1];
	if (!range[1]) {
		ssl_err("%s: the device is empty (0 bytes)", d->path);
		return -1;
	}
	if (ioctl(fd, secure ? BLKSECDISCARD : BLKDISCARD, range)) {
		if (errno == EOPNOTSUPP)
			return 1;
		ssl_err("%s: %s over %llu bytes: %s", d->path, name,
			(unsigned long long)range[1], strerror(errno));
		return -1;
	}
	fmt(detail, len, "%s over %llu bytes", name, (unsigned long long)range[1]);
	return 0;
}

/* ---- the API ---- */

int ssl_dev_probe(const char *path, struct ssl_dev *d)
{
	char dev_dir[64], disk_dir[PATH_MAX], real[PATH_MAX];
	unsigned int pbs = 0;
	struct stat st;
	int fd, lbs = 0, is_part = 0, have_sysfs;

	memset(d, 0, sizeof(*d));
	d->lbaf_index = d->lbaf_data_bytes = d->lbaf_metadata_bytes = -1;
	d->vwc_present = -1;
	d->wc = SSL_WC_UNKNOWN;
	d->can_secdiscard = -1;

	if (strlen(path) >= sizeof(d->path)) {
		ssl_err("%s: path too long", path);
		return -1;
	}
	snprintf(d->path, sizeof(d->path), "%s", path);
	if (stat(path, &st)) {
		ssl_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		ssl_err("%s: not a block device", path);
		return -1;
	}
	d->dev_major = major(st.st_rdev);
	d->dev_minor = minor(st.st_rdev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ssl_err("%s: %s%s", path, strerror(errno),
			errno == EACCES ? " (run as root)" : "");
		return -1;
	}
	if (ioctl(fd, BLKGETSIZE64, &d->capacity_bytes)) {
		ssl_err("%s: BLKGETSIZE64: %s", path, strerror(errno));
		goto out_close;
	}
	if (!ioctl(fd, BLKSSZGET, &lbs) && lbs > 0)
		d->logical_block_size = (unsigned int)lbs;
	if (!ioctl(fd, BLKPBSZGET, &pbs))
		d->physical_block_size = pbs;

	have_sysfs = !sysfs_dirs(fd, dev_dir, sizeof(dev_dir), disk_dir,
				 sizeof(disk_dir), &is_part);
	if (have_sysfs && realpath(dev_dir, real))
		fmt(d->name, sizeof(d->name), "%s", base_name(real));
	else
		fmt(d->name, sizeof(d->name), "%s", base_name(path));
	d->is_partition = is_part;
	fmt(d->disk, sizeof(d->disk), "%s", have_sysfs ? base_name(disk_dir) : d->name);

	/* only an NVMe disk gets NVMe ioctls: nvme<ctrl>n<ns> */
	if (have_sysfs && !strncmp(base_name(disk_dir), "nvme", 4))
		nvme_facts(d, fd);
	if (have_sysfs)
		sysfs_facts(d, disk_dir);
	/* a SCSI disk (SATA behind libata, SAS): ATA or SCSI commands */
	fmt(real, sizeof(real), "%s/device/scsi_disk", disk_dir);
	if (have_sysfs && !d->is_nvme && path_exists(real))
		ssl_sg_facts(d, fd);
	close(fd);
	return 0;

out_close:
	close(fd);
	return -1;
}

/* The device's dev_t and, for a whole disk, its partitions'. */
static size_t dev_family(const struct ssl_dev *d, struct blk_ent *e, size_t max)
{
	char dir[256], path[600];
	struct dirent *de;
	size_t n = 0;
	DIR *dh;

	snprintf(dir, sizeof(dir), "/sys/class/block/%s", d->name);
	snprintf(path, sizeof(path), "%s/dev", dir);
	if (sysfs_majmin(path, &e[0].maj, &e[0].min))
		return 0;
	fmt(e[0].name, sizeof(e[0].name), "%s", d->name);
	n = 1;
	if (d->is_partition)
		return n;
	dh = opendir(dir);
	if (!dh)
		return n;
	while (n < max && (de = readdir(dh))) {
		if (de->d_name[0] == '.' ||
		    strncmp(de->d_name, d->name, strlen(d->name)))
			continue;
		snprintf(path, sizeof(path), "%s/%s/partition", dir, de->d_name);
		if (!path_exists(path))
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", dir, de->d_name);
		if (sysfs_majmin(path, &e[n].maj, &e[n].min))
			continue;
		fmt(e[n].name, sizeof(e[n].name), "%s", de->d_name);
		n++;
	}
	closedir(dh);
	return n;
}

static const struct blk_ent *family_find(const struct blk_ent *e, size_t n,
					 const char *node)
{
	struct stat st;
	size_t i;

	if (node[0] != '/' || stat(node, &st) || !S_ISBLK(st.st_mode))
		return NULL;
	for (i = 0; i < n; i++)
		if (e[i].maj == major(st.st_rdev) && e[i].min == minor(st.st_rdev))
			return &e[i];
	return NULL;
}

/* /proc/self/mounts escapes blanks as \040 and such: decode in place */
static void unescape_octal(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

/* What holds @d (or its partitions): holders, mounts, swap; into @buf. */
static void busy_reasons(const struct ssl_dev *d, char *buf, size_t len)
{
	struct blk_ent fam[MAX_FAMILY];
	char path[600], dm[128], *line = NULL;
	char src[4096], mnt[4096];
	const struct blk_ent *e;
	struct dirent *de;
	size_t n, i, cap = 0;
	FILE *f;
	DIR *dh;

	buf[0] = '\0';
	n = dev_family(d, fam, ARRAY_SIZE(fam));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/holders",
			 fam[i].name);
		dh = opendir(path);
		if (!dh)
			continue;
		while ((de = readdir(dh))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/sys/class/block/%s/dm/name",
				 de->d_name);
			if (sysfs_str(path, dm, sizeof(dm)))
				dm[0] = '\0';
			list_add(buf, len, "%s%sheld by %s%s%s%s",
				 i ? fam[i].name : "", i ? " " : "", de->d_name,
				 dm[0] ? " (" : "", dm, dm[0] ? ")" : "");
		}
		closedir(dh);
	}

	f = fopen("/proc/self/mounts", "re");
	if (f) {
		while (getline(&line, &cap, f) > 0) {
			if (sscanf(line, "%4095s %4095s", src, mnt) != 2)
				continue;
			unescape_octal(src);
			e = family_find(fam, n, src);
			if (!e)
				continue;
			unescape_octal(mnt);
			list_add(buf, len, "%s mounted at %s", e->name, mnt);
		}
		fclose(f);
	}

	f = fopen("/proc/swaps", "re");
	if (f) {
		while (getline(&line, &cap, f) > 0) {
			if (sscanf(line, "%4095s", src) != 1)
				continue;
			unescape_octal(src);
			e = family_find(fam, n, src);
			if (e)
				list_add(buf, len, "%s in use as swap", e->name);
		}
		fclose(f);
	}
	free(line);
}

int ssl_dev_open_excl(const struct ssl_dev *d, int allow_partition)
{
	char dev_dir[64], disk_dir[PATH_MAX], real[PATH_MAX];
	int fd, is_part = 0;

	if (d->is_partition && !allow_partition) {
		ssl_err("%s is a partition (%s): SNIA PTS tests a whole device; "
			"pass --allow-partition to test it anyway", d->path, d->name);
		return -1;
	}
	fd = open(d->path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		if (err == EBUSY) {
			char why[1024];

			busy_reasons(d, why, sizeof(why));
			if (why[0])
				ssl_err("%s is mounted or in use (%s)", d->path, why);
			else
				ssl_err("%s is mounted or in use (another program holds "
					"it open exclusively)", d->path);
		} else {
			ssl_err("%s: %s%s", d->path, strerror(err),
				err == EACCES || err == EROFS ?
				" (opening for writing)" : "");
		}
		return -1;
	}
	/* the node must still be the device probed */
	if (!sysfs_dirs(fd, dev_dir, sizeof(dev_dir), disk_dir, sizeof(disk_dir),
			&is_part) && realpath(dev_dir, real) &&
	    strcmp(base_name(real), d->name)) {
		ssl_err("%s now is %s, not the %s probed: refusing", d->path,
			base_name(real), d->name);
		close(fd);
		return -1;
	}
	return fd;
}

void ssl_dev_health(const struct ssl_dev *d, struct ssl_health *h)
{
	struct nvme_smart_log *log;
	int fd;

	memset(h, 0, sizeof(*h));
	if (!d->is_nvme)
		return;
	log = malloc(sizeof(*log));
	if (!log)
		return;
	fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto out_free;
	if (nvme_get_log_smart(fd, NVME_NSID_ALL, false, log))
		goto out_close;
	h->have = 1;
	h->temperature_k = log->temperature[0] | log->temperature[1] << 8;
	h->data_units_read = le128(log->data_units_read);
	h->data_units_written = le128(log->data_units_written);
	h->host_read_commands = le128(log->host_reads);
	h->host_write_commands = le128(log->host_writes);
	h->power_on_hours = le128(log->power_on_hours);
	h->media_errors = le128(log->media_errors);
	h->percentage_used = log->percent_used;
	h->critical_warning = log->critical_warning;
	h->available_spare = log->avail_spare;

out_close:
	close(fd);
out_free:
	free(log);
}

int ssl_dev_set_write_cache(struct ssl_dev *d, int on)
{
	enum ssl_wc want = on ? SSL_WC_ENABLED : SSL_WC_DISABLED;
	__u32 result = 0;
	int fd, r;

	if (d->bus == SSL_BUS_ATA || d->bus == SSL_BUS_SCSI)
		return ssl_sg_set_write_cache(d, on);
	if (!d->is_nvme) {
		ssl_err("%s: neither NVMe nor a SCSI or ATA disk: ssdload cannot set "
			"its write cache", d->path);
		return -1;
	}
	if (d->vwc_present != 1) {
		ssl_err("%s: the controller has no volatile write cache (VWC 0)",
			d->path);
		return -1;
	}
	fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ssl_err("%s: %s", d->path, strerror(errno));
		return -1;
	}
	r = nvme_set_features_volatile_wc(fd, on, false, &result);
	if (r) {
		nvme_report(d->path, on ? "Set Features, volatile write cache on" :
			    "Set Features, volatile write cache off", r, errno);
		d->wc = nvme_wc(fd);
		goto out_close;
	}
	d->wc = nvme_wc(fd);
	if (d->wc != want) {
		ssl_err("%s: the write cache reads %s after Set Features (wanted %s)",
			d->path, ssl_wc_name(d->wc), ssl_wc_name(want));
		r = -1;
	}

out_close:
	close(fd);
	return r ? -1 : 0;
}

/* The sanitize action SANICAP allows: block erase, crypto erase, overwrite. */
static int sanitize_action(const struct ssl_dev *d, int overwrite_ok,
			   enum nvme_sanitize_sanact *act)
{
	if (d->can_sanitize_block)
		*act = NVME_SANITIZE_SANACT_START_BLOCK_ERASE;
	else if (d->can_sanitize_crypto)
		*act = NVME_SANITIZE_SANACT_START_CRYPTO_ERASE;
	else if (overwrite_ok && d->can_sanitize_overwrite)
		*act = NVME_SANITIZE_SANACT_START_OVERWRITE;
	else
		return -1;
	return 0;
}

/* AUTO: the first method that the device has; see device.h */
static int purge_auto(struct ssl_dev *d, int fd, enum ssl_purge *used,
		      char *detail, size_t len)
{
	enum nvme_sanitize_sanact act;
	const char *no;
	char why[640];
	int r;

	if (d->is_nvme && !d->is_partition) {
		if (!sanitize_action(d, 0, &act)) {
			no = nvme_refusal(d, fd, 1, 0, why, sizeof(why));
			r = no ? 1 : nvme_sanitize(d, fd, act, detail, len);
			if (r <= 0) {
				*used = SSL_PURGE_SANITIZE;
				return r;
			}
			ssl_err("%s: no sanitize (%s): trying the next method%s",
				d->path, no ? no : "the controller refused it",
				d->can_format ? ", Format NVM with user data erase of "
				"this namespace only" : "");
		}
		if (d->can_format) {
			no = nvme_refusal(d, fd, -1, 0, why, sizeof(why));
			r = no ? 1 : nvme_format(d, fd, detail, len);
			if (r <= 0) {
				*used = SSL_PURGE_FORMAT;
				return r;
			}
			ssl_err("%s: no Format NVM (%s): trying the next method",
				d->path, no ? no : "the controller refused it");
		}
	}
	if ((d->bus == SSL_BUS_ATA || d->bus == SSL_BUS_SCSI) && !d->is_partition) {
		r = ssl_sg_purge(d, fd, SSL_PURGE_AUTO, used, detail, len);
		if (r <= 0)
			return r;
		ssl_err("%s: no purge command: trying a discard or an overwrite, "
			"which the record marks as not conformant", d->path);
	}
	if (d->can_secdiscard) {
		r = blk_discard(d, fd, 1, detail, len);
		if (r <= 0) {
			*used = SSL_PURGE_SECDISCARD;
			return r;
		}
	}
	if (d->can_discard) {
		r = blk_discard(d, fd, 0, detail, len);
		if (r <= 0) {
			*used = SSL_PURGE_DISCARD;
			return r;
		}
	}
	*used = SSL_PURGE_OVERWRITE;
	fmt(detail, len, "no erase command: one full overwrite by the caller");
	return 0;
}

/*
 * An explicit @method that @d cannot take: -1 after a message saying why,
 * else 0 (*@act: the sanitize action).  The same for a purge and its plan.
 */
static int purge_refused(const struct ssl_dev *d, int fd, enum ssl_purge method,
			 enum nvme_sanitize_sanact *act)
{
	const char *no = NULL;
	char why[640];

	if (method == SSL_PURGE_SECERASE && d->bus != SSL_BUS_ATA)
		no = "it is not an ATA drive (Security Erase is an ATA command)";
	else if ((d->bus == SSL_BUS_ATA || d->bus == SSL_BUS_SCSI) &&
		 (method == SSL_PURGE_SANITIZE || method == SSL_PURGE_FORMAT ||
		  method == SSL_PURGE_SECERASE))
		no = ssl_sg_refusal(d, method);
	else
		goto nvme;
	if (no)
		ssl_err("%s: cannot %s: %s", d->path, ssl_purge_name(method), no);
	return no ? -1 : 0;
nvme:
	switch (method) {
	case SSL_PURGE_SANITIZE:
		no = nvme_refusal(d, fd, 1, d->force_scope, why, sizeof(why));
		if (!no && sanitize_action(d, 1, act))
			no = "the controller supports no sanitize action (SANICAP)";
		if (no)
			ssl_err("%s: cannot sanitize: %s", d->path, no);
		break;
	case SSL_PURGE_FORMAT:
		no = nvme_refusal(d, fd, -1, 0, why, sizeof(why));
		if (!no && !d->can_format)
			no = "the controller does not support Format NVM (OACS)";
		if (no)
			ssl_err("%s: cannot format: %s", d->path, no);
		break;
	case SSL_PURGE_SECDISCARD:
	case SSL_PURGE_DISCARD:
		if (method == SSL_PURGE_SECDISCARD ? !d->can_secdiscard : !d->can_discard)
			no = method == SSL_PURGE_SECDISCARD ? "secure discard" : "discard";
		if (no)
			ssl_err("%s: the device does not support %s", d->path, no);
		break;
	default:
		break;
	}
	return no ? -1 : 0;
}

int ssl_dev_purge(struct ssl_dev *d, int fd, enum ssl_purge method,
		  enum ssl_purge *used, char *detail, size_t len)
{
	enum nvme_sanitize_sanact act;
	int r;

	*used = SSL_PURGE_NONE;
	fmt(detail, len, "%s", "");
	if (purge_refused(d, fd, method, &act))
		return -1;
	if (d->bus == SSL_BUS_ATA || d->bus == SSL_BUS_SCSI) {
		if (method == SSL_PURGE_SANITIZE || method == SSL_PURGE_FORMAT ||
		    method == SSL_PURGE_SECERASE)
			return ssl_sg_purge(d, fd, method, used, detail, len) ? -1 : 0;
	}
	switch (method) {
	case SSL_PURGE_NONE:
		fmt(detail, len, "none: the device was not purged");
		return 0;
	case SSL_PURGE_OVERWRITE:
		*used = SSL_PURGE_OVERWRITE;
		fmt(detail, len, "one full overwrite by the caller");
		return 0;
	case SSL_PURGE_AUTO:
		return purge_auto(d, fd, used, detail, len) ? -1 : 0;
	case SSL_PURGE_SANITIZE:
		if (nvme_sanitize(d, fd, act, detail, len))
			return -1;
		*used = SSL_PURGE_SANITIZE;
		return 0;
	case SSL_PURGE_FORMAT:
		if (nvme_format(d, fd, detail, len))
			return -1;
		*used = SSL_PURGE_FORMAT;
		return 0;
	case SSL_PURGE_SECDISCARD:
	case SSL_PURGE_DISCARD:
		r = blk_discard(d, fd, method == SSL_PURGE_SECDISCARD, detail, len);
		if (r > 0)
			ssl_err("%s: the device does not support %s (EOPNOTSUPP)",
				d->path, method == SSL_PURGE_SECDISCARD ?
				"secure discard" : "discard");
		if (r)
			return -1;
		*used = method;
		return 0;
	case SSL_PURGE_SECERASE:	/* ATA only: handled above */
		break;
	}
	ssl_err("%s: unknown purge method %d", d->path, (int)method);
	return -1;
}

/* ---- the plan of a purge (--dry-run) ---- */

/* The scope of an NVMe Sanitize (@sanitize) or Format NVM of @d, into @buf. */
static void plan_scope(const struct ssl_dev *d, int fd, int sanitize, char *buf,
		       size_t len)
{
	struct nvme_reach r;

	if (nvme_scope(d, fd, &r)) {
		fmt(buf, len, "scope unknown");
		return;
	}
	if (sanitize) {
		fmt(buf, len, "scope: the whole NVM subsystem%s%s, %u controller%s, "
		    "namespaces %s", r.subsys[0] ? " " : "", r.subsys,
		    r.nctrl ? r.nctrl : 1, r.nctrl > 1 ? "s" : "",
		    r.ns[0] ? r.ns : d->name);
		if (r.others)
			list_add(buf, len, "%u other active namespace%s of this controller",
				 r.others, r.others == 1 ? "" : "s");
		if (r.allocated > r.others + 1)
			list_add(buf, len, "%u allocated namespaces in all", r.allocated);
		return;
	}
	if ((r.fna & (NVME_CTRL_FNA_FMT_ALL_NAMESPACES |
		      NVME_CTRL_FNA_SEC_ALL_NAMESPACES)) && r.others)
		fmt(buf, len, "scope: every namespace of the controller (FNA)");
	else
		fmt(buf, len, "scope: namespace %u (%s) only", (unsigned int)d->nsid,
		    d->name);
	/* what a Sanitize would have reached, and this format leaves */
	if (r.nctrl > 1 || r.nns > 1)
		list_add(buf, len, "not the rest of subsystem %s (%u controller%s, "
			 "namespaces %s)", r.subsys, r.nctrl, r.nctrl == 1 ? "" : "s",
			 r.ns);
}

static const char *sanact_name(enum nvme_sanitize_sanact act)
{
	return act == NVME_SANITIZE_SANACT_START_BLOCK_ERASE ? "block erase" :
	       act == NVME_SANITIZE_SANACT_START_CRYPTO_ERASE ? "crypto erase" :
	       "overwrite";
}

/* --purge=auto: what purge_auto() would try first */
static void plan_auto(const struct ssl_dev *d, int fd, char *buf, size_t len)
{
	enum nvme_sanitize_sanact act;
	char why[640] = "", scope[768];
	const char *no = NULL;

	if (d->is_nvme && !d->is_partition) {
		if (sanitize_action(d, 0, &act)) {
			no = "the controller supports none";
		} else {
			no = nvme_refusal(d, fd, 1, 0, why, sizeof(why));
			if (!no) {
				plan_scope(d, fd, 1, scope, sizeof(scope));
				fmt(buf, len, "Sanitize (%s), else the next method if the "
				    "controller refuses it; %s", sanact_name(act), scope);
				return;
			}
		}
		if (d->can_format && !nvme_refusal(d, fd, -1, 0, why, sizeof(why))) {
			plan_scope(d, fd, 0, scope, sizeof(scope));
			fmt(buf, len, "Format NVM with user data erase%s%s%s; %s",
			    no ? " (no Sanitize: " : "", no ? no : "", no ? ")" : "",
			    scope);
			return;
		}
	}
	if ((d->bus == SSL_BUS_ATA || d->bus == SSL_BUS_SCSI) && !d->is_partition &&
	    !ssl_sg_plan(d, SSL_PURGE_AUTO, buf, len))
		return;
	if (d->can_secdiscard)
		fmt(buf, len, "BLKSECDISCARD, else %s, over %llu bytes; scope: the "
		    "whole device %s", d->can_discard ? "BLKDISCARD" :
		    "one sequential write pass", (unsigned long long)d->capacity_bytes,
		    d->path);
	else if (d->can_discard)
		fmt(buf, len, "BLKDISCARD over %llu bytes; scope: the whole device %s",
		    (unsigned long long)d->capacity_bytes, d->path);
	else
		fmt(buf, len, "one sequential write pass over %llu bytes; scope: the "
		    "whole device %s", (unsigned long long)d->capacity_bytes, d->path);
}

int ssl_dev_purge_plan(const struct ssl_dev *d, int fd, enum ssl_purge method,
		       char *buf, size_t len)
{
	enum nvme_sanitize_sanact act;
	char scope[768];

	if (purge_refused(d, fd, method, &act))
		return -1;
	if ((d->bus == SSL_BUS_ATA || d->bus == SSL_BUS_SCSI) &&
	    (method == SSL_PURGE_SANITIZE || method == SSL_PURGE_FORMAT ||
	     method == SSL_PURGE_SECERASE))
		return ssl_sg_plan(d, method, buf, len) ? -1 : 0;
	switch (method) {
	case SSL_PURGE_NONE:
		fmt(buf, len, "none: the device is not purged");
		return 0;
	case SSL_PURGE_OVERWRITE:
		fmt(buf, len, "one sequential write pass over %llu bytes; scope: the "
		    "whole device %s", (unsigned long long)d->capacity_bytes, d->path);
		return 0;
	case SSL_PURGE_AUTO:
		plan_auto(d, fd, buf, len);
		return 0;
	case SSL_PURGE_SANITIZE:
		plan_scope(d, fd, 1, scope, sizeof(scope));
		fmt(buf, len, "Sanitize (%s); %s", sanact_name(act), scope);
		return 0;
	case SSL_PURGE_FORMAT:
		plan_scope(d, fd, 0, scope, sizeof(scope));
		fmt(buf, len, "Format NVM with user data erase; %s", scope);
		return 0;
	case SSL_PURGE_SECDISCARD:
	case SSL_PURGE_DISCARD:
		fmt(buf, len, "%s over %llu bytes; scope: the whole device %s",
		    method == SSL_PURGE_SECDISCARD ? "BLKSECDISCARD" : "BLKDISCARD",
		    (unsigned long long)d->capacity_bytes, d->path);
		return 0;
	case SSL_PURGE_SECERASE:	/* ATA only: handled above */
		break;
	}
	ssl_err("%s: unknown purge method %d", d->path, (int)method);
	return -1;
}
