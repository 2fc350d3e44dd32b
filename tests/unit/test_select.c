/*
 * test_select: one selection language for report and gate (report/select.c, report/gate/gate_select.c). On one
 * database written with the store API, the runs `report --where k=v` chooses (report_load) equal the runs
 * the gate chooses for the selection k=v (gate_select_load), across run/suite label combinations: suite
 * only, run only, both disagreeing (the run's label wins). The CPU figure of a run is the same row in both
 * (core's preference rule): report's utilisation and the gate's CPU-microseconds per IO come from it.
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
#include "report/gate/gate.h"
#include "report/gate/gate_select.h"
#include "report/load.h"
#include "report/select.h"
#include "testutil.h"

static char dbpath[64];

/* The database: suite labels, run labels, and the runs each selection must choose (by name). */
static const struct {
	const char *suite_labels; /* "k=v,k=v" or "" */
	const char *run_labels;
	const char *name;
	int fio_cpu_only;         /* no cpu rows: fio's own usr+sys */
} runs[] = {
	{ "env=lab", "", "suite-only", 0 },
	{ "", "env=lab", "run-only", 0 },
	{ "env=prod", "env=lab", "run-lab-suite-prod", 0 },
	{ "env=lab", "env=prod", "run-prod-suite-lab", 1 },
	{ "env=lab,tier=gold", "tier=silver", "tier-silver", 0 },
	{ "", "", "no-labels", 1 },
};

static const struct {
	const char *selection;    /* gate form; report gets one --where per condition */
	const char *want;         /* names, in store order, "," separated */
} selections[] = {
	{ "env=lab", "suite-only,run-only,run-lab-suite-prod,tier-silver" },
	{ "env=prod", "run-prod-suite-lab" },
	{ "tier=gold", "" },
	{ "tier=silver", "tier-silver" },
	{ "env=lab,tier=silver", "tier-silver" },
	{ "env=lab,tier=gold", "" },
	{ "rw=randread", "suite-only,run-only,run-lab-suite-prod,run-prod-suite-lab,tier-silver,no-labels" },
};

static void parse_labels(const char *text, struct kvlist *out)
{
	char *copy = xstrdup(text), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		assert_non_null(eq);
		*eq = '\0';
		kvlist_add(out, tok, eq + 1);
	}
	free(copy);
}

static void add_cpu(struct run_result *res, const char *source, double util, double us_per_io)
{
	struct cpu_result *c = run_result_add_cpu(res, "*", ROLE_INITIATOR, source);

	c->util_pct = util;
	c->cpu_us_per_io = us_per_io;
}

static int setup(void **state)
{
	struct store *st;
	struct errbuf err;

	*state = dbpath;
	snprintf(dbpath, sizeof(dbpath), "/tmp/test_select-%ld.db", (long)getpid());
	tu_remove_db(dbpath);
	errbuf_init(&err);
	assert_int_equal(store_open(dbpath, 0, &st, &err), 0);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct kvlist labels;
		struct run_spec spec;
		struct run_result res;
		struct host_result *h;
		int64_t suite, id;

		kvlist_init(&labels);
		parse_labels(runs[i].suite_labels, &labels);
		assert_int_equal(store_suite_add(st, runs[i].name, "run", NULL, 1, &labels, &suite, &err), 0);
		kvlist_release(&labels);
		tu_spec(&spec, runs[i].name, 1, 1, "fio", "randread", 100, 8, 10);
		parse_labels(runs[i].run_labels, &spec.labels);
		run_result_init(&res);
		h = run_result_add_host(&res, "*");
		h->usr_cpu_pct = 3;
		h->sys_cpu_pct = 4 + (double)i;
		tu_clat_dir(h, DDIR_READ, 2000, 400000)->ios = 20000;
		h->dir[DDIR_READ].runtime_ms = 10000;
		if (!runs[i].fio_cpu_only) {
			/* procstat must win, whatever the order the rows were written in */
			add_cpu(&res, "fio", 90, 99);
			add_cpu(&res, "import", 50, 55);
			add_cpu(&res, "procstat", 40 + (double)i, 10 + (double)i);
			add_cpu(&res, "node_exporter", 45, 44);
		}
		assert_int_equal(store_run_add(st, suite, &spec, RUN_DONE, &id, &err), 0);
		assert_int_equal(store_run_write_result(st, id, &res, &err), 0);
		run_result_release(&res);
		run_spec_release(&spec);
	}
	store_close(st);
	return 0;
}

