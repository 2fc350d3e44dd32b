/*
 * options: the one option table of `bench plan` and `bench run`, its parser, its help and the step both
 * commands share from arguments to a checked plan (options.h). A row says everything about an option; the
 * parser knows no option by name.
 */
#include "bench/options.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "bench/cli.h"
#include "core/hostsfile.h"
#include "core/paths.h"
#include "core/suggest.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "engines/engine.h"
#include "engines/fio_check.h"
#include "engines/target.h"

#define HELP_COLUMN 26

/* The handlers of the table (an opt_handler each, defined below it). */
typedef int opt_fn(struct run_args *a, const struct bench_option *o, const char *v);
static opt_fn opt_flag, opt_text, opt_target, opt_matrix, opt_repeat, opt_label, opt_engine_opt, opt_hosts, opt_grace,
	opt_format, opt_db, opt_method, opt_rounds, opt_no_fio_check;

#define F(member) offsetof(struct run_args, member)
#define OPT_FLAG(member) opt_flag, F(member)
#define OPT_TEXT(member) opt_text, F(member)
#define OPT_CALL(fn) fn, 0
#define V (OPT_VALUE)
#define VS (OPT_VALUE | OPT_SUITE)
#define S (OPT_SUITE)
#define VSM (OPT_VALUE | OPT_SUITE | OPT_METHOD)
#define SM (OPT_SUITE | OPT_METHOD)

