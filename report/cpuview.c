/*
 * cpuview: reading the cpu and disk rows of a run and deriving the report's CPU and disk figures (cluster CPU
 * per role, CPU per host, device IOs and IO amplification); see cpuview.h for the definitions and their
 * limits. Read-only, prepared SQL; the text tables are formatted cells that render.c lays out.
 */
#include "report/cpuview.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/escape.h"
#include "report/render.h"
#include "report/report.h"

const char *const cpuview_share_keys[8] = {
	"user_pct", "nice_pct", "system_pct", "iowait_pct", "irq_pct", "softirq_pct", "steal_pct", "idle_pct",
};

enum { CQ_CPU, CQ_DISK, CQ_FRONT, CQ_TARGET, CQ_NR };

static const char *const cv_queries[CQ_NR] = {
	[CQ_CPU] = "SELECT host, role, source, cores, util_pct, cpu_us_per_io, user_pct, nice_pct, system_pct, "
		   "iowait_pct, irq_pct, softirq_pct, steal_pct, idle_pct FROM cpu WHERE run_id = ? "
		   "ORDER BY role = 'target', host <> '*', host, source",
	[CQ_DISK] = "SELECT host, device, reads, writes, read_sectors, write_sectors, io_ticks_ms FROM disk "
		    "WHERE run_id = ? ORDER BY host, device",
	[CQ_FRONT] = "SELECT ddir, ios FROM result WHERE run_id = ? AND host = '*'",
	[CQ_TARGET] = "SELECT host, util_pct, user_pct, system_pct FROM cpu WHERE run_id = ? AND role = 'target' "
		      "ORDER BY host <> '*', source = 'fio', source, host",
};

static int cv_fail(struct errbuf *err, sqlite3 *db, const char *what)
{
	return err_set(err, ERR_STORE, "%s: %s", what, sqlite3_errmsg(db));
}

static double cv_double(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

static char *cv_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return xstrdup(t ? (const char *)t : "");
}

static uint64_t cv_count(sqlite3_stmt *s, int i)
{
	sqlite3_int64 v = sqlite3_column_int64(s, i);
	return v > 0 ? (uint64_t)v : 0;
}

int cpuview_loader_open(struct cpuview_loader *L, sqlite3 *db, struct errbuf *err)
{
	memset(L, 0, sizeof(*L));
	L->db = db;
	for (int i = 0; i < CQ_NR; i++)
		if (sqlite3_prepare_v2(db, cv_queries[i], -1, &L->q[i], NULL) != SQLITE_OK) {
			cv_fail(err, db, "cannot read CPU and disk figures (is it a bench database?)");
			cpuview_loader_close(L);
			return -1;
		}
	return 0;
}

void cpuview_loader_close(struct cpuview_loader *L)
{
	if (!L)
		return;
	for (int i = 0; i < CQ_NR; i++) {
		sqlite3_finalize(L->q[i]);
		L->q[i] = NULL;
	}
}

void cpuview_run_free(struct cpuview_run *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->ncpu; i++) {
		free(v->cpu[i].host);
		free(v->cpu[i].role);
		free(v->cpu[i].source);
	}
	for (size_t i = 0; i < v->ndisks; i++) {
		free(v->disks[i].host);
		free(v->disks[i].device);
	}
	free(v->cpu);
	free(v->disks);
	free(v);
}

