/*
 * store_admin: the writes of `bench db` (rm, relabel, merge, check, vacuum) and the views `bench db show` and
 * `bench export` print beyond report_load() (store_admin.h), built from the typed reads of store_read.h.
 * Sets of run ids are bound as one JSON array and read with json_each(), so every statement stays a prepared
 * statement whatever the number of ids.
 *
 * merge walks the foreign keys of the schema instead of naming tables: a table that references suite, run
 * or result (pragma_foreign_key_list) is copied with its parent, so a later migration that adds a table
 * under run is merged without an edit here. Rows of tables with an `id` primary key (run, result) are
 * copied one by one to learn their new ids; the others in one INSERT ... SELECT per parent.
 */
#include "core/store_admin.h"
#include "core/store_internal.h"
#include "core/store_read.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sql_fail(struct errbuf *err, sqlite3 *db, const char *what)
{
	return err_set(err, ERR_STORE, "%s: %s", what, sqlite3_errmsg(db));
}

static int admin_prep(sqlite3 *db, sqlite3_stmt **s, const char *sql, struct errbuf *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, s, NULL) != SQLITE_OK)
		return sql_fail(err, db, "cannot prepare a statement");
	return 0;
}

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}

/* Runs one statement without rows; -1 with err on failure. */
static int exec1(sqlite3 *db, const char *sql, const char *what, struct errbuf *err)
{
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sql_fail(err, db, what);
	return 0;
}

/* SELECT with one int64 result; binds text ?1 when `arg` is given. */
static int query_int(sqlite3 *db, const char *sql, const char *arg, int64_t *out, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int ret = -1;

	if (admin_prep(db, &s, sql, err) < 0)
		return -1;
	if (arg)
		sqlite3_bind_text(s, 1, arg, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sql_fail(err, db, "cannot read the database");
		goto out;
	}
	*out = sqlite3_column_int64(s, 0);
	ret = 0;
out:
	sqlite3_finalize(s);
	return ret;
}

static char *ids_json(const int64_t *ids, size_t n)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addc(&sb, '[');
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%" PRId64, i ? "," : "", ids[i]);
	strbuf_addc(&sb, ']');
	return strbuf_detach(&sb, NULL);
}

