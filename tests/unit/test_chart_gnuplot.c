/*
 * test_chart_gnuplot: the one chart writer (report/chart/chart_gnuplot.h). The script of a chart: its preamble, one
 * terminal per image asked for, the PNG scaled by the set's dpi (size, fontscale, linewidth, pointscale) and
 * the SVG never, the body once per image; the chart registered in the set with its stem, script and width;
 * colours per label value the same across charts of a set; --dpi values; slugs; user text in single-quoted
 * strings; a chart directory that is a file refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/chart/chart_gnuplot.h"
#include "testutil.h"

/* The count of non-overlapping occurrences of needle in s. */
static int count(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Writes one chart of kind 'f' named "My Chart" (400 x 200) with cs's images and dpi; returns its script. */
static char *one_script(struct chart_set *cs)
{
	struct chart_gp g;
	struct errbuf err;
	struct strbuf sb;
	char *path;

	errbuf_init(&err);
	chart_gp_begin(&g, cs, 'f', "My Chart", 400, 200);
	strbuf_adds(&g.title, "it's mine");
	strbuf_adds(&g.body, "set title ");
	chart_gp_str(&g.body, g.title.buf);
	strbuf_adds(&g.body, "\nplot ");
	chart_gp_datafile(&g, &g.body);
	strbuf_adds(&g.body, " using 1:2 with lines\n");
	strbuf_adds(&g.data, "1 2\n");
	assert_int_equal(chart_gp_finish(&g, &err), 0);
	path = chart_path(cs, &cs->v[cs->n - 1], "gp");
	strbuf_init(&sb);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	free(path);
	return sb.buf;
}

static void test_script(void **state)
{
	static const struct {
		unsigned fmts;
		int dpi;
		const char *want[3];   /* each in the script */
		const char *absent;    /* not in it */
		int nbody;             /* times the body is drawn */
	} cases[] = {
		{ CHART_PNG | CHART_SVG, 0,
		  { "set terminal pngcairo noenhanced font 'DejaVu Sans,9' size 400,200\nset output 'f-01-my-chart.png'\n",
		    "set terminal svg dynamic noenhanced font 'DejaVu Sans,11' background '#ffffff' size 400,200\n"
		    "set output 'f-01-my-chart.svg'\n", "set encoding utf8\nset datafile missing 'NaN'\n" },
		  "fontscale", 2 },
		{ CHART_PNG | CHART_SVG, 300,
		  { "size 1250,625 fontscale 3.125 linewidth 3.125 pointscale 3.125\n",
		    "background '#ffffff' size 400,200\n", "set title 'it''s mine'\nplot 'f-01-my-chart.dat' using 1:2" },
		  NULL, 2 },
		{ CHART_PNG, 48 * 3, { "size 600,300 fontscale 1.5 linewidth 1.5 pointscale 1.5\n", "unset output\n",
				       "reset\n" }, "svg", 1 },
		{ CHART_SVG, 300, { "set output 'f-01-my-chart.svg'\n", "size 400,200\n", "unset output\n" }, "pngcairo", 1 },
	};

	char *dir = xasprintf("%s/script", tu_dir); /* charts_remove removes it when empty */

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct chart_set cs;
		struct errbuf err;
		char *sc;

		chart_set_init(&cs);
		errbuf_init(&err);
		assert_int_equal(chart_set_dir(&cs, dir, &err), 0);
		cs.fmts = cases[i].fmts;
		cs.dpi = cases[i].dpi;
		sc = one_script(&cs);
		for (int k = 0; k < 3; k++)
			if (!strstr(sc, cases[i].want[k]))
				fail_msg("case %zu: no '%s' in:\n%s", i, cases[i].want[k], sc);
		if (cases[i].absent && strstr(sc, cases[i].absent))
			fail_msg("case %zu: '%s' in:\n%s", i, cases[i].absent, sc);
		assert_int_equal(count(sc, "set terminal"), cases[i].nbody);
		assert_int_equal(count(sc, "plot 'f-01-my-chart.dat'"), cases[i].nbody);
		assert_int_equal(cs.n, 1);
		assert_int_equal(cs.v[0].kind, 'f');
		assert_string_equal(cs.v[0].stem, "f-01-my-chart");
		assert_string_equal(cs.v[0].script, "f-01-my-chart.gp");
		assert_string_equal(cs.v[0].title, "it's mine");
		assert_int_equal(cs.v[0].width_px, 400);
		free(sc);
		charts_remove(&cs);
		chart_set_release(&cs);
	}
	free(dir);
}

