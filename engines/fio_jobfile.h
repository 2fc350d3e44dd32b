/*
 * fio_jobfile: writing the fio job file for one run spec. [global] holds the workload's options as they came
 * (spec->wl.opts, verbatim and in order), then what bench decides: the working set, ramp and runtime from the
 * normalised workload (so --quick and matrices take effect) and group_reporting; then one job section per
 * target (HCIbench's one job per disk), so that several targets multiply the load as they do in HCIbench and
 * fio still reports the run as one result per host. Includes are already inlined by profiles/. A run of
 * several jobs fio runs together (spec->njobs) is written by fio_jobfile_write_jobs: one reporting group per job.
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

/*
 * The job file of a run of several jobs fio runs together (spec->njobs >= 2; fio_jobfile_write calls it for
 * such a run and ignores its `targets`): [global] with group_reporting only, then per job one section per
 * target of the job, the first with new_group, so that fio runs every job at once and reports each job as
 * one group, in the jobs' order (groupid = job index); each section holds the job's own options, then
 * `extra`. `job_log` (NULL: none): each job writes an IOPS log <job_log><i> (1-based) with epoch times
 * every FIO_JOB_LOG_MSEC, from which the engine takes when the job's measured time began.
 */
#define FIO_JOB_LOG_MSEC 100
int fio_jobfile_write_jobs(const struct run_spec *spec, const struct kvlist *extra, const char *job_log,
			   struct strbuf *out, struct errbuf *err);

/* A job name fio accepts (letters, digits, '-', '_', '.'), from any run name: malloc'd. */
char *fio_job_name(const char *name);

/* Appends "filename=TARGET\n" with each ':' of the target escaped as fio wants ("\:"). */
void fio_jobfile_add_filename(struct strbuf *out, const char *target);

#endif
