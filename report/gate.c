/*
 * gate: cells, statistics, verdicts and the renderers of the CI regression gate (see gate.h).
 * Everything here works on the plain structs of gate.h; reading the store is gate_select.c's job.
 */
#include "report/gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/escape.h"

/* ---- metrics and verdict names ----------------------------------------------------------------- */

static const struct gate_metric_info metric_info[GM_NR + 1] = {
	[GM_IOPS_READ] = { "iops.read", "read IOPS", "", 1, 0 },
	[GM_IOPS_WRITE] = { "iops.write", "write IOPS", "", 1, 0 },
	[GM_IOPS_TRIM] = { "iops.trim", "trim IOPS", "", 1, 0 },
	[GM_MBPS_READ] = { "mibps.read", "read MiB/s", "", 1.0 / 1048576, 0 },
	[GM_MBPS_WRITE] = { "mibps.write", "write MiB/s", "", 1.0 / 1048576, 0 },
	[GM_MBPS_TRIM] = { "mibps.trim", "trim MiB/s", "", 1.0 / 1048576, 0 },
	[GM_LAT_MEAN_READ] = { "lat_mean_us.read", "read mean latency", "us", 1e-3, 1 },
	[GM_LAT_MEAN_WRITE] = { "lat_mean_us.write", "write mean latency", "us", 1e-3, 1 },
	[GM_LAT_MEAN_TRIM] = { "lat_mean_us.trim", "trim mean latency", "us", 1e-3, 1 },
	[GM_LAT_P99_READ] = { "lat_p99_us.read", "read p99 latency", "us", 1e-3, 1 },
	[GM_LAT_P99_WRITE] = { "lat_p99_us.write", "write p99 latency", "us", 1e-3, 1 },
	[GM_LAT_P99_TRIM] = { "lat_p99_us.trim", "trim p99 latency", "us", 1e-3, 1 },
	[GM_CPU_PER_IO] = { "cpu_us_per_io", "CPU per IO", "us", 1, 1 },
	[GM_WORKLOAD] = { "workload", "all metrics", "", 1, 0 },
};

const struct gate_metric_info *gate_metric_info(enum gate_metric m)
{
	return &metric_info[(unsigned)m <= GM_NR ? m : GM_WORKLOAD];
}

static const char *const verdict_names[GATE_VERDICT_NR] = {
	"REGRESSION", "IMPROVEMENT", "EQUIVALENT", "INCONCLUSIVE", "INVALID",
};

const char *gate_verdict_name(enum gate_verdict v)
{
	return (unsigned)v < GATE_VERDICT_NR ? verdict_names[v] : "?";
}

/* ---- sides ---------------------------------------------------------------------------------------- */

void gate_side_init(struct gate_side *s, const char *selection)
{
	memset(s, 0, sizeof(*s));
	s->selection = xstrdup(selection ? selection : "");
}

void gate_side_release(struct gate_side *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->runs[i].name);
		free(s->runs[i].key);
		free(s->runs[i].invalid);
	}
	free(s->runs);
	free(s->selection);
	memset(s, 0, sizeof(*s));
}

struct gate_run *gate_side_add(struct gate_side *s, int64_t id, const char *name, const char *key,
			       unsigned repetition)
{
	struct gate_run *r;

	ARRAY_GROW(s->runs, s->cap, s->n + 1);
	r = &s->runs[s->n++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->name = xstrdup(name ? name : "");
	r->key = xstrdup(key ? key : r->name);
	r->repetition = repetition;
	for (int m = 0; m < GM_NR; m++)
		r->value[m] = NAN;
	return r;
}

void gate_run_set_invalid(struct gate_run *r, const char *reason)
{
	if (!r->invalid)
		r->invalid = xstrdup(reason);
}

/* ---- gate lifetime ---------------------------------------------------------------------------------- */

void gate_opts_default(struct gate_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold = 0.05;
	o->conf = 0.95;
	o->min_runs = 3;
}

void gate_init(struct gate *g, const struct gate_opts *opts)
{
	memset(g, 0, sizeof(*g));
	if (opts)
		g->opts = *opts;
	else
		gate_opts_default(&g->opts);
	g->conf_achieved_min = NAN;
}

static void cell_release(struct gate_cell *c)
{
	free(c->key);
	free(c->workload);
	free(c->base);
	free(c->cand);
	free(c->base_run);
	free(c->cand_run);
	free(c->note);
}

void gate_release(struct gate *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->ncells; i++)
		cell_release(&g->cells[i]);
	free(g->cells);
	for (size_t i = 0; i < g->nnotes; i++)
		free(g->notes[i]);
	free(g->notes);
	memset(g, 0, sizeof(*g));
}

static void add_note(struct gate *g, char *note)
{
	ARRAY_GROW(g->notes, g->notes_cap, g->nnotes + 1);
	g->notes[g->nnotes++] = note;
}

/* Adds a note to a cell (after an earlier one, separated by "; "); takes ownership of note. */
static void set_cell_note(struct gate_cell *c, char *note)
{
	if (c->note) {
		char *both = xasprintf("%s; %s", c->note, note);
		free(c->note);
		free(note);
		note = both;
	}
	c->note = note;
}

/* "~12 runs per side" or "more than 200 runs per side" */
static void fmt_runs(char *buf, size_t len, unsigned n, unsigned cap)
{
	if (n >= cap)
		snprintf(buf, len, "more than %u runs per side", cap);
	else
		snprintf(buf, len, "~%u runs per side", n);
}

/* ---- building cells ------------------------------------------------------------------------------- */

static int side_has_key(const struct gate_side *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->runs[i].key, key))
			return 1;
	return 0;
}

/* Whether key was already seen among runs[0..upto-1]. */
static int key_seen_before(const struct gate_side *s, size_t upto, const char *key)
{
	for (size_t i = 0; i < upto; i++)
		if (!strcmp(s->runs[i].key, key))
			return 1;
	return 0;
}

static int usable(const struct gate_run *r, enum gate_metric m)
{
	return !r->invalid && isfinite(r->value[m]) && r->value[m] > 0;
}

