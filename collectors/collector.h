/*
 * collector: the ops table every sampler implements (design.md "The ops tables") and the snapshot they all
 * produce. A collector reads the cumulative CPU and disk counters of one host (procstat: this machine's
 * /proc/stat and /proc/diskstats; node_exporter: a remote host's Prometheus metrics over HTTP) into a
 * `struct collect_snapshot`. Turning snapshots into deltas, utilisation and model structs is the same for all
 * collectors and lives in window.h; running collectors during a run lives in session.h. Collectors never touch
 * SQLite and never print.
 */
#ifndef BENCH_COLLECTORS_COLLECTOR_H
#define BENCH_COLLECTORS_COLLECTOR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"

#define COLLECTOR_OPS_VERSION 2

/* The CPU time categories of /proc/stat (and node_cpu_seconds_total's mode label), in /proc/stat order. */
enum cpu_mode {
	CPU_USER = 0, CPU_NICE, CPU_SYSTEM, CPU_IDLE, CPU_IOWAIT, CPU_IRQ, CPU_SOFTIRQ, CPU_STEAL, CPU_MODE_NR
};

/* "user" "nice" "system" "idle" "iowait" "irq" "softirq" "steal"; -1 from cpu_mode_parse if unknown. */
const char *cpu_mode_name(enum cpu_mode m);
int cpu_mode_parse(const char *s);

/* Cumulative time one CPU spent in each mode, in units of the snapshot's cpu_unit_s. */
struct cpu_counters {
	int cpu;                       /* CPU number (cpuN in /proc/stat, cpu="N" for node_exporter) */
	uint64_t v[CPU_MODE_NR];
};

/* Cumulative IO counters of one block device. */
struct disk_counters {
	char *name;                    /* "vda", "sda1", "md0" */
	uint64_t reads, writes;        /* completed IOs */
	uint64_t read_sectors, write_sectors; /* 512-byte sectors */
	uint64_t io_ticks_ms;          /* time the device had IOs in flight, milliseconds */
};

/* How a counter that went down between two snapshots is read. */
enum counter_kind {
	COUNTER_KERNEL = 0,  /* raw kernel counters: may wrap at 32 bits (unsigned int / 32-bit long) or 64 bits */
	COUNTER_RESETTABLE,  /* Prometheus counters: floats that never wrap; going down means a reset */
};

/* One reading of one host's counters. Owned arrays; see collect_snapshot_release. */
struct collect_snapshot {
	long long t_ms;                /* monotonic milliseconds (mono_ms()) when it was taken */
	double cpu_unit_s;             /* seconds per cpu_counters unit: 1/USER_HZ for /proc/stat, 1e-6 for exporter */
	enum counter_kind kind;
	double boot_time_s;            /* the machine's boot time, epoch seconds (/proc/stat btime, node_exporter's
	                                  node_boot_time_seconds); 0 if unknown. Hosts with the same one and the
	                                  same CPUs read one machine's /proc (network namespaces of one machine) */
	struct cpu_counters *cpus;     /* ascending cpu numbers, online CPUs only */
	size_t ncpus, cpus_cap;
	struct disk_counters *disks;   /* in the order the source listed them */
	size_t ndisks, disks_cap;
};

void collect_snapshot_init(struct collect_snapshot *s);
void collect_snapshot_release(struct collect_snapshot *s);  /* leaves s initialised and empty */
/* Returns the counters of `cpu`, adding a zeroed entry (kept sorted) when it is new. */
struct cpu_counters *collect_snapshot_cpu(struct collect_snapshot *s, int cpu);
/* Returns the counters of device `name`, adding a zeroed entry when it is new. */
struct disk_counters *collect_snapshot_disk(struct collect_snapshot *s, const char *name);
const struct cpu_counters *collect_snapshot_find_cpu(const struct collect_snapshot *s, int cpu);
const struct disk_counters *collect_snapshot_find_disk(const struct collect_snapshot *s, const char *name);

/*
 * Calls fn(ctx, line, lineno, err) for each line of text (a writable NUL-terminated copy without its newline,
 * numbered from 1), the way every collector reads a counter file. A NUL byte in a line is an error
 * ("what:LINE: NUL byte in line"). Stops at fn's first -1. Returns 0 or -1.
 */
int collect_each_line(const char *text, size_t len, const char *what,
		      int (*fn)(void *ctx, char *line, int lineno, struct errbuf *err), void *ctx, struct errbuf *err);

/* One collector instance: what to read and how. The session (or a test) fills the first block. */
struct collector {
	const struct collector_ops *ops;
	const struct host *host;       /* NULL: this machine */
	const char *proc_root;         /* procstat: directory holding proc/stat and proc/diskstats ("/" normally) */
	unsigned timeout_ms;           /* node_exporter: whole scrape, connect included */
	unsigned connect_timeout_ms;   /* node_exporter: TCP/TLS connect */
	const atomic_int *cancel;      /* when it points at non-zero, a scrape in flight is abandoned; may be NULL */
	void *priv;                    /* the collector's own state */
};

struct collector_ops {
	const char *name;              /* "procstat", "node_exporter": also the cpu row's source */
	unsigned int version;          /* COLLECTOR_OPS_VERSION */
	/* Prepares c->priv (files, HTTP handle). Required. */
	int (*open)(struct collector *c, struct errbuf *err);
	/* Takes one snapshot into `out` (initialised and empty); blocks at most c->timeout_ms. Required. */
	int (*sample)(struct collector *c, struct collect_snapshot *out, struct errbuf *err);
	/* Frees c->priv; accepts a collector whose open failed. Required. */
	void (*close)(struct collector *c);
};

extern const struct collector_ops collector_procstat;
extern const struct collector_ops collector_node_exporter;

/* The registered collector of that name, or NULL. */
const struct collector_ops *collector_find(const char *name);
/* Checks one table for a name, the interface version and the required hooks; -1 (ERR_INTERNAL) naming it. */
int collector_check_ops(const struct collector_ops *ops, struct errbuf *err);
/* Checks every registered table (main does at start-up: a failure is exit 70); -1 naming the collector. */
int collector_check_all(struct errbuf *err);

/*
 * Difference between two readings of a cumulative counter. COUNTER_KERNEL: a decrease is a wrap at 32 bits
 * when the old value fits 32 bits and the wrapped difference is below 2^31, a wrap at 64 bits when the wrapped
 * difference is below 2^63; anything else (a counter that went backwards: CPU hotplug, device re-added) gives 0.
 * COUNTER_RESETTABLE: a decrease is a reset and gives 0. *event (may be NULL) says which case applied.
 */
enum counter_event { COUNTER_OK = 0, COUNTER_WRAP32, COUNTER_WRAP64, COUNTER_BACKWARDS };
uint64_t counter_delta(uint64_t prev, uint64_t cur, enum counter_kind kind, enum counter_event *event);

#endif
