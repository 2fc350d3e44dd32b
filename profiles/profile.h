/*
 * profile: turning what the user names (a built-in suite, a fio job file, later vdbench parameter files,
 * suite files and HCIbench names) into a plan: the exact, ordered list of run specs that `bench plan` prints
 * and `bench run` executes. Never prints; errors carry file:line.
 */
#ifndef BENCH_PROFILES_PROFILE_H
#define BENCH_PROFILES_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"

/* The most runs a plan may hold (--matrix products, --repeat, vdbench for-loops): more is refused, exit 3,
 * before anything is allocated for them. */
#define PLAN_MAX_RUNS 100000

struct plan_options {
	int quick;               /* shrink ramp, runtime and working set to try a suite in minutes */
	int each_job;            /* --each-job: a fio job file's sections one run each, one after another
	                            (default: the jobs between two stonewalls are one run of several jobs) */
	struct kvlist vars;      /* NAME=value from the command line: vdbench $NAME, fio ${NAME} */
	struct kvlist matrix;    /* --matrix key=v1,v2,...: key -> "v1,v2,..." in the order given */
	char **targets;          /* --target PATH (repeatable); NULL: the profile's or a default file */
	size_t ntargets;
	const char *engine;      /* --engine NAME overrides the profile's engine, or NULL */
	unsigned repeat;         /* --repeat N: N repetitions of every run (0 or 1: once) */
	const char *workdir;     /* where default file targets go (NULL: current directory) */
	const char *const *engines; /* the engine names a suite may name (NULL-terminated), NULL: not checked */
	/* --runtime, --ramp, --size, --iodepth, --numjobs: fio values that replace every run's own after --quick
	 * (NULL: not given). Run names are made before them, so a shortened run keeps the workload's name; what
	 * ran is in its options and so in its identity. */
	const char *runtime, *ramp, *size, *iodepth, *numjobs;
};

/* The runs of one configuration ([config] section, config.h): runs[first..end), contiguous (configurations are
 * outermost), preconditioning phases included. */
struct plan_config {
	size_t config;           /* its index in the config_list plan_build_full filled */
	size_t first, end;
};

struct plan {
	char *name;              /* suite name: built-in name or file name */
	struct kvlist labels;    /* labels the profile itself sets */
	struct run_spec *runs;   /* in execution order; seq 1..n, repetition 1..repeat */
	size_t n, cap;
	char **warnings;         /* things translated approximately, "file:line: ..." */
	size_t nwarnings;
	unsigned repeat;         /* repetitions the plan holds (--repeat, else the suite's, else 1) */
	struct plan_config *configs; /* plan_build_full: each configuration's runs, in run order (none: no
	                                configurations); the run loop walks these, never the config= label */
	size_t nconfigs;
};

void plan_options_init(struct plan_options *o);
void plan_options_release(struct plan_options *o);
void plan_init(struct plan *p);
void plan_release(struct plan *p);
/* The configuration (plan_config) run i belongs to, or NULL. */
const struct plan_config *plan_config_of(const struct plan *p, size_t i);
/* Appends an initialised run spec to the plan and returns it. */
struct run_spec *plan_add(struct plan *p);
/* Appends a copy of src to the plan, numbered as its place (seq), and returns it. */
struct run_spec *plan_add_copy(struct plan *p, const struct run_spec *src);
void plan_warn(struct plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Expands every argument in order into one plan. */
int plan_build(const char *const *args, size_t nargs, const struct plan_options *opt, struct plan *out,
	       struct errbuf *err);

struct config_list;
/*
 * plan_build that also returns, from the same parse, the configurations ([config] sections, config.h) of the
 * suites named (not of the suites they refer to), appended to `configs` (NULL: not wanted) in order; a name
 * already there is refused (ERR_INPUT, both places).
 */
int plan_build_configs(const char *const *args, size_t nargs, const struct plan_options *opt, struct plan *out,
		       struct config_list *configs, struct errbuf *err);

/*
 * Like plan_build, but alternates the profiles repetition by repetition in blocks (A B, B A, A B, ...) so that
 * slow drift of the machine hits every side alike; each run gets the label profile=<argument>. Configurations
 * as plan_build_configs.
 */
int plan_build_interleaved(const char *const *args, size_t nargs, const struct plan_options *opt, struct plan *out,
			   struct config_list *configs, struct errbuf *err);

/* Estimated wall time of the whole plan in seconds (ramp + runtime + a per-run allowance). */
double plan_estimate_s(const struct plan *p);

/* The HCIbench-style name of a run spec where it fits, else a name from the job: malloc'd. */
char *profile_run_name(const struct run_spec *s);

/* The parameters an HCIbench-style name carries (see names.c). */
struct profile_name {
	int vdbench;             /* "vdb-" form */
	unsigned disks;          /* <disks>vmdk: targets */
	unsigned ws_pct;         /* <ws>ws: working set, % of each target */
	uint64_t bs_bytes;
	unsigned read_pct, random_pct;
	unsigned threads;        /* outstanding IOs per disk: fio iodepth */
	unsigned compress_pct, dedupe_pct; /* 0 0: the suffix is absent */
};

/* Parses an HCIbench-style name; returns 0, or -1 when it is not one. */
int profile_name_parse(const char *name, struct profile_name *out);
/* Writes the name; returns 0, or -1 when buf is too small. */
int profile_name_format(const struct profile_name *n, char *buf, size_t len);
/* The name parameters of a run spec, or -1 when it does not fit the pattern. */
int profile_name_of_spec(const struct run_spec *s, struct profile_name *out);
/* Working set % of a fio size text ("100%" -> 100, NULL -> 100), -1 when it is not a percentage. */
int profile_ws_pct(const char *size);

/* Directory of the built-in suites (BENCH_LIBRARY in the environment overrides). */
const char *profile_library_dir(void);

#endif
