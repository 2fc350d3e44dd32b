/*
 * curve_report: the curves, steady state, runs left out and per-job rows of a report (curve_report.h), in
 * every format the report has. The figures come from curve.c (knee, max IOPS at p99 <= X), steady.c (the
 * words of a steady-state result) and the store's job rows (store_read_job_results) through the one figures
 * layer (figures.h); this file only lays them out.
 */
#include "report/format/curve_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store_read.h"
#include "report/text/escape.h"
#include "report/analysis/steady.h"

int rep_run_is_curve_point(const struct rep_run *r)
{
	for (size_t i = 0; i < r->labels.n; i++) {
		const char *k = r->labels.v[i].key;

		if (!strcmp(k, "curve_pct") || !strcmp(k, "vdbench.curve_pct") || !strncmp(k, "sweep.", 6))
			return 1;
	}
	return 0;
}

void rep_set_drop_method(struct rep_set *set, struct method_left *left)
{
	memset(left, 0, sizeof(*left));
	for (size_t i = 0; i < set->n;) {
		const struct kvlist *l = &set->v[i].labels;

		if (!strcmp(kvlist_get(l, "phase", ""), "precondition"))
			left->precondition++;
		else if (kvlist_find(l, "ss_round") && !kvlist_find(l, "steady_state"))
			left->rounds++;
		else {
			i++;
			continue;
		}
		rep_set_remove(set, i);
	}
}

int method_view_build(struct method_view *mv, const struct rep_set *set, const struct kvlist *by,
		      struct errbuf *err)
{
	struct rep_set pts;
	int ret = 0;

	curve_set_init(&mv->curves);
	mv->set = set;
	rep_set_init(&pts);
	for (size_t i = 0; i < set->n; i++)
		if (rep_run_is_curve_point(&set->v[i])) {
			ARRAY_GROW(pts.v, pts.cap, pts.n + 1);
			pts.v[pts.n++] = set->v[i]; /* a view: the runs stay the set's */
		}
	if (pts.n) {
		struct kvlist keys;

		/* a configuration is the --by keys that are not method labels, with the --compare key */
		kvlist_init(&keys);
		for (size_t i = 0; by && i < by->n; i++)
			if (!rep_label_is_method(by->v[i].key))
				kvlist_add(&keys, by->v[i].key, NULL);
		if (keys.n && mv->cmp_key && !kvlist_find(&keys, mv->cmp_key))
			kvlist_add(&keys, mv->cmp_key, NULL);
		ret = curve_build(&mv->curves, &pts, &keys, 2.0, CURVE_LAT_MEAN, err);
		kvlist_release(&keys);
		/* the points must refer to the set's runs, not to the view's copies */
		for (size_t c = 0; c < mv->curves.n; c++)
			for (size_t k = 0; k < mv->curves.v[c].n; k++) {
				struct curve_point *p = &mv->curves.v[c].v[k];

				for (size_t i = 0; i < set->n; i++)
					if (set->v[i].id == p->run->id)
						p->run = &set->v[i];
			}
		if (ret < 0 && !mv->curves.n)
			ret = 0; /* points without figures: no curve, no error */
	}
	free(pts.v);
	return ret;
}

void method_view_release(struct method_view *mv)
{
	if (mv)
		curve_set_release(&mv->curves);
}

/* ---- figures ---------------------------------------------------------------------------------------- */

/* The curve of the baseline for curve c: the same configuration with the --compare key at the baseline. */
static const struct curve *baseline_of(const struct method_view *mv, const struct curve *c)
{
	const char *v = mv->cmp_key ? kvlist_get(&c->keys, mv->cmp_key, NULL) : NULL;
	const char *base = mv->cmp_n ? mv->cmp_vals[mv->cmp_n - 1] : NULL;

	if (!v || !base)
		return NULL;
	for (size_t i = 0; i < mv->curves.n; i++) {
		const struct curve *o = &mv->curves.v[i];
		size_t same = 0;

		if (o->keys.n != c->keys.n || strcmp(kvlist_get(&o->keys, mv->cmp_key, ""), base) ||
		    strcmp(o->of ? o->of : "", c->of ? c->of : ""))
			continue;
		for (size_t k = 0; k < c->keys.n; k++)
			same += !strcmp(c->keys.v[k].key, mv->cmp_key) ||
				!strcmp(kvlist_get(&o->keys, c->keys.v[k].key, "\x01"), c->keys.v[k].value);
		if (same == c->keys.n)
			return o;
	}
	return NULL;
}

