/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exact merge of json+ results of many hosts (ssdload merge).
 *
 * Every ssdload result shares one histogram geometry (uapi), so the
 * latency histograms of any number of runs add bucket by bucket, and a
 * percentile of the sum is the percentile of all samples pooled: the
 * merge is exact where averaging percentiles is wrong.  One input is held
 * at a time; what is kept between inputs is one histogram per latency
 * object of each job, and each host's own headline figures.
 */
#ifndef SSDLOAD_FIO_MERGE_H
#define SSDLOAD_FIO_MERGE_H

#include <stddef.h>

#include <json-c/json.h>

struct ssl_merge;

struct ssl_merge *ssl_merge_new(void);
/*
 * Fold result document @doc (fio's schema, json+, from ssdload) of host
 * @host, read from @source, into @m.  0, or -1 with the reason in @why:
 * another geometry or version, no bins (plain json), a malformed document.
 * @doc is not kept.  After a refusal other than of the geometry or the
 * version, @m may hold part of @doc: the caller gives up the merge.
 */
int ssl_merge_add(struct ssl_merge *m, json_object *doc, const char *host,
		  const char *source, char *why, size_t wlen);
/* The number of results folded in so far. */
unsigned int ssl_merge_count(const struct ssl_merge *m);
/*
 * The merged document: fio's schema (jobs[] with json+ bins and
 * percentiles from the merged histograms) and hosts[], each host's own
 * figures.  NULL on ENOMEM.
 */
json_object *ssl_merge_doc(struct ssl_merge *m);
void ssl_merge_free(struct ssl_merge *m);

#endif /* SSDLOAD_FIO_MERGE_H */
