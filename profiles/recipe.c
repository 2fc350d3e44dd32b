/*
 * recipe: loading the library's recipe files and expanding one into a configuration's steps (see recipe.h and
 * docs/recipes.md). A recipe file is `key = value` lines: name, description, `param = NAME[=DEFAULT] [# doc]`
 * (repeatable; no default: required), label, members, targets, and setup / check / record / teardown step
 * templates (repeatable, in order).
 */
#include "profiles/recipe.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/paths.h"
#include "core/strbuf.h"
#include "core/suggest.h"
#include "profiles/suite.h"
#include "profiles/text.h"

void recipe_init(struct recipe *r)
{
	memset(r, 0, sizeof(*r));
	kvlist_init(&r->labels);
}

void recipe_release(struct recipe *r)
{
	static const size_t own[] = { offsetof(struct recipe, name), offsetof(struct recipe, description),
				      offsetof(struct recipe, file) };
	static const size_t param_own[] = { offsetof(struct recipe_param, name),
					    offsetof(struct recipe_param, def),
					    offsetof(struct recipe_param, doc) };

	if (!r)
		return;
	free_members(r, own, sizeof(own) / sizeof(own[0]));
	array_free_members(r->params, r->nparams, sizeof(*r->params), param_own,
			   sizeof(param_own) / sizeof(param_own[0]));
	kvlist_release(&r->labels);
	config_words_free(r->members, r->nmembers);
	config_words_free(r->targets, r->ntargets);
	for (int ph = 0; ph < CONFIG_NPHASES; ph++) {
		config_words_free(r->lines[ph], r->nlines[ph]);
		free(r->line_no[ph]);
	}
	recipe_init(r);
}

const char *recipe_dir(void)
{
	static char dir[4096];

	if (!dir[0])
		snprintf(dir, sizeof(dir), "%s/recipes", paths_library_dir());
	return dir;
}

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

static int add_param(struct recipe *r, char *val, const char *file, int line, struct errbuf *err)
{
	char *doc = strstr(val, " #"), *eq;
	struct recipe_param *p;

	if (doc) {
		*doc = '\0';
		doc = profile_trim(doc + 2);
	}
	val = profile_trim(val);
	eq = strchr(val, '=');
	if (eq)
		*eq = '\0';
	if (!valid_name(profile_trim(val)))
		return err_set(err, ERR_INPUT, "%s:%d: param = NAME[=DEFAULT] with a name of letters, digits, '_', '-'",
			       file, line);
	r->params = xrealloc(r->params, (r->nparams + 1) * sizeof(*r->params));
	p = &r->params[r->nparams++];
	p->name = xstrdup(profile_trim(val));
	p->def = eq ? xstrdup(profile_trim(eq + 1)) : NULL;
	p->doc = xstrdup(doc);
	return 0;
}

static int recipe_line(struct recipe *r, char *key, char *val, const char *file, int line, struct errbuf *err)
{
	int common;

	for (int ph = 0; ph < CONFIG_NPHASES; ph++) {
		if (strcmp(key, config_phase_name((enum config_phase)ph)))
			continue;
		r->lines[ph] = xrealloc(r->lines[ph], (r->nlines[ph] + 1) * sizeof(char *));
		r->line_no[ph] = xrealloc(r->line_no[ph], (r->nlines[ph] + 1) * sizeof(int));
		r->line_no[ph][r->nlines[ph]] = line;
		r->lines[ph][r->nlines[ph]++] = xstrdup(val);
		return 0;
	}
	if ((common = profile_common_key(key, val, &r->name, &r->description, &r->labels, file, line, err)) != 0)
		return common < 0 ? -1 : 0;
	if (!strcmp(key, "param")) {
		return add_param(r, val, file, line, err);
	} else if (!strcmp(key, "members")) {
		r->members = xrealloc(r->members, (r->nmembers + 1) * sizeof(char *));
		r->members[r->nmembers++] = xstrdup(val);
	} else if (!strcmp(key, "min_members")) {
		char *end;
		unsigned long n = strtoul(val, &end, 10);
		if (end == val || *profile_trim(end) || n > 1024)
			return err_set(err, ERR_INPUT, "%s:%d: min_members wants a whole number, got '%s'", file, line, val);
		r->min_members = (unsigned)n;
	} else if (!strcmp(key, "targets")) {
		r->targets = xrealloc(r->targets, (r->ntargets + 1) * sizeof(char *));
		r->targets[r->ntargets++] = xstrdup(val);
	} else {
		return err_set(err, ERR_INPUT, "%s:%d: unknown recipe key '%s' (name description param label members "
			       "min_members targets setup check record teardown)", file, line, key);
	}
	return 0;
}

