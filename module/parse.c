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
	{ 0, NULL }
};
EXPORT_SYMBOL_IF_KUNIT(ssdload_state_names);

const struct ssdload_enum ssdload_poll_fallback_names[] = {
	{ SSDLOAD_POLL_OK,		"none" },
	{ SSDLOAD_POLL_NO_QUEUES,	"no_poll_queues" },
	{ SSDLOAD_POLL_BIO_BASED,	"bio_based" },
	{ SSDLOAD_POLL_SPLIT,		"split" },
	{ SSDLOAD_POLL_NO_NOWAIT,	"no_nowait" },
	{ 0, NULL }
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
