/*
 * test_fio_ss_labels: fio's steady-state result on the JSON path every reader shares (fio_json_parse fills
 * fio_job.ss) and the run labels made from it (fio_ss_labels, fio_ss_combine, fio_output_ss_labels): the real
 * fio 3.33 outputs of tests/fixtures/fio/steadystate (SOURCES.md) imported as `bench import` does (attained
 * and stopped early, not attained, ss= only in [global]); jobs combined; a job without ss= gets no labels; a
 * malformed steadystate object is bad input with the file and the job named.
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
#include "import/import.h"
#include "import/fio_json_import.h"

/* Imports a fixture as `bench import` does (fio_json_import); one run per job. */
static void import_fixture(const char *name, struct import_batch *b)
{
	const char *src = getenv("BENCH_SRC");
	char *path;
	struct errbuf err;

	if (!src)
		fail_msg("BENCH_SRC is not set (run under ctest)");
	path = xasprintf("%s/tests/fixtures/fio/steadystate/%s", src, name);
	errbuf_init(&err);
	import_batch_init(b);
	if (fio_json_import(path, b, &err) < 0)
		fail_msg("%s", err.msg);
	free(path);
}

/* Every "key=value" of want (NULL-terminated) is in l, and l has nothing else. */
static void expect_labels(const struct kvlist *l, const char *const *want, const char *what)
{
	size_t n = 0;

	for (; want[n]; n++) {
		const char *eq = strchr(want[n], '=');
		char *key = xstrndup(want[n], (size_t)(eq - want[n]));
		const char *got = kvlist_get(l, key, NULL);

		if (!got || strcmp(got, eq + 1))
			fail_msg("%s: %s is '%s', want '%s'", what, key, got ? got : "(none)", eq + 1);
		free(key);
	}
	if (l->n != n)
		fail_msg("%s: %zu labels, want %zu", what, l->n, n);
}

static void test_fixtures(void **state)
{
	static const char *const attained[] = { "fio.ss=attained", "fio.ss.criterion=iops:0.5%", "fio.ss.after_s=4.9",
						"fio.ss.window_s=3", "fio.ss.ramp_s=1", "fio.ss.value=0.033322%", NULL };
	static const struct { const char *file; size_t nruns; const char *const *labels; } cases[] = {
		{ "fio-3.33_ss-iops-0.5pct_attained.json", 1, attained },
		{ "fio-3.33_ss-iops-slope_not-attained.json", 1, NULL /* checked below: not-attained, full 5 s */ },
		{ "fio-3.33_ss-bw-1pct_2jobs_grouprep.json", 1, NULL /* ss= in [global] only: ramp 0 from there */ },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct import_batch b;
		const struct kvlist *lp;

		import_fixture(cases[i].file, &b);
		assert_int_equal(b.n, cases[i].nruns);
		assert_int_equal(b.runs[0].status, RUN_DONE);
		lp = &b.runs[0].spec.labels;
		if (cases[i].labels)
			expect_labels(lp, cases[i].labels, cases[i].file);
		if (i == 1) {
			assert_string_equal(kvlist_get(lp, "fio.ss", ""), "not-attained");
			assert_string_equal(kvlist_get(lp, "fio.ss.criterion", ""), "iops_slope:0.001%");
			assert_true(strtod(kvlist_get(lp, "fio.ss.after_s", "0"), NULL) >= 5.0); /* ran its runtime=5 */
		}
		if (i == 2) {
			assert_string_equal(kvlist_get(lp, "fio.ss", ""), "attained");
			assert_string_equal(kvlist_get(lp, "fio.ss.criterion", ""), "bw:1%");
			assert_string_equal(kvlist_get(lp, "fio.ss.ramp_s", ""), "0");
			assert_string_equal(kvlist_get(lp, "fio.ss.window_s", ""), "2");
		}
		import_batch_release(&b);
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
