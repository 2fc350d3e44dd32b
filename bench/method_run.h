/*
 * method_run: the measurement method of docs/method.md executed, on top of the planning of method.h.
 *
 * At plan time (method_expand, called by options.c for `bench plan` and `bench run` alike) curves, sweeps and
 * the SNIA preconditioning phases become plan entries, so that `bench plan` shows them and `--resume` finds
 * them by their place: a curve is its max run (curve_pct=max) followed by one entry per point (curve_pct=NN);
 * a sweep one entry per point (sweep.KEY=V); preconditioning puts purge, wipc and wdpc entries
 * (phase=precondition) before the measured run they serve. Where a point belongs is said by the plan itself:
 * a curve point's max run is the nearest earlier entry labelled curve_pct=max; the points of one sweep are
 * consecutive entries, the first with engine annotation method.point=1 (keys with a dot never reach fio).
 *
 * At run time (method_before / method_after, called by the run loop around each entry) the figures come from
 * the store, never from memory, so a suite cut and resumed gives the same answers: a point's rate from its max
 * run's stored total IOPS ('*' host, all jobs), a sweep's stop from its stored points, the measured run's
 * steady-state labels from its stored wdpc rounds.
 */
#ifndef BENCH_BENCH_METHOD_RUN_H
#define BENCH_BENCH_METHOD_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "bench/method.h"
#include "core/errbuf.h"
#include "core/model.h"
#include "core/store.h"
#include "profiles/config.h"
#include "profiles/profile.h"

#define METHOD_MAX_UNTIL 8

/* What the command line says (options.c); NULL / 0: not given (a suite's keys apply, else the defaults). */
struct method_settings {
	const char *curve;              /* --curve 10,50,90,100 */
	const char *sweep;              /* --sweep iodepth=1,2,4 */
	const char *until[METHOD_MAX_UNTIL]; /* --until EXPR, in order */
	size_t nuntil;
	int precondition;               /* --precondition */
	unsigned max_rounds;            /* --max-rounds N (0: 25) */
	unsigned round_s;               /* --round-time T, seconds (0: 60, --quick: the workload's runtime) */
};

/* Checks one --curve / --sweep / --until value: 0, or -1 with the message in err. */
int method_check_arg(const char *option, const char *value, struct errbuf *err);

/*
 * Expands the plan (before configurations are crossed in: `precondition` 0) with its curves and sweeps, or
 * (after: `precondition` 1) with the preconditioning phases of the runs that ask for them (--precondition,
 * suite `precondition = on`, a configuration's precondition.* keys). Renumbers seq. ERR_INPUT / ERR_USAGE.
 */
int method_expand(struct plan *p, const struct method_settings *m, const struct config_list *configs, int quick,
		  int precondition, struct errbuf *err);

/* One line saying what a plan entry is for the method ("" when nothing), for `bench plan`. */
void method_describe(const struct run_spec *s, char *buf, size_t len);

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
