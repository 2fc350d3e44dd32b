/*
 * test_trend: change points in the history of a metric (report/analysis/trend.h).
 *
 * Seeded synthetic histories (lognormal noise, cv 3%): 40 runs with steps of -15% at run 15 and +10% at run
 * 30 must give exactly those two change points (+-1 run); 100 histories of 40 runs without a step must give
 * none in at least 95 of them; the incremental search must give what a full search gives with less work.
 * One history is stored in a real SQLite file through core/store (the path `bench run` uses), read back with
 * report_load and analysed end to end, with every renderer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "core/store.h"
#include "report/load.h"
#include "report/analysis/stats.h"
#include "report/analysis/trend.h"
#include "testutil.h"

#define NRUNS 40

/* x[i] = log of a run's IOPS: 10000, x0.85 from run 15 on, then x1.10 (steps 2: x0.90) from run 30 on (runs
 * 1-based); steps 0: no step. */
static void history(uint64_t seed, int steps, double cv, double *x)
{
	struct stats_rng rng;
	double sigma = sqrt(log(1 + cv * cv));

	stats_rng_seed(&rng, seed);
	for (int i = 0; i < NRUNS; i++) {
		double level = log(10000);
		if (steps && i + 1 >= 15)
			level += log(0.85);
		if (steps && i + 1 >= 30)
			level += log(steps == 2 ? 0.90 : 1.10);
		x[i] = level + sigma * stats_rng_normal(&rng);
	}
}

static int near(size_t got, size_t want)
{
	return got + 1 >= want && got <= want + 1;
}

/* The change points found in the default way in history(SEED, STEPS, cv 3%) (free *CPS). */
static void detect(uint64_t seed, int steps, size_t **cps, size_t *n)
{
	struct trend_opts o;
	struct errbuf err;
	double x[NRUNS];

	trend_opts_default(&o);
	errbuf_init(&err);
	history(seed, steps, 0.03, x);
	assert_int_equal(trend_detect(x, NRUNS, &o, NULL, 0, cps, n, NULL, &err), 0);
}

/* How many of the 100 histories from seed FIRST with STEPS give change points that WANT accepts. */
static size_t count_histories(uint64_t first, int steps, int (*want)(const size_t *cps, size_t n))
{
	size_t count = 0;

	for (uint64_t seed = first; seed < first + 100; seed++) {
		size_t *cps, n;

		detect(seed, steps, &cps, &n);
		count += want(cps, n) != 0;
		free(cps);
	}
	return count;
}

/* Both steps found (+-1 run), nothing else: index 14 = run 15, index 29 = run 30. */
static int two_steps(const size_t *cps, size_t n)
{
	return n == 2 && near(cps[0], 14) && near(cps[1], 29);
}

static int no_change(const size_t *cps, size_t n)
{
	(void)cps;
	return n == 0;
}

static void test_two_steps_found(void **state)
{
	size_t exact, *cps, n;
	(void)state;

	detect(1, 1, &cps, &n);
	assert_int_equal(n, 2);
	assert_true(near(cps[0], 14) && near(cps[1], 29));
	free(cps);
	exact = count_histories(1, 1, two_steps);
	printf("steps -15%% at run 15, +10%% at run 30, cv 3%%: both found (+-1 run) and nothing else in %zu of 100 "
	       "seeded histories\n", exact);
	assert_true(exact >= 95);
}

static void test_no_step_no_change(void **state)
{
	size_t clean = count_histories(1001, 0, no_change);
	(void)state;

	printf("no step, cv 3%%: no change point in %zu of 100 seeded histories of %d runs\n", clean, NRUNS);
	assert_true(clean >= 95);
}

static void test_incremental(void **state)
{
	struct trend_opts o;
	struct errbuf err;
	double x[NRUNS + 10];
	size_t *full, nfull, *part, npart, *inc, ninc;
	struct trend_detect_stats sf, si;
	struct stats_rng rng;
	(void)state;

	trend_opts_default(&o);
	errbuf_init(&err);
	history(7, 1, 0.03, x);
	/* ten more runs at the last level */
	stats_rng_seed(&rng, 99);
	for (int i = NRUNS; i < NRUNS + 10; i++)
		x[i] = log(10000 * 0.85 * 1.10) + 0.03 * stats_rng_normal(&rng);
	assert_int_equal(trend_detect(x, NRUNS, &o, NULL, 0, &part, &npart, NULL, &err), 0);
	assert_int_equal(npart, 2);
	assert_int_equal(trend_detect(x, NRUNS + 10, &o, NULL, 0, &full, &nfull, &sf, &err), 0);
	assert_int_equal(trend_detect(x, NRUNS + 10, &o, part, npart, &inc, &ninc, &si, &err), 0);
	assert_int_equal(nfull, ninc);
	for (size_t i = 0; i < nfull; i++)
		assert_int_equal(full[i], inc[i]);
	assert_int_equal(si.first_searched, part[0]);
	assert_true(si.qhat_evals < sf.qhat_evals);
	printf("incremental: 10 runs added to 40, searched from run %zu, %zu split evaluations instead of %zu\n",
	       si.first_searched + 1, si.qhat_evals, sf.qhat_evals);
	free(full);
	free(part);
	free(inc);
}