/* In the order --help lists them: first what changes the plan (both commands), then each command's own. */
const struct bench_option bench_options[] = {
	{ "target", 0, OPT_BOTH, VS, OPT_CALL(opt_target), "PATH",
	  "file or block device to run against (repeatable: several targets, one job each);\n"
	  "a file is created and filled by bench; default: the profile's targets, else\n"
	  "bench-target.dat in the work directory" },
	{ "quick", 0, OPT_BOTH, S, OPT_FLAG(plan.quick), NULL,
	  "shrink warm-up (ramp), runtime and working set to try a suite in minutes\n"
	  "(built-in suites: 2 s ramp, 10 s run, 256 MiB per target)" },
	{ "matrix", 0, OPT_BOTH, VS, OPT_CALL(opt_matrix), "KEY=V1,V2",
	  "cross every workload with these values (repeatable; first --matrix outermost):\n"
	  "bs, rdpct, randpct, iodepth (or threads), numjobs, or any fio option" },
	{ "repeat", 0, OPT_BOTH, VS, OPT_CALL(opt_repeat), "N",
	  "run the whole list N times (repetition outermost; repetitions for 'bench gate')" },
	{ "each-job", 0, OPT_BOTH, S, OPT_FLAG(plan.each_job), NULL,
	  "a fio job file: one run per job section, one after another (default: the jobs\n"
	  "between two stonewalls run together, as fio runs them, as one run of several jobs)" },
	{ "interleave", 0, OPT_BOTH, S, OPT_FLAG(interleave), NULL,
	  "with two or more profiles and --repeat: alternate them in blocks (A B, B A, ...)\n"
	  "so that drift cancels; each run gets the label profile=<argument>" },
	{ "engine", 0, OPT_BOTH, VS, OPT_TEXT(plan.engine), "NAME",
	  "load generator for every run: fio (default), sim (modelled target, docs/sim.md), null" },
	{ "engine-opt", 0, OPT_BOTH, VS, OPT_CALL(opt_engine_opt), "KEY=VALUE",
	  "an option for the engine, added to every run's fio job (repeatable), e.g.\n"
	  "--engine sim --engine-opt sim_preset=nvmeof-rdma" },
	{ "hosts", 0, OPT_BOTH, VS, OPT_CALL(opt_hosts), "FILE",
	  "run on the fio servers of a hosts file (see docs/hosts.md)" },
	{ "label", 0, OPT_BOTH, VS, OPT_CALL(opt_label), "KEY=VALUE",
	  "label the suite and its runs (repeatable), e.g. --label stack=mdadm-raid5" },
	{ "workdir", 0, OPT_BOTH, VS, OPT_TEXT(plan.workdir), "DIR",
	  "where default target files go (default: the current directory)" },
	{ "curve", 0, OPT_BOTH, VSM, OPT_CALL(opt_method), "P1,P2,...",
	  "a response-time curve of every workload: the max run, then each point throttled\n"
	  "to P % of the max run's measured total IOPS (docs/method.md), e.g. 10,50,90,100" },
	{ "sweep", 0, OPT_BOTH, VSM, OPT_CALL(opt_method), "KEY=V1,V2",
	  "run every workload at each value of iodepth, numjobs or rate, in order,\n"
	  "e.g. iodepth=1,2,4,8 (with --until: stop once a limit is passed)" },
	{ "until", 0, OPT_BOTH, VSM, OPT_CALL(opt_method), "EXPR",
	  "a limit that ends a sweep (repeatable): p99>DUR, lat>DUR, iops_gain<PCT%,\n"
	  "e.g. 'p99>1ms'; the point that passes it is stored and the sweep ends" },
	{ "precondition", 0, OPT_BOTH, SM, OPT_FLAG(method.precondition), NULL,
	  "the SNIA sequence before each target's workloads: purge, 2 x working set of\n"
	  "128 KiB sequential writes, rounds until steady state (docs/method.md)" },
	{ "max-rounds", 0, OPT_BOTH, VSM, OPT_CALL(opt_rounds), "N",
	  "most steady-state rounds of a --precondition (default 25, at least 5)" },
	{ "round-time", 0, OPT_BOTH, VSM, OPT_CALL(opt_rounds), "DURATION",
	  "length of a steady-state round (default 60s; --quick: the workload's runtime)" },
	{ "no-fio-check", 0, OPT_BOTH, 0, OPT_CALL(opt_no_fio_check), NULL,
	  "do not have the local fio parse every job file first (fio --parse-only; for a\n"
	  "machine without fio: plan only)" },
	{ "format", 0, OPT_PLAN, V, OPT_CALL(opt_format), "text|json", "output format (default text)" },
	{ "verbose", 'v', OPT_PLAN, 0, OPT_FLAG(verbose), NULL,
	  "also print each run's fio job (the translation of vdbench runs)" },
	{ "db", 0, OPT_RUN, V, OPT_CALL(opt_db), "PATH", "database file (default bench.db)" },
	{ "resume", 0, OPT_RUN, 0, OPT_FLAG(run.resume), NULL,
	  "finish the newest suite started with the same arguments: run only what is not 'done'" },
	{ "allow-partial", 0, OPT_RUN, S, OPT_FLAG(run.allow_partial), NULL,
	  "go on without hosts that cannot be reached; their runs are 'partial'" },
	{ "stop-on-host-failure", 0, OPT_RUN, S, OPT_FLAG(run.stop_on_host_failure), NULL,
	  "stop the suite (exit 4) when a host is lost mid-run (default: go on)" },
	{ "logs", 0, OPT_RUN, S, OPT_FLAG(run.logs), NULL,
	  "ask fio for IOPS, bandwidth and latency logs and store them as samples" },
	{ "no-collectors", 0, OPT_RUN, S, OPT_FLAG(run.no_collectors), NULL,
	  "do not sample CPU (/proc/stat, node_exporter) and disk IOs during runs" },
	{ "grace", 0, OPT_RUN, V, OPT_CALL(opt_grace), "SECONDS",
	  "time allowed beyond ramp + runtime before a run is stopped (default 60)" },
	{ "destructive", 0, OPT_BOTH, S, OPT_FLAG(run.destructive), NULL,
	  "allow writing block devices that hold a filesystem, partitions or data" },
	{ "overwrite-files", 0, OPT_BOTH, S, OPT_FLAG(run.overwrite_files), NULL,
	  "allow writing existing files bench did not create (docs/safety.md)" },
	{ "stop-on-config-failure", 0, OPT_RUN, S, OPT_FLAG(run.stop_on_config_failure), NULL,
	  "stop the suite (exit 4) when a configuration's setup or check fails (default: its\n"
	  "runs are 'failed', its teardown runs and the next configuration is built)" },
	{ "quiet", 'q', OPT_RUN, 0, OPT_FLAG(run.quiet), NULL, "no per-run progress lines" },
	{ "help", 'h', OPT_BOTH, 0, OPT_FLAG(help), NULL, "show this help" },
	{ NULL, 0, 0, 0, NULL, 0, NULL, NULL },
};

