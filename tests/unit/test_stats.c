/*
 * test_stats: the gate's statistics against brute force and against known truth.
 *
 * The exact null distributions are checked against enumeration of every arrangement; the Hodges-Lehmann
 * intervals, p-values and the gate's verdict rule are checked by seeded simulation (acceptance 1 of the
 * gate issue): 1000 A/A comparisons at n = 7 per side and 3% CV (lognormal), a true 10% regression at the same
 * noise, and the interval's coverage against the level it achieves. The rates are printed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "report/gate/gate.h"
#include "report/analysis/stats.h"

/* ---- exact distributions against enumeration ---------------------------------------------------- */

/* U = pairs (x_i, y_j) with y_j < x_i over all ways to place m x-items and n y-items in order. */
static void brute_mw(unsigned m, unsigned n, double *cdf)
{
	unsigned N = m + n;
	double *cnt = calloc(m * n + 1, sizeof(double)), total = 0, acc = 0;

	for (unsigned long mask = 0; mask < (1ul << N); mask++) {
		unsigned u = 0, ys = 0;
		if ((unsigned)__builtin_popcountl(mask) != m)
			continue;
		/* bit set = x at that rank; U counts y below each x */
		for (unsigned r = 0; r < N; r++) {
			if (mask & (1ul << r))
				u += ys;
			else
				ys++;
		}
		cnt[u]++;
		total++;
	}
	for (unsigned u = 0; u <= m * n; u++) {
		acc += cnt[u];
		cdf[u] = acc / total;
	}
	free(cnt);
}

static void test_mw_null_matches_enumeration(void **state)
{
	static const unsigned sizes[][2] = { { 1, 1 }, { 2, 3 }, { 4, 4 }, { 3, 7 }, { 7, 7 }, { 5, 9 } };
	(void)state;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		unsigned m = sizes[k][0], n = sizes[k][1];
		double *a = calloc(m * n + 1, sizeof(double)), *b = calloc(m * n + 1, sizeof(double));
		stats_mw_null_cdf(m, n, a);
		brute_mw(m, n, b);
		for (unsigned u = 0; u <= m * n; u++)
			assert_true(fabs(a[u] - b[u]) < 1e-12);
		free(a);
		free(b);
	}
	{
		/* the textbook critical value: n1 = n2 = 7, two-sided 5%: U <= 8 */
		double cdf[50];
		stats_mw_null_cdf(7, 7, cdf);
		assert_true(cdf[8] <= 0.025);
		assert_true(cdf[9] > 0.025);
	}
}

static void test_wsr_null_matches_enumeration(void **state)
{
	(void)state;
	for (unsigned n = 1; n <= 12; n++) {
		unsigned top = n * (n + 1) / 2;
		double *a = calloc(top + 1, sizeof(double)), *cnt = calloc(top + 1, sizeof(double)), acc = 0;
		stats_wsr_null_cdf(n, a);
		for (unsigned long mask = 0; mask < (1ul << n); mask++) {
			unsigned t = 0;
			for (unsigned r = 0; r < n; r++)
				if (mask & (1ul << r))
					t += r + 1;
			cnt[t]++;
		}
		for (unsigned t = 0; t <= top; t++) {
			acc += cnt[t];
			assert_true(fabs(a[t] - acc / (double)(1ul << n)) < 1e-12);
		}
		free(a);
		free(cnt);
	}
}

/* ---- estimates, intervals, p-values on small known cases ----------------------------------------- */

