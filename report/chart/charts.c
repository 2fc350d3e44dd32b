/*
 * charts: what the report's bar charts, ratio grid and latency CDFs draw (charts.h); the charts over time are
 * chart_time.c's. Each chart is a body and a data file handed to the one chart writer (chart_gnuplot.h), which
 * adds the terminals, --dpi and the files. User text reaches scripts only as chart_gp_str strings and data
 * files only through esc_gnuplot_data (read, never evaluated).
 */
#include "report/chart/charts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store_read.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/chart/chart_bars.h"
#include "report/chart/chart_time.h"
#include "report/labels.h"
#include "report/text/escape.h"
#include "report/strlist.h"

#define MAX_CDF_LINES 16    /* CDF chart: at most this many lines (8 runs, read and write: 8 distinct colours
			     * of the palette's 12); the title says "the first N of M runs" when more exist */

/* Ratio cell colours by class and magnitude level 0..3 (the HTML report uses the same). */
static const char *const good_rgb[4] = { "#d9f0d3", "#a6dba0", "#5aae61", "#1b7837" };
static const char *const bad_rgb[4] = { "#f6e8c3", "#dfc27d", "#bf812d", "#8c510a" };

/* ---- labels and colours ------------------------------------------------------------------------------ */


/* The values of a group's keys, aliased (cs NULL: as stored, for file names), joined by ' ' ("mdadm-raid5"),
 * or its title. */
static void group_label(const struct chart_set *cs, struct strbuf *sb, const struct kvlist *keys,
			const char *title)
{
	if (!keys->n) {
		strbuf_adds(sb, title);
		return;
	}
	for (size_t i = 0; i < keys->n; i++) {
		const char *v = keys->v[i].value ? keys->v[i].value : "";
		strbuf_addf(sb, "%s%s", i ? " " : "", cs ? chart_alias(cs, keys->v[i].key, v) : v);
	}
}

/* A group's title with aliased values: "stack=mdadm-raid5 transport=NVMe-oF", or its title. */
static void group_title(const struct chart_set *cs, struct strbuf *sb, const struct kvlist *keys,
			const char *title)
{
	if (!keys->n) {
		strbuf_adds(sb, title);
		return;
	}
	for (size_t i = 0; i < keys->n; i++)
		strbuf_addf(sb, "%s%s=%s", i ? " " : "", keys->v[i].key,
			    chart_alias(cs, keys->v[i].key, keys->v[i].value ? keys->v[i].value : ""));
}

/* The keys of a group's keys joined by ", " ("stack"): the categories' axis title. */
static void group_axis(struct strbuf *sb, const struct kvlist *keys)
{
	for (size_t i = 0; i < keys->n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", keys->v[i].key);
	if (!keys->n)
		strbuf_adds(sb, "group");
}

/* Whether two values of a key are equal (NULL: the item lacks the key). */
static int same_value(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether key a's value decides key b's in every item: items equal in a are equal in b. */
static int decides(const struct kvlist *const *items, size_t n, const char *a, const char *b)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (same_value(kvlist_get(items[i], a, NULL), kvlist_get(items[j], a, NULL)) &&
			    !same_value(kvlist_get(items[i], b, NULL), kvlist_get(items[j], b, NULL)))
				return 0;
	return 1;
}

/* Whether some item's value of key has an --alias (the user asked to see it named so). */
static int key_aliased(const struct chart_set *cs, const struct kvlist *const *items, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = kvlist_get(items[i], key, NULL);
		if (v && strcmp(chart_alias(cs, key, v), v))
			return 1;
	}
	return 0;
}

/*
 * The keys that tell n items (label lists: a chart's categories or lines) apart, so that each names only what
 * differs. Into `shown` (keys, in first-seen order) the keys whose values differ between the items, less those
 * whose value follows from another shown key's in every item (level, software, stack and transport from config:
 * they say nothing more about which item is which), unless aliased; into `shared` (key=value) the keys with
 * one value in every item, said once in the chart's title. cfg.* facts are neither. One item: every key shown.
 */
static void keys_that_differ(const struct chart_set *cs, const struct kvlist *const *items, size_t n,
			     struct kvlist *shown, struct kvlist *shared)
{
	struct kvlist all, vary;

	kvlist_init(&all);
	kvlist_init(&vary);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < items[i]->n; k++)
			if (strncmp(items[i]->v[k].key, "cfg.", 4) && !kvlist_find(&all, items[i]->v[k].key))
				kvlist_add(&all, items[i]->v[k].key, NULL);
	for (size_t k = 0; k < all.n; k++) {
		const char *key = all.v[k].key, *v0 = kvlist_get(items[0], key, NULL);
		int one = n > 1;
		for (size_t i = 1; i < n && one; i++)
			one = same_value(v0, kvlist_get(items[i], key, NULL));
		if (one && v0)
			kvlist_add(shared, key, v0);
		else if (!one)
			kvlist_add(&vary, key, NULL);
	}
	for (size_t b = 0; b < vary.n; b++) {
		const char *kb = vary.v[b].key;
		int implied = 0;
		/* left out when another key decides it and is finer (or as fine and first): a strict order, so
		 * every key left out is decided by one that is shown */
		for (size_t a = 0; a < vary.n && !implied && !key_aliased(cs, items, n, kb); a++)
			implied = a != b && decides(items, n, vary.v[a].key, kb) &&
				  (!decides(items, n, kb, vary.v[a].key) || a < b);
		if (!implied)
			kvlist_add(shown, kb, NULL);
	}
	kvlist_release(&all);
	kvlist_release(&vary);
}

