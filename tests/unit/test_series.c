/*
 * test_series: core/series.c, the one definition of aggregates over time (docs/timeseries.md): slots of a
 * grid round fio's drifting stamps (999, 1999, 4000, 5000, 5999) to their own windows without merging two;
 * rates add over hosts and jobs; mean latency is weighted by the IOs of its job; percentiles come from summed
 * bins with fio-histo-log-pctiles.py's interpolation; a slot without samples is a gap.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/series.h"
#include "core/strbuf.h"

static struct store_sample *v;
static size_t nv, vcap;

static void add(const char *host, const char *job, const char *metric, int64_t t, double value, unsigned w)
{
	ARRAY_GROW(v, vcap, nv + 1);
	memset(&v[nv], 0, sizeof(v[nv]));
	v[nv].host = xstrdup(host);
	v[nv].metric = xstrdup(metric);
	snprintf(v[nv].job, sizeof(v[nv].job), "%s", job);
	snprintf(v[nv].source, sizeof(v[nv].source), "fio-log");
	v[nv].t_ms = t;
	v[nv].value = value;
	v[nv].window_ms = w;
	nv++;
}

static void add_bin(const char *host, const char *metric, int64_t t, int64_t lo, int64_t hi, double count)
{
	add(host, "j.1", metric, t, count, 1000);
	v[nv - 1].is_bin = 1;
	v[nv - 1].bucket_lo_ns = lo;
	v[nv - 1].bucket_hi_ns = hi;
}

static void reset(void)
{
	store_samples_free(v, nv);
	v = NULL;
	nv = vcap = 0;
}

static void test_slots_and_gaps(void **state)
{
	const int64_t t[] = { 999, 1999, 2999, 4000, 5000, 5999, 8000 };
	struct series_point *p;
	size_t n;

	(void)state;
	for (size_t i = 0; i < 7; i++)
		add("h1", "j.1", "iops.read", t[i], 100.0 + (double)i, 1000);
	assert_int_equal(series_window_ms(v, nv, "iops"), 1000);
	n = series_aggregate(v, nv, "iops", NULL, 1000, &p);
	assert_int_equal(n, 7); /* 5000 and 5999 stay two windows; 7 s (stamp 7000) is a gap */
	assert_int_equal(p[3].t_ms, 4000);
	assert_int_equal(p[4].t_ms, 5000);
	assert_int_equal(p[5].t_ms, 6000);
	assert_int_equal(p[6].t_ms, 8000);
	assert_true(p[5].value == 105.0);
	free(p);
	reset();
}

static void test_rates_add_latency_weighted(void **state)
{
	struct series_point *p;
	size_t n;

	(void)state;
	/* two hosts, host 1 with two jobs; 500 ms logs on a 1000 ms grid are averaged within their series */
	add("h1", "j.1", "iops.read", 500, 100, 500);
	add("h1", "j.1", "iops.read", 1000, 300, 500);
	add("h1", "j.2", "iops.read", 1000, 50, 1000);
	add("h2", "j.1", "iops.read", 1000, 1000, 1000);
	add("h2", "j.1", "iops.write", 1000, 10, 1000);
	add("h1", "j.1", "lat_ns.read", 1000, 1000, 1000);
	add("h1", "j.2", "lat_ns.read", 1000, 4000, 1000);
	add("h2", "j.1", "lat_ns.read", 1000, 100, 1000);
	n = series_aggregate(v, nv, "iops.read", NULL, 1000, &p);
	assert_int_equal(n, 1);
	assert_true(fabs(p[0].value - (200.0 + 50.0 + 1000.0)) < 1e-9);
	free(p);
	n = series_aggregate(v, nv, "iops", "h2", 1000, &p); /* all directions of one host */
	assert_int_equal(n, 1);
	assert_true(fabs(p[0].value - 1010.0) < 1e-9);
	free(p);
	n = series_aggregate(v, nv, "lat_ns.read", NULL, 1000, &p);
	assert_int_equal(n, 1);
	/* IO-weighted: (1000 * 200 + 4000 * 50 + 100 * 1000) / 1250 */
	assert_true(fabs(p[0].value - (1000.0 * 200 + 4000.0 * 50 + 100.0 * 1000) / 1250.0) < 1e-9);
	free(p);
	reset();
}

static void test_percentiles_from_summed_bins(void **state)
{
	struct series_point *p;
	size_t n;
	const int64_t lo[] = { 100, 200 }, hi[] = { 101, 202 };
	const double c[] = { 99, 1 };

	(void)state;
	/* fio-histo-log-pctiles.py: p50 of 99 x [100,101) + 1 x [200,202) interpolates inside the first bucket */
	assert_true(fabs(series_hist_pct(lo, hi, c, 2, 50.0) - (100.0 + 50.0 / 99.0)) < 1e-9);
	assert_true(fabs(series_hist_pct(lo, hi, c, 2, 99.5) - 201.0) < 1e-9);
	assert_true(isnan(series_hist_pct(lo, hi, c, 0, 50.0)));
	/* host 1 fast, host 2 slow: the all-hosts p99 is from summed bins, not the mean of the hosts' p99 */
	add_bin("h1", "clat_hist.read", 1007, 1000, 1001, 990);
	add_bin("h2", "clat_hist.read", 1003, 100000, 100512, 10);
	add_bin("h2", "clat_hist.write", 1003, 5000, 5002, 1000);
	n = series_percentile(v, nv, "clat_hist.read", NULL, 1000, 99.0, &p);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].t_ms, 1000);
	/* 990 of 1000 (exactly 99 %) below 1001: the script's rule (strictly above) takes the next bucket's start;
	 * the mean of the hosts' p99 would be (1001 + 100507) / 2 */
	assert_true(fabs(p[0].value - 100000.0) < 1e-9);
	free(p);
	n = series_percentile(v, nv, "clat_hist.read", "h2", 1000, 50.0, &p);
	assert_int_equal(n, 1);
	assert_true(fabs(p[0].value - 100256.0) < 1e-9);
	free(p);
	n = series_percentile(v, nv, "clat_hist", NULL, 1000, 50.0, &p); /* read and write together */
	assert_int_equal(n, 1);
	assert_true(p[0].value > 5000 && p[0].value < 5002);
	free(p);
	reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slots_and_gaps),
		cmocka_unit_test(test_rates_add_latency_weighted),
		cmocka_unit_test(test_percentiles_from_summed_bins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
