/*
 * test_sim_model: the sim ioengine's model (engines/sim/sim_model.c) without fio and without clocks: option
 * parsing, distributions, RAID operation counts, and a closed-loop driver that submits a new IO whenever one
 * completes (what fio does at a fixed iodepth), so throughput figures are exact, not timing-noisy.
 * The model is compiled into this test directly (it is not part of a bench library).
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
#include <unistd.h>

#include "engines/sim/sim_model.c"

static struct sim_model *model(const char *const *kv)
{
	struct sim_config c;
	char err[512];
	struct sim_model *m;

	sim_config_defaults(&c);
	for (; kv && kv[0]; kv += 2)
		if (sim_config_set(&c, kv[0], kv[1], err, sizeof(err)) < 0)
			fail_msg("%s=%s: %s", kv[0], kv[1], err);
	m = sim_model_new(&c, 0, err, sizeof(err));
	if (!m)
		fail_msg("model: %s", err);
	return m;
}

enum pattern { SEQ, RAND };

/* Closed loop at `iodepth`: returns IOs per second over n IOs after a warm-up of n/10. */
static double closed_loop(struct sim_model *m, unsigned iodepth, enum sim_op op, uint64_t bs, enum pattern p,
			  unsigned n)
{
	double *done = calloc(iodepth, sizeof(double)), t0 = 0, t = 0;
	uint64_t next = 0, span = 1ULL << 34, rnd = 12345;
	unsigned warm = n / 10;

	for (unsigned i = 0; i < iodepth + warm + n; i++) {
		unsigned slot = 0;
		uint64_t off;

		if (i >= iodepth) { /* the earliest completion frees its slot; resubmit at that time */
			for (unsigned j = 1; j < iodepth; j++)
				if (done[j] < done[slot])
					slot = j;
			t = done[slot];
			if (i == iodepth + warm)
				t0 = t;
		} else
			slot = i;
		if (p == SEQ) {
			off = next;
			next += bs;
		} else {
			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			off = ((rnd >> 20) % (span / bs)) * bs;
		}
		done[slot] = sim_model_submit(m, t, op, off, bs);
	}
	free(done);
	return (double)(n - 1) / ((t - t0) / 1e9);
}

/* closed_loop on a fresh model of `kv`, freed afterwards. */
static double model_loop(const char *const *kv, unsigned iodepth, enum sim_op op, uint64_t bs, enum pattern p,
			 unsigned n)
{
	struct sim_model *m = model(kv);
	double iops = closed_loop(m, iodepth, op, bs, p, n);

	sim_model_free(m);
	return iops;
}

static void near(double got, double want, double tol, const char *what)
{
	if (fabs(got - want) > tol * want)
		fail_msg("%s: got %.4g, want %.4g +-%.1f%%", what, got, want, tol * 100);
}

static void test_parsers(void **state)
{
	static const struct { const char *in; double ns; } durs[] = {
		{ "100", 100e3 }, { "100us", 100e3 }, { "0.1ms", 100e3 }, { "100000ns", 100e3 }, { "1s", 1e9 },
		{ "2.5usec", 2.5e3 },
	};
	static const struct { const char *in; double v; } bytes[] = {
		{ "1000000000", 1e9 }, { "1e9", 1e9 }, { "1g", 1073741824.0 }, { "256k", 262144 },
		{ "1GiB/s", 1073741824.0 }, { "512KB", 524288 }, { "12.5e9/s", 12.5e9 },
	};
	static const char *bad[] = { "", "-1", "abc", "10 parsecs", "1x", NULL };
	double v;

	(void)state;
	for (size_t i = 0; i < sizeof(durs) / sizeof(durs[0]); i++) {
		assert_int_equal(sim_parse_duration_ns(durs[i].in, &v), 0);
		near(v, durs[i].ns, 1e-12, durs[i].in);
	}
	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		assert_int_equal(sim_parse_bytes(bytes[i].in, &v), 0);
		near(v, bytes[i].v, 1e-12, bytes[i].in);
	}
	for (size_t i = 0; bad[i]; i++) {
		assert_int_equal(sim_parse_duration_ns(bad[i], &v), -1);
		assert_int_equal(sim_parse_bytes(bad[i], &v), -1);
	}
}

