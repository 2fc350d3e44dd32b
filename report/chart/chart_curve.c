/*
 * chart_curve: the latency-vs-IOPS charts of curves and sweeps (curve.h): for p99 and for mean latency, one
 * line per configuration (IOPS on x, latency in ms on y, log scale when it spans more than 20x) and the knee of
 * each curve marked, each configuration in the colour its label values have in the report's other charts.
 * Written through the one chart writer (chart_gnuplot.h: the report's chart set, terminals, --dpi, files;
 * user text only as escaped single-quoted strings).
 */
#include <math.h>

#include "report/chart/chart_gnuplot.h"
#include "report/analysis/curve.h"

static double point_lat(const struct curve_point *p, enum curve_lat lat)
{
	return lat == CURVE_LAT_P99 ? p->p99_ms : p->lat_ms;
}

/* The data file: one block per curve (iops latency), then one block of knees; blocks split by two blank lines. */
static void curve_data(struct strbuf *d, const struct curve_set *curves, enum curve_lat lat, double *lo,
		       double *hi)
{
	*lo = NAN;
	*hi = NAN;
	for (size_t i = 0; i < curves->n; i++) {
		const struct curve *c = &curves->v[i];

		strbuf_addf(d, "# curve %zu\n", i);
		for (size_t k = 0; k < c->n; k++) {
			double l = point_lat(&c->v[k], lat);

			if (isnan(l) || !(l > 0))
				continue;
			strbuf_addf(d, "%.10g %.10g\n", c->v[k].iops, l);
			*lo = isnan(*lo) || l < *lo ? l : *lo;
			*hi = isnan(*hi) || l > *hi ? l : *hi;
		}
		strbuf_adds(d, "\n\n");
	}
	strbuf_adds(d, "# knees\n");
	for (size_t i = 0; i < curves->n; i++) {
		const struct curve *c = &curves->v[i];

		if (c->knee >= 0 && point_lat(&c->v[c->knee], lat) > 0)
			strbuf_addf(d, "%.10g %.10g\n", c->v[c->knee].iops, point_lat(&c->v[c->knee], lat));
	}
}

static void curve_body(struct chart_gp *g, const struct curve_set *curves, enum curve_lat lat, double lo, double hi)
{
	struct strbuf *b = &g->body;
	const char *what = lat == CURVE_LAT_P99 ? "p99" : "mean";

	strbuf_addf(b, "set title 'Latency (%s) vs IOPS, one line per configuration'\n", what);
	strbuf_adds(b, "set xlabel 'IOPS (all directions, IO/s)'\n");
	strbuf_addf(b, "set ylabel '%s completion latency, ms (worse of read and write)'\n", what);
	strbuf_adds(b, "set grid\nset key outside right top\nset xrange [0:*]\n");
	if (lo > 0 && hi / lo > 20)
		strbuf_adds(b, "set logscale y 10\n");
	else
		strbuf_adds(b, "set yrange [0:*]\n");
	strbuf_adds(b, "plot");
	for (size_t i = 0; i < curves->n; i++) {
		/* a configuration ("stack=raid5") has the colour its group has in the report's other charts */
		strbuf_adds(b, i ? ", \\\n    " : " ");
		chart_gp_datafile(g, b);
		strbuf_addf(b, " index %zu using 1:2 with linespoints lw 2 pt 7 lc rgb '%s' title ", i,
			    chart_color(g->cs, curves->v[i].title));
		chart_gp_str(b, curves->v[i].title);
	}
	strbuf_adds(b, ", \\\n    ");
	chart_gp_datafile(g, b);
	strbuf_addf(b, " index %zu using 1:2 with points pt 6 ps 3 lc rgb '#000000' title 'knee'\n", curves->n);
}

static int one_chart(struct chart_set *cs, const struct curve_set *curves, enum curve_lat lat, struct errbuf *err)
{
	struct chart_gp g;
	double lo, hi;

	chart_gp_begin(&g, cs, 'g', lat == CURVE_LAT_P99 ? "latency-p99-vs-iops" : "latency-mean-vs-iops", 1100, 620);
	strbuf_addf(&g.title, "Latency (%s) vs IOPS", lat == CURVE_LAT_P99 ? "p99" : "mean");
	curve_data(&g.data, curves, lat, &lo, &hi);
	curve_body(&g, curves, lat, lo, hi);
	return chart_gp_finish(&g, err);
}

int curve_charts_write(struct chart_set *cs, const char *dir, const struct curve_set *curves, unsigned fmts,
		       struct errbuf *err)
{
	if (!cs->dir && chart_set_dir(cs, dir, err) < 0)
		return -1;
	cs->fmts = fmts;
	if (one_chart(cs, curves, CURVE_LAT_P99, err) < 0)
		return -1;
	return one_chart(cs, curves, CURVE_LAT_MEAN, err);
}
