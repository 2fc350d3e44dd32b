/*
 * chart_time: the report's charts over time (kind 'e' of report/charts.h; docs/timeseries.md), from the
 * stored samples through core/series.h, so the charts draw exactly the aggregates the store defines:
 *   - per run, one chart of stacked panels on the run's clock (s since the end of ramp): IOPS, MiB/s, mean
 *     latency and p99 latency (from the histogram logs), each per host and for all hosts, p50/p90/p99/p99.9
 *     of all hosts (summed bins), and CPU % per host;
 *     latency in us or ms (said in the axis title); a window without samples is a gap, never bridged;
 *   - per run with histogram samples, a latency heat map: time x latency bucket, colour = IO count (all
 *     hosts, all directions summed), latency on a log axis.
 * Files are written like charts.c's (<stem>.gp + <stem>.dat, pngcairo and/or svg, noenhanced; user text only
 * in single-quoted strings through esc_gnuplot); charts.c registers them in its chart set (kind 'e').
 */
#ifndef BENCH_REPORT_CHART_TIME_H
#define BENCH_REPORT_CHART_TIME_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/store.h"
#include "report/report.h"

/* One chart written: file stem ("e-03-run-7-time": <stem>.gp, .dat, .png/.svg) and title (raw text). */
struct time_chart {
	char *stem, *title;
};

/*
 * Writes the time charts of up to 24 runs of set into dir (already made), numbering them from first + 1
 * ("e-NN-"), with a PNG and/or an SVG terminal. *out (malloc'd, each member too) lists them in order.
 * Returns 0, or -1 with err (ERR_INPUT: a file cannot be written; store errors).
 */
int chart_time_write(const char *dir, size_t first, struct store *st, const struct rep_set *set, int png, int svg,
		     struct time_chart **out, size_t *n, struct errbuf *err);

#endif
