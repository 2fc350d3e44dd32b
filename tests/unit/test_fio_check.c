/*
 * test_fio_check: fio checks a plan (engines/fio_check.h). fio 3.33's own complaints (stderr and stdout as
 * `fio --parse-only` wrote them) become one message with fio's suggestion or the closest valid value; the
 * profile line that holds an option is found in its section, else in a [global] above, else the section's
 * line is kept; and the check itself, driven against a stand-in fio (a shell script that refuses any job
 * file holding "iodepht=" and logs its calls): runs whose job files differ only in the run number and the
 * section names are one file, files go to fio in batches, a refused batch is narrowed down to the first
 * refused file in plan order (the file holding fio's subject first), null runs are skipped,
 * a fio that cannot be run is ERR_HOST and not bad input.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "engines/fio_check.h"
#include "testutil.h"

/* ---- fio's complaints ------------------------------------------------------------------------------- */

static const char rw_values[] = "        valid values: read       Sequential read\n"
				"                    : write      Sequential write\n"
				"                    : randread   Random read\n"
				"                    : randwrite  Random write\n"
				"                    : randrw     Random read and write mix\n\n";

static void test_complaints(void **state)
{
	static const struct {
		const char *err, *out, *want;
	} cases[] = {
		{ "Bad option <iodepht=4>\nDid you mean iodepth?\nfio: job a dropped\n", "",
		  "fio: bad option 'iodepht=4' (did you mean 'iodepth'?)" },
		{ "Bad option <foo>\nfio: job a dropped\n", "", "fio: bad option 'foo'" },
		{ "iodepth: min value out of range: 0 (1 min)\nfio: failed parsing iodepth=0\nfio: job a dropped\n", "",
		  "fio: failed parsing 'iodepth=0': min value out of range: 0 (1 min)" },
		{ "max value out of range: 2 (1 max)\nfio: failed parsing direct=2\nfio: job a dropped\n", "",
		  "fio: failed parsing 'direct=2': max value out of range: 2 (1 max)" },
		{ "fio: failed parsing rw=randwritee\nfio: job a dropped\n", rw_values,
		  "fio: failed parsing 'rw=randwritee' (did you mean 'randwrite'?)" },
		{ "fio: failed parsing rw=zzzzzz\nfio: job a dropped\n", rw_values,
		  "fio: failed parsing 'rw=zzzzzz' (valid values: read, write, randread, randwrite, randrw)" },
		{ "thinktime: 'z' suffix isn't applicable\nfio: failed parsing thinktime=xyz\n", "",
		  "fio: failed parsing 'thinktime=xyz': 'z' suffix isn't applicable" },
		{ "fio: invalid external ioengine path \"/x.so\"\nfio: failed parsing ioengine=external:/x.so\n", "",
		  "fio: failed parsing 'ioengine=external:/x.so': invalid external ioengine path \"/x.so\"" },
		{ "fio: something else went wrong\n", "", "fio: refused the job: something else went wrong" },
		{ "", "", "fio: refused the job" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fio_complaint c;
		char *msg;

		fio_complaint_parse(cases[i].err, cases[i].out, &c);
		msg = fio_complaint_message(&c);
		if (strcmp(msg, cases[i].want))
			fail_msg("case %zu: got '%s', want '%s'", i, msg, cases[i].want);
		free(msg);
		fio_complaint_release(&c);
	}
}

/* A bad option as long as fio's line buffer: quoted short, said to be a piece of a long line. */
static void test_long_line(void **state)
{
	struct strbuf e;
	struct fio_complaint c;
	char *msg;

	(void)state;
	strbuf_init(&e);
	strbuf_adds(&e, "Bad option <");
	for (int i = 0; i < FIO_LINE_MAX - 1; i++)
		strbuf_addc(&e, 'x');
	strbuf_adds(&e, ">\nBad option <xxxx>\nfio: job xxx dropped\n");
	fio_complaint_parse(e.buf, "", &c);
	msg = fio_complaint_message(&c);
	assert_non_null(strstr(msg, "fio: bad option 'xxxxxxxx"));
	assert_non_null(strstr(msg, "...' (8191 characters): a piece of a line longer than fio reads"));
	assert_true(strlen(msg) < 200);
	free(msg);
	fio_complaint_release(&c);
	strbuf_release(&e);
}

/* ---- where an option came from ------------------------------------------------------------------------ */

static void test_find_line(void **state)
{
	static const char text[] = "[global]\n"         /* 1 */
				   "offset = abc\n"     /* 2 */
				   "time_based\n"       /* 3 */
				   "\n"                 /* 4 */
				   "[a]\n"              /* 5 */
				   "bs=4k\n"            /* 6 */
				   "iodepht=4 ; typo\n" /* 7 */
				   "\n"                 /* 8 */
				   "[b]\n"              /* 9 */
				   "iodepht=4\n"        /* 10 */
				   "rate=xyz\n";        /* 11 */
	static const struct {
		int section;
		const char *subject;
		int want;
	} cases[] = {
		{ 5, "iodepht=4", 7 },  /* in the section, a trailing comment ignored */
		{ 9, "iodepht=4", 10 }, /* the section's own, not the one above */
		{ 5, "offset=abc", 2 }, /* a [global] above, blanks around '=' */
		{ 5, "time_based", 3 }, /* a flag */
		{ 5, "rate=xyz", 11 },  /* only elsewhere in the file */
		{ 5, "bs=8k", 5 },      /* nowhere: the section's line */
		{ 5, "bs", 5 },         /* a key alone does not match key=value */
		{ 9, "", 9 },
	};
	char *path;

	(void)state;
	path = tu_write_in(tu_dir, "find.fio", text);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (fio_check_find_line(path, cases[i].section, cases[i].subject) != cases[i].want)
			fail_msg("case %zu '%s': got line %d, want %d", i, cases[i].subject,
				 fio_check_find_line(path, cases[i].section, cases[i].subject), cases[i].want);
	assert_int_equal(fio_check_find_line("/nonexistent/x.fio", 4, "bs=4k"), 4);
	assert_int_equal(fio_check_find_line(NULL, 4, "bs=4k"), 4);
	free(path);
}

/* ---- the check against a stand-in fio --------------------------------------------------------------- */

/* Logs each call; --enghelp lists engines; --parse-only refuses the first file holding "iodepht=". */
static const char fake_fio[] =
	"#!/bin/sh\n"
	"echo \"$1 $#\" >>\"$(dirname \"$0\")/calls.log\"\n"
	"if [ \"$1\" = --enghelp ]; then printf 'Available IO engines:\\n\\tpsync\\n\\tlibaio\\n'; exit 0; fi\n"
	"case $1 in --enghelp=*) exit 1;; esac\n"
	"shift\n"
	"for f; do\n"
	"  if grep -q '^iodepht=' \"$f\"; then\n"
	"    echo \"Bad option <$(grep '^iodepht=' \"$f\" | head -n 1)>\" >&2; echo 'Did you mean iodepth?' >&2\n"
	"    echo 'fio: job a dropped' >&2; exit 1\n"
	"  fi\n"
	"done\n"
	"exit 0\n";

static char *fake_path(void)
{
	char *path = tu_write_in(tu_dir, "fio", fake_fio);

	assert_int_equal(chmod(path, 0755), 0);
	return path;
}

static size_t calls_logged(void)
{
	char *log = xasprintf("%s/calls.log", tu_dir);
	struct strbuf sb;
	size_t n = 0;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, log) == 0)
		for (size_t i = 0; i < sb.len; i++)
			n += sb.buf[i] == '\n';
	unlink(log);
	free(log);
	strbuf_release(&sb);
	return n;
}

