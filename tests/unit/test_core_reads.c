/*
 * test_core_reads: the reads `bench db show` and `bench export` make through the one reader (core/store_read.c,
 * core/store_admin.c) on a real SQLite file written with the store API: one suite by id, every percentile of a
 * result, one artifact by name, the latency extremes of a result, results with the aggregate host last,
 * samples without histogram rows by host, metric and time, and the per-host-and-metric summary (count, time
 * span, min, max, mean) computed from the samples written. Also the parsers of units.c (sizes and durations
 * with their unit tables) and the member-freeing helpers of strbuf.h.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/store.h"
#include "core/store_admin.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "core/units.h"

static char dbpath[64];
static struct store *st;
static int64_t suite_id, run_id;

/* The samples written: host, metric, t_ms, value; is_bin 1 rows are histogram buckets. */
static const struct {
	const char *host, *metric;
	int64_t t_ms;
	double value;
	int is_bin;
} samples[] = {
	{ "h2", "iops.read", 2000, 30, 0 }, { "h1", "iops.read", 1000, 10, 0 }, { "h1", "iops.read", 2000, 50, 0 },
	{ "h1", "lat_ns.read", 1000, 7, 1 }, { "*", "iops.read", 1000, 40, 0 }, { "h1", "iops.read", 3000, 20, 0 },
};

/* The database file and its WAL companions. */
static void remove_db(void)
{
	static const char *const suffix[] = { "", "-wal", "-shm" };
	char buf[96];

	for (size_t i = 0; i < 3; i++) {
		snprintf(buf, sizeof(buf), "%s%s", dbpath, suffix[i]);
		unlink(buf);
	}
}

static void add_dir(struct host_result *h, enum ddir d, uint64_t ios, int with_lat)
{
	struct dir_result *x = &h->dir[d];

	x->present = 1;
	x->ios = ios;
	x->bytes = ios * 4096;
	x->runtime_ms = 1000;
	x->iops = (double)ios;
	x->bw_bytes = (double)ios * 4096;
	x->clat = (struct lat_summary){ 1, ios, 1000, 9000, 2500.5, 300.25 };
	if (with_lat)
		x->lat = (struct lat_summary){ 1, ios, 1100, 9100, 2600.5, 310.25 };
	snprintf(x->pct_kind, sizeof(x->pct_kind), "clat");
	x->pct = xcalloc(3, sizeof(*x->pct));
	x->pct[0] = (struct percentile){ 50.0, 2000 };
	x->pct[1] = (struct percentile){ 99.0, 8000 };
	x->pct[2] = (struct percentile){ 99.9, 8900 };
	x->npct = 3;
	x->bins = xcalloc(2, sizeof(*x->bins));
	x->bins[0] = (struct hist_bin){ 2000, ios - 1 };
	x->bins[1] = (struct hist_bin){ 9000, 1 };
	x->nbins = 2;
}

static int setup(void **state)
{
	struct run_spec spec;
	struct run_result res;
	struct kvlist labels;
	struct errbuf err;

	(void)state;
	snprintf(dbpath, sizeof(dbpath), "/tmp/test_core_reads-%ld.db", (long)getpid());
	remove_db();
	errbuf_init(&err);
	assert_int_equal(store_open(dbpath, 0, &st, &err), 0);
	kvlist_init(&labels);
	kvlist_add(&labels, "site", "lab2");
	assert_int_equal(store_suite_add(st, "suite-a", "import", "a.json", 1, &labels, &suite_id, &err), 0);
	kvlist_release(&labels);
	run_spec_init(&spec);
	spec.name = xstrdup("r1");
	spec.seq = 1;
	spec.engine = xstrdup("import");
	spec.wl.tool = xstrdup("fio");
	spec.wl.rw = xstrdup("randread");
	assert_int_equal(store_run_add(st, suite_id, &spec, RUN_DONE, &run_id, &err), 0);
	run_result_init(&res);
	add_dir(run_result_add_host(&res, HOST_AGGREGATE), DDIR_READ, 200, 1);
	add_dir(run_result_add_host(&res, "h1"), DDIR_READ, 100, 0);
	add_dir(run_result_add_host(&res, "h2"), DDIR_READ, 100, 0);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		run_result_add_sample(&res, samples[i].host, samples[i].metric, samples[i].t_ms, samples[i].value);
		if (samples[i].is_bin) {
			res.samples[res.nsamples - 1].is_bin = 1;
			res.samples[res.nsamples - 1].bucket_lo_ns = 1000;
			res.samples[res.nsamples - 1].bucket_hi_ns = 2000;
		}
	}
	run_result_add_artifact(&res, "jobfile", "[j]\nrw=randread\n", 16);
	run_result_add_artifact(&res, "fio-output.json", "{\"x\":1}", 7);
	assert_int_equal(store_run_write_result(st, run_id, &res, &err), 0);
	run_result_release(&res);
	run_spec_release(&spec);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	store_close(st);
	remove_db();
	return 0;
}