/* ERR_INPUT naming the first id that is not a run. */
static int check_ids(sqlite3 *db, const char *json, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int rc, ret = -1;

	if (admin_prep(db, &s, "SELECT j.value FROM json_each(?1) j WHERE j.value NOT IN (SELECT id FROM run) LIMIT 1",
		 err) < 0)
		return -1;
	sqlite3_bind_text(s, 1, json, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		err_set(err, ERR_INPUT, "no run with id %lld in the database", (long long)sqlite3_column_int64(s, 0));
	else if (rc != SQLITE_DONE)
		sql_fail(err, db, "cannot read runs");
	else
		ret = 0;
	sqlite3_finalize(s);
	return ret;
}

/* ---- rm --------------------------------------------------------------------------------------- */

#define IN_SET "IN (SELECT value FROM json_each(?1))"
#define EMPTIED_SUITES "SELECT s.id FROM suite s WHERE EXISTS (SELECT 1 FROM run r WHERE r.suite_id = s.id AND " \
	"r.id " IN_SET ") AND NOT EXISTS (SELECT 1 FROM run r WHERE r.suite_id = s.id AND r.id NOT " IN_SET ")"

static int count_set(sqlite3 *db, const char *sql, const char *json, size_t *out, struct errbuf *err)
{
	int64_t v = 0;

	if (query_int(db, sql, json, &v, err) < 0)
		return -1;
	*out = (size_t)v;
	return 0;
}

int store_admin_rm(struct store *st, const int64_t *run_ids, size_t n, int dry_run, struct admin_counts *out,
		   struct errbuf *err)
{
	sqlite3 *db = store_db(st);
	char *json = ids_json(run_ids, n);
	sqlite3_stmt *s = NULL;
	int ret = -1, began = 0;

	memset(out, 0, sizeof(*out));
	if (store_begin(st, err) < 0)
		goto out;
	began = 1;
	if (check_ids(db, json, err) < 0 ||
	    count_set(db, "SELECT count(*) FROM run WHERE id " IN_SET, json, &out->runs, err) < 0 ||
	    count_set(db, "SELECT count(*) FROM result WHERE run_id " IN_SET, json, &out->results, err) < 0 ||
	    count_set(db, "SELECT count(*) FROM sample WHERE run_id " IN_SET, json, &out->samples, err) < 0 ||
	    count_set(db, "SELECT count(*) FROM artifact WHERE run_id " IN_SET, json, &out->artifacts, err) < 0 ||
	    count_set(db, "SELECT count(*) FROM (" EMPTIED_SUITES ")", json, &out->suites, err) < 0)
		goto out;
	if (dry_run) {
		ret = 0;
		goto out;
	}
	if (admin_prep(db, &s, "DELETE FROM suite WHERE id IN (" EMPTIED_SUITES ")", err) < 0)
		goto out;
	sqlite3_bind_text(s, 1, json, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(s) != SQLITE_DONE) {
		sql_fail(err, db, "cannot delete suites");
		goto out;
	}
	sqlite3_finalize(s);
	if (admin_prep(db, &s, "DELETE FROM run WHERE id " IN_SET, err) < 0)
		goto out;
	sqlite3_bind_text(s, 1, json, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(s) != SQLITE_DONE) {
		sql_fail(err, db, "cannot delete runs");
		goto out;
	}
	if (store_commit(st, err) < 0)
		goto out;
	began = 0;
	ret = 0;
out:
	if (began)
		store_rollback(st);
	sqlite3_finalize(s);
	free(json);
	return ret;
}

/* ---- relabel ---------------------------------------------------------------------------------- */

int store_admin_relabel(struct store *st, const int64_t *run_ids, size_t n, const struct kvlist *changes,
			int dry_run, size_t *changed, struct errbuf *err)
{
	sqlite3 *db = store_db(st);
	char *json = ids_json(run_ids, n);
	sqlite3_stmt *del = NULL, *set = NULL;
	int ret = -1, began = 0;

	*changed = 0;
	if (store_begin(st, err) < 0)
		goto out;
	began = 1;
	if (check_ids(db, json, err) < 0 ||
	    admin_prep(db, &del, "DELETE FROM run_label WHERE key = ?2 AND run_id " IN_SET, err) < 0 ||
	    admin_prep(db, &set, "INSERT OR REPLACE INTO run_label(run_id, key, value) SELECT j.value, ?2, ?3 "
		 "FROM json_each(?1) j WHERE NOT EXISTS (SELECT 1 FROM run_label l WHERE l.run_id = j.value AND "
		 "l.key = ?2 AND l.value = ?3)", err) < 0)
		goto out;
	for (size_t i = 0; i < changes->n; i++) {
		const struct kv *kv = &changes->v[i];
		sqlite3_stmt *s = kv->value ? set : del;

		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, json, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(s, 2, kv->key, -1, SQLITE_TRANSIENT);
		if (kv->value)
			sqlite3_bind_text(s, 3, kv->value, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE) {
			sql_fail(err, db, "cannot change run labels");
			goto out;
		}
		*changed += (size_t)sqlite3_changes(db);
	}
	if (!dry_run) {
		if (store_commit(st, err) < 0)
			goto out;
		began = 0;
	}
	ret = 0;
out:
	if (began)
		store_rollback(st);
	sqlite3_finalize(del);
	sqlite3_finalize(set);
	free(json);
	return ret;
}

/* ---- merge ------------------------------------------------------------------------------------ */

#define MERGE_MAX_TABLES 32

/* A table that references suite, run or result, and how its rows are copied. */
struct merge_table {
	char *name, *fkcol, *parent;
	int has_id;              /* INTEGER PRIMARY KEY id: copied row by row (its children follow) */
	sqlite3_stmt *bulk;      /* has_id 0: INSERT INTO main.T(fk, cols) SELECT ?2, cols FROM src.T WHERE fk=?1 */
	sqlite3_stmt *list;      /* has_id 1: SELECT id FROM src.T WHERE fk = ?1 ORDER BY id */
	sqlite3_stmt *row;       /* has_id 1: INSERT INTO main.T(fk, cols) SELECT ?2, cols FROM src.T WHERE id=?1 */
};

struct merger {
	sqlite3 *db;
	struct merge_table t[MERGE_MAX_TABLES];
	size_t n;
	sqlite3_stmt *suites, *suite_same, *suite_copy, *runs, *run_same;
	struct admin_merge *stats;
};

/* "c1","c2",... of a table without `id` and `fk`. */
static int column_list(sqlite3 *db, const char *table, const char *fk, struct strbuf *out, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if (admin_prep(db, &s, "SELECT name FROM pragma_table_info(?1) WHERE name <> 'id' AND name <> ?2 ORDER BY cid",
		 err) < 0)
		return -1;
	sqlite3_bind_text(s, 1, table, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(s, 2, fk ? fk : "", -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		strbuf_addf(out, "%s\"%s\"", out->len ? ", " : "", (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return sql_fail(err, db, "cannot read the schema");
	return 0;
}

/* Prepares the copy statements of one table (fk NULL: the suite table itself, no parent). */
static int table_copy_sql(struct merger *M, const char *table, const char *fk, int by_id, sqlite3_stmt **out,
			  struct errbuf *err)
{
	struct strbuf cols, sql;
	int ret;

	strbuf_init(&cols);
	strbuf_init(&sql);
	ret = column_list(M->db, table, fk, &cols, err);
	if (!ret) {
		if (fk)
			strbuf_addf(&sql, "INSERT INTO main.\"%s\"(\"%s\", %s) SELECT ?2, %s FROM merge_src.\"%s\" "
				    "WHERE \"%s\" = ?1", table, fk, cols.buf, cols.buf, table, by_id ? "id" : fk);
		else
			strbuf_addf(&sql, "INSERT INTO main.\"%s\"(%s) SELECT %s FROM merge_src.\"%s\" WHERE id = ?1",
				    table, cols.buf, cols.buf, table);
		ret = admin_prep(M->db, out, sql.buf, err);
	}
	strbuf_release(&cols);
	strbuf_release(&sql);
	return ret;
}

static int merger_tables(struct merger *M, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if (admin_prep(M->db, &s, "SELECT m.name, f.\"from\", f.\"table\", EXISTS (SELECT 1 FROM pragma_table_info(m.name) "
		 "WHERE name = 'id' AND pk = 1) FROM main.sqlite_schema m, pragma_foreign_key_list(m.name) f "
		 "WHERE m.type = 'table' AND f.\"table\" IN ('suite', 'run', 'result') ORDER BY m.name", err) < 0)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && M->n < MERGE_MAX_TABLES) {
		struct merge_table *t = &M->t[M->n++];
		struct strbuf sql;

		t->name = col_text(s, 0);
		t->fkcol = col_text(s, 1);
		t->parent = col_text(s, 2);
		t->has_id = sqlite3_column_int(s, 3);
		if (!t->has_id) {
			if (table_copy_sql(M, t->name, t->fkcol, 0, &t->bulk, err) < 0)
				goto fail;
			continue;
		}
		if (table_copy_sql(M, t->name, t->fkcol, 1, &t->row, err) < 0)
			goto fail;
		strbuf_init(&sql);
		strbuf_addf(&sql, "SELECT id FROM merge_src.\"%s\" WHERE \"%s\" = ?1 ORDER BY id", t->name, t->fkcol);
		rc = admin_prep(M->db, &t->list, sql.buf, err);
		strbuf_release(&sql);
		if (rc < 0)
			goto fail;
	}
	sqlite3_finalize(s);
	if (M->n == MERGE_MAX_TABLES)
		return err_set(err, ERR_INTERNAL, "merge: more than %d tables reference suite, run or result",
			       MERGE_MAX_TABLES);
	return 0;
fail:
	sqlite3_finalize(s);
	return -1;
}

static void merger_release(struct merger *M)
{
	static const size_t strs[] = { offsetof(struct merge_table, name), offsetof(struct merge_table, fkcol),
				       offsetof(struct merge_table, parent) };
	sqlite3_stmt *own[] = { M->suites, M->suite_same, M->suite_copy, M->runs, M->run_same };

	for (size_t i = 0; i < M->n; i++) {
		sqlite3_stmt *ts[] = { M->t[i].bulk, M->t[i].list, M->t[i].row };

		free_members(&M->t[i], strs, 3);
		for (size_t k = 0; k < 3; k++)
			sqlite3_finalize(ts[k]);
	}
	for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++)
		sqlite3_finalize(own[k]);
}

static int step_done(struct merger *M, sqlite3_stmt *s, int64_t a, int64_t b, struct errbuf *err)
{
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, a);
	sqlite3_bind_int64(s, 2, b);
	if (sqlite3_step(s) != SQLITE_DONE)
		return sql_fail(err, M->db, "merge: cannot copy rows");
	return 0;
}

/* Copies the rows under parent row old_id (now new_id) of `parent`, except those of table `skip`. */
static int copy_children(struct merger *M, const char *parent, int64_t old_id, int64_t new_id, const char *skip,
			 struct errbuf *err)
{
	for (size_t i = 0; i < M->n; i++) {
		struct merge_table *t = &M->t[i];
		int64_t *ids = NULL;
		size_t n = 0, cap = 0;
		int rc;

		if (strcmp(t->parent, parent) || (skip && !strcmp(t->name, skip)))
			continue;
		if (!t->has_id) {
			if (step_done(M, t->bulk, old_id, new_id, err) < 0)
				return -1;
			continue;
		}
		/* rows with their own ids: list first (the statement is reused by the recursion) */
		sqlite3_reset(t->list);
		sqlite3_bind_int64(t->list, 1, old_id);
		while ((rc = sqlite3_step(t->list)) == SQLITE_ROW) {
			ARRAY_GROW(ids, cap, n + 1);
			ids[n++] = sqlite3_column_int64(t->list, 0);
		}
		sqlite3_reset(t->list);
		if (rc != SQLITE_DONE) {
			free(ids);
			return sql_fail(err, M->db, "merge: cannot read rows");
		}
		for (size_t k = 0; k < n; k++) {
			if (step_done(M, t->row, ids[k], new_id, err) < 0 ||
			    copy_children(M, t->name, ids[k], sqlite3_last_insert_rowid(M->db), NULL, err) < 0) {
				free(ids);
				return -1;
			}
		}
		free(ids);
	}
	return 0;
}

/* The id of the same run in main (0: none). */
static int run_same(struct merger *M, int64_t main_suite, sqlite3_stmt *src_run, int64_t *out, struct errbuf *err)
{
	sqlite3_stmt *s = M->run_same;
	int rc;

	*out = 0;
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, main_suite);
	for (int i = 1; i <= 4; i++)
		sqlite3_bind_value(s, i + 1, sqlite3_column_value(src_run, i));
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	else if (rc != SQLITE_DONE)
		return sql_fail(err, M->db, "merge: cannot read runs");
	return 0;
}

static int merge_suite(struct merger *M, int64_t src_id, int64_t main_id, struct errbuf *err)
{
	int64_t *runs = NULL, *same = NULL;
	size_t n = 0, cap = 0, cap2 = 0;
	int rc, ret = -1;

	sqlite3_reset(M->runs);
	sqlite3_bind_int64(M->runs, 1, src_id);
	while ((rc = sqlite3_step(M->runs)) == SQLITE_ROW) {
		int64_t found = 0;

		if (main_id && run_same(M, main_id, M->runs, &found, err) < 0)
			goto out;
		ARRAY_GROW(runs, cap, n + 1);
		ARRAY_GROW(same, cap2, n + 1);
		runs[n] = sqlite3_column_int64(M->runs, 0);
		same[n++] = found;
	}
	sqlite3_reset(M->runs);
	if (rc != SQLITE_DONE) {
		sql_fail(err, M->db, "merge: cannot read runs");
		goto out;
	}
	if (!main_id) {
		if (step_done(M, M->suite_copy, src_id, 0, err) < 0)
			goto out;
		main_id = sqlite3_last_insert_rowid(M->db);
		if (copy_children(M, "suite", src_id, main_id, "run", err) < 0)
			goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct merge_table *run_t = NULL;

		if (same[i]) {
			M->stats->runs_same++;
			continue;
		}
		for (size_t k = 0; k < M->n; k++)
			if (!strcmp(M->t[k].name, "run"))
				run_t = &M->t[k];
		if (!run_t || !run_t->has_id) {
			err_set(err, ERR_INTERNAL, "merge: the schema has no table run under suite");
			goto out;
		}
		if (step_done(M, run_t->row, runs[i], main_id, err) < 0 ||
		    copy_children(M, "run", runs[i], sqlite3_last_insert_rowid(M->db), NULL, err) < 0)
			goto out;
		M->stats->runs_new++;
	}
	ret = 0;
out:
	free(runs);
	free(same);
	return ret;
}

static int merge_all(struct merger *M, struct errbuf *err)
{
	int rc;

	if (merger_tables(M, err) < 0 ||
	    table_copy_sql(M, "suite", NULL, 1, &M->suite_copy, err) < 0 ||
	    admin_prep(M->db, &M->suites, "SELECT id, name, source, coalesce(args, ''), created_at FROM merge_src.suite "
		 "ORDER BY id", err) < 0 ||
	    admin_prep(M->db, &M->suite_same, "SELECT id FROM main.suite WHERE name = ?1 AND source = ?2 AND "
		 "coalesce(args, '') = ?3 AND created_at = ?4 ORDER BY id LIMIT 1", err) < 0 ||
	    admin_prep(M->db, &M->runs, "SELECT id, seq, repetition, name, started_at FROM merge_src.run "
		 "WHERE suite_id = ?1 ORDER BY id", err) < 0 ||
	    admin_prep(M->db, &M->run_same, "SELECT id FROM main.run WHERE suite_id = ?1 AND seq = ?2 AND repetition = ?3 "
		 "AND name = ?4 AND started_at = ?5 LIMIT 1", err) < 0)
		return -1;
	while ((rc = sqlite3_step(M->suites)) == SQLITE_ROW) {
		int64_t src_id = sqlite3_column_int64(M->suites, 0), main_id = 0;

		sqlite3_reset(M->suite_same);
		for (int i = 1; i <= 4; i++)
			sqlite3_bind_value(M->suite_same, i, sqlite3_column_value(M->suites, i));
		rc = sqlite3_step(M->suite_same);
		if (rc == SQLITE_ROW)
			main_id = sqlite3_column_int64(M->suite_same, 0);
		else if (rc != SQLITE_DONE)
			return sql_fail(err, M->db, "merge: cannot read suites");
		if (main_id)
			M->stats->suites_same++;
		else
			M->stats->suites_new++;
		if (merge_suite(M, src_id, main_id, err) < 0)
			return -1;
	}
	if (rc != SQLITE_DONE)
		return sql_fail(err, M->db, "merge: cannot read suites");
	return 0;
}

/* "file:" URI of a path, read-only: every byte outside the unreserved set percent-encoded. */
static char *ro_uri(const char *path)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_adds(&sb, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~", *p))
			strbuf_addc(&sb, (char)*p);
		else
			strbuf_addf(&sb, "%%%02X", *p);
	}
	strbuf_adds(&sb, "?mode=ro");
	return strbuf_detach(&sb, NULL);
}

