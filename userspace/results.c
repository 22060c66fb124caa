// SPDX-License-Identifier: GPL-2.0
/* Parse the debugfs summary/progress text and validate the hist files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "options.h"
#include "results.h"
#include "util.h"

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
	opt_u64(kv, "numjobs", &s->numjobs);
	opt_u64(kv, "bs_min", &s->bs_min);
	opt_u64(kv, "bs_max", &s->bs_max);
	opt_u64(kv, "blockalign", &s->blockalign);
}

/* devices=N and devI_*; 0 or -1 (out of memory, @err set) */
static int parse_devices(const struct ssl_kvlist *kv, struct ssl_summary *s,
			 char *err, size_t errlen)
{
	uint64_t n;
	unsigned int i, d;
	const char *v;
	char key[64];

	if (ssl_kv_u64(kv, "devices", &n) || !n)
		return 0;
	if (n > 4096)
		n = 4096;
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
		snprintf(key, sizeof(key), "dev%u_span_start", i);
		ssl_kv_u64(kv, key, &dv->span_start);
		snprintf(key, sizeof(key), "dev%u_span_bytes", i);
		ssl_kv_u64(kv, key, &dv->span_bytes);
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			snprintf(key, sizeof(key), "dev%u_%s_ios", i, dir_names[d]);
			ssl_kv_u64(kv, key, &dv->ios[d]);
			snprintf(key, sizeof(key), "dev%u_%s_bytes", i, dir_names[d]);
			ssl_kv_u64(kv, key, &dv->bytes[d]);
			snprintf(key, sizeof(key), "dev%u_%s_errors", i, dir_names[d]);
			ssl_kv_u64(kv, key, &dv->errors[d]);
			snprintf(key, sizeof(key), "dev%u_%s_done", i, dir_names[d]);
			ssl_kv_u64(kv, key, &dv->done[d]);
			snprintf(key, sizeof(key), "dev%u_%s_lat_sum_ns", i, dir_names[d]);
			ssl_kv_u64(kv, key, &dv->lat_sum_ns[d]);
		}
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

