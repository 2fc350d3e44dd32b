/*
 * cmd_plan: the profile options `bench plan` and `bench run` share (--target, --quick, --matrix, --repeat,
 * --engine, --workdir, NAME=value variables) and the printing of a plan as a table or JSON.
 */
#ifndef BENCH_BENCH_CMD_PLAN_H
#define BENCH_BENCH_CMD_PLAN_H

#include <stdio.h>

#include "profiles/profile.h"

/*
 * Takes one profile option if argv[*i] is one (advancing *i past its value) and returns 1; 0 when it is not a
 * profile option; -1 after printing a usage error for command `cmd`. NAME=value arguments that are not files
 * are variables. Long options: --target PATH, --quick, --matrix KEY=V1,V2, --repeat N, --engine NAME,
 * --workdir DIR (also --opt=value forms).
 */
int plan_cli_option(const char *cmd, int argc, char **argv, int *i, struct plan_options *opt);

/* The help text of those options, for `--help` of plan and run. */
extern const char plan_cli_options_help[];

/* Prints the run table (text) and, with verbose, each run's fio job. */
void plan_print_text(FILE *f, const struct plan *p, int verbose);
/* Prints the plan as one JSON document. */
void plan_print_json(FILE *f, const struct plan *p);
/* The fio job file the fio engine writes for a run (engines/fio_jobfile.c): malloc'd. */
char *plan_fio_job_text(const struct run_spec *s);

#endif
