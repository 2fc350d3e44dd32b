/*
 * report: the read-only view of the store that every table, ratio table and chart is built from.
 *
 * report_load() reads runs (their workload identity, labels, status, hosts and the headline figures of the
 * aggregate host '*') through the store's reader (core/store_read.h) and applies --where selections
 * (select.h: the one selection language; a run's label overrides its suite's).
 * report_table_build() groups them into the raw-data table storage articles publish (one block per label group,
 * one row per workload, repetitions folded into median and min-max); cmp_build_n() compares the values of a
 * label (--compare transport=nvmeof,nvmeof-tcp:iser, the last one the baseline): one block per group with
 * every value and its ratios to the baseline (cmp_build: two values, A:B). Renderers (render.h) turn both into text,
 * CSV, Markdown, JSON or HTML; charts.h writes gnuplot scripts. Nothing here prints, runs a process or writes
 * to the database.
 */
#ifndef BENCH_REPORT_REPORT_H
#define BENCH_REPORT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/store.h"
#include "report/figures.h"

/* The headline metrics of a row, in table order. */
enum rep_metric {
	RM_IOPS = 0, /* IOs per second, all directions */
	RM_MBPS,     /* MiB/s (1,048,576 bytes per second), all directions */
	RM_CPU,      /* CPU utilisation, % */
	RM_RLAT,     /* read mean latency, ms */
	RM_WLAT,     /* write mean latency, ms */
	RM_RP99,     /* read 99th percentile latency, ms */
	RM_WP99,     /* write 99th percentile latency, ms */
	RM_NR
};

struct rep_metric_info {
	const char *key;     /* csv/json name: "iops", "mbps", "cpu_pct", "read_lat_ms", ... */
	const char *title;   /* column title: "IOPS", "MiB/s", ... */
	int higher_better;   /* 1: a ratio >= 1 is good (IOPS, MiB/s); 0: <= 1 is good (latency, CPU) */
	int decimals;        /* decimals in text tables */
};
extern const struct rep_metric_info rep_metrics[RM_NR];

/* One host of a run (table run_host, plus its own totals from table result). */
struct rep_host {
	char *host;               /* "*" is the aggregate */
	char *fio_version;        /* or NULL */
	double start_offset_ms;   /* NAN when unknown */
	int error_code;
	char *error;              /* or NULL */
	double usr_cpu_pct, sys_cpu_pct; /* NAN when unknown */
	double iops, mbps;        /* NAN when the host has no result rows */
};

struct cpuview_run; /* report/cpuview.h */

/* One stored run with its figures. Values unknown or not applicable are NAN. */
struct rep_run {
	int64_t id, suite_id;
	char *suite;              /* suite name */
	char *suite_created;      /* suite created_at */
	char *name;               /* workload (run) name */
	char *status;             /* running done failed partial aborted */
	char *error;              /* or NULL */
	char *engine;
	char *started_at, *finished_at;
	char *tool, *rw;          /* or NULL */
	char *bssplit;            /* or NULL */
	uint64_t bs_bytes;        /* 0 unknown */
	int read_pct, random_pct; /* -1 unknown */
	int iodepth, numjobs;     /* 0 unknown */
	int repetition;
	long runtime_s;           /* asked runtime, s; 0 unknown */
	char *identity;           /* workload identity (core/identity.h) from the stored spec; never NULL */
	struct kvlist labels;     /* run labels plus the suite's it lacks, sorted by key */
	struct figures fig;       /* the run's figures (figures.h, the one figures layer): every figure below,
				   * the gate's and the curves' come from it */
	double m[RM_NR];          /* the table's figures of fig (rep_metrics_from) */
	char *cpu_source;         /* where RM_CPU came from: "procstat", "node_exporter", "import", "fio", or NULL
				   * (fig.cpu_source) */
	int cpu_from_fio_job;     /* RM_CPU is fio's own usr+sys of its jobs (run_host), not a cpu row */
	double cpu_us_per_io;     /* CPU-microseconds per IO of the same row as RM_CPU (fig); NAN unknown */
	double target_cpu_pct;    /* CPU utilisation of the targets, % (fig); NAN unknown */
	int has_target_cpu;       /* the run has cpu rows of role target */
	struct cpuview_run *cpuview; /* CPU and disk figures (cpuview.h), with REP_CPU_DETAIL only; or NULL */
	const struct run_spec *spec; /* the parsed stored spec of a run with the same load (its name, seq,
	                                repetition and times may be another run's), or, for a run stored without
	                                a readable spec, its workload columns; owned by the set, never NULL */
	struct rep_host *hosts;   /* per host, '*' last */
	size_t nhosts;
};