/* Max IOPS of curve c at limit j, the point's index, and the ratio to its baseline (NAN: none). */
static double max_at(const struct method_view *mv, const struct curve *c, size_t j, long *idx, double *ratio)
{
	double a = curve_max_iops_at(c, mv->p99_ms[j], idx);
	const struct curve *b = baseline_of(mv, c);
	double bv = b ? curve_max_iops_at(b, mv->p99_ms[j], NULL) : NAN;

	*ratio = b && bv > 0 ? a / bv : NAN;
	return a;
}

/* ---- text, Markdown and HTML (the grid lays out all three) -------------------------------------------------------------------------------- */

static void para(struct strbuf *out, enum rep_format f, const char *raw)
{
	if (f == FMT_HTML) {
		strbuf_adds(out, "<p>");
		esc_html(out, raw);
		strbuf_adds(out, "</p>\n");
		return;
	}
	if (f == FMT_MARKDOWN)
		esc_markdown(out, raw);
	else
		esc_text(out, raw);
	strbuf_adds(out, f == FMT_MARKDOWN ? "\n\n" : "\n");
}

static void curves_text(struct strbuf *out, const struct method_view *mv, enum rep_format f)
{
	const struct curve_set *cs = &mv->curves;
	int ratios = mv->cmp_key != NULL;
	struct rgrid g;
	struct strbuf sb;
	size_t ncol = 1 + mv->nlim * (size_t)(2 + ratios);

	strbuf_init(&sb);
	strbuf_adds(&sb, "Curves: max IOPS at p99 <= X per configuration (the best measured point, never interpolated)");
	if (ratios)
		strbuf_addf(&sb, "; ratio to %s=%s at the same limit", mv->cmp_key, mv->cmp_vals[mv->cmp_n - 1]);
	render_heading(out, f, 2, sb.buf);
	if (f == FMT_MARKDOWN)
		strbuf_addc(out, '\n');
	rgrid_init(&g, ncol);
	rgrid_row(&g);
	rgrid_set(&g, 0, "configuration", f, NULL);
	for (size_t j = 0, col = 1; j < mv->nlim; j++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "IOPS p99<=%gms", mv->p99_ms[j]);
		rgrid_set(&g, col, sb.buf, f, NULL);
		g.right[col++] = 1;
		rgrid_set(&g, col, "run", f, NULL);
		g.right[col++] = 1;
		if (ratios) {
			rgrid_set(&g, col, "ratio", f, NULL);
			g.right[col++] = 1;
		}
	}
	for (size_t i = 0; i < cs->n; i++) {
		const struct curve *c = &cs->v[i];

		rgrid_row(&g);
		rgrid_set(&g, 0, c->title, f, NULL);
		for (size_t j = 0, col = 1; j < mv->nlim; j++) {
			long idx;
			double ratio, v = max_at(mv, c, j, &idx, &ratio);

			rgrid_num(&g, col++, v, 0, f);
			strbuf_reset(&sb);
			if (idx >= 0)
				strbuf_addf(&sb, "%lld", (long long)c->v[idx].run->id);
			rgrid_set(&g, col++, idx >= 0 ? sb.buf : "-", f, NULL);
			if (ratios) {
				rgrid_num(&g, col++, ratio, 2, f);
			}
		}
	}
	rgrid_print(out, &g, f, 0);
	rgrid_release(&g);
	strbuf_addc(out, '\n');

	strbuf_reset(&sb);
	strbuf_addf(&sb, "Knee: of the points whose %s latency is <= %g x the curve's minimum, those within 5 %% of "
			 "their best IOPS, the lowest-latency one (docs/report.md)",
		    cs->knee_lat == CURVE_LAT_P99 ? "p99" : "mean", cs->knee_k);
	render_heading(out, f, 3, sb.buf);
	if (f == FMT_MARKDOWN)
		strbuf_addc(out, '\n');
	{
		static const char *const hdr[] = { "configuration", "points", "knee IOPS", "mean ms", "p99 ms", "run",
						   "workload" };
		rgrid_init(&g, 7);
		rgrid_row(&g);
		for (size_t k = 0; k < 7; k++) {
			rgrid_set(&g, k, hdr[k], f, NULL);
			g.right[k] = k >= 1 && k <= 5;
		}
	}
	for (size_t i = 0; i < cs->n; i++) {
		const struct curve *c = &cs->v[i];
		const struct curve_point *p = c->knee >= 0 ? &c->v[c->knee] : NULL;

		rgrid_row(&g);
		rgrid_set(&g, 0, c->title, f, NULL);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%zu", c->n);
		rgrid_set(&g, 1, sb.buf, f, NULL);
		rgrid_num(&g, 2, p ? p->iops : NAN, 0, f);
		rgrid_num(&g, 3, p ? p->lat_ms : NAN, 3, f);
		rgrid_num(&g, 4, p ? p->p99_ms : NAN, 3, f);
		strbuf_reset(&sb);
		if (p)
			strbuf_addf(&sb, "%lld", (long long)p->run->id);
		rgrid_set(&g, 5, p ? sb.buf : "-", f, NULL);
		rgrid_set(&g, 6, p ? p->run->name : "", f, NULL);
	}
	rgrid_print(out, &g, f, 0);
	rgrid_release(&g);
	strbuf_addc(out, '\n');
	strbuf_release(&sb);
}

