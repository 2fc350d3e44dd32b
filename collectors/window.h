/*
 * window: the measured window of one host, built from its snapshots in time order. Deltas are taken between
 * each pair of consecutive snapshots and added up, so that over the whole window (first to last snapshot):
 *  - a counter that wrapped (32 or 64 bits) between two snapshots counts what it really advanced;
 *  - a CPU counts only over the intervals where it was online at both ends (a CPU that goes offline
 *    disappears from /proc/stat; its frozen counters are never compared with a later reading);
 *  - a disk counts only over the intervals where it was listed at both ends.
 * CPU time is kept in seconds so that hosts with different counter units (USER_HZ ticks, exporter seconds)
 * can be added for the cluster figures.
 */
#ifndef BENCH_COLLECTORS_WINDOW_H
#define BENCH_COLLECTORS_WINDOW_H

#include "collectors/collector.h"

struct disk_delta {
	char *name;
	uint64_t reads, writes, read_sectors, write_sectors, io_ticks_ms;
};

struct collect_window {
	unsigned nsnaps;               /* snapshots added */
	long long first_ms, last_ms;   /* t_ms of the first and last snapshot */
	struct collect_snapshot prev;  /* the last snapshot added */
	double cpu_s[CPU_MODE_NR];     /* seconds per mode, summed over CPUs and intervals */
	int cores;                     /* most CPUs counted in one interval */
	unsigned cpu_offline;          /* CPU readings dropped because the CPU was missing at one end */
	unsigned wraps;                /* counters that wrapped (32 or 64 bits) */
	unsigned backwards;            /* counters that went backwards (taken as 0 for that interval) */
	struct disk_delta *disks;      /* in order of first appearance */
	size_t ndisks, disks_cap;
};

void collect_window_init(struct collect_window *w);
void collect_window_release(struct collect_window *w);

/*
 * Adds the next snapshot, taking ownership of its contents (*s is left empty). *interval_util_pct (may be NULL)
 * gets the utilisation over the interval since the previous snapshot, NAN for the first one or when no CPU
 * time passed.
 */
void collect_window_add(struct collect_window *w, struct collect_snapshot *s, double *interval_util_pct);

/* Busy share of all cores over the window, percent: (user+nice+system+irq+softirq+steal) / all; NAN if none. */
double collect_window_util_pct(const struct collect_window *w);
/* Busy CPU seconds over the window (all cores). */
double collect_window_busy_s(const struct collect_window *w);
double collect_window_total_s(const struct collect_window *w);

/* Fills the share fields, cores and util_pct of `out` from the window (NAN when nothing was measured). */
void collect_window_to_cpu(const struct collect_window *w, struct cpu_result *out);

/* Busy and total of raw per-mode seconds, for sums over several hosts. */
double cpu_busy_of(const double cpu_s[CPU_MODE_NR]);
double cpu_total_of(const double cpu_s[CPU_MODE_NR]);

#endif
