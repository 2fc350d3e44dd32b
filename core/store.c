/*
 * store: SQLite open/migrate and the writes of suites, runs and results (see store.h, schema.sql).
 */
#include "core/store.h"
#include "core/spec_json.h"
#include "core/strbuf.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern const char bench_schema_sql[];

#define STORE_STMT_CACHE 64

struct store {
	sqlite3 *db;
	char *path;
	struct {
		const char *sql;
		sqlite3_stmt *stmt;
	} cache[STORE_STMT_CACHE];
	size_t ncache;
	int snapshot;        /* store_snapshot_begin started the open transaction */
};

/*
 * A storage error with its cause: SQLite's message, and for I/O, open and full-disk errors also the system
 * error (errno) behind it, so that a full disk or a read-only directory says so.
 */
static int sql_err(struct errbuf *err, sqlite3 *db, const char *what)
{
	int code, sys;

	if (!db)
		return err_set(err, ERR_STORE, "%s: no database", what);
	code = sqlite3_errcode(db) & 0xff;
	sys = sqlite3_system_errno(db);
	if (sys && (code == SQLITE_IOERR || code == SQLITE_CANTOPEN || code == SQLITE_FULL || code == SQLITE_READONLY))
		return err_set(err, ERR_STORE, "%s: %s (%s)", what, sqlite3_errmsg(db), strerror(sys));
	return err_set(err, ERR_STORE, "%s: %s", what, sqlite3_errmsg(db));
}

/* ---- migrations ---------------------------------------------------------------------------- */

/* Finds the text of migration n in schema.sql; returns its start and length, or NULL. */
static const char *migration_text(int n, size_t *len)
{
	char marker[32];
	const char *p, *end;

	snprintf(marker, sizeof(marker), "-- migration %d\n", n);
	p = strstr(bench_schema_sql, marker);
	if (!p)
		return NULL;
	p += strlen(marker);
	end = strstr(p, "-- migration ");
	while (end && end != bench_schema_sql && end[-1] != '\n')
		end = strstr(end + 1, "-- migration ");
	*len = end ? (size_t)(end - p) : strlen(p);
	return p;
}

int store_schema_version(void)
{
	int n = 0;
	size_t len;

	while (migration_text(n + 1, &len))
		n++;
	return n;
}

static int query_int_pragma(sqlite3 *db, const char *pragma, int *v)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, pragma, -1, &st, NULL);

	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	else
		rc = SQLITE_ERROR;
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : -1;
}

static int user_version(sqlite3 *db, int *v)
{
	return query_int_pragma(db, "PRAGMA user_version", v);
}

/* Rows PRAGMA foreign_key_check reports (0: every reference holds), -1 when it cannot run. */
static int foreign_key_violations(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int rc, n = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA foreign_key_check", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		n++;
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? n : -1;
}

static int migrate_in_tx(sqlite3 *db, int n, struct errbuf *err);

/*
 * One migration with foreign keys off (SQLite's 12-step ALTER procedure: a migration that rebuilds a table,
 * like migration 3 rebuilding `result`, would otherwise cascade-delete the rows that refer to it; the pragma
 * has no effect inside a transaction, so it is set around it) and back on as they were after.
 */
static int migrate_one(sqlite3 *db, int n, struct errbuf *err)
{
	int fk = 0, rc;

	if (query_int_pragma(db, "PRAGMA foreign_keys", &fk) < 0 ||
	    sqlite3_exec(db, "PRAGMA foreign_keys = OFF", NULL, NULL, NULL) != SQLITE_OK)
		return sql_err(err, db, "cannot turn foreign keys off for a schema migration");
	rc = migrate_in_tx(db, n, err);
	if (fk && sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK && rc == 0)
		rc = sql_err(err, db, "cannot turn foreign keys back on after a schema migration");
	return rc;
}

/* One migration in its own BEGIN IMMEDIATE transaction, applied only if user_version (re-read under the write
 * lock) is still below n: of several processes creating one database at once, one applies it, the others see
 * it done. Every reference must hold before the commit (foreign_key_check). */
static int migrate_in_tx(sqlite3 *db, int n, struct errbuf *err)
{
	size_t len;
	const char *text = migration_text(n, &len);
	char *sql, pragma[96];
	int cur;

	if (!text)
		return err_set(err, ERR_INTERNAL, "schema migration %d is missing", n);
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return sql_err(err, db, "cannot start a schema migration");
	if (user_version(db, &cur) < 0) {
		sql_err(err, db, "cannot read the schema version");
		goto fail;
	}
	if (cur >= n) {
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		return 0;
	}
	sql = xstrndup(text, len);
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d; PRAGMA application_id = %d", n,
		 STORE_APPLICATION_ID);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, pragma, NULL, NULL, NULL) != SQLITE_OK) {
		err_set(err, ERR_STORE, "schema migration %d failed: %s", n, sqlite3_errmsg(db));
		free(sql);
		goto fail;
	}
	free(sql);
	if (foreign_key_violations(db) != 0) {
		err_set(err, ERR_STORE, "schema migration %d failed: it leaves references that do not hold "
			"(PRAGMA foreign_key_check)", n);
		goto fail;
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		sql_err(err, db, "cannot commit a schema migration");
		goto fail;
	}
	return 0;
fail:
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int store_migrate(sqlite3 *db, int version, struct errbuf *err)
{
	int cur;

	if (user_version(db, &cur) < 0)
		return sql_err(err, db, "cannot read the schema version");
	if (cur > store_schema_version())
		return err_set(err, ERR_STORE,
			       "database schema version %d is newer than this bench (%d): upgrade bench", cur,
			       store_schema_version());
	for (int n = cur + 1; n <= version; n++)
		if (migrate_one(db, n, err) < 0)
			return -1;
	return 0;
}

