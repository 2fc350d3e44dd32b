/*
 * escape: making user-given text (labels, names) safe for each output format: CSV, Markdown, HTML, JSON,
 * gnuplot strings and terminal text. Every renderer uses these; nothing user-given is printed raw.
 */
#ifndef BENCH_REPORT_ESCAPE_H
#define BENCH_REPORT_ESCAPE_H

#include "core/strbuf.h"

void esc_csv(struct strbuf *out, const char *s);      /* RFC 4180 field, quoted when needed */
void esc_html(struct strbuf *out, const char *s);     /* & < > " ' */
void esc_markdown(struct strbuf *out, const char *s); /* table cell: | \ ` * _ < > and newlines */
void esc_json(struct strbuf *out, const char *s);     /* with the surrounding quotes */
void esc_gnuplot(struct strbuf *out, const char *s);  /* inside a single-quoted gnuplot string (noenhanced) */
void esc_gnuplot_tic(struct strbuf *out, const char *s);  /* as esc_gnuplot, for a tic label (also a format) */
void esc_gnuplot_data(struct strbuf *out, const char *s); /* a quoted string field of a gnuplot data file */
void esc_text(struct strbuf *out, const char *s);     /* control characters shown as '?' */

#endif