static void test_stems_and_drop(void **state)
{
	struct chart_set cs;
	struct errbuf err;
	struct chart_gp g;
	char *dir = xasprintf("%s/stems", tu_dir);

	(void)state;
	chart_set_init(&cs);
	errbuf_init(&err);
	assert_int_equal(chart_set_dir(&cs, dir, &err), 0);
	chart_gp_begin(&g, &cs, CHART_TREND, "rr-4k", 900, 420);
	assert_int_equal(chart_gp_finish(&g, &err), 0);
	chart_gp_begin(&g, &cs, 'e', "run-7-time", 1100, 500);
	assert_int_equal(chart_gp_finish(&g, &err), 0);
	chart_gp_begin(&g, &cs, 'e', "discarded", 1, 1);
	chart_gp_discard(&g);
	assert_int_equal(cs.n, 2);
	assert_string_equal(cs.v[0].stem, "trend-01-rr-4k");
	assert_string_equal(cs.v[1].stem, "e-02-run-7-time");
	chart_set_drop(&cs, 0);
	assert_int_equal(cs.n, 1);
	assert_string_equal(cs.v[0].stem, "e-02-run-7-time");
	charts_remove(&cs);
	chart_set_release(&cs);
	free(dir);
}

static void test_colors(void **state)
{
	struct chart_set cs;
	const char *a, *b;

	(void)state;
	chart_set_init(&cs);
	a = chart_color(&cs, "transport=nvmeof");
	b = chart_color(&cs, "transport=iser");
	assert_string_not_equal(a, b);
	assert_string_equal(chart_color(&cs, "stack=raid5"), chart_color(&cs, "stack=raid5"));
	assert_string_equal(chart_color(&cs, "transport=nvmeof"), a);
	assert_string_equal(chart_color(&cs, "transport=iser"), b);
	assert_int_equal(strlen(a), 7);
	assert_int_equal(a[0], '#');
	chart_set_release(&cs);
}

static void test_dpi_parse(void **state)
{
	static const struct {
		const char *in;
		int ok, dpi;
	} cases[] = {
		{ "300", 1, 300 }, { "50", 1, 50 }, { "1200", 1, 1200 }, { "96", 1, 96 }, { "49", 0, 0 },
		{ "1201", 0, 0 }, { "", 0, 0 }, { "300x", 0, 0 }, { "-300", 0, 0 }, { "99999999999999999999", 0, 0 },
		{ " 300", 0, 0 }, { "+300", 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int dpi = -7;
		int rc = chart_dpi_parse(cases[i].in, &dpi);

		if ((rc == 0) != cases[i].ok)
			fail_msg("'%s': rc %d", cases[i].in, rc);
		assert_int_equal(dpi, cases[i].ok ? cases[i].dpi : -7);
	}
}

static void test_slug_and_str(void **state)
{
	static const struct {
		const char *in, *slug, *str;
	} cases[] = {
		{ "mdadm-raid5", "mdadm-raid5", "'mdadm-raid5'" },
		{ "Stack=ZFS RaidZ", "stack-zfs-raidz", "'Stack=ZFS RaidZ'" },
		{ "it's `rm -rf`\n@x", "it-s-rm-rf-x", "'it''s `rm -rf` @x'" },
		{ "+*!", "x", "'+*!'" },
		{ "", "x", "''" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf a, b;

		strbuf_init(&a);
		strbuf_init(&b);
		chart_slug(&a, cases[i].in);
		chart_gp_str(&b, cases[i].in);
		assert_string_equal(a.buf, cases[i].slug);
		assert_string_equal(b.buf, cases[i].str);
		strbuf_release(&a);
		strbuf_release(&b);
	}
}

static void test_dir_is_file(void **state)
{
	struct chart_set cs;
	struct errbuf err;
	char *file = tu_write_in(tu_dir, "not-a-dir", "x");

	(void)state;
	chart_set_init(&cs);
	errbuf_init(&err);
	assert_int_equal(chart_set_dir(&cs, file, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_non_null(strstr(err.msg, "not a directory"));
	assert_null(cs.dir);
	chart_set_release(&cs);
	free(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script),     cmocka_unit_test(test_stems_and_drop),
		cmocka_unit_test(test_colors),     cmocka_unit_test(test_dpi_parse),
		cmocka_unit_test(test_slug_and_str), cmocka_unit_test(test_dir_is_file),
	};

	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
