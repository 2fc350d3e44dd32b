/*
 * test_steady: the SNIA PTS steady-state rule (report/analysis/steady.c) on series that pass and fail each of its two
 * conditions exactly at the boundary ("<=" passes, just above fails), windows shorter than 5, the round at
 * which steady state is reached, max rounds and several tracked variables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "report/analysis/steady.h"

struct ss_case {
	const char *what;
	double v[30];
	size_t n;
	enum ss_state state;
	unsigned round;
	int range_ok, excursion_ok; /* of the last evaluated window; -1 = not checked */
};

static const struct ss_case cases[] = {
	/* range exactly 20 % of the average (90..110 around 100), flat line: passes */
	{ "range at 20%", { 90, 110, 100, 100, 100 }, 5, SS_REACHED, 5, 1, 1 },
	/* range 20.2 %: fails on range only (slope: (-2*-10.1 + -1*10.1)/10 = 1.01, excursion 4.04 %) */
	{ "range just above 20%", { 89.9, 110.1, 100, 100, 100 }, 5, SS_CONTINUE, 5, 0, 1 },
	/* a straight line 95..105: excursion exactly 10 % of 100, range 10 %: passes */
	{ "excursion at 10%", { 95, 97.5, 100, 102.5, 105 }, 5, SS_REACHED, 5, 1, 1 },
	/* the line 94.9..105.1: excursion 10.2 %, range 10.2 %: fails on the excursion only */
	{ "excursion just above 10%", { 94.9, 97.45, 100, 102.55, 105.1 }, 5, SS_CONTINUE, 5, 1, 0 },
	/* falling line at exactly -10 %: |slope| counts */
	{ "falling excursion at 10%", { 105, 102.5, 100, 97.5, 95 }, 5, SS_REACHED, 5, 1, 1 },
	/* four rounds are never a window of five, however flat */
	{ "window shorter than 5", { 100, 100, 100, 100 }, 4, SS_CONTINUE, 4, -1, -1 },
	/* a write cliff: fast rounds, then slow and flat; the first all-slow window ends at round 3 + 5 = 8 */
	{ "cliff then flat", { 300, 300, 300, 100, 100, 100, 100, 100, 100 }, 9, SS_REACHED, 8, 1, 1 },
	/* a steady decline of 5 % of the first value per round never settles: after 25 rounds, not reached */
	{ "drift never steady", { 200, 190, 180, 170, 160, 150, 140, 130, 120, 110, 100, 90, 80, 70, 60, 50, 45, 40,
				  35, 30, 25, 20, 15, 10, 5, 4, 3 }, 27, SS_NOT_REACHED, 25, -1, 0 },
};

static void test_table(void **state)
{
	struct ss_rule r;

	(void)state;
	ss_rule_defaults(&r);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ss_case *c = &cases[i];
		struct ss_result res;

		ss_check1(&r, c->v, c->n, &res);
		if (res.state != c->state || res.round != c->round)
			fail_msg("%s: state %d round %u, want state %d round %u (range %.6g..%.6g avg %.6g excursion "
				 "%.6g)", c->what, res.state, res.round, c->state, c->round, res.w.min, res.w.max,
				 res.w.avg, res.w.excursion);
		if (c->range_ok >= 0 && res.w.range_ok != c->range_ok)
			fail_msg("%s: range_ok %d, want %d", c->what, res.w.range_ok, c->range_ok);
		if (c->excursion_ok >= 0 && res.w.excursion_ok != c->excursion_ok)
			fail_msg("%s: excursion_ok %d, want %d", c->what, res.w.excursion_ok, c->excursion_ok);
		if (res.state == SS_REACHED)
			assert_true(fabs(res.avg - res.w.avg) < 1e-12);
		else
			assert_true(isnan(res.avg));
	}
}

static void test_window_figures(void **state)
{
	struct ss_rule r;
	struct ss_window w;
	const double v[] = { 1, 95, 97.5, 100, 102.5, 105 };

	(void)state;
	ss_rule_defaults(&r);
	ss_window_eval(&r, v, 5, &w);
	assert_int_equal(w.last_round, 6);
	assert_true(fabs(w.avg - 100) < 1e-12);
	assert_true(fabs(w.slope - 2.5) < 1e-12);
	assert_true(fabs(w.excursion - 10) < 1e-12);
	assert_true(w.min == 95 && w.max == 105);
}

