/*
 * procstat: the collector of this machine's counters. It reads ROOT/proc/stat (per-CPU time in USER_HZ ticks)
 * and ROOT/proc/diskstats (per-device IO counters) at each sample. Files are opened anew each time so that
 * tests can swap recorded files under a root directory between samples.
 */
#include "collectors/procstat.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/strbuf.h"

#define MAX_FIELDS 32

/* Splits one line into whitespace-separated fields (pointers into a NUL-terminated copy). */
static size_t split(char *line, char **field, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (*p && n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		field[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

struct line_ctx {
	const char *what;
	struct collect_snapshot *out;
	int (*fn)(char *line, int lineno, const char *what, struct collect_snapshot *out, struct errbuf *err);
};

static int line_cb(void *ctx, char *line, int lineno, struct errbuf *err)
{
	const struct line_ctx *c = ctx;

	return c->fn(line, lineno, c->what, c->out, err);
}

/* Calls fn for each line (collect_each_line) with the snapshot it fills. */
static int each_line(const char *text, size_t len, const char *what, struct collect_snapshot *out,
		     int (*fn)(char *line, int lineno, const char *what, struct collect_snapshot *out,
			       struct errbuf *err),
		     struct errbuf *err)
{
	struct line_ctx c = { what, out, fn };

	return collect_each_line(text, len, what, line_cb, &c, err);
}

static int stat_line(char *line, int lineno, const char *what, struct collect_snapshot *out, struct errbuf *err)
{
	char *f[MAX_FIELDS];
	size_t n = split(line, f, MAX_FIELDS);
	char *end;
	long cpu;
	struct cpu_counters *c;

	if (n == 2 && !strcmp(f[0], "btime")) {
		uint64_t bt;
		if (parse_u64(f[1], &bt) < 0)
			return err_set(err, ERR_INPUT, "%s:%d: btime is not a number: '%s'", what, lineno, f[1]);
		out->boot_time_s = (double)bt;
		return 0;
	}
	/* Only "cpuN" lines: "cpu" alone is the aggregate over all possible CPUs. */
	if (n == 0 || strncmp(f[0], "cpu", 3) || f[0][3] < '0' || f[0][3] > '9')
		return 0;
	errno = 0;
	cpu = strtol(f[0] + 3, &end, 10);
	if (errno || *end || cpu < 0 || cpu > INT_MAX)
		return err_set(err, ERR_INPUT, "%s:%d: bad CPU name '%s'", what, lineno, f[0]);
	if (n < 5)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' has %zu counters, expected at least 4", what, lineno,
			       f[0], n - 1);
	if (collect_snapshot_find_cpu(out, (int)cpu))
		return err_set(err, ERR_INPUT, "%s:%d: '%s' listed twice", what, lineno, f[0]);
	c = collect_snapshot_cpu(out, (int)cpu);
	/* user nice system idle iowait irq softirq steal [guest guest_nice: already inside user and nice] */
	for (size_t k = 1; k < n && k <= CPU_MODE_NR; k++)
		if (parse_u64(f[k], &c->v[k - 1]) < 0)
			return err_set(err, ERR_INPUT, "%s:%d: '%s' counter %zu is not a number: '%s'", what, lineno,
				       f[0], k, f[k]);
	return 0;
}

static int diskstats_line(char *line, int lineno, const char *what, struct collect_snapshot *out,
			  struct errbuf *err)
{
	char *f[MAX_FIELDS];
	size_t n = split(line, f, MAX_FIELDS);
	uint64_t v[MAX_FIELDS];
	struct disk_counters *d;

	if (n == 0)
		return 0;
	if (n != 7 && n < 14)
		return err_set(err, ERR_INPUT, "%s:%d: %zu fields, expected 7 or at least 14", what, lineno, n);
	for (size_t k = 0; k < n; k++) {
		if (k == 2)
			continue;
		if (parse_u64(f[k], &v[k]) < 0)
			return err_set(err, ERR_INPUT, "%s:%d: field %zu is not a number: '%s'", what, lineno, k + 1,
				       f[k]);
	}
	if (collect_snapshot_find_disk(out, f[2]))
		return err_set(err, ERR_INPUT, "%s:%d: device '%s' listed twice", what, lineno, f[2]);
	d = collect_snapshot_disk(out, f[2]);
	if (n == 7) {
		d->reads = v[3];
		d->read_sectors = v[4];
		d->writes = v[5];
		d->write_sectors = v[6];
	} else {
		d->reads = v[3];
		d->read_sectors = v[5];
		d->writes = v[7];
		d->write_sectors = v[9];
		d->io_ticks_ms = v[12];
	}
	return 0;
}

static double user_hz_unit(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return 1.0 / (double)(hz > 0 ? hz : 100);
}

int procstat_parse_stat(const char *text, size_t len, const char *what, struct collect_snapshot *out,
			struct errbuf *err)
{
	out->cpu_unit_s = user_hz_unit();
	out->kind = COUNTER_KERNEL;
	if (each_line(text, len, what, out, stat_line, err) < 0)
		return -1;
	if (out->ncpus == 0)
		return err_set(err, ERR_INPUT, "%s: no 'cpuN' lines", what);
	return 0;
}

int procstat_parse_diskstats(const char *text, size_t len, const char *what, struct collect_snapshot *out,
			     struct errbuf *err)
{
	out->kind = COUNTER_KERNEL;
	return each_line(text, len, what, out, diskstats_line, err);
}

static char *join_root(const char *root, const char *rel)
{
	size_t n = strlen(root);

	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n == 1 && root[0] == '/')
		n = 0;
	return xasprintf("%.*s/%s", (int)n, root, rel);
}

int procstat_read(const char *root, struct collect_snapshot *out, struct errbuf *err)
{
	struct strbuf sb;
	char *stat_path = join_root(root ? root : "/", "proc/stat");
	char *disk_path = join_root(root ? root : "/", "proc/diskstats");
	int rc = -1;

	strbuf_init(&sb);
	out->t_ms = mono_ms();
	if (strbuf_read_file(&sb, stat_path) < 0) {
		err_set(err, ERR_HOST, "cannot read '%s': %s", stat_path, strerror(errno));
		goto out;
	}
	if (procstat_parse_stat(sb.buf, sb.len, stat_path, out, err) < 0)
		goto out;
	strbuf_reset(&sb);
	if (strbuf_read_file(&sb, disk_path) < 0) {
		if (errno != ENOENT) {
			err_set(err, ERR_HOST, "cannot read '%s': %s", disk_path, strerror(errno));
			goto out;
		}
	} else if (procstat_parse_diskstats(sb.buf, sb.len, disk_path, out, err) < 0) {
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&sb);
	free(stat_path);
	free(disk_path);
	return rc;
}

/* ---- the ops table ---- */

static int procstat_open(struct collector *c, struct errbuf *err)
{
	(void)c;
	(void)err;
	return 0;
}

static void procstat_close(struct collector *c)
{
	(void)c;
}

static int procstat_sample(struct collector *c, struct collect_snapshot *out, struct errbuf *err)
{
	return procstat_read(c->proc_root, out, err);
}

/* the hooks in the order a session calls them */
const struct collector_ops collector_procstat = {
	.open = procstat_open,
	.sample = procstat_sample,
	.close = procstat_close,
	.name = "procstat",
	.version = COLLECTOR_OPS_VERSION,
};
