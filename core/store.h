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

enum store_flags {
	STORE_READONLY = 1 << 0, /* open an existing file read-only (report, gate) */
	STORE_MUST_EXIST = 1 << 1, /* fail if the file does not exist instead of creating it */
};

int store_open(const char *path, unsigned flags, struct store **out, struct errbuf *err);
void store_close(struct store *st); /* NULL ok */
const char *store_path(const struct store *st);

/* The schema version this binary writes (the last "-- migration N" of schema.sql). */
int store_schema_version(void);
/* Applies migrations up to `version` (tests use it to build an old database). */
int store_migrate(sqlite3 *db, int version, struct errbuf *err);

/* Transactions: BEGIN IMMEDIATE / COMMIT / ROLLBACK. */
int store_begin(struct store *st, struct errbuf *err);
int store_commit(struct store *st, struct errbuf *err);
void store_rollback(struct store *st);

/* Current UTC time as ISO 8601 with milliseconds, into buf (at least 32 bytes). */
void store_now(char *buf, size_t len);

/* Adds a suite (within the caller's transaction if one is open). */
int store_suite_add(struct store *st, const char *name, const char *source, const char *args, unsigned planned,
		    const struct kvlist *labels, int64_t *suite_id, struct errbuf *err);

/* The newest suite with this name and args, or 0 in *suite_id when none. */
int store_suite_find(struct store *st, const char *name, const char *args, int64_t *suite_id, struct errbuf *err);

/* Status of run (seq, repetition) of a suite: *run_id 0 when there is no row. */
int store_run_lookup(struct store *st, int64_t suite_id, unsigned seq, unsigned repetition, int64_t *run_id,
		     enum run_status *status, struct errbuf *err);

/*
 * Inserts a run row with this status (within the caller's transaction if one is open). `spec->labels` are
 * stored as the run's labels; the caller merges the suite's labels in first.
 */
int store_run_add(struct store *st, int64_t suite_id, const struct run_spec *spec, enum run_status status,
		  int64_t *run_id, struct errbuf *err);

/*
 * Starts a run: inserts (or, for a run that exists but is not done, resets) its row as 'running' and commits
 * before any load starts.
 */
int store_run_begin(struct store *st, int64_t suite_id, const struct run_spec *spec, int64_t *run_id,
		    struct errbuf *err);

/* Writes results, CPU, disks, samples and artifacts of a run (within the caller's transaction). */
int store_run_write_result(struct store *st, int64_t run_id, const struct run_result *res, struct errbuf *err);

/* Final status, error text (or NULL) and all results of a run, in one transaction. */
int store_run_finish(struct store *st, int64_t run_id, enum run_status status, const char *error,
		     const struct run_result *res, struct errbuf *err);

/* Sets only the status and error (e.g. 'aborted' on Ctrl-C), committing at once. */
int store_run_set_status(struct store *st, int64_t run_id, enum run_status status, const char *error,
			 struct errbuf *err);

#endif
