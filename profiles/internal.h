/*
 * internal: every header of profiles/ in one include, for code that wants all of them (the fuzzer). Each
 * concern has its own header, and the files of profiles/ include only those they use, so that the
 * dependencies go one way: build.c -> suite.h, vdbench_translate.h -> vdbench_params.h, profile_workloads.h,
 * fio_workload.h, fio_values.h -> fio_job.h; everything -> profile.h (the plan container).
 */
#ifndef BENCH_PROFILES_INTERNAL_H
#define BENCH_PROFILES_INTERNAL_H

#include "core/errbuf.h"
#include "core/model.h"
#include "profiles/fio_values.h"
#include "profiles/fio_workload.h"
#include "profiles/profile.h"
#include "profiles/profile_workloads.h"
#include "profiles/suite.h"
#include "profiles/vdbench_translate.h"

#endif
