/*
 * cmd_recipes: `bench recipes list` names the recipes of the library (profiles/library/recipes/NAME.recipe,
 * docs/recipes.md) with their descriptions; `bench recipes show NAME [key=value...]` prints a recipe's
 * parameters and step templates and, with parameters, the exact commands a [config] section with
 * `recipe = NAME key=value...` would run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "core/strbuf.h"
#include "profiles/config.h"
#include "profiles/recipe.h"
#include "profiles/suite.h"
#include "profiles/text.h"

static void usage(void)
{
	printf("usage: bench recipes list\n"
	       "       bench recipes show NAME [KEY=VALUE...]\n\n"
	       "Recipes build and remove storage stacks and transport exports for the [config] sections of suite\n"
	       "files (`recipe = NAME KEY=VALUE...`, docs/recipes.md): their parameters and the exact setup, check,\n"
	       "record and teardown commands.\n\n"
	       "  list                 each recipe's name and description\n"
	       "  show NAME            its parameters (defaults) and step templates\n"
	       "  show NAME K=V...     the commands with these parameters, as `bench plan` shows them\n\n");
	opt_help(stdout, OPT_RECIPES);
	printf("\nThe recipes are files in %s (BENCH_LIBRARY overrides the library).\n"
	       "\nexit codes: 0 ok, 2 usage error, 3 no such recipe or a bad parameter.\n",
	       recipe_dir());
}

static int list(void)
{
	char **v = recipe_names();

	for (size_t i = 0; v[i]; i++) {
		struct recipe r;
		struct errbuf err;

		recipe_init(&r);
		errbuf_init(&err);
		if (recipe_load(v[i], &r, &err) < 0)
			printf("%-16s (unreadable: %s)\n", v[i], err.msg);
		else
			printf("%-16s %s\n", v[i], r.description ? r.description : "");
		recipe_release(&r);
	}
	if (!v[0])
		fprintf(stderr, "no recipes in %s\n", recipe_dir());
	free_list(v);
	return EXIT_OK;
}

static void show_templates(const struct recipe *r)
{
	printf("recipe %s: %s\n  file: %s\n\nparameters:\n", r->name, r->description ? r->description : "", r->file);
	for (size_t i = 0; i < r->nparams; i++) {
		const struct recipe_param *p = &r->params[i];
		printf("  %-12s %-28s %s\n", p->name, p->def ? p->def : "(required)", p->doc ? p->doc : "");
	}
	putchar('\n');
	for (size_t i = 0; i < r->nmembers; i++)
		printf("members   %s\n", r->members[i]);
	for (size_t i = 0; i < r->ntargets; i++)
		printf("targets   %s\n", r->targets[i]);
	for (size_t i = 0; i < r->labels.n; i++)
		printf("label     %s=%s\n", r->labels.v[i].key, r->labels.v[i].value);
	putchar('\n');
	for (int ph = 0; ph < CONFIG_NPHASES; ph++)
		for (size_t i = 0; i < r->nlines[ph]; i++)
			printf("%-9s %s\n", config_phase_name((enum config_phase)ph), r->lines[ph][i]);
}

static int show(int argc, char **argv)
{
	struct recipe r;
	struct errbuf err;
	struct strbuf spec;
	struct config_list cl;
	struct suite_config *c;
	int code = EXIT_OK;

	recipe_init(&r);
	errbuf_init(&err);
	if (recipe_load(argv[0], &r, &err) < 0) {
		recipe_release(&r);
		return cli_fail(&err);
	}
	if (argc == 1) {
		show_templates(&r);
		recipe_release(&r);
		return EXIT_OK;
	}
	strbuf_init(&spec);
	for (int i = 0; i < argc; i++)
		strbuf_addf(&spec, "%s%s", i ? " " : "", argv[i]);
	config_list_init(&cl);
	c = config_list_add(&cl, argv[0], "command line", 0);
	if (recipe_apply(c, spec.buf, "bench recipes show", &err) < 0) {
		code = cli_fail(&err);
	} else {
		printf("recipe %s with %s\n", r.name, spec.buf + strlen(argv[0]) + (argc > 1));
		if (c->nmembers) {
			fputs("members  ", stdout);
			for (size_t k = 0; k < c->nmembers; k++)
				printf(" %s", c->members[k]);
			putchar('\n');
		}
		if (c->ntargets) {
			fputs("targets  ", stdout);
			for (size_t k = 0; k < c->ntargets; k++)
				printf(" %s", c->targets[k]);
			putchar('\n');
		}
		for (int ph = 0; ph < CONFIG_NPHASES; ph++)
			for (size_t k = 0; k < c->nsteps[ph]; k++) {
				const struct config_step *s = &c->steps[ph][k];
				char *line = config_argv_text(s->argv);
				printf("%-9s %s%s%s\n", config_phase_name((enum config_phase)ph), s->host ? s->host : "",
				       s->host ? " " : "", line);
				free(line);
			}
	}
	config_list_release(&cl);
	strbuf_release(&spec);
	recipe_release(&r);
	return code;
}

int cmd_recipes(int argc, char **argv)
{
	if (argc >= 2 && argv[1][0] == '-' && strcmp(argv[1], "-h") && strcmp(argv[1], "--help")) {
		int argi = 0;
		if (opt_getopt("recipes", OPT_RECIPES, argc, argv, &argi) == '?')
			return EXIT_USAGE; /* an unknown option, with "did you mean" */
	}
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage();
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(argv[1], "list") && argc == 2)
		return list();
	if (!strcmp(argv[1], "show") && argc >= 3)
		return show(argc - 2, argv + 2);
	return cli_usage("recipes", "expected 'list' or 'show NAME [KEY=VALUE...]', got '%s'", argv[1]);
}
