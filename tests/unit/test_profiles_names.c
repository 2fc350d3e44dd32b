/*
 * test_profiles_names: HCIbench-style names (profiles/names.c) and the built-in library.
 *
 *  - acceptance 3 of issue 3: for every run of every built-in suite (every *.suite in profile_library_dir(),
 *    full and --quick), the run's name parses back to exactly the run's parameters: disks = targets, working
 *    set, block size, read %, random %, threads = iodepth, compress and dedupe %, fio- or vdb- form. Runs whose
 *    workload does not fit the pattern must carry a name that is not one;
 *  - a table of names that parse and of names that must not;
 *  - a name alone is a profile: planning it gives one run with those parameters and the same name back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "profiles/profile.h"

static void check_roundtrip(const struct run_spec *s, const char *suite)
{
	struct profile_name n, w;

	if (profile_name_parse(s->name, &n) < 0) {
		/* not HCIbench style: then the workload must not fit the pattern either */
		if (profile_name_of_spec(s, &w) == 0)
			fail_msg("%s run %u '%s' fits the pattern but is not named by it", suite, s->seq, s->name);
		return;
	}
	if (n.disks != s->ntargets || n.ws_pct != (unsigned)profile_ws_pct(s->wl.size) ||
	    n.bs_bytes != s->wl.bs_bytes || (int)n.read_pct != s->wl.read_pct ||
	    (int)n.random_pct != s->wl.random_pct || n.threads != s->wl.iodepth ||
	    (int)n.compress_pct != s->wl.compress_pct || (int)n.dedupe_pct != s->wl.dedupe_pct ||
	    n.vdbench != (s->wl.tool && !strcmp(s->wl.tool, "vdbench")) || s->wl.numjobs != 1 || s->wl.bssplit)
		fail_msg("%s run %u '%s': name says %uvmdk %uws bs=%llu rd=%u rand=%u threads=%u c=%u d=%u vdb=%d, run "
			 "has %zu targets size=%s bs=%llu rd=%d rand=%d iodepth=%u numjobs=%u c=%d d=%d tool=%s",
			 suite, s->seq, s->name, n.disks, n.ws_pct, (unsigned long long)n.bs_bytes, n.read_pct,
			 n.random_pct, n.threads, n.compress_pct, n.dedupe_pct, n.vdbench, s->ntargets,
			 s->wl.size ? s->wl.size : "(none)", (unsigned long long)s->wl.bs_bytes, s->wl.read_pct,
			 s->wl.random_pct, s->wl.iodepth, s->wl.numjobs, s->wl.compress_pct, s->wl.dedupe_pct,
			 s->wl.tool);
}

static void test_library_roundtrip(void **state)
{
	DIR *d = opendir(profile_library_dir());
	struct dirent *e;
	size_t suites = 0, runs = 0, named = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char *name;
		if (l <= 6 || strcmp(e->d_name + l - 6, ".suite"))
			continue;
		name = xstrndup(e->d_name, l - 6);
		suites++;
		for (int quick = 0; quick <= 1; quick++) {
			struct plan_options o;
			struct plan p;
			struct errbuf err;
			const char *args[1] = { name };

			plan_options_init(&o);
			plan_init(&p);
			errbuf_init(&err);
			o.quick = quick;
			o.workdir = "/tmp";
			if (plan_build(args, 1, &o, &p, &err) < 0)
				fail_msg("suite %s: %s", name, err.msg);
			assert_true(p.n > 0);
			for (size_t i = 0; i < p.n; i++) {
				struct profile_name n;
				/* quick runs keep the full run's name: compare the full plan only */
				if (!quick)
					check_roundtrip(&p.runs[i], name);
				runs++;
				named += profile_name_parse(p.runs[i].name, &n) == 0;
			}
			plan_release(&p);
			plan_options_release(&o);
		}
		free(name);
	}
	closedir(d);
	print_message("library: %zu suites, %zu runs (full + quick), %zu with HCIbench-style names\n", suites, runs,
		      named);
	assert_true(suites >= 4);
}

static void test_name_table(void **state)
{
	static const char *const good[] = {
		"fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads",
		"fio-1vmdk-50ws-256k-0rdpct-0randompct-1threads",
		"vdb-2vmdk-100ws-64k-75rdpct-80randompct-4threads",
		"fio-8vmdk-100ws-4k-100rdpct-100randompct-4threads-50compress-50dedupe",
		"fio-8vmdk-100ws-1m-0rdpct-0randompct-1threads",
		"fio-8vmdk-100ws-512-0rdpct-0randompct-1threads",
	};
	static const char *const bad[] = {
		"fio-8vmdk-100ws-4k-70rdpct-100randompct",           /* no threads */
		"fio-0vmdk-100ws-4k-70rdpct-100randompct-4threads",  /* no disks */
		"fio-8vmdk-100ws-4k-170rdpct-100randompct-4threads", /* rdpct > 100 */
		"fio-8vmdk-101ws-4k-70rdpct-100randompct-4threads",  /* ws > 100 */
		"fio-8vmdk-100ws-4x-70rdpct-100randompct-4threads",  /* bad size */
		"fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-",
		"fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads-50compress",
		"abc-8vmdk-100ws-4k-70rdpct-100randompct-4threads",
		"fio-8vmdk-100ws-4k-70rdpct-100randompct-0threads",
		"hcibench-easyrun",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct profile_name n;
		char buf[256];
		if (profile_name_parse(good[i], &n) < 0)
			fail_msg("'%s' did not parse", good[i]);
		assert_int_equal(profile_name_format(&n, buf, sizeof(buf)), 0);
		assert_string_equal(buf, good[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct profile_name n;
		if (profile_name_parse(bad[i], &n) == 0)
			fail_msg("'%s' parsed", bad[i]);
	}
}

static void test_name_as_profile(void **state)
{
	static const char *const names[] = {
		"fio-8vmdk-100ws-4k-70rdpct-100randompct-4threads",
		"fio-2vmdk-50ws-8k-50rdpct-100randompct-8threads-50compress-50dedupe",
		"vdb-1vmdk-100ws-64k-75rdpct-80randompct-4threads",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct plan_options o;
		struct plan p;
		struct errbuf err;
		const char *args[1] = { names[i] };

		plan_options_init(&o);
		plan_init(&p);
		errbuf_init(&err);
		o.workdir = "/tmp";
		if (plan_build(args, 1, &o, &p, &err) < 0)
			fail_msg("%s: %s", names[i], err.msg);
		assert_int_equal(p.n, 1);
		assert_string_equal(p.runs[0].name, names[i]);
		check_roundtrip(&p.runs[0], names[i]);
		/* HCIbench's options come with it */
		assert_string_equal(kvlist_get(&p.runs[0].wl.opts, "ioengine", ""), "libaio");
		assert_string_equal(kvlist_get(&p.runs[0].wl.opts, "rw", ""), "randrw");
		assert_non_null(kvlist_find(&p.runs[0].wl.opts, "time_based"));
		plan_release(&p);
		plan_options_release(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_library_roundtrip),
		cmocka_unit_test(test_name_table),
		cmocka_unit_test(test_name_as_profile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
