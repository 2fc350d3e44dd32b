/*
 * chart_time: charts over time and the latency heat map (see chart_time.h).
 */
#include "report/chart/chart_time.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/series.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "report/text/escape.h"

#define COLOR_ALL "#222222"
#define TITLE_MAX 110 /* characters of a chart's drawn title; the HTML caption keeps the whole text */

/* A chart over time: its data blocks (gnuplot index) are counted as they are written. */
struct tchart {
	struct chart_gp g;
	size_t nblocks;
	int64_t cut_ms; /* points at or after this time are a partial window, left out; -1: none */
};

static int same_series(const struct store_sample *a, const struct store_sample *b)
{
	return !strcmp(a->host, b->host) && !strcmp(a->job, b->job) && !strcmp(a->metric, b->metric) &&
	       !strcmp(a->source, b->source);
}

/* Orders sample indices by series (host, job, metric, source), then time. */
static const struct store_sample *sort_base;

static int cmp_series_time(const void *pa, const void *pb)
{
	const struct store_sample *a = &sort_base[*(const size_t *)pa], *b = &sort_base[*(const size_t *)pb];
	int c;

	if ((c = strcmp(a->host, b->host)) || (c = strcmp(a->job, b->job)) || (c = strcmp(a->metric, b->metric)) ||
	    (c = strcmp(a->source, b->source)))
		return c;
	return (a->t_ms > b->t_ms) - (a->t_ms < b->t_ms);
}

/* Whether a sample is fio's (a collector's CPU and disk samples have their own stamps, off fio's grid). */
static int fio_sample(const struct store_sample *s)
{
	return !s->is_bin && strncmp(s->metric, "cpu.", 4) && strncmp(s->metric, "disk.", 5);
}

/* Whether a sample is of a rate that adds over hosts and jobs (IOPS, bandwidth). */
static int rate_sample(const struct store_sample *s)
{
	return fio_sample(s) && (!strncmp(s->metric, "iops", 4) || !strncmp(s->metric, "bw_bytes", 8));
}

/* Whether a rate series' last sample is in slot top - 1 (grid wr) while another series reaches top. */
static int rate_ends_early(const struct store_sample *v, size_t n, unsigned wr, int64_t top)
{
	size_t *ix = xcalloc(n + 1, sizeof(*ix)), m = 0;
	int early = 0;

	for (size_t i = 0; i < n; i++)
		if (rate_sample(&v[i]))
			ix[m++] = i;
	sort_base = v;
	qsort(ix, m, sizeof(*ix), cmp_series_time);
	for (size_t j = 0; j < m && !early; j++)
		if (j + 1 == m || !same_series(&v[ix[j]], &v[ix[j + 1]]))
			early = series_slot(v[ix[j]].t_ms, wr) == top - 1;
	free(ix);
	return early;
}

/*
 * The time from which a run's windows are partial, or -1. (1) fio logs the remainder of the run after its
 * last whole window as one more entry, off the window grid (its last sample more than a tenth of a window
 * from a multiple of the window); on the grid that remainder joins (or makes) the last slot, whose rate or
 * count then looks like a stall. (2) A rate series (a host's or job's IOPS or bandwidth) that ends one slot
 * before the others (fio's helper thread did not log the last window before the job stopped): the sum over
 * hosts and jobs of that slot misses it and dips. That slot is left out of every panel, and the titles say so.
 */
static int64_t partial_from(const struct store_sample *v, size_t n)
{
	int64_t last = -1, top = INT64_MIN;
	unsigned w = 1000, wr = series_window_ms(v, n, "iops");

	for (size_t i = 0; i < n; i++) {
		if (fio_sample(&v[i]) && v[i].t_ms > last) {
			last = v[i].t_ms;
			w = series_window_ms(v, n, v[i].metric);
		}
		if (rate_sample(&v[i]) && series_slot(v[i].t_ms, wr) > top)
			top = series_slot(v[i].t_ms, wr);
	}
	if (last >= 0 && last % w > w / 10 && last % w < w - w / 10)
		return series_slot(last, w) * (int64_t)w;
	return rate_ends_early(v, n, wr, top) ? top * (int64_t)wr : -1;
}

