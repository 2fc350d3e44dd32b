/*
 * test_escape: every escaper of report/text/escape.c on a table of hostile inputs (quotes, line breaks, markup,
 * gnuplot command substitution, spreadsheet formulas, control characters).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "report/text/escape.h"

typedef void (*escaper)(struct strbuf *, const char *);

struct esc_case {
	escaper fn;
	const char *name, *in, *want;
};

static const struct esc_case cases[] = {
	{ esc_csv, "csv", "plain", "plain" },
	{ esc_csv, "csv", "a,b", "\"a,b\"" },
	{ esc_csv, "csv", "say \"hi\"", "\"say \"\"hi\"\"\"" },
	{ esc_csv, "csv", "two\nlines", "\"two\nlines\"" },
	{ esc_csv, "csv", "=cmd()", "\"'=cmd()\"" },
	{ esc_csv, "csv", "@SUM(A1)", "\"'@SUM(A1)\"" },
	{ esc_csv, "csv", "-1.5", "\"-1.5\"" },
	{ esc_html, "html", "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;" },
	{ esc_html, "html", "a&b \"c\" 'd'", "a&amp;b &quot;c&quot; &#39;d&#39;" },
	{ esc_markdown, "markdown", "a|b", "a\\|b" },
	{ esc_markdown, "markdown", "<b>x</b>\nnext", "&lt;b&gt;x&lt;/b&gt; next" },
	{ esc_markdown, "markdown", "*_`[]#\\", "\\*\\_\\`\\[\\]\\#\\\\" },
	{ esc_json, "json", "a\"b\\c\nd\te", "\"a\\\"b\\\\c\\nd\\te\"" },
	{ esc_json, "json", "</script>", "\"\\u003c/script\\u003e\"" },
	{ esc_json, "json", "\x01", "\"\\u0001\"" },
	{ esc_json, "json", "Последовательная", "\"Последовательная\"" },
	{ esc_gnuplot, "gnuplot", "it's", "it''s" },
	{ esc_gnuplot, "gnuplot", "a\nsystem(\"touch x\")", "a system(\"touch x\")" },
	{ esc_gnuplot, "gnuplot", "`touch x` @m \\ ^_{}", "`touch x` @m \\ ^_{}" },
	{ esc_gnuplot_tic, "gnuplot tic", "70% 'r'", "70%% ''r''" },
	{ esc_gnuplot_data, "gnuplot data", "say \"hi\"\n#x", "\"say 'hi' #x\"" },
	{ esc_text, "text", "bell\a esc\x1b[31m nl\n", "bell? esc?[31m nl?" },
	{ esc_text, "text", "ümlaut", "ümlaut" },
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb;

		strbuf_init(&sb);
		cases[i].fn(&sb, cases[i].in);
		if (strcmp(sb.buf, cases[i].want))
			fail_msg("case %zu (%s): '%s' gave '%s', want '%s'", i, cases[i].name, cases[i].in, sb.buf,
				 cases[i].want);
		strbuf_release(&sb);
	}
}

/* No escaper lets a line break through where it would end a record, line or command. */
static void test_no_line_breaks(void **state)
{
	static const escaper fns[] = { esc_html, esc_markdown, esc_json, esc_gnuplot, esc_gnuplot_tic,
				       esc_gnuplot_data, esc_text };
	(void)state;
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		struct strbuf sb;

		strbuf_init(&sb);
		fns[i](&sb, "a\nb\rc");
		if (i > 0) /* HTML keeps line breaks: they are text there */
			assert_null(strpbrk(sb.buf, "\r\n"));
		strbuf_release(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_no_line_breaks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
