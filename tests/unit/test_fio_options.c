/*
 * test_fio_options: the fio-option normaliser (core/fio_options.c) against fio 3.33's own readings. The
 * expected values were taken from fio itself (`fio --debug=parse --parse-only`, and runs with ioengine=null
 * counting total_ios): bs=4KiB gives 4000 with the default kb_base=1024 and 4096 with kb_base=1000,
 * bs=1.5k gives 1 byte (fio stops at the '.'), rate_iops=15k gives 15360, thinktime=1m 60000000 us.
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
#include "core/strbuf.h"
#include "testutil.h"

/* A number as fio reads it: the text, the base (kb_base of a size, the unit of a bare time in microseconds),
 * the flags, the result wanted and, when that is not -1, the value. */
struct num_case {
	const char *s;
	uint64_t base;
	unsigned flags;
	int rc;
	uint64_t v;
};

static const struct num_case size_cases[] = {
	/* not a size at all */
	{ "", 1024, 0, -1, 0 },
	{ "k", 1024, 0, -1, 0 },
	{ "-4k", 1024, 0, -1, 0 },
	{ "99999999999999999999", 1024, 0, -1, 0 },
	{ "20000000p", 1024, 0, -1, 0 },
	{ "4096", 1024, FIO_OPT_STRICT, 0, 4096 },
	{ "4k", 1024, FIO_OPT_STRICT, 0, 4096 },
	{ "4K", 1024, FIO_OPT_STRICT, 0, 4096 },
	{ "4kb", 1024, FIO_OPT_STRICT, 0, 4096 },
	{ "4KB", 1024, FIO_OPT_STRICT, 0, 4096 },
	{ "4KiB", 1024, FIO_OPT_STRICT, 0, 4000 },   /* fio's compatibility mode: IEC means 1000 */
	{ "4kib", 1024, FIO_OPT_STRICT, 0, 4000 },
	{ "4k", 1000, FIO_OPT_STRICT, 0, 4000 },
	{ "4kB", 1000, FIO_OPT_STRICT, 0, 4000 },
	{ "4KiB", 1000, FIO_OPT_STRICT, 0, 4096 },
	{ "1m", 1024, FIO_OPT_STRICT, 0, 1048576 },
	{ "1MiB", 1024, FIO_OPT_STRICT, 0, 1000000 },
	{ "2g", 1024, FIO_OPT_STRICT, 0, 2147483648ULL },
	{ "1t", 1000, FIO_OPT_STRICT, 0, 1000000000000ULL },
	{ "1p", 1024, FIO_OPT_STRICT, 0, 1125899906842624ULL },
	{ "0x1000", 1024, FIO_OPT_STRICT, 0, 4096 },
	{ "512b", 1024, FIO_OPT_STRICT, 0, 512 },
	{ "1536", 1024, FIO_OPT_STRICT, 0, 1536 },
	{ "50%", 1024, FIO_OPT_STRICT, 1, 50 },
	/* what fio misreads: refused when planning, read as fio read it when importing */
	{ "1.5k", 1024, FIO_OPT_STRICT, -1, 0 },
	{ "1.5k", 1024, 0, 0, 1 },
	{ "1.5KiB", 1024, 0, 0, 1 },
	{ "4kx", 1024, FIO_OPT_STRICT, -1, 0 },
	{ "4kx", 1024, 0, 0, 4096 },
	{ "4q", 1024, FIO_OPT_STRICT, -1, 0 },
	{ "4q", 1024, 0, 0, 4 },
};

static const struct num_case time_cases[] = {
	{ "60", 1000000, FIO_OPT_STRICT, 0, 60000000ULL },
	{ "90s", 1000000, FIO_OPT_STRICT, 0, 90000000ULL },
	{ "2m", 1000000, FIO_OPT_STRICT, 0, 120000000ULL },
	{ "1h", 1000000, FIO_OPT_STRICT, 0, 3600000000ULL },
	{ "1d", 1000000, FIO_OPT_STRICT, 0, 86400000000ULL },
	{ "500ms", 1000000, FIO_OPT_STRICT, 0, 500000ULL },
	{ "500msec", 1000000, FIO_OPT_STRICT, 0, 500000ULL },
	{ "250us", 1000000, FIO_OPT_STRICT, 0, 250ULL },
	{ "100", 1, FIO_OPT_STRICT, 0, 100ULL },          /* thinktime: microseconds */
	{ "1m", 1, FIO_OPT_STRICT, 0, 60000000ULL },
	{ "10sec", 1000000, FIO_OPT_STRICT, -1, 0 },   /* fio: an unknown unit is microseconds */
	{ "10sec", 1000000, 0, 0, 10ULL },
	{ "1.5s", 1000000, FIO_OPT_STRICT, -1, 0 },
	{ "", 1000000, 0, -1, 0 },
	{ "s", 1000000, 0, -1, 0 },
};

