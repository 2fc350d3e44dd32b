/*
 * test_explain: the ceiling model (report/analysis/explain.c) on runs built in memory, one table row per case
 * with its known answer: the RAID geometry (raid0 scales with members, raid5 small writes cost 4 member
 * operations, raid10 writes 2, raid5 over 3 members reconstruct-writes for 3), fio's rate cap per job, the
 * link's caps, the CPU ceiling from fio's job CPU, Little's law at the modelled service time, "unexplained"
 * when the latency is far above the model and nothing is at its limit, a preset's device and link (the engine's
 * own table, core/sim_presets.c), the shaped network (cfg.net.rate_bps), and no verdict named without its
 * figures (an unknown preset's device, a busy-waiting engine's CPU, the null engine's placeholders); member and
 * CPU baselines, a configuration's own set of them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/kv.h"
#include "core/model.h"
#include "report/analysis/explain.h"

struct xcase {
	const char *what;
	const char *engine_opts;  /* "k=v k=v" */
	const char *fio_opts;     /* "k=v k=v" */
	int read_pct, random_pct;
	unsigned bs, iodepth, numjobs;
	double iops, lat_ms;      /* measured */
	double job_cpu_pct;       /* fio usr+sys per job; NAN none */
	enum explain_limit want;
	double want_ceiling;      /* NAN: any */
	const char *evidence_has; /* a piece of the evidence */
};

static void kv_parse_list(struct kvlist *l, const char *s)
{
	char buf[512], *save = NULL;

	if (!s)
		return;
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');

		*eq = 0;
		kvlist_add(l, t, eq + 1);
	}
}

static double host_cpu_pct = NAN; /* the initiators' host CPU of the next judged run (collector rows) */
static const char *engine_name;    /* the next judged run's engine; NULL: sim (fio with baselines) */
static int64_t judged_id = 100;    /* the next judged run's id (baselines stored before it have lower ids) */

static void judge_with(const struct xcase *c, const char *labels, const struct rep_set *base,
		       struct explain_verdict *v)
{
	struct run_spec spec;
	struct rep_run r;
	struct rep_host hosts[2];
	double rf = c->read_pct / 100.0;

	memset(&spec, 0, sizeof(spec));
	memset(&r, 0, sizeof(r));
	memset(hosts, 0, sizeof(hosts));
	kvlist_init(&spec.engine_opts);
	kvlist_init(&spec.wl.opts);
	spec.engine = (char *)(engine_name ? engine_name : base ? "fio" : "sim");
	kvlist_init(&r.labels);
	kv_parse_list(&r.labels, labels);
	r.id = judged_id;
	r.suite = (char *)"s";
	r.identity = (char *)"fio|randwrite|4096|q16";
	kv_parse_list(&spec.engine_opts, c->engine_opts);
	kv_parse_list(&spec.wl.opts, c->fio_opts);
	figures_init(&r.fig);
	r.fig.iops[DDIR_TOTAL] = c->iops;
	r.fig.cpu_pct = host_cpu_pct;
	r.fig.bw_bytes[DDIR_TOTAL] = c->iops * c->bs;
	if (rf > 0) {
		r.fig.iops[DDIR_READ] = c->iops * rf;
		r.fig.lat_mean_ns[DDIR_READ] = c->lat_ms * 1e6;
	}
	if (rf < 1) {
		r.fig.iops[DDIR_WRITE] = c->iops * (1 - rf);
		r.fig.lat_mean_ns[DDIR_WRITE] = c->lat_ms * 1e6;
	}
	r.bs_bytes = c->bs;
	r.read_pct = c->read_pct;
	r.random_pct = c->random_pct;
	r.iodepth = (int)c->iodepth;
	r.numjobs = (int)c->numjobs;
	r.spec = &spec;
	hosts[0].host = (char *)"local";
	hosts[0].usr_cpu_pct = hosts[0].sys_cpu_pct = NAN;
	hosts[1].host = (char *)HOST_AGGREGATE;
	hosts[1].usr_cpu_pct = c->job_cpu_pct;
	hosts[1].sys_cpu_pct = isnan(c->job_cpu_pct) ? NAN : 0;
	r.hosts = hosts;
	r.nhosts = 2;
	explain_run(&r, base, NULL, v);
	kvlist_release(&r.labels);
	kvlist_release(&spec.engine_opts);
	kvlist_release(&spec.wl.opts);
}