/*
 * Every page of the attached source read and checked before anything is copied (PRAGMA quick_check): a damaged
 * source is bad input (exit 3) wherever the damage is (header, a middle page, the last page), not a storage
 * error of this database half-way through the copy.
 */
static int source_intact(sqlite3 *db, const char *path, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(db, "PRAGMA merge_src.quick_check(1)", -1, &s, NULL);
	const char *r = NULL;
	int ret = 0;

	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW)
		r = (const char *)sqlite3_column_text(s, 0);
	if (rc != SQLITE_ROW)
		ret = err_set(err, ERR_INPUT, "'%s' is damaged or not an SQLite database: %s (nothing merged)", path,
			      sqlite3_errmsg(db));
	else if (!r || strcmp(r, "ok"))
		ret = err_set(err, ERR_INPUT, "'%s' is damaged: %s (PRAGMA quick_check; nothing merged)", path,
			      r ? r : "?");
	sqlite3_finalize(s);
	return ret;
}

static int attach_other(sqlite3 *db, const char *path, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	char *uri;
	int64_t version = 0, suites = 0;
	int rc;

	if (access(path, R_OK) != 0)
		return err_set(err, ERR_INPUT, "cannot read '%s': %s", path, strerror(errno));
	uri = ro_uri(path);
	rc = admin_prep(db, &s, "ATTACH DATABASE ?1 AS merge_src", err);
	if (!rc) {
		sqlite3_bind_text(s, 1, uri, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(s) != SQLITE_DONE)
			rc = err_set(err, ERR_INPUT, "cannot open '%s' read-only: %s", path, sqlite3_errmsg(db));
	}
	sqlite3_finalize(s);
	free(uri);
	if (rc < 0)
		return -1;
	if (source_intact(db, path, err) < 0)
		return -1;
	if (query_int(db, "PRAGMA merge_src.user_version", NULL, &version, err) < 0 ||
	    query_int(db, "SELECT count(*) FROM merge_src.sqlite_schema WHERE type = 'table' AND name IN "
		      "('suite', 'run', 'result')", NULL, &suites, err) < 0) {
		err_set(err, ERR_INPUT, "'%s' is not an SQLite database", path);
		return -1;
	}
	if (suites != 3)
		return err_set(err, ERR_INPUT, "'%s' is not a bench database (it has no suite, run and result tables)",
			       path);
	if (version != store_schema_version())
		return err_set(err, ERR_INPUT, "'%s' has schema version %" PRId64 ", this bench writes %d: open it once "
			       "with this bench (e.g. 'bench db check --db %s') to migrate it", path, version,
			       store_schema_version(), path);
	return 0;
}

