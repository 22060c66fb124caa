/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Values of SNIA SSS PTS 2.0.2 that a host test checks against the text
 * (tests/unit/test_pts_spec.c).  Documentation/pts.rst cites each one
 * ("Parameters against the specification").
 */
#ifndef SSDLOAD_CLI_PTS_SPEC_H
#define SSDLOAD_CLI_PTS_SPEC_H

/* Every point of a round, each (R/W mix, block size): one minute (IOPS 3.2.1.2) */
#define PTS_SPEC_POINT_MS	60000

/*
 * The IOPS test (section 7, pseudo code on the PDF's page 26): R/W mixes
 * in the outer loop (step 3.2.1), block sizes in the inner one (3.2.1.1),
 * in this order; TC and OIO/thread are the operator's choice, "recommended
 * PTS-E QD=32" and "TC=4" (steps 2.1.2, 2.1.3).
 */
#define PTS_IOPS_MIXES		{ 100, 95, 65, 50, 35, 5, 0 }
#define PTS_IOPS_BSS		{ 1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512 }
#define PTS_IOPS_TC		4
#define PTS_IOPS_QD		32

/* A steady-state tracking variable of a test in rounds of points. */
struct pts_track {
	unsigned int bs;		/* bytes */
	unsigned int rwmixread;		/* % reads */
};

/*
 * The IOPS test tracks three variables, and is steady when all three
 * meet the rule in the same window (IOPS pseudo code, step 3.2.1.2.2):
 * RND 4KiB 0/100, RND 64KiB 65/35 and RND 1024KiB 100/0 IOPS.  The first
 * is the one the rounds record as "tracking".
 */
#define PTS_IOPS_TRACKS		{ { 4096, 0 }, { 65536, 65 }, { 1048576, 100 } }
#define PTS_IOPS_NTRACKS	3
#define PTS_MAX_TRACKS		PTS_IOPS_NTRACKS	/* of any test */

#endif /* SSDLOAD_CLI_PTS_SPEC_H */
