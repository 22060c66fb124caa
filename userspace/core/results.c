// SPDX-License-Identifier: GPL-2.0
/* Parse the debugfs summary/progress text and validate the hist files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/options.h"
#include "core/results.h"
#include "core/util.h"

static const char *const dir_names[SSDLOAD_DIR_NR] = { "read", "write", "trim" };

/* decimal u128 (sum of squares) into a long double */
static int parse_u128_ld(const char *s, long double *out)
{
	long double v = 0;
	const char *p;

	if (!*s)
		return -1;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return 0;
}

static int dbg_path(char *buf, size_t len, const char *job, const char *file)
{
	int r = snprintf(buf, len, "%s/%s/%s", ssl_debugfs_root(), job, file);

	return r < 0 || (size_t)r >= len ? -ENAMETOOLONG : 0;
}

static void opt_u64(const struct ssl_kvlist *kv, const char *key,
		    struct ssl_opt_u64 *o)
{
	o->have = !ssl_kv_u64(kv, key, &o->v);
}

/* "c0 c1 ... c6" of an iodepth_* key; .have = 0 when absent or malformed */
static void opt_map(const struct ssl_kvlist *kv, const char *key, struct ssl_depth_map *o)
{
	const char *v = ssl_kv_get(kv, key);
	unsigned int k;
	char *end;

	memset(o, 0, sizeof(*o));
	for (k = 0; v && k < SSDLOAD_DEPTH_NR; k++) {
		while (*v == ' ')
			v++;
		if (*v < '0' || *v > '9')
			return;
		errno = 0;
		o->n[k] = strtoull(v, &end, 10);
		if (errno)
			return;
		v = end;
	}
	o->have = v && !*v;
}

/* keys added after version 1 of the summary: absent from older modules */
static void parse_optional(const struct ssl_kvlist *kv, struct ssl_summary *s)
{
	const char *v = ssl_kv_get(kv, "poll_fallback");

	snprintf(s->poll_fallback, sizeof(s->poll_fallback), "%s", v ? v : "");
	opt_u64(kv, "hipri", &s->hipri);
	opt_u64(kv, "polled", &s->polled);
	opt_u64(kv, "split_ios", &s->split_ios);
	opt_u64(kv, "nowait_retries", &s->nowait_retries);
	opt_u64(kv, "io_timeout_ms", &s->io_timeout_ms);
	opt_u64(kv, "timed_out_ios", &s->timed_out_ios);
	opt_u64(kv, "randseed", &s->randseed);
	opt_u64(kv, "cpu_ns", &s->cpu_ns);
	opt_u64(kv, "usr_cpu_ns", &s->usr_cpu_ns);
	opt_u64(kv, "sys_cpu_ns", &s->sys_cpu_ns);
	opt_u64(kv, "ctx", &s->ctx);
	opt_u64(kv, "cpu_ns_per_io", &s->cpu_ns_per_io);
	opt_map(kv, "iodepth_level", &s->depth);
	opt_map(kv, "iodepth_submit", &s->submit);
	opt_map(kv, "iodepth_complete", &s->complete);
	opt_u64(kv, "numjobs", &s->numjobs);
	opt_u64(kv, "bs_min", &s->bs_min);
	opt_u64(kv, "bs_max", &s->bs_max);
	opt_u64(kv, "blockalign", &s->blockalign);
	v = ssl_kv_get(kv, "rate_process");
	snprintf(s->rate_process, sizeof(s->rate_process), "%s", v ? v : "");
	opt_u64(kv, "late_threshold_ns", &s->late_threshold_ns);
	opt_u64(kv, "log_interval_ms", &s->log_interval_ms);
	opt_u64(kv, "log_hist", &s->log_hist);
	opt_u64(kv, "series_records", &s->series_records);
	opt_u64(kv, "start_real_ns", &s->start_real_ns);
	opt_u64(kv, "start_at", &s->start_at);
	opt_u64(kv, "first_submit_real_ns", &s->first_submit_real_ns);
	v = ssl_kv_get(kv, "start_error_ns");
	if (v) {
		char *end;

		errno = 0;
		s->start_error_ns = strtoll(v, &end, 10);
		s->have_start_error = !errno && end != v && !*end;
	}
	opt_u64(kv, "think_ns", &s->think_ns);
	opt_u64(kv, "think_pauses", &s->think_pauses);
	opt_u64(kv, "fsync", &s->fsync);
	opt_u64(kv, "end_fsync", &s->end_fsync);
	opt_u64(kv, "sync", &s->fua);
	opt_u64(kv, "write_barrier", &s->write_barrier);
	opt_u64(kv, "fua_writes", &s->fua_writes);
	opt_u64(kv, "barrier_writes", &s->barrier_writes);
}

/* a uint64_t key "<prefix>_<suffix>", or with .opt a struct ssl_opt_u64 */
struct kv_field {
	const char *suffix;
	size_t off;
	int opt;
};

/*
 * Each "<prefix>_<suffix>" key of @f[@n] into element @idx of the array
 * at @base + off (idx 0 for a scalar field); the index of the first key
 * missing or malformed, @n when there is none.
 */
