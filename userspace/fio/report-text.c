// SPDX-License-Identifier: GPL-2.0
/*
 * fio's normal text output: the per-job block of fio 3.x, then the run
 * status group, disk stats and ssdload's per-step table.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/latstudy.h"
#include "core/util.h"
#include "fio/report-view.h"

/*
 * fio's num2str(): at most @maxlen significant digits, k/M/G or Ki/Mi/Gi,
 * then @unit ("", "B", "B/s")
 */
void ssl_num2str(char *buf, size_t len, uint64_t num, int maxlen, int pow2, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	const char *const *pfx = pow2 ? iec : si;
	const unsigned int thousand = pow2 ? 1024 : 1000;
	unsigned int modulo = (unsigned int)-1, post = 0;
	char tmp[32];
	int carry = 0, room;

	while (post < ARRAY_SIZE(si)) {
		snprintf(tmp, sizeof(tmp), "%" PRIu64, num);
		if ((int)strlen(tmp) <= maxlen)
			break;
		modulo = (unsigned int)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		post++;
	}
	if (post >= ARRAY_SIZE(si))
		post = 0;
	snprintf(tmp, sizeof(tmp), "%" PRIu64, num);
	room = maxlen - (int)strlen(tmp) - 1;
	if (modulo == (unsigned int)-1 || room <= 0) {
		if (modulo != (unsigned int)-1 && carry)
			num++;
		snprintf(buf, len, "%" PRIu64 "%s%s", num, pfx[post], unit);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.*f", room, (double)modulo / thousand);
	if (tmp[0] == '1')	/* rounded up to 1.0 */
		snprintf(buf, len, "%" PRIu64 "%s%s", num + 1, pfx[post], unit);
	else
		snprintf(buf, len, "%" PRIu64 ".%s%s%s", num, tmp + 2, pfx[post],
			 unit);
}

/* fio's display_lat(): nsec, or usec/msec when min and mean exceed 1000 */
static void print_lat(FILE *f, const char *name, const struct dir_view *v)
{
	uint64_t min = v->min, max = v->max;
	double mean = v->mean, dev = v->stddev;
	const char *base = "nsec";
	char minp[32], maxp[32];

	if (min > 1000000 && mean > 1000000) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1e6;
		dev /= 1e6;
		base = "msec";
	} else if (min > 1000 && mean > 1000) {
		min /= 1000;
		max /= 1000;
		mean /= 1e3;
		dev /= 1e3;
		base = "usec";
	}
	ssl_num2str(minp, sizeof(minp), min, 6, 0, "");
	ssl_num2str(maxp, sizeof(maxp), max, 6, 0, "");
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n",
		name, base, minp, maxp, mean, dev);
}

/* fio's show_clat_percentiles(): 4 per line, one unit for the block */
static void print_percentiles(FILE *f, const struct ssl_report *r,
			      const char *title, const struct dir_view *v)
{
	uint64_t minv = UINT64_MAX, maxv = 0, div = 1;
	const char *base = "nsec";
	int j;

	if (!r->np || !v->counts)
		return;
	for (j = 0; j < r->np; j++) {
		if (v->pct[j] < minv)
			minv = v->pct[j];
		if (v->pct[j] > maxv)
			maxv = v->pct[j];
	}
	if (minv > 2000000 && maxv > 99999999ULL) {
		div = 1000000;
		base = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		div = 1000;
		base = "usec";
	}
	fprintf(f, "    %s percentiles (%s):\n     |", title, base);
	for (j = 0; j < r->np; j++) {
		int last = j == r->np - 1;
		char fbuf[16];

		if (j && j % 4 == 0)
			fprintf(f, "     |");
		snprintf(fbuf, sizeof(fbuf), r->plist[j] < 10.0 ? " %2.2f" : "%2.2f",
			 r->plist[j]);
		fprintf(f, " %sth=[%5" PRIu64 "]%c", fbuf,
			(v->pct[j] + div - 1) / div, last ? '\n' : ',');
		if (!last && j % 4 == 3)
			fputc('\n', f);
	}
}

/*
 * fio's block of the syncs (the flushes of fsync and end_fsync), and
 * ssdload's count of FUA writes (sync, write_barrier)
 */
