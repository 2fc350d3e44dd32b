/*
 * stats: the statistics behind the CI gate, pure and deterministic (no I/O, no globals).
 *
 * - Hodges-Lehmann shift estimates with exact distribution-free confidence intervals: the Mann-Whitney
 *   interval for two independent samples (order statistics of the pairwise differences y_j - x_i) and the
 *   Wilcoxon signed-rank interval for paired samples (order statistics of the Walsh averages).
 * - Exact two-sided p-values of "no shift" for both tests (exact permutation distribution of the rank sums,
 *   midranks for ties; normal approximation with tie and continuity corrections for large samples).
 * - Benjamini-Hochberg adjustment of a family of p-values.
 * - Student t intervals on the mean shift (Welch for two independent samples, one-sample t for paired
 *   differences) with the t distribution computed from the regularised incomplete beta function: with 3-9
 *   runs per side an exact rank interval is either unreachable at 95% or as wide as the whole sample, a t
 *   interval on log values is not (normality of log values assumed; stats_outlier_index checks the worst
 *   violation, a run far from the others).
 * - How many runs per side an interval of a given half-width needs (for INCONCLUSIVE cells and calibration).
 * - A small seeded PRNG (splitmix64 seeding xoshiro256**) and normal deviates for simulations.
 *
 * Callers pass log values when they want ratios: a shift of log values is the log of a ratio.
 * Because the rank distributions are discrete, the interval's achieved confidence level is reported; it is the
 * smallest level at least as large as the one asked for that the sample sizes can reach.
 */
#ifndef BENCH_REPORT_STATS_H
#define BENCH_REPORT_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"

/* Sample sizes up to which the exact null distributions are used; above, the normal approximation. */
#define STATS_EXACT_MAX_N 60 /* m + n for Mann-Whitney, n for the signed-rank test */

struct stats_shift {
	double est;    /* Hodges-Lehmann estimate of the shift y - x (or of the centre of paired differences) */
	double lo, hi; /* confidence interval; -INFINITY/INFINITY when the samples are too small for the level */
	double conf;   /* confidence level the interval achieves (>= the level asked, when reachable) */
	double p;      /* two-sided p-value of "no shift" */
	int exact;     /* 1: exact null distributions, 0: normal approximation */
	size_t nx, ny; /* sample sizes used (paired: nx = ny = pairs) */
};

/*
 * Two independent samples x (baseline) and y (candidate): Hodges-Lehmann shift with the exact Mann-Whitney
 * interval at level `conf` (e.g. 0.95). Needs nx, ny >= 1 and finite values; -1 with ERR_INPUT otherwise.
 */
int stats_mw_shift(const double *x, size_t nx, const double *y, size_t ny, double conf, struct stats_shift *out,
		   struct errbuf *err);

/*
 * Paired differences d_i = y_i - x_i: Hodges-Lehmann (median of Walsh averages) with the exact signed-rank
 * interval. Zero differences are kept for the estimate and interval and dropped for the p-value (Wilcoxon).
 */
int stats_wsr_shift(const double *d, size_t n, double conf, struct stats_shift *out, struct errbuf *err);

/*
 * Order statistics behind the two shifts, without forming all the pairs (O((nx + ny) log(nx * ny)) expected
 * per call): the k-th smallest (0-based, k < nx*ny) of the differences y[j] - x[i], and the k-th smallest
 * (k < n(n+1)/2) of the Walsh averages (d[i] + d[j]) / 2, i <= j. Exactly the value at index k of the sorted
 * list of all of them (ties included). Inputs in any order, finite.
 */
double stats_diff_select(const double *x, size_t nx, const double *y, size_t ny, size_t k);
double stats_walsh_select(const double *d, size_t n, size_t k);

/*
 * Null distribution of the Mann-Whitney U (pairs with y < x) for sample sizes m and n without ties:
 * cdf[u] = P(U <= u) for u = 0..m*n. cdf must hold m*n+1 values. Exact counting (recursion
 * f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u)); used for any size the caller can afford.
 */
void stats_mw_null_cdf(size_t m, size_t n, double *cdf);
/* Null distribution of the signed-rank statistic T+ for n pairs without ties: cdf[t], t = 0..n(n+1)/2. */
void stats_wsr_null_cdf(size_t n, double *cdf);

/*
 * Welch's t interval for the shift mean(y) - mean(x) of two independent samples (nx, ny >= 2) at level conf,
 * with the Welch-Satterthwaite degrees of freedom; p is the two-sided p-value of "no shift". When both
 * samples have zero spread the interval is the point estimate and p is 0 (a shift) or 1 (none).
 */
int stats_welch_shift(const double *x, size_t nx, const double *y, size_t ny, double conf,
		      struct stats_shift *out, struct errbuf *err);