/* n runs of `distinct` job files (iodepth = 1 + seq % distinct), run `bad` (1-based, 0: none) with iodepht. */
static struct run_spec *make_runs(size_t n, unsigned distinct, size_t bad)
{
	struct run_spec *runs = xcalloc(n, sizeof(*runs));

	for (size_t i = 0; i < n; i++) {
		char depth[16], *name = xasprintf("run%zu", i + 1); /* names differ: folded */
		struct run_spec *s = &runs[i];

		tu_spec(s, name, (unsigned)i + 1, 1, "fio", "randread", 100, 1, 1);
		snprintf(depth, sizeof(depth), "%zu", 1 + i % distinct);
		kvlist_add(&s->wl.opts, "rw", "randread");
		kvlist_add(&s->wl.opts, i + 1 == bad ? "iodepht" : "iodepth", depth);
		s->wl.src_file = xasprintf("plan%zu.fio", i + 1);
		s->wl.src_line = (int)i + 1;
		run_spec_add_target(s, "/tmp/nonexistent-target.dat");
		free(name);
	}
	return runs;
}

static void free_runs(struct run_spec *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_spec_release(&runs[i]);
	free(runs);
}

static void test_dedupe_and_batches(void **state)
{
	char *fio = fake_path();
	struct fio_check_opts o = { NULL, NULL, fio };
	struct fio_check_stats st;
	struct errbuf err;
	struct run_spec *runs = make_runs(108, 3, 0);

	(void)state;
	errbuf_init(&err);
	calls_logged();
	free(runs[5].engine);
	runs[5].engine = xstrdup("null");
	free(runs[6].engine);
	runs[6].engine = xstrdup("sim"); /* no sim .so given: skipped */
	assert_int_equal(fio_check_plan(runs, 108, &o, &st, &err), 0);
	assert_int_equal(st.runs_checked, 106);
	assert_int_equal(st.runs_skipped, 2);
	assert_int_equal(st.files, 3);
	assert_int_equal(st.fio_calls, 2); /* one --parse-only of 3 files, one --enghelp */
	assert_int_equal(calls_logged(), 2);
	free_runs(runs, 108);

	runs = make_runs(100, 100, 0);
	assert_int_equal(fio_check_plan(runs, 100, &o, &st, &err), 0);
	assert_int_equal(st.files, 100);
	assert_int_equal(st.fio_calls, 1 + (100 + FIO_CHECK_BATCH - 1) / FIO_CHECK_BATCH);
	free_runs(runs, 100);
	free(fio);
}

