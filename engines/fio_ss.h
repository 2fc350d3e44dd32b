/*
 * fio_ss: fio's own steady-state detection (job options ss=, ss_dur=, ss_ramp=) as fio reports it in the
 * `steadystate` object of a job in its JSON output (docs/fio-facts.md "The steady-state object"): which
 * criterion, whether it was attained (fio then stops the job early, by design), the value reached, the window
 * and how long the job ran. A job stopped early by an attained ss= is complete and valid, not short. fio's
 * rule is not the SNIA PTS rule (report/analysis/steady.h): one variable, a deviation or slope limit over one window of
 * per-second samples.
 */
#ifndef BENCH_ENGINES_FIO_SS_H
#define BENCH_ENGINES_FIO_SS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "core/errbuf.h"
#include "core/kv.h"

struct fio_ss {
	int present;            /* the job has a steadystate object (ss= was given) */
	char metric[16];        /* "iops", "iops_slope", "bw", "bw_slope" */
	double limit;           /* the limit of ss=, in % when limit_pct, else IOPS or bytes/s (per second) */
	int limit_pct;
	int attained;           /* 1: the criterion was met and fio stopped the job there */
	double criterion;       /* the value reached, same unit as the limit (% or absolute) */
	double window_s;        /* ss_dur: the window the criterion is computed over, seconds */
	double ramp_s;          /* ss_ramp, seconds, from the options; NAN when not found */
	double max_deviation;   /* fio's max_deviation (iops/bw criteria) */
	double slope;           /* fio's slope (slope criteria) */
	double iops_mean;       /* mean IOPS of the last window; NAN when fio printed no data */
	double bw_mean_bytes;   /* mean bandwidth of the last window, bytes/s; NAN when no data */
	double ran_s;           /* how long the job ran: the longest read/write/trim runtime, seconds */
};

/*
 * Reads the steadystate object of one job object of fio's JSON (jobs[] or client_stats[] entry) into out.
 * `global_options` (the document's "global options", may be NULL) supplies ss_ramp when the job's own options
 * lack it (bench writes the workload into [global]). A job without the object gives present = 0 and returns 0;
 * a malformed object fails with ERR_INPUT.
 */
int fio_ss_read(const cJSON *job, const cJSON *global_options, struct fio_ss *out, struct errbuf *err);

/* Parses fio's output text (the last JSON document that starts a line) and reads job `index`'s steadystate. */
int fio_ss_parse(const char *text, size_t len, size_t index, struct fio_ss *out, struct errbuf *err);

/*
 * Whether a job that ran ran_s of a planned runtime is complete: an attained ss= ended it on purpose, so it is
 * never short; otherwise it is complete when it ran at least `min_share` (0..1) of the planned seconds.
 */
int fio_ss_complete(const struct fio_ss *ss, double ran_s, double planned_s, double min_share);

/*
 * Folds one job's result into acc (zeroed, or filled by earlier calls): the first job with ss= gives the
 * criterion and window; the run attained only when every such job did; it ran as long as its longest job.
 */
void fio_ss_combine(struct fio_ss *acc, const struct fio_ss *one);

/*
 * The run labels of a result (docs/fio-facts.md "Steady-state labels"); nothing when ss= was not given:
 *   fio.ss=attained|not-attained   fio.ss.criterion=iops:0.5% (metric:limit, % or per second)
 *   fio.ss.after_s=4.9             how long the job ran: until fio stopped it (attained), else its full time
 *   fio.ss.window_s=3              ss_dur
 *   fio.ss.ramp_s=1                ss_ramp, when fio printed it
 *   fio.ss.value=0.033322%         the criterion's value at the end (fio's "criterion"), when printed
 */
void fio_ss_labels(const struct fio_ss *ss, struct kvlist *labels);

#endif
