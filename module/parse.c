// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: parsers for configfs values.
 *
 * These are pure functions (no job state), so that a KUnit suite can
 * test them directly.  They accept one trailing newline, as sysfs does.
 */
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ssdload.h"

const struct ssdload_enum ssdload_rw_names[] = {
	{ SSDLOAD_RW_READ,	"read" },
	{ SSDLOAD_RW_WRITE,	"write" },
	{ SSDLOAD_RW_RANDREAD,	"randread" },
	{ SSDLOAD_RW_RANDWRITE,	"randwrite" },
	{ SSDLOAD_RW_RW,	"rw" },
	{ SSDLOAD_RW_RANDRW,	"randrw" },
	{ SSDLOAD_RW_TRIM,	"trim" },
	{ SSDLOAD_RW_RANDTRIM,	"randtrim" },
	{ SSDLOAD_RW_TRIMWRITE,	"trimwrite" },
	{ SSDLOAD_RW_RANDTRIMWRITE, "randtrimwrite" },
	{ 0, NULL }
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_rw_names);

const struct ssdload_enum ssdload_state_names[] = {
	{ SSDLOAD_STATE_IDLE,		"idle" },
	{ SSDLOAD_STATE_RUNNING,	"running" },
	{ SSDLOAD_STATE_DONE,		"done" },
	{ SSDLOAD_STATE_STOPPED,	"stopped" },
	{ SSDLOAD_STATE_ERROR,		"error" },
	{ SSDLOAD_STATE_STOPPING,	"stopping" },
	{ SSDLOAD_STATE_ARMED,		"armed" },
	{ 0, NULL }
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_state_names);

const struct ssdload_enum ssdload_poll_fallback_names[] = {
	{ SSDLOAD_POLL_OK,		"none" },
	{ SSDLOAD_POLL_NO_QUEUES,	"no_poll_queues" },
	{ SSDLOAD_POLL_BIO_BASED,	"bio_based" },
	{ SSDLOAD_POLL_SPLIT,		"split" },
	{ SSDLOAD_POLL_NO_NOWAIT,	"no_nowait" },
	{ SSDLOAD_POLL_MULTI_DEV,	"multi_device" },
	{ SSDLOAD_POLL_DISCARD,		"discard" },
	{ 0, NULL }
};

const struct ssdload_enum ssdload_fst_names[] = {
	{ SSDLOAD_FST_ROUNDROBIN,	"roundrobin" },
	{ SSDLOAD_FST_RANDOM,		"random" },
	{ SSDLOAD_FST_SEQUENTIAL,	"sequential" },
	{ 0, NULL }
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_fst_names);

const struct ssdload_enum ssdload_rate_process_names[] = {
	{ SSDLOAD_RATE_LINEAR,		"linear" },
	{ SSDLOAD_RATE_POISSON,		"poisson" },
	{ 0, NULL }
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_rate_process_names);

const struct ssdload_enum ssdload_think_type_names[] = {
	{ SSDLOAD_THINK_COMPLETE,	"complete" },
	{ SSDLOAD_THINK_ISSUE,		"issue" },
	{ 0, NULL }
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_think_type_names);

const char * const ssdload_dir_names[SSDLOAD_DIR_NR] = {
	[SSDLOAD_DIR_READ]	= "read",
	[SSDLOAD_DIR_WRITE]	= "write",
	[SSDLOAD_DIR_TRIM]	= "trim",
};

/*
 * Parse a decimal u64 in [min, max] that is a multiple of @align (0 = any).
 * Returns -EINVAL for garbage, an empty string, a sign or misalignment,
 * -ERANGE for overflow or a value outside [min, max].
 */
int ssdload_parse_u64(const char *buf, u64 min, u64 max, u64 align, u64 *out)
{
	u64 val;
	int ret;

	if (buf[0] == '+')
		return -EINVAL;
	ret = kstrtou64(buf, 10, &val);
	if (ret)
		return ret;
	if (val < min || val > max)
		return -ERANGE;
	if (align && val % align)
		return -EINVAL;
	*out = val;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_u64);

