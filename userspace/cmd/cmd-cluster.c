// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload cluster run -i INVENTORY [--hosts=PATTERN] [--min-hosts=N]
 *	(JOBFILE | --plan=PLAN | run options) -o DIR
 * ssdload cluster report DIR
 *
 * One job on many hosts, started at one wall-clock instant, through the
 * Ansible collection of contrib/ansible/ssdload (Documentation/cluster.rst):
 * this command checks the inventory (ansible-inventory), runs its run.yml
 * playbook (ansible-playbook, fork/exec, every value in a JSON file of
 * extra vars: no command line is built from user input), follows each
 * host's DIR/HOST/status.json as progress, and makes one results directory:
 * DIR/HOST/result.json (fetched by the playbook), DIR/merged.json (fio's
 * schema, merged exactly by fio/merge.c) and DIR/cluster.json (each host's
 * clock offset, start error, and the spread of the starts corrected by the
 * offsets).  SIGINT stops the playbook and runs cleanup.yml, which removes
 * every host's job.  `cluster report DIR` makes merged.json and
 * cluster.json again from what DIR holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cmd/builtin.h"
#include "core/util.h"
#include "fio/merge.h"

#define CL_EXIT_FAILED	1	/* hosts missing, failed or lost */
#define CL_EXIT_USAGE	2	/* bad usage or inventory: nothing ran */
#define CL_MAX_ARGS	256
#define CL_POLL_MS	200

static const char *const cluster_usage[] = {
	"usage: ssdload cluster run -i INVENTORY [--hosts=PATTERN] [--min-hosts=N]",
	"                           (JOBFILE | --plan=PLAN | run options) -o DIR",
	"       ssdload cluster report DIR",
	"",
	"Run one job on every host of an Ansible inventory, started at one instant",
	"of the wall clock (start_at), and collect one result: DIR/HOST/result.json,",
	"DIR/merged.json (exact merge) and DIR/cluster.json (clock offsets, start",
	"errors, start spread).  Needs ansible-playbook on this host and ssdload on",
	"each host (the collection's install role).  Per-host options come from the",
	"inventory: ssdload_filename (the device, required unless the job file or",
	"--filename names one) and ssdload_host_options (a list of run options).",
	"",
	"  -i, --inventory=INV     the Ansible inventory",
	"  --hosts=PATTERN         the inventory's hosts to use (default all)",
	"  --min-hosts=N           start when at least N hosts are reachable and",
	"                          armed (default: every host); the report names the",
	"                          missing ones",
	"  --plan=PLAN             run a review plan instead (started by a sleep)",
	"  -o, --output=DIR        the results directory (new or empty)",
	"  --timeout=SECONDS       how long the run may take after the start (3600)",
	"  --collection=DIR        the collection (default: SSDLOAD_ANSIBLE, the",
	"                          tree's contrib/ansible/ssdload, or the installed one)",
	"  other --options         ssdload run's options, for every host",
	"",
	"Refused here: --start_at, --output-format and --output of run (the cluster",
	"sets them).  An unreachable host or one whose job fails to arm calls off",
	"the start everywhere, unless --min-hosts allows it.  Exit status 0: every",
	"host ran; 1: a host was missing, failed or lost; 2: nothing ran (usage).",
	NULL
};

struct cl_ctx {
	const char *inventory, *hosts, *plan, *jobfile, *dir, *collection;
	unsigned int min_hosts;
	unsigned int timeout_s;
	const char *opts[CL_MAX_ARGS];	/* run options for every host */
	int nopts;
	bool has_filename;		/* --filename among the options */
	char run_id[64];
	char cdir[PATH_MAX];		/* the collection */
	char adir[PATH_MAX];		/* DIR/.ansible */
};

static volatile sig_atomic_t cl_sigint;
static volatile pid_t cl_child;

/* snprintf() into a path or name buffer; a path cut short fails later, on open */
static void cl_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void cl_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static void cl_on_signal(int sig)
{
	cl_sigint = sig;
	if (cl_child > 0)
		kill(-cl_child, SIGINT);
}

