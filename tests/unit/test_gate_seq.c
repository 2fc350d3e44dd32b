/*
 * test_gate_seq: the sequential gate of `bench gate --run` (report/gate/gate_seq.h). The spending function
 * and the levels of the looks by hand, then acceptance 1 of issue 30 as a seeded simulation of the whole
 * procedure: pairs of lognormal runs are judged by the ordinary gate after each pair (from the third) at the
 * look's level until every judged cell is decided or the budget is spent. Printed per cell (budget, cv): the
 * rate of false REGRESSION when nothing changed, and for a 10% drop the mean pairs to a decision and the power
 * (REGRESSION within the budget).
 *
 * CI runs a small grid (GATE_SEQ_TRIALS trials per cell, default 300) and asserts the error bound with the
 * binomial allowance of that trial count; scripts/perf/gate_seq.sh sets GATE_SEQ_FULL=1 for the table of
 * docs/gate.md: 1000 trials per cell at budgets 3..20 pairs and cv 3, 5, 10%.
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

#include "core/units.h"
#include "report/gate/gate.h"
#include "report/gate/gate_seq.h"

static void test_spending(void **state)
{
	(void)state;
	/* spent(1) is alpha; O'Brien-Fleming: at t = 1/4 the bound is z(0.975) * 2 = 3.92 */
	assert_true(fabs(gate_seq_spent(0.05, 1.0) - 0.05) < 1e-12);
	assert_true(fabs(gate_seq_spent(0.05, 0.25) - 2 * (1 - 0.9999557)) < 2e-6);
	assert_true(fabs(gate_seq_spent(0.05, 0.5) - 0.005574) < 2e-5);
	for (unsigned budget = 1; budget <= 40; budget++) {
		double sum = 0, prev = 1;
		for (unsigned k = 0; k <= budget + 2; k++) {
			double a = gate_seq_look_alpha(0.05, k, budget);
			assert_true(a >= 0);
			if (k < GATE_SEQ_FIRST_LOOK || k > (budget < 3 ? 3 : budget))
				assert_true(a == 0);
			sum += a;
			(void)prev;
		}
		assert_true(fabs(sum - 0.05) < 1e-9);
	}
	/* a budget of 3 is one look at the fixed gate's level */
	assert_true(fabs(gate_seq_look_alpha(0.05, 3, 3) - 0.05) < 1e-12);
	/* the look's options: paired, t, 1 - alpha_k */
	{
		struct gate_opts asked, look;
		gate_opts_default(&asked);
		gate_seq_look_opts(&look, &asked, 12, 12);
		assert_int_equal(look.paired, 1);
		assert_int_equal(look.method, GATE_METHOD_T);
		assert_true(fabs(look.conf - (1 - gate_seq_look_alpha(0.05, 12, 12))) < 1e-12);
	}
}

/* Outcome of one sequential gate: its verdict (INCONCLUSIVE when the budget ran out) and the pairs it used. */
struct seq_outcome {
	enum gate_verdict verdict;
	unsigned pairs;
};

/* One sequential gate over `budget` pairs of lognormal runs (noise cv, candidate at `ratio` of the baseline). */
static struct seq_outcome seq_trial(struct stats_rng *rng, unsigned budget, double cv, double ratio)
{
	double sigma = sqrt(log(1 + cv * cv));
	struct seq_outcome o = { GATE_INCONCLUSIVE, budget };
	struct gate_side b, c;
	struct gate_opts asked;

	gate_opts_default(&asked);
	gate_side_init(&b, "A");
	gate_side_init(&c, "B");
	for (unsigned k = 1; k <= budget; k++) {
		struct gate g;
		struct gate_opts look;
		struct errbuf err;
		int decided;

		gate_side_add(&b, k, "w", "w", k)->value[GM_IOPS_READ] = 1e4 * exp(sigma * stats_rng_normal(rng));
		gate_side_add(&c, 1000 + k, "w", "w", k)->value[GM_IOPS_READ] =
			1e4 * ratio * exp(sigma * stats_rng_normal(rng));
		if (k < GATE_SEQ_FIRST_LOOK)
			continue;
		errbuf_init(&err);
		gate_seq_look_opts(&look, &asked, k, budget);
		gate_init(&g, &look);
		assert_int_equal(gate_build(&g, &b, &c, &err), 0);
		assert_int_equal(gate_evaluate(&g, &err), 0);
		decided = gate_seq_decided(&g);
		if (decided) {
			o.verdict = g.cells[0].verdict;
			o.pairs = k;
		}
		gate_release(&g);
		if (decided)
			break;
	}
	gate_side_release(&b);
	gate_side_release(&c);
	return o;
}

