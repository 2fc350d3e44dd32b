/*
 * method: the measurement method's plan-time half (docs/method.md). Curves (a max run, then points throttled
 * to NN % of its measured IOPS), sweeps over iodepth, numjobs or rate that stop when a limit is passed
 * (--until), and the SNIA PTS preconditioning sequence (purge, workload-independent fill, workload-dependent
 * rounds until steady state) with the rule that skips it when the same target was already preconditioned in
 * the suite, all become plan entries here, so that `bench plan` shows them and `--resume` finds them by their
 * place: a curve is its max run followed by one entry per point; a sweep one entry per point; preconditioning puts
 * purge, wipc and wdpc entries before the measured run they serve. What each entry is for is said by its typed
 * fields (core/model.h struct run_method: kind, curve percent, sweep option, value, place and stop rule, rounds),
 * never by labels or engine options; the labels users see (curve_pct=, sweep.KEY=, phase=precondition, ss_round=)
 * are written from those fields when the run is stored (run_method_labels). Where a point belongs is said by the
 * plan itself: a curve point's max run is the nearest earlier RUN_METHOD_CURVE_MAX entry; the points of one
 * sweep are consecutive entries, the first with sweep_point 1. What happens at run time (rates,
 * stops, the steady-state verdict) is bench/runloop_method.c's; the arithmetic it applies is here (the last
 * section). Never prints.
 */
#ifndef BENCH_PROFILES_METHOD_H
#define BENCH_PROFILES_METHOD_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/model.h"
#include "profiles/config.h"
#include "profiles/profile.h"

#define METHOD_MAX_POINTS 64
#define METHOD_MAX_UNTIL RUN_METHOD_MAX_UNTIL

/* ---- curves ------------------------------------------------------------------------------------ */

/* vdbench's default curve points when iorate=curve has no curve=(...): 10,50,70,80,90,100. */
extern const double method_vdbench_curve[6];

struct method_curve {
	double pct[METHOD_MAX_POINTS]; /* points, % of the max run's total IOPS, in run order */
	size_t n;
	double stopcurve_ms;           /* vdbench stopcurve: stop after a point whose mean latency > this; 0 none */
};

/* Parses "10,50,90,100" (each 0 < pct <= 100; order kept; duplicates refused). */
int method_curve_parse(const char *arg, struct method_curve *c, struct errbuf *err);

/* ---- sweeps ------------------------------------------------------------------------------------ */

enum method_sweep_key { SWEEP_IODEPTH, SWEEP_NUMJOBS, SWEEP_RATE_IOPS };

struct method_sweep {
	enum method_sweep_key key;
	const char *option;            /* the fio option it sets: "iodepth", "numjobs", "rate_iops" */
	double v[METHOD_MAX_POINTS];   /* values in run order */
	size_t n;
};

/* Parses "iodepth=1,2,4,...,256" (whole numbers >= 1; "rate"/"rate_iops" for rate). */
int method_sweep_parse(const char *arg, struct method_sweep *s, struct errbuf *err);

enum method_until_metric {
	UNTIL_P99,       /* 99th percentile completion latency, ms: the worse of read and write */
	UNTIL_LAT,       /* mean completion latency, ms: the worse of read and write */
	UNTIL_IOPS_GAIN, /* IOPS gain over the previous point, % */
};

struct method_until {
	enum method_until_metric metric;
	char op;                       /* '>' or '<' */
	double value;                  /* ms for latencies, % for the gain */
	char text[64];                 /* as given, for labels and messages */
};

/* Parses "p99>2ms", "lat>500us", "p99>1.5" (bare = ms), "iops_gain<5%". */
int method_until_parse(const char *expr, struct method_until *u, struct errbuf *err);

/* ---- preconditioning (SNIA PTS) ---------------------------------------------------------------- */

enum precond_kind {
	PRECOND_PURGE,  /* blkdiscard (block device, --destructive) or the file recreated */
	PRECOND_WIPC,   /* workload-independent: sequential writes of multiple x the working set */
	PRECOND_WDPC,   /* workload-dependent: rounds of the workload until steady state (or max rounds) */
};

struct precond_opts {
	int purge;                 /* run the purge phase */
	int secure;                /* purge with blkdiscard -s (secure discard) */
	int destructive;           /* --destructive was given: block devices may be discarded */
	double wipc_multiple;      /* working sets written by the WIPC (default 2) */
	uint64_t wipc_bs_bytes;    /* WIPC block size (default 128 KiB) */
	unsigned wipc_iodepth;     /* default 32 */
	unsigned round_s;          /* WDPC round length, seconds (default 60, SNIA's one minute) */
	unsigned window;           /* the steady-state rule's window of rounds (method_settings.ss_window) */
	unsigned max_rounds;       /* most WDPC rounds */
};

