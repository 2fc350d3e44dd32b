/*
 * stats: Hodges-Lehmann shifts with exact Mann-Whitney and signed-rank intervals, exact p-values,
 * Benjamini-Hochberg, run-count estimates and a seeded PRNG (see stats.h). Pure functions, deterministic.
 *
 * Rank sums are handled as integers: tied values get midranks, and every rank is doubled so that midranks
 * (halves) stay integers; the exact permutation distributions are then counted by dynamic programming over
 * the items ("how many ways to pick k items whose doubled ranks sum to s"). Counts are kept in doubles: they
 * exceed 2^64 for the largest exact sizes, and only their ratios matter.
 */
#include "report/analysis/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "core/strbuf.h"

/* ---- small helpers ---------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_sorted(const double *v, size_t n)
{
	return (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double stats_median(const double *x, size_t n)
{
	double *v, m;

	if (n == 0)
		return NAN;
	v = xmalloc(n * sizeof(*v));
	memcpy(v, x, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	m = median_sorted(v, n);
	free(v);
	return m;
}

double stats_mean(const double *x, size_t n)
{
	double s = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

double stats_sd(const double *x, size_t n)
{
	double m, s = 0;

	if (n < 2)
		return 0;
	m = stats_mean(x, n);
	for (size_t i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

double stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

double stats_norm_quantile(double prob)
{
	double lo = -40, hi = 40;

	if (!(prob > 0))
		return -INFINITY;
	if (!(prob < 1))
		return INFINITY;
	for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
		double mid = 0.5 * (lo + hi);
		if (stats_norm_cdf(mid) < prob)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

static int check_finite(const double *v, size_t n, const char *what, struct errbuf *err)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return err_set(err, ERR_INPUT, "%s: value %zu is not a finite number", what, i + 1);
	return 0;
}

/* ---- exact null distributions without ties (for the intervals) -------------------------------- */

void stats_mw_null_cdf(size_t m, size_t n, double *cdf)
{
	size_t len = m * n + 1, stride = len;
	double *prev = xcalloc((n + 1) * stride, sizeof(double));
	double *cur = xcalloc((n + 1) * stride, sizeof(double));
	double total = 0, acc = 0;

	/* f(0, j, u) = [u == 0] */
	for (size_t j = 0; j <= n; j++)
		prev[j * stride] = 1;
	for (size_t i = 1; i <= m; i++) {
		double *t;

		memset(cur, 0, (n + 1) * stride * sizeof(double));
		cur[0] = 1; /* f(i, 0, u) = [u == 0] */
		for (size_t j = 1; j <= n; j++) {
			size_t top = i * j;
			for (size_t u = 0; u <= top; u++) {
				double v = cur[(j - 1) * stride + u];
				if (u >= j)
					v += prev[j * stride + u - j];
				cur[j * stride + u] = v;
			}
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	for (size_t u = 0; u < len; u++)
		total += prev[n * stride + u];
	for (size_t u = 0; u < len; u++) {
		acc += prev[n * stride + u];
		cdf[u] = acc / total;
	}
	free(prev);
	free(cur);
}

void stats_wsr_null_cdf(size_t n, double *cdf)
{
	size_t top = n * (n + 1) / 2;
	double *f = xcalloc(top + 1, sizeof(double));
	double total = 0, acc = 0;

	f[0] = 1;
	for (size_t r = 1; r <= n; r++)
		for (size_t s = top; s >= r; s--)
			f[s] += f[s - r];
	for (size_t t = 0; t <= top; t++)
		total += f[t];
	for (size_t t = 0; t <= top; t++) {
		acc += f[t];
		cdf[t] = acc / total;
	}
	free(f);
}

/*
 * Largest c with P(stat <= c) <= alpha/2, from an exact cdf of length len; -1 when even c = 0 is too likely.
 * The interval built from order statistics c and len-2-c then has confidence 1 - 2 cdf[c].
 */
static long critical_exact(const double *cdf, size_t len, double alpha, double *conf)
{
	long c = -1;

	/* A tiny tolerance so that a level reached exactly (e.g. 0.025) is not lost to rounding. */
	for (size_t u = 0; u < len && cdf[u] <= alpha / 2 * (1 + 1e-9); u++)
		c = (long)u;
	*conf = c >= 0 ? 1 - 2 * cdf[c] : 1;
	return c;
}

static long critical_normal(double mu, double sd, double alpha, double *conf)
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

/* ---- exact p-values with midranks (permutation distribution of the rank sum) ------------------ */

/* A value with its index: sorted by value, ties in index order (the sort is stable in effect). */
struct ranked {
	double v;
	size_t idx;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v == y->v)
		return (x->idx > y->idx) - (x->idx < y->idx);
	return (x->v > y->v) - (x->v < y->v);
}

/* Doubled midranks (1-based ranks times 2) of v[0..n-1] into r2; returns the tie term sum(t^3 - t). */
static double doubled_midranks(const double *v, size_t n, long *r2)
{
	struct ranked *s = xmalloc((n ? n : 1) * sizeof(*s));
	double ties = 0;

	for (size_t i = 0; i < n; i++) {
		s[i].v = v[i];
		s[i].idx = i;
	}
	qsort(s, n, sizeof(*s), cmp_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && s[j + 1].v == s[i].v)
			j++;
		/* ranks i+1 .. j+1, midrank (i+j+2)/2, doubled i+j+2 */
		for (size_t k = i; k <= j; k++)
			r2[s[k].idx] = (long)(i + j + 2);
		if (j > i) {
			double t = (double)(j - i + 1);
			ties += t * t * t - t;
		}
		i = j + 1;
	}
	free(s);
	return ties;
}

