/*
 * trend: the history of a metric and the runs where it changed (`bench trend`).
 *
 * The runs of a selection are grouped into series by workload name and identity (the rows of `bench report`;
 * identity alone would fold two workloads whose modelled options agree into one), ordered by start time or by
 * a label (a build number such as git-seq), and each series is split into segments by E-divisive means
 * (Matteson & James 2014, energy distance with alpha = 1, hierarchical bisection) with the significance test
 * Otava uses in place of the permutation test: a Welch t-test between the two segments a candidate split
 * makes, the split kept when p < pvalue. Unlike Otava, a segment whose best split is not significant is not
 * given up: the two sides of that split are searched the same way, so a clear step beside a large but noisy
 * one is still found. Afterwards every change point is re-tested against its neighbouring segments and the
 * weakest one above pvalue removed until all hold. Everything works on log values, so a step is a ratio; its
 * interval is the Welch t interval of the log means of the two neighbouring segments.
 *
 * Incremental: trend_detect() takes the change points of an earlier analysis of the series' first points and
 * keeps those before the last of them, searching only from there on (a new run can only split the newest
 * segments); trend_detect_stats says how much work was done.
 *
 * Pure code apart from trend_write_charts (which writes a gnuplot script and its data file per series through
 * the one chart writer, chart_gnuplot.h; bench/ runs gnuplot). Nothing here prints or touches SQL: series come from report_load()'s rep_set.
 */
#ifndef BENCH_REPORT_TREND_H
#define BENCH_REPORT_TREND_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/strbuf.h"
#include "report/load.h"

struct trend_opts {
	double pvalue;        /* a split is kept when the t-test's two-sided p is below this (default 0.001) */
	double threshold;     /* a newest step worse than this fraction is a regression (default 0.05) */
	double conf;          /* confidence level of the step intervals (default 0.95) */
	unsigned min_size;    /* fewest points of a segment (default 5) */
};
void trend_opts_default(struct trend_opts *o);

struct trend_detect_stats {
	size_t first_searched; /* index of the first point of the part that was searched again */
	size_t qhat_evals;     /* candidate splits whose energy statistic was computed */
};

/*
 * Change points of x[0..n) (log values): indices i where a new segment starts, ascending, into *cps (malloc'd,
 * *ncps of them). prev/nprev: the change points of an earlier call on a prefix of the same series (or NULL/0):
 * those before the last of them are kept and not searched again. stats may be NULL.
 */
int trend_detect(const double *x, size_t n, const struct trend_opts *o, const size_t *prev, size_t nprev,
		 size_t **cps, size_t *ncps, struct trend_detect_stats *stats, struct errbuf *err);

struct trend_point {
	int64_t run_id;
	char *order;          /* the order value: started_at or the label's value */
	double value;         /* the metric, report units (rep_metrics) */
};

struct trend_change {
	size_t at;            /* index of the first point of the new segment */
	double p;             /* two-sided Welch p between the neighbouring segments */
	double ratio, lo, hi; /* geometric mean after / before, with its interval */
	int regression;       /* the step is worse than the threshold in the metric's direction */
};

struct trend_series {
	char *workload;       /* name of the series' first run */
	char *identity;       /* what the runs are grouped by */
	struct trend_point *pts;
	size_t n, cap;
	struct trend_change *chg;
	size_t nchg;
	double *seg_mean;     /* geometric mean of each segment (nchg + 1 of them), report units */
	int newest_regression; /* the newest segment is a regression against the one before it */
};

struct trend {
	struct trend_opts opts;
	enum rep_metric metric;
	char *order_key;      /* "started_at" or a label key */
	struct trend_series *v;
	size_t n, cap;
	size_t skipped;       /* runs without the order label or without the metric */
};

void trend_init(struct trend *t, const struct trend_opts *o, enum rep_metric m, const char *order_key);
void trend_release(struct trend *t);

/* The metric named key ("iops", "mbps", "read_lat_ms", ... as in rep_metrics), or -1. */
int trend_metric_parse(const char *key);

/*
 * Series from the runs of set (done and partial), grouped by identity, ordered by the order key: numbers
 * when every value is one, else text; ties by run id. -1 with ERR_INPUT when no run has the metric.
 */
int trend_build(struct trend *t, const struct rep_set *set, struct errbuf *err);
/* Change points, steps and verdicts of every series. */
int trend_analyse(struct trend *t, struct errbuf *err);
/* Whether any series' newest segment is a regression (bench trend exits 1). */
int trend_regressed(const struct trend *t);

void trend_render_text(const struct trend *t, struct strbuf *out);
void trend_render_markdown(const struct trend *t, struct strbuf *out);
void trend_render_json(const struct trend *t, struct strbuf *out);

struct chart_set; /* report/chart/chart_gnuplot.h */
/*
 * Writes trend-NN-<slug>.gp and .dat per series into the chart set's directory (chart_set_dir), one chart
 * of kind CHART_TREND each (the series as points, each segment's mean as a line; the set's images and dpi).
 */
int trend_write_charts(const struct trend *t, struct chart_set *cs, struct errbuf *err);

#endif
