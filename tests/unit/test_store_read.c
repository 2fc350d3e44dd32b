/*
 * test_store_read: the store's reader (core/store_read.c) on real SQLite files written with the store API:
 * labels (a run's label overrides its suite's), percentiles with and without a stored value (the bins
 * fallback and the tolerance), the one CPU preference rule with several sources, hosts, disks, samples,
 * artifacts and the stored spec; the scans (store_scan_*) against the per-run reads.
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

#include "core/aggregate.h"
#include "core/store.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "testutil.h"

static char dbpath[64];

static struct dir_result *dir(struct host_result *h, enum ddir d, double iops)
{
	h->dir[d].present = 1;
	h->dir[d].ios = (uint64_t)(iops * 10);
	h->dir[d].runtime_ms = 10000;
	h->dir[d].iops = iops;
	h->dir[d].bw_bytes = iops * 4096;
	h->dir[d].clat.present = 1;
	h->dir[d].clat.mean_ns = 1e9 / iops;
	snprintf(h->dir[d].pct_kind, sizeof(h->dir[d].pct_kind), "clat");
	return &h->dir[d];
}

/* The cluster row (host '*') of RES with 1000 read IOPS. */
static struct host_result *cluster_reads(struct run_result *res)
{
	struct host_result *h = run_result_add_host(res, "*");

	dir(h, DDIR_READ, 1000);
	return h;
}

/* fio's own CPU figures of H: USR % user, SYS % system. */
static void fio_cpu(struct host_result *h, double usr, double sys)
{
	h->usr_cpu_pct = usr;
	h->sys_cpu_pct = sys;
}

static void set_bins(struct dir_result *d, const struct hist_bin *b, size_t n)
{
	d->bins = xcalloc(n, sizeof(*b));
	memcpy(d->bins, b, n * sizeof(*b));
	d->nbins = n;
}

static struct cpu_result *cpu(struct run_result *res, const char *host, enum host_role role, const char *source,
			      double util, double us_per_io)
{
	struct cpu_result *c = run_result_add_cpu(res, host, role, source);

	c->util_pct = util;
	c->cpu_us_per_io = us_per_io;
	return c;
}

/* Writes one run of suite `suite` with these labels and result; returns its id. */
static int64_t add_run(struct store *st, int64_t suite, unsigned seq, const char *name, const char *lk,
		       const char *lv, struct run_result *res)
{
	struct run_spec spec;
	struct errbuf err;
	int64_t id;

	errbuf_init(&err);
	tu_spec(&spec, name, seq, 1, "fio", "randread", 100, 32, 0);
	if (lk)
		kvlist_add(&spec.labels, lk, lv);
	assert_int_equal(store_run_add(st, suite, &spec, RUN_DONE, &id, &err), 0);
	assert_int_equal(store_run_write_result(st, id, res, &err), 0);
	run_spec_release(&spec);
	run_result_release(res);
	run_result_init(res);
	return id;
}

static int64_t run_pct, run_bins, run_none, run_cpu_all, run_cpu_import, run_cpu_host, run_cpu_hosts, run_cpu_fio,
	run_cpu_noutil;

static const struct hist_bin bins[] = { { 100000, 90 }, { 200000, 9 }, { 5000000, 1 } };