static size_t kv_fields(const struct ssl_kvlist *kv, const char *prefix,
			const struct kv_field *f, size_t n, void *base, unsigned int idx)
{
	size_t i, first = n;
	char key[64];

	for (i = 0; i < n; i++) {
		char *p = (char *)base + f[i].off;
		int bad;

		snprintf(key, sizeof(key), "%s_%s", prefix, f[i].suffix);
		if (f[i].opt) {
			struct ssl_opt_u64 *o = (struct ssl_opt_u64 *)p + idx;

			opt_u64(kv, key, o);
			bad = !o->have;
		} else {
			bad = ssl_kv_u64(kv, key, (uint64_t *)p + idx);
		}
		if (bad && first == n)
			first = i;
	}
	return first;
}

/* <prefix>_lat_sum_ns and <prefix>_lat_sumsq_ns2: 1 when both parse */
static int parse_sums(const struct ssl_kvlist *kv, const char *prefix, uint64_t *sum,
		      long double *sumsq)
{
	const char *v;
	char key[64];
	int have;

	snprintf(key, sizeof(key), "%s_lat_sum_ns", prefix);
	have = !ssl_kv_u64(kv, key, sum);
	snprintf(key, sizeof(key), "%s_lat_sumsq_ns2", prefix);
	v = ssl_kv_get(kv, key);
	return v && !parse_u128_ld(v, sumsq) && have;
}

#define RATE_FIELD(suffix, field) { suffix, offsetof(struct ssl_rate_stats, field), 0 }

/* <dir>_rate_iops ... <dir>_behind_bytes (rate control) */
static void parse_rate(const struct ssl_kvlist *kv, const char *dir,
		       struct ssl_rate_stats *r)
{
	static const struct kv_field fields[] = {
		RATE_FIELD("rate_iops", iops),
		RATE_FIELD("rate_bps", bps),
		RATE_FIELD("intended_ios", ios),
		RATE_FIELD("intended_lat_min_ns", lat_min_ns),
		RATE_FIELD("intended_lat_mean_ns", lat_mean_ns),
		RATE_FIELD("intended_lat_max_ns", lat_max_ns),
		RATE_FIELD("intended_lat_stddev_ns", lat_stddev_ns),
		RATE_FIELD("late_ios", late_ios),
		RATE_FIELD("behind_ns", behind_ns),
		RATE_FIELD("behind_ios", behind_ios),
		RATE_FIELD("behind_bytes", behind_bytes),
	};
	char key[64];

	memset(r, 0, sizeof(*r));
	snprintf(key, sizeof(key), "%s_rate_iops", dir);
	if (!ssl_kv_get(kv, key))
		return;			/* a module without rate control */
	r->have = 1;
	kv_fields(kv, dir, fields, ARRAY_SIZE(fields), r, 0);
	snprintf(key, sizeof(key), "%s_intended", dir);
	r->have_sums = parse_sums(kv, key, &r->lat_sum_ns, &r->lat_sumsq_ns2);
}

int results_dir_rated(const struct ssl_summary *s, int d)
{
	const struct ssl_rate_stats *r = &s->dir[d].rate;

	if (!r->have || (!r->iops && !r->bps))
		return 0;
	/* trimwrite: the writes carry the cap but follow their trims */
	return r->ios || !s->dir[d].ios;
}

#define DEV_FIELD(field) { #field, offsetof(struct ssl_device, field), 0 }

/* devices=N and devI_*; 0 or -1 (out of memory, @err set) */
static int parse_devices(const struct ssl_kvlist *kv, struct ssl_summary *s,
			 char *err, size_t errlen)
{
	static const struct kv_field span[] = {
		DEV_FIELD(span_start), DEV_FIELD(span_bytes),
	};
	static const struct kv_field per_dir[] = {	/* devI_<dir>_* */
		DEV_FIELD(ios), DEV_FIELD(bytes), DEV_FIELD(errors), DEV_FIELD(done),
		DEV_FIELD(lat_sum_ns),
	};
	uint64_t n;
	unsigned int i, d;
	const char *v;
	char key[64];

	if (ssl_kv_u64(kv, "devices", &n) || !n)
		return 0;
	if (n > SSDLOAD_MAX_DEVS) {	/* the module's limit: not a summary of it */
		snprintf(err, errlen, "summary: devices=%llu, more than %u",
			 (unsigned long long)n, SSDLOAD_MAX_DEVS);
		return -1;
	}
	s->dev = calloc((size_t)n, sizeof(*s->dev));
	if (!s->dev)
		goto oom;
	s->nr_dev = (unsigned int)n;
	for (i = 0; i < s->nr_dev; i++) {
		struct ssl_device *dv = &s->dev[i];

		snprintf(key, sizeof(key), "dev%u_name", i);
		v = ssl_kv_get(kv, key);
		dv->name = strdup(v ? v : "?");
		if (!dv->name)
			goto oom;
		snprintf(key, sizeof(key), "dev%u", i);
		kv_fields(kv, key, span, ARRAY_SIZE(span), dv, 0);
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			snprintf(key, sizeof(key), "dev%u_%s", i, dir_names[d]);
			kv_fields(kv, key, per_dir, ARRAY_SIZE(per_dir), dv, d);
		}
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

#define DIR_FIELD(field) { #field, offsetof(struct ssl_dir_stats, field), 0 }

/* the summary's read_*, write_* and trim_* keys; -1 with @err set */
static int parse_dirs(const struct ssl_kvlist *kv, struct ssl_summary *s, char *err,
		      size_t errlen)
{
	static const struct kv_field fields[] = {
		DIR_FIELD(ios), DIR_FIELD(bytes),	/* required but for trims */
		DIR_FIELD(errors), DIR_FIELD(lat_min_ns), DIR_FIELD(lat_mean_ns),
		DIR_FIELD(lat_max_ns), DIR_FIELD(lat_stddev_ns),
	};
	unsigned int d;
	char key[64];
	size_t bad;

	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		struct ssl_dir_stats *ds = &s->dir[d];

		bad = kv_fields(kv, dir_names[d], fields, ARRAY_SIZE(fields), ds, 0);
		if (bad < 2 && d != SSDLOAD_DIR_TRIM) {
			snprintf(err, errlen, "summary: missing or bad %s_%s", dir_names[d],
				 fields[bad].suffix);
			return -1;
		}
		if (d == SSDLOAD_DIR_TRIM) {	/* a module without trims has no keys */
			snprintf(key, sizeof(key), "%s_ios", dir_names[d]);
			s->have_trim = ssl_kv_get(kv, key) != NULL;
		}
		ds->have_sums = parse_sums(kv, dir_names[d], &ds->lat_sum_ns,
					   &ds->lat_sumsq_ns2);
		parse_rate(kv, dir_names[d], &ds->rate);
	}
	/* the flushes (sync_*): a module without them has no keys */
	s->have_sync = kv_fields(kv, "sync", fields, ARRAY_SIZE(fields), &s->sync, 0) ==
		       ARRAY_SIZE(fields);
	if (s->have_sync)
		s->sync.have_sums = parse_sums(kv, "sync", &s->sync.lat_sum_ns,
					       &s->sync.lat_sumsq_ns2);
	else
		memset(&s->sync, 0, sizeof(s->sync));
	return 0;
}