/* An item's shown keys' values, aliased, joined by ' ' ("mdadm-raid5 NVMe-oF"), or `none` when it has none. */
static void item_label(const struct chart_set *cs, struct strbuf *sb, const struct kvlist *item,
		       const struct kvlist *shown, const char *none)
{
	size_t len = sb->len;

	for (size_t k = 0; k < shown->n; k++) {
		const char *v = kvlist_get(item, shown->v[k].key, "-");
		strbuf_addf(sb, "%s%s", sb->len > len ? " " : "", chart_alias(cs, shown->v[k].key, v));
	}
	if (sb->len == len)
		strbuf_adds(sb, none);
}

/* The shared labels as " (key=value ...)" (aliased) after a title, or nothing. */
static void shared_note(const struct chart_set *cs, struct strbuf *sb, const struct kvlist *shared)
{
	for (size_t k = 0; k < shared->n; k++)
		strbuf_addf(sb, "%s%s=%s", k ? " " : " (", shared->v[k].key,
			    chart_alias(cs, shared->v[k].key, shared->v[k].value));
	if (shared->n)
		strbuf_adds(sb, ")");
}

static double med(const struct rep_row *r, enum rep_metric m)
{
	return r && r->c[m].n ? r->c[m].med : NAN;
}

/* The whisker of a bar: min-max of the repetitions (n >= 2 and they differ), else none (NAN). */
static void spread(const struct rep_row *r, enum rep_metric m, double *lo, double *hi)
{
	int some = r && r->c[m].n >= 2 && r->c[m].min != r->c[m].max;

	*lo = some ? r->c[m].min : NAN;
	*hi = some ? r->c[m].max : NAN;
}

/* The panels of a bar chart: IOPS and MiB/s, read and write mean latency, or read and write p99 latency. */
enum panels { PANELS_THROUGHPUT, PANELS_LATENCY, PANELS_P99 };

static const struct { enum rep_metric m; const char *title, *ylabel; } panel_defs[3][2] = {
	[PANELS_THROUGHPUT] = { { RM_IOPS, "IOPS", "IOPS (IO/s)" }, { RM_MBPS, "Bandwidth", "bandwidth (MiB/s)" } },
	[PANELS_LATENCY] = { { RM_RLAT, "Read mean latency", "read latency, mean (ms)" },
			     { RM_WLAT, "Write mean latency", "write latency, mean (ms)" } },
	[PANELS_P99] = { { RM_RP99, "Read p99 latency", "read latency, 99th percentile (ms)" },
			 { RM_WP99, "Write p99 latency", "write latency, 99th percentile (ms)" } },
};
static const char *const panels_what[3] = { "IOPS and bandwidth", "mean latency", "p99 latency" };

/*
 * One bar chart: categories `cats`, series `series` with colours `rgb` (per category when per_cat), values
 * from `rows[cat * nser + s]` (NULL: missing) for the two panels of `which`.
 */
static int bar_chart(struct chart_set *cs, char kind, const char *name, const char *title,
		     const char *xlabel, const struct strlist *cats, const struct strlist *series, const char **rgb,
		     int per_cat, const struct rep_row *const *rows, enum panels which, struct errbuf *err)
{
	struct bar_panel panels[2];
	double *v[2], *lo[2], *hi[2];
	struct bar_spec b;
	struct strbuf df;
	struct chart_gp g;
	size_t n = cats->n * series->n;
	int ret, any = 0;

	chart_gp_begin(&g, cs, kind, name, 0, 0);
	if (cs->o && cs->o->title)
		strbuf_addf(&g.title, "%s: ", cs->o->title);
	strbuf_adds(&g.title, title);
	strbuf_init(&df);
	strbuf_addf(&df, "%s.dat", g.stem.buf);
	for (int p = 0; p < 2; p++) {
		v[p] = xcalloc(n ? n : 1, sizeof(double));
		lo[p] = xcalloc(n ? n : 1, sizeof(double));
		hi[p] = xcalloc(n ? n : 1, sizeof(double));
		for (size_t i = 0; i < n; i++) {
			v[p][i] = med(rows[i], panel_defs[which][p].m);
			spread(rows[i], panel_defs[which][p].m, &lo[p][i], &hi[p][i]);
		}
		panels[p].title = panel_defs[which][p].title;
		panels[p].ylabel = panel_defs[which][p].ylabel;
		panels[p].v = v[p];
		panels[p].lo = lo[p];
		panels[p].hi = hi[p];
		panels[p].log = 0;
	}
	for (size_t i = 0; i < 2 * n && !any; i++)
		any = !isnan(v[i / n][i % n]);
	if (!any) { /* nothing measured (e.g. no p99 in imported figures): no chart of empty panels */
		chart_gp_discard(&g);
		strbuf_release(&df);
		for (int p = 0; p < 2; p++) {
			free(v[p]);
			free(lo[p]);
			free(hi[p]);
		}
		return 0;
	}
	memset(&b, 0, sizeof(b));
	b.title = g.title.buf;
	b.caption = cs->o ? cs->o->caption : NULL;
	b.xlabel = xlabel;
	b.cats = (const char *const *)cats->v;
	b.ncat = cats->n;
	b.series = (const char *const *)series->v;
	b.nser = series->n;
	b.rgb = rgb;
	b.per_cat = per_cat;
	b.panels = panels;
	b.npanels = 2;
	b.log = cs->o ? cs->o->log : -1;
	b.short_names = cs->o && cs->o->short_names && !strcmp(xlabel, "workload");
	b.datafile = df.buf;
	bars_write(&g.body, &g.data, &b);
	g.width = b.width_px;
	g.height = b.height_px;
	ret = chart_gp_finish(&g, err);
	strbuf_release(&df);
	for (int p = 0; p < 2; p++) {
		free(v[p]);
		free(lo[p]);
		free(hi[p]);
	}
	return ret;
}

