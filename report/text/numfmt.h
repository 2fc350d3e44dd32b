/*
 * numfmt: how report/ writes a number: rounded for reading (text, Markdown, cells) or at full precision
 * (CSV, JSON). A leaf of report/: every renderer and cell builder uses it, it uses nothing of report/.
 */
#ifndef BENCH_REPORT_NUMFMT_H
#define BENCH_REPORT_NUMFMT_H

#include "core/strbuf.h"

/* A number rounded for reading: `decimals` places, thousands not separated; "-" for NAN. */
void render_num(struct strbuf *out, double v, int decimals);

/* A full-precision number for CSV/JSON ("" in CSV and null in JSON for NAN: `nan_text`). */
void render_exact(struct strbuf *out, double v, const char *nan_text);

#endif
