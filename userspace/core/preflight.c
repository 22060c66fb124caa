// SPDX-License-Identifier: GPL-2.0
/*
 * The module's rules on a job's attribute values (see preflight.h): its
 * configfs stores (module/configfs.c, step.c, parse.c, dist.c, rate.c)
 * and the checks of its enable that need only the options (job.c,
 * step.c), and those that need a device's logical block size and
 * capacity when the device can be read here.  The limits come from
 * uapi/ssdload.h, as the module's do.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "uapi/ssdload.h"
#include "core/options.h"
#include "core/preflight.h"
#include "core/util.h"

#define PF_PPM		1000000U	/* percentages in ppm, as the module */
#define PF_MAX_CPUS	8192U		/* CPUs of the online list looked at */
#define PF_SPLIT_MAX	SSDLOAD_BSSPLIT_MAX

/* ---- the stores ------------------------------------------------------- */

enum pf_kind { PF_NUM, PF_SPAN, PF_CPUS, PF_BSSPLIT, PF_BSRANGE, PF_RATE };
enum pf_where { PF_JOB = 1, PF_STEP = 2, PF_BOTH = 3 };

/* One attribute: its kind, the range and alignment of its numbers. */
struct pf_rule {
	const char *attr;
	enum pf_kind kind;
	enum pf_where where;
	uint64_t min, max, align;
	const char *unit;
};

static const struct pf_rule pf_rules[] = {
	{ SSDLOAD_ATTR_RWMIXREAD, PF_NUM, PF_BOTH, 0, 100, 0, "percent" },
	{ SSDLOAD_ATTR_LOOPS, PF_NUM, PF_JOB, 1, SSDLOAD_MAX_LOOPS, 0, "loops" },
	{ SSDLOAD_ATTR_TIME_BASED, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_BS, PF_NUM, PF_BOTH, SSDLOAD_MIN_BS, SSDLOAD_MAX_BS,
	  SSDLOAD_MIN_BS, "bytes" },
	{ SSDLOAD_ATTR_IODEPTH, PF_NUM, PF_BOTH, 1, SSDLOAD_MAX_IODEPTH, 0, "I/Os" },
	{ SSDLOAD_ATTR_RUNTIME_MS, PF_NUM, PF_BOTH, 0, SSDLOAD_MAX_MS, 0, "ms" },
	{ SSDLOAD_ATTR_RAMP_MS, PF_NUM, PF_BOTH, 0, SSDLOAD_MAX_MS, 0, "ms" },
	{ SSDLOAD_STEP_ATTR_IDLE_MS, PF_NUM, PF_STEP, 1, SSDLOAD_MAX_MS, 0, "ms" },
	{ SSDLOAD_ATTR_NUMBER_IOS, PF_NUM, PF_BOTH, 0, UINT64_MAX, 0, "I/Os" },
	{ SSDLOAD_ATTR_RANDSEED, PF_NUM, PF_JOB, 0, UINT64_MAX, 0, NULL },
	{ SSDLOAD_ATTR_ALLOW_WRITE, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_HIPRI, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_DISABLE_LAT, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_IO_TIMEOUT_MS, PF_NUM, PF_JOB, 0, SSDLOAD_MAX_MS, 0, "ms" },
	{ SSDLOAD_ATTR_SCRAMBLE_BUFFERS, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_BLOCKALIGN, PF_NUM, PF_BOTH, 0, SSDLOAD_MAX_BS,
	  SSDLOAD_MIN_BS, "bytes" },
	{ SSDLOAD_ATTR_RANDOM_SCATTER, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_BUFFER_COMPRESS_PERCENTAGE, PF_NUM, PF_JOB, 0, 100, 0, "percent" },
	{ SSDLOAD_ATTR_BUFFER_COMPRESS_CHUNK, PF_NUM, PF_JOB, 1, SSDLOAD_MAX_BS, 0, "bytes" },
	{ SSDLOAD_ATTR_DEDUPE_PERCENTAGE, PF_NUM, PF_JOB, 0, 100, 0, "percent" },
	{ SSDLOAD_ATTR_ZERO_BUFFERS, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_REFILL_BUFFERS, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_NUMJOBS, PF_NUM, PF_JOB, 0, SSDLOAD_MAX_NUMJOBS, 0, "workers" },
	{ SSDLOAD_ATTR_NUMJOBS, PF_NUM, PF_STEP, 1, SSDLOAD_MAX_NUMJOBS, 0, "workers" },
	{ SSDLOAD_ATTR_LOG_INTERVAL_MS, PF_NUM, PF_JOB, 0, SSDLOAD_MAX_MS, 0, "ms" },
	{ SSDLOAD_ATTR_LOG_HIST, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_SHARED, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_THINKTIME_US, PF_NUM, PF_JOB, 0, SSDLOAD_MAX_US, 0, "us" },
	{ SSDLOAD_ATTR_THINKTIME_SPIN_US, PF_NUM, PF_JOB, 0, SSDLOAD_MAX_US, 0, "us" },
	{ SSDLOAD_ATTR_THINKTIME_IOTIME_US, PF_NUM, PF_JOB, 0, SSDLOAD_MAX_US, 0, "us" },
	{ SSDLOAD_ATTR_THINKTIME_BLOCKS, PF_NUM, PF_JOB, 0, UINT64_MAX, 0, "I/Os" },
	{ SSDLOAD_ATTR_VERIFY_INTERVAL, PF_NUM, PF_JOB, 0, SSDLOAD_MAX_BS, SSDLOAD_MIN_BS,
	  "bytes" },
	{ SSDLOAD_ATTR_DO_VERIFY, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_VERIFY_FATAL, PF_NUM, PF_JOB, 0, 1, 0, NULL },
	{ SSDLOAD_ATTR_OFFSET, PF_SPAN, PF_JOB, 0, 0, SSDLOAD_SPAN_ALIGN, "bytes" },
	{ SSDLOAD_ATTR_SIZE, PF_SPAN, PF_JOB, 0, 0, SSDLOAD_SPAN_ALIGN, "bytes" },
	{ SSDLOAD_ATTR_CPUS_ALLOWED, PF_CPUS, PF_JOB, 0, 0, 0, NULL },
	{ SSDLOAD_ATTR_BSSPLIT, PF_BSSPLIT, PF_BOTH, 0, 0, 0, NULL },
	{ SSDLOAD_ATTR_BSRANGE, PF_BSRANGE, PF_JOB, 0, 0, 0, NULL },
	{ SSDLOAD_ATTR_RATE_IOPS, PF_RATE, PF_BOTH, 1, SSDLOAD_MAX_RATE_IOPS, 0,
	  "I/Os per second" },
	{ SSDLOAD_ATTR_RATE, PF_RATE, PF_BOTH, 1, SSDLOAD_MAX_RATE_BPS, 0,
	  "bytes per second" },
};

