/*
 * test_suggest: "did you mean" (core/suggest.h): the distance on known pairs (swaps count 1, case is ignored),
 * and the closest name for the typos users made (rnu -> run, stak -> stack, iodepht -> iodepth,
 * hcibench-easyrn -> hcibench-easyrun), and no suggestion for a word far from every name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/suggest.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("run", "run", 3), 0);
	assert_int_equal(suggest_distance("rnu", "run", 3), 1); /* a swap */
	assert_int_equal(suggest_distance("stak", "stack", 3), 1);
	assert_int_equal(suggest_distance("kitten", "sitting", 5), 3);
	assert_int_equal(suggest_distance("RUN", "run", 3), 0);
	assert_int_equal(suggest_distance("", "abc", 5), 3);
	assert_true(suggest_distance("abcdefgh", "zzzzzzzz", 2) > 2); /* stops past the limit */
}

static void test_closest(void **state)
{
	static const char *const cmds[] = { "plan", "run", "import", "report", "gate", "hosts", "lab", "trend" };
	static const char *const keys[] = { "stack", "transport", "config", "suite" };
	static const char *const opts[] = { "iodepth", "iodepth_batch", "io_size", "ioengine" };
	static const char *const suites[] = { "hcibench-easyrun", "nvmeof-vs-iser", "kernel-compare" };
	size_t nc = sizeof(cmds) / sizeof(cmds[0]);

	(void)state;
	assert_string_equal(suggest_closest("rnu", cmds, nc), "run");
	assert_string_equal(suggest_closest("reprot", cmds, nc), "report");
	assert_string_equal(suggest_closest("stak", keys, 4), "stack");
	assert_string_equal(suggest_closest("iodepht", opts, 4), "iodepth");
	assert_string_equal(suggest_closest("hcibench-easyrn", suites, 3), "hcibench-easyrun");
	assert_string_equal(suggest_closest("trans", keys, 4), "transport"); /* a prefix */
	assert_null(suggest_closest("run", cmds, nc));                      /* known already */
	assert_null(suggest_closest("zzzzzz", cmds, nc));                   /* nothing close */
	assert_null(suggest_closest("x", cmds, nc));                        /* too short to guess */
	assert_null(suggest_closest("", cmds, nc));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_closest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
