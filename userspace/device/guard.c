// SPDX-License-Identifier: GPL-2.0
/*
 * The guard of the destructive commands: the device's identity and its
 * signatures (libblkid), printed before any write, and the refusal of a
 * device that holds something unless --force.  See guard.h.
 */
#include <stdio.h>
#include <string.h>

#include <blkid/blkid.h>

#include "device/guard.h"
#include "core/util.h"

/* A label as printed: no control characters, no quotes to confuse */
static void clean_label(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < len; i++)
		dst[i] = (unsigned char)src[i] < 0x20 || src[i] == 0x7f ||
			 src[i] == '"' ? '?' : src[i];
	dst[i] = '\0';
}

/* "a" or "an" before @word */
static const char *article(const char *word)
{
	return strchr("aeiouAEIOU", word[0]) && word[0] ? "an" : "a";
}

/* One signature found by blkid_do_probe(), described into @buf. */
static void sig_describe(blkid_probe pr, char *buf, size_t len)
{
	const char *type = NULL, *usage = NULL, *label = NULL;
	char lab[96] = "", l[128] = "";

	if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL)) {
		snprintf(buf, len, "%s %s partition table", article(type), type);
		return;
	}
	if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL))
		type = "unknown";
	blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
	if (!blkid_probe_lookup_value(pr, "LABEL", &label, NULL) && label[0]) {
		clean_label(lab, sizeof(lab), label);
		snprintf(l, sizeof(l), " (label \"%s\")", lab);
	}
	if (!strcmp(type, "LVM2_member") || !strcmp(type, "LVM1_member"))
		snprintf(buf, len, "an LVM physical volume (%s)%s", type, l);
	else if (!strcmp(type, "linux_raid_member"))
		snprintf(buf, len, "an md RAID superblock (%s)%s", type, l);
	else if (!strcmp(type, "swap"))
		snprintf(buf, len, "a swap area%s", l);
	else if (usage && !strcmp(usage, "filesystem"))
		snprintf(buf, len, "%s %s filesystem%s", article(type), type, l);
	else if (usage && !strcmp(usage, "raid"))
		snprintf(buf, len, "a RAID superblock (%s)%s", type, l);
	else if (usage && !strcmp(usage, "crypto"))
		snprintf(buf, len, "an encrypted volume (%s)%s", type, l);
	else
		snprintf(buf, len, "%s %s signature%s", article(type), type, l);
}

static void sigs_add(struct ssl_sigs *s, const char *what)
{
	size_t n = strlen(s->what);

	/* a signature found twice (primary and backup) is named once */
	if (strstr(s->what, what))
		return;
	s->n++;
	snprintf(s->what + n, sizeof(s->what) - n, "%s%s", n ? ", " : "", what);
}

int ssl_sigs_probe(const char *path, int fd, struct ssl_sigs *s)
{
	blkid_probe pr;
	char what[256];
	int r;

	memset(s, 0, sizeof(*s));
	pr = blkid_new_probe();
	if (!pr) {
		ssl_err("%s: libblkid: out of memory", path);
		return -1;
	}
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		ssl_err("%s: libblkid cannot probe the device's signatures", path);
		blkid_free_probe(pr);
		return -1;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE | BLKID_SUBLKS_MAGIC |
					  BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
	/* every signature in turn, as wipefs lists them */
	while ((r = blkid_do_probe(pr)) == 0) {
		sig_describe(pr, what, sizeof(what));
		sigs_add(s, what);
	}
	blkid_free_probe(pr);
	if (r < 0) {
		ssl_err("%s: libblkid: reading the signatures failed", path);
		return -1;
	}
	return 0;
}

void ssl_dev_identity(const struct ssl_dev *d, char *buf, size_t len)
{
	char sz[32], ns[24] = "";

	ssl_size_str(sz, sizeof(sz), d->capacity_bytes);
	if (d->nsid)
		snprintf(ns, sizeof(ns), ", nsid %u", (unsigned int)d->nsid);
	snprintf(buf, len, "%s, serial %s%s, %s (%llu bytes), dev %u:%u",
		 d->model[0] ? d->model : "model unknown",
		 d->serial[0] ? d->serial : "unknown", ns, sz,
		 (unsigned long long)d->capacity_bytes, d->dev_major, d->dev_minor);
}

int ssl_guard(const struct ssl_dev *d, int fd, int force, int dry_run)
{
	struct ssl_sigs s;
	char id[256];

	if (ssl_sigs_probe(d->path, fd, &s))
		return -1;
	ssl_dev_identity(d, id, sizeof(id));
	fflush(stdout);
	fprintf(stderr, "ssdload: %s %s: %s, holds: %s\n",
		s.n && !force ? "refusing to destroy" :
		dry_run ? "would destroy" : "will destroy",
		d->path, id, s.n ? s.what : "no signature");
	if (s.n && !force) {
		ssl_err("%s: holds %s; --force to destroy it", d->path, s.what);
		return -1;
	}
	return 0;
}

int ssl_dev_check_same(const struct ssl_dev *was, const struct ssl_dev *now,
		       const char *who)
{
	char a[256], b[256];
	int same;

	if (was->serial[0])
		same = !strcmp(was->serial, now->serial) && !strcmp(was->model, now->model) &&
		       was->nsid == now->nsid;
	else
		same = !was->dev_major || (was->dev_major == now->dev_major &&
					   was->dev_minor == now->dev_minor);
	if (same && was->capacity_bytes == now->capacity_bytes)
		return 0;
	ssl_dev_identity(was, a, sizeof(a));
	ssl_dev_identity(now, b, sizeof(b));
	ssl_err("%s: %s is not the device the test started on (%s)\n"
		"  started on: %s\n  now:        %s", who, now->path,
		was->serial[0] ? "serial, model, namespace and capacity" :
		"device number and capacity", a, b);
	return -1;
}
