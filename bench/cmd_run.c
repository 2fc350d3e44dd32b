/*
 * cmd_run: `bench run`: expand profiles into a plan (profiles/), then execute it with the run loop.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "bench/cli.h"
#include "bench/commands.h"
#include "bench/runloop.h"
#include "core/hostsfile.h"
#include "core/paths.h"
#include "core/strbuf.h"
#include "engines/fio_hosts.h"
#include "core/units.h"
#include "profiles/profile.h"

#ifndef BENCH_SIM_SO
#define BENCH_SIM_SO ""
#endif

static const char usage[] =
	"usage: bench run SUITE|JOBFILE|NAME... [VAR=value]... [options]\n"
	"\n"
	"Runs a built-in suite (see 'bench profiles list'), fio job files, vdbench parameter files, bench suite\n"
	"files or HCIbench-style test names, one run after another, and stores every run in the database.\n"
	"Each run is committed as 'running' before its load starts and stored with its results in one\n"
	"transaction; Ctrl-C stops fio, marks the run 'aborted' and exits 130. 'bench plan' with the same\n"
	"arguments shows exactly the runs this command executes.\n"
	"\n"
	"options:\n"
	"  --db PATH            database file (default bench.db)\n"
	"  --target PATH        file or block device to run against (repeatable); a file is created and\n"
	"                       filled by bench; default: bench-target.dat in the current directory\n"
	"  --label KEY=VALUE    label the suite and its runs (repeatable), e.g. --label stack=mdadm-raid5\n"
	"  --quick              shrink ramp, runtime and working set to try a suite in minutes\n"
	"  --repeat N           run every workload N times (repetitions, for 'bench gate')\n"
	"  --interleave         with two or more profiles and --repeat: alternate them in blocks (A B, B A,\n"
	"                       A B, ...) so that drift cancels; each run gets the label profile=<argument>;\n"
	"                       compare them with 'bench gate --paired'\n"
	"  --matrix KEY=V1,V2   cross the workloads with these values (repeatable; see 'bench plan --help')\n"
	"  --engine NAME        fio (default), sim (modelled target, see docs/sim.md) or null\n"
	"  --engine-opt KEY=VALUE  an option for the engine, added to every run's fio job (repeatable), e.g.\n"
	"                       --engine sim --engine-opt sim_preset=nvmeof-rdma --engine-opt sim_raid=raid5\n"
	"  --hosts FILE         run on the fio servers of a hosts file (see docs/hosts.md)\n"
	"  --allow-partial      go on without hosts that cannot be reached; their runs are 'partial'\n"
	"  --stop-on-host-failure  stop the suite (exit 4) when a host is lost mid-run (default: go on)\n"
	"  --logs               ask fio for IOPS, bandwidth and latency logs and store them as samples\n"
	"  --no-collectors      do not sample CPU (/proc/stat, node_exporter) and disk IOs during runs\n"
	"  --grace SECONDS      time allowed beyond ramp + runtime before a run is stopped (default 60)\n"
	"  --destructive        allow writing block devices that hold a filesystem, partitions or data\n"
	"  --resume             finish the newest suite started with the same arguments: run only what is\n"
	"                       not 'done'\n"
	"  -q, --quiet          no per-run progress lines\n"
	"  -h, --help           show this help\n"
	"\n"
	"exit codes: 0 all runs done, 2 usage, 3 bad profile or target, 4 some runs failed or were partial,\n"
	"5 storage error, 130 interrupted.\n";

enum { OPT_DB = 256, OPT_TARGET, OPT_LABEL, OPT_QUICK, OPT_REPEAT, OPT_MATRIX, OPT_ENGINE, OPT_HOSTS,
       OPT_ALLOW_PARTIAL, OPT_STOP_HOST, OPT_LOGS, OPT_GRACE, OPT_DESTRUCTIVE, OPT_RESUME, OPT_NO_COLLECTORS, OPT_INTERLEAVE, OPT_ENGINE_OPT };

static const struct option longopts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "matrix", required_argument, NULL, OPT_MATRIX },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "hosts", required_argument, NULL, OPT_HOSTS },
	{ "allow-partial", no_argument, NULL, OPT_ALLOW_PARTIAL },
	{ "stop-on-host-failure", no_argument, NULL, OPT_STOP_HOST },
	{ "logs", no_argument, NULL, OPT_LOGS },
	{ "grace", required_argument, NULL, OPT_GRACE },
	{ "destructive", no_argument, NULL, OPT_DESTRUCTIVE },
	{ "resume", no_argument, NULL, OPT_RESUME },
	{ "no-collectors", no_argument, NULL, OPT_NO_COLLECTORS },
	{ "interleave", no_argument, NULL, OPT_INTERLEAVE },
	{ "engine-opt", required_argument, NULL, OPT_ENGINE_OPT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A positional argument NAME=value that is not an existing file is a variable for the profiles. */