static json_object *jget(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* the collection: --collection, $SSDLOAD_ANSIBLE, the tree's, the installed one */
static int find_collection(struct cl_ctx *c)
{
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (c->collection || (c->collection = getenv("SSDLOAD_ANSIBLE"))) {
		cl_fmt(c->cdir, sizeof(c->cdir), "%s", c->collection);
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		cl_fmt(c->cdir, sizeof(c->cdir), "%s/../contrib/ansible/ssdload", exe);
		if (!is_dir(c->cdir))
			cl_fmt(c->cdir, sizeof(c->cdir), "%s/../share/ssdload/ansible/ssdload",
				 exe);
	}
	if (!realpath(c->cdir, exe) || !is_dir(exe)) {
		ssl_err("cluster: no Ansible collection at %s (--collection=DIR)", c->cdir);
		return -1;
	}
	cl_fmt(c->cdir, sizeof(c->cdir), "%s", exe);
	return 0;
}

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	while (path && *path) {
		size_t len = strcspn(path, ":");

		cl_fmt(buf, sizeof(buf), "%.*s/%s", (int)len, path, prog);
		if (!access(buf, X_OK))
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}

/* @argv's output (stdout) read whole into *@out; its exit status, -1 if none */
static int run_capture(const char *const *argv, char **out)
{
	size_t len = 0, cap = 65536;
	int fds[2], status;
	char *buf;
	ssize_t n;
	pid_t pid;

	*out = NULL;
	buf = malloc(cap);
	if (!buf || pipe(fds)) {
		free(buf);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (n = read(fds[0], buf + len, cap - len - 1)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += (size_t)n;
		if (len + 1 == cap) {
			char *grown = realloc(buf, cap * 2);

			if (!grown)
				break;
			buf = grown;
			cap *= 2;
		}
	}
	close(fds[0]);
	buf[len] = 0;
	*out = buf;
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* the hosts of `ansible PATTERN --list-hosts`'s output @out, in order */
static json_object *parse_list_hosts(char *out)
{
	json_object *hosts = json_object_new_array();
	char *line, *save = NULL;

	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (!*line || !strncmp(line, "hosts (", 7))
			continue;
		json_object_array_add(hosts, json_object_new_string(line));
	}
	return hosts;
}

/*
 * Check hosts *@hosts against inventory document @inv (ansible-inventory
 * --list): at least one host, and each has what the run needs.  0, or -1
 * after a message naming the host and the variable (*@hosts put).
 */
static int ssl_cluster_check_inventory(json_object *inv, const char *invname, bool need_filename,
				json_object **hosts)
{
	json_object *hv = jget(jget(inv, "_meta"), "hostvars");
	size_t i;

	if (!json_object_array_length(*hosts)) {
		ssl_err("cluster: inventory %s: no hosts (or none match --hosts)", invname);
		goto fail;
	}
	for (i = 0; i < json_object_array_length(*hosts); i++) {
		const char *h = json_object_get_string(json_object_array_get_idx(*hosts, i));
		json_object *vars = jget(hv, h), *f = jget(vars, "ssdload_filename");
		json_object *ho = jget(vars, "ssdload_host_options");

		if (strchr(h, '/') || !strcmp(h, ".") || !strcmp(h, "..")) {
			ssl_err("cluster: inventory %s: host name '%s' cannot name a results "
				"directory", invname, h);
			goto fail;
		}
		if (need_filename && (!f || !json_object_get_string_len(f))) {
			ssl_err("cluster: inventory %s: host %s has no ssdload_filename (the "
				"device it loads; or give --filename or a job file)", invname, h);
			goto fail;
		}
		if (ho && !json_object_is_type(ho, json_type_array)) {
			ssl_err("cluster: inventory %s: host %s: ssdload_host_options is not a "
				"list of options", invname, h);
			goto fail;
		}
	}
	return 0;
fail:
	json_object_put(*hosts);
	*hosts = NULL;
	return -1;
}

static int read_inventory(struct cl_ctx *c, json_object **hosts)
{
	const char *argv[] = { "ansible-inventory", "-i", c->inventory, "--list", NULL };
	const char *lh[] = { "ansible", c->hosts ? c->hosts : "all", "-i", c->inventory,
			     "--list-hosts", NULL };
	json_object *inv;
	char *out;
	int rc;

	rc = run_capture(lh, &out);
	*hosts = out && rc == 0 ? parse_list_hosts(out) : NULL;
	free(out);
	rc = *hosts ? run_capture(argv, &out) : -1;
	inv = *hosts && out && rc == 0 ? json_tokener_parse(out) : NULL;
	if (*hosts)
		free(out);
	if (!inv) {
		json_object_put(*hosts);
		*hosts = NULL;
		ssl_err("cluster: ansible-inventory -i %s failed (exit %d): is it an inventory?",
			c->inventory, rc);
		return -1;
	}
	rc = ssl_cluster_check_inventory(inv, c->inventory,
					 !c->has_filename && !c->jobfile && !c->plan, hosts);
	json_object_put(inv);
	return rc;
}

static int write_json(const char *path, json_object *doc)
{
	struct ssl_atomic a;
	FILE *f = ssl_atomic_open(&a, path);

	if (!f)
		return -1;
	if (fprintf(f, "%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
			JSON_C_TO_STRING_NOSLASHESCAPE)) < 0) {
		ssl_err("cluster: %s: %s", path, strerror(errno));
		ssl_atomic_abort(&a);
		return -1;
	}
	return ssl_atomic_commit(&a) ? -1 : 0;
}

static char *abs_path(const char *p)
{
	char buf[PATH_MAX];

	return realpath(p, buf) ? strdup(buf) : NULL;
}

/* DIR/.ansible/vars.json: the playbook's extra vars; the collection's path */
static int write_vars(struct cl_ctx *c, unsigned int nhosts)
{
	json_object *v = json_object_new_object(), *opts = json_object_new_array();
	char path[PATH_MAX], *dir = abs_path(c->dir), *job = NULL;
	int i, ret = -1;

	for (i = 0; i < c->nopts; i++)
		json_object_array_add(opts, json_object_new_string(c->opts[i]));
	json_object_object_add(v, "ssdload_options", opts);
	json_object_object_add(v, "ssdload_results_dir", json_object_new_string(dir ? dir : ""));
	json_object_object_add(v, "ssdload_run_id", json_object_new_string(c->run_id));
	json_object_object_add(v, "ssdload_min_hosts",
			       json_object_new_int64(c->min_hosts ? c->min_hosts : nhosts));
	json_object_object_add(v, "ssdload_timeout_s", json_object_new_int64(c->timeout_s));
	if (c->jobfile || c->plan) {
		job = abs_path(c->jobfile ? c->jobfile : c->plan);
		if (!job) {
			ssl_err("cluster: %s: %s", c->jobfile ? c->jobfile : c->plan,
				strerror(errno));
			goto out;
		}
		json_object_object_add(v, c->jobfile ? "ssdload_jobfile" : "ssdload_plan",
				       json_object_new_string(job));
	}
	if (c->hosts)
		json_object_object_add(v, "ssdload_hosts", json_object_new_string(c->hosts));
	cl_fmt(path, sizeof(path), "%s/vars.json", c->adir);
	ret = write_json(path, v);
out:
	free(dir);
	free(job);
	json_object_put(v);
	return ret;
}

/* DIR/.ansible/collections/ansible_collections/ssdload/ssdload -> the collection */
static int link_collection(struct cl_ctx *c)
{
	static const char *const parts[] = { "/collections", "/ansible_collections",
					     "/ssdload" };
	char path[PATH_MAX];
	size_t i;

	cl_fmt(path, sizeof(path), "%s", c->adir);
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		strncat(path, parts[i], sizeof(path) - strlen(path) - 1);
		if (mkdir(path, 0755) && errno != EEXIST)
			goto fail;
	}
	strncat(path, "/ssdload", sizeof(path) - strlen(path) - 1);
	unlink(path);
	if (!symlink(c->cdir, path))
		return 0;
fail:
	ssl_err("cluster: %s: %s", path, strerror(errno));
	return -1;
}

