/*
 * test_curve: curves per configuration, the knee and "max IOPS at p99 <= X" (report/analysis/curve.c) on the figures
 * the sim model gives (fixed service time S = 100 us, U = 8 units, one job): an iodepth sweep q = 1..128 has
 * IOPS = min(q / (T + S), U / S) and latency max(T + S, q S / U), T the transport latency. The knee must be
 * the first point with every unit busy; the latency-vs-IOPS chart scripts are run through real gnuplot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/proc.h"
#include "report/chart/charts.h"
#include "report/analysis/curve.h"

#define NQ 8
static struct rep_run runs[3 * NQ + 1];
static char names[3 * NQ + 1][32];
static size_t nruns;

/* One run of an iodepth sweep point on a model target: transport T_us, device S_us, U units. */
static void model_point(const char *transport, double t_us, double s_us, unsigned units, unsigned q)
{
	struct rep_run *r = &runs[nruns];
	double iops, lat_us;
	char buf[16];

	memset(r, 0, sizeof(*r));
	snprintf(names[nruns], sizeof(names[0]), "randread-qd%u", q);
	r->id = (int64_t)nruns + 1;
	r->name = names[nruns];
	r->status = "done";
	r->iodepth = (int)q;
	iops = fmin(q / ((t_us + s_us) * 1e-6), units / (s_us * 1e-6));
	lat_us = fmax(t_us + s_us, q * s_us / units);
	for (int m = 0; m < RM_NR; m++)
		r->m[m] = NAN;
	r->m[RM_IOPS] = iops;
	r->m[RM_RLAT] = lat_us / 1e3;
	r->m[RM_RP99] = lat_us / 1e3; /* fixed service time: p99 = mean */
	kvlist_init(&r->labels);
	kvlist_add(&r->labels, "transport", transport);
	snprintf(buf, sizeof(buf), "%u", q);
	kvlist_add(&r->labels, "sweep.iodepth", buf);
	nruns++;
}

static void build_set(struct rep_set *set)
{
	static const unsigned q[NQ] = { 1, 2, 4, 8, 16, 32, 64, 128 };

	nruns = 0;
	for (int i = 0; i < NQ; i++)
		model_point("local", 0, 100, 8, q[i]);
	for (int i = 0; i < NQ; i++)
		model_point("nvmeof-rdma", 10, 100, 8, q[i]);
	for (int i = 0; i < NQ; i++)
		model_point("iser", 30, 100, 8, q[i]);
	/* a precondition run is never a curve point */
	model_point("iser", 0, 1, 8, 1);
	kvlist_add(&runs[nruns - 1].labels, "phase", "precondition");
	set->v = runs;
	set->n = nruns;
	set->cap = nruns;
}

static void release_runs(void)
{
	for (size_t i = 0; i < nruns; i++)
		kvlist_release(&runs[i].labels);
}

static void test_knee_and_max(void **state)
{
	struct rep_set set;
	struct curve_set cs;
	struct errbuf err;
	struct strbuf txt;
	long idx;

	(void)state;
	build_set(&set);
	curve_set_init(&cs);
	errbuf_init(&err);
	assert_int_equal(curve_build(&cs, &set, NULL, 2.0, CURVE_LAT_MEAN, &err), 0);
	assert_int_equal(cs.n, 3); /* local, nvmeof-rdma, iser: sweep.iodepth is a point label */
	for (size_t i = 0; i < cs.n; i++) {
		const struct curve *c = &cs.v[i];

		assert_int_equal(c->n, NQ);
		assert_true(c->knee >= 0);
		/*
		 * The knee is the first point with every unit busy: iodepth >= U (1 + T / S), i.e. 8 without a
		 * transport and 8.8 (nvmeof-rdma) or 10.4 (iser) with one: the sweep point 16. Past it the latency
		 * grows as q S / U and exceeds 2 x the minimum after the next doubling.
		 */
		int want = strstr(c->title, "local") ? 8 : 16;

		if (c->v[c->knee].run->iodepth != want)
			fail_msg("%s: knee at iodepth %d, want %d", c->title, c->v[c->knee].run->iodepth, want);
	}
	assert_string_equal(cs.v[0].title, "transport=local");
	assert_true(fabs(cs.v[0].min_lat_ms - 0.1) < 1e-12);
	/* max IOPS at p99 <= 1 ms: 80,000 at iodepth 16, 32 and 64 (0.8 ms): the lowest p99 of them is shown */
	assert_true(fabs(curve_max_iops_at(&cs.v[2], 1.0, &idx) - 80000) < 1e-6);
	assert_int_equal(cs.v[2].v[idx].run->iodepth, 16);
	assert_true(isnan(curve_max_iops_at(&cs.v[2], 0.1, &idx)));
	assert_int_equal(idx, -1);
	/* at p99 <= 0.12 ms: nvmeof-rdma (110 us) reaches iodepth 8 = 8 / 110 us = 72,727; iser (130 us) none */
	assert_true(fabs(curve_max_iops_at(&cs.v[1], 0.12, NULL) - 8 / 110e-6) < 1e-6);
	assert_true(isnan(curve_max_iops_at(&cs.v[2], 0.12, NULL)));
	/* at p99 <= 0.13 ms: iser 8 / 130 us = 61,538, nvmeof-rdma 72,727: ratio 130 / 110 */
	assert_true(fabs(curve_max_iops_at(&cs.v[1], 0.13, NULL) / curve_max_iops_at(&cs.v[2], 0.13, NULL) -
			 130.0 / 110.0) < 1e-9);
	strbuf_init(&txt);
	{
		const double lim[] = { 0.13, 1.0 };

		curve_table_text(&txt, &cs, lim, 2);
	}
	print_message("%s", txt.buf);
	assert_non_null(strstr(txt.buf, "transport=iser"));
	assert_non_null(strstr(txt.buf, "61538"));
	assert_non_null(strstr(txt.buf, "80000"));
	strbuf_release(&txt);
	curve_set_release(&cs);
	/* grouping by a key, knee on p99 with k = 3: the same knee */
	{
		struct kvlist by;

		kvlist_init(&by);
		kvlist_add(&by, "transport", NULL);
		curve_set_init(&cs);
		assert_int_equal(curve_build(&cs, &set, &by, 3.0, CURVE_LAT_P99, &err), 0);
		assert_int_equal(cs.n, 3);
		assert_int_equal(cs.v[0].v[cs.v[0].knee].run->iodepth, 8);
		assert_int_equal(cs.v[1].v[cs.v[1].knee].run->iodepth, 16);
		curve_set_release(&cs);
		kvlist_release(&by);
	}
	curve_set_init(&cs);
	assert_int_equal(curve_build(&cs, &set, NULL, 1.0, CURVE_LAT_MEAN, &err), -1);
	curve_set_release(&cs);
	release_runs();
}

