/*
 * cmd_plan: the printing of a plan as a table or as JSON (`bench plan`). The options plan and run share are
 * in options.h.
 */
#ifndef BENCH_BENCH_CMD_PLAN_H
#define BENCH_BENCH_CMD_PLAN_H

#include <stdio.h>

#include "core/model.h"
#include "profiles/config.h"
#include "profiles/profile.h"

/* "N runs, estimated wall time H:MM:SS" (and a hint past an hour): plan's last line, run's first. */
void plan_print_estimate(FILE *f, const struct plan *p);
/*
 * The same, counting the baseline runs `baseline = on` adds to the configurations `cl` (NULL: none) of the
 * plan, as the run loop plans them with `hosts` (--hosts, or NULL) and nothing stored: "N runs and M baseline
 * runs, estimated wall time ..." (each baseline's ramp and runtime counted as plan_estimate_s counts a run).
 * Without baselines it prints what plan_print_estimate prints.
 */
void plan_print_estimate_baselines(FILE *f, const struct plan *p, const struct config_list *cl,
				   const struct host_list *hosts);
/* Prints the run table (text) and, with verbose, each run's fio job. */
void plan_print_text(FILE *f, const struct plan *p, int verbose);
/* The fio job file the fio engine writes for a run (engines/fio_jobfile.c): malloc'd. */
char *plan_fio_job_text(const struct run_spec *s);

#endif
