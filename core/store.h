/*
 * store: the SQLite file that keeps every suite, run, result, CPU figure, sample and artifact
 * (design.md "The store"). Opening applies the migrations of schema.sql; writes of a run's results happen in
 * one transaction with its final status, so a crash leaves every run whole or marked not finished.
 * All SQL uses prepared statements with bound parameters. Everyone else reads through the typed functions of
 * core/store_read.h; the SQLite handle is core's own (core/store_internal.h).
 */
#ifndef BENCH_CORE_STORE_H
#define BENCH_CORE_STORE_H

#include <sqlite3.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"

struct store;

/*
 * PRAGMA application_id of bench's databases: 0x42454E43, "BENC" in ASCII (docs/safety.md). Set by every
 * migration; a file with another application_id, or with tables but neither this id nor bench's tables, is
 * refused and left unchanged.
 */
#define STORE_APPLICATION_ID 0x42454E43

enum store_flags {
	STORE_READONLY = 1 << 0, /* open an existing file read-only (report, gate) */
	STORE_MUST_EXIST = 1 << 1, /* fail if the file does not exist instead of creating it */
};

/*
 * Opens (creating when allowed) a bench database. ERR_USAGE for an empty path, a directory or a special file;
 * ERR_STORE, with the cause, for another application's file, a damaged file (PRAGMA quick_check), a full
 * disk or a read-only location. Schema creation and migrations run in BEGIN IMMEDIATE transactions that
 * re-read user_version first, so that processes creating one database at once all succeed.
 */
int store_open(const char *path, unsigned flags, struct store **out, struct errbuf *err);
void store_close(struct store *st); /* NULL ok */
const char *store_path(const struct store *st);

/* The schema version this binary writes (the last "-- migration N" of schema.sql). */
int store_schema_version(void);
/* Applies migrations up to `version` (tests use it to build an old database). */
int store_migrate(sqlite3 *db, int version, struct errbuf *err);

/* Transactions: BEGIN IMMEDIATE / COMMIT / ROLLBACK. */
int store_begin(struct store *st, struct errbuf *err);
/*
 * One read transaction around many reads (a report over 100,000 runs): every statement outside a transaction
 * takes and drops SQLite's shared lock and looks at the WAL again (14 fcntl and 7 stat calls per run read
 * that way); inside one, the reads also see one consistent snapshot. Nests inside a running transaction (then
 * it does nothing). store_snapshot_end ends it (and accepts NULL).
 */
int store_snapshot_begin(struct store *st, struct errbuf *err);
void store_snapshot_end(struct store *st);
int store_commit(struct store *st, struct errbuf *err);
void store_rollback(struct store *st);

/* Current UTC time as ISO 8601 with milliseconds, into buf (at least 32 bytes). */
void store_now(char *buf, size_t len);

/* Adds a suite (within the caller's transaction if one is open). */
int store_suite_add(struct store *st, const char *name, const char *source, const char *args, unsigned planned,
		    const struct kvlist *labels, int64_t *suite_id, struct errbuf *err);

/* The newest suite with this name and args, or 0 in *suite_id when none. */
int store_suite_find(struct store *st, const char *name, const char *args, int64_t *suite_id, struct errbuf *err);

/*
 * The lock of a suite being run: a suite_lock row with this process's PID, host name, process start time and
 * the time it was taken. A lock held by a live process (same PID and start time on this host, or any lock of
 * another host) refuses with ERR_STORE naming PID, host and start; a lock of a process of this host that is
 * gone is stale and taken over. Unlock removes only this process's lock; a lock dies with its process.
 */
int store_suite_lock(struct store *st, int64_t suite_id, struct errbuf *err);
void store_suite_unlock(struct store *st, int64_t suite_id);

/* Status of run (seq, repetition) of a suite: *run_id 0 when there is no row. */
int store_run_lookup(struct store *st, int64_t suite_id, unsigned seq, unsigned repetition, int64_t *run_id,
		     enum run_status *status, struct errbuf *err);

/*
 * Inserts a run row with this status (within the caller's transaction if one is open). `spec->labels` are
 * stored as the run's labels; the caller merges the suite's labels in first.
 */
int store_run_add(struct store *st, int64_t suite_id, const struct run_spec *spec, enum run_status status,
		  int64_t *run_id, struct errbuf *err);
/* The same with the spec's JSON made already (run_spec_to_json(spec)); NULL: made here. */
int store_run_add_json(struct store *st, int64_t suite_id, const struct run_spec *spec, const char *spec_json,
		       enum run_status status, int64_t *run_id, struct errbuf *err);

/*
 * Starts a run: inserts its row as 'running' and commits before any load starts. A (seq, repetition) that
 * already has a row is a new attempt: the row is updated in place (same id, attempt + 1, status 'running',
 * new started_at, no error) and what the earlier attempt stored under it is removed; it is never deleted.
 */
int store_run_begin(struct store *st, int64_t suite_id, const struct run_spec *spec, int64_t *run_id,
		    struct errbuf *err);

/*
 * Deletes the run's stored series that res's samples belong to: every (host, job, metric, source) that occurs in
 * res->samples (within the caller's transaction). Re-importing a log after this replaces its series.
 */
int store_run_replace_series(struct store *st, int64_t run_id, const struct run_result *res, struct errbuf *err);

/* Writes results, CPU, disks, samples and artifacts of a run (within the caller's transaction). */
int store_run_write_result(struct store *st, int64_t run_id, const struct run_result *res, struct errbuf *err);

/* Final status, error text (or NULL) and all results of a run, in one transaction. */
int store_run_finish(struct store *st, int64_t run_id, enum run_status status, const char *error,
		     const struct run_result *res, struct errbuf *err);

#endif
