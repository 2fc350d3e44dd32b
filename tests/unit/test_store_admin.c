/*
 * test_store_admin: the SQL of `bench db` (core/store_admin.h) on real SQLite files: merge copies suites and
 * runs with every row under them and new ids, adds nothing when repeated and fills in a missing run of a
 * known suite; it refuses files that are not bench databases of this schema version and never writes the
 * other file; rm and relabel count, honour --dry-run and refuse unknown ids; check finds orphans, empty
 * suites and unfinished runs; artifacts come back byte for byte (NUL bytes included); vacuum shrinks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/aggregate.h"
#include "core/store.h"
#include "core/store_admin.h"
#include "core/store_internal.h"
#include "core/strbuf.h"
#include "testutil.h"

static const char art_bytes[] = "{\"fio\": 1}\n\0binary\xff tail";

/* A suite `name` with `nruns` done runs: results with bins, a label, 3 samples and an artifact each. */
static int64_t add_suite(struct store *st, const char *name, unsigned nruns, int64_t *first_run)
{
	struct errbuf err;
	struct kvlist labels;
	int64_t suite, run;

	errbuf_init(&err);
	kvlist_init(&labels);
	kvlist_add(&labels, "site", name);
	assert_int_equal(store_suite_add(st, name, "import", name, nruns, &labels, &suite, &err), 0);
	for (unsigned i = 0; i < nruns; i++) {
		struct run_spec s;
		struct run_result r;
		struct host_result *h;

		run_spec_init(&s);
		s.name = xasprintf("%s-run%u", name, i + 1);
		s.seq = i + 1;
		s.repetition = 1;
		s.engine = xstrdup("import");
		kvlist_add(&s.labels, "n", s.name);
		assert_int_equal(store_run_begin(st, suite, &s, &run, &err), 0);
		if (!i && first_run)
			*first_run = run;
		run_result_init(&r);
		h = run_result_add_host(&r, "localhost");
		h->dir[DDIR_READ].present = 1;
		h->dir[DDIR_READ].ios = 100 + i;
		h->dir[DDIR_READ].iops = 10.5 + i;
		h->dir[DDIR_READ].nbins = 2;
		h->dir[DDIR_READ].bins = xcalloc(2, sizeof(struct hist_bin));
		h->dir[DDIR_READ].bins[0] = (struct hist_bin){ 1000, 60 };
		h->dir[DDIR_READ].bins[1] = (struct hist_bin){ 2000, 40 + i };
		host_result_total(h);
		run_result_aggregate(&r);
		for (int k = 0; k < 3; k++)
			run_result_add_sample(&r, "localhost", "iops.read", k * 1000, 100.0 * (k + 1) + i);
		run_result_add_artifact(&r, "fio-output.json", art_bytes, sizeof(art_bytes) - 1);
		assert_int_equal(store_run_finish(st, run, RUN_DONE, NULL, &r, &err), 0);
		run_result_release(&r);
		run_spec_release(&s);
	}
	kvlist_release(&labels);
	return suite;
}

static const char *const tables[] = { "suite", "suite_label", "run", "run_label", "run_host", "result",
				      "result_pct", "result_bin", "sample", "artifact", NULL };

static void counts(sqlite3 *db, int64_t *out)
{
	for (int i = 0; tables[i]; i++) {
		char sql[128];
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM \"%s\"", tables[i]);
		out[i] = tu_count(db, sql);
	}
}

/* Merges PB into A again: no new suite, RUNS_NEW new runs and RUNS_SAME known ones (M tells), after which A's
 * tables hold the counts CM. */
static void merge_again(struct store *a, const char *pb, struct admin_merge *m, int64_t runs_new, int64_t runs_same,
			const int64_t *cm)
{
	struct errbuf err;
	int64_t again[16];

	errbuf_init(&err);
	assert_int_equal(store_admin_merge(a, pb, 0, m, &err), 0);
	assert_int_equal(m->suites_new, 0);
	assert_int_equal(m->runs_new, runs_new);
	assert_int_equal(m->runs_same, runs_same);
	counts(store_db(a), again);
	for (int i = 0; tables[i]; i++)
		assert_int_equal(again[i], cm[i]);
}

