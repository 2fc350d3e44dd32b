/*
 * fio_log_import: fio log files (averaged or per-IO logs, histogram logs) as imported runs, or as series
 * attached to a stored run (--run ID). The readers are engines/fio_log.h and engines/fio_histlog.h (the run
 * loop reads the logs of `bench run --logs` with them too); this file makes the runs of an import batch.
 */
#ifndef BENCH_IMPORT_FIO_LOG_IMPORT_H
#define BENCH_IMPORT_FIO_LOG_IMPORT_H

#include <stdint.h>

#include "core/errbuf.h"
#include "import/import.h"

/*
 * `bench import LOG`: one run named after the file with the samples (and, for a per-IO latency log, results
 * with histogram and percentiles), or, with target_run_id > 0, only the samples to be attached to that
 * existing run. The host is "localhost", or HOST for a log fio's client wrote for a server
 * (NAME_KIND.N.log.HOST; its metric is the one of NAME_KIND.N.log). Logs of several servers attached to one
 * run (--run ID) are kept per host: a log imported again replaces only its own host's series.
 */
int fio_log_import(const char *path, int64_t target_run_id, struct import_batch *out, struct errbuf *err);

/* 1 when path is a fio log (engines/fio_log.h fio_log_detect), also one fio's client named NAME.log.HOST. */
int fio_log_detect_import(const char *path);

/* `bench import HISTLOG [--run ID]`: its histogram samples on host "localhost" (or the client's HOST, as
 * fio_log_import), in a new run or attached. */
int fio_histlog_import(const char *path, int64_t target_run_id, struct import_batch *out, struct errbuf *err);

#endif
