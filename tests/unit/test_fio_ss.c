/*
 * test_fio_ss: engines/fio_ss.c on real fio 3.33 outputs with ss= (tests/fixtures/fio/steadystate, SOURCES.md):
 * attained and stopped early, not attained, and a group-reported job file with ss= in [global]; then the
 * completeness rule (an attained ss= is never short) and malformed objects.
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
#include "engines/fio_ss.h"

static void read_fixture(const char *name, struct fio_ss *ss)
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
	if (fio_ss_parse(sb.buf, sb.len, 0, ss, &err) < 0)
		fail_msg("%s: %s", path, err.msg);
	strbuf_release(&sb);
	free(path);
}

/* The fixture NAME: a steady-state block of METRIC, ATTAINED or not. */
static struct fio_ss fixture(const char *name, int attained, const char *metric)
{
	struct fio_ss ss;

	read_fixture(name, &ss);
	assert_true(ss.present && !ss.attained == !attained);
	assert_string_equal(ss.metric, metric);
	return ss;
}

static void test_attained(void **state)
{
	struct fio_ss ss = fixture("fio-3.33_ss-iops-0.5pct_attained.json", 1, "iops");

	(void)state;
	assert_true(ss.limit_pct && fabs(ss.limit - 0.5) < 1e-9);
	assert_true(fabs(ss.criterion - 0.033322) < 1e-9);
	assert_true(ss.window_s == 3 && ss.ramp_s == 1);
	assert_true(ss.iops_mean == 2000);
	assert_true(fabs(ss.ran_s - 4.9) < 1e-9); /* of runtime=30 */
	assert_true(fio_ss_complete(&ss, ss.ran_s, 30, 0.9));
}

static void test_not_attained(void **state)
{
	struct fio_ss ss = fixture("fio-3.33_ss-iops-slope_not-attained.json", 0, "iops_slope");

	(void)state;
	assert_true(ss.limit_pct && fabs(ss.limit - 0.001) < 1e-12);
	assert_true(ss.criterion < 0); /* "-5.817728%" */
	assert_true(ss.window_s == 2 && ss.ramp_s == 1);
	assert_true(fabs(ss.ran_s - 5) < 0.01);
	assert_true(fio_ss_complete(&ss, ss.ran_s, 5, 0.9));
	/* not attained and stopped early: short */
	assert_false(fio_ss_complete(&ss, 2, 5, 0.9));
}

static void test_group_global(void **state)
{
	struct fio_ss ss = fixture("fio-3.33_ss-bw-1pct_2jobs_grouprep.json", 1, "bw");

	(void)state;
	assert_true(ss.limit_pct && ss.limit == 1);
	assert_true(ss.ramp_s == 0); /* from "global options" */
	assert_true(ss.ran_s > 1.5 && ss.ran_s < 2.5); /* the group's runtime, not the jobs' sum */
	assert_true(fio_ss_complete(&ss, ss.ran_s, 20, 0.9));
}

static void test_malformed(void **state)
{
	static const struct { const char *json; int rc, present; } cases[] = {
		{ "{\"jobs\":[{\"jobname\":\"x\",\"read\":{\"runtime\":1000}}]}", 0, 0 },
		{ "{\"jobs\":[{\"steadystate\":{\"ss\":\"iops\",\"attained\":1}}]}", -1, 0 },
		{ "{\"jobs\":[{\"steadystate\":{\"ss\":\"iops:5x\",\"attained\":1}}]}", -1, 0 },
		{ "{\"jobs\":[{\"steadystate\":{\"ss\":\"iops:5%\"}}]}", -1, 0 },
		{ "{\"jobs\":[{\"steadystate\":{\"ss\":\"iops:100\",\"attained\":0,\"criterion\":50}}]}", 0, 1 },
		{ "{\"jobs\":[]}", -1, 0 },
		{ "not json", -1, 0 },
		{ "fio: noise\n{\"jobs\":[{\"steadystate\":{\"ss\":\"bw_slope:0.1%\",\"attained\":1}}]}", 0, 1 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fio_ss ss;
		struct errbuf err;
		int rc;

		errbuf_init(&err);
		rc = fio_ss_parse(cases[i].json, strlen(cases[i].json), 0, &ss, &err);
		if (rc != cases[i].rc || (rc == 0 && ss.present != cases[i].present))
			fail_msg("case %zu: rc %d present %d (%s)", i, rc, ss.present, err.msg);
		if (rc < 0)
			assert_int_equal(err.kind, ERR_INPUT);
	}
	{
		struct fio_ss ss;
		struct errbuf err;
		const char *j = "{\"jobs\":[{\"steadystate\":{\"ss\":\"iops:100\",\"attained\":0,\"criterion\":50}}]}";

		errbuf_init(&err);
		assert_int_equal(fio_ss_parse(j, strlen(j), 0, &ss, &err), 0);
		assert_false(ss.limit_pct);
		assert_true(ss.limit == 100 && ss.criterion == 50 && isnan(ss.ramp_s) && isnan(ss.iops_mean));
	}
	/* no ss= at all: the plain runtime rule */
	assert_true(fio_ss_complete(NULL, 30, 30, 0.9));
	assert_false(fio_ss_complete(NULL, 5.9, 30, 0.9));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attained),
		cmocka_unit_test(test_not_attained),
		cmocka_unit_test(test_group_global),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
