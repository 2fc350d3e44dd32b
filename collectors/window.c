/*
 * window: adds up counter deltas between consecutive snapshots of one host (see window.h for the rules on
 * wraps, offline CPUs and vanished disks) and turns the sums into utilisation shares.
 */
#include "collectors/window.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

void collect_window_release(struct collect_window *w)
{
	if (!w)
		return;
	collect_snapshot_release(&w->prev);
	array_free_members(w->disks, w->ndisks, sizeof(*w->disks), (const size_t[]){ offsetof(struct disk_delta, name) },
			   1);
	collect_window_init(w);
}

void collect_window_init(struct collect_window *w)
{
	memset(w, 0, sizeof(*w));
	collect_snapshot_init(&w->prev);
}

double cpu_busy_of(const double cpu_s[CPU_MODE_NR])
{
	return cpu_s[CPU_USER] + cpu_s[CPU_NICE] + cpu_s[CPU_SYSTEM] + cpu_s[CPU_IRQ] + cpu_s[CPU_SOFTIRQ] +
	       cpu_s[CPU_STEAL];
}

double cpu_total_of(const double cpu_s[CPU_MODE_NR])
{
	return cpu_busy_of(cpu_s) + cpu_s[CPU_IDLE] + cpu_s[CPU_IOWAIT];
}

static struct disk_delta *window_disk(struct collect_window *w, const char *name)
{
	for (size_t i = 0; i < w->ndisks; i++)
		if (!strcmp(w->disks[i].name, name))
			return &w->disks[i];
	ARRAY_GROW(w->disks, w->disks_cap, w->ndisks + 1);
	memset(&w->disks[w->ndisks], 0, sizeof(w->disks[0]));
	w->disks[w->ndisks].name = xstrdup(name);
	return &w->disks[w->ndisks++];
}

static uint64_t delta(struct collect_window *w, uint64_t prev, uint64_t cur, enum counter_kind kind)
{
	enum counter_event ev;
	uint64_t d = counter_delta(prev, cur, kind, &ev);

	if (ev == COUNTER_WRAP32 || ev == COUNTER_WRAP64)
		w->wraps++;
	else if (ev == COUNTER_BACKWARDS)
		w->backwards++;
	return d;
}

void collect_window_add(struct collect_window *w, struct collect_snapshot *s, double *interval_util_pct)
{
	const struct collect_snapshot *p = &w->prev;
	double iv[CPU_MODE_NR] = { 0 };
	int cores = 0;

	if (interval_util_pct)
		*interval_util_pct = NAN;
	if (w->nsnaps == 0) {
		w->first_ms = s->t_ms;
		goto keep;
	}

	/* CPUs online at both ends of the interval; the others are counted as offline events. */
	for (size_t i = 0; i < s->ncpus; i++) {
		const struct cpu_counters *c = &s->cpus[i];
		const struct cpu_counters *o = collect_snapshot_find_cpu(p, c->cpu);

		if (!o) {
			w->cpu_offline++;
			continue;
		}
		for (int m = 0; m < CPU_MODE_NR; m++)
			iv[m] += (double)delta(w, o->v[m], c->v[m], s->kind) * s->cpu_unit_s;
		cores++;
	}
	for (size_t i = 0; i < p->ncpus; i++)
		if (!collect_snapshot_find_cpu(s, p->cpus[i].cpu))
			w->cpu_offline++;
	for (int m = 0; m < CPU_MODE_NR; m++)
		w->cpu_s[m] += iv[m];
	if (cores > w->cores)
		w->cores = cores;
	if (interval_util_pct && cpu_total_of(iv) > 0)
		*interval_util_pct = 100.0 * cpu_busy_of(iv) / cpu_total_of(iv);

	for (size_t i = 0; i < s->ndisks; i++) {
		const struct disk_counters *d = &s->disks[i];
		const struct disk_counters *o = collect_snapshot_find_disk(p, d->name);
		struct disk_delta *a;

		if (!o)
			continue;
		a = window_disk(w, d->name);
		a->reads += delta(w, o->reads, d->reads, s->kind);
		a->writes += delta(w, o->writes, d->writes, s->kind);
		a->read_sectors += delta(w, o->read_sectors, d->read_sectors, s->kind);
		a->write_sectors += delta(w, o->write_sectors, d->write_sectors, s->kind);
		a->io_ticks_ms += delta(w, o->io_ticks_ms, d->io_ticks_ms, s->kind);
	}
keep:
	w->last_ms = s->t_ms;
	w->nsnaps++;
	collect_snapshot_release(&w->prev);
	w->prev = *s;
	collect_snapshot_init(s);
}

double collect_window_busy_s(const struct collect_window *w)
{
	return cpu_busy_of(w->cpu_s);
}

double collect_window_total_s(const struct collect_window *w)
{
	return cpu_total_of(w->cpu_s);
}

double collect_window_util_pct(const struct collect_window *w)
{
	double total = collect_window_total_s(w);

	return total > 0 ? 100.0 * collect_window_busy_s(w) / total : NAN;
}

void collect_window_to_cpu(const struct collect_window *w, struct cpu_result *out)
{
	double total = collect_window_total_s(w);
	double *dst[CPU_MODE_NR] = {
		[CPU_USER] = &out->user_pct, [CPU_NICE] = &out->nice_pct, [CPU_SYSTEM] = &out->system_pct,
		[CPU_IDLE] = &out->idle_pct, [CPU_IOWAIT] = &out->iowait_pct, [CPU_IRQ] = &out->irq_pct,
		[CPU_SOFTIRQ] = &out->softirq_pct, [CPU_STEAL] = &out->steal_pct,
	};

	out->cores = w->cores;
	for (int m = 0; m < CPU_MODE_NR; m++)
		*dst[m] = total > 0 ? 100.0 * w->cpu_s[m] / total : NAN;
	out->util_pct = collect_window_util_pct(w);
}
