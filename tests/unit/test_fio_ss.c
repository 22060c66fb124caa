// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side driver of fio's steady-state rule (userspace/fio/steadystate.c).
 *
 *   test_fio_ss parse SPEC          "ok bw=B by_slope=S pct=P limit=L" or
 *                                   "error WHY"
 *   test_fio_ss run SPEC DUR        reads "IOS BYTES" lines (one sample a
 *                                   second) on stdin; after each, prints
 *                                   "sample K attained=A criterion=C
 *                                   slope=S deviation=D", and at the end
 *                                   "spec SPEC", "attained_s T",
 *                                   "window IOPS... / BW..." and
 *                                   "mean IOPS BW"
 *
 * Driven by test_fio_ss.py, which computes fio's own formula.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio/steadystate.h"

static int parse(const char *spec)
{
	struct ssl_fio_ss ss;
	char why[256];

	memset(&ss, 0, sizeof(ss));
	if (ssl_fio_ss_parse(spec, &ss, why, sizeof(why))) {
		printf("error %s\n", why);
		return 0;
	}
	printf("ok bw=%d by_slope=%d pct=%d limit=%.17g\n", ss.bw, ss.by_slope, ss.pct,
	       ss.limit);
	return 0;
}

static void print_window(const struct ssl_fio_ss *ss)
{
	uint64_t *iops = calloc(ss->dur, sizeof(*iops)), *bws = calloc(ss->dur, sizeof(*bws));
	unsigned int i;

	if (!iops || !bws)
		exit(2);
	ssl_fio_ss_window(ss, iops, bws);
	printf("window");
	for (i = 0; i < ss->dur; i++)
		printf(" %" PRIu64, iops[i]);
	printf(" /");
	for (i = 0; i < ss->dur; i++)
		printf(" %" PRIu64, bws[i]);
	printf("\n");
	free(iops);
	free(bws);
}

static int run(const char *spec, const char *dur)
{
	struct ssl_fio_ss ss;
	unsigned long long ios, bytes;
	char why[256], buf[64];
	uint64_t k = 0;

	memset(&ss, 0, sizeof(ss));
	if (ssl_fio_ss_parse(spec, &ss, why, sizeof(why))) {
		printf("error %s\n", why);
		return 1;
	}
	ss.dur = (unsigned int)strtoul(dur, NULL, 10);
	if (!ss.dur || ssl_fio_ss_start(&ss))
		return 2;
	while (scanf("%llu %llu", &ios, &bytes) == 2) {
		int a = ssl_fio_ss_add(&ss, ios, bytes, ++k);

		printf("sample %" PRIu64 " attained=%d criterion=%.17g slope=%.17g "
		       "deviation=%.17g\n", k, a, ss.criterion, ss.slope, ss.deviation);
	}
	ssl_fio_ss_spec(&ss, buf, sizeof(buf));
	printf("spec %s\nattained_s %" PRIu64 "\n", buf, ss.attained_s);
	print_window(&ss);
	printf("mean %" PRIu64 " %" PRIu64 "\n", ssl_fio_ss_mean(&ss, 0),
	       ssl_fio_ss_mean(&ss, 1));
	ssl_fio_ss_free(&ss);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "parse"))
		return parse(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "run"))
		return run(argv[2], argv[3]);
	fprintf(stderr, "usage: test_fio_ss parse SPEC | run SPEC DUR\n");
	return 2;
}
