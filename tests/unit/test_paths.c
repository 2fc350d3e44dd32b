/*
 * test_paths: path_dir() of core/paths.c on bare names, names under the root, nested and relative paths.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/paths.h"

static void test_path_dir(void **state)
{
	static const char *const cases[][2] = {
		{ "job.fio", "." },       { "/job.fio", "/" },  { "/etc/fio/job.fio", "/etc/fio" },
		{ "a/b.fio", "a" },       { "./b.fio", "." },   { "a/b/", "a/b" },
		{ "../x/y.fio", "../x" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = path_dir(cases[i][0]);

		assert_string_equal(d, cases[i][1]);
		free(d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