/*
 * The run's samples without the partial windows fio writes when a job ends (finalize_logs: the IOs since its
 * last whole window, often only those that completed while the job stopped, so their mean latency is many
 * times the run's): the last sample of a series (host, job, metric, source) stamped less than half the
 * metric's window after the one before. On the grid it falls into the same slot as that whole window and, averaged with it,
 * drew a spike at the last point. *out (malloc'd, shallow copies of v's rows: free only the array) gets the
 * others; returns their number, *dropped how many were left out.
 */
static size_t without_tails(const struct store_sample *v, size_t n, struct store_sample **out, size_t *dropped)
{
	size_t *ix = xcalloc(n + 1, sizeof(*ix)), m = 0, k = 0;
	char *tail = xcalloc(n + 1, 1);

	for (size_t i = 0; i < n; i++)
		if (fio_sample(&v[i]))
			ix[m++] = i;
	sort_base = v;
	qsort(ix, m, sizeof(*ix), cmp_series_time);
	for (size_t j = 1; j < m; j++) {
		const struct store_sample *a = &v[ix[j - 1]], *b = &v[ix[j]];
		int last = j + 1 == m || !same_series(b, &v[ix[j + 1]]);

		/* the window of the metric (its largest stored window: one log's own can be inferred from a step
		 * of a few ms when it holds one whole window and the tail) */
		if (last && same_series(a, b) && (b->t_ms - a->t_ms) * 2 < (int64_t)series_window_ms(v, n, b->metric))
			tail[ix[j]] = 1;
	}
	*out = xcalloc(n + 1, sizeof(**out));
	for (size_t i = 0; i < n; i++)
		if (!tail[i])
			(*out)[k++] = v[i];
	*dropped = n - k;
	free(ix);
	free(tail);
	return k;
}

/* One series as a data block; a missing window (a step over w) is a blank line: gnuplot draws a gap there.
 * Points from the partial last window on (c->cut_ms >= 0) are left out. */
static void add_block(struct tchart *c, const struct series_point *p, size_t n, unsigned w, double scale)
{
	if (c->nblocks)
		strbuf_adds(&c->g.data, "\n\n");
	while (n && c->cut_ms >= 0 && p[n - 1].t_ms >= c->cut_ms)
		n--;
	for (size_t i = 0; i < n; i++) {
		if (i && p[i].t_ms - p[i - 1].t_ms > (int64_t)w)
			strbuf_addc(&c->g.data, '\n');
		strbuf_addf(&c->g.data, "%.3f %.10g\n", (double)p[i].t_ms / 1000.0, p[i].value * scale);
	}
	c->nblocks++;
}

/* A panel: its metric family, axis title and how values are taken. */
enum pkind { PK_RATE, PK_LAT, PK_PCT, PK_PCTS, PK_CPU };
struct panel {
	const char *metric;
	const char *ytitle;
	enum pkind kind;
	double scale;
};

/* The latency unit for values up to max_ns: us below 1 ms, else ms. */
static double lat_unit(double max_ns, const char **name)
{
	*name = max_ns < 1e6 ? "us" : "ms";
	return max_ns < 1e6 ? 1e-3 : 1e-6;
}

static size_t panel_points(const struct store_sample *v, size_t n, const struct panel *pn, const char *host,
			   unsigned w, struct series_point **p)
{
	return pn->kind == PK_PCT ? series_percentile(v, n, pn->metric, host, w, 99.0, p)
				  : series_aggregate(v, n, pn->metric, host, w, p);
}

