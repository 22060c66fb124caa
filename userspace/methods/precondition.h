/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Preconditioning, shared by pts (its purge overwrite and WIPC) and the
 * methodology commands (sweep, curve, scale --precondition=MODE, and
 * `ssdload precondition`): write passes over a span, each one `ssdload
 * run` of sequential or random writes, with the bytes it wrote and its
 * time recorded.
 *
 * The modes (--precondition=MODE):
 *   none        nothing
 *   fill        one sequential pass of 128KiB writes over the span
 *   seq128k:N   N such passes
 *   random:N    N passes of random 4KiB writes (AnandTech's two)
 *   pts[:TIME[:N]]  pts's WIPC (two sequential 128KiB passes), then its
 *               WDPC: rounds of TIME (default 1 minute) of random 4KiB
 *               writes until the steady-state rule holds, at most N
 *               rounds (5 to 25, default the spec's 25)
 * Every pass is at queue depth 32 on one worker.
 */
#ifndef SSDLOAD_PRECONDITION_H
#define SSDLOAD_PRECONDITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "methods/pcmode.h"

struct ssl_argv;

/* One `ssdload run` of writes over the span [0, bytes). */
struct ssl_wpass {
	bool random;		/* random writes (aligned to bs), else sequential */
	unsigned int bs, iodepth;
	unsigned int loops;	/* passes over the span (time_ms 0) */
	unsigned int seed;	/* --randseed */
	uint64_t bytes;		/* the span */
	uint64_t time_ms;	/* a timed round (pts's WDPC): its runtime; 0: passes */
};

/*
 * The pass's options, added to @a (which holds `ssdload run`, its name,
 * filename, --allow_write, --eta and --output-format=json).
 */
void ssl_wpass_argv(struct ssl_argv *a, const struct ssl_wpass *w);

/*
 * Spawn @a (freed here) with its stdout into @out and record in @rec what
 * it wrote: bytes (the run's write io_bytes), bs, iodepth, loops, rw and
 * duration_ms; *@iops, if not NULL, the run's write IOPS.  0, the run's
 * exit status, or -1 (its JSON unreadable, after a message).
 */
int ssl_wpass_run(struct ssl_argv *a, const char *out, const struct ssl_wpass *w,
		  json_object *rec, double *iops);

/*
 * The steady-state rule of the WDPC, given by the caller (cmd/: pts's,
 * pts/ss.c), so that methods/ need not include pts/: over the rounds'
 * tracking variable @y[0..@n-1], true once the last window is steady;
 * @rec receives the window's figures.
 */
typedef bool (*ssl_pc_steady_fn)(const double *y, unsigned int n, json_object *rec);

/* Where a preconditioning runs and what it may print. */
struct ssl_pc_target {
	const char *cmd;	/* messages and job names ("sweep") */
	const char *filename;
	const char *eta;	/* the runs' --eta */
	const char *dir;	/* the runs' JSON: DIR/precondition-TAGWHAT.json */
	const char *tag;	/* "" or the device's ("d2-") */
	uint64_t span;		/* the bytes it covers: the whole device */
	ssl_pc_steady_fn steady;	/* pts mode: the steady-state rule */
};

/*
 * Run @pc on @t, printing its phases and bytes on stderr; its record
 * (mode, span_bytes, bytes_promised, bytes_written, duration_ms,
 * passes[], pts: wdpc{}) in *@rec (NULL for none).  0, a run's exit
 * status (128+N after signal N), or 1 after a message.
 */
int ssl_precond_run(const struct ssl_pc_target *t, const struct ssl_precond *pc,
		    json_object **rec);

#endif /* SSDLOAD_PRECONDITION_H */
