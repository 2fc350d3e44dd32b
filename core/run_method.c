/*
 * run_method: the typed method and configuration facts of a run spec (model.h struct run_method), their
 * lifetime, and the one function that turns them into the labels users see in the store and in `bench plan`
 * (docs/method.md "How the method reaches the run loop"). The plan pipeline sets the fields, the run loop reads
 * them; neither reads labels back.
 */
#include "core/model.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = { "plain", "curve_max", "curve_point", "sweep_point", "purge", "wipc",
					  "ss_round" };
#define NKINDS (sizeof(kind_names) / sizeof(kind_names[0]))

const char *run_method_kind_name(enum run_method_kind k)
{
	return (unsigned)k < NKINDS ? kind_names[k] : "?";
}

int run_method_kind_parse(const char *s, enum run_method_kind *out)
{
	for (unsigned i = 0; i < NKINDS; i++)
		if (!strcmp(s, kind_names[i])) {
			*out = (enum run_method_kind)i;
			return 0;
		}
	return -1;
}

void run_method_init(struct run_method *m)
{
	memset(m, 0, sizeof(*m));
	m->kind = RUN_METHOD_PLAIN;
	m->config_index = -1;
}

void run_method_clear_kind(struct run_method *m)
{
	int index = m->config_index, baseline = m->baseline;
	char *name = m->config_name;

	m->config_name = NULL;
	run_method_release(m);
	m->config_index = index;
	m->config_name = name;
	m->baseline = baseline;
}

void run_method_release(struct run_method *m)
{
	if (!m)
		return;
	free(m->sweep_option);
	for (size_t k = 0; k < m->nuntil; k++)
		free(m->until[k]);
	free(m->precond_class);
	free(m->precond_skipped);
	free(m->config_name);
	run_method_init(m);
}

void run_method_copy(struct run_method *dst, const struct run_method *src)
{
	*dst = *src;
	dst->sweep_option = xstrdup(src->sweep_option);
	for (size_t k = 0; k < src->nuntil; k++)
		dst->until[k] = xstrdup(src->until[k]);
	dst->precond_class = xstrdup(src->precond_class);
	dst->precond_skipped = xstrdup(src->precond_skipped);
	dst->config_name = xstrdup(src->config_name);
}

/* The preconditioning phase's name in its labels (precondition=NAME), or NULL for a measured run. */
static const char *phase_name(enum run_method_kind k)
{
	switch (k) {
	case RUN_METHOD_PURGE: return "purge";
	case RUN_METHOD_WIPC: return "wipc";
	case RUN_METHOD_SS_ROUND: return "wdpc";
	default: return NULL;
	}
}

/* Sets key=value unless `out` has the key: a run's own label wins (bench baseline's phase=baseline). */
static void put(struct kvlist *out, const char *key, const char *value)
{
	if (!kvlist_find(out, key))
		kvlist_set(out, key, value);
}

void run_method_labels(const struct run_spec *s, struct kvlist *out)
{
	const struct run_method *m = &s->method;
	const char *phase = phase_name(m->kind);
	char key[96], buf[64];

	if (m->kind == RUN_METHOD_CURVE_MAX) {
		put(out, "curve_pct", "max");
	} else if (m->kind == RUN_METHOD_CURVE_POINT) {
		snprintf(buf, sizeof(buf), "%g", m->curve_pct);
		put(out, "curve_pct", buf);
	} else if (m->kind == RUN_METHOD_SWEEP_POINT && m->sweep_option) {
		snprintf(key, sizeof(key), "sweep.%s", m->sweep_option);
		snprintf(buf, sizeof(buf), "%.0f", m->sweep_value);
		put(out, key, buf);
	}
	if (m->config_name)
		put(out, "config", m->config_name);
	if (!phase)
		return;
	put(out, "phase", "precondition");
	put(out, "precondition", phase);
	put(out, "precondition.class", m->precond_class ? m->precond_class : "");
	if (m->kind == RUN_METHOD_SS_ROUND) {
		snprintf(buf, sizeof(buf), "%u", m->ss_round);
		put(out, "ss_round", buf);
	}
}
