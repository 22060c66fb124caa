/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verify state file (uapi struct ssdload_vstate_hdr, verify.rst "The
 * state file"): checked here with the module's rules, so that a truncated
 * or corrupted file is refused before the module sees it.
 */
#ifndef SSDLOAD_CLI_VSTATE_H
#define SSDLOAD_CLI_VSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/ssdload.h"

/* What a valid state says (host byte order). */
struct ssl_vstate {
	unsigned int nr_devs;
	unsigned int csum_type;		/* enum ssdload_verify */
	uint32_t bs, interval;
	uint64_t seed, map_bytes, written;
	struct {
		uint64_t dev_bytes, span_start, span_bytes, blocks;
		char name[SSDLOAD_VSTATE_NAME_LEN + 1];
	} dev[16];
};

/* CRC-32C (Castagnoli) of @len bytes, seed ~0, inverted: the module's. */
uint32_t ssl_crc32c(const void *p, size_t len);

/*
 * Check the @len bytes of a state at @buf: length, magic, version,
 * crc32c and geometry.  0 with @st filled (if not NULL), or -1 with the
 * reason in @why.
 */
int ssl_vstate_check(const void *buf, size_t len, struct ssl_vstate *st,
		     char *why, size_t wlen);

/*
 * fio's name of a job's state file, "<dir>/local-<job>-<num>-verify.state"
 * ('/' in the job name becomes '.'); @dir NULL or "" is the current
 * directory.  0, or -1 if it does not fit.
 */
int ssl_vstate_name(char *buf, size_t len, const char *dir, const char *job,
		    unsigned int num);

#endif /* SSDLOAD_CLI_VSTATE_H */
