/*
 * test_run_method: the typed method and configuration fields of a run spec (core/model.h struct run_method).
 * One plan (plan_build_full, as bench plan and bench run build it) of two suites: a curve (curve = 50,100) on a
 * random-write workload, a sweep with a stop rule (sweep = iodepth=1,4; until = p99>5ms;iops_gain<5%) on a
 * random-read one, two configurations and --precondition with 2 wdpc rounds. For every entry it checks the
 * typed fields, that the user labels carry only what the suite and the configuration say, and that the labels
 * written at store time (run_method_labels) are the ones the pipeline put on runs as labels before the fields
 * were typed (taken from `bench plan --format json` of that version); then that the fields survive the stored
 * spec JSON.
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

#include "core/spec_json.h"
#include "core/strbuf.h"
#include "profiles/method.h"

static const char suite_a[] =
	"[suite]\nname = a\ncurve = 50,100\n"
	"[config one]\nlabel = stack=a\n"
	"[config two]\nlabel = stack=b\n"
	"[workload w1]\nrw=randwrite\nsize=1m\nruntime=10\nbench.label.keep=k\n";

static const char suite_b[] =
	"[suite]\nname = b\nsweep = iodepth=1,4\nuntil = p99>5ms;iops_gain<5%\n"
	"[workload w2]\nrw=randread\nbs=8k\nsize=1m\nruntime=10\n";

/* One configuration's block of the plan, in order; labels without the configuration's (added per block). */
static const struct expect {
	const char *name;
	enum run_method_kind kind;
	const char *labels; /* as bench plan --format json showed them before the fields were typed */
} expect[] = {
	{ "precondition-purge", RUN_METHOD_PURGE,
	  "keep=k phase=precondition precondition=purge precondition.class=random-write" },
	{ "precondition-wipc", RUN_METHOD_WIPC,
	  "keep=k phase=precondition precondition=wipc precondition.class=random-write" },
	{ "precondition-wdpc-random-write-round1", RUN_METHOD_SS_ROUND,
	  "keep=k phase=precondition precondition=wdpc precondition.class=random-write ss_round=1" },
	{ "precondition-wdpc-random-write-round2", RUN_METHOD_SS_ROUND,
	  "keep=k phase=precondition precondition=wdpc precondition.class=random-write ss_round=2" },
	{ "w1", RUN_METHOD_CURVE_MAX, "keep=k curve_pct=max" },
	{ "w1_(50%)", RUN_METHOD_CURVE_POINT, "keep=k curve_pct=50" },
	{ "w1_(100%)", RUN_METHOD_CURVE_POINT, "keep=k curve_pct=100" },
	{ "w2_(iodepth=1)", RUN_METHOD_SWEEP_POINT, "sweep.iodepth=1" },
	{ "w2_(iodepth=4)", RUN_METHOD_SWEEP_POINT, "sweep.iodepth=4" },
};
#define NEXPECT (sizeof(expect) / sizeof(expect[0]))