#undef V
#undef VS
#undef S
#undef VSM
#undef SM

/* ---- handlers ------------------------------------------------------------------------------------------- */

/* Whether o is --help (listed last in the help, not among the options that change what runs). */
static int is_help(const struct bench_option *o)
{
	return o->handle == opt_flag && o->field == F(help);
}

static int opt_flag(struct run_args *a, const struct bench_option *o, const char *v)
{
	(void)v;
	*(int *)(void *)((char *)a + o->field) = 1;
	return 0;
}

static int opt_text(struct run_args *a, const struct bench_option *o, const char *v)
{
	if (!*v)
		return cli_usage(a->cmd_name, "--%s needs a value", o->name);
	*(const char **)(void *)((char *)a + o->field) = v;
	return 0;
}

static int opt_target(struct run_args *a, const struct bench_option *o, const char *v)
{
	struct plan_options *p = &a->plan;

	if (!*v)
		return cli_usage(a->cmd_name, "--%s needs a path", o->name);
	p->targets = xrealloc(p->targets, (p->ntargets + 1) * sizeof(*p->targets));
	p->targets[p->ntargets++] = xstrdup(v);
	return 0;
}

/* KEY=VALUE with KEY of letters, digits, '_', '-', '.'; `need_value`: a non-empty VALUE. */
static int key_value(struct run_args *a, const struct bench_option *o, const char *v, int need_value,
		     const char *form, struct kvlist *into)
{
	char *k, *val;

	if (kv_parse_label(v, &k, &val) < 0 || (need_value && !*val))
		return cli_usage(a->cmd_name, "--%s wants %s with a key of letters, digits, '_', '-', '.', got '%s'",
				 o->name, form, v);
	kvlist_set(into, k, val);
	free(k);
	free(val);
	return 0;
}

static int opt_matrix(struct run_args *a, const struct bench_option *o, const char *v)
{
	return key_value(a, o, v, 1, "KEY=V1,V2,...", &a->plan.matrix);
}

static int opt_label(struct run_args *a, const struct bench_option *o, const char *v)
{
	return key_value(a, o, v, 0, "KEY=VALUE", &a->labels);
}

static int opt_engine_opt(struct run_args *a, const struct bench_option *o, const char *v)
{
	return key_value(a, o, v, 0, "KEY=VALUE", &a->engine_opts);
}

static int opt_repeat(struct run_args *a, const struct bench_option *o, const char *v)
{
	long n;

	if (parse_long(v, 1, PLAN_MAX_RUNS, &n) < 0)
		return cli_usage(a->cmd_name, "--%s wants a whole number 1..%d, got '%s'", o->name, PLAN_MAX_RUNS, v);
	a->plan.repeat = (unsigned)n;
	return 0;
}

static int opt_grace(struct run_args *a, const struct bench_option *o, const char *v)
{
	long n;

	if (parse_long(v, 0, 86400, &n) < 0)
		return cli_usage(a->cmd_name, "--%s wants seconds 0..86400, got '%s'", o->name, v);
	a->run.grace_s = (unsigned)n;
	return 0;
}

static int opt_format(struct run_args *a, const struct bench_option *o, const char *v)
{
	if (strcmp(v, "text") && strcmp(v, "json"))
		return cli_usage(a->cmd_name, "--%s must be text or json, got '%s'", o->name, v);
	a->format = v;
	return 0;
}

/* --curve, --sweep, --until: checked here (usage error), expanded by run_args_plan (method_run.c). */
static int opt_method(struct run_args *a, const struct bench_option *o, const char *v)
{
	struct method_settings *m = &a->method;
	struct errbuf err;

	errbuf_init(&err);
	if (method_check_arg(o->name, v, &err) < 0)
		return cli_usage(a->cmd_name, "%s", err.msg);
	if (!strcmp(o->name, "curve"))
		m->curve = v;
	else if (!strcmp(o->name, "sweep"))
		m->sweep = v;
	else if (m->nuntil < METHOD_MAX_UNTIL)
		m->until[m->nuntil++] = v;
	else
		return cli_usage(a->cmd_name, "--until: at most %d limits", METHOD_MAX_UNTIL);
	return 0;
}