/* Two-sided p-value of the rank-sum statistic of y (scores r2[nx..nx+ny-1]) against its permutation law. */
static double mw_pvalue(const double *x, size_t nx, const double *y, size_t ny, int *exact)
{
	size_t N = nx + ny;
	double *all = xmalloc(N * sizeof(*all));
	long *r2 = xmalloc(N * sizeof(*r2));
	double ties, p;
	long w = 0, S = 0;

	memcpy(all, x, nx * sizeof(*all));
	memcpy(all + nx, y, ny * sizeof(*all));
	ties = doubled_midranks(all, N, r2);
	for (size_t i = 0; i < N; i++)
		S += r2[i];
	for (size_t i = nx; i < N; i++)
		w += r2[i];

	if (N <= STATS_EXACT_MAX_N) {
		/* dp[k][s]: ways to choose k of the items seen so far with doubled rank sum s */
		size_t stride = (size_t)S + 1;
		double *dp = xcalloc((ny + 1) * stride, sizeof(double));
		double le = 0, ge = 0, total = 0;
		long seen = 0;

		dp[0] = 1;
		for (size_t i = 0; i < N; i++) {
			long r = r2[i];
			size_t kmax = i + 1 < ny ? i + 1 : ny;
			seen += r;
			for (size_t k = kmax; k >= 1; k--)
				for (long s = seen; s >= r; s--)
					dp[k * stride + (size_t)s] += dp[(k - 1) * stride + (size_t)(s - r)];
		}
		for (long s = 0; s <= S; s++) {
			double c = dp[ny * stride + (size_t)s];
			total += c;
			if (s <= w)
				le += c;
			if (s >= w)
				ge += c;
		}
		p = 2 * fmin(le, ge) / total;
		free(dp);
		*exact = 1;
	} else {
		double n1 = (double)nx, n2 = (double)ny, n = (double)N;
		double mean2 = n2 * (n + 1);
		double var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
		double z = var > 0 ? (fabs((double)w - mean2) - 1) / (2 * sqrt(var)) : 0;
		p = z > 0 ? 2 * stats_norm_cdf(-z) : 1;
		*exact = 0;
	}
	free(all);
	free(r2);
	return p > 1 ? 1 : p;
}

