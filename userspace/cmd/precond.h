/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --precondition in sweep, curve and scale (cmd/cmd-precondition.c): the
 * guard of the device before anything is written, then the passes of
 * methods/precondition.c with pts's steady-state rule (pts/ss.c) for the
 * WDPC, recorded in the method's result document.  They live in cmd/
 * because methods/ may not include pts/ (Documentation/architecture.rst).
 */
#ifndef SSDLOAD_CLI_PRECOND_H
#define SSDLOAD_CLI_PRECOND_H

#include <stdint.h>

#include <json-c/json.h>

#include "methods/runner.h"

/* usage lines of --precondition, --section, --force and --dry-run */
#define SSL_PRECOND_USAGE \
	"  --precondition=MODE   before the measurement, write the whole device (needs", \
	"                        --allow_write): none (default), fill (one SEQ 128KiB", \
	"                        pass), seq128k:N (N such passes), random:N (N passes", \
	"                        of RND 4KiB writes), pts[:TIME[:N]] (pts's WIPC,", \
	"                        then its WDPC: rounds of TIME, default 1m, to steady", \
	"                        state, at most N rounds, 5 to 25, default 25)", \
	"  --precondition-span=SIZE|P%", \
	"                        precondition only the device's first SIZE bytes or", \
	"                        P% (default: all of it); the record says the span", \
	"  --section=P%|SIZE     measure only the device's first P% or SIZE (fio's", \
	"                        size=), after a --precondition of the whole device"
#define SSL_PRECOND_GUARD_USAGE \
	"  --force               precondition a device that holds a signature", \
	"  --dry-run             print the device and what --precondition would write;", \
	"                        nothing is written"

/*
 * Before anything is made: with --precondition or --dry-run, the guard of
 * each of the @n devices @devs (identity, signatures, --force); --dry-run
 * then prints what would be written.  0 go on; 1 a dry run is done (exit
 * 0); -1 refused (nothing was written).
 */
int ssl_method_guard(const struct ssl_method *m, const char *const *devs, unsigned int n);

/*
 * @m's --precondition of each of the @n whole devices @devs, one after
 * the other, recorded in @doc's "precondition" (and --section in its
 * "section") and saved as @json.  0, a run's exit status, or 1.
 */
int ssl_method_precondition(const struct ssl_method *m, json_object *doc, const char *json,
			    const char *const *devs, unsigned int n);

#endif /* SSDLOAD_CLI_PRECOND_H */
