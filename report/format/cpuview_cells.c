/*
 * cpuview_cells: the "CPU", "Disks" and "IO amplification" tables of `bench report -v` as formatted cells
 * (cpuview_cells.h), built from the figures of cpuview.h; render.c lays them out.
 */
#include "report/format/cpuview_cells.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cpuview.h"
#include "report/text/numfmt.h"
#include "report/load.h"
#include "report/strlist.h"

static void add_num(struct strlist *c, double v, int decimals)
{
	struct strbuf sb;

	strbuf_init(&sb);
	render_num(&sb, v, decimals);
	strlist_add(c, sb.buf);
	strbuf_release(&sb);
}

static void add_u64(struct strlist *c, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	strlist_add(c, buf);
}

static void add_run_id(struct strlist *c, const struct rep_run *r)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)r->id);
	strlist_add(c, buf);
}

static void table_start(struct cpuview_table *t, struct strlist *c, const char *title, const char *const *hdr,
			size_t ncols, unsigned right_mask)
{
	memset(t, 0, sizeof(*t));
	memset(c, 0, sizeof(*c));
	t->title = title;
	t->ncols = ncols;
	t->right_mask = right_mask;
	for (size_t k = 0; k < ncols; k++)
		strlist_add(c, hdr[k]);
}

static void table_end(struct cpuview_table *t, struct strlist *c)
{
	t->cells = c->v;
	t->nrows = c->n / t->ncols;
}

static void cpu_rows(struct strlist *c, const struct rep_run *r)
{
	for (size_t k = 0; r->cpuview && k < r->cpuview->ncpu; k++) {
		const struct store_cpu *x = &r->cpuview->cpu[k];

		add_run_id(c, r);
		strlist_add(c, x->role);
		strlist_add(c, !strcmp(x->host, "*") ? "* (cluster)" : x->host);
		strlist_add(c, x->source);
		add_num(c, x->cores > 0 ? x->cores : NAN, 0);
		add_num(c, x->util_pct, 1);
		add_num(c, x->cpu_us_per_io, 2);
	}
}

static void disk_rows(struct strlist *c, const struct rep_run *r)
{
	for (size_t k = 0; r->cpuview && k < r->cpuview->ndisks; k++) {
		const struct cpuview_disk *d = &r->cpuview->disks[k];

		add_run_id(c, r);
		strlist_add(c, d->host);
		strlist_add(c, d->role ? d->role : "-");
		strlist_add(c, d->device);
		add_u64(c, d->reads);
		add_u64(c, d->writes);
		strlist_add(c, d->counted ? "yes" : "no");
	}
}

static void amplification_row(struct strlist *c, const struct rep_run *r)
{
	const struct cpuview_run *v = r->cpuview;

	if (!v || v->scope == CPUVIEW_SCOPE_NONE)
		return;
	add_run_id(c, r);
	add_num(c, v->front_end_ios, 0);
	add_u64(c, v->device_ios);
	strlist_add(c, v->scope == CPUVIEW_SCOPE_TARGET ? "target hosts" :
		       v->scope == CPUVIEW_SCOPE_DEVICES ? "members/targets" : "all hosts (no target)");
	add_num(c, v->amplification, 2);
}

void cpuview_tables(struct cpuview_table t[3], const struct rep_run *runs, size_t nruns)
{
	static const char *const h_cpu[] = { "run", "role", "host", "source", "cores", "util %", "CPU us/IO" };
	static const char *const h_disk[] = { "run", "host", "role", "device", "reads", "writes", "counted" };
	static const char *const h_amp[] = { "run", "front-end IOs", "device IOs", "devices of",
					     "IO amplification" };
	static const struct {
		const char *title;
		const char *const *hdr;
		size_t ncols;
		unsigned right_mask;
		void (*rows)(struct strlist *c, const struct rep_run *r);
	} tables[3] = {
		{ "CPU", h_cpu, 7, 1u << 4 | 1u << 5 | 1u << 6, cpu_rows },
		{ "Disks", h_disk, 7, 1u << 4 | 1u << 5, disk_rows },
		{ "IO amplification", h_amp, 5, 1u << 1 | 1u << 2 | 1u << 4, amplification_row },
	};
	struct strlist c;

	for (int k = 0; k < 3; k++) {
		table_start(&t[k], &c, tables[k].title, tables[k].hdr, tables[k].ncols, tables[k].right_mask);
		for (size_t i = 0; i < nruns; i++)
			tables[k].rows(&c, &runs[i]);
		table_end(&t[k], &c);
	}
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