#define WORKER_FIELD(field, opt) { #field, offsetof(struct ssl_worker, field), opt }

/* worker @i's keys (worker<i>_*); -1 with @err set when out of memory */
static int parse_worker(const struct ssl_kvlist *kv, unsigned int i, struct ssl_worker *w,
			char *err, size_t errlen)
{
	static const struct kv_field scalar[] = {
		WORKER_FIELD(cpu_ns, 1), WORKER_FIELD(ctx, 1), WORKER_FIELD(pid, 1),
		WORKER_FIELD(sync_ios, 1), WORKER_FIELD(sync_errors, 1),
		WORKER_FIELD(sync_lat_min_ns, 1), WORKER_FIELD(sync_lat_max_ns, 1),
		WORKER_FIELD(sync_lat_sum_ns, 1),
	};
	static const struct kv_field per_dir[] = {	/* worker<i>_<dir>_* */
		WORKER_FIELD(ios, 0), WORKER_FIELD(errors, 0), WORKER_FIELD(bytes, 1),
		WORKER_FIELD(lat_min_ns, 1), WORKER_FIELD(lat_max_ns, 1),
		WORKER_FIELD(lat_sum_ns, 1),
	};
	const char *v;
	unsigned int d;
	uint64_t u;
	char key[64];

	snprintf(key, sizeof(key), "worker%u_cpu", i);
	w->cpu = ssl_kv_u64(kv, key, &u) ? -1 : (long)u;
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		snprintf(key, sizeof(key), "worker%u_%s", i, dir_names[d]);
		kv_fields(kv, key, per_dir, ARRAY_SIZE(per_dir), w, d);
	}
	snprintf(key, sizeof(key), "worker%u", i);
	kv_fields(kv, key, scalar, ARRAY_SIZE(scalar), w, 0);
	snprintf(key, sizeof(key), "worker%u_iodepth_level", i);
	opt_map(kv, key, &w->depth);
	snprintf(key, sizeof(key), "worker%u_ran_on", i);
	v = ssl_kv_get(kv, key);
	w->ran_on = v ? strdup(v) : NULL;
	if (v && !w->ran_on) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int results_parse_summary(char *text, struct ssl_summary *s, char *err, size_t errlen)
{
	struct ssl_kvlist kv;
	const char *v;
	uint64_t u;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	if (ssl_kv_parse(text, &kv)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (ssl_kv_u64(&kv, "version", &u) || u < 1) {
		snprintf(err, errlen, "summary: missing or bad version");
		goto fail;
	}
	s->version = (unsigned int)u;
	v = ssl_kv_get(&kv, "state");
	snprintf(s->state, sizeof(s->state), "%s", v ? v : "unknown");
	v = ssl_kv_get(&kv, "error");
	s->error = v ? strtoll(v, NULL, 10) : 0;
	ssl_kv_u64(&kv, "workers", &u);
	if (u > SSDLOAD_MAX_WORKERS) {	/* the module's limit: not a summary of it */
		snprintf(err, errlen, "summary: workers=%llu, more than %u",
			 (unsigned long long)u, SSDLOAD_MAX_WORKERS);
		goto fail;
	}
	s->workers = (unsigned int)u;
	if (ssl_kv_u64(&kv, "runtime_ns", &s->runtime_ns)) {
		snprintf(err, errlen, "summary: missing runtime_ns");
		goto fail;
	}
	ssl_kv_u64(&kv, "ramp_ns", &s->ramp_ns);
	if (parse_dirs(&kv, s, err, errlen))
		goto fail;
	parse_optional(&kv, s);
	if (parse_devices(&kv, s, err, errlen))
		goto fail;

	if (s->workers) {
		s->worker = calloc(s->workers, sizeof(*s->worker));
		if (!s->worker) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		s->nr_worker = s->workers;
		for (i = 0; i < s->workers; i++)
			if (parse_worker(&kv, i, &s->worker[i], err, errlen))
				goto fail;
	}
	ssl_kv_free(&kv);
	return 0;

fail:
	ssl_kv_free(&kv);
	results_free_summary(s);
	return -1;
}

void results_free_summary(struct ssl_summary *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_worker; i++)
		free(s->worker[i].ran_on);
	free(s->worker);
	s->worker = NULL;
	s->nr_worker = 0;
	for (i = 0; i < s->nr_dev; i++)
		free(s->dev[i].name);
	free(s->dev);
	s->dev = NULL;
	s->nr_dev = 0;
}

