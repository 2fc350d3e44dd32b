/*
 * identity: the workload identity, one canonical text of everything that changes the load a workload puts on
 * a target (design.md "One selector, one identity"). Two runs are the same workload exactly when their
 * identities are equal: report --by, --compare and the gate pair and group runs by it, and never fold runs of
 * different identities into one figure.
 */
#ifndef BENCH_CORE_IDENTITY_H
#define BENCH_CORE_IDENTITY_H

#include "core/kv.h"
#include "core/model.h"

/*
 * The identity of w as key=value items (appended to out, sorted by key, values normalised by
 * core/fio_options.h with the workload's kb_base: sizes in bytes, times in microseconds, per-direction values
 * "r,w,t" expanded and shown once when equal, bssplit sorted with its percentages filled in), so that callers
 * can name what differs between two workloads ("rate_iops: baseline -, candidate 15360").
 *
 * Always present: tool, rw (with ":N" when given), bs (bytes; "r,w,t" when the directions differ) or bssplit,
 * read_pct, random_pct (-1 unknown), iodepth, numjobs. When set: size (bytes or "N%"),
 * buffer_compress_percentage, dedupe_percentage, percentage_random (only when it differs per direction).
 * Then every other fio option in w->opts that changes the load, under fio's canonical name, its last
 * occurrence winning, left out when its value is fio's default (direct=0, ioengine=psync, rate_iops=0,
 * thinktime=0, verify=0 ...: an explicit default equals an absent option); buffered=0 counts as direct=1.
 * Unknown options are part of the identity (never fold what might differ).
 * Left out, because they do not change the load (fio_opt_role() == FIO_OPT_NO_LOAD): name, description,
 * filename, directory, filename_format, unique_filename, opendir, output, output-format, runtime,
 * ramp_time, time_based, startdelay (how long, not what), group_reporting, new_group, stonewall, thread,
 * unified_rw_reporting, percentile options, significant_figures, disable_*lat/bw, stats, gtod_reduce,
 * clocksource, unit_base, bwavgtime, iopsavgtime, exitall*, exec_prerun/postrun, write_iolog, per_job_logs,
 * steadystate*, write_{bw,lat,iops,hist}_log*, log_* and bench's own bench.* keys; kb_base is applied to
 * the values instead of being an item.
 */
void workload_identity_kv(const struct workload *w, struct kvlist *out);

/* The identity of w as one text (malloc'd, never NULL): the items of workload_identity_kv joined. Equal
 * workloads give byte-equal texts. */
char *workload_identity(const struct workload *w);

/*
 * The identity of a run spec: its workload's (above) for a run of one job; for a run of several jobs fio runs
 * together (s->njobs >= 2), "jobs=N" and then each job's identity items in the jobs' order, prefixed
 * "job<i>." (1-based: "job1.bs=4096", "job2.rw=write"), so that two such runs are the same workload exactly
 * when they have the same number of jobs and, job by job in order, the same identity. Job names are not part
 * of it (a name does not change the load), their order is.
 */
void run_spec_identity_kv(const struct run_spec *s, struct kvlist *out);
/* The same as one text (malloc'd): the items joined with '|', as workload_identity. */
char *run_spec_identity(const struct run_spec *s);

/*
 * run_spec_identity without the items named in drop (a NULL-terminated list of item keys, e.g. the load
 * level "iodepth", "numjobs", "rate_iops", "rate"); for a run of several jobs each job's item of that key
 * ("job2.iodepth") goes too. What the runs of one curve or sweep share (malloc'd, never NULL).
 */
char *run_spec_identity_except(const struct run_spec *s, const char *const *drop);

#endif
