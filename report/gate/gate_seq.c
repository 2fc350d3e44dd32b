/*
 * gate_seq: the levels of the looks of the sequential gate (O'Brien-Fleming-type alpha spending, union bound
 * over the looks) and whether a look has decided; the method and its error rates are in gate_seq.h and
 * docs/gate.md.
 */
#include "report/gate/gate_seq.h"

#include <math.h>

double gate_seq_spent(double alpha, double t)
{
	if (!(t > 0))
		return 0;
	if (t >= 1)
		return alpha;
	return 2 - 2 * stats_norm_cdf(stats_norm_quantile(1 - alpha / 2) / sqrt(t));
}

double gate_seq_look_alpha(double alpha, unsigned k, unsigned budget)
{
	unsigned first = GATE_SEQ_FIRST_LOOK;

	if (budget < first)
		budget = first; /* one look, at the full level */
	if (k < first || k > budget)
		return 0;
	if (k == first)
		return gate_seq_spent(alpha, (double)k / budget);
	return gate_seq_spent(alpha, (double)k / budget) - gate_seq_spent(alpha, (double)(k - 1) / budget);
}

void gate_seq_look_opts(struct gate_opts *look, const struct gate_opts *asked, unsigned k, unsigned budget)
{
	double a = gate_seq_look_alpha(1 - asked->conf, k, budget);

	*look = *asked;
	look->paired = 1;
	if (look->method == GATE_METHOD_AUTO)
		look->method = GATE_METHOD_T; /* the rank interval cannot reach the strict early levels */
	/* gate_evaluate wants a level below 1: a look whose share rounds to nothing cannot decide anyway */
	look->conf = a > 1e-12 ? 1 - a : 1 - 1e-12;
}

int gate_seq_decided(const struct gate *g)
{
	size_t decided = g->count[GATE_REGRESSION] + g->count[GATE_IMPROVEMENT] + g->count[GATE_EQUIVALENT];

	return decided > 0 && !g->count[GATE_INCONCLUSIVE] && !g->count[GATE_INVALID];
}

unsigned gate_seq_pairs_needed(const struct gate *g, unsigned k)
{
	unsigned need = 0;

	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		if (c->info || c->verdict != GATE_INCONCLUSIVE)
			continue;
		if (need < k + 1)
			need = k + 1;
		if (c->runs_needed > need)
			need = c->runs_needed;
	}
	return need;
}
