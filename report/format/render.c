/*
 * render: text, Markdown, CSV and JSON forms of the raw-data table and the ratio table (render.h).
 * Text and Markdown are laid out from one grid of cells (aligned columns, or a pipe table); CSV and JSON
 * are written directly with full-precision numbers.
 */
#include "report/format/render.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "report/format/cpuview_cells.h"
#include "report/format/cpuview_json.h"
#include "report/text/escape.h"

/* Order of the ratio columns, as storage articles print them. */
static const enum rep_metric ratio_order[RM_NR] = { RM_IOPS, RM_MBPS, RM_RLAT, RM_WLAT, RM_RP99, RM_WP99, RM_CPU };
static const char *const ratio_titles[RM_NR] = {
	[RM_IOPS] = "IOPS", [RM_MBPS] = "MiB/s", [RM_CPU] = "CPU", [RM_RLAT] = "read lat",
	[RM_WLAT] = "write lat", [RM_RP99] = "read p99", [RM_WP99] = "write p99",
};

int rep_format_parse(const char *s, enum rep_format *out)
{
	static const struct { const char *name; enum rep_format f; } names[] = {
		{ "text", FMT_TEXT }, { "csv", FMT_CSV }, { "json", FMT_JSON },
		{ "markdown", FMT_MARKDOWN }, { "md", FMT_MARKDOWN }, { "html", FMT_HTML },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name)) {
			*out = names[i].f;
			return 0;
		}
	return -1;
}

void render_cell(struct strbuf *out, const struct rep_cell *c, int decimals)
{
	/* [lo-hi] only when the interval is narrower than min-max (n >= 6); below it is min-max */
	int narrow = c->n >= 3 && (c->lo != c->min || c->hi != c->max);

	render_num(out, c->n ? c->med : NAN, decimals);
	if (c->n > 1 && c->min != c->max) {
		strbuf_adds(out, narrow ? " [" : " (");
		render_num(out, narrow ? c->lo : c->min, decimals);
		strbuf_addc(out, '-');
		render_num(out, narrow ? c->hi : c->max, decimals);
		strbuf_addc(out, narrow ? ']' : ')');
	}
}

void render_row_marks(struct strbuf *sb, const struct rep_row *row)
{
	if (row->single)
		strbuf_adds(sb, sb->len ? " n=1" : "n=1");
	if (row->short_run)
		strbuf_adds(sb, sb->len ? " short" : "short");
}

void render_marks_note(struct strbuf *out, int single, int short_run)
{
	if (single)
		strbuf_adds(out, "n=1: one run, no spread: repeat it (--repeat 3 or more) before reading a difference "
				 "into it.\n");
	if (short_run)
		strbuf_addf(out, "short: measured for less than %d s (a --quick run): a smoke test, not a result.\n",
			    REP_MIN_RUNTIME_S);
}

/* Lines of text escaped one by one for text or Markdown (the newlines kept). */
static void esc_lines(struct strbuf *out, const char *text, enum rep_format f)
{
	for (const char *p = text; *p;) {
		size_t l = strcspn(p, "\n");
		char *line = xstrndup(p, l);
		if (f == FMT_MARKDOWN)
			esc_markdown(out, line);
		else
			esc_text(out, line);
		free(line);
		p += l;
		if (*p == '\n') {
			strbuf_addc(out, '\n');
			p++;
		}
	}
}

