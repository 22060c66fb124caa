/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload replay: the plan of a replay (replay-plan.c) shared with the
 * command (cmd-replay.c): its options, its targets, the map of the
 * trace's devices onto them, the trace's figures from a first pass, and
 * the mapping of one trace record into the module's record.
 */
#ifndef SSDLOAD_CLI_REPLAY_H
#define SSDLOAD_CLI_REPLAY_H

#include <limits.h>
#include <stdint.h>

#include "uapi/ssdload.h"
#include "trace/trace.h"

enum rp_offset_map {
	RP_MAP_REFUSE,		/* a record beyond its device is refused */
	RP_MAP_WRAP,		/* offset modulo the device's size */
	RP_MAP_SCALE,		/* offsets scaled to the device's size */
};

#define RP_MAX_MAP	64	/* --map entries */

struct rp_opts {
	const char *trace;		/* the trace file */
	const char *filename;		/* --filename, fio's list, or NULL */
	enum trace_format fmt;		/* --trace-format */
	uint64_t time_scale;		/* percent (--speed x 100) */
	int no_stall;			/* --no-stall */
	uint64_t iodepth;		/* --iodepth */
	enum rp_offset_map offset_map;	/* --offset-map */
	uint64_t replay_align;		/* bytes, power of 2; 0 = none */
	uint64_t replay_scale;		/* offsets divided by this; 0/1 = none */
	int nmap;			/* --map=NAME:PATH entries */
	char *map_name[RP_MAX_MAP];
	char *map_path[RP_MAX_MAP];
	int allow_write;		/* --allow_write */
	uint64_t runtime_ms;		/* --runtime, 0 = the whole trace */
	unsigned int fmt_out;		/* enum ssl_output_format */
	int parse_only;			/* --parse-only: plan, print, stop */
	int dump;			/* --dump: print every mapped record */
	const char *name;		/* --name: the configfs job */
};

struct rp_target {
	char path[PATH_MAX];
	uint64_t size;			/* bytes */
	uint32_t lbs;			/* logical block size, bytes */
};

/* The trace's recorded response times (MSR, blktrace D->C), per op. */
struct rp_resp {
	uint64_t *counts;		/* SSDLOAD_HIST_BUCKETS, NULL = none */
	uint64_t n, min, max, sum;
};

struct rp_plan {
	const struct rp_opts *o;
	struct rp_target tgt[SSDLOAD_MAX_DEVS];
	unsigned int ntgt;
	unsigned int nfile;		/* of them, from --filename (first) */
	unsigned int next_file;		/* the next --filename target to give */
	unsigned int ndevs;		/* trace devices seen */
	int *devmap;			/* trace device -> target */
	uint64_t *dev_end;		/* per trace device: the largest
					 * offset + length (replay_scale,
					 * replay_align applied)
					 */
	/* the first pass */
	uint64_t nrec;			/* records */
	uint64_t ops[TRACE_NR_OPS];	/* records per op */
	uint64_t bytes[TRACE_NR_OPS];	/* their bytes */
	uint32_t maxlen;		/* the longest record */
	uint64_t last_t;		/* the last record's time, ns */
	struct rp_resp resp[TRACE_NR_OPS];
};

int rp_parse_map(struct rp_opts *o, const char *s, char *err, size_t len);
void rp_opts_free(struct rp_opts *o);
int rp_plan_init(struct rp_plan *p, const struct rp_opts *o, char *err,
		 size_t len);
void rp_plan_free(struct rp_plan *p);
/* The first pass over the trace: its figures, and every check. */
int rp_prescan(struct rp_plan *p, char *err, size_t len);
/*
 * Record @idx (from 0) of the trace as the module's record; 0, or -1
 * with @err (the file, the record from 1, the reason).
 */
int rp_map(const struct rp_plan *p, const struct trace_rec *in, uint64_t idx,
	   struct ssdload_replay_rec *out, char *err, size_t len);
/* the bs of the job: the longest record, a multiple of every target's lbs */
uint32_t rp_job_bs(const struct rp_plan *p);
const char *rp_offset_map_name(enum rp_offset_map m);

#endif /* SSDLOAD_CLI_REPLAY_H */