static void print_sync(FILE *f, const struct ssl_report *r)
{
	const struct ssl_summary *s = r->sum;
	struct dir_view v;

	rep_sync_view(r, &v);
	if (v.n) {
		fprintf(f, "  fsync/fdatasync/sync_file_range:\n");
		print_lat(f, "sync", &v);
		print_percentiles(f, r, "sync", &v);
	}
	if (s->fua_writes.have && s->fua_writes.v)
		fprintf(f, "  fua writes   : %" PRIu64 " (of them %" PRIu64
			" barriers: PREFLUSH+FUA)\n", s->fua_writes.v,
			s->barrier_writes.have ? s->barrier_writes.v : 0);
}

static void print_lat_dist(FILE *f, const char *unit, const double *vals, int nr)
{
	int i, shown = 0;

	for (i = 0; i < nr; i++) {
		if (vals[i] < 0.005)	/* fio leaves out what rounds to 0.00% */
			continue;
		if (shown % 5 == 0)
			fprintf(f, "%s  lat (%s)   : ", shown ? "\n" : "", unit);
		else
			fputs(", ", f);
		fprintf(f, "%s=%3.2f%%", ssl_lat_ranges[i], vals[i]);
		shown++;
	}
	if (shown)
		fputc('\n', f);
}

/*
 * fio's bw and iops lines (show_ddir_status()), from the samples: none
 * without them, as fio prints none without samples.
 */
static void print_samples(FILE *f, const struct dir_view *v)
{
	uint64_t min, max;
	double mean, dev, per;
	const char *unit = "KiB";

	if (rep_io_stat_calc(&v->bw_stat, &min, &max, &mean, &dev)) {
		per = rep_agg_percent(v->agg_bytes, mean);
		if (mean > 1024.0 * 1024.0) {
			min = (uint64_t)((double)min / 1024.0);
			max = (uint64_t)((double)max / 1024.0);
			mean /= 1024.0;
			dev /= 1024.0;
			unit = "MiB";
		}
		fprintf(f, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64 ", per=%3.2f%%, "
			"avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n", unit, min, max, per,
			mean, dev, v->bw_stat.samples);
	}
	if (rep_io_stat_calc(&v->iops_stat, &min, &max, &mean, &dev))
		fprintf(f, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.02f, "
			"stdev=%5.02f, samples=%" PRIu64 "\n", min, max, mean, dev,
			v->iops_stat.samples);
}

/* summary poll_fallback values, as the module prints them */
static const struct {
	const char *key;
	const char *why;
} poll_fallbacks[] = {
	{ "no_poll_queues", "the device has no poll queues" },
	{ "bio_based", "the device is bio-based (dm, md, NVMe multipath)" },
	{ "split", "bs exceeds the device's limits, so each I/O is split" },
	{ "no_nowait", "the device's queue cannot fail a submission fast (no nowait)" },
};

/* What the module noticed that changes how to read the numbers. */
static void print_notes(FILE *f, const struct ssl_summary *s)
{
	const char *why = NULL;
	unsigned int i;
	char cpu[32];

	if (s->poll_fallback[0] && strcmp(s->poll_fallback, "none")) {
		for (i = 0; i < ARRAY_SIZE(poll_fallbacks); i++)
			if (!strcmp(s->poll_fallback, poll_fallbacks[i].key))
				why = poll_fallbacks[i].why;
		fprintf(f, "  note         : hipri=1 ran with interrupt completions: %s"
			" (poll_fallback=%s)\n", why ? why : "see the kernel log",
			s->poll_fallback);
	}
	if (s->split_ios.v)
		fprintf(f, "  note         : %" PRIu64 " I/Os were split by the block layer"
			" into more than one request\n", s->split_ios.v);
	if (s->nowait_retries.v)
		fprintf(f, "  note         : %" PRIu64 " polled submissions found no free tag"
			" and were retried\n", s->nowait_retries.v);
	if (s->start_at.v && s->have_start_error)
		fprintf(f, "  start        : at start_at=%" PRIu64 " (CLOCK_REALTIME ns);"
			" the last worker began to submit %.1f us after it\n",
			s->start_at.v, (double)s->start_error_ns / 1e3);
	if (s->timed_out_ios.v)
		fprintf(f, "  warning      : %" PRIu64 " I/Os were in flight longer than"
			" io_timeout_ms=%" PRIu64 "\n", s->timed_out_ios.v,
			s->io_timeout_ms.v);
	for (i = 0; i < s->nr_worker; i++) {
		const struct ssl_worker *w = &s->worker[i];

		snprintf(cpu, sizeof(cpu), "%ld", w->cpu);
		if (w->ran_on && w->cpu >= 0 && strcmp(w->ran_on, cpu))
			fprintf(f, "  note         : worker %u, bound to cpu%ld, ran on"
				" CPUs %s\n", i, w->cpu, w->ran_on);
	}
}