int store_admin_merge(struct store *st, const char *other_path, int dry_run, struct admin_merge *out,
		      struct errbuf *err)
{
	sqlite3 *db = store_db(st);
	struct merger M;
	int ret = -1, began = 0;

	memset(out, 0, sizeof(*out));
	memset(&M, 0, sizeof(M));
	M.db = db;
	M.stats = out;
	if (attach_other(db, other_path, err) < 0)
		goto out;
	if (store_begin(st, err) < 0)
		goto out;
	began = 1;
	if (merge_all(&M, err) < 0) {
		err_prefix(err, "merge of '%s'", other_path);
		goto out;
	}
	merger_release(&M);
	memset(&M, 0, sizeof(M));
	if (!dry_run) {
		if (store_commit(st, err) < 0)
			goto out;
		began = 0;
	}
	ret = 0;
out:
	merger_release(&M);
	if (began)
		store_rollback(st);
	sqlite3_exec(db, "DETACH DATABASE merge_src", NULL, NULL, NULL);
	return ret;
}

/* ---- check and vacuum --------------------------------------------------------------------------- */

static int check_rows(sqlite3 *db, const char *sql, const char *kind, struct kvlist *problems, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if (admin_prep(db, &s, sql, err) < 0)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *msg = (const char *)sqlite3_column_text(s, 0);
		if (msg && strcmp(msg, "ok"))
			kvlist_add(problems, kind, msg);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return sql_fail(err, db, "cannot check the database");
	return 0;
}

