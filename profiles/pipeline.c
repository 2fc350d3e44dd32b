/*
 * pipeline: plan_build_full (method.h), the one entry that turns what a command names into the plan it runs:
 * the profiles expanded, curves and sweeps, configurations crossed in, preconditioning phases. bench/ runs
 * the plan; it does not build it. Each suite file is read once (plan_build_configs returns its configurations).
 */
#include "profiles/method.h"

int plan_build_full(const char *const *args, size_t nargs, int interleave, const struct plan_options *opt,
		    const struct method_settings *m, struct plan *out, struct config_list *configs, struct errbuf *err)
{
	if ((interleave ? plan_build_interleaved(args, nargs, opt, out, configs, err)
			: plan_build_configs(args, nargs, opt, out, configs, err)) < 0)
		return -1;
	if (!out->n)
		return 0; /* the caller says so (after the plan's warnings) */
	/* curves and sweeps, then [config] sections: every run once per configuration (config.h), then the
	 * preconditioning phases, which depend on the configuration */
	if (method_expand(out, m, NULL, opt->quick, 0, err) < 0 ||
	    config_plan_cross(out, configs, opt->ntargets > 0, err) < 0 ||
	    method_expand(out, m, configs, opt->quick, 1, err) < 0)
		return -1;
	return 0;
}