/* ---- open/close ---------------------------------------------------------------------------- */

/* One integer from a pragma or query; -1 with SQLite's error when it cannot be read. */
static int query_int(sqlite3 *db, const char *sql, int *v)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	else if (rc == SQLITE_DONE)
		*v = 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* Two integers of one row of `sql` (no row: both 0). 0, or -1 with the error left in db. */
static int query_int2(sqlite3 *db, const char *sql, int *a, int *b)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	*a = *b = 0;
	if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		*a = sqlite3_column_int(st, 0);
		*b = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Whether the file is bench's to use, read before anything is written (a refused file stays byte-unchanged):
 * bench's application_id; or no schema objects at all (a new or empty file); or, from before application_id
 * was set, user_version >= 1 with bench's suite, run and result tables. Anything else is another
 * application's database.
 */
static int check_owner(sqlite3 *db, const char *path, struct errbuf *err)
{
	int app = 0, objects = 0, uv = 0, ours = 0;

	if (query_int(db, "PRAGMA application_id", &app) < 0) {
		if ((sqlite3_errcode(db) & 0xff) == SQLITE_NOTADB)
			return err_set(err, ERR_STORE, "'%s' is not a bench database (not an SQLite file)", path);
		sql_err(err, db, "cannot read the database");
		return err_prefix(err, "'%s'", path);
	}
	if (app == STORE_APPLICATION_ID)
		return 0;
	if (app != 0)
		return err_set(err, ERR_STORE,
			       "'%s' belongs to another application (application_id 0x%08x): not a bench database", path,
			       (unsigned)app);
	/* both in one statement, so from one snapshot: read apart, another bench creating the file could commit its
	 * schema between them (0 objects, then its user_version) and this one would call the file another program's */
	if (query_int2(db, "SELECT (SELECT count(*) FROM sqlite_schema), (SELECT user_version FROM pragma_user_version)",
		       &objects, &uv) < 0) {
		sql_err(err, db, "cannot read the database");
		return err_prefix(err, "'%s'", path);
	}
	if (!objects && uv != 0) /* bench sets user_version in the transaction that makes its tables */
		return err_set(err, ERR_STORE, "'%s' is not a bench database: an SQLite file without any table, its "
			       "user_version set to %d by another program (left unchanged)", path, uv);
	if (!objects)
		return 0;
	if (query_int(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('suite','run','result')",
		      &ours) < 0)
		return sql_err(err, db, path);
	if (uv >= 1 && ours == 3)
		return 0;
	return err_set(err, ERR_STORE, "'%s' holds tables of another application: not a bench database (left unchanged)",
		       path);
}

/* PRAGMA quick_check: every page and record is read and checked, indexes are not compared with their tables
 * (integrity_check's costly part). The first problem is the message. */
static int check_intact(sqlite3 *db, const char *path, struct errbuf *err)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL), ret = 0;

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(st, 0);
		if (!r || strcmp(r, "ok"))
			ret = err_set(err, ERR_STORE, "'%s' is damaged: %s (PRAGMA quick_check)", path, r ? r : "?");
	} else {
		int code = sqlite3_errcode(db) & 0xff;
		if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
			ret = err_set(err, ERR_STORE, "'%s' is damaged: %s", path, sqlite3_errmsg(db));
		} else {
			sql_err(err, db, "cannot check the database");
			ret = err_prefix(err, "'%s'", path);
		}
	}
	sqlite3_finalize(st);
	return ret;
}

/* A file: URI for a path ("%", "?" and "#" encoded), read-only and immutable. */
static char *immutable_uri(const char *path)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_adds(&sb, "file:");
	for (const char *p = path; *p; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			strbuf_addf(&sb, "%%%02X", (unsigned char)*p);
		else
			strbuf_addc(&sb, *p);
	}
	strbuf_adds(&sb, "?immutable=1");
	return strbuf_detach(&sb, NULL);
}

/*
 * Opens the connection. A read-only open of a WAL database whose directory we cannot write (SQLite cannot
 * create the -shm file there) and that has no -wal file (nothing uncommitted to miss) is retried as immutable.
 */
static int open_db(struct store *st, unsigned flags, struct errbuf *err)
{
	int ro = flags & STORE_READONLY, v;
	char *wal;
	struct stat sb;

	if (sqlite3_open_v2(st->path, &st->db,
			    (ro ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		if (!st->db)
			return err_set(err, ERR_STORE, "cannot open database '%s': out of memory", st->path);
		sql_err(err, st->db, "cannot open database");
		return err_prefix(err, "'%s'", st->path);
	}
	if (!ro || query_int(st->db, "PRAGMA application_id", &v) == 0 ||
	    (sqlite3_errcode(st->db) & 0xff) != SQLITE_CANTOPEN)
		return 0;
	wal = xasprintf("%s-wal", st->path);
	if (stat(wal, &sb) == 0) {
		free(wal);
		return 0;
	}
	free(wal);
	sqlite3_close_v2(st->db);
	st->db = NULL;
	{
		char *uri = immutable_uri(st->path);
		int rc = sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
		free(uri);
		if (rc != SQLITE_OK) {
			sql_err(err, st->db, "cannot open database");
			return err_prefix(err, "'%s'", st->path);
		}
	}
	return 0;
}

/*
 * Switches to WAL. Changing the journal mode needs an exclusive lock and does not wait in the busy handler:
 * while another process creates the same new database it fails with SQLITE_BUSY, so it is retried for up to
 * the busy timeout (10 s).
 */
static int set_wal(sqlite3 *db)
{
	for (int waited_ms = 0;; waited_ms += 10) {
		int rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return 0;
		if (((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) || waited_ms >= 10000)
			return -1;
		usleep(10000);
	}
}

/* A writing command needs the file (if it exists) and its directory (journal, WAL and -shm files) writable:
 * say so with the cause (EROFS, EACCES) instead of SQLite's "unable to open database file". */
static int check_writable(const char *path, struct errbuf *err)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? (slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path))) : xstrdup(".");
	int ret = 0;

	if (access(path, F_OK) == 0 && access(path, W_OK) < 0)
		ret = err_set(err, ERR_STORE, "cannot write database '%s': %s (reading commands still work)", path,
			      strerror(errno));
	else if (access(dir, W_OK) < 0)
		ret = err_set(err, ERR_STORE, "cannot write in the directory of database '%s': %s", path, strerror(errno));
	free(dir);
	return ret;
}