/* Counts over one side for a key: runs, valid runs, valid runs with metric m, runs with a value for m. */
static void side_counts(const struct gate_side *s, const char *key, enum gate_metric m, size_t *runs,
			size_t *valid, size_t *with_m, size_t *any_m)
{
	*runs = *valid = *with_m = *any_m = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct gate_run *r = &s->runs[i];
		if (strcmp(r->key, key))
			continue;
		(*runs)++;
		if (!r->invalid)
			(*valid)++;
		if (usable(r, m))
			(*with_m)++;
		if (isfinite(r->value[m]) && r->value[m] > 0)
			(*any_m)++;
	}
}

static struct gate_cell *new_cell(struct gate *g, const char *key, const char *workload, enum gate_metric m)
{
	struct gate_cell *c;

	ARRAY_GROW(g->cells, g->cells_cap, g->ncells + 1);
	c = &g->cells[g->ncells++];
	memset(c, 0, sizeof(*c));
	c->key = xstrdup(key);
	c->workload = xstrdup(workload);
	c->metric = m;
	c->verdict = GATE_INVALID;
	c->q = NAN;
	c->ratio = c->ratio_lo = c->ratio_hi = NAN;
	c->s.p = c->s.est = c->s.lo = c->s.hi = c->s.conf = NAN;
	c->base_median = c->cand_median = NAN;
	c->sd_log_base = c->sd_log_cand = c->sd_log = NAN;
	c->badness = -INFINITY;
	return c;
}

static void push_sample(double **v, int64_t **id, size_t *n, double value, int64_t run)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	*id = xrealloc(*id, (*n + 1) * sizeof(**id));
	(*v)[*n] = value;
	(*id)[*n] = run;
	(*n)++;
}

static void fill_samples(struct gate *g, struct gate_cell *c, const struct gate_side *b, const struct gate_side *k)
{
	enum gate_metric m = c->metric;

	if (!g->opts.paired) {
		for (size_t i = 0; i < b->n; i++)
			if (!strcmp(b->runs[i].key, c->key) && usable(&b->runs[i], m))
				push_sample(&c->base, &c->base_run, &c->nbase, b->runs[i].value[m], b->runs[i].id);
		for (size_t i = 0; i < k->n; i++)
			if (!strcmp(k->runs[i].key, c->key) && usable(&k->runs[i], m))
				push_sample(&c->cand, &c->cand_run, &c->ncand, k->runs[i].value[m], k->runs[i].id);
		return;
	}
	/* paired: the first unused candidate run with the same repetition number */
	{
		char *used = xcalloc(k->n ? k->n : 1, 1);
		size_t unpaired = 0;

		for (size_t i = 0; i < b->n; i++) {
			const struct gate_run *x = &b->runs[i];
			size_t j;
			if (strcmp(x->key, c->key) || !usable(x, m))
				continue;
			for (j = 0; j < k->n; j++)
				if (!used[j] && !strcmp(k->runs[j].key, c->key) && usable(&k->runs[j], m) &&
				    k->runs[j].repetition == x->repetition)
					break;
			if (j == k->n) {
				unpaired++;
				continue;
			}
			used[j] = 1;
			push_sample(&c->base, &c->base_run, &c->nbase, x->value[m], x->id);
			push_sample(&c->cand, &c->cand_run, &c->ncand, k->runs[j].value[m], k->runs[j].id);
		}
		for (size_t j = 0; j < k->n; j++)
			if (!used[j] && !strcmp(k->runs[j].key, c->key) && usable(&k->runs[j], m))
				unpaired++;
		if (unpaired)
			set_cell_note(c, xasprintf("%zu run(s) without a partner of the same repetition left out",
						   unpaired));
		free(used);
	}
}

/* Different run names under one workload key are compared together: say so (once per key and side). */
static void note_shared_identity(struct gate *g, const struct gate_side *s, const char *side,
				 const struct gate_run *first)
{
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->runs[i].key, first->key) || !strcmp(s->runs[i].name, first->name))
			continue;
		add_note(g, xasprintf("%s: workloads '%s' and '%s' have the same identity and are compared as one "
				      "(--match name keeps them apart)", side, first->name, s->runs[i].name));
		return;
	}
}

int gate_build(struct gate *g, const struct gate_side *base, const struct gate_side *cand, struct errbuf *err)
{
	size_t common = 0;

	g->base = base;
	g->cand = cand;
	if (base->n == 0)
		return err_set(err, ERR_INPUT, "baseline '%s' matches no runs", base->selection);
	if (cand->n == 0)
		return err_set(err, ERR_INPUT, "candidate '%s' matches no runs", cand->selection);

	for (size_t i = 0; i < base->n; i++) {
		const struct gate_run *r = &base->runs[i];
		size_t before = g->ncells;

		if (key_seen_before(base, i, r->key))
			continue;
		if (!side_has_key(cand, r->key)) {
			add_note(g, xasprintf("only in the baseline: %s", r->name));
			continue;
		}
		common++;
		note_shared_identity(g, base, "baseline", r);
		note_shared_identity(g, cand, "candidate", r);
		for (int m = 0; m < GM_NR; m++) {
			size_t bn, bv, bm, ba, cn, cv, cm, ca;
			struct gate_cell *c;

			side_counts(base, r->key, (enum gate_metric)m, &bn, &bv, &bm, &ba);
			side_counts(cand, r->key, (enum gate_metric)m, &cn, &cv, &cm, &ca);
			if (ba == 0 && ca == 0)
				continue; /* this workload does not have this figure (e.g. write IOPS of a read) */
			if ((bv > 0 && bm == 0) || (cv > 0 && cm == 0)) {
				const char *missing = (bv > 0 && bm == 0) ? "baseline" : "candidate";
				if (m == GM_CPU_PER_IO) {
					/* CPU collected on one side only (a collector was off): not comparable */
					add_note(g, xasprintf("%s of %s: not measured in the %s", metric_info[m].title,
							      r->name, missing));
					continue;
				}
				/* a direction that vanished on one side is no pass: INVALID with the reason */
				c = new_cell(g, r->key, r->name, (enum gate_metric)m);
				fill_samples(g, c, base, cand);
				set_cell_note(c, xasprintf("no %s in the %s's valid runs", metric_info[m].title, missing));
				c->force_invalid = 1;
				continue;
			}
			c = new_cell(g, r->key, r->name, (enum gate_metric)m);
			fill_samples(g, c, base, cand);
		}
		if (g->ncells == before) {
			/* a workload with no figure at all (every run failed before measuring): never a silent pass */
			struct gate_cell *c = new_cell(g, r->key, r->name, GM_WORKLOAD);
			set_cell_note(c, xstrdup("no valid measurement on either side"));
		}
	}
	for (size_t i = 0; i < cand->n; i++)
		if (!key_seen_before(cand, i, cand->runs[i].key) && !side_has_key(base, cand->runs[i].key))
			add_note(g, xasprintf("only in the candidate: %s", cand->runs[i].name));
	{
		size_t shared = 0;
		for (size_t i = 0; i < base->n; i++)
			for (size_t j = 0; j < cand->n; j++)
				shared += base->runs[i].id == cand->runs[j].id;
		if (shared)
			add_note(g, xasprintf("%zu run(s) are in both the baseline and the candidate selection", shared));
	}
	if (common == 0)
		return err_set(err, ERR_INPUT,
			       "baseline '%s' (%zu runs) and candidate '%s' (%zu runs) have no workload in common",
			       base->selection, base->n, cand->selection, cand->n);
	return 0;
}

