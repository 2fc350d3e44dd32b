/*
 * test_csv_import: the CSV importer of published results (import/csv_import.c) on examples/ (the dataset) and on
 * tables of good and bad inputs.
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

#include "import/csv_import.h"
#include "core/strbuf.h"
#include "testutil.h"

static int parse(const char *text, const struct kvlist *map, struct import_batch *b, struct errbuf *err)
{
	import_batch_init(b);
	errbuf_init(err);
	return csv_import_parse(text, strlen(text), "t.csv", map, b, err);
}

static const struct host_result *agg(const struct imported_run *r)
{
	for (size_t i = 0; i < r->res.nhosts; i++)
		if (!strcmp(r->res.hosts[i].host, "*"))
			return &r->res.hosts[i];
	return NULL;
}

static void test_dataset(void **state)
{
	struct import_batch b;
	struct errbuf err;
	char *path;
	const struct imported_run *r;
	const struct host_result *h;

	(void)state;
	path = tu_src_path("examples/nvmeof-vs-iser-100g.csv");
	import_batch_init(&b);
	errbuf_init(&err);
	assert_int_equal(csv_import_file(path, NULL, &b, &err), 0);
	assert_int_equal(b.n, 117);
	assert_string_equal(b.suite_name, "nvmeof-vs-iser-100g.csv");
	/* Row 3: iser,mdadm-raid0,vdb-...-4k-50rdpct-80randompct-4threads,vdbench,4k,50,80,257869.23,1007.3,8.27,0.16,0.21 */
	r = &b.runs[2];
	assert_string_equal(r->spec.name, "vdb-2vmdk-100ws-4k-50rdpct-80randompct-4threads");
	assert_string_equal(kvlist_get(&r->spec.labels, "transport", ""), "iser");
	assert_string_equal(kvlist_get(&r->spec.labels, "stack", ""), "mdadm-raid0");
	assert_null(kvlist_find(&r->spec.labels, "article_label")); /* a description, not a label */
	assert_string_equal(r->spec.wl.tool, "vdbench");
	assert_int_equal(r->spec.wl.bs_bytes, 4096);
	assert_int_equal(r->spec.wl.read_pct, 50);
	assert_int_equal(r->spec.wl.random_pct, 80);
	h = agg(r);
	assert_non_null(h);
	assert_true(h->dir[DDIR_TOTAL].present);
	assert_true(h->dir[DDIR_TOTAL].iops == 257869.23);
	assert_true(h->dir[DDIR_TOTAL].bw_bytes == 1007.3 * 1048576.0);
	assert_true(h->dir[DDIR_WRITE].lat.mean_ns == 0.16 * 1e6);
	assert_true(h->dir[DDIR_READ].lat.mean_ns == 0.21 * 1e6);
	assert_int_equal(r->res.ncpu, 1);
	assert_true(r->res.cpu[0].util_pct == 8.27);
	assert_string_equal(r->res.cpu[0].source, "import");
	assert_int_equal(r->res.nart, 1);
	assert_non_null(strstr(r->res.art[0].content, "VDbench - 4k - 80% rng - 50/50"));
	/* Row 1 is 0 % read: no read direction. */
	h = agg(&b.runs[0]);
	assert_false(h->dir[DDIR_READ].present);
	assert_true(h->dir[DDIR_WRITE].present);
	import_batch_release(&b);
	free(path);
}

