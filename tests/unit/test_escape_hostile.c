/*
 * test_escape_hostile: report/text/escape.c on hostile bytes (issue 18): invalid UTF-8, overlong forms, surrogates,
 * code points beyond U+10FFFF, cut-short sequences, control bytes (ESC, DEL, C1 CSI), "]]>", spreadsheet
 * formulas hidden behind a number, blanks, a tab or a CR. Every escaper's output must be valid UTF-8; XML
 * output must hold no character XML 1.0 forbids and never "]]>"; JSON no raw control character; terminal
 * text no ESC or CSI; CSV cells no formula lead.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "report/text/escape.h"

typedef void (*escaper)(struct strbuf *, const char *);

static const char *const hostile[] = {
	"plain",
	"bad \xff byte",
	"lone lead \xc3",
	"lone continuation \x80\xbf",
	"overlong slash \xc0\xaf and \xe0\x80\xaf and \xf0\x80\x80\xaf",
	"surrogate \xed\xa0\x80\xed\xbf\xbf",
	"beyond \xf4\x90\x80\x80 and \xf5\x80\x80\x80",
	"cut \xe2\x82",
	"ctl \x01\x02\x1b[31mred\x1b[0m \x7f del",
	"c1 csi \xc2\x9b" "31m and raw \x9b" "31m",
	"cdata ]]> end ]]]]>>",
	"nonchars \xef\xbf\xbe \xef\xbf\xbf",
	"=cmd|' /C calc'!A0",
	"-1+cmd|' /C calc'!A0",
	"+1+1",
	"@SUM(A1)",
	"  =1+1",
	"\t=1",
	"\r=1",
	"\xe2\x80\xa8 line separator",
	"ok \xc3\xbc \xe2\x82\xac \xf0\x9f\x98\x80",
};

static int valid_utf8(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t used;
		if (utf8_decode(s + i, len - i, &used) < 0)
			return 0;
		i += used;
	}
	return 1;
}

/* Code points of a valid UTF-8 text, with a predicate on each. */
static int any_cp(const char *s, size_t len, int (*bad)(int32_t))
{
	for (size_t i = 0; i < len;) {
		size_t used;
		int32_t cp = utf8_decode(s + i, len - i, &used);
		if (cp < 0 || bad(cp))
			return 1;
		i += used;
	}
	return 0;
}

static int xml_forbidden(int32_t cp)
{
	return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF ||
	       (cp >= 0x7F && cp <= 0x9F);
}

static int json_raw_control(int32_t cp)
{
	return cp < 0x20;
}

