// SPDX-License-Identifier: GPL-2.0
/* The QD 1 latency grid: see latgrid.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/options.h"
#include "core/util.h"
#include "methods/latgrid.h"
#include "methods/method.h"
#include "methods/runner.h"

int ssl_grid_bs_list(const char *cmd, const char *val, struct ssl_grid *g)
{
	char buf[512], *tok, *save = NULL;
	unsigned int i, k = 0;
	uint64_t b;

	if (strlen(val) >= sizeof(buf)) {
		ssl_err("%s: --bs: too long", cmd);
		return -1;
	}
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (ssl_parse_size(tok, &b) || !b || b % 512 || b > SSL_GRID_MAX_BS_BYTES) {
			ssl_err("%s: --bs=%s: '%s' is not a size of 512 bytes to 64 MiB in "
				"steps of 512", cmd, val, tok);
			return -1;
		}
		if (k == SSL_GRID_MAX_BS) {
			ssl_err("%s: --bs=%s: at most %u sizes", cmd, val, SSL_GRID_MAX_BS);
			return -1;
		}
		for (i = 0; i < k; i++)
			if (g->bs[i] == b) {
				ssl_err("%s: --bs=%s: %s is given twice", cmd, val, tok);
				return -1;
			}
		g->bs[k++] = (unsigned int)b;
	}
	if (!k) {
		ssl_err("%s: --bs=%s: give one size or more, e.g. 512,4k,8k", cmd, val);
		return -1;
	}
	g->nbs = k;
	return 0;
}

int ssl_grid_pct_list(const char *cmd, const char *val, struct ssl_grid *g)
{
	if (ssl_parse_percentiles(val, g->pct, SSL_GRID_MAX_PCT, &g->npct) || !g->npct) {
		ssl_err("%s: --percentiles=%s: give 1 to %d percentiles above 0, at most 100, "
			"as fio's percentile_list (99:99.9:99.99)", cmd, val, SSL_GRID_MAX_PCT);
		return -1;
	}
	return 0;
}

const char *ssl_grid_rw(unsigned int mix)
{
	return mix >= 100 ? "randread" : mix ? "randrw" : "randwrite";
}

bool ssl_grid_writes(const struct ssl_grid *g)
{
	unsigned int i;

	for (i = 0; i < g->nmix; i++)
		if (g->mix[i] < 100)
			return true;
	return false;
}

void ssl_grid_steps(const struct ssl_grid *g, FILE *f)
{
	unsigned int k;

	fprintf(f, "# ssdload latency-grid: one step per cell (block size x R/W mix), QD 1\n");
	for (k = 0; k < ssl_grid_cells(g); k++) {
		unsigned int bs = g->bs[k / g->nmix], mix = g->mix[k % g->nmix];
		const char *rw = ssl_grid_rw(mix);

		if (mix > 0 && mix < 100)
			fprintf(f, "rw=%s rwmixread=%u bs=%u\t# %u/%u\n", rw, mix, bs, mix,
				100 - mix);
		else
			fprintf(f, "rw=%s bs=%u\t# %u/%u\n", rw, bs, mix, 100 - mix);
	}
}

void ssl_grid_pct_str(const struct ssl_grid *g, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < g->npct && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%g", i ? ":" : "", g->pct[i]);
}

/* the sums of a cell's directions */
struct cell_sums {
	double ios, iops, bw, lat_sum, lat_max;
};

/* One direction of a cell, its sums added into @t: NULL without I/O. */
static json_object *cell_dir(json_object *x, json_object *bins, struct cell_sums *t)
{
	json_object *clat = jget(x, "clat_ns"), *o;
	double n = jnum(x, "total_ios", 0), max = jnum(clat, "max", 0);

	if (!x || n <= 0)
		return NULL;
	o = run_dir_head(x);
	jset(o, "lat_max_ns", json_object_new_int64((int64_t)max));
	t->ios += n;
	t->iops += jnum(x, "iops", 0);
	t->bw += jnum(x, "bw_bytes", 0);
	t->lat_sum += n * jnum(clat, "mean", 0);
	if (max > t->lat_max)
		t->lat_max = max;
	ssl_bins_merge(bins, clat);
	return o;
}

json_object *ssl_grid_cell(const struct ssl_grid *g, unsigned int k, json_object *step)
{
	unsigned int mix = g->mix[k % g->nmix];
	json_object *o = json_object_new_object(), *bins = json_object_new_object();
	json_object *rd, *wr, *pc = json_object_new_object();
	struct cell_sums t = { 0 };
	double rd_ios;
	char key[32];
	int i;

	jset(o, "step", json_object_new_int((int)jnum(step, "step", (double)k + 1)));
	jset(o, "bs", json_object_new_int((int)g->bs[k / g->nmix]));
	jset(o, "mix", json_object_new_int((int)mix));
	jset(o, "rw", json_object_new_string(ssl_grid_rw(mix)));
	rd = cell_dir(jget(step, "read"), bins, &t);
	rd_ios = t.ios;
	wr = cell_dir(jget(step, "write"), bins, &t);
	jset(o, "read", rd);
	jset(o, "write", wr);
	jset(o, "ios", json_object_new_int64((int64_t)t.ios));
	jset(o, "read_pct", t.ios > 0 ? json_object_new_double(100 * rd_ios / t.ios) : NULL);
	jset(o, "iops", json_object_new_double(t.iops));
	jset(o, "bw_bytes", json_object_new_double(t.bw));
	jset(o, "lat_mean_ns", t.ios > 0 ? json_object_new_double(t.lat_sum / t.ios) : NULL);
	jset(o, "lat_max_ns", t.ios > 0 ? json_object_new_int64((int64_t)t.lat_max) : NULL);
	for (i = 0; i < g->npct; i++) {
		snprintf(key, sizeof(key), "%f", g->pct[i]);
		jset(pc, key, ssl_bins_pct(bins, g->pct[i]));
	}
	jset(o, "percentiles", pc);
	json_object_put(bins);
	return o;
}
