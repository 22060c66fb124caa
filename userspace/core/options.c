// SPDX-License-Identifier: GPL-2.0
/* Parsers for fio-style option values. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/array_size.h"
#include "core/options.h"

/* strip one trailing newline (values read back from sysfs files) */
static size_t value_len(const char *s)
{
	size_t len = strlen(s);

	if (len && s[len - 1] == '\n')
		len--;
	return len;
}

static int parse_digits(const char *s, size_t len, int base, uint64_t *out,
			size_t *used)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		int d;

		if (isdigit((unsigned char)s[i]))
			d = s[i] - '0';
		else if (base == 16 && isxdigit((unsigned char)s[i]))
			d = tolower((unsigned char)s[i]) - 'a' + 10;
		else
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (!i)
		return -1;
	*out = v;
	*used = i;
	return 0;
}

int ssl_parse_u64(const char *s, uint64_t *out)
{
	size_t len = value_len(s), used;

	if (parse_digits(s, len, 10, out, &used) || used != len)
		return -1;
	return 0;
}

int ssl_parse_seed(const char *s, uint64_t *out)
{
	size_t len = value_len(s), used;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (parse_digits(s + 2, len - 2, 16, out, &used) ||
		    used != len - 2)
			return -1;
		return 0;
	}
	return ssl_parse_u64(s, out);
}

static unsigned int kb_base = 1024;

int ssl_set_kb_base(unsigned int base)
{
	if (base != 1000 && base != 1024)
		return -1;
	kb_base = base;
	return 0;
}

/*
 * fio's unit suffixes of a size (any case): b, and k m g t p alone or with
 * b or ib.  As fio's get_mult_bytes(): with kb_base=1024 (the default) "k"
 * and "kb" are 1024 and "kib" is 1000 (fio's compatibility mode); with
 * kb_base=1000 "k" and "kb" are 1000 and "kib" is 1024.
 */
static int size_mult(const char *suf, size_t len, uint64_t *mult)
{
	static const char units[] = "kmgtp";
	const char *u;
	uint64_t base = kb_base, m = 1;
	int pow;

	if (!len || (len == 1 && tolower((unsigned char)suf[0]) == 'b')) {
		*mult = 1;
		return 0;
	}
	u = strchr(units, tolower((unsigned char)suf[0]));
	if (!u || !*u)
		return -1;
	if (len == 3 && !strncasecmp(suf + 1, "ib", 2))
		base = kb_base == 1024 ? 1000 : 1024;
	else if (!(len == 1 || (len == 2 && tolower((unsigned char)suf[1]) == 'b')))
		return -1;
	for (pow = (int)(u - units) + 1; pow > 0; pow--)
		m *= base;
	*mult = m;
	return 0;
}

int ssl_parse_size(const char *s, uint64_t *out)
{
	size_t len = value_len(s), used, fused = 0;
	uint64_t v, frac = 0, scale = 1, mult;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_digits(s + 2, len - 2, 16, out, &used) || used != len - 2 ? -1 : 0;
	if (parse_digits(s, len, 10, &v, &used))
		return -1;
	if (used < len && s[used] == '.') {
		/* 1.5k: as many decimals as make a whole number of bytes */
		if (parse_digits(s + used + 1, len - used - 1, 10, &frac, &fused) || fused > 9)
			return -1;
		used += 1 + fused;
		while (fused--)
			scale *= 10;
	}
	if (size_mult(s + used, len - used, &mult))
		return -1;
	if (v > UINT64_MAX / mult)
		return -1;
	v *= mult;
	if (frac) {
		if (frac > UINT64_MAX / mult || (frac * mult) % scale)
			return -1;	/* not a whole number of bytes */
		if (v > UINT64_MAX - frac * mult / scale)
			return -1;
		v += frac * mult / scale;
	}
	*out = v;
	return 0;
}

struct suffix {
	const char *name;
	uint64_t mult;
};

