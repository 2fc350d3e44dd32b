/*
 * render: the raw-data table and the ratio table as text (aligned columns, ANSI colour on request), CSV,
 * Markdown and JSON, appended to a strbuf (the caller prints it). Every label and name goes through the
 * escaper of its format (escape.h). Numbers in CSV and JSON keep full precision (%.17g) so that figures
 * can be recomputed exactly; text and Markdown round for reading.
 */
#ifndef BENCH_REPORT_RENDER_H
#define BENCH_REPORT_RENDER_H

#include "core/strbuf.h"
#include "report/text/numfmt.h"
#include "report/load.h"
#include "report/table.h"

enum rep_format { FMT_TEXT = 0, FMT_CSV, FMT_JSON, FMT_MARKDOWN, FMT_HTML };

/* "text", "csv", "json", "markdown" (or "md"), "html"; -1 when unknown. */
int rep_format_parse(const char *s, enum rep_format *out);

enum render_show { SHOW_VALUES = 1 << 0, SHOW_RATIOS = 1 << 1 };

struct render_opts {
	int color;    /* text: ANSI colours (only when the caller decided: terminal or --color=always) */
	int verbose;  /* also list every run (with failed/aborted ones and their errors) and each host */
	unsigned show; /* comparison in text and Markdown: SHOW_VALUES and/or SHOW_RATIOS; 0: the default (ratios
			* with two values, values and ratios with more) */
};

/* Parses --show "values", "ratios" or "values,ratios" into SHOW_* bits; -1 when unknown. */
int render_show_parse(const char *s, unsigned *out);

/* Raw-data table; `set` is used for the verbose run list (it may hold runs of every status). */
void render_table(struct strbuf *out, const struct rep_table *t, const struct rep_set *set, enum rep_format f,
		  const struct render_opts *o);

/* Comparison with the unmatched rows. Two values with ratios only: one row per workload (A/B); else one
 * row per workload and value, the baseline marked. CSV: with two values one row per workload (_a, _b,
 * _ratio columns), with more one row per workload and value (columns value, baseline, runs, each metric
 * and its _ratio to the baseline). JSON always has "values" and each row's "by_value". */
void render_compare(struct strbuf *out, const struct cmp_table *t, enum rep_format f, const struct render_opts *o);

/* What the table's "CPU %" means and where its figures came from (source and number of runs), one sentence
 * unescaped: text, Markdown and HTML print the same definition. */
void render_cpu_note(struct strbuf *out, const struct rep_table *t);

/* A cell for reading: median, and " (min-max)" when two repetitions differ, " [lo-hi]" (the interval of the
 * median, rep_cell.lo/hi) with n >= 3. */
void render_cell(struct strbuf *out, const struct rep_cell *c, int decimals);

/* The marks of a row after its name: " (partial)", " (n=1)", " (short)" (rep_row flags). */
void render_row_marks(struct strbuf *sb, const struct rep_row *row);

/* What the marks (n=1) and (short) mean, a line each for those set, unescaped. */
void render_marks_note(struct strbuf *out, int single, int short_run);

/* A label list as a JSON object {"key":"value",...} (a NULL value as ""). */
void render_json_labels(struct strbuf *out, const struct kvlist *l);

/* ---- the one text-table layouter: rows of cells as aligned text or a Markdown pipe table ---------- */

struct rgcell {
	char *s;            /* already escaped for the target format */
	const char *ansi;   /* colour for text, or NULL */
};

struct rgrid {
	struct rgcell *c;
	size_t ncols, nrows, cap;
	unsigned char right[32]; /* column is right-aligned */
};

void rgrid_init(struct rgrid *g, size_t ncols);
void rgrid_release(struct rgrid *g);
/* Starts a row of empty cells. */
void rgrid_row(struct rgrid *g);
/* Sets a cell of the last row from raw text, escaping it for the format (HTML, Markdown, else text). */
void rgrid_set(struct rgrid *g, size_t col, const char *raw, enum rep_format f, const char *ansi);
/* Sets a cell of the last row to a number for reading (render_num: "-" when NAN). */
void rgrid_num(struct rgrid *g, size_t col, double v, int decimals, enum rep_format f);
/* Lays the rows out: aligned columns (colour with `color`), a Markdown table or an HTML table (the first row
 * the header). */
void rgrid_print(struct strbuf *out, const struct rgrid *g, enum rep_format f, int color);
/* A section heading: "== TITLE" (level <= 2) or "-- TITLE" in text, "### TITLE" in Markdown, <h3> in HTML. */
void render_heading(struct strbuf *out, enum rep_format f, int level, const char *raw);
/* A level-2 section of a table: its heading (with one more blank line in Markdown), then g initialised with
 * ncols columns and the header row hdr[0..ncols). */
void rgrid_section(struct strbuf *out, enum rep_format f, const char *title, struct rgrid *g,
		   const char *const *hdr, size_t ncols);

#endif
