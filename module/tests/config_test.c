// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite ssdload_config: every configfs attribute of a job, stored
 * and shown through the module's own attribute table (ssdload_job_attrs),
 * with a table of accepted and refused values, plus the parsers of
 * parse.c on their own.
 */
#include <linux/ctype.h>
#include <linux/gfp.h>
#include <linux/limits.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ssdload_test.h"

/* Suite fixture: an idle job as mkdir creates it, and a show page. */
struct cfg_fixture {
	struct ssdload_job *job;	/* from ssdload_job_alloc() */
	char *page;			/* PAGE_SIZE, page aligned (sysfs_emit) */
	char *buf;			/* PATH_MAX + 2, long values */
};

static int ssdload_config_init(struct kunit *test)
{
	struct cfg_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	test->priv = f;
	f->page = (char *)get_zeroed_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->page);
	f->buf = kunit_kzalloc(test, PATH_MAX + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->buf);
	f->job = ssdload_job_alloc("kunit");
	KUNIT_ASSERT_NOT_NULL(test, f->job);
	config_item_init_type_name(&f->job->cg.cg_item, "kunit", NULL);
	return 0;
}

static void ssdload_config_exit(struct kunit *test)
{
	struct cfg_fixture *f = test->priv;

	if (!f)
		return;
	if (f->job)
		ssdload_job_put(f->job);
	free_page((unsigned long)f->page);
}

static struct configfs_attribute *cfg_attr(const char *name)
{
	struct configfs_attribute **a;

	for (a = ssdload_job_attrs; *a; a++)
		if (!strcmp((*a)->ca_name, name))
			return *a;
	return NULL;
}

/* One store: attribute, value, the expected result and read-back. */
struct cfg_case {
	const char *attr;	/* configfs attribute name */
	const char *in;		/* value written; NULL: "/" + 'a' * (len - 1) */
	unsigned int len;	/* length of the generated value (in == NULL) */
	int ret;		/* 0 (accepted) or the negative errno */
	const char *out;	/* show after an accepted store; NULL: unchecked */
	unsigned int cpus;	/* online CPUs the case needs (0: any) */
};

#define OK(a, i, o)	{ .attr = a, .in = i, .ret = 0, .out = o }
#define NO(a, i, e)	{ .attr = a, .in = i, .ret = -(e) }

#define U64MAX		"18446744073709551615"
#define TWO64		"18446744073709551616"
/* U64_MAX / NSEC_PER_MSEC / 4: the largest runtime_ms / ramp_ms */
#define MS_MAX		"4611686018427"
#define MS_MAX1		"4611686018428"
/* the longest group name */
#define G63		"ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg"

