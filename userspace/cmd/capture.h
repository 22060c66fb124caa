/* SPDX-License-Identifier: GPL-2.0 */
/* ssdload capture's methods (cmd-capture.c, capture-tracefs.c). */
#ifndef SSDLOAD_CLI_CAPTURE_H
#define SSDLOAD_CLI_CAPTURE_H

#include <signal.h>
#include <stdint.h>

/* what a capture cost, as the command reports it */
struct capture_cost {
	uint64_t events;	/* events recorded */
	uint64_t dropped;	/* events the kernel lost (buffers full) */
	double cpu_s;		/* CPU time of the capturing process(es) */
	int have_events;
};

/*
 * Record DEV's requests for MS milliseconds (or until *STOP) through the
 * block tracepoints of a tracefs instance of BUF_KB KiB per CPU, into
 * OUT.blktrace.0 (blktrace's format: D and C events); 0, or -1 after a
 * message.
 */
int capture_tracefs(const char *dev, uint64_t ms, uint64_t buf_kb, const char *out,
		    volatile sig_atomic_t *stop, struct capture_cost *cost);

#endif /* SSDLOAD_CLI_CAPTURE_H */
