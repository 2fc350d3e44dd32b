/*
 * engine: the ops table every load generator implements (design.md "The ops tables"), after fio's
 * struct ioengine_ops. The run loop in bench/ drives one run as prepare -> start -> wait (with a deadline)
 * -> collect -> stop -> release. Engines never touch SQLite and never print: they return model structs and
 * messages in an errbuf.
 */
#ifndef BENCH_ENGINES_ENGINE_H
#define BENCH_ENGINES_ENGINE_H

#include "core/errbuf.h"
#include "core/model.h"

#define ENGINE_OPS_VERSION 1

enum engine_flags {
	ENGINE_MULTIHOST = 1 << 0, /* can run on the hosts of a hosts file */
};

/* One run as an engine sees it. The run loop fills the first block; `priv` is the engine's. */
struct engine_run {
	const struct run_spec *spec;
	const struct host_list *hosts; /* NULL or empty: run on this host, on spec->targets */
	const char *workdir;           /* an existing directory for job files and outputs */
	unsigned grace_s;              /* added to ramp + runtime before the run is stopped */
	int destructive;               /* the user allowed writing block devices that hold data */
	int overwrite_files;           /* the user allowed writing existing files bench did not make */
	int allow_partial;             /* go on without hosts that cannot be reached */
	int logs;                      /* ask fio for IOPS, bandwidth and latency logs */
	const char *sim_so;            /* absolute path of the sim ioengine (engine "sim"), or NULL */
	void *priv;
};

struct engine_ops {
	const char *name;
	unsigned int version;   /* ENGINE_OPS_VERSION */
	unsigned int flags;     /* enum engine_flags */
	/* Checks targets and hosts, writes job files. Required. */
	int (*prepare)(struct engine_run *run, struct errbuf *err);
	/* Starts the load and returns at once. Required. */
	int (*start)(struct engine_run *run, struct errbuf *err);
	/* Waits up to timeout_ms: 1 = finished, 0 = still running, -1 = failed. Required. */
	int (*wait)(struct engine_run *run, int timeout_ms, struct errbuf *err);
	/*
	 * Fills `out` (initialised by the caller) with per-host results, the aggregate and artifacts, and sets
	 * *status: RUN_DONE, RUN_PARTIAL (some hosts failed: err names them) or RUN_FAILED (err says why).
	 * Returns 0 when something can be stored, -1 when nothing can. Required.
	 */
	int (*collect)(struct engine_run *run, struct run_result *out, enum run_status *status, struct errbuf *err);
	/* Stops whatever runs; idempotent, never fails. Required. */
	void (*stop)(struct engine_run *run);
	/* Frees priv and removes temporary files. Optional. */
	void (*release)(struct engine_run *run);
};

/* The registered engines, by name ("fio", "sim", "null"); NULL if unknown. */
const struct engine_ops *engine_find(const char *name);
/* All registered engines, NULL-terminated (bench/options.c names them in messages). */
const struct engine_ops *const *engine_list(void);
/* Checks every registered table (main does at start-up: a failure is exit 70); -1 naming the engine. */
int engine_check_all(struct errbuf *err);
/* Checks one table for a name, the interface version and the required hooks; -1 (ERR_INTERNAL) naming it. */
int engine_check_ops(const struct engine_ops *ops, struct errbuf *err);

/* Seconds after which a run is stopped: ramp + runtime + grace (+ an allowance for laying out files). */
unsigned engine_deadline_s(const struct engine_run *run);

#endif