static char *write_file(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "k=v k=v ..." sorted (the store keeps labels by key, not in order). */
static char *sorted(const char *text)
{
	char *copy = xstrdup(text), *save = NULL, *w[64];
	size_t n = 0;
	struct strbuf sb;

	for (char *t = strtok_r(copy, " ", &save); t && n < 64; t = strtok_r(NULL, " ", &save))
		w[n++] = t;
	qsort(w, n, sizeof(w[0]), cmp_str);
	strbuf_init(&sb);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", w[i]);
	free(copy);
	return strbuf_detach(&sb, NULL);
}

/* The labels a run is stored with (but the plan's): its own, then run_method_labels', sorted. */
static char *stored_labels(const struct run_spec *s)
{
	struct kvlist l;
	struct strbuf sb;
	char *out;

	kvlist_init(&l);
	kvlist_copy(&l, &s->labels);
	run_method_labels(s, &l);
	strbuf_init(&sb);
	for (size_t i = 0; i < l.n; i++)
		strbuf_addf(&sb, "%s%s=%s", i ? " " : "", l.v[i].key, l.v[i].value);
	out = sorted(sb.buf ? sb.buf : "");
	strbuf_release(&sb);
	kvlist_release(&l);
	return out;
}

static void check_fields(const struct run_spec *s, const struct expect *e, size_t c, const char *config)
{
	const struct run_method *m = &s->method;

	assert_string_equal(s->name, e->name);
	assert_int_equal(m->kind, e->kind);
	assert_int_equal(m->config_index, (int)c);
	assert_string_equal(m->config_name, config);
	for (size_t k = 0; k < s->labels.n; k++) /* user labels: the suite's and the configuration's only */
		assert_true(!strcmp(s->labels.v[k].key, "keep") || !strcmp(s->labels.v[k].key, "stack"));
	switch (m->kind) {
	case RUN_METHOD_CURVE_POINT:
		assert_true(m->curve_pct == (strstr(s->name, "50%") ? 50 : 100));
		assert_non_null(strstr(m->precond_skipped, "wdpc: done for class random-write"));
		break;
	case RUN_METHOD_SWEEP_POINT:
		assert_string_equal(m->sweep_option, "iodepth");
		assert_true(m->sweep_value == (m->sweep_point == 1 ? 1 : 4));
		assert_true(s->wl.iodepth == (unsigned)m->sweep_value);
		assert_int_equal(m->nuntil, 2);
		assert_string_equal(m->until[0], "p99>5ms");
		assert_string_equal(m->until[1], "iops_gain<5%");
		assert_non_null(strstr(m->precond_skipped, "purge and wipc"));
		break;
	case RUN_METHOD_SS_ROUND:
		assert_int_equal(m->ss_round, strstr(s->name, "round1") ? 1 : 2);
		assert_int_equal(m->max_rounds, 2);
		assert_int_equal(m->round_s, 60);
		/* fall through */
	case RUN_METHOD_PURGE:
	case RUN_METHOD_WIPC:
		assert_string_equal(m->precond_class, "random-write");
		break;
	case RUN_METHOD_CURVE_MAX:
		assert_null(m->precond_skipped); /* the first workload on the target: it got the phases */
		break;
	default:
		fail();
	}
	for (size_t k = 0; k < s->engine_opts.n; k++) /* no method annotations among the engine options */
		assert_null(strstr(s->engine_opts.v[k].key, "method."));
}

/* The stored spec JSON keeps the fields: the labels written from the parsed spec are the same. */
static void check_json(const struct run_spec *s)
{
	struct run_spec back;
	struct errbuf err;
	char *json = run_spec_to_json(s), *a, *b;

	errbuf_init(&err);
	assert_non_null(strstr(json, "\"run_method\""));
	assert_int_equal(run_spec_from_json(json, &back, &err), 0);
	assert_int_equal(back.method.kind, s->method.kind);
	assert_int_equal(back.method.nuntil, s->method.nuntil);
	assert_int_equal(back.method.sweep_point, s->method.sweep_point);
	assert_int_equal(back.method.max_rounds, s->method.max_rounds);
	a = stored_labels(s);
	b = stored_labels(&back);
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(json);
	run_spec_release(&back);
}

static void test_plan_fields_and_labels(void **state)
{
	char dir[] = "/tmp/test_run_method.XXXXXX", *a, *b;
	static const char *const configs_name[] = { "one", "two" }, *const stack[] = { "a", "b" };
	struct plan_options o;
	struct method_settings m;
	struct config_list configs;
	struct plan p;
	struct errbuf err;
	const char *args[2];

	(void)state;
	assert_non_null(mkdtemp(dir));
	args[0] = a = write_file(dir, "a.suite", suite_a);
	args[1] = b = write_file(dir, "b.suite", suite_b);
	plan_options_init(&o);
	memset(&m, 0, sizeof(m));
	m.precondition = 1;
	m.max_rounds = 2;
	m.ss_window = 2;
	m.ss_max_rounds = 25;
	plan_init(&p);
	config_list_init(&configs);
	errbuf_init(&err);
	assert_int_equal(plan_build_full(args, 2, 0, &o, &m, &p, &configs, &err), 0);
	assert_int_equal(p.n, 2 * NEXPECT);
	for (size_t c = 0; c < 2; c++) {
		for (size_t i = 0; i < NEXPECT; i++) {
			const struct run_spec *s = &p.runs[c * NEXPECT + i];
			char *want_text = xasprintf("%s config=%s stack=%s", expect[i].labels, configs_name[c], stack[c]);
			char *want = sorted(want_text), *got = stored_labels(s);

			check_fields(s, &expect[i], c, configs_name[c]);
			assert_string_equal(got, want);
			check_json(s);
			free(want_text);
			free(want);
			free(got);
		}
	}
	plan_release(&p);
	config_list_release(&configs);
	plan_options_release(&o);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	rmdir(dir);
}

/* A plain run of no configuration writes no label, and its stored spec is as before (no run_method member). */
static void test_plain(void **state)
{
	struct run_spec s;
	struct kvlist l;
	char *json;

	(void)state;
	run_spec_init(&s);
	kvlist_set(&s.labels, "stack", "a");
	kvlist_init(&l);
	run_method_labels(&s, &l);
	assert_int_equal(l.n, 0);
	json = run_spec_to_json(&s);
	assert_null(strstr(json, "run_method"));
	free(json);
	kvlist_release(&l);
	run_spec_release(&s);
}

/* A run's own label wins over its method's (bench baseline labels copies of plan entries phase=baseline). */
static void test_own_label_wins(void **state)
{
	struct run_spec s;

	(void)state;
	run_spec_init(&s);
	s.method.kind = RUN_METHOD_PURGE;
	s.method.precond_class = xstrdup("random-write");
	s.method.config_name = xstrdup("one");
	kvlist_set(&s.labels, "phase", "baseline");
	run_method_labels(&s, &s.labels);
	assert_string_equal(kvlist_get(&s.labels, "phase", ""), "baseline");
	assert_string_equal(kvlist_get(&s.labels, "precondition", ""), "purge");
	assert_string_equal(kvlist_get(&s.labels, "precondition.class", ""), "random-write");
	assert_string_equal(kvlist_get(&s.labels, "config", ""), "one");
	assert_int_equal(s.labels.n, 4);
	run_spec_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_fields_and_labels),
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_own_label_wins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
