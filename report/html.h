/*
 * html: the report as one self-contained HTML page: inline CSS, charts inlined as SVG (read from the files
 * gnuplot wrote), no script and nothing loaded from anywhere else. Holds a table of contents, the suites'
 * metadata (labels, hosts, fio versions, dates), the ratio table with colour classes, the raw-data table,
 * the charts and the list of runs. All user text goes through esc_html.
 */
#ifndef BENCH_REPORT_HTML_H
#define BENCH_REPORT_HTML_H

#include "core/strbuf.h"
#include "report/charts.h"
#include "report/report.h"

/* Appends the page. `cmp` may be NULL (no ratio table); `cs` may be empty (no charts). */
void html_report(struct strbuf *out, const struct rep_set *set, const struct rep_table *t,
		 const struct cmp_table *cmp, const struct chart_set *cs);

/*
 * Appends an SVG file made by gnuplot, made fit for inlining: XML prolog and namespace declarations
 * dropped, element ids prefixed with `prefix` so several charts on one page do not collide. Returns -1
 * (nothing appended) when the file cannot be read or holds anything active (script, event handler,
 * external reference).
 */
int html_inline_svg(struct strbuf *out, const char *path, const char *prefix);

#endif
