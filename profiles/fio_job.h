/*
 * fio_job: reading fio job files the way fio 3.33 reads them (init.c parse_jobs_ini, options.c, parse.c):
 * sections, several [global]s applying to the jobs below them, options with and without values, ';'/'#'
 * comments (whole lines and trailing), `include FILE` (relative to the including file, nested, loops refused),
 * ${VAR} substitution (bench's NAME=value variables first, then the environment; unset is an error in bench),
 * the keywords $pagesize, $mb_memory and $ncpus with +-* / arithmetic (integer, as fio's call to bc gives),
 * and option aliases folded to fio's canonical names (readwrite -> rw). Values are kept verbatim otherwise.
 */
#ifndef BENCH_PROFILES_FIO_JOB_H
#define BENCH_PROFILES_FIO_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"

struct fio_section {
	char *name;            /* as in the header: "global" or the job name */
	int is_global;         /* fio: the name starts with "global" */
	struct kvlist opts;    /* the section's own options, in order, after substitution */
	char **opt_file;       /* where each option came from (parallel to opts.v) */
	int *opt_line;
	char *file;            /* where the header is */
	int line;
	size_t nglobals_above; /* how many [global] sections come before this one (fio_jobfile.globals) */
};

/* A job file holds at most this many sections (jobs and globals, includes counted): more is refused while
 * reading, before anything is expanded (fio itself has no limit; bench's plan is capped at PLAN_MAX_RUNS). */
#define FIO_JOBFILE_MAX_SECTIONS 100000

struct fio_jobfile {
	struct fio_section *v;
	size_t n, cap;
	size_t *globals;       /* indexes into v of the [global] sections, in order */
	size_t nglobals, globals_cap;
};

void fio_jobfile_init(struct fio_jobfile *f);
void fio_jobfile_release(struct fio_jobfile *f);

/* Reads a job file (and what it includes). `vars` may be NULL. */
int fio_jobfile_parse(const char *path, const struct kvlist *vars, struct fio_jobfile *out, struct errbuf *err);
/* Same on a text in memory; includes are resolved relative to `dir` (NULL: current directory). */
int fio_jobfile_parse_text(const char *text, size_t len, const char *name, const char *dir, const struct kvlist *vars,
			   struct fio_jobfile *out, struct errbuf *err);

/* The resolved options of job section `idx` (not global): all earlier globals in order, then its own. Costs the
 * options it copies, not the sections before idx. */
void fio_jobfile_resolve(const struct fio_jobfile *f, size_t idx, struct kvlist *out);
/* The sections whose options make up job `idx`'s, in order (the earlier globals, then idx itself): the k-th is
 * f->v[fio_jobfile_source(f, idx, k)] for k < f->v[idx].nglobals_above + 1. */
size_t fio_jobfile_source(const struct fio_jobfile *f, size_t idx, size_t k);

/* fio's canonical name of an option (alias folded), or `name` itself. */
const char *fio_option_canonical(const char *name);

/* Sizes as fio reads them with the default kb_base=1024: k/m/g/t/p (+b) = powers of 1024, KiB-style = powers of
 * 1000 (fio's compatibility mode), bare number = bytes. Returns 0 or -1. */
int fio_parse_size(const char *s, uint64_t *out);
/* Times as fio reads them: bare number in `unit_us` (1000000 for runtime/ramp_time), suffixes us ms s m h d.
 * Result in microseconds. */
int fio_parse_time_us(const char *s, uint64_t unit_us, uint64_t *out);
/* Integer arithmetic of + - * / ( ) on whole numbers, as bc with scale=0 computes it. */
int fio_eval_arith(const char *s, long long *out);

#endif