static int apply_suffix(uint64_t v, const char *suf, size_t len,
			const struct suffix *tab, uint64_t *out)
{
	size_t i;

	for (i = 0; tab[i].name; i++) {
		if (strlen(tab[i].name) != len ||
		    strncasecmp(tab[i].name, suf, len))
			continue;
		if (tab[i].mult && v > UINT64_MAX / tab[i].mult)
			return -1;
		*out = v * tab[i].mult;
		return 0;
	}
	return -1;
}

/* digits, then a suffix of @tab, or none: @bare units (0 = refused) */
static int parse_time(const char *s, uint64_t bare, const struct suffix *tab,
		      uint64_t *out)
{
	size_t len = value_len(s), used;
	uint64_t v;

	if (parse_digits(s, len, 10, &v, &used))
		return -1;
	if (used == len) {
		if (!bare || v > UINT64_MAX / bare)
			return -1;
		*out = v * bare;
		return 0;
	}
	return apply_suffix(v, s + used, len - used, tab, out);
}

int ssl_parse_time_us(const char *s, uint64_t bare_unit_us, uint64_t *out)
{
	static const struct suffix us_suffixes[] = {
		{ "us", 1 }, { "usec", 1 },
		{ "ms", 1000 }, { "msec", 1000 },
		{ "s", 1000000 }, { "sec", 1000000 },
		{ "m", 60000000 }, { "min", 60000000 },
		{ "h", 3600000000ULL }, { "hour", 3600000000ULL },
		{ "d", 86400000000ULL }, { "day", 86400000000ULL },
		{ NULL, 0 },
	};

	return parse_time(s, bare_unit_us, us_suffixes, out);
}

int ssl_parse_time_ms(const char *s, uint64_t bare_unit_ms, uint64_t *out)
{
	static const struct suffix time_suffixes[] = {
		{ "ms", 1 }, { "msec", 1 },
		{ "s", 1000 }, { "sec", 1000 },
		{ "m", 60000 }, { "min", 60000 },
		{ "h", 3600000 }, { "hour", 3600000 },
		{ "d", 86400000 }, { "day", 86400000 },
		{ NULL, 0 },
	};
	size_t len = value_len(s);
	uint64_t us;

	if ((len > 2 && !strncasecmp(s + len - 2, "us", 2)) ||
	    (len > 4 && !strncasecmp(s + len - 4, "usec", 4))) {
		if (ssl_parse_time_us(s, 0, &us) || us % 1000)
			return -1;	/* the module counts whole ms */
		*out = us / 1000;
		return 0;
	}
	return parse_time(s, bare_unit_ms, time_suffixes, out);
}

int ssl_parse_percentiles(const char *s, double *out, int max, int *n)
{
	const char *p = s;
	int cnt = 0;

	if (!*s)
		return -1;
	while (*p) {
		char *end;
		double v;

		if (!isdigit((unsigned char)*p) && *p != '.')
			return -1;
		errno = 0;
		v = strtod(p, &end);
		if (errno || end == p || !isfinite(v) || v <= 0.0 || v > 100.0)
			return -1;
		if (cnt == max)
			return -1;
		out[cnt++] = v;
		p = end;
		if (*p == ':') {
			p++;
			if (!*p)
				return -1;
		} else if (*p) {
			return -1;
		}
	}
	*n = cnt;
	return 0;
}

int ssl_parse_output_format(const char *s, unsigned int *fmt)
{
	static const struct {
		const char *name;
		unsigned int fmt;
	} fmts[] = {
		{ "normal", SSL_OUTPUT_NORMAL },
		{ "json", SSL_OUTPUT_JSON },
		{ "json+", SSL_OUTPUT_JSON_PLUS },
	};
	unsigned int set = 0;
	size_t n, i;

	do {
		n = strcspn(s, ",");
		for (i = 0; i < ARRAY_SIZE(fmts); i++)
			if (n == strlen(fmts[i].name) && !strncmp(s, fmts[i].name, n))
				break;
		if (i == ARRAY_SIZE(fmts))
			return -1;
		set |= fmts[i].fmt;
		s += n;
	} while (*s++ == ',');
	/* json+ is json with more in it: one document */
	if (set & SSL_OUTPUT_JSON_PLUS)
		set &= ~(unsigned int)SSL_OUTPUT_JSON;
	*fmt = set;
	return 0;
}

