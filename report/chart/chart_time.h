/*
 * chart_time: the report's charts over time (kind 'e' of report/chart/charts.h; docs/timeseries.md), from the
 * stored samples through core/series.h, so the charts draw exactly the aggregates the store defines:
 *   - per run, one chart of stacked panels on the run's clock (s since the end of ramp): IOPS, MiB/s, mean
 *     latency and p99 latency (from the histogram logs), each per host and for all hosts, p50/p90/p99/p99.9
 *     of all hosts (summed bins), and CPU % per host;
 *     latency in us or ms (said in the axis title); a window without samples is a gap, never bridged;
 *     every panel of a run on one x range (the span of its samples); a partial last window (shorter than
 *     9/10 of the others: fio's remainder of the run) left out, which the title says; no chart for a run
 *     with CPU samples only (no --logs: one flat line); the drawn title without the cfg.* facts and at
 *     most 110 characters (the HTML caption has all); label values aliased (--alias);
 *   - per run with histogram samples, a latency heat map: time x latency bucket, colour = IO count (all
 *     hosts, all directions summed), latency on a log axis.
 * The bodies and data go to the one chart writer (chart_gnuplot.h: terminals, --dpi, files; user text only
 * in single-quoted strings through chart_gp_str), which adds them to the report's chart set (kind 'e').
 */
#ifndef BENCH_REPORT_CHART_TIME_H
#define BENCH_REPORT_CHART_TIME_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/store.h"
#include "report/chart/chart_gnuplot.h"
#include "report/load.h"

/*
 * Writes the time charts of every run of set (no cap) into the chart set (kind 'e', numbered on from the set's
 * charts: "e-NN-run-ID-time", "e-NN-run-ID-heatmap"), through the one chart writer (chart_gnuplot.h).
 * Returns 0, or -1 with err (ERR_INPUT: a file cannot be written; store errors).
 */
int chart_time_write(struct chart_set *cs, struct store *st, const struct rep_set *set, struct errbuf *err);

#endif