/* p50, p90, p99, p99.9 of all hosts (summed bins), one line each. */
static void add_pcts_panel(struct tchart *c, const struct store_sample *v, size_t n, const struct panel *pn)
{
	static const double pcts[] = { 50.0, 90.0, 99.0, 99.9 };
	static const char *const names[] = { "p50", "p90", "p99", "p99.9" };
	unsigned w = series_window_ms(v, n, pn->metric);
	struct series_point *p[4];
	size_t np[4], nplot = 0;
	double mx = 0, scale;
	const char *unit;

	for (int k = 0; k < 4; k++) {
		np[k] = series_percentile(v, n, pn->metric, NULL, w, pcts[k], &p[k]);
		for (size_t i = 0; i < np[k]; i++)
			if (p[k][i].value > mx)
				mx = p[k][i].value;
	}
	scale = lat_unit(mx, &unit);
	strbuf_addf(&c->g.body, "set ylabel '%s (%s)'\nplot ", pn->ytitle, unit);
	for (int k = 0; k < 4; k++) {
		if (!np[k])
			continue;
		if (nplot++)
			strbuf_adds(&c->g.body, ", ");
		strbuf_addf(&c->g.body, "'%s.dat' index %zu using 1:2 with lines lw 1.5 title '%s'", c->g.stem.buf,
			    c->nblocks, names[k]);
		add_block(c, p[k], np[k], w, scale);
	}
	strbuf_adds(&c->g.body, nplot ? "\n" : "NaN notitle\n");
	for (int k = 0; k < 4; k++)
		free(p[k]);
}

/* The plot command of one panel: per host, then all hosts (bold) when there are several. */
static int add_panel(struct tchart *c, const struct store_sample *v, size_t n, struct panel *pn)
{
	const char **hosts;
	size_t nh = series_hosts(v, n, pn->metric, &hosts), nplot = 0;
	unsigned w = series_window_ms(v, n, pn->metric);
	struct series_point **pts = xcalloc(nh + 1, sizeof(*pts));
	size_t *np = xcalloc(nh + 1, sizeof(*np));
	double mx = 0;
	const char *unit = NULL;
	char ytitle[64];

	for (size_t h = 0; h <= nh; h++) {
		if (h == nh && (nh < 2 || pn->kind == PK_CPU))
			break;
		np[h] = panel_points(v, n, pn, h < nh ? hosts[h] : NULL, w, &pts[h]);
		for (size_t k = 0; k < np[h]; k++)
			if (pts[h][k].value > mx)
				mx = pts[h][k].value;
	}
	if (pn->kind == PK_LAT || pn->kind == PK_PCT) {
		pn->scale = lat_unit(mx, &unit);
		snprintf(ytitle, sizeof(ytitle), "%s (%s)", pn->ytitle, unit);
	} else {
		snprintf(ytitle, sizeof(ytitle), "%s", pn->ytitle);
	}
	strbuf_adds(&c->g.body, "set ylabel ");
	chart_gp_str(&c->g.body, ytitle);
	strbuf_adds(&c->g.body, "\nplot ");
	for (size_t h = 0; h <= nh; h++) {
		if (!np[h])
			continue;
		if (nplot++)
			strbuf_adds(&c->g.body, ", ");
		strbuf_addf(&c->g.body, "'%s.dat' index %zu using 1:2 with lines lw %s", c->g.stem.buf, c->nblocks,
			    h == nh ? "2.5" : "1.2");
		if (h == nh)
			strbuf_addf(&c->g.body, " lc rgb '%s'", COLOR_ALL);
		strbuf_adds(&c->g.body, " title ");
		chart_gp_str(&c->g.body, h < nh ? hosts[h] : "all hosts");
		add_block(c, pts[h], np[h], w, pn->scale);
	}
	strbuf_adds(&c->g.body, nplot ? "\n" : "NaN notitle\n");
	for (size_t h = 0; h <= nh; h++)
		free(pts[h]);
	free(pts);
	free(np);
	free(hosts);
	return (int)nplot;
}

static int has_metric(const struct store_sample *v, size_t n, const char *metric)
{
	for (size_t i = 0; i < n; i++)
		if (series_metric_match(v[i].metric, metric))
			return 1;
	return 0;
}

/* "run 12 NAME key=value ..." with aliased values; `facts` 0 leaves out the configuration record's cfg.*
 * facts (the same on every run of a configuration: the HTML page lists them). */