static void set_env(struct cl_ctx *c)
{
	char buf[PATH_MAX];

	cl_fmt(buf, sizeof(buf), "%s/collections", c->adir);
	setenv("ANSIBLE_COLLECTIONS_PATH", buf, 1);
	cl_fmt(buf, sizeof(buf), "%s/tmp", c->adir);
	setenv("ANSIBLE_LOCAL_TEMP", buf, 1);
	setenv("ANSIBLE_NOCOLOR", "1", 1);
	setenv("ANSIBLE_RETRY_FILES_ENABLED", "0", 1);
	setenv("ANSIBLE_DISPLAY_SKIPPED_HOSTS", "0", 1);
}

/* ansible-playbook -i INV [-l PATTERN] -e @vars.json PLAYBOOK, output to @log */
static pid_t spawn_playbook(struct cl_ctx *c, const char *playbook, const char *log,
			    const char *extra)
{
	char vars[PATH_MAX], pb[PATH_MAX];
	const char *argv[12];
	int n = 0, fd;
	pid_t pid;

	cl_fmt(vars, sizeof(vars), "@%s/vars.json", c->adir);
	cl_fmt(pb, sizeof(pb), "%s/playbooks/%s", c->cdir, playbook);
	argv[n++] = "ansible-playbook";
	argv[n++] = "-i";
	argv[n++] = c->inventory;
	if (c->hosts) {
		argv[n++] = "--limit";
		argv[n++] = c->hosts;
	}
	argv[n++] = "-e";
	argv[n++] = vars;
	if (extra) {
		argv[n++] = "-e";
		argv[n++] = extra;
	}
	argv[n++] = pb;
	argv[n] = NULL;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		ssl_err("cluster: %s: %s", log, strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);	/* SIGINT reaches it only through us */
		dup2(fd, 1);
		dup2(fd, 2);
		signal(SIGINT, SIG_DFL);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid);
	close(fd);
	return pid;
}

