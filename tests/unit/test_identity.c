/*
 * test_identity: the workload identity (core/identity.c): equal workloads give byte-equal identities however
 * their options were written, every option that changes the load separates two workloads, options that do
 * not (names, files, logs, duration) do not, and the items come sorted with normalised values. Workloads are
 * built as bench builds them: fio options through the normaliser (core/fio_options.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/fio_options.h"
#include "core/identity.h"
#include "core/spec_json.h"
#include "core/strbuf.h"

/* A fio workload from "k=v k2=v2 flag". */
static void wl_from(struct workload *w, const char *text)
{
	char *copy = xstrdup(text), *save = NULL;
	struct errbuf e;

	workload_init(w);
	w->tool = xstrdup("fio");
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		if (eq)
			*eq = '\0';
		kvlist_add(&w->opts, t, eq ? eq + 1 : NULL);
	}
	free(copy);
	errbuf_init(&e);
	if (fio_options_normalise(&w->opts, NULL, "t", 1, 0, w, &e) < 0)
		fail_msg("'%s': %s", text, e.msg);
}

static char *id_of(const char *text)
{
	struct workload w;
	char *id;

	wl_from(&w, text);
	id = workload_identity(&w);
	workload_release(&w);
	return id;
}

/* Two workloads, as fio option strings. */
struct pair {
	const char *a, *b;
};

/* Option strings that are one workload. */
static const struct pair same[] = {
	{ "bs=4k", "bs=4096" },
	{ "bs=4k", "blocksize=4K" },
	{ "bs=4k", "" },                                  /* fio's default block size */
	{ "kb_base=1000 bs=4KiB", "bs=4k" },
	{ "bs=4KiB", "bs=4000" },
	{ "rw=readwrite", "rw=rw" },
	{ "readwrite=randrw rwmixread=70", "rw=randrw rwmixwrite=30" },
	{ "rw=randread:1", "rw=randread" },
	{ "rate_iops=15k", "rate_iops=15360" },
	{ "rate_iops=0", "" },
	{ "rate_iops=1000,1000,1000", "rate_iops=1000" },
	{ "thinktime=1m", "thinktime=60000000" },
	{ "direct=1", "buffered=0" },
	{ "direct", "direct=1" },
	{ "direct=0", "" },
	{ "ioengine=psync", "" },
	{ "verify=0", "" },
	{ "bssplit=4k:64k", "bssplit=64k/50:4k/50" },
	{ "rw=randread percentage_random=50,50", "rw=randread percentage_random=50" },
	{ "size=1g", "size=1024m" },
	{ "iodepth=32 numjobs=4", "numjobs=4 iodepth=32" },
	{ "name=a filename=/dev/x runtime=60 ramp_time=5 time_based group_reporting write_lat_log=l "
	  "log_avg_msec=1000 output=o.json percentile_list=99 bench.label.stack=zfs",
	  "name=b filename=/tmp/y runtime=10" },
	{ "iodepth=8 iodepth=16", "iodepth=16" },         /* the last occurrence wins */
	{ "rate_iops=5000 rate_iops=0", "" },
};

/* Option strings that are different workloads. */
static const struct pair differ[] = {
	{ "bs=4k", "bs=8k" },
	{ "bs=4k", "bs=4KiB" },
	{ "bs=4k,64k", "bs=4k" },
	{ "rw=randread", "rw=read" },
	{ "rw=randread:8", "rw=randread" },
	{ "rw=randrw rwmixread=70", "rw=randrw" },
	{ "rw=randread percentage_random=50", "rw=randread" },
	{ "rw=randrw percentage_random=80,40", "rw=randrw percentage_random=40,80" },
	{ "rate_iops=15k", "rate_iops=15000" },
	{ "rate_iops=15000", "" },
	{ "rate=100m", "" },
	{ "thinktime=100", "" },
	{ "verify=crc32c", "" },
	{ "fsync=1", "" },
	{ "direct=1", "" },
	{ "buffer_compress_percentage=50", "" },
	{ "dedupe_percentage=30", "" },
	{ "iodepth=32", "iodepth=16" },
	{ "numjobs=4", "" },
	{ "size=1g", "size=2g" },
	{ "size=50%", "" },
	{ "ioengine=libaio", "ioengine=io_uring" },
	{ "ioengine=libaio", "" },
	{ "bssplit=4k/30:64k/70", "bssplit=4k/70:64k/30" },
	{ "some_future_option=1", "" },                   /* unknown: never folded */
};

/* Each of the N pairs P must have one identity (SAME) or two. */
static void check_pairs(const struct pair *p, size_t n, int want_same)
{
	for (size_t i = 0; i < n; i++) {
		char *a = id_of(p[i].a), *b = id_of(p[i].b);
		if (want_same && strcmp(a, b))
			fail_msg("'%s' and '%s' should be one workload:\n  %s\n  %s", p[i].a, p[i].b, a, b);
		if (!want_same && !strcmp(a, b))
			fail_msg("'%s' and '%s' should differ, both %s", p[i].a, p[i].b, a);
		free(a);
		free(b);
	}
}

static void test_equal(void **state)
{
	(void)state;
	check_pairs(same, sizeof(same) / sizeof(same[0]), 1);
}

static void test_differ(void **state)
{
	(void)state;
	check_pairs(differ, sizeof(differ) / sizeof(differ[0]), 0);
}


