/*
 * gate: the CI performance regression gate. Two sets of runs (baseline, candidate) are matched by workload;
 * every workload x metric pair is a cell. Each cell gets the candidate/baseline ratio with a confidence
 * interval computed on log values - a t interval (Welch, or one-sample on the paired differences) below
 * GATE_RANK_FROM runs per side, where no exact rank interval has the resolution, and from there on
 * Hodges-Lehmann with the exact Mann-Whitney interval (signed-rank for paired runs) - a p-value adjusted
 * across all cells (Benjamini-Hochberg), and a verdict:
 *
 *   REGRESSION    the interval excludes no-change on the bad side, the estimate is worse than the threshold and
 *                 the adjusted p-value is below 1 - conf;
 *   IMPROVEMENT   the mirror image;
 *   EQUIVALENT    the whole interval lies inside 1 +- threshold;
 *   INCONCLUSIVE  anything else (with an estimate of how many more runs per side would likely settle it);
 *   INVALID       too few valid runs (runs that failed, are partial, aborted, had fio errors, ran short or
 *                 are not at steady state are excluded with a reason), or the two sides are not like for like: their fingerprints
 *                 (gate_run.like: load-changing fio options, engine and its options, targets, host count)
 *                 differ in an item not named by --allow-diff.
 *
 * The outcome: PASS only when every cell has enough evidence (EQUIVALENT or IMPROVEMENT); REGRESSION;
 * INVALID; else INCONCLUSIVE (bench/ gives it an exit code of its own unless --on-inconclusive says pass/fail).
 *
 * Direction matters: IOPS and MiB/s are better higher; latency and CPU per IO are better lower. Pure code:
 * gate_select.h fills the sides from the store, bench/cmd_gate.c prints and picks the exit code.
 */
#ifndef BENCH_REPORT_GATE_H
#define BENCH_REPORT_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/model.h"
#include "core/strbuf.h"
#include "report/analysis/stats.h"

/* The figures a gate compares for every workload. Order = display order within a workload. */
enum gate_metric {
	GM_IOPS_READ = 0, GM_IOPS_WRITE, GM_IOPS_TRIM,
	GM_MBPS_READ, GM_MBPS_WRITE, GM_MBPS_TRIM,
	GM_LAT_MEAN_READ, GM_LAT_MEAN_WRITE, GM_LAT_MEAN_TRIM,
	GM_LAT_P99_READ, GM_LAT_P99_WRITE, GM_LAT_P99_TRIM,
	GM_CPU_PER_IO,
	GM_NR,
	GM_WORKLOAD = GM_NR /* pseudo-metric of a cell that stands for a whole workload without any figure */
};

struct gate_metric_info {
	const char *key;      /* "iops.read", "mibps.write", "lat_mean_us.read", "lat_p99_us.write", "cpu_us_per_io" */
	const char *title;    /* "read IOPS", "write p99 latency", ... */
	const char *unit;     /* unit of the displayed value when the title does not say it ("us"), or "" */
	double scale;         /* displayed = stored * scale (stored: IOPS, bytes/s, ns, CPU-us per IO) */
	int lower_is_better;  /* latency, CPU: 1; IOPS, bandwidth: 0 */
};
const struct gate_metric_info *gate_metric_info(enum gate_metric m); /* GM_WORKLOAD gives "all metrics" */

/*
 * What a gate judges (--metric): groups of metrics by the report's names. The default is what a storage CI job
 * gates on, throughput and a high percentile: iops, mbps and p99 (GATE_JUDGE_DEFAULT); mean latency (lat) and
 * CPU per IO (cpu_per_io) are then computed and shown as information, never the verdict.
 */
