/*
 * fio_log: reading fio's log files (write_lat_log, write_bw_log, write_iops_log; see docs/fio-facts.md
 * "Log files") into per-interval samples and, for per-IO latency logs, a latency histogram in fio's bucket
 * layout so percentiles come out of core/aggregate.h exactly like fio's own.
 *
 * Lines are "time, value, ddir, bs[, offset][, prio]" (4, 5 or 6 columns, ", " separated): time in ms since
 * the job started (or epoch ms), value in ns (latency logs), KiB/s (bw) or IOs/s (iops), ddir 0 read, 1 write,
 * 2 trim. Per-IO logs have one line per IO (bs > 0); logs written with log_avg_msec have one averaged line per
 * window and direction (bs 0). The parser is hand-written over read buffers: one pass, no strtod. Numbers are
 * unsigned 64-bit: a longer one is an error ("value does not fit in 64 bits").
 */
#ifndef BENCH_ENGINES_FIO_LOG_H
#define BENCH_ENGINES_FIO_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"

enum fio_log_kind { FIO_LOG_LAT = 0, FIO_LOG_CLAT, FIO_LOG_SLAT, FIO_LOG_BW, FIO_LOG_IOPS, FIO_LOG_KINDS };

/* fio's latency histogram layout (FIO_IO_U_PLAT_BITS 6, 29 groups): bucket index <-> value in ns. */
#define FIO_HIST_NR 1856
unsigned fio_hist_val_to_idx(uint64_t v);
uint64_t fio_hist_idx_to_val(unsigned idx);

/* One line of a window-averaged log, kept as fio wrote it. */
struct fio_log_entry {
	int64_t t_ms;   /* fio's time stamp: the end of the window */
	double value;   /* ns, KiB/s or IOs/s (fractions kept) */
	unsigned ddir;  /* 0 read, 1 write, 2 trim */
};

/* One sample interval of one direction. */
struct fio_log_cell {
	uint64_t n;     /* lines in the interval (= IOs for per-IO logs) */
	uint64_t sum;   /* sum of the values (ns, KiB/s or IOs/s) */
	uint64_t bytes; /* sum of the bs column (per-IO logs) */
};

struct fio_log {
	enum fio_log_kind kind;
	int windowed;          /* 1: written with log_avg_msec (bs column 0) */
	unsigned ncols;        /* columns of the first line: 4, 5 or 6 */
	unsigned window_ms;    /* width of the sample intervals */
	uint64_t lines;        /* data lines read */
	int64_t t0_ms;         /* start of interval 0 (a multiple of window_ms) */
	int64_t tmin_ms, tmax_ms; /* first and last time stamps seen */
	size_t nwin, wcap;
	struct fio_log_cell (*win)[3]; /* win[i][ddir] */
	/* per-IO latency logs only (kind LAT/CLAT/SLAT, not windowed): */
	uint64_t *hist[3];     /* FIO_HIST_NR bucket counts per ddir, or NULL */
	uint64_t min_v[3], max_v[3];
	unsigned __int128 sumsq[3]; /* sum of squared values, exact */
	/* windowed logs only: every line at its own time */
	struct fio_log_entry *ent;
	size_t nent, ecap;
	unsigned avg_ms;       /* log_avg_msec: as given, else the smallest step between a direction's entries */
	char job[48];          /* the job the log belongs to ("NAME.N" of NAME_iops.N.log), "" if unknown */
};

void fio_log_init(struct fio_log *l);
void fio_log_release(struct fio_log *l);

/* "lat", "clat", "slat", "bw", "iops". */
const char *fio_log_kind_name(enum fio_log_kind k);

/* The kind a file name says (NAME_lat.3.log, NAME_clat.log, NAME_bw.1.log, NAME_iops.2.log); -1 if none. */
int fio_log_kind_from_name(const char *path);


/*
 * Parses a log held in memory (name prefixes error messages: "name:LINE: what"). kind as the file name says;
 * window_ms is the sample interval of per-IO logs and the log_avg_msec of windowed ones (0: per-IO logs in 1 s
 * intervals, the averaging window inferred from the time stamps). Fails with ERR_INPUT on the first malformed line.
 */
int fio_log_parse_buf(const char *buf, size_t len, const char *name, enum fio_log_kind kind, unsigned window_ms,
		      struct fio_log *out, struct errbuf *err);
/* The same for a file, read in 256 KiB chunks. */
int fio_log_parse_file(const char *path, enum fio_log_kind kind, unsigned window_ms, struct fio_log *out,
		       struct errbuf *err);

/*
 * Adds the samples of several logs of one run (e.g. every job's logs) to out under `host`, per job (the
 * log's job), source "fio-log": "lat_ns.<dir>", "clat_ns.<dir>", "slat_ns.<dir>" (mean latency, ns),
 * "iops.<dir>", "bw_bytes.<dir>" (bytes/s). A window-averaged log gives one sample per line at fio's own
 * time stamp with window_ms = its log_avg_msec, nothing merged or rounded; a per-IO log gives one sample per
 * interval (t_ms = the interval's end; IOPS and bandwidth derived from a per-IO latency log only when the job
 * has no iops/bw log). <dir> is read, write or trim. Sums over jobs and hosts are core/series.h's.
 */
void fio_logs_to_samples(const struct fio_log *logs, size_t n, const char *host, struct run_result *out);

/*
 * Fills the read/write/trim results of a host from per-IO latency logs (all of one kind, the first of lat,
 * clat, slat present): IOs, bytes, runtime, IOPS, bandwidth, the latency summary, histogram bins and the
 * default percentiles (pct_kind = the kind); then the total. Returns 0, or -1 when no per-IO latency log is there.
 */
int fio_logs_to_result(const struct fio_log *logs, size_t n, struct host_result *h);

/* 1 when path looks like a fio log file (by name, else by the shape of its first line). */
int fio_log_detect(const char *path);

/*
 * For the run loop after `bench run --logs`: reads every fio log file (*_lat, *_clat, *_slat, *_bw, *_iops
 * .log) in dir and adds their samples to out under host (per job, fio_logs_to_samples), and every histogram
 * log (*_clat_hist.*) as histogram samples (engines/fio_histlog.h). Returns the number of sample log files
 * read (histogram logs not counted), or -1 with err set.
 */
int fio_log_collect_dir(const char *dir, const char *host, struct run_result *out, struct errbuf *err);

#endif
