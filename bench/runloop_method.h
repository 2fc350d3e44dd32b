/*
 * runloop_method: the measurement method of docs/method.md executed, on top of its plan-time half
 * (profiles/method.h: the plan entries of curves, sweeps and preconditioning).
 *
 * At run time (method_before / method_after, called by the run loop around each entry) the figures come from
 * the store, never from memory, so a suite cut and resumed gives the same answers: a point's rate from its max
 * run's stored total IOPS ('*' host, all jobs), a sweep's stop from its stored points, the measured run's
 * steady-state labels from its stored wdpc rounds.
 */
#ifndef BENCH_BENCH_RUNLOOP_METHOD_H
#define BENCH_BENCH_RUNLOOP_METHOD_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"
#include "core/store.h"
#include "profiles/config.h"
#include "profiles/method.h"
#include "profiles/profile.h"
#include "report/analysis/curve.h"
#include "report/analysis/steady.h"

/* Zero settings with the steady-state rule's defaults and report's curve-point labels filled in. */
void method_settings_init(struct method_settings *m);

/* ---- run time ------------------------------------------------------------------------------------------ */

enum method_action {
	METHOD_RUN,     /* run it (s may have been changed: a curve point's rate, steady-state labels) */
	METHOD_SKIP,    /* not run: its sweep or curve stopped before it (*why says so) */
	METHOD_FAIL,    /* stored failed with *why (a curve point whose max run has no figure) */
	METHOD_PURGE,   /* not an engine run: method_purge, then stored done */
};

struct method_ctx {
	struct store *st;
	int64_t suite_id;
	const struct plan *plan;
	const struct host_list *hosts;  /* NULL or empty: this host */
	int destructive, overwrite_files;
};

/* Decides what to do with plan entry i (s: its copy, labels merged). *why is malloc'd or NULL. -1: store error. */
int method_before(struct method_ctx *mc, size_t i, struct run_spec *s, enum method_action *act, char **why,
		  struct errbuf *err);

/*
 * After entry i was stored as run_id (done or not): checks a curve point, decides a sweep's stop, judges the
 * wdpc rounds so far by the steady-state rule (the round that decides it labelled steady_state=reached:N or
 * not-reached:N, and ss.window_iops). -1: error.
 */
int method_after(struct method_ctx *mc, size_t i, int64_t run_id, struct errbuf *err);

/* Purges the targets of a purge entry; the log of what was done into *log (malloc'd). -1 with err: failed. */
int method_purge(const struct method_ctx *mc, const struct run_spec *s, char **log, struct errbuf *err);

#endif
