/*
 * test_stats_select: the Hodges-Lehmann shifts by selection (stats_diff_select, stats_walsh_select and the
 * shifts built on them) against brute force: every pairwise difference or Walsh average formed and sorted,
 * the estimate, interval and achieved level taken as the code before selection took them. Random samples,
 * tied samples (few distinct values), all values equal, one and two values per side, lopsided sizes, sizes
 * past the exact limit (normal approximation of the critical rank) and values whose differences overflow.
 * Results must be identical, not close.
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

#include "report/analysis/stats.h"

/* ---- the reference: all pairs formed and sorted ----------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *all_diffs(const double *x, size_t nx, const double *y, size_t ny)
{
	double *v = malloc(nx * ny * sizeof(*v));

	assert_non_null(v);
	for (size_t i = 0; i < nx; i++)
		for (size_t j = 0; j < ny; j++)
			v[i * ny + j] = y[j] - x[i];
	qsort(v, nx * ny, sizeof(*v), cmp_double);
	return v;
}

static double *all_walsh(const double *d, size_t n)
{
	double *v = malloc(n * (n + 1) / 2 * sizeof(*v));
	size_t k = 0;

	assert_non_null(v);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			v[k++] = 0.5 * (d[i] + d[j]);
	qsort(v, k, sizeof(*v), cmp_double);
	return v;
}

static long ref_critical(const double *cdf, size_t len, double alpha, double *conf)
{
	long c = -1;

	for (size_t u = 0; u < len && cdf[u] <= alpha / 2 * (1 + 1e-9); u++)
		c = (long)u;
	*conf = c >= 0 ? 1 - 2 * cdf[c] : 1;
	return c;
}

static long ref_critical_normal(double mu, double sd, double alpha, double *conf)
{
	double z = stats_norm_quantile(1 - alpha / 2);
	long c = (long)floor(mu - 0.5 - z * sd);

	if (c < 0) {
		*conf = 1;
		return -1;
	}
	*conf = 1 - 2 * stats_norm_cdf((c + 0.5 - mu) / sd);
	return c;
}

/* est, lo, hi, conf of the sorted cells e[0..n) with the critical rank c (the code before selection) */
static void ref_bounds(const double *e, size_t n, long c, double achieved, struct stats_shift *out)
{
	int in = c >= 0 && (size_t)c < n;

	out->est = (n & 1) ? e[n / 2] : 0.5 * (e[n / 2 - 1] + e[n / 2]);
	out->lo = in ? e[c] : -INFINITY;
	out->hi = in ? e[n - 1 - (size_t)c] : INFINITY;
	out->conf = achieved;
}

static void ref_mw(const double *x, size_t nx, const double *y, size_t ny, double conf, struct stats_shift *out)
{
	size_t nd = nx * ny;
	double *e = all_diffs(x, nx, y, ny), achieved;
	long c;

	if (nx + ny <= STATS_EXACT_MAX_N) {
		double *cdf = malloc((nd + 1) * sizeof(*cdf));
		assert_non_null(cdf);
		stats_mw_null_cdf(nx, ny, cdf);
		c = ref_critical(cdf, nd + 1, 1 - conf, &achieved);
		free(cdf);
	} else {
		c = ref_critical_normal((double)nd / 2, sqrt((double)nd * (double)(nx + ny + 1) / 12), 1 - conf,
					&achieved);
	}
	ref_bounds(e, nd, c, achieved, out);
	free(e);
}

static void ref_wsr(const double *d, size_t n, double conf, struct stats_shift *out)
{
	size_t nw = n * (n + 1) / 2;
	double *e = all_walsh(d, n), achieved;
	long c;

	if (n <= STATS_EXACT_MAX_N) {
		double *cdf = malloc((nw + 1) * sizeof(*cdf));
		assert_non_null(cdf);
		stats_wsr_null_cdf(n, cdf);
		c = ref_critical(cdf, nw + 1, 1 - conf, &achieved);
		free(cdf);
	} else {
		c = ref_critical_normal((double)nw / 2, sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24),
					1 - conf, &achieved);
	}
	ref_bounds(e, nw, c, achieved, out);
	free(e);
}

/* ---- comparisons ------------------------------------------------------------------------------------ */

/* The same double: equal and of the same sign (0 and -0 apart), or both NaN. */
static void assert_same(double a, double b, const char *what, size_t k)
{
	if ((isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b)))
		return;
	fail_msg("%s %zu: %.17g, brute force %.17g", what, k, a, b);
}

static void check_shift(const struct stats_shift *s, const struct stats_shift *r)
{
	assert_same(s->est, r->est, "estimate", 0);
	assert_same(s->lo, r->lo, "lower bound", 0);
	assert_same(s->hi, r->hi, "upper bound", 0);
	assert_same(s->conf, r->conf, "level", 0);
}

