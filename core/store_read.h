/*
 * store_read: the one reader of the store (design.md "One reader"). Typed read functions beside the writer
 * (store.h): suites, runs with their labels, results, percentiles with the histogram fallback, CPU with one
 * preference rule, disks, samples, artifacts, hosts and the stored run spec. Every statement is prepared once
 * per store (the store's statement cache) with bound parameters; nothing here writes. report/, bench/ and
 * the rest never see SQL.
 *
 * Two rules live here and only here:
 *
 *   Labels. A run's labels are its own plus those of its suite for keys the run does not have: a run's label
 *   overrides its suite's (store_run.labels).
 *
 *   CPU. The CPU figure of a run for a role (store_cpu_pick) is taken from one row of table cpu: the cluster
 *   row (host '*') of that role, else, when the role has exactly one host, that host's rows; among those the
 *   first source in this order that has a utilisation (util_pct, else user_pct + system_pct):
 *       procstat, node_exporter (measured whole-host sources), import, fio, any other (by name).
 *   Both figures (utilisation and CPU-microseconds per IO) come from that one row; a figure the row lacks is
 *   unknown, never taken from another source. A run with no usable initiator row falls back to fio's own
 *   usr + sys of its jobs (run_host '*', else the only run_host), source "fio", from_fio_job set.
 *
 * Percentiles: store_read_percentile() gives the stored percentile within STORE_PCT_TOLERANCE of the one
 * asked for, else the percentile computed from the stored bins with fio's rule (core/aggregate.h).
 */
#ifndef BENCH_CORE_STORE_READ_H
#define BENCH_CORE_STORE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/model.h"
#include "core/store.h"

/*
 * A stored percentile matches the one asked for when |stored - asked| <= this (percent points): fio prints
 * percentiles with six decimals (99.000000, 99.990000), so 1e-4 accepts its rounding and never confuses two
 * of its points (the closest are 99.95 and 99.99).
 */
#define STORE_PCT_TOLERANCE 1e-4

/* ---- suites and runs ---------------------------------------------------------------------------- */

struct store_suite {
	int64_t id;
	char *name, *source, *args, *created_at, *bench_version; /* args, bench_version may be NULL */
	unsigned planned_runs;
	struct kvlist labels;     /* sorted by key */
};

/* All suites, oldest first (created_at, id). *v is malloc'd; free with store_suites_free. */
int store_read_suites(struct store *st, struct store_suite **v, size_t *n, struct errbuf *err);
/* One suite with its labels: 0 and *out filled (release with store_suite_release), 1 when there is no such
 * suite (*out untouched), -1 on error. */
int store_read_suite(struct store *st, int64_t suite_id, struct store_suite *out, struct errbuf *err);
void store_suite_release(struct store_suite *s); /* NULL ok */
void store_suites_free(struct store_suite *v, size_t n);

/* One run row (table run) with its suite's name and its labels. Text fields may be NULL unless said. */
struct store_run {
	int64_t id, suite_id;
	char *suite, *suite_created; /* suite name and created_at */
	unsigned seq, repetition; /* repetition 1 when not stored */
	char *name, *engine, *status; /* never NULL ("" when not stored) */
	char *error, *started_at, *finished_at;
	char *tool, *rw, *bssplit, *size;
	uint64_t bs_bytes;        /* 0 unknown */
	int read_pct, random_pct; /* -1 unknown */
	int iodepth, numjobs;     /* 0 unknown */
	long runtime_s, ramp_s;   /* 0 unknown */
	char *spec;               /* the whole run spec as JSON (core/spec_json.h), or NULL */
	struct kvlist labels;     /* the run's labels plus its suite's for keys it lacks, sorted by key */
};

struct store_run_list {
	struct store_run *v;
	size_t n, cap;
};

void store_run_list_init(struct store_run_list *l);
void store_run_list_release(struct store_run_list *l);
void store_run_release(struct store_run *r); /* NULL ok */

/* Every run, in store order (suite, seq, repetition, id), appended to *out. */
int store_read_runs(struct store *st, struct store_run_list *out, struct errbuf *err);

/*
 * Every run, in store order, handed to fn one at a time with its labels (two statements for all runs, none
 * per run): fn may take fields over (setting them NULL, or moving labels out and re-initialising them); what
 * is left is released after it returns. fn returning < 0 stops the reading (its error in err). want (may be
 * NULL: every run) is asked first with the run's labels (the label rule applied); a run it does not want is
 * passed over without reading the rest of its row.
 */
typedef int (*store_run_fn)(void *ctx, struct store_run *r, struct errbuf *err);
typedef int (*store_run_want_fn)(void *ctx, const struct kvlist *labels);
int store_read_runs_each(struct store *st, store_run_want_fn want, store_run_fn fn, void *ctx, struct errbuf *err);

/* One run: 0 and *out filled, 1 when there is no such run (*out untouched), -1 on error. */
int store_read_run(struct store *st, int64_t run_id, struct store_run *out, struct errbuf *err);

/* The stored run spec JSON of a run into *json (malloc'd, NULL when none): 0, 1 no such run, -1 error. */
int store_read_spec(struct store *st, int64_t run_id, char **json, struct errbuf *err);

