/*
 * model: the data every folder exchanges (design.md "The model"): workloads, run specs, hosts, results, CPU,
 * samples and artifacts. Plain structs with explicit owners: every pointer member is owned by its struct and
 * released by the matching *_release function. Units are in the names.
 */
#ifndef BENCH_CORE_MODEL_H
#define BENCH_CORE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/kv.h"

/* ---- workloads and run specs ---------------------------------------------------------------- */

/*
 * One IO pattern. The normalised fields describe it for reports and matching (the identity, core/identity.h,
 * is these fields plus every option in `opts` that changes the load); `opts` is what the engine actually gets: the complete fio options of the job, globals first, in
 * order, values verbatim. Fields not known are 0/NULL (read_pct/random_pct: -1 when unknown).
 */
struct workload {
	char *tool;            /* where it was defined: "fio", "vdbench", "csv" */
	char *rw;              /* fio rw= value: read write randread randwrite rw randrw trim ... */
	uint64_t bs_bytes;     /* block size, 0 when only a split is known */
	char *bssplit;         /* fio bssplit= text, or NULL */
	int read_pct;          /* share of IOs that are reads, 0..100, -1 unknown */
	int random_pct;        /* share of IOs at random offsets, 0..100, -1 unknown */
	unsigned iodepth;      /* outstanding IOs per job */
	unsigned numjobs;      /* jobs (threads/processes) per target group */
	unsigned runtime_s;    /* measured time */
	unsigned ramp_s;       /* warm-up before measuring */
	char *size;            /* working set as fio's size= text ("100%", "1g"), or NULL */
	int compress_pct;      /* buffer_compress_percentage, 0 = none */
	int dedupe_pct;        /* dedupe_percentage, 0 = none */
	struct kvlist opts;    /* fio options for the job section, in order */
	char *src_file;        /* where it was defined, for messages */
	int src_line;
};

/*
 * One job of a run whose jobs fio runs together (docs/profiles.md "A job file runs as fio runs it"): the sections of
 * a fio job file between two stonewalls. Its workload holds its complete options; its targets are the files
 * or devices it runs on (its own filename=, else the run's default or --target ones).
 */
struct job_spec {
	char *name;            /* the section's name, as fio reports it (jobname) and as stored (result.job) */
	struct workload wl;
	char **targets;
	size_t ntargets;
};

/*
 * The measurement method and configuration facts of a run (docs/method.md "How the method reaches the run
 * loop"): set by the plan pipeline (profiles/method_expand.c, vdbench_translate.c, config.c), read by the run loop
 * (bench/runloop_method.c), never parsed back from labels. The labels users see in the store (curve_pct=,
 * sweep.KEY=, phase=precondition, precondition=, precondition.class=, ss_round=, config=) are written from these
 * fields by one function, run_method_labels, when the run loop builds the labels it stores.
 */
enum run_method_kind {
	RUN_METHOD_PLAIN = 0,   /* a measured run outside any curve or sweep */
	RUN_METHOD_CURVE_MAX,   /* a curve's max run, unthrottled (curve_pct=max) */
	RUN_METHOD_CURVE_POINT, /* a curve point: rate set at run time to curve_pct % of its max run (curve_pct=NN) */
	RUN_METHOD_SWEEP_POINT, /* a point of a sweep over one fio option (sweep.OPTION=VALUE) */
	RUN_METHOD_PURGE,       /* preconditioning: the purge (phase=precondition precondition=purge) */
	RUN_METHOD_WIPC,        /* preconditioning: the workload-independent fill (precondition=wipc) */
	RUN_METHOD_SS_ROUND,    /* preconditioning: a workload-dependent round (precondition=wdpc ss_round=K) */
};

#define RUN_METHOD_MAX_UNTIL 8 /* stop rules of one sweep */