/* ---- judging ---------------------------------------------------------------------------------------- */

enum gate_verdict gate_judge(const struct stats_shift *s, double q, double alpha, double t, int lower_is_better)
{
	double r = exp(s->est), lo = exp(s->lo), hi = exp(s->hi);
	int sig = q <= alpha;

	if (isnan(r))
		return GATE_INVALID;
	if (lower_is_better) {
		if (lo > 1 && r > 1 + t && sig)
			return GATE_REGRESSION;
		if (hi < 1 && r < 1 - t && sig)
			return GATE_IMPROVEMENT;
	} else {
		if (hi < 1 && r < 1 - t && sig)
			return GATE_REGRESSION;
		if (lo > 1 && r > 1 + t && sig)
			return GATE_IMPROVEMENT;
	}
	if (lo >= 1 - t && hi <= 1 + t)
		return GATE_EQUIVALENT;
	return GATE_INCONCLUSIVE;
}

static double *logs_of(const double *v, size_t n)
{
	double *l = xmalloc((n ? n : 1) * sizeof(*l));

	for (size_t i = 0; i < n; i++)
		l[i] = log(v[i]);
	return l;
}

/* Statistics of one cell (not the verdict). Returns 0, or marks the cell INVALID. */
static int analyse_cell(struct gate *g, struct gate_cell *c, struct errbuf *err)
{
	const struct gate_opts *o = &g->opts;
	double *lb, *lc;
	int rc;

	if (c->metric == GM_WORKLOAD || c->force_invalid) {
		if (c->nbase)
			c->base_median = stats_median(c->base, c->nbase);
		if (c->ncand)
			c->cand_median = stats_median(c->cand, c->ncand);
		return 0;
	}
	if (c->nbase < o->min_runs || c->ncand < o->min_runs || c->nbase == 0 || c->ncand == 0) {
		set_cell_note(c, xasprintf("%zu valid baseline and %zu valid candidate %s, need %u per side (--min-runs)",
					   c->nbase, c->ncand, o->paired ? "runs paired" : "runs", o->min_runs));
		if (c->nbase)
			c->base_median = stats_median(c->base, c->nbase);
		if (c->ncand)
			c->cand_median = stats_median(c->cand, c->ncand);
		return 0;
	}
	lb = logs_of(c->base, c->nbase);
	lc = logs_of(c->cand, c->ncand);
	c->base_median = stats_median(c->base, c->nbase);
	c->cand_median = stats_median(c->cand, c->ncand);
	c->sd_log_base = stats_sd(lb, c->nbase);
	c->sd_log_cand = stats_sd(lc, c->ncand);
	if (o->paired) {
		double *d = xmalloc(c->nbase * sizeof(*d));
		for (size_t i = 0; i < c->nbase; i++)
			d[i] = lc[i] - lb[i];
		c->sd_log = stats_sd(d, c->nbase);
		rc = stats_wsr_shift(d, c->nbase, o->conf, &c->s, err);
		free(d);
	} else {
		double vb = c->sd_log_base * c->sd_log_base * (double)(c->nbase - 1);
		double vc = c->sd_log_cand * c->sd_log_cand * (double)(c->ncand - 1);
		size_t df = c->nbase + c->ncand - 2;
		c->sd_log = df > 0 ? sqrt((vb + vc) / (double)df) : 0;
		rc = stats_mw_shift(lb, c->nbase, lc, c->ncand, o->conf, &c->s, err);
	}
	free(lb);
	free(lc);
	if (rc < 0)
		return -1;
	c->ratio = exp(c->s.est);
	c->ratio_lo = exp(c->s.lo);
	c->ratio_hi = exp(c->s.hi);
	c->badness = metric_info[c->metric].lower_is_better ? c->s.est : -c->s.est;
	c->verdict = GATE_INCONCLUSIVE; /* judged after the adjustment */
	return 1;
}

static int cmp_cells(const void *a, const void *b)
{
	const struct gate_cell *x = a, *y = b;
	int c;

	/* regressions first, then every other cell by effect (worst first), INVALID last */
	if ((x->verdict == GATE_REGRESSION) != (y->verdict == GATE_REGRESSION))
		return x->verdict == GATE_REGRESSION ? -1 : 1;
	if (x->badness != y->badness)
		return x->badness < y->badness ? 1 : -1;
	c = strcmp(x->workload, y->workload);
	if (c)
		return c;
	return (x->metric > y->metric) - (x->metric < y->metric);
}

#define RUNS_CAP 200u /* "how many more runs" stops counting here */