static void test_refusal_narrowed(void **state)
{
	char *fio = fake_path();
	struct fio_check_opts o = { NULL, NULL, fio };
	struct fio_check_stats st;
	struct errbuf err;
	struct run_spec *runs = make_runs(100, 100, 50);

	(void)state;
	errbuf_init(&err);
	assert_int_equal(fio_check_plan(runs, 100, &o, &st, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	/* run 50's file and line: its source line, as plan50.fio holds no such line */
	assert_string_equal(err.msg, "plan50.fio:50: fio: bad option 'iodepht=50' (did you mean 'iodepth'?)");
	assert_int_equal(st.fio_calls, 3); /* --enghelp, the batch, the file holding 'iodepht=50' alone */
	free_runs(runs, 100);

	/* two refused files: the first in plan order is named */
	runs = make_runs(40, 40, 0);
	kvlist_add(&runs[38].wl.opts, "iodepht", "9");
	kvlist_add(&runs[3].wl.opts, "iodepht", "8");
	errbuf_init(&err);
	assert_int_equal(fio_check_plan(runs, 40, &o, NULL, &err), -1);
	assert_string_equal(err.msg, "plan4.fio:4: fio: bad option 'iodepht=8' (did you mean 'iodepth'?)");
	free_runs(runs, 40);
	free(fio);
}

static void test_no_fio(void **state)
{
	struct fio_check_opts o = { NULL, NULL, "/nonexistent/fio" };
	struct errbuf err;
	struct run_spec *runs = make_runs(2, 1, 0);

	(void)state;
	errbuf_init(&err);
	assert_int_equal(fio_check_plan(runs, 2, &o, NULL, &err), -1);
	assert_int_equal(err.kind, ERR_HOST);
	assert_non_null(strstr(err.msg, "cannot run '/nonexistent/fio'"));
	free_runs(runs, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complaints),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_find_line),
		cmocka_unit_test(test_dedupe_and_batches),
		cmocka_unit_test(test_refusal_narrowed),
		cmocka_unit_test(test_no_fio),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
