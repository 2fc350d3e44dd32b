/*
 * gate_seq: the sequential gate (`bench gate --run SUITE`, docs/gate.md "Repetitions until the answer is
 * known"). Baseline and candidate run in interleaved pairs; after each pair the ordinary gate (gate.h) judges
 * the pairs so far, paired, with the t interval, at a confidence level that this module chooses so that the
 * error rates over all looks stay at most those of one fixed-size gate.
 *
 * The levels come from an alpha-spending function (Lan and DeMets 1983) of the O'Brien-Fleming type:
 * with alpha = 1 - confidence and information fraction t = k / K (k pairs judged of a budget of K),
 *
 *     spent(t) = 2 - 2 * Phi(z(1 - alpha / 2) / sqrt(t)),        spent(1) = alpha,
 *
 * and look k (from GATE_SEQ_FIRST_LOOK pairs on; what would have been spent before it is spent there) uses the
 * increment alpha_k = spent(k / K) - spent((k - 1) / K) as the two-sided level of its interval (confidence
 * 1 - alpha_k). By the union bound over the looks, the chance that any look flags a REGRESSION that is not there
 * is at most sum(alpha_k / 2) = alpha / 2, the one-sided error of one fixed gate (and likewise a false
 * IMPROVEMENT, and a false EQUIVALENT for a change beyond the threshold). The exact recursive boundaries
 * (Armitage, McPherson and Rowe) would spend the same alpha with slightly narrower intervals, since the looks are
 * correlated; the union bound needs no numerical integration and stays valid for the t interval, whose
 * degrees of freedom change from look to look. O'Brien-Fleming-type spending keeps the early looks strict (few
 * pairs decide only a clear change) and the last look close to the fixed gate's level.
 *
 * The gate stops at the first look where every judged cell is decided (REGRESSION, IMPROVEMENT or EQUIVALENT),
 * or when the budget is spent: then INCONCLUSIVE, with the pairs the measured noise would need.
 * Pure code: bench/cmd_gate.c runs the pairs and prints.
 */
#ifndef BENCH_REPORT_GATE_SEQ_H
#define BENCH_REPORT_GATE_SEQ_H

#include "report/gate/gate.h"

/* The first look: the paired t interval needs 3 pairs (2 degrees of freedom). */
#define GATE_SEQ_FIRST_LOOK GATE_T_MIN_RUNS
/* Pairs a gate --run may spend when --budget does not say (the option table's "default 12 pairs"). */
#define GATE_SEQ_DEFAULT_BUDGET 12u
/* Most pairs a budget may hold. */
#define GATE_SEQ_MAX_BUDGET 1000u

/* O'Brien-Fleming-type spending: the share of alpha (two-sided) spent by information fraction t (0 < t <= 1). */
double gate_seq_spent(double alpha, double t);
/*
 * The two-sided level of look k (k pairs) of a gate with a budget of `budget` pairs at overall level alpha: the
 * increment of gate_seq_spent, with everything before GATE_SEQ_FIRST_LOOK spent at the first look. 0 before the
 * first look or past the budget; the levels of looks FIRST_LOOK..budget add up to alpha.
 */
double gate_seq_look_alpha(double alpha, unsigned k, unsigned budget);

/* Sets the options of look k: paired, the t interval (unless the caller chose rank), confidence 1 - alpha_k,
 * where alpha = 1 - conf is the overall level asked (--confidence). */
void gate_seq_look_opts(struct gate_opts *look, const struct gate_opts *asked, unsigned k, unsigned budget);

/* Whether every judged cell of an evaluated gate is decided (REGRESSION, IMPROVEMENT or EQUIVALENT), and there
 * is at least one. */
int gate_seq_decided(const struct gate *g);

/* The pairs in all the measured noise needs to settle the undecided judged cells of an evaluated gate of k
 * pairs (the largest runs_needed of them; at least k + 1), or 0 when none is undecided. */
unsigned gate_seq_pairs_needed(const struct gate *g, unsigned k);

#endif
