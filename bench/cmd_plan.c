/*
 * cmd_plan: `bench plan PROFILE... [options]` expands suites, fio job files, vdbench parameter files and
 * HCIbench names into the exact list of runs `bench run` would execute, validates them and prints them
 * (table or JSON) with the total count and the estimated wall time. Nothing is run, nothing is stored.
 * The profile options are parsed here for `bench run` too (cmd_plan.h).
 */
#include "bench/cmd_plan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "bench/cli.h"
#include "bench/commands.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "engines/fio_jobfile.h"

const char plan_cli_options_help[] =
	"  --target PATH         run on this file or device (repeatable: several targets, one job each);\n"
	"                        default: the profile's targets, else bench-target.dat in the work directory\n"
	"  --quick               shrink warm-up (ramp), runtime and working set to try a suite in minutes\n"
	"                        (built-in suites: 2 s ramp, 10 s run, 256 MiB per target)\n"
	"  --matrix KEY=V1,V2    cross every workload with these values (repeatable; first --matrix outermost):\n"
	"                        bs, rdpct, randpct, iodepth (or threads), numjobs, or any fio option\n"
	"  --repeat N            run the whole list N times (repetition outermost)\n"
	"  --engine NAME         load generator for every run (fio, sim, null); default fio\n"
	"  --workdir DIR         where default target files go (default: current directory)\n"
	"  NAME=value            a variable: $NAME in vdbench files, ${NAME} in fio job files\n";

static int is_var_arg(const char *a)
{
	const char *eq = strchr(a, '=');
	struct stat st;

	if (!eq || eq == a || a[0] == '-')
		return 0;
	if (!isalpha((unsigned char)a[0]) && a[0] != '_')
		return 0;
	for (const char *p = a; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return stat(a, &st) != 0;
}

/* The value of --opt VALUE or --opt=VALUE; NULL (usage printed) when missing. */
static const char *opt_value(const char *cmd, int argc, char **argv, int *i, const char *name, int *bad)
{
	size_t l = strlen(name);

	if (!strncmp(argv[*i], name, l) && argv[*i][l] == '=')
		return argv[*i] + l + 1;
	if (*i + 1 >= argc) {
		cli_usage(cmd, "%s needs a value", name);
		*bad = 1;
		return NULL;
	}
	return argv[++*i];
}

static int opt_is(const char *arg, const char *name)
{
	size_t l = strlen(name);
	return !strncmp(arg, name, l) && (arg[l] == '\0' || arg[l] == '=');
}

int plan_cli_option(const char *cmd, int argc, char **argv, int *i, struct plan_options *opt)
{
	const char *a = argv[*i], *v;
	int bad = 0;

	if (opt_is(a, "--target")) {
		if (!(v = opt_value(cmd, argc, argv, i, "--target", &bad)))
			return -1;
		if (!*v) {
			cli_usage(cmd, "--target needs a path");
			return -1;
		}
		opt->targets = xrealloc(opt->targets, (opt->ntargets + 1) * sizeof(*opt->targets));
		opt->targets[opt->ntargets++] = xstrdup(v);
		return 1;
	}
	if (!strcmp(a, "--quick")) {
		opt->quick = 1;
		return 1;
	}
	if (opt_is(a, "--matrix")) {
		const char *eq;
		char *key;
		if (!(v = opt_value(cmd, argc, argv, i, "--matrix", &bad)))
			return -1;
		eq = strchr(v, '=');
		if (!eq || eq == v || !eq[1]) {
			cli_usage(cmd, "--matrix wants KEY=V1,V2,..., got '%s'", v);
			return -1;
		}
		key = xstrndup(v, (size_t)(eq - v));
		kvlist_set(&opt->matrix, key, eq + 1);
		free(key);
		return 1;
	}
	if (opt_is(a, "--repeat")) {
		long n;
		if (!(v = opt_value(cmd, argc, argv, i, "--repeat", &bad)))
			return -1;
		if (parse_long(v, 1, 10000, &n) < 0) {
			cli_usage(cmd, "--repeat wants a whole number 1..10000, got '%s'", v);
			return -1;
		}
		opt->repeat = (unsigned)n;
		return 1;
	}
	if (opt_is(a, "--engine")) {
		if (!(v = opt_value(cmd, argc, argv, i, "--engine", &bad)))
			return -1;
		opt->engine = v;
		return 1;
	}
	if (opt_is(a, "--workdir")) {
		if (!(v = opt_value(cmd, argc, argv, i, "--workdir", &bad)))
			return -1;
		opt->workdir = v;
		return 1;
	}
	if (is_var_arg(a)) {
		const char *eq = strchr(a, '=');
		char *key = xstrndup(a, (size_t)(eq - a));
		kvlist_set(&opt->vars, key, eq + 1);
		free(key);
		return 1;
	}
	(void)bad;
	return 0;
}

static void fmt_time(char *buf, size_t len, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

static void fmt_pct(char *buf, size_t len, int v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d", v);
}

static char *targets_text(const struct run_spec *s)
{
	struct strbuf sb;

	strbuf_init(&sb);
	if (s->ntargets > 2) {
		strbuf_addf(&sb, "%s ... %s (%zu)", s->targets[0], s->targets[s->ntargets - 1], s->ntargets);
		return strbuf_detach(&sb, NULL);
	}
	for (size_t i = 0; i < s->ntargets; i++) {
		if (i)
			strbuf_addc(&sb, ',');
		strbuf_adds(&sb, s->targets[i]);
	}
	if (!s->ntargets)
		strbuf_adds(&sb, "-");
	return strbuf_detach(&sb, NULL);
}

char *plan_fio_job_text(const struct run_spec *s)
{
	struct strbuf sb;
	struct errbuf err;

	/* exactly what the fio engine writes for this run (engines/fio_jobfile.c) */
	strbuf_init(&sb);
	errbuf_init(&err);
	if (fio_jobfile_write(s, s->targets, s->ntargets, NULL, &sb, &err) < 0) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "; cannot write a fio job for this run: %s\n", err.msg);
	}
	return strbuf_detach(&sb, NULL);
}

