/*
 * commands: the command table (after git's builtin table) and `bench help` / `bench version`.
 * Adding a command: write cmd_<name>.c, declare it in commands.h, add one row here; its flags (cli.h) say
 * what main prepares for it: CMD_STORE_RO / CMD_STORE_RW (+ CMD_STORE_MUST_EXIST, CMD_STORE_LATE) open the
 * --db store, which the command takes with cli_store().
 */
#include <stdio.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/commands.h"
#include "core/suggest.h"

const struct cmd bench_commands[] = {
	{ "run", cmd_run, "run a suite, fio job files or a built-in suite, and store the results",
	  CMD_STORE_RW | CMD_STORE_LATE },
	{ "baseline", cmd_baseline, "measure each member device alone (phase=baseline runs) for report --explain",
	  CMD_STORE_RW | CMD_STORE_LATE },
	{ "plan", cmd_plan, "show the runs a suite expands to, without running them", 0 },
	{ "profiles", cmd_profiles, "list the built-in suites, or show one", 0 },
	{ "recipes", cmd_recipes, "list the recipes that build storage stacks and exports, or show one's commands", 0 },
	{ "import", cmd_import, "store results from fio JSON output, fio log files and published CSV", CMD_STORE_RW | CMD_STORE_LATE },
	{ "report", cmd_report, "print stored results: tables, ratio tables, charts, HTML", CMD_STORE_RO | CMD_STORE_LATE },
	{ "gate", cmd_gate, "CI regression gate: compare candidate runs with a baseline, with confidence intervals",
	  CMD_STORE_RO | CMD_STORE_LATE },
	{ "trend", cmd_trend, "history of a metric: change points (E-divisive means) and whether the newest is a regression",
	  CMD_STORE_RO | CMD_STORE_LATE },
	{ "hosts", cmd_hosts, "check the fio servers of a hosts file; start/stop them over ssh", 0 },
	{ "lab", cmd_lab, "start or stop N fio servers on loopback addresses of this machine", 0 },
	{ "export", cmd_export, "export runs as CSV, JSON, InfluxDB line protocol or OpenMetrics (--push), or a histogram for sim",
	  CMD_STORE_RO | CMD_STORE_MUST_EXIST | CMD_STORE_LATE },
	{ "db", cmd_db, "list, show, relabel, delete and merge stored runs; check and vacuum the file", 0 },
	{ "help", cmd_help, "show this list, or a command's help", 0 },
	{ "version", cmd_version, "print bench's version", 0 },
	{ NULL, NULL, NULL, 0 },
};

const struct cmd *cmd_find(const char *name)
{
	for (const struct cmd *c = bench_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int cmd_unknown(const char *name)
{
	const char *names[sizeof(bench_commands) / sizeof(bench_commands[0])];
	const char *best;
	size_t n = 0;

	for (const struct cmd *c = bench_commands; c->name; c++)
		if (!(c->flags & CMD_HIDDEN))
			names[n++] = c->name;
	best = suggest_closest(name, names, n);
	if (best)
		return cli_error(EXIT_USAGE, "unknown command '%s': did you mean '%s'? (see 'bench help')", name, best);
	return cli_error(EXIT_USAGE, "unknown command '%s' (see 'bench help')", name);
}

int cmd_help(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "--help") && strcmp(argv[1], "-h")) {
		const struct cmd *c = cmd_find(argv[1]);
		if (!c)
			return cmd_unknown(argv[1]);
		return c->fn(2, (char *[]){ (char *)c->name, "--help", NULL });
	}
	printf("usage: bench <command> [options]\n\n"
	       "bench runs fio and vdbench-style storage workloads on one or many hosts, keeps every number in\n"
	       "an SQLite file (bench.db by default, --db PATH) and turns stored runs into tables, charts and\n"
	       "CI verdicts.\n\ncommands:\n");
	for (const struct cmd *c = bench_commands; c->name; c++)
		if (!(c->flags & CMD_HIDDEN))
			printf("  %-9s %s\n", c->name, c->summary);
	printf("\n'bench <command> --help' describes a command.\n\n"
	       "exit codes: 0 success, 1 gate regression, 2 usage error, 3 bad input, 4 host/engine/collector\n"
	       "failure, 5 storage error (the database, or output that cannot be written), 6 gate inconclusive,\n"
	       "70 internal error, 130 interrupted (Ctrl-C, SIGTERM).\n");
	return EXIT_OK;
}

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("bench %s\n", BENCH_VERSION_STRING);
	return EXIT_OK;
}
