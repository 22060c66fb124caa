/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio job files, read with inih: "[section]" headers and "key=value"
 * lines, ';' or '#' comments, bare keys (flags), "include FILE", and
 * fio's ${ENV} and $pagesize/$ncpus/$mb_memory expansion.  Every option
 * keeps its origin, "FILE:LINE", for messages.
 */
#ifndef SSDLOAD_CLI_JOBFILE_H
#define SSDLOAD_CLI_JOBFILE_H

#include <stddef.h>

#define SSL_JOBFILE_INCLUDE_MAX	16	/* nesting of include */

struct ssl_jobfile_opt {
	char *key;
	char *val;		/* "" for a bare key */
	char *where;		/* "FILE:LINE" */
	int global;		/* of a [global] section */
};

struct ssl_jobfile_section {
	char *name;
	char *where;		/* of its header */
	int global;		/* [global] */
	struct ssl_jobfile_opt *o;
	int n;
};

struct ssl_jobfile {
	char *path;
	struct ssl_jobfile_section *s;	/* in file order */
	int n;
};

/*
 * Read @path into @jf.  Returns 0, or -1 after printing "FILE:LINE: why"
 * (the file cannot be read, a line is malformed, an include loops or is
 * missing, a variable is not set).  @jf is freed on error.
 */
int ssl_jobfile_load(const char *path, struct ssl_jobfile *jf);
void ssl_jobfile_free(struct ssl_jobfile *jf);

/* The number of job sections (all but [global]). */
int ssl_jobfile_jobs(const struct ssl_jobfile *jf);

/*
 * The job section to run: [@name], or with @name NULL the only one.  NULL
 * after a message "FILE: ..." when there is no such section, or several
 * and no @name.
 */
const struct ssl_jobfile_section *ssl_jobfile_job(const struct ssl_jobfile *jf,
						  const char *name);

/*
 * @fn on each option of @job in fio's order: those of the [global]
 * sections above it, then its own.  Stops at, and returns, the first
 * non-zero return of @fn.
 */
int ssl_jobfile_each(const struct ssl_jobfile *jf, const struct ssl_jobfile_section *job,
		     int (*fn)(void *ctx, const struct ssl_jobfile_opt *o), void *ctx);

/*
 * fio's order of a job file's jobs (its run_threads()): the jobs between
 * two stonewalls (stonewall, wait_for_previous) form a set, started
 * together once the set before has ended; a stonewall or new_group starts
 * a new reporting group (groupid), as fio's add_job() does.  wait_for=NAME
 * is kept where it holds: NAME must be a job of an earlier set.
 */
struct ssl_jobfile_plan {
	const struct ssl_jobfile_section *s;
	const char *name;		/* the last name=, else the section's */
	unsigned int set;		/* 0, 1, ... in file order */
	unsigned int groupid;		/* fio's reporting group */
};

/*
 * The jobs of @jf in file order into *@plan (malloc'ed, *@n of them).
 * 0, or -1 after "FILE:LINE: why": a stonewall/new_group value not 0 or
 * 1; wait_for naming no job, a later one or one of the same set.
 */
int ssl_jobfile_plan(const struct ssl_jobfile *jf, struct ssl_jobfile_plan **plan, int *n);

/*
 * The shipped profile NAME: $SSDLOAD_PROFILES/NAME.fio, else profiles/
 * next to the binary, else SSL_DATADIR/profiles.  The
 * directory searched is written to @dir when not NULL.  Returns 0 with
 * the path in @buf, or -1 when there is no such profile.
 */
int ssl_profile_dir(char *dir, size_t len);
int ssl_profile_path(const char *name, char *buf, size_t len);

#endif /* SSDLOAD_CLI_JOBFILE_H */