/* A rate curve on the model: points at 10..90 % of the max have latency S; the 100 % (max) run queues. */
static void test_rate_curve_knee(void **state)
{
	static const double pct[] = { 10, 50, 70, 80, 90, 100 };
	struct rep_set set;
	struct curve_set cs;
	struct errbuf err;

	(void)state;
	nruns = 0;
	for (size_t i = 0; i < 6; i++) {
		model_point("local", 0, 100, 8, 8);
		runs[nruns - 1].m[RM_IOPS] = 80000 * pct[i] / 100;
		if (pct[i] == 100)
			runs[nruns - 1].m[RM_RLAT] = runs[nruns - 1].m[RM_RP99] = 0.4; /* iodepth 32 unthrottled */
	}
	set.v = runs;
	set.n = set.cap = nruns;
	curve_set_init(&cs);
	errbuf_init(&err);
	assert_int_equal(curve_build(&cs, &set, NULL, 2.0, CURVE_LAT_MEAN, &err), 0);
	assert_int_equal(cs.n, 1);
	assert_true(fabs(cs.v[0].v[cs.v[0].knee].iops - 72000) < 1e-6); /* the 90 % point */
	curve_set_release(&cs);
	release_runs();
}

static void test_chart(void **state)
{
	struct rep_set set;
	struct curve_set cs;
	struct chart_set charts;
	struct errbuf err;
	char dir[] = "/tmp/test_curve.XXXXXX";

	(void)state;
	assert_non_null(mkdtemp(dir));
	build_set(&set);
	curve_set_init(&cs);
	chart_set_init(&charts);
	errbuf_init(&err);
	assert_int_equal(curve_build(&cs, &set, NULL, 2.0, CURVE_LAT_MEAN, &err), 0);
	assert_int_equal(curve_charts_write(&charts, dir, &cs, CHART_SVG, &err), 0);
	assert_int_equal(charts.n, 2);
	for (size_t i = 0; i < charts.n; i++) {
		char *gp = chart_path(&charts, &charts.v[i], "gp"), *svg = chart_path(&charts, &charts.v[i], "svg");
		char *argv[] = { "gnuplot", charts.v[i].script, NULL }, *out = NULL;
		struct strbuf sc, img;
		int code = -1;

		assert_int_equal(charts.v[i].kind, 'g');
		strbuf_init(&sc);
		strbuf_init(&img);
		assert_int_equal(strbuf_read_file(&sc, gp), 0);
		/* latency spans 0.1 .. 1.6 ms (16x): linear axis; axis titles with units; one line per transport */
		assert_null(strstr(sc.buf, "logscale"));
		assert_non_null(strstr(sc.buf, "IOPS (all directions, IO/s)"));
		assert_non_null(strstr(sc.buf, "latency, ms"));
		assert_non_null(strstr(sc.buf, "title 'transport=nvmeof-rdma'"));
		assert_non_null(strstr(sc.buf, "index 3 using 1:2 with points"));
		assert_int_equal(chdir(dir), 0);
		assert_int_equal(proc_run_capture(argv, 60000, &out, &code, &err), 0);
		free(out);
		assert_int_equal(code, 0);
		assert_int_equal(strbuf_read_file(&img, svg), 0);
		assert_non_null(strstr(img.buf, "<svg"));
		assert_non_null(strstr(img.buf, "transport=iser"));
		strbuf_release(&sc);
		strbuf_release(&img);
		free(gp);
		free(svg);
	}
	charts_remove(&charts);
	chart_set_release(&charts);
	curve_set_release(&cs);
	/* a latency span over 20x: log axis */
	runs[NQ - 1].m[RM_RLAT] = runs[NQ - 1].m[RM_RP99] = 50;
	curve_set_init(&cs);
	chart_set_init(&charts);
	assert_int_equal(curve_build(&cs, &set, NULL, 2.0, CURVE_LAT_MEAN, &err), 0);
	assert_int_equal(curve_charts_write(&charts, dir, &cs, CHART_SVG, &err), 0);
	{
		char *gp = chart_path(&charts, &charts.v[0], "gp");
		struct strbuf sc;

		strbuf_init(&sc);
		assert_int_equal(strbuf_read_file(&sc, gp), 0);
		assert_non_null(strstr(sc.buf, "set logscale y 10"));
		strbuf_release(&sc);
		free(gp);
	}
	charts_remove(&charts);
	chart_set_release(&charts);
	curve_set_release(&cs);
	release_runs();
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knee_and_max),
		cmocka_unit_test(test_rate_curve_knee),
		cmocka_unit_test(test_chart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
