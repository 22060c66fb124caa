// SPDX-License-Identifier: GPL-2.0
/* Access to the configfs job directories of ssdload.ko. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uapi/ssdload.h"
#include "core/configfs.h"
#include "core/util.h"

#define CONFIGFS_MNT	"/sys/kernel/config"

int cfs_check_module(void)
{
	switch (ssl_check_root(ssl_configfs_root(), SSDLOAD_CONFIGFS_ROOT,
			       CONFIGFS_MNT, "configfs")) {
	case SSL_ROOT_OK:
		return 0;
	case SSL_ROOT_UNMOUNTED:
		ssl_err("ssdload.ko is not loaded: run insmod module/ssdload.ko"
			" (and configfs is not mounted: mount -t configfs none "
			CONFIGFS_MNT ")");
		break;
	case SSL_ROOT_MISSING:
		ssl_err("ssdload.ko is not loaded: run insmod module/ssdload.ko");
		break;
	}
	return -1;
}

int cfs_path(char *buf, size_t len, const char *job, const char *attr)
{
	int r;

	if (job && (!*job || strchr(job, '/') || !strcmp(job, ".") ||
		    !strcmp(job, "..")))
		return -EINVAL;
	if (!job)
		r = snprintf(buf, len, "%s/jobs", ssl_configfs_root());
	else if (!attr)
		r = snprintf(buf, len, "%s/jobs/%s", ssl_configfs_root(), job);
	else
		r = snprintf(buf, len, "%s/jobs/%s/%s", ssl_configfs_root(),
			     job, attr);
	if (r < 0 || (size_t)r >= len)
		return -ENAMETOOLONG;
	return 0;
}

int cfs_job_exists(const char *job)
{
	char path[4096];
	struct stat st;

	if (cfs_path(path, sizeof(path), job, NULL))
		return 0;
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int cfs_job_create(const char *job)
{
	char path[4096];
	int err = cfs_path(path, sizeof(path), job, NULL);

	if (err)
		return err;
	return mkdir(path, 0755) ? -errno : 0;
}

/*
 * rmdir every steps/N of @job: 0, or the first -errno.  The names are
 * read first, then removed: no rmdir while the directory is read.
 */
static int remove_steps(const char *job)
{
	char path[4096], sub[4200];
	unsigned int *nr = NULL, *more, n = 0, cap = 0, i;
	struct dirent *de;
	int err = 0;
	DIR *d;

	if (cfs_path(path, sizeof(path), job, SSDLOAD_CONFIGFS_STEPS))
		return 0;
	d = opendir(path);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while ((de = readdir(d))) {
		const char *p = de->d_name;

		if (*p < '1' || *p > '9' || strspn(p, "0123456789") != strlen(p) ||
		    strlen(p) > 9)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			more = realloc(nr, cap * sizeof(*nr));
			if (!more) {
				err = -ENOMEM;
				break;
			}
			nr = more;
		}
		nr[n++] = (unsigned int)strtoul(p, NULL, 10);
	}
	closedir(d);
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%u", path, nr[i]);
		if (rmdir(sub) && errno != ENOENT && !err)
			err = -errno;
	}
	free(nr);
	return err;
}

int cfs_job_remove(const char *job)
{
	char path[4096];
	int err = cfs_path(path, sizeof(path), job, NULL), serr, saved;

	if (err)
		return err;
	saved = errno;	/* a job without steps/ leaves errno as it was */
	serr = remove_steps(job);
	if (!rmdir(path)) {
		errno = saved;
		return 0;
	}
	err = -errno;
	/* a step that would not go says more than the job's ENOTEMPTY */
	return serr && err == -ENOTEMPTY ? serr : err;
}

int cfs_step_create(const char *job, unsigned int n)
{
	char attr[64], path[4096];
	int err;

	snprintf(attr, sizeof(attr), "%s/%u", SSDLOAD_CONFIGFS_STEPS, n);
	err = cfs_path(path, sizeof(path), job, attr);
	if (err)
		return err;
	return mkdir(path, 0755) ? -errno : 0;
}

