/*
 * test_strbuf_words: strbuf_add_shell_word() of core/strbuf.c, checked by running the quoted word through
 * /bin/sh (printf %s), argv_free() on NULL, an empty and a filled vector, and array_grow()'s capacities.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/strbuf.h"

static void test_shell_word(void **state)
{
	static const char *const words[] = { "plain", "it's", "''", "a b", "$(echo x)", "back\\slash", "" };

	(void)state;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct strbuf cmd;
		char got[256] = "";
		size_t n;
		FILE *f;

		strbuf_init(&cmd);
		strbuf_adds(&cmd, "printf %s ");
		strbuf_add_shell_word(&cmd, words[i]);
		f = popen(cmd.buf, "r");
		assert_non_null(f);
		n = fread(got, 1, sizeof(got) - 1, f);
		got[n] = '\0';
		assert_int_equal(pclose(f), 0);
		assert_string_equal(got, words[i]);
		strbuf_release(&cmd);
	}
}

static void test_shell_word_text(void **state)
{
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	strbuf_add_shell_word(&sb, "it's");
	assert_string_equal(sb.buf, "'it'\\''s'");
	strbuf_release(&sb);
}

static void test_argv_free(void **state)
{
	char **v = xcalloc(3, sizeof(*v));

	(void)state;
	argv_free(NULL);
	argv_free(xcalloc(1, sizeof(char *)));
	v[0] = xstrdup("a");
	v[1] = xstrdup("b");
	argv_free(v); /* leaks show under the sanitizer builds */
}

/* The first block of an array: 8 small elements, one large one (a run's host results); then it doubles. */
static void test_array_grow(void **state)
{
	struct big { char b[1064]; } *big = NULL;
	struct mid { char b[100]; } *mid = NULL;
	uint64_t *small = NULL;
	size_t cbig = 0, cmid = 0, csmall = 0;

	(void)state;
	ARRAY_GROW(small, csmall, 1);
	assert_int_equal(csmall, 8);
	ARRAY_GROW(mid, cmid, 1);
	assert_int_equal(cmid, 5);
	ARRAY_GROW(big, cbig, 1);
	assert_int_equal(cbig, 1);
	memset(big, 1, sizeof(*big));
	ARRAY_GROW(big, cbig, 2);
	assert_int_equal(cbig, 2);
	assert_int_equal(big[0].b[1063], 1); /* kept by the reallocation */
	ARRAY_GROW(big, cbig, 5);
	assert_int_equal(cbig, 8);
	ARRAY_GROW(big, cbig, 8); /* enough already: unchanged */
	assert_int_equal(cbig, 8);
	ARRAY_GROW(small, csmall, 100);
	assert_int_equal(csmall, 128);
	free(big);
	free(mid);
	free(small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell_word),
		cmocka_unit_test(test_shell_word_text),
		cmocka_unit_test(test_argv_free),
		cmocka_unit_test(test_array_grow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
