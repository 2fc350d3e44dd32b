/*
 * test_fio_json: engines/fio_json.c on every fio output in tests/fixtures/fio/json (SOURCES.md) and on small
 * made-up documents for the cases no fixture has (fio 2.x json+ bins, unified "mixed" reporting, errors).
 *
 * The expected figures are read from each file independently here, with cJSON directly: the last document is
 * found by trying every '{' (not only those at a line start, as the parser does), and each job's numbers are
 * taken from the tree and converted with fio's units (2.x: us -> ns, io_bytes KiB before 2.21).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/aggregate.h"
#include "core/strbuf.h"
#include "engines/fio_json.h"
#include "import/fio_json_import.h"
#include "testutil.h"

static char *fixture_dir(void)
{
	const char *src = getenv("BENCH_SRC");
	if (!src)
		fail_msg("BENCH_SRC is not set: run the unit tests through ctest (it names the source tree)");
	return xasprintf("%s/tests/fixtures/fio/json", src);
}

/* The last complete JSON document with "fio version", found by brute force. */
static cJSON *last_doc(const char *text, size_t len)
{
	cJSON *last = NULL;

	for (size_t i = 0; i < len; i++) {
		const char *end = NULL;
		cJSON *d;
		if (text[i] != '{')
			continue;
		d = cJSON_ParseWithLengthOpts(text + i, len - i, &end, 0);
		if (!d)
			continue;
		if (cJSON_GetObjectItemCaseSensitive(d, "fio version")) {
			cJSON_Delete(last);
			last = d;
			i = (size_t)(end - text) - 1;
		} else {
			cJSON_Delete(d);
		}
	}
	return last;
}

static double numv(const cJSON *o, const char *k, int *have)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	*have = cJSON_IsNumber(v);
	return *have ? v->valuedouble : 0;
}

static void assert_close(double want, double got, const char *what, const char *file, const char *job)
{
	double tol = fabs(want) * 1e-9;
	if (fabs(want - got) > tol) {
		print_error("%s job %s: %s: want %.17g got %.17g\n", file, job, what, want, got);
		fail();
	}
}

static void assert_u64(uint64_t want, uint64_t got, const char *what, const char *file, const char *job)
{
	if (want != got) {
		print_error("%s job %s: %s: want %llu got %llu\n", file, job, what, (unsigned long long)want,
			    (unsigned long long)got);
		fail();
	}
}

static unsigned ver_of(const cJSON *doc)
{
	return fio_version_number(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "fio version")));
}

