/*
 * test_export: the renderers of `bench export` (export/export.h): the line-protocol and OpenMetrics
 * escapers on a table of hostile strings, metric and label name sanitising, ISO 8601 times, and whole
 * outputs of a known run with samples compared line by line (timestamps = started_at + t_ms, NAN figures
 * left out, label keys that clash with bench's own tags renamed, Pushgateway mode without timestamps).
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

#include "export/export.h"
#include "testutil.h"

struct esc_case {
	const char *in, *lp_key, *lp_meas, *om;
};

static void test_escapers(void **state)
{
	(void)state;
	static const struct esc_case cases[] = {
		{ "plain", "plain", "plain", "plain" },
		{ "a b", "a\\ b", "a\\ b", "a b" },
		{ "a,b=c", "a\\,b\\=c", "a\\,b=c", "a,b=c" },
		{ "q\"uote", "q\"uote", "q\"uote", "q\\\"uote" },
		{ "new\nline", "new\\nline", "new\\nline", "new\\nline" },
		{ "back\\slash", "back\\\\slash", "back\\\\slash", "back\\\\slash" },
		{ "end\\", "end\\\\", "end\\\\", "end\\\\" },
		{ "<script>alert(1)</script>", "<script>alert(1)</script>", "<script>alert(1)</script>",
		  "<script>alert(1)</script>" },
		{ "", "", "", "" },
		/* invalid UTF-8 (bytes that start nothing, a cut-short sequence): U+FFFD per byte; valid kept */
		{ "v\xff\xfe,\xe2\x82", "v\xef\xbf\xbd\xef\xbf\xbd\\,\xef\xbf\xbd\xef\xbf\xbd",
		  "v\xef\xbf\xbd\xef\xbf\xbd\\,\xef\xbf\xbd\xef\xbf\xbd",
		  "v\xef\xbf\xbd\xef\xbf\xbd,\xef\xbf\xbd\xef\xbf\xbd" },
		{ "caf\xc3\xa9 \xc0\xaf", "caf\xc3\xa9\\ \xef\xbf\xbd\xef\xbf\xbd",
		  "caf\xc3\xa9\\ \xef\xbf\xbd\xef\xbf\xbd", "caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd" },
		/* control characters but tab dropped (a raw CR would end an OpenMetrics line for some parsers) */
		{ "a\x01\tb\r", "a\tb\\r", "a\tb\\r", "a\tb" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf a, b, c;
		strbuf_init(&a);
		strbuf_init(&b);
		strbuf_init(&c);
		export_esc_lp_key(&a, cases[i].in);
		export_esc_lp_measurement(&b, cases[i].in);
		export_esc_om_value(&c, cases[i].in);
		assert_string_equal(a.buf, cases[i].lp_key);
		assert_string_equal(b.buf, cases[i].lp_meas);
		assert_string_equal(c.buf, cases[i].om);
		strbuf_release(&a);
		strbuf_release(&b);
		strbuf_release(&c);
	}
}

static void test_names(void **state)
{
	(void)state;
	static const char *const cases[][3] = {
		/* in, metric name, label name */
		{ "iops.read", "iops_read", "iops_read" },
		{ "lat_ns:p99", "lat_ns:p99", "lat_ns_p99" },
		{ "9lives", "_9lives", "_9lives" },
		{ "x.y-z", "x_y_z", "x_y_z" },
		{ "", "_", "_" },
		{ "sp ace\"q", "sp_ace_q", "sp_ace_q" },
		{ "caf\xc3\xa9", "caf_", "caf_" },          /* one '_' per character */
		{ "k\xff\xfe\xe2\x82", "k____", "k____" }, /* and per invalid byte */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf m, l;
		strbuf_init(&m);
		strbuf_init(&l);
		export_om_name(&m, cases[i][0], 0);
		export_om_name(&l, cases[i][0], 1);
		assert_string_equal(m.buf, cases[i][1]);
		assert_string_equal(l.buf, cases[i][2]);
		strbuf_release(&m);
		strbuf_release(&l);
	}
}