int gate_evaluate(struct gate *g, struct errbuf *err)
{
	const struct gate_opts *o = &g->opts;
	double *p = xmalloc((g->ncells ? g->ncells : 1) * sizeof(*p));
	double alpha = 1 - o->conf, tl = log1p(o->threshold);
	size_t judged = 0;
	int ret = -1;

	if (!(o->threshold > 0 && o->threshold < 1)) {
		err_set(err, ERR_USAGE, "the threshold must be between 0%% and 100%%, got %g%%", o->threshold * 100);
		goto out;
	}
	if (!(o->conf > 0.5 && o->conf < 1)) {
		err_set(err, ERR_USAGE, "the confidence level must be between 50%% and 100%%, got %g%%", o->conf * 100);
		goto out;
	}
	for (size_t i = 0; i < g->ncells; i++) {
		int r = analyse_cell(g, &g->cells[i], err);
		if (r < 0)
			goto out;
		p[i] = r ? g->cells[i].s.p : NAN;
		judged += r;
	}
	stats_bh_adjust(p, g->ncells, p);
	memset(g->count, 0, sizeof(g->count));
	for (size_t i = 0; i < g->ncells; i++) {
		struct gate_cell *c = &g->cells[i];
		int lower = metric_info[c->metric].lower_is_better;
		char runs[64];
		size_t have;
		double e;

		if (isnan(p[i])) {
			c->verdict = GATE_INVALID;
			g->count[GATE_INVALID]++;
			continue;
		}
		c->q = p[i];
		if (isfinite(c->s.lo) && isfinite(c->s.hi) &&
		    (isnan(g->conf_achieved_min) || c->s.conf < g->conf_achieved_min))
			g->conf_achieved_min = c->s.conf;
		c->verdict = gate_judge(&c->s, c->q, alpha, o->threshold, lower);
		g->count[c->verdict]++;
		if (c->verdict != GATE_INCONCLUSIVE)
			continue;
		/* what would settle it, if the estimate and the spread stay as observed */
		e = fabs(c->s.est);
		c->runs_needed = stats_runs_needed(c->sd_log, e >= tl ? e : tl - e, o->conf, 0.8, o->paired, RUNS_CAP);
		have = c->nbase < c->ncand ? c->nbase : c->ncand;
		if (!isfinite(c->s.lo) || !isfinite(c->s.hi)) {
			unsigned nmin = stats_min_runs_for_conf(o->conf, o->paired);
			if (c->runs_needed < nmin)
				c->runs_needed = nmin;
			fmt_runs(runs, sizeof(runs), c->runs_needed, RUNS_CAP);
			set_cell_note(c, xasprintf("%zu/%zu runs cannot give a %g%% interval; %s would likely settle it",
						   c->nbase, c->ncand, o->conf * 100, runs));
		} else if ((c->ratio > 1 + o->threshold || c->ratio < 1 - o->threshold) &&
			   (c->ratio_lo > 1 || c->ratio_hi < 1) && !(c->q <= alpha)) {
			/* it would have been flagged on its own: the other cells' p-values hold it back */
			fmt_runs(runs, sizeof(runs), c->runs_needed > have ? c->runs_needed : (unsigned)have + 1, RUNS_CAP);
			set_cell_note(c, xasprintf("not significant after adjusting for %zu cells (q = %.3g); %s would "
						   "likely settle it", judged, c->q, runs));
		} else if (c->runs_needed >= RUNS_CAP) {
			set_cell_note(c, xasprintf("more than %u runs per side would be needed (noise %.1f%% per run, "
						   "estimate %+.1f%% against a threshold of %g%%)",
						   RUNS_CAP, expm1(c->sd_log) * 100, (c->ratio - 1) * 100, o->threshold * 100));
		} else {
			set_cell_note(c, xasprintf("~%u more runs per side would likely settle it (%u in all)",
						   c->runs_needed > have ? c->runs_needed - (unsigned)have : 1u,
						   c->runs_needed > have ? c->runs_needed : (unsigned)have + 1));
		}
	}
	qsort(g->cells, g->ncells, sizeof(*g->cells), cmp_cells);
	ret = 0;
out:
	free(p);
	return ret;
}

enum gate_outcome gate_outcome(const struct gate *g)
{
	if (g->count[GATE_REGRESSION])
		return GATE_FAIL_REGRESSION;
	if (g->count[GATE_INVALID] && !g->opts.allow_invalid)
		return GATE_FAIL_INVALID;
	if (g->count[GATE_INCONCLUSIVE] && g->opts.strict)
		return GATE_FAIL_INCONCLUSIVE;
	return GATE_PASS;
}

const char *gate_outcome_text(enum gate_outcome o)
{
	switch (o) {
	case GATE_PASS: return "PASS";
	case GATE_FAIL_REGRESSION: return "FAIL (regression)";
	case GATE_FAIL_INCONCLUSIVE: return "FAIL (inconclusive, --strict)";
	case GATE_FAIL_INVALID: return "FAIL (not enough valid runs)";
	}
	return "?";
}

/* ---- formatting helpers ------------------------------------------------------------------------------ */

