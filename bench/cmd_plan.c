/*
 * cmd_plan: `bench plan PROFILE... [options]` expands suites, fio job files, vdbench parameter files and
 * HCIbench names into the exact list of runs `bench run` would execute, validates them as `bench run` does
 * (options.c) and prints them (table or JSON) with the total count and the estimated wall time. With
 * `baseline = on` it lists, per configuration, the baseline runs the run loop plans around its runs
 * (bench/baseline_plan.h, as if nothing were stored) and counts them in the estimate. Nothing is run, nothing
 * is stored.
 */
#include "bench/cmd_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "bench/baseline_plan.h"
#include "bench/cli.h"
#include "bench/commands.h"
#include "bench/runloop_method.h"
#include "bench/options.h"
#include "core/spec_json.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "engines/fio_jobfile.h"

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

/* The jobs of a run of several jobs, one indented line each: they run together, as fio runs them. */
static void print_jobs_text(FILE *f, const struct run_spec *s)
{
	for (size_t j = 0; j < s->njobs; j++) {
		const struct workload *w = &s->jobs[j].wl;
		char bs[32], rd[16], rn[16];
		struct run_spec one;
		char *tg;

		run_spec_job(s, j, &one);
		tg = targets_text(&one);
		if (w->bssplit && !w->bs_bytes)
			snprintf(bs, sizeof(bs), "split");
		else
			format_size_short(w->bs_bytes, bs, sizeof(bs));
		fmt_pct(rd, sizeof(rd), w->read_pct);
		fmt_pct(rn, sizeof(rn), w->random_pct);
		fprintf(f, "%4s  %-9s job %zu/%zu %s: %s bs %s read%% %s rand%% %s iodepth %u numjobs %u on %s\n", "",
			j ? "" : "together:", j + 1, s->njobs, s->jobs[j].name, w->rw ? w->rw : "?", bs, rd, rn,
			w->iodepth, w->numjobs, tg);
		free(tg);
		run_spec_release(&one);
	}
}

/* ---- baselines: the runs `baseline = on` adds around each configuration's ----------------------------- */

/* One configuration's baseline runs, as the run loop plans them with nothing stored. */
struct config_baselines {
	size_t config;           /* its index in the config list */
	struct plan runs;        /* runs[0..nbefore) before its setup, the rest once it is built */
	size_t nbefore;
	char *note[2];           /* the planner's error before setup / once built (malloc'd), or NULL */
};

/* Every configuration's, in the order the run loop takes them; `wanted`: some configuration has any. */
struct plan_baselines {
	struct config_baselines *v;
	size_t n;
	size_t nruns;            /* baseline runs in all */
	double s;                /* their estimated wall time, seconds (plan_estimate_s) */
	int wanted;
};

/* The two calls the run loop makes per configuration (bench/runloop.c config_baselines), st NULL: every
 * baseline is planned (`bench run` reuses those stored under the same key). */
static void config_baselines_plan(struct config_baselines *cb, const struct plan *p, const struct plan_config *pc,
				  const struct config_list *cl, const struct host_list *hosts)
{
	cb->config = pc->config;
	plan_init(&cb->runs);
	for (int built = 0; built <= 1; built++) {
		struct errbuf err;

		errbuf_init(&err);
		if (baseline_plan_config(NULL, p, &cl->v[pc->config], pc->first, pc->end, built, 1, hosts, NULL, "",
					 &cb->runs, &err) < 0)
			cb->note[built] = xstrdup(err.msg);
		if (!built)
			cb->nbefore = cb->runs.n;
	}
}

static void plan_baselines_make(struct plan_baselines *b, const struct plan *p, const struct config_list *cl,
				const struct host_list *hosts)
{
	memset(b, 0, sizeof(*b));
	if (!cl || !cl->n) /* the run loop makes baselines for configurations only */
		return;
	b->v = xcalloc(p->nconfigs + 1, sizeof(*b->v));
	for (size_t k = 0; k < p->nconfigs; k++) {
		struct config_baselines *cb;

		if (p->configs[k].first == p->configs[k].end)
			continue;
		cb = &b->v[b->n++];
		config_baselines_plan(cb, p, &p->configs[k], cl, hosts);
		b->nruns += cb->runs.n;
		b->s += plan_estimate_s(&cb->runs);
		if (cb->runs.n || cb->note[0] || cb->note[1])
			b->wanted = 1;
	}
}

