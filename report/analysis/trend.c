/*
 * trend: change points in the history of a metric (see trend.h): E-divisive means with a t-test per split,
 * the series built from a rep_set, and the text, Markdown and JSON renderers (charts: trend_chart.c).
 */
#include "report/analysis/trend.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/text/escape.h"
#include "report/text/json_print.h"
#include "report/analysis/stats.h"

void trend_opts_default(struct trend_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pvalue = 0.001;
	o->threshold = 0.05;
	o->conf = 0.95;
	o->min_size = 5;
}

/* ---- E-divisive means ------------------------------------------------------------------------------- */

/*
 * The split tau of x[a..b) (a + min <= tau <= b - min) with the largest energy statistic
 * Q(tau) = m k / (m + k) * (2/(m k) sum|x_i - y_j| - sum|x_i - x_i'| / C(m,2) - sum|y_j - y_j'| / C(k,2))
 * (Matteson & James, alpha = 1), in O(len^2) from running within-segment sums. 0 when too short.
 */
static size_t best_split(const double *x, size_t a, size_t b, unsigned min_size, double *qbest, size_t *evals)
{
	size_t len = b - a, tau = 0;
	double *wl, *wr, total;

	if (len < 2 * (size_t)min_size)
		return 0;
	wl = xcalloc(len + 1, sizeof(*wl)); /* wl[m]: pairwise distance sum of the first m points */
	wr = xcalloc(len + 1, sizeof(*wr)); /* wr[k]: of the last k points */
	for (size_t m = 1; m <= len; m++) {
		double s = 0;
		for (size_t i = a; i < a + m - 1; i++)
			s += fabs(x[a + m - 1] - x[i]);
		wl[m] = wl[m - 1] + s;
		s = 0;
		for (size_t j = b - m + 1; j < b; j++)
			s += fabs(x[b - m] - x[j]);
		wr[m] = wr[m - 1] + s;
	}
	total = wl[len];
	*qbest = -INFINITY;
	for (size_t m = min_size; m + min_size <= len; m++) {
		size_t k = len - m;
		double between = total - wl[m] - wr[k];
		double e = 2 * between / ((double)m * (double)k) - wl[m] / ((double)m * (double)(m - 1) / 2) -
			   wr[k] / ((double)k * (double)(k - 1) / 2);
		double q = (double)m * (double)k / (double)(m + k) * e;
		(*evals)++;
		if (q > *qbest) {
			*qbest = q;
			tau = a + m;
		}
	}
	free(wl);
	free(wr);
	return tau;
}

/* Two-sided Welch p-value of x[a..t) against x[t..b). */
static double split_p(const double *x, size_t a, size_t t, size_t b, struct errbuf *err)
{
	struct stats_shift s;

	if (stats_welch_shift(x + a, t - a, x + t, b - t, 0.95, &s, err) < 0)
		return NAN;
	return s.p;
}

static void insert_sorted(size_t **v, size_t *n, size_t x)
{
	size_t i = *n;

	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	while (i > 0 && (*v)[i - 1] > x) {
		(*v)[i] = (*v)[i - 1];
		i--;
	}
	(*v)[i] = x;
	(*n)++;
}

#define SPLIT_ERROR ((size_t)-1)

/*
 * A significant split of x[a..b): the best split (largest energy statistic) when its t-test holds, else the
 * best significant split found in the two sides of that best split, searched the same way; 0 when there is
 * none. Otava's bisection stops at a segment whose best split is not significant, so a clear step beside a
 * large but noisy one (a short final segment of a few wild runs) was never tested. *q: the energy statistic
 * of the split returned. SPLIT_ERROR on a failed test.
 */
static size_t find_split(const double *x, size_t a, size_t b, const struct trend_opts *o, double *q, size_t *evals,
			 struct errbuf *err)
{
	size_t tau = best_split(x, a, b, o->min_size, q, evals), l, r;
	double p, ql = -INFINITY, qr = -INFINITY;

