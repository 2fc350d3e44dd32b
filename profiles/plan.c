/*
 * plan: the plan container (see profile.h): runs in order, warnings, and the wall-time estimate. It knows
 * nothing of how plans are built (build.c).
 */
#include "profiles/profile.h"
#include "core/paths.h"
#include "core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plan_options_init(struct plan_options *o)
{
	memset(o, 0, sizeof(*o));
	kvlist_init(&o->vars);
	kvlist_init(&o->matrix);
}

void plan_options_release(struct plan_options *o)
{
	if (!o)
		return;
	kvlist_release(&o->vars);
	kvlist_release(&o->matrix);
	for (size_t i = 0; i < o->ntargets; i++)
		free(o->targets[i]);
	free(o->targets);
	plan_options_init(o);
}

void plan_init(struct plan *p)
{
	*p = (struct plan){ .name = NULL };
	kvlist_init(&p->labels);
}

void plan_release(struct plan *p)
{
	if (p) {
		ARRAY_RELEASE(p->runs, p->n, run_spec_release);
		while (p->nwarnings > 0)
			free(p->warnings[--p->nwarnings]);
		free(p->warnings);
		free(p->name);
		kvlist_release(&p->labels);
		free(p->configs);
		plan_init(p);
	}
}

const struct plan_config *plan_config_of(const struct plan *p, size_t i)
{
	for (size_t k = 0; k < p->nconfigs; k++)
		if (i >= p->configs[k].first && i < p->configs[k].end)
			return &p->configs[k];
	return NULL;
}

struct run_spec *plan_add(struct plan *p)
{
	struct run_spec *s;

	ARRAY_GROW(p->runs, p->cap, p->n + 1);
	s = &p->runs[p->n++];
	run_spec_init(s);
	s->seq = (unsigned)p->n;
	return s;
}

struct run_spec *plan_add_copy(struct plan *p, const struct run_spec *src)
{
	struct run_spec *s;

	ARRAY_GROW(p->runs, p->cap, p->n + 1);
	s = &p->runs[p->n++];
	run_spec_copy(s, src);
	s->seq = (unsigned)p->n;
	return s;
}

void plan_warn(struct plan *p, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->warnings = xrealloc(p->warnings, (p->nwarnings + 1) * sizeof(*p->warnings));
	p->warnings[p->nwarnings++] = xstrdup(buf);
}

double plan_estimate_s(const struct plan *p)
{
	double s = 0;

	for (size_t i = 0; i < p->n; i++)
		s += p->runs[i].wl.ramp_s + p->runs[i].wl.runtime_s + 2;
	return s;
}

const char *profile_library_dir(void)
{
	return paths_library_dir();
}