/*
 * Process-wide SQLite settings, made before SQLite initialises (later calls are refused and change nothing).
 * No memory statistics: with them every allocation SQLite makes takes a global mutex (a twentieth of an
 * import's instructions). bench reads none of them (sqlite3_memory_used, soft heap limits).
 * Statement journals (the pages a statement changed, kept until it ends so that it can be undone alone) stay
 * in memory up to STORE_STMTJRNL_SPILL instead of SQLite's 64 KiB: once one statement of a transaction went
 * past the limit, every later statement of it wrote its journal to a temporary file, one pwrite per page
 * and page number, for the rest of the transaction (an import of 4,000 files: 67,000 writes, more per file
 * the more files). A statement's journal is freed when it ends.
 */
#define STORE_STMTJRNL_SPILL (8 << 20)
static void sqlite_setup(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	(void)sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, STORE_STMTJRNL_SPILL);
}

int store_open(const char *path, unsigned flags, struct store **out, struct errbuf *err)
{
	struct store *st;
	struct stat sb;

	*out = NULL;
	if (!path || !*path)
		return err_set(err, ERR_USAGE, "--db needs a file name, got an empty string");
	if (stat(path, &sb) == 0) {
		if (S_ISDIR(sb.st_mode))
			return err_set(err, ERR_USAGE, "--db '%s' is a directory: give a database file", path);
		if (!S_ISREG(sb.st_mode))
			return err_set(err, ERR_USAGE, "--db '%s' is not a regular file", path);
	} else if (flags & (STORE_MUST_EXIST | STORE_READONLY)) {
		return err_set(err, ERR_STORE, "'%s': no such database", path);
	}
	if (!(flags & STORE_READONLY) && check_writable(path, err) < 0)
		return -1;
	sqlite_setup();
	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	if (open_db(st, flags, err) < 0)
		goto fail;
	sqlite3_busy_timeout(st->db, 10000);
	sqlite3_extended_result_codes(st->db, 1);
	if (check_owner(st->db, path, err) < 0 || check_intact(st->db, path, err) < 0)
		goto fail;
	if (sqlite3_exec(st->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) != SQLITE_OK) {
		sql_err(err, st->db, path);
		goto fail;
	}
	if (!(flags & STORE_READONLY)) {
		if (set_wal(st->db) < 0 || sqlite3_exec(st->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
			sql_err(err, st->db, "cannot set up the database");
			err_prefix(err, "'%s'", path);
			goto fail;
		}
		if (store_migrate(st->db, store_schema_version(), err) < 0) {
			err_prefix(err, "'%s'", path);
			goto fail;
		}
	} else {
		int v;
		if (user_version(st->db, &v) < 0) {
			sql_err(err, st->db, "cannot read the schema version");
			err_prefix(err, "'%s'", path);
			goto fail;
		}
		if (v < store_schema_version() && access(path, W_OK) == 0) {
			/* an older bench's file: migrate it (as any writing command would), then read it */
			struct store *rw = NULL;
			store_close(st);
			st = NULL;
			if (store_open(path, flags & ~(unsigned)STORE_READONLY, &rw, err) < 0)
				return -1;
			store_close(rw);
			return store_open(path, flags, out, err);
		}
		if (v != store_schema_version()) {
			err_set(err, ERR_STORE, "'%s': schema version %d, this bench reads %d%s", path, v,
				store_schema_version(), v > store_schema_version() ? " (a newer bench wrote it)"
				: " (and the file is read-only here: migrate it where it can be written)");
			goto fail;
		}
	}
	*out = st;
	return 0;
fail:
	store_close(st);
	return -1;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->ncache; i++)
		sqlite3_finalize(st->cache[i].stmt);
	sqlite3_close_v2(st->db);
	free(st->path);
	free(st);
}

sqlite3 *store_db(struct store *st)
{
	return st->db;
}

const char *store_path(const struct store *st)
{
	return st->path;
}

int store_begin(struct store *st, struct errbuf *err)
{
	if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return sql_err(err, st->db, "cannot start a transaction");
	return 0;
}

int store_snapshot_begin(struct store *st, struct errbuf *err)
{
	if (sqlite3_get_autocommit(st->db) == 0)
		return 0; /* already inside a transaction: it is the snapshot */
	if (sqlite3_exec(st->db, "BEGIN DEFERRED", NULL, NULL, NULL) != SQLITE_OK)
		return sql_err(err, st->db, "cannot start a read transaction");
	st->snapshot = 1;
	return 0;
}