static void test_items(void **state)
{
	struct workload w;
	struct kvlist kv;
	char *id;

	(void)state;
	wl_from(&w, "name=x rw=randrw rwmixread=70 bs=4KiB iodepth=8 rate_iops=15k thinktime=2ms direct=1 "
		    "filename=/dev/null ioengine=libaio");
	kvlist_init(&kv);
	workload_identity_kv(&w, &kv);
	for (size_t i = 1; i < kv.n; i++)
		if (strcmp(kv.v[i - 1].key, kv.v[i].key) >= 0)
			fail_msg("items not sorted: %s before %s", kv.v[i - 1].key, kv.v[i].key);
	assert_string_equal(kvlist_get(&kv, "rate_iops", "-"), "15360");
	assert_string_equal(kvlist_get(&kv, "thinktime", "-"), "2000");
	assert_string_equal(kvlist_get(&kv, "bs", "-"), "4000");
	assert_string_equal(kvlist_get(&kv, "read_pct", "-"), "70");
	assert_string_equal(kvlist_get(&kv, "direct", "-"), "1");
	assert_string_equal(kvlist_get(&kv, "ioengine", "-"), "libaio");
	assert_null(kvlist_find(&kv, "name"));
	assert_null(kvlist_find(&kv, "filename"));
	assert_null(kvlist_find(&kv, "rwmixread")); /* carried by read_pct */
	id = workload_identity(&w);
	assert_string_equal(id, "bs=4000|direct=1|iodepth=8|ioengine=libaio|numjobs=1|random_pct=100|rate_iops=15360|"
				"read_pct=70|rw=randrw|thinktime=2000|tool=fio");
	free(id);
	kvlist_release(&kv);
	workload_release(&w);
}

/* The identity without the load level (what a curve's or sweep's runs share), per job of a run of several. */
static void test_except(void **state)
{
	static const char *const level[] = { "iodepth", "numjobs", "rate_iops", "rate", NULL };
	struct run_spec a, b;
	char *ia, *ib, *full;

	(void)state;
	run_spec_init(&a);
	run_spec_init(&b);
	workload_release(&a.wl);
	workload_release(&b.wl);
	wl_from(&a.wl, "rw=randread bs=4k iodepth=1 rate_iops=500 iodepth_batch=4");
	wl_from(&b.wl, "rw=randread bs=4k iodepth=32 numjobs=2 iodepth_batch=4");
	ia = run_spec_identity_except(&a, level);
	ib = run_spec_identity_except(&b, level);
	assert_string_equal(ia, ib);
	assert_non_null(strstr(ia, "iodepth_batch=4")); /* not a load-level item: stays */
	assert_null(strstr(ia, "rate_iops="));
	assert_null(strstr(ia, "|iodepth="));
	full = run_spec_identity(&a);
	assert_string_not_equal(full, ia);
	free(full);
	free(ia);
	free(ib);
	/* NULL drops nothing */
	ia = run_spec_identity_except(&a, NULL);
	full = run_spec_identity(&a);
	assert_string_equal(ia, full);
	free(ia);
	free(full);
	run_spec_release(&a);
	run_spec_release(&b);
}

/* A workload known only by its fields (CSV import, an old stored run) equals the fio job of that shape; a
 * copy and a stored-and-read spec keep the identity byte for byte. */
static void test_fields_and_store(void **state)
{
	struct workload w, fields;
	struct run_spec spec, back;
	struct errbuf e;
	char *a, *b, *json;

	(void)state;
	wl_from(&w, "rw=randread bs=8k iodepth=4 size=1g rate_iops=500 name=j");
	workload_init(&fields);
	fields.tool = xstrdup("fio");
	fields.rw = xstrdup("randread");
	fields.bs_bytes = 8192;
	fields.read_pct = 100;
	fields.random_pct = 100;
	fields.iodepth = 4;
	fields.numjobs = 1;
	fields.size = xstrdup("1g");
	a = workload_identity(&w);
	b = workload_identity(&fields);
	assert_string_not_equal(a, b); /* rate_iops is only in the options */
	free(b);
	kvlist_add(&fields.opts, "rate_iops", "500");
	b = workload_identity(&fields);
	assert_string_equal(a, b);
	free(b);

	run_spec_init(&spec);
	spec.name = xstrdup("j");
	workload_release(&spec.wl);
	workload_copy(&spec.wl, &w);
	b = workload_identity(&spec.wl);
	assert_string_equal(a, b);
	free(b);
	spec.started_at = xstrdup("2026-12-01T20:34:51.950Z");
	json = run_spec_to_json(&spec);
	errbuf_init(&e);
	assert_int_equal(run_spec_from_json(json, &back, &e), 0);
	b = workload_identity(&back.wl);
	assert_string_equal(a, b);
	assert_string_equal(back.started_at, "2026-12-01T20:34:51.950Z");
	assert_null(back.finished_at);
	free(b);
	free(json);
	run_spec_release(&back);
	/* a spec stored before the times existed still reads */
	assert_int_equal(run_spec_from_json("{\"name\":\"old\",\"workload\":{\"tool\":\"fio\",\"rw\":\"read\","
					    "\"bs_bytes\":4096,\"read_pct\":100,\"random_pct\":0}}", &back, &e), 0);
	assert_null(back.started_at);
	b = workload_identity(&back.wl);
	assert_string_equal(b, "bs=4096|iodepth=1|numjobs=1|random_pct=0|read_pct=100|rw=read|tool=fio");
	free(b);
	free(a);
	run_spec_release(&back);
	run_spec_release(&spec);
	workload_release(&fields);
	workload_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_differ),
		cmocka_unit_test(test_items),
		cmocka_unit_test(test_except),
		cmocka_unit_test(test_fields_and_store),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
