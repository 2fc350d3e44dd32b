/*
 * fio_jobfile: writing the fio job file for one run spec. [global] holds the workload's options as they came
 * (spec->wl.opts, verbatim and in order), then what bench decides: the working set, ramp and runtime from the
 * normalised workload (so --quick and matrices take effect) and group_reporting; then one job section per
 * target (HCIbench's one job per disk), so that several targets multiply the load as they do in HCIbench and
 * fio still reports the run as one result per host. Includes are already inlined by profiles/.
 */
#ifndef BENCH_ENGINES_FIO_JOBFILE_H
#define BENCH_ENGINES_FIO_JOBFILE_H

#include "core/errbuf.h"
#include "core/model.h"
#include "core/strbuf.h"

/*
 * Appends the job file text to `out`. `targets` (ntargets > 0) replace any filename/directory of the
 * workload; `extra` options (may be NULL) are appended last (the sim engine's ioengine and model options,
 * log options).
 */
int fio_jobfile_write(const struct run_spec *spec, char *const *targets, size_t ntargets, const struct kvlist *extra,
		      struct strbuf *out, struct errbuf *err);

/* A job name fio accepts (letters, digits, '-', '_', '.'), from any run name: malloc'd. */
char *fio_job_name(const char *name);

#endif
