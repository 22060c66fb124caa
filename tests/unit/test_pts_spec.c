// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side checks of values ssdload pts takes from SNIA SSS PTS 2.0.2
 * (userspace/pts/spec.h, ss.h) and of the steady-state rule over several
 * tracking variables (ssl_ss_scan_all() in userspace/pts/ss.c).
 *
 *   test_pts_spec rule | iops | wipc | iops_tracks | scan_all
 *
 * Each prints "ok NAME" and exits 0, or prints "FAIL ..." lines and exits
 * 1.  Driven by test_pts_spec.py; Documentation/pts.rst cites the text.
 */
#include <stdio.h>
#include <string.h>

#include "methods/pcmode.h"
#include "pts/spec.h"
#include "pts/ss.h"

static unsigned long failures;

#define FAIL(...)						\
	do {							\
		failures++;					\
		printf("FAIL ");				\
		printf(__VA_ARGS__);				\
		printf("\n");					\
	} while (0)

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* Definition 2.1.24 and the IOPS test's round limit */
static void test_rule(void)
{
	struct ssl_ss_limits l;

	ssl_ss_limits_default(&l);
	if (SSL_SS_WINDOW != 5 || l.window != 5)
		FAIL("measurement window %u rounds, the spec's is 5", l.window);
	if (SSL_SS_MAX_ROUNDS != 25 || l.max_rounds != 25)
		FAIL("round limit %u, the spec's is 25", l.max_rounds);
	if (l.range_pct != 20.0 || l.slope_pct != 10.0)
		FAIL("limits %g%% / %g%%, the spec's are 20%% / 10%%", l.range_pct,
		     l.slope_pct);
	if (strcmp(SSL_SS_SPEC, "SNIA SSS PTS 2.0.2") || strcmp(SSL_SS_CLAUSE, "2.1.24"))
		FAIL("cited as %s %s", SSL_SS_SPEC, SSL_SS_CLAUSE);
}

/* IOPS pseudo code 2.1.2, 2.1.3, 3.2.1, 3.2.1.1, 3.2.1.2 */
static void test_iops(void)
{
	static const unsigned int mix[] = PTS_IOPS_MIXES, bs[] = PTS_IOPS_BSS;
	static const unsigned int want_mix[] = { 100, 95, 65, 50, 35, 5, 0 };
	static const unsigned int want_bs[] = {
		1024 * 1024, 128 * 1024, 64 * 1024, 32 * 1024, 16 * 1024, 8 * 1024, 4 * 1024, 512,
	};
	unsigned int i;

	if (ARRAY_LEN(mix) != ARRAY_LEN(want_mix) || memcmp(mix, want_mix, sizeof(mix)))
		FAIL("the R/W mixes or their order are not the spec's");
	if (ARRAY_LEN(bs) != ARRAY_LEN(want_bs))
		FAIL("%zu block sizes, the spec's are %zu", ARRAY_LEN(bs), ARRAY_LEN(want_bs));
	for (i = 0; i < ARRAY_LEN(bs) && i < ARRAY_LEN(want_bs); i++)
		if (bs[i] != want_bs[i])
			FAIL("block size %u: %u B, the spec's is %u B", i, bs[i], want_bs[i]);
	if (PTS_IOPS_TC != 4 || PTS_IOPS_QD != 32)
		FAIL("default T%uQ%u, the spec recommends T4Q32 for PTS-E", PTS_IOPS_TC,
		     PTS_IOPS_QD);
	if (PTS_SPEC_POINT_MS != 60000)
		FAIL("a point lasts %u ms, the spec's one minute", PTS_SPEC_POINT_MS);
}

/* IOPS pseudo code 2.2: SEQ 128KiB writes, twice the user capacity */
static void test_wipc(void)
{
	if (SSL_PC_SEQ_BS != 128 * 1024)
		FAIL("WIPC of %u B writes, the spec's are 128KiB", SSL_PC_SEQ_BS);
	if (SSL_PC_WIPC_LOOPS != 2)
		FAIL("WIPC of %u x the capacity, the spec's is 2", SSL_PC_WIPC_LOOPS);
}

