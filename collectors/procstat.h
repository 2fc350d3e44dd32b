/*
 * procstat: this machine's CPU and disk counters from /proc/stat and /proc/diskstats, read under a root
 * directory ("/" normally; tests point it at recorded files: ROOT/proc/stat, ROOT/proc/diskstats).
 * The parsers are exported for the unit tests.
 */
#ifndef BENCH_COLLECTORS_PROCSTAT_H
#define BENCH_COLLECTORS_PROCSTAT_H

#include "collectors/collector.h"

/*
 * Parses /proc/stat text: every "cpuN" line (user nice system idle [iowait irq softirq [steal ...]]; fields a
 * kernel does not print are 0); the aggregate "cpu" line is ignored because it still counts offline CPUs.
 * `what` names the source in messages. Counters stay in USER_HZ ticks (out->cpu_unit_s = 1/USER_HZ).
 */
int procstat_parse_stat(const char *text, size_t len, const char *what, struct collect_snapshot *out,
			struct errbuf *err);

/*
 * Parses /proc/diskstats text: "major minor name" then 4 fields (old partition format: reads, sectors read,
 * writes, sectors written) or 11 and more (reads completed, reads merged, sectors read, ms reading, writes
 * completed, writes merged, sectors written, ms writing, in flight, io ticks ms, ...).
 */
int procstat_parse_diskstats(const char *text, size_t len, const char *what, struct collect_snapshot *out,
			     struct errbuf *err);

/* Reads ROOT/proc/stat and ROOT/proc/diskstats (missing diskstats: no disks) into `out`, t_ms = now. */
int procstat_read(const char *root, struct collect_snapshot *out, struct errbuf *err);

#endif