/* The labels that split rows a --by would have folded (rep_table.split), one sentence, unescaped. */
static void split_note(struct strbuf *out, const struct kvlist *split)
{
	if (!split->n)
		return;
	strbuf_adds(out, "Rows split by label");
	strbuf_adds(out, split->n > 1 ? "s " : " ");
	for (size_t i = 0; i < split->n; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", split->v[i].key);
	strbuf_adds(out, ": runs with different values of a label outside --by are never folded into one figure "
			 "(add it to --by to make it a group).\n");
}

/* ---- grid: rows of cells laid out as aligned text or a Markdown table ------------------------------ */

void rgrid_init(struct rgrid *g, size_t ncols)
{
	memset(g, 0, sizeof(*g));
	g->ncols = ncols;
}

void rgrid_release(struct rgrid *g)
{
	for (size_t i = 0; i < g->nrows * g->ncols; i++)
		free(g->c[i].s);
	free(g->c);
}

void rgrid_row(struct rgrid *g)
{
	ARRAY_GROW(g->c, g->cap, (g->nrows + 1) * g->ncols);
	memset(&g->c[g->nrows * g->ncols], 0, g->ncols * sizeof(*g->c));
	g->nrows++;
}

/* Sets a cell of the last row from raw text, escaping it for the format. */
void rgrid_set(struct rgrid *g, size_t col, const char *raw, enum rep_format f, const char *ansi)
{
	struct strbuf sb;
	struct rgcell *c = &g->c[(g->nrows - 1) * g->ncols + col];

	strbuf_init(&sb);
	if (f == FMT_HTML)
		esc_html(&sb, raw);
	else if (f == FMT_MARKDOWN)
		esc_markdown(&sb, raw);
	else
		esc_text(&sb, raw);
	free(c->s);
	c->s = strbuf_detach(&sb, NULL);
	c->ansi = ansi;
}

static size_t disp_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* The grid as an HTML table (the first row the header; right-aligned columns of class "n"). */
static void rgrid_html(struct strbuf *out, const struct rgrid *g)
{
	strbuf_adds(out, "<div class=\"scroll\"><table>\n");
	for (size_t r = 0; r < g->nrows; r++) {
		strbuf_adds(out, r ? "<tr>" : "<thead><tr>");
		for (size_t k = 0; k < g->ncols; k++) {
			const char *s = g->c[r * g->ncols + k].s;
			int right = k < sizeof(g->right) && g->right[k];

			strbuf_addf(out, "<%s%s>%s</%s>", r ? "td" : "th", right ? " class=\"n\"" : "", s ? s : "",
				    r ? "td" : "th");
		}
		strbuf_adds(out, r ? "</tr>\n" : "</tr></thead>\n<tbody>\n");
	}
	strbuf_adds(out, "</tbody></table></div>\n");
}

void rgrid_num(struct rgrid *g, size_t col, double v, int decimals, enum rep_format f)
{
	struct strbuf sb;

	strbuf_init(&sb);
	render_num(&sb, v, decimals);
	rgrid_set(g, col, sb.buf, f, NULL);
	strbuf_release(&sb);
}

void rgrid_print(struct strbuf *out, const struct rgrid *g, enum rep_format f, int color)
{
	size_t *w;

	if (f == FMT_HTML) {
		rgrid_html(out, g);
		return;
	}
	w = xcalloc(g->ncols, sizeof(*w));

	for (size_t r = 0; r < g->nrows; r++)
		for (size_t k = 0; k < g->ncols; k++) {
			const char *s = g->c[r * g->ncols + k].s;
			size_t x = s ? disp_width(s) : 0;
			if (x > w[k])
				w[k] = x;
		}
	for (size_t r = 0; r < g->nrows; r++) {
		if (f == FMT_MARKDOWN)
			strbuf_adds(out, "|");
		else
			strbuf_adds(out, "  ");
		for (size_t k = 0; k < g->ncols; k++) {
			const struct rgcell *c = &g->c[r * g->ncols + k];
			const char *s = c->s ? c->s : "";
			size_t pad = w[k] - disp_width(s);
			int right = k < sizeof(g->right) && g->right[k];

			if (f == FMT_MARKDOWN) {
				strbuf_addf(out, " %s |", s);
				continue;
			}
			if (k)
				strbuf_adds(out, "  ");
			if (right)
				for (size_t p = 0; p < pad; p++)
					strbuf_addc(out, ' ');
			if (color && c->ansi)
				strbuf_addf(out, "\033[%sm%s\033[0m", c->ansi, s);
			else
				strbuf_adds(out, s);
			if (!right && k + 1 < g->ncols)
				for (size_t p = 0; p < pad; p++)
					strbuf_addc(out, ' ');
		}
		/* trailing blanks of a left-aligned last column are not printed */
		while (f != FMT_MARKDOWN && out->len && out->buf[out->len - 1] == ' ')
			out->buf[--out->len] = '\0';
		strbuf_addc(out, '\n');
		if (f == FMT_MARKDOWN && r == 0) {
			strbuf_adds(out, "|");
			for (size_t k = 0; k < g->ncols; k++)
				strbuf_adds(out, k < sizeof(g->right) && g->right[k] ? " ---: |" : " --- |");
			strbuf_addc(out, '\n');
		}
	}
	free(w);
}

void render_heading(struct strbuf *out, enum rep_format f, int level, const char *raw)
{
	if (f == FMT_HTML) {
		strbuf_addf(out, "<h%d>", level + 1);
		esc_html(out, raw);
		strbuf_addf(out, "</h%d>\n", level + 1);
	} else if (f == FMT_MARKDOWN) {
		strbuf_addf(out, "%.*s ", level, "####");
		esc_markdown(out, raw);
		strbuf_adds(out, "\n\n");
	} else {
		strbuf_adds(out, level <= 2 ? "== " : "-- ");
		esc_text(out, raw);
		strbuf_addc(out, '\n');
	}
}

void rgrid_section(struct strbuf *out, enum rep_format f, const char *title, struct rgrid *g,
		   const char *const *hdr, size_t ncols)
{
	render_heading(out, f, 2, title);
	if (f == FMT_MARKDOWN)
		strbuf_addc(out, '\n');
	rgrid_init(g, ncols);
	rgrid_row(g);
	for (size_t k = 0; k < ncols; k++)
		rgrid_set(g, k, hdr[k], f, NULL);
}

/* Starts a row of g with the run's id in column 0 (sb: scratch). */
static void grid_run_row(struct rgrid *g, struct strbuf *sb, const struct rep_run *r, enum rep_format f)
{
	rgrid_row(g);
	strbuf_reset(sb);
	strbuf_addf(sb, "%lld", (long long)r->id);
	rgrid_set(g, 0, sb->buf, f, NULL);
}

/* ---- raw-data table ---------------------------------------------------------------------------- */

/* Whether a run of the table has cpu rows of role target: only then the table has a target CPU column. */
static int table_has_target_cpu(const struct rep_table *t)
{
	for (size_t gi = 0; gi < t->n; gi++)
		for (size_t ri = 0; ri < t->v[gi].n; ri++)
			for (size_t k = 0; k < t->v[gi].rows[ri].nruns; k++)
				if (t->v[gi].rows[ri].runs[k]->has_target_cpu)
					return 1;
	return 0;
}

/* The target CPU % of the repetitions of a row: median (min-max). */
static void target_cpu_cell(struct rep_cell *c, const struct rep_row *row)
{
	double *v = xcalloc(row->nruns ? row->nruns : 1, sizeof(*v));

	for (size_t k = 0; k < row->nruns; k++)
		v[k] = row->runs[k]->target_cpu_pct;
	rep_cell_fill(c, v, row->nruns);
	free(v);
}

/* Column of metric m in the text table: the target CPU column, when there is one, follows CPU %. */
static size_t metric_col(int m, int tcpu)
{
	return 2 + (size_t)m + (tcpu && m > RM_CPU);
}

static void table_text(struct strbuf *out, const struct rep_table *t, enum rep_format f)
{
	int any_partial = 0, any_single = 0, any_short = 0, tcpu = table_has_target_cpu(t);
	const size_t tcol = 2 + RM_CPU + 1, ncol = 3 + RM_NR + (size_t)tcpu;

	if (f == FMT_MARKDOWN)
		strbuf_adds(out, "## Results\n\n");
	if (!t->n)
		strbuf_adds(out, f == FMT_MARKDOWN ? "No finished runs in the selection.\n" :
						     "no finished runs in the selection\n");
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct rep_group *g = &t->v[gi];
		struct rgrid grid;
		struct strbuf sb;

		render_heading(out, f, 3, g->title);
		rgrid_init(&grid, 3 + RM_NR + (size_t)tcpu);
		rgrid_row(&grid);
		rgrid_set(&grid, 0, "workload", f, NULL);
		rgrid_set(&grid, 1, "runs", f, NULL);
		grid.right[1] = 1;
		for (int m = 0; m < RM_NR; m++) {
			rgrid_set(&grid, metric_col(m, tcpu), rep_metrics[m].title, f, NULL);
			grid.right[metric_col(m, tcpu)] = 1;
		}
		if (tcpu) {
			rgrid_set(&grid, tcol, "target CPU %", f, NULL);
			grid.right[tcol] = 1;
		}
		rgrid_set(&grid, ncol - 1, f == FMT_MARKDOWN ? "note" : "", f, NULL);
		strbuf_init(&sb);
		for (size_t ri = 0; ri < g->n; ri++) {
			const struct rep_row *row = &g->rows[ri];

			rgrid_row(&grid);
			strbuf_reset(&sb);
			strbuf_adds(&sb, row->name);
			if (row->partial)
				strbuf_adds(&sb, " (partial)");
			any_partial |= row->partial;
			any_single |= row->single;
			any_short |= row->short_run;
			rgrid_set(&grid, 0, sb.buf, f, NULL);
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%zu", row->nruns);
			rgrid_set(&grid, 1, sb.buf, f, NULL);
			for (int m = 0; m < RM_NR; m++) {
				strbuf_reset(&sb);
				render_cell(&sb, &row->c[m], rep_metrics[m].decimals);
				rgrid_set(&grid, metric_col(m, tcpu), sb.buf, f, NULL);
			}
			if (tcpu) {
				struct rep_cell tc;
				target_cpu_cell(&tc, row);
				strbuf_reset(&sb);
				render_cell(&sb, &tc, rep_metrics[RM_CPU].decimals);
				rgrid_set(&grid, tcol, sb.buf, f, NULL);
			}
			strbuf_reset(&sb);
			render_row_marks(&sb, row);
			rgrid_set(&grid, ncol - 1, sb.buf, f, sb.len ? "2" : NULL);
		}
		strbuf_release(&sb);
		rgrid_print(out, &grid, f, 0);
		rgrid_release(&grid);
		strbuf_addc(out, '\n');
	}
	if (any_partial)
		strbuf_adds(out, "(partial): some hosts of the run failed; figures are those of the hosts that "
				 "finished.\n");
	if (t->n)
		strbuf_adds(out, "runs: n, the runs behind each figure. Several runs of a workload: median (min-max) "
				 "below n = 6, median [95 % interval of the median] from n = 6 (docs/report.md). "
				 "Latency is the mean, p99 the 99th percentile, in ms; MiB/s is 1,048,576 bytes per "
				 "second.\n");
	if (t->n) {
		struct strbuf note;
		strbuf_init(&note);
		render_marks_note(&note, any_single, any_short);
		split_note(&note, &t->split);
		rep_baseline_note(&note, t->baseline);
		if (t->baseline)
			strbuf_addc(&note, '\n');
		render_cpu_note(&note, t);
		esc_lines(out, note.buf, f);
		strbuf_addc(out, '\n');
		strbuf_release(&note);
	}
}