static int setup(void **state)
{
	struct store *st;
	struct errbuf err;
	struct kvlist labels;
	struct run_result res;
	struct host_result *h;
	struct dir_result *d;
	int64_t suite;

	*state = dbpath;
	st = tu_store_fresh(dbpath, sizeof(dbpath), "store_read");
	errbuf_init(&err);
	kvlist_init(&labels);
	kvlist_add(&labels, "env", "lab");
	kvlist_add(&labels, "kernel", "6.8");
	assert_int_equal(store_suite_add(st, "s1", "run", NULL, 9, &labels, &suite, &err), 0);
	kvlist_release(&labels);
	run_result_init(&res);

	/* percentiles: stored 99.0 (and 99.99), bins only, neither */
	h = run_result_add_host(&res, "*");
	d = dir(h, DDIR_READ, 1000);
	d->pct = xcalloc(2, sizeof(*d->pct));
	d->pct[0] = (struct percentile){ 99.0, 777000 };
	d->pct[1] = (struct percentile){ 99.99, 888000 };
	d->npct = 2;
	set_bins(d, bins, 3);
	run_pct = add_run(st, suite, 1, "pct", "env", "prod", &res); /* overrides the suite's env=lab */
	h = run_result_add_host(&res, "*");
	set_bins(dir(h, DDIR_READ, 1000), bins, 3);
	run_bins = add_run(st, suite, 2, "bins", NULL, NULL, &res);
	h = cluster_reads(&res);
	run_none = add_run(st, suite, 3, "none", NULL, NULL, &res);

	/* CPU: every source on the cluster row; the rule picks procstat */
	fio_cpu(cluster_reads(&res), 70, 20);
	cpu(&res, "*", ROLE_INITIATOR, "fio", 90, 90);
	cpu(&res, "*", ROLE_INITIATOR, "import", 50, 50);
	cpu(&res, "*", ROLE_INITIATOR, "node_exporter", 45, 45);
	cpu(&res, "*", ROLE_INITIATOR, "procstat", 40, 12.5);
	cpu(&res, "*", ROLE_TARGET, "node_exporter", 33, 3);
	cpu(&res, "tgt1", ROLE_TARGET, "procstat", 66, 6); /* a host row never beats the cluster row */
	run_cpu_all = add_run(st, suite, 4, "cpu-all", NULL, NULL, &res);
	/* import before fio */
	h = cluster_reads(&res);
	cpu(&res, "*", ROLE_INITIATOR, "fio", 90, 90);
	cpu(&res, "*", ROLE_INITIATOR, "import", 50, NAN);
	run_cpu_import = add_run(st, suite, 5, "cpu-import", NULL, NULL, &res);
	/* no cluster row, one host: that host's rows */
	h = cluster_reads(&res);
	cpu(&res, "ini1", ROLE_INITIATOR, "node_exporter", 21, 2.1);
	cpu(&res, "ini1", ROLE_INITIATOR, "fio", 80, 8);
	run_cpu_host = add_run(st, suite, 6, "cpu-host", NULL, NULL, &res);
	/* no cluster row, two hosts: no row stands for the role; fio's own CPU of run_host '*' */
	fio_cpu(cluster_reads(&res), 5, 6);
	cpu(&res, "ini1", ROLE_INITIATOR, "procstat", 21, 2.1);
	cpu(&res, "ini2", ROLE_INITIATOR, "procstat", 23, 2.3);
	run_cpu_hosts = add_run(st, suite, 7, "cpu-hosts", NULL, NULL, &res);
	/* no cpu rows: fio's own usr + sys */
	fio_cpu(cluster_reads(&res), 3, 4);
	run_cpu_fio = add_run(st, suite, 8, "cpu-fio", NULL, NULL, &res);
	/* a procstat row without a utilisation is skipped; user + system counts as one */
	h = cluster_reads(&res);
	cpu(&res, "*", ROLE_INITIATOR, "procstat", NAN, 1.0);
	{
		struct cpu_result *c = cpu(&res, "*", ROLE_INITIATOR, "node_exporter", NAN, 4.0);
		c->user_pct = 10;
		c->system_pct = 5;
	}
	cpu(&res, "*", ROLE_INITIATOR, "import", 60, 6.0);
	ARRAY_GROW(res.disks, res.disks_cap, res.ndisks + 1);
	res.disks[res.ndisks++] = (struct disk_result){ xstrdup("tgt1"), xstrdup("nvme0n1"), 10, 20, 80, 160, 5 };
	run_result_add_sample(&res, "*", "iops.read", 2000, 990);
	run_result_add_sample(&res, "*", "iops.read", 1000, 1010);
	run_result_add_artifact(&res, "jobfile", "[job]\nrw=read\n", 15);
	run_cpu_noutil = add_run(st, suite, 9, "cpu-noutil", NULL, NULL, &res);
	run_result_release(&res);
	store_close(st);
	return 0;
}

static struct store *open_ro(void)
{
	struct store *st;
	struct errbuf err;

	errbuf_init(&err);
	assert_int_equal(store_open(dbpath, STORE_READONLY | STORE_MUST_EXIST, &st, &err), 0);
	return st;
}

static const struct store_run *find_run(const struct store_run_list *l, int64_t id)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].id == id)
			return &l->v[i];
	fail_msg("run %lld not read", (long long)id);
	return NULL;
}

