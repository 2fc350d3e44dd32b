/*
 * cpuview: the CPU and disk figures of a run as `bench report` derives them. The collectors store them
 * (tables cpu and disk, schema.sql) and core/store_read.h reads them back; this module derives what the
 * report prints: the cluster CPU figure per role (cpu host '*'), CPU per host, the devices with their IOs,
 * and the IO amplification of the run:
 *
 *     device IOs / front-end IOs
 *
 * where device IOs is the sum of reads + writes of the disk rows of the hosts that have role target (any cpu
 * row of the run with role 'target'), or of all disk rows when the run has no target host, and front-end IOs
 * is the `ios` of result host '*' ddir 'total' (else the sum of the directions of host '*'). It is given
 * only when the devices measured are the ones the workload drove: the disk rows of the target hosts (the
 * back end behind the initiators). Without a target host the collectors store every device of the machine
 * that did IO in the window (unrelated IO, stacked devices: md0 and its members both count), so the
 * device IOs are listed but the amplification is unknown (NAN).
 *
 * The headline CPU figures (rep_run.m[RM_CPU], rep_run.target_cpu_pct) follow core's one preference rule
 * (store_cpu_pick, core/store_read.h). Cells for the text tables are in cpuview_cells.h, JSON in
 * cpuview_json.h. Nothing here reads the database, prints or knows of load.h.
 */
#ifndef BENCH_REPORT_CPUVIEW_H
#define BENCH_REPORT_CPUVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "core/kv.h"
#include "core/store_read.h"

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
	CPUVIEW_SCOPE_DEVICES,    /* the devices the run names (cpuview_count_named): its configuration's members,
				   * else its target devices; of the target hosts when it has any */
};

struct cpuview_run {
	struct store_cpu *cpu;    /* role (initiator first), host '*' first, host, source (store_read_cpu order) */
	size_t ncpu;
	struct cpuview_disk *disks; /* host, device */
	size_t ndisks;
	double front_end_ios;     /* NAN when the run has no result of host '*' */
	uint64_t device_ios;      /* sum of reads + writes of the counted disk rows */
	enum cpuview_scope scope;
	double amplification;     /* device_ios / front_end_ios with CPUVIEW_SCOPE_TARGET; NAN otherwise, or when
				   * front-end IOs are missing or 0 */
};

/*
 * The figures of a run from its cpu rows (taken over: freed with the result), its disk rows (copied) and
 * its front-end IOs (NAN unknown).
 */
struct cpuview_run *cpuview_new(struct store_cpu *cpu, size_t ncpu, const struct store_disk *disks, size_t ndisks,
				double front_end_ios);
void cpuview_run_free(struct cpuview_run *v); /* NULL ok */

/*
 * Counts only the devices the run names, when it names any: the configuration's members (labels
 * cfg.dev.NAME.*, and cfg.members.names "a,b,..." when stored), else the run's targets that are block devices
 * ("/dev/NAME", `targets`); on the target hosts when the run has any. The system disk, another process's loop
 * device or swap and a stacked device over the members (md0 over them: counted once, as its members) are then
 * listed but not counted, and the amplification (device IOs / front-end IOs) is given. Names nothing: no change.
 */
void cpuview_count_named(struct cpuview_run *v, const struct kvlist *labels, char *const *targets,
			 size_t ntargets);

/* The name of share_pct[i]: "user_pct", ... */
extern const char *const cpuview_share_keys[CPU_SHARE_NR];

#endif