static const struct pf_rule *pf_rule_of(const char *attr, int step)
{
	enum pf_where w = step ? PF_STEP : PF_JOB;
	size_t i;

	for (i = 0; i < sizeof(pf_rules) / sizeof(pf_rules[0]); i++)
		if ((pf_rules[i].where & w) && !strcmp(pf_rules[i].attr, attr))
			return &pf_rules[i];
	return NULL;
}

/* A number of @r: in [min, max], a multiple of align. */
static int pf_num(const struct pf_rule *r, const char *val, uint64_t *out,
		  char *why, size_t wlen)
{
	const char *unit = r->unit ? r->unit : "";
	const char *sp = r->unit ? " " : "";
	uint64_t v;

	if (ssl_parse_u64(val, &v))
		return ssl_fail(why, wlen, "%s=%s is not a decimal number", r->attr, val);
	if (v < r->min || v > r->max) {
		if (r->align)
			return ssl_fail(why, wlen, "%s=%" PRIu64 ": the module takes %" PRIu64
				       " to %" PRIu64 "%s%s, a multiple of %" PRIu64,
				       r->attr, v, r->min, r->max, sp, unit, r->align);
		return ssl_fail(why, wlen, "%s=%" PRIu64 ": the module takes %" PRIu64
			       " to %" PRIu64 "%s%s", r->attr, v, r->min, r->max, sp, unit);
	}
	if (r->align && v % r->align)
		return ssl_fail(why, wlen, "%s=%" PRIu64 " is not a multiple of %" PRIu64
			       " %s, as the module requires", r->attr, v, r->align, unit);
	if (out)
		*out = v;
	return 0;
}

/* "P%" with up to 4 decimals, 0 < P <= 100, in ppm; 0 or -1. */
static int pf_ppm(const char *s, size_t n, uint64_t *ppm)
{
	uint64_t whole = 0, frac = 0, unit = PF_PPM / 100;
	size_t i = 0;
	int digits = 0;

	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits = 1)
		if ((whole = whole * 10 + (uint64_t)(s[i] - '0')) > 100)
			return -1;
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits = 1) {
			if (unit == 1)
				return -1;
			unit /= 10;
			frac += (uint64_t)(s[i] - '0') * unit;
		}
	if (i != n || !digits)
		return -1;
	*ppm = whole * (PF_PPM / 100) + frac;
	return *ppm && *ppm <= PF_PPM ? 0 : -1;
}

/* offset and size: bytes (a multiple of 512) or a percentage */
struct pf_span {
	uint64_t bytes, ppm;
	int pct, set;
};

