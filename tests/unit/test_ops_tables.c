/*
 * test_ops_tables: the ops tables of engines (engines/engines.c) and collectors (collectors/collectors.c):
 * every registered table passes the start-up check main runs (a failure there is exit 70), each registered
 * name is found, and a table with a missing required hook, a wrong interface version or no name is refused
 * with a message that names it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "collectors/collector.h"
#include "engines/engine.h"

static int e_prepare(struct engine_run *r, struct errbuf *e) { (void)r; (void)e; return 0; }
static int e_start(struct engine_run *r, struct errbuf *e) { (void)r; (void)e; return 0; }
static int e_wait(struct engine_run *r, int t, struct errbuf *e) { (void)r; (void)t; (void)e; return 1; }
static int e_collect(struct engine_run *r, struct run_result *o, enum run_status *s, struct errbuf *e)
{
	(void)r; (void)o; (void)s; (void)e;
	return 0;
}
static void e_stop(struct engine_run *r) { (void)r; }

static int c_open(struct collector *c, struct errbuf *e) { (void)c; (void)e; return 0; }
static int c_sample(struct collector *c, struct collect_snapshot *o, struct errbuf *e)
{
	(void)c; (void)o; (void)e;
	return 0;
}
static void c_close(struct collector *c) { (void)c; }

/* The check of an ops table (engine_check_ops, collector_check_ops) on OPS. */
typedef int (*ops_check)(const void *ops, struct errbuf *err);

static int check_engine(const void *ops, struct errbuf *err)
{
	return engine_check_ops(ops, err);
}

static int check_collector(const void *ops, struct errbuf *err)
{
	return collector_check_ops(ops, err);
}

/* CHECK accepts OPS. */
static void accepted(ops_check check, const void *ops)
{
	struct errbuf err;

	errbuf_init(&err);
	assert_int_equal(check(ops, &err), 0);
}

/* CHECK refuses OPS (case I) as an internal error whose message holds MSG. */
static void refused(ops_check check, const void *ops, size_t i, const char *msg)
{
	struct errbuf err;

	errbuf_init(&err);
	assert_int_equal(check(ops, &err), -1);
	assert_int_equal(err.kind, ERR_INTERNAL);
	if (!strstr(err.msg, msg))
		fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, msg);
}

static void test_registered_pass(void **state)
{
	struct errbuf err;
	size_t n = 0;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(engine_check_all(&err), 0);
	assert_int_equal(collector_check_all(&err), 0);
	for (const struct engine_ops *const *e = engine_list(); *e; e++, n++)
		assert_ptr_equal(engine_find((*e)->name), *e);
	assert_true(n >= 3); /* fio, sim, null */
	assert_non_null(engine_find("fio"));
	assert_null(engine_find("warp"));
	assert_non_null(collector_find("procstat"));
	assert_non_null(collector_find("node_exporter"));
	assert_null(collector_find("nosuch"));
}

static void test_engine_refused(void **state)
{
	static const struct {
		struct engine_ops ops;
		const char *msg;       /* part of the message */
	} cases[] = {
		{ { "noprepare", ENGINE_OPS_VERSION, 0, NULL, e_start, e_wait, e_collect, e_stop, NULL }, "'noprepare'" },
		{ { "nostart", ENGINE_OPS_VERSION, 0, e_prepare, NULL, e_wait, e_collect, e_stop, NULL }, "'nostart'" },
		{ { "nowait", ENGINE_OPS_VERSION, 0, e_prepare, e_start, NULL, e_collect, e_stop, NULL }, "'nowait'" },
		{ { "nocollect", ENGINE_OPS_VERSION, 0, e_prepare, e_start, e_wait, NULL, e_stop, NULL }, "'nocollect'" },
		{ { "nostop", ENGINE_OPS_VERSION, 0, e_prepare, e_start, e_wait, e_collect, NULL, NULL }, "'nostop'" },
		{ { "old", ENGINE_OPS_VERSION + 1, 0, e_prepare, e_start, e_wait, e_collect, e_stop, NULL }, "version" },
		{ { NULL, ENGINE_OPS_VERSION, 0, e_prepare, e_start, e_wait, e_collect, e_stop, NULL }, "no name" },
		{ { "", ENGINE_OPS_VERSION, 0, e_prepare, e_start, e_wait, e_collect, e_stop, NULL }, "no name" },
	};
	static const struct engine_ops good = { "good", ENGINE_OPS_VERSION, 0, e_prepare, e_start, e_wait,
						 e_collect, e_stop, NULL };

	(void)state;
	accepted(check_engine, &good);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		refused(check_engine, &cases[i].ops, i, cases[i].msg);
}

static void test_collector_refused(void **state)
{
	static const struct {
		struct collector_ops ops;
		const char *msg;
	} cases[] = {
		{ { "noopen", COLLECTOR_OPS_VERSION, NULL, c_sample, c_close }, "'noopen'" },
		{ { "nosample", COLLECTOR_OPS_VERSION, c_open, NULL, c_close }, "'nosample'" },
		{ { "noclose", COLLECTOR_OPS_VERSION, c_open, c_sample, NULL }, "'noclose'" },
		{ { "old", COLLECTOR_OPS_VERSION - 1, c_open, c_sample, c_close }, "version" },
		{ { NULL, COLLECTOR_OPS_VERSION, c_open, c_sample, c_close }, "no name" },
	};
	static const struct collector_ops good = { "good", COLLECTOR_OPS_VERSION, c_open, c_sample, c_close };

	(void)state;
	accepted(check_collector, &good);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		refused(check_collector, &cases[i].ops, i, cases[i].msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registered_pass),
		cmocka_unit_test(test_engine_refused),
		cmocka_unit_test(test_collector_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