static int size_at(const char *s, uint64_t kb_base, unsigned flags, uint64_t *out)
{
	return fio_opt_size(s, (unsigned)kb_base, flags, out);
}

/* WHAT (size, time): PARSE gives each of the N cases C its result and value. */
static void check_numbers(const char *what, const struct num_case *c, size_t n,
			  int (*parse)(const char *, uint64_t, unsigned, uint64_t *))
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 0;
		int rc = parse(c[i].s, c[i].base, c[i].flags, &v);
		if (rc != c[i].rc || (rc >= 0 && v != c[i].v))
			fail_msg("%s '%s' base=%llu flags=%u: rc %d value %llu, want %d %llu", what, c[i].s,
				 (unsigned long long)c[i].base, c[i].flags, rc, (unsigned long long)v, c[i].rc,
				 (unsigned long long)c[i].v);
	}
}

static void test_sizes(void **state)
{
	(void)state;
	check_numbers("size", size_cases, sizeof(size_cases) / sizeof(size_cases[0]), size_at);
}


/* Options from "k=v k2=v2 flag" (one blank between). */
static void opts_from(struct kvlist *l, const char *text)
{
	char *copy = xstrdup(text), *save = NULL;

	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		if (eq) {
			*eq = '\0';
			kvlist_add(l, t, eq + 1);
		} else {
			kvlist_add(l, t, NULL);
		}
	}
	free(copy);
}

static void test_times(void **state)
{
	(void)state;
	check_numbers("time", time_cases, sizeof(time_cases) / sizeof(time_cases[0]), fio_opt_time_us);
}