static void test_config_errors(void **state)
{
	static const struct { const char *k, *v, *msg; } cases[] = {
		{ "raid", "raid7", "unknown layout 'raid7'" },
		{ "dist", "pareto", "unknown distribution 'pareto'" },
		{ "preset", "fc", "unknown preset 'fc'" },
		{ "lat", "fast", "'fast' is not a duration" },
		{ "units", "0", "not a whole number" },
		{ "bw", "1 GB/s", "not a bandwidth" },
		{ "frobs", "1", "unknown sim option 'sim_frobs'" },
	};
	struct sim_config c;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sim_config_defaults(&c);
		assert_int_equal(sim_config_set(&c, cases[i].k, cases[i].v, err, sizeof(err)), -1);
		if (!strstr(err, cases[i].msg))
			fail_msg("%s=%s: message '%s' lacks '%s'", cases[i].k, cases[i].v, err, cases[i].msg);
	}
	sim_config_defaults(&c);
	assert_int_equal(sim_config_set(&c, "raid", "raid5", err, sizeof(err)), 0);
	assert_int_equal(sim_config_check(&c, err, sizeof(err)), -1); /* one member */
	assert_non_null(strstr(err, "raid5 needs sim_members of 3 or more"));
	sim_config_defaults(&c);
	assert_int_equal(sim_config_set(&c, "dist", "empirical", err, sizeof(err)), 0);
	assert_int_equal(sim_config_check(&c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sim_hist"));
}

static void test_presets_override(void **state)
{
	struct sim_config c;
	char err[512];

	(void)state;
	for (int i = 0; sim_preset_names[i]; i++) {
		sim_config_defaults(&c);
		assert_int_equal(sim_config_set(&c, "preset", sim_preset_names[i], err, sizeof(err)), 0);
		assert_int_equal(c.dist, SIM_DIST_LOGNORMAL);
		assert_true(c.units > 1);
	}
	sim_config_defaults(&c);
	sim_config_set(&c, "preset", "iscsi-tcp", err, sizeof(err));
	assert_true(c.transport_ns > 0 && c.link_bw > 0);
	sim_config_set(&c, "transport_lat", "0", err, sizeof(err));
	assert_true(c.transport_ns == 0);
}

static void test_known_answers(void **state)
{
	static const char *fixed[] = { "lat", "100us", NULL };
	static const char *units8[] = { "lat", "100us", "units", "8", NULL };
	static const char *bw[] = { "lat", "10us", "units", "4", "bw", "1e9", NULL };
	static const char *transport[] = { "lat", "100us", "transport_lat", "20us", NULL };

	(void)state;
	near(model_loop(fixed, 1, SIM_READ, 4096, RAND, 20000), 10000, 1e-3, "fixed 100us qd1");
	near(model_loop(units8, 32, SIM_READ, 4096, RAND, 50000), 80000, 1e-3, "8 units qd32");
	near(model_loop(units8, 4, SIM_READ, 4096, RAND, 50000), 40000, 1e-3, "8 units qd4");
	near(model_loop(bw, 4, SIM_WRITE, 262144, SEQ, 20000) * 262144, 1e9, 1e-3, "1 GB/s cap");
	near(model_loop(transport, 1, SIM_READ, 4096, RAND, 20000), 1e9 / 120e3, 1e-3, "transport adds");
}

static void test_raid_ops(void **state)
{
	static const struct {
		const char *raid, *members;
		enum sim_op op;
		uint64_t off, len;
		unsigned rmw_reads, others;
	} cases[] = {
		{ "raid0", "8", SIM_WRITE, 4096, 4096, 0, 1 },
		{ "raid0", "8", SIM_WRITE, 0, 1 << 20, 0, 2 },          /* two 512k chunks */
		{ "raid1", "3", SIM_WRITE, 0, 4096, 0, 3 },
		{ "raid1", "3", SIM_READ, 0, 4096, 0, 1 },
		{ "raid10", "8", SIM_WRITE, 4096, 4096, 0, 2 },
		{ "raid10", "8", SIM_READ, 4096, 4096, 0, 1 },
		{ "raid5", "8", SIM_WRITE, 8192, 4096, 2, 2 },          /* read-modify-write */
		{ "raid6", "8", SIM_WRITE, 8192, 4096, 3, 3 },
		{ "raid5", "8", SIM_WRITE, 0, 7 * 524288, 0, 8 },       /* full stripe: 7 data + parity */
		{ "raid6", "8", SIM_WRITE, 0, 6 * 524288, 0, 8 },
		{ "raid5", "3", SIM_WRITE, 8192, 4096, 1, 2 },          /* reconstruct-write is cheaper */
		{ "raid5", "8", SIM_WRITE, 524288, 5 * 524288, 2, 6 },  /* 5 of 7 chunks: rcw reads 2 */
		{ "raid5", "8", SIM_READ, 8192, 4096, 0, 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *kv[] = { "raid", cases[i].raid, "members", cases[i].members, NULL };
		struct sim_model *m = model(kv);
		unsigned r, o;

		sim_model_submit(m, 0, cases[i].op, cases[i].off, cases[i].len);
		sim_model_last_ops(m, &r, &o);
		if (r != cases[i].rmw_reads || o != cases[i].others)
			fail_msg("case %zu (%s over %s): %u reads + %u ops, want %u + %u", i, cases[i].raid,
				 cases[i].members, r, o, cases[i].rmw_reads, cases[i].others);
		sim_model_free(m);
	}
}

static void test_raid_throughput(void **state)
{
	static const char *r0[] = { "lat", "500us", "raid", "raid0", "members", "8", NULL };
	static const char *r5[] = { "lat", "500us", "raid", "raid5", "members", "8", NULL };
	double a, b;

	(void)state;
	a = model_loop(r0, 64, SIM_WRITE, 4096, RAND, 40000);
	b = model_loop(r5, 64, SIM_WRITE, 4096, RAND, 40000);
	print_message("raid5/raid0 4k random writes: %.0f / %.0f = %.3f\n", b, a, b / a);
	near(b / a, 0.25, 0.05, "raid5/raid0 random 4k write ratio");

	a = model_loop(r0, 16, SIM_WRITE, 1 << 20, SEQ, 20000);
	b = model_loop(r5, 16, SIM_WRITE, 1 << 20, SEQ, 20000);
	print_message("raid5/raid0 1 MiB sequential writes: %.0f / %.0f = %.3f\n", b, a, b / a);
	near(b / a, 7.0 / 8.0, 0.02, "raid5/raid0 full-stripe ratio");

	{ /* mirrors: reads spread over both copies, writes cost every copy */
		static const char *r1[] = { "lat", "100us", "raid", "raid1", "members", "2", NULL };
		static const char *r10[] = { "lat", "100us", "raid", "raid10", "members", "8", NULL };
		static const char *cap[] = { "lat", "10us", "units", "8", "iops", "5000", "link_iops", "3000", NULL };

		near(model_loop(r1, 16, SIM_READ, 4096, RAND, 20000), 20000, 0.01, "raid1 over 2: reads");
		near(model_loop(r1, 16, SIM_WRITE, 4096, RAND, 20000), 10000, 0.01, "raid1 over 2: writes");
		near(model_loop(r10, 128, SIM_READ, 4096, RAND, 20000), 80000, 0.08, "raid10 over 8: random reads");
		near(model_loop(r10, 128, SIM_WRITE, 4096, RAND, 20000), 40000, 0.08, "raid10 over 8: random writes");
		/* the lower of the device and the link IOPS caps wins */
		near(model_loop(cap, 16, SIM_READ, 4096, RAND, 20000), 3000, 0.01, "link IOPS cap");
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void test_lognormal(void **state)
{
	static const char *kv[] = { "dist", "lognormal", "lat", "1ms", "cv", "0.3", NULL };
	struct sim_model *m = model(kv);
	enum { N = 200000 };
	double *v = malloc(N * sizeof(double)), sum = 0, sd, s2 = log(1.09), p99;

	(void)state;
	for (int i = 0; i < N; i++)
		sum += v[i] = sim_model_draw(m);
	qsort(v, N, sizeof(double), cmp_double);
	near(sum / N, 1e6, 0.01, "lognormal mean");
	sd = 0;
	for (int i = 0; i < N; i++)
		sd += (v[i] - sum / N) * (v[i] - sum / N);
	near(sqrt(sd / N) / (sum / N), 0.3, 0.03, "lognormal cv");
	p99 = exp(log(1e6) - s2 / 2 + 2.3263 * sqrt(s2));
	near(v[(int)(0.99 * N)], p99, 0.02, "lognormal p99");
	free(v);
	sim_model_free(m);
}

static void test_empirical_and_seed(void **state)
{
	char path[] = "/tmp/test_sim_hist.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	const char *kv[] = { "hist", path, NULL };
	const char *kv2[] = { "hist", path, "seed", "7", NULL };
	struct sim_model *m, *m2;
	double lo = 1e18, hi = 0, sum = 0, a[16], b[16];
	int same = 1;

	(void)state;
	/* Two fio buckets: 100 at 99840 (bucket [99328, 100352)) and 300 exactly at 100. */
	fprintf(f, "# bench histogram\n# value_ns count\n100 300\n99840 100\n");
	fclose(f);
	m = model(kv);
	for (int i = 0; i < 40000; i++) {
		double d = sim_model_draw(m);

		sum += d;
		if (d > 1000 && d < lo)
			lo = d;
		if (d > hi)
			hi = d;
		assert_true(d == 100 || (d >= 99328 && d < 100352));
	}
	near(sum / 40000, 0.75 * 100 + 0.25 * 99840, 0.03, "empirical mean");
	assert_true(lo < 99500 && hi > 100200);
	sim_model_free(m);

	m = model(kv);
	m2 = model(kv2);
	for (int i = 0; i < 16; i++) {
		a[i] = sim_model_draw(m);
		b[i] = sim_model_draw(m2);
		same &= a[i] == b[i];
	}
	assert_false(same);
	sim_model_free(m);
	m = model(kv);
	for (int i = 0; i < 16; i++)
		assert_true(sim_model_draw(m) == a[i]);
	sim_model_free(m);
	sim_model_free(m2);

	f = fopen(path, "w");
	fprintf(f, "99840 100\n100 3\n");
	fclose(f);
	{
		struct sim_config c;
		char err[512];

		sim_config_defaults(&c);
		sim_config_set(&c, "hist", path, err, sizeof(err));
		assert_null(sim_model_new(&c, 0, err, sizeof(err)));
		assert_non_null(strstr(err, ":2: latencies must ascend"));
	}
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parsers),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_presets_override),
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_raid_ops),
		cmocka_unit_test(test_raid_throughput),
		cmocka_unit_test(test_lognormal),
		cmocka_unit_test(test_empirical_and_seed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