static int pf_span(const struct pf_rule *r, const char *val, struct pf_span *sp,
		   char *why, size_t wlen)
{
	size_t n = strlen(val);

	memset(sp, 0, sizeof(*sp));
	sp->set = 1;
	if (n && val[n - 1] == '%') {
		sp->pct = 1;
		if (pf_ppm(val, n - 1, &sp->ppm))
			return ssl_fail(why, wlen, "%s=%s: a percentage is above 0, at most "
				       "100, with at most 4 decimals", r->attr, val);
		return 0;
	}
	if (ssl_parse_u64(val, &sp->bytes))
		return ssl_fail(why, wlen, "%s=%s is not a number of bytes", r->attr, val);
	if (sp->bytes % r->align)
		return ssl_fail(why, wlen, "%s=%" PRIu64 " is not a multiple of %" PRIu64
			       " bytes, as the module requires", r->attr, sp->bytes, r->align);
	return 0;
}

/* Is CPU @cpu in cpulist @list ("0-3,5")?  -1 if @list is malformed. */
static int pf_in_cpulist(const char *list, unsigned long cpu)
{
	const char *p = list;

	while (*p && *p != '\n') {
		char *e;
		unsigned long a = strtoul(p, &e, 10), b = a;

		if (e == p)
			return -1;
		if (*e == '-') {
			p = e + 1;
			b = strtoul(p, &e, 10);
			if (e == p)
				return -1;
		}
		if (cpu >= a && cpu <= b)
			return 1;
		if (*e == ',')
			e++;
		else if (*e && *e != '\n')
			return -1;
		p = e;
	}
	return 0;
}

/*
 * cpus_allowed: the kernel's cpulist_parse() (N or N-M with N <= M,
 * comma-separated), every CPU online (the module's store refuses an
 * offline one).  The online list is read where the CLI reads it.
 */
static int pf_cpus(const char *val, char *why, size_t wlen)
{
	const char *p = val;
	char *online = NULL;
	int r = 0;

	if (!*val)
		return 0;
	if (ssl_read_file(ssl_cpu_online_path(), &online, NULL))
		online = NULL;	/* not known here: the form only */
	while (*p && !r) {
		char *e = (char *)p;
		unsigned long a = 0, b = 0, cpu;

		if (*p >= '0' && *p <= '9')
			a = b = strtoul(p, &e, 10);
		if (e != p && *e == '-') {
			p = e + 1;
			if (*p >= '0' && *p <= '9')
				b = strtoul(p, &e, 10);
		}
		if (e == p || (*e && (*e != ',' || !e[1]))) {
			r = ssl_fail(why, wlen, "cpus_allowed=%s is not a cpulist", val);
			break;
		}
		if (b < a)
			r = ssl_fail(why, wlen, "cpus_allowed=%s: the range %lu-%lu ends before "
				    "it starts", val, a, b);
		for (cpu = a; !r && online && cpu <= b; cpu++)
			if (cpu >= PF_MAX_CPUS || pf_in_cpulist(online, cpu) != 1)
				r = ssl_fail(why, wlen, "cpus_allowed=%s: CPU %lu is not online "
					    "(online: %.*s)", val, cpu,
					    (int)strcspn(online, "\n"), online);
		p = *e ? e + 1 : e;
	}
	free(online);
	return r;
}

/* ---- bssplit and bsrange ---------------------------------------------- */

/* The block sizes of one direction. */
struct pf_bsd {
	uint32_t bs[PF_SPLIT_MAX];
	int nr;				/* bssplit entries, 0 for a range */
	uint32_t min, max, step;	/* step: a range's */
};

/* One block size of a list: a decimal, 512-aligned, up to SSDLOAD_MAX_BS */
static int pf_bs(const char *attr, const char *val, const char **s, uint32_t *out,
		 char *why, size_t wlen)
{
	char *e;
	unsigned long long v;

	if (**s < '0' || **s > '9')
		return ssl_fail(why, wlen, "%s=%s: a block size is missing", attr, val);
	errno = 0;
	v = strtoull(*s, &e, 10);
	if (errno || !v || v % SSDLOAD_MIN_BS || v > SSDLOAD_MAX_BS)
		return ssl_fail(why, wlen, "%s=%s: block size %.*s: the module takes %u to %u "
			       "bytes, a multiple of %u", attr, val, (int)(e - *s), *s,
			       SSDLOAD_MIN_BS, SSDLOAD_MAX_BS, SSDLOAD_MIN_BS);
	*s = e;
	*out = (uint32_t)v;
	return 0;
}

/* One direction of bssplit, "size[/weight]:..." up to @end */
static int pf_bslist(const char *val, const char *s, const char *end, struct pf_bsd *d,
		     char *why, size_t wlen)
{
	memset(d, 0, sizeof(*d));
	d->min = UINT32_MAX;
	for (;;) {
		uint32_t bs;

		if (d->nr == PF_SPLIT_MAX)
			return ssl_fail(why, wlen, "bssplit=%s: more than %d sizes in a direction",
				       val, PF_SPLIT_MAX);
		if (pf_bs("bssplit", val, &s, &bs, why, wlen))
			return -1;
		d->bs[d->nr++] = bs;
		d->min = bs < d->min ? bs : d->min;
		d->max = bs > d->max ? bs : d->max;
		if (s < end && *s == '/')	/* the weights are the CLI's converter's */
			s += strcspn(s, ":,");
		if (s >= end)
			return 0;
		if (*s != ':')
			return ssl_fail(why, wlen, "bssplit=%s is not a block size list", val);
		s++;
	}
}