static void plan_baselines_release(struct plan_baselines *b)
{
	for (size_t k = 0; k < b->n; k++) {
		plan_release(&b->v[k].runs);
		free(b->v[k].note[0]);
		free(b->v[k].note[1]);
	}
	free(b->v);
	memset(b, 0, sizeof(*b));
}

/* The configuration `ci`'s baselines, or NULL. */
static const struct config_baselines *baselines_of(const struct plan_baselines *b, size_t ci)
{
	for (size_t k = 0; b && k < b->n; k++)
		if (b->v[k].config == ci)
			return &b->v[k];
	return NULL;
}

static void print_estimate(FILE *f, const struct plan *p, const struct plan_baselines *b)
{
	char t[32];
	int with = b && b->wanted;
	double est = plan_estimate_s(p) + (with ? b->s : 0);

	fmt_time(t, sizeof(t), est);
	if (est >= 3600) /* said before the count, which stays the last line of a plan */
		fprintf(f, "(over an hour: --quick, or --runtime/--ramp, shorten every run and keep its name)\n");
	if (with)
		fprintf(f, "(baseline runs: 'bench run' makes none whose key has a done run stored, so it may make "
			"fewer)\n%zu run%s and %zu baseline run%s, estimated wall time %s\n", p->n, p->n == 1 ? "" : "s",
			b->nruns, b->nruns == 1 ? "" : "s", t);
	else
		fprintf(f, "%zu run%s, estimated wall time %s\n", p->n, p->n == 1 ? "" : "s", t);
}

void plan_print_estimate(FILE *f, const struct plan *p)
{
	print_estimate(f, p, NULL);
}

void plan_print_estimate_baselines(FILE *f, const struct plan *p, const struct config_list *cl,
				   const struct host_list *hosts)
{
	struct plan_baselines b;

	plan_baselines_make(&b, p, cl, hosts);
	print_estimate(f, p, &b);
	plan_baselines_release(&b);
}

static void print_text(FILE *f, const struct plan *p, const struct plan_baselines *b, int verbose)
{
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
		char bs[32], rd[16], rn[16], ramp[24], rt[24], method[512];
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
		print_jobs_text(f, s);
		method_describe(s, method, sizeof(method));
		if (method[0])
			fprintf(f, "%4s  %s\n", "", method);
	}
	print_estimate(f, p, b);
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

void plan_print_text(FILE *f, const struct plan *p, int verbose)
{
	print_text(f, p, NULL, verbose);
}

static void add_kv_object(cJSON *parent, const char *name, const struct kvlist *l)
{
	cJSON *o = cJSON_AddObjectToObject(parent, name);
	for (size_t i = 0; i < l->n; i++)
		cJSON_AddStringToObject(o, l->v[i].key, l->v[i].value ? l->v[i].value : "");
}

static void add_hosts(cJSON *root, const struct host_list *hosts)
{
	cJSON *a = cJSON_AddArrayToObject(root, "hosts");

	for (size_t i = 0; hosts && i < hosts->n; i++) {
		const struct host *h = &hosts->v[i];
		cJSON *o = cJSON_CreateObject(), *t;

		cJSON_AddStringToObject(o, "name", h->name);
		cJSON_AddStringToObject(o, "address", h->addr);
		cJSON_AddNumberToObject(o, "port", h->port);
		cJSON_AddStringToObject(o, "role", h->role == ROLE_TARGET ? "target" : "initiator");
		t = cJSON_AddArrayToObject(o, "targets");
		for (size_t k = 0; k < h->ntargets; k++)
			cJSON_AddItemToArray(t, cJSON_CreateString(h->targets[k]));
		cJSON_AddItemToArray(a, o);
	}
}

/* The workload fields of a run (or of one job of a run of several jobs) in plan JSON. */
static void add_workload_json(cJSON *r, const struct workload *w)
{
	cJSON *a, *o;
	char bs[32];

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
}

