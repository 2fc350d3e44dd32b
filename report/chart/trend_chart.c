/*
 * trend_chart: the gnuplot chart of a trend (trend.h): per series a data file with one row per run (position,
 * order value, the metric, the mean of its segment) and a script that draws the runs as points and each
 * segment's mean as a step line, through the one chart writer (chart_gnuplot.h: terminals, --dpi, files) as
 * every chart kind: user text only in single-quoted strings (esc_gnuplot) and quoted data fields
 * (esc_gnuplot_data), file names are slugs.
 */
#include "report/analysis/trend.h"

#include "report/chart/chart_gnuplot.h"
#include "report/text/escape.h"

/*
 * The data rows of one series: index 0, a row per run: position, "order", value, segment mean; index 1, each
 * segment's mean as a level line from half a position before its first run to half after its last (blank line
 * between segments): no line from 0, nothing past the last run.
 */
static void series_data(const struct trend_series *s, struct strbuf *d)
{
	size_t seg = 0, from = 0;

	strbuf_adds(d, "# position order value segment_mean\n");
	for (size_t k = 0; k < s->n; k++) {
		while (seg < s->nchg && k >= s->chg[seg].at)
			seg++;
		strbuf_addf(d, "%zu ", k + 1);
		esc_gnuplot_data(d, s->pts[k].order);
		strbuf_addf(d, " %.10g %.10g\n", s->pts[k].value, s->seg_mean[seg]);
	}
	strbuf_adds(d, "\n\n# segment_from segment_to mean\n");
	for (seg = 0; seg <= s->nchg && s->n; seg++) {
		size_t to = seg < s->nchg ? s->chg[seg].at : s->n;

		if (to <= from)
			continue;
		strbuf_addf(d, "%g %.10g\n%g %.10g\n\n", from + 0.5, s->seg_mean[seg], to + 0.5, s->seg_mean[seg]);
		from = to;
	}
}

static void series_body(const struct trend *t, const struct trend_series *s, struct chart_gp *g)
{
	struct strbuf *b = &g->body;

	strbuf_addf(&g->title, "%s of ", rep_metrics[t->metric].title);
	strbuf_adds(&g->title, s->workload);
	strbuf_addf(&g->title, " by %s: %zu change point%s", t->order_key, s->nchg, s->nchg == 1 ? "" : "s");
	strbuf_adds(b, "set title ");
	chart_gp_str(b, g->title.buf);
	strbuf_adds(b, "\nset xlabel '");
	esc_gnuplot(b, t->order_key);
	strbuf_adds(b, " (position)'\nset ylabel ");
	chart_gp_str(b, rep_metrics[t->metric].title);
	/* the key above the plot (not over the x axis title), the x range half a position past the first and the
	 * last run (the last point not on the border) */
	strbuf_addf(b, "\nset grid ytics\nset key outside top center horizontal\nset yrange [0:*]\n"
		       "set xrange [0.5:%g]\nset offsets 0, 0, graph 0.05, 0\n", s->n + 0.5);
	for (size_t k = 0; k < s->nchg; k++)
		strbuf_addf(b, "set arrow from %g, graph 0 to %g, graph 1 nohead dashtype 2 lc rgb '#bf812d'\n",
			    s->chg[k].at + 0.5, s->chg[k].at + 0.5);
	strbuf_adds(b, "plot ");
	chart_gp_datafile(g, b);
	strbuf_adds(b, " index 0 using 1:3 with points pt 7 ps 0.6 lc rgb '#3566b5' title 'runs', \\\n"
		       "     '' index 1 using 1:2 with lines lw 2 lc rgb '#d08a2c' title 'segment mean'\n");
}

int trend_write_charts(const struct trend *t, struct chart_set *cs, struct errbuf *err)
{
	for (size_t i = 0; i < t->n; i++) {
		struct chart_gp g;

		chart_gp_begin(&g, cs, CHART_TREND, t->v[i].workload, 900, 420);
		series_data(&t->v[i], &g.data);
		series_body(t, &t->v[i], &g);
		if (chart_gp_finish(&g, err) < 0)
			return -1;
	}
	return 0;
}
