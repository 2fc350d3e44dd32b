/*
 * trend_chart: the gnuplot chart of a trend (trend.h): per series a data file with one row per run (position,
 * order value, the metric, the mean of its segment) and a script that draws the runs as points and each
 * segment's mean as a step line, in PNG and SVG, the way report/charts.c writes its charts: user text only in
 * single-quoted strings (esc_gnuplot) and quoted data fields (esc_gnuplot_data), file names are slugs.
 */
#include "report/trend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/chart_files.h"
#include "report/charts.h"
#include "report/escape.h"

/* The data rows of one series: index, "order", value, segment mean. */
static void series_data(const struct trend_series *s, struct strbuf *d)
{
	size_t seg = 0;

	strbuf_adds(d, "# position order value segment_mean\n");
	for (size_t k = 0; k < s->n; k++) {
		while (seg < s->nchg && k >= s->chg[seg].at)
			seg++;
		strbuf_addf(d, "%zu ", k + 1);
		esc_gnuplot_data(d, s->pts[k].order);
		strbuf_addf(d, " %.10g %.10g\n", s->pts[k].value, s->seg_mean[seg]);
	}
}

static void series_script(const struct trend *t, const struct trend_series *s, const char *stem, struct strbuf *g)
{
	static const struct { const char *ext, *term; } terms[] = {
		{ "png", "pngcairo noenhanced font 'DejaVu Sans,10'" },
		{ "svg", "svg dynamic noenhanced font 'DejaVu Sans,11' background '#ffffff'" },
	};
	struct strbuf title;

	strbuf_init(&title);
	strbuf_addf(&title, "%s of ", rep_metrics[t->metric].title);
	strbuf_adds(&title, s->workload);
	strbuf_addf(&title, " by %s: %zu change point%s", t->order_key, s->nchg, s->nchg == 1 ? "" : "s");
	strbuf_adds(g, "# bench trend chart; user text only inside single-quoted strings\nset encoding utf8\n");
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		strbuf_addf(g, "set terminal %s size 900,420\nset output '%s.%s'\n", terms[i].term, stem, terms[i].ext);
		strbuf_adds(g, "set title '");
		esc_gnuplot(g, title.buf);
		strbuf_adds(g, "'\nset xlabel '");
		esc_gnuplot(g, t->order_key);
		strbuf_adds(g, " (position)'\nset ylabel '");
		esc_gnuplot(g, rep_metrics[t->metric].title);
		strbuf_adds(g, "'\nset grid ytics\nset key outside bottom center horizontal\nset yrange [0:*]\n");
		for (size_t k = 0; k < s->nchg; k++)
			strbuf_addf(g, "set arrow from %g, graph 0 to %g, graph 1 nohead dashtype 2 lc rgb '#bf812d'\n",
				    s->chg[k].at + 0.5, s->chg[k].at + 0.5);
		strbuf_addf(g, "plot '%s.dat' using 1:3 with points pt 7 ps 0.6 lc rgb '#3566b5' title 'runs', \\\n"
			       "     '' using 1:4 with histeps lw 2 lc rgb '#d08a2c' title 'segment mean'\n"
			       "unset output\nunset arrow\n", stem);
	}
	strbuf_release(&title);
}

int trend_write_charts(const struct trend *t, const char *dir, char ***scripts, size_t *nscripts,
		       struct errbuf *err)
{
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return err_set(err, ERR_INPUT, "cannot create '%s': %s", dir, strerror(errno));
	for (size_t i = 0; i < t->n; i++) {
		const struct trend_series *s = &t->v[i];
		struct strbuf stem, data, gp;
		char *path;
		int rc;

		strbuf_init(&stem);
		strbuf_init(&data);
		strbuf_init(&gp);
		strbuf_addf(&stem, "trend-%02zu-", i + 1);
		chart_slug(&stem, s->workload);
		series_data(s, &data);
		series_script(t, s, stem.buf, &gp);
		path = xasprintf("%s/%s.dat", dir, stem.buf);
		rc = chart_write_text(path, &data, err);
		free(path);
		if (rc == 0) {
			path = xasprintf("%s/%s.gp", dir, stem.buf);
			rc = chart_write_text(path, &gp, err);
			free(path);
		}
		if (rc == 0) {
			*scripts = xrealloc(*scripts, (*nscripts + 1) * sizeof(**scripts));
			(*scripts)[(*nscripts)++] = xasprintf("%s.gp", stem.buf);
		}
		strbuf_release(&stem);
		strbuf_release(&data);
		strbuf_release(&gp);
		if (rc < 0)
			return -1;
	}
	return 0;
}
