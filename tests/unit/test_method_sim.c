/*
 * test_method_sim: profiles/method.c and report/analysis/steady.c driving real fio on the sim ioengine, with the answers
 * the model gives:
 *  - curve: a max run (8 units x 1 ms, iodepth 32: 8,000 IOPS), then points at 25, 50, 75 and 90 % throttled
 *    by method_curve_rate(): each within 5 % of its share of the max run's IOPS;
 *  - sweep: iodepth 1..128 with --until p99>13ms stops at the first point past 13 ms: the model's latency is
 *    max(S, q S / U), p99 = latency (fixed device time), so iodepth 128 (16 ms; 64 gives 8 ms). The limit sits
 *    between the two with room for this machine's scheduling tail (p99 at iodepth 64 measured 10.7-11.7 ms on
 *    the 2-core CI machine: the mean's 8 ms plus up to 3.7 ms of late completions);
 * The device time is 1 ms, not the 100 us (whose figures are these divided by 10): on a shared 2-core
 * machine, scheduling stalls of a millisecond put the p99 of a 100 us target past 1 ms at any iodepth.
 *  - preconditioning on a sim target with a write cliff after 2x its size (factor 3): the SNIA sequence
 *    (precond_plan: purge by recreating the file, 2 x working set of 128 KiB sequential writes, then rounds)
 *    reaches steady state at round 5, the first full window, as every round is past the cliff; without it,
 *    rounds 1-2 are fast (4,000 IOPS) and steady state comes at round 7 (rounds 3-7), the model's answer +- 1.
 * Runs are short (about a minute in all); the machine's noise only slows runs, which the rules tolerate.
 * Timing-sensitive, so it runs only with BENCH_METHOD_SIM=1: scripts/perf/method_sim.sh runs it alone
 * (integration tests are serial) and it has no unit/ entry in ctest (tests/CMakeLists.txt); asked to run
 * without bench_sim.so or fio, it fails. Without BENCH_METHOD_SIM (by hand) its tests are skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/strbuf.h"
#include "profiles/method.h"
#include "report/analysis/steady.h"

static char so[4096], dir[64];

static int setup(void **state)
{
	const char *build = getenv("BENCH_BUILD");
	char *argv[] = { "fio", "--version", NULL }, *out = NULL;
	struct errbuf err;
	int code = -1, ok;

	(void)state;
	if (!build || !getenv("BENCH_METHOD_SIM"))
		return 0;
	snprintf(so, sizeof(so), "%s/engines/sim/bench_sim.so", build);
	errbuf_init(&err);
	ok = access(so, R_OK) == 0 && proc_run_capture(argv, 10000, &out, &code, &err) == 0 && code == 0;
	free(out);
	/* Asked to run (scripts/perf/method_sim.sh) but unable to: a failure, never three skips. */
	if (!ok) {
		fprintf(stderr, "test_method_sim: BENCH_METHOD_SIM is set but %s or fio cannot be run\n", so);
		return -1;
	}
	snprintf(dir, sizeof(dir), "/tmp/test_method_sim.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char *argv[] = { "rm", "-rf", dir, NULL }, *out = NULL;
	struct errbuf err;
	int code;

	(void)state;
	if (dir[0])
		proc_run_capture(argv, 10000, &out, &code, &err);
	free(out);
	return 0;
}

