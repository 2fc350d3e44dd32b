/*
 * load: the read-only view of the store that every table, ratio table and chart is built from.
 *
 * report_load() reads runs (their workload identity, labels, status, hosts and the headline figures of the
 * aggregate host '*') through the store's reader (core/store_read.h) and applies --where selections
 * (select.h: the one selection language; a run's label overrides its suite's). The tables built from them are
 * table.h's, what a label means and how its values are shown labels.h's; renderers (report/format/) turn them
 * into text, CSV, Markdown, JSON or HTML, report/chart/ into gnuplot scripts. Nothing here prints, runs a
 * process or writes to the database.
 */
#ifndef BENCH_REPORT_LOAD_H
#define BENCH_REPORT_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/store.h"
#include "report/figures.h"

/* The headline metrics of a row, in table order. */
enum rep_metric {
	RM_IOPS = 0, /* IOs per second, all directions */
	RM_MBPS,     /* MiB/s (1,048,576 bytes per second), all directions */
	RM_CPU,      /* CPU utilisation, % */
	RM_RLAT,     /* read mean latency, ms */
	RM_WLAT,     /* write mean latency, ms */
	RM_RP99,     /* read 99th percentile latency, ms */
	RM_WP99,     /* write 99th percentile latency, ms */
	RM_NR
};

struct rep_metric_info {
	const char *key;     /* csv/json name: "iops", "mbps", "cpu_pct", "read_lat_ms", ... */
	const char *title;   /* column title: "IOPS", "MiB/s", ... */
	int higher_better;   /* 1: a ratio >= 1 is good (IOPS, MiB/s); 0: <= 1 is good (latency, CPU) */
	int decimals;        /* decimals in text tables */
};
extern const struct rep_metric_info rep_metrics[RM_NR];

/* One host of a run (table run_host, plus its own totals from table result). */
struct rep_host {
	char *host;               /* "*" is the aggregate */
	char *fio_version;        /* or NULL */
	char *hostname;           /* the server's own host name, or NULL (local runs, imports, old files) */
	double start_offset_ms;   /* NAN when unknown */
	int error_code;
	char *error;              /* or NULL */
	double usr_cpu_pct, sys_cpu_pct; /* NAN when unknown */
	double iops, mbps;        /* NAN when the host has no result rows */
};

struct cpuview_run; /* report/cpuview.h */

/* One stored run with its figures. Values unknown or not applicable are NAN. */
struct rep_run {
	int64_t id, suite_id;
	char *suite;              /* suite name */
	char *suite_created;      /* suite created_at */
	char *name;               /* workload (run) name */
	char *status;             /* running done failed partial aborted */
	char *error;              /* or NULL */
	char *engine;
	char *started_at, *finished_at;
	char *tool, *rw;          /* or NULL */
	char *bssplit;            /* or NULL */
	uint64_t bs_bytes;        /* 0 unknown */
	int read_pct, random_pct; /* -1 unknown */
	int iodepth, numjobs;     /* 0 unknown */
	int repetition;
	long runtime_s;           /* asked runtime, s; 0 unknown */
	char *identity;           /* workload identity (core/identity.h) from the stored spec; never NULL */
	struct kvlist labels;     /* run labels plus the suite's it lacks, sorted by key */
	struct figures fig;       /* the run's figures (figures.h, the one figures layer): every figure below,
				   * the gate's and the curves' come from it */
	double m[RM_NR];          /* the table's figures of fig (rep_metrics_from) */
	char *cpu_source;         /* where RM_CPU came from: "procstat", "node_exporter", "import", "fio", or NULL
				   * (fig.cpu_source) */
	int cpu_from_fio_job;     /* RM_CPU is fio's own usr+sys of its jobs (run_host), not a cpu row */
	double cpu_us_per_io;     /* CPU-microseconds per IO of the same row as RM_CPU (fig); NAN unknown */
	double target_cpu_pct;    /* CPU utilisation of the targets, % (fig); NAN unknown */
	int has_target_cpu;       /* the run has cpu rows of role target */
	struct cpuview_run *cpuview; /* CPU and disk figures (cpuview.h), with REP_CPU_DETAIL only; or NULL */
	const struct run_spec *spec; /* the parsed stored spec of a run with the same load (its name, seq,
	                                repetition and times may be another run's), or, for a run stored without
	                                a readable spec, its workload columns; owned by the set, never NULL */
	struct rep_host *hosts;   /* per host, '*' last */
	size_t nhosts;
};

struct spec_memo; /* load.c: the specs parsed for the set, one per distinct load */

struct rep_set {
	struct rep_run *v;
	size_t n, cap;
	struct spec_memo *memo;
};

enum rep_load_flags {
	REP_ALL_STATUS = 1 << 0, /* also running, failed and aborted runs (done and partial always) */
	REP_CPU_DETAIL = 1 << 1, /* also the cpu and disk rows of each run (rep_run.cpuview) */
};

void rep_set_init(struct rep_set *s);
void rep_set_release(struct rep_set *s);

/*
 * Selections (the language and its label rule are report/select.h's; these apply it to a report run).
 * rep_where_add parses one --where key=value (select_add); rep_run_matches says whether the run matches all
 * of `where`; rep_run_value gives a label or workload parameter of a run as text (NULL when it has none).
 */
int rep_where_add(struct kvlist *where, const char *arg, struct errbuf *err);
int rep_run_matches(const struct rep_run *r, const struct kvlist *where);
const char *rep_run_value(const struct rep_run *r, const char *key, char *buf, size_t len);

/*
 * Whether run r is the workload named `name` with identity `identity`: the one rule of "the same workload" for
 * a report's rows and a trend's series (name and identity, never identity alone; a run without a name goes by
 * its identity).
 */
const char *rep_run_workload_name(const struct rep_run *r);
int rep_run_is_workload(const struct rep_run *r, const char *name, const char *identity);
/* Whether r is a baseline (label phase=baseline: `bench baseline`, `baseline = on`), evidence for --explain and
 * not a result of its workload: tables and the gate leave it out unless phase=baseline is asked for. */
int rep_run_is_baseline(const struct rep_run *r);

/*
 * The run's cpu and disk rows as `report -v` loads them (rep_run.cpuview, counted there), else read from st and
 * counted the same way: over the devices the run names (cpuview_count_named: its configuration's members, else
 * its /dev targets). NULL when the run has no disk rows. *owned: the caller frees it (cpuview_run_free). One
 * home for the HTML disk table and --explain's measured member operations.
 */
struct cpuview_run *rep_run_disks(struct store *st, const struct rep_run *r, int *owned);

/* Reads runs (done and partial, or all with REP_ALL_STATUS) that match `where` (may be NULL). */
int report_load(struct store *st, const struct kvlist *where, unsigned flags, struct rep_set *out,
		struct errbuf *err);

/*
 * Whether every --by key and the --compare key name a label of some loaded run or a workload field: 0, or -1
 * with ERR_INPUT and the closest key ("--by stak: ... (did you mean 'stack'?)"). An empty set says nothing.
 */
int rep_check_keys(const struct rep_set *set, const struct kvlist *by, const char *cmp_key, struct errbuf *err);

/* Releases run i of the set and closes the gap (the order of the rest is kept). */
void rep_set_remove(struct rep_set *s, size_t i);

/*
 * The table's figures (RM_*) of a run's figures (figures.h): IOPS and MiB/s of all directions, mean and p99
 * latency of read and write in ms, CPU % of the initiators. Unknown: NAN.
 */
void rep_metrics_from(const struct figures *f, double m[RM_NR]);

#endif
