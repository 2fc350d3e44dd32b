/*
 * test_config: configurations and recipes (profiles/config.c, profiles/recipe.c).
 *  - a table of step lines and the argv, host and timeout they give, or the error;
 *  - config_argv_text quotes so that a shell reads back the same argv;
 *  - recipe templates: {p}, {p...}, {p[N]}, {#p}, {#p-K}, ?p=v conditions, defaults, required parameters,
 *    unknown parameters, teardown order of two recipes, targets replaced by the later recipe;
 *  - the crossing of a plan with configurations: order, labels, targets, sim options, seq renumbered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "profiles/config.h"
#include "profiles/profile.h"
#include "profiles/recipe.h"
#include "profiles/suite.h"

static void test_step_table(void **state)
{
	static const struct {
		const char *line, *argv, *host; /* argv words joined by '|'; NULL argv: an error containing `host` */
		unsigned timeout_s;
	} cases[] = {
		{ "mkfs.btrfs -f /dev/loop0", "mkfs.btrfs|-f|/dev/loop0", NULL, 0 },
		{ "  sh -c 'echo a  b; exit 3'  ", "sh|-c|echo a  b; exit 3", NULL, 0 },
		{ "echo \"a \\\"q\\\" b\" c'd'e", "echo|a \"q\" b|cde", NULL, 0 },
		{ "@init1 timeout=90s nvme list", "nvme|list", "init1", 90 },
		{ "timeout=2m @h true", "true", "h", 120 },
		{ "echo ''", "echo|", NULL, 0 },
		{ "echo 'open", NULL, "unterminated quote", 0 },
		{ "@h timeout=5s", NULL, "has no command", 0 },
		{ "timeout=0 true", NULL, "timeout must be 1s..24h", 0 },
		{ "timeout=25h true", NULL, "timeout must be 1s..24h", 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct config_step s;
		struct errbuf err;
		struct strbuf got;
		int rc;

		errbuf_init(&err);
		rc = config_step_parse(cases[i].line, &s, "x.suite:3", &err);
		if (!cases[i].argv) {
			if (rc == 0 || !strstr(err.msg, cases[i].host) || strncmp(err.msg, "x.suite:3: ", 11))
				fail_msg("case %zu '%s': rc %d, error '%s'", i, cases[i].line, rc, err.msg);
			continue;
		}
		if (rc < 0)
			fail_msg("case %zu '%s': %s", i, cases[i].line, err.msg);
		strbuf_init(&got);
		for (size_t k = 0; k < s.argc; k++)
			strbuf_addf(&got, "%s%s", k ? "|" : "", s.argv[k]);
		if (strcmp(got.buf ? got.buf : "", cases[i].argv) || s.timeout_s != cases[i].timeout_s ||
		    (cases[i].host ? !s.host || strcmp(s.host, cases[i].host) : s.host != NULL))
			fail_msg("case %zu '%s': argv '%s' host '%s' timeout %u", i, cases[i].line, got.buf,
				 s.host ? s.host : "", s.timeout_s);
		assert_null(s.argv[s.argc]);
		strbuf_release(&got);
		config_step_release(&s);
	}
}

static void test_argv_text_roundtrip(void **state)
{
	char *argv[] = { "sh", "-c", "printf %s \"$1\" > \"$2\"", "it's", "", "a b", "/dev/md/x:1", NULL };
	struct config_step s;
	struct errbuf err;
	char *text;

	(void)state;
	errbuf_init(&err);
	text = config_argv_text(argv);
	assert_string_equal(text, "sh -c 'printf %s \"$1\" > \"$2\"' 'it'\\''s' '' 'a b' /dev/md/x:1");
	free(text);
	/* the step parser reads back what config_argv_text wrote (words without a single quote in them) */
	char *argv2[] = { "sh", "-c", "echo \"$1\"; exit 2", "a b", "", NULL };
	text = config_argv_text(argv2);
	assert_int_equal(config_step_parse(text, &s, "t", &err), 0);
	assert_int_equal(s.argc, 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(s.argv[i], argv2[i]);
	config_step_release(&s);
	free(text);
}

static const char recipe_a[] =
	"name = ra\n"
	"description = test\n"
	"param = devices # list\n"
	"param = md=/dev/md/t\n"
	"param = kind=zvol\n"
	"members = {devices...}\n"
	"targets = ?kind=zvol /dev/zvol/{md}\n"
	"targets = ?kind=dataset /mnt/{md}/f\n"
	"setup = make --count={#devices} --data={#devices-1} --first={devices[0]} --last={devices[2]} {devices...}\n"
	"setup = ?kind=dataset mount {md}\n"
	"setup = @{md} timeout=7s remote {md}x\n"
	"teardown = undo-a {md}\n";

/* The recipe parser's own checks. */
static void parse_text(const char *text, int want_rc, const char *want_err)
{
	struct recipe r;
	struct errbuf err;

	recipe_init(&r);
	errbuf_init(&err);
	assert_int_equal(recipe_parse_text(text, strlen(text), "t.recipe", &r, &err), want_rc);
	if (want_err)
		assert_non_null(strstr(err.msg, want_err));
	recipe_release(&r);
}

static char *steps_of(const struct suite_config *c, enum config_phase ph)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t i = 0; i < c->nsteps[ph]; i++) {
		char *t = config_argv_text(c->steps[ph][i].argv);
		strbuf_addf(&sb, "%s%s%s%s", i ? "\n" : "", c->steps[ph][i].host ? c->steps[ph][i].host : "",
			    c->steps[ph][i].host ? ": " : "", t);
		free(t);
	}
	return strbuf_detach(&sb, NULL);
}

