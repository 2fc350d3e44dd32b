/*
 * explain_render: `bench report --explain` (explain_render.h). Every row of the report's table (or every
 * value's row of each comparison row) gets the verdict of report/analysis/explain.c for its representative
 * run (the repetition whose IOPS is the row's median), rendered as text, Markdown, CSV, JSON (the evidence
 * of every rule that had its figures) or an HTML section (explain_render_html_section, for the HTML page).
 */
#include "report/format/explain_render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/analysis/explain.h"
#include "report/cpuview.h"
#include "report/load.h"
#include "report/text/escape.h"
#include "report/text/numfmt.h"

/* One verdict to render. */
struct xitem {
	const char *group;        /* the block's title */
	const char *workload;     /* the row's workload name */
	const char *value;        /* the compared value (--compare), or NULL */
	const struct rep_run *run; /* the representative run */
	struct explain_verdict v;
};

struct xlist {
	struct xitem *v;
	size_t n, cap;
};

/* The repetition whose IOPS is closest to the row's median (the first one when none has IOPS). */
static const struct rep_run *row_run(const struct rep_row *row)
{
	const struct rep_run *best = row->nruns ? row->runs[0] : NULL;
	double d = INFINITY;

	for (size_t i = 0; i < row->nruns; i++) {
		double x = fabs(row->runs[i]->fig.iops[DDIR_TOTAL] - row->c[RM_IOPS].med);

		if (x < d) {
			d = x;
			best = row->runs[i];
		}
	}
	return best;
}

static void add_row(struct store *st, struct xlist *l, const char *group, const char *value,
		    const struct rep_row *row, const struct rep_set *base)
{
	struct xitem *it;
	const struct rep_run *r = row_run(row);
	struct cpuview_run *disks;
	int owned = 0;

	if (!r)
		return;
	it = array_push_zeroed((void **)&l->v, &l->cap, &l->n, sizeof(*l->v));
	it->group = group;
	it->workload = row->name;
	it->value = value;
	it->run = r;
	disks = rep_run_disks(st, r, &owned); /* the member ops it did (its disk rows) */
	explain_run(r, base, disks, &it->v);
	if (owned)
		cpuview_run_free(disks);
}

static void collect(struct store *st, struct xlist *l, const struct rep_table *table, const struct cmp_table *cmp,
		    const struct rep_set *base)
{
	if (cmp) {
		for (size_t g = 0; g < cmp->n; g++)
			for (size_t i = 0; i < cmp->v[g].n; i++)
				for (size_t k = 0; k < cmp->nvals; k++)
					if (cmp->v[g].rows[i].at[k])
						add_row(st, l, cmp->v[g].title, cmp->vals[k], cmp->v[g].rows[i].at[k],
						base);
		return;
	}
	for (size_t g = 0; table && g < table->n; g++)
		for (size_t i = 0; i < table->v[g].n; i++)
			add_row(st, l, table->v[g].title, NULL, &table->v[g].rows[i], base);
}

/* ---- formats ------------------------------------------------------------------------------------------ */

static void text_item(struct strbuf *out, const struct xitem *it, const char *last_group)
{
	if (!last_group || strcmp(last_group, it->group)) {
		strbuf_adds(out, "-- ");
		esc_text(out, it->group);
		strbuf_addc(out, '\n');
	}
	strbuf_adds(out, "  ");
	esc_text(out, it->workload);
	if (it->value) {
		strbuf_adds(out, " [");
		esc_text(out, it->value);
		strbuf_addc(out, ']');
	}
	strbuf_addf(out, " (run %lld): limited by: %s; measured ", (long long)it->run->id,
		    explain_limit_title(it->v.limit));
	render_num(out, it->v.measured_iops, 0);
	strbuf_adds(out, " IOPS, ceiling ");
	render_num(out, it->v.ceiling_iops, 0);
	strbuf_adds(out, " (");
	render_num(out, it->v.pct, 1);
	strbuf_adds(out, " %)\n      ");
	esc_text(out, it->v.evidence);
	strbuf_addc(out, '\n');
}