int ssl_parse_eta(const char *s, enum ssl_eta *eta)
{
	if (!strcmp(s, "auto"))
		*eta = SSL_ETA_AUTO;
	else if (!strcmp(s, "always"))
		*eta = SSL_ETA_ALWAYS;
	else if (!strcmp(s, "never"))
		*eta = SSL_ETA_NEVER;
	else
		return -1;
	return 0;
}

int ssl_parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

int ssl_check_group(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > SSL_GROUP_MAX ||
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		   "0123456789_.-") != n)
		return -1;
	return 0;
}

static int append(char *out, size_t len, size_t *pos, const char *fmt,
		  unsigned long a, unsigned long b)
{
	int r = snprintf(out + *pos, len - *pos, fmt, a, b);

	if (r < 0 || (size_t)r >= len - *pos)
		return -1;
	*pos += (size_t)r;
	return 0;
}

int ssl_cpulist_first_n(const char *online, unsigned int n, char *out, size_t len)
{
	const char *p = online;
	unsigned int taken = 0;
	size_t pos = 0;

	out[0] = '\0';
	while (*p && *p != '\n' && taken < n) {
		unsigned long a, b;
		char *end;

		if (!isdigit((unsigned char)*p))
			return -1;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -1;
			b = strtoul(p, &end, 10);
			p = end;
			if (b < a)
				return -1;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
		if (b - a + 1 > n - taken)
			b = a + (n - taken) - 1;
		if (a == b ? append(out, len, &pos, pos ? ",%lu" : "%lu", a, 0) :
			     append(out, len, &pos, pos ? ",%lu-%lu" : "%lu-%lu", a, b))
			return -1;
		taken += (unsigned int)(b - a + 1);
	}
	if (taken < n)
		return taken ? (int)taken : -1;
	return 0;
}

static int opt_name_eq(const char *a, size_t alen, const char *b)
{
	size_t i;

	if (strlen(b) != alen)
		return 0;
	for (i = 0; i < alen; i++) {
		char x = a[i] == '-' ? '_' : a[i];
		char y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return 0;
	}
	return 1;
}

/*
 * fio 3.33's aliases: the .alias of its options.c (what fio --cmdhelp=NAME
 * shows as "alias:"), name first.  Both names of a pair are one option,
 * wherever ssdload looks a name up (tests/unit/test_cli_fio_aliases.py
 * checks the table against the installed fio).
 */
static const struct {
	const char *name, *alias;
} fio_aliases[] = {
	{ "rw", "readwrite" },
	{ "bs", "blocksize" },
	{ "ba", "blockalign" },
	{ "bsrange", "blocksize_range" },
	{ "bs_unaligned", "blocksize_unaligned" },
	{ "iodepth_batch", "iodepth_batch_submit" },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete" },
	{ "io_size", "io_limit" },
	{ "fill_device", "fill_fs" },
	{ "offset", "fileoffset" },
	{ "nrfiles", "nr_files" },
	{ "runtime", "timeout" },
	{ "mem", "iomem" },
	{ "iomem_align", "mem_align" },
	{ "rate_min", "ratemin" },
	{ "rate_cycle", "ratecycle" },
	{ "stonewall", "wait_for_previous" },
	{ "disable_bw_measurement", "disable_bw" },
	{ "steadystate", "ss" },
	{ "steadystate_duration", "ss_dur" },
	{ "steadystate_ramp_time", "ss_ramp" },
};

const char *ssl_fio_alias(const char *name, size_t len, const char **spelled)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fio_aliases); i++) {
		if (opt_name_eq(name, len, fio_aliases[i].name)) {
			if (spelled)
				*spelled = fio_aliases[i].name;
			return fio_aliases[i].alias;
		}
		if (opt_name_eq(name, len, fio_aliases[i].alias)) {
			if (spelled)
				*spelled = fio_aliases[i].alias;
			return fio_aliases[i].name;
		}
	}
	return NULL;
}

static const struct ssl_opt *find_name(const struct ssl_opt *tab, const char *name,
				       size_t len)
{
	for (; tab->name; tab++)
		if (opt_name_eq(name, len, tab->name))
			return tab;
	return NULL;
}

