/*
 * pipeline: plan_build_full (method.h), the one entry that turns what a command names into the plan it runs:
 * the profiles expanded, curves and sweeps, configurations crossed in, preconditioning phases. bench/ runs
 * the plan; it does not build it. Each suite file is read once (plan_build_configs returns its configurations).
 * The plan says which runs are whose configuration (plan.configs): config_plan_cross puts them outermost, each
 * configuration's copy of the runs in one block, and the preconditioning phases go inside those blocks.
 */
#include "profiles/method.h"

#include <stdlib.h>

#include "core/strbuf.h"

/* After config_plan_cross: configuration c's runs are the c-th block of nbase. */
static void mark_configs(struct plan *p, size_t nconfigs, size_t nbase)
{
	free(p->configs);
	p->configs = xcalloc(nconfigs ? nconfigs : 1, sizeof(*p->configs));
	p->nconfigs = nconfigs;
	for (size_t c = 0; c < nconfigs; c++)
		p->configs[c] = (struct plan_config){ .config = c, .first = c * nbase, .end = (c + 1) * nbase };
}

int plan_build_full(const char *const *args, size_t nargs, int interleave, const struct plan_options *opt,
		    const struct method_settings *m, struct plan *out, struct config_list *configs, struct errbuf *err)
{
	size_t nbase;

	if ((interleave ? plan_build_interleaved(args, nargs, opt, out, configs, err)
			: plan_build_configs(args, nargs, opt, out, configs, err)) < 0)
		return -1;
	if (!out->n)
		return 0; /* the caller says so (after the plan's warnings) */
	/* curves and sweeps, then [config] sections: every run once per configuration (config.h), then the
	 * preconditioning phases, which depend on the configuration */
	if (method_expand(out, m, NULL, opt->quick, 0, err) < 0)
		return -1;
	nbase = out->n;
	if (config_plan_cross(out, configs, opt->ntargets > 0, err) < 0)
		return -1;
	if (configs && configs->n)
		mark_configs(out, configs->n, nbase);
	return method_expand(out, m, configs, opt->quick, 1, err);
}