static void test_suite_by_id(void **state)
{
	struct store_suite s;
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_read_suite(st, suite_id, &s, &err), 0);
	assert_int_equal(s.id, suite_id);
	assert_string_equal(s.name, "suite-a");
	assert_string_equal(s.source, "import");
	assert_string_equal(s.args, "a.json");
	assert_int_equal(s.planned_runs, 1);
	assert_string_equal(kvlist_get(&s.labels, "site", ""), "lab2");
	store_suite_release(&s);
	assert_int_equal(store_read_suite(st, suite_id + 99, &s, &err), 1);
}

static void test_results_extremes_and_percentiles(void **state)
{
	struct store_result *r;
	struct percentile *p;
	struct errbuf err;
	size_t n, np;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_read_results(st, run_id, HOST_AGGREGATE, &r, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_true(r[0].lat_min_ns == 1100 && r[0].lat_max_ns == 9100 && r[0].lat_stddev_ns == 310.25);
	assert_true(r[0].clat_min_ns == 1000 && r[0].clat_max_ns == 9000);
	assert_int_equal(store_read_percentiles(st, r[0].id, &p, &np, &err), 0);
	assert_int_equal(np, 3);
	assert_true(p[0].pct == 50.0 && p[1].pct == 99.0 && p[2].pct == 99.9);
	assert_int_equal(p[2].value_ns, 8900);
	free(p);
	store_results_free(r, n);
	/* a host without total latency: NAN, never another figure */
	assert_int_equal(store_read_results(st, run_id, "h1", &r, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_true(isnan(r[0].lat_min_ns) && isnan(r[0].lat_stddev_ns));
	assert_true(r[0].clat_max_ns == 9000);
	store_results_free(r, n);
}

static void test_admin_results_order(void **state)
{
	struct admin_result_list l;
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	memset(&l, 0, sizeof(l));
	assert_int_equal(store_admin_results(st, run_id, &l, &err), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.v[0].host, "h1");
	assert_string_equal(l.v[1].host, "h2");
	assert_string_equal(l.v[2].host, "*");
	assert_string_equal(l.v[2].ddir, "read");
	assert_int_equal(l.v[2].ios, 200);
	assert_int_equal(l.v[2].npcts, 3);
	assert_int_equal(l.v[2].pcts[1].value_ns, 8000);
	assert_int_equal(l.v[2].nbins, 2);
	assert_true(l.v[2].lat_max_ns == 9100 && isnan(l.v[0].lat_mean_ns) && l.v[0].clat_mean_ns == 2500.5);
	admin_result_list_release(&l);
}

static void test_admin_samples(void **state)
{
	struct admin_sample_list l;
	struct admin_sample_summary_list s;
	struct errbuf err;
	const char *want_host[] = { "*", "h1", "h1", "h1", "h2" };
	const int64_t want_t[] = { 1000, 1000, 2000, 3000, 2000 };

	(void)state;
	errbuf_init(&err);
	admin_sample_list_init(&l);
	assert_int_equal(store_admin_samples(st, run_id, &l, &err), 0);
	assert_int_equal(l.n, 5); /* the histogram row is left out */
	for (size_t i = 0; i < l.n; i++) {
		assert_string_equal(l.v[i].host, want_host[i]);
		assert_string_equal(l.v[i].metric, "iops.read");
		assert_int_equal(l.v[i].t_ms, want_t[i]);
	}
	admin_sample_list_release(&l);
	memset(&s, 0, sizeof(s));
	assert_int_equal(store_admin_sample_summary(st, run_id, &s, &err), 0);
	assert_int_equal(s.n, 4); /* *:iops, h1:iops, h1:lat (the bucket row), h2:iops */
	assert_string_equal(s.v[1].host, "h1");
	assert_string_equal(s.v[1].metric, "iops.read");
	assert_int_equal(s.v[1].n, 3);
	assert_int_equal(s.v[1].t_first_ms, 1000);
	assert_int_equal(s.v[1].t_last_ms, 3000);
	assert_true(s.v[1].min == 10 && s.v[1].max == 50 && fabs(s.v[1].mean - 80.0 / 3) < 1e-9);
	assert_string_equal(s.v[2].metric, "lat_ns.read");
	assert_int_equal(s.v[2].n, 1);
	assert_string_equal(s.v[3].host, "h2");
	admin_sample_summary_list_release(&s);
}

static void test_artifacts(void **state)
{
	struct store_artifact a;
	struct kvlist sizes;
	struct strbuf sb;
	struct errbuf err;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_read_artifact(st, run_id, "jobfile", &a, &err), 0);
	assert_int_equal(a.len, 16);
	assert_memory_equal(a.content, "[j]\nrw=randread\n", 16);
	store_artifact_release(&a);
	assert_int_equal(store_read_artifact(st, run_id, "nope", &a, &err), 1);
	kvlist_init(&sizes);
	assert_int_equal(store_admin_artifacts(st, run_id, &sizes, &err), 0);
	assert_int_equal(sizes.n, 2);
	assert_string_equal(kvlist_get(&sizes, "fio-output.json", ""), "7");
	assert_string_equal(kvlist_get(&sizes, "jobfile", ""), "16");
	kvlist_release(&sizes);
	strbuf_init(&sb);
	assert_int_equal(store_admin_artifact(st, run_id, "fio-output.json", &sb, &err), 0);
	assert_string_equal(sb.buf, "{\"x\":1}");
	assert_int_equal(store_admin_artifact(st, run_id, "nope", &sb, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	strbuf_release(&sb);
}

static void test_units(void **state)
{
	static const struct {
		const char *in;
		uint64_t bytes;
	} sizes[] = { { "4k", 4096 }, { "4KiB", 4096 }, { "4kb", 4096 }, { "1.5g", 1610612736 }, { "512", 512 },
		      { "512b", 512 }, { "2M", 2097152 }, { "1t", 1099511627776ULL } };
	static const char *const bad_sizes[] = { "", " 4k", "-1", "4q", "4kk", "4bib", "k", "4 k", "1e30" };
	static const struct {
		const char *in;
		double s;
	} durs[] = { { "90", 90 }, { "2m", 120 }, { "1h", 3600 }, { "500ms", 0.5 }, { "3SEC", 3 }, { "1d", 86400 },
		     { "250us", 250e-6 } };
	static const char *const bad_durs[] = { "", "-1", "5x", "m", "1 s" };
	uint64_t b;
	double d;

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		assert_int_equal(parse_size(sizes[i].in, &b), 0);
		assert_true(b == sizes[i].bytes);
	}
	for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++)
		assert_int_equal(parse_size(bad_sizes[i], &b), -1);
	for (size_t i = 0; i < sizeof(durs) / sizeof(durs[0]); i++) {
		assert_int_equal(parse_duration_s(durs[i].in, &d), 0);
		assert_true(fabs(d - durs[i].s) < 1e-12);
	}
	for (size_t i = 0; i < sizeof(bad_durs) / sizeof(bad_durs[0]); i++)
		assert_int_equal(parse_duration_s(bad_durs[i], &d), -1);
	assert_int_equal(parse_double("1.5", &d), 0);
	assert_int_equal(parse_double("1.5x", &d), -1);
	assert_int_equal(parse_double("-2", &d), 0);
	assert_true(d == -2);
	{ /* network rates as tc writes and prints them: the one parser of the lab's --link and the record's tc */
		static const struct {
			const char *in;
			double bps;
			const char *rest;
		} rates[] = { { "1gbit", 1e9, "" }, { "1Gbit", 1e9, "" }, { "500Mbit", 5e8, "" }, { "8bit", 8, "" },
			      { "2.5gbit", 2.5e9, "" }, { "100Kbit burst", 1e5, " burst" }, { "10TBIT", 1e13, "" } };
		static const char *const bad_rates[] = { "", "gbit", "-1gbit", "1", "1gb", " 1gbit", "0mbit" };
		const char *end;

		for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
			assert_int_equal(parse_bit_rate(rates[i].in, &d, &end), 0);
			assert_true(d == rates[i].bps);
			assert_string_equal(end, rates[i].rest);
		}
		for (size_t i = 0; i < sizeof(bad_rates) / sizeof(bad_rates[0]); i++)
			assert_int_equal(parse_bit_rate(bad_rates[i], &d, NULL), -1);
	}
}

struct pair {
	char *a, *b;
};

static void pair_release(struct pair *p)
{
	free(p->a);
	p->a = NULL;
}

static void test_member_helpers(void **state)
{
	static const size_t offs[] = { offsetof(struct pair, a), offsetof(struct pair, b) };
	struct pair *v = xcalloc(3, sizeof(*v));
	size_t n = 3;

	(void)state;
	for (size_t i = 0; i < n; i++)
		v[i] = (struct pair){ xstrdup("x"), xstrdup("y") };
	free_members(&v[2], offs, 2);
	v[2] = (struct pair){ NULL, NULL };
	array_free_members(v, n, sizeof(*v), offs, 2);
	v = xcalloc(2, sizeof(*v));
	n = 2;
	v[0].a = xstrdup("p");
	v[1].a = xstrdup("q");
	ARRAY_RELEASE(v, n, pair_release);
	assert_null(v);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suite_by_id),
		cmocka_unit_test(test_results_extremes_and_percentiles),
		cmocka_unit_test(test_admin_results_order),
		cmocka_unit_test(test_admin_samples),
		cmocka_unit_test(test_artifacts),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_member_helpers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