/* a file shorter than its header @need: -1 with @err set */
static int short_file(size_t len, size_t need, char *err, size_t errlen)
{
	if (len >= need)
		return 0;
	snprintf(err, errlen, "short file (%zu bytes, header is %zu)", len, need);
	return -1;
}

int results_parse_hist(const void *buf, size_t len, int dir, struct ssl_hist *h,
		       char *err, size_t errlen)
{
	const struct ssdload_hist_header *hdr = buf;
	size_t need;

	memset(h, 0, sizeof(*h));
	if (short_file(len, sizeof(*hdr), err, errlen))
		return -1;
	if (hdr->magic != SSDLOAD_HIST_MAGIC) {
		snprintf(err, errlen, "bad magic 0x%08x (want 0x%08x)",
			 hdr->magic, SSDLOAD_HIST_MAGIC);
		return -1;
	}
	if (hdr->version != SSDLOAD_HIST_VERSION) {
		snprintf(err, errlen, "unsupported version %u (want %u)",
			 hdr->version, SSDLOAD_HIST_VERSION);
		return -1;
	}
	if (hdr->header_size < sizeof(*hdr) || hdr->header_size % 8) {
		snprintf(err, errlen, "bad header_size %u", hdr->header_size);
		return -1;
	}
	if (hdr->sub_bits != SSDLOAD_HIST_SUB_BITS ||
	    hdr->max_shift != SSDLOAD_HIST_MAX_SHIFT ||
	    hdr->nr_buckets != SSDLOAD_HIST_BUCKETS) {
		snprintf(err, errlen,
			 "geometry sub_bits=%u max_shift=%u nr_buckets=%u differs from this CLI's %u/%u/%u",
			 hdr->sub_bits, hdr->max_shift, hdr->nr_buckets,
			 SSDLOAD_HIST_SUB_BITS, SSDLOAD_HIST_MAX_SHIFT,
			 SSDLOAD_HIST_BUCKETS);
		return -1;
	}
	if (dir >= 0 && hdr->dir != (uint32_t)dir) {
		snprintf(err, errlen, "dir=%u, expected %d", hdr->dir, dir);
		return -1;
	}
	need = hdr->header_size + (size_t)hdr->nr_buckets * sizeof(uint64_t);
	if (len != need) {
		snprintf(err, errlen, "size %zu bytes, expected %zu", len, need);
		return -1;
	}
	h->counts = malloc((size_t)hdr->nr_buckets * sizeof(uint64_t));
	if (!h->counts) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(&h->hdr, hdr, sizeof(*hdr));
	memcpy(h->counts, (const char *)buf + hdr->header_size,
	       (size_t)hdr->nr_buckets * sizeof(uint64_t));
	/*
	 * A file read while the job runs may be a moment out of step with
	 * its header; the counts are what percentiles are computed from.
	 */
	h->hdr.samples = ssl_hist_total(h->counts, hdr->nr_buckets);
	h->present = 1;
	return 0;
}

void results_free_hist(struct ssl_hist *h)
{
	free(h->counts);
	h->counts = NULL;
	h->present = 0;
}

static int read_dbg(const char *job, const char *file, char **buf, size_t *len)
{
	char path[4096];
	int err = dbg_path(path, sizeof(path), job, file);

	if (!err)
		err = ssl_read_file(path, buf, len);
	return err;
}

/* A histogram geometry other than this CLI's: -1 with @err set. */
static int check_geometry(uint32_t sub_bits, uint32_t max_shift, uint32_t buckets,
			  char *err, size_t errlen)
{
	if (sub_bits == SSDLOAD_HIST_SUB_BITS && max_shift == SSDLOAD_HIST_MAX_SHIFT &&
	    buckets == SSDLOAD_HIST_BUCKETS)
		return 0;
	snprintf(err, errlen,
		 "histogram geometry sub_bits=%u max_shift=%u buckets=%u differs from this CLI's %u/%u/%u",
		 sub_bits, max_shift, buckets, SSDLOAD_HIST_SUB_BITS, SSDLOAD_HIST_MAX_SHIFT,
		 SSDLOAD_HIST_BUCKETS);
	return -1;
}