enum gate_group { GG_IOPS = 0, GG_MBPS, GG_LAT, GG_P99, GG_CPU, GG_NR };
#define GATE_JUDGE_DEFAULT ((1u << GG_IOPS) | (1u << GG_MBPS) | (1u << GG_P99))
#define GATE_JUDGE_ALL ((1u << GG_NR) - 1)
const char *gate_group_name(enum gate_group g);      /* "iops", "mbps", "lat", "p99", "cpu_per_io" */
enum gate_group gate_metric_group(enum gate_metric m);
/* Parses "iops,p99" or "all" into a mask of groups: 0, or -1 with ERR_USAGE naming the closest group name. */
int gate_parse_metrics(const char *arg, unsigned *mask, struct errbuf *err);
/* Parses "iops=5%,p99=15%" into per-group thresholds (fractions; untouched groups keep theirs): 0 or -1. */
int gate_parse_thresholds(const char *arg, double *thresholds, struct errbuf *err);

enum gate_verdict { GATE_REGRESSION = 0, GATE_IMPROVEMENT, GATE_EQUIVALENT, GATE_INCONCLUSIVE, GATE_INVALID,
		    GATE_VERDICT_NR };
const char *gate_verdict_name(enum gate_verdict v); /* "REGRESSION", ... */

/* One stored run as the gate sees it (filled by gate_select or by tests). */
struct gate_run {
	int64_t id;
	int64_t suite_id;
	char *name;           /* run (workload) name */
	char *key;            /* what workloads are matched on across sides (identity text or the name) */
	unsigned repetition;  /* 1-based; pairs runs with --paired */
	char *invalid;        /* why the run is excluded, or NULL when valid */
	char *remark;         /* what the outputs say about a valid run besides its figures (its steady state:
	                         "steady state reached at round 7", fio's ss= result), malloc'd, or NULL */
	int unsteady;         /* excluded because it is not at steady state (label steady_state, not reached:N) */
	double value[GM_NR];  /* stored units (see gate_metric_info.scale); NAN when not measured */
	struct kvlist like;   /* fingerprint: what must be equal on both sides (gate_run_set_like), sorted by key */
	int has_like;         /* like was filled; runs without a fingerprint are not compared */
	int like_shared;      /* like's storage is another run's of the same side (gate_run_share_like) */
};

struct gate_side {
	char *selection;      /* as the user wrote it: "suite:3", "git=abc123", "latest:branch=main" */
	struct gate_run *runs;
	size_t n, cap;
};

void gate_side_init(struct gate_side *s, const char *selection);
void gate_side_release(struct gate_side *s);
/* Appends a run with all values NAN and copies of the strings; returns it (valid until the next add). */
struct gate_run *gate_side_add(struct gate_side *s, int64_t id, const char *name, const char *key,
			       unsigned repetition);
/* Marks a run invalid (keeps the first reason). */
void gate_run_set_invalid(struct gate_run *r, const char *reason);
/* Adds a remark to a run (after an earlier one, separated by "; "). */
void gate_run_add_remark(struct gate_run *r, const char *remark);
/*
 * Fills r->like from the run's spec: the workload identity items (core/identity.h run_spec_identity_kv:
 * every option that changes the load, by core's option roles), "engine", "engine_opt.KEY" per engine
 * option, "targets" (joined with ',') and "hosts" (nhosts, 0 = a local run). Replaces an earlier fingerprint.
 */
void gate_run_set_like(struct gate_run *r, const struct run_spec *spec, unsigned nhosts);
/*
 * r's fingerprint is that of `from`, a run of the same side with the same spec and host count: the storage is
 * shared (not copied, not freed with r), which keeps a side of many repetitions small. `from` must stay in the
 * side, with its fingerprint unchanged, as long as r.
 */
void gate_run_share_like(struct gate_run *r, const struct gate_run *from);

