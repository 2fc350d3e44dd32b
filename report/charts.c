/*
 * charts: gnuplot scripts and data files for the report's charts (charts.h). Each chart is a pair
 * <stem>.gp / <stem>.dat; the script draws the same body once per requested terminal (pngcairo, svg).
 * User text reaches scripts only through esc_gnuplot (single-quoted strings) and data files only through
 * esc_gnuplot_data (read, never evaluated).
 */
#include "report/charts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/store_read.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "report/chart_time.h"
#include "report/escape.h"

#define COLOR_A "#3566b5"   /* the compared side */
#define COLOR_B "#9ba5b1"   /* the baseline */
#define COLOR_READ "#3566b5"
#define COLOR_WRITE "#d08a2c"
#define MAX_CDF_LINES 16    /* CDF chart: at most this many lines */

/* Ratio cell colours by class and magnitude level 0..3 (the HTML report uses the same). */
static const char *const good_rgb[4] = { "#d9f0d3", "#a6dba0", "#5aae61", "#1b7837" };
static const char *const bad_rgb[4] = { "#f6e8c3", "#dfc27d", "#bf812d", "#8c510a" };

void chart_set_init(struct chart_set *cs)
{
	memset(cs, 0, sizeof(*cs));
}

void chart_set_release(struct chart_set *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->v[i].stem);
		free(cs->v[i].title);
		free(cs->v[i].script);
	}
	free(cs->v);
	free(cs->dir);
	chart_set_init(cs);
}

void chart_slug(struct strbuf *out, const char *s)
{
	size_t start = out->len;
	int dash = 0;

	for (; *s && out->len - start < 48; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && out->len > start)
				strbuf_addc(out, '-');
			strbuf_addc(out, (char)c);
			dash = 0;
		} else if (c >= 'A' && c <= 'Z') {
			if (dash && out->len > start)
				strbuf_addc(out, '-');
			strbuf_addc(out, (char)(c - 'A' + 'a'));
			dash = 0;
		} else {
			dash = 1;
		}
	}
	if (out->len == start)
		strbuf_adds(out, "x");
}

char *chart_path(const struct chart_set *cs, const struct chart *c, const char *ext)
{
	return xasprintf("%s/%s.%s", cs->dir, c->stem, ext);
}

static int write_text(const char *path, const struct strbuf *sb, struct errbuf *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(errno));
	if (fwrite(sb->buf, 1, sb->len, f) != sb->len || fclose(f) != 0) {
		int e = errno;
		return err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

/* ---- one chart ----------------------------------------------------------------------------------- */

struct gp {
	struct chart_set *cs;
	unsigned fmts;
	char kind;
	struct strbuf stem, title, body, data;
	int width, height; /* pixels */
};

static void gp_begin(struct gp *g, struct chart_set *cs, unsigned fmts, char kind, const char *name,
		     int width, int height)
{
	memset(g, 0, sizeof(*g));
	g->cs = cs;
	g->fmts = fmts;
	g->kind = kind;
	g->width = width;
	g->height = height;
	strbuf_init(&g->stem);
	strbuf_init(&g->title);
	strbuf_init(&g->body);
	strbuf_init(&g->data);
	strbuf_addf(&g->stem, "%c-%02zu-", kind, cs->n + 1);
	chart_slug(&g->stem, name);
}

static void gp_discard(struct gp *g)
{
	strbuf_release(&g->stem);
	strbuf_release(&g->title);
	strbuf_release(&g->body);
	strbuf_release(&g->data);
}

/* The data file name as a gnuplot string (a slug: safe, quoted anyway). */
static void gp_datafile(struct gp *g)
{
	strbuf_adds(&g->body, "'");
	esc_gnuplot(&g->body, g->stem.buf);
	strbuf_adds(&g->body, ".dat'");
}

static void gp_str(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, '\'');
	esc_gnuplot(sb, s);
	strbuf_addc(sb, '\'');
}

static void gp_num(struct strbuf *sb, double v)
{
	if (isnan(v) || isinf(v))
		strbuf_adds(sb, " NaN");
	else
		strbuf_addf(sb, " %.10g", v);
}