static void test_merge(void **state)
{
	(void)state;
	char *pa = tu_tmp_db("admin"), *pb = tu_tmp_db("admin");
	struct store *a, *b;
	struct errbuf err;
	struct admin_merge m;
	int64_t ca[16], cb[16], cm[16], brun;

	errbuf_init(&err);
	assert_int_equal(store_open(pa, 0, &a, &err), 0);
	assert_int_equal(store_open(pb, 0, &b, &err), 0);
	add_suite(a, "local", 1, NULL);
	add_suite(b, "lab2-x", 2, &brun);
	add_suite(b, "lab2-y", 1, NULL);
	store_close(b);
	assert_int_equal(store_open(pb, STORE_READONLY, &b, &err), 0);
	counts(store_db(a), ca);
	counts(store_db(b), cb);

	/* dry run: counted, nothing written */
	assert_int_equal(store_admin_merge(a, pb, 1, &m, &err), 0);
	assert_int_equal(m.suites_new, 2);
	assert_int_equal(m.runs_new, 3);
	counts(store_db(a), cm);
	for (int i = 0; tables[i]; i++)
		assert_int_equal(cm[i], ca[i]);

	assert_int_equal(store_admin_merge(a, pb, 0, &m, &err), 0);
	assert_int_equal(m.suites_new, 2);
	assert_int_equal(m.runs_new, 3);
	assert_int_equal(m.suites_same, 0);
	counts(store_db(a), cm);
	for (int i = 0; tables[i]; i++) {
		print_message("%s: %lld + %lld = %lld\n", tables[i], (long long)ca[i], (long long)cb[i],
			      (long long)cm[i]);
		assert_int_equal(cm[i], ca[i] + cb[i]);
	}
	/* the other file's rows under their new ids */
	assert_int_equal(tu_count(store_db(a), "SELECT count(*) FROM run r JOIN suite s ON s.id = r.suite_id "
				     "WHERE s.name = 'lab2-x' AND r.name LIKE 'lab2-x-run%'"), 2);
	assert_int_equal(tu_count(store_db(a), "SELECT sum(b.count) FROM result_bin b JOIN result r ON r.id = b.result_id "
				     "JOIN run ON run.id = r.run_id WHERE run.name = 'lab2-x-run2' AND r.host = '*' "
				     "AND r.ddir = 'read'"), 60 + 41);
	assert_int_equal(tu_count(store_db(a), "SELECT count(*) FROM pragma_foreign_key_check"), 0);

	/* again: nothing new */
	merge_again(a, pb, &m, 0, 3, cm);
	assert_int_equal(m.suites_same, 2);

	/* a run missing from a known suite is brought back alone */
	assert_int_equal(sqlite3_exec(store_db(a), "DELETE FROM run WHERE name = 'lab2-x-run2'", NULL, NULL, NULL),
			 SQLITE_OK);
	merge_again(a, pb, &m, 1, 2, cm);

	/* the other file was not written */
	counts(store_db(b), cm);
	for (int i = 0; tables[i]; i++)
		assert_int_equal(cm[i], cb[i]);
	store_close(a);
	store_close(b);
	tu_free_db(pa);
	tu_free_db(pb);
}

/* A test's own new database (cmocka per-test state): db_open makes and opens it, db_close closes and removes
 * it. */
struct admin_db {
	char *path;
	struct store *st;
};

static int db_open(void **state)
{
	struct admin_db *d = xcalloc(1, sizeof(*d));
	struct errbuf err;

	d->path = tu_tmp_db("admin");
	errbuf_init(&err);
	if (store_open(d->path, 0, &d->st, &err) < 0) {
		fprintf(stderr, "%s: %s\n", d->path, err.msg);
		tu_free_db(d->path);
		free(d);
		return -1;
	}
	*state = d;
	return 0;
}

static int db_close(void **state)
{
	struct admin_db *d = *state;

	store_close(d->st);
	tu_free_db(d->path);
	free(d);
	return 0;
}