/* Runs one sim job (options one per line) and reads the figures of its busier direction. */
static void fio_run(const char *opts, struct method_point *p)
{
	char *path = xasprintf("%s/job.fio", dir), *out = NULL;
	/* at a higher priority where allowed (as the integration tests): other load only slows runs down */
	char *argv[] = { "nice", "-n", "-5", "fio", "--output-format=json", "--eta=never", path, NULL };
	struct errbuf err;
	FILE *f = fopen(path, "w");
	cJSON *doc, *job;
	int code = -1;

	assert_non_null(f);
	fprintf(f, "[sim]\nioengine=external:%s\nfilename=%s/target\n%s\n", so, dir, opts);
	fclose(f);
	errbuf_init(&err);
	assert_int_equal(proc_run_capture(geteuid() == 0 ? argv : argv + 3, 300000, &out, &code, &err), 0);
	if (code != 0)
		fail_msg("fio failed (%d) on:\n%s\n%s", code, opts, out ? out : "");
	doc = cJSON_Parse(out);
	assert_non_null(doc);
	job = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "jobs"), 0);
	p->iops = 0;
	for (int d = 0; d < 2; d++) {
		const cJSON *dd = cJSON_GetObjectItemCaseSensitive(job, d ? "write" : "read");
		const cJSON *clat = cJSON_GetObjectItemCaseSensitive(dd, "clat_ns");
		const cJSON *iops = cJSON_GetObjectItemCaseSensitive(dd, "iops");
		const cJSON *pct = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(clat, "percentile"),
								     "99.000000");

		if (!cJSON_IsNumber(iops) || iops->valuedouble <= p->iops)
			continue;
		p->iops = iops->valuedouble;
		p->lat_ms = cJSON_GetObjectItemCaseSensitive(clat, "mean")->valuedouble / 1e6;
		p->p99_ms = cJSON_IsNumber(pct) ? pct->valuedouble / 1e6 : NAN;
	}
	cJSON_Delete(doc);
	free(out);
	free(path);
}

static void test_curve_points(void **state)
{
	static const double pct[] = { 25, 50, 75, 90 };
	const char *base = "size=64g\nrw=randread\nbs=4k\niodepth=32\ntime_based=1\nramp_time=500ms\nruntime=3\n"
			   "sim_units=8\nsim_lat=1ms";
	struct method_point max, p;
	struct errbuf err;

	(void)state;
	if (!so[0])
		skip();
	fio_run(base, &max);
	print_message("max run: %.0f IOPS (model 8,000)\n", max.iops);
	errbuf_init(&err);
	for (size_t i = 0; i < 4; i++) {
		struct method_rate r;
		char *opts;
		double miss;

		assert_int_equal(method_curve_rate(max.iops, pct[i], 1, 1, 1, 100, &r, &err), 0);
		opts = xasprintf("%s\nrate_iops=%s", base, r.rate_iops);
		fio_run(opts, &p);
		free(opts);
		print_message("curve %g%%: target %.0f, achieved %.0f IOPS, mean %.3f ms\n", pct[i], r.total_iops,
			      p.iops, p.lat_ms);
		if (!method_curve_ok(r.total_iops, p.iops, METHOD_CURVE_TOL_PCT, &miss))
			fail_msg("curve %g%%: achieved %.0f IOPS misses the target %.0f by %.1f %%", pct[i], p.iops,
				 r.total_iops, miss);
	}
}

/* One sweep iodepth=1,...,128 until p99 > 13 ms on 8 units x 1 ms fixed; returns the points run (n). */
static size_t sweep_once(struct method_point *pts, int *stop)
{
	struct method_sweep s;
	struct method_until u;
	struct errbuf err;
	size_t n = 0;

	errbuf_init(&err);
	assert_int_equal(method_sweep_parse("iodepth=1,2,4,8,16,32,64,128", &s, &err), 0);
	assert_int_equal(method_until_parse("p99>13ms", &u, &err), 0);
	*stop = -1;
	while (n < s.n && *stop < 0) {
		char *opts = xasprintf("size=64g\nrw=randread\nbs=4k\ntime_based=1\nramp_time=300ms\nruntime=2\n"
				       "sim_units=8\nsim_lat=1ms\n%s=%.0f", s.option, s.v[n]);

		fio_run(opts, &pts[n]);
		free(opts);
		print_message("iodepth %3.0f: %6.0f IOPS, mean %.3f ms, p99 %.3f ms\n", s.v[n], pts[n].iops,
			      pts[n].lat_ms, pts[n].p99_ms);
		n++;
		*stop = method_sweep_stop(&u, 1, pts, n);
	}
	return n;
}

/*
 * The model: iodepth 128 (p99 16 ms) is the first point past 13 ms; 64 is at 8 ms. A stalled machine only ever
 * slows a point (an early stop), so an early stop gets up to three sweeps; a sweep that never stops, or one that
 * passes 128, fails at once.
 */