/* One-sample t interval for the mean of paired differences d (n >= 2), same conventions. */
int stats_paired_t_shift(const double *d, size_t n, double conf, struct stats_shift *out, struct errbuf *err);

/*
 * Robust t intervals for few runs with one outlier (the gate's choice below GATE_RANK_FROM runs when
 * stats_outlier_index fires): g = stats_trim_count(n) values are trimmed from each end. Paired: the
 * Tukey-McLaughlin interval of the trimmed mean of d, se = s_w / ((1 - 2g/n) sqrt(n)) with s_w the standard
 * deviation of the g-winsorised d, df = n - 2g - 1. Two samples: Yuen's interval of the difference of trimmed
 * means, winsorised variances and Welch-type degrees of freedom. Need n >= 4 (per side); -1 with ERR_INPUT
 * otherwise. Bounded whenever n >= 4, unlike the exact rank intervals (6 pairs, 4 per side at 95%).
 */
int stats_trimmed_t_shift(const double *d, size_t n, double conf, struct stats_shift *out, struct errbuf *err);
int stats_yuen_shift(const double *x, size_t nx, const double *y, size_t ny, double conf, struct stats_shift *out,
		     struct errbuf *err);
/* Values trimmed from each end: 20% rounded down, at least 1, leaving at least 2; 0 when n < 4. */
size_t stats_trim_count(size_t n);

/* Student t distribution with df > 0 degrees of freedom: P(T <= t), and its inverse (0 < prob < 1). */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double prob, double df);
/* Regularised incomplete beta function I_x(a, b), 0 <= x <= 1, a, b > 0. */
double stats_inc_beta(double x, double a, double b);

/*
 * The index of the value farthest from the median when it lies more than k scaled median absolute
 * deviations (1.4826 * MAD, the standard deviation for normal data) and more than min_dev from it; -1 when
 * none does, when n < 4, or when the MAD is 0 (more than half the values equal) and min_dev is 0 (with a
 * positive min_dev, a value further than it from the others is then the outlier). min_dev keeps a value that
 * is far in MADs but close in the data's own unit (runs that agree within a fraction of a percent) from
 * counting as an outlier.
 */
long stats_outlier_index(const double *x, size_t n, double k, double min_dev);

/*
 * Runs per side after which a t interval (Welch; paired: of the differences) at level conf is likely (with
 * probability `power`) to be narrower than `margin`, for a per-run standard deviation sigma of the log
 * values (paired: of the differences): the smallest n with (t_{1-a/2,df} + t_{power,df}) * sigma * sqrt(k/n)
 * <= margin, k = 2 independent, 1 paired, df = 2n - 2 or n - 1. At least 3; `cap` when more are needed.
 */
unsigned stats_runs_needed_t(double sigma, double margin, double conf, double power, int paired, unsigned cap);

/* Benjamini-Hochberg adjusted p-values (q-values) of p[0..n-1] into q (may alias p). NaN p stay NaN. */
void stats_bh_adjust(const double *p, size_t n, double *q);

/* Standard normal distribution function and its inverse (0 < prob < 1). */
double stats_norm_cdf(double z);
double stats_norm_quantile(double prob);

/* Median (copies; n >= 1), mean and sample standard deviation (n-1; 0 when n < 2). */
double stats_median(const double *x, size_t n);
double stats_mean(const double *x, size_t n);
double stats_sd(const double *x, size_t n);

/*
 * Runs per side after which an interval at level `conf` would likely (with probability `power`, one-sided
 * normal quantile added to the interval's) be narrower than `margin`, given a per-run standard deviation
 * `sigma` of the (log) values. Independent samples: half-width ~ z * sigma * sqrt(2/n) * sqrt(pi/3) (the
 * Hodges-Lehmann efficiency against the mean); paired: sigma is that of the differences and sqrt(1/n) is used.
 * Never below the smallest size whose exact interval can reach `conf`. Returns `cap` when more are needed
 * or the margin is not positive.
 */
unsigned stats_runs_needed(double sigma, double margin, double conf, double power, int paired, unsigned cap);

/* Smallest n per side (equal sizes) whose exact interval can reach level conf. */
unsigned stats_min_runs_for_conf(double conf, int paired);

/* ---- seeded pseudo-random numbers (xoshiro256**, seeded through splitmix64) ------------------ */

struct stats_rng {
	uint64_t s[4];
	int have_spare;
	double spare;
};

void stats_rng_seed(struct stats_rng *r, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *r);
double stats_rng_uniform(struct stats_rng *r); /* in (0, 1) */
double stats_rng_normal(struct stats_rng *r);  /* standard normal (polar method) */

#endif
