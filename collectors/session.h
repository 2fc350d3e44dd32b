/*
 * session: CPU and disk collection during the measured part of one run. The run loop starts a session at the
 * end of ramp and finishes it at the end of the run; in between one thread per host samples its collector
 * (procstat for this machine, node_exporter for hosts with an exporter URL) at a fixed interval. Finishing
 * takes a last sample, stops the threads and turns the samples into model structs: CPU per host and per role
 * (host "*", the cluster figure: the average over all cores of all hosts of that role, as HCIbench reports),
 * CPU-microseconds per front-end IO, disk IO deltas and the per-interval CPU time series.
 *
 * A host whose collector fails (exporter unreachable, HTTP error, garbage, slower than the timeout) does not
 * fail the run: its CPU row is stored with NAN figures and a warning naming the host is returned. No scrape
 * blocks longer than its timeout; finishing takes at most about two timeouts (the scrape in flight and the
 * last one).
 */
#ifndef BENCH_COLLECTORS_SESSION_H
#define BENCH_COLLECTORS_SESSION_H

#include <stdint.h>

#include "core/errbuf.h"
#include "core/model.h"

#define COLLECT_DEFAULT_INTERVAL_MS 1000
#define COLLECT_DEFAULT_TIMEOUT_MS 2000
#define COLLECT_DEFAULT_CONNECT_TIMEOUT_MS 1000
#define COLLECT_LOCAL_HOST "localhost"   /* name of this machine in results when no hosts file is used */

struct collect_session;

struct collect_opts {
	const struct host_list *hosts; /* NULL or empty: this machine only (procstat, role initiator); else every
					  host with an exporter URL (hosts without one are not sampled) */
	const char *proc_root;         /* procstat root: "/" normally, a directory of recorded files in tests */
	const char *local_name;        /* this machine's host name in results; NULL: COLLECT_LOCAL_HOST */
	unsigned interval_ms;          /* 0: COLLECT_DEFAULT_INTERVAL_MS */
	unsigned timeout_ms;           /* whole scrape of one exporter; 0: COLLECT_DEFAULT_TIMEOUT_MS */
	unsigned connect_timeout_ms;   /* 0: COLLECT_DEFAULT_CONNECT_TIMEOUT_MS (never above timeout_ms) */
	long long t0_ms;               /* mono_ms() value sample times count from (the end of ramp); 0: now */
};

/*
 * Starts sampling. This machine's first sample is taken before returning (a file read); exporters are first
 * scraped by their threads at once. Returns NULL with `err` set only when threads cannot be started.
 */
struct collect_session *collect_session_start_opts(const struct collect_opts *opts, struct errbuf *err);

/* The same with the defaults: sample times count from now, timeouts 2 s total, 1 s connect. */
struct collect_session *collect_session_start(const struct host_list *hosts, const char *proc_root,
					      unsigned interval_ms, struct errbuf *err);

/*
 * Takes the last sample, stops sampling, frees the session and appends to `out` (initialised by the caller):
 *  - out->cpu: one row per sampled host (source "procstat" or "node_exporter", role from the hosts file),
 *    then one row per role with host "*" (source: the hosts' common source, or "mixed"); hosts without data
 *    have NAN figures and cores 0; cpu_us_per_io = busy CPU-microseconds / front_end_ios (NAN if 0 IOs);
 *  - out->disks: per host every device that did IO in the window, plus `backing_device` (may be NULL) on
 *    this machine even when it did none;
 *  - out->samples: metrics "cpu.util_pct" and "disk.iops" (completed IOs/s of all devices counted) per host
 *    per interval, t_ms = the interval's end since opts->t0_ms, window_ms = its length, source = the
 *    collector ("procstat", "node_exporter"). The run's one clock has t = 0 at the end of ramp
 *    (docs/timeseries.md): the caller passes that moment as t0_ms.
 * Returns 0, or 1 when something is missing: then `warn` holds one line naming every host concerned
 * (kind ERR_HOST). Never fails otherwise.
 */
int collect_session_finish(struct collect_session *s, uint64_t front_end_ios, const char *backing_device,
			   struct run_result *out, struct errbuf *warn);

/* Stops sampling (scrapes in flight are abandoned within about a second) and frees the session; NULL is fine. */
void collect_session_cancel(struct collect_session *s);

/*
 * The block device holding `path` (a file, a directory or a block device): `dev` gets its name as in
 * /proc/diskstats ("vda", "sda1", "dm-0") and `disk` the whole disk for a partition (else the same name).
 * Uses stat's st_dev (st_rdev for a device) and /sys/dev/block/MAJ:MIN. -1 with a message when the path is on
 * a filesystem without a block device (tmpfs, overlay, NFS).
 */
int collect_backing_device(const char *path, char *dev, size_t dev_len, char *disk, size_t disk_len,
			   struct errbuf *err);

/*
 * The devices a stacked device is built from (/sys/block/NAME/slaves: md RAID members, dm targets), sorted;
 * *n = 0 for a plain disk. The caller frees each name and the array.
 */
int collect_device_members(const char *name, char ***members, size_t *n, struct errbuf *err);

/*
 * IO amplification: completed reads + writes of `devices` on `host` in out->disks, divided by front_end_ios
 * (the IOs the load generator issued). NAN when front_end_ios is 0 or none of the devices was recorded.
 * A RAID5 small random write gives about 4 (read data and parity, write data and parity).
 */
double collect_io_amplification(const struct run_result *r, const char *host, const char *const *devices,
				size_t ndevices, uint64_t front_end_ios);

#endif
