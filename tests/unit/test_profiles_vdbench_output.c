/*
 * test_profiles_vdbench_output: import/vdbench_output.c on output directories written here in the layouts the
 * fixtures do not cover: 5.04.06 (a `timestamp` column after `tod`, cpu_used equal to cpu_user on interval rows),
 * a for-loop rd run twice (told apart by totals.html's "For loops:"), an automatic format run, `n/a` values, a
 * last row cut short by a killed vdbench, columns in another order; and the refusals (no header, a bad number,
 * a directory without flatfile.html, no avg_ row) with file:line. The fixture directories are checked against
 * their avg_ rows in tests/cli/profiles_vdbench_import.sh.
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
#include <sys/stat.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/strbuf.h"
#include "import/vdbench_output.h"
#include "testutil.h"


static void put(const char *dir, const char *name, const char *text)
{
	char *d = xasprintf("%s/%s", tu_dir, dir), *p = xasprintf("%s/%s", d, name);
	FILE *f;
	mkdir(d, 0755);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
	free(d);
}

static const char *label(const struct imported_run *r, const char *k)
{
	return kvlist_get(&r->spec.labels, k, NULL);
}

static void test_50406_layout(void **state)
{
	struct import_batch b;
	struct errbuf err;
	char *dir = xasprintf("%s/v506", tu_dir);
	const struct host_result *h;
	const struct cpu_result *c;

	(void)state;
	put("v506", "flatfile.html",
	    "<title>Vdbench output/flatfile.html</title><pre>\n"
	    "* comment\n"
	    "         tod timestamp Run Interval reqrate rate MB/sec bytes/io read% resp read_resp write_resp resp_max "
	    "resp_std xfersize threads rdpct rhpct whpct seekpct lunsize version compratio dedupratio queue_depth "
	    "cpu_used cpu_user cpu_kernel cpu_wait cpu_idle\n"
	    "10:00:00.000 01/02/2023-10:00:00-UTC format_for_rd1 1 9999988 100 12.5 131072 0 1 0 1 2 0.5 131072 2 0 0 0 "
	    "0 1 n/a 1 1 0.1 3 3 n/a 0 97\n"
	    "10:00:01.000 01/02/2023-10:00:01-UTC format_for_rd1 avg_1-1 9999988 100 12.5 131072 0 1 0 1 2 0.5 131072 "
	    "2 0 0 0 0 1 n/a 1 1 0.1 3 3 n/a 0 97\n"
	    "10:00:02.000 01/02/2023-10:00:02-UTC rd1 1 9999988 1000 3.90625 4096 70 0.5 0.4 0.7 9 0.3 4096 4 70 0 0 "
	    "100 1 n/a 1 1 2 5 5 n/a 0 95\n"
	    "10:00:04.000 01/02/2023-10:00:04-UTC rd1 2 9999988 1000 3.90625 4096 70 0.5 0.4 0.7 9 0.3 4096 4 70 0 0 "
	    "100 1 n/a 1 1 2 5 5 n/a 0 95\n"
	    "10:00:06.000 01/02/2023-10:00:06-UTC rd1 3 9999988 1000 3.90625 4096 70 0.5 0.4 0.7 9 0.3 4096 4 70 0 0 "
	    "100 1 n/a 1 1 2 5 5 n/a 0 95\n"
	    "10:00:06.100 01/02/2023-10:00:06-UTC rd1 avg_2-3 9999988 1000.5 3.908203125 4096 70 0.5 0.4 0.7 9 0.3 4096 "
	    "4 70 0 0 100 1 n/a 1 1 2 6.5 5 1.5 0.5 93\n"
	    "10:00:08.000 01/02/2023-10:00:08-UTC rd1 1 9999988 2000 7.8125 4096 70 0.6 0.5 0.8 9 0.3 4096 8 70 0 0 100 "
	    "1 n/a 1 1 4 7 7 n/a 0 93\n"
	    "10:00:10.000 01/02/2023-10:00:10-UTC rd1 2 9999988 2000 7.8125 4096 70 0.6 0.5 0.8 9 0.3 4096 8 70 0 0 100 "
	    "1 n/a 1 1 4 7 7 n/a 0 93\n"
	    "10:00:10.100 01/02/2023-10:00:10-UTC rd1 avg_2-2 9999988 2000 7.8125 4096 70 0.6 0.5 0.8 9 0.3 4096 8 70 0 "
	    "0 100 1 n/a 1 1 4 n/a n/a n/a n/a n/a\n"
	    "10:00:12.000 01/02/2023-10:00:12-UTC rd1 1 9999988 2000 7.81\n");
	put("v506", "totals.html",
	    "<pre>\n21:16:08.008 Starting RD=format_for_rd1; I/O rate: Uncontrolled MAX; For loops: None\n"
	    "21:16:08.008 Starting RD=rd1; I/O rate: Uncontrolled MAX; elapsed=4; For loops: threads=4\n"
	    "21:16:08.008 Starting RD=rd1; I/O rate: Uncontrolled MAX; elapsed=4; For loops: threads=8\n");
	put("v506", "logfile.html", "<pre>\n10:00:00.000 Vdbench distribution: vdbench50406\n");
	put("v506", "parmfile.html", "<pre>\nsd=sd1,lun=/dev/x\nwd=wd1,sd=sd1,rdpct=70\n"
				     "rd=rd1,wd=wd1,iorate=max,elapsed=4,interval=2,forthreads=(4,8)\n");
	assert_int_equal(vdbench_output_detect(dir), 1);
	import_batch_init(&b);
	errbuf_init(&err);
	if (vdbench_output_import(dir, &b, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(b.n, 3);
	assert_string_equal(b.runs[0].spec.name, "format_for_rd1");
	assert_string_equal(label(&b.runs[0], "vdbench.format"), "yes");
	assert_string_equal(b.runs[1].spec.name, "rd1");
	assert_string_equal(label(&b.runs[1], "vdbench.forloops"), "threads=4");
	assert_string_equal(label(&b.runs[2], "vdbench.forloops"), "threads=8");
	assert_string_equal(label(&b.runs[1], "vdbench.wd"), "wd1");
	assert_string_equal(label(&b.runs[1], "vdbench.version"), "vdbench50406");
	assert_string_equal(label(&b.runs[1], "vdbench.iorate"), "max");
	assert_null(label(&b.runs[1], "vdbench.format"));
	/* the avg_ row's numbers, not the interval rows' */
	h = run_result_find_host(&b.runs[1].res, HOST_AGGREGATE);
	assert_non_null(h);
	assert_true(fabs(h->dir[DDIR_TOTAL].iops - 1000.5) < 1e-9);
	assert_true(fabs(h->dir[DDIR_TOTAL].bw_bytes - 3.908203125 * 1048576) < 1e-6);
	assert_true(fabs(h->dir[DDIR_TOTAL].lat.mean_ns - 0.5e6) < 1e-6);
	assert_int_equal(h->dir[DDIR_TOTAL].lat.max_ns, 9000000);
	assert_true(fabs(h->dir[DDIR_READ].iops - 700.35) < 1e-9);
	assert_true(fabs(h->dir[DDIR_WRITE].lat.mean_ns - 0.7e6) < 1e-6);
	/* intervals of 2 s (from the time of day), avg_2-3: 4 s */
	assert_int_equal(h->dir[DDIR_TOTAL].runtime_ms, 4000);
	assert_int_equal(b.runs[1].spec.wl.bs_bytes, 4096);
	assert_int_equal(b.runs[1].spec.wl.read_pct, 70);
	assert_int_equal(b.runs[1].spec.wl.iodepth, 4);
	/* cpu_used (6.5) is not user+kernel: recomputed */
	assert_int_equal(b.runs[1].res.ncpu, 1);
	c = &b.runs[1].res.cpu[0];
	assert_true(fabs(c->user_pct - 5) < 1e-9 && fabs(c->system_pct - 1.5) < 1e-9);
	assert_true(fabs(c->util_pct - 6.5) < 1e-9 && fabs(c->idle_pct - 93) < 1e-9);
	/* n/a CPU on the second run's total: no CPU row */
	assert_int_equal(b.runs[2].res.ncpu, 0);
	import_batch_release(&b);
	free(dir);
}

