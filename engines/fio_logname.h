/*
 * fio_logname: the job a fio log file belongs to, from its name (fio names logs NAME_KIND[.N].log, and
 * fio --client appends .HOST).
 */
#ifndef BENCH_ENGINES_FIO_LOGNAME_H
#define BENCH_ENGINES_FIO_LOGNAME_H

#include <stddef.h>

/* The job of a log file name: "bench_iops.2.log[.ADDR]" -> "bench.2", "x_lat.log" -> "x"; "" if none. */
void fio_log_job_from_name(const char *path, char *job, size_t len);

#endif
