// SPDX-License-Identifier: GPL-2.0
/* Small helpers shared by every command. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "uapi/ssdload.h"
#include "core/options.h"
#include "core/util.h"

#define DEBUGFS_MNT	"/sys/kernel/debug"

void ssl_usage(FILE *f, const char *const *lines)
{
	for (; *lines; lines++)
		fprintf(f, "%s\n", *lines);
}

void ssl_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("ssdload: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int ssl_fail(char *why, size_t wlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, wlen, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

const char *ssl_configfs_root(void)
{
	return env_or(SSL_ENV_CONFIGFS, SSDLOAD_CONFIGFS_ROOT);
}

const char *ssl_debugfs_root(void)
{
	return env_or(SSL_ENV_DEBUGFS, SSDLOAD_DEBUGFS_ROOT);
}

const char *ssl_cpu_online_path(void)
{
	return env_or(SSL_ENV_CPU_ONLINE, "/sys/devices/system/cpu/online");
}

/*
 * Read @fd to its end into a NUL-terminated malloc'd buffer of at first
 * @cap bytes, and close it; -EFBIG past @max bytes.  0 or -errno.
 */
static int read_fd(int fd, size_t cap, size_t max, char **bufp, size_t *lenp)
{
	size_t len = 0;
	char *buf, *nbuf;
	ssize_t r;
	int err;

	buf = malloc(cap + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (len > max) {
			err = -EFBIG;
			goto out_free;
		}
		if (len == cap) {
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			nbuf = realloc(buf, cap + 1);
			if (!nbuf) {
				err = -ENOMEM;
				goto out_free;
			}
			buf = nbuf;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out_free;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	buf[len] = '\0';
	*bufp = buf;
	if (lenp)
		*lenp = len;
	return 0;

out_free:
	free(buf);
	close(fd);
	return err;
}

int ssl_read_file(const char *path, char **bufp, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return read_fd(fd, 4096, SSL_READ_FILE_MAX, bufp, lenp);
}

int ssl_is_mounted(const char *dir, const char *fstype)
{
	char line[4096], mnt[4096], type[256];
	int found = 0;
	FILE *f;

	f = fopen("/proc/self/mounts", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %255s", mnt, type) != 2)
			continue;
		if (!strcmp(mnt, dir) && !strcmp(type, fstype)) {
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}

int ssl_check_root(const char *root, const char *default_root,
		   const char *mnt, const char *fstype)
{
	struct stat st;

	if (!stat(root, &st) && S_ISDIR(st.st_mode))
		return SSL_ROOT_OK;
	if (errno == EACCES) {
		ssl_err("%s: %s (run as root)", root, strerror(errno));
		return SSL_ROOT_REPORTED;
	}
	if (!strcmp(root, default_root) && !ssl_is_mounted(mnt, fstype))
		return SSL_ROOT_UNMOUNTED;
	return SSL_ROOT_MISSING;
}

int ssl_check_debugfs(void)
{
	const char *root = ssl_debugfs_root();

	switch (ssl_check_root(root, SSDLOAD_DEBUGFS_ROOT, DEBUGFS_MNT,
			       "debugfs")) {
	case SSL_ROOT_OK:
		return 0;
	case SSL_ROOT_UNMOUNTED:
		ssl_err("debugfs is not mounted at " DEBUGFS_MNT
			": run mount -t debugfs none " DEBUGFS_MNT);
		break;
	case SSL_ROOT_MISSING:
		ssl_err("%s: %s: is ssdload.ko loaded?", root, strerror(ENOENT));
		break;
	}
	return -1;
}

void ssl_msleep(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	/* an interrupting signal ends the sleep early; callers re-check */
	nanosleep(&ts, NULL);
}

uint64_t ssl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int ssl_dev_inflight(const char *dev, uint64_t *n)
{
	unsigned long long rd, wr;
	char path[128], *buf;
	struct stat st;
	int err;

	if (stat(dev, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/inflight",
		 major(st.st_rdev), minor(st.st_rdev));
	err = ssl_read_file(path, &buf, NULL);
	if (err)
		return err;
	err = sscanf(buf, "%llu %llu", &rd, &wr) == 2 ? 0 : -EINVAL;
	free(buf);
	if (!err)
		*n = rd + wr;
	return err;
}

int ssl_dev_stat(const char *dev, char *name, size_t nlen, uint64_t st[SSL_DEV_STAT_NR])
{
	char path[128], link[PATH_MAX], *buf, *p, *end;
	struct stat sb;
	ssize_t n;
	int err, i;

	if (stat(dev, &sb))
		return -errno;
	if (!S_ISBLK(sb.st_mode))
		return -ENOTBLK;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(sb.st_rdev),
		 minor(sb.st_rdev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -errno;
	link[n] = '\0';
	p = strrchr(link, '/');
	snprintf(name, nlen, "%s", p ? p + 1 : link);
	strncat(path, "/stat", sizeof(path) - strlen(path) - 1);
	err = ssl_read_file(path, &buf, NULL);
	if (err)
		return err;
	for (i = 0, p = buf; i < SSL_DEV_STAT_NR; i++, p = end) {
		errno = 0;
		st[i] = strtoull(p, &end, 10);
		if (end == p || errno) {
			err = -EINVAL;
			break;
		}
	}
	free(buf);
	return err;
}

int ssl_kv_parse(char *text, struct ssl_kvlist *kv)
{
	size_t cap = 0;
	char *line, *next, *eq;

	kv->v = NULL;
	kv->n = 0;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (kv->n == cap) {
			struct ssl_kv *nv;

			cap = cap ? cap * 2 : 64;
			nv = realloc(kv->v, cap * sizeof(*nv));
			if (!nv) {
				ssl_kv_free(kv);
				return -ENOMEM;
			}
			kv->v = nv;
		}
		kv->v[kv->n].key = line;
		kv->v[kv->n].val = eq + 1;
		kv->n++;
	}
	return 0;
}

void ssl_kv_free(struct ssl_kvlist *kv)
{
	free(kv->v);
	kv->v = NULL;
	kv->n = 0;
}

const char *ssl_kv_get(const struct ssl_kvlist *kv, const char *key)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		if (!strcmp(kv->v[i].key, key))
			return kv->v[i].val;
	return NULL;
}

int ssl_kv_u64(const struct ssl_kvlist *kv, const char *key, uint64_t *out)
{
	const char *v = ssl_kv_get(kv, key);

	*out = 0;
	if (!v || ssl_parse_u64(v, out))
		return -1;
	return 0;
}

void ssl_eta_str(char *buf, size_t len, uint64_t secs)
{
	unsigned int d = (unsigned int)(secs / 86400), h = (unsigned int)(secs / 3600 % 24);
	unsigned int m = (unsigned int)(secs / 60 % 60), s = (unsigned int)(secs % 60);

	if (d)
		snprintf(buf, len, "%02ud:%02uh:%02um:%02us", d, h, m, s);
	else if (h)
		snprintf(buf, len, "%02uh:%02um:%02us", h, m, s);
	else
		snprintf(buf, len, "%02um:%02us", m, s);
}

/* ---- result files: a new temporary file beside, then renamed; the directory checked ---- */

/*
 * 1 when @uid is the user who ran us through sudo: root's results then go
 * in that user's directories (the home, the current directory).  That
 * user is not "another user": they already run this command as root.
 */
static int sudo_user(uid_t uid)
{
	const char *s = getenv("SUDO_UID");
	unsigned long v;
	char *end;

	if (geteuid() != 0 || !s || !*s)
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	return !errno && !*end && v == (unsigned long)uid;
}

int ssl_dir_check(const char *cmd, const char *dir)
{
	struct stat st;

	if (stat(dir, &st)) {
		ssl_err("%s: %s: %s", cmd, dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		ssl_err("%s: %s: not a directory", cmd, dir);
		return -1;
	}
	/* anyone may rename or replace what is in it: a link, a file of theirs */
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
		ssl_err("%s: %s: writable by other users (mode %04o) without the sticky bit; "
			"refusing to write results there", cmd, dir,
			(unsigned int)(st.st_mode & 07777));
		return -1;
	}
	/* its owner may do the same, sticky bit or not (root owns the system's) */
	if (st.st_uid != geteuid() && st.st_uid != 0 && !sudo_user(st.st_uid)) {
		ssl_err("%s: %s: owned by another user (uid %u, not yours: %u); refusing to "
			"write results there", cmd, dir, (unsigned int)st.st_uid,
			(unsigned int)geteuid());
		return -1;
	}
	return 0;
}

int ssl_dir_check_file(const char *cmd, const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ssl_dir_check(cmd, ".");
	if (slash == path)
		return ssl_dir_check(cmd, "/");
	if ((size_t)(slash - path) >= sizeof(dir)) {
		ssl_err("%s: %s: path too long", cmd, path);
		return -1;
	}
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return ssl_dir_check(cmd, dir);
}

FILE *ssl_atomic_open(struct ssl_atomic *a, const char *path)
{
	unsigned long long rnd;
	int fd = -1, i;

	a->f = NULL;
	if (snprintf(a->path, sizeof(a->path), "%s", path) >= (int)sizeof(a->path)) {
		ssl_err("%s: path too long", path);
		return NULL;
	}
	/* a new name (never an existing file or link), mode 0666 less the umask */
	for (i = 0; fd < 0 && i < 100; i++) {
		if (getentropy(&rnd, sizeof(rnd))) {
			ssl_err("%s: no random name for its temporary file: %s", path,
				strerror(errno));
			return NULL;
		}
		if (snprintf(a->tmp, sizeof(a->tmp), "%s.%012llx.tmp", path,
			     rnd & 0xffffffffffffULL) >= (int)sizeof(a->tmp)) {
			ssl_err("%s: path too long", path);
			return NULL;
		}
		fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		ssl_err("%s: %s", a->tmp, strerror(errno));
		return NULL;
	}
	a->f = fdopen(fd, "w");
	if (!a->f) {
		ssl_err("%s: %s", a->tmp, strerror(errno));
		close(fd);
		unlink(a->tmp);
	}
	return a->f;
}

int ssl_atomic_commit(struct ssl_atomic *a)
{
	int ok = !ferror(a->f) && !fflush(a->f) && !fsync(fileno(a->f));

	if (fclose(a->f) || !ok) {
		ssl_err("writing %s: %s", a->tmp, strerror(errno));
		unlink(a->tmp);
		return -1;
	}
	a->f = NULL;
	/* rename() replaces a link at @path, it does not follow it */
	if (rename(a->tmp, a->path)) {
		ssl_err("rename %s to %s: %s", a->tmp, a->path, strerror(errno));
		unlink(a->tmp);
		return -1;
	}
	return 0;
}

void ssl_atomic_abort(struct ssl_atomic *a)
{
	if (!a->f)
		return;
	fclose(a->f);
	a->f = NULL;
	unlink(a->tmp);
}

void ssl_size_str(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = b;
	int i = 0;

	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, i ? "%.4g %s" : "%.0f %s", v, unit[i]);
}

int ssl_data_path(const char *env, const char *name, int mode, char *buf, size_t len)
{
	const char *v = getenv(env);
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (v && *v) {
		snprintf(buf, len, "%s", v);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (snprintf(buf, len, "%s/%s", exe, name) < (int)len && !access(buf, mode))
				return 0;
		}
	}
	snprintf(buf, len, "%s/%s", SSL_DATADIR, name);
	return access(buf, mode) ? -1 : 0;
}

/* ---- reading the files a user names: regular files only, capped ---- */

const char *ssl_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err == SSL_ENOTREG)
		return "not a regular file";
	return strerror(err);
}

