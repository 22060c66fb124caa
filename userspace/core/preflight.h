/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's rules, checked before anything is written: what its
 * configfs stores and its enable would refuse, applied by `ssdload run
 * --parse-only` to the attribute values the CLI would write.  The limits
 * are the module's own, from uapi/ssdload.h.
 */
#ifndef SSDLOAD_CLI_PREFLIGHT_H
#define SSDLOAD_CLI_PREFLIGHT_H

#include <stddef.h>

/* One attribute write of a job (steps/N/ATTR for a step). */
struct ssl_pf_attr {
	const char *attr;
	const char *val;
};

/* One steps/N directory: its writes. */
struct ssl_pf_step {
	const struct ssl_pf_attr *a;
	int na;
};

/* A job as the CLI would write it. */
struct ssl_pf_job {
	const struct ssl_pf_attr *a;	/* the job's attributes, in order */
	int na;
	const struct ssl_pf_step *steps;	/* steps/1 first */
	int nsteps;
	char *const *devs;		/* the devices of filename, unescaped */
	int ndevs;
};

/*
 * Would the module's store of @val into @attr (of a step if @step) be
 * refused?  0, or -1 with the reason in @why.  Attributes without a rule
 * here are checked by the CLI's own converters.
 */
int ssl_preflight_attr(const char *attr, const char *val, int step,
		       char *why, size_t wlen);

/*
 * Would enable refuse @job for what its options say (and, for each of
 * its devices that is a block device the CLI can open, for that device's
 * logical block size and capacity)?  0, or -1 with the attribute at fault
 * ("blockalign", "steps/2/bs", ...) in @attr and the reason in @why.
 */
int ssl_preflight_job(const struct ssl_pf_job *job, char *attr, size_t alen,
		      char *why, size_t wlen);

#endif /* SSDLOAD_CLI_PREFLIGHT_H */
