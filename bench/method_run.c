/*
 * method_run: curves, sweeps and preconditioning turned into plan entries, and what the run loop does with
 * them (see method_run.h and docs/method.md).
 */
#include "bench/method_run.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "bench/cli.h"
#include "core/fio_options.h"
#include "core/proc.h"
#include "core/store_admin.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "engines/target.h"
#include "profiles/fio_workload.h"
#include "profiles/suite.h"
#include "profiles/text.h"
#include "report/analysis/curve.h"
#include "report/figures.h"

/* Engine annotations (keys with a dot stay out of the job file: engines/fio_engine.c). */
#define A_POINT "method.point"         /* 1-based index of a sweep point */
#define A_UNTIL "method.sweep_until"   /* a sweep point's limits, ';'-separated */
#define A_STOPCURVE "method.stopcurve" /* vdbench stopcurve, ms */
#define A_ROUND_S "method.round_s"     /* wdpc round length */
#define A_ROUNDS "method.max_rounds"   /* wdpc most rounds */
#define A_SKIPPED "method.precondition_skipped" /* why a measured run has no (or not all) phases */


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
	struct run_spec *d = plan_add(out);
	unsigned seq = d->seq;

	run_spec_release(d);
	run_spec_copy(d, src);
	d->seq = seq;
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
	kvlist_set(&d->labels, "curve_pct", "max");
	for (size_t k = 0; k < c.n; k++) {
		snprintf(buf, sizeof(buf), "_(%g%%)", c.pct[k]);
		d = add_copy(out, s, buf);
		snprintf(buf, sizeof(buf), "%g", c.pct[k]);
		kvlist_set(&d->labels, "curve_pct", buf);
	}
	return 0;
}

static int expand_sweep(struct plan *out, const struct run_spec *s, const char *arg, const char *until,
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
		kvlist_set(&d->labels, sw.label, buf);
		{
			char *name = generated ? profile_run_name(d) : NULL;
			if (!name || (s->name && !strcmp(name, s->name))) {
				free(name);
				name = xasprintf("%s_(%s=%s)", s->name ? s->name : "run", sw.option, buf);
			}
			free(d->name);
			d->name = name;
		}
		snprintf(buf, sizeof(buf), "%zu", k + 1);
		kvlist_set(&d->engine_opts, A_POINT, buf);
		if (until && *until)
			kvlist_set(&d->engine_opts, A_UNTIL, until);
	}
	return 0;
}

/* The --until list as one annotation (';'-separated), checked. */
static int untils_text(const struct method_settings *m, const struct run_spec *s, struct strbuf *sb,
		       struct errbuf *err)
{
	struct method_until u;

	if (m->nuntil) {
		for (size_t k = 0; k < m->nuntil; k++) {
			if (method_until_parse(m->until[k], &u, err) < 0)
				return -1;
			strbuf_addf(sb, "%s%s", k ? ";" : "", m->until[k]);
		}
		return 0;
	}
	if (kvlist_get(&s->engine_opts, "method.until", NULL)) {
		char **v = split_list(kvlist_get(&s->engine_opts, "method.until", ""), ';', NULL);
		for (size_t k = 0; v && v[k]; k++) {
			if (suite_arg(s, "method.until", v[k], err) < 0) {
				free_list(v);
				return -1;
			}
			strbuf_addf(sb, "%s%s", k ? ";" : "", v[k]);
		}
		free_list(v);
	}
	return 0;
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
		int is_point = kvlist_get(&s->labels, "curve_pct", NULL) != NULL;
		struct strbuf until;