int ssl_open_regular(const char *path, size_t max_bytes)
{
	struct stat st;
	int fd, fl, err;

	/* O_NONBLOCK: the open of a FIFO without a writer does not wait */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -SSL_ENOTREG;
		goto out_close;
	}
	if ((uint64_t)st.st_size > max_bytes) {
		err = -EFBIG;
		goto out_close;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		err = -errno;
		goto out_close;
	}
	return fd;

out_close:
	close(fd);
	return err;
}

FILE *ssl_fopen_regular(const char *path, size_t max_bytes, int *errp)
{
	int fd = ssl_open_regular(path, max_bytes), err = fd;
	FILE *f = NULL;

	if (fd >= 0) {
		f = fdopen(fd, "r");
		err = f ? 0 : -errno;
		if (!f)
			close(fd);
	}
	if (errp)
		*errp = err;
	return f;
}

int ssl_read_regular(const char *path, size_t max_bytes, char **bufp, size_t *lenp)
{
	struct stat st;
	size_t cap;
	int fd;

	fd = ssl_open_regular(path, max_bytes);
	if (fd < 0)
		return fd;
	/* the size is a hint: the file may change while it is read */
	cap = fstat(fd, &st) ? 0 : (size_t)st.st_size;
	cap = cap < 4096 ? 4096 : cap + 1;
	return read_fd(fd, cap, max_bytes, bufp, lenp);
}

json_object *ssl_json_read(const char *path, size_t max_bytes, int *errp)
{
	json_object *doc = NULL;
	char *buf;
	int err;

	err = ssl_read_regular(path, max_bytes, &buf, NULL);
	if (!err) {
		doc = json_tokener_parse(buf);
		free(buf);
		if (!doc)
			err = -EINVAL;
	}
	if (errp)
		*errp = err;
	return doc;
}