/*
 * A step at run 8 (100 -> 125, 1-2% noise) and a short final segment of 5 wild runs: the largest energy
 * statistic of the whole series is at the wild tail (index 20), whose t-test fails; Otava's bisection stops
 * there and finds nothing. Searching the sides of that split finds the step at 8, and it holds in the re-test.
 */
static void test_step_beside_noisy_tail(void **state)
{
	static const double v[] = { 97,  101, 99,  99,  103, 102, 99,  101, 123, 126, 127, 124, 126,
				    125, 125, 125, 125, 128, 127, 126, 166, 290, 332, 299, 286 };
	const size_t n = sizeof(v) / sizeof(v[0]);
	double x[sizeof(v) / sizeof(v[0])];
	struct trend_opts o;
	struct errbuf err;
	size_t *cps, ncps;
	(void)state;

	for (size_t i = 0; i < n; i++)
		x[i] = log(v[i]);
	trend_opts_default(&o);
	errbuf_init(&err);
	assert_int_equal(trend_detect(x, n, &o, NULL, 0, &cps, &ncps, NULL, &err), 0);
	assert_int_equal(ncps, 1);
	assert_int_equal(cps[0], 8);
	free(cps);
}

static void test_degenerate(void **state)
{
	static const double flat[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	static const double jump[10] = { 1, 1, 1, 1, 1, 2, 2, 2, 2, 2 };
	static const double bad[3] = { 1, NAN, 1 };
	struct trend_opts o;
	struct errbuf err;
	size_t *cps, n;
	(void)state;

	trend_opts_default(&o);
	errbuf_init(&err);
	assert_int_equal(trend_detect(flat, 8, &o, NULL, 0, &cps, &n, NULL, &err), 0);
	assert_int_equal(n, 0);
	free(cps);
	/* no noise at all: the step is certain */
	assert_int_equal(trend_detect(jump, 10, &o, NULL, 0, &cps, &n, NULL, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cps[0], 5);
	free(cps);
	/* shorter than two segments of the minimum size: nothing to split */
	assert_int_equal(trend_detect(jump, 9, &o, NULL, 0, &cps, &n, NULL, &err), 0);
	assert_int_equal(n, 0);
	free(cps);
	assert_int_equal(trend_detect(flat, 2, &o, NULL, 0, &cps, &n, NULL, &err), 0);
	assert_int_equal(n, 0);
	free(cps);
	assert_int_equal(trend_detect(bad, 3, &o, NULL, 0, &cps, &n, NULL, &err), -1);
	o.min_size = 1;
	assert_int_equal(trend_detect(flat, 8, &o, NULL, 0, &cps, &n, NULL, &err), -1);
}

/* ---- end to end over a stored history ---------------------------------------------------------------- */

static void store_history(const char *path, const double *x, size_t n)
{
	struct store *st;
	struct errbuf err;
	struct kvlist labels;
	int64_t suite;

	errbuf_init(&err);
	unlink(path);
	assert_int_equal(store_open(path, 0, &st, &err), 0);
	kvlist_init(&labels);
	kvlist_set(&labels, "branch", "main");
	assert_int_equal(store_suite_add(st, "nightly", "run", NULL, (unsigned)n, &labels, &suite, &err), 0);
	for (size_t i = 0; i < n; i++) {
		struct run_spec spec;
		struct run_result res;
		struct host_result *h;
		struct dir_result *d;
		char seq[16];
		int64_t id;

		tu_spec(&spec, "rr-4k", (unsigned)i + 1, 1, "sim", "randread", 100, 4, 10);
		/* stored out of order (the label orders the history): odd builds first */
		snprintf(seq, sizeof(seq), "%zu", i < n / 2 ? 2 * i + 1 : 2 * (i - n / 2) + 2);
		kvlist_add(&spec.labels, "git-seq", seq);
		assert_int_equal(store_run_add(st, suite, &spec, RUN_DONE, &id, &err), 0);
		run_result_init(&res);
		h = run_result_add_host(&res, HOST_AGGREGATE);
		d = &h->dir[DDIR_READ];
		d->present = 1;
		{
			unsigned k = (unsigned)strtoul(seq, NULL, 10) - 1;
			d->iops = exp(x[k]);
		}
		d->ios = (uint64_t)(d->iops * 10);
		d->bytes = d->ios * 4096;
		d->runtime_ms = 10000;
		d->bw_bytes = d->iops * 4096;
		d->lat.present = 1;
		d->lat.n = d->ios;
		d->lat.mean_ns = 4e9 / d->iops;
		assert_int_equal(store_run_write_result(st, id, &res, &err), 0);
		run_result_release(&res);
		run_spec_release(&spec);
	}
	kvlist_release(&labels);
	store_close(st);
}

static void analyse_stored(const char *path, struct trend *t, enum rep_metric m)
{
	struct store *st;
	struct errbuf err;
	struct rep_set set;
	struct kvlist where;

	errbuf_init(&err);
	rep_set_init(&set);
	kvlist_init(&where);
	assert_int_equal(rep_where_add(&where, "branch=main", &err), 0);
	assert_int_equal(store_open(path, STORE_READONLY, &st, &err), 0);
	assert_int_equal(report_load(st, &where, 0, &set, &err), 0);
	assert_int_equal(set.n, NRUNS);
	trend_init(t, NULL, m, "git-seq");
	assert_int_equal(trend_build(t, &set, &err), 0);
	assert_int_equal(trend_analyse(t, &err), 0);
	rep_set_release(&set);
	kvlist_release(&where);
	store_close(st);
}

static void test_stored_history(void **state)
{
	char path[64];
	double x[NRUNS];
	struct trend t;
	struct strbuf out;
	const struct trend_series *s;
	(void)state;

	snprintf(path, sizeof(path), "/tmp/test_trend_%d.db", (int)getpid());
	history(1, 1, 0.03, x);
	store_history(path, x, NRUNS);

	analyse_stored(path, &t, RM_IOPS);
	assert_int_equal(t.n, 1);
	s = &t.v[0];
	assert_int_equal(s->n, NRUNS);
	assert_string_equal(s->pts[0].order, "1");
	assert_string_equal(s->pts[NRUNS - 1].order, "40"); /* numeric order, not "9" < "10" text order */
	assert_int_equal(s->nchg, 2);
	assert_true(near(s->chg[0].at, 14) && near(s->chg[1].at, 29));
	assert_true(s->chg[0].lo < 0.85 * 1.02 && s->chg[0].hi > 0.85 * 0.98 && s->chg[0].regression);
	assert_true(s->chg[1].ratio > 1.05 && !s->chg[1].regression);
	assert_false(trend_regressed(&t)); /* IOPS up in the newest segment */
	strbuf_init(&out);
	trend_render_text(&t, &out);
	printf("%s", out.buf);
	assert_non_null(strstr(out.buf, "rr-4k (40 runs): 2 change points"));
	assert_non_null(strstr(out.buf, "trend: OK"));
	strbuf_reset(&out);
	trend_render_markdown(&t, &out);
	assert_non_null(strstr(out.buf, "### bench trend: OK"));
	strbuf_reset(&out);
	trend_render_json(&t, &out);
	{
		cJSON *j = cJSON_Parse(out.buf), *cps;
		assert_non_null(j);
		cps = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "series"), 0),
						       "change_points");
		assert_int_equal(cJSON_GetArraySize(cps), 2);
		cJSON_Delete(j);
	}
	trend_release(&t);

	/* mean latency goes the other way (lower is better): the first step is its regression, the newest not */
	analyse_stored(path, &t, RM_RLAT);
	assert_int_equal(t.v[0].nchg, 2);
	assert_true(t.v[0].chg[0].regression && t.v[0].chg[0].ratio > 1.1);
	assert_false(trend_regressed(&t));
	trend_release(&t);

	/* a history whose newest step is down again: a regression of the newest segment */
	history(2, 2, 0.03, x);
	store_history(path, x, NRUNS);
	analyse_stored(path, &t, RM_IOPS);
	assert_int_equal(t.v[0].nchg, 2);
	assert_true(t.v[0].newest_regression);
	assert_true(trend_regressed(&t));
	strbuf_reset(&out);
	trend_render_text(&t, &out);
	assert_non_null(strstr(out.buf, "trend: REGRESSION"));
	strbuf_release(&out);
	trend_release(&t);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_steps_found),
		cmocka_unit_test(test_no_step_no_change),
		cmocka_unit_test(test_incremental),
		cmocka_unit_test(test_step_beside_noisy_tail),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_stored_history),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