void render_cpu_note(struct strbuf *out, const struct rep_table *t)
{
	static const char *const src[] = { "procstat", "node_exporter", "import", "fio" };
	size_t n[5] = { 0 }, total = 0;
	int tcpu = table_has_target_cpu(t), first = 1;

	for (size_t gi = 0; gi < t->n; gi++)
		for (size_t ri = 0; ri < t->v[gi].n; ri++)
			for (size_t k = 0; k < t->v[gi].rows[ri].nruns; k++) {
				const struct rep_run *r = t->v[gi].rows[ri].runs[k];
				size_t i = 0;
				if (!r->cpu_source)
					continue;
				while (i < 4 && strcmp(r->cpu_source, src[i]))
					i++;
				n[i]++;
				total++;
			}
	strbuf_adds(out, "CPU % is the busy share of all cores (user+nice+system+irq+softirq+steal) of the initiators: "
			 "their cluster row, else the only initiator's, by the one CPU rule (docs/report.md)");
	if (tcpu)
		strbuf_adds(out, "; target CPU % that of the targets by the same rule");
	if (!total) {
		strbuf_adds(out, ". No selected run has a CPU figure.");
		return;
	}
	strbuf_adds(out, ". Source: ");
	for (size_t i = 0; i < 5; i++) {
		if (!n[i])
			continue;
		strbuf_addf(out, "%s%s %zu run%s", first ? "" : ", ",
			    i == 3 ? "fio's own usr+sys of its jobs (fio's process, not the whole host)" :
			    i == 4 ? "other" : src[i], n[i], n[i] == 1 ? "" : "s");
		first = 0;
	}
	strbuf_adds(out, ".");
}

/* The -v section "CPU and disks": cpu rows per run, role and host, disk rows, IO amplification. */
static void cpu_disks_text(struct strbuf *out, const struct rep_set *set, enum rep_format f)
{
	struct cpuview_table t[3];
	int any = 0;

	cpuview_tables(t, set->v, set->n);
	strbuf_addc(out, '\n');
	render_heading(out, f, 2, "CPU and disks");
	for (int i = 0; i < 3; i++) {
		struct rgrid grid;

		if (t[i].nrows < 2)
			continue;
		any = 1;
		render_heading(out, f, 3, t[i].title);
		rgrid_init(&grid, t[i].ncols);
		for (size_t r = 0; r < t[i].nrows; r++) {
			rgrid_row(&grid);
			for (size_t k = 0; k < t[i].ncols; k++)
				rgrid_set(&grid, k, t[i].cells[r * t[i].ncols + k], f, NULL);
		}
		for (size_t k = 0; k < t[i].ncols && k < sizeof(grid.right); k++)
			grid.right[k] = (t[i].right_mask >> k) & 1u;
		rgrid_print(out, &grid, f, 0);
		rgrid_release(&grid);
		strbuf_addc(out, '\n');
	}
	for (int i = 0; i < 3; i++)
		cpuview_table_release(&t[i]);
	if (!any)
		strbuf_adds(out, "No CPU or disk figures are stored for these runs.\n");
	else
		strbuf_adds(out, "util % is the busy share of all cores (user+nice+system+irq+softirq+steal); host * is "
				 "the cluster figure of the role. CPU us/IO: busy CPU microseconds per front-end IO. IO "
				 "amplification: reads+writes of the devices counted / front-end IOs; meaningful only "
				 "when those devices are the RAID members (docs/report.md).\n");
}

static void runs_text(struct strbuf *out, const struct rep_set *set, enum rep_format f)
{
	struct rgrid grid;
	struct strbuf sb;
	static const char *const hdr[] = { "run", "status", "workload", "labels", "started", "error" };

	rgrid_section(out, f, "Runs", &grid, hdr, 6);
	strbuf_init(&sb);
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];

		grid_run_row(&grid, &sb, r, f);
		rgrid_set(&grid, 1, r->status, f,
			 strcmp(r->status, "done") ? (strcmp(r->status, "partial") ? "31" : "33") : NULL);
		rgrid_set(&grid, 2, r->name, f, NULL);
		strbuf_reset(&sb);
		for (size_t k = 0; k < r->labels.n; k++)
			strbuf_addf(&sb, "%s%s=%s", k ? " " : "", r->labels.v[k].key,
				    r->labels.v[k].value ? r->labels.v[k].value : "");
		rgrid_set(&grid, 3, sb.buf, f, NULL);
		rgrid_set(&grid, 4, r->started_at ? r->started_at : "", f, NULL);
		rgrid_set(&grid, 5, r->error ? r->error : "", f, NULL);
	}
	rgrid_print(out, &grid, f, 0);
	rgrid_release(&grid);
	strbuf_addc(out, '\n');

	{
		/* fio's own usr/sys of its jobs (not a whole-host measurement): named as such */
		static const char *const h2[] = { "run", "host", "fio", "start offset ms", "IOPS", "MiB/s",
						  "fio usr %", "fio sys %", "error" };
		rgrid_section(out, f, "Hosts", &grid, h2, 9);
		for (int k = 0; k < 9; k++)
			grid.right[k] = k >= 3 && k <= 7;
		for (size_t i = 0; i < set->n; i++) {
			const struct rep_run *r = &set->v[i];
			for (size_t h = 0; h < r->nhosts; h++) {
				const struct rep_host *x = &r->hosts[h];

				grid_run_row(&grid, &sb, r, f);
				strbuf_reset(&sb);
				if (!strcmp(x->host, "*"))
					strbuf_adds(&sb, "* (all)");
				else if (x->hostname && strcmp(x->hostname, x->host))
					strbuf_addf(&sb, "%s (%s)", x->host, x->hostname); /* the server's own name */
				else
					strbuf_adds(&sb, x->host);
				rgrid_set(&grid, 1, sb.buf, f, NULL);
				rgrid_set(&grid, 2, x->fio_version ? x->fio_version : "-", f, NULL);
				rgrid_num(&grid, 3, x->start_offset_ms, 1, f);
				rgrid_num(&grid, 4, x->iops, 0, f);
				rgrid_num(&grid, 5, x->mbps, 1, f);
				rgrid_num(&grid, 6, x->usr_cpu_pct, 1, f);
				rgrid_num(&grid, 7, x->sys_cpu_pct, 1, f);
				strbuf_reset(&sb);
				if (x->error_code || x->error)
					strbuf_addf(&sb, "%d %s", x->error_code, x->error ? x->error : "");
				rgrid_set(&grid, 8, sb.buf, f, NULL);
			}
		}
		rgrid_print(out, &grid, f, 0);
		rgrid_release(&grid);
	}
	strbuf_release(&sb);
	cpu_disks_text(out, set, f);
}

