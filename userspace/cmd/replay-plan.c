// SPDX-License-Identifier: GPL-2.0
/*
 * replay-plan.c: what ssdload replay does with a trace before the module
 * sees it (Documentation/replay.rst): the targets and their sizes, which
 * target each trace device goes to (--filename in order, --map by name),
 * fio's replay_scale and replay_align, --offset-map, and the checks of
 * every record in a first pass, so that a bad trace is refused before
 * anything is issued.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "cmd/replay.h"
#include "core/util.h"
#include "fio/fioopts.h"

static const char *const map_names[] = { "refuse", "wrap", "scale" };

_Static_assert((int)TRACE_READ == (int)SSDLOAD_REPLAY_OP_READ &&
	       (int)TRACE_WRITE == (int)SSDLOAD_REPLAY_OP_WRITE &&
	       (int)TRACE_TRIM == (int)SSDLOAD_REPLAY_OP_TRIM &&
	       (int)TRACE_FLUSH == (int)SSDLOAD_REPLAY_OP_FLUSH,
	       "a trace's ops are the module's replay ops");

const char *rp_offset_map_name(enum rp_offset_map m)
{
	return (unsigned int)m < 3 ? map_names[m] : "?";
}

/* --map=NAME:PATH[,NAME:PATH...] (a trace device's name, a target). */
int rp_parse_map(struct rp_opts *o, const char *s, char *err, size_t len)
{
	char *copy = strdup(s), *tok, *save = NULL, *colon;

	if (!copy)
		return ssl_fail(err, len, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		colon = strchr(tok, ':');
		if (!colon || colon == tok || !colon[1]) {
			ssl_fail(err, len, "--map: \"%s\" is not TRACEDEV:PATH",
				 tok);
			free(copy);
			return -1;
		}
		if (o->nmap == RP_MAX_MAP) {
			free(copy);
			return ssl_fail(err, len, "--map: more than %d entries",
					RP_MAX_MAP);
		}
		*colon = '\0';
		o->map_name[o->nmap] = strdup(tok);
		o->map_path[o->nmap] = strdup(colon + 1);
		if (!o->map_name[o->nmap] || !o->map_path[o->nmap]) {
			free(copy);
			return ssl_fail(err, len, "out of memory");
		}
		o->nmap++;
	}
	free(copy);
	if (!o->nmap)
		return ssl_fail(err, len, "--map: empty");
	return 0;
}

void rp_opts_free(struct rp_opts *o)
{
	int i;

	for (i = 0; i < o->nmap; i++) {
		free(o->map_name[i]);
		free(o->map_path[i]);
	}
	o->nmap = 0;
}

/* A target: a block device (or, for --parse-only, a regular file). */
static int rp_target_open(struct rp_target *t, const char *path,
			  int parse_only, char *err, size_t len)
{
	struct stat st;
	int fd, lbs = 512, ret = 0;

	if (strlen(path) >= sizeof(t->path))
		return ssl_fail(err, len, "%s: path too long", path);
	strcpy(t->path, path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ssl_fail(err, len, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		ret = ssl_fail(err, len, "%s: %s", path, strerror(errno));
	} else if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &t->size) ||
		    ioctl(fd, BLKSSZGET, &lbs))
			ret = ssl_fail(err, len, "%s: %s", path,
				       strerror(errno));
		t->lbs = (uint32_t)lbs;
	} else if (S_ISREG(st.st_mode) && parse_only) {
		t->size = (uint64_t)st.st_size;
		t->lbs = 512;
	} else {
		ret = ssl_fail(err, len, "%s: not a block device", path);
	}
	close(fd);
	if (!ret && (!t->lbs || t->size < t->lbs))
		ret = ssl_fail(err, len, "%s: empty device", path);
	return ret;
}

/* The index of target @path, opened and added if new; -1 with @err. */
static int rp_target_index(struct rp_plan *p, const char *path, char *err,
			   size_t len)
{
	unsigned int i;

	for (i = 0; i < p->ntgt; i++)
		if (!strcmp(p->tgt[i].path, path))
			return (int)i;
	if (p->ntgt == SSDLOAD_MAX_DEVS)
		return ssl_fail(err, len, "more than %u target devices",
				SSDLOAD_MAX_DEVS);
	if (rp_target_open(&p->tgt[p->ntgt], path, p->o->parse_only, err, len))
		return -1;
	return (int)p->ntgt++;
}