struct run_method {
	enum run_method_kind kind;
	double curve_pct;         /* CURVE_POINT: % of the max run's measured total IOPS, 0 < pct <= 100 */
	double stopcurve_ms;      /* CURVE_MAX/POINT: vdbench stopcurve, ms: the curve stops after a point whose mean
	                             latency is above it; 0: none */
	char *sweep_option;       /* SWEEP_POINT: the fio option swept: "iodepth", "numjobs", "rate_iops" */
	double sweep_value;       /* SWEEP_POINT: its value at this point (a whole number) */
	unsigned sweep_point;     /* SWEEP_POINT: 1-based place in its sweep (1 starts a sweep) */
	char *until[RUN_METHOD_MAX_UNTIL]; /* SWEEP_POINT: the stop rule's limits as given ("p99>2ms"), in order */
	size_t nuntil;
	char *precond_class;      /* PURGE/WIPC/SS_ROUND: the workload class ("random-write", profiles/method.h) */
	unsigned ss_round;        /* SS_ROUND: 1-based round */
	unsigned max_rounds;      /* SS_ROUND: most rounds */
	unsigned round_s;         /* SS_ROUND: round length, seconds */
	char *precond_skipped;    /* a measured run: why its preconditioning phases were skipped, or NULL */
	int config_index;         /* its configuration's index in the plan's configuration list, -1: none */
	char *config_name;        /* its configuration's name (label config=NAME), or NULL */
	int baseline;             /* its suite says `baseline = on`: its configuration's baselines are measured
	                             (bench/baseline_plan.c); kept with the configuration */
};

void run_method_init(struct run_method *m);   /* plain, no configuration */
void run_method_release(struct run_method *m); /* leaves it initialised; NULL is fine */
void run_method_copy(struct run_method *dst, const struct run_method *src); /* dst uninitialised */
/* Resets the method part (kind and its fields) and keeps the configuration: what a new plan entry derived from a
 * run starts from. */
void run_method_clear_kind(struct run_method *m);
/* "plain", "curve_max", "curve_point", "sweep_point", "purge", "wipc", "ss_round"; and back (-1: unknown). */
const char *run_method_kind_name(enum run_method_kind k);
int run_method_kind_parse(const char *s, enum run_method_kind *out);

/*
 * One run to execute: a workload bound to targets, named, numbered, labelled. A run of several jobs fio runs
 * together has njobs >= 2 jobs, and then `wl` is their summary (core/model.c run_spec_summarise: the fields
 * all jobs share, rw "mixed" and bs 0 where they differ, read and random shares weighted by numjobs,
 * numjobs summed, iodepth/runtime/ramp the largest, the options all jobs share, the first job's size) for the run's
 * columns and name, and `targets` is the union of the jobs' targets in order; njobs == 0 is a run of one job
 * (`wl` on `targets`, HCIbench's one job per target).
 */
struct run_spec {
	char *name;            /* HCIbench style where it fits: fio-1vmdk-100ws-4k-100rdpct-100randompct-4threads */
	unsigned seq;          /* 1-based position in the plan */
	unsigned repetition;   /* 1-based */
	char *engine;          /* "fio", "sim", "null" */
	struct kvlist engine_opts; /* extra engine options (sim model parameters) */
	struct kvlist labels;  /* run labels (the suite's are added by the run loop) */
	struct workload wl;
	char **targets;        /* files or devices for a local run; hosts carry their own */
	size_t ntargets;
	char *started_at;      /* when the load started, UTC "2026-12-01T20:34:51.950Z" (store_now's form), for
	                          imports from the source's own clock; NULL: the store stamps the time it writes */
	char *finished_at;     /* when it ended, same form; NULL: the store's time */
	struct job_spec *jobs; /* njobs == 0, or >= 2 jobs fio runs together (see above) */
	size_t njobs;
	struct run_method method; /* where it stands in the measurement method and its configuration */
};

/* ---- hosts ---------------------------------------------------------------------------------- */

enum host_role { ROLE_INITIATOR = 0, ROLE_TARGET = 1 };

/* Longest path (bytes, with the NUL) of the hosts file's ssh_key=, ssh_known_hosts= and workdir=. */
#define HOST_PATH_MAX 256

struct host {
	char *name;            /* unique within a hosts file */
	char *addr;            /* address or name of its fio server */
	unsigned port;         /* fio server port, default 8765 */
	enum host_role role;
	char **targets;        /* devices or files on that host */
	size_t ntargets;
	char *exporter_url;    /* node_exporter metrics URL, or NULL */
	char *ssh_user;        /* or NULL */
	unsigned ssh_port;     /* sshd port, 0: ssh's default */
	char ssh_key[HOST_PATH_MAX];         /* identity file for ssh -i, "" for ssh's default */
	char ssh_known_hosts[HOST_PATH_MAX]; /* known_hosts file for that host (strict checking), "" for ssh's */
	char workdir[HOST_PATH_MAX];         /* directory declared for bench's files on that host, "" if none */
	char *src_file;
	int src_line;
};

