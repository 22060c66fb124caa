// SPDX-License-Identifier: GPL-2.0
/* ssdload list: a table of the jobs under configfs jobs/. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/ssdload.h"
#include "cmd/builtin.h"
#include "core/configfs.h"
#include "core/util.h"

static const char *const list_usage[] = {
	"usage: ssdload list",
	"",
	"List the jobs in configfs with their state, device, rw, bs, iodepth and CPUs.",
	NULL,
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void attr_or_dash(const char *job, const char *attr, char *buf, size_t len)
{
	if (cfs_read(job, attr, buf, len) || !buf[0])
		snprintf(buf, len, "-");
}

int cmd_list(int argc, const char **argv)
{
	char path[4096], **names = NULL, **nn;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *dir;

	if (argc > 1) {
		int help = !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h");

		if (!help)
			ssl_err("list: unexpected argument '%s'", argv[1]);
		ssl_usage(help ? stdout : stderr, list_usage);
		return help ? 0 : 1;
	}
	if (cfs_check_module())
		return 1;
	cfs_path(path, sizeof(path), NULL, NULL);
	dir = opendir(path);
	if (!dir) {
		ssl_err("%s: %s", path, strerror(errno));
		return 1;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn)
				goto oom;
			names = nn;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			goto oom;
		n++;
	}
	closedir(dir);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);

	printf("%-20s %-8s %-20s %-9s %9s %7s %s\n", "NAME", "STATE", "FILENAME",
	       "RW", "BS", "IODEPTH", "CPUS");
	for (i = 0; i < n; i++) {
		char state[32], file[256], rw[32], bs[32], depth[32], cpus[256];

		attr_or_dash(names[i], SSDLOAD_ATTR_STATE, state, sizeof(state));
		attr_or_dash(names[i], SSDLOAD_ATTR_FILENAME, file, sizeof(file));
		attr_or_dash(names[i], SSDLOAD_ATTR_RW, rw, sizeof(rw));
		attr_or_dash(names[i], SSDLOAD_ATTR_BS, bs, sizeof(bs));
		attr_or_dash(names[i], SSDLOAD_ATTR_IODEPTH, depth, sizeof(depth));
		attr_or_dash(names[i], SSDLOAD_ATTR_CPUS_ALLOWED, cpus, sizeof(cpus));
		printf("%-20s %-8s %-20s %-9s %9s %7s %s\n", names[i], state, file,
		       rw, bs, depth, cpus);
		free(names[i]);
	}
	free(names);
	return 0;

oom:
	closedir(dir);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	ssl_err("out of memory");
	return 1;
}