/*
 * Parse a decimal s64 within [-@lim, @lim] that is a multiple of @align
 * (0 = any).  "-" is the only sign taken.  Errors as ssdload_parse_u64().
 */
int ssdload_parse_s64(const char *buf, u64 lim, u64 align, s64 *out)
{
	bool neg = buf[0] == '-';
	u64 mag;
	int ret;

	ret = ssdload_parse_u64(buf + neg, 0, lim, align, &mag);
	if (ret)
		return ret;
	*out = neg ? -(s64)mag : (s64)mag;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_s64);

/*
 * A value or a range "LO-HI" (fio's startdelay=2-5), each 0..@max, LO <=
 * HI; a value gives LO = HI.
 */
int ssdload_parse_range(const char *buf, u64 max, u64 *lo, u64 *hi)
{
	char tmp[48], *dash;
	u64 a, b;
	int ret;

	if (strscpy(tmp, buf, sizeof(tmp)) < 0)
		return -EINVAL;
	dash = strchr(tmp, '-');
	if (!dash) {
		ret = ssdload_parse_u64(tmp, 0, max, 0, &a);
		if (ret)
			return ret;
		*lo = a;
		*hi = a;
		return 0;
	}
	*dash = '\0';
	ret = ssdload_parse_u64(tmp, 0, max, 0, &a);
	if (!ret)
		ret = ssdload_parse_u64(dash + 1, 0, max, 0, &b);
	if (ret)
		return ret;
	if (a > b)
		return -EINVAL;
	*lo = a;
	*hi = b;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_range);

/* Strict boolean: "0" or "1" only. */
int ssdload_parse_bool(const char *buf, bool *out)
{
	u64 val;
	int ret;

	ret = ssdload_parse_u64(buf, 0, 1, 0, &val);
	if (ret)
		return -EINVAL;
	*out = val;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_bool);

int ssdload_parse_enum(const char *buf, const struct ssdload_enum *tbl,
		       u32 *out)
{
	for (; tbl->name; tbl++) {
		if (sysfs_streq(buf, tbl->name)) {
			*out = tbl->value;
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_enum);

const char *ssdload_enum_name(const struct ssdload_enum *tbl, u32 value)
{
	for (; tbl->name; tbl++)
		if (tbl->value == value)
			return tbl->name;
	return "?";
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_enum_name);

/*
 * Parse a cpulist ("0-1,3").  An empty string yields an empty mask (the
 * default: one worker on the lowest online CPU).  Offline or nonexistent
 * CPUs and malformed lists are -EINVAL.
 */
int ssdload_parse_cpulist(const char *buf, struct cpumask *out)
{
	size_t len = strlen(buf);
	char *tmp;
	int ret;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len) {
		cpumask_clear(out);
		return 0;
	}
	if (memchr(buf, '\n', len))
		return -EINVAL;
	tmp = kmemdup_nul(buf, len, GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	ret = cpulist_parse(tmp, out);
	kfree(tmp);
	if (ret)
		return -EINVAL;
	if (cpumask_empty(out) || !cpumask_subset(out, cpu_online_mask))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_cpulist);

/*
 * An absolute path shorter than @outlen, without embedded newlines
 * (one trailing newline is dropped).
 */
int ssdload_parse_path(const char *buf, char *out, size_t outlen)
{
	size_t len = strlen(buf);

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || buf[0] != '/' || len >= outlen)
		return -EINVAL;
	if (memchr(buf, '\n', len))
		return -EINVAL;
	memcpy(out, buf, len);
	out[len] = '\0';
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_path);

/* Printable, truncated copy of a user value for log messages. */
void ssdload_safe_value(const char *buf, char *out, size_t outlen)
{
	size_t i;

	for (i = 0; i + 1 < outlen && buf[i]; i++)
		out[i] = isprint(buf[i]) ? buf[i] : '?';
	if (i && out[i - 1] == '?' && buf[i - 1] == '\n' && !buf[i])
		i--;
	out[i] = '\0';
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_safe_value);

/*
 * A percentage "P" (0 < P <= 100, up to 4 decimals) from @len characters
 * of @buf, in ppm: 1 ppm is 0.0001%.
 */
static int ssdload_parse_ppm(const char *buf, size_t len, u64 *ppm)
{
	u64 whole = 0, frac = 0, unit = SSDLOAD_PPM / 100;
	bool digits = false;
	size_t i = 0;

	for (; i < len && isdigit(buf[i]); i++) {
		whole = whole * 10 + (buf[i] - '0');
		digits = true;
		if (whole > 100)
			return -ERANGE;
	}
	if (i < len && buf[i] == '.') {
		for (i++; i < len && isdigit(buf[i]); i++) {
			if (unit == 1)
				return -EINVAL;
			unit /= 10;
			frac += (buf[i] - '0') * unit;
			digits = true;
		}
	}
	if (i != len || !digits)
		return -EINVAL;
	*ppm = whole * (SSDLOAD_PPM / 100) + frac;
	if (*ppm > SSDLOAD_PPM)
		return -ERANGE;
	return *ppm ? 0 : -EINVAL;
}

/*
 * offset and size: decimal bytes (a multiple of 512), or a percentage of
 * each device, "25%" or "12.5%" (fio's form).
 */
int ssdload_parse_bytes_or_pct(const char *buf, u64 *bytes, u64 *ppm,
			       bool *pct)
{
	size_t len = strlen(buf);
	int ret;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len && buf[len - 1] == '%') {
		ret = ssdload_parse_ppm(buf, len - 1, ppm);
		if (ret)
			return ret;
		*pct = true;
		*bytes = 0;
		return 0;
	}
	ret = ssdload_parse_u64(buf, 0, U64_MAX, SSDLOAD_SPAN_ALIGN, bytes);
	if (ret)
		return ret;
	*pct = false;
	*ppm = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_bytes_or_pct);