/* Writes recipe_a into a temporary library and points BENCH_LIBRARY at it (recipe_dir() is fixed once read). */
static char libdir[256];

static int setup_library(void **state)
{
	char path[512];
	FILE *f;

	(void)state;
	snprintf(libdir, sizeof(libdir), "/tmp/bench-test-config-XXXXXX");
	assert_non_null(mkdtemp(libdir));
	snprintf(path, sizeof(path), "%s/recipes", libdir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/recipes/ra.recipe", libdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(recipe_a, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/recipes/rb.recipe", libdir);
	f = fopen(path, "w");
	fputs("name = rb\nparam = dev\ntargets = /dev/nvme9n1\nsetup = export {dev}\nteardown = unexport {dev}\n"
	      "teardown = unload\n", f);
	fclose(f);
	setenv("BENCH_LIBRARY", libdir, 1);
	return 0;
}

static int remove_library(void **state)
{
	char path[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/recipes/ra.recipe", libdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/recipes/rb.recipe", libdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/recipes", libdir);
	rmdir(path);
	rmdir(libdir);
	return 0;
}

static void test_recipe_templates(void **state)
{
	struct config_list cl;
	struct suite_config *c;
	struct errbuf err;
	char *s;

	(void)state;
	config_list_init(&cl);
	errbuf_init(&err);
	c = config_list_add(&cl, "x", "t.suite", 1);
	assert_int_equal(recipe_apply(c, "ra devices=/d/a,/d/b,/d/c", "t.suite:2", &err), 0);
	s = steps_of(c, CONFIG_SETUP);
	assert_string_equal(s, "make --count=3 --data=2 --first=/d/a --last=/d/c /d/a /d/b /d/c\n"
			       "/dev/md/t: remote /dev/md/tx");
	free(s);
	assert_int_equal(c->steps[CONFIG_SETUP][1].timeout_s, 7);
	assert_int_equal(c->nmembers, 3);
	assert_int_equal(c->ntargets, 1);
	assert_string_equal(c->targets[0], "/dev/zvol//dev/md/t");
	/* a second recipe: its targets replace, its teardown runs first */
	assert_int_equal(recipe_apply(c, "rb dev=/dev/md/t", "t.suite:3", &err), 0);
	assert_int_equal(c->ntargets, 1);
	assert_string_equal(c->targets[0], "/dev/nvme9n1");
	s = steps_of(c, CONFIG_TEARDOWN);
	assert_string_equal(s, "unexport /dev/md/t\nunload\nundo-a /dev/md/t");
	free(s);
	config_list_release(&cl);

	config_list_init(&cl);
	c = config_list_add(&cl, "y", "t.suite", 1);
	assert_int_equal(recipe_apply(c, "ra devices=/d/a,/d/b,/d/c kind=dataset md=m", "t.suite:2", &err), 0);
	assert_int_equal(c->nsteps[CONFIG_SETUP], 3);
	assert_string_equal(c->targets[0], "/mnt/m/f");
	config_list_release(&cl);

	static const struct { const char *spec, *err; } bad[] = {
		{ "ra", "t.suite:2: recipe 'ra' needs devices=... (list)" },
		{ "ra devices=/d/a colour=red", "recipe 'ra' has no parameter 'colour' (parameters: devices md kind)" },
		{ "ra devices=/d/a,/d/b", "'devices' has no item 2" },
		{ "ra devices", "parameters are key=value" },
		{ "nope", "no recipe 'nope'" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		config_list_init(&cl);
		c = config_list_add(&cl, "z", "t.suite", 1);
		errbuf_init(&err);
		if (recipe_apply(c, bad[i].spec, "t.suite:2", &err) == 0 || !strstr(err.msg, bad[i].err))
			fail_msg("'%s': '%s'", bad[i].spec, err.msg);
		config_list_release(&cl);
	}
	parse_text("name = q\nsetup = a\n", -1, "needs setup and teardown");
	parse_text("name = q\nsetup = a\nteardown = b\nflavour = x\n", -1, "t.recipe:4: unknown recipe key");
	parse_text("name = q\nparam = bad name\nsetup = a\nteardown = b\n", -1, "t.recipe:2: param");
}

static void test_plan_cross(void **state)
{
	static const char text[] =
		"[suite]\nname = c\n"
		"[config one]\nlabel = stack=a\ntargets = /dev/one\nsim = sim_raid=raid5 sim_members=4\n"
		"setup = true\nteardown = true\n"
		"[config two]\nlabel = stack=b\nfio = ioengine=nbd uri=nbd://198.18.0.10:10809\n"
		"[workload w1]\nrw=read\nsize=1m\n[workload w2]\nrw=write\nsize=1m\n";
	struct suite su;
	struct plan p;
	struct errbuf err;

	(void)state;
	suite_init(&su);
	plan_init(&p);
	errbuf_init(&err);
	assert_int_equal(suite_parse_text(text, strlen(text), "c.suite", &su, &err), 0);
	assert_int_equal(su.configs.n, 2);
	for (int i = 0; i < 2; i++) {
		struct run_spec *s = plan_add(&p);
		s->name = xstrdup(i ? "w2" : "w1");
		s->engine = xstrdup("fio");
		s->targets = xcalloc(2, sizeof(char *));
		s->targets[0] = xstrdup("/tmp/f");
		s->ntargets = 1;
	}
	assert_int_equal(config_plan_cross(&p, &su.configs, 0, &err), 0);
	assert_int_equal(p.n, 4);
	static const char *const want[4][4] = {
		{ "w1", "one", "a", "/dev/one" }, { "w2", "one", "a", "/dev/one" },
		{ "w1", "two", "b", "/tmp/f" }, { "w2", "two", "b", "/tmp/f" },
	};
	for (size_t i = 0; i < 4; i++) {
		const struct run_spec *s = &p.runs[i];
		assert_int_equal(s->seq, i + 1);
		assert_string_equal(s->name, want[i][0]);
		assert_string_equal(s->method.config_name, want[i][1]);
		assert_null(kvlist_get(&s->labels, "config", NULL));
		assert_string_equal(kvlist_get(&s->labels, "stack", ""), want[i][2]);
		assert_string_equal(s->targets[0], want[i][3]);
		/* sim options only for the sim engine; fio options for the fio engine */
		assert_int_equal(s->engine_opts.n, i < 2 ? 0 : 2);
		if (i >= 2) {
			assert_string_equal(kvlist_get(&s->engine_opts, "ioengine", ""), "nbd");
			assert_string_equal(kvlist_get(&s->engine_opts, "uri", ""), "nbd://198.18.0.10:10809");
		}
	}
	/* with --target the runs keep theirs; with the sim engine they get the sim options */
	plan_release(&p);
	plan_init(&p);
	struct run_spec *s = plan_add(&p);
	s->name = xstrdup("w");
	s->engine = xstrdup("sim");
	assert_int_equal(config_plan_cross(&p, &su.configs, 1, &err), 0);
	assert_string_equal(kvlist_get(&p.runs[0].engine_opts, "sim_raid", ""), "raid5");
	assert_int_equal(p.runs[0].ntargets, 0);
	assert_null(kvlist_get(&p.runs[1].engine_opts, "ioengine", NULL)); /* fio options not for the sim engine */
	plan_release(&p);
	suite_release(&su);

	static const struct { const char *val, *err; } bad[] = {
		{ "ioengine", "t.suite:3: fio = KEY=VALUE... (fio options of the runs), got 'ioengine'" },
		{ "rw=read method.until=x", "t.suite:3: fio = 'method.until': not a fio option name" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct config_list cl;
		struct suite_config *c;
		config_list_init(&cl);
		c = config_list_add(&cl, "z", "t.suite", 1);
		errbuf_init(&err);
		assert_int_equal(config_key(c, "fio", bad[i].val, "t.suite", 3, &err), -1);
		assert_string_equal(err.msg, bad[i].err);
		assert_int_equal(c->fio_opts.n, 0); /* nothing kept from a refused line */
		config_list_release(&cl);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_table),
		cmocka_unit_test(test_argv_text_roundtrip),
		cmocka_unit_test_setup_teardown(test_recipe_templates, setup_library, remove_library),
		cmocka_unit_test(test_plan_cross),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
