/*
 * gate_fmt: formatting helpers shared by the gate's renderers (gate_render.c) and its calibration table
 * (gate_calibrate.c). Internal to report/gate*.c; nothing else includes it.
 */
#ifndef BENCH_REPORT_GATE_FMT_H
#define BENCH_REPORT_GATE_FMT_H

#include <stddef.h>

#include "core/strbuf.h"
#include "report/gate/gate.h"

#define GATE_TCOLS 10

/* One row of a text table: GATE_TCOLS malloc'd strings (the unused ones NULL). */
struct gate_trow {
	char *col[GATE_TCOLS];
};

void gate_fmt_value(char *buf, size_t len, double v);            /* "1234", "12.3", "0.123", "-" for NAN */
void gate_fmt_pct(char *buf, size_t len, double ratio);          /* ratio 0.9 -> "-10.0%" */
void gate_fmt_interval(char *buf, size_t len, const struct gate_cell *c); /* "[-12.0%, -8.1%]" */
void gate_fmt_q(char *buf, size_t len, double q);                /* "0.012", "<0.001", "-" */
size_t gate_count_valid(const struct gate_side *s);
void gate_text_cell(struct strbuf *sb, const char *s);           /* sb = s escaped for a terminal */
/* Prints rows (the first is the header) as aligned columns; bit k of right_mask right-aligns column k. The
 * last column is not padded. Frees the strings. */
void gate_emit_table(struct strbuf *out, struct gate_trow *rows, size_t nrows, int ncols, unsigned right_mask);
char *gate_metric_label(const struct gate_metric_info *mi);      /* "read mean latency (us)", malloc'd */

#endif
