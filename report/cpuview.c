/*
 * cpuview: deriving the report's CPU and disk figures of a run (roles of hosts, device IOs, IO
 * amplification) from rows read by core/store_read.h; see cpuview.h for the definitions and their limits.
 */
#include "report/cpuview.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

const char *const cpuview_share_keys[CPU_SHARE_NR] = {
	"user_pct", "nice_pct", "system_pct", "iowait_pct", "irq_pct", "softirq_pct", "steal_pct", "idle_pct",
};

void cpuview_run_free(struct cpuview_run *v)
{
	if (!v)
		return;
	store_cpu_free(v->cpu, v->ncpu);
	for (size_t i = 0; i < v->ndisks; i++) {
		free(v->disks[i].host);
		free(v->disks[i].device);
	}
	free(v->disks);
	free(v);
}

static const char *host_role(const struct cpuview_run *v, const char *host)
{
	const char *role = NULL;

	/* A host listed with both roles counts as a target: its devices are where the back-end IO is. */
	for (size_t i = 0; i < v->ncpu; i++)
		if (!strcmp(v->cpu[i].host, host) && (!role || !strcmp(v->cpu[i].role, "target")))
			role = !strcmp(v->cpu[i].role, "target") ? "target" : "initiator";
	return role;
}

struct cpuview_run *cpuview_new(struct store_cpu *cpu, size_t ncpu, const struct store_disk *disks, size_t ndisks,
				double front_end_ios)
{
	struct cpuview_run *v = xcalloc(1, sizeof(*v));
	int any_target = 0;

	v->cpu = cpu;
	v->ncpu = ncpu;
	v->front_end_ios = front_end_ios;
	v->disks = ndisks ? xcalloc(ndisks, sizeof(*v->disks)) : NULL;
	v->ndisks = ndisks;
	for (size_t i = 0; i < ndisks; i++) {
		struct cpuview_disk *d = &v->disks[i];

		d->host = xstrdup(disks[i].host);
		d->device = xstrdup(disks[i].device);
		d->reads = disks[i].reads;
		d->writes = disks[i].writes;
		d->read_sectors = disks[i].read_sectors;
		d->write_sectors = disks[i].write_sectors;
		d->io_ticks_ms = disks[i].io_ticks_ms;
		d->role = host_role(v, d->host);
		any_target |= d->role && !strcmp(d->role, "target");
	}
	/* The target hosts are those with a cpu row of role target, whether or not they have disk rows. */
	for (size_t i = 0; i < v->ncpu; i++)
		any_target |= strcmp(v->cpu[i].host, "*") && !strcmp(v->cpu[i].role, "target");

	v->scope = !v->ndisks ? CPUVIEW_SCOPE_NONE : any_target ? CPUVIEW_SCOPE_TARGET : CPUVIEW_SCOPE_ALL;
	for (size_t i = 0; i < v->ndisks; i++) {
		struct cpuview_disk *d = &v->disks[i];

		d->counted = v->scope == CPUVIEW_SCOPE_ALL || (d->role && !strcmp(d->role, "target"));
		if (d->counted)
			v->device_ios += d->reads + d->writes;
	}
	/* Only the target hosts' devices are known to be the ones the workload drove (the back end behind the
	 * initiators' IO); without a target host the disk rows are every device of the machine that did IO in
	 * the window (other IO, stacked devices), so no amplification is given. */
	v->amplification = v->scope == CPUVIEW_SCOPE_TARGET && v->front_end_ios > 0 ?
				   (double)v->device_ios / v->front_end_ios : NAN;
	return v;
}