static void run_name(struct strbuf *sb, const struct chart_set *cs, const struct rep_run *r, int facts)
{
	strbuf_addf(sb, "run %lld %s", (long long)r->id, r->name);
	for (size_t i = 0; i < r->labels.n; i++) {
		const char *k = r->labels.v[i].key, *v = r->labels.v[i].value ? r->labels.v[i].value : "";
		if (!facts && !strncmp(k, "cfg.", 4))
			continue;
		strbuf_addf(sb, " %s=%s", k, chart_alias(cs, k, v));
	}
}

/* The title drawn on the chart: at most TITLE_MAX characters (cut at a space, "..." added), so that it is
 * never cut at both edges of the picture. */
static void drawn_title(struct strbuf *out, const char *s)
{
	size_t n = strlen(s), cut;

	if (n <= TITLE_MAX) {
		strbuf_adds(out, s);
		return;
	}
	for (cut = TITLE_MAX - 3; cut > TITLE_MAX / 2 && s[cut] != ' '; cut--)
		;
	strbuf_add(out, s, cut);
	strbuf_adds(out, " ...");
}

/* The time span of a run's samples in seconds (the one x range of all its panels). */
static void time_span(const struct store_sample *v, size_t n, double *lo, double *hi)
{
	int64_t a = 0, b = 0;

	for (size_t i = 0; i < n; i++) {
		if (!i || v[i].t_ms < a)
			a = v[i].t_ms;
		if (!i || v[i].t_ms > b)
			b = v[i].t_ms;
	}
	*lo = (double)a / 1000.0;
	*hi = (double)b / 1000.0;
}

/* The note of what was left out, or "" ("partial last window from 5.000 s left out; ..."). */
static void partial_note(struct strbuf *sb, int64_t cut_ms, size_t tails)
{
	if (cut_ms >= 0)
		strbuf_addf(sb, "the partial last window (from %.3f s) is left out", (double)cut_ms / 1000.0);
	if (tails)
		strbuf_addf(sb, "%sfio's partial window at the end of %zu series (their last IOs as a job stopped) "
				"is left out", cut_ms >= 0 ? "; " : "", tails);
}

/* The time chart of run r: panels from `v` (the samples without fio's end-of-job windows, without_tails), its
 * x range and partial last window from `all` (every sample); `tails` how many were left out. */
