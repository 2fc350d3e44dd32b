/*
 * test_curve_report: what `bench report` adds for the measurement method (report/format/curve_report.c), on runs made
 * in memory as report_load gives them: precondition runs and steady-state rounds taken out and counted, the
 * steady-state words of every steady_state= value (a table of cases), fio's ss= labels, method labels that
 * never form a table group, and the comparison at equal latency (a ratio only against the baseline's curve of
 * the same kind).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "report/format/curve_report.h"

/* Appends a run with heap-owned fields (rep_set_release frees them); labels "k=v k=v". */
static struct rep_run *add_run(struct rep_set *set, const char *name, const char *labels, double iops, double p99)
{
	struct rep_run *r;

	ARRAY_GROW(set->v, set->cap, set->n + 1);
	r = &set->v[set->n++];
	memset(r, 0, sizeof(*r));
	r->id = (int64_t)set->n;
	r->name = xstrdup(name);
	r->status = xstrdup("done");
	r->identity = xstrdup("bs=4096|iodepth=1|rw=randread|tool=fio");
	r->read_pct = r->random_pct = 100;
	for (int m = 0; m < RM_NR; m++)
		r->m[m] = NAN;
	r->m[RM_IOPS] = iops;
	r->m[RM_RLAT] = p99 / 2;
	r->m[RM_RP99] = p99;
	kvlist_init(&r->labels);
	for (const char *p = labels; p && *p;) {
		size_t l = strcspn(p, " ");
		char *item = xstrndup(p, l), *eq = strchr(item, '=');

		*eq = '\0';
		kvlist_add(&r->labels, item, eq + 1);
		free(item);
		p += l + (p[l] == ' ');
	}
	return r;
}

struct run_case {
	const char *name, *labels;
	double iops, p99_ms;
};

static void add_runs(struct rep_set *set, const struct run_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		add_run(set, c[i].name, c[i].labels, c[i].iops, c[i].p99_ms);
}

static void render(struct method_view *mv, enum rep_format f, struct strbuf *out)
{
	struct errbuf err;

	errbuf_init(&err);
	strbuf_reset(out);
	assert_int_equal(method_render(out, mv, f, 0, &err), 0);
}

static void test_left_out(void **state)
{
	static const struct run_case runs[] = {
		{ "pre", "phase=precondition precondition=wipc", 100, 1 }, { "r1", "ss_round=1", 100, 1 },
		{ "r2", "ss_round=2", 100, 1 }, { "final", "ss_round=3 steady_state=reached:3", 100, 1 },
		{ "fill", "phase=fill", 100, 1 },
	};
	struct rep_set set;
	struct method_left left;

	(void)state;
	rep_set_init(&set);
	add_runs(&set, runs, sizeof(runs) / sizeof(runs[0]));
	rep_set_drop_method(&set, &left);
	assert_int_equal(left.precondition, 1);
	assert_int_equal(left.rounds, 2);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.v[0].name, "final");
	assert_string_equal(set.v[1].name, "fill"); /* a user's phase is not the method's */
	rep_set_release(&set);
}

static void test_steady_words(void **state)
{
	static const struct { const char *labels, *want; } cases[] = {
		{ "steady_state=reached:7 ss.window_iops=1325.2",
		  "steady state reached at round 7 (window 3-7, average 1325.2)" },
		{ "steady_state=reached:5", "steady state reached at round 5" }, /* no average: none invented */
		{ "steady_state=not-reached:25", "steady state not reached after 25 rounds" },
		{ "steady_state=running:3", "steady state not decided after 3 rounds" },
		{ "steady_state=maybe", "steady state: 'maybe' (not a result bench writes)" },
		{ "steady_state=foo:3", "steady state: 'foo:3' (not a result bench writes)" }, /* not "running" */
		{ "fio.ss=attained fio.ss.after_s=4.9", "ss=attained, ss.after_s=4.9" },
	};
	struct strbuf out;

	(void)state;
	strbuf_init(&out);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rep_set set;
		struct method_view mv;
		struct errbuf err;

		rep_set_init(&set);
		errbuf_init(&err);
		memset(&mv, 0, sizeof(mv));
		add_run(&set, "w", cases[i].labels, 100, 1);
		assert_int_equal(method_view_build(&mv, &set, NULL, &err), 0);
		render(&mv, FMT_TEXT, &out);
		if (!strstr(out.buf, cases[i].want))
			fail_msg("case %zu (%s): want '%s' in:\n%s", i, cases[i].labels, cases[i].want, out.buf);
		render(&mv, FMT_JSON, &out); /* not after an object: nothing added */
		assert_int_equal(out.len, 0);
		strbuf_reset(&out);
		strbuf_adds(&out, "{}\n");
		assert_int_equal(method_render(&out, &mv, FMT_JSON, 0, &err), 0);
		assert_non_null(strstr(out.buf, "\"steady_state\":[{\"run\":1"));
		method_view_release(&mv);
		rep_set_release(&set);
	}
	strbuf_release(&out);
}