static void fmt_value(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static void fmt_pct(char *buf, size_t len, double ratio)
{
	if (isnan(ratio))
		snprintf(buf, len, "-");
	else if (isinf(ratio) || ratio <= 0)
		snprintf(buf, len, "%s", ratio <= 0 ? "-100%" : "+inf");
	else
		snprintf(buf, len, "%+.1f%%", (ratio - 1) * 100);
}

static void fmt_interval(char *buf, size_t len, const struct gate_cell *c)
{
	char lo[32], hi[32];

	if (isnan(c->ratio_lo)) {
		snprintf(buf, len, "-");
		return;
	}
	if (c->ratio_lo <= 0 && isinf(c->ratio_hi)) {
		snprintf(buf, len, "unbounded");
		return;
	}
	fmt_pct(lo, sizeof(lo), c->ratio_lo);
	fmt_pct(hi, sizeof(hi), c->ratio_hi);
	snprintf(buf, len, "[%s, %s]", lo, hi);
}

static void fmt_q(char *buf, size_t len, double q)
{
	if (isnan(q))
		snprintf(buf, len, "-");
	else if (q < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", q);
}

static size_t count_valid(const struct gate_side *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += !s->runs[i].invalid;
	return n;
}

static void summary_line(const struct gate *g, struct strbuf *out)
{
	strbuf_addf(out, "%zu regression%s, %zu improvement%s, %zu equivalent, %zu inconclusive, %zu invalid",
		    g->count[GATE_REGRESSION], g->count[GATE_REGRESSION] == 1 ? "" : "s",
		    g->count[GATE_IMPROVEMENT], g->count[GATE_IMPROVEMENT] == 1 ? "" : "s",
		    g->count[GATE_EQUIVALENT], g->count[GATE_INCONCLUSIVE], g->count[GATE_INVALID]);
}

static void settings_line(const struct gate *g, struct strbuf *out)
{
	strbuf_addf(out, "threshold +-%g%%, %g%% intervals", g->opts.threshold * 100, g->opts.conf * 100);
	if (!isnan(g->conf_achieved_min) && g->conf_achieved_min > g->opts.conf + 1e-9)
		strbuf_addf(out, " (achieved >= %.1f%%)", g->conf_achieved_min * 100);
	strbuf_addf(out, ", %s, Benjamini-Hochberg over %zu cells, at least %u valid runs per side",
		    g->opts.paired ? "paired by repetition (signed-rank)" : "independent runs (Mann-Whitney)",
		    g->ncells - g->count[GATE_INVALID], g->opts.min_runs);
}

/* ---- text ------------------------------------------------------------------------------------------------ */

#define TCOLS 10

struct trow {
	char *col[TCOLS];
};

static void text_cell(struct strbuf *sb, const char *s)
{
	strbuf_reset(sb);
	esc_text(sb, s);
}

/*
 * Prints rows (the first is the header) as aligned columns; bit k of right_mask right-aligns column k.
 * The last column is not padded. Frees the strings.
 */
static void emit_table(struct strbuf *out, struct trow *rows, size_t nrows, int ncols, unsigned right_mask)
{
	size_t width[TCOLS] = { 0 };

	for (size_t i = 0; i < nrows; i++)
		for (int k = 0; k < ncols; k++)
			if (strlen(rows[i].col[k]) > width[k])
				width[k] = strlen(rows[i].col[k]);
	for (size_t i = 0; i < nrows; i++) {
		for (int k = 0; k < ncols; k++) {
			int right = (right_mask >> k) & 1;
			size_t l = strlen(rows[i].col[k]);
			if (right)
				for (size_t s = l; s < width[k]; s++)
					strbuf_addc(out, ' ');
			strbuf_adds(out, rows[i].col[k]);
			if (k == ncols - 1)
				break;
			if (!right)
				for (size_t s = l; s < width[k]; s++)
					strbuf_addc(out, ' ');
			strbuf_adds(out, "  ");
		}
		while (out->len && out->buf[out->len - 1] == ' ')
			out->buf[--out->len] = '\0';
		strbuf_addc(out, '\n');
		for (int k = 0; k < ncols; k++)
			free(rows[i].col[k]);
	}
}

static char *metric_label(const struct gate_metric_info *mi)
{
	return mi->unit[0] ? xasprintf("%s (%s)", mi->title, mi->unit) : xstrdup(mi->title);
}

void gate_render_text(const struct gate *g, struct strbuf *out)
{
	static const char *const head[TCOLS] = { "VERDICT", "WORKLOAD", "METRIC", "BASELINE", "CANDIDATE", "CHANGE",
						 "INTERVAL", "q", "RUNS", "NOTE" };
	struct trow *rows = xcalloc(g->ncells + 1, sizeof(*rows));
	struct strbuf sb;

	strbuf_init(&sb);
	for (int k = 0; k < TCOLS; k++)
		rows[0].col[k] = xstrdup(head[k]);
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);
		char b[64], k[64], ch[64], iv[96], q[32], n[32];

		fmt_value(b, sizeof(b), c->base_median * mi->scale);
		fmt_value(k, sizeof(k), c->cand_median * mi->scale);
		fmt_pct(ch, sizeof(ch), c->ratio);
		fmt_interval(iv, sizeof(iv), c);
		fmt_q(q, sizeof(q), c->q);
		snprintf(n, sizeof(n), "%zu/%zu", c->nbase, c->ncand);
		rows[i + 1].col[0] = xstrdup(gate_verdict_name(c->verdict));
		text_cell(&sb, c->workload);
		rows[i + 1].col[1] = xstrdup(sb.buf);
		rows[i + 1].col[2] = metric_label(mi);
		rows[i + 1].col[3] = xstrdup(b);
		rows[i + 1].col[4] = xstrdup(k);
		rows[i + 1].col[5] = xstrdup(ch);
		rows[i + 1].col[6] = xstrdup(iv);
		rows[i + 1].col[7] = xstrdup(q);
		rows[i + 1].col[8] = xstrdup(n);
		text_cell(&sb, c->note ? c->note : "");
		rows[i + 1].col[9] = xstrdup(sb.buf);
	}

	strbuf_adds(out, "baseline ");
	text_cell(&sb, g->base ? g->base->selection : "");
	strbuf_addf(out, "'%s' (%zu runs, %zu valid), candidate ", sb.buf, g->base ? g->base->n : 0,
		    g->base ? count_valid(g->base) : 0);
	text_cell(&sb, g->cand ? g->cand->selection : "");
	strbuf_addf(out, "'%s' (%zu runs, %zu valid)\n", sb.buf, g->cand ? g->cand->n : 0,
		    g->cand ? count_valid(g->cand) : 0);
	settings_line(g, out);
	strbuf_adds(out, "\n\n");
	emit_table(out, rows, g->ncells + 1, TCOLS, (1u << 3) | (1u << 4) | (1u << 5) | (1u << 7) | (1u << 8));
	free(rows);

	for (int side = 0; side < 2; side++) {
		const struct gate_side *s = side ? g->cand : g->base;
		for (size_t i = 0; s && i < s->n; i++) {
			if (!s->runs[i].invalid)
				continue;
			text_cell(&sb, s->runs[i].name);
			strbuf_addf(out, "excluded: %s run %lld (%s", side ? "candidate" : "baseline",
				    (long long)s->runs[i].id, sb.buf);
			text_cell(&sb, s->runs[i].invalid);
			strbuf_addf(out, ", repetition %u): %s\n", s->runs[i].repetition, sb.buf);
		}
	}
	for (size_t i = 0; i < g->nnotes; i++) {
		text_cell(&sb, g->notes[i]);
		strbuf_addf(out, "note: %s\n", sb.buf);
	}
	strbuf_addf(out, "gate: %s: ", gate_outcome_text(gate_outcome(g)));
	summary_line(g, out);
	strbuf_addc(out, '\n');
	strbuf_release(&sb);
}

/* ---- markdown ---------------------------------------------------------------------------------------------- */

