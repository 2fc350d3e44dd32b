/*
 * test_figures: the one figures layer (report/figures.c): which host stands for a run, directions without IOs,
 * the total from the directions when there is no total row, p99 as given, and CPU by core's one rule (fio's
 * own usr+sys gives a CPU % and no CPU per IO). Rows are built in memory; no database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "report/figures.h"

/* A result row of host h, direction d. */
static struct store_result row(const char *h, enum ddir d, uint64_t ios, double iops, double lat_ns)
{
	struct store_result r;

	memset(&r, 0, sizeof(r));
	r.host = (char *)h;
	r.job = (char *)"*";
	r.ddir = d;
	r.ios = ios;
	r.iops = iops;
	r.bw_bytes = iops * 4096;
	r.lat_mean_ns = lat_ns;
	r.clat_mean_ns = NAN;
	r.runtime_ms = 10000;
	return r;
}

static void test_host_and_directions(void **state)
{
	struct store_result v[] = {
		row("*", DDIR_READ, 7000, 700, 250000), row("*", DDIR_WRITE, 3000, 300, 500000),
		row("*", DDIR_TRIM, 0, 0, NAN), row("h1", DDIR_READ, 3500, 350, 240000),
	};
	const double p99[] = { 3e6, 1e6, NAN, 2e6 };
	struct figures f;
	int nh;

	(void)state;
	assert_string_equal(figures_host(v, 4, &nh), "*");
	assert_int_equal(nh, 2);
	assert_int_equal(figures_from_results(NULL, v, p99, 4, NULL, NULL, &f, NULL), 0);
	assert_true(f.measured);
	assert_true(f.iops[DDIR_TOTAL] == 1000); /* no total row: read + write */
	assert_true(f.ios == 10000);
	assert_true(f.p99_ns[DDIR_READ] == 3e6 && f.p99_ns[DDIR_WRITE] == 1e6);
	assert_true(isnan(f.iops[DDIR_TRIM])); /* no IOs: not measured */
	assert_true(figures_worse_rw(f.lat_mean_ns) == 500000);
	assert_true(figures_worse_rw(f.p99_ns) == 3e6);
	assert_true(isnan(f.cpu_pct) && isnan(f.cpu_us_per_io));
	/* one host without an aggregate stands for the run; two do not */
	assert_string_equal(figures_host(v + 3, 1, &nh), "h1");
	v[0].host = v[1].host = v[2].host = (char *)"h0";
	assert_null(figures_host(v, 4, &nh));
	assert_int_equal(figures_from_results(NULL, v, p99, 4, NULL, NULL, &f, NULL), 0);
	assert_false(f.measured);
	assert_int_equal(f.result_hosts, 2);
}

static void test_cpu_rule(void **state)
{
	struct store_host h;
	struct store_cpu c;
	struct figures f;

	(void)state;
	memset(&h, 0, sizeof(h));
	h.host = (char *)"*";
	h.usr_cpu_pct = 3;
	h.sys_cpu_pct = 4;
	figures_init(&f);
	figures_cpu(&f, NULL, 0, &h, 1);
	assert_true(f.cpu_pct == 7);
	assert_true(f.cpu_from_fio_job);
	assert_string_equal(f.cpu_source, "fio");
	assert_true(isnan(f.cpu_us_per_io)); /* never derived from fio's usr+sys */
	memset(&c, 0, sizeof(c));
	c.host = (char *)"*";
	c.role = (char *)"initiator";
	c.source = (char *)"procstat";
	for (int k = 0; k < CPU_SHARE_NR; k++)
		c.share_pct[k] = NAN;
	c.util_pct = 42.5;
	c.cpu_us_per_io = 12.5;
	figures_cpu(&f, &c, 1, &h, 1);
	assert_true(f.cpu_pct == 42.5 && f.cpu_us_per_io == 12.5);
	assert_false(f.cpu_from_fio_job);
	assert_string_equal(f.cpu_source, "procstat");
	assert_true(isnan(f.target_cpu_pct));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_and_directions),
		cmocka_unit_test(test_cpu_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