/* ---- (a)-(d) with a comparison ------------------------------------------------------------------- */

/* The series of a comparison: its values (aliased), coloured by key=value. */
static void cmp_series(struct chart_set *cs, const struct cmp_table *t, struct strlist *names, const char ***rgb)
{
	struct strbuf k;

	strbuf_init(&k);
	*rgb = xcalloc(t->nvals, sizeof(**rgb));
	for (size_t i = 0; i < t->nvals; i++) {
		strbuf_reset(&k);
		strbuf_addf(&k, "%s=%s", t->key, t->vals[i]);
		strlist_add(names, chart_alias(cs, t->key, t->vals[i]));
		(*rgb)[i] = chart_color(cs, k.buf);
	}
	strbuf_release(&k);
}

/* Categories named by what differs between them (keys_that_differ): cats gets each label, axis the shown keys
 * joined by ", " ("config"; "group" when none), title_tail the shared labels (shared_note). */
static void category_names(const struct chart_set *cs, const struct kvlist *const *keys, const char *const *titles,
			   size_t n, struct strlist *cats, struct strbuf *axis, struct strbuf *title_tail)
{
	struct kvlist shown, shared;
	struct strbuf lab;

	kvlist_init(&shown);
	kvlist_init(&shared);
	strbuf_init(&lab);
	keys_that_differ(cs, keys, n, &shown, &shared);
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&lab);
		item_label(cs, &lab, keys[i], &shown, titles[i]);
		strlist_add(cats, lab.buf);
	}
	group_axis(axis, &shown);
	shared_note(cs, title_tail, &shared);
	kvlist_release(&shown);
	kvlist_release(&shared);
	strbuf_release(&lab);
}

/* (a) per workload: one category per group that has it (named by what differs), one bar per value. */
static int cmp_chart_workload(struct chart_set *cs, const struct cmp_table *t, const struct cmp_row *row0,
			      const struct strlist *series, const char **rgb, struct errbuf *err)
{
	struct strlist cats = { 0 };
	const struct rep_row **rows = NULL;
	const struct kvlist **keys = NULL;
	const char **titles = NULL;
	size_t cap = 0, kcap = 0, tcap = 0, nrow = 0, ncat = 0;
	struct strbuf title, axis, tail;
	int ret;

	strbuf_init(&title);
	strbuf_init(&axis);
	strbuf_init(&tail);
	for (size_t gj = 0; gj < t->n; gj++)
		for (size_t rj = 0; rj < t->v[gj].n; rj++) {
			const struct cmp_row *row = &t->v[gj].rows[rj];
			if (strcmp(row->match, row0->match))
				continue;
			ARRAY_GROW(keys, kcap, ncat + 1);
			ARRAY_GROW(titles, tcap, ncat + 1);
			keys[ncat] = &t->v[gj].keys;
			titles[ncat++] = t->v[gj].title;
			ARRAY_GROW(rows, cap, nrow + t->nvals);
			for (size_t s = 0; s < t->nvals; s++)
				rows[nrow++] = row->at[s];
		}
	category_names(cs, keys, titles, ncat, &cats, &axis, &tail);
	strbuf_addf(&title, "%s: IOPS and bandwidth by %s%s", row0->workload, axis.buf, tail.buf);
	ret = bar_chart(cs, 'a', row0->workload, title.buf, axis.buf, &cats, series, rgb, 0, rows,
			PANELS_THROUGHPUT, err);
	free(rows);
	free(keys);
	free(titles);
	strlist_release(&cats);
	strbuf_release(&title);
	strbuf_release(&axis);
	strbuf_release(&tail);
	return ret;
}

/* (b) and (d) per group: one category per workload, one bar per value. */
static int cmp_chart_group(struct chart_set *cs, const struct cmp_table *t, const struct cmp_group *grp,
			   const struct strlist *series, const char **rgb, enum panels which,
			   struct errbuf *err)
{
	struct strlist cats = { 0 };
	const struct rep_row **rows = xcalloc(grp->n * t->nvals + 1, sizeof(*rows));
	struct strbuf lab, title;
	int ret;

	strbuf_init(&lab);
	strbuf_init(&title);
	for (size_t ri = 0; ri < grp->n; ri++) {
		strlist_add(&cats, grp->rows[ri].workload);
		for (size_t s = 0; s < t->nvals; s++)
			rows[ri * t->nvals + s] = grp->rows[ri].at[s];
	}
	group_title(cs, &title, &grp->keys, grp->title);
	group_label(NULL, &lab, &grp->keys, grp->title); /* the file name: stored values */
	strbuf_addf(&title, ": %s per workload", panels_what[which]);
	ret = bar_chart(cs, which == PANELS_THROUGHPUT ? 'b' : 'd', lab.buf, title.buf, "workload", &cats,
			series, rgb, 0, rows, which, err);
	free(rows);
	strlist_release(&cats);
	strbuf_release(&lab);
	strbuf_release(&title);
	return ret;
}

/* Row ri of the group when it has a ratio for compared value vi (a row of that value and a baseline), else NULL. */
static const struct cmp_row *ratio_row(const struct cmp_group *grp, size_t ri, size_t vi)
{
	const struct cmp_row *row = &grp->rows[ri];

	return row->at[vi] && row->b ? row : NULL;
}