/* The target CPU figure of the default table: the cluster row, else the row of the only target host. */
static int load_target(struct cpuview_loader *L, struct rep_run *r, struct errbuf *err)
{
	sqlite3_stmt *s = L->q[CQ_TARGET];
	char *only = NULL;
	double only_util = NAN;
	int several = 0, rc;

	r->target_cpu_pct = NAN;
	r->has_target_cpu = 0;
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, r->id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *host = (const char *)sqlite3_column_text(s, 0);
		double util = cv_double(s, 1), usr = cv_double(s, 2), sys = cv_double(s, 3);

		r->has_target_cpu = 1;
		if (isnan(util) && !isnan(usr) && !isnan(sys))
			util = usr + sys;
		if (!host)
			continue;
		if (!strcmp(host, "*")) {
			if (!isnan(util) && isnan(r->target_cpu_pct))
				r->target_cpu_pct = util;
			continue;
		}
		if (!only) {
			only = xstrdup(host);
			only_util = util;
		} else if (strcmp(only, host)) {
			several = 1;
		} else if (isnan(only_util)) {
			only_util = util;
		}
	}
	free(only);
	if (rc != SQLITE_DONE)
		return cv_fail(err, L->db, "cannot read the target CPU figures");
	if (isnan(r->target_cpu_pct) && !several)
		r->target_cpu_pct = only_util;
	return 0;
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

static int load_detail(struct cpuview_loader *L, int64_t run_id, struct cpuview_run *v, struct errbuf *err)
{
	sqlite3_stmt *s = L->q[CQ_CPU];
	size_t cap = 0;
	double total = NAN, dirs = 0;
	int have_dirs = 0, any_target = 0, rc;

	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct cpuview_cpu *c;

		ARRAY_GROW(v->cpu, cap, v->ncpu + 1);
		c = &v->cpu[v->ncpu++];
		c->host = cv_text(s, 0);
		c->role = cv_text(s, 1);
		c->source = cv_text(s, 2);
		c->cores = sqlite3_column_type(s, 3) == SQLITE_NULL ? 0 : sqlite3_column_int(s, 3);
		c->util_pct = cv_double(s, 4);
		c->cpu_us_per_io = cv_double(s, 5);
		for (int k = 0; k < 8; k++)
			c->share_pct[k] = cv_double(s, 6 + k);
	}
	if (rc != SQLITE_DONE)
		return cv_fail(err, L->db, "cannot read CPU figures");

	s = L->q[CQ_DISK];
	cap = 0;
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct cpuview_disk *d;

		ARRAY_GROW(v->disks, cap, v->ndisks + 1);
		d = &v->disks[v->ndisks++];
		memset(d, 0, sizeof(*d));
		d->host = cv_text(s, 0);
		d->device = cv_text(s, 1);
		d->reads = cv_count(s, 2);
		d->writes = cv_count(s, 3);
		d->read_sectors = cv_count(s, 4);
		d->write_sectors = cv_count(s, 5);
		d->io_ticks_ms = cv_count(s, 6);
		d->role = host_role(v, d->host);
		any_target |= d->role && !strcmp(d->role, "target");
	}
	if (rc != SQLITE_DONE)
		return cv_fail(err, L->db, "cannot read disk figures");
	/* The target hosts are those with a cpu row of role target, whether or not they have disk rows. */
	for (size_t i = 0; i < v->ncpu; i++)
		any_target |= strcmp(v->cpu[i].host, "*") && !strcmp(v->cpu[i].role, "target");

	s = L->q[CQ_FRONT];
	sqlite3_reset(s);
	sqlite3_bind_int64(s, 1, run_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(s, 0);
		double ios = (double)cv_count(s, 1);

		if (d && !strcmp(d, "total")) {
			total = ios;
		} else {
			dirs += ios;
			have_dirs = 1;
		}
	}
	if (rc != SQLITE_DONE)
		return cv_fail(err, L->db, "cannot read the front-end IOs");
	v->front_end_ios = !isnan(total) ? total : have_dirs ? dirs : NAN;

	v->scope = !v->ndisks ? CPUVIEW_SCOPE_NONE : any_target ? CPUVIEW_SCOPE_TARGET : CPUVIEW_SCOPE_ALL;
	for (size_t i = 0; i < v->ndisks; i++) {
		struct cpuview_disk *d = &v->disks[i];

		d->counted = v->scope == CPUVIEW_SCOPE_ALL || (d->role && !strcmp(d->role, "target"));
		if (d->counted)
			v->device_ios += d->reads + d->writes;
	}
	v->amplification = v->scope != CPUVIEW_SCOPE_NONE && v->front_end_ios > 0 ?
				   (double)v->device_ios / v->front_end_ios : NAN;
	return 0;
}