static void test_method_labels_not_groups(void **state)
{
	static const char *const method[] = { "curve_pct", "vdbench.curve_pct", "curve.target_iops", "sweep.iodepth",
					      "sweep.stop", "ss_round", "steady_state", "ss.window_iops",
					      "precondition", "precondition.class", "fio.ss", "fio.ss.after_s" };
	static const char *const config[] = { "transport", "stack", "phase", "config", "curvey", "ssd" };

	(void)state;
	for (size_t i = 0; i < sizeof(method) / sizeof(method[0]); i++)
		assert_true(rep_label_is_method(method[i]));
	for (size_t i = 0; i < sizeof(config) / sizeof(config[0]); i++)
		assert_false(rep_label_is_method(config[i]));
	/* the run loop's "point" labels (not copied onto precondition entries) come from the same one list */
	for (size_t i = 0; i < 5; i++)
		assert_true(rep_label_is_curve_point(method[i]));
	for (size_t i = 5; i < sizeof(method) / sizeof(method[0]); i++)
		assert_false(rep_label_is_curve_point(method[i]));
	for (size_t i = 0; i < sizeof(config) / sizeof(config[0]); i++)
		assert_false(rep_label_is_curve_point(config[i]));
}

/* Two transports, each with an iodepth sweep; nvmeof also a rate curve. */
static void test_ratio_same_kind(void **state)
{
	static const struct run_case runs[] = {
		{ "q1", "transport=iser sweep.iodepth=1", 1000, 0.5 },
		{ "q8", "transport=iser sweep.iodepth=8", 4000, 0.9 },
		{ "q16", "transport=iser sweep.iodepth=16", 5000, 2.0 },
		{ "q1", "transport=nvmeof sweep.iodepth=1", 1200, 0.4 },
		{ "q8", "transport=nvmeof sweep.iodepth=8", 6000, 0.8 },
		{ "q16", "transport=nvmeof sweep.iodepth=16", 7000, 1.5 },
		{ "cmax", "transport=nvmeof curve_pct=max", 7000, 1.5 },
		{ "c50", "transport=nvmeof curve_pct=50", 3500, 0.6 },
	};
	static const double lim[] = { 1.0 };
	static char *vals[] = { "nvmeof", "iser" };
	struct rep_set set;
	struct method_view mv;
	struct kvlist by;
	struct errbuf err;
	struct strbuf out;

	(void)state;
	rep_set_init(&set);
	kvlist_init(&by);
	errbuf_init(&err);
	strbuf_init(&out);
	add_runs(&set, runs, sizeof(runs) / sizeof(runs[0]));
	kvlist_add(&by, "transport", NULL);
	memset(&mv, 0, sizeof(mv));
	mv.p99_ms = lim;
	mv.nlim = 1;
	mv.cmp_key = "transport";
	mv.cmp_vals = vals;
	mv.cmp_n = 2;
	assert_int_equal(method_view_build(&mv, &set, &by, &err), 0);
	assert_int_equal(mv.curves.n, 3);
	render(&mv, FMT_TEXT, &out);
	/* nvmeof's sweep: 6000 at p99 <= 1 ms against iser's 4000: 1.50; the rate curve has no iser counterpart */
	assert_non_null(strstr(out.buf, "  transport=nvmeof (sweep.iodepth)           6000    5   1.50\n"));
	assert_non_null(strstr(out.buf, "  transport=nvmeof (rate curve)              3500    8      -\n"));
	assert_non_null(strstr(out.buf, "  transport=iser                             4000    2   1.00\n"));
	method_view_release(&mv);
	kvlist_release(&by);
	rep_set_release(&set);
	strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_left_out),
		cmocka_unit_test(test_steady_words),
		cmocka_unit_test(test_method_labels_not_groups),
		cmocka_unit_test(test_ratio_same_kind),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
