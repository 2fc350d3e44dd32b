/*
 * runloop: executes a plan (design.md "How one suite runs"): for each run spec, commit a 'running' row,
 * start the engine, wait with a deadline, collect, store results and final status in one transaction; show
 * progress; on Ctrl-C/SIGTERM stop the engine, mark the run 'aborted' and stop. `--resume` runs only what is
 * not 'done' in the newest suite started with the same arguments. Each run's engine works in
 * $TMPDIR/bench-<uid>/run-<pid>-XXXXXX, removed after the run; a run starts by removing the folders there
 * whose process is gone (a bench killed with -9).
 */
#ifndef BENCH_BENCH_RUNLOOP_H
#define BENCH_BENCH_RUNLOOP_H

#include "core/model.h"
#include "core/store.h"
#include "profiles/config.h"
#include "profiles/profile.h"

struct runloop_opts {
	const char *args;              /* canonical arguments (JSON) that define the suite, for --resume */
	int resume;
	int destructive;
	int overwrite_files;     /* existing files bench did not create may be written (docs/safety.md) */
	int allow_partial;
	int stop_on_host_failure;      /* a partial run stops the suite with exit 4 */
	int logs;
	unsigned grace_s;
	const struct host_list *hosts; /* NULL: this host */
	const char *sim_so;
	int quiet;                     /* no per-run lines */
	int no_collectors;             /* do not sample CPU and disks */
	unsigned collect_interval_ms;  /* 0: the collectors' default (1 s) */
	struct config_list *configs;   /* the suite's [config] sections (the plan is crossed with them), or NULL */
	int stop_on_config_failure;    /* a configuration whose setup or check fails stops the suite (exit 4) */
};

/*
 * Checks what can be checked before the database is opened and any load starts, beyond what the plan's own
 * checks (options.c run_args_plan: engines, hosts) cover: every local target is safe and usable. Prints the
 * error; returns 0 or the exit code.
 */
int runloop_preflight(const struct plan *plan, const struct runloop_opts *o);

/* Returns the exit code: 0 all runs done, 4 some failed or partial, 5 storage error, 130 interrupted. */
int runloop_run(struct store *st, const struct plan *plan, const struct runloop_opts *o);

#endif
