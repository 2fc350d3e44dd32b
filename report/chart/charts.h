/*
 * charts: the report's charts, the ones storage articles publish: what each kind draws. How a chart is
 * written (the chart set, terminals, fonts, --dpi, colours per label value, escaping, the files) is
 * chart_gnuplot.h's, the one chart writer; bench/gnuplot_run.h runs gnuplot on the scripts. Labels on axes
 * come from data files, which gnuplot never evaluates; file names are slugs.
 *
 * Kinds: (a) per workload, grouped bars of IOPS and MiB/s by group (stack), one bar per compared value;
 * (b) per group, every compared value side by side for every workload; (c) the ratio table as a coloured
 * chart (one row per workload and compared value); (d) read and write mean latency per group, and read
 * and write p99 latency per group (two charts). Bar charts
 * (a, b, d) are laid out for print by chart_bars.h (axis titles with units, values on bars, log axis when
 * the data span more than 20x, tick labels that never overlap); each label value keeps one colour in
 * every chart of a set, series and groups are drawn in the order given; (e) charts over time and
 * latency heat maps (chart_time.h);
 * (f) latency CDF from histogram bins (result_bin), several runs overlaid; (g) latency vs IOPS of curves and
 * sweeps (chart_curve.c, curve.h).
 */
#ifndef BENCH_REPORT_CHARTS_H
#define BENCH_REPORT_CHARTS_H

#include "core/errbuf.h"
#include "core/store.h"
#include "core/strbuf.h"
#include "report/chart/chart_gnuplot.h"
#include "report/load.h"
#include "report/table.h"

/* Presentation of the charts (every field may be 0/NULL: the defaults). */
struct chart_opts {
	const struct kvlist *aliases; /* label value aliases (labels.h rep_alias_get) */
	const char *title;            /* prefixed to every chart title ("TITLE: ...") */
	const char *caption;          /* a line under every bar chart */
	int log;                      /* bar charts: -1 auto (span > 20x; the default), 0 never, 1 always */
	int dpi;                      /* PNG resolution (chart_set.dpi; 0: the set's) */
	int short_names;              /* workload ticks W1, W2... with a legend table of the full names */
};

/*
 * Writes scripts and data files for every chart that the selection allows into `dir` (created if missing):
 * with a ratio table (cmp != NULL) kinds a-d compare the sides, else they show the raw table's groups;
 * e and f read samples and histogram bins of the selected runs from the store `st` (store_read.h; NULL: none). `fmts` says which
 * images the scripts produce. Fails with ERR_INPUT when dir cannot be written.
 */
int charts_write(struct chart_set *cs, const char *dir, struct store *st, const struct rep_set *set,
		 const struct rep_table *t, const struct cmp_table *cmp, unsigned fmts, struct errbuf *err);

/* As charts_write with presentation options (`o` may be NULL: the defaults). */
int charts_write_opts(struct chart_set *cs, const char *dir, struct store *st, const struct rep_set *set,
		      const struct rep_table *t, const struct cmp_table *cmp, unsigned fmts,
		      const struct chart_opts *o, struct errbuf *err);

/* Whether metric m has one value (within 0.5 %) in every run of the group's compared rows, or none: its ratios
 * are 1 or missing by construction, not a finding; the ratio chart and the HTML ratio table show "n/a". */
int chart_metric_constant(const struct cmp_table *t, const struct cmp_group *grp, enum rep_metric m);

#endif