/* Compares one direction of one job with the JSON object it came from. */
static void check_dir(const cJSON *o, unsigned ver, const struct dir_result *d, const char *file, const char *job)
{
	int have, ns = cJSON_GetObjectItemCaseSensitive(o, "clat_ns") != NULL;
	double scale = ns ? 1 : 1000, ios, bytes, runtime, v;
	const char *lk[3][2] = { { "lat_ns", "lat" }, { "clat_ns", "clat" }, { "slat_ns", "slat" } };
	const struct lat_summary *ls[3] = { &d->lat, &d->clat, &d->slat };
	const cJSON *pobj;

	bytes = numv(o, "io_bytes", &have);
	numv(o, "io_kbytes", &have);
	if (!have && ver < 22100)
		bytes *= 1024;
	assert_u64((uint64_t)bytes, d->bytes, "io_bytes", file, job);
	runtime = numv(o, "runtime", &have);
	assert_u64((uint64_t)runtime, d->runtime_ms, "runtime", file, job);
	assert_close(numv(o, "iops", &have), d->iops, "iops", file, job);
	ios = numv(o, "total_ios", &have);
	if (have)
		assert_u64((uint64_t)ios, d->ios, "total_ios", file, job);
	else
		ios = (double)d->ios;
	v = numv(o, "bw_bytes", &have);
	if (have)
		assert_close(v, d->bw_bytes, "bw_bytes", file, job);
	else if (runtime > 0)
		assert_close(floor(bytes * 1000 / runtime), d->bw_bytes, "bw_bytes (derived)", file, job);
	/* fio's KiB/s figure agrees with the stored bytes/s */
	v = numv(o, "bw", &have);
	if (have && ver >= 22100)
		assert_u64((uint64_t)v, (uint64_t)(d->bw_bytes / 1024), "bw KiB/s", file, job);

	for (int i = 0; i < 3; i++) {
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(o, lk[i][ns ? 0 : 1]);
		double n;
		if (!l)
			continue;
		assert_true(ls[i]->present);
		assert_u64((uint64_t)llround(numv(l, "min", &have) * scale), ls[i]->min_ns, lk[i][0], file, job);
		assert_u64((uint64_t)llround(numv(l, "max", &have) * scale), ls[i]->max_ns, lk[i][0], file, job);
		assert_close(numv(l, "mean", &have) * scale, ls[i]->mean_ns, "mean", file, job);
		assert_close(numv(l, "stddev", &have) * scale, ls[i]->stddev_ns, "stddev", file, job);
		n = numv(l, "N", &have);
		if (have)
			assert_u64((uint64_t)n, ls[i]->n, "N", file, job);
		else if (numv(l, "max", &have) > 0)
			assert_u64((uint64_t)ios, ls[i]->n, "N from total_ios", file, job);
	}

	/* percentiles: lat when fio gave them there (lat_percentiles=1), else clat */
	pobj = cJSON_GetObjectItemCaseSensitive(o, ns ? "lat_ns" : "lat");
	if (!cJSON_GetObjectItemCaseSensitive(pobj, "percentile"))
		pobj = cJSON_GetObjectItemCaseSensitive(o, ns ? "clat_ns" : "clat");
	if (cJSON_GetObjectItemCaseSensitive(pobj, "percentile") && ios > 0) {
		const cJSON *p, *bins = cJSON_GetObjectItemCaseSensitive(pobj, "bins");
		size_t checked = 0;
		cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(pobj, "percentile")) {
			double pct = strtod(p->string, NULL);
			int found = 0;
			if (pct <= 0)
				continue;
			for (size_t k = 0; k < d->npct; k++) {
				if (d->pct[k].pct == pct) {
					assert_u64((uint64_t)llround(p->valuedouble * scale), d->pct[k].value_ns,
						   p->string, file, job);
					found = 1;
				}
			}
			assert_true(found);
			checked++;
		}
		assert_int_equal(checked, d->npct);
		assert_string_equal(d->pct_kind, pobj->string[0] == 'l' ? "lat" : "clat");
		if (bins) {
			uint64_t total = 0, want = 0;
			cJSON_ArrayForEach(p, bins) want += (uint64_t)p->valuedouble;
			for (size_t k = 0; k < d->nbins; k++) {
				total += d->bins[k].count;
				if (k)
					assert_true(d->bins[k].value_ns > d->bins[k - 1].value_ns);
			}
			assert_u64(want, total, "sum of bins", file, job);
			/* fio's percentiles come out of its bins by fio's rule */
			for (size_t k = 0; k < d->npct; k++)
				assert_u64(d->pct[k].value_ns, hist_percentile(d->bins, d->nbins, d->pct[k].pct),
					   "percentile from bins", file, job);
		}
	}
}

static void check_file(const char *path)
{
	struct strbuf sb;
	struct fio_output fo;
	struct errbuf err;
	cJSON *doc, *arr, *j;
	size_t idx = 0;
	int cs = 0;
	unsigned ver;
	const char *dn[4] = { "read", "write", "trim", "mixed" };

	strbuf_init(&sb);
	assert_int_equal(strbuf_read_file(&sb, path), 0);
	doc = last_doc(sb.buf, sb.len);
	assert_non_null(doc);
	ver = ver_of(doc);
	fio_output_init(&fo);
	errbuf_init(&err);
	if (fio_json_parse(sb.buf, sb.len, path, &fo, &err) < 0) {
		print_error("%s: %s\n", path, err.msg);
		fail();
	}
	assert_string_equal(fo.fio_version, cJSON_GetStringValue(cJSON_GetObjectItem(doc, "fio version")));
	arr = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
	if (!arr) {
		arr = cJSON_GetObjectItemCaseSensitive(doc, "client_stats");
		cs = 1;
	}
	assert_int_equal(fo.client_server, cs);
	cJSON_ArrayForEach(j, arr) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(j, "jobname"));
		const struct fio_job *fj;
		int have;
		if (cs && !strcmp(name, "All clients"))
			continue;
		assert_true(idx < fo.njobs);
		fj = &fo.jobs[idx++];
		assert_string_equal(fj->jobname, name);
		if (cs)
			assert_string_equal(fj->res.host, cJSON_GetStringValue(cJSON_GetObjectItem(j, "hostname")));
		assert_close(numv(j, "usr_cpu", &have), fj->res.usr_cpu_pct, "usr_cpu", path, name);
		assert_close(numv(j, "sys_cpu", &have), fj->res.sys_cpu_pct, "sys_cpu", path, name);
		for (int d = 0; d < 4; d++) {
			const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, dn[d]);
			if (o)
				check_dir(o, ver, &fj->res.dir[d == 3 ? DDIR_TOTAL : d], path, name);
		}
		/* the total adds the directions */
		if (!cJSON_GetObjectItemCaseSensitive(j, "mixed"))
			assert_u64(fj->res.dir[0].ios + fj->res.dir[1].ios + fj->res.dir[2].ios, fj->res.dir[DDIR_TOTAL].ios,
				   "total ios", path, name);
	}
	assert_int_equal(idx, fo.njobs);
	/* options: global then job, each key once even when fio repeated it */
	for (size_t i = 0; i < fo.njobs; i++)
		for (size_t a = 0; a < fo.jobs[i].options.n; a++)
			for (size_t b = a + 1; b < fo.jobs[i].options.n; b++)
				assert_string_not_equal(fo.jobs[i].options.v[a].key, fo.jobs[i].options.v[b].key);
	fio_output_release(&fo);
	cJSON_Delete(doc);
	strbuf_release(&sb);
}