/* ---- steady state ------------------------------------------------------------------------------------- */

/* The words of a run's steady state (steady.h) from its labels; 0 when it has none. */
static int ss_words(const struct rep_run *r, struct strbuf *out)
{
	const char *lab = kvlist_get(&r->labels, "steady_state", NULL);
	char buf[160];

	if (!lab)
		return 0;
	if (ss_label_describe(lab, kvlist_get(&r->labels, "ss.window_iops", NULL), buf, sizeof(buf)) < 0)
		strbuf_addf(out, "steady state: '%s' (not a result bench writes)", lab);
	else
		strbuf_adds(out, buf);
	return 1;
}

/* fio's own ss= result: its labels fio.ss* as "k=v, k=v"; 0 when none. */
static int fio_ss_words(const struct rep_run *r, struct strbuf *out)
{
	int any = 0;

	for (size_t i = 0; i < r->labels.n; i++)
		if (!strncmp(r->labels.v[i].key, "fio.ss", 6)) {
			strbuf_addf(out, "%s%s=%s", any ? ", " : "", r->labels.v[i].key + 4,
				    r->labels.v[i].value ? r->labels.v[i].value : "");
			any = 1;
		}
	return any;
}

/* Both results of a run into w and fw (emptied first): bit 0 the SNIA rule's words, bit 1 fio's ss=. */
static int ss_pair(const struct rep_run *r, struct strbuf *w, struct strbuf *fw)
{
	int a, b;

	strbuf_reset(w);
	strbuf_reset(fw);
	a = ss_words(r, w);
	b = fio_ss_words(r, fw);
	return a | b << 1;
}

static size_t ss_runs(const struct rep_set *set)
{
	size_t n = 0;
	struct strbuf w, fw;

	strbuf_init(&w);
	strbuf_init(&fw);
	for (size_t i = 0; i < set->n; i++)
		n += ss_pair(&set->v[i], &w, &fw) != 0;
	strbuf_release(&w);
	strbuf_release(&fw);
	return n;
}