void plan_print_text(FILE *f, const struct plan *p, int verbose)
{
	char t[32];
	size_t wname = 4;

	for (size_t i = 0; i < p->n; i++) {
		size_t l = strlen(p->runs[i].name ? p->runs[i].name : "");
		if (l > wname)
			wname = l;
	}
	fprintf(f, "%4s  %-*s  %-6s  %6s  %5s  %5s  %7s  %7s  %6s  %7s  %s\n", "#", (int)wname, "name", "engine", "bs",
		"read%", "rand%", "iodepth", "numjobs", "ramp", "runtime", "targets");
	for (size_t i = 0; i < p->n; i++) {
		const struct run_spec *s = &p->runs[i];
		char bs[32], rd[16], rn[16], ramp[24], rt[24];
		char *tg = targets_text(s);
		if (s->wl.bssplit && !s->wl.bs_bytes)
			snprintf(bs, sizeof(bs), "split");
		else
			format_size_short(s->wl.bs_bytes, bs, sizeof(bs));
		fmt_pct(rd, sizeof(rd), s->wl.read_pct);
		fmt_pct(rn, sizeof(rn), s->wl.random_pct);
		snprintf(ramp, sizeof(ramp), "%us", s->wl.ramp_s);
		snprintf(rt, sizeof(rt), "%us", s->wl.runtime_s);
		fprintf(f, "%4u  %-*s  %-6s  %6s  %5s  %5s  %7u  %7u  %6s  %7s  %s", s->seq, (int)wname,
			s->name ? s->name : "", s->engine ? s->engine : "fio", bs, rd, rn, s->wl.iodepth, s->wl.numjobs,
			ramp, rt, tg);
		if (p->repeat > 1)
			fprintf(f, "  (repetition %u)", s->repetition);
		fputc('\n', f);
		free(tg);
	}
	fmt_time(t, sizeof(t), plan_estimate_s(p));
	fprintf(f, "%zu run%s, estimated wall time %s\n", p->n, p->n == 1 ? "" : "s", t);
	if (verbose) {
		for (size_t i = 0; i < p->n; i++) {
			const struct run_spec *s = &p->runs[i];
			char *job = plan_fio_job_text(s);
			fprintf(f, "\n# run %u: %s (from %s:%d, %s)\n%s", s->seq, s->name ? s->name : "",
				s->wl.src_file ? s->wl.src_file : "?", s->wl.src_line, s->wl.tool ? s->wl.tool : "fio",
				job);
			free(job);
		}
	}
}