static void test_hl_known_values(void **state)
{
	struct stats_shift s;
	struct errbuf err;
	double x[] = { 1, 2, 3 }, y[] = { 4, 5, 6 };
	double x7[] = { 1, 2, 3, 4, 5, 6, 7 }, y7[] = { 11, 12, 13, 14, 15, 16, 17 };
	double d[] = { 1, 2, 3, 4, 5, 6, 7 };
	(void)state;

	errbuf_init(&err);
	assert_int_equal(stats_mw_shift(x, 3, y, 3, 0.95, &s, &err), 0);
	assert_true(fabs(s.est - 3) < 1e-12); /* differences 1..5, median 3 */
	/* 3 vs 3 cannot reach 95%: P(U = 0) = 1/20 > 2.5% */
	assert_true(isinf(s.lo) && isinf(s.hi));
	assert_true(fabs(s.p - 0.1) < 1e-12); /* 2 / C(6,3) */

	assert_int_equal(stats_mw_shift(x7, 7, y7, 7, 0.95, &s, &err), 0);
	assert_true(fabs(s.est - 10) < 1e-12);
	assert_true(fabs(s.p - 2.0 / 3432) < 1e-12);
	/* c = 8: interval [D_(9), D_(41)] of the 49 differences 4..16 */
	assert_true(s.lo > 4 && s.hi < 16 && s.lo < 10 && s.hi > 10);
	assert_true(s.conf > 0.95 && s.conf < 0.97);
	assert_int_equal(s.exact, 1);

	/* paired: all positive differences 1..7 -> p = 2/128, HL = median of Walsh averages = 4 */
	assert_int_equal(stats_wsr_shift(d, 7, 0.95, &s, &err), 0);
	assert_true(fabs(s.est - 4) < 1e-12);
	assert_true(fabs(s.p - 2.0 / 128) < 1e-12);
	assert_true(s.lo >= 1 && s.hi <= 7 && s.lo < 4 && s.hi > 4);

	/* ties: identical samples give p = 1 and a zero shift */
	{
		double a[] = { 5, 5, 5, 5 }, b[] = { 5, 5, 5, 5 };
		assert_int_equal(stats_mw_shift(a, 4, b, 4, 0.95, &s, &err), 0);
		assert_true(s.est == 0 && s.lo == 0 && s.hi == 0);
		assert_true(fabs(s.p - 1) < 1e-12);
	}
	/* bad input is refused with a message */
	{
		double bad[] = { 1, NAN };
		assert_int_equal(stats_mw_shift(bad, 2, x, 3, 0.95, &s, &err), -1);
		assert_non_null(strstr(err.msg, "finite"));
	}
}

static void test_large_samples_use_normal_approximation(void **state)
{
	struct stats_shift s;
	struct errbuf err;
	double x[40], y[40];
	(void)state;

	for (int i = 0; i < 40; i++) {
		x[i] = i;
		y[i] = i + 0.5;
	}
	errbuf_init(&err);
	assert_int_equal(stats_mw_shift(x, 40, y, 40, 0.95, &s, &err), 0);
	assert_int_equal(s.exact, 0);
	assert_true(fabs(s.est - 0.5) < 1e-12);
	assert_true(s.lo < 0.5 && s.hi > 0.5 && s.p > 0.5);
	assert_true(fabs(s.conf - 0.95) < 0.01);
}

static void test_bh(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005, NAN }, q[5];
	(void)state;

	stats_bh_adjust(p, 5, q);
	assert_true(fabs(q[0] - 0.02) < 1e-12);
	assert_true(fabs(q[1] - 0.04) < 1e-12);
	assert_true(fabs(q[2] - 0.04) < 1e-12);
	assert_true(fabs(q[3] - 0.02) < 1e-12);
	assert_true(isnan(q[4]));
}

static void test_rng_deterministic(void **state)
{
	struct stats_rng a, b;
	double s = 0, s2 = 0;
	(void)state;

	stats_rng_seed(&a, 42);
	stats_rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		assert_true(stats_rng_next(&a) == stats_rng_next(&b));
	for (int i = 0; i < 20000; i++) {
		double z = stats_rng_normal(&a);
		s += z;
		s2 += z * z;
	}
	assert_true(fabs(s / 20000) < 0.03);
	assert_true(fabs(s2 / 20000 - 1) < 0.05);
	assert_true(fabs(stats_norm_quantile(0.975) - 1.959964) < 1e-5);
}

/* ---- acceptance 1: simulated A/A and a true 10% regression ------------------------------------------- */

#define SIMS 1000
#define NSIDE 7

struct sim_rates {
	double regression, improvement, equivalent, inconclusive;
	double coverage, conf;
};

/*
 * SIMS comparisons of NSIDE runs per side of a higher-is-better metric (IOPS) with lognormal noise of this CV
 * and a true candidate/baseline ratio; optionally paired with a shared per-block drift.
 */
