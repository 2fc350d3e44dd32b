/*
 * test_aggregate: core/aggregate.c is exact.
 *
 *  - hist_percentile() against real fio 3.33: fio (ioengine=null, so it takes milliseconds) is run with a
 *    fixed number of IOs and a percentile_list holding the awkward points (99.95 with N=2000 is one where a
 *    double-precision threshold picks a different bucket than fio's long double one), and every percentile
 *    fio printed must equal hist_percentile() over the bins fio printed.
 *  - the json+ fixture with bins (tests/fixtures/fio/json): the same for each job.
 *  - merging hosts: per-host bins summed (counts add, bucket values kept), percentiles of the merge equal a
 *    brute-force rank over the expanded samples, IOs/bytes/IOPS add, mean weighted by N, stddev pooled (checked
 *    against a direct computation over made-up samples), hosts with errmsg left out.
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

#include "core/aggregate.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "engines/fio_json.h"
#include "testutil.h"

/* Brute force fio's rule over expanded samples: the smallest sample value v such that
 * #samples <= v >= (long double)p / 100 * N. */
static uint64_t brute_pct(const struct hist_bin *bins, size_t n, double p)
{
	uint64_t total = 0, *all, k = 0, ret;
	long double want;

	for (size_t i = 0; i < n; i++)
		total += bins[i].count;
	if (!total)
		return 0;
	all = xcalloc(total, sizeof(*all));
	for (size_t i = 0; i < n; i++)
		for (uint64_t c = 0; c < bins[i].count; c++)
			all[k++] = bins[i].value_ns;
	/* all[] is sorted because bins are; rank r (1-based) is the first with r >= want */
	want = (long double)p / 100.0 * (long double)total;
	ret = all[total - 1];
	for (uint64_t r = 1; r <= total; r++) {
		if ((long double)r >= want) {
			/* the bucket that holds rank r; later ranks in the same bucket give the same value */
			ret = all[r - 1];
			break;
		}
	}
	free(all);
	return ret;
}

static void check_job_pcts(const struct dir_result *d, const char *what)
{
	assert_true(d->nbins > 0);
	assert_true(d->npct > 0);
	for (size_t i = 0; i < d->npct; i++) {
		uint64_t got = hist_percentile(d->bins, d->nbins, d->pct[i].pct);
		if (got != d->pct[i].value_ns)
			fail_msg("%s: p%g: fio says %llu, hist_percentile gives %llu", what, d->pct[i].pct,
				 (unsigned long long)d->pct[i].value_ns, (unsigned long long)got);
	}
}

static void run_fio_null(const char *nios, struct fio_output *fo)
{
	char *nio = xasprintf("--number_ios=%s", nios);
	char *const argv[] = { "fio", "--name=agg", "--ioengine=null", "--rw=randread", "--bs=4k", "--size=1g",
			       nio, "--percentile_list=1:5:50:90:99:99.5:99.9:99.95:99.99:100",
			       "--output-format=json+", NULL };
	char *out = NULL;
	int code = -1;
	struct errbuf err;

	errbuf_init(&err);
	assert_int_equal(proc_run_capture(argv, 60000, &out, &code, &err), 0);
	assert_int_equal(code, 0);
	assert_non_null(out);
	if (fio_json_parse(out, strlen(out), "fio", fo, &err) < 0)
		fail_msg("%s", err.msg);
	free(out);
	free(nio);
}

static void test_percentile_equals_fio(void **state)
{
	static const char *const counts[] = { "2000", "100", "1000", "4000", "20000", "12345", "7" };
	(void)state;
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct fio_output fo;
		fio_output_init(&fo);
		run_fio_null(counts[c], &fo);
		assert_int_equal(fo.njobs, 1);
		assert_int_equal(fo.jobs[0].res.dir[DDIR_READ].ios, strtoull(counts[c], NULL, 10));
		check_job_pcts(&fo.jobs[0].res.dir[DDIR_READ], counts[c]);
		fio_output_release(&fo);
	}
}

static void test_double_threshold_would_be_wrong(void **state)
{
	/* 1999 IOs of 10 ns and one of 37120 ns: fio's p99.95 is 37120 (long double threshold
	 * 1999.0000000000000057 > 1999); a double threshold rounds to 1999.0 and would answer 10. */
	struct hist_bin b[2] = { { 10, 1999 }, { 37120, 1 } };
	(void)state;
	assert_int_equal(hist_percentile(b, 2, 99.95), 37120);
	assert_int_equal(brute_pct(b, 2, 99.95), 37120);
	assert_int_equal(hist_percentile(b, 2, 99.9), 10);
	assert_int_equal(hist_percentile(b, 2, 100), 37120);
	assert_int_equal(hist_percentile(b, 0, 50), 0);
}