/* Defaults: purge on, not secure, 2 x working set, 128 KiB, iodepth 32, 60 s rounds; window and max_rounds 0
 * (the steady-state rule is the caller's: method_settings). */
void precond_opts_defaults(struct precond_opts *o);

struct precond_target {
	const char *path;          /* the target (file or block device) */
	int is_block;              /* 1: a block device */
	uint64_t working_set_bytes;
	int read_pct, random_pct;  /* of the measured workload (-1 unknown) */
	uint64_t bs_bytes;         /* of the measured workload (0 unknown) */
};

struct precond_phase {
	enum precond_kind kind;
	const char *name;          /* "purge", "wipc", "wdpc" (the label precondition=NAME) */
	const char *cls;           /* the workload class (precond_class): static */
	char *argv[5];             /* PRECOND_PURGE of a block device: blkdiscard [-s] PATH; else argv[0] NULL */
	int recreate;              /* PRECOND_PURGE of a file: remove and recreate it empty */
	struct kvlist fio_opts;    /* PRECOND_WIPC: the fio options replacing the workload's */
	uint64_t bytes;            /* PRECOND_WIPC: bytes it writes (progress and ETA) */
};

/* What was preconditioned in this suite so far: "target\tclass" entries (the skip rule). */
struct precond_history {
	struct kvlist done;        /* key: target path, value: class */
};

struct precond_plan {
	struct precond_phase v[3];
	size_t n;
	char skipped[160];         /* why phases were skipped ("" = none) */
};

/*
 * The workload class that decides the skip rule: "random-write", "random-read", "sequential-write" or
 * "sequential-read" (random: random_pct >= 50; write: read_pct < 100 or unknown).
 */
const char *precond_class(const struct precond_target *t);

/*
 * Plans the phases for one measured workload on one target. Skip rule: purge and WIPC run once per target per
 * suite (the first workload on it); WDPC runs once per (target, class): a later workload of the same class on a
 * preconditioned target skips it. Read-only classes need no WDPC (reads do not change a drive's state) but get
 * purge and WIPC when they come first. A block-device purge without --destructive fails (ERR_USAGE).
 * Records the target and class in `hist`. plan must be released.
 */
int precond_plan(const struct precond_opts *o, const struct precond_target *t, struct precond_history *hist,
		 struct precond_plan *plan, struct errbuf *err);
void precond_plan_release(struct precond_plan *plan);
void precond_history_init(struct precond_history *h);
void precond_history_release(struct precond_history *h);

/* ---- the plan ----------------------------------------------------------------------------------------- */

/* What the command line says (options.c); NULL / 0: not given (a suite's keys apply, else the defaults). */
struct method_settings {
	const char *curve;              /* --curve 10,50,90,100 */
	const char *sweep;              /* --sweep iodepth=1,2,4 */
	const char *until[METHOD_MAX_UNTIL]; /* --until EXPR, in order */
	size_t nuntil;
	int precondition;               /* --precondition */
	unsigned max_rounds;            /* --max-rounds N (0: 25) */
	unsigned round_s;               /* --round-time T, seconds (0: 60, --quick: the workload's runtime) */
	/* what the caller knows that profiles/ may not include (bench/runloop_method.h: method_settings_init) */
	unsigned ss_window, ss_max_rounds; /* the steady-state rule's defaults (report/steady.h) */
	int (*label_is_point)(const char *key); /* labels not copied onto precondition entries, or NULL: none */
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

/*
 * The whole plan of what a command names (bench plan and bench run alike): the profiles expanded (plan_build,
 * or plan_build_interleaved when `interleave`), then curves and sweeps, then every run once per configuration
 * of the suites named (configs, outermost; config.h), then the preconditioning phases, which depend on the
 * configuration. `configs` (initialised by the caller) receives the configurations. -1: ERR_INPUT / ERR_USAGE.
 */
int plan_build_full(const char *const *args, size_t nargs, int interleave, const struct plan_options *opt,
		    const struct method_settings *m, struct plan *out, struct config_list *configs, struct errbuf *err);

/* ---- run-time arithmetic (over figures the run loop reads from the store) ---------------------------- */

#define METHOD_CURVE_TOL_PCT 5.0 /* a curve point whose achieved IOPS miss the target by more is flagged */

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