/* Runs per side (the smaller side) from which GATE_METHOD_AUTO uses the rank interval instead of the t one. */
#define GATE_RANK_FROM 10
/* Fewest runs per side the t interval is used with: 2 degrees of freedom, and a spread that is not one number. */
#define GATE_T_MIN_RUNS 3
/* A t interval is not trusted when a log value (or paired difference) lies more than this many scaled MADs
 * from the median, and further from it than the gate's threshold (log(1 + threshold): a run within the
 * threshold of the others cannot carry a verdict alone) (stats_outlier_index); the cell then uses the
 * 20%-trimmed t interval (stats_trimmed_t_shift paired, stats_yuen_shift unpaired; method "trimmed-t" or
 * "yuen-t"), which stays bounded with 4 runs where the exact rank interval cannot reach 95%. */
#define GATE_OUTLIER_MADS 5.0
/* Fewest runs per side the outlier check (and so the trimmed interval) applies to. */
#define GATE_TRIM_MIN_RUNS 4

enum gate_method {
	GATE_METHOD_AUTO = 0, /* t below GATE_RANK_FROM runs per side, rank from there on */
	GATE_METHOD_T,        /* Welch t / paired t on log values */
	GATE_METHOD_RANK,     /* Hodges-Lehmann with the exact Mann-Whitney / signed-rank interval */
};

enum gate_on_inconclusive {
	GATE_INC_OWN = 0,     /* an outcome (and exit code) of its own */
	GATE_INC_PASS,        /* accepted: the gate passes */
	GATE_INC_FAIL,        /* fails like a regression */
};

struct gate_opts {
	double threshold;     /* fraction, e.g. 0.05 for +-5% */
	double conf;          /* confidence level of the intervals, e.g. 0.95; also 1 - the FDR level */
	unsigned min_runs;    /* fewer valid runs per side make a cell INVALID; 0 = what the method needs */
	int paired;           /* pair runs by repetition number (interleaved A B B A blocks) */
	enum gate_method method;
	enum gate_on_inconclusive on_inconclusive;
	int allow_invalid;    /* INVALID cells do not fail the gate */
	const char *const *allow_diff; /* fingerprint items that may differ (--allow-diff), borrowed */
	size_t nallow_diff;
	const char *db_path;  /* shown in the commands of the next steps; NULL = the default database */
	unsigned judged;      /* groups judged (--metric): mask of 1 << enum gate_group; 0 = GATE_JUDGE_DEFAULT */
	double group_threshold[GG_NR]; /* per group (--threshold iops=5%,p99=15%); 0 = threshold */
};
/* The threshold of metric m's cells, and whether its group is judged (else its cells are information). */
double gate_threshold_of(const struct gate_opts *o, enum gate_metric m);
int gate_metric_judged(const struct gate_opts *o, enum gate_metric m);
void gate_opts_default(struct gate_opts *o); /* 5%, 95%, min runs from the method, unpaired, auto */
/* The --min-runs in force: o->min_runs, or the method's own minimum at o->conf. */
unsigned gate_min_runs(const struct gate_opts *o);
/* "welch-t", "paired-t", "mann-whitney", "signed-rank" (a cell with an outlier: "yuen-t", "trimmed-t") */
const char *gate_method_name(int rank, int paired);

struct gate_cell {
	char *key;            /* workload key */
	char *workload;       /* display name (the baseline's run name) */
	enum gate_metric metric;
	/* valid samples, stored units; with --paired base[i] and cand[i] are one pair */
	double *base, *cand;
	int64_t *base_run, *cand_run;
	size_t nbase, ncand;
	enum gate_verdict verdict;
	const char *method;   /* gate_method_name() of the interval used, or NULL when not judged */
	char *note;           /* why INVALID, what would settle INCONCLUSIVE, ... or NULL */
	struct stats_shift s; /* of log(candidate) - log(baseline); valid unless INVALID */
	double ratio, ratio_lo, ratio_hi; /* exp of s.est, s.lo, s.hi */
	double q;             /* Benjamini-Hochberg adjusted p over all judged cells of the gate */
	double base_median, cand_median; /* stored units */
	double sd_log_base, sd_log_cand; /* spread of one run (standard deviation of log values ~ CV) */
	double sd_log;        /* pooled spread (paired: of the log differences) */
	unsigned runs_needed; /* per side, to likely settle the cell (INCONCLUSIVE) or for calibration */
	double badness;       /* log effect signed so that positive = worse; for sorting */
	int info;             /* its metric is not judged (--metric): shown, not counted in the outcome */
	int force_invalid;    /* set by gate_build: the figure is missing from one side's valid runs */
};

