/*
 * curve_report: what `bench report` adds to its tables when the selected runs carry the labels of the
 * measurement method (docs/method.md): the runs that are not measured results (precondition phases, steady-state
 * rounds) taken out of the tables with a count, the curves and sweeps (curve.h: knee, "max IOPS at p99 <= X"
 * per configuration, ratios between configurations at equal latency under --compare), the steady state of each
 * run that has one (steady.h's words, and fio's own ss= result), and the per-job figures of runs of several
 * jobs (--jobs). In text, Markdown, CSV, JSON and HTML; every label goes through its format's escaper
 * (escape.h). Nothing here prints.
 */
#ifndef BENCH_REPORT_CURVE_REPORT_H
#define BENCH_REPORT_CURVE_REPORT_H

#include <stddef.h>

#include "core/strbuf.h"
#include "report/analysis/curve.h"
#include "report/format/render.h"
#include "report/load.h"

/* Runs taken out of the measured rows (rep_set_drop_method). */
struct method_left {
	size_t precondition;      /* runs labelled phase=precondition */
	size_t rounds;            /* steady-state rounds: ss_round=N without steady_state= */
};

/* Removes precondition runs and steady-state rounds from `set` (they are not measured results) and counts them. */
void rep_set_drop_method(struct rep_set *set, struct method_left *left);

/* Whether a run is a point of a curve or sweep (curve_pct=, vdbench.curve_pct=, sweep.*=). */
int rep_run_is_curve_point(const struct rep_run *r);

/* What the report shows besides its tables. */
struct method_view {
	struct method_left left;
	struct curve_set curves;  /* of the curve and sweep points of the selection; curves.n == 0: none */
	const double *p99_ms;     /* the "max IOPS at p99 <= X" limits, ms */
	size_t nlim;
	const char *cmp_key;      /* --compare key (NULL: ratios to the first configuration are not shown) */
	char *const *cmp_vals;    /* its values, the baseline last */
	size_t cmp_n;
	const struct rep_set *set; /* the measured runs (steady state, jobs) */
	struct store *st;         /* for --jobs; NULL: no job rows */
};

/*
 * Builds the curves of the curve and sweep points of `set` (none: curves.n stays 0), grouped by `by` (empty:
 * the configuration labels). ERR_USAGE on a bad knee factor.
 */
int method_view_build(struct method_view *mv, const struct rep_set *set, const struct kvlist *by,
		      struct errbuf *err);
void method_view_release(struct method_view *mv);

/*
 * Appends the sections after the table: the note on runs left out, the curves (max IOPS at p99 <= X with
 * ratios, knees), the steady state of each run that carries it, and with `jobs` the per-job rows. Text and
 * Markdown: sections; CSV: each section a table of its own after a blank line, its first column the section's
 * name; JSON: members added to the report's object (out must end with the object's "}\n"); HTML: sections
 * of the page. ERR_STORE when the job rows cannot be read.
 */
int method_render(struct strbuf *out, const struct method_view *mv, enum rep_format f, int jobs,
		  struct errbuf *err);

#endif
