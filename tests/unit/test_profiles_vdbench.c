/*
 * test_profiles_vdbench: vdbench parameter files through plan_build() (profiles/vdbench_params.c).
 *
 *  - lexical rules: '*', '#', '/' comments, text after the first blank ignored, ',' continuation, quotes,
 *    keyword abbreviations (xf el in io forx th), `eof`, include=, $var and !var substitution, defaults, lines
 *    with $host repeated per hd=;
 *  - values: k/m/g powers of 1024, `m` = minutes for elapsed/warmup, lists, ranges (a-b,step), doubling (d)
 *    and halving;
 *  - for-loops in vdbench's order: first for-parameter outermost, a repeated type moves to the end, the iorate
 *    list innermost, plain rd parameters are loops;
 *  - the translation to fio (docs/profiles.md): bs/bssplit/bsrange, rwmixread, percentage_random with
 *    seq/random/eof, iodepth per device, range -> offset/size, o_direct -> direct=1, elapsed/warmup ->
 *    runtime/ramp_time, iorate -> rate_iops per target, max -> unlimited;
 *  - refusals (fsd/fwd, rg/replay, unknown keyword, rdpct=170, unterminated list, unknown $var) with file:line,
 *    and warnings by name (curve, rhpct/whpct, several wds, prose lines).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/proc.h"
#include "core/strbuf.h"
#include "profiles/profile.h"
#include "testutil.h"


/* Plans `text` (as file "t.vdb"), with optional variables; returns 0 or -1 (err filled). */
static int plan_text(const char *text, const char *var, struct plan *p, struct errbuf *err)
{
	struct plan_options o;
	char *path = tu_write_in(tu_dir, "t.vdb", text);
	const char *args[1] = { path };
	int rc;

	plan_options_init(&o);
	if (var) {
		char *eq = strchr(var, '=');
		char *k = xstrndup(var, (size_t)(eq - var));
		kvlist_add(&o.vars, k, eq + 1);
		free(k);
	}
	plan_init(p);
	errbuf_init(err);
	rc = plan_build(args, 1, &o, p, err);
	plan_options_release(&o);
	free(path);
	return rc;
}

/* plan_text that must succeed (the test fails with the message otherwise). */
static void plan_ok(const char *text, const char *var, struct plan *p)
{
	struct errbuf err;

	if (plan_text(text, var, p, &err) < 0)
		fail_msg("%s", err.msg);
}

static const char *opt(const struct run_spec *s, const char *k)
{
	const struct kv *kv = kvlist_find(&s->wl.opts, k);
	return kv ? (kv->value ? kv->value : "(flag)") : NULL;
}

static void test_lexical(void **state)
{
	struct plan p;

	(void)state;
	free(tu_write_in(tu_dir, "inc.vdb", "sd=sd2,lun=/dev/inc,threads=4\n"));
	plan_ok("* comment\n# comment\n/ comment\n"
		"sd=default,th=16\n"
		"sd=sd1,lun=\"/dev/a b\"   trailing words are ignored,\n"
		"   openflags=o_direct,range=(10,60)\n"
		"include=inc.vdb\n"
		"wd=wd1,sd=sd1,xf=8k,rdp=$RD,seek=random\n"
		"rd=rd1,wd=wd1,io=max,el=2m,warm=30,in=1\n"
		"eof\n"
		"this line is after eof and never read\n", "RD=70", &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.runs[0].targets[0], "/dev/a b");
	assert_string_equal(opt(&p.runs[0], "iodepth"), "16"); /* sd=default */
	assert_string_equal(opt(&p.runs[0], "direct"), "1");   /* continued line */
	assert_string_equal(opt(&p.runs[0], "bs"), "8k");
	assert_string_equal(opt(&p.runs[0], "rw"), "randrw");
	assert_string_equal(opt(&p.runs[0], "rwmixread"), "70");
	assert_string_equal(opt(&p.runs[0], "offset"), "10%");
	assert_string_equal(opt(&p.runs[0], "size"), "50%");
	assert_string_equal(opt(&p.runs[0], "runtime"), "120"); /* el=2m: minutes */
	assert_string_equal(opt(&p.runs[0], "ramp_time"), "30");
	assert_null(opt(&p.runs[0], "rate_iops"));             /* iorate=max */
	assert_int_equal(p.runs[0].wl.read_pct, 70);
	assert_int_equal(p.runs[0].wl.random_pct, 100);
	assert_string_equal(p.runs[0].wl.tool, "vdbench");
	plan_release(&p);
}

