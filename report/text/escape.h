/*
 * escape: making user-given text (labels, names) safe for each output format: CSV, Markdown, HTML, XML, JSON,
 * gnuplot strings and terminal text. This is the one home of escaping: every renderer uses these, nothing
 * user-given is printed raw (docs/safety.md).
 *
 * Input is any byte string. Every escaper reads it as UTF-8 (utf8_decode): a byte that does not start a valid,
 * shortest-form sequence of a Unicode scalar value (no overlong forms, no surrogates, nothing above U+10FFFF)
 * becomes U+FFFD, so every output is valid UTF-8. Control characters (C0, DEL, C1) never pass through raw.
 */
#ifndef BENCH_REPORT_ESCAPE_H
#define BENCH_REPORT_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"

/*
 * Decodes one code point at s (at most `len` bytes): returns it and sets *used (1..4); an invalid or cut-short
 * sequence returns -1 with *used = 1 (that byte alone is skipped).
 */
int32_t utf8_decode(const char *s, size_t len, size_t *used);

/* The next code point of a NUL-terminated string, U+FFFD for a byte that starts no valid sequence; advances
 * *s past what it read. Every escaper walks its input with it. */
int32_t utf8_next(const char **s);
void utf8_add(struct strbuf *out, int32_t cp); /* cp (a Unicode scalar value) as UTF-8 */

/* RFC 4180 field, quoted when needed. A cell whose first non-blank character is = + - @ tab or CR (a
 * spreadsheet formula lead) gets a leading apostrophe, unless the whole cell is a plain number ("-1.5"). */
void esc_csv(struct strbuf *out, const char *s);
void esc_html(struct strbuf *out, const char *s);     /* & < > " ' ; control characters other than tab/LF dropped */
void esc_markdown(struct strbuf *out, const char *s); /* table cell: | \ ` * _ < > and newlines */
/* XML 1.0 character data: & < > escaped (so "]]>" never appears), characters XML forbids (C0 but tab, LF, CR;
 * U+FFFE, U+FFFF) and C1 controls removed. */
void esc_xml_text(struct strbuf *out, const char *s);
/* XML 1.0 attribute value (inside "..." or '...'): as esc_xml_text, plus " ' and tab, LF, CR as references. */
void esc_xml_attr(struct strbuf *out, const char *s);
void esc_json(struct strbuf *out, const char *s);     /* with the surrounding quotes; always valid UTF-8 */
void esc_gnuplot(struct strbuf *out, const char *s);  /* inside a single-quoted gnuplot string (noenhanced) */
void esc_gnuplot_tic(struct strbuf *out, const char *s);  /* as esc_gnuplot, for a tic label (also a format) */
void esc_gnuplot_data(struct strbuf *out, const char *s); /* a quoted string field of a gnuplot data file */
void esc_text(struct strbuf *out, const char *s);
/*
 * Backslash escaping of InfluxDB line protocol and OpenMetrics (export/export.c): LF as the two characters
 * \n (CR as \r when `cr`), a backslash and each ASCII character of `special` after a backslash; other control
 * characters but tab (C0, DEL, C1) dropped, invalid UTF-8 as U+FFFD like every escaper here.
 */
void esc_backslash(struct strbuf *out, const char *s, const char *special, int cr);     /* terminal: control characters (ESC, C1, ...) shown as '?' */

#endif