/* Two-sided signed-rank p-value of d (zeros dropped, midranks of |d|). */
static double wsr_pvalue(const double *d, size_t n, int *exact)
{
	double *a = xmalloc((n ? n : 1) * sizeof(*a));
	int *pos = xmalloc((n ? n : 1) * sizeof(*pos));
	long *r2 = xmalloc((n ? n : 1) * sizeof(*r2));
	size_t m = 0;
	long S = 0, t = 0;
	double p;

	for (size_t i = 0; i < n; i++) {
		if (d[i] == 0)
			continue;
		a[m] = fabs(d[i]);
		pos[m] = d[i] > 0;
		m++;
	}
	if (m == 0) {
		*exact = 1;
		p = 1;
		goto out;
	}
	doubled_midranks(a, m, r2);
	for (size_t i = 0; i < m; i++) {
		S += r2[i];
		if (pos[i])
			t += r2[i];
	}
	if (m <= STATS_EXACT_MAX_N) {
		double *f = xcalloc((size_t)S + 1, sizeof(double));
		double le = 0, ge = 0, total = 0;
		long seen = 0;

		f[0] = 1;
		for (size_t i = 0; i < m; i++) {
			seen += r2[i];
			for (long s = seen; s >= r2[i]; s--)
				f[s] += f[s - r2[i]];
		}
		for (long s = 0; s <= S; s++) {
			total += f[s];
			if (s <= t)
				le += f[s];
			if (s >= t)
				ge += f[s];
		}
		p = 2 * fmin(le, ge) / total;
		free(f);
		*exact = 1;
	} else {
		double mean = (double)S / 2, var = 0, z;
		for (size_t i = 0; i < m; i++)
			var += (double)r2[i] * (double)r2[i] / 4;
		z = var > 0 ? (fabs((double)t - mean) - 1) / sqrt(var) : 0;
		p = z > 0 ? 2 * stats_norm_cdf(-z) : 1;
		*exact = 0;
	}
out:
	free(a);
	free(pos);
	free(r2);
	return p > 1 ? 1 : p;
}

/* ---- order statistics of pairwise differences and Walsh averages without forming them ------------- */

/*
 * The nx*ny differences y[j] - x[i] (x, y sorted ascending) and the n(n+1)/2 Walsh averages (d[i] + d[j]) / 2,
 * i <= j (d sorted ascending), seen as a grid: row i, column j. Rounding is monotone, so the computed values
 * are nondecreasing along every row and column (rows of the differences run over x from its largest value
 * down); the Walsh averages use the cells j >= i only. A rank is found by selection on the cells' values
 * (Monahan, ACM TOMS algorithm 616): each row keeps a window [lo, hi) of cells that may still hold the
 * answer; a pivot cell is drawn at random from the windows, the cells below it and not above it are counted
 * in O(rows + columns) by walking the rows' boundaries, and the windows shrink to the side that holds the
 * rank. Every value compared is a cell's own computed value, so the result is the exact order statistic
 * that sorting all the cells would give, ties included.
 */
struct grid {
	const double *a, *b; /* differences: a = x, b = y; Walsh: a = b = d */
	size_t nr, nc;
	int walsh;
	size_t *lo, *hi, *cut; /* per row: the window, and a boundary being counted */
	size_t *pre;           /* per row: cells in the windows of the rows before it */
};

static double grid_cell(const struct grid *g, size_t i, size_t j)
{
	if (g->walsh)
		return 0.5 * (g->a[i] + g->b[j]);
	return g->b[j] - g->a[g->nr - 1 - i];
}

static size_t grid_first(const struct grid *g, size_t i)
{
	return g->walsh ? i : 0;
}

/*
 * Cells below p (strict) or not above p: the count, with each row's boundary (its first cell not counted,
 * never before the row's first cell) in g->cut. The boundary does not move right from one row to the next.
 */
static size_t grid_count(const struct grid *g, double p, int strict)
{
	size_t j = g->nc, total = 0;

	for (size_t i = 0; i < g->nr; i++) {
		size_t first = grid_first(g, i);
		while (j > first) {
			double v = grid_cell(g, i, j - 1);
			if (strict ? v < p : v <= p)
				break;
			j--;
		}
		g->cut[i] = j > first ? j : first;
		total += g->cut[i] - first;
	}
	return total;
}