void gate_render_markdown(const struct gate *g, struct strbuf *out)
{
	enum gate_outcome o = gate_outcome(g);

	strbuf_addf(out, "### bench gate: %s\n\n", gate_outcome_text(o));
	summary_line(g, out);
	strbuf_adds(out, ". Baseline ");
	esc_markdown(out, g->base ? g->base->selection : "");
	strbuf_addf(out, " (%zu runs, %zu valid), candidate ", g->base ? g->base->n : 0,
		    g->base ? count_valid(g->base) : 0);
	esc_markdown(out, g->cand ? g->cand->selection : "");
	strbuf_addf(out, " (%zu runs, %zu valid); ", g->cand ? g->cand->n : 0, g->cand ? count_valid(g->cand) : 0);
	settings_line(g, out);
	strbuf_adds(out, ".\n\n");
	strbuf_addf(out, "| Verdict | Workload | Metric | Baseline | Candidate | Change | %g%% interval | q | Runs | Note |\n",
		    g->opts.conf * 100);
	strbuf_adds(out, "|---|---|---|---:|---:|---:|---|---:|---:|---|\n");
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);
		char b[64], k[64], ch[64], iv[96], q[32];

		fmt_value(b, sizeof(b), c->base_median * mi->scale);
		fmt_value(k, sizeof(k), c->cand_median * mi->scale);
		fmt_pct(ch, sizeof(ch), c->ratio);
		fmt_interval(iv, sizeof(iv), c);
		fmt_q(q, sizeof(q), c->q);
		strbuf_adds(out, "| ");
		if (c->verdict == GATE_REGRESSION || c->verdict == GATE_INVALID ||
		    (c->verdict == GATE_INCONCLUSIVE && g->opts.strict))
			strbuf_addf(out, "**%s**", gate_verdict_name(c->verdict));
		else
			strbuf_adds(out, gate_verdict_name(c->verdict));
		strbuf_adds(out, " | ");
		esc_markdown(out, c->workload);
		strbuf_adds(out, " | ");
		esc_markdown(out, mi->title);
		if (mi->unit[0]) {
			strbuf_adds(out, " (");
			esc_markdown(out, mi->unit);
			strbuf_adds(out, ")");
		}
		strbuf_addf(out, " | %s | %s | %s | ", b, k, ch);
		esc_markdown(out, iv);
		strbuf_addf(out, " | ");
		esc_markdown(out, q);
		strbuf_addf(out, " | %zu/%zu | ", c->nbase, c->ncand);
		esc_markdown(out, c->note ? c->note : "");
		strbuf_adds(out, " |\n");
	}
	if (g->ncells == 0)
		strbuf_adds(out, "| - | - | - | - | - | - | - | - | - | no cells |\n");
	{
		int any = 0;
		for (int side = 0; side < 2; side++) {
			const struct gate_side *s = side ? g->cand : g->base;
			for (size_t i = 0; s && i < s->n; i++) {
				if (!s->runs[i].invalid)
					continue;
				if (!any++)
					strbuf_adds(out, "\n");
				strbuf_addf(out, "- excluded %s run %lld (", side ? "candidate" : "baseline",
					    (long long)s->runs[i].id);
				esc_markdown(out, s->runs[i].name);
				strbuf_addf(out, ", repetition %u): ", s->runs[i].repetition);
				esc_markdown(out, s->runs[i].invalid);
				strbuf_adds(out, "\n");
			}
		}
		for (size_t i = 0; i < g->nnotes; i++) {
			if (!any++)
				strbuf_adds(out, "\n");
			strbuf_adds(out, "- ");
			esc_markdown(out, g->notes[i]);
			strbuf_adds(out, "\n");
		}
	}
}

/* ---- JUnit XML -------------------------------------------------------------------------------------------- */

/* XML 1.0 text or attribute: the five entities; control characters (not allowed in XML 1.0) become '?'. */
static void esc_xml(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': strbuf_adds(out, "&amp;"); break;
		case '<': strbuf_adds(out, "&lt;"); break;
		case '>': strbuf_adds(out, "&gt;"); break;
		case '"': strbuf_adds(out, "&quot;"); break;
		case '\'': strbuf_adds(out, "&apos;"); break;
		case '\t': strbuf_adds(out, "&#9;"); break;
		case '\n': strbuf_adds(out, "&#10;"); break;
		default: strbuf_addc(out, (c < 0x20 || c == 0x7f) ? '?' : (char)c);
		}
	}
}

static void xml_prop_num(struct strbuf *out, const char *name, double v)
{
	strbuf_addf(out, "        <property name=\"%s\" value=\"", name);
	if (isnan(v))
		strbuf_adds(out, "nan");
	else if (isinf(v))
		strbuf_adds(out, v > 0 ? "inf" : "-inf");
	else
		strbuf_addf(out, "%.6g", v);
	strbuf_adds(out, "\"/>\n");
}

static void cell_message(const struct gate_cell *c, struct strbuf *sb)
{
	const struct gate_metric_info *mi = gate_metric_info(c->metric);
	char ch[64], iv[96];

	fmt_pct(ch, sizeof(ch), c->ratio);
	fmt_interval(iv, sizeof(iv), c);
	strbuf_addf(sb, "%s: %s of %s", gate_verdict_name(c->verdict), mi->title, c->workload);
	if (!isnan(c->ratio))
		strbuf_addf(sb, " changed %s, interval %s, q %.3g, runs %zu/%zu", ch, iv, c->q, c->nbase, c->ncand);
	if (c->note)
		strbuf_addf(sb, "; %s", c->note);
}