static void md_item(struct strbuf *out, const struct xitem *it)
{
	strbuf_adds(out, "| ");
	esc_markdown(out, it->group);
	strbuf_adds(out, " | ");
	esc_markdown(out, it->workload);
	strbuf_adds(out, " | ");
	esc_markdown(out, it->value ? it->value : "");
	strbuf_adds(out, " | ");
	render_num(out, it->v.measured_iops, 0);
	strbuf_adds(out, " | ");
	render_num(out, it->v.ceiling_iops, 0);
	strbuf_adds(out, " | ");
	render_num(out, it->v.pct, 1);
	strbuf_addf(out, " | %s | ", explain_limit_title(it->v.limit));
	esc_markdown(out, it->v.evidence);
	strbuf_adds(out, " |\n");
}

static void csv_item(struct strbuf *out, const struct xitem *it)
{
	esc_csv(out, it->group);
	strbuf_addc(out, ',');
	esc_csv(out, it->workload);
	strbuf_addc(out, ',');
	esc_csv(out, it->value ? it->value : "");
	strbuf_addf(out, ",%lld,", (long long)it->run->id);
	render_exact(out, it->v.measured_iops, "");
	strbuf_addc(out, ',');
	render_exact(out, it->v.ceiling_iops, "");
	strbuf_addc(out, ',');
	render_exact(out, it->v.pct, "");
	strbuf_addf(out, ",%s,", explain_limit_key(it->v.limit));
	esc_csv(out, it->v.evidence);
	strbuf_addc(out, '\n');
}

static void json_num(cJSON *o, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, v);
}

static cJSON *json_item(const struct xitem *it)
{
	cJSON *o = cJSON_CreateObject(), *checks = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "group", it->group);
	cJSON_AddStringToObject(o, "workload", it->workload);
	if (it->value)
		cJSON_AddStringToObject(o, "value", it->value);
	cJSON_AddNumberToObject(o, "run", (double)it->run->id);
	json_num(o, "measured_iops", it->v.measured_iops);
	json_num(o, "ceiling_iops", it->v.ceiling_iops);
	json_num(o, "pct_of_ceiling", it->v.pct);
	cJSON_AddStringToObject(o, "limited_by", explain_limit_key(it->v.limit));
	cJSON_AddStringToObject(o, "evidence", it->v.evidence);
	for (size_t i = 0; i < it->v.nchecks; i++) {
		const struct explain_check *c = &it->v.checks[i];
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "limit", explain_limit_key(c->limit));
		json_num(x, "ceiling_iops", c->ceiling_iops);
		json_num(x, "pct", c->pct);
		cJSON_AddStringToObject(x, "evidence", c->evidence);
		if (c->nruns) { /* the stored runs (baselines) the ceiling comes from */
			cJSON *runs = cJSON_AddArrayToObject(x, "baseline_runs");

			for (size_t k = 0; k < c->nruns; k++)
				cJSON_AddItemToArray(runs, cJSON_CreateNumber((double)c->runs[k]));
		}
		cJSON_AddItemToArray(checks, x);
	}
	cJSON_AddItemToObject(o, "checks", checks);
	return o;
}

/* The object on one line after the report's own (one JSON document per line, as the report writes its own). */
static void json_line(struct strbuf *out, cJSON *root)
{
	char *text = cJSON_PrintUnformatted(root);

	if (text) {
		strbuf_adds(out, text);
		strbuf_addc(out, '\n');
		cJSON_free(text);
	}
	cJSON_Delete(root);
}

