/*
 * plan: the plan container (see profile.h): runs in order, warnings, and the wall-time estimate.
 */
#include "profiles/profile.h"
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
	memset(p, 0, sizeof(*p));
	kvlist_init(&p->labels);
}

void plan_release(struct plan *p)
{
	if (!p)
		return;
	free(p->name);
	kvlist_release(&p->labels);
	for (size_t i = 0; i < p->n; i++)
		run_spec_release(&p->runs[i]);
	free(p->runs);
	for (size_t i = 0; i < p->nwarnings; i++)
		free(p->warnings[i]);
	free(p->warnings);
	plan_init(p);
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
	const char *env = getenv("BENCH_LIBRARY");
	return env && *env ? env : BENCH_LIBRARY_DIR;
}

/*
 * --interleave: one plan per profile, merged repetition by repetition in alternating blocks (A B, B A, ...),
 * each run labelled profile=<argument>, so that slow drift of the machine hits both sides alike.
 */
int plan_build_interleaved(const char *const *profiles, size_t n, const struct plan_options *opt, struct plan *out,
			     struct errbuf *err)
{
	struct plan *parts = xcalloc(n, sizeof(*parts));
	unsigned reps = 1;
	size_t total = 0;
	int ret = -1;

	for (size_t i = 0; i < n; i++) {
		plan_init(&parts[i]);
		if (plan_build(&profiles[i], 1, opt, &parts[i], err) < 0)
			goto out;
		total += parts[i].n;
		if (total > PLAN_MAX_RUNS) {
			err_set(err, ERR_INPUT, "%s: the interleaved profiles are more than %d runs", profiles[i],
				PLAN_MAX_RUNS);
			goto out;
		}
		for (size_t k = 0; k < parts[i].n; k++)
			if (parts[i].runs[k].repetition > reps)
				reps = parts[i].runs[k].repetition;
	}
	out->name = xstrdup("interleaved");
	for (unsigned r = 1; r <= reps; r++) {
		for (size_t j = 0; j < n; j++) {
			size_t i = (r % 2) ? j : n - 1 - j;
			for (size_t k = 0; k < parts[i].n; k++) {
				const struct run_spec *src = &parts[i].runs[k];
				struct run_spec *s;
				unsigned seq;

				if (src->repetition != r)
					continue;
				s = plan_add(out);
				seq = s->seq;
				run_spec_copy(s, src);
				s->seq = seq;
				for (size_t l = 0; l < parts[i].labels.n; l++)
					kvlist_set(&s->labels, parts[i].labels.v[l].key, parts[i].labels.v[l].value);
				kvlist_set(&s->labels, "profile", profiles[i]);
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < parts[i].nwarnings; w++)
			plan_warn(out, "%s", parts[i].warnings[w]);
	ret = 0;
out:
	for (size_t i = 0; i < n; i++)
		plan_release(&parts[i]);
	free(parts);
	return ret;
}