int cfs_has_feature(const char *name)
{
	char path[4096], *text, *line, *next;
	int r, found = 0;

	r = snprintf(path, sizeof(path), "%s/%s", ssl_configfs_root(), SSDLOAD_FEATURES);
	if (r < 0 || (size_t)r >= sizeof(path))
		return -ENAMETOOLONG;
	r = ssl_read_file(path, &text, NULL);
	if (r)
		return r;
	for (line = text; line && !found; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		found = !strcmp(line, name);
	}
	free(text);
	return found;
}

/* One write(2) of @val to @path, as echo does: 0 or -errno. */
static int write_path(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t r;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		r = write(fd, val, len);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		err = -errno;
	else if ((size_t)r != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int cfs_write(const char *job, const char *attr, const char *val)
{
	char path[4096];
	int err;

	err = cfs_path(path, sizeof(path), job, attr);
	if (err)
		return err;
	return write_path(path, val);
}

int cfs_write_root(const char *attr, const char *val)
{
	char path[4096];
	int r;

	r = snprintf(path, sizeof(path), "%s/%s", ssl_configfs_root(), attr);
	if (r < 0 || (size_t)r >= sizeof(path))
		return -ENAMETOOLONG;
	return write_path(path, val);
}

int cfs_read(const char *job, const char *attr, char *buf, size_t len)
{
	char path[4096], *data;
	size_t n;
	int err;

	err = cfs_path(path, sizeof(path), job, attr);
	if (err)
		return err;
	err = ssl_read_file(path, &data, &n);
	if (err)
		return err;
	while (n && (data[n - 1] == '\n' || data[n - 1] == ' '))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(buf, data, n);
	buf[n] = '\0';
	free(data);
	return 0;
}

int cfs_state_busy(const char *state)
{
	return !strcmp(state, "armed") || !strcmp(state, "running") ||
	       !strcmp(state, "stopping");
}

int cfs_job_error(const char *job, char *reason, size_t len)
{
	char buf[1024], *end;
	long e;

	reason[0] = '\0';
	if (cfs_read(job, SSDLOAD_ATTR_ERROR, buf, sizeof(buf)))
		return 0;
	e = strtol(buf, &end, 10);
	if (end == buf)
		e = 0;
	while (*end == ' ')
		end++;
	snprintf(reason, len, "%s", end);
	return (int)e;
}

/* Does @reason start with one device of the fio list @filename ("a:b")? */
static int names_a_device(const char *reason, const char *filename)
{
	const char *p = filename;

	while (p && *p) {
		char dev[4096];
		size_t n = 0;

		for (; *p && *p != ':' && n < sizeof(dev) - 1; p++) {
			if (*p == '\\' && p[1] == ':')
				p++;
			dev[n++] = *p;
		}
		dev[n] = '\0';
		if (n && !strncmp(reason, dev, n) &&
		    (reason[n] == ' ' || reason[n] == ':'))
			return 1;
		if (*p == ':')
			p++;
	}
	return 0;
}

void cfs_report_enable_error(const char *job, const char *filename, int err,
			     const char *hint)
{
	char reason[1024];
	size_t flen = filename ? strlen(filename) : 0;

	cfs_job_error(job, reason, sizeof(reason));
	if (!reason[0])
		snprintf(reason, sizeof(reason), "%s", strerror(-err));
	if (hint && *hint)
		snprintf(reason + strlen(reason), sizeof(reason) - strlen(reason),
			 " (%s)", hint);
	if (!flen)
		ssl_err("%s: %s", SSDLOAD_ATTR_ENABLE, reason);
	else if (names_a_device(reason, filename))
		ssl_err("%s", reason);	/* the reason already names the device */
	else
		ssl_err("%s: %s", filename, reason);
}