static void test_fixture_bins(void **state)
{
	char *path;
	struct strbuf sb;
	struct fio_output fo;
	struct errbuf err;
	size_t checked = 0;

	(void)state;
	path = tu_src_path("tests/fixtures/fio/json/fio-3.33_jsonplus_randread_bins.json");
	strbuf_init(&sb);
	fio_output_init(&fo);
	errbuf_init(&err);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	if (fio_json_parse(sb.buf, sb.len, path, &fo, &err) < 0)
		fail_msg("%s", err.msg);
	for (size_t j = 0; j < fo.njobs; j++) {
		for (int d = 0; d < DDIR_TOTAL; d++) {
			const struct dir_result *dr = &fo.jobs[j].res.dir[d];
			if (!dr->nbins || !dr->npct)
				continue;
			check_job_pcts(dr, fo.jobs[j].jobname);
			checked++;
		}
	}
	assert_true(checked > 0);
	fio_output_release(&fo);
	strbuf_release(&sb);
	free(path);
}

/* A host's read direction from made-up samples: bins, N, mean, stddev (sample form, as fio) computed here. */
static void make_dir(struct dir_result *d, const uint64_t *vals, const uint64_t *cnt, size_t n, uint64_t bytes_per_io,
		     double iops)
{
	long double s = 0, s2 = 0;
	uint64_t N = 0;

	dir_result_init(d);
	d->present = 1;
	d->bins = xcalloc(n, sizeof(*d->bins));
	for (size_t i = 0; i < n; i++) {
		d->bins[i].value_ns = vals[i];
		d->bins[i].count = cnt[i];
		N += cnt[i];
		s += (long double)vals[i] * cnt[i];
	}
	d->nbins = n;
	for (size_t i = 0; i < n; i++)
		s2 += cnt[i] * ((long double)vals[i] - s / N) * ((long double)vals[i] - s / N);
	d->ios = N;
	d->bytes = N * bytes_per_io;
	d->runtime_ms = 1000;
	d->iops = iops;
	d->bw_bytes = iops * (double)bytes_per_io;
	d->clat.present = 1;
	d->clat.n = N;
	d->clat.min_ns = n ? vals[0] : 0;
	d->clat.max_ns = n ? vals[n - 1] : 0;
	d->clat.mean_ns = (double)(s / N);
	d->clat.stddev_ns = N > 1 ? (double)sqrtl(s2 / (N - 1)) : 0;
	memcpy(d->pct_kind, "clat", 5);
	d->npct = 3;
	d->pct = xcalloc(3, sizeof(*d->pct));
	d->pct[0].pct = 50;
	d->pct[1].pct = 99;
	d->pct[2].pct = 99.9;
	for (int i = 0; i < 3; i++)
		d->pct[i].value_ns = hist_percentile(d->bins, d->nbins, d->pct[i].pct);
}

