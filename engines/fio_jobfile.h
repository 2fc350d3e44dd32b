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

/*
 * What fio opens for one job of a job file bench writes, computed once: fio_jobfile_write writes the file
 * options from it and target_opened_paths checks its `paths`, so the written and the checked set cannot differ.
 * Options are read as fio reads bench's [global]: the workload's (wl->opts), then the engine options (keys
 * without a dot), then `extra`; a later directory=, filename_format=, nrfiles=, numjobs=, ioengine= wins, every
 * filename= adds its ':' list ("\:" a literal colon). Names mode (any filename= or target): directory= is
 * folded into each name as fio does for filename= (its first entry, "DIR/" + name; a target that is absolute
 * or already under it stays as it is) and written as explicit filename= lines, directory= dropped. Format mode
 * (no name at all): directory=, filename_format= and nrfiles= are written once and the paths are fio's
 * make_filename over numjobs x nrfiles, directories round-robin by job number.
 */
struct fio_files {
	int no_local_path;    /* the ioengine opens no local path (null, net, rbd, nbd, http, ...): paths empty */
	int format_mode;      /* no filename= and no target: fio names the files */
	struct kvlist global; /* names mode: [global] filename= entries, folded; value = where it came from */
	struct kvlist sect;   /* names mode: one per target section, folded; value = where it came from */
	char *directory;      /* format mode: directory= as written, or NULL */
	char *format;         /* format mode: filename_format= as written, or NULL */
	char *nrfiles;        /* format mode: nrfiles= as written, or NULL */
	struct kvlist paths;  /* every path fio opens, each once, in fio's order; value = where it came from */
};

/*
 * Computes `out` (released by fio_files_release) for one job: workload `wl`, `engine_opts` (may be NULL),
 * `extra` (may be NULL), `targets`, the job's section name `jobname` (fio's $jobname) and `clientuid` (fio's
 * $clientuid and unique_filename prefix on a fio server; NULL or "" locally). -1 (ERR_INPUT) for opendir=.
 */
int fio_files_plan(const struct workload *wl, const struct kvlist *engine_opts, const struct kvlist *extra,
		   char *const *targets, size_t ntargets, const char *jobname, const char *clientuid,
		   struct fio_files *out, struct errbuf *err);
void fio_files_release(struct fio_files *f);

/* Whether a fio option is one of the file options fio_files_plan owns (filename, directory, ...). */
int fio_is_file_option(const char *key);

/*
 * The options the fio engine adds to every job of a run besides the workload's (`extra` of fio_jobfile_write):
 * ioengine=external:SIM_SO for the sim engine, then the engine options (fio options, sim_* model options); keys
 * with a dot are bench's own annotations (a suite's method.* keys before expansion) and stay out. The engine and the plan's fio check
 * both use it, so the job checked is the job run.
 */
void fio_jobfile_engine_extras(const struct run_spec *s, const char *sim_so, struct kvlist *extra);

/* A job name fio accepts (letters, digits, '-', '_', '.'), from any run name: malloc'd. */
char *fio_job_name(const char *name);

/* Appends "filename=TARGET\n" with each ':' of the target escaped as fio wants ("\:"). */
void fio_jobfile_add_filename(struct strbuf *out, const char *target);

#endif