static void steady_text(struct strbuf *out, const struct rep_set *set, enum rep_format f)
{
	static const char *const hdr[] = { "run", "workload", "steady state (SNIA PTS rule)", "fio's own ss=" };
	struct rgrid g;
	struct strbuf sb, w, fw;

	rgrid_section(out, f, "Steady state", &g, hdr, 4);
	g.right[0] = 1;
	strbuf_init(&sb);
	strbuf_init(&w);
	strbuf_init(&fw);
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		int has = ss_pair(r, &w, &fw);

		if (!has)
			continue;
		rgrid_row(&g);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%lld", (long long)r->id);
		rgrid_set(&g, 0, sb.buf, f, NULL);
		rgrid_set(&g, 1, r->name, f, NULL);
		rgrid_set(&g, 2, has & 1 ? w.buf : "-", f, NULL);
		rgrid_set(&g, 3, has & 2 ? fw.buf : "-", f, NULL);
	}
	rgrid_print(out, &g, f, 0);
	rgrid_release(&g);
	strbuf_release(&sb);
	strbuf_release(&w);
	strbuf_release(&fw);
	strbuf_addc(out, '\n');
}

/* ---- jobs --------------------------------------------------------------------------------------------- */

struct job_row {
	const struct rep_run *run;
	char *job;
	double m[RM_NR];
};

struct job_rows {
	struct job_row *v;
	size_t n, cap;
};

static void job_rows_release(struct job_rows *j)
{
	for (size_t i = 0; i < j->n; i++)
		free(j->v[i].job);
	free(j->v);
}

/* The per-job rows (all hosts) of every run of the set that has several jobs, in run then job order. */
static int job_rows_load(struct job_rows *out, const struct method_view *mv, struct errbuf *err)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; mv->st && i < mv->set->n; i++) {
		const struct rep_run *r = &mv->set->v[i];
		struct store_result *res = NULL;
		struct figures f;
		size_t nres = 0;

		if (store_read_job_results(mv->st, r->id, HOST_AGGREGATE, &res, &nres, err) < 0)
			return -1;
		for (size_t k = 0; k < nres; k++) {
			struct job_row *jr;

			if (!res[k].job || (out->n && out->v[out->n - 1].run == r && !strcmp(out->v[out->n - 1].job,
											     res[k].job)))
				continue;
			ARRAY_GROW(out->v, out->cap, out->n + 1);
			jr = &out->v[out->n++];
			jr->run = r;
			jr->job = xstrdup(res[k].job);
			if (figures_from_results(mv->st, res, NULL, nres, HOST_AGGREGATE, jr->job, &f, err) < 0) {
				store_results_free(res, nres);
				return -1;
			}
			rep_metrics_from(&f, jr->m);
		}
		store_results_free(res, nres);
	}
	return 0;
}

/* The metrics a job row has: every headline figure but CPU (a host's, not a job's). */
static int job_metric(int m)
{
	return m != RM_CPU;
}

static void jobs_text(struct strbuf *out, const struct job_rows *j, enum rep_format f)
{
	struct rgrid g;
	struct strbuf sb;
	size_t col;

	render_heading(out, f, 2, "Jobs (runs of several jobs that fio ran together; all hosts)");
	if (f == FMT_MARKDOWN)
		strbuf_addc(out, '\n');
	rgrid_init(&g, 3 + RM_NR - 1);
	rgrid_row(&g);
	rgrid_set(&g, 0, "run", f, NULL);
	rgrid_set(&g, 1, "workload", f, NULL);
	rgrid_set(&g, 2, "job", f, NULL);
	g.right[0] = 1;
	col = 3;
	for (int m = 0; m < RM_NR; m++)
		if (job_metric(m)) {
			rgrid_set(&g, col, rep_metrics[m].title, f, NULL);
			g.right[col++] = 1;
		}
	strbuf_init(&sb);
	for (size_t i = 0; i < j->n; i++) {
		rgrid_row(&g);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%lld", (long long)j->v[i].run->id);
		rgrid_set(&g, 0, sb.buf, f, NULL);
		rgrid_set(&g, 1, j->v[i].run->name, f, NULL);
		rgrid_set(&g, 2, j->v[i].job, f, NULL);
		col = 3;
		for (int m = 0; m < RM_NR; m++)
			if (job_metric(m)) {
				rgrid_num(&g, col++, j->v[i].m[m], rep_metrics[m].decimals, f);
			}
	}
	if (!j->n) {
		rgrid_row(&g);
		rgrid_set(&g, 1, "no selected run has several jobs", f, NULL);
	}
	rgrid_print(out, &g, f, 0);
	rgrid_release(&g);
	strbuf_release(&sb);
	strbuf_addc(out, '\n');
}

