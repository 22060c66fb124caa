/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The QD 1 latency grid of TheSSDReview's S3700 and P3520 reviews (ssdload
 * latency-grid): block sizes x read/write mixes, each cell one step of a
 * single `ssdload run` at QD 1 on one worker.  A cell's figures come from
 * the run's JSON (json+): the mean and the maximum completion latency of
 * all its I/Os, reads and writes together, and the requested percentiles
 * of their merged histogram bins.
 */
#ifndef SSDLOAD_LATGRID_H
#define SSDLOAD_LATGRID_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#define SSL_GRID_MAX_BS		8
#define SSL_GRID_MAX_MIX	8
#define SSL_GRID_MAX_PCT	16
#define SSL_GRID_MAX_BS_BYTES	(64U << 20)

struct ssl_grid {
	unsigned int bs[SSL_GRID_MAX_BS], nbs;		/* bytes, in the order given */
	unsigned int mix[SSL_GRID_MAX_MIX], nmix;	/* read %, in the order given */
	double pct[SSL_GRID_MAX_PCT];			/* percentiles, in (0, 100] */
	int npct;
};

/* the cells: every block size, each with every mix in turn */
static inline unsigned int ssl_grid_cells(const struct ssl_grid *g)
{
	return g->nbs * g->nmix;
}

/*
 * --bs=LIST: sizes (4k, 8192, ...), each a multiple of 512 up to 64 MiB,
 * each once; 0, or -1 after "@cmd: --bs=...: ..."
 */
int ssl_grid_bs_list(const char *cmd, const char *val, struct ssl_grid *g);

/* --percentiles=LIST: fio's percentile_list (99:99.9); 0, or -1 after a message */
int ssl_grid_pct_list(const char *cmd, const char *val, struct ssl_grid *g);

/* the rw of a cell that reads @mix percent: randread, randwrite or randrw */
const char *ssl_grid_rw(unsigned int mix);

/* Does a cell of @g write (a mix below 100)? */
bool ssl_grid_writes(const struct ssl_grid *g);

/* The steps of the grid's run, one line a cell, into @f. */
void ssl_grid_steps(const struct ssl_grid *g, FILE *f);

/* @g's percentiles as fio's percentile_list ("50:99:99.9") into @buf */
void ssl_grid_pct_str(const struct ssl_grid *g, char *buf, size_t len);

/*
 * Cell @k's figures from @step, the k-th of the run's steps (jobs[0].steps
 * of `ssdload run --output-format=json+`): a new object.
 */
json_object *ssl_grid_cell(const struct ssl_grid *g, unsigned int k, json_object *step);

#endif /* SSDLOAD_LATGRID_H */