void store_snapshot_end(struct store *st)
{
	if (!st || !st->snapshot)
		return;
	st->snapshot = 0;
	(void)sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
}

int store_commit(struct store *st, struct errbuf *err)
{
	if (sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		sql_err(err, st->db, "cannot commit");
		store_rollback(st);
		return -1;
	}
	return 0;
}

void store_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

void store_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	/* strftime for the date and time, then the milliseconds (0..999): no format can overflow the other */
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03uZ", (unsigned)(ts.tv_nsec / 1000000) % 1000u);
}

/* ---- statement helpers ---------------------------------------------------------------------- */

/*
 * Statements are prepared once per store and kept (keyed by the address of their SQL text, always a string
 * literal here): an import of thousands of files would otherwise spend a sixth of its time preparing.
 */
int prep(struct store *st, sqlite3_stmt **s, const char *sql, struct errbuf *err)
{
	for (size_t i = 0; i < st->ncache; i++) {
		if (st->cache[i].sql == sql) {
			*s = st->cache[i].stmt;
			return 0;
		}
	}
	if (st->ncache == STORE_STMT_CACHE)
		return err_set(err, ERR_INTERNAL, "store: statement cache full");
	if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT, s, NULL) != SQLITE_OK)
		return sql_err(err, st->db, "cannot prepare a statement");
	st->cache[st->ncache].sql = sql;
	st->cache[st->ncache].stmt = *s;
	st->ncache++;
	return 0;
}

/* Hands a statement back: reset for its next use (cached ones are finalized by store_close). */
static void unprep(sqlite3_stmt *s)
{
	if (!s)
		return;
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

static void bind_double(sqlite3_stmt *s, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_double(s, i, v);
}

static void bind_u64(sqlite3_stmt *s, int i, uint64_t v)
{
	sqlite3_bind_int64(s, i, (sqlite3_int64)v);
}

static int step_done(struct store *st, sqlite3_stmt *s, const char *what, struct errbuf *err)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sql_err(err, st->db, what);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return 0;
}

/* ---- suites and runs --------------------------------------------------------------------------- */

static int write_labels(struct store *st, const char *sql, int64_t id, const struct kvlist *labels,
			struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int ret = -1;

	if (!labels || !labels->n)
		return 0;
	if (prep(st, &s, sql, err) < 0)
		return -1;
	for (size_t i = 0; i < labels->n; i++) {
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, labels->v[i].key);
		bind_text(s, 3, labels->v[i].value ? labels->v[i].value : "");
		if (step_done(st, s, "cannot store a label", err) < 0)
			goto out;
	}
	ret = 0;
out:
	unprep(s);
	return ret;
}

int store_suite_add(struct store *st, const char *name, const char *source, const char *args, unsigned planned,
		    const struct kvlist *labels, int64_t *suite_id, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	char now[40];
	int ret = -1;

	store_now(now, sizeof(now));
	if (prep(st, &s, "INSERT INTO suite(name, source, args, planned_runs, created_at, bench_version) "
			 "VALUES (?,?,?,?,?,?)", err) < 0)
		return -1;
	bind_text(s, 1, name);
	bind_text(s, 2, source);
	bind_text(s, 3, args);
	sqlite3_bind_int(s, 4, (int)planned);
	bind_text(s, 5, now);
	bind_text(s, 6, BENCH_VERSION_STRING);
	if (step_done(st, s, "cannot store a suite", err) < 0)
		goto out;
	*suite_id = sqlite3_last_insert_rowid(st->db);
	ret = write_labels(st, "INSERT OR REPLACE INTO suite_label(suite_id, key, value) VALUES (?,?,?)", *suite_id,
			   labels, err);
out:
	unprep(s);
	return ret;
}

