/*
 * collectors: the explicit list of registered collectors, the checks of their ops tables, and the snapshot
 * helpers and counter arithmetic every collector shares.
 */
#include "collectors/collector.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

static const struct collector_ops *const registered[] = {
	&collector_procstat,
	&collector_node_exporter,
	NULL,
};

int collector_check_ops(const struct collector_ops *ops, struct errbuf *err)
{
	const char *missing;

	if (err_check_ops_head(err, "a collector", "collector", ops->name, ops->version, COLLECTOR_OPS_VERSION) < 0)
		return -1;
	missing = !ops->open ? "open" : !ops->sample ? "sample" : !ops->close ? "close" : NULL;
	if (missing)
		return err_set(err, ERR_INTERNAL, "collector '%s' lacks a required hook (%s)", ops->name, missing);
	return 0;
}

int collector_check_all(struct errbuf *err)
{
	for (const struct collector_ops *const *o = registered; *o; o++)
		if (collector_check_ops(*o, err) < 0)
			return -1;
	return 0;
}

const struct collector_ops *collector_find(const char *name)
{
	for (size_t i = 0; registered[i]; i++)
		if (!strcmp(registered[i]->name, name))
			return registered[i];
	return NULL;
}

static const char *const mode_names[CPU_MODE_NR] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
};

const char *cpu_mode_name(enum cpu_mode m)
{
	return (unsigned)m < CPU_MODE_NR ? mode_names[m] : "?";
}

int cpu_mode_parse(const char *s)
{
	for (int i = 0; i < CPU_MODE_NR; i++)
		if (!strcmp(s, mode_names[i]))
			return i;
	return -1;
}

void collect_snapshot_release(struct collect_snapshot *s)
{
	if (!s)
		return;
	array_free_members(s->disks, s->ndisks, sizeof(*s->disks), (const size_t[]){ offsetof(struct disk_counters, name) },
			   1);
	free(s->cpus);
	collect_snapshot_init(s);
}

void collect_snapshot_init(struct collect_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu_unit_s = 0.01;
}

/* Where cpu is in the sorted cpus of s, or where it would go (*found 0). */
static size_t cpu_slot(const struct collect_snapshot *s, int cpu, int *found)
{
	size_t lo = 0, hi = s->ncpus;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < s->ncpus && s->cpus[lo].cpu == cpu;
	return lo;
}

struct cpu_counters *collect_snapshot_cpu(struct collect_snapshot *s, int cpu)
{
	int found;
	size_t lo = cpu_slot(s, cpu, &found);

	if (found)
		return &s->cpus[lo];
	ARRAY_GROW(s->cpus, s->cpus_cap, s->ncpus + 1);
	memmove(&s->cpus[lo + 1], &s->cpus[lo], (s->ncpus - lo) * sizeof(s->cpus[0]));
	memset(&s->cpus[lo], 0, sizeof(s->cpus[0]));
	s->cpus[lo].cpu = cpu;
	s->ncpus++;
	return &s->cpus[lo];
}

const struct cpu_counters *collect_snapshot_find_cpu(const struct collect_snapshot *s, int cpu)
{
	int found;
	size_t lo = cpu_slot(s, cpu, &found);

	return found ? &s->cpus[lo] : NULL;
}

const struct disk_counters *collect_snapshot_find_disk(const struct collect_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->ndisks; i++)
		if (!strcmp(s->disks[i].name, name))
			return &s->disks[i];
	return NULL;
}

struct disk_counters *collect_snapshot_disk(struct collect_snapshot *s, const char *name)
{
	struct disk_counters *d = (struct disk_counters *)collect_snapshot_find_disk(s, name);

	if (d)
		return d;
	ARRAY_GROW(s->disks, s->disks_cap, s->ndisks + 1);
	d = &s->disks[s->ndisks++];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(name);
	return d;
}

int collect_each_line(const char *text, size_t len, const char *what,
		      int (*fn)(void *ctx, char *line, int lineno, struct errbuf *err), void *ctx, struct errbuf *err)
{
	struct strbuf line;
	size_t i = 0;
	int lineno = 0, rc = 0;

	strbuf_init(&line);
	while (rc == 0 && i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;

		lineno++;
		strbuf_reset(&line);
		strbuf_add(&line, text + i, n);
		i += n + 1;
		if (memchr(line.buf, '\0', line.len))
			rc = err_set(err, ERR_INPUT, "%s:%d: NUL byte in line", what, lineno);
		else if (fn(ctx, line.buf, lineno, err) < 0)
			rc = -1;
	}
	strbuf_release(&line);
	return rc < 0 ? -1 : 0;
}

uint64_t counter_delta(uint64_t prev, uint64_t cur, enum counter_kind kind, enum counter_event *event)
{
	enum counter_event ev = COUNTER_OK;
	uint64_t d = 0;

	if (cur >= prev) {
		d = cur - prev;
	} else if (kind == COUNTER_KERNEL && prev <= UINT32_MAX && cur <= UINT32_MAX &&
		   (UINT64_C(1) << 32) - prev + cur < (UINT64_C(1) << 31)) {
		d = (UINT64_C(1) << 32) - prev + cur;
		ev = COUNTER_WRAP32;
	} else if (kind == COUNTER_KERNEL && cur - prev < (UINT64_C(1) << 63)) {
		d = cur - prev;   /* unsigned arithmetic is modulo 2^64 */
		ev = COUNTER_WRAP64;
	} else {
		ev = COUNTER_BACKWARDS;
	}
	if (event)
		*event = ev;
	return d;
}