static void simulate(uint64_t seed, double cv, double true_ratio, int paired, struct sim_rates *r)
{
	struct stats_rng rng;
	double sigma = sqrt(log(1 + cv * cv)), truth = log(true_ratio);
	size_t count[GATE_VERDICT_NR] = { 0 }, covered = 0;
	double conf = 0;

	stats_rng_seed(&rng, seed);
	for (int k = 0; k < SIMS; k++) {
		double x[NSIDE], y[NSIDE], d[NSIDE];
		struct stats_shift s;
		struct errbuf err;
		enum gate_verdict v;

		for (int i = 0; i < NSIDE; i++) {
			double drift = paired ? 0.05 * stats_rng_normal(&rng) : 0;
			x[i] = log(10000.0) + drift + sigma * stats_rng_normal(&rng);
			y[i] = log(10000.0) + truth + drift + sigma * stats_rng_normal(&rng);
			d[i] = y[i] - x[i];
		}
		errbuf_init(&err);
		if (paired)
			assert_int_equal(stats_wsr_shift(d, NSIDE, 0.95, &s, &err), 0);
		else
			assert_int_equal(stats_mw_shift(x, NSIDE, y, NSIDE, 0.95, &s, &err), 0);
		/* one cell: its adjusted p-value is its p-value */
		v = gate_judge(&s, s.p, 0.05, 0.05, 0);
		count[v]++;
		if (s.lo <= truth && truth <= s.hi)
			covered++;
		conf = s.conf;
	}
	r->regression = (double)count[GATE_REGRESSION] / SIMS;
	r->improvement = (double)count[GATE_IMPROVEMENT] / SIMS;
	r->equivalent = (double)count[GATE_EQUIVALENT] / SIMS;
	r->inconclusive = (double)count[GATE_INCONCLUSIVE] / SIMS;
	r->coverage = (double)covered / SIMS;
	r->conf = conf;
}

static void print_rates(const char *what, const struct sim_rates *r)
{
	printf("%-40s REGRESSION %5.1f%%  IMPROVEMENT %5.1f%%  EQUIVALENT %5.1f%%  INCONCLUSIVE %5.1f%%  "
	       "coverage %5.1f%% (achieved level %.2f%%)\n",
	       what, r->regression * 100, r->improvement * 100, r->equivalent * 100, r->inconclusive * 100,
	       r->coverage * 100, r->conf * 100);
}

static void test_acceptance_simulated(void **state)
{
	struct sim_rates aa, reg, paa, preg;
	(void)state;

	simulate(20261130, 0.03, 1.0, 0, &aa);
	simulate(20261131, 0.03, 0.90, 0, &reg);
	simulate(20261132, 0.03, 1.0, 1, &paa);
	simulate(20261133, 0.03, 0.90, 1, &preg);
	printf("acceptance 1: %d simulated comparisons each, n = %d per side, CV 3%% lognormal, threshold 5%%, "
	       "95%% intervals\n", SIMS, NSIDE);
	print_rates("A/A, independent (Mann-Whitney):", &aa);
	print_rates("10% regression, independent:", &reg);
	print_rates("A/A, paired (signed-rank):", &paa);
	print_rates("10% regression, paired:", &preg);

	assert_true(aa.regression <= 0.01);
	assert_true(reg.regression >= 0.90);
	assert_true(fabs(aa.coverage - aa.conf) <= 0.02);
	assert_true(fabs(reg.coverage - reg.conf) <= 0.02);
	assert_true(paa.regression <= 0.01);
	assert_true(preg.regression >= 0.90);
	assert_true(fabs(paa.coverage - paa.conf) <= 0.02);
	assert_true(fabs(preg.coverage - preg.conf) <= 0.02);
	/* the level achieved at 7 + 7 is the discrete one just above 95% */
	assert_true(aa.conf >= 0.95 && aa.conf < 0.97);
}

/* The run-count estimate: at the predicted n an unchanged build is mostly EQUIVALENT. */
static void test_runs_needed_predicts_simulation(void **state)
{
	double cv = 0.03, sigma = sqrt(log(1 + cv * cv));
	unsigned n = stats_runs_needed(sigma, log1p(0.05), 0.95, 0.9, 0, 1000);
	struct stats_rng rng;
	size_t equivalent = 0;
	(void)state;

	assert_true(n >= 4 && n <= 30);
	assert_true(stats_runs_needed(sigma, log1p(0.02), 0.95, 0.9, 0, 1000) > n); /* tighter needs more */
	assert_true(stats_runs_needed(sigma, 0, 0.95, 0.9, 0, 1000) == 1000);
	assert_int_equal(stats_min_runs_for_conf(0.95, 0), 4);
	assert_int_equal(stats_min_runs_for_conf(0.95, 1), 6);
	stats_rng_seed(&rng, 7);
	for (int k = 0; k < 400; k++) {
		double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
		struct stats_shift s;
		struct errbuf err;
		for (unsigned i = 0; i < n; i++) {
			x[i] = sigma * stats_rng_normal(&rng);
			y[i] = sigma * stats_rng_normal(&rng);
		}
		errbuf_init(&err);
		assert_int_equal(stats_mw_shift(x, n, y, n, 0.95, &s, &err), 0);
		equivalent += gate_judge(&s, s.p, 0.05, 0.05, 0) == GATE_EQUIVALENT;
		free(x);
		free(y);
	}
	printf("runs needed for +-5%% at 3%% CV: %u per side; simulated A/A EQUIVALENT rate there: %.1f%%\n", n,
	       100.0 * (double)equivalent / 400);
	assert_true((double)equivalent / 400 >= 0.70);
}