static cJSON *plan_json(const struct plan *p, const struct plan_baselines *b, const struct host_list *hosts)
{
	cJSON *root = cJSON_CreateObject(), *runs, *warn;
	int with = b && b->wanted;

	cJSON_AddStringToObject(root, "suite", p->name ? p->name : "");
	add_kv_object(root, "labels", &p->labels);
	cJSON_AddNumberToObject(root, "count", (double)p->n);
	cJSON_AddNumberToObject(root, "repeat", p->repeat ? p->repeat : 1);
	cJSON_AddNumberToObject(root, "estimated_s", plan_estimate_s(p) + (with ? b->s : 0));
	if (with) { /* beside the count: the configurations' "baselines" list them */
		cJSON_AddNumberToObject(root, "baseline_runs", (double)b->nruns);
		cJSON_AddNumberToObject(root, "baseline_s", b->s);
	}
	add_hosts(root, hosts);
	runs = cJSON_AddArrayToObject(root, "runs");
	for (size_t i = 0; i < p->n; i++) {
		const struct run_spec *s = &p->runs[i];
		const struct workload *w = &s->wl;
		cJSON *r = cJSON_CreateObject(), *a;
		struct kvlist labels;
		char method[512];

		cJSON_AddNumberToObject(r, "seq", s->seq);
		cJSON_AddNumberToObject(r, "repetition", s->repetition);
		cJSON_AddStringToObject(r, "name", s->name ? s->name : "");
		cJSON_AddStringToObject(r, "engine", s->engine ? s->engine : "fio");
		add_workload_json(r, w);
		a = cJSON_AddArrayToObject(r, "targets");
		for (size_t t = 0; t < s->ntargets; t++)
			cJSON_AddItemToArray(a, cJSON_CreateString(s->targets[t]));
		kvlist_init(&labels); /* what the run is stored with (bench/runloop.c merge_labels, the plan's aside) */
		kvlist_copy(&labels, &s->labels);
		run_method_labels(s, &labels);
		add_kv_object(r, "labels", &labels);
		kvlist_release(&labels);
		method_describe(s, method, sizeof(method));
		if (method[0])
			cJSON_AddStringToObject(r, "method", method);
		cJSON_AddItemToObject(r, "run_method", run_method_to_json(&s->method));
		if (s->engine_opts.n)
			add_kv_object(r, "engine_options", &s->engine_opts);
		if (s->njobs) {
			/* a run of several jobs: they run together (fio's jobs between two stonewalls) */
			cJSON *jobs = cJSON_AddArrayToObject(r, "jobs");
			for (size_t j = 0; j < s->njobs; j++) {
				cJSON *jo = cJSON_CreateObject(), *jt;
				cJSON_AddStringToObject(jo, "name", s->jobs[j].name);
				add_workload_json(jo, &s->jobs[j].wl);
				jt = cJSON_AddArrayToObject(jo, "targets");
				for (size_t t = 0; t < s->jobs[j].ntargets; t++)
					cJSON_AddItemToArray(jt, cJSON_CreateString(s->jobs[j].targets[t]));
				cJSON_AddItemToArray(jobs, jo);
			}
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
	return root;
}

static void print_json(FILE *f, cJSON *root)
{
	char *text = cJSON_Print(root);

	fputs(text, f);
	fputc('\n', f);
	free(text);
	cJSON_Delete(root);
}

/* ---- configurations: what is built, checked, recorded and torn down around their runs ------------------ */

/* The 1-based first and last run of configuration `ci` of the list (plan.configs), 0 0 when it has none. */
static void config_runs(const struct plan *p, size_t ci, size_t *first, size_t *last)
{
	*first = *last = 0;
	for (size_t k = 0; k < p->nconfigs; k++)
		if (p->configs[k].config == ci && p->configs[k].end > p->configs[k].first) {
			*first = p->configs[k].first + 1;
			*last = p->configs[k].end;
		}
}

static const char *const when_name[2][2] = { { "before setup", "once built" }, { "before_setup", "built" } };

/* A configuration's baselines in plan JSON: "baselines" (one object per run) and "baseline_notes". */
static void baselines_json(cJSON *o, const struct config_baselines *cb)
{
	cJSON *a = cJSON_AddArrayToObject(o, "baselines"), *n;

	for (size_t i = 0; i < cb->runs.n; i++) {
		const struct run_spec *s = &cb->runs.runs[i];
		const char *member = kvlist_get(&s->labels, "baseline.member", NULL);
		cJSON *r = cJSON_CreateObject(), *t;

		cJSON_AddStringToObject(r, "name", s->name ? s->name : "");
		cJSON_AddStringToObject(r, "kind", kvlist_get(&s->labels, "baseline.kind", ""));
		if (member)
			cJSON_AddStringToObject(r, "member", member);
		t = cJSON_AddArrayToObject(r, "targets");
		for (size_t k = 0; k < s->ntargets; k++)
			cJSON_AddItemToArray(t, cJSON_CreateString(s->targets[k]));
		cJSON_AddNumberToObject(r, "ramp_s", s->wl.ramp_s);
		cJSON_AddNumberToObject(r, "runtime_s", s->wl.runtime_s);
		cJSON_AddStringToObject(r, "when", when_name[1][i >= cb->nbefore]);
		cJSON_AddItemToArray(a, r);
	}
	n = cJSON_AddArrayToObject(o, "baseline_notes");
	for (int w = 0; w < 2; w++)
		if (cb->note[w]) {
			char *text = xasprintf("%s: no baseline: %s", when_name[0][w], cb->note[w]);
			cJSON_AddItemToArray(n, cJSON_CreateString(text));
			free(text);
		}
}

static void configs_json(cJSON *root, const struct plan *p, const struct config_list *cl,
			 const struct plan_baselines *b)
{
	cJSON *a = cJSON_AddArrayToObject(root, "configurations");

	for (size_t i = 0; cl && i < cl->n; i++) {
		const struct suite_config *c = &cl->v[i];
		cJSON *o = cJSON_CreateObject(), *t;
		size_t first, last;

		config_runs(p, i, &first, &last);
		cJSON_AddStringToObject(o, "name", c->name);
		cJSON_AddStringToObject(o, "source", c->file);
		cJSON_AddNumberToObject(o, "source_line", c->line);
		cJSON_AddNumberToObject(o, "first_run", (double)first);
		cJSON_AddNumberToObject(o, "last_run", (double)last);
		add_kv_object(o, "labels", &c->labels);
		t = cJSON_AddArrayToObject(o, "recipes");
		for (size_t k = 0; k < c->nrecipes; k++)
			cJSON_AddItemToArray(t, cJSON_CreateString(c->recipes[k]));
		t = cJSON_AddArrayToObject(o, "targets");
		for (size_t k = 0; k < c->ntargets; k++)
			cJSON_AddItemToArray(t, cJSON_CreateString(c->targets[k]));
		t = cJSON_AddArrayToObject(o, "members");
		for (size_t k = 0; k < c->nmembers; k++)
			cJSON_AddItemToArray(t, cJSON_CreateString(c->members[k]));
		add_kv_object(o, "precondition", &c->precondition);
		add_kv_object(o, "sim", &c->sim_opts);
		for (int ph = 0; ph < CONFIG_NPHASES; ph++) {
			cJSON *steps = cJSON_AddArrayToObject(o, config_phase_name((enum config_phase)ph));
			for (size_t k = 0; k < c->nsteps[ph]; k++) {
				const struct config_step *s = &c->steps[ph][k];
				cJSON *so = cJSON_CreateObject(), *av = cJSON_AddArrayToObject(so, "argv");
				for (size_t w = 0; w < s->argc; w++)
					cJSON_AddItemToArray(av, cJSON_CreateString(s->argv[w]));
				if (s->host || c->host)
					cJSON_AddStringToObject(so, "host", s->host ? s->host : c->host);
				cJSON_AddNumberToObject(so, "timeout_s", config_step_timeout_s(c, s));
				cJSON_AddItemToArray(steps, so);
			}
		}
		if (b && b->wanted && baselines_of(b, i))
			baselines_json(o, baselines_of(b, i));
		cJSON_AddItemToArray(a, o);
	}
}

/* A configuration's baselines in its block, in the order they run: when, kind, name, ramp, runtime, targets,
 * and the planner's note where it planned none (or not all: what it planned first still runs). */
static void print_config_baselines(FILE *f, const struct config_baselines *cb)
{
	size_t wname = 4;

	for (size_t i = 0; i < cb->runs.n; i++)
		if (strlen(cb->runs.runs[i].name) > wname)
			wname = strlen(cb->runs.runs[i].name);
	for (int w = 0; w < 2; w++) {
		for (size_t i = w ? cb->nbefore : 0; i < (w ? cb->runs.n : cb->nbefore); i++) {
			const struct run_spec *s = &cb->runs.runs[i];
			char *tg = targets_text(s);

			fprintf(f, "  baseline  %-12s  %-9s  %-*s  ramp %us  runtime %us  %s\n", when_name[0][w],
				kvlist_get(&s->labels, "baseline.kind", "?"), (int)wname, s->name, s->wl.ramp_s,
				s->wl.runtime_s, tg);
			free(tg);
		}
		if (cb->note[w])
			fprintf(f, "  baseline  %-12s  no baseline: %s\n", when_name[0][w], cli_safe(cb->note[w]));
	}
	if (!cb->runs.n && !cb->note[0] && !cb->note[1])
		fprintf(f, "  baseline  none\n");
}

static void print_configs(FILE *f, const struct plan *p, const struct config_list *cl,
			  const struct plan_baselines *b)
{
	for (size_t i = 0; cl && i < cl->n; i++) {
		const struct suite_config *c = &cl->v[i];
		size_t first, last;

		config_runs(p, i, &first, &last);
		fprintf(f, "\nconfiguration %s (%s:%d): runs %zu-%zu\n", c->name, c->file, c->line, first, last);
		for (size_t k = 0; k < c->labels.n; k++)
			fprintf(f, "  label     %s=%s\n", c->labels.v[k].key, c->labels.v[k].value);
		for (size_t k = 0; k < c->nrecipes; k++)
			fprintf(f, "  recipe    %s\n", c->recipes[k]);
		if (c->nmembers) {
			fputs("  members  ", f);
			for (size_t k = 0; k < c->nmembers; k++)
				fprintf(f, " %s", c->members[k]);
			fputs("  (refused when they hold data, unless --destructive)\n", f);
		}
		if (c->ntargets) {
			fputs("  targets  ", f);
			for (size_t k = 0; k < c->ntargets; k++)
				fprintf(f, " %s", c->targets[k]);
			fputc('\n', f);
		}
		for (size_t k = 0; k < c->precondition.n; k++)
			fprintf(f, "  precondition.%s = %s\n", c->precondition.v[k].key, c->precondition.v[k].value);
		for (size_t k = 0; k < c->sim_opts.n; k++)
			fprintf(f, "  sim       %s=%s  (engine sim: steps not run)\n", c->sim_opts.v[k].key,
				c->sim_opts.v[k].value);
		for (size_t k = 0; k < c->fio_opts.n; k++)
			fprintf(f, "  fio       %s=%s  (engine fio)\n", c->fio_opts.v[k].key, c->fio_opts.v[k].value);
		for (int ph = 0; ph < CONFIG_NPHASES; ph++) {
			for (size_t k = 0; k < c->nsteps[ph]; k++) {
				const struct config_step *s = &c->steps[ph][k];
				const char *host = s->host ? s->host : c->host;
				char *line = config_argv_text(s->argv);
				fprintf(f, "  %-9s %s%s[%us] %s\n", config_phase_name((enum config_phase)ph), host ? host : "",
					host ? " " : "", config_step_timeout_s(c, s), line);
				free(line);
			}
		}
		if (b && b->wanted && baselines_of(b, i))
			print_config_baselines(f, baselines_of(b, i));
	}
}

static void usage(void)
{
	printf("usage: bench plan PROFILE... [NAME=value]... [options]\n\n"
	       "Shows the runs a profile expands to, without running anything: number, name, engine, block size,\n"
	       "read %%, random %%, iodepth, numjobs, warm-up (ramp), runtime and targets, then the total count and\n"
	       "the estimated wall time. `bench run` with the same arguments executes exactly this list, and\n"
	       "--format json shows what it stores: names, workloads, targets, hosts, labels, order. A plan holds\n"
	       "at most %d runs. With `baseline = on`, each configuration's block lists the baseline runs `bench\n"
	       "run` makes around it (fewer when some are stored already), and the estimate counts them.\n\n"
	       "PROFILE is any of:\n"
	       "  a built-in suite        hcibench-easyrun, nvmeof-vs-iser, ... (see 'bench profiles list')\n"
	       "  a fio job file          one run per job section; jobs that differ only by filename are one run\n"
	       "                          over those targets\n"
	       "  a vdbench parameter file  sd/wd/rd, for-loops expanded in vdbench's order, translated to fio\n"
	       "  a suite file            bench's own format (docs/suite-format.md)\n"
	       "  an HCIbench test name   fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads (or vdb-...)\n\n"
	       "", PLAN_MAX_RUNS);
	run_args_help(stdout, OPT_PLAN);
	printf("\nexit codes: 0 the plan is valid, 2 usage error, 3 bad profile (the message names file:line).\n");
}

int cmd_plan(int argc, char **argv)
{
	struct run_args a;
	struct plan plan;
	struct plan_baselines bl;
	int rc;

	if ((rc = run_args_start(&a, OPT_PLAN, argc, argv, usage, &plan)) != EXIT_OK || a.help)
		goto out;
	plan_baselines_make(&bl, &plan, a.run.configs, a.run.hosts);
	if (!strcmp(a.format, "json")) {
		cJSON *root = plan_json(&plan, &bl, &a.hosts);
		configs_json(root, &plan, a.run.configs, &bl);
		print_json(stdout, root);
	} else {
		print_text(stdout, &plan, &bl, a.verbose);
		print_configs(stdout, &plan, a.run.configs, &bl);
	}
	plan_baselines_release(&bl);
out:
	plan_release(&plan);
	run_args_release(&a);
	return rc;
}