/* print each host's phase when it changes (DIR/HOST/status.json) */
static void show_progress(struct cl_ctx *c, json_object *hosts, json_object *seen)
{
	size_t i;

	for (i = 0; i < json_object_array_length(hosts); i++) {
		const char *h = json_object_get_string(json_object_array_get_idx(hosts, i));
		char path[PATH_MAX];
		json_object *st;
		const char *phase, *was;
		int err;

		cl_fmt(path, sizeof(path), "%s/%s/status.json", c->dir, h);
		st = ssl_json_read(path, 1 << 20, &err);
		if (!st)
			continue;
		phase = json_object_get_string(jget(st, "phase"));
		was = json_object_get_string(jget(seen, h));
		if (phase && (!was || strcmp(was, phase))) {
			const char *why = json_object_get_string(jget(jget(st, "arm"), "why"));

			if (!why)
				why = json_object_get_string(jget(st, "why"));

			printf("cluster: %-20s %s%s%s\n", h, phase,
			       !strcmp(phase, "failed") && why ? ": " : "",
			       !strcmp(phase, "failed") && why ? why : "");
			fflush(stdout);
			json_object_object_add(seen, h, json_object_new_string(phase));
		}
		json_object_put(st);
	}
}

static int wait_playbook(struct cl_ctx *c, pid_t pid, json_object *hosts)
{
	json_object *seen = json_object_new_object();
	struct timespec ts = { 0, CL_POLL_MS * 1000000L };
	int status = 0;
	pid_t r;

	cl_child = pid;
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			break;
		show_progress(c, hosts, seen);
		nanosleep(&ts, NULL);
	}
	cl_child = 0;
	show_progress(c, hosts, seen);
	json_object_put(seen);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int run_cleanup(struct cl_ctx *c, const char *log)
{
	char extra[128];
	pid_t pid;
	int status;

	printf("cluster: interrupted: removing the job on every host\n");
	cl_fmt(extra, sizeof(extra), "{\"ssdload_run_id\": \"%s\"}", c->run_id);
	signal(SIGINT, SIG_IGN);
	pid = spawn_playbook(c, "cleanup.yml", log, extra);
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static int64_t jint64(json_object *o)
{
	return o ? json_object_get_int64(o) : 0;	/* json-c parses "123" too */
}

/* the earliest first submission and the largest start error of @res's jobs */
static void host_start(json_object *res, int64_t *first, int64_t *err, int64_t *at)
{
	json_object *jobs = jget(res, "jobs");
	size_t i;

	*first = 0;
	*err = INT64_MIN;
	*at = 0;
	for (i = 0; jobs && i < json_object_array_length(jobs); i++) {
		json_object *s = jget(json_object_array_get_idx(jobs, i), "ssdload");
		int64_t f = jint64(jget(s, "first_submit_real_ns"));

		if (f && (!*first || f < *first))
			*first = f;
		if (jget(s, "start_error_ns") && jint64(jget(s, "start_error_ns")) > *err)
			*err = jint64(jget(s, "start_error_ns"));
		if (jget(s, "start_at"))
			*at = jint64(jget(s, "start_at"));
	}
}

struct cl_spread {
	int64_t lo, hi, rlo, rhi, bound;
	int n;
};

/* one host's entry of cluster.json; its result merged into @m when it has one */
static json_object *host_entry(const char *dir, const char *h, struct ssl_merge *m,
			       struct cl_spread *sp, int *bad)
{
	json_object *e = json_object_new_object(), *st, *res, *clock;
	char path[PATH_MAX], why[512];
	int64_t first, err, at, off;
	const char *state = "missing";
	int e1;

	cl_fmt(path, sizeof(path), "%s/%s/status.json", dir, h);
	st = ssl_json_read(path, 1 << 20, &e1);
	cl_fmt(path, sizeof(path), "%s/%s/result.json", dir, h);
	res = ssl_json_read(path, SSL_JSON_MAX_BYTES, &e1);
	json_object_object_add(e, "host", json_object_new_string(h));
	clock = jget(st, "clock");
	if (st && jget(st, "phase"))
		state = json_object_get_string(jget(st, "phase"));
	if (res && strcmp(state, "failed"))
		state = "done";
	else if (st && !strcmp(state, "armed"))
		state = "lost";		/* armed, never came back with a result */
	else if (st && strcmp(state, "failed"))
		state = "missing";
	json_object_object_add(e, "state", json_object_new_string(state));
	if (jget(jget(st, "arm"), "why"))
		json_object_object_add(e, "why", json_object_get(jget(jget(st, "arm"), "why")));
	else if (jget(st, "why"))
		json_object_object_add(e, "why", json_object_get(jget(st, "why")));
	if (jget(st, "task"))
		json_object_object_add(e, "failed_task", json_object_get(jget(st, "task")));
	if (clock) {
		json_object *cl = json_object_new_object();

		json_object_object_add(cl, "source", json_object_get(jget(clock, "source")));
		json_object_object_add(cl, "offset_ns", json_object_new_int64(jint64(jget(clock, "offset_ns"))));
		json_object_object_add(cl, "bound_ns", json_object_new_int64(jint64(jget(clock, "bound_ns"))));
		json_object_object_add(e, "clock", cl);
	}
	if (res && !strcmp(state, "done")) {
		if (ssl_merge_add(m, res, h, path, why, sizeof(why))) {
			ssl_err("cluster: %s: %s", path, why);
			*bad = 1;
		}
		host_start(res, &first, &err, &at);
		if (first) {
			off = jint64(jget(clock, "offset_ns"));
			json_object_object_add(e, "first_submit_real_ns", json_object_new_int64(first));
			json_object_object_add(e, "first_submit_controller_ns",
					       json_object_new_int64(first - off));
			if (at)
				json_object_object_add(e, "start_at", json_object_new_int64(at));
			if (err != INT64_MIN)
				json_object_object_add(e, "start_error_ns", json_object_new_int64(err));
			if (!sp->n++) {
				sp->lo = sp->hi = first - off;
				sp->rlo = sp->rhi = first;
			}
			sp->lo = first - off < sp->lo ? first - off : sp->lo;
			sp->hi = first - off > sp->hi ? first - off : sp->hi;
			sp->rlo = first < sp->rlo ? first : sp->rlo;
			sp->rhi = first > sp->rhi ? first : sp->rhi;
			if (jint64(jget(clock, "bound_ns")) > sp->bound)
				sp->bound = jint64(jget(clock, "bound_ns"));
		}
	}
	json_object_put(st);
	json_object_put(res);
	return e;
}

static void add_names(json_object *doc, const char *key, json_object *list)
{
	json_object_object_add(doc, key, list);
}

/*
 * DIR/cluster.json and DIR/merged.json from DIR/HOST/{status,result}.json of
 * @hosts.  The number of hosts that ran; -1 when nothing could be written.
 */
static int ssl_cluster_report(const char *dir, json_object *hosts, const char *run_id)
{
	json_object *doc = json_object_new_object(), *arr = json_object_new_array();
	json_object *missing = json_object_new_array(), *failed = json_object_new_array();
	json_object *lost = json_object_new_array(), *merged = NULL;
	struct ssl_merge *m = ssl_merge_new();
	struct cl_spread sp = { 0 };
	char path[PATH_MAX];
	int bad = 0, done = 0, ret = -1;
	size_t i;

	if (!m)
		goto out;
	for (i = 0; i < json_object_array_length(hosts); i++) {
		const char *h = json_object_get_string(json_object_array_get_idx(hosts, i));
		json_object *e = host_entry(dir, h, m, &sp, &bad);
		const char *state = json_object_get_string(jget(e, "state"));

		json_object_array_add(arr, e);
		if (!strcmp(state, "done"))
			done++;
		else
			json_object_array_add(!strcmp(state, "failed") ? failed :
					      !strcmp(state, "lost") ? lost : missing,
					      json_object_new_string(h));
	}
	if (run_id)
		json_object_object_add(doc, "run_id", json_object_new_string(run_id));
	json_object_object_add(doc, "hosts_total", json_object_new_int(
			       (int)json_object_array_length(hosts)));
	json_object_object_add(doc, "hosts_done", json_object_new_int(done));
	add_names(doc, "missing", missing);
	add_names(doc, "failed", failed);
	add_names(doc, "lost", lost);
	if (sp.n) {
		json_object_object_add(doc, "start_spread_ns", json_object_new_int64(sp.hi - sp.lo));
		json_object_object_add(doc, "start_spread_uncorrected_ns",
				       json_object_new_int64(sp.rhi - sp.rlo));
		json_object_object_add(doc, "offset_bound_ns", json_object_new_int64(sp.bound));
	}
	json_object_object_add(doc, "hosts", arr);
	arr = NULL;
	cl_fmt(path, sizeof(path), "%s/cluster.json", dir);
	if (write_json(path, doc))
		goto out;
	ret = done;
	if (done && !bad) {
		merged = ssl_merge_doc(m);
		cl_fmt(path, sizeof(path), "%s/merged.json", dir);
		if (!merged || write_json(path, merged))
			ret = -1;
	}
out:
	json_object_put(merged);
	json_object_put(arr);
	json_object_put(doc);
	if (m)
		ssl_merge_free(m);
	return ret;
}

static void print_summary(const char *dir)
{
	char path[PATH_MAX];
	json_object *doc, *hs;
	size_t i;
	int err;

	cl_fmt(path, sizeof(path), "%s/cluster.json", dir);
	doc = ssl_json_read(path, SSL_JSON_MAX_BYTES, &err);
	hs = jget(doc, "hosts");
	printf("\n  %-20s %-8s %-7s %14s %12s %14s\n", "host", "state", "clock",
	       "offset us", "+- us", "start err us");
	for (i = 0; hs && i < json_object_array_length(hs); i++) {
		json_object *h = json_object_array_get_idx(hs, i), *cl = jget(h, "clock");

		printf("  %-20.20s %-8s %-7s", json_object_get_string(jget(h, "host")),
		       json_object_get_string(jget(h, "state")),
		       cl ? json_object_get_string(jget(cl, "source")) : "-");
		if (cl)
			printf(" %14.1f %12.1f", jint64(jget(cl, "offset_ns")) / 1e3,
			       jint64(jget(cl, "bound_ns")) / 1e3);
		else
			printf(" %14s %12s", "-", "-");
		if (jget(h, "start_error_ns"))
			printf(" %14.1f", jint64(jget(h, "start_error_ns")) / 1e3);
		printf("\n");
	}
	if (jget(doc, "start_spread_ns"))
		printf("start spread %.1f us corrected by the offsets (%.1f us as read; "
		       "offsets known to +- %.1f us)\n",
		       jint64(jget(doc, "start_spread_ns")) / 1e3,
		       jint64(jget(doc, "start_spread_uncorrected_ns")) / 1e3,
		       jint64(jget(doc, "offset_bound_ns")) / 1e3);
	for (i = 0; i < 3; i++) {
		static const char *const k[] = { "missing", "failed", "lost" };
		json_object *l = jget(doc, k[i]);
		size_t j;

		if (!l || !json_object_array_length(l))
			continue;
		printf("%s hosts:", k[i]);
		for (j = 0; j < json_object_array_length(l); j++)
			printf(" %s", json_object_get_string(json_object_array_get_idx(l, j)));
		printf("\n");
	}
	json_object_put(doc);
}

static const char *opt_val(const char **argv, int argc, int *i, const char *a,
			   const char *name, char shortc)
{
	size_t n = strlen(name);

	if (!strncmp(a, "--", 2) && !strncmp(a + 2, name, n) && a[2 + n] == '=')
		return a + 3 + n;
	if ((!strncmp(a, "--", 2) && !strcmp(a + 2, name)) ||
	    (shortc && a[0] == '-' && a[1] == shortc && !a[2])) {
		if (*i + 1 >= argc) {
			ssl_err("cluster: %s needs a value", a);
			return "";
		}
		return argv[++*i];
	}
	return NULL;
}

static bool opt_named(const char *a, const char *name)
{
	size_t n = strlen(name);
	char buf[64];
	size_t k;

	/* '-' and '_' alike, as run's options */
	for (k = 0; a[2 + k] && a[2 + k] != '=' && k < sizeof(buf) - 1; k++)
		buf[k] = a[2 + k] == '-' ? '_' : a[2 + k];
	buf[k] = 0;
	return k == n && !strncmp(buf, name, n);
}

static int parse_num(const char *opt, const char *v, unsigned int *out)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || n > 1000000) {
		ssl_err("cluster: %s=%s: not a number from 0 to 1000000", opt, v);
		return -1;
	}
	*out = (unsigned int)n;
	return 0;
}