/* The union of the group keys of all groups, in order of first appearance. */
static void key_union(struct kvlist *keys, const struct kvlist *by, const void *groups, size_t n, size_t stride,
		      size_t keys_off)
{
	if (by && by->n) {
		for (size_t i = 0; i < by->n; i++)
			kvlist_add(keys, by->v[i].key, NULL);
		return;
	}
	for (size_t gi = 0; gi < n; gi++) {
		const struct kvlist *k = (const struct kvlist *)((const char *)groups + gi * stride + keys_off);
		for (size_t i = 0; i < k->n; i++)
			if (!kvlist_find(keys, k->v[i].key))
				kvlist_add(keys, k->v[i].key, NULL);
	}
}

/* One CSV cell per key, each followed by a comma: the key names (vals NULL: a header) or their values in vals. */
static void csv_cells(struct strbuf *out, const struct kvlist *keys, const struct kvlist *vals)
{
	for (size_t i = 0; i < keys->n; i++) {
		esc_csv(out, vals ? kvlist_get(vals, keys->v[i].key, "") : keys->v[i].key);
		strbuf_addc(out, ',');
	}
}

/* The first cells of a comparison row: group keys, workload, tool, bs, read_pct, random_pct (no trailing comma). */
static void csv_row_head(struct strbuf *out, const struct kvlist *keys, const struct kvlist *gkeys,
			 const char *workload, const struct rep_run *r)
{
	char bs[32];

	csv_cells(out, keys, gkeys);
	esc_csv(out, workload);
	strbuf_addc(out, ',');
	esc_csv(out, r->tool ? r->tool : "");
	strbuf_addf(out, ",%s,", r->bs_bytes ? format_size_short(r->bs_bytes, bs, sizeof(bs)) : "");
	if (r->read_pct >= 0)
		strbuf_addf(out, "%d", r->read_pct);
	strbuf_addc(out, ',');
	if (r->random_pct >= 0)
		strbuf_addf(out, "%d", r->random_pct);
}

static void csv_sep_exact(struct strbuf *out, double v)
{
	strbuf_addc(out, ',');
	render_exact(out, v, "");
}

/* The n and interval columns of every metric (",iops_n,iops_lo,iops_hi,..."; suffix "_a" etc.), appended
 * after the older columns so that readers of those keep working. */
static void csv_interval_header(struct strbuf *out, const char *suffix)
{
	for (int m = 0; m < RM_NR; m++) {
		const char *k = rep_metrics[m].key;
		strbuf_addf(out, ",%s_n%s,%s_lo%s,%s_hi%s", k, suffix, k, suffix, k, suffix);
	}
}

/* The cells of csv_interval_header for a row (NULL: empty cells). */
static void csv_interval_cells(struct strbuf *out, const struct rep_row *row)
{
	for (int m = 0; m < RM_NR; m++) {
		if (row)
			strbuf_addf(out, ",%u", row->c[m].n);
		else
			strbuf_addc(out, ',');
		csv_sep_exact(out, row ? row->c[m].lo : NAN);
		csv_sep_exact(out, row ? row->c[m].hi : NAN);
	}
}

static void table_csv(struct strbuf *out, const struct rep_table *t)
{
	struct kvlist keys;
	int tcpu = table_has_target_cpu(t);

	kvlist_init(&keys);
	key_union(&keys, &t->by, t->v, t->n, sizeof(t->v[0]), offsetof(struct rep_group, keys));
	csv_cells(out, &keys, NULL);
	strbuf_adds(out, "workload,runs,partial");
	for (int m = 0; m < RM_NR; m++) {
		strbuf_addf(out, ",%s,%s_min,%s_max", rep_metrics[m].key, rep_metrics[m].key, rep_metrics[m].key);
		if (tcpu && m == RM_CPU)
			strbuf_adds(out, ",target_cpu_pct,target_cpu_pct_min,target_cpu_pct_max");
	}
	csv_interval_header(out, "");
	strbuf_adds(out, ",single,short\r\n");
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct rep_group *g = &t->v[gi];
		for (size_t ri = 0; ri < g->n; ri++) {
			const struct rep_row *row = &g->rows[ri];
			csv_cells(out, &keys, &g->keys);
			esc_csv(out, row->name);
			strbuf_addf(out, ",%zu,%d", row->nruns, row->partial);
			for (int m = 0; m < RM_NR; m++) {
				csv_sep_exact(out, row->c[m].n ? row->c[m].med : NAN);
				csv_sep_exact(out, row->c[m].min);
				csv_sep_exact(out, row->c[m].max);
				if (tcpu && m == RM_CPU) {
					struct rep_cell tc;
					target_cpu_cell(&tc, row);
					csv_sep_exact(out, tc.n ? tc.med : NAN);
					csv_sep_exact(out, tc.min);
					csv_sep_exact(out, tc.max);
				}
			}
			csv_interval_cells(out, row);
			strbuf_addf(out, ",%d,%d\r\n", row->single, row->short_run);
		}
	}
	kvlist_release(&keys);
}

void render_json_labels(struct strbuf *out, const struct kvlist *l)
{
	strbuf_addc(out, '{');
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			strbuf_addc(out, ',');
		esc_json(out, l->v[i].key);
		strbuf_addc(out, ':');
		esc_json(out, l->v[i].value ? l->v[i].value : "");
	}
	strbuf_addc(out, '}');
}

static void json_cell(struct strbuf *out, const struct rep_cell *c)
{
	strbuf_adds(out, "{\"median\":");
	render_exact(out, c->n ? c->med : NAN, "null");
	strbuf_adds(out, ",\"min\":");
	render_exact(out, c->min, "null");
	strbuf_adds(out, ",\"max\":");
	render_exact(out, c->max, "null");
	strbuf_addf(out, ",\"n\":%u,\"lo\":", c->n);
	render_exact(out, c->lo, "null");
	strbuf_adds(out, ",\"hi\":");
	render_exact(out, c->hi, "null");
	strbuf_adds(out, ",\"conf_pct\":");
	render_exact(out, c->n >= 3 ? c->conf_pct : NAN, "null");
	strbuf_addc(out, '}');
}

static void json_str_or_null(struct strbuf *out, const char *s)
{
	if (s)
		esc_json(out, s);
	else
		strbuf_adds(out, "null");
}

/* An object opened with its first member, "key": and the string; after a comma unless it is the first (i 0). */
static void json_open_str(struct strbuf *out, size_t i, const char *key, const char *v)
{
	strbuf_addf(out, "%s{\"%s\":", i ? "," : "", key);
	esc_json(out, v);
}

/* A further member ,"key": and the string (or null when `nullable` and v is NULL). */
static void json_member(struct strbuf *out, const char *key, const char *v, int nullable)
{
	strbuf_addf(out, ",\"%s\":", key);
	if (nullable)
		json_str_or_null(out, v);
	else
		esc_json(out, v);
}

/* The object of host h of a run (`report -v` JSON). */
static void json_host(struct strbuf *out, size_t h, const struct rep_host *x)
{
	static const char *const num_keys[] = { "start_offset_ms", "iops", "mbps", "usr_cpu_pct", "sys_cpu_pct" };
	const double num[] = { x->start_offset_ms, x->iops, x->mbps, x->usr_cpu_pct, x->sys_cpu_pct };

	json_open_str(out, h, "host", x->host);
	json_member(out, "fio_version", x->fio_version, 1);
	for (size_t k = 0; k < sizeof(num) / sizeof(num[0]); k++) {
		strbuf_addf(out, ",\"%s\":", num_keys[k]);
		render_exact(out, num[k], "null");
	}
	strbuf_addf(out, ",\"error_code\":%d", x->error_code);
	json_member(out, "error", x->error, 1);
	strbuf_addc(out, '}');
}