/* One direction of bsrange, "min-max" */
static int pf_bsrange1(const char *val, const char *s, const char *end, struct pf_bsd *d,
		       char *why, size_t wlen)
{
	uint32_t lo, hi;

	memset(d, 0, sizeof(*d));
	if (pf_bs("bsrange", val, &s, &lo, why, wlen))
		return -1;
	if (s >= end || (*s != '-' && *s != ':'))
		return ssl_fail(why, wlen, "bsrange=%s is not a range", val);
	s++;
	if (pf_bs("bsrange", val, &s, &hi, why, wlen))
		return -1;
	if (s != end)
		return ssl_fail(why, wlen, "bsrange=%s is not a range", val);
	d->min = lo < hi ? lo : hi;
	d->max = lo < hi ? hi : lo;
	d->step = (d->min & (d->min - 1)) ? SSDLOAD_MIN_BS : d->min;
	return 0;
}

/* bssplit or bsrange: one, or one per direction (read,write,trim) */
static int pf_bsspec(const char *val, int range, struct pf_bsd *d, char *why, size_t wlen)
{
	const char *s = val;
	int i, k;

	for (i = 0; i < 3; i++) {
		const char *end = s + strcspn(s, ",");

		if (range ? pf_bsrange1(val, s, end, &d[i], why, wlen) :
			    pf_bslist(val, s, end, &d[i], why, wlen))
			return -1;
		if (!*end)
			break;
		s = end + 1;
	}
	if (i == 3)
		return ssl_fail(why, wlen, "%s=%s: more than three directions",
			       range ? "bsrange" : "bssplit", val);
	for (k = i + 1; k < 3; k++)
		d[k] = d[i];
	return 0;
}

/* rate_iops and rate: "R[,W[,T]]", each 1..max, empty uncapped */
static int pf_rate(const struct pf_rule *r, const char *val, uint64_t *v,
		   char *why, size_t wlen)
{
	const char *s = val;
	int n = 0, d;

	memset(v, 0, 3 * sizeof(*v));
	if (!*val)
		return 0;
	for (;;) {
		size_t len = strcspn(s, ",");
		char num[24];

		if (n == 3 || len >= sizeof(num))
			return ssl_fail(why, wlen, "%s=%s is not a rate list", r->attr, val);
		if (len) {
			memcpy(num, s, len);
			num[len] = '\0';
			if (ssl_parse_u64(num, &v[n]) || v[n] < r->min || v[n] > r->max)
				return ssl_fail(why, wlen, "%s=%s: %s: the module takes %" PRIu64
					       " to %" PRIu64 " %s", r->attr, val, num, r->min,
					       r->max, r->unit);
		}
		n++;
		if (!s[len])
			break;
		s += len + 1;
	}
	if (!v[0] && !v[1] && !v[2])
		return ssl_fail(why, wlen, "%s=%s caps nothing", r->attr, val);
	for (d = n; d < 3; d++)
		v[d] = v[n - 1];
	return 0;
}

int ssl_preflight_attr(const char *attr, const char *val, int step,
		       char *why, size_t wlen)
{
	const struct pf_rule *r = pf_rule_of(attr, step);
	struct pf_bsd d[3];
	struct pf_span sp;
	uint64_t v[3];

	if (!r)
		return 0;
	switch (r->kind) {
	case PF_NUM:
		return pf_num(r, val, NULL, why, wlen);
	case PF_SPAN:
		return pf_span(r, val, &sp, why, wlen);
	case PF_CPUS:
		return pf_cpus(val, why, wlen);
	case PF_BSSPLIT:
	case PF_BSRANGE:
		return pf_bsspec(val, r->kind == PF_BSRANGE, d, why, wlen);
	case PF_RATE:
		if (step && !strcmp(val, "0"))
			return 0;	/* a step's 0: uncapped */
		return pf_rate(r, val, v, why, wlen);
	}
	return 0;
}

/* ---- enable ----------------------------------------------------------- */

static const char *const pf_rw_names[SSDLOAD_RW_NR] = {
	"read", "write", "randread", "randwrite", "rw", "randrw",
	"trim", "randtrim", "trimwrite", "randtrimwrite",
};

/* What a job or one of its steps sets that enable checks. */
struct pf_cfg {
	int rw;
	uint64_t rwmixread, bs;
	struct pf_bsd split[3], range[3];
	int has_split, has_range;
	uint64_t rate_iops[3], rate[3];
	uint64_t blockalign;
	struct pf_span offset, size;
	const char *verify;		/* the verify attribute, NULL: off */
	uint64_t verify_interval;
};