enum gate_outcome {
	GATE_PASS = 0,          /* every judged cell EQUIVALENT or IMPROVEMENT: exit 0 */
	GATE_FAIL_REGRESSION,   /* exit 1 */
	GATE_FAIL_INVALID,      /* an INVALID cell without allow_invalid: exit 3, never a pass */
	GATE_UNDECIDED,         /* INCONCLUSIVE: no regression, but a cell without the evidence to say so: exit 6, or what
				 * opts.on_inconclusive says */
};

struct gate {
	struct gate_opts opts;
	const struct gate_side *base, *cand; /* borrowed; must outlive the gate */
	struct gate_cell *cells;
	size_t ncells, cells_cap;
	char **notes;         /* workloads only on one side, metrics not measured on one side, ... */
	size_t nnotes, notes_cap;
	size_t count[GATE_VERDICT_NR]; /* of the judged cells; information cells are not counted */
	size_t ninfo;         /* information cells (metrics --metric does not judge) */
	double conf_achieved_min; /* smallest confidence level the judged cells' intervals reached */
};

void gate_init(struct gate *g, const struct gate_opts *opts);
void gate_release(struct gate *g);

/*
 * Matches the workloads of both sides and builds the cells (without judging them). -1 with ERR_INPUT when a
 * side has no runs or the sides have no workload in common.
 */
int gate_build(struct gate *g, const struct gate_side *base, const struct gate_side *cand, struct errbuf *err);
/* Statistics, Benjamini-Hochberg over all judged cells, verdicts, run estimates; sorts cells by effect. */
int gate_evaluate(struct gate *g, struct errbuf *err);

/*
 * The verdict of one cell from its shift (log ratio), adjusted p-value q, the FDR level alpha, the threshold
 * (fraction) and the metric's direction.
 */
enum gate_verdict gate_judge(const struct stats_shift *s, double q, double alpha, double threshold,
			     int lower_is_better);

enum gate_outcome gate_outcome(const struct gate *g);
/* The headline: "PASS", "REGRESSION", "INVALID", "INCONCLUSIVE", "INCONCLUSIVE (accepted: --on-inconclusive
 * pass)", "INCONCLUSIVE (fails: --on-inconclusive fail)". Never "PASS" unless the outcome is GATE_PASS. */
const char *gate_headline(const struct gate *g);
/* Whether the cell fails the gate as configured (REGRESSION, INVALID unless allowed, INCONCLUSIVE with
 * --on-inconclusive fail). */
int gate_cell_fails(const struct gate *g, const struct gate_cell *c);

/* Renderers. Everything user-given is escaped for the format. */
void gate_render_text(const struct gate *g, struct strbuf *out);     /* terminal table, sorted by effect */
void gate_render_markdown(const struct gate *g, struct strbuf *out); /* CI job summary / PR comment */
void gate_render_junit(const struct gate *g, struct strbuf *out);    /* one testcase per cell */
void gate_render_json(const struct gate *g, struct strbuf *out);     /* verdicts with the raw samples */
/* Next steps: per workload with a failing or undecided cell, the run ids of both sides and the commands
 * that show them (part of the text and Markdown output). */
void gate_render_next_steps(const struct gate *g, struct strbuf *out, int markdown);
/* Calibration (A/A) and planning: noise per cell and runs per side the threshold needs (gate_calibrate.c). */
void gate_render_calibration(const struct gate *g, struct strbuf *out);

#endif
