// SPDX-License-Identifier: GPL-2.0
/*
 * verify_only and fio's verify state options (Documentation/verify.rst,
 * "verify_only and the state file"):
 *   --verify_only[=0|1]          the module's verify_only
 *   --verify_state_save[=0|1]    after a write run with verify, save the
 *                                state (fio's default is 1, ssdload's 0:
 *                                a run leaves no file it was not asked
 *                                for)
 *   --verify_state_load[=0|1]    before a verify_only run, load it
 *   --verify_state=FILE          the state's path instead of fio's
 *                                local-<job>-0-verify.state in the
 *                                directory of --output (else the current
 *                                one); loads with verify_only, else saves
 * A state to load is read and checked here (core/vstate.c: length,
 * magic, version, crc32c, geometry), before the module sees it, and
 * written to configfs verify_state in one write(2) before enable; a saved
 * state is read from debugfs verify_state and written atomically.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/run.h"
#include "core/configfs.h"
#include "core/util.h"
#include "core/vstate.h"

/* The state's path: --verify_state, else fio's name beside the results. */
static int state_path(struct run_ctx *c)
{
	char dir[PATH_MAX];

	if (c->raw[O_VERIFY_STATE] && *c->raw[O_VERIFY_STATE]) {
		if (strlen(c->raw[O_VERIFY_STATE]) >= sizeof(c->vstate_path))
			return bad_value(c, O_VERIFY_STATE, "too long a path");
		strcpy(c->vstate_path, c->raw[O_VERIFY_STATE]);
		return 0;
	}
	if (c->raw[O_VERIFY_STATE])
		return bad_value(c, O_VERIFY_STATE, "needs a file name");
	dir[0] = '\0';
	if (c->raw[O_OUTPUT] && strlen(c->raw[O_OUTPUT]) < sizeof(dir)) {
		char out[PATH_MAX], *d;

		strcpy(out, c->raw[O_OUTPUT]);
		d = dirname(out);
		memmove(dir, d, strlen(d) + 1);
	}
	if (ssl_vstate_name(c->vstate_path, sizeof(c->vstate_path), dir, c->name, 0)) {
		ssl_err("the verify state's name for job '%s' is too long", c->name);
		return -1;
	}
	return 0;
}

/* Read and check the state to load (before anything is created). */
static int load_check(struct run_ctx *c)
{
	char why[256];
	size_t len;
	char *buf;
	int err;

	err = ssl_read_regular(c->vstate_path, SSDLOAD_VSTATE_MAX_BYTES, &buf, &len);
	if (err) {
		ssl_err("verify_state_load: %s: %s; nothing ran", c->vstate_path,
			ssl_strerror(err));
		return -1;
	}
	if (ssl_vstate_check(buf, len, NULL, why, sizeof(why))) {
		ssl_err("verify_state_load: %s: %s; nothing ran", c->vstate_path, why);
		free(buf);
		return -1;
	}
	c->vstate_buf = buf;
	c->vstate_len = len;
	return 0;
}

int run_vstate_opts(struct run_ctx *c)
{
	int only = 0, save = 0, load = 0;
	int verify = c->raw[O_VERIFY] && strcmp(c->raw[O_VERIFY], "0");

	if (flag_opt(c, O_VERIFY_ONLY, SSDLOAD_ATTR_VERIFY_ONLY, &only) ||
	    flag_opt(c, O_VERIFY_STATE_SAVE, NULL, &save) ||
	    flag_opt(c, O_VERIFY_STATE_LOAD, NULL, &load))
		return -1;
	if (c->raw[O_VERIFY_STATE]) {
		if (only)
			load = 1;
		else if (!c->raw[O_VERIFY_STATE_SAVE])
			save = 1;
	}
	if (save && !verify && !only)
		return bad_value(c, c->raw[O_VERIFY_STATE_SAVE] ? O_VERIFY_STATE_SAVE :
				 O_VERIFY_STATE, "a state is saved from a write run with --verify");
	if (load && !only)
		return bad_value(c, O_VERIFY_STATE_LOAD,
				 "a state is loaded for a verify_only run: add --verify_only");
	if (only && !load) {
		ssl_err("--verify_only checks the blocks a saved state lists: add "
			"--verify_state_load (or --verify_state=FILE)");
		return -1;
	}
	c->vstate_save = save && verify && !only;
	if (!load && !c->vstate_save)
		return 0;
	if (state_path(c))
		return -1;
	return load ? load_check(c) : 0;
}

/* Before enable: configfs verify_state, in one write(2). */
int run_vstate_load(struct run_ctx *c)
{
	char path[PATH_MAX];
	ssize_t n = -1;
	int fd;

	if (!c->vstate_buf)
		return 0;
	if (cfs_path(path, sizeof(path), c->name, SSDLOAD_ATTR_VERIFY_STATE) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = write(fd, c->vstate_buf, c->vstate_len);
		if (close(fd) && n >= 0)
			n = -1;
	}
	if (n != (ssize_t)c->vstate_len) {
		ssl_err("%s: %s (the module has no verify_state, or refused %zu bytes)",
			path, strerror(errno), c->vstate_len);
		return -1;
	}
	return 0;
}

/* After the run: debugfs verify_state, saved atomically. */
int run_vstate_save(struct run_ctx *c)
{
	struct ssl_atomic a;
	char path[PATH_MAX], why[256];
	size_t len;
	char *buf;
	FILE *f;
	int err;

	if (!c->vstate_save)
		return 0;
	snprintf(path, sizeof(path), "%s/%s/%s", ssl_debugfs_root(), c->name,
		 SSDLOAD_DBG_VERIFY_STATE);
	err = ssl_read_file(path, &buf, &len);
	if (err) {
		ssl_err("verify_state_save: %s: %s", path, strerror(-err));
		return -1;
	}
	if (ssl_vstate_check(buf, len, NULL, why, sizeof(why))) {
		ssl_err("verify_state_save: %s: %s", path, why);
		free(buf);
		return -1;
	}
	f = ssl_atomic_open(&a, c->vstate_path);
	if (!f) {
		free(buf);
		return -1;
	}
	if (fwrite(buf, 1, len, f) != len) {
		ssl_err("verify_state_save: %s: %s", c->vstate_path, strerror(errno));
		ssl_atomic_abort(&a);
		free(buf);
		return -1;
	}
	free(buf);
	if (ssl_atomic_commit(&a))
		return -1;
	run_note("verify state saved to %s (%zu bytes)", c->vstate_path, len);
	return 0;
}