/* file_service_type: "roundrobin", "random" or "sequential", ":N" optional. */
int ssdload_parse_fst(const char *buf, u32 *fst, u32 *n)
{
	char name[16];
	const char *colon;
	size_t len = strlen(buf);
	u64 v = 0;
	int ret;

	if (len && buf[len - 1] == '\n')
		len--;
	colon = memchr(buf, ':', len);
	if ((colon ? colon - buf : len) >= sizeof(name))
		return -EINVAL;
	memcpy(name, buf, colon ? colon - buf : len);
	name[colon ? colon - buf : len] = '\0';
	ret = ssdload_parse_enum(name, ssdload_fst_names, fst);
	if (ret)
		return ret;
	if (colon) {
		char num[24];
		size_t nl = len - (colon + 1 - buf);

		if (!nl || nl >= sizeof(num))
			return -EINVAL;
		memcpy(num, colon + 1, nl);
		num[nl] = '\0';
		ret = ssdload_parse_u64(num, 1, U32_MAX, 0, &v);
		if (ret)
			return ret;
	}
	*n = v;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_fst);

/*
 * A group name: 1 to @outlen - 1 characters of [A-Za-z0-9_.-] (ASCII: the
 * kernel's isalnum() also takes Latin-1 letters).  The empty
 * string (or a lone newline) is "no group".
 */
int ssdload_parse_group(const char *buf, char *out, size_t outlen)
{
	size_t len = strlen(buf), i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len >= outlen)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isascii(buf[i]) ||
		    (!isalnum(buf[i]) && !strchr("_.-", buf[i])))
			return -EINVAL;
	memcpy(out, buf, len);
	out[len] = '\0';
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdload_parse_group);

/*
 * Is @buf empty but for one trailing newline?  (Clears a list attribute
 * of a job; makes a step's attribute inherit the job's again.)
 */
bool ssdload_blank(const char *buf)
{
	return !buf[0] || (buf[0] == '\n' && !buf[1]);
}
