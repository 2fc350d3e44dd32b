/*
 * test_store: the SQLite store: schema migrations give exactly the schema of a fresh database, runs are
 * written as 'running' before load and finished with their results in one transaction, resume lookups,
 * and a run spec survives the JSON round trip.
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
#include "core/spec_json.h"
#include "core/store.h"
#include "core/store_internal.h"
#include "core/strbuf.h"
#include "testutil.h"

static char *schema_of(sqlite3 *db)
{
	struct strbuf sb;
	sqlite3_stmt *s;

	strbuf_init(&sb);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_master "
						"ORDER BY type, name", -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		for (int i = 0; i < 4; i++) {
			const unsigned char *t = sqlite3_column_text(s, i);
			strbuf_adds(&sb, t ? (const char *)t : "NULL");
			strbuf_addc(&sb, '|');
		}
		strbuf_addc(&sb, '\n');
	}
	sqlite3_finalize(s);
	return strbuf_detach(&sb, NULL);
}

static void test_migrations_equal_fresh(void **state)
{
	(void)state;
	int latest = store_schema_version();
	assert_true(latest >= 1);
	/* For every older version k: a database built to k, then opened (migrated), equals a fresh one. */
	char *fresh_path = tu_tmp_db("store");
	struct store *st;
	struct errbuf err;
	errbuf_init(&err);
	assert_int_equal(store_open(fresh_path, 0, &st, &err), 0);
	char *fresh = schema_of(store_db(st));
	store_close(st);
	for (int k = 0; k < latest; k++) {
		char *p = tu_tmp_db("store");
		sqlite3 *db;
		assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
		assert_int_equal(store_migrate(db, k, &err), 0);
		sqlite3_close(db);
		assert_int_equal(store_open(p, 0, &st, &err), 0);
		char *migrated = schema_of(store_db(st));
		assert_string_equal(migrated, fresh);
		store_close(st);
		free(migrated);
		tu_free_db(p);
	}
	free(fresh);
	tu_free_db(fresh_path);
}

/*
 * Migration 3 rebuilds table result (its UNIQUE key gets the job): a database at version 2 with results,
 * percentiles, bins and a host row, opened by bench (foreign keys on, so a plain DROP TABLE would cascade), keeps every
 * row, each result now job '*', every reference holding, and ends with exactly a fresh database's schema.
 */
