/*
 * fio_histlog: reading fio's latency histogram logs (write_hist_log with log_hist_msec; docs/timeseries.md)
 * into histogram samples: per interval and direction, one row per non-empty latency bucket.
 *
 * fio 3.x lines are "time, ddir, bs, c0, c1, ..., cN-1": time in ms (since the end of ramp, or epoch ms with
 * log_unix_epoch), ddir 0 read, 1 write, 2 trim, then the IO counts of the interval per bucket of fio's
 * completion-latency histogram (FIO_IO_U_PLAT_BITS 6, 29 groups = 1856 buckets in ns) merged 2^C at a time by
 * log_hist_coarseness C (N = 1856 >> C). Bucket i covers [lo, hi) in ns as fio's own
 * tools/hist/fio-histo-log-pctiles.py reads it: group g = i / 64 has width 1 for g <= 1, else 2^(g-1).
 * Each line's counts are what completed since the previous line of that direction.
 */
#ifndef BENCH_ENGINES_FIO_HISTLOG_H
#define BENCH_ENGINES_FIO_HISTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"

#define FIO_HISTLOG_BUCKETS 1856

/* [lo, hi) in ns of fine bucket idx (0 .. FIO_HISTLOG_BUCKETS - 1), fio-histo-log-pctiles.py's ranges. */
void fio_histlog_bucket_range(unsigned idx, int64_t *lo_ns, int64_t *hi_ns);

/* 1 when the file name is a histogram log ("NAME_clat_hist.N.log", optionally ".ADDR" after it). */
int fio_histlog_name(const char *path);

/* Flags of fio_histlog_read. */
enum {
	/* written by fio --client (NAME_clat_hist.N.log.HOST): undo fio 3.33's chained counts (fio_histlog.c) */
	FIO_HISTLOG_CLIENT = 1 << 0,
};

/* 1 when the name is one fio's client gives a server's log ("NAME_clat_hist.N.log.HOST"). */
int fio_histlog_client_name(const char *path);

/*
 * Adds the histogram log at path to out under host as histogram samples: metric "clat_hist.<dir>", job from the
 * file name, source "fio-histlog", t_ms = fio's time stamp minus t0_ms, window_ms = log_hist_msec (hist_ms;
 * 0: inferred from the time stamps). Returns the number of lines read, or -1 with err (ERR_INPUT, "path:LINE:").
 */
long fio_histlog_read(const char *path, const char *host, int64_t t0_ms, unsigned hist_ms, unsigned flags,
		      struct run_result *out, struct errbuf *err);

#endif
