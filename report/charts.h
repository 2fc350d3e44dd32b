/*
 * charts: gnuplot scripts (and their data files) for the charts storage articles publish. This module only
 * WRITES files into a directory; bench/ runs `gnuplot SCRIPT` (argv, core/proc.h) in that directory. Every
 * label and name that reaches a script is escaped for a single-quoted gnuplot string (esc_gnuplot), and
 * labels on axes come from data files, which gnuplot never evaluates; file names are slugs made here. The
 * terminals are pngcairo and svg, both `noenhanced` so that no label text is interpreted.
 *
 * Kinds: (a) per workload, grouped bars of IOPS and MiB/s by group (stack) for each compared side;
 * (b) per group, A and B side by side for every workload; (c) the ratio table as a coloured chart;
 * (d) read/write mean latency bars per group; (e) charts over time and latency heat maps (chart_time.h);
 * (f) latency CDF from histogram bins (result_bin), several runs overlaid.
 */
#ifndef BENCH_REPORT_CHARTS_H
#define BENCH_REPORT_CHARTS_H

#include "core/errbuf.h"
#include "core/store.h"
#include "core/strbuf.h"
#include "report/report.h"

enum chart_fmt { CHART_PNG = 1 << 0, CHART_SVG = 1 << 1 };

struct chart {
	char kind;          /* 'a' .. 'f' */
	char *stem;         /* file name without extension: "b-02-mdadm-raid5" (slug: [a-z0-9-]) */
	char *title;        /* raw (unescaped) title for the HTML page */
	char *script;       /* "<stem>.gp" */
};

struct chart_set {
	char *dir;          /* where scripts, data and images are */
	struct chart *v;
	size_t n, cap;
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

/* Path of a chart's output with this extension ("svg", "png", "dat"), malloc'd. */
char *chart_path(const struct chart_set *cs, const struct chart *c, const char *ext);

/* Removes every file charts_write made (scripts, data, images) and the directory if it is then empty. */
void charts_remove(const struct chart_set *cs);

/* A file-name slug of s: lower-case letters, digits and '-', at most 48 characters, never empty. */
void chart_slug(struct strbuf *out, const char *s);

#endif