static void judge(const struct xcase *c, struct explain_verdict *v)
{
	judge_with(c, NULL, NULL, v);
}

static const struct xcase cases[] = {
	{ "raid5 small writes: 4 ops", "sim_units=1 sim_lat=1ms sim_raid=raid5 sim_members=8", NULL, 0, 100, 4096, 32,
	  1, 1950, 16.4, NAN, EXPLAIN_DEVICES, 2000, "writes 4.00" },
	{ "raid0 scales with members", "sim_units=1 sim_lat=1ms sim_raid=raid0 sim_members=8", NULL, 0, 100, 4096, 32,
	  1, 7900, 4.05, NAN, EXPLAIN_DEVICES, 8000, "x 8 members (raid0)" },
	{ "raid10 writes twice", "sim_units=1 sim_lat=1ms sim_raid=raid10 sim_members=4", NULL, 0, 100, 4096, 16, 1,
	  1990, 8.0, NAN, EXPLAIN_DEVICES, 2000, "writes 2.00" },
	{ "raid5 over 3: reconstruct-write", "sim_units=1 sim_lat=1ms sim_raid=raid5 sim_members=3", NULL, 0, 100,
	  4096, 16, 1, 995, 16, NAN, EXPLAIN_DEVICES, 1000, "writes 3.00" },
	{ "4 units x 1 ms", "sim_units=4 sim_lat=1ms", NULL, 100, 100, 4096, 16, 1, 3985, 4.0, NAN, EXPLAIN_DEVICES,
	  4000, "4 units x 1.00 ms" },
	{ "rate cap per job", "sim_units=4 sim_lat=1ms", "rate_iops=500", 100, 100, 4096, 4, 2, 999, 1.0, NAN,
	  EXPLAIN_RATE_CAP, 1000, "rate_iops=" },
	{ "rate= in bytes", "sim_units=4 sim_lat=1ms", "rate=2m", 100, 100, 4096, 4, 1, 510, 1.0, NAN,
	  EXPLAIN_RATE_CAP, 512, "rate=" },
	{ "link iops", "sim_units=64 sim_lat=100us sim_link_iops=3000", NULL, 100, 100, 4096, 8, 1, 2990, 2.6, NAN,
	  EXPLAIN_TRANSPORT, 3000, "link IOPS cap" },
	{ "link bandwidth", "sim_units=64 sim_link_bw=100m", NULL, 100, 0, 131072, 8, 1, 797, 10, NAN,
	  EXPLAIN_TRANSPORT, 800, "131,072 B per IO" },
	{ "queue depth 1 at 1 ms", "sim_units=4 sim_lat=1ms", NULL, 100, 100, 4096, 1, 1, 985, 1.015, NAN,
	  EXPLAIN_QUEUE_DEPTH, 1000, "iodepth 1 x 1 job x 1 host at 1.00 ms" },
	{ "job CPU", "sim_cpu=500us sim_spin=0", NULL, 100, 100, 4096, 8, 1, 1980, 4.0, 99, EXPLAIN_INITIATOR_CPU,
	  2000, "job threads 99.0 % busy" },
	{ "busy-waiting engine: job CPU is no cost", "sim_cpu=500us", NULL, 100, 100, 4096, 8, 1, 1980, 4.0, 99,
	  EXPLAIN_UNEXPLAINED, NAN, "modelled service time" },
	{ "preset iser: its link IOPS cap", "sim_preset=iser", NULL, 100, 100, 4096, 64, 1, 390000, 0.164, NAN,
	  EXPLAIN_TRANSPORT, 400000, "link IOPS cap 400,000" },
	{ "preset over raid5: device from the preset", "sim_preset=nvmeof-rdma sim_raid=raid5 sim_members=8", NULL, 0,
	  100, 4096, 256, 1, 1390000, 0.184, NAN, EXPLAIN_DEVICES, 1400000, "(capped at 700,000 by sim_iops)" },
	{ "preset, option besides it overrides", "sim_preset=nvmeof-rdma sim_units=1 sim_lat=1ms", NULL, 100, 100,
	  4096, 16, 1, 990, 16, NAN, EXPLAIN_DEVICES, 1000, "1 unit x 1.00 ms" },
	{ "preset, held back: the latency far above the model", "sim_preset=iser sim_raid=raid5 sim_members=8", NULL,
	  100, 100, 4096, 32, 1, 100000, 0.32, NAN, EXPLAIN_UNEXPLAINED, NAN, "the modelled service time" },
	{ "busy-waiting engine on a full host: no CPU ceiling", "sim_preset=local", NULL, 100, 100, 4096, 1, 1, 3000,
	  0.33, 100, EXPLAIN_UNEXPLAINED, NAN, "modelled service time" },
	{ "shaped network", "sim_units=64 sim_lat=10us", NULL, 100, 0, 262144, 16, 1, 470, 34, NAN, EXPLAIN_TRANSPORT,
	  476.837158203125, "network shaped to 1,000,000,000 bit/s (cfg.net.rate_bps) / 8 / 262,144 B per IO" },
	{ "far above the model", "sim_units=4 sim_lat=1ms", NULL, 100, 100, 4096, 8, 1, 2000, 4.0, NAN,
	  EXPLAIN_UNEXPLAINED, 4000, "4.0x the modelled service time" },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct xcase *c = &cases[i];
		struct explain_verdict v;

		host_cpu_pct = strstr(c->what, "full host") ? 100 : NAN;
		judge_with(c, strstr(c->what, "network") ? "cfg.net.rate_bps=1000000000" : NULL, NULL, &v);
		if (v.limit != c->want || (!isnan(c->want_ceiling) && fabs(v.ceiling_iops - c->want_ceiling) > 0.5) ||
		    !strstr(v.evidence, c->evidence_has))
			fail_msg("case '%s': limited by %s, ceiling %.1f, evidence '%s'", c->what,
				 explain_limit_key(v.limit), v.ceiling_iops, v.evidence);
	}
	host_cpu_pct = NAN;
}