static int cluster_opt(struct cl_ctx *c, int argc, const char **argv, int *i)
{
	const char *a = argv[*i], *v;

	if ((v = opt_val(argv, argc, i, a, "inventory", 'i')))
		c->inventory = v;
	else if ((v = opt_val(argv, argc, i, a, "output", 'o')))
		c->dir = v;
	else if ((v = opt_val(argv, argc, i, a, "hosts", 0)))
		c->hosts = v;
	else if ((v = opt_val(argv, argc, i, a, "plan", 0)))
		c->plan = v;
	else if ((v = opt_val(argv, argc, i, a, "collection", 0)))
		c->collection = v;
	else if ((v = opt_val(argv, argc, i, a, "min-hosts", 0)))
		return parse_num("--min-hosts", v, &c->min_hosts);
	else if ((v = opt_val(argv, argc, i, a, "timeout", 0)))
		return parse_num("--timeout", v, &c->timeout_s) ||
			(!c->timeout_s && (ssl_err("cluster: --timeout=0: give seconds"), 1)) ? -1 : 0;
	else
		return 1;
	return *v ? 0 : (ssl_err("cluster: %s needs a value", a), -1);
}

/* 0, 1 after --help, -1 after a message */
static int ssl_cluster_parse(struct cl_ctx *c, int argc, const char **argv)
{
	static const char *const refused[] = { "start_at", "output_format", "output",
					       "name", NULL };
	int i, r, k;

	for (i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		r = cluster_opt(c, argc, argv, &i);
		if (r <= 0) {
			if (r < 0)
				return -1;
			continue;
		}
		if (a[0] != '-') {
			if (c->jobfile) {
				ssl_err("cluster: one job file (%s, then %s)", c->jobfile, a);
				return -1;
			}
			c->jobfile = a;
			continue;
		}
		if (strncmp(a, "--", 2) || !a[2]) {
			ssl_err("cluster: %s: run's options are --name=value", a);
			return -1;
		}
		for (k = 0; refused[k]; k++)
			if (opt_named(a, refused[k])) {
				ssl_err("cluster: %s: the cluster sets it (see ssdload cluster --help)",
					a);
				return -1;
			}
		if (opt_named(a, "filename"))
			c->has_filename = true;
		if (c->nopts == CL_MAX_ARGS) {
			ssl_err("cluster: more than %d run options", CL_MAX_ARGS);
			return -1;
		}
		c->opts[c->nopts++] = a;
	}
	if (!c->inventory || !c->dir) {
		ssl_err("cluster: give the inventory (-i INVENTORY) and the results "
			"directory (-o DIR)");
		return -1;
	}
	if (c->jobfile && c->plan) {
		ssl_err("cluster: a job file or --plan, not both");
		return -1;
	}
	if (!c->jobfile && !c->plan && !c->nopts) {
		ssl_err("cluster: say what to run: JOBFILE, --plan=PLAN or run options");
		return -1;
	}
	return 0;
}