int results_parse_summary(char *text, struct ssl_summary *s, char *err, size_t errlen)
{
	struct ssl_kvlist kv;
	const char *v;
	uint64_t u;
	unsigned int d, i;
	char key[64];

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
	s->workers = (unsigned int)u;
	if (ssl_kv_u64(&kv, "runtime_ns", &s->runtime_ns)) {
		snprintf(err, errlen, "summary: missing runtime_ns");
		goto fail;
	}
	ssl_kv_u64(&kv, "ramp_ns", &s->ramp_ns);

	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		struct ssl_dir_stats *ds = &s->dir[d];
		static const struct {
			const char *suffix;
			size_t off;
		} fields[] = {
			{ "ios", offsetof(struct ssl_dir_stats, ios) },
			{ "bytes", offsetof(struct ssl_dir_stats, bytes) },
			{ "errors", offsetof(struct ssl_dir_stats, errors) },
			{ "lat_min_ns", offsetof(struct ssl_dir_stats, lat_min_ns) },
			{ "lat_mean_ns", offsetof(struct ssl_dir_stats, lat_mean_ns) },
			{ "lat_max_ns", offsetof(struct ssl_dir_stats, lat_max_ns) },
			{ "lat_stddev_ns", offsetof(struct ssl_dir_stats, lat_stddev_ns) },
		};

		for (i = 0; i < ARRAY_SIZE(fields); i++) {
			snprintf(key, sizeof(key), "%s_%s", dir_names[d],
				 fields[i].suffix);
			if (ssl_kv_u64(&kv, key, (uint64_t *)((char *)ds + fields[i].off))
			    && i < 2 && d != SSDLOAD_DIR_TRIM) {
				snprintf(err, errlen, "summary: missing or bad %s", key);
				goto fail;
			}
		}
		if (d == SSDLOAD_DIR_TRIM) {	/* a module without trims has no keys */
			snprintf(key, sizeof(key), "%s_ios", dir_names[d]);
			s->have_trim = ssl_kv_get(&kv, key) != NULL;
		}
		snprintf(key, sizeof(key), "%s_lat_sum_ns", dir_names[d]);
		ds->have_sums = !ssl_kv_u64(&kv, key, &ds->lat_sum_ns);
		snprintf(key, sizeof(key), "%s_lat_sumsq_ns2", dir_names[d]);
		v = ssl_kv_get(&kv, key);
		if (!v || parse_u128_ld(v, &ds->lat_sumsq_ns2))
			ds->have_sums = 0;
	}

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
		for (i = 0; i < s->workers; i++) {
			struct ssl_worker *w = &s->worker[i];

			snprintf(key, sizeof(key), "worker%u_cpu", i);
			w->cpu = ssl_kv_u64(&kv, key, &u) ? -1 : (long)u;
			for (d = 0; d < SSDLOAD_DIR_NR; d++) {
				snprintf(key, sizeof(key), "worker%u_%s_ios", i,
					 dir_names[d]);
				ssl_kv_u64(&kv, key, &w->ios[d]);
				snprintf(key, sizeof(key), "worker%u_%s_errors", i,
					 dir_names[d]);
				ssl_kv_u64(&kv, key, &w->errors[d]);
				snprintf(key, sizeof(key), "worker%u_%s_bytes", i,
					 dir_names[d]);
				opt_u64(&kv, key, &w->bytes[d]);
				snprintf(key, sizeof(key), "worker%u_%s_lat_min_ns", i,
					 dir_names[d]);
				opt_u64(&kv, key, &w->lat_min_ns[d]);
				snprintf(key, sizeof(key), "worker%u_%s_lat_max_ns", i,
					 dir_names[d]);
				opt_u64(&kv, key, &w->lat_max_ns[d]);
				snprintf(key, sizeof(key), "worker%u_%s_lat_sum_ns", i,
					 dir_names[d]);
				opt_u64(&kv, key, &w->lat_sum_ns[d]);
			}
			snprintf(key, sizeof(key), "worker%u_cpu_ns", i);
			opt_u64(&kv, key, &w->cpu_ns);
			snprintf(key, sizeof(key), "worker%u_ctx", i);
			opt_u64(&kv, key, &w->ctx);
			snprintf(key, sizeof(key), "worker%u_pid", i);
			opt_u64(&kv, key, &w->pid);
			snprintf(key, sizeof(key), "worker%u_ran_on", i);
			v = ssl_kv_get(&kv, key);
			w->ran_on = v ? strdup(v) : NULL;
			if (v && !w->ran_on) {
				snprintf(err, errlen, "out of memory");
				goto fail;
			}
		}
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

int results_parse_hist(const void *buf, size_t len, int dir, struct ssl_hist *h,
		       char *err, size_t errlen)
{
	const struct ssdload_hist_header *hdr = buf;
	size_t need;

	memset(h, 0, sizeof(*h));
	if (len < sizeof(*hdr)) {
		snprintf(err, errlen, "short file (%zu bytes, header is %zu)",
			 len, sizeof(*hdr));
		return -1;
	}
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

int results_read(const char *job, struct ssl_summary *s,
		 struct ssl_hist h[SSDLOAD_DIR_NR])
{
	static const char *const files[SSDLOAD_DIR_NR] = {
		SSDLOAD_DBG_HIST_READ, SSDLOAD_DBG_HIST_WRITE, SSDLOAD_DBG_HIST_TRIM,
	};
	char err[256], *buf;
	size_t len;
	int d, r;

	memset(h, 0, sizeof(*h) * SSDLOAD_DIR_NR);
	memset(s, 0, sizeof(*s));
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
		r = read_dbg(job, files[d], &buf, &len);
		if (r == -ENOENT && !s->dir[d].ios)
			continue;
		if (r) {
			ssl_err("%s/%s/%s: %s", ssl_debugfs_root(), job, files[d],
				strerror(-r));
			goto fail;
		}
		r = results_parse_hist(buf, len, d, &h[d], err, sizeof(err));
		free(buf);
		if (r) {
			ssl_err("%s/%s/%s: %s", ssl_debugfs_root(), job, files[d], err);
			goto fail;
		}
	}
	return 0;

fail:
	results_free_summary(s);
	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		results_free_hist(&h[d]);
	return -1;
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