	if (!tau)
		return 0;
	p = split_p(x, a, tau, b, err);
	if (isnan(p))
		return SPLIT_ERROR;
	if (p < o->pvalue)
		return tau;
	l = find_split(x, a, tau, o, &ql, evals, err);
	if (l == SPLIT_ERROR)
		return l;
	r = find_split(x, tau, b, o, &qr, evals, err);
	if (r == SPLIT_ERROR)
		return r;
	if (l && (!r || ql >= qr)) {
		*q = ql;
		return l;
	}
	*q = qr;
	return r;
}

/* Bisection from point `from` on: adds the significant split with the largest energy statistic among all
 * segments to cps until no segment has one. */
static int bisect(const double *x, size_t n, size_t from, const struct trend_opts *o, size_t **cps, size_t *ncps,
		  size_t *evals, struct errbuf *err)
{
	for (;;) {
		size_t a = from, best = 0;
		double qbest = -INFINITY;

		for (size_t i = 0; i <= *ncps; i++) {
			size_t b = i < *ncps ? (*cps)[i] : n, tau;
			double q = -INFINITY;
			if (b <= from)
				continue;
			tau = find_split(x, a, b, o, &q, evals, err);
			if (tau == SPLIT_ERROR)
				return -1;
			if (tau && q > qbest) {
				qbest = q;
				best = tau;
			}
			a = b;
		}
		if (!best)
			return 0;
		insert_sorted(cps, ncps, best);
	}
}

/* Re-tests every change point at or after `from` against its neighbouring segments; drops the weakest above
 * pvalue until all hold (the neighbours change when one goes). */
static int merge(const double *x, size_t n, size_t from, const struct trend_opts *o, size_t *cps, size_t *ncps,
		 struct errbuf *err)
{
	for (;;) {
		double worst = -1;
		size_t at = 0;

		for (size_t i = 0; i < *ncps; i++) {
			size_t a = i > 0 ? cps[i - 1] : 0, b = i + 1 < *ncps ? cps[i + 1] : n;
			double p;
			if (cps[i] <= from && from > 0)
				continue; /* kept from the earlier analysis */
			p = split_p(x, a, cps[i], b, err);
			if (isnan(p))
				return -1;
			if (p > worst) {
				worst = p;
				at = i;
			}
		}
		if (!(worst >= o->pvalue))
			return 0;
		memmove(cps + at, cps + at + 1, (*ncps - at - 1) * sizeof(*cps));
		(*ncps)--;
	}
}

int trend_detect(const double *x, size_t n, const struct trend_opts *o, const size_t *prev, size_t nprev,
		 size_t **cps, size_t *ncps, struct trend_detect_stats *stats, struct errbuf *err)
{
	size_t from = 0, evals = 0;

	*cps = NULL;
	*ncps = 0;
	if (o->min_size < 2)
		return err_set(err, ERR_USAGE, "segments need at least 2 runs, got %u", o->min_size);
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return err_set(err, ERR_INPUT, "trend: value %zu is not a finite number", i + 1);
	/* incremental: the change points before the last earlier one stand; search from the one before it */
	for (size_t i = 0; nprev >= 2 && i + 1 < nprev; i++) {
		if (prev[i] >= n)
			break;
		insert_sorted(cps, ncps, prev[i]);
		from = prev[i];
	}
	if (bisect(x, n, from, o, cps, ncps, &evals, err) < 0 || merge(x, n, from, o, *cps, ncps, err) < 0) {
		free(*cps);
		*cps = NULL;
		*ncps = 0;
		return -1;
	}
	if (stats) {
		stats->first_searched = from;
		stats->qhat_evals = evals;
	}
	return 0;
}

/* ---- series --------------------------------------------------------------------------------------------- */