static void names_add(struct strbuf *sb, const char *name)
{
	if (sb->len)
		strbuf_addc(sb, ',');
	strbuf_adds(sb, name);
}

static void test_report_and_gate_choose_alike(void **state)
{
	struct store *st;
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_open(dbpath, STORE_READONLY | STORE_MUST_EXIST, &st, &err), 0);
	for (size_t i = 0; i < sizeof(selections) / sizeof(selections[0]); i++) {
		struct kvlist where;
		struct rep_set set;
		struct gate_side side;
		struct strbuf rep_names, gate_names;
		char *copy = xstrdup(selections[i].selection), *save = NULL;

		kvlist_init(&where);
		for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			assert_int_equal(select_add(&where, tok, &err), 0);
		free(copy);
		rep_set_init(&set);
		assert_int_equal(report_load(st, &where, 0, &set, &err), 0);
		gate_side_init(&side, selections[i].selection);
		assert_int_equal(gate_select_load(st, selections[i].selection, NULL, &side, &err), 0);

		strbuf_init(&rep_names);
		strbuf_init(&gate_names);
		for (size_t k = 0; k < set.n; k++)
			names_add(&rep_names, set.v[k].name);
		for (size_t k = 0; k < side.n; k++)
			names_add(&gate_names, side.runs[k].name);
		if (strcmp(rep_names.buf, selections[i].want) || strcmp(gate_names.buf, selections[i].want))
			fail_msg("selection '%s': report chose [%s], gate chose [%s], want [%s]", selections[i].selection,
				 rep_names.buf, gate_names.buf, selections[i].want);
		/* the same run ids, and the CPU figure of each from the same row */
		assert_int_equal(set.n, side.n);
		for (size_t k = 0; k < set.n; k++) {
			const struct rep_run *r = &set.v[k];
			const struct gate_run *g = &side.runs[k];

			assert_true(r->id == g->id);
			assert_null(g->invalid);
			assert_non_null(r->cpu_source);
			if (!strcmp(r->cpu_source, "procstat")) {
				/* util 40 + i, us/IO 10 + i of the same procstat row */
				assert_true(fabs((r->m[RM_CPU] - 40) - (g->value[GM_CPU_PER_IO] - 10)) < 1e-9);
				assert_true(r->cpu_us_per_io == g->value[GM_CPU_PER_IO]);
			} else {
				/* fio's own usr+sys: a CPU % for both, CPU per IO unknown for both (figures.h) */
				assert_string_equal(r->cpu_source, "fio");
				assert_true(r->m[RM_CPU] > 0);
				assert_true(isnan(r->cpu_us_per_io));
				assert_true(isnan(g->value[GM_CPU_PER_IO]));
			}
		}
		strbuf_release(&rep_names);
		strbuf_release(&gate_names);
		gate_side_release(&side);
		rep_set_release(&set);
		kvlist_release(&where);
	}
	store_close(st);
}

static void test_latest_and_suite(void **state)
{
	struct store *st;
	struct errbuf err;
	struct gate_side side;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_open(dbpath, STORE_READONLY | STORE_MUST_EXIST, &st, &err), 0);
	/* the newest suite with a run whose (merged) labels match: tier-silver's, not run-prod-suite-lab's */
	gate_side_init(&side, "latest:env=lab");
	assert_int_equal(gate_select_load(st, "latest:env=lab", NULL, &side, &err), 0);
	assert_int_equal(side.n, 1);
	assert_string_equal(side.runs[0].name, "tier-silver");
	gate_side_release(&side);
	gate_side_init(&side, "latest:env=prod");
	assert_int_equal(gate_select_load(st, "latest:env=prod", NULL, &side, &err), 0);
	assert_int_equal(side.n, 1);
	assert_string_equal(side.runs[0].name, "run-prod-suite-lab");
	gate_side_release(&side);
	gate_side_init(&side, "suite:2");
	assert_int_equal(gate_select_load(st, "suite:2", NULL, &side, &err), 0);
	assert_int_equal(side.n, 1);
	assert_string_equal(side.runs[0].name, "run-only");
	/* paired by the workload identity (core/identity.h), the report's key (rep_match_key) */
	assert_string_equal(side.runs[0].key, "bs=4096|iodepth=8|numjobs=1|random_pct=100|read_pct=100|rw=randread|tool=fio");
	gate_side_release(&side);
	store_close(st);
}

