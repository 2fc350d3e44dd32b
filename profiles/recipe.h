/*
 * recipe: the recipes of the library (profiles/library/recipes/NAME.recipe, docs/recipes.md): data files that
 * say, with named parameters, the exact commands that build a storage stack or a transport export (setup),
 * prove it is there (check), describe it (record) and remove it (teardown), the devices it builds on (members:
 * refused when they hold data unless --destructive) and the targets it provides. `recipe = NAME key=value...`
 * in a [config] section expands one into the configuration's steps. Never prints.
 */
#ifndef BENCH_PROFILES_RECIPE_H
#define BENCH_PROFILES_RECIPE_H

#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "profiles/config.h"

struct recipe_param {
	char *name;
	char *def;               /* default, or NULL: required */
	char *doc;
};

struct recipe {
	char *name, *description, *file;
	struct recipe_param *params;
	size_t nparams;
	struct kvlist labels;    /* label = k=v (values may hold {param}) */
	char **members;          /* members = WORDS lines (templates, ?p=v conditions allowed) */
	size_t nmembers;
	unsigned min_members;    /* min_members = N: fewer member devices are refused (0: no minimum) */
	char **targets;          /* targets = WORDS lines (templates, ?p=v conditions allowed) */
	size_t ntargets;
	char **lines[CONFIG_NPHASES]; /* step templates per phase, in order */
	int *line_no[CONFIG_NPHASES];
	size_t nlines[CONFIG_NPHASES];
};

void recipe_init(struct recipe *r);
void recipe_release(struct recipe *r);

/* Directory of the recipes: <paths_library_dir()>/recipes. Static. */
const char *recipe_dir(void);

/* Loads recipe NAME from recipe_dir() (-1, ERR_INPUT with the known names when there is none). */
int recipe_load(const char *name, struct recipe *out, struct errbuf *err);
int recipe_parse_text(const char *text, size_t len, const char *file, struct recipe *out, struct errbuf *err);

/* The names of the recipes in recipe_dir(), sorted (NULL-terminated, free with free_list). */
char **recipe_names(void);

/*
 * Applies recipe `spec` ("NAME key=value...") to configuration `c`: checks every key is a parameter and every
 * required parameter is given, substitutes the templates ({p}: the value; {p...} as a whole word: one word per
 * comma-separated item; {p[N]}: item N from 0; {#p}: the number of items, {#p-K}: that less K; a step whose first word is ?p=v runs only when p is v) and
 * appends the steps, members, targets and labels. `origin` is "file:line" for messages.
 */
int recipe_apply(struct suite_config *c, const char *spec, const char *origin, struct errbuf *err);

#endif