/* ---- hosts, results, percentiles ------------------------------------------------------------------ */

/* One row of run_host. */
struct store_host {
	char *host;               /* HOST_AGGREGATE for the run */
	char *fio_version, *error; /* or NULL */
	double start_offset_ms;   /* NAN unknown */
	int error_code;           /* 0: no fio error */
	double usr_cpu_pct, sys_cpu_pct; /* fio's own job CPU, % of job runtime; NAN unknown */
	char *hostname;           /* the server's own host name (run_host.hostname, from its probe reply), or NULL */
};

/* The run's hosts, by name, the aggregate '*' last. */
int store_read_hosts(struct store *st, int64_t run_id, struct store_host **v, size_t *n, struct errbuf *err);
void store_hosts_free(struct store_host *v, size_t n);

/* One row of table result (a run, a host, a direction). */
struct store_result {
	int64_t id;               /* for store_read_percentile / store_read_bins */
	char *host;               /* HOST_AGGREGATE = all hosts */
	enum ddir ddir;
	uint64_t ios, bytes;
	int64_t runtime_ms;
	double iops, bw_bytes;    /* IOs per second, bytes per second */
	double lat_mean_ns, clat_mean_ns; /* mean total and completion latency, ns; NAN unknown */
	double lat_min_ns, lat_max_ns, lat_stddev_ns; /* total latency, ns; NAN unknown */
	double clat_min_ns, clat_max_ns;  /* completion latency, ns; NAN unknown */
	char *pct_kind;           /* "clat" or "lat": what the percentiles and bins describe; NULL unknown */
	char *job;                /* JOB_AGGREGATE = all jobs; else the job's name (store_read_job_results) */
	double job_start_ms;      /* when the job's measured time began, ms since the epoch; NAN unknown */
};

/*
 * The headline result rows of a run: of one host (`host`, e.g. HOST_AGGREGATE) or of every host (NULL);
 * host '*' first, then by host, directions read, write, trim, total. This is the one statement every
 * figure of report/, the gate and export reads results through.
 */
int store_read_results(struct store *st, int64_t run_id, const char *host, struct store_result **v, size_t *n,
		       struct errbuf *err);
void store_results_free(struct store_result *v, size_t n);

/*
 * The rows of each job of a run of several jobs fio ran together (none for a run of one job): of one host
 * (`host`, HOST_AGGREGATE for a job over all hosts) or of every host (NULL); by job name, then as
 * store_read_results. Percentiles and bins by id as for headline rows.
 */
int store_read_job_results(struct store *st, int64_t run_id, const char *host, struct store_result **v, size_t *n,
			   struct errbuf *err);

/* The mean latency a headline shows, ns: total latency when known and > 0, else completion latency (NAN). */
double store_result_mean_lat_ns(const struct store_result *r);

/*
 * Percentile `pct` (0..100] of a result, ns: the stored one within STORE_PCT_TOLERANCE, else computed from
 * the stored bins (hist_percentile); NAN when the result has neither.
 */
int store_read_percentile(struct store *st, int64_t result_id, double pct, double *value_ns, struct errbuf *err);

/* The histogram bins of a result, ascending (*v malloc'd, NULL and 0 when none). */
int store_read_bins(struct store *st, int64_t result_id, struct hist_bin **v, size_t *n, struct errbuf *err);

/* Every stored percentile of a result, ascending by pct (*v malloc'd, NULL and 0 when none). */
int store_read_percentiles(struct store *st, int64_t result_id, struct percentile **v, size_t *n,
			   struct errbuf *err);

/* ---- CPU, disks, samples, artifacts -------------------------------------------------------------- */

/* The shares of a cpu row, in table order. */
enum store_cpu_share { CPU_USER, CPU_NICE, CPU_SYSTEM, CPU_IOWAIT, CPU_IRQ, CPU_SOFTIRQ, CPU_STEAL, CPU_IDLE,
		       CPU_SHARE_NR };

/* One row of table cpu. */
struct store_cpu {
	char *host;               /* "*" = the cluster figure of the role */
	char *role;               /* "initiator" or "target" */
	char *source;             /* procstat, node_exporter, import, fio, ... */
	int cores;                /* 0 unknown */
	double share_pct[CPU_SHARE_NR]; /* user nice system iowait irq softirq steal idle, %; NAN unknown */
	double util_pct;          /* busy share of all cores, %; NAN unknown */
	double cpu_us_per_io;     /* busy CPU microseconds per front-end IO; NAN unknown */
};

/* The run's cpu rows: initiator first, host '*' first, then host, then sources in preference order. */
int store_read_cpu(struct store *st, int64_t run_id, struct store_cpu **v, size_t *n, struct errbuf *err);
void store_cpu_free(struct store_cpu *v, size_t n);

/* The CPU figure of a run for a role (the rule in the comment at the top). */
struct store_cpu_pick {
	const char *source;       /* static copy of the source name ("procstat", ..., "fio"), NULL: no figure */
	const char *host;         /* the row's host (points into the rows or hosts given), NULL: no figure */
	int from_fio_job;         /* the fallback: fio's own usr + sys of run_host, not a cpu row */
	double util_pct;          /* %, NAN unknown */
	double cpu_us_per_io;     /* NAN unknown (always with from_fio_job) */
};