/*
 * The framing shared by the series and steps files: a header of
 * header_size bytes, nr records of record_size bytes, then hist_bytes of
 * histograms.  0, or -1 with @err set.
 */
struct bin_frame {
	uint32_t magic, want_magic;
	unsigned int version, want_version;
	size_t header_size, min_header;
	size_t record_size, min_record;
	uint64_t nr, hist_bytes;
	int hist;			/* histograms follow: check their geometry */
	uint32_t sub_bits, max_shift, buckets;
	uint32_t nr_workers;
};

static int check_frame(const struct bin_frame *b, size_t len, char *err, size_t errlen)
{
	uint64_t left;

	if (b->magic != b->want_magic) {
		snprintf(err, errlen, "bad magic 0x%08x (want 0x%08x)", b->magic, b->want_magic);
		return -1;
	}
	if (b->version != b->want_version) {
		snprintf(err, errlen, "unsupported version %u (want %u)", b->version,
			 b->want_version);
		return -1;
	}
	if (b->header_size < b->min_header || b->header_size % 8 || b->header_size > len) {
		snprintf(err, errlen, "bad header_size %zu", b->header_size);
		return -1;
	}
	if (b->record_size < b->min_record || b->record_size % 8) {
		snprintf(err, errlen, "bad record_size %zu (at least %zu)", b->record_size,
			 b->min_record);
		return -1;
	}
	left = len - b->header_size;
	if (b->nr > left / b->record_size || left - b->nr * b->record_size != b->hist_bytes) {
		snprintf(err, errlen, "size %zu bytes does not match %llu records of %zu "
			 "bytes and %llu bytes of histograms", len,
			 (unsigned long long)b->nr, b->record_size,
			 (unsigned long long)b->hist_bytes);
		return -1;
	}
	if (b->hist && check_geometry(b->sub_bits, b->max_shift, b->buckets, err, errlen))
		return -1;
	if (b->nr_workers > SSDLOAD_MAX_WORKERS) {
		snprintf(err, errlen, "%u workers, more than %u", b->nr_workers,
			 SSDLOAD_MAX_WORKERS);
		return -1;
	}
	return 0;
}

/*
 * Record @i of series @s (its histogram deltas from *@hoff on, which it
 * moves past them, growing *@max_pairs); -1 with @err set.
 */
static int series_record(struct ssl_series *s, size_t len, size_t i, uint64_t *hoff,
			 unsigned long *max_pairs, char *err, size_t errlen)
{
	const struct ssdload_series_header *hdr = &s->hdr;
	struct ssl_series_rec *o = &s->rec[i];
	struct ssdload_series_rec r;
	int d;

	memcpy(&r, s->blob + hdr->header_size + i * hdr->record_size, sizeof(r));
	if (r.worker >= hdr->nr_workers) {
		snprintf(err, errlen, "record %zu: worker %u of %u", i, r.worker,
			 hdr->nr_workers);
		return -1;
	}
	o->worker = r.worker;
	o->index = r.index;
	o->start_ns = r.start_ns;
	o->end_ns = r.end_ns;
	o->flags = r.flags;
	o->step = r.step;
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		const struct ssdload_series_dir *x = &r.dir[d];
		struct ssl_series_dir *y = &o->dir[d];

		y->ios = x->ios;
		y->bytes = x->bytes;
		y->errors = x->errors;
		y->lat_min_ns = x->lat_min_ns;
		y->lat_max_ns = x->lat_max_ns;
		y->lat_sum_ns = x->lat_sum_ns;
		y->intended_lat_sum_ns = x->intended_lat_sum_ns;
		y->late_ios = x->late_ios;
		y->hist_len = x->hist_len;
		if (!x->hist_len)
			continue;
		if (!hdr->log_hist || x->hist_len > len - *hoff) {
			snprintf(err, errlen, "record %zu: histogram delta of %u "
				 "bytes past the end of the file", i, x->hist_len);
			return -1;
		}
		y->hist = s->blob + *hoff;
		*hoff += x->hist_len;
		if (x->hist_len / 2 > *max_pairs)
			*max_pairs = x->hist_len / 2;
	}
	return 0;
}

/* every histogram delta of @s decodes; -1 with @err set */
static int series_check_deltas(const struct ssl_series *s, unsigned long max_pairs,
			       char *err, size_t errlen)
{
	struct ssl_bucket *scratch;
	size_t i;
	int d;

	scratch = malloc((max_pairs ? max_pairs : 1) * sizeof(*scratch));
	if (!scratch) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < s->hdr.nr_records; i++)
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			const struct ssl_series_dir *y = &s->rec[i].dir[d];

			if (y->hist_len && ssl_delta_decode(y->hist, y->hist_len,
							    SSDLOAD_HIST_BUCKETS, scratch,
							    max_pairs) < 0) {
				snprintf(err, errlen, "record %zu: malformed %s histogram "
					 "delta", i, dir_names[d]);
				free(scratch);
				return -1;
			}
		}
	free(scratch);
	return 0;
}