int recipe_parse_text(const char *text, size_t len, const char *file, struct recipe *r, struct errbuf *err)
{
	const char *p = text, *end = text + len;
	int line = 0;

	free(r->file);
	r->file = xstrdup(file);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *raw = xstrndup(p, n), *l = profile_trim(raw), *eq;
		int rc;

		line++;
		p = nl ? nl + 1 : end;
		if (!*l || *l == '#') {
			free(raw);
			continue;
		}
		eq = strchr(l, '=');
		if (!eq || !*profile_trim(eq + 1)) {
			free(raw);
			return err_set(err, ERR_INPUT, "%s:%d: expected key = value", file, line);
		}
		*eq = '\0';
		rc = recipe_line(r, profile_trim(l), profile_trim(eq + 1), file, line, err);
		free(raw);
		if (rc < 0)
			return -1;
	}
	if (!r->name)
		return err_set(err, ERR_INPUT, "%s: a recipe needs 'name ='", file);
	if (!r->nlines[CONFIG_SETUP] || !r->nlines[CONFIG_TEARDOWN])
		return err_set(err, ERR_INPUT, "%s: recipe '%s' needs setup and teardown steps", file, r->name);
	return 0;
}

char **recipe_names(void)
{
	return profile_dir_names(recipe_dir(), ".recipe");
}

int recipe_load(const char *name, struct recipe *out, struct errbuf *err)
{
	struct strbuf sb, names;
	char *path;
	int rc;

	if (!valid_name(name))
		return err_set(err, ERR_INPUT, "'%s' is not a recipe name", name);
	path = xasprintf("%s/%s.recipe", recipe_dir(), name);
	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) < 0) {
		char **v = recipe_names();
		strbuf_init(&names);
		for (size_t i = 0; v[i]; i++)
			strbuf_addf(&names, "%s%s", i ? " " : "", v[i]);
		{
			size_t n = 0;
			const char *near;
			while (v[n])
				n++;
			near = suggest_closest(name, (const char *const *)v, n);
			if (near)
				err_set(err, ERR_INPUT, "no recipe '%s': did you mean '%s'? (recipes: %s)", name, near,
					names.buf);
			else
				err_set(err, ERR_INPUT, "no recipe '%s' in %s (recipes: %s)", name, recipe_dir(),
					names.len ? names.buf : "none");
		}
		free_list(v);
		strbuf_release(&names);
		strbuf_release(&sb);
		free(path);
		return -1;
	}
	rc = recipe_parse_text(sb.buf, sb.len, path, out, err);
	strbuf_release(&sb);
	free(path);
	return rc;
}

/* ---- expansion ------------------------------------------------------------------------------------------ */

struct subst {
	const struct recipe *r;
	const struct kvlist *vals;   /* every parameter's value, defaults filled in */
	const char *origin;
	struct errbuf *err;
};