static void html_items(struct strbuf *out, const struct xlist *l)
{
	strbuf_adds(out, "<section class=\"explain\">\n<h2>What limited each result</h2>\n<table>\n<thead><tr>"
			 "<th>group</th><th>workload</th><th>value</th><th>IOPS</th><th>ceiling</th><th>% of ceiling"
			 "</th><th>limited by</th><th>evidence</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < l->n; i++) {
		const struct xitem *it = &l->v[i];

		strbuf_adds(out, "<tr><td>");
		esc_html(out, it->group);
		strbuf_adds(out, "</td><td>");
		esc_html(out, it->workload);
		strbuf_adds(out, "</td><td>");
		esc_html(out, it->value ? it->value : "");
		strbuf_adds(out, "</td><td>");
		render_num(out, it->v.measured_iops, 0);
		strbuf_adds(out, "</td><td>");
		render_num(out, it->v.ceiling_iops, 0);
		strbuf_adds(out, "</td><td>");
		render_num(out, it->v.pct, 1);
		strbuf_addf(out, "</td><td class=\"limit-%s\">%s</td><td>", explain_limit_key(it->v.limit),
			    explain_limit_title(it->v.limit));
		esc_html(out, it->v.evidence);
		strbuf_adds(out, "</td></tr>\n");
	}
	strbuf_adds(out, "</tbody>\n</table>\n</section>\n");
}

static void render_list(struct strbuf *out, const struct xlist *l, enum rep_format format)
{
	const char *last = NULL;
	cJSON *root, *arr;

	switch (format) {
	case FMT_TEXT:
		strbuf_adds(out, "\nexplain: ceiling, % of it and what limited each row (docs/explain.md)\n");
		for (size_t i = 0; i < l->n; last = l->v[i].group, i++)
			text_item(out, &l->v[i], last);
		break;
	case FMT_MARKDOWN:
		strbuf_adds(out, "\n## What limited each result\n\n| group | workload | value | IOPS | ceiling | % of ceiling "
				 "| limited by | evidence |\n|---|---|---|---:|---:|---:|---|---|\n");
		for (size_t i = 0; i < l->n; i++)
			md_item(out, &l->v[i]);
		break;
	case FMT_CSV:
		strbuf_adds(out, "\ngroup,workload,value,run,measured_iops,ceiling_iops,pct_of_ceiling,limited_by,evidence\n");
		for (size_t i = 0; i < l->n; i++)
			csv_item(out, &l->v[i]);
		break;
	case FMT_JSON:
		root = cJSON_CreateObject();
		arr = cJSON_AddArrayToObject(root, "explain");
		for (size_t i = 0; i < l->n; i++)
			cJSON_AddItemToArray(arr, json_item(&l->v[i]));
		json_line(out, root);
		break;
	case FMT_HTML:
		html_items(out, l);
		break;
	}
}

/* The stored member baselines (runs labelled phase=baseline), whatever the report's --where; none when no run
 * has a 'phase' label (the selection's "no such label" is no error here). */
static int load_baselines(struct store *st, struct rep_set *base, struct errbuf *err)
{
	struct kvlist where;
	struct errbuf e;
	int ret = 0;

	kvlist_init(&where);
	errbuf_init(&e);
	rep_set_init(base);
	if (st && rep_where_add(&where, "phase=baseline", &e) == 0 && report_load(st, &where, 0, base, &e) < 0) {
		rep_set_release(base);
		rep_set_init(base);
		if (e.kind != ERR_INPUT) {
			*err = e;
			ret = -1;
		}
	}
	kvlist_release(&where);
	return ret;
}

int explain_render_html_section(struct strbuf *out, struct store *st, const struct rep_table *table,
				const struct cmp_table *cmp, struct errbuf *err)
{
	struct xlist l = { 0 };
	struct rep_set base;

	if (load_baselines(st, &base, err) < 0) {
		rep_set_release(&base);
		return -1;
	}
	collect(st, &l, table, cmp, &base);
	html_items(out, &l);
	free(l.v);
	rep_set_release(&base);
	return 0;
}

int explain_render(struct strbuf *out, struct store *st, const struct rep_set *set, const struct rep_table *table,
		   const struct cmp_table *cmp, enum rep_format format, struct errbuf *err)
{
	struct xlist l = { 0 };
	struct rep_set base;

	(void)set; /* the rows are the table's (or the comparison's); the baselines are read whatever --where says */
	if (load_baselines(st, &base, err) < 0) {
		rep_set_release(&base);
		return -1;
	}
	collect(st, &l, table, cmp, &base);
	render_list(out, &l, format);
	free(l.v);
	rep_set_release(&base);
	return 0;
}