int cpuview_load_run(struct cpuview_loader *L, struct rep_run *r, int detail, struct errbuf *err)
{
	if (load_target(L, r, err) < 0)
		return -1;
	if (!detail)
		return 0;
	cpuview_run_free(r->cpuview);
	r->cpuview = xcalloc(1, sizeof(*r->cpuview));
	if (load_detail(L, r->id, r->cpuview, err) < 0) {
		cpuview_run_free(r->cpuview);
		r->cpuview = NULL;
		return -1;
	}
	return 0;
}

/* ---- text tables ------------------------------------------------------------------------------- */

struct cell_list {
	char **v;
	size_t n, cap;
};

static void add_cell(struct cell_list *c, const char *s)
{
	ARRAY_GROW(c->v, c->cap, c->n + 1);
	c->v[c->n++] = xstrdup(s);
}

static void add_num(struct cell_list *c, double v, int decimals)
{
	struct strbuf sb;

	strbuf_init(&sb);
	render_num(&sb, v, decimals);
	add_cell(c, sb.buf);
	strbuf_release(&sb);
}

static void add_u64(struct cell_list *c, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	add_cell(c, buf);
}

static void add_run_id(struct cell_list *c, const struct rep_run *r)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)r->id);
	add_cell(c, buf);
}

static void table_start(struct cpuview_table *t, struct cell_list *c, const char *title, const char *const *hdr,
			size_t ncols, unsigned right_mask)
{
	memset(t, 0, sizeof(*t));
	memset(c, 0, sizeof(*c));
	t->title = title;
	t->ncols = ncols;
	t->right_mask = right_mask;
	for (size_t k = 0; k < ncols; k++)
		add_cell(c, hdr[k]);
}

static void table_end(struct cpuview_table *t, struct cell_list *c)
{
	t->cells = c->v;
	t->nrows = c->n / t->ncols;
}

void cpuview_tables(struct cpuview_table t[3], const struct rep_run *runs, size_t nruns)
{
	static const char *const h_cpu[] = { "run", "role", "host", "source", "cores", "util %", "CPU us/IO" };
	static const char *const h_disk[] = { "run", "host", "role", "device", "reads", "writes", "counted" };
	static const char *const h_amp[] = { "run", "front-end IOs", "device IOs", "devices of",
					     "IO amplification" };
	struct cell_list c;

	table_start(&t[0], &c, "CPU", h_cpu, 7, 1u << 4 | 1u << 5 | 1u << 6);
	for (size_t i = 0; i < nruns; i++) {
		const struct cpuview_run *v = runs[i].cpuview;

		for (size_t k = 0; v && k < v->ncpu; k++) {
			const struct cpuview_cpu *x = &v->cpu[k];

			add_run_id(&c, &runs[i]);
			add_cell(&c, x->role);
			add_cell(&c, !strcmp(x->host, "*") ? "* (cluster)" : x->host);
			add_cell(&c, x->source);
			add_num(&c, x->cores > 0 ? x->cores : NAN, 0);
			add_num(&c, x->util_pct, 1);
			add_num(&c, x->cpu_us_per_io, 2);
		}
	}
	table_end(&t[0], &c);

	table_start(&t[1], &c, "Disks", h_disk, 7, 1u << 4 | 1u << 5);
	for (size_t i = 0; i < nruns; i++) {
		const struct cpuview_run *v = runs[i].cpuview;

		for (size_t k = 0; v && k < v->ndisks; k++) {
			const struct cpuview_disk *d = &v->disks[k];

			add_run_id(&c, &runs[i]);
			add_cell(&c, d->host);
			add_cell(&c, d->role ? d->role : "-");
			add_cell(&c, d->device);
			add_u64(&c, d->reads);
			add_u64(&c, d->writes);
			add_cell(&c, d->counted ? "yes" : "no");
		}
	}
	table_end(&t[1], &c);

	table_start(&t[2], &c, "IO amplification", h_amp, 5, 1u << 1 | 1u << 2 | 1u << 4);
	for (size_t i = 0; i < nruns; i++) {
		const struct cpuview_run *v = runs[i].cpuview;

		if (!v || v->scope == CPUVIEW_SCOPE_NONE)
			continue;
		add_run_id(&c, &runs[i]);
		add_num(&c, v->front_end_ios, 0);
		add_u64(&c, v->device_ios);
		add_cell(&c, v->scope == CPUVIEW_SCOPE_TARGET ? "target hosts" : "all hosts (no target)");
		add_num(&c, v->amplification, 2);
	}
	table_end(&t[2], &c);
}

