/*
 * test_plan_pipeline: plan_build_full (profiles/pipeline.c), the one entry that builds what bench plan and
 * bench run run: the configurations come back from the same parse as the runs (plan.configs), a curve is
 * expanded inside every configuration, names stay unique across suites, and the precondition entries leave
 * out exactly the labels the caller's predicate names. What an entry is for is read from its typed fields
 * (core/model.h struct run_method); test_run_method checks the labels written from them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "profiles/method.h"

static const char suite_text[] =
	"[suite]\nname = c\n"
	"[config one]\nlabel = stack=a\n"
	"[config two]\nlabel = stack=b\n"
	"[workload w1]\nrw=randwrite\nsize=1m\nruntime=10\nbench.label.point=p\nbench.label.keep=k\n";

static char *write_suite(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(suite_text, f);
	fclose(f);
	return path;
}

static int is_point_label(const char *key)
{
	return !strcmp(key, "point");
}

static void test_configs_and_curve(void **state)
{
	char dir[] = "/tmp/test_plan_pipeline.XXXXXX", *path;
	struct plan_options o;
	struct method_settings m;
	struct config_list configs;
	struct plan p;
	struct errbuf err;
	const char *args[1];

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = write_suite(dir, "a.suite");
	args[0] = path;
	plan_options_init(&o);
	memset(&m, 0, sizeof(m));
	m.curve = "50,100";
	m.ss_window = 5;
	m.ss_max_rounds = 6;
	m.precondition = 1;
	m.label_is_point = is_point_label;
	plan_init(&p);
	config_list_init(&configs);
	errbuf_init(&err);
	assert_int_equal(plan_build_full(args, 1, 0, &o, &m, &p, &configs, &err), 0);
	assert_int_equal(configs.n, 2);
	assert_string_equal(configs.v[0].name, "one");
	assert_string_equal(configs.v[1].name, "two");
	/* per configuration: purge, wipc, 6 wdpc rounds, then the max run; the points' phases were done */
	{
		size_t per = 0, rounds = 0;
		for (size_t i = 0; i < p.n; i++) {
			const struct run_spec *s = &p.runs[i];
			assert_null(kvlist_get(&s->labels, "config", NULL)); /* typed, not a user label */
			if (strcmp(s->method.config_name, "one"))
				continue;
			assert_int_equal(s->method.config_index, 0);
			per++;
			assert_string_equal(kvlist_get(&s->labels, "keep", ""), "k");
			if (s->method.kind == RUN_METHOD_SS_ROUND) {
				rounds++;
				assert_int_equal(s->method.ss_round, rounds);
				assert_null(kvlist_get(&s->labels, "point", NULL)); /* the predicate's labels left out */
			} else if (s->method.kind == RUN_METHOD_CURVE_MAX || s->method.kind == RUN_METHOD_CURVE_POINT) {
				assert_string_equal(kvlist_get(&s->labels, "point", ""), "p");
			}
			assert_int_equal(s->seq, i + 1);
		}
		assert_int_equal(rounds, 6);
		assert_int_equal(per, 1 + 1 + 6 + 3);
		assert_int_equal(p.n, 2 * per);
	}
	plan_release(&p);
	config_list_release(&configs);
	plan_options_release(&o);
	unlink(path);
	free(path);
	rmdir(dir);
}

/* The same configuration name in two suites named together: refused with both places. */
static void test_duplicate_config(void **state)
{
	char dir[] = "/tmp/test_plan_pipeline.XXXXXX", *a, *b;
	struct plan_options o;
	struct method_settings m;
	struct config_list configs;
	struct plan p;
	struct errbuf err;
	const char *args[2];

	(void)state;
	assert_non_null(mkdtemp(dir));
	args[0] = a = write_suite(dir, "a.suite");
	args[1] = b = write_suite(dir, "b.suite");
	plan_options_init(&o);
	memset(&m, 0, sizeof(m));
	plan_init(&p);
	config_list_init(&configs);
	errbuf_init(&err);
	assert_int_equal(plan_build_full(args, 2, 0, &o, &m, &p, &configs, &err), -1);
	assert_non_null(strstr(err.msg, "b.suite:3: configuration 'one' is also in "));
	assert_non_null(strstr(err.msg, "a.suite:3"));
	plan_release(&p);
	config_list_release(&configs);
	plan_options_release(&o);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_configs_and_curve),
		cmocka_unit_test(test_duplicate_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