static void test_migration_keeps_result_rows(void **state)
{
	(void)state;
	char *p = tu_tmp_db("store"), *fresh_path = tu_tmp_db("store");
	struct store *st;
	struct errbuf err;
	sqlite3 *db;

	errbuf_init(&err);
	assert_true(store_schema_version() >= 3);
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	assert_int_equal(store_migrate(db, 2, &err), 0);
	assert_int_equal(sqlite3_exec(db,
		"INSERT INTO suite(id, name, source, created_at) VALUES (1, 's', 'run', '2026-01-01T00:00:00Z');"
		"INSERT INTO run(id, suite_id, seq, name, engine, status, started_at) "
		"VALUES (7, 1, 1, 'r', 'fio', 'done', '2026-01-01T00:00:00Z');"
		"INSERT INTO result(id, run_id, host, ddir, ios, bytes, runtime_ms, iops, bw_bytes) VALUES "
		"(11, 7, 'localhost', 'read', 100, 409600, 1000, 100, 409600), (12, 7, '*', 'read', 100, 409600, 1000, 100, 409600);"
		"INSERT INTO result_pct VALUES (11, 50, 1000), (11, 99, 2000), (12, 50, 1000), (12, 99, 2000);"
		"INSERT INTO result_bin VALUES (11, 1000, 60), (11, 2000, 40), (12, 1000, 60), (12, 2000, 40);"
		"INSERT INTO run_host(run_id, host, fio_version) VALUES (7, 'localhost', 'fio-3.33');",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(store_open(p, 0, &st, &err), 0);
	db = store_db(st);
	assert_int_equal(tu_count(db, "PRAGMA user_version"), store_schema_version());
	assert_int_equal(tu_count(db, "PRAGMA foreign_keys"), 1);
	assert_int_equal(tu_count(db, "SELECT count(*) FROM result"), 2);
	assert_int_equal(tu_count(db, "SELECT count(*) FROM result WHERE job = '*'"), 2);
	assert_int_equal(tu_count(db, "SELECT count(*) FROM result_pct"), 4);
	assert_int_equal(tu_count(db, "SELECT count(*) FROM result_bin"), 4);
	assert_int_equal(tu_count(db, "SELECT count(*) FROM result_bin JOIN result ON result.id = result_id "
				   "WHERE host = '*' AND job = '*'"), 2);
	assert_int_equal(tu_count(db, "SELECT value_ns FROM result_pct JOIN result ON result.id = result_id "
				   "WHERE host = 'localhost' AND pct = 99"), 2000);
	assert_int_equal(tu_count(db, "PRAGMA foreign_key_check"), -1);
	/* migration 5: the old host row is kept, its (then unknown) host name NULL */
	assert_int_equal(tu_count(db, "SELECT count(*) FROM run_host WHERE host = 'localhost' AND "
				   "fio_version = 'fio-3.33' AND hostname IS NULL"), 1);
	/* and the cascade still works on the rebuilt table */
	assert_int_equal(sqlite3_exec(db, "DELETE FROM run WHERE id = 7", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(tu_count(db, "SELECT count(*) FROM result_bin"), 0);
	{
		char *migrated = schema_of(db), *fresh;
		struct store *fs;
		assert_int_equal(store_open(fresh_path, 0, &fs, &err), 0);
		fresh = schema_of(store_db(fs));
		assert_string_equal(migrated, fresh);
		store_close(fs);
		free(fresh);
		free(migrated);
	}
	store_close(st);
	tu_remove_db(p);
	tu_remove_db(fresh_path);
	free(p);
	free(fresh_path);
}

static void fill_spec(struct run_spec *s)
{
	tu_spec(s, "fio-1vmdk-100ws-4k-70rdpct-100randompct-4threads", 3, 2, "fio", "randrw", 70, 4, 10);
	kvlist_add(&s->labels, "stack", "mdadm-raid5");
	kvlist_add(&s->engine_opts, "preset", "iser");
	s->wl.ramp_s = 2;
	s->wl.size = xstrdup("100%");
	kvlist_add(&s->wl.opts, "rw", "randrw");
	kvlist_add(&s->wl.opts, "group_reporting", NULL);
	run_spec_add_target(s, "/tmp/x.dat");
}

static void test_spec_json_round_trip(void **state)
{
	(void)state;
	struct run_spec a, b;
	struct errbuf err;
	errbuf_init(&err);
	fill_spec(&a);
	char *j1 = run_spec_to_json(&a);
	assert_int_equal(run_spec_from_json(j1, &b, &err), 0);
	char *j2 = run_spec_to_json(&b);
	assert_string_equal(j1, j2);
	assert_null(kvlist_find(&b.wl.opts, "group_reporting")->value);
	assert_int_equal(b.wl.read_pct, 70);
	assert_string_equal(b.targets[0], "/tmp/x.dat");
	run_spec_release(&b);
	assert_int_equal(run_spec_from_json("{\"workload\": 3}", &b, &err), -1);
	free(j1);
	free(j2);
	run_spec_release(&a);
	run_spec_release(&b);
}

static void test_run_lifecycle(void **state)
{
	(void)state;
	char *p = tu_tmp_db("store");
	struct store *st;
	struct errbuf err;
	struct run_spec s;
	struct run_result r;
	int64_t suite, run, again;
	enum run_status status;

	errbuf_init(&err);
	assert_int_equal(store_open(p, 0, &st, &err), 0);
	struct kvlist labels;
	kvlist_init(&labels);
	kvlist_add(&labels, "transport", "nvmeof");
	assert_int_equal(store_suite_add(st, "t", "run", "[\"x\"]", 1, &labels, &suite, &err), 0);
	fill_spec(&s);
	assert_int_equal(store_run_begin(st, suite, &s, &run, &err), 0);
	/* Committed before load: a second connection sees the 'running' row. */
	sqlite3 *other;
	assert_int_equal(sqlite3_open(p, &other), SQLITE_OK);
	assert_int_equal(tu_count(other, "SELECT count(*) FROM run WHERE status = 'running'"), 1);

	run_result_init(&r);
	struct host_result *h = run_result_add_host(&r, "localhost");
	snprintf(h->hostname, sizeof(h->hostname), "%s", "lab1"); /* the server's own name (its PROBE reply) */
	h->dir[DDIR_READ].present = 1;
	h->dir[DDIR_READ].ios = 100;
	h->dir[DDIR_READ].iops = 10;
	h->dir[DDIR_READ].nbins = 2;
	h->dir[DDIR_READ].bins = xcalloc(2, sizeof(struct hist_bin));
	h->dir[DDIR_READ].bins[0] = (struct hist_bin){ 1000, 60 };
	h->dir[DDIR_READ].bins[1] = (struct hist_bin){ 2000, 40 };
	host_result_total(h);
	run_result_aggregate(&r);
	run_result_add_artifact(&r, "jobfile", "[x]\n", 4);
	assert_int_equal(store_run_finish(st, run, RUN_DONE, NULL, &r, &err), 0);
	assert_int_equal(tu_count(other, "SELECT count(*) FROM run WHERE status = 'done'"), 1);
	assert_int_equal(tu_count(other, "SELECT count(*) FROM result WHERE host = '*' AND ddir = 'total'"), 1);
	assert_int_equal(tu_count(other, "SELECT count(*) FROM result_bin"), 8); /* 2 bins x (read, total) x (host, aggregate) */
	assert_int_equal(tu_count(other, "SELECT count(*) FROM run_host WHERE host = 'localhost' AND hostname = 'lab1'"), 1);
	assert_int_equal(tu_count(other, "SELECT count(*) FROM run_host WHERE host = '*' AND hostname IS NULL"), 1);
	assert_int_equal(tu_count(other, "SELECT value_ns FROM result_pct JOIN result ON result.id = result_id "
				      "WHERE host = '*' AND ddir = 'read' AND pct = 50"), 1000);
	assert_int_equal(tu_count(other, "SELECT value_ns FROM result_pct JOIN result ON result.id = result_id "
				      "WHERE host = '*' AND ddir = 'read' AND pct = 99"), 2000);
	assert_int_equal(store_run_lookup(st, suite, 3, 2, &again, &status, &err), 0);
	assert_int_equal(again, run);
	assert_int_equal(status, RUN_DONE);
	/* Starting the same (seq, repetition) again replaces the old row and everything under it. */
	assert_int_equal(store_run_begin(st, suite, &s, &again, &err), 0);
	assert_int_equal(tu_count(other, "SELECT count(*) FROM run"), 1);
	assert_int_equal(tu_count(other, "SELECT count(*) FROM result"), 0);
	assert_int_equal(tu_count(other, "PRAGMA foreign_key_check"), -1);
	sqlite3_close(other);
	run_result_release(&r);
	run_spec_release(&s);
	kvlist_release(&labels);
	store_close(st);
	tu_free_db(p);
}

static void test_open_errors(void **state)
{
	(void)state;
	struct store *st;
	struct errbuf err;
	errbuf_init(&err);
	assert_int_equal(store_open("/tmp", 0, &st, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_non_null(strstr(err.msg, "directory"));
	assert_int_equal(store_open("/nonexistent-dir/x.db", STORE_READONLY, &st, &err), -1);
	/* A file that is not SQLite. */
	char *p = tu_tmp_db("store");
	FILE *f = fopen(p, "w");
	fputs("this is not a database, just text that is long enough to have a header........", f);
	fclose(f);
	assert_int_equal(store_open(p, 0, &st, &err), -1);
	assert_int_equal(err.kind, ERR_STORE);
	tu_free_db(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_migrations_equal_fresh),
		cmocka_unit_test(test_migration_keeps_result_rows),
		cmocka_unit_test(test_spec_json_round_trip),
		cmocka_unit_test(test_run_lifecycle),
		cmocka_unit_test(test_open_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
