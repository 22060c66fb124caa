// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload profiles: the shipped workload library, one fio job file per
 * workload (userspace/profiles/NAME.fio), run with
 * "ssdload run --profile=NAME".
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "fio/jobfile.h"
#include "core/util.h"

static const char *const profiles_usage[] = {
	"usage: ssdload profiles [-v|--verbose] [--names]",
	"",
	"List the shipped workload profiles: name, summary, mix, block sizes and",
	"threads (numjobs x iodepth).  Run one with 'ssdload run --profile=NAME",
	"--filename=DEV' (any option on the command line overrides the file), or",
	"along an iorate curve with 'ssdload curve --profile=NAME'.",
	"",
	"  -v, --verbose   also print each profile's file and its job options",
	"  --names         the names only, one a line (for scripts and completion)",
	"",
	"The profiles are read from $SSDLOAD_PROFILES, else profiles/ next to the",
	"ssdload binary, else DATADIR/profiles (make install's, /usr/local/share/ssdload).",
	NULL,
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the "; summary:" comment on a profile's first line, or "" */
static void summary_of(const char *path, char *buf, size_t len)
{
	static const char tag[] = "; summary:";
	FILE *f = ssl_fopen_regular(path, SSL_JOBFILE_MAX_BYTES, NULL);
	char line[512];

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && !strncmp(line, tag, sizeof(tag) - 1)) {
		char *s = line + sizeof(tag) - 1;

		s += strspn(s, " \t");
		s[strcspn(s, "\r\n")] = '\0';
		snprintf(buf, len, "%s", s);
	}
	fclose(f);
}

/* the value of @key in the job section (global first, the job overrides) */
static const char *opt_of(const struct ssl_jobfile *jf, const char *key)
{
	const char *v = NULL;
	int i, k;

	for (i = 0; i < jf->n; i++)
		for (k = 0; k < jf->s[i].n; k++)
			if (!strcmp(jf->s[i].o[k].key, key))
				v = jf->s[i].o[k].val;
	return v;
}

static void mix_of(const struct ssl_jobfile *jf, char *buf, size_t len)
{
	const char *rw = opt_of(jf, "rw"), *mix = opt_of(jf, "rwmixread");
	const char *mixw = opt_of(jf, "rwmixwrite");

	if (!rw)
		rw = opt_of(jf, "readwrite");
	if (!rw)
		rw = "read";
	if (strstr(rw, "rw") || !strcmp(rw, "trimwrite")) {
		long r = mix ? strtol(mix, NULL, 10) : mixw ? 100 - strtol(mixw, NULL, 10) : 50;

		snprintf(buf, len, "%s %ld/%ld", rw, r, 100 - r);
	} else {
		snprintf(buf, len, "%s", rw);
	}
}

static void threads_of(const struct ssl_jobfile *jf, char *buf, size_t len)
{
	const char *nj = opt_of(jf, "numjobs"), *qd = opt_of(jf, "iodepth");
	long j = nj ? strtol(nj, NULL, 0) : 1, d = qd ? strtol(qd, NULL, 0) : 1;

	snprintf(buf, len, "%ld (%ldx%ld)", j * d, j, d);
}

static int print_profile(const char *dir, const char *name, int verbose)
{
	char path[PATH_MAX], sum[400], mix[64], thr[48];
	struct ssl_jobfile jf;
	const char *bs;
	int i, k;

	if (snprintf(path, sizeof(path), "%s/%s.fio", dir, name) >= (int)sizeof(path) ||
	    ssl_jobfile_load(path, &jf))
		return -1;
	summary_of(path, sum, sizeof(sum));
	mix_of(&jf, mix, sizeof(mix));
	threads_of(&jf, thr, sizeof(thr));
	bs = opt_of(&jf, "bssplit");
	if (!bs)
		bs = opt_of(&jf, "bs");
	if (!bs)
		bs = opt_of(&jf, "blocksize");
	printf("%-22s %-16s %-14s %s\n", name, mix, thr, bs ? bs : "4k");
	if (verbose) {
		printf("  %s\n", sum);
		printf("  file: %s\n", path);
		for (i = 0; i < jf.n; i++)
			for (k = 0; k < jf.s[i].n; k++)
				printf("    %s%s%s\n", jf.s[i].o[k].key,
				       jf.s[i].o[k].val[0] ? "=" : "", jf.s[i].o[k].val);
	} else if (sum[0]) {
		printf("    %s\n", sum);
	}
	ssl_jobfile_free(&jf);
	return 0;
}

int cmd_profiles(int argc, const char **argv)
{
	char dir[PATH_MAX], **names = NULL, **nn;
	size_t n = 0, cap = 0, i;
	int verbose = 0, names_only = 0, bad = 0, a;
	struct dirent *de;
	DIR *d;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			ssl_usage(stdout, profiles_usage);
			return 0;
		}
		if (!strcmp(argv[a], "-v") || !strcmp(argv[a], "--verbose")) {
			verbose = 1;
			continue;
		}
		if (!strcmp(argv[a], "--names")) {
			names_only = 1;
			continue;
		}
		ssl_err("profiles: unexpected argument '%s'", argv[a]);
		ssl_usage(stderr, profiles_usage);
		return 1;
	}
	if (ssl_profile_dir(dir, sizeof(dir))) {
		ssl_err("profiles: no profile directory (tried $SSDLOAD_PROFILES, profiles/ next to the binary and %s)",
			dir);
		return 1;
	}
	d = opendir(dir);
	if (!d) {
		ssl_err("profiles: %s: %s", dir, strerror(errno));
		return 1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || l < 5 || strcmp(de->d_name + l - 4, ".fio"))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				goto oom;
			names = nn;
		}
		names[n] = strndup(de->d_name, l - 4);
		if (!names[n])
			goto oom;
		n++;
	}
	closedir(d);
	d = NULL;
	if (!n) {
		ssl_err("profiles: %s holds no *.fio profile", dir);
		free(names);
		return 1;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	if (names_only) {
		for (i = 0; i < n; i++) {
			printf("%s\n", names[i]);
			free(names[i]);
		}
		free(names);
		return 0;
	}
	printf("%-22s %-16s %-14s %s\n", "PROFILE", "RW (READ/WRITE)", "THREADS", "BS");
	for (i = 0; i < n; i++) {
		bad |= print_profile(dir, names[i], verbose) != 0;
		free(names[i]);
	}
	free(names);
	printf("\n%zu profiles in %s; run one with: ssdload run --profile=NAME --filename=DEV\n",
	       n, dir);
	return bad;
oom:
	ssl_err("profiles: out of memory");
	if (d)
		closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return 1;
}