/* A phase of the run: the job, or one non-idle step. */
struct pf_phase {
	char pfx[24];			/* "" or "steps/N/" */
	const char *bs_attr;		/* where its sizes come from */
	unsigned int dirs, rated;
	struct pf_bsd bsd[3];
	uint32_t lo, hi;
	uint32_t ba;			/* random offset alignment */
	int own_ba;			/* ba is the step's blockalign */
};

static int pf_is_trimwrite(int rw)
{
	return rw == SSDLOAD_RW_TRIMWRITE || rw == SSDLOAD_RW_RANDTRIMWRITE;
}

/* The directions @c issues (module/job.c's ssdload_cfg_uses_dir()). */
static unsigned int pf_dirs(const struct pf_cfg *c)
{
	switch (c->rw) {
	case SSDLOAD_RW_RW:
	case SSDLOAD_RW_RANDRW:
		return (c->rwmixread > 0 ? 1U << SSDLOAD_DIR_READ : 0) |
		       (c->rwmixread < 100 ? 1U << SSDLOAD_DIR_WRITE : 0);
	case SSDLOAD_RW_WRITE:
	case SSDLOAD_RW_RANDWRITE:
		return 1U << SSDLOAD_DIR_WRITE;
	case SSDLOAD_RW_TRIM:
	case SSDLOAD_RW_RANDTRIM:
		return 1U << SSDLOAD_DIR_TRIM;
	case SSDLOAD_RW_TRIMWRITE:
	case SSDLOAD_RW_RANDTRIMWRITE:
		return 1U << SSDLOAD_DIR_TRIM | 1U << SSDLOAD_DIR_WRITE;
	default:
		return 1U << SSDLOAD_DIR_READ;
	}
}

/* The module's default bs (its bs parameter) for a job that sets none. */
static uint64_t pf_default_bs(void)
{
	char *s = NULL;
	uint64_t v = 0;

	if (!ssl_read_file("/sys/module/ssdload/parameters/bs", &s, NULL) &&
	    ssl_parse_u64(s, &v))
		v = 0;
	free(s);
	return v ? v : 4096;
}

/* Apply one write to @c (values already passed ssl_preflight_attr()). */
static void pf_cfg_set(struct pf_cfg *c, const char *attr, const char *val, int step)
{
	const struct pf_rule *r = pf_rule_of(attr, step);
	char why[8];
	int i;

	if (!strcmp(attr, SSDLOAD_ATTR_RW)) {
		for (i = 0; i < SSDLOAD_RW_NR; i++)
			if (!strcmp(val, pf_rw_names[i]))
				c->rw = i;
	} else if (!strcmp(attr, SSDLOAD_ATTR_RWMIXREAD)) {
		pf_num(r, val, &c->rwmixread, why, sizeof(why));
	} else if (!strcmp(attr, SSDLOAD_ATTR_BS)) {
		pf_num(r, val, &c->bs, why, sizeof(why));
		if (step)	/* a step's bs is its size: not the job's lists */
			c->has_split = c->has_range = 0;
	} else if (!strcmp(attr, SSDLOAD_ATTR_BSSPLIT)) {
		c->has_split = *val && !pf_bsspec(val, 0, c->split, why, sizeof(why));
	} else if (!strcmp(attr, SSDLOAD_ATTR_BSRANGE)) {
		c->has_range = *val && !pf_bsspec(val, 1, c->range, why, sizeof(why));
	} else if (!strcmp(attr, SSDLOAD_ATTR_BLOCKALIGN)) {
		pf_num(r, val, &c->blockalign, why, sizeof(why));
	} else if (!strcmp(attr, SSDLOAD_ATTR_OFFSET)) {
		pf_span(r, val, &c->offset, why, sizeof(why));
	} else if (!strcmp(attr, SSDLOAD_ATTR_SIZE)) {
		pf_span(r, val, &c->size, why, sizeof(why));
	} else if (!strcmp(attr, SSDLOAD_ATTR_VERIFY)) {
		c->verify = strcmp(val, "0") ? val : NULL;
	} else if (!strcmp(attr, SSDLOAD_ATTR_VERIFY_INTERVAL)) {
		pf_num(r, val, &c->verify_interval, why, sizeof(why));
	} else if (!strcmp(attr, SSDLOAD_ATTR_RATE_IOPS)) {
		pf_rate(r, val, c->rate_iops, why, sizeof(why));
		if (step)	/* one cap per direction: the step's replaces */
			memset(c->rate, 0, sizeof(c->rate));
	} else if (!strcmp(attr, SSDLOAD_ATTR_RATE)) {
		pf_rate(r, val, c->rate, why, sizeof(why));
		if (step)
			memset(c->rate_iops, 0, sizeof(c->rate_iops));
	}
}