/* DIR new or empty, and DIR/.ansible/tmp */
static int make_dir(struct cl_ctx *c)
{
	char buf[PATH_MAX];

	if (mkdir(c->dir, 0755) && errno != EEXIST) {
		ssl_err("cluster: %s: %s", c->dir, strerror(errno));
		return -1;
	}
	cl_fmt(buf, sizeof(buf), "%s/cluster.json", c->dir);
	if (!access(buf, F_OK)) {
		ssl_err("cluster: %s holds a cluster run already: give a new directory", c->dir);
		return -1;
	}
	cl_fmt(c->adir, sizeof(c->adir), "%s/.ansible", c->dir);
	cl_fmt(buf, sizeof(buf), "%s/tmp", c->adir);
	if ((mkdir(c->adir, 0700) && errno != EEXIST) || (mkdir(buf, 0700) && errno != EEXIST)) {
		ssl_err("cluster: %s: %s", buf, strerror(errno));
		return -1;
	}
	return 0;
}

static int cluster_run(struct cl_ctx *c, int argc, const char **argv)
{
	struct sigaction sa = { .sa_handler = cl_on_signal };
	char log[PATH_MAX];
	json_object *hosts = NULL;
	int rc, ran, ret = CL_EXIT_USAGE;
	pid_t pid;

	c->timeout_s = 3600;
	rc = ssl_cluster_parse(c, argc, argv);
	if (rc) {
		ssl_usage(rc > 0 ? stdout : stderr, cluster_usage);
		return rc > 0 ? 0 : CL_EXIT_USAGE;
	}
	if (!in_path("ansible-playbook") || !in_path("ansible-inventory") ||
	    !in_path("ansible")) {
		ssl_err("cluster: ansible-playbook is not installed (Debian: ansible-core)");
		return CL_EXIT_USAGE;
	}
	if (find_collection(c) || read_inventory(c, &hosts))
		return CL_EXIT_USAGE;
	if (c->min_hosts > json_object_array_length(hosts)) {
		ssl_err("cluster: --min-hosts=%u: the inventory has %zu hosts", c->min_hosts,
			json_object_array_length(hosts));
		goto put_hosts;
	}
	cl_fmt(c->run_id, sizeof(c->run_id), "%ld-%d", (long)time(NULL), (int)getpid());
	if (make_dir(c) || link_collection(c) ||
	    write_vars(c, (unsigned int)json_object_array_length(hosts)))
		goto put_hosts;
	set_env(c);
	cl_fmt(log, sizeof(log), "%s/ansible.log", c->dir);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	printf("cluster: run %s on %zu hosts; Ansible's log: %s\n", c->run_id,
	       json_object_array_length(hosts), log);
	fflush(stdout);
	pid = spawn_playbook(c, "run.yml", log, NULL);
	if (pid < 0) {
		ret = CL_EXIT_FAILED;
		goto put_hosts;
	}
	rc = wait_playbook(c, pid, hosts);
	if (cl_sigint)
		run_cleanup(c, log);
	ran = ssl_cluster_report(c->dir, hosts, c->run_id);
	print_summary(c->dir);
	if (ran > 0)
		printf("results: %s/merged.json, %s/cluster.json\n", c->dir, c->dir);
	ret = !rc && !cl_sigint && ran == (int)json_object_array_length(hosts) ? 0 :
		CL_EXIT_FAILED;
	if (rc && !cl_sigint)
		ssl_err("cluster: ansible-playbook exited %d: see %s", rc, log);
	if (cl_sigint)
		ret = SSL_EXIT_SIGNAL(cl_sigint);
put_hosts:
	json_object_put(hosts);
	return ret;
}

