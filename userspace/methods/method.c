// SPDX-License-Identifier: GPL-2.0
/* What sweep, curve and scale share: see method.h. */
#include <limits.h>

#include "core/util.h"
#include "methods/method.h"

int ssl_method_path(const struct ssl_method *m, char *buf, size_t len, const char *rel)
{
	return ssl_dir_path(m->cmd, m->dir, rel, buf, len);
}

int ssl_method_save(const struct ssl_method *m, json_object *doc, const char *json)
{
	char path[PATH_MAX];

	if (ssl_method_path(m, path, sizeof(path), json))
		return -1;
	return json_save(doc, path);
}

int ssl_method_finish(const struct ssl_method *m, json_object *doc, const char *json,
		      const char *state)
{
	jset(doc, "state", json_object_new_string(state));
	jset(doc, "finished", jnow());
	return ssl_method_save(m, doc, json);
}

int ssl_method_status(int st, int failed)
{
	if (ssl_run_sig)
		return SSL_EXIT_SIGNAL(ssl_run_sig);
	return st ? (st > 128 ? st : failed) : 0;
}

int ssl_method_trial(const struct ssl_method *m, struct ssl_argv *a)
{
	int st = ssl_run_spawn(a, "/dev/null");

	av_free(a);
	if (st)
		ssl_err("%s: ssdload run refused the %s's job (above); nothing ran", m->cmd,
			m->cmd);
	return st;
}