/* Substitutes one word; appends the resulting words (a {p...} word gives one per list item). */
static int subst_word(const struct subst *sx, const char *w, char ***out, size_t *n)
{
	struct strbuf sb;
	const char *p = w;

	if (w[0] == '{' && strlen(w) > 5 && !strcmp(w + strlen(w) - 4, "...}")) {
		char *name = xstrndup(w + 1, strlen(w) - 5);
		const char *v = kvlist_get(sx->vals, name, NULL);
		char **items = v && *v ? split_list(v, ',', NULL) : NULL;
		if (!v) {
			err_set(sx->err, ERR_INPUT, "%s: recipe '%s': unknown parameter '%s' in '%s'", sx->origin,
				sx->r->name, name, w);
			free(name);
			return -1;
		}
		for (size_t i = 0; items && items[i]; i++) {
			*out = xrealloc(*out, (*n + 2) * sizeof(**out));
			(*out)[(*n)++] = xstrdup(items[i]);
			(*out)[*n] = NULL;
		}
		free_list(items);
		free(name);
		return 0;
	}
	strbuf_init(&sb);
	while (*p) {
		const char *e;
		char *name, *br;
		const char *v;
		long idx = -1;

		if (*p != '{' || !(e = strchr(p, '}'))) {
			strbuf_addc(&sb, *p++);
			continue;
		}
		name = xstrndup(p + 1, (size_t)(e - p - 1));
		if (name[0] == '#') { /* {#p} items of p, {#p-K} less K */
			char *minus = strchr(name, '-'), *end = NULL;
			long k = minus ? strtol(minus + 1, &end, 10) : 0;
			size_t cnt = 0;
			char **items;
			if (minus)
				*minus = '\0';
			v = kvlist_get(sx->vals, name + 1, NULL);
			items = v && *v ? split_list(v, ',', &cnt) : NULL;
			free_list(items);
			if (!v || (minus && (end == minus + 1 || *end || k < 0 || (size_t)k > cnt))) {
				err_set(sx->err, ERR_INPUT, "%s: recipe '%s': bad count '%.*s' in '%s'", sx->origin,
					sx->r->name, (int)(e - p + 1), p, w);
				free(name);
				strbuf_release(&sb);
				return -1;
			}
			strbuf_addf(&sb, "%zu", cnt - (size_t)k);
			free(name);
			p = e + 1;
			continue;
		}
		if ((br = strchr(name, '['))) {
			char *end;
			idx = strtol(br + 1, &end, 10);
			if (end == br + 1 || strcmp(end, "]") || idx < 0)
				idx = -2;
			*br = '\0';
		}
		v = kvlist_get(sx->vals, name, NULL);
		if (!v || idx == -2) {
			err_set(sx->err, ERR_INPUT, "%s: recipe '%s': %s '%.*s' in '%s'", sx->origin, sx->r->name,
				v ? "bad index" : "unknown parameter", (int)(e - p + 1), p, w);
			free(name);
			strbuf_release(&sb);
			return -1;
		}
		if (idx >= 0) {
			size_t cnt = 0;
			char **items = split_list(v, ',', &cnt);
			if (!items || (size_t)idx >= cnt) {
				err_set(sx->err, ERR_INPUT, "%s: recipe '%s': '%s' has no item %ld", sx->origin, sx->r->name,
					name, idx);
				free_list(items);
				free(name);
				strbuf_release(&sb);
				return -1;
			}
			strbuf_adds(&sb, items[idx]);
			free_list(items);
		} else {
			strbuf_adds(&sb, v);
		}
		free(name);
		p = e + 1;
	}
	*out = xrealloc(*out, (*n + 2) * sizeof(**out));
	(*out)[(*n)++] = strbuf_detach(&sb, NULL);
	(*out)[*n] = NULL;
	return 0;
}