static void test_runs_and_labels(void **state)
{
	struct store *st = open_ro();
	struct store_run_list l;
	struct store_suite *suites;
	struct store_run one;
	struct errbuf err;
	size_t ns;
	char *json;
	const struct store_run *r;

	(void)state;
	errbuf_init(&err);
	store_run_list_init(&l);
	assert_int_equal(store_read_runs(st, &l, &err), 0);
	assert_int_equal(l.n, 9);
	r = find_run(&l, run_pct);
	assert_string_equal(r->name, "pct");
	assert_string_equal(r->suite, "s1");
	assert_string_equal(kvlist_get(&r->labels, "env", ""), "prod");   /* the run's own wins */
	assert_string_equal(kvlist_get(&r->labels, "kernel", ""), "6.8"); /* the suite's it lacks */
	assert_int_equal(r->labels.n, 2);
	r = find_run(&l, run_bins);
	assert_string_equal(kvlist_get(&r->labels, "env", ""), "lab");
	assert_int_equal(r->bs_bytes, 4096);
	assert_int_equal(r->iodepth, 32);
	assert_non_null(r->spec);
	store_run_list_release(&l);

	assert_int_equal(store_read_run(st, run_bins, &one, &err), 0);
	assert_string_equal(one.name, "bins");
	store_run_release(&one);
	assert_int_equal(store_read_run(st, 9999, &one, &err), 1);
	assert_int_equal(store_read_spec(st, run_bins, &json, &err), 0);
	assert_non_null(strstr(json, "randread"));
	free(json);
	assert_int_equal(store_read_spec(st, 9999, &json, &err), 1);

	assert_int_equal(store_read_suites(st, &suites, &ns, &err), 0);
	assert_int_equal(ns, 1);
	assert_int_equal(suites[0].planned_runs, 9);
	assert_string_equal(kvlist_get(&suites[0].labels, "env", ""), "lab");
	store_suites_free(suites, ns);
	store_close(st);
}

static double pct_of(struct store *st, int64_t run, double pct)
{
	struct store_result *res;
	struct errbuf err;
	size_t n;
	double v;

	errbuf_init(&err);
	assert_int_equal(store_read_results(st, run, HOST_AGGREGATE, &res, &n, &err), 0);
	assert_true(n >= 1);
	assert_int_equal(res[0].ddir, DDIR_READ);
	assert_int_equal(store_read_percentile(st, res[0].id, pct, &v, &err), 0);
	store_results_free(res, n);
	return v;
}

static void test_percentiles(void **state)
{
	struct store *st = open_ro();
	uint64_t from_bins99 = hist_percentile(bins, 3, 99.0), from_bins999 = hist_percentile(bins, 3, 99.9);

	(void)state;
	assert_true(from_bins99 == 200000 && from_bins999 == 5000000);
	/* stored: the stored value, also within the tolerance; not confused with the neighbour 99.99 */
	assert_true(pct_of(st, run_pct, 99.0) == 777000);
	assert_true(pct_of(st, run_pct, 99.0 + STORE_PCT_TOLERANCE / 2) == 777000);
	assert_true(pct_of(st, run_pct, 99.99) == 888000);
	/* not stored at that point: from the bins, never a neighbouring stored point */
	assert_true(pct_of(st, run_pct, 99.9) == (double)from_bins999);
	assert_true(pct_of(st, run_pct, 99.0 + 10 * STORE_PCT_TOLERANCE) == (double)hist_percentile(bins, 3, 99.001));
	/* no stored percentiles: the bins */
	assert_true(pct_of(st, run_bins, 99.0) == (double)from_bins99);
	/* neither: unknown */
	assert_true(isnan(pct_of(st, run_none, 99.0)));
	store_close(st);
}

static void pick(struct store *st, int64_t run, const char *role, struct store_cpu_pick *p, struct store_cpu **rows,
		 size_t *nrows, struct store_host **hosts, size_t *nhosts)
{
	struct errbuf err;

	errbuf_init(&err);
	assert_int_equal(store_read_cpu(st, run, rows, nrows, &err), 0);
	assert_int_equal(store_read_hosts(st, run, hosts, nhosts, &err), 0);
	store_cpu_pick(*rows, *nrows, *hosts, *nhosts, role, p);
}