static int gp_finish(struct gp *g, struct errbuf *err)
{
	static const struct { unsigned fmt; const char *ext, *term; } terms[] = {
		{ CHART_PNG, "png", "pngcairo noenhanced font 'DejaVu Sans,10'" },
		{ CHART_SVG, "svg", "svg dynamic noenhanced font 'DejaVu Sans,11' background '#ffffff'" },
	};
	struct strbuf sc;
	struct chart *c;
	char *path;
	int ret;

	strbuf_init(&sc);
	strbuf_adds(&sc, "# bench report chart; user text only inside single-quoted strings\n"
			 "set encoding utf8\nset datafile missing 'NaN'\n");
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		if (!(g->fmts & terms[i].fmt))
			continue;
		strbuf_addf(&sc, "set terminal %s size %d,%d\n", terms[i].term, g->width, g->height);
		strbuf_addf(&sc, "set output '%s.%s'\n", g->stem.buf, terms[i].ext);
		strbuf_add(&sc, g->body.buf, g->body.len);
		strbuf_adds(&sc, "unset output\nreset\nset datafile missing 'NaN'\n");
	}
	path = xasprintf("%s/%s.dat", g->cs->dir, g->stem.buf);
	ret = write_text(path, &g->data, err);
	free(path);
	if (ret == 0) {
		path = xasprintf("%s/%s.gp", g->cs->dir, g->stem.buf);
		ret = write_text(path, &sc, err);
		free(path);
	}
	strbuf_release(&sc);
	if (ret == 0) {
		ARRAY_GROW(g->cs->v, g->cs->cap, g->cs->n + 1);
		c = &g->cs->v[g->cs->n++];
		c->kind = g->kind;
		c->stem = xstrdup(g->stem.buf);
		c->title = xstrdup(g->title.buf);
		c->script = xasprintf("%s.gp", g->stem.buf);
	}
	gp_discard(g);
	return ret;
}

/* Common settings of bar charts. */
static void bar_style(struct strbuf *b, int rotate)
{
	strbuf_adds(b, "set style data histograms\nset style histogram clustered gap 1\n"
		       "set style fill solid 0.9 border rgb '#555555'\nset boxwidth 0.9\n"
		       "set grid ytics lc rgb '#dddddd'\nset border 3\nset tics nomirror\n"
		       "set key inside top right vertical opaque box lc rgb '#cccccc'\nset yrange [0:*]\n"
		       "set offsets 0, 0, graph 0.15, 0\nset format y '%g'\n");
	if (rotate)
		strbuf_adds(b, "set xtics rotate by 30 right font ',9'\nset bmargin 9\nset lmargin 18\n");
}

/* ---- labels ---------------------------------------------------------------------------------------- */

/* A short name for a workload row: tool, block size, read %, random % when known, else its name. */
static void row_label(struct strbuf *sb, const struct rep_run *r, int use_name)
{
	char bs[32];

	if (use_name || !r->bs_bytes || r->read_pct < 0 || r->random_pct < 0) {
		strbuf_adds(sb, r->name);
		return;
	}
	strbuf_addf(sb, "%s %s %d%%rd %d%%rand", r->tool ? r->tool : "", format_size_short(r->bs_bytes, bs,
		    sizeof(bs)), r->read_pct, r->random_pct);
}

