/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdload KUnit suites: shared fixtures.
 */
#ifndef _SSDLOAD_TEST_H
#define _SSDLOAD_TEST_H

#include <kunit/test.h>

#include "ssdload.h"

/* A job and its workers as the engine sees them, without a device. */
struct ssdload_test_job {
	struct ssdload_job *job;	/* kunit-managed, zeroed */
	unsigned int nr_workers;	/* entries of job->workers */
};

struct ssdload_test_job *ssdload_test_job_new(struct kunit *test,
					      unsigned int nr_workers,
					      bool stats);
void ssdload_test_job_del(struct ssdload_test_job *tj);

/* A random-offset or sequential worker over @nr_blocks blocks of @bs. */
void ssdload_test_span(struct ssdload_job *job, u64 span_start, u64 bs,
		       u64 nr_blocks);

#endif /* _SSDLOAD_TEST_H */
