/*
 * figures: the one layer that turns a run's stored rows into the figures every reader shows (design.md "One
 * figures layer"): `bench report` (tables, ratios, -v, export's rows), `bench gate`, the curves and sweeps,
 * the jobs table and the run loop's method decisions (curve rates, steady-state rounds) all read a run's
 * IOPS, bandwidth, latency, p99 and CPU through these functions, so that they cannot print different numbers
 * for the same run.
 *
 * The rules, each in one place:
 *   Host.       The figures of a run are those of its aggregate host '*' when it has result rows; else of
 *               its only host with result rows; a run with several hosts and no aggregate has none
 *               (figures_host).
 *   Directions. Per direction (read, write, trim) from that direction's row; a direction row with neither
 *               IOs nor IOPS (fio's row of a direction the job did not do) is not measured (every figure of
 *               it NAN); a row with IOPS but no IO count (an import without counts) is. The total: the total row's IOPS and
 *               bytes/s, else the sum of the measured directions.
 *   Latency.    Mean: total latency when known and > 0, else completion latency (store_result_mean_lat_ns).
 *               p99: the stored 99th percentile, else computed from the stored bins (store_read_percentile).
 *   CPU.        core's one rule (store_cpu_pick, core/store_read.h): utilisation and CPU-microseconds per IO
 *               both from the one cpu row it picks; when no row gives the initiators a figure, fio's own
 *               usr + sys of its jobs gives the utilisation and CPU per IO is unknown. CPU per IO is never
 *               derived from fio's usr + sys (that is fio's threads as a share of the job's runtime, not the
 *               host's busy time: a figure of another kind than the collectors' CPU per IO).
 *
 * Units are the stored ones: IOs per second, bytes per second, nanoseconds, %, CPU-microseconds per IO.
 * Nothing here prints; the only reads are percentiles (store_read_percentile) when they are not given.
 */
#ifndef BENCH_REPORT_FIGURES_H
#define BENCH_REPORT_FIGURES_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"
#include "core/store.h"
#include "core/store_read.h"

/* The figures of one run (or of one host or job of it). Unknown or not measured: NAN (counts 0). */
struct figures {
	int measured;                /* some result row of the host (and job) was found */
	int result_hosts;            /* hosts with result rows, '*' included (with host NULL: figures_host's) */
	double iops[DDIR_NR];        /* IOs per second per direction; [DDIR_TOTAL] all directions */
	double bw_bytes[DDIR_NR];    /* bytes per second, as iops */
	double lat_mean_ns[DDIR_NR]; /* mean latency, ns; NAN for DDIR_TOTAL */
	double p99_ns[DDIR_NR];      /* 99th percentile latency, ns; NAN for DDIR_TOTAL */
	uint64_t ios;                /* IOs completed, all directions (the total row, else the sum) */
	int64_t runtime_ms;          /* the longest measured time of the rows, ms; 0 unknown */
	/* CPU of the initiators and the targets (core's one rule, store_cpu_pick): */
	double cpu_pct;              /* initiators' utilisation, %; NAN unknown */
	double cpu_us_per_io;        /* CPU-microseconds per front-end IO of the same row; NAN unknown */
	char cpu_source[32];         /* "procstat", "node_exporter", "import", "fio", ...; "" none */
	int cpu_from_fio_job;        /* cpu_pct is fio's own usr + sys of its jobs (no cpu row) */
	double target_cpu_pct;       /* targets' utilisation, %; NAN unknown */
};

/* All figures unknown. */
void figures_init(struct figures *f);

/*
 * The host whose result rows stand for the run among res[0..n) (store_read_results order: '*' first): '*'
 * when it has rows, else the only host with rows; NULL when there are no rows or several hosts without '*'.
 * *nhosts (may be NULL) gets the number of distinct hosts with rows.
 */
const char *figures_host(const struct store_result *res, size_t n, int *nhosts);

/*
 * The result figures (not CPU) of host `host` (NULL: figures_host's) and job `job` (NULL: any job; headline
 * rows are all jobs) from the rows res[0..n) into f (initialised here; CPU left unknown). p99_ns[i] is row
 * i's 99th percentile in ns as a scan gives it (store_scan_next_results); with p99_ns NULL it is read per
 * row (store_read_percentile). -1 only when a percentile read fails (ERR_STORE in err).
 */
int figures_from_results(struct store *st, const struct store_result *res, const double *p99_ns, size_t n,
			 const char *host, const char *job, struct figures *f, struct errbuf *err);

/* The CPU figures of f from the run's cpu rows and hosts (run_host rows, for fio's own CPU; may be NULL). */
void figures_cpu(struct figures *f, const struct store_cpu *cpu, size_t ncpu, const struct store_host *hosts,
		 size_t nhosts);

/*
 * The figures of a stored run, read from the store (headline rows, hosts and cpu rows): what a caller that
 * holds one run id needs (the run loop's method decisions). 0, or -1 with ERR_STORE.
 */
int figures_of_run(struct store *st, int64_t run_id, struct figures *f, struct errbuf *err);

/* The worse (larger) of the read and write figures v[] (mean or p99 latency), ignoring NANs; NAN when both are. */
double figures_worse_rw(const double v[DDIR_NR]);

#endif