int store_admin_check(struct store *st, struct kvlist *problems, struct errbuf *err)
{
	sqlite3 *db = store_db(st);

	if (check_rows(db, "PRAGMA integrity_check", "integrity", problems, err) < 0 ||
	    check_rows(db, "SELECT 'table ' || f.\"table\" || ' row ' || coalesce(f.rowid, '?') || ' refers to a "
		       "missing ' || f.parent || ' row' FROM pragma_foreign_key_check() f", "foreign_key", problems,
		       err) < 0 ||
	    check_rows(db, "SELECT 'suite ' || s.id || ' (''' || s.name || ''') has no runs' FROM suite s WHERE NOT "
		       "EXISTS (SELECT 1 FROM run r WHERE r.suite_id = s.id) ORDER BY s.id", "empty_suite", problems,
		       err) < 0 ||
	    check_rows(db, "SELECT 'run ' || id || ' (''' || name || ''') is still marked running since ' || "
		       "started_at FROM run WHERE status = 'running' ORDER BY id", "unfinished_run", problems, err) < 0)
		return -1;
	return 0;
}

static int file_bytes(sqlite3 *db, int64_t *out, struct errbuf *err)
{
	int64_t pages = 0, size = 0;

	if (query_int(db, "PRAGMA page_count", NULL, &pages, err) < 0 ||
	    query_int(db, "PRAGMA page_size", NULL, &size, err) < 0)
		return -1;
	*out = pages * size;
	return 0;
}

