/*
 * test_store_safety: the store's ownership and concurrency rules (issue 18, docs/safety.md).
 *  - --db "" and a directory are usage errors;
 *  - another application's file (tables, or another application_id) is refused and left byte-unchanged; an
 *    empty file and a bench database from before application_id are accepted (and then marked);
 *  - a damaged file (a page overwritten) is refused by the read-only open with "damaged";
 *  - 8 processes creating one new database at once, 30 times: every open succeeds, one schema;
 *  - the suite lock: a live holder refuses with its PID and host, a dead holder's lock is stale, another
 *    host's lock is kept; unlock releases;
 *  - store_run_begin on an existing (seq, repetition) keeps the row id and counts the attempt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/store.h"
#include "core/store_internal.h"
#include "core/strbuf.h"
#include "testutil.h"

static char dir[] = "/tmp/test-store-safety-XXXXXX";

/* DIR/NAME, with no database there (yet): free it. */
static char *path_in(const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);

	tu_remove_db(p);
	return p;
}

static char *slurp(const char *p, size_t *len)
{
	struct strbuf sb;
	strbuf_init(&sb);
	assert_int_equal(strbuf_read_file(&sb, p), 0);
	return strbuf_detach(&sb, len);
}

static int sql_int(const char *p, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	int v = -1;

	assert_int_equal(sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

static void sql_exec(const char *p, const char *sql)
{
	sqlite3 *db;
	assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void test_usage(void **state)
{
	struct store *st;
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_open("", 0, &st, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_int_equal(store_open(dir, 0, &st, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_int_equal(store_open("/dev/null", 0, &st, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
}

static void test_foreign(void **state)
{
	static const char *const foreign[] = {
		"CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES ('keep me');",
		"PRAGMA application_id = 1234; CREATE TABLE t(x);",
		"PRAGMA application_id = 1234;",
		"PRAGMA user_version = 1; CREATE TABLE suite(x); CREATE TABLE run(x);", /* not all of bench's */
	};
	struct store *st;
	struct errbuf err;
	char *p = path_in("foreign.db");

	(void)state;
	for (size_t i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++) {
		size_t n0, n1;
		char *before, *after;

		tu_remove_db(p);
		sql_exec(p, foreign[i]);
		before = slurp(p, &n0);
		for (unsigned flags = 0; flags <= STORE_READONLY; flags += STORE_READONLY) {
			errbuf_init(&err);
			assert_int_equal(store_open(p, flags, &st, &err), -1);
			assert_int_equal(err.kind, ERR_STORE);
			if (!strstr(err.msg, "another application"))
				fail_msg("case %zu: %s", i, err.msg);
		}
		after = slurp(p, &n1);
		assert_int_equal(n0, n1);
		assert_memory_equal(before, after, n0);
		assert_int_equal(access(xasprintf("%s-wal", p), F_OK), -1);
		free(before);
		free(after);
	}
	/* an empty file is a new database; it is marked as bench's */
	tu_remove_db(p);
	fclose(fopen(p, "w"));
	assert_int_equal(store_open(p, 0, &st, &err), 0);
	store_close(st);
	assert_int_equal(sql_int(p, "PRAGMA application_id"), STORE_APPLICATION_ID);
	/* a bench database from before application_id (migration 1 only, id 0) is taken and marked */
	tu_remove_db(p);
	{
		sqlite3 *db;
		assert_int_equal(sqlite3_open(p, &db), SQLITE_OK);
		assert_int_equal(store_migrate(db, 1, &err), 0);
		assert_int_equal(sqlite3_exec(db, "PRAGMA application_id = 0", NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
	}
	assert_int_equal(sql_int(p, "PRAGMA application_id"), 0);
	assert_int_equal(store_open(p, 0, &st, &err), 0);
	store_close(st);
	assert_int_equal(sql_int(p, "PRAGMA application_id"), STORE_APPLICATION_ID);
	assert_int_equal(sql_int(p, "PRAGMA user_version"), store_schema_version());
	tu_free_db(p);
}

static void test_damaged(void **state)
{
	char *p = path_in("damaged.db");
	struct store *st;
	struct errbuf err;
	struct stat sb;
	FILE *f;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_open(p, 0, &st, &err), 0);
	store_close(st);
	sql_exec(p, "PRAGMA journal_mode = DELETE; CREATE TABLE pad(x); "
		    "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) "
		    "INSERT INTO pad SELECT randomblob(100) FROM c;");
	assert_int_equal(stat(p, &sb), 0);
	/* overwrite the middle of the file (b-tree pages of pad) with garbage */
	f = fopen(p, "r+b");
	assert_non_null(f);
	fseek(f, (long)(sb.st_size / 4096 / 2) * 4096, SEEK_SET);
	for (int i = 0; i < 4096; i++)
		fputc(i * 7 + 3, f);
	fclose(f);
	errbuf_init(&err);
	assert_int_equal(store_open(p, STORE_READONLY, &st, &err), -1);
	assert_int_equal(err.kind, ERR_STORE);
	if (!strstr(err.msg, "damaged"))
		fail_msg("%s", err.msg);
	assert_int_equal(store_open(p, 0, &st, &err), -1);
	assert_int_equal(err.kind, ERR_STORE);
	tu_free_db(p);
}

static void test_concurrent_create(void **state)
{
	char *p = path_in("race.db");
	int failures = 0;

	(void)state;
	for (int trial = 0; trial < 30; trial++) {
		pid_t kids[8];
		tu_remove_db(p);
		for (int k = 0; k < 8; k++) {
			kids[k] = fork();
			assert_true(kids[k] >= 0);
			if (kids[k] == 0) {
				struct store *st;
				struct errbuf err;
				errbuf_init(&err);
				if (store_open(p, 0, &st, &err) < 0) {
					fprintf(stderr, "trial %d: %s\n", trial, err.msg);
					_exit(1);
				}
				store_close(st);
				_exit(0);
			}
		}
		for (int k = 0; k < 8; k++) {
			int status;
			assert_int_equal(waitpid(kids[k], &status, 0), kids[k]);
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				failures++;
		}
		assert_int_equal(sql_int(p, "SELECT count(*) FROM sqlite_schema WHERE name = 'suite'"), 1);
	}
	assert_int_equal(failures, 0);
	tu_free_db(p);
}

static void test_suite_lock(void **state)
{
	char *p = path_in("lock.db");
	struct store *st;
	struct errbuf err;
	int64_t suite;
	char sql[512], me[128];
	pid_t dead;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_open(p, 0, &st, &err), 0);
	assert_int_equal(store_suite_add(st, "s", "run", "[]", 1, NULL, &suite, &err), 0);
	assert_int_equal(store_suite_lock(st, suite, &err), 0);
	/* held by a live process (this one): refused, naming PID and host */
	assert_int_equal(store_suite_lock(st, suite, &err), -1);
	assert_int_equal(err.kind, ERR_STORE);
	snprintf(sql, sizeof(sql), "PID %ld", (long)getpid());
	assert_non_null(strstr(err.msg, sql));
	gethostname(me, sizeof(me));
	assert_non_null(strstr(err.msg, me));
	store_suite_unlock(st, suite);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM suite_lock"), 0);
	/* a dead process's lock on this host is stale */
	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	snprintf(sql, sizeof(sql),
		 "INSERT INTO suite_lock(suite_id, pid, host, pid_start, started_at) VALUES (%lld, %ld, '%s', 1, 'x')",
		 (long long)suite, (long)dead, me);
	sqlite3_exec(store_db(st), sql, NULL, NULL, NULL);
	assert_int_equal(store_suite_lock(st, suite, &err), 0);
	assert_int_equal(sql_int(p, "SELECT pid FROM suite_lock"), (int)getpid());
	store_suite_unlock(st, suite);
	/* another host's lock is never broken from here */
	snprintf(sql, sizeof(sql),
		 "INSERT INTO suite_lock(suite_id, pid, host, pid_start, started_at) VALUES (%lld, 1, 'elsewhere', 1, 'x')",
		 (long long)suite);
	sqlite3_exec(store_db(st), sql, NULL, NULL, NULL);
	assert_int_equal(store_suite_lock(st, suite, &err), -1);
	assert_non_null(strstr(err.msg, "elsewhere"));
	store_close(st);
	tu_free_db(p);
}

static void test_run_attempt(void **state)
{
	char *p = path_in("attempt.db");
	int64_t suite, run1, run2;
	struct run_spec s;
	struct store *st;
	struct errbuf err;
	char sql[128];

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_open(p, 0, &st, &err), 0);
	assert_int_equal(store_suite_add(st, "s", "run", "[]", 1, NULL, &suite, &err), 0);
	run_spec_init(&s);
	s.name = xstrdup("r");
	s.seq = 1;
	s.repetition = 1;
	assert_int_equal(store_run_begin(st, suite, &s, &run1, &err), 0);
	{
		struct run_result none;
		run_result_init(&none);
		assert_int_equal(store_run_finish(st, run1, RUN_ABORTED, "interrupted", &none, &err), 0);
		run_result_release(&none);
	}
	assert_int_equal(store_run_begin(st, suite, &s, &run2, &err), 0);
	assert_int_equal(run1, run2);
	snprintf(sql, sizeof(sql), "SELECT attempt FROM run WHERE id = %lld AND status = 'running' AND error IS NULL",
		 (long long)run1);
	assert_int_equal(sql_int(p, sql), 2);
	assert_int_equal(sql_int(p, "SELECT count(*) FROM run"), 1);
	run_spec_release(&s);
	store_close(st);
	tu_free_db(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_foreign),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_concurrent_create),
		cmocka_unit_test(test_suite_lock),
		cmocka_unit_test(test_run_attempt),
	};
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return rc;
}