void gate_render_junit(const struct gate *g, struct strbuf *out)
{
	size_t failures = 0, skipped = 0;
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t i = 0; i < g->ncells; i++) {
		enum gate_verdict v = g->cells[i].verdict;
		if (v == GATE_REGRESSION || (v == GATE_INCONCLUSIVE && g->opts.strict))
			failures++;
		else if (v == GATE_INCONCLUSIVE || v == GATE_INVALID)
			skipped++;
	}
	strbuf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(out, "<testsuites name=\"bench gate\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" errors=\"0\">\n",
		    g->ncells, failures, skipped);
	strbuf_addf(out, "  <testsuite name=\"bench gate\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" errors=\"0\" "
			 "time=\"0\">\n", g->ncells, failures, skipped);
	strbuf_adds(out, "    <properties>\n      <property name=\"baseline\" value=\"");
	esc_xml(out, g->base ? g->base->selection : "");
	strbuf_adds(out, "\"/>\n      <property name=\"candidate\" value=\"");
	esc_xml(out, g->cand ? g->cand->selection : "");
	strbuf_addf(out, "\"/>\n      <property name=\"threshold\" value=\"%g\"/>\n", g->opts.threshold);
	strbuf_addf(out, "      <property name=\"confidence\" value=\"%g\"/>\n", g->opts.conf);
	strbuf_addf(out, "      <property name=\"outcome\" value=\"%s\"/>\n    </properties>\n",
		    gate_outcome_text(gate_outcome(g)));
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);

		strbuf_adds(out, "    <testcase classname=\"");
		esc_xml(out, c->workload);
		strbuf_adds(out, "\" name=\"");
		esc_xml(out, mi->title);
		strbuf_adds(out, "\" time=\"0\">\n      <properties>\n");
		strbuf_addf(out, "        <property name=\"metric\" value=\"%s\"/>\n", mi->key);
		strbuf_addf(out, "        <property name=\"verdict\" value=\"%s\"/>\n", gate_verdict_name(c->verdict));
		xml_prop_num(out, "ratio", c->ratio);
		xml_prop_num(out, "ci_low", c->ratio_lo);
		xml_prop_num(out, "ci_high", c->ratio_hi);
		xml_prop_num(out, "confidence", c->s.conf);
		xml_prop_num(out, "p", c->s.p);
		xml_prop_num(out, "q", c->q);
		strbuf_addf(out, "        <property name=\"n\" value=\"%zu/%zu\"/>\n", c->nbase, c->ncand);
		strbuf_addf(out, "        <property name=\"n_baseline\" value=\"%zu\"/>\n", c->nbase);
		strbuf_addf(out, "        <property name=\"n_candidate\" value=\"%zu\"/>\n", c->ncand);
		strbuf_adds(out, "      </properties>\n");
		strbuf_reset(&sb);
		cell_message(c, &sb);
		if (c->verdict == GATE_REGRESSION || (c->verdict == GATE_INCONCLUSIVE && g->opts.strict)) {
			strbuf_addf(out, "      <failure type=\"%s\" message=\"", gate_verdict_name(c->verdict));
			esc_xml(out, sb.buf);
			strbuf_adds(out, "\">");
			esc_xml(out, sb.buf);
			strbuf_adds(out, "</failure>\n");
		} else if (c->verdict == GATE_INCONCLUSIVE || c->verdict == GATE_INVALID) {
			strbuf_adds(out, "      <skipped message=\"");
			esc_xml(out, sb.buf);
			strbuf_adds(out, "\"/>\n");
		}
		strbuf_adds(out, "    </testcase>\n");
	}
	strbuf_adds(out, "  </testsuite>\n</testsuites>\n");
	strbuf_release(&sb);
}

/* ---- JSON -------------------------------------------------------------------------------------------------- */

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *side_json(const struct gate_side *s)
{
	cJSON *o = cJSON_CreateObject(), *ex = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "selection", s ? s->selection : "");
	cJSON_AddNumberToObject(o, "runs", s ? (double)s->n : 0);
	cJSON_AddNumberToObject(o, "valid_runs", s ? (double)count_valid(s) : 0);
	for (size_t i = 0; s && i < s->n; i++) {
		cJSON *r;
		if (!s->runs[i].invalid)
			continue;
		r = cJSON_CreateObject();
		cJSON_AddNumberToObject(r, "run_id", (double)s->runs[i].id);
		cJSON_AddStringToObject(r, "name", s->runs[i].name);
		cJSON_AddNumberToObject(r, "repetition", s->runs[i].repetition);
		cJSON_AddStringToObject(r, "reason", s->runs[i].invalid);
		cJSON_AddItemToArray(ex, r);
	}
	cJSON_AddItemToObject(o, "excluded", ex);
	return o;
}

static cJSON *samples_json(const double *v, const int64_t *id, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++) {
		cJSON *s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "run_id", (double)id[i]);
		cJSON_AddItemToObject(s, "value", num_or_null(v[i]));
		cJSON_AddItemToArray(a, s);
	}
	return a;
}

void gate_render_json(const struct gate *g, struct strbuf *out)
{
	cJSON *root = cJSON_CreateObject(), *opts = cJSON_CreateObject(), *counts = cJSON_CreateObject();
	cJSON *cells = cJSON_CreateArray(), *notes = cJSON_CreateArray();
	char *text;

	cJSON_AddStringToObject(root, "outcome", gate_outcome_text(gate_outcome(g)));
	cJSON_AddNumberToObject(opts, "threshold", g->opts.threshold);
	cJSON_AddNumberToObject(opts, "confidence", g->opts.conf);
	cJSON_AddNumberToObject(opts, "min_runs", g->opts.min_runs);
	cJSON_AddBoolToObject(opts, "paired", g->opts.paired);
	cJSON_AddBoolToObject(opts, "strict", g->opts.strict);
	cJSON_AddBoolToObject(opts, "allow_invalid", g->opts.allow_invalid);
	cJSON_AddItemToObject(root, "options", opts);
	for (int v = 0; v < GATE_VERDICT_NR; v++)
		cJSON_AddNumberToObject(counts, gate_verdict_name((enum gate_verdict)v), (double)g->count[v]);
	cJSON_AddItemToObject(root, "counts", counts);
	cJSON_AddItemToObject(root, "baseline", side_json(g->base));
	cJSON_AddItemToObject(root, "candidate", side_json(g->cand));
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "workload", c->workload);
		cJSON_AddStringToObject(o, "key", c->key);
		cJSON_AddStringToObject(o, "metric", mi->key);
		cJSON_AddStringToObject(o, "title", mi->title);
		cJSON_AddBoolToObject(o, "lower_is_better", mi->lower_is_better);
		cJSON_AddStringToObject(o, "verdict", gate_verdict_name(c->verdict));
		cJSON_AddItemToObject(o, "ratio", num_or_null(c->ratio));
		cJSON_AddItemToObject(o, "ci_low", num_or_null(c->ratio_lo));
		cJSON_AddItemToObject(o, "ci_high", num_or_null(c->ratio_hi));
		cJSON_AddItemToObject(o, "confidence", num_or_null(c->s.conf));
		cJSON_AddItemToObject(o, "p", num_or_null(c->s.p));
		cJSON_AddItemToObject(o, "q", num_or_null(c->q));
		cJSON_AddBoolToObject(o, "exact", c->s.exact);
		cJSON_AddItemToObject(o, "baseline_median", num_or_null(c->base_median));
		cJSON_AddItemToObject(o, "candidate_median", num_or_null(c->cand_median));
		cJSON_AddItemToObject(o, "sd_log", num_or_null(c->sd_log));
		if (c->runs_needed)
			cJSON_AddNumberToObject(o, "runs_needed_per_side", c->runs_needed);
		if (c->note)
			cJSON_AddStringToObject(o, "note", c->note);
		cJSON_AddItemToObject(o, "baseline_samples", samples_json(c->base, c->base_run, c->nbase));
		cJSON_AddItemToObject(o, "candidate_samples", samples_json(c->cand, c->cand_run, c->ncand));
		cJSON_AddItemToArray(cells, o);
	}
	cJSON_AddItemToObject(root, "cells", cells);
	for (size_t i = 0; i < g->nnotes; i++)
		cJSON_AddItemToArray(notes, cJSON_CreateString(g->notes[i]));
	cJSON_AddItemToObject(root, "notes", notes);
	text = cJSON_Print(root);
	if (text) {
		strbuf_adds(out, text);
		strbuf_addc(out, '\n');
		free(text);
	}
	cJSON_Delete(root);
}