/* The values of a group's keys joined by ' ' ("mdadm-raid5"), or its title. */
static void group_label(struct strbuf *sb, const struct kvlist *keys, const char *title)
{
	if (!keys->n) {
		strbuf_adds(sb, title);
		return;
	}
	for (size_t i = 0; i < keys->n; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", keys->v[i].value ? keys->v[i].value : "");
}

static double med(const struct rep_row *r, enum rep_metric m)
{
	return r && r->c[m].n ? r->c[m].med : NAN;
}

/* One data line of an A-vs-B bar chart: label, IOPS of A and B, MiB/s of A and B. */
static void ab_data_row(struct gp *g, const char *label, const struct cmp_row *row)
{
	esc_gnuplot_data(&g->data, label);
	gp_num(&g->data, med(row->a, RM_IOPS));
	gp_num(&g->data, med(row->b, RM_IOPS));
	gp_num(&g->data, med(row->a, RM_MBPS));
	gp_num(&g->data, med(row->b, RM_MBPS));
	strbuf_addc(&g->data, '\n');
}

/* The two panels (IOPS, MiB/s) of a one-side bar chart over lines: label, IOPS, MiB/s. */
static void one_side_panels(struct gp *g)
{
	bar_style(&g->body, 1);
	strbuf_adds(&g->body, "set multiplot layout 1,2 title ");
	gp_str(&g->body, g->title.buf);
	strbuf_adds(&g->body, "\nunset key\n");
	for (int p = 0; p < 2; p++) {
		strbuf_addf(&g->body, "set title '%s'\nset format y '%s'\nplot ", p ? "MiB/s" : "IOPS",
			    p ? "%g" : "%.0s%c");
		gp_datafile(g);
		strbuf_addf(&g->body, " using %d:xtic(1) lc rgb '%s'\n", p ? 3 : 2, COLOR_A);
	}
	strbuf_adds(&g->body, "unset multiplot\n");
}

/* The two panels (IOPS, MiB/s) of an A-vs-B bar chart over the data lines of ab_data_row. */
static void ab_panels(struct gp *g, const char *side_a, const char *side_b)
{
	bar_style(&g->body, 1);
	strbuf_adds(&g->body, "set multiplot layout 1,2 title ");
	gp_str(&g->body, g->title.buf);
	strbuf_adds(&g->body, "\n");
	for (int p = 0; p < 2; p++) {
		strbuf_addf(&g->body, "set title '%s'\nset format y '%s'\nplot ", p ? "MiB/s" : "IOPS",
			    p ? "%g" : "%.0s%c");
		gp_datafile(g);
		strbuf_addf(&g->body, " using %d:xtic(1) title ", p ? 4 : 2);
		gp_str(&g->body, side_a);
		strbuf_addf(&g->body, " lc rgb '%s', '' using %d title ", COLOR_A, p ? 5 : 3);
		gp_str(&g->body, side_b);
		strbuf_addf(&g->body, " lc rgb '%s'\n", COLOR_B);
	}
	strbuf_adds(&g->body, "unset multiplot\n");
}

/* ---- (a)-(d) with a ratio table -------------------------------------------------------------------- */

static int cmp_charts(struct chart_set *cs, const struct cmp_table *t, unsigned fmts, struct errbuf *err)
{
	struct strbuf lab;
	char **seen = NULL;
	size_t nseen = 0, seen_cap = 0;
	int use_name = t->match == REP_MATCH_NAME, ret = -1;
	struct strbuf sa, sb_;

	strbuf_init(&lab);
	strbuf_init(&sa);
	strbuf_init(&sb_);
	strbuf_addf(&sa, "%s=%s", t->key, t->a);
	strbuf_addf(&sb_, "%s=%s", t->key, t->b);

	/* (a) per workload: bars by group, one per side; two panels (IOPS, MiB/s). */
	for (size_t gi = 0; gi < t->n; gi++) {
		for (size_t ri = 0; ri < t->v[gi].n; ri++) {
			const struct cmp_row *row0 = &t->v[gi].rows[ri];
			struct gp g;
			size_t k;

			for (k = 0; k < nseen; k++)
				if (!strcmp(seen[k], row0->match))
					break;
			if (k < nseen)
				continue;
			ARRAY_GROW(seen, seen_cap, nseen + 1);
			seen[nseen++] = row0->match;
			strbuf_reset(&lab);
			row_label(&lab, row0->a ? row0->a->runs[0] : row0->b->runs[0], use_name);
			gp_begin(&g, cs, fmts, 'a', lab.buf, 1200, 480);
			strbuf_addf(&g.title, "%s: IOPS and MiB/s by group, %s vs %s", lab.buf, sa.buf, sb_.buf);
			for (size_t gj = 0; gj < t->n; gj++)
				for (size_t rj = 0; rj < t->v[gj].n; rj++) {
					const struct cmp_row *row = &t->v[gj].rows[rj];
					if (strcmp(row->match, row0->match))
						continue;
					strbuf_reset(&lab);
					group_label(&lab, &t->v[gj].keys, t->v[gj].title);
					ab_data_row(&g, lab.buf, row);
				}
			ab_panels(&g, sa.buf, sb_.buf);
			if (gp_finish(&g, err) < 0)
				goto out;
		}
	}

	for (size_t gi = 0; gi < t->n; gi++) {
		const struct cmp_group *grp = &t->v[gi];
		size_t matched = 0;
		struct gp g;

		for (size_t ri = 0; ri < grp->n; ri++)
			matched += grp->rows[ri].a && grp->rows[ri].b;
		if (!matched)
			continue; /* a group on one side only: listed as unmatched, nothing to compare */

		/* (b) per group: A and B for every workload (IOPS and MiB/s panels). */
		strbuf_reset(&lab);
		group_label(&lab, &grp->keys, grp->title);
		gp_begin(&g, cs, fmts, 'b', lab.buf, 1200, 560);
		strbuf_addf(&g.title, "%s: %s vs %s", grp->title, sa.buf, sb_.buf);
		for (size_t ri = 0; ri < grp->n; ri++) {
			const struct cmp_row *row = &grp->rows[ri];
			strbuf_reset(&lab);
			row_label(&lab, row->a ? row->a->runs[0] : row->b->runs[0], use_name);
			ab_data_row(&g, lab.buf, row);
		}
		ab_panels(&g, sa.buf, sb_.buf);
		if (gp_finish(&g, err) < 0)
			goto out;

		/* (c) the ratio table as coloured cells: rows = workloads, columns = metrics. */
		{
			static const enum rep_metric cols[RM_NR] = { RM_IOPS, RM_MBPS, RM_RLAT, RM_WLAT, RM_RP99,
								     RM_WP99, RM_CPU };
			static const char *const names[RM_NR] = { "IOPS", "MiB/s", "read lat", "write lat",
								  "read p99", "write p99", "CPU" };
			size_t nrows = 0;

			strbuf_reset(&lab);
			group_label(&lab, &grp->keys, grp->title);
			gp_begin(&g, cs, fmts, 'c', lab.buf, 1100, 140 + 34 * (int)grp->n);
			strbuf_addf(&g.title, "%s: ratio %s / %s", grp->title, sa.buf, sb_.buf);
			/* index 0: cells (x y colour); index 1: values on light cells; index 2: on dark cells */
			for (int pass = 0; pass < 3; pass++) {
				nrows = 0;
				for (size_t ri = 0; ri < grp->n; ri++) {
					const struct cmp_row *row = &grp->rows[ri];
					if (!(row->a && row->b))
						continue;
					for (int k = 0; k < RM_NR; k++) {
						double x = row->ratio[cols[k]];
						int level;
						const char *cls = cmp_class(cols[k], x, &level);
						const char *rgb = !*cls ? "#eeeeee" :
								  !strcmp(cls, "good") ? good_rgb[level] : bad_rgb[level];
						if (pass == 0) {
							strbuf_addf(&g.data, "%d %zu %ld\n", k, nrows, strtol(rgb + 1, NULL, 16));
							continue;
						}
						if ((pass == 2) != (level == 3))
							continue;
						if (isnan(x))
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
			strbuf_adds(&g.body, "set title ");
			gp_str(&g.body, g.title.buf);
			strbuf_addf(&g.body, "\nunset key\nset border 0\nset tics scale 0\nunset xtics\nset link x2\n"
					     "set xrange [-0.5:%d.5]\nset yrange [%zu.5:-0.5]\nset lmargin 34\nset x2tics (",
				    RM_NR - 1, nrows ? nrows - 1 : 0);
			for (int k = 0; k < RM_NR; k++)
				strbuf_addf(&g.body, "%s'%s' %d", k ? ", " : "", names[k], k);
			strbuf_adds(&g.body, ")\nset ytics (");
			nrows = 0;
			for (size_t ri = 0; ri < grp->n; ri++) {
				const struct cmp_row *row = &grp->rows[ri];
				if (!(row->a && row->b))
					continue;
				strbuf_reset(&lab);
				row_label(&lab, row->a->runs[0], use_name);
				strbuf_adds(&g.body, nrows ? ", '" : "'");
				esc_gnuplot_tic(&g.body, lab.buf);
				strbuf_addc(&g.body, '\'');
				strbuf_addf(&g.body, " %zu", nrows);
				nrows++;
			}
			strbuf_adds(&g.body, ")\nplot ");
			gp_datafile(&g);
			strbuf_adds(&g.body, " index 0 using 1:2:(0.49):(0.46):3 with boxxyerror fs solid 1.0 noborder "
					     "lc rgb variable, '' index 1 using 1:2:3 with labels tc rgb '#111111', "
					     "'' index 2 using 1:2:3 with labels tc rgb '#ffffff'\n");
			if (gp_finish(&g, err) < 0)
				goto out;
		}

		/* (d) read and write mean latency per workload, both sides. */
		strbuf_reset(&lab);
		group_label(&lab, &grp->keys, grp->title);
		gp_begin(&g, cs, fmts, 'd', lab.buf, 1200, 520);
		strbuf_addf(&g.title, "%s: mean latency (ms), %s vs %s", grp->title, sa.buf, sb_.buf);
		for (size_t ri = 0; ri < grp->n; ri++) {
			const struct cmp_row *row = &grp->rows[ri];
			strbuf_reset(&lab);
			row_label(&lab, row->a ? row->a->runs[0] : row->b->runs[0], use_name);
			esc_gnuplot_data(&g.data, lab.buf);
			gp_num(&g.data, med(row->a, RM_RLAT));
			gp_num(&g.data, med(row->b, RM_RLAT));
			gp_num(&g.data, med(row->a, RM_WLAT));
			gp_num(&g.data, med(row->b, RM_WLAT));
			strbuf_addc(&g.data, '\n');
		}
		bar_style(&g.body, 1);
		strbuf_adds(&g.body, "set title ");
		gp_str(&g.body, g.title.buf);
		strbuf_adds(&g.body, "\nset ylabel 'ms'\nplot ");
		gp_datafile(&g);
		for (int k = 0; k < 4; k++) {
			strbuf_addf(&g.body, "%s using %d%s title ", k ? ", ''" : "", 2 + k, k ? "" : ":xtic(1)");
			strbuf_reset(&lab);
			strbuf_addf(&lab, "%s %s", k < 2 ? "read" : "write", k % 2 ? sb_.buf : sa.buf);
			gp_str(&g.body, lab.buf);
			strbuf_addf(&g.body, " lc rgb '%s'%s", k < 2 ? COLOR_READ : COLOR_WRITE,
				    k % 2 ? " fs pattern 4 border rgb '#555555'" : "");
		}
		strbuf_adds(&g.body, "\n");
		if (gp_finish(&g, err) < 0)
			goto out;
	}
	ret = 0;
out:
	free(seen);
	strbuf_release(&lab);
	strbuf_release(&sa);
	strbuf_release(&sb_);
	return ret;
}

/* ---- (a), (b), (d) without a ratio table: the raw table's groups --------------------------------------- */

static int table_charts(struct chart_set *cs, const struct rep_table *t, unsigned fmts, struct errbuf *err)
{
	struct strbuf lab;
	char **seen = NULL;
	size_t nseen = 0, seen_cap = 0;
	int ret = -1;

	strbuf_init(&lab);
	/* (a) per workload name: IOPS and MiB/s by group, when it appears in more than one group. */
	for (size_t gi = 0; gi < t->n; gi++)
		for (size_t ri = 0; ri < t->v[gi].n; ri++) {
			const struct rep_row *row0 = &t->v[gi].rows[ri];
			size_t k, ngroups = 0;
			struct gp g;

			for (k = 0; k < nseen; k++)
				if (!strcmp(seen[k], row0->name))
					break;
			if (k < nseen)
				continue;
			ARRAY_GROW(seen, seen_cap, nseen + 1);
			seen[nseen++] = row0->name;
			gp_begin(&g, cs, fmts, 'a', row0->name, 1200, 480);
			strbuf_addf(&g.title, "%s: IOPS and MiB/s by group", row0->name);
			for (size_t gj = 0; gj < t->n; gj++)
				for (size_t rj = 0; rj < t->v[gj].n; rj++) {
					const struct rep_row *row = &t->v[gj].rows[rj];
					if (strcmp(row->name, row0->name))
						continue;
					strbuf_reset(&lab);
					group_label(&lab, &t->v[gj].keys, t->v[gj].title);
					esc_gnuplot_data(&g.data, lab.buf);
					gp_num(&g.data, med(row, RM_IOPS));
					gp_num(&g.data, med(row, RM_MBPS));
					strbuf_addc(&g.data, '\n');
					ngroups++;
				}
			if (ngroups < 2) {
				gp_discard(&g);
				continue;
			}
			one_side_panels(&g);
			if (gp_finish(&g, err) < 0)
				goto out;
		}
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct rep_group *grp = &t->v[gi];
		struct gp g;

		strbuf_reset(&lab);
		group_label(&lab, &grp->keys, grp->title);
		gp_begin(&g, cs, fmts, 'b', lab.buf, 1200, 560);
		strbuf_addf(&g.title, "%s: IOPS and MiB/s per workload", grp->title);
		for (size_t ri = 0; ri < grp->n; ri++) {
			esc_gnuplot_data(&g.data, grp->rows[ri].name);
			gp_num(&g.data, med(&grp->rows[ri], RM_IOPS));
			gp_num(&g.data, med(&grp->rows[ri], RM_MBPS));
			strbuf_addc(&g.data, '\n');
		}
		one_side_panels(&g);
		if (gp_finish(&g, err) < 0)
			goto out;

		strbuf_reset(&lab);
		group_label(&lab, &grp->keys, grp->title);
		gp_begin(&g, cs, fmts, 'd', lab.buf, 1200, 520);
		strbuf_addf(&g.title, "%s: mean latency (ms)", grp->title);
		for (size_t ri = 0; ri < grp->n; ri++) {
			esc_gnuplot_data(&g.data, grp->rows[ri].name);
			gp_num(&g.data, med(&grp->rows[ri], RM_RLAT));
			gp_num(&g.data, med(&grp->rows[ri], RM_WLAT));
			strbuf_addc(&g.data, '\n');
		}
		bar_style(&g.body, 1);
		strbuf_adds(&g.body, "set title ");
		gp_str(&g.body, g.title.buf);
		strbuf_adds(&g.body, "\nset ylabel 'ms'\nplot ");
		gp_datafile(&g);
		strbuf_addf(&g.body, " using 2:xtic(1) title 'read' lc rgb '%s', '' using 3 title 'write' lc rgb '%s'\n",
			    COLOR_READ, COLOR_WRITE);
		if (gp_finish(&g, err) < 0)
			goto out;
	}
	ret = 0;
out:
	free(seen);
	strbuf_release(&lab);
	return ret;
}

/* ---- (e) time series and (f) latency CDF ---------------------------------------------------------- */

static void run_title(struct strbuf *sb, const struct rep_run *r, int with_name)
{
	strbuf_addf(sb, "run %lld", (long long)r->id);
	if (with_name)
		strbuf_addf(sb, " %s", r->name);
	for (size_t i = 0; i < r->labels.n; i++)
		strbuf_addf(sb, " %s=%s", r->labels.v[i].key, r->labels.v[i].value ? r->labels.v[i].value : "");
	if (r->repetition > 1)
		strbuf_addf(sb, " rep %d", r->repetition);
}

/* (e) charts over time (chart_time.h), registered here. */
static int time_charts(struct chart_set *cs, struct store *st, const struct rep_set *set, unsigned fmts,
		       struct errbuf *err)
{
	struct time_chart *tc;
	size_t n;
	int ret = chart_time_write(cs->dir, cs->n, st, set, !!(fmts & CHART_PNG), !!(fmts & CHART_SVG), &tc, &n, err);

	for (size_t i = 0; i < n; i++) {
		ARRAY_GROW(cs->v, cs->cap, cs->n + 1);
		cs->v[cs->n].kind = 'e';
		cs->v[cs->n].stem = tc[i].stem;
		cs->v[cs->n].title = tc[i].title;
		cs->v[cs->n++].script = xasprintf("%s.gp", tc[i].stem);
	}
	free(tc);
	return ret;
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

static int cdf_charts(struct chart_set *cs, struct store *st, const struct rep_set *set, unsigned fmts,
		      struct errbuf *err)
{
	struct strbuf lab;
	char **seen = NULL;
	size_t nseen = 0, seen_cap = 0;
	int ret = -1;

	strbuf_init(&lab);
	/* One chart per workload name: every selected run of it overlaid, read and write. */
	for (size_t i = 0; i < set->n; i++) {
		struct gp g;
		char **titles = NULL;
		size_t nser = 0, tcap = 0, k;

		for (k = 0; k < nseen; k++)
			if (!strcmp(seen[k], set->v[i].name))
				break;
		if (k < nseen)
			continue;
		ARRAY_GROW(seen, seen_cap, nseen + 1);
		seen[nseen++] = set->v[i].name;
		gp_begin(&g, cs, fmts, 'f', set->v[i].name, 1100, 520);
		strbuf_addf(&g.title, "%s: latency CDF from histogram bins", set->v[i].name);
		for (size_t j = i; j < set->n && nser < MAX_CDF_LINES; j++) {
			const struct rep_run *r = &set->v[j];
			struct hist_bin *bins[2];
			size_t nbins[2];

			if (strcmp(r->name, set->v[i].name) || (strcmp(r->status, "done") && strcmp(r->status, "partial")))
				continue;
			if (run_bins(st, r->id, bins, nbins, err) < 0) {
				for (size_t x = 0; x < nser; x++)
					free(titles[x]);
				free(titles);
				gp_discard(&g);
				goto out;
			}
			for (int d = 0; d < 2; d++) {
				double run = 0, total = 0;

				for (size_t b = 0; b < nbins[d]; b++)
					total += (double)bins[d][b].count;
				if (nbins[d] && total > 0 && nser < MAX_CDF_LINES) {
					if (nser)
						strbuf_adds(&g.data, "\n\n");
					for (size_t b = 0; b < nbins[d]; b++) {
						run += (double)bins[d][b].count;
						gp_num(&g.data, (double)bins[d][b].value_ns / 1e6);
						gp_num(&g.data, run / total);
						strbuf_addc(&g.data, '\n');
					}
					strbuf_reset(&lab);
					run_title(&lab, r, 0);
					strbuf_adds(&lab, d ? " write" : " read");
					ARRAY_GROW(titles, tcap, nser + 1);
					titles[nser++] = xstrdup(lab.buf);
				}
				free(bins[d]);
			}
		}
		if (nser) {
			strbuf_adds(&g.body, "set grid lc rgb '#dddddd'\nset border 3\nset tics nomirror\nset logscale x\n"
					     "set xlabel 'latency (ms)'\nset ylabel 'fraction of IOs'\nset yrange [0:1]\n"
					     "set key bottom right\nset title ");
			gp_str(&g.body, g.title.buf);
			strbuf_adds(&g.body, "\nplot ");
			for (size_t x = 0; x < nser; x++) {
				if (x)
					strbuf_adds(&g.body, ", ");
				gp_datafile(&g);
				strbuf_addf(&g.body, " index %zu using 1:2 with steps lw 1.5 title ", x);
				gp_str(&g.body, titles[x]);
			}
			strbuf_adds(&g.body, "\n");
			ret = gp_finish(&g, err);
		} else {
			gp_discard(&g);
			ret = 0;
		}
		for (size_t x = 0; x < nser; x++)
			free(titles[x]);
		free(titles);
		if (ret < 0)
			goto out;
	}
	ret = 0;
out:
	free(seen);
	strbuf_release(&lab);
	return ret;
}

int charts_write(struct chart_set *cs, const char *dir, struct store *st, const struct rep_set *set,
		 const struct rep_table *t, const struct cmp_table *cmp, unsigned fmts, struct errbuf *err)
{
	struct stat sb;

	if (stat(dir, &sb) == 0) {
		if (!S_ISDIR(sb.st_mode))
			return err_set(err, ERR_INPUT, "--charts '%s': not a directory", dir);
	} else if (mkdir(dir, 0777) < 0) {
		return err_set(err, ERR_INPUT, "--charts '%s': cannot make the directory: %s", dir, strerror(errno));
	}
	free(cs->dir);
	cs->dir = xstrdup(dir);
	if (cmp ? cmp_charts(cs, cmp, fmts, err) < 0 : table_charts(cs, t, fmts, err) < 0)
		return -1;
	if (st && (time_charts(cs, st, set, fmts, err) < 0 || cdf_charts(cs, st, set, fmts, err) < 0))
		return -1;
	return 0;
}

void charts_remove(const struct chart_set *cs)
{
	static const char *const ext[] = { "gp", "dat", "png", "svg", "gp.err" };

	if (!cs->dir)
		return;
	for (size_t i = 0; i < cs->n; i++)
		for (size_t k = 0; k < sizeof(ext) / sizeof(ext[0]); k++) {
			char *p = chart_path(cs, &cs->v[i], ext[k]);
			unlink(p);
			free(p);
		}
	rmdir(cs->dir);
}