/* An unknown preset's devices are not named: no check of them at all; nor anything on the null engine. */
static void test_no_verdict_without_figures(void **state)
{
	const struct xcase c = { "preset", "sim_preset=no-such-preset", NULL, 100, 100, 4096, 32, 1, 1000, 1.0, NAN,
				 EXPLAIN_QUEUE_DEPTH, NAN, "" };
	struct explain_verdict v;

	(void)state;
	judge(&c, &v);
	for (size_t i = 0; i < v.nchecks; i++)
		assert_true(v.checks[i].limit != EXPLAIN_DEVICES && v.checks[i].limit != EXPLAIN_TRANSPORT &&
			    v.checks[i].limit != EXPLAIN_INITIATOR_CPU);
	judge(&(struct xcase){ "none", NULL, NULL, 100, 100, 4096, 1, 1, 0, 1.0, NAN, EXPLAIN_UNEXPLAINED, NAN, "" },
	      &v);
	assert_int_equal(v.limit, EXPLAIN_UNEXPLAINED);
	assert_int_equal(v.nchecks, 0);
	assert_string_equal(v.evidence, "no IOPS measured");
	engine_name = "null";
	host_cpu_pct = 100;
	judge_with(&(struct xcase){ "null", NULL, "rate_iops=500", 100, 100, 4096, 1, 1, 1000, 0.001, 100,
				    EXPLAIN_UNEXPLAINED, NAN, "" }, "cfg.net.rate_bps=1000", NULL, &v);
	assert_int_equal(v.limit, EXPLAIN_UNEXPLAINED);
	assert_int_equal(v.nchecks, 0);
	assert_non_null(strstr(v.evidence, "null engine"));
	engine_name = NULL;
	host_cpu_pct = NAN;
}