/* ---- calibration -------------------------------------------------------------------------------------------- */

static int cmp_noise(const void *a, const void *b)
{
	const struct gate_cell *x = *(const struct gate_cell *const *)a, *y = *(const struct gate_cell *const *)b;
	double sx = isnan(x->sd_log) ? -1 : x->sd_log, sy = isnan(y->sd_log) ? -1 : y->sd_log;

	if (sx != sy)
		return sx < sy ? 1 : -1;
	return strcmp(x->workload, y->workload) ? strcmp(x->workload, y->workload)
						: (x->metric > y->metric) - (x->metric < y->metric);
}

void gate_render_calibration(const struct gate *g, struct strbuf *out)
{
	static const char *const head[9] = { "WORKLOAD", "METRIC", "CV BASE", "CV CAND", "CV", "A/A DIFF", "RUNS NOW",
					     "RUNS NEEDED", "THRESHOLD NOW" };
	const struct gate_opts *o = &g->opts;
	double tl = log1p(o->threshold);
	/* the interval's quantile plus a two-sided 80% allowance for the estimate itself */
	double z = stats_norm_quantile(1 - (1 - o->conf) / 2) + stats_norm_quantile(0.9);
	const struct gate_cell **order = xcalloc(g->ncells + 1, sizeof(*order));
	struct trow *rows = xcalloc(g->ncells + 1, sizeof(*rows));
	unsigned worst = 0;
	double worst_sd = 0;
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t i = 0; i < g->ncells; i++)
		order[i] = &g->cells[i];
	qsort(order, g->ncells, sizeof(*order), cmp_noise);
	strbuf_addf(out, "calibration (A/A): baseline '");
	esc_text(out, g->base ? g->base->selection : "");
	strbuf_addf(out, "' against candidate '");
	esc_text(out, g->cand ? g->cand->selection : "");
	strbuf_addf(out, "', same configuration on both sides\n"
			 "CV = run-to-run noise (standard deviation of log values); RUNS NEEDED = runs per side for "
			 "an unchanged build to come out\nEQUIVALENT within +-%g%% with ~80%% probability at %g%% "
			 "intervals; THRESHOLD NOW = the smallest threshold the current runs resolve.\n\n",
		    o->threshold * 100, o->conf * 100);
	for (int k = 0; k < 9; k++)
		rows[0].col[k] = xstrdup(head[k]);
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = order[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);
		size_t have = c->nbase < c->ncand ? c->nbase : c->ncand;
		struct trow *r = &rows[i + 1];
		char diff[32];

		text_cell(&sb, c->workload);
		r->col[0] = xstrdup(sb.buf);
		r->col[1] = metric_label(mi);
		r->col[6] = xasprintf("%zu/%zu", c->nbase, c->ncand);
		if (c->verdict == GATE_INVALID || isnan(c->sd_log)) {
			r->col[2] = xstrdup("-");
			r->col[3] = xstrdup("-");
			r->col[4] = xstrdup("-");
			r->col[5] = xstrdup("-");
			r->col[7] = xstrdup("-");
			text_cell(&sb, c->note ? c->note : "INVALID");
			r->col[8] = xstrdup(sb.buf);
			continue;
		}
		{
			unsigned need = stats_runs_needed(c->sd_log, tl, o->conf, 0.9, o->paired, 1000);
			double tmin = expm1(z * c->sd_log * sqrt(M_PI / 3) * sqrt((o->paired ? 1.0 : 2.0) / (double)have));
			if (need > worst || (need == worst && c->sd_log > worst_sd)) {
				worst = need;
				worst_sd = c->sd_log;
			}
			fmt_pct(diff, sizeof(diff), c->ratio);
			r->col[2] = xasprintf("%.2f%%", expm1(c->sd_log_base) * 100);
			r->col[3] = xasprintf("%.2f%%", expm1(c->sd_log_cand) * 100);
			r->col[4] = xasprintf("%.2f%%", expm1(c->sd_log) * 100);
			r->col[5] = xstrdup(diff);
			r->col[7] = need >= 1000 ? xstrdup(">1000") : xasprintf("%u", need);
			r->col[8] = xasprintf("+-%.1f%%", tmin * 100);
		}
	}
	emit_table(out, rows, g->ncells + 1, 9, 0x1fcu);
	free(rows);
	free(order);
	if (worst >= 1000)
		strbuf_addf(out, "\nthe noisiest cell (noise %.2f%%) would need more than 1000 runs per side for +-%g%%: "
				 "reduce the noise (longer runs, a quieter machine, --paired blocks) or choose a threshold "
				 "from the THRESHOLD NOW column\n",
			    expm1(worst_sd) * 100, o->threshold * 100);
	else if (worst)
		strbuf_addf(out, "\nthe noisiest cell needs %u runs per side for +-%g%% (noise %.2f%%): "
				 "store them with 'bench run --repeat %u'\n",
			    worst, o->threshold * 100, expm1(worst_sd) * 100, worst);
	for (size_t i = 0; i < g->nnotes; i++) {
		text_cell(&sb, g->notes[i]);
		strbuf_addf(out, "note: %s\n", sb.buf);
	}
	strbuf_release(&sb);
}