void trend_init(struct trend *t, const struct trend_opts *o, enum rep_metric m, const char *order_key)
{
	memset(t, 0, sizeof(*t));
	if (o)
		t->opts = *o;
	else
		trend_opts_default(&t->opts);
	t->metric = m;
	t->order_key = xstrdup(order_key ? order_key : "started_at");
}

static const size_t series_ptrs[] = { offsetof(struct trend_series, chg), offsetof(struct trend_series, seg_mean),
				       offsetof(struct trend_series, workload), offsetof(struct trend_series, identity) };
static const size_t point_strs[] = { offsetof(struct trend_point, order) };

static void series_release(struct trend_series *s)
{
	array_free_members(s->pts, s->n, sizeof(*s->pts), point_strs, 1);
	free_members(s, series_ptrs, sizeof(series_ptrs) / sizeof(series_ptrs[0]));
}

void trend_release(struct trend *t)
{
	if (!t)
		return;
	ARRAY_RELEASE(t->v, t->n, series_release);
	free(t->order_key);
	memset(t, 0, sizeof(*t));
}

int trend_metric_parse(const char *key)
{
	for (int m = 0; m < RM_NR; m++)
		if (!strcmp(rep_metrics[m].key, key))
			return m;
	return -1;
}

/*
 * The series of run r: one per workload name and identity, the rule of `bench report`'s rows (report/table.c):
 * runs of two workloads whose identity items are equal (a CSV import without bs or rdpct columns, job files
 * that differ only in options bench does not model) are never one series.
 */
static struct trend_series *series_for(struct trend *t, const struct rep_run *r)
{
	const char *name = rep_run_workload_name(r);
	struct trend_series *s;

	for (size_t i = 0; i < t->n; i++)
		if (rep_run_is_workload(r, t->v[i].workload, t->v[i].identity))
			return &t->v[i];
	s = ARRAY_PUSH_ZEROED(t->v, t->cap, t->n);
	s->identity = xstrdup(r->identity);
	s->workload = xstrdup(name);
	return s;
}

static int is_number(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return 0;
	*v = strtod(s, &end);
	return *end == '\0' && isfinite(*v);
}

static int numeric_order; /* qsort has no context argument: set by trend_build around its sort */

static int cmp_point(const void *x, const void *y)
{
	const struct trend_point *a = x, *b = y;
	int c = 0;

	if (numeric_order) {
		double u = 0, v = 0;
		is_number(a->order, &u);
		is_number(b->order, &v);
		c = u < v ? -1 : u > v;
	} else {
		c = strcmp(a->order, b->order);
	}
	return c ? c : (a->run_id > b->run_id) - (a->run_id < b->run_id);
}

int trend_build(struct trend *t, const struct rep_set *set, struct errbuf *err)
{
	int started = !strcmp(t->order_key, "started_at");
	int numeric = 1;

	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		double v = r->m[t->metric], dummy;
		char buf[64];
		const char *ord = started ? r->started_at : rep_run_value(r, t->order_key, buf, sizeof(buf));
		struct trend_series *s;
		struct trend_point *p;

		if (!ord || !(isfinite(v) && v > 0)) {
			t->skipped++;
			continue;
		}
		s = series_for(t, r);
		ARRAY_GROW(s->pts, s->cap, s->n + 1);
		p = &s->pts[s->n++];
		p->run_id = r->id;
		p->order = xstrdup(ord);
		p->value = v;
		numeric &= !started && is_number(ord, &dummy);
	}
	if (t->n == 0)
		return err_set(err, ERR_INPUT, "no run of the selection has %s%s%s", rep_metrics[t->metric].title,
			       started ? "" : " and the label ", started ? "" : t->order_key);
	numeric_order = numeric;
	for (size_t i = 0; i < t->n; i++)
		qsort(t->v[i].pts, t->v[i].n, sizeof(*t->v[i].pts), cmp_point);
	numeric_order = 0;
	return 0;
}