/*
 * Whether metric m has one value in every run of the group's compared rows (both sides, every workload; at
 * least two rows: the largest and smallest within RATIO_SAME of each other) or none at all: then its ratios
 * are 1 or missing by construction (a modelled, saturated or unmeasured figure, e.g. the sim engine's CPU at
 * 100 % in every run), not a finding, and the ratio chart (and the HTML ratio table) show no ratio for it.
 */
#define RATIO_SAME 0.005
int chart_metric_constant(const struct cmp_table *t, const struct cmp_group *grp, enum rep_metric m)
{
	double lo = NAN, hi = NAN;
	size_t rows = 0, nan = 0, vals = 0;

	for (size_t ri = 0; ri < grp->n; ri++)
		for (size_t vi = 0; vi < t->nvals; vi++) {
			const struct rep_row *x = grp->rows[ri].at[vi];

			if (!x || !grp->rows[ri].b)
				continue;
			rows += vi == 0;
			vals++;
			if (!x->c[m].n) {
				nan++;
				continue;
			}
			if (isnan(lo) || x->c[m].min < lo)
				lo = x->c[m].min;
			if (isnan(hi) || x->c[m].max > hi)
				hi = x->c[m].max;
		}
	if (rows < 2)
		return 0;
	if (nan == vals)
		return 1;
	return !nan && hi - lo <= RATIO_SAME * fabs(hi);
}

#define RATIO_LEGEND_PX 40 /* the ratio chart's colour legend: a row of boxes under the cells */
#define RATIO_LEGEND_BOX 58 /* a legend box's width, px; "better" sits in a gap of 60 px before the grey box */
#define RATIO_LEGEND_WORSE 44 /* px left of the first box for "worse" (5 characters and a gap) */
/* The legend's whole width with "worse", px: the picture is never narrower than it plus 10 px a side. */
#define RATIO_LEGEND_W (RATIO_LEGEND_WORSE + 9 * RATIO_LEGEND_BOX + 60)

/*
 * The ratio chart's title centred on the picture (not on the cells, which the row names push right), the note
 * of the metrics without a ratio (the title's text from `base_len`) as a second line, and the colour legend:
 * the eight shades from "worse, beyond 2x" to "better, beyond 2x" and the grey of "no ratio".
 */
static void ratio_title_legend(struct chart_gp *g, size_t base_len)
{
	static const char *const shade[9] = { "#8c510a", "#bf812d", "#dfc27d", "#f6e8c3", "#d9f0d3", "#a6dba0",
					      "#5aae61", "#1b7837", "#eeeeee" };
	static const char *const text[9] = { ">2x", "25%-2x", "5-25%", "<5%", "<5%", "5-25%", "25%-2x", ">2x",
					     "n/a, -" };
	const double W = g->width, H = g->height, box = RATIO_LEGEND_BOX, y0 = 14, y1 = 34;
	/* the whole legend, "worse" included, centred: its first box RATIO_LEGEND_WORSE px from its left end */
	double x0 = (W - RATIO_LEGEND_W) / 2 + RATIO_LEGEND_WORSE;
	char *head = xstrndup(g->title.buf, base_len);

	strbuf_adds(&g->body, "set label 1 ");
	chart_gp_str(&g->body, head);
	strbuf_addf(&g->body, " at screen 0.5, screen %.4f center front\n", 1.0 - 22.0 / H);
	if (g->title.len > base_len) {
		strbuf_adds(&g->body, "set label 2 ");
		chart_gp_str(&g->body, g->title.buf + base_len + 1);
		strbuf_addf(&g->body, " at screen 0.5, screen %.4f center front\n", 1.0 - 40.0 / H);
	}
	for (int i = 0; i < 9; i++) {
		double a = x0 + box * i + (i == 8 ? 60 : 0); /* "better" between the shades and the grey */
		strbuf_addf(&g->body, "set object %d rect from screen %.4f, screen %.4f to screen %.4f, screen %.4f "
				      "fc rgb '%s' fs solid 1.0 noborder behind\n", 10 + i, a / W, y0 / H, (a + box - 2) / W,
			    y1 / H, shade[i]);
		strbuf_addf(&g->body, "set label %d '%s' at screen %.4f, screen %.4f center tc rgb '%s' front\n", 10 + i,
			    text[i], (a + box / 2 - 1) / W, (y0 + y1) / 2 / H, i == 0 || i == 7 ? "#ffffff" : "#111111");
	}
	strbuf_addf(&g->body, "set label 20 'worse' at screen %.4f, screen %.4f right\n", (x0 - 6) / W,
		    (y0 + y1) / 2 / H);
	strbuf_addf(&g->body, "set label 21 'better' at screen %.4f, screen %.4f left\n", (x0 + 8 * box + 4) / W,
		    (y0 + y1) / 2 / H);
	free(head);
}

/* (c) the ratios of a group as coloured cells: one row per workload and compared value, columns metrics. */
static int cmp_chart_ratios(struct chart_set *cs, const struct cmp_table *t, const struct cmp_group *grp,
			    struct errbuf *err)
{
	static const enum rep_metric cols[RM_NR] = { RM_IOPS, RM_MBPS, RM_RLAT, RM_WLAT, RM_RP99, RM_WP99, RM_CPU };
	static const char *const names[RM_NR] = { "IOPS", "MiB/s", "read lat", "write lat", "read p99",
						  "write p99", "CPU" };
	struct strbuf lab;
	size_t nrows = 0, longest = 8;
	struct chart_gp g;
	int same[RM_NR], nsame = 0;
	size_t base_len;