/* The phase of @c (module/job.c's ssdload_plan_bsd() and the rates). */
static void pf_phase_of(const struct pf_cfg *c, struct pf_phase *ph)
{
	int d;

	ph->dirs = pf_dirs(c);
	ph->bs_attr = c->has_split ? "bssplit" : c->has_range ? "bsrange" : "bs";
	for (d = 0; d < 3; d++) {
		if (c->has_split) {
			ph->bsd[d] = c->split[d];
		} else if (c->has_range) {
			ph->bsd[d] = c->range[d];
		} else {
			memset(&ph->bsd[d], 0, sizeof(ph->bsd[d]));
			ph->bsd[d].min = ph->bsd[d].max = (uint32_t)c->bs;
		}
	}
	if (pf_is_trimwrite(c->rw))
		ph->bsd[SSDLOAD_DIR_WRITE] = ph->bsd[SSDLOAD_DIR_TRIM];
	ph->lo = UINT32_MAX;
	ph->hi = 0;
	ph->rated = 0;
	for (d = 0; d < 3; d++) {
		if (!(ph->dirs & 1U << d))
			continue;
		ph->lo = ph->bsd[d].min < ph->lo ? ph->bsd[d].min : ph->lo;
		ph->hi = ph->bsd[d].max > ph->hi ? ph->bsd[d].max : ph->hi;
		if ((c->rate_iops[d] || c->rate[d]) &&
		    (!pf_is_trimwrite(c->rw) || d == SSDLOAD_DIR_TRIM))
			ph->rated |= 1U << d;
	}
}

/* module/step.c's ssdload_steps_plan_rate(): a cap on no paced direction */
static int pf_check_rate(const struct pf_cfg *c, const struct pf_phase *ph,
			 char *attr, size_t alen, char *why, size_t wlen)
{
	int any = 0, iops = 0, d;

	for (d = 0; d < 3; d++) {
		any |= c->rate_iops[d] || c->rate[d];
		iops |= c->rate_iops[d] != 0;
		if ((ph->rated & 1U << d) && c->rate_iops[d] && c->rate[d]) {
			snprintf(attr, alen, "%srate_iops", ph->pfx);
			return ssl_fail(why, wlen, "rate_iops and rate both cap %s: set one "
				       "of them", d == 0 ? "reads" : d == 1 ? "writes" : "trims");
		}
	}
	if (any && !ph->rated) {
		snprintf(attr, alen, "%s%s", ph->pfx, iops ? "rate_iops" : "rate");
		return ssl_fail(why, wlen, "the rate caps no direction that rw=%s paces%s",
			       pf_rw_names[c->rw], pf_is_trimwrite(c->rw) ?
			       " (its trims, the third value: each write follows its trim)" : "");
	}
	return 0;
}

/* A device of filename, when it is a block device the CLI can open. */
struct pf_dev {
	const char *path;
	uint32_t lbs;
	uint64_t bytes;
};

static int pf_dev_read(const char *path, struct pf_dev *dev)
{
	struct stat st;
	int fd, lbs = 0, r;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	r = ioctl(fd, BLKSSZGET, &lbs) || ioctl(fd, BLKGETSIZE64, &dev->bytes) ||
	    lbs <= 0 ? -1 : 0;
	close(fd);
	dev->path = path;
	dev->lbs = (uint32_t)lbs;
	return r;
}

/* Every block size of every phase is a multiple of @dev's lbs (job.c). */
static int pf_check_lbs(const struct pf_phase *ph, int nph, const struct pf_dev *dev,
			char *attr, size_t alen, char *why, size_t wlen)
{
	uint32_t lbs = dev->lbs, bad;
	int p, d, i;

	for (p = 0; p < nph; p++) {
		for (d = 0; d < 3; d++) {
			const struct pf_bsd *b = &ph[p].bsd[d];

			if (!(ph[p].dirs & 1U << d))
				continue;
			bad = b->min % lbs ? b->min : b->max % lbs ? b->max :
			      b->step % lbs ? b->step : 0;
			for (i = 0; !bad && i < b->nr; i++)
				bad = b->bs[i] % lbs ? b->bs[i] : 0;
			if (!bad)
				continue;
			snprintf(attr, alen, "%s%s", ph[p].pfx, ph[p].pfx[0] ?
				 (b->nr ? "bssplit" : "bs") : ph[p].bs_attr);
			return ssl_fail(why, wlen, "block size %" PRIu32 " is not a multiple of "
				       "the logical block size %" PRIu32 " of %s", bad, lbs,
				       dev->path);
		}
	}
	for (p = 0; p < nph; p++) {
		if (!(ph[p].ba % lbs))
			continue;
		snprintf(attr, alen, "%sblockalign", ph[p].own_ba ? ph[p].pfx : "");
		return ssl_fail(why, wlen, "blockalign %" PRIu32 " is not a multiple of the "
			       "logical block size %" PRIu32 " of %s", ph[p].ba, lbs, dev->path);
	}
	return 0;
}

/* @ppm of @bytes, rounded down to a multiple of @align */
static uint64_t pf_ppm_of(uint64_t bytes, uint64_t ppm, uint32_t align)
{
	uint64_t v = (uint64_t)((unsigned __int128)bytes * ppm / PF_PPM);

	return v - v % align;
}