const struct ssl_opt *ssl_find_opt(const struct ssl_opt *tab, const char *name, size_t len)
{
	const struct ssl_opt *o = find_name(tab, name, len);
	const char *other;

	if (o)
		return o;
	other = ssl_fio_alias(name, len, NULL);
	return other ? find_name(tab, other, strlen(other)) : NULL;
}

/* Damerau-Levenshtein distance (optimal string alignment), '-' == '_' */
static size_t edit_distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), i, j, d[64][64];

	if (la >= 64 || lb >= 64)
		return (size_t)-1;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			char x = a[i - 1] == '-' ? '_' : a[i - 1];
			char y = b[j - 1] == '-' ? '_' : b[j - 1];
			size_t v = d[i - 1][j - 1] + (x != y);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && x == b[j - 2] && a[i - 2] == y &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

/*
 * fio options that ssdload knows of but does not implement (fio 3.33's
 * options.c): refused by name, not as a typo, with the reason and what to
 * use instead.  Documentation/cli.rst ("Options fio has and ssdload does
 * not") has one line per entry, with the same text: test_cli_fio_refuse.py
 * checks that they agree.  The engine-side ones with no meaning in the
 * kernel (ioengine, direct, thread, ...) are options of ssdload run,
 * accepted with a note.
 */
#define WHY_RUN "an option of the jobs of ssdload run only"
#define WHY_LOG "ssdload writes its own averaged logs (--write_*_log, --log_avg_msec); use those"
#define WHY_RATE "only a cap is supported; use --rate_iops or --rate"
/* verify's options not there yet (Documentation/verify.rst), each its own reason */
#define WHY_VBACKLOG \
	"checks while writing are not supported yet: with --do_verify=1 every " \
	"block written is checked once the writes are done"
#define WHY_VBATCH "goes with verify_backlog, which is not supported yet"
#define WHY_VDUMP \
	"failed blocks are listed in the report (sector, class, detail), not yet " \
	"dumped to files"
#define WHY_VPATTERN \
	"verify=pattern and its pattern are not supported yet: use a checksum " \
	"(--verify=crc32c, xxhash, ...)"
#define WHY_VGEN "generations are one byte per block (7 bits); another width is not supported yet"
#define WHY_VSEED "the header always carries the job's randseed; another seed is not supported yet"
#define WHY_VOFFSET \
	"the header is always at the start of each verify_interval unit; moving it " \
	"is not supported yet"
#define WHY_BATCH \
	"bios are submitted one by one by the kernel workers; " \
	"--iodepth is the queue depth"
#define WHY_SYNC "not on a block device: use --end_fsync for a flush at the end, --fsync=N for one every N writes"
#define WHY_FILES "ssdload drives block devices, not files in a file system; give --filename=DEV"
#define WHY_BUF "buffers are written as --buffer_pattern or --scramble_buffers say"
#define WHY_ERR "an I/O error ends the job, with the error named: nothing is ignored, and there is nothing to set"
#define WHY_CPU "the workers are kernel threads: scheduling options do not reach them; use --cpus_allowed to place them"
#define WHY_LAT \
	"latencies are always measured in the kernel; choose what to " \
	"print with --percentile_list"
#define WHY_UNIT "sizes are printed in fio's default units; use --kb_base"
#define WHY_ZONE \
	"neither zoned devices (zonemode=zbd) nor fio's strided zones " \
	"(zonemode=strided: zonesize bytes, then zoneskip, in each zonerange) " \
	"are supported; use a conventional block device, and --offset and " \
	"--size for one region"