/* Substitutes a template line into words (shell-like splitting first, then substitution of each word). */
static int subst_line(const struct subst *sx, const char *tmpl, char ***out, size_t *n, int *skip)
{
	struct config_step raw;
	struct errbuf e2;
	size_t start = 0;

	*out = NULL;
	*n = 0;
	*skip = 0;
	errbuf_init(&e2);
	if (config_step_parse(tmpl, &raw, sx->origin, &e2) < 0)
		return err_set(sx->err, ERR_INPUT, "recipe '%s': %s", sx->r->name, e2.msg);
	while (start < raw.argc && raw.argv[start][0] == '?') {
		const char *cond = raw.argv[start] + 1, *eq = strchr(cond, '=');
		char *name = eq ? xstrndup(cond, (size_t)(eq - cond)) : xstrdup(cond);
		const char *v = kvlist_get(sx->vals, name, NULL);
		if (!v) {
			err_set(sx->err, ERR_INPUT, "%s: recipe '%s': unknown parameter '%s' in condition '%s'", sx->origin,
				sx->r->name, name, raw.argv[start]);
			free(name);
			config_step_release(&raw);
			return -1;
		}
		if (eq ? strcmp(v, eq + 1) : !*v)
			*skip = 1;
		free(name);
		start++;
	}
	/* the step's own @HOST and timeout= words are kept, written back in front */
	if (raw.host) {
		char *h = xasprintf("@%s", raw.host);
		if (subst_word(sx, h, out, n) < 0) {
			free(h);
			goto fail;
		}
		free(h);
	}
	if (raw.timeout_s) {
		*out = xrealloc(*out, (*n + 2) * sizeof(**out));
		(*out)[(*n)++] = xasprintf("timeout=%us", raw.timeout_s);
		(*out)[*n] = NULL;
	}
	for (size_t i = start; i < raw.argc; i++)
		if (subst_word(sx, raw.argv[i], out, n) < 0)
			goto fail;
	config_step_release(&raw);
	return 0;
fail:
	config_step_release(&raw);
	for (size_t i = 0; i < *n; i++)
		free((*out)[i]);
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}

/* Parses "NAME k=v..." against the recipe's parameters into `vals` (defaults filled in). */
static int recipe_values(const struct recipe *r, char **w, size_t nw, struct kvlist *vals, const char *origin,
			 struct errbuf *err)
{
	for (size_t i = 1; i < nw; i++) {
		char *k, *v;
		int known = 0;
		if (kv_parse_label(w[i], &k, &v) < 0)
			return err_set(err, ERR_INPUT, "%s: recipe '%s': parameters are key=value, got '%s'", origin,
				       r->name, w[i]);
		for (size_t p = 0; p < r->nparams; p++)
			known |= !strcmp(r->params[p].name, k);
		if (!known) {
			struct strbuf names;
			strbuf_init(&names);
			for (size_t p = 0; p < r->nparams; p++)
				strbuf_addf(&names, "%s%s", p ? " " : "", r->params[p].name);
			err_set(err, ERR_INPUT, "%s: recipe '%s' has no parameter '%s' (parameters: %s)", origin, r->name,
				k, names.buf ? names.buf : "none");
			strbuf_release(&names);
			free(k);
			free(v);
			return -1;
		}
		kvlist_set(vals, k, v);
		free(k);
		free(v);
	}
	for (size_t p = 0; p < r->nparams; p++) {
		if (kvlist_find(vals, r->params[p].name))
			continue;
		if (!r->params[p].def)
			return err_set(err, ERR_INPUT, "%s: recipe '%s' needs %s=... (%s)", origin, r->name,
				       r->params[p].name, r->params[p].doc ? r->params[p].doc : "required");
		kvlist_set(vals, r->params[p].name, r->params[p].def);
	}
	return 0;
}

/* Appends the substituted words of `tmpl` to *v. */
static int subst_list(const struct subst *sx, const char *tmpl, char ***v, size_t *nv)
{
	char **w;
	size_t n;
	int skip;

	if (!tmpl)
		return 0;
	if (subst_line(sx, tmpl, &w, &n, &skip) < 0)
		return -1;
	if (skip) {
		config_words_free(w, n);
		return 0;
	}
	*v = xrealloc(*v, (*nv + n + 1) * sizeof(**v));
	for (size_t i = 0; i < n; i++)
		(*v)[(*nv)++] = w[i];
	(*v)[*nv] = NULL;
	free(w);
	return 0;
}