static const struct cfg_case cfg_cases[] = {
	/* filename: an absolute path shorter than PATH_MAX */
	OK("filename", "/dev/nullb0", "/dev/nullb0\n"),
	OK("filename", "/dev/nvme0n1\n", "/dev/nvme0n1\n"),
	{ .attr = "filename", .len = PATH_MAX - 1, .ret = 0 },
	{ .attr = "filename", .len = PATH_MAX, .ret = -EINVAL },
	NO("filename", "dev/sda", EINVAL),
	NO("filename", "", EINVAL),
	NO("filename", "\n", EINVAL),
	NO("filename", "/dev/a\nb", EINVAL),
	NO("filename", "/dev/sda\n\n", EINVAL),
	/* filename: fio's colon list of absolute paths, "\\:" escapes */
	OK("filename", "/dev/nullb0:/dev/ram0", "/dev/nullb0:/dev/ram0\n"),
	OK("filename", "/dev/a\\:b:/dev/c", "/dev/a\\:b:/dev/c\n"),
	NO("filename", "/dev/nullb0:ram0", EINVAL),
	NO("filename", "/dev/nullb0:", EINVAL),
	NO("filename", "/a:/b:/c:/d:/e:/f:/g:/h:/i:/j:/k:/l:/m:/n:/o:/p:/q",
	   EINVAL),
	/* rw: fio's names, exactly */
	OK("rw", "read", "read\n"),
	OK("rw", "write", "write\n"),
	OK("rw", "randread", "randread\n"),
	OK("rw", "randwrite", "randwrite\n"),
	OK("rw", "rw", "rw\n"),
	OK("rw", "randrw\n", "randrw\n"),
	NO("rw", "RANDREAD", EINVAL),
	NO("rw", "", EINVAL),
	NO("rw", " read", EINVAL),
	NO("rw", "read ", EINVAL),
	NO("rw", "read\n\n", EINVAL),
	OK("rw", "trim", "trim\n"),
	OK("rw", "randtrim", "randtrim\n"),
	OK("rw", "trimwrite", "trimwrite\n"),
	OK("rw", "randtrimwrite\n", "randtrimwrite\n"),
	NO("rw", "randtrimread", EINVAL),
	NO("rw", "2", EINVAL),
	/* loops: 1..2^32-1 */
	OK("loops", "1", "1\n"),
	OK("loops", "360\n", "360\n"),
	NO("loops", "0", ERANGE),
	NO("loops", "4294967296", ERANGE),
	NO("loops", "-1", EINVAL),
	/* time_based: 0 or 1 */
	OK("time_based", "0", "0\n"),
	OK("time_based", "1\n", "1\n"),
	NO("time_based", "2", ERANGE),
	NO("time_based", "yes", EINVAL),
	/* thinktime: us up to SSDLOAD_MAX_US, blocks any, a type, a range */
	OK("thinktime_us", "0", "0\n"),
	OK("thinktime_us", "250000\n", "250000\n"),
	NO("thinktime_us", "4611686018427388", ERANGE),
	NO("thinktime_us", "1ms", EINVAL),
	OK("thinktime_spin_us", "50", "50\n"),
	NO("thinktime_spin_us", "-1", EINVAL),
	OK("thinktime_iotime_us", "9000000", "9000000\n"),
	NO("thinktime_iotime_us", "4611686018427388", ERANGE),
	OK("thinktime_blocks", "0", "0\n"),
	OK("thinktime_blocks", "16", "16\n"),
	NO("thinktime_blocks", TWO64, ERANGE),
	OK("thinktime_blocks_type", "issue", "issue\n"),
	OK("thinktime_blocks_type", "complete\n", "complete\n"),
	NO("thinktime_blocks_type", "completed", EINVAL),
	OK("startdelay_us", "2000000", "2000000\n"),
	OK("startdelay_us", "2000000-5000000\n", "2000000-5000000\n"),
	OK("startdelay_us", "7-7", "7\n"),
	NO("startdelay_us", "5-2", EINVAL),
	NO("startdelay_us", "1-4611686018427388", ERANGE),
	NO("startdelay_us", "2s", EINVAL),
	OK("start_at", "18446744073709551615", "18446744073709551615\n"),
	NO("start_at", "18446744073709551616", ERANGE),
	/* rwmixread: 0..100 */
	OK("rwmixread", "0", "0\n"),
	OK("rwmixread", "100", "100\n"),
	OK("rwmixread", "65\n", "65\n"),
	NO("rwmixread", "101", ERANGE),
	NO("rwmixread", "-1", EINVAL),
	NO("rwmixread", "+5", EINVAL),
	NO("rwmixread", " 50", EINVAL),
	NO("rwmixread", "50 ", EINVAL),
	NO("rwmixread", "50\n\n", EINVAL),
	NO("rwmixread", "", EINVAL),
	NO("rwmixread", "0x10", EINVAL),
	NO("rwmixread", "12.5", EINVAL),
	NO("rwmixread", TWO64, ERANGE),
	/* bs: 512..16 MiB, a multiple of 512 */
	OK("bs", "512", "512\n"),
	OK("bs", "4096\n", "4096\n"),
	OK("bs", "16777216", "16777216\n"),
	NO("bs", "16777728", ERANGE),
	NO("bs", "511", ERANGE),
	NO("bs", "0", ERANGE),
	NO("bs", "1000", EINVAL),
	NO("bs", "4k", EINVAL),
	NO("bs", "-4096", EINVAL),
	NO("bs", U64MAX, ERANGE),
	NO("bs", TWO64, ERANGE),
	NO("bs", "", EINVAL),
	/* iodepth: 1..65536 */
	OK("iodepth", "1", "1\n"),
	OK("iodepth", "65536", "65536\n"),
	OK("iodepth", "032", "32\n"),
	NO("iodepth", "0", ERANGE),
	NO("iodepth", "65537", ERANGE),
	NO("iodepth", "-1", EINVAL),
	NO("iodepth", "1.5", EINVAL),
	NO("iodepth", TWO64, ERANGE),
	/* cpus_allowed: a cpulist of online CPUs, empty = default */
	OK("cpus_allowed", "0", "0\n"),
	OK("cpus_allowed", "0\n", "0\n"),
	OK("cpus_allowed", "", "\n"),
	OK("cpus_allowed", "\n", "\n"),
	{ .attr = "cpus_allowed", .in = "0-1", .out = "0-1\n", .cpus = 2 },
	{ .attr = "cpus_allowed", .in = "1,0", .out = "0-1\n", .cpus = 2 },
	NO("cpus_allowed", "4095", EINVAL),
	NO("cpus_allowed", "-1", EINVAL),
	NO("cpus_allowed", "1-0", EINVAL),
	NO("cpus_allowed", "x", EINVAL),
	NO("cpus_allowed", "0\n1", EINVAL),
	NO("cpus_allowed", "0\n\n", EINVAL),
	NO("cpus_allowed", TWO64, EINVAL),
	/* offset, size: bytes, multiples of 512 */
	OK("offset", "0", "0\n"),
	OK("offset", "1048576\n", "1048576\n"),
	OK("offset", "18446744073709551104", "18446744073709551104\n"),
	NO("offset", "513", EINVAL),
	NO("offset", U64MAX, EINVAL),
	NO("offset", TWO64, ERANGE),
	NO("offset", "-512", EINVAL),
	NO("offset", "", EINVAL),
	OK("offset", "25%", "25.0000%\n"),
	OK("offset", "12.5%\n", "12.5000%\n"),
	OK("offset", "0.0001%", "0.0001%\n"),
	NO("offset", "0%", EINVAL),
	NO("offset", "101%", ERANGE),
	NO("offset", "100.5%", ERANGE),
	NO("offset", "0.00001%", EINVAL),
	NO("offset", "%", EINVAL),
	NO("offset", "5%%", EINVAL),
	NO("offset", "-5%", EINVAL),
	OK("size", "100%", "100.0000%\n"),
	NO("size", "1000%", ERANGE),
	NO("size", "1.2.3%", EINVAL),
	OK("size", "0", "0\n"),
	OK("size", "512", "512\n"),
	NO("size", "100", EINVAL),
	NO("size", TWO64, ERANGE),
	NO("size", "1G", EINVAL),
	NO("size", "-0", EINVAL),
	/* runtime_ms, ramp_ms: ms, bounded so that ns never overflow */
	OK("runtime_ms", "0", "0\n"),
	OK("runtime_ms", MS_MAX, MS_MAX "\n"),
	NO("runtime_ms", MS_MAX1, ERANGE),
	NO("runtime_ms", "10s", EINVAL),
	NO("runtime_ms", TWO64, ERANGE),
	OK("ramp_ms", "500\n", "500\n"),
	NO("ramp_ms", MS_MAX1, ERANGE),
	NO("ramp_ms", "-5", EINVAL),
	/* number_ios, randseed: any u64 */
	OK("number_ios", "0", "0\n"),
	OK("number_ios", U64MAX, U64MAX "\n"),
	NO("number_ios", TWO64, ERANGE),
	NO("number_ios", "1e6", EINVAL),
	OK("randseed", "0", "0\n"),
	OK("randseed", U64MAX "\n", U64MAX "\n"),
	NO("randseed", "-1", EINVAL),
	NO("randseed", "99999999999999999999999", ERANGE),
	/* booleans: 0 or 1 only */
	OK("allow_write", "1", "1\n"),
	OK("allow_write", "0\n", "0\n"),
	NO("allow_write", "2", ERANGE),
	NO("allow_write", "yes", EINVAL),
	NO("allow_write", "", EINVAL),
	OK("hipri", "1\n", "1\n"),
	NO("hipri", "true", EINVAL),
	NO("hipri", "-1", EINVAL),
	OK("disable_lat", "1", "1\n"),
	NO("disable_lat", "y", EINVAL),
	NO("disable_lat", TWO64, ERANGE),
	OK("scramble_buffers", "0", "0\n"),
	NO("scramble_buffers", "2", ERANGE),
	/* io_timeout_ms: ms, bounded as runtime_ms */
	OK("io_timeout_ms", "30000\n", "30000\n"),
	NO("io_timeout_ms", MS_MAX1, ERANGE),
	NO("io_timeout_ms", "5s", EINVAL),
	/* block sizes: bssplit and bsrange (dist.c parses, fio's syntax) */
	{ .attr = "bssplit", .in = "4k/10:64k/50:32k/40", .ret = 0 },
	{ .attr = "bssplit", .in = "4096/50:8192/50,4096/100", .ret = 0 },
	OK("bssplit", "", "\n"),
	NO("bssplit", "4k/0:8k/100", EINVAL),
	NO("bssplit", "0/50:4k/50", EINVAL),
	NO("bssplit", "4k/60:8k/60", ERANGE),
	NO("bssplit", "4x/100", EINVAL),
	{ .attr = "bsrange", .in = "4k-64k", .ret = 0 },
	OK("bsrange", "\n", "\n"),
	OK("bsrange", "64k-4k", "4096-65536\n"),
	NO("bsrange", "4k-64", EINVAL),
	NO("bsrange", "4k", EINVAL),
	OK("blockalign", "0", "0\n"),
	OK("blockalign", "65536", "65536\n"),
	NO("blockalign", "100", EINVAL),
	NO("blockalign", "33554432", ERANGE),
	/* random_distribution (dist.c), random_scatter */
	{ .attr = "random_distribution", .in = "zipf:1.2", .ret = 0 },
	{ .attr = "random_distribution", .in = "zoned:50/5:30/15:20/80",
	  .ret = 0 },
	{ .attr = "random_distribution", .in = "pareto:0.9", .ret = 0 },
	{ .attr = "random_distribution", .in = "normal:5", .ret = 0 },
	{ .attr = "random_distribution", .in = "random", .ret = 0 },
	NO("random_distribution", "zipf:0", ERANGE),
	NO("random_distribution", "zipf:-1", EINVAL),
	NO("random_distribution", "zoned:50/60:50/60", ERANGE),
	NO("random_distribution", "zoned:50/5:30/15", EINVAL),
	NO("random_distribution", "foo:1", EINVAL),
	OK("random_scatter", "0", "0\n"),
	NO("random_scatter", "2", ERANGE),
	OK("norandommap", "1", "1\n"),
	NO("norandommap", "2", ERANGE),
	/* write data */
	OK("buffer_compress_percentage", "50", "50\n"),
	NO("buffer_compress_percentage", "101", ERANGE),
	OK("buffer_compress_chunk", "4096", "4096\n"),
	NO("buffer_compress_chunk", "0", ERANGE),
	OK("dedupe_percentage", "30\n", "30\n"),
	NO("dedupe_percentage", "101", ERANGE),
	{ .attr = "buffer_pattern", .in = "0xdeadbeef", .ret = 0 },
	NO("buffer_pattern", "0xabc", EINVAL),
	NO("buffer_pattern", "zz", EINVAL),
	OK("zero_buffers", "1", "1\n"),
	NO("zero_buffers", "2", ERANGE),
	OK("refill_buffers", "1", "1\n"),
	NO("refill_buffers", "on", EINVAL),
	/* several devices, several workers */
	OK("file_service_type", "random", "random\n"),
	OK("file_service_type", "sequential:8\n", "sequential:8\n"),
	OK("file_service_type", "roundrobin", "roundrobin\n"),
	NO("file_service_type", "roundrobin:0", ERANGE),
	NO("file_service_type", "roundrobin:", EINVAL),
	NO("file_service_type", "zipf", EINVAL),
	OK("numjobs", "32", "32\n"),
	OK("numjobs", "0", "0\n"),
	NO("numjobs", "1025", ERANGE),
	/* rate control (rate.c) */
	OK("rate_iops", "1000", "1000,1000,1000\n"),
	OK("rate_iops", "3000,1000\n", "3000,1000,1000\n"),
	OK("rate_iops", ",500", ",500,500\n"),
	OK("rate_iops", "\n", "\n"),
	NO("rate_iops", "0", ERANGE),
	NO("rate_iops", ",", EINVAL),
	NO("rate_iops", "1,2,3,4", EINVAL),
	NO("rate_iops", "4294967297", ERANGE),
	OK("rate", "104857600", "104857600,104857600,104857600\n"),
	NO("rate", "0", ERANGE),
	NO("rate", "1k", EINVAL),
	OK("rate_process", "poisson", "poisson\n"),
	OK("rate_process", "linear\n", "linear\n"),
	NO("rate_process", "bursty", EINVAL),
	/* time series (series.c) */
	OK("log_interval_ms", "100", "100\n"),
	OK("log_interval_ms", "0", "0\n"),
	NO("log_interval_ms", "-1", EINVAL),
	OK("log_hist", "1", "1\n"),
	OK("log_hist", "0", "0\n"),
	NO("log_hist", "2", ERANGE),
	/* shared: 0/1 */
	OK("shared", "1", "1\n"),
	OK("shared", "0\n", "0\n"),
	NO("shared", "2", ERANGE),
	NO("shared", "yes", EINVAL),
	/* fsync, write_barrier: 0..2^32-1 writes; end_fsync, sync: 0/1 */
	OK("fsync", "0", "0\n"),
	OK("fsync", "4294967295\n", "4294967295\n"),
	NO("fsync", "4294967296", ERANGE),
	NO("fsync", "-1", EINVAL),
	OK("write_barrier", "8", "8\n"),
	NO("write_barrier", "4294967296", ERANGE),
	OK("end_fsync", "1", "1\n"),
	NO("end_fsync", "2", ERANGE),
	OK("sync", "1\n", "1\n"),
	NO("sync", "dsync", EINVAL),
	/* group: 1..63 of [A-Za-z0-9_.-]; empty is none */
	OK("group", "oltp", "oltp\n"),
	OK("group", "A-z_0.9\n", "A-z_0.9\n"),
	OK("group", "\n", "\n"),
	OK("group", G63, G63 "\n"),
	NO("group", G63 "g", EINVAL),
	NO("group", "a b", EINVAL),
	NO("group", "a/b", EINVAL),
	NO("group", "a:b", EINVAL),
	NO("group", "caf\xe9", EINVAL),
	NO("group", "a\n\n", EINVAL),
	/* verify (verify.c): fio's names, refused at enable if unsupported */
	OK("verify", "crc32c", "crc32c\n"),
	OK("verify", "sha256\n", "sha256\n"),
	OK("verify", "md5", "md5\n"),
	OK("verify", "0", "0\n"),
	NO("verify", "crc7", EINVAL),
	NO("verify", "", EINVAL),
	OK("verify_interval", "512", "512\n"),
	OK("verify_interval", "0", "0\n"),
	NO("verify_interval", "100", EINVAL),
	NO("verify_interval", "33554432", ERANGE),
	OK("do_verify", "0", "0\n"),
	NO("do_verify", "2", ERANGE),
	OK("verify_fatal", "1", "1\n"),
	NO("verify_fatal", "yes", EINVAL),
	/* enable: 0 stops (a no-op on an idle job), 1 starts */
	OK("enable", "0", "0\n"),
	NO("enable", "2", EINVAL),
	NO("enable", "on", EINVAL),
	NO("enable", "", EINVAL),
	NO("enable", "1", EINVAL),	/* no filename set */
};