static void json_runs(struct strbuf *out, const struct rep_set *set)
{
	strbuf_adds(out, ",\"runs\":[");
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		strbuf_addf(out, "%s{\"id\":%lld,\"suite\":", i ? "," : "", (long long)r->id);
		esc_json(out, r->suite ? r->suite : "");
		json_member(out, "workload", r->name, 0);
		json_member(out, "status", r->status, 0);
		json_member(out, "error", r->error, 1);
		json_member(out, "started_at", r->started_at, 1);
		strbuf_adds(out, ",\"labels\":");
		render_json_labels(out, &r->labels);
		strbuf_adds(out, ",\"hosts\":[");
		for (size_t h = 0; h < r->nhosts; h++)
			json_host(out, h, &r->hosts[h]);
		strbuf_adds(out, "],\"cpu_disks\":");
		cpuview_json(out, r->cpuview);
		strbuf_addc(out, '}');
	}
	strbuf_addc(out, ']');
}

/* A label group's object up to its rows: {"labels":{...},"rows":[ (after a comma unless gi is 0). */
static void json_group_open(struct strbuf *out, size_t gi, const struct kvlist *keys)
{
	strbuf_adds(out, gi ? ",{\"labels\":" : "{\"labels\":");
	render_json_labels(out, keys);
	strbuf_adds(out, ",\"rows\":[");
}

static void table_json(struct strbuf *out, const struct rep_table *t, const struct rep_set *set, int verbose)
{
	int tcpu = table_has_target_cpu(t);

	strbuf_adds(out, "{\"groups\":[");
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct rep_group *g = &t->v[gi];

		json_group_open(out, gi, &g->keys);
		for (size_t ri = 0; ri < g->n; ri++) {
			const struct rep_row *row = &g->rows[ri];

			json_open_str(out, ri, "workload", row->name);
			strbuf_addf(out, ",\"runs\":%zu,\"partial\":%s,\"single\":%s,\"short\":%s,\"run_ids\":[",
				    row->nruns, row->partial ? "true" : "false", row->single ? "true" : "false",
				    row->short_run ? "true" : "false");
			for (size_t k = 0; k < row->nruns; k++)
				strbuf_addf(out, "%s%lld", k ? "," : "", (long long)row->runs[k]->id);
			/* where each run's cpu_pct came from (the one CPU rule), in run order; null: none */
			strbuf_adds(out, "],\"cpu_sources\":[");
			for (size_t k = 0; k < row->nruns; k++) {
				strbuf_adds(out, k ? "," : "");
				json_str_or_null(out, row->runs[k]->cpu_source);
			}
			strbuf_addc(out, ']');
			for (int m = 0; m < RM_NR; m++) {
				strbuf_addf(out, ",\"%s\":", rep_metrics[m].key);
				json_cell(out, &row->c[m]);
			}
			if (tcpu) {
				struct rep_cell tc;
				target_cpu_cell(&tc, row);
				strbuf_adds(out, ",\"target_cpu_pct\":");
				json_cell(out, &tc);
			}
			strbuf_addc(out, '}');
		}
		strbuf_adds(out, "]}");
	}
	strbuf_adds(out, "],\"split\":[");
	for (size_t i = 0; i < t->split.n; i++) {
		strbuf_adds(out, i ? "," : "");
		esc_json(out, t->split.v[i].key);
	}
	strbuf_addf(out, "],\"baseline_left\":%zu", t->baseline);
	if (verbose)
		json_runs(out, set);
	strbuf_adds(out, "}\n");
}

void render_table(struct strbuf *out, const struct rep_table *t, const struct rep_set *set, enum rep_format f,
		  const struct render_opts *o)
{
	switch (f) {
	case FMT_CSV:
		table_csv(out, t);
		break;
	case FMT_JSON:
		table_json(out, t, set, o->verbose);
		break;
	default:
		table_text(out, t, f);
		if (o->verbose)
			runs_text(out, set, f);
	}
}

/* ---- ratio table ------------------------------------------------------------------------------- */

static const char *ansi_for(enum rep_metric m, double ratio)
{
	int level;
	const char *cls = cmp_class(m, ratio, &level);

	if (!*cls)
		return NULL;
	if (!strcmp(cls, "good"))
		return level >= 2 ? "1;32" : "32";
	return level >= 2 ? "1;33" : "33";
}

static void side_label(struct strbuf *sb, const struct cmp_table *t, const struct cmp_row *row)
{
	if (row->a && row->b)
		return;
	strbuf_addf(sb, "only %s=%s", t->key, row->a ? t->a : t->b);
}

/* A ratio as text, with "~" when it is within noise (cmp_row.noise). */
static void ratio_text(struct strbuf *sb, double ratio, int noise)
{
	render_num(sb, ratio, 3);
	if (noise == 1)
		strbuf_addc(sb, '~');
}

/* Marks of a comparison row: (n=1) and (short) when any side's row has them. */
static void cmp_row_marks(struct strbuf *sb, const struct cmp_table *t, const struct cmp_row *row, int *single,
			  int *short_run)
{
	int one = 0, sh = 0;

	for (size_t i = 0; i < t->nvals; i++)
		if (row->at[i]) {
			one |= row->at[i]->single;
			sh |= row->at[i]->short_run;
		}
	if (one)
		strbuf_adds(sb, sb->len ? " n=1" : "n=1");
	if (sh)
		strbuf_adds(sb, sb->len ? " short" : "short");
	*single |= one;
	*short_run |= sh;
}

/* Under a comparison: what "~" means, the marks, the labels on the compared side and the configuration
 * record's facts (same on every side, then those that differ), unescaped lines. */
static void compare_notes(struct strbuf *sb, const struct cmp_table *t, int single, int short_run)
{
	int any_same = 0;

	strbuf_adds(sb, "~ within noise: the ratio of the sides' 95 % intervals of the median holds 1 (both sides "
			"n >= 3; with fewer runs no ratio can be told from noise).\n");
	render_marks_note(sb, single, short_run);
	rep_baseline_note(sb, t->baseline);
	if (t->baseline)
		strbuf_addc(sb, '\n');
	if (t->away.n) {
		strbuf_addf(sb, "Compared with %s (they change with it or one side lacks them, so they are no group "
			    "key):", t->key);
		for (size_t i = 0; i < t->away.n; i++)
			strbuf_addf(sb, "%s%s", i ? ", " : " ", t->away.v[i].key);
		strbuf_adds(sb, ".\n");
	}
	if (!t->cfg)
		return;
	for (size_t k = 0; k < t->cfg[0].n; k++) {
		const struct kv *x = &t->cfg[0].v[k];
		int same = 1;
		for (size_t s = 1; s < t->nvals && same; s++) {
			const char *v = kvlist_get(&t->cfg[s], x->key, NULL);
			same = v && !strcmp(v, x->value);
		}
		if (same) {
			strbuf_addf(sb, "%s%s=%s", any_same ? ", " : "Configuration record, same on every side: ",
				    x->key, x->value);
			any_same = 1;
		}
	}
	if (any_same)
		strbuf_adds(sb, "\n");
	for (size_t s = 0; s < t->nvals; s++)
		for (size_t k = 0; k < t->cfg[s].n; k++) {
			const struct kv *x = &t->cfg[s].v[k];
			int same = 1, first = 1;
			for (size_t o = 0; o < t->nvals; o++) {
				const char *v = kvlist_get(&t->cfg[o], x->key, NULL);
				same &= v && !strcmp(v, x->value);
				if (o < s && kvlist_find(&t->cfg[o], x->key))
					first = 0;
			}
			if (same || !first)
				continue;
			strbuf_addf(sb, "Configuration record differs: %s:", x->key);
			for (size_t o = 0; o < t->nvals; o++)
				strbuf_addf(sb, "%s%s=%s", o ? ", " : " ", t->vals[o],
					    kvlist_get(&t->cfg[o], x->key, "-"));
			strbuf_adds(sb, "\n");
		}
}

