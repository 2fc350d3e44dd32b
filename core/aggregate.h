/*
 * aggregate: exact combination of latency results (design.md "The model"). Counts and bytes add, means are
 * weighted by IO count, standard deviations are pooled, and percentiles come from summed histogram bins with
 * fio's rule (walk the bins upwards, report the first bucket value where the running count reaches p% of N).
 * Percentiles are never averaged.
 */
#ifndef BENCH_CORE_AGGREGATE_H
#define BENCH_CORE_AGGREGATE_H

#include "core/model.h"

/* The percentile points fio reports by default (1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
 * 99.95, 99.99). */
extern const double agg_default_pcts[17];

/* Percentile `pct` (0..100] of sorted bins by fio's rule; 0 when there are no counts. */
uint64_t hist_percentile(const struct hist_bin *bins, size_t nbins, double pct);

/* Adds bins b (sorted) into *a (sorted), keeping it sorted; *cap is its capacity. */
void hist_merge(struct hist_bin **a, size_t *na, size_t *cap, const struct hist_bin *b, size_t nb);

/* Sorts bins by value and merges equal values. */
void hist_normalise(struct hist_bin *bins, size_t *nbins);

/* Combines latency summaries: N-weighted mean, pooled stddev (population form over all samples). */
void lat_combine(struct lat_summary *acc, const struct lat_summary *x);

/*
 * Sums dirs[0..n) into *out (out initialised, empty): IOs, bytes add; runtime = max; iops and bw add;
 * latencies combined; bins summed; percentiles recomputed from the bins at the points the inputs report
 * (or the default points) when every input has bins, else left empty.
 */
void dir_combine(struct dir_result *out, const struct dir_result *const *dirs, size_t n);

/* Fills dir[DDIR_TOTAL] of a host result from its read, write and trim. */
void host_result_total(struct host_result *h);

/*
 * Adds (or replaces) the aggregates of a run result from its per-host entries, each direction combined by
 * dir_combine (counts add, means weighted, percentiles from summed bins; jobs and hosts alike):
 * - a host with per-job entries (host_result.job set: a run of several jobs) gets its entry over all jobs
 *   (job NULL) from them; fio CPU: the jobs' average; a job's errmsg makes the host's;
 * - HOST_AGGREGATE over all jobs (job NULL) from the hosts' entries over all jobs;
 * - HOST_AGGREGATE per job from the hosts' entries of that job.
 * fio CPU of an aggregate: average of its parts; job_start_ms: the earliest. Only entries without errmsg count.
 * The entry over all hosts and all jobs is appended last (callers that take the last HOST_AGGREGATE entry get it).
 */
void run_result_aggregate(struct run_result *r);

#endif