#define WHY_TRIM "trims are run by --rw=trim/randtrim/trimwrite only"
#define WHY_EXEC "ssdload runs no programs around a job; run them yourself"
#define WHY_SCHED "the device's I/O scheduler is left as it is; set it in sysfs"
#define WHY_DISKUTIL "disk utilisation is not reported; see /sys/block/DEV/stat"
#define WHY_IOLOG "I/O logs are not recorded, nor redirected; read_iolog replays one (ssdload replay), ssdload capture records one"
#define WHY_IDLE "idle CPU time is not profiled; the workers' own CPU time is reported (usr_cpu, sys_cpu)"
#define WHY_FLOW "flow control between jobs is not supported; use separate runs or rates"
#define WHY_USER "the workers are kernel threads and run as no user; there is nothing to set"
#define WHY_IOPRIO "the bios carry no I/O priority: per-command priorities are not set; measure them with fio itself"
#define WHY_MEM "bios carry the module's own pages: memory options do not apply; there is nothing to set"
#define WHY_RANDOM \
	"ssdload's own generator draws the offsets (seeded by " \
	"--randseed); use --random_distribution"
#define WHY_OVERLAP "in-flight I/Os are not serialized on overlap; --iodepth=1 and --numjobs=1 have no two in flight"
#define WHY_SUBMIT "the kernel workers submit bios themselves: there is no offload; --iodepth is what is in flight"
#define WHY_CREATE "ssdload creates no file: the target is an existing block device"
#define WHY_FILL "use --size and --loops, or ssdload pts's preconditioning, to fill a device"
#define WHY_ATOMIC "writes are plain direct bios, not atomic ones; measure atomic writes with fio itself"
#define WHY_BUFFERED "I/O is always direct: there is no page cache in the path"
#define WHY_AVG "rates are sampled by --log_avg_msec and --status-interval"
#define WHY_LATTARGET \
	"latency-targeted depth search is not supported; use ssdload " \
	"run --latency-table"
#define WHY_SIGFIG "percentiles are printed at fio's default precision"
#define WHY_WRONLY "use --rw=write or randwrite"
#define WHY_RAMP "use --ramp_time"
#define WHY_EXITWHAT "jobs end on their own limits; use stonewall sets"

