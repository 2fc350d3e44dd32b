/*
 * cpuview_json: the CPU and disk figures of one run (cpuview.h) as JSON, numbers at full precision.
 */
#ifndef BENCH_REPORT_CPUVIEW_JSON_H
#define BENCH_REPORT_CPUVIEW_JSON_H

#include "core/strbuf.h"
#include "report/cpuview.h"

/* {"cpu":[...],"disks":[...],"front_end_ios":..,"device_ios":..,"devices_of":..,"io_amplification":..};
 * "null" for NULL. */
void cpuview_json(struct strbuf *out, const struct cpuview_run *v);

#endif