	strbuf_init(&lab);
	group_label(NULL, &lab, &grp->keys, grp->title);
	chart_gp_begin(&g, cs, 'c', lab.buf, 1100, 0);
	if (cs->o && cs->o->title)
		strbuf_addf(&g.title, "%s: ", cs->o->title);
	group_title(cs, &g.title, &grp->keys, grp->title);
	strbuf_addf(&g.title, ": ratio to %s", chart_alias(cs, t->key, t->b));
	base_len = g.title.len;
	for (int k = 0; k < RM_NR; k++) {
		same[k] = chart_metric_constant(t, grp, cols[k]);
		if (same[k])
			strbuf_addf(&g.title, "%s%s", nsame++ ? ", " : " (no ratio of ", names[k]);
	}
	if (nsame)
		strbuf_adds(&g.title, ": the same value within 0.5 % in every run, or none: n/a)");
	/* index 0: cells (x y colour); index 1: values on light cells; index 2: on dark cells */
	for (int pass = 0; pass < 3; pass++) {
		nrows = 0;
		for (size_t ri = 0; ri < grp->n; ri++)
			for (size_t vi = 0; vi + 1 < t->nvals; vi++) {
				const struct cmp_row *row = &grp->rows[ri];
				if (!(row->at[vi] && row->b))
					continue;
				for (int k = 0; k < RM_NR; k++) {
					double x = same[k] ? NAN : row->ratios[vi][cols[k]];
					int level;
					const char *cls = cmp_class(cols[k], x, &level);
					const char *rgb = !*cls ? "#eeeeee" : !strcmp(cls, "good") ? good_rgb[level] : bad_rgb[level];
					if (pass == 0) {
						strbuf_addf(&g.data, "%d %zu %ld\n", k, nrows, strtol(rgb + 1, NULL, 16));
						continue;
					}
					if ((pass == 2) != (level == 3))
						continue;
					if (same[k])
						strbuf_addf(&g.data, "%d %zu \"n/a\"\n", k, nrows);
					else if (isnan(x))
						strbuf_addf(&g.data, "%d %zu \"-\"\n", k, nrows);
					else
						strbuf_addf(&g.data, "%d %zu \"%.3f\"\n", k, nrows, x);
				}
				nrows++;
			}
		if (pass < 2)
			strbuf_adds(&g.data, pass == 0 ? "\n\n" : "0 -10 \"\"\n\n\n");
		else
			strbuf_adds(&g.data, "0 -10 \"\"\n");
	}
	if (!nrows) {
		chart_gp_discard(&g);
		strbuf_release(&lab);
		return 0;
	}
	strbuf_adds(&g.body, "set ytics (");
	nrows = 0;
	for (size_t ri = 0; ri < grp->n; ri++)
		for (size_t vi = 0; vi + 1 < t->nvals; vi++) {
			const struct cmp_row *row = ratio_row(grp, ri, vi);

			if (!row)
				continue;
			strbuf_reset(&lab);
			strbuf_adds(&lab, row->workload);
			if (t->nvals > 2)
				strbuf_addf(&lab, " (%s)", chart_alias(cs, t->key, t->vals[vi]));
			if (strlen(lab.buf) > longest)
				longest = strlen(lab.buf);
			strbuf_adds(&g.body, nrows ? ", '" : "'");
			esc_gnuplot_tic(&g.body, lab.buf);
			strbuf_addf(&g.body, "' %zu", nrows);
			nrows++;
		}
	/* rows of 24 px; the left margin holds the longest row name; the colour legend below (RATIO_LEGEND_PX) */
	g.height = 110 + RATIO_LEGEND_PX + 24 * (int)nrows + (nsame ? 18 : 0);
	g.width = 560 + (int)((double)longest * 6.9);
	if (g.width < RATIO_LEGEND_W + 20) /* short row names: the legend, "worse" to "n/a", stays whole */
		g.width = RATIO_LEGEND_W + 20;
	strbuf_addf(&g.body, ")\nunset key\nset border 0\nset tics scale 0\nunset xtics\nset link x2\n"
			     "set xrange [-0.5:%d.5]\nset yrange [%zu.5:-0.5]\nset lmargin at screen %.4f\n"
			     "set rmargin at screen 0.98\nset tmargin at screen %.4f\nset bmargin at screen %.4f\n",
		    RM_NR - 1, nrows - 1, ((double)longest * 6.9 + 20) / g.width,
		    1.0 - (70.0 + (nsame ? 18 : 0)) / g.height, (20.0 + RATIO_LEGEND_PX) / g.height);
	ratio_title_legend(&g, base_len);
	strbuf_adds(&g.body, "set x2tics (");
	for (int k = 0; k < RM_NR; k++)
		strbuf_addf(&g.body, "%s'%s' %d", k ? ", " : "", names[k], k);
	strbuf_adds(&g.body, ")\nplot ");
	chart_gp_datafile(&g, &g.body);
	strbuf_adds(&g.body, " index 0 using 1:2:(0.49):(0.46):3 with boxxyerror fs solid 1.0 noborder "
			     "lc rgb variable, '' index 1 using 1:2:3 with labels tc rgb '#111111', "
			     "'' index 2 using 1:2:3 with labels tc rgb '#ffffff'\n");
	strbuf_release(&lab);
	return chart_gp_finish(&g, err);
}

