// SPDX-License-Identifier: GPL-2.0
/*
 * blktrace.c: blktrace's binary output, one file per CPU (DEV.blktrace.N),
 * read with the documented layout of struct blk_io_trace
 * (include/uapi/linux/blktrace_api.h): 48 bytes, then pdu_len bytes of
 * payload (a cgroup id, a remap, a message), in the byte order of the
 * machine that traced, which the magic tells.
 *
 * TRACE names one of the files (DEV.blktrace.0) or their common prefix
 * (DEV): every DEV.blktrace.N beside it is read and the files are merged
 * by time.  A file that is not named so (blktrace -o - > FILE) is read
 * alone, in its own order.
 *
 * The issue of an I/O is its D event (issued to the driver): the request
 * as the device saw it, after merging and splitting, and the start of
 * the D->C time that is the device's response time.  A trace without D
 * events in its first BT_PRESCAN events (a bio-based device such as
 * device-mapper or md only reports Q) takes Q events (queued) instead.
 * A C event (completed) gives the response time of the oldest pending
 * issue at the same device and sector; an issue waits for its completion
 * (at most BT_PEND_MAX issues, BT_PEND_NS of trace time) so that records
 * still come out in issue order.  A requeued request (R) is dropped and
 * counted again at its next D.  Reads, writes, discards and flushes come
 * from the category bits; passthrough (PC) requests and notes are skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/blktrace_api.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/trace-int.h"

#define BT_REC_BYTES	48
#define BT_MAGIC_MASK	0xffffff00U
#define BT_FILES_MAX	4096
#define BT_PRESCAN	16384		/* events per file looked at for D events */
#define BT_PEND_MAX	(1U << 16)	/* issues waiting for their completion */
#define BT_PEND_NS	(60ULL * 1000000000ULL)
#define BT_HASH		(1U << 16)

struct bt_ev {
	uint64_t time;
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	uint32_t device;
	uint16_t pdu_len;
};

struct bt_file {
	FILE *f;
	char *name;
	int swap;		/* the file's byte order is not ours */
	int known;		/* swap is known (after its first record) */
	uint64_t recno;		/* records read, the current one's number */
	uint64_t off;		/* byte offset of the next record */
	struct bt_ev ev;	/* the current event, when have */
	int have;
	int eof;
};

struct bt_pend {
	struct trace_rec rec;
	uint64_t sector;
	uint32_t device;
	int32_t next;		/* hash chain, slot index; -1 ends */
	uint8_t done;		/* completion seen */
	uint8_t linked;		/* on its hash chain */
	uint8_t dropped;	/* requeued: not a record */
};

struct bt {
	struct bt_file *files;
	unsigned int nfiles;
	unsigned int issue;	/* __BLK_TA_ISSUE or __BLK_TA_QUEUE */
	uint64_t base;		/* time of the first issue */
	int started;
	uint64_t now;		/* time of the last event read */
	int eof;
	struct bt_pend *pend;
	uint32_t head, count;
	int32_t *bucket;
	unsigned char pdu[65536];
};