/* Applies the rule to rows read by store_read_cpu (and, for role "initiator", the run's hosts; may be NULL). */
void store_cpu_pick(const struct store_cpu *cpu, size_t ncpu, const struct store_host *hosts, size_t nhosts,
		    const char *role, struct store_cpu_pick *out);

/* Preference rank of a cpu source (0 best), as store_cpu_pick and store_read_cpu order them. */
int store_cpu_source_rank(const char *source);

/* ---- scans: many runs without a statement per run ------------------------------------------------------ */

/*
 * A scan hands out the rows of run after run from one statement over a whole table (what the report and the
 * gate read for thousands of runs): the rows of a run are those store_read_results / store_read_hosts /
 * store_read_cpu give, in the same order, and are freed the same way. Runs must be asked for in ascending
 * id order, none below `from` (a run without rows gets none; runs skipped are passed over). Results come
 * with percentile `pct` of each direction row as store_read_percentile gives it (pct_ns, malloc'd, NAN none;
 * NAN for the total rows, which no reader asks for). Reads only; the store must stay open (and, for a
 * consistent view, inside store_snapshot_begin) until store_scan_close.
 */
struct store_scan;

int store_scan_results(struct store *st, double pct, int64_t from, struct store_scan **out, struct errbuf *err);
int store_scan_hosts(struct store *st, int64_t from, struct store_scan **out, struct errbuf *err);
int store_scan_cpu(struct store *st, int64_t from, struct store_scan **out, struct errbuf *err);
/*
 * The headline result rows of every host of run_id (store_read_results with host NULL) and their percentile,
 * with the fields headline figures use: id, host, ddir, ios, runtime_ms, iops, bw_bytes, lat_mean_ns,
 * clat_mean_ns, job. The others are unknown (NAN; bytes 0, pct_kind NULL): read them with store_read_results.
 */
int store_scan_next_results(struct store_scan *sc, int64_t run_id, struct store_result **v, double **pct_ns,
			    size_t *n, struct errbuf *err);
int store_scan_next_hosts(struct store_scan *sc, int64_t run_id, struct store_host **v, size_t *n,
			  struct errbuf *err);
int store_scan_next_cpu(struct store_scan *sc, int64_t run_id, struct store_cpu **v, size_t *n, struct errbuf *err);
void store_scan_close(struct store_scan *sc); /* NULL ok */

/* One row of table disk. */
struct store_disk {
	char *host, *device;
	uint64_t reads, writes, read_sectors, write_sectors, io_ticks_ms;
};

/* The run's disk rows by host and device. */
int store_read_disks(struct store *st, int64_t run_id, struct store_disk **v, size_t *n, struct errbuf *err);
void store_disks_free(struct store_disk *v, size_t n);

/* One sample of a time series. */
struct store_sample {
	char *host, *metric;      /* metric: "iops.read", "lat_ns.write", "cpu.util_pct", ... */
	int64_t t_ms;             /* ms since the end of ramp, the END of the window the sample averages */
	double value;             /* histogram rows: IO count of the bucket */
	char job[48];             /* fio job, "*" = all jobs of the host (collectors) */
	char source[24];          /* "fio-log", "fio-histlog", "procstat", ... */
	uint32_t window_ms;       /* averaged window, 0 = instant or unknown */
	int is_bin;               /* a histogram bucket [bucket_lo_ns, bucket_hi_ns) of the interval */
	int64_t bucket_lo_ns, bucket_hi_ns;
};

/* The run's samples, by metric, host ('*' last) and time. */
int store_read_samples(struct store *st, int64_t run_id, struct store_sample **v, size_t *n, struct errbuf *err);
void store_samples_free(struct store_sample *v, size_t n);

/* One raw artifact of a run (job file text, engine output). */
struct store_artifact {
	char *name;
	unsigned char *content;   /* malloc'd, NUL-terminated for convenience (len excludes it) */
	size_t len;
};

/* The run's artifacts by name. */
int store_read_artifacts(struct store *st, int64_t run_id, struct store_artifact **v, size_t *n,
			 struct errbuf *err);
void store_artifacts_free(struct store_artifact *v, size_t n);

/* The artifact `name` (not NULL) of a run: 0 and *out filled, 1 when the run has none of that name, -1 error. */
int store_read_artifact(struct store *st, int64_t run_id, const char *name, struct store_artifact *out,
			struct errbuf *err);
void store_artifact_release(struct store_artifact *a); /* NULL ok */

/* The artifact `name` of every run that has one, as text, by run id (bench import's content digests,
 * "import.sha256"). One pass over the artifact table. */
struct store_named_artifact {
	int64_t run_id;
	char *content;            /* malloc'd text */
};
int store_read_artifact_runs(struct store *st, const char *name, struct store_named_artifact **v, size_t *n,
			     struct errbuf *err);
void store_named_artifacts_free(struct store_named_artifact *v, size_t n);

#endif
