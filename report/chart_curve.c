/*
 * chart_curve: the latency-vs-IOPS charts of curves and sweeps (curve.h): for p99 and for mean latency, one
 * line per configuration (IOPS on x, latency in ms on y, log scale when it spans more than 20x) and the knee of
 * each curve marked. Written like charts.c's charts (a .gp script and its .dat file per chart, appended to the
 * same chart_set, user text only inside escaped single-quoted strings, noenhanced terminals).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/chart_files.h"
#include "report/charts.h"
#include "report/curve.h"
#include "report/escape.h"

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

static void curve_body(struct strbuf *b, const char *stem, const struct curve_set *curves, enum curve_lat lat,
		       double lo, double hi)
{
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
		strbuf_addf(b, "%s '", i ? ", \\\n    " : "");
		esc_gnuplot(b, stem);
		strbuf_addf(b, ".dat' index %zu using 1:2 with linespoints lw 2 pt 7 title '", i);
		esc_gnuplot(b, curves->v[i].title);
		strbuf_adds(b, "'");
	}
	strbuf_adds(b, ", \\\n    '");
	esc_gnuplot(b, stem);
	strbuf_addf(b, ".dat' index %zu using 1:2 with points pt 6 ps 3 lc rgb '#000000' title 'knee'\n",
		    curves->n);
}

static int one_chart(struct chart_set *cs, const struct curve_set *curves, enum curve_lat lat, unsigned fmts,
		     struct errbuf *err)
{
	static const struct { unsigned fmt; const char *ext, *term; } terms[] = {
		{ CHART_PNG, "png", "pngcairo noenhanced font 'DejaVu Sans,10'" },
		{ CHART_SVG, "svg", "svg dynamic noenhanced font 'DejaVu Sans,11' background '#ffffff'" },
	};
	struct strbuf stem, data, body, sc;
	double lo, hi;
	int ret;

	strbuf_init(&stem);
	strbuf_init(&data);
	strbuf_init(&body);
	strbuf_init(&sc);
	strbuf_addf(&stem, "g-%02zu-", cs->n + 1);
	chart_slug(&stem, lat == CURVE_LAT_P99 ? "latency-p99-vs-iops" : "latency-mean-vs-iops");
	curve_data(&data, curves, lat, &lo, &hi);
	curve_body(&body, stem.buf, curves, lat, lo, hi);
	strbuf_adds(&sc, "# bench report chart; user text only inside single-quoted strings\n"
			 "set encoding utf8\nset datafile missing 'NaN'\n");
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		if (!(fmts & terms[i].fmt))
			continue;
		strbuf_addf(&sc, "set terminal %s size 1100,620\nset output '%s.%s'\n", terms[i].term, stem.buf,
			    terms[i].ext);
		strbuf_add(&sc, body.buf, body.len);
		strbuf_adds(&sc, "unset output\nreset\nset datafile missing 'NaN'\n");
	}
	ret = chart_write_part(cs->dir, stem.buf, "dat", &data, err);
	if (ret == 0)
		ret = chart_write_part(cs->dir, stem.buf, "gp", &sc, err);
	if (ret == 0) {
		struct chart *c;

		ARRAY_GROW(cs->v, cs->cap, cs->n + 1);
		c = &cs->v[cs->n++];
		c->kind = 'g';
		c->stem = xstrdup(stem.buf);
		c->title = xasprintf("Latency (%s) vs IOPS", lat == CURVE_LAT_P99 ? "p99" : "mean");
		c->script = xasprintf("%s.gp", stem.buf);
		c->width_px = 1100;
	}
	strbuf_release(&stem);
	strbuf_release(&data);
	strbuf_release(&body);
	strbuf_release(&sc);
	return ret;
}

int curve_charts_write(struct chart_set *cs, const char *dir, const struct curve_set *curves, unsigned fmts,
		       struct errbuf *err)
{
	if (!cs->dir) {
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return err_set(err, ERR_INPUT, "cannot create '%s': %s", dir, strerror(errno));
		cs->dir = xstrdup(dir);
	}
	if (one_chart(cs, curves, CURVE_LAT_P99, fmts, err) < 0)
		return -1;
	return one_chart(cs, curves, CURVE_LAT_MEAN, fmts, err);
}