static int opt_rounds(struct run_args *a, const struct bench_option *o, const char *v)
{
	double d;
	long n;

	if (!strcmp(o->name, "max-rounds")) {
		if (parse_long(v, SS_WINDOW_DEFAULT, 1000, &n) < 0)
			return cli_usage(a->cmd_name, "--%s wants a whole number %d..1000 (a window is %d rounds), got '%s'",
					 o->name, SS_WINDOW_DEFAULT, SS_WINDOW_DEFAULT, v);
		a->method.max_rounds = (unsigned)n;
		return 0;
	}
	if (parse_duration_s(v, &d) < 0 || d < 1 || d > 86400)
		return cli_usage(a->cmd_name, "--%s wants a duration of 1 s to 24 h (e.g. 60s, 2m), got '%s'", o->name, v);
	a->method.round_s = (unsigned)(d + 0.5);
	return 0;
}

static int no_fio_check; /* --no-fio-check (lead: a run_args field with OPT_FLAG once options.h allows) */

static int opt_no_fio_check(struct run_args *a, const struct bench_option *o, const char *v)
{
	(void)a, (void)o, (void)v;
	no_fio_check = 1;
	return 0;
}

/* The store of --db is opened by main for the commands that ask for one (cli_prepare); here it is only checked. */
static int opt_db(struct run_args *a, const struct bench_option *o, const char *v)
{
	return *v ? 0 : cli_usage(a->cmd_name, "--%s needs a path", o->name);
}

static int opt_hosts(struct run_args *a, const struct bench_option *o, const char *v)
{
	struct errbuf err;

	(void)o;
	errbuf_init(&err);
	host_list_release(&a->hosts);
	if (hostsfile_read(v, &a->hosts, &err) < 0)
		return cli_fail(&err);
	a->hosts_file = v;
	a->run.hosts = &a->hosts;
	return 0;
}

/* ---- parsing -------------------------------------------------------------------------------------------- */

void run_args_init(struct run_args *a, unsigned cmd)
{
	memset(a, 0, sizeof(*a));
	no_fio_check = 0;
	a->cmd = cmd;
	a->cmd_name = cmd == OPT_PLAN ? "plan" : "run";
	plan_options_init(&a->plan);
	kvlist_init(&a->labels);
	kvlist_init(&a->engine_opts);
	host_list_init(&a->hosts);
	a->run.grace_s = 60;
	a->format = "text";
	a->suite_args = cJSON_CreateArray();
	{
		size_t n = 0;
		for (const struct engine_ops *const *e = engine_list(); *e; e++)
			n++;
		a->engine_names = xcalloc(n + 1, sizeof(*a->engine_names));
		for (size_t i = 0; i < n; i++)
			a->engine_names[i] = engine_list()[i]->name;
		a->plan.engines = a->engine_names;
	}
}

void run_args_release(struct run_args *a)
{
	if (!a)
		return;
	plan_options_release(&a->plan);
	kvlist_release(&a->labels);
	kvlist_release(&a->engine_opts);
	host_list_release(&a->hosts);
	config_list_release(a->run.configs);
	free(a->run.configs);
	free(a->profiles);
	free(a->engine_names);
	cJSON_Delete(a->suite_args);
	memset(a, 0, sizeof(*a));
}

