/*
 * test_fio_histlog: engines/fio_histlog.c on generated files: bucket ranges as fio-histo-log-pctiles.py reads
 * them, log_hist_coarseness (buckets merged 2^C at a time), the interval inferred from fio's drifting stamps,
 * the chained counts of fio --client's logs undone (and left alone when the file is not chained), and bad
 * lines refused with file:line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/strbuf.h"
#include "engines/fio_histlog.h"
#include "testutil.h"

static char dir[] = "/tmp/test_fio_histlog.XXXXXX";

/* A line: t, ddir, then nb counts, all 0 except count c at bucket b. */
static void line(struct strbuf *sb, long t, int d, unsigned nb, unsigned b, unsigned long c)
{
	strbuf_addf(sb, "%ld, %d, 4096", t, d);
	for (unsigned i = 0; i < nb; i++)
		strbuf_addf(sb, ", %lu", i == b ? c : 0UL);
	strbuf_addc(sb, '\n');
}

/* Releases R and removes the log P. */
static void log_done(struct run_result *r, char *p)
{
	run_result_release(r);
	unlink(p);
	free(p);
}

/* SB written to DIR/NAME (that path in *P, for log_done) and read back: fio_histlog_read with HIST_MS and FLAGS
 * into R (initialised here). */
static long write_read(const char *name, const struct strbuf *sb, unsigned hist_ms, unsigned flags, char **p,
		       struct run_result *r, struct errbuf *err)
{
	*p = tu_write_in(dir, name, sb->buf);
	run_result_init(r);
	errbuf_init(err);
	return fio_histlog_read(*p, "h", 0, hist_ms, flags, r, err);
}

static void test_ranges_and_coarseness(void **state)
{
	int64_t lo, hi;
	struct strbuf sb;
	struct run_result r;
	struct errbuf err;
	char *p;

	(void)state;
	fio_histlog_bucket_range(0, &lo, &hi);
	assert_true(lo == 0 && hi == 1);
	fio_histlog_bucket_range(127, &lo, &hi);
	assert_true(lo == 127 && hi == 128);
	fio_histlog_bucket_range(128, &lo, &hi);
	assert_true(lo == 128 && hi == 130);
	fio_histlog_bucket_range(1855, &lo, &hi); /* the last: 64 * 2^28 ns */
	assert_true(hi == (int64_t)64 << 28);

	/* coarseness 2: 464 buckets, bucket 50 = fine 200..203 = [288, 304) */
	strbuf_init(&sb);
	line(&sb, 1007, 0, 464, 50, 9);
	line(&sb, 2008, 0, 464, 50, 3);
	line(&sb, 3007, 1, 464, 0, 1);
	assert_int_equal(write_read("c2_clat_hist.3.log", &sb, 0, 0, &p, &r, &err), 3);
	assert_int_equal(r.nsamples, 3);
	assert_string_equal(r.samples[0].metric, "clat_hist.read");
	assert_string_equal(r.samples[0].job, "c2.3");
	assert_string_equal(r.samples[0].source, "fio-histlog");
	assert_true(r.samples[0].is_bin && r.samples[0].bucket_lo_ns == 288 && r.samples[0].bucket_hi_ns == 304);
	assert_true(r.samples[0].value == 9 && r.samples[0].t_ms == 1007);
	assert_int_equal(r.samples[0].window_ms, 1000); /* median step 1001, to 10 ms */
	assert_string_equal(r.samples[2].metric, "clat_hist.write");
	assert_true(r.samples[2].bucket_lo_ns == 0 && r.samples[2].bucket_hi_ns == 4);
	log_done(&r, p);
	strbuf_release(&sb);
}

static void test_client_unchain(void **state)
{
	/* true per-interval reads 5, 7, 6, 8 at bucket 10; fio --client writes C_k - line(k-1): 5, 7, 6, 8 ->
	 * cumulative 5, 12, 18, 26 -> lines 5, 7, 11, 15 */
	const unsigned long chained[] = { 5, 7, 11, 15 }, want[] = { 5, 7, 6, 8 };
	struct strbuf sb;
	struct run_result r;
	struct errbuf err;
	char *p;

	(void)state;
	strbuf_init(&sb);
	for (int k = 0; k < 4; k++) {
		line(&sb, 1000 * (k + 1) + 3, 0, 1856, 10, chained[k]);
		line(&sb, 1000 * (k + 1) + 4, 1, 1856, 20, 1); /* writes: 1 in every line */
	}
	assert_true(fio_histlog_client_name("/x/bench_clat_hist.1.log.127.0.0.12"));
	assert_false(fio_histlog_client_name("/x/bench_clat_hist.1.log"));
	assert_int_equal(write_read("bench_clat_hist.1.log.127.0.0.12", &sb, 1000, FIO_HISTLOG_CLIENT, &p, &r, &err), 8);
	for (size_t i = 0, k = 0; i < r.nsamples; i++)
		if (!strcmp(r.samples[i].metric, "clat_hist.read"))
			assert_true(r.samples[i].value == (double)want[k++]);
	log_done(&r, p);

	/* not chained (a count smaller than two lines back): left as written */
	strbuf_reset(&sb);
	line(&sb, 1000, 0, 1856, 10, 9);
	line(&sb, 2000, 0, 1856, 10, 9);
	line(&sb, 3000, 0, 1856, 10, 2);
	assert_int_equal(write_read("x_clat_hist.1.log.h", &sb, 1000, FIO_HISTLOG_CLIENT, &p, &r, &err), 3);
	assert_true(r.nsamples == 3 && r.samples[2].value == 2);
	log_done(&r, p);
	strbuf_release(&sb);
}

static void test_bad_lines(void **state)
{
	char *p;
	struct errbuf err;
	struct run_result r;
	struct strbuf sb;

	(void)state;
	strbuf_init(&sb);
	line(&sb, 1000, 0, 1856, 1, 1);
	line(&sb, 2000, 0, 928, 1, 1); /* another bucket count */
	assert_int_equal(write_read("bad_clat_hist.1.log", &sb, 0, 0, &p, &r, &err), -1);
	assert_non_null(strstr(err.msg, "bad_clat_hist.1.log:2:"));
	assert_int_equal(err.kind, ERR_INPUT);
	unlink(p);
	free(p);
	strbuf_reset(&sb);
	line(&sb, 1000, 0, 1000, 1, 1); /* not 1856 >> C */
	p = tu_write_in(dir, "odd_clat_hist.1.log", sb.buf);
	errbuf_init(&err);
	assert_int_equal(fio_histlog_read(p, "h", 0, 0, 0, &r, &err), -1);
	assert_non_null(strstr(err.msg, "1856 >> log_hist_coarseness"));
	log_done(&r, p);
	strbuf_release(&sb);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges_and_coarseness),
		cmocka_unit_test(test_client_unchain),
		cmocka_unit_test(test_bad_lines),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