struct spec_memo; /* load.c: the specs parsed for the set, one per distinct load */

struct rep_set {
	struct rep_run *v;
	size_t n, cap;
	struct spec_memo *memo;
};

enum rep_load_flags {
	REP_ALL_STATUS = 1 << 0, /* also running, failed and aborted runs (done and partial always) */
	REP_CPU_DETAIL = 1 << 1, /* also the cpu and disk rows of each run (rep_run.cpuview) */
};

void rep_set_init(struct rep_set *s);
void rep_set_release(struct rep_set *s);

/*
 * Selections (the language and its label rule are report/select.h's; these apply it to a report run).
 * rep_where_add parses one --where key=value (select_add); rep_run_matches says whether the run matches all
 * of `where`; rep_run_value gives a label or workload parameter of a run as text (NULL when it has none).
 */
int rep_where_add(struct kvlist *where, const char *arg, struct errbuf *err);
int rep_run_matches(const struct rep_run *r, const struct kvlist *where);
const char *rep_run_value(const struct rep_run *r, const char *key, char *buf, size_t len);

/*
 * Labels of the measurement method (docs/method.md) that say where a run stands in a curve, sweep, steady-state
 * sequence or precondition, or what came of it (curve_pct, vdbench.curve_pct, curve.*, sweep.*, ss_round,
 * steady_state, ss.*, precondition, precondition.*, fio.ss*): not a configuration, so never a group key of the
 * tables (the rows still differ by workload identity). "phase" stays a group key (users label phases).
 */
int rep_label_is_method(const char *key);

/*
 * Whether a label names where a run stands in a curve or sweep (curve_pct, vdbench.curve_pct,
 * curve.target_iops, sweep.*): a subset of rep_label_is_method, from the same one list (labels.c);
 * the run loop does not copy them onto precondition entries.
 */
int rep_label_is_curve_point(const char *key);

/*
 * Whether run r is the workload named `name` with identity `identity`: the one rule of "the same workload" for
 * a report's rows and a trend's series (name and identity, never identity alone; a run without a name goes by
 * its identity).
 */
const char *rep_run_workload_name(const struct rep_run *r);
int rep_run_is_workload(const struct rep_run *r, const char *name, const char *identity);

/* Reads runs (done and partial, or all with REP_ALL_STATUS) that match `where` (may be NULL). */
int report_load(struct store *st, const struct kvlist *where, unsigned flags, struct rep_set *out,
		struct errbuf *err);

/*
 * Whether every --by key and the --compare key name a label of some loaded run or a workload field: 0, or -1
 * with ERR_INPUT and the closest key ("--by stak: ... (did you mean 'stack'?)"). An empty set says nothing.
 */
int rep_check_keys(const struct rep_set *set, const struct kvlist *by, const char *cmp_key, struct errbuf *err);

/* Releases run i of the set and closes the gap (the order of the rest is kept). */
void rep_set_remove(struct rep_set *s, size_t i);

/*
 * The table's figures (RM_*) of a run's figures (figures.h): IOPS and MiB/s of all directions, mean and p99
 * latency of read and write in ms, CPU % of the initiators. Unknown: NAN.
 */
void rep_metrics_from(const struct figures *f, double m[RM_NR]);

/* ---- raw-data table ---------------------------------------------------------------------------- */

/* Repetitions of one figure: median and spread of the known values. */
struct rep_cell {
	unsigned n;               /* values that were known; 0: the cell is empty */
	double med, min, max;
};

struct rep_row {
	char *name;               /* workload name of its first run */
	char *match;              /* the key rows are matched by: identity "fio|4k|70|100" or the name */
	const struct rep_run **runs; /* the repetitions (done or partial), in store order */
	size_t nruns;
	int partial;              /* at least one run is partial */
	struct rep_cell c[RM_NR];
};

struct rep_group {
	char *title;              /* "stack=zfs-raidz transport=iser" or "(no labels)" */
	struct kvlist keys;       /* the label values that define the group */
	struct rep_row *rows;
	size_t n, cap;
};

struct rep_table {
	struct rep_group *v;
	size_t n, cap;
	struct kvlist by;         /* the --by keys (empty: full label sets) */
};

enum rep_match { REP_MATCH_IDENTITY = 0, REP_MATCH_NAME = 1 };

/* The key `r` is matched by in `bench report --compare` and `bench gate` alike (identity: rep_run.identity,
 * core/identity.h, or "name:NAME" when its block size, read % or random % is unknown; name: the run name).
 * Returned malloc'd. */