static int terminal_control(int32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

static void test_decode(void **state)
{
	static const struct {
		const char *in;
		int32_t cp;
		size_t used;
	} cases[] = {
		{ "A", 'A', 1 },          { "\xc3\xbc", 0xFC, 2 },       { "\xe2\x82\xac", 0x20AC, 3 },
		{ "\xf0\x9f\x98\x80", 0x1F600, 4 }, { "\xc0\xaf", -1, 1 }, { "\xe0\x80\xaf", -1, 1 },
		{ "\xf0\x80\x80\xaf", -1, 1 }, { "\xed\xa0\x80", -1, 1 },   { "\xf4\x90\x80\x80", -1, 1 },
		{ "\x80", -1, 1 },         { "\xe2\x82", -1, 1 },          { "\xff", -1, 1 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t used;
		int32_t cp = utf8_decode(cases[i].in, strlen(cases[i].in), &used);
		if (cp != cases[i].cp || used != cases[i].used)
			fail_msg("case %zu: got U+%04X/%zu, want U+%04X/%zu", i, (unsigned)cp, used, (unsigned)cases[i].cp,
				 cases[i].used);
	}
}

static void test_all_escapers_valid_utf8(void **state)
{
	static const struct {
		escaper fn;
		const char *name;
	} fns[] = {
		{ esc_csv, "csv" },           { esc_html, "html" },         { esc_markdown, "markdown" },
		{ esc_xml_text, "xml text" }, { esc_xml_attr, "xml attr" }, { esc_json, "json" },
		{ esc_gnuplot, "gnuplot" },   { esc_gnuplot_tic, "tic" },   { esc_gnuplot_data, "gnuplot data" },
		{ esc_text, "text" },
	};
	(void)state;
	for (size_t f = 0; f < sizeof(fns) / sizeof(fns[0]); f++)
		for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
			struct strbuf sb;
			strbuf_init(&sb);
			fns[f].fn(&sb, hostile[i]);
			if (!valid_utf8(sb.buf ? sb.buf : "", sb.len))
				fail_msg("%s on input %zu: output is not UTF-8", fns[f].name, i);
			if (fns[f].fn == esc_xml_text || fns[f].fn == esc_xml_attr) {
				if (any_cp(sb.buf, sb.len, xml_forbidden) || strstr(sb.buf, "]]>"))
					fail_msg("%s on input %zu: '%s' is not XML character data", fns[f].name, i, sb.buf);
				if (fns[f].fn == esc_xml_attr && strpbrk(sb.buf, "\"'<\t\n\r"))
					fail_msg("xml attr on input %zu: '%s'", i, sb.buf);
			}
			if (fns[f].fn == esc_json && any_cp(sb.buf, sb.len, json_raw_control))
				fail_msg("json on input %zu: raw control character", i);
			if (fns[f].fn == esc_text && any_cp(sb.buf, sb.len, terminal_control))
				fail_msg("text on input %zu: '%s' holds a control character", i, sb.buf);
			if ((fns[f].fn == esc_gnuplot || fns[f].fn == esc_gnuplot_tic || fns[f].fn == esc_gnuplot_data) &&
			    (strstr(sb.buf, "]]>") || strpbrk(sb.buf, "\n\r")))
				fail_msg("%s on input %zu: '%s'", fns[f].name, i, sb.buf);
			strbuf_release(&sb);
		}
}

/* FN escapes IN to WANT (case I of the table WHAT). */
static void check_one(escaper fn, const char *what, size_t i, const char *in, const char *want)
{
	struct strbuf sb;

	strbuf_init(&sb);
	fn(&sb, in);
	if (strcmp(sb.buf ? sb.buf : "", want))
		fail_msg("%s case %zu: got '%s', want '%s'", what, i, sb.buf, want);
	strbuf_release(&sb);
}

static void test_exact(void **state)
{
	/* CSV: a cell that could start a formula gets a leading ' (a plain number does not); bad UTF-8 is replaced */
	static const struct {
		const char *in, *want;
	} csv[] = {
		{ "-1+cmd|' /C calc'!A0", "\"'-1+cmd|' /C calc'!A0\"" },
		{ "  =1+1", "\"'  =1+1\"" },
		{ "\t=1", "\"'\t=1\"" },
		{ "\r=1", "\"'\r=1\"" },
		{ "+1+1", "\"'+1+1\"" },
		{ "-1.5", "\"-1.5\"" },
		{ "+5", "\"+5\"" },
		{ "bad \xff", "bad \xef\xbf\xbd" },
	};
	static const struct {
		escaper fn;
		const char *in, *want;
	} cases[] = {
		{ esc_xml_text, "a]]>b <c> & \x1b", "a]]&gt;b &lt;c&gt; &amp; " },
		{ esc_xml_attr, "q\"'\t\n", "q&quot;&apos;&#9;&#10;" },
		{ esc_xml_text, "s\xed\xa0\x80", "s\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* one per byte */
		{ esc_json, "\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ esc_json, "\x7f\xc2\x9b", "\"\\u007f\\u009b\"" },
		{ esc_gnuplot, "x]]>y", "x]] >y" },
		{ esc_gnuplot_data, "]]>\"", "\"]] >'\"" },
		{ esc_text, "\x1b[2J\x9b", "?[2J?" },
		{ esc_html, "a\x1b\x01\xff", "a\xef\xbf\xbd" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(csv) / sizeof(csv[0]); i++)
		check_one(esc_csv, "csv", i, csv[i].in, csv[i].want);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_one(cases[i].fn, "other", i, cases[i].in, cases[i].want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_all_escapers_valid_utf8),
		cmocka_unit_test(test_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
