/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by every command: messages, paths, files, key=value. */
#ifndef SSDLOAD_CLI_UTIL_H
#define SSDLOAD_CLI_UTIL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/array_size.h"

#define SSDLOAD_CLI_VERSION	"0.1.0"

/* Environment overrides of the path roots (for tests without the module). */
#define SSL_ENV_CONFIGFS	"SSDLOAD_CONFIGFS"	/* default SSDLOAD_CONFIGFS_ROOT */
#define SSL_ENV_DEBUGFS		"SSDLOAD_DEBUGFS"	/* default SSDLOAD_DEBUGFS_ROOT */
#define SSL_ENV_CPU_ONLINE	"SSDLOAD_CPU_ONLINE"	/* default /sys/devices/system/cpu/online */

/* Print a NULL-terminated array of usage lines. */
void ssl_usage(FILE *f, const char *const *lines);

/* exit status of a run ended by signal @sig, as a shell reports it */
#define SSL_EXIT_SIGNAL(sig)	(128 + (sig))

/* "ssdload: <message>\n" on stderr. */
void ssl_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The reason of a refusal, into @why (@wlen bytes); -1, so that a check
 * can "return ssl_fail(why, wlen, ...)".
 */
int ssl_fail(char *why, size_t wlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const char *ssl_configfs_root(void);

#ifndef SSL_DATADIR
#define SSL_DATADIR	"/usr/local/share/ssdload"	/* make install's DATADIR */
#endif

/*
 * A file shipped with the CLI: $@env when set, else @name next to the
 * running binary when access(@mode) allows it, else SSL_DATADIR/@name.  The path is in @buf; 0, or -1 when
 * the last one is not there either.
 */
int ssl_data_path(const char *env, const char *name, int mode, char *buf, size_t len);
const char *ssl_debugfs_root(void);
const char *ssl_cpu_online_path(void);

/*
 * Read a whole file into a NUL-terminated malloc'd buffer; 0 or -errno
 * (-EFBIG past SSL_READ_FILE_MAX bytes).  For the pseudo files of sysfs,
 * configfs and debugfs; a file a user names is read by ssl_read_regular().
 */
#define SSL_READ_FILE_MAX	((size_t)1 << 32)
int ssl_read_file(const char *path, char **buf, size_t *len);

/* 1 if a filesystem of @fstype is mounted at @dir (per /proc/self/mounts). */
int ssl_is_mounted(const char *dir, const char *fstype);

/* ssl_check_root() results; SSL_ROOT_REPORTED means an error was printed. */
enum { SSL_ROOT_OK, SSL_ROOT_REPORTED, SSL_ROOT_UNMOUNTED, SSL_ROOT_MISSING };
/* Is @root a directory? Else: is @fstype mounted at @mnt (default root)? */
int ssl_check_root(const char *root, const char *default_root,
		   const char *mnt, const char *fstype);

/* 0 if the debugfs root exists, else print why not and return -1. */
int ssl_check_debugfs(void);

void ssl_msleep(unsigned int ms);

/* fio's eta_to_str(): @secs as [DDd:][HHh:]MMm:SSs (progress lines). */
void ssl_eta_str(char *buf, size_t len, uint64_t secs);

/* @b bytes in binary units, 4 digits: "256 MiB", "1.5 GiB", "512 B" */
void ssl_size_str(char *buf, size_t len, uint64_t b);

/* CLOCK_MONOTONIC in milliseconds. */
uint64_t ssl_now_ms(void);

/*
 * I/Os in flight on block device @dev (reads + writes, every user of the
 * device), from /sys/dev/block/MAJ:MIN/inflight: 0 or -errno.
 */
int ssl_dev_inflight(const char *dev, uint64_t *n);

/* The first 11 fields of /sys/block/<dev>/stat (the kernel's block/stat.rst) */
#define SSL_DEV_STAT_NR	11
/*
 * Read the stat of block device node @dev, and its name (as in /sys/block)
 * into @name; 0 or a negative errno.
 */
int ssl_dev_stat(const char *dev, char *name, size_t nlen, uint64_t st[SSL_DEV_STAT_NR]);

/*
 * Result files.  ssl_dir_check(): 0 if results may be written in @dir, else
 * -1 after a message naming the reason: it is writable by other users
 * without the sticky bit, or owned by a user other than root, the caller
 * and, under sudo, the user of sudo (SUDO_UID) (either could swap a file
 * or a subdirectory in it for a link).
 * ssl_dir_check_file(): the same of the directory of the file @path.
 */
int ssl_dir_check(const char *cmd, const char *dir);
int ssl_dir_check_file(const char *cmd, const char *path);

/*
 * A result file written whole or not at all: ssl_atomic_open() creates a
 * new temporary file beside @path (O_CREAT|O_EXCL|O_NOFOLLOW, a random
 * name: never through a link planted there; mode 0666 less the umask) and
 * returns its stream, or NULL after a message.  ssl_atomic_commit()
 * flushes, syncs and closes it and renames it to @path: 0, or -1 after a
 * message with the temporary file removed.  ssl_atomic_abort() drops it.
 */
struct ssl_atomic {
	FILE *f;
	char path[PATH_MAX];
	char tmp[PATH_MAX + 24];
};

FILE *ssl_atomic_open(struct ssl_atomic *a, const char *path);
int ssl_atomic_commit(struct ssl_atomic *a);
void ssl_atomic_abort(struct ssl_atomic *a);

/* key=value text, one pair per line (debugfs summary and progress) */
struct ssl_kv {
	char *key;			/* points into the parsed buffer */
	char *val;
};

struct ssl_kvlist {
	struct ssl_kv *v;		/* pairs, in file order */
	size_t n;			/* number of pairs */
};

/* Parse (and modify) @text; 0 or -ENOMEM. */
int ssl_kv_parse(char *text, struct ssl_kvlist *kv);
void ssl_kv_free(struct ssl_kvlist *kv);
const char *ssl_kv_get(const struct ssl_kvlist *kv, const char *key);
/* 0 when @key is present and a valid decimal u64, else -1 (*out = 0). */
int ssl_kv_u64(const struct ssl_kvlist *kv, const char *key, uint64_t *out);

/*
 * ---- reading the files a user names (job files and their includes,
 * buffer_pattern and --steps files, ss-check series, JSON results) ----
 * Each must be a regular file (a FIFO, a device or a directory is
 * refused: checked with fstat after an O_NONBLOCK open, so that a FIFO
 * does not block) of at most @max_bytes; a read error is an error.
 */
#define SSL_ENOTREG		4096	/* -SSL_ENOTREG: not a regular file */
#define SSL_JOBFILE_MAX_BYTES	(1U << 20)	/* a job file, an include */
#define SSL_LINE_MAX		4096	/* a line of a job file or a series */
#define SSL_INPUT_MAX_BYTES	(16U << 20)	/* a series, a --steps file */
#define SSL_JSON_MAX_BYTES	(1U << 30)	/* a result document */

/* strerror() of a -errno, or of -SSL_ENOTREG */
const char *ssl_strerror(int err);
/* A read-only fd of regular file @path, or -errno (-SSL_ENOTREG, -EFBIG). */
int ssl_open_regular(const char *path, size_t max_bytes);
/* A read stream of regular file @path, or NULL with *@err (if not NULL). */
FILE *ssl_fopen_regular(const char *path, size_t max_bytes, int *err);
/* ssl_read_file() of a regular file of at most @max_bytes; 0 or -errno. */
int ssl_read_regular(const char *path, size_t max_bytes, char **buf, size_t *len);
/* The JSON document of regular file @path; NULL with *@err (-EINVAL: not JSON). */
struct json_object *ssl_json_read(const char *path, size_t max_bytes, int *err);

#endif /* SSDLOAD_CLI_UTIL_H */