static void test_fixtures(void **state)
{
	char *dir = fixture_dir();
	DIR *dh = opendir(dir);
	struct dirent *de;
	int n = 0;

	(void)state;
	assert_non_null(dh);
	while ((de = readdir(dh)) != NULL) {
		char *p;
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "SOURCES.md"))
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		check_file(p);
		free(p);
		n++;
	}
	closedir(dh);
	free(dir);
	assert_true(n >= 8);
}

static int parse_str(const char *text, struct fio_output *fo, struct errbuf *err)
{
	fio_output_init(fo);
	errbuf_init(err);
	return fio_json_parse(text, strlen(text), "t.json", fo, err);
}

/* fio 2.x json+ bins: keyed by bucket index (2.2.12-2.19) and by value in us (2.20-2.21). */
static void test_old_bins(void **state)
{
	struct fio_output fo;
	struct errbuf err;
	const char *by_index =
		"{\"fio version\":\"fio-2.19\",\"jobs\":[{\"jobname\":\"a\",\"groupid\":0,\"error\":0,"
		"\"read\":{\"io_bytes\":8,\"io_kbytes\":8,\"bw\":1,\"iops\":2,\"runtime\":1000,\"total_ios\":2,"
		"\"clat\":{\"min\":100,\"max\":140,\"mean\":120,\"stddev\":20,\"percentile\":{\"50.000000\":100},"
		"\"bins\":{\"FIO_IO_U_PLAT_BITS\":6,\"FIO_IO_U_PLAT_VAL\":64,\"FIO_IO_U_PLAT_NR\":1216,"
		"\"100\":1,\"130\":1,\"131\":0}}}}]}";
	const char *by_us =
		"{\"fio version\":\"fio-2.20\",\"jobs\":[{\"jobname\":\"a\",\"groupid\":0,\"error\":0,"
		"\"read\":{\"io_bytes\":8,\"io_kbytes\":8,\"bw\":1,\"iops\":2,\"runtime\":1000,\"total_ios\":3,"
		"\"clat\":{\"min\":100,\"max\":250,\"mean\":150,\"stddev\":20,\"percentile\":{\"50.000000\":100},"
		"\"bins\":{\"250\":2,\"100\":1}}}}]}";

	(void)state;
	assert_int_equal(parse_str(by_index, &fo, &err), 0);
	assert_int_equal(fo.jobs[0].res.dir[0].nbins, 2);
	assert_int_equal(fo.jobs[0].res.dir[0].bins[0].value_ns, 100000);
	/* index 130: eb = 1, 128 + (2 + 0.5) * 2 = 133 us */
	assert_int_equal(fo.jobs[0].res.dir[0].bins[1].value_ns, 133000);
	assert_int_equal(fo.jobs[0].res.dir[0].clat.mean_ns, 120000);
	assert_int_equal(fo.jobs[0].res.dir[0].pct[0].value_ns, 100000);
	fio_output_release(&fo);

	assert_int_equal(parse_str(by_us, &fo, &err), 0);
	assert_int_equal(fo.jobs[0].res.dir[0].nbins, 2);
	assert_int_equal(fo.jobs[0].res.dir[0].bins[0].value_ns, 100000);
	assert_int_equal(fo.jobs[0].res.dir[0].bins[1].value_ns, 250000);
	assert_int_equal(fo.jobs[0].res.dir[0].bins[1].count, 2);
	fio_output_release(&fo);
}