static void test_merge_hosts(void **state)
{
	static const uint64_t v1[] = { 100, 200, 300, 5000 }, c1[] = { 500, 300, 195, 5 };
	static const uint64_t v2[] = { 150, 200, 900, 70000 }, c2[] = { 1000, 700, 290, 10 };
	static const uint64_t v3[] = { 120, 130 }, c3[] = { 10, 10 };
	struct run_result r;
	struct host_result *h, *agg;
	struct hist_bin all[16];
	size_t nall = 0;
	long double s = 0, s2 = 0, mean;
	uint64_t N = 0;

	(void)state;
	run_result_init(&r);
	h = run_result_add_host(&r, "a");
	make_dir(&h->dir[DDIR_READ], v1, c1, 4, 4096, 1000.5);
	host_result_total(h);
	h = run_result_add_host(&r, "b");
	make_dir(&h->dir[DDIR_READ], v2, c2, 4, 4096, 2000.25);
	host_result_total(h);
	h = run_result_add_host(&r, "lost");
	make_dir(&h->dir[DDIR_READ], v3, c3, 2, 4096, 99999);
	h->errmsg = xstrdup("host 'lost' gave no results");
	run_result_aggregate(&r);
	agg = run_result_find_host(&r, HOST_AGGREGATE);
	assert_non_null(agg);
	assert_int_equal(r.nhosts, 4);

	/* expected, computed here from the samples of a and b only */
	for (size_t i = 0; i < 4; i++) {
		all[nall].value_ns = v1[i];
		all[nall++].count = c1[i];
		all[nall].value_ns = v2[i];
		all[nall++].count = c2[i];
	}
	hist_normalise(all, &nall);
	for (size_t i = 0; i < nall; i++) {
		N += all[i].count;
		s += (long double)all[i].value_ns * all[i].count;
	}
	mean = s / N;
	for (size_t i = 0; i < nall; i++)
		s2 += all[i].count * ((long double)all[i].value_ns - mean) * ((long double)all[i].value_ns - mean);

	const struct dir_result *d = &agg->dir[DDIR_READ];
	assert_int_equal(d->ios, 3000);
	assert_int_equal(d->bytes, 3000 * 4096);
	assert_true(fabs(d->iops - 3000.75) < 1e-9);
	assert_int_equal(d->clat.n, N);
	assert_true(fabs(d->clat.mean_ns - (double)mean) < 1e-9 * (double)mean);
	assert_true(fabs(d->clat.stddev_ns - (double)sqrtl(s2 / (N - 1))) < 1e-9 * d->clat.stddev_ns);
	assert_int_equal(d->clat.min_ns, 100);
	assert_int_equal(d->clat.max_ns, 70000);
	/* bins: value 200 appears on both hosts and is summed */
	assert_int_equal(d->nbins, nall);
	for (size_t i = 0; i < nall; i++) {
		assert_int_equal(d->bins[i].value_ns, all[i].value_ns);
		assert_int_equal(d->bins[i].count, all[i].count);
		if (all[i].value_ns == 200)
			assert_int_equal(d->bins[i].count, 1000);
	}
	assert_int_equal(d->npct, 3);
	for (size_t i = 0; i < d->npct; i++)
		assert_int_equal(d->pct[i].value_ns, brute_pct(all, nall, d->pct[i].pct));
	/* not the average of the hosts' percentiles */
	assert_int_equal(d->pct[1].value_ns, 900);
	/* total direction equals read (the only one) */
	assert_int_equal(agg->dir[DDIR_TOTAL].ios, 3000);
	assert_int_equal(agg->dir[DDIR_TOTAL].pct[2].value_ns, d->pct[2].value_ns);
	/* aggregating again replaces the aggregate instead of adding a second one */
	run_result_aggregate(&r);
	assert_int_equal(r.nhosts, 4);
	run_result_release(&r);
}

static void test_merge_random(void **state)
{
	/* many hosts, random bins, every default percentile point against the brute force */
	unsigned seed = 12345;
	(void)state;
	for (int round = 0; round < 20; round++) {
		struct dir_result parts[6];
		const struct dir_result *pp[6];
		struct dir_result out;
		struct hist_bin all[6 * 40];
		size_t nall = 0, nh = 2 + (size_t)(round % 5);

		for (size_t h = 0; h < nh; h++) {
			uint64_t vals[40], cnt[40], v = 1 + (rand_r(&seed) % 50);
			size_t n = 1 + (size_t)(rand_r(&seed) % 40);
			for (size_t i = 0; i < n; i++) {
				vals[i] = v;
				cnt[i] = (uint64_t)(rand_r(&seed) % 1000) + (i == 0);
				v += 1 + (uint64_t)(rand_r(&seed) % 3000);
				all[nall].value_ns = vals[i];
				all[nall++].count = cnt[i];
			}
			make_dir(&parts[h], vals, cnt, n, 512, 10);
			pp[h] = &parts[h];
		}
		hist_normalise(all, &nall);
		dir_result_init(&out);
		dir_combine(&out, pp, nh);
		assert_int_equal(out.npct, 3);
		for (size_t i = 0; i < out.npct; i++)
			assert_int_equal(out.pct[i].value_ns, brute_pct(all, nall, out.pct[i].pct));
		for (size_t i = 0; i < 17; i++)
			assert_int_equal(hist_percentile(out.bins, out.nbins, agg_default_pcts[i]),
					 brute_pct(all, nall, agg_default_pcts[i]));
		dir_result_release(&out);
		for (size_t h = 0; h < nh; h++)
			dir_result_release(&parts[h]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_double_threshold_would_be_wrong),
		cmocka_unit_test(test_percentile_equals_fio),
		cmocka_unit_test(test_fixture_bins),
		cmocka_unit_test(test_merge_hosts),
		cmocka_unit_test(test_merge_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
