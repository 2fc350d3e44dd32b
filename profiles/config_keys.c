/*
 * config_keys: one `key = value` line of a [config NAME] section (docs/suite-format.md): the phases' steps,
 * labels, targets, members, recipes (expanded into steps by recipe.c), sim options, fio options, precondition keys, the
 * default host and timeout. Apart from config.c so that the configuration model does not depend on the recipes
 * (recipe.h builds on config.h). Never prints; errors carry file:line.
 */
#include "profiles/config.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "profiles/recipe.h"

static int add_words(char ***v, size_t *n, const char *val)
{
	char **w;
	size_t k;

	if (config_split_words(val, &w, &k) < 0 || !k) {
		config_words_free(w, k);
		return -1;
	}
	*v = xrealloc(*v, (*n + k + 1) * sizeof(**v));
	for (size_t i = 0; i < k; i++)
		(*v)[(*n)++] = w[i];
	(*v)[*n] = NULL;
	free(w);
	return 0;
}

static int add_kv_words(struct kvlist *into, const char *val)
{
	char **w = NULL;
	size_t n = 0;
	int rc = 0;

	if (config_split_words(val, &w, &n) < 0 || !n)
		rc = -1;
	for (size_t i = 0; !rc && i < n; i++) {
		char *k, *v;
		if (kv_parse_label(w[i], &k, &v) < 0) {
			rc = -1;
			break;
		}
		kvlist_set(into, k, v);
		free(k);
		free(v);
	}
	config_words_free(w, n);
	return rc;
}

/*
 * fio = KEY=VALUE...: fio options of the configuration's runs (e.g. the transport's ioengine=nbd and uri=),
 * carried as engine options, so what fio opens is still decided in one place (engines/fio_jobfile.c
 * fio_files_plan reads them). A key with a dot would be taken for one of bench's annotations and never reach fio.
 * baseline.fio = KEY=VALUE...: the same, over them, for the configuration's transport baseline only (with
 * `baseline = on`: the workload on the same transport to a null export, bench/baseline_plan.c).
 */
static int fio_key(struct kvlist *into, const char *key, const char *val, const char *origin, struct errbuf *err)
{
	struct kvlist kv;
	int rc = 0;

	kvlist_init(&kv);
	if (add_kv_words(&kv, val) < 0)
		rc = err_set(err, ERR_INPUT, "%s: %s = KEY=VALUE... (fio options of the %s), got '%s'", origin, key,
			     strcmp(key, "fio") ? "transport baseline" : "runs", val);
	for (size_t i = 0; !rc && i < kv.n; i++)
		if (strchr(kv.v[i].key, '.') || !*kv.v[i].key)
			rc = err_set(err, ERR_INPUT, "%s: %s = '%s': not a fio option name", origin, key, kv.v[i].key);
	for (size_t i = 0; !rc && i < kv.n; i++)
		kvlist_set(into, kv.v[i].key, kv.v[i].value);
	kvlist_release(&kv);
	return rc;
}

static int phase_of(const char *key)
{
	for (int ph = 0; ph < CONFIG_NPHASES; ph++)
		if (!strcmp(key, config_phase_name((enum config_phase)ph)))
			return ph;
	return -1;
}

int config_key(struct suite_config *c, const char *key, const char *val, const char *file, int line,
	       struct errbuf *err)
{
	char *origin = xasprintf("%s:%d", file, line);
	int ph, rc = 0;

	if (!val || !*val) {
		rc = err_set(err, ERR_INPUT, "%s: '%s' needs a value (key = value)", origin, key);
	} else if ((ph = phase_of(key)) >= 0) {
		struct config_step s;
		if ((rc = config_step_parse(val, &s, origin, err)) == 0) {
			config_add_step(c, (enum config_phase)ph, &s);
			config_step_release(&s);
		}
	} else if (!strcmp(key, "label")) {
		char *k, *v;
		if (kv_parse_label(val, &k, &v) < 0 || !strcmp(k, "config")) {
			rc = err_set(err, ERR_INPUT, "%s: label must be key=value (not config=, bench sets it), got '%s'",
				     origin, val);
		} else {
			kvlist_set(&c->labels, k, v);
			free(k);
			free(v);
		}
	} else if (!strcmp(key, "targets")) {
		if (add_words(&c->targets, &c->ntargets, val) < 0)
			rc = err_set(err, ERR_INPUT, "%s: targets = PATH... (blank-separated), got '%s'", origin, val);
	} else if (!strcmp(key, "members")) {
		if (add_words(&c->members, &c->nmembers, val) < 0)
			rc = err_set(err, ERR_INPUT, "%s: members = DEVICE... (blank-separated), got '%s'", origin, val);
	} else if (!strcmp(key, "recipe")) {
		if ((rc = recipe_apply(c, val, origin, err)) == 0) {
			c->recipes = xrealloc(c->recipes, (c->nrecipes + 2) * sizeof(*c->recipes));
			c->recipes[c->nrecipes++] = xstrdup(val);
			c->recipes[c->nrecipes] = NULL;
		}
	} else if (!strcmp(key, "sim")) {
		if (add_kv_words(&c->sim_opts, val) < 0)
			rc = err_set(err, ERR_INPUT, "%s: sim = KEY=VALUE... (sim engine options), got '%s'", origin, val);
	} else if (!strcmp(key, "fio")) {
		rc = fio_key(&c->fio_opts, key, val, origin, err);
	} else if (!strcmp(key, "baseline.fio")) {
		rc = fio_key(&c->baseline_fio, key, val, origin, err);
	} else if (!strncmp(key, "precondition.", 13) && key[13]) {
		kvlist_set(&c->precondition, key + 13, val);
	} else if (!strcmp(key, "host")) {
		free(c->host);
		c->host = xstrdup(val);
	} else if (!strcmp(key, "timeout")) {
		if (config_timeout_parse(val, &c->timeout_s) < 0)
			rc = err_set(err, ERR_INPUT, "%s: 'timeout' must be 1s..24h, got '%s'", origin, val);
	} else {
		rc = err_set(err, ERR_INPUT, "%s: unknown config key '%s' (label setup check record teardown targets "
			     "members recipe sim fio baseline.fio precondition.KEY host timeout)", origin, key);
	}
	free(origin);
	return rc < 0 ? -1 : 0;
}
