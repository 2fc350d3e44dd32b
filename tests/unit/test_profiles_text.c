/*
 * test_profiles_text: the helpers every reader of profiles/ shares (profiles/text.c):
 *  - profile_trim on a table of lines (blanks of every isspace kind at either end, inner blanks kept);
 *  - profile_common_key: name and description replace, label adds k=v, a bad label is an error with file:line,
 *    any other key is left to the caller;
 *  - profile_read_file: a file's bytes; a missing file is ERR_INPUT "PATH: reason" and leaves sb empty;
 *  - through the readers: a suite and a recipe with the shared keys read the same way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "profiles/recipe.h"
#include "profiles/suite.h"
#include "profiles/text.h"
#include "testutil.h"

static void test_trim(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "", "" },
		{ "   ", "" },
		{ "a", "a" },
		{ "  a b  ", "a b" },
		{ "\t\r\n\v\fkey = v\t\r\n", "key = v" },
		{ "x\t", "x" },
		{ "\tx", "x" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = strdup(cases[i].in);
		assert_non_null(buf);
		assert_string_equal(profile_trim(buf), cases[i].out);
		free(buf);
	}
}

static void test_common_key(void **state)
{
	char *name = NULL, *desc = NULL;
	struct kvlist labels;
	struct errbuf err;

	(void)state;
	kvlist_init(&labels);
	errbuf_init(&err);
	assert_int_equal(profile_common_key("name", "one", &name, &desc, &labels, "f", 1, &err), 1);
	assert_int_equal(profile_common_key("name", "two", &name, &desc, &labels, "f", 2, &err), 1);
	assert_string_equal(name, "two");
	assert_null(desc);
	assert_int_equal(profile_common_key("description", "d", &name, &desc, &labels, "f", 3, &err), 1);
	assert_string_equal(desc, "d");
	assert_int_equal(profile_common_key("label", "k=v", &name, &desc, &labels, "f", 4, &err), 1);
	assert_string_equal(kvlist_get(&labels, "k", "-"), "v");
	assert_int_equal(profile_common_key("engine", "fio", &name, &desc, &labels, "f", 5, &err), 0);
	assert_int_equal(labels.n, 1);
	assert_int_equal(profile_common_key("label", "novalue", &name, &desc, &labels, "f.suite", 6, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_string_equal(err.msg, "f.suite:6: label must be key=value, got 'novalue'");
	assert_int_equal(labels.n, 1);
	free(name);
	free(desc);
	kvlist_release(&labels);
}

static void test_read_file(void **state)
{
	char *path = tu_write_in(tu_dir, "some.txt", "line 1\nline 2\n");
	char *missing = tu_write_in(tu_dir, "gone.txt", "");
	struct strbuf sb;
	struct errbuf err;
	char want[256];

	(void)state;
	errbuf_init(&err);
	strbuf_init(&sb);
	assert_int_equal(profile_read_file(&sb, path, &err), 0);
	assert_string_equal(sb.buf, "line 1\nline 2\n");
	strbuf_release(&sb);
	assert_int_equal(remove(missing), 0);
	strbuf_init(&sb);
	assert_int_equal(profile_read_file(&sb, missing, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	snprintf(want, sizeof(want), "%s: No such file or directory", missing);
	assert_string_equal(err.msg, want);
	assert_int_equal(sb.len, 0);
	strbuf_release(&sb);
	free(path);
	free(missing);
}

/* The shared keys, twice each where they may repeat, in a suite and in a recipe. */
#define SHARED_KEYS "name = a\nname = b\ndescription = the d\nlabel = x=1\nlabel = y=2\n"

/* The readers take the shared keys alike: the last name wins, labels accumulate, a bad label names file:line. */
static void test_readers(void **state)
{
	const char *suite_text = "[suite]\n" SHARED_KEYS "[workload w]\nrw=read\n";
	const char *recipe_text = SHARED_KEYS "setup = true\nteardown = true\n";
	const char *bad_recipe = "name = a\nlabel = bad\n";
	struct suite s;
	struct recipe r;
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	suite_init(&s);
	assert_int_equal(suite_parse_text(suite_text, strlen(suite_text), "t.suite", &s, &err), 0);
	recipe_init(&r);
	assert_int_equal(recipe_parse_text(recipe_text, strlen(recipe_text), "t.recipe", &r, &err), 0);
	assert_string_equal(s.name, "b");
	assert_string_equal(r.name, "b");
	assert_string_equal(s.description, "the d");
	assert_string_equal(r.description, "the d");
	assert_int_equal(s.labels.n, 2);
	assert_int_equal(r.labels.n, 2);
	assert_string_equal(kvlist_get(&s.labels, "y", "-"), "2");
	assert_string_equal(kvlist_get(&r.labels, "y", "-"), "2");
	suite_release(&s);
	recipe_release(&r);

	recipe_init(&r);
	assert_int_equal(recipe_parse_text(bad_recipe, strlen(bad_recipe), "t.recipe", &r, &err), -1);
	assert_string_equal(err.msg, "t.recipe:2: label must be key=value, got 'bad'");
	recipe_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_common_key),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_readers),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