/* Moves v[from..n) in front of v[0..from), keeping each block's order. */
static void rotate_front(struct config_step *v, size_t n, size_t from)
{
	for (size_t k = from; k < n; k++) {
		struct config_step t = v[k];
		memmove(&v[k - from + 1], &v[k - from], from * sizeof(*v));
		v[k - from] = t;
	}
}

static int apply_steps(struct suite_config *c, const struct subst *sx)
{
	const struct recipe *r = sx->r;

	for (int ph = 0; ph < CONFIG_NPHASES; ph++) {
		size_t before = c->nsteps[ph];
		for (size_t i = 0; i < r->nlines[ph]; i++) {
			struct config_step s;
			char **w, *line, *origin;
			size_t n;
			int skip, rc;

			if (subst_line(sx, r->lines[ph][i], &w, &n, &skip) < 0)
				return -1;
			if (skip) {
				config_words_free(w, n);
				continue;
			}
			/* re-parse the substituted words so that @HOST and timeout= are read as the step's */
			line = config_argv_text(w);
			config_words_free(w, n);
			origin = xasprintf("recipe %s (%s:%d)", r->name, r->file, r->line_no[ph][i]);
			rc = config_step_parse(line, &s, origin, sx->err);
			free(line);
			free(origin);
			if (rc < 0)
				return -1;
			config_add_step(c, (enum config_phase)ph, &s);
			config_step_release(&s);
		}
		if (ph == CONFIG_TEARDOWN && before) /* the last recipe built is the first removed */
			rotate_front(c->steps[ph], c->nsteps[ph], before);
	}
	return 0;
}

int recipe_apply(struct suite_config *c, const char *spec, const char *origin, struct errbuf *err)
{
	struct recipe r;
	struct kvlist vals;
	struct config_step words;
	struct subst sx;
	int rc = -1;

	recipe_init(&r);
	kvlist_init(&vals);
	memset(&words, 0, sizeof(words));
	if (config_step_parse(spec, &words, origin, err) < 0)
		goto out;
	if (recipe_load(words.argv[0], &r, err) < 0) {
		char *m = xstrdup(err->msg);
		err_set(err, ERR_INPUT, "%s: %s", origin, m);
		free(m);
		goto out;
	}
	if (recipe_values(&r, words.argv, words.argc, &vals, origin, err) < 0)
		goto out;
	sx.r = &r;
	sx.vals = &vals;
	sx.origin = origin;
	sx.err = err;
	if (apply_steps(c, &sx) < 0)
		goto out;
	{
		size_t before = c->nmembers;
		for (size_t i = 0; i < r.nmembers; i++)
			if (subst_list(&sx, r.members[i], &c->members, &c->nmembers) < 0)
				goto out;
		if (c->nmembers - before < r.min_members) {
			err_set(err, ERR_INPUT, "%s: recipe '%s' needs at least %u member devices, got %zu", origin,
				r.name ? r.name : words.argv[0], r.min_members, c->nmembers - before);
			goto out;
		}
	}
	if (r.ntargets) {
		/* a later recipe (a transport over a stack) provides the configuration's targets */
		config_words_free(c->targets, c->ntargets);
		c->targets = NULL;
		c->ntargets = 0;
		for (size_t i = 0; i < r.ntargets; i++)
			if (subst_list(&sx, r.targets[i], &c->targets, &c->ntargets) < 0)
				goto out;
	}
	for (size_t i = 0; i < r.labels.n; i++) {
		char **w = NULL;
		size_t n = 0;
		int skip;
		if (subst_line(&sx, r.labels.v[i].value, &w, &n, &skip) < 0)
			goto out;
		if (n && !kvlist_find(&c->labels, r.labels.v[i].key))
			kvlist_set(&c->labels, r.labels.v[i].key, w[0]);
		config_words_free(w, n);
	}
	rc = 0;
out:
	config_step_release(&words);
	kvlist_release(&vals);
	recipe_release(&r);
	return rc;
}