/* Steps and segment means of one series from its change points. */
static int describe(struct trend *t, struct trend_series *s, const double *lx, const size_t *cps, size_t ncps,
		    struct errbuf *err)
{
	int higher = rep_metrics[t->metric].higher_better;

	s->chg = xcalloc(ncps + 1, sizeof(*s->chg));
	s->seg_mean = xcalloc(ncps + 1, sizeof(*s->seg_mean));
	s->nchg = ncps;
	for (size_t i = 0; i <= ncps; i++) {
		size_t a = i ? cps[i - 1] : 0, b = i < ncps ? cps[i] : s->n;
		s->seg_mean[i] = exp(stats_mean(lx + a, b - a));
	}
	for (size_t i = 0; i < ncps; i++) {
		size_t a = i ? cps[i - 1] : 0, c = cps[i], b = i + 1 < ncps ? cps[i + 1] : s->n;
		struct trend_change *ch = &s->chg[i];
		struct stats_shift sh;

		if (stats_welch_shift(lx + a, c - a, lx + c, b - c, t->opts.conf, &sh, err) < 0)
			return -1;
		ch->at = c;
		ch->p = sh.p;
		ch->ratio = exp(sh.est);
		ch->lo = exp(sh.lo);
		ch->hi = exp(sh.hi);
		ch->regression = higher ? ch->ratio < 1 - t->opts.threshold : ch->ratio > 1 + t->opts.threshold;
	}
	s->newest_regression = ncps > 0 && s->chg[ncps - 1].regression;
	return 0;
}

int trend_analyse(struct trend *t, struct errbuf *err)
{
	if (!(t->opts.pvalue > 0 && t->opts.pvalue < 1))
		return err_set(err, ERR_USAGE, "the p-value must be between 0 and 1, got %g", t->opts.pvalue);
	for (size_t i = 0; i < t->n; i++) {
		struct trend_series *s = &t->v[i];
		double *lx = xmalloc((s->n ? s->n : 1) * sizeof(*lx));
		size_t *cps = NULL, ncps = 0;
		int rc;

		for (size_t k = 0; k < s->n; k++)
			lx[k] = log(s->pts[k].value);
		rc = trend_detect(lx, s->n, &t->opts, NULL, 0, &cps, &ncps, NULL, err);
		if (rc == 0)
			rc = describe(t, s, lx, cps, ncps, err);
		free(cps);
		free(lx);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int trend_regressed(const struct trend *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].newest_regression)
			return 1;
	return 0;
}

/* ---- renderers -------------------------------------------------------------------------------------------- */

static void pct(struct strbuf *out, double ratio)
{
	strbuf_addf(out, "%+.1f%%", (ratio - 1) * 100);
}

static void value(struct strbuf *out, double v)
{
	strbuf_addf(out, fabs(v) >= 100 ? "%.0f" : fabs(v) >= 1 ? "%.2f" : "%.4g", v);
}

/* The separators of a change point's figures: before the interval, the p-value, the mean before, the mean after. */
static const char *const text_seps[4] = { " ", ", p ", ", mean ", " -> " };
static const char *const md_seps[4] = { " | ", " | ", " | ", " | " };

/* A change point's figures: step [interval], p, mean before and after, with the separators of a format. */
static void change_figures(struct strbuf *out, const struct trend_change *c, double before, double after,
			   const char *const sep[4])
{
	pct(out, c->ratio);
	strbuf_addf(out, "%s[", sep[0]);
	pct(out, c->lo);
	strbuf_adds(out, ", ");
	pct(out, c->hi);
	strbuf_addf(out, "]%s%.2g%s", sep[1], c->p, sep[2]);
	value(out, before);
	strbuf_adds(out, sep[3]);
	value(out, after);
}

