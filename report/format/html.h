/*
 * html: the report as one self-contained HTML page: inline CSS (with a print stylesheet: A4, rows and charts
 * never split), charts inlined as SVG (read from the files gnuplot wrote), optionally bench's own inline script
 * (html_report_page) and nothing loaded from anywhere else. Holds a table of contents, the metadata of each
 * configuration (label config=, else suite: hosts, fio versions, kernels (label kernel or cfg.kernel), the
 * stored artifacts, the runs' own start dates; then each configuration's cfg.* facts, once, and its record's
 * text, collapsible), the comparison with colour classes (every value against the baseline), the raw-data
 * table, the charts in a responsive grid, the disk IO of the devices each run names and the list of runs.
 * All user text goes through esc_html.
 */
#ifndef BENCH_REPORT_HTML_H
#define BENCH_REPORT_HTML_H

#include "core/strbuf.h"
#include "report/chart/charts.h"
#include "report/load.h"
#include "report/table.h"

/* Appends the page. `cmp` may be NULL (no ratio table); `cs` may be empty (no charts). */
void html_report(struct strbuf *out, const struct rep_set *set, const struct rep_table *t,
		 const struct cmp_table *cmp, const struct chart_set *cs);

/* Presentation of the page (every field may be NULL). */
struct html_opts {
	const char *title;            /* the page's heading and <title> (default "bench report") */
	const char *caption;          /* a paragraph under the heading and under every chart */
	const struct kvlist *aliases; /* label value aliases (labels.h rep_alias_get) */
	struct store *st;             /* to list each configuration's stored artifacts (configuration records,
				       * job files, engine output); NULL: not listed */
	const char *method_html;      /* the sections of curve_report.h (curves, steady state, jobs) as HTML, put
				       * after the results; NULL or "": none */
	const char *explain_html;     /* `report --explain`: explain_render_html_section's section, put after the
				       * results; NULL or "": none */
};

/* As html_report, with presentation options (`o` may be NULL). */
void html_report_opts(struct strbuf *out, const struct rep_set *set, const struct rep_table *t,
		      const struct cmp_table *cmp, const struct chart_set *cs, const struct html_opts *o);

/* As html_report_opts; `script` 1: the page also carries its one inline script (bench's own text, no user text
 * in it): click a column heading to sort, a filter box for rows and charts, the records opened for printing.
 * 0: no script element at all (html_report_opts). */
void html_report_page(struct strbuf *out, const struct rep_set *set, const struct rep_table *t,
		      const struct cmp_table *cmp, const struct chart_set *cs, const struct html_opts *o,
		      int script);

/*
 * Appends an SVG file made by gnuplot, made fit for inlining: XML prolog and namespace declarations
 * dropped, element ids prefixed with `prefix` so several charts on one page do not collide. Returns -1
 * (nothing appended) when the file cannot be read or holds anything active (script, event handler,
 * external reference).
 */
int html_inline_svg(struct strbuf *out, const char *path, const char *prefix);

#endif
