/*
 * chart_bars: the bar charts of the report laid out for print (gnuplot body and data, charts.c writes the
 * files). One or more panels side by side (IOPS, MiB/s, ...), one bar per series in each category, in the
 * order given; axis titles with units; the value on every bar (horizontal when it fits the bar, else
 * vertical); a log y axis when a panel's values span more than BARS_LOG_SPAN (or on request); tick labels
 * that never overlap at any count: wrapped to the room of their category, else turned vertical, and the
 * chart widened when even vertical ones would not fit; optional short names (W1, W2...) with a legend table
 * of the full names under the plot; a caption line; error bars (whiskers) where a panel has them (repeated
 * runs: min-max), the value label above the whisker. Geometry is computed in pixels of the SVG terminal
 * (font BARS_FONT_PX) and the PNG terminal is the same picture scaled (300 dpi: x 3.125).
 *
 * User text (titles, categories, series) reaches the script only through esc_gnuplot / esc_gnuplot_tic
 * (single-quoted strings; a wrapped tick label is single-quoted pieces joined with .NL., NL being a newline
 * made by sprintf('%c', 10): no script holds a double-quoted string).
 */
#ifndef BENCH_REPORT_CHART_BARS_H
#define BENCH_REPORT_CHART_BARS_H

#include <stddef.h>

#include "core/strbuf.h"

#define BARS_LOG_SPAN 20.0  /* auto log scale above this max/min of a panel's positive values */
#define BARS_FONT_PX 11     /* SVG font size the layout is computed for */

struct bar_panel {
	const char *title;        /* "IOPS" */
	const char *ylabel;       /* axis title with the unit: "IOPS (IO/s)" */
	const double *v;          /* [ncat * nser]: v[cat * nser + series]; NAN missing */
	const double *lo, *hi;    /* [ncat * nser] or NULL: an error bar (whisker) from lo to hi; NAN none */
	int log;                  /* out: the panel was drawn on a log axis */
};

struct bar_spec {
	const char *title;        /* chart title (raw) */
	const char *caption;      /* or NULL: a line under the chart */
	const char *xlabel;       /* axis title of the categories ("stack", "workload") */
	const char *const *cats;  /* [ncat] tick labels (raw), in order */
	size_t ncat;
	const char *const *series; /* [nser] legend names (raw), in order; nser 1: no legend */
	size_t nser;
	const char *const *rgb;   /* [nser] "#rrggbb" per series, or [ncat] when per_cat */
	int per_cat;              /* colour each category's bar (nser must be 1) */
	struct bar_panel *panels;
	size_t npanels;
	int log;                  /* -1 auto, 0 never, 1 always */
	int short_names;          /* W1.. ticks with a legend table */
	const char *datafile;     /* the data file's name (a slug made by charts.c) */
	int width_px, height_px;  /* out: the size of the picture in SVG pixels */
};

/* Appends the script body (between `set terminal` and `unset output`) and the data file text. */
void bars_write(struct strbuf *body, struct strbuf *data, struct bar_spec *b);

/* The text of a value label: "285k", "1.25M", "1112", "12.5", "0.17". */
void bars_value_text(struct strbuf *out, double v);

#endif
