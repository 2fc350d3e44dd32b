/*
 * method_expand: curves, sweeps and the preconditioning phases turned into plan entries (see method.h and
 * docs/method.md), each with its typed method fields (core/model.h struct run_method), and the one line
 * `bench plan` shows for each.
 */
#include "profiles/method.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fio_options.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "profiles/fio_workload.h"
#include "profiles/suite.h"
#include "profiles/text.h"

/* ---- arguments ----------------------------------------------------------------------------------------- */

int method_check_arg(const char *option, const char *value, struct errbuf *err)
{
	struct method_curve c;
	struct method_sweep s;
	struct method_until u;

	if (!strcmp(option, "curve"))
		return method_curve_parse(value, &c, err);
	if (!strcmp(option, "sweep"))
		return method_sweep_parse(value, &s, err);
	return method_until_parse(value, &u, err);
}

/* A suite key's value with its place: "VALUE" of annotation KEY, the place in KEY.at. */
static int suite_arg(const struct run_spec *s, const char *key, const char *value, struct errbuf *err)
{
	char at[160];
	struct errbuf e2;
	const char *where;

	snprintf(at, sizeof(at), "%s.at", key);
	where = kvlist_get(&s->engine_opts, at, NULL);
	errbuf_init(&e2);
	if (method_check_arg(key + 7, value, &e2) < 0)
		return err_set(err, ERR_INPUT, "%s%s%s", where ? where : "", where ? ": " : "", e2.msg);
	return 0;
}

/* ---- plan time: curves and sweeps ---------------------------------------------------------------------- */

static void set_opt_num(struct workload *w, const char *key, double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.0f", v);
	kvlist_set(&w->opts, key, buf);
	if (!strcmp(key, "iodepth"))
		w->iodepth = (unsigned)v;
	else if (!strcmp(key, "numjobs"))
		w->numjobs = (unsigned)v;
}

/* Sets a fio option on a run (every job of a run of several jobs). */
static void spec_set_opt(struct run_spec *s, const char *key, double v)
{
	for (size_t j = 0; j < s->njobs; j++)
		set_opt_num(&s->jobs[j].wl, key, v);
	if (s->njobs)
		run_spec_summarise(s);
	else
		set_opt_num(&s->wl, key, v);
}

static void drop_method_opts(struct run_spec *s)
{
	static const char *const keys[] = { "method.curve", "method.curve.at", "method.sweep", "method.sweep.at",
					    "method.until", "method.until.at", NULL };
	for (size_t k = 0; keys[k]; k++)
		kvlist_del(&s->engine_opts, keys[k]);
}

/* Appends a copy of src to out as its point: name suffix, labels. */
static struct run_spec *add_copy(struct plan *out, const struct run_spec *src, const char *suffix)
{
	struct run_spec *d = plan_add_copy(out, src);

	drop_method_opts(d);
	if (suffix) {
		char *n = xasprintf("%s%s", src->name ? src->name : "run", suffix);
		free(d->name);
		d->name = n;
	}
	return d;
}

static int expand_curve(struct plan *out, const struct run_spec *s, const char *arg, struct errbuf *err)
{
	struct method_curve c;
	struct run_spec *d;
	char buf[64];

	if (method_curve_parse(arg, &c, err) < 0)
		return -1;
	d = add_copy(out, s, NULL);
	run_method_clear_kind(&d->method);
	d->method.kind = RUN_METHOD_CURVE_MAX;
	for (size_t k = 0; k < c.n; k++) {
		snprintf(buf, sizeof(buf), "_(%g%%)", c.pct[k]);
		d = add_copy(out, s, buf);
		run_method_clear_kind(&d->method);
		d->method.kind = RUN_METHOD_CURVE_POINT;
		d->method.curve_pct = c.pct[k];
	}
	return 0;
}

/* A sweep's stop rule: the limits as given, in order. */
struct untils {
	char *v[METHOD_MAX_UNTIL];
	size_t n;
};

static void untils_release(struct untils *u)
{
	for (size_t k = 0; k < u->n; k++)
		free(u->v[k]);
	u->n = 0;
}

/* Sweep point k (0-based) of `sw`: its fields, the stop rule copied. */
static void set_sweep_point(struct run_spec *d, const struct method_sweep *sw, size_t k, const struct untils *u)
{
	run_method_clear_kind(&d->method);
	d->method.kind = RUN_METHOD_SWEEP_POINT;
	d->method.sweep_option = xstrdup(sw->option);
	d->method.sweep_value = sw->v[k];
	d->method.sweep_point = (unsigned)(k + 1);
	for (size_t j = 0; j < u->n; j++)
		d->method.until[d->method.nuntil++] = xstrdup(u->v[j]);
}