/* ssdload cluster report DIR: the hosts of DIR/play.json */
static int cluster_report_cmd(int argc, const char **argv)
{
	char path[PATH_MAX];
	json_object *play;
	int err, ran;

	if (argc != 3 || argv[2][0] == '-') {
		ssl_usage(stderr, cluster_usage);
		return CL_EXIT_USAGE;
	}
	cl_fmt(path, sizeof(path), "%s/play.json", argv[2]);
	play = ssl_json_read(path, 1 << 24, &err);
	if (!play || !json_object_is_type(jget(play, "hosts"), json_type_array)) {
		ssl_err("cluster: %s: %s", path, play ? "no hosts[]" : ssl_strerror(err));
		json_object_put(play);
		return CL_EXIT_USAGE;
	}
	ran = ssl_cluster_report(argv[2], jget(play, "hosts"),
				 json_object_get_string(jget(play, "run_id")));
	if (ran >= 0)
		print_summary(argv[2]);
	err = ran == (int)json_object_array_length(jget(play, "hosts")) ? 0 : CL_EXIT_FAILED;
	json_object_put(play);
	return err;
}

int cmd_cluster(int argc, const char **argv)
{
	struct cl_ctx c = { 0 };

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		ssl_usage(argc < 2 ? stderr : stdout, cluster_usage);
		return argc < 2 ? CL_EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "run"))
		return cluster_run(&c, argc, argv);
	if (!strcmp(argv[1], "report"))
		return cluster_report_cmd(argc, argv);
	ssl_err("cluster: %s: run or report", argv[1]);
	return CL_EXIT_USAGE;
}
