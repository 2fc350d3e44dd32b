/*
 * test_report_helpers: the small shared helpers of report/: the owned string list (strlist_add,
 * strlist_add_distinct, strlist_release), ARRAY_PUSH_ZEROED, json_print_delete (a cJSON tree into a strbuf)
 * and rgrid_section (a table's heading and header row).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/strbuf.h"
#include "report/text/json_print.h"
#include "report/format/render.h"
#include "report/strlist.h"

static void test_strlist(void **state)
{
	struct strlist l = { 0 };
	char buf[8] = "abc";

	(void)state;
	strlist_add(&l, buf);
	buf[0] = 'x'; /* the list holds a copy */
	strlist_add_distinct(&l, "abc");
	strlist_add_distinct(&l, NULL);
	strlist_add_distinct(&l, "def");
	strlist_add(&l, "abc"); /* strlist_add keeps repeats */
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0], "abc");
	assert_string_equal(l.v[1], "def");
	assert_string_equal(l.v[2], "abc");
	strlist_release(&l);
	assert_null(l.v);
	assert_int_equal(l.n, 0);
	assert_int_equal(l.cap, 0);
	strlist_add(&l, "again"); /* usable after release */
	assert_int_equal(l.n, 1);
	strlist_release(&l);
}

struct item {
	int a;
	double b;
};

static void test_push_zeroed(void **state)
{
	struct item *v = NULL;
	size_t n = 0, cap = 0;

	(void)state;
	for (int i = 0; i < 100; i++) {
		struct item *e = ARRAY_PUSH_ZEROED(v, cap, n);

		assert_int_equal(e->a, 0);
		assert_true(e->b == 0);
		assert_ptr_equal(e, &v[n - 1]);
		e->a = i + 1;
	}
	assert_int_equal(n, 100);
	assert_true(cap >= n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i].a, (int)i + 1);
	free(v);
}

static void test_json_print(void **state)
{
	struct strbuf sb;
	cJSON *root = cJSON_CreateObject();
	cJSON *back;
	char *plain;

	(void)state;
	strbuf_init(&sb);
	strbuf_adds(&sb, "x");
	cJSON_AddStringToObject(root, "k", "v\"w");
	cJSON_AddNumberToObject(root, "n", 2);
	plain = cJSON_Print(root);
	json_print_delete(&sb, root);
	/* what was there, cJSON's text, one newline */
	assert_int_equal(sb.len, 1 + strlen(plain) + 1);
	assert_int_equal(sb.buf[0], 'x');
	assert_memory_equal(sb.buf + 1, plain, strlen(plain));
	assert_int_equal(sb.buf[sb.len - 1], '\n');
	back = cJSON_Parse(sb.buf + 1);
	assert_non_null(back);
	assert_string_equal(cJSON_GetObjectItem(back, "k")->valuestring, "v\"w");
	cJSON_Delete(back);
	free(plain);
	strbuf_release(&sb);
}

static void test_rgrid_section(void **state)
{
	static const char *const hdr[] = { "run", "a|b" };
	static const enum rep_format fmts[] = { FMT_TEXT, FMT_MARKDOWN };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct strbuf out, want;
		struct rgrid g;

		strbuf_init(&out);
		strbuf_init(&want);
		rgrid_section(&out, fmts[i], "Title", &g, hdr, 2);
		render_heading(&want, fmts[i], 2, "Title");
		if (fmts[i] == FMT_MARKDOWN)
			strbuf_addc(&want, '\n');
		assert_string_equal(out.buf, want.buf);
		assert_int_equal(g.ncols, 2);
		assert_int_equal(g.nrows, 1);
		/* the header cells, escaped for the format: Markdown escapes the pipe */
		assert_string_equal(g.c[0].s, "run");
		if (fmts[i] == FMT_MARKDOWN)
			assert_string_not_equal(g.c[1].s, "a|b");
		else
			assert_string_equal(g.c[1].s, "a|b");
		rgrid_release(&g);
		strbuf_release(&out);
		strbuf_release(&want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strlist),
		cmocka_unit_test(test_push_zeroed),
		cmocka_unit_test(test_json_print),
		cmocka_unit_test(test_rgrid_section),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