static int expand_sweep(struct plan *out, const struct run_spec *s, const char *arg, const struct untils *until,
			struct errbuf *err)
{
	struct method_sweep sw;
	char buf[64], *gen = profile_run_name(s);
	int generated = s->name && !strcmp(gen, s->name);

	free(gen);
	if (method_sweep_parse(arg, &sw, err) < 0)
		return -1;
	for (size_t k = 0; k < sw.n; k++) {
		struct run_spec *d = add_copy(out, s, NULL);

		spec_set_opt(d, sw.option, sw.v[k]);
		snprintf(buf, sizeof(buf), "%.0f", sw.v[k]);
		set_sweep_point(d, &sw, k, until);
		{
			char *name = generated ? profile_run_name(d) : NULL;
			if (!name || (s->name && !strcmp(name, s->name))) {
				free(name);
				name = xasprintf("%s_(%s=%s)", s->name ? s->name : "run", sw.option, buf);
			}
			free(d->name);
			d->name = name;
		}
	}
	return 0;
}

/* The stop rule of a run's sweep: --until's limits, else the suite key's (';'-separated), each checked. */
static int untils_of(const struct method_settings *m, const struct run_spec *s, struct untils *out,
		     struct errbuf *err)
{
	struct method_until u;
	char **v;
	int rc = 0;

	if (m->nuntil) {
		for (size_t k = 0; k < m->nuntil && k < METHOD_MAX_UNTIL; k++) {
			if (method_until_parse(m->until[k], &u, err) < 0)
				return -1;
			out->v[out->n++] = xstrdup(m->until[k]);
		}
		return 0;
	}
	v = split_list(kvlist_get(&s->engine_opts, "method.until", ""), ';', NULL);
	for (size_t k = 0; v && v[k] && rc == 0; k++) {
		if (out->n == METHOD_MAX_UNTIL)
			rc = err_set(err, ERR_INPUT, "%s: until: at most %d limits", kvlist_get(&s->engine_opts,
				     "method.until.at", "suite"), METHOD_MAX_UNTIL);
		else if ((rc = suite_arg(s, "method.until", v[k], err)) == 0)
			out->v[out->n++] = xstrdup(v[k]);
	}
	free_list(v);
	return rc;
}

/* The runs of `out` replace those of p (which keeps its name, labels and warnings); out is left empty. */
static void replace_runs(struct plan *p, struct plan *out)
{
	ARRAY_RELEASE(p->runs, p->n, run_spec_release);
	p->runs = out->runs;
	p->n = out->n;
	p->cap = out->cap;
	out->runs = NULL;
	out->n = out->cap = 0;
}