/* One change point as raw text: "#15 run 115 (seq 15; before: run 114, seq 14): -15.0% [...], p ..." */
static void change_line(const struct trend *t, const struct trend_series *s, const struct trend_change *c,
			size_t i, struct strbuf *out)
{
	const struct trend_point *after = &s->pts[c->at], *before = &s->pts[c->at - 1];

	strbuf_addf(out, "at #%zu: run %lld (%s %s), after run %lld (%s %s): ", c->at + 1, (long long)after->run_id,
		    t->order_key, after->order, (long long)before->run_id, t->order_key, before->order);
	change_figures(out, c, s->seg_mean[i], s->seg_mean[i + 1], text_seps);
	if (c->regression)
		strbuf_adds(out, ", REGRESSION");
}

static void settings(const struct trend *t, struct strbuf *out)
{
	strbuf_addf(out, "E-divisive means, Welch t-test p < %g per split, segments of at least %u runs, steps with "
			 "%g%% intervals, threshold %g%%", t->opts.pvalue, t->opts.min_size, t->opts.conf * 100,
		    t->opts.threshold * 100);
}

void trend_render_text(const struct trend *t, struct strbuf *out)
{
	struct strbuf raw;

	strbuf_init(&raw);
	strbuf_addf(out, "trend of %s by ", rep_metrics[t->metric].title);
	esc_text(out, t->order_key);
	strbuf_addf(out, ": %zu series; ", t->n);
	settings(t, out);
	strbuf_adds(out, "\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct trend_series *s = &t->v[i];
		strbuf_adds(out, "\n");
		esc_text(out, s->workload);
		strbuf_addf(out, " (%zu runs): %zu change point%s\n", s->n, s->nchg, s->nchg == 1 ? "" : "s");
		for (size_t k = 0; k < s->nchg; k++) {
			strbuf_reset(&raw);
			change_line(t, s, &s->chg[k], k, &raw);
			strbuf_adds(out, "  ");
			esc_text(out, raw.buf);
			strbuf_adds(out, "\n");
		}
		strbuf_adds(out, "  newest segment: ");
		if (s->n)
			value(out, s->seg_mean[s->nchg]);
		strbuf_addf(out, " over %zu runs%s\n", s->n - (s->nchg ? s->chg[s->nchg - 1].at : 0),
			    s->newest_regression ? ", a REGRESSION against the segment before" : "");
	}
	if (t->skipped)
		strbuf_addf(out, "note: %zu run(s) without the metric or the order value left out\n", t->skipped);
	strbuf_addf(out, "trend: %s\n", trend_regressed(t) ? "REGRESSION (the newest segment)" : "OK");
	strbuf_release(&raw);
}

void trend_render_markdown(const struct trend *t, struct strbuf *out)
{
	struct strbuf raw;

	strbuf_init(&raw);
	strbuf_addf(out, "### bench trend: %s\n\n", trend_regressed(t) ? "REGRESSION" : "OK");
	strbuf_addf(out, "%s by ", rep_metrics[t->metric].title);
	esc_markdown(out, t->order_key);
	strbuf_adds(out, "; ");
	settings(t, out);
	strbuf_adds(out, ".\n\n| Workload | Runs | Change point | Step | Interval | p | Mean before | Mean after |\n"
			 "|---|---:|---|---:|---|---:|---:|---:|\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct trend_series *s = &t->v[i];
		for (size_t k = 0; k < s->nchg || (k == 0 && s->nchg == 0); k++) {
			const struct trend_change *c = s->nchg ? &s->chg[k] : NULL;
			strbuf_adds(out, "| ");
			esc_markdown(out, s->workload);
			strbuf_addf(out, " | %zu | ", s->n);
			if (!c) {
				strbuf_adds(out, "none | | | | | |\n");
				continue;
			}
			strbuf_reset(&raw);
			strbuf_addf(&raw, "#%zu run %lld (%s %s)", c->at + 1, (long long)s->pts[c->at].run_id,
				    t->order_key, s->pts[c->at].order);
			esc_markdown(out, raw.buf);
			strbuf_adds(out, c->regression ? " **REGRESSION** | " : " | ");
			change_figures(out, c, s->seg_mean[k], s->seg_mean[k + 1], md_seps);
			strbuf_adds(out, " |\n");
		}
	}
	strbuf_release(&raw);
}

