/* SPDX-License-Identifier: GPL-2.0 */
/* Access to /sys/kernel/config/ssdload/jobs/NAME (root: $SSDLOAD_CONFIGFS). */
#ifndef SSDLOAD_CLI_CONFIGFS_H
#define SSDLOAD_CLI_CONFIGFS_H

#include <stddef.h>

/* 0 if the module's configfs tree is there, else print why and return -1. */
int cfs_check_module(void);

/* Path of the jobs directory, a job, or a job attribute (attr may be NULL). */
int cfs_path(char *buf, size_t len, const char *job, const char *attr);

int cfs_job_exists(const char *job);
/*
 * mkdir/rmdir of a job: 0 or -errno.  The removal takes the job's
 * steps/N directories first (configfs refuses a job that has any).
 */
int cfs_job_create(const char *job);
int cfs_job_remove(const char *job);

/* mkdir of the job's steps/@n: 0 or -errno. */
int cfs_step_create(const char *job, unsigned int n);

/* Is @name a line of the root's features file?  1, 0, or -errno. */
int cfs_has_feature(const char *name);

/* Write @val to an attribute: 0 or -errno. */
int cfs_write(const char *job, const char *attr, const char *val);

/* Write @val to an attribute of the root, e.g. start: 0 or -errno. */
int cfs_write_root(const char *attr, const char *val);

/* Read an attribute without its trailing newline: 0 or -errno. */
int cfs_read(const char *job, const char *attr, char *buf, size_t len);

/*
 * 1 while a job's run is set up or in progress: state "armed" (waiting
 * for the start of its group), "running" (issuing I/O) or "stopping" (a
 * stop was requested, in-flight I/O drains).  Its results are final only
 * once this returns 0.
 */
int cfs_state_busy(const char *state);

/*
 * The job's `error` attribute: returns its errno (negative, or 0) and
 * copies the reason (the text after the number) into @reason.
 */
int cfs_job_error(const char *job, char *reason, size_t len);

/*
 * Print "ssdload: <filename>: <reason>" for a failed enable or a job that
 * ended in state error, from the job's error attribute, falling back to
 * strerror(-@err).  A reason that already starts with the filename is
 * printed as is.  A non-empty @hint is appended in parentheses.
 */
void cfs_report_enable_error(const char *job, const char *filename, int err,
			     const char *hint);

#endif /* SSDLOAD_CLI_CONFIGFS_H */
