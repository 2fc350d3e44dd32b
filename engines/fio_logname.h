/*
 * fio_logname: the job a fio log file belongs to, from its name (fio names logs NAME_KIND[.N].log, and
 * fio --client appends .HOST), and the imported run a log file makes, named after the file.
 */
#ifndef BENCH_ENGINES_FIO_LOGNAME_H
#define BENCH_ENGINES_FIO_LOGNAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/import.h"

/* The job of a log file name: "bench_iops.2.log[.ADDR]" -> "bench.2", "x_lat.log" -> "x"; "" if none. */
void fio_log_job_from_name(const char *path, char *job, size_t len);

/*
 * Adds to `out` the run that `bench import` of the log file at path fills: the batch's suite is named path,
 * the run after the file's base name, engine "import", tool fio, source file path; target_run_id as given
 * (non-zero: the samples go to that stored run). Returns the run (owned by out).
 */
struct imported_run *fio_log_import_run(const char *path, int64_t target_run_id, struct import_batch *out);

#endif
