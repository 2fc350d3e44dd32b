/*
 * config: the configurations of a suite in their parsed form (lists, steps, the quoting of step lines) and the
 * crossing of a plan with them (see config.h). The keys of a [config] section are read in config_keys.c, the
 * configurations of a suite come with its plan (plan_build_configs: one read of the file).
 */
#include "profiles/config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/strbuf.h"
#include "profiles/fio_job.h"
#include "profiles/profile.h"

static const char *const phase_names[CONFIG_NPHASES] = { "setup", "check", "record", "teardown" };

const char *config_phase_name(enum config_phase ph)
{
	return ph < CONFIG_NPHASES ? phase_names[ph] : "?";
}

void config_list_init(struct config_list *l)
{
	memset(l, 0, sizeof(*l));
}

void config_words_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void config_release(struct suite_config *c)
{
	free(c->name);
	free(c->file);
	kvlist_release(&c->labels);
	for (int ph = 0; ph < CONFIG_NPHASES; ph++) {
		for (size_t i = 0; i < c->nsteps[ph]; i++)
			config_step_release(&c->steps[ph][i]);
		free(c->steps[ph]);
	}
	config_words_free(c->targets, c->ntargets);
	config_words_free(c->members, c->nmembers);
	config_words_free(c->recipes, c->nrecipes);
	kvlist_release(&c->sim_opts);
	kvlist_release(&c->fio_opts);
	kvlist_release(&c->baseline_fio);
	kvlist_release(&c->precondition);
	free(c->host);
}

void config_list_release(struct config_list *l)
{
	if (!l)
		return;
	ARRAY_RELEASE(l->v, l->n, config_release);
	config_list_init(l);
}

struct suite_config *config_list_add(struct config_list *l, const char *name, const char *file, int line)
{
	struct suite_config *c;

	ARRAY_GROW(l->v, l->cap, l->n + 1);
	c = &l->v[l->n++];
	*c = (struct suite_config){ .name = xstrdup(name), .file = xstrdup(file), .line = line };
	kvlist_init(&c->labels);
	kvlist_init(&c->sim_opts);
	kvlist_init(&c->fio_opts);
	kvlist_init(&c->baseline_fio);
	kvlist_init(&c->precondition);
	return c;
}

static char **strv_dup(char *const *v, size_t n)
{
	char **o = n ? xcalloc(n + 1, sizeof(*o)) : NULL;
	for (size_t i = 0; i < n; i++)
		o[i] = xstrdup(v[i]);
	return o;
}

int config_list_merge(struct config_list *dst, const struct config_list *src, struct errbuf *err)
{
	for (size_t k = 0; k < src->n; k++) {
		const struct suite_config *dup = config_list_find(dst, src->v[k].name);
		if (dup)
			return err_set(err, ERR_INPUT, "%s:%d: configuration '%s' is also in %s:%d", src->v[k].file,
				       src->v[k].line, dup->name, dup->file, dup->line);
	}
	config_list_copy(dst, src);
	return 0;
}

void config_list_copy(struct config_list *dst, const struct config_list *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct suite_config *s = &src->v[i];
		struct suite_config *c = config_list_add(dst, s->name, s->file, s->line);
		kvlist_copy(&c->labels, &s->labels);
		for (int ph = 0; ph < CONFIG_NPHASES; ph++)
			for (size_t k = 0; k < s->nsteps[ph]; k++)
				config_add_step(c, (enum config_phase)ph, &s->steps[ph][k]);
		c->targets = strv_dup(s->targets, s->ntargets);
		c->ntargets = s->ntargets;
		c->members = strv_dup(s->members, s->nmembers);
		c->nmembers = s->nmembers;
		c->recipes = strv_dup(s->recipes, s->nrecipes);
		c->nrecipes = s->nrecipes;
		kvlist_copy(&c->sim_opts, &s->sim_opts);
		kvlist_copy(&c->fio_opts, &s->fio_opts);
		kvlist_copy(&c->baseline_fio, &s->baseline_fio);
		kvlist_copy(&c->precondition, &s->precondition);
		c->host = xstrdup(s->host);
		c->timeout_s = s->timeout_s;
	}
}

const struct suite_config *config_list_find(const struct config_list *l, const char *name)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

/* ---- steps ------------------------------------------------------------------------------------------ */

void config_step_release(struct config_step *s)
{
	if (!s)
		return;
	if (s->argv)
		config_words_free(s->argv, s->argc);
	free(s->host);
	free(s->origin);
	memset(s, 0, sizeof(*s));
}

void config_step_copy(struct config_step *dst, const struct config_step *src)
{
	dst->argv = strv_dup(src->argv, src->argc);
	dst->argc = src->argc;
	dst->host = xstrdup(src->host);
	dst->timeout_s = src->timeout_s;
	dst->origin = xstrdup(src->origin);
}

void config_add_step(struct suite_config *c, enum config_phase ph, const struct config_step *s)
{
	c->steps[ph] = xrealloc(c->steps[ph], (c->nsteps[ph] + 1) * sizeof(*c->steps[ph]));
	config_step_copy(&c->steps[ph][c->nsteps[ph]++], s);
}

unsigned config_step_timeout_s(const struct suite_config *c, const struct config_step *s)
{
	if (s->timeout_s)
		return s->timeout_s;
	return c && c->timeout_s ? c->timeout_s : CONFIG_STEP_TIMEOUT_S;
}