int rp_plan_init(struct rp_plan *p, const struct rp_opts *o, char *err,
		 size_t len)
{
	char *devs[SSDLOAD_MAX_DEVS];
	int n = 0, i, ret = 0;

	memset(p, 0, sizeof(*p));
	p->o = o;
	if (o->filename) {
		n = ssl_split_filenames(o->filename, devs, SSDLOAD_MAX_DEVS,
					err, len);
		if (n < 0)
			return -1;
	}
	for (i = 0; i < n; i++) {
		if (!ret && rp_target_index(p, devs[i], err, len) < 0)
			ret = -1;
		free(devs[i]);
	}
	p->nfile = p->ntgt;
	if (!ret && (unsigned int)n != p->ntgt)
		ret = ssl_fail(err, len, "--filename names a device twice");
	if (!ret && !p->ntgt && !o->nmap)
		ret = ssl_fail(err, len, "no target: give --filename=DEV[:DEV2...] or --map");
	return ret;
}

void rp_plan_free(struct rp_plan *p)
{
	int k;

	free(p->devmap);
	free(p->dev_end);
	for (k = 0; k < TRACE_NR_OPS; k++)
		free(p->resp[k].counts);
	memset(p, 0, sizeof(*p));
}

/*
 * A trace device seen for the first time (record @idx): its target, by
 * --map if it names it, else the next --filename device.
 */
static int rp_plan_dev(struct rp_plan *p, struct trace *t, uint32_t dev,
		       uint64_t idx, char *err, size_t len)
{
	const char *name = trace_dev_name(t, dev);
	int *dm;
	uint64_t *de;
	int i, tgt = -1;

	if (dev < p->ndevs)
		return 0;
	dm = realloc(p->devmap, (dev + 1) * sizeof(*dm));
	if (!dm)
		return ssl_fail(err, len, "out of memory");
	p->devmap = dm;
	de = realloc(p->dev_end, (dev + 1) * sizeof(*de));
	if (!de)
		return ssl_fail(err, len, "out of memory");
	p->dev_end = de;
	for (; p->ndevs <= dev; p->ndevs++) {
		p->devmap[p->ndevs] = -1;
		p->dev_end[p->ndevs] = 0;
	}
	for (i = 0; name && i < p->o->nmap; i++) {
		if (!strcmp(p->o->map_name[i], name)) {
			tgt = rp_target_index(p, p->o->map_path[i], err, len);
			if (tgt < 0)
				return -1;
			break;
		}
	}
	if (tgt < 0 && p->next_file < p->nfile)
		tgt = (int)p->next_file++;
	if (tgt < 0)
		return ssl_fail(err, len,
				"%s: record %llu: trace device \"%s\" has no target (give another --filename device, or --map=%s:DEV)",
				p->o->trace, (unsigned long long)idx + 1,
				name ? name : "?", name ? name : "NAME");
	p->devmap[dev] = tgt;
	return 0;
}

/* fio: offset / replay_scale, then aligned down to replay_align. */
static uint64_t rp_fio_offset(const struct rp_opts *o, uint64_t off)
{
	if (o->replay_scale > 1)
		off /= o->replay_scale;
	if (o->replay_align)
		off &= ~(o->replay_align - 1);
	return off;
}

static void rp_resp_add(struct rp_resp *r, uint64_t ns)
{
	if (!r->counts) {
		r->counts = calloc(SSDLOAD_HIST_BUCKETS, sizeof(uint64_t));
		if (!r->counts)
			return;
		r->min = UINT64_MAX;
	}
	r->counts[ssdload_hist_index(ns)]++;
	r->n++;
	r->sum += ns;
	if (ns < r->min)
		r->min = ns;
	if (ns > r->max)
		r->max = ns;
}

int rp_prescan(struct rp_plan *p, char *err, size_t len)
{
	const struct rp_opts *o = p->o;
	struct ssdload_replay_rec out;
	struct trace_rec rec;
	struct trace *t;
	uint64_t end;
	int r, ret = -1;

	t = trace_open(o->trace, o->fmt, err, len);
	if (!t)
		return -1;
	while ((r = trace_next(t, &rec)) > 0) {
		if (rec.t_ns < p->last_t) {
			ssl_fail(err, len, "%s: record %llu: time %llu ns is before the previous record's %llu ns (unsorted)",
				 o->trace, (unsigned long long)p->nrec + 1,
				 (unsigned long long)rec.t_ns,
				 (unsigned long long)p->last_t);
			goto out;
		}
		if (rp_plan_dev(p, t, rec.dev, p->nrec, err, len))
			goto out;
		if (rec.op != TRACE_FLUSH) {
			end = rp_fio_offset(o, rec.offset) + rec.len;
			if (end > p->dev_end[rec.dev])
				p->dev_end[rec.dev] = end;
		}
		/* every check but scale's, which needs dev_end (it fits) */
		if (rp_map(p, &rec, p->nrec, &out, err, len))
			goto out;
		p->last_t = rec.t_ns;
		p->ops[rec.op]++;
		p->bytes[rec.op] += rec.len;
		if (rec.len > p->maxlen)
			p->maxlen = rec.len;
		if (rec.resp_ns)
			rp_resp_add(&p->resp[rec.op], rec.resp_ns);
		p->nrec++;
	}
	if (r < 0) {
		ssl_fail(err, len, "%s: %s", o->trace, trace_error(t));
		goto out;
	}
	if (!p->nrec) {
		ssl_fail(err, len, "%s: no I/O records", o->trace);
		goto out;
	}
	ret = 0;
out:
	trace_close(t);
	return ret;
}