int results_parse_series(const void *buf, size_t len, struct ssl_series *s,
			 char *err, size_t errlen)
{
	const struct ssdload_series_header *hdr = buf;
	struct bin_frame frame;
	uint64_t recs, hoff;
	unsigned long max_pairs = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (short_file(len, sizeof(*hdr), err, errlen))
		return -1;
	frame = (struct bin_frame){
		.magic = hdr->magic, .want_magic = SSDLOAD_SERIES_MAGIC,
		.version = hdr->version, .want_version = SSDLOAD_SERIES_VERSION,
		.header_size = hdr->header_size, .min_header = sizeof(*hdr),
		.record_size = hdr->record_size,
		.min_record = sizeof(struct ssdload_series_rec),
		.nr = hdr->nr_records, .hist_bytes = hdr->hist_bytes,
		.hist = !!hdr->log_hist, .sub_bits = hdr->hist_sub_bits,
		.max_shift = hdr->hist_max_shift, .buckets = hdr->hist_buckets,
		.nr_workers = hdr->nr_workers,
	};
	if (check_frame(&frame, len, err, errlen))
		return -1;
	recs = hdr->nr_records;
	s->blob = malloc(len ? len : 1);
	s->rec = calloc(recs ? (size_t)recs : 1, sizeof(*s->rec));
	if (!s->blob || !s->rec) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	memcpy(s->blob, buf, len);
	memcpy(&s->hdr, hdr, sizeof(*hdr));
	hoff = hdr->header_size + recs * hdr->record_size;
	for (i = 0; i < recs; i++)
		if (series_record(s, len, i, &hoff, &max_pairs, err, errlen))
			goto fail;
	if (hoff != len) {
		snprintf(err, errlen, "the histogram deltas take %llu of its %llu bytes",
			 (unsigned long long)(hoff - hdr->header_size - recs * hdr->record_size),
			 (unsigned long long)hdr->hist_bytes);
		goto fail;
	}
	if (series_check_deltas(s, max_pairs, err, errlen))
		goto fail;
	s->max_pairs = max_pairs;
	s->present = 1;
	return 0;

fail:
	results_free_series(s);
	return -1;
}

void results_free_series(struct ssl_series *s)
{
	free(s->rec);
	free(s->blob);
	memset(s, 0, sizeof(*s));
}

int results_parse_steps(const void *buf, size_t len, struct ssl_steps *s,
			char *err, size_t errlen)
{
	const struct ssdload_steps_header *hdr = buf;
	uint64_t n, nhist = 0, off;
	struct bin_frame frame;
	size_t i, rsz;
	int d;

	memset(s, 0, sizeof(*s));
	if (short_file(len, sizeof(*hdr), err, errlen))
		return -1;
	frame = (struct bin_frame){
		.magic = hdr->magic, .want_magic = SSDLOAD_STEPS_MAGIC,
		.version = hdr->version, .want_version = SSDLOAD_STEPS_VERSION,
		.header_size = hdr->header_size, .min_header = sizeof(*hdr),
		.record_size = hdr->record_size,
		/* a module before step numjobs: records end before it */
		.min_record = offsetof(struct ssdload_steps_rec, numjobs),
		.nr = hdr->nr_steps, .hist_bytes = hdr->hist_bytes,
		.hist = !!hdr->hist_bytes, .sub_bits = hdr->hist_sub_bits,
		.max_shift = hdr->hist_max_shift, .buckets = hdr->hist_buckets,
		.nr_workers = hdr->nr_workers,
	};
	if (check_frame(&frame, len, err, errlen))
		return -1;
	n = hdr->nr_steps;
	s->step = calloc(n ? (size_t)n : 1, sizeof(*s->step));
	s->counts = malloc(hdr->hist_bytes ? (size_t)hdr->hist_bytes : 1);
	if (!s->step || !s->counts) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	memcpy(&s->hdr, hdr, sizeof(*hdr));
	memcpy(s->counts, (const char *)buf + hdr->header_size + n * hdr->record_size,
	       (size_t)hdr->hist_bytes);
	rsz = hdr->record_size < sizeof(struct ssdload_steps_rec) ?
	      hdr->record_size : sizeof(struct ssdload_steps_rec);
	for (i = 0; i < n; i++) {
		struct ssl_step *st = &s->step[i];

		memcpy(&st->rec, (const char *)buf + hdr->header_size + i * hdr->record_size,
		       rsz);
		/* a module before step numjobs: every step ran on all the workers */
		if (rsz <= offsetof(struct ssdload_steps_rec, numjobs) &&
		    !(st->rec.flags & SSDLOAD_STEPS_IDLE))
			st->rec.numjobs = hdr->nr_workers;
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			uint32_t f = st->rec.dir[d].flags;

			if (f & SSDLOAD_STEPS_INTENDED_HIST && !(f & SSDLOAD_STEPS_HIST)) {
				snprintf(err, errlen, "step %u: %s: an intended histogram "
					 "without its histogram", st->rec.step, dir_names[d]);
				goto fail;
			}
			nhist += !!(f & SSDLOAD_STEPS_HIST) + !!(f & SSDLOAD_STEPS_INTENDED_HIST);
		}
	}
	if (nhist * SSDLOAD_HIST_BUCKETS * sizeof(uint64_t) != hdr->hist_bytes) {
		snprintf(err, errlen, "%llu bytes of histograms, the records flag %llu "
			 "histograms of %zu bytes", (unsigned long long)hdr->hist_bytes,
			 (unsigned long long)nhist,
			 (size_t)SSDLOAD_HIST_BUCKETS * sizeof(uint64_t));
		goto fail;
	}
	off = 0;
	for (i = 0; i < n; i++)
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			uint32_t f = s->step[i].rec.dir[d].flags;

			if (f & SSDLOAD_STEPS_HIST) {
				s->step[i].hist[d] = s->counts + off;
				off += SSDLOAD_HIST_BUCKETS;
			}
			if (f & SSDLOAD_STEPS_INTENDED_HIST) {
				s->step[i].ihist[d] = s->counts + off;
				off += SSDLOAD_HIST_BUCKETS;
			}
		}
	s->present = 1;
	return 0;