int store_admin_vacuum(struct store *st, int64_t *before_bytes, int64_t *after_bytes, struct errbuf *err)
{
	sqlite3 *db = store_db(st);

	if (file_bytes(db, before_bytes, err) < 0 ||
	    exec1(db, "VACUUM", "cannot vacuum the database", err) < 0 ||
	    exec1(db, "PRAGMA wal_checkpoint(TRUNCATE)", "cannot checkpoint the database", err) < 0 ||
	    file_bytes(db, after_bytes, err) < 0)
		return -1;
	return 0;
}

/* ---- reads: through the one reader (store_read.h) --------------------------------------------------- */

void admin_run_detail_release(struct admin_run_detail *d)
{
#define D(f) offsetof(struct admin_run_detail, f)
	static const size_t strs[] = { D(name), D(suite_name), D(suite_source), D(suite_args), D(suite_bench_version),
				       D(spec) };
#undef D

	if (!d)
		return;
	free_members(d, strs, sizeof(strs) / sizeof(strs[0]));
	memset(d, 0, sizeof(*d));
}

/* Moves a string out of a struct the reader filled. */
static char *take(char **p)
{
	char *v = *p;

	*p = NULL;
	return v;
}

int store_admin_run_detail(struct store *st, int64_t run_id, struct admin_run_detail *out, struct errbuf *err)
{
	struct store_run r;
	struct store_suite s;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = store_read_run(st, run_id, &r, err);
	if (rc == 0) {
		rc = store_read_suite(st, r.suite_id, &s, err);
		if (rc == 0) {
			out->id = r.id;
			out->suite_id = r.suite_id;
			out->seq = r.seq;
			out->name = take(&r.name);
			out->spec = take(&r.spec);
			out->suite_name = take(&s.name);
			out->suite_source = take(&s.source);
			out->suite_args = take(&s.args);
			out->suite_bench_version = take(&s.bench_version);
			store_suite_release(&s);
		}
		store_run_release(&r);
	}
	if (rc == 1)
		return err_set(err, ERR_INPUT, "no run with id %" PRId64 " in the database", run_id);
	return rc;
}