static void test_cpu_rule(void **state)
{
	static const struct {
		int64_t *run;
		const char *role, *source;
		double util, us_per_io; /* NAN: unknown */
		int from_fio_job;
	} cases[] = {
		{ &run_cpu_all, "initiator", "procstat", 40, 12.5, 0 },
		{ &run_cpu_all, "target", "node_exporter", 33, 3, 0 },
		{ &run_cpu_import, "initiator", "import", 50, NAN, 0 }, /* the row's figure, not fio's 90 */
		{ &run_cpu_host, "initiator", "node_exporter", 21, 2.1, 0 },
		{ &run_cpu_hosts, "initiator", "fio", 11, NAN, 1 },
		{ &run_cpu_fio, "initiator", "fio", 7, NAN, 1 },
		{ &run_cpu_fio, "target", NULL, NAN, NAN, 0 },
		{ &run_cpu_noutil, "initiator", "node_exporter", 15, 4.0, 0 },
	};
	struct store *st = open_ro();

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct store_cpu_pick p;
		struct store_cpu *rows;
		struct store_host *hosts;
		size_t nrows, nhosts;

		pick(st, *cases[i].run, cases[i].role, &p, &rows, &nrows, &hosts, &nhosts);
		if (!cases[i].source) {
			assert_null(p.source);
		} else {
			if (!p.source || strcmp(p.source, cases[i].source))
				fail_msg("case %zu: source %s, want %s", i, p.source ? p.source : "(none)",
					 cases[i].source);
		}
		assert_true(isnan(cases[i].util) ? isnan(p.util_pct) : fabs(p.util_pct - cases[i].util) < 1e-9);
		assert_true(isnan(cases[i].us_per_io) ? isnan(p.cpu_us_per_io) :
							fabs(p.cpu_us_per_io - cases[i].us_per_io) < 1e-9);
		assert_int_equal(p.from_fio_job, cases[i].from_fio_job);
		store_cpu_free(rows, nrows);
		store_hosts_free(hosts, nhosts);
	}
	/* rows come in preference order within a host, initiator first */
	{
		struct store_cpu *rows;
		size_t n;
		struct errbuf err;

		errbuf_init(&err);
		assert_int_equal(store_read_cpu(st, run_cpu_all, &rows, &n, &err), 0);
		assert_int_equal(n, 6);
		assert_string_equal(rows[0].source, "procstat");
		assert_string_equal(rows[1].source, "node_exporter");
		assert_string_equal(rows[2].source, "import");
		assert_string_equal(rows[3].source, "fio");
		assert_string_equal(rows[4].role, "target");
		assert_string_equal(rows[4].host, "*");
		store_cpu_free(rows, n);
	}
	assert_true(store_cpu_source_rank("procstat") < store_cpu_source_rank("node_exporter"));
	assert_true(store_cpu_source_rank("import") < store_cpu_source_rank("fio"));
	assert_true(store_cpu_source_rank("fio") < store_cpu_source_rank("other"));
	store_close(st);
}