static void test_for_loops(void **state)
{
	static const char *const want[] = { "1/4k/100", "1/4k/200", "1/8k/100", "1/8k/200",
					    "8/4k/100", "8/4k/200", "8/8k/100", "8/8k/200" };
	struct plan p;

	(void)state;
	/* first for-parameter outermost, iorate list innermost */
	plan_ok("sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1\n"
		"rd=rd1,wd=wd1,iorate=(100,200),elapsed=10,forthreads=(1,8),forxfersize=(4k,8k)\n", NULL, &p);
	assert_int_equal(p.n, 8);
	for (size_t i = 0; i < p.n; i++) {
		char got[64];
		snprintf(got, sizeof(got), "%s/%s/%s", opt(&p.runs[i], "iodepth"), opt(&p.runs[i], "bs"),
			 opt(&p.runs[i], "rate_iops"));
		assert_string_equal(got, want[i]);
	}
	plan_release(&p);

	/* repeating a type replaces it and moves it to the end: threads becomes the outer loop */
	plan_ok("sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1\n"
		"rd=rd1,wd=wd1,iorate=max,elapsed=10,forxfersize=(4k,8k),forthreads=(1,2),forxfersize=(16k,32k)\n", NULL, &p);
	assert_int_equal(p.n, 4);
	assert_string_equal(opt(&p.runs[0], "iodepth"), "1");
	assert_string_equal(opt(&p.runs[0], "bs"), "16k");
	assert_string_equal(opt(&p.runs[1], "bs"), "32k");
	assert_string_equal(opt(&p.runs[2], "iodepth"), "2");
	plan_release(&p);

	/* ranges, doubling, halving; plain rd parameters are loops too and override the wd */
	plan_ok("sd=sd1,lun=/dev/x\nwd=wd1,sd=sd1,rdpct=10\n"
		"rd=a,wd=wd1,iorate=max,elapsed=10,forxfersize=(4k-32k,4k)\n"
		"rd=b,wd=wd1,iorate=max,elapsed=10,forthreads=(1-64,d)\n"
		"rd=c,wd=wd1,iorate=max,elapsed=10,xfersize=(64k-16k,d),rdpct=(0,100)\n", NULL, &p);
	assert_int_equal(p.n, 8 + 7 + 6);
	assert_string_equal(opt(&p.runs[7], "bs"), "32k");
	assert_string_equal(opt(&p.runs[14], "iodepth"), "64");
	assert_string_equal(opt(&p.runs[15], "bs"), "64k");
	assert_string_equal(opt(&p.runs[15], "rw"), "randwrite");
	assert_string_equal(opt(&p.runs[16], "rw"), "randread");
	assert_string_equal(opt(&p.runs[20], "bs"), "16k");
	plan_release(&p);
}

static void test_translation(void **state)
{
	struct plan p;

	(void)state;
	plan_ok("compratio=4\n"
		"sd=sd1,lun=/dev/x,threads=4\nsd=sd2,lun=/dev/y,threads=4\n"
		"wd=seq,sd=sd*,xfersize=(4k,60,64k,40),seekpct=seq,wrpct=100\n"
		"wd=part,sd=(sd1-sd2),xfersize=(4k,64k,4k),seekpct=30,rdpct=50\n"
		"wd=eof,sd=sd1,seekpct=eof\n"
		"rd=r1,wd=seq,iorate=1000,elapsed=60\n"
		"rd=r2,wd=part,iorate=max,elapsed=60\n"
		"rd=r3,wd=eof,iorate=max,elapsed=60\n", NULL, &p);
	assert_int_equal(p.n, 3);
	assert_string_equal(opt(&p.runs[0], "bssplit"), "4k/60:64k/40");
	assert_string_equal(opt(&p.runs[0], "rw"), "write");
	assert_string_equal(opt(&p.runs[0], "rate_iops"), "500"); /* 1000 IO/s over two targets */
	assert_string_equal(opt(&p.runs[0], "buffer_compress_percentage"), "75");
	assert_int_equal(p.runs[0].ntargets, 2);
	assert_string_equal(opt(&p.runs[1], "bsrange"), "4k-64k");
	assert_string_equal(opt(&p.runs[1], "ba"), "4k");
	assert_string_equal(opt(&p.runs[1], "rw"), "randrw");
	assert_string_equal(opt(&p.runs[1], "percentage_random"), "30");
	assert_string_equal(opt(&p.runs[1], "rwmixread"), "50");
	assert_int_equal(p.runs[1].wl.random_pct, 30);
	assert_int_equal(p.runs[1].ntargets, 2);
	assert_string_equal(opt(&p.runs[2], "rw"), "read");
	assert_null(opt(&p.runs[2], "time_based")); /* eof: stop at the end */
	assert_string_equal(opt(&p.runs[2], "iodepth"), "4"); /* sd1's threads */
	plan_release(&p);
}

