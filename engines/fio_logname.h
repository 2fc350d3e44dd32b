/*
 * fio_logname: what a fio log file's name says: the job it belongs to (fio names logs NAME_KIND[.N].log) and
 * the server it was written for (fio --client names the log of each server NAME_KIND[.N].log.HOST, client.c
 * handle_job_log: "%s.%s" of the log's name and the server's host as given to --client).
 */
#ifndef BENCH_ENGINES_FIO_LOGNAME_H
#define BENCH_ENGINES_FIO_LOGNAME_H

#include <stddef.h>

/* The job of a log file name: "bench_iops.2.log[.ADDR]" -> "bench.2", "x_lat.log" -> "x"; "" if none. */
void fio_log_job_from_name(const char *path, char *job, size_t len);

/*
 * The host fio's client appended to the name of a log it wrote for a server: "fio_iops.1.log.10.0.0.11" ->
 * "10.0.0.11", "x_clat_hist.2.log.lab1" -> "lab1" (a pointer into path); NULL for a log fio wrote itself
 * ("fio_iops.1.log") or a name that is no log's.
 */
const char *fio_log_client_host(const char *path);

#endif