/* Narrows the windows with pivot p (a cell's value) for rank k: 1 when p is the answer. */
static int grid_narrow(struct grid *g, size_t k, double p)
{
	if (k < grid_count(g, p, 1)) { /* the answer is below p: cells >= p leave */
		for (size_t t = 0; t < g->nr; t++)
			if (g->cut[t] < g->hi[t])
				g->hi[t] = g->cut[t] > g->lo[t] ? g->cut[t] : g->lo[t];
		return 0;
	}
	if (k < grid_count(g, p, 0))
		return 1;
	for (size_t t = 0; t < g->nr; t++) /* the answer is above p: cells <= p leave */
		if (g->cut[t] > g->lo[t])
			g->lo[t] = g->cut[t] < g->hi[t] ? g->cut[t] : g->hi[t];
	return 0;
}

/* Cells below the windows (*below) and in them (returned); pre[i]: cells in the windows of rows before i. */
static size_t grid_active(const struct grid *g, size_t *below)
{
	size_t active = 0;

	*below = 0;
	for (size_t t = 0; t < g->nr; t++) {
		g->pre[t] = active;
		*below += g->lo[t] - grid_first(g, t);
		active += g->hi[t] - g->lo[t];
	}
	return active;
}

/* The value of the r-th cell (0-based) in the windows, rows in order. */
static double grid_active_cell(const struct grid *g, size_t r)
{
	size_t lo = 0, hi = g->nr;

	while (hi - lo > 1) { /* the last row with pre <= r */
		size_t mid = lo + (hi - lo) / 2;
		if (g->pre[mid] <= r)
			lo = mid;
		else
			hi = mid;
	}
	while (g->hi[lo] == g->lo[lo]) /* rows with empty windows share their pre with the next */
		lo++;
	return grid_cell(g, lo, g->lo[lo] + (r - g->pre[lo]));
}

#define GRID_SAMPLE 512
#define GRID_SORT 256 /* cells left in the windows that are sorted rather than narrowed */

/*
 * The cell of rank k (0-based) among all cells. Each round draws GRID_SAMPLE cells from the windows and
 * narrows with two of them that likely bracket the rank (Floyd and Rivest's selection), so that a few rounds
 * of O(rows + columns) counts leave at most GRID_SORT cells, which are sorted.
 */
static double grid_select(struct grid *g, size_t k)
{
	double sample[GRID_SAMPLE], ans, *v;
	struct stats_rng rng;
	size_t below, active, n = 0;

	stats_rng_seed(&rng, 0x5e1ec7ULL); /* pivots only: the result does not depend on them */
	for (size_t i = 0; i < g->nr; i++) {
		g->lo[i] = grid_first(g, i);
		g->hi[i] = g->nc;
	}
	/* cells left of the windows are below the answer, cells right of them above it */
	while ((active = grid_active(g, &below)) > GRID_SORT) {
		size_t m = active < GRID_SAMPLE ? active : GRID_SAMPLE, d = 2 * (size_t)sqrt((double)m) + 1;
		size_t at = (size_t)(((double)(k - below) + 0.5) / (double)active * (double)m);
		double plo, phi;

		for (size_t s = 0; s < m; s++)
			sample[s] = grid_active_cell(g, (size_t)(stats_rng_next(&rng) % active));
		qsort(sample, m, sizeof(*sample), cmp_double);
		plo = sample[at > d ? at - d : 0];
		phi = sample[at + d < m ? at + d : m - 1];
		if (grid_narrow(g, k, plo))
			return plo;
		if (phi != plo && grid_narrow(g, k, phi))
			return phi;
	}
	v = xmalloc((active ? active : 1) * sizeof(*v));
	for (size_t i = 0; i < g->nr; i++)
		for (size_t j = g->lo[i]; j < g->hi[i]; j++)
			v[n++] = grid_cell(g, i, j);
	qsort(v, n, sizeof(*v), cmp_double);
	ans = v[k - below];
	free(v);
	return ans;
}

/* The cell of rank k + 1 (< all cells) from a, the cell of rank k: a again, or the least cell above it. */
static double grid_next(struct grid *g, size_t k, double a)
{
	double next = INFINITY;
	int any = 0;

	if (grid_count(g, a, 0) > k + 1)
		return a;
	for (size_t i = 0; i < g->nr; i++) /* each row's first cell above a */
		if (g->cut[i] < g->nc) {
			double v = grid_cell(g, i, g->cut[i]);
			if (!any || v < next)
				next = v;
			any = 1;
		}
	return next;
}

