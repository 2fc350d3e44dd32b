/*
 * gate_select: choosing the baseline and candidate runs of a gate from the store and reading, per run, the
 * figures the gate compares (aggregate host '*', or the only host). Runs are chosen as `bench report` chooses
 * them: report_load (load.h) with the one selection language (select.h), so a run's label overrides its
 * suite's; figures are read through core/store_read.h.
 *
 * Figures (stored units) are the report's, from the one figures layer (report/figures.h, rep_run.fig): IOPS,
 * bytes/s, mean latency ns, p99 ns per direction and CPU-microseconds per IO by core's one CPU rule (none
 * when the only CPU figure is fio's own usr+sys). Workloads pair across sides as in `bench report`
 * (rep_match_key): by the workload identity of core/identity.h (every option that changes the load), or by
 * name with REP_MATCH_NAME.
 *
 * A selection is one of:
 *   suite:ID             every run of suite ID
 *   k=v[,k=v...]         every run matching all these conditions (select.h: labels, with a run's label
 *                        overriding its suite's, or workload parameters)
 *   latest:k=v[,k=v...]  every run of the newest suite that has a run matching all these conditions
 *
 * Each run is checked and, when it cannot be trusted, kept with the reason it is excluded: status other than
 * done (failed, partial, aborted, still running), a fio error on a host (run_host.error_code != 0), no stored
 * result, a short runtime (measured time below `short_fraction` of the asked runtime of a time_based job,
 * or below `min_runtime_s`), or not at steady state (docs/gate.md "Steady state").
 *
 * Steady state, from the run's labels (docs/method.md, docs/fio-facts.md "Steady-state labels"):
 *   steady_state=reached:N       valid; remark "steady state reached at round N"
 *   steady_state=not-reached:N   (or running:N, or a value not understood) excluded as not at steady state,
 *                                unless allow_unsteady: then valid with the words as its remark
 *   fio.ss=attained              fio stopped the job early on purpose: never "ran short" (min_runtime_s
 *                                still applies); remark "fio's ss=... attained after N s"
 *   fio.ss=not-attained          the usual runtime rules; remark "fio's steady-state criterion ... was not met"
 */
#ifndef BENCH_REPORT_GATE_SELECT_H
#define BENCH_REPORT_GATE_SELECT_H

#include "core/errbuf.h"
#include "core/model.h"
#include "core/store.h"
#include "report/gate/gate.h"
#include "report/table.h"

struct gate_select_opts {
	enum rep_match match;   /* how workloads pair across sides: rep_match_key (table.h), as in bench report */
	double min_runtime_s;   /* runs measured for less are excluded; 0 = no floor */
	double short_fraction;  /* time_based runs measured for less than this share of runtime are excluded (0.9) */
	int allow_unsteady;     /* runs labelled steady_state other than reached:N are valid (with a remark) */
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
int gate_select_load(struct store *st, const char *selection, const struct gate_select_opts *opts,
		     struct gate_side *side, struct errbuf *err);

#endif