/* fio's display of a latency in ns: usec or msec with 2 decimals */
void ssl_lat_str(char *buf, size_t len, double ns)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.2fms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.2fus", ns / 1e3);
	else
		snprintf(buf, len, "%.0fns", ns);
}

/* seconds with 2 decimals, or ms/us below one second */
void ssl_secs_str(char *buf, size_t len, uint64_t ns)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
	else
		ssl_lat_str(buf, len, (double)ns);
}

/*
 * A rate-controlled direction: its target, how far behind it fell, the
 * I/Os sent late, and its latency from the intended send time.
 */
static void print_rate(FILE *f, const struct ssl_report *r, const struct dir_view *v)
{
	const struct ssl_rate_stats *rs = v->rate;
	char target[32], lag[32], amount[32], thr[32];

	if (!rs)
		return;
	if (rs->iops)
		snprintf(target, sizeof(target), "%" PRIu64 " IOPS", rs->iops);
	else
		ssl_num2str(target, sizeof(target), rs->bps, 4, 1, "B/s");
	fprintf(f, "    rate: target %s", target);
	if (r->sum->rate_process[0])
		fprintf(f, " (%s)", r->sum->rate_process);
	if (rs->behind_ios || rs->behind_bytes) {
		if (rs->behind_ios)
			snprintf(amount, sizeof(amount), "%" PRIu64 " I/Os", rs->behind_ios);
		else
			ssl_num2str(amount, sizeof(amount), rs->behind_bytes, 4, 1, "B");
		ssl_secs_str(lag, sizeof(lag), rs->behind_ns);
		fprintf(f, ", fell behind by %s (%s)", amount, lag);
	} else {
		fprintf(f, ", kept up");
	}
	ssl_lat_str(thr, sizeof(thr), (double)(r->sum->late_threshold_ns.have ?
					   r->sum->late_threshold_ns.v : 1000000));
	fprintf(f, "; %" PRIu64 " I/Os sent over %s late\n", rs->late_ios, thr);
	if (v->intended && v->intended->n) {
		print_lat(f, "lat from intended send", v->intended);
		print_percentiles(f, r, "lat from intended send", v->intended);
	}
}

/* The time series, in the JSON only: a pointer to it. */
static void print_series_note(FILE *f, const struct ssl_report *r)
{
	const struct ssl_series *ser = r->series;
	uint64_t i, nint = 0;

	if (!ser || !ser->present)
		return;
	for (i = 0; i < ser->hdr.nr_records; i++)
		if (ser->rec[i].index >= nint)
			nint = (uint64_t)ser->rec[i].index + 1;
	fprintf(f, "  time series  : %" PRIu64 " intervals of %" PRIu64 "ms, %u worker%s, "
		"%" PRIu64 " records%s (in the JSON output)\n", nint,
		(uint64_t)ser->hdr.interval_ns / 1000000, ser->hdr.nr_workers,
		ser->hdr.nr_workers == 1 ? "" : "s", (uint64_t)ser->hdr.nr_records,
		ser->hdr.log_hist ? ", with percentiles" : "");
}

/*
 * fio's steadystate line (show_ss_normal), then when the criterion was
 * met, or that it was not.
 */
static void print_ss(FILE *f, const struct ssl_report *r)
{
	const struct ssl_fio_ss *ss = r->ss;
	uint64_t bw;
	char a[32], b[32], io[32];

	if (!ss || !ss->dur)
		return;
	bw = ssl_fio_ss_mean(ss, 1);
	ssl_num2str(a, sizeof(a), bw, 4, 1, "B/s");
	ssl_num2str(b, sizeof(b), bw, 4, 0, "B/s");
	ssl_num2str(io, sizeof(io), ssl_fio_ss_mean(ss, 0), 4, 0, "");
	fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		ss->attained ? "yes" : "no", a, b, io, ss->bw ? "bw" : "iops",
		ss->by_slope ? " slope" : " mean dev", ss->criterion, ss->pct ? "%" : "");
	if (ss->attained)
		fprintf(f, "                 reached at %" PRIu64 "s of the run, over its "
			"last %us: the job was stopped there\n", ss->attained_s, ss->dur);
	else
		fprintf(f, "                 not reached in %" PRIu64 " sample%s of 1s: the "
			"job ran to its end\n", ss->nr, ss->nr == 1 ? "" : "s");
}