static void test_value(void **state)
{
	struct kvlist labels;
	struct select_subject s;
	struct kvlist where;
	struct errbuf err;
	char buf[64];

	(void)state;
	errbuf_init(&err);
	kvlist_init(&labels);
	kvlist_init(&where);
	kvlist_add(&labels, "bs", "big"); /* a label named like a parameter wins */
	memset(&s, 0, sizeof(s));
	s.labels = &labels;
	s.name = "w";
	s.bs_bytes = 4096;
	s.read_pct = -1;
	s.random_pct = 0;
	s.suite_id = 7;
	assert_string_equal(select_value(&s, "bs", buf, sizeof(buf)), "big");
	assert_string_equal(select_value(&s, "suite_id", buf, sizeof(buf)), "7");
	assert_string_equal(select_value(&s, "randpct", buf, sizeof(buf)), "0");
	assert_null(select_value(&s, "rdpct", buf, sizeof(buf)));
	assert_int_equal(select_add(&where, "workload=w", &err), 0);
	assert_true(select_matches(&s, &where));
	assert_int_equal(select_add(&where, "bs=4k", &err), 0);
	assert_false(select_matches(&s, &where)); /* bs is the label "big" here */
	assert_int_equal(select_add(&where, "bogus", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	kvlist_release(&labels);
	kvlist_release(&where);
}

/* select_labels_exclude rules a run out only when select_matches would (every label set against every where). */
static void test_labels_exclude(void **state)
{
	static const char *const conds[] = { "branch=base", "branch=cand", "workload=w", "bs=4k", "bs=64k", "env=lab",
					     "rdpct=70", "suite_id=7", "name=x" };
	static const char *const label_sets[][2] = { { NULL, NULL }, { "branch", "base" }, { "bs", "big" },
						     { "name", "w" }, { "env", "lab" }, { "read_pct", "70" } };
	struct select_subject s;
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	memset(&s, 0, sizeof(s));
	s.name = "w";
	s.bs_bytes = 4096;
	s.read_pct = 70;
	s.random_pct = 0;
	s.suite_id = 7;
	for (size_t l = 0; l < sizeof(label_sets) / sizeof(label_sets[0]); l++)
		for (size_t a = 0; a < sizeof(conds) / sizeof(conds[0]); a++)
			for (size_t b = 0; b < sizeof(conds) / sizeof(conds[0]); b++) {
				struct kvlist labels, where;

				kvlist_init(&labels);
				kvlist_init(&where);
				if (label_sets[l][0])
					kvlist_add(&labels, label_sets[l][0], label_sets[l][1]);
				s.labels = &labels;
				assert_int_equal(select_add(&where, conds[a], &err), 0);
				assert_int_equal(select_add(&where, conds[b], &err), 0);
				if (select_labels_exclude(&labels, &where))
					assert_false(select_matches(&s, &where));
				kvlist_release(&labels);
				kvlist_release(&where);
			}
	{
		struct kvlist labels, where;

		kvlist_init(&labels);
		kvlist_init(&where);
		kvlist_add(&labels, "branch", "base");
		assert_int_equal(select_add(&where, "branch=cand", &err), 0);
		assert_true(select_labels_exclude(&labels, &where)); /* the label says no */
		kvlist_release(&where);
		kvlist_init(&where);
		assert_int_equal(select_add(&where, "env=lab", &err), 0);
		assert_true(select_labels_exclude(&labels, &where)); /* only a label could say yes */
		kvlist_release(&where);
		kvlist_init(&where);
		assert_int_equal(select_add(&where, "workload=w", &err), 0);
		assert_false(select_labels_exclude(&labels, &where)); /* a field: the row decides */
		assert_false(select_labels_exclude(&labels, NULL));
		kvlist_release(&labels);
		kvlist_release(&where);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_and_gate_choose_alike),
		cmocka_unit_test(test_latest_and_suite),
		cmocka_unit_test(test_labels_exclude),
		cmocka_unit_test(test_value),
	};
	return cmocka_run_group_tests(tests, setup, tu_db_teardown);
}