/*
 * "attr=value" with newlines, spaces, other bytes and long values made
 * visible.
 */
static void cfg_desc(const struct cfg_case *c, char *desc)
{
	const char *p;
	size_t n;

	if (!c->in) {
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s=<path_of_%u_bytes>",
			 c->attr, c->len);
		return;
	}
	n = snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s=%s", c->attr,
		     *c->in ? "" : "<empty>");
	for (p = c->in; *p && n + 5 < KUNIT_PARAM_DESC_SIZE; p++) {
		if (*p == '\n')
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "\\n");
		else if (*p == ' ' || !isascii(*p) || !isprint(*p))
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n,
				       "\\x%02x", (u8)*p);
		else
			desc[n++] = *p;
	}
	desc[n] = '\0';
}

KUNIT_ARRAY_PARAM(cfg, cfg_cases, cfg_desc);

static ssize_t cfg_show(struct kunit *test, struct configfs_attribute *a)
{
	struct cfg_fixture *f = test->priv;

	memset(f->page, 0, PAGE_SIZE);
	return a->show(&f->job->cg.cg_item, f->page);
}

/*
 * Store the value through the attribute's own store method: accepted
 * values read back as expected; refused ones return their errno, leave
 * the attribute as it was, and the job still takes a valid value.
 */
