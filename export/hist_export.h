/*
 * hist_export: a stored run's completion-latency histogram as the text the sim ioengine reads with
 * sim_hist=FILE (`bench export --histogram RUN`), so that a modelled target can replay the latency
 * distribution of a measured one. The format, one bin per line after '#' comment lines:
 *
 *   # bench histogram: run 12 'fio-4k-randread', host '*', ddir total, clat
 *   # value_ns count
 *   98304 17
 *
 * value_ns is fio's bucket value (the bucket's midpoint in nanoseconds, shared/reference/fio.md), ascending;
 * count is the number of IOs in the bucket.
 */
#ifndef BENCH_EXPORT_HIST_EXPORT_H
#define BENCH_EXPORT_HIST_EXPORT_H

#include <stdint.h>

#include "core/errbuf.h"
#include "core/store.h"
#include "core/strbuf.h"

/*
 * Appends the histogram of run run_id to out: the bins of its aggregate result (host '*') for ddir ("read",
 * "write", "trim", "total"), or, with ddir NULL, of its 'total' row, or (a run stored without one) of its read,
 * write and trim rows summed (exact: bins of the same bucket add). 0, or -1 with err: ERR_INPUT for a run that
 * is not there or has no bins ("run 3 ('x') has no latency histogram for total (...)"), ERR_STORE.
 */
int hist_export(struct store *st, int64_t run_id, const char *ddir, struct strbuf *out, struct errbuf *err);

#endif