int config_split_words(const char *text, char ***out, size_t *n)
{
	struct strbuf w;
	const char *p = text;
	char **v = NULL;
	size_t cnt = 0;

	strbuf_init(&w);
	for (;;) {
		int have = 0;
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		strbuf_reset(&w);
		while (*p && !isspace((unsigned char)*p)) {
			if (*p == '\'') {
				const char *e = strchr(p + 1, '\'');
				if (!e)
					goto bad;
				strbuf_add(&w, p + 1, (size_t)(e - p - 1));
				p = e + 1;
			} else if (*p == '"') {
				p++;
				while (*p && *p != '"') {
					if (*p == '\\' && p[1])
						p++;
					strbuf_addc(&w, *p++);
				}
				if (*p != '"')
					goto bad;
				p++;
			} else {
				strbuf_addc(&w, *p++);
			}
			have = 1;
		}
		if (have) {
			v = xrealloc(v, (cnt + 2) * sizeof(*v));
			v[cnt++] = xstrdup(w.buf ? w.buf : "");
			v[cnt] = NULL;
		}
	}
	strbuf_release(&w);
	*out = v;
	*n = cnt;
	return 0;
bad:
	strbuf_release(&w);
	config_words_free(v, cnt);
	return -1;
}

int config_timeout_parse(const char *text, unsigned *out_s)
{
	uint64_t us;

	if (fio_parse_time_us(text, 1000000, &us) < 0 || us < 1000000 || us > 86400ull * 1000000)
		return -1;
	*out_s = (unsigned)(us / 1000000);
	return 0;
}

int config_step_parse(const char *text, struct config_step *out, const char *origin, struct errbuf *err)
{
	char **w = NULL;
	size_t n = 0, i = 0;

	memset(out, 0, sizeof(*out));
	if (config_split_words(text, &w, &n) < 0)
		return err_set(err, ERR_INPUT, "%s: unterminated quote in step '%s'", origin, text);
	for (; i < n; i++) {
		if (w[i][0] == '@' && w[i][1]) {
			free(out->host);
			out->host = xstrdup(w[i] + 1);
		} else if (!strncmp(w[i], "timeout=", 8)) {
			if (config_timeout_parse(w[i] + 8, &out->timeout_s) < 0) {
				err_set(err, ERR_INPUT, "%s: step '%s': timeout must be 1s..24h, got '%s'", origin, text,
					w[i] + 8);
				goto fail;
			}
		} else {
			break;
		}
	}
	if (i == n) {
		err_set(err, ERR_INPUT, "%s: step '%s' has no command", origin, text);
		goto fail;
	}
	out->argc = n - i;
	out->argv = xcalloc(out->argc + 1, sizeof(*out->argv));
	for (size_t k = 0; k < out->argc; k++) {
		out->argv[k] = w[i + k];
		w[i + k] = NULL;
	}
	config_words_free(w, n);
	out->origin = xstrdup(origin);
	return 0;
fail:
	config_words_free(w, n);
	config_step_release(out);
	return -1;
}

char *config_argv_text(char *const *argv)
{
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t i = 0; argv && argv[i]; i++) {
		const char *a = argv[i];
		int plain = *a != '\0';
		for (const char *c = a; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr("-_./=:,@%+", *c))
				plain = 0;
		if (i)
			strbuf_addc(&sb, ' ');
		if (plain) {
			strbuf_adds(&sb, a);
			continue;
		}
		strbuf_add_shell_word(&sb, a);
	}
	return strbuf_detach(&sb, NULL);
}

/* ---- crossing a plan with its configurations -------------------------------------------------------------- */

static void set_run_targets(struct run_spec *s, const struct suite_config *c)
{
	config_words_free(s->targets, s->ntargets);
	s->targets = strv_dup(c->targets, c->ntargets);
	s->ntargets = c->ntargets;
}

/* A fio run of configuration `cf`: its targets (unless --target), its fio options as engine options. */
static void cross_fio(struct run_spec *s, const struct suite_config *cf, int keep_targets)
{
	if (cf->ntargets && !keep_targets)
		set_run_targets(s, cf);
	for (size_t k = 0; k < cf->fio_opts.n; k++)
		kvlist_set(&s->engine_opts, cf->fio_opts.v[k].key, cf->fio_opts.v[k].value);
}

int config_plan_cross(struct plan *plan, const struct config_list *configs, int keep_targets, struct errbuf *err)
{
	struct run_spec *base;
	size_t nbase = plan->n;

	if (!configs || !configs->n)
		return 0;
	if (nbase * configs->n > PLAN_MAX_RUNS)
		return err_set(err, ERR_INPUT, "%zu runs x %zu configurations is more than %d runs", nbase, configs->n,
			       PLAN_MAX_RUNS);
	base = plan->runs;
	plan->runs = NULL;
	plan->n = plan->cap = 0;
	for (size_t c = 0; c < configs->n; c++) {
		const struct suite_config *cf = &configs->v[c];
		for (size_t i = 0; i < nbase; i++) {
			struct run_spec *s = plan_add_copy(plan, &base[i]);
			const char *engine;

			s->seq = (unsigned)(c * nbase + i + 1);
			s->method.config_index = (int)c;
			free(s->method.config_name);
			s->method.config_name = xstrdup(cf->name);
			for (size_t k = 0; k < cf->labels.n; k++)
				kvlist_set(&s->labels, cf->labels.v[k].key, cf->labels.v[k].value);
			engine = s->engine ? s->engine : "fio";
			if (!strcmp(engine, "sim"))
				for (size_t k = 0; k < cf->sim_opts.n; k++)
					kvlist_set(&s->engine_opts, cf->sim_opts.v[k].key, cf->sim_opts.v[k].value);
			else if (!strcmp(engine, "fio"))
				cross_fio(s, cf, keep_targets);
		}
	}
	ARRAY_RELEASE(base, nbase, run_spec_release);
	return 0;
}