static void test_disks_samples_artifacts(void **state)
{
	struct store *st = open_ro();
	struct store_disk *d;
	struct store_sample *s;
	struct store_artifact *a;
	struct store_result *res;
	struct errbuf err;
	size_t n;

	(void)state;
	errbuf_init(&err);
	assert_int_equal(store_read_disks(st, run_cpu_noutil, &d, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].device, "nvme0n1");
	assert_true(d[0].reads == 10 && d[0].writes == 20 && d[0].io_ticks_ms == 5);
	store_disks_free(d, n);
	assert_int_equal(store_read_samples(st, run_cpu_noutil, &s, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_true(s[0].t_ms == 1000 && s[0].value == 1010 && s[1].t_ms == 2000);
	store_samples_free(s, n);
	assert_int_equal(store_read_artifacts(st, run_cpu_noutil, &a, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(a[0].len, 15);
	assert_string_equal((const char *)a[0].content, "[job]\nrw=read\n");
	store_artifacts_free(a, n);
	/* every host, '*' first; unknown host: nothing */
	assert_int_equal(store_read_results(st, run_pct, NULL, &res, &n, &err), 0);
	assert_true(n >= 1);
	assert_string_equal(res[0].host, "*");
	assert_true(res[0].iops == 1000 && res[0].ios == 10000);
	assert_true(isnan(res[0].lat_mean_ns) && store_result_mean_lat_ns(&res[0]) == 1e6);
	store_results_free(res, n);
	assert_int_equal(store_read_results(st, run_pct, "nohost", &res, &n, &err), 0);
	assert_int_equal(n, 0);
	store_results_free(res, n);
	store_close(st);
}

/* A double read twice: the same value, or both unknown. */
static void assert_same_double(double a, double b)
{
	if (isnan(a) || isnan(b))
		assert_true(isnan(a) && isnan(b));
	else
		assert_true(a == b);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The scans hand out, run by run, what the per-run reads give (results: the headline fields and p99). */
static void test_scans_match_per_run_reads(void **state)
{
	struct store *st = open_ro();
	struct store_run_list runs;
	struct store_scan *sr, *sh, *sc;
	struct errbuf err;
	int64_t *ids;

	(void)state;
	errbuf_init(&err);
	store_run_list_init(&runs);
	assert_int_equal(store_read_runs(st, &runs, &err), 0);
	ids = xmalloc(runs.n * sizeof(*ids));
	for (size_t i = 0; i < runs.n; i++)
		ids[i] = runs.v[i].id;
	qsort(ids, runs.n, sizeof(*ids), cmp_i64);
	assert_int_equal(store_scan_results(st, 99.0, ids[1], &sr, &err), 0); /* from the second run on */
	assert_int_equal(store_scan_hosts(st, ids[1], &sh, &err), 0);
	assert_int_equal(store_scan_cpu(st, ids[1], &sc, &err), 0);
	for (size_t i = 1; i < runs.n; i++) {
		struct store_result *a, *b;
		struct store_host *ha, *hb;
		struct store_cpu *ca, *cb;
		size_t na, nb, nha, nhb, nca, ncb;
		double *p99;

		assert_int_equal(store_scan_next_results(sr, ids[i], &a, &p99, &na, &err), 0);
		assert_int_equal(store_read_results(st, ids[i], NULL, &b, &nb, &err), 0);
		assert_int_equal(na, nb);
		for (size_t k = 0; k < na; k++) {
			double want;

			assert_int_equal(a[k].id, b[k].id);
			assert_string_equal(a[k].host, b[k].host);
			assert_string_equal(a[k].job, b[k].job);
			assert_int_equal(a[k].ddir, b[k].ddir);
			assert_int_equal(a[k].ios, b[k].ios);
			assert_int_equal(a[k].runtime_ms, b[k].runtime_ms);
			assert_same_double(a[k].iops, b[k].iops);
			assert_same_double(a[k].bw_bytes, b[k].bw_bytes);
			assert_same_double(a[k].lat_mean_ns, b[k].lat_mean_ns);
			assert_same_double(a[k].clat_mean_ns, b[k].clat_mean_ns);
			assert_int_equal(store_read_percentile(st, b[k].id, 99.0, &want, &err), 0);
			assert_same_double(p99[k], b[k].ddir == DDIR_TOTAL ? NAN : want);
		}
		store_results_free(a, na);
		store_results_free(b, nb);
		free(p99);

		assert_int_equal(store_scan_next_hosts(sh, ids[i], &ha, &nha, &err), 0);
		assert_int_equal(store_read_hosts(st, ids[i], &hb, &nhb, &err), 0);
		assert_int_equal(nha, nhb);
		for (size_t k = 0; k < nha; k++) {
			assert_string_equal(ha[k].host, hb[k].host);
			assert_int_equal(ha[k].error_code, hb[k].error_code);
			assert_same_double(ha[k].usr_cpu_pct, hb[k].usr_cpu_pct);
			assert_same_double(ha[k].sys_cpu_pct, hb[k].sys_cpu_pct);
		}
		store_hosts_free(ha, nha);
		store_hosts_free(hb, nhb);

		assert_int_equal(store_scan_next_cpu(sc, ids[i], &ca, &nca, &err), 0);
		assert_int_equal(store_read_cpu(st, ids[i], &cb, &ncb, &err), 0);
		assert_int_equal(nca, ncb);
		for (size_t k = 0; k < nca; k++) {
			assert_string_equal(ca[k].host, cb[k].host);
			assert_string_equal(ca[k].role, cb[k].role);
			assert_string_equal(ca[k].source, cb[k].source);
			assert_same_double(ca[k].util_pct, cb[k].util_pct);
			assert_same_double(ca[k].cpu_us_per_io, cb[k].cpu_us_per_io);
		}
		store_cpu_free(ca, nca);
		store_cpu_free(cb, ncb);
	}
	store_scan_close(sr);
	store_scan_close(sh);
	store_scan_close(sc);
	free(ids);
	store_run_list_release(&runs);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_and_labels),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_cpu_rule),
		cmocka_unit_test(test_disks_samples_artifacts),
		cmocka_unit_test(test_scans_match_per_run_reads),
	};
	return cmocka_run_group_tests(tests, setup, tu_db_teardown);
}