static void compare_text(struct strbuf *out, const struct cmp_table *t, enum rep_format f, int color)
{
	struct strbuf sb;
	int single = 0, short_run = 0;

	strbuf_init(&sb);
	strbuf_addf(&sb, "Ratio %s=%s / %s=%s (baseline %s), matched by %s", t->key, t->a, t->key, t->b, t->b,
		    t->match == REP_MATCH_NAME ? "workload name" : "identity (every option that changes the load)");
	if (f == FMT_MARKDOWN)
		strbuf_adds(out, "## ");
	if (f == FMT_MARKDOWN)
		esc_markdown(out, sb.buf);
	else
		esc_text(out, sb.buf);
	strbuf_adds(out, f == FMT_MARKDOWN ? "\n\n" : "\n\n");
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct cmp_group *g = &t->v[gi];
		struct rgrid grid;

		render_heading(out, f, 3, g->title);
		rgrid_init(&grid, 2 + RM_NR);
		rgrid_row(&grid);
		rgrid_set(&grid, 0, "workload", f, NULL);
		for (int k = 0; k < RM_NR; k++) {
			rgrid_set(&grid, 1 + (size_t)k, ratio_titles[ratio_order[k]], f, NULL);
			grid.right[1 + k] = 1;
		}
		rgrid_set(&grid, 1 + RM_NR, f == FMT_MARKDOWN ? "note" : "", f, NULL);
		for (size_t ri = 0; ri < g->n; ri++) {
			const struct cmp_row *row = &g->rows[ri];

			rgrid_row(&grid);
			rgrid_set(&grid, 0, row->workload, f, NULL);
			for (int k = 0; k < RM_NR; k++) {
				enum rep_metric m = ratio_order[k];
				const char *ansi = ansi_for(m, row->ratio[m]);
				strbuf_reset(&sb);
				ratio_text(&sb, row->ratio[m], row->noise[0][m]);
				if (f == FMT_MARKDOWN && ansi) {
					/* Markdown has no colour: the direction is marked instead. */
					int level;
					strbuf_adds(&sb, strcmp(cmp_class(m, row->ratio[m], &level), "good") ? " ▼" : " ▲");
				}
				rgrid_set(&grid, 1 + (size_t)k, sb.buf, f, ansi);
			}
			strbuf_reset(&sb);
			side_label(&sb, t, row);
			cmp_row_marks(&sb, t, row, &single, &short_run);
			rgrid_set(&grid, 1 + RM_NR, sb.buf, f, sb.len ? "2" : NULL);
		}
		rgrid_print(out, &grid, f, color);
		rgrid_release(&grid);
		strbuf_addc(out, '\n');
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%zu matched rows, %zu only %s=%s, %zu only %s=%s (unmatched rows are listed above with "
			 "'only').", t->matched, t->unmatched_a, t->key, t->a, t->unmatched_b, t->key, t->b);
	if (f == FMT_MARKDOWN)
		esc_markdown(out, sb.buf);
	else
		esc_text(out, sb.buf);
	strbuf_adds(out, "\n");
	if (f == FMT_MARKDOWN)
		strbuf_adds(out, "\n▲ better than the baseline (IOPS and MiB/s ratio >= 1; latency and CPU ratio <= 1), "
				 "▼ worse.\n");
	else
		strbuf_adds(out, "Green: better than the baseline (IOPS and MiB/s ratio >= 1; latency and CPU ratio "
				 "<= 1); brown: worse; bold: more than 25 % apart.\n");
	strbuf_reset(&sb);
	compare_notes(&sb, t, single, short_run);
	esc_lines(out, sb.buf, f);
	strbuf_release(&sb);
}

static const struct rep_run *row_run(const struct cmp_row *row)
{
	return row->a ? row->a->runs[0] : row->b->runs[0];
}

/* The start of a comparison's CSV header: the label columns (into keys, kvlist_release()d by the caller), then
 * the fixed columns `cols`. */
static void cmp_csv_header(struct strbuf *out, const struct cmp_table *t, struct kvlist *keys, const char *cols)
{
	kvlist_init(keys);
	key_union(keys, &t->sides[0].by, t->v, t->n, sizeof(t->v[0]), offsetof(struct cmp_group, keys));
	csv_cells(out, keys, NULL);
	strbuf_adds(out, cols);
}

static void compare_csv(struct strbuf *out, const struct cmp_table *t)
{
	struct kvlist keys;

	cmp_csv_header(out, t, &keys, "workload,tool,bs,read_pct,random_pct,status,only,runs_a,runs_b");
	for (int k = 0; k < RM_NR; k++) {
		const char *n = rep_metrics[ratio_order[k]].key;
		strbuf_addf(out, ",%s_a,%s_b,%s_ratio", n, n, n);
	}
	csv_interval_header(out, "_a");
	csv_interval_header(out, "_b");
	for (int k = 0; k < RM_NR; k++)
		strbuf_addf(out, ",%s_noise", rep_metrics[ratio_order[k]].key);
	strbuf_adds(out, ",single,short\r\n");
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct cmp_group *g = &t->v[gi];
		for (size_t ri = 0; ri < g->n; ri++) {
			const struct cmp_row *row = &g->rows[ri];
			const struct rep_run *r = row_run(row);

			csv_row_head(out, &keys, &g->keys, row->workload, r);
			strbuf_adds(out, row->a && row->b ? ",matched," : ",unmatched,");
			if (!(row->a && row->b)) {
				struct strbuf sb;
				strbuf_init(&sb);
				strbuf_addf(&sb, "%s=%s", t->key, row->a ? t->a : t->b);
				esc_csv(out, sb.buf);
				strbuf_release(&sb);
			}
			strbuf_addf(out, ",%zu,%zu", row->a ? row->a->nruns : 0, row->b ? row->b->nruns : 0);
			for (int k = 0; k < RM_NR; k++) {
				enum rep_metric m = ratio_order[k];
				csv_sep_exact(out, row->a && row->a->c[m].n ? row->a->c[m].med : NAN);
				csv_sep_exact(out, row->b && row->b->c[m].n ? row->b->c[m].med : NAN);
				csv_sep_exact(out, row->ratio[m]);
			}
			csv_interval_cells(out, row->a);
			csv_interval_cells(out, row->b);
			for (int k = 0; k < RM_NR; k++) {
				int nz = row->noise[0][ratio_order[k]];
				strbuf_adds(out, nz < 0 ? "," : nz ? ",1" : ",0");
			}
			strbuf_addf(out, ",%d,%d\r\n", (row->a && row->a->single) || (row->b && row->b->single),
				    (row->a && row->a->short_run) || (row->b && row->b->short_run));
		}
	}
	kvlist_release(&keys);
}