/* One block per device, when the job drove more than one. */
static void print_devices(FILE *f, const struct ssl_summary *s)
{
	char a[32], b[32], io[32], lat[32];
	unsigned int i;
	int d;

	if (s->nr_dev < 2)
		return;
	fprintf(f, "  devices      : %u\n", s->nr_dev);
	for (i = 0; i < s->nr_dev; i++) {
		const struct ssl_device *dv = &s->dev[i];

		ssl_num2str(a, sizeof(a), dv->span_bytes, 4, 1, "B");
		fprintf(f, "    %s: span=%" PRIu64 "+%" PRIu64 " (%s)\n", dv->name,
			dv->span_start, dv->span_bytes, a);
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			if (!dv->ios[d] && !dv->errors[d] && !dv->done[d])
				continue;
			ssl_num2str(io, sizeof(io), dv->bytes[d], 4, 1, "B");
			ssl_num2str(b, sizeof(b), dv->ios[d], 4, 0, "");
			ssl_lat_str(lat, sizeof(lat), ssl_mean(dv->lat_sum_ns[d], dv->ios[d]));
			fprintf(f, "      %-5s: ios=%s, io=%s, errors=%" PRIu64 ", lat avg=%s\n",
				rep_dir_names[d], b, io, dv->errors[d], lat);
		}
	}
}

/*
 * fio's cpu line; the module's figures are for its worker threads.
 * Kernel threads have no user memory to fault on: majf and minf are 0.
 */
static void print_cpu(FILE *f, const struct ssl_summary *s)
{
	if (!s->cpu_ns.have)
		return;
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64
		", majf=0, minf=0\n",
		rep_cpu_pct(s, s->usr_cpu_ns.v, s->workers),
		rep_cpu_pct(s, s->sys_cpu_ns.have ? s->sys_cpu_ns.v :
			s->cpu_ns.v - s->usr_cpu_ns.v, s->workers),
		s->ctx.v);
}

/* "  IO depths    : 1=99.9%, 2=0.1%, ..." in fio's layout */
static void print_depth_line(FILE *f, const char *head, const char *const *keys,
			     const struct ssl_depth_map *m)
{
	double pct[SSDLOAD_DEPTH_NR];
	unsigned int k;

	if (!rep_depth_pct(m, pct))
		return;
	fputs(head, f);
	for (k = 0; k < SSDLOAD_DEPTH_NR; k++)
		fprintf(f, "%s%s=%3.1f%%", k ? ", " : "", keys[k], pct[k]);
	fputc('\n', f);
}

/*
 * fio's lines after cpu.  IO depths, submit and complete are the module's
 * measured distributions (left out when it gave none).  issued rwts
 * counts the measured I/Os that completed, failed ones included (fio's
 * total_io_u counts every issued I/O); none are short or dropped.
 */
static void print_issued(FILE *f, const struct ssl_report *r,
			 const struct dir_view v[SSDLOAD_DIR_NR])
{
	print_depth_line(f, "  IO depths    : ", rep_depth_keys, &r->sum->depth);
	print_depth_line(f, "     submit    : ", rep_batch_keys, &r->sum->submit);
	print_depth_line(f, "     complete  : ", rep_batch_keys, &r->sum->complete);
	fprintf(f, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		" short=0,0,0,0 dropped=0,0,0,0\n", v[0].ios + v[0].errors,
		v[1].ios + v[1].errors, v[2].ios + v[2].errors,
		r->sum->sync.ios + r->sum->sync.errors);
	if (r->iodepth)
		fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, "
			"depth=%" PRIu64 "\n", r->iodepth);
	if (r->sum->cpu_ns.have)
		fprintf(f, "  cpu_ns/io    : %" PRIu64 "\n", r->sum->cpu_ns_per_io.v);
}