static void test_sweep_until(void **state)
{
	struct method_point pts[METHOD_MAX_POINTS];
	static const double qd[] = { 1, 2, 4, 8, 16, 32, 64, 128 };
	size_t n = 0;
	int stop = -1;

	(void)state;
	if (!so[0])
		skip();
	for (int attempt = 1; attempt <= 3; attempt++) {
		n = sweep_once(pts, &stop);
		assert_int_equal(stop, 0);
		if (qd[n - 1] == 128)
			break;
		print_message("attempt %d: the sweep stopped early at iodepth %.0f (p99 %.3f ms), the model says 128\n",
			      attempt, qd[n - 1], pts[n - 1].p99_ms);
	}
	if (qd[n - 1] != 128)
		fail_msg("the sweep stopped at iodepth %.0f (p99 %.3f ms) in three sweeps, the model says 128", qd[n - 1],
			 pts[n - 1].p99_ms);
	for (size_t i = 0; i + 1 < n; i++)
		assert_true(pts[i].p99_ms <= 13.0);
}

/* Rounds of 4k random writes, each writing the target's size, until steady state; returns the round. */
static unsigned rounds_until_steady(const char *wear)
{
	struct ss_rule rule;
	struct ss_result res;
	double v[SS_MAX_ROUNDS_DEFAULT];
	size_t n = 0;

	ss_rule_defaults(&rule);
	rule.max_rounds = 10;
	do {
		struct method_point p;
		char *opts = xasprintf("size=8m\nio_size=8m\nrw=randwrite\nbs=4k\niodepth=8\nsim_units=8\n"
				       "sim_lat=2ms\n%s", wear);

		fio_run(opts, &p);
		free(opts);
		v[n++] = p.iops;
		print_message("  round %zu: %.0f IOPS\n", n, p.iops);
		ss_check1(&rule, v, n, &res);
	} while (res.state == SS_CONTINUE);
	assert_int_equal(res.state, SS_REACHED);
	return res.round;
}

static void test_precondition_cliff(void **state)
{
	const char *wear = "sim_cliff=2x\nsim_cliff_factor=3";
	struct precond_opts o;
	struct precond_history h;
	struct precond_plan plan;
	struct precond_target t = { NULL, 0, 8u << 20, 0, 100, 4096 };
	struct errbuf err;
	char *target = xasprintf("%s/target", dir);
	unsigned round;
	FILE *f;

	(void)state;
	if (!so[0])
		skip();
	/* without preconditioning (a fresh target): 2 fast rounds, then the window of 5 slow ones */
	unlink(target);
	print_message("no preconditioning:\n");
	round = rounds_until_steady(wear);
	print_message("steady state reached at round %u (model 7)\n", round);
	assert_true(round >= 6 && round <= 8);
	/* the SNIA sequence */
	t.path = target;
	precond_opts_defaults(&o);
	precond_history_init(&h);
	errbuf_init(&err);
	assert_int_equal(precond_plan(&o, &t, &h, &plan, &err), 0);
	assert_int_equal(plan.n, 3);
	assert_true(plan.v[0].recreate);
	f = fopen(target, "w"); /* the purge: the file recreated */
	assert_non_null(f);
	fclose(f);
	{
		struct strbuf opts;
		struct method_point p;

		strbuf_init(&opts);
		for (size_t i = 0; i < plan.v[1].fio_opts.n; i++)
			if (strcmp(plan.v[1].fio_opts.v[i].key, "direct")) /* the sim engine does no IO */
				strbuf_addf(&opts, "%s=%s\n", plan.v[1].fio_opts.v[i].key, plan.v[1].fio_opts.v[i].value);
		strbuf_addf(&opts, "sim_units=8\nsim_lat=2ms\n%s", wear);
		fio_run(opts.buf, &p);
		print_message("wipc: %llu bytes in 128 KiB writes at %.0f IOPS\n", (unsigned long long)plan.v[1].bytes,
			      p.iops);
		strbuf_release(&opts);
	}
	print_message("wdpc rounds:\n");
	round = rounds_until_steady(wear);
	print_message("steady state reached at round %u (model 5)\n", round);
	assert_true(round >= 5 && round <= 6);
	precond_plan_release(&plan);
	precond_history_release(&h);
	free(target);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curve_points),
		cmocka_unit_test(test_sweep_until),
		cmocka_unit_test(test_precondition_cliff),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
