/*
 * explain_render: `bench report --explain`, one verdict per row of the table (or of the comparison): the ceiling
 * this setup could reach, the measured figure as a % of it, what limited the result and the evidence for it,
 * in the report's format (docs/explain.md has the model table and its sources).
 */
#ifndef BENCH_REPORT_EXPLAIN_RENDER_H
#define BENCH_REPORT_EXPLAIN_RENDER_H

#include "core/errbuf.h"
#include "core/store.h"
#include "core/strbuf.h"
#include "report/format/render.h"
#include "report/load.h"
#include "report/table.h"

/*
 * Appends the verdicts of every row of `table` (or of `cmp` when not NULL) to out, in `format`. Reads the
 * baselines and configuration facts it needs from st. Returns 0, or -1 with err set.
 */
int explain_render(struct strbuf *out, struct store *st, const struct rep_set *set, const struct rep_table *table,
		   const struct cmp_table *cmp, enum rep_format format, struct errbuf *err);

/*
 * The HTML page's section (for report/format/html.c): a <section class="explain"> with one table row per
 * verdict of `table` (or of `cmp` when not NULL): group, workload, compared value, IOPS, ceiling, % of it,
 * "limited by" (its cell's class is "limit-KEY", KEY as in the JSON's limited_by) and the evidence; every
 * user text escaped for HTML. Reads the stored member baselines (phase=baseline runs) from st. 0, or -1 with
 * err (ERR_STORE) when they cannot be read.
 */
int explain_render_html_section(struct strbuf *out, struct store *st, const struct rep_table *table,
				const struct cmp_table *cmp, struct errbuf *err);

#endif
