/*
 * vdbench_translate: vdbench parameter files as runs (vdbench_translate.c): read (vdbench_params.h), their
 * for-loops expanded in vdbench's order, one fio-translated workload appended per run.
 */
#ifndef BENCH_PROFILES_VDBENCH_TRANSLATE_H
#define BENCH_PROFILES_VDBENCH_TRANSLATE_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "profiles/profile.h"
#include "profiles/profile_workloads.h"

/* Reads a parameter file, expands its for-loops and appends one fio-translated workload per run. */
int vdbench_expand_file(const char *path, const struct kvlist *vars, struct plan *plan, struct profile_workloads *out,
			struct errbuf *err);
/* Same on text embedded in another file (a suite's [vdbench] section) starting after line `line0` of `file`;
 * `base_opts` are fio options put before the translated ones. */
int vdbench_expand_text(const char *text, size_t len, const char *file, int line0, const char *dir,
			const struct kvlist *vars, const struct kvlist *base_opts, struct plan *plan,
			struct profile_workloads *out, struct errbuf *err);

#endif
