// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload start GROUP: write GROUP to the configfs root's start attribute,
 * which launches every armed job of the group at one instant.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "uapi/ssdload.h"
#include "cmd/builtin.h"
#include "core/configfs.h"
#include "core/options.h"
#include "core/util.h"

static const char *const start_usage[] = {
	"usage: ssdload start GROUP",
	"",
	"Launch every armed job of GROUP at one instant: the jobs whose group",
	"attribute is GROUP and that were enabled (ssdload run --group=GROUP, or",
	"echo 1 > enable by hand).  They share one start time, so their ramp and",
	"runtime end together.  GROUP is 1 to 63 of A-Z a-z 0-9 _ . -",
	NULL,
};

int cmd_start(int argc, const char **argv)
{
	char path[4096];
	const char *group;
	int err;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		ssl_usage(stdout, start_usage);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		ssl_usage(stderr, start_usage);
		return 1;
	}
	group = argv[1];
	if (ssl_check_group(group)) {
		ssl_err("start: '%s' is not a group name (1 to %d of A-Z a-z 0-9 _ . -)",
			group, SSL_GROUP_MAX);
		return 1;
	}
	if (cfs_check_module())
		return 1;
	err = cfs_write_root(SSDLOAD_START, group);
	if (!err)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", ssl_configfs_root(), SSDLOAD_START);
	if (err == -ENOENT && access(path, F_OK))
		ssl_err("%s: the loaded ssdload.ko has no '%s' attribute: is it older "
			"than this CLI?", path, SSDLOAD_START);
	else if (err == -ENOENT)
		ssl_err("start: no armed job in group '%s' (see ssdload list)", group);
	else
		ssl_err("start %s: %s", group, strerror(-err));
	return 1;
}