/* --offset-map=scale: @off of a device of @end bytes onto @size bytes. */
static uint64_t rp_scale(uint64_t off, uint64_t end, uint64_t size)
{
	if (end <= size)
		return off;
	return (uint64_t)((unsigned __int128)off * size / end);
}

int rp_map(const struct rp_plan *p, const struct trace_rec *in, uint64_t idx,
	   struct ssdload_replay_rec *out, char *err, size_t len)
{
	const struct rp_opts *o = p->o;
	const struct rp_target *t;
	uint64_t off = 0;
	int tgt;

	if (in->op >= TRACE_NR_OPS)
		return ssl_fail(err, len, "%s: record %llu: unknown operation",
				o->trace, (unsigned long long)idx + 1);
	if (in->dev >= p->ndevs || p->devmap[in->dev] < 0)
		return ssl_fail(err, len, "%s: record %llu: its trace device has no target",
				o->trace, (unsigned long long)idx + 1);
	tgt = p->devmap[in->dev];
	t = &p->tgt[tgt];
	if ((in->op == TRACE_WRITE || in->op == TRACE_TRIM) && !o->allow_write)
		return ssl_fail(err, len, "%s: record %llu: a %s, and --allow_write is not given (nothing was issued)",
				o->trace, (unsigned long long)idx + 1,
				trace_op_name(in->op));
	if (in->op != TRACE_FLUSH) {
		if (!in->len)
			return ssl_fail(err, len, "%s: record %llu: zero-length I/O",
					o->trace, (unsigned long long)idx + 1);
		if (in->len % t->lbs || in->len > SSDLOAD_MAX_BS)
			return ssl_fail(err, len, "%s: record %llu: length %u is not a multiple of the logical block size %u of %s, or above %u",
					o->trace, (unsigned long long)idx + 1,
					in->len, t->lbs, t->path, SSDLOAD_MAX_BS);
		if (in->len > t->size)
			return ssl_fail(err, len, "%s: record %llu: length %u is larger than %s",
					o->trace, (unsigned long long)idx + 1,
					in->len, t->path);
		off = rp_fio_offset(o, in->offset);
		if (off + in->len > t->size || off + in->len < off) {
			switch (o->offset_map) {
			case RP_MAP_REFUSE:
				return ssl_fail(err, len, "%s: record %llu: offset %llu + %u is beyond the end of %s (%llu bytes): use --offset-map=wrap or scale",
						o->trace, (unsigned long long)idx + 1,
						(unsigned long long)off, in->len,
						t->path, (unsigned long long)t->size);
			case RP_MAP_WRAP:
				off %= t->size;
				break;
			case RP_MAP_SCALE:
				off = rp_scale(off, p->dev_end[in->dev], t->size);
				break;
			}
			if (off + in->len > t->size)
				off = t->size - in->len;
			off -= off % t->lbs;
		}
		if (off % t->lbs)
			return ssl_fail(err, len, "%s: record %llu: offset %llu is not a multiple of the logical block size %u of %s (--replay_align=%u aligns it)",
					o->trace, (unsigned long long)idx + 1,
					(unsigned long long)off, t->lbs, t->path,
					t->lbs);
	}
	memset(out, 0, sizeof(*out));
	out->time_ns = htole64(in->t_ns);
	out->offset = htole64(off);
	out->len = htole32(in->op == TRACE_FLUSH ? 0 : in->len);
	out->op = htole16(in->op);	/* enum trace_op is the module's op */
	out->target = htole16((uint16_t)tgt);
	out->magic = htole32(SSDLOAD_REPLAY_REC_MAGIC);
	return 0;
}

uint32_t rp_job_bs(const struct rp_plan *p)
{
	uint32_t bs = p->maxlen ? p->maxlen : SSDLOAD_MIN_BS;
	unsigned int i;

	bs = (bs + SSDLOAD_MIN_BS - 1) / SSDLOAD_MIN_BS * SSDLOAD_MIN_BS;
	for (i = 0; i < p->ntgt; i++)
		bs = (bs + p->tgt[i].lbs - 1) / p->tgt[i].lbs * p->tgt[i].lbs;
	return bs;
}