/* IOPS pseudo code 3.2.1.2.2: 0/100 4KiB, 65/35 64KiB, 100/0 1024KiB */
static void test_iops_tracks(void)
{
	static const struct pts_track t[] = PTS_IOPS_TRACKS;
	static const struct pts_track want[] = {
		{ 4096, 0 }, { 65536, 65 }, { 1048576, 100 },
	};
	unsigned int i;

	if (ARRAY_LEN(t) != PTS_IOPS_NTRACKS || PTS_IOPS_NTRACKS != ARRAY_LEN(want))
		FAIL("%zu tracking variables, the spec names %zu", ARRAY_LEN(t),
		     ARRAY_LEN(want));
	for (i = 0; i < ARRAY_LEN(t) && i < ARRAY_LEN(want); i++)
		if (t[i].bs != want[i].bs || t[i].rwmixread != want[i].rwmixread)
			FAIL("tracking variable %u: %u B at %u%% reads, the spec's is %u B at %u%%",
			     i, t[i].bs, t[i].rwmixread, want[i].bs, want[i].rwmixread);
}

/* steady when every variable passes in the same window */
static void test_scan_all(void)
{
	static const double flat[10] = { 100, 100, 100, 100, 100, 100, 100, 100, 100, 100 };
	/* windows 1..5 to 4..8 fail the range; 5..9: 10.2%, slope excursion 8.2% */
	static const double rise[10] = { 50, 60, 70, 80, 90, 100, 100, 100, 100, 100 };
	static const double noisy[10] = { 50, 150, 50, 150, 50, 150, 50, 150, 50, 150 };
	const double *y[3] = { flat, rise, noisy };
	struct ssl_ss_window w[3], w1;
	struct ssl_ss_limits l;
	unsigned int r;

	ssl_ss_limits_default(&l);
	r = ssl_ss_scan_all(y, 1, 10, &l, w, NULL, NULL);
	if (r != 5 || r != ssl_ss_scan(flat, 10, &l, &w1, NULL, NULL))
		FAIL("one flat variable: steady at %u, ssl_ss_scan says %u", r,
		     ssl_ss_scan(flat, 10, &l, &w1, NULL, NULL));
	if (ssl_ss_scan(rise, 10, &l, &w1, NULL, NULL) != 9)
		FAIL("the rising variable alone is not steady at round 9");
	r = ssl_ss_scan_all(y, 2, 10, &l, w, NULL, NULL);
	if (r != 9)
		FAIL("flat and rising: steady at %u, not at 9 (the later of the two)", r);
	if (w[0].first != 5 || w[0].last != 9 || w[1].first != 5 || w[1].last != 9)
		FAIL("flat and rising: windows %u..%u and %u..%u, not 5..9", w[0].first,
		     w[0].last, w[1].first, w[1].last);
	r = ssl_ss_scan_all(y, 3, 10, &l, w, NULL, NULL);
	if (r)
		FAIL("a never steady third variable: steady at %u", r);
	if (w[0].last != 10 || w[2].last != 10 || ssl_ss_steady(&w[2]) || !ssl_ss_steady(&w[0]))
		FAIL("not steady: the windows are not each variable's last (6..10)");
	l.max_rounds = 8;
	if (ssl_ss_scan_all(y, 2, 10, &l, w, NULL, NULL) || w[1].last != 8)
		FAIL("round limit 8: steady, or the last window ends at %u", w[1].last);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{ "rule", test_rule },
		{ "iops", test_iops },
		{ "wipc", test_wipc },
		{ "iops_tracks", test_iops_tracks },
		{ "scan_all", test_scan_all },
	};
	unsigned int i, ran = 0;

	for (i = 0; i < ARRAY_LEN(tests); i++) {
		if (argc > 1 && strcmp(argv[1], tests[i].name))
			continue;
		failures = 0;
		tests[i].fn();
		if (!failures)
			printf("ok %s\n", tests[i].name);
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "unknown test '%s'\n", argv[1]);
		return 2;
	}
	return failures ? 1 : 0;
}