#define A(f) offsetof(struct admin_result, f)
static const size_t result_strs[] = { A(host), A(ddir), A(pct_kind), A(pcts) };
#undef A
/* admin_sample and admin_sample_summary own their host and metric */
#define HOST_METRIC(T) (const size_t[]){ offsetof(T, host), offsetof(T, metric) }, 2

void admin_result_list_release(struct admin_result_list *l)
{
	if (!l)
		return;
	array_free_members(l->v, l->n, sizeof(*l->v), result_strs, sizeof(result_strs) / sizeof(result_strs[0]));
	memset(l, 0, sizeof(*l));
}

/* One result row as `bench db show` has it: the reader's figures, every percentile, how many bins. */
static int admin_result_of(struct store *st, const struct store_result *x, struct admin_result *r,
			   struct errbuf *err)
{
	struct percentile *p = NULL;
	struct hist_bin *b = NULL;
	size_t np = 0;

	memset(r, 0, sizeof(*r));
	r->host = xstrdup(x->host);
	r->ddir = xstrdup(ddir_name(x->ddir));
	r->pct_kind = xstrdup(x->pct_kind);
	r->ios = (int64_t)x->ios;
	r->bytes = (int64_t)x->bytes;
	r->runtime_ms = x->runtime_ms;
	r->iops = x->iops;
	r->bw_bytes = x->bw_bytes;
	r->lat_mean_ns = x->lat_mean_ns;
	r->lat_min_ns = x->lat_min_ns;
	r->lat_max_ns = x->lat_max_ns;
	r->lat_stddev_ns = x->lat_stddev_ns;
	r->clat_mean_ns = x->clat_mean_ns;
	r->clat_min_ns = x->clat_min_ns;
	r->clat_max_ns = x->clat_max_ns;
	if (store_read_percentiles(st, x->id, &p, &np, err) < 0 || store_read_bins(st, x->id, &b, &r->nbins, err) < 0) {
		free(p);
		return -1;
	}
	free(b);
	r->pcts = np ? xcalloc(np, sizeof(*r->pcts)) : NULL;
	for (size_t k = 0; k < np; k++)
		r->pcts[k] = (struct admin_pct){ p[k].pct, (int64_t)p[k].value_ns };
	r->npcts = np;
	free(p);
	return 0;
}

int store_admin_results(struct store *st, int64_t run_id, struct admin_result_list *out, struct errbuf *err)
{
	struct store_result *res;
	size_t n;
	int ret = 0;

	if (store_read_results(st, run_id, NULL, &res, &n, err) < 0)
		return -1;
	/* the reader gives host '*' first: here the hosts come first, in its order, and the aggregate last */
	for (int aggregate = 0; aggregate < 2 && ret == 0; aggregate++)
		for (size_t i = 0; i < n && ret == 0; i++) {
			if ((strcmp(res[i].host, HOST_AGGREGATE) == 0) != aggregate)
				continue;
			ARRAY_GROW(out->v, out->cap, out->n + 1);
			ret = admin_result_of(st, &res[i], &out->v[out->n++], err);
		}
	store_results_free(res, n);
	return ret;
}

void admin_sample_list_init(struct admin_sample_list *l)
{
	memset(l, 0, sizeof(*l));
}

