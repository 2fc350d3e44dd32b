/*
 * testutil: the scratch files and databases of the unit tests, and a one-statement count (see testutil.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/errbuf.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "testutil.h"

char tu_dir[64];

int tu_dir_setup(void **state)
{
	(void)state;
	snprintf(tu_dir, sizeof(tu_dir), "/tmp/bench-test-XXXXXX");
	return mkdtemp(tu_dir) ? 0 : -1;
}

int tu_dir_teardown(void **state)
{
	(void)state;
	return tu_rm_rf(tu_dir);
}

int tu_rm_rf(const char *path)
{
	char *argv[] = { "rm", "-rf", (char *)path, NULL };
	struct errbuf err;
	int code = -1;

	errbuf_init(&err);
	if (proc_run_capture(argv, 10000, NULL, &code, &err) < 0 || code != 0)
		return -1;
	return 0;
}

void tu_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

char *tu_write_in(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);

	tu_write_file(p, text);
	return p;
}

char *tu_tmp_db(const char *tag)
{
	char *p = xasprintf("/tmp/bench-test-%s-XXXXXX", tag);
	int fd = mkstemp(p);

	assert_true(fd >= 0);
	close(fd);
	unlink(p);
	return p;
}

void tu_remove_db(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		char *p = xasprintf("%s%s", path, suffix[i]);

		unlink(p);
		free(p);
	}
}

void tu_free_db(char *path)
{
	tu_remove_db(path);
	free(path);
}

int64_t tu_count(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	int64_t n = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}