/* offset and size on @dev (module/job.c's ssdload_job_check_span()) */
static int pf_check_span(const struct pf_cfg *c, uint32_t ba, uint32_t hi, int ndevs,
			 const struct pf_dev *dev, char *attr, size_t alen,
			 char *why, size_t wlen)
{
	uint64_t devsize = dev->bytes, off = c->offset.bytes, size = c->size.bytes;
	int to_end = !c->size.pct && !size;
	uint32_t lbs = dev->lbs;

	snprintf(attr, alen, "%s", ba % lbs ? "blockalign" : "offset");
	if (ba % lbs)
		return ssl_fail(why, wlen, "blockalign %" PRIu32 " is not a multiple of the "
			       "logical block size %" PRIu32 " of %s", ba, lbs, dev->path);
	if (c->offset.pct)
		off = pf_ppm_of(devsize, c->offset.ppm, ba);
	if (c->size.pct)
		size = pf_ppm_of(devsize, c->size.ppm, ba);
	else if (size && ndevs > 1)
		size = size / (uint64_t)ndevs / lbs * lbs;
	if (off % lbs)
		return ssl_fail(why, wlen, "offset %" PRIu64 " is not a multiple of the logical "
			       "block size %" PRIu32 " of %s", off, lbs, dev->path);
	if (off >= devsize)
		return ssl_fail(why, wlen, "offset %" PRIu64 " is beyond the end of %s (%" PRIu64
			       " bytes)", off, dev->path, devsize);
	snprintf(attr, alen, "size");
	if (size % lbs)
		return ssl_fail(why, wlen, "size %" PRIu64 " is not a multiple of the logical "
			       "block size %" PRIu32 " of %s", size, lbs, dev->path);
	if (!to_end && !size)
		return ssl_fail(why, wlen, "size %s of %s rounds down to 0 bytes",
			       c->size.pct ? "percentage" : "share", dev->path);
	if (to_end || (c->size.pct && size > devsize - off))
		size = devsize - off;
	if (size > devsize - off)
		return ssl_fail(why, wlen, "offset+size %" PRIu64 "+%" PRIu64 " is beyond the "
			       "end of %s (%" PRIu64 " bytes)", off, size, dev->path, devsize);
	if (size / ba * ba < hi)
		return ssl_fail(why, wlen, "span of %" PRIu64 " bytes of %s, in blockalign %"
			       PRIu32 " units, is smaller than bs %" PRIu32, size / ba * ba,
			       dev->path, ba, hi);
	return 0;
}

