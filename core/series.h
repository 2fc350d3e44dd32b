/*
 * series: the one definition of time series over hosts and jobs (docs/timeseries.md), computed on read from
 * the stored samples (core/store_read.h store_read_samples).
 *
 * Aligned windows. A run has one clock (t = 0 at the end of ramp; hosts aligned on their own start times by the
 * engine). A sample is stamped at the END of the window it averages; on a grid of width w ms it belongs to
 * slot k = round(t / w), the window (k-1)w .. kw, reported at t = k * w. Within one series (one host, job,
 * metric and source) several samples in one slot (a log_avg_msec shorter than w) are averaged; then:
 *   - rates (iops.*, bw_bytes.*, disk.iops): the series ADD over hosts and jobs (and directions when the
 *     metric has none: "iops" = read + write + trim);
 *   - mean latency (lat_ns.*, clat_ns.*, slat_ns.*): weighted by the IOs of the same host, job and direction
 *     in that slot (iops.<dir>), equal weights where a job has no IOPS series;
 *   - percentiles: from the histogram bins (clat_hist.*) SUMMED over hosts, jobs (and directions for
 *     "clat_hist"), never from averaged percentiles; inside a bucket [lo, hi) linear interpolation, exactly
 *     as fio's tools/hist/fio-histo-log-pctiles.py;
 *   - other metrics (cpu.util_pct): the mean over hosts.
 * A slot where no series has a sample is absent (a gap, never bridged).
 */
#ifndef BENCH_CORE_SERIES_H
#define BENCH_CORE_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "core/store_read.h"

struct series_point {
	int64_t t_ms;  /* end of the aligned window */
	double value;
};

/* Grid width for a metric family ("iops", "clat_hist", ...): the largest window_ms among its samples, else 1000. */
unsigned series_window_ms(const struct store_sample *v, size_t n, const char *metric);

/* Slot of a sample stamped t_ms on a grid of width w: round(t / w). */
int64_t series_slot(int64_t t_ms, unsigned w);

/*
 * The aggregate of `metric` on hosts `host` (NULL or "*": all hosts) over all jobs, on a grid of width w:
 * "iops.read" one direction, "iops" all; likewise bw_bytes, lat_ns, clat_ns, slat_ns, disk.iops, cpu.util_pct.
 * *out (malloc'd, by time) gets the points. Returns their number.
 */
size_t series_aggregate(const struct store_sample *v, size_t n, const char *metric, const char *host, unsigned w,
			struct series_point **out);

/*
 * Percentile pct (0 < pct <= 100) over time from the summed histograms of `metric` ("clat_hist.read" or
 * "clat_hist" for all directions) on hosts `host` (NULL or "*": all), grid w. Values in ns. Returns the number
 * of points in *out.
 */
size_t series_percentile(const struct store_sample *v, size_t n, const char *metric, const char *host, unsigned w,
			 double pct, struct series_point **out);

/* Percentile of one histogram: bins (lo, hi, count) sorted by lo; NAN when empty. fio-histo-log-pctiles.py's rule. */
double series_hist_pct(const int64_t *lo, const int64_t *hi, const double *count, size_t n, double pct);

/* The distinct hosts of a metric family, in stored order (pointers into v). Returns their number. */
size_t series_hosts(const struct store_sample *v, size_t n, const char *metric, const char ***hosts);

/* Whether sample metric m belongs to `metric` (equal, or m is "metric.<dir>" when metric has no direction). */
int series_metric_match(const char *m, const char *metric);

#endif