static void test_configurable(void **state)
{
	struct ss_rule r;
	struct ss_result res;
	const double v[] = { 95, 97.5, 100, 102.5, 105, 107.5, 110 };
	const double flat[] = { 100, 100, 100, 100, 100, 100, 100 };
	const double *both[] = { flat, v };
	char err[128];

	(void)state;
	ss_rule_defaults(&r);
	r.excursion_pct = 9.5; /* the line (9.5 % to 10 % of the averages) now fails */
	ss_check1(&r, v, 7, &res);
	assert_int_equal(res.state, SS_CONTINUE);
	r.window = 3; /* 3 rounds: excursion 2 x 2.5 = 5 % of ~100: passes at round 3 */
	ss_check1(&r, v, 7, &res);
	assert_int_equal(res.state, SS_REACHED);
	assert_int_equal(res.round, 3);
	r.window = 5;
	r.max_rounds = 6;
	ss_check1(&r, v, 7, &res);
	assert_int_equal(res.state, SS_NOT_REACHED);
	assert_int_equal(res.round, 6);
	/* two variables: the flat one passes, the rising one fails: not steady */
	ss_rule_defaults(&r);
	r.excursion_pct = 9.5;
	ss_check(&r, both, 2, 7, &res);
	assert_int_equal(res.state, SS_CONTINUE);
	r.excursion_pct = 10;
	ss_check(&r, both, 2, 7, &res);
	assert_int_equal(res.state, SS_REACHED);
	assert_int_equal(res.round, 5);
	r.window = 1;
	assert_int_equal(ss_rule_check(&r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "window"));
	r.window = 5;
	r.max_rounds = 4;
	assert_int_equal(ss_rule_check(&r, err, sizeof(err)), -1);
	ss_rule_defaults(&r);
	assert_int_equal(ss_rule_check(&r, err, sizeof(err)), 0);
}

static void test_words(void **state)
{
	struct ss_rule r;
	struct ss_result res;
	const double v[] = { 300, 300, 300, 100, 100, 100, 100, 100 };
	const double drift[] = { 100, 80, 60, 40, 20, 10 };
	char buf[128];

	(void)state;
	ss_rule_defaults(&r);
	ss_check1(&r, v, 8, &res);
	ss_result_describe(&r, &res, buf, sizeof(buf));
	assert_string_equal(buf, "steady state reached at round 8 (window 4-8, average 100.0)");
	ss_result_label(&res, buf, sizeof(buf));
	assert_string_equal(buf, "reached:8");
	ss_check1(&r, v, 3, &res);
	ss_result_describe(&r, &res, buf, sizeof(buf));
	assert_string_equal(buf, "steady state not decided after 3 rounds");
	ss_result_label(&res, buf, sizeof(buf));
	assert_string_equal(buf, "running:3");
	r.max_rounds = 6;
	ss_check1(&r, drift, 6, &res);
	ss_result_describe(&r, &res, buf, sizeof(buf));
	assert_string_equal(buf, "steady state not reached after 6 rounds");
	ss_result_label(&res, buf, sizeof(buf));
	assert_string_equal(buf, "not-reached:6");
}

/* The steady_state label read back: what ss_result_label writes parses to the same state and round; nothing else. */
static void test_label_parse(void **state)
{
	static const struct { enum ss_state st; unsigned round; } ok[] = {
		{ SS_CONTINUE, 3 }, { SS_REACHED, 7 }, { SS_NOT_REACHED, 25 }, { SS_REACHED, 0 },
	};
	static const char *const bad[] = {
		"maybe", "reached", "reached:", "reached:x", "reached:7x", "foo:3", "not-reached:-1", "Reached:7", "",
	};
	struct ss_result res, back;
	char label[64], words[160];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		memset(&res, 0, sizeof(res));
		res.state = ok[i].st;
		res.round = ok[i].round;
		ss_result_label(&res, label, sizeof(label));
		assert_int_equal(ss_result_parse(label, NULL, &back), 0);
		assert_int_equal(back.state, ok[i].st);
		assert_int_equal(back.round, ok[i].round);
		assert_true(isnan(back.avg));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (ss_result_parse(bad[i], NULL, &back) != -1)
			fail_msg("'%s' read as a steady_state label", bad[i]);
		assert_int_equal(ss_label_describe(bad[i], NULL, words, sizeof(words)), -1);
	}
	assert_int_equal(ss_result_parse("reached:7", "1325.2", &back), 0);
	assert_true(fabs(back.avg - 1325.2) < 1e-9);
	assert_int_equal(ss_result_parse("reached:7", "n/a", &back), 0); /* an unreadable average is not invented */
	assert_true(isnan(back.avg));
	assert_int_equal(ss_label_describe("reached:7", "1325.2", words, sizeof(words)), SS_REACHED);
	assert_string_equal(words, "steady state reached at round 7 (window 3-7, average 1325.2)");
	assert_int_equal(ss_label_describe("reached:5", NULL, words, sizeof(words)), SS_REACHED);
	assert_string_equal(words, "steady state reached at round 5");
	assert_int_equal(ss_label_describe("not-reached:25", NULL, words, sizeof(words)), SS_NOT_REACHED);
	assert_string_equal(words, "steady state not reached after 25 rounds");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_window_figures),
		cmocka_unit_test(test_configurable),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_label_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
