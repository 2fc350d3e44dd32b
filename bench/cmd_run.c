/*
 * cmd_run: `bench run`: the options and plan of options.c (what `bench plan` shows), the checks before any
 * load (targets, hosts), then the run loop on the store main opened for it (commands.c: CMD_STORE_RW).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/cmd_plan.h"
#include "bench/commands.h"
#include "bench/options.h"
#include "bench/runloop.h"
#include "core/paths.h"
#include "core/strbuf.h"
#include "engines/fio_hosts.h"
#include "profiles/profile.h"

static void usage(void)
{
	printf("usage: bench run SUITE|JOBFILE|NAME... [NAME=value]... [options]\n"
	       "\n"
	       "Runs a built-in suite (see 'bench profiles list'), fio job files, vdbench parameter files, bench suite\n"
	       "files or HCIbench-style test names, one run after another, and stores every run in the database.\n"
	       "Each run is committed as 'running' before its load starts and stored with its results in one\n"
	       "transaction; Ctrl-C stops fio, marks the run 'aborted' and exits 130. 'bench plan' with the same\n"
	       "arguments shows exactly the runs this command executes (it takes every option below that changes\n"
	       "what runs).\n"
	       "\n");
	run_args_help(stdout, OPT_RUN);
	printf("\nexit codes: 0 all runs done, 2 usage, 3 bad profile or target, 4 some runs failed or were partial,\n"
	       "5 storage error, 130 interrupted.\n");
}

/* Every fio server reachable, same fio version, targets present and safe: before any load. */
static int hosts_preflight(const struct runloop_opts *ro)
{
	struct strbuf rep;
	struct errbuf err;
	int code = EXIT_OK;

	strbuf_init(&rep);
	errbuf_init(&err);
	if (fio_hosts_preflight(ro->hosts, ro->allow_partial, ro->destructive, &rep, &err) < 0) {
		fputs(rep.buf, stderr);
		code = cli_fail(&err);
	} else if (!ro->quiet) {
		fputs(rep.buf, stderr);
	}
	strbuf_release(&rep);
	return code;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a;
	struct runloop_opts ro;
	struct plan plan;
	struct store *st;
	char *args_text = NULL;
	int code;

	if ((code = run_args_start(&a, OPT_RUN, argc, argv, usage, &plan)) != EXIT_OK || a.help)
		goto out;
	ro = a.run;
	if ((code = runloop_preflight(&plan, &ro)) != EXIT_OK)
		goto out;
	if (ro.hosts && (code = hosts_preflight(&ro)) != EXIT_OK)
		goto out;
	if (!(st = cli_store())) {
		code = cli_store_code();
		goto out;
	}
	if (!ro.quiet)
		plan_print_estimate_baselines(stdout, &plan, ro.configs, ro.hosts), fflush(stdout);
	args_text = run_args_suite_text(&a);
	ro.args = args_text;
	ro.sim_so = paths_sim_so();
	code = runloop_run(st, &plan, &ro);
out:
	plan_release(&plan);
	run_args_release(&a);
	free(args_text);
	return code;
}