static void grid_init(struct grid *g, const double *a, size_t nr, const double *b, size_t nc, int walsh)
{
	g->a = a;
	g->b = b;
	g->nr = nr;
	g->nc = nc;
	g->walsh = walsh;
	g->lo = xmalloc(4 * (nr ? nr : 1) * sizeof(size_t));
	g->hi = g->lo + nr;
	g->cut = g->hi + nr;
	g->pre = g->cut + nr;
}

static double *sorted_copy(const double *v, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

double stats_diff_select(const double *x, size_t nx, const double *y, size_t ny, size_t k)
{
	double *xs = sorted_copy(x, nx), *ys = sorted_copy(y, ny), v;
	struct grid g;

	grid_init(&g, xs, nx, ys, ny, 0);
	v = grid_select(&g, k);
	free(g.lo);
	free(xs);
	free(ys);
	return v;
}

double stats_walsh_select(const double *d, size_t n, size_t k)
{
	double *ds = sorted_copy(d, n), v;
	struct grid g;

	grid_init(&g, ds, n, ds, n, 1);
	v = grid_select(&g, k);
	free(g.lo);
	free(ds);
	return v;
}

/* ---- Hodges-Lehmann with intervals ------------------------------------------------------------- */

/*
 * The estimate (median of the n cells, the mean of the two middle ones when n is even) and the interval of
 * critical rank c (cells c and n-1-c; none: unbounded) of a grid.
 */
static void shift_from_grid(struct grid *g, size_t n, long c, double achieved, struct stats_shift *out)
{
	int in = c >= 0 && (size_t)c < n;

	if (n & 1) {
		out->est = grid_select(g, n / 2);
	} else {
		double a = grid_select(g, n / 2 - 1);
		out->est = 0.5 * (a + grid_next(g, n / 2 - 1, a));
	}
	out->lo = in ? grid_select(g, (size_t)c) : -INFINITY;
	out->hi = in ? grid_select(g, n - 1 - (size_t)c) : INFINITY;
	out->conf = achieved;
}

int stats_mw_shift(const double *x, size_t nx, const double *y, size_t ny, double conf, struct stats_shift *out,
		   struct errbuf *err)
{
	size_t nd = nx * ny;
	double *xs, *ys, alpha = 1 - conf, achieved;
	struct grid g;
	long c;
	int exact_ci, exact_p;

	memset(out, 0, sizeof(*out));
	if (nx < 1 || ny < 1)
		return err_set(err, ERR_INPUT, "a shift needs at least one value on each side (got %zu and %zu)", nx,
			       ny);
	if (!(conf > 0 && conf < 1))
		return err_set(err, ERR_INPUT, "confidence level must be between 0 and 1, got %g", conf);
	if (check_finite(x, nx, "baseline", err) < 0 || check_finite(y, ny, "candidate", err) < 0)
		return -1;

	if (nx + ny <= STATS_EXACT_MAX_N) {
		double *cdf = xmalloc((nd + 1) * sizeof(*cdf));
		stats_mw_null_cdf(nx, ny, cdf);
		c = critical_exact(cdf, nd + 1, alpha, &achieved);
		free(cdf);
		exact_ci = 1;
	} else {
		double mu = (double)nd / 2, sd = sqrt((double)nd * (double)(nx + ny + 1) / 12);
		c = critical_normal(mu, sd, alpha, &achieved);
		exact_ci = 0;
	}
	xs = sorted_copy(x, nx);
	ys = sorted_copy(y, ny);
	grid_init(&g, xs, nx, ys, ny, 0);
	shift_from_grid(&g, nd, c, achieved, out);
	free(g.lo);
	free(xs);
	free(ys);
	out->p = mw_pvalue(x, nx, y, ny, &exact_p);
	out->exact = exact_ci && exact_p;
	out->nx = nx;
	out->ny = ny;
	return 0;
}

int stats_wsr_shift(const double *d, size_t n, double conf, struct stats_shift *out, struct errbuf *err)
{
	size_t nw = n * (n + 1) / 2;
	double *ds, alpha = 1 - conf, achieved;
	struct grid g;
	long c;
	int exact_ci, exact_p;

	memset(out, 0, sizeof(*out));
	if (n < 1)
		return err_set(err, ERR_INPUT, "a paired shift needs at least one pair");
	if (!(conf > 0 && conf < 1))
		return err_set(err, ERR_INPUT, "confidence level must be between 0 and 1, got %g", conf);
	if (check_finite(d, n, "paired difference", err) < 0)
		return -1;

	if (n <= STATS_EXACT_MAX_N) {
		double *cdf = xmalloc((nw + 1) * sizeof(*cdf));
		stats_wsr_null_cdf(n, cdf);
		c = critical_exact(cdf, nw + 1, alpha, &achieved);
		free(cdf);
		exact_ci = 1;
	} else {
		double mu = (double)nw / 2, sd = sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24);
		c = critical_normal(mu, sd, alpha, &achieved);
		exact_ci = 0;
	}
	ds = sorted_copy(d, n);
	grid_init(&g, ds, n, ds, n, 1);
	shift_from_grid(&g, nw, c, achieved, out);
	free(g.lo);
	free(ds);
	out->p = wsr_pvalue(d, n, &exact_p);
	out->exact = exact_ci && exact_p;
	out->nx = out->ny = n;
	return 0;
}

