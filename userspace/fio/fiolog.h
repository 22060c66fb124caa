/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's log files (write_bw_log, write_iops_log, write_lat_log,
 * write_hist_log), written from the job's in-kernel time series.
 */
#ifndef SSDLOAD_CLI_FIOLOG_H
#define SSDLOAD_CLI_FIOLOG_H

#include <stdint.h>

struct ssl_results;

enum ssl_fio_log {
	SSL_LOG_BW, SSL_LOG_IOPS, SSL_LOG_LAT, SSL_LOG_HIST, SSL_LOG_NR,
};

struct ssl_fio_logs {
	const char *prefix[SSL_LOG_NR];	/* NULL: not wanted */
	uint64_t hist_ms;		/* log_hist_msec: a multiple of the series' */
	uint64_t bs;			/* the block size column of the hist log */
};

/* fio's latency histogram geometry (stat.h, fio 3.x) */
#define SSL_FIO_PLAT_BITS	6
#define SSL_FIO_PLAT_VAL	(1U << SSL_FIO_PLAT_BITS)
#define SSL_FIO_PLAT_GROUP_NR	29
#define SSL_FIO_PLAT_NR		(SSL_FIO_PLAT_GROUP_NR * SSL_FIO_PLAT_VAL)

/* fio's plat_val_to_idx(): the bin of a latency of @ns */
unsigned int ssl_fio_plat_idx(uint64_t ns);

/*
 * Write the wanted logs of @res (its series), one file per worker N
 * (1-based), as fio names a job's logs: PREFIX_bw.N.log, PREFIX_iops.N.log,
 * PREFIX_lat.N.log and PREFIX_clat.N.log, PREFIX_clat_hist.N.log.  Lines
 * are fio's averaged ones (log_avg_msec): "msec, value, ddir, 0, 0", msec
 * from the end of the ramp; the hist log's "msec, ddir, bs, 1856 bins".
 * Returns 0, or -1 after a message.
 */
int ssl_fio_logs_write(const struct ssl_fio_logs *l, const struct ssl_results *res);

/*
 * The directories of the logs' prefixes take results (ssl_dir_check()):
 * checked before the run, so that a refusal does not come after it.
 * 0, or -1 after a message.
 */
int ssl_fio_logs_check(const struct ssl_fio_logs *l);

#endif /* SSDLOAD_CLI_FIOLOG_H */