static int cmp_charts(struct chart_set *cs, const struct cmp_table *t, struct errbuf *err)
{
	struct strlist series = { 0 };
	const char **rgb = NULL;
	const char **seen = NULL;
	size_t nseen = 0, seen_cap = 0;
	int ret = -1;

	cmp_series(cs, t, &series, &rgb);
	/* (a) per workload, in the order rows first appear */
	for (size_t gi = 0; gi < t->n; gi++)
		for (size_t ri = 0; ri < t->v[gi].n; ri++) {
			const struct cmp_row *row0 = &t->v[gi].rows[ri];
			size_t k;

			for (k = 0; k < nseen && strcmp(seen[k], row0->match); k++)
				;
			if (k < nseen)
				continue;
			ARRAY_GROW(seen, seen_cap, nseen + 1);
			seen[nseen++] = row0->match;
			if (cmp_chart_workload(cs, t, row0, &series, rgb, err) < 0)
				goto out;
		}
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct cmp_group *grp = &t->v[gi];
		size_t compared = 0;

		for (size_t ri = 0; ri < grp->n; ri++)
			compared += grp->rows[ri].b && grp->rows[ri].present > 1;
		if (!compared)
			continue; /* a group of one value only: listed as unmatched, nothing to compare */
		if (cmp_chart_group(cs, t, grp, &series, rgb, PANELS_THROUGHPUT, err) < 0 ||
		    cmp_chart_ratios(cs, t, grp, err) < 0 ||
		    cmp_chart_group(cs, t, grp, &series, rgb, PANELS_LATENCY, err) < 0 ||
		    cmp_chart_group(cs, t, grp, &series, rgb, PANELS_P99, err) < 0)
			goto out;
	}
	ret = 0;
out:
	free(seen);
	free(rgb);
	strlist_release(&series);
	return ret;
}

/* ---- (a), (b), (d) without a comparison: the raw table's groups ------------------------------------ */

static int table_charts(struct chart_set *cs, const struct rep_table *t, struct errbuf *err)
{
	struct strbuf lab, title, axis, tail;
	struct strlist group_names = { 0 };
	const char **seen = NULL;
	size_t nseen = 0, seen_cap = 0;
	int ret = -1;

	strbuf_init(&lab);
	strbuf_init(&title);
	strbuf_init(&axis);
	strbuf_init(&tail);
	/* (a) per workload name: IOPS and MiB/s by group, when it appears in more than one group; the groups
	 * named by what differs between them */
	for (size_t gi = 0; gi < t->n; gi++)
		for (size_t ri = 0; ri < t->v[gi].n; ri++) {
			const struct rep_row *row0 = &t->v[gi].rows[ri];
			struct strlist cats = { 0 }, one = { 0 };
			const struct rep_row **rows = NULL;
			const struct kvlist **keys = NULL;
			const char **rgb = NULL, **titles = NULL;
			size_t k, n = 0, cap = 0, rcap = 0, kcap = 0, tcap = 0;
			int r = 0;

			for (k = 0; k < nseen && strcmp(seen[k], row0->name); k++)
				;
			if (k < nseen)
				continue;
			ARRAY_GROW(seen, seen_cap, nseen + 1);
			seen[nseen++] = row0->name;
			for (size_t gj = 0; gj < t->n; gj++)
				for (size_t rj = 0; rj < t->v[gj].n; rj++) {
					if (strcmp(t->v[gj].rows[rj].name, row0->name))
						continue;
					ARRAY_GROW(rows, cap, n + 1);
					ARRAY_GROW(rgb, rcap, n + 1);
					ARRAY_GROW(keys, kcap, n + 1);
					ARRAY_GROW(titles, tcap, n + 1);
					rows[n] = &t->v[gj].rows[rj];
					rgb[n] = chart_color(cs, t->v[gj].title);
					keys[n] = &t->v[gj].keys;
					titles[n++] = t->v[gj].title;
				}
			if (n >= 2) {
				strbuf_reset(&axis);
				strbuf_reset(&tail);
				category_names(cs, keys, titles, n, &cats, &axis, &tail);
				strlist_add(&one, "median");
				strbuf_reset(&title);
				strbuf_addf(&title, "%s: IOPS and bandwidth by %s%s", row0->name, axis.buf, tail.buf);
				r = bar_chart(cs, 'a', row0->name, title.buf, axis.buf, &cats, &one, rgb, 1, rows,
					      PANELS_THROUGHPUT, err);
			}
			strlist_release(&cats);
			strlist_release(&one);
			free(rows);
			free(rgb);
			free(keys);
			free(titles);
			if (r < 0)
				goto out;
		}
	/* (b), (d) per group: its one series named, as the categories of (a), by what differs between groups */
	{
		const struct kvlist **keys = xcalloc(t->n + 1, sizeof(*keys));
		const char **titles = xcalloc(t->n + 1, sizeof(*titles));

		for (size_t gi = 0; gi < t->n; gi++) {
			keys[gi] = &t->v[gi].keys;
			titles[gi] = t->v[gi].title;
		}
		strbuf_reset(&axis);
		strbuf_reset(&tail);
		category_names(cs, keys, titles, t->n, &group_names, &axis, &tail);
		free(keys);
		free(titles);
	}
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct rep_group *grp = &t->v[gi];
		struct strlist cats = { 0 }, one = { 0 };
		const struct rep_row **rows = xcalloc(grp->n + 1, sizeof(*rows));
		const char *rgb[1];
		int r;

		rgb[0] = chart_color(cs, grp->title);
		for (size_t ri = 0; ri < grp->n; ri++) {
			strlist_add(&cats, grp->rows[ri].name);
			rows[ri] = &grp->rows[ri];
		}
		strlist_add(&one, group_names.v[gi]);
		strbuf_reset(&lab);
		group_label(NULL, &lab, &grp->keys, grp->title); /* the file name: stored values */
		strbuf_reset(&title);
		group_title(cs, &title, &grp->keys, grp->title);
		strbuf_adds(&title, ": IOPS and bandwidth per workload");
		r = bar_chart(cs, 'b', lab.buf, title.buf, "workload", &cats, &one, rgb, 0, rows,
			      PANELS_THROUGHPUT, err);
		for (enum panels p = PANELS_LATENCY; r == 0 && p <= PANELS_P99; p++) {
			strbuf_reset(&title);
			group_title(cs, &title, &grp->keys, grp->title);
			strbuf_addf(&title, ": %s per workload", panels_what[p]);
			r = bar_chart(cs, 'd', lab.buf, title.buf, "workload", &cats, &one, rgb, 0, rows, p, err);
		}
		strlist_release(&cats);
		strlist_release(&one);
		free(rows);
		if (r < 0)
			goto out;
	}
	ret = 0;
