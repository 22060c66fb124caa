// SPDX-License-Identifier: GPL-2.0
/*
 * fio's verify options (Documentation/verify.rst, cli.rst): verify,
 * verify_interval, do_verify and verify_fatal become the module's
 * attributes of the same names; experimental_verify and verify_async are
 * taken with a note.  What enable would refuse of them (a job that does
 * not write, trims, several block sizes, an interval that does not
 * divide bs, a checksum the module lacks) is core/preflight.c's.
 * The attributes are written only with verify on: older modules lack
 * them, and fio ignores the others without verify.
 */
#include <stdio.h>
#include <string.h>

#include "uapi/ssdload.h"
#include "cmd/run.h"
#include "core/options.h"
#include "core/util.h"

/* fio 3.33's verify types (fio --cmdhelp=verify) and what ssdload makes of them */
static const struct {
	const char *fio;
	const char *attr;	/* the module's name, or NULL: refused */
} verify_types[] = {
	{ "0", "0" },
	{ "crc32c", "crc32c" },
	{ "crc32c-intel", "crc32c" },
	{ "crc64", "crc64" },
	{ "xxhash", "xxhash" },
	{ "sha256", "sha256" },
	{ "meta", "meta" },
	{ "null", "null" },
	/* named by the module, refused at enable until it has them (preflight.c) */
	{ "md5", "md5" },
	{ "sha1", "sha1" },
	{ "pattern", "pattern" },
	{ "crc32", NULL },
	{ "crc16", NULL },
	{ "crc7", NULL },
	{ "sha512", NULL },
	{ "sha3-224", NULL },
	{ "sha3-256", NULL },
	{ "sha3-384", NULL },
	{ "sha3-512", NULL },
};

#define VERIFY_KERNEL "crc32c, crc64, xxhash, sha256, meta or null"

/* verify=TYPE: the module's name of it into *@attr ("0": off) */
static int verify_type(const struct run_ctx *c, const char **attr)
{
	const char *v = c->raw[O_VERIFY];
	char why[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(verify_types); i++) {
		if (strcmp(v, verify_types[i].fio))
			continue;
		if (verify_types[i].attr) {
			*attr = verify_types[i].attr;
			return 0;
		}
		snprintf(why, sizeof(why), "fio's %s is not one of ssdload.ko's checksums, "
			 "which come from the kernel's libraries: use " VERIFY_KERNEL, v);
		return bad_value(c, O_VERIFY, why);
	}
	return bad_value(c, O_VERIFY, "not one of fio's verify types (0, " VERIFY_KERNEL
			 ", md5, sha1, pattern, crc32, crc16, crc7, sha512, sha3-*)");
}

/*
 * experimental_verify and verify_async: taken, with a note when they ask
 * for something (Documentation/verify.rst, "Where the check runs").
 */
static int verify_notes(struct run_ctx *c)
{
	uint64_t n = 0;
	int on = 0;

	if (flag_opt(c, O_EXPERIMENTAL_VERIFY, NULL, &on))
		return -1;
	if (on)
		run_opt_note(c, O_EXPERIMENTAL_VERIFY, ": ", "not needed: ssdload.ko "
			     "keeps the generation of every block it wrote (the generation "
			     "map), so nothing is replayed to find what to check");
	if (c->raw[O_VERIFY_ASYNC]) {
		if (ssl_parse_size(c->raw[O_VERIFY_ASYNC], &n))
			return bad_value(c, O_VERIFY_ASYNC, "not a non-negative integer");
		if (n)
			run_opt_note(c, O_VERIFY_ASYNC, ": ", "no verifier threads: "
				     "ssdload.ko checks in the kernel, in the job's own thread "
				     "after the writes (a checksum costs less than the read it "
				     "checks, and the measured phase is not disturbed)");
	}
	return 0;
}

/* is rwmixread or rwmixwrite (@id) given as @pct? */
static int mix_is(const struct run_ctx *c, int id, uint64_t pct)
{
	uint64_t v;

	return c->raw[id] && !ssl_parse_u64(c->raw[id], &v) && v == pct;
}

int run_verify_opts(struct run_ctx *c)
{
	const char *type = "0";
	uint64_t iv = 0;
	int dov = 1, fatal = 0;

	if (verify_notes(c))
		return -1;
	if (c->raw[O_VERIFY] && verify_type(c, &type))
		return -1;
	if (c->raw[O_VERIFY_INTERVAL] && ssl_parse_size(c->raw[O_VERIFY_INTERVAL], &iv))
		return bad_value(c, O_VERIFY_INTERVAL, "not a size (bytes, or with k/m "
				 "suffix)");
	if (flag_opt(c, O_DO_VERIFY, NULL, &dov) || flag_opt(c, O_VERIFY_FATAL, NULL, &fatal))
		return -1;
	if (!strcmp(type, "0"))
		return 0;	/* fio: the others mean nothing without verify */
	add_write(c, SSDLOAD_ATTR_VERIFY, type);
	if (c->raw[O_VERIFY_INTERVAL])
		add_write_u64(c, SSDLOAD_ATTR_VERIFY_INTERVAL, iv);
	if (c->raw[O_DO_VERIFY])
		add_write_u64(c, SSDLOAD_ATTR_DO_VERIFY, (uint64_t)dov);
	if (c->raw[O_VERIFY_FATAL])
		add_write_u64(c, SSDLOAD_ATTR_VERIFY_FATAL, (uint64_t)fatal);
	if (strcmp(c->raw[O_VERIFY], type))
		run_opt_note(c, O_VERIFY, ": ", "the kernel's crc32c, which uses the CPU's "
			     "instruction where there is one");
	/* rw, randrw, readwrite: reads and writes, unless a mix leaves one out */
	if (c->raw[O_RW] && c->writes && !c->trims && (strstr(c->raw[O_RW], "rw") ||
						      strstr(c->raw[O_RW], "readwrite")) &&
	    !mix_is(c, O_RWMIXREAD, 0) && !mix_is(c, O_RWMIXREAD, 100) &&
	    !mix_is(c, O_RWMIXWRITE, 0) && !mix_is(c, O_RWMIXWRITE, 100))
		run_opt_note(c, O_VERIFY, ": ", "the reads of a mixed job are not checked "
			     "yet; the pass after the writes checks every block written");
	return 0;
}
