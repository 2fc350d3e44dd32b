/*
 * store_internal: what the store's reader (store_read.c) and the tests share with its writer (store.c) and
 * nobody else may use. report/, bench/ and the rest read through the typed functions of store_read.h;
 * the raw SQLite handle and the statement cache stay inside core/ (and tests/, which inspect files).
 */
#ifndef BENCH_CORE_STORE_INTERNAL_H
#define BENCH_CORE_STORE_INTERNAL_H

#include <sqlite3.h>

#include "core/errbuf.h"
#include "core/store.h"

/* The store's SQLite handle (core/ and tests only). */
sqlite3 *store_db(struct store *st);

/*
 * The store's per-store statement cache (store.c): the statement of `sql`, prepared on first use and kept
 * until store_close. `sql` must be a string with static storage (the cache is keyed by its address). The
 * caller resets the statement and clears its bindings when done; it must not step it re-entrantly.
 */
int prep(struct store *st, sqlite3_stmt **s, const char *sql, struct errbuf *err);

#endif
