// SPDX-License-Identifier: GPL-2.0
/* Running the report renderer, ssdload-report.py (see render.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "methods/render.h"

extern char **environ;

int ssl_report_script(char *buf, size_t len)
{
	return ssl_data_path("SSDLOAD_REPORT", "ssdload-report.py", R_OK, buf, len);
}

int ssl_render_report(const char *dir, int quiet)
{
	const char *py = getenv("SSDLOAD_PYTHON");
	char script[PATH_MAX];
	posix_spawn_file_actions_t fa;
	const char *argv[4];
	int status, r;
	pid_t pid;

	if (ssl_report_script(script, sizeof(script))) {
		ssl_err("report: the renderer ssdload-report.py is not installed (set "
			"SSDLOAD_REPORT to its path)");
		return -1;
	}
	if (!py || !*py)
		py = "/usr/bin/python3";
	argv[0] = py;
	argv[1] = script;
	argv[2] = dir;
	argv[3] = NULL;
	posix_spawn_file_actions_init(&fa);
	if (quiet)
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	fflush(stdout);
	fflush(stderr);
	r = posix_spawn(&pid, py, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r) {
		ssl_err("report: cannot run %s: %s", py, strerror(r));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(status))
		return SSL_EXIT_SIGNAL(WTERMSIG(status));
	return WEXITSTATUS(status);
}