static const struct {
	const char *name;
	const char *why;
} fio_unsupported[] = {
	{ "stonewall", WHY_RUN },
	{ "new_group", WHY_RUN },
	{ "wait_for", WHY_RUN },
	{ "exitall", WHY_EXITWHAT },
	{ "exitall_on_error", WHY_EXITWHAT },
	{ "log_hist_coarseness", WHY_LOG },
	{ "log_max_value", WHY_LOG },
	{ "log_compression", WHY_LOG },
	{ "per_job_logs", WHY_LOG },
	{ "rate_min", WHY_RATE },
	{ "rate_cycle", WHY_RATE },
	{ "rate_iops_min", WHY_RATE },
	{ "rate_ignore_thinktime", WHY_RATE },
	{ "verify", WHY_RUN },
	{ "do_verify", WHY_RUN },
	{ "verify_interval", WHY_RUN },
	{ "verify_fatal", WHY_RUN },
	{ "verify_async", WHY_RUN },
	{ "experimental_verify", WHY_RUN },
	{ "verify_pattern", WHY_VPATTERN },
	{ "verify_offset", WHY_VOFFSET },
	{ "verify_backlog", WHY_VBACKLOG },
	{ "verify_backlog_batch", WHY_VBATCH },
	{ "verify_only", WHY_RUN },
	{ "verify_state_save", WHY_RUN },
	{ "verify_state_load", WHY_RUN },
	{ "verify_dump", WHY_VDUMP },
	{ "verify_generation_bits", WHY_VGEN },
	{ "verify_header_seed", WHY_VSEED },
	{ "iodepth_batch", WHY_BATCH },
	{ "iodepth_batch_submit", WHY_BATCH },
	{ "iodepth_batch_complete", WHY_BATCH },
	{ "iodepth_batch_complete_min", WHY_BATCH },
	{ "iodepth_batch_complete_max", WHY_BATCH },
	{ "iodepth_low", WHY_BATCH },
	{ "fsync", WHY_RUN },
	{ "fdatasync", WHY_RUN },
	{ "sync", WHY_RUN },
	{ "end_fsync", WHY_RUN },
	{ "fsync_on_close", WHY_RUN },
	{ "write_barrier", WHY_RUN },
	{ "nrfiles", WHY_FILES },
	{ "openfiles", WHY_FILES },
	{ "directory", WHY_FILES },
	{ "filename_format", WHY_FILES },
	{ "unique_filename", WHY_FILES },
	{ "lockfile", WHY_FILES },
	{ "create_serialize", WHY_CREATE },
	{ "create_fsync", WHY_CREATE },
	{ "create_on_open", WHY_CREATE },
	{ "fallocate", WHY_CREATE },
	{ "pre_read", WHY_BUFFERED },
	{ "zero_buffers", WHY_RUN },
	{ "refill_buffers", WHY_RUN },
	{ "buffer_compress_percentage", WHY_RUN },
	{ "buffer_compress_chunk", WHY_RUN },
	{ "dedupe_percentage", WHY_RUN },
	{ "continue_on_error", WHY_ERR },
	{ "ignore_error", WHY_ERR },
	{ "error_dump", WHY_ERR },
	{ "cgroup", WHY_CPU },
	{ "nice", WHY_CPU },
	{ "prio", WHY_CPU },
	{ "prioclass", WHY_CPU },
	{ "cmdprio", WHY_IOPRIO },
	{ "cmdprio_percentage", WHY_IOPRIO },
	{ "cmdprio_class", WHY_IOPRIO },
	{ "cmdprio_bssplit", WHY_IOPRIO },
	{ "cpumask", WHY_CPU },
	{ "numa_cpu_nodes", WHY_CPU },
	{ "numa_mem_policy", WHY_CPU },
	{ "gtod_reduce", WHY_LAT },
	{ "disable_clat", WHY_LAT },
	{ "disable_slat", WHY_LAT },
	{ "disable_bw_measurement", WHY_LAT },
	{ "clat_percentiles", WHY_LAT },
	{ "lat_percentiles", WHY_LAT },
	{ "slat_percentiles", WHY_LAT },
	{ "unit_base", WHY_UNIT },
	{ "zonemode", WHY_ZONE },
	{ "zonesize", WHY_ZONE },
	{ "zonerange", WHY_ZONE },
	{ "zoneskip", WHY_ZONE },
	{ "trim_percentage", WHY_TRIM },
	{ "trim_verify_zero", WHY_TRIM },
	{ "trim_backlog", WHY_TRIM },
	{ "exec_prerun", WHY_EXEC },
	{ "exec_postrun", WHY_EXEC },
	{ "ioscheduler", WHY_SCHED },
	{ "disk_util", WHY_DISKUTIL },
	{ "replay_redirect", WHY_IOLOG },
	{ "write_iolog", WHY_IOLOG },
	{ "iolog", WHY_IOLOG },
	{ "idle_prof", WHY_IDLE },
	{ "flow", WHY_FLOW },
	{ "flow_id", WHY_FLOW },
	{ "flow_sleep", WHY_FLOW },
	{ "uid", WHY_USER },
	{ "gid", WHY_USER },
	{ "mem", WHY_MEM },
	{ "iomem", WHY_MEM },
	{ "iomem_align", WHY_MEM },
	{ "mem_align", WHY_MEM },
	{ "hugepage-size", WHY_MEM },
	{ "percentage_random", WHY_RANDOM },
	{ "allrandrepeat", WHY_RANDOM },
	{ "randrepeat", WHY_RANDOM },
	{ "softrandommap", WHY_RANDOM },
	{ "random_generator", WHY_RANDOM },
	{ "serialize_overlap", WHY_OVERLAP },
	{ "io_submit_mode", WHY_SUBMIT },
	{ "create_only", WHY_CREATE },
	{ "allow_file_create", WHY_CREATE },
	{ "allow_mounted_write", WHY_FILES },
	{ "fill_device", WHY_FILL },
	{ "fill_fs", WHY_FILL },
	{ "file_append", WHY_FILES },
	{ "atomic", WHY_ATOMIC },
	{ "buffered", WHY_BUFFERED },
	{ "sync_file_range", WHY_SYNC },
	{ "bwavgtime", WHY_AVG },
	{ "iopsavgtime", WHY_AVG },
	{ "max_latency", WHY_LATTARGET },
	{ "latency_target", WHY_LATTARGET },
	{ "latency_window", WHY_LATTARGET },
	{ "latency_percentile", WHY_LATTARGET },
	{ "latency_run", WHY_LATTARGET },
	{ "significant_figures", WHY_SIGFIG },
	{ "write_only", WHY_WRONLY },
	{ "ramp_size", WHY_RAMP },
};

