/*
 * method: the run-time numbers of the measurement method (docs/method.md), on top of its plan-time half
 * (profiles/method.h): a curve point's throttle from its max run's measured IOPS and the check of what it
 * achieved, a sweep's stop when a limit is passed, a phase's ETA. Pure functions over plain numbers: nothing
 * here runs fio, prints or touches the store.
 */
#ifndef BENCH_BENCH_METHOD_H
#define BENCH_BENCH_METHOD_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "profiles/method.h"
#include "report/analysis/curve.h"
#include "report/analysis/steady.h"

#define METHOD_CURVE_TOL_PCT 5.0 /* a curve point whose achieved IOPS miss the target by more is flagged */

/* Zero settings with the steady-state rule's defaults and report's curve-point labels filled in. */
void method_settings_init(struct method_settings *m);

/* One curve point's throttle. */
struct method_rate {
	double total_iops;   /* target over all jobs, targets and hosts: pct % of the max run */
	double job_iops;     /* per fio job (one job per target per numjobs clone per host) */
	char rate_iops[64];  /* the fio option value: "N", or "R,W" for a mix (keeps the read share) */
};

/*
 * The throttle of a point at `pct` % of a max run that measured `max_total_iops` (all hosts): fio's rate_iops
 * holds per job, and bench's job file has one job per target (engines/fio_jobfile.c), each cloned numjobs
 * times, on each host: job_iops = total / (numjobs x ntargets x nhosts) (0 counts as 1). read_pct -1 or
 * 0/100: one value; else "R,W" split by read_pct (one value alone would cap each direction separately).
 */
int method_curve_rate(double max_total_iops, double pct, unsigned numjobs, unsigned ntargets, unsigned nhosts,
		      int read_pct, struct method_rate *out, struct errbuf *err);

/* Whether the achieved total IOPS are within tol_pct of the target; *miss_pct = (achieved/target - 1) x 100. */
int method_curve_ok(double target_total_iops, double achieved_total_iops, double tol_pct, double *miss_pct);

/* vdbench stopcurve: 1 when the curve stops after a point of this mean latency (ms). */
int method_curve_stop(const struct method_curve *c, double mean_lat_ms);

/* A measured point, as the run loop reads it from the stored run ('*' host). */
struct method_point {
	double iops;         /* total IOPS */
	double lat_ms;       /* mean completion latency, worse direction; NAN unknown */
	double p99_ms;       /* 99th percentile, worse direction; NAN unknown */
};

/*
 * Whether the limit is passed at point pts[n-1] (n >= 1). Unknown figures never pass; iops_gain needs two
 * points. The point that passes is stored like the others (it was run); the sweep runs no further point.
 */
int method_until_passed(const struct method_until *u, const struct method_point *pts, size_t n);

/* The first of `nu` limits passed at pts[n-1], or -1. */
int method_sweep_stop(const struct method_until *u, size_t nu, const struct method_point *pts, size_t n);

/* Seconds left of a phase that has written done of total bytes in elapsed_s; NAN before any progress. */
double precond_eta_s(uint64_t total_bytes, uint64_t done_bytes, double elapsed_s);

#endif
