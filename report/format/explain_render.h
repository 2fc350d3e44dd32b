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

#endif