static void add_kv_object(cJSON *parent, const char *name, const struct kvlist *l)
{
	cJSON *o = cJSON_AddObjectToObject(parent, name);
	for (size_t i = 0; i < l->n; i++)
		cJSON_AddStringToObject(o, l->v[i].key, l->v[i].value ? l->v[i].value : "");
}

void plan_print_json(FILE *f, const struct plan *p)
{
	cJSON *root = cJSON_CreateObject(), *runs, *warn;
	char *text;

	cJSON_AddStringToObject(root, "suite", p->name ? p->name : "");
	add_kv_object(root, "labels", &p->labels);
	cJSON_AddNumberToObject(root, "count", (double)p->n);
	cJSON_AddNumberToObject(root, "repeat", p->repeat ? p->repeat : 1);
	cJSON_AddNumberToObject(root, "estimated_s", plan_estimate_s(p));
	runs = cJSON_AddArrayToObject(root, "runs");
	for (size_t i = 0; i < p->n; i++) {
		const struct run_spec *s = &p->runs[i];
		const struct workload *w = &s->wl;
		cJSON *r = cJSON_CreateObject(), *a, *o;
		char bs[32];

		cJSON_AddNumberToObject(r, "seq", s->seq);
		cJSON_AddNumberToObject(r, "repetition", s->repetition);
		cJSON_AddStringToObject(r, "name", s->name ? s->name : "");
		cJSON_AddStringToObject(r, "engine", s->engine ? s->engine : "fio");
		cJSON_AddStringToObject(r, "tool", w->tool ? w->tool : "fio");
		cJSON_AddStringToObject(r, "rw", w->rw ? w->rw : "");
		cJSON_AddStringToObject(r, "bs", format_size_short(w->bs_bytes, bs, sizeof(bs)));
		cJSON_AddNumberToObject(r, "bs_bytes", (double)w->bs_bytes);
		if (w->bssplit)
			cJSON_AddStringToObject(r, "bssplit", w->bssplit);
		cJSON_AddNumberToObject(r, "read_pct", w->read_pct);
		cJSON_AddNumberToObject(r, "random_pct", w->random_pct);
		cJSON_AddNumberToObject(r, "iodepth", w->iodepth);
		cJSON_AddNumberToObject(r, "numjobs", w->numjobs);
		if (w->size)
			cJSON_AddStringToObject(r, "size", w->size);
		else
			cJSON_AddNullToObject(r, "size");
		cJSON_AddNumberToObject(r, "ramp_s", w->ramp_s);
		cJSON_AddNumberToObject(r, "runtime_s", w->runtime_s);
		cJSON_AddNumberToObject(r, "compress_pct", w->compress_pct);
		cJSON_AddNumberToObject(r, "dedupe_pct", w->dedupe_pct);
		a = cJSON_AddArrayToObject(r, "targets");
		for (size_t t = 0; t < s->ntargets; t++)
			cJSON_AddItemToArray(a, cJSON_CreateString(s->targets[t]));
		add_kv_object(r, "labels", &s->labels);
		if (s->engine_opts.n)
			add_kv_object(r, "engine_options", &s->engine_opts);
		a = cJSON_AddArrayToObject(r, "fio_options");
		for (size_t k = 0; k < w->opts.n; k++) {
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "name", w->opts.v[k].key);
			if (w->opts.v[k].value)
				cJSON_AddStringToObject(o, "value", w->opts.v[k].value);
			else
				cJSON_AddNullToObject(o, "value");
			cJSON_AddItemToArray(a, o);
		}
		if (w->src_file) {
			cJSON_AddStringToObject(r, "source", w->src_file);
			cJSON_AddNumberToObject(r, "source_line", w->src_line);
		}
		cJSON_AddItemToArray(runs, r);
	}
	warn = cJSON_AddArrayToObject(root, "warnings");
	for (size_t i = 0; i < p->nwarnings; i++)
		cJSON_AddItemToArray(warn, cJSON_CreateString(p->warnings[i]));
	text = cJSON_Print(root);
	fputs(text, f);
	fputc('\n', f);
	free(text);
	cJSON_Delete(root);
}

