/*
 * table: the raw-data table storage articles publish and the ratio table (table.c).
 *
 * rep_table_build() groups runs (load.h) into one block per label group, one row per workload, repetitions
 * folded into median and min-max; cmp_build_n() compares the values of a label (--compare
 * transport=nvmeof,nvmeof-tcp:iser, the last one the baseline): one block per group with every value and its
 * ratios to the baseline (cmp_build: two values, A:B). Runs labelled phase=baseline (member baselines) are
 * left out of both and counted (rep_baseline_left).
 */
#ifndef BENCH_REPORT_TABLE_H
#define BENCH_REPORT_TABLE_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/strbuf.h"
#include "report/load.h"

/* ---- raw-data table ---------------------------------------------------------------------------- */

/* Repetitions of one figure: median and spread of the known values. */
/* Repetitions of one figure: median, min-max and the interval of the median (n >= 3). */
struct rep_cell {
	unsigned n;               /* values that were known; 0: the cell is empty */
	double med, min, max;
	double lo, hi;            /* interval of the median: order statistics x(j)..x(n+1-j), the narrowest
				   * with coverage >= 95 % (n >= 6), else min-max; NAN when n < 3 */
	double conf_pct;          /* coverage of [lo, hi] in % (binomial, distribution-free); 0 when n < 3 */
};

/* Runs measured for less than this, s, are marked "short" in every output (every --quick run: 10 s by default). */
#define REP_MIN_RUNTIME_S 30

struct rep_row {
	char *name;               /* workload name of its first run */
	char *match;              /* the key rows are matched by: identity "fio|4k|70|100" or the name */
	const struct rep_run **runs; /* the repetitions (done or partial), in store order */
	size_t nruns;
	int partial;              /* at least one run is partial */
	int single;               /* n = 1: one run, no spread (marked in every output) */
	int short_run;            /* some run measured < REP_MIN_RUNTIME_S (marked in every output) */
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
	struct kvlist split;      /* labels outside the --by keys whose values split rows a --by would have
				   * folded (never folded: the rows are named "NAME (key=value)"); values unused */
	size_t baseline;          /* done/partial runs labelled phase=baseline left out of the rows (rep_baseline_left) */
};

enum rep_match { REP_MATCH_IDENTITY = 0, REP_MATCH_NAME = 1 };

/*
 * Member baselines (`bench baseline`, docs/explain.md: runs labelled phase=baseline) measure one member device
 * alone; they are the explain model's input, not a configuration's result, so the tables leave them out, as
 * the precondition runs are (curve_report.h), unless the selection holds nothing else (`--where
 * phase=baseline` shows them). Returns how many done/partial runs of `set` are left out for that reason.
 */
size_t rep_baseline_left(const struct rep_set *set);
/* Appends the count line "N baseline run(s) left out: bench report --where phase=baseline" (n > 0; nothing
 * when n is 0), unescaped and without a newline: the renderer escapes it for its format. */
void rep_baseline_note(struct strbuf *sb, size_t n);

/* The key `r` is matched by in `bench report --compare` and `bench gate` alike (identity: rep_run.identity,
 * core/identity.h, or "name:NAME" when its block size, read % or random % is unknown; name: the run name).
 * Returned malloc'd. */
char *rep_match_key(const struct rep_run *r, enum rep_match how);

/* Median (of sorted copy), min and max of v[0..n) ignoring NANs. */
void rep_cell_fill(struct rep_cell *c, const double *v, size_t n);

/*
 * Groups the done/partial runs of `set`: by the --by keys (a list of keys, value ignored; empty: by the
 * whole label set but the labels that only name the workload: table.c naming_labels), rows by workload name. Runs of other statuses are skipped (they are listed by -v).
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
	int (*noise)[RM_NR];      /* [nvals]: 1 "within noise" (the ratio of the intervals, lo/hi..hi/lo, holds 1),
				   * 0 apart, -1 unknown (a side has n < 3) */
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
	struct kvlist away;       /* labels on the compared side, not group keys: their values never occur on
				   * two compared values (they change with the key, like stack with config) */
	size_t baseline;          /* runs of the compared values labelled phase=baseline left out (rep_baseline_left) */
	struct kvlist *cfg;       /* [nvals]: the configuration record's facts (cfg.*) of each value's runs,
				   * "(several)" when they differ within it; metadata, never a group key */
};

/* Parses "key=A:B". */
int cmp_parse(const char *arg, char **key, char **a, char **b, struct errbuf *err);

/* Parses "key=A[,A2...]:B" (N-way; B is the baseline): *vals gets the values, B last, *nvals >= 2; a value
 * may appear once. Free each and the array. */
int cmp_parse_n(const char *arg, char **key, char ***vals, size_t *nvals, struct errbuf *err);

/*
 * Builds the ratio table: runs of `set` whose label or run field `key` (rep_run_value) is A or B, grouped by
 * `by` (empty: every label but `key`, the compared-away labels and cfg.*), rows matched by identity or name.
 * Fails (ERR_INPUT) when a side has no runs at all.
 */
int cmp_build(struct cmp_table *t, const struct rep_set *set, const char *key, const char *a, const char *b,
	      const struct kvlist *by, enum rep_match match, struct errbuf *err);
/* As cmp_build for vals[0..nvals) (the baseline last): one block per group with every value's row and
 * every ratio to the baseline. */
int cmp_build_n(struct cmp_table *t, const struct rep_set *set, const char *key, char *const *vals, size_t nvals,
		const struct kvlist *by, enum rep_match match, struct errbuf *err);
/* As cmp_build_n with --match name and a map of workload names (cmp_map_parse; may be NULL): rows whose names
 * the map pairs are matched as one. */
int cmp_build_map(struct cmp_table *t, const struct rep_set *set, const char *key, char *const *vals, size_t nvals,
		  const struct kvlist *by, enum rep_match match, const struct kvlist *map, struct errbuf *err);
void cmp_release(struct cmp_table *t);

/*
 * Parses a --map file's text (`path` names it in errors): "NAME = NAME" lines pairing a workload name of one
 * side with one of the other ('#' comments, blank lines); each name once. Into *map: both names -> the first
 * (the key rows are matched by). ERR_INPUT "PATH:LINE: ..." on a bad line.
 */
int cmp_map_parse(const char *text, const char *path, struct kvlist *map, struct errbuf *err);

/*
 * When no row has every value (t->matched == 0): ERR_INPUT saying what kept the sides apart (the group
 * labels whose values differ between the sides, or no common workload) and the command that would match them
 * (`base_cmd`, e.g. "bench report --compare config=a:b", with --by or --match name added). 0 otherwise.
 */
int cmp_check_matched(const struct cmp_table *t, const char *base_cmd, struct errbuf *err);

/* Whether label `key` is the configuration record's (cfg.*): metadata, never a group key. */
int rep_label_is_cfg(const char *key);

/* Colour class of a ratio: "good" or "bad" by the metric's direction, "" for NAN; level 0..3 by magnitude. */
const char *cmp_class(enum rep_metric m, double ratio, int *level);

#endif
