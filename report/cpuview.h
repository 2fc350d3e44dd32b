/*
 * cpuview: the CPU and disk figures of a run as `bench report` shows them. The collectors store them
 * (tables cpu and disk, schema.sql); this module reads them back for one run at a time and derives what the
 * report prints: the cluster CPU figure per role (cpu host '*'), CPU per host, the devices with their IOs, and
 * the IO amplification of the run:
 *
 *     device IOs / front-end IOs
 *
 * where device IOs is the sum of reads + writes of the disk rows of the hosts that have role target (any cpu
 * row of the run with role 'target'), or of all disk rows when the run has no target host, and front-end IOs
 * is the `ios` of result host '*' ddir 'total' (else the sum of the directions of host '*'). It is only
 * meaningful when the disk rows are the RAID members: a device seen by both the initiator and the target is
 * counted where it is, and the collectors store every device that did IO in the window, so on a single
 * machine the figure includes unrelated IO (and stacked devices: md0 and its members both count).
 *
 * report_load() (report.h) fills rep_run.target_cpu_pct always and rep_run.cpuview with REP_CPU_DETAIL;
 * render.c lays out the tables this module formats. Nothing here prints or writes to the database.
 */
#ifndef BENCH_REPORT_CPUVIEW_H
#define BENCH_REPORT_CPUVIEW_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/strbuf.h"

struct rep_run;

/* One row of table cpu. */
struct cpuview_cpu {
	char *host;               /* "*" = the cluster figure of the role */
	char *role;               /* "initiator" or "target" */
	char *source;             /* procstat, node_exporter, fio, import, mixed */
	int cores;                /* 0 unknown */
	double util_pct;          /* busy share of all cores, %; NAN unknown */
	double cpu_us_per_io;     /* busy CPU microseconds per front-end IO; NAN unknown */
	double share_pct[8];      /* user nice system iowait irq softirq steal idle, %; NAN unknown */
};

/* One row of table disk, with the role of its host. */
struct cpuview_disk {
	char *host, *device;
	const char *role;         /* "target", "initiator" or NULL when the host has no cpu row (static) */
	uint64_t reads, writes;   /* IOs completed in the window */
	uint64_t read_sectors, write_sectors, io_ticks_ms;
	int counted;              /* part of the device IOs of the amplification */
};

enum cpuview_scope {
	CPUVIEW_SCOPE_NONE = 0,   /* no disk rows: no amplification */
	CPUVIEW_SCOPE_TARGET,     /* disk rows of the target hosts */
	CPUVIEW_SCOPE_ALL,        /* no target host: all disk rows */
};

struct cpuview_run {
	struct cpuview_cpu *cpu;  /* role (initiator first), host '*' first, host, source */
	size_t ncpu;
	struct cpuview_disk *disks; /* host, device */
	size_t ndisks;
	double front_end_ios;     /* NAN when the run has no result of host '*' */
	uint64_t device_ios;      /* sum of reads + writes of the counted disk rows */
	enum cpuview_scope scope;
	double amplification;     /* device_ios / front_end_ios; NAN when either is missing or front-end is 0 */
};

/* Prepared statements, opened once per report_load(). */
struct cpuview_loader {
	sqlite3 *db;
	sqlite3_stmt *q[4];
};

int cpuview_loader_open(struct cpuview_loader *L, sqlite3 *db, struct errbuf *err);
void cpuview_loader_close(struct cpuview_loader *L);

/*
 * Fills r->target_cpu_pct and r->has_target_cpu from the cpu rows of role target (the cluster row '*',
 * collector and import before fio; else the row of the single target host), and with `detail` also
 * r->cpuview. Returns 0, or -1 with err (ERR_STORE).
 */
int cpuview_load_run(struct cpuview_loader *L, struct rep_run *r, int detail, struct errbuf *err);

void cpuview_run_free(struct cpuview_run *v);

/* The name of share_pct[i]: "user_pct", ... */
extern const char *const cpuview_share_keys[8];

/*
 * A small table of already formatted cells (numbers rounded for reading, text raw: the renderer escapes
 * it) for the text and Markdown renderers to lay out.
 */
struct cpuview_table {
	const char *title;
	size_t ncols, nrows;      /* row 0 is the header */
	char **cells;             /* nrows * ncols, malloc'd */
	unsigned right_mask;      /* bit k: column k is right-aligned */
};

/* The "CPU", "Disks" and "IO amplification" tables of the runs that have such rows (ntables = 3). */
void cpuview_tables(struct cpuview_table t[3], const struct rep_run *runs, size_t nruns);
void cpuview_table_release(struct cpuview_table *t);

/* The figures of one run as a JSON object: {"cpu":[...],"disks":[...],"front_end_ios":..,...}. */
void cpuview_json(struct strbuf *out, const struct cpuview_run *v);

#endif