/* unified_rw_reporting=mixed: one "mixed" object, stored as the total. */
static void test_mixed(void **state)
{
	struct fio_output fo;
	struct errbuf err;
	const char *t = "noise\n{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"m\",\"groupid\":0,\"error\":0,"
			"\"job options\":{\"rw\":\"randrw\",\"unified_rw_reporting\":\"mixed\"},"
			"\"mixed\":{\"io_bytes\":4096000,\"io_kbytes\":4000,\"bw_bytes\":409600,\"bw\":400,"
			"\"iops\":100.5,\"runtime\":10000,\"total_ios\":1000,\"short_ios\":0,\"drop_ios\":0,"
			"\"clat_ns\":{\"min\":1,\"max\":9,\"mean\":5.5,\"stddev\":1.25,\"N\":1000}}}]}\ntrailing text\n";

	(void)state;
	assert_int_equal(parse_str(t, &fo, &err), 0);
	assert_int_equal(fo.njobs, 1);
	assert_false(fo.jobs[0].res.dir[DDIR_READ].present);
	assert_true(fo.jobs[0].res.dir[DDIR_TOTAL].present);
	assert_int_equal(fo.jobs[0].res.dir[DDIR_TOTAL].ios, 1000);
	assert_true(fo.jobs[0].res.dir[DDIR_TOTAL].iops == 100.5);
	assert_true(fo.jobs[0].res.dir[DDIR_TOTAL].clat.mean_ns == 5.5);
	assert_string_equal(fo.text_before, "noise\n");
	fio_output_release(&fo);
}

/* Bad input: one message naming the file and the reason, ERR_INPUT. */
static const struct tu_bad_input json_bad[] = {
	{ "", "t.json: empty" },
	{ "   \n\n", "t.json: empty" },
	{ "fio: some error\n", "t.json: not fio output" },
	{ "{\"name\": \"x\", \"jobs\": []}\n", "t.json:1: not fio output" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"a\"", "t.json:1: truncated JSON" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[]}\n{\"fio version\":\"fio-3.33\",", "t.json:2: truncated JSON" },
	{ "{\"fio version\":\"fio-3.33\"}", "t.json: not fio output" },
	{ "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"nojobname\":1}]}", "t.json: not fio output" },
};

static int parse_bad(const char *text, struct errbuf *err)
{
	struct fio_output fo;
	int rc = parse_str(text, &fo, err);

	fio_output_release(&fo);
	return rc;
}

TU_BAD_INPUT_TEST(test_errors, json_bad, parse_bad, TU_PREFIX | TU_KIND_INPUT | TU_ONE_LINE)

static void test_version(void **state)
{
	(void)state;
	assert_int_equal(fio_version_number("fio-3.33"), 33300);
	assert_int_equal(fio_version_number("fio-2.1.4"), 20104);
	assert_int_equal(fio_version_number("fio-2.2.10-4-gabc"), 20210);
	assert_int_equal(fio_version_number("3.1"), 30100);
	assert_int_equal(fio_version_number("x"), 0);
}

/* The workload read from fio options. */
static void test_workload(void **state)
{
	struct kvlist o;
	struct workload w;

	(void)state;
	kvlist_init(&o);
	kvlist_add(&o, "rw", "randrw");
	kvlist_add(&o, "rwmixread", "70");
	kvlist_add(&o, "bs", "8k");
	kvlist_add(&o, "iodepth", "16");
	kvlist_add(&o, "numjobs", "2");
	kvlist_add(&o, "runtime", "1m");
	kvlist_add(&o, "ramp_time", "5");
	kvlist_add(&o, "percentage_random", "80");
	workload_init(&w);
	fio_options_to_workload(&o, &w);
	assert_string_equal(w.tool, "fio");
	assert_string_equal(w.rw, "randrw");
	assert_int_equal(w.bs_bytes, 8192);
	assert_int_equal(w.read_pct, 70);
	assert_int_equal(w.random_pct, 80);
	assert_int_equal(w.iodepth, 16);
	assert_int_equal(w.numjobs, 2);
	assert_int_equal(w.runtime_s, 60);
	assert_int_equal(w.ramp_s, 5);
	assert_int_equal(w.opts.n, 8);
	workload_release(&w);
	kvlist_release(&o);
}

TU_MAIN(cmocka_unit_test(test_fixtures), cmocka_unit_test(test_old_bins), cmocka_unit_test(test_mixed),
	cmocka_unit_test(test_errors), cmocka_unit_test(test_version), cmocka_unit_test(test_workload))
