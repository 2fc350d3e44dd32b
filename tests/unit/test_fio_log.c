/*
 * test_fio_log: engines/fio_log.c on the fio logs in tests/fixtures/fio/logs (SOURCES.md) and on generated
 * lines: per-IO and windowed logs, directions mixed, 4/5/6 columns, histogram and percentiles against a plain
 * reference computed here, several jobs' logs of a directory summed, and malformed lines (ERR_INPUT with
 * file:line).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/aggregate.h"
#include "core/strbuf.h"
#include "engines/fio_log.h"
#include "testutil.h"

/* Reference bucket index, written from fio.md's description with a loop instead of clz. */
static unsigned ref_idx(uint64_t v)
{
	unsigned msb = 0, eb;
	uint64_t x = v;

	while (x >>= 1)
		msb++;
	if (msb <= 6)
		return (unsigned)v;
	eb = msb - 6;
	return ((eb + 1) << 6) + (unsigned)(63 & (v >> eb)) < 1855 ? ((eb + 1) << 6) + (unsigned)(63 & (v >> eb))
								   : 1855;
}

static void test_buckets(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 100000; v += 7)
		assert_int_equal(fio_hist_val_to_idx(v), ref_idx(v));
	for (uint64_t v = 1; v < (1ULL << 40); v = v * 3 + 1)
		assert_int_equal(fio_hist_val_to_idx(v), ref_idx(v));
	/* a bucket's value falls in its own bucket */
	for (unsigned i = 0; i < FIO_HIST_NR; i++)
		assert_int_equal(fio_hist_val_to_idx(fio_hist_idx_to_val(i)), i);
}

struct ref_line {
	long t, v, d, bs;
};

