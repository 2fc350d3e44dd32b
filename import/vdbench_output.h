/*
 * vdbench_output: reading a vdbench output directory (flatfile.html, totals.html, logfile.html, parmfile.html;
 * vdbench 5.04.01 to 5.04.07) into stored runs, for `bench import DIR`. One run per `avg_` row of the
 * flatfile (vdbench's run totals); reference/vdbench.md has the layout.
 */
#ifndef BENCH_IMPORT_VDBENCH_OUTPUT_H
#define BENCH_IMPORT_VDBENCH_OUTPUT_H

#include "core/errbuf.h"
#include "import/import.h"

/* 1 when path is a directory holding a flatfile.html (a vdbench output directory). */
int vdbench_output_detect(const char *path);

/*
 * Reads the output directory `dir` into `out` (initialised by the caller): per run, the aggregate host
 * ("*") with total/read/write IO/s, bandwidth (MB/sec x 2^20 B/s), mean, max and stddev response time
 * (ms -> ns), and a CPU row (source "vdbench") with user, kernel, wait, idle and util = user + kernel
 * (cpu_used recomputed). `n/a` is missing. Run names are the rd names; labels: vdbench.rd, vdbench.wd
 * (from parmfile.html), vdbench.forloops (from totals.html), vdbench.format=yes for automatic format runs,
 * vdbench.version. Returns 0, or -1 with err set (ERR_INPUT, "file:line: reason").
 */
int vdbench_output_import(const char *dir, struct import_batch *out, struct errbuf *err);

#endif
