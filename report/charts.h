/*
 * charts: gnuplot scripts (and their data files) for the charts storage articles publish. This module only
 * WRITES files into a directory; bench/ runs `gnuplot SCRIPT` (argv, core/proc.h) in that directory. Every
 * label and name that reaches a script is escaped for a single-quoted gnuplot string (esc_gnuplot), and
 * labels on axes come from data files, which gnuplot never evaluates; file names are slugs made here. The
 * terminals are pngcairo and svg, both `noenhanced` so that no label text is interpreted.
 *
 * Kinds: (a) per workload, grouped bars of IOPS and MiB/s by group (stack), one bar per compared value;
 * (b) per group, every compared value side by side for every workload; (c) the ratio table as a coloured
 * chart (one row per workload and compared value); (d) read and write mean latency per group. Bar charts
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
#include "report/report.h"

enum chart_fmt { CHART_PNG = 1 << 0, CHART_SVG = 1 << 1 };

struct chart {
	char kind;          /* 'a' .. 'f'; 'g' latency vs IOPS (curve.h) */
	char *stem;         /* file name without extension: "b-02-mdadm-raid5" (slug: [a-z0-9-]) */
	char *title;        /* raw (unescaped) title for the HTML page */
	char *script;       /* "<stem>.gp" */
	int width_px;       /* the SVG's width in pixels (its natural size on a page) */
};

/* Presentation of the charts (every field may be 0/NULL: the defaults). */
struct chart_opts {
	const struct kvlist *aliases; /* label value aliases (report.h rep_alias_get) */
	const char *title;            /* prefixed to every chart title ("TITLE: ...") */
	const char *caption;          /* a line under every bar chart */
	int log;                      /* bar charts: -1 auto (span > 20x; the default), 0 never, 1 always */
	int dpi;                      /* PNG resolution: 0 = 96 (screen); 300 for print (same picture, scaled) */
	int short_names;              /* workload ticks W1, W2... with a legend table of the full names */
};

struct chart_set {
	char *dir;          /* where scripts, data and images are */
	struct chart *v;
	size_t n, cap;
	struct kvlist colors; /* "key=value" (or a series name) -> palette index: one colour per label value
			       * across every chart of the set */
	const struct chart_opts *o; /* during charts_write_opts only */
};


void chart_set_init(struct chart_set *cs);
void chart_set_release(struct chart_set *cs);

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

/* Path of a chart's output with this extension ("svg", "png", "dat"), malloc'd. */
char *chart_path(const struct chart_set *cs, const struct chart *c, const char *ext);

/* Removes every file charts_write made (scripts, data, images) and the directory if it is then empty. */
void charts_remove(const struct chart_set *cs);


/* A file-name slug of s: lower-case letters, digits and '-', at most 48 characters, never empty. */
void chart_slug(struct strbuf *out, const char *s);

#endif