static void test_merge_refuses(void **state)
{
	struct store *a = ((struct admin_db *)*state)->st;
	char *pb = tu_tmp_db("admin");
	struct errbuf err;
	struct admin_merge m;
	sqlite3 *db;

	errbuf_init(&err);
	assert_int_equal(store_admin_merge(a, "/nonexistent/x.db", 0, &m, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_non_null(strstr(err.msg, "cannot read '/nonexistent/x.db'"));
	/* an SQLite file of another application */
	assert_int_equal(sqlite3_open(pb, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t(a)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	errbuf_init(&err);
	assert_int_equal(store_admin_merge(a, pb, 0, &m, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_non_null(strstr(err.msg, "is not a bench database"));
	unlink(pb);
	/* a bench file of another schema version */
	{
		struct store *b;
		assert_int_equal(store_open(pb, 0, &b, &err), 0);
		assert_int_equal(sqlite3_exec(store_db(b), "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
		store_close(b);
	}
	errbuf_init(&err);
	assert_int_equal(store_admin_merge(a, pb, 0, &m, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_non_null(strstr(err.msg, "schema version 99"));
	/* the database is usable afterwards (the other file was detached) */
	add_suite(a, "after", 1, NULL);
	assert_int_equal(tu_count(store_db(a), "SELECT count(*) FROM pragma_database_list WHERE name = 'merge_src'"), 0);
	tu_free_db(pb);
}

static void test_rm_relabel(void **state)
{
	struct store *st = ((struct admin_db *)*state)->st;
	struct errbuf err;
	struct admin_counts c;
	struct kvlist ch;
	int64_t r1, r2, ids[3];
	size_t changed;
	int64_t before, after;

	errbuf_init(&err);
	add_suite(st, "s1", 2, &r1);
	add_suite(st, "s2", 1, &r2);
	ids[0] = r1;
	ids[1] = r2;
	assert_int_equal(store_admin_rm(st, ids, 2, 1, &c, &err), 0);
	assert_int_equal(c.runs, 2);
	assert_int_equal(c.suites, 1); /* s2 is left empty; s1 keeps its second run */
	assert_int_equal(c.samples, 6);
	assert_int_equal(c.artifacts, 2);
	assert_int_equal(c.results, 2 * 4); /* read and total, host and aggregate */
	assert_int_equal(tu_count(store_db(st), "SELECT count(*) FROM run"), 3);

	ids[2] = 999;
	assert_int_equal(store_admin_rm(st, ids, 3, 0, &c, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_non_null(strstr(err.msg, "no run with id 999"));
	assert_int_equal(tu_count(store_db(st), "SELECT count(*) FROM run"), 3);

	kvlist_init(&ch);
	kvlist_add(&ch, "rack", "r7");
	kvlist_add(&ch, "n", NULL);
	assert_int_equal(store_admin_relabel(st, ids, 2, &ch, 1, &changed, &err), 0);
	assert_int_equal(changed, 4);
	assert_int_equal(tu_count(store_db(st), "SELECT count(*) FROM run_label WHERE key = 'rack'"), 0);
	assert_int_equal(store_admin_relabel(st, ids, 2, &ch, 0, &changed, &err), 0);
	assert_int_equal(changed, 4);
	assert_int_equal(tu_count(store_db(st), "SELECT count(*) FROM run_label WHERE key = 'rack' AND value = 'r7'"), 2);
	assert_int_equal(tu_count(store_db(st), "SELECT count(*) FROM run_label WHERE key = 'n'"), 1);
	assert_int_equal(store_admin_relabel(st, ids, 2, &ch, 0, &changed, &err), 0);
	assert_int_equal(changed, 0); /* already so */
	kvlist_release(&ch);

	assert_int_equal(store_admin_rm(st, ids, 2, 0, &c, &err), 0);
	assert_int_equal(tu_count(store_db(st), "SELECT count(*) FROM run"), 1);
	assert_int_equal(tu_count(store_db(st), "SELECT count(*) FROM suite"), 1);
	assert_int_equal(tu_count(store_db(st), "SELECT count(*) FROM sample"), 3);
	assert_int_equal(tu_count(store_db(st), "SELECT count(*) FROM result_bin b WHERE NOT EXISTS "
				      "(SELECT 1 FROM result r WHERE r.id = b.result_id)"), 0);
	assert_int_equal(store_admin_vacuum(st, &before, &after, &err), 0);
	assert_true(before > 0 && after > 0 && after <= before);
}

static void test_check(void **state)
{
	struct store *st = ((struct admin_db *)*state)->st;
	struct errbuf err;
	struct kvlist pr;

	errbuf_init(&err);
	kvlist_init(&pr);
	add_suite(st, "s1", 1, NULL);
	assert_int_equal(store_admin_check(st, &pr, &err), 0);
	assert_int_equal(pr.n, 0);
	assert_int_equal(sqlite3_exec(store_db(st),
				      "PRAGMA foreign_keys = OFF;"
				      "INSERT INTO sample(run_id, host, metric, t_ms, value) VALUES (77, 'h', 'm', 0, 1);"
				      "INSERT INTO suite(name, source, created_at) VALUES ('empty', 'run', 'now');"
				      "UPDATE run SET status = 'running';"
				      "PRAGMA foreign_keys = ON;", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_admin_check(st, &pr, &err), 0);
	assert_int_equal(pr.n, 3);
	assert_string_equal(pr.v[0].key, "foreign_key");
	assert_non_null(strstr(pr.v[0].value, "table sample row"));
	assert_string_equal(pr.v[1].key, "empty_suite");
	assert_non_null(strstr(pr.v[1].value, "'empty'"));
	assert_string_equal(pr.v[2].key, "unfinished_run");
	kvlist_release(&pr);
}

static void test_reads(void **state)
{
	struct store *st = ((struct admin_db *)*state)->st;
	struct errbuf err;
	struct kvlist arts;
	struct strbuf data;
	struct admin_sample_list sl;
	struct admin_sample_summary_list ss;
	struct admin_result_list rl;
	struct admin_run_detail d;
	int64_t run;

	errbuf_init(&err);
	kvlist_init(&arts);
	strbuf_init(&data);
	admin_sample_list_init(&sl);
	memset(&ss, 0, sizeof(ss));
	memset(&rl, 0, sizeof(rl));
	add_suite(st, "s1", 1, &run);
	assert_int_equal(store_admin_artifacts(st, run, &arts, &err), 0);
	assert_int_equal(arts.n, 1);
	assert_string_equal(arts.v[0].key, "fio-output.json");
	assert_int_equal(strtol(arts.v[0].value, NULL, 10), (long)sizeof(art_bytes) - 1);
	assert_int_equal(store_admin_artifact(st, run, "fio-output.json", &data, &err), 0);
	assert_int_equal(data.len, sizeof(art_bytes) - 1);
	assert_memory_equal(data.buf, art_bytes, data.len);
	assert_int_equal(store_admin_artifact(st, run, "nope", &data, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);

	assert_int_equal(store_admin_samples(st, run, &sl, &err), 0);
	assert_int_equal(sl.n, 3);
	assert_int_equal(sl.v[2].t_ms, 2000);
	assert_true(sl.v[2].value == 300.0);
	assert_int_equal(store_admin_sample_summary(st, run, &ss, &err), 0);
	assert_int_equal(ss.n, 1);
	assert_int_equal(ss.v[0].n, 3);
	assert_true(ss.v[0].min == 100.0 && ss.v[0].max == 300.0 && ss.v[0].mean == 200.0);

	assert_int_equal(store_admin_results(st, run, &rl, &err), 0);
	assert_int_equal(rl.n, 4);
	assert_string_equal(rl.v[3].host, "*"); /* aggregate last, total last */
	assert_string_equal(rl.v[3].ddir, "total");
	assert_int_equal(rl.v[0].nbins, 2);
	assert_string_equal(rl.v[2].ddir, "read");
	assert_true(rl.v[2].npcts > 0); /* percentiles of the aggregate, from the bins */

	assert_int_equal(store_admin_run_detail(st, run, &d, &err), 0);
	assert_string_equal(d.suite_source, "import");
	assert_non_null(d.spec);
	admin_run_detail_release(&d);
	assert_int_equal(store_admin_run_detail(st, 4242, &d, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);

	admin_result_list_release(&rl);
	admin_sample_summary_list_release(&ss);
	admin_sample_list_release(&sl);
	strbuf_release(&data);
	kvlist_release(&arts);
}

TU_MAIN(cmocka_unit_test(test_merge),
	cmocka_unit_test_setup_teardown(test_merge_refuses, db_open, db_close),
	cmocka_unit_test_setup_teardown(test_rm_relabel, db_open, db_close),
	cmocka_unit_test_setup_teardown(test_check, db_open, db_close),
	cmocka_unit_test_setup_teardown(test_reads, db_open, db_close))