/* a size as the CLI takes it: 4k, 1m, or bytes */
static void size_str(char *buf, size_t len, uint64_t b)
{
	if (b && !(b % (1ULL << 30)))
		snprintf(buf, len, "%" PRIu64 "g", b >> 30);
	else if (b && !(b % (1ULL << 20)))
		snprintf(buf, len, "%" PRIu64 "m", b >> 20);
	else if (b && !(b % 1024))
		snprintf(buf, len, "%" PRIu64 "k", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64, b);
}

/* a time in ms as the CLI takes it: 5s, 1500ms */
static void ms_str(char *buf, size_t len, uint64_t ms)
{
	if (ms && !(ms % 1000))
		snprintf(buf, len, "%" PRIu64 "s", ms / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "ms", ms);
}

/* a rate list as --rate_iops/--rate take it: "1000", or "r,w,t" with blanks */
static void rate_list(char *buf, size_t len, const uint64_t v[3], int bw)
{
	size_t n = 0;
	int d;

	buf[0] = '\0';
	if (v[0] == v[1] && v[1] == v[2]) {
		if (bw)
			size_str(buf, len, v[0]);
		else
			snprintf(buf, len, "%" PRIu64, v[0]);
		return;
	}
	for (d = 0; d < 3 && n < len; d++) {
		char one[32] = "";

		if (v[d] && bw)
			size_str(one, sizeof(one), v[d]);
		else if (v[d])
			snprintf(one, sizeof(one), "%" PRIu64, v[d]);
		n += (size_t)snprintf(buf + n, len - n, "%s%s", d ? "," : "", one);
	}
}

/* what a step ran: "randread bs=4k iodepth=8 rate_iops=1000", or "idle 5s" */
static void step_what(char *buf, size_t len, const struct ssdload_steps_rec *rec,
		      uint32_t nr_workers)
{
	char a[32], b[32], rate[128] = "", mix[32] = "", nj[32] = "";

	if (rec->flags & SSDLOAD_STEPS_IDLE) {
		ms_str(a, sizeof(a), rec->idle_ms);
		snprintf(buf, len, "idle %s", a);
		return;
	}
	size_str(a, sizeof(a), rec->bs_min);
	size_str(b, sizeof(b), rec->bs_max);
	if (rec->rw == SSDLOAD_RW_RW || rec->rw == SSDLOAD_RW_RANDRW)
		snprintf(mix, sizeof(mix), " rwmixread=%u", rec->rwmixread);
	if (rec->rate_iops[0] || rec->rate_iops[1] || rec->rate_iops[2]) {
		strcpy(rate, " rate_iops=");
		rate_list(rate + strlen(rate), sizeof(rate) - strlen(rate),
			  (const uint64_t *)rec->rate_iops, 0);
	}
	if (rec->rate[0] || rec->rate[1] || rec->rate[2]) {
		snprintf(rate + strlen(rate), sizeof(rate) - strlen(rate), " rate=");
		rate_list(rate + strlen(rate), sizeof(rate) - strlen(rate),
			  (const uint64_t *)rec->rate, 1);
	}
	/* a step on fewer workers than the job's */
	if (rec->numjobs != nr_workers)
		snprintf(nj, sizeof(nj), " numjobs=%u", rec->numjobs);
	snprintf(buf, len, "%s%s bs=%s%s%s iodepth=%u%s%s", rep_step_rw_name(rec->rw), mix,
		 a, rec->bs_min != rec->bs_max ? "-" : "",
		 rec->bs_min != rec->bs_max ? b : "", rec->iodepth, nj, rate);
}

/*
 * The per-step table: what each step ran, and over its measured time its
 * I/Os per second and MiB/s (all directions), its mean and p99 latency
 * (all directions; p99 from the step's histograms), and the gap before it.
 */