/* ---- Student t: known quantiles (tables), Welch df, paired t, outliers, runs needed ------------------- */

static void test_t_distribution(void **state)
{
	/* two-sided 95% critical values t_{0.975, df} from the standard tables */
	static const struct { double df, q; } tab[] = {
		{ 1, 12.7062 }, { 2, 4.3027 }, { 3, 3.1824 }, { 4, 2.7764 }, { 6, 2.4469 }, { 9, 2.2622 },
		{ 12, 2.1788 }, { 30, 2.0423 }, { 120, 1.9799 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		assert_true(fabs(stats_t_quantile(0.975, tab[i].df) - tab[i].q) < 1e-3);
		assert_true(fabs(stats_t_cdf(tab[i].q, tab[i].df) - 0.975) < 1e-5);
		assert_true(fabs(stats_t_cdf(-tab[i].q, tab[i].df) - 0.025) < 1e-5);
	}
	assert_true(fabs(stats_t_quantile(0.995, 3) - 5.8409) < 1e-3);
	assert_true(fabs(stats_t_cdf(0, 5) - 0.5) < 1e-12);
	/* df = 1 is Cauchy: P(T <= 1) = 3/4 */
	assert_true(fabs(stats_t_cdf(1, 1) - 0.75) < 1e-9);
	assert_true(fabs(stats_inc_beta(0.3, 1, 1) - 0.3) < 1e-12);
	assert_true(fabs(stats_inc_beta(0.5, 2, 2) - 0.5) < 1e-12);
}

/* The 20%-trimmed intervals, by hand: 4 values, one trimmed from each end, 1 degree of freedom. */
static void test_trimmed_shifts(void **state)
{
	static const double d[] = { -0.1, -0.11, 0.3, -0.09 };
	static const double x[] = { 0, 0.01, -0.01, 0.5 }, y[] = { -0.1, -0.11, -0.09, -0.1 };
	double t975 = stats_t_quantile(0.975, 1);
	struct stats_shift s;
	struct errbuf err;
	(void)state;

	errbuf_init(&err);
	assert_true(fabs(t975 - 12.7062) < 1e-3);
	assert_int_equal(stats_trim_count(3), 0);
	assert_int_equal(stats_trim_count(4), 1);
	assert_int_equal(stats_trim_count(9), 1);
	assert_int_equal(stats_trim_count(10), 2);
	/* trimmed mean of -0.1, -0.09 = -0.095; winsorised -0.1 -0.1 -0.09 -0.09: s_w = sqrt(1e-4 / 3);
	 * se = s_w * sqrt(4) / 2 */
	assert_int_equal(stats_trimmed_t_shift(d, 4, 0.95, &s, &err), 0);
	assert_true(fabs(s.est + 0.095) < 1e-12);
	assert_true(fabs(s.hi - s.est - t975 * sqrt(1e-4 / 3)) < 1e-9);
	assert_true(s.hi < 0 && s.p < 0.05);
	assert_int_equal(stats_paired_t_shift(d, 4, 0.95, &s, &err), 0);
	assert_true(s.hi > 0); /* the plain t interval is swamped by the one outlier */
	/* Yuen: trimmed means 0.005 and -0.1; winsorised sums of squares 1e-4 and 0, h = 2: d_x = 5e-5, df 1 */
	assert_int_equal(stats_yuen_shift(x, 4, y, 4, 0.95, &s, &err), 0);
	assert_true(fabs(s.est + 0.105) < 1e-12);
	assert_true(fabs(s.hi - s.est - t975 * sqrt(5e-5)) < 1e-9);
	assert_true(s.hi < 0);
	assert_int_equal(stats_trimmed_t_shift(d, 3, 0.95, &s, &err), -1);
	assert_int_equal(stats_yuen_shift(x, 3, y, 4, 0.95, &s, &err), -1);
}

static void test_t_shifts(void **state)
{
	static const double x[] = { 10, 12, 11, 13 }, y[] = { 14, 15, 16, 15, 15 };
	static const double d[] = { 1.0, 1.2, 0.8, 1.1, 0.9 };
	static const double spread[] = { 1, 1.1, 0.9, 1.05, 0.95, 1.02, 3.0 };
	struct stats_shift s;
	struct errbuf err;
	(void)state;

	errbuf_init(&err);
	assert_int_equal(stats_welch_shift(x, 4, y, 5, 0.95, &s, &err), 0);
	/* mean 11.5 and 15, variances 5/3 and 0.5: se^2 = 0.41667 + 0.1, Welch df = 4.4218 (by hand) */
	assert_true(fabs(s.est - 3.5) < 1e-12);
	{
		double se = sqrt(5.0 / 12 + 0.1), h = 3.5 - s.lo;
		double df = (se * se) * (se * se) / ((5.0 / 12) * (5.0 / 12) / 3 + 0.01 / 4);
		assert_true(fabs(df - 4.4218) < 1e-3);
		assert_true(fabs(h - stats_t_quantile(0.975, df) * se) < 1e-9);
		assert_true(fabs(s.p - 2 * stats_t_cdf(-3.5 / se, df)) < 1e-12);
	}
	assert_true(s.p < 0.01);
	assert_int_equal(stats_paired_t_shift(d, 5, 0.95, &s, &err), 0);
	assert_true(fabs(s.est - 1.0) < 1e-12);
	assert_true(fabs(s.hi - s.lo - 2 * 2.7764 * stats_sd(d, 5) / sqrt(5)) < 1e-3);
	assert_int_equal(stats_paired_t_shift(d, 1, 0.95, &s, &err), -1);
	assert_int_equal(stats_outlier_index(spread, 7, 5, 0), 6);
	assert_int_equal(stats_outlier_index(spread, 6, 5, 0), -1);
	assert_int_equal(stats_outlier_index(spread, 3, 5, 0), -1);
	{
		/* three of four equal (MAD 0): the fourth is an outlier only with a floor it exceeds */
		const double same[] = { -0.1, -0.1, 0.2, -0.1 };
		assert_int_equal(stats_outlier_index(same, 4, 5, 0), -1);
		assert_int_equal(stats_outlier_index(same, 4, 5, 0.05), 2);
		assert_int_equal(stats_outlier_index(same, 4, 5, 0.5), -1);
	}
	{
		/* four pairs that agree within 3% (the sim case: 998/750, 995/750, 996/749, 993/728): far in MADs,
		 * near in the data's own unit; only the floor keeps the t interval */
		const double pairs[] = { log(750.0 / 998), log(750.0 / 995), log(749.0 / 996), log(728.0 / 993) };
		assert_int_equal(stats_outlier_index(pairs, 4, 5, 0), 3);
		assert_int_equal(stats_outlier_index(pairs, 4, 5, log1p(0.05)), -1);
	}
	/* 3% noise, +-5%: a handful of runs, not hundreds; paired needs fewer; more noise needs more */
	{
		unsigned u = stats_runs_needed_t(0.03, log(1.05), 0.95, 0.9, 0, 1000);
		unsigned p = stats_runs_needed_t(0.03, log(1.05), 0.95, 0.9, 1, 1000);
		printf("t interval, 3%% noise, +-5%%, 90%%: %u runs per side unpaired, %u pairs paired\n", u, p);
		assert_true(u >= 3 && u <= 12);
		assert_true(p <= u);
		assert_true(stats_runs_needed_t(0.06, log(1.05), 0.95, 0.9, 0, 1000) > u);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mw_null_matches_enumeration),
		cmocka_unit_test(test_wsr_null_matches_enumeration),
		cmocka_unit_test(test_hl_known_values),
		cmocka_unit_test(test_large_samples_use_normal_approximation),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_rng_deterministic),
		cmocka_unit_test(test_acceptance_simulated),
		cmocka_unit_test(test_runs_needed_predicts_simulation),
		cmocka_unit_test(test_t_distribution),
		cmocka_unit_test(test_t_shifts),
		cmocka_unit_test(test_trimmed_shifts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
