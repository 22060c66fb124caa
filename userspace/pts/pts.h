/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload pts TEST: the tests of the SNIA Solid State Storage Performance
 * Test Specification, run end to end (purge, preconditioning, rounds to
 * steady state, results and report).  See Documentation/pts.rst.
 */
#ifndef SSDLOAD_CLI_PTS_H
#define SSDLOAD_CLI_PTS_H

/* exit status of every pts subcommand */
#define PTS_EXIT_NOT_STEADY	1	/* steady state not reached */
#define PTS_EXIT_USAGE		2	/* bad usage or bad input */
#define PTS_EXIT_FAILED		3	/* the run failed (device, module, I/O) */

/* 1 if @name is a test that pts_run() implements. */
int pts_is_test(const char *name);

/*
 * Run test @test (argv[0] is the test's name, or "--resume=DIR" alone
 * with @test NULL).  Returns the exit status.
 */
int pts_run(const char *test, int argc, const char **argv);

/* ssdload pts purge: argv[0] is "purge". */
int pts_purge(int argc, const char **argv);

#endif /* SSDLOAD_CLI_PTS_H */
