/*
 * chart_gnuplot: the one chart writer behind every chart kind bench draws (the report's bars, ratio grid,
 * time series, heat maps and CDFs in charts.c and chart_time.c, the curves of chart_curve.c, the trend
 * charts of trend_chart.c). It owns what all of them share, so that no two kinds can disagree about it:
 *   - the chart set: the directory charts go to, the charts written, the images asked for and the PNG
 *     resolution, and one colour per label value across every chart of the set;
 *   - the script: its preamble, the terminals (pngcairo and svg, `noenhanced` so that no label text is
 *     interpreted, one font), `--dpi` (the PNG is the same picture scaled: pixels, fonts, lines and points
 *     alike; the SVG is resolution-free), and the files <stem>.gp and <stem>.dat;
 *   - gnuplot strings of user text, through report/text/escape.h (esc_gnuplot: the one escaper);
 *   - the one parser of a --dpi value.
 * A chart kind appends only its body (what is drawn between `set output` and `unset output`) and its data.
 * Nothing here runs gnuplot (design.md: report/ never runs a program): bench/gnuplot_run.h does.
 */
#ifndef BENCH_REPORT_CHART_GNUPLOT_H
#define BENCH_REPORT_CHART_GNUPLOT_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/strbuf.h"

enum chart_fmt { CHART_PNG = 1 << 0, CHART_SVG = 1 << 1 };

#define CHART_DPI_SCREEN 96   /* the PNG resolution without --dpi: one PNG pixel per SVG pixel */
#define CHART_DPI_MIN 50
#define CHART_DPI_MAX 1200
#define CHART_TREND 't'       /* kind of a trend chart (stem "trend-NN-..."); the report's are 'a' .. 'g' */

struct chart {
	char kind;          /* 'a' .. 'g' (charts.h), CHART_TREND */
	char *stem;         /* file name without extension: "b-02-mdadm-raid5" (slug: [a-z0-9-]) */
	char *title;        /* raw (unescaped) title for the HTML page */
	char *script;       /* "<stem>.gp" */
	int width_px;       /* the SVG's width in pixels (its natural size on a page) */
};

struct chart_opts;      /* charts.h: the report's presentation options */

struct chart_set {
	char *dir;          /* where scripts, data and images are (chart_set_dir) */
	struct chart *v;
	size_t n, cap;
	struct kvlist colors; /* "key=value" (or a series name) -> palette index: one colour per label value
			       * across every chart of the set */
	unsigned fmts;      /* the images every script makes: CHART_PNG | CHART_SVG */
	int dpi;            /* PNG resolution; 0 = CHART_DPI_SCREEN */
	const struct chart_opts *o; /* during charts_write_opts only */
	const struct kvlist *aliases; /* label value aliases (--alias) during charts_write_opts; NULL: none */
};

void chart_set_init(struct chart_set *cs);
void chart_set_release(struct chart_set *cs);

/*
 * Makes `dir` the set's directory, creating it when missing. -1 with ERR_INPUT when it is not a directory or
 * cannot be made ("chart directory 'DIR': ...").
 */
int chart_set_dir(struct chart_set *cs, const char *dir, struct errbuf *err);

/* Path of a chart's output with this extension ("svg", "png", "dat"), malloc'd. */
char *chart_path(const struct chart_set *cs, const struct chart *c, const char *ext);

/* Drops chart i from the set (a chart gnuplot could not draw); its files stay until charts_remove. */
void chart_set_drop(struct chart_set *cs, size_t i);

/* Removes every file of the set's charts (scripts, data, images) and the directory if it is then empty. */
void charts_remove(const struct chart_set *cs);

/* A file-name slug of s: lower-case letters, digits and '-', at most 48 characters, never empty. */
void chart_slug(struct strbuf *out, const char *s);

/*
 * The colour ("#rrggbb", static) of a label value ("transport=nvmeof") or a group or series name
 * ("stack=zfs-raidz"): the same in every chart of the set, the next palette entry (colour-blind-safe) for a
 * key not seen before.
 */
const char *chart_color(struct chart_set *cs, const char *key);

/* Entry i of the palette (wrapping after its 12 colours): the lines of one chart that are not label values
 * (the runs of a CDF). */
const char *chart_palette(size_t i);

/* The alias of label key=value in the set's presentation options (--alias, labels.h rep_alias_get), or
 * `value` itself: every chart kind names label values through this. */
const char *chart_alias(const struct chart_set *cs, const char *key, const char *value);

/* A --dpi value: a whole number CHART_DPI_MIN..CHART_DPI_MAX. 0, or -1 when s is not one. */
int chart_dpi_parse(const char *s, int *dpi);

/* One chart being written: a kind appends to title, body and data, then calls chart_gp_finish. */
struct chart_gp {
	struct chart_set *cs;
	char kind;
	struct strbuf stem;  /* "<kind>-NN-<slug of name>" ("trend-NN-..." for CHART_TREND), NN = its number */
	struct strbuf title; /* raw text */
	struct strbuf body;  /* the drawing commands, the same for every terminal */
	struct strbuf data;  /* the data file's text */
	int width, height;   /* the picture in SVG pixels (the PNG's at CHART_DPI_SCREEN) */
};

void chart_gp_begin(struct chart_gp *g, struct chart_set *cs, char kind, const char *name, int width,
		    int height);
/* Releases a chart that is not written. */
void chart_gp_discard(struct chart_gp *g);
/*
 * Writes <stem>.dat and <stem>.gp into the set's directory (the preamble, then per image of cs->fmts its
 * terminal at cs->dpi, output, the body and `unset output`), adds the chart to the set and releases g.
 * 0, or -1 with ERR_INPUT "cannot write 'PATH': ..." (g released as well).
 */
int chart_gp_finish(struct chart_gp *g, struct errbuf *err);

/* s as a single-quoted gnuplot string ('...', escaped): the only way user text reaches a script. */
void chart_gp_str(struct strbuf *sb, const char *s);
/* A line break between two chart_gp_str strings of one title: " . sprintf('%c', 10) . " (gnuplot joins the
 * strings; single quotes only, like every string bench writes into a script). */
void chart_gp_newline(struct strbuf *sb);
/* A number for a data file (" %.10g"; " NaN" for NaN and infinities, which the preamble marks missing). */
void chart_gp_num(struct strbuf *sb, double v);
/* The chart's data file name as a gnuplot string: '<stem>.dat'. */
void chart_gp_datafile(struct chart_gp *g, struct strbuf *sb);

#endif