static void test_attribute(struct kunit *test)
{
	const struct cfg_case *c = test->param_value;
	struct cfg_fixture *f = test->priv;
	struct configfs_attribute *a = cfg_attr(c->attr);
	const char *in = c->in;
	char *before;
	ssize_t ret;
	size_t len;

	KUNIT_ASSERT_NOT_NULL_MSG(test, a, "no attribute %s", c->attr);
	KUNIT_ASSERT_NOT_NULL(test, a->store);
	if (c->cpus && num_online_cpus() < c->cpus)
		kunit_skip(test, "needs %u online CPUs", c->cpus);
	if (!in) {
		memset(f->buf, 'a', c->len);
		f->buf[0] = '/';
		f->buf[c->len] = '\0';
		in = f->buf;
	}
	len = strlen(in);

	before = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, before);
	KUNIT_ASSERT_GT(test, cfg_show(test, a), 0);
	strscpy(before, f->page, PAGE_SIZE);

	ret = a->store(&f->job->cg.cg_item, in, len);
	if (c->ret) {
		KUNIT_EXPECT_EQ(test, ret, (ssize_t)c->ret);
		cfg_show(test, a);
		KUNIT_EXPECT_STREQ_MSG(test, f->page, before,
				       "a refused value changed %s", c->attr);
		/* the job stays usable: the first accepted value still goes */
		for (c = cfg_cases; c->ret || strcmp(c->attr, a->ca_name); c++)
			;
		KUNIT_EXPECT_EQ(test, a->store(&f->job->cg.cg_item, c->in,
					       strlen(c->in)),
				(ssize_t)strlen(c->in));
		return;
	}
	KUNIT_EXPECT_EQ(test, ret, (ssize_t)len);
	if (c->out) {
		cfg_show(test, a);
		KUNIT_EXPECT_STREQ(test, f->page, c->out);
	} else if (!strcmp(c->attr, "filename")) {
		KUNIT_EXPECT_STREQ(test, f->job->filename, in);
	}
	KUNIT_EXPECT_EQ(test, READ_ONCE(f->job->state), SSDLOAD_STATE_IDLE);
}