static void usage(void)
{
	printf("usage: bench plan PROFILE... [options]\n\n"
	       "Shows the runs a profile expands to, without running anything: number, name, engine, block size,\n"
	       "read %%, random %%, iodepth, numjobs, warm-up (ramp), runtime and targets, then the total count and\n"
	       "the estimated wall time. `bench run` with the same arguments executes exactly this list.\n\n"
	       "PROFILE is any of:\n"
	       "  a built-in suite        hcibench-easyrun, nvmeof-vs-iser, ... (see 'bench profiles list')\n"
	       "  a fio job file          one run per job section; jobs that differ only by filename are one run\n"
	       "                          over those targets\n"
	       "  a vdbench parameter file  sd/wd/rd, for-loops expanded in vdbench's order, translated to fio\n"
	       "  a suite file            bench's own format (docs/suite-format.md)\n"
	       "  an HCIbench test name   fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads (or vdb-...)\n\n"
	       "options:\n%s"
	       "  --format text|json    output format (default text)\n"
	       "  -v, --verbose         also print each run's fio job (the translation of vdbench runs)\n"
	       "  --interleave          alternate two or more profiles in blocks (A B, B A, ...), as bench run does\n"
	       "  -h, --help            this help\n\n"
	       "exit codes: 0 the plan is valid, 2 usage error, 3 bad profile (the message names file:line).\n",
	       plan_cli_options_help);
}

int cmd_plan(int argc, char **argv)
{
	struct plan_options opt;
	struct plan plan;
	struct errbuf err;
	const char **args = NULL;
	size_t nargs = 0;
	const char *format = "text";
	int verbose = 0, interleave = 0, rc = EXIT_OK;

	plan_options_init(&opt);
	plan_init(&plan);
	errbuf_init(&err);
	args = xcalloc((size_t)argc + 1, sizeof(*args));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			goto out;
		}
		if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = 1;
			continue;
		}
		if (!strcmp(a, "--interleave")) {
			interleave = 1;
			continue;
		}
		if (!strcmp(a, "--format") || !strncmp(a, "--format=", 9)) {
			if (a[8] == '=')
				format = a + 9;
			else if (i + 1 < argc)
				format = argv[++i];
			else {
				rc = cli_usage("plan", "--format needs text or json");
				goto out;
			}
			if (strcmp(format, "text") && strcmp(format, "json")) {
				rc = cli_usage("plan", "--format must be text or json, got '%s'", format);
				goto out;
			}
			continue;
		}
		r = plan_cli_option("plan", argc, argv, &i, &opt);
		if (r < 0) {
			rc = EXIT_USAGE;
			goto out;
		}
		if (r > 0)
			continue;
		if (a[0] == '-' && a[1]) {
			rc = cli_usage("plan", "unknown option '%s'", a);
			goto out;
		}
		args[nargs++] = a;
	}
	if (!nargs) {
		rc = cli_usage("plan", "name a suite, a fio job file, a vdbench parameter file or an HCIbench name");
		goto out;
	}
	if (interleave && nargs < 2) {
		rc = cli_usage("plan", "--interleave needs two or more profiles to alternate");
		goto out;
	}
	if (interleave ? plan_build_interleaved(args, nargs, &opt, &plan, &err) < 0
		       : plan_build(args, nargs, &opt, &plan, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	for (size_t i = 0; i < plan.nwarnings; i++)
		cli_warn("%s", plan.warnings[i]);
	if (!strcmp(format, "json"))
		plan_print_json(stdout, &plan);
	else
		plan_print_text(stdout, &plan, verbose);
out:
	free(args);
	plan_release(&plan);
	plan_options_release(&opt);
	return rc;
}
