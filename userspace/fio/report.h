/* SPDX-License-Identifier: GPL-2.0 */
/* fio-like normal text and fio-schema JSON reports. */
#ifndef SSDLOAD_CLI_REPORT_H
#define SSDLOAD_CLI_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "core/options.h"
#include "core/results.h"
#include "fio/steadystate.h"

/* one entry of fio's "job options" object (values kept as given) */
struct ssl_latstudy;

struct ssl_job_option {
	const char *key;		/* fio option name */
	const char *val;		/* as typed; "" for a bare flag */
	int global;			/* from a job file's [global]: fio's "global options" */
};

/* fio's disk_util: one device's block-layer counts over the run */
struct ssl_disk_util {
	char name[64];
	uint64_t ios[2], merges[2], ticks[2];	/* read, write; ticks in ms */
	uint64_t in_queue;			/* ms */
	double util;				/* percent of the run busy */
};

struct ssl_report {
	const char *name;			/* job name */
	long pid;				/* shown as pid= (0 if unknown) */
	time_t when;				/* end of the run */
	const struct ssl_summary *sum;
	const struct ssl_hist *hist;		/* [SSDLOAD_DIR_NR] */
	const struct ssl_hist *ihist;		/* [SSDLOAD_DIR_NR] hist_intended_*,
						 * or NULL
						 */
	const struct ssl_hist *shist;		/* hist_sync (flushes), or NULL */
	const struct ssl_series *series;	/* time series, or NULL */
	const struct ssl_steps *steps;		/* per-step results, or NULL */
	const double *plist;			/* percentiles to report */
	int np;
	const struct ssl_job_option *opts;	/* "job options" */
	int nopts;
	uint64_t iodepth;			/* configured, 0 if unknown */
	int group_reporting;			/* one JSON entry for all workers */
	const struct ssl_latstudy *lat;		/* --latency-*, or NULL */
	int bins;				/* json+: clat_ns/lat_ns "bins" */
	const struct ssl_disk_util *disks;	/* disk_util, or NULL */
	int ndisks;
	const struct ssl_fio_ss *ss;		/* fio's steadystate, or NULL */
	const struct ssl_verify *verify;	/* debugfs verify, or NULL */
};

/* fio's default percentile_list */
extern const double ssl_default_percentiles[];
extern const int ssl_default_percentiles_nr;

/*
 * Print the report in each format of the set @fmt (enum
 * ssl_output_format), JSON first as fio does; 0, or -1 if out of memory.
 */
int report_print(FILE *f, const struct ssl_report *r, unsigned int fmt);

/* fio's display of a latency in ns: usec or msec with 2 decimals */
void ssl_lat_str(char *buf, size_t len, double ns);
void ssl_num2str(char *buf, size_t len, uint64_t num, int maxlen, int pow2, const char *unit);
/* a duration in ns: seconds with 2 decimals, or as ssl_lat_str() below 1 s */
void ssl_secs_str(char *buf, size_t len, uint64_t ns);

#endif /* SSDLOAD_CLI_REPORT_H */