/* Every writable attribute has accepted and refused values in the table. */
static void test_every_attribute(struct kunit *test)
{
	struct configfs_attribute **a;
	unsigned int i, nr = 0;

	for (a = ssdload_job_attrs; *a; a++) {
		bool ok = false, no = false;

		if (!(*a)->store)
			continue;
		nr++;
		for (i = 0; i < ARRAY_SIZE(cfg_cases); i++) {
			if (strcmp(cfg_cases[i].attr, (*a)->ca_name))
				continue;
			ok |= !cfg_cases[i].ret;
			no |= !!cfg_cases[i].ret;
		}
		KUNIT_EXPECT_TRUE_MSG(test, ok && no,
				      "%s: no accepted or no refused case",
				      (*a)->ca_name);
	}
	KUNIT_EXPECT_GE(test, nr, 29U);
	/* the read-only ones */
	KUNIT_EXPECT_NOT_NULL(test, cfg_attr("state"));
	KUNIT_EXPECT_NULL(test, cfg_attr("state")->store);
	KUNIT_EXPECT_NULL(test, cfg_attr("error")->store);
}

/* A fresh job shows the documented defaults. */
static void test_defaults(struct kunit *test)
{
	static const struct {
		const char *attr, *out;
	} defaults[] = {
		{ "filename", "\n" }, { "rw", "read\n" },
		{ "rwmixread", "50\n" }, { "cpus_allowed", "\n" },
		{ "offset", "0\n" }, { "size", "0\n" },
		{ "runtime_ms", "0\n" }, { "ramp_ms", "0\n" },
		{ "number_ios", "0\n" }, { "randseed", "11321030721901186956\n" },
		{ "allow_write", "0\n" }, { "hipri", "0\n" },
		{ "disable_lat", "0\n" }, { "io_timeout_ms", "0\n" },
		{ "scramble_buffers", "1\n" }, { "enable", "0\n" },
		{ "shared", "0\n" }, { "group", "\n" }, { "loops", "1\n" },
		{ "time_based", "1\n" }, { "norandommap", "0\n" },
		{ "verify", "0\n" }, { "verify_interval", "0\n" },
		{ "do_verify", "1\n" }, { "verify_fatal", "0\n" },
		{ "thinktime_us", "0\n" }, { "thinktime_spin_us", "0\n" },
		{ "thinktime_blocks", "1\n" },
		{ "thinktime_blocks_type", "complete\n" },
		{ "thinktime_iotime_us", "0\n" }, { "startdelay_us", "0\n" },
		{ "start_at", "0\n" },
		{ "fsync", "0\n" },
		{ "end_fsync", "0\n" }, { "sync", "0\n" },
		{ "write_barrier", "0\n" },
		{ "state", "idle\n" }, { "error", "0\n" },
	};
	struct cfg_fixture *f = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(defaults); i++) {
		struct configfs_attribute *a = cfg_attr(defaults[i].attr);

		KUNIT_ASSERT_NOT_NULL_MSG(test, a, "%s", defaults[i].attr);
		cfg_show(test, a);
		KUNIT_EXPECT_STREQ_MSG(test, f->page, defaults[i].out, "%s",
				       defaults[i].attr);
	}
}

