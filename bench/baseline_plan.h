/*
 * baseline_plan: which baseline runs to make, the one home of that question (docs/explain.md "Baselines"):
 * `bench baseline` (every run of a plan once per --target, alone) and `baseline = on` in a suite (per
 * configuration: its raw members before its setup, the initiator CPU ceiling once it is built). It plans, the
 * run loop runs: the planned runs are stored like any other run, labelled phase=baseline. A configuration's
 * baseline is keyed (label baseline.key) by what identifies it, its configuration, the members' device
 * identity and the workload identity, and one stored earlier under the same key is reused, not redone.
 */
#ifndef BENCH_BENCH_BASELINE_PLAN_H
#define BENCH_BENCH_BASELINE_PLAN_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/store.h"
#include "profiles/config.h"
#include "profiles/profile.h"

/* A configuration's baseline runs are short: at most this long (seconds), after at most BASELINE_RAMP_S. */
#define BASELINE_RUNTIME_S 5u
#define BASELINE_RAMP_S 1u
/* The working set of a CPU baseline (fio's null engine) whose workload gives none or a share of its target. */
#define BASELINE_CPU_SIZE "1g"

/*
 * `bench baseline`: every run of `in` once per target, on that target alone, labelled phase=baseline,
 * baseline.kind=member and baseline.member=NAME (the target's file name), appended to `out` (plan_init'ed).
 * Returns 0, or -1 with ERR_USAGE in err for a run of several jobs or without targets.
 */
int baseline_plan_members(const struct plan *in, struct plan *out, struct errbuf *err);

/*
 * Called twice per configuration c (runs first..end of `plan`): with built = 0 before its setup (the members are
 * still raw devices: the time for member baselines) and with built = 1 once it is built, checked and recorded
 * (`labels` are the labels its runs get, `record` the text of its configuration record, "" when none); `quiet`
 * (-q) drops the "baseline reused" lines, `hosts` (--hosts, or NULL) runs the load elsewhere. Appends
 * to `out` (plan_init'ed by the caller) the baseline runs to make now (none when the suite asks for no baseline,
 * or when they are stored already under the same key: then it says "configuration 'X': baseline reused (run
 * N)" on stderr; `st` NULL: nothing is looked up, every baseline is planned, as `bench plan` lists them).
 * Returns 0, or -1 with err set (the configuration's runs still go on: a baseline is evidence,
 * not the load); what was planned before the error is in `out`.
 */
int baseline_plan_config(struct store *st, const struct plan *plan, const struct suite_config *c, size_t first,
			 size_t end, int built, int quiet, const struct host_list *hosts, const struct kvlist *labels,
			 const char *record, struct plan *out, struct errbuf *err);

#endif