static uint32_t pf_gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * Each phase's alignment: its step's blockalign, at most its largest
 * block, else the job's *@ba; *@ba becomes the unit of the spans, their
 * greatest common divisor (module/plan.c's ssdload_plan_ba()).
 */
static int pf_plan_ba(struct pf_phase *ph, int nph, uint32_t *ba, char *attr,
		      size_t alen, char *why, size_t wlen)
{
	uint32_t unit = 0;
	int i;

	for (i = 0; i < nph; i++) {
		if (!ph[i].own_ba)
			ph[i].ba = *ba;
		if (ph[i].own_ba && ph[i].ba > ph[i].hi) {
			snprintf(attr, alen, "%sblockalign", ph[i].pfx);
			return ssl_fail(why, wlen, "blockalign %" PRIu32 " is larger than the "
				       "step's largest block %" PRIu32, ph[i].ba, ph[i].hi);
		}
		unit = unit ? pf_gcd(unit, ph[i].ba) : ph[i].ba;
	}
	if (unit)
		*ba = unit;
	return 0;
}

/* The phases of @job into @ph (its steps but the idle ones, or the job). */
static int pf_phases(const struct ssl_pf_job *job, const struct pf_cfg *base,
		     struct pf_phase *ph, char *attr, size_t alen, char *why, size_t wlen)
{
	int n = 0, s, k, idle, own;

	if (!job->nsteps) {
		pf_phase_of(base, &ph[0]);
		return pf_check_rate(base, &ph[0], attr, alen, why, wlen) ? -1 : 1;
	}
	for (s = 0; s < job->nsteps; s++) {
		const struct ssl_pf_step *st = &job->steps[s];
		struct pf_cfg c = *base;

		for (k = 0, idle = 0, own = 0; k < st->na; k++) {
			idle |= !strcmp(st->a[k].attr, SSDLOAD_STEP_ATTR_IDLE_MS);
			own |= !strcmp(st->a[k].attr, SSDLOAD_ATTR_BLOCKALIGN);
			pf_cfg_set(&c, st->a[k].attr, st->a[k].val, 1);
		}
		if (idle)
			continue;
		pf_phase_of(&c, &ph[n]);
		/* the step's own alignment (0: its smallest block) */
		ph[n].own_ba = own;
		if (own)
			ph[n].ba = c.blockalign ? (uint32_t)c.blockalign : ph[n].lo;
		snprintf(ph[n].pfx, sizeof(ph[n].pfx), "%s/%d/", SSDLOAD_CONFIGFS_STEPS, s + 1);
		if (pf_check_rate(&c, &ph[n], attr, alen, why, wlen))
			return -1;
		n++;
	}
	return n;
}

/*
 * verify (module/verify.c's ssdload_verify_prepare() and
 * ssdload_vctx_get()): a checksum it has, a job that writes and does not
 * trim, one block size on offsets aligned to it (@ba the unit of the
 * spans), and an interval that divides the block.
 */
static int pf_check_verify(const struct pf_cfg *c, const struct pf_phase *ph, int nph,
			   uint32_t ba, char *attr, size_t alen, char *why, size_t wlen)
{
	static const char *const later[] = { "md5", "sha1", "pattern" };
	uint32_t lo = UINT32_MAX, hi = 0;
	unsigned int dirs = 0;
	size_t k;
	int i;

	if (!c->verify || !nph)
		return 0;
	snprintf(attr, alen, "%s", SSDLOAD_ATTR_VERIFY);
	for (k = 0; k < sizeof(later) / sizeof(later[0]); k++)
		if (!strcmp(c->verify, later[k]))
			return ssl_fail(why, wlen, "verify=%s is not supported yet by "
				       "ssdload.ko (use crc32c, crc64, xxhash, sha256, meta "
				       "or null)", c->verify);
	for (i = 0; i < nph; i++) {
		dirs |= ph[i].dirs;
		lo = ph[i].lo < lo ? ph[i].lo : lo;
		hi = ph[i].hi > hi ? ph[i].hi : hi;
	}
	if (!(dirs & 1U << SSDLOAD_DIR_WRITE))
		return ssl_fail(why, wlen, "verify=%s on a job that does not write: fio "
			       "checks what an earlier run wrote, which needs verify_only "
			       "(not supported yet); verify in the run that writes", c->verify);
	if (dirs & 1U << SSDLOAD_DIR_TRIM)
		return ssl_fail(why, wlen, "verify=%s: the job trims what it would check",
			       c->verify);
	if (lo != hi || ba != hi)
		return ssl_fail(why, wlen, "verify=%s needs one block size and offsets "
			       "aligned to it (no bssplit, bsrange, per-direction bs or "
			       "smaller blockalign): the generation map has one entry per "
			       "block", c->verify);
	snprintf(attr, alen, "%s", SSDLOAD_ATTR_VERIFY_INTERVAL);
	if (c->verify_interval && (c->verify_interval > hi || hi % c->verify_interval))
		return ssl_fail(why, wlen, "verify_interval=%" PRIu64 " must divide bs=%"
			       PRIu32, c->verify_interval, hi);
	return 0;
}

int ssl_preflight_job(const struct ssl_pf_job *job, char *attr, size_t alen,
		      char *why, size_t wlen)
{
	struct pf_phase *ph;
	struct pf_cfg base;
	uint32_t lo = UINT32_MAX, hi = 0, ba;
	int nph, i, r = 0;

	memset(&base, 0, sizeof(base));
	base.rw = SSDLOAD_RW_READ;
	base.bs = pf_default_bs();
	for (i = 0; i < job->na; i++)
		pf_cfg_set(&base, job->a[i].attr, job->a[i].val, 0);
	ph = calloc(job->nsteps > 0 ? (size_t)job->nsteps : 1, sizeof(*ph));
	if (!ph)
		return 0;	/* the module will tell */
	nph = pf_phases(job, &base, ph, attr, alen, why, wlen);
	if (nph < 0) {
		free(ph);
		return -1;
	}
	for (i = 0; i < nph; i++) {
		lo = ph[i].lo < lo ? ph[i].lo : lo;
		hi = ph[i].hi > hi ? ph[i].hi : hi;
	}
	ba = base.blockalign ? (uint32_t)base.blockalign : lo;
	if (nph && ba > hi) {
		snprintf(attr, alen, "blockalign");
		r = ssl_fail(why, wlen, "blockalign %" PRIu32 " is larger than the largest "
			    "block %" PRIu32, ba, hi);
	}
	if (!r)
		r = pf_plan_ba(ph, nph, &ba, attr, alen, why, wlen);
	if (!r)
		r = pf_check_verify(&base, ph, nph, ba, attr, alen, why, wlen);
	for (i = 0; !r && nph && i < job->ndevs; i++) {
		struct pf_dev dev;

		if (pf_dev_read(job->devs[i], &dev))
			continue;	/* not a block device here: the module's */
		r = pf_check_lbs(ph, nph, &dev, attr, alen, why, wlen);
		if (!r)
			r = pf_check_span(&base, ba, hi, job->ndevs, &dev, attr, alen,
					  why, wlen);
	}
	free(ph);
	return r;
}