char *rep_match_key(const struct rep_run *r, enum rep_match how);

/* Median (of sorted copy), min and max of v[0..n) ignoring NANs. */
void rep_cell_fill(struct rep_cell *c, const double *v, size_t n);

/*
 * Groups the done/partial runs of `set`: by the --by keys (a list of keys, value ignored; empty: by the
 * whole label set), rows by workload name. Runs of other statuses are skipped (they are listed by -v).
 */
void rep_table_build(struct rep_table *t, const struct rep_set *set, const struct kvlist *by);
void rep_table_release(struct rep_table *t);

/* ---- ratio table ------------------------------------------------------------------------------- */

struct cmp_row {
	char *workload;           /* name of the A row, else the B row */
	char *match;
	const struct rep_row *a, *b; /* NULL: unmatched on that side */
	double ratio[RM_NR];      /* A/B of the medians; NAN when either is missing or B is 0 */
	/* N-way (every comparison; with two values at[0] == a, at[1] == b, ratios[0] == ratio): */
	const struct rep_row **at; /* [cmp_table.nvals]: the row of each compared value, NULL when it has none */
	double (*ratios)[RM_NR];  /* [nvals]: median of that value / median of the baseline (NAN as above) */
	size_t present;           /* how many values have a row */
};

struct cmp_group {
	char *title;
	struct kvlist keys;
	struct cmp_row *rows;
	size_t n, cap;
};

struct cmp_table {
	char *key, *a, *b;        /* --compare key=A:B; B is the baseline (N-way: A is the first value) */
	char **vals;              /* every compared value in the order given, the baseline last */
	size_t nvals;             /* >= 2 */
	enum rep_match match;
	struct rep_table *sides;  /* [nvals]: each value's runs grouped alike (owned) */
	struct cmp_group *v;
	size_t n, cap;
	size_t matched;           /* rows every value has */
	size_t unmatched_a, unmatched_b; /* rows without the baseline / rows of the baseline alone */
	size_t unmatched;         /* rows some value lacks (n rows - matched) */
};

/* Parses "key=A:B". */
int cmp_parse(const char *arg, char **key, char **a, char **b, struct errbuf *err);

/* Parses "key=A[,A2...]:B" (N-way; B is the baseline): *vals gets the values, B last, *nvals >= 2; a value
 * may appear once. Free each and the array. */
int cmp_parse_n(const char *arg, char **key, char ***vals, size_t *nvals, struct errbuf *err);

/*
 * Builds the ratio table: runs of `set` whose label `key` is A or B, grouped by `by` (empty: every label but
 * `key`), rows matched by identity or name. Fails (ERR_INPUT) when a side has no runs at all.
 */
int cmp_build(struct cmp_table *t, const struct rep_set *set, const char *key, const char *a, const char *b,
	      const struct kvlist *by, enum rep_match match, struct errbuf *err);
/* As cmp_build for vals[0..nvals) (the baseline last): one block per group with every value's row and
 * every ratio to the baseline. */
int cmp_build_n(struct cmp_table *t, const struct rep_set *set, const char *key, char *const *vals, size_t nvals,
		const struct kvlist *by, enum rep_match match, struct errbuf *err);
void cmp_release(struct cmp_table *t);

/*
 * Presentation of label values (--alias key=value:Alias, or a suite label "alias.KEY" = "value:Alias,..."):
 * rep_alias_add parses one --alias; rep_alias_from_runs adds the suite-label aliases of `set` that the list
 * lacks (a --alias given wins); rep_alias_get gives the alias of key=value, or `value` itself.
 * Labels whose key starts with "alias." are presentation, never a group key.
 */
int rep_alias_add(struct kvlist *aliases, const char *arg, struct errbuf *err);
void rep_alias_from_runs(struct kvlist *aliases, const struct rep_set *set);
const char *rep_alias_get(const struct kvlist *aliases, const char *key, const char *value);

/*
 * Order of groups as given (--order key=v1,v2,...): groups whose `key` value is listed come first in that
 * order, the rest keep their order after them. Applies to a raw table and a comparison alike.
 */
int rep_order_add(struct kvlist *order, const char *arg, struct errbuf *err);
void rep_table_order(struct rep_table *t, const struct kvlist *order);
void cmp_order(struct cmp_table *t, const struct kvlist *order);

/* Colour class of a ratio: "good" or "bad" by the metric's direction, "" for NAN; level 0..3 by magnitude. */
const char *cmp_class(enum rep_metric m, double ratio, int *level);

#endif