/* {"iops":true|false|null,...}: within noise, apart, unknown (cmp_row.noise). */
static void json_noise(struct strbuf *out, const int *noise)
{
	strbuf_addc(out, '{');
	for (int m = 0; m < RM_NR; m++)
		strbuf_addf(out, "%s\"%s\":%s", m ? "," : "", rep_metrics[m].key,
			    noise[m] < 0 ? "null" : noise[m] ? "true" : "false");
	strbuf_addc(out, '}');
}

/* Every value's row of a comparison row: {"value", "baseline", "runs", each metric's cell, "ratio"}. */
static void json_by_value(struct strbuf *out, const struct cmp_table *t, const struct cmp_row *row)
{
	for (size_t vi = 0; vi < t->nvals; vi++) {
		const struct rep_row *x = row->at[vi];
		strbuf_adds(out, vi ? ",{\"value\":" : "{\"value\":");
		esc_json(out, t->vals[vi]);
		strbuf_addf(out, ",\"baseline\":%s,\"runs\":%zu", vi + 1 == t->nvals ? "true" : "false",
			    x ? x->nruns : 0);
		for (int m = 0; m < RM_NR; m++) {
			strbuf_addf(out, ",\"%s\":", rep_metrics[m].key);
			if (x)
				json_cell(out, &x->c[m]);
			else
				strbuf_adds(out, "null");
		}
		strbuf_adds(out, ",\"ratio\":{");
		for (int m = 0; m < RM_NR; m++) {
			strbuf_addf(out, "%s\"%s\":", m ? "," : "", rep_metrics[m].key);
			render_exact(out, row->ratios[vi][m], "null");
		}
		strbuf_adds(out, "},\"noise\":");
		json_noise(out, row->noise[vi]);
		strbuf_addf(out, ",\"single\":%s,\"short\":%s}", x && x->single ? "true" : "false",
			    x && x->short_run ? "true" : "false");
	}
}

/* A comparison row's object up to its sides: workload, match, status and the value of an unmatched row. */
static void cmp_row_json_open(struct strbuf *out, const struct cmp_table *t, size_t ri, const struct cmp_row *row)
{
	json_open_str(out, ri, "workload", row->workload);
	json_member(out, "match", row->match, 0);
	strbuf_addf(out, ",\"status\":\"%s\",\"only\":", row->a && row->b ? "matched" : "unmatched");
	if (row->a && row->b)
		strbuf_adds(out, "null");
	else
		esc_json(out, row->a ? t->a : t->b);
}

static void compare_json(struct strbuf *out, const struct cmp_table *t)
{
	strbuf_adds(out, "{\"compare\":{\"key\":");
	esc_json(out, t->key);
	json_member(out, "a", t->a, 0);
	json_member(out, "b", t->b, 0);
	strbuf_adds(out, ",\"values\":[");
	for (size_t i = 0; i < t->nvals; i++) {
		if (i)
			strbuf_addc(out, ',');
		esc_json(out, t->vals[i]);
	}
	strbuf_adds(out, "],\"baseline\":");
	esc_json(out, t->b);
	strbuf_addf(out, ",\"match\":\"%s\"},\"matched\":%zu,\"unmatched_a\":%zu,\"unmatched_b\":%zu,"
			 "\"unmatched\":%zu,\"groups\":[",
		    t->match == REP_MATCH_NAME ? "name" : "identity", t->matched, t->unmatched_a, t->unmatched_b,
		    t->unmatched);
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct cmp_group *g = &t->v[gi];

		json_group_open(out, gi, &g->keys);
		for (size_t ri = 0; ri < g->n; ri++) {
			const struct cmp_row *row = &g->rows[ri];

			cmp_row_json_open(out, t, ri, row);
			for (int s = 0; s < 2; s++) {
				const struct rep_row *x = s ? row->b : row->a;
				strbuf_adds(out, s ? ",\"b\":" : ",\"a\":");
				if (!x) {
					strbuf_adds(out, "null");
					continue;
				}
				strbuf_addf(out, "{\"runs\":%zu,\"single\":%s,\"short\":%s", x->nruns,
					    x->single ? "true" : "false", x->short_run ? "true" : "false");
				for (int m = 0; m < RM_NR; m++) {
					strbuf_addf(out, ",\"%s\":", rep_metrics[m].key);
					json_cell(out, &x->c[m]);
				}
				strbuf_addc(out, '}');
			}
			strbuf_adds(out, ",\"ratio\":{");
			for (int m = 0; m < RM_NR; m++) {
				strbuf_addf(out, "%s\"%s\":", m ? "," : "", rep_metrics[m].key);
				render_exact(out, row->ratio[m], "null");
			}
			strbuf_adds(out, "},\"class\":{");
			for (int m = 0; m < RM_NR; m++) {
				int level;
				const char *cls = cmp_class((enum rep_metric)m, row->ratio[m], &level);
				strbuf_addf(out, "%s\"%s\":", m ? "," : "", rep_metrics[m].key);
				if (*cls)
					strbuf_addf(out, "\"%s%d\"", cls, level);
				else
					strbuf_adds(out, "null");
			}
			strbuf_adds(out, "},\"noise\":");
			json_noise(out, row->noise[0]);
			strbuf_adds(out, ",\"by_value\":[");
			json_by_value(out, t, row);
			strbuf_adds(out, "]}");
		}
		strbuf_adds(out, "]}");
	}
	strbuf_adds(out, "],\"away\":[");
	for (size_t i = 0; i < t->away.n; i++) {
		strbuf_adds(out, i ? "," : "");
		esc_json(out, t->away.v[i].key);
	}
	strbuf_adds(out, "],\"cfg\":{");
	for (size_t s = 0; t->cfg && s < t->nvals; s++) {
		strbuf_adds(out, s ? "," : "");
		esc_json(out, t->vals[s]);
		strbuf_addc(out, ':');
		render_json_labels(out, &t->cfg[s]);
	}
	strbuf_adds(out, "}}\n");
}

int render_show_parse(const char *s, unsigned *out)
{
	const char *p = s;

	*out = 0;
	while (*p) {
		size_t l = strcspn(p, ",");
		if (l == 6 && !strncmp(p, "values", 6))
			*out |= SHOW_VALUES;
		else if (l == 6 && !strncmp(p, "ratios", 6))
			*out |= SHOW_RATIOS;
		else
			return -1;
		p += l;
		if (*p == ',')
			p++;
	}
	return *out ? 0 : -1;
}

