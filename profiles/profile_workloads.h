/*
 * profile_workloads: the workloads one profile expands to before repetition, with what the later expansion
 * steps need to know about each (build.c: matrix, targets, names). Filled by the readers (build.c for fio job files and
 * names, vdbench_translate.c), consumed by plan_build.
 */
#ifndef BENCH_PROFILES_PROFILE_WORKLOADS_H
#define BENCH_PROFILES_PROFILE_WORKLOADS_H

#include <stddef.h>

#include "core/model.h"

struct profile_workloads {
	struct run_spec *v;
	int *explicit_name;      /* the name was given by the profile: not regenerated */
	unsigned *disks;         /* targets the workload was written for, 0 = not said */
	size_t n, cap, flags_cap;
};

void workloads_init(struct profile_workloads *p);
void workloads_release(struct profile_workloads *p);
/* Appends an initialised run spec (explicit_name and disks 0) and returns it. */
struct run_spec *workloads_add(struct profile_workloads *p);
/* Moves every proto of src to the end of dst; src is left empty. */
void workloads_move(struct profile_workloads *dst, struct profile_workloads *src);

#endif