fail:
	results_free_steps(s);
	return -1;
}

void results_free_steps(struct ssl_steps *s)
{
	free(s->step);
	free(s->counts);
	memset(s, 0, sizeof(*s));
}

/* ---- debugfs verify --------------------------------------------------- */

int results_parse_verify(char *text, struct ssl_verify *v, char *err, size_t errlen)
{
	struct ssl_kvlist all;
	size_t i, n = 0;
	char *end;

	memset(v, 0, sizeof(*v));
	if (ssl_kv_parse(text, &all))
		return ssl_fail(err, errlen, "out of memory");
	v->fail = calloc(all.n ? all.n : 1, sizeof(*v->fail));
	if (!v->fail) {
		ssl_kv_free(&all);
		return ssl_fail(err, errlen, "out of memory");
	}
	for (i = 0; i < all.n; i++) {
		struct ssl_vfail *f = &v->fail[v->nr_fail];
		char *p = all.v[i].val;

		if (strcmp(all.v[i].key, "fail")) {
			all.v[n++] = all.v[i];	/* the others keep their order */
			continue;
		}
		errno = 0;
		f->lba = strtoull(p, &end, 10);
		if (errno || end == p || *end != ' ') {
			ssl_kv_free(&all);
			free(v->fail);
			v->fail = NULL;
			return ssl_fail(err, errlen, "fail=%s: not <sector> <class> ...", p);
		}
		f->cls = end + 1;
		end = strchr(f->cls, ' ');
		if (end)
			*end++ = '\0';
		f->detail = end ? end : "";
		v->nr_fail++;
	}
	all.n = n;
	v->kv = all;
	v->text = text;
	v->present = 1;
	return 0;
}

void results_free_verify(struct ssl_verify *v)
{
	ssl_kv_free(&v->kv);
	free(v->fail);
	free(v->text);
	memset(v, 0, sizeof(*v));
}

const char *results_verify_get(const struct ssl_verify *v, const char *key)
{
	return v && v->present ? ssl_kv_get(&v->kv, key) : NULL;
}

uint64_t results_verify_u64(const struct ssl_verify *v, const char *key)
{
	uint64_t x = 0;

	if (v && v->present)
		ssl_kv_u64(&v->kv, key, &x);
	return x;
}

int results_verify_on(const struct ssl_verify *v)
{
	const char *t = results_verify_get(v, "verify");

	return t && *t && strcmp(t, "0");
}

/* debugfs verify: absent from a module without verify (present = 0) */
static int read_verify(const char *job, struct ssl_verify *v)
{
	char err[256], *buf;
	size_t len;
	int r;

	r = read_dbg(job, SSDLOAD_DBG_VERIFY, &buf, &len);
	if (r == -ENOENT)
		return 0;
	if (r) {
		ssl_err("%s/%s/%s: %s", ssl_debugfs_root(), job, SSDLOAD_DBG_VERIFY,
			strerror(-r));
		return -1;
	}
	if (results_parse_verify(buf, v, err, sizeof(err))) {
		free(buf);
		ssl_err("%s/%s/%s: %s", ssl_debugfs_root(), job, SSDLOAD_DBG_VERIFY, err);
		return -1;
	}
	return 0;
}

/*
 * One binary file of the job: hist_*, hist_intended_*, series or steps.  A
 * missing file is fine when @optional (0, nothing read).  0, or -1 with a
 * message.
 */
static int read_binary(const char *job, const char *file, int optional,
		       int (*parse)(const void *, size_t, void *, int, char *, size_t),
		       void *out, int arg)
{
	char err[256], *buf;
	size_t len;
	int r;

	r = read_dbg(job, file, &buf, &len);
	if (r == -ENOENT && optional)
		return 0;
	if (r) {
		ssl_err("%s/%s/%s: %s", ssl_debugfs_root(), job, file, strerror(-r));
		return -1;
	}
	r = parse(buf, len, out, arg, err, sizeof(err));
	free(buf);
	if (r) {
		ssl_err("%s/%s/%s: %s", ssl_debugfs_root(), job, file, err);
		return -1;
	}
	return 0;
}

static int parse_hist_cb(const void *buf, size_t len, void *out, int dir,
			 char *err, size_t errlen)
{
	return results_parse_hist(buf, len, dir, out, err, errlen);
}

static int parse_steps_cb(const void *buf, size_t len, void *out, int unused,
			  char *err, size_t errlen)
{
	(void)unused;
	return results_parse_steps(buf, len, out, err, errlen);
}

static int parse_series_cb(const void *buf, size_t len, void *out, int unused,
			   char *err, size_t errlen)
{
	(void)unused;
	return results_parse_series(buf, len, out, err, errlen);
}