static void test_times(void **state)
{
	(void)state;
	int64_t ms;

	assert_int_equal(export_parse_time_ms("1970-01-01T00:00:01.5Z", &ms), 0);
	assert_int_equal(ms, 1500);
	assert_int_equal(export_parse_time_ms("2026-12-01T20:36:03.123Z", &ms), 0);
	assert_int_equal(ms, 1796157363123LL);
	assert_int_equal(export_parse_time_ms("2026-12-01T20:36:03", &ms), 0);
	assert_int_equal(ms, 1796157363000LL);
	assert_int_equal(export_parse_time_ms("2026-12-01 20:36:03", &ms), -1);
	assert_int_equal(export_parse_time_ms("2026-13-01T20:36:03Z", &ms), -1);
	assert_int_equal(export_parse_time_ms("2026-12-01T20:36:03.Z", &ms), -1);
	assert_int_equal(export_parse_time_ms("2026-12-01T20:36:03Zjunk", &ms), -1);
	assert_int_equal(export_parse_time_ms(NULL, &ms), -1);
}

/* One run (id 7) with a hostile label and a label that clashes with a tag; two samples. */
static void one_run(struct rep_set *set, struct admin_sample_list *samples)
{
	struct rep_run *r;

	rep_set_init(set);
	ARRAY_GROW(set->v, set->cap, 1);
	r = &set->v[set->n++];
	memset(r, 0, sizeof(*r));
	kvlist_init(&r->labels);
	for (int m = 0; m < RM_NR; m++)
		r->m[m] = NAN;
	r->id = 7;
	r->suite_id = 2;
	r->suite = xstrdup("s,1");
	r->name = xstrdup("fio 4k");
	r->status = xstrdup("done");
	r->engine = xstrdup("fio");
	r->started_at = xstrdup("1970-01-01T00:00:10.000Z");
	r->identity = xstrdup("bs=4096");
	r->repetition = 1;
	r->target_cpu_pct = NAN;
	r->m[RM_IOPS] = 1500.5;
	r->m[RM_RP99] = 0.25;
	kvlist_add(&r->labels, "host", "h1");
	kvlist_add(&r->labels, "stack", "a\"b\nc <x>,=");
	admin_sample_list_init(samples);
	ARRAY_GROW(samples->v, samples->cap, 2);
	samples->v[0] = (struct admin_sample){ xstrdup("*"), xstrdup("iops.read"), 0, 100 };
	samples->v[1] = (struct admin_sample){ xstrdup("*"), xstrdup("iops.read"), 1500, 0.1 };
	samples->n = 2;
}

static char *render(enum export_format f, unsigned flags, size_t *points)
{
	struct rep_set set;
	struct admin_sample_list samples;
	struct strbuf out;
	struct errbuf err;

	one_run(&set, &samples);
	strbuf_init(&out);
	errbuf_init(&err);
	assert_int_equal(export_render(f, &set, &samples, flags, &out, points, &err), 0);
	rep_set_release(&set);
	admin_sample_list_release(&samples);
	return strbuf_detach(&out, NULL);
}

static void test_influx(void **state)
{
	(void)state;
	size_t n;
	char *s = render(EXPORT_INFLUX, 0, &n);

	assert_int_equal(n, 3);
	assert_string_equal(s,
		"bench_run,run=7,suite=s\\,1,workload=fio\\ 4k,status=done,engine=fio,label_host=h1,"
		"stack=a\"b\\nc\\ <x>\\,\\= repetition=1i,iops=1500.5,read_p99_ms=0.25 10000000000\n"
		"bench_sample,run=7,suite=s\\,1,workload=fio\\ 4k,label_host=h1,stack=a\"b\\nc\\ <x>\\,\\=,host=*,"
		"metric=iops.read value=100 10000000000\n"
		"bench_sample,run=7,suite=s\\,1,workload=fio\\ 4k,label_host=h1,stack=a\"b\\nc\\ <x>\\,\\=,host=*,"
		"metric=iops.read value=0.1 11500000000\n");
	free(s);
	s = render(EXPORT_INFLUX, EXPORT_NO_SAMPLES, &n);
	assert_int_equal(n, 1);
	free(s);
}