struct host_list {
	struct host *v;
	size_t n, cap;
};

/* ---- results -------------------------------------------------------------------------------- */

enum ddir { DDIR_READ = 0, DDIR_WRITE, DDIR_TRIM, DDIR_TOTAL, DDIR_NR };

/* The aggregate over all hosts of a run is stored under this host name. */
#define HOST_AGGREGATE "*"
/* The aggregate over all jobs of a run is stored under this job name (a host_result with job NULL). */
#define JOB_AGGREGATE "*"

struct lat_summary {
	int present;           /* 0: fio gave nothing */
	uint64_t n;            /* samples; fio < 3.18 does not report N: then total_ios */
	uint64_t min_ns, max_ns;
	double mean_ns, stddev_ns;
};

struct percentile {
	double pct;            /* e.g. 99.9 */
	uint64_t value_ns;
};

struct hist_bin {
	uint64_t value_ns;     /* fio bucket value (midpoint), nanoseconds */
	uint64_t count;        /* IOs in the bucket */
};

struct dir_result {
	int present;           /* this direction had IOs or was asked for */
	uint64_t ios;          /* total_ios */
	uint64_t short_ios, drop_ios;
	uint64_t bytes;        /* io_bytes */
	uint64_t runtime_ms;
	double iops;
	double bw_bytes;       /* bytes per second */
	struct lat_summary lat, clat, slat;
	char pct_kind[5];      /* "clat" or "lat": what pct and bins describe; "" when none */
	struct percentile *pct;
	size_t npct;
	struct hist_bin *bins; /* ascending value_ns, no zero counts */
	size_t nbins;
};

struct host_result {
	char *host;            /* host name; HOST_AGGREGATE for the run total */
	char *fio_version;     /* "fio-3.33", or NULL */
	double start_offset_ms;/* when this host started relative to the first one; NAN if unknown */
	int error;             /* fio's error code for the job, 0 = fine */
	char *errmsg;          /* why this host failed, or NULL */
	double usr_cpu_pct;    /* fio's own job CPU, % of job runtime; NAN if unknown */
	double sys_cpu_pct;
	struct dir_result dir[DDIR_NR];
	char *job;             /* the job of a run of several jobs (job_spec.name); NULL: all jobs (JOB_AGGREGATE) */
	double job_start_ms;   /* when the job's measured time began, ms since the epoch; NAN if unknown */
	char hostname[65];     /* the machine's own host name (a fio server's PROBE reply); "" if unknown */
};

struct cpu_result {
	char *host;
	enum host_role role;
	char *source;          /* "fio", "procstat", "node_exporter" */
	int cores;             /* cores sampled, 0 if unknown */
	double user_pct, nice_pct, system_pct, iowait_pct, irq_pct, softirq_pct, steal_pct, idle_pct; /* NAN if unknown */
	double util_pct;       /* busy share of all cores: user+nice+system+irq+softirq+steal */
	double cpu_us_per_io;  /* CPU-microseconds per front-end IO, NAN if unknown */
};

struct disk_result {
	char *host;
	char *device;          /* e.g. "vda" */
	uint64_t reads, writes;        /* completed IOs in the window */
	uint64_t read_sectors, write_sectors;
	uint64_t io_ticks_ms;
};

struct sample {
	char *host;            /* HOST_AGGREGATE for run totals */
	char *metric;          /* "iops.read", "bw_bytes.write", "lat_ns.read", "cpu.util_pct", ... */
	int64_t t_ms;          /* ms since the end of ramp (the run's one clock): the END of the averaged window */
	double value;          /* histogram rows: the IO count of the bucket */
	/* the fields below are zero unless set (run_result_add_sample zeroes them; docs/timeseries.md) */
	char job[48];          /* fio job ("bench.1"); "" = all jobs of the host (stored as '*') */
	char source[24];       /* which reader made it: "fio-log", "fio-histlog", "procstat", ... */
	uint32_t window_ms;    /* length of the averaged window, 0 = instant or unknown */
	int is_bin;            /* 1: a histogram bucket [bucket_lo_ns, bucket_hi_ns) of the interval */
	int64_t bucket_lo_ns, bucket_hi_ns;
};

