/*
 * test_method: the measurement method's numbers (profiles/method.c):
 * curve throttles per job, the 5 % achieved-rate check, stopcurve, --sweep and --until parsing and the stop
 * decision, and the SNIA preconditioning phases with their skip rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "profiles/method.h"

/* RC of parsing ARG must be 0 when WANT_OK, else not; returns whether it parsed. */
static int parsed(int rc, int want_ok, const char *arg, const struct errbuf *err)
{
	if ((rc == 0) != want_ok)
		fail_msg("'%s': rc %d (%s)", arg, rc, err->msg);
	return rc == 0;
}

static void test_curve_parse(void **state)
{
	static const struct { const char *arg; int ok; size_t n; double last; } cases[] = {
		{ "25,50,75,90", 1, 4, 90 }, { "10", 1, 1, 10 }, { "100,50", 1, 2, 50 }, { "0,50", 0, 0, 0 },
		{ "50,101", 0, 0, 0 }, { "50,,60", 0, 0, 0 }, { "", 0, 0, 0 }, { "50,50", 0, 0, 0 }, { "5x", 0, 0, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct method_curve c;
		struct errbuf err;

		errbuf_init(&err);
		if (parsed(method_curve_parse(cases[i].arg, &c, &err), cases[i].ok, cases[i].arg, &err)) {
			assert_int_equal(c.n, cases[i].n);
			assert_true(c.pct[c.n - 1] == cases[i].last);
		} else {
			assert_int_equal(err.kind, ERR_USAGE);
		}
	}
}

static void test_curve_rate(void **state)
{
	static const struct {
		double max, pct;
		unsigned jobs, targets, hosts;
		int read_pct;
		double total, job;
		const char *rate;
	} cases[] = {
		/* the acceptance's sim: 8 units x 100 us = 80,000 IOPS max, one job on one target */
		{ 79877, 25, 1, 1, 1, 100, 19969.25, 19969.25, "19969" },
		{ 79877, 90, 1, 1, 1, 100, 71889.3, 71889.3, "71889" },
		/* 4 targets x 2 numjobs x 2 hosts = 16 jobs */
		{ 160000, 50, 2, 4, 2, 100, 80000, 5000, "5000" },
		/* a 70/30 mix keeps its read share: 3500 reads + 1500 writes per job */
		{ 100000, 50, 1, 10, 1, 70, 50000, 5000, "3500,1500" },
		/* write-only and unknown mix: one value */
		{ 100000, 10, 1, 0, 0, 0, 10000, 10000, "10000" },
		{ 100000, 10, 0, 1, 1, -1, 10000, 10000, "10000" },
		/* never rate_iops=0 */
		{ 10, 1, 4, 4, 1, 100, 0.1, 0.00625, "1" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct method_rate r;
		struct errbuf err;

		errbuf_init(&err);
		assert_int_equal(method_curve_rate(cases[i].max, cases[i].pct, cases[i].jobs, cases[i].targets,
						   cases[i].hosts, cases[i].read_pct, &r, &err), 0);
		if (fabs(r.total_iops - cases[i].total) > 1e-6 || fabs(r.job_iops - cases[i].job) > 1e-6 ||
		    strcmp(r.rate_iops, cases[i].rate))
			fail_msg("case %zu: total %g job %g rate '%s'", i, r.total_iops, r.job_iops, r.rate_iops);
	}
	{
		struct method_rate r;
		struct errbuf err;

		errbuf_init(&err);
		assert_int_equal(method_curve_rate(0, 50, 1, 1, 1, 100, &r, &err), -1);
		assert_non_null(strstr(err.msg, "max run"));
	}
}

static void test_curve_check(void **state)
{
	double miss;

	(void)state;
	/* within 5 %: 5 % exactly passes, 5.01 % fails, both directions */
	assert_true(method_curve_ok(20000, 21000, 5, &miss));
	assert_true(fabs(miss - 5) < 1e-9);
	assert_false(method_curve_ok(20000, 21002, 5, &miss));
	assert_true(method_curve_ok(20000, 19000, 5, &miss));
	assert_false(method_curve_ok(20000, 18998, 5, &miss));
	/* the bug of the issue: the 25 % point ran unthrottled at 100 % of the max */
	assert_false(method_curve_ok(0.25 * 79877, 79877, 5, &miss));
	assert_true(fabs(miss - 300) < 1e-9);
	assert_false(method_curve_ok(0, 100, 5, &miss));
	{
		struct method_curve c = { .n = 0, .stopcurve_ms = 2 };

		assert_false(method_curve_stop(&c, 2));
		assert_true(method_curve_stop(&c, 2.01));
		c.stopcurve_ms = 0;
		assert_false(method_curve_stop(&c, 1e9));
	}
}

static void test_sweep_parse(void **state)
{
	struct method_sweep s;
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(method_sweep_parse("iodepth=1,2,4,8,16,32,64,128", &s, &err), 0);
	assert_int_equal(s.key, SWEEP_IODEPTH);
	assert_int_equal(s.n, 8);
	assert_true(s.v[7] == 128);
	assert_string_equal(s.option, "iodepth");
	assert_int_equal(method_sweep_parse("rate=1000,2000", &s, &err), 0);
	assert_string_equal(s.option, "rate_iops");
	assert_int_equal(method_sweep_parse("numjobs=1,2", &s, &err), 0);
	assert_int_equal(s.key, SWEEP_NUMJOBS);
	assert_int_equal(method_sweep_parse("bs=4k,8k", &s, &err), -1);
	assert_int_equal(method_sweep_parse("iodepth", &s, &err), -1);
	assert_int_equal(method_sweep_parse("iodepth=1,2.5", &s, &err), -1);
	assert_int_equal(method_sweep_parse("iodepth=0,1", &s, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
}

static void test_until(void **state)
{
	static const struct { const char *expr; int ok; enum method_until_metric m; char op; double v; } cases[] = {
		{ "p99>1ms", 1, UNTIL_P99, '>', 1 }, { "p99>500us", 1, UNTIL_P99, '>', 0.5 },
		{ "p99>2", 1, UNTIL_P99, '>', 2 }, { "lat>0.1s", 1, UNTIL_LAT, '>', 100 },
		{ "iops_gain<5%", 1, UNTIL_IOPS_GAIN, '<', 5 }, { "p99=1ms", 0, 0, 0, 0 }, { "p95>1ms", 0, 0, 0, 0 },
		{ "p99>1h", 0, 0, 0, 0 }, { "iops_gain<5ms", 0, 0, 0, 0 }, { "p99>", 0, 0, 0, 0 },
	};
	struct errbuf err;
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct method_until u;

		errbuf_init(&err);
		if (parsed(method_until_parse(cases[i].expr, &u, &err), cases[i].ok, cases[i].expr, &err) &&
		    (u.metric != cases[i].m || u.op != cases[i].op || fabs(u.value - cases[i].v) > 1e-12))
			fail_msg("'%s': metric %d op %c value %g", cases[i].expr, u.metric, u.op, u.value);
	}
}

static void test_sweep_stop(void **state)
{
	/* sim 8 units x 100 us: iodepth 1..128; p99 = 0.1 ms up to iodepth 8, then grows with the queue */
	const struct method_point pts[] = {
		{ 10000, 0.1, 0.1 }, { 20000, 0.1, 0.1 }, { 40000, 0.1, 0.1 }, { 80000, 0.1, 0.1 },
		{ 80000, 0.2, 0.2 }, { 80000, 0.4, 0.4 }, { 80000, 0.8, 0.8 }, { 80000, 1.6, 1.6 },
	};
	struct method_until u[2];
	struct errbuf err;
	size_t n;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(method_until_parse("p99>1ms", &u[0], &err), 0);
	assert_int_equal(method_until_parse("iops_gain<5%", &u[1], &err), 0);
	for (n = 1; n <= 8; n++)
		if (method_sweep_stop(u, 1, pts, n) >= 0)
			break;
	assert_int_equal(n, 8); /* iodepth 128 is the first past 1 ms */
	for (n = 1; n <= 8; n++)
		if (method_sweep_stop(&u[1], 1, pts, n) >= 0)
			break;
	assert_int_equal(n, 5); /* 80,000 -> 80,000 at iodepth 16: gain 0 % */
	assert_int_equal(method_sweep_stop(u, 2, pts, 5), 1);
	{
		const struct method_point unknown[] = { { 1, NAN, NAN } };

		assert_int_equal(method_sweep_stop(u, 2, unknown, 1), -1);
	}
	/* exactly at the limit is not past it */
	{
		const struct method_point at[] = { { 1, 1, 1 } };

		assert_int_equal(method_sweep_stop(u, 1, at, 1), -1);
	}
}

static void test_precondition(void **state)
{
	struct precond_opts o;
	struct precond_history h;
	struct precond_plan p;
	struct errbuf err;
	struct precond_target file = { "/data/f1", 0, 1ull << 30, 0, 100, 4096 };
	struct precond_target file_read = { "/data/f1", 0, 1ull << 30, 100, 100, 4096 };
	struct precond_target file_seq = { "/data/f1", 0, 1ull << 30, 0, 0, 131072 };
	struct precond_target dev = { "/dev/nvme0n1", 1, 1ull << 32, 70, 100, 4096 };

	(void)state;
	errbuf_init(&err);
	precond_opts_defaults(&o);
	precond_history_init(&h);
	/* first workload on a file: purge (recreate), 2 x 1 GiB in 128 KiB writes, rounds */
	assert_int_equal(precond_plan(&o, &file, &h, &p, &err), 0);
	assert_int_equal(p.n, 3);
	assert_int_equal(p.v[0].kind, PRECOND_PURGE);
	assert_true(p.v[0].recreate && !p.v[0].argv[0]);
	assert_int_equal(p.v[1].kind, PRECOND_WIPC);
	assert_true(p.v[1].bytes == 2ull << 30);
	assert_string_equal(kvlist_get(&p.v[1].fio_opts, "rw", ""), "write");
	assert_string_equal(kvlist_get(&p.v[1].fio_opts, "bs", ""), "131072");
	assert_string_equal(kvlist_get(&p.v[1].fio_opts, "io_size", ""), "2147483648");
	assert_string_equal(kvlist_get(&p.v[1].fio_opts, "size", ""), "1073741824");
	assert_int_equal(p.v[2].kind, PRECOND_WDPC);
	assert_string_equal(p.v[2].name, "wdpc");
	assert_string_equal(p.v[2].cls, "random-write");
	assert_string_equal(p.skipped, "");
	precond_plan_release(&p);
	/* the same class again: everything skipped, and said why */
	assert_int_equal(precond_plan(&o, &file, &h, &p, &err), 0);
	assert_int_equal(p.n, 0);
	assert_non_null(strstr(p.skipped, "earlier in this suite"));
	assert_non_null(strstr(p.skipped, "random-write"));
	precond_plan_release(&p);
	/* a read-only workload needs no rounds; a sequential-write one gets its own */
	assert_int_equal(precond_plan(&o, &file_read, &h, &p, &err), 0);
	assert_int_equal(p.n, 0);
	precond_plan_release(&p);
	assert_int_equal(precond_plan(&o, &file_seq, &h, &p, &err), 0);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.v[0].kind, PRECOND_WDPC);
	assert_string_equal(p.v[0].cls, "sequential-write");
	precond_plan_release(&p);
	/* a block device: refused without --destructive, blkdiscard -s with it and secure */
	assert_int_equal(precond_plan(&o, &dev, &h, &p, &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_non_null(strstr(err.msg, "--destructive"));
	o.destructive = 1;
	o.secure = 1;
	assert_int_equal(precond_plan(&o, &dev, &h, &p, &err), 0);
	assert_int_equal(p.v[0].kind, PRECOND_PURGE);
	assert_string_equal(p.v[0].argv[0], "blkdiscard");
	assert_string_equal(p.v[0].argv[1], "-s");
	assert_string_equal(p.v[0].argv[2], "/dev/nvme0n1");
	assert_null(p.v[0].argv[3]);
	assert_true(p.v[1].bytes == 2ull << 32);
	precond_plan_release(&p);
	precond_history_release(&h);
	/* ETA: 1 GiB of 4 GiB in 10 s: 30 s left */
	assert_true(fabs(precond_eta_s(4ull << 30, 1ull << 30, 10) - 30) < 1e-9);
	assert_true(isnan(precond_eta_s(4, 0, 10)));
	assert_true(precond_eta_s(4, 4, 10) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curve_parse), cmocka_unit_test(test_curve_rate),
		cmocka_unit_test(test_curve_check), cmocka_unit_test(test_sweep_parse),
		cmocka_unit_test(test_until),       cmocka_unit_test(test_sweep_stop),
		cmocka_unit_test(test_precondition),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