static void print_steps(FILE *f, const struct ssl_report *r)
{
	const struct ssl_steps *st = r->steps;
	uint64_t *sum = NULL;
	int wide = 4;
	uint32_t i;
	int d;

	if (!rep_have_steps(r))
		return;
	for (i = 0; i < st->hdr.nr_steps; i++) {
		char what[256];

		step_what(what, sizeof(what), &st->step[i].rec, st->hdr.nr_workers);
		if ((int)strlen(what) > wide)
			wide = (int)strlen(what);
	}
	sum = malloc(SSDLOAD_HIST_BUCKETS * sizeof(*sum));
	fprintf(f, "\nSteps: %u, loops=%u, workers=%u\n", st->hdr.nr_steps, st->hdr.loops,
		st->hdr.nr_workers);
	fprintf(f, "  %4s  %-*s  %8s  %9s  %9s  %9s  %9s  %9s\n", "step", wide, "what",
		"IOPS", "MiB/s", "lat mean", "lat p99", "gap max", "gap mean");
	for (i = 0; i < st->hdr.nr_steps; i++) {
		const struct ssl_step *sp = &st->step[i];
		const struct ssdload_steps_rec *rec = &sp->rec;
		uint64_t ios = 0, bytes = 0, lsum = 0, min = 0, max = 0, n = 0;
		char what[256], iops[32] = "-", mibs[32] = "-", mean[32] = "-", p99[32] = "-";
		char gmax[32] = "-", gmean[32] = "-";
		int hist = 0;
		uint32_t k;

		step_what(what, sizeof(what), rec, st->hdr.nr_workers);
		if (sum)
			memset(sum, 0, SSDLOAD_HIST_BUCKETS * sizeof(*sum));
		for (d = 0; d < SSDLOAD_DIR_NR; d++) {
			const struct ssdload_steps_dir *x = &rec->dir[d];

			ios += x->ios;
			bytes += x->bytes;
			lsum += x->lat_sum_ns;
			if (x->ios && (!min || x->lat_min_ns < min))
				min = x->lat_min_ns;
			if (x->lat_max_ns > max)
				max = x->lat_max_ns;
			if (sp->hist[d] && sum) {
				for (k = 0; k < SSDLOAD_HIST_BUCKETS; k++)
					sum[k] += sp->hist[d][k];
				hist = 1;
			}
		}
		if (!(rec->flags & SSDLOAD_STEPS_IDLE)) {
			double secs = (double)rec->runtime_ns / 1e9;

			if (secs > 0) {
				ssl_num2str(iops, sizeof(iops), (uint64_t)((double)ios / secs + 0.5),
					4, 0, "");
				snprintf(mibs, sizeof(mibs), "%.1f",
					 (double)bytes / 1048576.0 / secs);
			}
			if (ios && lsum)
				ssl_lat_str(mean, sizeof(mean), ssl_mean(lsum, ios));
			if (hist)
				n = ssl_hist_total(sum, SSDLOAD_HIST_BUCKETS);
			if (n)
				ssl_lat_str(p99, sizeof(p99), (double)ssl_hist_percentile(
					sum, SSDLOAD_HIST_BUCKETS, 99.0, min, max));
		}
		if (rec->gaps) {
			ssl_secs_str(gmax, sizeof(gmax), rec->gap_max_ns);
			ssl_secs_str(gmean, sizeof(gmean),
				 (uint64_t)(ssl_mean(rec->gap_sum_ns, rec->gaps) + 0.5));
		}
		fprintf(f, "  %4u  %-*s  %8s  %9s  %9s  %9s  %9s  %9s\n", rec->step, wide,
			what, iops, mibs, mean, p99, gmax, gmean);
	}
	free(sum);
}

/* "  workers      : cpu0=R/W[/T], ..." (one worker's measured I/Os each) */
static void print_workers(FILE *f, const struct ssl_summary *s, int trims)
{
	unsigned int i;

	if (!s->nr_worker)
		return;
	fprintf(f, "  workers      :");
	for (i = 0; i < s->nr_worker; i++) {
		const struct ssl_worker *w = &s->worker[i];

		fprintf(f, "%s cpu%ld=%" PRIu64 "/%" PRIu64, i ? "," : "",
			w->cpu, w->ios[0], w->ios[1]);
		if (trims)
			fprintf(f, "/%" PRIu64, w->ios[2]);
	}
	fprintf(f, trims ? " (read/write/trim I/Os)\n" : " (read/write I/Os)\n");
}

/* the job's I/Os and errors per direction (trims when it did any) */
static void print_totals(FILE *f, const struct dir_view v[SSDLOAD_DIR_NR], int trims)
{
	fprintf(f, "  total I/Os: read=%" PRIu64 ", write=%" PRIu64, v[0].ios, v[1].ios);
	if (trims)
		fprintf(f, ", trim=%" PRIu64, v[2].ios);
	fputc('\n', f);
	if (v[0].errors || v[1].errors || v[2].errors) {
		fprintf(f, "  errors    : read=%" PRIu64 ", write=%" PRIu64,
			v[0].errors, v[1].errors);
		if (trims)
			fprintf(f, ", trim=%" PRIu64, v[2].errors);
		fputc('\n', f);
	}
}