static cJSON *series_json(const struct trend *t, const struct trend_series *s)
{
	cJSON *o = cJSON_CreateObject(), *pts = cJSON_CreateArray(), *cps = cJSON_CreateArray();
	cJSON *segs = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "workload", s->workload);
	cJSON_AddStringToObject(o, "identity", s->identity);
	for (size_t k = 0; k < s->n; k++) {
		cJSON *p = cJSON_CreateObject();
		cJSON_AddNumberToObject(p, "run_id", (double)s->pts[k].run_id);
		cJSON_AddStringToObject(p, "order", s->pts[k].order);
		cJSON_AddNumberToObject(p, "value", s->pts[k].value);
		cJSON_AddItemToArray(pts, p);
	}
	for (size_t k = 0; k < s->nchg; k++) {
		const struct trend_change *c = &s->chg[k];
		cJSON *p = cJSON_CreateObject();
		cJSON_AddNumberToObject(p, "index", (double)c->at);
		cJSON_AddNumberToObject(p, "run_id", (double)s->pts[c->at].run_id);
		cJSON_AddNumberToObject(p, "run_id_before", (double)s->pts[c->at - 1].run_id);
		cJSON_AddStringToObject(p, "order", s->pts[c->at].order);
		cJSON_AddNumberToObject(p, "ratio", c->ratio);
		cJSON_AddNumberToObject(p, "ci_low", c->lo);
		cJSON_AddNumberToObject(p, "ci_high", c->hi);
		cJSON_AddNumberToObject(p, "p", c->p);
		cJSON_AddBoolToObject(p, "regression", c->regression);
		cJSON_AddItemToArray(cps, p);
	}
	for (size_t k = 0; k <= s->nchg && s->n; k++) {
		cJSON *p = cJSON_CreateObject();
		cJSON_AddNumberToObject(p, "start", (double)(k ? s->chg[k - 1].at : 0));
		cJSON_AddNumberToObject(p, "end", (double)(k < s->nchg ? s->chg[k].at : s->n));
		cJSON_AddNumberToObject(p, "mean", s->seg_mean[k]);
		cJSON_AddItemToArray(segs, p);
	}
	cJSON_AddItemToObject(o, "points", pts);
	cJSON_AddItemToObject(o, "change_points", cps);
	cJSON_AddItemToObject(o, "segments", segs);
	cJSON_AddBoolToObject(o, "newest_regression", s->newest_regression);
	(void)t;
	return o;
}

void trend_render_json(const struct trend *t, struct strbuf *out)
{
	cJSON *root = cJSON_CreateObject(), *opts = cJSON_CreateObject(), *series = cJSON_CreateArray();

	cJSON_AddStringToObject(root, "outcome", trend_regressed(t) ? "REGRESSION" : "OK");
	cJSON_AddStringToObject(root, "metric", rep_metrics[t->metric].key);
	cJSON_AddStringToObject(root, "order", t->order_key);
	cJSON_AddNumberToObject(opts, "pvalue", t->opts.pvalue);
	cJSON_AddNumberToObject(opts, "threshold", t->opts.threshold);
	cJSON_AddNumberToObject(opts, "confidence", t->opts.conf);
	cJSON_AddNumberToObject(opts, "min_size", t->opts.min_size);
	cJSON_AddItemToObject(root, "options", opts);
	for (size_t i = 0; i < t->n; i++)
		cJSON_AddItemToArray(series, series_json(t, &t->v[i]));
	cJSON_AddItemToObject(root, "series", series);
	cJSON_AddNumberToObject(root, "skipped_runs", (double)t->skipped);
	json_print_delete(out, root);
}