static int time_chart(struct chart_set *cs, const struct rep_run *r, const struct store_sample *all, size_t nall,
		      const struct store_sample *v, size_t n, size_t tails, struct errbuf *err)
{
	struct panel panels[] = {
		{ "iops", "IOPS", PK_RATE, 1.0 },
		{ "bw_bytes", "MiB/s", PK_RATE, 1.0 / 1048576.0 },
		{ "lat_ns", "mean latency", PK_LAT, 1.0 },
		{ "clat_hist", "p99 latency", PK_PCT, 1.0 },
		{ "clat_hist", "all hosts: percentiles", PK_PCTS, 1.0 },
		{ "cpu.util_pct", "CPU (%)", PK_CPU, 1.0 },
	};
	struct tchart c;
	struct strbuf name, shown;
	char file[48]; /* the file name's part after "e-NN-" */
	int npanels = 0;
	double t0, t1;

	if (!has_metric(v, n, "lat_ns") && has_metric(v, n, "clat_ns"))
		panels[2].metric = "clat_ns";
	for (size_t k = 0; k < sizeof(panels) / sizeof(panels[0]); k++)
		npanels += has_metric(v, n, panels[k].metric);
	/* CPU samples alone (a run without --logs): one flat line says nothing about the run over time */
	if (!npanels || (npanels == 1 && has_metric(v, n, "cpu.util_pct")))
		return 0;
	time_span(all, nall, &t0, &t1);
	strbuf_init(&name);
	strbuf_init(&shown);
	run_name(&name, cs, r, 1);
	snprintf(file, sizeof(file), "run-%lld-time", (long long)r->id);
	chart_gp_begin(&c.g, cs, 'e', file, 1100, 230 * npanels + 80);
	c.nblocks = 0;
	c.cut_ms = partial_from(all, nall);
	strbuf_addf(&c.g.title, "%s: over time per host and all hosts (t = 0 at the end of ramp)", name.buf);
	strbuf_reset(&name);
	partial_note(&name, c.cut_ms, tails);
	if (name.len)
		strbuf_addf(&c.g.title, "; %s", name.buf);
	strbuf_reset(&name);
	run_name(&name, cs, r, 0);
	drawn_title(&shown, name.buf);
	strbuf_addf(&c.g.body, "set grid lc rgb '#dddddd'\nset border 3\nset tics nomirror\nset key outside right\n"
			     "set lmargin 12\nset rmargin 18\nset xlabel 'time since the end of ramp (s)'\n"
			     "set xrange [%.3f:%.3f]\nset multiplot layout %d,1 title ", t0, t1 > t0 ? t1 : t0 + 1, npanels);
	chart_gp_str(&c.g.body, shown.buf);
	strbuf_reset(&name);
	partial_note(&name, c.cut_ms, tails);
	if (name.len) { /* said on the picture too, as a second title line */
		chart_gp_newline(&c.g.body);
		strbuf_reset(&shown);
		strbuf_addf(&shown, "(%s)", name.buf);
		chart_gp_str(&c.g.body, shown.buf);
	}
	strbuf_adds(&c.g.body, "\n");
	for (size_t k = 0; k < sizeof(panels) / sizeof(panels[0]); k++) {
		if (!has_metric(v, n, panels[k].metric))
			continue;
		if (panels[k].kind == PK_PCTS)
			add_pcts_panel(&c, v, n, &panels[k]);
		else
			add_panel(&c, v, n, &panels[k]);
	}
	strbuf_adds(&c.g.body, "unset multiplot\n");
	strbuf_release(&name);
	strbuf_release(&shown);
	return chart_gp_finish(&c.g, err);
}

struct cell {
	int64_t slot, lo, hi;
	double count;
};

static int cmp_cell(const void *pa, const void *pb)
{
	const struct cell *a = pa, *b = pb;
	int c = (a->slot > b->slot) - (a->slot < b->slot);

	return c ? c : (a->lo > b->lo) - (a->lo < b->lo);
}

/*
 * The heat map's band of a fio bucket starting at lo ns: 8 bands per fio group of 64 buckets (8 per octave),
 * so that the colours show a distribution rather than 64 thin stripes per octave.
 */
static void band_of(int64_t lo, int64_t *blo, int64_t *bhi)
{
	int64_t base = 0, width = 1;

	if (lo >= 64) {
		int g = 63 - __builtin_clzll((unsigned long long)lo) - 5; /* base = 2^(g + 5) */
		base = (int64_t)1 << (g + 5);
		width = (int64_t)1 << (g - 1);
	}
	*blo = base + (lo - base) / (8 * width) * (8 * width);
	*bhi = *blo + 8 * width;
}

/* Heat map: one box per interval and bucket, all hosts and directions summed, colour = IO count. */
static int heat_map(struct chart_set *cs, const struct rep_run *r, const struct store_sample *v, size_t n,
		    struct errbuf *err)
{
	unsigned w = series_window_ms(v, n, "clat_hist");
	struct tchart c;
	struct strbuf name, shown;
	char file[48]; /* the file name's part after "e-NN-" */
	struct cell *cell = NULL;
	size_t nc = 0, cap = 0;
	int64_t maxhi = 0, minlo = 0;
	double scale;
	const char *unit;