/* The comparison with a row per workload and value: value columns, ratio columns or both. */
static void compare_text_n(struct strbuf *out, const struct cmp_table *t, enum rep_format f, int color,
			   unsigned show)
{
	int vals = (show & SHOW_VALUES) != 0, rats = (show & SHOW_RATIOS) != 0;
	size_t ncol = 3 + (size_t)RM_NR * (size_t)(vals + rats);
	int single = 0, short_run = 0;
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addf(&sb, "Comparison of %s=", t->key);
	for (size_t i = 0; i < t->nvals; i++)
		strbuf_addf(&sb, "%s%s", i ? (i + 1 == t->nvals ? " against " : ", ") : "", t->vals[i]);
	strbuf_addf(&sb, " (baseline %s; ratios value / baseline), matched by %s", t->b,
		    t->match == REP_MATCH_NAME ? "workload name" : "identity (every option that changes the load)");
	if (f == FMT_MARKDOWN) {
		strbuf_adds(out, "## ");
		esc_markdown(out, sb.buf);
	} else {
		esc_text(out, sb.buf);
	}
	strbuf_adds(out, "\n\n");
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct cmp_group *g = &t->v[gi];
		struct rgrid grid;
		size_t col;

		render_heading(out, f, 3, g->title);
		rgrid_init(&grid, ncol);
		rgrid_row(&grid);
		rgrid_set(&grid, 0, "workload", f, NULL);
		rgrid_set(&grid, 1, t->key, f, NULL);
		col = 2;
		for (int k = 0; k < RM_NR; k++) {
			if (vals) {
				rgrid_set(&grid, col, rep_metrics[ratio_order[k]].title, f, NULL);
				grid.right[col++] = 1;
			}
			if (rats) {
				strbuf_reset(&sb);
				strbuf_addf(&sb, "%s ratio", ratio_titles[ratio_order[k]]);
				rgrid_set(&grid, col, sb.buf, f, NULL);
				grid.right[col++] = 1;
			}
		}
		rgrid_set(&grid, col, f == FMT_MARKDOWN ? "note" : "", f, NULL);
		for (size_t ri = 0; ri < g->n; ri++) {
			const struct cmp_row *row = &g->rows[ri];
			int first = 1;

			for (size_t vi = 0; vi < t->nvals; vi++) {
				const struct rep_row *x = row->at[vi];
				int base = vi + 1 == t->nvals;

				if (base && !vals)
					continue; /* its ratios are 1 */
				rgrid_row(&grid);
				rgrid_set(&grid, 0, first ? row->workload : "", f, NULL);
				first = 0;
				strbuf_reset(&sb);
				strbuf_addf(&sb, "%s%s", t->vals[vi], base ? " (baseline)" : "");
				rgrid_set(&grid, 1, sb.buf, f, NULL);
				col = 2;
				for (int k = 0; k < RM_NR; k++) {
					enum rep_metric m = ratio_order[k];
					if (vals) {
						strbuf_reset(&sb);
						if (x)
							render_cell(&sb, &x->c[m], rep_metrics[m].decimals);
						else
							strbuf_adds(&sb, "-");
						rgrid_set(&grid, col++, sb.buf, f, NULL);
					}
					if (rats) {
						const char *ansi = base ? NULL : ansi_for(m, row->ratios[vi][m]);
						strbuf_reset(&sb);
						ratio_text(&sb, row->ratios[vi][m], base ? -1 : row->noise[vi][m]);
						if (f == FMT_MARKDOWN && ansi) {
							int level;
							strbuf_adds(&sb, strcmp(cmp_class(m, row->ratios[vi][m], &level),
										"good") ? " ▼" : " ▲");
						}
						rgrid_set(&grid, col++, sb.buf, f, ansi);
					}
				}
				strbuf_reset(&sb);
				if (!x)
					strbuf_adds(&sb, "no run");
				else
					render_row_marks(&sb, x);
				single |= x && x->single;
				short_run |= x && x->short_run;
				rgrid_set(&grid, col, sb.buf, f, sb.len ? "2" : NULL);
			}
		}
		rgrid_print(out, &grid, f, color);
		rgrid_release(&grid);
		strbuf_addc(out, '\n');
	}
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%zu rows with every value, %zu rows some value lacks (marked 'no run').", t->matched,
		    t->unmatched);
	if (f == FMT_MARKDOWN)
		esc_markdown(out, sb.buf);
	else
		esc_text(out, sb.buf);
	strbuf_adds(out, "\n");
	if (rats && f == FMT_MARKDOWN)
		strbuf_adds(out, "\n▲ better than the baseline (IOPS and MiB/s ratio >= 1; latency and CPU ratio <= 1), "
				 "▼ worse.\n");
	else if (rats)
		strbuf_adds(out, "Green: better than the baseline (IOPS and MiB/s ratio >= 1; latency and CPU ratio "
				 "<= 1); brown: worse; bold: more than 25 % apart.\n");
	strbuf_reset(&sb);
	compare_notes(&sb, t, single, short_run);
	esc_lines(out, sb.buf, f);
	strbuf_release(&sb);
}

/* N-way CSV: one line per workload and value. */
static void compare_csv_n(struct strbuf *out, const struct cmp_table *t)
{
	struct kvlist keys;

	cmp_csv_header(out, t, &keys, "workload,tool,bs,read_pct,random_pct,status,value,baseline,runs");
	for (int k = 0; k < RM_NR; k++)
		strbuf_addf(out, ",%s,%s_ratio", rep_metrics[ratio_order[k]].key, rep_metrics[ratio_order[k]].key);
	csv_interval_header(out, "");
	for (int k = 0; k < RM_NR; k++)
		strbuf_addf(out, ",%s_noise", rep_metrics[ratio_order[k]].key);
	strbuf_adds(out, ",single,short\r\n");
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct cmp_group *g = &t->v[gi];
		for (size_t ri = 0; ri < g->n; ri++) {
			const struct cmp_row *row = &g->rows[ri];
			const struct rep_run *r = NULL;

			for (size_t vi = 0; vi < t->nvals && !r; vi++)
				r = row->at[vi] ? row->at[vi]->runs[0] : NULL;
			for (size_t vi = 0; vi < t->nvals; vi++) {
				const struct rep_row *x = row->at[vi];
				if (!x)
					continue;
				csv_row_head(out, &keys, &g->keys, row->workload, r);
				strbuf_adds(out, row->present == t->nvals ? ",matched," : ",unmatched,");
				esc_csv(out, t->vals[vi]);
				strbuf_addc(out, ',');
				esc_csv(out, t->b);
				strbuf_addf(out, ",%zu", x->nruns);
				for (int k = 0; k < RM_NR; k++) {
					enum rep_metric m = ratio_order[k];
					csv_sep_exact(out, x->c[m].n ? x->c[m].med : NAN);
					csv_sep_exact(out, row->ratios[vi][m]);
				}
				csv_interval_cells(out, x);
				for (int k = 0; k < RM_NR; k++) {
					int nz = vi + 1 == t->nvals ? -1 : row->noise[vi][ratio_order[k]];
					strbuf_adds(out, nz < 0 ? "," : nz ? ",1" : ",0");
				}
				strbuf_addf(out, ",%d,%d\r\n", x->single, x->short_run);
			}
		}
	}
	kvlist_release(&keys);
}

void render_compare(struct strbuf *out, const struct cmp_table *t, enum rep_format f, const struct render_opts *o)
{
	unsigned show = o->show ? o->show : t->nvals > 2 ? SHOW_VALUES | SHOW_RATIOS : SHOW_RATIOS;

	switch (f) {
	case FMT_CSV:
		if (t->nvals > 2)
			compare_csv_n(out, t);
		else
			compare_csv(out, t);
		break;
	case FMT_JSON:
		compare_json(out, t);
		break;
	default:
		if (t->nvals == 2 && show == SHOW_RATIOS)
			compare_text(out, t, f, o->color);
		else
			compare_text_n(out, t, f, o->color, show);
	}
}