/* NAME=value where NAME is an identifier and the whole argument is not an existing file: a variable. */
static int is_variable(const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct stat st;

	if (!eq || eq == arg || (!isalpha((unsigned char)arg[0]) && arg[0] != '_'))
		return 0;
	for (const char *p = arg; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return stat(arg, &st) != 0;
}

static const struct bench_option *find_long(const char *name, size_t len)
{
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct bench_option *find_short(char c)
{
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

/* One option at argv[*i] (advancing *i past a separate value). Returns 0 or the exit code. */
static int take_option(struct run_args *a, int argc, char **argv, int *i, cJSON *suite_opts)
{
	const char *arg = argv[*i], *value = NULL, *eq = NULL;
	const struct bench_option *o;

	if (arg[1] != '-') {
		o = arg[2] ? NULL : find_short(arg[1]);
	} else {
		eq = strchr(arg + 2, '=');
		o = find_long(arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
	}
	if (!o)
		return cli_usage(a->cmd_name, "unknown option '%s'", arg);
	if (!(o->cmds & a->cmd))
		return cli_usage(a->cmd_name, "'--%s' is an option of 'bench %s' only", o->name,
				 a->cmd == OPT_PLAN ? "run" : "plan");
	if (o->flags & OPT_VALUE) {
		if (eq)
			value = eq + 1;
		else if (*i + 1 < argc)
			value = argv[++*i];
		else
			return cli_usage(a->cmd_name, "--%s needs a value (%s)", o->name, o->metavar);
	} else if (eq) {
		return cli_usage(a->cmd_name, "--%s takes no value, got '%s'", o->name, arg);
	}
	if (o->flags & OPT_SUITE) {
		cJSON_AddItemToArray(suite_opts, cJSON_CreateString(o->name));
		if (value)
			cJSON_AddItemToArray(suite_opts, cJSON_CreateString(value));
	}
	return o->handle(a, o, value);
}

int run_args_parse(struct run_args *a, int argc, char **argv)
{
	cJSON *positional = cJSON_CreateArray(), *item;
	int only_positional = 0, rc = EXIT_OK;

	a->profiles = xcalloc((size_t)argc + 1, sizeof(*a->profiles));
	for (int i = 1; i < argc && !a->help; i++) {
		const char *arg = argv[i];

		if (!only_positional && !strcmp(arg, "--")) {
			only_positional = 1;
			continue;
		}
		if (!only_positional && arg[0] == '-' && arg[1]) {
			if ((rc = take_option(a, argc, argv, &i, a->suite_args)) != EXIT_OK)
				goto out;
			continue;
		}
		cJSON_AddItemToArray(positional, cJSON_CreateString(arg));
		if (is_variable(arg)) {
			const char *eq = strchr(arg, '=');
			char *key = xstrndup(arg, (size_t)(eq - arg));
			kvlist_set(&a->plan.vars, key, eq + 1);
			free(key);
			continue;
		}
		a->profiles[a->nprofiles++] = arg;
	}
	/* options first, then the positional arguments in order: the form --resume has always matched */
	while ((item = cJSON_DetachItemFromArray(positional, 0)))
		cJSON_AddItemToArray(a->suite_args, item);
out:
	cJSON_Delete(positional);
	return rc;
}

char *run_args_suite_text(const struct run_args *a)
{
	char *raw = cJSON_PrintUnformatted(a->suite_args), *copy = xstrdup(raw);

	cJSON_free(raw);
	return copy;
}

/* ---- help ----------------------------------------------------------------------------------------------- */

static void help_row(FILE *f, const struct bench_option *o)
{
	char head[64];
	const char *h = o->help;
	int n;

	if (o->short_name)
		n = snprintf(head, sizeof(head), "  -%c, --%s%s%s", o->short_name, o->name, o->metavar ? " " : "",
			     o->metavar ? o->metavar : "");
	else
		n = snprintf(head, sizeof(head), "  --%s%s%s", o->name, o->metavar ? " " : "",
			     o->metavar ? o->metavar : "");
	fputs(head, f);
	if (n >= HELP_COLUMN - 1)
		fprintf(f, "\n%*s", HELP_COLUMN, "");
	else
		fprintf(f, "%*s", HELP_COLUMN - n, "");
	for (; *h; h++) {
		fputc(*h, f);
		if (*h == '\n')
			fprintf(f, "%*s", HELP_COLUMN, "");
	}
	fputc('\n', f);
}

void run_args_help(FILE *f, unsigned cmd)
{
	fprintf(f, "options that change what runs ('bench plan' and 'bench run' take them alike):\n");
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (o->cmds == OPT_BOTH && !is_help(o) && !(o->flags & OPT_METHOD))
			help_row(f, o);
	fprintf(f, "  %-*s%s\n", HELP_COLUMN - 2, "NAME=value",
		"a variable: $NAME in vdbench files, ${NAME} in fio job files");
	fprintf(f, "\nthe measurement method (docs/method.md; 'bench plan' and 'bench run' alike):\n");
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (o->flags & OPT_METHOD)
			help_row(f, o);
	fprintf(f, "\noptions of 'bench %s' only:\n", cmd == OPT_PLAN ? "plan" : "run");
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (o->cmds == cmd)
			help_row(f, o);
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (is_help(o))
			help_row(f, o);
}

/* ---- from arguments to a checked plan ------------------------------------------------------------------- */

static int check_engines(const struct run_args *a, const struct plan *p)
{
	struct strbuf names;

	if (a->plan.engine && !engine_find(a->plan.engine)) {
		strbuf_init(&names);
		for (const struct engine_ops *const *e = engine_list(); *e; e++)
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", (*e)->name);
		cli_error(EXIT_INPUT, "--engine: unknown engine '%s' (engines: %s)", a->plan.engine, names.buf);
		strbuf_release(&names);
		return EXIT_INPUT;
	}

	for (size_t i = 0; i < p->n; i++) {
		const struct run_spec *s = &p->runs[i];
		const char *name = s->engine ? s->engine : "fio";
		const struct engine_ops *ops = engine_find(name);
		int rc;

		if (ops && (!a->hosts.n || (ops->flags & ENGINE_MULTIHOST)))
			continue;
		strbuf_init(&names);
		for (const struct engine_ops *const *e = engine_list(); *e; e++)
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", (*e)->name);
		if (!ops)
			rc = cli_error(EXIT_INPUT, "%s%sunknown engine '%s' for run %u '%s' (engines: %s)",
				       s->wl.src_file ? s->wl.src_file : "", s->wl.src_file ? ": " : "", name, s->seq,
				       s->name ? s->name : "", names.buf);
		else
			rc = cli_error(EXIT_USAGE, "engine '%s' cannot run on the hosts of '%s' (run %u '%s')", name,
				       a->hosts_file, s->seq, s->name ? s->name : "");
		strbuf_release(&names);
		return rc;
	}
	return EXIT_OK;
}

/* One step's host: "local" or a host of the hosts file (--hosts), else exit 3 naming the step's file:line. */
static int check_step_host(const struct run_args *a, const char *host, const char *origin)
{
	const char **names;
	const char *near;
	int rc;

	if (!host || !strcmp(host, "local"))
		return EXIT_OK;
	if (!a->hosts_file)
		return cli_error(EXIT_INPUT, "%s: step host '%s' needs a hosts file naming it (--hosts FILE)", origin,
				 host);
	for (size_t i = 0; i < a->hosts.n; i++)
		if (!strcmp(a->hosts.v[i].name, host))
			return EXIT_OK;
	names = xcalloc(a->hosts.n + 1, sizeof(*names));
	for (size_t i = 0; i < a->hosts.n; i++)
		names[i] = a->hosts.v[i].name;
	near = suggest_closest(host, names, a->hosts.n);
	if (near)
		rc = cli_error(EXIT_INPUT, "%s: step host '%s' is not in the hosts file '%s': did you mean '%s'?", origin,
			       host, a->hosts_file, near);
	else
		rc = cli_error(EXIT_INPUT, "%s: step host '%s' is not in the hosts file '%s'", origin, host,
			       a->hosts_file);
	free(names);
	return rc;
}

/* Every host a configuration step names (@HOST, or the configuration's host =) is known: at plan time, before a
 * database is opened or a run stored. */
static int check_config_hosts(const struct run_args *a, const struct config_list *cl)
{
	for (size_t i = 0; i < cl->n; i++) {
		const struct suite_config *c = &cl->v[i];
		for (int ph = 0; ph < CONFIG_NPHASES; ph++)
			for (size_t k = 0; k < c->nsteps[ph]; k++) {
				const struct config_step *st = &c->steps[ph][k];
				int rc = check_step_host(a, st->host ? st->host : c->host,
							 st->origin ? st->origin : c->file);
				if (rc != EXIT_OK)
					return rc;
			}
	}
	return EXIT_OK;
}

/*
 * The member devices of every configuration built on this host hold no data (unless --destructive) and are not
 * in use (never): the consent rules of engines/target.h, at plan time, before a database is opened or a run
 * stored. Members of a configuration whose steps run on another host are probed there by the run's preflight.
 */
static int check_config_members(const struct run_args *a, const struct config_list *cl)
{
	int flags = a->run.destructive ? TARGET_DESTRUCTIVE : 0;

	for (size_t i = 0; i < cl->n; i++) {
		const struct suite_config *c = &cl->v[i];
		if (c->host && strcmp(c->host, "local"))
			continue;
		for (size_t m = 0; m < c->nmembers; m++) {
			struct errbuf err;
			errbuf_init(&err);
			if (target_check(c->members[m], flags, &err) < 0)
				return cli_error(EXIT_INPUT, "%s:%d: configuration '%s': member %s: %s", c->file, c->line,
						 c->name, c->members[m], err.msg);
		}
	}
	return EXIT_OK;
}

/*
 * What the command line adds to the plan, so that the plan holds exactly what the store will: --label joins
 * the suite's labels (a run's stored labels are its own, then the suite's: runloop.c), --engine-opt every run.
 */
static void apply_command_line(const struct run_args *a, struct plan *p)
{
	for (size_t k = 0; k < a->labels.n; k++)
		kvlist_set(&p->labels, a->labels.v[k].key, a->labels.v[k].value);
	for (size_t i = 0; i < p->n; i++)
		for (size_t k = 0; k < a->engine_opts.n; k++)
			kvlist_set(&p->runs[i].engine_opts, a->engine_opts.v[k].key, a->engine_opts.v[k].value);
}

/* fio parses every job file of the plan (engines/fio_check.h): its complaint is bad input (exit 3); a fio that
 * cannot be asked is a warning (plan on a machine without fio; run then fails as it always did). */
static int check_with_fio(const struct run_args *a, const struct plan *p)
{
	struct fio_check_opts o = { a->hosts.n ? &a->hosts : NULL, paths_sim_so(), NULL };
	struct errbuf err;

	errbuf_init(&err);
	if (no_fio_check)
		cli_warn("the job files were not checked by fio (--no-fio-check)");
	else if (fio_check_plan(p->runs, p->n, &o, NULL, &err) < 0 && err.kind == ERR_INPUT)
		return cli_fail(&err);
	else if (err.msg[0])
		cli_warn("the job files were not checked by fio: %s", err.msg);
	return EXIT_OK;
}

int run_args_start(struct run_args *a, unsigned cmd, int argc, char **argv, void (*usage)(void), struct plan *plan)
{
	int rc;

	run_args_init(a, cmd);
	plan_init(plan);
	if ((rc = run_args_parse(a, argc, argv)) != EXIT_OK)
		return rc;
	if (a->help) {
		usage();
		return EXIT_OK;
	}
	return run_args_plan(a, plan);
}

int run_args_plan(struct run_args *a, struct plan *out)
{
	struct errbuf err;
	int rc;

	errbuf_init(&err);
	if (!a->nprofiles)
		return cli_usage(a->cmd_name, "name a suite, a fio job file, a vdbench parameter file or an HCIbench "
				 "name (e.g. 'bench %s hcibench-easyrun --quick')", a->cmd_name);
	if (a->interleave && a->nprofiles < 2)
		return cli_usage(a->cmd_name, "--interleave needs two or more profiles to alternate");
	if (a->interleave ? plan_build_interleaved(a->profiles, a->nprofiles, &a->plan, out, &err) < 0
			  : plan_build(a->profiles, a->nprofiles, &a->plan, out, &err) < 0)
		return cli_fail(&err);
	for (size_t i = 0; i < out->nwarnings; i++)
		cli_warn("%s", out->warnings[i]);
	if (!out->n)
		return cli_error(EXIT_INPUT, "'%s' expands to no runs", a->profiles[0]);
	/* curves and sweeps, then [config] sections: every run once per configuration (profiles/config.h), then
	 * the preconditioning phases, which depend on the configuration (method_run.h) */
	a->run.configs = xcalloc(1, sizeof(*a->run.configs));
	config_list_init(a->run.configs);
	if (method_expand(out, &a->method, NULL, a->plan.quick, 0, &err) < 0 ||
	    config_collect(a->profiles, a->nprofiles, a->run.configs, &err) < 0 ||
	    config_plan_cross(out, a->run.configs, a->plan.ntargets > 0, &err) < 0 ||
	    method_expand(out, &a->method, a->run.configs, a->plan.quick, 1, &err) < 0)
		return cli_fail(&err);

	if ((rc = check_engines(a, out)) != EXIT_OK || (rc = check_config_hosts(a, a->run.configs)) != EXIT_OK ||
	    (rc = check_config_members(a, a->run.configs)) != EXIT_OK)
		return rc;
	apply_command_line(a, out);
	return check_with_fio(a, out);
}
