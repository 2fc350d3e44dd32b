/*
 * fio_json_import: a fio JSON/JSON+ output file as imported runs. The parser is engines/fio_json.h (the fio
 * engine reads fio's live output with it too); this file turns its jobs into runs of an import batch.
 */
#ifndef BENCH_IMPORT_FIO_JSON_IMPORT_H
#define BENCH_IMPORT_FIO_JSON_IMPORT_H

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/model.h"
#include "engines/fio_json.h"
#include "import/import.h"

/*
 * Reads a fio JSON/JSON+ output file into runs: jobs[] gives one run per entry (per job, or per group with
 * group_reporting), host "localhost" plus the aggregate; client_stats[] gives one run per job name and group
 * with one host result per server (several entries of one server in a group are combined) plus the
 * aggregate. The workload comes from the global and job options; fio's steady-state result (ss=) becomes the
 * run's fio.ss labels (fio_ss_labels); the whole file is kept as the artifact "fio-output.json" of every run.
 * Fails with ERR_INPUT and one line "path: reason" for an empty file, a directory, a truncated document or a
 * JSON document that is not fio's.
 */
int fio_json_import(const char *path, struct import_batch *out, struct errbuf *err);

/* Fills a workload (initialised) from fio options (global then job, job wins): tool "fio", rw, bs, read %,
 * random %, iodepth, numjobs, runtime, ramp, size, compress/dedupe %, all options verbatim in opts. */
void fio_options_to_workload(const struct kvlist *opts, struct workload *wl);

#endif