/* Every rank (or, for many cells, a spread of ranks with both ends) of both selections, and both shifts. */
static void check_case(const double *x, size_t nx, const double *y, size_t ny)
{
	struct errbuf err;
	struct stats_shift s, r;
	size_t nd = nx * ny, nw = nx * (nx + 1) / 2, step;
	double *e = all_diffs(x, nx, y, ny), *w = all_walsh(x, nx);

	errbuf_init(&err);
	step = nd > 400 ? nd / 97 : 1;
	for (size_t k = 0; k < nd; k += step)
		assert_same(stats_diff_select(x, nx, y, ny, k), e[k], "difference rank", k);
	assert_same(stats_diff_select(x, nx, y, ny, nd - 1), e[nd - 1], "difference rank", nd - 1);
	step = nw > 400 ? nw / 89 : 1;
	for (size_t k = 0; k < nw; k += step)
		assert_same(stats_walsh_select(x, nx, k), w[k], "Walsh rank", k);
	assert_same(stats_walsh_select(x, nx, nw - 1), w[nw - 1], "Walsh rank", nw - 1);
	free(e);
	free(w);

	for (int l = 0; l < 3; l++) {
		static const double levels[] = { 0.95, 0.9, 0.99 };
		assert_int_equal(stats_mw_shift(x, nx, y, ny, levels[l], &s, &err), 0);
		ref_mw(x, nx, y, ny, levels[l], &r);
		check_shift(&s, &r);
		assert_int_equal(stats_wsr_shift(x, nx, levels[l], &s, &err), 0);
		ref_wsr(x, nx, levels[l], &r);
		check_shift(&s, &r);
	}
}

static double *values(struct stats_rng *rng, size_t n, int kind)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));

	assert_non_null(v);
	for (size_t i = 0; i < n; i++) {
		switch (kind) {
		case 0: v[i] = stats_rng_normal(rng); break;                             /* no ties */
		case 1: v[i] = (double)(stats_rng_next(rng) % 4); break;                /* heavy ties */
		case 2: v[i] = 3.25; break;                                             /* all equal */
		case 3: v[i] = log(1000 + (double)(stats_rng_next(rng) % 50)); break;   /* log IOPS, ties */
		default: v[i] = (stats_rng_next(rng) & 1 ? 1 : -1) * 1.5e308 * stats_rng_uniform(rng); break;
		}
	}
	return v;
}

static void check_random(uint64_t seed, size_t nx, size_t ny, int kind)
{
	struct stats_rng rng;
	double *x, *y;

	stats_rng_seed(&rng, seed);
	x = values(&rng, nx, kind);
	y = values(&rng, ny, kind);
	if (kind == 0)
		for (size_t j = 0; j < ny; j++)
			y[j] += 0.3;
	check_case(x, nx, y, ny);
	free(x);
	free(y);
}

static void test_small_sizes_every_rank(void **state)
{
	(void)state;
	for (int kind = 0; kind < 5; kind++)
		for (size_t nx = 1; nx <= 9; nx++)
			for (size_t ny = 1; ny <= 9; ny++)
				check_random(1000 * (uint64_t)kind + 10 * nx + ny, nx, ny, kind);
}

static void test_known_ties(void **state)
{
	static const double x[] = { 1, 1, 2, 2, 2, 3 }, y[] = { 2, 2, 2, 2 }, one[] = { 5 }, two[] = { 5, 5 };

	(void)state;
	check_case(x, 6, y, 4);
	check_case(y, 4, x, 6);
	check_case(one, 1, one, 1);
	check_case(two, 2, one, 1);
	check_case(one, 1, two, 2);
	check_case(two, 2, two, 2);
}

static void test_many_random_cases(void **state)
{
	struct stats_rng rng;

	(void)state;
	stats_rng_seed(&rng, 19);
	for (int t = 0; t < 300; t++) {
		size_t nx = 1 + (size_t)(stats_rng_next(&rng) % 70), ny = 1 + (size_t)(stats_rng_next(&rng) % 70);
		check_random(stats_rng_next(&rng), nx, ny, t % 5);
	}
}

static void test_large_sizes(void **state)
{
	(void)state;
	check_random(7, 400, 350, 0);
	check_random(8, 400, 350, 1);
	check_random(9, 500, 3, 3);
	check_random(10, 2, 600, 0);
	check_random(11, 300, 300, 4);
	check_random(12, 257, 257, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_sizes_every_rank),
		cmocka_unit_test(test_known_ties),
		cmocka_unit_test(test_many_random_cases),
		cmocka_unit_test(test_large_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
