/*
 * testutil: what several cmocka tests need around the code they test: a scratch directory for a group of
 * tests, files written into it, fresh database paths and their removal (with SQLite's -wal and -shm files),
 * and a count read with one SQL statement. Linked into every unit test (tests/CMakeLists.txt); a failure
 * here fails the calling test with cmocka's assertions.
 */
#ifndef BENCH_TESTUTIL_H
#define BENCH_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/* The scratch directory of tu_dir_setup, "/tmp/bench-test-XXXXXX" once made. */
extern char tu_dir[64];

/* cmocka group setup and teardown: make tu_dir; remove it and all it holds. 0, or -1 on failure. */
int tu_dir_setup(void **state);
int tu_dir_teardown(void **state);

/* rm -rf PATH (argv, no shell); 0, or -1 when rm did not run or failed. */
int tu_rm_rf(const char *path);

/* Writes TEXT to PATH (asserts it can). */
void tu_write_file(const char *path, const char *text);

/* Writes TEXT to DIR/NAME; returns that path (free it). */
char *tu_write_in(const char *dir, const char *name, const char *text);

/* A path "/tmp/bench-test-TAG-XXXXXX" that no file has yet (free it). */
char *tu_tmp_db(const char *tag);

/* Removes the database PATH with its -wal and -shm files; a missing file is no error. */
void tu_remove_db(const char *path);

/* tu_remove_db, then free(PATH). */
void tu_free_db(char *path);

/* The first column of the first row of SQL (asserts it prepares); -1 when there is no row. */
int64_t tu_count(sqlite3 *db, const char *sql);

#endif