/* Reads every line with sscanf (the slow, obvious way). */
static size_t ref_lines(const char *text, struct ref_line **out)
{
	size_t n = 0, cap = 0;
	const char *p = text;

	*out = NULL;
	while (*p) {
		struct ref_line r;
		if (sscanf(p, "%ld, %ld, %ld, %ld", &r.t, &r.v, &r.d, &r.bs) == 4) {
			ARRAY_GROW(*out, cap, n + 1);
			(*out)[n++] = r;
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return n;
}

static void test_fixtures(void **state)
{
	const char *src = getenv("BENCH_SRC");
	char *dir;
	DIR *dh;
	struct dirent *de;
	int files = 0;

	(void)state;
	if (!src)
		fail_msg("BENCH_SRC is not set: run the unit tests through ctest (it names the source tree)");
	dir = xasprintf("%s/tests/fixtures/fio/logs", src);
	dh = opendir(dir);
	assert_non_null(dh);
	while ((de = readdir(dh)) != NULL) {
		char *path;
		struct strbuf sb;
		struct ref_line *r;
		struct fio_log l;
		struct errbuf err;
		struct run_result res;
		size_t n;
		int kind;

		/* the windowed latency logs (<name>_avg<msec>_lat.1.log); import_logs.sh covers the other kinds */
		if (de->d_name[0] == '.' || !strstr(de->d_name, "_avg") || !strstr(de->d_name, "_lat.1.log"))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		strbuf_init(&sb);
		assert_int_equal(strbuf_read_file(&sb, path), 0);
		n = ref_lines(sb.buf, &r);
		kind = fio_log_kind_from_name(path);
		assert_int_equal(kind, FIO_LOG_LAT);
		assert_true(fio_log_detect(path));
		fio_log_init(&l);
		errbuf_init(&err);
		if (fio_log_parse_file(path, (enum fio_log_kind)kind, 0, &l, &err) < 0) {
			print_error("%s\n", err.msg);
			fail();
		}
		assert_int_equal(l.lines, n);
		assert_true(l.windowed); /* all were written with log_avg_msec */
		/* fio 3.33 writes 5 columns (time, value, ddir, bs, prio); the fio-3.1-layout file has 4 */
		assert_int_equal(l.ncols, strstr(path, "fio-3.1-layout") ? 4 : 5);
		/* every line is one sample at its own time (issue 13: nothing merged or rounded), in line order */
		run_result_init(&res);
		fio_logs_to_samples(&l, 1, "h", &res);
		assert_int_equal(res.nsamples, n);
		assert_int_equal(l.avg_ms, strstr(path, "avg250") ? 250 : strstr(path, "avg500") ? 500 : 1000);
		for (size_t s = 0; s < res.nsamples; s++) {
			const struct sample *x = &res.samples[s];
			long d = !strcmp(x->metric, "lat_ns.read") ? 0 : !strcmp(x->metric, "lat_ns.write") ? 1 : 2;
			long cnt = 0;
			assert_true(d < 2);
			assert_int_equal(x->window_ms, l.avg_ms);
			assert_string_equal(x->source, "fio-log");
			for (size_t i = 0; i < n; i++)
				if (r[i].d == d && r[i].t == x->t_ms && (double)r[i].v == x->value)
					cnt++;
			assert_true(cnt > 0);
		}
		assert_true(res.nsamples > 100);
		run_result_release(&res);
		fio_log_release(&l);
		free(r);
		strbuf_release(&sb);
		free(path);
		files++;
	}
	closedir(dh);
	free(dir);
	assert_int_equal(files, 3); /* log_avg_msec 250 (4 columns), 500 and 1000 */
}

/* Generated per-IO lines, directions mixed, 5 and 6 columns; the last line without newline. */
static void test_per_io(void **state)
{
	struct strbuf sb;
	struct fio_log l;
	struct errbuf err;
	struct host_result h;
	struct run_result res;
	uint64_t vals[3][6000];
	size_t nv[3] = { 0, 0, 0 };
	unsigned seed = 12345;

	(void)state;
	strbuf_init(&sb);
	for (int i = 0; i < 6000; i++) {
		unsigned d;
		uint64_t v;
		seed = seed * 1103515245u + 12345u;
		d = (seed >> 16) % 3 == 2 ? 1 : (seed >> 16) % 3; /* reads and writes, more reads */
		if (i % 97 == 0)
			d = 2;
		v = 1000 + (seed >> 8) % 3000000;
		vals[d][nv[d]++] = v;
		if (i % 2)
			strbuf_addf(&sb, "%d, %llu, %u, %u, 0\n", i / 2, (unsigned long long)v, d, d == 1 ? 8192 : 4096);
		else
			strbuf_addf(&sb, "%d, %llu, %u, %u, %d, 1\n", i / 2, (unsigned long long)v, d,
				    d == 1 ? 8192 : 4096, i * 4096);
	}
	sb.len--; /* no final newline */
	fio_log_init(&l);
	errbuf_init(&err);
	assert_int_equal(fio_log_parse_buf(sb.buf, sb.len, "gen.log", FIO_LOG_CLAT, 1000, &l, &err), 0);
	assert_false(l.windowed);
	assert_int_equal(l.lines, 6000);
	host_result_init(&h, "localhost");
	assert_int_equal(fio_logs_to_result(&l, 1, &h), 0);
	for (int d = 0; d < 3; d++) {
		const struct dir_result *dr = &h.dir[d];
		uint64_t mn = UINT64_MAX, mx = 0;
		double sum = 0, m2 = 0, mean;
		struct hist_bin *bins = xcalloc(nv[d], sizeof(*bins));
		size_t nb = nv[d];

		assert_true(nv[d] > 10);
		for (size_t i = 0; i < nv[d]; i++) {
			sum += (double)vals[d][i];
			mn = vals[d][i] < mn ? vals[d][i] : mn;
			mx = vals[d][i] > mx ? vals[d][i] : mx;
			bins[i].value_ns = fio_hist_idx_to_val(ref_idx(vals[d][i]));
			bins[i].count = 1;
		}
		mean = sum / (double)nv[d];
		for (size_t i = 0; i < nv[d]; i++)
			m2 += ((double)vals[d][i] - mean) * ((double)vals[d][i] - mean);
		assert_int_equal(dr->ios, nv[d]);
		assert_int_equal(dr->bytes, nv[d] * (d == 1 ? 8192 : 4096));
		assert_int_equal(dr->clat.n, nv[d]);
		assert_int_equal(dr->clat.min_ns, mn);
		assert_int_equal(dr->clat.max_ns, mx);
		assert_true(fabs(dr->clat.mean_ns - mean) <= 1e-9 * mean);
		assert_true(fabs(dr->clat.stddev_ns - sqrt(m2 / (double)(nv[d] - 1))) <= 1e-6 * dr->clat.stddev_ns);
		assert_string_equal(dr->pct_kind, "clat");
		hist_normalise(bins, &nb);
		assert_int_equal(dr->nbins, nb);
		for (size_t i = 0; i < nb; i++) {
			assert_int_equal(dr->bins[i].value_ns, bins[i].value_ns);
			assert_int_equal(dr->bins[i].count, bins[i].count);
		}
		assert_int_equal(dr->npct, 17);
		for (size_t i = 0; i < dr->npct; i++)
			assert_int_equal(dr->pct[i].value_ns, hist_percentile(bins, nb, dr->pct[i].pct));
		free(bins);
	}
	assert_int_equal(h.dir[DDIR_TOTAL].ios, 6000);

	/* samples: IOPS per 1 s window = IOs in it (3000 ms of log, 1000 lines per second) */
	run_result_init(&res);
	fio_logs_to_samples(&l, 1, "h", &res);
	{
		double iops = 0;
		size_t nlat = 0;
		for (size_t i = 0; i < res.nsamples; i++) {
			if (!strncmp(res.samples[i].metric, "iops.", 5))
				iops += res.samples[i].value;
			if (!strncmp(res.samples[i].metric, "clat_ns.", 8))
				nlat++;
		}
		assert_true(iops == 6000.0);
		assert_int_equal(nlat, 9); /* 3 windows x 3 directions */
	}
	run_result_release(&res);
	host_result_release(&h);
	fio_log_release(&l);
	strbuf_release(&sb);
}

/* Malformed lines: ERR_INPUT naming file and line. */
static const struct tu_bad_input log_bad[] = {
	{ "1, 2, 0, 4096\n2, x, 0, 4096\n", "bad.log:2: expected a value" },
	{ "1, 2, 0, 4096\n2, 3, 5, 4096\n", "bad.log:2: direction must be 0, 1 or 2" },
	{ "1, 2, 0, 4096\n\n3, 3, 1, 4096\nhello\n", "bad.log:4: expected a time stamp" },
	{ "1, 2, 0\n", "bad.log:1: not a fio log" },
	{ "1, 2, 0, 4096 x\n", "bad.log:1: expected ', ' after the block size" },
	{ "1; 2; 0; 4096\n", "bad.log:1: not a fio log" },
	{ "", "bad.log: empty fio log" },
	{ "0, 1, 0, 4096\n99999999999, 1, 0, 4096\n", "bad.log:2: time stamp too far" },
	{ "99999999999, 1, 0, 4096\n0, 1, 0, 4096\n", "bad.log:2: time stamp too far" },
	{ "0, 1, 0, 4096\n\n\r\n99999999999, 1, 0, 4096\n", "bad.log:4: time stamp too far" },
	{ "4611686018427387904, 1, 0, 4096\n", "bad.log:1: time stamp too far" }, /* 2^62 */
	/* numbers above 2^64 - 1 (were wrapped) */
	{ "1, 18446744073709551616, 0, 4096\n", "bad.log:1: value does not fit in 64 bits" },
	{ "1, 2, 0, 4096\n18446744073709551616, 1, 0, 4096\n", "bad.log:2: time stamp does not fit in 64 bits" },
	{ "1, 2, 0, 99999999999999999999\n", "bad.log:1: block size does not fit in 64 bits" },
	{ "1, 2, 0, 4096\n2, 100000000000000000000000000000, 1, 4096\n", "bad.log:2: value does not fit" },
	/* missing fields, stray bytes, blank lines before the bad one */
	{ "1, 2, 0, 4096\n1, 2, 0,\n", "bad.log:2: expected a block size" },
	{ "1, 2, 0, 4096\n1, 2, 0, \n", "bad.log:2: expected a block size" },
	{ "1, 2, 0, 4096\n1, 2\n", "bad.log:2: expected ', ' after the value" },
	{ "1, 2, 0, 4096\n1, , 0, 4096\n", "bad.log:2: expected a value" },
	{ "1, 2, 0, 4096\n1 , 2, 0, 4096\n", "bad.log:2: expected ', ' after the time" },
	{ "1, 2, 0, 4096\n1, 2, 01, 4096\n", "bad.log:2: direction must be 0, 1 or 2" },
	{ "1, 2, 0, 4096\n1, 2, 0 , 4096\n", "bad.log:2: expected ', ' after the direction" },
	{ "1, 2, 0, 4096\n1, 2, 0, 4096x\n", "bad.log:2: expected ', ' after the block size" },
	{ "1,\t2, 0, 4096\n", "bad.log:1: expected a value" },
	{ "1, 2, 0, 4096\n\n\r\n4, x, 0, 4096\n", "bad.log:4: expected a value" },
	{ "1, 2, 0, 4096\n-1, 2, 0, 4096\n", "bad.log:2: expected a time stamp" },
	{ "\n", "bad.log:1: not a fio log" },
	{ "\n\n\n", "bad.log:1: not a fio log" },
};

static int parse_bad(const char *text, struct errbuf *err)
{
	struct fio_log l;
	int rc;

	fio_log_init(&l);
	rc = fio_log_parse_buf(text, strlen(text), "bad.log", FIO_LOG_LAT, 1000, &l, err);
	fio_log_release(&l);
	return rc;
}

TU_BAD_INPUT_TEST(test_bad_lines, log_bad, parse_bad, TU_PREFIX | TU_KIND_INPUT)

/* Parses text as a per-IO clat log in 1 s intervals; fails the test on an error. */
static void parse_ok(const char *text, size_t len, struct fio_log *l)
{
	struct errbuf err;

	fio_log_init(l);
	errbuf_init(&err);
	if (fio_log_parse_buf(text, len, "edge.log", FIO_LOG_CLAT, 1000, l, &err) < 0)
		fail_msg("%s", err.msg);
}

/*
 * The number scanner at its edges: 1 to 20 digits in each numeric field (fast path below 8 digits, the checked
 * reader above), leading zeros, 2^64 - 1, spaces, CRLF, a last line without newline, 4 to 6 columns.
 */
static void test_scanner_edges(void **state)
{
	static const char *const vals[] = {
		"0", "7", "42", "999", "4096", "65536", "1234567", "9999999", "12345678", "99999999", "100000000",
		"123456789012345", "1234567890123456", "12345678901234567", "1234567890123456789",
		"18446744073709551615", "000000000000000000000000000000000000000012", "0000007",
	};
	static const char *const shapes[] = {
		"%s, %s, 1, %s\n",         "%s, %s, 1, %s, 0\n", "%s, %s, 1, %s, 123456789012, 3\n",
		"%s,%s,1,%s\n",            "%s,   %s,  1,    %s\n", "%s, %s, 1, %s\r\n",
		"%s, %s, 1, %s, 0\r\n",     "%s, %s, 1, %s",       "%s, %s, 1, %s\r",
		"%s, %s, 1, %s, 0",
	};
	(void)state;
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
			/* the value in each field in turn; the time stamp stays small (intervals) */
			uint64_t want = strtoull(vals[i], NULL, 10);
			char text[256];
			struct fio_log l;
			int n;

			n = snprintf(text, sizeof(text), shapes[s], "1500", vals[i], vals[i]);
			parse_ok(text, (size_t)n, &l);
			assert_int_equal(l.lines, 1);
			assert_int_equal(l.ncols, s == 1 || s == 6 || s == 9 ? 5 : s == 2 ? 6 : 4);
			assert_int_equal(l.min_v[1], want);
			assert_int_equal(l.max_v[1], want);
			assert_int_equal(l.win[0][1].sum, want);
			assert_int_equal(l.win[0][1].bytes, want);
			assert_int_equal(l.tmin_ms, 1500);
			fio_log_release(&l);
			if (want > 1000000000) /* a time stamp that far is refused (24 days) */
				continue;
			n = snprintf(text, sizeof(text), shapes[s], vals[i], "5", "4096");
			parse_ok(text, (size_t)n, &l);
			assert_int_equal(l.tmin_ms, want);
			assert_int_equal(l.tmax_ms, want);
			assert_int_equal(l.t0_ms, want / 1000 * 1000);
			fio_log_release(&l);
		}
}

/*
 * Time stamps that repeat, come back with leading zeros, go back, or change length between lines (the time
 * stamp is converted only when its digits change).
 */
static void test_time_changes(void **state)
{
	static const char text[] = "5, 1, 0, 4096\n"
				   "5, 2, 0, 4096\n"
				   "0000005, 3, 0, 4096\n"
				   "12345678, 4, 1, 4096\n"
				   "12345678, 5, 1, 4096\n"
				   "5, 6, 0, 4096\n"
				   "1999, 7, 0, 4096\n"
				   "\n"
				   "1999, 8, 0, 4096\n"
				   "999, 9, 0, 4096\n"
				   "0012345678, 10, 1, 4096\n"
				   "5, 11, 0, 4096\n";
	struct fio_log l;

	(void)state;
	parse_ok(text, strlen(text), &l);
	assert_int_equal(l.lines, 11);
	assert_int_equal(l.tmin_ms, 5);
	assert_int_equal(l.tmax_ms, 12345678);
	assert_int_equal(l.nwin, 12346);
	assert_int_equal(l.win[0][0].n, 6); /* five at 5 (one written 0000005), one at 999 */
	assert_int_equal(l.win[0][0].sum, 1 + 2 + 3 + 6 + 9 + 11);
	assert_int_equal(l.win[1][0].n, 2);   /* 1999 twice */
	assert_int_equal(l.win[1][0].sum, 15);
	assert_int_equal(l.win[12345][1].n, 3);
	assert_int_equal(l.win[12345][1].sum, 19);
	fio_log_release(&l);
}

/* Totals of a generated log, the slow obvious way: lines, per direction n, sum, min, max. */
struct gen_totals {
	uint64_t lines, n[3], sum[3], min[3], max[3];
};

/* A log of `lines` lines in several shapes (so some go to the checked reader), with blank lines. */
static void gen_log(struct strbuf *sb, size_t lines, struct gen_totals *g)
{
	unsigned seed = 777;

	memset(g, 0, sizeof(*g));
	for (int d = 0; d < 3; d++)
		g->min[d] = UINT64_MAX;
	for (size_t i = 0; i < lines; i++) {
		unsigned d, r;
		uint64_t v;
		seed = seed * 1103515245u + 12345u;
		r = seed >> 8;
		d = r % 3;
		v = r % 7 == 0 ? (uint64_t)r * 100003u : r % 5000000; /* some of 8 digits and more */
		switch (r % 11) {
		case 0:
			strbuf_addf(sb, "%zu,%llu,%u,4096\r\n", i / 50, (unsigned long long)v, d);
			break;
		case 1:
			strbuf_addf(sb, "%zu, %llu, %u, 4096, %zu, 0\n\n", i / 50, (unsigned long long)v, d, i * 4096);
			break;
		default:
			strbuf_addf(sb, "%zu, %llu, %u, 4096, 0\n", i / 50, (unsigned long long)v, d);
		}
		g->lines++;
		g->n[d]++;
		g->sum[d] += v;
		g->min[d] = v < g->min[d] ? v : g->min[d];
		g->max[d] = v > g->max[d] ? v : g->max[d];
	}
}

static void check_totals(const struct fio_log *l, const struct gen_totals *g)
{
	assert_int_equal(l->lines, g->lines);
	for (int d = 0; d < 3; d++) {
		uint64_t n = 0, sum = 0;
		for (size_t k = 0; k < l->nwin; k++) {
			n += l->win[k][d].n;
			sum += l->win[k][d].sum;
		}
		assert_int_equal(n, g->n[d]);
		assert_int_equal(sum, g->sum[d]);
		assert_int_equal(l->min_v[d], g->min[d]);
		assert_int_equal(l->max_v[d], g->max[d]);
	}
}

/*
 * A log of several read chunks, from memory and from a file: lines cut at chunk ends, line numbers of an
 * error beyond the first chunk.
 */
static void test_chunks(void **state)
{
	struct strbuf sb;
	struct gen_totals g;
	struct fio_log l;
	struct errbuf err;
	char tmpl[] = "/tmp/test_fio_log_chunks.XXXXXX";
	char *dir = mkdtemp(tmpl), *path;
	size_t nl = 0;

	(void)state;
	assert_non_null(dir);
	strbuf_init(&sb);
	gen_log(&sb, 120000, &g);
	assert_true(sb.len > (2u << 20)); /* several chunks of 256 KiB */
	parse_ok(sb.buf, sb.len, &l);
	check_totals(&l, &g);
	fio_log_release(&l);
	path = xasprintf("%s/gen_clat.1.log", dir);
	tu_write_file(path, sb.buf);
	fio_log_init(&l);
	errbuf_init(&err);
	assert_int_equal(fio_log_parse_file(path, FIO_LOG_CLAT, 0, &l, &err), 0);
	check_totals(&l, &g);
	fio_log_release(&l);
	/* a bad line near the end: its number counts every line, blank ones too */
	for (size_t i = 0; i < sb.len; i++)
		nl += sb.buf[i] == '\n';
	strbuf_addf(&sb, "1, 2, 9, 4096\n");
	tu_write_file(path, sb.buf);
	fio_log_init(&l);
	errbuf_init(&err);
	assert_int_equal(fio_log_parse_file(path, FIO_LOG_CLAT, 0, &l, &err), -1);
	{
		char *want = xasprintf("%s:%zu: direction must be 0, 1 or 2", path, nl + 1);
		assert_true(!strncmp(err.msg, want, strlen(want)));
		free(want);
	}
	unlink(path);
	rmdir(dir);
	free(path);
	strbuf_release(&sb);
}

static void test_names(void **state)
{
	static const struct {
		const char *name;
		int kind;
	} cases[] = {
		{ "/x/job_lat.1.log", FIO_LOG_LAT },  { "job_clat.12.log", FIO_LOG_CLAT }, { "a_slat.log", FIO_LOG_SLAT },
		{ "fio_bw.3.log", FIO_LOG_BW },       { "fio_iops.1.log", FIO_LOG_IOPS },  { "fio_clat_hist.1.log", -1 },
		{ "results.json", -1 },               { "x_lat.1.log.gz", -1 },            { "my_lat.job_bw.2.log", FIO_LOG_BW },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(fio_log_kind_from_name(cases[i].name), cases[i].kind);
}

/* A run's log directory: two jobs' per-IO lat logs and one windowed bw log. */
static void test_collect_dir(void **state)
{
	char tmpl[] = "/tmp/test_fio_log.XXXXXX";
	char *dir = mkdtemp(tmpl), *p;
	struct run_result res;
	struct errbuf err;
	int found_lat = 0, found_bw = 0, found_iops = 0, found_hist = 0; /* counts */

	(void)state;
	assert_non_null(dir);
	p = xasprintf("%s/j_lat.1.log", dir);
	tu_write_file(p, "10, 1000, 0, 4096, 0\n20, 3000, 0, 4096, 0\n1500, 5000, 1, 4096, 0\n");
	free(p);
	p = xasprintf("%s/j_lat.2.log", dir);
	tu_write_file(p, "30, 2000, 0, 4096, 0\n");
	free(p);
	p = xasprintf("%s/j_bw.1.log", dir);
	tu_write_file(p, "1000, 100, 0, 0, 0\n1000, 50, 1, 0, 0\n");
	free(p);
	p = xasprintf("%s/j_clat_hist.1.log", dir);
	{
		/* one histogram line: 7 reads in fine bucket 200 (fio 3.x, log_hist_coarseness=0) */
		struct strbuf h;
		strbuf_init(&h);
		strbuf_addf(&h, "1003, 0, 4096");
		for (int b = 0; b < 1856; b++)
			strbuf_addf(&h, ", %d", b == 200 ? 7 : 0);
		strbuf_addf(&h, "\n");
		tu_write_file(p, h.buf);
		strbuf_release(&h);
	}
	free(p);
	p = xasprintf("%s/notes.txt", dir);
	tu_write_file(p, "not a log\n");
	free(p);
	run_result_init(&res);
	errbuf_init(&err);
	assert_int_equal(fio_log_collect_dir(dir, "h1", &res, &err), 3);
	for (size_t i = 0; i < res.nsamples; i++) {
		const struct sample *s = &res.samples[i];
		int j1 = !strcmp(s->job, "j.1"), j2 = !strcmp(s->job, "j.2");
		assert_string_equal(s->host, "h1");
		if (s->is_bin) { /* the histogram log: bucket 200 = group 3, [256 + 8 * 4, + 4) ns */
			assert_string_equal(s->metric, "clat_hist.read");
			assert_true(j1 && s->t_ms == 1003 && s->value == 7.0);
			assert_int_equal(s->bucket_lo_ns, 288);
			assert_int_equal(s->bucket_hi_ns, 292);
			found_hist++;
			continue;
		}
		assert_true(j1 || j2); /* per job, never summed on collection */
		if (!strcmp(s->metric, "lat_ns.read") && s->t_ms == 1000) { /* per-IO: stamped at the interval's end */
			assert_true(s->value == (j1 ? 2000.0 : 2000.0)); /* (1000 + 3000) / 2; 2000 */
			assert_int_equal(s->window_ms, 1000);
			found_lat++;
		}
		if (!strcmp(s->metric, "bw_bytes.read")) {
			/* job 1: its bw log, not derived bandwidth; job 2 has none: derived from its lat log */
			assert_true(s->t_ms == 1000 && s->value == (j1 ? 100 * 1024.0 : 4096.0));
			found_bw += j1;
		}
		if (!strcmp(s->metric, "iops.read") && s->t_ms == 1000) {
			assert_true(s->value == (j1 ? 2.0 : 1.0)); /* ... IOPS derived from each job's per-IO lat log */
			found_iops++;
		}
	}
	assert_int_equal(found_lat, 2);
	assert_int_equal(found_bw, 1);
	assert_int_equal(found_iops, 2);
	assert_int_equal(found_hist, 1);
	run_result_release(&res);
	{
		const char *names[] = { "j_lat.1.log", "j_lat.2.log", "j_bw.1.log", "j_clat_hist.1.log", "notes.txt" };
		for (size_t i = 0; i < 5; i++) {
			p = xasprintf("%s/%s", dir, names[i]);
			unlink(p);
			free(p);
		}
		rmdir(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),   cmocka_unit_test(test_fixtures), cmocka_unit_test(test_per_io),
		cmocka_unit_test(test_bad_lines), cmocka_unit_test(test_names),    cmocka_unit_test(test_collect_dir),
		cmocka_unit_test(test_scanner_edges), cmocka_unit_test(test_time_changes), cmocka_unit_test(test_chunks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