		strbuf_init(&until);
		if (!m->curve && curve && suite_arg(s, "method.curve", curve, err) < 0)
			goto out;
		if (!m->sweep && sweep && suite_arg(s, "method.sweep", sweep, err) < 0)
			goto out;
		if (curve && sweep) {
			err_set(err, ERR_USAGE, "run '%s': a curve and a sweep cannot both apply (give one of --curve, "
				"--sweep)", s->name ? s->name : "");
			goto out;
		}
		if (untils_text(m, s, &until, err) < 0) {
			strbuf_release(&until);
			goto out;
		}
		if (until.len && !sweep) {
			err_set(err, ERR_USAGE, "--until needs a sweep (--sweep or the suite key sweep =)");
			strbuf_release(&until);
			goto out;
		}
		if (curve && !is_point)
			rc = expand_curve(&out, s, curve, err);
		else if (sweep)
			rc = expand_sweep(&out, s, sweep, until.buf, err);
		else
			rc = add_copy(&out, s, NULL) ? 0 : -1;
		strbuf_release(&until);
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
			    const struct config_list *configs, int quick, struct precond_opts *po, int *on,
			    struct errbuf *err)
{
	const struct suite_config *c =
		configs ? config_list_find(configs, kvlist_get(&s->labels, "config", "")) : NULL;

	precond_opts_defaults(po);
	po->destructive = 1; /* checked when the purge runs (bench run --destructive) */
	*on = m->precondition || !strcmp(kvlist_get(&s->engine_opts, "method.precondition", "off"), "on");
	if (m->max_rounds)
		po->rule.max_rounds = m->max_rounds;
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
		else if (!strcmp(key, "max_rounds") && parse_long(v, po->rule.window, 1000, &n) == 0)
			po->rule.max_rounds = (unsigned)n;
		else if (!strcmp(key, "round_time") && parse_duration_s(v, &d) == 0 && d >= 1)
			po->round_s = (unsigned)d;
		else if (!strcmp(key, "enable") || !strcmp(key, "purge") || !strcmp(key, "wipc") ||
			 !strcmp(key, "max_rounds") || !strcmp(key, "round_time"))
			return err_set(err, ERR_INPUT, "%s:%d: configuration '%s': precondition.%s = '%s': want enable = "
				       "on|off, purge = on|off|secure, wipc = MULTIPLE (0: none), max_rounds = N (>= %u), "
				       "round_time = DURATION", c->file, c->line, c->name, key, v, po->rule.window);
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

static void copy_phase_labels(struct run_spec *d, const struct run_spec *s, const struct kvlist *phase)
{
	kvlist_release(&d->labels);
	kvlist_init(&d->labels);
	for (size_t k = 0; k < s->labels.n; k++) {
		const char *key = s->labels.v[k].key;
		if (!rep_label_is_curve_point(key))
			kvlist_set(&d->labels, key, s->labels.v[k].value);
	}
	for (size_t k = 0; k < phase->n; k++)
		kvlist_set(&d->labels, phase->v[k].key, phase->v[k].value);
	kvlist_del(&d->engine_opts, A_POINT);
	kvlist_del(&d->engine_opts, A_UNTIL);
	kvlist_del(&d->engine_opts, A_STOPCURVE);
	kvlist_del(&d->engine_opts, "method.precondition");
}

/* The purge and wipc entries: one job per target, the workload replaced (wipc) or none (purge). */
static int add_fill(struct plan *out, const struct run_spec *s, const struct precond_phase *ph, struct errbuf *err)
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
	copy_phase_labels(d, s, &ph->labels);
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
		      const struct precond_opts *po, unsigned round)
{
	struct run_spec *d = plan_add(out);
	unsigned seq = d->seq;
	char buf[32];

	run_spec_release(d);
	run_spec_copy(d, s);
	d->seq = seq;
	copy_phase_labels(d, s, &ph->labels);
	free(d->name);
	d->name = xasprintf("precondition-wdpc-%s-round%u", kvlist_get(&ph->labels, "precondition.class", ""), round);
	snprintf(buf, sizeof(buf), "%u", round);
	kvlist_set(&d->labels, "ss_round", buf);
	kvlist_del(&d->wl.opts, "rate_iops");
	d->wl.runtime_s = po->round_s;
	d->wl.ramp_s = 0;
	for (size_t j = 0; j < d->njobs; j++) {
		kvlist_del(&d->jobs[j].wl.opts, "rate_iops");
		d->jobs[j].wl.runtime_s = po->round_s;
		d->jobs[j].wl.ramp_s = 0;
	}
	snprintf(buf, sizeof(buf), "%u", po->round_s);
	kvlist_set(&d->engine_opts, A_ROUND_S, buf);
	snprintf(buf, sizeof(buf), "%u", po->rule.max_rounds);
	kvlist_set(&d->engine_opts, A_ROUNDS, buf);
}