void cpuview_table_release(struct cpuview_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* ---- JSON ----------------------------------------------------------------------------------------- */

void cpuview_json(struct strbuf *out, const struct cpuview_run *v)
{
	if (!v) {
		strbuf_adds(out, "null");
		return;
	}
	strbuf_adds(out, "{\"cpu\":[");
	for (size_t i = 0; i < v->ncpu; i++) {
		const struct cpuview_cpu *x = &v->cpu[i];

		strbuf_adds(out, i ? ",{\"host\":" : "{\"host\":");
		esc_json(out, x->host);
		strbuf_adds(out, ",\"role\":");
		esc_json(out, x->role);
		strbuf_adds(out, ",\"source\":");
		esc_json(out, x->source);
		strbuf_adds(out, ",\"cores\":");
		if (x->cores > 0)
			strbuf_addf(out, "%d", x->cores);
		else
			strbuf_adds(out, "null");
		strbuf_adds(out, ",\"util_pct\":");
		render_exact(out, x->util_pct, "null");
		strbuf_adds(out, ",\"cpu_us_per_io\":");
		render_exact(out, x->cpu_us_per_io, "null");
		for (int k = 0; k < 8; k++) {
			strbuf_addf(out, ",\"%s\":", cpuview_share_keys[k]);
			render_exact(out, x->share_pct[k], "null");
		}
		strbuf_addc(out, '}');
	}
	strbuf_adds(out, "],\"disks\":[");
	for (size_t i = 0; i < v->ndisks; i++) {
		const struct cpuview_disk *d = &v->disks[i];

		strbuf_adds(out, i ? ",{\"host\":" : "{\"host\":");
		esc_json(out, d->host);
		strbuf_adds(out, ",\"device\":");
		esc_json(out, d->device);
		strbuf_adds(out, ",\"role\":");
		if (d->role)
			esc_json(out, d->role);
		else
			strbuf_adds(out, "null");
		strbuf_addf(out, ",\"reads\":%llu,\"writes\":%llu,\"read_sectors\":%llu,\"write_sectors\":%llu,"
				 "\"io_ticks_ms\":%llu,\"counted\":%s}",
			    (unsigned long long)d->reads, (unsigned long long)d->writes,
			    (unsigned long long)d->read_sectors, (unsigned long long)d->write_sectors,
			    (unsigned long long)d->io_ticks_ms, d->counted ? "true" : "false");
	}
	strbuf_adds(out, "],\"front_end_ios\":");
	render_exact(out, v->front_end_ios, "null");
	strbuf_addf(out, ",\"device_ios\":%llu,\"devices_of\":", (unsigned long long)v->device_ios);
	strbuf_adds(out, v->scope == CPUVIEW_SCOPE_TARGET ? "\"target\"" :
			 v->scope == CPUVIEW_SCOPE_ALL ? "\"all\"" : "null");
	strbuf_adds(out, ",\"io_amplification\":");
	render_exact(out, v->amplification, "null");
	strbuf_addc(out, '}');
}
