// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload stop NAME: write 0 to enable and wait until the job has stopped
 * (state neither running nor stopping: its in-flight I/O has drained).
 */
#include <stdio.h>
#include <string.h>

#include "uapi/ssdload.h"
#include "cmd/builtin.h"
#include "core/configfs.h"
#include "core/util.h"

static const char *const stop_usage[] = {
	"usage: ssdload stop NAME",
	"",
	"Stop job NAME and wait until its in-flight I/O has drained (state no longer",
	"running or stopping).  The job and its results stay; see ssdload show / rmdir.",
	NULL,
};

#define STOP_TIMEOUT_MS		60000

int cmd_stop(int argc, const char **argv)
{
	const char *name;
	char state[32];
	int err, waited;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		ssl_usage(stdout, stop_usage);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		ssl_usage(stderr, stop_usage);
		return 1;
	}
	name = argv[1];
	if (cfs_check_module())
		return 1;
	if (!cfs_job_exists(name)) {
		ssl_err("no such job: '%s' (see ssdload list)", name);
		return 1;
	}
	err = cfs_write(name, SSDLOAD_ATTR_ENABLE, "0");
	if (err) {
		ssl_err("%s: %s=0: %s", name, SSDLOAD_ATTR_ENABLE, strerror(-err));
		return 1;
	}
	for (waited = 0; ; waited += 50) {
		err = cfs_read(name, SSDLOAD_ATTR_STATE, state, sizeof(state));
		if (err) {
			ssl_err("%s: %s: %s", name, SSDLOAD_ATTR_STATE, strerror(-err));
			return 1;
		}
		if (!cfs_state_busy(state))
			return 0;
		if (waited >= STOP_TIMEOUT_MS) {
			ssl_err("%s: still %s %d s after enable=0", name, state,
				STOP_TIMEOUT_MS / 1000);
			return 1;
		}
		ssl_msleep(50);
	}
}
