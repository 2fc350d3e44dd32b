/*
 * testutil: what several cmocka tests need around the code they test: a scratch directory for a group of
 * tests, files written into it, fresh database paths and their removal (with SQLite's -wal and -shm files),
 * a count read with one SQL statement, and the report rows (struct rep_run) of the report tests. Linked into
 * every unit test (tests/CMakeLists.txt); a failure here fails the calling test with cmocka's assertions.
 */
#ifndef BENCH_TESTUTIL_H
#define BENCH_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "core/model.h"

/* The scratch directory of tu_dir_setup, "/tmp/bench-test-XXXXXX" once made. */
extern char tu_dir[64];

/* cmocka group setup and teardown: make tu_dir; remove it and all it holds. 0, or -1 on failure. */
int tu_dir_setup(void **state);
int tu_dir_teardown(void **state);

/* cmocka group teardown: tu_remove_db of the path (char *) the group setup left in *state. */
int tu_db_teardown(void **state);

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

/* run_spec_init(S), then NAME, SEQ, REPETITION, ENGINE and a fio workload RW of 4 KiB blocks, READ_PCT %
 * reads, 100 % random, IODEPTH, one job and RUNTIME_S seconds (0: not set). */
void tu_spec(struct run_spec *s, const char *name, unsigned seq, unsigned rep, const char *engine, const char *rw,
	     int read_pct, unsigned iodepth, unsigned runtime_s);

/* Direction D of H present with IOPS 4 KiB IOs a second and a completion latency of MEAN_NS; returns it. */
struct dir_result *tu_clat_dir(struct host_result *h, enum ddir d, double iops, double mean_ns);

struct rep_set;
struct rep_run;

/* Appends run ID to S: a report row of workload TOOL, BS bytes, RD % reads, RND % random, labels
 * stack=STACK and transport=TRANSPORT, IOPS and read latency LAT; every other metric NAN. Returns the row. */
struct rep_run *tu_rep_add(struct rep_set *s, int64_t id, const char *name, const char *status, const char *tool,
			   uint64_t bs, int rd, int rnd, const char *transport, const char *stack, double iops,
			   double lat);

struct errbuf;

/* One bad input and the error message it must give. */
struct tu_bad_input {
	const char *text, *want;
};

/* How tu_expect_bad_input checks each case: the message starts with `want` (else it contains it); the error
 * kind is ERR_INPUT; the message is one line. */
enum { TU_PREFIX = 1, TU_KIND_INPUT = 2, TU_ONE_LINE = 4 };

/* Parses TEXT with the code under test (and checks what it leaves behind); returns that code's result. */
typedef int (*tu_parse_fn)(const char *text, struct errbuf *err);

/* For each of the N CASES: PARSE must fail (-1) with a message matching `want` as FLAGS say. */
void tu_expect_bad_input(const struct tu_bad_input *cases, size_t n, tu_parse_fn parse, int flags);

/* Defines the cmocka test NAME: tu_expect_bad_input of the array CASES. */
#define TU_BAD_INPUT_TEST(name, cases, parse, flags)                                  \
	static void name(void **state)                                                \
	{                                                                             \
		(void)state;                                                          \
		tu_expect_bad_input(cases, sizeof(cases) / sizeof(cases[0]), parse, flags); \
	}

/* BENCH_SRC/REL, a file of the source tree (free it); fails the test when BENCH_SRC is not set. */
char *tu_src_path(const char *rel);

/* The main() of a test program: the cmocka tests given (cmocka_unit_test(...), ...) run as one group. */
#define TU_MAIN(...)                                                     \
	int main(void)                                                   \
	{                                                                \
		const struct CMUnitTest tu_tests_[] = { __VA_ARGS__ };   \
		return cmocka_run_group_tests(tu_tests_, NULL, NULL);    \
	}

struct store;

/* A new, empty bench database at PATH (SIZE bytes, filled in: "/tmp/bench-test-TAG-PID.db"; whatever was
 * there is removed), opened with store_open (asserts it opens). */
struct store *tu_store_fresh(char *path, size_t size, const char *tag);

#endif