/* The wdpc rounds: one entry each (ss_round=K), as many as the rule allows; those after steady state are not run. */
static void add_wdpc(struct plan *out, const struct run_spec *s, const struct precond_phase *ph,
		     const struct precond_opts *po)
{
	for (unsigned k = 1; k <= po->rule.max_rounds; k++)
		add_round(out, s, ph, po, k);
}

static int expand_precondition(struct plan *p, const struct method_settings *m, const struct config_list *configs,
			       int quick, struct errbuf *err)
{
	struct precond_history hist;
	struct plan out;
	const char *config = NULL;
	int rc = -1;

	plan_init(&out);
	precond_history_init(&hist);
	for (size_t i = 0; i < p->n; i++) {
		const struct run_spec *s = &p->runs[i];
		const char *cf = kvlist_get(&s->labels, "config", "");
		struct precond_opts po;
		struct precond_target t;
		struct precond_plan pp;
		struct stat st;
		struct run_spec *d;
		char skipped[sizeof(pp.skipped)] = "";
		int on;

		if (precond_settings(m, s, configs, quick, &po, &on, err) < 0)
			goto out;
		if (!config || strcmp(config, cf)) { /* a configuration is a new stack: nothing preconditioned yet */
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
					add_wdpc(&out, s, &pp.v[k], &po);
				else if (add_fill(&out, s, &pp.v[k], err) < 0) {
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
			kvlist_set(&d->engine_opts, A_SKIPPED, skipped);
	}
	replace_runs(p, &out);
	rc = 0;
out:
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
	const char *pct = kvlist_get(&s->labels, "curve_pct", NULL);
	const char *phase = kvlist_get(&s->labels, "precondition", NULL);
	const char *point = kvlist_get(&s->engine_opts, A_POINT, NULL);

	buf[0] = '\0';
	if (phase && !strcmp(phase, "purge"))
		snprintf(buf, len, "precondition purge: blkdiscard of a block device (only with --destructive), a file "
			 "recreated empty");
	else if (phase && !strcmp(phase, "wipc"))
		snprintf(buf, len, "precondition wipc (%s): %s bytes of 128 KiB sequential writes (2 x the working set)",
			 kvlist_get(&s->labels, "precondition.class", ""), kvlist_get(&s->wl.opts, "io_size", "?"));
	else if (phase)
		snprintf(buf, len, "precondition wdpc (%s): round %s of at most %s, %s s each, until steady state (SNIA "
			 "PTS rule); the rounds after it are not run", kvlist_get(&s->labels, "precondition.class", ""),
			 kvlist_get(&s->labels, "ss_round", "?"), kvlist_get(&s->engine_opts, A_ROUNDS, "?"),
			 kvlist_get(&s->engine_opts, A_ROUND_S, "?"));
	else if (pct && !strcmp(pct, "max"))
		snprintf(buf, len, "curve: the max run (unthrottled); its measured total IOPS set the points' rates");
	else if (pct)
		snprintf(buf, len, "curve point %s%%: rate_iops set at run time to %s%% of the max run's measured total "
			 "IOPS", pct, pct);
	else if (point)
		snprintf(buf, len, "sweep point %s%s%s", point, kvlist_get(&s->engine_opts, A_UNTIL, NULL) ?
			 ": the sweep ends after the first point past (any of ';') " : "",
			 kvlist_get(&s->engine_opts, A_UNTIL, ""));
	if (kvlist_get(&s->engine_opts, A_SKIPPED, NULL))
		snprintf(buf + strlen(buf), len - strlen(buf), "%sprecondition skipped: %s", buf[0] ? "; " : "",
			 kvlist_get(&s->engine_opts, A_SKIPPED, ""));
}

/* ---- run time: reading the store ------------------------------------------------------------------------ */

/*
 * The stored figures of a run as the report shows them (report/figures.h, the one figures layer): total IOPS,
 * the worse direction's mean and p99 latency (ms).
 */
static int read_point(struct store *st, int64_t run_id, struct method_point *p, struct errbuf *err)
{
	struct figures f;

	p->iops = NAN;
	p->lat_ms = p->p99_ms = NAN;
	if (figures_of_run(st, run_id, &f, err) < 0)
		return -1;
	p->iops = f.iops[DDIR_TOTAL];
	p->lat_ms = figures_worse_rw(f.lat_mean_ns) / 1e6;
	p->p99_ms = figures_worse_rw(f.p99_ns) / 1e6;
	return 0;
}

/* The newest stored run of plan entry j (0 when none). */
static int entry_run(struct method_ctx *mc, size_t j, int64_t *id, enum run_status *status, struct errbuf *err)
{
	const struct run_spec *s = &mc->plan->runs[j];

	*status = RUN_FAILED;
	return store_run_lookup(mc->st, mc->suite_id, s->seq, s->repetition, id, status, err);
}

/* A label of the newest stored run of entry j into buf ("" when none). */
static int entry_label(struct method_ctx *mc, size_t j, const char *key, char *buf, size_t len, struct errbuf *err)
{
	struct store_run r;
	enum run_status status;
	int64_t id;
	int rc;

	buf[0] = '\0';
	if (entry_run(mc, j, &id, &status, err) < 0)
		return -1;
	if (!id)
		return 0;
	memset(&r, 0, sizeof(r));
	if ((rc = store_read_run(mc->st, id, &r, err)) < 0)
		return -1;
	if (rc == 0)
		snprintf(buf, len, "%s", kvlist_get(&r.labels, key, ""));
	store_run_release(&r);
	return 0;
}

static int relabel(struct store *st, int64_t run_id, const char *key, const char *value, struct errbuf *err)
{
	struct kvlist ch;
	size_t changed;
	int rc;

	kvlist_init(&ch);
	kvlist_set(&ch, key, value);
	rc = store_admin_relabel(st, &run_id, 1, &ch, 0, &changed, err);
	kvlist_release(&ch);
	return rc;
}

/* The first entry of the sweep or curve that entry i belongs to (a curve: its max run), or i. */
static size_t group_start(const struct plan *p, size_t i)
{
	const struct run_spec *s = &p->runs[i];

	if (kvlist_get(&s->labels, "curve_pct", NULL)) {
		for (size_t j = i + 1; j-- > 0;)
			if (!strcmp(kvlist_get(&p->runs[j].labels, "curve_pct", ""), "max"))
				return j;
		return i;
	}
	for (size_t j = i + 1; j-- > 0;) {
		const char *pt = kvlist_get(&p->runs[j].engine_opts, A_POINT, NULL);
		if (!pt)
			return i;
		if (!strcmp(pt, "1"))
			return j;
	}
	return i;
}

/* ---- run time: before and after an entry ------------------------------------------------------------- */

/* A curve point: the rate from its max run's stored total IOPS. */
static int curve_point_before(struct method_ctx *mc, size_t i, struct run_spec *s, enum method_action *act,
			      char **why, struct errbuf *err)
{
	size_t j = group_start(mc->plan, i);
	const struct host_list *h = mc->hosts;
	struct method_point mp;
	struct method_rate rate;
	struct errbuf e2;
	enum run_status status;
	unsigned jobs = 0, ntargets;
	double pct;
	int64_t id;
	char buf[64];

	if (entry_run(mc, j, &id, &status, err) < 0)
		return -1;
	mp.iops = NAN;
	if (id && (status == RUN_DONE || status == RUN_PARTIAL) && read_point(mc->st, id, &mp, err) < 0)
		return -1;
	for (size_t k = j + 1; k < i; k++) { /* vdbench stopcurve: an earlier point stopped the curve */
		if (entry_label(mc, k, "curve.stop", buf, sizeof(buf), err) < 0)
			return -1;
		if (buf[0]) {
			*act = METHOD_SKIP;
			*why = xasprintf("the curve stopped at run %u (%s)", mc->plan->runs[k].seq, buf);
			return 0;
		}
	}
	for (size_t k = 0; k < s->njobs; k++)
		jobs += (s->jobs[k].wl.numjobs ? s->jobs[k].wl.numjobs : 1) *
			(unsigned)(s->jobs[k].ntargets ? s->jobs[k].ntargets : 1);
	ntargets = h && h->n ? (unsigned)(h->v[0].ntargets ? h->v[0].ntargets : 1) : (unsigned)s->ntargets;
	pct = strtod(kvlist_get(&s->labels, "curve_pct", "0"), NULL);
	errbuf_init(&e2);
	if (!(mp.iops > 0) ||
	    method_curve_rate(mp.iops, pct, s->njobs ? jobs : s->wl.numjobs, s->njobs ? 1 : ntargets,
			      h && h->n ? (unsigned)h->n : 1, s->wl.read_pct, &rate, &e2) < 0) {
		*act = METHOD_FAIL;
		*why = xasprintf("curve point %g%%: its max run (run %u) has no stored IOPS: %s", pct,
				 mc->plan->runs[j].seq, e2.msg[0] ? e2.msg : "it did not finish");
		return 0;
	}
	for (size_t k = 0; k < s->njobs; k++)
		kvlist_set(&s->jobs[k].wl.opts, "rate_iops", rate.rate_iops);
	if (s->njobs)
		run_spec_summarise(s);
	else
		kvlist_set(&s->wl.opts, "rate_iops", rate.rate_iops);
	snprintf(buf, sizeof(buf), "%.0f", rate.total_iops);
	kvlist_set(&s->labels, "curve.target_iops", buf);
	return 0;
}

/* A sweep point: not run once an earlier point of its sweep passed a limit (or was not run). */
static int sweep_point_before(struct method_ctx *mc, size_t i, enum method_action *act, char **why,
			      struct errbuf *err)
{
	char buf[128];

	for (size_t k = group_start(mc->plan, i); k < i; k++) {
		enum run_status status;
		int64_t id;

		if (entry_run(mc, k, &id, &status, err) < 0 || entry_label(mc, k, "sweep.stop", buf, sizeof(buf), err) < 0)
			return -1;
		if (buf[0] || !id) {
			*act = METHOD_SKIP;
			*why = buf[0] ? xasprintf("the sweep stopped at run %u (%s)", mc->plan->runs[k].seq, buf)
				      : xasprintf("the sweep stopped before run %u", mc->plan->runs[k].seq);
			return 0;
		}
	}
	return 0;
}

static int is_round(const struct plan *p, size_t j)
{
	return kvlist_get(&p->runs[j].labels, "ss_round", NULL) &&
	       !strcmp(kvlist_get(&p->runs[j].labels, "precondition", ""), "wdpc");
}

/* The first round of the wdpc that entry i (a round) belongs to. */
static size_t round_first(const struct plan *p, size_t i)
{
	while (i > 0 && is_round(p, i - 1) && strcmp(kvlist_get(&p->runs[i].labels, "ss_round", ""), "1"))
		i--;
	return i;
}

/* The round of [first, end) whose stored run says how the rounds ended (steady_state=...): its index, or -1. */
static int rounds_ended(struct method_ctx *mc, size_t first, size_t end, char *buf, size_t len, struct errbuf *err)
{
	for (size_t k = first; k < end; k++) {
		if (entry_label(mc, k, "steady_state", buf, len, err) < 0)
			return -2;
		if (buf[0])
			return (int)k;
	}
	return -1;
}

/* A wdpc round: not run once an earlier round reached steady state (or the rule's end). */
static int round_before(struct method_ctx *mc, size_t i, enum method_action *act, char **why, struct errbuf *err)
{
	char buf[64];
	int k = rounds_ended(mc, round_first(mc->plan, i), i, buf, sizeof(buf), err);

	if (k < -1)
		return -1;
	if (k >= 0) {
		*act = METHOD_SKIP;
		*why = xasprintf("steady_state=%s at run %u", buf, mc->plan->runs[k].seq);
	}
	return 0;
}

/* After round i: the rule over the stored rounds so far; the round that decides it is labelled. */
static int round_after(struct method_ctx *mc, size_t i, int64_t run_id, struct errbuf *err)
{
	const struct run_spec *s = &mc->plan->runs[i];
	size_t first = round_first(mc->plan, i), n = 0;
	double v[1000];
	unsigned max = (unsigned)strtoul(kvlist_get(&s->engine_opts, A_ROUNDS, "25"), NULL, 10);
	double round_s = strtod(kvlist_get(&s->engine_opts, A_ROUND_S, "60"), NULL);
	struct ss_rule rule;
	struct ss_result res;
	char words[160], label[64], avg[64];

	ss_rule_defaults(&rule);
	if (max >= rule.window)
		rule.max_rounds = max;
	for (size_t k = first; k <= i && n < sizeof(v) / sizeof(v[0]); k++) {
		struct method_point mp;
		enum run_status status;
		int64_t id = run_id;

		if (k < i && entry_run(mc, k, &id, &status, err) < 0)
			return -1;
		if (read_point(mc->st, id, &mp, err) < 0)
			return -1;
		v[n++] = isfinite(mp.iops) ? mp.iops : 0;
	}
	ss_check1(&rule, v, n, &res);
	ss_result_describe(&rule, &res, words, sizeof(words));
	fprintf(stderr, "bench: precondition wdpc round %zu of at most %u: %.0f IOPS; %s", n, rule.max_rounds,
		v[n - 1], words);
	if (res.state == SS_CONTINUE) {
		fprintf(stderr, "; ETA at most %.0f s\n", (rule.max_rounds - n) * (round_s + 1));
		return 0;
	}
	fputc('\n', stderr);
	ss_result_label(&res, label, sizeof(label));
	if (relabel(mc->st, run_id, "steady_state", label, err) < 0)
		return -1;
	snprintf(avg, sizeof(avg), "%.1f", res.avg);
	return res.state == SS_REACHED ? relabel(mc->st, run_id, "ss.window_iops", avg, err) : 0;
}

/* The measured run after wdpc rounds: the steady-state labels of the round that ended them. */
static int measured_before(struct method_ctx *mc, size_t i, struct run_spec *s, struct errbuf *err)
{
	char buf[64];
	int k;

	if (i == 0 || !is_round(mc->plan, i - 1))
		return 0;
	if ((k = rounds_ended(mc, round_first(mc->plan, i - 1), i, buf, sizeof(buf), err)) < -1)
		return -1;
	if (k < 0) { /* the rounds were cut (a failed round): "running:N", N the rounds stored */
		struct ss_result res;
		size_t first = round_first(mc->plan, i - 1);

		memset(&res, 0, sizeof(res));
		res.state = SS_CONTINUE;
		for (size_t j = first; j < i; j++) {
			enum run_status status;
			int64_t id;
			if (entry_run(mc, j, &id, &status, err) < 0)
				return -1;
			res.round += id && status == RUN_DONE;
		}
		ss_result_label(&res, buf, sizeof(buf));
		kvlist_set(&s->labels, "steady_state", buf);
		return 0;
	}
	kvlist_set(&s->labels, "steady_state", buf);
	if (entry_label(mc, (size_t)k, "ss.window_iops", buf, sizeof(buf), err) < 0)
		return -1;
	if (buf[0])
		kvlist_set(&s->labels, "ss.window_iops", buf);
	return 0;
}

int method_before(struct method_ctx *mc, size_t i, struct run_spec *s, enum method_action *act, char **why,
		  struct errbuf *err)
{
	const char *phase = kvlist_get(&s->labels, "precondition", NULL);
	const char *pct = kvlist_get(&s->labels, "curve_pct", NULL);

	*act = METHOD_RUN;
	*why = NULL;
	if (phase && !strcmp(phase, "purge")) {
		*act = METHOD_PURGE;
		return 0;
	}
	if (phase && !strcmp(phase, "wdpc"))
		return round_before(mc, i, act, why, err);
	if (phase)
		return 0;
	if (pct && strcmp(pct, "max"))
		return curve_point_before(mc, i, s, act, why, err);
	if (kvlist_get(&s->engine_opts, A_POINT, NULL) && sweep_point_before(mc, i, act, why, err) < 0)
		return -1;
	return *act == METHOD_RUN ? measured_before(mc, i, s, err) : 0;
}

static int curve_point_after(struct method_ctx *mc, size_t i, int64_t run_id, const struct method_point *mp,
			     struct errbuf *err)
{
	const struct run_spec *s = &mc->plan->runs[i];
	struct store_run r;
	double target = NAN, miss, stop_ms;
	char buf[64];
	int rc;

	memset(&r, 0, sizeof(r));
	if ((rc = store_read_run(mc->st, run_id, &r, err)) < 0)
		return -1;
	if (rc == 0)
		target = strtod(kvlist_get(&r.labels, "curve.target_iops", "nan"), NULL);
	store_run_release(&r);
	if (!isfinite(target))
		return 0;
	if (!method_curve_ok(target, mp->iops, METHOD_CURVE_TOL_PCT, &miss)) {
		snprintf(buf, sizeof(buf), "%.1f", miss);
		if (relabel(mc->st, run_id, "curve.miss_pct", buf, err) < 0)
			return -1;
		cli_warn("run %u '%s': curve point %s%% missed its target: %.0f IOPS of %.0f asked (%+.1f %%, more than "
			 "%g %%): labelled curve.miss_pct=%s", s->seq, s->name ? s->name : "",
			 kvlist_get(&s->labels, "curve_pct", ""), mp->iops, target, miss, METHOD_CURVE_TOL_PCT, buf);
	}
	stop_ms = strtod(kvlist_get(&s->engine_opts, A_STOPCURVE, "0"), NULL);
	if (stop_ms > 0 && mp->lat_ms > stop_ms) {
		snprintf(buf, sizeof(buf), "lat>%gms", stop_ms);
		if (relabel(mc->st, run_id, "curve.stop", buf, err) < 0)
			return -1;
		fprintf(stderr, "bench: curve stopped after run %u '%s': mean latency %.3f ms > stopcurve %g ms\n",
			s->seq, cli_safe(s->name ? s->name : ""), mp->lat_ms, stop_ms);
	}
	return 0;
}

static int sweep_point_after(struct method_ctx *mc, size_t i, int64_t run_id, struct errbuf *err)
{
	const struct run_spec *s = &mc->plan->runs[i];
	struct method_until u[METHOD_MAX_UNTIL];
	struct method_point pts[METHOD_MAX_POINTS];
	size_t nu = 0, np = 0, first = group_start(mc->plan, i);
	char **v = split_list(kvlist_get(&s->engine_opts, A_UNTIL, ""), ';', NULL);
	const struct kv *at = NULL;
	int hit, rc = -1;

	for (size_t k = 0; v && v[k] && nu < METHOD_MAX_UNTIL; k++)
		if (method_until_parse(v[k], &u[nu], err) == 0)
			nu++;
	for (size_t k = first; k <= i && np < METHOD_MAX_POINTS; k++) {
		enum run_status status;
		int64_t id = run_id;

		if (k < i && entry_run(mc, k, &id, &status, err) < 0)
			goto out;
		if (read_point(mc->st, id, &pts[np++], err) < 0)
			goto out;
	}
	rc = 0;
	if (!nu || !np || (hit = method_sweep_stop(u, nu, pts, np)) < 0)
		goto out;
	rc = relabel(mc->st, run_id, "sweep.stop", u[hit].text, err);
	for (size_t k = 0; k < s->labels.n; k++)
		if (!strncmp(s->labels.v[k].key, "sweep.", 6))
			at = &s->labels.v[k];
	fprintf(stderr, "bench: sweep stopped at run %u '%s' (%s=%s): %s passed (%.0f IOPS, mean %.3f ms, p99 %.3f ms); "
		"%s\n", s->seq, cli_safe(s->name ? s->name : ""), at ? at->key + 6 : "point", at ? at->value : "",
		u[hit].text, pts[np - 1].iops, pts[np - 1].lat_ms, pts[np - 1].p99_ms,
		i + 1 < mc->plan->n && group_start(mc->plan, i + 1) == first ? "its later points are not run"
									    : "it was the last point");
out:
	free_list(v);
	return rc;
}

int method_after(struct method_ctx *mc, size_t i, int64_t run_id, struct errbuf *err)
{
	const struct run_spec *s = &mc->plan->runs[i];
	const char *pct = kvlist_get(&s->labels, "curve_pct", NULL);
	struct method_point mp;
	enum run_status status;
	int64_t id;

	if (!run_id || entry_run(mc, i, &id, &status, err) < 0)
		return run_id ? -1 : 0;
	if (status != RUN_DONE && status != RUN_PARTIAL)
		return 0;
	if (pct && strcmp(pct, "max")) {
		if (read_point(mc->st, run_id, &mp, err) < 0)
			return -1;
		return curve_point_after(mc, i, run_id, &mp, err);
	}
	if (kvlist_get(&s->engine_opts, A_POINT, NULL))
		return sweep_point_after(mc, i, run_id, err);
	if (is_round(mc->plan, i))
		return round_after(mc, i, run_id, err);
	return 0;
}

/* ---- run time: purge and rounds ---------------------------------------------------------------------- */

static int is_bench_file(const char *path)
{
	char v[16];

	return getxattr(path, TARGET_XATTR, v, sizeof(v)) > 0;
}

/* A sim wear state file (docs/sim.md) is small: the count per member. */
#define SIM_STATE_MAX_BYTES 65536

int method_purge(const struct method_ctx *mc, const struct run_spec *s, char **log, struct errbuf *err)
{
	struct strbuf sb;
	int sim = s->engine && !strcmp(s->engine, "sim");

	strbuf_init(&sb);
	*log = NULL;
	if (mc->hosts && mc->hosts->n) {
		strbuf_release(&sb);
		return err_set(err, ERR_USAGE, "precondition purge: targets on --hosts are purged by their "
			       "configuration's steps, not by bench (set precondition.purge = off)");
	}
	for (size_t t = 0; t < s->ntargets; t++) {
		const char *path = s->targets[t];
		struct stat st;

		if (sim && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			/* the sim engine models the target: a device path is never touched */
			strbuf_addf(&sb, "%s: not touched (the sim engine models it; its wear state: sim_wear_state)\n", path);
		} else if (stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
			char *argv[] = { "blkdiscard", (char *)path, NULL }, *out = NULL;
			int code = -1;

			if (!mc->destructive) {
				strbuf_release(&sb);
				return err_set(err, ERR_USAGE, "precondition: purging block device '%s' discards its data: "
					       "give --destructive, or precondition.purge = off", path);
			}
			if (proc_run_capture(argv, 600000, &out, &code, err) < 0 || code != 0) {
				if (code != 0)
					err_set(err, ERR_HOST, "blkdiscard %s: exit %d: %.200s", path, code, out ? out : "");
				free(out);
				strbuf_release(&sb);
				return -1;
			}
			free(out);
			strbuf_addf(&sb, "blkdiscard %s: done\n", path);
		} else if (errno = 0, stat(path, &st) == 0) {
			int fd;

			if (!is_bench_file(path) && !mc->overwrite_files && !mc->destructive &&
			    !(sim && st.st_size <= SIM_STATE_MAX_BYTES)) {
				strbuf_release(&sb);
				return err_set(err, ERR_USAGE, "precondition: '%s' is not a file bench created: give "
					       "--overwrite-files to recreate it", path);
			}
			if ((fd = open(path, O_WRONLY | O_TRUNC)) < 0) {
				strbuf_release(&sb);
				return err_set(err, ERR_HOST, "precondition: cannot recreate '%s': %s", path, strerror(errno));
			}
			close(fd);
			strbuf_addf(&sb, "%s: recreated empty\n", path);
		} else {
			strbuf_addf(&sb, "%s: does not exist yet (nothing to purge)\n", path);
		}
	}
	*log = strbuf_detach(&sb, NULL);
	return 0;
}
