/*
 * test_report_nway: the N-way comparison (cmp_parse_n, cmp_build_n), aliases (--alias and suite labels
 * alias.KEY), the order of groups (--order) and the layout helpers of the bar charts (chart_bars.h value
 * labels): a table of cases each, with runs made in memory as report_load would give them.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/identity.h"
#include "core/strbuf.h"
#include "report/chart/chart_bars.h"
#include "report/load.h"
#include "report/table.h"
#include "report/labels.h"
#include "testutil.h"

static void test_parse_n(void **state)
{
	static const struct { const char *arg; size_t n; const char *v[4]; } good[] = {
		{ "transport=nvmeof:iser", 2, { "nvmeof", "iser" } },
		{ "transport=nvmeof,nvmeof-tcp:iser", 3, { "nvmeof", "nvmeof-tcp", "iser" } },
		{ "k=a,b,c:d", 4, { "a", "b", "c", "d" } },
	};
	static const char *const bad[] = { "transport=nvmeof", "t=a,a:b", "t=a:a", "t=a,:b", "t=,a:b", "t=a:b,c",
					   "t=a:b:c", "=a:b", "t=a,b:" };
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char *key, **vals;
		size_t n;
		assert_int_equal(cmp_parse_n(good[i].arg, &key, &vals, &n, &err), 0);
		assert_int_equal(n, good[i].n);
		for (size_t k = 0; k < n; k++) {
			assert_string_equal(vals[k], good[i].v[k]);
			free(vals[k]);
		}
		free(vals);
		free(key);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *key, **vals;
		size_t n;
		assert_int_equal(cmp_parse_n(bad[i], &key, &vals, &n, &err), -1);
		assert_int_equal(err.kind, ERR_USAGE);
	}
}

static void add_run(struct rep_set *s, int64_t id, const char *name, uint64_t bs, const char *transport,
		    const char *stack, double iops, double lat)
{
	struct rep_run *r = tu_rep_add(s, id, name, "done", "fio", bs, 70, 100, transport, stack, iops, lat);

	kvlist_add(&r->labels, "alias.transport", "rdma:NVMe-oF,tcp:NVMe/TCP");
}

static void test_build_n(void **state)
{
	struct rep_set s;
	struct cmp_table c;
	struct kvlist by, order;
	struct errbuf err;
	char *vals[3] = { "rdma", "tcp", "iscsi" };

	(void)state;
	rep_set_init(&s);
	errbuf_init(&err);
	/* r0: w1 on all three (iscsi twice: median 50), w2 rdma and iscsi, w3 tcp only; r5: iscsi only */
	add_run(&s, 1, "w1", 4096, "rdma", "r0", 300, 1.0);
	add_run(&s, 2, "w1", 4096, "tcp", "r0", 150, 2.0);
	add_run(&s, 3, "w1", 4096, "iscsi", "r0", 40, 4.0);
	add_run(&s, 4, "w1", 4096, "iscsi", "r0", 60, 4.0);
	add_run(&s, 5, "w2", 8192, "rdma", "r0", 10, NAN);
	add_run(&s, 6, "w2", 8192, "iscsi", "r0", 20, NAN);
	add_run(&s, 7, "w3", 65536, "tcp", "r0", 5, NAN);
	add_run(&s, 8, "w1", 4096, "iscsi", "r5", 70, 1.0);
	kvlist_init(&by);
	kvlist_add(&by, "stack", NULL);
	assert_int_equal(cmp_build_n(&c, &s, "transport", vals, 3, &by, REP_MATCH_IDENTITY, &err), 0);
	assert_int_equal(c.nvals, 3);
	assert_string_equal(c.b, "iscsi");
	assert_int_equal(c.n, 2);
	assert_int_equal(c.v[0].n, 3); /* w1, w2, w3 */
	{
		const struct cmp_row *w1 = &c.v[0].rows[0], *w2 = &c.v[0].rows[1], *w3 = &c.v[0].rows[2];
		assert_int_equal(w1->present, 3);
		assert_true(w1->ratios[0][RM_IOPS] == 300.0 / 50.0);
		assert_true(w1->ratios[1][RM_IOPS] == 150.0 / 50.0);
		assert_true(w1->ratios[2][RM_IOPS] == 1.0);
		assert_true(w1->ratios[1][RM_RLAT] == 0.5);
		assert_true(w1->ratio[RM_IOPS] == w1->ratios[0][RM_IOPS] && w1->a == w1->at[0] && w1->b == w1->at[2]);
		assert_int_equal(w2->present, 2);
		assert_null(w2->at[1]);
		assert_true(isnan(w2->ratios[1][RM_IOPS]) && w2->ratios[0][RM_IOPS] == 0.5);
		assert_int_equal(w3->present, 1);
		assert_null(w3->b);
		assert_true(isnan(w3->ratios[1][RM_IOPS]));
	}
	assert_int_equal(c.matched, 1);
	assert_int_equal(c.unmatched, 3);   /* w2, w3, r5's w1 */
	assert_int_equal(c.unmatched_a, 1); /* w3: no baseline */
	assert_int_equal(c.unmatched_b, 1); /* r5: the baseline alone */
	/* --order stack=r5: r5 first */
	kvlist_init(&order);
	assert_int_equal(rep_order_add(&order, "stack=r5,r0", &err), 0);
	cmp_order(&c, &order);
	assert_string_equal(kvlist_get(&c.v[0].keys, "stack", ""), "r5");
	assert_int_equal(rep_order_add(&order, "stack=", &err), -1);
	kvlist_release(&order);
	cmp_release(&c);
	/* a value without runs */
	vals[1] = "fc";
	assert_int_equal(cmp_build_n(&c, &s, "transport", vals, 3, &by, REP_MATCH_IDENTITY, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_non_null(strstr(err.msg, "transport=fc"));
	cmp_release(&c);
	kvlist_release(&by);

	/* alias.* labels never form a group (without --by: the groups are stack x transport) */
	{
		struct rep_table t;
		kvlist_init(&by);
		rep_table_build(&t, &s, &by);
		assert_int_equal(t.n, 4); /* r0 rdma, r0 tcp, r0 iscsi, r5 iscsi */
		assert_null(kvlist_find(&t.v[0].keys, "alias.transport"));
		rep_table_release(&t);
		kvlist_release(&by);
	}
	rep_set_release(&s);
}

static void test_alias(void **state)
{
	struct rep_set s;
	struct kvlist al;
	struct errbuf err;

	(void)state;
	rep_set_init(&s);
	errbuf_init(&err);
	add_run(&s, 1, "w1", 4096, "rdma", "r0", 1, 1);
	kvlist_init(&al);
	assert_int_equal(rep_alias_add(&al, "transport=rdma:RDMA <given>", &err), 0);
	assert_int_equal(rep_alias_add(&al, "transport=rdma", &err), -1);
	assert_int_equal(rep_alias_add(&al, "transport=:x", &err), -1);
	assert_int_equal(rep_alias_add(&al, "bad key=a:b", &err), -1);
	rep_alias_from_runs(&al, &s);
	assert_string_equal(rep_alias_get(&al, "transport", "rdma"), "RDMA <given>"); /* --alias wins */
	assert_string_equal(rep_alias_get(&al, "transport", "tcp"), "NVMe/TCP");      /* from the suite label */
	assert_string_equal(rep_alias_get(&al, "transport", "iscsi"), "iscsi");       /* none: the value */
	assert_string_equal(rep_alias_get(&al, "stack", "rdma"), "rdma");
	assert_string_equal(rep_alias_get(NULL, "transport", "rdma"), "rdma");
	kvlist_release(&al);
	rep_set_release(&s);
}

static void test_value_text(void **state)
{
	static const struct { double v; const char *want; } cases[] = {
		{ 284723.17, "285k" }, { 1250000, "1.25M" }, { 1112.19, "1112" }, { 12.5, "12.5" }, { 4, "4" },
		{ 0.17, "0.17" }, { 0.021, "0.021" }, { 10000, "10k" }, { NAN, "" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb;
		strbuf_init(&sb);
		bars_value_text(&sb, cases[i].v);
		assert_string_equal(sb.buf, cases[i].want);
		strbuf_release(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_n),
		cmocka_unit_test(test_build_n),
		cmocka_unit_test(test_alias),
		cmocka_unit_test(test_value_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