/* fio's "Run status group 0" lines, then its disk stats when measured */
static void print_group(FILE *f, const struct ssl_report *r,
			const struct dir_view v[SSDLOAD_DIR_NR])
{
	char a[32], b[32], c[32], io[32];
	int d, i;

	fprintf(f, "\nRun status group 0 (all jobs):\n");
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		const struct dir_view *dv = &v[d];

		if (!dv->ios && !dv->errors)
			continue;
		ssl_num2str(a, sizeof(a), dv->bw_bytes, 4, 1, "B/s");
		ssl_num2str(b, sizeof(b), dv->bw_bytes, 4, 0, "B/s");
		ssl_num2str(io, sizeof(io), dv->bytes, 4, 1, "B");
		ssl_num2str(c, sizeof(c), dv->bytes, 4, 0, "B");
		fprintf(f, "%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64
			"-%" PRIu64 "msec\n", rep_dir_upper[d], a, b, a, a, b, b, io, c,
			dv->runtime_ms, dv->runtime_ms);
	}
	if (!r->ndisks)
		return;
	fprintf(f, "\nDisk stats (read/write):\n");
	for (i = 0; i < r->ndisks; i++) {
		const struct ssl_disk_util *u = &r->disks[i];

		fprintf(f, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
			", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64
			", util=%.2f%%\n", u->name, u->ios[0], u->ios[1], u->merges[0],
			u->merges[1], u->ticks[0], u->ticks[1], u->in_queue, u->util);
	}
}

/* fio's per-job block, the group's lines, then ssdload's steps */
void rep_print_normal(FILE *f, const struct ssl_report *r,
		      const struct dir_view v[SSDLOAD_DIR_NR])
{
	double ns[SSL_LAT_NS_NR] = { 0 }, us[SSL_LAT_US_NR] = { 0 };
	double ms[SSL_LAT_MS_NR] = { 0 };
	uint64_t all = v[0].n + v[1].n + v[2].n;
	int trims = r->sum->have_trim && (v[2].ios || v[2].errors);
	char when[64], a[32], b[32], c[32], io[32];
	int d, any = 0;

	if (!strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&r->when)))
		when[0] = '\0';
	fprintf(f, "%s: (groupid=0, jobs=%u): err=%2lld: pid=%ld: %s\n", r->name,
		r->sum->workers, -r->sum->error, r->pid, when);
	for (d = 0; d < SSDLOAD_DIR_NR; d++) {
		const struct dir_view *dv = &v[d];

		if (!dv->ios && !dv->errors)
			continue;
		any = 1;
		ssl_num2str(a, sizeof(a), (uint64_t)(dv->iops + 0.5), 4, 0, "");
		ssl_num2str(b, sizeof(b), dv->bw_bytes, 4, 1, "B/s");
		ssl_num2str(c, sizeof(c), dv->bw_bytes, 4, 0, "B/s");
		ssl_num2str(io, sizeof(io), dv->bytes, 4, 1, "B");
		fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n",
			rep_dir_names[d], a, b, c, io, dv->runtime_ms);
		if (dv->n) {
			print_lat(f, "clat", dv);
			print_lat(f, " lat", dv);
			print_percentiles(f, r, "clat", dv);
			if (dv->counts)
				ssl_hist_lat_dist(dv->counts, SSDLOAD_HIST_BUCKETS,
						  all, ns, us, ms);
		}
		print_samples(f, dv);
		print_rate(f, r, dv);
	}
	if (!any)
		fprintf(f, "  no measured I/O\n");
	print_lat_dist(f, "nsec", ns, SSL_LAT_NS_NR);
	print_lat_dist(f, "usec", us, SSL_LAT_US_NR);
	print_lat_dist(f, "msec", ms, SSL_LAT_MS_NR);
	print_sync(f, r);
	rep_print_verify(f, r);
	print_cpu(f, r->sum);
	print_issued(f, r, v);
	print_ss(f, r);
	print_workers(f, r->sum, trims);
	print_devices(f, r->sum);
	print_series_note(f, r);
	print_totals(f, v, trims);
	print_notes(f, r->sum);
	if (r->lat)
		ssl_latstudy_print(f, r->lat, r->sum, r->hist);
	print_group(f, r, v);
	print_steps(f, r);
}
