/*
 * protos: the workloads one profile expands to before repetition, with what the later expansion steps need to
 * know about each (build.c: matrix, targets, names). Filled by the readers (build.c for fio job files and
 * names, vdbench_translate.c), consumed by plan_build.
 */
#ifndef BENCH_PROFILES_PROTOS_H
#define BENCH_PROFILES_PROTOS_H

#include <stddef.h>

#include "core/model.h"

struct protos {
	struct run_spec *v;
	int *explicit_name;      /* the name was given by the profile: not regenerated */
	unsigned *disks;         /* targets the workload was written for, 0 = not said */
	size_t n, cap, flags_cap;
};

void protos_init(struct protos *p);
void protos_release(struct protos *p);
/* Appends an initialised run spec (explicit_name and disks 0) and returns it. */
struct run_spec *protos_add(struct protos *p);
/* Moves every proto of src to the end of dst; src is left empty. */
void protos_move(struct protos *dst, struct protos *src);

#endif
