/*
 * spec_json: a run spec as JSON text and back. The store keeps each run's spec this way so that
 * `bench run --resume` and `bench report -v` can see exactly what ran.
 */
#ifndef BENCH_CORE_SPEC_JSON_H
#define BENCH_CORE_SPEC_JSON_H

#include <cjson/cJSON.h>

#include "core/errbuf.h"
#include "core/model.h"
#include "core/strbuf.h"

/*
 * A run's method and configuration (model.h struct run_method) as a JSON object: "kind" and the fields that kind
 * has (curve_pct, stopcurve_ms, sweep_option, sweep_value, sweep_point, until, precondition_class, ss_round,
 * max_rounds, round_s, precondition_skipped, config_index, config_name). The stored spec holds it as
 * "run_method" unless run_method_is_default (a plain run of no configuration: its spec is as before), and
 * `bench plan --format json` shows it for every run.
 */
cJSON *run_method_to_json(const struct run_method *m);
int run_method_is_default(const struct run_method *m);

/* Returns a malloc'd JSON object text. */
char *run_spec_to_json(const struct run_spec *spec);
/* Parses what run_spec_to_json wrote; `out` is initialised by the call. */
int run_spec_from_json(const char *text, struct run_spec *out, struct errbuf *err);

/*
 * The stored spec JSON without a run's bookkeeping members (name, seq, repetition, started_at, finished_at)
 * into out: two specs with equal keys parse to run specs that differ in those members only (same workload,
 * jobs, engine, targets, labels), so a reader of many runs can parse one spec per key. -1 (no key) when the
 * text is not a JSON object this walker follows or a bookkeeping value is not a plain string, number or null.
 */
int run_spec_json_load_key(const char *json, struct strbuf *out);

#endif