int results_read(const char *job, struct ssl_results *res)
{
	static const char *const files[SSDLOAD_DIR_NR] = {
		SSDLOAD_DBG_HIST_READ, SSDLOAD_DBG_HIST_WRITE, SSDLOAD_DBG_HIST_TRIM,
	};
	static const char *const ifiles[SSDLOAD_DIR_NR] = {
		SSDLOAD_DBG_HIST_INTENDED_READ, SSDLOAD_DBG_HIST_INTENDED_WRITE,
		SSDLOAD_DBG_HIST_INTENDED_TRIM,
	};
	struct ssl_summary *s = &res->sum;
	char err[256], *buf;
	size_t len;
	int d, r;

	memset(res, 0, sizeof(*res));
	if (ssl_check_debugfs())
		return -1;
	r = read_dbg(job, SSDLOAD_DBG_SUMMARY, &buf, &len);
	if (r) {
		if (r == -ENOENT)
			ssl_err("no results for job '%s' in %s", job,
				ssl_debugfs_root());
		else
			ssl_err("%s/%s/%s: %s%s", ssl_debugfs_root(), job,
				SSDLOAD_DBG_SUMMARY, strerror(-r),
				r == -EACCES ? " (run as root)" : "");
		return -1;
	}
	r = results_parse_summary(buf, s, err, sizeof(err));
	free(buf);
	if (r) {
		ssl_err("%s/%s/%s: %s", ssl_debugfs_root(), job,
			SSDLOAD_DBG_SUMMARY, err);
		return -1;
	}
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		if (read_binary(job, files[d], !s->dir[d].ios, parse_hist_cb,
				&res->hist[d], d))
			goto fail;
		if (results_dir_rated(s, d) &&
		    read_binary(job, ifiles[d], !s->dir[d].rate.ios, parse_hist_cb,
				&res->ihist[d], d))
			goto fail;
	}
	if (s->have_sync &&
	    read_binary(job, SSDLOAD_DBG_HIST_SYNC, !s->sync.ios, parse_hist_cb,
			&res->shist, SSDLOAD_HIST_DIR_SYNC))
		goto fail;
	if (s->log_interval_ms.v &&
	    read_binary(job, SSDLOAD_DBG_SERIES, !s->series_records.v,
			parse_series_cb, &res->series, 0))
		goto fail;
	if (read_binary(job, SSDLOAD_DBG_STEPS, 1, parse_steps_cb, &res->steps, 0))
		goto fail;
	if (read_verify(job, &res->verify))
		goto fail;
	return 0;

fail:
	results_free(res);
	return -1;
}

int results_read_series(const char *job, struct ssl_series *s)
{
	char err[256], *buf;
	size_t len;
	int r;

	memset(s, 0, sizeof(*s));
	r = read_dbg(job, SSDLOAD_DBG_SERIES, &buf, &len);
	if (r)
		return r;
	r = results_parse_series(buf, len, s, err, sizeof(err));
	free(buf);
	return r ? -EINVAL : 0;
}

void results_free(struct ssl_results *r)
{
	int d;

	results_free_summary(&r->sum);
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		results_free_hist(&r->hist[d]);
		results_free_hist(&r->ihist[d]);
	}
	results_free_hist(&r->shist);
	results_free_series(&r->series);
	results_free_steps(&r->steps);
	results_free_verify(&r->verify);
}

int results_read_progress(const char *job, struct ssl_progress *p)
{
	struct ssl_kvlist kv;
	const char *v;
	size_t len;
	char *buf;
	int r;

	memset(p, 0, sizeof(*p));
	r = read_dbg(job, SSDLOAD_DBG_PROGRESS, &buf, &len);
	if (r)
		return r;
	if (ssl_kv_parse(buf, &kv)) {
		free(buf);
		return -ENOMEM;
	}
	v = ssl_kv_get(&kv, "state");
	snprintf(p->state, sizeof(p->state), "%s", v ? v : "");
	ssl_kv_u64(&kv, "elapsed_ns", &p->elapsed_ns);
	ssl_kv_u64(&kv, "ramp_ns", &p->ramp_ns);
	ssl_kv_u64(&kv, "runtime_ns", &p->runtime_ns);
	ssl_kv_u64(&kv, "number_ios", &p->number_ios);
	ssl_kv_u64(&kv, "read_ios", &p->ios[SSDLOAD_DIR_READ]);
	ssl_kv_u64(&kv, "write_ios", &p->ios[SSDLOAD_DIR_WRITE]);
	ssl_kv_u64(&kv, "trim_ios", &p->ios[SSDLOAD_DIR_TRIM]);
	opt_u64(&kv, "cpu_ns", &p->cpu_ns);
	opt_u64(&kv, "inflight", &p->inflight);
	opt_u64(&kv, "timed_out_ios", &p->timed_out_ios);
	ssl_kv_u64(&kv, "step", &p->step);	/* 0 when absent (no steps) */
	ssl_kv_u64(&kv, "loop", &p->loop);
	ssl_kv_free(&kv);
	free(buf);
	return 0;
}

int results_open_lease(const char *job)
{
	char path[4096];
	int fd, err = dbg_path(path, sizeof(path), job, SSDLOAD_DBG_LEASE);

	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