static void test_warnings(void **state)
{
	struct plan p;
	int curve = 0, hit = 0, prose = 0, many = 0;

	(void)state;
	plan_ok("sd=sd1,lun=/dev/x\n"
		"wd=wd1,sd=sd1,rhpct=50\nwd=wd2,sd=sd1\n"
		"This prose line is not a keyword\n"
		"rd=rd1,wd=wd*,iorate=curve,curve=(50,100),elapsed=10\n", NULL, &p);
	assert_int_equal(p.n, 3); /* max run + 2 curve points */
	assert_string_equal(p.runs[1].name, "rd1_(50%)");
	for (size_t i = 0; i < p.nwarnings; i++) {
		curve += strstr(p.warnings[i], "curve") != NULL;
		hit += strstr(p.warnings[i], "rhpct") != NULL;
		prose += strstr(p.warnings[i], "t.vdb:4:") != NULL;
		many += strstr(p.warnings[i], "wd1,wd2") != NULL;
	}
	assert_true(curve > 0 && hit > 0 && prose > 0 && many > 0);
	plan_release(&p);
}

static void test_host_lines(void **state)
{
	struct plan p;
	struct errbuf err;

	(void)state;
	/* a line with $host is repeated once per hd= (hd=default excluded) */
	plan_ok("hd=default,user=x\nhd=h1,system=a\nhd=h2,system=b\n"
		"sd=sd_$host,host=$host,lun=/dev/sd_$host\nwd=wd1,sd=sd_*\nrd=rd1,wd=wd1,iorate=max,elapsed=10\n", NULL, &p);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.runs[0].ntargets, 2);
	assert_string_equal(p.runs[0].targets[0], "/dev/sd_h1");
	assert_string_equal(p.runs[0].targets[1], "/dev/sd_h2");
	plan_release(&p);
	assert_int_equal(plan_text("sd=sd_$host,lun=/dev/x\n", NULL, &p, &err), -1);
	assert_non_null(strstr(err.msg, "t.vdb:1:"));
	plan_release(&p);
}

static void test_refused(void **state)
{
	static const struct {
		const char *text;
		const char *where;
		const char *what;
	} cases[] = {
		{ "fsd=fsd1,anchor=/x\n", "t.vdb:1:", "file-system" },
		{ "sd=sd1,lun=/x\nfwd=fwd1,fsd=fsd1\n", "t.vdb:2:", "file-system" },
		{ "rg=g1,devices=(1,2)\n", "t.vdb:1:", "replay" },
		{ "sd=sd1,lun=/x,replay=g1\n", "t.vdb:1:", "replay" },
		{ "sd=sd1,lun=/x\nwd=wd1,sd=sd1,xfrsize=4k\n", "t.vdb:2:", "unknown keyword 'xfrsize'" },
		{ "sd=sd1,lun=/x\nwd=wd1,sd=sd1,rdpct=170\nrd=r,wd=wd1,iorate=max\n", "t.vdb:2:", "0..100" },
		{ "sd=sd1,lun=/x\nwd=wd1,sd=(sd1\n", "t.vdb:2:", "unterminated list" },
		{ "sd=sd1,lun=$DISK\n", "t.vdb:1:", "$DISK" },
		{ "sd=sd1,lun=/x\nwd=wd1,sd=sd1\nrd=r,wd=wd1,iorate=max,elapsed=ten\n", "t.vdb:3:", "ten" },
		{ "sd=sd1,lun=/x\nsd=sd1,lun=/y\n", "t.vdb:2:", "duplicate sd=sd1" },
		{ "wd=wd1,sd=sd1\nsd=sd1,lun=/x\n", "t.vdb:2:", "order" },
		{ "* only comments\n", "t.vdb:1:", "empty" },
		{ "sd=sd1,lun=/x\nwd=wd1,sd=sd1\nrd=r,wd=wd9,iorate=max\n", "t.vdb:3:", "wd9" },
		{ "sd=sd1,lun=/x,\n", "t.vdb:1:", "continuation" },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct plan p;
		struct errbuf err;
		if (plan_text(cases[c].text, NULL, &p, &err) == 0)
			fail_msg("case %zu accepted", c);
		assert_int_equal(err.kind, ERR_INPUT);
		if (!strstr(err.msg, cases[c].where) || !strstr(err.msg, cases[c].what))
			fail_msg("case %zu: '%s' lacks '%s' or '%s'", c, err.msg, cases[c].where, cases[c].what);
		plan_release(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lexical),
		cmocka_unit_test(test_for_loops),
		cmocka_unit_test(test_translation),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_host_lines),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, tu_dir_setup, tu_dir_teardown);
}
