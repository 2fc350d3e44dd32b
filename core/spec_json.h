/*
 * spec_json: a run spec as JSON text and back. The store keeps each run's spec this way so that
 * `bench run --resume` and `bench report -v` can see exactly what ran.
 */
#ifndef BENCH_CORE_SPEC_JSON_H
#define BENCH_CORE_SPEC_JSON_H

#include "core/errbuf.h"
#include "core/model.h"

/* Returns a malloc'd JSON object text. */
char *run_spec_to_json(const struct run_spec *spec);
/* Parses what run_spec_to_json wrote; `out` is initialised by the call. */
int run_spec_from_json(const char *text, struct run_spec *out, struct errbuf *err);

#endif