const char *ssl_fio_unsupported_why(const char *name, size_t len)
{
	const char *other = ssl_fio_alias(name, len, NULL);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fio_unsupported); i++)
		if (opt_name_eq(name, len, fio_unsupported[i].name) ||
		    (other && !strcmp(other, fio_unsupported[i].name)))
			return fio_unsupported[i].why;
	return NULL;
}

void ssl_opt_unknown(const char *where, const struct ssl_opt *tab, const char *name,
		     size_t len, const char *dashes)
{
	const char *why = ssl_fio_unsupported_why(name, len);
	const struct ssl_opt *best = NULL;
	size_t bd = (size_t)-1, dist;
	char pre[4200];

	if (where)
		snprintf(pre, sizeof(pre), "%s: ", where);
	else
		pre[0] = '\0';
	if (why) {
		fprintf(stderr, "ssdload: %s%s%.*s: a fio option that ssdload does not "
			"support: %s (Documentation/cli.rst, Differences from fio)\n",
			pre, dashes, (int)len, name, why);
		return;
	}
	for (; tab->name; tab++) {
		dist = edit_distance(name, len, tab->name);
		if (dist < bd) {
			bd = dist;
			best = tab;
		}
	}
	/* a slip of the fingers, not another word: at most 2, and a third of it */
	if (best && bd <= 2 && bd * 3 <= len)
		fprintf(stderr, "ssdload: %sunknown option '%s%.*s' (did you mean %s%s?)\n",
			pre, dashes, (int)len, name, dashes, best->name);
	else
		fprintf(stderr, "ssdload: %sunknown option '%s%.*s'\n", pre, dashes, (int)len,
			name);
}

int ssl_next_opt(int argc, const char **argv, int *i, const struct ssl_opt *tab,
		 const struct ssl_opt **opt, const char **val, int *dashdash)
{
	const struct ssl_opt *tab0 = tab;
	const char *arg = argv[*i], *name, *eq;
	size_t nlen;

	*opt = NULL;
	*val = NULL;
	if (*dashdash || arg[0] != '-' || !arg[1]) {
		(*i)++;
		return 0;
	}
	if (!strcmp(arg, "--")) {
		*dashdash = 1;
		(*i)++;
		return 3;
	}
	if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
		(*i)++;
		return 2;
	}
	if (arg[1] != '-') {
		/* -X VALUE: a one-letter name of the table (-o FILE) */
		tab = arg[2] ? NULL : ssl_find_opt(tab0, arg + 1, 1);
		if (!tab || tab->name[1]) {
			fprintf(stderr, "ssdload: unknown option '%s' (options are --name=value)\n",
				arg);
			return -1;
		}
		*opt = tab;
		(*i)++;
		if (tab->arg == SSL_ARG_FLAG)
			return 1;
		if (*i >= argc) {
			fprintf(stderr, "ssdload: option '%s' needs a value\n", arg);
			return -1;
		}
		*val = argv[(*i)++];
		return 1;
	}
	name = arg + 2;
	eq = strchr(name, '=');
	nlen = eq ? (size_t)(eq - name) : strlen(name);
	tab = ssl_find_opt(tab, name, nlen);
	if (!tab) {
		ssl_opt_unknown(NULL, tab0, name, nlen, "--");
		return -1;
	}
	*opt = tab;
	(*i)++;
	if (eq) {
		*val = eq + 1;
		return 1;
	}
	if (tab->arg == SSL_ARG_FLAG) {
		int b;

		if (*i < argc && !ssl_parse_bool(argv[*i], &b) &&
		    (!strcmp(argv[*i], "0") || !strcmp(argv[*i], "1")))
			*val = argv[(*i)++];
		return 1;
	}
	if (*i >= argc) {
		fprintf(stderr, "ssdload: option '--%s' needs a value\n", tab->name);
		return -1;
	}
	*val = argv[(*i)++];
	return 1;
}
