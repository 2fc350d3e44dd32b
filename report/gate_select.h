/*
 * gate_select: choosing the baseline and candidate runs of a gate from the store (read-only SQL through
 * store_db()) and reading, per run, the figures the gate compares (aggregate host '*', or the only host).
 *
 * Figures (stored units): IOPS, bytes/s, mean latency ns (total latency, else completion latency), p99 ns
 * (result_pct at 99.0) per direction, and CPU-microseconds per IO from the cpu table (initiators; procstat,
 * node_exporter, import, fio in that order), else from fio's own usr+sys CPU of a single-job run.
 *
 * A selection is one of:
 *   suite:ID             every run of suite ID
 *   k=v[,k=v...]         every run carrying all these labels (its own or its suite's)
 *   latest:k=v[,k=v...]  every run of the newest suite carrying all these labels
 *
 * Each run is checked and, when it cannot be trusted, kept with the reason it is excluded: status other than
 * done (failed, partial, aborted, still running), a fio error on a host (run_host.error_code != 0), no stored
 * result, or a short runtime (measured time below `short_fraction` of the asked runtime of a time_based job,
 * or below `min_runtime_s`).
 */
#ifndef BENCH_REPORT_GATE_SELECT_H
#define BENCH_REPORT_GATE_SELECT_H

#include <sqlite3.h>

#include "core/errbuf.h"
#include "report/gate.h"

enum gate_match {
	GATE_MATCH_IDENTITY = 0, /* tool, rw, bs, bssplit, read %, random %, iodepth, numjobs */
	GATE_MATCH_NAME,         /* the run (workload) name */
};

struct gate_select_opts {
	enum gate_match match;
	double min_runtime_s;   /* runs measured for less are excluded; 0 = no floor */
	double short_fraction;  /* time_based runs measured for less than this share of runtime are excluded (0.9) */
};
void gate_select_opts_default(struct gate_select_opts *o);

/*
 * Checks the form of a selection without a database: 0, or -1 with ERR_USAGE and a message saying what
 * forms are understood.
 */
int gate_selection_check(const char *selection, struct errbuf *err);

/*
 * Appends the runs of `selection` to `side` (initialised by the caller with the selection text). Matching
 * nothing is not an error here (gate_build reports it); a malformed selection is ERR_USAGE, `latest:` without
 * such a suite ERR_INPUT, SQLite failures ERR_STORE.
 */
int gate_select_load(sqlite3 *db, const char *selection, const struct gate_select_opts *opts,
		     struct gate_side *side, struct errbuf *err);

#endif