	for (size_t i = 0; i < n; i++) {
		if (!v[i].is_bin || !series_metric_match(v[i].metric, "clat_hist") || !strcmp(v[i].host, "*"))
			continue;
		ARRAY_GROW(cell, cap, nc + 1);
		cell[nc].slot = series_slot(v[i].t_ms, w);
		band_of(v[i].bucket_lo_ns, &cell[nc].lo, &cell[nc].hi);
		cell[nc++].count = v[i].value;
		if (cell[nc - 1].hi > maxhi)
			maxhi = cell[nc - 1].hi;
		if (!minlo || cell[nc - 1].lo < minlo)
			minlo = cell[nc - 1].lo > 0 ? cell[nc - 1].lo : 1;
	}
	if (nc) { /* by interval and bucket, the same cell of all hosts and directions summed */
		size_t k = 0;
		qsort(cell, nc, sizeof(*cell), cmp_cell);
		for (size_t i = 1; i < nc; i++) {
			if (cell[i].slot == cell[k].slot && cell[i].lo == cell[k].lo)
				cell[k].count += cell[i].count;
			else
				cell[++k] = cell[i];
		}
		nc = k + 1;
	}
	if (!nc)
		return 0;
	scale = lat_unit((double)maxhi, &unit);
	strbuf_init(&name);
	strbuf_init(&shown);
	run_name(&name, cs, r, 1);
	snprintf(file, sizeof(file), "run-%lld-heatmap", (long long)r->id);
	chart_gp_begin(&c.g, cs, 'e', file, 1100, 520);
	c.nblocks = 0;
	c.cut_ms = -1;
	strbuf_addf(&c.g.title, "%s: completion latency heat map, all hosts (IOs per %u ms, 8 bands per octave)",
		    name.buf, w);
	for (size_t k = 0; k < nc; k++) {
		/* x from to, y from to (bucket edges; a 1 ns bucket [lo, lo + 1) is drawn from lo, never 0 on a log axis) */
		double lo = cell[k].lo > 0 ? (double)cell[k].lo : 0.5;
		strbuf_addf(&c.g.data, "%.3f %.10g %.3f %.3f %.10g %.10g %.10g\n",
			    ((double)cell[k].slot - 0.5) * w / 1000.0, lo * scale, ((double)cell[k].slot - 1) * w / 1000.0,
			    (double)cell[k].slot * w / 1000.0, lo * scale, (double)cell[k].hi * scale, cell[k].count);
	}
	strbuf_adds(&c.g.body, "set border 3\nset tics nomirror\nset logscale y\nset logscale cb\n"
			     "set xlabel 'time since the end of ramp (s)'\n");
	strbuf_addf(&c.g.body, "set ylabel 'completion latency (%s)'\nset cblabel 'IOs (log scale)'\n"
			     "set yrange [%.10g:%.10g]\n", unit, (double)minlo * scale, (double)maxhi * scale);
	strbuf_adds(&c.g.body, "set palette defined (0 '#f7fbff', 1 '#6baed6', 2 '#2171b5', 3 '#08306b', 4 '#d7301f')\n"
			     "set title ");
	strbuf_reset(&name);
	run_name(&name, cs, r, 0);
	strbuf_adds(&name, ": latency heat map, all hosts");
	drawn_title(&shown, name.buf);
	chart_gp_str(&c.g.body, shown.buf);
	strbuf_addf(&c.g.body, "\nplot '%s.dat' using 1:2:3:4:5:6:7 with boxxyerror fs solid 1.0 noborder "
			     "fc palette notitle\n", c.g.stem.buf);
	free(cell);
	strbuf_release(&name);
	strbuf_release(&shown);
	return chart_gp_finish(&c.g, err);
}

int chart_time_write(struct chart_set *cs, struct store *st, const struct rep_set *set, struct errbuf *err)
{
	int ret = 0;

	/* every selected run (no cap: a study of 108 runs has 108 time charts) */
	for (size_t i = 0; i < set->n && ret == 0; i++) {
		struct store_sample *v, *kept;
		size_t n, nkept, tails;

		if (store_read_samples(st, set->v[i].id, &v, &n, err) < 0) {
			ret = -1;
			break;
		}
		nkept = without_tails(v, n, &kept, &tails);
		if (time_chart(cs, &set->v[i], v, n, kept, nkept, tails, err) < 0 ||
		    heat_map(cs, &set->v[i], v, n, err) < 0)
			ret = -1;
		free(kept); /* shallow copies: the rows are v's */
		store_samples_free(v, n);
	}
	return ret;
}