static uint32_t get32(const unsigned char *p, int swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t get64(const unsigned char *p, int swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static uint16_t get16(const unsigned char *p, int swap)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

/* 0 native, 1 swapped, -1 not a blktrace magic (any version) */
static int magic_order(const unsigned char *p)
{
	if ((get32(p, 0) & BT_MAGIC_MASK) == BLK_IO_TRACE_MAGIC)
		return 0;
	if ((get32(p, 1) & BT_MAGIC_MASK) == BLK_IO_TRACE_MAGIC)
		return 1;
	return -1;
}

static int bt_probe(const unsigned char *head, size_t len)
{
	int o;

	if (len < BT_REC_BYTES)
		return 0;
	o = magic_order(head);
	return o >= 0 && (get32(head, o) & 0xff) == BLK_IO_TRACE_VERSION;
}

static int bt_ferr(struct trace *t, struct bt_file *bf, const char *fmt, const char *why,
		   uint64_t a, uint64_t b)
{
	char msg[160];

	snprintf(msg, sizeof(msg), fmt, why, (unsigned long long)a, (unsigned long long)b);
	return trace_fail(t, "%s: record %llu (byte %llu): %s", bf->name,
			  (unsigned long long)bf->recno, (unsigned long long)bf->off, msg);
}

/* the next event of BF: 1, 0 at its end, -1 on a bad or truncated record */
static int bt_read(struct trace *t, struct bt *b, struct bt_file *bf)
{
	unsigned char r[BT_REC_BYTES];
	uint32_t magic;
	size_t n;
	int o;

	bf->have = 0;
	if (bf->eof)
		return 0;
	n = fread(r, 1, sizeof(r), bf->f);
	if (!n && feof(bf->f)) {
		bf->eof = 1;
		return 0;
	}
	bf->recno++;
	if (n != sizeof(r)) {
		if (ferror(bf->f))
			return bt_ferr(t, bf, "%s", strerror(errno), 0, 0);
		return bt_ferr(t, bf, "%struncated: %llu of %llu bytes", "", n, sizeof(r));
	}
	o = magic_order(r);
	if (o < 0 || (bf->known && o != bf->swap))
		return bt_ferr(t, bf, "%sbad magic 0x%08llx (want 0x%llx|version): not blktrace output, or a record boundary lost",
			       "", get32(r, 0), BLK_IO_TRACE_MAGIC);
	bf->swap = o;
	bf->known = 1;
	magic = get32(r, o);
	if ((magic & 0xff) != BLK_IO_TRACE_VERSION)
		return bt_ferr(t, bf, "%sblktrace format version %llu, this reader knows version %llu",
			       "", magic & 0xff, BLK_IO_TRACE_VERSION);
	bf->ev.time = get64(r + 8, o);
	bf->ev.sector = get64(r + 16, o);
	bf->ev.bytes = get32(r + 24, o);
	bf->ev.action = get32(r + 28, o);
	bf->ev.device = get32(r + 36, o);
	bf->ev.pdu_len = get16(r + 46, o);
	if (bf->ev.pdu_len) {
		n = fread(b->pdu, 1, bf->ev.pdu_len, bf->f);
		if (n != bf->ev.pdu_len)
			return bt_ferr(t, bf, "%struncated payload: %llu of %llu bytes", "", n,
				       bf->ev.pdu_len);
	}
	bf->off += sizeof(r) + bf->ev.pdu_len;
	bf->have = 1;
	return 1;
}

/* "DIR/DEV.blktrace.N" -> the length of "DIR/DEV"; 0 when not so named */
static size_t prefix_len(const char *path)
{
	const char *s = strstr(path, ".blktrace."), *last = NULL;

	while (s) {
		last = s;
		s = strstr(s + 1, ".blktrace.");
	}
	if (!last || !last[10] || strspn(last + 10, "0123456789") != strlen(last + 10))
		return 0;
	return (size_t)(last - path);
}

static int add_file(struct trace *t, struct bt *b, const char *name)
{
	struct bt_file *bf;

	if (b->nfiles == BT_FILES_MAX)
		return trace_fail(t, "more than %d blktrace files", BT_FILES_MAX);
	bf = realloc(b->files, (b->nfiles + 1) * sizeof(*bf));
	if (!bf)
		return trace_fail(t, "out of memory");
	b->files = bf;
	bf = &b->files[b->nfiles];
	memset(bf, 0, sizeof(*bf));
	bf->name = strdup(name);
	if (!bf->name)
		return trace_fail(t, "out of memory");
	b->nfiles++;
	bf->f = fopen(name, "rb");
	if (!bf->f)
		return trace_fail(t, "%s: %s", name, strerror(errno));
	return 0;
}

/* every PREFIX.blktrace.N in PREFIX's directory */
static int open_prefix(struct trace *t, struct bt *b, const char *prefix, size_t plen)
{
	char dirbuf[PATH_MAX], base[PATH_MAX], name[PATH_MAX + 256];
	const char *dir, *slash;
	struct dirent *de;
	size_t blen;
	DIR *d;
	int ret = 0;

	if (plen >= sizeof(base))
		return trace_fail(t, "path too long");
	slash = NULL;
	for (blen = 0; blen < plen; blen++)
		if (prefix[blen] == '/')
			slash = prefix + blen;
	if (slash) {
		snprintf(dirbuf, sizeof(dirbuf), "%.*s", (int)(slash - prefix), prefix);
		dir = slash == prefix ? "/" : dirbuf;
		snprintf(base, sizeof(base), "%.*s", (int)(plen - (size_t)(slash - prefix) - 1),
			 slash + 1);
	} else {
		dir = ".";
		snprintf(base, sizeof(base), "%.*s", (int)plen, prefix);
	}
	blen = strlen(base);
	d = opendir(dir);
	if (!d)
		return trace_fail(t, "%s: %s", dir, strerror(errno));
	while (!ret && (de = readdir(d))) {
		const char *s = de->d_name;

		if (strncmp(s, base, blen) || strncmp(s + blen, ".blktrace.", 10) ||
		    !s[blen + 10] || strspn(s + blen + 10, "0123456789") != strlen(s + blen + 10))
			continue;
		if (slash)
			snprintf(name, sizeof(name), "%s/%s", dir, s);
		else
			snprintf(name, sizeof(name), "%s", s);
		ret = add_file(t, b, name);
	}
	closedir(d);
	if (!ret && !b->nfiles)
		return trace_fail(t, "no %.*s.blktrace.N files", (int)plen, prefix);
	return ret;
}

/* look for D events at the start of each file, then rewind them */
static int bt_prescan(struct trace *t, struct bt *b)
{
	unsigned int i, k, saw_d = 0;

	for (i = 0; i < b->nfiles; i++) {
		struct bt_file *bf = &b->files[i];

		for (k = 0; k < BT_PRESCAN; k++) {
			int r = bt_read(t, b, bf);

			if (r < 0)
				return -1;
			if (!r)
				break;
			if ((bf->ev.action & 0xff) == __BLK_TA_ISSUE &&
			    !(bf->ev.action & BLK_TC_ACT(BLK_TC_NOTIFY)))
				saw_d = 1;
		}
		if (fseek(bf->f, 0, SEEK_SET))
			return trace_fail(t, "%s: %s", bf->name, strerror(errno));
		bf->recno = bf->off = 0;
		bf->eof = bf->have = bf->known = 0;
	}
	b->issue = saw_d ? __BLK_TA_ISSUE : __BLK_TA_QUEUE;
	return 0;
}

static int bt_open(struct trace *t)
{
	size_t plen = prefix_len(t->path);
	struct bt *b;
	unsigned int i;

	b = calloc(1, sizeof(*b));
	if (!b)
		return trace_fail(t, "out of memory");
	t->priv = b;
	b->pend = calloc(BT_PEND_MAX, sizeof(*b->pend));
	b->bucket = malloc(BT_HASH * sizeof(*b->bucket));
	if (!b->pend || !b->bucket)
		return trace_fail(t, "out of memory");
	for (i = 0; i < BT_HASH; i++)
		b->bucket[i] = -1;
	if (plen) {
		if (open_prefix(t, b, t->path, plen))
			return -1;
	} else if (t->f) {
		struct stat st;

		if (fstat(fileno(t->f), &st) || S_ISDIR(st.st_mode))
			return trace_fail(t, "a directory: name DIR/DEV.blktrace.0 or DIR/DEV");
		if (add_file(t, b, t->path))
			return -1;
	} else if (open_prefix(t, b, t->path, strlen(t->path))) {
		return -1;
	}
	return bt_prescan(t, b);
}

static uint32_t bt_hash(uint32_t device, uint64_t sector)
{
	uint64_t h = (sector ^ ((uint64_t)device << 40)) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(h >> 48) & (BT_HASH - 1);
}

static void bt_unlink(struct bt *b, uint32_t slot)
{
	struct bt_pend *p = &b->pend[slot];
	int32_t *pp = &b->bucket[bt_hash(p->device, p->sector)];

	while (*pp >= 0) {
		if ((uint32_t)*pp == slot) {
			*pp = p->next;
			break;
		}
		pp = &b->pend[*pp].next;
	}
	p->linked = 0;
}

/* the oldest linked issue at DEVICE and SECTOR, or -1 */
static int32_t bt_find(struct bt *b, uint32_t device, uint64_t sector)
{
	int32_t s = b->bucket[bt_hash(device, sector)], found = -1;

	/* chains are newest first: the last match is the oldest */
	for (; s >= 0; s = b->pend[s].next)
		if (b->pend[s].device == device && b->pend[s].sector == sector)
			found = s;
	return found;
}

static enum trace_op bt_op(uint32_t action, uint32_t bytes)
{
	uint32_t cat = action >> BLK_TC_SHIFT;

	if (cat & BLK_TC_DISCARD)
		return TRACE_TRIM;
	if ((cat & BLK_TC_FLUSH) && !bytes)
		return TRACE_FLUSH;
	return (cat & BLK_TC_WRITE) ? TRACE_WRITE : TRACE_READ;
}

static int bt_issue(struct trace *t, struct bt *b, const struct bt_ev *ev)
{
	uint32_t slot = (b->head + b->count) % BT_PEND_MAX, h;
	struct bt_pend *p = &b->pend[slot];
	enum trace_op op = bt_op(ev->action, ev->bytes);
	char name[24];
	int dev;

	if (!ev->bytes && op != TRACE_FLUSH)
		return 0;	/* no data and not a flush: a zone command, say */
	if (!b->started) {
		b->base = ev->time;
		b->started = 1;
	}
	if (ev->time < b->base)
		return 0;	/* an issue older than the first: CPU clocks apart */
	snprintf(name, sizeof(name), "%u,%u", ev->device >> 20, ev->device & 0xfffff);
	dev = trace_dev_index(t, name);
	if (dev < 0)
		return trace_fail(t, "out of memory");
	memset(p, 0, sizeof(*p));
	p->rec.t_ns = ev->time - b->base;
	p->rec.offset = ev->sector << 9;
	p->rec.len = op == TRACE_FLUSH ? 0 : ev->bytes;
	p->rec.dev = (uint32_t)dev;
	p->rec.op = (uint8_t)op;
	p->sector = ev->sector;
	p->device = ev->device;
	h = bt_hash(ev->device, ev->sector);
	p->next = b->bucket[h];
	b->bucket[h] = (int32_t)slot;
	p->linked = 1;
	b->count++;
	return 0;
}

static void bt_event(struct bt *b, const struct bt_ev *ev, unsigned int code)
{
	int32_t s = bt_find(b, ev->device, ev->sector);
	struct bt_pend *p;

	if (s < 0)
		return;
	p = &b->pend[s];
	if (code == __BLK_TA_COMPLETE) {
		p->rec.resp_ns = ev->time > p->rec.t_ns + b->base ?
				 ev->time - p->rec.t_ns - b->base : 0;
		p->done = 1;
	} else {
		p->dropped = 1;		/* requeued: its next D issues it */
	}
	bt_unlink(b, (uint32_t)s);
}

/* the file with the earliest current event, reading where needed */
static int bt_earliest(struct trace *t, struct bt *b, struct bt_file **out)
{
	struct bt_file *best = NULL;
	unsigned int i;

	for (i = 0; i < b->nfiles; i++) {
		struct bt_file *bf = &b->files[i];

		if (!bf->have && !bf->eof && bt_read(t, b, bf) < 0)
			return -1;
		if (bf->have && (!best || bf->ev.time < best->ev.time))
			best = bf;
	}
	*out = best;
	return 0;
}

/* read one event into the pending issues; 0 at the end of every file */
static int bt_step(struct trace *t, struct bt *b)
{
	struct bt_file *bf;
	struct bt_ev ev;
	unsigned int code;

	if (bt_earliest(t, b, &bf))
		return -1;
	if (!bf)
		return 0;
	ev = bf->ev;
	bf->have = 0;
	b->now = ev.time;
	code = ev.action & 0xff;
	if (ev.action & BLK_TC_ACT(BLK_TC_NOTIFY | BLK_TC_PC))
		return 1;
	if (code == b->issue)
		return bt_issue(t, b, &ev) ? -1 : 1;
	if (code == __BLK_TA_COMPLETE || code == __BLK_TA_REQUEUE)
		bt_event(b, &ev, code);
	return 1;
}

static int bt_next(struct trace *t, struct trace_rec *rec)
{
	struct bt *b = t->priv;
	struct bt_pend *p;
	int r;

	for (;;) {
		if (b->count) {
			p = &b->pend[b->head];
			if (p->dropped || p->done || b->eof || b->count == BT_PEND_MAX ||
			    b->now > b->base + p->rec.t_ns + BT_PEND_NS) {
				if (p->linked)
					bt_unlink(b, b->head);
				b->head = (b->head + 1) % BT_PEND_MAX;
				b->count--;
				if (p->dropped)
					continue;
				*rec = p->rec;
				return 1;
			}
		} else if (b->eof) {
			return 0;
		}
		r = bt_step(t, b);
		if (r < 0)
			return -1;
		if (!r)
			b->eof = 1;
	}
}

static void bt_close(struct trace *t)
{
	struct bt *b = t->priv;
	unsigned int i;

	if (!b)
		return;
	for (i = 0; i < b->nfiles; i++) {
		if (b->files[i].f)
			fclose(b->files[i].f);
		free(b->files[i].name);
	}
	free(b->files);
	free(b->pend);
	free(b->bucket);
	free(b);
	t->priv = NULL;
}

const struct trace_ops trace_blktrace_ops = {
	.fmt = TRACE_FMT_BLKTRACE,
	.name = "blktrace",
	.probe = bt_probe,
	.open = bt_open,
	.next = bt_next,
	.close = bt_close,
};