/* ---- Benjamini-Hochberg ----------------------------------------------------------------------- */

void stats_bh_adjust(const double *p, size_t n, double *q)
{
	struct ranked *v = xmalloc((n ? n : 1) * sizeof(*v));
	size_t m = 0;
	double run = 1;

	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i])) {
			v[m].v = p[i];
			v[m].idx = i;
			m++;
		}
	qsort(v, m, sizeof(*v), cmp_ranked);
	/* q_(k) = min over j >= k of p_(j) * m / j, from the largest p down */
	for (size_t k = m; k >= 1; k--) {
		double adj = v[k - 1].v * (double)m / (double)k;
		if (adj < run)
			run = adj;
		v[k - 1].v = run;
	}
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			q[i] = NAN;
	for (size_t k = 0; k < m; k++)
		q[v[k].idx] = v[k].v;
	free(v);
}

/* ---- how many runs ------------------------------------------------------------------------------ */

unsigned stats_min_runs_for_conf(double conf, int paired)
{
	double alpha = 1 - conf;

	for (unsigned n = 1; n <= 60; n++) {
		/* smallest tail probability of the statistic: P(stat = 0) */
		double p0;
		if (paired) {
			p0 = ldexp(1.0, -(int)n);
		} else {
			double c = 1; /* C(2n, n) */
			for (unsigned i = 1; i <= n; i++)
				c = c * (double)(n + i) / (double)i;
			p0 = 1 / c;
		}
		if (p0 <= alpha / 2 * (1 + 1e-9))
			return n;
	}
	return 60;
}

unsigned stats_runs_needed(double sigma, double margin, double conf, double power, int paired, unsigned cap)
{
	double z, k = sqrt(M_PI / 3), n;
	unsigned nmin = stats_min_runs_for_conf(conf, paired);

	if (!(margin > 0) || !isfinite(sigma))
		return cap;
	if (sigma <= 0)
		return nmin < cap ? nmin : cap;
	z = stats_norm_quantile(1 - (1 - conf) / 2) + (power > 0.5 ? stats_norm_quantile(power) : 0);
	n = (z * sigma * k / margin) * (z * sigma * k / margin) * (paired ? 1 : 2);
	if (!(n < cap))
		return cap;
	n = ceil(n - 1e-9);
	if (n < nmin)
		n = nmin;
	return n < cap ? (unsigned)n : cap;
}

/* ---- Student t ---------------------------------------------------------------------------------- */