static int is_var(const char *arg)
{
	struct stat sb;
	const char *eq = strchr(arg, '=');

	return eq && eq != arg && stat(arg, &sb) != 0;
}

int cmd_run(int argc, char **argv)
{
	struct plan_options popt;
	struct runloop_opts ro;
	struct kvlist labels, engine_opts;
	struct host_list hosts;
	struct plan plan;
	struct errbuf err;
	struct store *st = NULL;
	const char *db = NULL;
	const char **profiles = NULL;
	size_t nprofiles = 0;
	cJSON *args = cJSON_CreateArray();
	char *args_text = NULL;
	int c, code = EXIT_OK, interleave = 0;

	plan_options_init(&popt);
	plan_init(&plan);
	kvlist_init(&labels);
	kvlist_init(&engine_opts);
	host_list_init(&hosts);
	errbuf_init(&err);
	memset(&ro, 0, sizeof(ro));
	ro.grace_s = 60;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		long n;
		char *k, *v;

		switch (c) {
		case OPT_DB: db = optarg; break;
		case OPT_TARGET:
			popt.targets = xrealloc(popt.targets, (popt.ntargets + 1) * sizeof(*popt.targets));
			popt.targets[popt.ntargets++] = xstrdup(optarg);
			break;
		case OPT_LABEL:
			if (cli_add_label(&labels, "run", optarg) < 0) {
				code = EXIT_USAGE;
				goto out;
			}
			break;
		case OPT_QUICK: popt.quick = 1; break;
		case OPT_REPEAT:
			if (parse_long(optarg, 1, 100000, &n) < 0) {
				code = cli_usage("run", "--repeat wants a whole number from 1, got '%s'", optarg);
				goto out;
			}
			popt.repeat = (unsigned)n;
			break;
		case OPT_MATRIX:
			if (kv_parse_label(optarg, &k, &v) < 0 || !*v) {
				code = cli_usage("run", "--matrix wants KEY=V1,V2,..., got '%s'", optarg);
				goto out;
			}
			kvlist_add(&popt.matrix, k, v);
			free(k);
			free(v);
			break;
		case OPT_ENGINE: popt.engine = optarg; break;
		case OPT_HOSTS:
			host_list_release(&hosts);
			if (hostsfile_read(optarg, &hosts, &err) < 0) {
				code = cli_fail(&err);
				goto out;
			}
			ro.hosts = &hosts;
			break;
		case OPT_ALLOW_PARTIAL: ro.allow_partial = 1; break;
		case OPT_STOP_HOST: ro.stop_on_host_failure = 1; break;
		case OPT_LOGS: ro.logs = 1; break;
		case OPT_GRACE:
			if (parse_long(optarg, 0, 86400, &n) < 0) {
				code = cli_usage("run", "--grace wants seconds, got '%s'", optarg);
				goto out;
			}
			ro.grace_s = (unsigned)n;
			break;
		case OPT_DESTRUCTIVE: ro.destructive = 1; break;
		case OPT_RESUME: ro.resume = 1; break;
		case OPT_NO_COLLECTORS: ro.no_collectors = 1; break;
		case OPT_INTERLEAVE: interleave = 1; break;
		case OPT_ENGINE_OPT:
			if (kv_parse_label(optarg, &k, &v) < 0) {
				code = cli_usage("run", "--engine-opt wants KEY=VALUE, got '%s'", optarg);
				goto out;
			}
			kvlist_add(&engine_opts, k, v);
			free(k);
			free(v);
			break;
		case 'q': ro.quiet = 1; break;
		case 'h':
			fputs(usage, stdout);
			goto out;
		default:
			code = cli_usage("run", "unknown option '%s'", argv[optind - 1]);
			goto out;
		}
		/* Everything but --db, --resume and display options defines the suite (for --resume). */
		if (c != OPT_DB && c != OPT_RESUME && c != 'q' && c != OPT_GRACE) {
			for (const struct option *o = longopts; o->name; o++) {
				if (o->val == c) {
					cJSON_AddItemToArray(args, cJSON_CreateString(o->name));
					break;
				}
			}
			if (optarg)
				cJSON_AddItemToArray(args, cJSON_CreateString(optarg));
		}
	}
	for (int i = optind; i < argc; i++) {
		cJSON_AddItemToArray(args, cJSON_CreateString(argv[i]));
		if (is_var(argv[i])) {
			char *k = xstrndup(argv[i], (size_t)(strchr(argv[i], '=') - argv[i]));
			kvlist_set(&popt.vars, k, strchr(argv[i], '=') + 1);
			free(k);
			continue;
		}
		profiles = xrealloc(profiles, (nprofiles + 1) * sizeof(*profiles));
		profiles[nprofiles++] = argv[i];
	}
	if (!nprofiles) {
		code = cli_usage("run", "name a suite, a job file or a test name (e.g. 'bench run hcibench-easyrun --quick')");
		goto out;
	}
	if (interleave && nprofiles < 2) {
		code = cli_usage("run", "--interleave needs two or more profiles to alternate");
		goto out;
	}
	if (interleave ? plan_build_interleaved(profiles, nprofiles, &popt, &plan, &err) < 0
		       : plan_build(profiles, nprofiles, &popt, &plan, &err) < 0) {
		code = cli_fail(&err);
		goto out;
	}
	for (size_t i = 0; i < plan.n; i++)
		for (size_t k = 0; k < engine_opts.n; k++)
			kvlist_set(&plan.runs[i].engine_opts, engine_opts.v[k].key, engine_opts.v[k].value);
	for (size_t i = 0; i < plan.nwarnings; i++)
		cli_warn("%s", plan.warnings[i]);
	if (!plan.n) {
		code = cli_error(EXIT_INPUT, "'%s' expands to no runs", profiles[0]);
		goto out;
	}
	if ((code = runloop_preflight(&plan, &ro)) != EXIT_OK)
		goto out;
	if (ro.hosts) {
		/* Every fio server reachable, same fio version, targets present and safe: before any load. */
		struct strbuf rep;
		strbuf_init(&rep);
		if (fio_hosts_preflight(ro.hosts, ro.allow_partial, ro.destructive, &rep, &err) < 0) {
			fputs(rep.buf, stderr);
			strbuf_release(&rep);
			code = cli_fail(&err);
			goto out;
		}
		if (!ro.quiet)
			fputs(rep.buf, stderr);
		strbuf_release(&rep);
	}
	if (cli_open_store(db, 0, &st) < 0) {
		code = EXIT_STORE;
		goto out;
	}
	{
		char *raw = cJSON_PrintUnformatted(args);
		args_text = xstrdup(raw);
		cJSON_free(raw);
	}
	ro.labels = &labels;
	ro.args = args_text;
	ro.sim_so = paths_sim_so();
	code = runloop_run(st, &plan, &ro);
out:
	store_close(st);
	plan_release(&plan);
	plan_options_release(&popt);
	kvlist_release(&labels);
	kvlist_release(&engine_opts);
	host_list_release(&hosts);
	free(profiles);
	free(args_text);
	cJSON_Delete(args);
	return code;
}
