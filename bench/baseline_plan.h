/*
 * baseline_plan: which baseline runs a configuration needs (`baseline = on` in a suite, and `bench baseline`;
 * docs/explain.md "Baselines"). It plans, the run loop runs: the planned runs are stored like any other run,
 * labelled phase=baseline. A baseline stored earlier for the same configuration record is reused, not redone.
 */
#ifndef BENCH_BENCH_BASELINE_PLAN_H
#define BENCH_BENCH_BASELINE_PLAN_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/store.h"
#include "profiles/config.h"
#include "profiles/profile.h"

/*
 * Called twice per configuration c (runs first..end of `plan`): with built = 0 before its setup (the members are
 * still raw devices: the time for member baselines) and with built = 1 once it is built, checked and recorded
 * (`labels` are the labels its runs get, `record` the text of its configuration record, "" when none). Appends
 * to `out` (plan_init'ed by the caller) the baseline runs to make now (none when the suite asks for no baseline,
 * or when they are stored already for this configuration). Returns 0, or -1 with err set (the configuration's
 * runs still go on: a baseline is evidence, not the load).
 */
int baseline_plan_config(struct store *st, const struct plan *plan, const struct suite_config *c, size_t first,
			 size_t end, int built, const struct kvlist *labels, const char *record, struct plan *out,
			 struct errbuf *err);

#endif