/* ---- the note on runs left out --------------------------------------------------------------------------- */

static void left_note(struct strbuf *sb, const struct method_left *l)
{
	strbuf_addf(sb, "Left out of the tables: ");
	if (l->precondition)
		strbuf_addf(sb, "%zu precondition run%s (phase=precondition)", l->precondition,
			    l->precondition == 1 ? "" : "s");
	if (l->precondition && l->rounds)
		strbuf_adds(sb, " and ");
	if (l->rounds)
		strbuf_addf(sb, "%zu steady-state round%s (ss_round without steady_state)", l->rounds,
			    l->rounds == 1 ? "" : "s");
	strbuf_adds(sb, ": they prepare or decide a measurement and are not measured results (docs/method.md).");
}

/* ---- CSV and JSON ------------------------------------------------------------------------------------- */

static void csv_num(struct strbuf *out, double v)
{
	strbuf_addc(out, ',');
	render_exact(out, v, "");
}

static void method_csv(struct strbuf *out, const struct method_view *mv, const struct job_rows *j)
{
	const struct curve_set *cs = &mv->curves;

	if (mv->left.precondition || mv->left.rounds)
		strbuf_addf(out, "\r\nsection,precondition_runs,ss_rounds\r\nleft_out,%zu,%zu\r\n", mv->left.precondition,
			    mv->left.rounds);
	if (cs->n) {
		strbuf_adds(out, "\r\nsection,configuration,p99_limit_ms,max_iops,run_id,ratio\r\n");
		for (size_t i = 0; i < cs->n; i++)
			for (size_t k = 0; k < mv->nlim; k++) {
				long idx;
				double ratio, v = max_at(mv, &cs->v[i], k, &idx, &ratio);

				strbuf_adds(out, "max_iops_at_p99,");
				esc_csv(out, cs->v[i].title);
				csv_num(out, mv->p99_ms[k]);
				csv_num(out, v);
				strbuf_addc(out, ',');
				if (idx >= 0)
					strbuf_addf(out, "%lld", (long long)cs->v[i].v[idx].run->id);
				csv_num(out, ratio);
				strbuf_adds(out, "\r\n");
			}
		strbuf_adds(out, "\r\nsection,configuration,points,knee_iops,knee_lat_ms,knee_p99_ms,run_id\r\n");
		for (size_t i = 0; i < cs->n; i++) {
			const struct curve *c = &cs->v[i];
			const struct curve_point *p = c->knee >= 0 ? &c->v[c->knee] : NULL;

			strbuf_adds(out, "knee,");
			esc_csv(out, c->title);
			strbuf_addf(out, ",%zu", c->n);
			csv_num(out, p ? p->iops : NAN);
			csv_num(out, p ? p->lat_ms : NAN);
			csv_num(out, p ? p->p99_ms : NAN);
			strbuf_addc(out, ',');
			if (p)
				strbuf_addf(out, "%lld", (long long)p->run->id);
			strbuf_adds(out, "\r\n");
		}
	}
	if (ss_runs(mv->set)) {
		struct strbuf w, fw;

		strbuf_init(&w);
		strbuf_init(&fw);
		strbuf_adds(out, "\r\nsection,run_id,workload,steady_state,fio_ss\r\n");
		for (size_t i = 0; i < mv->set->n; i++) {
			const struct rep_run *r = &mv->set->v[i];

			if (!ss_pair(r, &w, &fw))
				continue;
			strbuf_addf(out, "steady_state,%lld,", (long long)r->id);
			esc_csv(out, r->name);
			strbuf_addc(out, ',');
			esc_csv(out, w.buf);
			strbuf_addc(out, ',');
			esc_csv(out, fw.buf);
			strbuf_adds(out, "\r\n");
		}
		strbuf_release(&w);
		strbuf_release(&fw);
	}
	if (j) {
		strbuf_adds(out, "\r\nsection,run_id,workload,job");
		for (int m = 0; m < RM_NR; m++)
			if (job_metric(m))
				strbuf_addf(out, ",%s", rep_metrics[m].key);
		strbuf_adds(out, "\r\n");
		for (size_t i = 0; i < j->n; i++) {
			strbuf_addf(out, "job,%lld,", (long long)j->v[i].run->id);
			esc_csv(out, j->v[i].run->name);
			strbuf_addc(out, ',');
			esc_csv(out, j->v[i].job);
			for (int m = 0; m < RM_NR; m++)
				if (job_metric(m))
					csv_num(out, j->v[i].m[m]);
			strbuf_adds(out, "\r\n");
		}
	}
}

