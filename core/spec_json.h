/*
 * spec_json: a run spec as JSON text and back. The store keeps each run's spec this way so that
 * `bench run --resume` and `bench report -v` can see exactly what ran.
 */
#ifndef BENCH_CORE_SPEC_JSON_H
#define BENCH_CORE_SPEC_JSON_H

#include "core/errbuf.h"
#include "core/model.h"
#include "core/strbuf.h"

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
