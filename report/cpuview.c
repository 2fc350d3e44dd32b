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

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The member device names of `labels` into `names` (cfg.dev.NAME.KEY, cfg.members.names). */
static void member_names(const struct kvlist *labels, struct kvlist *names)
{
	const char *list = kvlist_get(labels, "cfg.members.names", NULL);
	char *name;

	for (size_t i = 0; i < labels->n; i++) {
		const char *k = labels->v[i].key, *dot;

		if (strncmp(k, "cfg.dev.", 8) || !(dot = strrchr(k + 8, '.')) || dot == k + 8)
			continue;
		name = xstrndup(k + 8, (size_t)(dot - k - 8));
		kvlist_set(names, name, "");
		free(name);
	}
	while (list && *list) {
		size_t n = strcspn(list, ", ");

		if (n) {
			name = xstrndup(list, n);
			kvlist_set(names, base_name(name), "");
			free(name);
		}
		list += n + (list[n] != '\0');
	}
}

void cpuview_count_named(struct cpuview_run *v, const struct kvlist *labels, char *const *targets,
			 size_t ntargets)
{
	struct kvlist names;
	int any_target = v && v->scope == CPUVIEW_SCOPE_TARGET;

	if (!v || v->scope == CPUVIEW_SCOPE_NONE)
		return;
	kvlist_init(&names);
	member_names(labels, &names);
	for (size_t i = 0; !names.n && i < ntargets; i++)
		if (!strncmp(targets[i], "/dev/", 5) && base_name(targets[i])[0])
			kvlist_set(&names, base_name(targets[i]), "");
	if (names.n) {
		v->scope = CPUVIEW_SCOPE_DEVICES;
		v->device_ios = 0;
		for (size_t i = 0; i < v->ndisks; i++) {
			struct cpuview_disk *d = &v->disks[i];

			d->counted = kvlist_find(&names, d->device) &&
				     (!any_target || (d->role && !strcmp(d->role, "target")));
			if (d->counted)
				v->device_ios += d->reads + d->writes;
		}
		v->amplification = v->front_end_ios > 0 ? (double)v->device_ios / v->front_end_ios : NAN;
	}
	kvlist_release(&names);
}