static void json_num(struct strbuf *out, const char *key, double v)
{
	strbuf_addf(out, ",\"%s\":", key);
	render_exact(out, v, "null");
}

static void json_point(struct strbuf *out, const struct curve_point *p)
{
	strbuf_addf(out, "{\"run\":%lld,\"workload\":", (long long)p->run->id);
	esc_json(out, p->run->name);
	json_num(out, "iops", p->iops);
	json_num(out, "lat_ms", p->lat_ms);
	json_num(out, "p99_ms", p->p99_ms);
	strbuf_addc(out, '}');
}

static void json_curves(struct strbuf *out, const struct method_view *mv)
{
	const struct curve_set *cs = &mv->curves;

	strbuf_addf(out, ",\"curves\":{\"knee_rule\":{\"k\":%g,\"latency\":\"%s\"},\"p99_limits_ms\":[", cs->knee_k,
		    cs->knee_lat == CURVE_LAT_P99 ? "p99" : "mean");
	for (size_t k = 0; k < mv->nlim; k++)
		strbuf_addf(out, "%s%.17g", k ? "," : "", mv->p99_ms[k]);
	strbuf_adds(out, "],\"configurations\":[");
	for (size_t i = 0; i < cs->n; i++) {
		const struct curve *c = &cs->v[i];

		strbuf_adds(out, i ? ",{\"configuration\":" : "{\"configuration\":");
		esc_json(out, c->title);
		strbuf_adds(out, ",\"labels\":");
		render_json_labels(out, &c->keys);
		strbuf_adds(out, ",\"points\":[");
		for (size_t k = 0; k < c->n; k++) {
			strbuf_adds(out, k ? "," : "");
			json_point(out, &c->v[k]);
		}
		strbuf_adds(out, "],\"knee\":");
		if (c->knee >= 0)
			json_point(out, &c->v[c->knee]);
		else
			strbuf_adds(out, "null");
		strbuf_adds(out, ",\"max_iops_at_p99\":[");
		for (size_t k = 0; k < mv->nlim; k++) {
			long idx;
			double ratio, v = max_at(mv, c, k, &idx, &ratio);

			strbuf_addf(out, "%s{\"p99_limit_ms\":%.17g", k ? "," : "", mv->p99_ms[k]);
			json_num(out, "iops", v);
			strbuf_adds(out, ",\"run\":");
			if (idx >= 0)
				strbuf_addf(out, "%lld", (long long)c->v[idx].run->id);
			else
				strbuf_adds(out, "null");
			json_num(out, "ratio", ratio);
			strbuf_addc(out, '}');
		}
		strbuf_adds(out, "]}");
	}
	strbuf_adds(out, "]}");
}