static const struct tu_bad_input flat_bad[] = {
	{ "<pre>\n10:00:00.000 rd1 1 100\n", "flatfile.html:2:" },
	{ "<pre>\n tod Run Interval rate MB/sec resp\n10:00:00.000 rd1 avg_1-1 1x0 1 1\n", "flatfile.html:3:" },
	{ "<pre>\n tod Run Interval rate MB/sec resp\n10:00:00.000 rd1 1 100 1 1\n", "no run totals" },
	{ "<pre>\n tod Run Interval rate resp\n", "MB/sec" },
	{ "<pre>\n tod Run Interval rate MB/sec resp\n10:00:00.000 rd1 avg_x 100 1 1\n", "avg_" },
};

/* A flatfile.html of TEXT in a directory of its own ("refused", written again for each case), imported. */
static int import_flat(const char *text, struct errbuf *err)
{
	struct import_batch b;
	char *dir = xasprintf("%s/refused", tu_dir);
	int rc;

	put("refused", "flatfile.html", text);
	import_batch_init(&b);
	rc = vdbench_output_import(dir, &b, err);
	import_batch_release(&b);
	free(dir);
	return rc;
}

static void test_refusals(void **state)
{
	(void)state;
	tu_expect_bad_input(flat_bad, sizeof(flat_bad) / sizeof(flat_bad[0]), import_flat, TU_KIND_INPUT);
	{
		struct import_batch b;
		struct errbuf err;
		char *dir = xasprintf("%s/empty", tu_dir);
		mkdir(dir, 0755);
		assert_int_equal(vdbench_output_detect(dir), 0);
		import_batch_init(&b);
		errbuf_init(&err);
		assert_int_equal(vdbench_output_import(dir, &b, &err), -1);
		assert_non_null(strstr(err.msg, "not a vdbench output directory"));
		import_batch_release(&b);
		free(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_50406_layout),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