struct seq_rates {
	double rate[GATE_VERDICT_NR];
	double mean_pairs;
};

static struct seq_rates seq_rates(uint64_t seed, unsigned trials, unsigned budget, double cv, double ratio)
{
	struct seq_rates r = { { 0 }, 0 };
	struct stats_rng rng;

	stats_rng_seed(&rng, seed);
	for (unsigned t = 0; t < trials; t++) {
		struct seq_outcome o = seq_trial(&rng, budget, cv, ratio);
		r.rate[o.verdict] += 1.0 / trials;
		r.mean_pairs += (double)o.pairs / trials;
	}
	return r;
}

static unsigned env_unsigned(const char *name, unsigned dflt)
{
	const char *v = getenv(name);
	long n;

	return v && parse_long(v, 1, 1000000, &n) == 0 ? (unsigned)n : dflt;
}

/*
 * Acceptance 1: false REGRESSION at most alpha / 2 = 2.5% (the one-sided error of the fixed 95% gate) plus 3
 * standard errors of the trial count in every cell; a 10% drop at cv 3% decided as REGRESSION in at least 90%
 * of the gates with a budget of 8 pairs or more.
 */
static void test_seq_error_rates(void **state)
{
	static const unsigned full_budgets[] = { 3, 4, 5, 6, 8, 10, 12, 15, 20 };
	static const unsigned ci_budgets[] = { 3, 8, 20 };
	static const double full_cvs[] = { 0.03, 0.05, 0.10 };
	static const double ci_cvs[] = { 0.03, 0.10 };
	int full = getenv("GATE_SEQ_FULL") != NULL;
	unsigned trials = env_unsigned("GATE_SEQ_TRIALS", full ? 1000 : 300);
	const unsigned *budgets = full ? full_budgets : ci_budgets;
	const double *cvs = full ? full_cvs : ci_cvs;
	size_t nb = full ? 9 : 3, ncv = full ? 3 : 2;
	double bound = 0.025 + 3 * sqrt(0.025 * 0.975 / trials);
	(void)state;

	printf("sequential gate (O'Brien-Fleming-type alpha spending, paired t, threshold 5%%, 95%%), %u seeded "
	       "trials per cell\n", trials);
	printf("%6s %5s %12s %12s %12s %12s %12s\n", "budget", "cv", "A/A REGR", "A/A EQUIV", "A/A pairs",
	       "-10% power", "-10% pairs");
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < ncv; j++) {
			struct seq_rates aa = seq_rates(100 + 10 * i + j, trials, budgets[i], cvs[j], 1.0);
			struct seq_rates drop = seq_rates(500 + 10 * i + j, trials, budgets[i], cvs[j], 0.9);

			printf("%6u %4.0f%% %11.1f%% %11.1f%% %12.2f %11.1f%% %12.2f\n", budgets[i], cvs[j] * 100,
			       aa.rate[GATE_REGRESSION] * 100, aa.rate[GATE_EQUIVALENT] * 100, aa.mean_pairs,
			       drop.rate[GATE_REGRESSION] * 100, drop.mean_pairs);
			assert_true(aa.rate[GATE_REGRESSION] <= bound);
			assert_true(drop.rate[GATE_IMPROVEMENT] <= bound);
			assert_true(drop.rate[GATE_EQUIVALENT] <= bound);
			if (cvs[j] <= 0.03 && budgets[i] >= 8)
				assert_true(drop.rate[GATE_REGRESSION] >= 0.9);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spending),
		cmocka_unit_test(test_seq_error_rates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