int store_suite_find(struct store *st, const char *name, const char *args, int64_t *suite_id, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	*suite_id = 0;
	if (prep(st, &s, "SELECT id FROM suite WHERE name = ? AND args IS ? AND source = 'run' "
			 "ORDER BY id DESC LIMIT 1", err) < 0)
		return -1;
	bind_text(s, 1, name);
	bind_text(s, 2, args);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*suite_id = sqlite3_column_int64(s, 0);
	unprep(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sql_err(err, st->db, "cannot look up a suite");
	return 0;
}

int store_run_lookup(struct store *st, int64_t suite_id, unsigned seq, unsigned repetition, int64_t *run_id,
		     enum run_status *status, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int rc;

	*run_id = 0;
	if (prep(st, &s, "SELECT id, status FROM run WHERE suite_id = ? AND seq = ? AND repetition = ? "
			 "ORDER BY id DESC LIMIT 1", err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, suite_id);
	sqlite3_bind_int(s, 2, (int)seq);
	sqlite3_bind_int(s, 3, (int)repetition);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*run_id = sqlite3_column_int64(s, 0);
		if (run_status_parse((const char *)sqlite3_column_text(s, 1), status) < 0)
			*status = RUN_FAILED;
	}
	unprep(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sql_err(err, st->db, "cannot look up a run");
	return 0;
}

static void bind_int_or_null(sqlite3_stmt *s, int i, long v, int known)
{
	if (known)
		sqlite3_bind_int64(s, i, v);
	else
		sqlite3_bind_null(s, i);
}

int store_run_add(struct store *st, int64_t suite_id, const struct run_spec *spec, enum run_status status,
		  int64_t *run_id, struct errbuf *err)
{
	return store_run_add_json(st, suite_id, spec, NULL, status, run_id, err);
}

int store_run_add_json(struct store *st, int64_t suite_id, const struct run_spec *spec, const char *spec_json,
		       enum run_status status, int64_t *run_id, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	const struct workload *w = &spec->wl;
	char now[40], *json;
	int ret = -1;

	store_now(now, sizeof(now));
	if (prep(st, &s, "INSERT INTO run(suite_id, seq, repetition, name, engine, status, started_at, tool, rw, "
			 "bs_bytes, bssplit, read_pct, random_pct, iodepth, numjobs, runtime_s, ramp_s, size, "
			 "compress_pct, dedupe_pct, spec, finished_at) "
			 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, suite_id);
	sqlite3_bind_int(s, 2, (int)spec->seq);
	sqlite3_bind_int(s, 3, (int)(spec->repetition ? spec->repetition : 1));
	bind_text(s, 4, spec->name ? spec->name : "run");
	bind_text(s, 5, spec->engine ? spec->engine : "fio");
	bind_text(s, 6, run_status_name(status));
	bind_text(s, 7, spec->started_at ? spec->started_at : now); /* an import keeps fio's own time */
	bind_text(s, 8, w->tool);
	bind_text(s, 9, w->rw);
	bind_int_or_null(s, 10, (long)w->bs_bytes, w->bs_bytes != 0);
	bind_text(s, 11, w->bssplit);
	bind_int_or_null(s, 12, w->read_pct, w->read_pct >= 0);
	bind_int_or_null(s, 13, w->random_pct, w->random_pct >= 0);
	bind_int_or_null(s, 14, w->iodepth, w->iodepth != 0);
	bind_int_or_null(s, 15, w->numjobs, w->numjobs != 0);
	bind_int_or_null(s, 16, w->runtime_s, w->runtime_s != 0);
	bind_int_or_null(s, 17, w->ramp_s, 1);
	bind_text(s, 18, w->size);
	sqlite3_bind_int(s, 19, w->compress_pct);
	sqlite3_bind_int(s, 20, w->dedupe_pct);
	json = spec_json ? NULL : run_spec_to_json(spec);
	bind_text(s, 21, spec_json ? spec_json : json);
	free(json);
	bind_text(s, 22, status == RUN_RUNNING ? NULL : spec->finished_at ? spec->finished_at : now);
	if (step_done(st, s, "cannot store a run", err) < 0)
		goto out;
	*run_id = sqlite3_last_insert_rowid(st->db);
	ret = write_labels(st, "INSERT OR REPLACE INTO run_label(run_id, key, value) VALUES (?,?,?)", *run_id,
			   &spec->labels, err);
out:
	unprep(s);
	return ret;
}

/* Removes what an earlier attempt of a run stored under it (results cascade to percentiles and bins). */
static int clear_attempt(struct store *st, int64_t run_id, struct errbuf *err)
{
	static const char *const sql[] = {
		"DELETE FROM run_host WHERE run_id = ?", "DELETE FROM result WHERE run_id = ?",
		"DELETE FROM cpu WHERE run_id = ?",      "DELETE FROM disk WHERE run_id = ?",
		"DELETE FROM sample WHERE run_id = ?",   "DELETE FROM artifact WHERE run_id = ?",
		("UPDATE run SET status = 'running', error = NULL, finished_at = NULL, started_at = ?2, "
		 "attempt = attempt + 1 WHERE id = ?1"),
	};
	char now[40];

	store_now(now, sizeof(now));
	for (size_t i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		sqlite3_stmt *s = NULL;
		int ret;

		if (prep(st, &s, sql[i], err) < 0)
			return -1;
		sqlite3_bind_int64(s, 1, run_id);
		if (i == sizeof(sql) / sizeof(sql[0]) - 1)
			bind_text(s, 2, now);
		ret = step_done(st, s, "cannot start a new attempt of a run", err);
		unprep(s);
		if (ret < 0)
			return -1;
	}
	return 0;
}

int store_run_begin(struct store *st, int64_t suite_id, const struct run_spec *spec, int64_t *run_id,
		    struct errbuf *err)
{
	enum run_status old;
	int64_t old_id;

	if (store_begin(st, err) < 0)
		return -1;
	if (store_run_lookup(st, suite_id, spec->seq, spec->repetition, &old_id, &old, err) < 0)
		goto fail;
	if (old_id) {
		if (clear_attempt(st, old_id, err) < 0)
			goto fail;
		*run_id = old_id;
	} else if (store_run_add(st, suite_id, spec, RUN_RUNNING, run_id, err) < 0) {
		goto fail;
	}
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

/* ---- suite lock ---------------------------------------------------------------------------- */

/* Start time of a process in clock ticks since boot (/proc/PID/stat field 22), 0 when unknown. */
static long long proc_start_ticks(long pid)
{
	char path[64], buf[1024], *p;
	long long start = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')'))) {
		/* after "pid (comm)": field 3 is the state; the start time is field 22 */
		int field = 2;
		char *save = NULL;
		for (char *t = strtok_r(p + 1, " ", &save); t; t = strtok_r(NULL, " ", &save))
			if (++field == 22) {
				start = strtoll(t, NULL, 10);
				break;
			}
	}
	fclose(f);
	return start;
}

static void this_host(char *buf, size_t len)
{
	if (gethostname(buf, len) < 0 || !*buf)
		snprintf(buf, len, "localhost");
	buf[len - 1] = '\0';
}

/* Whether a lock row still belongs to a live process. */
static int lock_alive(const char *host, long pid, long long start)
{
	char me[256];

	this_host(me, sizeof(me));
	if (strcmp(host, me))
		return 1; /* another host's process cannot be checked from here */
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return 0;
	return !start || proc_start_ticks(pid) == start;
}

int store_suite_lock(struct store *st, int64_t suite_id, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	char me[256], now[40];
	int rc;

	if (store_begin(st, err) < 0)
		return -1;
	if (prep(st, &s, "SELECT pid, host, pid_start, started_at FROM suite_lock WHERE suite_id = ?", err) < 0)
		goto fail;
	sqlite3_bind_int64(s, 1, suite_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		long pid = (long)sqlite3_column_int64(s, 0);
		const char *host = (const char *)sqlite3_column_text(s, 1);
		long long start = sqlite3_column_int64(s, 2);
		if (lock_alive(host ? host : "", pid, start)) {
			err_set(err, ERR_STORE, "suite %lld in '%s' is being run by PID %ld on host '%s' (since %s)",
				(long long)suite_id, st->path, pid, host ? host : "?",
				(const char *)sqlite3_column_text(s, 3));
			unprep(s);
			goto fail;
		}
	} else if (rc != SQLITE_DONE) {
		sql_err(err, st->db, "cannot read the suite lock");
		unprep(s);
		goto fail;
	}
	unprep(s);
	if (prep(st, &s, "INSERT OR REPLACE INTO suite_lock(suite_id, pid, host, pid_start, started_at) "
			 "VALUES (?,?,?,?,?)", err) < 0)
		goto fail;
	this_host(me, sizeof(me));
	store_now(now, sizeof(now));
	sqlite3_bind_int64(s, 1, suite_id);
	sqlite3_bind_int64(s, 2, (sqlite3_int64)getpid());
	bind_text(s, 3, me);
	sqlite3_bind_int64(s, 4, proc_start_ticks((long)getpid()));
	bind_text(s, 5, now);
	rc = step_done(st, s, "cannot lock the suite", err);
	unprep(s);
	if (rc < 0)
		goto fail;
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

void store_suite_unlock(struct store *st, int64_t suite_id)
{
	sqlite3_stmt *s = NULL;
	struct errbuf err;
	char me[256];

	if (!st || !suite_id)
		return;
	errbuf_init(&err);
	this_host(me, sizeof(me));
	if (prep(st, &s, "DELETE FROM suite_lock WHERE suite_id = ? AND pid = ? AND host = ?", &err) < 0)
		return;
	sqlite3_bind_int64(s, 1, suite_id);
	sqlite3_bind_int64(s, 2, (sqlite3_int64)getpid());
	bind_text(s, 3, me);
	step_done(st, s, "cannot unlock the suite", &err);
	unprep(s);
}

static void bind_lat(sqlite3_stmt *s, int i, const struct lat_summary *l)
{
	if (!l->present) {
		for (int k = 0; k < 5; k++)
			sqlite3_bind_null(s, i + k);
		return;
	}
	bind_u64(s, i, l->n);
	bind_u64(s, i + 1, l->min_ns);
	bind_u64(s, i + 2, l->max_ns);
	bind_double(s, i + 3, l->mean_ns);
	bind_double(s, i + 4, l->stddev_ns);
}

static int write_host_row(struct store *st, sqlite3_stmt *host, int64_t run_id, const struct host_result *hr,
			  struct errbuf *err)
{
	sqlite3_bind_int64(host, 1, run_id);
	bind_text(host, 2, hr->host);
	bind_text(host, 3, hr->fio_version);
	bind_double(host, 4, hr->start_offset_ms);
	sqlite3_bind_int(host, 5, hr->error);
	bind_text(host, 6, hr->errmsg);
	bind_double(host, 7, hr->usr_cpu_pct);
	bind_double(host, 8, hr->sys_cpu_pct);
	bind_text(host, 9, hr->hostname[0] ? hr->hostname : NULL);
	return step_done(st, host, "cannot store a host of a run", err);
}

/*
 * Percentiles and histogram bins, the most numerous rows (17 to 20 percentiles per direction, hundreds of bins
 * with json+), are inserted STORE_ROWS rows per statement: a statement's own cost (step, halt, reset) is paid
 * once per STORE_ROWS rows instead of once per row. The rest go one at a time.
 */
#define STORE_ROWS 16
#define SQL_PCT "INSERT INTO result_pct(result_id, pct, value_ns) VALUES "
#define SQL_BIN "INSERT INTO result_bin(result_id, value_ns, count) VALUES "
#define ROW3 "(?,?,?)"
#define ROWS3_4 ROW3 "," ROW3 "," ROW3 "," ROW3
#define ROWS3 ROWS3_4 "," ROWS3_4 "," ROWS3_4 "," ROWS3_4 /* STORE_ROWS of them */

/* Binds row i of a direction's percentiles or bins at columns col..col+2 (result id bound by the caller). */
static void bind_pct_row(sqlite3_stmt *s, int col, const struct dir_result *dr, size_t i)
{
	sqlite3_bind_double(s, col, dr->pct[i].pct);
	bind_u64(s, col + 1, dr->pct[i].value_ns);
}

static void bind_bin_row(sqlite3_stmt *s, int col, const struct dir_result *dr, size_t i)
{
	bind_u64(s, col, dr->bins[i].value_ns);
	bind_u64(s, col + 1, dr->bins[i].count);
}

/* Inserts n rows of result rid: STORE_ROWS at a time with `many`, the rest one by one with `one`. */
static int write_rows(struct store *st, sqlite3_stmt *one, sqlite3_stmt *many, int64_t rid,
		      const struct dir_result *dr, size_t n,
		      void (*bind_row)(sqlite3_stmt *, int, const struct dir_result *, size_t), const char *what,
		      struct errbuf *err)
{
	size_t i = 0;

	for (; i + STORE_ROWS <= n; i += STORE_ROWS) {
		for (int k = 0; k < STORE_ROWS; k++) {
			sqlite3_bind_int64(many, 3 * k + 1, rid);
			bind_row(many, 3 * k + 2, dr, i + (size_t)k);
		}
		if (step_done(st, many, what, err) < 0)
			return -1;
	}
	for (; i < n; i++) {
		sqlite3_bind_int64(one, 1, rid);
		bind_row(one, 2, dr, i);
		if (step_done(st, one, what, err) < 0)
			return -1;
	}
	return 0;
}

static int write_results(struct store *st, int64_t run_id, const struct run_result *res, struct errbuf *err)
{
	sqlite3_stmt *host = NULL, *r = NULL, *p = NULL, *b = NULL, *pm = NULL, *bm = NULL;
	int ret = -1;

	if (prep(st, &host, "INSERT INTO run_host(run_id, host, fio_version, start_offset_ms, error_code, error, "
			    "usr_cpu_pct, sys_cpu_pct, hostname) VALUES (?,?,?,?,?,?,?,?,?)", err) < 0 ||
	    prep(st, &r, "INSERT INTO result(run_id, host, ddir, ios, short_ios, drop_ios, bytes, runtime_ms, iops, "
			 "bw_bytes, lat_n, lat_min_ns, lat_max_ns, lat_mean_ns, lat_stddev_ns, clat_n, clat_min_ns, "
			 "clat_max_ns, clat_mean_ns, clat_stddev_ns, slat_n, slat_min_ns, slat_max_ns, slat_mean_ns, "
			 "slat_stddev_ns, pct_kind, job, job_start_ms) "
			 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		 err) < 0 ||
	    prep(st, &p, SQL_PCT ROW3, err) < 0 || prep(st, &pm, SQL_PCT ROWS3, err) < 0 ||
	    prep(st, &b, SQL_BIN ROW3, err) < 0 || prep(st, &bm, SQL_BIN ROWS3, err) < 0)
		goto out;

	for (size_t h = 0; h < res->nhosts; h++) {
		const struct host_result *hr = &res->hosts[h];

		/* a host's row in run_host is its entry over all jobs; a job's entries add result rows only */
		if (!hr->job && write_host_row(st, host, run_id, hr, err) < 0)
			goto out;
		for (int d = 0; d < DDIR_NR; d++) {
			const struct dir_result *dr = &hr->dir[d];
			int64_t rid;

			if (!dr->present)
				continue;
			sqlite3_bind_int64(r, 1, run_id);
			bind_text(r, 2, hr->host);
			bind_text(r, 3, ddir_name((enum ddir)d));
			bind_u64(r, 4, dr->ios);
			bind_u64(r, 5, dr->short_ios);
			bind_u64(r, 6, dr->drop_ios);
			bind_u64(r, 7, dr->bytes);
			bind_u64(r, 8, dr->runtime_ms);
			bind_double(r, 9, dr->iops);
			bind_double(r, 10, dr->bw_bytes);
			bind_lat(r, 11, &dr->lat);
			bind_lat(r, 16, &dr->clat);
			bind_lat(r, 21, &dr->slat);
			bind_text(r, 26, dr->pct_kind[0] ? dr->pct_kind : NULL);
			bind_text(r, 27, hr->job ? hr->job : JOB_AGGREGATE);
			bind_double(r, 28, hr->job_start_ms);
			if (step_done(st, r, "cannot store a result", err) < 0)
				goto out;
			rid = sqlite3_last_insert_rowid(st->db);
			if (write_rows(st, p, pm, rid, dr, dr->npct, bind_pct_row, "cannot store a percentile", err) < 0 ||
			    write_rows(st, b, bm, rid, dr, dr->nbins, bind_bin_row, "cannot store a histogram bin",
				       err) < 0)
				goto out;
		}
	}
	ret = 0;
out:
	unprep(host);
	unprep(r);
	unprep(p);
	unprep(b);
	unprep(pm);
	unprep(bm);
	return ret;
}

static int write_cpu_disks_samples(struct store *st, int64_t run_id, const struct run_result *res,
				   struct errbuf *err)
{
	sqlite3_stmt *c = NULL, *d = NULL, *s = NULL, *a = NULL;
	int ret = -1;

	if (prep(st, &c, "INSERT OR REPLACE INTO cpu(run_id, host, role, source, cores, user_pct, nice_pct, "
			 "system_pct, iowait_pct, irq_pct, softirq_pct, steal_pct, idle_pct, util_pct, cpu_us_per_io) "
			 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", err) < 0 ||
	    prep(st, &d, "INSERT OR REPLACE INTO disk(run_id, host, device, reads, writes, read_sectors, "
			 "write_sectors, io_ticks_ms) VALUES (?,?,?,?,?,?,?,?)", err) < 0 ||
	    prep(st, &s, "INSERT INTO sample(run_id, host, metric, t_ms, value, job, window_ms, source, bucket_lo_ns, "
			 "bucket_hi_ns) VALUES (?,?,?,?,?,?,?,?,?,?)", err) < 0 ||
	    prep(st, &a, "INSERT OR REPLACE INTO artifact(run_id, name, content) VALUES (?,?,?)", err) < 0)
		goto out;
	for (size_t i = 0; i < res->ncpu; i++) {
		const struct cpu_result *x = &res->cpu[i];
		sqlite3_bind_int64(c, 1, run_id);
		bind_text(c, 2, x->host);
		bind_text(c, 3, host_role_name(x->role));
		bind_text(c, 4, x->source);
		bind_int_or_null(c, 5, x->cores, x->cores > 0);
		bind_double(c, 6, x->user_pct);
		bind_double(c, 7, x->nice_pct);
		bind_double(c, 8, x->system_pct);
		bind_double(c, 9, x->iowait_pct);
		bind_double(c, 10, x->irq_pct);
		bind_double(c, 11, x->softirq_pct);
		bind_double(c, 12, x->steal_pct);
		bind_double(c, 13, x->idle_pct);
		bind_double(c, 14, x->util_pct);
		bind_double(c, 15, x->cpu_us_per_io);
		if (step_done(st, c, "cannot store CPU figures", err) < 0)
			goto out;
	}
	for (size_t i = 0; i < res->ndisks; i++) {
		const struct disk_result *x = &res->disks[i];
		sqlite3_bind_int64(d, 1, run_id);
		bind_text(d, 2, x->host);
		bind_text(d, 3, x->device);
		bind_u64(d, 4, x->reads);
		bind_u64(d, 5, x->writes);
		bind_u64(d, 6, x->read_sectors);
		bind_u64(d, 7, x->write_sectors);
		bind_u64(d, 8, x->io_ticks_ms);
		if (step_done(st, d, "cannot store disk figures", err) < 0)
			goto out;
	}
	for (size_t i = 0; i < res->nsamples; i++) {
		const struct sample *x = &res->samples[i];
		sqlite3_bind_int64(s, 1, run_id);
		bind_text(s, 2, x->host);
		bind_text(s, 3, x->metric);
		sqlite3_bind_int64(s, 4, x->t_ms);
		sqlite3_bind_double(s, 5, x->value);
		bind_text(s, 6, x->job[0] ? x->job : "*"); /* '*': all jobs, as in result.job */
		sqlite3_bind_int64(s, 7, x->window_ms);
		bind_text(s, 8, x->source);
		bind_int_or_null(s, 9, x->bucket_lo_ns, x->is_bin);
		bind_int_or_null(s, 10, x->bucket_hi_ns, x->is_bin);
		if (step_done(st, s, "cannot store a sample", err) < 0)
			goto out;
	}
	for (size_t i = 0; i < res->nart; i++) {
		sqlite3_bind_int64(a, 1, run_id);
		bind_text(a, 2, res->art[i].name);
		sqlite3_bind_blob64(a, 3, res->art[i].content, res->art[i].len, SQLITE_TRANSIENT);
		if (step_done(st, a, "cannot store an artifact", err) < 0)
			goto out;
	}
	ret = 0;
out:
	unprep(c);
	unprep(d);
	unprep(s);
	unprep(a);
	return ret;
}

int store_run_replace_series(struct store *st, int64_t run_id, const struct run_result *res, struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	int ret = 0;

	if (prep(st, &s, "DELETE FROM sample WHERE run_id = ? AND host = ? AND job = ? AND metric = ? AND source = ?",
		 err) < 0)
		return -1;
	for (size_t i = 0; i < res->nsamples && ret == 0; i++) {
		const struct sample *x = &res->samples[i], *y = i ? &res->samples[i - 1] : NULL;
		if (y && !strcmp(x->host, y->host) && !strcmp(x->job, y->job) && !strcmp(x->metric, y->metric) &&
		    !strcmp(x->source, y->source))
			continue; /* the same series as the previous sample: deleted already */
		sqlite3_bind_int64(s, 1, run_id);
		bind_text(s, 2, x->host);
		bind_text(s, 3, x->job[0] ? x->job : "*");
		bind_text(s, 4, x->metric);
		bind_text(s, 5, x->source);
		ret = step_done(st, s, "cannot replace a series", err);
	}
	unprep(s);
	return ret;
}

int store_run_write_result(struct store *st, int64_t run_id, const struct run_result *res, struct errbuf *err)
{
	if (!res)
		return 0;
	if (write_results(st, run_id, res, err) < 0 ||
	    write_labels(st, "INSERT OR REPLACE INTO run_label(run_id, key, value) VALUES (?,?,?)", run_id,
			 &res->labels, err) < 0)
		return -1;
	return write_cpu_disks_samples(st, run_id, res, err);
}

static int set_status(struct store *st, int64_t run_id, enum run_status status, const char *error,
		      struct errbuf *err)
{
	sqlite3_stmt *s = NULL;
	char now[40];
	int ret;

	store_now(now, sizeof(now));
	if (prep(st, &s, "UPDATE run SET status = ?, error = ?, finished_at = ? WHERE id = ?", err) < 0)
		return -1;
	bind_text(s, 1, run_status_name(status));
	bind_text(s, 2, error);
	bind_text(s, 3, status == RUN_RUNNING ? NULL : now);
	sqlite3_bind_int64(s, 4, run_id);
	ret = step_done(st, s, "cannot update a run", err);
	unprep(s);
	return ret;
}

int store_run_finish(struct store *st, int64_t run_id, enum run_status status, const char *error,
		     const struct run_result *res, struct errbuf *err)
{
	if (store_begin(st, err) < 0)
		return -1;
	if (store_run_write_result(st, run_id, res, err) < 0 || set_status(st, run_id, status, error, err) < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, err);
}
