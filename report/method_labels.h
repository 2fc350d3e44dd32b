/*
 * method_labels: the labels of the measurement method, the one list (method_labels.c).
 */
#ifndef BENCH_REPORT_METHOD_LABELS_H
#define BENCH_REPORT_METHOD_LABELS_H

/*
 * Labels of the measurement method (docs/method.md) that say where a run stands in a curve, sweep, steady-state
 * sequence or precondition, or what came of it (curve_pct, vdbench.curve_pct, curve.*, sweep.*, ss_round,
 * steady_state, ss.*, precondition, precondition.*, fio.ss*): not a configuration, so never a group key of the
 * tables (the rows still differ by workload identity). "phase" stays a group key (users label phases).
 */
int rep_label_is_method(const char *key);

/*
 * Whether a label names where a run stands in a curve or sweep (curve_pct, vdbench.curve_pct,
 * curve.target_iops, sweep.*): a subset of rep_label_is_method, from the same one list (method_labels.c);
 * the run loop does not copy them onto precondition entries.
 */
int rep_label_is_curve_point(const char *key);

#endif
