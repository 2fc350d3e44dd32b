/*
 * chart_files: the files of one gnuplot chart, <stem>.dat (the data) and <stem>.gp (the script that draws
 * it), written in the chart directory. Every chart of the report and of the trend is written through here.
 */
#ifndef BENCH_REPORT_CHART_FILES_H
#define BENCH_REPORT_CHART_FILES_H

#include "core/errbuf.h"
#include "core/strbuf.h"

/*
 * Writes data to <dir>/<stem>.dat, then script to <dir>/<stem>.gp (a NULL buffer: that file is not written).
 * Returns 0, or -1 with err (ERR_INPUT: "cannot write 'PATH': reason"); the script is not written when the
 * data could not be.
 */
int chart_files_write(const char *dir, const char *stem, const struct strbuf *data, const struct strbuf *script,
		      struct errbuf *err);

#endif