static void test_quoting_and_units(void **state)
{
	struct import_batch b;
	struct errbuf err;
	const struct host_result *h;

	(void)state;
	assert_int_equal(parse("\xef\xbb\xbfName,Kernel,BS,Read IOPS,Write IOPS,Read Lat (us),Write p99 ns,"
			       "MB/s,note\r\n"
			       "\"a,b \"\"x\"\"\",\"6.8\nrc1\",8k,100,50,250,1500000,2.5,\"free, text\"\r\n",
			       NULL, &b, &err), 0);
	assert_int_equal(b.n, 1);
	assert_string_equal(b.runs[0].spec.name, "a,b \"x\"");
	assert_string_equal(kvlist_get(&b.runs[0].spec.labels, "kernel", ""), "6.8\nrc1");
	assert_null(kvlist_find(&b.runs[0].spec.labels, "note"));
	h = agg(&b.runs[0]);
	assert_true(h->dir[DDIR_READ].iops == 100);
	assert_true(h->dir[DDIR_WRITE].iops == 50);
	assert_true(h->dir[DDIR_TOTAL].iops == 150);
	assert_true(h->dir[DDIR_READ].lat.mean_ns == 250e3);
	assert_int_equal(h->dir[DDIR_WRITE].npct, 1);
	assert_int_equal(h->dir[DDIR_WRITE].pct[0].value_ns, 1500000);
	assert_true(h->dir[DDIR_TOTAL].bw_bytes == 2.5 * 1048576.0);
	assert_int_equal(b.runs[0].spec.wl.bs_bytes, 8192);
	import_batch_release(&b);
}

static void test_map(void **state)
{
	struct import_batch b;
	struct errbuf err;
	struct kvlist map;

	(void)state;
	kvlist_init(&map);
	errbuf_init(&err);
	assert_int_equal(csv_map_add(&map, "Test=workload,Speed=iops,Box=label:host_group,junk=-", &err), 0);
	assert_int_equal(parse("Test,Speed,Box,junk\nt1,10,b1,zz\n", &map, &b, &err), 0);
	assert_string_equal(b.runs[0].spec.name, "t1");
	assert_string_equal(kvlist_get(&b.runs[0].spec.labels, "host_group", ""), "b1");
	assert_null(kvlist_find(&b.runs[0].spec.labels, "junk"));
	assert_true(agg(&b.runs[0])->dir[DDIR_TOTAL].iops == 10);
	import_batch_release(&b);
	assert_int_equal(csv_map_add(&map, "x=nosuchfield", &err), -1);
	assert_int_equal(err.kind, ERR_USAGE);
	assert_int_equal(csv_map_add(&map, "x=label:bad key", &err), -1);
	assert_int_equal(csv_map_add(&map, "novalue", &err), -1);
	kvlist_release(&map);
}

static void test_bad(void **state)
{
	static const struct { const char *text; const char *msg; } cases[] = {
		{ "", "empty file" },
		{ "workload,iops\n", "no data rows" },
		{ "stack,iops\nx,1\n", "no 'workload'" },
		{ "workload,stack\nx,y\n", "no metric column" },
		{ "workload,iops\nw,abc\n", "t.csv:2: column 'iops': 'abc' is not a non-negative number" },
		{ "workload,iops\nw,-5\n", "not a non-negative" },
		{ "workload,iops\nw,1,2\n", "t.csv:2: 3 fields, the header has 2" },
		{ "workload,iops\n\"w,1\n", "t.csv:2: a quoted field is not closed" },
		{ "workload,iops,rdpct\nw,1,170\n", "'rdpct' must be 0..100, got '170'" },
		{ "workload,iops,bs\nw,1,4q\n", "not a block size" },
		{ "workload,iops,status\nw,1,running\n", "status is done" },
		{ "workload,iops,IOPS\nw,1,2\n", "give the same field" },
		{ "workload,iops\n,1\n", "each row needs a workload name" },
		{ "workload,iops\n\"w\"x,1\n", "text after a closing quote" },
		{ "workload,iops\nw,1\nv,2\nu,nan\n", "t.csv:4:" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct import_batch b;
		struct errbuf err;

		assert_int_equal(parse(cases[i].text, NULL, &b, &err), -1);
		assert_int_equal(err.kind, ERR_INPUT);
		if (!strstr(err.msg, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].msg);
		assert_null(strchr(err.msg, '\n') == NULL ? NULL : "newline in message");
		import_batch_release(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dataset),
		cmocka_unit_test(test_quoting_and_units),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