out:
	free(seen);
	strlist_release(&group_names);
	strbuf_release(&lab);
	strbuf_release(&title);
	strbuf_release(&axis);
	strbuf_release(&tail);
	return ret;
}

/* ---- (e) time series and (f) latency CDF ---------------------------------------------------------- */

/* A run's line title among the runs of one chart: "run 12 config=raid5-NVMe-oF" with aliased values of the
 * labels that tell the chart's runs apart (`shown`, keys_that_differ), "rep 2" for a repetition. */
static void run_title(const struct chart_set *cs, struct strbuf *sb, const struct rep_run *r,
		      const struct kvlist *shown)
{
	strbuf_addf(sb, "run %lld", (long long)r->id);
	for (size_t k = 0; k < shown->n; k++) {
		const char *v = kvlist_get(&r->labels, shown->v[k].key, NULL);
		if (v)
			strbuf_addf(sb, " %s=%s", shown->v[k].key, chart_alias(cs, shown->v[k].key, v));
	}
	if (r->repetition > 1)
		strbuf_addf(sb, " rep %d", r->repetition);
}

/* The histogram bins of the aggregate read (bins[0]) and write (bins[1]) results of a run. */
static int run_bins(struct store *st, int64_t run_id, struct hist_bin *bins[2], size_t nbins[2],
		    struct errbuf *err)
{
	struct store_result *res;
	size_t nres;
	int ret = 0;

	bins[0] = bins[1] = NULL;
	nbins[0] = nbins[1] = 0;
	if (store_read_results(st, run_id, "*", &res, &nres, err) < 0)
		return -1;
	for (size_t i = 0; i < nres && ret == 0; i++) {
		int d = res[i].ddir == DDIR_READ ? 0 : res[i].ddir == DDIR_WRITE ? 1 : -1;

		if (d >= 0 && !bins[d])
			ret = store_read_bins(st, res[i].id, &bins[d], &nbins[d], err);
	}
	store_results_free(res, nres);
	if (ret < 0) {
		free(bins[0]);
		free(bins[1]);
	}
	return ret;
}

/*
 * The CDF's line titles: "run 12 config=mdadm-raid0-nvmeof read" with only the labels that tell the chart's
 * runs apart (keys_that_differ); the labels every run shares go once into `sub` (" (suite=...)"), the
 * title's second line.
 * Returns the longest title's length.
 */
static size_t cdf_line_titles(const struct chart_set *cs, struct strbuf *sub, struct strlist *titles,
			      const struct rep_run *const *runs, size_t nrun, const size_t *line_run,
			      const int *line_dir)
{
	const struct kvlist *items[MAX_CDF_LINES];
	struct kvlist shown, shared;
	struct strbuf lab;
	size_t longest = 0;

	kvlist_init(&shown);
	kvlist_init(&shared);
	strbuf_init(&lab);
	for (size_t i = 0; i < nrun; i++)
		items[i] = &runs[i]->labels;
	if (nrun)
		keys_that_differ(cs, items, nrun, &shown, &shared);
	if (nrun > 1)
		shared_note(cs, sub, &shared);
	for (size_t x = 0; x < titles->n; x++) {
		strbuf_reset(&lab);
		run_title(cs, &lab, runs[line_run[x]], &shown);
		strbuf_adds(&lab, line_dir[x] ? " write" : " read");
		free(titles->v[x]);
		titles->v[x] = xstrdup(lab.buf);
		if (lab.len > longest)
			longest = lab.len;
	}
	kvlist_release(&shown);
	kvlist_release(&shared);
	strbuf_release(&lab);
	return longest;
}

/* The CDF picture's size: the key below the plot, in as many columns as fit (an entry: its text at about
 * 7 px a character and the line sample), the picture taller by its rows and never narrower than one entry,
 * so that the key stays inside the picture. */
static void cdf_layout(struct chart_gp *g, size_t nlines, size_t longest)
{
	double entry = (double)longest * 7.0 + 80.0;
	size_t cols = (size_t)((g->width - 40) / entry), rows;

	if (cols < 1) {
		cols = 1;
		g->width = (int)entry + 40;
	}
	if (cols > nlines)
		cols = nlines;
	rows = (nlines + cols - 1) / cols;
	g->height += (int)rows * 18 + 10;
}

static int cdf_charts(struct chart_set *cs, struct store *st, const struct rep_set *set,
		      struct errbuf *err)
{
	struct strbuf lab;
	char **seen = NULL;
	size_t nseen = 0, seen_cap = 0;
	int ret = -1;