static void test_normalise(void **state)
{
	static const struct {
		const char *opts;
		const char *rw;
		uint64_t bs;
		const char *bssplit;
		int read_pct, random_pct;
		unsigned iodepth, numjobs, runtime_s;
	} cases[] = {
		{ "", "read", 4096, NULL, 100, 0, 1, 1, 0 },
		{ "bs=4KiB", "read", 4000, NULL, 100, 0, 1, 1, 0 },
		{ "kb_base=1000 bs=4KiB", "read", 4096, NULL, 100, 0, 1, 1, 0 },
		{ "bs=4KiB kb_base=1000", "read", 4096, NULL, 100, 0, 1, 1, 0 }, /* fio parses kb_base first */
		{ "kb_base=1000 bs=4k", "read", 4000, NULL, 100, 0, 1, 1, 0 },
		{ "bs=4k bs=8k", "read", 8192, NULL, 100, 0, 1, 1, 0 },           /* the last one wins */
		{ "blocksize=16k", "read", 16384, NULL, 100, 0, 1, 1, 0 },
		{ "rw=write bs=4k,64k", "write", 65536, NULL, 0, 0, 1, 1, 0 },   /* the write size of a write job */
		{ "rw=randrw bs=4k,64k", "randrw", 4096, NULL, 50, 100, 1, 1, 0 },
		{ "rw=randrw rwmixread=70", "randrw", 4096, NULL, 70, 100, 1, 1, 0 },
		{ "rw=randrw rwmixwrite=30", "randrw", 4096, NULL, 70, 100, 1, 1, 0 },
		{ "rw=randrw rwmixread=70 rwmixwrite=10", "randrw", 4096, NULL, 90, 100, 1, 1, 0 },
		{ "bs=8k bssplit=4k:64k", "read", 8192, "4k:64k", 100, 0, 1, 1, 0 },
		{ "rw=rw", "rw", 4096, NULL, 50, 0, 1, 1, 0 },
		{ "rw=readwrite rwmixread=80", "rw", 4096, NULL, 80, 0, 1, 1, 0 },
		{ "readwrite=randwrite", "randwrite", 4096, NULL, 0, 100, 1, 1, 0 },
		{ "rw=randread:8", "randread", 4096, NULL, 100, 100, 1, 1, 0 },
		{ "rw=randread percentage_random=50,50", "randread", 4096, NULL, 100, 50, 1, 1, 0 },
		{ "rw=randrw percentage_random=80,40", "randrw", 4096, NULL, 50, 60, 1, 1, 0 },
		{ "rw=randwrite percentage_random=80,40", "randwrite", 4096, NULL, 0, 40, 1, 1, 0 },
		{ "rw=write percentage_random=50", "write", 4096, NULL, 0, 0, 1, 1, 0 },
		{ "bssplit=4k/50:64k/50", "read", 0, "4k/50:64k/50", 100, 0, 1, 1, 0 },
		{ "bssplit=4k:64k", "read", 0, "4k:64k", 100, 0, 1, 1, 0 },
		{ "iodepth=32 numjobs=4 runtime=2m ramp_time=5", "read", 4096, NULL, 100, 0, 32, 4, 120 },
		{ "iodepth=1k timeout=500ms", "read", 4096, NULL, 100, 0, 1024, 1, 1 },
		{ "rw=trim", "trim", 4096, NULL, 0, 0, 1, 1, 0 },
		{ "rw=randtrim bs=4k,8k,16k", "randtrim", 16384, NULL, 0, 100, 1, 1, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct workload w;
		struct kvlist o;
		struct errbuf e;

		workload_init(&w);
		kvlist_init(&o);
		errbuf_init(&e);
		opts_from(&o, cases[i].opts);
		if (fio_options_normalise(&o, NULL, "t.fio", 3, FIO_OPT_STRICT, &w, &e) < 0)
			fail_msg("'%s': %s", cases[i].opts, e.msg);
		if (strcmp(w.rw, cases[i].rw) || w.bs_bytes != cases[i].bs || w.read_pct != cases[i].read_pct ||
		    w.random_pct != cases[i].random_pct || w.iodepth != cases[i].iodepth ||
		    w.numjobs != cases[i].numjobs || w.runtime_s != cases[i].runtime_s ||
		    (cases[i].bssplit ? !w.bssplit || strcmp(w.bssplit, cases[i].bssplit) : w.bssplit != NULL))
			fail_msg("'%s': rw %s bs %llu bssplit %s read %d random %d iodepth %u numjobs %u runtime %u",
				 cases[i].opts, w.rw, (unsigned long long)w.bs_bytes, w.bssplit ? w.bssplit : "-",
				 w.read_pct, w.random_pct, w.iodepth, w.numjobs, w.runtime_s);
		workload_release(&w);
		kvlist_release(&o);
	}
}

/* What bench refuses in a plan, with the option's own place (file:line from the locations). */
static void test_errors(void **state)
{
	static const struct {
		const char *opts;
		const char *msg;
	} cases[] = {
		{ "bs=1.5k", "b.fio:12: 'bs' is not a block size fio reads" },
		{ "bs=0", "b.fio:12: 'bs' is not a block size" },
		{ "rw=randomread", "b.fio:12: 'rw' must be one of" },
		{ "rw=randread:x", "b.fio:12: 'rw' must be one of" },
		{ "rwmixread=170", "b.fio:12: 'rwmixread' must be 0..100, got '170'" },
		{ "rwmixwrite=-1", "b.fio:12: 'rwmixwrite' must be 0..100" },
		{ "rw=randrw percentage_random=50,150", "b.fio:13: 'percentage_random' must be 0..100" },
		{ "iodepth=0", "b.fio:12: 'iodepth' must be a whole number >= 1, got '0'" },
		{ "numjobs=two", "b.fio:12: 'numjobs' must be a whole number >= 1" },
		{ "runtime=10sec", "b.fio:12: 'runtime' is not a time fio reads" },
		{ "size=lots", "b.fio:12: 'size' is not a size fio reads" },
		{ "bssplit=4k/50:64k/60", "b.fio:12: 'bssplit' is not a split fio reads" },
		{ "bssplit=4k/x", "b.fio:12: 'bssplit' is not a split" },
		{ "buffer_compress_percentage=101", "b.fio:12: 'buffer_compress_percentage' must be 0..100" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct workload w;
		struct kvlist o;
		struct errbuf e;
		const char *files[4] = { "b.fio", "b.fio", "b.fio", "b.fio" };
		const int lines[4] = { 12, 13, 14, 15 };
		struct fio_opt_locs locs = { files, lines, 4 };

		workload_init(&w);
		kvlist_init(&o);
		errbuf_init(&e);
		opts_from(&o, cases[i].opts);
		locs.n = o.n;
		if (fio_options_normalise(&o, &locs, "b.fio", 1, FIO_OPT_STRICT, &w, &e) == 0)
			fail_msg("'%s' was accepted", cases[i].opts);
		if (!strstr(e.msg, cases[i].msg))
			fail_msg("'%s': message '%s', want '%s'", cases[i].opts, e.msg, cases[i].msg);
		workload_release(&w);
		kvlist_release(&o);
	}
}

/* Import reads what fio ran: no strictness, 1.5k is one byte as fio made it. */
static void test_lenient(void **state)
{
	struct workload w;
	struct kvlist o;
	struct errbuf e;

	(void)state;
	workload_init(&w);
	kvlist_init(&o);
	errbuf_init(&e);
	opts_from(&o, "bs=1.5k runtime=10sec");
	assert_int_equal(fio_options_normalise(&o, NULL, "x.json", 0, 0, &w, &e), 0);
	assert_int_equal(w.bs_bytes, 1);
	assert_int_equal(w.runtime_s, 1); /* 10 us, rounded up to a second */
	workload_release(&w);
	kvlist_release(&o);
}

static void test_canonical(void **state)
{
	static const struct {
		const char *name, *value;
		unsigned kb_base;
		const char *want; /* NULL: fio's default */
	} cases[] = {
		{ "rate_iops", "15k", 1024, "15360" },
		{ "rate_iops", "15360", 1024, "15360" },
		{ "rate_iops", "15000", 1024, "15000" },
		{ "rate_iops", "15k", 1000, "15000" },
		{ "rate_iops", "1000,500", 1024, "1000,500,500" },
		{ "rate_iops", "1000,", 1024, "1000,0,0" },
		{ "rate", "1m", 1024, "1048576" },
		{ "bs", "4k,64k", 1024, "4096,65536,65536" },
		{ "bs", "4KiB", 1024, "4000" },
		{ "blocksize", "8k", 1024, "8192" },
		{ "bssplit", "64k/50:4k/50", 1024, "4096/50:65536/50" },
		{ "bssplit", "4k:64k", 1024, "4096/50:65536/50" },
		{ "bssplit", "4k/20:8k:64k", 1024, "4096/20:8192/40:65536/40" },
		{ "bssplit", "4k/100,64k/100", 1024, "4096/100,65536/100,65536/100" },
		{ "percentage_random", "50,50", 1024, "50" },
		{ "rw", "readwrite", 1024, "rw" },
		{ "rw", "randread:8", 1024, "randread:8" },
		{ "rw", "randread:1", 1024, "randread" },
		{ "thinktime", "1m", 1024, "60000000" },
		{ "thinktime", "60000000", 1024, "60000000" },
		{ "direct", "1", 1024, "1" },
		{ "ioengine", "libaio", 1024, "libaio" },
		{ "verify", "crc32c", 1024, "crc32c" },
		{ "fsync", "32", 1024, "32" },
		{ "size", "1g", 1024, "1073741824" },
		{ "size", "50%", 1024, "50%" },
		{ "iodepth", "1k", 1024, "1024" },
		{ "io_submit_mode", "offload", 1024, "offload" },
		/* fio's default, and a flag without a value */
		{ "rate_iops", "0", 1024, NULL },
		{ "bs", "4k,4k,4k", 1024, NULL },
		{ "percentage_random", "100", 1024, NULL },
		{ "thinktime", "0", 1024, NULL },
		{ "direct", "0", 1024, NULL },
		{ "ioengine", "psync", 1024, NULL },
		{ "direct", NULL, 1024, "1" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *c = fio_opt_value_canonical(cases[i].name, cases[i].value, cases[i].kb_base);
		if (cases[i].want ? !c || strcmp(c, cases[i].want) : c != NULL)
			fail_msg("%s=%s (kb_base %u): '%s', want '%s'", cases[i].name,
				 cases[i].value ? cases[i].value : "(flag)", cases[i].kb_base, c ? c : "(default)",
				 cases[i].want ? cases[i].want : "(default)");
		free(c);
	}
}

static void test_roles(void **state)
{
	static const char *const load[] = { "rate_iops", "thinktime", "verify", "fsync", "direct", "ioengine",
					    "io_submit_mode", "some_future_option", NULL };
	static const char *const no_load[] = { "name", "filename", "output", "write_lat_log", "log_avg_msec",
					       "group_reporting", "runtime", "timeout", "ramp_time", "time_based",
					       "bench.label.stack", "percentile_list", NULL };
	static const char *const modelled[] = { "rw", "readwrite", "bs", "blocksize", "bssplit", "rwmixread",
						"rwmixwrite", "percentage_random", "iodepth", "numjobs", "size",
						"buffer_compress_percentage", "dedupe_percentage", "kb_base", NULL };

	(void)state;
	for (size_t i = 0; load[i]; i++)
		if (fio_opt_role(load[i]) != FIO_OPT_LOAD)
			fail_msg("%s should change the load", load[i]);
	for (size_t i = 0; no_load[i]; i++)
		if (fio_opt_role(no_load[i]) != FIO_OPT_NO_LOAD)
			fail_msg("%s should not change the load", no_load[i]);
	for (size_t i = 0; modelled[i]; i++)
		if (fio_opt_role(modelled[i]) != FIO_OPT_MODELLED)
			fail_msg("%s should be modelled", modelled[i]);
	assert_string_equal(fio_opt_canonical_name("readwrite"), "rw");
	assert_string_equal(fio_opt_canonical_name("timeout"), "runtime");
	assert_string_equal(fio_opt_canonical_name("bs"), "bs");
}

TU_MAIN(cmocka_unit_test(test_sizes), cmocka_unit_test(test_times), cmocka_unit_test(test_normalise),
	cmocka_unit_test(test_errors), cmocka_unit_test(test_lenient), cmocka_unit_test(test_canonical),
	cmocka_unit_test(test_roles))
