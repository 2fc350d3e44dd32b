/*
 * cmd_baseline: `bench baseline`: the member baselines of `bench report --explain` (docs/explain.md
 * "Baselines"). It takes what `bench run` takes, plans the same runs, then runs every run once per target
 * alone (one member device at a time), labelled phase=baseline, baseline.kind=member and baseline.member=NAME
 * (the target's file name; bench/baseline_plan.c plans them, as it plans a suite's `baseline = on`), so that
 * the explain model can add the members' own IOPS up under a RAID layout. Everything else is `bench run`'s:
 * the checks before any load (a member that holds a filesystem, is mounted or in use is refused without
 * --destructive, docs/safety.md), the run loop and the store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/baseline_plan.h"
#include "bench/cli.h"
#include "bench/cmd_plan.h"
#include "bench/commands.h"
#include "bench/options.h"
#include "bench/runloop.h"
#include "core/paths.h"
#include "core/strbuf.h"
#include "profiles/profile.h"

static void usage(void)
{
	printf("usage: bench baseline SUITE|JOBFILE|NAME... --target DEV [--target DEV]... [options]\n"
	       "\n"
	       "Measures each member device alone with the workloads of a suite, job file or built-in suite: every\n"
	       "run of the plan once per --target, on that target only, stored with the labels phase=baseline and\n"
	       "baseline.member=NAME (the target's file name). 'bench report --explain' adds the members' IOPS up\n"
	       "under the layout a run's labels name (raid=, stack=, config=) for its member-devices ceiling\n"
	       "(docs/explain.md). The consent rules of 'bench run' apply to every member (docs/safety.md).\n"
	       "\n");
	run_args_help(stdout, OPT_BASELINE);
	printf("\nexit codes: 0 all runs done, 2 usage, 3 bad profile or target, 4 some runs failed or were partial,\n"
	       "5 storage error, 130 interrupted.\n");
}

int cmd_baseline(int argc, char **argv)
{
	struct run_args a;
	struct runloop_opts ro;
	struct plan plan, members;
	struct store *st;
	char *args_text = NULL;
	struct errbuf err;
	int code;

	plan_init(&members);
	if ((code = run_args_start(&a, OPT_BASELINE, argc, argv, usage, &plan)) != EXIT_OK || a.help)
		goto out;
	if (!a.plan.ntargets) {
		code = cli_usage("baseline", "give the member devices with --target (each is measured alone)");
		goto out;
	}
	errbuf_init(&err);
	if (baseline_plan_members(&plan, &members, &err) < 0) { /* bench/baseline_plan.c: the one planner */
		code = cli_usage("baseline", "%s", err.msg);
		goto out;
	}
	members.name = xstrdup(plan.name);
	kvlist_copy(&members.labels, &plan.labels);
	members.repeat = plan.repeat;
	ro = a.run;
	if (ro.hosts) {
		code = cli_usage("baseline", "--hosts: a baseline measures this machine's member devices; run it on "
			       "each host");
		goto out;
	}
	if ((code = runloop_preflight(&members, &ro)) != EXIT_OK)
		goto out;
	if (!(st = cli_store())) {
		code = cli_store_code();
		goto out;
	}
	if (!ro.quiet)
		plan_print_estimate(stdout, &members), fflush(stdout);
	args_text = run_args_suite_text(&a);
	ro.args = args_text;
	ro.sim_so = paths_sim_so();
	code = runloop_run(st, &members, &ro);
out:
	plan_release(&members);
	plan_release(&plan);
	run_args_release(&a);
	free(args_text);
	return code;
}