	strbuf_init(&lab);
	/* One chart per workload name: every selected run of it overlaid, read and write. */
	for (size_t i = 0; i < set->n; i++) {
		struct chart_gp g;
		struct strlist titles = { 0 };
		size_t k, line_run[MAX_CDF_LINES], nrun = 0, nall = 0, longest;
		const struct rep_run *runs[MAX_CDF_LINES];
		int line_dir[MAX_CDF_LINES];

		for (k = 0; k < nseen; k++)
			if (!strcmp(seen[k], set->v[i].name))
				break;
		if (k < nseen)
			continue;
		ARRAY_GROW(seen, seen_cap, nseen + 1);
		seen[nseen++] = set->v[i].name;
		chart_gp_begin(&g, cs, 'f', set->v[i].name, 1100, 520);
		strbuf_addf(&g.title, "%s: latency CDF from histogram bins", set->v[i].name);
		for (size_t j = i; j < set->n; j++) {
			const struct rep_run *r = &set->v[j];
			struct hist_bin *bins[2];
			size_t nbins[2], before = titles.n;

			if (strcmp(r->name, set->v[i].name) || (strcmp(r->status, "done") && strcmp(r->status, "partial")))
				continue;
			nall++;
			if (titles.n + 2 > MAX_CDF_LINES)
				continue; /* counted: the title says how many runs are drawn */
			if (run_bins(st, r->id, bins, nbins, err) < 0) {
				strlist_release(&titles);
				chart_gp_discard(&g);
				goto out;
			}
			for (int d = 0; d < 2; d++) {
				double run = 0, total = 0;

				for (size_t b = 0; b < nbins[d]; b++)
					total += (double)bins[d][b].count;
				if (nbins[d] && total > 0 && titles.n < MAX_CDF_LINES) {
					if (titles.n)
						strbuf_adds(&g.data, "\n\n");
					for (size_t b = 0; b < nbins[d]; b++) {
						run += (double)bins[d][b].count;
						chart_gp_num(&g.data, (double)bins[d][b].value_ns / 1e6);
						chart_gp_num(&g.data, run / total);
						strbuf_addc(&g.data, '\n');
					}
					line_run[titles.n] = nrun;
					line_dir[titles.n] = d;
					runs[nrun] = r;
					strlist_add(&titles, ""); /* made below, once every run of the chart is known */
				}
				free(bins[d]);
			}
			if (titles.n > before)
				nrun++;
			else
				nall--; /* no histogram: not a run this chart could draw */
		}
		if (nall > nrun)
			strbuf_addf(&g.title, " (the first %zu of %zu runs)", nrun, nall);
		strbuf_reset(&lab);
		longest = cdf_line_titles(cs, &lab, &titles, runs, nrun, line_run, line_dir);
		if (titles.n) {
			cdf_layout(&g, titles.n, longest);
			strbuf_adds(&g.body, "set grid lc rgb '#dddddd'\nset border 3\nset tics nomirror\nset logscale x\n"
					     "set xlabel 'latency (ms)'\nset ylabel 'fraction of IOs'\nset yrange [0:1]\n"
					     "set key below left Left reverse maxcols 8\nset title ");
			chart_gp_str(&g.body, g.title.buf);
			if (lab.len) { /* the labels every line shares, once: the title's second line */
				chart_gp_newline(&g.body);
				chart_gp_str(&g.body, lab.buf + 1);
				strbuf_adds(&g.title, lab.buf);
			}
			strbuf_adds(&g.body, "\nplot ");
			for (size_t x = 0; x < titles.n; x++) {
				if (x)
					strbuf_adds(&g.body, ", ");
				chart_gp_datafile(&g, &g.body);
				/* one colour per run (its read and write lines alike), write dashed */
				strbuf_addf(&g.body, " index %zu using 1:2 with steps lw 1.5 lc rgb '%s' dt %d title ", x,
					    chart_palette(line_run[x]), line_dir[x] ? 2 : 1);
				chart_gp_str(&g.body, titles.v[x]);
			}
			strbuf_adds(&g.body, "\n");
			ret = chart_gp_finish(&g, err);
		} else {
			chart_gp_discard(&g);
			ret = 0;
		}
		strlist_release(&titles);
		if (ret < 0)
			goto out;
	}
	ret = 0;
out:
	strbuf_release(&lab);
	free(seen);
	return ret;
}

int charts_write(struct chart_set *cs, const char *dir, struct store *st, const struct rep_set *set,
		 const struct rep_table *t, const struct cmp_table *cmp, unsigned fmts, struct errbuf *err)
{
	return charts_write_opts(cs, dir, st, set, t, cmp, fmts, NULL, err);
}

int charts_write_opts(struct chart_set *cs, const char *dir, struct store *st, const struct rep_set *set,
		      const struct rep_table *t, const struct cmp_table *cmp, unsigned fmts,
		      const struct chart_opts *o, struct errbuf *err)
{
	int ret = 0;

	if (chart_set_dir(cs, dir, err) < 0)
		return -1;
	cs->fmts = fmts;
	if (o && o->dpi)
		cs->dpi = o->dpi;
	cs->o = o;
	cs->aliases = o ? o->aliases : NULL;
	if (cmp ? cmp_charts(cs, cmp, err) < 0 : table_charts(cs, t, err) < 0)
		ret = -1;
	else if (st && (chart_time_write(cs, st, set, err) < 0 || cdf_charts(cs, st, set, err) < 0))
		ret = -1;
	cs->o = NULL;
	cs->aliases = NULL;
	return ret;
}
