/*
 * store_admin: the SQL behind `bench db` (docs/db.md) and the reads that `bench db show` and `bench export`
 * need beyond report_load(): deleting and relabelling runs, merging another bench database into this one,
 * integrity checks, VACUUM, and the views `db show` and `export` print of a run's suite and spec, full results
 * with percentiles, samples and artifacts. Those views are built from the one reader (store_read.h): no table
 * is read here. Writers run in one BEGIN IMMEDIATE transaction each and, with `dry_run`, count what they
 * would change and roll back. Nothing here prints.
 *
 * A suite is "the same suite" in two databases when name, source, args (NULL = '') and created_at (ISO 8601
 * with milliseconds, set when the suite was created) are equal; a run of it is the same run when seq,
 * repetition, name and started_at are equal. merge copies suites and runs not present yet, with new ids,
 * so merging the same file twice adds nothing the second time.
 */
#ifndef BENCH_CORE_STORE_ADMIN_H
#define BENCH_CORE_STORE_ADMIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/store.h"
#include "core/strbuf.h"

/* What a delete removes (rows, cascades included). */
struct admin_counts {
	size_t suites;    /* suites left without runs, removed with them */
	size_t runs;
	size_t results;   /* result rows (their percentiles and bins go with them) */
	size_t samples;
	size_t artifacts;
};

/* Deletes runs by id, and the suites left without a run. ERR_INPUT when an id does not exist. */
int store_admin_rm(struct store *st, const int64_t *run_ids, size_t n, int dry_run, struct admin_counts *out,
		   struct errbuf *err);

/*
 * Sets (value non-NULL) or removes (value NULL) run labels of the given runs; `*changed` counts label rows
 * inserted, updated or deleted. A suite label of a removed key still applies to the run (report/load.h).
 */
int store_admin_relabel(struct store *st, const int64_t *run_ids, size_t n, const struct kvlist *changes,
			int dry_run, size_t *changed, struct errbuf *err);

struct admin_merge {
	size_t suites_new;   /* suites copied */
	size_t suites_same;  /* suites already present (their missing runs are still copied) */
	size_t runs_new;     /* runs copied */
	size_t runs_same;    /* runs already present, skipped */
};

/*
 * Copies the suites and runs of the bench database at `other_path` (ATTACHed read-only, same schema
 * version required) that this database lacks, remapping ids, in one transaction.
 * ERR_INPUT: the file is not a bench database of this schema version.
 */
int store_admin_merge(struct store *st, const char *other_path, int dry_run, struct admin_merge *out,
		      struct errbuf *err);

/*
 * Integrity: PRAGMA integrity_check, PRAGMA foreign_key_check (rows whose run, suite or result is gone),
 * suites without runs and runs left 'running'. Each finding is added to `problems` as kind=message, kind one
 * of integrity, foreign_key, empty_suite, unfinished_run. The first two are damage; the last two are notes.
 */
int store_admin_check(struct store *st, struct kvlist *problems, struct errbuf *err);

/* VACUUM (after a WAL checkpoint); sizes of the main file before and after, bytes. */
int store_admin_vacuum(struct store *st, int64_t *before_bytes, int64_t *after_bytes, struct errbuf *err);

/* ---- reads -------------------------------------------------------------------------------------- */

/* A run's row as `bench db show` prints it, beyond report_load's rep_run. */
struct admin_run_detail {
	int64_t id, suite_id;
	unsigned seq;
	char *name;             /* the run's name */
	char *suite_name;
	char *suite_source;     /* run or import */
	char *suite_args;       /* or NULL */
	char *suite_bench_version; /* or NULL */
	char *spec;             /* the stored run spec (JSON text), or NULL */
};
void admin_run_detail_release(struct admin_run_detail *d);
/* ERR_INPUT when there is no such run. */
int store_admin_run_detail(struct store *st, int64_t run_id, struct admin_run_detail *out, struct errbuf *err);

struct admin_pct {
	double pct;
	int64_t value_ns;
};

/* One row of table result with its percentiles. Unknown values are NAN (latencies) or -1 (counts). */
struct admin_result {
	char *host, *ddir, *pct_kind;
	int64_t ios, bytes, runtime_ms;
	double iops, bw_bytes;
	double lat_mean_ns, lat_min_ns, lat_max_ns, lat_stddev_ns;
	double clat_mean_ns, clat_min_ns, clat_max_ns;
	struct admin_pct *pcts;
	size_t npcts;
	size_t nbins;           /* histogram bins stored */
};
struct admin_result_list {
	struct admin_result *v;
	size_t n, cap;
};
void admin_result_list_release(struct admin_result_list *l);
/* Results over all jobs: every host by name, host '*' last; ddir read write trim total within a host. */
int store_admin_results(struct store *st, int64_t run_id, struct admin_result_list *out, struct errbuf *err);

/* One row of table sample. */
struct admin_sample {
	char *host, *metric;
	int64_t t_ms;           /* ms since the run's start (or epoch ms when fio logged epoch times) */
	double value;
};
struct admin_sample_list {
	struct admin_sample *v;
	size_t n, cap;
};
void admin_sample_list_init(struct admin_sample_list *l);
void admin_sample_list_release(struct admin_sample_list *l);
/* All samples of a run except histogram buckets (store_sample.is_bin), by host, metric and time. */
int store_admin_samples(struct store *st, int64_t run_id, struct admin_sample_list *out, struct errbuf *err);

/* Per host and metric (histogram bucket rows included, by their metric): how many samples, their time span
 * and value range. */
struct admin_sample_summary {
	char *host, *metric;
	size_t n;
	int64_t t_first_ms, t_last_ms;
	double min, max, mean;
};
struct admin_sample_summary_list {
	struct admin_sample_summary *v;
	size_t n, cap;
};
void admin_sample_summary_list_release(struct admin_sample_summary_list *l);
int store_admin_sample_summary(struct store *st, int64_t run_id, struct admin_sample_summary_list *out,
			       struct errbuf *err);

/* Artifact names and sizes of a run: kv list of name=size-in-bytes (decimal text), by name. */
int store_admin_artifacts(struct store *st, int64_t run_id, struct kvlist *out, struct errbuf *err);
/* The content of one artifact, byte for byte. ERR_INPUT when the run has no artifact of that name. */
int store_admin_artifact(struct store *st, int64_t run_id, const char *name, struct strbuf *out, struct errbuf *err);

#endif