void admin_sample_list_release(struct admin_sample_list *l)
{
	if (!l)
		return;
	array_free_members(l->v, l->n, sizeof(*l->v), HOST_METRIC(struct admin_sample));
	admin_sample_list_init(l);
}

/* By host, metric and time (then job and source, the reader's order, for samples of one time). */
static int sample_cmp(const void *a, const void *b)
{
	const struct store_sample *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	if (!c)
		c = strcmp(x->metric, y->metric);
	if (!c)
		c = (x->t_ms > y->t_ms) - (x->t_ms < y->t_ms);
	if (!c)
		c = strcmp(x->job, y->job);
	if (!c)
		c = strcmp(x->source, y->source);
	if (!c)
		c = (x->bucket_lo_ns > y->bucket_lo_ns) - (x->bucket_lo_ns < y->bucket_lo_ns);
	return c;
}

/* The run's samples by host, metric and time (*v malloc'd). */
static int samples_by_host(struct store *st, int64_t run_id, struct store_sample **v, size_t *n,
			   struct errbuf *err)
{
	if (store_read_samples(st, run_id, v, n, err) < 0)
		return -1;
	if (*n > 1)
		qsort(*v, *n, sizeof(**v), sample_cmp);
	return 0;
}

int store_admin_samples(struct store *st, int64_t run_id, struct admin_sample_list *out, struct errbuf *err)
{
	struct store_sample *v;
	size_t n;

	if (samples_by_host(st, run_id, &v, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i].is_bin)
			continue; /* histogram buckets are not a time series of their metric */
		ARRAY_GROW(out->v, out->cap, out->n + 1);
		out->v[out->n++] = (struct admin_sample){ xstrdup(v[i].host), xstrdup(v[i].metric), v[i].t_ms,
							  v[i].value };
	}
	store_samples_free(v, n);
	return 0;
}

void admin_sample_summary_list_release(struct admin_sample_summary_list *l)
{
	if (!l)
		return;
	array_free_members(l->v, l->n, sizeof(*l->v), HOST_METRIC(struct admin_sample_summary));
	memset(l, 0, sizeof(*l));
}

int store_admin_sample_summary(struct store *st, int64_t run_id, struct admin_sample_summary_list *out,
			       struct errbuf *err)
{
	struct admin_sample_summary *p = NULL;
	struct store_sample *v;
	double sum = 0;
	size_t n;

	if (samples_by_host(st, run_id, &v, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct store_sample *x = &v[i];

		if (!p || strcmp(p->host, x->host) || strcmp(p->metric, x->metric)) {
			if (p)
				p->mean = sum / (double)p->n;
			ARRAY_GROW(out->v, out->cap, out->n + 1);
			p = &out->v[out->n++];
			*p = (struct admin_sample_summary){ xstrdup(x->host), xstrdup(x->metric), 0, x->t_ms, x->t_ms,
							    x->value, x->value, 0 };
			sum = 0;
		}
		p->n++;
		sum += x->value;
		p->t_first_ms = x->t_ms < p->t_first_ms ? x->t_ms : p->t_first_ms;
		p->t_last_ms = x->t_ms > p->t_last_ms ? x->t_ms : p->t_last_ms;
		p->min = x->value < p->min ? x->value : p->min;
		p->max = x->value > p->max ? x->value : p->max;
	}
	if (p)
		p->mean = sum / (double)p->n;
	store_samples_free(v, n);
	return 0;
}

int store_admin_artifacts(struct store *st, int64_t run_id, struct kvlist *out, struct errbuf *err)
{
	char size[32];
	size_t n;
	struct store_artifact *a;

	if (store_read_artifacts(st, run_id, &a, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		snprintf(size, sizeof(size), "%zu", a[i].len);
		kvlist_add(out, a[i].name, size);
	}
	store_artifacts_free(a, n);
	return 0;
}

int store_admin_artifact(struct store *st, int64_t run_id, const char *name, struct strbuf *out, struct errbuf *err)
{
	struct store_artifact a;
	int rc = store_read_artifact(st, run_id, name, &a, err);

	if (rc == 1)
		return err_set(err, ERR_INPUT, "run %" PRId64 " has no artifact '%s' (see 'bench db show %" PRId64 "')",
			       run_id, name, run_id);
	if (rc < 0)
		return -1;
	strbuf_add(out, a.content, a.len);
	store_artifact_release(&a);
	return 0;
}
