/*
 * test_report: the report model (report/load.c, report/table.c, report/chart/charts.c helpers): medians and
 * spreads, ratio colour classes, --compare and --where parsing, grouping and matching of two sides with
 * unmatched rows kept, and a round trip through a real SQLite store (runs written with the store API,
 * read back by report_load).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/store.h"
#include "core/strbuf.h"
#include "report/chart/charts.h"
#include "core/identity.h"
#include "report/load.h"
#include "report/table.h"
#include "testutil.h"

static void test_cell(void **state)
{
	struct rep_cell c;
	double odd[] = { 300, NAN, 100, 200 }, even[] = { 4, 1, 3, 2 }, none[] = { NAN };

	(void)state;
	rep_cell_fill(&c, odd, 4);
	assert_int_equal(c.n, 3);
	assert_true(c.med == 200 && c.min == 100 && c.max == 300);
	rep_cell_fill(&c, even, 4);
	assert_true(c.med == 2.5 && c.min == 1 && c.max == 4);
	rep_cell_fill(&c, none, 1);
	assert_int_equal(c.n, 0);
	assert_true(isnan(c.med));
}

static void test_class(void **state)
{
	static const struct { enum rep_metric m; double r; const char *cls; int level; } cases[] = {
		{ RM_IOPS, 1.0, "good", 0 },  { RM_IOPS, 0.99, "bad", 0 },   { RM_IOPS, 1.2, "good", 1 },
		{ RM_IOPS, 1.5, "good", 2 },  { RM_IOPS, 2.5, "good", 3 },   { RM_IOPS, 0.4, "bad", 3 },
		{ RM_RLAT, 1.0, "good", 0 },  { RM_RLAT, 0.7, "good", 2 },   { RM_WLAT, 1.3, "bad", 2 },
		{ RM_CPU, 0.931, "good", 1 }, { RM_CPU, 4.4, "bad", 3 },     { RM_MBPS, 1.02, "good", 0 },
		{ RM_WP99, 1.1, "bad", 1 },   { RM_IOPS, NAN, "", 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int level = -1;
		const char *cls = cmp_class(cases[i].m, cases[i].r, &level);
		if (strcmp(cls, cases[i].cls) || level != cases[i].level)
			fail_msg("case %zu: %g gave %s%d, want %s%d", i, cases[i].r, cls, level, cases[i].cls,
				 cases[i].level);
	}
}

static void test_parse(void **state)
{
	static const char *const bad[] = { "transport", "transport=nvmeof", "transport=:iser", "transport=a:",
					   "=a:b", "t=a:b:c", "bad key=a:b" };
	struct errbuf err;
	char *k, *a, *b;
	struct kvlist where;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(cmp_parse("transport=nvmeof:iser", &k, &a, &b, &err), 0);
	assert_string_equal(k, "transport");
	assert_string_equal(a, "nvmeof");
	assert_string_equal(b, "iser");
	free(k);
	free(a);
	free(b);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(cmp_parse(bad[i], &k, &a, &b, &err), -1);
		assert_int_equal(err.kind, ERR_USAGE);
	}
	kvlist_init(&where);
	assert_int_equal(rep_where_add(&where, "bs=4k", &err), 0);
	assert_int_equal(rep_where_add(&where, "bs=4q", &err), -1);
	assert_int_equal(rep_where_add(&where, "novalue", &err), -1);
	kvlist_release(&where);
}

/* A run in memory (what report_load would give). */
static void test_table_and_compare(void **state)
{
	struct rep_set s;
	struct rep_table t;
	struct cmp_table c;
	struct kvlist by, where;
	struct errbuf err;
	char buf[32];

	(void)state;
	rep_set_init(&s);
	errbuf_init(&err);
	/* stack r0: w1 on both sides (A has 3 repetitions), w2 A only, w3 B only; stack r5: B only */
	tu_rep_add(&s, 1, "w1", "done", "fio", 4096, 70, 100, "nvmeof", "r0", 100, 1.0);
	tu_rep_add(&s, 2, "w1", "done", "fio", 4096, 70, 100, "nvmeof", "r0", 300, 3.0);
	tu_rep_add(&s, 3, "w1", "partial", "fio", 4096, 70, 100, "nvmeof", "r0", 200, 2.0);
	tu_rep_add(&s, 4, "w1-other-name", "done", "fio", 4096, 70, 100, "iser", "r0", 50, 4.0);
	tu_rep_add(&s, 5, "w2", "done", "fio", 8192, 0, 0, "nvmeof", "r0", 10, NAN);
	tu_rep_add(&s, 6, "w3", "done", "vdbench", 8192, 0, 0, "iser", "r0", 20, NAN);
	tu_rep_add(&s, 7, "w1", "done", "fio", 4096, 70, 100, "iser", "r5", 60, 1.0);
	tu_rep_add(&s, 8, "w1", "failed", "fio", 4096, 70, 100, "iser", "r0", 1e9, 1e9);

	kvlist_init(&by);
	rep_table_build(&t, &s, &by);
	assert_int_equal(t.n, 3); /* r0/nvmeof, r0/iser, r5/iser */
	assert_string_equal(t.v[0].title, "stack=r0 transport=nvmeof");
	assert_int_equal(t.v[0].n, 2);
	assert_int_equal(t.v[0].rows[0].nruns, 3);
	assert_true(t.v[0].rows[0].partial);
	assert_true(t.v[0].rows[0].c[RM_IOPS].med == 200);
	assert_int_equal(t.v[1].n, 2); /* the failed run is left out */
	rep_table_release(&t);

	kvlist_add(&by, "stack", NULL);
	assert_int_equal(cmp_build(&c, &s, "transport", "nvmeof", "iser", &by, REP_MATCH_IDENTITY, &err), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.matched, 1); /* w1 and w1-other-name share tool, bs, read %, random % */
	assert_int_equal(c.unmatched_a, 1); /* w2 (fio 8k) */
	assert_int_equal(c.unmatched_b, 2); /* w3 (vdbench 8k) and stack r5 */
	assert_true(c.v[0].rows[0].a && c.v[0].rows[0].b);
	assert_true(c.v[0].rows[0].ratio[RM_IOPS] == 200.0 / 50.0);
	assert_true(c.v[0].rows[0].ratio[RM_RLAT] == 2.0 / 4.0);
	assert_true(isnan(c.v[0].rows[0].ratio[RM_CPU]));
	cmp_release(&c);

	/* by name: w1 and w1-other-name no longer match */
	assert_int_equal(cmp_build(&c, &s, "transport", "nvmeof", "iser", &by, REP_MATCH_NAME, &err), 0);
	assert_int_equal(c.matched, 0);
	cmp_release(&c);
	assert_int_equal(cmp_build(&c, &s, "transport", "nvmeof", "rdma", &by, REP_MATCH_IDENTITY, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	cmp_release(&c);

	kvlist_init(&where);
	assert_int_equal(rep_where_add(&where, "bs=8k", &err), 0);
	assert_false(rep_run_matches(&s.v[0], &where));
	assert_true(rep_run_matches(&s.v[4], &where));
	assert_int_equal(rep_where_add(&where, "rdpct=0", &err), 0);
	assert_true(rep_run_matches(&s.v[4], &where));
	assert_int_equal(rep_where_add(&where, "stack=r5", &err), 0);
	assert_false(rep_run_matches(&s.v[4], &where));
	kvlist_release(&where);
	assert_string_equal(rep_run_value(&s.v[0], "bs", buf, sizeof(buf)), "4k");
	assert_null(rep_run_value(&s.v[0], "kernel", buf, sizeof(buf)));
	kvlist_release(&by);
	rep_set_release(&s);
}

static void test_slug(void **state)
{
	static const char *const cases[][2] = {
		{ "stack=mdadm-raid5", "stack-mdadm-raid5" }, { "../../etc/passwd", "etc-passwd" },
		{ "'; system(\"x\")", "system-x" }, { "Ünïcode", "n-code" }, { "", "x" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb;
		strbuf_init(&sb);
		chart_slug(&sb, cases[i][0]);
		assert_string_equal(sb.buf, cases[i][1]);
		strbuf_release(&sb);
	}
}

/* Write runs with the store API, read them back with report_load. */
static void test_store_roundtrip(void **state)
{
	char path[] = "/tmp/test_report-XXXXXX";
	struct store *st;
	struct errbuf err;
	struct run_spec spec;
	struct run_result res;
	struct host_result *h;
	struct cpu_result *cpu;
	struct rep_set set;
	struct kvlist labels;
	int64_t suite, run;
	int fd;

	(void)state;
	errbuf_init(&err);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	assert_int_equal(store_open(path, 0, &st, &err), 0);
	kvlist_init(&labels);
	kvlist_add(&labels, "kernel", "6.8");
	assert_int_equal(store_suite_add(st, "s", "run", NULL, 1, &labels, &suite, &err), 0);
	run_spec_init(&spec);
	spec.name = xstrdup("rw");
	spec.seq = 1;
	spec.repetition = 1;
	spec.wl.tool = xstrdup("fio");
	spec.wl.bs_bytes = 4096;
	spec.wl.read_pct = 70;
	spec.wl.random_pct = 100;
	kvlist_add(&spec.labels, "stack", "md");
	run_result_init(&res);
	h = run_result_add_host(&res, "*");
	h->usr_cpu_pct = 3;
	h->sys_cpu_pct = 4;
	h->fio_version = xstrdup("fio-3.33");
	tu_clat_dir(h, DDIR_READ, 700, 250000);
	h->dir[DDIR_READ].bins = xcalloc(2, sizeof(struct hist_bin));
	h->dir[DDIR_READ].bins[0] = (struct hist_bin){ 100000, 98 };
	h->dir[DDIR_READ].bins[1] = (struct hist_bin){ 3000000, 2 };
	h->dir[DDIR_READ].nbins = 2;
	h->dir[DDIR_WRITE].present = 1;
	h->dir[DDIR_WRITE].iops = 300;
	h->dir[DDIR_WRITE].bw_bytes = 300 * 4096.0;
	h->dir[DDIR_WRITE].lat.present = 1;
	h->dir[DDIR_WRITE].lat.mean_ns = 500000;
	assert_int_equal(store_run_add(st, suite, &spec, RUN_DONE, &run, &err), 0);
	assert_int_equal(store_run_write_result(st, run, &res, &err), 0);
	run_result_release(&res);
	/* a collector's cluster figure (written later, as the run loop may) wins over fio's own */
	run_result_init(&res);
	cpu = run_result_add_cpu(&res, "*", ROLE_INITIATOR, "procstat");
	cpu->util_pct = 42.5;
	assert_int_equal(store_run_write_result(st, run, &res, &err), 0);
	run_result_release(&res);
	run_spec_release(&spec);
	store_close(st);

	assert_int_equal(store_open(path, STORE_READONLY, &st, &err), 0);
	rep_set_init(&set);
	assert_int_equal(report_load(st, NULL, 0, &set, &err), 0);
	assert_int_equal(set.n, 1);
	assert_string_equal(kvlist_get(&set.v[0].labels, "kernel", ""), "6.8"); /* from the suite */
	assert_string_equal(kvlist_get(&set.v[0].labels, "stack", ""), "md");
	assert_true(set.v[0].m[RM_IOPS] == 1000); /* no total row: read + write */
	assert_true(set.v[0].m[RM_MBPS] == 1000 * 4096.0 / 1048576.0);
	assert_true(set.v[0].m[RM_RLAT] == 0.25); /* clat mean when lat is absent */
	assert_true(set.v[0].m[RM_WLAT] == 0.5);
	assert_true(set.v[0].m[RM_RP99] == 3.0); /* from the bins */
	assert_true(isnan(set.v[0].m[RM_WP99]));
	assert_true(set.v[0].m[RM_CPU] == 42.5);
	assert_string_equal(set.v[0].cpu_source, "procstat");
	assert_int_equal(set.v[0].nhosts, 1);
	assert_string_equal(set.v[0].hosts[0].fio_version, "fio-3.33");
	rep_set_release(&set);
	store_close(st);
	kvlist_release(&labels);
	tu_remove_db(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cell),        cmocka_unit_test(test_class),
		cmocka_unit_test(test_parse),       cmocka_unit_test(test_table_and_compare),
		cmocka_unit_test(test_slug),        cmocka_unit_test(test_store_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
