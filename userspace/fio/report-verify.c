// SPDX-License-Identifier: GPL-2.0
/*
 * verify in the reports (Documentation/verify.rst): the text report's
 * verify block and the JSON's, from the debugfs verify file as results.c
 * keeps it.  Every key of the file reaches the JSON (ssdload.verify,
 * without its "verify_" prefix), and the text report's last line, so a
 * key a newer module adds needs no change here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "core/results.h"
#include "fio/report-view.h"

/* the failure classes, in uapi's order (enum ssdload_vclass) */
static const char *const vclass[] = {
	"corrupt", "misplaced", "stale", "foreign", "read_error",
};

/* the keys the text report prints by name; the others go to its last line */
static const char *const vknown[] = {
	"verify", "verify_interval", "verify_state", "verify_written",
	"verify_checked", "verify_units", "verify_ambiguous", "verify_failed",
	"verify_corrupt", "verify_misplaced", "verify_stale", "verify_foreign",
	"verify_read_error", "verify_map_bytes",
};

static int vknown_key(const char *k)
{
	size_t i;

	for (i = 0; i < sizeof(vknown) / sizeof(vknown[0]); i++)
		if (!strcmp(k, vknown[i]))
			return 1;
	return 0;
}

uint64_t rep_verify_failed(const struct ssl_verify *v)
{
	return results_verify_on(v) ? results_verify_u64(v, "verify_failed") : 0;
}

static uint64_t vu(const struct ssl_verify *v, const char *k)
{
	return results_verify_u64(v, k);
}

void rep_print_verify(FILE *f, const struct ssl_report *r)
{
	const struct ssl_verify *v = r->verify;
	const char *state = results_verify_get(v, "verify_state");
	uint64_t written = vu(v, "verify_written"), checked = vu(v, "verify_checked");
	unsigned int i, shown = 0;
	size_t k;
	char key[64];

	if (!results_verify_on(v))
		return;
	fprintf(f, "  verify       : %s, %" PRIu64 "-byte units, %s: %" PRIu64
		" blocks written, %" PRIu64 " checked (%" PRIu64 " units)\n",
		results_verify_get(v, "verify"), vu(v, "verify_interval"),
		state ? state : "?", written, checked, vu(v, "verify_units"));
	fprintf(f, "    failures   : %" PRIu64 " units (", vu(v, "verify_failed"));
	for (k = 0; k < sizeof(vclass) / sizeof(vclass[0]); k++) {
		snprintf(key, sizeof(key), "verify_%s", vclass[k]);
		fprintf(f, "%s%s=%" PRIu64, k ? ", " : "", vclass[k], vu(v, key));
	}
	fprintf(f, ")\n");
	fprintf(f, "    ambiguous  : %" PRIu64 " blocks (overlapping writes: any generation "
		"of the job passes), unchecked=%" PRIu64 "\n", vu(v, "verify_ambiguous"),
		written > checked ? written - checked : 0);
	fprintf(f, "    map        : %" PRIu64 " bytes (generation map)\n",
		vu(v, "verify_map_bytes"));
	if (v->nr_fail) {
		fprintf(f, "    first %u failure%s (sector class detail):\n", v->nr_fail,
			v->nr_fail == 1 ? "" : "s");
		for (i = 0; i < v->nr_fail; i++)
			fprintf(f, "      %" PRIu64 " %s %s\n", v->fail[i].lba, v->fail[i].cls,
				v->fail[i].detail);
	}
	for (k = 0; k < v->kv.n; k++) {
		if (vknown_key(v->kv.v[k].key))
			continue;
		fprintf(f, "%s%s=%s", shown++ ? ", " : "    other      : ", v->kv.v[k].key,
			v->kv.v[k].val);
	}
	if (shown)
		fputc('\n', f);
}

/* a value: an integer when it is one (errno: negative), else the text */
static json_object *vval(const char *s)
{
	uint64_t x;

	if (!ssl_parse_u64(s + (*s == '-'), &x) && x <= INT64_MAX)
		return json_object_new_int64(*s == '-' ? -(int64_t)x : (int64_t)x);
	return json_object_new_string(s);
}

/* one fail= line: lba, class, and each key=value word of its detail */
static json_object *vfail_json(const struct ssl_vfail *fl)
{
	json_object *o = json_object_new_object();
	char buf[512], *tok, *save, *eq;

	json_object_object_add(o, "lba", json_object_new_int64((int64_t)fl->lba));
	json_object_object_add(o, "class", json_object_new_string(fl->cls));
	snprintf(buf, sizeof(buf), "%s", fl->detail);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		eq = strchr(tok, '=');
		if (!eq || eq == tok)
			continue;
		*eq = '\0';
		json_object_object_add(o, tok, vval(eq + 1));
	}
	return o;
}

json_object *rep_verify_json(const struct ssl_verify *v)
{
	json_object *o, *a;
	unsigned int i;
	size_t k;

	if (!results_verify_on(v))
		return NULL;
	o = json_object_new_object();
	for (k = 0; k < v->kv.n; k++) {
		const char *key = v->kv.v[k].key;

		if (!strcmp(key, "verify"))
			key = "type";
		else if (!strncmp(key, "verify_", 7))
			key += 7;
		json_object_object_add(o, key, vval(v->kv.v[k].val));
	}
	a = json_object_new_array();
	for (i = 0; i < v->nr_fail; i++)
		json_object_array_add(a, vfail_json(&v->fail[i]));
	json_object_object_add(o, "failures", a);
	return o;
}

/*
 * fio's total_err and first_error (its stat.c prints them when errors are
 * counted instead of ending the job, as verify_fatal=0 does here): the
 * failed units and failed I/Os; the job's error, else EILSEQ (fio's
 * verify error) if a unit failed.
 */
void rep_verify_fio_keys(json_object *job, const struct ssl_report *r)
{
	uint64_t failed = rep_verify_failed(r->verify), errs = 0;
	int d;

	if (!results_verify_on(r->verify))
		return;
	for (d = 0; d < SSDLOAD_DIR_NR; d++)
		errs += r->sum->dir[d].errors;
	json_object_object_add(job, "total_err", json_object_new_int64((int64_t)(failed + errs)));
	json_object_object_add(job, "first_error",
			       json_object_new_int64(r->sum->error ? -r->sum->error :
						     failed ? EILSEQ : 0));
}
