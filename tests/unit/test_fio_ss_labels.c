/*
 * test_fio_ss_labels: fio's steady-state result on the JSON path every reader shares (fio_json_parse fills
 * fio_job.ss) and the run labels made from it (fio_ss_labels, fio_ss_combine, fio_output_ss_labels), on the
 * real fio 3.33 outputs of tests/fixtures/fio/steadystate (SOURCES.md): attained and stopped early, not
 * attained, ss= only in [global]; a job without ss= gets no labels; a malformed steadystate object is bad input
 * with the file and the job named.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "engines/fio_json.h"

static void parse_fixture(const char *name, struct fio_output *fo)
{
	const char *src = getenv("BENCH_SRC");
	char *path;
	struct strbuf sb;
	struct errbuf err;

	if (!src)
		fail_msg("BENCH_SRC is not set (run under ctest)");
	path = xasprintf("%s/tests/fixtures/fio/steadystate/%s", src, name);
	strbuf_init(&sb);
	errbuf_init(&err);
	if (strbuf_read_file(&sb, path) < 0)
		fail_msg("cannot read %s", path);
	fio_output_init(fo);
	if (fio_json_parse(sb.buf, sb.len, name, fo, &err) < 0)
		fail_msg("%s: %s", path, err.msg);
	strbuf_release(&sb);
	free(path);
}

/* The labels as one "k=v k=v" line in their order, to compare with a table. */
static char *joined(const struct kvlist *l)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t i = 0; i < l->n; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? " " : "", l->v[i].key, l->v[i].value);
	return strbuf_detach(&sb, NULL);
}

static void test_fixtures(void **state)
{
	static const struct { const char *file; size_t njobs; const char *labels; } cases[] = {
		{ "fio-3.33_ss-iops-0.5pct_attained.json", 1,
		  "fio.ss=attained fio.ss.criterion=iops:0.5% fio.ss.after_s=4.9 fio.ss.window_s=3 fio.ss.ramp_s=1 "
		  "fio.ss.value=0.033322%" },
		{ "fio-3.33_ss-iops-slope_not-attained.json", 1, NULL /* checked below: not-attained, full 5 s */ },
		{ "fio-3.33_ss-bw-1pct_2jobs_grouprep.json", 1, NULL /* ss= in [global] only: ramp 0 from there */ },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fio_output fo;
		struct kvlist l;
		char *got;

		parse_fixture(cases[i].file, &fo);
		assert_int_equal(fo.njobs, cases[i].njobs);
		assert_true(fo.jobs[0].ss.present);
		kvlist_init(&l);
		fio_output_ss_labels(&fo, &l);
		got = joined(&l);
		if (cases[i].labels && strcmp(got, cases[i].labels))
			fail_msg("%s: labels\n  %s\nwant\n  %s", cases[i].file, got, cases[i].labels);
		if (i == 1) {
			assert_string_equal(kvlist_get(&l, "fio.ss", ""), "not-attained");
			assert_string_equal(kvlist_get(&l, "fio.ss.criterion", ""), "iops_slope:0.001%");
			assert_true(strtod(kvlist_get(&l, "fio.ss.after_s", "0"), NULL) >= 5.0); /* ran its runtime=5 */
		}
		if (i == 2) {
			assert_string_equal(kvlist_get(&l, "fio.ss", ""), "attained");
			assert_string_equal(kvlist_get(&l, "fio.ss.criterion", ""), "bw:1%");
			assert_string_equal(kvlist_get(&l, "fio.ss.ramp_s", ""), "0");
			assert_string_equal(kvlist_get(&l, "fio.ss.window_s", ""), "2");
		}
		free(got);
		kvlist_release(&l);
		fio_output_release(&fo);
	}
}

/* Several jobs of one run: attained only when all did; as long as the longest; none without ss=. */
static void test_combine(void **state)
{
	struct fio_ss a, b, none, all;
	struct kvlist l;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.present = a.attained = 1;
	memcpy(a.metric, "iops", 5);
	a.limit = 0.5;
	a.limit_pct = 1;
	a.window_s = 2;
	a.ramp_s = NAN;
	a.criterion = NAN;
	a.ran_s = 3.9;
	b = a;
	b.attained = 0;
	b.ran_s = 30.0004;
	memset(&none, 0, sizeof(none));

	memset(&all, 0, sizeof(all));
	fio_ss_combine(&all, &none);
	kvlist_init(&l);
	fio_ss_labels(&all, &l);
	assert_int_equal(l.n, 0); /* no job had ss=: no labels */
	fio_ss_combine(&all, &a);
	fio_ss_combine(&all, &none);
	fio_ss_labels(&all, &l);
	assert_string_equal(kvlist_get(&l, "fio.ss", ""), "attained");
	assert_string_equal(kvlist_get(&l, "fio.ss.after_s", ""), "3.9");
	assert_null(kvlist_find(&l, "fio.ss.ramp_s")); /* unknown numbers are left out */
	assert_null(kvlist_find(&l, "fio.ss.value"));
	fio_ss_combine(&all, &b);
	fio_ss_labels(&all, &l);
	assert_string_equal(kvlist_get(&l, "fio.ss", ""), "not-attained");
	assert_string_equal(kvlist_get(&l, "fio.ss.after_s", ""), "30");
	assert_string_equal(kvlist_get(&l, "fio.ss.criterion", ""), "iops:0.5%");
	assert_int_equal(l.n, 4); /* set again, not added twice */
	kvlist_release(&l);
}

static void test_bad_object(void **state)
{
	static const char doc[] = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"j\",\"read\":{\"runtime\":1000},"
				  "\"steadystate\":{\"ss\":\"iops:5x\",\"attained\":1}}]}";
	static const char plain[] = "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"j\",\"read\":{\"runtime\":1000}}]}";
	struct fio_output fo;
	struct errbuf err;
	struct kvlist l;

	(void)state;
	fio_output_init(&fo);
	errbuf_init(&err);
	assert_int_equal(fio_json_parse(doc, strlen(doc), "x.json", &fo, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	if (!strstr(err.msg, "x.json") || !strstr(err.msg, "jobs[0]") || !strstr(err.msg, "iops:5x"))
		fail_msg("message: %s", err.msg);
	assert_int_equal(fio_json_parse(plain, strlen(plain), "y.json", &fo, &err), 0);
	assert_false(fo.jobs[0].ss.present);
	kvlist_init(&l);
	fio_output_ss_labels(&fo, &l);
	assert_int_equal(l.n, 0);
	fio_output_release(&fo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_combine),
		cmocka_unit_test(test_bad_object),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