static void test_openmetrics(void **state)
{
	(void)state;
	size_t n;
	char *s = render(EXPORT_OPENMETRICS, 0, &n);
	const char *labels = "run=\"7\",suite=\"s,1\",workload=\"fio 4k\"";

	assert_int_equal(n, 5);
	assert_non_null(strstr(s, "# TYPE bench_iops gauge\n"));
	{
		char want[512];
		snprintf(want, sizeof(want), "bench_iops{%s,status=\"done\",engine=\"fio\",label_host=\"h1\","
			 "stack=\"a\\\"b\\nc <x>,=\"} 1500.5 10.000\n", labels);
		assert_non_null(strstr(s, want));
		snprintf(want, sizeof(want), "bench_sample_iops_read{%s,host=\"*\",metric=\"iops.read\","
			 "label_host=\"h1\",stack=\"a\\\"b\\nc <x>,=\"} 0.1 11.500\n", labels);
		assert_non_null(strstr(s, want));
	}
	assert_non_null(strstr(s, "bench_run_started_seconds{"));
	assert_null(strstr(s, "bench_mbps")); /* NAN figures are left out */
	assert_int_equal(strcmp(s + strlen(s) - 6, "# EOF\n"), 0);
	free(s);
	/* for a Pushgateway: no timestamps, no samples */
	s = render(EXPORT_OPENMETRICS, EXPORT_NO_TIMESTAMPS, &n);
	assert_int_equal(n, 3);
	assert_null(strstr(s, "bench_sample"));
	assert_non_null(strstr(s, ",stack=\"a\\\"b\\nc <x>,=\"} 1500.5\n"));
	free(s);
}

static void test_csv_json(void **state)
{
	(void)state;
	size_t n;
	char *s = render(EXPORT_CSV, 0, &n);

	assert_int_equal(n, 1);
	assert_non_null(strstr(s, ",label:host,label:stack\n7,\"s,1\",fio 4k,done,fio,"));
	assert_non_null(strstr(s, ",h1,\"a\"\"b\nc <x>,=\"\n"));
	free(s);
	s = render(EXPORT_CSV, EXPORT_SAMPLES_ONLY, &n);
	assert_int_equal(n, 2);
	assert_non_null(strstr(s, "7,\"s,1\",fio 4k,*,iops.read,1500,11500,0.1\n"));
	free(s);
	s = render(EXPORT_JSON, 0, &n);
	assert_int_equal(n, 3);
	assert_non_null(strstr(s, "\"stack\":\"a\\\"b\\nc \\u003cx\\u003e,=\""));
	assert_non_null(strstr(s, "\"mbps\":null"));
	assert_non_null(strstr(s, "{\"host\":\"*\",\"metric\":\"iops.read\",\"t_ms\":1500,\"time_ms\":11500,\"value\":0.1}"));
	free(s);
}

static void test_bad_time(void **state)
{
	(void)state;
	struct rep_set set;
	struct admin_sample_list samples;
	struct strbuf out;
	struct errbuf err;
	size_t n;

	one_run(&set, &samples);
	free(set.v[0].started_at);
	set.v[0].started_at = xstrdup("yesterday");
	strbuf_init(&out);
	errbuf_init(&err);
	assert_int_equal(export_render(EXPORT_INFLUX, &set, &samples, 0, &out, &n, &err), -1);
	assert_int_equal(err.kind, ERR_INPUT);
	assert_string_equal(err.msg, "run 7: started_at 'yesterday' is not an ISO 8601 UTC time");
	/* csv of runs needs no time */
	strbuf_reset(&out);
	assert_int_equal(export_render(EXPORT_CSV, &set, &samples, 0, &out, &n, &err), 0);
	strbuf_release(&out);
	rep_set_release(&set);
	admin_sample_list_release(&samples);
}

TU_MAIN(cmocka_unit_test(test_escapers), cmocka_unit_test(test_names), cmocka_unit_test(test_times),
	cmocka_unit_test(test_influx), cmocka_unit_test(test_openmetrics), cmocka_unit_test(test_csv_json),
	cmocka_unit_test(test_bad_time))