static int expand_points(struct plan *p, const struct method_settings *m, struct errbuf *err)
{
	struct plan out;
	int rc = -1;

	plan_init(&out);
	for (size_t i = 0; i < p->n; i++) {
		const struct run_spec *s = &p->runs[i];
		const char *curve = m->curve ? m->curve : kvlist_get(&s->engine_opts, "method.curve", NULL);
		const char *sweep = m->sweep ? m->sweep : kvlist_get(&s->engine_opts, "method.sweep", NULL);
		/* a vdbench iorate=curve run is a curve already (vdbench_translate.c) */
		int is_point = s->method.kind == RUN_METHOD_CURVE_MAX || s->method.kind == RUN_METHOD_CURVE_POINT;
		struct untils until = { .n = 0 };

		if (!m->curve && curve && suite_arg(s, "method.curve", curve, err) < 0)
			goto out;
		if (!m->sweep && sweep && suite_arg(s, "method.sweep", sweep, err) < 0)
			goto out;
		if ((curve || is_point) && sweep) {
			err_set(err, ERR_USAGE, "run '%s': a curve and a sweep cannot both apply (give one of --curve, "
				"--sweep)", s->name ? s->name : "");
			goto out;
		}
		if (untils_of(m, s, &until, err) < 0) {
			untils_release(&until);
			goto out;
		}
		if (until.n && !sweep) {
			err_set(err, ERR_USAGE, "--until needs a sweep (--sweep or the suite key sweep =)");
			untils_release(&until);
			goto out;
		}
		if (curve && !is_point)
			rc = expand_curve(&out, s, curve, err);
		else if (sweep)
			rc = expand_sweep(&out, s, sweep, &until, err);
		else
			rc = add_copy(&out, s, NULL) ? 0 : -1;
		untils_release(&until);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	if (out.n > PLAN_MAX_RUNS) {
		err_set(err, ERR_INPUT, "the curves and sweeps expand to %zu runs (limit %d)", out.n, PLAN_MAX_RUNS);
		goto out;
	}
	replace_runs(p, &out);
	rc = 0;
out:
	plan_release(&out);
	return rc;
}

/* ---- plan time: preconditioning ------------------------------------------------------------------------- */

/* The settings of one run: the command line's, a suite's precondition = on, a configuration's keys. */
static int precond_settings(const struct method_settings *m, const struct run_spec *s,
			    const struct suite_config *c, int quick, struct precond_opts *po, int *on,
			    struct errbuf *err)
{
	precond_opts_defaults(po);
	po->destructive = 1; /* checked when the purge runs (bench run --destructive) */
	po->window = m->ss_window;
	po->max_rounds = m->ss_max_rounds;
	*on = m->precondition || !strcmp(kvlist_get(&s->engine_opts, "method.precondition", "off"), "on");
	if (m->max_rounds)
		po->max_rounds = m->max_rounds;
	if (m->round_s)
		po->round_s = m->round_s;
	else if (quick && s->wl.runtime_s && s->wl.runtime_s < po->round_s)
		po->round_s = s->wl.runtime_s;
	for (size_t k = 0; c && k < c->precondition.n; k++) {
		const char *key = c->precondition.v[k].key, *v = c->precondition.v[k].value;
		long n;
		double d;

		if (!strcmp(key, "enable") && (!strcmp(v, "on") || !strcmp(v, "off")))
			*on = !strcmp(v, "on");
		else if (!strcmp(key, "purge") && (!strcmp(v, "on") || !strcmp(v, "off") || !strcmp(v, "secure")))
			po->purge = strcmp(v, "off") != 0, po->secure = !strcmp(v, "secure");
		else if (!strcmp(key, "wipc") && parse_double(v, &d) == 0 && d >= 0 && d <= 100)
			po->wipc_multiple = d;
		else if (!strcmp(key, "max_rounds") && parse_long(v, po->window, 1000, &n) == 0)
			po->max_rounds = (unsigned)n;
		else if (!strcmp(key, "round_time") && parse_duration_s(v, &d) == 0 && d >= 1)
			po->round_s = (unsigned)d;
		else if (!strcmp(key, "enable") || !strcmp(key, "purge") || !strcmp(key, "wipc") ||
			 !strcmp(key, "max_rounds") || !strcmp(key, "round_time"))
			return err_set(err, ERR_INPUT, "%s:%d: configuration '%s': precondition.%s = '%s': want enable = "
				       "on|off, purge = on|off|secure, wipc = MULTIPLE (0: none), max_rounds = N (>= %u), "
				       "round_time = DURATION", c->file, c->line, c->name, key, v, po->window);
		/* other keys are the configuration's own notes: kept in its record (docs/recipes.md), not used */
	}
	return 0;
}

/* The working set of a run's targets, bytes (0 unknown: a share of a device not yet known). */
static uint64_t working_set_bytes(const struct run_spec *s)
{
	uint64_t size = 0;
	struct stat st;

	if (s->wl.size && fio_opt_size(s->wl.size, fio_opt_kb_base(&s->wl.opts), 0, &size) == 0)
		return size;
	if (s->ntargets && stat(s->targets[0], &st) == 0 && S_ISREG(st.st_mode))
		return (uint64_t)st.st_size;
	return 0;
}

/*
 * A phase entry made from measured run s: s's labels but those naming a point (the caller's predicate:
 * vdbench.curve_pct, ...), its configuration, and the phase's kind and class.
 */
static void set_phase(struct run_spec *d, const struct run_spec *s, const struct precond_phase *ph,
		      int (*is_point)(const char *key))
{
	static const enum run_method_kind kinds[] = { [PRECOND_PURGE] = RUN_METHOD_PURGE,
						      [PRECOND_WIPC] = RUN_METHOD_WIPC,
						      [PRECOND_WDPC] = RUN_METHOD_SS_ROUND };

	kvlist_release(&d->labels);
	kvlist_init(&d->labels);
	for (size_t k = 0; k < s->labels.n; k++) {
		const char *key = s->labels.v[k].key;
		if (!(is_point && is_point(key)))
			kvlist_set(&d->labels, key, s->labels.v[k].value);
	}
	kvlist_del(&d->engine_opts, "method.precondition");
	run_method_release(&d->method);
	run_method_copy(&d->method, &s->method);
	run_method_clear_kind(&d->method);
	d->method.kind = kinds[ph->kind];
	d->method.precond_class = xstrdup(ph->cls);
}

/* The purge and wipc entries: one job per target, the workload replaced (wipc) or none (purge). */
static int add_fill(struct plan *out, const struct run_spec *s, const struct precond_phase *ph,
		    const struct method_settings *m, struct errbuf *err)
{
	struct run_spec *d = plan_add(out);
	unsigned seq = d->seq;
	struct kvlist opts;
	const char *ioengine = kvlist_get(&s->wl.opts, "ioengine", NULL);
	int rc;

	run_spec_release(d);
	run_spec_init(d);
	d->seq = seq;
	d->repetition = s->repetition;
	d->name = xasprintf("precondition-%s", ph->name);
	d->engine = xstrdup(s->engine ? s->engine : "fio");
	kvlist_copy(&d->engine_opts, &s->engine_opts);
	for (size_t t = 0; t < s->ntargets; t++)
		run_spec_add_target(d, s->targets[t]);
	set_phase(d, s, ph, m->label_is_point);
	kvlist_init(&opts);
	if (ioengine)
		kvlist_set(&opts, "ioengine", ioengine);
	if (ph->kind == PRECOND_WIPC)
		kvlist_copy(&opts, &ph->fio_opts);
	else
		kvlist_set(&opts, "rw", "write");
	workload_release(&d->wl);
	rc = workload_from_fio(&d->wl, &opts, s->wl.src_file, s->wl.src_line, err);
	kvlist_release(&opts);
	if (rc < 0)
		return -1;
	free(d->wl.tool);
	d->wl.tool = xstrdup("bench");
	d->wl.runtime_s = d->wl.ramp_s = 0;
	if (ph->kind == PRECOND_PURGE) { /* no load: no workload figures under its name */
		free(d->wl.rw);
		d->wl.rw = xstrdup("purge");
		d->wl.bs_bytes = 0;
		d->wl.read_pct = d->wl.random_pct = -1;
		d->wl.iodepth = d->wl.numjobs = 0;
	}
	return 0;
}

static void add_round(struct plan *out, const struct run_spec *s, const struct precond_phase *ph,
		      const struct precond_opts *po, const struct method_settings *m, unsigned round)
{
	struct run_spec *d = plan_add_copy(out, s);

	set_phase(d, s, ph, m->label_is_point);
	free(d->name);
	d->name = xasprintf("precondition-wdpc-%s-round%u", ph->cls, round);
	d->method.ss_round = round;
	d->method.round_s = po->round_s;
	d->method.max_rounds = po->max_rounds;
	kvlist_del(&d->wl.opts, "rate_iops");
	d->wl.runtime_s = po->round_s;
	d->wl.ramp_s = 0;
	for (size_t j = 0; j < d->njobs; j++) {
		kvlist_del(&d->jobs[j].wl.opts, "rate_iops");
		d->jobs[j].wl.runtime_s = po->round_s;
		d->jobs[j].wl.ramp_s = 0;
	}
}

/* The wdpc rounds: one entry each (ss_round=K), as many as the rule allows; those after steady state are not run. */
static void add_wdpc(struct plan *out, const struct run_spec *s, const struct precond_phase *ph,
		     const struct precond_opts *po, const struct method_settings *m)
{
	for (unsigned k = 1; k <= po->max_rounds; k++)
		add_round(out, s, ph, po, m, k);
}

static int expand_precondition(struct plan *p, const struct method_settings *m, const struct config_list *configs,
			       int quick, struct errbuf *err)
{
	struct precond_history hist;
	struct plan out;
	const struct plan_config *config = NULL;
	size_t *start = xcalloc(p->n + 1, sizeof(*start)); /* where run i's entries begin in out */
	int rc = -1;

	plan_init(&out);
	precond_history_init(&hist);
	for (size_t i = 0; i < p->n; i++) {
		const struct run_spec *s = &p->runs[i];
		const struct plan_config *cf = plan_config_of(p, i);
		struct precond_opts po;
		struct precond_target t;
		struct precond_plan pp;
		struct stat st;
		struct run_spec *d;
		char skipped[sizeof(pp.skipped)] = "";
		int on;

		start[i] = out.n;
		if (precond_settings(m, s, cf && configs ? &configs->v[cf->config] : NULL, quick, &po, &on, err) < 0)
			goto out;
		if (i == 0 || config != cf) { /* a configuration is a new stack: nothing preconditioned yet */
			precond_history_release(&hist);
			precond_history_init(&hist);
			config = cf;
		}
		if (on && s->ntargets) {
			memset(&t, 0, sizeof(t));
			t.path = s->targets[0];
			t.is_block = stat(t.path, &st) == 0 && S_ISBLK(st.st_mode);
			t.working_set_bytes = working_set_bytes(s);
			t.read_pct = s->wl.read_pct;
			t.random_pct = s->wl.random_pct;
			t.bs_bytes = s->wl.bs_bytes;
			if (precond_plan(&po, &t, &hist, &pp, err) < 0)
				goto out;
			for (size_t k = 0; k < pp.n; k++) {
				if (pp.v[k].kind == PRECOND_WDPC)
					add_wdpc(&out, s, &pp.v[k], &po, m);
				else if (add_fill(&out, s, &pp.v[k], m, err) < 0) {
					precond_plan_release(&pp);
					goto out;
				}
			}
			snprintf(skipped, sizeof(skipped), "%s", pp.skipped);
			precond_plan_release(&pp);
		}
		d = add_copy(&out, s, NULL);
		kvlist_del(&d->engine_opts, "method.precondition"); /* read above: the suite's precondition = on */
		if (skipped[0])
			d->method.precond_skipped = xstrdup(skipped);
	}
	start[p->n] = out.n;
	for (size_t k = 0; k < p->nconfigs; k++) { /* each configuration's block, its phases included */
		p->configs[k].first = start[p->configs[k].first];
		p->configs[k].end = start[p->configs[k].end];
	}
	replace_runs(p, &out);
	rc = 0;
out:
	free(start);
	precond_history_release(&hist);
	plan_release(&out);
	return rc;
}

int method_expand(struct plan *p, const struct method_settings *m, const struct config_list *configs, int quick,
		  int precondition, struct errbuf *err)
{
	int rc = precondition ? expand_precondition(p, m, configs, quick, err) : expand_points(p, m, err);

	for (size_t i = 0; rc == 0 && i < p->n; i++)
		p->runs[i].seq = (unsigned)(i + 1);
	return rc;
}

void method_describe(const struct run_spec *s, char *buf, size_t len)
{
	const struct run_method *m = &s->method;
	struct strbuf until;

	buf[0] = '\0';
	strbuf_init(&until);
	for (size_t k = 0; k < m->nuntil; k++)
		strbuf_addf(&until, "%s%s", k ? ";" : "", m->until[k]);
	switch (m->kind) {
	case RUN_METHOD_PURGE:
		snprintf(buf, len, "precondition purge: blkdiscard of a block device (only with --destructive), a file "
			 "recreated empty");
		break;
	case RUN_METHOD_WIPC:
		snprintf(buf, len, "precondition wipc (%s): %s bytes of 128 KiB sequential writes (2 x the working set)",
			 m->precond_class ? m->precond_class : "", kvlist_get(&s->wl.opts, "io_size", "?"));
		break;
	case RUN_METHOD_SS_ROUND:
		snprintf(buf, len, "precondition wdpc (%s): round %u of at most %u, %u s each, until steady state (SNIA "
			 "PTS rule); the rounds after it are not run", m->precond_class ? m->precond_class : "",
			 m->ss_round, m->max_rounds, m->round_s);
		break;
	case RUN_METHOD_CURVE_MAX:
		snprintf(buf, len, "curve: the max run (unthrottled); its measured total IOPS set the points' rates");
		break;
	case RUN_METHOD_CURVE_POINT:
		snprintf(buf, len, "curve point %g%%: rate_iops set at run time to %g%% of the max run's measured total "
			 "IOPS", m->curve_pct, m->curve_pct);
		break;
	case RUN_METHOD_SWEEP_POINT:
		snprintf(buf, len, "sweep point %u%s%s", m->sweep_point,
			 until.len ? ": the sweep ends after the first point past (any of ';') " : "",
			 until.len ? until.buf : "");
		break;
	case RUN_METHOD_PLAIN:
	default:
		break;
	}
	strbuf_release(&until);
	if (m->precond_skipped)
		snprintf(buf + strlen(buf), len - strlen(buf), "%sprecondition skipped: %s", buf[0] ? "; " : "",
			 m->precond_skipped);
}
