/*
 * gate_calibrate: the A/A calibration and planning table of the gate (--calibrate, --plan): the run-to-run
 * noise of every cell and how many runs per side the threshold needs with the gate's method.
 */
#include "report/gate/gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/text/escape.h"
#include "report/gate/gate_fmt.h"

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

/* Runs per side for an interval of half-width margin with ~90% probability, with the gate's method. */
static unsigned plan_runs(const struct gate_opts *o, double sd, double margin)
{
	unsigned n = stats_runs_needed_t(sd, margin, o->conf, 0.9, o->paired, 1000);

	if (o->method == GATE_METHOD_RANK || (o->method == GATE_METHOD_AUTO && n >= GATE_RANK_FROM))
		n = stats_runs_needed(sd, margin, o->conf, 0.9, o->paired, 1000);
	return n > GATE_T_MIN_RUNS || o->method == GATE_METHOD_RANK ? n : GATE_T_MIN_RUNS;
}

/* The smallest threshold `have` runs per side resolve: the half-width of the interval plus a 90% allowance. */
static double threshold_now(const struct gate_opts *o, double sd, size_t have)
{
	double k = o->paired ? 1.0 : 2.0, df = o->paired ? (double)have - 1 : 2.0 * (double)have - 2, q;

	if (o->method == GATE_METHOD_RANK || (o->method == GATE_METHOD_AUTO && have >= GATE_RANK_FROM)) {
		q = stats_norm_quantile(1 - (1 - o->conf) / 2) + stats_norm_quantile(0.9);
		return expm1(q * sd * sqrt(M_PI / 3) * sqrt(k / (double)have));
	}
	if (df < 1)
		return INFINITY;
	q = stats_t_quantile(1 - (1 - o->conf) / 2, df) + stats_t_quantile(0.9, df);
	return expm1(q * sd * sqrt(k / (double)have));
}

void gate_render_calibration(const struct gate *g, struct strbuf *out)
{
	static const char *const head[9] = { "WORKLOAD", "METRIC", "CV BASE", "CV CAND", "CV", "A/A DIFF", "RUNS NOW",
					     "RUNS NEEDED", "THRESHOLD NOW" };
	const struct gate_opts *o = &g->opts;
	double tl = log1p(o->threshold);
	const struct gate_cell **order = xcalloc(g->ncells + 1, sizeof(*order));
	struct gate_trow *rows = xcalloc(g->ncells + 1, sizeof(*rows));
	unsigned worst = 0;
	double worst_sd = 0;
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t i = 0; i < g->ncells; i++)
		order[i] = &g->cells[i];
	qsort(order, g->ncells, sizeof(*order), cmp_noise);
	if (g->base && g->cand && !strcmp(g->base->selection, g->cand->selection)) {
		strbuf_addf(out, "plan: the run-to-run noise of '");
		esc_text(out, g->base->selection);
		strbuf_addf(out, "' alone (%s intervals)\n", g->opts.paired ? "paired" : "unpaired");
	} else {
		strbuf_addf(out, "calibration (A/A): baseline '");
		esc_text(out, g->base ? g->base->selection : "");
		strbuf_addf(out, "' against candidate '");
		esc_text(out, g->cand ? g->cand->selection : "");
		strbuf_addf(out, "', same configuration on both sides\n");
	}
	strbuf_addf(out, "CV = run-to-run noise (standard deviation of log values); RUNS NEEDED = runs per side for "
			 "an unchanged build to come out\nEQUIVALENT within +-%g%% with ~90%% probability at %g%% "
			 "intervals (and a change of twice the threshold to come out REGRESSION\nwith about the same "
			 "probability); THRESHOLD NOW = the smallest threshold the current runs resolve.\n\n",
		    o->threshold * 100, o->conf * 100);
	for (int k = 0; k < 9; k++)
		rows[0].col[k] = xstrdup(head[k]);
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = order[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);
		size_t have = c->nbase < c->ncand ? c->nbase : c->ncand;
		struct gate_trow *r = &rows[i + 1];
		char diff[32];

		gate_text_cell(&sb, c->workload);
		r->col[0] = xstrdup(sb.buf);
		r->col[1] = gate_metric_label(mi);
		r->col[6] = xasprintf("%zu/%zu", c->nbase, c->ncand);
		if (c->verdict == GATE_INVALID || isnan(c->sd_log)) {
			r->col[2] = xstrdup("-");
			r->col[3] = xstrdup("-");
			r->col[4] = xstrdup("-");
			r->col[5] = xstrdup("-");
			r->col[7] = xstrdup("-");
			gate_text_cell(&sb, c->note ? c->note : "INVALID");
			r->col[8] = xstrdup(sb.buf);
			continue;
		}
		{
			unsigned need = plan_runs(o, c->sd_log, tl);
			double tmin = threshold_now(o, c->sd_log, have);
			if (need > worst || (need == worst && c->sd_log > worst_sd)) {
				worst = need;
				worst_sd = c->sd_log;
			}
			gate_fmt_pct(diff, sizeof(diff), c->ratio);
			r->col[2] = xasprintf("%.2f%%", expm1(c->sd_log_base) * 100);
			r->col[3] = xasprintf("%.2f%%", expm1(c->sd_log_cand) * 100);
			r->col[4] = xasprintf("%.2f%%", expm1(c->sd_log) * 100);
			r->col[5] = xstrdup(diff);
			r->col[7] = need >= 1000 ? xstrdup(">1000") : xasprintf("%u", need);
			r->col[8] = xasprintf("+-%.1f%%", tmin * 100);
		}
	}
	gate_emit_table(out, rows, g->ncells + 1, 9, 0x1fcu);
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
		gate_text_cell(&sb, g->notes[i]);
		strbuf_addf(out, "note: %s\n", sb.buf);
	}
	strbuf_release(&sb);
}