/* "steady_state":[{run, workload, steady_state (the words or null), fio_ss {labels}}] */
static void json_steady(struct strbuf *out, const struct rep_set *set)
{
	struct strbuf w, fw;
	int first = 1;

	strbuf_adds(out, ",\"steady_state\":[");
	strbuf_init(&w);
	strbuf_init(&fw);
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		struct kvlist fio;
		int has = ss_pair(r, &w, &fw);

		if (!has)
			continue;
		strbuf_addf(out, "%s{\"run\":%lld,\"workload\":", first ? "" : ",", (long long)r->id);
		esc_json(out, r->name);
		strbuf_adds(out, ",\"steady_state\":");
		if (has & 1)
			esc_json(out, w.buf);
		else
			strbuf_adds(out, "null");
		strbuf_adds(out, ",\"fio_ss\":");
		kvlist_init(&fio);
		for (size_t k = 0; k < r->labels.n; k++)
			if (!strncmp(r->labels.v[k].key, "fio.ss", 6))
				kvlist_add(&fio, r->labels.v[k].key, r->labels.v[k].value ? r->labels.v[k].value : "");
		render_json_labels(out, &fio);
		kvlist_release(&fio);
		strbuf_addc(out, '}');
		first = 0;
	}
	strbuf_release(&w);
	strbuf_release(&fw);
	strbuf_addc(out, ']');
}

static void method_json(struct strbuf *out, const struct method_view *mv, const struct job_rows *j)
{
	if (mv->left.precondition || mv->left.rounds)
		strbuf_addf(out, ",\"left_out\":{\"precondition\":%zu,\"ss_rounds\":%zu}", mv->left.precondition,
			    mv->left.rounds);
	if (mv->curves.n)
		json_curves(out, mv);
	if (ss_runs(mv->set))
		json_steady(out, mv->set);
	if (j) {
		strbuf_adds(out, ",\"jobs\":[");
		for (size_t i = 0; i < j->n; i++) {
			strbuf_addf(out, "%s{\"run\":%lld,\"workload\":", i ? "," : "", (long long)j->v[i].run->id);
			esc_json(out, j->v[i].run->name);
			strbuf_adds(out, ",\"job\":");
			esc_json(out, j->v[i].job);
			for (int m = 0; m < RM_NR; m++)
				if (job_metric(m))
					json_num(out, rep_metrics[m].key, j->v[i].m[m]);
			strbuf_addc(out, '}');
		}
		strbuf_addc(out, ']');
	}
}

/* ---- all formats -------------------------------------------------------------------------------------- */

static void method_text(struct strbuf *out, const struct method_view *mv, enum rep_format f, const struct job_rows *j)
{
	if (mv->left.precondition || mv->left.rounds) {
		struct strbuf sb;

		strbuf_init(&sb);
		left_note(&sb, &mv->left);
		strbuf_addc(out, '\n');
		para(out, f, sb.buf);
		strbuf_release(&sb);
	}
	if ((mv->curves.n || ss_runs(mv->set) || j) && f != FMT_HTML)
		strbuf_addc(out, '\n');
	if (mv->curves.n)
		curves_text(out, mv, f);
	if (ss_runs(mv->set))
		steady_text(out, mv->set, f);
	if (j)
		jobs_text(out, j, f);
}

int method_render(struct strbuf *out, const struct method_view *mv, enum rep_format f, int jobs,
		  struct errbuf *err)
{
	struct job_rows j;

	memset(&j, 0, sizeof(j));
	if (jobs && job_rows_load(&j, mv, err) < 0) {
		job_rows_release(&j);
		return -1;
	}
	switch (f) {
	case FMT_CSV:
		method_csv(out, mv, jobs ? &j : NULL);
		break;
	case FMT_JSON:
		if (out->len >= 2 && out->buf[out->len - 1] == '\n' && out->buf[out->len - 2] == '}') {
			out->len -= 2;
			out->buf[out->len] = '\0';
			method_json(out, mv, jobs ? &j : NULL);
			strbuf_adds(out, "}\n");
		}
		break;
	default:
		method_text(out, mv, f, jobs ? &j : NULL);
	}
	job_rows_release(&j);
	return 0;
}