/* ssdload_parse_u64() on its own: bounds, alignment, overflow. */
static void test_parse_u64(struct kunit *test)
{
	static const struct {
		const char *in;
		u64 min, max, align;
		int ret;
		u64 out;
	} cases[] = {
		{ "0", 0, U64_MAX, 0, 0, 0 },
		{ U64MAX, 0, U64_MAX, 0, 0, U64_MAX },
		{ U64MAX "\n", 0, U64_MAX, 0, 0, U64_MAX },
		{ TWO64, 0, U64_MAX, 0, -ERANGE, 0 },
		{ "340282366920938463463374607431768211456", 0, U64_MAX, 0,
		  -ERANGE, 0 },
		{ "-0", 0, U64_MAX, 0, -EINVAL, 0 },
		{ "+1", 0, U64_MAX, 0, -EINVAL, 0 },
		{ "1 ", 0, U64_MAX, 0, -EINVAL, 0 },
		{ "\t1", 0, U64_MAX, 0, -EINVAL, 0 },
		{ "", 0, U64_MAX, 0, -EINVAL, 0 },
		{ "\n", 0, U64_MAX, 0, -EINVAL, 0 },
		{ "5", 5, 5, 0, 0, 5 },
		{ "4", 5, 6, 0, -ERANGE, 0 },
		{ "7", 5, 6, 0, -ERANGE, 0 },
		{ "1024", 0, 4096, 512, 0, 1024 },
		{ "1025", 0, 4096, 512, -EINVAL, 0 },
		{ "0", 0, 4096, 512, 0, 0 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 out = 0xdead;
		int ret;

		ret = ssdload_parse_u64(cases[i].in, cases[i].min, cases[i].max,
					cases[i].align, &out);
		KUNIT_EXPECT_EQ_MSG(test, ret, cases[i].ret, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, out, ret ? 0xdead : cases[i].out,
				    "case %u: the output is set only on success",
				    i);
	}
}

/* Enum names round-trip; unknown values print as "?". */
static void test_enums(struct kunit *test)
{
	u32 v, out;

	for (v = 0; v < SSDLOAD_RW_NR; v++) {
		const char *name = ssdload_enum_name(ssdload_rw_names, v);

		KUNIT_EXPECT_STRNEQ(test, name, "?");
		KUNIT_EXPECT_EQ(test, ssdload_parse_enum(name, ssdload_rw_names,
							 &out), 0);
		KUNIT_EXPECT_EQ(test, out, v);
	}
	for (v = 0; v < SSDLOAD_STATE_NR; v++)
		KUNIT_EXPECT_STRNEQ(test,
				    ssdload_enum_name(ssdload_state_names, v),
				    "?");
	KUNIT_EXPECT_STREQ(test, ssdload_enum_name(ssdload_rw_names,
						   SSDLOAD_RW_NR), "?");
	KUNIT_EXPECT_EQ(test, ssdload_parse_enum("idle", ssdload_rw_names, &out),
			-EINVAL);
}

/*
 * The default randseed comes from the job's name: the same name gives the
 * same seed (FNV-1a, reproducible on any kernel), other names others.
 */
static void test_seed_from_name(struct kunit *test)
{
	struct cfg_fixture *f = test->priv;

	KUNIT_EXPECT_EQ(test, f->job->cfg.randseed,
			ssdload_seed_from_name("kunit"));
	KUNIT_EXPECT_EQ(test, ssdload_seed_from_name(""), 0xcbf29ce484222325ULL);
	KUNIT_EXPECT_EQ(test, ssdload_seed_from_name("a"), 0xaf63dc4c8601ec8cULL);
	KUNIT_EXPECT_NE(test, ssdload_seed_from_name("job1"),
			ssdload_seed_from_name("job2"));
}

/*
 * The memory cap counts pages as allocated: one more I/O of a job costs
 * its struct (kmalloc-rounded) plus its buffers in whole pages, cut in
 * power-of-two runs of at most 1 MiB.
 */
static u64 cfg_io_mem(unsigned int bs, u64 rw)
{
	struct ssdload_cfg c = { .rw = rw, .bs = bs, .iodepth = 1 };
	u64 one = ssdload_worker_mem(&c, bs, true, 1);

	c.iodepth = 2;
	return ssdload_worker_mem(&c, bs, true, 1) - one;
}

static void test_worker_mem(struct kunit *test)
{
	static const struct {
		unsigned int bs;
		u64 pages;		/* bytes of buffer pages per I/O */
	} cases[] = {
		{ 512, PAGE_SIZE },
		{ 4096, 4096 },
		{ 12288, 12288 },	/* 8 KiB + 4 KiB, not 16 KiB */
		{ SZ_1M + 4096, SZ_1M + 4096 },
		{ 3 * SZ_1M, 3 * SZ_1M },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 io = cfg_io_mem(cases[i].bs, SSDLOAD_RW_RANDREAD);
		u64 mixed = cfg_io_mem(cases[i].bs, SSDLOAD_RW_RANDRW);

		/* the struct part: a bio and its bvec table, under a page */
		KUNIT_EXPECT_GE_MSG(test, io, cases[i].pages + sizeof(struct bio),
				    "bs %u", cases[i].bs);
		KUNIT_EXPECT_LT_MSG(test, io, cases[i].pages + PAGE_SIZE,
				    "bs %u", cases[i].bs);
		/* rw/randrw: a read buffer next to each write buffer */
		KUNIT_EXPECT_GE_MSG(test, mixed, 2 * cases[i].pages,
				    "bs %u", cases[i].bs);
		KUNIT_EXPECT_LT_MSG(test, mixed, 2 * cases[i].pages + PAGE_SIZE,
				    "bs %u", cases[i].bs);
	}
}

/* Values echoed in pr_err are printable and truncated. */
static void test_safe_value(struct kunit *test)
{
	char out[8];

	ssdload_safe_value("abc\n", out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "abc");
	ssdload_safe_value("a\tb\x01", out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "a?b?");
	ssdload_safe_value("0123456789", out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "0123456");
	ssdload_safe_value("", out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "");
}

static struct kunit_case ssdload_config_cases[] = {
	KUNIT_CASE_PARAM(test_attribute, cfg_gen_params),
	KUNIT_CASE(test_every_attribute),
	KUNIT_CASE(test_defaults),
	KUNIT_CASE(test_parse_u64),
	KUNIT_CASE(test_enums),
	KUNIT_CASE(test_seed_from_name),
	KUNIT_CASE(test_worker_mem),
	KUNIT_CASE(test_safe_value),
	{}
};

static struct kunit_suite ssdload_config_suite = {
	.name = "ssdload_config",
	.init = ssdload_config_init,
	.exit = ssdload_config_exit,
	.test_cases = ssdload_config_cases,
};

kunit_test_suite(ssdload_config_suite);