/* Continued fraction of the incomplete beta function (modified Lentz), for x < (a + 1) / (a + b + 2). */
static double beta_cf(double x, double a, double b)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m, num, del;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double stats_inc_beta(double x, double a, double b)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(x, a, b) / a;
	return 1 - front * beta_cf(1 - x, b, a) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * stats_inc_beta(df / (df + t * t), df / 2, 0.5); /* P(T > |t|) */
	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double prob, double df)
{
	double lo = 0, hi = 1, p = prob > 0.5 ? prob : 1 - prob;

	if (!(prob > 0 && prob < 1) || !(df > 0))
		return NAN;
	if (prob == 0.5)
		return 0;
	while (stats_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return prob > 0.5 ? (lo + hi) / 2 : -(lo + hi) / 2;
}

/* Fills out from a mean shift, its standard error and degrees of freedom. */
static void t_interval(double est, double se, double df, double conf, struct stats_shift *out)
{
	out->est = est;
	out->conf = conf;
	out->exact = 0;
	if (se > 0) {
		double h = stats_t_quantile(1 - (1 - conf) / 2, df) * se;
		out->lo = est - h;
		out->hi = est + h;
		out->p = 2 * stats_t_cdf(-fabs(est) / se, df);
	} else {
		out->lo = out->hi = est;
		out->p = est != 0 ? 0 : 1;
	}
}

int stats_welch_shift(const double *x, size_t nx, const double *y, size_t ny, double conf,
		      struct stats_shift *out, struct errbuf *err)
{
	double vx, vy, se2, df;

	if (nx < 2 || ny < 2)
		return err_set(err, ERR_INPUT, "a t interval needs at least 2 values per side, got %zu and %zu", nx, ny);
	if (check_finite(x, nx, "baseline", err) < 0 || check_finite(y, ny, "candidate", err) < 0)
		return -1;
	vx = stats_sd(x, nx);
	vy = stats_sd(y, ny);
	vx = vx * vx / (double)nx;
	vy = vy * vy / (double)ny;
	se2 = vx + vy;
	/* Welch-Satterthwaite; with one side without spread it is the other side's n - 1 */
	df = se2 > 0 ? se2 * se2 / (vx * vx / (double)(nx - 1) + vy * vy / (double)(ny - 1)) : (double)(nx + ny - 2);
	out->nx = nx;
	out->ny = ny;
	t_interval(stats_mean(y, ny) - stats_mean(x, nx), sqrt(se2), df, conf, out);
	return 0;
}

int stats_paired_t_shift(const double *d, size_t n, double conf, struct stats_shift *out, struct errbuf *err)
{
	if (n < 2)
		return err_set(err, ERR_INPUT, "a paired t interval needs at least 2 pairs, got %zu", n);
	if (check_finite(d, n, "paired differences", err) < 0)
		return -1;
	out->nx = out->ny = n;
	t_interval(stats_mean(d, n), stats_sd(d, n) / sqrt((double)n), (double)(n - 1), conf, out);
	return 0;
}

size_t stats_trim_count(size_t n)
{
	size_t g = n / 5;

	if (g < 1)
		g = 1;
	return n >= 2 * g + 2 ? g : 0;
}

/* The g-trimmed mean of x and (n - 1) times the g-winsorised variance, from a sorted copy. */
static void trim_winsor(const double *x, size_t n, size_t g, double *tmean, double *wss)
{
	double *s = xmalloc(n * sizeof(*s)), sum = 0, wmean = 0;

	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	for (size_t i = g; i < n - g; i++)
		sum += s[i];
	*tmean = sum / (double)(n - 2 * g);
	for (size_t i = 0; i < g; i++) {
		s[i] = s[g];
		s[n - 1 - i] = s[n - 1 - g];
	}
	for (size_t i = 0; i < n; i++)
		wmean += s[i];
	wmean /= (double)n;
	*wss = 0;
	for (size_t i = 0; i < n; i++)
		*wss += (s[i] - wmean) * (s[i] - wmean);
	free(s);
}

int stats_trimmed_t_shift(const double *d, size_t n, double conf, struct stats_shift *out, struct errbuf *err)
{
	size_t g = stats_trim_count(n), h = n - 2 * g;
	double tm, wss;

	if (n < 4)
		return err_set(err, ERR_INPUT, "a trimmed t interval needs at least 4 pairs, got %zu", n);
	if (check_finite(d, n, "paired differences", err) < 0)
		return -1;
	trim_winsor(d, n, g, &tm, &wss);
	out->nx = out->ny = n;
	/* Tukey-McLaughlin: se = s_w / ((1 - 2 gamma) sqrt(n)) = s_w sqrt(n) / h, df = h - 1 */
	t_interval(tm, sqrt(wss / (double)(n - 1)) * sqrt((double)n) / (double)h, (double)(h - 1), conf, out);
	return 0;
}

int stats_yuen_shift(const double *x, size_t nx, const double *y, size_t ny, double conf, struct stats_shift *out,
		     struct errbuf *err)
{
	size_t gx = stats_trim_count(nx), gy = stats_trim_count(ny), hx = nx - 2 * gx, hy = ny - 2 * gy;
	double tx, ty, wx, wy, dx, dy, se2, df;

	if (nx < 4 || ny < 4)
		return err_set(err, ERR_INPUT, "Yuen's interval needs at least 4 values per side, got %zu and %zu", nx,
			       ny);
	if (check_finite(x, nx, "baseline", err) < 0 || check_finite(y, ny, "candidate", err) < 0)
		return -1;
	trim_winsor(x, nx, gx, &tx, &wx);
	trim_winsor(y, ny, gy, &ty, &wy);
	dx = wx / (double)(hx * (hx - 1));
	dy = wy / (double)(hy * (hy - 1));
	se2 = dx + dy;
	df = se2 > 0 ? se2 * se2 / (dx * dx / (double)(hx - 1) + dy * dy / (double)(hy - 1)) : (double)(hx + hy - 2);
	out->nx = nx;
	out->ny = ny;
	t_interval(ty - tx, sqrt(se2), df, conf, out);
	return 0;
}

long stats_outlier_index(const double *x, size_t n, double k, double min_dev)
{
	double med, mad, *dev, worst = -1;
	long at = -1;

	if (n < 4)
		return -1;
	med = stats_median(x, n);
	dev = xmalloc(n * sizeof(*dev));
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	mad = stats_median(dev, n) * 1.4826;
	/* more than half the values equal: a value further than min_dev is infinitely many MADs away */
	for (size_t i = 0; i < n && (mad > 0 || min_dev > 0); i++)
		if (dev[i] > k * mad && dev[i] > min_dev && dev[i] > worst) {
			worst = dev[i];
			at = (long)i;
		}
	free(dev);
	return at;
}

/* Whether n runs per side give a t half-width (with the power allowance) of at most margin. */
static int t_runs_enough(unsigned n, double sigma, double margin, double conf, double power, int paired)
{
	double df = paired ? n - 1.0 : 2.0 * n - 2, q;

	q = stats_t_quantile(1 - (1 - conf) / 2, df) + (power > 0.5 ? stats_t_quantile(power, df) : 0);
	return q * sigma * sqrt((paired ? 1.0 : 2.0) / n) <= margin;
}

unsigned stats_runs_needed_t(double sigma, double margin, double conf, double power, int paired, unsigned cap)
{
	unsigned lo = 3, hi = cap; /* the half-width falls with n: bisect for the smallest n that is enough */

	if (!(margin > 0) || !isfinite(sigma) || cap <= 3)
		return cap;
	if (t_runs_enough(lo, sigma, margin, conf, power, paired))
		return lo;
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		if (t_runs_enough(mid, sigma, margin, conf, power, paired))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* ---- PRNG -------------------------------------------------------------------------------------- */

void stats_rng_seed(struct stats_rng *r, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&x);
	r->have_spare = 0;
	r->spare = 0;
}

uint64_t stats_rng_next(struct stats_rng *r)
{
	return rng_xoshiro256ss(r->s);
}

double stats_rng_uniform(struct stats_rng *r)
{
	double u;

	do
		u = (double)(stats_rng_next(r) >> 11) * 0x1.0p-53;
	while (u == 0);
	return u;
}

double stats_rng_normal(struct stats_rng *r)
{
	double u, v, s;

	if (r->have_spare) {
		r->have_spare = 0;
		return r->spare;
	}
	do {
		u = 2 * stats_rng_uniform(r) - 1;
		v = 2 * stats_rng_uniform(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	s = sqrt(-2 * log(s) / s);
	r->spare = v * s;
	r->have_spare = 1;
	return u * s;
}