/* A host whose CPU others fill is named only when nothing else is at its limit. */
static void test_host_cpu_is_weak(void **state)
{
	const struct xcase dev = { "device at its limit on a full host", "sim_units=4 sim_lat=1ms sim_spin=0", NULL, 100,
				   100, 4096, 16, 1, 3900, 4.1, 20, EXPLAIN_DEVICES, 4000, "" };
	const struct xcase slow = { "nothing else at its limit", "sim_units=4 sim_lat=1ms sim_spin=0", NULL, 100, 100,
				    4096, 16, 1, 900, 17.7, 20, EXPLAIN_INITIATOR_CPU, NAN, "" };
	struct explain_verdict v;

	(void)state;
	host_cpu_pct = 99;
	judge(&dev, &v);
	assert_int_equal(v.limit, EXPLAIN_DEVICES);
	judge(&slow, &v);
	assert_int_equal(v.limit, EXPLAIN_INITIATOR_CPU);
	assert_non_null(strstr(v.evidence, "initiator host CPU 99.0 % busy"));
	assert_true(fabs(v.ceiling_iops - 900 / 0.99) < 0.5);
	host_cpu_pct = NAN;
}

/* Member baselines: 3 members at 1,000, 1,100 (the median of its repetitions 1,200, 1,100 and 900) and 900
 * IOPS of the same workload; raid5 over 3 reconstruct-writes (3 member ops), raid0 adds them up; a baseline of
 * another workload does not count, and without a layout label nothing is named. */
static void test_baselines(void **state)
{
	static const struct { const char *member, *identity; double iops; } b[] = {
		{ "loop1", "fio|randwrite|4096|q16", 1000 }, { "loop2", "fio|randwrite|4096|q16", 1200 },
		{ "loop2", "fio|randwrite|4096|q16", 1100 }, { "loop2", "fio|randwrite|4096|q16", 900 },
		{ "loop3", "fio|randwrite|4096|q16", 900 }, { "loop4", "fio|randread|4096|q16", 5000 },
	};
	const struct xcase c = { "baselines", NULL, NULL, 0, 100, 4096, 16, 1, 950, 16.8, NAN, EXPLAIN_DEVICES, NAN,
				 "" };
	struct rep_run runs[6];
	struct rep_set set = { runs, 6, 6, NULL };
	struct explain_verdict v;

	(void)state;
	memset(runs, 0, sizeof(runs));
	for (size_t i = 0; i < 6; i++) {
		kvlist_init(&runs[i].labels);
		kvlist_add(&runs[i].labels, "phase", "baseline");
		kvlist_add(&runs[i].labels, "baseline.member", b[i].member);
		runs[i].identity = (char *)b[i].identity;
		runs[i].id = (int64_t)i + 1;
		figures_init(&runs[i].fig);
		runs[i].fig.iops[DDIR_TOTAL] = b[i].iops;
	}
	judge_with(&c, "stack=btrfs-raid5", &set, &v);
	assert_int_equal(v.limit, EXPLAIN_DEVICES);
	assert_true(fabs(v.ceiling_iops - 3000.0 / 3) < 0.5);
	assert_non_null(strstr(v.evidence, "loop1 1,000 (run 1); loop2 1,100 (run 3); loop3 900 (run 5) = 3,000 IOPS "
					   "over 3 members; raid5"));
	assert_int_equal(v.checks[0].nruns, 3);
	assert_int_equal(v.checks[0].runs[1], 3);
	judge_with(&c, "stack=mdadm-raid0", &set, &v);
	assert_true(fabs(v.checks[0].ceiling_iops - 3000) < 0.5);
	judge_with(&c, "stack=plain", &set, &v);
	for (size_t i = 0; i < v.nchecks; i++)
		assert_true(v.checks[i].limit != EXPLAIN_DEVICES);
	for (size_t i = 0; i < 6; i++)
		kvlist_release(&runs[i].labels);
}

/*
 * A configuration's own baselines (`baseline = on`: labels config and baseline.set): of r's configuration the
 * set stored last before r (members measured again after a change are a new set; a run before it keeps the old
 * one), never another configuration's nor `bench baseline`'s; the CPU baseline (baseline.kind=cpu) is an
 * initiator CPU ceiling, its IOPS per host x hosts, beside fio's job threads' extrapolation.
 */
