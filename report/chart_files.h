/*
 * chart_files: the one writer of a chart's script and data files (charts.c, chart_time.c, chart_curve.c,
 * trend_chart.c): whole files, and an error that names the path.
 */
#ifndef BENCH_REPORT_CHART_FILES_H
#define BENCH_REPORT_CHART_FILES_H

#include "core/errbuf.h"
#include "core/strbuf.h"

/* Writes sb to the file `path` (a chart's script or data): 0, or -1 with ERR_INPUT "cannot write 'PATH': ...". */
int chart_write_text(const char *path, const struct strbuf *sb, struct errbuf *err);
/* The same for the file DIR/STEM.EXT. */
int chart_write_part(const char *dir, const char *stem, const char *ext, const struct strbuf *sb,
		     struct errbuf *err);

#endif