struct artifact {
	char *name;            /* "jobfile", "fio-output.json", "fio-stderr.txt" */
	char *content;
	size_t len;
};

struct run_result {
	struct host_result *hosts;   /* per host, plus one with host == HOST_AGGREGATE */
	size_t nhosts, hosts_cap;
	struct cpu_result *cpu;
	size_t ncpu, cpu_cap;
	struct disk_result *disks;
	size_t ndisks, disks_cap;
	struct sample *samples;
	size_t nsamples, samples_cap;
	struct artifact *art;
	size_t nart, art_cap;
	struct kvlist labels;        /* what the engine learned about the run (fio's ss= result: fio.ss=...),
	                                stored as run labels with the results (a key of the spec's is replaced) */
};

enum run_status { RUN_RUNNING = 0, RUN_DONE, RUN_FAILED, RUN_PARTIAL, RUN_ABORTED };

const char *run_status_name(enum run_status s);
int run_status_parse(const char *s, enum run_status *out);
const char *ddir_name(enum ddir d);     /* "read" "write" "trim" "total" */
int ddir_parse(const char *s, enum ddir *out);
const char *host_role_name(enum host_role r);

void workload_init(struct workload *w);
void workload_release(struct workload *w);
void workload_copy(struct workload *dst, const struct workload *src); /* dst uninitialised */

void run_spec_init(struct run_spec *s);
void run_spec_release(struct run_spec *s);
void run_spec_copy(struct run_spec *dst, const struct run_spec *src);
void run_spec_add_target(struct run_spec *s, const char *target);
/* Appends a job (name copied, workload and targets empty) to a run of several jobs and returns it. */
struct job_spec *run_spec_add_job(struct run_spec *s, const char *name);
void job_spec_add_target(struct job_spec *j, const char *target);
/* Rebuilds a run of several jobs' summary workload `wl` and its `targets` from its jobs (see struct run_spec). */
void run_spec_summarise(struct run_spec *s);
/*
 * The labels of the run's method and configuration, added to `out` where it has no such key yet (a run's own
 * label wins: bench baseline's phase=baseline on a copy of a plan entry): curve_pct=max|NN, sweep.OPTION=V, config=NAME, phase=precondition, precondition=purge|wipc|wdpc,
 * precondition.class=CLASS, ss_round=K. The one place they are written: the run loop calls it on the labels it
 * stores, `bench plan` on the labels it shows. `out` may be &s->labels.
 */
void run_method_labels(const struct run_spec *s, struct kvlist *out);
/* The run of job `idx` alone (dst uninitialised): the run's name, numbers, engine, labels, method; the job's workload
 * and targets. What an engine prepares and checks for each job. */
void run_spec_job(const struct run_spec *s, size_t idx, struct run_spec *dst);

void host_release(struct host *h);
void host_list_init(struct host_list *l);
void host_list_release(struct host_list *l);

void dir_result_init(struct dir_result *d);
void dir_result_release(struct dir_result *d);
void host_result_init(struct host_result *h, const char *host);
void host_result_release(struct host_result *h);

void run_result_init(struct run_result *r);
void run_result_release(struct run_result *r);
/* Appends an initialised host result and returns it (pointer valid until the next add). */
struct host_result *run_result_add_host(struct run_result *r, const char *host);
/* The entry of `host` over all jobs (job NULL), or NULL. */
struct host_result *run_result_find_host(struct run_result *r, const char *host);
/* The entry of `host` and `job` (NULL: all jobs), or NULL. */
struct host_result *run_result_find_job(struct run_result *r, const char *host, const char *job);
void run_result_add_artifact(struct run_result *r, const char *name, const char *content, size_t len);
void run_result_add_sample(struct run_result *r, const char *host, const char *metric, int64_t t_ms, double value);
struct cpu_result *run_result_add_cpu(struct run_result *r, const char *host, enum host_role role, const char *source);

#endif