static void test_config_baselines(void **state)
{
	static const struct { int64_t id; const char *kind, *member, *config, *set; double iops; } b[] = {
		{ 1, "member", "loop1", "r0", "old", 500 },   { 2, "member", "loop2", "r0", "old", 500 },
		{ 10, "member", "loop1", "r0", "new", 1000 }, { 11, "member", "loop2", "r0", "new", 1100 },
		{ 12, "member", "loop1", "r5", "x", 9000 },   { 13, "member", "loop9", NULL, NULL, 7000 },
		{ 14, "cpu", NULL, "r0", "c", 50000 },
	};
	const struct xcase c = { "config", NULL, NULL, 0, 100, 4096, 16, 1, 1900, 8.4, 50, EXPLAIN_DEVICES, NAN, "" };
	struct rep_run runs[7];
	struct rep_set set = { runs, 7, 7, NULL };
	struct rep_host h[2] = { { .host = (char *)"local" }, { .host = (char *)HOST_AGGREGATE } };
	struct explain_verdict v;
	int cpu = 0;

	(void)state;
	memset(runs, 0, sizeof(runs));
	for (size_t i = 0; i < 7; i++) {
		kvlist_init(&runs[i].labels);
		kvlist_add(&runs[i].labels, "phase", "baseline");
		kvlist_add(&runs[i].labels, "baseline.kind", b[i].kind);
		if (b[i].member)
			kvlist_add(&runs[i].labels, "baseline.member", b[i].member);
		if (b[i].config) {
			kvlist_add(&runs[i].labels, "config", b[i].config);
			kvlist_add(&runs[i].labels, "baseline.set", b[i].set);
		}
		runs[i].id = b[i].id;
		runs[i].suite = (char *)"s";
		runs[i].identity = (char *)"fio|randwrite|4096|q16";
		runs[i].hosts = h;
		runs[i].nhosts = 2;
		figures_init(&runs[i].fig);
		runs[i].fig.iops[DDIR_TOTAL] = b[i].iops;
	}
	judged_id = 20; /* after the new set: 1,000 + 1,100 on raid0 */
	judge_with(&c, "config=r0 stack=btrfs-raid0", &set, &v);
	assert_int_equal(v.limit, EXPLAIN_DEVICES);
	assert_true(fabs(v.ceiling_iops - 2100) < 0.5);
	assert_non_null(strstr(v.evidence, "loop1 1,000 (run 10); loop2 1,100 (run 11) = 2,100 IOPS over 2 members"));
	for (size_t i = 0; i < v.nchecks; i++) {
		if (v.checks[i].limit != EXPLAIN_INITIATOR_CPU || !v.checks[i].nruns)
			continue;
		cpu++;
		assert_true(fabs(v.checks[i].ceiling_iops - 50000) < 0.5);
		assert_int_equal(v.checks[i].runs[0], 14);
		assert_non_null(strstr(v.checks[i].evidence, "initiator CPU baseline (run 14"));
	}
	assert_int_equal(cpu, 1); /* beside it fio's job threads at 50 %: 3,800, their own check */
	judged_id = 5;  /* before the new set: the old one, 500 + 500 */
	judge_with(&c, "config=r0 stack=btrfs-raid0", &set, &v);
	assert_int_equal(v.limit, EXPLAIN_DEVICES);
	assert_true(fabs(v.ceiling_iops - 1000) < 0.5);
	assert_non_null(strstr(v.evidence, "loop1 500 (run 1); loop2 500 (run 2)"));
	judged_id = 100;
	judge_with(&c, "config=other stack=btrfs-raid0", &set, &v); /* no set of its own: bench baseline's */
	for (size_t i = 0; i < v.nchecks; i++)
		if (v.checks[i].limit == EXPLAIN_DEVICES)
			cpu = strstr(v.checks[i].evidence, "loop9 7,000 (run 13) = 7,000 IOPS over 1 member") ? 10 : -10;
	assert_int_equal(cpu, 10);
	for (size_t i = 0; i < 7; i++)
		kvlist_release(&runs[i].labels);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_no_verdict_without_figures),
		cmocka_unit_test(test_baselines),
		cmocka_unit_test(test_config_baselines),
		cmocka_unit_test(test_host_cpu_is_weak),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
